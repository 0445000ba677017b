//! The error type shared by every fallible operation of the crate.

use std::fmt;

/// Why an operation of this crate was refused.
///
/// Bad input never panics: it comes back as one of these variants, and the structure
/// it was applied to is left unchanged, except by the batch operations that say
/// otherwise (`Broadphase::move_proxies` applies the valid moves of a batch and
/// reports the first refused one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A coordinate (or a margin) was NaN.
    NanCoordinate,
    /// A coordinate (or a margin, or the result of growing a box) was infinite.
    InfiniteCoordinate,
    /// `min > max` on the given axis (0 = x, 1 = y, 2 = z).
    InvertedBox {
        /// The first axis on which `min > max`.
        axis: usize,
    },
    /// A margin or a ray length was negative.
    NegativeValue,
    /// The handle does not name a live entry: it was removed, its slot was reused, or
    /// it never came from this structure.
    StaleHandle,
    /// The structure would need more than `u32::MAX - 1` entries.
    CapacityExceeded,
    /// A caller's per-slot table does not have one entry per proxy slot
    /// ([`Broadphase::move_proxies_in`](crate::Broadphase::move_proxies_in)).
    SlotTableLength {
        /// The broadphase's slot count.
        expected: usize,
        /// The table's length.
        found: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NanCoordinate => write!(f, "box or margin has a NaN coordinate"),
            Error::InfiniteCoordinate => write!(f, "box or margin has an infinite coordinate"),
            Error::InvertedBox { axis } => {
                write!(f, "inverted box: min > max on axis {axis}")
            }
            Error::NegativeValue => write!(f, "negative margin or ray length"),
            Error::StaleHandle => write!(f, "stale or foreign handle"),
            Error::CapacityExceeded => write!(f, "more than u32::MAX - 1 entries"),
            Error::SlotTableLength { expected, found } => {
                write!(f, "slot table has {found} entries for {expected} slots")
            }
        }
    }
}

impl std::error::Error for Error {}
