//! Seeded scenes shared by the unit tests.

use glam::Vec3;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::Aabb;

/// A box whose centre is uniform in the cube `[0, side)³` and whose half extents
/// are uniform in `half` on each axis (centre first, then extents, x to z).
pub(crate) fn random_box(rng: &mut ChaCha8Rng, side: f32, half: std::ops::Range<f32>) -> Aabb {
    let c = Vec3::new(
        rng.random_range(0.0..side),
        rng.random_range(0.0..side),
        rng.random_range(0.0..side),
    );
    let h = Vec3::new(
        rng.random_range(half.clone()),
        rng.random_range(half.clone()),
        rng.random_range(half),
    );
    Aabb::from_center_half_extents(c, h).unwrap()
}
