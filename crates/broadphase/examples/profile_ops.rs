//! Times single operations on the standard-boxes workload by wall time and by *on-CPU*
//! time (read from `/proc/thread-self/schedstat`). The on-CPU figure is only as fine as
//! the kernel's accounting updates (often a scheduler tick, 4 ms), so for operations of
//! a few milliseconds compare the wall times, best of many. For profiling with
//! `perf record`.
//!
//! `cargo run --release -p broadphase --example profile_ops -- build|insert_many|load|parry_load|pairs|pairs_install|pairs_binary|parry_build|parry_pairs [N]
//! [reps] [threads]`, `... frame [N] [frames] [margin_fraction] [threads]`, or
//! `... join [N] [reps] [threads]` (the cost of an empty fork-join on a pool, right
//! after another one and after 300 us idle: what each parallel section of a frame pays).
//! `BP_SCENE=bench` draws the criterion bench's boxes instead (same distribution, other
//! random numbers, which can move a figure noticeably: compare on one scene).
//! `BP_MOVE=with` makes `frame` move the boxes through `move_proxies_with` instead of a
//! vector of boxes and `move_proxies`.
use broadphase::{Aabb, DynamicTree};
use glam::Vec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).cloned().unwrap_or_else(|| "build".into());
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let reps: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let side = (4.0 * n as f32).cbrt();
    // `BP_SCENE=bench`: the criterion bench's scene (seed 42, all centres drawn first,
    // then all half extents), to compare with its figures on the same tree.
    let bench_scene = std::env::var("BP_SCENE").is_ok_and(|v| v == "bench");
    let boxes: Vec<Aabb> = if bench_scene {
        // The same seed-42 stream as the bench; the frames' moves follow the scene.
        let (centres, half, _) = workloads::boxes::standard_boxes_from(&mut rng, n);
        (0..n)
            .map(|i| Aabb::from_center_half_extents(centres[i], half[i]).unwrap())
            .collect()
    } else {
        (0..n)
            .map(|_| {
                let (c, h) = workloads::boxes::random_box(&mut rng, side, 0.25..0.75);
                Aabb::from_center_half_extents(c, h).unwrap()
            })
            .collect()
    };
    if what == "frame" {
        let frac: f32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0.2);
        let threads: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| frame(&boxes, reps, frac, &mut rng));
        return;
    }
    if what == "join" {
        // The cost of one empty fork-join on a pool (thread wake-up included), as paid by
        // each parallel section of a frame.
        let threads: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(2);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for gap_us in [0u64, 300] {
            let mut all = Vec::new();
            for _ in 0..reps {
                std::thread::sleep(std::time::Duration::from_micros(gap_us));
                let t = Instant::now();
                pool.install(|| {
                    rayon::join(|| std::hint::black_box(1), || std::hint::black_box(2))
                });
                all.push(t.elapsed().as_secs_f64() * 1e6);
            }
            all.sort_by(f64::total_cmp);
            println!(
                "join threads {threads}, idle {gap_us} us before: median {:.1} us, min {:.1} us",
                all[all.len() / 2],
                all[0]
            );
        }
        return;
    }
    let (tree, _) = DynamicTree::from_aabbs(&boxes);
    if what == "build" {
        // The tree's quality (the SAH cost, up to a constant), to compare builders.
        println!(
            "built: area cost {:.6e}, height {}",
            tree.area_cost(),
            tree.height()
        );
    }
    // parry3d's Bvh on the same boxes, so ratios come from the same process.
    let parry_boxes: Vec<_> = boxes
        .iter()
        .map(|b| parry3d::bounding_volume::Aabb::new(b.min(), b.max()))
        .collect();
    let parry_bvh = parry3d::partitioning::Bvh::from_leaves(
        parry3d::partitioning::BvhBuildStrategy::Binned,
        &parry_boxes,
    );
    let mut ws = parry3d::partitioning::BvhWorkspace::default();
    // Threads of the pool the operation runs in (after `reps`; with more than one, the
    // on-CPU figure covers the calling worker only, so compare wall times).
    let threads: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let cpu = || -> f64 {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
        s.split_whitespace().next().unwrap().parse::<f64>().unwrap() * 1e-9
    };
    if what == "pairs_install" {
        // As the bench's `threads` group: each call hands the job to the pool from the
        // main thread.
        let mut best = f64::INFINITY;
        let mut all = Vec::new();
        for _ in 0..reps {
            let t = Instant::now();
            let v = pool.install(|| tree.overlapping_pairs());
            let e = t.elapsed().as_secs_f64();
            std::hint::black_box(v);
            best = best.min(e);
            all.push(e);
        }
        all.sort_by(f64::total_cmp);
        println!(
            "pairs_install n={n} threads {threads}: best {:.3} ms, median {:.3} ms",
            best * 1e3,
            all[all.len() / 2] * 1e3
        );
        return;
    }
    // With one thread, everything runs on the pool's worker, so its schedstat covers all
    // the work.
    pool.install(|| {
        let mut best = f64::INFINITY;
        let mut best_cpu = f64::INFINITY;
        let mut out = 0;
        for _ in 0..reps {
            let t = Instant::now();
            let c0 = cpu();
            match what.as_str() {
                "build" => out += DynamicTree::from_aabbs(&boxes).0.height() as usize,
                "insert_many" => {
                    let mut bp = broadphase::Broadphase::new();
                    bp.insert_many(boxes.iter().map(|&b| (b, ()))).unwrap();
                    out += bp.tree().height() as usize;
                }
                "load" => {
                    let mut bp = broadphase::Broadphase::new();
                    bp.insert_many(boxes.iter().map(|&b| (b, ()))).unwrap();
                    out += bp.update().began.len();
                }
                "pairs" => out += tree.overlapping_pairs().len(),
                "pairs_binary" => {
                    let mut v = Vec::new();
                    tree.for_each_overlapping_pair(|a, b| v.push((a, b)));
                    out += v.len();
                }
                "parry_build" => {
                    let bvh = parry3d::partitioning::Bvh::from_leaves(
                        parry3d::partitioning::BvhBuildStrategy::Binned,
                        &parry_boxes,
                    );
                    out += bvh.leaf_count() as usize;
                }
                "parry_load" => {
                    // The broadphase's `load` for parry: its build and all pairs on
                    // the same fat boxes.
                    let config = broadphase::BroadphaseConfig::default();
                    let fat: Vec<_> = boxes
                        .iter()
                        .map(|b| {
                            let f = config.fat_box(b).unwrap();
                            parry3d::bounding_volume::Aabb::new(f.min(), f.max())
                        })
                        .collect();
                    let bvh = parry3d::partitioning::Bvh::from_leaves(
                        parry3d::partitioning::BvhBuildStrategy::Binned,
                        &fat,
                    );
                    let mut v = Vec::new();
                    bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| v.push((a, b)));
                    out += v.len();
                }
                "parry_pairs" => {
                    let mut v = Vec::new();
                    parry_bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| {
                        v.push((a, b))
                    });
                    out += v.len();
                }
                other => panic!("unknown operation {other}: use build, insert_many, load, parry_load, pairs, pairs_install, pairs_binary, parry_build, parry_pairs or frame"),
            }
            best = best.min(t.elapsed().as_secs_f64());
            best_cpu = best_cpu.min(cpu() - c0);
        }
        println!(
            "{what} n={n}: best wall {:.3} ms, best on-cpu {:.3} ms ({out})",
            best * 1e3,
            best_cpu * 1e3
        );
    });
}

fn cpu_now() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse::<f64>().unwrap() * 1e-9
}

fn frame(boxes: &[Aabb], frames: usize, frac: f32, rng: &mut ChaCha8Rng) {
    use broadphase::{Broadphase, BroadphaseConfig};
    let n = boxes.len();
    let mut centres: Vec<Vec3> = boxes.iter().map(|b| b.center()).collect();
    let half: Vec<Vec3> = boxes.iter().map(|b| b.size() * 0.5).collect();
    // `BP_MOVE=with`: the moves go through `move_proxies_with` (boxes made inside the
    // broadphase's pass, each body's centre and half extents kept in its user data); the `batch` column is then
    // the gathering of the moved handles.
    let with = std::env::var("BP_MOVE").is_ok_and(|v| v == "with");
    let mut bp = Broadphase::with_config(BroadphaseConfig {
        margin_fraction: frac,
        ..Default::default()
    })
    .unwrap();
    let ids = bp
        .insert_many(boxes.iter().map(|&b| (b, (b.center(), b.size() * 0.5))))
        .unwrap();
    bp.update();
    let mut total = 0.0;
    let mut wall = 0.0;
    let mut moved = 0usize;
    let mut parts = [0f64; 3];
    let mut samples: [Vec<f64>; 4] = Default::default();
    for f in 0..frames + 300 {
        let moves: Vec<(usize, Vec3)> = rand::seq::index::sample(rng, n, n / 10)
            .into_iter()
            .map(|i| {
                let d = loop {
                    let v = Vec3::new(
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                        rng.random_range(-1.0..1.0),
                    );
                    if v.length_squared() > 1e-4 && v.length_squared() <= 1.0 {
                        break v.normalize() * 0.05;
                    }
                };
                (i, d)
            })
            .collect();
        let c0 = cpu_now();
        let t0 = Instant::now();
        let (c1, w1);
        if with {
            let batch: Vec<_> = moves.iter().map(|&(i, _)| ids[i]).collect();
            c1 = cpu_now();
            w1 = Instant::now();
            moved += bp
                .move_proxies_with(&batch, |k, (centre, half): &mut (Vec3, Vec3)| {
                    *centre += moves[k].1;
                    Aabb::from_center_half_extents(*centre, *half)
                })
                .unwrap();
        } else {
            let batch: Vec<_> = moves
                .iter()
                .map(|&(i, d)| {
                    centres[i] += d;
                    (
                        ids[i],
                        Aabb::from_center_half_extents(centres[i], half[i]).unwrap(),
                    )
                })
                .collect();
            c1 = cpu_now();
            w1 = Instant::now();
            moved += bp.move_proxies(&batch).unwrap();
        }
        let c2 = cpu_now();
        let w2 = Instant::now();
        bp.update();
        if f >= 300 {
            let c3 = cpu_now();
            let w3 = Instant::now();
            samples[0].push((w1 - t0).as_secs_f64());
            samples[1].push((w2 - w1).as_secs_f64());
            samples[2].push((w3 - w2).as_secs_f64());
            samples[3].push((w3 - t0).as_secs_f64());
            total += c3 - c0;
            parts[0] += c1 - c0;
            parts[1] += c2 - c1;
            parts[2] += c3 - c2;
            wall += t0.elapsed().as_secs_f64();
        }
        if f == 299 {
            moved = 0;
        }
    }
    println!(
        "frame n={n} margin {frac} threads {}: avg wall {:.3} ms, on-cpu (calling thread) {:.3} ms, escapes/frame {:.0}, pairs {}",
        rayon::current_num_threads(),
        wall / frames as f64 * 1e3,
        total / frames as f64 * 1e3,
        moved as f64 / frames as f64,
        bp.pair_count()
    );
    println!(
        "  on-cpu split: batch {:.3} ms, move_proxies {:.3} ms, update {:.3} ms",
        parts[0] / frames as f64 * 1e3,
        parts[1] / frames as f64 * 1e3,
        parts[2] / frames as f64 * 1e3
    );
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2] * 1e3
    };
    println!(
        "  median wall: batch {:.3} ms, move_proxies {:.3} ms, update {:.3} ms, frame {:.3} ms",
        med(&mut samples[0]),
        med(&mut samples[1]),
        med(&mut samples[2]),
        med(&mut samples[3])
    );
}
