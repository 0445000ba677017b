//! 3D quickhull in f64, the construction behind [`ConvexHull`](super::ConvexHull).
//!
//! The input is f32 but every plane test runs in f64 with a tolerance relative to
//! the input's extent, so nearly coplanar points do not produce sliver faces or
//! inconsistent visibility (the usual source of broken quickhull output). Points
//! within the tolerance of the current hull count as inside and are dropped: this is
//! how near-coplanar faces merge.

use std::collections::HashMap;

use glam::{DVec3, Vec3};

use crate::error::ShapeError;
use crate::tolerance::HULL_RELATIVE_TOLERANCE;

/// The hull's vertices (a subset of the input) and its triangles, counter-clockwise
/// seen from outside, indexing into those vertices.
pub(crate) struct HullMesh {
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
}

struct Face {
    v: [usize; 3],
    normal: DVec3,
    offset: f64,
    outside: Vec<usize>,
    alive: bool,
}

impl Face {
    #[inline]
    fn new(points: &[DVec3], v: [usize; 3], fallback_normal: DVec3) -> Self {
        let [a, b, c] = v.map(|i| points[i]);
        let n = (b - a).cross(c - a);
        let len = n.length();
        // A zero-area face can only come from an eye point collinear with a horizon
        // edge within rounding; borrowing the removed face's normal keeps the mesh
        // closed and the face harmless (it has no area to be "visible" through).
        let normal = if len > 0.0 { n / len } else { fallback_normal };
        Face {
            v,
            normal,
            offset: normal.dot(a),
            outside: Vec::new(),
            alive: true,
        }
    }

    fn distance(&self, p: DVec3) -> f64 {
        self.normal.dot(p) - self.offset
    }
}

/// Builds the hull of `input`, or says why it has none. Vertices that end up in the
/// middle of a flat face or a straight edge (fewer than three distinct face planes
/// meet there) are dropped and the hull rebuilt without them: a point can become
/// such a vertex when it is processed before the corners that later flatten its
/// neighbourhood, and keeping it would only slow the support function down.
pub(crate) fn quickhull(input: &[Vec3]) -> Result<HullMesh, ShapeError> {
    let mut mesh = quickhull_once(input)?;
    // Each round removes at least one vertex, so this ends; three rounds suffice in
    // practice (removal only flattens, it never creates new flat vertices).
    for _ in 0..input.len() {
        let flat = flat_vertices(&mesh);
        if flat.is_empty() {
            break;
        }
        let kept: Vec<Vec3> = mesh
            .vertices
            .iter()
            .enumerate()
            .filter(|(i, _)| !flat.contains(i))
            .map(|(_, v)| *v)
            .collect();
        mesh = quickhull_once(&kept)?;
    }
    Ok(mesh)
}

/// Vertices where fewer than three distinct planes meet (two faces lie in one plane
/// when each one's vertices are within the construction tolerance of the other's
/// plane).
fn flat_vertices(mesh: &HullMesh) -> Vec<usize> {
    let v: Vec<DVec3> = mesh.vertices.iter().map(|p| p.as_dvec3()).collect();
    let (min, max) = v
        .iter()
        .fold((v[0], v[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let eps = HULL_RELATIVE_TOLERANCE * (max - min).max_element();
    let planes: Vec<(DVec3, f64)> = mesh
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| v[i as usize]);
            let n = (b - a).cross(c - a).normalize_or_zero();
            (n, n.dot(a))
        })
        .collect();
    let mut flat = Vec::new();
    for (vi, _) in v.iter().enumerate() {
        let mut distinct: Vec<usize> = Vec::new();
        for (fi, t) in mesh.triangles.iter().enumerate() {
            if !t.contains(&(vi as u32)) {
                continue;
            }
            let same_as_known = distinct.iter().any(|&g| {
                let (n, d) = planes[g];
                t.iter().all(|&k| (n.dot(v[k as usize]) - d).abs() <= eps)
            });
            if !same_as_known {
                distinct.push(fi);
            }
        }
        if distinct.len() < 3 {
            flat.push(vi);
        }
    }
    flat
}

fn quickhull_once(input: &[Vec3]) -> Result<HullMesh, ShapeError> {
    if input.len() < 4 {
        return Err(ShapeError::TooFewPoints { found: input.len() });
    }
    if let Some(index) = input.iter().position(|p| !p.is_finite()) {
        return Err(ShapeError::NonFinitePoint { index });
    }
    let points: Vec<DVec3> = input.iter().map(|p| p.as_dvec3()).collect();
    let (min, max) = points.iter().fold((points[0], points[0]), |(lo, hi), &p| {
        (lo.min(p), hi.max(p))
    });
    let extent = (max - min).max_element();
    let eps = HULL_RELATIVE_TOLERANCE * extent.max(f64::MIN_POSITIVE);
    if extent == 0.0 {
        return Err(ShapeError::Degenerate { kind: "coincident" });
    }

    let simplex = initial_simplex(&points, eps)?;
    let centroid = simplex.iter().map(|&i| points[i]).sum::<DVec3>() / 4.0;
    let mut faces: Vec<Face> = Vec::new();
    for tri in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
        let mut v = tri.map(|k| simplex[k]);
        let face = Face::new(&points, v, DVec3::Y);
        // Orient outward: the centroid of the simplex is strictly inside.
        if face.distance(centroid) > 0.0 {
            v.swap(1, 2);
        }
        faces.push(Face::new(&points, v, DVec3::Y));
    }
    for (i, p) in points.iter().enumerate() {
        if simplex.contains(&i) {
            continue;
        }
        if let Some(f) = faces.iter_mut().find(|f| f.distance(*p) > eps) {
            f.outside.push(i);
        }
    }

    let mut edges: HashMap<(usize, usize), usize> = HashMap::new();
    for (fi, f) in faces.iter().enumerate() {
        for k in 0..3 {
            edges.insert((f.v[k], f.v[(k + 1) % 3]), fi);
        }
    }

    // Each pass consumes one outside point as the eye, so the loop ends after at
    // most `points.len()` passes.
    for _ in 0..points.len() {
        let Some(seed) = faces.iter().position(|f| f.alive && !f.outside.is_empty()) else {
            break;
        };
        let eye = *faces[seed]
            .outside
            .iter()
            .max_by(|&&a, &&b| {
                faces[seed]
                    .distance(points[a])
                    .total_cmp(&faces[seed].distance(points[b]))
            })
            .expect("non-empty outside set");
        let eye_p = points[eye];

        // Faces visible from the eye, grown from the seed across shared edges so the
        // visible region is connected and its boundary is one loop (the horizon).
        let mut visible = vec![seed];
        let mut is_visible: HashMap<usize, bool> = HashMap::from([(seed, true)]);
        let mut cursor = 0;
        while cursor < visible.len() {
            let f = visible[cursor];
            cursor += 1;
            for k in 0..3 {
                let (a, b) = (faces[f].v[k], faces[f].v[(k + 1) % 3]);
                let Some(&nb) = edges.get(&(b, a)) else {
                    continue;
                };
                if is_visible.contains_key(&nb) {
                    continue;
                }
                let vis = faces[nb].distance(eye_p) > eps;
                is_visible.insert(nb, vis);
                if vis {
                    visible.push(nb);
                }
            }
        }

        let mut horizon = Vec::new();
        for &f in &visible {
            for k in 0..3 {
                let (a, b) = (faces[f].v[k], faces[f].v[(k + 1) % 3]);
                let across = edges.get(&(b, a)).copied();
                if across.is_none_or(|nb| !is_visible.get(&nb).copied().unwrap_or(false)) {
                    horizon.push((a, b, faces[f].normal));
                }
            }
        }

        let mut orphans = Vec::new();
        for &f in &visible {
            faces[f].alive = false;
            for k in 0..3 {
                edges.remove(&(faces[f].v[k], faces[f].v[(k + 1) % 3]));
            }
            orphans.append(&mut faces[f].outside);
        }
        let first_new = faces.len();
        for (a, b, old_normal) in horizon {
            let fi = faces.len();
            faces.push(Face::new(&points, [a, b, eye], old_normal));
            edges.insert((a, b), fi);
            edges.insert((b, eye), fi);
            edges.insert((eye, a), fi);
        }
        for p in orphans {
            if p == eye {
                continue;
            }
            if let Some(f) = faces[first_new..]
                .iter_mut()
                .find(|f| f.distance(points[p]) > eps)
            {
                f.outside.push(p);
            }
        }
    }

    let mut remap: HashMap<usize, u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for f in faces.iter().filter(|f| f.alive) {
        let tri = f.v.map(|i| {
            *remap.entry(i).or_insert_with(|| {
                vertices.push(input[i]);
                (vertices.len() - 1) as u32
            })
        });
        triangles.push(tri);
    }
    Ok(HullMesh {
        vertices,
        triangles,
    })
}

/// Four affinely independent input points spanning as much volume as a cheap
/// search finds: the farthest pair among the axis extremes, the point farthest from
/// their line, the point farthest from their plane.
fn initial_simplex(points: &[DVec3], eps: f64) -> Result<[usize; 4], ShapeError> {
    let mut extremes = Vec::with_capacity(6);
    for axis in 0..3 {
        let lo = (0..points.len())
            .min_by(|&a, &b| points[a][axis].total_cmp(&points[b][axis]))
            .unwrap_or(0);
        let hi = (0..points.len())
            .max_by(|&a, &b| points[a][axis].total_cmp(&points[b][axis]))
            .unwrap_or(0);
        extremes.push(lo);
        extremes.push(hi);
    }
    let mut best = (0.0, 0, 0);
    for &i in &extremes {
        for &j in &extremes {
            let d = points[i].distance_squared(points[j]);
            if d > best.0 {
                best = (d, i, j);
            }
        }
    }
    let (d2, i0, i1) = best;
    if d2.sqrt() <= eps {
        return Err(ShapeError::Degenerate { kind: "coincident" });
    }
    let axis = (points[i1] - points[i0]).normalize();
    let line_distance = |p: DVec3| {
        let r = p - points[i0];
        (r - axis * r.dot(axis)).length()
    };
    let i2 = (0..points.len())
        .max_by(|&a, &b| line_distance(points[a]).total_cmp(&line_distance(points[b])))
        .unwrap_or(0);
    if line_distance(points[i2]) <= eps {
        return Err(ShapeError::Degenerate { kind: "collinear" });
    }
    let normal = (points[i1] - points[i0])
        .cross(points[i2] - points[i0])
        .normalize();
    let plane_distance = |p: DVec3| normal.dot(p - points[i0]).abs();
    let i3 = (0..points.len())
        .max_by(|&a, &b| plane_distance(points[a]).total_cmp(&plane_distance(points[b])))
        .unwrap_or(0);
    if plane_distance(points[i3]) <= eps {
        return Err(ShapeError::Degenerate { kind: "coplanar" });
    }
    Ok([i0, i1, i2, i3])
}
