//! The pair manager: proxies with user data, fat boxes, a move buffer and the set of
//! overlapping pairs, updated incrementally.
//!
//! Which boxes each operation uses, and what the results depend on, is documented once,
//! on [`Broadphase`].
//!
//! Layout: this module holds the [`Broadphase`] type with its per-proxy record and the
//! read side (pair set, queries, ray casts, validation); `handles` the proxy and pair
//! handles, `config` the margins and thresholds, `partner_lists` the storage of the
//! pair set, `proxies` the proxy store (slots, user data, insertion, removal), `move_pass` the moves (one at a time, or a batch's
//! record pass, serial or parallel), and `update` the parallel update of the pair set.

use crate::{Aabb, DynamicTree, Error, LeafId, Ray};

mod config;
mod handles;
mod move_pass;
mod partner_lists;
mod proxies;
#[cfg(test)]
mod tests;
mod update;

pub use config::BroadphaseConfig;
pub use handles::{Pair, ProxyId};
use move_pass::{MOVE_PARALLEL_MIN, MOVE_WITH_PARALLEL_MIN};
use partner_lists::PartnerLists;
pub use update::PairChanges;

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
    partners: PartnerLists,
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
            partners: PartnerLists::default(),
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

    /// Number of proxy slots, live or free: one past the largest
    /// [`ProxyId::index`] handed out. Callers keeping a table per slot size it so.
    pub fn slot_count(&self) -> usize {
        self.hot.len()
    }

    /// Number of pairs in the current pair set.
    pub fn pair_count(&self) -> usize {
        self.pair_count
    }

    /// The tree of fat boxes (payload = proxy index), for inspection.
    pub fn tree(&self) -> &DynamicTree {
        &self.tree
    }

    /// Rebuilds the tree with the binned SAH builder (pairs are unaffected).
    pub fn rebuild_tree(&mut self) {
        self.tree.rebuild();
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
        Ok(self.partners.get(s).iter().map(move |&q| self.id(q)))
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
        out.sort_unstable_by_key(|p| (p.a.index(), p.b.index()));
        out
    }

    /// Calls `f` for every proxy whose tight box overlaps `aabb`.
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(ProxyId)) {
        self.tree.query(aabb, |s| {
            if self.hot[s as usize].tight.intersects(aabb) {
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
                if self
                    .partners
                    .get(q as usize)
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
