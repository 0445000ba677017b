//! Eight cylinders.

use gjk_core::tolerance::CAP_POLYGON_VERTICES;
use gjk_core::{CoreSymmetry, Cylinder, FeatureId, Shape, ShapeError};
use wide::f32x8;

use super::check_lanes;
use super::shape_x8::{LaneShape, pack_axial};
use super::{disc_support, signed_extent};
use crate::feature_x8::{FeatureMapX8, FeatureX8, disc_support_glam, splat_rank};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight solid cylinders about their local Y axes (the twin of
/// [`gjk_core::Cylinder`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CylinderX8 {
    half_height: f32x8,
    radius: f32x8,
}

impl CylinderX8 {
    /// Validated lanes: every half height and radius finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Cylinder::new`]
    /// checks one; the error names the field.
    pub fn new(half_height: f32x8, radius: f32x8) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_lanes("CylinderX8", "half_height", half_height)?,
            radius: check_lanes("CylinderX8", "radius", radius)?,
        })
    }

    /// Half the heights.
    pub fn half_height(&self) -> f32x8 {
        self.half_height
    }

    /// Radii.
    pub fn radius(&self) -> f32x8 {
        self.radius
    }

    /// Cylinder `i` in lane `i`.
    pub fn from_array(s: [Cylinder; 8]) -> Self {
        Self {
            half_height: f32x8::new(s.map(|s| s.half_height())),
            radius: f32x8::new(s.map(|s| s.radius())),
        }
    }
}

impl SupportMapX8 for CylinderX8 {
    const CORE_SYMMETRY: CoreSymmetry = CoreSymmetry::RevolutionY;

    /// A point of the rim of the cap facing `dir`.
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        let mut p = disc_support(dir, self.radius);
        p.y = signed_extent(dir.y, self.half_height);
        p
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

impl FeatureMapX8 for CylinderX8 {
    const MAX_VERTICES: usize = 2;
    /// As `gjk_core::Cylinder`'s: the cap facing `dir` when `dir` is within 45
    /// degrees of the axis (named, face 0 or 1, not held: a 16-gon), else the side
    /// line through the rim points that support `dir`, edge `2N + 4` from vertex
    /// `2N` to `2N + 1` (`N` = [`CAP_POLYGON_VERTICES`]). A cap of radius 0 is
    /// held, as the vertex at its centre, and a disc's side is its rim point.
    #[inline(always)]
    fn support_feature_x8(&self, dir: Vec3X8, _lanes: MaskX8) -> FeatureX8 {
        let n = CAP_POLYGON_VERTICES;
        let xz = (dir.x * dir.x + dir.z * dir.z).sqrt();
        let cap = dir.y.abs().ge(xz);
        let up = dir.y.ge(f32x8::ZERO);
        let rim = disc_support_glam(dir, self.radius);
        let h = Vec3X8::new(f32x8::ZERO, self.half_height, f32x8::ZERO);
        let mut f = FeatureX8::segment(
            rim - h,
            rim + h,
            [
                splat_rank(FeatureId::vertex(2 * n)),
                splat_rank(FeatureId::vertex(2 * n + 1)),
            ],
            splat_rank(FeatureId::edge(2 * n + 4)),
        );
        let cap_id = up.select(
            splat_rank(FeatureId::face(1)),
            splat_rank(FeatureId::face(0)),
        );
        // As gjk-core's: a disc's side is its rim point, a needle's cap its centre.
        let rim_point = FeatureX8::vertex(rim, splat_rank(FeatureId::vertex(2 * n)));
        f = FeatureX8::select(self.half_height.same(f32x8::ZERO), &rim_point, &f);
        f.id = cap.select(cap_id, f.id);
        f.held = !cap;
        let centre = Vec3X8::new(
            f32x8::ZERO,
            up.select(self.half_height, -self.half_height),
            f32x8::ZERO,
        );
        let cap_point = FeatureX8::vertex(centre, cap_id);
        let needle = self.radius.same(f32x8::ZERO);
        f = FeatureX8::select(cap & needle, &cap_point, &f);
        // A cylinder of no size is one vertex from every direction.
        let point = FeatureX8::vertex(Vec3X8::ZERO, splat_rank(FeatureId::vertex(2 * n)));
        FeatureX8::select(needle & self.half_height.same(f32x8::ZERO), &point, &f)
    }
    #[inline(always)]
    fn bounding_radius_glam(&self) -> f32x8 {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }
}

impl LaneShape for CylinderX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        (self.half_height, self.radius) = pack_axial(shapes, |s| match s {
            Shape::Cylinder(c) => Some((c.half_height(), c.radius())),
            _ => None,
        });
    }
}
