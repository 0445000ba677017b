//! Eight-lane math in structure-of-arrays form: one `f32x8` per component, lane `i`
//! of every component belonging to pair `i`.
//!
//! Operators mirror `glam` so that wide code reads like the scalar code it mirrors.
//! Products of sums (`dot`, `cross`, matrix products) are written with fused
//! multiply-adds in one fixed order: every lane runs exactly the same instruction
//! sequence, which is what makes a lane's result independent of its neighbours.

mod mask8;
mod mat3x8;
mod posex8;
mod quatx8;
mod vec3x8;

pub use mask8::{CmpX8, Mask8, SelectX8};
pub use mat3x8::Mat3x8;
pub use posex8::PoseX8;
pub use quatx8::QuatX8;
pub use vec3x8::Vec3x8;
/// Re-export of the lane type every component is made of.
pub use wide::f32x8;
