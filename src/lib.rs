//! widephase: an AABB-tree broadphase feeding an eight-lane SIMD GJK narrowphase.
pub use broadphase;
pub use gjk_core;
pub use gjk_simd;
