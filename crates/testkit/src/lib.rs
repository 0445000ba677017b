//! Seeded workloads and parry3d conversions shared by widephase's tests and benches.
//!
//! Not part of the public API. Every generator takes a seed and is deterministic, so
//! a failing case can be replayed from the seed and index a test prints.
//!
//! ```
//! let pairs = testkit::standard_pairs(testkit::PairKind::BallBall, 64, 1);
//! assert_eq!(pairs.len(), 64);
//! ```

pub mod oracle;
#[cfg(feature = "parry")]
pub mod parry;
pub mod workload;

pub use workload::{Pair, PairKind, random_pairs, standard_pairs};
