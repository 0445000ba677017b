//! Wide twins of the scalar shapes (`Sphere` / `SphereX8` in `sphere.rs` /
//! `sphere_x8.rs`, and so on): eight shapes of one kind, one per lane, each lane
//! with its own sizes.
//!
//! As in `gjk-core`, every shape is a *core* dilated by a *margin*; the kernels run
//! GJK on the cores and add the margins analytically.

mod capsule_x8;
mod cone_x8;
mod convex_hull_x8;
mod cuboid_x8;
mod cylinder_x8;
mod rounded_x8;
mod shape_x8;
mod sphere_x8;

pub use capsule_x8::CapsuleX8;
pub use cone_x8::ConeX8;
pub use convex_hull_x8::ConvexHullX8;
pub use cuboid_x8::CuboidX8;
pub use cylinder_x8::CylinderX8;
pub use rounded_x8::RoundedX8;
pub(crate) use shape_x8::LaneShape;
pub use sphere_x8::SphereX8;

use gjk_core::ShapeError;
use gjk_core::error::check_size;
use wide::f32x8;

use crate::math::Vec3X8;

/// Checks every lane of a size as gjk-core's constructors check one (finite,
/// `>= 0`, at most `MAX_SIZE`), the error naming the wide shape and the field.
pub(crate) fn check_lanes(
    shape: &'static str,
    field: &'static str,
    v: f32x8,
) -> Result<f32x8, ShapeError> {
    for &x in v.as_array() {
        check_size(shape, field, x)?;
    }
    Ok(v)
}

/// `+h` where `d >= 0` (and for `-0.0`), `-h` where `d < 0`: the support of an
/// interval `[-h, h]` along `d`, with the same tie rule as `gjk-core` (a zero
/// direction picks the positive end, keeping results deterministic).
#[inline(always)]
pub(crate) fn signed_extent(d: f32x8, h: f32x8) -> f32x8 {
    use crate::math::CmpX8;
    d.lt(f32x8::ZERO).select(-h, h)
}

/// The point of a disc of radius `r` in the XZ plane farthest along `dir`: on the
/// rim towards `dir`'s XZ part, or the centre when `dir` is parallel to Y.
#[inline(always)]
pub(crate) fn disc_support(dir: Vec3X8, r: f32x8) -> Vec3X8 {
    use crate::math::CmpX8;
    let xz_len = dir.z.mul_add(dir.z, dir.x * dir.x).sqrt();
    // The unit XZ direction first, then the radius: `r / xz_len` overflows for a
    // large disc and a direction a hair off the axis (whose squares are
    // subnormal), where `dir.x / xz_len` stays within rounding of 1.
    let inv = f32x8::ONE / xz_len;
    // Every division is computed; the lanes where it is meaningless are selected
    // away (a zero XZ part gives 0 × inf here).
    let on_rim = xz_len.gt(f32x8::ZERO);
    Vec3X8::new(
        on_rim.select(dir.x * inv * r, f32x8::ZERO),
        f32x8::ZERO,
        on_rim.select(dir.z * inv * r, f32x8::ZERO),
    )
}
