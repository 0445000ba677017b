//! Contact manifolds: gjk-core's scalar reference (`contact` then
//! `manifold_from_contact`, one scratch for all pairs) against parry3d's
//! `contact_manifolds` (its default dispatcher, prediction 0), on the standard
//! pairs of each kind (`BENCHMARKS.md`, section 1), one thread, in the same run.
//! The baseline the wide manifolds are measured against.
//!
//! parry gets a fresh manifold per pair: its persistence would otherwise find the
//! pose unchanged since the last call on the same pair and return the old points
//! without a query, which the benchmark's repeated calls would make the common case.
//!
//! Run: `cargo bench --bench manifolds`.

use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gjk_core::{ManifoldScratch, contact, manifold_from_contact};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use workloads::{PairKind, standard_pairs};

const PAIRS: usize = 4096;

fn benches(c: &mut Criterion) {
    for kind in PairKind::ALL {
        let pairs = standard_pairs(kind, PAIRS, 42);
        let theirs: Vec<_> = pairs
            .iter()
            .map(|p| {
                let pos12 =
                    workloads::parry::pose(&p.pose_a).inv_mul(&workloads::parry::pose(&p.pose_b));
                (
                    workloads::parry::shape(&p.a),
                    workloads::parry::shape(&p.b),
                    pos12,
                )
            })
            .collect();
        let mut g = c.benchmark_group(format!("manifolds/{}", kind.name()));
        g.throughput(Throughput::Elements(PAIRS as u64));
        g.warm_up_time(Duration::from_secs(1));
        g.measurement_time(Duration::from_secs(3));
        g.bench_function("gjk-core", |b| {
            let mut scratch = ManifoldScratch::default();
            b.iter(|| {
                let mut points = 0;
                for p in &pairs {
                    if let Some(c) = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0) {
                        let m = manifold_from_contact(
                            &p.a,
                            &p.pose_a,
                            &p.b,
                            &p.pose_b,
                            &c,
                            0.0,
                            &mut scratch,
                        );
                        points += m.len();
                    }
                }
                points
            })
        });
        g.bench_function("parry", |b| {
            b.iter(|| {
                let mut points = 0;
                let mut workspace = None;
                for (a, s, pos12) in &theirs {
                    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
                    DefaultQueryDispatcher
                        .contact_manifolds(pos12, &**a, &**s, 0.0, &mut manifolds, &mut workspace)
                        .expect("convex pairs are supported");
                    points += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
                }
                points
            })
        });
        g.finish();
    }
}

criterion_group!(manifold_benches, benches);
criterion_main!(manifold_benches);
