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
use wide::f32x8;

use crate::tree::{DynamicTree, NULL};

/// Independent work items the parallel traversal aims for (a constant, so that the
/// output order does not depend on the thread count).
const PARALLEL_ITEMS: usize = 512;

/// Top subtrees the region layout of the snapshot cuts a large tree into (see
/// [`subtree_buckets`]).
const TOPS: usize = 64;

/// Trees with fewer buckets (about 8k leaves) are traversed as one work item.
const SPLIT_MIN_BUCKETS: usize = 1024;

/// Slots per node.
const W: usize = 8;

/// A query box as `[min x, min y, min z, max x, max y, max z]` (plain floats: padding
/// slots hold inverted infinite boxes, which are not valid `Aabb`s).
type Box6 = [f32; 6];

/// The box of a padding slot: +inf mins, -inf maxs, which overlaps nothing.
const EMPTY_BOX: Box6 = [
    f32::INFINITY,
    f32::INFINITY,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
];

/// A box as a [`Box6`].
#[inline(always)]
fn box6(aabb: &crate::Aabb) -> Box6 {
    let (lo, hi) = (aabb.min(), aabb.max());
    [lo.x, lo.y, lo.z, hi.x, hi.y, hi.z]
}

/// A tree node's eight 32-bit words, as laid out in the arena: the box, then the first
/// child link and the second (a leaf's payload), bit for bit.
const fn slot_words(b: Box6, child1: u32, child2: u32) -> [f32; 8] {
    let [x0, y0, z0, x1, y1, z1] = b;
    let (c1, c2) = (f32::from_bits(child1), f32::from_bits(child2));
    [x0, y0, z0, x1, y1, z1, c1, c2]
}

/// A node's [`slot_words`] as lanes.
#[inline(always)]
fn node_words(node: &crate::tree::Node) -> f32x8 {
    f32x8::from(slot_words(box6(&node.aabb), node.child1, node.child2))
}

/// The words of a padding slot: the empty box, payload 0.
const EMPTY_SLOT: f32x8 = f32x8::new(slot_words(EMPTY_BOX, 0, 0));

/// The set bits of a child mask, lowest first.
#[derive(Clone, Copy)]
struct Bits(u32);

impl Iterator for Bits {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The set bits of a 64-bit child-pair mask (`8 * i + j`), lowest first.
#[derive(Clone, Copy)]
struct Bits64(u64);

impl Iterator for Bits64 {
    type Item = (usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.0 == 0 {
            return None;
        }
        let k = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some((k / W, k % W))
    }
}

/// Bits `8 * i + j` with `j > i`: each pair of children of one node once.
const STRICT_UPPER: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < W {
        m |= ((0xFFu64 << (i + 1)) & 0xFF) << (W * i);
        i += 1;
    }
    m
};

/// The pair output of one traversal: a buffer written at a cursor, so that the first
/// pairs of a bucket pair can be stored unconditionally (most bucket pairs yield
/// none, one or two, and a loop over them mispredicts its exit).
pub(crate) struct Out {
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

/// Eight child boxes, 192 bytes: exactly three cache lines. A node's own bounds are not
/// stored: its parent holds them as one of its children (see `WideSnapshot::bounds`).
/// Storing them made a node 224 bytes, so that most buckets touched four lines; the
/// buckets are 3-4 MB written and read back from memory at 100k leaves (all pairs
/// 3.73-3.83 -> 3.67-3.85 ms, best of 40 in 8 alternating rounds: about 1%).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct WideNode {
    /// Rows: min x, min y, min z, max x, max y, max z of the eight children.
    rows: [[f32; W]; 6],
}

impl WideNode {
    const EMPTY: WideNode = WideNode {
        rows: [
            [EMPTY_BOX[0]; W],
            [EMPTY_BOX[1]; W],
            [EMPTY_BOX[2]; W],
            [EMPTY_BOX[3]; W],
            [EMPTY_BOX[4]; W],
            [EMPTY_BOX[5]; W],
        ],
    };

    /// Bit `k` set when child `k` overlaps the closed box `q`.
    #[inline(always)]
    fn overlap_mask(&self, q: &Box6) -> u32 {
        let r = &self.rows;
        let m = f32x8::from(r[0]).simd_le(f32x8::splat(q[3]))
            & f32x8::from(r[1]).simd_le(f32x8::splat(q[4]))
            & f32x8::from(r[2]).simd_le(f32x8::splat(q[5]))
            & f32x8::from(r[3]).simd_ge(f32x8::splat(q[0]))
            & f32x8::from(r[4]).simd_ge(f32x8::splat(q[1]))
            & f32x8::from(r[5]).simd_ge(f32x8::splat(q[2]));
        m.to_bitmask()
    }

    /// The children that overlap this node's `bounds` (padding slots never do, so these
    /// are real children).
    #[inline(always)]
    fn live_children(&self, bounds: &Box6) -> Bits {
        Bits(self.overlap_mask(bounds))
    }

    /// The children after `i` that overlap child `i`: each pair inside a node is met
    /// once, from its first child.
    #[inline(always)]
    fn later_partners(&self, i: usize) -> Bits {
        Bits(self.overlap_mask(&self.child_box(i)) & !((2u32 << i) - 1))
    }

    /// Bit `8 * i + j` set when child `i` of `self` overlaps child `j` of `other`: all
    /// 64 child pairs in eight vector tests of fixed count, which unroll into
    /// straight-line code. Used for the pairs inside one node, where no child can be
    /// culled; two disjoint nodes take [`culled_pair_mask`](Self::culled_pair_mask).
    ///
    /// With AVX-512 two children of `self` are tested per 16-lane vector (`other`'s rows
    /// twice): 100k all pairs 5.8 -> 5.1 ms. Other targets use eight `f32x8` tests (the
    /// version below); `cargo test` with `RUSTFLAGS="-C target-cpu=x86-64-v3"` checks it
    /// on an AVX-512 machine.
    #[cfg(target_feature = "avx512f")]
    #[inline(always)]
    fn pair_mask(&self, other: &WideNode) -> u64 {
        use wide::f32x16;
        let dup = |row: &[f32; W]| {
            let mut a = [0f32; 2 * W];
            a[..W].copy_from_slice(row);
            a[W..].copy_from_slice(row);
            f32x16::from(a)
        };
        let two = |u: f32, v: f32| {
            let mut a = [u; 2 * W];
            a[W..].fill(v);
            f32x16::from(a)
        };
        let r = &other.rows;
        let (lo_x, lo_y, lo_z) = (dup(&r[0]), dup(&r[1]), dup(&r[2]));
        let (hi_x, hi_y, hi_z) = (dup(&r[3]), dup(&r[4]), dup(&r[5]));
        let mut m = 0u64;
        for q in 0..W / 2 {
            let (a, b) = (self.child_box(2 * q), self.child_box(2 * q + 1));
            let t = lo_x.simd_le(two(a[3], b[3]))
                & lo_y.simd_le(two(a[4], b[4]))
                & lo_z.simd_le(two(a[5], b[5]))
                & hi_x.simd_ge(two(a[0], b[0]))
                & hi_y.simd_ge(two(a[1], b[1]))
                & hi_z.simd_ge(two(a[2], b[2]));
            m |= u64::from(t.to_bitmask()) << (2 * W * q);
        }
        m
    }

    /// [`pair_mask`](Self::pair_mask) in eight `f32x8` tests.
    #[cfg(not(target_feature = "avx512f"))]
    #[inline(always)]
    fn pair_mask(&self, other: &WideNode) -> u64 {
        (0..W).fold(0, |m, i| m | self.row_mask(other, i))
    }

    /// Row `i` of [`pair_mask`](Self::pair_mask): the children of `other` that overlap
    /// child `i` of `self`, at bits `8 * i..8 * i + 8`.
    #[inline(always)]
    fn row_mask(&self, other: &WideNode, i: usize) -> u64 {
        u64::from(other.overlap_mask(&self.child_box(i))) << (W * i)
    }

    /// [`pair_mask`](Self::pair_mask) of two disjoint nodes, `others` being the bounds
    /// of `other`: only the children of `self` that overlap `others` can overlap a
    /// child of `other`, so one vector test finds them and only their rows are tested.
    /// At level 0 (100k standard boxes) 29% of the bucket pairs have no such child,
    /// 41% one and 19% two, so two row tests run unconditionally (on child 0, their
    /// result discarded, when there are fewer) and the loop for the rest is entered
    /// one time in nine: about 70 instructions against 170 for eight row tests.
    #[inline(always)]
    fn culled_pair_mask(&self, other: &WideNode, others: &Box6) -> u64 {
        let row = |i: usize| self.row_mask(other, i);
        let mut rest = self.overlap_mask(others);
        let mut m = 0;
        for _ in 0..2 {
            let i = (rest.trailing_zeros() as usize) & (W - 1);
            m |= row(i) & u64::from(rest != 0).wrapping_neg();
            rest &= rest.wrapping_sub(1);
        }
        for i in Bits(rest) {
            m |= row(i);
        }
        m
    }

    #[inline(always)]
    fn child_box(&self, k: usize) -> Box6 {
        let r = &self.rows;
        [r[0][k], r[1][k], r[2][k], r[3][k], r[4][k], r[5][k]]
    }

    #[inline(always)]
    fn set_child_raw(&mut self, k: usize, b: &Box6) {
        for (row, &v) in self.rows.iter_mut().zip(b) {
            row[k] = v;
        }
    }

    /// The union of the children's boxes (padding slots change nothing).
    #[inline(always)]
    fn union(&self) -> Box6 {
        let mut u = [0f32; 6];
        for (a, row) in self.rows.iter().enumerate() {
            u[a] = if a < 3 {
                row.iter().fold(f32::INFINITY, |m, &v| m.min(v))
            } else {
                row.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v))
            };
        }
        u
    }
}

/// The large buffers of a snapshot, kept by the tree between all-pairs calls: buckets,
/// payloads, the level-1 and level-2 nodes of the region layout (see
/// [`subtree_buckets`]), and the parallel work items' output buffers (`spare`, which
/// keep the largest size a call needed).
#[derive(Default)]
pub(crate) struct Recycled {
    buckets: Vec<WideNode>,
    payload: Vec<u32>,
    level1: Vec<WideNode>,
    level2: Vec<WideNode>,
    spare: Vec<Vec<(u32, u32)>>,
}

/// A snapshot's buffers between all-pairs calls. At 100k leaves they are several MiB
/// that a fresh allocation would fault in page by page on every call, which on some
/// systems (virtual machines in particular) costs as much as filling them. Behind a
/// mutex so the tree stays `Sync`; a call that finds it busy (another thread's call)
/// simply allocates.
#[derive(Default)]
pub(crate) struct Buffers(std::sync::Mutex<Recycled>);

impl Buffers {
    pub(crate) fn take(&self) -> Recycled {
        match self.0.try_lock() {
            Ok(mut b) => std::mem::take(&mut *b),
            Err(_) => Default::default(),
        }
    }

    pub(crate) fn put(&self, buffers: Recycled) {
        if let Ok(mut b) = self.0.try_lock() {
            *b = buffers;
        }
    }
}

impl Clone for Buffers {
    /// A clone starts without buffers (they are only a cache).
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for Buffers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Buffers")
    }
}

/// A work item: `(level, a, b)`; `a == b` means `Inner(a)`, otherwise `Cross(a, b)`.
type Work = (u32, u32, u32);

/// The implicit 8-ary tree over a tree's leaves.
pub(crate) struct WideSnapshot {
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
    /// straddles subtrees (about 10% fewer bucket tests overall at 100k). Other trees
    /// are walked and cut every eight leaves.
    pub(crate) fn new(tree: &DynamicTree, bufs: Recycled) -> Self {
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
    pub(crate) fn into_buffers(mut self) -> Recycled {
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
    pub(crate) fn pairs(&mut self) -> Vec<(u32, u32)> {
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
        // output (a serial copy was about 0.05 ms at 100k).
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
    /// (`N = 2`); a bucket's own leaves are neighbours and often hold 3 or 4 (`N = 4`:
    /// 100k all pairs 3.88-4.03 -> 3.73-3.95 ms; 6, or 3 for bucket pairs, were slower).
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

/// Leaves per bucket that the regions of the region layout are sized for (see
/// [`subtree_buckets`]): buckets hold about 5.7 leaves on average in the standard
/// scenes, so a region has about 40% slack before rounding.
const REGION_LEAVES: usize = 4;

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
/// as long as the fill, 0.3-0.5 ms at 100k, for a few percent of the arena). The rest
/// of a region is a hole: its level-1 slots are empty boxes, which nothing overlaps, so
/// its buckets (stale contents of a recycled buffer) are never read. The layout depends
/// on the tree only, so the output is the same on any thread count. A top with more
/// buckets than its region (a tree far from the standard scenes) sends the whole tree
/// to the compact layout, one pass on the calling thread.
fn subtree_buckets(
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
        for (dst, src) in bucket.rows.iter_mut().zip(&rows) {
            *dst = src.to_array();
        }
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

/// Sets the child boxes of the parents `up` of the nodes `below` (node `k` is child
/// `k % W` of parent `k / W`): the union of each node's children.
#[inline]
fn fill_parents(below: &[WideNode], up: &mut [WideNode]) {
    for (k, node) in below.iter().enumerate() {
        up[k / W].set_child_raw(k % W, &node.union());
    }
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
struct RootWalk<'a> {
    tree: &'a DynamicTree,
    stack: Vec<(usize, usize)>,
    /// Each item is a distinct node.
    budget: usize,
}

impl<'a> RootWalk<'a> {
    fn new(tree: &'a DynamicTree, top: (usize, usize)) -> Self {
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
fn walk_buckets(tree: &DynamicTree, buckets: &mut Vec<WideNode>, payload: &mut Vec<u32>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{pool, random_box};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `culled_pair_mask` equals the full 8x8 test on random node pairs: 0 to 8 children
    /// each (the rest padding), bounds the union of the children or larger, dense
    /// enough that every count of surviving children (the unconditional two and the
    /// loop beyond) occurs.
    #[test]
    fn culled_pair_mask_equals_full_test() {
        let mut rng = ChaCha8Rng::seed_from_u64(701);
        let node = |rng: &mut ChaCha8Rng| {
            let mut n = WideNode::EMPTY;
            for k in 0..rng.random_range(0..=W) {
                n.set_child_raw(k, &box6(&random_box(rng, 6.0, 0.1..2.0)));
            }
            n
        };
        let mut survivors = [0usize; W + 1];
        for case in 0..20_000 {
            let (a, b) = (node(&mut rng), node(&mut rng));
            let mut bounds = b.union();
            if case % 3 == 0 {
                let grow: f32 = rng.random_range(0.0..1.0);
                for (k, v) in bounds.iter_mut().enumerate() {
                    *v += if k < 3 { -grow } else { grow };
                }
            }
            survivors[a.overlap_mask(&bounds).count_ones() as usize] += 1;
            // The full test against box-by-box comparisons (padding overlaps nothing).
            let brute = (0..W * W).fold(0u64, |m, k| {
                let (p, q) = (a.child_box(k / W), b.child_box(k % W));
                let hit = (0..3).all(|d| p[d] <= q[d + 3] && q[d] <= p[d + 3]);
                m | u64::from(hit) << k
            });
            assert_eq!(a.pair_mask(&b), brute, "seed 701, case {case}");
            assert_eq!(
                a.culled_pair_mask(&b, &bounds),
                a.pair_mask(&b),
                "seed 701, case {case}"
            );
        }
        assert!(survivors.iter().all(|&n| n > 0), "{survivors:?}");
    }

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
