//! The configuration space obstacle `A - B`, evaluated in A's frame.

use glam::{Mat3, Vec3};

use crate::math::Pose;
use crate::support::SupportMap;

/// A point of the Minkowski difference of the two *cores*, with the support points
/// of A and B (both in A's frame) that produced it; the queries need them to
/// recover witness points.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SupportPoint {
    /// `a - b`.
    pub w: Vec3,
    /// The point of A's core.
    pub a: Vec3,
    /// The point of B's core, in A's frame.
    pub b: Vec3,
}

/// Support mapping of `core(A) - core(B)` with B expressed in A's frame.
pub(crate) struct Minkowski<'s, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    /// Rotation from B's frame to A's frame, and its inverse.
    b_to_a: Mat3,
    a_to_b: Mat3,
    /// B's origin in A's frame.
    pub offset: Vec3,
    hint_a: u32,
    hint_b: u32,
}

impl<'s, A: SupportMap + ?Sized, B: SupportMap + ?Sized> Minkowski<'s, A, B> {
    #[inline]
    pub fn new(a: &'s A, pose_a: &Pose, b: &'s B, pose_b: &Pose) -> Self {
        let rel = pose_a.relative(pose_b);
        let b_to_a = rel.rotation_matrix();
        Self {
            a,
            b,
            b_to_a,
            a_to_b: b_to_a.transpose(),
            offset: rel.translation(),
            hint_a: 0,
            hint_b: 0,
        }
    }

    /// The point of `core(A) - core(B)` farthest along `dir`.
    #[inline]
    pub fn support(&mut self, dir: Vec3) -> SupportPoint {
        let a = self.a.support_core_hinted(dir, &mut self.hint_a);
        let b_local = self
            .b
            .support_core_hinted(self.a_to_b * -dir, &mut self.hint_b);
        let b = self.b_to_a * b_local + self.offset;
        SupportPoint { w: a - b, a, b }
    }

    /// Sum of the two margins: the cores' distance minus this is the shapes'.
    #[inline]
    pub fn margins(&self) -> (f32, f32) {
        (self.a.margin(), self.b.margin())
    }

    /// The length scale tolerances are relative to.
    #[inline]
    pub fn scale(&self) -> f32 {
        self.a.bounding_radius() + self.b.bounding_radius()
    }
}
