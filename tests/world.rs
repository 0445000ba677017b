//! `World::set_poses` keeps every body's pose and broadphase box together, also
//! when one move fails.

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{Pose, Shape, Sphere};
use widephase::World;

fn at(x: f32) -> Pose {
    Pose::new(Quat::IDENTITY, Vec3::new(x, 0.0, 0.0)).unwrap()
}

#[test]
fn a_move_whose_fat_box_overflows_leaves_that_body_alone_and_moves_the_others() {
    let mut world = World::default();
    // A ball of radius 1e37: at x = 3.3e38 its bounds (up to 3.4e38) are finite,
    // but its fat box (a margin proportional to its size) is not.
    let huge: Shape = Sphere::new(1e37).unwrap().into();
    let small: Shape = Sphere::new(1.0).unwrap().into();
    let a = world.add(small, at(0.0)).unwrap();
    let b = world.add(huge.clone(), at(0.0)).unwrap();
    let overflow = at(3.3e38);
    let tight = gjk_core::SupportMap::aabb(&huge, &overflow);
    assert!(
        tight.max.is_finite(),
        "the bounds themselves must be finite: {tight:?}"
    );
    assert!(
        world.set_pose(b, overflow).is_err(),
        "the test needs a pose whose fat box overflows"
    );
    assert_eq!(world.body(b).unwrap().pose, at(0.0));

    let err = world.set_poses(&[(a, at(5.0)), (b, overflow)]);
    assert!(err.is_err(), "{err:?}");
    // The other body moved, box and pose together; the failing one did not.
    assert_eq!(world.body(a).unwrap().pose, at(5.0));
    assert!(
        world
            .fat_bounds(a)
            .unwrap()
            .contains_point(Vec3::new(5.0, 0.0, 0.0))
    );
    assert_eq!(world.body(b).unwrap().pose, at(0.0));
    assert!(world.fat_bounds(b).unwrap().contains_point(Vec3::ZERO));
    // And the world still steps.
    world.step().unwrap();
}

#[test]
fn a_stale_handle_changes_nothing() {
    let mut world = World::default();
    let ball: Shape = Sphere::new(1.0).unwrap().into();
    let a = world.add(ball.clone(), at(0.0)).unwrap();
    let gone = world.add(ball, at(10.0)).unwrap();
    world.remove(gone).unwrap();
    assert!(world.set_poses(&[(a, at(3.0)), (gone, at(4.0))]).is_err());
    assert_eq!(world.body(a).unwrap().pose, at(0.0));
}
