//! gjk-core shapes and poses as parry3d ones, for the tests and benches that compare
//! with parry: gjk-core's conversions ([`gjk_core::parry`]) with the workloads'
//! shapes, which always have a parry twin, unwrapped.

use gjk_core::{Pose, Shape};
use parry3d::shape::SharedShape;

/// The parry pose of `pose`.
pub fn pose(pose: &Pose) -> parry3d::math::Pose {
    gjk_core::parry::pose_to_parry(pose)
}

/// The parry shape equal to `shape` ([`gjk_core::parry::to_parry_shape`]).
///
/// # Panics
/// When parry refuses the shape (a hull parry cannot rebuild), which the seeded
/// workloads never produce.
pub fn shape(shape: &Shape) -> SharedShape {
    gjk_core::parry::to_parry_shape(shape)
        .unwrap_or_else(|e| panic!("no parry twin for {shape:?}: {e}"))
}
