//! Cylinder about the local Y axis.

use glam::Vec3;

use crate::error::{ShapeError, check_size};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap, disc_extents};

/// A solid cylinder of radius `radius` whose axis runs along Y from `-half_height`
/// to `half_height`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder {
    half_height: f32,
    radius: f32,
}

impl Cylinder {
    /// A cylinder; both sizes finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE). A zero half height gives a disc
    /// (a coin, a wheel), a zero radius the segment of its axis.
    #[inline]
    pub fn new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_size("Cylinder", "half_height", half_height)?,
            radius: check_size("Cylinder", "radius", radius)?,
        })
    }

    /// Half the height.
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

/// The point of a disc of radius `radius` in the XZ plane farthest along `dir`:
/// on the rim in the direction of `dir`'s XZ part, or the centre when `dir` is
/// parallel to Y (every point of the disc is then a support point).
#[inline]
pub(crate) fn disc_support(dir: Vec3, radius: f32) -> Vec3 {
    let xz_len = (dir.x * dir.x + dir.z * dir.z).sqrt();
    if xz_len > 0.0 {
        let s = radius / xz_len;
        Vec3::new(dir.x * s, 0.0, dir.z * s)
    } else {
        Vec3::ZERO
    }
}

impl SupportMap for Cylinder {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        let mut p = disc_support(dir, self.radius);
        p.y = if dir.y < 0.0 {
            -self.half_height
        } else {
            self.half_height
        };
        p
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        CoreSymmetry::RevolutionY
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }

    /// The nearer of the caps and the side.
    #[inline]
    fn inner_radius(&self) -> f32 {
        self.half_height.min(self.radius)
    }

    /// The cap farthest along each world axis, plus its rim's extent there.
    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        let rot = pose.rotation_matrix();
        let half = rot.y_axis.abs() * self.half_height + disc_extents(&rot, self.radius);
        Aabb::from_center_half_extents(pose.translation(), half)
    }
}
