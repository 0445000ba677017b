//! Shapes dilated by a radius (the "collision skin").

use glam::Vec3;

use crate::error::{ShapeError, check_size};
use crate::feature::Feature;
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap};

/// `inner` dilated by a ball of radius `radius`: its Minkowski sum with that ball.
/// A rounded box, a rounded hull. The radius adds to the inner shape's margin, so
/// GJK still runs on the sharp core.
#[derive(Debug, Clone, PartialEq)]
pub struct Rounded<S> {
    inner: S,
    radius: f32,
}

impl<S: SupportMap> Rounded<S> {
    /// Dilates `inner` by `radius` (finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE)).
    #[inline]
    pub fn new(inner: S, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            inner,
            radius: check_size("Rounded", "radius", radius)?,
        })
    }

    /// The shape being dilated.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The dilation radius (not counting the inner shape's own margin).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

impl<S: SupportMap> SupportMap for Rounded<S> {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        self.inner.support_core(dir)
    }

    #[inline]
    fn support_core_hinted(&self, dir: Vec3, hint: &mut u32) -> Vec3 {
        self.inner.support_core_hinted(dir, hint)
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.inner.margin() + self.radius
    }

    /// The inner shape's feature: the dilation only moves it out along the normal.
    #[inline]
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        self.inner.support_feature(dir, out)
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        self.inner.core_symmetry()
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.inner.bounding_radius() + self.radius
    }

    #[inline]
    fn inner_radius(&self) -> f32 {
        self.inner.inner_radius() + self.radius
    }

    /// The inner shape's box grown by the radius on every side.
    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        self.inner.aabb(pose).grown(self.radius)
    }
}
