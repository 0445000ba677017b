//! The contact query on the standard pairs (`BENCHMARKS.md`, section 1), one thread
//! unless named: the x8 batch driver (`contact_batch`, prediction 0) against
//! gjk-core's scalar `contact` and parry3d's `query::contact` dispatcher, on the
//! same 16,384 pairs per kind in the same run; then the driver on two threads.
//!
//! Run: `cargo bench -p gjk-simd --bench contact_x8` (add `-- --quick` for a fast
//! pass, or a filter such as `contact/hull-hull`).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gjk_simd::{Parallelism, contact_batch};
use workloads::PairKind;
use workloads::parry::PairColumns;

const PAIRS: usize = 16_384;

fn workload(kind: PairKind) -> PairColumns {
    PairColumns::standard(kind, PAIRS, 42)
}

fn benches(c: &mut Criterion) {
    let kinds = [
        PairKind::BallBall,
        PairKind::CuboidCuboid,
        PairKind::CapsuleCapsule,
        PairKind::CylinderCylinder,
        PairKind::ConeCone,
        PairKind::HullHull,
        PairKind::CuboidHull,
        PairKind::RoundedRounded,
        PairKind::Mixed,
    ];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for kind in kinds {
        let w = workload(kind);
        let mut g = c.benchmark_group(format!("contact/{}", kind.name()));
        g.throughput(Throughput::Elements(PAIRS as u64));
        g.bench_function("x8-batch", |bch| {
            bch.iter(|| {
                let r = contact_batch(
                    &w.a,
                    &w.poses_a,
                    &w.b,
                    &w.poses_b,
                    0.0,
                    Parallelism::Sequential,
                );
                black_box(r.unwrap().len())
            })
        });
        g.bench_function("gjk-core", |bch| {
            bch.iter(|| {
                let mut found = 0usize;
                for i in 0..PAIRS {
                    let (a, pa, b, pb) = (&w.a[i], &w.poses_a[i], &w.b[i], &w.poses_b[i]);
                    found += usize::from(gjk_core::contact(a, pa, b, pb, 0.0).is_some());
                }
                black_box(found)
            })
        });
        g.bench_function("parry-dispatcher", |bch| {
            bch.iter(|| {
                let mut found = 0usize;
                for (a, pa, b, pb) in &w.parry {
                    let c = parry3d::query::contact(pa, &**a, pb, &**b, 0.0);
                    found += usize::from(matches!(c, Ok(Some(_))));
                }
                black_box(found)
            })
        });
        // A call from a thread of a two-thread pool (as from a physics step
        // running on the pool).
        g.bench_function("x8-batch-2-threads-in-pool", |bch| {
            pool.install(|| {
                bch.iter(|| {
                    let par = Parallelism::default();
                    let r = contact_batch(&w.a, &w.poses_a, &w.b, &w.poses_b, 0.0, par);
                    black_box(r.unwrap().len())
                })
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = contact;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(contact);
