//! EPA: penetration depth, normal and witness points of overlapping cores.
//!
//! Starts from whatever simplex GJK stopped with (one to four points), grows it to
//! a tetrahedron with extra support points, then expands the polytope towards the
//! boundary of `core(A) - core(B)` one face at a time. Face normals are oriented by
//! an interior point, never by the origin, so an origin lying on a face (touching
//! cores, or GJK stopping on the boundary; MuJoCo Warp #1526, parry #246) is an
//! ordinary zero-distance face that the next expansion pushes outward.

use glam::Vec3;

use super::minkowski::{Minkowski, SupportPoint};
use super::simplex::Simplex;
use super::status::Status;
use crate::support::SupportMap;
use crate::tolerance::{EPA_MAX_FACES, EPA_MAX_ITERATIONS, EPA_RELATIVE_GAP};

/// Penetration of the cores, in A's frame.
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
    normal: Vec3,
    distance: f32,
    alive: bool,
}

/// Penetration of the cores, given the GJK simplex that found them overlapping.
/// `touch` is the absolute length below which two points count as one.
pub(crate) fn penetration<A, B>(
    m: &mut Minkowski<A, B>,
    simplex: &Simplex,
    touch: f32,
) -> Penetration
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let mut verts: Vec<SupportPoint> = simplex.active().to_vec();
    let mut iterations = 0;
    if let Err(flat) = grow_to_tetrahedron(m, &mut verts, touch, &mut iterations) {
        return flat;
    }

    let interior = (verts[0].w + verts[1].w + verts[2].w + verts[3].w) * 0.25;
    let mut faces: Vec<Face> = Vec::with_capacity(64);
    for tri in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
        let Some(mut f) = make_face(&verts, tri) else {
            return degenerate(m, &verts, iterations);
        };
        if f.normal.dot(interior - verts[tri[0]].w) > 0.0 {
            f = make_face(&verts, [tri[0], tri[2], tri[1]]).expect("same triangle, flipped");
        }
        faces.push(f);
    }
    link_tetrahedron(&mut faces);

    let mut status = Status::IterationLimit;
    let mut best = 0;
    let mut removed: Vec<usize> = Vec::with_capacity(16);
    let mut horizon: Vec<(usize, usize, usize)> = Vec::with_capacity(16);
    let mut added: Vec<Face> = Vec::with_capacity(16);
    for _ in 0..EPA_MAX_ITERATIONS {
        best = nearest_face(&faces);
        let face = faces[best];
        let p = m.support(face.normal);
        iterations += 1;
        let gap = p.w.dot(face.normal) - face.distance;
        if gap <= EPA_RELATIVE_GAP * face.distance.max(0.0) + touch {
            status = Status::Converged;
            break;
        }
        if faces.len() + 16 > EPA_MAX_FACES {
            break;
        }
        carve_visible(&mut faces, &verts, best, p.w, &mut removed, &mut horizon);
        // The new polytope contains the old one, so no new face may come closer to
        // the origin than the face being expanded. One that does is a sliver whose
        // normal is rounding noise (it happens near convergence on curved cores,
        // where the new point barely clears nearly coplanar faces): keep the last
        // sound polytope instead.
        let floor = face.distance - (EPA_RELATIVE_GAP * face.distance.abs() + touch);
        let new_vertex = verts.len();
        verts.push(p);
        added.clear();
        if !is_one_loop(&horizon) {
            status = Status::Degenerate;
        }
        for &(a, b, outside) in horizon.iter().take_while(|_| status != Status::Degenerate) {
            match make_face(&verts, [a, b, new_vertex]) {
                Some(mut f) if f.distance >= floor => {
                    f.adj[0] = outside;
                    added.push(f);
                }
                _ => {
                    status = Status::Degenerate;
                    break;
                }
            }
        }
        if status == Status::Degenerate {
            for &f in &removed {
                faces[f].alive = true;
            }
            verts.pop();
            break;
        }
        stitch(&mut faces, &horizon, &mut added);
    }
    if status != Status::Converged {
        best = nearest_face(&faces);
    }
    finish(&verts, &faces[best], iterations, status)
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
    if verts.len() == 4 {
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| verts[i].w);
        if (b - a).dot((c - a).cross(d - a)).abs() > touch * touch * touch {
            return Ok(());
        }
        // GJK's tetrahedron is flat within rounding: keep its best triangle.
        verts.truncate(3);
    }
    if verts.len() == 1 {
        let axes = [
            Vec3::X,
            Vec3::NEG_X,
            Vec3::Y,
            Vec3::NEG_Y,
            Vec3::Z,
            Vec3::NEG_Z,
        ];
        let origin = verts[0].w;
        let found = axes.iter().find_map(|&d| {
            *iterations += 1;
            let p = m.support(d);
            (p.w.distance(origin) > touch).then_some(p)
        });
        match found {
            Some(p) => verts.push(p),
            None => return Err(degenerate(m, verts, *iterations)),
        }
    }
    if verts.len() == 2 {
        let axis = (verts[1].w - verts[0].w).normalize();
        let u = axis.any_orthonormal_vector();
        let v = axis.cross(u);
        let line_distance = |p: Vec3| {
            let r = p - verts[0].w;
            (r - axis * r.dot(axis)).length()
        };
        let mut found = None;
        for k in 0..6 {
            let angle = k as f32 * std::f32::consts::FRAC_PI_3;
            let d = u * angle.cos() + v * angle.sin();
            *iterations += 1;
            let p = m.support(d);
            if line_distance(p.w) > touch {
                found = Some(p);
                break;
            }
        }
        match found {
            Some(p) => verts.push(p),
            None => return Err(degenerate(m, verts, *iterations)),
        }
    }
    let n = (verts[1].w - verts[0].w)
        .cross(verts[2].w - verts[0].w)
        .normalize_or_zero();
    if n == Vec3::ZERO {
        return Err(degenerate(m, verts, *iterations));
    }
    *iterations += 2;
    let up = m.support(n);
    let down = m.support(-n);
    let (h_up, h_down) = (n.dot(up.w - verts[0].w), -n.dot(down.w - verts[0].w));
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

/// The answer when `core(A) - core(B)` has no volume around the origin: depth 0,
/// and a normal the set has no extent along (the plane's normal for a flat set, any
/// perpendicular for a segment, any direction for a point), signed to point from
/// A's origin towards B's so that coincident shapes separate consistently.
fn degenerate<A, B>(m: &Minkowski<A, B>, verts: &[SupportPoint], iterations: u32) -> Penetration
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let preferred = if m.offset.length_squared() > 0.0 {
        m.offset.normalize()
    } else {
        Vec3::Y
    };
    let normal = match verts.len() {
        0 | 1 => preferred,
        2 => {
            let axis = (verts[1].w - verts[0].w).normalize_or_zero();
            let perp = preferred - axis * axis.dot(preferred);
            perp.try_normalize()
                .unwrap_or_else(|| axis.any_orthonormal_vector())
        }
        _ => {
            let n = (verts[1].w - verts[0].w)
                .cross(verts[2].w - verts[0].w)
                .normalize_or_zero();
            if n.dot(preferred) < 0.0 { -n } else { n }
        }
    };
    let normal = if normal == Vec3::ZERO {
        preferred
    } else {
        normal
    };
    // Witness: the GJK combination of the vertices (they all lie at the origin's
    // shadow within rounding).
    let weight = 1.0 / verts.len().max(1) as f32;
    let point_a = verts.iter().map(|p| p.a).sum::<Vec3>() * weight;
    let point_b = verts.iter().map(|p| p.b).sum::<Vec3>() * weight;
    Penetration {
        depth: 0.0,
        normal,
        point_a,
        point_b,
        iterations,
        status: Status::Converged,
    }
}

fn make_face(verts: &[SupportPoint], v: [usize; 3]) -> Option<Face> {
    let [a, b, c] = v.map(|i| verts[i].w);
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
            if g.normal.dot(p - verts[g.v[0]].w) > 0.0 {
                faces[nb].alive = false;
                removed.push(nb);
            } else {
                horizon.push((faces[fi].v[k], faces[fi].v[(k + 1) % 3], nb));
            }
        }
    }
}

/// Appends the new faces (one per horizon edge, all sharing the new vertex) and
/// links them: to the kept face across their horizon edge, and to each other
/// around the new vertex.
fn stitch(faces: &mut Vec<Face>, horizon: &[(usize, usize, usize)], added: &mut [Face]) {
    let first = faces.len();
    for (i, &(a, b, outside)) in horizon.iter().enumerate() {
        let me = first + i;
        // The new face on the horizon edge starting at `b` shares edge (b, new).
        let after = horizon.iter().position(|&(s, _, _)| s == b);
        // The one ending at `a` shares edge (new, a).
        let before = horizon.iter().position(|&(_, e, _)| e == a);
        added[i].adj[1] = first + after.expect("the horizon is one loop");
        added[i].adj[2] = first + before.expect("the horizon is one loop");
        let kept = &mut faces[outside];
        for k in 0..3 {
            if kept.v[k] == b && kept.v[(k + 1) % 3] == a {
                kept.adj[k] = me;
            }
        }
    }
    faces.extend_from_slice(added);
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

/// Adjacency of the starting tetrahedron, by matching reversed edges.
fn link_tetrahedron(faces: &mut [Face]) {
    for i in 0..faces.len() {
        for k in 0..3 {
            let (a, b) = (faces[i].v[k], faces[i].v[(k + 1) % 3]);
            faces[i].adj[k] = (0..faces.len())
                .find(|&j| (0..3).any(|m| faces[j].v[m] == b && faces[j].v[(m + 1) % 3] == a))
                .expect("a closed tetrahedron has a twin for every edge");
        }
    }
}

fn nearest_face(faces: &[Face]) -> usize {
    let mut best = usize::MAX;
    let mut best_d = f32::INFINITY;
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
    let q = face.normal * face.distance;
    let n = (pb.w - pa.w).cross(pc.w - pa.w);
    let nn = n.length_squared();
    let la = (pb.w - q).cross(pc.w - q).dot(n) / nn;
    let lb = (pc.w - q).cross(pa.w - q).dot(n) / nn;
    let lc = 1.0 - la - lb;
    Penetration {
        depth: face.distance.max(0.0),
        normal: face.normal,
        point_a: pa.a * la + pb.a * lb + pc.a * lc,
        point_b: pa.b * la + pb.b * lb + pc.b * lc,
        iterations,
        status,
    }
}
