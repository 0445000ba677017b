//! Top-down binned SAH construction (Wald 2007) of the internal nodes of a
//! [`DynamicTree`](crate::DynamicTree), without recursion.
//!
//! Each range of leaves is split on the axis where the leaf centres spread most. The
//! centres are dropped into up to 16 equal bins; every split between bins is scored
//! with the surface-area heuristic (area x count on each side) and the cheapest wins.
//! When all centres coincide on that axis no binning can separate them, so the range is
//! cut at its middle instead: this keeps the depth logarithmic for coincident boxes.
//! Centres are kept doubled (`min + max`) to save a multiply per item.

use glam::Vec4;

use crate::tree::{DynamicTree, NULL};
use crate::Aabb;

const MAX_BINS: usize = 16;

/// 32 bytes so partition swaps move one AVX register; the leaf index rides in the
/// unused `w` lane of `min` (as raw bits; `w` never takes part in any bound).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Item {
    min: Vec4,
    max: Vec4,
}

impl Item {
    #[inline]
    fn new(b: &Aabb, leaf: u32) -> Self {
        Item {
            min: b.min().extend(f32::from_bits(leaf)),
            max: b.max().extend(0.0),
        }
    }

    #[inline]
    fn leaf(&self) -> u32 {
        self.min.w.to_bits()
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

struct Task {
    start: usize,
    end: usize,
    parent: u32,
    second: bool,
    centres: Bounds,
}

fn link(tree: &mut DynamicTree, root: &mut u32, parent: u32, second: bool, child: u32) {
    tree.parent[child as usize] = parent;
    if parent == NULL {
        *root = child;
    } else if second {
        tree.nodes[parent as usize].child2 = child;
    } else {
        tree.nodes[parent as usize].child1 = child;
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

#[inline]
fn bin_of(c: f32, lo: f32, scale: f32, bins: usize) -> usize {
    // `as usize` saturates, so rounding below zero lands in bin 0.
    (((c - lo) * scale) as usize).min(bins - 1)
}

/// Builds internal nodes above `leaves` (live leaf nodes of `tree`, whose internal
/// nodes must already be freed) and returns the root. Heights and the tracked area are
/// set as nodes are created.
pub(crate) fn build(tree: &mut DynamicTree, leaves: &mut [u32]) -> u32 {
    if leaves.is_empty() {
        return NULL;
    }
    let mut items: Vec<Item> = leaves
        .iter()
        .map(|&l| Item::new(&tree.nodes[l as usize].aabb, l))
        .collect();
    let mut centres = Bounds::EMPTY;
    for it in &items {
        let c = it.centre2();
        centres.grow(c, c);
    }
    let mut root = NULL;
    let mut internal_order: Vec<u32> = Vec::with_capacity(items.len());
    let mut stack = vec![Task {
        start: 0,
        end: items.len(),
        parent: NULL,
        second: false,
        centres,
    }];
    // Every task either makes a leaf or an internal node, so at most 2n - 1 tasks run.
    let mut budget = 2 * items.len();
    while let Some(task) = stack.pop() {
        if budget == 0 {
            break;
        }
        budget -= 1;
        let count = task.end - task.start;
        if count == 1 {
            let leaf = items[task.start].leaf();
            link(tree, &mut root, task.parent, task.second, leaf);
            continue;
        }
        let range = &mut items[task.start..task.end];
        let ext = task.centres.max - task.centres.min;
        let axis = if ext.x >= ext.y && ext.x >= ext.z {
            0
        } else if ext.y >= ext.z {
            1
        } else {
            2
        };
        let (mid, node_box, left_c, right_c) = if count <= SMALL {
            split_small(range, axis)
        } else if ext[axis] > 0.0 {
            // A compile-time axis turns lane extraction into a plain register move.
            let (lo, e) = (task.centres.min[axis], ext[axis]);
            match axis {
                0 => split_binned::<0>(range, lo, e),
                1 => split_binned::<1>(range, lo, e),
                _ => split_binned::<2>(range, lo, e),
            }
        } else {
            split_middle(range)
        };
        let node = tree.alloc_internal(node_box.to_aabb(), NULL, NULL);
        link(tree, &mut root, task.parent, task.second, node);
        internal_order.push(node);
        stack.push(Task {
            start: task.start + mid,
            end: task.end,
            parent: node,
            second: true,
            centres: right_c,
        });
        stack.push(Task {
            start: task.start,
            end: task.start + mid,
            parent: node,
            second: false,
            centres: left_c,
        });
    }
    // Children are created after their parent, so the reverse creation order is a
    // valid bottom-up order for heights.
    for &n in internal_order.iter().rev() {
        let node = tree.nodes[n as usize];
        let h = 1 + tree.height[node.child1 as usize].max(tree.height[node.child2 as usize]);
        tree.height[n as usize] = h;
    }
    root
}

/// SAH split over equal-width bins of the centres along `axis`. Returns the split
/// position (in `1..range.len()`), the range's box and the two sides' centre bounds.
fn split_binned<const AXIS: usize>(
    range: &mut [Item],
    lo: f32,
    extent: f32,
) -> (usize, Bounds, Bounds, Bounds) {
    let n = range.len();
    let bins = n.clamp(2, MAX_BINS);
    // Slightly under bins/extent so the largest centre maps inside the last bin.
    let scale = bins as f32 * (1.0 - 1e-6) / extent;
    let mut boxes = [Bounds::EMPTY; MAX_BINS];
    let mut counts = [0u32; MAX_BINS];
    for it in range.iter() {
        let b = bin_of(lane::<AXIS>(it.centre2()), lo, scale, bins);
        boxes[b].grow(it.min, it.max);
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
    // In-place partition; the bin index is recomputed with the same formula, so every
    // item lands on the side it was counted on.
    // Hoare-style: each misplaced pair costs one swap.
    let mut left_c = Bounds::EMPTY;
    let mut right_c = Bounds::EMPTY;
    let goes_left = |it: &Item| bin_of(lane::<AXIS>(it.centre2()), lo, scale, bins) < best_split;
    let mut i = 0;
    let mut j = n;
    // Every iteration of either inner loop moves `i` up or `j` down.
    'outer: for _ in 0..n {
        loop {
            if i == j {
                break 'outer;
            }
            if !goes_left(&range[i]) {
                break;
            }
            let c = range[i].centre2();
            left_c.grow(c, c);
            i += 1;
        }
        loop {
            if i == j {
                break 'outer;
            }
            j -= 1;
            if goes_left(&range[j]) {
                break;
            }
            let c = range[j].centre2();
            right_c.grow(c, c);
        }
        range.swap(i, j);
        let c = range[i].centre2();
        left_c.grow(c, c);
        i += 1;
        let c = range[j].centre2();
        right_c.grow(c, c);
    }
    (i, node_box, left_c, right_c)
}

/// Ranges up to this size are split by sorting along the axis and scoring every cut
/// exactly: cheaper than clearing and sweeping bins, and better.
const SMALL: usize = 8;

fn split_small(range: &mut [Item], axis: usize) -> (usize, Bounds, Bounds, Bounds) {
    let n = range.len();
    range.sort_unstable_by(|a, b| a.centre2()[axis].total_cmp(&b.centre2()[axis]));
    let mut right_area = [0f32; SMALL];
    let mut acc = Bounds::EMPTY;
    for i in (1..n).rev() {
        acc.grow(range[i].min, range[i].max);
        right_area[i] = acc.area();
    }
    let mut left = Bounds::EMPTY;
    let mut best = (f32::INFINITY, 1);
    for s in 1..n {
        left.grow(range[s - 1].min, range[s - 1].max);
        let cost = left.area() * s as f32 + right_area[s] * (n - s) as f32;
        if cost < best.0 {
            best = (cost, s);
        }
    }
    left.grow(range[n - 1].min, range[n - 1].max);
    let mid = best.1;
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
    (mid, left, l, r)
}

/// Cuts the range at its middle (all centres coincide on the split axis).
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
