//! Ray casts through the tree, nearest subtrees first.

use super::{DynamicTree, NULL};
use crate::Ray;

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
