//! Top-down binned SAH construction (Wald 2007) of a [`DynamicTree`]
//! arena, without recursion.
//!
//! Each range of leaves is split on the axis where the leaf centres spread most. The
//! centres are dropped into up to 16 equal bins; every split between bins is scored
//! with the surface-area heuristic (area x count on each side) and the cheapest wins.
//! When all centres coincide on that axis no binning can separate them, so the range is
//! cut at its middle instead: this keeps the depth logarithmic for coincident boxes.
//! Centres are kept doubled (`min + max`) to save a multiply per item.
//!
//! Above a few hundred leaves the top of the tree comes from a grid instead (see
//! [`Grid`]): the leaves are counting-sorted by cell along a Morton-like curve and each
//! large range is cut at its middle cell, so the binned passes over large ranges (each
//! reads and partitions every item, the costly part of a build) are replaced by one
//! sort. The SAH splits the ranges of at most [`GRID_LEAF`](grid::GRID_LEAF) items.
//!
//! Layout: this module holds the items, the tasks, the output arena and the two build
//! loops (the grid's and the SAH's), plus the tree's entry points
//! ([`DynamicTree::from_aabbs`], [`DynamicTree::rebuild`], bulk insertion); `grid`
//! sorts the leaves into cells and `split` chooses each SAH split.

use glam::{Vec3, Vec4};

use super::{DynamicTree, LeafId, NULL, Node};
use crate::Aabb;

mod grid;
mod split;

use grid::Grid;
use split::{SMALL, split_binned, split_middle, split_small};

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
    fn from_leaf((b, payload, leaf_id): (Aabb, u32, u32)) -> Self {
        Item::new(&b, leaf_id, payload)
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

/// A range of items to split by the SAH.
struct Task {
    /// Centre bounds of the range (for the top of a range handed over by the grid: the
    /// region of its cells, which contains them).
    centres: Bounds,
    start: u32,
    end: u32,
    parent: u32,
    second: bool,
}

/// Working space of the SAH builds, reused from range to range.
#[derive(Default)]
struct Scratch {
    /// Ranges waiting to be split (right halves).
    stack: Vec<Task>,
    /// The bin of each item of the range being split, kept for its partition.
    item_bins: Vec<u8>,
}

/// A range of grid cells, whose leaves are `order[start..end]` (see [`Grid::sort`]).
struct GridTask {
    /// The cells' region (doubled centre coordinates).
    region: Bounds,
    start: usize,
    end: usize,
    parent: u32,
    second: bool,
    /// The number of key bits the cells share.
    level: u32,
    /// The first cell.
    cell: u32,
}

/// A freshly built arena, nodes in depth-first preorder (first child first).
struct Built {
    nodes: Vec<Node>,
    parent: Vec<u32>,
    height: Vec<u32>,
    /// Leaf id of each leaf node (`NULL` for internal nodes).
    node_leaf: Vec<u32>,
    root: u32,
    /// Sum of internal-node surface areas.
    area: f64,
}

impl Built {
    /// Appends a node and links it under `parent`.
    #[inline(always)]
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

    /// Grows the boxes of the ancestors of `node` (all grid nodes, whose boxes are
    /// only known once their subtrees are built) to contain its box, stopping at the
    /// first that already does (every growth is carried up at once, so its ancestors
    /// do too). Called when a subtree's top node is made, before its leaves: an
    /// ancestor still at height 0 has no leaf yet, so its box is still the placeholder
    /// and is replaced rather than grown.
    fn grow_ancestors(&mut self, node: u32) {
        // The box is read back from the arena rather than passed by reference: a
        // reference would keep the caller's copy in memory on every path.
        let aabb = self.nodes[node as usize].aabb;
        let mut p = self.parent[node as usize];
        while p != NULL {
            let unset = self.height[p as usize] == 0;
            let b = &mut self.nodes[p as usize].aabb;
            if unset {
                *b = aabb;
            } else if b.contains(&aabb) {
                break;
            } else {
                *b = b.merge(&aabb);
            }
            p = self.parent[p as usize];
        }
    }
}

/// Builds a tree over `count` leaves, `leaf(i)` giving the `i`-th as a `(box, payload,
/// leaf id)` triple (read in any order, some more than once). Nodes are emitted in the
/// order the builder visits them, which is depth-first preorder: each subtree ends up
/// contiguous in memory, with no separate layout pass.
fn build(count: usize, leaf: impl Fn(usize) -> (Aabb, u32, u32)) -> Built {
    let mut out = Built {
        nodes: Vec::with_capacity(2 * count),
        parent: Vec::with_capacity(2 * count),
        height: Vec::with_capacity(2 * count),
        node_leaf: Vec::with_capacity(2 * count),
        root: NULL,
        area: 0.0,
    };
    if count == 0 {
        return out;
    }
    // The centre bounds first, from the input: the grid needs them before the items are
    // placed, and the input is read again more cheaply than a copy of it is written.
    let mut centres = Bounds::EMPTY;
    for i in 0..count {
        let b = leaf(i).0;
        let c = (b.min() + b.max()).extend(0.0);
        centres.grow(c, c);
    }
    // Every node costs one unit, so at most 2n - 1 are spent.
    let mut budget = 2 * count;
    let mut scratch = Scratch::default();
    let Some(mut grid) = Grid::new(&centres, count) else {
        let mut items: Vec<Item> = (0..count).map(|i| Item::from_leaf(leaf(i))).collect();
        let root = Task {
            centres,
            start: 0,
            end: count as u32,
            parent: NULL,
            second: false,
        };
        build_sah(&mut out, &mut items, &mut scratch, root, false, &mut budget);
        return out;
    };
    let order = grid.sort(count, &leaf);
    // Each range the grid hands over is gathered here and built by the SAH while it is
    // in cache (at most `GRID_LEAF` items, 16 KB, unless one cell holds more).
    let mut items = Vec::new();
    // Grid nodes get their boxes from their subtrees; their areas are summed at the end.
    let mut grid_nodes = Vec::new();
    let mut grid_stack = Vec::new();
    // As in `build_sah`, the left half goes straight to the next iteration.
    let mut next = Some(GridTask {
        region: centres,
        start: 0,
        end: count,
        parent: NULL,
        second: false,
        level: 0,
        cell: 0,
    });
    while let Some(mut task) = next.take().or_else(|| grid_stack.pop()) {
        if budget == 0 {
            break;
        }
        if task.end - task.start > 1 && !grid.descend(&mut task) {
            budget -= 1;
            // A grid node: both halves hold items.
            let node = out.push(
                Node {
                    // A placeholder until `grow_ancestors` sets it.
                    aabb: Aabb::new_unchecked(Vec3::ZERO, Vec3::ZERO),
                    child1: NULL,
                    child2: NULL,
                },
                NULL,
                task.parent,
                task.second,
            );
            grid_nodes.push(node);
            let (left, right) = grid.halves(&task, node);
            grid_stack.push(right);
            next = Some(left);
            continue;
        }
        items.clear();
        items.extend(
            order[task.start..task.end]
                .iter()
                .map(|&i| Item::from_leaf(leaf(i as usize))),
        );
        let root = Task {
            centres: task.region,
            start: 0,
            end: items.len() as u32,
            parent: task.parent,
            second: task.second,
        };
        let grid_parent = task.parent != NULL;
        build_sah(
            &mut out,
            &mut items,
            &mut scratch,
            root,
            grid_parent,
            &mut budget,
        );
    }
    for &n in &grid_nodes {
        out.area += out.nodes[n as usize].aabb.surface_area_f64();
    }
    out
}

/// Builds the subtree of `root` over `items` with the binned SAH, appending its nodes
/// in depth-first preorder. `grid_parent`: the root's parent is a grid node, whose box
/// the root's box grows.
fn build_sah(
    out: &mut Built,
    items: &mut [Item],
    scratch: &mut Scratch,
    root: Task,
    mut grid_parent: bool,
    budget: &mut usize,
) {
    // The left child is split right after its parent, so it goes straight to the next
    // iteration instead of through the stack: a task read back from memory right after
    // it was written field by field stalls on store forwarding.
    let mut next = Some(root);
    while let Some(task) = next.take().or_else(|| scratch.stack.pop()) {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let (start, end) = (task.start as usize, task.end as usize);
        let count = end - start;
        if count == 1 {
            let it = items[start];
            let node = Node {
                aabb: Aabb::new_unchecked(it.min.truncate(), it.max.truncate()),
                child1: NULL,
                child2: it.payload(),
            };
            let node = out.push(node, it.leaf_id(), task.parent, task.second);
            if grid_parent {
                grid_parent = false;
                out.grow_ancestors(node);
            }
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
        let range = &mut items[start..end];
        let ext = task.centres.max - task.centres.min;
        let axis = if ext.x >= ext.y && ext.x >= ext.z {
            0
        } else if ext.y >= ext.z {
            1
        } else {
            2
        };
        let (mid, node_box, left_c, right_c) = if count <= SMALL {
            split_small(range)
        } else if ext[axis] > 0.0 {
            // A compile-time axis turns lane extraction into a plain register move.
            let (lo, e) = (task.centres.min[axis], ext[axis]);
            match axis {
                0 => split_binned::<0>(range, lo, e, &mut scratch.item_bins),
                1 => split_binned::<1>(range, lo, e, &mut scratch.item_bins),
                _ => split_binned::<2>(range, lo, e, &mut scratch.item_bins),
            }
        } else {
            split_middle(range)
        };
        let aabb = node_box.to_aabb();
        out.area += aabb.surface_area_f64();
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
        if grid_parent {
            grid_parent = false;
            out.grow_ancestors(node);
        }
        let mid = task.start + mid as u32;
        scratch.stack.push(Task {
            centres: right_c,
            start: mid,
            end: task.end,
            parent: node,
            second: true,
        });
        next = Some(Task {
            centres: left_c,
            start: task.start,
            end: mid,
            parent: node,
            second: false,
        });
    }
}

impl DynamicTree {
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
        let built = build(n, |i| (boxes[i], i as u32, i as u32));
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
            build(boxes.len(), |i| (boxes[i].0, boxes[i].1, ids[i].index))
        } else {
            let new = boxes
                .iter()
                .zip(&ids)
                .map(|(&(aabb, payload), id)| (aabb, payload, id.index));
            let leaves: Vec<(Aabb, u32, u32)> = self.leaf_items().chain(new).collect();
            build(leaves.len(), |i| leaves[i])
        };
        self.install(built);
        ids
    }

    /// Rebuilds all internal nodes with the binned SAH builder. Leaf handles stay valid.
    /// Use after bulk insertion or when [`degradation`](Self::degradation) has grown.
    pub fn rebuild(&mut self) {
        let leaves: Vec<(Aabb, u32, u32)> = self.leaf_items().collect();
        let built = build(leaves.len(), |i| leaves[i]);
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
    fn install(&mut self, built: Built) {
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
        self.area_scale = built.area;
        self.built_area = built.area;
        self.preorder = true;
    }
}
