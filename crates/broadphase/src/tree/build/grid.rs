//! The grid that makes the top of a large tree: the leaves counting-sorted by cell
//! along a Morton-like curve, each large range cut at its middle cell.

use glam::Vec4;

use super::{Bounds, GridTask};
use crate::Aabb;

/// Ranges of at most this many items are split by the SAH; larger ones by the grid
/// while their cells allow. The grid's midpoint cuts miss the SAH's choice more often in
/// smaller ranges, which the all-pairs traversal pays (measured by instruction counts
/// for sizes from 128 to 2048: the cost levels off at this size); each halving of this
/// size saves one binned pass over all items of a build.
pub(super) const GRID_LEAF: usize = 512;

/// Most key bits of the grid: 2^15 cells, whose offsets (128 KB) stay in cache while
/// the items are sorted.
const MAX_GRID_BITS: usize = 15;

/// A grid over the leaf centres whose cells are numbered in the order of a
/// Morton-like curve: key bit `j` (from the top) halves the cells' region along
/// `axis[j]`, always the longest side of the region so far (so cells are near cubes
/// whatever the scene's proportions). Sorting the items by cell makes the top of the
/// tree a matter of looking up cell offsets: each range of cells sharing a key prefix
/// is contiguous, split in two at the middle cell. This replaces the binned SAH passes
/// over the large ranges (the costly levels: each reads and partitions every item)
/// by one counting sort. For uniformly spread centres the SAH split of a large range
/// is at its middle anyway; the SAH takes over for ranges of [`GRID_LEAF`] items.
pub(super) struct Grid {
    /// Number of key bits.
    bits: u32,
    axis: [u8; MAX_GRID_BITS],
    lo: Vec4,
    scale: Vec4,
    top: Vec4,
    /// Key bits contributed by each quantised coordinate, per axis.
    table: [Vec<u32>; 3],
    /// First item of each cell in the sorted order, plus the item count.
    offsets: Vec<u32>,
}

impl Grid {
    /// A grid for `n` items whose doubled centres span `centres`, or `None` when too
    /// few items make it worthwhile.
    pub(super) fn new(centres: &Bounds, n: usize) -> Option<Grid> {
        if n <= 2 * GRID_LEAF {
            return None;
        }
        // About one cell per `GRID_LEAF / 2` items, so most cells end below `GRID_LEAF`.
        let want = (2 * n / GRID_LEAF).next_power_of_two().trailing_zeros() as usize;
        let want = want.min(MAX_GRID_BITS);
        let ext = centres.max - centres.min;
        if !ext.is_finite() {
            // Centres near the float range's ends: leave them to the SAH.
            return None;
        }
        let mut side = [ext.x, ext.y, ext.z];
        let mut bits = [0u32; 3];
        let mut axis = [0u8; MAX_GRID_BITS];
        let mut total = 0;
        while total < want {
            let a = if side[0] >= side[1] && side[0] >= side[2] {
                0
            } else if side[1] >= side[2] {
                1
            } else {
                2
            };
            if side[a] <= 0.0 {
                break;
            }
            axis[total] = a as u8;
            side[a] *= 0.5;
            bits[a] += 1;
            total += 1;
        }
        if total < 3 {
            return None;
        }
        // The key bit of each coordinate bit: the k-th split along an axis is its
        // coordinate's k-th bit from the top.
        let mut table: [Vec<u32>; 3] = Default::default();
        for a in 0..3 {
            let mut place = Vec::new();
            for (j, &ax) in axis[..total].iter().enumerate() {
                if usize::from(ax) == a {
                    place.push(total - 1 - j);
                }
            }
            table[a] = (0..1u32 << bits[a])
                .map(|q| {
                    let mut key = 0;
                    for (k, &p) in place.iter().enumerate() {
                        key |= ((q >> (bits[a] as usize - 1 - k)) & 1) << p;
                    }
                    key
                })
                .collect();
        }
        let cells = |a: usize| (1u32 << bits[a]) as f32;
        let scale = Vec4::new(
            if bits[0] > 0 {
                cells(0) * (1.0 - 1e-6) / ext.x
            } else {
                0.0
            },
            if bits[1] > 0 {
                cells(1) * (1.0 - 1e-6) / ext.y
            } else {
                0.0
            },
            if bits[2] > 0 {
                cells(2) * (1.0 - 1e-6) / ext.z
            } else {
                0.0
            },
            0.0,
        );
        let top = Vec4::new(cells(0) - 1.0, cells(1) - 1.0, cells(2) - 1.0, 0.0);
        Some(Grid {
            bits: total as u32,
            axis,
            lo: centres.min,
            scale,
            top,
            table,
            offsets: Vec::new(),
        })
    }

    #[inline]
    fn key(&self, centre2: Vec4) -> usize {
        // Floor by rounding `x - 0.5` with 2^23 added, as `bin_of` (no saturating
        // casts); the clamp keeps every coordinate inside its table.
        let f = ((centre2 - self.lo) * self.scale - Vec4::splat(0.5))
            .max(Vec4::ZERO)
            .min(self.top)
            + Vec4::splat(8_388_608.0);
        let q = |x: f32| (x.to_bits() & 0xffff) as usize;
        let t = &self.table;
        (t[0][q(f.x)] | t[1][q(f.y)] | t[2][q(f.z)]) as usize
    }

    /// Counting sort of the leaves by cell: returns the leaf indices in cell order and
    /// records the cells' offsets in it. The indices are sorted (in cache), not the
    /// items: those are gathered range by range as the SAH takes over (see [`build`](super::build)).
    pub(super) fn sort(
        &mut self,
        count: usize,
        leaf: impl Fn(usize) -> (Aabb, u32, u32),
    ) -> Vec<u32> {
        let cells = 1usize << self.bits;
        let mut keys = Vec::with_capacity(count);
        let mut pos = vec![0u32; cells + 1];
        for i in 0..count {
            let b = leaf(i).0;
            let k = self.key((b.min() + b.max()).extend(0.0));
            keys.push(k as u16);
            pos[k] += 1;
        }
        let mut sum = 0;
        for p in pos.iter_mut() {
            let c = *p;
            *p = sum;
            sum += c;
        }
        self.offsets = pos.clone();
        let mut order = vec![0u32; count];
        for (i, &k) in keys.iter().enumerate() {
            let p = &mut pos[usize::from(k)];
            order[*p as usize] = i as u32;
            *p += 1;
        }
        order
    }

    /// Narrows a grid task to the first key prefix whose two halves both hold items.
    /// Returns `true` when the task is to be split by the SAH instead: it is small, or
    /// it is down to one cell.
    pub(super) fn descend(&self, task: &mut GridTask) -> bool {
        while task.end - task.start > GRID_LEAF && task.level < self.bits {
            let half = 1u32 << (self.bits - 1 - task.level);
            let split = self.offsets[(task.cell + half) as usize] as usize;
            let a = usize::from(self.axis[task.level as usize]);
            let plane = 0.5 * (task.region.min[a] + task.region.max[a]);
            if split == task.start {
                task.cell += half;
                task.region.min[a] = plane;
            } else if split == task.end {
                task.region.max[a] = plane;
            } else {
                return false;
            }
            task.level += 1;
        }
        true
    }

    /// The two grid tasks under grid node `node` made from `task`.
    pub(super) fn halves(&self, task: &GridTask, node: u32) -> (GridTask, GridTask) {
        let half = 1u32 << (self.bits - 1 - task.level);
        let split = self.offsets[(task.cell + half) as usize] as usize;
        let a = usize::from(self.axis[task.level as usize]);
        let plane = 0.5 * (task.region.min[a] + task.region.max[a]);
        let mut left = GridTask {
            region: task.region,
            start: task.start,
            end: split,
            parent: node,
            second: false,
            level: task.level + 1,
            cell: task.cell,
        };
        let mut right = GridTask {
            start: split,
            end: task.end,
            second: true,
            cell: task.cell + half,
            ..left
        };
        left.region.max[a] = plane;
        right.region.min[a] = plane;
        (left, right)
    }
}
