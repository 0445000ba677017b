//! EPA on eight pairs at once: the twin of `gjk_core::query::epa`.
//!
//! Each lane expands its own polytope (`gjk_core::query::polytope`, the scalar
//! EPA's polytope and rules), from the tetrahedron GJK found around the origin;
//! the support points every lane asks for in a trip are found eight at a time. A
//! lane ends as the scalar loop does: converged (the support plane lies within
//! the EPA gap of the nearest face), at the caps, or on a refused step
//! (degenerate). A lane whose tetrahedron is flat or does not hold the origin is
//! left unresolved for the caller (the scalar EPA grows its own tetrahedron).

use std::cell::RefCell;

use gjk_core::Status;
use gjk_core::query::minkowski::SupportPoint;
use gjk_core::query::polytope::{NearestFace, Polytope, Refusal, Step};
use gjk_core::tolerance::EPA_MAX_ITERATIONS;
use glam::Vec3;
use wide::f32x8;

use super::gjk_x8::Enclosure;
use super::minkowski_x8::MinkowskiX8;
use crate::math::{MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// What EPA found for the lanes it resolved, in A's frame.
pub(crate) struct PenetrationX8 {
    /// Lanes measured here; the others of the input are left to the caller.
    pub resolved: MaskX8,
    /// Depth of the cores' overlap (at least 0).
    pub depth: f32x8,
    /// Unit normals from A towards B.
    pub normal: Vec3X8,
    /// Points of A's core deepest in B's.
    pub core_a: Vec3X8,
    /// Points of B's core deepest in A's.
    pub core_b: Vec3X8,
    /// Support evaluations per lane.
    pub iterations: f32x8,
    /// How each resolved lane's loop ended.
    pub status: [Status; 8],
}

thread_local! {
    /// Eight polytopes per thread, reused call after call: a reset keeps the
    /// storage the last use grew.
    static POLYTOPES: RefCell<Vec<Polytope>> = const { RefCell::new(Vec::new()) };
}

/// EPA on the lanes of `enclosure.lanes & lanes`, from their enclosing tetrahedra,
/// with `touch` the lanes' touch tolerance.
pub(crate) fn penetration_x8<A: SupportMapX8, B: SupportMapX8>(
    m: &MinkowskiX8<'_, A, B>,
    enclosure: &Enclosure,
    lanes: MaskX8,
    touch: f32x8,
) -> PenetrationX8 {
    // The tetrahedra and the supports are in the scaled units of `m` (see
    // `MinkowskiX8::scale`): so is the tolerance, and the answers are scaled back.
    let s = m.scale();
    let mut pen = POLYTOPES.with(|cell| {
        let mut polytopes = cell.borrow_mut();
        while polytopes.len() < 8 {
            polytopes.push(Polytope::default());
        }
        run(m, enclosure, lanes, touch * s, &mut polytopes[..8])
    });
    let unscale = f32x8::ONE / s;
    pen.depth *= unscale;
    pen.core_a = pen.core_a * unscale;
    pen.core_b = pen.core_b * unscale;
    pen
}

/// The lane loop: every trip, each active lane names its nearest face, the support
/// points along their normals are found together, and each lane either stops or
/// expands its polytope.
fn run<A: SupportMapX8, B: SupportMapX8>(
    m: &MinkowskiX8<'_, A, B>,
    enclosure: &Enclosure,
    lanes: MaskX8,
    touch: f32x8,
    polytopes: &mut [Polytope],
) -> PenetrationX8 {
    let touch = touch.to_array();
    let (w, a) = (
        enclosure.w.map(|v| v.to_array()),
        enclosure.a.map(|v| v.to_array()),
    );
    let start = (enclosure.lanes & lanes).bitmask();
    let mut active = 0u8;
    for k in (0..8).filter(|k| start >> k & 1 == 1) {
        let points: [SupportPoint; 4] = std::array::from_fn(|i| SupportPoint {
            w: w[i][k],
            a: a[i][k],
            b: a[i][k] - w[i][k],
        });
        // A tetrahedron flat within rounding has no trustworthy inside: the
        // scalar EPA grows another, so the lane is left to it.
        // (In f64, as the scalar EPA tests GJK's tetrahedron.)
        let [p0, p1, p2, p3] = points.map(|p| p.w.as_dvec3());
        let volume = (p1 - p0).dot((p2 - p0).cross(p3 - p0)).abs();
        let t = f64::from(touch[k]);
        if volume > t * t * t && polytopes[k].reset(points, touch[k]).is_ok() {
            active |= 1 << k;
        }
    }
    let resolved = active;
    let mut status = [Status::IterationLimit; 8];
    let mut iterations = [0u32; 8];
    let mut nearest: [Option<NearestFace>; 8] = [None; 8];
    while active != 0 {
        let mut dirs = [Vec3::X; 8];
        for k in (0..8).filter(|k| active >> k & 1 == 1) {
            let face = polytopes[k].nearest();
            dirs[k] = face.normal();
            nearest[k] = Some(face);
        }
        let (ws, as_) = m.support(Vec3X8::from_array(dirs), MaskX8::from_bitmask(active));
        let (ws, as_) = (ws.to_array(), as_.to_array());
        let trip = active;
        for k in (0..8).filter(|k| trip >> k & 1 == 1) {
            let Some(face) = nearest[k] else { continue };
            iterations[k] += 1;
            let p = SupportPoint {
                w: ws[k],
                a: as_[k],
                b: as_[k] - ws[k],
            };
            let end = match polytopes[k].step(&face, p, touch[k]) {
                Ok(Step::Converged) => Some(Status::Converged),
                Ok(Step::Expanded) if iterations[k] >= EPA_MAX_ITERATIONS => {
                    Some(Status::IterationLimit)
                }
                Ok(Step::Expanded) => None,
                Err(Refusal::Degenerate) => Some(Status::Degenerate),
                Err(Refusal::Full) => Some(Status::IterationLimit),
            };
            if let Some(s) = end {
                status[k] = s;
                active &= !(1 << k);
            }
        }
    }
    let mut depth = [0.0f32; 8];
    let (mut normal, mut core_a, mut core_b) = ([Vec3::X; 8], [Vec3::ZERO; 8], [Vec3::ZERO; 8]);
    for k in (0..8).filter(|k| resolved >> k & 1 == 1) {
        // Converged: the face the last trip tested; otherwise the nearest of the
        // polytope as it stands.
        let face = match (status[k], nearest[k]) {
            (Status::Converged, Some(face)) => face,
            _ => polytopes[k].nearest(),
        };
        let pen = polytopes[k].penetration(&face);
        (depth[k], normal[k], core_a[k], core_b[k]) =
            (pen.depth, pen.normal, pen.point_a, pen.point_b);
    }
    PenetrationX8 {
        resolved: MaskX8::from_bitmask(resolved),
        depth: f32x8::new(depth),
        normal: Vec3X8::from_array(normal),
        core_a: Vec3X8::from_array(core_a),
        core_b: Vec3X8::from_array(core_b),
        iterations: f32x8::new(iterations.map(|i| i as f32)),
        status,
    }
}
