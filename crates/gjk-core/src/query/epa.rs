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
//! [`EPA_RELATIVE_GAP`](crate::tolerance::EPA_RELATIVE_GAP). Should it stop otherwise (its caps, or a step that
//! rounding spoils), it answers with the nearest face, whose witness points lie
//! on the shapes.
//!
//! Where the two cores are coaxial solids of revolution (identical cylinders at
//! one pose, a ball on a cylinder's axis, stacked cones), every direction around
//! the axis is equally deep and a polytope would have to refine a whole circle
//! before its bound met the answer. The depth is then found in the plane through
//! the axis ([`super::epa_axial`]), where the section is a polygon.

use std::cell::RefCell;

use glam::{DVec3, Vec3};

use super::epa_axial;
use super::minkowski::{Minkowski, SupportPoint};
use super::polytope::{FacePenetration, Polytope, Refusal, StartRefusal, Step, volume6};
use super::simplex::Simplex;
use super::status::Status;
use crate::support::SupportMap;
use crate::tolerance::{EPA_FLAT_NORMAL_SIN, EPA_MAX_ITERATIONS};

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
    let points = [verts[0], verts[1], verts[2], verts[3]];
    let start = |poly: &mut Polytope| match poly.reset(points, touch) {
        Ok(()) => Some(expand(m, poly, touch, iterations)),
        Err(StartRefusal::Flat) => Some(degenerate(m, &verts, iterations)),
        Err(StartRefusal::OriginOutside) => None,
    };
    with_polytope(start)
}

thread_local! {
    /// One polytope per thread, reused query after query: a reset keeps the
    /// storage the last use grew, so that the polytope allocates nothing once
    /// the thread has seen one that large.
    static POLYTOPE: RefCell<Polytope> = RefCell::new(Polytope::default());
}

/// Runs `f` on this thread's polytope, or on a fresh one should it be in use
/// already (a support map that itself asks for a contact) or gone (a query
/// made while the thread shuts down).
fn with_polytope<R>(mut f: impl FnMut(&mut Polytope) -> R) -> R {
    POLYTOPE
        .try_with(|cell| cell.try_borrow_mut().ok().map(|mut poly| f(&mut poly)))
        .ok()
        .flatten()
        .unwrap_or_else(|| f(&mut Polytope::default()))
}

/// The expansion loop on a closed polytope around the origin. Should it stop
/// otherwise than converged (its caps, or a step that rounding spoils), it
/// answers with the nearest face, whose witness points lie on the shapes.
fn expand<A, B>(
    m: &mut Minkowski<A, B>,
    poly: &mut Polytope,
    touch: f32,
    mut iterations: u32,
) -> Penetration
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let mut status = Status::IterationLimit;
    for _ in 0..EPA_MAX_ITERATIONS {
        let face = poly.nearest();
        let p = m.support(face.normal());
        iterations += 1;
        match poly.step(&face, p, touch) {
            Ok(Step::Converged) => {
                return Penetration::from_face(
                    poly.penetration(&face),
                    iterations,
                    Status::Converged,
                );
            }
            Ok(Step::Expanded) => {}
            Err(Refusal::Degenerate) => {
                status = Status::Degenerate;
                break;
            }
            Err(Refusal::Full) => break,
        }
    }
    let face = poly.nearest();
    Penetration::from_face(poly.penetration(&face), iterations, status)
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

impl Penetration {
    /// The penetration a polytope's face gives, with the loop's count and status.
    fn from_face(face: FacePenetration, iterations: u32, status: Status) -> Self {
        Penetration {
            depth: face.depth,
            normal: face.normal,
            point_a: face.point_a,
            point_b: face.point_b,
            iterations,
            status,
        }
    }
}
