//! Feature ids of manifold points stay the same while the same features touch, and
//! change when the contact moves to other features: what a solver matches its
//! warm-start impulses by.
//!
//! - Stable: resting pairs (box on a larger box, a box on a box of the same size
//!   with edges flush, a box turned 45 degrees, a capsule lying on a box and on a
//!   capsule of the same length, a cylinder standing and lying, a hull on a hull,
//!   a rounded box, a touching pair within a prediction distance, a pair 100 units
//!   from the origin) jittered for 100 steps by 1e-5 in position and 1e-5 rad in
//!   rotation (seeded): the same points, the same ids, every step.
//! - Changing: a box sliding over the edge of its support, tipping onto an edge, a
//!   ball rolling over a box's edge, a box turned onto another face.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    Capsule, ContactId, ConvexHull, Cuboid, Cylinder, FeatureId, FeatureKind, Manifold, Pose,
    Rounded, Shape, Sphere, contact_manifold,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use workloads::workload::random_unit;

fn pose(rotation: Quat, t: Vec3) -> Pose {
    Pose::new(rotation, t).unwrap()
}

fn cuboid(x: f32, y: f32, z: f32) -> Shape {
    Cuboid::new(Vec3::new(x, y, z)).unwrap().into()
}

fn ids(m: &Manifold) -> Vec<ContactId> {
    let mut v: Vec<ContactId> = m.points().iter().map(|p| p.id).collect();
    v.sort();
    v
}

struct Resting {
    name: &'static str,
    a: Shape,
    pose_a: Pose,
    b: Shape,
    pose_b: Pose,
    prediction: f32,
    points: usize,
}

fn prism(sides: usize, radius: f32, half: f32) -> Shape {
    let mut pts = Vec::new();
    for k in 0..sides {
        let a = std::f32::consts::TAU * k as f32 / sides as f32;
        for y in [-half, half] {
            pts.push(Vec3::new(radius * a.cos(), y, radius * a.sin()));
        }
    }
    ConvexHull::from_points(&pts).unwrap().into()
}

fn resting_pairs() -> Vec<Resting> {
    let slab = cuboid(3.0, 0.5, 3.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let capsule: Shape = Capsule::new(1.0, 0.25).unwrap().into();
    let cylinder: Shape = Cylinder::new(0.6, 0.5).unwrap().into();
    let lying = Quat::from_rotation_z(FRAC_PI_2);
    let id = Pose::IDENTITY;
    let up = |y: f32| pose(Quat::IDENTITY, Vec3::new(0.2, y, -0.1));
    let far = Vec3::new(100.0, -100.0, 100.0);
    vec![
        Resting {
            name: "box on a larger box",
            a: slab.clone(),
            pose_a: id,
            b: cube.clone(),
            pose_b: up(0.999),
            prediction: 0.0,
            points: 4,
        },
        Resting {
            name: "box on a box, edges flush",
            a: cube.clone(),
            pose_a: id,
            b: cube.clone(),
            pose_b: pose(Quat::IDENTITY, Vec3::new(0.0, 0.999, 0.0)),
            prediction: 0.0,
            points: 4,
        },
        Resting {
            name: "box turned 45 degrees on a box",
            a: cube.clone(),
            pose_a: id,
            b: cube.clone(),
            pose_b: pose(Quat::from_rotation_y(FRAC_PI_4), Vec3::new(0.0, 0.999, 0.0)),
            prediction: 0.0,
            points: 4,
        },
        Resting {
            name: "capsule lying on a box",
            a: slab.clone(),
            pose_a: id,
            b: capsule.clone(),
            pose_b: pose(lying, Vec3::new(0.2, 0.749, 0.0)),
            prediction: 0.0,
            points: 2,
        },
        Resting {
            name: "capsule on a capsule, ends flush",
            a: capsule.clone(),
            pose_a: pose(lying, Vec3::ZERO),
            b: capsule.clone(),
            pose_b: pose(lying, Vec3::new(0.0, 0.499, 0.0)),
            prediction: 0.0,
            points: 2,
        },
        Resting {
            name: "cylinder standing on a box",
            a: slab.clone(),
            pose_a: id,
            b: cylinder.clone(),
            pose_b: up(1.099),
            prediction: 0.0,
            points: 4,
        },
        Resting {
            name: "cylinder lying on a box",
            a: slab.clone(),
            pose_a: id,
            b: cylinder.clone(),
            pose_b: pose(Quat::from_rotation_x(FRAC_PI_2), Vec3::new(0.0, 0.999, 0.0)),
            prediction: 0.0,
            points: 2,
        },
        Resting {
            name: "hull on a hull",
            a: prism(6, 2.0, 0.5),
            pose_a: id,
            b: prism(4, 0.6, 0.4),
            pose_b: pose(Quat::from_rotation_y(0.3), Vec3::new(0.1, 0.899, 0.0)),
            prediction: 0.0,
            points: 4,
        },
        Resting {
            name: "rounded box on a box",
            a: slab.clone(),
            pose_a: id,
            b: Rounded::new(cube.clone(), 0.1).unwrap().into(),
            pose_b: up(1.099),
            prediction: 0.0,
            points: 4,
        },
        Resting {
            name: "box touching a box, prediction 0.01",
            a: slab.clone(),
            pose_a: id,
            b: cube.clone(),
            pose_b: up(1.0),
            prediction: 0.01,
            points: 4,
        },
        Resting {
            name: "box on a box 100 units out",
            a: slab.clone(),
            pose_a: pose(Quat::IDENTITY, far),
            b: cube.clone(),
            pose_b: pose(Quat::IDENTITY, far + Vec3::new(0.2, 0.999, -0.1)),
            prediction: 0.0,
            points: 4,
        },
    ]
}

/// `pose` moved by up to `size` in a random direction and turned by up to `size`
/// radians about a random axis.
fn jitter(rng: &mut ChaCha8Rng, p: &Pose, size: f32) -> Pose {
    let turn = Quat::from_scaled_axis(random_unit(rng) * size);
    pose(
        turn * p.rotation(),
        p.translation() + random_unit(rng) * size,
    )
}

#[test]
fn ids_hold_over_100_jittered_steps_of_resting_pairs() {
    let seed = 25;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for r in resting_pairs() {
        let first = contact_manifold(&r.a, &r.pose_a, &r.b, &r.pose_b, r.prediction)
            .unwrap_or_else(|| panic!("{}: no manifold", r.name));
        assert_eq!(first.len(), r.points, "{}: {first:?}", r.name);
        let want = ids(&first);
        let scale = 1e-3;
        for step in 0..100 {
            let (pa, pb) = (
                jitter(&mut rng, &r.pose_a, 1e-5),
                jitter(&mut rng, &r.pose_b, 1e-5),
            );
            let m = contact_manifold(&r.a, &pa, &r.b, &pb, r.prediction)
                .unwrap_or_else(|| panic!("{} seed {seed} step {step}: no manifold", r.name));
            assert_eq!(
                ids(&m),
                want,
                "{} seed {seed} step {step}: {m:?} against {first:?}",
                r.name
            );
            // The points barely move with them.
            for p in m.points() {
                let q = first.points().iter().find(|q| q.id == p.id).unwrap();
                assert!(
                    (p.point_b - q.point_b).length() < scale,
                    "{} step {step}: {m:?}",
                    r.name
                );
            }
        }
    }
}

#[test]
fn a_box_sliding_over_an_edge_trades_corner_ids_for_edge_crossings() {
    let slab = cuboid(3.0, 0.5, 3.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let at = |x: f32| pose(Quat::IDENTITY, Vec3::new(x, 0.999, 0.0));
    let on = contact_manifold(&slab, &Pose::IDENTITY, &cube, &at(2.0), 0.0).unwrap();
    let over = contact_manifold(&slab, &Pose::IDENTITY, &cube, &at(3.2), 0.0).unwrap();
    let (on, over) = (ids(&on), ids(&over));
    // Two corners stay on the slab with their ids; the two beyond the edge are
    // replaced by crossings of the cube's edges with the slab's edge.
    let kept: Vec<&ContactId> = over.iter().filter(|id| on.contains(id)).collect();
    assert_eq!(kept.len(), 2, "{on:?} then {over:?}");
    let crossings = over
        .iter()
        .filter(|id| id.a.kind() == FeatureKind::Edge && id.b.kind() == FeatureKind::Edge)
        .count();
    assert_eq!(crossings, 2, "{over:?}");
}

#[test]
fn a_box_tipping_onto_an_edge_keeps_the_ids_of_the_corners_still_down() {
    let slab = cuboid(3.0, 0.5, 3.0);
    let cube = cuboid(0.5, 0.5, 0.5);
    let flat = contact_manifold(
        &slab,
        &Pose::IDENTITY,
        &cube,
        &pose(Quat::IDENTITY, Vec3::new(0.0, 0.999, 0.0)),
        0.0,
    )
    .unwrap();
    // Turned 0.2 rad about z, its lowest edge (x = +0.5 side turned down...) 1e-3 deep.
    let (s, c) = 0.2f32.sin_cos();
    let tipped = pose(
        Quat::from_rotation_z(0.2),
        Vec3::new(0.0, 0.5 + 0.5 * (s + c) - 1e-3, 0.0),
    );
    let tipped = contact_manifold(&slab, &Pose::IDENTITY, &cube, &tipped, 0.0).unwrap();
    assert_eq!(tipped.len(), 2, "{tipped:?}");
    for id in ids(&tipped) {
        assert!(
            ids(&flat).contains(&id),
            "{id:?} not among {:?}",
            ids(&flat)
        );
    }
}

#[test]
fn a_ball_rolling_over_an_edge_moves_from_one_face_to_the_next() {
    let cube = cuboid(1.0, 1.0, 1.0);
    let ball: Shape = Sphere::new(0.5).unwrap().into();
    let mut faces = Vec::new();
    // Around the edge x = 1, y = 1, the ball 0.01 deep all the way.
    for k in 0..=8 {
        let a = FRAC_PI_2 * k as f32 / 8.0;
        let dir = Vec3::new(a.sin(), a.cos(), 0.0);
        let centre = Vec3::new(1.0, 1.0, 0.0) + dir * 0.49;
        let m = contact_manifold(
            &cube,
            &Pose::IDENTITY,
            &ball,
            &pose(Quat::IDENTITY, centre),
            0.0,
        )
        .unwrap();
        assert_eq!(m.len(), 1);
        faces.push(m.points()[0].id.a);
    }
    assert_eq!(faces[0], FeatureId::face(3), "{faces:?}");
    assert_eq!(faces[8], FeatureId::face(1), "{faces:?}");
    // One change, where the normal passes 45 degrees.
    let changes = faces.windows(2).filter(|w| w[0] != w[1]).count();
    assert_eq!(changes, 1, "{faces:?}");
}

#[test]
fn a_box_turned_onto_another_face_touches_with_other_corners() {
    let slab = cuboid(3.0, 0.5, 3.0);
    let brick = cuboid(0.5, 0.3, 0.7);
    let flat = contact_manifold(
        &slab,
        &Pose::IDENTITY,
        &brick,
        &pose(Quat::IDENTITY, Vec3::new(0.0, 0.799, 0.0)),
        0.0,
    )
    .unwrap();
    let on_end = contact_manifold(
        &slab,
        &Pose::IDENTITY,
        &brick,
        &pose(Quat::from_rotation_x(FRAC_PI_2), Vec3::new(0.0, 1.199, 0.0)),
        0.0,
    )
    .unwrap();
    let (a, b) = (ids(&flat), ids(&on_end));
    assert_eq!((a.len(), b.len()), (4, 4));
    let shared = a.iter().filter(|id| b.contains(id)).count();
    // Turned a quarter about x, the bottom face -y becomes the face -z... two of
    // the four corners are shared by both faces (the edge between them).
    assert_eq!(shared, 2, "{a:?} then {b:?}");
}
