//! The queries the driver runs, as types: each names its scalar result and the
//! wide kernels that compute it. What each query answers without a kernel is its
//! [`EarlyOuts`] policy.

use gjk_core::{Distance, Intersection};
use wide::f32x8;

use super::early_outs::EarlyOuts;
use super::output::OutSlots;
use crate::math::{MaskX8, PoseX8};
use crate::query::closed_forms_x8::{
    SegmentCoreX8, segments_contact_x8, segments_distance_x8, segments_intersect_x8,
};
use crate::query::contact_x8::{ContactX8, contact_x8};
use crate::query::gjk_x8::{distance_x8, intersects_x8};
use crate::support_x8::SupportMapX8;

/// One query the driver can run: its early outs, and the wide kernels that write
/// its results.
pub(super) trait BatchQuery: EarlyOuts + Sync {
    /// The closed-form kernel for point and segment cores, like `run`.
    ///
    /// # Safety
    /// As for `run`.
    unsafe fn run_segments<A: SegmentCoreX8, B: SegmentCoreX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Self::Out>,
    );
    /// Runs the kernel on the lanes of the pairs `batch` (lane `k` holds pair
    /// `batch[k]`) and writes lane `k`'s result to slot `batch[k]` of `out`.
    ///
    /// # Safety
    /// No other task may access the slots of `batch` meanwhile (see
    /// [`OutSlots::write`]).
    unsafe fn run<A: SupportMapX8, B: SupportMapX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Self::Out>,
    );
}

/// The boolean query: [`Intersection`] per pair.
pub(super) struct IntersectsQuery;

impl BatchQuery for IntersectsQuery {
    #[inline(always)]
    unsafe fn run<A: SupportMapX8, B: SupportMapX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Intersection>,
    ) {
        let r = intersects_x8(a, pose_a, b, pose_b, MaskX8::first(batch.len()));
        for (k, &i) in batch.iter().enumerate() {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(i as usize, r.lane(k)) };
        }
    }
    #[inline(always)]
    unsafe fn run_segments<A: SegmentCoreX8, B: SegmentCoreX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Intersection>,
    ) {
        let r = segments_intersect_x8(a, pose_a, b, pose_b, MaskX8::first(batch.len()));
        for (k, &i) in batch.iter().enumerate() {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(i as usize, r.lane(k)) };
        }
    }
}

/// The distance query: [`Distance`] and closest points per pair.
pub(super) struct DistanceQuery;

impl BatchQuery for DistanceQuery {
    #[inline(always)]
    unsafe fn run<A: SupportMapX8, B: SupportMapX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Distance>,
    ) {
        let r = distance_x8(a, pose_a, b, pose_b, MaskX8::first(batch.len()));
        // SAFETY: exclusive by the caller's contract.
        unsafe { out.write_distances(batch, &r) };
    }
    #[inline(always)]
    unsafe fn run_segments<A: SegmentCoreX8, B: SegmentCoreX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Distance>,
    ) {
        let r = segments_distance_x8(a, pose_a, b, pose_b, MaskX8::first(batch.len()));
        // SAFETY: exclusive by the caller's contract.
        unsafe { out.write_distances(batch, &r) };
    }
}

/// The contact query: [`gjk_core::Contact`] per pair within the prediction
/// distance, `None` beyond it.
pub(super) struct ContactQuery {
    /// The prediction distance (non-negative and finite).
    pub(super) prediction: f32,
}

impl ContactQuery {
    /// Writes lane `k` of `r` to slot `batch[k]`.
    ///
    /// # Safety
    /// As for [`BatchQuery::run`].
    #[inline(always)]
    unsafe fn write(batch: &[u32], r: &ContactX8, out: &OutSlots<Option<gjk_core::Contact>>) {
        for (k, &i) in batch.iter().enumerate() {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(i as usize, r.lane(k)) };
        }
    }
}

impl BatchQuery for ContactQuery {
    #[inline(always)]
    unsafe fn run<A: SupportMapX8, B: SupportMapX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Option<gjk_core::Contact>>,
    ) {
        let prediction = f32x8::splat(self.prediction);
        let r = contact_x8(a, pose_a, b, pose_b, prediction, MaskX8::first(batch.len()));
        // SAFETY: exclusive by the caller's contract.
        unsafe { Self::write(batch, &r, out) };
    }
    #[inline(always)]
    unsafe fn run_segments<A: SegmentCoreX8, B: SegmentCoreX8>(
        &self,
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Option<gjk_core::Contact>>,
    ) {
        let prediction = f32x8::splat(self.prediction);
        let lanes = MaskX8::first(batch.len());
        let r = segments_contact_x8(a, pose_a, b, pose_b, prediction, lanes);
        // SAFETY: exclusive by the caller's contract.
        unsafe { Self::write(batch, &r, out) };
    }
}
