//! The wide GJK loop itself, eight pairs at once: the twin of the loop in
//! `gjk_core`'s `query/gjk.rs`, with what a wide loop needs beyond it.
//!
//! Its state between two trips is a value ([`Trips`]): started from the pairs'
//! offsets, advanced by a budget of trips, and read at the end as an
//! [`Outcome`] (the simplex, `v`, the masks of how each lane ended). A lane
//! still running is 28 floats ([`GjkLane`]), so the distance query can stop a
//! batch after a few trips and resume its running lanes, regrouped, in fuller
//! batches (`gjk_x8::distance_in_rounds`). What turns an outcome into answers
//! (witnesses, rechecks by gjk-core, margins) is in [`super::gjk_x8`].
//!
//! The termination tests are `gjk-core`'s, in its order, with its constants
//! (imported from [`gjk_core::tolerance`]): non-finite `|v|`, containment
//! (`|v| <= TOUCH_TOLERANCE × scale`), the boolean early verdicts, the iteration
//! cap, the relative duality gap with its rounding floor, a repeated support point,
//! and no decrease of `|v|` (keep the previous simplex). The distance loop also
//! stops once the gap bounds the distance's error by the touch tolerance (see
//! [`TOUCH_TOLERANCE`](gjk_core::tolerance::TOUCH_TOLERANCE)), which gjk-core,
//! working in f64, has no need for.

use gjk_core::Status;
use gjk_core::tolerance::{GJK_GAP_FLOOR, GJK_MAX_ITERATIONS, GJK_RELATIVE_GAP, STALL_OPEN_GAP_X8};
use glam::Vec3;
use wide::f32x8;

use super::minkowski_x8::MinkowskiX8;
use super::simplex_x8::SimplexX8;
use super::status_x8::statuses;
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Where the loop left each lane.
pub(crate) struct Outcome {
    pub(crate) simplex: SimplexX8,
    /// Fourth vertex and its weight, for lanes whose tetrahedron enclosed the origin.
    pub(crate) enclosing: (Vec3X8, Vec3X8, f32x8),
    /// Lanes whose last tetrahedron (the simplex and the enclosing point)
    /// encloses the origin.
    pub(crate) enclosed: MaskX8,
    pub(crate) v: Vec3X8,
    pub(crate) cores_overlap: MaskX8,
    pub(crate) shapes_intersect: MaskX8,
    /// Lanes that ended because `|v|` no longer decreased in f32.
    pub(crate) stalled: MaskX8,
    /// Stalled lanes whose duality gap was still open (see [`STALL_OPEN_GAP_X8`]).
    pub(crate) stalled_open: MaskX8,
    pub(crate) iterations: f32x8,
    pub(crate) status: [Status; 8],
}

/// The GJK loop on eight pairs of cores, run to its end. `BOOLEAN` selects the
/// early verdicts of the intersection test (with `reach` = margins + touch
/// tolerance); `WITNESS` tracks the core points for closest points.
#[inline(always)]
pub(crate) fn run<A, B, const BOOLEAN: bool, const WITNESS: bool>(
    m: &MinkowskiX8<'_, A, B>,
    valid: MaskX8,
    touch: f32x8,
    reach: f32x8,
) -> Outcome
where
    A: SupportMapX8,
    B: SupportMapX8,
{
    let mut trips = Trips::start(m, valid);
    trips.advance::<A, B, BOOLEAN, WITNESS>(m, touch, reach, u32::MAX);
    trips.outcome(valid)
}

/// The GJK loop's state between two trips. A lane that has not terminated is
/// described completely by its simplex, `v` and iteration count ([`GjkLane`]):
/// every other field changes only in the trip that terminates the lane.
#[derive(Clone, Copy)]
pub(crate) struct Trips {
    simplex: SimplexX8,
    /// Fourth vertex and its weight, for lanes whose tetrahedron enclosed the origin.
    enclosing: (Vec3X8, Vec3X8, f32x8),
    v: Vec3X8,
    iterations: f32x8,
    terminated: MaskX8,
    cores_overlap: MaskX8,
    enclosed: MaskX8,
    intersected: MaskX8,
    degenerate: MaskX8,
    capped: MaskX8,
    stalled: MaskX8,
    stalled_open: MaskX8,
}

/// One lane of a loop left running ([`Trips::lanes`]), to go on in another
/// batch ([`Trips::resume`]) exactly as it would have gone on in its own: the
/// simplex slots with whatever they hold, `v` and the support evaluations so
/// far, as the lane's column of the loop's 28 wide values (four rows of eight,
/// the last four floats unused), so that a batch's lanes are saved and restored
/// by four 8x8 transposes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GjkLane([f32x8; 4]);

impl GjkLane {
    /// Where each value sits in the lane's 32 floats: the three slots' support
    /// points and A's core points (three floats each), their weights and
    /// whether they hold a vertex (1 or 0), `v` and the iteration count.
    const W: usize = 0;
    const A: usize = 9;
    const WEIGHTS: usize = 18;
    const EXISTS: usize = 21;
    const V: usize = 24;
    const ITERATIONS: usize = 27;
}

impl Trips {
    /// The loop before its first trip: the support along the line between the
    /// centres, as gjk-core starts.
    #[inline(always)]
    pub(crate) fn start<A: SupportMapX8, B: SupportMapX8>(
        m: &MinkowskiX8<'_, A, B>,
        valid: MaskX8,
    ) -> Self {
        let zero = f32x8::ZERO;
        let has_offset = m.offset().length_squared().gt(zero);
        let first_dir = has_offset.select(m.offset(), Vec3X8::splat(Vec3::X));
        let (w0, a0) = m.support(first_dir, valid);
        let iterations = valid.select(f32x8::ONE, zero);
        Trips::running(SimplexX8::single(w0, a0), w0, iterations, valid)
    }

    /// The loop of the lanes of `running` from their simplex, `v` and
    /// iterations so far; other lanes are terminated.
    #[inline(always)]
    fn running(simplex: SimplexX8, v: Vec3X8, iterations: f32x8, running: MaskX8) -> Self {
        let zero = f32x8::ZERO;
        Trips {
            simplex,
            enclosing: (Vec3X8::ZERO, Vec3X8::ZERO, zero),
            v,
            iterations: running.select(iterations, zero),
            terminated: !running,
            cores_overlap: MaskX8::NONE,
            enclosed: MaskX8::NONE,
            intersected: MaskX8::NONE,
            degenerate: MaskX8::NONE,
            capped: MaskX8::NONE,
            stalled: MaskX8::NONE,
            stalled_open: MaskX8::NONE,
        }
    }

    /// The loop of lanes left running elsewhere, lane `k` from `lanes[k]`;
    /// lanes past them, or outside `valid`, are terminated from the start.
    #[inline(always)]
    pub(crate) fn resume(lanes: &[GjkLane], valid: MaskX8) -> Self {
        debug_assert!((1..=8).contains(&lanes.len()), "one to eight loops a batch");
        let pick = |k: usize| lanes.get(k).unwrap_or(&lanes[0]);
        let rows: [[f32x8; 8]; 4] =
            std::array::from_fn(|g| f32x8::transpose(std::array::from_fn(|k| pick(k).0[g])));
        let value = |i: usize| rows[i / 8][i % 8];
        let vec = |i: usize| Vec3X8::new(value(i), value(i + 1), value(i + 2));
        let simplex = SimplexX8 {
            w: std::array::from_fn(|j| vec(GjkLane::W + 3 * j)),
            a: std::array::from_fn(|j| vec(GjkLane::A + 3 * j)),
            weights: std::array::from_fn(|j| value(GjkLane::WEIGHTS + j)),
            exists: std::array::from_fn(|j| value(GjkLane::EXISTS + j).gt(f32x8::splat(0.5))),
        };
        let running = valid & MaskX8::first(lanes.len());
        let iterations = value(GjkLane::ITERATIONS);
        Trips::running(simplex, vec(GjkLane::V), iterations, running)
    }

    /// Lanes whose loop has not ended.
    #[inline(always)]
    pub(crate) fn unfinished(&self) -> MaskX8 {
        !self.terminated
    }

    /// Every lane's loop, to resume elsewhere (the layout of [`GjkLane`]).
    #[inline(always)]
    pub(crate) fn lanes(&self) -> [GjkLane; 8] {
        let s = &self.simplex;
        let (one, zero) = (f32x8::ONE, f32x8::ZERO);
        let mut values = [zero; 32];
        let mut put =
            |i: usize, v: Vec3X8| [values[i], values[i + 1], values[i + 2]] = [v.x, v.y, v.z];
        for j in 0..3 {
            put(GjkLane::W + 3 * j, s.w[j]);
            put(GjkLane::A + 3 * j, s.a[j]);
        }
        put(GjkLane::V, self.v);
        for j in 0..3 {
            values[GjkLane::WEIGHTS + j] = s.weights[j];
            values[GjkLane::EXISTS + j] = s.exists[j].select(one, zero);
        }
        values[GjkLane::ITERATIONS] = self.iterations;
        let rows: [[f32x8; 8]; 4] =
            std::array::from_fn(|g| f32x8::transpose(std::array::from_fn(|k| values[8 * g + k])));
        std::array::from_fn(|k| GjkLane(std::array::from_fn(|g| rows[g][k])))
    }

    /// Runs up to `budget` trips, or until every lane has terminated.
    #[inline(always)]
    pub(crate) fn advance<A, B, const BOOLEAN: bool, const WITNESS: bool>(
        &mut self,
        m: &MinkowskiX8<'_, A, B>,
        touch: f32x8,
        reach: f32x8,
        budget: u32,
    ) where
        A: SupportMapX8,
        B: SupportMapX8,
    {
        let touch_sq = touch * touch;
        let max_iterations = f32x8::splat(GJK_MAX_ITERATIONS as f32);
        let Trips {
            mut simplex,
            mut enclosing,
            mut v,
            mut iterations,
            mut terminated,
            mut cores_overlap,
            enclosed: mut enclosed_lanes,
            mut intersected,
            mut degenerate,
            mut capped,
            stalled: mut stalled_lanes,
            mut stalled_open,
        } = *self;
        let mut trips_left = budget;

        // Every active lane gains one iteration per trip and stops at the cap, so the
        // loop runs at most GJK_MAX_ITERATIONS trips whatever the data (NaN included).
        loop {
            let mut active = !terminated;
            if active.none() || trips_left == 0 {
                break;
            }
            trips_left -= 1;
            let vv = v.length_squared();
            let non_finite = active.and_not(vv.finite());
            degenerate |= non_finite;
            active = active.and_not(non_finite);

            let contained = active & vv.le(touch_sq);
            cores_overlap |= contained;
            intersected |= contained;
            active = active.and_not(contained);

            let v_len = vv.sqrt();
            let within_reach = v_len.le(reach);
            if BOOLEAN {
                let hit = active & within_reach;
                intersected |= hit;
                active = active.and_not(hit);
            }

            let at_cap = active & iterations.ge(max_iterations);
            capped |= at_cap;
            if BOOLEAN {
                intersected |= at_cap & within_reach;
            }
            active = active.and_not(at_cap);
            if active.none() {
                // Every lane has ended, this trip or before.
                terminated = MaskX8::ALL;
                break;
            }

            let (w, a) = m.support(-v, active);
            iterations = active.select(iterations + f32x8::ONE, iterations);
            let vw = v.dot(w);
            if BOOLEAN {
                // v·w / |v| is a lower bound of the cores' distance: the plane through
                // w orthogonal to v separates the origin from core(A) - core(B).
                let separated = active & vw.gt(reach * v_len);
                active = active.and_not(separated);
            }
            let gap = vv - vw;
            // `gap / |v|` bounds how far `|v|` exceeds the cores' distance: within
            // the touch tolerance, the distance is as exact as the pair's f32
            // arithmetic resolves it (see `TOUCH_TOLERANCE`), and curved cores,
            // which GJK approaches only linearly, would spend trips on its last
            // ulps. The boolean query keeps gjk-core's tests: its verdict compares
            // `|v|` with a reach that already holds the touch tolerance.
            let resolved = if BOOLEAN {
                MaskX8::NONE
            } else {
                gap.le(touch * v_len)
            };
            // The lanes of `lanes` whose gap is still open: a loop that ends there
            // has not found the distance (see `STALL_OPEN_GAP_X8`).
            let gap_open = |lanes: MaskX8| lanes & gap.gt(f32x8::splat(STALL_OPEN_GAP_X8) * vv);
            let closed = gap.le(f32x8::splat(GJK_RELATIVE_GAP) * vv)
                | gap.le(f32x8::splat(GJK_GAP_FLOOR) * v_len * w.length())
                | resolved;
            let repeated = simplex.contains(w);
            let converged = active & (closed | repeated);
            if !BOOLEAN {
                // A support point the simplex holds already ends the loop, but with
                // the gap open it is f32's `v` that is off (a long thin simplex),
                // not the distance that is found: such a lane counts as a stall with
                // its gap open, which gjk-core answers again.
                let open = gap_open(converged.and_not(closed));
                if open.any() {
                    stalled_lanes |= open;
                    stalled_open |= open;
                }
            }
            if BOOLEAN {
                intersected |= converged & within_reach;
            }
            active = active.and_not(converged);
            // A batch's last trip usually ends here, every lane converged or separated:
            // the solve below would only compute what the masks then throw away.
            if active.none() {
                // Every lane has ended, this trip or before.
                terminated = MaskX8::ALL;
                break;
            }

            // The boolean query takes the lean sub-algorithm (no weights); distance
            // queries the weighted one, whose weights give the witness points.
            let (solved_v, solved_vv, keep, enclosed, weighted) = if BOOLEAN {
                let s = simplex.solve_boolean(w, active);
                (s.v, s.vv, s.keep, s.enclosed, None)
            } else {
                let s = simplex.solve(w, active);
                (s.v, s.vv, s.keep(), s.enclosed, Some(s))
            };
            let enclosed = active & enclosed;
            cores_overlap |= enclosed;
            enclosed_lanes |= enclosed;
            intersected |= enclosed;
            if let Some(solved) = &weighted {
                for k in 0..3 {
                    simplex.weights[k] = enclosed.select(solved.weights[k], simplex.weights[k]);
                    simplex.exists[k] |= enclosed;
                }
                enclosing = (
                    enclosed.select(a, enclosing.0),
                    enclosed.select(a - w, enclosing.1),
                    enclosed.select(solved.weight_w, enclosing.2),
                );
            }
            v = enclosed.select(Vec3X8::ZERO, v);
            active = active.and_not(enclosed);

            // No decrease of |v|: the previous simplex is as good as it gets in f32.
            let stalled = active & solved_vv.ge(vv);
            if stalled.any() {
                stalled_lanes |= stalled;
                stalled_open |= gap_open(stalled);
            }
            if BOOLEAN {
                intersected |= stalled & within_reach;
            }
            active = active.and_not(stalled);

            simplex.update::<WITNESS>(active, keep, weighted.as_ref(), w, a);
            v = active.select(solved_v, v);
            // Lanes that left `active` during this trip are now finished.
            terminated |= !active;
        }

        *self = Trips {
            simplex,
            enclosing,
            v,
            iterations,
            terminated,
            cores_overlap,
            enclosed: enclosed_lanes,
            intersected,
            degenerate,
            capped,
            stalled: stalled_lanes,
            stalled_open,
        };
    }

    /// Where the loop left each lane (`valid`: the lanes it was given).
    #[inline(always)]
    pub(crate) fn outcome(self, valid: MaskX8) -> Outcome {
        Outcome {
            simplex: self.simplex,
            enclosing: self.enclosing,
            enclosed: self.enclosed,
            v: self.v,
            cores_overlap: self.cores_overlap,
            shapes_intersect: self.intersected,
            stalled: self.stalled,
            stalled_open: self.stalled_open,
            iterations: self.iterations,
            status: statuses(!valid, self.degenerate, self.capped),
        }
    }
}
