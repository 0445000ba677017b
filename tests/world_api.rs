//! The world's persistence and filtering, one behaviour a test: removal ends
//! contacts with both bodies' user data, filters keep pairs out before the
//! narrowphase and a filter change ends a contact, the last separating axis
//! settles a pair that balls and boxes cannot, persisted points, a bulk load equal
//! to single adds, and refused configurations.

use std::f32::consts::FRAC_PI_4;

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{Cuboid, Pose, Shape, Sphere};
use widephase::{Body, CollisionFilter, ContactEventKind, World, WorldConfig, WorldError};

fn at(x: f32, y: f32) -> Pose {
    Pose::from_translation(Vec3::new(x, y, 0.0)).unwrap()
}

fn ball(r: f32) -> Shape {
    Sphere::new(r).unwrap().into()
}

fn slab() -> Shape {
    Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap().into()
}

fn world(prediction: f32) -> World {
    World::with_config(WorldConfig {
        prediction,
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn removing_a_body_ends_its_contacts_with_both_user_data() {
    let mut w = world(0.0);
    let mut floor = Body::new(slab(), Pose::IDENTITY);
    floor.user_data = 10;
    let mut on_it = Body::new(ball(0.5), at(0.0, 0.99));
    on_it.user_data = 20;
    let floor = w.insert(floor).unwrap();
    let b = w.insert(on_it).unwrap();
    let r = w.step().unwrap();
    assert_eq!(r.events.len(), 1);
    assert_eq!(r.events[0].kind, ContactEventKind::Began);
    assert_eq!((r.events[0].user_data_a, r.events[0].user_data_b), (10, 20));
    assert_eq!(
        w.step().unwrap().events[0].kind,
        ContactEventKind::Persisted
    );
    // The slot is reused at once by another body; the end still names the old one.
    w.remove(b).unwrap();
    let c = w.add(ball(0.5), at(3.0, 0.99)).unwrap();
    let r = w.step().unwrap();
    assert_eq!(r.events[0].kind, ContactEventKind::Ended);
    assert_eq!((r.events[0].a, r.events[0].b), (floor, b));
    assert_eq!((r.events[0].user_data_a, r.events[0].user_data_b), (10, 20));
    assert_eq!(r.events[1].kind, ContactEventKind::Began);
    assert_eq!(r.events[1].b, c);
    assert_eq!(r.events.len(), 2);
}

#[test]
fn filters_keep_pairs_out_and_a_change_ends_the_contact() {
    let mut w = world(0.0);
    let floor = w.add(slab(), Pose::IDENTITY).unwrap();
    let a = w.add(ball(0.5), at(-2.0, 0.99)).unwrap();
    let mut loner = Body::new(ball(0.5), at(2.0, 0.99));
    loner.filter = CollisionFilter { group: 2, mask: !1 };
    w.insert(loner).unwrap();
    let mut odd = Body::new(ball(0.5), at(0.0, 0.99));
    odd.user_data = 7;
    w.insert(odd).unwrap();
    w.set_pair_filter(|x, y| x.user_data + y.user_data != 7);
    let r = w.step().unwrap();
    // Only the first ball touches the floor: the second's groups and the pair
    // filter keep the others out, before any contact query.
    assert_eq!(r.manifolds.len(), 1, "{:?}", r.manifolds);
    assert_eq!((r.manifolds[0].a, r.manifolds[0].b), (floor, a));
    assert_eq!(r.filtered, 2);
    assert_eq!(r.queried, 1);
    w.set_filter(a, CollisionFilter { group: 4, mask: 4 })
        .unwrap();
    let r = w.step().unwrap();
    assert!(r.manifolds.is_empty());
    assert_eq!(r.events.len(), 1);
    assert_eq!(r.events[0].kind, ContactEventKind::Ended);
}

#[test]
fn the_last_separating_axis_settles_a_pair_that_balls_and_boxes_cannot() {
    // Two rods along the diagonal, side by side 0.3 apart: their bounding balls
    // and world boxes overlap, only the axis across them separates them.
    let rod: Shape = Cuboid::new(Vec3::new(2.0, 0.1, 0.1)).unwrap().into();
    let turn = Quat::from_rotation_z(FRAC_PI_4);
    let across = turn * Vec3::Y;
    let mut w = world(0.01);
    w.add(rod.clone(), Pose::new(turn, Vec3::ZERO).unwrap())
        .unwrap();
    let b = w.add(rod, Pose::new(turn, across * 0.5).unwrap()).unwrap();
    let r = w.step().unwrap();
    assert_eq!((r.candidates, r.queried, r.culled), (1, 1, 0));
    assert!((w.pairs().next().unwrap().gap - 0.3).abs() < 1e-5);
    // A small move: the axis still holds, no GJK.
    w.set_pose(b, Pose::new(turn, across * 0.49 + Vec3::X * 0.01).unwrap())
        .unwrap();
    let r = w.step().unwrap();
    assert_eq!((r.queried, r.culled), (0, 1));
    assert!(w.pairs().next().unwrap().gap > 0.25);
    // Brought within the prediction distance, it is queried and has a manifold.
    w.set_pose(b, Pose::new(turn, across * 0.205).unwrap())
        .unwrap();
    let r = w.step().unwrap();
    assert_eq!((r.queried, r.manifolds.len()), (1, 1));
    assert!(!r.manifolds[0].touching);
}

#[test]
fn resting_points_persist_and_new_corners_do_not() {
    let mut w = world(0.0);
    w.add(slab(), Pose::IDENTITY).unwrap();
    let cube: Shape = Cuboid::new(Vec3::splat(0.5)).unwrap().into();
    let b = w.add(cube, at(0.0, 0.99)).unwrap();
    let first = w.step().unwrap();
    assert_eq!(first.manifolds[0].manifold.len(), 4);
    assert_eq!(first.manifolds[0].persisted, 0);
    w.set_pose(b, at(0.001, 0.99)).unwrap();
    let again = w.step().unwrap();
    assert_eq!(again.manifolds[0].persisted, 0b1111);
    // Tipped onto an edge: the two corners still down keep their ids.
    let tipped = Pose::new(
        Quat::from_rotation_x(FRAC_PI_4),
        Vec3::new(0.0, 0.5 + 0.5 * std::f32::consts::SQRT_2 - 0.01, 0.0),
    )
    .unwrap();
    w.set_pose(b, tipped).unwrap();
    let r = w.step().unwrap();
    let m = &r.manifolds[0];
    assert_eq!(m.manifold.len(), 2, "{m:?}");
    assert_eq!(m.persisted, 0b11, "{m:?}");
    // Upside down: the old top face's corners, none persisted.
    let flipped = Pose::new(
        Quat::from_rotation_x(std::f32::consts::PI),
        Vec3::new(0.0, 0.99, 0.0),
    )
    .unwrap();
    w.set_pose(b, flipped).unwrap();
    let r = w.step().unwrap();
    assert_eq!(r.manifolds[0].manifold.len(), 4);
    assert_eq!(r.manifolds[0].persisted, 0, "{:?}", r.manifolds[0]);
}

#[test]
fn a_bulk_load_equals_adding_one_by_one() {
    let bodies: Vec<Body> = (0..200)
        .map(|i| {
            let (x, y) = ((i % 20) as f32 * 0.9, (i / 20) as f32 * 0.9);
            let mut b = Body::new(ball(0.5), at(x, y));
            b.user_data = i;
            b
        })
        .collect();
    let mut bulk = world(0.05);
    bulk.add_many(bodies.clone()).unwrap();
    let mut single = world(0.05);
    for b in bodies {
        single.insert(b).unwrap();
    }
    let (x, y) = (bulk.step().unwrap(), single.step().unwrap());
    assert_eq!(x.manifolds, y.manifolds);
    assert_eq!(x.events, y.events);
    assert!(x.manifolds.len() > 300);
}

#[test]
fn bad_configurations_are_refused_and_the_largest_bounds_load() {
    for p in [f32::NAN, f32::INFINITY, -0.1] {
        assert!(matches!(
            World::with_config(WorldConfig {
                prediction: p,
                ..Default::default()
            }),
            Err(WorldError::Prediction(_))
        ));
    }
    // Sizes are capped (MAX_SIZE), so that the largest shape's fat box stays
    // finite wherever f32 can place it: a bulk load of such bodies succeeds.
    let mut w = world(0.0);
    let largest = gjk_core::tolerance::MAX_SIZE;
    let huge = Body::new(ball(largest), at(f32::MAX, 0.0));
    let fine = Body::new(ball(1.0), at(0.0, 0.0));
    assert_eq!(w.add_many([fine, huge]).unwrap().len(), 2);
    w.step().unwrap();
}
