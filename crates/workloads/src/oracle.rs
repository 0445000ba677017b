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

/// A solid of revolution about Y reduces to its half cross-section in the
/// (distance from axis, height) plane.
fn radial(p: DVec3) -> DVec2 {
    DVec2::new((p.x * p.x + p.z * p.z).sqrt(), p.y)
}

/// Distance from `q` to a convex polygon given counter-clockwise (0 inside).
fn polygon_distance(q: DVec2, poly: &[DVec2]) -> f64 {
    let mut inside = true;
    let mut best = f64::INFINITY;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        let e = b - a;
        if e.perp_dot(q - a) < 0.0 {
            inside = false;
        }
        let t = ((q - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        best = best.min(q.distance(a + e * t));
    }
    if inside { 0.0 } else { best }
}

/// Distance from `p` to triangle `abc` (Ericson 5.1.5, in f64).
fn point_triangle_distance(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return p.distance(a);
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return p.distance(b);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return p.distance(a + ab * (d1 / (d1 - d3)));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return p.distance(c);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return p.distance(a + ac * (d2 / (d2 - d6)));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return p.distance(b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))));
    }
    let denom = 1.0 / (va + vb + vc);
    p.distance(a + ab * (vb * denom) + ac * (vc * denom))
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
}
