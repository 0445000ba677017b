//! Where hill climbing over vertex adjacency starts to beat a linear scan, for the
//! `HULL_HILL_CLIMB_MIN_VERTICES` threshold in gjk-core's tolerance module.
//!
//! Directions drift slowly from call to call, as GJK's do between iterations, and
//! the climb is warm-started from the previous answer.
//!
//! Run: `cargo bench --bench hull_support`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gjk_core::glam::Vec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use workloads::workload::{random_hull, random_unit};

fn hull_support(c: &mut Criterion) {
    let mut group = c.benchmark_group("hull_support");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let dirs: Vec<Vec3> = {
        let mut d = random_unit(&mut rng);
        (0..4096)
            .map(|_| {
                d = (d + random_unit(&mut rng) * 0.3).normalize();
                if rng.random_bool(0.1) {
                    d = random_unit(&mut rng);
                }
                d
            })
            .collect()
    };
    group.throughput(Throughput::Elements(dirs.len() as u64));
    for points in [12usize, 24, 32, 48, 64, 128, 256, 1024] {
        let hull = random_hull(&mut rng, points);
        let n = hull.vertices().len();
        group.bench_with_input(BenchmarkId::new("scan", n), &hull, |b, h| {
            b.iter(|| {
                dirs.iter()
                    .map(|&d| h.support_index_scan(black_box(d)))
                    .sum::<usize>()
            })
        });
        group.bench_with_input(BenchmarkId::new("climb", n), &hull, |b, h| {
            b.iter(|| {
                let mut hint = 0;
                dirs.iter()
                    .map(|&d| {
                        hint = h.support_index_climb(black_box(d), hint);
                        hint
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, hull_support);
criterion_main!(benches);
