//! Support features: the vertex, edge or face of a shape's core that faces a
//! direction, with ids that name it on the shape. Contact manifolds are built from
//! the features of both shapes ([`crate::query::manifold`]); each shape makes its own
//! ([`crate::SupportMap::support_feature`]).

use glam::{Mat3, Vec3};

/// The kind of a [`FeatureId`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeatureKind {
    /// No feature (a shape that does not name its features).
    Unknown,
    /// A vertex of the core (or a point of a curved rim that follows the contact).
    Vertex,
    /// An edge of the core (a segment core, a box edge, a cylinder's side line).
    Edge,
    /// A face of the core (a polygon, a disc cap).
    Face,
}

/// A feature of one shape: its kind and its index among the shape's features of
/// that kind, packed in 32 bits (kind in the top two).
///
/// Ids depend on the shape alone, not on the pose: the same corner of a box keeps
/// its id however the box moves, which is what makes a manifold point's id stable
/// from step to step.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FeatureId(u32);

const KIND_SHIFT: u32 = 30;
const INDEX_MASK: u32 = (1 << KIND_SHIFT) - 1;

impl FeatureId {
    /// No feature.
    pub const UNKNOWN: FeatureId = FeatureId(0);

    /// Vertex `index` (below 2^30).
    #[inline]
    pub const fn vertex(index: u32) -> Self {
        FeatureId((1 << KIND_SHIFT) | (index & INDEX_MASK))
    }

    /// Edge `index` (below 2^30).
    #[inline]
    pub const fn edge(index: u32) -> Self {
        FeatureId((2 << KIND_SHIFT) | (index & INDEX_MASK))
    }

    /// Face `index` (below 2^30).
    #[inline]
    pub const fn face(index: u32) -> Self {
        FeatureId((3 << KIND_SHIFT) | (index & INDEX_MASK))
    }

    /// The kind of feature.
    #[inline]
    pub const fn kind(self) -> FeatureKind {
        match self.0 >> KIND_SHIFT {
            1 => FeatureKind::Vertex,
            2 => FeatureKind::Edge,
            3 => FeatureKind::Face,
            _ => FeatureKind::Unknown,
        }
    }

    /// The index among the shape's features of this kind.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 & INDEX_MASK
    }

    /// The packed bits.
    #[inline]
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// The id whose packed bits are `bits` (the inverse of
    /// [`to_bits`](Self::to_bits); every `u32` is an id, of kind
    /// [`FeatureKind::Unknown`] when its top two bits are zero).
    #[inline]
    pub const fn from_bits(bits: u32) -> Self {
        FeatureId(bits)
    }
}

impl std::fmt::Debug for FeatureId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind() {
            FeatureKind::Unknown => write!(f, "Unknown"),
            FeatureKind::Vertex => write!(f, "Vertex({})", self.index()),
            FeatureKind::Edge => write!(f, "Edge({})", self.index()),
            FeatureKind::Face => write!(f, "Face({})", self.index()),
        }
    }
}

/// The feature of a core that supports a direction, in the shape's local frame
/// (or, once [`transform`](Self::transform)ed, in another): one vertex, a segment
/// (two vertices) or a convex polygon (three or more, counter-clockwise seen from
/// outside, that is against [`normal`](Self::normal)).
///
/// Each vertex has an id, each edge (from vertex `i` to `i + 1`, the last one back
/// to the first for a polygon; one edge for a segment) has an id, and so has the
/// feature itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Feature {
    vertices: Vec<Vec3>,
    vertex_ids: Vec<FeatureId>,
    edge_ids: Vec<FeatureId>,
    id: FeatureId,
    normal: Vec3,
}

impl Feature {
    /// An empty feature, to be filled by [`crate::SupportMap::support_feature`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes this feature the single vertex `p`.
    pub fn set_vertex(&mut self, p: Vec3, id: FeatureId) {
        self.clear();
        self.vertices.push(p);
        self.vertex_ids.push(id);
        self.id = id;
    }

    /// Makes this feature the segment from `p` to `q` (vertex ids `ids`, edge `id`).
    pub fn set_segment(&mut self, p: Vec3, q: Vec3, ids: [FeatureId; 2], id: FeatureId) {
        self.clear();
        self.vertices.extend([p, q]);
        self.vertex_ids.extend(ids);
        self.edge_ids.push(id);
        self.id = id;
    }

    /// Starts a polygon with outward unit normal `normal` and id `id`; its vertices
    /// follow by [`push_polygon_vertex`](Self::push_polygon_vertex).
    pub fn begin_polygon(&mut self, normal: Vec3, id: FeatureId) {
        self.clear();
        self.normal = normal;
        self.id = id;
    }

    /// Appends a polygon vertex and the id of the edge that leaves it.
    pub fn push_polygon_vertex(&mut self, p: Vec3, id: FeatureId, edge: FeatureId) {
        self.vertices.push(p);
        self.vertex_ids.push(id);
        self.edge_ids.push(edge);
    }

    fn clear(&mut self) {
        self.vertices.clear();
        self.vertex_ids.clear();
        self.edge_ids.clear();
        self.normal = Vec3::ZERO;
        self.id = FeatureId::UNKNOWN;
    }

    /// The vertices.
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The id of each vertex.
    #[inline]
    pub fn vertex_ids(&self) -> &[FeatureId] {
        &self.vertex_ids
    }

    /// The id of each edge (`edge_ids()[i]` runs from vertex `i` to the next).
    #[inline]
    pub fn edge_ids(&self) -> &[FeatureId] {
        &self.edge_ids
    }

    /// The id of the whole feature (the face, the edge or the vertex).
    #[inline]
    pub fn id(&self) -> FeatureId {
        self.id
    }

    /// The outward unit normal of a polygon; zero for a vertex or a segment.
    #[inline]
    pub fn normal(&self) -> Vec3 {
        self.normal
    }

    /// Whether the feature is a polygon (three vertices or more).
    #[inline]
    pub fn is_polygon(&self) -> bool {
        self.vertices.len() >= 3
    }

    /// Moves the feature by the rigid motion `x ↦ rotation · x + offset` (from the
    /// shape's frame to another).
    pub fn transform(&mut self, rotation: &Mat3, offset: Vec3) {
        for v in &mut self.vertices {
            *v = *rotation * *v + offset;
        }
        self.normal = *rotation * self.normal;
    }
}
