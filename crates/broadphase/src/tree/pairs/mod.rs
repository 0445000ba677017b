//! All overlapping leaf pairs of one tree, found from scratch (no incremental state is
//! used or kept), two ways:
//! - `binary`: the binary tree traversed against itself, behind the allocation-free
//!   serial callback [`DynamicTree::for_each_overlapping_pair`];
//! - `snapshot`: an implicit 8-ary tree over the leaves, tested eight boxes at a time
//!   (its nodes in `wide_node`, cut from the tree and laid out in memory by `layout`),
//!   in parallel, behind [`DynamicTree::overlapping_pairs`]. The tree keeps the
//!   snapshot's large buffers between calls ([`Buffers`]).

use super::DynamicTree;

mod binary;
mod layout;
mod snapshot;
mod wide_node;

use snapshot::WideSnapshot;
use wide_node::WideNode;

/// Trees with fewer buckets (about 8k leaves) are traversed as one work item.
const SPLIT_MIN_BUCKETS: usize = 1024;

/// The large buffers of a snapshot, kept by the tree between all-pairs calls: buckets,
/// payloads, the level-1 and level-2 nodes of the region layout (see
/// [`subtree_buckets`](layout::subtree_buckets)), and the parallel work items' output buffers (`spare`, which
/// keep the largest size a call needed).
#[derive(Default)]
struct Recycled {
    buckets: Vec<WideNode>,
    payload: Vec<u32>,
    level1: Vec<WideNode>,
    level2: Vec<WideNode>,
    spare: Vec<Vec<(u32, u32)>>,
}

/// A snapshot's buffers between all-pairs calls. At 100k leaves they are several MiB
/// that a fresh allocation would fault in page by page on every call, which on some
/// systems (virtual machines in particular) costs as much as filling them. Behind a
/// mutex so the tree stays `Sync`; a call that finds it busy (another thread's call)
/// simply allocates.
#[derive(Default)]
pub(super) struct Buffers(std::sync::Mutex<Recycled>);

impl Buffers {
    fn take(&self) -> Recycled {
        match self.0.try_lock() {
            Ok(mut b) => std::mem::take(&mut *b),
            Err(_) => Default::default(),
        }
    }

    fn put(&self, buffers: Recycled) {
        if let Ok(mut b) = self.0.try_lock() {
            *b = buffers;
        }
    }
}

impl Clone for Buffers {
    /// A clone starts without buffers (they are only a cache).
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for Buffers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Buffers")
    }
}

impl DynamicTree {
    /// All pairs `(p, q)`, `p < q`, of payloads whose leaf boxes overlap, computed from
    /// scratch on the current rayon thread pool through an implicit 8-ary `f32x8` tree
    /// over the leaves in tree order (see the `snapshot` module). The result, order included,
    /// is the same for any number of threads. The tree keeps the snapshot's buffers for
    /// the next call (about 80 bytes per leaf in large trees, whose bucket array has
    /// room to spare so that its parts fill in parallel), so repeated calls allocate
    /// little.
    pub fn overlapping_pairs(&self) -> Vec<(u32, u32)> {
        let mut snapshot = WideSnapshot::new(self, self.pair_buffers.take());
        let pairs = snapshot.pairs();
        self.pair_buffers.put(snapshot.into_buffers());
        pairs
    }
}
