//! The queries the driver runs, as types: each names its scalar result and the
//! wide kernels that compute it. What each query answers without a kernel is its
//! [`EarlyOuts`] policy.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::marker::PhantomData;

use gjk_core::tolerance::{GJK_MAX_ITERATIONS, GJK_TRIPS_PER_ROUND_X8};
use gjk_core::{Distance, Intersection, ManifoldScratch, Shape, manifold_from_contact};
use wide::f32x8;

use super::early_outs::EarlyOuts;
use super::output::OutSlots;
use super::pack::{Inputs, pack_batch};
use super::pair_contact::ManifoldOut;
use crate::feature_x8::FeatureMapX8;
use crate::math::{CmpX8, MaskX8};
use crate::query::closed_forms_x8::{
    SegmentCoreX8, segments_contact_x8, segments_distance_x8, segments_intersect_x8,
};
use crate::query::contact_x8::{ContactX8, contact_reach, contact_x8};
use crate::query::gjk_loop_x8::GjkLane;
use crate::query::gjk_x8::{Round, distance_in_rounds, distance_x8, intersects_x8};
use crate::query::manifold_x8::{PairX8, manifold_lanes_x8};
use crate::shapes::{LaneShape, RoundedX8};

/// One query the driver can run: its early outs, and the wide kernels that write
/// its results.
pub(super) trait BatchQuery: EarlyOuts + Sync {
    /// The closed-form kernel for point and segment cores, like `run`.
    ///
    /// # Safety
    /// As for `run`.
    unsafe fn run_segments<A, B, S>(
        &self,
        pair: &PairX8<'_, A, B>,
        batch: &[u32],
        inputs: &Inputs<'_, S>,
        out: &OutSlots<Self::Out>,
    ) where
        A: SegmentCoreX8 + FeatureMapX8,
        B: SegmentCoreX8 + FeatureMapX8,
        S: Borrow<Shape>;
    /// Runs the kernel on the lanes of the pairs `batch` (lane `k` holds pair
    /// `batch[k]` of `inputs`, packed into `pair`) and writes lane `k`'s result to
    /// slot `batch[k]` of `out`.
    ///
    /// # Safety
    /// No other task may access the slots of `batch` meanwhile (see
    /// [`OutSlots::write`]).
    unsafe fn run<A: FeatureMapX8, B: FeatureMapX8, S: Borrow<Shape>>(
        &self,
        pair: &PairX8<'_, A, B>,
        batch: &[u32],
        inputs: &Inputs<'_, S>,
        out: &OutSlots<Self::Out>,
    );
    /// Runs the kernel on the pairs `idx` of one kind pair (bucket order), eight
    /// at a time, packing each batch into `a` and `b`, and writes each result to
    /// its slot.
    ///
    /// # Safety
    /// As for `run`, for every slot of `idx`.
    #[inline(always)]
    unsafe fn run_pairs<A: LaneShape, B: LaneShape, S: Borrow<Shape>>(
        &self,
        (a, b): (&mut RoundedX8<A>, &mut RoundedX8<B>),
        idx: &[u32],
        inputs: &Inputs<'_, S>,
        out: &OutSlots<Self::Out>,
    ) {
        for batch in idx.chunks(8) {
            let (pose_a, pose_b) = pack_batch(inputs, batch, a, b);
            let pair = PairX8 {
                a: &*a,
                pose_a: &pose_a,
                b: &*b,
                pose_b: &pose_b,
            };
            // SAFETY: as the caller's.
            unsafe { self.run(&pair, batch, inputs, out) };
        }
    }
}

/// The boolean query: [`Intersection`] per pair.
pub(super) struct IntersectsQuery;

impl BatchQuery for IntersectsQuery {
    #[inline(always)]
    unsafe fn run<A: FeatureMapX8, B: FeatureMapX8, S: Borrow<Shape>>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        _: &Inputs<'_, S>,
        out: &OutSlots<Intersection>,
    ) {
        let r = intersects_x8(p.a, p.pose_a, p.b, p.pose_b, MaskX8::first(batch.len()));
        for (k, &i) in batch.iter().enumerate() {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(i as usize, r.lane(k)) };
        }
    }
    #[inline(always)]
    unsafe fn run_segments<A, B, S>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        _: &Inputs<'_, S>,
        out: &OutSlots<Intersection>,
    ) where
        A: SegmentCoreX8 + FeatureMapX8,
        B: SegmentCoreX8 + FeatureMapX8,
        S: Borrow<Shape>,
    {
        let r = segments_intersect_x8(p.a, p.pose_a, p.b, p.pose_b, MaskX8::first(batch.len()));
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
    unsafe fn run<A: FeatureMapX8, B: FeatureMapX8, S: Borrow<Shape>>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        _: &Inputs<'_, S>,
        out: &OutSlots<Distance>,
    ) {
        let r = distance_x8(p.a, p.pose_a, p.b, p.pose_b, MaskX8::first(batch.len()));
        // SAFETY: exclusive by the caller's contract.
        unsafe { out.write_distances(batch, &r) };
    }
    /// In rounds (see [`GJK_TRIPS_PER_ROUND_X8`]): each batch runs a round of
    /// GJK trips, and the lanes still running after it go on in the next round,
    /// regrouped eight to a batch, until none is left. A lane's loop goes on
    /// exactly where it stopped, so its answer is the one an unbroken loop
    /// gives, whichever lanes shared its batches; the slots of lanes left
    /// running are written again when their loops end.
    #[inline(always)]
    unsafe fn run_pairs<A: LaneShape, B: LaneShape, S: Borrow<Shape>>(
        &self,
        (a, b): (&mut RoundedX8<A>, &mut RoundedX8<B>),
        idx: &[u32],
        inputs: &Inputs<'_, S>,
        out: &OutSlots<Distance>,
    ) {
        // Lanes left running by the round under way (`next`) and by the one
        // before (`current`). Each list is given room for every pair of the
        // bucket when its first lane arrives, so that it never grows (copying
        // the loops' states) and buckets whose loops all end in their first
        // round allocate nothing.
        let reserve = idx.len();
        let mut round = |batch: &[u32],
                         resume: Option<&[GjkLane]>,
                         budget: u32,
                         next: &mut (Vec<u32>, Vec<GjkLane>)| {
            let (pose_a, pose_b) = pack_batch(inputs, batch, a, b);
            let lanes = MaskX8::first(batch.len());
            let left_running = |k: usize, state| {
                if next.1.capacity() == 0 {
                    next.0.reserve_exact(reserve);
                    next.1.reserve_exact(reserve);
                }
                next.0.push(batch[k]);
                next.1.push(state);
            };
            let round = Round {
                resume,
                budget,
                left_running,
            };
            if let Some(r) = distance_in_rounds(&*a, &pose_a, &*b, &pose_b, lanes, round) {
                // SAFETY: exclusive by the caller's contract. The slot of a lane
                // left running receives a placeholder here and its answer, in
                // this task, from the round that ends its loop.
                unsafe { out.write_distances(batch, &r) };
            }
        };
        let mut next = (Vec::new(), Vec::new());
        let mut current = (Vec::new(), Vec::new());
        for batch in idx.chunks(8) {
            round(batch, None, GJK_TRIPS_PER_ROUND_X8, &mut next);
        }
        // Each round takes every loop still running at least one trip further,
        // and loops end at GJK_MAX_ITERATIONS trips, so the rounds end within
        // GJK_MAX_ITERATIONS / GJK_TRIPS_PER_ROUND_X8 of them (asserted below).
        // Should that reasoning ever break, a round past GJK_MAX_ITERATIONS runs
        // without a budget, which ends every loop it is given.
        let mut rounds = 0;
        while !next.0.is_empty() {
            rounds += 1;
            debug_assert!(rounds <= GJK_MAX_ITERATIONS.div_ceil(GJK_TRIPS_PER_ROUND_X8));
            let budget = if rounds < GJK_MAX_ITERATIONS {
                GJK_TRIPS_PER_ROUND_X8
            } else {
                u32::MAX
            };
            std::mem::swap(&mut current, &mut next);
            next.0.clear();
            next.1.clear();
            for (batch, resume) in current.0.chunks(8).zip(current.1.chunks(8)) {
                round(batch, Some(resume), budget, &mut next);
            }
        }
    }
    #[inline(always)]
    unsafe fn run_segments<A, B, S>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        _: &Inputs<'_, S>,
        out: &OutSlots<Distance>,
    ) where
        A: SegmentCoreX8 + FeatureMapX8,
        B: SegmentCoreX8 + FeatureMapX8,
        S: Borrow<Shape>,
    {
        let r = segments_distance_x8(p.a, p.pose_a, p.b, p.pose_b, MaskX8::first(batch.len()));
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
    unsafe fn run<A: FeatureMapX8, B: FeatureMapX8, S: Borrow<Shape>>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        _: &Inputs<'_, S>,
        out: &OutSlots<Option<gjk_core::Contact>>,
    ) {
        let prediction = f32x8::splat(self.prediction);
        let lanes = MaskX8::first(batch.len());
        let r = contact_x8(p.a, p.pose_a, p.b, p.pose_b, prediction, lanes);
        // SAFETY: exclusive by the caller's contract.
        unsafe { Self::write(batch, &r, out) };
    }
    #[inline(always)]
    unsafe fn run_segments<A, B, S>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        _: &Inputs<'_, S>,
        out: &OutSlots<Option<gjk_core::Contact>>,
    ) where
        A: SegmentCoreX8 + FeatureMapX8,
        B: SegmentCoreX8 + FeatureMapX8,
        S: Borrow<Shape>,
    {
        let prediction = f32x8::splat(self.prediction);
        let lanes = MaskX8::first(batch.len());
        let r = segments_contact_x8(p.a, p.pose_a, p.b, p.pose_b, prediction, lanes);
        // SAFETY: exclusive by the caller's contract.
        unsafe { Self::write(batch, &r, out) };
    }
}

/// The manifold query: the contact of each pair (with `reach` as its prediction
/// distance), then its [`Manifold`] with points within `prediction`
/// ([`crate::query::manifold_x8`]), `None` beyond `reach`; written as `O` (the
/// manifold alone, or with its contact).
pub(super) struct ManifoldQuery<O> {
    /// The prediction distance of the manifolds' points (non-negative, finite).
    pub(super) prediction: f32,
    /// The prediction distance of the contacts (at least `prediction`, finite):
    /// pairs apart by more than `prediction` but no more than this get the
    /// one-point manifold of their closest points.
    pub(super) reach: f32,
    pub(super) out: PhantomData<O>,
}

impl<O> ManifoldQuery<O> {
    /// The query for manifolds within `prediction` and contacts within `reach`.
    pub(super) fn new(prediction: f32, reach: f32) -> Self {
        ManifoldQuery {
            prediction,
            reach,
            out: PhantomData,
        }
    }
}

thread_local! {
    /// The scalar reference's buffers, for the lanes the wide manifold leaves to
    /// it: one per thread, so that no batch allocates once they have grown.
    static SCRATCH: RefCell<ManifoldScratch> = RefCell::new(ManifoldScratch::default());
}

impl<O: ManifoldOut> ManifoldQuery<O> {
    /// The manifolds of the lanes of `batch` from their contacts `c`, each
    /// written to its slot.
    ///
    /// # Safety
    /// As for [`BatchQuery::run`].
    #[inline(always)]
    unsafe fn finish<A: FeatureMapX8, B: FeatureMapX8, S: Borrow<Shape>>(
        &self,
        p: &PairX8<'_, A, B>,
        c: &ContactX8,
        batch: &[u32],
        inputs: &Inputs<'_, S>,
        out: &OutSlots<O>,
    ) {
        let lanes = MaskX8::first(batch.len());
        // Lanes apart beyond the prediction keep their contact alone when `O`
        // says so (NaN depths of invalid lanes included): those the contact
        // query asked with the prediction would have left out.
        let built = if O::MANIFOLD_BEYOND_PREDICTION {
            lanes
        } else {
            lanes
                & c.depth
                    .ge(-contact_reach(p.a, p.b, f32x8::splat(self.prediction)))
        };
        let bits = lanes.and_not(built).bitmask();
        for k in (0..8).filter(|k| bits >> k & 1 == 1) {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(batch[k] as usize, O::new(|| c.lane(k), None)) };
        }
        // The lanes left to the scalar reference run it on the caller's shapes.
        let reference = |k: usize, c: &gjk_core::Contact, prediction: f32| {
            let i = batch[k] as usize;
            SCRATCH.with_borrow_mut(|scratch| {
                manifold_from_contact(
                    inputs.shapes_a[i].borrow(),
                    &inputs.poses_a[i],
                    inputs.shapes_b[i].borrow(),
                    &inputs.poses_b[i],
                    c,
                    prediction,
                    scratch,
                )
            })
        };
        manifold_lanes_x8(p, c, self.prediction, built, reference, |k, m| {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(batch[k] as usize, O::new(|| c.lane(k), m)) };
        });
    }
}

impl<O: ManifoldOut> BatchQuery for ManifoldQuery<O> {
    #[inline(always)]
    unsafe fn run<A: FeatureMapX8, B: FeatureMapX8, S: Borrow<Shape>>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        inputs: &Inputs<'_, S>,
        out: &OutSlots<O>,
    ) {
        let reach = f32x8::splat(self.reach);
        let lanes = MaskX8::first(batch.len());
        let c = contact_x8(p.a, p.pose_a, p.b, p.pose_b, reach, lanes);
        // SAFETY: as the caller's contract.
        unsafe { self.finish(p, &c, batch, inputs, out) };
    }
    #[inline(always)]
    unsafe fn run_segments<A, B, S>(
        &self,
        p: &PairX8<'_, A, B>,
        batch: &[u32],
        inputs: &Inputs<'_, S>,
        out: &OutSlots<O>,
    ) where
        A: SegmentCoreX8 + FeatureMapX8,
        B: SegmentCoreX8 + FeatureMapX8,
        S: Borrow<Shape>,
    {
        let reach = f32x8::splat(self.reach);
        let lanes = MaskX8::first(batch.len());
        let c = segments_contact_x8(p.a, p.pose_a, p.b, p.pose_b, reach, lanes);
        // SAFETY: as the caller's contract.
        unsafe { self.finish(p, &c, batch, inputs, out) };
    }
}
