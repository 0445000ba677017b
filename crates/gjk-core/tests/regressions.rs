//! The failures users of other libraries report (issue numbers below, in parry,
//! Jolt, MuJoCo Warp and FCL), each pinned as a case.

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    ConvexHull, Cuboid, Pose, PoseError, Shape, ShapeError, Sphere, Status, SupportMap, contact,
    distance, intersects,
};

fn at(x: f32, y: f32, z: f32) -> Pose {
    Pose::from_translation(Vec3::new(x, y, z)).unwrap()
}

fn cube(h: f32) -> Cuboid {
    Cuboid::new(Vec3::splat(h)).unwrap()
}

/// Boxes sharing a face exactly: the origin lies on the boundary of `A - B`, and
/// on a face of whatever simplex GJK ends with (MuJoCo Warp #1526, parry #246).
#[test]
fn boxes_sharing_a_face_touch_in_all_three_queries() {
    for axis in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X] {
        let (a, b) = (cube(1.0), cube(1.0));
        let pb = Pose::from_translation(axis * 2.0).unwrap();
        assert!(intersects(&a, &Pose::IDENTITY, &b, &pb), "{axis}");
        let d = distance(&a, &Pose::IDENTITY, &b, &pb);
        assert_eq!(d.distance, 0.0, "{axis}: {d:?}");
        let c = contact(&a, &Pose::IDENTITY, &b, &pb, 0.0).expect("touching boxes have a contact");
        assert!(c.depth.abs() < 1e-5, "{axis}: {c:?}");
        assert!((c.normal - axis).length() < 1e-4, "{axis}: {c:?}");
    }
}

/// Overlap by exactly half: GJK's simplex passes through the origin on a face.
#[test]
fn origin_on_a_face_of_the_gjk_simplex_is_resolved_by_epa() {
    for offset in [1.0f32, 1.5, 0.5, 1e-4] {
        let c = contact(
            &cube(1.0),
            &Pose::IDENTITY,
            &cube(1.0),
            &at(offset, 0.0, 0.0),
            0.0,
        )
        .unwrap();
        assert!(
            (c.depth - (2.0 - offset)).abs() < 1e-5,
            "offset {offset}: {c:?}"
        );
        assert!(
            (c.normal - Vec3::X).length() < 1e-4,
            "offset {offset}: {c:?}"
        );
        assert_eq!(c.status, Status::Converged, "offset {offset}");
    }
}

/// Same pair at the origin and 1e4 away: results must not depend on where the pair
/// is (parry #166, #415; MuJoCo Warp #1546). All coordinates here are exact in f32.
#[test]
fn shapes_far_from_the_origin() {
    let rot = Quat::from_rotation_y(0.3) * Quat::from_rotation_x(0.2);
    for far in [
        Vec3::ZERO,
        Vec3::new(1e4, 0.0, 0.0),
        Vec3::new(-8192.0, 4096.0, 1e4),
    ] {
        let pa = Pose::new(rot, far).unwrap();
        let pb = Pose::new(rot, far + rot * Vec3::new(2.5, 0.0, 0.0)).unwrap();
        let d = distance(&cube(1.0), &pa, &cube(1.0), &pb);
        assert!((d.distance - 0.5).abs() < 1e-3, "at {far}: {d:?}");
        let pb = Pose::new(rot, far + rot * Vec3::new(1.75, 0.0, 0.0)).unwrap();
        let c = contact(&cube(1.0), &pa, &cube(1.0), &pb, 0.0).unwrap();
        assert!((c.depth - 0.25).abs() < 1e-3, "at {far}: {c:?}");
    }
}

/// Thin boxes, 1e-3 thick: EPA's polytope is nearly flat.
#[test]
fn thin_boxes() {
    let thin = Cuboid::new(Vec3::new(1.0, 0.5e-3, 1.0)).unwrap();
    let slab = cube(1.0);
    // The thin box lies inside the top of the big one, 0.1 below its top face.
    let c = contact(&slab, &Pose::IDENTITY, &thin, &at(0.0, 0.9, 0.0), 0.0).unwrap();
    assert!((c.depth - (0.1 + 0.5e-3)).abs() < 1e-5, "{c:?}");
    assert!((c.normal - Vec3::Y).length() < 1e-4, "{c:?}");
    // Two thin boxes crossing: pushed apart along their thickness.
    let turned = Pose::new(Quat::from_rotation_y(0.7), Vec3::new(0.0, 0.2e-3, 0.0)).unwrap();
    let c = contact(&thin, &Pose::IDENTITY, &thin, &turned, 0.0).unwrap();
    assert!((c.depth - 0.8e-3).abs() < 1e-5, "{c:?}");
    assert!((c.normal - Vec3::Y).length() < 1e-3, "{c:?}");
    let d = distance(&thin, &Pose::IDENTITY, &thin, &at(0.0, 0.5, 0.0));
    assert!((d.distance - (0.5 - 1e-3)).abs() < 1e-6, "{d:?}");
}

/// Coincident identical shapes: the deepest case, where `A - B` is symmetric about
/// the origin and every direction is a candidate.
#[test]
fn coincident_identical_shapes() {
    let c = contact(
        &cube(1.0),
        &Pose::IDENTITY,
        &cube(1.0),
        &Pose::IDENTITY,
        0.0,
    )
    .unwrap();
    assert!((c.depth - 2.0).abs() < 1e-5, "{c:?}");
    assert!((c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
    let ball = Sphere::new(0.5).unwrap();
    let c = contact(&ball, &Pose::IDENTITY, &ball, &Pose::IDENTITY, 0.0).unwrap();
    assert!((c.depth - 1.0).abs() < 1e-6, "{c:?}");
    assert!((c.normal.length() - 1.0).abs() < 1e-6, "{c:?}");
    let hull = ConvexHull::from_points(&[
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(-1.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
        Vec3::new(0.0, -2.0, 0.0),
        Vec3::new(0.0, 0.0, 3.0),
        Vec3::new(0.0, 0.0, -3.0),
    ])
    .unwrap();
    let c = contact(&hull, &Pose::IDENTITY, &hull, &Pose::IDENTITY, 0.0).unwrap();
    // An octahedron against itself: the smallest separation is twice the distance
    // from the centre to a face.
    let n = Vec3::new(1.0, 0.5, 1.0 / 3.0).normalize();
    assert!((c.depth - 2.0 * n.x).abs() < 1e-4, "{c:?}");
}

/// A ball wholly inside a box: GJK ends with a single point far inside.
#[test]
fn sphere_inside_a_box() {
    let c = contact(
        &cube(2.0),
        &Pose::IDENTITY,
        &Sphere::new(0.25).unwrap(),
        &at(0.0, 0.0, -1.5),
        0.0,
    )
    .unwrap();
    assert!((c.depth - 0.75).abs() < 1e-5, "{c:?}");
    assert!((c.normal + Vec3::Z).length() < 1e-4, "{c:?}");
}

/// A deep penetration must not report a depth larger than the shapes can give
/// (Jolt #2103: a rejected support point left in the simplex inflated the depth).
#[test]
fn deep_penetration_stays_bounded() {
    let big = cube(1.0);
    for k in 0..50 {
        let t = k as f32 / 50.0;
        let pose = Pose::new(
            Quat::from_rotation_z(t * 3.0) * Quat::from_rotation_x(t),
            Vec3::new(0.3 * t, -0.2 * t, 0.1),
        )
        .unwrap();
        let c = contact(&big, &Pose::IDENTITY, &big, &pose, 0.0).unwrap();
        assert!(
            c.depth > 0.0 && c.depth <= 2.0 * big.bounding_radius(),
            "k {k}: {c:?}"
        );
        assert!(c.depth <= 2.0 + 0.3, "k {k}: {c:?}");
    }
}

/// Bad input: errors with a message naming the field, never a panic.
#[test]
fn bad_input_is_rejected_with_clear_errors() {
    let e = Cuboid::new(Vec3::new(1.0, f32::NAN, 1.0)).unwrap_err();
    assert_eq!(
        e,
        ShapeError::NotFinite {
            shape: "Cuboid",
            field: "half_extents.y"
        }
    );
    assert!(e.to_string().contains("half_extents.y"));
    assert!(Sphere::new(0.0).is_ok(), "a ball of radius 0 is a point");
    assert!(matches!(
        Sphere::new(-1.0),
        Err(ShapeError::Negative {
            field: "radius",
            ..
        })
    ));
    assert!(matches!(
        Sphere::new(f32::INFINITY),
        Err(ShapeError::NotFinite { .. })
    ));
    assert!(matches!(
        gjk_core::Capsule::new(-0.1, 1.0),
        Err(ShapeError::Negative {
            field: "half_height",
            ..
        })
    ));
    assert!(
        gjk_core::Capsule::new(0.0, 1.0).is_ok(),
        "a zero-length capsule is a sphere"
    );
    assert!(
        gjk_core::Cylinder::new(1.0, 0.0).is_ok(),
        "a cylinder of radius 0 is a segment"
    );
    assert!(matches!(
        gjk_core::Cone::new(f32::NAN, 1.0),
        Err(ShapeError::NotFinite { .. })
    ));
    assert!(matches!(
        gjk_core::Rounded::new(cube(1.0), -0.5),
        Err(ShapeError::Negative { .. })
    ));
    assert_eq!(
        Pose::new(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ZERO),
        Err(PoseError::ZeroRotation)
    );
    assert!(Pose::from_translation(Vec3::new(0.0, f32::NEG_INFINITY, 0.0)).is_err());
}

/// Degenerate point sets make lower-dimensional hulls (see `degenerate.rs`);
/// non-finite points are refused, naming the point.
#[test]
fn degenerate_and_nan_hull_input() {
    let p = Vec3::new(0.3, -0.2, 0.7);
    assert_eq!(ConvexHull::from_points(&[p; 3]).unwrap().vertices(), [p]);
    let line: Vec<Vec3> = (0..10).map(|i| p + Vec3::X * i as f32).collect();
    assert_eq!(ConvexHull::from_points(&line).unwrap().vertices().len(), 2);
    let plane: Vec<Vec3> = (0..20)
        .map(|i| Vec3::new((i % 5) as f32, (i / 5) as f32, 2.0))
        .collect();
    assert_eq!(ConvexHull::from_points(&plane).unwrap().vertices().len(), 4);
    let mut bad = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    bad[2].y = f32::NAN;
    assert_eq!(
        ConvexHull::from_points(&bad),
        Err(ShapeError::NonFinitePoint { index: 2 })
    );
    bad[2] = Vec3::new(f32::INFINITY, 0.0, 0.0);
    assert_eq!(
        ConvexHull::from_points(&bad),
        Err(ShapeError::NonFinitePoint { index: 2 })
    );
    let e = ConvexHull::from_points(&bad).unwrap_err().to_string();
    assert!(e.contains("point 2"), "{e}");
}

/// Touching shapes get one answer from all three queries (FCL #495, parry #315):
/// a ball resting exactly on a box.
#[test]
fn kissing_shapes_are_consistently_touching() {
    let (b, s) = (cube(1.0), Sphere::new(0.5).unwrap());
    let pose = at(0.25, 1.5, -0.5);
    assert!(intersects(&b, &Pose::IDENTITY, &s, &pose));
    assert_eq!(distance(&b, &Pose::IDENTITY, &s, &pose).distance, 0.0);
    let c = contact(&b, &Pose::IDENTITY, &s, &pose, 0.0).unwrap();
    assert!(
        c.depth.abs() < 1e-5 && (c.normal - Vec3::Y).length() < 1e-4,
        "{c:?}"
    );
    let apart = at(0.25, 1.5 + 1e-3, -0.5);
    assert!(!intersects(&b, &Pose::IDENTITY, &s, &apart));
    assert!((distance(&b, &Pose::IDENTITY, &s, &apart).distance - 1e-3).abs() < 1e-6);
    assert!(contact(&b, &Pose::IDENTITY, &s, &apart, 0.0).is_none());
}

/// Mixed kinds through the `Shape` enum behave like the concrete types.
#[test]
fn shape_enum_dispatch_matches_concrete_types() {
    let a: Shape = cube(1.0).into();
    let b: Shape = Sphere::new(0.5).unwrap().into();
    let d1 = distance(&a, &Pose::IDENTITY, &b, &at(3.0, 0.0, 0.0));
    let d2 = distance(
        &cube(1.0),
        &Pose::IDENTITY,
        &Sphere::new(0.5).unwrap(),
        &at(3.0, 0.0, 0.0),
    );
    assert_eq!(d1, d2);
}
