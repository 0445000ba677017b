//! The support-mapping abstraction every query is written against.

use glam::{Mat3, Vec3};

use crate::aabb::Aabb;
use crate::pose::Pose;

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
    /// included); `f32::NEG_INFINITY` when the origin itself is not certainly
    /// inside (a convex hull of points away from the origin). With
    /// [`bounding_radius`](Self::bounding_radius) it brackets the shape between two
    /// balls, which decides many boolean queries without GJK (see
    /// [`crate::query::bounds`]). The default, `NEG_INFINITY`, is always correct.
    #[inline]
    fn inner_radius(&self) -> f32 {
        f32::NEG_INFINITY
    }

    /// The point of the whole shape (core plus margin) farthest along `dir`.
    #[inline]
    fn support(&self, dir: Vec3) -> Vec3 {
        self.support_core(dir) + dir.normalize_or_zero() * self.margin()
    }

    /// Bounds in local coordinates (six support evaluations; exact).
    fn local_aabb(&self) -> Aabb {
        self.aabb(&Pose::IDENTITY)
    }

    /// Bounds of the shape placed at `pose`, exact for every shape: the extent along
    /// a world axis is the support along that axis expressed in the local frame.
    fn aabb(&self, pose: &Pose) -> Aabb {
        let rot = pose.rotation_matrix();
        let inv = rot.transpose();
        let mut min = Vec3::ZERO;
        let mut max = Vec3::ZERO;
        for axis in 0..3 {
            let e = Mat3::IDENTITY.col(axis);
            let hi = rot * self.support(inv * e);
            let lo = rot * self.support(-(inv * e));
            max[axis] = hi[axis];
            min[axis] = lo[axis];
        }
        Aabb {
            min: min + pose.translation(),
            max: max + pose.translation(),
        }
    }
}
