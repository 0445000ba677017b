//! Prints what a steady-state frame of the standard-boxes workload does: how many
//! proxies escape their fat boxes, pair counts, tree height and degradation, and how
//! often the tree is rebuilt. Usage: `cargo run --release -p broadphase --example
//! frame_stats -- [N] [frames] [margin_fraction]`.

use broadphase::{Aabb, Broadphase, BroadphaseConfig};
use glam::Vec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let frames: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(300);
    let fraction: f32 = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(BroadphaseConfig::default().margin_fraction);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let (mut centres, half, _) = workloads::boxes::standard_boxes_from(&mut rng, n);
    let v = |rng: &mut ChaCha8Rng, lo: f32, hi: f32| {
        Vec3::new(
            rng.random_range(lo..hi),
            rng.random_range(lo..hi),
            rng.random_range(lo..hi),
        )
    };
    let aabb = |c: Vec3, h: Vec3| Aabb::from_center_half_extents(c, h).unwrap();
    let config = BroadphaseConfig {
        margin_fraction: fraction,
        ..Default::default()
    };
    let mut bp = Broadphase::with_config(config).unwrap();
    let ids = bp
        .insert_many((0..n).map(|i| (aabb(centres[i], half[i]), ())))
        .unwrap();
    bp.update();
    let tight_pairs = {
        let (tree, _) = broadphase::DynamicTree::from_aabbs(
            &(0..n)
                .map(|i| aabb(centres[i], half[i]))
                .collect::<Vec<_>>(),
        );
        tree.overlapping_pairs().len()
    };
    println!(
        "n {n}, margin fraction {fraction}: tight pairs {tight_pairs}, fat pairs {}",
        bp.pair_count()
    );
    let (mut escapes, mut changes, mut rebuilds) = (0usize, 0usize, 0usize);
    let mut last_degradation = bp.tree().degradation();
    for f in 0..frames {
        let mut esc = 0;
        for i in rand::seq::index::sample(&mut rng, n, n / 10) {
            let d = loop {
                let d = v(&mut rng, -1.0, 1.0);
                if d.length_squared() > 1e-4 && d.length_squared() <= 1.0 {
                    break d.normalize() * 0.05;
                }
            };
            centres[i] += d;
            esc += bp.move_proxy(ids[i], aabb(centres[i], half[i])).unwrap() as usize;
        }
        let c = bp.update();
        let ch = c.began.len() + c.ended.len();
        let deg = bp.tree().degradation();
        if deg < last_degradation {
            rebuilds += 1;
        }
        last_degradation = deg;
        if f >= frames / 2 {
            escapes += esc;
            changes += ch;
        }
        if f % 50 == 0 || f == frames - 1 {
            println!(
                "frame {f}: escapes {esc}, pair changes {ch}, pairs {}, height {}, degradation {:.3}",
                bp.pair_count(),
                bp.tree().height(),
                deg
            );
        }
    }
    let half_frames = (frames - frames / 2) as f64;
    println!(
        "second half averages: escapes/frame {:.0}, pair changes/frame {:.0}; rebuilds over {frames} frames: {rebuilds}",
        escapes as f64 / half_frames,
        changes as f64 / half_frames
    );
}
