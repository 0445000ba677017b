//! Profiling driver: `cargo run --release -p gjk-core --example profile -- <kind> <query>`
//! runs one query over the standard pairs of one kind (for callgrind / perf).

use workloads::{PairKind, standard_pairs};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = match args.get(1).map(String::as_str) {
        Some("hull") => PairKind::HullHull,
        Some("cuboid-hull") => PairKind::CuboidHull,
        Some("capsule") => PairKind::CapsuleCapsule,
        Some("ball") => PairKind::BallBall,
        _ => PairKind::CuboidCuboid,
    };
    let pairs = standard_pairs(kind, 4096, 42);
    let query = args.get(2).map(String::as_str).unwrap_or("distance");
    let mut acc = 0.0f32;
    for _ in 0..100 {
        for p in &pairs {
            acc += match query {
                "intersects" => {
                    gjk_core::intersects(&p.a, &p.pose_a, &p.b, &p.pose_b) as u32 as f32
                }
                "contact" => gjk_core::contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0)
                    .map_or(0.0, |c| c.depth),
                _ => gjk_core::distance(&p.a, &p.pose_a, &p.b, &p.pose_b).distance,
            };
        }
    }
    println!("{acc}");
}
