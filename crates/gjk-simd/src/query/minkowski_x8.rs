//! The configuration space obstacle `core(A) - core(B)` of eight pairs, in A's
//! frame: the wide twin of `gjk_core::query::minkowski`, and the pair frame every
//! wide kernel starts from.

use gjk_core::tolerance::{MAX_OFFSET, UNSCALED_BAND_X8};
use wide::bytemuck::cast;
use wide::{f32x8, i32x8};

use crate::math::{CmpX8, MaskX8, Mat3X8, PoseX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// The Minkowski difference `core(A) - core(B)` of eight pairs, B in A's frame,
/// each lane scaled by its own power of two (see [`MinkowskiX8::scale`]).
pub(crate) struct MinkowskiX8<'s, A, B> {
    a: &'s A,
    b: &'s B,
    /// Rotation from B's frame to A's frame (its transpose is the inverse).
    b_to_a: Mat3X8,
    /// B's origin in A's frame, scaled.
    offset: Vec3X8,
    /// Each lane's scale: 1 where the pair's size is within
    /// [`UNSCALED_BAND_X8`] of 1, else the power of two that brings it to `[1, 2)`.
    scale: f32x8,
    /// Whether any lane's scale differs from 1 (a uniform branch in `support`).
    scaled: bool,
}

impl<'s, A: SupportMapX8, B: SupportMapX8> MinkowskiX8<'s, A, B> {
    /// The pairs set up in A's frame ([`pair_frame`]), with the lanes of `lanes`
    /// whose input is finite.
    #[inline(always)]
    pub(crate) fn new(
        a: &'s A,
        pose_a: &PoseX8,
        b: &'s B,
        pose_b: &PoseX8,
        lanes: MaskX8,
    ) -> (Self, MaskX8) {
        let (b_to_a, offset, valid) = pair_frame(a, pose_a, b, pose_b, lanes);
        let size = offset
            .abs()
            .max_element()
            .fast_max(a.bounding_radius() + b.bounding_radius());
        let scale = valid.select(pair_scale(size), f32x8::ONE);
        let scaled = !scale.same(f32x8::ONE).all();
        let m = MinkowskiX8 {
            a,
            b,
            b_to_a,
            offset: if scaled { offset * scale } else { offset },
            scale,
            scaled,
        };
        (m, valid)
    }

    /// B's origin in A's frame, scaled.
    #[inline(always)]
    pub(crate) fn offset(&self) -> Vec3X8 {
        self.offset
    }

    /// B's origin in A's frame, unscaled (scaling by a power of two is undone
    /// exactly).
    #[inline(always)]
    pub(crate) fn unscaled_offset(&self) -> Vec3X8 {
        if self.scaled {
            self.offset * (f32x8::ONE / self.scale)
        } else {
            self.offset
        }
    }

    /// The two shapes.
    #[inline(always)]
    pub(crate) fn shapes(&self) -> (&'s A, &'s B) {
        (self.a, self.b)
    }

    /// The rotation from B's frame to A's.
    #[inline(always)]
    pub(crate) fn b_to_a(&self) -> Mat3X8 {
        self.b_to_a
    }

    /// The same pairs, with the same scale, and B moved by `by` (in A's frame,
    /// unscaled).
    #[inline(always)]
    pub(crate) fn shifted(&self, by: Vec3X8) -> Self {
        MinkowskiX8 {
            a: self.a,
            b: self.b,
            b_to_a: self.b_to_a,
            offset: if self.scaled {
                by.mul_add(self.scale, self.offset)
            } else {
                self.offset + by
            },
            scale: self.scale,
            scaled: self.scaled,
        }
    }

    /// Each lane's scale: every support point is multiplied by it, and every
    /// length the kernel compares them with must be too; results are divided by
    /// it. A power of two, so scaling is exact wherever nothing overflows or
    /// underflows, and a lane whose pair is of moderate size (within
    /// [`UNSCALED_BAND_X8`] of 1) has scale 1: its arithmetic is exactly the
    /// unscaled one whatever the other lanes hold.
    ///
    /// The f32 simplex solve forms products of up to six lengths (the flatness
    /// tests); a pair posed 1e30 apart, or of size 1e-30, would overflow or
    /// underflow them, and its `|v|²` alone overflows beyond 1.8e19. Scaled to
    /// size one, every pair f32 can pose is solved as well as a unit pair.
    #[inline(always)]
    pub(crate) fn scale(&self) -> f32x8 {
        self.scale
    }

    /// The support point `w = a - b` of the difference along `dir`, with the core
    /// point `a` of A (A's frame) that produced it (B's is `a - w`).
    #[inline(always)]
    pub(crate) fn support(&self, dir: Vec3X8, active: MaskX8) -> (Vec3X8, Vec3X8) {
        let mut a = if A::POINT_CORE {
            Vec3X8::ZERO
        } else {
            self.a.support_core(dir, active)
        };
        if self.scaled && !A::POINT_CORE {
            a = a * self.scale;
        }
        // A point core's support is its centre whatever the direction: R·0 + t = t.
        let b = if B::POINT_CORE {
            self.offset
        } else {
            let b_local = self
                .b
                .support_core(self.b_to_a.transpose_mul_vec3(-dir), active);
            let turned = self.b_to_a.mul_vec3(b_local);
            if self.scaled {
                turned * self.scale + self.offset
            } else {
                turned + self.offset
            }
        };
        (a - b, a)
    }
}

/// B in A's frame for eight pairs: the rotation taking B's frame to A's, B's
/// origin in A's frame, and the lanes of `lanes` whose inputs (both poses, both
/// shapes with their margins and scale) are finite and whose offset is finite
/// and at most [`MAX_OFFSET`] long (as gjk-core checks). Every kernel starts here (GJK, the closed forms, the separating axes).
#[inline(always)]
pub(crate) fn pair_frame<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    lanes: MaskX8,
) -> (Mat3X8, Vec3X8, MaskX8) {
    // B's orientation only matters for a core that is not a point.
    let (b_to_a, offset) = if B::POINT_CORE {
        (Mat3X8::IDENTITY, pose_a.relative_translation(pose_b))
    } else {
        let rel = pose_a.relative(pose_b);
        (rel.rotation_matrix(), rel.translation)
    };
    let valid = lanes
        & pose_a.finite()
        & pose_b.finite()
        & b_to_a.finite()
        & offset_in_range(offset)
        & shapes_finite(a, b);
    (b_to_a, offset, valid)
}

/// Lanes whose offset between the pair's origins is finite and at most
/// [`MAX_OFFSET`] long (gjk-core's test; a length does not depend on the frame).
/// The length is taken of the offset scaled by 2^-64, whose square stays in
/// range.
#[inline(always)]
pub(crate) fn offset_in_range(offset: Vec3X8) -> MaskX8 {
    let down = f32x8::splat(2f32.powi(-64));
    let limit = f32x8::splat(MAX_OFFSET) * down;
    offset.finite() & (offset * down).length_squared().le(limit * limit)
}

/// Per lane, 1 where `size` lies within [`UNSCALED_BAND_X8`] of 1, else the power
/// of two `s` with `size · s` in `[1, 2)` (`2^127` for zero and subnormal sizes,
/// which it brings into the normal range). From the exponent bits of `size`:
/// `s = 2^(127 - e)` has the biased exponent `254 - e`.
#[inline(always)]
pub(crate) fn pair_scale(size: f32x8) -> f32x8 {
    let exponent = cast::<f32x8, i32x8>(size) & i32x8::splat(0x7F80_0000);
    let power: f32x8 = cast(i32x8::splat(0x7F00_0000) - exponent);
    let band = f32x8::splat(UNSCALED_BAND_X8);
    let moderate = size.ge(f32x8::ONE / band) & size.le(band);
    moderate.select(f32x8::ONE, power)
}

/// The lanes where both shapes' data, margins and bounding radii (and their sum,
/// the tolerances' scale) are finite: the shape half of every kernel's input
/// check.
#[inline(always)]
pub(crate) fn shapes_finite<A: SupportMapX8, B: SupportMapX8>(a: &A, b: &B) -> MaskX8 {
    a.finite()
        & b.finite()
        & a.margin().finite()
        & b.margin().finite()
        & (a.bounding_radius() + b.bounding_radius()).finite()
}
