//! Rays, and where a ray enters a box ([`DynamicTree::ray_cast`](crate::DynamicTree::ray_cast)
//! walks the tree with them).

use glam::{DVec3, Vec3};

use crate::{Aabb, Error};

/// A ray `origin + t * dir`, `t >= 0`, with precomputed reciprocal direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    origin: Vec3,
    dir: Vec3,
    /// The reciprocal direction in f64, finite for every non-zero f32 component
    /// (the reciprocal of a subnormal overflows f32).
    inv_dir: DVec3,
    /// Axes on which `dir` is zero: slabs there are a containment test, which avoids the
    /// `0 * inf = NaN` trap of the reciprocal form.
    parallel: [bool; 3],
}

impl Ray {
    /// A ray from `origin` along `dir` (not necessarily normalised, but not zero).
    pub fn new(origin: Vec3, dir: Vec3) -> Result<Self, Error> {
        if origin.is_nan() || dir.is_nan() {
            return Err(Error::NanCoordinate);
        }
        if !origin.is_finite() || !dir.is_finite() {
            return Err(Error::InfiniteCoordinate);
        }
        if dir == Vec3::ZERO {
            return Err(Error::NegativeValue);
        }
        Ok(Self {
            origin,
            dir,
            inv_dir: dir.as_dvec3().recip(),
            parallel: [dir.x == 0.0, dir.y == 0.0, dir.z == 0.0],
        })
    }

    /// The origin.
    pub fn origin(&self) -> Vec3 {
        self.origin
    }

    /// The direction.
    pub fn dir(&self) -> Vec3 {
        self.dir
    }

    /// The point at parameter `t`.
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + self.dir * t
    }

    /// The parameter at which the ray enters the closed box, if it does so within
    /// `[0, max_t]` (0 when the origin is inside) and at a finite f32 parameter.
    ///
    /// The slabs are intersected in f64: along a direction of 1e-30 a box 1e9 away
    /// is entered at `t = 1e39`, beyond f32's range, and such an entry is no hit
    /// (casts report only finite parameters).
    #[inline]
    pub fn intersect_aabb(&self, aabb: &Aabb, max_t: f32) -> Option<f32> {
        let mut t0 = 0.0f64;
        let mut t1 = f64::from(max_t).min(f64::from(f32::MAX));
        let (lo, hi) = (aabb.min(), aabb.max());
        for axis in 0..3 {
            let o = self.origin[axis];
            if self.parallel[axis] {
                if o < lo[axis] || o > hi[axis] {
                    return None;
                }
                continue;
            }
            let o = f64::from(o);
            let a = (f64::from(lo[axis]) - o) * self.inv_dir[axis];
            let b = (f64::from(hi[axis]) - o) * self.inv_dir[axis];
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        (t0 <= t1).then_some(t0 as f32)
    }
}
