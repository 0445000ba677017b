//! The configuration space obstacle `core(A) - core(B)` of eight pairs, in A's
//! frame: the wide twin of `gjk_core::query::minkowski`, and the pair frame every
//! wide kernel starts from.

use crate::math::{CmpX8, MaskX8, Mat3X8, PoseX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// The Minkowski difference `core(A) - core(B)` of eight pairs, B in A's frame.
pub(crate) struct MinkowskiX8<'s, A, B> {
    a: &'s A,
    b: &'s B,
    /// Rotation from B's frame to A's frame (its transpose is the inverse).
    b_to_a: Mat3X8,
    /// B's origin in A's frame.
    offset: Vec3X8,
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
        let m = MinkowskiX8 {
            a,
            b,
            b_to_a,
            offset,
        };
        (m, valid)
    }

    /// B's origin in A's frame.
    #[inline(always)]
    pub(crate) fn offset(&self) -> Vec3X8 {
        self.offset
    }

    /// The rotation from B's frame to A's.
    #[inline(always)]
    pub(crate) fn b_to_a(&self) -> Mat3X8 {
        self.b_to_a
    }

    /// The same pairs with B moved by `by` (in A's frame).
    #[inline(always)]
    pub(crate) fn shifted(&self, by: Vec3X8) -> Self {
        MinkowskiX8 {
            a: self.a,
            b: self.b,
            b_to_a: self.b_to_a,
            offset: self.offset + by,
        }
    }

    /// The support point `w = a - b` of the difference along `dir`, with the core
    /// point `a` of A (A's frame) that produced it (B's is `a - w`).
    #[inline(always)]
    pub(crate) fn support(&self, dir: Vec3X8, active: MaskX8) -> (Vec3X8, Vec3X8) {
        let a = if A::POINT_CORE {
            Vec3X8::ZERO
        } else {
            self.a.support_core(dir, active)
        };
        // A point core's support is its centre whatever the direction: R·0 + t = t.
        let b = if B::POINT_CORE {
            self.offset
        } else {
            let b_local = self
                .b
                .support_core(self.b_to_a.transpose_mul_vec3(-dir), active);
            self.b_to_a.mul_vec3(b_local) + self.offset
        };
        (a - b, a)
    }
}

/// B in A's frame for eight pairs: the rotation taking B's frame to A's, B's
/// origin in A's frame, and the lanes of `lanes` whose inputs (both poses, both
/// shapes with their margins and scale) and relative pose are all finite. Every
/// kernel starts here (GJK, the closed forms, the separating axes).
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
        & offset.finite()
        & shapes_finite(a, b);
    (b_to_a, offset, valid)
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
