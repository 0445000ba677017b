//! Handles: [`ProxyId`] names a proxy, [`Pair`] two of them.

/// A generational handle to a proxy of a [`Broadphase`](crate::Broadphase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    /// The handle of slot `index` in its generation `generation`.
    #[inline]
    pub(super) fn new(index: u32, generation: u32) -> Self {
        Self { index, generation }
    }

    /// The slot index: dense, reused after removal (with a new generation).
    #[inline]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The generation of the slot when this handle was issued.
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }
}

/// An unordered pair of proxies, stored with `a.index() < b.index()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    /// The proxy with the smaller index.
    pub a: ProxyId,
    /// The proxy with the larger index.
    pub b: ProxyId,
}
