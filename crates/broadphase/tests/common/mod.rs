//! Shared helpers for the integration tests: seeded random boxes and a second oracle
//! (bvh-arena) beside the library's reference sweep (`broadphase::reference`).
#![allow(dead_code)]

use broadphase::Aabb;
use glam::Vec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

pub fn random_vec(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> Vec3 {
    Vec3::new(
        rng.random_range(lo..hi),
        rng.random_range(lo..hi),
        rng.random_range(lo..hi),
    )
}

/// A box of side 0.5..1.5 per axis (or `size_scale` times that) centred in `[0, side]^3`.
pub fn random_box(rng: &mut ChaCha8Rng, side: f32, size_scale: f32) -> Aabb {
    let (c, h) = workloads::boxes::random_box(rng, side, 0.25..0.75);
    Aabb::from_center_half_extents(c, h * size_scale).unwrap()
}

/// A unit vector with a uniformly random direction.
pub fn random_dir(rng: &mut ChaCha8Rng) -> Vec3 {
    for _ in 0..1000 {
        let v = random_vec(rng, -1.0, 1.0);
        let l = v.length_squared();
        if l > 1e-4 && l <= 1.0 {
            return v / l.sqrt();
        }
    }
    Vec3::X
}

/// A rayon pool of `threads` workers, for results that must not depend on the count.
pub fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

pub fn translate(b: &Aabb, d: Vec3) -> Aabb {
    Aabb::new(b.min() + d, b.max() + d).unwrap()
}

/// The same answer from bvh-arena (recursive, so only for modest inputs).
pub fn bvh_arena_pairs(boxes: &[(u32, Aabb)]) -> Vec<(u32, u32)> {
    let mut bvh: bvh_arena::Bvh<u32, bvh_arena::volumes::Aabb<3>> = bvh_arena::Bvh::default();
    for (i, b) in boxes {
        bvh.insert(*i, bvh_arena::volumes::Aabb::from_min_max(b.min(), b.max()));
    }
    let mut out = Vec::new();
    bvh.for_each_overlaping_pair(|a, b| out.push(((*a).min(*b), (*a).max(*b))));
    out.sort_unstable();
    out
}
