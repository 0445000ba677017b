//! Wide operations rounded as `glam` rounds their scalar twins on x86-64, operation
//! for operation: what the manifold stage computes with, so that a wide manifold
//! is bit-identical to `gjk_core::manifold_from_contact`'s on the same contact.
//!
//! A manifold is made of decisions on rounded numbers (which face of a box, which
//! side of a clipping plane, which points tie for the reduction), and a result
//! one ulp away flips the rare decision that sits on its threshold: a point kept
//! or dropped, another id. Rounded alike, the two paths take the same decisions
//! everywhere, and the differential tests compare them bit for bit.
//!
//! The other wide math (`dot`, `cross`, `mul_vec3`, ...) fuses its products for
//! speed, which is right for GJK, whose answers are compared within a tolerance.
//! The forms here follow glam: `Vec3` and `Mat3` in plain products and sums in
//! their order (Rust never fuses them), `Quat` in glam's SSE2 code, whose cross
//! product and quaternion product are fused when the target has FMA (as `wide`'s
//! `mul_neg_add` is, under the same condition). Other targets round glam
//! differently; the results then agree within the tolerance only.

use wide::f32x8;

use super::mask_x8::CmpX8;
use super::mat3_x8::Mat3X8;
use super::pose_x8::PoseX8;
use super::quat_x8::QuatX8;
use super::vec3_x8::Vec3X8;

impl Vec3X8 {
    /// `Vec3::dot`: `(x x' + y y') + z z'`, each product rounded.
    #[inline(always)]
    pub(crate) fn dot_glam(self, o: Vec3X8) -> f32x8 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// `Vec3::cross`, each product rounded.
    #[inline(always)]
    pub(crate) fn cross_glam(self, o: Vec3X8) -> Vec3X8 {
        Vec3X8::new(
            self.y * o.z - o.y * self.z,
            self.z * o.x - o.z * self.x,
            self.x * o.y - o.x * self.y,
        )
    }

    /// `Vec3::length`.
    #[inline(always)]
    pub(crate) fn length_glam(self) -> f32x8 {
        self.dot_glam(self).sqrt()
    }

    /// `Vec3::normalize_or`: times the reciprocal of the length, `fallback`
    /// where that reciprocal is not a positive finite number.
    #[inline(always)]
    pub(crate) fn normalize_or_glam(self, fallback: Vec3X8) -> Vec3X8 {
        let rcp = f32x8::ONE / self.length_glam();
        let ok = rcp.finite() & rcp.gt(f32x8::ZERO);
        ok.select(self * rcp, fallback)
    }
}

/// The cross product of glam's `Vec3A` (the rotation of a vector by a
/// quaternion uses it): `c - a b` fused in each component.
#[inline(always)]
fn cross_fused(b: Vec3X8, v: Vec3X8) -> Vec3X8 {
    Vec3X8::new(
        v.y.mul_neg_add(b.z, b.y * v.z),
        v.z.mul_neg_add(b.x, b.z * v.x),
        v.x.mul_neg_add(b.y, b.x * v.y),
    )
}

impl QuatX8 {
    /// `Quat * Quat` (glam's SSE2 `mul_quat`): the eight products rounded, then
    /// summed in pairs and the pairs summed.
    #[inline(always)]
    pub(crate) fn mul_glam(self, r: QuatX8) -> QuatX8 {
        let l = self;
        QuatX8 {
            x: (l.x * r.w + l.w * r.x) + (l.y * r.z - l.z * r.y),
            y: (l.w * r.y - l.x * r.z) + (l.z * r.x + l.y * r.w),
            z: (l.x * r.y + l.w * r.z) + (l.z * r.w - l.y * r.x),
            w: (l.w * r.w - l.x * r.x) + (-(l.z * r.z) - l.y * r.y),
        }
    }

    /// `Quat::normalize` (glam's SSE2 `Vec4::normalize`): divided by the length,
    /// the squares summed as `(x² + z²) + (y² + w²)`.
    #[inline(always)]
    pub(crate) fn normalize_glam(self) -> QuatX8 {
        let q = self;
        let length = ((q.x * q.x + q.z * q.z) + (q.y * q.y + q.w * q.w)).sqrt();
        QuatX8 {
            x: q.x / length,
            y: q.y / length,
            z: q.z / length,
            w: q.w / length,
        }
    }

    /// `Quat * Vec3` (glam's SSE2 `mul_vec3a`):
    /// `v (w² - |b|²) + b (2 v·b) + (b × v)(2 w)` with `b` the vector part.
    #[inline(always)]
    pub(crate) fn rotate_glam(self, v: Vec3X8) -> Vec3X8 {
        let b = Vec3X8::new(self.x, self.y, self.z);
        let w = self.w;
        let b2 = b.dot_glam(b);
        let vb2 = v.dot_glam(b) * f32x8::splat(2.0);
        let w2 = w * f32x8::splat(2.0);
        let cross = cross_fused(b, v);
        (v * (w * w - b2) + b * vb2) + cross * w2
    }
}

impl Mat3X8 {
    /// `Mat3 * Vec3`: `(x_axis v.x + y_axis v.y) + z_axis v.z`.
    #[inline(always)]
    pub(crate) fn mul_vec3_glam(&self, v: Vec3X8) -> Vec3X8 {
        self.x_axis * v.x + self.y_axis * v.y + self.z_axis * v.z
    }

    /// `Mat3::transpose() * Vec3`: each component the dot product of a column
    /// with `v`.
    #[inline(always)]
    pub(crate) fn transpose_mul_vec3_glam(&self, v: Vec3X8) -> Vec3X8 {
        Vec3X8::new(
            self.x_axis.dot_glam(v),
            self.y_axis.dot_glam(v),
            self.z_axis.dot_glam(v),
        )
    }
}

impl PoseX8 {
    /// `Pose::relative`: `other` in this pose's frame.
    #[inline(always)]
    pub(crate) fn relative_glam(&self, other: &PoseX8) -> PoseX8 {
        let inv = self.rotation.conjugate();
        PoseX8 {
            rotation: inv.mul_glam(other.rotation).normalize_glam(),
            translation: inv.rotate_glam(other.translation - self.translation),
        }
    }

    /// `Pose::transform_point`.
    #[inline(always)]
    pub(crate) fn transform_point_glam(&self, p: Vec3X8) -> Vec3X8 {
        self.rotation.rotate_glam(p) + self.translation
    }

    /// `Pose::inverse_transform_point`.
    #[inline(always)]
    pub(crate) fn inverse_transform_point_glam(&self, p: Vec3X8) -> Vec3X8 {
        self.rotation.conjugate().rotate_glam(p - self.translation)
    }

    /// `Pose::inverse_transform_vector`.
    #[inline(always)]
    pub(crate) fn inverse_transform_vector_glam(&self, v: Vec3X8) -> Vec3X8 {
        self.rotation.conjugate().rotate_glam(v)
    }
}

#[cfg(test)]
mod tests {
    use gjk_core::Pose;
    use glam::{Mat3, Quat, Vec3};

    use super::*;

    /// Bit for bit against glam on x86-64 (the module's promise), on awkward
    /// rotations and vectors far from the origin.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn rounds_as_glam() {
        let poses: [Pose; 8] = std::array::from_fn(|i| {
            let axis = Vec3::new(1.0, 0.3 * i as f32 - 1.0, 0.7).normalize();
            let t = Vec3::new(1e4 * i as f32, -3.7, 0.1 * i as f32);
            Pose::new(Quat::from_axis_angle(axis, 0.9 * i as f32 + 0.1), t).unwrap()
        });
        let others: [Pose; 8] = std::array::from_fn(|i| {
            let q = Quat::from_rotation_y(-0.7 * i as f32) * Quat::from_rotation_x(0.3);
            Pose::new(q, Vec3::new(1e4 * i as f32 + 1.5, 2.25, -0.5)).unwrap()
        });
        let vs: [Vec3; 8] = std::array::from_fn(|i| {
            Vec3::new(0.3 + i as f32, -1.2 * i as f32, 2.0 / (1.0 + i as f32))
        });
        let (pa, pb, v) = (
            PoseX8::from_array(poses),
            PoseX8::from_array(others),
            Vec3X8::from_array(vs),
        );
        let rel = pa.relative_glam(&pb);
        let rot = rel.rotation_matrix();
        let bits = |v: Vec3| v.to_array().map(f32::to_bits);
        for i in 0..8 {
            let want = poses[i].relative(&others[i]);
            let q = rel.rotation.to_array()[i];
            assert_eq!(
                q.to_array().map(f32::to_bits),
                want.rotation().to_array().map(f32::to_bits)
            );
            assert_eq!(bits(rel.translation.lane(i)), bits(want.translation()));
            let m = Mat3::from_quat(want.rotation());
            assert_eq!(bits(rot.mul_vec3_glam(v).lane(i)), bits(m * vs[i]));
            assert_eq!(
                bits(rot.transpose_mul_vec3_glam(v).lane(i)),
                bits(m.transpose() * vs[i])
            );
            assert_eq!(
                bits(pa.transform_point_glam(v).lane(i)),
                bits(poses[i].transform_point(vs[i]))
            );
            assert_eq!(
                bits(pa.inverse_transform_point_glam(v).lane(i)),
                bits(poses[i].inverse_transform_point(vs[i]))
            );
            assert_eq!(
                bits(pa.inverse_transform_vector_glam(v).lane(i)),
                bits(poses[i].inverse_transform_vector(vs[i]))
            );
            let w = Vec3::new(0.5, -2.0, 1.0 + i as f32);
            let wx = Vec3X8::splat(w);
            assert_eq!(bits(v.cross_glam(wx).lane(i)), bits(vs[i].cross(w)));
            assert_eq!(
                v.dot_glam(wx).to_array()[i].to_bits(),
                vs[i].dot(w).to_bits()
            );
            assert_eq!(
                bits(v.normalize_or_glam(Vec3X8::ZERO).lane(i)),
                bits(vs[i].normalize_or_zero())
            );
        }
        let nan = Vec3X8::splat(Vec3::NAN);
        assert_eq!(
            Vec3X8::ZERO.normalize_or_glam(Vec3X8::ZERO).lane(0),
            Vec3::ZERO,
            "zero has the fallback"
        );
        assert!(Vec3X8::ZERO.normalize_or_glam(nan).lane(0).is_nan());
    }
}
