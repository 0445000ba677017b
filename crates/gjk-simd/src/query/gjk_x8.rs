//! GJK on eight pairs at once: `intersects_x8` and `distance_x8`.
//!
//! The lane model (BEPUphysics v2's): every lane runs the same loop while any lane
//! is active; each test produces a named mask, lanes that pass a terminating test
//! are added to `terminated` and from then on every state update is a select that
//! keeps their values, so a finished lane is frozen bit for bit. Nothing feeds one
//! lane's numbers into another's; only the trip count depends on all lanes, and
//! extra trips leave frozen lanes untouched. A lane's result therefore depends only
//! on its own inputs, whichever pairs share its batch. The loop's state between
//! two trips is a value (`Trips`): the distance query can stop after a few
//! trips and hand the lanes still running to the batch driver, which goes on with
//! them, regrouped, in fuller batches (see `distance_in_rounds`).
//!
//! One module for one loop: its state (`Trips`, saved lanes), its two entry
//! points, and what turns its end state into answers (the f64 witnesses of
//! enclosures, the rechecks by gjk-core, the margins) read each other's masks
//! and constants throughout, and the contact query takes its cores from here.
//!
//! The termination tests are `gjk-core`'s, in its order, with its constants
//! (imported from [`gjk_core::tolerance`]): non-finite `|v|`, containment
//! (`|v| <= TOUCH_TOLERANCE × scale`), the boolean early verdicts, the iteration
//! cap, the relative duality gap with its rounding floor, a repeated support point,
//! and no decrease of `|v|` (keep the previous simplex). The distance loop also
//! stops once the gap bounds the distance's error by the touch tolerance (see
//! [`TOUCH_TOLERANCE`]), which gjk-core, working in f64, has no need for.

use gjk_core::tolerance::{
    ENCLOSED_WITNESS_ULPS_X8, ENCLOSURE_REFUTED_ULPS_X8, GJK_GAP_FLOOR, GJK_MAX_ITERATIONS,
    GJK_RELATIVE_GAP, STALL_OPEN_GAP_X8, STALL_RECHECK_X8, TOUCH_TOLERANCE, WITNESS_DRIFT_ULPS_X8,
};
use gjk_core::{Pose, Status};
use glam::{DVec3, Vec3};
use wide::f32x8;

use super::minkowski_x8::MinkowskiX8;
use super::simplex_x8::SimplexX8;
use super::status_x8::statuses;
use crate::math::{CmpX8, MaskX8, PoseX8, Vec3X8};
use crate::support_x8::{LaneOf, SupportMapX8};

/// What [`intersects_x8`] found, per lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntersectionX8 {
    /// Lanes whose shapes overlap or touch (see [`TOUCH_TOLERANCE`]).
    pub intersecting: MaskX8,
    /// Support evaluations per lane (0 for invalid lanes).
    pub iterations: [u32; 8],
    /// How each lane's loop ended.
    pub status: [Status; 8],
}

impl IntersectionX8 {
    /// Lane `i` as a scalar [`gjk_core::Intersection`].
    #[inline]
    pub fn lane(&self, i: usize) -> gjk_core::Intersection {
        gjk_core::Intersection {
            intersecting: self.intersecting.lane(i),
            iterations: self.iterations[i],
            status: self.status[i],
        }
    }
}

/// What [`distance_x8`] found, per lane; points and directions in world space, with
/// the conventions of [`gjk_core::Distance`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceX8 {
    /// Distances; exactly 0 where the shapes overlap or touch, NaN for invalid lanes.
    pub distance: f32x8,
    /// Points of A closest to B (for overlapping lanes a point inside both).
    pub point_a: Vec3X8,
    /// Points of B closest to A (equal to `point_a` for overlapping lanes).
    pub point_b: Vec3X8,
    /// Unit normals from A towards B; zero for overlapping lanes.
    pub normal: Vec3X8,
    /// Support evaluations per lane (0 for invalid lanes).
    pub iterations: [u32; 8],
    /// How each lane's loop ended.
    pub status: [Status; 8],
}

impl DistanceX8 {
    /// Lane `i` as a scalar [`gjk_core::Distance`].
    #[inline]
    pub fn lane(&self, i: usize) -> gjk_core::Distance {
        gjk_core::Distance {
            distance: self.distance.as_array()[i],
            point_a: self.point_a.lane(i),
            point_b: self.point_b.lane(i),
            normal: self.normal.lane(i),
            iterations: self.iterations[i],
            status: self.status[i],
        }
    }
}

/// Where the loop left each lane.
struct Outcome {
    simplex: SimplexX8,
    /// Fourth vertex and its weight, for lanes whose tetrahedron enclosed the origin.
    enclosing: (Vec3X8, Vec3X8, f32x8),
    /// Lanes whose last tetrahedron (the simplex and the enclosing point)
    /// encloses the origin.
    enclosed: MaskX8,
    v: Vec3X8,
    cores_overlap: MaskX8,
    shapes_intersect: MaskX8,
    /// Lanes that ended because `|v|` no longer decreased in f32.
    stalled: MaskX8,
    /// Stalled lanes whose duality gap was still open (see [`STALL_OPEN_GAP_X8`]).
    stalled_open: MaskX8,
    iterations: f32x8,
    status: [Status; 8],
}

/// The GJK loop on eight pairs of cores, run to its end. `BOOLEAN` selects the
/// early verdicts of the intersection test (with `reach` = margins + touch
/// tolerance); `WITNESS` tracks the core points for closest points.
#[inline(always)]
fn run<A, B, const BOOLEAN: bool, const WITNESS: bool>(
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
struct Trips {
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
    fn start<A: SupportMapX8, B: SupportMapX8>(m: &MinkowskiX8<'_, A, B>, valid: MaskX8) -> Self {
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
    fn resume(lanes: &[GjkLane], valid: MaskX8) -> Self {
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
    fn unfinished(&self) -> MaskX8 {
        !self.terminated
    }

    /// Every lane's loop, to resume elsewhere (the layout of [`GjkLane`]).
    #[inline(always)]
    fn lanes(&self) -> [GjkLane; 8] {
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
    fn advance<A, B, const BOOLEAN: bool, const WITNESS: bool>(
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
    fn outcome(self, valid: MaskX8) -> Outcome {
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

/// The core points of the `enclosed` lanes, whose tetrahedron (the three slots
/// and the enclosing vertex) holds the origin; other lanes keep `core_a` and
/// `core_b` (the witnesses of their slots' weights).
///
/// The four weights come from four separate divisions: divided by their sum they
/// are a convex combination, so each witness lies in its core, and the two
/// coincide up to the rounding of the weights. That rounding is an error of the
/// vertices' magnitude over the tetrahedron's height: on a long or flat
/// tetrahedron (shapes a thousand times longer than wide, curved cores near
/// touching) the witnesses of A and B parted and the overlap point between them
/// left both shapes by far more than their rounding. Lanes whose witnesses stand
/// farther apart than [`ENCLOSED_WITNESS_ULPS_X8`] ulps of the vertices'
/// magnitude take the weights again in f64 ([`enclosed_witnesses`]), where they
/// reproduce the origin; the others, most of them, keep the f32 weights at the
/// cost of a few vector operations. The third mask holds the lanes whose f64
/// weights put the origin outside the tetrahedron (see
/// [`ENCLOSURE_REFUTED_ULPS_X8`]): the f32 solve was wrong to call them
/// enclosed.
#[inline(always)]
fn enclosed_core_points(
    simplex: &SimplexX8,
    enclosing: &(Vec3X8, Vec3X8, f32x8),
    enclosed: MaskX8,
    core_a: Vec3X8,
    core_b: Vec3X8,
) -> (Vec3X8, Vec3X8, MaskX8) {
    let zero = f32x8::ZERO;
    let (ea, eb, ew) = *enclosing;
    let total = (0..3).fold(ew, |sum, k| {
        sum + simplex.exists[k].select(simplex.weights[k], zero)
    });
    let inv = enclosed.select(f32x8::ONE / total, f32x8::ONE);
    let mut pa = enclosed.select(ea.mul_add(ew, core_a) * inv, core_a);
    let mut pb = enclosed.select(eb.mul_add(ew, core_b) * inv, core_b);
    // The vertices' magnitude, whose ulps the witnesses carry; every slot holds a
    // vertex in an enclosed lane.
    let size_sq = (0..3).fold(ea.length_squared().fast_max(eb.length_squared()), |m, k| {
        let a = simplex.a[k];
        m.fast_max(a.length_squared())
            .fast_max((a - simplex.w[k]).length_squared())
    });
    let bound = f32x8::splat(ENCLOSED_WITNESS_ULPS_X8 * f32::EPSILON);
    // A NaN residual fails the test too, and goes to f64.
    let close = (pa - pb).length_squared().le(bound * bound * size_sq);
    let mut bits = enclosed.and_not(close).bitmask();
    let mut refuted = 0u8;
    while bits != 0 {
        let lane = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (a, b, outside) = enclosed_witnesses(simplex, enclosing, lane);
        pa.set_lane(lane, a);
        pb.set_lane(lane, b);
        refuted |= u8::from(outside) << lane;
    }
    (pa, pb, MaskX8::from_bitmask(refuted))
}

/// The witnesses of lane `lane`, whose tetrahedron (the three slots and the
/// enclosing vertex) holds the origin by the f32 solve: the origin's barycentric
/// weights in f64, clamped to be non-negative and normalized, applied to the
/// core points of A and B; and whether a weight is negative beyond the f64
/// solve's rounding ([`ENCLOSURE_REFUTED_ULPS_X8`]), the origin outside.
#[cold]
fn enclosed_witnesses(
    simplex: &SimplexX8,
    (ea, eb, _): &(Vec3X8, Vec3X8, f32x8),
    lane: usize,
) -> (Vec3, Vec3, bool) {
    let a: [DVec3; 4] = [
        simplex.a[0].lane(lane),
        simplex.a[1].lane(lane),
        simplex.a[2].lane(lane),
        ea.lane(lane),
    ]
    .map(|v| v.as_dvec3());
    let w: [DVec3; 4] = [
        simplex.w[0].lane(lane).as_dvec3(),
        simplex.w[1].lane(lane).as_dvec3(),
        simplex.w[2].lane(lane).as_dvec3(),
        a[3] - eb.lane(lane).as_dvec3(),
    ];
    let [e1, e2, e3] = [w[1] - w[0], w[2] - w[0], w[3] - w[0]];
    let volume = e1.dot(e2.cross(e3));
    let o = -w[0];
    let l1 = o.dot(e2.cross(e3)) / volume;
    let l2 = e1.dot(o.cross(e3)) / volume;
    let l3 = e1.dot(e2.cross(o)) / volume;
    let raw = [1.0 - l1 - l2 - l3, l1, l2, l3];
    let size = w.iter().fold(0.0f64, |m, v| m.max(v.abs().max_element()));
    let slack = ENCLOSURE_REFUTED_ULPS_X8 * f64::EPSILON * size * size * size / volume.abs();
    // A NaN weight or slack (a flat tetrahedron) refutes nothing: the lane
    // keeps the clamped weights, as before.
    let outside = raw.iter().any(|&l| l < -slack);
    let mut weights = raw.map(|l| if l.is_finite() { l.max(0.0) } else { 0.0 });
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        weights = weights.map(|l| l / total);
    } else {
        weights = [0.25; 4];
    }
    let (mut pa, mut pb) = (DVec3::ZERO, DVec3::ZERO);
    for k in 0..4 {
        pa += a[k] * weights[k];
        pb += (a[k] - w[k]) * weights[k];
    }
    (pa.as_vec3(), pb.as_vec3(), outside)
}

/// Per-lane iteration counts as integers.
#[inline(always)]
pub(crate) fn iteration_counts(it: f32x8) -> [u32; 8] {
    it.round_int().to_array().map(|x| x as u32)
}

/// Whether `a` at `pose_a` and `b` at `pose_b` overlap or touch, for the lanes of
/// `lanes` (other lanes report [`Status::InvalidInput`]).
///
/// Boolean GJK with both early exits of `gjk-core`'s `intersection`: a lane stops
/// as soon as a separating plane is found or its cores come within the margins.
pub fn intersects_x8<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> IntersectionX8 {
    let (m, valid) = MinkowskiX8::new(a, pose_a, b, pose_b, lanes);
    let scale = a.bounding_radius() + b.bounding_radius();
    let touch = f32x8::splat(TOUCH_TOLERANCE) * scale;
    let reach = a.margin() + b.margin() + touch;
    // The loop sees the pair scaled (see `MinkowskiX8::scale`): so must its
    // tolerances. Its verdict needs no unscaling.
    let s = m.scale();
    let out = run::<A, B, true, false>(&m, valid, touch * s, reach * s);
    IntersectionX8 {
        intersecting: out.shapes_intersect & valid,
        iterations: iteration_counts(out.iterations),
        status: out.status,
    }
}

/// Distance and closest points between `a` at `pose_a` and `b` at `pose_b`, for the
/// lanes of `lanes` (other lanes report [`Status::InvalidInput`]).
///
/// GJK runs on the cores in A's frame; the margins are subtracted afterwards and
/// the witness points pushed out along the normal by each shape's margin, exactly
/// as `gjk-core`'s `distance`.
pub fn distance_x8<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> DistanceX8 {
    let pair = DistancePair::new(a, pose_a, b, pose_b, lanes);
    let mut trips = Trips::start(&pair.m, pair.valid);
    pair.advance(&mut trips, u32::MAX);
    pair.finish(trips, pair.valid)
}

/// How [`distance_in_rounds`] goes on: where its loops start, how many trips
/// they may take, and where the loops still running then are handed.
pub(crate) struct Round<'l, F> {
    /// Loops left running by an earlier round, lane `k` from `resume[k]` (one
    /// to eight of them, on the same pairs packed again), or `None` to start
    /// fresh loops.
    pub resume: Option<&'l [GjkLane]>,
    /// The most trips the loops take.
    pub budget: u32,
    /// Receives each lane still running after the round, with its loop.
    pub left_running: F,
}

/// [`distance_x8`] for one round of at most `round.budget` GJK trips, for a
/// driver that regroups the lanes still running into fuller batches instead of
/// letting the finished lanes of their batch idle beside them. The answers of
/// the lanes of `lanes` that are not left running, or `None` when every one of
/// them is (then no answer is due). A lane's answer is the same bit for bit
/// whichever rounds and batches its loop ran in.
#[inline(always)]
pub(crate) fn distance_in_rounds<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
    mut round: Round<'_, impl FnMut(usize, GjkLane)>,
) -> Option<DistanceX8> {
    let pair = DistancePair::new(a, pose_a, b, pose_b, lanes);
    let mut trips = match round.resume {
        Some(resumed) => Trips::resume(resumed, pair.valid),
        None => Trips::start(&pair.m, pair.valid),
    };
    pair.advance(&mut trips, round.budget);
    let running = pair.valid & trips.unfinished();
    if running.any() {
        let loops = trips.lanes();
        let bits = running.bitmask();
        for k in (0..8).filter(|k| bits >> k & 1 == 1) {
            (round.left_running)(k, loops[k]);
        }
        if lanes.and_not(running).none() {
            return None;
        }
    }
    Some(pair.finish(trips, pair.valid.and_not(running)))
}

/// Eight pairs set up for the distance loop: their Minkowski differences and
/// the tolerances the loop and its finish take from them.
struct DistancePair<'s, A, B> {
    m: MinkowskiX8<'s, A, B>,
    valid: MaskX8,
    poses: (&'s PoseX8, &'s PoseX8),
    /// The sum of the bounding radii.
    scale: f32x8,
    /// The touch tolerance, unscaled.
    touch: f32x8,
}

impl<'s, A: SupportMapX8, B: SupportMapX8> DistancePair<'s, A, B> {
    #[inline(always)]
    fn new(a: &'s A, pose_a: &'s PoseX8, b: &'s B, pose_b: &'s PoseX8, lanes: MaskX8) -> Self {
        let (m, valid) = MinkowskiX8::new(a, pose_a, b, pose_b, lanes);
        let scale = a.bounding_radius() + b.bounding_radius();
        DistancePair {
            m,
            valid,
            poses: (pose_a, pose_b),
            scale,
            touch: f32x8::splat(TOUCH_TOLERANCE) * scale,
        }
    }

    /// Runs the loop up to `budget` trips. It sees the pair scaled (see
    /// `MinkowskiX8::scale`), and so its tolerance.
    #[inline(always)]
    fn advance(&self, trips: &mut Trips, budget: u32) {
        let s = self.m.scale();
        trips.advance::<A, B, false, true>(&self.m, self.touch * s, f32x8::ZERO, budget);
    }

    /// The answers of the loops of `trips`, for the lanes of `done`, whose
    /// loops have ended (other lanes' answers are not to be used).
    #[inline(always)]
    fn finish(&self, trips: Trips, done: MaskX8) -> DistanceX8 {
        let (a, b) = self.m.shapes();
        let (pose_a, pose_b) = self.poses;
        let gjk = cores_found(trips.outcome(self.valid), self.m.scale());
        let mut out = finish_distance(
            &gjk.cores,
            (a.margin(), b.margin()),
            self.touch,
            Some(pose_a),
            self.valid,
            gjk.iterations,
            gjk.status,
        );
        let recheck = done & unresolved(&gjk, self.scale);
        if recheck.any() {
            distance_on_lanes(&mut out, a, pose_a, b, pose_b, recheck);
        }
        out
    }
}

/// Lanes the f32 loop left short of an answer, which gjk-core answers again:
/// loops that stalled with the cores within [`STALL_RECHECK_X8`] of the pair's
/// `scale` or with their duality gap still open (see [`STALL_OPEN_GAP_X8`]),
/// apart lanes whose witnesses drifted from `v` (see [`WITNESS_DRIFT_ULPS_X8`]),
/// and lanes whose enclosure f64 refuted (see [`ENCLOSURE_REFUTED_ULPS_X8`]).
#[inline(always)]
fn unresolved(gjk: &CoresGjk, scale: f32x8) -> MaskX8 {
    let near_contact = gjk
        .cores
        .core_distance
        .le(f32x8::splat(STALL_RECHECK_X8) * scale);
    let drifted = gjk
        .witness_drift
        .gt(f32x8::splat(WITNESS_DRIFT_ULPS_X8 * f32::EPSILON) * scale);
    let stalled_short = gjk.stalled & (near_contact | gjk.stalled_open);
    stalled_short | drifted.and_not(gjk.cores_overlap) | gjk.refuted
}

/// gjk-core's distance for the lanes of `lanes`, written over theirs in `out`
/// (a cold path: lanes the f32 loop could not finish, see
/// [`unresolved`]).
#[cold]
fn distance_on_lanes<A: SupportMapX8, B: SupportMapX8>(
    out: &mut DistanceX8,
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) {
    let (ra, ta) = (pose_a.rotation.to_array(), pose_a.translation.to_array());
    let (rb, tb) = (pose_b.rotation.to_array(), pose_b.translation.to_array());
    let mut distance = out.distance.to_array();
    let (mut point_a, mut point_b) = (out.point_a.to_array(), out.point_b.to_array());
    let mut normal = out.normal.to_array();
    let bits = lanes.bitmask();
    for k in (0..8).filter(|k| bits >> k & 1 == 1) {
        // The lanes' poses were valid scalar poses; should one not rebuild, the
        // lane keeps the wide answer.
        let (Ok(pa), Ok(pb)) = (Pose::new(ra[k], ta[k]), Pose::new(rb[k], tb[k])) else {
            continue;
        };
        let (lane_a, lane_b) = (LaneOf { shape: a, lane: k }, LaneOf { shape: b, lane: k });
        let d = gjk_core::distance(&lane_a, &pa, &lane_b, &pb);
        (distance[k], point_a[k], point_b[k], normal[k]) =
            (d.distance, d.point_a, d.point_b, d.normal);
        out.iterations[k] += d.iterations;
        out.status[k] = d.status;
    }
    out.distance = f32x8::new(distance);
    out.point_a = Vec3X8::from_array(point_a);
    out.point_b = Vec3X8::from_array(point_b);
    out.normal = Vec3X8::from_array(normal);
}

/// The tetrahedron of support points that GJK found enclosing the origin, per
/// lane of `lanes`: where EPA starts.
pub(crate) struct Enclosure {
    /// The four vertices of `core(A) - core(B)`.
    pub w: [Vec3X8; 4],
    /// The core points of A that produced them (B's are `a - w`).
    pub a: [Vec3X8; 4],
    /// Lanes whose tetrahedron encloses the origin.
    pub lanes: MaskX8,
}

/// What GJK found of two cores: their closest points, which lanes overlap, and how
/// each lane's loop ended.
pub(crate) struct CoresGjk {
    /// The closest points (`core_distance` 0 where the cores overlap).
    pub cores: CoreClosest,
    /// Lanes whose cores overlap or touch (within the touch tolerance).
    pub cores_overlap: MaskX8,
    /// Lanes the f32 loop found enclosed whose f64 weights put the origin
    /// outside the tetrahedron (see [`ENCLOSURE_REFUTED_ULPS_X8`]): neither
    /// overlapping nor with closest points.
    pub refuted: MaskX8,
    /// Lanes that ended because `|v|` no longer decreased in f32.
    pub stalled: MaskX8,
    /// Stalled lanes whose duality gap was still open.
    pub stalled_open: MaskX8,
    /// How far the witnesses' difference `core_a - core_b` lies from `v` (both
    /// come from the simplex; they part where its f32 solve is ill-conditioned).
    pub witness_drift: f32x8,
    /// Support evaluations per lane.
    pub iterations: f32x8,
    /// How each lane's loop ended.
    pub status: [Status; 8],
    /// The enclosing tetrahedra of the overlapping lanes that have one.
    pub enclosure: Enclosure,
}

impl CoresGjk {
    /// Lanes whose closest points a contact cannot take its normal from: cores
    /// that overlap (no separating direction) and lanes the f32 loop left short
    /// of an answer ([`unresolved`]). The contact query measures them otherwise
    /// (EPA or gjk-core).
    #[inline(always)]
    pub(crate) fn without_closest_points(&self, scale: f32x8) -> MaskX8 {
        self.cores_overlap | unresolved(self, scale)
    }
}

/// GJK distance on the cores of `m`, for the lanes of `valid`: the closest points
/// in A's frame (for overlapping cores, a point inside both).
#[inline(always)]
pub(crate) fn closest_cores<A: SupportMapX8, B: SupportMapX8>(
    m: &MinkowskiX8<'_, A, B>,
    valid: MaskX8,
    touch: f32x8,
) -> CoresGjk {
    // The loop sees the pair scaled (see `MinkowskiX8::scale`), and so its
    // tolerance.
    let s = m.scale();
    let out = run::<A, B, false, true>(m, valid, touch * s, f32x8::ZERO);
    cores_found(out, s)
}

/// What the distance loop found, `out`, on pairs scaled by `s`: its points and
/// `v` are scaled back, exactly.
#[inline(always)]
fn cores_found(out: Outcome, s: f32x8) -> CoresGjk {
    let zero = f32x8::ZERO;
    let (mut core_a, mut core_b) = out.simplex.witnesses();
    let enclosed = out.enclosing.2.gt(zero);
    let mut refuted = MaskX8::NONE;
    if enclosed.any() {
        (core_a, core_b, refuted) =
            enclosed_core_points(&out.simplex, &out.enclosing, enclosed, core_a, core_b);
    }

    let unscale = f32x8::ONE / s;
    let core_distance = out.cores_overlap.select(zero, out.v.length() * unscale);
    let witness_drift = (core_a - core_b - out.v).length() * unscale;
    let cores = CoreClosest {
        core_a: core_a * unscale,
        core_b: core_b * unscale,
        v: out.v * unscale,
        core_distance,
    };
    let (a3, b3, _) = out.enclosing;
    let simplex = &out.simplex;
    // The tetrahedron stays in the scaled units of `m`, where EPA goes on.
    let enclosure = Enclosure {
        w: [simplex.w[0], simplex.w[1], simplex.w[2], a3 - b3],
        a: [simplex.a[0], simplex.a[1], simplex.a[2], a3],
        lanes: out.enclosed.and_not(refuted),
    };
    CoresGjk {
        enclosure,
        witness_drift,
        cores,
        cores_overlap: out.cores_overlap.and_not(refuted),
        refuted,
        stalled: out.stalled,
        stalled_open: out.stalled_open,
        iterations: out.iterations,
        status: out.status,
    }
}

/// The closest points of two cores, in A's frame (or in world space, see
/// [`finish_distance`]), as a distance query found them.
pub(crate) struct CoreClosest {
    /// The point of A's core closest to B's.
    pub core_a: Vec3X8,
    /// The point of B's core closest to A's.
    pub core_b: Vec3X8,
    /// `core_a - core_b` as the query computed it (its direction is the exact
    /// one; the difference of the witnesses carries their rounding).
    pub v: Vec3X8,
    /// `|v|`, 0 where the cores overlap.
    pub core_distance: f32x8,
}

/// The answer of a distance query from its cores' closest points: the margins
/// subtracted, the witness points pushed out along the normal by each margin,
/// touching lanes given distance 0 and a point inside both shapes, everything in
/// world space, invalid lanes NaN. Shared by GJK and the closed-form kernels so
/// that they follow `gjk-core`'s conventions in one place. The cores are in the
/// frame of `pose_a`, or already in world space when it is `None` (two point
/// cores need no rotation).
#[inline(always)]
pub(crate) fn finish_distance(
    cores: &CoreClosest,
    (ma, mb): (f32x8, f32x8),
    touch: f32x8,
    pose_a: Option<&PoseX8>,
    valid: MaskX8,
    iterations: f32x8,
    status: [Status; 8],
) -> DistanceX8 {
    let zero = f32x8::ZERO;
    let (core_a, core_b, core_distance) = (cores.core_a, cores.core_b, cores.core_distance);
    let gap = core_distance - ma - mb;
    let touching = gap.le(touch);
    // Overlapping or touching: a point inside both shapes, on the segment between
    // the cores' witness points split in proportion to the margins.
    let margins = ma + mb;
    let split = core_distance.gt(zero) & margins.gt(zero);
    let inside = split.select(
        (core_b - core_a).mul_add(ma / margins, core_a),
        (core_a + core_b) * f32x8::splat(0.5),
    );
    let n = -cores.v * (f32x8::ONE / core_distance);
    let frame = pose_a.map(|pose| (pose.rotation_matrix(), pose.translation));
    let rotate = |d: Vec3X8| frame.as_ref().map_or(d, |(rot, _)| rot.mul_vec3(d));
    let world = |p: Vec3X8| frame.as_ref().map_or(p, |(rot, t)| rot.mul_vec3(p) + *t);
    let local_a = touching.select(inside, n.mul_add(ma, core_a));
    let local_b = touching.select(inside, (-n).mul_add(mb, core_b));
    let invalid = !valid;
    let nan = Vec3X8::splat(Vec3::NAN);
    DistanceX8 {
        distance: invalid.select(f32x8::splat(f32::NAN), touching.select(zero, gap)),
        point_a: invalid.select(nan, world(local_a)),
        point_b: invalid.select(nan, world(local_b)),
        normal: (touching | invalid).select(Vec3X8::ZERO, rotate(n)),
        iterations: iteration_counts(iterations),
        status,
    }
}
