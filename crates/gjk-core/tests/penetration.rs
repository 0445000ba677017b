//! Penetration depth (`contact` on overlapping cores: EPA) on the hard cases:
//! identical shapes at one pose, concentric and coaxial shapes, elongated shapes.
//! Answers are closed forms where the geometry has one, else the direction search
//! of `workloads::oracle` (the least support of `A - B` over directions, in f64,
//! without GJK or EPA).

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, Sphere, Status, SupportMap,
    contact, distance,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use workloads::oracle::penetration_by_directions;
use workloads::workload::{
    BallInCylinder, ball_in_cylinder_near_a_rim, random_hull, random_rotation,
};

/// Checks a contact of overlapping shapes against the expected depth: converged,
/// within `rel` of it, a unit normal, the witness contract, and B moved by
/// `depth + gap` along the normal standing `gap` off A.
fn check_contact(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, expected: f64, rel: f64, msg: &str) {
    let c = contact(a, pa, b, pb, 0.0).unwrap_or_else(|| panic!("{msg}: no contact"));
    let scale = (a.bounding_radius() + b.bounding_radius()) as f64;
    assert_eq!(c.status, Status::Converged, "{msg}: {c:?}");
    assert!(
        (c.depth as f64 - expected).abs() <= rel * expected + 1e-6 * scale,
        "{msg}: depth {} expected {expected} ({c:?})",
        c.depth
    );
    assert!((c.normal.length() - 1.0).abs() < 1e-5, "{msg}: {c:?}");
    // The witnesses are world points: each carries the rounding of its place.
    let contract = c.point_a - c.point_b - c.normal * c.depth;
    let place = 4.0 * f32::EPSILON * c.point_a.abs().max_element();
    assert!(
        contract.length() <= 1e-4 * scale as f32 + place,
        "{msg}: {c:?}"
    );
    let gap = 1e-3 * scale as f32;
    let moved = Pose::new(pb.rotation(), pb.translation() + c.normal * (c.depth + gap)).unwrap();
    let d = distance(a, pa, b, &moved);
    assert!(
        (d.distance - gap).abs() <= 2e-4 * scale as f32,
        "{msg}: moved by depth + {gap} along the normal, {d:?}"
    );
}

fn random_pose(rng: &mut ChaCha8Rng, reach: f32) -> Pose {
    let t = Vec3::new(
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
    );
    Pose::new(random_rotation(rng), t).unwrap()
}

/// The least width of a shape of each kind (closed forms), and the shape.
fn shape_and_width(rng: &mut ChaCha8Rng, kind: usize) -> (Shape, f64) {
    let mut size = || rng.random_range(0.05f32..3.0);
    match kind {
        0 => {
            let r = size();
            (Sphere::new(r).unwrap().into(), 2.0 * r as f64)
        }
        1 => {
            let h = Vec3::new(size(), size(), size());
            (Cuboid::new(h).unwrap().into(), 2.0 * h.min_element() as f64)
        }
        2 => {
            let (h, r) = (size(), size());
            (Capsule::new(h, r).unwrap().into(), 2.0 * r as f64)
        }
        3 => {
            let (h, r) = (size(), size());
            (Cylinder::new(h, r).unwrap().into(), 2.0 * h.min(r) as f64)
        }
        4 => {
            // The cone's axial section is a triangle of base 2r and height 2h, and
            // the cone's width along a direction in that plane is the triangle's:
            // the least is the least altitude, twice its area over its longest side.
            let (h, r) = (size(), size());
            let (h64, r64) = (h as f64, r as f64);
            let longest = (2.0 * r64).max((r64 * r64 + 4.0 * h64 * h64).sqrt());
            (Cone::new(h, r).unwrap().into(), 4.0 * r64 * h64 / longest)
        }
        _ => {
            let (inner, width) = shape_and_width(rng, 1 + kind % 4);
            let radius = rng.random_range(0.01f32..0.5);
            (
                Rounded::new(inner, radius).unwrap().into(),
                width + 2.0 * radius as f64,
            )
        }
    }
}

/// Identical shapes at one pose: `A - B` is `A - A`, symmetric about the origin,
/// and the depth is the shape's least width. For cylinders and cones the least
/// width is reached on a whole circle of directions.
#[test]
fn identical_shapes_at_one_pose_are_as_deep_as_their_least_width() {
    let seed = 0x1de7;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..1200 {
        let kind = case % 9;
        let (shape, width) = shape_and_width(&mut rng, kind);
        let pose = random_pose(&mut rng, 1e3);
        let msg = format!("seed {seed:#x} case {case}: {shape:?} at {pose:?}");
        check_contact(&shape, &pose, &shape, &pose, width, 1e-5, &msg);
    }
}

/// Coaxial, concentric cylinders (B turned about the common axis only): the
/// difference is a cylinder of half height `h1 + h2` and radius `r1 + r2`.
#[test]
fn concentric_coaxial_cylinders_are_as_deep_as_the_nearer_side() {
    let seed = 0xc0a;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..600 {
        let mut size = || rng.random_range(0.05f32..3.0);
        let (h1, r1, h2, r2) = (size(), size(), size(), size());
        let (a, b) = (
            Cylinder::new(h1, r1).unwrap(),
            Cylinder::new(h2, r2).unwrap(),
        );
        let pa = random_pose(&mut rng, 1e3);
        let spin = Quat::from_rotation_y(rng.random_range(0.0..6.3));
        let pb = Pose::new(pa.rotation() * spin, pa.translation()).unwrap();
        let expected = ((h1 + h2) as f64).min((r1 + r2) as f64);
        let msg = format!("seed {seed:#x} case {case}: {a:?} and {b:?} at {pa:?}");
        check_contact(&a.into(), &pa, &b.into(), &pb, expected, 1e-5, &msg);
    }
}

/// A ball whose centre lies on a cylinder's axis, inside it: the nearer of the
/// side and the cap, plus the radius.
#[test]
fn ball_on_the_axis_of_a_cylinder() {
    let seed = 0xba11;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..600 {
        let (h, r) = (rng.random_range(0.1f32..3.0), rng.random_range(0.1f32..3.0));
        let s = rng.random_range(0.05f32..1.0);
        let y = rng.random_range(-h..h);
        let cylinder = Cylinder::new(h, r).unwrap();
        let pa = random_pose(&mut rng, 1e2);
        let pb = Pose::new(random_rotation(&mut rng), pa.transform_point(Vec3::Y * y)).unwrap();
        let expected = s as f64 + (r as f64).min(h as f64 - (y as f64).abs());
        let msg = format!("seed {seed:#x} case {case}: {cylinder:?}, ball {s} at {y}");
        let ball: Shape = Sphere::new(s).unwrap().into();
        check_contact(&cylinder.into(), &pa, &ball, &pb, expected, 1e-5, &msg);
    }
}

/// Coaxial shapes of revolution of every kind, and concentric shapes turned
/// against each other, against the direction search.
#[test]
fn concentric_and_coaxial_shapes_match_the_direction_search() {
    let seed = 0xc0c0;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..300 {
        let (a, _) = shape_and_width(&mut rng, 2 + case % 3);
        let (b, _) = shape_and_width(&mut rng, 2 + (case / 3) % 3);
        let pa = random_pose(&mut rng, 1e2);
        let turned = case % 2 == 1;
        let rotation = if turned {
            random_rotation(&mut rng)
        } else {
            pa.rotation() * Quat::from_rotation_y(rng.random_range(0.0..6.3))
        };
        let along = if turned {
            0.0
        } else {
            rng.random_range(-0.5f32..0.5)
        };
        let pb = Pose::new(rotation, pa.transform_point(Vec3::Y * along)).unwrap();
        let (expected, _) = penetration_by_directions(&a, &pa, &b, &pb, 20_000);
        let msg = format!("seed {seed:#x} case {case}: {a:?} at {pa:?}, {b:?} at {pb:?}");
        check_contact(&a, &pa, &b, &pb, expected, 1e-5, &msg);
    }
}

/// Overlapping pairs of every kind in general position, against the direction
/// search: EPA converges within its tolerance.
#[test]
fn overlapping_pairs_match_the_direction_search() {
    let seed = 0xe9a;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checked = 0;
    for case in 0..600 {
        let (a, _) = shape_and_width(&mut rng, case % 9);
        let (b, _) = shape_and_width(&mut rng, (case / 9) % 9);
        let pa = random_pose(&mut rng, 1e2);
        let reach = 0.5 * (a.bounding_radius() + b.bounding_radius());
        let offset = workloads::workload::random_unit(&mut rng) * rng.random_range(0.0..reach);
        let pb = Pose::new(random_rotation(&mut rng), pa.translation() + offset).unwrap();
        let (expected, _) = penetration_by_directions(&a, &pa, &b, &pb, 20_000);
        if expected <= 1e-3 {
            continue;
        }
        let msg = format!("seed {seed:#x} case {case}: {a:?} at {pa:?}, {b:?} at {pb:?}");
        check_contact(&a, &pa, &b, &pb, expected, 1e-5, &msg);
        checked += 1;
    }
    assert!(checked > 300, "only {checked} overlapping pairs");
}

/// Hulls against themselves at one pose: the depth is the least width, which
/// the direction search finds among the face normals.
#[test]
fn identical_hulls_at_one_pose() {
    let seed = 0x4a11;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..100 {
        let hull: Shape = random_hull(&mut rng, 4 + case % 40).into();
        let pose = random_pose(&mut rng, 1e3);
        let (expected, _) = penetration_by_directions(&hull, &pose, &hull, &pose, 20_000);
        let msg = format!("seed {seed:#x} case {case}: {hull:?} at {pose:?}");
        check_contact(&hull, &pose, &hull, &pose, expected, 1e-5, &msg);
    }
}

/// Elongated shapes (aspect ratios up to 1e6) overlapping small ones: EPA on
/// polytopes millions of times longer than wide must neither panic nor leave
/// its answer unfinished.
#[test]
fn elongated_shapes_overlapping_small_ones() {
    let seed = 0x10e6;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for case in 0..400 {
        let length = 10f32.powf(rng.random_range(3.0..6.5));
        let long = Cuboid::new(Vec3::new(length, rng.random_range(0.2..2.0), 0.7)).unwrap();
        let (small, _) = shape_and_width(&mut rng, 1 + case % 8);
        let pa = random_pose(&mut rng, 1e3);
        let along = rng.random_range(-1.0f32..1.0) * length;
        let pb = Pose::new(
            random_rotation(&mut rng),
            pa.transform_point(Vec3::new(along, rng.random_range(-0.5..0.5), 0.1)),
        )
        .unwrap();
        let long: Shape = long.into();
        let msg = format!("seed {seed:#x} case {case}: {long:?} at {pa:?}, {small:?} at {pb:?}");
        let c = contact(&long, &pa, &small, &pb, 0.0);
        let c = c.unwrap_or_else(|| panic!("{msg}: no contact"));
        assert!(c.depth.is_finite() && c.normal.is_finite(), "{msg}: {c:?}");
        assert!((c.normal.length() - 1.0).abs() < 1e-4, "{msg}: {c:?}");
        assert_ne!(c.status, Status::IterationLimit, "{msg}: {c:?}");
    }
}

/// The octahedron of the regressions, turned: EPA on a hull whose faces all
/// tie in pairs.
#[test]
fn hull_with_tied_faces() {
    let hull = ConvexHull::from_points(&[
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(0.0, 0.0, -1.0),
    ])
    .unwrap();
    let shape: Shape = hull.into();
    let pose = Pose::new(Quat::from_rotation_x(0.4), Vec3::new(3.0, -2.0, 1.0)).unwrap();
    // Twice the distance from the centre to a face of the regular octahedron.
    let expected = 2.0 / 3f64.sqrt();
    check_contact(&shape, &pose, &shape, &pose, expected, 1e-5, "octahedron");
}

/// A ball whose centre lies inside a cylinder, in any orientation of either
/// shape, both orders: the depth is the ball's radius plus the centre's distance
/// to the nearest of the side and the caps. Near the axis the axial EPA's probes
/// along the section's axes can land on two opposite corners of the rectangle
/// the cylinder's section is (the support along a face normal is any point of
/// the face); it took that for a flat section and answered the ball's radius
/// alone (the `widephase diff` campaign's case 28446: 1.856 for 2.446).
#[test]
fn ball_centre_inside_a_cylinder() {
    // The campaign's case, as it shrank.
    let ball: Shape = Sphere::new(1.855746).unwrap().into();
    let pb = Pose::new(
        Quat::from_xyzw(-0.4484304, -0.45695484, 0.61893207, 0.4550007).normalize(),
        Vec3::ZERO,
    )
    .unwrap();
    let cylinder: Shape = Cylinder::new(1.2742245, 0.6176451).unwrap().into();
    let pc = Pose::new(
        Quat::from_xyzw(0.3805296, -0.048961286, 0.17670228, -0.9064085).normalize(),
        Vec3::new(0.07495117, 0.10601807, -0.13842773),
    )
    .unwrap();
    let local = pc.rotation().conjugate() * (pb.translation() - pc.translation());
    let rho = f64::from(local.x.hypot(local.z));
    let expected = 1.855746 + (0.6176451 - rho).min(1.2742245 - f64::from(local.y.abs()));
    check_contact(&ball, &pb, &cylinder, &pc, expected, 1e-4, "case 28446");
    check_contact(
        &cylinder,
        &pc,
        &ball,
        &pb,
        expected,
        1e-4,
        "case 28446, swapped",
    );

    let seed = 0x0ba1_1c71;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..2000 {
        let (h, r) = (rng.random_range(0.3f32..1.5), rng.random_range(0.3f32..1.5));
        let cylinder: Shape = Cylinder::new(h, r).unwrap().into();
        let ball_radius = rng.random_range(0.1f32..2.0);
        let ball: Shape = Sphere::new(ball_radius).unwrap().into();
        // Half of the centres within 5% of the radius from the axis.
        let rho = r * rng.random_range(0.0f32..1.0) * if i % 2 == 0 { 0.05 } else { 0.9 };
        let angle = rng.random_range(0.0f32..std::f32::consts::TAU);
        let y = h * rng.random_range(-0.9f32..0.9);
        let local = Vec3::new(rho * angle.cos(), y, rho * angle.sin());
        let pc = Pose::new(random_rotation(&mut rng), Vec3::ZERO).unwrap();
        let pb = Pose::new(random_rotation(&mut rng), pc.transform_point(local)).unwrap();
        let expected = f64::from(ball_radius) + f64::from((r - rho).min(h - y.abs()));
        let msg = format!(
            "seed {seed:#x} case {i}: ball {ball_radius} at {local} in cylinder ({h}, {r})"
        );
        check_contact(&ball, &pb, &cylinder, &pc, expected, 1e-4, &msg);
        check_contact(&cylinder, &pc, &ball, &pb, expected, 1e-4, &msg);
    }
}

/// A ball whose centre lies inside a cylinder about as far from the side as from
/// a cap (the two depths tie within a ten-thousandth), in any orientation:
/// probes along the section's diagonals find rim points a rounding off the
/// section's plane, whose projections fall a hair inside the rectangle; the edge
/// between such a point and a corner a few millionths away has a normal that is
/// rounding noise, and it could come nearest, tilted towards the far corner. The
/// axial EPA then grew the polygon across itself and spun to its cap, answering
/// with the wrong side (the `widephase diff` campaign's seed 37, case 475855:
/// 1.59097 along the axis for 1.59111 across it, on gjk-simd's lanes).
#[test]
fn ball_centre_inside_a_cylinder_as_near_the_side_as_a_cap() {
    let seed = 0x71e5;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..4000 {
        let BallInCylinder { pair: p, depth } = ball_in_cylinder_near_a_rim(&mut rng);
        let msg = format!("seed {seed:#x} case {i}: {p:?}");
        check_contact(&p.a, &p.pose_a, &p.b, &p.pose_b, depth, 1e-4, &msg);
        check_contact(&p.b, &p.pose_b, &p.a, &p.pose_a, depth, 1e-4, &msg);
    }
}
