//! Box centred at the local origin.

use glam::Vec3;

use crate::error::{ShapeError, check_size};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::SupportMap;

/// A box with the given half-extents, centred at the local origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid {
    half_extents: Vec3,
}

impl Cuboid {
    /// A box; every half-extent finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE). Zero extents give a rectangle, a
    /// segment or a point.
    #[inline]
    pub fn new(half_extents: Vec3) -> Result<Self, ShapeError> {
        check_size("Cuboid", "half_extents.x", half_extents.x)?;
        check_size("Cuboid", "half_extents.y", half_extents.y)?;
        check_size("Cuboid", "half_extents.z", half_extents.z)?;
        Ok(Self { half_extents })
    }

    /// The half-extents.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        self.half_extents
    }
}

/// `+1` for non-negative components, `-1` for negative ones. A zero component picks
/// the positive face: any point of the face is a valid support point, and a fixed
/// choice keeps results deterministic.
#[inline]
pub(crate) fn sign_non_negative(v: Vec3) -> Vec3 {
    Vec3::select(v.cmplt(Vec3::ZERO), Vec3::NEG_ONE, Vec3::ONE)
}

impl SupportMap for Cuboid {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        self.half_extents * sign_non_negative(dir)
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.half_extents.length()
    }

    /// The nearest faces are those of the smallest half extent.
    #[inline]
    fn inner_radius(&self) -> f32 {
        self.half_extents.min_element()
    }

    /// The corner farthest along world axis `i` reaches `Σ_j |R_ij| h_j`.
    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        let half = pose.rotation_matrix().abs() * self.half_extents;
        Aabb::from_center_half_extents(pose.translation(), half)
    }
}
