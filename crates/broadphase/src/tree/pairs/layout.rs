//! How the wide snapshot's buckets are cut from the tree and laid out in memory: the
//! region layout (large trees laid out by `rebuild`, filled in parallel), the compact
//! layout (other preorder trees) and the walk that cuts any other tree every eight
//! leaves.

use rayon::prelude::*;
use wide::f32x8;

use super::wide_node::{EMPTY_SLOT, W, WideNode, box6, fill_parents, node_words};
use super::{Recycled, SPLIT_MIN_BUCKETS};
use crate::tree::DynamicTree;

/// Top subtrees the region layout of the snapshot cuts a large tree into (see
/// [`subtree_buckets`]).
const TOPS: usize = 64;

/// Leaves per bucket that the regions of the region layout are sized for (see
/// [`subtree_buckets`]): buckets hold about 5.7 leaves on average in the standard
/// scenes, so a region has about 40% slack before rounding.
pub(super) const REGION_LEAVES: usize = 4;

/// Buckets from the maximal subtrees of at most eight leaves of a tree laid out in
/// depth-first preorder with the root at node 0. There, the subtree of node `n` with
/// `l` leaves is the node range `n..n + 2l - 1`, its first child is `n + 1`, and its
/// second child `c` has `l - (c - n) / 2` leaves: no counting pass is needed. Returns
/// the levels above the buckets that it built (level 1, and level 2 for the region
/// layout).
///
/// Large trees use the *region layout*: the tree is cut into about 64 top subtrees (in
/// tree order), each given a region of the bucket array sized from its leaf count
/// (`leaves / per_bucket`, rounded up to 64 buckets so that its level-1 and level-2
/// nodes are its own). Each top is walked for its bucket roots and filled in one pass,
/// the tops in parallel on a pool: no top waits for another's bucket count, and the
/// walk's reads are still in cache for the fill (a separate parallel walk took about
/// as long as the fill, for a few percent of the arena). The rest
/// of a region is a hole: its level-1 slots are empty boxes, which nothing overlaps, so
/// its buckets (stale contents of a recycled buffer) are never read. The layout depends
/// on the tree only, so the output is the same on any thread count. A top with more
/// buckets than its region (a tree far from the standard scenes) sends the whole tree
/// to the compact layout, one pass on the calling thread.
pub(super) fn subtree_buckets(
    tree: &DynamicTree,
    bufs: &mut Recycled,
    payload: &mut Vec<u32>,
    per_bucket: usize,
) -> Vec<Vec<WideNode>> {
    // A node is eight 32-bit words (box, child link, payload), so the bucket is the
    // transpose of its eight leaves: one vector store per node and seven per bucket,
    // where writing each leaf's words into the rows took seven scalar stores per node
    // (internal nodes included) plus the padding.
    let fill = |(bucket, pay): (&mut WideNode, &mut [u32]), (n, l): (usize, usize)| {
        // Branch-free over the range (node kinds alternate at random): every node is
        // written to slot `s`, which only advances past leaves, so an internal node is
        // overwritten by the next leaf; the range ends with a leaf. Slots past the
        // leaves keep the empty box and payload 0.
        let mut slots = [EMPTY_SLOT; W];
        let mut s = 0usize;
        for node in &tree.nodes[n..n + 2 * l - 1] {
            slots[s.min(W - 1)] = node_words(node);
            s += usize::from(node.is_leaf());
        }
        let rows = f32x8::transpose(slots);
        bucket.set_rows(&rows);
        pay.copy_from_slice(&rows[7].to_array().map(f32::to_bits));
    };
    if tree.len() >= SPLIT_MIN_BUCKETS * W {
        let tops = top_subtrees(tree);
        let caps: Vec<usize> = tops
            .iter()
            .map(|&(_, l)| (l / per_bucket + 1).next_multiple_of(W * W))
            .collect();
        let total: usize = caps.iter().sum();
        // Recycled buffers: after the first call on a tree, these only truncate or
        // resize by nothing (every slot that is read is written below).
        let buckets = &mut bufs.buckets;
        buckets.truncate(total);
        buckets.resize(total, WideNode::EMPTY);
        payload.truncate(total * W);
        payload.resize(total * W, 0);
        let mut level1 = std::mem::take(&mut bufs.level1);
        level1.truncate(total / W);
        level1.resize(total / W, WideNode::EMPTY);
        let mut level2 = std::mem::take(&mut bufs.level2);
        level2.truncate(total / (W * W));
        level2.resize(total / (W * W), WideNode::EMPTY);
        let mut regions = Vec::with_capacity(tops.len());
        let (mut bs, mut ps, mut u1, mut u2) = (
            &mut buckets[..],
            &mut payload[..],
            &mut level1[..],
            &mut level2[..],
        );
        for (&top, &cap) in tops.iter().zip(&caps) {
            let (b, rest) = std::mem::take(&mut bs).split_at_mut(cap);
            bs = rest;
            let (p, rest) = std::mem::take(&mut ps).split_at_mut(cap * W);
            ps = rest;
            let (v1, rest) = std::mem::take(&mut u1).split_at_mut(cap / W);
            u1 = rest;
            let (v2, rest) = std::mem::take(&mut u2).split_at_mut(cap / (W * W));
            u2 = rest;
            regions.push((top, b, p, v1, v2));
        }
        // Fills one top's region; false if its buckets do not fit.
        let fill_top = |(top, b, p, v1, v2): (
            _,
            &mut [WideNode],
            &mut [u32],
            &mut [WideNode],
            &mut [WideNode],
        )| {
            v1.fill(WideNode::EMPTY);
            v2.fill(WideNode::EMPTY);
            let mut k = 0;
            for root in RootWalk::new(tree, top) {
                if k == b.len() {
                    return false;
                }
                fill((&mut b[k], &mut p[k * W..(k + 1) * W]), root);
                // The subtree root's box contains the leaves (it is their union unless
                // `enlarge` grew it), which is all the culling above needs.
                v1[k / W].set_child_raw(k % W, &box6(&tree.nodes[root.0].aabb));
                k += 1;
            }
            fill_parents(&v1[..k.div_ceil(W)], v2);
            true
        };
        let fits = if rayon::current_num_threads() > 1 {
            regions.into_par_iter().with_max_len(1).all(fill_top)
        } else {
            regions.into_iter().all(fill_top)
        };
        if fits {
            return vec![level1, level2];
        }
        // The compact layout below reuses the level-1 buffer.
        bufs.level1 = level1;
    }
    // The compact layout in one pass: each bucket is filled as soon as its root is
    // found, while the walk's reads of the nodes above it are still in cache, and goes
    // straight into its level-1 node. Recycled buffers keep stale contents: every
    // bucket is written in full.
    let buckets = &mut bufs.buckets;
    buckets.clear();
    payload.clear();
    let mut level1 = std::mem::take(&mut bufs.level1);
    level1.clear();
    for root in RootWalk::new(tree, (0, tree.len())) {
        let k = buckets.len();
        buckets.push(WideNode::EMPTY);
        payload.extend_from_slice(&[0; W]);
        fill((&mut buckets[k], &mut payload[k * W..(k + 1) * W]), root);
        if k.is_multiple_of(W) {
            level1.push(WideNode::EMPTY);
        }
        level1[k / W].set_child_raw(k % W, &box6(&tree.nodes[root.0].aabb));
    }
    vec![level1]
}

/// About [`TOPS`] subtrees covering a preorder tree, in tree order: every
/// subtree of more than W leaves is split in two, round after round.
fn top_subtrees(tree: &DynamicTree) -> Vec<(usize, usize)> {
    let mut tops = vec![(0usize, tree.len())];
    for _ in 0..8 {
        if tops.len() >= TOPS || tops.iter().all(|&(_, l)| l <= W) {
            break;
        }
        tops = tops
            .iter()
            .flat_map(
                |&(n, l)| match split_subtree(tree, n, l).filter(|_| l > W) {
                    Some((a, b)) => [Some(a), Some(b)],
                    None => [Some((n, l)), None],
                },
            )
            .flatten()
            .collect();
    }
    tops
}

/// The two children `(node, leaves)` of subtree `(n, l)` of a preorder arena, if it is
/// an internal node (see [`subtree_buckets`]).
#[inline]
fn split_subtree(
    tree: &DynamicTree,
    n: usize,
    l: usize,
) -> Option<((usize, usize), (usize, usize))> {
    if l <= 1 || n >= tree.nodes.len() {
        return None;
    }
    let c2 = tree.nodes[n].child2 as usize;
    let l1 = (c2.saturating_sub(n) / 2).min(l);
    Some(((n + 1, l1), (c2, l - l1)))
}

/// The bucket roots (maximal subtrees of at most W leaves) of a subtree of a preorder
/// arena, in tree order, by a walk over the internal nodes above them only (a few
/// percent of the arena, read in order).
pub(super) struct RootWalk<'a> {
    tree: &'a DynamicTree,
    stack: Vec<(usize, usize)>,
    /// Each item is a distinct node.
    budget: usize,
}

impl<'a> RootWalk<'a> {
    pub(super) fn new(tree: &'a DynamicTree, top: (usize, usize)) -> Self {
        Self {
            tree,
            stack: vec![top],
            budget: tree.nodes.len() + 1,
        }
    }
}

impl Iterator for RootWalk<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        while let Some((n, l)) = self.stack.pop() {
            if self.budget == 0 || l == 0 || n + 2 * l - 1 > self.tree.nodes.len() {
                return None;
            }
            self.budget -= 1;
            if l <= W {
                return Some((n, l));
            }
            let (a, b) = split_subtree(self.tree, n, l)?;
            self.stack.push(b);
            self.stack.push(a);
        }
        None
    }
}

/// Buckets of eight consecutive leaves in tree order, by an explicit-stack walk (trees
/// whose arena is not in preorder).
pub(super) fn walk_buckets(
    tree: &DynamicTree,
    buckets: &mut Vec<WideNode>,
    payload: &mut Vec<u32>,
) {
    let leaves = tree.len();
    buckets.resize(leaves.div_ceil(W), WideNode::EMPTY);
    payload.resize(buckets.len() * W, 0);
    let mut stack = Vec::with_capacity(64);
    stack.push(tree.root);
    let mut k = 0usize;
    let mut budget = tree.nodes.len() + 1;
    while let Some(n) = stack.pop() {
        if budget == 0 || k >= leaves {
            break;
        }
        budget -= 1;
        let node = &tree.nodes[n as usize];
        if node.is_leaf() {
            buckets[k / W].set_child_raw(k % W, &box6(&node.aabb));
            payload[k] = node.child2;
            k += 1;
        } else {
            stack.push(node.child2);
            stack.push(node.child1);
        }
    }
}
