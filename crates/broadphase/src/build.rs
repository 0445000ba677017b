//! Top-down binned SAH construction (Wald 2007) of a [`DynamicTree`](crate::DynamicTree)
//! arena, without recursion.
//!
//! Each range of leaves is split on the axis where the leaf centres spread most. The
//! centres are dropped into up to 16 equal bins; every split between bins is scored
//! with the surface-area heuristic (area x count on each side) and the cheapest wins.
//! When all centres coincide on that axis no binning can separate them, so the range is
//! cut at its middle instead: this keeps the depth logarithmic for coincident boxes.
//! Centres are kept doubled (`min + max`) to save a multiply per item.
//!
//! Above a few hundred leaves the top of the tree comes from a grid instead (see
//! [`Grid`]): the leaves are counting-sorted by cell along a Morton-like curve and each
//! large range is cut at its middle cell, so the binned passes over large ranges (each
//! reads and partitions every item, the costly part of a build) are replaced by one
//! sort. The SAH splits the ranges of at most [`GRID_LEAF`] items.

use glam::{Vec3, Vec4};

use crate::Aabb;
use crate::tree::{NULL, Node};

const MAX_BINS: usize = 16;

/// 32 bytes so partition swaps move one AVX register; the leaf id and the payload ride
/// in the unused `w` lanes (as raw bits; `w` never takes part in any bound).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Item {
    min: Vec4,
    max: Vec4,
}

impl Item {
    #[inline]
    fn new(b: &Aabb, leaf_id: u32, payload: u32) -> Self {
        Item {
            min: b.min().extend(f32::from_bits(leaf_id)),
            max: b.max().extend(f32::from_bits(payload)),
        }
    }

    #[inline]
    fn from_leaf((b, payload, leaf_id): (Aabb, u32, u32)) -> Self {
        Item::new(&b, leaf_id, payload)
    }

    #[inline]
    fn leaf_id(&self) -> u32 {
        self.min.w.to_bits()
    }

    #[inline]
    fn payload(&self) -> u32 {
        self.max.w.to_bits()
    }

    #[inline]
    fn centre2(&self) -> Vec4 {
        self.min + self.max
    }
}

#[derive(Clone, Copy)]
struct Bounds {
    min: Vec4,
    max: Vec4,
}

impl Bounds {
    const EMPTY: Bounds = Bounds {
        min: Vec4::splat(f32::INFINITY),
        max: Vec4::splat(f32::NEG_INFINITY),
    };

    #[inline]
    fn grow(&mut self, min: Vec4, max: Vec4) {
        self.min = self.min.min(min);
        self.max = self.max.max(max);
    }

    #[inline]
    fn merge(&self, o: &Bounds) -> Bounds {
        Bounds {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }

    #[inline]
    fn area(&self) -> f32 {
        let d = (self.max - self.min).max(Vec4::ZERO);
        d.x * d.y + d.y * d.z + d.z * d.x
    }

    fn to_aabb(self) -> Aabb {
        Aabb::new_unchecked(self.min.truncate(), self.max.truncate())
    }
}

/// A range of items to split by the SAH.
struct Task {
    /// Centre bounds of the range (for the top of a range handed over by the grid: the
    /// region of its cells, which contains them).
    centres: Bounds,
    start: u32,
    end: u32,
    parent: u32,
    second: bool,
}

/// Working space of the SAH builds, reused from range to range.
#[derive(Default)]
struct Scratch {
    /// Ranges waiting to be split (right halves).
    stack: Vec<Task>,
    /// The bin of each item of the range being split, kept for its partition.
    item_bins: Vec<u8>,
}

/// A range of grid cells, whose leaves are `order[start..end]` (see [`Grid::sort`]).
struct GridTask {
    /// The cells' region (doubled centre coordinates).
    region: Bounds,
    start: usize,
    end: usize,
    parent: u32,
    second: bool,
    /// The number of key bits the cells share.
    level: u32,
    /// The first cell.
    cell: u32,
}

/// A freshly built arena, nodes in depth-first preorder (first child first).
pub(crate) struct Built {
    pub(crate) nodes: Vec<Node>,
    pub(crate) parent: Vec<u32>,
    pub(crate) height: Vec<u32>,
    /// Leaf id of each leaf node (`NULL` for internal nodes).
    pub(crate) node_leaf: Vec<u32>,
    pub(crate) root: u32,
    /// Sum of internal-node surface areas.
    pub(crate) area: f64,
}

impl Built {
    /// Appends a node and links it under `parent`.
    #[inline(always)]
    fn push(&mut self, node: Node, leaf_id: u32, parent: u32, second: bool) -> u32 {
        let n = self.nodes.len() as u32;
        self.nodes.push(node);
        self.parent.push(parent);
        self.height.push(0);
        self.node_leaf.push(leaf_id);
        if parent == NULL {
            self.root = n;
        } else if second {
            self.nodes[parent as usize].child2 = n;
        } else {
            self.nodes[parent as usize].child1 = n;
        }
        n
    }

    /// Grows the boxes of the ancestors of `node` (all grid nodes, whose boxes are
    /// only known once their subtrees are built) to contain its box, stopping at the
    /// first that already does (every growth is carried up at once, so its ancestors
    /// do too). Called when a subtree's top node is made, before its leaves: an
    /// ancestor still at height 0 has no leaf yet, so its box is still the placeholder
    /// and is replaced rather than grown.
    fn grow_ancestors(&mut self, node: u32) {
        // The box is read back from the arena rather than passed by reference: a
        // reference would keep the caller's copy in memory on every path.
        let aabb = self.nodes[node as usize].aabb;
        let mut p = self.parent[node as usize];
        while p != NULL {
            let unset = self.height[p as usize] == 0;
            let b = &mut self.nodes[p as usize].aabb;
            if unset {
                *b = aabb;
            } else if b.contains(&aabb) {
                break;
            } else {
                *b = b.merge(&aabb);
            }
            p = self.parent[p as usize];
        }
    }
}

/// Builds a tree over `count` leaves, `leaf(i)` giving the `i`-th as a `(box, payload,
/// leaf id)` triple (read in any order, some more than once). Nodes are emitted in the
/// order the builder visits them, which is depth-first preorder: each subtree ends up
/// contiguous in memory, with no separate layout pass.
pub(crate) fn build(count: usize, leaf: impl Fn(usize) -> (Aabb, u32, u32)) -> Built {
    let mut out = Built {
        nodes: Vec::with_capacity(2 * count),
        parent: Vec::with_capacity(2 * count),
        height: Vec::with_capacity(2 * count),
        node_leaf: Vec::with_capacity(2 * count),
        root: NULL,
        area: 0.0,
    };
    if count == 0 {
        return out;
    }
    // The centre bounds first, from the input: the grid needs them before the items are
    // placed, and the input is read again more cheaply than a copy of it is written.
    let mut centres = Bounds::EMPTY;
    for i in 0..count {
        let b = leaf(i).0;
        let c = (b.min() + b.max()).extend(0.0);
        centres.grow(c, c);
    }
    // Every node costs one unit, so at most 2n - 1 are spent.
    let mut budget = 2 * count;
    let mut scratch = Scratch::default();
    let Some(mut grid) = Grid::new(&centres, count) else {
        let mut items: Vec<Item> = (0..count).map(|i| Item::from_leaf(leaf(i))).collect();
        let root = Task {
            centres,
            start: 0,
            end: count as u32,
            parent: NULL,
            second: false,
        };
        build_sah(&mut out, &mut items, &mut scratch, root, false, &mut budget);
        return out;
    };
    let order = grid.sort(count, &leaf);
    // Each range the grid hands over is gathered here and built by the SAH while it is
    // in cache (at most `GRID_LEAF` items, 16 KB, unless one cell holds more).
    let mut items = Vec::new();
    // Grid nodes get their boxes from their subtrees; their areas are summed at the end.
    let mut grid_nodes = Vec::new();
    let mut grid_stack = Vec::new();
    // As in `build_sah`, the left half goes straight to the next iteration.
    let mut next = Some(GridTask {
        region: centres,
        start: 0,
        end: count,
        parent: NULL,
        second: false,
        level: 0,
        cell: 0,
    });
    while let Some(mut task) = next.take().or_else(|| grid_stack.pop()) {
        if budget == 0 {
            break;
        }
        if task.end - task.start > 1 && !grid.descend(&mut task) {
            budget -= 1;
            // A grid node: both halves hold items.
            let node = out.push(
                Node {
                    // A placeholder until `grow_ancestors` sets it.
                    aabb: Aabb::new_unchecked(Vec3::ZERO, Vec3::ZERO),
                    child1: NULL,
                    child2: NULL,
                },
                NULL,
                task.parent,
                task.second,
            );
            grid_nodes.push(node);
            let (left, right) = grid.halves(&task, node);
            grid_stack.push(right);
            next = Some(left);
            continue;
        }
        items.clear();
        items.extend(
            order[task.start..task.end]
                .iter()
                .map(|&i| Item::from_leaf(leaf(i as usize))),
        );
        let root = Task {
            centres: task.region,
            start: 0,
            end: items.len() as u32,
            parent: task.parent,
            second: task.second,
        };
        let grid_parent = task.parent != NULL;
        build_sah(
            &mut out,
            &mut items,
            &mut scratch,
            root,
            grid_parent,
            &mut budget,
        );
    }
    for &n in &grid_nodes {
        out.area += f64::from(out.nodes[n as usize].aabb.surface_area());
    }
    out
}

/// Builds the subtree of `root` over `items` with the binned SAH, appending its nodes
/// in depth-first preorder. `grid_parent`: the root's parent is a grid node, whose box
/// the root's box grows.
fn build_sah(
    out: &mut Built,
    items: &mut [Item],
    scratch: &mut Scratch,
    root: Task,
    mut grid_parent: bool,
    budget: &mut usize,
) {
    // The left child is split right after its parent, so it goes straight to the next
    // iteration instead of through the stack: a task read back from memory right after
    // it was written field by field stalls on store forwarding.
    let mut next = Some(root);
    while let Some(task) = next.take().or_else(|| scratch.stack.pop()) {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let (start, end) = (task.start as usize, task.end as usize);
        let count = end - start;
        if count == 1 {
            let it = items[start];
            let node = Node {
                aabb: Aabb::new_unchecked(it.min.truncate(), it.max.truncate()),
                child1: NULL,
                child2: it.payload(),
            };
            let node = out.push(node, it.leaf_id(), task.parent, task.second);
            if grid_parent {
                grid_parent = false;
                out.grow_ancestors(node);
            }
            // Heights while the leaf's ancestors are still in cache (they are the
            // current depth-first path), instead of a separate bottom-up pass over the
            // whole arena: raise them until one is already high enough. Each step
            // raises a height, so the loop is bounded by the sum of heights.
            let (mut p, mut h) = (task.parent, 1);
            while p != NULL && out.height[p as usize] < h {
                out.height[p as usize] = h;
                p = out.parent[p as usize];
                h += 1;
            }
            continue;
        }
        let range = &mut items[start..end];
        let ext = task.centres.max - task.centres.min;
        let axis = if ext.x >= ext.y && ext.x >= ext.z {
            0
        } else if ext.y >= ext.z {
            1
        } else {
            2
        };
        let (mid, node_box, left_c, right_c) = if count <= SMALL {
            split_small(range)
        } else if ext[axis] > 0.0 {
            // A compile-time axis turns lane extraction into a plain register move.
            let (lo, e) = (task.centres.min[axis], ext[axis]);
            match axis {
                0 => split_binned::<0>(range, lo, e, &mut scratch.item_bins),
                1 => split_binned::<1>(range, lo, e, &mut scratch.item_bins),
                _ => split_binned::<2>(range, lo, e, &mut scratch.item_bins),
            }
        } else {
            split_middle(range)
        };
        let aabb = node_box.to_aabb();
        out.area += f64::from(aabb.surface_area());
        let node = out.push(
            Node {
                aabb,
                child1: NULL,
                child2: NULL,
            },
            NULL,
            task.parent,
            task.second,
        );
        if grid_parent {
            grid_parent = false;
            out.grow_ancestors(node);
        }
        let mid = task.start + mid as u32;
        scratch.stack.push(Task {
            centres: right_c,
            start: mid,
            end: task.end,
            parent: node,
            second: true,
        });
        next = Some(Task {
            centres: left_c,
            start: task.start,
            end: mid,
            parent: node,
            second: false,
        });
    }
}

/// Ranges of at most this many items are split by the SAH; larger ones by the grid
/// while their cells allow. The grid's midpoint cuts miss the SAH's choice more often in
/// smaller ranges, which the all-pairs traversal pays: at 100k standard boxes it runs
/// 1.6% more instructions on a tree whose grid stops at 128 items, 1.2% at 256, 0.4% at
/// 512 to 2048 (callgrind); each halving of this size saves one binned pass over all
/// items (about 0.3 ms of a 100k build).
const GRID_LEAF: usize = 512;

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
struct Grid {
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
    fn new(centres: &Bounds, n: usize) -> Option<Grid> {
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
    /// items: those are gathered range by range as the SAH takes over (see [`build`]).
    fn sort(&mut self, count: usize, leaf: impl Fn(usize) -> (Aabb, u32, u32)) -> Vec<u32> {
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
    fn descend(&self, task: &mut GridTask) -> bool {
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
    fn halves(&self, task: &GridTask, node: u32) -> (GridTask, GridTask) {
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

#[inline(always)]
fn lane<const AXIS: usize>(v: Vec4) -> f32 {
    match AXIS {
        0 => v.x,
        1 => v.y,
        _ => v.z,
    }
}

/// The bin count of a binned split of `n` items whose centres span `extent` on
/// the split axis, and the scale taking a centre's offset from the low end to its
/// bin ([`bin_of`]).
#[inline(always)]
fn bin_grid(n: usize, extent: f32) -> (usize, f32) {
    let bins = n.clamp(2, MAX_BINS);
    // Slightly under bins/extent so the largest centre maps inside the last bin.
    (bins, bins as f32 * (1.0 - 1e-6) / extent)
}

#[inline(always)]
fn bin_of(c: f32, lo: f32, scale: f32, bins: usize) -> usize {
    // The bin is the floor of the scaled coordinate; `x - 0.5` rounded to the nearest
    // integer is that floor (up to ties, which only move a centre lying exactly on a
    // bin boundary, the same way every time). Rounding by adding 2^23 (float spacing
    // 1 there) and masking the low bits is branch-free: a float-to-int `as` cast
    // saturates, which costs compares and branches per item (the profile showed it as
    // the hottest line of the build). The mask also bounds the index to the bin array.
    let f = ((c - lo) * scale - 0.5).clamp(0.0, (bins - 1) as f32);
    ((f + 8_388_608.0).to_bits() & (MAX_BINS as u32 - 1)) as usize
}

/// SAH split over equal-width bins of the centres along `axis`. Returns the split
/// position (in `1..range.len()`), the range's box and the two sides' centre bounds.
#[inline(always)]
fn split_binned<const AXIS: usize>(
    range: &mut [Item],
    lo: f32,
    extent: f32,
    item_bins: &mut Vec<u8>,
) -> (usize, Bounds, Bounds, Bounds) {
    let n = range.len();
    let (bins, scale) = bin_grid(n, extent);
    let mut boxes = [Bounds::EMPTY; MAX_BINS];
    // Centre bounds per bin, so the children's centre bounds (which pick their split
    // axes) come from the bins instead of another pass over the items.
    let mut cbox = [Bounds::EMPTY; MAX_BINS];
    let mut counts = [0u32; MAX_BINS];
    // Every item's bin first: the accumulation loop then knows every store address
    // early (its read-modify-writes of the bins hit the same bin often in small
    // ranges, which the CPU can only order once the addresses are known), and the
    // partition below reads the bins instead of computing them again.
    item_bins.clear();
    item_bins.extend(
        range
            .iter()
            .map(|it| bin_of(lane::<AXIS>(it.centre2()), lo, scale, bins) as u8),
    );
    for (&b, it) in item_bins.iter().zip(range.iter()) {
        let b = usize::from(b) & (MAX_BINS - 1);
        let c = it.centre2();
        boxes[b].grow(it.min, it.max);
        cbox[b].grow(c, c);
        counts[b] += 1;
    }
    // Right-to-left sweep: area and count of bins i.. for every i.
    let mut right_area = [0f32; MAX_BINS];
    let mut right_count = [0u32; MAX_BINS];
    let mut acc = Bounds::EMPTY;
    let mut cnt = 0;
    for i in (1..bins).rev() {
        acc = acc.merge(&boxes[i]);
        cnt += counts[i];
        right_area[i] = acc.area();
        right_count[i] = cnt;
    }
    let mut left = Bounds::EMPTY;
    let mut left_count = 0;
    let mut best_split = 0;
    let mut best_cost = f32::INFINITY;
    for s in 1..bins {
        left = left.merge(&boxes[s - 1]);
        left_count += counts[s - 1];
        if left_count == 0 || right_count[s] == 0 {
            continue;
        }
        let cost = left.area() * left_count as f32 + right_area[s] * right_count[s] as f32;
        if cost < best_cost {
            best_cost = cost;
            best_split = s;
        }
    }
    let node_box = left.merge(&boxes[bins - 1]);
    if best_split == 0 {
        // Rounding put every centre in one bin despite a positive extent.
        let (mid, l, r) = split_middle_centres(range);
        return (mid, node_box, l, r);
    }
    let (mut left_c, mut right_c) = (Bounds::EMPTY, Bounds::EMPTY);
    for (b, c) in cbox[..bins].iter().enumerate() {
        if b < best_split {
            left_c = left_c.merge(c);
        } else {
            right_c = right_c.merge(c);
        }
    }
    // Branch-free in-place partition: every item is swapped to the end of the left
    // part, which only grows past items that go left. Which side an item goes is
    // random, so a branchy partition mispredicts on half the items; two 32-byte swaps
    // per item are cheaper. Item `j` is still in place when the loop reaches it (the
    // swaps so far only touched positions below `j`), so its bin is the one counted.
    let mut i = 0;
    for (j, &b) in item_bins.iter().enumerate() {
        range.swap(i, j);
        i += usize::from(usize::from(b) < best_split);
    }
    if i == 0 || i == n {
        // Cannot happen (both sides were counted non-empty); kept as a safe fallback.
        let (mid, l, r) = split_middle_centres(range);
        return (mid, node_box, l, r);
    }
    (i, node_box, left_c, right_c)
}

/// Ranges up to this size are split by scoring every partition into two non-empty
/// parts with the SAH: 3 for three items, 7 for four (a sort along the axis scores only
/// 2 and 3 of them, and its compare-and-swap branches mispredicted). Above 4 items,
/// binning (one bin per item up to 16) measured 2-3% faster over a whole 100k build.
const SMALL: usize = 4;

/// Splits a range of 2 to [`SMALL`] items. The centre bounds returned are empty: the
/// parts are small ranges too, which need none.
#[inline(always)]
fn split_small(range: &mut [Item]) -> (usize, Bounds, Bounds, Bounds) {
    let bx = |i: usize| Bounds {
        min: range[i].min,
        max: range[i].max,
    };
    let none = Bounds::EMPTY;
    match range.len() {
        2 => (1, bx(0).merge(&bx(1)), none, none),
        3 => {
            let (b0, b1, b2) = (bx(0), bx(1), bx(2));
            // Item i alone against the other two.
            let rest = [b1.merge(&b2), b0.merge(&b2), b0.merge(&b1)];
            let cost = |i: usize, b: &Bounds| b.area() + 2.0 * rest[i].area();
            let (mut best, mut cut) = (cost(0, &b0), 0);
            for (i, b) in [(1, &b1), (2, &b2)] {
                let c = cost(i, b);
                if c < best {
                    (best, cut) = (c, i);
                }
            }
            let node = rest[0].merge(&b0);
            range.swap(0, cut);
            (1, node, none, none)
        }
        _ => {
            let (b0, b1, b2, b3) = (bx(0), bx(1), bx(2), bx(3));
            let (p01, p23) = (b0.merge(&b1), b2.merge(&b3));
            let (p02, p13) = (b0.merge(&b2), b1.merge(&b3));
            let (p03, p12) = (b0.merge(&b3), b1.merge(&b2));
            // Item i alone against the other three.
            let rest = [
                p12.merge(&b3),
                p02.merge(&b3),
                p01.merge(&b3),
                p01.merge(&b2),
            ];
            let single = [b0, b1, b2, b3];
            // Cuts 0-3: item i alone (moved to the front); 5-7: items 0 and k - 4
            // together (k - 4 moved next to item 0).
            let (mut best, mut cut) = (f32::INFINITY, 0);
            for i in 0..4 {
                let c = single[i].area() + 3.0 * rest[i].area();
                if c < best {
                    (best, cut) = (c, i);
                }
            }
            for (k, (a, b)) in [(5, (p01, p23)), (6, (p02, p13)), (7, (p03, p12))] {
                let c = 2.0 * (a.area() + b.area());
                if c < best {
                    (best, cut) = (c, k);
                }
            }
            let node = p01.merge(&p23);
            if cut < 4 {
                range.swap(0, cut);
                (1, node, none, none)
            } else {
                range.swap(1, cut - 4);
                (2, node, none, none)
            }
        }
    }
}

/// Cuts the range at its middle (all centres coincide on the split axis).
#[inline(always)]
fn split_middle(range: &mut [Item]) -> (usize, Bounds, Bounds, Bounds) {
    let mut node_box = Bounds::EMPTY;
    for it in range.iter() {
        node_box.grow(it.min, it.max);
    }
    let (mid, l, r) = split_middle_centres(range);
    (mid, node_box, l, r)
}

fn split_middle_centres(range: &mut [Item]) -> (usize, Bounds, Bounds) {
    let mid = range.len() / 2;
    let mut l = Bounds::EMPTY;
    let mut r = Bounds::EMPTY;
    for it in &range[..mid] {
        let c = it.centre2();
        l.grow(c, c);
    }
    for it in &range[mid..] {
        let c = it.centre2();
        r.grow(c, c);
    }
    (mid, l, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A binned split puts each item on the side its bin was counted on (the
    /// partition reads the bins computed before its swaps): recomputed from the
    /// items afterwards, every bin left of the cut is below every bin right of it,
    /// the centre bounds returned hold their side's centres, and the items are the
    /// same ones.
    #[test]
    fn binned_split_keeps_items_on_their_bins_side() {
        let seed = 0xB1_45u64;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = Vec::new();
        for case in 0..600 {
            let n = rng.random_range(5..300);
            let side = rng.random_range(1.0..50.0);
            let mut items: Vec<Item> = (0..n)
                .map(|k| {
                    let c = Vec3::new(
                        rng.random_range(0.0..side),
                        rng.random_range(0.0..side),
                        rng.random_range(0.0..side),
                    );
                    let h = Vec3::splat(rng.random_range(0.1..1.0));
                    Item::new(&Aabb::new(c - h, c + h).unwrap(), k as u32, 0)
                })
                .collect();
            let mut centres = Bounds::EMPTY;
            for it in &items {
                centres.grow(it.centre2(), it.centre2());
            }
            let axis = case % 3;
            let (lo, extent) = (centres.min[axis], centres.max[axis] - centres.min[axis]);
            let (mid, _, left, right) = match axis {
                0 => split_binned::<0>(&mut items, lo, extent, &mut scratch),
                1 => split_binned::<1>(&mut items, lo, extent, &mut scratch),
                _ => split_binned::<2>(&mut items, lo, extent, &mut scratch),
            };
            let (bins, scale) = bin_grid(n, extent);
            let bin = |it: &Item| bin_of(it.centre2()[axis], lo, scale, bins);
            let what = format!("seed {seed:#x} case {case} (n {n}, axis {axis}, cut {mid})");
            assert!(0 < mid && mid < n, "{what}");
            let left_max = items[..mid].iter().map(bin).max().unwrap();
            let right_min = items[mid..].iter().map(bin).min().unwrap();
            assert!(
                left_max < right_min,
                "{what}: bins {left_max} | {right_min}"
            );
            for (part, bounds) in [(&items[..mid], &left), (&items[mid..], &right)] {
                for it in part {
                    let c = it.centre2();
                    assert!(
                        c.cmpge(bounds.min).all() && c.cmple(bounds.max).all(),
                        "{what}"
                    );
                }
            }
            let mut ids: Vec<u32> = items.iter().map(Item::leaf_id).collect();
            ids.sort_unstable();
            assert!(ids.iter().copied().eq(0..n as u32), "{what}");
        }
    }
}
