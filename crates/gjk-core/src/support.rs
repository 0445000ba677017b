//! The support-mapping abstraction every query is written against.

use glam::{Mat3, Vec3};

use crate::feature::{Feature, FeatureId};
use crate::math::Aabb;
use crate::math::Pose;

/// A convex shape described by its support mapping, split into a *core* and a
/// *margin*: the shape is the core dilated by a ball of radius `margin()`.
///
/// A sphere is a point core with its radius as margin, a capsule a segment core.
/// GJK and EPA run on the cores and add the margins analytically, which is exact
/// (the Minkowski sum of the cores' difference with a ball of radius `ma + mb`) and
/// avoids the slow convergence of GJK on curved surfaces (Jolt's convex radius,
/// bepu's margins, parry's `DilatedShape`).
pub trait SupportMap {
    /// The point of the core farthest along `dir`, in local coordinates. `dir` need
    /// not be unit length; for a zero direction any point of the core is returned.
    fn support_core(&self, dir: Vec3) -> Vec3;

    /// Radius of the ball the core is dilated by (0 for sharp shapes).
    #[inline]
    fn margin(&self) -> f32 {
        0.0
    }

    /// [`support_core`](Self::support_core) with a warm-start vertex for shapes that
    /// search (large convex hulls); `hint` is read and updated. Others ignore it.
    #[inline]
    fn support_core_hinted(&self, dir: Vec3, hint: &mut u32) -> Vec3 {
        let _ = hint;
        self.support_core(dir)
    }

    /// Radius of a ball about the local origin that contains the whole shape
    /// (margin included). Used to scale tolerances.
    fn bounding_radius(&self) -> f32;

    /// Radius of a ball about the local origin that lies inside the shape (margin
    /// included); 0 when only the origin itself is certainly inside (a disc, a
    /// segment, a point); `f32::NEG_INFINITY` when not even the origin is (a convex
    /// hull of points away from the origin, a flat hull). With
    /// [`bounding_radius`](Self::bounding_radius) it brackets the shape between two
    /// balls, which decides many boolean queries without GJK (see
    /// [`crate::query::bounds`]). The default, `NEG_INFINITY`, is always correct.
    #[inline]
    fn inner_radius(&self) -> f32 {
        f32::NEG_INFINITY
    }

    /// The symmetry of the core about the local origin that the queries can use:
    /// EPA reduces a pair of coaxial solids of revolution to their common axial
    /// section, where its polygon converges in a few steps instead of refining a
    /// whole circle of equally deep directions. The default, [`CoreSymmetry::None`],
    /// is always correct.
    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        CoreSymmetry::None
    }

    /// The point of the whole shape (core plus margin) farthest along `dir`.
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.support_core(dir) + dir.normalize_or_zero() * self.margin()
    }

    /// The feature of the core (vertex, segment or polygon, see [`Feature`]) that
    /// supports `dir`, in local coordinates, written to `out`: the contact
    /// manifolds clip the features of both shapes against each other. It always
    /// holds a support point of the core along `dir`; a polygon is the face whose
    /// outward normal is closest to `dir` among those that hold one. `dir` need not
    /// be unit length.
    ///
    /// The default is the single support point with an unknown id, which gives
    /// one-point manifolds: right for strictly convex cores, and what a shape that
    /// does not name its faces can offer.
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        out.set_vertex(self.support_core(dir), FeatureId::UNKNOWN);
    }

    /// Bounds in local coordinates (exact).
    fn local_aabb(&self) -> Aabb {
        self.aabb(&Pose::IDENTITY)
    }

    /// Bounds of the shape placed at `pose`, exact for every shape. The default
    /// takes six support evaluations ([`aabb_from_supports`]); the shapes of this
    /// crate override it with closed forms that give the same box (up to rounding)
    /// for a fraction of the cost, which a broadphase pays for every moving body
    /// every step.
    fn aabb(&self, pose: &Pose) -> Aabb {
        aabb_from_supports(self, pose)
    }
}

/// A symmetry of a shape's core ([`SupportMap::core_symmetry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CoreSymmetry {
    /// None the queries use.
    None,
    /// The core is a solid of revolution about the local Y axis (cylinders,
    /// cones, capsules).
    RevolutionY,
    /// The core is the local origin alone (balls): a solid of revolution about
    /// every axis through it.
    Point,
}

/// Bounds of `shape` at `pose` from six support evaluations, exact for any support
/// map: the extent along a world axis is the support along that axis expressed in
/// the local frame. [`SupportMap::aabb`]'s default, and the reference its closed
/// forms are tested against.
pub fn aabb_from_supports<S: SupportMap + ?Sized>(shape: &S, pose: &Pose) -> Aabb {
    let rot = pose.rotation_matrix();
    let inv = rot.transpose();
    let mut min = Vec3::ZERO;
    let mut max = Vec3::ZERO;
    for axis in 0..3 {
        let e = Mat3::IDENTITY.col(axis);
        let hi = rot * shape.support(inv * e);
        let lo = rot * shape.support(-(inv * e));
        max[axis] = hi[axis];
        min[axis] = lo[axis];
    }
    Aabb {
        min: min + pose.translation(),
        max: max + pose.translation(),
    }
}

/// The world extents of a disc of radius `radius` about the origin, perpendicular
/// to the unit axis `rot.y_axis` (the local y axis of a cylinder or cone): along
/// world axis `i`, `radius · sqrt(1 - axis_i²)`. The square root is taken of the
/// other two entries of row `i`, whose squares sum to `1 - axis_i²` for a rotation:
/// where the axis is nearly aligned with `i`, `1 - axis_i²` would cancel to a few
/// ulps and the extent lose most of its digits.
#[inline]
pub(crate) fn disc_extents(rot: &Mat3, radius: f32) -> Vec3 {
    (rot.x_axis * rot.x_axis + rot.z_axis * rot.z_axis).sqrt() * radius
}
