//! Queries against closed-form answers.

use gjk_core::glam::{DVec3, Quat, Vec3};
use gjk_core::{
    Capsule, Cone, Cuboid, Cylinder, Pose, Rounded, Sphere, Status, contact, distance, intersects,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use workloads::workload::{random_rotation, random_unit};

fn at(x: f32, y: f32, z: f32) -> Pose {
    Pose::from_translation(Vec3::new(x, y, z)).unwrap()
}

#[test]
fn sphere_sphere_matches_centre_distance() {
    let seed = 11;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..2000 {
        let (ra, rb) = (rng.random_range(0.1..2.0), rng.random_range(0.1..2.0));
        let (a, b) = (Sphere::new(ra).unwrap(), Sphere::new(rb).unwrap());
        let ca = Vec3::new(
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
        );
        let cb = ca + random_unit(&mut rng) * rng.random_range(0.01..6.0);
        let (pa, pb) = (
            Pose::new(random_rotation(&mut rng), ca).unwrap(),
            Pose::new(random_rotation(&mut rng), cb).unwrap(),
        );
        let gap = ca.distance(cb) - ra - rb;
        let n = (cb - ca).normalize();
        let msg = format!("seed {seed} case {case}: ra {ra} rb {rb} ca {ca} cb {cb}");
        let d = distance(&a, &pa, &b, &pb);
        assert!((d.distance - gap.max(0.0)).abs() < 1e-5, "{msg}: {d:?}");
        assert_eq!(intersects(&a, &pa, &b, &pb), gap <= 0.0, "{msg}");
        if gap > 1e-5 {
            assert!((d.point_a - (ca + n * ra)).length() < 1e-5, "{msg}: {d:?}");
            assert!((d.point_b - (cb - n * rb)).length() < 1e-5, "{msg}: {d:?}");
            assert!((d.normal - n).length() < 1e-5, "{msg}: {d:?}");
        } else {
            let c = contact(&a, &pa, &b, &pb, 0.0).expect("overlapping spheres touch");
            assert!((c.depth + gap).abs() < 1e-5, "{msg}: {c:?}");
            assert!((c.normal - n).length() < 1e-4, "{msg}: {c:?}");
            assert!((c.point_a - (ca + n * ra)).length() < 1e-4, "{msg}: {c:?}");
        }
    }
}

#[test]
fn axis_aligned_boxes_match_interval_gaps() {
    let seed = 12;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..2000 {
        let ha = Vec3::new(
            rng.random_range(0.1..2.0),
            rng.random_range(0.1..2.0),
            rng.random_range(0.1..2.0),
        );
        let hb = Vec3::new(
            rng.random_range(0.1..2.0),
            rng.random_range(0.1..2.0),
            rng.random_range(0.1..2.0),
        );
        let offset = Vec3::new(
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
        );
        let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
        let (pa, pb) = (Pose::IDENTITY, Pose::from_translation(offset).unwrap());
        // Per-axis interval gaps: the distance is the length of the positive part;
        // the penetration is the smallest overlap when all three overlap.
        let gaps = offset.abs() - ha - hb;
        let expected = gaps.max(Vec3::ZERO).length();
        let msg = format!("seed {seed} case {case}: ha {ha} hb {hb} offset {offset}");
        let d = distance(&a, &pa, &b, &pb);
        assert!((d.distance - expected).abs() < 1e-5, "{msg}: {d:?}");
        if gaps.max_element() < -1e-4 {
            let c = contact(&a, &pa, &b, &pb, 0.0).unwrap();
            let depth = -gaps.max_element();
            assert!((c.depth - depth).abs() < 1e-5, "{msg}: {c:?}");
            let axis = gaps.max_position();
            let mut n = Vec3::ZERO;
            n[axis] = offset[axis].signum();
            // Ties between axes make either normal minimal.
            let tie = (0..3)
                .filter(|&i| (gaps[i] - gaps.max_element()).abs() < 1e-5)
                .count()
                > 1;
            assert!(tie || (c.normal - n).length() < 1e-4, "{msg}: {c:?}");
        }
    }
}

/// Closest distance between segments `p0p1` and `q0q1` in f64 (Ericson 5.1.9).
fn segment_distance(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t) = if a <= 1e-18 && e <= 1e-18 {
        (0.0, 0.0)
    } else if a <= 1e-18 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= 1e-18 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    (p0 + d1 * s).distance(q0 + d2 * t)
}

#[test]
fn capsule_capsule_matches_segment_distance() {
    let seed = 13;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..2000 {
        let a = Capsule::new(rng.random_range(0.0..1.5), rng.random_range(0.1..0.8)).unwrap();
        let b = Capsule::new(rng.random_range(0.0..1.5), rng.random_range(0.1..0.8)).unwrap();
        let pa = Pose::new(random_rotation(&mut rng), Vec3::ZERO).unwrap();
        let pb = Pose::new(
            random_rotation(&mut rng),
            random_unit(&mut rng) * rng.random_range(0.0..4.0),
        )
        .unwrap();
        let ends = |c: &Capsule, p: &Pose| {
            let h = Vec3::new(0.0, c.half_height(), 0.0);
            (
                p.transform_point(-h).as_dvec3(),
                p.transform_point(h).as_dvec3(),
            )
        };
        let ((a0, a1), (b0, b1)) = (ends(&a, &pa), ends(&b, &pb));
        let gap = segment_distance(a0, a1, b0, b1) - a.radius() as f64 - b.radius() as f64;
        let d = distance(&a, &pa, &b, &pb);
        let msg = format!("seed {seed} case {case}: {a:?} at {pa:?}, {b:?} at {pb:?}");
        assert!(
            (d.distance as f64 - gap.max(0.0)).abs() < 2e-5,
            "{msg}: expected {gap}, got {d:?}"
        );
        if gap < -1e-3 {
            // When the core segments are apart, the penetration is the radii minus
            // their distance, along the segment-segment direction.
            let c = contact(&a, &pa, &b, &pb, 0.0).unwrap();
            if gap + (a.radius() + b.radius()) as f64 > 1e-3 {
                assert!(
                    (c.depth as f64 + gap).abs() < 1e-4,
                    "{msg}: expected depth {}, got {c:?}",
                    -gap
                );
            }
        }
    }
}

#[test]
fn rotated_boxes_with_known_separation() {
    // A unit cube turned 45 degrees about Z reaches sqrt(2) along X.
    let a = Cuboid::new(Vec3::ONE).unwrap();
    let b = Cuboid::new(Vec3::splat(0.5)).unwrap();
    let turned = Pose::new(
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        Vec3::ZERO,
    )
    .unwrap();
    for x in [2.0f32, 2.5, 3.0, 10.0] {
        let d = distance(&a, &turned, &b, &at(x, 0.0, 0.0));
        let expected = x - 2f32.sqrt() - 0.5;
        assert!((d.distance - expected).abs() < 1e-5, "x {x}: {d:?}");
        assert!(
            (d.point_a - Vec3::new(2f32.sqrt(), 0.0, d.point_a.z)).length() < 1e-4,
            "x {x}: {d:?}"
        );
        assert!((d.normal - Vec3::X).length() < 1e-4, "x {x}: {d:?}");
    }
    // Penetrating: the corner is 0.2 into the small box.
    let c = contact(&a, &turned, &b, &at(2f32.sqrt() + 0.3, 0.0, 0.0), 0.0).unwrap();
    assert!((c.depth - 0.2).abs() < 1e-5, "{c:?}");
}

#[test]
fn point_inside_cases() {
    // A small ball inside a box: pushed out through the nearest face.
    let cube = Cuboid::new(Vec3::new(2.0, 1.0, 3.0)).unwrap();
    let ball = Sphere::new(0.1).unwrap();
    let c = contact(&cube, &Pose::IDENTITY, &ball, &at(0.5, 0.7, -1.0), 0.0).unwrap();
    assert!((c.depth - (0.3 + 0.1)).abs() < 1e-5, "{c:?}");
    assert!((c.normal - Vec3::Y).length() < 1e-5, "{c:?}");
    assert!(intersects(
        &cube,
        &Pose::IDENTITY,
        &ball,
        &at(0.5, 0.7, -1.0)
    ));
    assert_eq!(
        distance(&cube, &Pose::IDENTITY, &ball, &at(0.5, 0.7, -1.0)).distance,
        0.0
    );

    // A ball above a cylinder's cap, beside its side, and inside it.
    let cyl = Cylinder::new(1.0, 0.5).unwrap();
    let d = distance(&cyl, &Pose::IDENTITY, &ball, &at(0.2, 2.0, 0.1));
    assert!((d.distance - 0.9).abs() < 1e-5, "{d:?}");
    let d = distance(&cyl, &Pose::IDENTITY, &ball, &at(0.0, 0.3, 2.0));
    assert!((d.distance - 1.4).abs() < 1e-5, "{d:?}");
    let c = contact(&cyl, &Pose::IDENTITY, &ball, &at(0.0, 0.9, 0.0), 0.0).unwrap();
    assert!(
        (c.depth - 0.2).abs() < 1e-4 && (c.normal - Vec3::Y).length() < 1e-3,
        "{c:?}"
    );

    // A ball below a cone's base and beside its apex.
    let cone = Cone::new(1.0, 1.0).unwrap();
    let d = distance(&cone, &Pose::IDENTITY, &ball, &at(0.0, -2.0, 0.0));
    assert!((d.distance - 0.9).abs() < 1e-5, "{d:?}");
    let d = distance(&cone, &Pose::IDENTITY, &ball, &at(0.0, 3.0, 0.0));
    assert!((d.distance - 1.9).abs() < 1e-5, "{d:?}");

    // A rounded box is the box grown by the radius in every direction.
    let rounded = Rounded::new(Cuboid::new(Vec3::ONE).unwrap(), 0.25).unwrap();
    let d = distance(&rounded, &Pose::IDENTITY, &ball, &at(3.0, 0.0, 0.0));
    assert!((d.distance - (3.0 - 1.25 - 0.1)).abs() < 1e-5, "{d:?}");
    let d = distance(&rounded, &Pose::IDENTITY, &ball, &at(3.0, 3.0, 0.0));
    let expected = (2.0f32 * 2.0 * 2.0).sqrt() - 0.25 - 0.1;
    assert!((d.distance - expected).abs() < 1e-5, "{d:?}");
}

#[test]
fn statuses_are_converged_on_easy_pairs() {
    let a = Cuboid::new(Vec3::ONE).unwrap();
    let d = distance(&a, &Pose::IDENTITY, &a, &at(5.0, 0.0, 0.0));
    assert_eq!(d.status, Status::Converged);
    assert!(d.iterations <= 8, "{d:?}");
    let c = contact(&a, &Pose::IDENTITY, &a, &at(1.5, 0.0, 0.0), 0.0).unwrap();
    assert_eq!(c.status, Status::Converged);
    assert!((c.depth - 0.5).abs() < 1e-5);
}
