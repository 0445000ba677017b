//! Every shape's support features, on 2,000 seeded directions per shape: a feature
//! holds a support point of the core along the direction, a polygon is planar,
//! convex and counter-clockwise about its unit normal, which is the closest to the
//! direction among the shape's faces through that support point (boxes, hulls),
//! its vertices lie on the core's surface, and ids are distinct and tied to
//! positions (the same id, the same local point, whatever the direction).

use std::collections::HashMap;

use gjk_core::glam::Vec3;
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Feature, FeatureId, FeatureKind, Pose, Rounded,
    Shape, Sphere, SupportMap,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use workloads::oracle::distance_to_shape;
use workloads::workload::{random_hull, random_unit};

fn shapes() -> Vec<Shape> {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let cube_corners: Vec<Vec3> = (0..8)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32) - 0.5)
        .collect();
    vec![
        Sphere::new(0.7).unwrap().into(),
        Cuboid::new(Vec3::new(0.5, 1.2, 0.3)).unwrap().into(),
        Capsule::new(0.8, 0.3).unwrap().into(),
        Capsule::new(0.0, 0.3).unwrap().into(),
        Cylinder::new(0.4, 0.9).unwrap().into(),
        Cone::new(0.7, 0.5).unwrap().into(),
        Cone::new(2.0, 0.2).unwrap().into(),
        random_hull(&mut rng, 32).into(),
        random_hull(&mut rng, 8).into(),
        ConvexHull::from_points(&cube_corners).unwrap().into(),
        Rounded::new(Shape::from(Cuboid::new(Vec3::ONE).unwrap()), 0.2)
            .unwrap()
            .into(),
        // Degenerate but valid: a point, a rectangle, a segment, discs, a needle,
        // and hulls that are a polygon, a segment and a point.
        Sphere::new(0.0).unwrap().into(),
        Cuboid::new(Vec3::new(0.5, 0.0, 0.3)).unwrap().into(),
        Cuboid::new(Vec3::new(0.0, 0.7, 0.0)).unwrap().into(),
        Cylinder::new(0.0, 0.9).unwrap().into(),
        Cylinder::new(0.6, 0.0).unwrap().into(),
        Cone::new(0.0, 0.5).unwrap().into(),
        Cone::new(0.8, 0.0).unwrap().into(),
        ConvexHull::from_points(&cube_corners[..4]).unwrap().into(),
        ConvexHull::from_points(&[Vec3::ZERO, Vec3::new(0.3, 0.9, -0.2)])
            .unwrap()
            .into(),
        ConvexHull::from_points(&[Vec3::new(0.1, 0.2, 0.3)])
            .unwrap()
            .into(),
    ]
}

/// The core's surface: the shape's, less its margin.
fn core_distance(shape: &Shape, p: Vec3) -> f64 {
    match shape {
        Shape::Sphere(_) => f64::from(p.length()),
        Shape::Capsule(c) => {
            let h = c.half_height();
            f64::from((p - Vec3::new(0.0, p.y.clamp(-h, h), 0.0)).length())
        }
        Shape::Rounded(r) => core_distance(r.inner(), p),
        other => distance_to_shape(other, &Pose::IDENTITY, p),
    }
}

#[test]
fn features_hold_a_support_point_and_are_well_formed() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut f = Feature::new();
    for shape in shapes() {
        let scale = shape.bounding_radius();
        let mut seen: HashMap<FeatureId, Vec3> = HashMap::new();
        for i in 0..2000 {
            // Directions near the axes and faces as well as random ones.
            let dir = match i % 4 {
                0 => random_unit(&mut rng),
                1 => (Vec3::Y + random_unit(&mut rng) * 1e-3).normalize(),
                2 => (Vec3::X + random_unit(&mut rng) * 1e-3).normalize(),
                _ => (Vec3::new(1.0, 1.0, 0.0) + random_unit(&mut rng) * 1e-4).normalize(),
            };
            let at = format!("{shape:?} dir {dir} (case {i})");
            shape.support_feature(dir, &mut f);
            let v = f.vertices();
            assert!(!v.is_empty(), "{at}");
            assert_eq!(v.len(), f.vertex_ids().len(), "{at}");
            let best = shape.support_core(dir).dot(dir);
            let reach = v
                .iter()
                .map(|p| p.dot(dir))
                .fold(f32::NEG_INFINITY, f32::max);
            assert!(
                (reach - best).abs() <= 1e-5 * scale,
                "{at}: {reach} against {best}"
            );
            for p in v {
                let d = core_distance(&shape, *p);
                assert!(
                    d.abs() <= 1e-5 * f64::from(scale),
                    "{at}: vertex {p} off the core by {d}"
                );
            }
            let mut ids = f.vertex_ids().to_vec();
            ids.sort();
            ids.dedup();
            assert_eq!(
                ids.len(),
                v.len(),
                "{at}: repeated vertex ids {:?}",
                f.vertex_ids()
            );
            // Ids name fixed points, except the rim points of discs, which follow
            // the direction (their own ids, by design).
            for (p, id) in v.iter().zip(f.vertex_ids()) {
                assert_ne!(id.kind(), FeatureKind::Unknown, "{at}");
                let old = *seen.entry(*id).or_insert(*p);
                if !is_rim_point(&shape, *id) {
                    assert!(
                        (old - *p).length() <= 1e-5 * scale,
                        "{at}: {id:?} at {p} and {old}"
                    );
                }
            }
            if v.len() >= 3 {
                let n = f.normal();
                assert!((n.length() - 1.0).abs() < 1e-5, "{at}");
                assert!(n.dot(dir) > 0.0, "{at}");
                assert_eq!(f.edge_ids().len(), v.len(), "{at}");
                let mut edges = f.edge_ids().to_vec();
                edges.sort();
                edges.dedup();
                assert_eq!(edges.len(), v.len(), "{at}: repeated edge ids");
                for k in 0..v.len() {
                    let (p, q, r) = (v[k], v[(k + 1) % v.len()], v[(k + 2) % v.len()]);
                    assert!((p - v[0]).dot(n).abs() <= 1e-5 * scale, "{at}: not planar");
                    let turn = (q - p).cross(r - q).dot(n);
                    assert!(
                        turn >= -1e-6 * scale * scale,
                        "{at}: turns clockwise at {k}"
                    );
                }
            }
        }
    }
}

/// The exact rim points of cylinders and cones follow the direction.
fn is_rim_point(shape: &Shape, id: FeatureId) -> bool {
    let n = gjk_core::tolerance::CAP_POLYGON_VERTICES;
    match shape {
        Shape::Cylinder(_) => id.index() == 2 * n || id.index() == 2 * n + 1,
        Shape::Cone(_) => id.index() == n,
        _ => false,
    }
}

/// Shapes of no size touch at one point, whatever the direction: their feature
/// is that one vertex, with one id, so that a contact keeps its id as it turns.
#[test]
fn shapes_of_no_size_have_one_feature_from_every_direction() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut f = Feature::new();
    let points: [Shape; 5] = [
        Sphere::new(0.0).unwrap().into(),
        Cuboid::new(Vec3::ZERO).unwrap().into(),
        Capsule::new(0.0, 0.0).unwrap().into(),
        Cylinder::new(0.0, 0.0).unwrap().into(),
        Cone::new(0.0, 0.0).unwrap().into(),
    ];
    for shape in points {
        let mut first = None;
        for i in 0..400 {
            let dir = match i % 4 {
                0 => random_unit(&mut rng),
                1 => Vec3::Y,
                2 => Vec3::NEG_Y,
                _ => Vec3::X,
            };
            shape.support_feature(dir, &mut f);
            assert_eq!(f.vertices(), [Vec3::ZERO], "{shape:?} dir {dir}");
            let id = *first.get_or_insert(f.id());
            assert_eq!(f.id(), id, "{shape:?} dir {dir} (case {i})");
        }
    }
}

/// A box face of no width is the segment it covers: a card's side towards +x
/// and -x, a stick's side, with the ids of the real corners at its ends and of
/// the real edge between them (corner `x + 2y + 4z`, edge `4a + s + 2t`); a
/// stick's end is its corner.
#[test]
fn box_faces_of_no_width_are_their_segments_with_real_ids() {
    let v = FeatureId::vertex;
    let e = FeatureId::edge;
    let card = Cuboid::new(Vec3::new(1.0, 0.0, 1.0)).unwrap();
    let stick = Cuboid::new(Vec3::new(1.0, 0.0, 0.0)).unwrap();
    let cases = [
        // +x face: corners (+,+,+) and (+,+,-), the edge along z at x+, y+.
        (
            card,
            Vec3::X,
            vec![Vec3::new(1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, -1.0)],
            vec![v(7), v(3)],
            e(11),
        ),
        // -x face: corners (-,+,-) and (-,+,+), the edge along z at x-, y+.
        (
            card,
            Vec3::NEG_X,
            vec![Vec3::new(-1.0, 0.0, -1.0), Vec3::new(-1.0, 0.0, 1.0)],
            vec![v(2), v(6)],
            e(10),
        ),
        // +y face of the stick: flat on z, the edge along x at y+, z+.
        (
            stick,
            Vec3::Y,
            vec![Vec3::new(1.0, 0.0, 0.0), Vec3::new(-1.0, 0.0, 0.0)],
            vec![v(7), v(6)],
            e(3),
        ),
        // The stick's end: corner (+,+,+).
        (
            stick,
            Vec3::X,
            vec![Vec3::new(1.0, 0.0, 0.0)],
            vec![v(7)],
            v(7),
        ),
    ];
    let mut f = Feature::new();
    for (shape, dir, vertices, ids, id) in cases {
        shape.support_feature(dir, &mut f);
        let at = format!("{shape:?} towards {dir}: {f:?}");
        assert_eq!(f.vertices(), vertices, "{at}");
        assert_eq!(f.vertex_ids(), ids, "{at}");
        assert_eq!(f.id(), id, "{at}");
        assert_eq!(f.normal(), Vec3::ZERO, "{at}");
    }
}

/// A box's face towards a direction is the face of the largest component, and its
/// corner and edge ids say which corner and edge they are.
#[test]
fn box_ids_encode_corners_edges_and_faces() {
    let h = Vec3::new(0.5, 1.2, 0.3);
    let cuboid = Cuboid::new(h).unwrap();
    let mut f = Feature::new();
    for (dir, face) in [
        (Vec3::X, 1),
        (-Vec3::X, 0),
        (Vec3::Y, 3),
        (-Vec3::Y, 2),
        (Vec3::Z, 5),
        (-Vec3::Z, 4),
    ] {
        cuboid.support_feature(dir, &mut f);
        assert_eq!(f.id(), FeatureId::face(face));
        assert_eq!(f.normal(), dir);
        for (k, (p, id)) in f.vertices().iter().zip(f.vertex_ids()).enumerate() {
            let bits = (p.x > 0.0) as u32 | ((p.y > 0.0) as u32) << 1 | ((p.z > 0.0) as u32) << 2;
            assert_eq!(*id, FeatureId::vertex(bits));
            let q = f.vertices()[(k + 1) % 4];
            let edge = f.edge_ids()[k].index();
            let axis = (edge / 4) as usize;
            assert_ne!(p[axis], q[axis], "edge {edge} runs along axis {axis}");
            let (o1, o2) = ((axis + 1) % 3, (axis + 2) % 3);
            assert_eq!(edge % 4, (p[o1] > 0.0) as u32 + 2 * (p[o2] > 0.0) as u32);
            assert_eq!((p[o1], p[o2]), (q[o1], q[o2]));
        }
    }
}
