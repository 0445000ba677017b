//! Planning a block: the pairs the early outs decide get their answer, the
//! others are bucketed by kind pair (and sorted within hull buckets) for the
//! kernels.

use std::borrow::Borrow;

use gjk_core::{Shape, ShapeKind};

use super::dispatch::{KINDS, core_kind, key, kinds, peel};
use super::early_outs::{EarlyOutPass, PairVerdict};
use super::options::BatchOptions;
use super::output::OutSlots;
use super::pack::Inputs;
use super::queries::BatchQuery;
use super::sort::{CLOSENESS_MIN_BUCKET, counting_sort, sort_by_hulls};

/// The pairs of a block that need a kernel, bucketed.
pub(super) struct Plan {
    /// Pair indices, bucket after bucket.
    order: Vec<u32>,
    /// Each kind pair's range of `order`, by key.
    buckets: [std::ops::Range<usize>; KINDS * KINDS],
}

impl Plan {
    /// The non-empty buckets: key and pair indices, in key order. The slices are
    /// the runner's to reorder (the box pass compacts its undecided pairs in
    /// place).
    pub(super) fn buckets_mut(&mut self) -> impl Iterator<Item = (usize, &mut [u32])> {
        // The ranges tile `order` in key order, so each bucket is split off the
        // front of what is left.
        let mut rest = self.order.as_mut_slice();
        let mut at = 0;
        self.buckets.iter().enumerate().filter_map(move |(key, r)| {
            debug_assert_eq!(r.start, at, "bucket ranges tile the order");
            at = r.end;
            let (bucket, tail) = std::mem::take(&mut rest).split_at_mut(r.len());
            rest = tail;
            (!bucket.is_empty()).then_some((key, bucket))
        })
    }
}

/// Answers the pairs of `range` that the early outs decide, and buckets the
/// others by kind pair (and hull pair) for [`run_slice`].
pub(super) fn plan_block<Q: BatchQuery, S: Borrow<Shape>>(
    query: &Q,
    inputs: &Inputs<'_, S>,
    range: std::ops::Range<usize>,
    options: BatchOptions,
    out: &OutSlots<Q::Out>,
) -> Plan {
    let (sa, sb) = (inputs.shapes_a, inputs.shapes_b);
    // The pairs that need a kernel, with their kind-pair keys. Pairs the early
    // outs decide get their answer here and stay out of the batches, instead of
    // idling in a lane beside undecided ones. The append is branch-free (a
    // decided pair is written and then overwritten by the next): which pairs are
    // decided is data, and branching on it mispredicts.
    let len = range.len();
    let mut pending = vec![0u32; len];
    let mut keys = vec![0u8; len];
    let mut early_outs = EarlyOutPass::new(query, len);
    // Whether the bounding tests run on a kind pair, by key.
    let pays: [bool; KINDS * KINDS] = std::array::from_fn(|key| {
        options.early_outs && {
            let (kind_a, kind_b) = kinds(key);
            Q::ball_test_pays(kind_a, kind_b, &options)
        }
    });
    let mut n = 0;
    for i in range {
        // Kinds first: the radii are read only where the tests pay.
        let ((core_a, round_a), (core_b, round_b)) = (peel(sa[i].borrow()), peel(sb[i].borrow()));
        let key = key(core_kind(core_a), core_kind(core_b)) as u8;
        let verdict = if pays[key as usize] {
            early_outs.test_pair::<Q, S>(inputs, i, key, (core_a, round_a), (core_b, round_b), out)
        } else {
            PairVerdict::Undecided
        };
        if verdict == PairVerdict::SetAside {
            continue;
        }
        pending[n] = i as u32;
        keys[n] = key;
        n += usize::from(verdict == PairVerdict::Undecided);
    }
    let n = early_outs.finish::<Q, S>(inputs, out, &mut pending, &mut keys, n);
    pending.truncate(n);
    keys.truncate(n);
    let mut order = vec![0u32; n];
    // Counting sort by kind pair, stable: within a bucket, pairs keep their input
    // order...
    let starts = counting_sort::<{ KINDS * KINDS }>(&keys, |j| pending[j], &mut order);
    let len = order.len();
    let buckets: [std::ops::Range<usize>; KINDS * KINDS] =
        std::array::from_fn(|key| starts[key]..starts.get(key + 1).copied().unwrap_or(len));
    for (key, bucket) in buckets.iter().enumerate() {
        let idx = &mut order[bucket.clone()];
        let (kind_a, kind_b) = kinds(key);
        // ...except in buckets with hulls, which are sorted further by their
        // hulls so that batches mostly hold one hull pair (whose rows are then
        // splatted once and reused by the following batches).
        if (kind_a == ShapeKind::ConvexHull || kind_b == ShapeKind::ConvexHull) && idx.len() > 8 {
            // A box's ball fits it loosely: no guess at closeness from it.
            let balls_fit = kind_a != ShapeKind::Cuboid && kind_b != ShapeKind::Cuboid;
            let long = idx.len() >= CLOSENESS_MIN_BUCKET;
            let closeness =
                (balls_fit && long).then_some((inputs.poses_a, inputs.poses_b, Q::CLOSENESS_SPAN));
            sort_by_hulls(
                sa,
                sb,
                idx,
                (
                    kind_a == ShapeKind::ConvexHull,
                    kind_b == ShapeKind::ConvexHull,
                ),
                closeness,
            );
        }
    }
    Plan { order, buckets }
}
