//! Random axis-aligned boxes for the broadphase: the benches' "standard boxes" and
//! the tests' seeded scenes, as centres and half extents (the broadphase has its
//! own box type, built from these).

use gjk_core::glam::Vec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A uniformly random point of the box `[lo, hi)³` (x, then y, then z).
fn random_vec(rng: &mut impl Rng, lo: f32, hi: f32) -> Vec3 {
    Vec3::new(
        rng.random_range(lo..hi),
        rng.random_range(lo..hi),
        rng.random_range(lo..hi),
    )
}

/// One box: its centre uniform in the cube `[0, side)³` and its half extents uniform
/// in `half` on each axis, as `(centre, half_extents)` (centre drawn first).
pub fn random_box(rng: &mut impl Rng, side: f32, half: std::ops::Range<f32>) -> (Vec3, Vec3) {
    let centre = random_vec(rng, 0.0, side);
    let half_extents = random_vec(rng, half.start, half.end);
    (centre, half_extents)
}

/// The benches' standard boxes: `n` boxes with side lengths uniform in 0.5..1.5 per
/// axis and centres uniform in a cube of side `(4n)^(1/3)`, about 1.95 overlaps a
/// box, from `seed`; every centre is drawn before every half extent. Returns the
/// centres, the half extents and the cube's side.
pub fn standard_boxes(n: usize, seed: u64) -> (Vec<Vec3>, Vec<Vec3>, f32) {
    standard_boxes_from(&mut ChaCha8Rng::seed_from_u64(seed), n)
}

/// [`standard_boxes`] drawn from `rng`, which the caller goes on using (a frame's
/// moves drawn after its scene).
pub fn standard_boxes_from(rng: &mut impl Rng, n: usize) -> (Vec<Vec3>, Vec<Vec3>, f32) {
    let side = (4.0 * n as f32).cbrt();
    let centres = (0..n).map(|_| random_vec(rng, 0.0, side)).collect();
    let half = (0..n).map(|_| random_vec(rng, 0.25, 0.75)).collect();
    (centres, half, side)
}
