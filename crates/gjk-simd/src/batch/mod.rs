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
mod pair_contact;
mod plan;
mod queries;
mod sort;

use std::borrow::Borrow;

use gjk_core::{Contact, Distance, Intersection, Manifold, Pose, Shape};
use rayon::prelude::*;

pub use error::BatchError;
pub use options::{BatchOptions, Parallelism};
use pair_contact::ManifoldOut;
pub use pair_contact::PairContact;

use dispatch::run_slice;
use output::OutSlots;
use pack::Inputs;
use plan::plan_block;
use queries::{BatchQuery, ContactQuery, DistanceQuery, IntersectsQuery, ManifoldQuery};

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
    query: &Q,
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
        plan_block::<Q, S>(query, &inputs, range, options, &out)
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
                    run_slice::<Q, S>(query, &inputs, key, idx, options, &out);
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
                        .for_each(|(key, idx)| {
                            run_slice::<Q, S>(query, &inputs, key, idx, options, &out)
                        });
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
/// test decides ([`crate::cuboids_sat_x8`]); [`intersects_batch_with`] turns both off.
///
/// Empty input gives empty output; slices of different lengths give
/// [`BatchError::LengthMismatch`]. `S` is `Shape` or any reference to one.
///
/// ```
/// use gjk_core::{Cuboid, Pose, Shape, Sphere};
/// use gjk_core::glam::Vec3;
/// use gjk_simd::{Parallelism, intersects_batch};
///
/// // A ball rolling past a box: 20 poses, 0.25 apart along x.
/// let ball: Shape = Sphere::new(0.5)?.into();
/// let cube: Shape = Cuboid::new(Vec3::ONE)?.into();
/// let poses_b: Vec<Pose> = (0..20)
///     .map(|i| Pose::from_translation(Vec3::new(i as f32 * 0.25, 0.0, 0.0)).unwrap())
///     .collect();
/// let hits = intersects_batch(&vec![&cube; 20], &vec![Pose::IDENTITY; 20], &vec![&ball; 20], &poses_b, Parallelism::Sequential)?;
/// // The ball reaches the face at x = 1 while its centre is within 1.5.
/// let touching: Vec<bool> = hits.iter().map(|h| h.intersecting).collect();
/// assert_eq!(touching.iter().filter(|&&t| t).count(), 7);
/// assert!(touching[6] && !touching[7]);
/// // Slices of different lengths are an error, not a panic.
/// assert!(intersects_batch(&[&cube], &[], &[&ball], &[], Parallelism::Sequential).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    run_query::<IntersectsQuery, S>(
        &IntersectsQuery,
        shapes_a,
        poses_a,
        shapes_b,
        poses_b,
        options,
    )
}

/// Distance and closest points of each pair `(shapes_a[i] at poses_a[i],
/// shapes_b[i] at poses_b[i])`, with the conventions of [`gjk_core::distance`];
/// results in input order, each bit-identical to what the pair gets alone.
///
/// Pairs whose inner balls prove an overlap ([`crate::query::bounds_x8`]) skip GJK:
/// distance 0, a point inside both shapes as both witnesses, a zero normal, 0
/// iterations (which point inside both is the contract's choice: GJK would give
/// another). [`distance_batch_with`] turns that off.
///
/// Empty input gives empty output; slices of different lengths give
/// [`BatchError::LengthMismatch`]. A pair whose relative pose overflows f32 (the
/// validated inputs rule out anything else non-finite) reports
/// `Status::InvalidInput` with a NaN distance.
///
/// ```
/// use gjk_core::{Capsule, Pose, Shape};
/// use gjk_core::glam::Vec3;
/// use gjk_simd::{Parallelism, distance_batch};
///
/// // 100 capsule pairs, B ever farther along z; each answer is what gjk-core gives.
/// let capsule: Shape = Capsule::new(1.0, 0.25)?.into();
/// let n = 100;
/// let poses_b: Vec<Pose> = (0..n)
///     .map(|i| Pose::from_translation(Vec3::new(0.0, 0.0, 0.1 * i as f32)).unwrap())
///     .collect();
/// let shapes = vec![&capsule; n];
/// let d = distance_batch(&shapes, &vec![Pose::IDENTITY; n], &shapes, &poses_b, Parallelism::default())?;
/// for (i, di) in d.iter().enumerate() {
///     let expected = (0.1 * i as f32 - 0.5).max(0.0);
///     assert!((di.distance - expected).abs() < 1e-5, "pair {i}: {di:?}");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    run_query::<DistanceQuery, S>(
        &DistanceQuery,
        shapes_a,
        poses_a,
        shapes_b,
        poses_b,
        options,
    )
}

/// The contact of each pair `(shapes_a[i] at poses_a[i], shapes_b[i] at
/// poses_b[i])` with the conventions of [`gjk_core::contact`], `None` where the
/// shapes are farther apart than `prediction` (a NaN or negative prediction
/// counts as 0): depth positive for penetration, negative for a speculative
/// contact, normal from A to B, witness points on each shape. Results in input
/// order, each bit-identical to what the pair gets alone.
///
/// Pairs the bounding balls prove farther apart than the prediction distance
/// skip every kernel (0 iterations); box pairs are measured exactly by their
/// separating axes, sphere and capsule pairs in closed form, and the others by
/// GJK with `gjk_core`'s EPA on the lanes whose cores overlap
/// ([`crate::contact_x8`]). A pair whose relative pose overflows f32 reports a
/// contact with NaN fields and `Status::InvalidInput`.
///
/// ```
/// use gjk_core::{Cuboid, Pose, Shape, Sphere};
/// use gjk_core::glam::{Quat, Vec3};
/// use gjk_simd::{Parallelism, contact_batch};
///
/// let floor: Shape = Cuboid::new(Vec3::new(5.0, 0.5, 5.0))?.into();
/// let ball: Shape = Sphere::new(0.5)?.into();
/// let at = |y: f32| Pose::new(Quat::IDENTITY, Vec3::new(0.0, y, 0.0)).unwrap();
/// // Balls at heights 0.9 (0.1 deep), 1.05 (0.05 above) and 3 (far above).
/// let a = vec![&floor; 3];
/// let b = vec![&ball; 3];
/// let pa = vec![at(0.0); 3];
/// let pb = vec![at(0.9), at(1.05), at(3.0)];
/// let c = contact_batch(&a, &pa, &b, &pb, 0.1, Parallelism::Sequential)?;
/// let deep = c[0].unwrap();
/// assert!((deep.depth - 0.1).abs() < 1e-5 && (deep.normal - Vec3::Y).length() < 1e-5);
/// assert!((c[1].unwrap().depth + 0.05).abs() < 1e-5); // speculative: a 0.05 gap
/// assert!(c[2].is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn contact_batch<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    prediction: f32,
    parallelism: Parallelism,
) -> Result<Vec<Option<Contact>>, BatchError> {
    let options = BatchOptions {
        parallelism,
        ..BatchOptions::default()
    };
    contact_batch_with(shapes_a, poses_a, shapes_b, poses_b, prediction, options)
}

/// [`contact_batch`] with every option: `options.early_outs = false` runs every
/// pair through its kernel, `options.closed_forms = false` sphere and capsule
/// pairs through GJK (and EPA) too.
pub fn contact_batch_with<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    prediction: f32,
    options: BatchOptions,
) -> Result<Vec<Option<Contact>>, BatchError> {
    let query = ContactQuery {
        prediction: sanitized(prediction),
    };
    run_query::<ContactQuery, S>(&query, shapes_a, poses_a, shapes_b, poses_b, options)
}

/// A prediction distance as the queries take it: NaN and negative count as 0; an
/// infinite one is clamped to the largest finite one, so that every contact is
/// kept and arithmetic stays finite.
fn sanitized(prediction: f32) -> f32 {
    if prediction >= 0.0 {
        prediction.min(f32::MAX)
    } else {
        0.0
    }
}

/// The contact manifold of each pair `(shapes_a[i] at poses_a[i], shapes_b[i] at
/// poses_b[i])` with the conventions of [`gjk_core::contact_manifold`]: up to
/// four points, each with its depth and the features it lies on, points within
/// `prediction` kept (a NaN or negative prediction counts as 0), `None` where the
/// shapes are farther apart than it. Results in input order, each bit-identical
/// to what the pair gets alone.
///
/// Each batch of eight pairs of one kind pair runs the wide contact
/// ([`crate::contact_x8`], or the closed forms for spheres and capsules), then
/// the wide manifold stage on it ([`crate::query::manifold_x8`]), which builds
/// the manifolds of the common pair types eight at a time (box-box,
/// capsule-box, capsule-capsule, sphere with anything but a hull, cylinder and
/// cone sides against boxes and segments) and leaves the others to
/// [`gjk_core::manifold_from_contact`] on the same contact: a wide lane's
/// manifold is that function's, bit for bit. The early outs are the contact
/// query's ([`contact_batch`]).
///
/// ```
/// use gjk_core::{Cuboid, Pose, Shape, Sphere};
/// use gjk_core::glam::{Quat, Vec3};
/// use gjk_simd::{Parallelism, manifold_batch};
///
/// let floor: Shape = Cuboid::new(Vec3::new(5.0, 0.5, 5.0))?.into();
/// let crate_: Shape = Cuboid::new(Vec3::splat(0.5))?.into();
/// let ball: Shape = Sphere::new(0.5)?.into();
/// let at = |x: f32, y: f32| Pose::new(Quat::IDENTITY, Vec3::new(x, y, 0.0)).unwrap();
/// // A crate resting 0.01 deep on the floor, a ball 0.1 deep, a ball far above.
/// let a = vec![&floor; 3];
/// let b = vec![&crate_, &ball, &ball];
/// let pa = vec![at(0.0, 0.0); 3];
/// let pb = vec![at(1.0, 0.99), at(-2.0, 0.9), at(0.0, 5.0)];
/// let m = manifold_batch(&a, &pa, &b, &pb, 0.05, Parallelism::Sequential)?;
/// let resting = m[0].unwrap();
/// assert_eq!(resting.len(), 4); // the crate's four bottom corners
/// assert!(resting.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-5));
/// assert_eq!(m[1].unwrap().len(), 1); // a ball touches at one point
/// assert!(m[2].is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn manifold_batch<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    prediction: f32,
    parallelism: Parallelism,
) -> Result<Vec<Option<Manifold>>, BatchError> {
    let options = BatchOptions {
        parallelism,
        ..BatchOptions::default()
    };
    manifold_batch_with(
        shapes_a, poses_a, shapes_b, poses_b, prediction, prediction, options,
    )
}

/// [`manifold_batch`] with every option (as [`contact_batch_with`]) and a reach:
/// pairs apart by more than `prediction` but no more than `reach` get the
/// one-point manifold of their closest points, with the gap as a negative depth
/// (what [`gjk_core::manifold_from_contact`] makes of such a contact), so that a
/// caller who also wants the distance and separating direction of the pairs
/// that do not touch (a pair cache's last axis) gets them from the same run;
/// only pairs beyond `reach` (at least `prediction`) get `None`.
pub fn manifold_batch_with<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    prediction: f32,
    reach: f32,
    options: BatchOptions,
) -> Result<Vec<Option<Manifold>>, BatchError> {
    let query = manifold_query::<Option<Manifold>>(prediction, reach);
    run_query(&query, shapes_a, poses_a, shapes_b, poses_b, options)
}

/// The manifold query for a caller's prediction and reach (sanitized, the reach
/// at least the prediction), writing `O`.
fn manifold_query<O: ManifoldOut>(prediction: f32, reach: f32) -> ManifoldQuery<O> {
    let prediction = sanitized(prediction);
    ManifoldQuery::new(prediction, sanitized(reach).max(prediction))
}

/// [`manifold_batch_with`] for a pair cache: each pair's contact within `reach`
/// (at least `prediction`), with its manifold when the shapes are within
/// `prediction`; `None` beyond `reach`. A pair between the two keeps the
/// contact alone (its gap and separating normal) and costs no manifold. The
/// manifolds are [`manifold_batch_with`]'s, bit for bit.
///
/// ```
/// use gjk_core::{Cuboid, Pose, Shape};
/// use gjk_core::glam::{Quat, Vec3};
/// use gjk_simd::{BatchOptions, pair_contact_batch_with};
///
/// let floor: Shape = Cuboid::new(Vec3::new(5.0, 0.5, 5.0))?.into();
/// let crate_: Shape = Cuboid::new(Vec3::splat(0.5))?.into();
/// let at = |y: f32| Pose::new(Quat::IDENTITY, Vec3::new(0.0, y, 0.0)).unwrap();
/// // A crate resting 0.01 deep, and one 2 above the floor.
/// let (a, b) = (vec![&floor; 2], vec![&crate_; 2]);
/// let (pa, pb) = (vec![at(0.0); 2], vec![at(0.99), at(3.0)]);
/// let c = pair_contact_batch_with(&a, &pa, &b, &pb, 0.05, f32::INFINITY, BatchOptions::default())?;
/// let resting = c[0].unwrap();
/// assert_eq!(resting.manifold.unwrap().len(), 4);
/// let above = c[1].unwrap();
/// assert!(above.manifold.is_none() && (above.contact.depth + 2.0).abs() < 1e-5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pair_contact_batch_with<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    prediction: f32,
    reach: f32,
    options: BatchOptions,
) -> Result<Vec<Option<PairContact>>, BatchError> {
    let query = manifold_query::<Option<PairContact>>(prediction, reach);
    run_query(&query, shapes_a, poses_a, shapes_b, poses_b, options)
}
