//! Clipping of one support feature against another, the geometric core of the
//! contact manifolds: the part of the *incident* feature (a polygon or a segment)
//! that lies over the *reference* feature, seen along the contact normal, as
//! points on both shapes.
//!
//! Everything here runs in A's frame on the cores' features. The reference
//! polygon's side planes contain the contact normal `n` (each holds a reference
//! edge and `n`), so clipping is a plane problem in the plane orthogonal to `n`;
//! each kept incident point is then carried along `n` onto the reference face's
//! plane, which puts the pair of points on both surfaces with their difference
//! along `n`, as for a single contact.

use glam::Vec3;

use crate::feature::{Feature, FeatureId};
use crate::tolerance::{MANIFOLD_BAND_MITRE, MANIFOLD_EDGE_MIN_ULPS, MANIFOLD_SLIVER_CORNER};

/// A pair of points, one on each core (A's frame), and the features they lie on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CorePoint {
    /// On A's core.
    pub a: Vec3,
    /// On B's core.
    pub b: Vec3,
    /// The feature of A the point lies on.
    pub id_a: FeatureId,
    /// The feature of B.
    pub id_b: FeatureId,
}

/// Which shape a feature belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    A,
    B,
}

/// A point of the incident feature during clipping, with the feature of each shape
/// it lies on, and what the polygon edge that leaves it runs along.
#[derive(Debug, Clone, Copy)]
struct ClipVertex {
    p: Vec3,
    incident: FeatureId,
    reference: FeatureId,
    leaving: Along,
}

/// What an edge of the polygon being clipped runs along.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Along {
    /// An edge of the incident feature.
    Incident(FeatureId),
    /// The side plane of the reference polygon's edge at this position.
    Reference(usize),
}

/// Scratch buffers for [`clip_polygon`] and [`clip_segment`].
#[derive(Debug, Default, Clone)]
pub(crate) struct ClipBuffers {
    current: Vec<ClipVertex>,
    next: Vec<ClipVertex>,
    /// The reference polygon's side planes.
    sides: Vec<(Vec3, Vec3)>,
}

/// The width of the tolerance band of the side planes: `tol` measured on the
/// reference face, which is `tol` times the cosine between the face's normal and
/// `view` across the normal (the face is seen obliquely along it), so that a
/// vertex kept in the band is off each side of the face by `tol` at most (and,
/// with the band narrowed at sharp corners by [`side_planes`], within
/// [`MANIFOLD_BAND_MITRE`] times `tol` of a corner).
fn band(reference: &Feature, view: Vec3, tol: f32) -> f32 {
    tol * reference.normal().dot(view).abs()
}

/// The side planes of the reference polygon (see [`side_plane`]), written to
/// `sides`, and the factor its band is narrowed by so that the band stays near
/// the polygon at sharp corners.
///
/// Two side planes moved out by a band `b` meet `b / cos(phi / 2)` from their
/// corner, `phi` the angle between their normals, and `2 cos(phi / 2)` is the
/// length of the normals' sum: at the corner of a sliver (a hull face whose
/// corner is a fraction of a degree) a band kept points hundreds of bands
/// beyond the corner, off the face. Narrowing the band by `min(1, M/2 |n1 +
/// n2|)` at the polygon's sharpest corner (`M` is [`MANIFOLD_BAND_MITRE`])
/// keeps every corner's meeting point within `M` bands of it; only corners
/// sharper than about 29 degrees (`|n1 + n2| < 2 / M`) narrow the band, so
/// boxes, caps and most hull faces keep it whole. A corner that rounding alone
/// closes ([`MANIFOLD_SLIVER_CORNER`]) makes the factor NaN, and with it the
/// band: every point is then outside, as with an edge of no side plane (NaN),
/// which narrows nothing, its polygon clipping to nothing anyway.
fn side_planes(
    reference: &Feature,
    view: Vec3,
    rounded: bool,
    sides: &mut Vec<(Vec3, Vec3)>,
) -> f32 {
    let count = reference.vertices().len();
    sides.clear();
    sides.extend((0..count).map(|k| side_plane(reference, k, view, rounded)));
    let mut narrowing = 1.0f32;
    for k in 0..count {
        let corner = sides[k].0 + sides[(k + 1) % count].0;
        let length = corner.length();
        let f = 0.5 * MANIFOLD_BAND_MITRE * length;
        if length <= MANIFOLD_SLIVER_CORNER {
            narrowing = f32::NAN;
        } else if f < narrowing {
            narrowing = f;
        }
    }
    narrowing
}

/// The side plane of reference edge `k`: outward unit normal and a point on it.
/// `view` is the direction the reference polygon is seen from (`±n`, on the side of
/// its outward normal), against which it turns counter-clockwise.
///
/// An edge with no normal (a cap of radius 1e-30, whose chords square to
/// nothing) gets a NaN normal, and so does an edge of B's (`rounded`: moved into
/// A's frame, where A's own features are exact) that rounding leaves unresolved
/// there: no longer than [`MANIFOLD_EDGE_MIN_ULPS`] of its ends' coordinates, a
/// small face posed far from A's centre. A NaN normal puts every point outside
/// (every test below is `inside = d <= tol`, false for NaN): such a reference
/// clips to nothing and the contact's own point stands. A zero normal would
/// put every point inside, and a turned one keep points far outside the face.
fn side_plane(reference: &Feature, k: usize, view: Vec3, rounded: bool) -> (Vec3, Vec3) {
    let v = reference.vertices();
    let (p, q) = (v[k], v[(k + 1) % v.len()]);
    // Only B's edges are rounded: A's reference skips the test.
    let resolved = || {
        let ends = p.abs().max_element().max(q.abs().max_element());
        (q - p).length() > MANIFOLD_EDGE_MIN_ULPS * f32::EPSILON * ends
    };
    let normal = if !rounded || resolved() {
        (q - p).cross(view).normalize_or(Vec3::NAN)
    } else {
        Vec3::NAN
    };
    (normal, p)
}

/// Carries incident point `p` along `n` onto the plane of the reference polygon
/// and returns the pair of core points, ordered (A, B).
fn project(p: Vec3, reference: &Feature, n: Vec3, reference_side: Side) -> (Vec3, Vec3) {
    let r = reference.normal();
    let t = (reference.vertices()[0] - p).dot(r) / n.dot(r);
    let q = p + t * n;
    match reference_side {
        Side::A => (q, p),
        Side::B => (p, q),
    }
}

fn core_point(
    p: Vec3,
    incident_id: FeatureId,
    reference_id: FeatureId,
    reference: &Feature,
    n: Vec3,
    reference_side: Side,
) -> CorePoint {
    let (a, b) = project(p, reference, n, reference_side);
    let (id_a, id_b) = match reference_side {
        Side::A => (reference_id, incident_id),
        Side::B => (incident_id, reference_id),
    };
    CorePoint { a, b, id_a, id_b }
}

/// The incident polygon clipped to the reference polygon's side planes
/// (Sutherland-Hodgman), as core points pushed to `out`. A vertex up to `tol`
/// outside a side plane (measured on the reference face, and narrowed at sharp
/// corners: [`side_planes`]) counts as inside and stays where it is, standing for the
/// crossing of its edges with the plane, so that a face resting exactly on
/// another's edge keeps its corners, and their ids, under rounding.
///
/// Ids: a kept incident vertex lies on the reference face; a crossing of an
/// incident edge with a side plane on that edge and the reference edge; a
/// reference vertex inside the incident polygon on that vertex and the incident
/// face.
pub(crate) fn clip_polygon(
    incident: &Feature,
    reference: &Feature,
    n: Vec3,
    reference_side: Side,
    tol: f32,
    buffers: &mut ClipBuffers,
    out: &mut Vec<CorePoint>,
) {
    let view = match reference_side {
        Side::A => n,
        Side::B => -n,
    };
    let ClipBuffers {
        current,
        next,
        sides,
    } = buffers;
    let narrowing = side_planes(reference, view, reference_side == Side::B, sides);
    let tol = band(reference, view, tol) * narrowing;
    current.clear();
    current.extend(
        incident
            .vertices()
            .iter()
            .zip(incident.vertex_ids())
            .zip(incident.edge_ids())
            .map(|((&p, &id), &edge)| ClipVertex {
                p,
                incident: id,
                reference: reference.id(),
                leaving: Along::Incident(edge),
            }),
    );
    let count = sides.len();
    for (k, &(s, origin)) in sides.iter().enumerate() {
        let dist = |p: Vec3| s.dot(p - origin);
        next.clear();
        for i in 0..current.len() {
            let (u, w) = (current[i], current[(i + 1) % current.len()]);
            let (du, dw) = (dist(u.p), dist(w.p));
            let (inside_u, inside_w) = (du <= tol, dw <= tol);
            if inside_u {
                next.push(u);
            }
            if inside_u == inside_w {
                continue;
            }
            // The edge leaves (or enters) through the side plane. An end within the
            // tolerance band stands for the crossing itself.
            if (inside_u && du > 0.0) || (inside_w && dw > 0.0) {
                if inside_u {
                    next.last_mut().expect("u was pushed").leaving = Along::Reference(k);
                }
                continue;
            }
            let p = u.p + (w.p - u.p) * (du / (du - dw));
            let (incident_id, reference_id) = match u.leaving {
                Along::Incident(edge) => (edge, reference.edge_ids()[k]),
                // The crossing of two side planes: a reference vertex, which lies on
                // the incident face when the two edges meet there.
                Along::Reference(j) if (j + 1) % count == k => {
                    (incident.id(), reference.vertex_ids()[k])
                }
                Along::Reference(j) if (k + 1) % count == j => {
                    (incident.id(), reference.vertex_ids()[j])
                }
                Along::Reference(_) => (incident.id(), reference.edge_ids()[k]),
            };
            // Leaving the face, the polygon goes on along the side plane; entering,
            // along the rest of `u`'s edge.
            let leaving = if inside_u {
                Along::Reference(k)
            } else {
                u.leaving
            };
            next.push(ClipVertex {
                p,
                incident: incident_id,
                reference: reference_id,
                leaving,
            });
        }
        std::mem::swap(current, next);
        if current.is_empty() {
            return;
        }
    }
    out.extend(
        current
            .iter()
            .map(|v| core_point(v.p, v.incident, v.reference, reference, n, reference_side)),
    );
}

/// The incident segment clipped to the reference polygon's side planes, as up to
/// two core points pushed to `out`; the same tolerance and ids as
/// [`clip_polygon`] (a clipped end lies on the segment's edge and the reference
/// edge that cut it).
pub(crate) fn clip_segment(
    incident: &Feature,
    reference: &Feature,
    n: Vec3,
    reference_side: Side,
    tol: f32,
    buffers: &mut ClipBuffers,
    out: &mut Vec<CorePoint>,
) {
    let view = match reference_side {
        Side::A => n,
        Side::B => -n,
    };
    let sides = &mut buffers.sides;
    let narrowing = side_planes(reference, view, reference_side == Side::B, sides);
    let tol = band(reference, view, tol) * narrowing;
    let [p, q] = [incident.vertices()[0], incident.vertices()[1]];
    let mut ends = [
        (0.0f32, incident.vertex_ids()[0], reference.id()),
        (1.0f32, incident.vertex_ids()[1], reference.id()),
    ];
    let edge = incident.edge_ids()[0];
    for (k, &(s, origin)) in sides.iter().enumerate() {
        let (dp, dq) = (s.dot(p - origin), s.dot(q - origin));
        let (inside_p, inside_q) = (dp <= tol, dq <= tol);
        if inside_p == inside_q {
            if !inside_p {
                return;
            }
            continue;
        }
        // The end outside moves in to the plane, or to the other end when that one
        // lies within the tolerance band (it stands for the crossing).
        let (outside, d_in) = if inside_p { (1, dp) } else { (0, dq) };
        let cut = if d_in > 0.0 {
            ends[1 - outside]
        } else {
            (dp / (dp - dq), edge, reference.edge_ids()[k])
        };
        let tighter = if outside == 1 {
            cut.0 < ends[1].0
        } else {
            cut.0 > ends[0].0
        };
        if tighter {
            ends[outside] = cut;
        }
        if ends[0].0 > ends[1].0 {
            return;
        }
    }
    for (t, incident_id, reference_id) in ends {
        let x = p + (q - p) * t;
        out.push(core_point(
            x,
            incident_id,
            reference_id,
            reference,
            n,
            reference_side,
        ));
    }
}

/// Two segments (A's and B's) parallel in the plane orthogonal to `n`: the two
/// ends of their overlap seen along `n`, as core points pushed to `out` (none when
/// they are not parallel, or overlap by less than `tol`). At each end, the points
/// of both segments at the same place seen along `n` give the depth, and are then
/// moved towards each other across the normal, each by half of their offset (see
/// [`crate::tolerance::MANIFOLD_PARALLEL_SEGMENTS_SIN`]).
/// Ids: an end of the overlap set by A's vertex lies on that vertex and B's edge,
/// else on A's edge and B's vertex (A's vertex when both ends are within `tol`).
pub(crate) fn overlap_segments(
    fa: &Feature,
    fb: &Feature,
    n: Vec3,
    parallel_sin: f32,
    tol: f32,
    out: &mut Vec<CorePoint>,
) -> bool {
    let flat = |v: Vec3| v - n * n.dot(v);
    let [a0, a1] = [fa.vertices()[0], fa.vertices()[1]];
    let [b0, b1] = [fb.vertices()[0], fb.vertices()[1]];
    let (ua, ub) = (flat(a1 - a0), flat(b1 - b0));
    let (la, lb) = (ua.length(), ub.length());
    if la <= tol || lb <= tol || ua.cross(ub).length() > parallel_sin * la * lb {
        return false;
    }
    // Parameters along A's segment (0 at a0, 1 at a1) of B's ends.
    let param = |x: Vec3| flat(x - a0).dot(ua) / (la * la);
    let (t0, t1) = (param(b0), param(b1));
    let slack = tol / la;
    let (b_lo, t_lo, b_hi, t_hi) = if t0 <= t1 {
        (0, t0, 1, t1)
    } else {
        (1, t1, 0, t0)
    };
    let lo = if t_lo <= slack {
        (0.0, fa.vertex_ids()[0], fb.edge_ids()[0])
    } else {
        (t_lo, fa.edge_ids()[0], fb.vertex_ids()[b_lo])
    };
    let hi = if t_hi >= 1.0 - slack {
        (1.0, fa.vertex_ids()[1], fb.edge_ids()[0])
    } else {
        (t_hi, fa.edge_ids()[0], fb.vertex_ids()[b_hi])
    };
    if hi.0 - lo.0 <= slack {
        return false;
    }
    for (t, id_a, id_b) in [lo, hi] {
        let on_a = a0 + (a1 - a0) * t;
        // B's point at the same place seen along n; the two are then moved
        // towards each other, each by half their offset across the normal.
        let s = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
        let on_b = b0 + (b1 - b0) * s;
        let depth = (on_a - on_b).dot(n);
        let mid = 0.5 * (on_a + on_b);
        out.push(CorePoint {
            a: mid + n * (0.5 * depth),
            b: mid - n * (0.5 * depth),
            id_a,
            id_b,
        });
    }
    true
}
