//! The tree's structural invariants, checked in one linear pass (for tests).

use super::{DynamicTree, FREE, NULL};

impl DynamicTree {
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
                area += node.aabb.surface_area_f64();
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
