//! gjk-core (the scalar reference) against parry3d's pure GJK path on the standard
//! pairs (`BENCHMARKS.md`, section 1): same seeds, same shapes, same poses, one thread.
//!
//! "Pure GJK" is `parry3d::query::details::*_support_map_support_map` called with
//! concrete shape types on `pos1.inv_mul(pos2)`, as in the anchors; gjk-core is
//! called with concrete types too. Throughput is pairs per second.
//!
//! Run: `cargo bench --bench narrowphase` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use gjk_core::{Pose, Shape, SupportMap};
use parry3d::query::details as pq;
use parry3d::shape as ps;
use workloads::{PairKind, standard_pairs};

const PAIRS: usize = 16_384;

/// One kind's pairs, as concrete types for both libraries.
struct Workload<A, B, PA, PB> {
    ours: Vec<(A, Pose, B, Pose)>,
    theirs: Vec<(PA, PB, parry3d::math::Pose)>,
}

fn split<A, B, PA, PB>(
    kind: PairKind,
    ours: impl Fn(&Shape) -> A,
    theirs_a: impl Fn(&Shape) -> PA,
    theirs_b: impl Fn(&Shape) -> PB,
    ours_b: impl Fn(&Shape) -> B,
) -> Workload<A, B, PA, PB> {
    let pairs = standard_pairs(kind, PAIRS, 42);
    Workload {
        ours: pairs
            .iter()
            .map(|p| (ours(&p.a), p.pose_a, ours_b(&p.b), p.pose_b))
            .collect(),
        theirs: pairs
            .iter()
            .map(|p| {
                let pos12 =
                    workloads::parry::pose(&p.pose_a).inv_mul(&workloads::parry::pose(&p.pose_b));
                (theirs_a(&p.a), theirs_b(&p.b), pos12)
            })
            .collect(),
    }
}

fn run<A, B, PA, PB>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    kind: &str,
    w: &Workload<A, B, PA, PB>,
) where
    A: SupportMap,
    B: SupportMap,
    PA: parry3d::shape::SupportMap,
    PB: parry3d::shape::SupportMap,
{
    group.bench_function(format!("intersects/gjk-core/{kind}"), |b| {
        b.iter(|| {
            w.ours
                .iter()
                .filter(|(a, pa, s, pb)| gjk_core::intersects(a, pa, s, pb))
                .count()
        })
    });
    group.bench_function(format!("intersects/parry-gjk/{kind}"), |b| {
        b.iter(|| {
            w.theirs
                .iter()
                .filter(|(a, s, p)| pq::intersection_test_support_map_support_map(p, a, s))
                .count()
        })
    });
    group.bench_function(format!("distance/gjk-core/{kind}"), |b| {
        b.iter(|| {
            w.ours
                .iter()
                .map(|(a, pa, s, pb)| gjk_core::distance(a, pa, s, pb).distance)
                .sum::<f32>()
        })
    });
    group.bench_function(format!("distance/parry-gjk/{kind}"), |b| {
        b.iter(|| {
            w.theirs
                .iter()
                .map(|(a, s, p)| pq::distance_support_map_support_map(p, a, s))
                .sum::<f32>()
        })
    });
    group.bench_function(format!("contact/gjk-core/{kind}"), |b| {
        b.iter(|| {
            w.ours
                .iter()
                .filter_map(|(a, pa, s, pb)| gjk_core::contact(a, pa, s, pb, 0.0))
                .map(|c| c.depth)
                .sum::<f32>()
        })
    });
    group.bench_function(format!("contact/parry-gjk/{kind}"), |b| {
        b.iter(|| {
            w.theirs
                .iter()
                .filter_map(|(a, s, p)| pq::contact_support_map_support_map(p, a, s, 0.0))
                .map(|c| c.dist)
                .sum::<f32>()
        })
    });
    black_box(());
}

/// The concrete shape inside a `Shape` of a known kind.
macro_rules! concrete {
    ($($name:ident: $variant:ident => $ty:ty),* $(,)?) => {$(
        fn $name(s: &Shape) -> $ty {
            match s {
                Shape::$variant(x) => x.clone(),
                _ => unreachable!(concat!("standard pairs of this kind hold ", stringify!($variant))),
            }
        }
    )*};
}

concrete!(
    sphere: Sphere => gjk_core::Sphere,
    cuboid: Cuboid => gjk_core::Cuboid,
    capsule: Capsule => gjk_core::Capsule,
    hull: ConvexHull => std::sync::Arc<gjk_core::ConvexHull>,
);

fn p_ball(s: &Shape) -> ps::Ball {
    ps::Ball::new(sphere(s).radius())
}
fn p_cuboid(s: &Shape) -> ps::Cuboid {
    ps::Cuboid::new(cuboid(s).half_extents())
}
fn p_capsule(s: &Shape) -> ps::Capsule {
    let c = capsule(s);
    ps::Capsule::new_y(c.half_height(), c.radius())
}
/// A parry polyhedron shared by every pair that uses the same hull, as gjk-core's
/// `Arc<ConvexHull>` is: one copy per pair would cost parry cache misses ours
/// does not pay.
struct SharedPolyhedron(std::sync::Arc<ps::ConvexPolyhedron>);

impl ps::SupportMap for SharedPolyhedron {
    fn local_support_point(&self, dir: parry3d::math::Vector) -> parry3d::math::Vector {
        self.0.local_support_point(dir)
    }
}

thread_local! {
    static POLYHEDRA: std::cell::RefCell<Vec<(*const gjk_core::ConvexHull, std::sync::Arc<ps::ConvexPolyhedron>)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn p_hull(s: &Shape) -> SharedPolyhedron {
    let h = hull(s);
    let key = std::sync::Arc::as_ptr(&h);
    POLYHEDRA.with_borrow_mut(|cache| {
        if let Some((_, p)) = cache.iter().find(|(k, _)| *k == key) {
            return SharedPolyhedron(p.clone());
        }
        let p = std::sync::Arc::new(
            ps::ConvexPolyhedron::from_convex_hull(h.vertices()).expect("same hull"),
        );
        cache.push((key, p.clone()));
        SharedPolyhedron(p)
    })
}

fn narrowphase(c: &mut Criterion) {
    let mut group = c.benchmark_group("narrowphase");
    group.throughput(Throughput::Elements(PAIRS as u64));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    run(
        &mut group,
        "ball-ball",
        &split(PairKind::BallBall, sphere, p_ball, p_ball, sphere),
    );
    run(
        &mut group,
        "cuboid-cuboid",
        &split(PairKind::CuboidCuboid, cuboid, p_cuboid, p_cuboid, cuboid),
    );
    run(
        &mut group,
        "capsule-capsule",
        &split(
            PairKind::CapsuleCapsule,
            capsule,
            p_capsule,
            p_capsule,
            capsule,
        ),
    );
    run(
        &mut group,
        "hull-hull",
        &split(PairKind::HullHull, hull, p_hull, p_hull, hull),
    );
    run(
        &mut group,
        "cuboid-hull",
        &split(PairKind::CuboidHull, cuboid, p_cuboid, p_hull, hull),
    );
    group.finish();
}

criterion_group!(benches, narrowphase);
criterion_main!(benches);
