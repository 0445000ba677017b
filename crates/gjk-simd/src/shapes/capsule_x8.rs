//! Eight capsules.

use gjk_core::{Capsule, CoreSymmetry, FeatureId, Shape, ShapeError};
use wide::f32x8;

use super::check_lanes;
use super::shape_x8::{LaneShape, pack_axial};
use super::signed_extent;
use crate::feature_x8::{FeatureMapX8, FeatureX8, splat_rank};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight capsules along their local Y axes: segment cores from `-half_height` to
/// `half_height` with the radii as margins (the twin of [`gjk_core::Capsule`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CapsuleX8 {
    half_height: f32x8,
    radius: f32x8,
}

impl CapsuleX8 {
    /// Validated lanes: every half height and radius finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Capsule::new`]
    /// checks one; the error names the field.
    pub fn new(half_height: f32x8, radius: f32x8) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_lanes("CapsuleX8", "half_height", half_height)?,
            radius: check_lanes("CapsuleX8", "radius", radius)?,
        })
    }

    /// Half the length of each core segment.
    pub fn half_height(&self) -> f32x8 {
        self.half_height
    }

    /// Radii.
    pub fn radius(&self) -> f32x8 {
        self.radius
    }

    /// Capsule `i` in lane `i`.
    pub fn from_array(s: [Capsule; 8]) -> Self {
        Self {
            half_height: f32x8::new(s.map(|s| s.half_height())),
            radius: f32x8::new(s.map(|s| s.radius())),
        }
    }
}

impl SupportMapX8 for CapsuleX8 {
    const CORE_SYMMETRY: CoreSymmetry = CoreSymmetry::RevolutionY;

    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        Vec3X8::new(
            f32x8::ZERO,
            signed_extent(dir.y, self.half_height),
            f32x8::ZERO,
        )
    }
    #[inline(always)]
    fn margin(&self) -> f32x8 {
        self.radius
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.half_height + self.radius
    }
    fn finite(&self) -> MaskX8 {
        self.half_height.finite() & self.radius.finite()
    }
}

impl FeatureMapX8 for CapsuleX8 {
    const MAX_VERTICES: usize = 2;
    /// The whole core segment, edge 0 from vertex 0 (bottom) to vertex 1 (top);
    /// vertex 0 at the centre for a zero-length core (`gjk_core::Capsule`'s
    /// feature).
    #[inline(always)]
    fn support_feature_x8(&self, _dir: Vec3X8, _lanes: MaskX8) -> FeatureX8 {
        let top = Vec3X8::new(f32x8::ZERO, self.half_height, f32x8::ZERO);
        let segment = FeatureX8::segment(
            -top,
            top,
            [
                splat_rank(FeatureId::vertex(0)),
                splat_rank(FeatureId::vertex(1)),
            ],
            splat_rank(FeatureId::edge(0)),
        );
        let point = FeatureX8::vertex(Vec3X8::ZERO, splat_rank(FeatureId::vertex(0)));
        FeatureX8::select(self.half_height.gt(f32x8::ZERO), &segment, &point)
    }
    #[inline(always)]
    fn bounding_radius_glam(&self) -> f32x8 {
        self.half_height + self.radius
    }
}

impl LaneShape for CapsuleX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        (self.half_height, self.radius) = pack_axial(shapes, |s| match s {
            Shape::Capsule(c) => Some((c.half_height(), c.radius())),
            _ => None,
        });
    }
}
