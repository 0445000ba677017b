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

/// Standard pairs as the columns the batch queries take, with their parry twins:
/// what a bench comparing widephase and parry on the same pairs starts from.
pub struct PairColumns {
    /// A's shapes.
    pub a: Vec<Shape>,
    /// B's shapes.
    pub b: Vec<Shape>,
    /// A's poses.
    pub poses_a: Vec<Pose>,
    /// B's poses.
    pub poses_b: Vec<Pose>,
    /// Each pair as parry shapes and poses: `(a, pose_a, b, pose_b)`.
    pub parry: Vec<(
        SharedShape,
        parry3d::math::Pose,
        SharedShape,
        parry3d::math::Pose,
    )>,
}

impl PairColumns {
    /// `n` standard pairs of `kind` from `seed` ([`crate::standard_pairs`]).
    pub fn standard(kind: crate::PairKind, n: usize, seed: u64) -> Self {
        Self::from_pairs(&crate::standard_pairs(kind, n, seed))
    }

    /// The columns of `pairs`.
    pub fn from_pairs(pairs: &[crate::Pair]) -> Self {
        PairColumns {
            a: pairs.iter().map(|p| p.a.clone()).collect(),
            b: pairs.iter().map(|p| p.b.clone()).collect(),
            poses_a: pairs.iter().map(|p| p.pose_a).collect(),
            poses_b: pairs.iter().map(|p| p.pose_b).collect(),
            parry: pairs
                .iter()
                .map(|p| (shape(&p.a), pose(&p.pose_a), shape(&p.b), pose(&p.pose_b)))
                .collect(),
        }
    }
}
