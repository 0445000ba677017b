//! Seeded scenes shared by the unit tests.

use glam::Vec3;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::Aabb;

/// A box whose centre is uniform in the cube `[0, side)³` and whose half extents
/// are uniform in `half` on each axis (centre first, then extents, x to z).
pub(crate) fn random_box(rng: &mut ChaCha8Rng, side: f32, half: std::ops::Range<f32>) -> Aabb {
    let (c, h) = workloads::boxes::random_box(rng, side, half);
    Aabb::from_center_half_extents(c, h).unwrap()
}

/// `b` after a random move: one in 15 a jump to a random box anywhere in the cube of
/// side `side` (half extents `half`), otherwise a step of up to 0.1 on each axis.
pub(crate) fn random_move(
    rng: &mut ChaCha8Rng,
    b: &Aabb,
    side: f32,
    half: std::ops::Range<f32>,
) -> Aabb {
    if rng.random_range(0..15) == 0 {
        return random_box(rng, side, half);
    }
    let d = Vec3::new(
        rng.random_range(-0.1..0.1),
        rng.random_range(-0.1..0.1),
        rng.random_range(-0.1..0.1),
    );
    Aabb::new(b.min() + d, b.max() + d).unwrap()
}

/// A rayon pool of `threads` threads.
pub(crate) fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}
