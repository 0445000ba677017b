//! Eight 3-vectors.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use glam::Vec3;
use wide::f32x8;

use super::mask_x8::{CmpX8, MaskX8, SelectX8};

/// Eight `Vec3`s in structure-of-arrays form: lane `i` of `x`, `y`, `z` is vector `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3X8 {
    /// The x components.
    pub x: f32x8,
    /// The y components.
    pub y: f32x8,
    /// The z components.
    pub z: f32x8,
}

impl Vec3X8 {
    /// Every lane zero.
    pub const ZERO: Vec3X8 = Vec3X8 {
        x: f32x8::ZERO,
        y: f32x8::ZERO,
        z: f32x8::ZERO,
    };

    /// From components.
    #[inline(always)]
    pub fn new(x: f32x8, y: f32x8, z: f32x8) -> Self {
        Self { x, y, z }
    }

    /// The same vector in every lane.
    #[inline(always)]
    pub fn splat(v: Vec3) -> Self {
        Self::new(f32x8::splat(v.x), f32x8::splat(v.y), f32x8::splat(v.z))
    }

    /// Vector `i` of `vs` in lane `i`.
    ///
    /// One register row per vector, then an 8x8 transpose: gathering the
    /// coordinates lane by lane from the array reads it with loads that straddle
    /// the vectors' separate stores, which the CPU cannot forward (on the cuboid
    /// packing this stall took half of the conversion's time).
    #[inline]
    pub fn from_array(vs: [Vec3; 8]) -> Self {
        // `from_fn`, not `vs.map`: the compiler left the `map` out of line, a
        // call and a round trip of the rows through the stack for every packing.
        let rows: [f32x8; 8] = std::array::from_fn(|i| {
            let v = vs[i];
            f32x8::new([v.x, v.y, v.z, 0.0, 0.0, 0.0, 0.0, 0.0])
        });
        let [x, y, z, ..] = f32x8::transpose(rows);
        Self::new(x, y, z)
    }

    /// Lane `i` as vector `i`.
    pub fn to_array(self) -> [Vec3; 8] {
        let (x, y, z) = (self.x.to_array(), self.y.to_array(), self.z.to_array());
        std::array::from_fn(|i| Vec3::new(x[i], y[i], z[i]))
    }

    /// Lane `i`.
    #[inline]
    pub fn lane(&self, i: usize) -> Vec3 {
        Vec3::new(
            self.x.as_array()[i],
            self.y.as_array()[i],
            self.z.as_array()[i],
        )
    }

    /// Overwrites lane `i`.
    #[inline]
    pub fn set_lane(&mut self, i: usize, v: Vec3) {
        self.x.as_mut_array()[i] = v.x;
        self.y.as_mut_array()[i] = v.y;
        self.z.as_mut_array()[i] = v.z;
    }

    /// Dot product per lane, `x·x' + y·y' + z·z'` accumulated with fused
    /// multiply-adds in that order.
    #[inline(always)]
    pub fn dot(self, o: Vec3X8) -> f32x8 {
        self.z.mul_add(o.z, self.y.mul_add(o.y, self.x * o.x))
    }

    /// Cross product per lane.
    #[inline(always)]
    pub fn cross(self, o: Vec3X8) -> Vec3X8 {
        Vec3X8::new(
            self.y.mul_sub(o.z, self.z * o.y),
            self.z.mul_sub(o.x, self.x * o.z),
            self.x.mul_sub(o.y, self.y * o.x),
        )
    }

    /// Squared length per lane.
    #[inline(always)]
    pub fn length_squared(self) -> f32x8 {
        self.dot(self)
    }

    /// Length per lane.
    #[inline(always)]
    pub fn length(self) -> f32x8 {
        self.length_squared().sqrt()
    }

    /// `self * s + add` per lane with fused multiply-adds.
    #[inline(always)]
    pub fn mul_add(self, s: f32x8, add: Vec3X8) -> Vec3X8 {
        Vec3X8::new(
            self.x.mul_add(s, add.x),
            self.y.mul_add(s, add.y),
            self.z.mul_add(s, add.z),
        )
    }

    /// Component-wise absolute value, as glam's `Vec3::abs`.
    #[inline(always)]
    pub fn abs(self) -> Vec3X8 {
        Vec3X8::new(self.x.abs(), self.y.abs(), self.z.abs())
    }

    /// The largest component, as glam's `Vec3::max_element`.
    #[inline(always)]
    pub fn max_element(self) -> f32x8 {
        self.x.max(self.y).max(self.z)
    }

    /// Each component clamped to `[lo, hi]`, as glam's `Vec3::clamp` (`lo <= hi`).
    #[inline(always)]
    pub fn clamp(self, lo: Vec3X8, hi: Vec3X8) -> Vec3X8 {
        Vec3X8::new(
            self.x.max(lo.x).min(hi.x),
            self.y.max(lo.y).min(hi.y),
            self.z.max(lo.z).min(hi.z),
        )
    }

    /// Lanes whose three components are all finite.
    #[inline(always)]
    pub fn finite(self) -> MaskX8 {
        self.x.finite() & self.y.finite() & self.z.finite()
    }

    /// Lanes where `self` and `o` are equal component by component.
    #[inline(always)]
    pub fn same(self, o: Vec3X8) -> MaskX8 {
        self.x.same(o.x) & self.y.same(o.y) & self.z.same(o.z)
    }
}

impl SelectX8 for Vec3X8 {
    #[inline(always)]
    fn select_x8(mask: MaskX8, a: Self, b: Self) -> Self {
        Vec3X8::new(
            mask.select(a.x, b.x),
            mask.select(a.y, b.y),
            mask.select(a.z, b.z),
        )
    }
}

impl From<[Vec3; 8]> for Vec3X8 {
    fn from(vs: [Vec3; 8]) -> Self {
        Self::from_array(vs)
    }
}

impl From<Vec3X8> for [Vec3; 8] {
    fn from(v: Vec3X8) -> Self {
        v.to_array()
    }
}

impl Add for Vec3X8 {
    type Output = Vec3X8;
    #[inline(always)]
    fn add(self, o: Vec3X8) -> Vec3X8 {
        Vec3X8::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for Vec3X8 {
    type Output = Vec3X8;
    #[inline(always)]
    fn sub(self, o: Vec3X8) -> Vec3X8 {
        Vec3X8::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl AddAssign for Vec3X8 {
    #[inline(always)]
    fn add_assign(&mut self, o: Vec3X8) {
        *self = *self + o;
    }
}

impl SubAssign for Vec3X8 {
    #[inline(always)]
    fn sub_assign(&mut self, o: Vec3X8) {
        *self = *self - o;
    }
}

impl Mul<f32x8> for Vec3X8 {
    type Output = Vec3X8;
    #[inline(always)]
    fn mul(self, s: f32x8) -> Vec3X8 {
        Vec3X8::new(self.x * s, self.y * s, self.z * s)
    }
}

impl Mul<Vec3X8> for Vec3X8 {
    type Output = Vec3X8;
    /// Component-wise product.
    #[inline(always)]
    fn mul(self, o: Vec3X8) -> Vec3X8 {
        Vec3X8::new(self.x * o.x, self.y * o.y, self.z * o.z)
    }
}

impl Neg for Vec3X8 {
    type Output = Vec3X8;
    #[inline(always)]
    fn neg(self) -> Vec3X8 {
        Vec3X8::new(-self.x, -self.y, -self.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> [Vec3; 8] {
        std::array::from_fn(|i| Vec3::new(i as f32, 1.0 - i as f32 * 0.5, 0.25 * i as f32 + 2.0))
    }

    #[test]
    fn matches_glam() {
        let a = sample();
        let b = a.map(|v| Vec3::new(v.z, v.y, v.x) * 1.5 - Vec3::ONE);
        let (wa, wb) = (Vec3X8::from(a), Vec3X8::from(b));
        let cross = wa.cross(wb).to_array();
        let dot = wa.dot(wb).to_array();
        for i in 0..8 {
            assert!((cross[i] - a[i].cross(b[i])).length() < 1e-5);
            assert!((dot[i] - a[i].dot(b[i])).abs() < 1e-5);
            assert_eq!(wa.lane(i), a[i]);
        }
        assert_eq!((wa - wb + wb).to_array(), a);
        let (lo, hi) = (Vec3::new(-1.0, 0.0, 2.5), Vec3::new(1.0, 0.5, 3.0));
        let clamped = wb.clamp(Vec3X8::splat(lo), Vec3X8::splat(hi)).to_array();
        for i in 0..8 {
            assert_eq!(wb.abs().lane(i), b[i].abs());
            assert_eq!(wb.max_element().to_array()[i], b[i].max_element());
            assert_eq!(clamped[i], b[i].clamp(lo, hi));
        }
    }
}
