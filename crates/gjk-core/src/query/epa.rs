//! EPA: penetration depth, normal and witness points of overlapping cores.
//!
//! Starts from whatever simplex GJK stopped with (one to four points), grows it to
//! a tetrahedron with extra support points, then expands the polytope towards the
//! boundary of `core(A) - core(B)` one face at a time. The tetrahedron is oriented
//! by the sign of its volume and every later face by its construction, never by
//! the origin, so an origin lying on a face (touching cores, or GJK stopping on
//! the boundary; MuJoCo Warp #1526, parry #246) is an ordinary zero-distance face
//! that the next expansion pushes outward.
//!
//! The depth `D` is the least support of `A - B` over unit directions: the
//! nearest face's distance is a lower bound (the polytope lies inside `A - B`),
//! and the support value along its normal an upper bound (moving B that far
//! along it separates the cores). EPA stops when they meet within
//! [`EPA_RELATIVE_GAP`]. Should it stop otherwise (its caps, or a step that
//! rounding spoils), it answers with the nearest face, whose witness points lie
//! on the shapes.
//!
//! Where the two cores are coaxial solids of revolution (identical cylinders at
//! one pose, a ball on a cylinder's axis, stacked cones), every direction around
//! the axis is equally deep and a polytope would have to refine a whole circle
//! before its bound met the answer. The depth is then found in the plane through
//! the axis ([`super::epa_axial`]), where the section is a polygon.

use glam::{DVec3, Vec3};

use super::epa_axial;
use super::minkowski::{Minkowski, SupportPoint};
use super::simplex::Simplex;
use super::status::Status;
use crate::support::SupportMap;
use crate::tolerance::{
    EPA_COPLANAR_ULPS, EPA_FLAT_NORMAL_SIN, EPA_MAX_FACES, EPA_MAX_ITERATIONS, EPA_RELATIVE_GAP,
};

/// Penetration of the cores, in A's frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Penetration {
    /// Depth of the cores' overlap along `normal` (>= 0).
    pub depth: f32,
    /// Unit direction from A to B: translating B by `depth * normal` separates the
    /// cores.
    pub normal: Vec3,
    /// Point of A's core deepest inside B's, and vice versa.
    pub point_a: Vec3,
    pub point_b: Vec3,
    pub iterations: u32,
    pub status: Status,
}

#[derive(Clone, Copy)]
struct Face {
    v: [usize; 3],
    /// `adj[k]`: the face across the edge from `v[k]` to `v[(k + 1) % 3]`.
    adj: [usize; 3],
    /// Unit normal and distance from the origin, in f64: computed from the f32
    /// support points exactly enough that only the points' own rounding moves
    /// them (an f32 cross product of a small face's edges would add its own).
    normal: DVec3,
    distance: f64,
    alive: bool,
}

/// The polytope: support points and faces (removed ones are recycled through
/// `free`).
struct Polytope {
    verts: Vec<SupportPoint>,
    faces: Vec<Face>,
    free: Vec<usize>,
}

/// Penetration of the cores, given the GJK simplex that found them overlapping.
/// `touch` is the absolute length below which two points count as one. `None`
/// when the polytope grown from the simplex does not hold the origin (GJK
/// stopped within the touch tolerance of it without enclosing it): EPA cannot
/// start there, and the caller answers from GJK's closest points.
pub(crate) fn penetration<A, B>(
    m: &mut Minkowski<A, B>,
    simplex: &Simplex,
    touch: f32,
) -> Option<Penetration>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    if let Some(section) = m.axial_section()
        && let Some(pen) = epa_axial::penetration(m, &section, touch)
    {
        return Some(pen);
    }
    let mut iterations = 0;
    let mut verts: Vec<SupportPoint> = simplex.active().to_vec();
    if let Err(flat) = grow_to_tetrahedron(m, &mut verts, touch, &mut iterations) {
        return Some(flat);
    }
    let Some(faces) = tetrahedron_faces(&verts) else {
        return Some(degenerate(m, &verts, iterations));
    };
    if faces.iter().any(|f| f.distance < -tolerance(0.0, touch)) {
        return None;
    }
    let mut poly = Polytope {
        verts,
        faces,
        free: Vec::new(),
    };
    Some(expand(m, &mut poly, touch, iterations))
}

/// The expansion loop on a closed polytope around the origin.
fn expand<A, B>(
    m: &mut Minkowski<A, B>,
    poly: &mut Polytope,
    touch: f32,
    iterations: u32,
) -> Penetration
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let mut iterations = iterations;
    let mut removed: Vec<usize> = Vec::with_capacity(16);
    let mut horizon: Vec<(usize, usize, usize)> = Vec::with_capacity(16);
    let mut added: Vec<Face> = Vec::with_capacity(16);
    let mut status = Status::IterationLimit;
    for _ in 0..EPA_MAX_ITERATIONS {
        let best = nearest_face(&poly.faces);
        let face = poly.faces[best];
        let p = m.support(face.normal.as_vec3());
        iterations += 1;
        // The polytope lies inside `A - B`, so no direction is shallower than the
        // nearest face; along its normal, `A - B` reaches `p`.
        let gap = p.w.as_dvec3().dot(face.normal) - face.distance;
        if gap <= tolerance(face.distance, touch) {
            return finish(&poly.verts, &face, iterations, Status::Converged);
        }
        if poly.verts.iter().any(|v| v.w.distance(p.w) <= touch) {
            // The support point is a vertex already: rounding has stalled the
            // expansion short of the tolerance.
            status = Status::Degenerate;
            break;
        }
        carve_visible(
            &mut poly.faces,
            &poly.verts,
            best,
            p.w,
            &mut removed,
            &mut horizon,
        );
        if poly.faces.len() + horizon.len() > EPA_MAX_FACES + poly.free.len() + removed.len() {
            // Out of room: undo the carving and stop.
            restore(&mut poly.faces, &removed);
            break;
        }
        // The new polytope contains the old one, so no new face may come closer to
        // the origin than the face being expanded. One that does is a sliver whose
        // normal is rounding noise (it happens near convergence on curved cores,
        // where the new point barely clears nearly coplanar faces): keep the last
        // sound polytope instead.
        let floor = face.distance - tolerance(face.distance.abs(), touch);
        let new_vertex = poly.verts.len();
        poly.verts.push(p);
        added.clear();
        let mut sound = is_one_loop(&horizon);
        for &(a, b, outside) in &horizon {
            match make_face(&poly.verts, [a, b, new_vertex]) {
                Some(mut f) if sound && f.distance >= floor => {
                    f.adj[0] = outside;
                    added.push(f);
                }
                _ => {
                    sound = false;
                    break;
                }
            }
        }
        if !sound {
            restore(&mut poly.faces, &removed);
            poly.verts.pop();
            status = Status::Degenerate;
            break;
        }
        stitch(poly, &horizon, &mut added, &removed);
    }
    let nearest = nearest_face(&poly.faces);
    finish(&poly.verts, &poly.faces[nearest], iterations, status)
}

/// Adds support points until `verts` spans a tetrahedron. Fails (with the flat
/// answer) when `core(A) - core(B)` itself has no volume: point, segment and flat
/// cores such as sphere or capsule cores, where the penetration of the cores is 0
/// and only a direction must be chosen.
fn grow_to_tetrahedron<A, B>(
    m: &mut Minkowski<A, B>,
    verts: &mut Vec<SupportPoint>,
    touch: f32,
    iterations: &mut u32,
) -> Result<(), Penetration>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    // In f64, like the faces: the squared lengths of the cross products below are
    // of the fourth power of the shapes' size, beyond f32 from 1e19 on.
    let touch = f64::from(touch);
    let at = |p: &SupportPoint| p.w.as_dvec3();
    if verts.len() == 4 {
        if volume6(verts).abs() > touch * touch * touch {
            return Ok(());
        }
        // GJK's tetrahedron is flat within rounding: keep its best triangle.
        verts.truncate(3);
    }
    let mut probe = |d: DVec3, iterations: &mut u32| {
        *iterations += 1;
        m.support(d.as_vec3())
    };
    if verts.len() == 1 {
        let axes = [
            DVec3::X,
            DVec3::NEG_X,
            DVec3::Y,
            DVec3::NEG_Y,
            DVec3::Z,
            DVec3::NEG_Z,
        ];
        let origin = at(&verts[0]);
        let found = axes.iter().find_map(|&d| {
            let p = probe(d, iterations);
            (at(&p).distance(origin) > touch).then_some(p)
        });
        match found {
            Some(p) => verts.push(p),
            None => return Err(degenerate(m, verts, *iterations)),
        }
    }
    if verts.len() == 2 {
        let (p0, p1) = (at(&verts[0]), at(&verts[1]));
        let axis = (p1 - p0).normalize();
        let u = axis.any_orthonormal_vector();
        let v = axis.cross(u);
        let line_distance = |p: DVec3| {
            let r = p - p0;
            (r - axis * r.dot(axis)).length()
        };
        let mut found = None;
        for k in 0..6 {
            let angle = k as f64 * std::f64::consts::FRAC_PI_3;
            let d = u * angle.cos() + v * angle.sin();
            let p = probe(d, iterations);
            if line_distance(at(&p)) > touch {
                found = Some(p);
                break;
            }
        }
        match found {
            Some(p) => verts.push(p),
            None => return Err(degenerate(m, verts, *iterations)),
        }
    }
    let p0 = at(&verts[0]);
    let n = (at(&verts[1]) - p0)
        .cross(at(&verts[2]) - p0)
        .normalize_or_zero();
    if n == DVec3::ZERO {
        return Err(degenerate(m, verts, *iterations));
    }
    let up = probe(n, iterations);
    let down = probe(-n, iterations);
    let (h_up, h_down) = (n.dot(at(&up) - p0), -n.dot(at(&down) - p0));
    let (p, h) = if h_up >= h_down {
        (up, h_up)
    } else {
        (down, h_down)
    };
    if h <= touch {
        return Err(degenerate(m, verts, *iterations));
    }
    verts.push(p);
    Ok(())
}

/// Six times the signed volume of the tetrahedron `verts[0..4]`.
fn volume6(verts: &[SupportPoint]) -> f64 {
    let [a, b, c, d] = [0, 1, 2, 3].map(|i| verts[i].w.as_dvec3());
    (b - a).dot((c - a).cross(d - a))
}

/// The four faces of the tetrahedron `verts[0..4]`, wound outward by the sign of
/// its volume (so that every edge meets its twin by construction), and linked.
/// `None` when a face has no area or the volume no sign.
fn tetrahedron_faces(verts: &[SupportPoint]) -> Option<Vec<Face>> {
    let volume = volume6(verts);
    if !(volume.is_finite() && volume != 0.0) {
        return None;
    }
    // With a positive volume, d lies on the side of (a, b, c)'s normal: that face
    // and the three others are wound so that their normals point away from the
    // fourth vertex. A negative volume swaps two vertices.
    let (b, c) = if volume > 0.0 { (1, 2) } else { (2, 1) };
    let tris = [[0, c, b], [0, b, 3], [0, 3, c], [b, c, 3]];
    let mut faces = Vec::with_capacity(64);
    for tri in tris {
        faces.push(make_face(verts, tri)?);
    }
    link_tetrahedron(&mut faces);
    Some(faces)
}

/// The answer when `core(A) - core(B)` has no volume around the origin: depth 0,
/// and a normal the set has no extent along (the plane's normal for a flat set, any
/// perpendicular for a segment, any direction for a point), signed to point from
/// A's origin towards B's so that coincident shapes separate consistently. The
/// witnesses are the points of the cores whose difference is the origin's
/// projection on the set's longest segment (or the set's point), so that
/// `point_a - point_b` is `depth * normal`.
pub(crate) fn degenerate<A, B>(
    m: &Minkowski<A, B>,
    verts: &[SupportPoint],
    iterations: u32,
) -> Penetration
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let preferred = m.towards_b().unwrap_or(Vec3::Y);
    // The set's extent: its two farthest points, and the point farthest from
    // their line (a point listed twice adds nothing).
    let mut ends = (0, 0, 0.0f32);
    for i in 0..verts.len() {
        for j in i + 1..verts.len() {
            let d = verts[i].w.distance_squared(verts[j].w);
            if d > ends.2 {
                ends = (i, j, d);
            }
        }
    }
    let p = verts.get(ends.0).copied().unwrap_or_default();
    let q = verts.get(ends.1).copied().unwrap_or_default();
    let axis = (q.w - p.w).normalize_or_zero();
    let off_line = verts
        .iter()
        .map(|r| {
            let d = r.w - p.w;
            d - axis * d.dot(axis)
        })
        .max_by(|x, y| x.length_squared().total_cmp(&y.length_squared()))
        .unwrap_or(Vec3::ZERO);
    let plane = axis.cross(off_line).normalize_or_zero();
    let normal = if axis == Vec3::ZERO {
        preferred
    } else if plane != Vec3::ZERO && plane.is_finite() {
        if plane.dot(preferred) < 0.0 {
            -plane
        } else {
            plane
        }
    } else {
        let perp = preferred - axis * axis.dot(preferred);
        if perp.length_squared() > EPA_FLAT_NORMAL_SIN * EPA_FLAT_NORMAL_SIN {
            perp.normalize()
        } else {
            axis.any_orthonormal_vector()
        }
    };
    let normal = if normal.is_finite() && normal != Vec3::ZERO {
        normal
    } else {
        preferred
    };
    let e = q.w - p.w;
    let ee = e.length_squared();
    let t = if ee > 0.0 {
        (-p.w.dot(e) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let point_a = p.a + (q.a - p.a) * t;
    Penetration {
        depth: 0.0,
        normal,
        point_a,
        point_b: point_a,
        iterations,
        status: Status::Converged,
    }
}

fn make_face(verts: &[SupportPoint], v: [usize; 3]) -> Option<Face> {
    let [a, b, c] = v.map(|i| verts[i].w.as_dvec3());
    let n = (b - a).cross(c - a);
    let normal = n.try_normalize()?;
    Some(Face {
        v,
        normal,
        distance: normal.dot(a),
        adj: [usize::MAX; 3],
        alive: true,
    })
}

/// Removes the faces that `p` sees, grown from `seed` across shared edges so that
/// the removed region is connected (a disc on a convex polytope), and collects its
/// boundary, the horizon, as directed edges `(a, b, face kept across the edge)` in
/// the removed faces' winding. Testing every face independently instead can remove
/// a disconnected, barely visible face and leave a horizon that is not one loop,
/// which folds the polytope. The removed faces are listed so a failed step can be
/// undone.
///
/// A face that `p` lies on, within the rounding of the test, counts as seen: on
/// boxes and hulls the support point often lands in the plane of a neighbouring
/// face (the corner beyond a face-centre vertex), and keeping that face would
/// join it to `p` by a triangle of no area.
fn carve_visible(
    faces: &mut [Face],
    verts: &[SupportPoint],
    seed: usize,
    p: Vec3,
    removed: &mut Vec<usize>,
    horizon: &mut Vec<(usize, usize, usize)>,
) {
    removed.clear();
    horizon.clear();
    faces[seed].alive = false;
    removed.push(seed);
    // Each face is pushed at most once (it is marked removed when pushed).
    let mut next = 0;
    while next < removed.len() {
        let fi = removed[next];
        next += 1;
        for k in 0..3 {
            let nb = faces[fi].adj[k];
            if !faces[nb].alive {
                continue;
            }
            let g = faces[nb];
            let v0 = verts[g.v[0]].w;
            let slack =
                EPA_COPLANAR_ULPS * f64::EPSILON * f64::from(p.abs().max(v0.abs()).max_element());
            if g.normal.dot(p.as_dvec3() - v0.as_dvec3()) > -slack {
                faces[nb].alive = false;
                removed.push(nb);
            } else {
                horizon.push((faces[fi].v[k], faces[fi].v[(k + 1) % 3], nb));
            }
        }
    }
}

/// Brings back the faces a refused step removed.
fn restore(faces: &mut [Face], removed: &[usize]) {
    for &f in removed {
        faces[f].alive = true;
    }
}

/// Places the new faces (one per horizon edge, all sharing the new vertex) in
/// the removed faces' slots and then at the end, and links them: to the kept
/// face across their horizon edge, and to each other around the new vertex.
fn stitch(
    poly: &mut Polytope,
    horizon: &[(usize, usize, usize)],
    added: &mut [Face],
    removed: &[usize],
) {
    poly.free.extend_from_slice(removed);
    let mut next_new = poly.faces.len();
    let slots: Vec<usize> = (0..horizon.len())
        .map(|_| {
            poly.free.pop().unwrap_or_else(|| {
                next_new += 1;
                next_new - 1
            })
        })
        .collect();
    for (i, &(a, b, outside)) in horizon.iter().enumerate() {
        // `is_one_loop` has checked that each of these exists exactly once.
        let after = horizon.iter().position(|&(s, _, _)| s == b).unwrap_or(i);
        let before = horizon.iter().position(|&(_, e, _)| e == a).unwrap_or(i);
        added[i].adj[1] = slots[after];
        added[i].adj[2] = slots[before];
        let kept = &mut poly.faces[outside];
        for k in 0..3 {
            if kept.v[k] == b && kept.v[(k + 1) % 3] == a {
                kept.adj[k] = slots[i];
            }
        }
    }
    for (i, &slot) in slots.iter().enumerate() {
        if slot < poly.faces.len() {
            poly.faces[slot] = added[i];
        }
    }
    // The fresh slots were numbered in order past the end.
    for (i, &slot) in slots.iter().enumerate() {
        if slot >= poly.faces.len() {
            debug_assert_eq!(slot, poly.faces.len());
            poly.faces.push(added[i]);
        }
    }
}

/// Whether the horizon edges chain into one closed loop (each edge's end starts
/// exactly one edge), which the stitching relies on. Rounding can break it when a
/// barely visible face is carved; the step is then refused.
fn is_one_loop(horizon: &[(usize, usize, usize)]) -> bool {
    let Some(&(start, _, _)) = horizon.first() else {
        return false;
    };
    let mut at = start;
    for steps in 1..=horizon.len() {
        let mut next = horizon.iter().filter(|&&(a, _, _)| a == at);
        match (next.next(), next.next()) {
            (Some(&(_, b, _)), None) => at = b,
            _ => return false,
        }
        if at == start {
            return steps == horizon.len();
        }
    }
    false
}

/// Adjacency of the starting tetrahedron, by matching reversed edges (every edge
/// has its twin: the faces are wound consistently by construction).
fn link_tetrahedron(faces: &mut [Face]) {
    for i in 0..faces.len() {
        for k in 0..3 {
            let (a, b) = (faces[i].v[k], faces[i].v[(k + 1) % 3]);
            faces[i].adj[k] = (0..faces.len())
                .find(|&j| (0..3).any(|m| faces[j].v[m] == b && faces[j].v[(m + 1) % 3] == a))
                .unwrap_or(i);
        }
    }
}

fn nearest_face(faces: &[Face]) -> usize {
    let mut best = usize::MAX;
    let mut best_d = f64::INFINITY;
    for (i, f) in faces.iter().enumerate() {
        if f.alive && (f.distance < best_d || best == usize::MAX) {
            best = i;
            best_d = f.distance;
        }
    }
    best
}

/// Depth, normal and witness points from the nearest face: the origin's projection
/// on the face, expressed in barycentric weights of its three support points.
fn finish(verts: &[SupportPoint], face: &Face, iterations: u32, status: Status) -> Penetration {
    let [pa, pb, pc] = face.v.map(|i| verts[i]);
    let [wa, wb, wc] = [pa.w, pb.w, pc.w].map(|w| w.as_dvec3());
    let q = face.normal * face.distance;
    let n = (wb - wa).cross(wc - wa);
    let nn = n.length_squared();
    let (la, lb) = if nn > 0.0 && nn.is_finite() {
        (
            (wb - q).cross(wc - q).dot(n) / nn,
            (wc - q).cross(wa - q).dot(n) / nn,
        )
    } else {
        (1.0, 0.0)
    };
    let lc = 1.0 - la - lb;
    let depth = face.distance.max(0.0);
    let point_a = pa.a.as_dvec3() * la + pb.a.as_dvec3() * lb + pc.a.as_dvec3() * lc;
    Penetration {
        depth: depth as f32,
        normal: face.normal.as_vec3(),
        point_a: point_a.as_vec3(),
        point_b: (point_a - face.normal * depth).as_vec3(),
        iterations,
        status,
    }
}

/// EPA's stopping gap at depth `depth`: relative, plus the touch floor.
pub(crate) fn tolerance(depth: f64, touch: f32) -> f64 {
    f64::from(EPA_RELATIVE_GAP) * depth + f64::from(touch)
}
