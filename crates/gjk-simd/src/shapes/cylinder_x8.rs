//! Eight cylinders.

use gjk_core::{CoreSymmetry, Cylinder, Shape, ShapeError};
use wide::f32x8;

use super::check_lanes;
use super::shape_x8::{LaneShape, pack_axial};
use super::{disc_support, signed_extent};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight solid cylinders about their local Y axes (the twin of
/// [`gjk_core::Cylinder`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CylinderX8 {
    half_height: f32x8,
    radius: f32x8,
}

impl CylinderX8 {
    /// Validated lanes: every half height and radius finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Cylinder::new`]
    /// checks one; the error names the field.
    pub fn new(half_height: f32x8, radius: f32x8) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_lanes("CylinderX8", "half_height", half_height)?,
            radius: check_lanes("CylinderX8", "radius", radius)?,
        })
    }

    /// Half the heights.
    pub fn half_height(&self) -> f32x8 {
        self.half_height
    }

    /// Radii.
    pub fn radius(&self) -> f32x8 {
        self.radius
    }

    /// Cylinder `i` in lane `i`.
    pub fn from_array(s: [Cylinder; 8]) -> Self {
        Self {
            half_height: f32x8::new(s.map(|s| s.half_height())),
            radius: f32x8::new(s.map(|s| s.radius())),
        }
    }
}

impl SupportMapX8 for CylinderX8 {
    const CORE_SYMMETRY: CoreSymmetry = CoreSymmetry::RevolutionY;

    /// A point of the rim of the cap facing `dir`.
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        let mut p = disc_support(dir, self.radius);
        p.y = signed_extent(dir.y, self.half_height);
        p
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

impl LaneShape for CylinderX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        (self.half_height, self.radius) = pack_axial(shapes, |s| match s {
            Shape::Cylinder(c) => Some((c.half_height(), c.radius())),
            _ => None,
        });
    }
}
