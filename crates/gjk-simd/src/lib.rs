//! GJK on eight shape pairs at once, one pair per `f32x8` lane.
//!
//! Skeleton: the wide kernels land with the `gjk-simd` issue.
