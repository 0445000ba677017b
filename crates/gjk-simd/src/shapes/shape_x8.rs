//! The bridge from `gjk_core::Shape` to the wide shapes: filling eight lanes of
//! one kind from scalar shapes (the batch driver's packing).

use gjk_core::Shape;
use wide::f32x8;

use crate::feature_x8::FeatureMapX8;

/// A wide shape the batch driver can fill lane by lane from `gjk_core` shapes.
pub(crate) trait LaneShape: FeatureMapX8 + Default {
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
