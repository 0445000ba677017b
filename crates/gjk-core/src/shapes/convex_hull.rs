//! Convex polytope given by its vertices, with a support function that scans small
//! hulls and hill-climbs large ones.

use glam::{Vec3, Vec3A};

use super::hull_faces::HullFaces;
use super::quickhull::quickhull;
use crate::error::ShapeError;
use crate::feature::{Feature, FeatureId};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::SupportMap;
use crate::tolerance::{
    HULL_CLIMB_MIN_DEPTH, HULL_HILL_CLIMB_MIN_VERTICES, HULL_RELATIVE_TOLERANCE,
};

/// The convex hull of a point set: vertices, triangular faces (counter-clockwise
/// seen from outside) and, for each vertex, its neighbours along hull edges.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexHull {
    vertices: Vec<Vec3>,
    faces: Vec<[u32; 3]>,
    /// Neighbours of vertex `i` are `neighbours[neighbour_start[i]..neighbour_start[i + 1]]`.
    neighbour_start: Vec<u32>,
    neighbours: Vec<u32>,
    bounding_radius: f32,
    inner_radius: f32,
    /// The faces as polygons (coplanar triangles merged), for support features.
    polygons: HullFaces,
    /// Whether the support hill-climbs (a solid hull of at least
    /// [`HULL_HILL_CLIMB_MIN_VERTICES`] vertices) or scans (smaller hulls, and
    /// slivers, flat and lower-dimensional hulls, whose adjacency may not be
    /// that of a convex solid).
    climb: bool,
}

/// The distance from the local origin to the nearest face plane (f64, then shrunk
/// by the hull tolerance: quickhull merges points within
/// `HULL_RELATIVE_TOLERANCE × extent` of a plane, so a face may bend by that much
/// and the ball must stay inside all the same); `NEG_INFINITY` when the origin is
/// not inside by more than that tolerance.
fn inner_radius(vertices: &[Vec3], faces: &[[u32; 3]], bounding_radius: f32) -> f32 {
    let nearest = face_planes(vertices, faces)
        .map(|(n, a)| n.dot(a))
        .fold(f64::INFINITY, f64::min);
    let slack = 4.0 * HULL_RELATIVE_TOLERANCE * f64::from(bounding_radius);
    if nearest.is_finite() && nearest > slack {
        (nearest - slack) as f32
    } else {
        f32::NEG_INFINITY
    }
}

/// Whether every face of the closed mesh `faces` faces away from the vertices'
/// centroid (a point inside the hull) by more than the construction tolerance,
/// and by at least [`HULL_CLIMB_MIN_DEPTH`] of the hull's radius about the
/// centroid. A nearly flat solid (a slab a hundred thousandth as thick as it is
/// wide) can come out of quickhull with sliver side faces folded by its
/// tolerance, turned inwards or not; hill climbing over such a mesh stopped on
/// local maxima up to a tenth short of the support, so those hulls scan instead.
fn deep_enough_to_climb(vertices: &[Vec3], faces: &[[u32; 3]], bounding_radius: f32) -> bool {
    let slack = 4.0 * HULL_RELATIVE_TOLERANCE * f64::from(bounding_radius);
    let centroid =
        vertices.iter().map(|v| v.as_dvec3()).sum::<glam::DVec3>() / vertices.len().max(1) as f64;
    let radius = vertices
        .iter()
        .map(|v| v.as_dvec3().distance(centroid))
        .fold(0.0, f64::max);
    let depth = slack.max(HULL_CLIMB_MIN_DEPTH * radius);
    face_planes(vertices, faces).all(|(n, a)| n.dot(a - centroid) > depth)
}

/// Each face's unit normal (zero for a degenerate triangle) and first vertex, in
/// f64.
fn face_planes<'m>(
    vertices: &'m [Vec3],
    faces: &'m [[u32; 3]],
) -> impl Iterator<Item = (glam::DVec3, glam::DVec3)> + 'm {
    faces.iter().map(|f| {
        let [a, b, c] = f.map(|i| vertices[i as usize].as_dvec3());
        ((b - a).cross(c - a).normalize_or_zero(), a)
    })
}

impl ConvexHull {
    /// Builds the hull of `points` with quickhull. Errors on no points, NaN or
    /// infinite coordinates and coordinates beyond
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE). Points that lie in a plane give a
    /// flat polygon (its faces are its triangles, once per side), points on a line
    /// a segment, coincident points a point (no faces); slivers are solids down to
    /// one f32 ulp of thickness. Interior points and points within the construction
    /// tolerance of a face are dropped, so the vertices are a subset of the input.
    ///
    /// ```
    /// use gjk_core::glam::Vec3;
    /// use gjk_core::{ConvexHull, SupportMap};
    ///
    /// // A card: four corners in the plane z = 0, and its centre.
    /// let card = [
    ///     Vec3::new(-1.0, -0.5, 0.0),
    ///     Vec3::new(1.0, -0.5, 0.0),
    ///     Vec3::new(1.0, 0.5, 0.0),
    ///     Vec3::new(-1.0, 0.5, 0.0),
    ///     Vec3::ZERO,
    /// ];
    /// let hull = ConvexHull::from_points(&card)?;
    /// assert_eq!(hull.vertices().len(), 4);
    /// // Flat: no ball fits inside.
    /// assert_eq!(hull.inner_radius(), f32::NEG_INFINITY);
    /// // A sliver one ulp high is a solid of four vertices.
    /// let apex = Vec3::new(0.0, 0.0, f32::EPSILON);
    /// let sliver = ConvexHull::from_points(&[card[0], card[1], card[2], apex])?;
    /// assert_eq!(sliver.vertices().len(), 4);
    /// # Ok::<(), gjk_core::ShapeError>(())
    /// ```
    pub fn from_points(points: &[Vec3]) -> Result<Self, ShapeError> {
        let mesh = quickhull(points)?;
        let n = mesh.vertices.len();
        let mut adjacency: Vec<Vec<u32>> = vec![Vec::new(); n];
        for tri in &mesh.triangles {
            for k in 0..3 {
                let (a, b) = (tri[k], tri[(k + 1) % 3]);
                adjacency[a as usize].push(b);
                adjacency[b as usize].push(a);
            }
        }
        let mut neighbour_start = Vec::with_capacity(n + 1);
        let mut neighbours = Vec::new();
        for list in &mut adjacency {
            list.sort_unstable();
            list.dedup();
            neighbour_start.push(neighbours.len() as u32);
            neighbours.extend_from_slice(list);
        }
        neighbour_start.push(neighbours.len() as u32);
        let bounding_radius = mesh.vertices.iter().map(|v| v.length()).fold(0.0, f32::max);
        let inner_radius = inner_radius(&mesh.vertices, &mesh.triangles, bounding_radius);
        let polygons = HullFaces::new(&mesh.vertices, &mesh.triangles);
        let climb = mesh.solid
            && n >= HULL_HILL_CLIMB_MIN_VERTICES
            && deep_enough_to_climb(&mesh.vertices, &mesh.triangles, bounding_radius);
        Ok(Self {
            vertices: mesh.vertices,
            faces: mesh.triangles,
            neighbour_start,
            neighbours,
            bounding_radius,
            inner_radius,
            polygons,
            climb,
        })
    }

    /// Whether the support hill-climbs over the vertex adjacency rather than
    /// scanning every vertex: for solid hulls of at least
    /// [`HULL_HILL_CLIMB_MIN_VERTICES`] vertices whose every face plane lies at
    /// least [`HULL_CLIMB_MIN_DEPTH`] of the hull's radius from its centroid
    /// (nearly flat solids can have sliver faces folded by quickhull's
    /// tolerance, where climbing stops short).
    #[inline]
    pub fn climbs(&self) -> bool {
        self.climb
    }

    /// The hull's vertices.
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The hull's triangles as vertex indices, counter-clockwise from outside.
    #[inline]
    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }

    /// Number of polygonal faces (coplanar triangles merged into one).
    #[inline]
    pub fn polygon_count(&self) -> usize {
        self.polygons.len()
    }

    /// Polygonal face `f`: its outward unit normal and its vertex indices,
    /// counter-clockwise seen from outside. Face `f` is the feature
    /// `FeatureId::face(f)` of the hull's support features.
    pub fn polygon(&self, f: usize) -> (Vec3, &[u32]) {
        let face = self.polygons.face(f);
        (face.normal, face.vertices)
    }

    /// The vertices joined to vertex `i` by a hull edge.
    #[inline]
    pub fn neighbours(&self, i: usize) -> &[u32] {
        &self.neighbours[self.neighbour_start[i] as usize..self.neighbour_start[i + 1] as usize]
    }

    /// Index of a vertex farthest along `dir`, scanning every vertex. Ties go to the
    /// lowest index.
    #[inline]
    pub fn support_index_scan(&self, dir: Vec3) -> usize {
        let mut best = 0;
        let mut best_dot = self.vertices[0].dot(dir);
        for (i, v) in self.vertices.iter().enumerate().skip(1) {
            let d = v.dot(dir);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        best
    }

    /// Index of a vertex farthest along `dir`, climbing from `start` to the best
    /// neighbour until none improves. On a convex polytope a vertex no neighbour
    /// beats is a global maximum of the linear function (the simplex method's
    /// optimality argument), so this is exact; each step strictly increases the dot
    /// product, so it cannot cycle, and it is capped at one step per vertex anyway.
    #[inline]
    pub fn support_index_climb(&self, dir: Vec3, start: usize) -> usize {
        let mut best = start.min(self.vertices.len() - 1);
        let mut best_dot = self.vertices[best].dot(dir);
        for _ in 0..self.vertices.len() {
            let mut next = best;
            for &nb in self.neighbours(best) {
                let d = self.vertices[nb as usize].dot(dir);
                if d > best_dot {
                    best_dot = d;
                    next = nb as usize;
                }
            }
            if next == best {
                break;
            }
            best = next;
        }
        best
    }
}

impl SupportMap for ConvexHull {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        let mut hint = 0;
        self.support_core_hinted(dir, &mut hint)
    }

    #[inline]
    fn support_core_hinted(&self, dir: Vec3, hint: &mut u32) -> Vec3 {
        let i = if self.climb {
            self.support_index_climb(dir, *hint as usize)
        } else {
            self.support_index_scan(dir)
        };
        *hint = i as u32;
        self.vertices[i]
    }

    /// The face around the support vertex whose normal is closest to `dir`: it
    /// holds the support point, and it is the face a flat contact along `dir`
    /// rests on. Vertex, edge and face ids are the hull's vertex indices, edge
    /// numbers and polygon numbers.
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        // A segment hull (two vertices) or a point hull has no faces: it touches
        // along its whole self, edge 0 or vertex 0.
        if self.faces.is_empty() {
            let ids = [FeatureId::vertex(0), FeatureId::vertex(1)];
            match self.vertices[..] {
                [a, b] => out.set_segment(a, b, ids, FeatureId::edge(0)),
                _ => out.set_vertex(self.vertices[0], ids[0]),
            }
            return;
        }
        let v = if self.climb {
            self.support_index_climb(dir, 0)
        } else {
            self.support_index_scan(dir)
        };
        let face = self
            .polygons
            .face_towards(v, dir)
            .map(|f| (f, self.polygons.face(f)));
        let Some((f, face)) = face.filter(|(_, face)| face.vertices.len() >= 3) else {
            // No polygon holds the support vertex (a hull the fuzz suite builds
            // from hostile points): the vertex alone is a feature holding a
            // support point.
            out.set_vertex(self.vertices[v], FeatureId::vertex(v as u32));
            return;
        };
        out.begin_polygon(face.normal, FeatureId::face(f as u32));
        for (&i, &e) in face.vertices.iter().zip(face.edges) {
            out.push_polygon_vertex(
                self.vertices[i as usize],
                FeatureId::vertex(i),
                FeatureId::edge(e),
            );
        }
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.bounding_radius
    }

    #[inline]
    fn inner_radius(&self) -> f32 {
        self.inner_radius
    }

    /// One pass over the rotated vertices, instead of six support searches: each
    /// vertex is rotated once and extends the box.
    fn aabb(&self, pose: &Pose) -> Aabb {
        // Vec3A: one SSE register a vector, so each vertex's rotation and the
        // running bounds are a few vector instructions instead of scalar ones.
        let rot = glam::Mat3A::from(pose.rotation_matrix());
        let (min, max) = self.vertices.iter().fold(
            (Vec3A::splat(f32::INFINITY), Vec3A::splat(f32::NEG_INFINITY)),
            |(min, max), &v| {
                let w = rot * Vec3A::from(v);
                (min.min(w), max.max(w))
            },
        );
        let t = pose.translation();
        Aabb {
            min: Vec3::from(min) + t,
            max: Vec3::from(max) + t,
        }
    }
}
