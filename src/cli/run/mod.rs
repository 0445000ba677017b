//! `widephase run`, the main job: a world of mixed convex bodies moves for a number
//! of steps; each step runs the stages of [`stages::STAGES`] (the moves, then the
//! broadphase and the eight-lane narrowphase on every candidate pair). At the end
//! the checks of [`checks::CHECKS`] compare the last step with references. Text on
//! standard output by default, one JSON document with `--json`, an SVG chart of
//! the stage times with `--plot`.

mod checks;
mod scene;
mod stages;

use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use gjk_core::ShapeKind;
use serde::Serialize;
use widephase::StepReport;
use workloads::workload::SHAPE_KINDS;

use super::args::{self, kind_name};
use super::machine::Machine;
use super::output::{Progress, ms, print_json, write_json};
use super::plot::{self, Series};
use super::{pool, usage_error};
use stages::{Job, Named, StepRecord};

/// Options of `widephase run`.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Number of bodies (0 to 5,000,000).
    #[arg(long, default_value = "20000", value_parser = args::bodies, allow_negative_numbers = true, conflicts_with = "scene")]
    pub bodies: usize,
    /// Number of steps to simulate, 1/60 s each (0: build and write the scene
    /// only).
    #[arg(long, default_value = "120", value_parser = args::steps, allow_negative_numbers = true)]
    pub steps: usize,
    /// Seed of the scene and motion.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Worker threads (0: one per CPU). More than the CPUs draws a warning, more
    /// than 4 per CPU is refused.
    #[arg(long, default_value = "0", value_parser = args::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Leave the worker threads to the OS scheduler instead of giving each its own
    /// CPU.
    #[arg(long)]
    pub no_pin: bool,
    /// Pairs of the last step re-checked with the scalar reference.
    #[arg(long, default_value = "5000", value_parser = args::verify, allow_negative_numbers = true)]
    pub verify: usize,
    /// The shape kinds to draw bodies from, comma-separated (default: all seven):
    /// sphere, cuboid, capsule, cylinder, cone, hull, rounded.
    #[arg(long, value_delimiter = ',', value_parser = args::shape_kind, conflicts_with = "scene")]
    pub shapes: Vec<ShapeKind>,
    /// Read the bodies and their motion from a scene file (JSON; format in
    /// README.md) instead of drawing them from the seed.
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,
    /// Write the scene (every body's shape, pose and motion) to a scene file before
    /// stepping.
    #[arg(long, value_name = "FILE")]
    pub write_scene: Option<PathBuf>,
    /// Print one JSON document (configuration, machine, every step, summary,
    /// checks) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write an SVG chart of each stage's time per step.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// The JSON document of `run --json`.
#[derive(Serialize)]
struct Report<'a> {
    format: &'static str,
    version: u32,
    config: Config,
    machine: &'a Machine,
    steps: Vec<StepJson<'a>>,
    summary: Summary,
    checks: &'a [checks::Outcome],
    passed: bool,
}

#[derive(Serialize)]
struct Config {
    bodies: usize,
    steps: usize,
    seed: u64,
    side: f32,
    shapes: Vec<&'static str>,
    scene: Option<PathBuf>,
    pinned: bool,
}

#[derive(Serialize)]
struct StepJson<'a> {
    step: usize,
    counts: &'a Named<usize>,
    times_ms: Named<f64>,
}

#[derive(Serialize)]
struct Summary {
    candidate_pairs: usize,
    touching: usize,
    mean_ms: Named<f64>,
    /// Narrowphase time per candidate pair; `null` when there was none.
    narrowphase_ns_per_pair: Option<f64>,
    scene_build_s: f64,
    wall_s: f64,
}

/// `n` and the noun `what`, plural unless `n` is 1.
fn plural(n: usize, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (n, "body") => format!("{n} bodies"),
        (n, _) => format!("{n} {what}s"),
    }
}

/// Runs the main job; `Ok(true)` when every check passed.
pub fn main(args: &RunArgs) -> Result<bool, Box<dyn Error>> {
    match args::check_threads(pool::pool_size(args.threads)) {
        Err(message) => usage_error(message),
        Ok(Some(warning)) => eprintln!("{warning}"),
        Ok(None) => {}
    }
    let pinned = pool::start(args.threads, !args.no_pin)
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads))?;
    let threads = rayon::current_num_threads();
    let text = !args.json;
    let pin_note = if pinned { " (pinned to CPUs)" } else { "" };

    // Say something before the scene is built: a big scene takes a while.
    let wall = Instant::now();
    let kinds: Vec<ShapeKind> = if args.shapes.is_empty() {
        SHAPE_KINDS.to_vec()
    } else {
        args.shapes.clone()
    };
    let file = match &args.scene {
        Some(path) => {
            if text {
                say!("widephase: reading scene {}", path.display())?;
            }
            Some(scene::read(path).unwrap_or_else(|e| usage_error(e)))
        }
        None => None,
    };
    let bodies = file.as_ref().map_or(args.bodies, |f| f.bodies.len());
    let seed = file.as_ref().map_or(args.seed, |f| f.seed);
    let side = file
        .as_ref()
        .and_then(|f| f.side)
        .unwrap_or_else(|| scene::default_side(bodies));
    if text {
        let what = match &args.scene {
            Some(_) => "from the scene file".to_string(),
            None => format!(
                "of {} ({})",
                plural(kinds.len(), "kind"),
                kinds
                    .iter()
                    .map(|&k| kind_name(k))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        say!(
            "widephase: {bodies} bodies {what} in a box of side {side:.1}, {}, seed {seed}, {}{pin_note}",
            plural(args.steps, "step"),
            plural(threads, "thread"),
        )?;
    }

    let progress = Progress::new(bodies as u64, "scene");
    let scene = match file {
        Some(file) => scene::build(file, &progress)?,
        None => scene::generate(bodies, &kinds, seed, &progress)?,
    };
    progress.finish();
    let build_time = wall.elapsed();
    if text {
        say!(
            "scene: {} built in {:.2} s",
            plural(bodies, "body"),
            build_time.as_secs_f64()
        )?;
    }
    if let Some(path) = &args.write_scene {
        write_json(path, &scene.to_file(seed)?)?;
        if text {
            say!("scene: written to {}", path.display())?;
        }
    }
    let shapes = scene.kinds()?;

    let mut job = Job {
        scene,
        last: StepReport::default(),
    };
    let progress = Progress::new(args.steps as u64, "steps");
    let mut records = Vec::with_capacity(args.steps);
    for step in 0..args.steps {
        let record = stages::step(&mut job)?;
        if text && (step % 20 == 0 || step + 1 == args.steps) {
            progress.say(step_line(step, &record))?;
        }
        records.push(record);
        progress.inc(1);
    }
    progress.finish();

    let summary = summarize(&records, build_time, wall.elapsed());
    if text {
        say!("{}", summary_line(&summary, records.len()))?;
    }

    let mut outcomes = Vec::new();
    if args.steps == 0 {
        if text {
            say!("check: skipped, no step ran (the checks compare the last step's answers)")?;
        }
    } else {
        for check in checks::CHECKS {
            let outcome = check(&job, args.verify)?;
            if text {
                let verdict = if outcome.passed {
                    "check"
                } else {
                    "check FAILED"
                };
                say!("{verdict}: {}", outcome.detail)?;
            }
            outcomes.push(outcome);
        }
    }
    let passed = outcomes.iter().all(|o| o.passed);

    if let Some(path) = &args.plot {
        plot_times(path, &records)?;
        if text {
            say!("plot: stage times per step written to {}", path.display())?;
        }
    }
    if args.json {
        let machine = Machine::detect(threads);
        print_json(&Report {
            format: "widephase-run",
            version: 1,
            config: Config {
                bodies,
                steps: args.steps,
                seed,
                side: job.scene.side,
                shapes,
                scene: args.scene.clone(),
                pinned,
            },
            machine: &machine,
            steps: records
                .iter()
                .enumerate()
                .map(|(step, r)| StepJson {
                    step,
                    counts: &r.counts,
                    times_ms: times_ms(&r.times),
                })
                .collect(),
            summary,
            checks: &outcomes,
            passed,
        })?;
    }
    Ok(passed)
}

fn times_ms(times: &Named<Duration>) -> Named<f64> {
    Named(times.0.iter().map(|&(n, d)| (n, ms(d))).collect())
}

/// A step's line: its counts, then (after the semicolon) its stage times.
fn step_line(step: usize, record: &StepRecord) -> String {
    let counts: Vec<String> = record
        .counts
        .0
        .iter()
        .map(|(name, n)| format!("{} {n:6}", name.replace('_', " ")))
        .collect();
    let times: Vec<String> = record
        .times
        .0
        .iter()
        .map(|&(name, d)| format!("{name} {:7.3} ms", ms(d)))
        .collect();
    format!("step {step:4}: {}; {}", counts.join(", "), times.join(", "))
}

fn summarize(records: &[StepRecord], build: Duration, wall: Duration) -> Summary {
    let total = |name: &str| records.iter().filter_map(|r| r.counts.get(name)).sum();
    let candidate_pairs: usize = total("candidate_pairs");
    let steps = records.len().max(1) as f64;
    let mut mean_ms = Named::default();
    if let Some(first) = records.first() {
        for &(name, _) in &first.times.0 {
            let sum: Duration = records.iter().filter_map(|r| r.times.get(name)).sum();
            mean_ms.push(name, ms(sum) / steps);
        }
    }
    let narrowphase: Duration = records
        .iter()
        .filter_map(|r| r.times.get("narrowphase"))
        .sum();
    Summary {
        candidate_pairs,
        touching: total("touching"),
        mean_ms,
        narrowphase_ns_per_pair: (candidate_pairs > 0)
            .then(|| narrowphase.as_secs_f64() * 1e9 / candidate_pairs as f64),
        scene_build_s: build.as_secs_f64(),
        wall_s: wall.as_secs_f64(),
    }
}

fn summary_line(s: &Summary, steps: usize) -> String {
    let per_pair = match s.narrowphase_ns_per_pair {
        Some(ns) => format!("{ns:.1} ns per candidate pair"),
        None => "no candidate pairs".to_string(),
    };
    let means: Vec<String> = s
        .mean_ms
        .0
        .iter()
        .map(|(name, v)| format!("{name} {v:.3} ms"))
        .collect();
    let per_step = if steps == 0 {
        "no steps ran".to_string()
    } else {
        format!("per step: {} ({per_pair})", means.join(", "))
    };
    format!(
        "totals: {} candidate pairs, {} touching; {per_step}; wall {:.2} s",
        s.candidate_pairs, s.touching, s.wall_s
    )
}

fn plot_times(path: &std::path::Path, records: &[StepRecord]) -> Result<(), Box<dyn Error>> {
    let names: Vec<&'static str> = records
        .first()
        .map(|r| r.times.0.iter().map(|(n, _)| *n).collect())
        .unwrap_or_default();
    let series: Vec<Series> = names
        .iter()
        .map(|&name| Series {
            name: name.to_string(),
            points: records
                .iter()
                .enumerate()
                .filter_map(|(i, r)| Some((i as f64, ms(r.times.get(name)?))))
                .collect(),
        })
        .collect();
    plot::lines(
        path,
        "widephase run: stage times per step",
        "step",
        "ms",
        &series,
    )
}
