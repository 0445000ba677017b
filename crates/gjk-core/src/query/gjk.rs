//! GJK: boolean intersection and distance with closest points.

use glam::{DVec3, Vec3};

use super::minkowski::{Minkowski, SupportPoint};
use super::simplex::Simplex;
use super::status::Status;
use crate::math::Pose;
use crate::support::SupportMap;
use crate::tolerance::{
    GJK_GAP_FLOOR, GJK_MAX_ITERATIONS, GJK_RELATIVE_GAP, STALL_TOUCHING, TOUCH_TOLERANCE,
};

/// What [`intersection`] found.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Intersection {
    /// Whether the shapes overlap or touch (see [`TOUCH_TOLERANCE`]).
    pub intersecting: bool,
    /// Support evaluations performed.
    pub iterations: u32,
    /// How the loop ended.
    pub status: Status,
}

/// What [`distance`] found. All points and directions are in world space.
///
/// The fields are laid out in this order (`repr(C)`): twelve 32-bit words, the
/// status in the first byte of the last, so that batch drivers can write a whole
/// answer with two vector stores.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Distance {
    /// The distance between the shapes; exactly 0 when they overlap or touch.
    pub distance: f32,
    /// For separated shapes, the point of A closest to B. For overlapping shapes, a
    /// point inside both (the same as `point_b`).
    pub point_a: Vec3,
    /// For separated shapes, the point of B closest to A.
    pub point_b: Vec3,
    /// Unit vector from A towards B (`point_b - point_a` normalized); zero when the
    /// shapes overlap, since no direction is preferred then (use `contact`).
    pub normal: Vec3,
    /// Support evaluations performed.
    pub iterations: u32,
    /// How the loop ended.
    pub status: Status,
}

/// When the GJK loop may stop early.
#[derive(Clone, Copy)]
pub(crate) enum Goal {
    /// Run to convergence of the distance between the cores.
    Distance,
    /// Stop as soon as the shapes (cores plus this total margin, plus the touch
    /// tolerance) are known to overlap or to be apart.
    Boolean { reach: f32 },
}

/// Where GJK left the cores.
pub(crate) struct GjkOutcome {
    /// The final simplex (its weights give witness points on the cores).
    pub simplex: Simplex,
    /// The point of `core(A) - core(B)` closest to the origin found; `|v|` is an
    /// upper bound of the cores' distance.
    pub v: DVec3,
    /// The cores overlap or touch: `|v|` fell below the touch tolerance or the
    /// simplex enclosed the origin.
    pub cores_overlap: bool,
    /// For [`Goal::Boolean`]: the verdict.
    pub shapes_intersect: bool,
    pub iterations: u32,
    pub status: Status,
}

impl GjkOutcome {
    /// The unit normal from A to B when the cores are apart: `-v` is the exact
    /// direction of the closest point, whereas the witness difference carries the
    /// rounding of the weights.
    pub fn normal(&self) -> Vec3 {
        (-self.v / self.v.length()).as_vec3()
    }
}

/// Witness points of the whole shapes from those of their cores: each pushed out
/// along the A-to-B `normal` by its own shape's margin.
pub(crate) fn dilate(
    normal: Vec3,
    core_a: Vec3,
    core_b: Vec3,
    (ma, mb): (f32, f32),
) -> (Vec3, Vec3) {
    (core_a + normal * ma, core_b - normal * mb)
}

/// The GJK loop on the cores, in A's frame.
///
/// Termination tests, in order: containment (`|v|` within the touch tolerance),
/// the early verdicts of the boolean goal, the relative duality gap with its
/// rounding floor, a repeated support point, and no decrease of `|v|` (which makes
/// cycling impossible: bepu's rule; touching when nothing shows the cores apart,
/// see [`STALL_TOUCHING`]). The cap ends everything else.
pub(crate) fn run<A, B>(m: &mut Minkowski<A, B>, goal: Goal) -> GjkOutcome
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let touch = TOUCH_TOLERANCE * m.scale();
    let stall_touch = f64::from(STALL_TOUCHING * m.scale());
    // Start from the support along the line between the centres: for separated
    // shapes it is already close to the closest feature.
    let first_dir = m.towards_b().unwrap_or(Vec3::X);
    let first: SupportPoint = m.support(first_dir);
    let mut simplex = Simplex::single(first);
    // `v` and the quantities compared with it are f64: see `Simplex::solve`.
    let mut v = first.w.as_dvec3();
    let touch = touch as f64;
    let mut iterations = 1;
    // Whether a plane of the run showed the cores apart by more than the touch
    // tolerance (its lower bound `v·w / |v|` above it).
    let mut shown_apart = false;
    let outcome = |simplex, v, cores_overlap, shapes_intersect, iterations, status| GjkOutcome {
        simplex,
        v,
        cores_overlap,
        shapes_intersect,
        iterations,
        status,
    };

    loop {
        let vv = v.length_squared();
        if !vv.is_finite() {
            return outcome(simplex, v, false, false, iterations, Status::Degenerate);
        }
        if vv <= touch * touch {
            return outcome(simplex, v, true, true, iterations, Status::Converged);
        }
        let v_len = vv.sqrt();
        if let Goal::Boolean { reach } = goal
            && v_len <= reach as f64
        {
            return outcome(simplex, v, false, true, iterations, Status::Converged);
        }
        if iterations >= GJK_MAX_ITERATIONS {
            let hit = matches!(goal, Goal::Boolean { reach } if v_len <= reach as f64);
            return outcome(simplex, v, false, hit, iterations, Status::IterationLimit);
        }

        // A unit direction: shapes square its components (a disc's support), and
        // `v` of a pair posed 1e20 apart would overflow them.
        let w = m.support((-v / v_len).as_vec3());
        iterations += 1;
        let vw = v.dot(w.w.as_dvec3());
        shown_apart |= vw > touch * v_len;
        // `v·w / |v|` is a lower bound of the cores' distance: the plane through w
        // orthogonal to v separates the origin from core(A) - core(B).
        if let Goal::Boolean { reach } = goal
            && vw > reach as f64 * v_len
        {
            return outcome(simplex, v, false, false, iterations, Status::Converged);
        }
        let gap = vv - vw;
        let converged = gap <= GJK_RELATIVE_GAP as f64 * vv
            || gap <= GJK_GAP_FLOOR as f64 * v_len * w.w.as_dvec3().length();
        if converged || simplex.contains(w.w) {
            let hit = matches!(goal, Goal::Boolean { reach } if v_len <= reach as f64);
            return outcome(simplex, v, false, hit, iterations, Status::Converged);
        }

        let previous = simplex;
        simplex.push(w);
        let next_v = simplex.solve();
        if simplex.len == 4 {
            return outcome(
                simplex,
                DVec3::ZERO,
                true,
                true,
                iterations,
                Status::Converged,
            );
        }
        if next_v.length_squared() >= vv {
            // No progress: the previous simplex is as good as it gets. With no
            // plane of the run showing the cores apart by more than the touch
            // tolerance and `|v|` within the rounding of the support points,
            // they touch (see `STALL_TOUCHING`).
            if !shown_apart && v_len <= stall_touch {
                return outcome(previous, v, true, true, iterations, Status::Converged);
            }
            let hit = matches!(goal, Goal::Boolean { reach } if v_len <= reach as f64);
            return outcome(previous, v, false, hit, iterations, Status::Converged);
        }
        v = next_v;
    }
}

/// Full report of the boolean test: whether `a` at `pose_a` and `b` at `pose_b`
/// overlap or touch, with the iteration count and status (`InvalidInput`, not
/// intersecting, for a pair beyond [`MAX_OFFSET`](crate::tolerance::MAX_OFFSET)).
pub fn intersection<A, B>(a: &A, pose_a: &Pose, b: &B, pose_b: &Pose) -> Intersection
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let mut m = Minkowski::new(a, pose_a, b, pose_b);
    if !m.in_range() {
        return Intersection {
            intersecting: false,
            iterations: 0,
            status: Status::InvalidInput,
        };
    }
    let (ma, mb) = m.margins();
    let reach = ma + mb + TOUCH_TOLERANCE * m.scale();
    let out = run(&mut m, Goal::Boolean { reach });
    Intersection {
        intersecting: out.shapes_intersect,
        iterations: out.iterations,
        status: out.status,
    }
}

/// Whether `a` at `pose_a` and `b` at `pose_b` overlap or touch.
///
/// Boolean GJK with early exits on both sides: it stops as soon as a separating
/// plane is found or the cores come within the margins.
pub fn intersects<A, B>(a: &A, pose_a: &Pose, b: &B, pose_b: &Pose) -> bool
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    intersection(a, pose_a, b, pose_b).intersecting
}

/// Distance and closest points between `a` at `pose_a` and `b` at `pose_b`.
///
/// GJK runs on the cores in A's frame; the margins are subtracted afterwards and
/// the witness points pushed out along the normal by each shape's margin. A pair
/// whose offset in A's frame exceeds [`MAX_OFFSET`](crate::tolerance::MAX_OFFSET)
/// on some axis is `Status::InvalidInput`, with a NaN distance and NaN points.
///
///
/// ```
/// use gjk_core::{Capsule, Pose, Sphere, distance};
/// use gjk_core::glam::Vec3;
///
/// // A capsule standing on the origin (its segment from y = -1 to 1, radius 0.5)
/// // and a ball of radius 0.25 two units to its side.
/// let capsule = Capsule::new(1.0, 0.5)?;
/// let ball = Sphere::new(0.25)?;
/// let beside = Pose::from_translation(Vec3::new(2.0, 0.5, 0.0)).unwrap();
/// let d = distance(&capsule, &Pose::IDENTITY, &ball, &beside);
/// assert!((d.distance - 1.25).abs() < 1e-5);
/// assert!((d.normal - Vec3::X).length() < 1e-5);
/// assert!((d.point_a - Vec3::new(0.5, 0.5, 0.0)).length() < 1e-5);
/// assert_eq!(d.status, gjk_core::Status::Converged);
/// # Ok::<(), gjk_core::ShapeError>(())
/// ```
pub fn distance<A, B>(a: &A, pose_a: &Pose, b: &B, pose_b: &Pose) -> Distance
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let mut m = Minkowski::new(a, pose_a, b, pose_b);
    if !m.in_range() {
        return Distance {
            distance: f32::NAN,
            point_a: Vec3::NAN,
            point_b: Vec3::NAN,
            normal: Vec3::ZERO,
            iterations: 0,
            status: Status::InvalidInput,
        };
    }
    let (ma, mb) = m.margins();
    let touch = TOUCH_TOLERANCE * m.scale();
    let out = run(&mut m, Goal::Distance);
    let (core_a, core_b) = out.simplex.witnesses();
    let core_distance = if out.cores_overlap {
        0.0
    } else {
        out.v.length() as f32
    };
    let gap = core_distance - ma - mb;
    let world = |p: Vec3| pose_a.transform_point(p);
    if gap <= touch {
        // Overlapping or touching. A point inside both shapes: on the segment
        // between the cores' witness points, split in proportion to the margins.
        let inside = if core_distance > 0.0 && ma + mb > 0.0 {
            core_a + (core_b - core_a) * (ma / (ma + mb))
        } else {
            (core_a + core_b) * 0.5
        };
        let p = world(inside);
        return Distance {
            distance: 0.0,
            point_a: p,
            point_b: p,
            normal: Vec3::ZERO,
            iterations: out.iterations,
            status: out.status,
        };
    }
    let n = out.normal();
    let (point_a, point_b) = dilate(n, core_a, core_b, (ma, mb));
    Distance {
        distance: gap,
        point_a: world(point_a),
        point_b: world(point_b),
        normal: pose_a.transform_vector(n),
        iterations: out.iterations,
        status: out.status,
    }
}
