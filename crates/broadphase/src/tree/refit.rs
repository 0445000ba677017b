//! Moving a leaf without changing the tree's shape, and refitting the internal boxes.
//!
//! [`DynamicTree::update_in_place`] refits ancestors exactly, [`DynamicTree::enlarge`]
//! only grows them (cheapest: no sibling is read), and [`DynamicTree::refit`] tightens
//! every internal box at once. A leaf that moved far is better served by
//! [`DynamicTree::reinsert`].

use glam::Vec3;

use super::{DynamicTree, LeafId, NULL};
use crate::prefetch::prefetch;
use crate::{Aabb, Error};

impl DynamicTree {
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
    /// round before it is read (measured on a frame's escapes: BENCHMARKS.md). The
    /// boxes end up exactly as after calling
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
