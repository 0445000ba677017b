//! Capsule: a segment along the local Y axis dilated by a radius.

use glam::Vec3;

use crate::error::{ShapeError, check_size};
use crate::feature::{Feature, FeatureId};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap};

/// The set of points within `radius` of the segment from `(0, -half_height, 0)` to
/// `(0, half_height, 0)`. A zero `half_height` gives a sphere.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capsule {
    half_height: f32,
    radius: f32,
}

impl Capsule {
    /// A capsule; both sizes finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE). A zero radius gives the segment
    /// itself (a rope, a laser), a zero half height a ball.
    #[inline]
    pub fn new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_size("Capsule", "half_height", half_height)?,
            radius: check_size("Capsule", "radius", radius)?,
        })
    }

    /// Half the length of the core segment.
    #[inline]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

impl SupportMap for Capsule {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        Vec3::new(
            0.0,
            if dir.y < 0.0 {
                -self.half_height
            } else {
                self.half_height
            },
            0.0,
        )
    }

    #[inline]
    fn margin(&self) -> f32 {
        self.radius
    }

    /// The whole core segment, edge 0 from vertex 0 (bottom) to vertex 1 (top): a
    /// capsule lying on a face touches it along the segment, one standing on it at
    /// one end (the manifold drops the end that is too far). A zero-length core is
    /// its one point, vertex 0.
    fn support_feature(&self, _dir: Vec3, out: &mut Feature) {
        let top = Vec3::new(0.0, self.half_height, 0.0);
        if self.half_height > 0.0 {
            out.set_segment(
                -top,
                top,
                [FeatureId::vertex(0), FeatureId::vertex(1)],
                FeatureId::edge(0),
            );
        } else {
            out.set_vertex(Vec3::ZERO, FeatureId::vertex(0));
        }
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        CoreSymmetry::RevolutionY
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.half_height + self.radius
    }

    /// The segment passes through the origin: the margin ball around it is inside.
    #[inline]
    fn inner_radius(&self) -> f32 {
        self.radius
    }

    /// The segment's end farthest along each world axis, plus the radius.
    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        let axis = pose.rotation_matrix().y_axis;
        let half = axis.abs() * self.half_height + Vec3::splat(self.radius);
        Aabb::from_center_half_extents(pose.translation(), half)
    }
}
