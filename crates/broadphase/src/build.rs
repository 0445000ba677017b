//! Top-down binned SAH construction (Wald 2007) of a [`DynamicTree`](crate::DynamicTree)
//! arena, without recursion.
//!
//! Each range of leaves is split on the axis where the leaf centres spread most. The
//! centres are dropped into up to 16 equal bins; every split between bins is scored
//! with the surface-area heuristic (area x count on each side) and the cheapest wins.
//! When all centres coincide on that axis no binning can separate them, so the range is
//! cut at its middle instead: this keeps the depth logarithmic for coincident boxes.
//! Centres are kept doubled (`min + max`) to save a multiply per item.

use glam::Vec4;

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

struct Task {
    start: usize,
    end: usize,
    parent: u32,
    second: bool,
    centres: Bounds,
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
}

/// Builds a tree over `(box, payload, leaf id)` triples. Nodes are emitted in the order
/// the builder visits them, which is depth-first preorder: each subtree ends up
/// contiguous in memory, with no separate layout pass.
pub(crate) fn build(leaves: impl ExactSizeIterator<Item = (Aabb, u32, u32)>) -> Built {
    let count = leaves.len();
    let mut out = Built {
        nodes: Vec::with_capacity(2 * count),
        parent: Vec::with_capacity(2 * count),
        height: Vec::with_capacity(2 * count),
        node_leaf: Vec::with_capacity(2 * count),
        root: NULL,
        area: 0.0,
    };
    let mut items: Vec<Item> = leaves
        .map(|(b, payload, id)| Item::new(&b, id, payload))
        .collect();
    if items.is_empty() {
        return out;
    }
    let mut centres = Bounds::EMPTY;
    for it in &items {
        let c = it.centre2();
        centres.grow(c, c);
    }
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
            let it = items[task.start];
            let node = Node {
                aabb: Aabb::new_unchecked(it.min.truncate(), it.max.truncate()),
                child1: NULL,
                child2: it.payload(),
            };
            out.push(node, it.leaf_id(), task.parent, task.second);
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
    out
}

#[inline(always)]
fn lane<const AXIS: usize>(v: Vec4) -> f32 {
    match AXIS {
        0 => v.x,
        1 => v.y,
        _ => v.z,
    }
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
    // Centre bounds per bin, so the children's centre bounds (which pick their split
    // axes) come from the bins instead of another pass over the items.
    let mut cbox = [Bounds::EMPTY; MAX_BINS];
    let mut counts = [0u32; MAX_BINS];
    // Bin indices a chunk at a time first: the accumulation loop then knows every
    // store address early (its read-modify-writes of the bins hit the same bin often
    // in small ranges, which the CPU can only order once the addresses are known).
    let mut idx = [0u8; 64];
    for chunk in range.chunks(64) {
        for (k, it) in idx.iter_mut().zip(chunk) {
            *k = bin_of(lane::<AXIS>(it.centre2()), lo, scale, bins) as u8;
        }
        for (&b, it) in idx.iter().zip(chunk) {
            let b = usize::from(b) & (MAX_BINS - 1);
            let c = it.centre2();
            boxes[b].grow(it.min, it.max);
            cbox[b].grow(c, c);
            counts[b] += 1;
        }
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
    // per item are cheaper. The bin index is recomputed with the same formula, so
    // every item lands on the side it was counted on.
    let mut i = 0;
    for j in 0..n {
        let b = bin_of(lane::<AXIS>(range[j].centre2()), lo, scale, bins);
        range.swap(i, j);
        i += usize::from(b < best_split);
    }
    if i == 0 || i == n {
        // Cannot happen (both sides were counted non-empty); kept as a safe fallback.
        let (mid, l, r) = split_middle_centres(range);
        return (mid, node_box, l, r);
    }
    (i, node_box, left_c, right_c)
}

/// Ranges up to this size are split by sorting along the axis and scoring every cut
/// exactly. Above 4 items, binning (one bin per item up to 16) measured 2-3% faster over
/// a whole 100k build, with no measurable change in all-pairs or frame times.
const SMALL: usize = 4;

fn split_small(range: &mut [Item], axis: usize) -> (usize, Bounds, Bounds, Bounds) {
    let n = range.len();
    if n == 2 {
        // One possible split (a quarter of all nodes come here): no sort, no costs.
        let (a, b) = (range[0], range[1]);
        let (ca, cb) = (a.centre2(), b.centre2());
        let node = Bounds {
            min: a.min.min(b.min),
            max: a.max.max(b.max),
        };
        let l = Bounds { min: ca, max: ca };
        let r = Bounds { min: cb, max: cb };
        return (1, node, l, r);
    }
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
