//! The wide support-mapping abstraction every wide query is written against: the
//! twin of `gjk_core::SupportMap`, for eight shapes of one kind.

use gjk_core::{CoreSymmetry, SupportMap};
use glam::Vec3;
use wide::f32x8;

use crate::math::{MaskX8, Vec3X8};

/// Eight convex shapes of one kind described by their support mappings, split into
/// core and margin like [`gjk_core::SupportMap`].
pub trait SupportMapX8 {
    /// Whether every lane's core is the single point at the local origin (balls):
    /// the kernels then skip the support call and the rotation of directions into
    /// this shape's frame. The results are the same as with the general path.
    const POINT_CORE: bool = false;

    /// The symmetry every lane's core has ([`gjk_core::SupportMap::core_symmetry`]):
    /// the contact query measures coaxial solids of revolution in their axial
    /// plane, as gjk-core does. The default, [`CoreSymmetry::None`], is always
    /// correct.
    const CORE_SYMMETRY: CoreSymmetry = CoreSymmetry::None;

    /// Per lane, the point of the core farthest along `dir` (local coordinates).
    /// Only lanes in `active` need a meaningful answer: costly supports (hulls) skip
    /// the rest, and the caller ignores what they return.
    fn support_core(&self, dir: Vec3X8, active: MaskX8) -> Vec3X8;

    /// Radius of the ball each core is dilated by.
    fn margin(&self) -> f32x8 {
        f32x8::ZERO
    }

    /// Radius of a ball about the local origin containing the whole shape, margin
    /// included (the tolerances scale with it).
    fn bounding_radius(&self) -> f32x8;

    /// Lanes whose shape data is finite (the kernels report the others as invalid
    /// input instead of iterating on NaN).
    fn finite(&self) -> MaskX8;

    /// Each lane's core half extents when the cores are boxes (boxes and rounded
    /// boxes), `None` for every other kind: the separating-axis tests that decide
    /// box pairs exactly need them. Known at compile time per kind.
    #[inline(always)]
    fn box_core(&self) -> Option<Vec3X8> {
        None
    }
}

/// One lane of a wide shape as a scalar [`SupportMap`]: what lets `gjk_core`'s
/// queries run on a lane the wide methods leave unresolved, on exactly the shape
/// the lane holds.
pub(crate) struct LaneOf<'s, S> {
    /// The eight shapes.
    pub shape: &'s S,
    /// The lane.
    pub lane: usize,
}

impl<S: SupportMapX8> SupportMap for LaneOf<'_, S> {
    fn support_core(&self, dir: Vec3) -> Vec3 {
        let only = MaskX8::first(self.lane + 1).and_not(MaskX8::first(self.lane));
        self.shape
            .support_core(Vec3X8::splat(dir), only)
            .lane(self.lane)
    }
    fn margin(&self) -> f32 {
        self.shape.margin().as_array()[self.lane]
    }
    fn bounding_radius(&self) -> f32 {
        self.shape.bounding_radius().as_array()[self.lane]
    }
    fn core_symmetry(&self) -> CoreSymmetry {
        S::CORE_SYMMETRY
    }
}
