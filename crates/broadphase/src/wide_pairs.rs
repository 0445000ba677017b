//! All overlapping pairs from scratch through an 8-wide snapshot of the tree, tested
//! eight boxes at a time with `f32x8`.
//!
//! The binary tree is collapsed into 8-ary nodes (each node keeps the up-to-8
//! descendants reached by repeatedly opening its largest internal descendant), with the
//! children's bounds stored as six `f32x8` rows. Testing one box against a node is then
//! six vector compares and a mask. The self-traversal of the snapshot works on three
//! kinds of work items:
//! - `Inner(a)`: all pairs below node `a`: its children against each other, then each
//!   internal child's own `Inner`.
//! - `Cross(a, b)`: all pairs between two disjoint subtrees. Each side is first culled
//!   against the other node's bounds (two vector tests), and only surviving children of
//!   `a` are tested against the surviving children of `b`.
//! - `Probe(box, leaf, b)`: one leaf against a subtree (leaves sit at varying depths).
//!
//! This replaces the binary simultaneous traversal (`self_pairs.rs`), which the
//! benchmark showed to be several times slower: with two children per node, most of
//! its work is bookkeeping on node pairs that an 8-wide test settles at once.

use rayon::prelude::*;
use wide::f32x8;

use crate::Aabb;
use crate::tree::{DynamicTree, NULL};

/// Independent work items the parallel traversal aims for (a constant, so that the
/// output order does not depend on the thread count).
const PARALLEL_ITEMS: usize = 256;

/// Snapshots with fewer wide nodes (about 5k leaves) are traversed as one work item.
const SPLIT_MIN_NODES: usize = 1024;

#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct WideNode {
    /// Rows: min x, min y, min z, max x, max y, max z of the eight children. Empty slots
    /// hold +inf mins and -inf maxs, so they never overlap anything.
    rows: [[f32; 8]; 6],
    /// Wide-node index for internal children, payload for leaves.
    child: [u32; 8],
    leaf_mask: u32,
    bounds: Aabb,
}

impl WideNode {
    const EMPTY_ROWS: [[f32; 8]; 6] = [
        [f32::INFINITY; 8],
        [f32::INFINITY; 8],
        [f32::INFINITY; 8],
        [f32::NEG_INFINITY; 8],
        [f32::NEG_INFINITY; 8],
        [f32::NEG_INFINITY; 8],
    ];

    /// Bit `k` set when child `k` overlaps the closed box `q`.
    #[inline(always)]
    fn overlap_mask(&self, q: &Aabb) -> u32 {
        let (lo, hi) = (q.min(), q.max());
        let r = &self.rows;
        let m = f32x8::from(r[0]).simd_le(f32x8::splat(hi.x))
            & f32x8::from(r[1]).simd_le(f32x8::splat(hi.y))
            & f32x8::from(r[2]).simd_le(f32x8::splat(hi.z))
            & f32x8::from(r[3]).simd_ge(f32x8::splat(lo.x))
            & f32x8::from(r[4]).simd_ge(f32x8::splat(lo.y))
            & f32x8::from(r[5]).simd_ge(f32x8::splat(lo.z));
        m.to_bitmask()
    }

    #[inline(always)]
    fn child_box(&self, k: usize) -> Aabb {
        let r = &self.rows;
        Aabb::new_unchecked(
            glam::Vec3::new(r[0][k], r[1][k], r[2][k]),
            glam::Vec3::new(r[3][k], r[4][k], r[5][k]),
        )
    }

    #[inline(always)]
    fn is_leaf(&self, k: usize) -> bool {
        self.leaf_mask & (1 << k) != 0
    }
}

#[derive(Clone, Copy, Debug)]
enum Work {
    Inner(u32),
    Cross(u32, u32),
    Probe(Aabb, u32, u32),
}

/// An immutable 8-wide copy of a [`DynamicTree`].
pub(crate) struct WideSnapshot {
    nodes: Vec<WideNode>,
}

impl WideSnapshot {
    /// Collapses `tree` in linear time. Each wide node opens, among its pending binary
    /// descendants, the tallest one (ties: the larger box) until it holds eight: a
    /// subtree of height three or less is absorbed whole, so nodes come out nearly
    /// full. Nodes are built and numbered in depth-first preorder, so each is written
    /// once (plus its index into its parent) and every subtree is contiguous.
    pub(crate) fn new(tree: &DynamicTree) -> Self {
        let mut nodes: Vec<WideNode> = Vec::with_capacity(tree.len() / 3 + 1);
        if tree.root == NULL {
            return Self { nodes };
        }
        // Depth-first: (binary node, parent wide node, slot in the parent). A node gets
        // its index when it is built, so nodes are pushed once, in preorder, and the
        // binary arena (itself in preorder) is read almost sequentially.
        let mut stack: Vec<(u32, u32, u32)> = vec![(tree.root, NULL, 0)];
        let mut budget = tree.nodes.len() + 1;
        while let Some((b, parent, slot)) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let me = nodes.len() as u32;
            if parent != NULL {
                nodes[parent as usize].child[slot as usize] = me;
            }
            let bn = tree.nodes[b as usize];
            let mut slots = [NULL; 8];
            // (height, area) of each slot; leaves get height 0 and are never opened.
            let mut keys = [(0u32, 0f32); 8];
            let mut n = 1;
            slots[0] = b;
            keys[0] = (tree.height[b as usize], f32::INFINITY);
            while n < 8 {
                let mut best = usize::MAX;
                let mut best_key = (0u32, -1f32);
                for (k, key) in keys[..n].iter().enumerate() {
                    if key.0 > 0 && (key.0, key.1) > best_key {
                        best_key = *key;
                        best = k;
                    }
                }
                if best == usize::MAX {
                    break;
                }
                let open = tree.nodes[slots[best] as usize];
                for (k, c) in [(best, open.child1), (n, open.child2)] {
                    slots[k] = c;
                    keys[k] = (
                        tree.height[c as usize],
                        tree.nodes[c as usize].aabb.surface_area(),
                    );
                }
                n += 1;
            }
            let mut node = WideNode {
                rows: WideNode::EMPTY_ROWS,
                child: [NULL; 8],
                leaf_mask: 0,
                bounds: bn.aabb,
            };
            for (k, &s) in slots[..n].iter().enumerate() {
                let sn = tree.nodes[s as usize];
                let (lo, hi) = (sn.aabb.min(), sn.aabb.max());
                for (row, v) in node
                    .rows
                    .iter_mut()
                    .zip([lo.x, lo.y, lo.z, hi.x, hi.y, hi.z])
                {
                    row[k] = v;
                }
                if sn.is_leaf() {
                    node.child[k] = sn.child2;
                    node.leaf_mask |= 1 << k;
                }
            }
            nodes.push(node);
            // Reverse order so the first internal child is built next.
            for k in (0..n).rev() {
                if node.leaf_mask & (1 << k) == 0 {
                    stack.push((slots[k], me, k as u32));
                }
            }
        }
        Self { nodes }
    }

    /// All overlapping payload pairs `(p, q)`, `p < q`, on the current rayon pool; the
    /// output (order included) does not depend on the number of threads.
    pub(crate) fn pairs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        if self.nodes.is_empty() {
            return out;
        }
        let mut items = std::collections::VecDeque::from([Work::Inner(0)]);
        let mut pushed = Vec::new();
        // Small trees are not split at all: the split costs more than it can save. The
        // rule depends only on the tree, so the output order still does not depend on
        // the thread count.
        let mut budget = if self.nodes.len() < SPLIT_MIN_NODES {
            0
        } else {
            PARALLEL_ITEMS * 4
        };
        while items.len() < PARALLEL_ITEMS && budget > 0 {
            budget -= 1;
            let Some(item) = items.pop_front() else { break };
            self.step(item, &mut pushed, &mut out);
            items.extend(pushed.drain(..));
        }
        let items: Vec<Work> = items.into_iter().collect();
        if rayon::current_num_threads() == 1 {
            // Same items in the same order, without task overhead: identical output.
            let mut stack = Vec::new();
            for &item in &items {
                stack.push(item);
                self.drain(&mut stack, &mut out);
            }
            return out;
        }
        let parts: Vec<Vec<(u32, u32)>> = items
            .par_iter()
            .with_max_len(1)
            .map(|&item| {
                let mut part = Vec::new();
                self.drain(&mut vec![item], &mut part);
                part
            })
            .collect();
        out.reserve(parts.iter().map(Vec::len).sum());
        for part in parts {
            out.extend_from_slice(&part);
        }
        out
    }

    /// Runs work items until the stack is empty.
    fn drain(&self, stack: &mut Vec<Work>, out: &mut Vec<(u32, u32)>) {
        // Items are distinct (node, node) or (leaf, node) combinations, so (8 nodes)^2
        // bounds the loop.
        let n = self.nodes.len() as u64 * 8;
        let mut budget = n * n + 1;
        while let Some(w) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            self.step(w, stack, out);
        }
    }

    #[inline(always)]
    fn emit(out: &mut Vec<(u32, u32)>, p: u32, q: u32) {
        out.push(if p < q { (p, q) } else { (q, p) });
    }

    /// Settles child `i` of `x` against child `j` of `y`, whose boxes overlap.
    #[inline(always)]
    fn meet(
        &self,
        x: &WideNode,
        i: usize,
        y: &WideNode,
        j: usize,
        stack: &mut Vec<Work>,
        out: &mut Vec<(u32, u32)>,
    ) {
        match (x.is_leaf(i), y.is_leaf(j)) {
            (true, true) => Self::emit(out, x.child[i], y.child[j]),
            (true, false) => stack.push(Work::Probe(x.child_box(i), x.child[i], y.child[j])),
            (false, true) => stack.push(Work::Probe(y.child_box(j), y.child[j], x.child[i])),
            (false, false) => stack.push(Work::Cross(x.child[i], y.child[j])),
        }
    }

    fn step(&self, item: Work, stack: &mut Vec<Work>, out: &mut Vec<(u32, u32)>) {
        match item {
            Work::Inner(a) => {
                let na = &self.nodes[a as usize];
                let mut m = na.overlap_mask(&na.bounds);
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    // Only partners after `i`, so each pair is met once.
                    let mut pm = na.overlap_mask(&na.child_box(i)) & !((2u32 << i) - 1);
                    while pm != 0 {
                        let j = pm.trailing_zeros() as usize;
                        pm &= pm - 1;
                        self.meet(na, i, na, j, stack, out);
                    }
                    if !na.is_leaf(i) {
                        stack.push(Work::Inner(na.child[i]));
                    }
                }
            }
            Work::Cross(a, b) => {
                let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                let mut ma = na.overlap_mask(&nb.bounds);
                let mb = nb.overlap_mask(&na.bounds);
                if mb == 0 {
                    return;
                }
                while ma != 0 {
                    let i = ma.trailing_zeros() as usize;
                    ma &= ma - 1;
                    let mut m = nb.overlap_mask(&na.child_box(i)) & mb;
                    while m != 0 {
                        let j = m.trailing_zeros() as usize;
                        m &= m - 1;
                        self.meet(na, i, nb, j, stack, out);
                    }
                }
            }
            Work::Probe(q, p, b) => {
                let nb = &self.nodes[b as usize];
                let mut m = nb.overlap_mask(&q);
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if nb.is_leaf(j) {
                        Self::emit(out, p, nb.child[j]);
                    } else {
                        stack.push(Work::Probe(q, p, nb.child[j]));
                    }
                }
            }
        }
    }
}
