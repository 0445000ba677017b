//! The pair manager: proxies with user data, fat boxes, a move buffer and the set of
//! overlapping pairs, updated incrementally.
//!
//! # Which boxes are used where
//! - Each proxy has a *tight* box (the one last given by the user) and a *fat* box: the
//!   tight box grown by a margin proportional to its size
//!   ([`BroadphaseConfig::margin`]). Only fat boxes are stored in the tree.
//! - A move whose new tight box still fits in the fat box (and does not leave the fat
//!   box far too large, for shrinking bodies) only records the tight box: the tree and
//!   the pair set are untouched. Otherwise the proxy gets a new fat box, its leaf is
//!   updated, and it joins the *move buffer*.
//! - The pair set is exactly the set of pairs of live proxies whose **fat** boxes
//!   overlap (closed boxes), as of the last [`Broadphase::update`]. So a pair begins
//!   when fat boxes start to overlap and ends only when fat boxes stop overlapping (or a
//!   proxy is removed); the narrowphase filters the pairs whose exact shapes touch.
//!   Every pair whose tight boxes overlap is in the set.
//! - [`Broadphase::query`] and [`Broadphase::ray_cast`] report proxies by their tight
//!   boxes (the tree prunes with fat boxes, the tight box filters).
//!
//! # Determinism
//! The pair set depends only on the fat boxes, which depend only on each proxy's own
//! history of boxes. Reported lists are sorted by `(a.index, b.index)`. Proxy indices
//! are assigned from a LIFO free list, so they depend on the order of `insert` and
//! `remove` calls; nothing depends on the thread count, the tree's shape or the order
//! of moves between two updates.

use std::sync::{Mutex, MutexGuard, PoisonError};

use rayon::prelude::*;

use crate::prefetch::{prefetch, prefetch_all};
use crate::{Aabb, DynamicTree, Error, LeafId, Ray};

/// [`Broadphase::update`] cuts the moved proxies into this many parallel work items
/// per thread, each of at least [`CHUNK_MIN`] and at most [`CHUNK_MAX`] proxies; one
/// thread runs one item. Few large items keep `query_many`'s [`QUERY_GROUP`] queries
/// in flight for longer (each item starts and drains a group) and pay fewer hand-offs,
/// while four per thread still let the thread that starts first (the other one wakes
/// up 50-70 us later) take more of them. About 300 escapes at 100k on 2 threads: 8
/// items of 36 instead of 18 of 16, `update` 0.43-0.46 -> 0.39-0.42 ms (`profile_ops
/// frame`, bench scene, two windows of 3 alternating rounds; 2 per thread 0.41-0.43
/// ms, 3 per thread 0.39-0.48 ms).
/// The results do not depend on the cut (see [`Applier`]).
const CHUNKS_PER_THREAD: usize = 4;
/// The smallest parallel work item of [`Broadphase::update`]: one group of queries.
const CHUNK_MIN: usize = QUERY_GROUP;
/// The largest parallel work item of [`Broadphase::update`], so that large batches are
/// cut finely enough to balance.
const CHUNK_MAX: usize = 256;

/// Queries that [`query_chunk`] runs interleaved through `query_many` (one traversal
/// stack each). 16 rather than 8 since `query_many` prefetches: one thread's `update`
/// 0.52-0.54 -> 0.48-0.49 ms (`profile_ops frame`, bench scene, 3 alternating rounds;
/// two threads within noise, each chunk now one group).
const QUERY_GROUP: usize = 16;

/// A generational handle to a proxy of a [`Broadphase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    /// The slot index: dense, reused after removal (with a new generation).
    pub fn index(self) -> u32 {
        self.index
    }

    /// The generation of the slot when this handle was issued.
    pub fn generation(self) -> u32 {
        self.generation
    }
}

/// An unordered pair of proxies, stored with `a.index() < b.index()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    /// The proxy with the smaller index.
    pub a: ProxyId,
    /// The proxy with the larger index.
    pub b: ProxyId,
}

/// Tuning of a [`Broadphase`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadphaseConfig {
    /// Fat margin per side, as a fraction of the tight box's longest side.
    pub margin_fraction: f32,
    /// Lower clamp of the margin (useful for point-like boxes).
    pub min_margin: f32,
    /// Upper clamp of the margin (keeps huge boxes from getting huger).
    pub max_margin: f32,
    /// [`update`](Broadphase::update) rebuilds the tree (binned SAH) when its area cost
    /// exceeds this multiple of the cost right after the last rebuild.
    pub rebuild_degradation: f64,
    /// Below this many moved proxies, `update` queries on the calling thread only.
    pub parallel_min_moved: usize,
}

impl Default for BroadphaseConfig {
    fn default() -> Self {
        Self {
            margin_fraction: 0.2,
            min_margin: 0.0,
            max_margin: f32::INFINITY,
            rebuild_degradation: 1.4,
            parallel_min_moved: 128,
        }
    }
}

impl BroadphaseConfig {
    /// The fat margin for a tight box.
    #[inline]
    pub fn margin(&self, tight: &Aabb) -> f32 {
        // `max` then `min` rather than `clamp`, which checks its bounds on every call
        // (`check` already rejected `max_margin < min_margin`).
        (self.margin_fraction * tight.size().max_element())
            .max(self.min_margin)
            .min(self.max_margin)
    }

    /// The fat box of a tight box: grown by [`margin`](Self::margin) on every side.
    /// An error if it is not finite (a box within a margin of `f32::MAX`): such a box
    /// is refused by every move that would give it a fat box.
    #[inline]
    pub fn fat_box(&self, tight: &Aabb) -> Result<Aabb, Error> {
        tight.fattened(self.margin(tight))
    }

    fn check(&self) -> Result<(), Error> {
        for v in [self.margin_fraction, self.min_margin] {
            if v.is_nan() {
                return Err(Error::NanCoordinate);
            }
            if v.is_infinite() {
                return Err(Error::InfiniteCoordinate);
            }
            if v < 0.0 {
                return Err(Error::NegativeValue);
            }
        }
        if self.max_margin.is_nan() {
            return Err(Error::NanCoordinate);
        }
        if self.max_margin < self.min_margin {
            return Err(Error::NegativeValue);
        }
        Ok(())
    }
}

/// The pairs that began and ended during one [`Broadphase::update`], each list sorted
/// by `(a.index, b.index)`.
#[derive(Clone, Copy, Debug)]
pub struct PairChanges<'a> {
    /// Pairs whose fat boxes started overlapping.
    pub began: &'a [Pair],
    /// Pairs whose fat boxes stopped overlapping, or one of whose proxies was removed
    /// (such pairs name the removed proxy's now-stale handle).
    pub ended: &'a [Pair],
}

/// Broadphase: tracks the overlapping pairs among a changing set of boxes.
///
/// # Which boxes are used where
/// - Each proxy has a *tight* box (the one last given by the user) and a *fat* box: the
///   tight box grown by a margin proportional to its size
///   ([`BroadphaseConfig::margin`]). Only fat boxes are stored in the tree.
/// - A move whose new tight box still fits in the fat box (and does not leave the fat
///   box far too large, for shrinking bodies) only records the tight box: the tree and
///   the pair set are untouched. Otherwise the proxy gets a new fat box, its leaf is
///   updated, and it joins the *move buffer*.
/// - The pair set is exactly the set of pairs of live proxies whose **fat** boxes
///   overlap (closed boxes), as of the last [`Broadphase::update`]. So a pair begins
///   when fat boxes start to overlap and ends only when fat boxes stop overlapping (or a
///   proxy is removed); the narrowphase filters the pairs whose exact shapes touch.
///   Every pair whose tight boxes overlap is in the set.
/// - [`Broadphase::query`] and [`Broadphase::ray_cast`] report proxies by their tight
///   boxes (the tree prunes with fat boxes, the tight box filters).
///
/// # Determinism
/// The pair set depends only on the fat boxes, which depend only on each proxy's own
/// history of boxes. Reported lists are sorted by `(a.index, b.index)`. Proxy indices
/// are assigned from a LIFO free list, so they depend on the order of `insert` and
/// `remove` calls; nothing depends on the thread count, the tree's shape or the order
/// of moves between two updates.
///
/// # Example
///
/// ```
/// use broadphase::{Aabb, Broadphase};
/// use glam::Vec3;
/// let mut bp = Broadphase::new();
/// let unit = |x: f32| Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)).unwrap();
/// let a = bp.insert(unit(0.0), "a").unwrap();
/// let b = bp.insert(unit(0.5), "b").unwrap();
/// let c = bp.insert(unit(9.0), "c").unwrap();
/// assert_eq!(bp.update().began.len(), 1); // (a, b)
/// bp.move_proxy(c, unit(1.45)).unwrap(); // c now overlaps b (fat boxes)
/// let changes = bp.update();
/// assert_eq!((changes.began[0].a, changes.began[0].b), (b, c));
/// bp.remove(b).unwrap();
/// assert_eq!(bp.update().ended.len(), 2);
/// assert!(bp.remove(b).is_err()); // stale handle
/// # let _ = a;
/// ```
#[derive(Clone, Debug)]
pub struct Broadphase<T> {
    config: BroadphaseConfig,
    tree: DynamicTree,
    /// Everything a move touches, one cache line per proxy.
    hot: Vec<Hot>,
    data: Vec<Option<T>>,
    /// Sorted partner slots of every slot: the current pair set, both directions.
    partners: Vec<Vec<u32>>,
    free: Vec<u32>,
    move_buffer: Vec<u32>,
    removed_pairs: Vec<Pair>,
    began: Vec<Pair>,
    ended: Vec<Pair>,
    pair_count: usize,
    len: usize,
    /// Batch size from which `move_proxies` runs in parallel ([`MOVE_PARALLEL_MIN`];
    /// unit tests lower it to cover that path on small scenes).
    move_parallel_min: usize,
    /// The same for `move_proxies_with` ([`MOVE_WITH_PARALLEL_MIN`]).
    move_with_parallel_min: usize,
}

impl<T> Default for Broadphase<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The per-proxy data a move reads and writes, packed in one 64-byte line: with 10% of
/// 100k proxies moving per frame, moves are bound by cache misses, not arithmetic.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Hot {
    tight: Aabb,
    fat: Aabb,
    leaf: LeafId,
    generation: u32,
    live: bool,
    /// In the move buffer (between updates), or in the batch being merged.
    moved: bool,
}

/// What one chunk of moved proxies produced in the parallel phase of
/// [`Broadphase::update`]: new partner lists, and the pair changes they imply.
struct ChunkResult {
    /// The chunk's moved proxies with their new partner lists (in the allocations of
    /// their old lists).
    lists: Vec<(u32, Vec<u32>)>,
    began: Vec<Pair>,
    ended: Vec<Pair>,
    /// Edits of unmoved proxies' partner lists.
    patches: Vec<Patch>,
}

/// The pair state that [`Broadphase::update`] applies each [`ChunkResult`] to. Results
/// may be applied in any order with the same outcome: a moved proxy's list is replaced
/// by its own result only, each patch inserts or removes a distinct moved proxy in a
/// sorted list (such edits commute), the pair count is a sum and the began and ended
/// lists are sorted afterwards. So the parallel phase applies results as chunks
/// finish, in whatever order, and the pair state does not depend on the thread count.
struct Applier<'a> {
    partners: &'a mut [Vec<u32>],
    began: &'a mut Vec<Pair>,
    ended: &'a mut Vec<Pair>,
    pair_count: &'a mut usize,
}

impl Applier<'_> {
    fn apply(&mut self, r: ChunkResult) {
        for (p, list) in r.lists {
            self.partners[p as usize] = list;
        }
        for patch in &r.patches {
            let list = &mut self.partners[patch.q as usize];
            match (list.binary_search(&patch.p), patch.began) {
                (Err(at), true) => list.insert(at, patch.p),
                (Ok(at), false) => {
                    list.remove(at);
                }
                _ => {}
            }
        }
        *self.pair_count += r.began.len();
        *self.pair_count -= r.ended.len();
        self.began.extend_from_slice(&r.began);
        self.ended.extend_from_slice(&r.ended);
    }
}

/// Add (`began`) or remove moved proxy `p` in the partner list of unmoved proxy `q`.
#[derive(Clone, Copy)]
struct Patch {
    q: u32,
    p: u32,
    began: bool,
}

/// Locks `m`; a panic in another task (which `rayon` passes on anyway) does not make
/// the data unusable here.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The handle of slot `s` (read-only form of [`Broadphase::id`] for the parallel phase).
#[inline]
fn id_of(hot: &[Hot], s: u32) -> ProxyId {
    ProxyId {
        index: s,
        generation: hot[s as usize].generation,
    }
}

/// Queries the tree for the moved proxies `chunk` and compares each new partner list
/// with the old one (`old`, taken out of the pair state, one per proxy of the chunk;
/// their allocations are reused for the new lists). Reads shared state only, so
/// chunks run in parallel; the result is applied by [`Applier`]. A pair of two moved
/// proxies is settled by the smaller one (`moved` marks the batch), so the larger
/// skips it.
fn query_chunk(
    tree: &DynamicTree,
    hot: &[Hot],
    old: &mut [Vec<u32>],
    chunk: &[u32],
) -> ChunkResult {
    let mut stacks: [Vec<u32>; QUERY_GROUP] = std::array::from_fn(|_| Vec::with_capacity(64));
    // Hits as (query, partner), sorted afterwards into one sorted list per query.
    let mut hits: Vec<(u32, u32)> = Vec::with_capacity(chunk.len() * 8);
    tree.query_many(
        chunk.len(),
        |i| hot[chunk[i] as usize].fat,
        &mut stacks,
        &mut |i, q| {
            if q != chunk[i] {
                hits.push((i as u32, q));
            }
        },
    );
    hits.sort_unstable();
    let mut out = ChunkResult {
        lists: Vec::with_capacity(chunk.len()),
        began: Vec::new(),
        ended: Vec::new(),
        patches: Vec::new(),
    };
    let mut rest = &hits[..];
    let mut new: Vec<u32> = Vec::new();
    for (i, (&p, list)) in chunk.iter().zip(old).enumerate() {
        let len = rest.partition_point(|h| h.0 == i as u32);
        new.clear();
        new.extend(rest[..len].iter().map(|h| h.1));
        rest = &rest[len..];
        diff_partners(
            hot,
            p,
            list,
            &new,
            &mut out.began,
            &mut out.ended,
            &mut out.patches,
        );
        let mut list = std::mem::take(list);
        list.clear();
        list.extend_from_slice(&new);
        out.lists.push((p, list));
    }
    out
}

/// The pairs of moved proxy `p` that began (in `new`, not in `old`) and ended (the
/// reverse), both lists sorted, with the edits they imply for unmoved partners.
fn diff_partners(
    hot: &[Hot],
    p: u32,
    old: &[u32],
    new: &[u32],
    began: &mut Vec<Pair>,
    ended: &mut Vec<Pair>,
    patches: &mut Vec<Patch>,
) {
    let (mut i, mut j) = (0, 0);
    // Each step consumes an element of `old` or `new`.
    for _ in 0..old.len() + new.len() {
        let (q, is_new) = match (old.get(i), new.get(j)) {
            (Some(&o), Some(&n)) if o == n => {
                i += 1;
                j += 1;
                continue;
            }
            (Some(&o), Some(&n)) if o < n => {
                i += 1;
                (o, false)
            }
            (Some(&o), None) => {
                i += 1;
                (o, false)
            }
            (_, Some(&n)) => {
                j += 1;
                (n, true)
            }
            (None, None) => break,
        };
        let q_moved = hot[q as usize].moved;
        if q_moved && q < p {
            continue;
        }
        let (a, b) = if p < q { (p, q) } else { (q, p) };
        let pair = Pair {
            a: id_of(hot, a),
            b: id_of(hot, b),
        };
        if is_new {
            began.push(pair);
        } else {
            ended.push(pair);
        }
        if !q_moved {
            patches.push(Patch {
                q,
                p,
                began: is_new,
            });
        }
    }
}

/// How many moves ahead [`move_range`] prefetches the record of a move: enough to
/// keep a dozen misses in flight. It replaced a separate pass that loaded every record
/// first (a safe stand-in for prefetching): `move_proxies` of 10k moves on 100k proxies
/// 0.32 -> 0.29 ms (`profile_ops frame`, one thread; distance 32 about the same).
const PREFETCH_AHEAD: usize = 16;

/// The test of [`Broadphase::move_proxy`] for a proxy whose fat box is `fat` and whose
/// new tight box is `aabb`: `None` if the move stays inside the fat box (only the tight
/// box changes), otherwise the new fat box. The fat box is also renewed when `aabb` is
/// so much smaller that `fat` exceeds the renewed fat box by more than two margins on
/// some axis (otherwise shrinking bodies would keep stale pairs forever).
#[inline(always)]
fn renewed_fat(config: &BroadphaseConfig, fat: &Aabb, aabb: &Aabb) -> Result<Option<Aabb>, Error> {
    let margin = config.margin(aabb);
    let slack = (fat.size() - aabb.size()).max_element();
    if fat.contains(aabb) && slack <= 4.0 * margin {
        return Ok(None);
    }
    aabb.fattened(margin).map(Some)
}

/// [`Broadphase::move_proxies`] splits batches of at least this many moves over the
/// pool. A move costs about 40 ns (mostly a cache miss on its record), so smaller
/// batches gain less than the split costs: 10k moves on 100k proxies took 0.52 ms on two
/// threads against 0.39 ms on one (grouping by range about 45 us, the idle second
/// thread's wake-up about 45 us), while 100k moves on 1M proxies took 5.3 ms against
/// 11.0 ms (profile_ops frame).
const MOVE_PARALLEL_MIN: usize = 32 * 1024;

/// [`Broadphase::move_proxies_with`] splits batches of at least this many moves over
/// the pool: there each move also runs the caller's function (its reads of the
/// caller's data miss the cache as the record does), so the split pays sooner than for
/// ready boxes. Two threads against one (`profile_ops frame`, `BP_MOVE=with`, bench
/// scene, 10% of N moving, two runs each): 2k moves 0.08 against 0.05 ms, 4k moves
/// 0.094 against 0.100-0.103 ms, 8k moves 0.17 against 0.21 ms.
const MOVE_WITH_PARALLEL_MIN: usize = 4 * 1024;

/// [`Broadphase::move_proxies`] aims for this many slot ranges (parallel tasks).
const MOVE_RANGES: usize = 64;
/// ... each at least this many slots, so that tiny scenes do not pay per-task costs.
const MOVE_RANGE_MIN: usize = 1024;

/// A move that left its fat box, to be applied to the tree after the parallel pass.
/// It carries what the tree side needs from the proxy's record, read while the pass
/// had the record in cache: after a parallel pass the record may sit in the other
/// core's cache, and the serial tree side would wait on it again.
struct Escape {
    /// Position in the batch: escapes are applied in batch order.
    k: u32,
    slot: u32,
    leaf: LeafId,
    /// The proxy was not in the move buffer yet (the pass has set its `moved` flag).
    joins_buffer: bool,
    old_fat: Aabb,
    fat: Aabb,
}

/// What the record pass over a slot range (or over all of a batch) produced.
struct RangeResult<E> {
    escapes: Vec<Escape>,
    /// The first failed move of the range: (batch index, error).
    first_err: Option<(usize, E)>,
}

impl<E> RangeResult<E> {
    /// Keeps the error of the earlier move (batch order decides, not the thread count).
    fn fail(&mut self, k: usize, e: E) {
        if self.first_err.as_ref().is_none_or(|f| k < f.0) {
            self.first_err = Some((k, e));
        }
    }
}

/// A batch of moves as the record pass reads it: move `k` names proxy `id(k)` and
/// gets its new tight box from `new_box(k, data)`, `data` being the proxy's entry of
/// the per-slot array that the pass hands out with the records (the user data for
/// [`Broadphase::move_proxies_with`], nothing for [`Broadphase::move_proxies`]).
struct MoveBatch<I, F> {
    len: usize,
    id: I,
    new_box: F,
}

/// Applies the moves `idx` (batch indices, ascending) whose slots lie in `hot` and
/// `data`, which start at slot `base`: exactly [`Broadphase::move_proxy`]'s test and
/// record updates, with the tree work deferred to [`Escape`]s.
fn move_range<D, E, I, F>(
    config: &BroadphaseConfig,
    hot: &mut [Hot],
    data: &mut [D],
    base: usize,
    batch: &MoveBatch<I, F>,
    idx: impl Iterator<Item = u32> + Clone,
) -> RangeResult<E>
where
    E: From<Error>,
    I: Fn(usize) -> ProxyId,
    F: Fn(usize, &mut D) -> Result<Aabb, E>,
{
    let mut out = RangeResult {
        escapes: Vec::new(),
        first_err: None,
    };
    // Moves are bound by cache misses on their records (10k records are 640 KiB,
    // scattered over all proxies): each record is prefetched a few moves ahead, and so
    // is the data the caller's function gets.
    let at = |k: u32| ((batch.id)(k as usize).index as usize).wrapping_sub(base);
    let fetch = |hot: &[Hot], data: &[D], k: u32| {
        let s = at(k);
        if let (Some(h), Some(d)) = (hot.get(s), data.get(s)) {
            prefetch(h);
            if std::mem::size_of::<D>() > 0 {
                prefetch_all(d);
            }
        }
    };
    let mut ahead = idx.clone();
    for k in ahead.by_ref().take(PREFETCH_AHEAD) {
        fetch(hot, data, k);
    }
    for k in idx {
        if let Some(next) = ahead.next() {
            fetch(hot, data, next);
        }
        let id = (batch.id)(k as usize);
        let s = at(k);
        let Some(h) = hot.get_mut(s) else {
            out.fail(k as usize, Error::StaleHandle.into());
            continue;
        };
        if h.generation != id.generation || !h.live {
            out.fail(k as usize, Error::StaleHandle.into());
            continue;
        }
        let aabb = match (batch.new_box)(k as usize, &mut data[s]) {
            Ok(aabb) => aabb,
            Err(e) => {
                out.fail(k as usize, e);
                continue;
            }
        };
        match renewed_fat(config, &h.fat, &aabb) {
            Ok(None) => h.tight = aabb,
            Ok(Some(fat)) => {
                out.escapes.push(Escape {
                    k,
                    slot: id.index,
                    leaf: h.leaf,
                    joins_buffer: !h.moved,
                    old_fat: h.fat,
                    fat,
                });
                h.tight = aabb;
                h.fat = fat;
                h.moved = true;
            }
            Err(e) => out.fail(k as usize, e.into()),
        }
    }
    out
}

/// The record pass of a batch of moves: every move's containment test and record
/// update, in batch order per proxy. With `parallel`, the moves are grouped by slot
/// range (a stable counting sort of batch indices) so that each task owns its ranges
/// of `hot` and `data` exclusively; the range count is fixed by the slot count alone,
/// so the grouping never depends on the threads. The escapes come back in batch order.
fn record_pass<D, E, I, F>(
    config: &BroadphaseConfig,
    hot: &mut [Hot],
    data: &mut [D],
    batch: &MoveBatch<I, F>,
    parallel: bool,
) -> RangeResult<E>
where
    D: Send,
    E: From<Error> + Send,
    I: Fn(usize) -> ProxyId + Sync,
    F: Fn(usize, &mut D) -> Result<Aabb, E> + Sync,
{
    let Ok(count) = u32::try_from(batch.len) else {
        return RangeResult {
            escapes: Vec::new(),
            first_err: Some((0, Error::CapacityExceeded.into())),
        };
    };
    if !parallel {
        // One range holding every slot, in batch order: the same tests, records and
        // escapes as the parallel path.
        return move_range(config, hot, data, 0, batch, 0..count);
    }
    // Ranges of a power-of-two size, so that a slot's range is a shift away.
    let slots = hot.len();
    let range = slots
        .div_ceil(MOVE_RANGES)
        .max(MOVE_RANGE_MIN)
        .next_power_of_two();
    let shift = range.trailing_zeros();
    let ranges = slots.div_ceil(range);
    let mut out = RangeResult {
        escapes: Vec::new(),
        first_err: None,
    };
    // Each move's range (or `ranges`, for a slot out of bounds: a stale handle).
    let mut starts = vec![0u32; ranges + 2];
    let keys: Vec<u32> = (0..batch.len)
        .map(|k| {
            let r = (((batch.id)(k).index as usize) >> shift).min(ranges);
            starts[r + 1] += 1;
            r as u32
        })
        .collect();
    for r in 0..=ranges {
        starts[r + 1] += starts[r];
    }
    let mut fill = starts.clone();
    let mut order = vec![0u32; batch.len];
    for (k, &r) in keys.iter().enumerate() {
        let f = &mut fill[r as usize];
        order[*f as usize] = k as u32;
        *f += 1;
    }
    if let Some(&k) = order.get(starts[ranges] as usize) {
        out.fail(k as usize, Error::StaleHandle.into());
    }
    let results: Vec<RangeResult<E>> = hot
        .par_chunks_mut(range)
        .zip(data.par_chunks_mut(range))
        .enumerate()
        .with_max_len(1)
        .map(|(r, (hot, data))| {
            let idx = &order[starts[r] as usize..starts[r + 1] as usize];
            move_range(config, hot, data, r * range, batch, idx.iter().copied())
        })
        .collect();
    for res in results {
        if let Some((k, e)) = res.first_err {
            out.fail(k, e);
        }
        out.escapes.extend(res.escapes);
    }
    out.escapes.sort_unstable_by_key(|e| e.k);
    out
}

impl<T> Broadphase<T> {
    /// An empty broadphase with the default configuration.
    pub fn new() -> Self {
        Self::with_config(BroadphaseConfig::default()).expect("default config is valid")
    }

    /// An empty broadphase; fails if a margin setting is NaN, infinite or negative.
    pub fn with_config(config: BroadphaseConfig) -> Result<Self, Error> {
        config.check()?;
        Ok(Self {
            config,
            tree: DynamicTree::new(),
            hot: Vec::new(),
            data: Vec::new(),
            partners: Vec::new(),
            free: Vec::new(),
            move_buffer: Vec::new(),
            removed_pairs: Vec::new(),
            began: Vec::new(),
            ended: Vec::new(),
            pair_count: 0,
            len: 0,
            move_parallel_min: MOVE_PARALLEL_MIN,
            move_with_parallel_min: MOVE_WITH_PARALLEL_MIN,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &BroadphaseConfig {
        &self.config
    }

    /// Number of live proxies.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no live proxies.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of pairs in the current pair set.
    pub fn pair_count(&self) -> usize {
        self.pair_count
    }

    /// The tree of fat boxes (payload = proxy index), for inspection.
    pub fn tree(&self) -> &DynamicTree {
        &self.tree
    }

    fn slot(&self, id: ProxyId) -> Result<usize, Error> {
        let s = id.index as usize;
        if s < self.hot.len() && self.hot[s].generation == id.generation && self.hot[s].live {
            Ok(s)
        } else {
            Err(Error::StaleHandle)
        }
    }

    fn id(&self, s: u32) -> ProxyId {
        ProxyId {
            index: s,
            generation: self.hot[s as usize].generation,
        }
    }

    fn pair(&self, p: u32, q: u32) -> Pair {
        let (a, b) = if p < q { (p, q) } else { (q, p) };
        Pair {
            a: self.id(a),
            b: self.id(b),
        }
    }

    /// Whether the handle names a live proxy.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.slot(id).is_ok()
    }

    /// The user data of a proxy.
    pub fn data(&self, id: ProxyId) -> Result<&T, Error> {
        let s = self.slot(id)?;
        Ok(self.data[s].as_ref().expect("live slot has data"))
    }

    /// The user data of a proxy, mutably.
    pub fn data_mut(&mut self, id: ProxyId) -> Result<&mut T, Error> {
        let s = self.slot(id)?;
        Ok(self.data[s].as_mut().expect("live slot has data"))
    }

    /// The tight box last given for a proxy.
    pub fn aabb(&self, id: ProxyId) -> Result<Aabb, Error> {
        Ok(self.hot[self.slot(id)?].tight)
    }

    /// The fat box of a proxy (the one stored in the tree and used for pairs).
    pub fn fat_aabb(&self, id: ProxyId) -> Result<Aabb, Error> {
        Ok(self.hot[self.slot(id)?].fat)
    }

    fn alloc_slot(&mut self, tight: Aabb, fat: Aabb, data: T) -> Result<u32, Error> {
        let s = match self.free.pop() {
            Some(s) => s,
            None => {
                let s = self.hot.len();
                if s >= (u32::MAX - 1) as usize {
                    return Err(Error::CapacityExceeded);
                }
                self.hot.push(Hot {
                    tight,
                    fat,
                    leaf: LeafId::default(),
                    generation: 0,
                    live: false,
                    moved: false,
                });
                self.data.push(None);
                self.partners.push(Vec::new());
                s as u32
            }
        };
        let i = s as usize;
        self.data[i] = Some(data);
        self.hot[i].live = true;
        self.hot[i].tight = tight;
        self.hot[i].fat = fat;
        self.len += 1;
        self.mark_moved(s);
        Ok(s)
    }

    fn mark_moved(&mut self, s: u32) {
        if !self.hot[s as usize].moved {
            self.hot[s as usize].moved = true;
            self.move_buffer.push(s);
        }
    }

    /// Adds a proxy. Its pairs appear at the next [`update`](Self::update).
    pub fn insert(&mut self, aabb: Aabb, data: T) -> Result<ProxyId, Error> {
        let fat = self.config.fat_box(&aabb)?;
        let s = self.alloc_slot(aabb, fat, data)?;
        self.hot[s as usize].leaf = self.tree.insert(fat, s);
        Ok(self.id(s))
    }

    /// Adds many proxies at once: boxes are validated first (on error nothing is
    /// inserted), then, if the batch is large compared with the tree, the whole tree is
    /// rebuilt with the binned SAH builder instead of inserting leaf by leaf.
    pub fn insert_many(
        &mut self,
        items: impl IntoIterator<Item = (Aabb, T)>,
    ) -> Result<Vec<ProxyId>, Error> {
        let items: Vec<(Aabb, T)> = items.into_iter().collect();
        let mut fats = Vec::with_capacity(items.len());
        for (aabb, _) in &items {
            fats.push(self.config.fat_box(aabb)?);
        }
        if self.hot.len() - self.free.len() + items.len() >= (u32::MAX - 1) as usize {
            return Err(Error::CapacityExceeded);
        }
        let bulk = items.len() >= 64 && items.len() * 4 >= self.tree.len();
        if !bulk {
            let mut ids = Vec::with_capacity(items.len());
            for ((aabb, data), fat) in items.into_iter().zip(fats) {
                let s = self.alloc_slot(aabb, fat, data)?;
                self.hot[s as usize].leaf = self.tree.insert(fat, s);
                ids.push(self.id(s));
            }
            return Ok(ids);
        }
        // Bulk: slots from `alloc_slot` as above (free list first, LIFO), the records
        // grown once, and the new leaves handed straight to the tree builder.
        let fresh = items.len().saturating_sub(self.free.len());
        self.hot.reserve(fresh);
        self.data.reserve(fresh);
        self.partners.reserve(fresh);
        self.move_buffer.reserve(items.len());
        let mut slots = Vec::with_capacity(items.len());
        for ((aabb, data), fat) in items.into_iter().zip(fats) {
            // Cannot fail: the capacity was checked above.
            let s = self.alloc_slot(aabb, fat, data)?;
            slots.push((fat, s));
        }
        let leaves = self.tree.insert_bulk(&slots);
        let mut ids = Vec::with_capacity(slots.len());
        for (&(_, s), leaf) in slots.iter().zip(leaves) {
            self.hot[s as usize].leaf = leaf;
            ids.push(self.id(s));
        }
        Ok(ids)
    }

    /// Removes a proxy and returns its data. Its pairs are reported as ended by the next
    /// [`update`](Self::update), under this (now stale) handle.
    pub fn remove(&mut self, id: ProxyId) -> Result<T, Error> {
        let s = self.slot(id)?;
        self.tree.remove(self.hot[s].leaf)?;
        let partners = std::mem::take(&mut self.partners[s]);
        for &q in &partners {
            let list = &mut self.partners[q as usize];
            if let Ok(k) = list.binary_search(&(s as u32)) {
                list.remove(k);
            }
            let pair = self.pair(s as u32, q);
            self.removed_pairs.push(pair);
        }
        self.pair_count -= partners.len();
        // Hand the emptied allocation back for the slot's next tenant.
        let mut partners = partners;
        partners.clear();
        self.partners[s] = partners;
        let data = self.data[s].take().expect("live slot has data");
        self.hot[s].generation = self.hot[s].generation.wrapping_add(1);
        self.hot[s].moved = false;
        self.hot[s].live = false;
        self.free.push(s as u32);
        self.len -= 1;
        Ok(data)
    }

    /// Gives a proxy a new tight box. Returns whether the proxy left its fat box (and so
    /// touched the tree and joined the move buffer).
    ///
    /// The fat box is renewed when the new box is not inside it, or when the new box is
    /// so much smaller that the fat box exceeds the renewed one by more than two margins
    /// on some axis (otherwise shrinking bodies would keep stale pairs forever).
    pub fn move_proxy(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, Error> {
        let s = self.slot(id)?;
        let old_fat = self.hot[s].fat;
        let Some(fat) = renewed_fat(&self.config, &old_fat, &aabb)? else {
            self.hot[s].tight = aabb;
            return Ok(false);
        };
        // A body that escaped by a small step keeps its place in the tree and only grows
        // its ancestors; one that jumped elsewhere is reinserted where it now belongs.
        // The degradation check in `update` rebuilds when the growth adds up.
        if fat.overlaps(&old_fat) {
            self.tree.enlarge(self.hot[s].leaf, fat)?;
        } else {
            self.tree.reinsert(self.hot[s].leaf, fat)?;
        }
        self.hot[s].tight = aabb;
        self.hot[s].fat = fat;
        self.mark_moved(s as u32);
        Ok(true)
    }

    /// Moves many proxies at once: the same result as calling
    /// [`move_proxy`](Self::move_proxy) for each element in order (same fat boxes, same
    /// pairs at the next update), but the containment tests run in parallel on the
    /// current rayon pool. Returns how many moves left their fat boxes.
    ///
    /// A frame of a large scene moves many proxies and almost all stay inside their fat
    /// boxes; each such move costs a cache miss on the proxy's record and nothing else.
    /// A large batch (32k moves or more) spreads those misses over the pool's threads
    /// (moves are grouped by slot range, so each thread owns a disjoint part of the
    /// proxy records; smaller batches gain less than the split costs); only the
    /// few escapes touch the tree, serially and in batch order, so the tree and the
    /// pairs do not depend on the thread count (the ancestor walks of consecutive small
    /// escapes are interleaved, which leaves the same boxes; only the rounding of
    /// [`DynamicTree::area_cost`] may differ from single moves). A proxy may appear
    /// more than once: its moves apply in batch order.
    ///
    /// Moves naming a stale handle are skipped and the others still applied, then
    /// [`Error::StaleHandle`] is returned (deterministically, whatever the thread
    /// count); likewise a move whose fat box would not be finite is skipped and reported
    /// as [`Error::InfiniteCoordinate`] (the first error in batch order wins).
    pub fn move_proxies(&mut self, moves: &[(ProxyId, Aabb)]) -> Result<usize, Error> {
        let parallel = rayon::current_num_threads() > 1
            && moves.len() >= self.config.parallel_min_moved
            && moves.len() >= self.move_parallel_min;
        let batch = MoveBatch {
            len: moves.len(),
            id: |k: usize| moves[k].0,
            new_box: |k: usize, _: &mut ()| Ok(moves[k].1),
        };
        // The pass hands every move an entry of a per-slot array; these moves need
        // none, and a vector of `()` allocates nothing.
        let mut nothing = vec![(); self.hot.len()];
        let res = record_pass(&self.config, &mut self.hot, &mut nothing, &batch, parallel);
        self.finish_moves(res)
    }

    /// Moves many proxies whose new boxes the caller's function `new_box` computes:
    /// the same as calling [`move_proxy`](Self::move_proxy) for each `ids[k]` in order
    /// with the box `new_box(k, data)`, where `data` is that proxy's user data, which
    /// the function may also update (for example to store the pose the box came from).
    /// Returns how many moves left their fat boxes.
    ///
    /// Unlike [`move_proxies`](Self::move_proxies), the boxes are made inside the
    /// broadphase's pass over the records, in parallel on the current rayon pool when
    /// it has several threads and the batch has 4096 moves or more (and at least
    /// [`BroadphaseConfig::parallel_min_moved`]): each proxy's test and the caller's work for it run on the
    /// same thread while its record is in cache, and neither waits for a serial loop
    /// that builds a vector of boxes first. `new_box` runs exactly once for each move
    /// whose handle is live, in batch order for a repeated proxy; moves of distinct
    /// proxies may run in any order and on any thread, so it should not depend on
    /// that order. The tree and the pairs do not depend on the thread count.
    ///
    /// A move naming a stale handle is skipped (`new_box` does not run); a move whose
    /// `new_box` fails, or whose fat box would not be finite, changes neither the box
    /// nor the record (but keeps whatever `new_box` wrote to the data). The other moves
    /// are applied, then the first error in batch order is returned. A panic in
    /// `new_box` reaches the caller with some of the batch's moves recorded but not
    /// yet in the tree: the broadphase should then be dropped, not used.
    ///
    /// ```
    /// use broadphase::{Aabb, Broadphase, Error};
    /// use glam::Vec3;
    /// let unit = |c: Vec3| Aabb::from_center_half_extents(c, Vec3::splat(0.5));
    /// let mut bp: Broadphase<Vec3> = Broadphase::new();
    /// let centres = [Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0)];
    /// let ids: Vec<_> = centres.iter().map(|&c| bp.insert(unit(c)?, c)).collect::<Result<_, _>>()?;
    /// bp.update();
    /// // Each body steps towards the other; its centre lives in the user data.
    /// let steps = [Vec3::new(0.8, 0.0, 0.0), Vec3::new(-0.8, 0.0, 0.0)];
    /// let escaped = bp.move_proxies_with(&ids, |k, centre: &mut Vec3| {
    ///     *centre += steps[k];
    ///     unit(*centre)
    /// })?;
    /// assert_eq!(escaped, 2);
    /// assert_eq!(bp.update().began.len(), 1);
    /// assert_eq!(*bp.data(ids[1])?, Vec3::new(2.2, 0.0, 0.0));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn move_proxies_with<E, F>(&mut self, ids: &[ProxyId], new_box: F) -> Result<usize, E>
    where
        T: Send,
        E: From<Error> + Send,
        F: Fn(usize, &mut T) -> Result<Aabb, E> + Sync,
    {
        let parallel = rayon::current_num_threads() > 1
            && ids.len() >= self.config.parallel_min_moved
            && ids.len() >= self.move_with_parallel_min;
        let batch = MoveBatch {
            len: ids.len(),
            id: |k: usize| ids[k],
            // The pass only calls this for a live slot, whose data is always there.
            new_box: |k: usize, data: &mut Option<T>| match data {
                Some(data) => new_box(k, data),
                None => Err(Error::StaleHandle.into()),
            },
        };
        let res = record_pass(
            &self.config,
            &mut self.hot,
            &mut self.data,
            &batch,
            parallel,
        );
        self.finish_moves(res)
    }

    /// Applies the escapes of a record pass to the tree, then reports the pass's first
    /// error, or else the escape count.
    fn finish_moves<E: From<Error>>(&mut self, res: RangeResult<E>) -> Result<usize, E> {
        let applied = self.apply_escapes(&res.escapes);
        match (res.first_err, applied) {
            (Some((_, e)), _) => Err(e),
            (None, Err(e)) => Err(e.into()),
            (None, Ok(())) => Ok(res.escapes.len()),
        }
    }

    /// The tree side of escaped moves, in batch order: a body that escaped by a small
    /// step keeps its place in the tree and only grows its ancestors (runs of those are
    /// applied together, their ancestor walks interleaved); one that jumped elsewhere is
    /// reinserted where it now belongs. The degradation check in `update` rebuilds when
    /// the growth adds up.
    fn apply_escapes(&mut self, escapes: &[Escape]) -> Result<(), Error> {
        // The pass has set these proxies' `moved` flags: they join the buffer before
        // any tree step can fail, or a flag would stay set with no entry to clear it.
        let joining = escapes.iter().filter(|e| e.joins_buffer).map(|e| e.slot);
        self.move_buffer.extend(joining);
        let mut grow: Vec<(LeafId, Aabb)> = Vec::with_capacity(escapes.len());
        for e in escapes {
            if e.fat.overlaps(&e.old_fat) {
                grow.push((e.leaf, e.fat));
            } else {
                self.tree.enlarge_many(&grow)?;
                grow.clear();
                self.tree.reinsert(e.leaf, e.fat)?;
            }
        }
        self.tree.enlarge_many(&grow)
    }

    /// Rebuilds the tree with the binned SAH builder (pairs are unaffected).
    pub fn rebuild_tree(&mut self) {
        self.tree.rebuild();
    }

    /// Brings the pair set up to date and returns the pairs that began and ended since
    /// the previous update.
    ///
    /// Only proxies in the move buffer (inserted or escaped from their fat boxes) query
    /// the tree, in parallel on the current rayon pool when it has more than one thread
    /// and there are at least [`BroadphaseConfig::parallel_min_moved`] of them; the same
    /// tasks compare each new partner list with the old one. Each task's result is
    /// applied to the pair state as soon as no other result is being applied, while
    /// other tasks still query. Applying results commutes (each moved proxy's list is
    /// replaced by its own result, each edit of another list inserts or removes a
    /// distinct moved proxy, and the reported lists are sorted), so the result does not
    /// depend on the order nor on the thread count.
    pub fn update(&mut self) -> PairChanges<'_> {
        self.began.clear();
        self.ended.clear();
        self.ended.append(&mut self.removed_pairs);
        if self.tree.degradation() > self.config.rebuild_degradation {
            self.tree.rebuild();
        }
        let mut moves = std::mem::take(&mut self.move_buffer);
        moves.retain(|&s| self.hot[s as usize].moved);
        moves.sort_unstable();
        moves.dedup();

        let parallel =
            moves.len() >= self.config.parallel_min_moved && rayon::current_num_threads() > 1;
        // The moved proxies' old lists leave the pair state, so that the query tasks own
        // them while the results of finished chunks are applied to the pair state.
        let mut old: Vec<Vec<u32>> = moves
            .iter()
            .map(|&p| std::mem::take(&mut self.partners[p as usize]))
            .collect();
        let (tree, hot) = (&self.tree, &self.hot[..]);
        let mut applier = Applier {
            partners: &mut self.partners,
            began: &mut self.began,
            ended: &mut self.ended,
            pair_count: &mut self.pair_count,
        };
        if parallel {
            // Each task applies its result, and any queued ones, if no other task is
            // applying; otherwise it queues it. The list edits, a tenth of `update` on
            // one thread, so run alongside the other thread's queries instead of after
            // them. Results left queued when the last tasks end are applied below.
            let applier = Mutex::new(applier);
            let queue: Mutex<Vec<ChunkResult>> = Mutex::new(Vec::new());
            let chunk = moves
                .len()
                .div_ceil(CHUNKS_PER_THREAD * rayon::current_num_threads())
                .clamp(CHUNK_MIN, CHUNK_MAX);
            moves
                .par_chunks(chunk)
                .zip(old.par_chunks_mut(chunk))
                .for_each(|(chunk, old)| {
                    let r = query_chunk(tree, hot, old, chunk);
                    let Ok(mut a) = applier.try_lock() else {
                        lock(&queue).push(r);
                        return;
                    };
                    a.apply(r);
                    loop {
                        let queued = std::mem::take(&mut *lock(&queue));
                        if queued.is_empty() {
                            break;
                        }
                        queued.into_iter().for_each(|r| a.apply(r));
                    }
                });
            let mut a = applier.into_inner().unwrap_or_else(PoisonError::into_inner);
            let queued = queue.into_inner().unwrap_or_else(PoisonError::into_inner);
            queued.into_iter().for_each(|r| a.apply(r));
        } else {
            applier.apply(query_chunk(tree, hot, &mut old, &moves));
        }
        for &s in &moves {
            self.hot[s as usize].moved = false;
        }
        moves.clear();
        self.move_buffer = moves;
        // Results were applied in whatever order the tasks finished, so the key is a
        // total order on pairs (generations break ties of indices, which a removed
        // proxy and its slot's next tenant share): the lists do not depend on that
        // order even if two entries ever shared their indices.
        let key = |p: &Pair| (p.a.index, p.b.index, p.a.generation, p.b.generation);
        self.began.sort_unstable_by_key(key);
        self.ended.sort_unstable_by_key(key);
        PairChanges {
            began: &self.began,
            ended: &self.ended,
        }
    }

    /// The current pair set (as of the last update), sorted by `(a.index, b.index)`.
    pub fn pairs(&self) -> impl Iterator<Item = Pair> + '_ {
        self.partners.iter().enumerate().flat_map(move |(p, list)| {
            let start = list.partition_point(|&q| q <= p as u32);
            list[start..].iter().map(move |&q| self.pair(p as u32, q))
        })
    }

    /// The pairs of the proxy's current partners (as of the last update).
    pub fn partners(&self, id: ProxyId) -> Result<impl Iterator<Item = ProxyId> + '_, Error> {
        let s = self.slot(id)?;
        Ok(self.partners[s].iter().map(move |&q| self.id(q)))
    }

    /// All pairs of live proxies whose *current* fat boxes overlap, recomputed from
    /// scratch by traversing the tree against itself (no pair state is read or
    /// written), sorted like [`pairs`](Self::pairs). Equal to `pairs()` right after an
    /// `update`.
    pub fn pairs_from_scratch(&self) -> Vec<Pair> {
        let mut out: Vec<Pair> = self
            .tree
            .overlapping_pairs()
            .into_iter()
            .map(|(p, q)| self.pair(p, q))
            .collect();
        out.sort_unstable_by_key(|p| (p.a.index, p.b.index));
        out
    }

    /// Calls `f` for every proxy whose tight box overlaps `aabb`.
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(ProxyId)) {
        self.tree.query(aabb, |s| {
            if self.hot[s as usize].tight.overlaps(aabb) {
                f(self.id(s));
            }
        });
    }

    /// Casts a ray against the tight boxes: `f(proxy, t_enter)` returns the new maximum
    /// distance, as in [`DynamicTree::ray_cast`].
    pub fn ray_cast(&self, ray: &Ray, max_t: f32, mut f: impl FnMut(ProxyId, f32) -> f32) {
        let mut current = max_t;
        self.tree.ray_cast(ray, max_t, |s, _| {
            if let Some(t) = ray.intersect_aabb(&self.hot[s as usize].tight, current) {
                current = f(self.id(s), t).min(current);
            }
            current
        });
    }

    /// Checks the tree's invariants and the pair bookkeeping (symmetric sorted partner
    /// lists, pair count, leaf payloads and boxes, fat boxes containing tight ones).
    /// For tests.
    pub fn validate(&self) -> Result<(), String> {
        self.tree.validate()?;
        if self.tree.len() != self.len {
            return Err(format!(
                "tree has {} leaves, {} proxies",
                self.tree.len(),
                self.len
            ));
        }
        let mut half = 0usize;
        for (p, list) in self.partners.iter().enumerate() {
            let live = self.data[p].is_some();
            if live != self.hot[p].live {
                return Err(format!("slot {p}: liveness out of sync"));
            }
            if !live {
                if !list.is_empty() {
                    return Err(format!("dead slot {p} has partners"));
                }
                continue;
            }
            if self.tree.payload(self.hot[p].leaf) != Ok(p as u32)
                || self.tree.aabb(self.hot[p].leaf) != Ok(self.hot[p].fat)
            {
                return Err(format!("slot {p}: leaf out of sync"));
            }
            if !self.hot[p].fat.contains(&self.hot[p].tight) {
                return Err(format!("slot {p}: fat box does not contain tight box"));
            }
            if list.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("slot {p}: partner list not sorted"));
            }
            for &q in list {
                if q as usize == p || self.data[q as usize].is_none() {
                    return Err(format!("slot {p}: bad partner {q}"));
                }
                if self.partners[q as usize]
                    .binary_search(&(p as u32))
                    .is_err()
                {
                    return Err(format!("pair ({p}, {q}) not symmetric"));
                }
            }
            half += list.len();
        }
        if half != 2 * self.pair_count {
            return Err(format!(
                "pair count {} but {} list entries",
                self.pair_count, half
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::test_support::{pool, random_move};

    /// The half extents of the tests' boxes.
    const HALF: std::ops::Range<f32> = 0.25..0.75;

    fn random_box(rng: &mut ChaCha8Rng, side: f32) -> Aabb {
        crate::test_support::random_box(rng, side, HALF)
    }

    /// A seeded scene of the batch-move tests.
    struct Scene {
        bp: Broadphase<u32>,
        boxes: Vec<Aabb>,
        ids: Vec<ProxyId>,
        /// The side of the boxes' cube (about two overlaps a box).
        side: f32,
    }

    /// 3000 random boxes in a broadphase (each proxy's data is its index), updated,
    /// with proxy `stale` then removed and updated again.
    fn scene(rng: &mut ChaCha8Rng, stale: usize) -> Scene {
        let n = 3000;
        let side = (4.0 * n as f32).cbrt();
        let boxes: Vec<Aabb> = (0..n).map(|_| random_box(rng, side)).collect();
        let mut bp = Broadphase::new();
        let ids = bp
            .insert_many(boxes.iter().enumerate().map(|(i, b)| (*b, i as u32)))
            .unwrap();
        bp.update();
        bp.remove(ids[stale]).unwrap();
        bp.update();
        Scene {
            bp,
            boxes,
            ids,
            side,
        }
    }

    /// The parallel record pass of `move_proxies` and the parallel list edits of
    /// `update` (forced on small batches) give the same results as the serial paths:
    /// return values, began and ended pairs, pair sets and fat boxes, on 2 and 3
    /// threads, with repeated proxies, stale handles, jumps and small steps.
    #[test]
    fn parallel_paths_equal_serial_paths() {
        for seed in [31u64, 32, 33] {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let Scene {
                bp: mut serial,
                boxes,
                ids,
                side,
            } = scene(&mut rng, 5);
            let n = boxes.len();
            let stale = ids[5];
            let mut forced = serial.clone();
            forced.move_parallel_min = 0;
            forced.config.parallel_min_moved = 1;
            let mut parallel = [forced.clone(), forced];
            let pools = [pool(2), pool(3)];
            let mut current = boxes.clone();
            for frame in 0..10 {
                let mut batch: Vec<(ProxyId, Aabb)> = Vec::new();
                for _ in 0..rng.random_range(50..1200) {
                    let k = rng.random_range(0..n);
                    let b = random_move(&mut rng, &current[k], side, HALF);
                    if k != 5 {
                        current[k] = b;
                    }
                    batch.push((ids[k], b));
                }
                if frame % 3 == 1 {
                    let (id, b) = batch[0];
                    batch.push((id, b));
                    batch.push((stale, boxes[0]));
                }
                let want = serial.move_proxies(&batch);
                let want_changes = {
                    let c = serial.update();
                    (c.began.to_vec(), c.ended.to_vec())
                };
                let want_pairs: Vec<Pair> = serial.pairs().collect();
                for (bp, pool) in parallel.iter_mut().zip(&pools) {
                    let t = pool.current_num_threads();
                    let got = pool.install(|| bp.move_proxies(&batch));
                    assert_eq!(got, want, "seed {seed} frame {frame} threads {t}");
                    let changes = pool.install(|| {
                        let c = bp.update();
                        (c.began.to_vec(), c.ended.to_vec())
                    });
                    assert_eq!(
                        changes, want_changes,
                        "seed {seed} frame {frame} threads {t}"
                    );
                    let pairs: Vec<Pair> = bp.pairs().collect();
                    assert_eq!(pairs, want_pairs, "seed {seed} frame {frame} threads {t}");
                    for &id in &ids {
                        assert_eq!(bp.fat_aabb(id), serial.fat_aabb(id), "seed {seed}");
                    }
                    bp.validate()
                        .unwrap_or_else(|e| panic!("seed {seed} frame {frame} threads {t}: {e}"));
                }
            }
        }
    }

    /// An empty batch moves nothing, on the serial and the parallel paths alike.
    #[test]
    fn empty_batches_move_nothing() {
        let mut bp: Broadphase<u32> = Broadphase::new();
        bp.insert(random_box(&mut ChaCha8Rng::seed_from_u64(1), 4.0), 0)
            .unwrap();
        bp.update();
        bp.move_parallel_min = 0;
        bp.move_with_parallel_min = 0;
        bp.config.parallel_min_moved = 0;
        for threads in [1, 2] {
            pool(threads).install(|| {
                assert_eq!(bp.move_proxies(&[]), Ok(0), "threads {threads}");
                let called =
                    |_: usize, _: &mut u32| -> Result<Aabb, Error> { panic!("no move, no call") };
                assert_eq!(
                    bp.move_proxies_with(&[], called),
                    Ok(0),
                    "threads {threads}"
                );
                let c = bp.update();
                assert!(
                    c.began.is_empty() && c.ended.is_empty(),
                    "threads {threads}"
                );
            });
        }
        bp.validate().unwrap();
    }

    /// Every pair of the live proxies among `ids` whose fat boxes overlap, tested pair
    /// by pair, in the broadphase's order.
    fn brute_force_pairs(bp: &Broadphase<u32>, ids: &[ProxyId]) -> Vec<Pair> {
        let live: Vec<(ProxyId, Aabb)> = ids
            .iter()
            .filter_map(|&id| Some((id, bp.fat_aabb(id).ok()?)))
            .collect();
        let mut pairs = Vec::new();
        for (i, &(p, a)) in live.iter().enumerate() {
            for &(q, b) in &live[i + 1..] {
                if a.overlaps(&b) {
                    let (a, b) = if p.index() < q.index() {
                        (p, q)
                    } else {
                        (q, p)
                    };
                    pairs.push(Pair { a, b });
                }
            }
        }
        pairs.sort_unstable_by_key(|p| (p.a.index(), p.b.index()));
        pairs
    }

    /// What `move_proxies_with` must do, one `move_proxy` at a time: the function runs
    /// for live handles only, and a move whose function fails is skipped.
    fn moves_one_by_one(
        bp: &mut Broadphase<u32>,
        ids: &[ProxyId],
        new_box: impl Fn(usize, &mut u32) -> Result<Aabb, Error>,
    ) -> Result<usize, Error> {
        let mut escapes = 0;
        let mut first = None;
        for (k, &id) in ids.iter().enumerate() {
            let moved = bp
                .data_mut(id)
                .and_then(|data| new_box(k, data))
                .and_then(|b| bp.move_proxy(id, b));
            match moved {
                Ok(e) => escapes += usize::from(e),
                Err(e) => {
                    first.get_or_insert(e);
                }
            }
        }
        first.map_or(Ok(escapes), Err)
    }

    /// `move_proxies_with`, serially and through its parallel pass (forced on small
    /// batches, 2 and 3 threads), equals `move_proxy` called move by move: return
    /// values (first error in batch order), the data the function updates, fat and
    /// tight boxes, pair changes and pair sets (the reference's checked against every
    /// pair of fat boxes); batches include repeated proxies, stale handles, a handle
    /// beyond every slot, failing functions, boxes whose fat boxes overflow, proxies
    /// inserted since the last update, jumps and small steps.
    #[test]
    fn move_proxies_with_equals_moves_one_by_one() {
        for seed in [41u64, 42] {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let Scene {
                bp: mut single,
                boxes,
                ids,
                side,
            } = scene(&mut rng, 7);
            let n = boxes.len();
            let stale = ids[7];
            let mut forced = single.clone();
            forced.move_with_parallel_min = 0;
            forced.config.parallel_min_moved = 1;
            // On the calling thread (the serial pass), then on pools of 2 and 3 threads.
            let mut batched = [single.clone(), forced.clone(), forced];
            let pools = [pool(1), pool(2), pool(3)];
            // A handle whose slot lies beyond every slot these broadphases will have
            // (they grow by 5 slots every third frame).
            let foreign = {
                let mut big: Broadphase<u32> = Broadphase::new();
                let far = boxes.iter().chain(&boxes[..100]).map(|b| (*b, 0));
                *big.insert_many(far).unwrap().last().unwrap()
            };
            // A box whose fat box overflows f32: 3.3e38 plus a margin of 2.6e37.
            let overflow = Aabb::new(glam::Vec3::splat(2.0e38), glam::Vec3::splat(3.3e38)).unwrap();
            let mut live = ids.clone();
            let mut current = boxes.clone();
            for frame in 0..8 {
                let mut batch: Vec<(ProxyId, Aabb)> = Vec::new();
                for _ in 0..rng.random_range(50..1200) {
                    let k = rng.random_range(0..n);
                    let b = random_move(&mut rng, &current[k], side, HALF);
                    current[k] = b;
                    batch.push((ids[k], b));
                }
                if frame % 2 == 1 {
                    batch.push(batch[0]);
                    batch.insert(batch.len() / 2, (stale, boxes[0]));
                    // First in half the frames, so that its error is the one returned.
                    let at = if frame % 4 == 1 { 0 } else { batch.len() / 3 };
                    batch.insert(at, (foreign, boxes[0]));
                }
                if frame % 3 == 2 {
                    // Proxies inserted since the last update (already in the move
                    // buffer) move in the batch too, one of them twice.
                    for i in 0..5 {
                        let b = random_box(&mut rng, side);
                        let id = single.insert(b, 0).unwrap();
                        for bp in &mut batched {
                            assert_eq!(bp.insert(b, 0), Ok(id), "seed {seed} frame {frame}");
                        }
                        let moved = random_move(&mut rng, &b, side, HALF);
                        batch.insert(batch.len() * i / 5, (id, moved));
                        live.push(id);
                    }
                    batch.push(batch[batch.len() / 5]);
                }
                let handles: Vec<ProxyId> = batch.iter().map(|m| m.0).collect();
                // Counts the calls per proxy; every 97th move fails, every 89th asks
                // for a box whose fat box overflows.
                let new_box = |k: usize, calls: &mut u32| {
                    *calls += 1;
                    if k % 97 == 13 {
                        Err(Error::NegativeValue)
                    } else if k % 89 == 7 {
                        Ok(overflow)
                    } else {
                        Ok(batch[k].1)
                    }
                };
                let want = moves_one_by_one(&mut single, &handles, new_box);
                // Move 7 asks for the overflowing box (so the error paths run every
                // frame), unless the foreign handle comes first.
                let first = if frame % 4 == 1 {
                    Error::StaleHandle
                } else {
                    Error::InfiniteCoordinate
                };
                assert_eq!(want, Err(first), "seed {seed} frame {frame}");
                let want_changes = {
                    let c = single.update();
                    (c.began.to_vec(), c.ended.to_vec())
                };
                let want_pairs: Vec<Pair> = single.pairs().collect();
                assert_eq!(
                    want_pairs,
                    brute_force_pairs(&single, &live),
                    "seed {seed} frame {frame}: the reference against every pair of fat boxes"
                );
                for (bp, pool) in batched.iter_mut().zip(&pools) {
                    let t = pool.current_num_threads();
                    let at = format!("seed {seed} frame {frame} threads {t}");
                    let got = pool.install(|| bp.move_proxies_with(&handles, new_box));
                    assert_eq!(got, want, "{at}");
                    let changes = pool.install(|| {
                        let c = bp.update();
                        (c.began.to_vec(), c.ended.to_vec())
                    });
                    assert_eq!(changes, want_changes, "{at}");
                    assert_eq!(bp.pairs().collect::<Vec<_>>(), want_pairs, "{at}");
                    for &id in &live {
                        assert_eq!(bp.data(id), single.data(id), "{at}: calls");
                        assert_eq!(bp.fat_aabb(id), single.fat_aabb(id), "{at}: fat");
                        assert_eq!(bp.aabb(id), single.aabb(id), "{at}: tight");
                    }
                    bp.validate().unwrap_or_else(|e| panic!("{at}: {e}"));
                }
            }
        }
    }
}
