//! Wide twins of [`gjk_core::query::bounds`]: the bounding-ball verdicts of eight
//! pairs at once, and the point inside both shapes that an overlap verdict gives.
//!
//! The batch driver runs them over a block of pairs in input order, before
//! bucketing, so lanes hold pairs of different kinds: the caller computes both
//! the ball-ball and the box-ball verdicts and selects per lane. The tests are
//! the scalar ones (same slack, from [`BALL_SLACK_ULPS`] and
//! [`BOX_BALL_SLACK_ULPS`], same touch tolerance), so a verdict is as sound as
//! the scalar one; lanes never mix (each lane's answer depends on its inputs only).

use gjk_core::tolerance::TOUCH_TOLERANCE;
use gjk_core::tolerance::{BALL_SLACK_ULPS, BOX_BALL_SLACK_ULPS, BOX_BOX_SLACK_ULPS};
use wide::f32x8;

use crate::math::{CmpX8, MaskX8, Mat3X8, Vec3X8};

/// What the bounding balls tell of eight pairs.
#[derive(Clone, Copy, Debug)]
pub struct BoundsVerdictX8 {
    /// Lanes whose shapes are certainly farther apart than the touch tolerance.
    pub apart: MaskX8,
    /// Lanes whose shapes certainly overlap.
    pub overlapping: MaskX8,
    /// For the `overlapping` lanes, a point inside both shapes (world space);
    /// meaningless (possibly NaN) in the others.
    pub inside: Vec3X8,
}

/// `(apart, overlapping)` from a squared gap measure, as the scalar `verdicts`:
/// apart beyond `apart_at`, overlapping within `overlap_within` (when positive),
/// neither where anything is not finite.
#[inline(always)]
fn verdicts_x8(
    gap_sq: f32x8,
    slack: f32x8,
    apart_at: f32x8,
    overlap_within: f32x8,
) -> (MaskX8, MaskX8) {
    let finite = gap_sq.finite() & slack.finite();
    let apart = finite & gap_sq.gt(apart_at * apart_at);
    let overlap =
        finite & overlap_within.gt(f32x8::ZERO) & gap_sq.lt(overlap_within * overlap_within);
    (apart, overlap)
}

/// [`gjk_core::query::bounds::ball_tests`] with
/// [`ball_overlap_point`](gjk_core::query::bounds::ball_overlap_point), for eight
/// pairs: balls about `centre_a` and `centre_b`, outer radii summing to `outer`,
/// inner radii `inner_a` and `inner_b`.
#[inline(always)]
pub fn ball_tests_x8(
    centre_a: Vec3X8,
    centre_b: Vec3X8,
    outer: f32x8,
    inner_a: f32x8,
    inner_b: f32x8,
) -> BoundsVerdictX8 {
    let offset = centre_b - centre_a;
    let slack = f32x8::splat(BALL_SLACK_ULPS * f32::EPSILON)
        * (centre_a.abs().max_element() + centre_b.abs().max_element() + outer);
    let apart_at = f32x8::splat(TOUCH_TOLERANCE).mul_add(outer, outer) + slack;
    let (apart, overlapping) = verdicts_x8(
        offset.length_squared(),
        slack,
        apart_at,
        inner_a + inner_b - slack,
    );
    let (ra, rb) = (inner_a.max(f32x8::ZERO), inner_b.max(f32x8::ZERO));
    BoundsVerdictX8 {
        apart,
        overlapping,
        inside: offset.mul_add(ra / (ra + rb), centre_a),
    }
}

/// [`gjk_core::query::bounds::box_ball_tests`] with
/// [`box_ball_overlap_point`](gjk_core::query::bounds::box_ball_overlap_point),
/// for eight pairs: a box of `half_extents` rounded by `margin`, rotated by
/// `box_rotation` about `box_centre`, against balls about `centre` of radii
/// `outer` and `inner`.
#[inline(always)]
pub fn box_ball_tests_x8(
    half_extents: Vec3X8,
    margin: f32x8,
    box_rotation: &Mat3X8,
    box_centre: Vec3X8,
    centre: Vec3X8,
    outer: f32x8,
    inner: f32x8,
) -> BoundsVerdictX8 {
    let local = box_rotation.transpose_mul_vec3(centre - box_centre);
    let nearest = local.clamp(-half_extents, half_extents);
    let outside = local - nearest;
    let box_radius = half_extents.length() + margin;
    let slack = f32x8::splat(BOX_BALL_SLACK_ULPS * f32::EPSILON)
        * (box_centre.abs().max_element() + centre.abs().max_element() + box_radius + outer);
    let apart_at = outer + margin + f32x8::splat(TOUCH_TOLERANCE) * (box_radius + outer) + slack;
    let (apart, overlapping) = verdicts_x8(
        outside.length_squared(),
        slack,
        apart_at,
        inner + margin - slack,
    );
    let inner = inner.max(f32x8::ZERO);
    let split = outside.mul_add(margin / (margin + inner), nearest);
    BoundsVerdictX8 {
        apart,
        overlapping,
        inside: box_rotation.mul_vec3(split) + box_centre,
    }
}

/// Eight placed boxes: half extents, rotation, centre.
type PlacedBoxX8<'a> = (Vec3X8, &'a Mat3X8, Vec3X8);

/// [`gjk_core::query::bounds::box_box_overlap`] for eight pairs of boxes:
/// `(overlapping, inside)`, each box's point nearest the other's centre tested
/// against the other box, A's point first.
#[inline(always)]
pub fn box_box_overlap_x8(a: PlacedBoxX8<'_>, b: PlacedBoxX8<'_>) -> (MaskX8, Vec3X8) {
    let slack = f32x8::splat(BOX_BOX_SLACK_ULPS * f32::EPSILON)
        * (a.2.abs().max_element() + b.2.abs().max_element() + a.0.length() + b.0.length());
    let (by_a, point_a) = nearest_point_inside(a, b, slack);
    let (by_b, point_b) = nearest_point_inside(b, a, slack);
    (by_a | by_b, by_a.select(point_a, point_b))
}

/// Box `from`'s point nearest the centre of box `to`, and whether it lies inside
/// `to` by more than `slack` on every axis.
#[inline(always)]
fn nearest_point_inside(
    (h, rotation, centre): PlacedBoxX8<'_>,
    (to_h, to_rotation, to_centre): PlacedBoxX8<'_>,
    slack: f32x8,
) -> (MaskX8, Vec3X8) {
    let local = rotation.transpose_mul_vec3(to_centre - centre);
    let point = rotation.mul_vec3(local.clamp(-h, h)) + centre;
    let depth = to_h - to_rotation.transpose_mul_vec3(point - to_centre).abs();
    let inside = depth.x.gt(slack) & depth.y.gt(slack) & depth.z.gt(slack);
    (inside & slack.finite(), point)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gjk_core::Pose;
    use gjk_core::glam::{Quat, Vec3};
    use gjk_core::query::bounds::{
        ball_overlap_point, ball_tests, box_ball_overlap_point, box_ball_tests,
    };
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::math::PoseX8;

    /// A seeded rotation (normalised by `Pose::new`), never the zero quaternion.
    fn random_rotation(rng: &mut ChaCha8Rng) -> Quat {
        Quat::from_xyzw(
            rng.random(),
            rng.random(),
            rng.random(),
            rng.random::<f32>() + 0.1,
        )
    }

    /// The wide verdicts equal the scalar ones lane by lane, and the inside points
    /// agree to rounding, on random pairs spread across both verdicts and the
    /// undecided band.
    #[test]
    fn wide_verdicts_match_scalar() {
        let seed = 0xB0_0D5;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut decided = [0usize; 2];
        for case in 0..4000 {
            let lanes: [(Vec3, f32, Pose, Vec3, f32, f32); 8] = std::array::from_fn(|_| {
                let h = Vec3::new(
                    rng.random_range(0.1..2.0),
                    rng.random_range(0.1..2.0),
                    rng.random_range(0.1..2.0),
                );
                let margin = if rng.random_bool(0.3) {
                    rng.random_range(0.0..0.5)
                } else {
                    0.0
                };
                let q = random_rotation(&mut rng);
                let t = Vec3::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                );
                let c = Vec3::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                );
                let outer = rng.random_range(0.2..2.0);
                let inner = outer * rng.random_range(0.0..1.0);
                (h, margin, Pose::new(q, t).unwrap(), c, outer, inner)
            });
            let h = Vec3X8::from_array(lanes.map(|l| l.0));
            let margin = f32x8::new(lanes.map(|l| l.1));
            let pose = PoseX8::from_array(lanes.map(|l| l.2));
            let centre = Vec3X8::from_array(lanes.map(|l| l.3));
            let outer = f32x8::new(lanes.map(|l| l.4));
            let inner = f32x8::new(lanes.map(|l| l.5));
            let boxed = box_ball_tests_x8(
                h,
                margin,
                &pose.rotation_matrix(),
                pose.translation,
                centre,
                outer,
                inner,
            );
            let balls = ball_tests_x8(pose.translation, centre, outer + outer, inner, inner);
            for (k, &(h, m, p, c, o, i)) in lanes.iter().enumerate() {
                let fail = |what: &str| {
                    format!(
                        "seed {seed:#x} case {case} lane {k}: {what} (h {h}, margin {m}, pose {p:?}, centre {c}, outer {o}, inner {i})"
                    )
                };
                // One lane of a wide verdict against the scalar one and its point.
                let compare = |wide: &BoundsVerdictX8,
                               (apart, over): (bool, bool),
                               point: Vec3,
                               what: &str| {
                    let lanes = (wide.apart.lane(k), wide.overlapping.lane(k));
                    assert_eq!(lanes, (apart, over), "{}", fail(what));
                    let off = (wide.inside.lane(k) - point).length();
                    assert!(
                        !over || off <= 1e-5 * (1.0 + point.length()),
                        "{}",
                        fail(what)
                    );
                    (apart, over)
                };
                let boxed_scalar = box_ball_tests(h, m, &p, c, o, i);
                let box_point = box_ball_overlap_point(h, m, &p, c, i);
                compare(&boxed, boxed_scalar, box_point, "box-ball");
                let ball_point = ball_overlap_point(p.translation(), c, i, i);
                let ball_scalar = ball_tests(p.translation(), c, o + o, i + i);
                let (apart, over) = compare(&balls, ball_scalar, ball_point, "balls");
                decided[0] += usize::from(apart);
                decided[1] += usize::from(over);
            }
        }
        // Both verdicts occur often enough for the comparison to mean something.
        assert!(decided[0] > 1000 && decided[1] > 1000, "{decided:?}");
    }

    /// The wide box-box certificate equals the scalar one lane by lane, and the
    /// points agree to rounding, on random box pairs spread across certified and
    /// uncertified.
    #[test]
    fn wide_box_box_matches_scalar() {
        use gjk_core::query::bounds::box_box_overlap;
        let seed = 0xB0_B0;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut certified = 0;
        for case in 0..4000 {
            let mut draw = || {
                let h = Vec3::new(
                    rng.random_range(0.05..2.0),
                    rng.random_range(0.05..2.0),
                    rng.random_range(0.05..2.0),
                );
                let q = random_rotation(&mut rng);
                let t = Vec3::new(
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                );
                (h, Pose::new(q, t).unwrap())
            };
            let lanes: [[(Vec3, Pose); 2]; 8] = std::array::from_fn(|_| [draw(), draw()]);
            let wide = |side: usize| {
                let h = Vec3X8::from_array(lanes.map(|l| l[side].0));
                let pose = PoseX8::from_array(lanes.map(|l| l[side].1));
                (h, pose.rotation_matrix(), pose.translation)
            };
            let (a, b) = (wide(0), wide(1));
            let (overlap, inside) = box_box_overlap_x8((a.0, &a.1, a.2), (b.0, &b.1, b.2));
            for (k, &[(ha, pa), (hb, pb)]) in lanes.iter().enumerate() {
                let (scalar, point) = box_box_overlap(ha, &pa, hb, &pb);
                let fail = format!(
                    "seed {seed:#x} case {case} lane {k}: A {ha} at {pa:?}, B {hb} at {pb:?}"
                );
                assert_eq!(overlap.lane(k), scalar, "{fail}");
                let off = (inside.lane(k) - point).length();
                assert!(!scalar || off <= 1e-5 * (1.0 + point.length()), "{fail}");
                certified += usize::from(scalar);
            }
        }
        assert!(
            certified > 3000 && certified < 29000,
            "{certified} of 32000"
        );
    }
}
