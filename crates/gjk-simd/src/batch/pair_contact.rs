//! A pair's contact together with its manifold: what a pair cache keeps of a
//! pair from one step to the next.

use gjk_core::{Contact, Manifold};

/// One pair's answer from [`crate::pair_contact_batch_with`]: its contact
/// (depth, normal and deepest or closest points, with [`gjk_core::contact`]'s
/// conventions) and, when the shapes are within the prediction distance (or
/// touch, see [`gjk_core::tolerance::TOUCH_TOLERANCE`]), the manifold built
/// from that contact.
///
/// A pair apart by more than the prediction distance (but within the reach)
/// keeps its contact, whose `-depth` is the gap and whose normal is the
/// separating direction, without the cost of a manifold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairContact {
    /// The contact the manifold was built from.
    pub contact: Contact,
    /// The manifold, `None` when the gap (`-contact.depth`) exceeds both the
    /// prediction distance and the touch tolerance.
    pub manifold: Option<Manifold>,
}

/// What the manifold query writes per pair: its manifold alone
/// (`Option<Manifold>`), or the contact with it (`Option<PairContact>`).
pub(super) trait ManifoldOut: Copy + Send + Sync {
    /// Whether pairs apart by more than the prediction but within the reach get
    /// a manifold (the one point of their closest points).
    const MANIFOLD_BEYOND_PREDICTION: bool;
    /// The answer for a pair with no contact within the reach.
    fn none() -> Self;
    /// The answer for a pair whose lane has `contact` (`None` beyond the reach)
    /// and `manifold`.
    fn new(contact: impl FnOnce() -> Option<Contact>, manifold: Option<Manifold>) -> Self;
}

impl ManifoldOut for Option<Manifold> {
    const MANIFOLD_BEYOND_PREDICTION: bool = true;
    #[inline(always)]
    fn none() -> Self {
        None
    }
    #[inline(always)]
    fn new(_: impl FnOnce() -> Option<Contact>, manifold: Option<Manifold>) -> Self {
        manifold
    }
}

impl ManifoldOut for Option<PairContact> {
    const MANIFOLD_BEYOND_PREDICTION: bool = false;
    #[inline(always)]
    fn none() -> Self {
        None
    }
    #[inline(always)]
    fn new(contact: impl FnOnce() -> Option<Contact>, manifold: Option<Manifold>) -> Self {
        contact().map(|contact| PairContact { contact, manifold })
    }
}
