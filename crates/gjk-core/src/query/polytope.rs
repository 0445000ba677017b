//! EPA's polytope: the faces and vertices of a convex polytope inside
//! `core(A) - core(B)` around the origin, expanded one support point at a time
//! towards its boundary.
//!
//! The expansion itself is scalar (each polytope has its own shape), while the
//! support points it asks for can be found eight at a time: the scalar EPA
//! ([`crate::query::epa`]) drives one polytope, gjk-simd's wide EPA one per lane,
//! each kept from call to call so that its storage is reused. The rules are the
//! same for both, so are the answers:
//! - the starting tetrahedron is oriented by the sign of its volume and every
//!   later face by its construction, never by the origin, so an origin lying on a
//!   face (touching cores) is an ordinary zero-distance face;
//! - face planes are computed in f64 from the f32 support points, so that only
//!   the points' own rounding moves them;
//! - the visible region is carved by flood fill from the expanded face, so that
//!   its horizon is one loop, and a face the new point lies on within rounding
//!   counts as seen;
//! - a step whose new face would come closer to the origin than the face it
//!   replaces (a rounding sliver), or whose support point is a vertex already (a
//!   stall), is refused and leaves the last sound polytope.

use glam::{DVec3, Vec3};
use wide::f64x4;

use super::minkowski::SupportPoint;
use crate::tolerance::{EPA_COPLANAR_ULPS, EPA_MAX_FACES, EPA_RELATIVE_GAP};

/// Why a polytope could not start from four points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartRefusal {
    /// The tetrahedron has no volume, or a face no area.
    Flat,
    /// The origin lies outside the tetrahedron by more than the tolerance: EPA
    /// has no polytope around it to expand.
    OriginOutside,
}

/// Why an expansion did not happen; the polytope is left as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Rounding spoils the step: a support point that is a vertex already, a
    /// horizon that is not one loop, a degenerate or sliver face.
    Degenerate,
    /// The polytope has no room for the step ([`EPA_MAX_FACES`]).
    Full,
}

/// What a step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The support point lies within EPA's tolerance of the face's plane: the
    /// face gives the penetration.
    Converged,
    /// The polytope grew to the support point.
    Expanded,
}

/// The nearest face of a polytope to the origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestFace {
    slot: usize,
    normal: DVec3,
    distance: f64,
}

impl NearestFace {
    /// Its unit outward normal: the direction to find the next support point in.
    #[inline]
    pub fn normal(&self) -> Vec3 {
        self.normal.as_vec3()
    }
}

/// The penetration a polytope's face gives: depth, normal and the witness points
/// on each core (A's frame, as the support points are).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FacePenetration {
    /// The face's distance from the origin (at least 0).
    pub depth: f32,
    /// The face's unit outward normal, from A towards B.
    pub normal: Vec3,
    /// The point of A's core deepest in B's.
    pub point_a: Vec3,
    /// The point of B's core deepest in A's.
    pub point_b: Vec3,
}

/// A vertex or face slot. EPA_MAX_FACES bounds both far below `u32::MAX`, and a
/// face of four-byte indices fills one cache line.
type Slot = u32;

/// No slot (an adjacency not made yet, an edge not on the horizon).
const NO_SLOT: Slot = Slot::MAX;

/// The links of the starting tetrahedron's faces, as [`Polytope::reset`] winds
/// them (`[0, c, b], [0, b, 3], [0, 3, c], [b, c, 3]`): `TETRAHEDRON_LINKS[i][k]`
/// is the face across face `i`'s edge `k`. Each edge's twin is the other face
/// holding its two vertices, which the vertex lists fix whichever way `b` and `c`
/// are assigned.
const TETRAHEDRON_LINKS: [[Slot; 3]; 4] = [[2, 3, 1], [0, 3, 2], [1, 3, 0], [0, 2, 1]];

/// An edge of a step's horizon: from vertex `a` to `b` in the removed faces'
/// winding, with the face kept across it and the index of the same edge (`b` to
/// `a`) in that face, where the new face is linked in.
#[derive(Debug, Clone, Copy)]
struct HorizonEdge {
    a: Slot,
    b: Slot,
    kept: Slot,
    twin: u8,
}

#[derive(Debug, Clone, Copy)]
struct Face {
    v: [Slot; 3],
    /// `adj[k]`: the face across the edge from `v[k]` to `v[(k + 1) % 3]`.
    adj: [Slot; 3],
    /// Unit normal and distance from the origin, in f64: computed from the f32
    /// support points exactly enough that only the points' own rounding moves
    /// them (an f32 cross product of a small face's edges would add its own).
    normal: DVec3,
    distance: f64,
}

/// A convex polytope of support points around the origin (see the module docs).
/// Its vectors keep their capacity across [`Polytope::reset`].
#[derive(Debug, Clone, Default)]
pub struct Polytope {
    verts: Vec<SupportPoint>,
    faces: Vec<Face>,
    /// By face slot: the face's distance while it is on the polytope, infinity
    /// once removed. The search for the nearest face, run at every step, scans
    /// these eight bytes a face rather than the faces.
    live: Vec<f64>,
    /// Slots of removed faces, reused by later ones.
    free: Vec<Slot>,
    /// A step's scratch: the faces it removed, its horizon, the faces it adds.
    removed: Vec<Slot>,
    horizon: Vec<HorizonEdge>,
    added: Vec<Face>,
    /// For each horizon edge, the edge that follows it around the loop.
    following: Vec<Slot>,
    /// By vertex: the horizon edge that starts there, or [`NO_SLOT`] (kept all
    /// [`NO_SLOT`] between steps).
    edge_from: Vec<Slot>,
}

/// EPA's stopping gap at depth `depth`: relative, plus the touch floor.
pub(crate) fn tolerance(depth: f64, touch: f32) -> f64 {
    f64::from(EPA_RELATIVE_GAP) * depth + f64::from(touch)
}

/// Six times the signed volume of the tetrahedron `points`.
pub(crate) fn volume6(points: &[SupportPoint]) -> f64 {
    let [a, b, c, d] = [0, 1, 2, 3].map(|i| points[i].w.as_dvec3());
    (b - a).dot((c - a).cross(d - a))
}

impl Polytope {
    /// Makes this polytope the tetrahedron of `points` (reusing its storage),
    /// wound outward by the sign of its volume so that every edge meets its twin.
    /// `touch` is the absolute length below which two points count as one.
    pub fn reset(&mut self, points: [SupportPoint; 4], touch: f32) -> Result<(), StartRefusal> {
        self.verts.clear();
        self.faces.clear();
        self.live.clear();
        self.free.clear();
        self.verts.extend_from_slice(&points);
        let volume = volume6(&points);
        if !(volume.is_finite() && volume != 0.0) {
            return Err(StartRefusal::Flat);
        }
        // With a positive volume, d lies on the side of (a, b, c)'s normal: that
        // face and the three others are wound so that their normals point away
        // from the fourth vertex. A negative volume swaps two vertices.
        let (b, c) = if volume > 0.0 { (1, 2) } else { (2, 1) };
        let tris: [[Slot; 3]; 4] = [[0, c, b], [0, b, 3], [0, 3, c], [b, c, 3]];
        let planes = face_planes(&self.verts, &tris);
        for ((v, adj), plane) in tris.into_iter().zip(TETRAHEDRON_LINKS).zip(planes) {
            let (normal, distance) = plane.ok_or(StartRefusal::Flat)?;
            self.live.push(distance);
            self.faces.push(Face {
                v,
                adj,
                normal,
                distance,
            });
        }
        if self
            .faces
            .iter()
            .any(|f| f.distance < -tolerance(0.0, touch))
        {
            return Err(StartRefusal::OriginOutside);
        }
        Ok(())
    }

    /// The face nearest the origin (the first of equals, by slot).
    pub fn nearest(&self) -> NearestFace {
        // A polytope always has live faces: a step removes faces only as it adds
        // others.
        let slot = first_smallest(&self.live).unwrap_or(self.faces.len() - 1);
        let f = &self.faces[slot];
        NearestFace {
            slot,
            normal: f.normal,
            distance: f.distance,
        }
    }

    /// One step of EPA on face `face` (the nearest), with `p` the support point of
    /// `core(A) - core(B)` along its normal: either `p` lies within the tolerance
    /// of the face's plane ([`Step::Converged`]), or the faces `p` sees, connected
    /// to `face`, are removed and new faces fanned from the horizon to `p`.
    /// `touch` is the absolute length below which two points count as one.
    pub fn step(
        &mut self,
        face: &NearestFace,
        p: SupportPoint,
        touch: f32,
    ) -> Result<Step, Refusal> {
        // The polytope lies inside `A - B`, so no direction is shallower than the
        // nearest face; along its normal, `A - B` reaches `p`.
        let gap = p.w.as_dvec3().dot(face.normal) - face.distance;
        if gap <= tolerance(face.distance, touch) {
            return Ok(Step::Converged);
        }
        if self.has_vertex_within(p.w, touch) {
            // The support point is a vertex already: rounding has stalled the
            // expansion short of the tolerance.
            return Err(Refusal::Degenerate);
        }
        self.carve_visible(face.slot, p.w);
        let (faces, horizon, free, removed) = (
            self.faces.len(),
            self.horizon.len(),
            self.free.len(),
            self.removed.len(),
        );
        if faces + horizon > EPA_MAX_FACES + free + removed {
            self.restore();
            return Err(Refusal::Full);
        }
        if !self.chain_horizon() {
            self.restore();
            return Err(Refusal::Degenerate);
        }
        // The new polytope contains the old one, so no new face may come closer
        // to the origin than the face being expanded. One that does is a sliver
        // whose normal is rounding noise (it happens near convergence on curved
        // cores, where the new point barely clears nearly coplanar faces): keep
        // the last sound polytope instead.
        let floor = face.distance - tolerance(face.distance.abs(), touch);
        let new_vertex = self.verts.len() as Slot;
        self.verts.push(p);
        self.added.clear();
        let (verts, added) = (&self.verts, &mut self.added);
        // Four faces' planes at a time: their square roots and divisions, the
        // step's longest latencies, then overlap (a short last chunk repeats its
        // last edge).
        let sound = self.horizon.chunks(4).all(|edges| {
            let tri = |i: usize| {
                let e = &edges[i.min(edges.len() - 1)];
                [e.a, e.b, new_vertex]
            };
            let planes = face_planes(verts, &[tri(0), tri(1), tri(2), tri(3)]);
            edges.iter().zip(planes).all(|(e, plane)| match plane {
                Some((normal, distance)) if distance >= floor => {
                    added.push(Face {
                        v: [e.a, e.b, new_vertex],
                        adj: [e.kept, NO_SLOT, NO_SLOT],
                        normal,
                        distance,
                    });
                    true
                }
                _ => false,
            })
        });
        if !sound {
            self.restore();
            self.verts.pop();
            return Err(Refusal::Degenerate);
        }
        self.stitch();
        Ok(Step::Expanded)
    }

    /// Depth, normal and witness points from face `face`: the origin's projection
    /// on it, in barycentric weights of its three support points.
    pub fn penetration(&self, face: &NearestFace) -> FacePenetration {
        let f = &self.faces[face.slot];
        let [pa, pb, pc] = f.v.map(|i| self.verts[i as usize]);
        let [wa, wb, wc] = [pa.w, pb.w, pc.w].map(|w| w.as_dvec3());
        let q = f.normal * f.distance;
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
        let depth = f.distance.max(0.0);
        let point_a = pa.a.as_dvec3() * la + pb.a.as_dvec3() * lb + pc.a.as_dvec3() * lc;
        FacePenetration {
            depth: depth as f32,
            normal: f.normal.as_vec3(),
            point_a: point_a.as_vec3(),
            point_b: (point_a - f.normal * depth).as_vec3(),
        }
    }

    /// Removes the faces that `p` sees, grown from `seed` across shared edges so
    /// that the removed region is connected (a disc on a convex polytope), and
    /// collects its boundary, the horizon, in the removed faces' winding. Testing
    /// every face independently instead can remove a disconnected, barely visible
    /// face and leave a horizon that is not one loop, which folds the polytope.
    ///
    /// A face that `p` lies on, within the rounding of the test, counts as seen:
    /// on boxes and hulls the support point often lands in the plane of a
    /// neighbouring face (the corner beyond a face-centre vertex), and keeping
    /// that face would join it to `p` by a triangle of no area.
    fn carve_visible(&mut self, seed: usize, p: Vec3) {
        let (faces, live) = (&self.faces, &mut self.live);
        let (removed, horizon) = (&mut self.removed, &mut self.horizon);
        removed.clear();
        horizon.clear();
        live[seed] = f64::INFINITY;
        removed.push(seed as Slot);
        let (p_abs, p64) = (p.abs(), p.as_dvec3());
        // Each face is pushed at most once (it is marked removed when pushed).
        let mut next = 0;
        while next < removed.len() {
            let fi = removed[next] as usize;
            next += 1;
            let (fv, fadj) = (faces[fi].v, faces[fi].adj);
            for k in 0..3 {
                let nb = fadj[k];
                if live[nb as usize] == f64::INFINITY {
                    continue;
                }
                let g = &faces[nb as usize];
                let v0 = self.verts[g.v[0] as usize].w;
                let slack =
                    EPA_COPLANAR_ULPS * f64::EPSILON * f64::from(p_abs.max(v0.abs()).max_element());
                if g.normal.dot(p64 - v0.as_dvec3()) > -slack {
                    live[nb as usize] = f64::INFINITY;
                    removed.push(nb);
                } else {
                    // The kept face links back across the same edge (links are
                    // made in pairs, so the search always finds it).
                    let twin = g.adj.iter().position(|&f| f == fi as Slot);
                    debug_assert!(twin.is_some(), "a kept face links back");
                    horizon.push(HorizonEdge {
                        a: fv[k],
                        b: fv[(k + 1) % 3],
                        kept: nb,
                        twin: twin.unwrap_or(0) as u8,
                    });
                }
            }
        }
    }

    /// Whether the horizon edges chain into one closed loop (no two start at one
    /// vertex, and following each edge's end to the edge starting there comes
    /// back to the first after all of them), which the stitching relies on; on
    /// success `following` holds each edge's successor. Rounding can break the
    /// loop when a barely visible face is carved; the step is then refused.
    fn chain_horizon(&mut self) -> bool {
        let (horizon, edge_from) = (&self.horizon, &mut self.edge_from);
        if edge_from.len() < self.verts.len() {
            edge_from.resize(self.verts.len(), NO_SLOT);
        }
        let mut distinct = true;
        for (i, e) in horizon.iter().enumerate() {
            distinct &= edge_from[e.a as usize] == NO_SLOT;
            edge_from[e.a as usize] = i as Slot;
        }
        self.following.clear();
        self.following
            .extend(horizon.iter().map(|e| edge_from[e.b as usize]));
        for e in horizon {
            edge_from[e.a as usize] = NO_SLOT;
        }
        if !distinct || horizon.is_empty() {
            return false;
        }
        // No two edges share a start, so the walk from the first edge either
        // breaks off, runs into a cycle without it (caught by the count), or
        // closes: one loop exactly when it closes after every edge.
        let (mut at, mut steps) = (0, 0);
        loop {
            at = self.following[at as usize];
            steps += 1;
            if at == NO_SLOT || steps > horizon.len() {
                return false;
            }
            if at == 0 {
                return steps == horizon.len();
            }
        }
    }

    /// Whether a vertex lies within `touch` of `p` (`distance <= touch`, rounded
    /// as f32). The squared distances are screened against a bound in f64 that
    /// every such vertex meets (an f32 square root at most `touch` comes from a
    /// square at most `touch^2 (1 + 2^-23)`), so that the root is taken only
    /// for the rare vertex near the bound and the answer is the same.
    fn has_vertex_within(&self, p: Vec3, touch: f32) -> bool {
        let bound = {
            let t = f64::from(touch) * (1.0 + f64::from(f32::EPSILON));
            t * t
        };
        self.verts.iter().any(|v| {
            let d2 = v.w.distance_squared(p);
            f64::from(d2) <= bound && d2.sqrt() <= touch
        })
    }

    /// Brings back the faces a refused step removed.
    fn restore(&mut self) {
        for &f in &self.removed {
            self.live[f as usize] = self.faces[f as usize].distance;
        }
    }

    /// Places the new faces (one per horizon edge, all sharing the new vertex) in
    /// the removed faces' slots and then at the end, and links them: to the kept
    /// face across their horizon edge, and to each other around the new vertex.
    fn stitch(&mut self) {
        let h = self.horizon.len();
        self.free.extend_from_slice(&self.removed);
        // The new faces' slots, kept in `removed` (no longer needed as such): free
        // slots last in, first out, then fresh ones past the end, in order.
        let reused = self.free.len().min(h);
        let kept_free = self.free.len() - reused;
        let slots = &mut self.removed;
        slots.clear();
        slots.extend(self.free[kept_free..].iter().rev());
        self.free.truncate(kept_free);
        slots.extend((self.faces.len()..self.faces.len() + h - reused).map(|i| i as Slot));
        let (slots, added) = (&slots[..h], &mut self.added[..h]);
        // `chain_horizon` has checked that the edges form one loop.
        for (i, &after) in self.following[..h].iter().enumerate() {
            let after = after as usize;
            added[i].adj[1] = slots[after];
            added[after].adj[2] = slots[i];
        }
        for (e, &slot) in self.horizon.iter().zip(slots) {
            self.faces[e.kept as usize].adj[usize::from(e.twin)] = slot;
        }
        for (&slot, face) in slots[..reused].iter().zip(&*added) {
            self.faces[slot as usize] = *face;
            self.live[slot as usize] = face.distance;
        }
        self.faces.extend_from_slice(&added[reused..]);
        for face in &added[reused..] {
            self.live.push(face.distance);
        }
        self.removed.clear();
    }
}

/// The planes of four triangles, each given by its vertex slots (`[a, b, c]`,
/// counter-clockwise seen from outside): each unit outward normal and its
/// distance from the origin, or `None` for a triangle whose normal cannot be
/// normalised (no area, or a cross product beyond f64's range).
#[inline(always)]
fn face_planes(verts: &[SupportPoint], tris: &[[Slot; 3]; 4]) -> [Option<(DVec3, f64)>; 4] {
    let corners = |[a, b, c]: [Slot; 3]| {
        [
            verts[a as usize].w,
            verts[b as usize].w,
            verts[c as usize].w,
        ]
    };
    planes4(&[
        corners(tris[0]),
        corners(tris[1]),
        corners(tris[2]),
        corners(tris[3]),
    ])
}

/// The planes of four triangles given by their corners, as [`face_planes`]:
/// computed in f64 from the f32 corners, which it holds exactly, so that only
/// the corners' own rounding moves a plane (an f32 cross product of a small
/// face's edges would add its own), and four at a time, each lane rounded as
/// glam's `(b - a).cross(c - a)`, `try_normalize` and `dot(a)` round it.
#[inline(always)]
fn planes4(tris: &[[Vec3; 3]; 4]) -> [Option<(DVec3, f64)>; 4] {
    let [ax, ay, az] = [column(tris, 0, 0), column(tris, 0, 1), column(tris, 0, 2)];
    let [bx, by, bz] = [column(tris, 1, 0), column(tris, 1, 1), column(tris, 1, 2)];
    let [cx, cy, cz] = [column(tris, 2, 0), column(tris, 2, 1), column(tris, 2, 2)];
    let (ux, uy, uz) = (bx - ax, by - ay, bz - az);
    let (vx, vy, vz) = (cx - ax, cy - ay, cz - az);
    let nx = uy * vz - vy * uz;
    let ny = uz * vx - vz * ux;
    let nz = ux * vy - vx * uy;
    let rcp = f64x4::ONE / ((nx * nx + ny * ny) + nz * nz).sqrt();
    let (nx, ny, nz) = (nx * rcp, ny * rcp, nz * rcp);
    let d = ((nx * ax + ny * ay) + nz * az).to_array();
    let (nx, ny, nz, rcp) = (nx.to_array(), ny.to_array(), nz.to_array(), rcp.to_array());
    let plane = |i: usize| {
        (rcp[i].is_finite() && rcp[i] > 0.0).then(|| (DVec3::new(nx[i], ny[i], nz[i]), d[i]))
    };
    [plane(0), plane(1), plane(2), plane(3)]
}

/// The first slot of `live` holding its smallest value, or `None` when every
/// value is infinite (removed faces). Live distances are finite, never NaN (a
/// unit normal, which `face_planes` checks, dotted with an f32 corner taken to
/// f64, which cannot overflow), so the smallest value is the same whichever
/// way the minimum is taken, and `==` finds its first slot, the one a scan
/// keeping only strictly smaller values ends on (0 and -0 compare equal both
/// ways). The minimum is taken four slots at a time, which a scan's chain of
/// compare-and-keep, one slot after another over every face at every step,
/// cannot be.
fn first_smallest(live: &[f64]) -> Option<usize> {
    let (chunks, tail) = live.as_chunks::<4>();
    let low = chunks.iter().fold(f64x4::splat(f64::INFINITY), |low, c| {
        low.fast_min(f64x4::new(*c))
    });
    let smallest = low
        .to_array()
        .into_iter()
        .chain(tail.iter().copied())
        .fold(f64::INFINITY, f64::min);
    if smallest == f64::INFINITY {
        return None;
    }
    let target = f64x4::splat(smallest);
    for (c, chunk) in chunks.iter().enumerate() {
        let hits = f64x4::new(*chunk).simd_eq(target).to_bitmask();
        if hits != 0 {
            return Some(4 * c + hits.trailing_zeros() as usize);
        }
    }
    let rest = tail.iter().position(|&d| d == smallest)?;
    Some(4 * chunks.len() + rest)
}

/// Coordinate `axis` of corner `corner` of four triangles, in f64.
#[inline(always)]
fn column(tris: &[[Vec3; 3]; 4], corner: usize, axis: usize) -> f64x4 {
    f64x4::new([
        f64::from(tris[0][corner][axis]),
        f64::from(tris[1][corner][axis]),
        f64::from(tris[2][corner][axis]),
        f64::from(tris[3][corner][axis]),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(w: Vec3) -> SupportPoint {
        SupportPoint {
            w,
            a: w,
            b: Vec3::ZERO,
        }
    }

    /// Every live face's edge `k` leads to a live face that holds the same edge
    /// reversed and links back across it.
    fn assert_linked(p: &Polytope) {
        for (i, f) in p.faces.iter().enumerate() {
            if p.live[i] == f64::INFINITY {
                continue;
            }
            for k in 0..3 {
                let (a, b) = (f.v[k], f.v[(k + 1) % 3]);
                let j = f.adj[k] as usize;
                assert!(
                    p.live[j] < f64::INFINITY,
                    "face {i} edge {k} links to removed {j}"
                );
                let g = &p.faces[j];
                let m = (0..3)
                    .find(|&m| g.v[m] == b && g.v[(m + 1) % 3] == a)
                    .unwrap_or_else(|| panic!("face {j} lacks face {i}'s edge {k} reversed"));
                assert_eq!(
                    g.adj[m] as usize, i,
                    "face {j} edge {m} does not link back to {i}"
                );
            }
        }
    }

    /// glam's scalar plane of one triangle, which [`planes4`] must round as,
    /// lane by lane.
    fn glam_plane([a, b, c]: [Vec3; 3]) -> Option<(DVec3, f64)> {
        let [a, b, c] = [a, b, c].map(Vec3::as_dvec3);
        let normal = (b - a).cross(c - a).try_normalize()?;
        Some((normal, normal.dot(a)))
    }

    #[test]
    fn face_planes_round_as_glam_lane_by_lane() {
        use rand::{Rng, SeedableRng};
        let seed = 0x5eed_f4ce;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut random = |scale: f32| {
            Vec3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ) * scale
        };
        let mut tris = Vec::new();
        for scale in [1e-30, 1e-6, 1.0, 1e4, 1e30, f32::MAX] {
            for _ in 0..64 {
                tris.push([random(scale), random(scale), random(scale)]);
            }
            // No area: a repeated corner, three collinear corners, one point.
            let (p, q) = (random(scale), random(scale));
            tris.push([p, p, q]);
            tris.push([p, (p + q) * 0.5, q]);
            tris.push([p, p, p]);
        }
        // Nearly flat: the apex a hair off the base's line.
        let (p, q) = (random(1.0), random(1.0));
        tris.push([p, q, q + Vec3::splat(f32::EPSILON)]);
        let mut none = 0;
        for (i, chunk) in tris.chunks(4).enumerate() {
            let four: [[Vec3; 3]; 4] = std::array::from_fn(|k| chunk[k.min(chunk.len() - 1)]);
            for (k, (tri, got)) in four.iter().zip(planes4(&four)).enumerate() {
                let want = glam_plane(*tri);
                none += usize::from(want.is_none());
                let bits =
                    |p: Option<(DVec3, f64)>| p.map(|(n, d)| [n.x, n.y, n.z, d].map(f64::to_bits));
                assert_eq!(
                    bits(got),
                    bits(want),
                    "seed {seed:#x}, chunk {i} lane {k}: triangle {tri:?}"
                );
            }
        }
        assert!(none >= 12, "the degenerate triangles were tested ({none})");
    }

    #[test]
    fn links_are_twins_from_the_start_and_after_steps() {
        let corners = [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::ONE].map(point);
        // Both windings of the start (the sign of the volume swaps two vertices).
        for points in [corners, [corners[0], corners[2], corners[1], corners[3]]] {
            let mut p = Polytope::default();
            p.reset(points, 1e-6).unwrap();
            assert_linked(&p);
            // Expand towards a box around the origin, which has corners beyond
            // every face: each step carves and stitches.
            let support = |n: Vec3| point(Vec3::new(2.0, 1.5, 1.0) * n.signum());
            let mut expanded = 0;
            for step in 0..12 {
                let face = p.nearest();
                match p.step(&face, support(face.normal()), 1e-6) {
                    Ok(Step::Expanded) => {
                        expanded += 1;
                        assert_linked(&p);
                    }
                    Ok(Step::Converged) => break,
                    Err(e) => panic!("step {step} refused: {e:?}"),
                }
            }
            assert!(expanded >= 4, "only {expanded} steps");
        }
    }

    /// The scan `first_smallest` stands for: keep a slot only when it is
    /// strictly nearer than the best so far.
    fn first_smallest_by_scan(live: &[f64]) -> Option<usize> {
        let mut best = None;
        let mut best_d = f64::INFINITY;
        for (i, &d) in live.iter().enumerate() {
            if d < best_d {
                (best, best_d) = (Some(i), d);
            }
        }
        best
    }

    #[test]
    fn first_smallest_is_the_scan_s_slot() {
        use rand::{Rng, SeedableRng};
        let seed = 0x5eed_1ea5;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        // Few distinct values, so that ties and removed slots are common; every
        // length from empty past several chunks of four and a tail.
        let values = [
            f64::INFINITY,
            0.0,
            -0.0,
            1e-300,
            0.5,
            1.0,
            1.0 + f64::EPSILON,
            2.0,
        ];
        for case in 0..20_000 {
            let len = case % 41;
            let live: Vec<f64> = (0..len)
                .map(|_| values[rng.random_range(0..values.len())])
                .collect();
            assert_eq!(
                first_smallest(&live),
                first_smallest_by_scan(&live),
                "seed {seed:#x}, case {case}: {live:?}"
            );
        }
        assert_eq!(first_smallest(&[]), None);
        assert_eq!(first_smallest(&[f64::INFINITY; 9]), None);
        assert_eq!(
            first_smallest(&[3.0, 2.0, 1.0, 1.0, 0.0, 0.0, -0.0, 1.0, 0.0]),
            Some(4)
        );
        assert_eq!(
            first_smallest(&[3.0, 2.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 1.0]),
            Some(2)
        );
    }
}
