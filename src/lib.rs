//! # widephase
//!
//! An AABB-tree broadphase feeding an eight-lane SIMD GJK narrowphase. This crate
//! holds the pipeline ([`World`]: bodies, a persistent pair cache, contact
//! manifolds and contact events); the parts live in their own crates and are
//! re-exported: [`gjk_core`] (the scalar reference), [`gjk_simd`] (eight pairs per
//! `f32x8`), [`broadphase`] (dynamic AABB tree and pair tracking).
//!
//! ```
//! use widephase::{World, WorldConfig, ContactEventKind};
//! use widephase::gjk_core::{Cuboid, Pose, Sphere};
//! use widephase::gjk_core::glam::Vec3;
//!
//! let mut world = World::with_config(WorldConfig { prediction: 0.1, ..Default::default() })?;
//! let floor = world.add(Cuboid::new(Vec3::new(5.0, 0.5, 5.0))?.into(), Pose::IDENTITY)?;
//! let ball = world.add(Sphere::new(0.5)?.into(), Pose::from_translation(Vec3::new(0.0, 1.05, 0.0))?)?;
//! // 0.05 above the floor: a speculative contact, not yet touching.
//! let report = world.step()?;
//! assert_eq!(report.manifolds.len(), 1);
//! assert!((report.manifolds[0].manifold.max_depth() + 0.05).abs() < 1e-5);
//! assert_eq!(report.touching().count(), 0);
//! // Sunk 0.01 into it: the contact begins.
//! world.set_pose(ball, Pose::from_translation(Vec3::new(0.0, 0.99, 0.0))?)?;
//! let report = world.step()?;
//! assert_eq!(report.events[0].kind, ContactEventKind::Began);
//! # let _ = floor;
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
pub use world::{
    Body, BodyId, CandidatePair, CollisionFilter, ContactEvent, ContactEventKind, PairFilter,
    PairManifold, PairResult, StepReport, World, WorldConfig, WorldError,
};

/// The README's examples, compiled and run by `cargo test` as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
