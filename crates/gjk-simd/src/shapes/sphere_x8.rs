//! Eight balls.

use gjk_core::{CoreSymmetry, FeatureId, Shape, ShapeError, Sphere};
use wide::f32x8;

use super::check_lanes;
use super::shape_x8::LaneShape;
use crate::feature_x8::{FeatureMapX8, FeatureX8, splat_rank};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight balls centred at their local origins: point cores with the radii as
/// margins (the twin of [`gjk_core::Sphere`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SphereX8 {
    radius: f32x8,
}

impl SphereX8 {
    /// Validated lanes: every radius finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Sphere::new`]
    /// checks one.
    pub fn new(radius: f32x8) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: check_lanes("SphereX8", "radius", radius)?,
        })
    }

    /// Radii.
    pub fn radius(&self) -> f32x8 {
        self.radius
    }

    /// Ball `i` in lane `i`.
    pub fn from_array(s: [Sphere; 8]) -> Self {
        Self {
            radius: f32x8::new(s.map(|s| s.radius())),
        }
    }
}

impl SupportMapX8 for SphereX8 {
    const POINT_CORE: bool = true;
    const CORE_SYMMETRY: CoreSymmetry = CoreSymmetry::Point;
    #[inline(always)]
    fn support_core(&self, _dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        Vec3X8::ZERO
    }
    #[inline(always)]
    fn margin(&self) -> f32x8 {
        self.radius
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.radius
    }
    fn finite(&self) -> MaskX8 {
        self.radius.finite()
    }
}

impl FeatureMapX8 for SphereX8 {
    const MAX_VERTICES: usize = 1;
    /// The centre, vertex 0 (`gjk_core::Sphere`'s feature).
    #[inline(always)]
    fn support_feature_x8(&self, _dir: Vec3X8, _lanes: MaskX8) -> FeatureX8 {
        FeatureX8::vertex(Vec3X8::ZERO, splat_rank(FeatureId::vertex(0)))
    }
    #[inline(always)]
    fn bounding_radius_glam(&self) -> f32x8 {
        self.radius
    }
}

impl LaneShape for SphereX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        let mut r = [0.0f32; 8];
        for (k, s) in shapes.iter().enumerate() {
            if let Shape::Sphere(s) = s {
                r[k] = s.radius();
            }
        }
        self.radius = f32x8::new(r);
    }
}
