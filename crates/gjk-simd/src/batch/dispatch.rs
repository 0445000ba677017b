//! Which kernel runs for a kind pair.
//!
//! Every `Rounded` layer is peeled into a per-lane margin first, so a pair's
//! kernel is chosen by its two core kinds, and monomorphized for them:
//!
//! | kind pair | kernel |
//! |---|---|
//! | sphere or capsule with sphere or capsule | closed forms ([`crate::query::closed_forms_x8`]) unless `closed_forms` is off |
//! | box with box | the box pass ([`box_prepass`]: separating axes or the box-box certificate), then GJK on what it leaves, unless `early_outs` is off |
//! | any other | GJK ([`crate::query::gjk_x8`]) on the two wide shapes |

use std::borrow::Borrow;

use gjk_core::{Shape, ShapeKind};

use super::early_outs::box_prepass;
use super::options::BatchOptions;
use super::output::OutSlots;
use super::pack::{Inputs, pack_batch};
use super::queries::BatchQuery;
use crate::query::closed_forms_x8::SegmentCoreX8;
use crate::query::manifold_x8::PairX8;
use crate::shapes::{
    CapsuleX8, ConeX8, ConvexHullX8, CuboidX8, CylinderX8, LaneShape, RoundedX8, SphereX8,
};

/// Number of core kinds a kernel is monomorphized for: every [`ShapeKind`] but
/// `Rounded`, which is peeled into a margin.
pub(super) const KINDS: usize = 6;

/// The core kinds in bucket-key order (their [`ShapeKind`] discriminants).
const CORE_KINDS: [ShapeKind; KINDS] = [
    ShapeKind::Sphere,
    ShapeKind::Cuboid,
    ShapeKind::Capsule,
    ShapeKind::Cylinder,
    ShapeKind::Cone,
    ShapeKind::ConvexHull,
];

/// The bucket key of a pair of core kinds.
#[inline(always)]
pub(super) fn key(kind_a: ShapeKind, kind_b: ShapeKind) -> usize {
    kind_a as usize * KINDS + kind_b as usize
}

/// The core kinds of a bucket key.
#[inline(always)]
pub(super) fn kinds(key: usize) -> (ShapeKind, ShapeKind) {
    (CORE_KINDS[key / KINDS], CORE_KINDS[key % KINDS])
}

/// The kind a shape runs as and its extra rounding radius: `Rounded` wrappers are
/// peeled off and their radii summed into a margin.
#[inline(always)]
pub(super) fn peel(shape: &Shape) -> (&Shape, f32) {
    let mut s = shape;
    let mut radius = 0.0;
    while let Shape::Rounded(r) = s {
        radius += r.radius();
        s = r.inner();
    }
    (s, radius)
}

/// A shape's core kind: its kind with `Rounded` layers peeled.
#[inline(always)]
pub(super) fn core_kind(shape: &Shape) -> ShapeKind {
    match shape {
        Shape::Rounded(_) => peel(shape).0.kind(),
        _ => shape.kind(),
    }
}

/// Whether a kind has a point or segment core (sphere, capsule).
#[inline(always)]
pub(super) fn segment_core(kind: ShapeKind) -> bool {
    matches!(kind, ShapeKind::Sphere | ShapeKind::Capsule)
}

/// Runs the pairs `idx` of one bucket (kind pair `key`, in bucket order)
/// through their kernel, eight at a time, and writes the results to their slots.
pub(super) fn run_slice<Q: BatchQuery, S: Borrow<Shape>>(
    query: &Q,
    inputs: &Inputs<'_, S>,
    key: usize,
    idx: &mut [u32],
    options: BatchOptions,
    out: &OutSlots<Q::Out>,
) {
    let (kind_a, kind_b) = kinds(key);
    if options.closed_forms && segment_core(kind_a) && segment_core(kind_b) {
        match (kind_a, kind_b) {
            (ShapeKind::Sphere, ShapeKind::Sphere) => {
                run_segment_bucket::<SphereX8, SphereX8, Q, S>(query, inputs, idx, out)
            }
            (ShapeKind::Sphere, _) => {
                run_segment_bucket::<SphereX8, CapsuleX8, Q, S>(query, inputs, idx, out)
            }
            (_, ShapeKind::Sphere) => {
                run_segment_bucket::<CapsuleX8, SphereX8, Q, S>(query, inputs, idx, out)
            }
            _ => run_segment_bucket::<CapsuleX8, CapsuleX8, Q, S>(query, inputs, idx, out),
        }
        return;
    }
    if Q::BOX_PASS
        && options.early_outs
        && (kind_a, kind_b) == (ShapeKind::Cuboid, ShapeKind::Cuboid)
    {
        let pending = box_prepass::<Q, S>(inputs, idx, out);
        run_bucket::<CuboidX8, CuboidX8, Q, S>(query, inputs, &idx[..pending], out);
        return;
    }
    dispatch::<Q, S>(key, query, inputs, idx, out);
}

/// First dispatch level: the kind of A.
fn dispatch<Q: BatchQuery, S: Borrow<Shape>>(
    key: usize,
    query: &Q,
    inputs: &Inputs<'_, S>,
    idx: &[u32],
    out: &OutSlots<Q::Out>,
) {
    let (kind_a, kind_b) = kinds(key);
    match kind_a {
        ShapeKind::Sphere => dispatch_b::<SphereX8, Q, S>(kind_b, query, inputs, idx, out),
        ShapeKind::Cuboid => dispatch_b::<CuboidX8, Q, S>(kind_b, query, inputs, idx, out),
        ShapeKind::Capsule => dispatch_b::<CapsuleX8, Q, S>(kind_b, query, inputs, idx, out),
        ShapeKind::Cylinder => dispatch_b::<CylinderX8, Q, S>(kind_b, query, inputs, idx, out),
        ShapeKind::Cone => dispatch_b::<ConeX8, Q, S>(kind_b, query, inputs, idx, out),
        // `Rounded` is peeled before bucketing and never makes a key.
        ShapeKind::ConvexHull | ShapeKind::Rounded => {
            dispatch_b::<ConvexHullX8, Q, S>(kind_b, query, inputs, idx, out)
        }
    }
}

/// Second dispatch level: the kind of B.
fn dispatch_b<SA: LaneShape, Q: BatchQuery, S: Borrow<Shape>>(
    kind_b: ShapeKind,
    query: &Q,
    inputs: &Inputs<'_, S>,
    idx: &[u32],
    out: &OutSlots<Q::Out>,
) {
    match kind_b {
        ShapeKind::Sphere => run_bucket::<SA, SphereX8, Q, S>(query, inputs, idx, out),
        ShapeKind::Cuboid => run_bucket::<SA, CuboidX8, Q, S>(query, inputs, idx, out),
        ShapeKind::Capsule => run_bucket::<SA, CapsuleX8, Q, S>(query, inputs, idx, out),
        ShapeKind::Cylinder => run_bucket::<SA, CylinderX8, Q, S>(query, inputs, idx, out),
        ShapeKind::Cone => run_bucket::<SA, ConeX8, Q, S>(query, inputs, idx, out),
        ShapeKind::ConvexHull | ShapeKind::Rounded => {
            run_bucket::<SA, ConvexHullX8, Q, S>(query, inputs, idx, out)
        }
    }
}

/// Runs query `Q` on the pairs `idx` (bucket order, one kind pair `SA`, `SB`),
/// eight at a time, writing each result to its input slot. The wide shapes are
/// reused from batch to batch (hulls skip repacking when the lanes' hulls repeat).
fn run_bucket<SA, SB, Q, S>(query: &Q, inputs: &Inputs<'_, S>, idx: &[u32], out: &OutSlots<Q::Out>)
where
    SA: LaneShape,
    SB: LaneShape,
    Q: BatchQuery,
    S: Borrow<Shape>,
{
    let mut a = RoundedX8::<SA>::default();
    let mut b = RoundedX8::<SB>::default();
    // SAFETY: `idx` is a range of a block's `order`, which holds each pair once;
    // slices handed to different tasks are disjoint, and run after their block's
    // planning (see `run_query`).
    unsafe { query.run_pairs((&mut a, &mut b), idx, inputs, out) };
}

/// [`run_bucket`] with the closed-form segment kernel (spheres and capsules).
fn run_segment_bucket<SA, SB, Q, S>(
    query: &Q,
    inputs: &Inputs<'_, S>,
    idx: &[u32],
    out: &OutSlots<Q::Out>,
) where
    SA: LaneShape + SegmentCoreX8,
    SB: LaneShape + SegmentCoreX8,
    Q: BatchQuery,
    S: Borrow<Shape>,
{
    let mut a = RoundedX8::<SA>::default();
    let mut b = RoundedX8::<SB>::default();
    for batch in idx.chunks(8) {
        let (pose_a, pose_b) = pack_batch(inputs, batch, &mut a, &mut b);
        let pair = PairX8 {
            a: &a,
            pose_a: &pose_a,
            b: &b,
            pose_b: &pose_b,
        };
        // SAFETY: as in `run_bucket`.
        unsafe { query.run_segments(&pair, batch, inputs, out) };
    }
}
