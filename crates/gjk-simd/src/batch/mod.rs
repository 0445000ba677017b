//! The batch driver: any number of `gjk_core::Shape` pairs in, results in input
//! order out.
//!
//! Pairs are bucketed by (kind of A, kind of B) with `Rounded` shapes counted as
//! their inner kind plus a per-lane margin, packed eight at a time into the wide
//! shapes of that kind pair, run through the kernel monomorphized for it, and the
//! results scattered back. A bucket's last batch is padded with lanes that start
//! finished. The order of the pairs is not normalized (A and B are never swapped):
//! each pair runs exactly the computation it would run alone, so its result is
//! bit-identical whatever its neighbours, the chunking or the thread count.

//!
//! Where each step lives: [`options`] and [`error`] (the public API's types),
//! `plan` (a block's early answers and buckets), `early_outs` (which pairs skip
//! GJK and what they are answered), `sort` (the orders inside a bucket),
//! `dispatch` (which kernel runs for a kind pair), `pack` (lanes from the
//! caller's slices), `queries` (the kernels per query) and `output` (results
//! written in place, in input order).

mod dispatch;
mod early_outs;
pub mod error;
pub mod options;
mod output;
mod pack;
mod plan;
mod queries;
mod sort;

use std::borrow::Borrow;

use gjk_core::{Distance, Intersection, Pose, Shape};
use rayon::prelude::*;

pub use error::BatchError;
pub use options::{BatchOptions, Parallelism};

use dispatch::run_slice;
use output::OutSlots;
use pack::Inputs;
use plan::plan_block;
use queries::{BatchQuery, DistanceQuery, IntersectsQuery};

/// Pairs bucketed together (see `run_query`): large enough that a mixed block's
/// buckets mostly fill whole batches and a hull bucket's runs of one hull pair
/// are long (its rows are splatted once a run), small enough that a block's
/// shapes and poses stay in the L2 or L3 cache. Against 2048, it ran fewer
/// instructions on the hull and mixed workloads and was level or faster in wall
/// time, on one thread and on two.
const BLOCK: usize = 8192;

/// Checks the inputs, then plans and runs every block of pairs (on the calling
/// thread or as rayon tasks) and returns the results in input order.
fn run_query<Q: BatchQuery, S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    options: BatchOptions,
) -> Result<Vec<Q::Out>, BatchError> {
    let parallelism = options.parallelism;
    let n = shapes_a.len();
    if poses_a.len() != n || shapes_b.len() != n || poses_b.len() != n {
        return Err(BatchError::LengthMismatch {
            shapes_a: n,
            poses_a: poses_a.len(),
            shapes_b: shapes_b.len(),
            poses_b: poses_b.len(),
        });
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    assert!(n <= u32::MAX as usize, "at most 2^32 - 1 pairs per call");
    let inputs = Inputs {
        shapes_a,
        poses_a,
        shapes_b,
        poses_b,
    };
    let mut results: Vec<Q::Out> = Vec::with_capacity(n);
    let out = OutSlots::new(&mut results, n);
    // Blocks of consecutive pairs are bucketed independently: a block's shapes
    // and poses stay in cache between bucketing and packing, and tasks bucket in
    // parallel.
    let plan = |first: usize| {
        let range = first..(first + BLOCK).min(n);
        plan_block::<Q, S>(&inputs, range, options, &out)
    };
    // A pool of one thread runs the sequential path: same results, no tasks.
    let parallelism = match parallelism {
        Parallelism::Rayon { .. } if rayon::current_num_threads() == 1 => Parallelism::Sequential,
        p => p,
    };
    match parallelism {
        Parallelism::Sequential => {
            for first in (0..n).step_by(BLOCK) {
                for (key, idx) in plan(first).buckets_mut() {
                    run_slice::<Q, S>(&inputs, key, idx, options, &out);
                }
            }
        }
        Parallelism::Rayon { batches_per_task } => {
            // Each block is a task that plans its pairs and then runs its kernels
            // as nested tasks of `batches_per_task` batches cut from its buckets,
            // while the block's shapes, poses and plan are still in the thread's
            // cache. An idle thread steals the other half of a block's kernels or
            // of the remaining blocks (rayon's join), so a thread that wakes late
            // still finds work. Blocks stay large, so that a mixed block's buckets
            // fill whole batches.
            // Options are input too: a task of more batches than there are pairs
            // is one task a bucket, and must not overflow (saturating).
            let task = batches_per_task.max(1).saturating_mul(8);
            (0..n.div_ceil(BLOCK))
                .into_par_iter()
                .with_max_len(1)
                .for_each(|b| {
                    let mut block = plan(b * BLOCK);
                    let slices: Vec<(usize, &mut [u32])> = block
                        .buckets_mut()
                        .flat_map(|(key, idx)| idx.chunks_mut(task).map(move |c| (key, c)))
                        .collect();
                    slices
                        .into_par_iter()
                        .with_max_len(1)
                        .for_each(|(key, idx)| run_slice::<Q, S>(&inputs, key, idx, options, &out));
                });
        }
    }
    // SAFETY: the blocks cover 0..n exactly once, and every index of a block is
    // written by `plan_block` or by the `run_slice` of its bucket: all n slots are
    // initialized.
    unsafe { results.set_len(n) };
    Ok(results)
}

/// Whether each pair `(shapes_a[i] at poses_a[i], shapes_b[i] at poses_b[i])`
/// overlaps or touches, eight pairs per kernel call; results in input order, each
/// bit-identical to what the pair gets alone.
///
/// Pairs whose bounding balls decide the answer ([`gjk_core::query::bounds`])
/// skip GJK and report 0 iterations (not for capsule and cone pairs, where the
/// test costs more than it saves), and so do box pairs that the separating-axis
/// test decides ([`cuboids_sat_x8`]); [`intersects_batch_with`] turns both off.
///
/// Empty input gives empty output; slices of different lengths give
/// [`BatchError::LengthMismatch`]. `S` is `Shape` or any reference to one.
pub fn intersects_batch<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    parallelism: Parallelism,
) -> Result<Vec<Intersection>, BatchError> {
    let options = BatchOptions {
        parallelism,
        ..BatchOptions::default()
    };
    intersects_batch_with(shapes_a, poses_a, shapes_b, poses_b, options)
}

/// [`intersects_batch`] with every option: `options.early_outs = false` runs
/// every pair through the GJK kernel (what a differential test of the kernel
/// wants); the answers agree either way, up to GJK's own accuracy at touching.
pub fn intersects_batch_with<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    options: BatchOptions,
) -> Result<Vec<Intersection>, BatchError> {
    run_query::<IntersectsQuery, S>(shapes_a, poses_a, shapes_b, poses_b, options)
}

/// Distance and closest points of each pair `(shapes_a[i] at poses_a[i],
/// shapes_b[i] at poses_b[i])`, with the conventions of [`gjk_core::distance`];
/// results in input order, each bit-identical to what the pair gets alone.
///
/// Pairs whose inner balls prove an overlap ([`crate::bounds_x8`]) skip GJK:
/// distance 0, a point inside both shapes as both witnesses, a zero normal, 0
/// iterations (which point inside both is the contract's choice: GJK would give
/// another). [`distance_batch_with`] turns that off.
///
/// Empty input gives empty output; slices of different lengths give
/// [`BatchError::LengthMismatch`]. A pair whose relative pose overflows f32 (the
/// validated inputs rule out anything else non-finite) reports
/// `Status::InvalidInput` with a NaN distance.
pub fn distance_batch<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    parallelism: Parallelism,
) -> Result<Vec<Distance>, BatchError> {
    let options = BatchOptions {
        parallelism,
        ..BatchOptions::default()
    };
    distance_batch_with(shapes_a, poses_a, shapes_b, poses_b, options)
}

/// [`distance_batch`] with every option: `options.closed_forms = false` runs
/// sphere and capsule pairs through GJK too, `options.early_outs = false` the
/// pairs the inner balls prove overlapping.
pub fn distance_batch_with<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    options: BatchOptions,
) -> Result<Vec<Distance>, BatchError> {
    run_query::<DistanceQuery, S>(shapes_a, poses_a, shapes_b, poses_b, options)
}
