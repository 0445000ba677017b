//! All overlapping pairs from scratch through a cheap, implicit 8-ary tree over the
//! leaves, tested eight boxes at a time with `f32x8`.
//!
//! Building a good 8-wide tree is the expensive part of an all-pairs query (collapsing
//! the binary tree into 8-wide nodes cost about as much as traversing them). So the
//! traversal uses the binary tree only down to its small subtrees and for its *leaf
//! order*, where neighbours in the list are neighbours in space (the SAH tree put them
//! in the same subtrees). The *buckets* (level 0) are the maximal subtrees of at most
//! eight leaves (for trees laid out by `rebuild`; other trees are cut every eight
//! leaves), consecutive groups of eight buckets form the level-1 nodes, and so on up to
//! a single root. Unused slots are padded with empty boxes (+inf mins, -inf maxs: they
//! never overlap anything). Children are implicit (`8 * node + slot`), all leaves sit
//! at the same depth, and building costs one pass over the arena plus a few linear
//! passes.
//!
//! The self traversal has two kinds of work items, always on two nodes of one level:
//! - `Inner(a)`: all pairs below node `a`: its children against each other (upper
//!   triangle of an 8x8 mask test), then each child's own `Inner`.
//! - `Cross(a, b)`: all pairs between two disjoint nodes whose boxes overlap. The
//!   children of `a` are culled against the bounds of `b` (one vector test), and only
//!   the survivors are tested against the children of `b` (one vector test each); the
//!   result is one 64-bit mask of child pairs.
//!
//! At level 0 the children are leaves and pairs are emitted directly; levels 1 to 3
//! settle their children's items in place instead of pushing them as work items
//! (level 3 only once the items are split off for the threads, so that the split
//! still finds enough items).

use rayon::prelude::*;

use super::layout::{REGION_LEAVES, subtree_buckets, walk_buckets};
use super::wide_node::{Bits64, Box6, EMPTY_BOX, STRICT_UPPER, W, WideNode, fill_parents};
use super::{Recycled, SPLIT_MIN_BUCKETS};
use crate::tree::{DynamicTree, NULL};

/// Independent work items the parallel traversal aims for (a constant, so that the
/// output order does not depend on the thread count).
const PARALLEL_ITEMS: usize = 512;

/// The pair output of one traversal: a buffer written at a cursor, so that the first
/// pairs of a bucket pair can be stored unconditionally (most bucket pairs yield
/// none, one or two, and a loop over them mispredicts its exit).
struct Out {
    buf: Vec<(u32, u32)>,
    len: usize,
}

/// Room an emission may need: up to 64 pairs of one bucket pair, plus up to four
/// unconditional stores.
const EMIT_ROOM: usize = W * W + 4;

impl Out {
    fn with_capacity(n: usize) -> Self {
        Self::reusing(Vec::new(), n)
    }

    /// An empty output in `buf` (whose contents are overwritten), grown to `n` slots
    /// if shorter.
    fn reusing(mut buf: Vec<(u32, u32)>, n: usize) -> Self {
        if buf.len() < n.max(EMIT_ROOM) {
            buf.resize(n.max(EMIT_ROOM), (0, 0));
        }
        Self { buf, len: 0 }
    }

    #[inline(always)]
    fn make_room(&mut self) {
        if self.len + EMIT_ROOM > self.buf.len() {
            self.buf.resize(2 * self.buf.len() + EMIT_ROOM, (0, 0));
        }
    }

    fn into_vec(mut self) -> Vec<(u32, u32)> {
        self.buf.truncate(self.len);
        self.buf
    }

    fn pairs(&self) -> &[(u32, u32)] {
        &self.buf[..self.len]
    }
}

/// A work item: `(level, a, b)`; `a == b` means `Inner(a)`, otherwise `Cross(a, b)`.
type Work = (u32, u32, u32);

/// The implicit 8-ary tree over a tree's leaves.
pub(super) struct WideSnapshot {
    /// `levels[0]` holds the buckets; the last level holds the root alone.
    levels: Vec<Vec<WideNode>>,
    /// Payload of each leaf, in bucket order (`8 * bucket + slot`).
    payload: Vec<u32>,
    /// The bounds of the root node (the last level's only node).
    root_bounds: Box6,
    /// Leaves of the tree.
    leaves: usize,
    /// The parallel work items' output buffers, recycled between calls.
    spare: Vec<Vec<(u32, u32)>>,
}

impl WideSnapshot {
    /// Lists the leaves of `tree` in tree order into the buckets, then builds the upper
    /// levels.
    ///
    /// An arena laid out by `rebuild` (depth-first preorder) makes every subtree a
    /// contiguous node range whose leaf count follows from node indices alone, so each
    /// maximal subtree of at most eight leaves becomes one bucket (about 5.7 leaves on
    /// average): tighter boxes than cutting the leaf sequence every eight leaves, which
    /// straddles subtrees, so fewer bucket pairs overlap and are tested. Other trees
    /// are walked and cut every eight leaves.
    pub(super) fn new(tree: &DynamicTree, bufs: Recycled) -> Self {
        Self::with_regions(tree, bufs, REGION_LEAVES)
    }

    /// [`new`](Self::new) with regions sized for `per_bucket` leaves per bucket (tests
    /// force the compact layout with large values).
    fn with_regions(tree: &DynamicTree, mut bufs: Recycled, per_bucket: usize) -> Self {
        let mut levels = Vec::new();
        let mut payload = std::mem::take(&mut bufs.payload);
        if tree.preorder && tree.root == 0 {
            let upper = subtree_buckets(tree, &mut bufs, &mut payload, per_bucket);
            levels.push(std::mem::take(&mut bufs.buckets));
            if levels[0].len() > 1 {
                levels.extend(upper);
            }
        } else {
            let mut buckets = std::mem::take(&mut bufs.buckets);
            buckets.clear();
            payload.clear();
            if tree.root != NULL {
                walk_buckets(tree, &mut buckets, &mut payload);
            }
            levels.push(buckets);
        }
        // Each level is 8 times smaller, so this runs about log8(leaves) times. A node's
        // box in its parent is the union of its children (the walk's buckets too).
        while let Some(below) = levels.last().filter(|l| l.len() > 1) {
            let mut up = vec![WideNode::EMPTY; below.len().div_ceil(W)];
            fill_parents(below, &mut up);
            levels.push(up);
        }
        let root_bounds = levels
            .last()
            .and_then(|l| l.first())
            .map_or(EMPTY_BOX, |r| r.union());
        Self {
            levels,
            payload,
            root_bounds,
            leaves: tree.len(),
            spare: std::mem::take(&mut bufs.spare),
        }
    }

    /// The bounds of node `a` of `level`: its box in its parent.
    #[inline(always)]
    fn bounds(&self, level: usize, a: usize) -> Box6 {
        match self.levels.get(level + 1) {
            Some(up) => up[a / W].child_box(a % W),
            None => self.root_bounds,
        }
    }

    /// The room reserved for the output: about one overlap per leaf in the standard
    /// scenes, with half as much again to spare.
    #[inline]
    fn expected_pairs(&self) -> usize {
        self.leaves * 3 / 2
    }

    /// The snapshot's buffers (buckets, payload, the region layout's level-1 and
    /// level-2 nodes, the work items' output buffers), for the next snapshot.
    pub(super) fn into_buffers(mut self) -> Recycled {
        let mut take = |k: usize| {
            self.levels
                .get_mut(k)
                .map(std::mem::take)
                .unwrap_or_default()
        };
        Recycled {
            buckets: take(0),
            level1: take(1),
            level2: take(2),
            payload: self.payload,
            spare: self.spare,
        }
    }

    /// All overlapping payload pairs `(p, q)`, `p < q`, on the current rayon pool; the
    /// output (order included) does not depend on the number of threads.
    pub(super) fn pairs(&mut self) -> Vec<(u32, u32)> {
        if self.payload.is_empty() {
            return Vec::new();
        }
        let parallel = rayon::current_num_threads() > 1;
        // About one overlap per leaf in the standard scenes: the buffer is zeroed up
        // front, so a much larger reserve costs a memset, a smaller one a copy when it
        // doubles. In parallel, the work items fill their own buffers and this one only
        // takes the few pairs met while splitting.
        let mut out = Out::with_capacity(if parallel { 0 } else { self.expected_pairs() });
        let top = (self.levels.len() - 1) as u32;
        let mut items = std::collections::VecDeque::from([(top, 0, 0)]);
        let mut pushed = Vec::new();
        // Small trees are not split at all: the split costs more than it can save. The
        // rule depends only on the tree, so the output order still does not depend on
        // the thread count.
        let mut budget = if self.levels[0].len() < SPLIT_MIN_BUCKETS {
            0
        } else {
            PARALLEL_ITEMS * 4
        };
        while items.len() < PARALLEL_ITEMS && budget > 0 {
            budget -= 1;
            let Some(item) = items.pop_front() else { break };
            // Level 3 pushes its items here, so that the split reaches enough items.
            self.step(item, &mut pushed, &mut out, 2);
            // `step` pushes in stack order; reverse to keep depth-first order.
            items.extend(pushed.drain(..).rev());
        }
        let items: Vec<Work> = items.into_iter().collect();
        if !parallel {
            // Same items in the same order, without task overhead: identical output.
            let mut stack = Vec::with_capacity(256);
            for &item in &items {
                stack.push(item);
                self.drain(&mut stack, &mut out);
            }
            return out.into_vec();
        }
        // Each item's share of the usual output, so that few buffers grow. The buffers
        // of the last call are reused: zeroing fresh ones cost about 1 MB of writes.
        let share = self.expected_pairs() / items.len().max(1);
        let mut spare = std::mem::take(&mut self.spare);
        spare.resize_with(items.len(), Vec::new);
        let this = &*self;
        let mut parts: Vec<Out> = items
            .par_iter()
            .zip(spare)
            .with_max_len(1)
            .map_init(
                || Vec::with_capacity(256),
                |stack, (&item, buf)| {
                    // `drain` leaves the stack empty: reusing it changes nothing.
                    let mut part = Out::reusing(buf, share);
                    stack.push(item);
                    this.drain(stack, &mut part);
                    part
                },
            )
            .collect();
        // The parts are copied into place in parallel, each into its own slice of the
        // output: at 100k leaves a serial copy showed in the timings.
        let lens = std::iter::once(out.len).chain(parts.iter().map(|p| p.len));
        let mut all = vec![(0, 0); lens.clone().sum::<usize>()];
        let mut slices = Vec::with_capacity(parts.len() + 1);
        let mut rest = &mut all[..];
        for len in lens {
            let (head, tail) = std::mem::take(&mut rest).split_at_mut(len);
            slices.push(head);
            rest = tail;
        }
        let (first, others) = slices.split_first_mut().expect("one slice per part");
        first.copy_from_slice(out.pairs());
        others
            .par_iter_mut()
            .zip(&parts)
            .with_min_len(16)
            .for_each(|(dst, part)| dst.copy_from_slice(part.pairs()));
        self.spare = parts.drain(..).map(|p| p.buf).collect();
        all
    }

    /// Runs work items until the stack is empty.
    fn drain(&self, stack: &mut Vec<Work>, out: &mut Out) {
        // Items are distinct pairs of nodes of one level, so (nodes)^2 bounds the loop.
        let n: u64 = self.levels.iter().map(|l| l.len() as u64).sum();
        let mut budget = n * n + 1;
        while let Some(w) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            self.step(w, stack, out, 3);
        }
    }

    /// Stores the pairs of mask `m` (bit `8 * i + j`: leaf `base_a + i` with leaf
    /// `base_b + j`) as payload pairs `(p, q)`, `p < q`, in bit order. The first `N` are
    /// stored unconditionally (garbage beyond the cursor when there are fewer): only
    /// further pairs take the loop, whose exit is mispredicted when it is entered. The
    /// caller has made room (`Out::make_room`). Bucket pairs mostly hold 0 to 2 pairs
    /// (`N = 2`); a bucket's own leaves are neighbours and often hold 3 or 4 (`N = 4`).
    /// Both values were chosen by measuring their neighbours (BENCHMARKS.md).
    #[inline(always)]
    fn emit_mask<const N: usize>(&self, out: &mut Out, m: u64, base_a: usize, base_b: usize) {
        // Each bucket's payloads as an array, so that slot indices need no bounds check.
        let slots = |base: usize| -> &[u32; W] {
            self.payload[base..base + W]
                .try_into()
                .expect("a bucket has W slots")
        };
        let (pay_a, pay_b) = (slots(base_a), slots(base_b));
        // `k & 63` keeps the index of an empty mask in range (slot 7 of both buckets).
        let pair = |k: u32| {
            let k = (k & 63) as usize;
            let (p, q) = (pay_a[k / W], pay_b[k % W]);
            (p.min(q), p.max(q))
        };
        let at = out.len;
        let dst = &mut out.buf[at..at + EMIT_ROOM];
        let mut rest = m;
        for slot in dst.iter_mut().take(N) {
            *slot = pair(rest.trailing_zeros());
            rest &= rest.wrapping_sub(1);
        }
        let mut len = (m.count_ones() as usize).min(N);
        // At most 64 - N more bits.
        while rest != 0 {
            dst[len] = pair(rest.trailing_zeros());
            len += 1;
            rest &= rest - 1;
        }
        out.len = at + len;
    }

    /// All pairs inside bucket `a`.
    #[inline(always)]
    fn inner_bucket(&self, a: usize, out: &mut Out) {
        // Room first: a branch between the mask's loads and its tests made the
        // compiler spill the loaded rows.
        out.make_room();
        let na = &self.levels[0][a];
        self.emit_mask::<4>(out, na.pair_mask(na) & STRICT_UPPER, a * W, a * W);
    }

    /// All pairs between buckets `a` and `b`, whose boxes overlap.
    #[inline(always)]
    fn cross_buckets(&self, a: usize, b: usize, out: &mut Out) {
        out.make_room();
        let (na, nb) = (&self.levels[0][a], &self.levels[0][b]);
        let m = na.culled_pair_mask(nb, &self.bounds(0, b));
        self.emit_mask::<2>(out, m, a * W, b * W);
    }

    /// All pairs below level-1 node `a`.
    #[inline(always)]
    fn inner_l1(&self, a: usize, out: &mut Out) {
        let na = &self.levels[1][a];
        let base = a * W;
        for i in na.live_children(&self.bounds(1, a)) {
            self.inner_bucket(base + i, out);
        }
        for (i, j) in Bits64(na.pair_mask(na) & STRICT_UPPER) {
            self.cross_buckets(base + i, base + j, out);
        }
    }

    /// All pairs between level-1 nodes `a` and `b`, whose boxes overlap.
    #[inline(always)]
    fn cross_l1(&self, a: usize, b: usize, out: &mut Out) {
        let l1 = &self.levels[1];
        for (i, j) in Bits64(l1[a].culled_pair_mask(&l1[b], &self.bounds(1, b))) {
            self.cross_buckets(a * W + i, b * W + j, out);
        }
    }

    /// All pairs below level-2 node `a`.
    #[inline(always)]
    fn inner_l2(&self, a: usize, out: &mut Out) {
        let na = &self.levels[2][a];
        let base = a * W;
        for i in na.live_children(&self.bounds(2, a)) {
            self.inner_l1(base + i, out);
        }
        for (i, j) in Bits64(na.pair_mask(na) & STRICT_UPPER) {
            self.cross_l1(base + i, base + j, out);
        }
    }

    /// All pairs between level-2 nodes `a` and `b`, whose boxes overlap.
    #[inline(always)]
    fn cross_l2(&self, a: usize, b: usize, out: &mut Out) {
        let l2 = &self.levels[2];
        for (i, j) in Bits64(l2[a].pair_mask(&l2[b])) {
            self.cross_l1(a * W + i, b * W + j, out);
        }
    }

    /// Runs work item `(level, a, b)`: items of levels up to `settle` handle their
    /// children's items in place; above, the children's items are pushed on `stack`.
    fn step(&self, (level, a, b): Work, stack: &mut Vec<Work>, out: &mut Out, settle: u32) {
        if level == 0 {
            // Only a one-bucket tree starts here; otherwise level 1 settles buckets.
            if a == b {
                self.inner_bucket(a as usize, out);
            } else {
                self.cross_buckets(a as usize, b as usize, out);
            }
            return;
        }
        let nodes = &self.levels[level as usize];
        let (ua, ub) = (a as usize, b as usize);
        let (base_a, base_b) = (ua * W, ub * W);
        // Levels 1 to 3 handle the items of their children in place instead of
        // pushing them: most work items are bucket pairs, and a push, a pop and a call
        // per item cost as much as the item's tests. Child pairs come from one 64-bit
        // mask, so one loop (one mispredicted exit) covers them all.
        if level <= settle.min(3) {
            let inner = |c: usize, out: &mut Out| match level {
                1 => self.inner_bucket(c, out),
                2 => self.inner_l1(c, out),
                _ => self.inner_l2(c, out),
            };
            let cross = |c: usize, d: usize, out: &mut Out| match level {
                1 => self.cross_buckets(c, d, out),
                2 => self.cross_l1(c, d, out),
                _ => self.cross_l2(c, d, out),
            };
            let na = &nodes[ua];
            if a == b {
                for i in na.live_children(&self.bounds(level as usize, ua)) {
                    inner(base_a + i, out);
                }
                for (i, j) in Bits64(na.pair_mask(na) & STRICT_UPPER) {
                    cross(base_a + i, base_a + j, out);
                }
            } else {
                let others = self.bounds(level as usize, ub);
                for (i, j) in Bits64(na.culled_pair_mask(&nodes[ub], &others)) {
                    cross(base_a + i, base_b + j, out);
                }
            }
            return;
        }
        if a == b {
            let na = &nodes[ua];
            for i in na.live_children(&self.bounds(level as usize, ua)) {
                let c = (base_a + i) as u32;
                stack.push((level - 1, c, c));
                for j in na.later_partners(i) {
                    stack.push((level - 1, c, (base_a + j) as u32));
                }
            }
            return;
        }
        let others = self.bounds(level as usize, ub);
        for (i, j) in Bits64(nodes[ua].culled_pair_mask(&nodes[ub], &others)) {
            stack.push((level - 1, (base_a + i) as u32, (base_b + j) as u32));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{pool, random_box};
    use crate::tree::pairs::layout::RootWalk;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The region layout (regions as sized, generous, and too small so that the tree
    /// falls back to the compact layout) on 1 to 3 threads, on repeated calls reusing
    /// the buffers, against the binary traversal; each layout's order is the same on
    /// every thread count.
    #[test]
    fn region_and_compact_layouts_on_any_thread_count() {
        let mut rng = ChaCha8Rng::seed_from_u64(700);
        // Tops of about 900 leaves: more than 64 buckets each, so that regions sized
        // for 64 leaves per bucket overflow.
        let n = 60_000;
        let side = (4.0 * n as f32).cbrt();
        let boxes: Vec<_> = (0..n)
            .map(|_| random_box(&mut rng, side, 0.25..0.75))
            .collect();
        let (tree, _) = DynamicTree::from_aabbs(&boxes);
        assert!(tree.preorder && tree.len() >= SPLIT_MIN_BUCKETS * W);
        let mut expected = Vec::new();
        tree.for_each_overlapping_pair(|a, b| expected.push((a, b)));
        expected.sort_unstable();
        let roots = RootWalk::new(&tree, (0, tree.len())).count();
        let pools: Vec<_> = [1, 2, 3].into_iter().map(pool).collect();
        // One set of buffers across every layout, so that each layout starts from the
        // stale contents another left (unused region slots are never to be read).
        let mut bufs = Recycled::default();
        for per_bucket in [64, 1, REGION_LEAVES, 64] {
            let mut first: Option<Vec<(u32, u32)>> = None;
            for round in 0..2 {
                for p in &pools {
                    let mut snapshot = WideSnapshot::with_regions(&tree, bufs, per_bucket);
                    assert_eq!(
                        snapshot.levels[0].len() == roots,
                        per_bucket == 64,
                        "seed 700, per_bucket {per_bucket}: compact layout exactly on overflow"
                    );
                    let pairs = p.install(|| snapshot.pairs());
                    bufs = snapshot.into_buffers();
                    match &first {
                        None => {
                            let mut sorted = pairs.clone();
                            sorted.sort_unstable();
                            assert_eq!(sorted, expected, "seed 700, per_bucket {per_bucket}");
                            first = Some(pairs);
                        }
                        Some(f) => assert!(
                            *f == pairs,
                            "seed 700, per_bucket {per_bucket}, round {round}, {} threads: order differs",
                            p.current_num_threads()
                        ),
                    }
                }
            }
        }
    }
}
