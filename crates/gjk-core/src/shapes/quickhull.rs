//! 3D quickhull in f64, the construction behind [`ConvexHull`](super::ConvexHull),
//! and its lower-dimensional cases.
//!
//! The input is f32 but every plane test runs in f64 with a tolerance relative to
//! the input's size, so nearly coplanar points do not produce sliver faces or
//! inconsistent visibility (the usual source of broken quickhull output). Points
//! within the tolerance of the current hull count as inside and are dropped: this is
//! how near-coplanar faces merge.
//!
//! The input's dimension is decided first, on what f64 resolves of the f32 points
//! ([`HULL_FLAT_ULPS`]): points coplanar in f32 give a polygon (each triangle of its
//! fan twice, once per side), collinear ones a segment, coincident ones a point.
//! Anything thicker is a solid, however thin. A solid thinner than
//! [`HULL_SLIVER_THICKNESS`] of its extent (a sliver) is built with the tolerance
//! relative to its thickness instead, so that a sliver one f32 ulp high keeps
//! every corner of its base rather than merging them into its apex's nearly
//! parallel faces, and a slab a few tolerances thick does not fold.

use std::collections::HashMap;

use glam::{DVec2, DVec3, Vec3};

use crate::error::ShapeError;
use crate::tolerance::{HULL_FLAT_ULPS, HULL_RELATIVE_TOLERANCE, HULL_SLIVER_THICKNESS, MAX_SIZE};

/// The hull's vertices (a subset of the input) and its triangles, counter-clockwise
/// seen from outside, indexing into those vertices.
pub(crate) struct HullMesh {
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    /// A solid thick enough for the construction tolerance relative to its
    /// extent: its vertex adjacency is sound for hill climbing. Slivers, flat and
    /// lower-dimensional hulls are scanned instead.
    pub solid: bool,
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

/// Builds the hull of `input`, or says why it has none (no points, a non-finite
/// coordinate, one beyond [`MAX_SIZE`]). Vertices that end up in the middle of a
/// flat face or a straight edge (fewer than three distinct face planes meet there)
/// are dropped and the hull rebuilt without them: a point can become such a
/// vertex when it is processed before the corners that later flatten its
/// neighbourhood, and keeping it would only slow the support function down.
pub(crate) fn quickhull(input: &[Vec3]) -> Result<HullMesh, ShapeError> {
    validate(input)?;
    let points: Vec<DVec3> = input.iter().map(|p| p.as_dvec3()).collect();
    let (simplex, eps, solid) = match span(&points) {
        Span::Point(i) => return Ok(lower(input, &[i])),
        Span::Segment(i, j) => return Ok(lower(input, &[i, j])),
        Span::Plane(frame) => return Ok(polygon(input, &points, &frame)),
        Span::Solid {
            simplex,
            eps,
            solid,
        } => (simplex, eps, solid),
    };
    let mut mesh = quickhull_once(input, &points, simplex, eps, solid);
    // Each round removes at least one vertex, so this ends; three rounds suffice in
    // practice (removal only flattens, it never creates new flat vertices).
    for _ in 0..input.len() {
        let flat = flat_vertices(&mesh, eps);
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
        if kept.len() < 4 {
            // Every corner of a sliver can look flat at its own tolerance: keep
            // the hull as built rather than lose it.
            break;
        }
        let kept_points: Vec<DVec3> = kept.iter().map(|p| p.as_dvec3()).collect();
        // The corners of a solid stay: it stays a solid of about the same
        // thickness, built with the same tolerance.
        let Span::Solid { simplex, .. } = span(&kept_points) else {
            break;
        };
        mesh = quickhull_once(&kept, &kept_points, simplex, eps, solid);
    }
    Ok(mesh)
}

/// At least one point, every coordinate finite and within [`MAX_SIZE`].
fn validate(input: &[Vec3]) -> Result<(), ShapeError> {
    if input.is_empty() {
        return Err(ShapeError::TooFewPoints { found: 0 });
    }
    if let Some(index) = input.iter().position(|p| !p.is_finite()) {
        return Err(ShapeError::NonFinitePoint { index });
    }
    if let Some(index) = input.iter().position(|p| p.abs().max_element() > MAX_SIZE) {
        return Err(ShapeError::PointTooLarge {
            index,
            limit: MAX_SIZE,
        });
    }
    Ok(())
}

/// The largest extent of the points along an axis.
fn extent(points: &[DVec3]) -> f64 {
    let (min, max) = points.iter().fold((points[0], points[0]), |(lo, hi), &p| {
        (lo.min(p), hi.max(p))
    });
    (max - min).max_element()
}

/// A plane the points lie in: a point of it and two unit directions spanning it
/// (their cross product its normal), and the tolerance of the polygon built in it.
struct PlaneFrame {
    origin: DVec3,
    u: DVec3,
    v: DVec3,
    eps: f64,
}

/// The dimension of a point set, as f64 resolves the f32 points.
enum Span {
    /// All points coincide: the one to keep.
    Point(usize),
    /// All points lie on a line: its two extreme points.
    Segment(usize, usize),
    /// All points lie in a plane.
    Plane(PlaneFrame),
    /// A solid: a first tetrahedron, the construction tolerance, and whether it
    /// is thicker than [`HULL_SLIVER_THICKNESS`] of its extent (else a sliver).
    Solid {
        simplex: [usize; 4],
        eps: f64,
        solid: bool,
    },
}

/// Decides the dimension of the points: the farthest pair among the axis
/// extremes, the point farthest from their line, the point farthest from their
/// plane (the first simplex of quickhull). A distance within [`HULL_FLAT_ULPS`]
/// f64 ulps of the extent (times the plane normal's conditioning for the plane)
/// is rounding of points that lie exactly on the line or plane in f32.
fn span(points: &[DVec3]) -> Span {
    let size = extent(points);
    let flat = HULL_FLAT_ULPS * f64::EPSILON * size;
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
    if d2.sqrt() <= flat {
        return Span::Point(i0);
    }
    let axis = (points[i1] - points[i0]).normalize();
    let line_distance = |p: DVec3| {
        let r = p - points[i0];
        (r - axis * r.dot(axis)).length()
    };
    let i2 = (0..points.len())
        .max_by(|&a, &b| line_distance(points[a]).total_cmp(&line_distance(points[b])))
        .unwrap_or(0);
    let width = line_distance(points[i2]);
    if width <= flat {
        // The extremes along the line: the farthest pair among the axis extremes
        // are extreme along it too.
        return Span::Segment(i0, i1);
    }
    let normal = axis.cross(points[i2] - points[i0]).normalize();
    let plane_distance = |p: DVec3| normal.dot(p - points[i0]).abs();
    let i3 = (0..points.len())
        .max_by(|&a, &b| plane_distance(points[a]).total_cmp(&plane_distance(points[b])))
        .unwrap_or(0);
    let thickness = plane_distance(points[i3]);
    // The plane's normal is the cross product of the line and a vector `width`
    // off it: its direction carries the rounding of that product, `size / width`
    // times larger, and so do the points' distances from the plane.
    if thickness <= flat * (size / width) {
        return Span::Plane(PlaneFrame {
            origin: points[i0],
            u: axis,
            v: normal.cross(axis),
            eps: HULL_RELATIVE_TOLERANCE * size.min(width),
        });
    }
    // A solid well thicker than the tolerance is built with the tolerance of its
    // extent; a sliver with the tolerance relative to its thickness.
    let solid = thickness > HULL_SLIVER_THICKNESS * size;
    Span::Solid {
        simplex: [i0, i1, i2, i3],
        eps: HULL_RELATIVE_TOLERANCE * if solid { size } else { thickness },
        solid,
    }
}

/// The hull of a point or a segment: its input points, no faces.
fn lower(input: &[Vec3], keep: &[usize]) -> HullMesh {
    HullMesh {
        vertices: keep.iter().map(|&i| input[i]).collect(),
        triangles: Vec::new(),
        solid: false,
    }
}

/// The hull of points in a plane: their convex polygon (Andrew's monotone chain
/// in the plane's coordinates, dropping corners within the tolerance of the line
/// through their neighbours), as a fan of triangles on each side.
fn polygon(input: &[Vec3], points: &[DVec3], frame: &PlaneFrame) -> HullMesh {
    let at = |i: usize| {
        let r = points[i] - frame.origin;
        DVec2::new(r.dot(frame.u), r.dot(frame.v))
    };
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| {
        let (p, q) = (at(a), at(b));
        p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y))
    });
    // `c` turns left of the line from `a` to `b` by more than the tolerance.
    let left = |a: usize, b: usize, c: usize| {
        let (pa, pb, pc) = (at(a), at(b), at(c));
        let base = (pb - pa).length();
        base > 0.0 && (pb - pa).perp_dot(pc - pa) / base > frame.eps
    };
    let chain = |points: &mut dyn Iterator<Item = usize>| {
        let mut hull: Vec<usize> = Vec::new();
        for i in points {
            while hull.len() >= 2 && !left(hull[hull.len() - 2], hull[hull.len() - 1], i) {
                hull.pop();
            }
            hull.push(i);
        }
        hull
    };
    let mut lower_chain = chain(&mut order.iter().copied());
    let mut upper_chain = chain(&mut order.iter().rev().copied());
    lower_chain.pop();
    upper_chain.pop();
    let ring: Vec<usize> = lower_chain.into_iter().chain(upper_chain).collect();
    if ring.len() < 3 {
        // Within the tolerance of a line after all: its two ends.
        let (a, b) = (order[0], order[order.len() - 1]);
        return lower(input, &[a, b]);
    }
    let vertices: Vec<Vec3> = ring.iter().map(|&i| input[i]).collect();
    // The ring turns counter-clockwise about the plane's normal u × v: the fan's
    // triangles face it, their reverses the other side.
    let k = vertices.len() as u32;
    let mut triangles = Vec::with_capacity(2 * (k as usize - 2));
    for i in 1..k - 1 {
        triangles.push([0, i, i + 1]);
        triangles.push([0, i + 1, i]);
    }
    HullMesh {
        vertices,
        triangles,
        solid: false,
    }
}

/// Vertices where fewer than three distinct planes meet (two faces lie in one plane
/// when each one's vertices are within the construction tolerance of the other's
/// plane).
fn flat_vertices(mesh: &HullMesh, eps: f64) -> Vec<usize> {
    let v: Vec<DVec3> = mesh.vertices.iter().map(|p| p.as_dvec3()).collect();
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

/// Quickhull from the first tetrahedron `simplex`, with tolerance `eps`.
fn quickhull_once(
    input: &[Vec3],
    points: &[DVec3],
    simplex: [usize; 4],
    eps: f64,
    solid: bool,
) -> HullMesh {
    let centroid = simplex.iter().map(|&i| points[i]).sum::<DVec3>() / 4.0;
    let mut faces: Vec<Face> = Vec::new();
    for tri in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
        let mut v = tri.map(|k| simplex[k]);
        let face = Face::new(points, v, DVec3::Y);
        // Orient outward: the centroid of the simplex is strictly inside.
        if face.distance(centroid) > 0.0 {
            v.swap(1, 2);
        }
        faces.push(Face::new(points, v, DVec3::Y));
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
            faces.push(Face::new(points, [a, b, eye], old_normal));
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
    HullMesh {
        vertices,
        triangles,
        solid,
    }
}
