//! The GJK simplex and its closest point to the origin (Johnson's sub-problem),
//! solved by projection and barycentric weights, falling back to the boundary
//! sub-features (the closest point of a simplex is the projection on its affine
//! hull when that lies inside, else a point of one of its facets).
//!
//! The wide crate uses a different sub-algorithm; keeping this one classical makes
//! the differential tests compare two independent derivations.

use glam::{DVec3, Vec3};

use super::minkowski::SupportPoint;
use crate::tolerance::FLAT_HEIGHT_ULPS;

/// Up to four support points, the barycentric weights of the closest point to the
/// origin on their hull, and nothing else: vertices that do not contribute to that
/// point are dropped after each solve.
#[derive(Debug, Clone, Copy, Default)]
pub struct Simplex {
    /// The vertices; only the first `len` are meaningful.
    pub points: [SupportPoint; 4],
    /// Barycentric weights of the closest point, matching `points`.
    pub weights: [f64; 4],
    /// How many vertices are in use.
    pub len: usize,
}

/// Result of a closest-point solve on a sub-simplex: the point, the weights of the
/// (up to four) input vertices, and which of them are kept.
struct Closest {
    point: DVec3,
    weights: [f64; 4],
    keep: [bool; 4],
}

impl Closest {
    fn vertex(p: DVec3, i: usize) -> Self {
        let mut c = Closest {
            point: p,
            weights: [0.0; 4],
            keep: [false; 4],
        };
        c.weights[i] = 1.0;
        c.keep[i] = true;
        c
    }
}

impl Simplex {
    /// A one-point simplex.
    pub fn single(p: SupportPoint) -> Self {
        Simplex {
            points: [p; 4],
            weights: [1.0, 0.0, 0.0, 0.0],
            len: 1,
        }
    }

    /// The active vertices.
    pub fn active(&self) -> &[SupportPoint] {
        &self.points[..self.len]
    }

    /// Whether `w` is already a vertex (GJK has stopped making progress).
    pub fn contains(&self, w: Vec3) -> bool {
        self.active().iter().any(|p| p.w == w)
    }

    /// Appends a vertex (the caller never exceeds four).
    pub fn push(&mut self, p: SupportPoint) {
        debug_assert!(self.len < 4);
        self.points[self.len] = p;
        self.len += 1;
    }

    /// Replaces the simplex by the smallest sub-simplex holding the closest point to
    /// the origin and returns that point. With four vertices enclosing the origin the
    /// simplex is kept whole and the origin returned.
    ///
    /// The solve runs in f64 on the f32 support points: near convergence on curved
    /// shapes a new support point often lowers `|v|` by less than an f32 ulp, and an
    /// f32 solve would report no progress while the duality gap is still wide.
    pub fn solve(&mut self) -> DVec3 {
        let w: [DVec3; 4] = std::array::from_fn(|i| self.points[i].w.as_dvec3());
        let c = match self.len {
            1 => Closest::vertex(w[0], 0),
            2 => segment(w[0], w[1], [0, 1]),
            3 => triangle(w[0], w[1], w[2], [0, 1, 2]),
            _ => tetrahedron(w[0], w[1], w[2], w[3]),
        };
        // Compact in place: a kept vertex only ever moves to a lower slot.
        let mut kept = 0;
        for i in 0..self.len {
            if c.keep[i] {
                self.points[kept] = self.points[i];
                self.weights[kept] = c.weights[i];
                kept += 1;
            }
        }
        self.len = kept;
        c.point
    }

    /// The witness points `(Σ λ a_i, Σ λ b_i)` of the current weights.
    pub fn witnesses(&self) -> (Vec3, Vec3) {
        let mut a = DVec3::ZERO;
        let mut b = DVec3::ZERO;
        for (p, &l) in self.active().iter().zip(&self.weights) {
            a += p.a.as_dvec3() * l;
            b += p.b.as_dvec3() * l;
        }
        (a.as_vec3(), b.as_vec3())
    }
}

/// Closest point of segment `[p, q]` (vertex slots `ids`) to the origin.
fn segment(p: DVec3, q: DVec3, ids: [usize; 2]) -> Closest {
    let pq = q - p;
    let len_sq = pq.length_squared();
    let t = if len_sq > 0.0 {
        (-p).dot(pq) / len_sq
    } else {
        0.0
    };
    if t <= 0.0 {
        return Closest::vertex(p, ids[0]);
    }
    if t >= 1.0 {
        return Closest::vertex(q, ids[1]);
    }
    let mut c = Closest {
        point: p + pq * t,
        weights: [0.0; 4],
        keep: [false; 4],
    };
    c.weights[ids[0]] = 1.0 - t;
    c.weights[ids[1]] = t;
    c.keep[ids[0]] = true;
    c.keep[ids[1]] = true;
    c
}

/// Closest point of triangle `pqr` (vertex slots `ids`) to the origin.
///
/// The origin's projection on the plane, if it falls inside the triangle, is the
/// answer; otherwise the answer lies on the boundary, the nearest of the three
/// edges. Deciding "inside" by barycentric weights of the projected point, computed
/// from differences of nearby points, stays correct where the vertices cluster far
/// from the origin (late GJK iterations on curved shapes). Ericson's region tests
/// multiply dot products of size `|p|·|edge|` and cancel catastrophically there,
/// picking the wrong region and stalling GJK.
fn triangle(p: DVec3, q: DVec3, r: DVec3, ids: [usize; 3]) -> Closest {
    let n = (q - p).cross(r - p);
    let n_len_sq = n.length_squared();
    // Which edges can hold the answer: with the projection outside, only an edge
    // whose line has the projection on its outer side (the opposite vertex's weight
    // is negative). A degenerate triangle has no projection; all edges compete.
    let mut candidates = [true; 3];
    if n_len_sq > 0.0 && n_len_sq.is_finite() {
        let point = n * (n.dot(p) / n_len_sq);
        let wp = (q - point).cross(r - point).dot(n) / n_len_sq;
        let wq = (r - point).cross(p - point).dot(n) / n_len_sq;
        let wr = 1.0 - wp - wq;
        if wp >= 0.0 && wq >= 0.0 && wr >= 0.0 {
            let mut c = Closest {
                point,
                weights: [0.0; 4],
                keep: [false; 4],
            };
            c.weights[ids[0]] = wp;
            c.weights[ids[1]] = wq;
            c.weights[ids[2]] = wr;
            for &i in &ids {
                c.keep[i] = true;
            }
            return c;
        }
        candidates = [wr < 0.0, wq < 0.0, wp < 0.0];
    }
    let edges = [
        (p, q, [ids[0], ids[1]]),
        (p, r, [ids[0], ids[2]]),
        (q, r, [ids[1], ids[2]]),
    ];
    nearest(
        edges
            .into_iter()
            .zip(candidates)
            .filter(|&(_, c)| c)
            .map(|((a, b, e), _)| segment(a, b, e)),
    )
}

/// The candidate closest to the origin.
fn nearest(candidates: impl Iterator<Item = Closest>) -> Closest {
    candidates
        .min_by(|x, y| {
            x.point
                .length_squared()
                .total_cmp(&y.point.length_squared())
        })
        .expect("a point outside a simplex is beyond at least one of its facets")
}

/// Closest point of tetrahedron `abcd` to the origin: the origin itself when it
/// lies inside, else the nearest point of its four faces.
fn tetrahedron(a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> Closest {
    // Barycentric weights of the origin from signed sub-volumes: the origin is
    // inside exactly when all four are non-negative. A nearly flat tetrahedron has
    // no trustworthy inside (the sub-volumes are rounding noise, and their ratios
    // explode), so below a height of a few ulps of its coordinates only faces
    // count.
    let volume6 = (b - a).dot((c - a).cross(d - a));
    // Its least height is over its largest face; each vertex's rounding moves it
    // along that face's normal by half an ulp of each coordinate, weighted by the
    // normal's component (a long tetrahedron's large coordinates run along its
    // faces and do not count).
    let largest_face = [
        (b - a).cross(c - a),
        (b - a).cross(d - a),
        (c - a).cross(d - a),
        (c - b).cross(d - b),
    ]
    .into_iter()
    .max_by(|x, y| x.length_squared().total_cmp(&y.length_squared()))
    .unwrap_or(DVec3::ZERO);
    let n = largest_face.abs();
    let rounding = [a, b, c, d]
        .iter()
        .fold(0.0f64, |m, p| m.max(p.abs().dot(n)));
    let flat = f64::from(FLAT_HEIGHT_ULPS * f32::EPSILON) * rounding;
    // Faces that can hold the answer: those the origin lies beyond, opposite a
    // vertex with a negative weight. A flat tetrahedron: all four compete.
    let mut candidates = [true; 4];
    if volume6.abs() > flat {
        let wa = b.dot(c.cross(d)) / volume6;
        let wb = a.dot(d.cross(c)) / volume6;
        let wc = a.dot(b.cross(d)) / volume6;
        let wd = 1.0 - wa - wb - wc;
        if wa >= 0.0 && wb >= 0.0 && wc >= 0.0 && wd >= 0.0 {
            return Closest {
                point: DVec3::ZERO,
                weights: [wa, wb, wc, wd],
                keep: [true; 4],
            };
        }
        candidates = [wd < 0.0, wb < 0.0, wc < 0.0, wa < 0.0];
    }
    let faces = [
        (a, b, c, [0, 1, 2]),
        (a, c, d, [0, 2, 3]),
        (a, d, b, [0, 3, 1]),
        (b, d, c, [1, 3, 2]),
    ];
    nearest(
        faces
            .into_iter()
            .zip(candidates)
            .filter(|&(_, c)| c)
            .map(|((p, q, r, ids), _)| triangle(p, q, r, ids)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(w: Vec3) -> SupportPoint {
        SupportPoint {
            w,
            a: w,
            b: Vec3::ZERO,
        }
    }

    #[test]
    fn segment_regions() {
        let mut s = Simplex::single(sp(Vec3::new(1.0, 1.0, 0.0)));
        s.push(sp(Vec3::new(1.0, -1.0, 0.0)));
        let v = s.solve();
        assert!((v - DVec3::X).length() < 1e-6);
        assert_eq!(s.len, 2);
        let mut s = Simplex::single(sp(Vec3::new(1.0, 1.0, 0.0)));
        s.push(sp(Vec3::new(1.0, 2.0, 0.0)));
        let v = s.solve();
        assert_eq!(v, DVec3::new(1.0, 1.0, 0.0));
        assert_eq!(s.len, 1);
    }

    #[test]
    fn triangle_face_region_and_weights() {
        let mut s = Simplex::single(sp(Vec3::new(-1.0, -1.0, 2.0)));
        s.push(sp(Vec3::new(3.0, -1.0, 2.0)));
        s.push(sp(Vec3::new(-1.0, 3.0, 2.0)));
        let v = s.solve();
        assert!((v - DVec3::new(0.0, 0.0, 2.0)).length() < 1e-6);
        let (a, _) = s.witnesses();
        assert!((a.as_dvec3() - v).length() < 1e-5);
    }

    #[test]
    fn tetrahedron_inside_and_outside() {
        let pts = [
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(-1.0, -1.0, -1.0),
            Vec3::new(0.0, 0.0, 1.0),
        ];
        let mut s = Simplex::single(sp(pts[0]));
        for p in &pts[1..] {
            s.push(sp(*p));
        }
        assert_eq!(s.solve(), DVec3::ZERO);
        assert_eq!(s.len, 4);
        let (a, _) = s.witnesses();
        assert!(a.length() < 1e-5, "weights must reproduce the origin: {a}");
        let shifted = pts.map(|p| p + Vec3::new(0.0, 0.0, 3.0));
        let mut s = Simplex::single(sp(shifted[0]));
        for p in &shifted[1..] {
            s.push(sp(*p));
        }
        let v = s.solve();
        assert!((v.z - 2.0).abs() < 1e-5 && s.len == 3, "{v} {}", s.len);
    }
}
