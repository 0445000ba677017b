//! The GJK simplex and its closest point to the origin (Johnson's sub-problem),
//! solved by Voronoi-region tests (Ericson, *Real-Time Collision Detection* 5.1).
//!
//! The wide crate uses a different sub-algorithm; keeping this one classical makes
//! the differential tests compare two independent derivations.

use glam::Vec3;

use super::minkowski::SupportPoint;

/// Up to four support points, the barycentric weights of the closest point to the
/// origin on their hull, and nothing else: vertices that do not contribute to that
/// point are dropped after each solve.
#[derive(Debug, Clone, Copy, Default)]
pub struct Simplex {
    /// The vertices; only the first `len` are meaningful.
    pub points: [SupportPoint; 4],
    /// Barycentric weights of the closest point, matching `points`.
    pub weights: [f32; 4],
    /// How many vertices are in use.
    pub len: usize,
}

/// Result of a closest-point solve on a sub-simplex: the point, the weights of the
/// (up to four) input vertices, and which of them are kept.
struct Closest {
    point: Vec3,
    weights: [f32; 4],
    keep: [bool; 4],
}

impl Closest {
    fn vertex(p: Vec3, i: usize) -> Self {
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
    pub fn solve(&mut self) -> Vec3 {
        let w: [Vec3; 4] = std::array::from_fn(|i| self.points[i].w);
        let c = match self.len {
            1 => Closest::vertex(w[0], 0),
            2 => segment(w[0], w[1], [0, 1]),
            3 => triangle(w[0], w[1], w[2], [0, 1, 2]),
            _ => tetrahedron(w[0], w[1], w[2], w[3]),
        };
        let mut next = Simplex::default();
        for i in 0..self.len {
            if c.keep[i] {
                next.points[next.len] = self.points[i];
                next.weights[next.len] = c.weights[i];
                next.len += 1;
            }
        }
        *self = next;
        c.point
    }

    /// The witness points `(Σ λ a_i, Σ λ b_i)` of the current weights.
    pub fn witnesses(&self) -> (Vec3, Vec3) {
        let mut a = Vec3::ZERO;
        let mut b = Vec3::ZERO;
        for (p, &l) in self.active().iter().zip(&self.weights) {
            a += p.a * l;
            b += p.b * l;
        }
        (a, b)
    }
}

/// Closest point of segment `[p, q]` (vertex slots `ids`) to the origin.
fn segment(p: Vec3, q: Vec3, ids: [usize; 2]) -> Closest {
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
fn triangle(p: Vec3, q: Vec3, r: Vec3, ids: [usize; 3]) -> Closest {
    let pq = q - p;
    let pr = r - p;
    // Vertex regions and edge regions, as in Ericson's ClosestPtPointTriangle with
    // the query point at the origin.
    let d1 = pq.dot(-p);
    let d2 = pr.dot(-p);
    if d1 <= 0.0 && d2 <= 0.0 {
        return Closest::vertex(p, ids[0]);
    }
    let d3 = pq.dot(-q);
    let d4 = pr.dot(-q);
    if d3 >= 0.0 && d4 <= d3 {
        return Closest::vertex(q, ids[1]);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return segment(p, q, [ids[0], ids[1]]);
    }
    let d5 = pq.dot(-r);
    let d6 = pr.dot(-r);
    if d6 >= 0.0 && d5 <= d6 {
        return Closest::vertex(r, ids[2]);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return segment(p, r, [ids[0], ids[2]]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return segment(q, r, [ids[1], ids[2]]);
    }
    let denom = va + vb + vc;
    let n = pq.cross(pr);
    let n_len_sq = n.length_squared();
    if denom <= 0.0 || n_len_sq <= 0.0 || !denom.is_finite() {
        // A (numerically) collinear triangle has no face region: the answer is on
        // one of its edges.
        return [
            segment(p, q, [ids[0], ids[1]]),
            segment(p, r, [ids[0], ids[2]]),
            segment(q, r, [ids[1], ids[2]]),
        ]
        .into_iter()
        .min_by(|x, y| {
            x.point
                .length_squared()
                .total_cmp(&y.point.length_squared())
        })
        .expect("three candidates");
    }
    let v = vb / denom;
    let w = vc / denom;
    // Face region: project the origin on the plane along the normal rather than
    // summing weighted vertices, which keeps the distance accurate when the
    // vertices are far from the origin compared to the gap (bepu does the same).
    let point = n * (n.dot(p) / n_len_sq);
    let mut c = Closest {
        point,
        weights: [0.0; 4],
        keep: [false; 4],
    };
    c.weights[ids[0]] = 1.0 - v - w;
    c.weights[ids[1]] = v;
    c.weights[ids[2]] = w;
    for &i in &ids {
        c.keep[i] = true;
    }
    c
}

/// Closest point of tetrahedron `abcd` to the origin: the origin itself when it
/// lies inside, else the nearest of the faces the origin is in front of.
fn tetrahedron(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> Closest {
    // Each face with the vertex opposite to it.
    let faces = [
        ([a, b, c], [0, 1, 2], d),
        ([a, c, d], [0, 2, 3], b),
        ([a, d, b], [0, 3, 1], c),
        ([b, d, c], [1, 3, 2], a),
    ];
    let volume6 = (b - a).dot((c - a).cross(d - a));
    let mut best: Option<Closest> = None;
    let mut outside_any = false;
    for (tri, ids, opposite) in faces {
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]);
        let side_origin = n.dot(-tri[0]);
        let side_opposite = n.dot(opposite - tri[0]);
        // The origin is beyond this face when it is on the other side of the plane
        // from the opposite vertex. A flat tetrahedron (volume 0) has no inside, so
        // every face is examined.
        let outside = volume6 == 0.0 || side_origin * side_opposite <= 0.0;
        if !outside {
            continue;
        }
        outside_any = true;
        let candidate = triangle(tri[0], tri[1], tri[2], ids);
        if best
            .as_ref()
            .is_none_or(|b| candidate.point.length_squared() < b.point.length_squared())
        {
            best = Some(candidate);
        }
    }
    if let (true, Some(best)) = (outside_any, best) {
        return best;
    }
    // Inside: barycentric weights from the signed sub-volumes.
    let wa = (b).dot(c.cross(d)) / volume6;
    let wb = (a).dot(d.cross(c)) / volume6;
    let wc = (a).dot(b.cross(d)) / volume6;
    let wd = 1.0 - wa - wb - wc;
    Closest {
        point: Vec3::ZERO,
        weights: [wa, wb, wc, wd],
        keep: [true; 4],
    }
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
        assert!((v - Vec3::X).length() < 1e-6);
        assert_eq!(s.len, 2);
        let mut s = Simplex::single(sp(Vec3::new(1.0, 1.0, 0.0)));
        s.push(sp(Vec3::new(1.0, 2.0, 0.0)));
        let v = s.solve();
        assert_eq!(v, Vec3::new(1.0, 1.0, 0.0));
        assert_eq!(s.len, 1);
    }

    #[test]
    fn triangle_face_region_and_weights() {
        let mut s = Simplex::single(sp(Vec3::new(-1.0, -1.0, 2.0)));
        s.push(sp(Vec3::new(3.0, -1.0, 2.0)));
        s.push(sp(Vec3::new(-1.0, 3.0, 2.0)));
        let v = s.solve();
        assert!((v - Vec3::new(0.0, 0.0, 2.0)).length() < 1e-6);
        let (a, _) = s.witnesses();
        assert!((a - v).length() < 1e-5);
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
        assert_eq!(s.solve(), Vec3::ZERO);
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
