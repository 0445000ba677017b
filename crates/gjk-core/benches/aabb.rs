//! World bounds of each shape kind at 4096 random poses: the closed forms of
//! `SupportMap::aabb`, the six-support construction they replaced
//! (`aabb_from_supports`), and parry3d's `compute_aabb`, in one run. A broadphase
//! pays this for every moving body every step.
//!
//! Run: `cargo bench -p gjk-core --bench aabb`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gjk_core::glam::Vec3;
use gjk_core::support::aabb_from_supports;
use gjk_core::{Capsule, Cone, Cuboid, Cylinder, Pose, Rounded, Shape, Sphere, SupportMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use workloads::workload::{random_hull, random_rotation};

const POSES: usize = 4096;

fn benches(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let poses: Vec<Pose> = (0..POSES)
        .map(|_| {
            let t = Vec3::new(
                rng.random_range(-50.0..50.0),
                rng.random_range(-50.0..50.0),
                rng.random_range(-50.0..50.0),
            );
            Pose::new(random_rotation(&mut rng), t).unwrap()
        })
        .collect();
    let hull32 = Shape::ConvexHull(random_hull(&mut rng, 32).into());
    let kinds: Vec<(&str, Shape)> = vec![
        ("sphere", Sphere::new(0.5).unwrap().into()),
        (
            "cuboid",
            Cuboid::new(Vec3::new(0.5, 1.0, 0.75)).unwrap().into(),
        ),
        ("capsule", Capsule::new(0.75, 0.4).unwrap().into()),
        ("cylinder", Cylinder::new(0.75, 0.5).unwrap().into()),
        ("cone", Cone::new(0.75, 0.5).unwrap().into()),
        ("hull-32", hull32.clone()),
        (
            "rounded-hull-32",
            Shape::Rounded(Rounded::new(hull32, 0.1).unwrap().into()),
        ),
    ];
    for (name, shape) in &kinds {
        let mut g = c.benchmark_group(format!("aabb/{name}"));
        g.throughput(Throughput::Elements(POSES as u64));
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));
        g.bench_function("closed-form", |b| {
            b.iter(|| {
                for p in &poses {
                    black_box(black_box(shape).aabb(p));
                }
            })
        });
        g.bench_function("six-supports", |b| {
            b.iter(|| {
                for p in &poses {
                    black_box(aabb_from_supports(black_box(shape), p));
                }
            })
        });
        let parry_shape = workloads::parry::shape(shape);
        let parry_poses: Vec<_> = poses.iter().map(workloads::parry::pose).collect();
        g.bench_function("parry", |b| {
            b.iter(|| {
                for p in &parry_poses {
                    black_box(black_box(&parry_shape).compute_aabb(p));
                }
            })
        });
        g.finish();
    }
}

criterion_group!(aabb, benches);
criterion_main!(aabb);
