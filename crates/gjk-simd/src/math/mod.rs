//! Eight-lane math in structure-of-arrays form: one `f32x8` per component, lane `i`
//! of every component belonging to pair `i`.
//!
//! Operators mirror `glam` so that wide code reads like the scalar code it mirrors.
//! Products of sums (`dot`, `cross`, matrix products) are written with fused
//! multiply-adds in one fixed order: every lane runs exactly the same instruction
//! sequence, which is what makes a lane's result independent of its neighbours.

mod glam_rounding_x8;
mod mask_x8;
mod mat3_x8;
mod pose_x8;
mod quat_x8;
mod vec3_x8;

pub use mask_x8::{CmpX8, MaskX8, SelectX8};
pub use mat3_x8::Mat3X8;
pub use pose_x8::PoseX8;
pub use quat_x8::QuatX8;
pub use vec3_x8::Vec3X8;
/// Re-export of the lane type every component is made of.
pub use wide::f32x8;
