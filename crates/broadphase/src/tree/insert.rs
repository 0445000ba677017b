//! Inserting and removing leaves, and the rotations that keep the tree balanced on
//! the way back to the root.
//!
//! Insertion picks the sibling that minimises the total surface-area cost with a
//! branch-and-bound search, then walks to the root refitting and rotating: a rotation
//! swaps a child with a grandchild, to restore height balance when the two sides
//! differ by more than one level, otherwise when it lowers the surface area.

use super::{DynamicTree, LeafId, NULL};
use crate::{Aabb, Error};

impl DynamicTree {
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
}
