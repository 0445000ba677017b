//! Why a batch query was refused.

/// Why a batch query was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BatchError {
    /// The four input slices must have the same length (one entry per pair).
    #[error(
        "batch inputs must have one entry per pair: shapes_a {shapes_a}, \
         poses_a {poses_a}, shapes_b {shapes_b}, poses_b {poses_b}"
    )]
    LengthMismatch {
        /// Length of `shapes_a`.
        shapes_a: usize,
        /// Length of `poses_a`.
        poses_a: usize,
        /// Length of `shapes_b`.
        shapes_b: usize,
        /// Length of `poses_b`.
        poses_b: usize,
    },
}
