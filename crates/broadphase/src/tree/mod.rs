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
//!   rebuild with [`DynamicTree::rebuild`] (binned SAH, see the `build` module).
//!
//! Layout: this module holds the arena, the leaf handles and the bookkeeping that every
//! mutation shares; the operations live in its child modules: `insert` (insertion,
//! removal, rotations), `refit` (moving a leaf in place, refitting), `build` (the binned
//! SAH builder, bulk insertion, rebuild), `query` (box queries), `pairs` (all
//! overlapping pairs), `ray_cast` and `validate`. The arena's fields are private, so
//! only this module and its children read them; the children depend on this module,
//! not on each other.

use glam::Vec3;

use crate::{Aabb, Error};

mod build;
mod insert;
mod pairs;
mod query;
mod ray_cast;
mod refit;
mod validate;

/// The "no node" index.
const NULL: u32 = u32::MAX;
/// Marks a free arena slot in `height`.
const FREE: u32 = u32::MAX;

/// One arena slot: 32 bytes, so two nodes share a cache line.
///
/// For an internal node `child1`/`child2` are the children. For a leaf `child1 == NULL`
/// and `child2` is the user payload. Parent, height and leaf id live in side arrays
/// because queries never read them.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Node {
    aabb: Aabb,
    child1: u32,
    child2: u32,
}

impl Node {
    #[inline]
    fn is_leaf(&self) -> bool {
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
    nodes: Vec<Node>,
    parent: Vec<u32>,
    height: Vec<u32>,
    /// Node -> leaf id (for leaf nodes).
    node_leaf: Vec<u32>,
    /// Leaf id -> node (`NULL` when the id is free).
    leaf_node: Vec<u32>,
    leaf_generation: Vec<u32>,
    free_leaf_ids: Vec<u32>,
    root: u32,
    /// Head of the free list, chained through `parent`.
    free: u32,
    leaf_count: u32,
    /// Sum of internal-node surface areas, kept up to date by every mutation.
    internal_area: f64,
    /// The largest term the sum has held since it was last counted afresh: when
    /// the sum falls far below it (a huge box has left), its rounding, an ulp of
    /// that term, may exceed what is left, and the sum is counted again.
    area_scale: f64,
    /// `internal_area` right after the last rebuild, the reference for degradation.
    built_area: f64,
    /// True while the arena is exactly as [`rebuild`](Self::rebuild) laid it out: no
    /// free slots, nodes in depth-first preorder. Leaves are then in tree order by
    /// index, which lets the all-pairs snapshot scan the arena instead of walking it.
    /// Any structural change clears it; box-only updates keep it.
    preorder: bool,
    scratch: Vec<(u32, f32)>,
    /// Buffers of the last all-pairs snapshot, reused by the next call.
    pair_buffers: pairs::Buffers,
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
        self.change_area(aabb.surface_area_f64(), 0.0);
        n
    }

    fn release_internal(&mut self, n: u32) {
        let area = self.nodes[n as usize].aabb.surface_area_f64();
        self.release(n);
        self.change_area(0.0, area);
    }

    #[inline]
    fn set_internal_aabb(&mut self, n: u32, aabb: Aabb) {
        let old = std::mem::replace(&mut self.nodes[n as usize].aabb, aabb);
        self.change_area(aabb.surface_area_f64(), old.surface_area_f64());
    }

    /// Adds `gained` to the tracked area and takes `lost` from it. A sum that
    /// falls below 2^-30 of the largest term it has held since it was last
    /// counted carries, in its rounding, more than a billionth of itself: it is
    /// counted again from the internal nodes (linear, and only after a box much
    /// larger than the rest has left).
    #[inline]
    fn change_area(&mut self, gained: f64, lost: f64) {
        self.internal_area += gained - lost;
        self.area_scale = self.area_scale.max(gained).max(lost);
        if self.internal_area < self.area_scale * (1.0 / (1u64 << 30) as f64) {
            self.count_area();
        }
    }

    /// The tracked area counted afresh: the sum of the internal nodes' areas.
    #[cold]
    fn count_area(&mut self) {
        let area: f64 = (0..self.nodes.len())
            .filter(|&i| self.height[i] != FREE && self.height[i] > 0)
            .map(|i| self.nodes[i].aabb.surface_area_f64())
            .sum();
        self.internal_area = area;
        self.area_scale = area;
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
}
