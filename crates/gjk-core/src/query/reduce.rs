//! Reduction of a manifold's candidate points to at most four: the deepest point,
//! then the points that span the largest area with it, the choice BEPUphysics,
//! Jolt and parry make in one form or another. A solver needs no more than four
//! points to hold a face on a face, and the deepest one is the point the contact's
//! depth is about.

use glam::Vec3;

use super::clip::CorePoint;

/// A total order on points by their features, for ties: the same features, the
/// same choice, whatever the rounding of this step.
fn key(p: &CorePoint) -> u64 {
    (u64::from(p.id_a.to_bits()) << 32) | u64::from(p.id_b.to_bits())
}

/// Candidates whose scores a pick keeps on the stack; a longer list (a clip of
/// two many-sided hull faces) scores the rest again in the tie pass.
const SCORED: usize = 32;

/// The point with the largest `score`, treating scores within `tie` of the largest
/// as equal and taking the smallest [`key`] among those. `None` when no score
/// exceeds `floor`. Each score is computed once for both passes (the first
/// [`SCORED`] of them; a score is a pure function of its point, so taking it
/// again gives the same value).
fn pick(
    points: &[CorePoint],
    score: impl Fn(&CorePoint) -> f32,
    tie: f32,
    floor: f32,
) -> Option<usize> {
    let mut scores = [0.0f32; SCORED];
    let mut best = f32::NEG_INFINITY;
    for (i, p) in points.iter().enumerate() {
        let s = score(p);
        if let Some(slot) = scores.get_mut(i) {
            *slot = s;
        }
        best = best.max(s);
    }
    if best.is_nan() || best <= floor {
        return None;
    }
    let score_of = |i: usize| scores.get(i).copied().unwrap_or_else(|| score(&points[i]));
    (0..points.len())
        .filter(|&i| score_of(i) >= best - tie)
        .min_by_key(|&i| key(&points[i]))
}

/// Twice the signed area of the triangle `(p, q, r)` seen along `n`.
fn area2(p: Vec3, q: Vec3, r: Vec3, n: Vec3) -> f32 {
    (q - p).cross(r - p).dot(n)
}

/// Keeps at most four of `points` (in place, in the order chosen): the deepest
/// along `n`, the one farthest from it, the one that makes the largest triangle
/// with those two, and the one that adds the most area to that triangle. Depths,
/// distances and heights within `tol` count as equal (the point with the smaller
/// feature key wins, so that the choice holds from step to step), and a point
/// within `tol` of the ones chosen (of their line, of their triangle) adds nothing
/// and is dropped: coincident candidates collapse to one.
pub(crate) fn reduce(points: &mut Vec<CorePoint>, n: Vec3, tol: f32) {
    if points.len() <= 1 {
        return;
    }
    let depth = |p: &CorePoint| (p.a - p.b).dot(n);
    let flat = |v: Vec3| v - n * n.dot(v);
    // The points chosen, in order (at most four: no allocation).
    let mut chosen = [points[0]; 4];
    let mut kept = 0;
    let mut keep = |p: CorePoint| {
        chosen[kept] = p;
        kept += 1;
    };
    let Some(i1) = pick(points, depth, tol, f32::NEG_INFINITY) else {
        points.truncate(1);
        return;
    };
    let p1 = points[i1];
    keep(p1);
    if let Some(i2) = pick(points, |p| flat(p.a - p1.a).length(), tol, tol) {
        let p2 = points[i2];
        keep(p2);
        let base = flat(p2.a - p1.a).length();
        let height = |p: &CorePoint| area2(p1.a, p2.a, p.a, n).abs() / base;
        if let Some(i3) = pick(points, height, tol, tol) {
            // Orient the triangle counter-clockwise about n.
            let (q2, q3) = if area2(p1.a, p2.a, points[i3].a, n) >= 0.0 {
                (p2, points[i3])
            } else {
                (points[i3], p2)
            };
            keep(points[i3]);
            let edges = [(p1.a, q2.a), (q2.a, q3.a), (q3.a, p1.a)];
            // The area the point adds beyond the edge it lies outside of (twice it,
            // as a length times the base, so that `tol` reads as a height).
            let beyond = |p: &CorePoint| {
                edges
                    .iter()
                    .map(|&(u, v)| -area2(u, v, p.a, n) / base)
                    .fold(f32::NEG_INFINITY, f32::max)
            };
            if let Some(i4) = pick(points, beyond, tol, tol) {
                keep(points[i4]);
            }
        }
    }
    points.clear();
    points.extend_from_slice(&chosen[..kept]);
}
