//! `cargo run --release`: the main job. A world of mixed convex bodies moves for a
//! number of steps; each step runs the broadphase and the narrowphase (bounds, then
//! contact manifolds within the prediction distance) on every candidate pair. At
//! the end the answers are checked: the broadphase against a sweep over all
//! bodies, the manifolds and the pairs the bounds settled against the scalar
//! reference.
//! `--tour` prints the scalar queries on a few named pairs instead.

/// `println!` that reports a closed standard output (the reader of a pipe gone, as
/// with `| head`) as an error for the caller to return, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)
    };
}

mod tour;

use std::error::Error;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use gjk_core::glam::{Quat, Vec3};
use gjk_core::{Pose, Shape};
use gjk_simd::Parallelism;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use widephase::{BodyId, StepReport, World, WorldConfig};
use workloads::workload::{
    SHAPE_KINDS, random_rotation, random_shape, random_unit, standard_hulls,
};

/// Moving convex bodies through the broadphase and the wide GJK narrowphase.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Number of bodies.
    #[arg(long, default_value_t = 20_000)]
    bodies: usize,
    /// Number of steps to simulate (1/60 s each).
    #[arg(long, default_value_t = 120)]
    steps: usize,
    /// Seed of the scene and motion.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0: rayon's default, one per CPU).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Leave the worker threads to the OS scheduler instead of giving each its own
    /// CPU.
    #[arg(long)]
    no_pin: bool,
    /// Pairs of the last step re-checked with the scalar reference.
    #[arg(long, default_value_t = 5_000)]
    verify: usize,
    /// Print the scalar query tour and exit.
    #[arg(long)]
    tour: bool,
}

/// The speculative margin of the main job's world: pairs closer than this get
/// manifolds.
const PREDICTION: f32 = 0.05;

struct Mover {
    id: BodyId,
    velocity: Vec3,
    spin: Vec3,
}

fn build_scene(
    args: &Args,
    side: f32,
    rng: &mut ChaCha8Rng,
) -> Result<(World, Vec<Mover>), Box<dyn std::error::Error>> {
    let hulls = standard_hulls(rng);
    let mut world = World::with_config(WorldConfig {
        prediction: PREDICTION,
        parallelism: Parallelism::default(),
    })?;
    let mut movers = Vec::with_capacity(args.bodies);
    for _ in 0..args.bodies {
        let kind = SHAPE_KINDS[rng.random_range(0..SHAPE_KINDS.len())];
        let shape: Shape = random_shape(rng, kind, &hulls);
        let centre = (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side;
        let id = world.add(shape, Pose::new(random_rotation(rng), centre)?)?;
        movers.push(Mover {
            id,
            velocity: random_unit(rng) * rng.random_range(0.0..2.0),
            spin: random_unit(rng) * rng.random_range(0.0..1.0),
        });
    }
    Ok((world, movers))
}

/// One step of motion: drift and spin, bouncing off the walls of the box.
fn advance(
    world: &mut World,
    movers: &mut [Mover],
    side: f32,
    dt: f32,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut moves = Vec::with_capacity(movers.len());
    for m in movers.iter_mut() {
        let pose = world.body(m.id)?.pose;
        let mut t = pose.translation() + m.velocity * dt;
        for axis in 0..3 {
            if t[axis].abs() > 0.5 * side {
                m.velocity[axis] = -m.velocity[axis];
                t[axis] = t[axis].clamp(-0.5 * side, 0.5 * side);
            }
        }
        let rotation = Quat::from_scaled_axis(m.spin * dt) * pose.rotation();
        moves.push((m.id, Pose::new(rotation, t)?));
    }
    world.set_poses(&moves)?;
    Ok(())
}

/// Every pair of bodies whose fat boxes overlap, by the broadphase crate's reference
/// sweep (no tree, no incremental state): the broadphase's pair set must equal it.
fn swept_pairs(
    world: &World,
    movers: &[Mover],
) -> Result<Vec<(BodyId, BodyId)>, Box<dyn std::error::Error>> {
    let mut boxes = Vec::with_capacity(movers.len());
    for m in movers {
        boxes.push((m.id, world.fat_bounds(m.id)?));
    }
    Ok(broadphase::reference::overlapping_pairs(&boxes))
}

/// The pool size rayon would pick for `threads` = 0: `RAYON_NUM_THREADS` if set,
/// else one thread per CPU.
fn pool_size(threads: usize) -> usize {
    if threads > 0 {
        return threads;
    }
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Starts the global rayon pool and, if `pin` and the process may run on at least as
/// many CPUs as there are workers, gives worker `i` the `i`-th of those CPUs; returns
/// whether it did.
///
/// Left to itself, the scheduler of a two-CPU guest sometimes queued both workers on
/// one CPU for whole steps, after the calling thread's serial work had run on the
/// other, and the narrowphase of those steps ran no faster than on one thread;
/// pinned, the slowest steps kept the two-thread speed (`BENCHMARKS.md`, end to
/// end). Pinning changes where the work runs, never the results.
fn start_pool(threads: usize, pin: bool) -> Result<bool, rayon::ThreadPoolBuildError> {
    let n = pool_size(threads);
    let cpus = core_affinity::get_core_ids().unwrap_or_default();
    let pinned = pin && n <= cpus.len();
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .start_handler(move |i| {
            if pinned {
                // A refused pin leaves the worker where the scheduler puts it.
                core_affinity::set_for_current(cpus[i]);
            }
        })
        .build_global()?;
    Ok(pinned)
}

/// The main job; `pinned`: whether [`start_pool`] pinned the workers. Returns
/// whether the final checks passed.
fn run(args: &Args, pinned: bool) -> Result<bool, Box<dyn Error>> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    // About two candidate pairs per body (the density of the standard boxes of
    // `BENCHMARKS.md`, section 1, scaled for these larger shapes and their fat margins).
    let side = (4.0 * args.bodies.max(1) as f32).cbrt() * 3.0;
    let (mut world, mut movers) = build_scene(args, side, &mut rng)?;
    let count = |n: usize, what: &str| match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    };
    let (steps, threads) = (
        count(args.steps, "step"),
        count(rayon::current_num_threads(), "thread"),
    );
    let pinned = if pinned { " (pinned to CPUs)" } else { "" };
    say!(
        "widephase: {} bodies of 7 kinds in a box of side {side:.1}, {steps}, seed {}, {threads}{pinned}",
        args.bodies,
        args.seed,
    )?;

    let (mut moving, mut bp, mut np, mut pairs_tested, mut touching_total, mut points_total) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        0usize,
        0usize,
        0usize,
    );
    let wall = Instant::now();
    let mut last = StepReport::default();
    for step in 0..args.steps {
        let start = Instant::now();
        advance(&mut world, &mut movers, side, 1.0 / 60.0)?;
        let moved = start.elapsed();
        moving += moved;
        last = world.step()?;
        let touching = last.touching().count();
        let points: usize = last.manifolds.iter().map(|m| m.manifold.len()).sum();
        bp += last.broadphase_time;
        np += last.narrowphase_time;
        pairs_tested += last.candidates;
        touching_total += touching;
        points_total += points;
        if step % 20 == 0 || step + 1 == args.steps {
            say!(
                "step {step:4}: {:6} candidate pairs ({:5} began, {:5} ended), {:5} culled by bounds, {:5} queried, {:5} manifolds ({touching:5} touching, {points:6} points); moves {:6.3} ms, broadphase {:7.3} ms, narrowphase {:7.3} ms",
                last.candidates,
                last.began,
                last.ended,
                last.culled,
                last.queried,
                last.manifolds.len(),
                moved.as_secs_f64() * 1e3,
                last.broadphase_time.as_secs_f64() * 1e3,
                last.narrowphase_time.as_secs_f64() * 1e3,
            )?;
        }
    }
    let steps = args.steps.max(1) as f64;
    say!(
        "totals: {pairs_tested} candidate pairs, {touching_total} touching, {points_total} manifold points; per step: moves {:.3} ms, broadphase {:.3} ms, narrowphase {:.3} ms ({:.1} ns per candidate pair); wall {:.2} s",
        moving.as_secs_f64() * 1e3 / steps,
        bp.as_secs_f64() * 1e3 / steps,
        np.as_secs_f64() * 1e3 / steps,
        np.as_secs_f64() * 1e9 / pairs_tested.max(1) as f64,
        wall.elapsed().as_secs_f64()
    )?;

    // Check the last step.
    let mut ok = true;
    let expected = swept_pairs(&world, &movers)?;
    let candidates: Vec<widephase::CandidatePair> = world.pairs().collect();
    let mut got: Vec<(BodyId, BodyId)> = candidates
        .iter()
        .map(|p| if p.a < p.b { (p.a, p.b) } else { (p.b, p.a) })
        .collect();
    got.sort();
    if got == expected {
        say!(
            "check: broadphase pair set equals the sweep over all {} bodies ({} pairs)",
            movers.len(),
            expected.len()
        )?;
    } else {
        ok = false;
        say!(
            "check FAILED: broadphase has {} pairs, the sweep {}",
            got.len(),
            expected.len()
        )?;
    }
    let (checked, worst, disagree) = check_pairs(&world, &last, &candidates, args.verify)?;
    if disagree == 0 {
        say!(
            "check: {checked} pairs re-run with the scalar reference agree (largest depth or distance difference {worst:.2e})"
        )?;
    } else {
        ok = false;
        say!(
            "check FAILED: {disagree} of {checked} pairs disagree with the scalar reference (largest difference {worst:.2e})"
        )?;
    }
    Ok(ok)
}

/// Re-runs a sample of `verify` candidate pairs of the last step with gjk-core:
/// a pair within the prediction distance must have a manifold whose deepest point
/// has the contact's depth; any other must be farther apart than the prediction,
/// and the distance bound the world kept for it must not exceed the true distance.
/// Returns the pairs checked, the largest difference and the disagreements.
fn check_pairs(
    world: &World,
    last: &StepReport,
    candidates: &[widephase::CandidatePair],
    verify: usize,
) -> Result<(usize, f32, usize), Box<dyn Error>> {
    let manifolds: std::collections::HashMap<(BodyId, BodyId), &gjk_core::Manifold> = last
        .manifolds
        .iter()
        .map(|m| ((m.a, m.b), &m.manifold))
        .collect();
    let stride = (candidates.len() / verify.max(1)).max(1);
    let (mut checked, mut worst, mut disagree) = (0usize, 0.0f32, 0usize);
    for p in candidates
        .iter()
        .filter(|p| !p.filtered)
        .step_by(stride)
        .take(verify)
    {
        let (a, b) = (world.body(p.a)?, world.body(p.b)?);
        let reference = gjk_core::contact(&a.shape, &a.pose, &b.shape, &b.pose, PREDICTION);
        // Agreement bound of the differential tests, with room for the f32 stall
        // class of curved shapes.
        let tol = |x: f32| 1e-3 * (1.0 + x.abs());
        let diff = match (reference, manifolds.get(&(p.a, p.b))) {
            (Some(c), Some(m)) => (c.depth - m.max_depth()).abs(),
            (None, None) => {
                let d = gjk_core::distance(&a.shape, &a.pose, &b.shape, &b.pose).distance;
                // The kept bound is a lower bound of the distance.
                (p.gap - d).max(0.0)
            }
            // Just at the prediction distance, either answer is right.
            (Some(c), None) => (c.depth + PREDICTION).abs(),
            (None, Some(m)) => (m.max_depth() + PREDICTION).abs(),
        };
        if diff > tol(p.gap) {
            disagree += 1;
        }
        worst = worst.max(diff);
        checked += 1;
    }
    Ok((checked, worst, disagree))
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.tour {
        return finish(tour::tour().map(|()| true));
    }
    let pinned = match start_pool(args.threads, !args.no_pin) {
        Ok(pinned) => pinned,
        Err(e) => {
            eprintln!("error: cannot start {} threads: {e}", args.threads);
            return ExitCode::FAILURE;
        }
    };
    finish(run(&args, pinned))
}

/// The exit status of a run that passed its checks (`Ok(true)`), failed them, or
/// stopped on an error. An output whose reader left (`| head`) ends the run quietly,
/// as a pipeline expects.
fn finish(outcome: Result<bool, Box<dyn Error>>) -> ExitCode {
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e)
            if e.downcast_ref::<io::Error>()
                .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
