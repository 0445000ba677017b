//! How an iterative query ended.

/// How a query's iteration ended. Every loop in the queries is capped; a capped
/// query still returns its best answer so far, marked so the caller can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// A termination test passed: the answer is within the tolerances of
    /// [`crate::tolerance`].
    Converged,
    /// The iteration cap was hit; the answer is the best bound reached.
    IterationLimit,
    /// The geometry left no well-defined next step (a flat Minkowski difference, a
    /// zero-area EPA face, a non-finite intermediate); the answer is the best so far.
    Degenerate,
    /// The input held NaN or infinite values, so no answer was computed. gjk-core's
    /// validated shapes and poses cannot produce it; the wide kernels, which accept
    /// raw lane data, report it per lane.
    InvalidInput,
}
