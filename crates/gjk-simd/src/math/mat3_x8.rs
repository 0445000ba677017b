//! Eight 3x3 matrices (rotations).

use super::mask_x8::{MaskX8, SelectX8};
use super::vec3_x8::Vec3X8;

/// Eight 3x3 matrices stored by column, one per lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mat3X8 {
    /// First columns.
    pub x_axis: Vec3X8,
    /// Second columns.
    pub y_axis: Vec3X8,
    /// Third columns.
    pub z_axis: Vec3X8,
}

impl Mat3X8 {
    /// The identity in every lane.
    pub const IDENTITY: Mat3X8 = {
        use wide::f32x8;
        let (o, z) = (f32x8::ONE, f32x8::ZERO);
        Mat3X8 {
            x_axis: Vec3X8 { x: o, y: z, z },
            y_axis: Vec3X8 { x: z, y: o, z },
            z_axis: Vec3X8 { x: z, y: z, z: o },
        }
    };

    /// `M v` per lane.
    #[inline(always)]
    pub fn mul_vec3(&self, v: Vec3X8) -> Vec3X8 {
        self.z_axis
            .mul_add(v.z, self.y_axis.mul_add(v.y, self.x_axis * v.x))
    }

    /// `Mᵀ v` per lane: the inverse of a rotation applied without forming it.
    #[inline(always)]
    pub fn transpose_mul_vec3(&self, v: Vec3X8) -> Vec3X8 {
        Vec3X8::new(self.x_axis.dot(v), self.y_axis.dot(v), self.z_axis.dot(v))
    }

    /// Lanes whose nine entries are finite.
    #[inline(always)]
    pub fn finite(&self) -> MaskX8 {
        self.x_axis.finite() & self.y_axis.finite() & self.z_axis.finite()
    }
}

impl SelectX8 for Mat3X8 {
    #[inline(always)]
    fn select_x8(m: MaskX8, a: Self, b: Self) -> Self {
        Mat3X8 {
            x_axis: m.select(a.x_axis, b.x_axis),
            y_axis: m.select(a.y_axis, b.y_axis),
            z_axis: m.select(a.z_axis, b.z_axis),
        }
    }
}
