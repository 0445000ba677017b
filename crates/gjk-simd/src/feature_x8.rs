//! Support features of eight shapes at once: the twin of `gjk_core::feature`.
//!
//! [`FeatureX8`] holds, per lane, the vertex, segment or polygon (up to four vertices) of a core
//! that faces a direction, with its ids, as [`gjk_core::SupportMap::support_feature`]
//! gives it; [`FeatureMapX8`] is the wide shapes' `support_feature`, each written
//! beside the shape's support (`CuboidX8::support_feature_x8`, ...). The wide
//! manifolds clip these against each other
//! ([`crate::query::manifold_x8`]).
//!
//! A convex hull's faces live in its `gjk_core::ConvexHull` (each hull its own
//! polygons), so a hull lane's feature is looked up there, lane by lane
//! (`FeatureX8::gather`), and clipped and reduced wide with the others.
//!
//! Features larger than four vertices (a cylinder's or cone's cap of some
//! radius, a hull face of five or more vertices) are not held: the lane keeps only the feature's id
//! where the kind names it without its vertices, and the manifold leaves the
//! lane to the scalar reference whenever it needs the vertices.
//!
//! Inside the wide code an id is a *rank*: the kind (vertex 1, edge 2, face 3)
//! times 2²² plus the index, an integer an `f32` holds exactly and whose order
//! is [`FeatureId`]'s order (kind first, then index), so that ids are selected,
//! compared and ordered like any other lane value.

use std::cell::RefCell;

use gjk_core::{Feature, FeatureId, FeatureKind};
use wide::f32x8;

use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// The most vertices a [`FeatureX8`] holds per lane (a box face).
pub const FEATURE_X8_VERTICES: usize = 4;

/// The rank of kind `Vertex` with index 0: ranks of one kind are this apart.
const KIND_STEP: f32 = 4_194_304.0;

thread_local! {
    /// The scalar feature [`FeatureX8::gather`] has each lane written to: one
    /// per thread, so that no lookup allocates once it has grown.
    static SCRATCH: RefCell<Feature> = RefCell::new(Feature::new());
}

/// The rank of vertex `index`.
#[inline(always)]
pub(crate) fn vertex_rank(index: f32x8) -> f32x8 {
    index + f32x8::splat(KIND_STEP)
}

/// The rank of edge `index`.
#[inline(always)]
pub(crate) fn edge_rank(index: f32x8) -> f32x8 {
    index + f32x8::splat(2.0 * KIND_STEP)
}

/// The rank of face `index`.
#[inline(always)]
pub(crate) fn face_rank(index: f32x8) -> f32x8 {
    index + f32x8::splat(3.0 * KIND_STEP)
}

/// The [`FeatureId`] bits of each lane's rank (kind in the top two bits).
#[inline(always)]
pub(crate) fn id_bits(rank: f32x8) -> [u32; 8] {
    let kind = (rank * f32x8::splat(1.0 / KIND_STEP)).floor();
    let index = (rank - kind * f32x8::splat(KIND_STEP)).round_int();
    let bits = (kind.round_int() << 30u32) | index;
    bits.to_array().map(|b| b as u32)
}

/// The id a rank stands for.
#[inline]
pub(crate) fn feature_id(rank: f32) -> FeatureId {
    let kind = (rank / KIND_STEP).floor();
    let index = (rank - kind * KIND_STEP) as u32;
    match kind as u32 {
        1 => FeatureId::vertex(index),
        2 => FeatureId::edge(index),
        3 => FeatureId::face(index),
        _ => FeatureId::UNKNOWN,
    }
}

/// The rank of an id (exact for indices below 2²²).
pub(crate) fn rank_of(id: FeatureId) -> f32 {
    let kind = match id.kind() {
        FeatureKind::Unknown => 0.0,
        FeatureKind::Vertex => 1.0,
        FeatureKind::Edge => 2.0,
        FeatureKind::Face => 3.0,
    };
    kind * KIND_STEP + id.index() as f32
}

/// Eight support features, one per lane (the twin of [`Feature`]): a vertex, a
/// segment or a convex polygon of three or four vertices (a box face, a hull face) of the core facing a direction, in the
/// shape's frame or, once moved (`FeatureX8::transform_glam`), in another.
///
/// Lanes outside `held` hold no vertices (a cap or a face of more
/// than four vertices); lanes in `named` know the feature's id
/// even so.
#[derive(Clone, Copy, Debug)]
pub struct FeatureX8 {
    /// The vertices; a polygon's counter-clockwise seen from outside.
    pub(crate) vertices: [Vec3X8; FEATURE_X8_VERTICES],
    /// The rank of each vertex's id.
    pub(crate) vertex_ids: [f32x8; FEATURE_X8_VERTICES],
    /// The rank of the id of the edge from vertex `i` to the next.
    pub(crate) edge_ids: [f32x8; FEATURE_X8_VERTICES],
    /// The rank of the whole feature's id.
    pub(crate) id: f32x8,
    /// A polygon's outward unit normal (zero for a vertex or a segment).
    pub(crate) normal: Vec3X8,
    /// The number of vertices (1 to 4) in held lanes.
    pub(crate) len: f32x8,
    /// Lanes whose vertices are held.
    pub(crate) held: MaskX8,
    /// Lanes whose id is known.
    pub(crate) named: MaskX8,
}

impl Default for FeatureX8 {
    fn default() -> Self {
        FeatureX8 {
            vertices: [Vec3X8::ZERO; FEATURE_X8_VERTICES],
            vertex_ids: [f32x8::ZERO; FEATURE_X8_VERTICES],
            edge_ids: [f32x8::ZERO; FEATURE_X8_VERTICES],
            id: f32x8::ZERO,
            normal: Vec3X8::ZERO,
            len: f32x8::ZERO,
            held: MaskX8::NONE,
            named: MaskX8::NONE,
        }
    }
}

impl FeatureX8 {
    /// The single vertex `p`, of rank `id`, in every lane.
    #[inline(always)]
    pub(crate) fn vertex(p: Vec3X8, id: f32x8) -> Self {
        let mut f = FeatureX8 {
            id,
            len: f32x8::ONE,
            held: MaskX8::ALL,
            named: MaskX8::ALL,
            ..FeatureX8::default()
        };
        f.vertices[0] = p;
        f.vertex_ids[0] = id;
        f
    }

    /// The segment from `p` to `q` (vertex ranks `ids`, edge rank `id`) in every
    /// lane.
    #[inline(always)]
    pub(crate) fn segment(p: Vec3X8, q: Vec3X8, ids: [f32x8; 2], id: f32x8) -> Self {
        let mut f = FeatureX8 {
            id,
            len: f32x8::splat(2.0),
            held: MaskX8::ALL,
            named: MaskX8::ALL,
            ..FeatureX8::default()
        };
        f.vertices[..2].copy_from_slice(&[p, q]);
        f.vertex_ids[..2].copy_from_slice(&ids);
        f.edge_ids[0] = id;
        f
    }

    /// The features of eight scalar shapes: lane `k` is the feature `fill(k,
    /// feature)` writes, where it returns `true` (other lanes are neither
    /// held nor named). A feature of more than [`FEATURE_X8_VERTICES`]
    /// vertices is named only; one whose ids a rank cannot hold exactly (an
    /// index from 2²², a hull of millions of vertices) is neither: such lanes go
    /// to the scalar reference.
    pub(crate) fn gather(mut fill: impl FnMut(usize, &mut Feature) -> bool) -> FeatureX8 {
        let mut vertices = [[[0.0f32; 8]; 3]; FEATURE_X8_VERTICES];
        let mut vertex_ids = [[0.0f32; 8]; FEATURE_X8_VERTICES];
        let mut edge_ids = [[0.0f32; 8]; FEATURE_X8_VERTICES];
        let (mut id, mut len) = ([0.0f32; 8], [0.0f32; 8]);
        let mut normal = [[0.0f32; 8]; 3];
        let (mut held, mut named) = ([false; 8], [false; 8]);
        SCRATCH.with_borrow_mut(|f| {
            for k in 0..8 {
                if !fill(k, f) {
                    continue;
                }
                let exact = |id: &FeatureId| id.index() < KIND_STEP as u32;
                if !(exact(&f.id())
                    && f.vertex_ids().iter().all(exact)
                    && f.edge_ids().iter().all(exact))
                {
                    continue;
                }
                named[k] = true;
                id[k] = rank_of(f.id());
                let n = f.vertices().len();
                if n == 0 || n > FEATURE_X8_VERTICES {
                    continue;
                }
                held[k] = true;
                len[k] = n as f32;
                for (i, p) in f.vertices().iter().enumerate() {
                    [vertices[i][0][k], vertices[i][1][k], vertices[i][2][k]] = p.to_array();
                }
                for (i, &v) in f.vertex_ids().iter().enumerate() {
                    vertex_ids[i][k] = rank_of(v);
                }
                for (i, &e) in f.edge_ids().iter().enumerate() {
                    edge_ids[i][k] = rank_of(e);
                }
                [normal[0][k], normal[1][k], normal[2][k]] = f.normal().to_array();
            }
        });
        let vec =
            |c: &[[f32; 8]; 3]| Vec3X8::new(f32x8::new(c[0]), f32x8::new(c[1]), f32x8::new(c[2]));
        FeatureX8 {
            vertices: vertices.each_ref().map(vec),
            vertex_ids: vertex_ids.map(f32x8::new),
            edge_ids: edge_ids.map(f32x8::new),
            id: f32x8::new(id),
            normal: vec(&normal),
            len: f32x8::new(len),
            held: MaskX8::from_bools(held),
            named: MaskX8::from_bools(named),
        }
    }

    /// `self` where `mask` is set, `other` elsewhere.
    #[inline(always)]
    pub(crate) fn select(mask: MaskX8, a: &FeatureX8, b: &FeatureX8) -> FeatureX8 {
        FeatureX8 {
            vertices: std::array::from_fn(|i| mask.select(a.vertices[i], b.vertices[i])),
            vertex_ids: std::array::from_fn(|i| mask.select(a.vertex_ids[i], b.vertex_ids[i])),
            edge_ids: std::array::from_fn(|i| mask.select(a.edge_ids[i], b.edge_ids[i])),
            id: mask.select(a.id, b.id),
            normal: mask.select(a.normal, b.normal),
            len: mask.select(a.len, b.len),
            held: mask.select(a.held, b.held),
            named: mask.select(a.named, b.named),
        }
    }

    /// Moves the feature by `x ↦ rotation · x + offset`, rounded as
    /// [`Feature::transform`] (the manifold stage's promise, see
    /// `math::glam_rounding_x8`).
    #[inline(always)]
    pub(crate) fn transform_glam(&mut self, rotation: &crate::math::Mat3X8, offset: Vec3X8) {
        for v in &mut self.vertices {
            *v = rotation.mul_vec3_glam(*v) + offset;
        }
        self.normal = rotation.mul_vec3_glam(self.normal);
    }

    /// Lanes whose feature is a single vertex.
    #[inline(always)]
    pub(crate) fn is_vertex(&self) -> MaskX8 {
        self.held & self.len.same(f32x8::ONE)
    }

    /// Lane `i` as a scalar [`Feature`], `None` where its vertices are not held.
    pub fn lane(&self, i: usize) -> Option<Feature> {
        if !self.held.lane(i) {
            return None;
        }
        let len = self.len.as_array()[i] as usize;
        let at = |v: &f32x8| v.as_array()[i];
        let vertex = |k: usize| self.vertices[k].lane(i);
        let mut f = Feature::new();
        match len {
            1 => f.set_vertex(vertex(0), feature_id(at(&self.id))),
            2 => f.set_segment(
                vertex(0),
                vertex(1),
                [
                    feature_id(at(&self.vertex_ids[0])),
                    feature_id(at(&self.vertex_ids[1])),
                ],
                feature_id(at(&self.id)),
            ),
            _ => {
                f.begin_polygon(self.normal.lane(i), feature_id(at(&self.id)));
                for k in 0..len {
                    f.push_polygon_vertex(
                        vertex(k),
                        feature_id(at(&self.vertex_ids[k])),
                        feature_id(at(&self.edge_ids[k])),
                    );
                }
            }
        }
        Some(f)
    }

    /// Lane `i`'s id, `None` where it is not known.
    pub fn id_lane(&self, i: usize) -> Option<FeatureId> {
        self.named
            .lane(i)
            .then(|| feature_id(self.id.as_array()[i]))
    }
}

/// Wide shapes that name their support features: the twin of
/// [`gjk_core::SupportMap::support_feature`], lane for lane the same feature
/// (vertices, ids and normal bit for bit) where the lane holds it.
pub trait FeatureMapX8: SupportMapX8 {
    /// The most vertices a lane's feature has (1 for a point core, 2 for a
    /// segment, 4 for a box face); a feature the kind does not hold counts
    /// nothing. The manifold stage drops the clipping it cannot need.
    const MAX_VERTICES: usize;

    /// Per lane of `lanes`, the feature of the core that supports `dir`
    /// (local frame). Other lanes may be left neither held nor named (a hull
    /// looks its lanes' features up one by one, and skips them).
    fn support_feature_x8(&self, dir: Vec3X8, lanes: MaskX8) -> FeatureX8;

    /// Each lane's bounding radius rounded as its scalar twin computes it (the
    /// manifold's tolerance scales with it, see `math::glam_rounding_x8`).
    fn bounding_radius_glam(&self) -> f32x8;
}

/// The point of a disc of radius `r` in the XZ plane farthest along `dir`, rounded
/// as `gjk_core`'s: on the rim, or the centre when `dir` is parallel to Y.
#[inline(always)]
pub(crate) fn disc_support_glam(dir: Vec3X8, r: f32x8) -> Vec3X8 {
    let xz = (dir.x * dir.x + dir.z * dir.z).sqrt();
    let s = r / xz;
    let on_rim = xz.gt(f32x8::ZERO);
    Vec3X8::new(
        on_rim.select(dir.x * s, f32x8::ZERO),
        f32x8::ZERO,
        on_rim.select(dir.z * s, f32x8::ZERO),
    )
}

/// The rank of an id in every lane.
#[inline(always)]
pub(crate) fn splat_rank(id: FeatureId) -> f32x8 {
    f32x8::splat(rank_of(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_keep_the_order_and_round_trip() {
        let ids = [
            FeatureId::UNKNOWN,
            FeatureId::vertex(0),
            FeatureId::vertex(7),
            FeatureId::vertex(4_194_303),
            FeatureId::edge(0),
            FeatureId::edge(36),
            FeatureId::face(5),
            FeatureId::face(1000),
        ];
        for w in ids.windows(2) {
            assert!(w[0] < w[1] && rank_of(w[0]) < rank_of(w[1]), "{w:?}");
        }
        for id in ids {
            assert_eq!(feature_id(rank_of(id)), id);
            assert_eq!(splat_rank(id).to_array()[3], rank_of(id));
        }
    }
}
