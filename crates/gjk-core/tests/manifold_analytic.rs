//! Contact manifolds against answers geometry gives in closed form: a box resting
//! on a larger box (the corners of the overlap), a box turned 45 degrees on a box
//! (an octagon, reduced to its largest inscribed square), a capsule lying on a box
//! (the two ends of its core), a cylinder standing (an inscribed square of its
//! rim) and lying (its two cap edges) on a box, a hull on a hull face to face (the
//! corners of the smaller face), a sphere on every kind (one point), and the
//! speculative points of a gap within the prediction distance. Every point is also
//! checked to lie on both surfaces (closed-form point-to-shape distances,
//! `workloads::oracle`) with `point_a - point_b = depth * normal`.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};
use std::sync::Arc;

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    Capsule, Cone, ContactId, ConvexHull, Cuboid, Cylinder, FeatureId, FeatureKind, Manifold, Pose,
    Rounded, Shape, Sphere, SupportMap, contact, contact_manifold,
};
use workloads::oracle::distance_to_shape;

fn pose(rotation: Quat, t: Vec3) -> Pose {
    Pose::new(rotation, t).unwrap()
}

fn at(t: Vec3) -> Pose {
    pose(Quat::IDENTITY, t)
}

fn cuboid(x: f32, y: f32, z: f32) -> Shape {
    Cuboid::new(Vec3::new(x, y, z)).unwrap().into()
}

/// The manifold, checked for what every manifold owes: 1 to 4 points, each on
/// both surfaces (within `1e-4` of the pair's size), `point_a - point_b = depth *
/// normal`, a unit normal, the deepest point first and its depth the contact's.
fn manifold(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose, prediction: f32) -> Manifold {
    let m = contact_manifold(a, pa, b, pb, prediction).expect("a manifold");
    let c = contact(a, pa, b, pb, prediction).unwrap();
    let scale = a.bounding_radius() + b.bounding_radius();
    // World coordinates carry a few ulps of their size.
    let far = pa.translation().abs().max_element() + pb.translation().abs().max_element();
    let resolution = 8.0 * f32::EPSILON * far;
    assert!((1..=4).contains(&m.len()), "{m:?}");
    assert!((m.normal.length() - 1.0).abs() < 1e-5, "{m:?}");
    assert_eq!(m.normal, c.normal);
    for p in m.points() {
        let da = distance_to_shape(a, pa, p.point_a);
        let db = distance_to_shape(b, pb, p.point_b);
        let on = f64::from(1e-4 * scale + resolution);
        assert!(da.abs() < on, "point_a off A by {da}: {m:?}");
        assert!(db.abs() < on, "point_b off B by {db}: {m:?}");
        let gap = p.point_a - p.point_b - p.depth * m.normal;
        assert!(gap.length() < 1e-5 * scale + resolution, "{gap}: {m:?}");
    }
    assert!(
        (m.points()[0].depth - c.depth).abs() < 1e-4 * scale + resolution,
        "deepest {} against the contact's {}: {m:?}",
        m.points()[0].depth,
        c.depth
    );
    m
}

/// The points' positions (on B) sorted, for comparing with expected sets.
fn sorted_b(m: &Manifold) -> Vec<Vec3> {
    let mut v: Vec<Vec3> = m.points().iter().map(|p| p.point_b).collect();
    v.sort_by(|p, q| p.to_array().partial_cmp(&q.to_array()).unwrap());
    v
}

/// The manifold's points on B are `expected` (in any order), each within `tol`.
fn assert_points(m: &Manifold, expected: Vec<Vec3>, tol: f32) {
    let got = sorted_b(m);
    assert_eq!(got.len(), expected.len(), "{got:?} against {expected:?}");
    let mut unmatched = got.clone();
    for e in &expected {
        let k = unmatched
            .iter()
            .position(|g| (*g - *e).length() < tol)
            .unwrap_or_else(|| panic!("no point near {e}: {got:?} against {expected:?}"));
        unmatched.swap_remove(k);
    }
}

/// Area of the quadrilateral (or triangle) of the points seen along `n`, taken in
/// angular order about their centroid.
fn area(m: &Manifold) -> f32 {
    let n = m.normal;
    let pts: Vec<Vec3> = m.points().iter().map(|p| p.point_b).collect();
    let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
    let u = n.any_orthonormal_vector();
    let w = n.cross(u);
    let mut ang: Vec<(f32, Vec3)> = pts
        .iter()
        .map(|&p| ((p - c).dot(w).atan2((p - c).dot(u)), p))
        .collect();
    ang.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    let mut twice = 0.0;
    for i in 0..ang.len() {
        let (p, q) = (ang[i].1 - c, ang[(i + 1) % ang.len()].1 - c);
        twice += p.cross(q).dot(n);
    }
    0.5 * twice.abs()
}

#[test]
fn box_resting_on_a_larger_box_touches_at_the_corners_of_its_bottom_face() {
    let slab = cuboid(4.0, 0.5, 4.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let c = Vec3::new(0.3, 0.99, -0.2);
    let m = manifold(&slab, &Pose::IDENTITY, &cube, &at(c), 0.0);
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    let corners: Vec<Vec3> = [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)]
        .iter()
        .map(|&(x, z)| c + Vec3::new(0.5 * x, -0.5, 0.5 * z))
        .collect();
    assert_points(&m, corners.clone(), 1e-5);
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-5);
        // The slab's top face (axis y, positive side: face 3) and a bottom corner
        // of the cube (y bit clear).
        assert_eq!(p.id.a, FeatureId::face(3), "{m:?}");
        assert_eq!(p.id.b.kind(), FeatureKind::Vertex);
        assert_eq!(p.id.b.index() & 2, 0, "{m:?}");
    }
    // The other way round: the cube's face is the reference, the slab's corners
    // are far outside it, and the points are the cube's corners as seen from the
    // slab (reference vertices inside the slab's face).
    let m = manifold(&cube, &at(c), &slab, &Pose::IDENTITY, 0.0);
    assert!((m.normal + Vec3::Y).length() < 1e-6);
    let on_slab = corners.iter().map(|p| *p + Vec3::Y * 0.01).collect();
    assert_points(&m, on_slab, 1e-5);
    for p in m.points() {
        assert_eq!(p.id.a.kind(), FeatureKind::Vertex);
        assert_eq!(p.id.b, FeatureId::face(3), "{m:?}");
    }
}

#[test]
fn box_overhanging_a_corner_touches_at_the_corners_of_the_overlap() {
    let slab = cuboid(4.0, 0.5, 4.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let c = Vec3::new(3.8, 0.99, 3.8);
    let m = manifold(&slab, &Pose::IDENTITY, &cube, &at(c), 0.0);
    let y = 0.49;
    assert_points(
        &m,
        vec![
            Vec3::new(3.3, y, 3.3),
            Vec3::new(4.0, y, 3.3),
            Vec3::new(3.3, y, 4.0),
            Vec3::new(4.0, y, 4.0),
        ],
        1e-5,
    );
    // One cube corner (on the slab's face), two crossings of a cube edge with a
    // slab edge, and the slab's corner (a reference vertex on the cube's face).
    let mut kinds: Vec<(FeatureKind, FeatureKind)> = m
        .points()
        .iter()
        .map(|p| (p.id.a.kind(), p.id.b.kind()))
        .collect();
    kinds.sort_by_key(|k| format!("{k:?}"));
    assert_eq!(
        kinds,
        vec![
            (FeatureKind::Edge, FeatureKind::Edge),
            (FeatureKind::Edge, FeatureKind::Edge),
            (FeatureKind::Face, FeatureKind::Vertex),
            (FeatureKind::Vertex, FeatureKind::Face),
        ],
        "{m:?}"
    );
}

#[test]
fn box_turned_45_degrees_on_a_box_keeps_an_inscribed_square_of_the_octagon() {
    let cube = cuboid(0.5, 0.5, 0.5);
    let turned = pose(Quat::from_rotation_y(FRAC_PI_4), Vec3::new(0.0, 0.99, 0.0));
    let m = manifold(&cube, &Pose::IDENTITY, &cube, &turned, 0.0);
    assert_eq!(m.len(), 4, "{m:?}");
    // The overlap is a regular octagon of circumradius R (vertices (0.5, ±0.207)
    // and their turns); its largest inscribed quadrilateral is the square of
    // alternate vertices, area 2R².
    let r = Vec3::new(0.5, 0.0, 0.5 * (std::f32::consts::SQRT_2 - 1.0)).length();
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-5);
        let radial = Vec3::new(p.point_b.x, 0.0, p.point_b.z).length();
        assert!((radial - r).abs() < 1e-5, "{radial} against {r}: {m:?}");
    }
    assert!((area(&m) - 2.0 * r * r).abs() < 1e-4, "{}", area(&m));
}

#[test]
fn capsule_lying_on_a_box_touches_at_the_ends_of_its_core() {
    let slab = cuboid(2.0, 0.5, 2.0);
    let capsule: Shape = Capsule::new(1.0, 0.25).unwrap().into();
    let lying = pose(Quat::from_rotation_z(FRAC_PI_2), Vec3::new(0.2, 0.74, 0.1));
    let m = manifold(&slab, &Pose::IDENTITY, &capsule, &lying, 0.0);
    assert_points(
        &m,
        vec![Vec3::new(-0.8, 0.49, 0.1), Vec3::new(1.2, 0.49, 0.1)],
        1e-5,
    );
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-5);
        assert_eq!(p.id.a, FeatureId::face(3));
        assert_eq!(p.id.b.kind(), FeatureKind::Vertex);
    }
    // Half over the edge at x = 2: the core is cut at the edge.
    let over = pose(Quat::from_rotation_z(FRAC_PI_2), Vec3::new(2.5, 0.74, 0.1));
    let m = manifold(&slab, &Pose::IDENTITY, &capsule, &over, 0.0);
    assert_points(
        &m,
        vec![Vec3::new(1.5, 0.49, 0.1), Vec3::new(2.0, 0.49, 0.1)],
        1e-5,
    );
    // Standing on its end: one point.
    let standing = at(Vec3::new(0.2, 1.74, 0.1));
    let m = manifold(&slab, &Pose::IDENTITY, &capsule, &standing, 0.0);
    assert_points(&m, vec![Vec3::new(0.2, 0.49, 0.1)], 1e-5);
}

#[test]
fn capsules_lying_side_by_side_touch_along_their_overlap() {
    let capsule: Shape = Capsule::new(1.0, 0.25).unwrap().into();
    let along_x = Quat::from_rotation_z(FRAC_PI_2);
    let m = manifold(
        &capsule,
        &pose(along_x, Vec3::ZERO),
        &capsule,
        &pose(along_x, Vec3::new(0.5, 0.49, 0.0)),
        0.0,
    );
    // Cores overlap on x in [-0.5, 1.0]; contact at the surfaces y = 0.25, 0.24.
    assert_points(
        &m,
        vec![Vec3::new(-0.5, 0.24, 0.0), Vec3::new(1.0, 0.24, 0.0)],
        1e-5,
    );
    // Crossed: one point.
    let m = manifold(
        &capsule,
        &pose(along_x, Vec3::ZERO),
        &capsule,
        &pose(Quat::from_rotation_x(FRAC_PI_2), Vec3::new(0.0, 0.49, 0.0)),
        0.0,
    );
    assert_eq!(m.len(), 1);
}

#[test]
fn cylinder_standing_on_a_box_touches_at_an_inscribed_square_of_its_rim() {
    let slab = cuboid(2.0, 0.5, 2.0);
    let (hh, r) = (0.6, 0.5);
    let cylinder: Shape = Cylinder::new(hh, r).unwrap().into();
    let c = Vec3::new(0.3, 0.5 + hh - 0.01, -0.4);
    let m = manifold(&slab, &Pose::IDENTITY, &cylinder, &at(c), 0.0);
    assert_eq!(m.len(), 4, "{m:?}");
    for p in m.points() {
        assert!((p.depth - 0.01).abs() < 1e-5);
        let radial = (p.point_b - c) * Vec3::new(1.0, 0.0, 1.0);
        assert!((radial.length() - r).abs() < 1e-5, "{m:?}");
        assert!((p.point_b.y - 0.49).abs() < 1e-5);
    }
    assert!((area(&m) - 2.0 * r * r).abs() < 1e-4, "{}", area(&m));
    // On the slab's edge, half over: the points lie within the slab's top face and
    // on the cap (the square's corners that are over the slab, and the cuts).
    let edge = Vec3::new(2.0, c.y, 0.0);
    let m = manifold(&slab, &Pose::IDENTITY, &cylinder, &at(edge), 0.0);
    for p in m.points() {
        assert!(
            p.point_a.x <= 2.0 + 1e-4
                && ((p.point_b - edge) * Vec3::new(1.0, 0.0, 1.0)).length() <= r + 1e-5
        );
    }
    assert!(m.len() >= 3, "{m:?}");
}

#[test]
fn cylinder_lying_on_a_box_touches_at_both_ends_of_its_side_line() {
    let slab = cuboid(2.0, 0.5, 2.0);
    let (hh, r) = (0.8, 0.3);
    let cylinder: Shape = Cylinder::new(hh, r).unwrap().into();
    // Axis along z, resting on its side.
    let lying = pose(
        Quat::from_rotation_x(FRAC_PI_2),
        Vec3::new(-0.5, 0.5 + r - 0.02, 0.3),
    );
    let m = manifold(&slab, &Pose::IDENTITY, &cylinder, &lying, 0.0);
    assert_points(
        &m,
        vec![
            Vec3::new(-0.5, 0.48, 0.3 - hh),
            Vec3::new(-0.5, 0.48, 0.3 + hh),
        ],
        1e-5,
    );
    for p in m.points() {
        assert!((p.depth - 0.02).abs() < 1e-5);
    }
}

#[test]
fn hull_on_a_hull_face_to_face_touches_at_the_corners_of_the_smaller_face() {
    let prism = |sides: usize, radius: f32, half: f32| {
        let mut pts = Vec::new();
        for k in 0..sides {
            let a = std::f32::consts::TAU * k as f32 / sides as f32;
            for y in [-half, half] {
                pts.push(Vec3::new(radius * a.cos(), y, radius * a.sin()));
            }
        }
        Shape::from(ConvexHull::from_points(&pts).unwrap())
    };
    let base = prism(6, 2.0, 0.5);
    let wedge = prism(3, 0.6, 0.4);
    let turn = Quat::from_rotation_y(0.3);
    let c = Vec3::new(0.2, 0.5 + 0.4 - 0.015, -0.1);
    let m = manifold(&base, &Pose::IDENTITY, &wedge, &pose(turn, c), 0.0);
    let corners: Vec<Vec3> = (0..3)
        .map(|k| {
            let a = std::f32::consts::TAU * k as f32 / 3.0;
            c + turn * Vec3::new(0.6 * a.cos(), -0.4, 0.6 * a.sin())
        })
        .collect();
    assert_points(&m, corners, 1e-4);
    for p in m.points() {
        assert!((p.depth - 0.015).abs() < 1e-5);
        assert_eq!(p.id.a.kind(), FeatureKind::Face);
        assert_eq!(p.id.b.kind(), FeatureKind::Vertex);
    }
}

#[test]
fn a_box_shaped_hull_gives_the_box_manifold() {
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.3 } else { 0.3 },
                if i & 4 == 0 { -0.7 } else { 0.7 },
            )
        })
        .collect();
    let hull: Shape = ConvexHull::from_points(&corners).unwrap().into();
    let boxed = cuboid(0.5, 0.3, 0.7);
    let big = cuboid(1.0, 1.0, 1.0);
    let q = Quat::from_rotation_y(0.4) * Quat::from_rotation_x(0.02);
    for t in [Vec3::new(0.6, 1.28, 0.7), Vec3::new(0.1, 1.29, -0.2)] {
        let from_box = manifold(&big, &Pose::IDENTITY, &boxed, &pose(q, t), 0.01);
        let from_hull = manifold(&big, &Pose::IDENTITY, &hull, &pose(q, t), 0.01);
        assert_eq!(from_box.len(), from_hull.len());
        let (pb, ph) = (sorted_b(&from_box), sorted_b(&from_hull));
        for (x, y) in pb.iter().zip(&ph) {
            assert!((*x - *y).length() < 1e-4, "{pb:?} against {ph:?}");
        }
    }
}

#[test]
fn a_sphere_touches_anything_at_one_point() {
    let hull = Shape::from(
        ConvexHull::from_points(&[
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(-1.0, -1.0, 1.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(1.0, -1.0, -1.0),
            Vec3::new(0.2, -1.1, 0.3),
        ])
        .unwrap(),
    );
    let others: Vec<Shape> = vec![
        cuboid(1.0, 0.5, 2.0),
        Sphere::new(0.7).unwrap().into(),
        Capsule::new(0.8, 0.4).unwrap().into(),
        Cylinder::new(0.5, 0.9).unwrap().into(),
        Cone::new(0.7, 0.6).unwrap().into(),
        hull,
        Rounded::new(cuboid(0.6, 0.6, 0.3), 0.2).unwrap().into(),
        Rounded::new(Shape::Cylinder(Cylinder::new(0.5, 0.4).unwrap()), 0.1)
            .unwrap()
            .into(),
    ];
    let ball: Shape = Sphere::new(0.5).unwrap().into();
    for other in &others {
        for dir in [
            Vec3::Y,
            Vec3::new(0.3, 0.9, -0.2).normalize(),
            Vec3::new(-1.0, 0.1, 0.4).normalize(),
        ] {
            // Place the ball 0.02 deep along `dir` from the other shape.
            // The ball's centre on the normal of the support point, 0.48 from it.
            let centre = other.support(dir) + dir * (0.5 - 0.02);
            for (a, pa, b, pb) in [
                (other, Pose::IDENTITY, &ball, at(centre)),
                (&ball, at(centre), other, Pose::IDENTITY),
            ] {
                let m = manifold(a, &pa, b, &pb, 0.0);
                let c = contact(a, &pa, b, &pb, 0.0).unwrap();
                assert_eq!(m.len(), 1, "{other:?} {dir}: {m:?}");
                assert!((m.points()[0].point_a - c.point_a).length() < 1e-5);
                assert!((m.points()[0].depth - c.depth).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn rounded_box_on_a_box_adds_its_radius_to_every_point() {
    let slab = cuboid(3.0, 0.5, 3.0);
    let rounded: Shape = Rounded::new(cuboid(0.4, 0.4, 0.4), 0.1).unwrap().into();
    let c = Vec3::new(0.0, 0.5 + 0.5 - 0.03, 0.0);
    let m = manifold(&slab, &Pose::IDENTITY, &rounded, &at(c), 0.0);
    assert_eq!(m.len(), 4);
    for p in m.points() {
        assert!((p.depth - 0.03).abs() < 1e-5);
        assert!((p.point_b.y - 0.47).abs() < 1e-5);
        assert!((p.point_b.x.abs() - 0.4).abs() < 1e-5);
    }
}

#[test]
fn a_gap_within_the_prediction_distance_gives_speculative_points() {
    let slab = cuboid(3.0, 0.5, 3.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let above = at(Vec3::new(0.0, 1.05, 0.0));
    assert!(contact_manifold(&slab, &Pose::IDENTITY, &cube, &above, 0.01).is_none());
    let m = manifold(&slab, &Pose::IDENTITY, &cube, &above, 0.1);
    assert_eq!(m.len(), 4);
    for p in m.points() {
        assert!((p.depth + 0.05).abs() < 1e-5);
    }
    // Tilted so that one edge is 0.05 above and the opposite one 0.05 + 2 sin θ
    // higher: a prediction of 0.1 keeps only the near edge.
    let (sin, cos) = 0.1f32.sin_cos();
    let tilted = pose(
        Quat::from_rotation_z(0.1),
        Vec3::new(0.0, 0.55 + 0.5 * (sin + cos), 0.0),
    );
    let m = manifold(&slab, &Pose::IDENTITY, &cube, &tilted, 0.1);
    assert_eq!(m.len(), 2, "{m:?}");
    for p in m.points() {
        assert!((p.depth + 0.05).abs() < 1e-4, "{m:?}");
    }
}

#[test]
fn ids_name_features_of_each_shape() {
    let cube = cuboid(0.5, 0.5, 0.5);
    let m = manifold(
        &cube,
        &Pose::IDENTITY,
        &cube,
        &at(Vec3::new(0.1, 0.99, 0.0)),
        0.0,
    );
    let mut ids: Vec<ContactId> = m.points().iter().map(|p| p.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4, "distinct ids: {m:?}");
    let _ = Arc::new(0);
}

/// A box resting on a box at sizes from 1e-3 to 1e3, at the origin and 1e4 sizes
/// away from it: the same four corners, scaled, with the depth to 1e-4 relative
/// (and the f32 resolution of the coordinates far out).
#[test]
fn box_on_box_holds_at_every_scale_and_far_from_the_origin() {
    for scale in [1e-3f32, 1.0, 1e3] {
        for far in [0.0f32, 1e4] {
            let offset = Vec3::new(far, -far, far) * scale;
            let slab = cuboid(4.0 * scale, 0.5 * scale, 4.0 * scale);
            let cube = cuboid(0.5 * scale, 0.5 * scale, 0.5 * scale);
            let c = Vec3::new(0.3, 0.99, -0.2) * scale;
            let m = manifold(&slab, &at(offset), &cube, &at(offset + c), 0.0);
            assert_eq!(m.len(), 4, "scale {scale} far {far}: {m:?}");
            // Coordinates of size `far * scale` carry that many ulps.
            let resolution = 4.0 * f32::EPSILON * (far + 5.0) * scale;
            for p in m.points() {
                assert!(
                    (p.depth - 0.01 * scale).abs() <= 1e-4 * 0.01 * scale + resolution,
                    "scale {scale} far {far}: {m:?}"
                );
                let local = p.point_b - offset - c;
                assert!(
                    ((local.abs() - Vec3::new(0.5, 0.5, 0.5) * scale)
                        .abs()
                        .max_element())
                        <= resolution + 1e-6 * scale,
                    "scale {scale} far {far}: {local}"
                );
            }
        }
    }
}

/// A thin, long plank (20 by 0.02 by 1) lying across a box: the four corners of
/// its part over the box.
#[test]
fn a_thin_long_plank_across_a_box_touches_at_the_corners_of_its_overlap() {
    let slab = cuboid(2.0, 0.5, 2.0);
    let plank = cuboid(10.0, 0.01, 0.5);
    let m = manifold(
        &slab,
        &Pose::IDENTITY,
        &plank,
        &at(Vec3::new(3.0, 0.509, 0.0)),
        0.0,
    );
    assert_points(
        &m,
        vec![
            Vec3::new(-2.0, 0.499, -0.5),
            Vec3::new(2.0, 0.499, -0.5),
            Vec3::new(-2.0, 0.499, 0.5),
            Vec3::new(2.0, 0.499, 0.5),
        ],
        1e-5,
    );
}

/// Coincident and nearly coincident shapes: deep contacts whose manifold is still
/// sound (points on both shapes, depth the contact's), whatever face it picks.
#[test]
fn coincident_shapes_give_sound_manifolds() {
    let shapes: Vec<Shape> = vec![
        cuboid(0.5, 0.5, 0.5),
        cuboid(1.0, 0.2, 0.4),
        Cylinder::new(0.5, 0.5).unwrap().into(),
        Capsule::new(0.5, 0.3).unwrap().into(),
        Cone::new(0.5, 0.5).unwrap().into(),
        Rounded::new(cuboid(0.4, 0.4, 0.4), 0.1).unwrap().into(),
    ];
    let mut degenerate = Vec::new();
    for s in &shapes {
        for nudge in [
            Vec3::ZERO,
            Vec3::new(1e-6, -1e-6, 1e-6),
            Vec3::new(0.01, 0.0, 0.0),
        ] {
            let c = contact(s, &Pose::IDENTITY, s, &at(nudge), 0.0).unwrap();
            if c.status != gjk_core::Status::Converged {
                // gjk-core's EPA on exactly coincident shapes can stop on a flat
                // polytope with a normal that is not minimal (boxes), or at its
                // iteration cap short of the depth (cylinders): reported, left to
                // the EPA work. The manifold is built on that contact, so only its
                // points' soundness is checked.
                degenerate.push(format!(
                    "{s:?} nudged {nudge}: depth {} along {}",
                    c.depth, c.normal
                ));
                let m = contact_manifold(s, &Pose::IDENTITY, s, &at(nudge), 0.0).unwrap();
                for p in m.points() {
                    assert!(
                        distance_to_shape(s, &Pose::IDENTITY, p.point_a) < 1e-4,
                        "{m:?}"
                    );
                    assert!(distance_to_shape(s, &at(nudge), p.point_b) < 1e-4, "{m:?}");
                }
                continue;
            }
            let m = manifold(s, &Pose::IDENTITY, s, &at(nudge), 0.0);
            for p in m.points() {
                assert!(
                    p.point_a.is_finite() && p.point_b.is_finite() && p.depth.is_finite(),
                    "{s:?}: {m:?}"
                );
            }
        }
    }
    println!("degenerate contacts: {degenerate:#?}");
}

/// Degenerate shapes whose feature along the normal is a point: a needle's (a
/// cylinder or cone of radius 0) cap, a coin's (a cylinder of height 0) side, a
/// cone of no size. Each gives the one point where it touches. (A needle's cap
/// used to enter as sixteen coincident samples, a polygon with no side planes,
/// and a capsule lying across the needle kept both ends of its core, 2 apart
/// from the contact; a coin's side entered as a segment of no length. A cap of
/// radius 1e-30 is still a polygon, but one whose side planes have no normal in
/// f32: it clips to nothing, which leaves the contact's own point.)
#[test]
fn point_features_of_degenerate_shapes_touch_at_one_point() {
    let sunk = 0.01;
    let on_edge = Quat::from_rotation_x(FRAC_PI_2);
    let slab = cuboid(4.0, 0.5, 4.0);
    let across = pose(
        Quat::from_rotation_z(FRAC_PI_2),
        Vec3::new(0.3, 0.6 - sunk, 0.0),
    );
    let cases: [(&str, Shape, Pose, Shape, Pose, Vec3); 6] = [
        (
            "a capsule lying across a needle's tip",
            Cylinder::new(0.5, 0.0).unwrap().into(),
            Pose::IDENTITY,
            Capsule::new(2.0, 0.1).unwrap().into(),
            across,
            Vec3::new(0.0, 0.5 - sunk, 0.0),
        ),
        (
            // Its cap's chords square to nothing in f32: no side planes.
            "a capsule lying across a needle of radius 1e-30",
            Cylinder::new(0.5, 1e-30).unwrap().into(),
            Pose::IDENTITY,
            Capsule::new(2.0, 0.1).unwrap().into(),
            across,
            Vec3::new(0.0, 0.5 - sunk, 0.0),
        ),
        (
            "a needle cone standing on its base on a box",
            slab.clone(),
            Pose::IDENTITY,
            Cone::new(0.5, 0.0).unwrap().into(),
            at(Vec3::new(0.2, 1.0 - sunk, -0.1)),
            Vec3::new(0.2, 0.5 - sunk, -0.1),
        ),
        (
            "a coin on its edge on a box",
            slab.clone(),
            Pose::IDENTITY,
            Cylinder::new(0.0, 1.0).unwrap().into(),
            pose(on_edge, Vec3::new(0.2, 1.5 - sunk, 0.1)),
            Vec3::new(0.2, 0.5 - sunk, 0.1),
        ),
        (
            "a cone of no size in a box",
            slab.clone(),
            Pose::IDENTITY,
            Cone::new(0.0, 0.0).unwrap().into(),
            at(Vec3::new(0.2, 0.5 - sunk, 0.1)),
            Vec3::new(0.2, 0.5 - sunk, 0.1),
        ),
        (
            "a point cylinder in a box",
            slab,
            Pose::IDENTITY,
            Cylinder::new(0.0, 0.0).unwrap().into(),
            at(Vec3::new(-0.3, 0.5 - sunk, 0.4)),
            Vec3::new(-0.3, 0.5 - sunk, 0.4),
        ),
    ];
    for (what, a, pa, b, pb, touch) in cases {
        let m = manifold(&a, &pa, &b, &pb, 0.0);
        assert!((m.normal - Vec3::Y).length() < 1e-5, "{what}: {m:?}");
        assert!((m.points()[0].depth - sunk).abs() < 1e-5, "{what}: {m:?}");
        // A coin's rim is curved: EPA's witness lies within about the root of
        // twice its radius times EPA's gap (1e-5 of the depth scale) of the point
        // of tangency, 5e-4 here.
        assert_eq!(m.len(), 1, "{what}: {m:?}");
        let off = (m.points()[0].point_b - touch).length();
        assert!(off < 1e-3, "{what}: {off} from {touch}: {m:?}");
    }
}

/// Boxes with no extent on some axis, standing on the edge or lying along the
/// segment they are, touch along it: a card on its edge on a slab (either shape
/// A, where the card's face of no width used to be the reference), a card on
/// its edge across a card lying flat (clipped by the lying card's rim), a
/// stick, a point. The points are where the edge meets the other face. (A card
/// standing as A used to enter as a face of four corners, two pairs of them
/// coincident: its two side planes of no normal clipped nothing, and the two
/// points came out at the ends of the slab's face, 3 off the card.)
#[test]
fn boxes_of_no_width_touch_along_the_segment_they_are() {
    let sunk = 0.01;
    let card = cuboid(1.0, 0.0, 1.0);
    let stick = cuboid(1.0, 0.0, 0.0);
    let slab = cuboid(4.0, 0.5, 4.0);
    // The card's local z is world y: it stands on its edge along x.
    let standing = |y: f32| pose(Quat::from_rotation_x(-FRAC_PI_2), Vec3::new(0.3, y, 0.2));
    let on_slab = standing(1.5 - sunk);
    let edge = |y: f32| vec![Vec3::new(-0.7, y, 0.2), Vec3::new(1.3, y, 0.2)];
    // (what, A, its pose, B, its pose, the points on B).
    type Case<'a> = (&'a str, &'a Shape, Pose, &'a Shape, Pose, Vec<Vec3>);
    let cases: [Case; 5] = [
        (
            "a card (A) on its edge on a slab",
            &card,
            on_slab,
            &slab,
            Pose::IDENTITY,
            edge(0.5),
        ),
        (
            "a card (B) on its edge on a slab",
            &slab,
            Pose::IDENTITY,
            &card,
            on_slab,
            edge(0.5 - sunk),
        ),
        (
            "a card on its edge across a card lying flat",
            &card,
            standing(1.0 - sunk),
            &card,
            Pose::IDENTITY,
            vec![Vec3::new(-0.7, 0.0, 0.2), Vec3::new(1.0, 0.0, 0.2)],
        ),
        (
            "a stick on a slab",
            &stick,
            at(Vec3::new(0.3, 0.5 - sunk, 0.2)),
            &slab,
            Pose::IDENTITY,
            edge(0.5),
        ),
        (
            "a box of no size in a slab",
            &cuboid(0.0, 0.0, 0.0),
            at(Vec3::new(0.3, 0.5 - sunk, 0.2)),
            &slab,
            Pose::IDENTITY,
            vec![Vec3::new(0.3, 0.5, 0.2)],
        ),
    ];
    for (what, a, pa, b, pb, expected) in cases {
        let m = manifold(a, &pa, b, &pb, 0.0);
        assert!((m.normal.y.abs() - 1.0).abs() < 1e-5, "{what}: {m:?}");
        for p in m.points() {
            assert!((p.depth - sunk).abs() < 1e-5, "{what}: {m:?}");
        }
        println!("{what}");
        assert_points(&m, expected, 1e-5);
    }
}

/// The fuzz campaign's cases of shapes 1e18 long: a needle's cap of radius 1e-5
/// collapses in A's frame (its samples round to a few points, 1e3 from A's
/// origin), where a capsule 2.3e18 long lies across it; two capsules posed 1e29
/// from the origin, one of radius 1.2e18; a card 2.3e18 long in a rounded box
/// whose face, 1 wide, lies 1e8 from the card's centre, where it rounds out of
/// shape. Every point of their manifolds is as deep as the contact within the
/// manifold tolerance, and on both shapes (a point 4.9e17 deep, one 1.8e16
/// short of the contact and one 6.3e17 off the rounded box came out before).
#[test]
fn manifolds_of_shapes_1e18_long_stay_as_deep_as_the_contact() {
    let q = |x: f32, y: f32, z: f32, w: f32| Quat::from_xyzw(x, y, z, w);
    let rounded_box = Cuboid::new(Vec3::new(0.467_111_4, 1e-45, 0.723_279)).unwrap();
    let cases: [(Shape, Pose, Shape, Pose); 3] = [
        (
            Capsule::new(1.152_921_5e18, 0.05).unwrap().into(),
            pose(
                q(0.511_972_84, 0.302_955_3, -0.803_804_64, 8.797_833e-6),
                Vec3::ZERO,
            ),
            Cylinder::new(0.05, 1e-5).unwrap().into(),
            pose(
                q(-0.504_477_14, -0.652_583, 0.356_124_28, 0.439_105_54),
                Vec3::new(0.0, 0.0, -1383.964),
            ),
        ),
        (
            Capsule::new(0.05, 0.05).unwrap().into(),
            pose(
                q(0.0, 0.0, -0.661_354_8, 0.750_073_25),
                Vec3::new(0.0, -1e29, 0.0),
            ),
            Capsule::new(0.05, 1.152_921_5e18).unwrap().into(),
            pose(
                q(0.0, 0.281_622_8, -0.959_525_2, 1.747_474_4e-5),
                Vec3::new(0.0, -1e29, 0.0),
            ),
        ),
        (
            Cuboid::new(Vec3::new(1.152_921_5e18, 0.0, 0.05))
                .unwrap()
                .into(),
            pose(
                q(-0.595_967_53, 0.505_418_06, -0.494_976_76, 0.379_964_95),
                Vec3::ZERO,
            ),
            Rounded::new(rounded_box.into(), 5.764_607_5e17)
                .unwrap()
                .into(),
            pose(
                q(0.771_598_7, -0.636_109_65, 0.0, 1.255_998_4e-5),
                Vec3::new(1e8, 0.0, 0.0),
            ),
        ),
    ];
    for (a, pa, b, pb) in cases {
        let c = contact(&a, &pa, &b, &pb, 0.0).expect("the shapes touch");
        let m = contact_manifold(&a, &pa, &b, &pb, 0.0).expect("a manifold");
        let tol = 2e-4 * (a.bounding_radius() + b.bounding_radius());
        let off =
            |p: Vec3, q: Vec3| distance_to_shape(&a, &pa, p).max(distance_to_shape(&b, &pb, q));
        let allowed = f64::from(tol) + off(c.point_a, c.point_b);
        for p in m.points() {
            assert!((p.depth - c.depth).abs() <= tol, "{c:?}: {m:?}");
            assert!(off(p.point_a, p.point_b) <= allowed, "{c:?}: {m:?}");
        }
    }
}

/// A sliver triangle (a flat hull 4 long whose tip is 0.001 rad wide) as the
/// reference face, under a box 20 wide turned 45 degrees about the normal whose
/// corner lies 1 beyond the tip, 0.01 deep: the manifold is the triangle's
/// three corners. The corner beyond the tip lies within the tolerance band of
/// both side planes at the tip (0.0005 outside each, the band 0.0021), where
/// the band's planes meet about 4.2 from the tip: it used to be kept, 1 off the
/// triangle. Also the fuzz case that found it: a disc of radius 10 rounded by
/// 1e4 on a sliver triangle 2.8 long, 8.5 off before.
#[test]
fn a_sliver_face_keeps_its_band_near_its_corners() {
    let tip: Shape = ConvexHull::from_points(&[
        Vec3::ZERO,
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(4.0, 0.004, 0.0),
    ])
    .unwrap()
    .into();
    let slab = cuboid(10.0, 10.0, 10.0);
    let depth = 0.01;
    for k in 0..8 {
        let turn = Quat::from_rotation_z(0.7 * k as f32);
        let far = Vec3::new(1e3, -2e3, 5e2) * (k % 2) as f32;
        let centre = Vec3::new(-1.0 + 10.0 * 2f32.sqrt(), -0.0005, 10.0 - depth);
        let pa = pose(turn, far);
        let pb = pose(turn * Quat::from_rotation_z(FRAC_PI_4), far + turn * centre);
        let m = manifold(&tip, &pa, &slab, &pb, 0.0);
        let corners = [
            Vec3::ZERO,
            Vec3::new(4.0, 0.0, 0.0),
            Vec3::new(4.0, 0.004, 0.0),
        ];
        assert_eq!(m.len(), 3, "turn {k}: {m:?}");
        for c in corners {
            let on_a = pa.transform_point(c);
            assert!(
                m.points()
                    .iter()
                    .any(|p| (p.point_a - on_a).length() < 2e-3),
                "turn {k}: corner {c} missing from {m:?}"
            );
        }
        for p in m.points() {
            assert!((p.depth - depth).abs() < 1e-3, "turn {k}: {m:?}");
        }
    }
    let disc = Rounded::new(Cone::new(1e-45, 10.0).unwrap().into(), 1e4).unwrap();
    let a: Shape = disc.into();
    let b: Shape = ConvexHull::from_points(&[
        Vec3::new(-2.585_929_2, 0.988_642_8, 0.0),
        Vec3::new(0.0, -0.008_700_973, 0.0),
        Vec3::ZERO,
    ])
    .unwrap()
    .into();
    let pa = pose(
        Quat::from_xyzw(0.0, -0.603_715_06, -0.458_747_42, 0.651_980_8),
        Vec3::ZERO,
    );
    let pb = at(Vec3::new(0.0, 0.0, -8760.009));
    let c = contact(&a, &pa, &b, &pb, 0.0).expect("the shapes overlap");
    let m = manifold(&a, &pa, &b, &pb, 0.0);
    let band = 1e-4 * (a.bounding_radius() + b.bounding_radius());
    for p in m.points() {
        let off = distance_to_shape(&b, &pb, p.point_b);
        assert!(
            off <= f64::from(band),
            "{off} off the triangle: {c:?}: {m:?}"
        );
    }
}
