//! The SAH split of one range of items: binned for large ranges, exhaustive for tiny
//! ones, at the middle when every centre coincides on the split axis.

use glam::Vec4;

use super::{Bounds, Item};

const MAX_BINS: usize = 16;

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
pub(super) fn split_binned<const AXIS: usize>(
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
/// binning (one bin per item up to 16) measured faster over a whole build.
pub(super) const SMALL: usize = 4;

/// Splits a range of 2 to [`SMALL`] items. The centre bounds returned are empty: the
/// parts are small ranges too, which need none.
#[inline(always)]
pub(super) fn split_small(range: &mut [Item]) -> (usize, Bounds, Bounds, Bounds) {
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
pub(super) fn split_middle(range: &mut [Item]) -> (usize, Bounds, Bounds, Bounds) {
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
    use crate::Aabb;
    use glam::Vec3;
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
