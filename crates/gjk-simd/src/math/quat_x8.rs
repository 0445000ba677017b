//! Eight quaternions.

use glam::Quat;
use wide::f32x8;

use super::mask_x8::{CmpX8, MaskX8, SelectX8};
use super::mat3_x8::Mat3X8;
use super::vec3_x8::Vec3X8;

/// Eight quaternions `x i + y j + z k + w`, one per lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuatX8 {
    /// The i components.
    pub x: f32x8,
    /// The j components.
    pub y: f32x8,
    /// The k components.
    pub z: f32x8,
    /// The real parts.
    pub w: f32x8,
}

impl Default for QuatX8 {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl QuatX8 {
    /// The identity rotation in every lane.
    pub const IDENTITY: QuatX8 = QuatX8 {
        x: f32x8::ZERO,
        y: f32x8::ZERO,
        z: f32x8::ZERO,
        w: f32x8::ONE,
    };

    /// Quaternion `i` of `qs` in lane `i`.
    pub fn from_array(qs: [Quat; 8]) -> Self {
        Self {
            x: f32x8::new(qs.map(|q| q.x)),
            y: f32x8::new(qs.map(|q| q.y)),
            z: f32x8::new(qs.map(|q| q.z)),
            w: f32x8::new(qs.map(|q| q.w)),
        }
    }

    /// Lane `i` as quaternion `i`.
    pub fn to_array(self) -> [Quat; 8] {
        let (x, y, z, w) = (
            self.x.to_array(),
            self.y.to_array(),
            self.z.to_array(),
            self.w.to_array(),
        );
        std::array::from_fn(|i| Quat::from_xyzw(x[i], y[i], z[i], w[i]))
    }

    /// The inverse rotation of a unit quaternion.
    #[inline(always)]
    pub fn conjugate(self) -> Self {
        Self {
            x: -self.x,
            y: -self.y,
            z: -self.z,
            w: self.w,
        }
    }

    /// Hamilton product `self * rhs` (apply `rhs`, then `self`).
    #[inline(always)]
    fn hamilton(self, r: QuatX8) -> QuatX8 {
        let (a, b) = (self, r);
        QuatX8 {
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        }
    }

    /// Squared norm per lane.
    #[inline(always)]
    pub fn length_squared(self) -> f32x8 {
        self.w.mul_add(
            self.w,
            self.z
                .mul_add(self.z, self.y.mul_add(self.y, self.x * self.x)),
        )
    }

    /// Scaled to unit length (a zero quaternion gives NaN lanes, which the kernels
    /// report as invalid input).
    #[inline(always)]
    pub fn normalize(self) -> QuatX8 {
        let inv = f32x8::ONE / self.length_squared().sqrt();
        QuatX8 {
            x: self.x * inv,
            y: self.y * inv,
            z: self.z * inv,
            w: self.w * inv,
        }
    }

    /// The rotation matrix of a unit quaternion.
    #[inline(always)]
    pub fn to_mat3(self) -> Mat3X8 {
        let (x2, y2, z2) = (self.x + self.x, self.y + self.y, self.z + self.z);
        let (xx, xy, xz) = (self.x * x2, self.x * y2, self.x * z2);
        let (yy, yz, zz) = (self.y * y2, self.y * z2, self.z * z2);
        let (wx, wy, wz) = (self.w * x2, self.w * y2, self.w * z2);
        let one = f32x8::ONE;
        Mat3X8 {
            x_axis: Vec3X8::new(one - (yy + zz), xy + wz, xz - wy),
            y_axis: Vec3X8::new(xy - wz, one - (xx + zz), yz + wx),
            z_axis: Vec3X8::new(xz + wy, yz - wx, one - (xx + yy)),
        }
    }

    /// Lanes whose four components are finite.
    #[inline(always)]
    pub fn finite(self) -> MaskX8 {
        self.x.finite() & self.y.finite() & self.z.finite() & self.w.finite()
    }
}

impl SelectX8 for QuatX8 {
    #[inline(always)]
    fn select_x8(m: MaskX8, a: Self, b: Self) -> Self {
        QuatX8 {
            x: m.select(a.x, b.x),
            y: m.select(a.y, b.y),
            z: m.select(a.z, b.z),
            w: m.select(a.w, b.w),
        }
    }
}

impl std::ops::Mul for QuatX8 {
    type Output = QuatX8;
    /// Hamilton product `self * rhs` (apply `rhs`, then `self`).
    #[inline(always)]
    fn mul(self, rhs: QuatX8) -> QuatX8 {
        self.hamilton(rhs)
    }
}

impl From<[Quat; 8]> for QuatX8 {
    fn from(qs: [Quat; 8]) -> Self {
        Self::from_array(qs)
    }
}

#[cfg(test)]
mod tests {
    use glam::{Mat3, Vec3};

    use super::*;

    #[test]
    fn matches_glam() {
        let qa: [Quat; 8] = std::array::from_fn(|i| {
            Quat::from_axis_angle(Vec3::new(1.0, i as f32, 0.5).normalize(), 0.3 * i as f32)
        });
        let qb: [Quat; 8] = std::array::from_fn(|i| Quat::from_rotation_y(-0.7 * i as f32));
        let prod = (QuatX8::from(qa) * QuatX8::from(qb)).to_array();
        let m = QuatX8::from(qa).to_mat3();
        let v = Vec3::new(0.3, -1.2, 2.0);
        let mv = m.mul_vec3(Vec3X8::splat(v)).to_array();
        for i in 0..8 {
            assert!(prod[i].abs_diff_eq(qa[i] * qb[i], 1e-6));
            assert!((mv[i] - Mat3::from_quat(qa[i]) * v).length() < 1e-5);
        }
    }
}
