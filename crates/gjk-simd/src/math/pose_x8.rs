//! Eight rigid poses.

use gjk_core::Pose;

use super::mask_x8::MaskX8;
use super::mat3_x8::Mat3X8;
use super::quat_x8::QuatX8;
use super::vec3_x8::Vec3X8;

/// Eight rigid motions (rotate, then translate), one per lane: the wide twin of
/// [`gjk_core::Pose`].
///
/// Unlike `Pose`, a `PoseX8` is not validated: lanes may hold NaN, which the
/// kernels detect and report per lane as invalid input.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PoseX8 {
    /// Unit rotations.
    pub rotation: QuatX8,
    /// Translations.
    pub translation: Vec3X8,
}

impl PoseX8 {
    /// The identity in every lane.
    pub const IDENTITY: PoseX8 = PoseX8 {
        rotation: QuatX8::IDENTITY,
        translation: Vec3X8::ZERO,
    };

    /// Pose `i` of `poses` in lane `i`.
    pub fn from_array(poses: [Pose; 8]) -> Self {
        PoseX8 {
            rotation: QuatX8::from_array(poses.map(|p| p.rotation())),
            translation: Vec3X8::from_array(poses.map(|p| p.translation())),
        }
    }

    /// Pose `i` of `poses` in lane `i`; lanes past the end get the identity.
    pub fn from_slice(poses: &[Pose]) -> Self {
        Self::from_array(std::array::from_fn(|i| {
            poses.get(i).copied().unwrap_or(Pose::IDENTITY)
        }))
    }

    /// Overwrites lane `i`.
    #[inline]
    pub fn set_lane(&mut self, i: usize, pose: &Pose) {
        let q = pose.rotation();
        self.rotation.x.as_mut_array()[i] = q.x;
        self.rotation.y.as_mut_array()[i] = q.y;
        self.rotation.z.as_mut_array()[i] = q.z;
        self.rotation.w.as_mut_array()[i] = q.w;
        self.translation.set_lane(i, pose.translation());
    }

    /// The pose of `other` in this pose's frame, `self⁻¹ * other`, computed like
    /// [`Pose::relative`]: translations are subtracted before any rotation, so the
    /// result does not degrade far from the world origin.
    #[inline(always)]
    pub fn relative(&self, other: &PoseX8) -> PoseX8 {
        let inv = self.rotation.conjugate();
        PoseX8 {
            rotation: (inv * other.rotation).normalize(),
            translation: self.relative_translation(other),
        }
    }

    /// The translation of [`PoseX8::relative`] alone: `other`'s origin in this
    /// pose's frame (bit-identical to `self.relative(other).translation`).
    #[inline(always)]
    pub fn relative_translation(&self, other: &PoseX8) -> Vec3X8 {
        let inv = self.rotation.conjugate();
        inv.to_mat3().mul_vec3(other.translation - self.translation)
    }

    /// The rotation as a matrix.
    #[inline(always)]
    pub fn rotation_matrix(&self) -> Mat3X8 {
        self.rotation.to_mat3()
    }

    /// Maps local points to the parent frame.
    #[inline(always)]
    pub fn transform_point(&self, p: Vec3X8) -> Vec3X8 {
        self.rotation_matrix().mul_vec3(p) + self.translation
    }

    /// Lanes whose seven numbers are finite.
    #[inline(always)]
    pub fn finite(&self) -> MaskX8 {
        self.rotation.finite() & self.translation.finite()
    }
}

impl From<[Pose; 8]> for PoseX8 {
    fn from(poses: [Pose; 8]) -> Self {
        Self::from_array(poses)
    }
}
