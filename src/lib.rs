//! # widephase
//!
//! An AABB-tree broadphase feeding an eight-lane SIMD GJK narrowphase. This crate
//! holds the pipeline ([`World`]); the parts live in their own crates and are
//! re-exported: [`gjk_core`] (the scalar reference), [`gjk_simd`] (eight pairs per
//! `f32x8`), [`broadphase`] (dynamic AABB tree and pair tracking).
//!
//! ```
//! use widephase::World;
//! use widephase::gjk_core::{Cuboid, Pose, Sphere};
//! use widephase::gjk_core::glam::Vec3;
//!
//! let mut world = World::default();
//! let a = world.add(Cuboid::new(Vec3::ONE)?.into(), Pose::IDENTITY)?;
//! let b = world.add(Sphere::new(0.5)?.into(), Pose::from_translation(Vec3::new(1.75, 0.0, 0.0))?)?;
//! let report = world.step()?;
//! // The ball's bounds overlap the box's, and the narrowphase finds them 0.25 apart.
//! assert_eq!(report.pairs.len(), 1);
//! assert!((report.pairs[0].distance.distance - 0.25).abs() < 1e-5);
//! world.set_pose(b, Pose::from_translation(Vec3::new(1.25, 0.0, 0.0))?)?;
//! assert_eq!(world.step()?.touching().count(), 1);
//! # let _ = a;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

//!
//! Features: `serde` (on by default through `cli`) derives `Serialize` and
//! `Deserialize` for the shapes, poses and query results
//! ([`gjk_core::impl_serde`] gives the format); `parry` converts parry3d's
//! shapes and poses to widephase's and back ([`parry`]); `cli` builds the
//! `widephase` program. A library user who wants none of them takes
//! `default-features = false`.

#![warn(missing_docs)]

pub mod world;

/// parry3d interop (feature `parry`): [`gjk_core::parry`].
#[cfg(feature = "parry")]
pub use gjk_core::parry;

pub use broadphase;
pub use gjk_core;
pub use gjk_simd;
pub use world::{Body, BodyId, PairResult, StepReport, World, WorldError};

/// The README's examples, compiled and run by `cargo test` as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
