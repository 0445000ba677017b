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
    normal: Vec3,
    distance: f32,
    alive: bool,
    /// The vertex whose insertion removed this face (to undo a failed step).
    removed_at: Option<usize>,
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

    let mut status = Status::IterationLimit;
    let mut best = 0;
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
        let new_index = verts.len();
        verts.push(p);
        let horizon = carve_visible(&mut faces, &verts, best, p.w);
        let mut added = Vec::with_capacity(horizon.len());
        // The new polytope contains the old one, so no new face may come closer to
        // the origin than the face being expanded. One that does is a sliver whose
        // normal is rounding noise (it happens near convergence on curved cores,
        // where the new point barely clears nearly coplanar faces).
        let floor = face.distance - (EPA_RELATIVE_GAP * face.distance.abs() + touch);
        for (a, b) in horizon {
            match make_face(&verts, [a, b, new_index]) {
                Some(f) if f.distance >= floor => added.push(f),
                _ => {
                    status = Status::Degenerate;
                    break;
                }
            }
        }
        if status == Status::Degenerate {
            // Keep the answer of the last sound polytope: undo the carving.
            for f in faces.iter_mut().filter(|f| f.removed_at == Some(new_index)) {
                f.alive = true;
                f.removed_at = None;
            }
            verts.pop();
            break;
        }
        faces.extend(added);
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
        alive: true,
        removed_at: None,
    })
}

/// Removes the faces that `p` sees, grown from `seed` across shared edges so that
/// the removed region is connected (a disc on a convex polytope), and returns its
/// boundary, the horizon, as directed edges in the removed faces' winding. Testing
/// every face independently instead can remove a disconnected, barely visible face
/// and leave a horizon that is not one loop, which folds the polytope.
fn carve_visible(
    faces: &mut [Face],
    verts: &[SupportPoint],
    seed: usize,
    p: Vec3,
) -> Vec<(usize, usize)> {
    let new_index = verts.len() - 1;
    let sees = |f: &Face| f.normal.dot(p - verts[f.v[0]].w) > 0.0;
    let mut horizon = Vec::new();
    let mut stack = vec![seed];
    faces[seed].alive = false;
    faces[seed].removed_at = Some(new_index);
    // Each face is pushed at most once (it is marked removed when pushed), so the
    // loop runs at most `faces.len()` times.
    while let Some(fi) = stack.pop() {
        for k in 0..3 {
            let (a, b) = (faces[fi].v[k], faces[fi].v[(k + 1) % 3]);
            let neighbour = faces.iter().position(|g| {
                (g.alive || g.removed_at == Some(new_index))
                    && (0..3).any(|j| g.v[j] == b && g.v[(j + 1) % 3] == a)
            });
            match neighbour {
                Some(ni) if faces[ni].removed_at == Some(new_index) => {}
                Some(ni) if sees(&faces[ni]) => {
                    faces[ni].alive = false;
                    faces[ni].removed_at = Some(new_index);
                    stack.push(ni);
                }
                _ => horizon.push((a, b)),
            }
        }
    }
    horizon
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
