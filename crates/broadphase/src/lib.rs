//! Broadphase collision detection for widephase: a dynamic AABB tree and an
//! incremental pair manager.
//!
//! - [`Aabb`]: boxes that are valid by construction (no NaN, no infinities, no
//!   inverted boxes; bad input is an [`Error`], never a panic).
//! - [`DynamicTree`]: an arena-backed binary AABB tree with surface-area insertion
//!   (branch-and-bound sibling search), rotations, removal, exact or grow-only in-place
//!   refit, a binned SAH rebuild that lays nodes out depth-first, box and ray queries,
//!   all pairs from scratch (through an implicit 8-ary `f32x8` tree whose buckets are
//!   the tree's small subtrees, cheap to build per call), and `validate()`. No
//!   recursion anywhere: every traversal uses an explicit heap stack.
//! - [`Broadphase`]: proxies with user data and fat boxes; moves that stay within the
//!   fat box cost a containment test ([`Broadphase::move_proxies`] runs those tests in
//!   parallel for a whole frame's moves, and [`Broadphase::move_proxies_with`] also
//!   makes each new box there, with the caller's function, from the proxy's user
//!   data); [`Broadphase::update`] queries the tree only for
//!   proxies that left their fat boxes (in parallel with rayon) and reports the pairs
//!   that began and ended, in a deterministic order.
//! - [`reference::overlapping_pairs`]: every overlapping pair by sort and sweep, the
//!   reference the tests and the main job check the tree and the broadphase against.
//!
//! Which boxes each operation uses (tight = as given, fat = grown by a margin) is
//! spelled out in the [`Broadphase`] documentation. In short: the tree and the pair set
//! use fat boxes, [`Broadphase::query`] and [`Broadphase::ray_cast`] report by tight
//! boxes, and [`DynamicTree::overlapping_pairs`] uses whatever boxes the tree holds.
//!
//! ```
//! use broadphase::{Aabb, Broadphase};
//! use glam::Vec3;
//!
//! let cube = |c: Vec3| Aabb::from_center_half_extents(c, Vec3::splat(0.5)).unwrap();
//! let mut bp = Broadphase::new();
//! let a = bp.insert(cube(Vec3::ZERO), "ground crate").unwrap();
//! let b = bp.insert(cube(Vec3::new(0.9, 0.0, 0.0)), "falling crate").unwrap();
//! let far = bp.insert(cube(Vec3::splat(50.0)), "far away").unwrap();
//!
//! let changes = bp.update();
//! assert_eq!(changes.began.len(), 1);
//! assert_eq!((changes.began[0].a, changes.began[0].b), (a, b));
//!
//! // Small moves inside the fat box touch nothing.
//! assert_eq!(bp.move_proxy(b, cube(Vec3::new(0.95, 0.0, 0.0))), Ok(false));
//! // A teleport leaves the fat box: the pair ends at the next update.
//! assert_eq!(bp.move_proxy(b, cube(Vec3::new(50.5, 50.0, 50.0))), Ok(true));
//! let changes = bp.update();
//! assert_eq!(changes.ended.len(), 1);
//! assert_eq!(changes.began.len(), 1); // b now overlaps `far`
//! assert_eq!(bp.pairs().collect::<Vec<_>>(), bp.pairs_from_scratch());
//! assert_eq!(*bp.data(far).unwrap(), "far away");
//!
//! // Bad input is an error, not a panic.
//! assert!(Aabb::new(Vec3::NAN, Vec3::ONE).is_err());
//! bp.remove(a).unwrap();
//! assert!(bp.remove(a).is_err());
//! ```

// `deny`, not `forbid`: the one `unsafe` block, a prefetch hint (`prefetch.rs`),
// opts out locally with its SAFETY note.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod aabb;
mod broadphase;
mod error;
mod prefetch;
mod ray;
pub mod reference;
#[cfg(test)]
mod test_support;
mod tree;

pub use aabb::Aabb;
pub use broadphase::{Broadphase, BroadphaseConfig, Pair, PairChanges, ProxyId};
pub use error::Error;
pub use ray::Ray;
pub use tree::{DynamicTree, LeafId};
