//! Ball centred at the local origin.

use glam::Vec3;

use crate::error::{ShapeError, check_size};
use crate::feature::{Feature, FeatureId};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap};

/// A ball of radius `radius` centred at the local origin: a point core with the
/// radius as margin. A zero radius gives the point itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sphere {
    radius: f32,
}

impl Sphere {
    /// A ball; the radius must be finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE).
    #[inline]
    pub fn new(radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: check_size("Sphere", "radius", radius)?,
        })
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

impl SupportMap for Sphere {
    #[inline]
    fn support_core(&self, _dir: Vec3) -> Vec3 {
        Vec3::ZERO
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }

    /// The point core, vertex 0: a ball touches anything at one point.
    #[inline]
    fn support_feature(&self, _dir: Vec3, out: &mut Feature) {
        out.set_vertex(Vec3::ZERO, FeatureId::vertex(0));
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        CoreSymmetry::Point
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn inner_radius(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        Aabb::from_center_half_extents(pose.translation(), Vec3::splat(self.radius))
    }
}
