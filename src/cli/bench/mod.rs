//! `widephase bench`: widephase against parry3d and bvh-arena on named workloads
//! ([`workloads`]), in one run on one machine.
//!
//! Rounds are interleaved: every round times each contestant of each workload once,
//! in an order that rotates from round to round, so that a slow spell of the machine
//! (another process, a frequency change) falls on all contestants alike rather than
//! on whichever ran then. A sample repeats the workload until it lasts about
//! `--sample-ms` (the repetition count is fixed per contestant in a warm-up); the
//! figure per contestant is the median over rounds of the time per run, with the
//! smallest and largest and the median absolute deviation as its spread, and the
//! ratio of the baseline's median to it (above 1: faster than the baseline).
//!
//! Everything runs on the calling thread and a rayon pool of `--threads` (default
//! 1, so that libraries without threads are compared per core); the machine line
//! states the CPU, its vector extensions and what the program was built for.

mod workloads;

use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::args;
use super::machine::Machine;
use super::output::{Progress, print_json};
use super::plot::{self, BarGroup};
use super::usage_error;
use workloads::Workload;

/// Options of `widephase bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Workloads to run: names or prefixes, comma-separated (`narrowphase/distance`,
    /// `broadphase`, `step/20000`); see --list. Default: the standard pair kinds'
    /// narrowphase workloads, the broadphase and a step at each size.
    #[arg(long, value_delimiter = ',')]
    pub workloads: Vec<String>,
    /// Print every workload name and exit.
    #[arg(long)]
    pub list: bool,
    /// Interleaved rounds; the figures are medians over them.
    #[arg(long, default_value = "7", value_parser = rounds, allow_negative_numbers = true)]
    pub rounds: u64,
    /// Target length of one timed sample, in milliseconds.
    #[arg(long, default_value = "30", value_parser = sample_ms, allow_negative_numbers = true)]
    pub sample_ms: u64,
    /// Pairs of each narrowphase workload.
    #[arg(long, default_value = "16384", value_parser = pairs, allow_negative_numbers = true)]
    pub pairs: usize,
    /// Sizes (boxes, bodies) of the broadphase and step workloads, comma-separated.
    #[arg(long, value_delimiter = ',', value_parser = size, default_value = "10000,100000", allow_negative_numbers = true)]
    pub sizes: Vec<usize>,
    /// Seed of the workloads.
    #[arg(long, default_value_t = 42, allow_negative_numbers = true)]
    pub seed: u64,
    /// Threads of widephase's rayon pool (the baselines run on the calling thread).
    #[arg(long, default_value = "1", value_parser = args::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Print the JSON report instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write the results as CSV, a row per workload and contestant.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write an SVG chart of each contestant's speed relative to the baseline.
    #[arg(long, value_name = "FILE.svg")]
    pub svg: Option<PathBuf>,
}

fn rounds(text: &str) -> Result<u64, String> {
    args::positive(text, "rounds", 1000)
}

fn sample_ms(text: &str) -> Result<u64, String> {
    args::positive(text, "milliseconds", 60_000)
}

fn pairs(text: &str) -> Result<usize, String> {
    args::positive(text, "pairs", 10_000_000).map(|n| n as usize)
}

fn size(text: &str) -> Result<usize, String> {
    args::positive(text, "boxes or bodies", args::MAX_BODIES).map(|n| n as usize)
}

/// The workloads run when none are named.
fn default_selection(sizes: &[usize]) -> Vec<String> {
    let mut names = Vec::new();
    for query in workloads::QUERIES {
        for kind in ::workloads::PairKind::STANDARD {
            names.push(format!("narrowphase/{query}/{}", kind.name()));
        }
    }
    for &n in sizes {
        names.push(format!("broadphase/pairs/{n}"));
    }
    for &n in sizes {
        names.push(format!("step/{n}"));
    }
    names
}

/// One contestant's figures.
#[derive(Debug, Clone, Serialize)]
struct Figures {
    name: &'static str,
    /// Median over rounds of the time of one run.
    median_ns: f64,
    min_ns: f64,
    max_ns: f64,
    /// Median absolute deviation, percent of the median.
    mad_percent: f64,
    items_per_s: f64,
    /// The baseline's median over this one's (above 1: faster).
    speedup_vs_baseline: Option<f64>,
    /// The run's checksum (pairs found, hits): equal checksums mean the same
    /// answers were counted.
    checksum: u64,
    /// Runs per timed sample.
    runs_per_sample: u64,
}

#[derive(Debug, Clone, Serialize)]
struct WorkloadResult {
    workload: String,
    items: usize,
    unit: &'static str,
    baseline: &'static str,
    contestants: Vec<Figures>,
}

#[derive(Serialize)]
struct Report<'a> {
    format: &'static str,
    version: u32,
    machine: &'a Machine,
    rounds: u64,
    sample_ms: u64,
    seed: u64,
    results: &'a [WorkloadResult],
}

/// Runs `bench`; `Ok(true)` unless a run failed.
pub fn main(args: &BenchArgs) -> Result<bool, Box<dyn Error>> {
    let all = workloads::names(&args.sizes);
    if args.list {
        for name in &all {
            say!("{name}")?;
        }
        return Ok(true);
    }
    let wanted = if args.workloads.is_empty() {
        default_selection(&args.sizes)
    } else {
        args.workloads.clone()
    };
    let selected: Vec<&String> = all
        .iter()
        .filter(|name| wanted.iter().any(|w| name.starts_with(w.as_str())))
        .collect();
    if let Some(unknown) = wanted
        .iter()
        .find(|w| !all.iter().any(|n| n.starts_with(w.as_str())))
    {
        usage_error(format!(
            "--workloads: no workload is named or starts with {unknown:?} (see --list)"
        ));
    }
    match args::check_threads(args.threads) {
        Err(message) => usage_error(message),
        Ok(Some(warning)) => eprintln!("{warning}"),
        Ok(None) => {}
    }
    super::pool::start(args.threads, true)
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads))?;
    let machine = Machine::detect(rayon::current_num_threads());
    if !args.json {
        say!(
            "widephase bench: {} workloads, {} interleaved rounds, samples of about {} ms",
            selected.len(),
            args.rounds,
            args.sample_ms
        )?;
        say!("machine: {machine}")?;
    }

    let progress = Progress::new(selected.len() as u64, "building");
    let mut built: Vec<Workload> = Vec::new();
    for name in &selected {
        let w = workloads::build(name, args.pairs, args.seed)
            .ok_or_else(|| format!("cannot build workload {name}"))?;
        built.push(w);
        progress.inc(1);
    }
    progress.finish();

    let results = measure(&mut built, args);
    if args.json {
        print_json(&Report {
            format: "widephase-bench",
            version: 1,
            machine: &machine,
            rounds: args.rounds,
            sample_ms: args.sample_ms,
            seed: args.seed,
            results: &results,
        })?;
    } else {
        print_table(&results)?;
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, csv(&results))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.svg {
        chart(path, &results, &machine)?;
    }
    Ok(true)
}

/// Times every contestant of every workload in interleaved rounds.
fn measure(built: &mut [Workload], args: &BenchArgs) -> Vec<WorkloadResult> {
    let target = Duration::from_millis(args.sample_ms);
    // Warm-up: one run each (checksums, caches), then the repetitions per sample.
    let mut reps: Vec<Vec<u64>> = Vec::new();
    let mut checksums: Vec<Vec<u64>> = Vec::new();
    for w in built.iter_mut() {
        let mut r = Vec::new();
        let mut c = Vec::new();
        for contestant in &mut w.contestants {
            let start = Instant::now();
            c.push((contestant.run)());
            let once = start.elapsed().max(Duration::from_nanos(100));
            r.push(
                (target.as_secs_f64() / once.as_secs_f64())
                    .ceil()
                    .clamp(1.0, 1e6) as u64,
            );
        }
        reps.push(r);
        checksums.push(c);
    }
    let total: usize = built.iter().map(|w| w.contestants.len()).sum();
    let progress = Progress::new(args.rounds * total as u64, "timing");
    let mut samples: Vec<Vec<Vec<f64>>> = built
        .iter()
        .map(|w| vec![Vec::new(); w.contestants.len()])
        .collect();
    for round in 0..args.rounds as usize {
        for (wi, w) in built.iter_mut().enumerate() {
            let k = w.contestants.len();
            for j in 0..k {
                let ci = (j + round) % k;
                let n = reps[wi][ci];
                let run = &mut w.contestants[ci].run;
                let start = Instant::now();
                for _ in 0..n {
                    std::hint::black_box(run());
                }
                samples[wi][ci].push(start.elapsed().as_secs_f64() * 1e9 / n as f64);
                progress.inc(1);
            }
        }
    }
    progress.finish();
    built
        .iter()
        .enumerate()
        .map(|(wi, w)| {
            let medians: Vec<f64> = samples[wi].iter().map(|s| median(s)).collect();
            let base = w
                .contestants
                .iter()
                .position(|c| c.name == w.baseline)
                .map(|i| medians[i]);
            WorkloadResult {
                workload: w.name.clone(),
                items: w.items,
                unit: w.unit,
                baseline: w.baseline,
                contestants: w
                    .contestants
                    .iter()
                    .enumerate()
                    .map(|(ci, c)| {
                        let s = &samples[wi][ci];
                        let m = medians[ci];
                        let deviations: Vec<f64> = s.iter().map(|x| (x - m).abs()).collect();
                        Figures {
                            name: c.name,
                            median_ns: m,
                            min_ns: s.iter().copied().fold(f64::INFINITY, f64::min),
                            max_ns: s.iter().copied().fold(0.0, f64::max),
                            mad_percent: 100.0 * median(&deviations) / m,
                            items_per_s: w.items as f64 / (m * 1e-9),
                            speedup_vs_baseline: base.map(|b| b / m),
                            checksum: checksums[wi][ci],
                            runs_per_sample: reps[wi][ci],
                        }
                    })
                    .collect(),
            }
        })
        .collect()
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => 0.5 * (v[n / 2 - 1] + v[n / 2]),
    }
}

/// Nanoseconds, microseconds or milliseconds, whichever reads best.
fn time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn print_table(results: &[WorkloadResult]) -> std::io::Result<()> {
    for r in results {
        say!("{} ({} {}):", r.workload, r.items, r.unit)?;
        for c in &r.contestants {
            let ratio = match (c.speedup_vs_baseline, c.name == r.baseline) {
                (_, true) => "baseline".to_string(),
                (Some(x), _) => format!("{x:.2}x {}", r.baseline),
                (None, _) => String::new(),
            };
            say!(
                "  {:<10} {:>10} per run ({} .. {}, ±{:.1}%), {:>8.2} M{}/s  {ratio}",
                c.name,
                time(c.median_ns),
                time(c.min_ns),
                time(c.max_ns),
                c.mad_percent,
                c.items_per_s / 1e6,
                r.unit,
            )?;
        }
    }
    Ok(())
}

fn csv(results: &[WorkloadResult]) -> String {
    let mut out = String::from(
        "workload,contestant,items,unit,median_ns,min_ns,max_ns,mad_percent,items_per_s,baseline,speedup_vs_baseline,checksum\n",
    );
    for r in results {
        for c in &r.contestants {
            out += &format!(
                "{},{},{},{},{:.1},{:.1},{:.1},{:.2},{:.1},{},{},{}\n",
                r.workload,
                c.name,
                r.items,
                r.unit,
                c.median_ns,
                c.min_ns,
                c.max_ns,
                c.mad_percent,
                c.items_per_s,
                r.baseline,
                c.speedup_vs_baseline
                    .map_or(String::new(), |x| format!("{x:.4}")),
                c.checksum
            );
        }
    }
    out
}

fn chart(
    path: &std::path::Path,
    results: &[WorkloadResult],
    machine: &Machine,
) -> Result<(), Box<dyn Error>> {
    let mut contestants: Vec<String> = Vec::new();
    for r in results {
        for c in &r.contestants {
            if !contestants.iter().any(|n| n == c.name) {
                contestants.push(c.name.to_string());
            }
        }
    }
    let groups: Vec<BarGroup> = results
        .iter()
        .map(|r| BarGroup {
            label: r.workload.clone(),
            values: contestants
                .iter()
                .map(|name| {
                    r.contestants
                        .iter()
                        .find(|c| c.name == name)
                        .and_then(|c| c.speedup_vs_baseline)
                })
                .collect(),
        })
        .collect();
    let title = format!(
        "widephase bench: speed relative to the baseline (median); {}",
        machine.cpu
    );
    plot::bars(
        path,
        &title,
        "times as fast as the baseline (parry3d)",
        &contestants,
        &groups,
        1.0,
    )
}
