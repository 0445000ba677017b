//! Clipping of one support feature against another, eight pairs at once: the twin
//! of `gjk_core`'s `query/clip.rs`, rule for rule (the tolerance band of the side
//! planes, which end of an edge stands for a crossing, the ids of every point),
//! and rounded as it is (`math::glam_rounding_x8`), so that each lane's points
//! are the reference's bit for bit.
//!
//! The reference polygon's side planes contain the contact normal `n`; the
//! incident feature is clipped to them and each kept point carried along `n`
//! onto the reference face's plane, which gives the pair of points on both
//! surfaces.
//!
//! The scalar Sutherland-Hodgman pass appends points to a list, a different
//! number per lane. Here a polygon is [`CLIP_SLOTS`] slots and a count per lane:
//! each plane computes, per slot, whether its vertex stays and whether a crossing
//! follows it, the position of each in the lane's new list (a running sum), and
//! moves them there by selects. A lane whose list would outgrow the slots (never
//! for a convex quadrilateral against another, whose clip has at most eight
//! vertices; possible only when rounding makes a list non-convex) is marked, and
//! the manifold leaves it to the scalar reference.

use gjk_core::tolerance::{MANIFOLD_BAND_MITRE, MANIFOLD_EDGE_MIN_ULPS, MANIFOLD_SLIVER_CORNER};
use wide::f32x8;

use crate::feature_x8::{FEATURE_X8_VERTICES, FeatureX8};
use crate::math::{CmpX8, MaskX8, Vec3X8};

/// Slots of a clipped polygon: a quadrilateral clipped by four planes has at most
/// eight vertices.
pub(crate) const CLIP_SLOTS: usize = 8;

/// Candidate points of a manifold: the clipped points, then (in the slot after
/// them) the contact's own point, which joins when the clipped ones fall short of
/// its depth.
pub(crate) const CANDIDATES: usize = CLIP_SLOTS + 1;

/// Candidate points of eight manifolds, in the order the scalar reference lists
/// them (which decides ties between points with the same ids), as core points in
/// A's frame with the ranks of their features' ids.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CandidatesX8 {
    /// On A's core.
    pub a: [Vec3X8; CANDIDATES],
    /// On B's core.
    pub b: [Vec3X8; CANDIDATES],
    /// The feature of A each point lies on.
    pub id_a: [f32x8; CANDIDATES],
    /// The feature of B.
    pub id_b: [f32x8; CANDIDATES],
    /// Lanes where each slot holds a point.
    pub valid: [MaskX8; CANDIDATES],
    /// Lanes whose clipped polygon outgrew [`CLIP_SLOTS`].
    pub overflow: MaskX8,
}

impl Default for CandidatesX8 {
    fn default() -> Self {
        CandidatesX8 {
            a: [Vec3X8::ZERO; CANDIDATES],
            b: [Vec3X8::ZERO; CANDIDATES],
            id_a: [f32x8::ZERO; CANDIDATES],
            id_b: [f32x8::ZERO; CANDIDATES],
            valid: [MaskX8::NONE; CANDIDATES],
            overflow: MaskX8::NONE,
        }
    }
}

impl CandidatesX8 {
    /// Sets slot `j` to the point `(a, b)` with ids `(id_a, id_b)` in the lanes of
    /// `mask`.
    #[inline(always)]
    fn put(
        &mut self,
        j: usize,
        mask: MaskX8,
        (a, b): (Vec3X8, Vec3X8),
        (id_a, id_b): (f32x8, f32x8),
    ) {
        self.a[j] = mask.select(a, self.a[j]);
        self.b[j] = mask.select(b, self.b[j]);
        self.id_a[j] = mask.select(id_a, self.id_a[j]);
        self.id_b[j] = mask.select(id_b, self.id_b[j]);
        self.valid[j] |= mask;
    }
}

/// The clipping problem of a lane: which feature is the reference, seen from
/// where, within which band.
#[derive(Clone, Copy)]
pub(crate) struct ClipFrame {
    /// The contact normal, A's frame.
    pub n: Vec3X8,
    /// Lanes whose reference feature is A's (else B's).
    pub reference_is_a: MaskX8,
    /// The manifold tolerance (before the band's obliquity).
    pub tol: f32x8,
}

impl ClipFrame {
    /// The direction the reference polygon is seen from: `n` for A's, `-n` for
    /// B's (on the side of its outward normal).
    #[inline(always)]
    fn view(&self) -> Vec3X8 {
        self.reference_is_a.select(self.n, -self.n)
    }

    /// The width of the side planes' band: the tolerance measured on the
    /// reference face, seen obliquely along the normal (`clip.rs`'s `band`).
    #[inline(always)]
    fn band(&self, reference: &FeatureX8, view: Vec3X8) -> f32x8 {
        self.tol * reference.normal.dot_glam(view).abs()
    }

    /// The pair of core points of incident point `p` carried along `n` onto the
    /// reference polygon's plane, ordered (A, B), and its ids so ordered.
    #[inline(always)]
    fn core_point(
        &self,
        p: Vec3X8,
        (incident_id, reference_id): (f32x8, f32x8),
        reference: &FeatureX8,
    ) -> ((Vec3X8, Vec3X8), (f32x8, f32x8)) {
        let r = reference.normal;
        let t = (reference.vertices[0] - p).dot_glam(r) / self.n.dot_glam(r);
        let q = p + self.n * t;
        let on_a = self.reference_is_a;
        (
            (on_a.select(q, p), on_a.select(p, q)),
            (
                on_a.select(reference_id, incident_id),
                on_a.select(incident_id, reference_id),
            ),
        )
    }
}

/// The side planes of the reference polygon, and the factor its band is
/// narrowed by at its sharpest corner (`clip.rs`'s `side_planes`: the band's
/// planes meet within `MANIFOLD_BAND_MITRE` bands of every corner; NaN where a
/// corner is closed by rounding alone). Slots past a lane's count hold planes
/// of no edge, which narrow nothing.
#[inline(always)]
fn side_planes(
    reference: &FeatureX8,
    view: Vec3X8,
    rounded: MaskX8,
) -> ([(Vec3X8, Vec3X8); FEATURE_X8_VERTICES], f32x8) {
    let sides: [(Vec3X8, Vec3X8); FEATURE_X8_VERTICES] =
        std::array::from_fn(|k| side_plane(reference, k, view, rounded));
    let normals = sides.map(|(normal, _)| normal);
    let mut narrowing = f32x8::ONE;
    for k in 0..FEATURE_X8_VERTICES {
        let corner = normals[k] + after(&normals, k, reference.len);
        let length = corner.length_glam();
        let f = f32x8::splat(0.5 * MANIFOLD_BAND_MITRE) * length;
        let corner_k = f32x8::splat(k as f32).lt(reference.len);
        let sliver = corner_k & length.le(f32x8::splat(MANIFOLD_SLIVER_CORNER));
        let sharper = corner_k & f.lt(narrowing);
        narrowing = sliver.select(f32x8::splat(f32::NAN), sharper.select(f, narrowing));
    }
    (sides, narrowing)
}

/// Slot `k + 1` of a reference polygon's slots in each lane, or slot 0 where
/// `k` is the lane's last (`len` slots): the next vertex, or the next edge's
/// value, around the polygon (`(k + 1) % len`).
#[inline(always)]
fn after(slots: &[Vec3X8; FEATURE_X8_VERTICES], k: usize, len: f32x8) -> Vec3X8 {
    if k + 1 < FEATURE_X8_VERTICES {
        let wraps = f32x8::splat((k + 1) as f32).ge(len);
        wraps.select(slots[0], slots[k + 1])
    } else {
        slots[0]
    }
}

/// The side plane of reference edge `k` (`clip.rs`'s `side_plane`): outward unit
/// normal and a point on it, in the lanes where the reference has an edge `k`.
#[inline(always)]
fn side_plane(reference: &FeatureX8, k: usize, view: Vec3X8, rounded: MaskX8) -> (Vec3X8, Vec3X8) {
    let p = reference.vertices[k];
    let q = after(&reference.vertices, k, reference.len);
    // No normal, or an edge of B's that rounding leaves unresolved in A's
    // frame: NaN, every point outside (see `clip.rs`).
    let rounding = f32x8::splat(MANIFOLD_EDGE_MIN_ULPS * f32::EPSILON)
        * p.abs().max_element().max(q.abs().max_element());
    let resolved = !rounded | (q - p).length_glam().gt(rounding);
    let nan = Vec3X8::splat(glam::Vec3::NAN);
    let normal = (q - p).cross_glam(view).normalize_or_glam(nan);
    (resolved.select(normal, nan), p)
}

/// What a clip vertex's code packs, as small integers in one `f32` (exact): the
/// incident feature it lies on (vertex `i`: `i`, edge `i`: 16 + `i`, the face:
/// 32), the reference feature (face: 0, edge `k`: 1 + `k`, vertex `k`: 17 + `k`),
/// and what the polygon's edge that leaves it runs along (incident edge `i`: `i`,
/// reference side plane `k`: 16 + `k`), as `incident + 64 reference + 4096
/// leaving`.
mod code {
    pub(super) const INCIDENT_EDGE: f32 = 16.0;
    pub(super) const INCIDENT_FACE: f32 = 32.0;
    pub(super) const REFERENCE_EDGE: f32 = 1.0;
    pub(super) const REFERENCE_VERTEX: f32 = 17.0;
    pub(super) const ALONG_REFERENCE: f32 = 16.0;
    pub(super) const REFERENCE_UNIT: f32 = 64.0;
    pub(super) const LEAVING_UNIT: f32 = 4096.0;
}

/// A polygon being clipped: slot `i` holds vertex `i` in the lanes where `i <
/// len`.
#[derive(Clone, Copy)]
struct PolygonX8 {
    p: [Vec3X8; CLIP_SLOTS],
    code: [f32x8; CLIP_SLOTS],
    len: f32x8,
    /// Slots that may hold a vertex in some lane.
    slots: usize,
    /// Lanes whose list outgrew the slots at some plane.
    overflow: MaskX8,
}

/// The incident polygon clipped to the reference polygon's side planes
/// (`clip.rs`'s `clip_polygon`) in the lanes of `lanes`, its points written to
/// slots `0..CLIP_SLOTS` of `out`; returns how many slots some lane's points
/// take.
#[inline(always)]
pub(crate) fn clip_polygon_x8(
    incident: &FeatureX8,
    reference: &FeatureX8,
    frame: &ClipFrame,
    lanes: MaskX8,
    out: &mut CandidatesX8,
) -> usize {
    let view = frame.view();
    let (sides, narrowing) = side_planes(reference, view, !frame.reference_is_a);
    let tol = frame.band(reference, view) * narrowing;
    let n_in = incident.vertices.len();
    let mut poly = PolygonX8 {
        p: [Vec3X8::ZERO; CLIP_SLOTS],
        code: [f32x8::ZERO; CLIP_SLOTS],
        len: lanes.select(incident.len, f32x8::ZERO),
        slots: n_in,
        overflow: MaskX8::NONE,
    };
    for i in 0..n_in {
        poly.p[i] = incident.vertices[i];
        let fi = f32x8::splat(i as f32);
        poly.code[i] = fi + fi * f32x8::splat(code::LEAVING_UNIT);
    }
    // Each plane clips one buffer into the other; a plane that cuts nothing
    // leaves the polygon where it is.
    let mut spare = poly;
    for (k, &side) in sides.iter().enumerate() {
        let plane = lanes & f32x8::splat(k as f32).lt(reference.len) & poly.len.gt(f32x8::ZERO);
        if plane.none() {
            continue;
        }
        if clip_by_plane(&poly, &mut spare, side, tol, (k, reference.len), plane) {
            std::mem::swap(&mut poly, &mut spare);
        }
    }
    out.overflow |= lanes & poly.overflow;
    for i in 0..poly.slots {
        let valid = lanes.and_not(poly.overflow) & f32x8::splat(i as f32).lt(poly.len);
        if valid.none() {
            continue;
        }
        let ids = decode(poly.code[i], incident, reference);
        let (points, ids) = frame.core_point(poly.p[i], ids, reference);
        out.put(i, valid, points, ids);
    }
    poly.slots
}

/// The ranks of the incident and reference features a code names.
#[inline(always)]
fn decode(c: f32x8, incident: &FeatureX8, reference: &FeatureX8) -> (f32x8, f32x8) {
    let unit = f32x8::splat(code::REFERENCE_UNIT);
    let upper = (c * f32x8::splat(1.0 / code::REFERENCE_UNIT)).floor();
    let inc = c - upper * unit;
    let refc = upper - (upper * f32x8::splat(1.0 / code::REFERENCE_UNIT)).floor() * unit;
    let mut inc_id = incident.id;
    let mut ref_id = reference.id;
    for i in 0..incident.vertices.len() {
        let fi = f32x8::splat(i as f32);
        inc_id = inc.same(fi).select(incident.vertex_ids[i], inc_id);
        inc_id = inc
            .same(fi + f32x8::splat(code::INCIDENT_EDGE))
            .select(incident.edge_ids[i], inc_id);
    }
    for k in 0..reference.vertices.len() {
        let fk = f32x8::splat(k as f32);
        ref_id = refc
            .same(fk + f32x8::splat(code::REFERENCE_EDGE))
            .select(reference.edge_ids[k], ref_id);
        ref_id = refc
            .same(fk + f32x8::splat(code::REFERENCE_VERTEX))
            .select(reference.vertex_ids[k], ref_id);
    }
    (inc_id, ref_id)
}

/// One step of Sutherland-Hodgman (`clip.rs`'s loop body for plane `k` of a
/// reference with `sides` edges), in the lanes of `plane`: writes the clipped
/// polygon to `next` (other lanes keep theirs) and returns `true`, or returns
/// `false` when the plane cuts nothing, `poly` then being the clipped polygon.
/// `next` is written only where the new polygon lies: what its slots held
/// past each lane's count stays there, never read.
#[inline(always)]
fn clip_by_plane(
    poly: &PolygonX8,
    next: &mut PolygonX8,
    (s, origin): (Vec3X8, Vec3X8),
    tol: f32x8,
    (k, sides): (usize, f32x8),
    plane: MaskX8,
) -> bool {
    let zero = f32x8::ZERO;
    let one = f32x8::ONE;
    let m = poly.slots;
    let d: [f32x8; CLIP_SLOTS] = std::array::from_fn(|i| {
        if i < m {
            s.dot_glam(poly.p[i] - origin)
        } else {
            zero
        }
    });
    // A plane with every vertex inside its band, in every lane it cuts, keeps
    // the polygon as it is (no vertex dropped, no crossing, no code changed):
    // the usual case of a small face resting on a larger one.
    let mut outside = MaskX8::NONE;
    for (i, &di) in d.iter().enumerate().take(m) {
        outside |= f32x8::splat(i as f32).lt(poly.len).and_not(di.le(tol));
    }
    if (plane & outside).none() {
        return false;
    }
    let fk = f32x8::splat(k as f32);
    let along_k = f32x8::splat(code::ALONG_REFERENCE) + fk;
    let leaving_unit = f32x8::splat(code::LEAVING_UNIT);
    // The side planes next to plane k, for the ids of a crossing of two side planes.
    let next_k = (fk + one).ge(sides).select(zero, fk + one);

    // Each lane's new list: kept vertex, then crossing, source by source.
    let mut pos = zero;
    for i in 0..m {
        let fi = f32x8::splat(i as f32);
        let valid = fi.lt(poly.len);
        // The next vertex, the first after the last.
        let (pw, dw) = if i + 1 < m {
            let wraps = (fi + one).ge(poly.len);
            (
                wraps.select(poly.p[0], poly.p[i + 1]),
                wraps.select(d[0], d[i + 1]),
            )
        } else {
            (poly.p[0], d[0])
        };
        let (du, pu, cu) = (d[i], poly.p[i], poly.code[i]);
        let inside_u = du.le(tol);
        let inside_w = dw.le(tol);
        let keep = valid & (inside_u | !plane);
        let straddles = plane & valid & (inside_u ^ inside_w);
        // An end within the band stands for the crossing itself.
        let in_band = (inside_u & du.gt(zero)) | (inside_w & dw.gt(zero));
        let cross = straddles.and_not(in_band);
        let leaving = (cu * f32x8::splat(1.0 / code::LEAVING_UNIT)).floor();
        // Leaving through the band, the polygon goes on along the side plane.
        let retag = straddles & in_band & inside_u;
        let kept_code = retag.select(cu + (along_k - leaving) * leaving_unit, cu);

        let cross_p = pu + (pw - pu) * (du / (du - dw));
        let on_incident = leaving.lt(f32x8::splat(code::ALONG_REFERENCE));
        let j = leaving - f32x8::splat(code::ALONG_REFERENCE);
        let next_j = (j + one).ge(sides).select(zero, j + one);
        let vertex = f32x8::splat(code::REFERENCE_VERTEX);
        let edge_k = f32x8::splat(code::REFERENCE_EDGE) + fk;
        // Along an incident edge: that edge and reference edge k. Along side
        // plane j: the reference vertex between j and k when they meet there,
        // else (a rounding case) reference edge k, on the incident face.
        let ref_code = on_incident.select(
            edge_k,
            next_j
                .same(fk)
                .select(vertex + fk, next_k.same(j).select(vertex + j, edge_k)),
        );
        let inc_code = on_incident.select(
            leaving + f32x8::splat(code::INCIDENT_EDGE),
            f32x8::splat(code::INCIDENT_FACE),
        );
        // Leaving the face, the polygon goes on along the side plane; entering,
        // along the rest of u's edge.
        let new_leaving = inside_u.select(along_k, leaving);
        let cross_code =
            inc_code + ref_code * f32x8::splat(code::REFERENCE_UNIT) + new_leaving * leaving_unit;
        // Source i's kept vertex lands at or before 2i, its crossing at or before
        // 2i + 1, and nothing lands past the slots.
        pos = place(
            next,
            pos,
            (2 * i).min(CLIP_SLOTS - 1),
            (keep, pu, kept_code),
            (cross, cross_p, cross_code),
        );
    }
    next.len = pos;
    next.overflow = poly.overflow | pos.gt(f32x8::splat(CLIP_SLOTS as f32));
    next.slots = furthest(pos).min((2 * m).min(CLIP_SLOTS));
    true
}

/// Appends the kept vertex `(p, code)` in the lanes of `keep`, then the
/// crossing in the lanes of `cross`, at each lane's position `pos` (the vertex
/// at most at slot `last`, the crossing one after), and returns the positions
/// after them. Both go in one pass over the slots, which reads and writes each
/// slot once for the two.
#[inline(always)]
fn place(
    next: &mut PolygonX8,
    pos: f32x8,
    last: usize,
    (keep, p, c): (MaskX8, Vec3X8, f32x8),
    (cross, cross_p, cross_c): (MaskX8, Vec3X8, f32x8),
) -> f32x8 {
    if (keep | cross).none() {
        return pos;
    }
    let at_cross = keep.select(pos + f32x8::ONE, pos);
    // Only the slots between the nearest and the furthest position a lane
    // writes to: a plane drops or adds a vertex or two, so the lanes' positions
    // stay close to each other, and the span is a few slots where counting from
    // the first slot would visit up to `last`.
    let writes = keep | cross;
    let first = nearest(writes.select(pos, f32x8::splat(f32::INFINITY)));
    let end = furthest(writes.select(at_cross, f32x8::ZERO))
        .min(last + 1)
        .min(CLIP_SLOTS - 1);
    let mut fj = f32x8::splat(first as f32);
    for j in first..=end {
        let vertex_here = keep & pos.same(fj);
        let cross_here = cross & at_cross.same(fj);
        next.p[j] = cross_here.select(cross_p, vertex_here.select(p, next.p[j]));
        next.code[j] = cross_here.select(cross_c, vertex_here.select(c, next.code[j]));
        fj += f32x8::ONE;
    }
    cross.select(at_cross + f32x8::ONE, at_cross)
}

/// The smallest of eight lane positions (small non-negative integers, exact in
/// `f32`, or infinity for lanes that do not count), as an index.
#[inline(always)]
fn nearest(positions: f32x8) -> usize {
    positions
        .to_array()
        .into_iter()
        .fold(f32::INFINITY, f32::min) as usize
}

/// The largest of eight lane positions (small non-negative integers, exact in
/// `f32`), as an index.
#[inline(always)]
fn furthest(positions: f32x8) -> usize {
    positions.to_array().into_iter().fold(0.0f32, f32::max) as usize
}

/// The incident segment clipped to the reference polygon's side planes
/// (`clip.rs`'s `clip_segment`) in the lanes of `lanes`, its up to two points
/// written to slots 0 and 1 of `out`.
#[inline(always)]
pub(crate) fn clip_segment_x8(
    incident: &FeatureX8,
    reference: &FeatureX8,
    frame: &ClipFrame,
    lanes: MaskX8,
    out: &mut CandidatesX8,
) {
    let view = frame.view();
    let (sides, narrowing) = side_planes(reference, view, !frame.reference_is_a);
    let tol = frame.band(reference, view) * narrowing;
    let (p, q) = (incident.vertices[0], incident.vertices[1]);
    let edge = incident.edge_ids[0];
    let mut t = [f32x8::ZERO, f32x8::ONE];
    let mut ids = [
        (incident.vertex_ids[0], reference.id),
        (incident.vertex_ids[1], reference.id),
    ];
    let mut alive = lanes;
    for (k, &(s, origin)) in sides.iter().enumerate() {
        let plane = alive & f32x8::splat(k as f32).lt(reference.len);
        if plane.none() {
            continue;
        }
        let (dp, dq) = (s.dot_glam(p - origin), s.dot_glam(q - origin));
        let (inside_p, inside_q) = (dp.le(tol), dq.le(tol));
        alive = alive.and_not(plane & !inside_p & !inside_q);
        let differ = plane & (inside_p ^ inside_q);
        // The end outside moves in to the plane, or to the other end when that
        // one lies within the band (it stands for the crossing).
        let outside_is_q = inside_p;
        let d_in = outside_is_q.select(dp, dq);
        let in_band = d_in.gt(f32x8::ZERO);
        let crossing = (dp / (dp - dq), (edge, reference.edge_ids[k]));
        let other_t = outside_is_q.select(t[0], t[1]);
        let other_ids = (
            outside_is_q.select(ids[0].0, ids[1].0),
            outside_is_q.select(ids[0].1, ids[1].1),
        );
        let cut_t = in_band.select(other_t, crossing.0);
        let cut_ids = (
            in_band.select(other_ids.0, crossing.1.0),
            in_band.select(other_ids.1, crossing.1.1),
        );
        let tighter = outside_is_q.select(cut_t.lt(t[1]), cut_t.gt(t[0]));
        let move_q = differ & outside_is_q & tighter;
        let move_p = differ & !outside_is_q & tighter;
        t[1] = move_q.select(cut_t, t[1]);
        ids[1] = (
            move_q.select(cut_ids.0, ids[1].0),
            move_q.select(cut_ids.1, ids[1].1),
        );
        t[0] = move_p.select(cut_t, t[0]);
        ids[0] = (
            move_p.select(cut_ids.0, ids[0].0),
            move_p.select(cut_ids.1, ids[0].1),
        );
        alive = alive.and_not(differ & t[0].gt(t[1]));
    }
    for (end, (&te, &ide)) in t.iter().zip(&ids).enumerate() {
        let x = p + (q - p) * te;
        let (points, ids) = frame.core_point(x, ide, reference);
        out.put(end, alive, points, ids);
    }
}

/// Two segments, A's and B's (`clip.rs`'s `overlap_segments`): where they are
/// parallel seen along `n`, the two ends of their overlap, written to slots 0
/// and 1 of `out` in the lanes of `lanes`.
#[inline(always)]
pub(crate) fn overlap_segments_x8(
    fa: &FeatureX8,
    fb: &FeatureX8,
    (n, tol, parallel_sin): (Vec3X8, f32x8, f32x8),
    lanes: MaskX8,
    out: &mut CandidatesX8,
) {
    let flat = |v: Vec3X8| v - n * n.dot_glam(v);
    let (a0, a1) = (fa.vertices[0], fa.vertices[1]);
    let (b0, b1) = (fb.vertices[0], fb.vertices[1]);
    let (ua, ub) = (flat(a1 - a0), flat(b1 - b0));
    let (la, lb) = (ua.length_glam(), ub.length_glam());
    let crossed = ua.cross_glam(ub).length_glam().gt(parallel_sin * la * lb);
    let mut ok = lanes.and_not(la.le(tol) | lb.le(tol) | crossed);
    // Parameters along A's segment (0 at a0, 1 at a1) of B's ends.
    let param = |x: Vec3X8| flat(x - a0).dot_glam(ua) / (la * la);
    let (t0, t1) = (param(b0), param(b1));
    let slack = tol / la;
    let (zero, one) = (f32x8::ZERO, f32x8::ONE);
    let in_order = t0.le(t1);
    let (t_lo, t_hi) = (in_order.select(t0, t1), in_order.select(t1, t0));
    let (b_lo, b_hi) = (
        in_order.select(fb.vertex_ids[0], fb.vertex_ids[1]),
        in_order.select(fb.vertex_ids[1], fb.vertex_ids[0]),
    );
    let lo_at_end = t_lo.le(slack);
    let lo = (
        lo_at_end.select(zero, t_lo),
        lo_at_end.select(fa.vertex_ids[0], fa.edge_ids[0]),
        lo_at_end.select(fb.edge_ids[0], b_lo),
    );
    let hi_at_end = t_hi.ge(one - slack);
    let hi = (
        hi_at_end.select(one, t_hi),
        hi_at_end.select(fa.vertex_ids[1], fa.edge_ids[0]),
        hi_at_end.select(fb.edge_ids[0], b_hi),
    );
    ok = ok.and_not((hi.0 - lo.0).le(slack));
    let half = f32x8::splat(0.5);
    for (end, (t, id_a, id_b)) in [lo, hi].into_iter().enumerate() {
        let on_a = a0 + (a1 - a0) * t;
        // B's point at the same place seen along n; the two are then moved
        // towards each other, each by half their offset across the normal.
        let s = clamp_unit((t - t0) / (t1 - t0));
        let on_b = b0 + (b1 - b0) * s;
        let depth = (on_a - on_b).dot_glam(n);
        let mid = (on_a + on_b) * half;
        let a = mid + n * (half * depth);
        let b = mid - n * (half * depth);
        out.put(end, ok, (a, b), (id_a, id_b));
    }
}

/// `x.clamp(0.0, 1.0)` as `f32::clamp` does it: NaN stays NaN.
#[inline(always)]
fn clamp_unit(x: f32x8) -> f32x8 {
    let (zero, one) = (f32x8::ZERO, f32x8::ONE);
    x.lt(zero).select(zero, x.gt(one).select(one, x))
}
