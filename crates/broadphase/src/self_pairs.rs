//! All overlapping leaf pairs of one tree, found from scratch by a simultaneous
//! traversal of the tree against itself (no incremental state is used or kept).
//!
//! A work item is a pair of nodes `(a, b)`. `(a, a)` stands for "all pairs inside `a`"
//! and expands into both children's self-items plus the cross item of the two
//! children, if their boxes overlap. A cross item `(a, b)` descends into the larger
//! node (by area), keeping only children that overlap the other node. Each unordered
//! leaf pair is reached exactly once: through the cross item of the two children of its
//! lowest common ancestor.

use rayon::prelude::*;

use crate::tree::{DynamicTree, NULL};

/// The number of independent work items the parallel traversal aims for: enough for
/// load balance on many threads, few enough that splitting costs nothing. It is a
/// constant so that the output order does not depend on the thread count.
const PARALLEL_ITEMS: usize = 256;

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

    /// All pairs `(p, q)`, `p < q`, of payloads whose leaf boxes overlap, computed on the
    /// current rayon thread pool. The result, order included, is the same for any
    /// number of threads.
    pub fn overlapping_pairs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        if self.root == NULL {
            return out;
        }
        // Breadth-first expansion into independent items; pairs of leaves met on the
        // way are emitted directly.
        let mut items = std::collections::VecDeque::from([(self.root, self.root)]);
        let mut budget = PARALLEL_ITEMS * 4;
        while items.len() < PARALLEL_ITEMS && budget > 0 {
            budget -= 1;
            let Some(item) = items.pop_front() else { break };
            let mut emit = |p, q| out.push((p, q));
            let mut pushed = Vec::new();
            self.step(item, &mut pushed, &mut emit);
            items.extend(pushed);
        }
        let items: Vec<(u32, u32)> = items.into_iter().collect();
        let parts: Vec<Vec<(u32, u32)>> = items
            .par_iter()
            .with_max_len(1)
            .map(|&item| {
                let mut part = Vec::new();
                let mut stack = vec![item];
                self.drain(&mut stack, &mut |p, q| part.push((p, q)));
                part
            })
            .collect();
        out.reserve(parts.iter().map(Vec::len).sum());
        for part in parts {
            out.extend_from_slice(&part);
        }
        out
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
            if nodes[c1 as usize].aabb.overlaps(&nodes[c2 as usize].aabb) {
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
            if nodes[c as usize].aabb.overlaps(&ob) {
                stack.push((c, other));
            }
        }
    }
}
