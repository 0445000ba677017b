//! Eight cones.

use gjk_core::tolerance::CAP_POLYGON_VERTICES;
use gjk_core::{Cone, CoreSymmetry, FeatureId, Shape, ShapeError};
use wide::f32x8;

use super::check_lanes;
use super::disc_support;
use super::shape_x8::{LaneShape, pack_axial};
use crate::feature_x8::{FeatureMapX8, FeatureX8, disc_support_glam, splat_rank};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight solid cones about their local Y axes, apex at `+half_height`, base disc at
/// `-half_height` (the twin of [`gjk_core::Cone`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ConeX8 {
    half_height: f32x8,
    radius: f32x8,
}

impl ConeX8 {
    /// Validated lanes: every half height and radius finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Cone::new`]
    /// checks one; the error names the field.
    pub fn new(half_height: f32x8, radius: f32x8) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_lanes("ConeX8", "half_height", half_height)?,
            radius: check_lanes("ConeX8", "radius", radius)?,
        })
    }

    /// Half the heights.
    pub fn half_height(&self) -> f32x8 {
        self.half_height
    }

    /// Base radii.
    pub fn radius(&self) -> f32x8 {
        self.radius
    }

    /// Cone `i` in lane `i`.
    pub fn from_array(s: [Cone; 8]) -> Self {
        Self {
            half_height: f32x8::new(s.map(|s| s.half_height())),
            radius: f32x8::new(s.map(|s| s.radius())),
        }
    }
}

impl SupportMapX8 for ConeX8 {
    const CORE_SYMMETRY: CoreSymmetry = CoreSymmetry::RevolutionY;

    /// A cone is the hull of its apex and its base rim: per lane, whichever of the
    /// two candidates reaches farther along `dir` (the apex on ties, as in
    /// `gjk-core`).
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        let mut rim = disc_support(dir, self.radius);
        rim.y = -self.half_height;
        let apex = Vec3X8::new(f32x8::ZERO, self.half_height, f32x8::ZERO);
        rim.dot(dir).gt(self.half_height * dir.y).select(rim, apex)
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.radius
            .mul_add(self.radius, self.half_height * self.half_height)
            .sqrt()
    }
    fn finite(&self) -> MaskX8 {
        self.half_height.finite() & self.radius.finite()
    }
}

impl FeatureMapX8 for ConeX8 {
    const MAX_VERTICES: usize = 2;
    /// As `gjk_core::Cone`'s: the base facing `dir` when `dir` is closer to the
    /// base's normal than to the side's (named, face 0, not held: a 16-gon), else
    /// the side line from the rim point that supports `dir` (the one towards `+x`
    /// straight up) to the apex, edge `N + 2` from vertex `N` to `N + 1`
    /// (`N` = [`CAP_POLYGON_VERTICES`]). A base of radius 0 is held, as the
    /// vertex at its centre, and a cone of no size is a point.
    #[inline(always)]
    fn support_feature_x8(&self, dir: Vec3X8, _lanes: MaskX8) -> FeatureX8 {
        let n = CAP_POLYGON_VERTICES;
        let (h, r) = (self.half_height, self.radius);
        let two = f32x8::splat(2.0);
        let xz = (dir.x * dir.x + dir.z * dir.z).sqrt();
        // The side's outward normal is (2h · radial + r · y) / √(4h² + r²).
        let side = (two * h * xz + r * dir.y) / (f32x8::splat(4.0) * h * h + r * r).sqrt();
        let cap = (-dir.y).ge(side);
        let leans = xz.gt(f32x8::ZERO);
        let radial = Vec3X8::new(
            leans.select(dir.x, f32x8::ONE),
            leans.select(dir.y, f32x8::ZERO),
            leans.select(dir.z, f32x8::ZERO),
        );
        let mut rim = disc_support_glam(radial, r);
        rim.y = -h;
        let apex = Vec3X8::new(f32x8::ZERO, h, f32x8::ZERO);
        let mut f = FeatureX8::segment(
            rim,
            apex,
            [
                splat_rank(FeatureId::vertex(n)),
                splat_rank(FeatureId::vertex(n + 1)),
            ],
            splat_rank(FeatureId::edge(n + 2)),
        );
        // As gjk-core's: a cone of no size is a point, a needle's base its centre.
        let zero = f32x8::ZERO;
        let point = FeatureX8::vertex(rim, splat_rank(FeatureId::vertex(n)));
        f = FeatureX8::select(h.same(zero) & r.same(zero), &point, &f);
        let cap_id = splat_rank(FeatureId::face(0));
        f.id = cap.select(cap_id, f.id);
        f.held = !cap;
        let centre = Vec3X8::new(zero, -h, zero);
        FeatureX8::select(cap & r.same(zero), &FeatureX8::vertex(centre, cap_id), &f)
    }
    #[inline(always)]
    fn bounding_radius_glam(&self) -> f32x8 {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }
}

impl LaneShape for ConeX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        (self.half_height, self.radius) = pack_axial(shapes, |s| match s {
            Shape::Cone(c) => Some((c.half_height(), c.radius())),
            _ => None,
        });
    }
}
