//! Narrowphase throughput on the standard pairs (`BENCHMARKS.md`, section 1), one thread:
//! gjk-core scalar, the x8 kernels on pre-packed data, the x8 batch driver end to
//! end (bucketing, packing and scattering included) as users call it and with its
//! early outs and closed forms off (`x8-batch-gjk-only`), parry3d's pure GJK path
//! and parry3d's dispatcher, then the batch driver on 2 threads.
//!
//! Every benchmark processes all 16,384 pairs of a workload per iteration; criterion
//! reports elements (pairs) per second. With `NX8_ALTERNATE=rounds` set, criterion
//! is skipped and the batch driver (one thread, and two threads on a pool, cold and
//! warm) and parry's pure GJK path are timed in alternation on the standard kinds
//! instead (best and median pass of each, see `alternate`): the ratios to trust on
//! a machine whose speed drifts.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gjk_core::glam::Vec3;
use gjk_core::{Capsule, ConvexHull, Cuboid, Pose, Shape, Sphere};
use gjk_simd::{
    BatchOptions, CapsuleX8, ConvexHullX8, CuboidX8, MaskX8, Parallelism, PoseX8, SphereX8,
    SupportMapX8, distance_batch, distance_batch_with, distance_x8, intersects_batch,
    intersects_batch_with, intersects_x8,
};
use parry3d::math::{Pose3 as PPose, Rot3 as PRot, Vec3 as PVec};
use parry3d::query::details::{
    distance_support_map_support_map, intersection_test_support_map_support_map,
};
use parry3d::shape::{Ball, Capsule as PCapsule, ConvexPolyhedron, Cuboid as PCuboid};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const PAIRS: usize = 16_384;

use workloads::workload::{random_rotation as rotation, random_unit as unit};

/// A shape in both libraries' types.
#[derive(Clone)]
struct Both {
    core: Shape,
    parry: ParryShape,
}

#[derive(Clone)]
enum ParryShape {
    Ball(Ball),
    Cuboid(PCuboid),
    Capsule(PCapsule),
    Hull(Arc<ConvexPolyhedron>),
}

fn pvec(v: Vec3) -> PVec {
    PVec::new(v.x, v.y, v.z)
}

fn ppose(p: &Pose) -> PPose {
    let q = p.rotation();
    PPose::from_parts(pvec(p.translation()), PRot::from_xyzw(q.x, q.y, q.z, q.w))
}

/// The 8 standard hulls: 32 random points on spheres of radius 1..2.
fn hull_set(rng: &mut impl Rng) -> Vec<Both> {
    (0..8)
        .map(|_| {
            let r = rng.random_range(1.0..2.0);
            let pts: Vec<Vec3> = (0..32).map(|_| unit(rng) * r).collect();
            let core = ConvexHull::from_points(&pts).unwrap();
            let ppts: Vec<PVec> = pts.iter().map(|&p| pvec(p)).collect();
            let parry = ConvexPolyhedron::from_convex_hull(&ppts).unwrap();
            Both {
                core: Shape::ConvexHull(Arc::new(core)),
                parry: ParryShape::Hull(Arc::new(parry)),
            }
        })
        .collect()
}

fn random_shape(rng: &mut impl Rng, kind: usize, hulls: &[Both]) -> Both {
    match kind {
        0 => {
            let r = rng.random_range(0.5..1.5);
            Both {
                core: Sphere::new(r).unwrap().into(),
                parry: ParryShape::Ball(Ball::new(r)),
            }
        }
        1 => {
            let h = Vec3::new(
                rng.random_range(0.5..2.0),
                rng.random_range(0.5..2.0),
                rng.random_range(0.5..2.0),
            );
            Both {
                core: Cuboid::new(h).unwrap().into(),
                parry: ParryShape::Cuboid(PCuboid::new(pvec(h))),
            }
        }
        2 => {
            let (hh, r) = (rng.random_range(0.5..1.5), rng.random_range(0.3..0.8));
            Both {
                core: Capsule::new(hh, r).unwrap().into(),
                parry: ParryShape::Capsule(PCapsule::new_y(hh, r)),
            }
        }
        _ => hulls[rng.random_range(0..hulls.len())].clone(),
    }
}

struct Workload {
    name: &'static str,
    a: Vec<Both>,
    b: Vec<Both>,
    poses_a: Vec<Pose>,
    poses_b: Vec<Pose>,
}

impl Workload {
    fn core_a(&self) -> Vec<&Shape> {
        self.a.iter().map(|s| &s.core).collect()
    }
    fn core_b(&self) -> Vec<&Shape> {
        self.b.iter().map(|s| &s.core).collect()
    }
}

/// Standard pairs: random rotations, centres uniform in a cube whose side is found
/// by bisection so that half the pairs overlap (checked with gjk-core).
fn workload(
    name: &'static str,
    seed: u64,
    kinds: impl Fn(&mut ChaCha8Rng) -> (usize, usize),
) -> Workload {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hulls = hull_set(&mut rng);
    let mut a = Vec::with_capacity(PAIRS);
    let mut b = Vec::with_capacity(PAIRS);
    let mut rots = Vec::with_capacity(PAIRS);
    let mut unit_pos = Vec::with_capacity(PAIRS);
    for _ in 0..PAIRS {
        let (ka, kb) = kinds(&mut rng);
        a.push(random_shape(&mut rng, ka, &hulls));
        b.push(random_shape(&mut rng, kb, &hulls));
        rots.push((rotation(&mut rng), rotation(&mut rng)));
        let u = |rng: &mut ChaCha8Rng| {
            Vec3::new(
                rng.random_range(-0.5..0.5),
                rng.random_range(-0.5..0.5),
                rng.random_range(-0.5..0.5),
            )
        };
        unit_pos.push((u(&mut rng), u(&mut rng)));
    }
    let poses = |side: f32| -> (Vec<Pose>, Vec<Pose>) {
        rots.iter()
            .zip(&unit_pos)
            .map(|(&(qa, qb), &(pa, pb))| {
                (
                    Pose::new(qa, pa * side).unwrap(),
                    Pose::new(qb, pb * side).unwrap(),
                )
            })
            .unzip()
    };
    let overlap = |side: f32| {
        let (pa, pb) = poses(side);
        (0..4096)
            .filter(|&i| gjk_core::intersects(&a[i].core, &pa[i], &b[i].core, &pb[i]))
            .count() as f32
            / 4096.0
    };
    let (mut lo, mut hi) = (0.1f32, 50.0f32);
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if overlap(mid) > 0.5 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (poses_a, poses_b) = poses(0.5 * (lo + hi));
    Workload {
        name,
        a,
        b,
        poses_a,
        poses_b,
    }
}

fn parry_pure_intersects(a: &ParryShape, pa: &PPose, b: &ParryShape, pb: &PPose) -> bool {
    let pos12 = pa.inv_mul(pb);
    use ParryShape as P;
    match (a, b) {
        (P::Ball(x), P::Ball(y)) => intersection_test_support_map_support_map(&pos12, x, y),
        (P::Cuboid(x), P::Cuboid(y)) => intersection_test_support_map_support_map(&pos12, x, y),
        (P::Capsule(x), P::Capsule(y)) => intersection_test_support_map_support_map(&pos12, x, y),
        (P::Hull(x), P::Hull(y)) => intersection_test_support_map_support_map(&pos12, &**x, &**y),
        (P::Cuboid(x), P::Hull(y)) => intersection_test_support_map_support_map(&pos12, x, &**y),
        _ => unreachable!("pure GJK benchmarked on the standard kind pairs"),
    }
}

fn parry_pure_distance(a: &ParryShape, pa: &PPose, b: &ParryShape, pb: &PPose) -> f32 {
    let pos12 = pa.inv_mul(pb);
    use ParryShape as P;
    match (a, b) {
        (P::Ball(x), P::Ball(y)) => distance_support_map_support_map(&pos12, x, y),
        (P::Cuboid(x), P::Cuboid(y)) => distance_support_map_support_map(&pos12, x, y),
        (P::Capsule(x), P::Capsule(y)) => distance_support_map_support_map(&pos12, x, y),
        (P::Hull(x), P::Hull(y)) => distance_support_map_support_map(&pos12, &**x, &**y),
        (P::Cuboid(x), P::Hull(y)) => distance_support_map_support_map(&pos12, x, &**y),
        _ => unreachable!("pure GJK benchmarked on the standard kind pairs"),
    }
}

/// One pass of the batch driver over a workload on this thread, as users call it.
fn batch_pass(
    w: &Workload,
    (ca, cb): (&[&Shape], &[&Shape]),
    distance: bool,
    parallelism: Parallelism,
) -> usize {
    if distance {
        distance_batch(ca, &w.poses_a, cb, &w.poses_b, parallelism)
            .unwrap()
            .len()
    } else {
        intersects_batch(ca, &w.poses_a, cb, &w.poses_b, parallelism)
            .unwrap()
            .len()
    }
}

/// One pass of parry's pure GJK path over a workload (standard kind pairs only).
fn parry_pure_pass(w: &Workload, (pa, pb): (&[PPose], &[PPose]), distance: bool) -> f32 {
    let mut acc = 0.0f32;
    for i in 0..PAIRS {
        let (a, b) = (&w.a[i].parry, &w.b[i].parry);
        acc += if distance {
            parry_pure_distance(a, &pa[i], b, &pb[i])
        } else {
            f32::from(u8::from(parry_pure_intersects(a, &pa[i], b, &pb[i])))
        };
    }
    acc
}

/// `NX8_ALTERNATE=rounds`: instead of criterion, time the batch driver and parry's
/// pure GJK path in alternation, one pass each per round, and print the best and
/// the median pass of each in ns per pair with the ratio of the bests. On a shared
/// machine whose speed drifts by tens of percent within minutes, alternation puts
/// both sides under the same conditions and the best pass is the least disturbed.
/// Each round also times the batch driver on two threads, called from a thread of
/// a 2-thread pool (as from a physics step running on the pool), twice in a row:
/// "cold" right after the single-thread and parry passes, while the pool's other
/// worker has gone to sleep (waking it is part of the time, as for a step that
/// calls the driver once after serial work), and "warm" right after that, with
/// both workers awake. Both are compared with the single-thread pass.
///
/// Each ratio is also given as the median over rounds of the round's own ratio
/// ("paired"): a slow phase of the host that lands on one round slows both of its
/// passes, so the paired ratio moves less than the ratio of bests or medians.
fn alternate(w: &Workload, rounds: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| alternate_on_pool(w, rounds));
}

fn alternate_on_pool(w: &Workload, rounds: usize) {
    let (ca, cb) = (w.core_a(), w.core_b());
    let (pa, pb): (Vec<PPose>, Vec<PPose>) = (
        w.poses_a.iter().map(ppose).collect(),
        w.poses_b.iter().map(ppose).collect(),
    );
    let per_pair = |f: &mut dyn FnMut()| {
        let start = std::time::Instant::now();
        f();
        start.elapsed().as_secs_f64() * 1e9 / PAIRS as f64
    };
    for distance in [false, true] {
        let (mut ours, mut parry) = (Vec::new(), Vec::new());
        let (mut cold, mut warm) = (Vec::new(), Vec::new());
        let (seq, par) = (Parallelism::Sequential, Parallelism::default());
        for _ in 0..rounds {
            ours.push(per_pair(&mut || {
                black_box(batch_pass(w, (&ca, &cb), distance, seq));
            }));
            parry.push(per_pair(&mut || {
                black_box(parry_pure_pass(w, (&pa, &pb), distance));
            }));
            for two in [&mut cold, &mut warm] {
                two.push(per_pair(&mut || {
                    black_box(batch_pass(w, (&ca, &cb), distance, par));
                }));
            }
        }
        let stats = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            (v[0], v[v.len() / 2])
        };
        let paired = |num: &[f64], den: &[f64]| {
            stats(&mut num.iter().zip(den).map(|(n, d)| n / d).collect()).1
        };
        let (vs_parry, vs_cold, vs_warm) = (
            paired(&parry, &ours),
            paired(&ours, &cold),
            paired(&ours, &warm),
        );
        let ((ours_best, ours_median), (parry_best, parry_median)) =
            (stats(&mut ours), stats(&mut parry));
        let (cold_best, cold_median) = stats(&mut cold);
        let (warm_best, warm_median) = stats(&mut warm);
        let query = if distance { "distance" } else { "intersects" };
        println!(
            "{query}/{}: x8-batch best {ours_best:.1} median {ours_median:.1} ns/pair, \
             parry pure GJK best {parry_best:.1} median {parry_median:.1}: {:.2}x (best), \
             {:.2}x (median), {vs_parry:.2}x (paired); 2 threads on the pool, cold: best \
             {cold_best:.1} median {cold_median:.1}, {:.2}x one thread (best), {:.2}x \
             (median), {vs_cold:.2}x (paired); warm: best {warm_best:.1} median \
             {warm_median:.1}, {:.2}x (best), {:.2}x (median), {vs_warm:.2}x (paired); \
             {rounds} alternating rounds",
            w.name,
            parry_best / ours_best,
            parry_median / ours_median,
            ours_best / cold_best,
            ours_median / cold_median,
            ours_best / warm_best,
            ours_median / warm_median,
        );
    }
}

fn parry_dyn(s: &ParryShape) -> &dyn parry3d::shape::Shape {
    match s {
        ParryShape::Ball(x) => x,
        ParryShape::Cuboid(x) => x,
        ParryShape::Capsule(x) => x,
        ParryShape::Hull(x) => &**x,
    }
}

/// Pre-packed x8 batches of one uniform kind pair.
struct Packed<A, B> {
    batches: Vec<(A, PoseX8, B, PoseX8)>,
}

fn pack<A, B>(
    w: &Workload,
    mk_a: impl Fn(&[&Shape]) -> A,
    mk_b: impl Fn(&[&Shape]) -> B,
) -> Packed<A, B> {
    let (ca, cb) = (w.core_a(), w.core_b());
    let batches = (0..PAIRS)
        .step_by(8)
        .map(|s| {
            (
                mk_a(&ca[s..s + 8]),
                PoseX8::from_slice(&w.poses_a[s..s + 8]),
                mk_b(&cb[s..s + 8]),
                PoseX8::from_slice(&w.poses_b[s..s + 8]),
            )
        })
        .collect();
    Packed { batches }
}

fn spheres(s: &[&Shape]) -> SphereX8 {
    SphereX8::from_array(std::array::from_fn(|i| match s[i] {
        Shape::Sphere(x) => *x,
        _ => unreachable!(),
    }))
}
fn cuboids(s: &[&Shape]) -> CuboidX8 {
    CuboidX8::from_array(std::array::from_fn(|i| match s[i] {
        Shape::Cuboid(x) => *x,
        _ => unreachable!(),
    }))
}
fn capsules(s: &[&Shape]) -> CapsuleX8 {
    CapsuleX8::from_array(std::array::from_fn(|i| match s[i] {
        Shape::Capsule(x) => *x,
        _ => unreachable!(),
    }))
}
fn hulls_x8(s: &[&Shape]) -> ConvexHullX8 {
    let h: Vec<&ConvexHull> = s
        .iter()
        .map(|x| match x {
            Shape::ConvexHull(h) => &**h,
            _ => unreachable!(),
        })
        .collect();
    ConvexHullX8::from_hulls(&h)
}

fn bench_packed<A: SupportMapX8, B: SupportMapX8>(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    p: &Packed<A, B>,
    distance: bool,
) {
    c.bench_function(BenchmarkId::new("x8-kernel", name), |bch| {
        bch.iter(|| {
            let mut acc = 0u32;
            for (a, pa, b, pb) in &p.batches {
                if distance {
                    let r = distance_x8(a, pa, b, pb, MaskX8::ALL);
                    acc += r.iterations[0];
                } else {
                    let r = intersects_x8(a, pa, b, pb, MaskX8::ALL);
                    acc += r.intersecting.bitmask() as u32;
                }
            }
            black_box(acc)
        })
    });
}

fn run_workload(c: &mut Criterion, w: &Workload, pure: bool) {
    let (ca, cb) = (w.core_a(), w.core_b());
    let (pa, pb): (Vec<PPose>, Vec<PPose>) = (
        w.poses_a.iter().map(ppose).collect(),
        w.poses_b.iter().map(ppose).collect(),
    );
    for distance in [false, true] {
        let query = if distance { "distance" } else { "intersects" };
        let mut g = c.benchmark_group(format!("{query}/{}", w.name));
        g.throughput(Throughput::Elements(PAIRS as u64));
        g.bench_function("gjk-core", |bch| {
            bch.iter(|| {
                let mut acc = 0.0f32;
                for i in 0..PAIRS {
                    if distance {
                        acc +=
                            gjk_core::distance(ca[i], &w.poses_a[i], cb[i], &w.poses_b[i]).distance;
                    } else {
                        acc += f32::from(u8::from(gjk_core::intersects(
                            ca[i],
                            &w.poses_a[i],
                            cb[i],
                            &w.poses_b[i],
                        )));
                    }
                }
                black_box(acc)
            })
        });
        match w.name {
            "ball-ball" => bench_packed(&mut g, w.name, &pack(w, spheres, spheres), distance),
            "cuboid-cuboid" => bench_packed(&mut g, w.name, &pack(w, cuboids, cuboids), distance),
            "capsule-capsule" => {
                bench_packed(&mut g, w.name, &pack(w, capsules, capsules), distance)
            }
            "hull-hull" => bench_packed(&mut g, w.name, &pack(w, hulls_x8, hulls_x8), distance),
            "cuboid-hull" => bench_packed(&mut g, w.name, &pack(w, cuboids, hulls_x8), distance),
            _ => {}
        }
        g.bench_function("x8-batch", |bch| {
            bch.iter(|| black_box(batch_pass(w, (&ca, &cb), distance, Parallelism::Sequential)))
        });
        // The same driver with its early outs and closed forms off: every pair
        // through the GJK kernels, to show what the shortcuts add.
        let gjk_only = BatchOptions {
            parallelism: Parallelism::Sequential,
            early_outs: false,
            closed_forms: false,
        };
        g.bench_function("x8-batch-gjk-only", |bch| {
            bch.iter(|| {
                if distance {
                    let r = distance_batch_with(&ca, &w.poses_a, &cb, &w.poses_b, gjk_only);
                    black_box(r.unwrap().len())
                } else {
                    let r = intersects_batch_with(&ca, &w.poses_a, &cb, &w.poses_b, gjk_only);
                    black_box(r.unwrap().len())
                }
            })
        });
        if pure {
            g.bench_function("parry-pure-gjk", |bch| {
                bch.iter(|| black_box(parry_pure_pass(w, (&pa, &pb), distance)))
            });
        }
        g.bench_function("parry-dispatcher", |bch| {
            bch.iter(|| {
                let mut acc = 0.0f32;
                for i in 0..PAIRS {
                    let (x, y) = (parry_dyn(&w.a[i].parry), parry_dyn(&w.b[i].parry));
                    if distance {
                        acc += parry3d::query::distance(&pa[i], x, &pb[i], y)
                            .unwrap()
                            .distance;
                    } else {
                        acc += f32::from(u8::from(
                            parry3d::query::intersection_test(&pa[i], x, &pb[i], y)
                                .unwrap()
                                .intersecting,
                        ));
                    }
                }
                black_box(acc)
            })
        });
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        // Two ways to use a pool of two: the call enters it (install per call,
        // what a caller on its own thread pays, wake-ups included), or the caller
        // already runs on it (a physics step inside the pool: install once).
        let par = Parallelism::default();
        let call = || {
            if distance {
                distance_batch(&ca, &w.poses_a, &cb, &w.poses_b, par)
                    .unwrap()
                    .len()
            } else {
                intersects_batch(&ca, &w.poses_a, &cb, &w.poses_b, par)
                    .unwrap()
                    .len()
            }
        };
        g.bench_function("x8-batch-2-threads", |bch| {
            bch.iter(|| pool.install(|| black_box(call())))
        });
        g.bench_function("x8-batch-2-threads-in-pool", |bch| {
            pool.install(|| bch.iter(|| black_box(call())))
        });
        g.finish();
    }
}

fn benches(c: &mut Criterion) {
    let filter_kinds: [(&'static str, usize, usize); 5] = [
        ("ball-ball", 0, 0),
        ("cuboid-cuboid", 1, 1),
        ("capsule-capsule", 2, 2),
        ("hull-hull", 3, 3),
        ("cuboid-hull", 1, 3),
    ];
    let rounds: Option<usize> = std::env::var("NX8_ALTERNATE")
        .ok()
        .and_then(|r| r.parse().ok());
    for (k, (name, ka, kb)) in filter_kinds.into_iter().enumerate() {
        let w = workload(name, 0xBEEF + k as u64, move |_| (ka, kb));
        match rounds {
            Some(rounds) => alternate(&w, rounds.max(1)),
            None => run_workload(c, &w, true),
        }
    }
    if rounds.is_some() {
        return;
    }
    // Mixed: every pair draws its kinds at random, so batches hold lanes that need
    // different iteration counts and the driver fills all 16 buckets.
    let w = workload("mixed", 0xB1E5, |rng| {
        (rng.random_range(0..4), rng.random_range(0..4))
    });
    run_workload(c, &w, false);
}

criterion_group! {
    name = narrowphase;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(narrowphase);
