//! Box queries: one at a time, or many interleaved so that their cache misses overlap.

use glam::Vec3;

use super::{DynamicTree, NULL};
use crate::Aabb;
use crate::prefetch::prefetch;

impl DynamicTree {
    /// Calls `f(payload)` for every leaf whose box overlaps `aabb` (closed boxes).
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        let mut stack = Vec::with_capacity(64);
        self.query_with_stack(aabb, &mut stack, &mut f);
    }

    /// [`query`](Self::query) with a caller-provided stack, so hot loops allocate
    /// nothing.
    fn query_with_stack(&self, aabb: &Aabb, stack: &mut Vec<u32>, f: &mut impl FnMut(u32)) {
        stack.clear();
        if self.root == NULL {
            return;
        }
        stack.push(self.root);
        let mut budget = self.nodes.len();
        while let Some(n) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let node = &self.nodes[n as usize];
            if !node.aabb.intersects(aabb) {
                continue;
            }
            if node.is_leaf() {
                f(node.child2);
            } else {
                stack.push(node.child2);
                stack.push(node.child1);
            }
        }
    }

    /// Runs many box queries, `K` at a time, interleaving their traversals one node at a
    /// time. A lone query stalls on every cache miss of a tree larger than the cache,
    /// because each node load depends on the previous one; the loads of `K` independent
    /// queries can be in flight together. A query that finishes hands its slot to the
    /// next one, so `K` queries stay in flight until the list runs out; the children of
    /// a visited node are prefetched when pushed. `f(i, payload)` reports a hit of query
    /// `i` (hits of different queries interleave).
    pub(crate) fn query_many<const K: usize>(
        &self,
        count: usize,
        query: impl Fn(usize) -> Aabb,
        stacks: &mut [Vec<u32>; K],
        f: &mut impl FnMut(usize, u32),
    ) {
        if self.root == NULL || count == 0 {
            return;
        }
        // Slot k runs query `current[k]` with box `boxes[k]`, or is idle (`usize::MAX`).
        let mut current = [usize::MAX; K];
        let mut boxes = [Aabb::new_unchecked(Vec3::ZERO, Vec3::ZERO); K];
        let mut next = 0;
        let mut active = 0;
        for k in 0..K {
            stacks[k].clear();
            if next < count {
                current[k] = next;
                boxes[k] = query(next);
                stacks[k].push(self.root);
                next += 1;
                active += 1;
            }
        }
        // Every query visits each node at most once.
        let mut budget = (self.nodes.len() + 1) * count;
        while active > 0 && budget > 0 {
            for k in 0..K {
                let Some(n) = stacks[k].pop() else { continue };
                budget = budget.saturating_sub(1);
                let node = &self.nodes[n as usize];
                if node.aabb.intersects(&boxes[k]) {
                    if node.is_leaf() {
                        f(current[k], node.child2);
                    } else {
                        // Both children are popped within a few rounds: their loads
                        // start now, a round earlier than the interleaving alone would
                        // start them (measured: BENCHMARKS.md).
                        prefetch(&self.nodes[node.child1 as usize]);
                        prefetch(&self.nodes[node.child2 as usize]);
                        stacks[k].push(node.child2);
                        stacks[k].push(node.child1);
                    }
                }
                if stacks[k].is_empty() {
                    if next < count {
                        current[k] = next;
                        boxes[k] = query(next);
                        stacks[k].push(self.root);
                        next += 1;
                    } else {
                        current[k] = usize::MAX;
                        active -= 1;
                    }
                }
            }
        }
    }
}
