//! Why a batch query was refused.

use std::fmt;

/// Why a batch query was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// The four input slices must have the same length (one entry per pair).
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

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::LengthMismatch {
                shapes_a,
                poses_a,
                shapes_b,
                poses_b,
            } => write!(
                f,
                "batch inputs must have one entry per pair: shapes_a {shapes_a}, \
                 poses_a {poses_a}, shapes_b {shapes_b}, poses_b {poses_b}"
            ),
        }
    }
}

impl std::error::Error for BatchError {}
