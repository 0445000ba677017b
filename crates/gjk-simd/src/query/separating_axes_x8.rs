//! Boolean verdicts for box pairs by the separating-axis test, eight at a time.
//!
//! Two boxes are disjoint exactly when one of fifteen axes separates them: the
//! three face normals of each and the nine cross products of an edge of each
//! (Gottschalk's OBB test). Projections on an axis `L` are compared unnormalized:
//! the gap `g = |t·L| - r_A - r_B` is `|L|` times the true gap along `L`, and
//! `|L| <= 1` for unit edge directions, so `g` never overstates a positive gap.
//! That gives two sound certificates, each with a rounding slack:
//!
//! * **apart**: some axis has `g` beyond the margins plus the touch tolerance, so
//!   the rounded boxes are farther apart than touching and GJK would say so too;
//! * **overlapping**: every axis has `g` clearly negative, so the cores overlap
//!   and so do the shapes (margins only add).
//!
//! Everything in between stays undecided and goes to GJK: shapes within the
//! rounding slack of touching, and overlapping boxes with (nearly) parallel edges,
//! whose cross axes shrink to nothing so that `g` sinks into the rounding noise
//! and cannot certify the overlap (axis-aligned boxes always take GJK when they
//! overlap; they are still certified apart). The batch driver runs this test on box-box
//! buckets of the boolean query before GJK: it costs about 200 lane operations per
//! eight pairs, against several hundred per pair for GJK.

use gjk_core::tolerance::{BOX_AXES_SLACK_ULPS, BOX_EDGE_AXIS_SIN_SQ_X8, TOUCH_TOLERANCE};
use wide::f32x8;

use super::minkowski_x8::pair_frame;
use crate::math::{CmpX8, MaskX8, Mat3X8, PoseX8, Vec3X8};
use crate::shapes::{CuboidX8, RoundedX8};
use crate::support_x8::SupportMapX8;

/// What the separating-axis test proved, per lane; lanes in neither mask are
/// undecided (and so are lanes with non-finite data).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SatVerdictX8 {
    /// Lanes certainly farther apart than the touch tolerance.
    pub apart: MaskX8,
    /// Lanes whose boxes certainly overlap.
    pub overlapping: MaskX8,
}

/// The separating-axis verdicts for eight pairs of (rounded) boxes; see the module
/// docs. Only lanes of `lanes` can be decided.
pub fn cuboids_sat_x8(
    a: &RoundedX8<CuboidX8>,
    pose_a: &PoseX8,
    b: &RoundedX8<CuboidX8>,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> SatVerdictX8 {
    let (rot, t, valid) = pair_frame(a, pose_a, b, pose_b, lanes);
    let t = [t.x, t.y, t.z];
    // r[i][j] = (axis i of A)·(axis j of B): row i of B's rotation in A's frame.
    let cols = [rot.x_axis, rot.y_axis, rot.z_axis];
    let r: [[f32x8; 3]; 3] =
        std::array::from_fn(|i| std::array::from_fn(|j| [cols[j].x, cols[j].y, cols[j].z][i]));
    let abs_r: [[f32x8; 3]; 3] = r.map(|row| row.map(|x| x.abs()));
    let ha = a.inner.half_extents();
    let hb = b.inner.half_extents();
    let (ea, eb) = ([ha.x, ha.y, ha.z], [hb.x, hb.y, hb.z]);

    // Rounding: see `BOX_AXES_SLACK_ULPS`; pairs within the slack go to GJK.
    let size = ea[0] + ea[1] + ea[2] + eb[0] + eb[1] + eb[2] + a.radius + b.radius;
    let slack = f32x8::splat(BOX_AXES_SLACK_ULPS * f32::EPSILON)
        * (pose_a.translation.abs().max_element() + pose_b.translation.abs().max_element() + size);
    let scale = a.bounding_radius() + b.bounding_radius();
    let reach = a.margin() + b.margin() + f32x8::splat(TOUCH_TOLERANCE) * scale;
    let apart_beyond = reach + slack;
    let overlap_below = -slack;

    let mut apart = MaskX8::NONE;
    let mut overlapping = MaskX8::ALL;
    let mut axis = |g: f32x8| {
        apart |= g.gt(apart_beyond);
        overlapping &= g.lt(overlap_below);
    };
    // Face normals of A: L = e_i.
    for i in 0..3 {
        let rb = eb[0] * abs_r[i][0] + eb[1] * abs_r[i][1] + eb[2] * abs_r[i][2];
        axis(t[i].abs() - ea[i] - rb);
    }
    // Face normals of B: L = column j.
    for j in 0..3 {
        let tl = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        let ra = ea[0] * abs_r[0][j] + ea[1] * abs_r[1][j] + ea[2] * abs_r[2][j];
        axis(tl.abs() - ra - eb[j]);
    }
    // Edge cross products: L = e_i × column j. With (i1, i2) and (j1, j2) the
    // other two indices in cyclic order, t·L = t_i2 r_i1j - t_i1 r_i2j and the
    // radii are the projections of the two other half extents of each box.
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            let ra = ea[i1] * abs_r[i2][j] + ea[i2] * abs_r[i1][j];
            let rb = eb[j1] * abs_r[i][j2] + eb[j2] * abs_r[i][j1];
            axis(tl.abs() - ra - rb);
        }
    }

    // A NaN gap neither separates nor overlaps, but an infinite offset would
    // "separate": only lanes with finite data are decided.
    let finite = valid & slack.finite();
    SatVerdictX8 {
        apart: apart & finite,
        overlapping: overlapping & finite & !apart,
    }
}

/// The penetration of eight pairs of box cores, exactly: over the fifteen axes, the
/// smallest overlap (normalized) and its axis signed from A towards B, in A's
/// frame. `ha`, `hb`: the cores' half extents; `b_to_a`, `offset`: B's rotation
/// and origin in A's frame.
///
/// For convex polytopes the penetration depth is the smallest overlap over the
/// face normals of `A - B`, which are among the fifteen axes; any other axis can
/// only overlap more. So the minimum is the depth exactly, up to rounding, where
/// the boxes overlap; where they do not, it is negative and bounds their distance
/// from below. Edge axes of nearly parallel edges are left out
/// ([`BOX_EDGE_AXIS_SIN_SQ_X8`]): their rounding is amplified by the
/// normalization, and as the edges become parallel their face of `A - B` shrinks
/// into the neighbouring faces, whose axes are tested. Ties keep the first axis in
/// the order A's faces, B's faces, edges.
#[inline(always)]
pub(crate) fn box_cores_penetration_x8(
    ha: Vec3X8,
    hb: Vec3X8,
    b_to_a: &Mat3X8,
    offset: Vec3X8,
) -> (f32x8, Vec3X8) {
    let zero = f32x8::ZERO;
    let t = offset;
    let cols = [b_to_a.x_axis, b_to_a.y_axis, b_to_a.z_axis];
    // The support radius of a box along `l`: its half extents on |l| along its axes.
    let radius_a = |l: Vec3X8| l.abs().dot(ha);
    let radius_b = |l: Vec3X8| {
        let along = Vec3X8::new(cols[0].dot(l), cols[1].dot(l), cols[2].dot(l));
        along.abs().dot(hb)
    };
    let mut best = f32x8::splat(f32::INFINITY);
    let mut normal = Vec3X8::ZERO;
    // Overlap along the unit (or `len`-long) axis `l`, signed towards B: the
    // cores' support radii minus the centres' separation along it.
    let mut axis = |l: Vec3X8, len: f32x8, usable: MaskX8| {
        let tl = t.dot(l);
        let overlap = (radius_a(l) + radius_b(l) - tl.abs()) / len;
        let better = usable & overlap.lt(best);
        best = better.select(overlap, best);
        // A zero offset along the axis picks +l, deterministically.
        let signed = tl.lt(zero).select(-l, l) * (f32x8::ONE / len);
        normal = better.select(signed, normal);
    };
    let one = f32x8::ONE;
    for e in [
        Vec3X8::splat(glam::Vec3::X),
        Vec3X8::splat(glam::Vec3::Y),
        Vec3X8::splat(glam::Vec3::Z),
    ] {
        axis(e, one, MaskX8::ALL);
    }
    for c in cols {
        axis(c, one, MaskX8::ALL);
    }
    let sin_sq_floor = f32x8::splat(BOX_EDGE_AXIS_SIN_SQ_X8);
    for e in [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z] {
        for c in cols {
            let l = Vec3X8::splat(e).cross(c);
            let len_sq = l.length_squared();
            axis(l, len_sq.sqrt(), len_sq.gt(sin_sq_floor));
        }
    }
    (best, normal)
}

#[cfg(test)]
mod tests {
    use gjk_core::glam::{Quat, Vec3};
    use gjk_core::{Cuboid, Pose};

    use super::*;

    fn boxes(h: Vec3) -> RoundedX8<CuboidX8> {
        RoundedX8 {
            inner: CuboidX8::from_array([Cuboid::new(h).unwrap(); 8]),
            radius: f32x8::ZERO,
        }
    }

    #[test]
    fn face_cases_and_the_parallel_fallback() {
        let unit = boxes(Vec3::ONE);
        let origin = PoseX8::from_array([Pose::IDENTITY; 8]);
        let at = |p: [Vec3; 8], q: Quat| PoseX8::from_array(p.map(|p| Pose::new(q, p).unwrap()));
        let xs = [0.0, 1.0, 1.9, 1.99, 2.0, 2.01, 2.5, 10.0].map(|x| Vec3::new(x, 0.0, 0.0));
        // Axis-aligned unit boxes along X: apart beyond 2 (touching at 2 and the
        // rounding band stay undecided). Their parallel edges make six cross
        // axes vanish, so overlap is never certified: GJK decides those.
        let v = cuboids_sat_x8(&unit, &origin, &unit, &at(xs, Quat::IDENTITY), MaskX8::ALL);
        assert_eq!(
            v.apart.to_bools(),
            [false, false, false, false, false, true, true, true]
        );
        assert!(v.overlapping.none());
        // In general position the same offsets are certified both ways. B's
        // extent along X is then its support along X, between 1 and √3.
        let q = Quat::from_euler(gjk_core::glam::EulerRot::XYZ, 0.3, 0.7, 1.1);
        let reach = 1.0 + {
            let m = gjk_core::glam::Mat3::from_quat(q);
            m.row(0).abs().element_sum()
        };
        let xs = [
            0.0,
            1.0,
            0.9 * reach,
            0.99 * reach,
            1.01 * reach,
            1.1 * reach,
            3.0,
            10.0,
        ]
        .map(|x| Vec3::new(x, 0.0, 0.0));
        let v = cuboids_sat_x8(&unit, &origin, &unit, &at(xs, q), MaskX8::ALL);
        assert_eq!(v.overlapping.bitmask(), 0b0000_1111, "{v:?}");
        assert_eq!(v.apart.bitmask(), 0b1111_0000, "{v:?}");
        // Lanes outside `lanes` are never decided.
        let v = cuboids_sat_x8(&unit, &origin, &unit, &at(xs, q), MaskX8::first(3));
        assert_eq!((v.overlapping | v.apart).bitmask(), 0b0000_0111);
    }

    #[test]
    fn edge_edge_separation_is_found() {
        // Two long thin bars on skew lines, one above the other, both tilted:
        // apart when lifted, crossing when not.
        let bar = boxes(Vec3::new(3.0, 0.1, 0.1));
        let qa = Quat::from_rotation_y(0.6) * Quat::from_rotation_x(0.3);
        let qb = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_y(-0.6);
        let lift = |z: f32| PoseX8::from_array([Pose::new(qb, Vec3::new(0.0, 0.0, z)).unwrap(); 8]);
        let pa = PoseX8::from_array([Pose::new(qa, Vec3::ZERO).unwrap(); 8]);
        let far = cuboids_sat_x8(&bar, &pa, &bar, &lift(1.5), MaskX8::ALL);
        assert!(far.apart.all(), "{far:?}");
        let near = cuboids_sat_x8(&bar, &pa, &bar, &lift(0.0), MaskX8::ALL);
        assert!(near.overlapping.all(), "{near:?}");
    }

    #[test]
    fn non_finite_lanes_stay_undecided() {
        let unit = boxes(Vec3::ONE);
        let origin = PoseX8::from_array([Pose::IDENTITY; 8]);
        let mut far = origin;
        far.translation.x = f32x8::new([0.0, f32::NAN, f32::INFINITY, 3e38, 0.0, 0.0, 0.0, 0.0]);
        let mut near = origin;
        near.translation.x = f32x8::new([0.0, 0.0, 0.0, -3e38, 0.0, 0.0, 0.0, 0.0]);
        let q = Quat::from_euler(gjk_core::glam::EulerRot::XYZ, 0.3, 0.7, 1.1);
        far.rotation = PoseX8::from_array([Pose::new(q, Vec3::ZERO).unwrap(); 8]).rotation;
        let v = cuboids_sat_x8(&unit, &near, &unit, &far, MaskX8::ALL);
        assert_eq!((v.apart | v.overlapping).bitmask() & 0b1110, 0, "{v:?}");
        assert!(v.overlapping.lane(0));
    }
}
