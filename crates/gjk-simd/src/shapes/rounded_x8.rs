//! Eight shapes dilated by per-lane radii.

use gjk_core::{CoreSymmetry, ShapeError};
use wide::f32x8;

use super::check_lanes;
use crate::feature_x8::{FeatureMapX8, FeatureX8};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// `inner` dilated per lane by `radius` (the twin of [`gjk_core::Rounded`]): the
/// core is the inner shape's core, the radius adds to its margin.
///
/// The batch driver runs every shape of a kind as a `RoundedX8` of that kind, with
/// radius 0 for plain shapes, so rounded and plain shapes share one kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundedX8<S> {
    pub(crate) inner: S,
    pub(crate) radius: f32x8,
}

impl<S> RoundedX8<S> {
    /// `inner` dilated by validated radii: every lane finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Rounded::new`]
    /// checks one.
    pub fn new(inner: S, radius: f32x8) -> Result<Self, ShapeError> {
        Ok(Self {
            inner,
            radius: check_lanes("RoundedX8", "radius", radius)?,
        })
    }

    /// The shapes being dilated.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Dilation radii (not counting the inner shapes' own margins).
    pub fn radius(&self) -> f32x8 {
        self.radius
    }
}

impl<S: SupportMapX8> SupportMapX8 for RoundedX8<S> {
    const POINT_CORE: bool = S::POINT_CORE;
    const CORE_SYMMETRY: CoreSymmetry = S::CORE_SYMMETRY;
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, active: MaskX8) -> Vec3X8 {
        self.inner.support_core(dir, active)
    }
    #[inline(always)]
    fn margin(&self) -> f32x8 {
        self.inner.margin() + self.radius
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.inner.bounding_radius() + self.radius
    }
    fn finite(&self) -> MaskX8 {
        self.inner.finite() & self.radius.finite()
    }
    #[inline(always)]
    fn box_core(&self) -> Option<Vec3X8> {
        self.inner.box_core()
    }
}

impl<S: FeatureMapX8> FeatureMapX8 for RoundedX8<S> {
    const MAX_VERTICES: usize = S::MAX_VERTICES;
    /// The inner shape's feature: rounding dilates the core without changing it.
    #[inline(always)]
    fn support_feature_x8(&self, dir: Vec3X8, lanes: MaskX8) -> FeatureX8 {
        self.inner.support_feature_x8(dir, lanes)
    }
    #[inline(always)]
    fn bounding_radius_glam(&self) -> f32x8 {
        self.inner.bounding_radius_glam() + self.radius
    }
}
