//! Moves: [`Broadphase::move_proxy`] one at a time, and the record pass of
//! [`Broadphase::move_proxies`] and [`Broadphase::move_proxies_with`], which runs every
//! move's containment test (in parallel over slot ranges for large batches) and leaves
//! the few escapes to the tree, serially and in batch order.

use rayon::prelude::*;

use super::{Broadphase, BroadphaseConfig, Hot, ProxyId};
use crate::prefetch::{prefetch, prefetch_all};
use crate::{Aabb, Error, LeafId};

/// How many moves ahead [`move_range`] prefetches the record of a move: enough to
/// keep a dozen misses in flight (a longer distance gained nothing). It replaced a
/// separate pass that loaded every record first (a safe stand-in for prefetching),
/// which measured slower (BENCHMARKS.md).
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
    aabb.grown(margin).map(Some)
}

/// [`Broadphase::move_proxies`] splits batches of at least this many moves over the
/// pool. A move costs little more than a cache miss on its record, so smaller batches
/// gain less than the split costs (grouping the moves by range, waking the idle
/// thread): measured on frames at 100k and 1M proxies (BENCHMARKS.md), a 10k batch
/// was slower on two threads than on one, a 100k batch much faster.
pub(super) const MOVE_PARALLEL_MIN: usize = 32 * 1024;

/// [`Broadphase::move_proxies_with`] splits batches of at least this many moves over
/// the pool: there each move also runs the caller's function (its reads of the
/// caller's data miss the cache as the record does), so the split pays sooner than for
/// ready boxes: two threads against one, measured at 2k, 4k and 8k moves
/// (BENCHMARKS.md), lost at 2k, broke even at 4k and won at 8k.
pub(super) const MOVE_WITH_PARALLEL_MIN: usize = 4 * 1024;

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
    let at = |k: u32| ((batch.id)(k as usize).index() as usize).wrapping_sub(base);
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
        if h.generation != id.generation() || !h.live {
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
                    slot: id.index(),
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
            let r = (((batch.id)(k).index() as usize) >> shift).min(ranges);
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
        if fat.intersects(&old_fat) {
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
    /// [`DynamicTree::area_cost`](crate::DynamicTree::area_cost) may differ from single
    /// moves). A proxy may appear more than once: its moves apply in batch order.
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

    /// [`move_proxies_with`](Self::move_proxies_with) with the caller's own
    /// per-slot table instead of the proxies' user data: `new_box(k, entry)` gets
    /// `table[ids[k].index()]`. For callers that keep their objects in an array
    /// indexed by the proxies' slots ([`ProxyId::index`]), so that a pair's
    /// objects are two array reads, with no handle check. `table` must have one
    /// entry per slot ([`slot_count`](Self::slot_count)), else nothing moves and
    /// [`Error::SlotTableLength`] is returned. The same results, threading and
    /// errors as `move_proxies_with` otherwise.
    pub fn move_proxies_in<D, E, F>(
        &mut self,
        ids: &[ProxyId],
        table: &mut [D],
        new_box: F,
    ) -> Result<usize, E>
    where
        D: Send,
        E: From<Error> + Send,
        F: Fn(usize, &mut D) -> Result<Aabb, E> + Sync,
    {
        if table.len() != self.hot.len() {
            return Err(Error::SlotTableLength {
                expected: self.hot.len(),
                found: table.len(),
            }
            .into());
        }
        let parallel = rayon::current_num_threads() > 1
            && ids.len() >= self.config.parallel_min_moved
            && ids.len() >= self.move_with_parallel_min;
        let batch = MoveBatch {
            len: ids.len(),
            id: |k: usize| ids[k],
            new_box,
        };
        let res = record_pass(&self.config, &mut self.hot, table, &batch, parallel);
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
            if e.fat.intersects(&e.old_fat) {
                grow.push((e.leaf, e.fat));
            } else {
                self.tree.enlarge_many(&grow)?;
                grow.clear();
                self.tree.reinsert(e.leaf, e.fat)?;
            }
        }
        self.tree.enlarge_many(&grow)
    }
}
