//! Cone about the local Y axis.

use glam::Vec3;

use super::cylinder::{CapIds, cap_polygon, disc_support};
use crate::error::{ShapeError, check_size};
use crate::feature::{Feature, FeatureId};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap, disc_extents};
use crate::tolerance::CAP_POLYGON_VERTICES;

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

    /// The base when its normal (`-y`) is closer to `dir` than the side's normal
    /// in the plane of the axis and `dir`, else the side line from the rim point
    /// that supports `dir` to the apex. With `N` = [`CAP_POLYGON_VERTICES`]: base
    /// rim samples are vertices `0..N`, the exact rim point `N`, the apex `N + 1`;
    /// chords `0..N`, split chords `N, N + 1`, the side line edge `N + 2`; the base
    /// is face 0. A needle's base (radius 0) is the vertex at its centre, with the
    /// base's id, and a cone of no size the point, vertex `N`.
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        let n = CAP_POLYGON_VERTICES;
        let (h, r) = (self.half_height, self.radius);
        let xz = (dir.x * dir.x + dir.z * dir.z).sqrt();
        // The side's outward normal is (2h · radial + r · y) / √(4h² + r²).
        let side = (2.0 * h * xz + r * dir.y) / (4.0 * h * h + r * r).sqrt();
        if -dir.y >= side {
            let ids = CapIds {
                first_vertex: 0,
                rim_vertex: n,
                first_edge: 0,
                split_edges: [n, n + 1],
                face: 0,
            };
            cap_polygon(out, r, -h, false, dir, &ids);
        } else {
            // Straight up, any side line will do: the one towards +x.
            let radial = if xz > 0.0 { dir } else { Vec3::X };
            let mut rim = disc_support(radial, r);
            rim.y = -h;
            if r == 0.0 && h == 0.0 {
                // A cone of no size is a point: its side, a segment of no length.
                out.set_vertex(rim, FeatureId::vertex(n));
                return;
            }
            out.set_segment(
                rim,
                Vec3::new(0.0, h, 0.0),
                [FeatureId::vertex(n), FeatureId::vertex(n + 1)],
                FeatureId::edge(n + 2),
            );
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
