//! Rigid poses (rotation then translation).

use glam::{Mat3, Quat, Vec3, Vec4};

use crate::error::PoseError;

/// A rigid transform: first rotate by `rotation`, then translate by `translation`.
///
/// Built through [`Pose::new`], which rejects non-finite input and normalizes the
/// quaternion, so every `Pose` a query sees is a proper rigid motion.
#[derive(Clone, Copy, PartialEq)]
pub struct Pose {
    rotation: Quat,
    /// The translation with `w = 0`: with the rotation, the pose is eight floats
    /// that the wide packers read as two 16-byte halves ([`Pose::to_row`]).
    translation: Vec4,
}

impl std::fmt::Debug for Pose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pose")
            .field("rotation", &self.rotation)
            .field("translation", &self.translation())
            .finish()
    }
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// The identity pose.
    pub const IDENTITY: Pose = Pose {
        rotation: Quat::IDENTITY,
        translation: Vec4::ZERO,
    };

    /// A validated pose. The rotation need not be unit length (it is normalized) but
    /// must be finite and non-zero; the translation must be finite.
    #[inline]
    pub fn new(rotation: Quat, translation: Vec3) -> Result<Self, PoseError> {
        if !rotation.is_finite() {
            return Err(PoseError::NotFinite { field: "rotation" });
        }
        if !translation.is_finite() {
            return Err(PoseError::NotFinite {
                field: "translation",
            });
        }
        let len_sq = rotation.length_squared();
        if len_sq <= f32::MIN_POSITIVE || !len_sq.is_finite() {
            return Err(PoseError::ZeroRotation);
        }
        Ok(Self {
            rotation: rotation.normalize(),
            translation: translation.extend(0.0),
        })
    }

    /// The pose of a rotation already of unit length (within a few f32 ulps) and a
    /// finite translation, the rotation kept bit for bit; `None` otherwise. A pose
    /// read back from a file takes this path, so that it is the pose that was
    /// written: normalizing a unit quaternion again can move it by an ulp.
    #[cfg(feature = "serde")]
    pub(crate) fn from_unit_parts(rotation: Quat, translation: Vec3) -> Option<Self> {
        let unit = (rotation.length_squared() - 1.0).abs() <= 16.0 * f32::EPSILON;
        (rotation.is_finite() && translation.is_finite() && unit).then(|| Self {
            rotation,
            translation: translation.extend(0.0),
        })
    }

    /// A pure translation.
    pub fn from_translation(translation: Vec3) -> Result<Self, PoseError> {
        Self::new(Quat::IDENTITY, translation)
    }

    /// The unit rotation.
    #[inline]
    pub fn rotation(&self) -> Quat {
        self.rotation
    }

    /// The translation.
    #[inline]
    pub fn translation(&self) -> Vec3 {
        self.translation.truncate()
    }

    /// The pose as one row of eight floats, `[q.x, q.y, q.z, q.w, t.x, t.y, t.z, 0]`
    /// (rotation `q`, translation `t`): what the wide packers transpose, eight
    /// poses at a time, into structure-of-arrays form.
    #[inline]
    pub fn to_row(&self) -> [f32; 8] {
        let (q, t): ([f32; 4], [f32; 4]) = (self.rotation.into(), self.translation.into());
        [q[0], q[1], q[2], q[3], t[0], t[1], t[2], t[3]]
    }

    /// The rotation as a matrix (faster to apply many times).
    #[inline]
    pub fn rotation_matrix(&self) -> Mat3 {
        Mat3::from_quat(self.rotation)
    }

    /// The inverse motion: `self.inverse() * self` is the identity.
    #[inline]
    pub fn inverse(&self) -> Pose {
        let inv = self.rotation.conjugate();
        Pose {
            rotation: inv,
            translation: (-(inv * self.translation())).extend(0.0),
        }
    }

    /// `self * other`: apply `other`, then `self`.
    #[inline]
    pub fn compose(&self, other: &Pose) -> Pose {
        Pose {
            rotation: (self.rotation * other.rotation).normalize(),
            translation: (self.rotation * other.translation() + self.translation()).extend(0.0),
        }
    }

    /// The pose of `other` expressed in this pose's frame, `self⁻¹ * other`.
    ///
    /// Every query runs in A's frame with this relative pose of B: the subtraction of
    /// the two translations happens once, before any rotation, so the result does not
    /// degrade with the distance of the pair from the world origin.
    #[inline]
    pub fn relative(&self, other: &Pose) -> Pose {
        let inv = self.rotation.conjugate();
        Pose {
            rotation: (inv * other.rotation).normalize(),
            translation: (inv * (other.translation() - self.translation())).extend(0.0),
        }
    }

    /// Maps a point from this pose's local frame to the parent frame.
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.translation()
    }

    /// Rotates a direction from this pose's local frame to the parent frame.
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation * v
    }

    /// Maps a parent-frame point into this pose's local frame.
    #[inline]
    pub fn inverse_transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation.conjugate() * (p - self.translation())
    }

    /// Rotates a parent-frame direction into this pose's local frame.
    #[inline]
    pub fn inverse_transform_vector(&self, v: Vec3) -> Vec3 {
        self.rotation.conjugate() * v
    }
}

impl std::ops::Mul for Pose {
    type Output = Pose;
    #[inline]
    fn mul(self, rhs: Pose) -> Pose {
        self.compose(&rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_holds_rotation_then_translation_and_a_zero() {
        let q = Quat::from_rotation_y(0.7) * Quat::from_rotation_x(-1.2);
        let t = Vec3::new(1.5, -2.25, 1e6);
        let p = Pose::new(q, t).unwrap();
        let r = p.rotation();
        assert_eq!(p.to_row(), [r.x, r.y, r.z, r.w, t.x, t.y, t.z, 0.0]);
        // Composed and inverted poses keep the zero too.
        let inv = p.inverse();
        assert_eq!(inv.to_row()[7], 0.0);
        assert_eq!(p.compose(&inv).to_row()[7], 0.0);
        assert_eq!(p.relative(&inv).to_row()[7], 0.0);
        assert!(format!("{p:?}").contains("Vec3"));
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(
            Pose::new(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ZERO),
            Err(PoseError::ZeroRotation)
        );
        assert_eq!(
            Pose::new(Quat::IDENTITY, Vec3::new(f32::NAN, 0.0, 0.0)),
            Err(PoseError::NotFinite {
                field: "translation"
            })
        );
        assert_eq!(
            Pose::new(Quat::from_xyzw(f32::INFINITY, 0.0, 0.0, 1.0), Vec3::ZERO),
            Err(PoseError::NotFinite { field: "rotation" })
        );
    }

    #[test]
    fn inverse_and_relative() {
        let a = Pose::new(
            Quat::from_rotation_y(0.7) * Quat::from_rotation_x(0.3),
            Vec3::new(1.0, 2.0, 3.0),
        )
        .unwrap();
        let b = Pose::new(Quat::from_rotation_z(-1.1), Vec3::new(-4.0, 0.5, 2.0)).unwrap();
        let p = Vec3::new(0.3, -0.2, 0.9);
        assert!((a.inverse().transform_point(a.transform_point(p)) - p).length() < 1e-5);
        // relative(b) maps B-local to A-local.
        let via_world = a.inverse_transform_point(b.transform_point(p));
        let via_rel = a.relative(&b).transform_point(p);
        assert!((via_world - via_rel).length() < 1e-5);
        assert!(
            ((a * b).transform_point(p) - a.transform_point(b.transform_point(p))).length() < 1e-5
        );
        // Un-normalized quaternions are normalized.
        let q = Pose::new(Quat::from_xyzw(0.0, 0.0, 0.0, 3.0), Vec3::ZERO).unwrap();
        assert!((q.rotation().length() - 1.0).abs() < 1e-6);
    }
}
