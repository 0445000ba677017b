//! # gjk-core: the scalar reference narrowphase of widephase
//!
//! Support-mapped convex shapes ([`Sphere`], [`Cuboid`], [`Capsule`], [`Cylinder`],
//! [`Cone`], [`ConvexHull`], [`Rounded`]) and the three classic queries:
//! [`intersects`] (boolean GJK), [`distance`] (GJK with closest points) and
//! [`contact`] (GJK + EPA penetration depth), and the [`contact_manifold`] a
//! rigid-body solver needs (up to four points with stable feature ids). Everything is computed in A's frame
//! with B's pose relative to it; the normal points from A to B. Every shape also
//! gives its exact world bounds at a pose ([`SupportMap::aabb`], closed forms), what
//! a broadphase needs for each moving body.
//!
//! Clarity and robustness come first: this crate is the oracle that the SIMD crate
//! is tested against. Shapes and poses validate on construction, every loop is
//! capped and reports how it ended, and all tolerances live in [`tolerance`].
//!
//! **Touching.** Two shapes closer than [`tolerance::TOUCH_TOLERANCE`] times the
//! sum of their bounding radii (two ulps of it) touch, and touching counts as
//! intersecting: `intersects` is true, `distance` is 0, `contact` reports a depth
//! in `[-tolerance, 0]`. The bound is what the arithmetic resolves in the pair's
//! frame, where every query runs: B's pose relative to A's is computed (in f64)
//! from one subtraction of the translations, so the pair's place in the world
//! does not enter, and each position then carries at most about an ulp of that
//! scale. Any gap above it is reported, unless GJK stalls on it with no plane
//! showing the shapes apart, within four times the bound
//! ([`tolerance::STALL_TOUCHING`]): they then touch.
//!
//! ```
//! use gjk_core::{Cuboid, Pose, Sphere, contact, distance, intersects};
//! use glam::{Quat, Vec3};
//!
//! let ball = Sphere::new(0.5)?;
//! let crate_ = Cuboid::new(Vec3::splat(1.0))?;
//! let at = |x: f32| Pose::new(Quat::IDENTITY, Vec3::new(x, 0.0, 0.0)).unwrap();
//!
//! // Ball centre 3 units from the box centre: 3 - 1 - 0.5 = 1.5 apart.
//! let d = distance(&crate_, &at(0.0), &ball, &at(3.0));
//! assert!((d.distance - 1.5).abs() < 1e-5);
//! assert!(!intersects(&crate_, &at(0.0), &ball, &at(3.0)));
//!
//! // Ball centre 1.25 from the box centre: 0.25 deep, pushed out along +X.
//! let c = contact(&crate_, &at(0.0), &ball, &at(1.25), 0.0).unwrap();
//! assert!((c.depth - 0.25).abs() < 1e-5);
//! assert!((c.normal - Vec3::X).length() < 1e-5);
//!
//! // The box's world bounds, turned a quarter about z: still the unit cube.
//! use gjk_core::SupportMap;
//! let turned = Pose::new(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2), Vec3::ZERO).unwrap();
//! let b = crate_.aabb(&turned);
//! assert!((b.max - Vec3::ONE).abs().max_element() < 1e-6);
//! # Ok::<(), gjk_core::ShapeError>(())
//! ```

#![warn(missing_docs)]

pub mod error;
pub mod feature;
#[cfg(feature = "serde")]
pub mod impl_serde;
pub mod math;
#[cfg(feature = "parry")]
pub mod parry;
pub mod query;
pub mod shapes;
pub mod support;
pub mod tolerance;

pub use error::{PoseError, ShapeError};
pub use feature::{Feature, FeatureId, FeatureKind};
/// Re-export of the math library the API is written in.
pub use glam;
pub use math::{Aabb, Pose};
pub use query::contact::{Contact, contact};
pub use query::gjk::{Distance, Intersection, distance, intersection, intersects};
pub use query::manifold::{
    ContactId, Manifold, ManifoldPoint, ManifoldScratch, contact_manifold, manifold_from_contact,
};
pub use query::minkowski::SupportPoint;
pub use query::status::Status;
pub use shapes::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Shape, ShapeKind, Sphere};
pub use support::{CoreSymmetry, SupportMap};
