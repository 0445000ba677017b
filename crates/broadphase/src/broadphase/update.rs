//! [`Broadphase::update`]: the proxies in the move buffer query the tree in parallel
//! chunks, each chunk compares the new partner lists with the old ones, and the
//! results are applied to the pair state as the chunks finish.

use std::sync::{Mutex, MutexGuard, PoisonError};

use rayon::prelude::*;

use super::{Broadphase, Hot, Pair, PartnerLists, ProxyId};
use crate::DynamicTree;

/// [`Broadphase::update`] cuts the moved proxies into this many parallel work items
/// per thread, each of at least [`CHUNK_MIN`] and at most [`CHUNK_MAX`] proxies; one
/// thread runs one item. Few large items keep `query_many`'s [`QUERY_GROUP`] queries
/// in flight for longer (each item starts and drains a group) and pay fewer hand-offs,
/// while four per thread still let the thread that starts first (the other one wakes
/// up later) take more of them. Two and three per thread measured no better
/// (BENCHMARKS.md). The results do not depend on the cut (see [`Applier`]).
const CHUNKS_PER_THREAD: usize = 4;

/// The smallest parallel work item of [`Broadphase::update`]: one group of queries.
const CHUNK_MIN: usize = QUERY_GROUP;

/// The largest parallel work item of [`Broadphase::update`], so that large batches are
/// cut finely enough to balance.
const CHUNK_MAX: usize = 256;

/// Queries that [`query_chunk`] runs interleaved through `query_many` (one traversal
/// stack each). 16 rather than 8 since `query_many` prefetches: measured faster on one
/// thread and no different on two, where each chunk is now one group (BENCHMARKS.md).
const QUERY_GROUP: usize = 16;

/// [`Broadphase::update`] recomputes the whole pair set from scratch (the tree's
/// all-pairs traversal, then one pass over the partner lists) instead of querying
/// the tree once per moved proxy, when at least this fraction of the live proxies
/// moved: a scene loaded with `insert_many`, or a frame that teleports most bodies.
/// The all-pairs traversal visits each overlapping subtree pair once, where the
/// queries of all proxies would each walk down from the root, and it runs in
/// parallel as one call; below half, the moved proxies' queries touch less of the
/// tree. The pair set is the same either way (both are exactly the fat boxes'
/// overlaps).
const FROM_SCRATCH_FRACTION: f64 = 0.5;

/// ... and at least this many proxies moved (smaller updates are cheap either way).
const FROM_SCRATCH_MIN: usize = 4096;

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

/// What one chunk of moved proxies produced in the parallel phase of
/// [`Broadphase::update`]: new partner lists, and the pair changes they imply.
struct ChunkResult {
    /// The chunk's moved proxies with the lengths of their new partner lists, which
    /// follow each other in `lists`.
    moved: Vec<(u32, u32)>,
    lists: Vec<u32>,
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
    partners: &'a mut PartnerLists,
    began: &'a mut Vec<Pair>,
    ended: &'a mut Vec<Pair>,
    pair_count: &'a mut usize,
}

impl Applier<'_> {
    fn apply(&mut self, r: ChunkResult) {
        let mut at = 0;
        for &(p, len) in &r.moved {
            let end = at + len as usize;
            self.partners.set(p as usize, &r.lists[at..end]);
            at = end;
        }
        for patch in &r.patches {
            if patch.began {
                self.partners.insert(patch.q as usize, patch.p);
            } else {
                self.partners.remove(patch.q as usize, patch.p);
            }
        }
        *self.pair_count += r.began.len();
        *self.pair_count -= r.ended.len();
        self.began.extend_from_slice(&r.began);
        self.ended.extend_from_slice(&r.ended);
    }
}

/// The order of the reported lists: a total order on pairs (generations break ties
/// of indices, which a removed proxy and its slot's next tenant share).
fn pair_key(p: &Pair) -> (u32, u32, u32, u32) {
    (p.a.index(), p.b.index(), p.a.generation(), p.b.generation())
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
    ProxyId::new(s, hot[s as usize].generation)
}

/// The moved proxies' partner lists as they were before an incremental update,
/// copied out of the pair state, which finished chunks edit while others still query:
/// the `k`-th moved proxy's list is `flat[start[k]..start[k + 1]]`.
struct OldLists {
    start: Vec<usize>,
    flat: Vec<u32>,
}

impl OldLists {
    fn copy(partners: &PartnerLists, moves: &[u32]) -> Self {
        let mut start = Vec::with_capacity(moves.len() + 1);
        let mut flat = Vec::new();
        start.push(0);
        for &p in moves {
            flat.extend_from_slice(partners.get(p as usize));
            start.push(flat.len());
        }
        Self { start, flat }
    }

    fn list(&self, k: usize) -> &[u32] {
        &self.flat[self.start[k]..self.start[k + 1]]
    }
}

/// Queries the tree for the moved proxies `chunk` (from the `first`-th moved proxy on)
/// and compares each new partner list with the old one in `old`. Reads shared state only, so
/// chunks run in parallel; the result is applied by [`Applier`]. A pair of two moved
/// proxies is settled by the smaller one (`moved` marks the batch), so the larger
/// skips it.
fn query_chunk(
    tree: &DynamicTree,
    hot: &[Hot],
    old: &OldLists,
    first: usize,
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
        moved: Vec::with_capacity(chunk.len()),
        lists: Vec::with_capacity(hits.len()),
        began: Vec::new(),
        ended: Vec::new(),
        patches: Vec::new(),
    };
    let mut rest = &hits[..];
    for (i, &p) in chunk.iter().enumerate() {
        let len = rest.partition_point(|h| h.0 == i as u32);
        let at = out.lists.len();
        out.lists.extend(rest[..len].iter().map(|h| h.1));
        rest = &rest[len..];
        diff_partners(
            hot,
            p,
            old.list(first + i),
            &out.lists[at..],
            &mut out.began,
            &mut out.ended,
            &mut out.patches,
        );
        out.moved.push((p, len as u32));
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

impl<T> Broadphase<T> {
    /// Brings the pair set up to date and returns the pairs that began and ended since
    /// the previous update.
    ///
    /// Only proxies in the move buffer (inserted or escaped from their fat boxes) query
    /// the tree, in parallel on the current rayon pool when it has more than one thread
    /// and there are at least [`parallel_min_moved`] of them; the same tasks compare
    /// each new partner list with the old one. Each task's result is applied to the
    /// pair state as soon as no other result is being applied, while other tasks still
    /// query. Applying results commutes (each moved proxy's list is
    /// replaced by its own result, each edit of another list inserts or removes a
    /// distinct moved proxy, and the reported lists are sorted), so the result does not
    /// depend on the order nor on the thread count.
    ///
    /// [`parallel_min_moved`]: crate::BroadphaseConfig::parallel_min_moved
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

        if moves.len() >= FROM_SCRATCH_MIN
            && moves.len() as f64 >= FROM_SCRATCH_FRACTION * self.len as f64
        {
            self.update_from_scratch();
            for &s in &moves {
                self.hot[s as usize].moved = false;
            }
            moves.clear();
            self.move_buffer = moves;
            // The from-scratch path reports the pairs that began in order already
            // (runs in slot order, each in slot order, each slot's in partner order),
            // and `began` was empty before it: only the ended list needs sorting.
            debug_assert!(self.began.is_sorted_by_key(|p| (p.a.index(), p.b.index())));
            self.ended.sort_unstable_by_key(pair_key);
            return PairChanges {
                began: &self.began,
                ended: &self.ended,
            };
        }
        let parallel =
            moves.len() >= self.config.parallel_min_moved && rayon::current_num_threads() > 1;
        let old = OldLists::copy(&self.partners, &moves);
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
            let old = &old;
            moves.par_chunks(chunk).enumerate().for_each(|(k, part)| {
                let r = query_chunk(tree, hot, old, k * chunk, part);
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
            applier.apply(query_chunk(tree, hot, &old, 0, &moves));
        }
        for &s in &moves {
            self.hot[s as usize].moved = false;
        }
        moves.clear();
        self.move_buffer = moves;
        self.sorted_changes()
    }

    /// The began and ended lists, sorted.
    fn sorted_changes(&mut self) -> PairChanges<'_> {
        // Results were applied in whatever order the tasks finished, so the key is a
        // total order on pairs (generations break ties of indices, which a removed
        // proxy and its slot's next tenant share): the lists do not depend on that
        // order even if two entries ever shared their indices.
        self.began.sort_unstable_by_key(pair_key);
        self.ended.sort_unstable_by_key(pair_key);
        PairChanges {
            began: &self.began,
            ended: &self.ended,
        }
    }

    /// The pair set recomputed from the tree's all-pairs traversal: every partner
    /// list is replaced by the new one, and the differences are the pairs that began
    /// and ended.
    ///
    /// The new lists are laid out in one flat array (counts, offsets, fill); then
    /// runs of [`SCRATCH_SLOTS`] slots, in parallel on the current pool, sort their
    /// lists and compare them with the old ones (a loaded scene, with no pair before,
    /// needs no comparison: every pair began); the flat array then becomes the
    /// partner lists' pool as it is. Each run reports its pairs in slot order, and
    /// the runs are joined in order, so the lists come out sorted and the same for
    /// any thread count. The handles of the reported pairs take their generations
    /// from a compact copy, read in order once, rather than from the proxies' 64-byte
    /// records at random.
    fn update_from_scratch(&mut self) {
        let pairs = self.tree.overlapping_pairs();
        let n = self.hot.len();
        // `start[s]..start[s + 1]` is slot `s`'s part of `flat`; `upper_runs[r]`
        // counts the pairs run `r` reports (those whose smaller slot is in it): only
        // the runs' shares of the began list are needed, and a count per run stays in
        // cache where one per slot would be a third scattered increment per pair.
        let mut start = vec![0u32; n + 1];
        let mut upper_runs = vec![0usize; n.div_ceil(SCRATCH_SLOTS)];
        for &(p, q) in &pairs {
            start[p as usize + 1] += 1;
            start[q as usize + 1] += 1;
            upper_runs[p.min(q) as usize / SCRATCH_SLOTS] += 1;
        }
        for s in 0..n {
            start[s + 1] += start[s];
        }
        let mut fill = start.clone();
        let mut flat = vec![0u32; 2 * pairs.len()];
        for &(p, q) in &pairs {
            flat[fill[p as usize] as usize] = q;
            fill[p as usize] += 1;
            flat[fill[q as usize] as usize] = p;
            fill[q as usize] += 1;
        }
        drop(fill);
        let generations: Vec<u32> = self.hot.iter().map(|h| h.generation).collect();
        // Slots that were never freed are all at generation 0 (a loaded scene): then
        // the reported handles need no scattered read of the generations.
        let generations = Generations {
            all_zero: generations.iter().all(|&g| g == 0),
            of: generations,
        };
        // With no pair before (a loaded scene), every pair begins: each run writes
        // its pairs straight into its own part of the began list.
        let fresh = self.pair_count == 0;
        let mut began_all = Vec::new();
        if fresh {
            began_all.resize(
                pairs.len(),
                Pair {
                    a: ProxyId::new(0, 0),
                    b: ProxyId::new(0, 0),
                },
            );
        }
        // Each run of slots with its parts of the flat array and of the began list.
        let mut runs: Vec<ScratchRun<'_>> = Vec::new();
        let mut rest_flat = &mut flat[..];
        let mut rest_began = &mut began_all[..];
        let mut first = 0;
        while first < n {
            let last = (first + SCRATCH_SLOTS).min(n);
            let (part, more_flat) = rest_flat.split_at_mut((start[last] - start[first]) as usize);
            let reported = if fresh {
                upper_runs[first / SCRATCH_SLOTS]
            } else {
                0
            };
            let (out, more_began) = rest_began.split_at_mut(reported);
            runs.push(ScratchRun {
                first,
                last,
                flat: part,
                began: out,
            });
            rest_flat = more_flat;
            rest_began = more_began;
            first = last;
        }
        let start = &start;
        let generations = &generations;
        let partners = &self.partners;
        let results: Vec<(Vec<Pair>, Vec<Pair>)> = runs
            .into_par_iter()
            .with_max_len(1)
            .map(|run| {
                let ScratchRun {
                    first,
                    last,
                    flat: part,
                    began: out,
                } = run;
                let (mut began, mut ended) = (Vec::new(), Vec::new());
                let base = start[first];
                let mut cursor = 0;
                for s in first..last {
                    let new = &mut part[(start[s] - base) as usize..(start[s + 1] - base) as usize];
                    new.sort_unstable();
                    if fresh {
                        let above = &new[new.partition_point(|&q| q <= s as u32)..];
                        generations.write_pairs(s as u32, above, &mut out[cursor..]);
                        cursor += above.len();
                    } else if partners.get(s) != &*new {
                        let old = partners.get(s);
                        diff_upper(&generations.of, s as u32, old, new, &mut began, &mut ended);
                    }
                }
                (began, ended)
            })
            .collect();
        if fresh {
            if self.began.is_empty() {
                self.began = began_all;
            } else {
                self.began.extend_from_slice(&began_all);
            }
        }
        for (began, ended) in results {
            self.began.extend_from_slice(&began);
            self.ended.extend_from_slice(&ended);
        }
        self.partners.replace_all(start, flat);
        self.pair_count = pairs.len();
    }
}

/// The slots' generations, read by [`Broadphase::update`]'s from-scratch path to
/// make the handles of the pairs it reports.
struct Generations {
    of: Vec<u32>,
    /// Every generation is 0 (no slot was ever freed).
    all_zero: bool,
}

impl Generations {
    /// Writes the pairs of slot `s` with each slot of `above` (all larger than `s`)
    /// to the start of `out`.
    #[inline(always)]
    fn write_pairs(&self, s: u32, above: &[u32], out: &mut [Pair]) {
        let a = ProxyId::new(s, self.of[s as usize]);
        let out = &mut out[..above.len()];
        if self.all_zero {
            for (slot, &q) in out.iter_mut().zip(above) {
                *slot = Pair {
                    a,
                    b: ProxyId::new(q, 0),
                };
            }
        } else {
            for (slot, &q) in out.iter_mut().zip(above) {
                *slot = Pair {
                    a,
                    b: ProxyId::new(q, self.of[q as usize]),
                };
            }
        }
    }
}

/// A run of slots of [`Broadphase::update`]'s from-scratch path: its slots
/// `first..last`, its part of the flat array of new lists, and its part of the
/// began list (for a loaded scene, else empty).
struct ScratchRun<'a> {
    first: usize,
    last: usize,
    flat: &'a mut [u32],
    began: &'a mut [Pair],
}

/// The slots per parallel run of [`Broadphase::update`]'s from-scratch path: a
/// constant, so that the runs do not depend on the thread count.
const SCRATCH_SLOTS: usize = 16 * 1024;

/// The pairs `(p, q)` with `q > p` in `new` and not in `old` (began) and the
/// reverse (ended), both lists sorted: each pair is reported once, by its smaller
/// proxy.
fn diff_upper(
    generations: &[u32],
    p: u32,
    old: &[u32],
    new: &[u32],
    began: &mut Vec<Pair>,
    ended: &mut Vec<Pair>,
) {
    let upper = |list: &[u32]| list.partition_point(|&q| q <= p);
    let (old, new) = (&old[upper(old)..], &new[upper(new)..]);
    let id = |s: u32| ProxyId::new(s, generations[s as usize]);
    let pair = |q: u32| Pair { a: id(p), b: id(q) };
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(&o), Some(&w)) if o == w => {
                i += 1;
                j += 1;
            }
            (Some(&o), Some(&w)) if o < w => {
                ended.push(pair(o));
                i += 1;
            }
            (Some(&o), None) => {
                ended.push(pair(o));
                i += 1;
            }
            (_, Some(&w)) => {
                began.push(pair(w));
                j += 1;
            }
            (None, None) => break,
        }
    }
}
