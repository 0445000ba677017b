//! Cone about the local Y axis.

use glam::Vec3;

use super::cylinder::disc_support;
use crate::error::{ShapeError, check_size};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap, disc_extents};

/// A solid cone with its apex at `(0, half_height, 0)` and its base, a disc of
/// radius `radius`, at `y = -half_height` (the convention of parry's `Cone`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cone {
    half_height: f32,
    radius: f32,
}

impl Cone {
    /// A cone; both sizes finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE). A zero half height gives its base
    /// disc, a zero radius the segment of its axis.
    #[inline]
    pub fn new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_size("Cone", "half_height", half_height)?,
            radius: check_size("Cone", "radius", radius)?,
        })
    }

    /// Half the height.
    #[inline]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }

    /// The base radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

impl SupportMap for Cone {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        // A cone is the hull of its apex and its base rim: the support is whichever
        // of the two candidates reaches farther along `dir`.
        let apex = Vec3::new(0.0, self.half_height, 0.0);
        let mut rim = disc_support(dir, self.radius);
        rim.y = -self.half_height;
        if rim.dot(dir) > apex.dot(dir) {
            rim
        } else {
            apex
        }
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        CoreSymmetry::RevolutionY
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }

    /// The distance to the side: in a plane through the axis, the side is the
    /// line from the apex (0, h) to the rim (r, -h), at distance h·r / √(r² + 4h²)
    /// from the origin, which is always less than h, the base's distance. Zero
    /// for a flat cone (a disc) or a needle (a segment), whose inner ball is the
    /// origin alone.
    #[inline]
    fn inner_radius(&self) -> f32 {
        let (h, r) = (self.half_height, self.radius);
        if h == 0.0 || r == 0.0 {
            return 0.0;
        }
        h * r / (r * r + 4.0 * h * h).sqrt()
    }

    /// The hull of the apex and the base rim: along each world axis, whichever of
    /// the apex and the rim's extreme point reaches farther.
    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        let rot = pose.rotation_matrix();
        let apex = rot.y_axis * self.half_height;
        let rim = disc_extents(&rot, self.radius);
        let t = pose.translation();
        Aabb {
            min: t + apex.min(-apex - rim),
            max: t + apex.max(-apex + rim),
        }
    }
}
