//! Eight cones.

use gjk_core::{Cone, CoreSymmetry, Shape, ShapeError};
use wide::f32x8;

use super::check_lanes;
use super::disc_support;
use super::shape_x8::{LaneShape, pack_axial};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight solid cones about their local Y axes, apex at `+half_height`, base disc at
/// `-half_height` (the twin of [`gjk_core::Cone`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConeX8 {
    half_height: f32x8,
    radius: f32x8,
}

impl ConeX8 {
    /// Validated lanes: every half height and radius finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Cone::new`]
    /// checks one; the error names the field.
    pub fn new(half_height: f32x8, radius: f32x8) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_lanes("ConeX8", "half_height", half_height)?,
            radius: check_lanes("ConeX8", "radius", radius)?,
        })
    }

    /// Half the heights.
    pub fn half_height(&self) -> f32x8 {
        self.half_height
    }

    /// Base radii.
    pub fn radius(&self) -> f32x8 {
        self.radius
    }

    /// Cone `i` in lane `i`.
    pub fn from_array(s: [Cone; 8]) -> Self {
        Self {
            half_height: f32x8::new(s.map(|s| s.half_height())),
            radius: f32x8::new(s.map(|s| s.radius())),
        }
    }
}

impl SupportMapX8 for ConeX8 {
    const CORE_SYMMETRY: CoreSymmetry = CoreSymmetry::RevolutionY;

    /// A cone is the hull of its apex and its base rim: per lane, whichever of the
    /// two candidates reaches farther along `dir` (the apex on ties, as in
    /// `gjk-core`).
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        let mut rim = disc_support(dir, self.radius);
        rim.y = -self.half_height;
        let apex = Vec3X8::new(f32x8::ZERO, self.half_height, f32x8::ZERO);
        rim.dot(dir).gt(self.half_height * dir.y).select(rim, apex)
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.radius
            .mul_add(self.radius, self.half_height * self.half_height)
            .sqrt()
    }
    fn finite(&self) -> MaskX8 {
        self.half_height.finite() & self.radius.finite()
    }
}

impl LaneShape for ConeX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        (self.half_height, self.radius) = pack_axial(shapes, |s| match s {
            Shape::Cone(c) => Some((c.half_height(), c.radius())),
            _ => None,
        });
    }
}
