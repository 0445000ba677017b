//! The polygonal faces of a convex hull: quickhull's coplanar triangles merged into
//! one polygon each, with edge ids and the faces around each vertex. The hull's
//! support features ([`crate::SupportMap::support_feature`]) are these polygons.

use std::collections::HashMap;

use glam::{DVec3, Vec3};

use crate::tolerance::HULL_RELATIVE_TOLERANCE;

/// The faces of a hull as convex polygons (counter-clockwise seen from outside).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HullFaces {
    /// Outward unit normal of each face.
    normals: Vec<Vec3>,
    /// Face `f`'s vertices are `loops[loop_start[f]..loop_start[f + 1]]`, and
    /// `loop_edges` at the same positions holds the id of the edge leaving each.
    loop_start: Vec<u32>,
    loops: Vec<u32>,
    loop_edges: Vec<u32>,
    /// The faces around vertex `v` are `vertex_faces[vertex_face_start[v]..][..]`.
    vertex_face_start: Vec<u32>,
    vertex_faces: Vec<u32>,
}

/// One polygon of a hull, as [`HullFaces::face`] gives it.
pub(crate) struct HullFace<'a> {
    pub normal: Vec3,
    pub vertices: &'a [u32],
    pub edges: &'a [u32],
}

impl HullFaces {
    /// Merges the triangles (counter-clockwise from outside) into polygons:
    /// neighbouring triangles whose far vertex lies within twice quickhull's
    /// tolerance of the first triangle's plane belong to one face (quickhull
    /// already treated points that close to a plane as on it).
    pub(crate) fn new(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Self {
        let points: Vec<DVec3> = vertices.iter().map(|v| v.as_dvec3()).collect();
        let (lo, hi) = points.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        );
        let eps = 2.0 * HULL_RELATIVE_TOLERANCE * (hi - lo).max_element();
        let cross = |t: &[u32; 3]| {
            let [a, b, c] = t.map(|i| points[i as usize]);
            (b - a).cross(c - a)
        };
        // The triangles holding each directed edge: one on a solid, two on a flat
        // hull, whose fan is there once per side with the same diagonals.
        let mut across: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
        for (t, tri) in triangles.iter().enumerate() {
            for k in 0..3 {
                across
                    .entry((tri[k], tri[(k + 1) % 3]))
                    .or_default()
                    .push(t);
            }
        }
        let none = Vec::new();
        let neighbours = |a: u32, b: u32| across.get(&(b, a)).unwrap_or(&none).iter().copied();
        // Flood fill from each unassigned triangle over coplanar neighbours.
        let mut group = vec![usize::MAX; triangles.len()];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for seed in 0..triangles.len() {
            if group[seed] != usize::MAX {
                continue;
            }
            let g = groups.len();
            let n = cross(&triangles[seed]).normalize_or_zero();
            let d = n.dot(points[triangles[seed][0] as usize]);
            let mut members = vec![seed];
            group[seed] = g;
            let mut cursor = 0;
            while cursor < members.len() {
                let tri = triangles[members[cursor]];
                cursor += 1;
                for u in (0..3).flat_map(|k| neighbours(tri[k], tri[(k + 1) % 3])) {
                    let coplanar = triangles[u]
                        .iter()
                        .all(|&v| (n.dot(points[v as usize]) - d).abs() <= eps);
                    if group[u] == usize::MAX && coplanar && cross(&triangles[u]).dot(n) > 0.0 {
                        group[u] = g;
                        members.push(u);
                    }
                }
            }
            groups.push(members);
        }

        let mut faces = HullFaces {
            normals: Vec::with_capacity(groups.len()),
            loop_start: vec![0],
            loops: Vec::new(),
            loop_edges: Vec::new(),
            vertex_face_start: Vec::new(),
            vertex_faces: Vec::new(),
        };
        let mut edge_ids: HashMap<(u32, u32), u32> = HashMap::new();
        for (g, members) in groups.iter().enumerate() {
            let normal: DVec3 = members.iter().map(|&t| cross(&triangles[t])).sum();
            faces.normals.push(normal.normalize_or_zero().as_vec3());
            // The boundary: directed edges whose reverse lies in another face.
            let mut next: HashMap<u32, u32> = HashMap::new();
            for &t in members {
                let tri = triangles[t];
                for k in 0..3 {
                    let (a, b) = (tri[k], tri[(k + 1) % 3]);
                    if neighbours(a, b).all(|u| group[u] != g) {
                        next.insert(a, b);
                    }
                }
            }
            // A hull the fuzz suite builds from hostile points can leave a group
            // without a boundary loop; the face is then empty and the hull's
            // support feature falls back to its support vertex.
            let Some(&start) = next.keys().min() else {
                faces.loop_start.push(faces.loops.len() as u32);
                continue;
            };
            // A convex face's boundary is one loop through each of its vertices
            // once. A boundary that does not close (hostile points again) leaves
            // the face empty rather than half a polygon.
            let (mut loop_vertices, mut loop_edges) = (Vec::new(), Vec::new());
            let mut v = start;
            let mut closed = false;
            for _ in 0..next.len() {
                let Some(&w) = next.get(&v) else {
                    break;
                };
                loop_vertices.push(v);
                loop_edges.push((v.min(w), v.max(w)));
                v = w;
                if v == start {
                    closed = true;
                    break;
                }
            }
            if closed {
                faces.loops.extend(loop_vertices);
                for key in loop_edges {
                    let fresh = edge_ids.len() as u32;
                    faces.loop_edges.push(*edge_ids.entry(key).or_insert(fresh));
                }
            }
            faces.loop_start.push(faces.loops.len() as u32);
        }
        let mut around: Vec<Vec<u32>> = vec![Vec::new(); vertices.len()];
        for f in 0..faces.normals.len() {
            for &v in faces.face(f).vertices {
                around[v as usize].push(f as u32);
            }
        }
        for list in around {
            faces
                .vertex_face_start
                .push(faces.vertex_faces.len() as u32);
            faces.vertex_faces.extend(list);
        }
        faces
            .vertex_face_start
            .push(faces.vertex_faces.len() as u32);
        faces
    }

    /// Number of faces.
    pub(crate) fn len(&self) -> usize {
        self.normals.len()
    }

    /// Face `f`.
    pub(crate) fn face(&self, f: usize) -> HullFace<'_> {
        let range = self.loop_start[f] as usize..self.loop_start[f + 1] as usize;
        HullFace {
            normal: self.normals[f],
            vertices: &self.loops[range.clone()],
            edges: &self.loop_edges[range],
        }
    }

    /// The face around vertex `v` whose normal is closest to `dir` (the first of
    /// equals); `None` when no face holds `v` (see [`HullFaces::new`]).
    pub(crate) fn face_towards(&self, v: usize, dir: Vec3) -> Option<usize> {
        let around = &self.vertex_faces
            [self.vertex_face_start[v] as usize..self.vertex_face_start[v + 1] as usize];
        let mut best = *around.first()? as usize;
        let mut best_dot = self.normals[best].dot(dir);
        for &f in &around[1..] {
            let d = self.normals[f as usize].dot(dir);
            if d > best_dot {
                best = f as usize;
                best_dot = d;
            }
        }
        Some(best)
    }
}
