//! `World::set_poses` keeps every body's pose and broadphase box together, also
//! when one move fails, and equals `set_pose` called move by move.

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{Pose, Shape, Sphere};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use widephase::{BodyId, World};
use workloads::workload::{
    SHAPE_KINDS, random_rotation, random_shape, random_unit, standard_hulls,
};

fn at(x: f32) -> Pose {
    Pose::new(Quat::IDENTITY, Vec3::new(x, 0.0, 0.0)).unwrap()
}

/// Body `id` has the pose `at(x)`, and its broadphase box is there too.
fn assert_moved_to(world: &World, id: BodyId, x: f32) {
    assert_eq!(world.body(id).unwrap().pose, at(x), "{id:?}");
    let fat = world.fat_bounds(id).unwrap();
    assert!(
        fat.contains_point(Vec3::new(x, 0.0, 0.0)),
        "{id:?}: {fat:?}"
    );
}

/// Shapes are at most `MAX_SIZE` (2^60): the largest ball moved to the edge of
/// f32's range keeps finite bounds and a finite fat box, so the move succeeds
/// (a ball of radius 1e37 once overflowed its fat box there; it is now refused
/// at construction).
#[test]
fn the_largest_shape_moves_anywhere_f32_reaches() {
    let mut world = World::default();
    assert!(Sphere::new(1e37).is_err());
    let huge: Shape = Sphere::new(gjk_core::tolerance::MAX_SIZE).unwrap().into();
    let small: Shape = Sphere::new(1.0).unwrap().into();
    let a = world.add(small, at(0.0)).unwrap();
    let b = world.add(huge, at(0.0)).unwrap();
    world.set_poses(&[(a, at(5.0)), (b, at(3.3e38))]).unwrap();
    assert_moved_to(&world, a, 5.0);
    assert_moved_to(&world, b, 3.3e38);
    world.set_pose(b, at(-f32::MAX)).unwrap();
    world.step().unwrap();
}

#[test]
fn a_stale_handle_leaves_that_move_out_and_moves_the_others() {
    let mut world = World::default();
    let ball: Shape = Sphere::new(1.0).unwrap().into();
    let a = world.add(ball.clone(), at(0.0)).unwrap();
    let gone = world.add(ball, at(10.0)).unwrap();
    world.remove(gone).unwrap();
    assert!(world.set_poses(&[(a, at(3.0)), (gone, at(4.0))]).is_err());
    assert_moved_to(&world, a, 3.0);
}

/// `set_poses` on pools of 1 and 2 threads equals `set_pose` called move by move:
/// poses, fat boxes, whether it fails, and the pairs after a step. Batches of 5000 to
/// 7000 moves (the parallel pass starts at 4096) of mixed shapes, with small steps,
/// jumps, a stale handle, a pose at the edge of f32's range and a repeated body.
#[test]
fn set_poses_equals_set_pose_move_by_move() {
    let seed = 7u64;
    let n = 8000;
    let side = 80.0;
    // The same bodies in three worlds (a world is not `Clone`): the reference and
    // one per pool.
    let scene = || {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let hulls = standard_hulls(&mut rng);
        let mut world = World::default();
        let ids: Vec<BodyId> = (0..n)
            .map(|_| {
                let kind = SHAPE_KINDS[rng.random_range(0..SHAPE_KINDS.len())];
                let shape = random_shape(&mut rng, kind, &hulls);
                let centre = (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side;
                let pose = Pose::new(random_rotation(&mut rng), centre).unwrap();
                world.add(shape, pose).unwrap()
            })
            .collect();
        world.remove(ids[3]).unwrap();
        // The largest ball, moved to the edge of f32's range below.
        let huge = world
            .add(
                Sphere::new(gjk_core::tolerance::MAX_SIZE).unwrap().into(),
                at(0.0),
            )
            .unwrap();
        (world, ids, huge)
    };
    let (mut single, ids, huge) = scene();
    let stale = ids[3];
    let mut batched = [scene().0, scene().0];
    let mut rng = ChaCha8Rng::seed_from_u64(seed + 1);
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
        })
        .collect();
    for frame in 0..4 {
        let mut moves = Vec::new();
        for _ in 0..rng.random_range(5000..7000) {
            let k = rng.random_range(0..n);
            let Ok(body) = single.body(ids[k]) else {
                continue;
            };
            let t = if rng.random_range(0..20) == 0 {
                (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side
            } else {
                body.pose.translation() + random_unit(&mut rng) * 0.3
            };
            moves.push((ids[k], Pose::new(random_rotation(&mut rng), t).unwrap()));
        }
        moves.push(moves[0]);
        if frame % 2 == 0 {
            moves.insert(moves.len() / 3, (stale, at(1.0)));
            moves.insert(moves.len() / 2, (huge, at(3.3e38)));
        }
        let mut want_err = None;
        for &(id, pose) in &moves {
            if let Err(e) = single.set_pose(id, pose) {
                want_err.get_or_insert(e.to_string());
            }
        }
        assert_eq!(
            want_err.is_some(),
            frame % 2 == 0,
            "seed {seed} frame {frame}"
        );
        let want = single.step().unwrap();
        let want_pairs: Vec<_> = single.pairs().collect();
        for (world, pool) in batched.iter_mut().zip(&pools) {
            let at = format!(
                "seed {seed} frame {frame} threads {}",
                pool.current_num_threads()
            );
            let got = pool.install(|| world.set_poses(&moves));
            assert_eq!(got.err().map(|e| e.to_string()), want_err, "{at}");
            for &id in ids.iter().filter(|&&id| id != stale).chain([&huge]) {
                let (b, w) = (world.body(id).unwrap(), single.body(id).unwrap());
                assert_eq!(b.pose, w.pose, "{at}: pose of {id:?}");
                assert_eq!(
                    world.fat_bounds(id).unwrap(),
                    single.fat_bounds(id).unwrap(),
                    "{at}"
                );
            }
            let got = pool.install(|| world.step()).unwrap();
            let pairs: Vec<_> = world.pairs().collect();
            assert_eq!(pairs, want_pairs, "{at}: pairs");
            assert_eq!(got.manifolds, want.manifolds, "{at}: manifolds");
            assert_eq!(got.events, want.events, "{at}: events");
            for (p, q) in pairs.iter().zip(&want_pairs) {
                assert_eq!((p.a, p.b), (q.a, q.b), "{at}: pairs");
            }
        }
    }
}
