//! Rays and ray casts against the tree.

use glam::Vec3;

use crate::tree::{DynamicTree, NULL};
use crate::{Aabb, Error};

/// A ray `origin + t * dir`, `t >= 0`, with precomputed reciprocal direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    origin: Vec3,
    dir: Vec3,
    inv_dir: Vec3,
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
            inv_dir: dir.recip(),
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
    /// `[0, max_t]` (0 when the origin is inside).
    #[inline]
    pub fn intersect_aabb(&self, aabb: &Aabb, max_t: f32) -> Option<f32> {
        let mut t0 = 0.0f32;
        let mut t1 = max_t;
        let (lo, hi) = (aabb.min(), aabb.max());
        for axis in 0..3 {
            let o = self.origin[axis];
            if self.parallel[axis] {
                if o < lo[axis] || o > hi[axis] {
                    return None;
                }
                continue;
            }
            let a = (lo[axis] - o) * self.inv_dir[axis];
            let b = (hi[axis] - o) * self.inv_dir[axis];
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
        (t0 <= t1).then_some(t0)
    }
}

impl DynamicTree {
    /// Casts a ray through the tree, calling `f(payload, t_enter)` for every leaf box the
    /// ray enters within `[0, max_t]`, nearest subtrees first.
    ///
    /// `f` returns the new `max_t`: return its input's `max_t` (or any larger value is
    /// clamped) to see every hit, the exact hit distance found by a narrowphase to keep
    /// only closer leaves (closest-hit), or a negative value to stop.
    pub fn ray_cast(&self, ray: &Ray, max_t: f32, mut f: impl FnMut(u32, f32) -> f32) {
        if self.root == NULL || max_t.is_nan() || max_t < 0.0 {
            return;
        }
        let mut max_t = max_t;
        let mut stack: Vec<(u32, f32)> = Vec::with_capacity(64);
        if let Some(t) = ray.intersect_aabb(&self.nodes[self.root as usize].aabb, max_t) {
            stack.push((self.root, t));
        }
        let mut budget = self.nodes.len();
        while let Some((n, t_enter)) = stack.pop() {
            if budget == 0 || max_t < 0.0 {
                break;
            }
            budget -= 1;
            if t_enter > max_t {
                continue;
            }
            let node = self.nodes[n as usize];
            if node.is_leaf() {
                max_t = f(node.child2, t_enter).min(max_t);
                continue;
            }
            let a = ray.intersect_aabb(&self.nodes[node.child1 as usize].aabb, max_t);
            let b = ray.intersect_aabb(&self.nodes[node.child2 as usize].aabb, max_t);
            // Push the farther child first so the nearer one is visited first.
            match (a, b) {
                (Some(ta), Some(tb)) => {
                    if ta <= tb {
                        stack.push((node.child2, tb));
                        stack.push((node.child1, ta));
                    } else {
                        stack.push((node.child1, ta));
                        stack.push((node.child2, tb));
                    }
                }
                (Some(ta), None) => stack.push((node.child1, ta)),
                (None, Some(tb)) => stack.push((node.child2, tb)),
                (None, None) => {}
            }
        }
    }
}
