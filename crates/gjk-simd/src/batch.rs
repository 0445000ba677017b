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

use std::borrow::Borrow;
use std::fmt;

use gjk_core::{Distance, Intersection, Pose, Shape, ShapeKind, Status};
use glam::Vec3;
use rayon::prelude::*;
use wide::f32x8;

use crate::gjk_x8::{distance_x8, intersects_x8};
use crate::math::{Mask8, PoseX8};
use crate::shapes::{
    CapsuleX8, ConeX8, CuboidX8, CylinderX8, HullX8, LaneShape, RoundedX8, SphereX8, SupportMapX8,
};

/// Why a batch query was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// The four input slices must have the same length (one entry per pair).
    LengthMismatch {
        /// Length of `shapes_a`.
        shapes_a: usize,
        /// Length of `poses_a`.
        poses_a: usize,
        /// Length of `shapes_b`.
        shapes_b: usize,
        /// Length of `poses_b`.
        poses_b: usize,
    },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::LengthMismatch {
                shapes_a,
                poses_a,
                shapes_b,
                poses_b,
            } => write!(
                f,
                "batch inputs must have one entry per pair: shapes_a {shapes_a}, \
                 poses_a {poses_a}, shapes_b {shapes_b}, poses_b {poses_b}"
            ),
        }
    }
}

impl std::error::Error for BatchError {}

/// How a batch query spreads its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parallelism {
    /// Everything on the calling thread.
    Sequential,
    /// Chunks of batches on the current rayon pool (use
    /// `rayon::ThreadPool::install` to choose the thread count). Each task takes
    /// at least `min_batches_per_task` batches of eight pairs.
    Rayon {
        /// Lower bound of batches per rayon task (amortizes scheduling; 0 acts as 1).
        min_batches_per_task: usize,
    },
}

impl Default for Parallelism {
    /// Rayon with tasks of at least 16 batches (128 pairs).
    fn default() -> Self {
        Parallelism::Rayon {
            min_batches_per_task: 16,
        }
    }
}

/// Number of shape kinds a kernel is monomorphized for (`Rounded` is not one).
const KINDS: usize = 6;

/// The kind a shape runs as and its extra rounding radius: `Rounded` wrappers are
/// peeled off and their radii summed into a margin.
fn peel(shape: &Shape) -> (&Shape, f32) {
    let mut s = shape;
    let mut radius = 0.0;
    while let Shape::Rounded(r) = s {
        radius += r.radius();
        s = r.inner();
    }
    (s, radius)
}

fn kind_index(shape: &Shape) -> usize {
    match shape.kind() {
        ShapeKind::Sphere => 0,
        ShapeKind::Cuboid => 1,
        ShapeKind::Capsule => 2,
        ShapeKind::Cylinder => 3,
        ShapeKind::Cone => 4,
        ShapeKind::ConvexHull => 5,
        // `peel` removes every Rounded layer first.
        ShapeKind::Rounded => unreachable!("Rounded is peeled before bucketing"),
    }
}

/// One query the driver can run: the wide kernel call and the scalar result type.
trait Query: Sync {
    type Out: Copy + Send + Sync;
    /// Placeholder for output slots before the kernels fill them.
    const EMPTY: Self::Out;
    fn run<A: SupportMapX8, B: SupportMapX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        lanes: usize,
        out: &mut [Self::Out],
    );
}

struct IntersectsQuery;

impl Query for IntersectsQuery {
    type Out = Intersection;
    const EMPTY: Intersection = Intersection {
        intersecting: false,
        iterations: 0,
        status: Status::Degenerate,
    };
    #[inline(always)]
    fn run<A: SupportMapX8, B: SupportMapX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        lanes: usize,
        out: &mut [Intersection],
    ) {
        let r = intersects_x8(a, pose_a, b, pose_b, Mask8::first(lanes));
        for (i, o) in out.iter_mut().enumerate().take(lanes) {
            *o = r.lane(i);
        }
    }
}

struct DistanceQuery;

impl Query for DistanceQuery {
    type Out = Distance;
    const EMPTY: Distance = Distance {
        distance: f32::NAN,
        point_a: Vec3::NAN,
        point_b: Vec3::NAN,
        normal: Vec3::ZERO,
        iterations: 0,
        status: Status::Degenerate,
    };
    #[inline(always)]
    fn run<A: SupportMapX8, B: SupportMapX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        lanes: usize,
        out: &mut [Distance],
    ) {
        let r = distance_x8(a, pose_a, b, pose_b, Mask8::first(lanes));
        for (i, o) in out.iter_mut().enumerate().take(lanes) {
            *o = r.lane(i);
        }
    }
}

/// The pairs of one kind pair, in bucket order.
struct Inputs<'s, S> {
    shapes_a: &'s [S],
    poses_a: &'s [Pose],
    shapes_b: &'s [S],
    poses_b: &'s [Pose],
}

/// Packs the (at most eight) pairs `idx` into wide shapes of kinds `SA`, `SB` and
/// runs query `Q` on them.
fn run_batch<SA, SB, Q, S>(inputs: &Inputs<'_, S>, idx: &[u32], out: &mut [Q::Out])
where
    SA: LaneShape,
    SB: LaneShape,
    Q: Query,
    S: Borrow<Shape>,
{
    let mut a = RoundedX8::<SA>::default();
    let mut b = RoundedX8::<SB>::default();
    let mut pose_a = PoseX8::IDENTITY;
    let mut pose_b = PoseX8::IDENTITY;
    let first = idx[0] as usize;
    let mut inner_a = [peel(inputs.shapes_a[first].borrow()).0; 8];
    let mut inner_b = [peel(inputs.shapes_b[first].borrow()).0; 8];
    let mut radius_a = [0.0f32; 8];
    let mut radius_b = [0.0f32; 8];
    for (lane, &i) in idx.iter().enumerate() {
        let i = i as usize;
        (inner_a[lane], radius_a[lane]) = peel(inputs.shapes_a[i].borrow());
        (inner_b[lane], radius_b[lane]) = peel(inputs.shapes_b[i].borrow());
        pose_a.set_lane(lane, &inputs.poses_a[i]);
        pose_b.set_lane(lane, &inputs.poses_b[i]);
    }
    a.inner.pack(&inner_a[..idx.len()]);
    b.inner.pack(&inner_b[..idx.len()]);
    a.radius = f32x8::new(radius_a);
    b.radius = f32x8::new(radius_b);
    Q::run(&a, &pose_a, &b, &pose_b, idx.len(), out);
}

/// Second dispatch level: the kind of B.
fn dispatch_b<SA: LaneShape, Q: Query, S: Borrow<Shape>>(
    kind_b: usize,
    inputs: &Inputs<'_, S>,
    idx: &[u32],
    out: &mut [Q::Out],
) {
    match kind_b {
        0 => run_batch::<SA, SphereX8, Q, S>(inputs, idx, out),
        1 => run_batch::<SA, CuboidX8, Q, S>(inputs, idx, out),
        2 => run_batch::<SA, CapsuleX8, Q, S>(inputs, idx, out),
        3 => run_batch::<SA, CylinderX8, Q, S>(inputs, idx, out),
        4 => run_batch::<SA, ConeX8, Q, S>(inputs, idx, out),
        _ => run_batch::<SA, HullX8, Q, S>(inputs, idx, out),
    }
}

/// First dispatch level: the kind of A.
fn dispatch<Q: Query, S: Borrow<Shape>>(
    key: usize,
    inputs: &Inputs<'_, S>,
    idx: &[u32],
    out: &mut [Q::Out],
) {
    let (kind_a, kind_b) = (key / KINDS, key % KINDS);
    match kind_a {
        0 => dispatch_b::<SphereX8, Q, S>(kind_b, inputs, idx, out),
        1 => dispatch_b::<CuboidX8, Q, S>(kind_b, inputs, idx, out),
        2 => dispatch_b::<CapsuleX8, Q, S>(kind_b, inputs, idx, out),
        3 => dispatch_b::<CylinderX8, Q, S>(kind_b, inputs, idx, out),
        4 => dispatch_b::<ConeX8, Q, S>(kind_b, inputs, idx, out),
        _ => dispatch_b::<HullX8, Q, S>(kind_b, inputs, idx, out),
    }
}

/// A batch: up to eight consecutive entries of the bucket-sorted order.
#[derive(Clone, Copy)]
struct Batch {
    key: usize,
    start: usize,
    len: usize,
}

fn run_query<Q: Query, S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    parallelism: Parallelism,
) -> Result<Vec<Q::Out>, BatchError> {
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
    let keys: Vec<u8> = (0..n)
        .map(|i| {
            let ka = kind_index(peel(shapes_a[i].borrow()).0);
            let kb = kind_index(peel(shapes_b[i].borrow()).0);
            (ka * KINDS + kb) as u8
        })
        .collect();
    // Counting sort by key, stable: within a bucket, pairs keep their input order.
    let mut counts = [0usize; KINDS * KINDS + 1];
    for &k in &keys {
        counts[k as usize + 1] += 1;
    }
    for k in 0..KINDS * KINDS {
        counts[k + 1] += counts[k];
    }
    let starts = counts;
    let mut order = vec![0u32; n];
    let mut next = counts;
    for (i, &k) in keys.iter().enumerate() {
        order[next[k as usize]] = i as u32;
        next[k as usize] += 1;
    }
    let mut batches = Vec::with_capacity(n / 8 + KINDS * KINDS);
    for key in 0..KINDS * KINDS {
        let (lo, hi) = (starts[key], starts[key + 1]);
        let mut s = lo;
        while s < hi {
            let len = (hi - s).min(8);
            batches.push(Batch { key, start: s, len });
            s += len;
        }
    }

    let inputs = Inputs {
        shapes_a,
        poses_a,
        shapes_b,
        poses_b,
    };
    let mut sorted = vec![Q::EMPTY; n];
    let run = |batch: &Batch, out: &mut [Q::Out]| {
        let idx = &order[batch.start..batch.start + batch.len];
        dispatch::<Q, S>(batch.key, &inputs, idx, out);
    };
    match parallelism {
        Parallelism::Sequential => {
            let mut rest = sorted.as_mut_slice();
            for batch in &batches {
                let (out, tail) = rest.split_at_mut(batch.len);
                run(batch, out);
                rest = tail;
            }
        }
        Parallelism::Rayon {
            min_batches_per_task,
        } => {
            let mut slices = Vec::with_capacity(batches.len());
            let mut rest = sorted.as_mut_slice();
            for batch in &batches {
                let (out, tail) = rest.split_at_mut(batch.len);
                slices.push(out);
                rest = tail;
            }
            batches
                .par_iter()
                .zip(slices.into_par_iter())
                .with_min_len(min_batches_per_task.max(1))
                .for_each(|(batch, out)| run(batch, out));
        }
    }
    let mut results = vec![Q::EMPTY; n];
    for (k, &i) in order.iter().enumerate() {
        results[i as usize] = sorted[k];
    }
    Ok(results)
}

/// Whether each pair `(shapes_a[i] at poses_a[i], shapes_b[i] at poses_b[i])`
/// overlaps or touches, eight pairs per kernel call; results in input order, each
/// bit-identical to what the pair gets alone.
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
    run_query::<IntersectsQuery, S>(shapes_a, poses_a, shapes_b, poses_b, parallelism)
}

/// Distance and closest points of each pair `(shapes_a[i] at poses_a[i],
/// shapes_b[i] at poses_b[i])`, with the conventions of [`gjk_core::distance`];
/// results in input order, each bit-identical to what the pair gets alone.
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
    run_query::<DistanceQuery, S>(shapes_a, poses_a, shapes_b, poses_b, parallelism)
}
