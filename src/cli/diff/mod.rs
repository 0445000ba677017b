//! `widephase diff`: the differential harness. The same pairs go through every path
//! of [`paths::PATHS`] (gjk-core, gjk-simd as users call it and with its shortcuts
//! off, parry3d); each answer is judged against gjk-core's ([`judge`]); the
//! agreement is tallied per kind pair, regime, query and path ([`report`]); each
//! failure is shrunk ([`shrink`]) and written as a replayable cases file
//! ([`case`]). The exit status is 1 when a failure was found, so that CI can run
//! it.
//!
//! Cases come from the seeded generators ([`generate`]), by count or time budget,
//! optionally one shard of a campaign split over machines; or from a cases file.

mod case;
mod generate;
mod judge;
mod paths;
mod report;
mod shrink;

use std::error::Error;
use std::path::{Path as FilePath, PathBuf};
use std::time::Instant;

use clap::Args;
use gjk_core::ShapeKind;
use workloads::workload::SHAPE_KINDS;

use super::args::{self, Shard, kind_name};
use super::output::{Progress, print_json, read_json, write_json};
use super::usage_error;
use case::{Case, CaseFile, Finding};
use generate::{Generator, Regime};
use judge::{Evidence, Tolerances, Verdict, judge, judge_expected};
use paths::{Answer, PATHS, Path, Query, Role};
use report::{Campaign, Key, Note, Report, Tallies};

/// Options of `widephase diff`.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// Cases of the whole campaign (all shards together).
    #[arg(long, default_value = "20000", value_parser = args::cases, allow_negative_numbers = true)]
    pub count: u64,
    /// Stop after this many seconds even if cases remain (the report says so).
    #[arg(long, value_name = "SECONDS", value_parser = args::seconds, allow_negative_numbers = true)]
    pub time: Option<f64>,
    /// Seed of the case stream.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Shape kinds to pair, comma-separated (default: all seven).
    #[arg(long, value_delimiter = ',', value_parser = args::shape_kind)]
    pub kinds: Vec<ShapeKind>,
    /// Regimes, comma-separated (default: all).
    #[arg(long, value_delimiter = ',', value_enum)]
    pub regimes: Vec<Regime>,
    /// Size scales, comma-separated: every size and position times each (default:
    /// 1).
    #[arg(long, value_delimiter = ',', value_parser = scale, allow_negative_numbers = true)]
    pub scales: Vec<f32>,
    /// Queries, comma-separated (default: all).
    #[arg(long, value_delimiter = ',', value_enum)]
    pub queries: Vec<Query>,
    /// Paths compared with gjk-core, comma-separated (default: all): gjk-simd,
    /// gjk-simd-gjk (every pair through the GJK kernels), parry3d.
    #[arg(long, value_delimiter = ',', value_parser = path_name)]
    pub paths: Vec<String>,
    /// Run shard K of N: the cases whose index is K-1 modulo N. Each shard's
    /// report (`--report`) merges with the others' (`--merge`).
    #[arg(long, value_name = "K/N", value_parser = args::shard, default_value = "1/1")]
    pub shard: Shard,
    /// Run the cases of a cases file (JSON, format in README.md) instead of
    /// generated ones.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["replay", "merge"])]
    pub cases: Option<PathBuf>,
    /// Replay a cases file (a written disagreement, say), printing every path's
    /// answer and verdict for each case.
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    pub replay: Option<PathBuf>,
    /// Merge shard reports (written with --report) into one and judge it: the exit
    /// status is 1 if any shard failed or a shard is missing.
    #[arg(long, value_name = "REPORT", num_args = 1..)]
    pub merge: Vec<PathBuf>,
    /// Folder for the failures' case files.
    #[arg(long, value_name = "DIR", default_value = "widephase-diff-cases")]
    pub out: PathBuf,
    /// Write at most this many failure files (every failure is counted).
    #[arg(long, value_name = "N", default_value = "20", value_parser = args::cases)]
    pub max_written: u64,
    /// Write failures as generated, without shrinking them.
    #[arg(long)]
    pub no_shrink: bool,
    /// Print the JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON report to this file.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Test only: every agreement bound times this factor (0 plants disagreements
    /// wherever answers are not bit-identical).
    #[arg(long, hide = true, value_parser = scale_factor)]
    pub test_tolerance_scale: Option<f32>,
}

fn scale(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(s) if s.is_finite() && (1e-4..=1e4).contains(&s) => Ok(s),
        _ => Err(format!(
            "a scale is a number from 1e-4 to 1e4 (f32 keeps about seven digits, so wider scales test f32, not the queries); got {text:?}"
        )),
    }
}

fn scale_factor(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("expected a factor >= 0, got {text:?}")),
    }
}

fn path_name(text: &str) -> Result<String, String> {
    let names = paths::names();
    names
        .iter()
        .find(|&&n| n == text.trim())
        .map(|n| n.to_string())
        .ok_or_else(|| format!("unknown path {text:?}: one of {}", names.join(", ")))
}

/// Cases a chunk holds: the batch paths run a chunk at a time.
const CHUNK: usize = 1024;

/// What a campaign compares, and how strictly.
struct Setup {
    queries: Vec<Query>,
    paths: Vec<String>,
    tol: Tolerances,
}

impl Setup {
    fn new(args: &DiffArgs) -> Self {
        let queries = if args.queries.is_empty() {
            vec![
                Query::Intersects,
                Query::Distance,
                Query::Contact,
                Query::Speculative,
            ]
        } else {
            args.queries.clone()
        };
        let mut paths: Vec<String> = if args.paths.is_empty() {
            paths::names().iter().map(|s| s.to_string()).collect()
        } else {
            args.paths.clone()
        };
        paths.retain(|p| p != "gjk-core");
        Setup {
            queries,
            paths,
            tol: args
                .test_tolerance_scale
                .map_or(Tolerances::DEFAULT, Tolerances::scaled),
        }
    }

    /// The paths compared for `query`, beside the reference.
    fn compared(&self, query: Query) -> impl Iterator<Item = &'static Path> + '_ {
        PATHS
            .iter()
            .filter(move |p| p.query == query && p.role != Role::Reference)
            .filter(|p| self.paths.iter().any(|n| n == p.name))
    }
}

/// A failure waiting to be shrunk and written.
struct Failure {
    case: Case,
    query: Query,
    path: &'static Path,
    reference: Option<Answer>,
    answer: Answer,
    verdict: Verdict,
    note: usize,
}

/// Runs `diff`; `Ok(true)` when no failure was found.
pub fn main(args: &DiffArgs) -> Result<bool, Box<dyn Error>> {
    if !args.merge.is_empty() {
        return merge(args);
    }
    // A path that panics is recorded as a failed answer (paths::answers); the
    // default hook's message and backtrace on standard error would only repeat it.
    std::panic::set_hook(Box::new(|_| {}));
    if let Some(path) = &args.replay {
        return replay(args, path);
    }
    let setup = Setup::new(args);
    let start = Instant::now();
    let mut tallies = Tallies::default();
    let mut failures = Vec::new();
    let (mut run, mut refused) = (0u64, 0u64);
    let mut finished = true;
    let campaign;
    if let Some(path) = &args.cases {
        let cases = case::read(path).unwrap_or_else(|e| usage_error(e));
        campaign = campaign_of(args, &setup, path.display().to_string(), cases.len() as u64);
        for (chunk_index, chunk) in cases.chunks(CHUNK).enumerate() {
            let first = (chunk_index * CHUNK) as u64;
            let indexed: Vec<(u64, Case)> = chunk
                .iter()
                .enumerate()
                .map(|(i, c)| (first + i as u64, c.clone()))
                .collect();
            run += indexed.len() as u64;
            run_chunk(&setup, &indexed, "cases", &mut tallies, &mut failures);
        }
    } else {
        let kinds = if args.kinds.is_empty() {
            SHAPE_KINDS.to_vec()
        } else {
            args.kinds.clone()
        };
        let regimes = if args.regimes.is_empty() {
            Regime::ALL.to_vec()
        } else {
            args.regimes.clone()
        };
        let scales = if args.scales.is_empty() {
            vec![1.0]
        } else {
            args.scales.clone()
        };
        let generator = Generator::new(args.seed, &kinds, &regimes, &scales);
        campaign = Campaign {
            kinds: kinds.iter().map(|&k| kind_name(k).to_string()).collect(),
            regimes: regimes.iter().map(|r| r.name().to_string()).collect(),
            scales,
            ..campaign_of(args, &setup, "generated".to_string(), args.count)
        };
        let shard = args.shard;
        let mine = (args.count + shard.count - shard.index) / shard.count;
        let progress = Progress::new(mine, "cases");
        let mut next = shard.index - 1;
        while next < args.count {
            if args.time.is_some_and(|t| start.elapsed().as_secs_f64() > t) {
                finished = false;
                break;
            }
            let mut chunk = Vec::with_capacity(CHUNK);
            while chunk.len() < CHUNK && next < args.count {
                debug_assert!(shard.holds(next));
                match generator.case(next) {
                    Ok(c) => chunk.push((next, c.canonical())),
                    Err(_) => refused += 1,
                }
                next += shard.count;
            }
            run += chunk.len() as u64;
            run_chunk(&setup, &chunk, "", &mut tallies, &mut failures);
            progress.inc(chunk.len() as u64);
        }
        progress.finish();
    }

    write_failures(args, &setup, &mut tallies, failures)?;
    let report = tallies.report(campaign, args.shard.index, run, refused, finished);
    if let Some(path) = &args.report {
        write_json(path, &report)?;
    }
    if args.json {
        print_json(&report)?;
    } else {
        print!("{}", report.text());
        say!("{}", verdict_line(&report, args))?;
    }
    Ok(report.passed)
}

fn campaign_of(args: &DiffArgs, setup: &Setup, source: String, count: u64) -> Campaign {
    Campaign {
        source,
        seed: args.seed,
        count,
        shards: args.shard.count,
        kinds: Vec::new(),
        regimes: Vec::new(),
        scales: Vec::new(),
        queries: setup.queries.clone(),
        paths: setup.paths.clone(),
    }
}

fn verdict_line(report: &Report, args: &DiffArgs) -> String {
    let failures = report.failures();
    let mut line = if failures == 0 {
        "verdict: PASS, no disagreement beyond tolerance".to_string()
    } else {
        let written = report
            .disagreements
            .iter()
            .filter(|n| n.file.is_some())
            .count();
        format!(
            "verdict: FAIL, {failures} disagreements beyond tolerance; {written} written to {} (replay with --replay FILE)",
            args.out.display()
        )
    };
    if report.stopped_early {
        line += "; stopped at the time budget before the last case";
    }
    line
}

/// Runs every compared path of every query on `chunk`, tallies the verdicts and
/// keeps the failures.
fn run_chunk(
    setup: &Setup,
    chunk: &[(u64, Case)],
    default_regime: &str,
    tallies: &mut Tallies,
    failures: &mut Vec<Failure>,
) {
    let cases: Vec<Case> = chunk.iter().map(|(_, c)| c.clone()).collect();
    let evidence: Vec<Evidence<'_>> = cases.iter().map(|c| Evidence::new(c, setup.tol)).collect();
    for &query in &setup.queries {
        let reference = paths::reference(query);
        let ref_answers = paths::answers(reference, &cases);
        let mut compared: Vec<(&'static Path, Vec<Answer>)> = setup
            .compared(query)
            .map(|p| (p, paths::answers(p, &cases)))
            .collect();
        compared.push((reference, ref_answers.clone()));
        for (path, answers) in &compared {
            for (j, answer) in answers.iter().enumerate() {
                let (index, case) = (chunk[j].0, &cases[j]);
                let key = Key {
                    kinds: case.kinds(),
                    regime: case
                        .origin
                        .as_ref()
                        .map_or(default_regime.to_string(), |o| o.regime.clone()),
                    query,
                    path: path.name.to_string(),
                };
                let mut failed = None;
                if path.role != Role::Reference {
                    let j_ = judge(&evidence[j], query, &ref_answers[j], answer, path.role);
                    tallies.row(key.clone()).count(j_.verdict, j_.error);
                    if j_.verdict.fails() {
                        failed = Some((Some(ref_answers[j].clone()), j_.verdict));
                    }
                }
                if let Some(expected) = case.expected_for(query) {
                    let j_ = judge_expected(&evidence[j], query, expected, answer);
                    let row = tallies.row(key.clone());
                    row.expected_checked += 1;
                    if j_.verdict.fails() {
                        row.expected_mismatch += 1;
                        failed.get_or_insert((None, j_.verdict));
                    }
                }
                if let Some((reference, verdict)) = failed {
                    tallies.notes.push(Note {
                        kinds: key.kinds,
                        regime: key.regime,
                        query,
                        path: path.name.to_string(),
                        index,
                        file: None,
                    });
                    failures.push(Failure {
                        case: case.clone(),
                        query,
                        path,
                        reference,
                        answer: answer.clone(),
                        verdict,
                        note: tallies.notes.len() - 1,
                    });
                }
            }
        }
    }
}

/// Whether `path` still fails on `case` against the reference (or the case's
/// expected value).
fn still_fails(setup: &Setup, case: &Case, query: Query, path: &'static Path) -> bool {
    let one = std::slice::from_ref(case);
    let e = Evidence::new(case, setup.tol);
    let answer = &paths::answers(path, one)[0];
    if let Some(expected) = case.expected_for(query)
        && judge_expected(&e, query, expected, answer).verdict.fails()
    {
        return true;
    }
    if path.role == Role::Reference {
        return false;
    }
    let reference = &paths::answers(paths::reference(query), one)[0];
    judge(&e, query, reference, answer, path.role)
        .verdict
        .fails()
}

/// Shrinks and writes the first `--max-written` failures, noting each file in its
/// report entry.
fn write_failures(
    args: &DiffArgs,
    setup: &Setup,
    tallies: &mut Tallies,
    failures: Vec<Failure>,
) -> Result<(), Box<dyn Error>> {
    if failures.is_empty() {
        return Ok(());
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    for f in failures.into_iter().take(args.max_written as usize) {
        let (mut written, steps) = if args.no_shrink || f.case.expected.is_some() {
            (f.case.clone(), 0)
        } else {
            shrink::shrink(&f.case, |c| still_fails(setup, c, f.query, f.path))
        };
        // The answers on the written case, as a replay will see them.
        let one = std::slice::from_ref(&written);
        let answer = if steps > 0 {
            paths::answers(f.path, one)[0].clone()
        } else {
            f.answer.clone()
        };
        let reference = match (&f.reference, steps) {
            (Some(_), s) if s > 0 => {
                Some(paths::answers(paths::reference(f.query), one)[0].clone())
            }
            (r, _) => r.clone(),
        };
        written.origin = f.case.origin.clone();
        written.name = f.case.name.clone();
        written.expected = f.case.expected;
        let finding = Finding {
            query: f.query,
            path: f.path.name.to_string(),
            verdict: verdict_name(f.verdict),
            reference,
            answer,
            shrink_steps: steps,
            unshrunk: (steps > 0).then(|| Box::new(f.case.geometry())),
        };
        written.finding = Some(serde_json::to_value(&finding)?);
        let index = tallies.notes[f.note].index;
        let file = args.out.join(format!(
            "{}-{}-{}-{}-{index}.json",
            written.kinds(),
            f.query.name(),
            f.path.name,
            args.seed
        ));
        write_json(&file, &CaseFile::new(vec![written]))?;
        tallies.notes[f.note].file = Some(file.display().to_string());
    }
    Ok(())
}

fn verdict_name(v: Verdict) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// `--replay FILE`: every case of the file through every path, answers and verdicts
/// printed.
fn replay(args: &DiffArgs, file: &FilePath) -> Result<bool, Box<dyn Error>> {
    let setup = Setup::new(args);
    let cases = case::read(file).unwrap_or_else(|e| usage_error(e));
    let mut passed = true;
    for (i, case) in cases.iter().enumerate() {
        let label = case.name.clone().unwrap_or_else(|| format!("case {i}"));
        say!("{label}: {}", case.kinds())?;
        if let Some(finding) = &case.finding {
            say!(
                "  recorded: {} {} {}",
                finding["query"].as_str().unwrap_or("?"),
                finding["path"].as_str().unwrap_or("?"),
                finding["verdict"].as_str().unwrap_or("?")
            )?;
        }
        let e = Evidence::new(case, setup.tol);
        let one = std::slice::from_ref(case);
        for &query in &setup.queries {
            let reference = paths::answers(paths::reference(query), one).remove(0);
            let prediction = match query.prediction(case) {
                0.0 => String::new(),
                p => format!(" (prediction {p})"),
            };
            say!(
                "  {} gjk-core{prediction}: {}",
                query.name(),
                describe(&reference)
            )?;
            for path in setup.compared(query) {
                let answer = paths::answers(path, one).remove(0);
                let verdict = judge(&e, query, &reference, &answer, path.role).verdict;
                passed &= !verdict.fails();
                say!(
                    "  {} {}: {} -> {}",
                    query.name(),
                    path.name,
                    describe(&answer),
                    verdict_name(verdict)
                )?;
            }
            if let Some(expected) = case.expected_for(query) {
                let verdict = judge_expected(&e, query, expected, &reference).verdict;
                passed &= !verdict.fails();
                say!(
                    "  {} expected {expected:?}: gjk-core {}",
                    query.name(),
                    verdict_name(verdict)
                )?;
            }
        }
    }
    say!(
        "verdict: {}",
        if passed {
            "PASS, no disagreement beyond tolerance"
        } else {
            "FAIL, disagreement beyond tolerance"
        }
    )?;
    Ok(passed)
}

fn describe(a: &Answer) -> String {
    match a {
        Answer::Intersects { intersecting } => format!("intersecting {intersecting}"),
        Answer::Distance {
            distance, normal, ..
        } => format!("distance {distance:.9} normal {normal:.6}"),
        Answer::Contact(Some(c)) => format!("depth {:.9} normal {:.6}", c.depth, c.normal),
        Answer::Contact(None) => "no contact".to_string(),
        Answer::Failed(why) => format!("failed: {why}"),
    }
}

/// `--merge REPORT...`.
fn merge(args: &DiffArgs) -> Result<bool, Box<dyn Error>> {
    let mut reports = Vec::new();
    for path in &args.merge {
        reports.push(read_json::<Report>(path).unwrap_or_else(|e| usage_error(e)));
    }
    let merged = Report::merge(reports).unwrap_or_else(|e| usage_error(e));
    if let Some(path) = &args.report {
        write_json(path, &merged)?;
    }
    if args.json {
        print_json(&merged)?;
    } else {
        print!("{}", merged.text());
        let missing = merged.missing_shards();
        if !missing.is_empty() {
            say!(
                "incomplete: shards {missing:?} of {} are missing",
                merged.campaign.shards
            )?;
        }
        say!("{}", verdict_line(&merged, args))?;
    }
    Ok(merged.passed)
}
