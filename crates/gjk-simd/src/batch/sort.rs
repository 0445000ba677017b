//! The orders inside a bucket: counting sorts by kind pair, by hull and by how
//! close a pair's bounding balls say it is to touching, so that batches hold
//! pairs that run alike.

use std::borrow::Borrow;
use std::sync::Arc;

use gjk_core::{Pose, Shape, SupportMap};

use super::dispatch::peel;

/// Buckets with hulls are sorted further by hull, so that batches mostly hold one
/// hull pair: this many distinct hulls get their own key ([`HullIds`]), further
/// ones share hash bins of their addresses.
pub(super) const HULL_BINS: usize = 256;

/// Dense ids for the hulls of one bucket, by address, in order of first
/// appearance: the keys of [`sort_by_hulls`]. They are exact where bins of a
/// hash of the address were not: two hulls sharing a bin (depending on where the
/// allocator put them) interleaved their runs, and the batches mixed hulls. Being independent of addresses, they also make the
/// batches the same from run to run. Past [`HULL_BINS`] distinct hulls a new hull
/// takes the hash bin of its address instead: batches may then mix hulls, which
/// costs time, never correctness (a lane's result does not depend on its batch).
pub(super) struct HullIds {
    /// Open addressing with linear probing: the addresses, 0 (no hull lives
    /// there) marking a free slot, never more than half full...
    keys: [usize; HULL_SLOTS],
    /// ...and their ids.
    ids: [u8; HULL_SLOTS],
    /// Ids handed out so far.
    count: usize,
}

/// Slots of [`HullIds`]' table: twice the ids it hands out.
pub(super) const HULL_SLOTS: usize = 2 * HULL_BINS;

impl HullIds {
    fn new() -> Self {
        HullIds {
            keys: [0; HULL_SLOTS],
            ids: [0; HULL_SLOTS],
            count: 0,
        }
    }

    /// The id of the hull at `address` (nonzero).
    #[inline(always)]
    fn id(&mut self, address: usize) -> u8 {
        let hash = address_hash(address);
        let mut at = (hash >> 32) as usize % HULL_SLOTS;
        // At most half full, so a free slot ends the probe well within the bound.
        for _ in 0..HULL_SLOTS {
            let key = self.keys[at];
            if key == address {
                return self.ids[at];
            }
            if key == 0 {
                if self.count == HULL_BINS {
                    break;
                }
                let id = self.count as u8;
                (self.keys[at], self.ids[at]) = (address, id);
                self.count += 1;
                return id;
            }
            at = (at + 1) % HULL_SLOTS;
        }
        (hash >> 56) as u8
    }
}

/// Fibonacci hashing of an address, whose low bits are alignment: the top bits
/// are well mixed ([`HullIds`] probes from bits 32.., and its fallback bin is the
/// top byte).
#[inline(always)]
pub(super) fn address_hash(address: usize) -> u64 {
    (address as u64 >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The address of a (peeled) hull, or 0 for other kinds: identifies a hull within
/// one driver call, whose shapes are borrowed for the whole call.
#[inline(always)]
pub(super) fn hull_address(shape: &Shape) -> usize {
    match peel(shape).0 {
        Shape::ConvexHull(h) => Arc::as_ptr(h) as usize,
        _ => 0,
    }
}

/// Sorts the pairs `idx` of a hull bucket by A's hull, then by B's ([`HullIds`]),
/// then (given the poses and span) by [`closeness_bin`], with stable counting
/// passes, minor key first. Runs of one hull pair fill whole batches, and A's
/// hull changes only between runs: A's rows are reused across the pairs of all
/// its B hulls, and only B's are splatted again when B's hull changes.
///
/// Within a run, pairs of like closeness share batches: a batch runs as many
/// trips as its slowest lane, and GJK's iteration count peaks for pairs near
/// touching (on the standard hull pairs, a mean of 7.0 support calls there
/// against 3.8 to 4.1 far apart or deep), so mixing them idles lanes.
pub(super) fn sort_by_hulls<S: Borrow<Shape>>(
    sa: &[S],
    sb: &[S],
    idx: &mut [u32],
    (a_hull, b_hull): (bool, bool),
    closeness: Option<(&[Pose], &[Pose], f32)>,
) {
    let bins: Option<Vec<u8>> = closeness.map(|(pa, pb, span)| {
        idx.iter()
            .map(|&i| {
                let i = i as usize;
                let (inner_a, outer_a) = ball_radii(sa[i].borrow());
                let (inner_b, outer_b) = ball_radii(sb[i].borrow());
                let centres_sq = pa[i].translation().distance_squared(pb[i].translation());
                closeness_bin(centres_sq, inner_a + inner_b, outer_a + outer_b, span)
            })
            .collect()
    });
    let mut ids = HullIds::new();
    let mut keys = |shapes: &[S], items: &[u32]| -> Vec<u8> {
        items
            .iter()
            .map(|&i| ids.id(hull_address(shapes[i as usize].borrow())))
            .collect()
    };
    let mut unsorted = idx.to_vec();
    // The minor key: B's hull id and the closeness bin in one byte when B's ids
    // fit in its high half (one pass saved, in the common case of few hulls);
    // else a pass by closeness first.
    let mut minor = if b_hull {
        keys(sb, &unsorted)
    } else {
        vec![0; idx.len()]
    };
    if let Some(bins) = &bins {
        let ids_fit_in_a_nibble = minor
            .iter()
            .all(|&id| usize::from(id) < HULL_BINS / CLOSENESS_BINS);
        if ids_fit_in_a_nibble {
            for (key, &bin) in minor.iter_mut().zip(bins) {
                *key = *key * CLOSENESS_BINS as u8 + bin;
            }
        } else {
            scattered_counting_sort::<CLOSENESS_BINS>(bins, &unsorted, idx);
            unsorted.copy_from_slice(idx);
            minor = keys(sb, &unsorted);
        }
    }
    if b_hull || bins.is_some() {
        scattered_counting_sort::<HULL_BINS>(&minor, &unsorted, idx);
    }
    if a_hull {
        let unsorted = idx.to_vec();
        scattered_counting_sort::<HULL_BINS>(&keys(sa, &unsorted), &unsorted, idx);
    }
}

/// The bucket length from which [`sort_by_hulls`] sorts by closeness: runs of
/// one hull pair must be long for it to pay, and a bucket of many pairs is a
/// cheap sign of long runs (16 pairs a run, two batches, with 64 hull pairs).
/// A mixed workload's hull buckets are short, with runs of a few pairs, and
/// sorting them costs more than it saves (`BENCHMARKS.md`).
pub(super) const CLOSENESS_MIN_BUCKET: usize = 1024;

/// A shape's inner and bounding radii (its balls about its origin).
#[inline(always)]
pub(super) fn ball_radii(shape: &Shape) -> (f32, f32) {
    (shape.inner_radius(), shape.bounding_radius())
}

/// Bins of [`closeness_bin`] that [`sort_by_hulls`] orders a run by: enough to
/// take most of what a full sort by closeness saves in kernel trips, with one
/// counting pass (`BENCHMARKS.md`).
pub(super) const CLOSENESS_BINS: usize = 16;

/// Where the squared distance between a pair's centres (`centres_sq`) lies
/// between the squared sums of the inner radii (0: the shapes surely overlap) and
/// of the bounding radii (1: they surely do not), cut into [`CLOSENESS_BINS`]
/// over `0..span`: a cheap guess at how near the pair is to touching. Squares
/// keep the square root out; for given radii they order the pairs as their
/// distances do.
#[inline(always)]
pub(super) fn closeness_bin(centres_sq: f32, inner: f32, outer: f32, span: f32) -> u8 {
    // A shape without an inner ball (gjk-core gives a hull whose origin is not
    // inside it an inner radius of −∞) makes the sum −∞ or negative: no ball,
    // so the scale starts where the centres meet.
    let inner = inner.max(0.0);
    let (inner_sq, outer_sq) = (inner * inner, outer * outer);
    let t = (centres_sq - inner_sq) / (outer_sq - inner_sq);
    // Saturating: below 0 and NaN go to bin 0, past the span to the last.
    ((t * (CLOSENESS_BINS as f32 / span)) as u8).min(CLOSENESS_BINS as u8 - 1)
}

/// Calls `f(key, run_length)` for each maximal run of equal keys, in order.
#[inline(always)]
pub(super) fn for_each_run(keys: &[u8], mut f: impl FnMut(u8, usize)) {
    let mut rest = keys;
    while let Some(&k) = rest.first() {
        // Eight keys per comparison while they match.
        let pattern = u64::from_ne_bytes([k; 8]);
        let mut len = 0;
        while let Some(word) = rest.get(len..len + 8)
            && u64::from_ne_bytes(word.try_into().unwrap_or_default()) == pattern
        {
            len += 8;
        }
        len += rest[len..]
            .iter()
            .position(|&x| x != k)
            .unwrap_or(rest.len() - len);
        f(k, len);
        rest = &rest[len..];
    }
}

/// Stable counting sort of `items` by `keys` (`keys[j]` belongs to `items[j]`, all
/// below `BINS`): returns the sorted items and where each bin starts. Runs of equal
/// keys are counted and placed in registers: a histogram that increments one
/// counter in memory per item is bound by store-to-load latency.
pub(super) fn counting_sort<const BINS: usize>(
    keys: &[u8],
    items: impl Fn(usize) -> u32,
    sorted: &mut [u32],
) -> [usize; BINS] {
    let mut start = [0usize; BINS];
    for_each_run(keys, |k, len| start[k as usize] += len);
    counts_to_starts(&mut start);
    let mut next = start;
    let mut j = 0;
    for_each_run(keys, |k, len| {
        let s = &mut next[k as usize];
        for (o, jj) in sorted[*s..*s + len].iter_mut().zip(j..) {
            *o = items(jj);
        }
        *s += len;
        j += len;
    });
    start
}

/// [`counting_sort`] for keys that rarely repeat in a row (hull ids in input
/// order): a plain histogram, one counter a key, where counting runs would
/// mispredict the end of almost every run.
pub(super) fn scattered_counting_sort<const BINS: usize>(
    keys: &[u8],
    items: &[u32],
    sorted: &mut [u32],
) {
    let mut next = [0usize; BINS];
    for &k in keys {
        next[k as usize] += 1;
    }
    counts_to_starts(&mut next);
    for (&k, &item) in keys.iter().zip(items) {
        let s = &mut next[k as usize];
        sorted[*s] = item;
        *s += 1;
    }
}

/// Turns per-bin counts into where each bin starts (an exclusive prefix sum).
#[inline(always)]
pub(super) fn counts_to_starts<const BINS: usize>(counts: &mut [usize; BINS]) {
    let mut sum = 0;
    for c in counts.iter_mut() {
        (*c, sum) = (sum, sum + *c);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use gjk_core::ConvexHull;
    use glam::Vec3;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// `HullIds` against a map built by brute force: the same address always gets
    /// the same id, the first `HULL_BINS` distinct addresses get 0, 1, 2, ... in
    /// order of first appearance, and addresses past them get the hash bin, with
    /// the earlier ones still found (the probe never runs out of free slots).
    #[test]
    fn hull_ids_are_dense_in_first_appearance_order() {
        let seed = 0x1D5u64;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for case in 0..40 {
            let distinct = [3, 8, 64, 255, 256, 257, 400][case % 7];
            // Allocation-like addresses: nonzero, 16-aligned, clustered.
            let base = rng.random_range(1usize..1 << 40) << 4;
            let pool: Vec<usize> = (0..distinct)
                .map(|k| base + 16 * (k * rng.random_range(1..40)) + 16 * k)
                .collect();
            let mut ids = HullIds::new();
            let mut expected: HashMap<usize, u8> = HashMap::new();
            for _ in 0..4 * distinct {
                let address = pool[rng.random_range(0..distinct)];
                let id = ids.id(address);
                let what = format!("seed {seed:#x} case {case}, address {address:#x}");
                match expected.get(&address) {
                    Some(&seen) => assert_eq!(id, seen, "{what}: the same hull changed id"),
                    None if expected.len() < HULL_BINS => {
                        assert_eq!(usize::from(id), expected.len(), "{what}: not dense");
                        expected.insert(address, id);
                    }
                    None => {
                        let bin = (address_hash(address) >> 56) as u8;
                        assert_eq!(id, bin, "{what}: past the table, not the hash bin");
                        expected.insert(address, id);
                    }
                }
            }
        }
    }

    /// `sort_by_hulls` leaves every hull pair in one run, A's hulls each in one
    /// run too, and within a run the pairs in order of closeness and then of
    /// input (or of input alone without closeness); checked by brute force on
    /// random buckets over shared hulls, with hulls on either side or both, and
    /// with B's ids in and past the byte they share with the closeness bin.
    #[test]
    fn hull_sort_makes_one_run_per_hull_pair() {
        let seed = 0x50_47u64;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Up to 40 hulls: past 16, B's ids and the closeness bins no longer
        // share a byte and the sort takes its separate closeness pass.
        let hulls: Vec<Arc<ConvexHull>> = (0..40)
            .map(|_| {
                // About the origin, so that the inner balls are not empty.
                let points: Vec<Vec3> = (0..12)
                    .map(|_| Vec3::new(rng.random(), rng.random(), rng.random()) * 2.0 - 1.0)
                    .collect();
                Arc::new(ConvexHull::from_points(&points).unwrap())
            })
            .collect();
        let ball: Shape = gjk_core::Sphere::new(0.75).unwrap().into();
        for case in 0..72 {
            // Hull-hull, hull-ball and ball-hull buckets, with B drawn from 6 or
            // 40 hulls (A then from 3, so that runs hold several pairs).
            let (a_hull, b_hull) = [(true, true), (true, false), (false, true)][(case / 2) % 3];
            let (few_a, few_b, n) = if case % 2 == 0 {
                (6, 6, rng.random_range(9..400))
            } else {
                (3, 40, rng.random_range(400..800))
            };
            let pick = |rng: &mut ChaCha8Rng, hull: bool, few: usize| match hull {
                true => Shape::ConvexHull(hulls[rng.random_range(0..few)].clone()),
                false => ball.clone(),
            };
            let sa: Vec<Shape> = (0..n).map(|_| pick(&mut rng, a_hull, few_a)).collect();
            let sb: Vec<Shape> = (0..n).map(|_| pick(&mut rng, b_hull, few_b)).collect();
            if few_b == 40 && b_hull {
                let distinct: std::collections::HashSet<usize> =
                    sb.iter().map(hull_address).collect();
                assert!(
                    distinct.len() > 16,
                    "case {case}: the separate pass needs over 16 B hulls"
                );
            }
            let place = |rng: &mut ChaCha8Rng| {
                let t = Vec3::new(rng.random(), rng.random(), rng.random()) * 3.0;
                Pose::from_translation(t).unwrap()
            };
            let pa: Vec<Pose> = (0..n).map(|_| place(&mut rng)).collect();
            let pb: Vec<Pose> = (0..n).map(|_| place(&mut rng)).collect();
            let span = [None, Some(1.0), Some(4.0)][(case / 6) % 3];
            let bin = |i: u32| {
                span.map_or(0, |span| {
                    let i = i as usize;
                    let ((ia, oa), (ib, ob)) = (ball_radii(&sa[i]), ball_radii(&sb[i]));
                    let d = pa[i].translation().distance_squared(pb[i].translation());
                    closeness_bin(d, ia + ib, oa + ob, span)
                })
            };
            let mut idx: Vec<u32> = (0..n as u32).collect();
            let closeness = span.map(|span| (pa.as_slice(), pb.as_slice(), span));
            sort_by_hulls(&sa, &sb, &mut idx, (a_hull, b_hull), closeness);
            let what = format!(
                "seed {seed:#x} case {case} (n {n}, hulls {a_hull}/{b_hull}, {few_b} B hulls, \
                 span {span:?})"
            );
            let key = |i: u32| (hull_address(&sa[i as usize]), hull_address(&sb[i as usize]));
            let mut sorted = idx.clone();
            sorted.sort_unstable();
            assert!(
                sorted.iter().copied().eq(0..n as u32),
                "{what}: not a permutation"
            );
            let (mut pairs_seen, mut a_seen) = (Vec::new(), Vec::new());
            for (k, &i) in idx.iter().enumerate() {
                let (a, b) = key(i);
                if k == 0 || key(idx[k - 1]) != (a, b) {
                    assert!(!pairs_seen.contains(&(a, b)), "{what}: hull pair split");
                    pairs_seen.push((a, b));
                } else {
                    let (before, here) = ((bin(idx[k - 1]), idx[k - 1]), (bin(i), i));
                    assert!(
                        before < here,
                        "{what}: closeness or input order lost in a run"
                    );
                }
                if k == 0 || key(idx[k - 1]).0 != a {
                    assert!(!a_seen.contains(&a), "{what}: A's hull split");
                    a_seen.push(a);
                }
            }
        }
    }

    /// `closeness_bin`'s ends and order: bin 0 within the inner balls (and for
    /// NaN), the last bin from the span on, bins never falling as the centres
    /// part.
    #[test]
    fn closeness_bins_rise_from_the_inner_to_past_the_outer_balls() {
        let (inner, outer) = (1.0f32, 2.0f32);
        let at = |d: f32, span: f32| closeness_bin(d * d, inner, outer, span);
        let last = CLOSENESS_BINS as u8 - 1;
        for span in [1.0, 4.0] {
            assert_eq!(at(0.0, span), 0);
            assert_eq!(at(inner, span), 0);
            assert_eq!(closeness_bin(f32::NAN, inner, outer, span), 0);
            // A negative or −∞ inner radius (gjk-core's hull whose origin is
            // not inside it) is no ball: the scale starts where the centres
            // meet, and half the outer sum squared is half way (bin 8 of 16
            // over span 1, bin 2 over span 4), not below the inner ball.
            for no_ball in [-1.5, f32::NEG_INFINITY] {
                let half_way = closeness_bin(0.5 * outer * outer, no_ball, outer, span);
                let expected = if span == 1.0 { 8 } else { 2 };
                assert_eq!(half_way, expected, "span {span}, inner {no_ball}");
            }
            assert_eq!(at(100.0, span), last);
            assert_eq!(at(f32::INFINITY, span), last);
            let bins: Vec<u8> = (0..=400).map(|k| at(k as f32 * 0.01, span)).collect();
            assert!(
                bins.windows(2).all(|w| w[0] <= w[1]),
                "span {span}: {bins:?}"
            );
            // Span 1 spreads the pairs between the balls over every bin.
            if span == 1.0 {
                assert_eq!(at(outer, span), last);
                assert_eq!(
                    at(0.5 * (inner + outer), span),
                    6,
                    "(1.5² - 1) / 3 of 16 bins"
                );
            }
        }
    }
}
