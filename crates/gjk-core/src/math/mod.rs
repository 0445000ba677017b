//! The scalar math the queries are written in, beside `glam`: rigid poses and
//! axis-aligned boxes. `gjk-simd`'s `math` holds their eight-lane twins.

mod aabb;
mod pose;

pub use aabb::Aabb;
pub use pose::Pose;
