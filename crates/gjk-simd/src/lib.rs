//! # gjk-simd: GJK on eight shape pairs at once, one pair per `f32x8` lane
//!
//! The same questions as [`gjk_core`] — do two convex shapes intersect, how far
//! apart are they and where are the closest points, how deep do they overlap and
//! along which normal — answered for eight pairs per instruction stream, in structure-of-arrays form on [`wide::f32x8`], with
//! `gjk-core`'s tolerances and iteration cap (imported from
//! [`gjk_core::tolerance`]).
//!
//! The layout mirrors `gjk-core`'s: each wide item is its scalar twin's name with
//! `X8` (types) or `_x8` (files) appended, in the parallel folder.
//!
//! * [`math`]: [`Vec3X8`], [`QuatX8`], [`Mat3X8`], [`PoseX8`] and the named lane
//!   mask [`MaskX8`].
//! * [`support_x8`]: the [`SupportMapX8`] trait; supports take the active-lane
//!   mask.
//! * [`shapes`]: the wide twins of the scalar shapes ([`SphereX8`], [`CuboidX8`],
//!   [`CapsuleX8`], [`CylinderX8`], [`ConeX8`], [`RoundedX8`], [`ConvexHullX8`]).
//! * [`query`]: [`intersects_x8`], [`distance_x8`] and [`contact_x8`], generic over
//!   the two wide shape types (monomorphized per kind pair, no per-lane
//!   branching; the contact's EPA expands one polytope per lane); the
//!   bounding-ball verdicts ([`query::bounds_x8`]); and the wide-only tests that
//!   decide a pair without GJK: separating axes for box pairs
//!   ([`query::separating_axes_x8`]) and closed forms for sphere and capsule cores
//!   ([`query::closed_forms_x8`]).
//! * [`batch`]: [`intersects_batch`], [`distance_batch`] and [`contact_batch`] take
//!   any number of `gjk_core::Shape` pairs, answer the pairs that bounding balls
//!   (or for box pairs separating axes) decide, bucket the rest by kind pair, run
//!   the kernels (on rayon or sequentially) and return results in input order,
//!   each bit-identical to what the pair gets alone (the `_with` variants set the
//!   options).
//!
//! ```
//! use gjk_core::{Cuboid, Pose, Shape, Sphere};
//! use gjk_core::glam::{Quat, Vec3};
//! use gjk_simd::{Parallelism, distance_batch, intersects_batch};
//!
//! let ball: Shape = Sphere::new(0.5)?.into();
//! let crate_: Shape = Cuboid::new(Vec3::splat(1.0))?.into();
//! let at = |x: f32| Pose::new(Quat::IDENTITY, Vec3::new(x, 0.0, 0.0)).unwrap();
//!
//! // Ten pairs of mixed kinds: a box and a ball moving away along +X.
//! let shapes_a: Vec<&Shape> = (0..10).map(|i| if i % 2 == 0 { &crate_ } else { &ball }).collect();
//! let shapes_b = vec![&ball; 10];
//! let poses_a = vec![at(0.0); 10];
//! let poses_b: Vec<Pose> = (0..10).map(|i| at(i as f32 * 0.5)).collect();
//!
//! let hits = intersects_batch(&shapes_a, &poses_a, &shapes_b, &poses_b, Parallelism::Sequential)?;
//! let dist = distance_batch(&shapes_a, &poses_a, &shapes_b, &poses_b, Parallelism::default())?;
//! // Pair 4: box centre at 0, ball centre at 2: 2 - 1 - 0.5 = 0.5 apart.
//! assert!(!hits[4].intersecting);
//! assert!((dist[4].distance - 0.5).abs() < 1e-5);
//! // Pair 3: two balls 1.5 apart, radii 0.5 each: 0.5 apart.
//! assert!((dist[3].distance - 0.5).abs() < 1e-5);
//! assert!(hits[1].intersecting && dist[1].distance == 0.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod batch;
pub mod feature_x8;
pub mod math;
pub mod query;
pub mod shapes;
pub mod support_x8;

pub use batch::{
    BatchError, BatchOptions, PairContact, Parallelism, contact_batch, contact_batch_with,
    distance_batch, distance_batch_with, intersects_batch, intersects_batch_with, manifold_batch,
    manifold_batch_with, pair_contact_batch_with,
};
pub use feature_x8::{FeatureMapX8, FeatureX8};
pub use math::{CmpX8, MaskX8, Mat3X8, PoseX8, QuatX8, SelectX8, Vec3X8};
pub use query::bounds_x8::{BoundsVerdictX8, ball_tests_x8, box_ball_tests_x8, box_box_overlap_x8};
pub use query::closed_forms_x8::{
    SegmentCoreX8, segments_contact_x8, segments_distance_x8, segments_intersect_x8,
};
pub use query::contact_x8::{ContactX8, contact_x8};
pub use query::gjk_x8::{DistanceX8, IntersectionX8, distance_x8, intersects_x8};
pub use query::manifold_x8::{ScalarLanes, manifold_x8};
pub use query::separating_axes_x8::{SatVerdictX8, cuboids_sat_x8};
pub use shapes::{CapsuleX8, ConeX8, ConvexHullX8, CuboidX8, CylinderX8, RoundedX8, SphereX8};
pub use support_x8::SupportMapX8;
