//! The GJK simplex in fixed slots, and a branch-free closest-point sub-algorithm.
//!
//! Lanes hold simplices of different sizes, so there is no per-lane "length":
//! three *slots* hold the vertices kept from the previous iteration, each with a
//! per-lane `exists` mask, and the new support point `w` is passed in separately.
//!
//! The sub-algorithm evaluates, for every lane, every feature of the simplex that
//! contains `w` — the vertex `w`, the three edges `w p_i`, the three triangles
//! `w p_i p_j` and the tetrahedron — and keeps the nearest valid one by select.
//! Only features containing `w` are candidates: when the support point made
//! progress (the loop has checked the duality gap), the closest point of the new
//! simplex lies on such a feature, because every feature without `w` is part of the
//! previous simplex, whose closest point the loop already had. A feature is valid
//! when its vertices exist and the origin's projection onto its affine hull has
//! strictly positive barycentric weights; the closest point of the simplex is the
//! valid projection nearest to the origin. Ties keep the lower-dimensional feature
//! (it is examined first and only a strictly nearer candidate replaces it).
//!
//! This is a different derivation from `gjk-core`'s Voronoi-region decision tree
//! (Ericson), on purpose: the differential tests then compare two independent
//! solutions of the same sub-problem.

use gjk_core::tolerance::{
    EDGE_CANCELLATION_X8, FLAT_HEIGHT_ULPS, FLAT_TRIANGLE_X8, SLIVER_TRIANGLE_X8,
};
use wide::f32x8;

use crate::math::{CmpX8, MaskX8, Vec3X8};

/// Lanes where `w` stands off the plane of the triangle `p0 p1 p2` (normal
/// `n_old`) by more than [`FLAT_HEIGHT_ULPS`] ulps of the four points'
/// coordinates along that normal: only there does the tetrahedron `w p0 p1 p2`
/// have an interior that f32 can tell (gjk-core's test, on the face the solve
/// extends), `height` being the height numerator `n_old · (w - p0)`.
#[inline(always)]
fn tetrahedron_not_flat(n_old: Vec3X8, p: &[Vec3X8; 3], w: Vec3X8, height: f32x8) -> MaskX8 {
    let n = n_old.abs();
    let rounding = w
        .abs()
        .dot(n)
        .fast_max(p[0].abs().dot(n))
        .fast_max(p[1].abs().dot(n))
        .fast_max(p[2].abs().dot(n));
    let bound = f32x8::splat(FLAT_HEIGHT_ULPS * f32::EPSILON) * rounding;
    (height * height).gt(bound * bound)
}

/// The origin's projection `w + t d` on the line through `w` along `d`
/// (`dd = |d|²`), for the lanes of `active`.
///
/// The sum cancels `w` down to the projection `p`, and its rounding, ulps of `|w|`,
/// can swamp `p` when the edge is long and passes close to the origin (two long
/// nearly parallel capsules or boxes: `|w|` a thousand times `|p|`). GJK then
/// works with a closest point that is not orthogonal to the edge, its gap test
/// reads the error times `|w|`, and it stops early, hundreds of times too far.
/// Where `|w|² > EDGE_CANCELLATION_X8 · |p|²` the point is taken as the part of `w`
/// orthogonal to `d`, `d × (w × d) / |d|²`, whose products are of the size of
/// `|p| |d|`; elsewhere the sum is as good and cheaper (a uniform branch skips
/// the products when no lane needs them; each lane's choice is its own).
#[inline(always)]
fn edge_point(w: Vec3X8, d: Vec3X8, t: f32x8, dd: f32x8, active: MaskX8) -> Vec3X8 {
    let p = d.mul_add(t, w);
    let cancels = active
        & w.length_squared()
            .gt(f32x8::splat(EDGE_CANCELLATION_X8) * p.length_squared());
    if cancels.none() {
        return p;
    }
    let orthogonal = d.cross(w.cross(d)) * (f32x8::ONE / dd);
    cancels.select(orthogonal, p)
}

/// The vertex pairs of the three triangles through `w`, with the slot of the vertex
/// opposite each (the fourth vertex of the tetrahedron).
const FACES: [(usize, usize, usize); 3] = [(0, 1, 2), (0, 2, 1), (1, 2, 0)];

/// The normal `d_i × d_j` of the triangle `w, w + d_i, w + d_j`, computed at its
/// largest angle where the angle at `w` is small, and its squared length.
///
/// The three expressions are equal in exact arithmetic, but the direction error of
/// a rounded cross product is about `f32::EPSILON / sin θ`, θ the angle between its
/// factors, and the plane's distance from the origin inherits it times the
/// vertices' distance from the origin. Near convergence on curved cores, GJK
/// produces slivers with one short edge; the angle opposite it is tiny and, when it
/// sits at `w`, the naive normal stalls the loop several hundred ulps early. The
/// largest angle, opposite the longest edge, is at least 60°. Most triangles
/// are not slivers at `w` ([`SLIVER_TRIANGLE_X8`]): when no lane of `active` has
/// one, the other two products are skipped (a uniform branch; each lane's
/// choice depends on its own triangle only).
#[inline(always)]
fn triangle_normal(
    di: Vec3X8,
    dj: Vec3X8,
    ddi: f32x8,
    ddj: f32x8,
    active: MaskX8,
) -> (Vec3X8, f32x8) {
    let at_w = di.cross(dj);
    let nn_w = at_w.length_squared();
    let sliver = nn_w.lt(f32x8::splat(SLIVER_TRIANGLE_X8) * ddi * ddj);
    if (sliver & active).none() {
        return (at_w, nn_w);
    }
    let e = dj - di;
    let ee = e.length_squared();
    // |d_j| longest: angle at p_i, (p_j - p_i) × (w - p_i).
    let at_i = e.cross(-di);
    // |d_i| longest: angle at p_j, (w - p_j) × (p_i - p_j).
    let at_j = (-dj).cross(-e);
    let use_i = sliver & ddj.gt(ee) & ddj.ge(ddi);
    let use_j = sliver & ddi.gt(ee) & ddi.gt(ddj);
    let n = use_i.select(at_i, use_j.select(at_j, at_w));
    (n, n.length_squared())
}

/// The new support point `w` and the edge vectors `d_i = p_i - w` from it to each
/// slot, with their squared lengths: what every candidate feature of both solves
/// is built on.
struct Edges {
    w: Vec3X8,
    d: [Vec3X8; 3],
    dd: [f32x8; 3],
}

/// Up to three simplex vertices kept between iterations, per lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SimplexX8 {
    /// Vertices of the Minkowski difference of the cores, `a - b`.
    pub w: [Vec3X8; 3],
    /// The core points of A that produced them (A's frame); distance queries only.
    /// B's are `a - w`: one array less to carry and select every trip (B's
    /// witness picks up the rounding of one subtraction, an ulp of `|w|`).
    pub a: [Vec3X8; 3],
    /// Which slots hold a vertex, per lane.
    pub exists: [MaskX8; 3],
    /// Barycentric weights of the current closest point (0 for empty slots).
    pub weights: [f32x8; 3],
}

/// The nearest feature found by [`SimplexX8::solve`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Solved {
    /// The closest point of the simplex (with `w`) to the origin.
    pub v: Vec3X8,
    /// `|v|²`.
    pub vv: f32x8,
    /// Weights of the three slots.
    pub weights: [f32x8; 3],
    /// Weight of `w`.
    pub weight_w: f32x8,
    /// Lanes whose tetrahedron encloses the origin (then `v` is zero and all four
    /// weights are the origin's barycentric coordinates, up to a common factor
    /// from their rounding).
    pub enclosed: MaskX8,
}

/// The nearest feature found by [`SimplexX8::solve_boolean`]: which old vertices it
/// keeps instead of their weights, which the boolean query never reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolvedBoolean {
    /// The closest point of the simplex (with `w`) to the origin.
    pub v: Vec3X8,
    /// `|v|²`.
    pub vv: f32x8,
    /// Which slots the nearest feature keeps.
    pub keep: [MaskX8; 3],
    /// Lanes whose tetrahedron encloses the origin (then `v` is zero).
    pub enclosed: MaskX8,
}

impl Solved {
    /// Which slots the chosen feature keeps: those with a positive weight.
    #[inline(always)]
    pub fn keep(&self) -> [MaskX8; 3] {
        std::array::from_fn(|i| self.weights[i].gt(f32x8::ZERO))
    }
}

impl SimplexX8 {
    /// The one-vertex simplex `{w}` in slot 0 in every lane.
    #[inline(always)]
    pub fn single(w: Vec3X8, a: Vec3X8) -> Self {
        SimplexX8 {
            w: [w; 3],
            a: [a; 3],
            exists: [MaskX8::ALL, MaskX8::NONE, MaskX8::NONE],
            weights: [f32x8::ONE, f32x8::ZERO, f32x8::ZERO],
        }
    }

    /// The new point `w` with the edge vectors to the slots and their squared
    /// lengths ([`Edges`]).
    #[inline(always)]
    fn edges_from(&self, w: Vec3X8) -> Edges {
        let d: [Vec3X8; 3] = std::array::from_fn(|i| self.w[i] - w);
        let dd = d.map(|di| di.length_squared());
        Edges { w, d, dd }
    }

    /// Lanes where the triangle `w p_i p_j` (squared normal `nn`) holds the nearest
    /// point found so far: both slots exist, the triangle is not flat, the origin
    /// projects strictly inside it (its three barycentric weights, or their
    /// numerators, are positive) and the projection, at squared distance `pp`, is
    /// nearer than `best_vv`.
    #[inline(always)]
    fn face_taken(
        &self,
        (i, j): (usize, usize),
        nn: f32x8,
        dd: &[f32x8; 3],
        weights: [f32x8; 3],
        pp: f32x8,
        best_vv: f32x8,
    ) -> MaskX8 {
        let zero = f32x8::ZERO;
        let not_flat = nn.gt(f32x8::splat(FLAT_TRIANGLE_X8) * dd[i] * dd[j]);
        self.exists[i]
            & self.exists[j]
            & not_flat
            & weights[0].gt(zero)
            & weights[1].gt(zero)
            & weights[2].gt(zero)
            & pp.lt(best_vv)
    }

    /// The edge `w p_i` as a candidate of [`solve`](Self::solve): the origin
    /// projects at `w + t d_i`, `t = -w·d_i / |d_i|²`; the edge's interior is its
    /// Voronoi feature when `0 < t < 1`. A zero-length edge gives a NaN `t`, which
    /// no comparison accepts.
    #[inline(always)]
    fn edge_candidate(&self, i: usize, edges: &Edges, active: MaskX8, best: &mut Solved) {
        let (w, d, dd) = (edges.w, &edges.d, &edges.dd);
        let (zero, one) = (f32x8::ZERO, f32x8::ONE);
        if (self.exists[i] & active).none() {
            return;
        }
        let t = -w.dot(d[i]) / dd[i];
        let p = edge_point(w, d[i], t, dd[i], active & self.exists[i]);
        let pp = p.length_squared();
        let take = self.exists[i] & t.gt(zero) & t.lt(one) & pp.lt(best.vv);
        best.v = take.select(p, best.v);
        best.vv = take.select(pp, best.vv);
        let mut weights = [zero; 3];
        weights[i] = t;
        for (k, wk) in weights.iter().enumerate() {
            best.weights[k] = take.select(*wk, best.weights[k]);
        }
        best.weight_w = take.select(one - t, best.weight_w);
    }

    /// The triangle `w p_i p_j` as a candidate of [`solve`](Self::solve), normal
    /// `n = d_i × d_j`. The origin's projection on the plane is `n (n·w)/|n|²`
    /// (more accurate than summing weighted vertices when the vertices are far
    /// from the origin compared to the gap: bepu does the same). Its weights:
    /// `λ_i = n·(d_j × w)/|n|²`, `λ_j = n·(w × d_i)/|n|²`, `λ_w = 1 - λ_i - λ_j`
    /// (the origin may stand in for its projection because they differ by a
    /// multiple of `n`, which the triple products ignore). Both triple products
    /// share one cross product: `n·(d_j × w) = d_j·(w × n)` and
    /// `n·(w × d_i) = -d_i·(w × n)`. `tet[k]` receives the origin's barycentric
    /// weight of the vertex `p_k` opposite the face in the tetrahedron: (signed
    /// distance of the origin) / (that of the vertex).
    #[inline(always)]
    fn face_candidate(
        &self,
        (i, j, k): (usize, usize, usize),
        edges: &Edges,
        active: MaskX8,
        best: &mut Solved,
        tet: &mut [f32x8; 3],
    ) {
        let (w, d, dd) = (edges.w, &edges.d, &edges.dd);
        let one = f32x8::ONE;
        if (self.exists[i] & self.exists[j] & active).none() {
            return;
        }
        let (n, nn) = triangle_normal(d[i], d[j], dd[i], dd[j], active);
        let nw = n.dot(w);
        let inv = one / nn;
        let wn = w.cross(n);
        let li = d[j].dot(wn) * inv;
        let lj = -d[i].dot(wn) * inv;
        let lw = one - li - lj;
        let p = n * (nw * inv);
        let pp = p.length_squared();
        let take = self.face_taken((i, j), nn, dd, [li, lj, lw], pp, best.vv);
        best.v = take.select(p, best.v);
        best.vv = take.select(pp, best.vv);
        let mut weights = [f32x8::ZERO; 3];
        weights[i] = li;
        weights[j] = lj;
        for (m, wm) in weights.iter().enumerate() {
            best.weights[m] = take.select(*wm, best.weights[m]);
        }
        best.weight_w = take.select(lw, best.weight_w);
        tet[k] = -nw / n.dot(d[k]);
    }

    /// The edge `w p_i` as a candidate of [`solve_boolean`](Self::solve_boolean):
    /// the projection's parameter is `t = -w·d_i / |d_i|²`, inside the edge when
    /// `0 < -w·d_i < |d_i|²`.
    #[inline(always)]
    fn edge_candidate_boolean(
        &self,
        i: usize,
        edges: &Edges,
        active: MaskX8,
        best: &mut SolvedBoolean,
    ) {
        let (w, d, dd) = (edges.w, &edges.d, &edges.dd);
        let zero = f32x8::ZERO;
        if (self.exists[i] & active).none() {
            return;
        }
        let num = -w.dot(d[i]);
        let p = edge_point(w, d[i], num / dd[i], dd[i], active & self.exists[i]);
        let pp = p.length_squared();
        let take = self.exists[i] & num.gt(zero) & num.lt(dd[i]) & pp.lt(best.vv);
        best.v = take.select(p, best.v);
        best.vv = take.select(pp, best.vv);
        for (k, keep) in best.keep.iter_mut().enumerate() {
            *keep = if k == i {
                *keep | take
            } else {
                keep.and_not(take)
            };
        }
    }

    /// The triangle `w p_i p_j` as a candidate of
    /// [`solve_boolean`](Self::solve_boolean): the weights' numerators
    /// `n·(d_j × w) = d_j·(w × n)`, `n·(w × d_i) = -d_i·(w × n)` and `|n|²` minus
    /// both must be positive. `opposite_side[k]` receives whether the origin's
    /// barycentric weight of the vertex `p_k` opposite the face is positive: the
    /// origin and that vertex lie on the same side of the face's plane,
    /// `(n·w)(n·d_k) < 0`.
    #[inline(always)]
    fn face_candidate_boolean(
        &self,
        (i, j, k): (usize, usize, usize),
        edges: &Edges,
        active: MaskX8,
        best: &mut SolvedBoolean,
        opposite_side: &mut [MaskX8; 3],
    ) {
        let (w, d, dd) = (edges.w, &edges.d, &edges.dd);
        if (self.exists[i] & self.exists[j] & active).none() {
            return;
        }
        let n = d[i].cross(d[j]);
        let nn = n.length_squared();
        let nw = n.dot(w);
        let wn = w.cross(n);
        let li = d[j].dot(wn);
        let lj = -d[i].dot(wn);
        let lw = nn - li - lj;
        let scale = nw / nn;
        let p = n * scale;
        let pp = nw * scale;
        let take = self.face_taken((i, j), nn, dd, [li, lj, lw], pp, best.vv);
        best.v = take.select(p, best.v);
        best.vv = take.select(pp, best.vv);
        best.keep[i] |= take;
        best.keep[j] |= take;
        best.keep[k] = best.keep[k].and_not(take);
        opposite_side[k] = (nw * n.dot(d[k])).lt(f32x8::ZERO);
    }

    /// Lanes where `w` is already a vertex (GJK can make no more progress).
    #[inline(always)]
    pub fn contains(&self, w: Vec3X8) -> MaskX8 {
        (self.exists[0] & self.w[0].same(w))
            | (self.exists[1] & self.w[1].same(w))
            | (self.exists[2] & self.w[2].same(w))
    }

    /// The point of the hull of the simplex and `w` closest to the origin, on a
    /// feature through `w` (see the module docs), for the lanes of `active`.
    ///
    /// Features whose slots exist in no active lane are skipped with a uniform
    /// branch (early iterations have one or two vertices): a skipped feature would
    /// have been rejected by every lane's `exists` mask anyway, so no lane's result
    /// depends on the skip. Triangle normals are computed at the largest angle
    /// (see [`triangle_normal`]): the distance query runs until rounding stalls it.
    #[inline(always)]
    pub fn solve(&self, w: Vec3X8, active: MaskX8) -> Solved {
        let zero = f32x8::ZERO;
        let one = f32x8::ONE;
        // Start from the vertex w itself, which is always valid.
        let mut best = Solved {
            v: w,
            vv: w.length_squared(),
            weights: [zero; 3],
            weight_w: one,
            enclosed: MaskX8::NONE,
        };
        let edges = self.edges_from(w);
        // The features are unrolled by hand (a helper per feature, called with
        // constant slots): written as loops, they were compiled as loops, with the
        // slots' vectors indexed in memory at run time and bounds-checked.
        self.edge_candidate(0, &edges, active, &mut best);
        self.edge_candidate(1, &edges, active, &mut best);
        self.edge_candidate(2, &edges, active, &mut best);
        let mut tet = [zero; 3];
        self.face_candidate(FACES[0], &edges, active, &mut best, &mut tet);
        self.face_candidate(FACES[1], &edges, active, &mut best, &mut tet);
        self.face_candidate(FACES[2], &edges, active, &mut best, &mut tet);

        // Tetrahedron: the origin is inside when all four barycentric weights are
        // positive. The weight of w comes from the face opposite it, p0 p1 p2.
        let full = self.exists[0] & self.exists[1] & self.exists[2];
        if (full & active).none() {
            return best;
        }
        let n_old = (self.w[1] - self.w[0]).cross(self.w[2] - self.w[0]);
        let height = n_old.dot(w - self.w[0]);
        let tet_w = -n_old.dot(self.w[0]) / height;
        // Rounding leaves the four weights near a sum of one; weights far from
        // it (a tetrahedron whose volumes are noise) enclose nothing.
        let sum = tet[0] + tet[1] + tet[2] + tet_w;
        let inside = full
            & tet[0].gt(zero)
            & tet[1].gt(zero)
            & tet[2].gt(zero)
            & tet_w.gt(zero)
            & sum.lt(f32x8::splat(1.5));
        // Most trips of a separated pair end here, the origin outside every
        // lane's tetrahedron: the flatness test, a dozen products, only confirms
        // what the weights' signs claim (a uniform branch; a lane the signs
        // reject encloses nothing either way).
        if (inside & active).none() {
            return best;
        }
        let enclosed = inside & tetrahedron_not_flat(n_old, &self.w, w, height);
        best.v = enclosed.select(Vec3X8::ZERO, best.v);
        best.vv = enclosed.select(zero, best.vv);
        // Four separate divisions: the weights need not sum to one (the distance
        // query normalizes them once, where it forms the witnesses).
        for (k, t) in tet.iter().enumerate() {
            best.weights[k] = enclosed.select(*t, best.weights[k]);
        }
        best.weight_w = enclosed.select(tet_w, best.weight_w);
        best.enclosed = enclosed;
        best
    }

    /// [`solve`](Self::solve) for the boolean query: the same candidates and the
    /// same choice, without the barycentric weights.
    ///
    /// A boolean lane only needs the closest point and which vertices its feature
    /// keeps, so every weight test is done on numerators (signs and comparisons
    /// with the denominator) and the only divisions left are the one scale per
    /// edge and per triangle that places the projection: six instead of ten, and
    /// half the selects. Triangle normals are plain cross products: the boolean
    /// test stops long before their rounding matters.
    #[inline(always)]
    pub fn solve_boolean(&self, w: Vec3X8, active: MaskX8) -> SolvedBoolean {
        let zero = f32x8::ZERO;
        let mut best = SolvedBoolean {
            v: w,
            vv: w.length_squared(),
            keep: [MaskX8::NONE; 3],
            enclosed: MaskX8::NONE,
        };
        let edges = self.edges_from(w);
        // Unrolled by hand, as in `solve`.
        self.edge_candidate_boolean(0, &edges, active, &mut best);
        self.edge_candidate_boolean(1, &edges, active, &mut best);
        self.edge_candidate_boolean(2, &edges, active, &mut best);
        let mut opposite_side = [MaskX8::NONE; 3];
        let sides = &mut opposite_side;
        self.face_candidate_boolean(FACES[0], &edges, active, &mut best, sides);
        self.face_candidate_boolean(FACES[1], &edges, active, &mut best, sides);
        self.face_candidate_boolean(FACES[2], &edges, active, &mut best, sides);

        let full = self.exists[0] & self.exists[1] & self.exists[2];
        if (full & active).none() {
            return best;
        }
        let n_old = (self.w[1] - self.w[0]).cross(self.w[2] - self.w[0]);
        let height = n_old.dot(w - self.w[0]);
        let w_side = (n_old.dot(self.w[0]) * height).lt(zero);
        let inside = full & opposite_side[0] & opposite_side[1] & opposite_side[2] & w_side;
        // As in `solve`: the flatness test only where some lane's signs claim
        // the origin.
        if (inside & active).none() {
            return best;
        }
        let enclosed = inside & tetrahedron_not_flat(n_old, &self.w, w, height);
        best.v = enclosed.select(Vec3X8::ZERO, best.v);
        best.vv = enclosed.select(zero, best.vv);
        best.enclosed = enclosed;
        best
    }

    /// In lanes of `mask`, replaces the simplex by the feature the solve chose
    /// (which contains `w` and the old vertices of `keep`, at most two): other slots
    /// are emptied and `w` moves into the lowest empty slot. `WITNESS` also moves
    /// the core points and the weights `solved` (distance queries only).
    #[inline(always)]
    pub fn update<const WITNESS: bool>(
        &mut self,
        mask: MaskX8,
        keep: [MaskX8; 3],
        solved: Option<&Solved>,
        w: Vec3X8,
        a: Vec3X8,
    ) {
        let into = [!keep[0], keep[0] & !keep[1], keep[0] & keep[1] & !keep[2]];
        for k in 0..3 {
            let put = mask & into[k];
            self.w[k] = put.select(w, self.w[k]);
            if WITNESS {
                self.a[k] = put.select(a, self.a[k]);
            }
            if let Some(solved) = solved {
                let weight = into[k].select(solved.weight_w, solved.weights[k]);
                self.weights[k] = mask.select(weight, self.weights[k]);
            }
            self.exists[k] = mask.select(keep[k] | into[k], self.exists[k]);
        }
    }

    /// The witness points `Σ λ_i a_i` and `Σ λ_i b_i` (`b_i = a_i - w_i`) of the
    /// current weights.
    #[inline(always)]
    pub fn witnesses(&self) -> (Vec3X8, Vec3X8) {
        let mut pa = Vec3X8::ZERO;
        let mut pb = Vec3X8::ZERO;
        for k in 0..3 {
            // Empty slots have weight 0 but may hold stale, even non-finite, data:
            // select them away rather than multiply by zero.
            let l = self.exists[k].select(self.weights[k], f32x8::ZERO);
            let a = self.exists[k].select(self.a[k], Vec3X8::ZERO);
            let b = self.exists[k].select(self.a[k] - self.w[k], Vec3X8::ZERO);
            pa = a.mul_add(l, pa);
            pb = b.mul_add(l, pb);
        }
        (pa, pb)
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    fn simplex(points: &[Vec3]) -> SimplexX8 {
        let p0 = Vec3X8::splat(points[0]);
        let mut s = SimplexX8::single(p0, p0);
        for (k, p) in points.iter().enumerate().skip(1) {
            s.w[k] = Vec3X8::splat(*p);
            s.a[k] = s.w[k];
            s.exists[k] = MaskX8::ALL;
        }
        s
    }

    #[test]
    fn segment_triangle_and_tetrahedron() {
        // Segment: closest point (1, 0, 0) in the edge interior.
        let s = simplex(&[Vec3::new(1.0, 1.0, 0.0)]);
        let r = s.solve(Vec3X8::splat(Vec3::new(1.0, -1.0, 0.0)), MaskX8::ALL);
        assert!((r.v.lane(3) - Vec3::X).length() < 1e-6);
        assert!((r.weights[0].to_array()[0] - 0.5).abs() < 1e-6);

        // Triangle face region.
        let s = simplex(&[Vec3::new(-1.0, -1.0, 2.0), Vec3::new(3.0, -1.0, 2.0)]);
        let r = s.solve(Vec3X8::splat(Vec3::new(-1.0, 3.0, 2.0)), MaskX8::ALL);
        assert!((r.v.lane(0) - Vec3::new(0.0, 0.0, 2.0)).length() < 1e-6);
        let sum = r.weights[0] + r.weights[1] + r.weight_w;
        assert!((sum.to_array()[5] - 1.0).abs() < 1e-6);

        // Tetrahedron around the origin.
        let pts = [
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(-1.0, -1.0, -1.0),
        ];
        let s = simplex(&pts);
        let r = s.solve(Vec3X8::splat(Vec3::new(0.0, 0.0, 1.0)), MaskX8::ALL);
        assert!(r.enclosed.all());
        let mut centre = Vec3::new(0.0, 0.0, 1.0) * r.weight_w.to_array()[0];
        for (k, p) in pts.iter().enumerate() {
            centre += *p * r.weights[k].to_array()[0];
        }
        assert!(centre.length() < 1e-6, "{centre}");

        // Shifted away: nearest is the face z = 2 (p0 p1 p2 with w above).
        let up = Vec3::new(0.0, 0.0, 3.0);
        let s = simplex(&pts.map(|p| p + up));
        let r = s.solve(Vec3X8::splat(Vec3::new(0.0, 0.0, 1.0) + up), MaskX8::ALL);
        assert!(r.enclosed.none());
        // The old face is not a candidate (it lacks w); the nearest feature through
        // w is then at distance >= 2.
        assert!(r.vv.to_array()[0] >= 4.0 - 1e-5);
    }

    /// The lean boolean solve makes the weighted solve's choice: same kept slots,
    /// same enclosure verdict and the same closest point up to rounding, on random
    /// simplices of every size (seeded; the failing case is printed).
    #[test]
    fn boolean_solve_matches_weighted_solve() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32 * 4.0 - 2.0
        };
        let (mut checked, mut ties) = (0, 0);
        for case in 0..20_000 {
            let size = 1 + case % 4;
            let pts: Vec<Vec3> = (0..size)
                .map(|_| Vec3::new(next(), next(), next()))
                .collect();
            let (old, w) = (&pts[..size - 1], Vec3X8::splat(pts[size - 1]));
            let s = if old.is_empty() {
                SimplexX8 {
                    exists: [MaskX8::NONE; 3],
                    ..simplex(&[Vec3::ZERO])
                }
            } else {
                simplex(old)
            };
            let weighted = s.solve(w, MaskX8::ALL);
            let lean = s.solve_boolean(w, MaskX8::ALL);
            let context = format!("case {case}: points {pts:?}");
            assert_eq!(
                weighted.enclosed.lane(0),
                lean.enclosed.lane(0),
                "{context}"
            );
            if weighted.enclosed.lane(0) {
                continue;
            }
            let (vv_w, vv_l) = (weighted.vv.to_array()[0], lean.vv.to_array()[0]);
            assert!(
                (vv_w - vv_l).abs() <= 1e-5 * (1.0 + vv_w),
                "|v|² {vv_w} vs {vv_l}, {context}"
            );
            let keep = weighted.keep();
            if (0..3).all(|k| keep[k].lane(0) == lean.keep[k].lane(0)) {
                let (a, b) = (weighted.v.lane(0), lean.v.lane(0));
                assert!(
                    (a - b).length() <= 1e-4 * (1.0 + a.length()),
                    "{a} vs {b}, {context}"
                );
            } else {
                // Two features at the same distance within rounding (a triangle whose
                // projection lies on its edge): either is a correct choice.
                ties += 1;
            }
            checked += 1;
        }
        assert!(ties * 100 < checked, "{ties} ties in {checked} cases");
        assert!(checked > 15_000, "only {checked} cases compared");
    }
}
