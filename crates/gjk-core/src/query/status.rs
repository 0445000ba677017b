//! How an iterative query ended.

/// How a query's iteration ended. Every loop in the queries is capped; a capped
/// query still returns its best answer so far, marked so the caller can tell.
///
/// One byte, its variants numbered 0 to 3 in this order (`repr(u8)`), so that
/// batch drivers can write a whole [`crate::Distance`] as machine words.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Status {
    /// A termination test passed: the answer is within the tolerances of
    /// [`crate::tolerance`].
    Converged,
    /// The iteration cap was hit; the answer is the best bound reached.
    IterationLimit,
    /// The geometry left no well-defined next step (a flat Minkowski difference, a
    /// zero-area EPA face, a non-finite intermediate); the answer is the best so far.
    Degenerate,
    /// The input held NaN or infinite values, or placed the shapes farther apart
    /// than f32 measures ([`MAX_OFFSET`](crate::tolerance::MAX_OFFSET)), so no
    /// answer was computed. gjk-core's validated shapes and poses produce only the
    /// second; the wide kernels, which accept raw lane data, report both per lane.
    InvalidInput,
}
