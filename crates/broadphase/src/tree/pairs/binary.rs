//! All overlapping leaf pairs of one tree, found from scratch by a simultaneous
//! traversal of the tree against itself (no incremental state is used or kept).
//!
//! A work item is a pair of nodes `(a, b)`. `(a, a)` stands for "all pairs inside `a`"
//! and expands into both children's self-items plus the cross item of the two
//! children, if their boxes overlap. A cross item `(a, b)` descends into the larger
//! node (by area), keeping only children that overlap the other node. Each unordered
//! leaf pair is reached exactly once: through the cross item of the two children of its
//! lowest common ancestor.
//!
//! This binary traversal backs the allocation-free serial callback API; the `Vec`
//! returning [`DynamicTree::overlapping_pairs`] uses the faster wide snapshot (see the
//! `snapshot` module).

use crate::tree::{DynamicTree, NULL};

impl DynamicTree {
    /// Calls `f(p, q)` with `p < q` for every pair of leaves (by payload) whose boxes
    /// overlap. The order is deterministic (it depends only on the tree's shape).
    pub fn for_each_overlapping_pair(&self, mut f: impl FnMut(u32, u32)) {
        if self.root == NULL {
            return;
        }
        let mut stack = vec![(self.root, self.root)];
        self.drain(&mut stack, &mut f);
    }

    /// Processes work items until the stack is empty.
    fn drain(&self, stack: &mut Vec<(u32, u32)>, f: &mut impl FnMut(u32, u32)) {
        // Each item is a distinct pair of nodes, so nodes^2 bounds the work.
        let n = self.nodes.len() as u64;
        let mut budget = n * n + 1;
        while let Some(item) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            self.step(item, stack, f);
        }
    }

    #[inline]
    fn step(&self, (a, b): (u32, u32), stack: &mut Vec<(u32, u32)>, f: &mut impl FnMut(u32, u32)) {
        let nodes = &self.nodes;
        let na = nodes[a as usize];
        if a == b {
            if na.is_leaf() {
                return;
            }
            let (c1, c2) = (na.child1, na.child2);
            stack.push((c2, c2));
            stack.push((c1, c1));
            if nodes[c1 as usize].aabb.intersects(&nodes[c2 as usize].aabb) {
                stack.push((c1, c2));
            }
            return;
        }
        let nb = nodes[b as usize];
        match (na.is_leaf(), nb.is_leaf()) {
            (true, true) => {
                let (p, q) = (na.child2, nb.child2);
                if p < q { f(p, q) } else { f(q, p) }
            }
            (false, true) => self.descend(a, b, stack),
            (true, false) => self.descend(b, a, stack),
            (false, false) => {
                if na.aabb.surface_area() >= nb.aabb.surface_area() {
                    self.descend(a, b, stack)
                } else {
                    self.descend(b, a, stack)
                }
            }
        }
    }

    /// Pushes `(child, other)` for the children of internal node `a` that overlap `other`.
    #[inline]
    fn descend(&self, a: u32, other: u32, stack: &mut Vec<(u32, u32)>) {
        let nodes = &self.nodes;
        let na = nodes[a as usize];
        let ob = nodes[other as usize].aabb;
        for c in [na.child1, na.child2] {
            if nodes[c as usize].aabb.intersects(&ob) {
                stack.push((c, other));
            }
        }
    }
}
