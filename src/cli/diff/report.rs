//! A campaign's tallies: agreement per kind pair, regime, query and path; the JSON
//! report a shard writes, the merge of shard reports, and the text summary.
//!
//! The JSON report:
//!
//! ```json
//! {
//!   "format": "widephase-diff-report", "version": 1,
//!   "campaign": {"source": "generated", "seed": 1, "count": 20000, "shards": 4,
//!                "kinds": ["sphere", ...], "regimes": ["random", ...], "scales": [1.0],
//!                "queries": ["intersects", ...], "paths": ["gjk-core", ...]},
//!   "shards": [1],
//!   "complete": false, "stopped_early": false,
//!   "cases_run": 5000, "refused": 0,
//!   "rows": [{"kinds": "cuboid-hull", "regime": "touching", "query": "distance",
//!             "path": "gjk-simd", "cases": 12, "agree": 12, "in_band": 0,
//!             "reference_certified": 0, "both_certified": 0, "reference_refuted": 0,
//!             "disagree": 0,
//!             "expected_checked": 0, "expected_mismatch": 0, "max_error": 1.2e-7}],
//!   "disagreements": [{"kinds": "...", "regime": "...", "query": "...", "path": "...",
//!                      "index": 17, "file": "widephase-diff-cases/....json"}],
//!   "passed": true
//! }
//! ```
//!
//! `max_error` is the largest difference from the reference among the cases (a
//! fraction of the pair's scale for distances, relative for depths).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::judge::Verdict;
use super::paths::Query;

/// The `format` tag of reports.
pub const FORMAT: &str = "widephase-diff-report";

/// Counts of one row.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Cases compared.
    pub cases: u64,
    /// Within the bounds.
    pub agree: u64,
    /// Booleans differing within the touching band.
    pub in_band: u64,
    /// Independent path refuted, reference certified.
    pub reference_certified: u64,
    /// Both answers certified.
    pub both_certified: u64,
    /// Failures where the other answer is certified and gjk-core's refuted.
    pub reference_refuted: u64,
    /// Other failures.
    pub disagree: u64,
    /// Cases with an expected value for this query.
    pub expected_checked: u64,
    /// Of those, answers off the expected value.
    pub expected_mismatch: u64,
    /// The largest finite difference from the reference.
    pub max_error: f64,
}

impl Tally {
    /// Counts one verdict with its difference.
    pub fn count(&mut self, verdict: Verdict, error: f64) {
        self.cases += 1;
        match verdict {
            Verdict::Agree => self.agree += 1,
            Verdict::InBand => self.in_band += 1,
            Verdict::ReferenceCertified => self.reference_certified += 1,
            Verdict::BothCertified => self.both_certified += 1,
            Verdict::ReferenceRefuted => self.reference_refuted += 1,
            Verdict::Disagree => self.disagree += 1,
        }
        if error.is_finite() {
            self.max_error = self.max_error.max(error);
        }
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Tally) {
        self.cases += other.cases;
        self.agree += other.agree;
        self.in_band += other.in_band;
        self.reference_certified += other.reference_certified;
        self.both_certified += other.both_certified;
        self.reference_refuted += other.reference_refuted;
        self.disagree += other.disagree;
        self.expected_checked += other.expected_checked;
        self.expected_mismatch += other.expected_mismatch;
        self.max_error = self.max_error.max(other.max_error);
    }

    /// Failures: disagreements, refuted references and expected values missed.
    pub fn failures(&self) -> u64 {
        self.disagree + self.reference_refuted + self.expected_mismatch
    }
}

/// What a row counts.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Key {
    /// Kind pair, `a-b`.
    pub kinds: String,
    /// Regime (`cases` for a cases file).
    pub regime: String,
    /// Query.
    pub query: Query,
    /// Path.
    pub path: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Row {
    #[serde(flatten)]
    key: Key,
    #[serde(flatten)]
    tally: Tally,
}

/// A failure, as listed in the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Note {
    /// Kind pair.
    pub kinds: String,
    /// Regime.
    pub regime: String,
    /// Query.
    pub query: Query,
    /// Path.
    pub path: String,
    /// The case's index in the campaign, or in the cases file.
    pub index: u64,
    /// The replayable case file written for it (only the first few are written).
    pub file: Option<String>,
}

/// What was run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Campaign {
    /// `generated` or the cases file's path.
    pub source: String,
    /// The seed (generated campaigns).
    pub seed: u64,
    /// Cases in the whole campaign, over all shards.
    pub count: u64,
    /// How many shards the campaign is split into.
    pub shards: u64,
    /// Shape kinds.
    pub kinds: Vec<String>,
    /// Regimes.
    pub regimes: Vec<String>,
    /// Size scales.
    pub scales: Vec<f32>,
    /// Queries.
    pub queries: Vec<Query>,
    /// Paths.
    pub paths: Vec<String>,
}

/// A campaign's (or a shard's) report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    format: String,
    version: u32,
    /// What was run.
    pub campaign: Campaign,
    /// The shards this report covers (from 1).
    pub shards: Vec<u64>,
    /// Whether every shard of the campaign is covered.
    pub complete: bool,
    /// Whether some shard stopped at its time budget before its last case.
    pub stopped_early: bool,
    /// Cases run.
    pub cases_run: u64,
    /// Cases the shape constructors refused as drawn (not run).
    pub refused: u64,
    rows: Vec<Row>,
    /// Every failure.
    pub disagreements: Vec<Note>,
    /// No failure (and, for a merge, every shard present).
    pub passed: bool,
}

/// Tallies being filled.
#[derive(Debug, Default)]
pub struct Tallies {
    rows: BTreeMap<Key, Tally>,
    /// Failures found.
    pub notes: Vec<Note>,
}

impl Tallies {
    /// The tally of `key`.
    pub fn row(&mut self, key: Key) -> &mut Tally {
        self.rows.entry(key).or_default()
    }

    /// The report of a run of `cases_run` cases of `shard` (`refused` not run;
    /// `finished`: every case of the shard ran, no time budget stopped it).
    pub fn report(
        self,
        campaign: Campaign,
        shard: u64,
        cases_run: u64,
        refused: u64,
        finished: bool,
    ) -> Report {
        let failures: u64 = self.rows.values().map(Tally::failures).sum();
        let complete = campaign.shards == 1;
        Report {
            format: FORMAT.to_string(),
            version: 1,
            campaign,
            shards: vec![shard],
            complete,
            stopped_early: !finished,
            cases_run,
            refused,
            rows: self
                .rows
                .into_iter()
                .map(|(key, tally)| Row { key, tally })
                .collect(),
            disagreements: self.notes,
            passed: failures == 0,
        }
    }
}

impl Report {
    /// Whether the campaign found no failure (a shard passes on its own cases).
    pub fn failures(&self) -> u64 {
        self.rows.iter().map(|r| r.tally.failures()).sum()
    }

    /// Merges shard reports of one campaign: counts added, failures listed, the
    /// shards covered. Refuses reports of different campaigns or a shard twice.
    pub fn merge(reports: Vec<Report>) -> Result<Report, String> {
        let mut reports = reports.into_iter();
        let mut merged = reports.next().ok_or("no report to merge")?;
        if merged.format != FORMAT || merged.version != 1 {
            return Err(format!(
                "not a diff report of version 1: {:?}",
                merged.format
            ));
        }
        let mut rows: BTreeMap<Key, Tally> =
            merged.rows.drain(..).map(|r| (r.key, r.tally)).collect();
        for r in reports {
            if r.format != FORMAT || r.version != 1 {
                return Err(format!("not a diff report of version 1: {:?}", r.format));
            }
            if r.campaign != merged.campaign {
                return Err(format!(
                    "the reports are of different campaigns: {:?} and {:?}",
                    merged.campaign, r.campaign
                ));
            }
            if let Some(s) = r.shards.iter().find(|s| merged.shards.contains(s)) {
                return Err(format!("shard {s} appears in two reports"));
            }
            merged.shards.extend(&r.shards);
            merged.cases_run += r.cases_run;
            merged.stopped_early |= r.stopped_early;
            merged.refused += r.refused;
            merged.disagreements.extend(r.disagreements);
            for row in r.rows {
                rows.entry(row.key).or_default().add(&row.tally);
            }
        }
        merged.shards.sort_unstable();
        merged.rows = rows
            .into_iter()
            .map(|(key, tally)| Row { key, tally })
            .collect();
        merged.complete = merged.shards.len() as u64 == merged.campaign.shards;
        merged.passed = merged.failures() == 0 && merged.complete;
        Ok(merged)
    }

    /// The shards of the campaign not covered.
    pub fn missing_shards(&self) -> Vec<u64> {
        (1..=self.campaign.shards)
            .filter(|s| !self.shards.contains(s))
            .collect()
    }

    /// Tallies summed over the rows for which `group` gives the same label.
    fn grouped(&self, group: impl Fn(&Key) -> String) -> BTreeMap<String, Tally> {
        let mut out: BTreeMap<String, Tally> = BTreeMap::new();
        for row in &self.rows {
            out.entry(group(&row.key)).or_default().add(&row.tally);
        }
        out
    }

    /// The text summary: per query and path, per kind pair, per regime.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let c = &self.campaign;
        s += &format!(
            "widephase diff: {} cases run ({}; seed {}, shards {:?} of {}), {} refused by the shape constructors\n",
            self.cases_run, c.source, c.seed, self.shards, c.shards, self.refused
        );
        s += &format!(
            "{:<11} {:<13} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>10}\n",
            "query",
            "path",
            "cases",
            "agree",
            "in band",
            "ref cert",
            "both cert",
            "ref wrong",
            "disagree",
            "max error"
        );
        for (label, t) in self.grouped(|k| format!("{:<11} {:<13}", k.query.name(), k.path)) {
            s += &format!(
                "{label} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>10.2e}\n",
                t.cases,
                t.agree,
                t.in_band,
                t.reference_certified,
                t.both_certified,
                t.reference_refuted,
                t.disagree,
                t.max_error
            );
            if t.expected_checked > 0 {
                s += &format!(
                    "{:<25} expected values: {} checked, {} missed\n",
                    "", t.expected_checked, t.expected_mismatch
                );
            }
        }
        s += "per kind pair (answers agreeing or excused / compared, all paths):\n";
        let by_kind = self.grouped(|k| format!("{}\t{}", k.kinds, k.query.name()));
        let mut line = String::new();
        let mut current = String::new();
        for (label, t) in &by_kind {
            let (kinds, query) = label.split_once('\t').unwrap_or((label, ""));
            if kinds != current {
                if !line.is_empty() {
                    s += &line;
                    s += "\n";
                }
                current = kinds.to_string();
                line = format!("  {kinds:<20}");
            }
            line += &format!(
                " {query} {}/{}",
                t.cases - t.failures().min(t.cases),
                t.cases
            );
        }
        if !line.is_empty() {
            s += &line;
            s += "\n";
        }
        s += "per regime:\n";
        for (regime, t) in self.grouped(|k| k.regime.clone()) {
            s += &format!(
                "  {regime:<12} {} compared, {} agree, {} in band, {} reference certified, {} both certified, {} disagree\n",
                t.cases,
                t.agree,
                t.in_band,
                t.reference_certified,
                t.both_certified,
                t.failures()
            );
        }
        s
    }
}
