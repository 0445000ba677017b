//! A driver for `perf record` and `valgrind --tool=callgrind`: runs one query of the
//! batch driver on the standard pairs of one kind (or on boxes resting on boxes,
//! `resting-boxes`), many times, and prints the
//! share of pairs the bounding balls decide, the wall-clock time per pair, and the
//! support evaluations per pair and per batch of eight in input order (the
//! lockstep cost). For instruction counts of the driver alone:
//! `valgrind --tool=callgrind --toggle-collect=gjk_simd::batch::run_query ...`
//! on a build with `RUSTFLAGS="-C target-cpu=x86-64-v3"` (valgrind cannot
//! decode AVX-512).
//!
//! `cargo run --release -p gjk-simd --example profile_x8 -- intersects cuboid-cuboid 200`
//! (`distance`, `contact`, `manifold`; `distance-plain`, `intersects-plain`, `contact-plain`: the
//! same without the early outs; `contact-core` and `contact-parry`: gjk-core's scalar
//! `contact` and parry3d's `query::contact` on the same pairs; `manifold-parry`: parry3d's
//! `contact_manifolds`, each pair's state kept from round to round).

use gjk_core::query::bounds::ball_verdict;
use gjk_core::{Pose, Shape};
use gjk_simd::{
    BatchOptions, Parallelism, contact_batch_with, distance_batch_with, intersects_batch_with,
    manifold_batch_with,
};
use workloads::resting::resting_boxes;
use workloads::workload::{PairKind, standard_pairs};

/// The kind name of `workloads::resting::resting_boxes`.
const RESTING: &str = "resting-boxes";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // A query name ending in `-plain` turns the early outs off.
    let query_arg = args.get(1).map(String::as_str).unwrap_or("intersects");
    let (query, early_outs) = match query_arg.strip_suffix("-plain") {
        Some(q) => (q, false),
        None => (query_arg, true),
    };
    let kind_name = args.get(2).map(String::as_str).unwrap_or("cuboid-cuboid");
    let rounds: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    // A fourth argument runs the batch on a rayon pool of that many threads.
    let threads: Option<usize> = args.get(4).and_then(|s| s.parse().ok());
    let pairs = if kind_name == RESTING {
        resting_boxes(16_384, 1)
    } else {
        let Some(kind) = PairKind::ALL.into_iter().find(|k| k.name() == kind_name) else {
            eprintln!("unknown kind {kind_name} (a standard pair kind, or {RESTING})");
            std::process::exit(2);
        };
        standard_pairs(kind, 16_384, 1)
    };
    let sa: Vec<Shape> = pairs.iter().map(|p| p.a.clone()).collect();
    let sb: Vec<Shape> = pairs.iter().map(|p| p.b.clone()).collect();
    let pa: Vec<Pose> = pairs.iter().map(|p| p.pose_a).collect();
    let pb: Vec<Pose> = pairs.iter().map(|p| p.pose_b).collect();
    let decided = pairs
        .iter()
        .filter(|p| ball_verdict(&p.a, &p.pose_a, &p.b, &p.pose_b).is_some())
        .count();
    println!(
        "{kind_name}: bounding balls decide {:.1}% of the boolean queries",
        100.0 * decided as f64 / pairs.len() as f64
    );
    let options = BatchOptions {
        parallelism: match threads {
            Some(_) => Parallelism::default(),
            None => Parallelism::Sequential,
        },
        early_outs,
        ..BatchOptions::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(1))
        .build()
        .expect("a rayon pool");
    let start = std::time::Instant::now();
    let iterations: Vec<u32> = pool.install(|| match query {
        "intersects" => {
            for _ in 0..rounds {
                std::hint::black_box(intersects_batch_with(&sa, &pa, &sb, &pb, options).unwrap());
            }
            let r = intersects_batch_with(&sa, &pa, &sb, &pb, options).unwrap();
            r.iter().map(|x| x.iterations).collect()
        }
        // The baselines of the contact query, for instruction counts in the same
        // build: gjk-core's scalar `contact` and parry3d's dispatcher.
        "contact-core" => {
            let run = || -> Vec<u32> {
                (0..sa.len())
                    .map(|i| gjk_core::contact(&sa[i], &pa[i], &sb[i], &pb[i], 0.0))
                    .map(|c| c.map_or(0, |c| c.iterations))
                    .collect()
            };
            for _ in 0..rounds {
                std::hint::black_box(run());
            }
            run()
        }
        "contact-parry" => {
            let shapes: Vec<_> = pairs
                .iter()
                .map(|p| {
                    (
                        workloads::parry::shape(&p.a),
                        workloads::parry::pose(&p.pose_a),
                        workloads::parry::shape(&p.b),
                        workloads::parry::pose(&p.pose_b),
                    )
                })
                .collect();
            let run = || -> Vec<u32> {
                shapes
                    .iter()
                    .map(|(a, pa, b, pb)| {
                        let c = parry3d::query::contact(pa, &**a, pb, &**b, 0.0);
                        u32::from(matches!(c, Ok(Some(_))))
                    })
                    .collect()
            };
            for _ in 0..rounds {
                std::hint::black_box(run());
            }
            run()
        }
        // The contact manifolds: the wide contact, then the wide manifold stage.
        // The count printed is the points per pair, not support evaluations.
        "manifold" => {
            for _ in 0..rounds {
                let r = manifold_batch_with(&sa, &pa, &sb, &pb, 0.0, 0.0, options);
                std::hint::black_box(r.unwrap());
            }
            let r = manifold_batch_with(&sa, &pa, &sb, &pb, 0.0, 0.0, options).unwrap();
            r.iter().map(|m| m.map_or(0, |m| m.len() as u32)).collect()
        }
        // parry3d's manifolds on the same pairs, each pair's manifolds and
        // workspace kept from round to round as its narrowphase keeps them.
        "manifold-parry" => {
            use parry3d::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
            let mut state: Vec<_> = pairs
                .iter()
                .map(|p| {
                    let (a, b) = (workloads::parry::shape(&p.a), workloads::parry::shape(&p.b));
                    let pos12 = workloads::parry::pose(&p.pose_a)
                        .inv_mul(&workloads::parry::pose(&p.pose_b));
                    let manifolds: Vec<parry3d::query::ContactManifold<(), ()>> = Vec::new();
                    (a, b, pos12, manifolds, None)
                })
                .collect();
            let mut run = || -> Vec<u32> {
                state
                    .iter_mut()
                    .map(|(a, b, pos12, manifolds, workspace)| {
                        DefaultQueryDispatcher
                            .contact_manifolds(pos12, &**a, &**b, 0.0, manifolds, workspace)
                            .expect("parry3d supports the pair");
                        manifolds.iter().map(|m| m.points.len() as u32).sum()
                    })
                    .collect()
            };
            for _ in 0..rounds {
                std::hint::black_box(run());
            }
            run()
        }
        "contact" => {
            for _ in 0..rounds {
                let r = contact_batch_with(&sa, &pa, &sb, &pb, 0.0, options);
                std::hint::black_box(r.unwrap());
            }
            let r = contact_batch_with(&sa, &pa, &sb, &pb, 0.0, options).unwrap();
            r.iter().map(|x| x.map_or(0, |c| c.iterations)).collect()
        }
        _ => {
            for _ in 0..rounds {
                std::hint::black_box(distance_batch_with(&sa, &pa, &sb, &pb, options).unwrap());
            }
            let r = distance_batch_with(&sa, &pa, &sb, &pb, options).unwrap();
            r.iter().map(|x| x.iterations).collect()
        }
    });
    let per_pair = start.elapsed().as_secs_f64() * 1e9 / ((rounds + 1) * pairs.len()) as f64;
    println!("{query} {kind_name}: {per_pair:.1} ns per pair (wall clock, {rounds} rounds)");
    let mean = iterations.iter().sum::<u32>() as f64 / iterations.len() as f64;
    let lockstep: u32 = iterations
        .chunks(8)
        .map(|c| c.iter().max().copied().unwrap_or(0) * 8)
        .sum();
    let mut hist = [0usize; 12];
    for &i in &iterations {
        hist[(i as usize).min(11)] += 1;
    }
    println!(
        "{query} {kind_name}: mean support evaluations {mean:.2}, lockstep {:.2} per pair, histogram {hist:?}",
        lockstep as f64 / iterations.len() as f64
    );
}
