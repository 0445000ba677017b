//! Eight boxes.

use gjk_core::{Cuboid, Shape, ShapeError};
use wide::f32x8;

use super::check_lanes;
use super::shape_x8::LaneShape;
use super::signed_extent;
use crate::math::{MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight boxes centred at their local origins (the twin of [`gjk_core::Cuboid`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CuboidX8 {
    half_extents: Vec3X8,
}

impl CuboidX8 {
    /// Validated lanes: every half extent finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Cuboid::new`]
    /// checks one.
    pub fn new(half_extents: Vec3X8) -> Result<Self, ShapeError> {
        Ok(Self {
            half_extents: Vec3X8::new(
                check_lanes("CuboidX8", "half_extents.x", half_extents.x)?,
                check_lanes("CuboidX8", "half_extents.y", half_extents.y)?,
                check_lanes("CuboidX8", "half_extents.z", half_extents.z)?,
            ),
        })
    }

    /// Half-extents.
    pub fn half_extents(&self) -> Vec3X8 {
        self.half_extents
    }

    /// Box `i` in lane `i`.
    pub fn from_array(s: [Cuboid; 8]) -> Self {
        Self {
            half_extents: Vec3X8::from_array(s.map(|s| s.half_extents())),
        }
    }
}

impl SupportMapX8 for CuboidX8 {
    /// The corner in the octant of `dir` (three selects, no branch).
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        let h = self.half_extents;
        Vec3X8::new(
            signed_extent(dir.x, h.x),
            signed_extent(dir.y, h.y),
            signed_extent(dir.z, h.z),
        )
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.half_extents.length()
    }
    fn finite(&self) -> MaskX8 {
        self.half_extents.finite()
    }
    #[inline(always)]
    fn box_core(&self) -> Option<Vec3X8> {
        Some(self.half_extents)
    }
}

impl LaneShape for CuboidX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        let mut h = [glam::Vec3::ZERO; 8];
        for (k, s) in shapes.iter().enumerate() {
            if let Shape::Cuboid(c) = s {
                h[k] = c.half_extents();
            }
        }
        self.half_extents = Vec3X8::from_array(h);
    }
}
