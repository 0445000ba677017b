//! The nodes of the wide snapshot: eight child boxes in rows, tested against a box or
//! against another node's children with `f32x8` compares, and the bit masks the tests
//! return.

use wide::f32x8;

use crate::Aabb;
use crate::tree::Node;

/// Slots per node.
pub(super) const W: usize = 8;

/// A query box as `[min x, min y, min z, max x, max y, max z]` (plain floats: padding
/// slots hold inverted infinite boxes, which are not valid `Aabb`s).
pub(super) type Box6 = [f32; 6];

/// The box of a padding slot: +inf mins, -inf maxs, which overlaps nothing.
pub(super) const EMPTY_BOX: Box6 = [
    f32::INFINITY,
    f32::INFINITY,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
];

/// A box as a [`Box6`].
#[inline(always)]
pub(super) fn box6(aabb: &Aabb) -> Box6 {
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
pub(super) fn node_words(node: &Node) -> f32x8 {
    f32x8::from(slot_words(box6(&node.aabb), node.child1, node.child2))
}

/// The words of a padding slot: the empty box, payload 0.
pub(super) const EMPTY_SLOT: f32x8 = f32x8::new(slot_words(EMPTY_BOX, 0, 0));

/// The set bits of a child mask, lowest first.
#[derive(Clone, Copy)]
pub(super) struct Bits(u32);

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
pub(super) struct Bits64(pub(super) u64);

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
pub(super) const STRICT_UPPER: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < W {
        m |= ((0xFFu64 << (i + 1)) & 0xFF) << (W * i);
        i += 1;
    }
    m
};

/// Eight child boxes, 192 bytes: exactly three cache lines. A node's own bounds are not
/// stored: its parent holds them as one of its children (see `WideSnapshot::bounds`).
/// Storing them made a node 224 bytes, so that most buckets touched four lines; at
/// 100k leaves the buckets are several MB, written and read back from memory, so a
/// line less per bucket shows (a small gain, measured: BENCHMARKS.md).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct WideNode {
    /// Rows: min x, min y, min z, max x, max y, max z of the eight children.
    rows: [[f32; W]; 6],
}

impl WideNode {
    pub(super) const EMPTY: WideNode = WideNode {
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
    pub(super) fn live_children(&self, bounds: &Box6) -> Bits {
        Bits(self.overlap_mask(bounds))
    }

    /// The children after `i` that overlap child `i`: each pair inside a node is met
    /// once, from its first child.
    #[inline(always)]
    pub(super) fn later_partners(&self, i: usize) -> Bits {
        Bits(self.overlap_mask(&self.child_box(i)) & !((2u32 << i) - 1))
    }

    /// Bit `8 * i + j` set when child `i` of `self` overlaps child `j` of `other`: all
    /// 64 child pairs in eight vector tests of fixed count, which unroll into
    /// straight-line code. Used for the pairs inside one node, where no child can be
    /// culled; two disjoint nodes take [`culled_pair_mask`](Self::culled_pair_mask).
    ///
    /// With AVX-512 two children of `self` are tested per 16-lane vector (`other`'s rows
    /// twice), half the compares of the `f32x8` form (measured faster: BENCHMARKS.md).
    /// Other targets use eight `f32x8` tests (the version below); `cargo test` with
    /// `RUSTFLAGS="-C target-cpu=x86-64-v4"` (or `native`) checks this one on an
    /// AVX-512 machine.
    #[cfg(target_feature = "avx512f")]
    #[inline(always)]
    pub(super) fn pair_mask(&self, other: &WideNode) -> u64 {
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
    pub(super) fn pair_mask(&self, other: &WideNode) -> u64 {
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
    /// one time in nine: far fewer instructions than eight row tests.
    #[inline(always)]
    pub(super) fn culled_pair_mask(&self, other: &WideNode, others: &Box6) -> u64 {
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
    pub(super) fn child_box(&self, k: usize) -> Box6 {
        let r = &self.rows;
        [r[0][k], r[1][k], r[2][k], r[3][k], r[4][k], r[5][k]]
    }

    #[inline(always)]
    pub(super) fn set_child_raw(&mut self, k: usize, b: &Box6) {
        for (row, &v) in self.rows.iter_mut().zip(b) {
            row[k] = v;
        }
    }

    /// Sets the children from the transpose of their slot words (see [`node_words`]):
    /// rows 0 to 5 are the boxes; rows 6 and 7 (child links and payloads) are not
    /// stored.
    #[inline(always)]
    pub(super) fn set_rows(&mut self, rows: &[f32x8; W]) {
        for (dst, src) in self.rows.iter_mut().zip(rows) {
            *dst = src.to_array();
        }
    }

    /// The union of the children's boxes (padding slots change nothing).
    #[inline(always)]
    pub(super) fn union(&self) -> Box6 {
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

/// Sets the child boxes of the parents `up` of the nodes `below` (node `k` is child
/// `k % W` of parent `k / W`): the union of each node's children.
#[inline]
pub(super) fn fill_parents(below: &[WideNode], up: &mut [WideNode]) {
    for (k, node) in below.iter().enumerate() {
        up[k / W].set_child_raw(k % W, &node.union());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_box;
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
}
