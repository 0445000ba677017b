//! The seeded workloads widephase is measured and tested on: random convex shapes
//! of every kind, the broadphase's random boxes, the "standard pairs" of the
//! benches, boxes resting on boxes, random pair sets at a chosen density, the main
//! job's scene shapes, and (feature `parry`) conversions of shapes and poses to
//! parry3d's, for comparisons in the same run.
//!
//! Every generator takes a seed and is deterministic, so a failing case can be
//! replayed from the seed and index a test prints. [`oracle`] holds closed-form
//! point-to-shape distances in f64, an answer independent of GJK for judging
//! disagreements.
//!
//! ```
//! let pairs = workloads::standard_pairs(workloads::PairKind::BallBall, 64, 1);
//! assert_eq!(pairs.len(), 64);
//! ```

pub mod boxes;
pub mod oracle;
#[cfg(feature = "parry")]
pub mod parry;
pub mod resting;
pub mod workload;

pub use workload::{Pair, PairKind, random_pairs, standard_pairs};
