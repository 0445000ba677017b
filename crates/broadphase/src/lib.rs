//! Dynamic AABB tree and incremental pair tracking.
//!
//! Skeleton: the tree lands with the `broadphase` issue.
