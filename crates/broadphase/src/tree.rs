//! The dynamic AABB tree: a binary tree of boxes stored in one arena.
//!
//! Design:
//! - Nodes live in a `Vec` and refer to each other by `u32` index; freed slots are
//!   chained in a free list, so inserting and removing allocate nothing per node once
//!   the arena has grown.
//! - Every traversal uses an explicit heap-allocated stack (a `Vec` that grows as
//!   needed), never recursion, so no input can overflow the thread stack. Every loop is
//!   bounded by the number of nodes.
//! - Insertion picks the sibling that minimises the total surface-area cost with a
//!   branch-and-bound search, then walks to the root refitting and rotating: a rotation
//!   swaps a child with a grandchild, to restore height balance when the two sides
//!   differ by more than one level, otherwise when it lowers the surface area.
//! - A [`LeafId`] names an entry of a leaf table that points at the leaf's node, so
//!   handles stay valid while [`DynamicTree::rebuild`] lays all nodes out again in
//!   depth-first order (a subtree is then contiguous in memory, which is what makes
//!   queries and the all-pairs traversal cache-friendly). Handles carry a generation,
//!   so a removed or reused leaf is reported as [`Error::StaleHandle`].
//! - Moving a leaf: [`DynamicTree::update_in_place`] refits ancestors exactly,
//!   [`DynamicTree::enlarge`] only grows them (cheapest: no sibling is read), and
//!   [`DynamicTree::reinsert`] puts the leaf where it now belongs;
//!   [`DynamicTree::refit`] tightens every internal box at once.
//! - The tree tracks the sum of the surface areas of its internal nodes (the SAH cost
//!   up to a constant), so callers can detect when in-place updates have degraded it and
//!   rebuild with [`DynamicTree::rebuild`] (binned SAH, see `build.rs`).

use glam::Vec3;

use crate::prefetch::prefetch;
use crate::{Aabb, Error};

/// The "no node" index.
pub(crate) const NULL: u32 = u32::MAX;
/// Marks a free arena slot in `height`.
const FREE: u32 = u32::MAX;

/// One arena slot: 32 bytes, so two nodes share a cache line.
///
/// For an internal node `child1`/`child2` are the children. For a leaf `child1 == NULL`
/// and `child2` is the user payload. Parent, height and leaf id live in side arrays
/// because queries never read them.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(crate) struct Node {
    pub(crate) aabb: Aabb,
    pub(crate) child1: u32,
    pub(crate) child2: u32,
}

impl Node {
    #[inline]
    pub(crate) fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

/// A generational handle to a leaf of a [`DynamicTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LeafId {
    index: u32,
    generation: u32,
}

impl Default for LeafId {
    /// A handle that names no leaf of any tree.
    fn default() -> Self {
        Self {
            index: NULL,
            generation: 0,
        }
    }
}

impl LeafId {
    /// The handle's slot in the leaf table (stable for the leaf's lifetime, reused with
    /// a new generation after removal).
    pub fn index(self) -> u32 {
        self.index
    }
}

/// A dynamic bounding-volume hierarchy of axis-aligned boxes, each carrying a `u32`
/// payload.
///
/// ```
/// use broadphase::{Aabb, DynamicTree};
/// use glam::Vec3;
/// let mut tree = DynamicTree::new();
/// let a = tree.insert(Aabb::new(Vec3::ZERO, Vec3::ONE).unwrap(), 7);
/// tree.insert(Aabb::new(Vec3::splat(5.0), Vec3::splat(6.0)).unwrap(), 8);
/// let mut hits = Vec::new();
/// tree.query(&Aabb::new(Vec3::splat(0.5), Vec3::splat(0.7)).unwrap(), |payload| hits.push(payload));
/// assert_eq!(hits, vec![7]);
/// assert_eq!(tree.remove(a), Ok(7));
/// assert!(tree.remove(a).is_err()); // stale handle: an error, not a panic
/// tree.validate().unwrap();
/// ```
#[derive(Clone, Debug, Default)]
pub struct DynamicTree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) parent: Vec<u32>,
    pub(crate) height: Vec<u32>,
    /// Node -> leaf id (for leaf nodes).
    node_leaf: Vec<u32>,
    /// Leaf id -> node (`NULL` when the id is free).
    leaf_node: Vec<u32>,
    leaf_generation: Vec<u32>,
    free_leaf_ids: Vec<u32>,
    pub(crate) root: u32,
    /// Head of the free list, chained through `parent`.
    free: u32,
    leaf_count: u32,
    /// Sum of internal-node surface areas, kept up to date by every mutation.
    internal_area: f64,
    /// `internal_area` right after the last rebuild, the reference for degradation.
    pub(crate) built_area: f64,
    /// True while the arena is exactly as [`rebuild`](Self::rebuild) laid it out: no
    /// free slots, nodes in depth-first preorder. Leaves are then in tree order by
    /// index, which lets the all-pairs snapshot scan the arena instead of walking it.
    /// Any structural change clears it; box-only updates keep it.
    pub(crate) preorder: bool,
    scratch: Vec<(u32, f32)>,
    /// Buffers of the last all-pairs snapshot, reused by the next call.
    pub(crate) pair_buffers: crate::wide_pairs::Buffers,
}

impl DynamicTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self {
            root: NULL,
            free: NULL,
            ..Default::default()
        }
    }

    /// Number of leaves.
    pub fn len(&self) -> usize {
        self.leaf_count as usize
    }

    /// Whether the tree has no leaves.
    pub fn is_empty(&self) -> bool {
        self.leaf_count == 0
    }

    /// Height of the tree: 0 for a single leaf, 0 for an empty tree.
    pub fn height(&self) -> u32 {
        if self.root == NULL {
            0
        } else {
            self.height[self.root as usize]
        }
    }

    /// The box of the root (the union of all leaves), if any.
    pub fn root_aabb(&self) -> Option<Aabb> {
        (self.root != NULL).then(|| self.nodes[self.root as usize].aabb)
    }

    /// The sum of the surface areas of the internal nodes: proportional to the expected
    /// cost of a random query (the surface-area heuristic).
    pub fn area_cost(&self) -> f64 {
        self.internal_area
    }

    /// `area_cost()` divided by its value right after the last full build or rebuild
    /// (1.0 when never built). Incremental updates push it up; rebuild when it grows.
    pub fn degradation(&self) -> f64 {
        if self.built_area > 0.0 {
            self.internal_area / self.built_area
        } else {
            1.0
        }
    }

    /// The box stored for a leaf.
    pub fn aabb(&self, leaf: LeafId) -> Result<Aabb, Error> {
        Ok(self.nodes[self.check(leaf)? as usize].aabb)
    }

    /// The payload of a leaf.
    pub fn payload(&self, leaf: LeafId) -> Result<u32, Error> {
        Ok(self.nodes[self.check(leaf)? as usize].child2)
    }

    /// The node of a live leaf handle.
    fn check(&self, leaf: LeafId) -> Result<u32, Error> {
        let i = leaf.index as usize;
        if i < self.leaf_node.len()
            && self.leaf_generation[i] == leaf.generation
            && self.leaf_node[i] != NULL
        {
            Ok(self.leaf_node[i])
        } else {
            Err(Error::StaleHandle)
        }
    }

    /// Allocates a leaf node with its handle (not linked into the tree).
    fn alloc_leaf(&mut self, aabb: Aabb, payload: u32) -> (u32, LeafId) {
        let node = self.alloc();
        let i = node as usize;
        self.nodes[i] = Node {
            aabb,
            child1: NULL,
            child2: payload,
        };
        self.height[i] = 0;
        self.parent[i] = NULL;
        let id = self.alloc_leaf_id();
        self.leaf_node[id.index as usize] = node;
        self.node_leaf[i] = id.index;
        self.leaf_count += 1;
        (node, id)
    }

    /// A leaf handle: a freed slot (its generation already bumped) or a new one. The
    /// caller points `leaf_node` at the leaf's node and counts the leaf.
    fn alloc_leaf_id(&mut self) -> LeafId {
        let index = match self.free_leaf_ids.pop() {
            Some(id) => id,
            None => {
                self.leaf_node.push(NULL);
                self.leaf_generation.push(0);
                (self.leaf_node.len() - 1) as u32
            }
        };
        LeafId {
            index,
            generation: self.leaf_generation[index as usize],
        }
    }

    fn alloc(&mut self) -> u32 {
        self.preorder = false;
        if self.free != NULL {
            let n = self.free;
            self.free = self.parent[n as usize];
            n
        } else {
            let n = self.nodes.len() as u32;
            assert!(n < NULL - 1, "DynamicTree arena full");
            self.nodes.push(Node {
                aabb: Aabb::new_unchecked(Vec3::ZERO, Vec3::ZERO),
                child1: NULL,
                child2: NULL,
            });
            self.parent.push(NULL);
            self.height.push(FREE);
            self.node_leaf.push(NULL);
            n
        }
    }

    fn release(&mut self, n: u32) {
        self.preorder = false;
        let i = n as usize;
        self.height[i] = FREE;
        self.nodes[i].child1 = NULL;
        self.parent[i] = self.free;
        self.free = n;
    }

    /// Allocates an internal node; its area joins the cost.
    fn alloc_internal(&mut self, aabb: Aabb, c1: u32, c2: u32) -> u32 {
        let n = self.alloc();
        self.nodes[n as usize] = Node {
            aabb,
            child1: c1,
            child2: c2,
        };
        self.height[n as usize] = 1;
        self.internal_area += f64::from(aabb.surface_area());
        n
    }

    fn release_internal(&mut self, n: u32) {
        self.internal_area -= f64::from(self.nodes[n as usize].aabb.surface_area());
        self.release(n);
    }

    #[inline]
    fn set_internal_aabb(&mut self, n: u32, aabb: Aabb) {
        let old = &mut self.nodes[n as usize].aabb;
        self.internal_area += f64::from(aabb.surface_area()) - f64::from(old.surface_area());
        *old = aabb;
    }

    /// Inserts a box with a payload and returns its handle.
    ///
    /// Panics only if the arena would exceed `u32::MAX - 1` nodes (an allocation of
    /// more than 100 GiB would fail first).
    pub fn insert(&mut self, aabb: Aabb, payload: u32) -> LeafId {
        let (node, id) = self.alloc_leaf(aabb, payload);
        self.insert_leaf(node);
        id
    }

    /// Removes a leaf and returns its payload.
    pub fn remove(&mut self, leaf: LeafId) -> Result<u32, Error> {
        let node = self.check(leaf)?;
        self.remove_leaf(node);
        let payload = self.nodes[node as usize].child2;
        self.release(node);
        self.node_leaf[node as usize] = NULL;
        let id = leaf.index as usize;
        self.leaf_node[id] = NULL;
        self.leaf_generation[id] = self.leaf_generation[id].wrapping_add(1);
        self.free_leaf_ids.push(leaf.index);
        self.leaf_count -= 1;
        Ok(payload)
    }

    /// Replaces a leaf's box and refits its ancestors in place, without changing the
    /// tree's shape. Cheap (stops as soon as an ancestor is unchanged) but, repeated
    /// for boxes that wander far, it slowly degrades the tree: see
    /// [`degradation`](Self::degradation) and [`reinsert`](Self::reinsert).
    pub fn update_in_place(&mut self, leaf: LeafId, aabb: Aabb) -> Result<(), Error> {
        let node = self.check(leaf)?;
        self.nodes[node as usize].aabb = aabb;
        let mut n = self.parent[node as usize];
        let mut budget = self.nodes.len();
        while n != NULL && budget > 0 {
            budget -= 1;
            let node = self.nodes[n as usize];
            let merged = self.nodes[node.child1 as usize]
                .aabb
                .merge(&self.nodes[node.child2 as usize].aabb);
            if merged == node.aabb {
                break;
            }
            self.set_internal_aabb(n, merged);
            n = self.parent[n as usize];
        }
        Ok(())
    }

    /// Replaces a leaf's box and grows its ancestors until one already contains it.
    /// Ancestors are never shrunk, so they may stay looser than their children until the
    /// next [`rebuild`](Self::rebuild) (or a rotation or exact refit on their path).
    /// Cheapest update (no sibling is read; usually stops after a level or two); the
    /// growth shows up in [`degradation`](Self::degradation).
    pub fn enlarge(&mut self, leaf: LeafId, aabb: Aabb) -> Result<(), Error> {
        let node = self.check(leaf)?;
        self.nodes[node as usize].aabb = aabb;
        let mut n = self.parent[node as usize];
        let mut budget = self.nodes.len();
        while n != NULL && budget > 0 {
            budget -= 1;
            let current = self.nodes[n as usize].aabb;
            if current.contains(&aabb) {
                break;
            }
            self.set_internal_aabb(n, current.merge(&aabb));
            n = self.parent[n as usize];
        }
        Ok(())
    }

    /// [`enlarge`](Self::enlarge) for many leaves in turn, eight ancestor walks at a
    /// time: each walk is a chain of dependent loads (parent index, then the parent's
    /// box), which in a tree larger than the cache stalls on every step; the steps of
    /// eight independent walks overlap, and the node a walk steps to is prefetched a
    /// round before it is read (`profile_ops frame`, one thread: `move_proxies` 0.29-0.30
    /// -> 0.25-0.27 ms with about 300 escapes). The boxes end up exactly as after calling
    /// `enlarge` for each item in order: a walk that stops early because another walk
    /// already grew an ancestor over its box leaves nothing out, as every node above
    /// that ancestor gets the other walk's growth and contained the ancestor before.
    /// Only the rounding of the tracked area sum may differ. Stale handles are skipped
    /// and reported after the others are applied.
    pub(crate) fn enlarge_many(&mut self, items: &[(LeafId, Aabb)]) -> Result<(), Error> {
        const K: usize = 8;
        let mut err = Ok(());
        // Slot k walks with box `walk[k].1` at ancestor `walk[k].0` (NULL: idle).
        let mut walk = [(NULL, Aabb::new_unchecked(Vec3::ZERO, Vec3::ZERO)); K];
        let mut next = 0;
        // Every step raises a walk by one level or ends it.
        let mut budget = (items.len() + K) * (self.nodes.len() + 1);
        loop {
            let mut active = false;
            for slot in &mut walk {
                while slot.0 == NULL && next < items.len() {
                    let (leaf, aabb) = items[next];
                    next += 1;
                    // The walk of the item K places on starts from the leaf tables:
                    // their entries for it start loading now.
                    if let Some(&(ahead, _)) = items.get(next + K) {
                        let i = ahead.index as usize;
                        if let (Some(n), Some(g)) =
                            (self.leaf_node.get(i), self.leaf_generation.get(i))
                        {
                            prefetch(n);
                            prefetch(g);
                        }
                    }
                    match self.check(leaf) {
                        Ok(node) => {
                            self.nodes[node as usize].aabb = aabb;
                            let up = self.parent[node as usize];
                            self.prefetch_node(up);
                            *slot = (up, aabb);
                        }
                        Err(e) => err = Err(e),
                    }
                }
                let (n, aabb) = *slot;
                if n == NULL || budget == 0 {
                    continue;
                }
                budget -= 1;
                active = true;
                let current = self.nodes[n as usize].aabb;
                if current.contains(&aabb) {
                    slot.0 = NULL;
                } else {
                    self.set_internal_aabb(n, current.merge(&aabb));
                    slot.0 = self.parent[n as usize];
                    self.prefetch_node(slot.0);
                }
            }
            if !active && next >= items.len() {
                break;
            }
        }
        err
    }

    /// Prefetches what a step of an ancestor walk reads at node `n` (its box and its
    /// parent link); nothing for `NULL`.
    #[inline(always)]
    fn prefetch_node(&self, n: u32) {
        if let (Some(node), Some(up)) = (self.nodes.get(n as usize), self.parent.get(n as usize)) {
            prefetch(node);
            prefetch(up);
        }
    }

    /// Recomputes every internal box as the exact union of its children (post-order,
    /// explicit stack), undoing the looseness [`enlarge`](Self::enlarge) leaves behind
    /// without changing the tree's shape. Linear time; cheaper than a rebuild when the
    /// leaves have not wandered far from where the tree put them.
    pub fn refit(&mut self) {
        if self.root == NULL {
            return;
        }
        // (node, children done?) pairs: a node is refitted when popped the second time.
        let mut stack = vec![(self.root, false)];
        let mut budget = 2 * self.nodes.len();
        while let Some((n, done)) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let node = self.nodes[n as usize];
            if node.is_leaf() {
                continue;
            }
            if done {
                let merged = self.nodes[node.child1 as usize]
                    .aabb
                    .merge(&self.nodes[node.child2 as usize].aabb);
                self.set_internal_aabb(n, merged);
            } else {
                stack.push((n, true));
                stack.push((node.child2, false));
                stack.push((node.child1, false));
            }
        }
    }

    /// Moves a leaf to a new box by taking it out and inserting it again at the best
    /// place for the new box (the handle stays valid).
    pub fn reinsert(&mut self, leaf: LeafId, aabb: Aabb) -> Result<(), Error> {
        let node = self.check(leaf)?;
        self.remove_leaf(node);
        self.nodes[node as usize].aabb = aabb;
        self.insert_leaf(node);
        Ok(())
    }

    /// Branch-and-bound search for the sibling that minimises the total area added by
    /// inserting `aabb` next to it (the new parent's area plus the growth of every
    /// ancestor). A subtree is skipped when even a perfect fit inside it (cost: its
    /// inherited growth plus the leaf's own area) cannot beat the best found so far.
    fn find_best_sibling(&mut self, aabb: &Aabb) -> u32 {
        let leaf_area = aabb.surface_area();
        let root = self.root;
        let root_box = self.nodes[root as usize].aabb;
        let root_direct = root_box.merge(aabb).surface_area();
        let mut best = root;
        let mut best_cost = root_direct;
        let mut stack = std::mem::take(&mut self.scratch);
        stack.clear();
        let root_node = self.nodes[root as usize];
        if !root_node.is_leaf() {
            let inherited = root_direct - root_box.surface_area();
            if inherited + leaf_area < best_cost {
                stack.push((root_node.child1, inherited));
                stack.push((root_node.child2, inherited));
            }
        }
        // Each node is pushed at most once (by its parent), so the stack drains within
        // `nodes.len()` pops.
        let mut budget = self.nodes.len();
        while let Some((n, inherited)) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let node = self.nodes[n as usize];
            let direct = node.aabb.merge(aabb).surface_area();
            let cost = direct + inherited;
            if cost < best_cost {
                best_cost = cost;
                best = n;
            }
            if !node.is_leaf() {
                let child_inherited = inherited + direct - node.aabb.surface_area();
                if child_inherited + leaf_area < best_cost {
                    stack.push((node.child1, child_inherited));
                    stack.push((node.child2, child_inherited));
                }
            }
        }
        self.scratch = stack;
        best
    }

    /// Links an allocated leaf (box already set) into the tree.
    fn insert_leaf(&mut self, leaf: u32) {
        self.preorder = false;
        if self.root == NULL {
            self.root = leaf;
            self.parent[leaf as usize] = NULL;
            return;
        }
        let aabb = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&aabb);
        let old_parent = self.parent[sibling as usize];
        let merged = self.nodes[sibling as usize].aabb.merge(&aabb);
        let new_parent = self.alloc_internal(merged, sibling, leaf);
        self.height[new_parent as usize] = self.height[sibling as usize] + 1;
        self.parent[new_parent as usize] = old_parent;
        self.parent[sibling as usize] = new_parent;
        self.parent[leaf as usize] = new_parent;
        if old_parent == NULL {
            self.root = new_parent;
        } else {
            self.replace_child(old_parent, sibling, new_parent);
        }
        self.refit_and_rotate(new_parent);
    }

    /// Unlinks a leaf (its slot stays allocated); its parent is freed and the sibling
    /// takes the parent's place.
    fn remove_leaf(&mut self, leaf: u32) {
        self.preorder = false;
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let p = self.parent[leaf as usize];
        let pn = self.nodes[p as usize];
        let sibling = if pn.child1 == leaf {
            pn.child2
        } else {
            pn.child1
        };
        let g = self.parent[p as usize];
        self.parent[sibling as usize] = g;
        self.release_internal(p);
        if g == NULL {
            self.root = sibling;
        } else {
            self.replace_child(g, p, sibling);
            self.refit_and_rotate(g);
        }
        self.parent[leaf as usize] = NULL;
    }

    #[inline]
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let node = &mut self.nodes[parent as usize];
        if node.child1 == old {
            node.child1 = new;
        } else {
            debug_assert_eq!(node.child2, old);
            node.child2 = new;
        }
    }

    /// Recomputes box and height of internal node `n` from its children.
    #[inline]
    fn refit_node(&mut self, n: u32) {
        let node = self.nodes[n as usize];
        let (c1, c2) = (node.child1 as usize, node.child2 as usize);
        let merged = self.nodes[c1].aabb.merge(&self.nodes[c2].aabb);
        self.set_internal_aabb(n, merged);
        self.height[n as usize] = 1 + self.height[c1].max(self.height[c2]);
    }

    /// Walks from `start` to the root, rotating then refitting every node.
    fn refit_and_rotate(&mut self, start: u32) {
        let mut n = start;
        let mut budget = self.nodes.len();
        while n != NULL && budget > 0 {
            budget -= 1;
            self.rotate_down(n);
            self.refit_node(n);
            n = self.parent[n as usize];
        }
    }

    /// Rotates at `a`; while the rotation leaves the restructured child unbalanced by
    /// more than one level, rotates there too, one level deeper each time. Without this,
    /// coincident boxes (all sibling costs equal) grow a list below the root.
    fn rotate_down(&mut self, a: u32) {
        let mut cur = a;
        let mut last = NULL;
        let mut budget = self.height[a as usize];
        while budget > 0 {
            budget -= 1;
            let Some(k) = self.rotate(cur) else { break };
            last = k;
            let kn = self.nodes[k as usize];
            let (h1, h2) = (
                self.height[kn.child1 as usize],
                self.height[kn.child2 as usize],
            );
            if h1.abs_diff(h2) <= 1 {
                break;
            }
            cur = k;
        }
        // Nodes between `a` and the deepest rotation saw their children change.
        let mut x = last;
        let mut budget = self.nodes.len();
        while x != NULL && x != a && budget > 0 {
            budget -= 1;
            self.refit_node(x);
            x = self.parent[x as usize];
        }
    }

    /// Considers swapping one child of `a` with one of the other child's children.
    ///
    /// If the children's heights differ by more than one, the swap that lowers the
    /// taller side most is applied (this bounds the height on sorted or coincident
    /// inserts, where area gives no guidance). Otherwise the swap that most reduces the
    /// area of the restructured child is applied, if it keeps both touched nodes
    /// balanced to within one level.
    /// Returns the restructured child, if a rotation was applied.
    fn rotate(&mut self, a: u32) -> Option<u32> {
        let an = self.nodes[a as usize];
        if an.is_leaf() {
            return None;
        }
        let (b, c) = (an.child1, an.child2);
        let hb = self.height[b as usize] as i64;
        let hc = self.height[c as usize] as i64;
        // Candidate: (kept child k, grandchild g under k, other child o) meaning
        // "o and g trade places": k's children become (o, g's sibling).
        let mut best: Option<(u32, u32, u32)> = None;
        let mut best_key = (i64::MAX, i64::MAX, f32::INFINITY);
        let old_shape = (hb.max(hc), (hb - hc).abs());
        let unbalanced = (hb - hc).abs() > 1;
        for (k, o, hk, ho) in [(b, c, hb, hc), (c, b, hc, hb)] {
            let kn = self.nodes[k as usize];
            if kn.is_leaf() {
                continue;
            }
            if unbalanced && hk < ho {
                continue;
            }
            let old_area = kn.aabb.surface_area();
            let o_box = self.nodes[o as usize].aabb;
            for (g, s) in [(kn.child1, kn.child2), (kn.child2, kn.child1)] {
                let hs = self.height[s as usize] as i64;
                let hg = self.height[g as usize] as i64;
                let new_hk = 1 + ho.max(hs);
                let new_area = o_box.merge(&self.nodes[s as usize].aabb).surface_area();
                let delta = new_area - old_area;
                if unbalanced {
                    // Lower the taller side first, then reduce the imbalance.
                    let key = (new_hk.max(hg), (new_hk - hg).abs(), delta);
                    if (key.0, key.1) < old_shape && key < best_key {
                        best_key = key;
                        best = Some((k, g, o));
                    }
                } else if (new_hk - hg).abs() <= 1
                    && (ho - hs).abs() <= 1
                    && delta < -1e-6 * old_area
                    && delta < best_key.2
                {
                    best_key = (0, 0, delta);
                    best = Some((k, g, o));
                }
            }
        }
        if let Some((k, g, o)) = best {
            // a: (k, o) -> (k', g) where k' = (o, s).
            self.replace_child(a, o, g);
            self.replace_child(k, g, o);
            self.parent[g as usize] = a;
            self.parent[o as usize] = k;
            self.refit_node(k);
            return Some(k);
        }
        None
    }

    /// Calls `f(payload)` for every leaf whose box overlaps `aabb` (closed boxes).
    pub fn query(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        let mut stack = Vec::with_capacity(64);
        self.query_with_stack(aabb, &mut stack, &mut f);
    }

    /// [`query`](Self::query) with a caller-provided stack, so hot loops allocate
    /// nothing.
    pub(crate) fn query_with_stack(
        &self,
        aabb: &Aabb,
        stack: &mut Vec<u32>,
        f: &mut impl FnMut(u32),
    ) {
        stack.clear();
        if self.root == NULL {
            return;
        }
        stack.push(self.root);
        let mut budget = self.nodes.len();
        while let Some(n) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            let node = &self.nodes[n as usize];
            if !node.aabb.overlaps(aabb) {
                continue;
            }
            if node.is_leaf() {
                f(node.child2);
            } else {
                stack.push(node.child2);
                stack.push(node.child1);
            }
        }
    }

    /// Runs many box queries, `K` at a time, interleaving their traversals one node at a
    /// time. A lone query stalls on every cache miss of a tree larger than the cache,
    /// because each node load depends on the previous one; the loads of `K` independent
    /// queries can be in flight together. A query that finishes hands its slot to the
    /// next one, so `K` queries stay in flight until the list runs out; the children of
    /// a visited node are prefetched when pushed. `f(i, payload)` reports a hit of query
    /// `i` (hits of different queries interleave).
    pub(crate) fn query_many<const K: usize>(
        &self,
        count: usize,
        query: impl Fn(usize) -> Aabb,
        stacks: &mut [Vec<u32>; K],
        f: &mut impl FnMut(usize, u32),
    ) {
        if self.root == NULL || count == 0 {
            return;
        }
        // Slot k runs query `current[k]` with box `boxes[k]`, or is idle (`usize::MAX`).
        let mut current = [usize::MAX; K];
        let mut boxes = [Aabb::new_unchecked(Vec3::ZERO, Vec3::ZERO); K];
        let mut next = 0;
        let mut active = 0;
        for k in 0..K {
            stacks[k].clear();
            if next < count {
                current[k] = next;
                boxes[k] = query(next);
                stacks[k].push(self.root);
                next += 1;
                active += 1;
            }
        }
        // Every query visits each node at most once.
        let mut budget = (self.nodes.len() + 1) * count;
        while active > 0 && budget > 0 {
            for k in 0..K {
                let Some(n) = stacks[k].pop() else { continue };
                budget = budget.saturating_sub(1);
                let node = &self.nodes[n as usize];
                if node.aabb.overlaps(&boxes[k]) {
                    if node.is_leaf() {
                        f(current[k], node.child2);
                    } else {
                        // Both children are popped within a few rounds: their loads
                        // start now, a round earlier than the interleaving alone would
                        // start them (`profile_ops frame`, bench scene: the query
                        // section 0.57-0.63 -> 0.47-0.49 ms on one thread).
                        prefetch(&self.nodes[node.child1 as usize]);
                        prefetch(&self.nodes[node.child2 as usize]);
                        stacks[k].push(node.child2);
                        stacks[k].push(node.child1);
                    }
                }
                if stacks[k].is_empty() {
                    if next < count {
                        current[k] = next;
                        boxes[k] = query(next);
                        stacks[k].push(self.root);
                        next += 1;
                    } else {
                        current[k] = usize::MAX;
                        active -= 1;
                    }
                }
            }
        }
    }

    /// The handles of all leaves, in handle-index order.
    pub fn leaves(&self) -> Vec<LeafId> {
        (0..self.leaf_node.len())
            .filter(|&i| self.leaf_node[i] != NULL)
            .map(|i| LeafId {
                index: i as u32,
                generation: self.leaf_generation[i],
            })
            .collect()
    }

    /// Builds a tree over `boxes` with the binned SAH builder; leaf `i` has payload `i`
    /// and handle `result.1[i]`.
    pub fn from_aabbs(boxes: &[Aabb]) -> (Self, Vec<LeafId>) {
        let mut tree = Self::new();
        assert!(boxes.len() < (NULL / 2) as usize, "too many boxes");
        // Leaf `i` gets handle slot `i` (generation 0) and payload `i`; the builder
        // reads the boxes directly instead of allocating unlinked leaves first.
        let n = boxes.len();
        tree.leaf_node = vec![NULL; n];
        tree.leaf_generation = vec![0; n];
        tree.leaf_count = n as u32;
        let built = crate::build::build(n, |i| (boxes[i], i as u32, i as u32));
        tree.install(built);
        let ids = (0..n as u32)
            .map(|index| LeafId {
                index,
                generation: 0,
            })
            .collect();
        (tree, ids)
    }

    /// Adds many leaves at once and rebuilds the whole tree with the binned SAH builder
    /// (existing handles stay valid); leaf `k` of the batch gets `result[k]`. The new
    /// leaves go straight into the builder: no arena node is allocated for them before
    /// the build lays out the arena anew.
    pub(crate) fn insert_bulk(&mut self, boxes: &[(Aabb, u32)]) -> Vec<LeafId> {
        assert!(
            self.nodes.len() + 2 * boxes.len() < (NULL / 2) as usize,
            "DynamicTree arena full"
        );
        self.leaf_node.reserve(boxes.len());
        self.leaf_generation.reserve(boxes.len());
        let ids: Vec<LeafId> = boxes.iter().map(|_| self.alloc_leaf_id()).collect();
        self.leaf_count += boxes.len() as u32;
        // An empty tree (a first bulk insert) hands the batch to the builder as it is,
        // without a copy.
        let built = if self.nodes.is_empty() {
            crate::build::build(boxes.len(), |i| (boxes[i].0, boxes[i].1, ids[i].index))
        } else {
            let new = boxes
                .iter()
                .zip(&ids)
                .map(|(&(aabb, payload), id)| (aabb, payload, id.index));
            let leaves: Vec<(Aabb, u32, u32)> = self.leaf_items().chain(new).collect();
            crate::build::build(leaves.len(), |i| leaves[i])
        };
        self.install(built);
        ids
    }

    /// Rebuilds all internal nodes with the binned SAH builder. Leaf handles stay valid.
    /// Use after bulk insertion or when [`degradation`](Self::degradation) has grown.
    pub fn rebuild(&mut self) {
        let leaves: Vec<(Aabb, u32, u32)> = self.leaf_items().collect();
        let built = crate::build::build(leaves.len(), |i| leaves[i]);
        self.install(built);
    }

    /// The live leaves in arena order as the builder takes them: (box, payload, handle
    /// slot).
    fn leaf_items(&self) -> impl Iterator<Item = (Aabb, u32, u32)> + '_ {
        (0..self.nodes.len())
            .filter(|&i| self.height[i] == 0 && self.nodes[i].is_leaf())
            .map(|i| (self.nodes[i].aabb, self.nodes[i].child2, self.node_leaf[i]))
    }

    /// Replaces the arena by a freshly built one and points the leaf table at it.
    fn install(&mut self, built: crate::build::Built) {
        for (n, &id) in built.node_leaf.iter().enumerate() {
            if id != NULL {
                self.leaf_node[id as usize] = n as u32;
            }
        }
        self.nodes = built.nodes;
        self.parent = built.parent;
        self.height = built.height;
        self.node_leaf = built.node_leaf;
        self.root = built.root;
        self.free = NULL;
        self.internal_area = built.area;
        self.built_area = built.area;
        self.preorder = true;
    }

    /// Checks every structural invariant: parent links, each internal box containing its
    /// children (equal to their union unless [`enlarge`](Self::enlarge) grew it), heights, leaf count, free list, and the tracked area cost.
    /// Meant for tests; runs in linear time with an explicit stack.
    pub fn validate(&self) -> Result<(), String> {
        let len = self.nodes.len();
        let mut reached = vec![false; len];
        let mut leaves = 0u32;
        let mut area = 0f64;
        if self.root != NULL {
            if self.parent[self.root as usize] != NULL {
                return Err("root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(n) = stack.pop() {
                let i = n as usize;
                if i >= len {
                    return Err(format!("node {n} out of range"));
                }
                if reached[i] {
                    return Err(format!("node {n} reached twice (cycle or shared child)"));
                }
                reached[i] = true;
                if self.height[i] == FREE {
                    return Err(format!("free node {n} is linked in the tree"));
                }
                let node = self.nodes[i];
                if node.is_leaf() {
                    leaves += 1;
                    let id = self.node_leaf[i];
                    if id as usize >= self.leaf_node.len() || self.leaf_node[id as usize] != n {
                        return Err(format!("leaf node {n}: leaf table out of sync"));
                    }
                    if self.height[i] != 0 {
                        return Err(format!("leaf {n} has height {}", self.height[i]));
                    }
                    continue;
                }
                for c in [node.child1, node.child2] {
                    if c as usize >= len {
                        return Err(format!("node {n} has child {c} out of range"));
                    }
                    if self.parent[c as usize] != n {
                        return Err(format!(
                            "child {c} of {n} has parent {}",
                            self.parent[c as usize]
                        ));
                    }
                    stack.push(c);
                }
                let (a, b) = (node.child1 as usize, node.child2 as usize);
                if !node
                    .aabb
                    .contains(&self.nodes[a].aabb.merge(&self.nodes[b].aabb))
                {
                    return Err(format!("node {n}: box does not contain its children"));
                }
                if self.height[i] != 1 + self.height[a].max(self.height[b]) {
                    return Err(format!("node {n}: wrong height"));
                }
                area += f64::from(node.aabb.surface_area());
            }
        }
        let ids = self.leaf_node.iter().filter(|&&n| n != NULL).count();
        if ids != self.leaf_count as usize {
            return Err(format!(
                "{ids} live leaf ids, {} leaves counted",
                self.leaf_count
            ));
        }
        if leaves != self.leaf_count {
            return Err(format!(
                "{leaves} leaves reached, {} counted",
                self.leaf_count
            ));
        }
        let mut free = 0usize;
        let mut f = self.free;
        while f != NULL {
            if free > len || self.height[f as usize] != FREE || reached[f as usize] {
                return Err("free list corrupt".into());
            }
            free += 1;
            f = self.parent[f as usize];
        }
        let live = reached.iter().filter(|&&r| r).count();
        if live + free != len {
            return Err(format!("{} slots leaked", len - live - free));
        }
        let tol = 1e-4 * area.max(1.0);
        if (area - self.internal_area).abs() > tol {
            return Err(format!(
                "tracked area {} != actual {area}",
                self.internal_area
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

    fn random_box(rng: &mut ChaCha8Rng, side: f32) -> Aabb {
        crate::test_support::random_box(rng, side, 0.1..1.0)
    }

    /// `enlarge_many` leaves every node box exactly as `enlarge` called item by item
    /// (runs with repeated leaves, small growths, large growths and a stale handle),
    /// on built trees and on trees grown by single inserts.
    #[test]
    fn enlarge_many_equals_enlarge_in_order() {
        for seed in 0..8u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let n = rng.random_range(1..3000);
            let side = (4.0 * n as f32).cbrt();
            let boxes: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng, side)).collect();
            let (mut tree, mut ids) = if seed % 2 == 0 {
                DynamicTree::from_aabbs(&boxes)
            } else {
                let mut t = DynamicTree::new();
                let ids = boxes
                    .iter()
                    .enumerate()
                    .map(|(i, b)| t.insert(*b, i as u32))
                    .collect();
                (t, ids)
            };
            let gone = ids.pop().unwrap();
            if !ids.is_empty() {
                tree.remove(gone).unwrap();
            }
            for round in 0..5 {
                let mut items: Vec<(LeafId, Aabb)> = Vec::new();
                for _ in 0..rng.random_range(0..400) {
                    let Some(&leaf) = ids.get(rng.random_range(0..ids.len().max(1))) else {
                        break;
                    };
                    let old = tree.aabb(leaf).unwrap();
                    let grow = if rng.random_range(0..4) == 0 {
                        3.0
                    } else {
                        0.2
                    };
                    let d = Vec3::new(
                        rng.random_range(-grow..grow),
                        rng.random_range(-grow..grow),
                        rng.random_range(-grow..grow),
                    );
                    let b = Aabb::new(old.min() + d.min(Vec3::ZERO), old.max() + d.max(Vec3::ZERO))
                        .unwrap();
                    items.push((leaf, b));
                }
                if round == 2 && !items.is_empty() {
                    let k = items.len() / 2;
                    items.insert(k, (gone, boxes[0]));
                }
                let mut want = tree.clone();
                let mut want_err = Ok(());
                for &(leaf, b) in &items {
                    if let Err(e) = want.enlarge(leaf, b) {
                        want_err = Err(e);
                    }
                }
                let got_err = tree.enlarge_many(&items);
                assert_eq!(got_err, want_err, "seed {seed} round {round}");
                for (i, (g, w)) in tree.nodes.iter().zip(&want.nodes).enumerate() {
                    assert_eq!(g.aabb, w.aabb, "seed {seed} round {round}: node {i}");
                }
                tree.validate()
                    .unwrap_or_else(|e| panic!("seed {seed} round {round}: {e}"));
            }
        }
    }
}
