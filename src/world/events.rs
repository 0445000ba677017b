//! What a step reports beyond the manifolds: contacts that began, persisted and
//! ended.

use super::BodyId;

/// The change a [`ContactEvent`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContactEventKind {
    /// The pair touches (a manifold point at depth 0 or deeper, to the touch
    /// tolerance) and did not at the previous step.
    Began,
    /// The pair touches, as it did at the previous step.
    Persisted,
    /// The pair touched at the previous step and no longer does: it moved apart,
    /// a filter now excludes it, or one of its bodies was removed.
    Ended,
}

/// A pair whose contact began, persisted or ended, with both bodies' user data
/// (taken when the event was made: for a removed body, at its removal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContactEvent {
    /// What happened.
    pub kind: ContactEventKind,
    /// The body with the smaller slot.
    pub a: BodyId,
    /// The other body.
    pub b: BodyId,
    /// `a`'s user data.
    pub user_data_a: u64,
    /// `b`'s user data.
    pub user_data_b: u64,
}
