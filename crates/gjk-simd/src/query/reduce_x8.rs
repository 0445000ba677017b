//! Reduction of eight manifolds' candidate points to at most four each: the twin
//! of `gjk_core`'s `query/reduce.rs`, pick for pick (the deepest point, the one
//! farthest from it, the one that makes the largest triangle with those two, the
//! one that adds the most area), with its ties (scores within the tolerance are
//! equal, the smaller id pair wins, then the first listed) and its rounding, so
//! that each lane keeps the reference's points in the reference's order.
//!
//! A pick scans the candidate slots once: the best score, then among the slots
//! within the tolerance of it the smallest id pair, carrying that slot's point
//! along by selects (a gather from the winning slot would scan them again).

use wide::f32x8;

use super::clip_x8::{CANDIDATES, CandidatesX8};
use crate::math::{CmpX8, MaskX8, Vec3X8};

/// The points a reduction keeps, per lane in the order chosen.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReducedX8 {
    /// On A's core.
    pub a: [Vec3X8; 4],
    /// On B's core.
    pub b: [Vec3X8; 4],
    /// The ranks of A's features.
    pub id_a: [f32x8; 4],
    /// The ranks of B's features.
    pub id_b: [f32x8; 4],
    /// How many points each lane keeps (0 where it had no candidate).
    pub len: f32x8,
}

/// One candidate carried through a pick.
#[derive(Clone, Copy)]
struct Chosen {
    a: Vec3X8,
    b: Vec3X8,
    id_a: f32x8,
    id_b: f32x8,
}

impl Chosen {
    #[inline(always)]
    fn from_slot(c: &CandidatesX8, j: usize) -> Self {
        Chosen {
            a: c.a[j],
            b: c.b[j],
            id_a: c.id_a[j],
            id_b: c.id_b[j],
        }
    }

    #[inline(always)]
    fn select(m: MaskX8, x: Chosen, y: Chosen) -> Chosen {
        Chosen {
            a: m.select(x.a, y.a),
            b: m.select(x.b, y.b),
            id_a: m.select(x.id_a, y.id_a),
            id_b: m.select(x.id_b, y.id_b),
        }
    }
}

/// `reduce.rs`'s `pick` over slots `0..slots`: the lanes where the largest score
/// exceeds `floor`, and there the slot with the smallest id pair among those
/// within `tie` of the largest (the first of equal pairs). NaN scores never win,
/// as with `f32::max`.
#[inline(always)]
fn pick(
    c: &CandidatesX8,
    slots: usize,
    score: &[f32x8; CANDIDATES],
    tie: f32x8,
    floor: f32x8,
) -> (MaskX8, Chosen) {
    let mut best = f32x8::splat(f32::NEG_INFINITY);
    for (&valid, &score) in c.valid.iter().zip(score).take(slots) {
        best = (valid & score.gt(best)).select(score, best);
    }
    let found = best.gt(floor);
    let threshold = best - tie;
    let inf = f32x8::splat(f32::INFINITY);
    let mut key = (inf, inf);
    let mut chosen = Chosen::from_slot(c, 0);
    for (j, &score) in score.iter().enumerate().take(slots) {
        let near = c.valid[j] & score.ge(threshold);
        let (ka, kb) = (c.id_a[j], c.id_b[j]);
        let smaller = ka.lt(key.0) | (ka.same(key.0) & kb.lt(key.1));
        let better = near & smaller;
        key = (better.select(ka, key.0), better.select(kb, key.1));
        chosen = Chosen::select(better, Chosen::from_slot(c, j), chosen);
    }
    (found, chosen)
}

/// Twice the signed area of the triangle `(p, q, r)` seen along `n`.
#[inline(always)]
fn area2(p: Vec3X8, q: Vec3X8, r: Vec3X8, n: Vec3X8) -> f32x8 {
    (q - p).cross_glam(r - p).dot_glam(n)
}

/// `f32::max`: the other operand where one is NaN.
#[inline(always)]
fn max_f32(x: f32x8, y: f32x8) -> f32x8 {
    (y.gt(x) | !x.same(x)).select(y, x)
}

/// Keeps at most four of the candidates of slots `0..slots` in each lane, as
/// `reduce.rs`'s `reduce`, with `depth` each slot's depth along `n`.
#[inline(always)]
pub(crate) fn reduce_x8(
    c: &CandidatesX8,
    slots: usize,
    depth: &[f32x8; CANDIDATES],
    n: Vec3X8,
    tol: f32x8,
) -> ReducedX8 {
    let zero = f32x8::ZERO;
    let one = f32x8::ONE;
    let mut any = MaskX8::NONE;
    let mut first = Chosen::from_slot(c, 0);
    let mut seen = MaskX8::NONE;
    for j in 0..slots {
        let fresh = c.valid[j].and_not(seen);
        first = Chosen::select(fresh, Chosen::from_slot(c, j), first);
        seen |= c.valid[j];
        any |= c.valid[j];
    }
    let mut out = ReducedX8 {
        a: [Vec3X8::ZERO; 4],
        b: [Vec3X8::ZERO; 4],
        id_a: [zero; 4],
        id_b: [zero; 4],
        len: any.select(one, zero),
    };
    let keep = |k: usize, x: Chosen, out: &mut ReducedX8| {
        out.a[k] = x.a;
        out.b[k] = x.b;
        out.id_a[k] = x.id_a;
        out.id_b[k] = x.id_b;
    };
    let (found1, deepest) = pick(c, slots, depth, tol, f32x8::splat(f32::NEG_INFINITY));
    // No depth to compare (every one NaN): the first candidate alone.
    let p1 = Chosen::select(found1, deepest, first);
    keep(0, p1, &mut out);
    let going = any & found1;
    if going.none() {
        return out;
    }
    let flat = |v: Vec3X8| v - n * n.dot_glam(v);
    let score2: [f32x8; CANDIDATES] = std::array::from_fn(|j| {
        if j < slots {
            flat(c.a[j] - p1.a).length_glam()
        } else {
            zero
        }
    });
    let (found2, p2) = pick(c, slots, &score2, tol, tol);
    let going = going & found2;
    if going.none() {
        return out;
    }
    keep(1, p2, &mut out);
    out.len = going.select(f32x8::splat(2.0), out.len);
    let base = flat(p2.a - p1.a).length_glam();
    let score3: [f32x8; CANDIDATES] = std::array::from_fn(|j| {
        if j < slots {
            area2(p1.a, p2.a, c.a[j], n).abs() / base
        } else {
            zero
        }
    });
    let (found3, p3) = pick(c, slots, &score3, tol, tol);
    let going = going & found3;
    if going.none() {
        return out;
    }
    keep(2, p3, &mut out);
    out.len = going.select(f32x8::splat(3.0), out.len);
    // Orient the triangle counter-clockwise about n.
    let ccw = area2(p1.a, p2.a, p3.a, n).ge(zero);
    let (q2, q3) = (ccw.select(p2.a, p3.a), ccw.select(p3.a, p2.a));
    let edges = [(p1.a, q2), (q2, q3), (q3, p1.a)];
    // The area each point adds beyond the edge it lies outside of (twice it, as
    // a length times the base, so that the tolerance reads as a height).
    let score4: [f32x8; CANDIDATES] = std::array::from_fn(|j| {
        if j < slots {
            edges
                .iter()
                .fold(f32x8::splat(f32::NEG_INFINITY), |m, &(u, v)| {
                    max_f32(m, -area2(u, v, c.a[j], n) / base)
                })
        } else {
            zero
        }
    });
    let (found4, p4) = pick(c, slots, &score4, tol, tol);
    let going = going & found4;
    keep(3, p4, &mut out);
    out.len = going.select(f32x8::splat(4.0), out.len);
    out
}
