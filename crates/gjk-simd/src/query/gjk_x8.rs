//! GJK on eight pairs at once: `intersects_x8` and `distance_x8`.
//!
//! The lane model (BEPUphysics v2's): every lane runs the same loop while any lane
//! is active; each test produces a named mask, lanes that pass a terminating test
//! are added to `terminated` and from then on every state update is a select that
//! keeps their values, so a finished lane is frozen bit for bit. Nothing feeds one
//! lane's numbers into another's; only the trip count depends on all lanes, and
//! extra trips leave frozen lanes untouched. A lane's result therefore depends only
//! on its own inputs, whichever pairs share its batch.
//!
//! The loop itself, its state between two trips and its termination tests are
//! `gjk_loop_x8`; this module runs it for the two queries (and for the
//! contact query's cores, `closest_cores`), in rounds for the distance batch
//! (`distance_in_rounds`), and turns where it left each lane into answers: the
//! f64 witnesses of enclosures, the lanes gjk-core answers again, the margins.

use gjk_core::tolerance::{
    ENCLOSED_WITNESS_ULPS_X8, ENCLOSURE_REFUTED_ULPS_X8, STALL_RECHECK_X8, TOUCH_TOLERANCE,
    WITNESS_DRIFT_ULPS_X8,
};
use gjk_core::{Pose, Status};
use glam::{DVec3, Vec3};
use wide::f32x8;

use super::gjk_loop_x8::{GjkLane, Outcome, Trips, run};
use super::minkowski_x8::MinkowskiX8;
use super::simplex_x8::SimplexX8;
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
/// `scale` or with their duality gap still open (see [`STALL_OPEN_GAP_X8`](gjk_core::tolerance::STALL_OPEN_GAP_X8)),
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
