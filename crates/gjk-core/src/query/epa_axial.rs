//! EPA in the plane through the common axis of two coaxial cores of revolution.
//!
//! When both cores are solids of revolution about one axis (or one is a point on
//! the other's axis), `A - B` is a solid of revolution about that axis shifted
//! off it by the cores' offset, and its least support over all directions lies
//! in the plane through the axis and that offset (`AxialSection`): for a given
//! angle to the axis, turning the direction towards the offset only lowers it.
//! The polytope EPA would have to refine the whole circle of nearly equal
//! directions around the axis (its lower bound approaches the answer as the
//! square of its chords' angle: hundreds of support points for EPA's tolerance).
//! In the plane, the section of the cores' difference is a polygon (the sections
//! of cylinders, cones and capsule cores are rectangles, triangles and
//! segments), which a polygon expansion bounds exactly in a few steps.
//!
//! The reduction is exact up to B's tilt from the axis, which moves support
//! points out of the plane by at most `AxialSection::tilt`; the answer is
//! taken only when that stays within EPA's own tolerance, and the polytope EPA
//! runs otherwise.

use glam::{DVec2, DVec3};

use super::epa::{Penetration, degenerate};
use super::minkowski::{AxialSection, Minkowski, SupportPoint};
use super::polytope::tolerance;
use super::status::Status;
use crate::support::SupportMap;
use crate::tolerance::{EPA_COLLINEAR, EPA_MAX_ITERATIONS};

/// A vertex of the section polygon: the support point and its coordinates
/// `(radial, axial)` in the plane, in f64 like the polytope EPA's faces.
#[derive(Clone, Copy)]
struct Vertex {
    point: SupportPoint,
    at: DVec2,
}

/// The penetration of the cores found in the axial plane, or `None` when B's
/// tilt could move the answer by more than EPA's tolerance.
pub(crate) fn penetration<A, B>(
    m: &mut Minkowski<A, B>,
    section: &AxialSection,
    touch: f32,
) -> Option<Penetration>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let pen = expand(m, section, touch);
    (f64::from(section.tilt) <= tolerance(f64::from(pen.depth), touch)).then_some(pen)
}

/// The polygon expansion: start from the hull of the supports along the plane's
/// axis and diagonal directions, then repeatedly push out the edge nearest the
/// origin by the support along its outward normal.
fn expand<A, B>(m: &mut Minkowski<A, B>, section: &AxialSection, touch: f32) -> Penetration
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let (radial, axis) = (section.radial.as_dvec3(), section.axis.as_dvec3());
    let to_space = |n: DVec2| radial * n.x + axis * n.y;
    let probe = |m: &mut Minkowski<A, B>, n: DVec2| {
        let point = m.support(to_space(n).as_vec3());
        let w = point.w.as_dvec3();
        Vertex {
            point,
            at: DVec2::new(w.dot(radial), w.dot(axis)),
        }
    };
    let touch64 = f64::from(touch);
    let mut poly: Vec<Vertex> = Vec::with_capacity(16);
    let mut scratch: Vec<Vertex> = Vec::with_capacity(16);
    // The four axis directions and the four diagonals. The diagonals matter: a
    // cylinder's section is a rectangle, and along the axis or the radial
    // direction exactly its support may be any point of the face that direction
    // meets (the rounding of the direction in B's frame picks a corner), so the
    // axis probes alone can find only two opposite corners and take the
    // rectangle for a segment.
    let diagonal = std::f64::consts::FRAC_1_SQRT_2;
    let directions = [
        DVec2::X,
        DVec2::new(diagonal, diagonal),
        DVec2::Y,
        DVec2::new(-diagonal, diagonal),
        DVec2::NEG_X,
        DVec2::new(-diagonal, -diagonal),
        DVec2::NEG_Y,
        DVec2::new(diagonal, -diagonal),
    ];
    poly.extend(directions.map(|n| probe(m, n)));
    hull(&mut poly, &mut scratch, touch64);
    let mut iterations = directions.len() as u32;
    if poly.len() < 3 || area2(&poly) <= touch64 * touch64 {
        // No area: the cores' difference is flat in the plane (two coaxial discs,
        // coaxial segments); the polytope EPA's flat answer applies.
        let points: Vec<SupportPoint> = poly.iter().map(|v| v.point).collect();
        return degenerate(m, &points, iterations);
    }
    let mut status = Status::IterationLimit;
    while iterations < EPA_MAX_ITERATIONS {
        let (_, n, distance) = nearest_edge(&poly);
        let v = probe(m, n);
        iterations += 1;
        // Along the edge's normal, the section reaches `v`: the gap between the
        // two bounds of the depth.
        if v.at.dot(n) - distance <= tolerance(distance.max(0.0), touch) {
            status = Status::Converged;
            break;
        }
        // Beyond the edge by more than the tolerance: the polygon becomes the
        // hull of its vertices and `v`, which `v` is a vertex of (it lies
        // outside the old hull, farther than `touch` from all of it). Should
        // the rounding drop it all the same, the loop stops rather than ask
        // for the same point again, and says so.
        poly.push(v);
        hull(&mut poly, &mut scratch, touch64);
        if !poly.iter().any(|u| u.at == v.at) {
            status = Status::Degenerate;
            break;
        }
    }
    let (i, n, distance) = nearest_edge(&poly);
    let mut pen = edge_answer(&poly, i, to_space(n), distance);
    pen.iterations = iterations;
    pen.status = status;
    pen
}

/// Makes `poly` its convex hull, counter-clockwise, without collinear points
/// and without two consecutive vertices within `touch` of each other (nor the
/// last and the first). `chain` is scratch storage.
///
/// The points come from support points along the probes' directions, in the
/// probes' order, but each carries the f32 rounding of its support point (a
/// rim point found along a direction in the section's plane lies a rounding
/// off it, and its projection a hair inside the section): taken in that order
/// as they come, a point a hair inside a side between two others makes the
/// polygon turn in, and the edge from it to a true corner a few millionths
/// away has a normal tilted by the rounding magnified by its shortness. That
/// edge can pass for the nearest, and the expansion then grows the polygon
/// across itself. On the hull instead every edge's normal is one the points
/// hold: each point lies inside every edge, so that the bounds hold, and the
/// support beyond the nearest edge by more than `touch` is a new vertex.
fn hull(poly: &mut Vec<Vertex>, chain: &mut Vec<Vertex>, touch: f64) {
    // Lexicographic on the values: adding zero makes -0 and +0 one key.
    let key = |v: &Vertex| (v.at.x + 0.0, v.at.y + 0.0);
    poly.sort_unstable_by(|p, q| {
        let ((px, py), (qx, qy)) = (key(p), key(q));
        px.total_cmp(&qx).then(py.total_cmp(&qy))
    });
    // Andrew's monotone chain: the lower chain left to right, then the upper one
    // right to left, each keeping a point only where it turns left (exact
    // duplicates and collinear points are dropped).
    chain.clear();
    let turns_left = |o: &Vertex, a: &Vertex, b: &Vertex| (a.at - o.at).perp_dot(b.at - o.at) > 0.0;
    for &p in poly.iter() {
        while let [.., o, a] = chain[..] {
            if turns_left(&o, &a, &p) {
                break;
            }
            chain.pop();
        }
        chain.push(p);
    }
    // The upper chain starts from the lower one's last point, the rightmost.
    let lower = chain.len();
    for &p in poly.iter().rev().skip(1) {
        while chain.len() > lower {
            let [.., o, a] = chain[..] else { break };
            if turns_left(&o, &a, &p) {
                break;
            }
            chain.pop();
        }
        chain.push(p);
    }
    // It ends on the lower one's first point (unless there is only one point).
    if chain.len() > 1 {
        chain.pop();
    }
    // Vertices within `touch` of the one before are one point: dropping a
    // vertex of a convex polygon keeps it convex.
    poly.clear();
    for &p in chain.iter() {
        if poly
            .last()
            .is_none_or(|last| last.at.distance(p.at) > touch)
        {
            poly.push(p);
        }
    }
    while poly.len() > 1 && poly[0].at.distance(poly[poly.len() - 1].at) <= touch {
        poly.pop();
    }
}

/// Twice the polygon's signed area (positive counter-clockwise).
fn area2(poly: &[Vertex]) -> f64 {
    (0..poly.len())
        .map(|i| poly[i].at.perp_dot(poly[(i + 1) % poly.len()].at))
        .sum()
}

/// The edge nearest the origin: its index (from vertex `i` to the next), its
/// outward unit normal and its distance. Edges of no length are skipped. Of
/// collinear edges at the same distance (a support point in the middle of a
/// flat side that rounding left a hair off the side's line), the one the origin
/// projects into.
fn nearest_edge(poly: &[Vertex]) -> (usize, DVec2, f64) {
    let len = poly.len();
    let edge = |i: usize| {
        let (p, q) = (poly[i].at, poly[(i + 1) % len].at);
        let e = q - p;
        // Counter-clockwise: the inside is on the left, the outward normal on
        // the right.
        let n = DVec2::new(e.y, -e.x).try_normalize()?;
        let t = (-p).dot(e) / e.length_squared();
        Some((n, n.dot(p), t))
    };
    let mut best = (0, DVec2::X, f64::INFINITY, 0.5);
    for i in 0..len {
        if let Some((n, distance, t)) = edge(i)
            && distance < best.2
        {
            best = (i, n, distance, t);
        }
    }
    // Walk to the collinear neighbour the projection falls into, if it falls
    // past the edge's end.
    for _ in 0..len {
        let (i, n, distance, t) = best;
        let next = if t > 1.0 {
            (i + 1) % len
        } else if t < 0.0 {
            (i + len - 1) % len
        } else {
            break;
        };
        match edge(next) {
            Some((m, d, u))
                if m.dot(n) >= 1.0 - EPA_COLLINEAR
                    && d <= distance + EPA_COLLINEAR * distance.abs() =>
            {
                best = (next, m, d, u)
            }
            _ => break,
        }
    }
    (best.0, best.1, best.2)
}

/// Depth, normal (`normal`, in A's frame) and witnesses from edge `i` at
/// `distance`: the origin's projection on it, as a weight of its two support
/// points.
fn edge_answer(poly: &[Vertex], i: usize, normal: DVec3, distance: f64) -> Penetration {
    let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
    let e = q.at - p.at;
    let t = ((-p.at).dot(e) / e.length_squared()).clamp(0.0, 1.0);
    let depth = distance.max(0.0);
    let point_a = p.point.a.as_dvec3() + (q.point.a.as_dvec3() - p.point.a.as_dvec3()) * t;
    Penetration {
        depth: depth as f32,
        normal: normal.as_vec3(),
        point_a: point_a.as_vec3(),
        point_b: (point_a - normal * depth).as_vec3(),
        iterations: 0,
        status: Status::Converged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hull_of(points: &[(f64, f64)], touch: f64) -> Vec<(f64, f64)> {
        let mut poly: Vec<Vertex> = points
            .iter()
            .map(|&(x, y)| Vertex {
                point: SupportPoint::default(),
                at: DVec2::new(x, y),
            })
            .collect();
        hull(&mut poly, &mut Vec::new(), touch);
        poly.iter().map(|v| (v.at.x, v.at.y)).collect()
    }

    /// Counter-clockwise, from the leftmost point (the lowest of those).
    #[test]
    fn hull_is_counter_clockwise_without_inner_or_collinear_points() {
        let square = [
            (1.0, 1.0),
            (-1.0, 1.0),
            (0.0, 0.0),
            (-1.0, -1.0),
            (1.0, -1.0),
            (0.0, 1.0),
        ];
        assert_eq!(
            hull_of(&square, 1e-9),
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        );
    }

    #[test]
    fn hull_of_few_or_collinear_points() {
        assert_eq!(hull_of(&[], 1e-9), []);
        assert_eq!(hull_of(&[(2.0, 3.0)], 1e-9), [(2.0, 3.0)]);
        assert_eq!(hull_of(&[(2.0, 3.0); 3], 1e-9), [(2.0, 3.0)]);
        assert_eq!(
            hull_of(&[(2.0, 3.0), (0.0, 1.0)], 1e-9),
            [(0.0, 1.0), (2.0, 3.0)]
        );
        let line = [(1.0, 1.0), (3.0, 3.0), (0.0, 0.0), (2.0, 2.0)];
        assert_eq!(hull_of(&line, 1e-9), [(0.0, 0.0), (3.0, 3.0)]);
        // Signed zeros are one value: the segment keeps both its ends.
        let signed = [(-0.0, 0.0), (-0.0, 5.0), (0.0, 1.0), (0.0, 3.0)];
        assert_eq!(hull_of(&signed, 1e-9), [(-0.0, 0.0), (-0.0, 5.0)]);
    }

    /// Near-duplicates of the rightmost corner, sorted on either side of the
    /// top right corner, must not cost that corner (a right side whose corners
    /// differ in x by rounding only, as on a cylinder's section).
    #[test]
    fn near_duplicate_corners_keep_every_far_corner() {
        let points = [
            (-1.0, -2.0),
            (-1.0, 2.0),
            (1.0, -2.0),
            (1.0 + 1e-9, 2.0),
            (1.0 + 2e-9, -2.0 + 1e-8),
        ];
        let h = hull_of(&points, 1e-6);
        assert_eq!(h.len(), 4, "{h:?}");
        assert!(h.contains(&(1.0 + 1e-9, 2.0)), "{h:?}");
        for (i, p) in h.iter().enumerate() {
            let q = h[(i + 1) % h.len()];
            assert!((p.0 - q.0).hypot(p.1 - q.1) > 1e-6, "{h:?}");
        }
    }
}
