//! The queries: boolean GJK, GJK distance, GJK + EPA contact, and contact
//! manifolds built on the contact from the shapes' support features.

pub mod bounds;
mod clip;
pub mod contact;
pub mod epa;
pub mod epa_axial;
pub mod gjk;
pub mod manifold;
pub mod minkowski;
pub mod polytope;
mod reduce;
pub mod simplex;
pub mod status;
