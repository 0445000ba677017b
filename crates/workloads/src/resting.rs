//! Boxes resting on boxes: the contact a physics engine's solver sees most, a
//! face pressed a little into a face, which the random standard pairs almost
//! never give (their faces meet at random angles).

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{Cuboid, Pose};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::workload::{Pair, random_rotation, random_unit};

/// Deepest a resting box sinks into its support, as a fraction of its own half
/// height: the order of the penetration a solver lets resting contacts keep.
pub const MAX_SINK: f32 = 0.02;

/// Largest tilt of the resting box off its support's face, in radians: the
/// wobble of a box settling, enough that its four corners sink by different
/// depths.
pub const MAX_TILT: f32 = 1e-3;

/// `n` pairs of a small box (B, half extents 0.2 to 1) resting face down on the
/// top face of a slab (A, half extents 1 to 4 across and 0.2 to 0.5 high),
/// turned about the slab's normal at random, tilted by up to [`MAX_TILT`],
/// sunk by up to [`MAX_SINK`] of its half height, its centre anywhere over the
/// slab's face or beyond its edge by up to half the box's smaller half width
/// (so that some of the box always stands on the slab); the pair as a whole at
/// a random pose within 10 of the origin.
///
/// ```
/// let pairs = workloads::resting::resting_boxes(16, 1);
/// assert_eq!(pairs.len(), 16);
/// assert!(pairs.iter().all(|p| gjk_core::intersects(&p.a, &p.pose_a, &p.b, &p.pose_b)));
/// ```
pub fn resting_boxes(n: usize, seed: u64) -> Vec<Pair> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n).map(|_| resting_box(&mut rng)).collect()
}

fn resting_box(rng: &mut ChaCha8Rng) -> Pair {
    let slab = Vec3::new(
        rng.random_range(1.0..4.0),
        rng.random_range(0.2..0.5),
        rng.random_range(1.0..4.0),
    );
    let block = Vec3::new(
        rng.random_range(0.2..1.0),
        rng.random_range(0.2..1.0),
        rng.random_range(0.2..1.0),
    );
    let turn = Quat::from_rotation_y(rng.random_range(0.0..std::f32::consts::TAU));
    let tilt_axis = Vec3::new(
        rng.random_range(-1.0..1.0),
        0.0,
        rng.random_range(-1.0..1.0),
    )
    .normalize_or(Vec3::X);
    let tilt = Quat::from_axis_angle(tilt_axis, rng.random_range(0.0..MAX_TILT));
    let reach = |slab: f32| slab + 0.5 * block.x.min(block.z);
    let over = Vec3::new(
        rng.random_range(-reach(slab.x)..reach(slab.x)),
        slab.y + block.y * (1.0 - rng.random_range(0.0..MAX_SINK)),
        rng.random_range(-reach(slab.z)..reach(slab.z)),
    );
    let relative = Pose::new(tilt * turn, over).expect("a finite pose");
    let place = Pose::new(
        random_rotation(rng),
        random_unit(rng) * rng.random_range(0.0..10.0),
    )
    .expect("a finite pose");
    Pair {
        a: Cuboid::new(slab).expect("positive sizes").into(),
        pose_a: place,
        b: Cuboid::new(block).expect("positive sizes").into(),
        pose_b: place.compose(&relative),
    }
}
