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

/// The polygon expansion: start from the supports along the plane's axis and
/// diagonal directions (counter-clockwise, so the polygon is), then repeatedly push out
/// the edge nearest the origin by the support along its outward normal.
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
        // hull of its vertices and `v`, which `v` is a vertex of. Should the
        // rounding drop it all the same, the polygon would stay as it is, and
        // the loop stops on it rather than ask for the same point again.
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
/// or points within `touch` of another.
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
/// support beyond the nearest edge is always a new vertex.
/// `chain` is scratch storage.
fn hull(poly: &mut Vec<Vertex>, chain: &mut Vec<Vertex>, touch: f64) {
    poly.sort_by(|p, q| p.at.x.total_cmp(&q.at.x).then(p.at.y.total_cmp(&q.at.y)));
    // Andrew's monotone chain: the lower chain left to right, then the upper one
    // right to left, each keeping a point only where it turns left.
    chain.clear();
    let add = |chain: &mut Vec<Vertex>, start: usize, p: Vertex| {
        while let [.., o, a] = chain[start..] {
            if (a.at - o.at).perp_dot(p.at - o.at) > 0.0 {
                break;
            }
            chain.pop();
        }
        if chain[start..]
            .last()
            .is_none_or(|last| last.at.distance(p.at) > touch)
        {
            chain.push(p);
        }
    };
    for &p in poly.iter() {
        add(chain, 0, p);
    }
    // The lower chain's last point is the upper one's first.
    let start = chain.len().saturating_sub(1);
    for &p in poly.iter().rev() {
        add(chain, start, p);
    }
    // And the upper chain's last the lower one's first (unless all the points
    // are one).
    if chain.len() > 1 {
        chain.pop();
    }
    std::mem::swap(poly, chain);
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
/// flat side, such as a cap's centre), the one the origin projects into.
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
