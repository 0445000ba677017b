//! Contact manifolds on the standard pairs, one thread: the x8 batch driver
//! (`manifold_batch`) against the wide contact batch followed by gjk-core's
//! scalar `manifold_from_contact` per pair in contact (what `World` ran before
//! the wide manifolds), and against parry3d's `contact_manifolds` with each
//! pair's manifolds and workspace kept from one call to the next (as its
//! narrowphase keeps them from step to step), on the same 16,384 pairs per kind
//! in the same run, prediction 0 for all three; and the same on boxes resting
//! on boxes (`workloads::resting::resting_boxes`), the contact a solver sees most.
//!
//! Run: `cargo bench -p gjk-simd --bench manifold_x8` (add `-- --quick` for a
//! fast pass, or a filter such as `manifold/hull-hull`).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gjk_core::{ManifoldScratch, manifold_from_contact};
use gjk_simd::{Parallelism, contact_batch, manifold_batch};
use parry3d::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use workloads::PairKind;
use workloads::parry::PairColumns;
use workloads::resting::resting_boxes;

const PAIRS: usize = 16_384;

fn workload(kind: PairKind) -> PairColumns {
    PairColumns::standard(kind, PAIRS, 42)
}

/// What parry's narrowphase keeps per pair between steps.
type ParryState = (
    Vec<ContactManifold<(), ()>>,
    Option<ContactManifoldsWorkspace>,
);

fn benches(c: &mut Criterion) {
    for kind in PairKind::ALL {
        bench_pairs(c, kind.name(), &workload(kind));
    }
    let resting = PairColumns::from_pairs(&resting_boxes(PAIRS, 42));
    bench_pairs(c, "resting-boxes", &resting);
}

/// The three manifold paths on the pairs of `w`, as the group `manifold/{name}`.
fn bench_pairs(c: &mut Criterion, name: &str, w: &PairColumns) {
    let mut g = c.benchmark_group(format!("manifold/{name}"));
    g.throughput(Throughput::Elements(PAIRS as u64));
    g.bench_function("x8-batch", |bch| {
        bch.iter(|| {
            let r = manifold_batch(
                &w.a,
                &w.poses_a,
                &w.b,
                &w.poses_b,
                0.0,
                Parallelism::Sequential,
            );
            let points: usize = r.unwrap().iter().flatten().map(|m| m.len()).sum();
            black_box(points)
        })
    });
    let mut scratch = ManifoldScratch::default();
    g.bench_function("x8-contact-then-scalar", |bch| {
        bch.iter(|| {
            let (a, pa, b, pb) = (&w.a, &w.poses_a, &w.b, &w.poses_b);
            let contacts = contact_batch(a, pa, b, pb, 0.0, Parallelism::Sequential).unwrap();
            let mut points = 0usize;
            for (i, c) in contacts.iter().enumerate() {
                if let Some(c) = c {
                    let m =
                        manifold_from_contact(&a[i], &pa[i], &b[i], &pb[i], c, 0.0, &mut scratch);
                    points += m.len();
                }
            }
            black_box(points)
        })
    });
    let mut state: Vec<ParryState> = (0..PAIRS).map(|_| (Vec::new(), None)).collect();
    g.bench_function("parry-contact-manifolds", |bch| {
        bch.iter(|| {
            let mut points = 0usize;
            for ((a, pa, b, pb), (manifolds, workspace)) in w.parry.iter().zip(&mut state) {
                let pos12 = pa.inv_mul(pb);
                DefaultQueryDispatcher
                    .contact_manifolds(&pos12, &**a, &**b, 0.0, manifolds, workspace)
                    .unwrap();
                points += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
            }
            black_box(points)
        })
    });
    g.finish();
}

criterion_group! {
    name = manifold;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(manifold);
