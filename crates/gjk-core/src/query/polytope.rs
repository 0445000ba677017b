//! EPA's polytope without allocation: the faces and vertices of a convex polytope
//! inside `core(A) - core(B)`, expanded one support point at a time towards its
//! boundary.
//!
//! Storage is fixed ([`POLYTOPE_MAX_VERTICES`], [`POLYTOPE_MAX_FACES`]) and face
//! slots are reused, so a polytope costs no allocation and a wide driver can keep
//! one per lane: the expansion itself is scalar (each lane's polytope has its own
//! shape), while the support points it asks for can be found eight lanes at a
//! time. The rules are EPA's ([`crate::query::epa`]): faces are oriented by an
//! interior point, the visible region is carved by flood fill from the expanded
//! face so that its horizon is one loop, and a step whose new face would come
//! closer to the origin than the face it replaces (a rounding sliver) is refused,
//! leaving the last sound polytope.

use glam::Vec3;

use super::minkowski::SupportPoint;
use crate::tolerance::{
    EPA_RELATIVE_GAP, POLYTOPE_MAX_FACES, POLYTOPE_MAX_HORIZON, POLYTOPE_MAX_VERTICES,
};

/// Why an expansion did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The step would fold or shrink the polytope (a horizon that is not one loop,
    /// a degenerate or sliver face): the polytope is left as it was.
    Degenerate,
    /// The polytope has no room for the step.
    Full,
}

/// The nearest face of a polytope to the origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NearestFace {
    /// Its slot, for [`Polytope::expand`] and [`Polytope::penetration`].
    pub slot: usize,
    /// Its unit outward normal.
    pub normal: Vec3,
    /// Its plane's distance from the origin along the normal.
    pub distance: f32,
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

/// A convex polytope of support points around the origin (see the module docs).
#[derive(Clone)]
pub struct Polytope {
    mesh: Mesh,
    scratch: Scratch,
}

/// The polytope's points and faces.
#[derive(Clone)]
struct Mesh {
    points: [SupportPoint; POLYTOPE_MAX_VERTICES],
    point_count: usize,
    /// Per face slot: vertex indices, counter-clockwise seen from outside.
    corners: [[u8; 3]; POLYTOPE_MAX_FACES],
    /// Per face slot: `neighbours[f][k]` lies across the edge from corner `k` to
    /// corner `k + 1`.
    neighbours: [[u8; 3]; POLYTOPE_MAX_FACES],
    normals: [Vec3; POLYTOPE_MAX_FACES],
    /// Plane distances; `f32::INFINITY` marks a free slot, so the nearest-face
    /// scan needs no second test.
    distances: [f32; POLYTOPE_MAX_FACES],
    /// Slots in use or freed (`slot_count`), and how many hold faces.
    slot_count: usize,
    face_count: usize,
}

impl std::fmt::Debug for Polytope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Polytope")
            .field("points", &self.mesh.point_count)
            .field("faces", &self.mesh.face_count)
            .finish()
    }
}

/// A face's plane: the unit normal of `a, b, c` (counter-clockwise) and its
/// distance from the origin, or `None` when the triangle has no area.
fn plane(a: Vec3, b: Vec3, c: Vec3) -> Option<(Vec3, f32)> {
    let normal = (b - a).cross(c - a).try_normalize()?;
    Some((normal, normal.dot(a)))
}

impl Polytope {
    /// Storage for a polytope, with no faces yet: [`Polytope::reset`] makes it a
    /// tetrahedron. Boxed: it is a few kilobytes.
    pub fn empty() -> Box<Self> {
        Box::new(Polytope {
            mesh: Mesh {
                points: [SupportPoint::default(); POLYTOPE_MAX_VERTICES],
                point_count: 0,
                corners: [[0; 3]; POLYTOPE_MAX_FACES],
                neighbours: [[0; 3]; POLYTOPE_MAX_FACES],
                normals: [Vec3::ZERO; POLYTOPE_MAX_FACES],
                distances: [f32::INFINITY; POLYTOPE_MAX_FACES],
                slot_count: 0,
                face_count: 0,
            },
            scratch: Scratch::default(),
        })
    }

    /// The tetrahedron of four support points around the origin, each face oriented
    /// away from their centroid; `None` when a face has no area (a flat
    /// tetrahedron: EPA's caller grows another).
    pub fn tetrahedron(points: [SupportPoint; 4]) -> Option<Box<Self>> {
        let mut p = Self::empty();
        p.reset(points).then_some(p)
    }

    /// Makes this polytope the tetrahedron of `points` (reusing its storage, as a
    /// wide driver does lane after lane); `false` when a face has no area.
    pub fn reset(&mut self, points: [SupportPoint; 4]) -> bool {
        self.mesh.reset(points)
    }

    /// Support points so far.
    pub fn point_count(&self) -> usize {
        self.mesh.point_count
    }

    /// The face nearest the origin (the first of equals, by slot).
    pub fn nearest(&self) -> NearestFace {
        self.mesh.nearest()
    }

    /// Whether another expansion fits: a free vertex and room for the faces a
    /// step can add.
    pub fn has_room(&self) -> bool {
        self.mesh.has_room()
    }

    /// Expands face `face` (the nearest) towards the support point `p` found along
    /// its normal: removes the faces `p` sees, connected to `face`, and fans new
    /// faces from the horizon to `p`. `touch` is the absolute length below which
    /// two points count as one. On refusal the polytope is unchanged.
    pub fn expand(
        &mut self,
        face: &NearestFace,
        p: SupportPoint,
        touch: f32,
    ) -> Result<(), Refusal> {
        if !self.mesh.has_room() {
            return Err(Refusal::Full);
        }
        self.mesh.expand(face, p, touch, &mut self.scratch)
    }

    /// Depth, normal and witness points from face `face`: the origin's projection
    /// on it, in barycentric weights of its three support points.
    pub fn penetration(&self, face: &NearestFace) -> FacePenetration {
        self.mesh.penetration(face)
    }
}

impl Mesh {
    fn reset(&mut self, points: [SupportPoint; 4]) -> bool {
        self.points[..4].copy_from_slice(&points);
        self.point_count = 4;
        self.distances[..self.slot_count].fill(f32::INFINITY);
        self.slot_count = 0;
        self.face_count = 0;
        self.reset_tetrahedron().is_some()
    }

    fn reset_tetrahedron(&mut self) -> Option<()> {
        let w = |i: usize| self.points[i].w;
        let volume = (w(1) - w(0)).dot((w(2) - w(0)).cross(w(3) - w(0)));
        // With vertex 3 on the positive side of triangle 0, 1, 2 the faces below
        // wind counter-clockwise seen from outside; a negative volume swaps
        // vertices 1 and 2 to get there.
        if volume < 0.0 {
            self.points.swap(1, 2);
        } else if volume.is_nan() || volume == 0.0 {
            return None;
        }
        const FACES: [[u8; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        // Across each face's edge k (corner k to corner k + 1).
        const NEIGHBOURS: [[u8; 3]; 4] = [[2, 3, 1], [0, 3, 2], [1, 3, 0], [0, 2, 1]];
        for (slot, corners) in FACES.into_iter().enumerate() {
            let [a, b, c] = corners.map(|i| self.points[i as usize].w);
            let (normal, distance) = plane(a, b, c)?;
            self.corners[slot] = corners;
            self.neighbours[slot] = NEIGHBOURS[slot];
            self.normals[slot] = normal;
            self.distances[slot] = distance;
        }
        self.slot_count = 4;
        self.face_count = 4;
        Some(())
    }

    fn nearest(&self) -> NearestFace {
        let mut slot = 0;
        let mut best = f32::INFINITY;
        for (i, &d) in self.distances[..self.slot_count].iter().enumerate() {
            if d < best {
                best = d;
                slot = i;
            }
        }
        NearestFace {
            slot,
            normal: self.normals[slot],
            distance: self.distances[slot],
        }
    }

    /// A free vertex and room for the faces a step can add (a horizon rarely
    /// exceeds a dozen edges; sixteen spare).
    fn has_room(&self) -> bool {
        self.point_count < POLYTOPE_MAX_VERTICES && self.face_count + 16 <= POLYTOPE_MAX_FACES
    }

    /// [`Polytope::expand`], with the step's scratch space.
    fn expand(
        &mut self,
        face: &NearestFace,
        p: SupportPoint,
        touch: f32,
        scratch: &mut Scratch,
    ) -> Result<(), Refusal> {
        let (removed_count, horizon_count) =
            self.carve(face.slot, p.w, &mut scratch.removed, &mut scratch.horizon);
        let removed = &scratch.removed[..removed_count];
        let refuse = |this: &mut Self| {
            for &f in removed {
                this.distances[f as usize] = this.plane_distance(f as usize);
            }
            Err(Refusal::Degenerate)
        };
        if horizon_count > POLYTOPE_MAX_HORIZON || horizon_count > removed_count + self.free_slots()
        {
            return refuse(self);
        }
        let horizon = &scratch.horizon[..horizon_count];
        if !scratch.edges.link(horizon) {
            return refuse(self);
        }
        // The new polytope holds the old one, so no new face may come closer to
        // the origin than the face being expanded; one that does is a sliver
        // whose normal is rounding noise.
        let floor = face.distance - (EPA_RELATIVE_GAP * face.distance.abs() + touch);
        for (i, &(a, b, _)) in horizon.iter().enumerate() {
            match plane(self.points[a as usize].w, self.points[b as usize].w, p.w) {
                Some((n, d)) if d >= floor => scratch.planes[i] = (n, d),
                _ => {
                    scratch.edges.clear(horizon);
                    return refuse(self);
                }
            }
        }
        // Accepted: the new vertex, then one face per horizon edge, in the slots
        // the carved faces freed first.
        let new_vertex = self.point_count as u8;
        self.points[self.point_count] = p;
        self.point_count += 1;
        let mut reused = removed.iter().copied();
        for slot in scratch.slots.iter_mut().take(horizon_count) {
            *slot = reused.next().unwrap_or_else(|| {
                self.slot_count += 1;
                (self.slot_count - 1) as u8
            });
        }
        // Slots removed but not reused become free (infinite distance).
        for f in reused {
            self.distances[f as usize] = f32::INFINITY;
        }
        self.face_count = self.face_count - removed_count + horizon_count;
        for (i, &(a, b, outside)) in horizon.iter().enumerate() {
            let me = scratch.slots[i];
            // Across (a, b) the kept face; across (b, new) the new face on the
            // next horizon edge, which starts at b (and has this one across its
            // (new, b)).
            let next = scratch.slots[scratch.edges.starting_at(b)];
            let m = me as usize;
            self.corners[m] = [a, b, new_vertex];
            (self.normals[m], self.distances[m]) = scratch.planes[i];
            self.neighbours[m][0] = outside;
            self.neighbours[m][1] = next;
            self.neighbours[next as usize][2] = me;
            let kept = outside as usize;
            for k in 0..3 {
                if self.corners[kept][k] == b && self.corners[kept][(k + 1) % 3] == a {
                    self.neighbours[kept][k] = me;
                }
            }
        }
        scratch.edges.clear(horizon);
        Ok(())
    }

    /// Slots never used yet.
    fn free_slots(&self) -> usize {
        POLYTOPE_MAX_FACES - self.slot_count
    }

    /// A face's plane distance recomputed from its corners (to restore a face a
    /// refused step had marked removed).
    fn plane_distance(&self, f: usize) -> f32 {
        self.normals[f].dot(self.points[self.corners[f][0] as usize].w)
    }

    /// Marks removed the faces `p` sees, grown from `seed` across shared edges (a
    /// connected region), and lists the horizon as directed edges `(a, b, face
    /// kept across)` in the removed faces' winding. Returns the counts.
    fn carve(
        &mut self,
        seed: usize,
        p: Vec3,
        removed: &mut [u8],
        horizon: &mut [(u8, u8, u8)],
    ) -> (usize, usize) {
        self.distances[seed] = f32::INFINITY;
        removed[0] = seed as u8;
        let (mut removed_count, mut horizon_count) = (1, 0);
        let mut next = 0;
        while next < removed_count {
            let f = removed[next] as usize;
            next += 1;
            for k in 0..3 {
                let nb = self.neighbours[f][k] as usize;
                if self.distances[nb] == f32::INFINITY {
                    continue;
                }
                // Seen from `p`: beyond the face's plane.
                if self.normals[nb].dot(p) > self.distances[nb] {
                    self.distances[nb] = f32::INFINITY;
                    removed[removed_count] = nb as u8;
                    removed_count += 1;
                } else if horizon_count < horizon.len() {
                    let (a, b) = (self.corners[f][k], self.corners[f][(k + 1) % 3]);
                    horizon[horizon_count] = (a, b, nb as u8);
                    horizon_count += 1;
                } else {
                    // More horizon edges than a step can take: the count overflows
                    // the list, the loop test fails, the step is refused.
                    horizon_count = horizon.len() + 1;
                }
            }
        }
        (removed_count, horizon_count)
    }

    fn penetration(&self, face: &NearestFace) -> FacePenetration {
        let [pa, pb, pc] = self.corners[face.slot].map(|i| self.points[i as usize]);
        let q = face.normal * face.distance;
        let n = (pb.w - pa.w).cross(pc.w - pa.w);
        let nn = n.length_squared();
        let la = (pb.w - q).cross(pc.w - q).dot(n) / nn;
        let lb = (pc.w - q).cross(pa.w - q).dot(n) / nn;
        let lc = 1.0 - la - lb;
        FacePenetration {
            depth: face.distance.max(0.0),
            normal: face.normal,
            point_a: pa.a * la + pb.a * lb + pc.a * lc,
            point_b: pa.b * la + pb.b * lb + pc.b * lc,
        }
    }
}

/// Scratch space of one expansion, kept with the polytope so that a step
/// initializes nothing it does not use.
#[derive(Clone)]
struct Scratch {
    removed: [u8; POLYTOPE_MAX_FACES],
    horizon: [(u8, u8, u8); POLYTOPE_MAX_HORIZON],
    planes: [(Vec3, f32); POLYTOPE_MAX_HORIZON],
    slots: [u8; POLYTOPE_MAX_HORIZON],
    edges: HorizonEdges,
}

impl Default for Scratch {
    /// Zeroed, with no horizon edge indexed.
    fn default() -> Self {
        Scratch {
            removed: [0; POLYTOPE_MAX_FACES],
            horizon: [(0, 0, 0); POLYTOPE_MAX_HORIZON],
            planes: [(Vec3::ZERO, 0.0); POLYTOPE_MAX_HORIZON],
            slots: [0; POLYTOPE_MAX_HORIZON],
            edges: HorizonEdges {
                from: [NO_EDGE; POLYTOPE_MAX_VERTICES],
            },
        }
    }
}

/// No horizon edge starts at this vertex.
const NO_EDGE: u8 = u8::MAX;

/// The horizon's edges by their start vertex: which edge leaves each vertex,
/// [`NO_EDGE`] between steps.
#[derive(Clone)]
struct HorizonEdges {
    from: [u8; POLYTOPE_MAX_VERTICES],
}

impl HorizonEdges {
    /// Indexes `horizon` by start vertex and checks that its edges chain into one
    /// closed loop (each vertex starts at most one edge, and walking from the first
    /// edge returns to it after exactly all of them), which the fan of new faces
    /// relies on. Rounding can break it when a barely visible face is carved. On
    /// `false` the index is already cleared.
    fn link(&mut self, horizon: &[(u8, u8, u8)]) -> bool {
        let mut ok = !horizon.is_empty();
        for (i, &(a, _, _)) in horizon.iter().enumerate() {
            if self.from[a as usize] != NO_EDGE {
                ok = false;
            }
            self.from[a as usize] = i as u8;
        }
        if ok {
            let start = horizon[0].0;
            let mut at = start;
            for steps in 1..=horizon.len() {
                let edge = self.from[at as usize];
                if edge == NO_EDGE {
                    ok = false;
                    break;
                }
                at = horizon[edge as usize].1;
                if at == start {
                    ok = steps == horizon.len();
                    break;
                }
            }
            ok &= at == start;
        }
        if !ok {
            self.clear(horizon);
        }
        ok
    }

    /// The index of the edge starting at `v` (linked).
    fn starting_at(&self, v: u8) -> usize {
        self.from[v as usize] as usize
    }

    /// Back to no edges, touching only the entries `horizon` set.
    fn clear(&mut self, horizon: &[(u8, u8, u8)]) {
        for &(a, _, _) in horizon {
            self.from[a as usize] = NO_EDGE;
        }
    }
}
