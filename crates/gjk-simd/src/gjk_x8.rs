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
//! The termination tests are `gjk-core`'s, in its order, with its constants
//! (imported from [`gjk_core::tolerance`]): non-finite `|v|`, containment
//! (`|v| <= TOUCH_TOLERANCE × scale`), the boolean early verdicts, the iteration
//! cap, the relative duality gap with its rounding floor, a repeated support point,
//! and no decrease of `|v|` (keep the previous simplex).

use gjk_core::tolerance::{GJK_GAP_FLOOR, GJK_MAX_ITERATIONS, GJK_RELATIVE_GAP, TOUCH_TOLERANCE};
use glam::Vec3;
use wide::f32x8;

use crate::math::{CmpX8, Mask8, Mat3x8, PoseX8, Vec3x8};
use crate::shapes::SupportMapX8;
use crate::simplex_x8::SimplexX8;

/// How a lane's query ended: [`gjk_core::Status`] plus invalid input, which the
/// validated scalar API rules out but the unvalidated wide types do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LaneStatus {
    /// A termination test passed; the answer is within the tolerances.
    Converged,
    /// The iteration cap ([`GJK_MAX_ITERATIONS`]) was hit; the answer is the best
    /// bound reached.
    IterationLimit,
    /// A non-finite intermediate appeared; the answer is the best so far.
    Degenerate,
    /// The lane's shape or pose data was not finite (or the lane was not among the
    /// queried lanes): nothing was computed, the lane never took part in the loop.
    InvalidInput,
}

impl LaneStatus {
    /// The scalar status (one to one).
    pub fn to_core(self) -> gjk_core::Status {
        match self {
            LaneStatus::Converged => gjk_core::Status::Converged,
            LaneStatus::IterationLimit => gjk_core::Status::IterationLimit,
            LaneStatus::Degenerate => gjk_core::Status::Degenerate,
            LaneStatus::InvalidInput => gjk_core::Status::InvalidInput,
        }
    }
}

impl From<gjk_core::Status> for LaneStatus {
    fn from(s: gjk_core::Status) -> Self {
        match s {
            gjk_core::Status::Converged => LaneStatus::Converged,
            gjk_core::Status::IterationLimit => LaneStatus::IterationLimit,
            gjk_core::Status::Degenerate => LaneStatus::Degenerate,
            gjk_core::Status::InvalidInput => LaneStatus::InvalidInput,
        }
    }
}

/// What [`intersects_x8`] found, per lane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntersectionX8 {
    /// Lanes whose shapes overlap or touch (see [`TOUCH_TOLERANCE`]).
    pub intersecting: Mask8,
    /// Support evaluations per lane (0 for invalid lanes).
    pub iterations: [u32; 8],
    /// How each lane's loop ended.
    pub status: [LaneStatus; 8],
}

impl IntersectionX8 {
    /// Lane `i` as a scalar [`gjk_core::Intersection`].
    #[inline]
    pub fn lane(&self, i: usize) -> gjk_core::Intersection {
        gjk_core::Intersection {
            intersecting: self.intersecting.lane(i),
            iterations: self.iterations[i],
            status: self.status[i].to_core(),
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
    pub point_a: Vec3x8,
    /// Points of B closest to A (equal to `point_a` for overlapping lanes).
    pub point_b: Vec3x8,
    /// Unit normals from A towards B; zero for overlapping lanes.
    pub normal: Vec3x8,
    /// Support evaluations per lane (0 for invalid lanes).
    pub iterations: [u32; 8],
    /// How each lane's loop ended.
    pub status: [LaneStatus; 8],
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
            status: self.status[i].to_core(),
        }
    }
}

/// The Minkowski difference `core(A) - core(B)` of eight pairs, B in A's frame.
struct MinkowskiX8<'s, A, B> {
    a: &'s A,
    b: &'s B,
    /// Rotation from B's frame to A's frame (its transpose is the inverse).
    b_to_a: Mat3x8,
    /// B's origin in A's frame.
    offset: Vec3x8,
}

impl<A: SupportMapX8, B: SupportMapX8> MinkowskiX8<'_, A, B> {
    /// The support point `w = a - b` of the difference along `dir`, with the core
    /// point `a` of A (A's frame) that produced it (B's is `a - w`).
    #[inline(always)]
    fn support(&self, dir: Vec3x8, active: Mask8) -> (Vec3x8, Vec3x8) {
        let a = if A::POINT_CORE {
            Vec3x8::ZERO
        } else {
            self.a.support_core(dir, active)
        };
        // A point core's support is its centre whatever the direction: R·0 + t = t.
        let b = if B::POINT_CORE {
            self.offset
        } else {
            let b_local = self
                .b
                .support_core(self.b_to_a.transpose_mul_vec3(-dir), active);
            self.b_to_a.mul_vec3(b_local) + self.offset
        };
        (a - b, a)
    }
}

/// Where the loop left each lane.
struct Outcome {
    simplex: SimplexX8,
    /// Fourth vertex and its weight, for lanes whose tetrahedron enclosed the origin.
    enclosing: (Vec3x8, Vec3x8, f32x8),
    v: Vec3x8,
    cores_overlap: Mask8,
    shapes_intersect: Mask8,
    iterations: f32x8,
    status: [LaneStatus; 8],
}

/// Assembles per-lane statuses from the masks of the ways a lane can end.
#[inline(always)]
pub(crate) fn statuses(invalid: Mask8, degenerate: Mask8, capped: Mask8) -> [LaneStatus; 8] {
    let (inv, deg, cap) = (invalid.bitmask(), degenerate.bitmask(), capped.bitmask());
    std::array::from_fn(|i| {
        if inv >> i & 1 == 1 {
            LaneStatus::InvalidInput
        } else if deg >> i & 1 == 1 {
            LaneStatus::Degenerate
        } else if cap >> i & 1 == 1 {
            LaneStatus::IterationLimit
        } else {
            LaneStatus::Converged
        }
    })
}

/// The GJK loop on eight pairs of cores. `BOOLEAN` selects the early verdicts of
/// the intersection test (with `reach` = margins + touch tolerance); `WITNESS`
/// tracks the core points for closest points.
#[inline(always)]
fn run<A, B, const BOOLEAN: bool, const WITNESS: bool>(
    m: &MinkowskiX8<'_, A, B>,
    valid: Mask8,
    touch: f32x8,
    reach: f32x8,
) -> Outcome
where
    A: SupportMapX8,
    B: SupportMapX8,
{
    let zero = f32x8::ZERO;
    let touch_sq = touch * touch;
    // Start from the support along the line between the centres, as gjk-core does.
    let has_offset = m.offset.length_squared().gt(zero);
    let first_dir = has_offset.select(m.offset, Vec3x8::splat(Vec3::X));
    let (w0, a0) = m.support(first_dir, valid);
    let mut simplex = SimplexX8::single(w0, a0);
    let mut enclosing = (Vec3x8::ZERO, Vec3x8::ZERO, zero);
    let mut v = w0;
    let mut max_w_sq = w0.length_squared();
    let mut iterations = valid.select(f32x8::ONE, zero);
    let max_iterations = f32x8::splat(GJK_MAX_ITERATIONS as f32);

    let mut terminated = !valid;
    let mut cores_overlap = Mask8::NONE;
    let mut intersected = Mask8::NONE;
    let mut degenerate = Mask8::NONE;
    let mut capped = Mask8::NONE;

    // Every active lane gains one iteration per trip and stops at the cap, so the
    // loop runs at most GJK_MAX_ITERATIONS trips whatever the data (NaN included).
    loop {
        let mut active = !terminated;
        if active.none() {
            break;
        }
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
        // `fast_max` (one `vmaxps`) keeps `max_w_sq` where |w|² is NaN, as the
        // NaN-aware `max` (four instructions) does; `max_w_sq` itself is NaN only
        // in lanes whose first support was, which ended at the first check.
        max_w_sq = w.length_squared().fast_max(max_w_sq);
        let gap = vv - vw;
        let converged = active
            & (gap.le(f32x8::splat(GJK_RELATIVE_GAP) * vv)
                | gap.le(f32x8::splat(GJK_GAP_FLOOR) * v_len * max_w_sq.sqrt())
                | simplex.contains(w));
        if BOOLEAN {
            intersected |= converged & within_reach;
        }
        active = active.and_not(converged);
        // A batch's last trip usually ends here, every lane converged or separated:
        // the solve below would only compute what the masks then throw away.
        if active.none() {
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
        v = enclosed.select(Vec3x8::ZERO, v);
        active = active.and_not(enclosed);

        // No decrease of |v|: the previous simplex is as good as it gets in f32.
        let stalled = active & solved_vv.ge(vv);
        if BOOLEAN {
            intersected |= stalled & within_reach;
        }
        active = active.and_not(stalled);

        simplex.update::<WITNESS>(active, keep, weighted.as_ref(), w, a);
        v = active.select(solved_v, v);
        // Lanes that left `active` during this trip are now finished.
        terminated |= !active;
    }

    Outcome {
        simplex,
        enclosing,
        v,
        cores_overlap,
        shapes_intersect: intersected,
        iterations,
        status: statuses(!valid, degenerate, capped),
    }
}

/// Per-lane iteration counts as integers.
#[inline(always)]
pub(crate) fn iteration_counts(it: f32x8) -> [u32; 8] {
    it.round_int().to_array().map(|x| x as u32)
}

/// B in A's frame for eight pairs: the rotation taking B's frame to A's, B's
/// origin in A's frame, and the lanes of `lanes` whose inputs (both poses, both
/// shapes with their margins and scale) and relative pose are all finite. Every
/// kernel starts here (GJK, the closed forms, the separating axes).
#[inline(always)]
pub(crate) fn pair_frame<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: Mask8,
) -> (Mat3x8, Vec3x8, Mask8) {
    // B's orientation only matters for a core that is not a point.
    let (b_to_a, offset) = if B::POINT_CORE {
        (Mat3x8::IDENTITY, pose_a.relative_translation(pose_b))
    } else {
        let rel = pose_a.relative(pose_b);
        (rel.rotation_matrix(), rel.translation)
    };
    let valid = lanes
        & pose_a.finite()
        & pose_b.finite()
        & b_to_a.finite()
        & offset.finite()
        & shapes_finite(a, b);
    (b_to_a, offset, valid)
}

/// The lanes where both shapes' data, margins and bounding radii (and their sum,
/// the tolerances' scale) are finite: the shape half of every kernel's input
/// check.
#[inline(always)]
pub(crate) fn shapes_finite<A: SupportMapX8, B: SupportMapX8>(a: &A, b: &B) -> Mask8 {
    a.finite()
        & b.finite()
        & a.margin().finite()
        & b.margin().finite()
        & (a.bounding_radius() + b.bounding_radius()).finite()
}

/// The pair set up in A's frame: Minkowski support, lanes with finite input.
#[inline(always)]
fn prepare<'s, A: SupportMapX8, B: SupportMapX8>(
    a: &'s A,
    pose_a: &PoseX8,
    b: &'s B,
    pose_b: &PoseX8,
    lanes: Mask8,
) -> (MinkowskiX8<'s, A, B>, Mask8) {
    let (b_to_a, offset, valid) = pair_frame(a, pose_a, b, pose_b, lanes);
    let m = MinkowskiX8 {
        a,
        b,
        b_to_a,
        offset,
    };
    (m, valid)
}

/// Whether `a` at `pose_a` and `b` at `pose_b` overlap or touch, for the lanes of
/// `lanes` (other lanes report [`LaneStatus::InvalidInput`]).
///
/// Boolean GJK with both early exits of `gjk-core`'s `intersection`: a lane stops
/// as soon as a separating plane is found or its cores come within the margins.
pub fn intersects_x8<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: Mask8,
) -> IntersectionX8 {
    let (m, valid) = prepare(a, pose_a, b, pose_b, lanes);
    let scale = a.bounding_radius() + b.bounding_radius();
    let touch = f32x8::splat(TOUCH_TOLERANCE) * scale;
    let reach = a.margin() + b.margin() + touch;
    let out = run::<A, B, true, false>(&m, valid, touch, reach);
    IntersectionX8 {
        intersecting: out.shapes_intersect & valid,
        iterations: iteration_counts(out.iterations),
        status: out.status,
    }
}

/// Distance and closest points between `a` at `pose_a` and `b` at `pose_b`, for the
/// lanes of `lanes` (other lanes report [`LaneStatus::InvalidInput`]).
///
/// GJK runs on the cores in A's frame; the margins are subtracted afterwards and
/// the witness points pushed out along the normal by each shape's margin, exactly
/// as `gjk-core`'s `distance`.
pub fn distance_x8<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: Mask8,
) -> DistanceX8 {
    let zero = f32x8::ZERO;
    let (m, valid) = prepare(a, pose_a, b, pose_b, lanes);
    let (ma, mb) = (a.margin(), b.margin());
    let scale = a.bounding_radius() + b.bounding_radius();
    let touch = f32x8::splat(TOUCH_TOLERANCE) * scale;
    let out = run::<A, B, false, true>(&m, valid, touch, zero);

    let (mut core_a, mut core_b) = out.simplex.witnesses();
    let (ea, eb, ew) = out.enclosing;
    core_a = ea.mul_add(ew, core_a);
    core_b = eb.mul_add(ew, core_b);
    // An enclosing tetrahedron's four weights come from four separate divisions;
    // dividing by their sum makes the witnesses convex combinations again (each
    // inside its core), which rounding alone does not: on curved cores the
    // overlap point left the shapes by up to 5.8e-4 without it. Other lanes'
    // weights sum to one by construction and are left alone.
    let enclosed = ew.gt(zero);
    let total = (0..3).fold(ew, |sum, k| {
        sum + out.simplex.exists[k].select(out.simplex.weights[k], zero)
    });
    let scale = enclosed.select(f32x8::ONE / total, f32x8::ONE);
    core_a = core_a * scale;
    core_b = core_b * scale;

    let core_distance = out.cores_overlap.select(zero, out.v.length());
    let cores = CoreClosest {
        core_a,
        core_b,
        v: out.v,
        core_distance,
    };
    let margins = (ma, mb);
    finish_distance(
        &cores,
        margins,
        touch,
        Some(pose_a),
        valid,
        out.iterations,
        out.status,
    )
}

/// The closest points of two cores, in A's frame (or in world space, see
/// [`finish_distance`]), as a distance query found them.
pub(crate) struct CoreClosest {
    /// The point of A's core closest to B's.
    pub core_a: Vec3x8,
    /// The point of B's core closest to A's.
    pub core_b: Vec3x8,
    /// `core_a - core_b` as the query computed it (its direction is the exact
    /// one; the difference of the witnesses carries their rounding).
    pub v: Vec3x8,
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
    valid: Mask8,
    iterations: f32x8,
    status: [LaneStatus; 8],
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
    let rotate = |d: Vec3x8| frame.as_ref().map_or(d, |(rot, _)| rot.mul_vec3(d));
    let world = |p: Vec3x8| frame.as_ref().map_or(p, |(rot, t)| rot.mul_vec3(p) + *t);
    let local_a = touching.select(inside, n.mul_add(ma, core_a));
    let local_b = touching.select(inside, (-n).mul_add(mb, core_b));
    let invalid = !valid;
    let nan = Vec3x8::splat(Vec3::NAN);
    DistanceX8 {
        distance: invalid.select(f32x8::splat(f32::NAN), touching.select(zero, gap)),
        point_a: invalid.select(nan, world(local_a)),
        point_b: invalid.select(nan, world(local_b)),
        normal: (touching | invalid).select(Vec3x8::ZERO, rotate(n)),
        iterations: iteration_counts(iterations),
        status,
    }
}
