//! The queries: boolean GJK, GJK distance, and GJK + EPA contact.

pub mod bounds;
pub mod contact;
pub mod epa;
pub mod epa_axial;
pub mod gjk;
pub mod minkowski;
pub mod simplex;
pub mod status;
