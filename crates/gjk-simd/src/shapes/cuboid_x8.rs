//! Eight boxes.

use gjk_core::{Cuboid, Shape, ShapeError};
use wide::f32x8;

use super::check_lanes;
use super::shape_x8::LaneShape;
use super::signed_extent;
use crate::feature_x8::{FeatureMapX8, FeatureX8, edge_rank, face_rank, vertex_rank};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight boxes centred at their local origins (the twin of [`gjk_core::Cuboid`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CuboidX8 {
    half_extents: Vec3X8,
}

impl CuboidX8 {
    /// Validated lanes: every half extent finite, `>= 0` and at most
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE), as [`gjk_core::Cuboid::new`]
    /// checks one.
    pub fn new(half_extents: Vec3X8) -> Result<Self, ShapeError> {
        Ok(Self {
            half_extents: Vec3X8::new(
                check_lanes("CuboidX8", "half_extents.x", half_extents.x)?,
                check_lanes("CuboidX8", "half_extents.y", half_extents.y)?,
                check_lanes("CuboidX8", "half_extents.z", half_extents.z)?,
            ),
        })
    }

    /// Half-extents.
    pub fn half_extents(&self) -> Vec3X8 {
        self.half_extents
    }

    /// Box `i` in lane `i`.
    pub fn from_array(s: [Cuboid; 8]) -> Self {
        Self {
            half_extents: Vec3X8::from_array(s.map(|s| s.half_extents())),
        }
    }
}

impl SupportMapX8 for CuboidX8 {
    /// The corner in the octant of `dir` (three selects, no branch).
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, _active: MaskX8) -> Vec3X8 {
        let h = self.half_extents;
        Vec3X8::new(
            signed_extent(dir.x, h.x),
            signed_extent(dir.y, h.y),
            signed_extent(dir.z, h.z),
        )
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.half_extents.length()
    }
    fn finite(&self) -> MaskX8 {
        self.half_extents.finite()
    }
    #[inline(always)]
    fn box_core(&self) -> Option<Vec3X8> {
        Some(self.half_extents)
    }
}

impl FeatureMapX8 for CuboidX8 {
    const MAX_VERTICES: usize = 4;
    /// The face whose normal is closest to `dir` (the first axis of equals), as
    /// `gjk_core::Cuboid`'s: its corners counter-clockwise seen from outside, ids
    /// corner `x + 2y + 4z` (1 for the positive side of each axis), edge
    /// `4a + s + 2t` along axis `a` (`s`, `t`: sides on the next two axes), face
    /// `2a + s`. Every lane computes all three axes' roles and keeps its own by
    /// selects: the face is axis `a`, the corners run over the next two axes
    /// `j = a + 1` and `k = a + 2` (mod 3). A face of no width is its segment
    /// or its point, and a box of no size corner 7, as in gjk-core.
    #[inline(always)]
    fn support_feature_x8(&self, dir: Vec3X8, _lanes: MaskX8) -> FeatureX8 {
        let (zero, one) = (f32x8::ZERO, f32x8::ONE);
        let h = self.half_extents;
        let a = dir.abs();
        let is_x = a.x.ge(a.y) & a.x.ge(a.z);
        let is_y = !is_x & a.y.ge(a.z);
        let is_z = !(is_x | is_y);
        let positive = is_x.select(dir.x, is_y.select(dir.y, dir.z)).ge(zero);
        let s = positive.select(one, -one);
        let axis = is_x.select(zero, is_y.select(one, f32x8::splat(2.0)));
        let j = is_x.select(one, is_y.select(f32x8::splat(2.0), zero));
        let k = is_x.select(f32x8::splat(2.0), is_y.select(zero, one));
        let bit = |m: MaskX8| m.select(one, zero);
        let mut f = FeatureX8 {
            id: face_rank(axis * f32x8::splat(2.0) + bit(positive)),
            normal: Vec3X8::new(
                is_x.select(s, zero),
                is_y.select(s, zero),
                is_z.select(s, zero),
            ),
            len: f32x8::splat(4.0),
            held: MaskX8::ALL,
            named: MaskX8::ALL,
            ..FeatureX8::default()
        };
        // Corner c's sides on j and k: (+,+), (-,+), (-,-), (+,-) for a positive
        // face, the reverse turn for a negative one (sides on k flipped).
        let sj = [one, -one, -one, one];
        let sk = [one, one, -one, -one].map(|v| v * s);
        for c in 0..4 {
            let (on_j, on_k) = (sj[c], sk[c]);
            // The corner's side on each axis; ids come from these, as in gjk-core.
            let side = Vec3X8::new(
                is_x.select(s, is_y.select(on_k, on_j)),
                is_x.select(on_j, is_y.select(s, on_k)),
                is_x.select(on_k, is_y.select(on_j, s)),
            );
            let p = Vec3X8::new(side.x * h.x, side.y * h.y, side.z * h.z);
            let corner = bit(side.x.gt(zero))
                + bit(side.y.gt(zero)) * f32x8::splat(2.0)
                + bit(side.z.gt(zero)) * f32x8::splat(4.0);
            // The edge to the next corner runs along j from even corners, along k
            // from odd ones.
            let (pos_j, pos_k) = (bit(on_j.gt(zero)), bit(on_k.gt(zero)));
            let four = f32x8::splat(4.0);
            let two = f32x8::splat(2.0);
            let edge = if c % 2 == 0 {
                four * j + pos_k + two * bit(positive)
            } else {
                four * k + bit(positive) + two * pos_j
            };
            f.vertices[c] = p;
            f.vertex_ids[c] = vertex_rank(corner);
            f.edge_ids[c] = edge_rank(edge);
        }
        // A face of no width is its segment or its point, as in gjk-core
        // (`collapse_flat_face`): corners 0 and 1 differ on j, 0 and 3 on k.
        let flat_j = is_x.select(h.y, is_y.select(h.z, h.x)).same(zero);
        let flat_k = is_x.select(h.z, is_y.select(h.x, h.y)).same(zero);
        if (flat_j | flat_k).any() {
            let along_k = FeatureX8::segment(
                f.vertices[0],
                f.vertices[3],
                [f.vertex_ids[0], f.vertex_ids[3]],
                f.edge_ids[3],
            );
            let along_j = FeatureX8::segment(
                f.vertices[0],
                f.vertices[1],
                [f.vertex_ids[0], f.vertex_ids[1]],
                f.edge_ids[0],
            );
            let point = FeatureX8::vertex(f.vertices[0], f.vertex_ids[0]);
            let segment = FeatureX8::select(flat_k, &along_j, &along_k);
            let collapsed = FeatureX8::select(flat_j & flat_k, &point, &segment);
            f = FeatureX8::select(flat_j | flat_k, &collapsed, &f);
            // A box of no size is one corner from every direction.
            let no_size = h.x.same(zero) & h.y.same(zero) & h.z.same(zero);
            let corner = FeatureX8::vertex(Vec3X8::ZERO, vertex_rank(f32x8::splat(7.0)));
            f = FeatureX8::select(no_size, &corner, &f);
        }
        f
    }
    #[inline(always)]
    fn bounding_radius_glam(&self) -> f32x8 {
        self.half_extents.length_glam()
    }
}

impl LaneShape for CuboidX8 {
    #[inline(always)]
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        let mut h = [glam::Vec3::ZERO; 8];
        for (k, s) in shapes.iter().enumerate() {
            if let Shape::Cuboid(c) = s {
                h[k] = c.half_extents();
            }
        }
        self.half_extents = Vec3X8::from_array(h);
    }
}
