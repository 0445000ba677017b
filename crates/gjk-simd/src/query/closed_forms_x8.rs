//! Closed-form distance between point and segment cores (spheres and capsules,
//! rounded or not), eight pairs at once.
//!
//! Two such cores are a point or a segment each, and the closest points of two
//! segments have a closed form: no iteration, no simplex. Spheres and capsules are
//! where GJK is cheapest already, but also where a collision pipeline meets them
//! most (characters, ragdolls, particles), and parry's dispatcher uses the same
//! shortcut. The answer then goes through the same finishing step as GJK's
//! (`gjk_x8::finish_distance`): margins, touching, world space.

use gjk_core::tolerance::{PARALLEL_SEGMENTS_SIN_SQ, TOUCH_TOLERANCE};
use wide::f32x8;

use super::contact_x8::{
    ContactX8, LocalContact, contact_reach, finish_contact, from_closest_cores,
};
use super::gjk_x8::{CoreClosest, DistanceX8, IntersectionX8, finish_distance};
use super::minkowski_x8::{offset_in_range, pair_frame, pair_scale, shapes_finite};
use super::status_x8::statuses;
use crate::math::{CmpX8, MaskX8, PoseX8, Vec3X8};
use crate::shapes::{CapsuleX8, RoundedX8, SphereX8};
use crate::support_x8::SupportMapX8;

/// Wide shapes whose core is a segment along the local Y axis, possibly of length
/// zero (a point).
pub trait SegmentCoreX8: SupportMapX8 {
    /// Half the length of each lane's core segment (0 for a point core).
    fn half_segment(&self) -> f32x8;
}

impl SegmentCoreX8 for SphereX8 {
    #[inline(always)]
    fn half_segment(&self) -> f32x8 {
        f32x8::ZERO
    }
}

impl SegmentCoreX8 for CapsuleX8 {
    #[inline(always)]
    fn half_segment(&self) -> f32x8 {
        self.half_height()
    }
}

impl<S: SegmentCoreX8> SegmentCoreX8 for RoundedX8<S> {
    #[inline(always)]
    fn half_segment(&self) -> f32x8 {
        self.inner.half_segment()
    }
}

/// Whether both kinds have point cores (two balls): their closest points are
/// their centres, in any frame, so the kernels work in world space and rotate
/// nothing.
const fn point_cores<A: SupportMapX8, B: SupportMapX8>() -> bool {
    A::POINT_CORE && B::POINT_CORE
}

/// Where the closest points of the cores lie, in A's frame (in world space for
/// two point cores, see [`point_cores`]), and which lanes hold finite data.
#[inline(always)]
fn closest_cores<A: SegmentCoreX8, B: SegmentCoreX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> (CoreClosest, MaskX8, f32x8, SegmentAxes) {
    let zero = f32x8::ZERO;
    let scale = a.bounding_radius() + b.bounding_radius();
    let touch = f32x8::splat(TOUCH_TOLERANCE) * scale;
    let (core_a, core_b, valid, axes) = if point_cores::<A, B>() {
        let (core_a, core_b) = (pose_a.translation, pose_b.translation);
        // The same inputs as `pair_frame` checks, the offset in world space.
        let valid = lanes
            & pose_a.finite()
            & pose_b.finite()
            & offset_in_range(core_b - core_a)
            & shapes_finite(a, b);
        let axes = SegmentAxes {
            u: Vec3X8::splat(glam::Vec3::Y),
            offset: core_b - core_a,
            interior: MaskX8::NONE,
        };
        (core_a, core_b, valid, axes)
    } else {
        segment_closest_points(a, pose_a, b, pose_b, lanes)
    };
    let v = core_a - core_b;
    let vv = v.length_squared();
    let mut length = vv.sqrt();
    // |v|² leaves f32's range beyond 1.8e19 (two balls posed that far apart) and
    // loses its digits below 1e-19: there the length is taken of `v` scaled by a
    // power of two (a uniform branch).
    let extreme = valid & !(vv.finite() & vv.ge(f32x8::splat(f32::MIN_POSITIVE)));
    if extreme.any() {
        let s = pair_scale(v.abs().max_element());
        length = extreme.select((v * s).length() / s, length);
    }
    // The cores overlap (touch) within the touch tolerance, as in GJK.
    let core_distance = length.le(touch).select(zero, length);
    let cores = CoreClosest {
        core_a,
        core_b,
        v,
        core_distance,
    };
    (cores, valid, touch, axes)
}

/// The frame the closest points were found in: B's segment direction and B's
/// origin (A's frame; for two point cores, world space with `u` unused), and the
/// lanes whose closest points are interior to both segments (not at an end),
/// where the segments' common perpendicular gives the normal.
struct SegmentAxes {
    u: Vec3X8,
    offset: Vec3X8,
    interior: MaskX8,
}

/// The closest points of two segment cores, in A's frame, and the lanes with
/// finite input.
#[inline(always)]
fn segment_closest_points<A: SegmentCoreX8, B: SegmentCoreX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> (Vec3X8, Vec3X8, MaskX8, SegmentAxes) {
    let zero = f32x8::ZERO;
    // B's segment direction is its Y axis in A's frame (a point core skips the
    // rotation: its half length is 0).
    let (b_to_a, c, valid) = pair_frame(a, pose_a, b, pose_b, lanes);
    let u = b_to_a.y_axis;
    let (ha, hb) = (a.half_segment(), b.half_segment());
    // A's core is s·e (e = Y, |s| <= ha), B's is c + t·u (|t| <= hb). Setting both
    // partial derivatives of |c + t·u - s·e|² to zero: s = g + k·t, t = k·s - f,
    // with k = e·u, f = u·c, g = e·c; so s = (g - k·f) / (1 - k²), where
    // 1 - k² = u.x² + u.z² (u is a unit vector: no cancellation near parallel).
    // The numerator is g (1 - k²) - k (u.x c.x + u.z c.z): written so, s is
    // g - k (u.x c.x + u.z c.z) / (u.x² + u.z²), a ratio of two small terms of
    // the same order. Formed as g - k·f instead, it subtracts two numbers of the
    // size of the offset along the axis, whose rounding the small denominator
    // then multiplies: on long, nearly parallel capsules (a thousand times longer
    // than wide, 1e-4 rad apart) that moved the closest pair to the wrong end.
    let (k, f, g) = (u.y, u.dot(c), c.y);
    let denom = u.x * u.x + u.z * u.z;
    let across = u.z.mul_add(c.z, u.x * c.x);
    // Parallel (or a point core): any s gives a closest pair once t and s are
    // clamped in turn; take the centre.
    let skew = denom.gt(f32x8::splat(PARALLEL_SEGMENTS_SIN_SQ));
    let s_free = skew.select(g - k * (across / denom), zero);
    let s1 = s_free.max(-ha).min(ha);
    // The closest t to A's point s1; if it leaves B's segment, clamp it and take
    // the closest s to that end (Ericson, Real-Time Collision Detection, 5.1.9).
    let t_raw = k * s1 - f;
    let t = t_raw.max(-hb).min(hb);
    let clamped = !t.same(t_raw);
    let s = clamped.select((g + k * t).max(-ha).min(ha), s1);

    let interior = skew & s1.same(s_free) & !clamped;
    let axes = SegmentAxes {
        u,
        offset: c,
        interior,
    };
    (Vec3X8::new(zero, s, zero), u.mul_add(t, c), valid, axes)
}

/// [`crate::distance_x8`] for point and segment cores, in closed form: the same
/// conventions, 0 iterations.
pub fn segments_distance_x8<A: SegmentCoreX8, B: SegmentCoreX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> DistanceX8 {
    let (cores, valid, touch, _) = closest_cores(a, pose_a, b, pose_b, lanes);
    let status = statuses(!valid, MaskX8::NONE, MaskX8::NONE);
    let margins = (a.margin(), b.margin());
    // Two point cores were met in world space already.
    let frame = (!point_cores::<A, B>()).then_some(pose_a);
    finish_distance(&cores, margins, touch, frame, valid, f32x8::ZERO, status)
}

/// [`crate::intersects_x8`] for point and segment cores, in closed form: the
/// shapes intersect when the cores are within the margins plus the touch
/// tolerance; 0 iterations.
pub fn segments_intersect_x8<A: SegmentCoreX8, B: SegmentCoreX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> IntersectionX8 {
    let (cores, valid, touch, _) = closest_cores(a, pose_a, b, pose_b, lanes);
    let reach = a.margin() + b.margin() + touch;
    IntersectionX8 {
        intersecting: cores.core_distance.le(reach) & valid,
        iterations: [0; 8],
        status: statuses(!valid, MaskX8::NONE, MaskX8::NONE),
    }
}

/// [`crate::contact_x8`] for point and segment cores, in closed form: the same
/// conventions, 0 iterations.
///
/// Cores that meet (a point on a segment, crossing segments, coincident points)
/// overlap with no volume: their penetration is 0, and the contact's depth is the
/// margins' sum, along a direction the cores have no extent in. As `gjk_core`
/// does, it is the offset between the shapes' origins (A's Y axis when they
/// coincide), made perpendicular to a segment core, or the normal of two crossing
/// segments signed towards that offset.
pub fn segments_contact_x8<A: SegmentCoreX8, B: SegmentCoreX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    prediction: f32x8,
    lanes: MaskX8,
) -> ContactX8 {
    let zero = f32x8::ZERO;
    let (cores, valid, _, axes) = closest_cores(a, pose_a, b, pose_b, lanes);
    let status = statuses(!valid, MaskX8::NONE, MaskX8::NONE);
    let (ma, mb) = (a.margin(), b.margin());
    let reach = contact_reach(a, b, prediction);
    let apart = valid & cores.core_distance.gt(zero);
    // Between interior points of two skew segments the closest points' difference
    // is along the segments' common perpendicular: its direction comes from the
    // cross product of the directions, well conditioned, where the difference of
    // nearly touching points carries their rounding magnified by 1 / distance.
    let cross = Vec3X8::splat(glam::Vec3::Y).cross(axes.u);
    let perpendicular = cross * (f32x8::ONE / cross.length());
    let along = axes.offset.dot(perpendicular);
    let refined = apart & axes.interior;
    let toward_b = along.lt(zero).select(-perpendicular, perpendicular);
    let cores = CoreClosest {
        core_a: cores.core_a,
        core_b: refined.select(toward_b.mul_add(along.abs(), cores.core_a), cores.core_b),
        v: refined.select(-toward_b * along.abs(), cores.v),
        core_distance: refined.select(along.abs(), cores.core_distance),
    };
    let (in_apart, depth, normal, point_a, point_b) =
        from_closest_cores(&cores, apart, reach, (ma, mb));
    let meeting = valid.and_not(apart);
    let mut contact = LocalContact {
        in_contact: in_apart,
        unresolved: MaskX8::NONE,
        depth,
        normal,
        point_a,
        point_b,
        iterations: zero,
        status,
    };
    // A point core's frame is the world's; a segment core's is A's.
    let frame_a = if point_cores::<A, B>() {
        None
    } else {
        Some(pose_a)
    };
    if meeting.any() {
        // A's Y axis, in the frame the cores were met in.
        let y_a = frame_a.map_or_else(
            || pose_a.rotation_matrix().y_axis,
            |_| Vec3X8::splat(glam::Vec3::Y),
        );
        let preferred = axes
            .offset
            .length_squared()
            .gt(zero)
            .select(axes.offset, y_a);
        let preferred = preferred * (f32x8::ONE / preferred.length());
        let (ha, hb) = (a.half_segment(), b.half_segment());
        // The direction the cores' difference extends along, if it is a segment.
        let crossing = ha.gt(zero) & hb.gt(zero);
        let cross = Vec3X8::splat(glam::Vec3::Y).cross(axes.u);
        let cross_sq = cross.length_squared();
        let plane = crossing & cross_sq.gt(f32x8::splat(PARALLEL_SEGMENTS_SIN_SQ));
        let line = hb
            .gt(zero)
            .and_not(ha.gt(zero))
            .select(axes.u, Vec3X8::splat(glam::Vec3::Y));
        let is_line = (ha.gt(zero) | hb.gt(zero)).and_not(plane);
        let across = preferred - line * line.dot(preferred);
        let across_sq = across.length_squared();
        // A preferred direction along the segment itself: any perpendicular.
        let fallback = line.cross(Vec3X8::splat(glam::Vec3::X));
        let fallback = fallback
            .length_squared()
            .gt(f32x8::splat(0.5))
            .select(fallback, line.cross(Vec3X8::splat(glam::Vec3::Z)));
        let across = across_sq.gt(zero).select(across, fallback);
        let n_plane = preferred.dot(cross).lt(zero).select(-cross, cross);
        let n = plane.select(n_plane, is_line.select(across, preferred));
        let n = n * (f32x8::ONE / n.length());
        let point = cores.core_a;
        contact.in_contact |= meeting;
        contact.depth = meeting.select(ma + mb, contact.depth);
        contact.normal = meeting.select(n, contact.normal);
        contact.point_a = meeting.select(n.mul_add(ma, point), contact.point_a);
        contact.point_b = meeting.select((-n).mul_add(mb, point), contact.point_b);
    }
    finish_contact(&contact, frame_a, valid)
}

#[cfg(test)]
mod tests {
    use gjk_core::glam::{Quat, Vec3};
    use gjk_core::{Capsule, Pose, Sphere};

    use super::*;
    use gjk_core::Status;

    fn capsules(h: f32, r: f32) -> CapsuleX8 {
        CapsuleX8::from_array([Capsule::new(h, r).unwrap(); 8])
    }

    #[test]
    fn crossed_parallel_and_end_to_end_capsules() {
        let a = capsules(1.0, 0.25);
        let origin = PoseX8::from_array([Pose::IDENTITY; 8]);
        let poses =
            |q: Quat, ts: [Vec3; 8]| PoseX8::from_array(ts.map(|t| Pose::new(q, t).unwrap()));
        // Crossed at right angles (B along X), B 1 unit up Z: core distance 1.
        let cross = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let d = segments_distance_x8(&a, &origin, &a, &poses(cross, [Vec3::Z; 8]), MaskX8::ALL);
        assert!((d.distance.to_array()[0] - 0.5).abs() < 1e-6, "{d:?}");
        assert!((d.normal.lane(0) - Vec3::Z).length() < 1e-6);
        // Parallel, side by side 2 apart and shifted along the axis: distance 1.5.
        let ts = [Vec3::new(2.0, 0.5, 0.0); 8];
        let d = segments_distance_x8(&a, &origin, &a, &poses(Quat::IDENTITY, ts), MaskX8::ALL);
        assert!((d.distance.to_array()[3] - 1.5).abs() < 1e-6, "{d:?}");
        // End to end along the axis: 3 - 2 core gap, minus radii.
        let ts = [Vec3::new(0.0, 3.0, 0.0); 8];
        let d = segments_distance_x8(&a, &origin, &a, &poses(Quat::IDENTITY, ts), MaskX8::ALL);
        assert!((d.distance.to_array()[5] - 0.5).abs() < 1e-6, "{d:?}");
        assert!((d.point_a.lane(5) - Vec3::new(0.0, 1.25, 0.0)).length() < 1e-6);
        // Overlapping: distance 0, intersecting.
        let ts = [Vec3::new(0.3, 0.0, 0.0); 8];
        let b = poses(cross, ts);
        assert_eq!(
            segments_distance_x8(&a, &origin, &a, &b, MaskX8::ALL)
                .distance
                .to_array()[0],
            0.0
        );
        assert!(
            segments_intersect_x8(&a, &origin, &a, &b, MaskX8::ALL)
                .intersecting
                .all()
        );
    }

    #[test]
    fn spheres_and_invalid_lanes() {
        let s = SphereX8::from_array([Sphere::new(0.5).unwrap(); 8]);
        let origin = PoseX8::from_array([Pose::IDENTITY; 8]);
        let mut b =
            PoseX8::from_array([Pose::new(Quat::IDENTITY, Vec3::new(3.0, 0.0, 4.0)).unwrap(); 8]);
        b.translation.x = f32x8::new([3.0, f32::NAN, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]);
        let d = segments_distance_x8(&s, &origin, &s, &b, MaskX8::first(7));
        assert!((d.distance.to_array()[0] - 4.0).abs() < 1e-6);
        assert_eq!(d.status[1], Status::InvalidInput);
        assert!(d.distance.to_array()[1].is_nan());
        assert_eq!(d.status[7], Status::InvalidInput);
        assert_eq!(d.status[2], Status::Converged);
        assert_eq!(d.iterations, [0; 8]);
    }
}
