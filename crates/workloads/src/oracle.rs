//! Independent, closed-form geometry for judging disagreements: how far a point is
//! from a shape, computed per shape from its definition in f64 (no support
//! functions, no GJK).

use gjk_core::glam::{DVec2, DVec3, Vec3};
use gjk_core::{Pose, Shape};

/// Distance from world point `p` to `shape` at `pose` (0 inside).
pub fn distance_to_shape(shape: &Shape, pose: &Pose, p: Vec3) -> f64 {
    local_distance(shape, pose.inverse_transform_point(p).as_dvec3())
}

fn local_distance(shape: &Shape, p: DVec3) -> f64 {
    match shape {
        Shape::Sphere(s) => (p.length() - s.radius() as f64).max(0.0),
        Shape::Cuboid(c) => (p.abs() - c.half_extents().as_dvec3())
            .max(DVec3::ZERO)
            .length(),
        Shape::Capsule(c) => {
            let h = c.half_height() as f64;
            let on_axis = DVec3::new(0.0, p.y.clamp(-h, h), 0.0);
            (p.distance(on_axis) - c.radius() as f64).max(0.0)
        }
        Shape::Cylinder(c) => {
            let (h, r) = (c.half_height() as f64, c.radius() as f64);
            polygon_distance(
                radial(p),
                &[
                    DVec2::new(0.0, -h),
                    DVec2::new(r, -h),
                    DVec2::new(r, h),
                    DVec2::new(0.0, h),
                ],
            )
        }
        Shape::Cone(c) => {
            let (h, r) = (c.half_height() as f64, c.radius() as f64);
            polygon_distance(
                radial(p),
                &[DVec2::new(0.0, -h), DVec2::new(r, -h), DVec2::new(0.0, h)],
            )
        }
        Shape::ConvexHull(hull) => {
            let v: Vec<DVec3> = hull.vertices().iter().map(|v| v.as_dvec3()).collect();
            if hull.faces().is_empty() {
                // A point or a segment: the distance to it.
                let (a, b) = (v[0], v[v.len() - 1]);
                return point_segment_distance(p, a, b);
            }
            let mut inside = true;
            let mut best = f64::INFINITY;
            for f in hull.faces() {
                let [a, b, c] = f.map(|i| v[i as usize]);
                let n = (b - a).cross(c - a).normalize();
                if n.dot(p - a) > 0.0 {
                    inside = false;
                }
                best = best.min(point_triangle_distance(p, a, b, c));
            }
            if inside { 0.0 } else { best }
        }
        Shape::Rounded(r) => (local_distance(r.inner(), p) - r.radius() as f64).max(0.0),
    }
}

/// The point of `shape` (in its local frame) farthest along `dir`, from the
/// shape's definition in f64: the support function written again, apart from
/// gjk-core's `SupportMap`, so that answers built on it are independent.
pub fn local_support(shape: &Shape, dir: DVec3) -> DVec3 {
    let unit = dir.normalize_or_zero();
    let sign = |x: f64| if x < 0.0 { -1.0 } else { 1.0 };
    match shape {
        Shape::Sphere(s) => unit * s.radius() as f64,
        Shape::Cuboid(c) => {
            let h = c.half_extents().as_dvec3();
            DVec3::new(sign(dir.x) * h.x, sign(dir.y) * h.y, sign(dir.z) * h.z)
        }
        Shape::Capsule(c) => {
            DVec3::new(0.0, sign(dir.y) * c.half_height() as f64, 0.0) + unit * c.radius() as f64
        }
        Shape::Cylinder(c) => {
            let rim = rim_point(dir, c.radius() as f64);
            DVec3::new(rim.x, sign(dir.y) * c.half_height() as f64, rim.y)
        }
        Shape::Cone(c) => {
            let h = c.half_height() as f64;
            let rim = rim_point(dir, c.radius() as f64);
            let (apex, base) = (DVec3::new(0.0, h, 0.0), DVec3::new(rim.x, -h, rim.y));
            if base.dot(dir) > apex.dot(dir) {
                base
            } else {
                apex
            }
        }
        Shape::ConvexHull(hull) => hull
            .vertices()
            .iter()
            .map(|v| v.as_dvec3())
            .max_by(|a, b| a.dot(dir).total_cmp(&b.dot(dir)))
            .unwrap_or(DVec3::ZERO),
        Shape::Rounded(r) => local_support(r.inner(), dir) + unit * r.radius() as f64,
    }
}

/// The rim point `(x, z)` of a disc of radius `r` about Y farthest along `dir`.
fn rim_point(dir: DVec3, r: f64) -> DVec2 {
    let xz = DVec2::new(dir.x, dir.z);
    let len = xz.length();
    if len > 0.0 {
        xz * (r / len)
    } else {
        DVec2::ZERO
    }
}

/// `max over a in A, b in B of (a - b)·n`: the support function of `A - B` in
/// world space, from [`local_support`].
fn difference_support(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose, n: DVec3) -> f64 {
    let world = |s: &Shape, p: &Pose, d: DVec3| {
        let q = p.rotation().as_dquat();
        q * local_support(s, q.conjugate() * d) + p.translation().as_dvec3()
    };
    (world(a, pose_a, n) - world(b, pose_b, -n)).dot(n)
}

/// Penetration depth and normal of two overlapping shapes, by search over
/// directions: the depth is the distance from the origin to the boundary of
/// `A - B`, the least of its support function over unit directions, and the
/// normal (from A towards B) the direction that attains it. The seeds are the
/// best 16 of a Fibonacci lattice of `samples` directions and, where a side is a
/// polytope, the face normals of `A - B` (each side's face normals and the
/// cross products of their edges, among which the nearest facet's normal is);
/// each is refined by Powell's method (`refine`). All in f64; no GJK, no EPA.
/// On a kinked valley (a cone's side, where apex and rim tie) the search can
/// stop up to about 1e-5 of the depth short of the bottom: compare with that
/// slack. Meaningless for separated shapes.
pub fn penetration_by_directions(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    samples: usize,
) -> (f64, DVec3) {
    let h = |n: DVec3| difference_support(a, pose_a, b, pose_b, n);
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut lattice: Vec<(f64, DVec3)> = (0..samples)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / samples as f64;
            let r = (1.0 - y * y).sqrt();
            let phi = golden * i as f64;
            let n = DVec3::new(r * phi.cos(), y, r * phi.sin());
            (h(n), n)
        })
        .collect();
    lattice.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (faces_a, edges_a) = polytope_directions(a, pose_a);
    let (faces_b, edges_b) = polytope_directions(b, pose_b);
    let mut candidates: Vec<DVec3> = faces_a.iter().chain(&faces_b).copied().collect();
    for ea in &edges_a {
        for eb in &edges_b {
            if let Some(n) = ea.cross(*eb).try_normalize() {
                candidates.push(n);
            }
        }
    }
    let mut exact: Vec<(f64, DVec3)> = candidates
        .iter()
        .flat_map(|&n| [n, -n])
        .map(|n| (h(n), n))
        .collect();
    exact.sort_by(|x, y| x.0.total_cmp(&y.0));
    let spacing = (4.0 * std::f64::consts::PI / samples as f64).sqrt();
    let ridges: Vec<(f64, DVec3)> = ridge_circles(a, pose_a, 1.0)
        .into_iter()
        .chain(ridge_circles(b, pose_b, -1.0))
        .map(|circle| circle_min(&h, circle))
        .collect();
    lattice
        .iter()
        .take(16)
        .chain(exact.iter().take(8))
        .map(|&(value, n)| refine(&h, value, n, 2.0 * spacing))
        .chain(ridges)
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .unwrap_or((f64::NAN, DVec3::ZERO))
}

/// A circle of directions on the unit sphere: `cos β (cos φ e1 + sin φ e2) + sin β
/// axis`, as `(axis, sin β)`.
type Circle = (DVec3, f64);

/// The circles of directions along which a shape's support function has a kink
/// its pieces meet on: for a cone, the normals of its side (where the apex and
/// the rim tie); for cylinders and capsule cores, the directions across the axis
/// (where the two ends tie); for boxes, the directions across each axis (where
/// opposite faces tie). `sign` is -1 for B, whose support enters `A - B`
/// along `-n`.
fn ridge_circles(shape: &Shape, pose: &Pose, sign: f64) -> Vec<Circle> {
    let axis = pose.rotation().as_dquat() * DVec3::Y * sign;
    match shape {
        Shape::Cone(c) => {
            let (h, r) = (c.half_height() as f64, c.radius() as f64);
            vec![(axis, r / (4.0 * h * h + r * r).sqrt())]
        }
        Shape::Cylinder(_) | Shape::Capsule(_) => vec![(axis, 0.0)],
        Shape::Cuboid(_) => [DVec3::X, DVec3::Y, DVec3::Z]
            .map(|e| (pose.rotation().as_dquat() * e, 0.0))
            .to_vec(),
        Shape::Rounded(r) => ridge_circles(r.inner(), pose, sign),
        _ => Vec::new(),
    }
}

/// The least of `h` on a circle of directions: 720 samples, then a golden-section
/// search in the angle around the best (the support function is smooth along
/// its own ridge).
fn circle_min(h: &impl Fn(DVec3) -> f64, (axis, sin_beta): Circle) -> (f64, DVec3) {
    let e1 = axis.any_orthonormal_vector();
    let e2 = axis.cross(e1);
    let cos_beta = (1.0 - sin_beta * sin_beta).sqrt();
    let at = |phi: f64| (e1 * phi.cos() + e2 * phi.sin()) * cos_beta + axis * sin_beta;
    let step = std::f64::consts::TAU / 720.0;
    let best = (0..720)
        .map(|k| k as f64 * step)
        .min_by(|&x, &y| h(at(x)).total_cmp(&h(at(y))))
        .unwrap_or(0.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (best - step, best + step);
    while hi - lo > 1e-14 {
        let (c, e) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        if h(at(c)) < h(at(e)) {
            hi = e;
        } else {
            lo = c;
        }
    }
    let n = at(0.5 * (lo + hi));
    (h(n), n)
}

/// A local minimum of `h` on the unit sphere near `n`, by Powell's method in the
/// tangent plane at `n`: line searches along two directions, then along the net
/// step they made, which replaces the direction that gained most. The net steps
/// line up with the kinked valleys a support function has (where two of its
/// pieces meet), along which searches on fixed directions stall.
fn refine(h: &impl Fn(DVec3) -> f64, value: f64, n: DVec3, spacing: f64) -> (f64, DVec3) {
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    let at = |p: DVec2| (n + u * p.x + v * p.y).normalize();
    let f = |p: DVec2| h(at(p));
    let mut dirs = [DVec2::X, DVec2::Y];
    let (mut p, mut fp) = (DVec2::ZERO, value);
    for _ in 0..40 {
        let (start, f_start) = (p, fp);
        let mut gains = [0.0; 2];
        for (k, d) in dirs.iter().enumerate() {
            let (q, fq) = line_min(&f, p, fp, *d, spacing);
            gains[k] = fp - fq;
            (p, fp) = (q, fq);
        }
        if let Some(d) = (p - start).try_normalize() {
            (p, fp) = line_min(&f, p, fp, d, spacing);
            dirs[usize::from(gains[1] > gains[0])] = d;
        }
        if f_start - fp <= 1e-15 * f_start.abs() {
            break;
        }
    }
    (fp, at(p))
}

/// The least of `f` along the line `p + t d`: a step of `scale` grown until it
/// climbs on both sides, then a golden-section search down to 1e-13.
fn line_min(f: &impl Fn(DVec2) -> f64, p: DVec2, fp: f64, d: DVec2, scale: f64) -> (DVec2, f64) {
    let g = |t: f64| f(p + d * t);
    // Bracket: a point lower than both ends, or the start if neither side descends.
    let mut step = scale;
    let (mut lo, mut hi) = (-step, step);
    let (f_lo, f_hi) = (g(lo), g(hi));
    if f_lo >= fp && f_hi >= fp {
        // The minimum lies within one step: search there.
    } else {
        let sign = if f_hi < f_lo { 1.0 } else { -1.0 };
        let mut best = (sign * step, f_hi.min(f_lo));
        for _ in 0..60 {
            step *= 2.0;
            let t = sign * step;
            let ft = g(t);
            if ft >= best.1 {
                break;
            }
            best = (t, ft);
        }
        (lo, hi) = (best.0 - step, best.0 + step);
    }
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - ratio * (b - a);
    let mut e = a + ratio * (b - a);
    let (mut fc, mut fe) = (g(c), g(e));
    while (b - a).abs() > 1e-13 * (1.0 + c.abs()) {
        if fc < fe {
            (b, e, fe) = (e, c, fc);
            c = b - ratio * (b - a);
            fc = g(c);
        } else {
            (a, c, fc) = (c, e, fe);
            e = a + ratio * (b - a);
            fe = g(e);
        }
    }
    let (t, ft) = if fc < fe { (c, fc) } else { (e, fe) };
    if ft < fp { (p + d * t, ft) } else { (p, fp) }
}

/// World face normals and edge directions of a shape's polytope parts (boxes,
/// hulls, and the axis along which a cylinder or capsule core is straight);
/// empty for the others.
fn polytope_directions(shape: &Shape, pose: &Pose) -> (Vec<DVec3>, Vec<DVec3>) {
    let q = pose.rotation().as_dquat();
    let axes = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| q * e);
    match shape {
        Shape::Cuboid(_) => (axes.to_vec(), axes.to_vec()),
        Shape::Capsule(_) | Shape::Cylinder(_) => (vec![axes[1]], vec![axes[1]]),
        Shape::ConvexHull(hull) => {
            let v: Vec<DVec3> = hull.vertices().iter().map(|p| q * p.as_dvec3()).collect();
            let mut faces = Vec::new();
            let mut edges = Vec::new();
            for f in hull.faces() {
                let [x, y, z] = f.map(|i| v[i as usize]);
                faces.extend((y - x).cross(z - x).try_normalize());
                edges.extend(
                    [y - x, z - y, x - z]
                        .into_iter()
                        .filter_map(|e| e.try_normalize()),
                );
            }
            (faces, edges)
        }
        Shape::Rounded(r) => polytope_directions(r.inner(), pose),
        _ => (Vec::new(), Vec::new()),
    }
}

/// A solid of revolution about Y reduces to its half cross-section in the
/// (distance from axis, height) plane.
fn radial(p: DVec3) -> DVec2 {
    DVec2::new((p.x * p.x + p.z * p.z).sqrt(), p.y)
}

/// Distance from `q` to a convex polygon given counter-clockwise (0 inside). A
/// polygon of no area (a flat cone or cylinder's section is a segment, a point
/// cone's a point) has no inside: the distance to its edges.
fn polygon_distance(q: DVec2, poly: &[DVec2]) -> f64 {
    let n = poly.len();
    let area: f64 = (0..n).map(|i| poly[i].perp_dot(poly[(i + 1) % n])).sum();
    let mut inside = area > 0.0;
    let mut best = f64::INFINITY;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let e = b - a;
        if e.perp_dot(q - a) < 0.0 {
            inside = false;
        }
        let t = if e.length_squared() > 0.0 {
            ((q - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        best = best.min(q.distance(a + e * t));
    }
    if inside { 0.0 } else { best }
}

/// Distance from `p` to the segment `[a, b]` (a point when `a == b`).
fn point_segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let e = b - a;
    let t = if e.length_squared() > 0.0 {
        ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + e * t)
}

/// Distance from `p` to triangle `abc`, in f64: to its plane when `p` projects
/// inside it (each edge's cross product with the way to the projection points
/// along the normal), else to the nearest edge. Written with edge functions
/// rather than Ericson's products of dot products, which cancel on slivers.
fn point_triangle_distance(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    let edges = point_segment_distance(p, a, b)
        .min(point_segment_distance(p, b, c))
        .min(point_segment_distance(p, c, a));
    if nn == 0.0 {
        return edges;
    }
    let q = p - n * (n.dot(p - a) / nn);
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(u, v)| (v - u).cross(q - u).dot(n) >= 0.0);
    if inside {
        (n.dot(p - a) / nn.sqrt()).abs().min(edges)
    } else {
        edges
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gjk_core::{Cone, Cuboid, Cylinder, Rounded};

    #[test]
    fn closed_forms() {
        let id = Pose::IDENTITY;
        let cube: Shape = Cuboid::new(Vec3::ONE).unwrap().into();
        assert!(
            (distance_to_shape(&cube, &id, Vec3::new(2.0, 2.0, 0.5)) - 2f64.sqrt()).abs() < 1e-6
        );
        assert_eq!(distance_to_shape(&cube, &id, Vec3::splat(0.5)), 0.0);
        let cyl: Shape = Cylinder::new(1.0, 1.0).unwrap().into();
        assert!((distance_to_shape(&cyl, &id, Vec3::new(3.0, 0.0, 0.0)) - 2.0).abs() < 1e-6);
        assert!((distance_to_shape(&cyl, &id, Vec3::new(0.0, 3.0, 0.5)) - 2.0).abs() < 1e-6);
        let cone: Shape = Cone::new(1.0, 1.0).unwrap().into();
        // On the slanted side's outward normal from its midpoint (0.5, 0).
        let n = DVec2::new(2.0, 1.0).normalize();
        let q = DVec2::new(0.5, 0.0) + n * 0.25;
        assert!(
            (distance_to_shape(&cone, &id, Vec3::new(q.x as f32, q.y as f32, 0.0)) - 0.25).abs()
                < 1e-6
        );
        let rounded: Shape = Rounded::new(cube, 0.5).unwrap().into();
        assert!((distance_to_shape(&rounded, &id, Vec3::new(3.0, 0.0, 0.0)) - 1.5).abs() < 1e-6);
    }

    #[test]
    fn penetration_by_directions_on_closed_forms() {
        let id = Pose::IDENTITY;
        let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0)).unwrap();
        let cube: Shape = Cuboid::new(Vec3::ONE).unwrap().into();
        // Unit cubes 1.75 apart: 0.25 deep along X.
        let (d, n) = penetration_by_directions(&cube, &id, &cube, &at(1.75), 2000);
        assert!(
            (d - 0.25).abs() < 1e-9 && (n - DVec3::X).length() < 1e-6,
            "{d} {n}"
        );
        // A cylinder against itself: its least width, all around its side.
        let cyl: Shape = Cylinder::new(2.0, 0.5).unwrap().into();
        let (d, n) = penetration_by_directions(&cyl, &id, &cyl, &id, 2000);
        assert!((d - 1.0).abs() < 1e-9 && n.y.abs() < 1e-6, "{d} {n}");
        // A ball whose centre lies 0.1 outside a cone's side: its radius less
        // that (the direction lies in the kinked valley where apex and rim tie).
        let cone: Shape = Cone::new(1.0, 1.0).unwrap().into();
        let side = DVec2::new(2.0, 1.0).normalize();
        let c = DVec2::new(0.5, 0.0) + side * 0.1;
        let ball: Shape = gjk_core::Sphere::new(0.5).unwrap().into();
        let pb = Pose::from_translation(Vec3::new(c.x as f32, c.y as f32, 0.0)).unwrap();
        let expected = 0.5 - distance_to_shape(&cone, &id, pb.translation());
        let (d, _) = penetration_by_directions(&cone, &id, &ball, &pb, 2000);
        assert!((d - expected).abs() < 1e-9, "{d} vs {expected}");
    }
}
