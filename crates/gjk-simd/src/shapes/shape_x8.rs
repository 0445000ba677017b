//! The wide support-mapping trait.

use gjk_core::Shape;
use wide::f32x8;

use crate::math::{Mask8, Vec3x8};

/// Eight convex shapes of one kind described by their support mappings, split into
/// core and margin like [`gjk_core::SupportMap`].
pub trait SupportMapX8 {
    /// Whether every lane's core is the single point at the local origin (balls):
    /// the kernels then skip the support call and the rotation of directions into
    /// this shape's frame. The results are the same as with the general path.
    const POINT_CORE: bool = false;

    /// Per lane, the point of the core farthest along `dir` (local coordinates).
    /// Only lanes in `active` need a meaningful answer: costly supports (hulls) skip
    /// the rest, and the caller ignores what they return.
    fn support_core(&self, dir: Vec3x8, active: Mask8) -> Vec3x8;

    /// Radius of the ball each core is dilated by.
    fn margin(&self) -> f32x8 {
        f32x8::ZERO
    }

    /// Radius of a ball about the local origin containing the whole shape, margin
    /// included (the tolerances scale with it).
    fn bounding_radius(&self) -> f32x8;

    /// Lanes whose shape data is finite (the kernels report the others as invalid
    /// input instead of iterating on NaN).
    fn finite(&self) -> Mask8;
}

/// A wide shape the batch driver can fill lane by lane from `gjk_core` shapes.
pub(crate) trait LaneShape: SupportMapX8 + Default {
    /// Fills the eight lanes from shapes of this kind, already stripped of any
    /// `Rounded` wrapper. Lanes past the end of a short batch repeat lane 0's
    /// shape (they are not queried).
    fn pack(&mut self, shapes: &[&Shape; 8]);
}

/// The `(half_height, radius)` rows of eight axial shapes (capsules, cylinders,
/// cones), read by `dims`; a lane whose shape `dims` does not take stays zero.
#[inline(always)]
pub(crate) fn pack_axial(
    shapes: &[&Shape; 8],
    dims: impl Fn(&Shape) -> Option<(f32, f32)>,
) -> (f32x8, f32x8) {
    let (mut h, mut r) = ([0.0f32; 8], [0.0f32; 8]);
    for (k, s) in shapes.iter().enumerate() {
        if let Some(d) = dims(s) {
            (h[k], r[k]) = d;
        }
    }
    (f32x8::new(h), f32x8::new(r))
}
