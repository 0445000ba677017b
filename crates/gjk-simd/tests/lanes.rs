//! Lane independence, adversarial lanes, NaN lanes and API edge cases.

mod common;

use common::{hulls, pairs, rounded, shape};
use gjk_core::glam::{Quat, Vec3};
use gjk_core::tolerance::GJK_TRIPS_PER_ROUND_X8;
use gjk_core::{
    Capsule, Cone, Cuboid, Cylinder, Distance, Intersection, Pose, Shape, Sphere, Status,
};
use gjk_simd::{
    BatchError, BatchOptions, ConeX8, ConvexHullX8, CuboidX8, CylinderX8, MaskX8, Parallelism,
    PoseX8, distance_batch, distance_batch_with, distance_x8, intersects_batch,
    intersects_batch_with, intersects_x8,
};
use rand::Rng;

fn bits_d(d: &Distance) -> [u32; 12] {
    [
        d.distance.to_bits(),
        d.point_a.x.to_bits(),
        d.point_a.y.to_bits(),
        d.point_a.z.to_bits(),
        d.point_b.x.to_bits(),
        d.point_b.y.to_bits(),
        d.point_b.z.to_bits(),
        d.normal.x.to_bits(),
        d.normal.y.to_bits(),
        d.normal.z.to_bits(),
        d.iterations,
        d.status as u32,
    ]
}

fn bits_i(i: &Intersection) -> (bool, u32, u32) {
    (i.intersecting, i.iterations, i.status as u32)
}

/// Easy, hard, degenerate and far neighbours of every kind, including Rounded.
fn neighbourhood() -> common::Pairs {
    let hulls = hulls(3, 8);
    pairs(
        0x1A9E,
        600,
        |rng, i| {
            let a = shape(rng, i % 6, &hulls);
            let b = shape(rng, (i / 6) % 6, &hulls);
            if i % 7 == 3 {
                (rounded(rng, a), b)
            } else {
                (a, b)
            }
        },
        1000.0,
    )
}

#[test]
fn results_do_not_depend_on_neighbours_order_chunking_or_threads() {
    let p = neighbourhood();
    let n = p.len();
    // Each pair alone.
    let alone_d: Vec<Distance> = (0..n)
        .map(|i| {
            distance_batch(
                &p.shapes_a[i..=i],
                &p.poses_a[i..=i],
                &p.shapes_b[i..=i],
                &p.poses_b[i..=i],
                Parallelism::Sequential,
            )
            .unwrap()[0]
        })
        .collect();
    let alone_i: Vec<Intersection> = (0..n)
        .map(|i| {
            intersects_batch(
                &p.shapes_a[i..=i],
                &p.poses_a[i..=i],
                &p.shapes_b[i..=i],
                &p.poses_b[i..=i],
                Parallelism::Sequential,
            )
            .unwrap()[0]
        })
        .collect();
    let mut rng = common::rng(99);
    // Batch lengths 1..=17 over a random permutation, sequential and 1/2 threads.
    let mut perm: Vec<usize> = (0..n).collect();
    for k in (1..n).rev() {
        perm.swap(k, rng.random_range(0..=k));
    }
    let pools = [1, 2].map(|t| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .unwrap()
    });
    for len in 1..=17usize {
        for (start, chunk) in perm.chunks(len * 3).enumerate().take(4) {
            let _ = start;
            let sa: Vec<&Shape> = chunk.iter().map(|&i| &p.shapes_a[i]).collect();
            let sb: Vec<&Shape> = chunk.iter().map(|&i| &p.shapes_b[i]).collect();
            let pa: Vec<Pose> = chunk.iter().map(|&i| p.poses_a[i]).collect();
            let pb: Vec<Pose> = chunk.iter().map(|&i| p.poses_b[i]).collect();
            for (t, pool) in pools.iter().enumerate() {
                let par = if t == 0 && len % 2 == 0 {
                    Parallelism::Sequential
                } else {
                    Parallelism::Rayon {
                        batches_per_task: len % 3,
                    }
                };
                let (d, b) = pool.install(|| {
                    (
                        distance_batch(&sa, &pa, &sb, &pb, par).unwrap(),
                        intersects_batch(&sa, &pa, &sb, &pb, par).unwrap(),
                    )
                });
                for (k, &i) in chunk.iter().enumerate() {
                    assert_eq!(
                        bits_d(&d[k]),
                        bits_d(&alone_d[i]),
                        "pair {i} len {len} threads {}",
                        t + 1
                    );
                    assert_eq!(bits_i(&b[k]), bits_i(&alone_i[i]), "pair {i} len {len}");
                }
            }
        }
    }
    // Everything at once, 2 threads, small tasks.
    let d = pools[1]
        .install(|| {
            distance_batch(
                &p.shapes_a,
                &p.poses_a,
                &p.shapes_b,
                &p.poses_b,
                Parallelism::Rayon {
                    batches_per_task: 1,
                },
            )
        })
        .unwrap();
    for i in 0..n {
        assert_eq!(bits_d(&d[i]), bits_d(&alone_d[i]), "pair {i}");
    }
}

/// Hull buckets long enough to be sorted by closeness (the driver reorders
/// their pairs by how near their balls put them to touching): every pair's answer
/// is still bit-identical to its answer alone, on one thread and on two, and with
/// the pairs reversed, with early outs on and off.
///
/// The sort runs on buckets of at least 1,024 pairs within one block of 8,192:
/// with early outs off every pair of the first block stays in its bucket (about
/// 2,700 each); with them on, 2,250 to 2,670 remained when this test was
/// written.
#[test]
fn long_hull_runs_keep_each_pairs_answer() {
    let hulls = hulls(11, 3);
    // Hull-hull, hull-sphere and hull-cylinder: three buckets of about 3,000
    // pairs, over at most nine hull pairs.
    let seed = 0xC105E;
    let p = pairs(
        seed,
        9_000,
        |rng, i| {
            let a = shape(rng, 5, &hulls);
            let b = shape(rng, [5, 0, 3][i % 3], &hulls);
            (a, b)
        },
        50.0,
    );
    let n = p.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let reversed: Vec<usize> = (0..n).rev().collect();
    let forward: Vec<usize> = (0..n).collect();
    for early_outs in [true, false] {
        let options = |parallelism| BatchOptions {
            parallelism,
            early_outs,
            ..BatchOptions::default()
        };
        let alone = |i: usize| {
            let (sa, pa) = (&p.shapes_a[i..=i], &p.poses_a[i..=i]);
            let (sb, pb) = (&p.shapes_b[i..=i], &p.poses_b[i..=i]);
            let one = options(Parallelism::Sequential);
            (
                distance_batch_with(sa, pa, sb, pb, one).unwrap()[0],
                intersects_batch_with(sa, pa, sb, pb, one).unwrap()[0],
            )
        };
        let alone: Vec<(Distance, Intersection)> = (0..n).map(alone).collect();
        for (order, what) in [(&forward, "forward"), (&reversed, "reversed")] {
            let sa: Vec<&Shape> = order.iter().map(|&i| &p.shapes_a[i]).collect();
            let sb: Vec<&Shape> = order.iter().map(|&i| &p.shapes_b[i]).collect();
            let pa: Vec<Pose> = order.iter().map(|&i| p.poses_a[i]).collect();
            let pb: Vec<Pose> = order.iter().map(|&i| p.poses_b[i]).collect();
            for par in [
                Parallelism::Sequential,
                Parallelism::Rayon {
                    batches_per_task: 2,
                },
            ] {
                let (d, b) = pool.install(|| {
                    (
                        distance_batch_with(&sa, &pa, &sb, &pb, options(par)).unwrap(),
                        intersects_batch_with(&sa, &pa, &sb, &pb, options(par)).unwrap(),
                    )
                });
                for (k, &i) in order.iter().enumerate() {
                    let case = format!(
                        "seed {seed:#x} pair {i} ({what}, {par:?}, early outs {early_outs})"
                    );
                    assert_eq!(bits_d(&d[k]), bits_d(&alone[i].0), "{case}");
                    assert_eq!(bits_i(&b[k]), bits_i(&alone[i].1), "{case}");
                }
            }
        }
    }
}

#[test]
fn nan_lane_is_invalid_and_does_not_disturb_neighbours() {
    let hulls = hulls(5, 8);
    let p = pairs(
        0xA11,
        8,
        |rng, _| (shape(rng, 1, &hulls), shape(rng, 1, &hulls)),
        3.0,
    );
    let cubes: [Cuboid; 8] = std::array::from_fn(|i| match &p.shapes_a[i] {
        Shape::Cuboid(c) => *c,
        _ => unreachable!(),
    });
    let others: [Cuboid; 8] = std::array::from_fn(|i| match &p.shapes_b[i] {
        Shape::Cuboid(c) => *c,
        _ => unreachable!(),
    });
    let a = CuboidX8::from_array(cubes);
    let b = CuboidX8::from_array(others);
    let pa = PoseX8::from_slice(&p.poses_a);
    let pb = PoseX8::from_slice(&p.poses_b);
    let clean_d = distance_x8(&a, &pa, &b, &pb, MaskX8::ALL);
    let clean_i = intersects_x8(&a, &pa, &b, &pb, MaskX8::ALL);
    // Poison lane 3's pose of B and lane 6's pose of A. (A shape lane cannot be
    // poisoned: the wide shapes validate their lanes.)
    let mut bad_pose = pb;
    bad_pose.translation.x.as_mut_array()[3] = f32::NAN;
    let mut bad_pose_a = pa;
    bad_pose_a.rotation.y.as_mut_array()[6] = f32::INFINITY;
    let mut he = a.half_extents();
    he.y.as_mut_array()[6] = f32::INFINITY;
    assert_eq!(
        CuboidX8::new(he),
        Err(gjk_core::ShapeError::NotFinite {
            shape: "CuboidX8",
            field: "half_extents.y"
        })
    );
    he.y.as_mut_array()[6] = -1.0;
    assert!(matches!(
        CuboidX8::new(he),
        Err(gjk_core::ShapeError::Negative { .. })
    ));
    let d = distance_x8(&a, &bad_pose_a, &b, &bad_pose, MaskX8::ALL);
    let i = intersects_x8(&a, &bad_pose_a, &b, &bad_pose, MaskX8::ALL);
    for lane in 0..8 {
        if lane == 3 || lane == 6 {
            assert_eq!(d.status[lane], Status::InvalidInput);
            assert_eq!(i.status[lane], Status::InvalidInput);
            assert!(d.distance.as_array()[lane].is_nan());
            assert!(!i.intersecting.lane(lane));
            assert_eq!(d.iterations[lane], 0);
        } else {
            assert_eq!(
                bits_d(&d.lane(lane)),
                bits_d(&clean_d.lane(lane)),
                "lane {lane}"
            );
            assert_eq!(i.lane(lane), clean_i.lane(lane));
        }
    }
    // All lanes NaN: terminates at once.
    let all_nan = PoseX8::from_slice(&[]);
    let mut nan = all_nan;
    nan.translation.x = gjk_simd::math::f32x8::splat(f32::NAN);
    let r = distance_x8(&a, &nan, &b, &pb, MaskX8::ALL);
    assert!(r.status.iter().all(|s| *s == Status::InvalidInput));
    // Lanes outside the mask are not computed.
    let r = intersects_x8(&a, &pa, &b, &pb, MaskX8::first(3));
    assert_eq!(r.status[5], Status::InvalidInput);
    assert_eq!(r.iterations[5], 0);
    // Empty and NaN hull lanes.
    let verts = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let nan_verts = [Vec3::ZERO, Vec3::X, Vec3::NAN, Vec3::Z];
    let h = ConvexHullX8::from_vertices(&[&verts, &nan_verts, &[]]);
    let r = intersects_x8(&h, &PoseX8::IDENTITY, &h, &PoseX8::IDENTITY, MaskX8::ALL);
    assert_eq!(r.status[0], Status::Converged);
    assert!(r.intersecting.lane(0));
    assert_eq!(r.status[1], Status::InvalidInput);
    assert_eq!(r.status[2], Status::InvalidInput);
}

fn at(q: Quat, t: Vec3) -> Pose {
    Pose::new(q, t).unwrap()
}

/// One adversarial pair through the driver and through gjk-core.
fn agree(a: Shape, pa: Pose, b: Shape, pb: Pose, what: &str) -> (Distance, Intersection) {
    let d = distance_batch(&[&a], &[pa], &[&b], &[pb], Parallelism::Sequential).unwrap()[0];
    let i = intersects_batch(&[&a], &[pa], &[&b], &[pb], Parallelism::Sequential).unwrap()[0];
    let cd = gjk_core::distance(&a, &pa, &b, &pb);
    let ci = gjk_core::intersection(&a, &pa, &b, &pb);
    assert!(
        (d.distance - cd.distance).abs() <= 1e-5 + 1e-5 * cd.distance,
        "{what}: simd {d:?} core {cd:?}"
    );
    assert_eq!(d.status, gjk_core::Status::Converged, "{what}: {d:?}");
    if cd.distance > 1e-4 || cd.distance == 0.0 && ci.intersecting {
        assert_eq!(
            i.intersecting, ci.intersecting,
            "{what}: simd {i:?} core {ci:?}"
        );
    }
    (d, i)
}

#[test]
fn adversarial_lanes() {
    let id = Quat::IDENTITY;
    let cube: Shape = Cuboid::new(Vec3::ONE).unwrap().into();
    let ball: Shape = Sphere::new(0.5).unwrap().into();
    let thin: Shape = Cuboid::new(Vec3::new(2.0, 1e-4, 2.0)).unwrap().into();
    let dot_capsule: Shape = Capsule::new(0.0, 0.5).unwrap().into();

    // Touching faces: exactly kissing boxes intersect (touch counts), and distance 0.
    let (d, i) = agree(
        cube.clone(),
        at(id, Vec3::ZERO),
        cube.clone(),
        at(id, Vec3::new(2.0, 0.0, 0.0)),
        "kissing boxes",
    );
    assert!(i.intersecting && d.distance == 0.0);
    // Just apart / just overlapping by 1e-3.
    let (d, _) = agree(
        cube.clone(),
        at(id, Vec3::ZERO),
        ball.clone(),
        at(id, Vec3::new(1.501, 0.3, 0.2)),
        "near touch",
    );
    assert!((d.distance - 1e-3).abs() < 1e-5);
    agree(
        cube.clone(),
        at(id, Vec3::ZERO),
        ball.clone(),
        at(id, Vec3::new(1.499, 0.3, 0.2)),
        "shallow",
    );
    // Deep and coincident.
    agree(
        cube.clone(),
        at(id, Vec3::ZERO),
        cube.clone(),
        at(Quat::from_rotation_y(0.3), Vec3::new(0.1, 0.0, 0.0)),
        "deep",
    );
    let (d, i) = agree(
        cube.clone(),
        at(id, Vec3::ZERO),
        cube.clone(),
        at(id, Vec3::ZERO),
        "coincident",
    );
    assert!(i.intersecting && d.distance == 0.0 && d.point_a == d.point_b);
    // Thin boxes, above each other and crossing.
    agree(
        thin.clone(),
        at(id, Vec3::ZERO),
        thin.clone(),
        at(Quat::from_rotation_y(0.7), Vec3::new(0.5, 0.01, 0.0)),
        "thin apart",
    );
    agree(
        thin.clone(),
        at(id, Vec3::ZERO),
        thin.clone(),
        at(Quat::from_rotation_x(1.0), Vec3::new(0.5, 0.0, 0.0)),
        "thin crossing",
    );
    // Zero-length capsule segments (capsule = ball).
    let (d, _) = agree(
        dot_capsule.clone(),
        at(id, Vec3::ZERO),
        dot_capsule.clone(),
        at(Quat::from_rotation_z(0.4), Vec3::new(0.0, 3.0, 0.0)),
        "zero capsules",
    );
    assert!((d.distance - 2.0).abs() < 1e-5);
    // Far from the origin: same answer as near it (pair-local frame).
    let far = Vec3::new(1e5, -2e5, 3e5);
    let q = Quat::from_rotation_y(0.5) * Quat::from_rotation_x(0.2);
    let (near_d, _) = agree(
        cube.clone(),
        at(q, Vec3::ZERO),
        ball.clone(),
        at(id, Vec3::new(2.25, 0.375, 0.125)),
        "near origin",
    );
    let (far_d, _) = agree(
        cube.clone(),
        at(q, far),
        ball.clone(),
        at(id, far + Vec3::new(2.25, 0.375, 0.125)),
        "far from origin",
    );
    // The offset is exactly representable at 3e5, so the relative pose is exact.
    assert!(
        (near_d.distance - far_d.distance).abs() < 1e-5,
        "{near_d:?} {far_d:?}"
    );
    // Huge and tiny shapes.
    let big: Shape = Cuboid::new(Vec3::splat(1e4)).unwrap().into();
    agree(
        big.clone(),
        at(id, Vec3::ZERO),
        big,
        at(q, Vec3::new(2.5e4, 1e3, 0.0)),
        "huge boxes",
    );
    let tiny: Shape = Cuboid::new(Vec3::splat(1e-4)).unwrap().into();
    agree(
        tiny.clone(),
        at(id, Vec3::ZERO),
        tiny,
        at(q, Vec3::new(3e-4, 0.0, 1e-5)),
        "tiny boxes",
    );
}

#[test]
fn api_edge_cases() {
    let none: [&Shape; 0] = [];
    assert!(
        intersects_batch(&none, &[], &none, &[], Parallelism::default())
            .unwrap()
            .is_empty()
    );
    assert!(
        distance_batch(&none, &[], &none, &[], Parallelism::Sequential)
            .unwrap()
            .is_empty()
    );
    let s: Shape = Sphere::new(1.0).unwrap().into();
    let err = distance_batch(
        &[&s, &s],
        &[Pose::IDENTITY],
        &[&s, &s],
        &[Pose::IDENTITY; 2],
        Parallelism::Sequential,
    )
    .unwrap_err();
    assert_eq!(
        err,
        BatchError::LengthMismatch {
            shapes_a: 2,
            poses_a: 1,
            shapes_b: 2,
            poses_b: 2
        }
    );
    assert!(err.to_string().contains("poses_a 1"));
    // Overflowing relative pose: validated but extreme input never panics.
    let big = Pose::from_translation(Vec3::splat(3e38)).unwrap();
    let small = Pose::from_translation(Vec3::splat(-3e38)).unwrap();
    let d = distance_batch(&[&s], &[big], &[&s], &[small], Parallelism::Sequential).unwrap();
    assert_ne!(d[0].status, gjk_core::Status::Converged);
}

/// The driver writes each distance answer as machine words in `Distance`'s field
/// order (two vector stores a pair): every field must come out as the kernel's
/// lane has it, iteration counts and statuses included (an invalid lane among
/// them: a relative pose that overflows f32).
#[test]
fn driver_writes_the_kernels_answers_field_by_field() {
    let seed = 0x5107;
    let mut rng = common::rng(seed);
    let boxes: [Cuboid; 8] = std::array::from_fn(|_| {
        Cuboid::new(Vec3::new(
            rng.random_range(0.1..2.0),
            rng.random_range(0.1..2.0),
            rng.random_range(0.1..2.0),
        ))
        .unwrap()
    });
    let mut poses = |k: usize| {
        let t = Vec3::new(
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
            rng.random_range(-3.0..3.0),
        );
        // Lane 6: each pose finite, B - A overflows.
        let t = if k == 6 { t.normalize() * 3e38 } else { t };
        (
            at(common::rotation(&mut rng), t),
            at(common::rotation(&mut rng), -t),
        )
    };
    let (pa, pb): (Vec<Pose>, Vec<Pose>) = (0..8).map(&mut poses).unzip();
    let shapes: Vec<Shape> = boxes.iter().map(|&b| Shape::Cuboid(b)).collect();
    let options = gjk_simd::BatchOptions {
        parallelism: Parallelism::Sequential,
        early_outs: false,
        closed_forms: false,
    };
    let d = gjk_simd::distance_batch_with(&shapes, &pa, &shapes, &pb, options).unwrap();
    let cub = CuboidX8::from_array(boxes);
    let (wa, wb) = (
        PoseX8::from_array(pa.clone().try_into().unwrap()),
        PoseX8::from_array(pb.clone().try_into().unwrap()),
    );
    let r = distance_x8(&cub, &wa, &cub, &wb, MaskX8::ALL);
    assert_eq!(r.status[6], Status::InvalidInput);
    assert!(r.iterations.iter().any(|&it| it > 2));
    for (k, dk) in d.iter().enumerate() {
        assert_eq!(bits_d(dk), bits_d(&r.lane(k)), "seed {seed:#x}, lane {k}");
    }
}

/// The batch driver runs the distance's GJK in rounds and regroups the lanes
/// still running after each (`GJK_TRIPS_PER_ROUND_X8`): a lane's loop goes on in
/// another batch where it stopped. On cylinders and cones posed around contact,
/// whose loops take from a few trips to several rounds, every pair's answer is
/// bit for bit the kernel's on the same eight pairs, whose loops run unbroken.
#[test]
fn regrouped_loops_answer_as_unbroken_ones() {
    let seed = 0x6E0D;
    let mut rng = common::rng(seed);
    let n = 512;
    let mut size = || (rng.random_range(0.3..1.5f32), rng.random_range(0.3..1.5f32));
    let cylinders: Vec<Cylinder> = (0..n)
        .map(|_| {
            let (h, r) = size();
            Cylinder::new(h, r).unwrap()
        })
        .collect();
    let cones: Vec<Cone> = (0..n)
        .map(|_| {
            let (h, r) = size();
            Cone::new(h, r).unwrap()
        })
        .collect();
    let poses: Vec<(Pose, Pose)> = (0..n)
        .map(|_| {
            let t = Vec3::new(
                rng.random_range(-2.5..2.5),
                rng.random_range(-2.5..2.5),
                rng.random_range(-2.5..2.5),
            );
            (
                at(common::rotation(&mut rng), Vec3::ZERO),
                at(common::rotation(&mut rng), t),
            )
        })
        .collect();
    let (pa, pb): (Vec<Pose>, Vec<Pose>) = poses.iter().copied().unzip();
    let options = gjk_simd::BatchOptions {
        parallelism: Parallelism::Sequential,
        early_outs: false,
        closed_forms: false,
    };
    let eight = |k: usize| -> (PoseX8, PoseX8) {
        (
            PoseX8::from_array(pa[k..k + 8].try_into().unwrap()),
            PoseX8::from_array(pb[k..k + 8].try_into().unwrap()),
        )
    };
    let check = |what: &str, d: &[Distance], unbroken: &dyn Fn(usize) -> gjk_simd::DistanceX8| {
        let mut regrouped = 0;
        for k in (0..n).step_by(8) {
            let r = unbroken(k);
            for lane in 0..8 {
                let i = k + lane;
                regrouped += usize::from(d[i].iterations > 1 + GJK_TRIPS_PER_ROUND_X8);
                assert_eq!(
                    bits_d(&d[i]),
                    bits_d(&r.lane(lane)),
                    "{what}: seed {seed:#x}, pair {i}: batch {:?}, kernel {:?}",
                    d[i],
                    r.lane(lane)
                );
            }
        }
        // The rounds were exercised: many loops outlived their first round.
        assert!(
            regrouped > n / 8,
            "{what}: only {regrouped} loops regrouped"
        );
    };
    let shapes: Vec<Shape> = cylinders.iter().map(|&c| Shape::Cylinder(c)).collect();
    let d = gjk_simd::distance_batch_with(&shapes, &pa, &shapes, &pb, options).unwrap();
    check("cylinders", &d, &|k| {
        let c = CylinderX8::from_array(cylinders[k..k + 8].try_into().unwrap());
        let (wa, wb) = eight(k);
        distance_x8(&c, &wa, &c, &wb, MaskX8::ALL)
    });
    let cone_shapes: Vec<Shape> = cones.iter().map(|&c| Shape::Cone(c)).collect();
    let d = gjk_simd::distance_batch_with(&cone_shapes, &pa, &shapes, &pb, options).unwrap();
    check("cone-cylinder", &d, &|k| {
        let a = ConeX8::from_array(cones[k..k + 8].try_into().unwrap());
        let b = CylinderX8::from_array(cylinders[k..k + 8].try_into().unwrap());
        let (wa, wb) = eight(k);
        distance_x8(&a, &wa, &b, &wb, MaskX8::ALL)
    });
}
