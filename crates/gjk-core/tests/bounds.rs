//! The bounding balls of every shape, and the boolean verdicts they give.
//!
//! A ball of radius r about the origin lies inside a convex shape exactly when the
//! shape's support reaches at least r along every unit direction, and contains it
//! when the support never exceeds r: both radii are checked that way, along many
//! seeded directions, and the inner radius is checked to be tight for the shapes
//! whose nearest surface point is known. The verdicts are checked against GJK.

use gjk_core::glam::Vec3;
use gjk_core::query::bounds::{ball_overlap_point, ball_verdict};
use gjk_core::{Capsule, Cone, Cuboid, Cylinder, Rounded, Shape, Sphere, SupportMap, intersects};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use workloads::workload::{random_hull, random_unit};
use workloads::{PairKind, random_pairs};

/// The least and greatest support along `n` seeded directions.
fn support_range(shape: &Shape, seed: u64, n: usize) -> (f32, f32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let axes = [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z];
    let dirs = axes
        .into_iter()
        .chain((0..n).map(|_| random_unit(&mut rng)));
    dirs.map(|d| shape.support(d).dot(d))
        .fold((f32::MAX, f32::MIN), |(lo, hi), h| (lo.min(h), hi.max(h)))
}

fn shapes() -> Vec<(Shape, Option<f32>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let h = 0.8f32;
    let r = 0.3f32;
    vec![
        (Sphere::new(0.7).unwrap().into(), Some(0.7)),
        (
            Cuboid::new(Vec3::new(0.5, 2.0, 1.0)).unwrap().into(),
            Some(0.5),
        ),
        (Capsule::new(1.5, 0.4).unwrap().into(), Some(0.4)),
        (Cylinder::new(0.3, 1.0).unwrap().into(), Some(0.3)),
        (Cylinder::new(1.0, 0.6).unwrap().into(), Some(0.6)),
        // The side of the cone, in a plane through the axis: from (0, h) to (r, -h).
        (
            Cone::new(h, r).unwrap().into(),
            Some(h * r / (r * r + 4.0 * h * h).sqrt()),
        ),
        // A flat cone: the side is still nearer than the base.
        (
            Cone::new(0.2, 2.0).unwrap().into(),
            Some(0.4 / (4.0f32 + 0.16).sqrt()),
        ),
        (Shape::ConvexHull(random_hull(&mut rng, 32).into()), None),
        (Shape::ConvexHull(random_hull(&mut rng, 200).into()), None),
        (
            Shape::Rounded(
                Rounded::new(Shape::from(Cuboid::new(Vec3::ONE).unwrap()), 0.25)
                    .unwrap()
                    .into(),
            ),
            Some(1.25),
        ),
    ]
}

#[test]
fn inner_ball_is_inside_and_outer_ball_contains() {
    for (k, (shape, exact)) in shapes().iter().enumerate() {
        let (lo, hi) = support_range(shape, 100 + k as u64, 20_000);
        let (inner, outer) = (shape.inner_radius(), shape.bounding_radius());
        let tol = 1e-5 * outer;
        assert!(
            inner <= lo + tol,
            "shape {k} {shape:?}: inner {inner} > least support {lo}"
        );
        assert!(
            outer >= hi - tol,
            "shape {k} {shape:?}: outer {outer} < greatest support {hi}"
        );
        if let Some(exact) = exact {
            assert!(
                (inner - exact).abs() <= tol,
                "shape {k}: inner {inner}, expected {exact}"
            );
        } else {
            // Hulls: within their merging tolerance of the nearest face plane,
            // which the seeded directions approach to a few percent.
            assert!(
                inner > 0.0 && inner >= 0.9 * lo,
                "shape {k}: inner {inner}, least support {lo}"
            );
        }
    }
}

#[test]
fn hull_whose_origin_is_outside_has_no_inner_ball() {
    let pts: Vec<Vec3> = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]
        .iter()
        .map(|p| *p + Vec3::splat(5.0))
        .collect();
    let hull = gjk_core::ConvexHull::from_points(&pts).unwrap();
    assert_eq!(hull.inner_radius(), f32::NEG_INFINITY);
    // A ball around the hull's (outside) origin does not reach the hull: the
    // balls must not call that an overlap.
    let hull = Shape::ConvexHull(hull.into());
    let ball = Shape::from(Sphere::new(1.0).unwrap());
    let origin = gjk_core::Pose::IDENTITY;
    assert!(!intersects(&hull, &origin, &ball, &origin));
    assert_eq!(ball_verdict(&hull, &origin, &ball, &origin), None);
    let rounded = Shape::Rounded(Rounded::new(hull.clone(), 0.5).unwrap().into());
    assert_eq!(ball_verdict(&rounded, &origin, &ball, &origin), None);
}

/// Asserts that `q` lies inside both shapes, from their definitions
/// (`workloads::oracle`, f64, no GJK: an answer independent of the code under
/// test), to the rounding of `q`'s own coordinates.
fn assert_inside_both(
    (a, pose_a): (&Shape, &gjk_core::Pose),
    (b, pose_b): (&Shape, &gjk_core::Pose),
    q: Vec3,
    case: &str,
) {
    let outside =
        |s: &Shape, pose: &gjk_core::Pose| workloads::oracle::distance_to_shape(s, pose, q) as f32;
    let off = outside(a, pose_a).max(outside(b, pose_b));
    let tolerance = 1e-5 * (1.0 + q.abs().max_element());
    assert!(off <= tolerance, "{case}: point {q} off by {off}");
}

#[test]
fn ball_verdicts_agree_with_gjk() {
    for (k, kind) in PairKind::ALL.iter().enumerate() {
        let (mut decided, mut total) = (0, 0);
        for (side, offset) in [(1.5, 0.0), (3.0, 0.0), (6.0, 0.0), (3.0, 1e4)] {
            let seed = 4000 + 10 * k as u64;
            for (i, p) in random_pairs(*kind, 3000, seed, side, Vec3::splat(offset))
                .iter()
                .enumerate()
            {
                total += 1;
                if let Some(verdict) = ball_verdict(&p.a, &p.pose_a, &p.b, &p.pose_b) {
                    decided += 1;
                    let gjk = intersects(&p.a, &p.pose_a, &p.b, &p.pose_b);
                    let case = format!(
                        "kind {} seed {seed} side {side} offset {offset} index {i}: {p}",
                        kind.name()
                    );
                    assert_eq!(verdict, gjk, "{case}");
                    if verdict {
                        // The overlap's witness lies inside both shapes.
                        let q = ball_overlap_point(
                            p.pose_a.translation(),
                            p.pose_b.translation(),
                            p.a.inner_radius(),
                            p.b.inner_radius(),
                        );
                        assert_inside_both((&p.a, &p.pose_a), (&p.b, &p.pose_b), q, &case);
                    }
                }
            }
        }
        assert!(
            decided * 10 > total,
            "kind {}: balls decided {decided} of {total}",
            kind.name()
        );
    }
}

#[test]
fn ball_verdicts_refuse_what_they_cannot_tell() {
    use gjk_core::Pose;
    let ball = Shape::from(Sphere::new(1.0).unwrap());
    let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0)).unwrap();
    let origin = Pose::IDENTITY;
    // Exactly touching spheres: within the rounding slack of both balls.
    assert_eq!(ball_verdict(&ball, &origin, &ball, &at(2.0)), None);
    assert_eq!(ball_verdict(&ball, &origin, &ball, &at(1.99)), Some(true));
    assert_eq!(ball_verdict(&ball, &origin, &ball, &at(2.01)), Some(false));
    // Far from the origin the slack grows with the coordinates: 1 ulp at 1e6 is
    // 0.06, so a gap of 0.01 is not decided.
    let far = |x: f32| Pose::from_translation(Vec3::new(1e6 + x, 0.0, 0.0)).unwrap();
    assert_eq!(ball_verdict(&ball, &far(0.0), &ball, &far(2.01)), None);
    // Coordinates whose difference overflows.
    let huge = Pose::from_translation(Vec3::new(3e38, 0.0, 0.0)).unwrap();
    let minus = Pose::from_translation(Vec3::new(-3e38, 0.0, 0.0)).unwrap();
    assert_eq!(ball_verdict(&ball, &huge, &ball, &minus), None);
}

/// A (possibly rounded) box's half extents and total rounding.
fn as_box(shape: &Shape) -> Option<(Vec3, f32)> {
    match shape {
        Shape::Cuboid(c) => Some((c.half_extents(), 0.0)),
        Shape::Rounded(r) => as_box(r.inner()).map(|(h, m)| (h, m + r.radius())),
        _ => None,
    }
}

/// The box-ball verdicts match GJK wherever they decide, with the box on either
/// side, over seeded pairs of the kinds that hold boxes, near and far from the
/// origin; and they decide more than the two balls alone.
#[test]
fn box_ball_verdicts_agree_with_gjk() {
    use gjk_core::query::bounds::{box_ball_overlap_point, box_ball_tests};
    let kinds = [
        PairKind::CuboidCuboid,
        PairKind::CuboidHull,
        PairKind::RoundedRounded,
        PairKind::Mixed,
    ];
    for (k, kind) in kinds.iter().enumerate() {
        let (mut boxed, mut by_box, mut by_balls) = (0, 0, 0);
        for (side, offset) in [(1.5, 0.0), (3.0, 0.0), (6.0, 0.0), (3.0, 1e4)] {
            let seed = 7000 + 10 * k as u64;
            for (i, p) in random_pairs(*kind, 3000, seed, side, Vec3::splat(offset))
                .iter()
                .enumerate()
            {
                let gjk = intersects(&p.a, &p.pose_a, &p.b, &p.pose_b);
                let sides = [
                    (&p.a, &p.pose_a, &p.b, &p.pose_b),
                    (&p.b, &p.pose_b, &p.a, &p.pose_a),
                ];
                for (bx, box_pose, other, other_pose) in sides {
                    let Some((h, m)) = as_box(bx) else { continue };
                    boxed += 1;
                    let (apart, overlap) = box_ball_tests(
                        h,
                        m,
                        box_pose,
                        other_pose.translation(),
                        other.bounding_radius(),
                        other.inner_radius(),
                    );
                    assert!(!(apart && overlap));
                    if apart || overlap {
                        by_box += 1;
                        let case = format!(
                            "kind {} seed {seed} side {side} offset {offset} index {i}: {p}",
                            kind.name()
                        );
                        assert_eq!(overlap, gjk, "{case}");
                        if overlap {
                            let q = box_ball_overlap_point(
                                h,
                                m,
                                box_pose,
                                other_pose.translation(),
                                other.inner_radius(),
                            );
                            assert_inside_both((bx, box_pose), (other, other_pose), q, &case);
                        }
                    }
                    by_balls +=
                        usize::from(ball_verdict(bx, box_pose, other, other_pose).is_some());
                }
            }
        }
        assert!(
            boxed > 0 && by_box > by_balls,
            "kind {}: {by_box} by the box, {by_balls} by balls, of {boxed}",
            kind.name()
        );
    }
}

/// The box-box certificate claims only overlaps GJK confirms, with a point
/// inside both boxes, over seeded box pairs (rounded ones through their cores)
/// near and far from the origin; it certifies more than the box-ball tests both
/// ways round, and every overlap they certify.
#[test]
fn box_box_certificates_agree_with_gjk() {
    use gjk_core::query::bounds::{box_ball_tests, box_box_overlap};
    let (mut total, mut overlapping, mut certified, mut by_balls) = (0, 0, 0, 0);
    for (k, kind) in [PairKind::CuboidCuboid, PairKind::Mixed].iter().enumerate() {
        for (side, offset) in [(1.5, 0.0), (3.0, 0.0), (6.0, 0.0), (3.0, 1e4)] {
            let seed = 9000 + 10 * k as u64;
            for (i, p) in random_pairs(*kind, 3000, seed, side, Vec3::splat(offset))
                .iter()
                .enumerate()
            {
                let (Some((ha, _)), Some((hb, _))) = (as_box(&p.a), as_box(&p.b)) else {
                    continue;
                };
                let case = format!(
                    "kind {} seed {seed} side {side} offset {offset} index {i}: {p}",
                    kind.name()
                );
                total += 1;
                let gjk = intersects(&p.a, &p.pose_a, &p.b, &p.pose_b);
                overlapping += usize::from(gjk);
                let (overlap, q) = box_box_overlap(ha, &p.pose_a, hb, &p.pose_b);
                let (ta, tb) = (p.pose_a.translation(), p.pose_b.translation());
                let inner = |s: &Shape| s.inner_radius();
                let balls = box_ball_tests(ha, 0.0, &p.pose_a, tb, 0.0, inner(&p.b)).1
                    || box_ball_tests(hb, 0.0, &p.pose_b, ta, 0.0, inner(&p.a)).1;
                if overlap {
                    certified += 1;
                    assert!(gjk, "{case}: certified, but GJK finds the boxes apart");
                    assert_inside_both((&p.a, &p.pose_a), (&p.b, &p.pose_b), q, &case);
                }
                // Only the cores count here: the balls of rounded boxes are
                // bigger by their rounding.
                if balls && as_box(&p.a) == Some((ha, 0.0)) && as_box(&p.b) == Some((hb, 0.0)) {
                    by_balls += 1;
                    assert!(overlap, "{case}: the box-ball tests certify, this does not");
                }
            }
        }
    }
    println!(
        "{total} box pairs, {overlapping} overlapping, {certified} certified, {by_balls} by box-ball"
    );
    assert!(
        certified > by_balls && certified * 10 > overlapping * 7,
        "{certified} certified of {overlapping} overlapping, {by_balls} by box-ball"
    );
}

/// Boxes near touching, touching, and far from the origin are left to GJK.
#[test]
fn box_box_certificates_refuse_what_they_cannot_tell() {
    use gjk_core::Pose;
    use gjk_core::query::bounds::box_box_overlap;
    let h = Vec3::splat(1.0);
    let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0)).unwrap();
    // Face to face: A's nearest point to B's centre is on B's face.
    assert!(!box_box_overlap(h, &at(0.0), h, &at(2.0)).0);
    assert!(box_box_overlap(h, &at(0.0), h, &at(1.99)).0);
    assert!(!box_box_overlap(h, &at(0.0), h, &at(2.01)).0);
    // 1 ulp at 1e6 is 0.06: a 0.01 overlap there is within the slack.
    assert!(!box_box_overlap(h, &at(1e6), h, &at(1e6 + 1.99)).0);
    let huge = Pose::from_translation(Vec3::new(3e38, 0.0, 0.0)).unwrap();
    assert!(!box_box_overlap(h, &huge, h, &at(-3e38)).0);
}
