//! The configuration space obstacle `A - B`, evaluated in A's frame.

use glam::{DMat3, DVec3, Mat3, Vec3};

use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap};
use crate::tolerance::{EPA_COLLINEAR, MAX_OFFSET};

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

/// A plane through the common axis of two cores of revolution
/// ([`Minkowski::axial_section`]), in A's frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AxialSection {
    /// The common axis (unit).
    pub axis: Vec3,
    /// The unit direction in the plane perpendicular to the axis, towards the
    /// origin's offset from the axis line of `A - B` when it has one.
    pub radial: Vec3,
    /// How far B's tilt from the axis can move a support point out of the
    /// plane: the reduction to the plane is exact within it.
    pub tilt: f32,
}

/// Support mapping of `core(A) - core(B)` with B expressed in A's frame.
///
/// B's pose relative to A's is taken in f64 from the two f32 poses, and B's
/// support points are carried into A's frame in f64 before each coordinate of
/// `w` is rounded to f32 once. An f32 relative pose rounds every component to an
/// ulp of the offset's length: for a small shape beside a long one, a million
/// units along it, that is a tenth of a unit across it too, where the gap is
/// measured; in f64 each coordinate keeps its own ulp.
pub(crate) struct Minkowski<'s, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    /// Rotation from B's frame to A's frame (f64), and its inverse (f32: it only
    /// turns directions, whose rounding moves no support point off the shape).
    b_to_a: DMat3,
    a_to_b: Mat3,
    /// B's origin in A's frame, in f64.
    offset64: DVec3,
    hint_a: u32,
    hint_b: u32,
}

impl<'s, A: SupportMap + ?Sized, B: SupportMap + ?Sized> Minkowski<'s, A, B> {
    #[inline]
    pub fn new(a: &'s A, pose_a: &Pose, b: &'s B, pose_b: &Pose) -> Self {
        let inv = pose_a.rotation().as_dquat().conjugate();
        let rotation = (inv * pose_b.rotation().as_dquat()).normalize();
        let b_to_a = DMat3::from_quat(rotation);
        let offset64 = inv * (pose_b.translation().as_dvec3() - pose_a.translation().as_dvec3());
        Self {
            a,
            b,
            b_to_a,
            a_to_b: b_to_a.transpose().as_mat3(),
            offset64,
            hint_a: 0,
            hint_b: 0,
        }
    }

    /// Whether B's origin lies within [`MAX_OFFSET`] of A's, so that every
    /// distance of the pair is an f32.
    #[inline]
    pub fn in_range(&self) -> bool {
        self.offset64.length() <= f64::from(MAX_OFFSET)
    }

    /// The unit direction from A's origin to B's, if they differ (in f64: the
    /// offset's square may leave f32's range).
    #[inline]
    pub fn towards_b(&self) -> Option<Vec3> {
        self.offset64.try_normalize().map(|d| d.as_vec3())
    }

    /// The point of `core(A) - core(B)` farthest along `dir`.
    #[inline]
    pub fn support(&mut self, dir: Vec3) -> SupportPoint {
        let a = self.a.support_core_hinted(dir, &mut self.hint_a);
        let b_local = self
            .b
            .support_core_hinted(self.a_to_b * -dir, &mut self.hint_b);
        let b = self.b_to_a * b_local.as_dvec3() + self.offset64;
        SupportPoint {
            w: (a.as_dvec3() - b).as_vec3(),
            a,
            b: b.as_vec3(),
        }
    }

    /// Sum of the two margins: the cores' distance minus this is the shapes'.
    #[inline]
    pub fn margins(&self) -> (f32, f32) {
        (self.a.margin(), self.b.margin())
    }

    /// A plane through an axis of revolution both cores share, if they do (see
    /// [`SupportMap::core_symmetry`]): `A - B` is then a solid of revolution about
    /// that axis, up to B's tilt from it, and its least support over all
    /// directions is its least support over the directions of that plane. The
    /// plane is the one holding the origin's offset from the axis, where the
    /// least support of the shifted solid lies exactly. Returns the axis and the
    /// radial direction spanning the plane, both unit vectors in A's frame, and
    /// how far B's tilt can move a support point out of the plane.
    pub fn axial_section(&self) -> Option<AxialSection> {
        // The axis in f64 (B's is a column of the f64 rotation): an f32 unit
        // vector is unit only to a few ulps, and the offset's part off an axis
        // that long keeps a part along it of those ulps times the offset's
        // length, which leans the radial direction along the axis where the
        // origin lies near it (by thousandths of a radian once the part off the
        // axis is a ten-thousandth of the offset): the section's plane would
        // not hold the axis.
        let axis_b = self.b_to_a.y_axis;
        let (axis, tilt) = match (self.a.core_symmetry(), self.b.core_symmetry()) {
            (CoreSymmetry::RevolutionY, CoreSymmetry::RevolutionY) => {
                // B's core leaves A's axis by at most its radius times the sine
                // of the angle between the axes.
                let sine = Vec3::Y.cross(axis_b.as_vec3()).length();
                (DVec3::Y, sine * self.b.bounding_radius())
            }
            (CoreSymmetry::RevolutionY, CoreSymmetry::Point) => (DVec3::Y, 0.0),
            (CoreSymmetry::Point, CoreSymmetry::RevolutionY) => (axis_b.normalize(), 0.0),
            _ => return None,
        };
        // Within EPA_COLLINEAR of the offset from the axis every radial
        // direction is as good, and one exactly perpendicular is taken.
        let off_axis = self.offset64 - axis * self.offset64.dot(axis);
        let radial = if off_axis.length() > EPA_COLLINEAR * self.offset64.length() {
            off_axis.normalize()
        } else {
            axis.any_orthonormal_vector()
        };
        let (axis, radial) = (axis.as_vec3(), radial.as_vec3());
        Some(AxialSection { axis, radial, tilt })
    }

    /// The length scale tolerances are relative to.
    #[inline]
    pub fn scale(&self) -> f32 {
        self.a.bounding_radius() + self.b.bounding_radius()
    }
}
