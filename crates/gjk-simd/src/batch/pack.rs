//! Packing: the pairs of one batch, read from the caller's slices, into the wide
//! shapes and poses of their kind pair.

use std::borrow::Borrow;

use gjk_core::{Pose, Shape};
use wide::f32x8;

use super::dispatch::peel;
use crate::math::{PoseX8, QuatX8, Vec3X8};
use crate::shapes::{LaneShape, RoundedX8};

/// The pairs of one call.
///
/// A bundle of the caller's four slices, read by every step of the driver; it
/// holds no state of its own, hence the open fields.
pub(super) struct Inputs<'s, S> {
    pub(super) shapes_a: &'s [S],
    pub(super) poses_a: &'s [Pose],
    pub(super) shapes_b: &'s [S],
    pub(super) poses_b: &'s [Pose],
}

/// Eight poses in SoA form: lane `k` from `poses[idx[k]]`, lanes past `idx.len()`
/// repeating the first (they are not queried).
#[inline(always)]
pub(super) fn pose_x8(poses: &[Pose], idx: &[u32]) -> PoseX8 {
    pose_x8_full(
        poses,
        &std::array::from_fn(|k| *idx.get(k).unwrap_or(&idx[0])),
    )
}

/// [`pose_x8`] on exactly eight indices: one 8x8 transpose instead of 56 scalar
/// lane stores.
#[inline(always)]
pub(super) fn pose_x8_full(poses: &[Pose], idx: &[u32; 8]) -> PoseX8 {
    let rows: [f32x8; 8] = std::array::from_fn(|k| f32x8::new(poses[idx[k] as usize].to_row()));
    let [qx, qy, qz, qw, tx, ty, tz, _] = f32x8::transpose(rows);
    PoseX8 {
        rotation: QuatX8 {
            x: qx,
            y: qy,
            z: qz,
            w: qw,
        },
        translation: Vec3X8::new(tx, ty, tz),
    }
}

/// The peeled shapes of the pairs `batch` (lanes past its end repeat lane 0) and
/// their rounding radii.
#[inline(always)]
pub(super) fn lane_shapes<'s, S: Borrow<Shape>>(
    shapes: &'s [S],
    batch: &[u32],
) -> ([&'s Shape; 8], f32x8) {
    let mut radius = [0.0f32; 8];
    let mut inner = [peel(shapes[batch[0] as usize].borrow()).0; 8];
    for (k, &i) in batch.iter().enumerate() {
        (inner[k], radius[k]) = peel(shapes[i as usize].borrow());
    }
    (inner, f32x8::new(radius))
}

/// Packs the pairs `batch` (at most eight, one kind pair) into the wide shapes `a`
/// and `b`, and returns their poses.
#[inline(always)]
pub(super) fn pack_batch<SA: LaneShape, SB: LaneShape, S: Borrow<Shape>>(
    inputs: &Inputs<'_, S>,
    batch: &[u32],
    a: &mut RoundedX8<SA>,
    b: &mut RoundedX8<SB>,
) -> (PoseX8, PoseX8) {
    let (inner_a, radius_a) = lane_shapes(inputs.shapes_a, batch);
    let (inner_b, radius_b) = lane_shapes(inputs.shapes_b, batch);
    a.inner.pack(&inner_a);
    b.inner.pack(&inner_b);
    a.radius = radius_a;
    b.radius = radius_b;
    (
        pose_x8(inputs.poses_a, batch),
        pose_x8(inputs.poses_b, batch),
    )
}
