//! Box centred at the local origin.

use glam::Vec3;

use crate::error::{ShapeError, check_size};
use crate::feature::{Feature, FeatureId};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::SupportMap;

/// A box with the given half-extents, centred at the local origin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cuboid {
    half_extents: Vec3,
}

impl Cuboid {
    /// A box; every half-extent finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE). Zero extents give a rectangle, a
    /// segment or a point.
    #[inline]
    pub fn new(half_extents: Vec3) -> Result<Self, ShapeError> {
        check_size("Cuboid", "half_extents.x", half_extents.x)?;
        check_size("Cuboid", "half_extents.y", half_extents.y)?;
        check_size("Cuboid", "half_extents.z", half_extents.z)?;
        Ok(Self { half_extents })
    }

    /// The half-extents.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        self.half_extents
    }
}

/// `+1` for non-negative components, `-1` for negative ones. A zero component picks
/// the positive face: any point of the face is a valid support point, and a fixed
/// choice keeps results deterministic.
#[inline]
pub(crate) fn sign_non_negative(v: Vec3) -> Vec3 {
    Vec3::select(v.cmplt(Vec3::ZERO), Vec3::NEG_ONE, Vec3::ONE)
}

/// A face of no width is the segment it covers, and a face of no width either
/// way the point: as a polygon its coincident corners would give side planes of
/// no normal, which would clip everything and leave one point where the edge
/// touches along its length. `flat_j` and `flat_k` say which of the face's axes
/// has no extent (the first and the second axis after the face's own); the
/// segment keeps the first corner and its neighbour along the face's other axis
/// (the one with extent), and the edge between them, so a card standing on its
/// edge touches along the edge it stands on, with the ids of that edge's
/// corners.
fn collapse_flat_face(flat_j: bool, flat_k: bool, out: &mut Feature) {
    if !(flat_j || flat_k) {
        return;
    }
    let corner = |i: usize| (out.vertices()[i], out.vertex_ids()[i], out.edge_ids()[i]);
    // Corners 0 and 1 differ on j, 0 and 3 on k; edge 3 runs from 3 to 0.
    let ((p, p_id, edge_01), (q, q_id, _), (r, r_id, edge_30)) = (corner(0), corner(1), corner(3));
    match (flat_j, flat_k) {
        (true, true) => out.set_vertex(p, p_id),
        (true, false) => out.set_segment(p, r, [p_id, r_id], edge_30),
        _ => out.set_segment(p, q, [p_id, q_id], edge_01),
    }
}

impl SupportMap for Cuboid {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        self.half_extents * sign_non_negative(dir)
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        self.half_extents.length()
    }

    /// The face whose normal is closest to `dir` (the first axis of equals): it holds
    /// the support point, and the manifold keeps those of its corners that are
    /// within reach, so an edge or a corner contact comes out of the same face.
    /// Ids: corner `x + 2y + 4z` (1 for the positive side of each axis), edge
    /// `4a + s + 2t` along axis `a` (`s`, `t`: sides on the next two axes), face
    /// `2a + s`. A face of no width (a card's side, a stick's) is the segment or
    /// the point it covers, with the ids of its first corner, its neighbour and
    /// the edge between them; a box of no size is corner 7 from every direction.
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        if self.half_extents == Vec3::ZERO {
            out.set_vertex(Vec3::ZERO, FeatureId::vertex(7));
            return;
        }
        let a = dir.abs();
        let axis = if a.x >= a.y && a.x >= a.z {
            0
        } else if a.y >= a.z {
            1
        } else {
            2
        };
        let positive = dir[axis] >= 0.0;
        let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
        let mut normal = Vec3::ZERO;
        normal[axis] = if positive { 1.0 } else { -1.0 };
        out.begin_polygon(normal, FeatureId::face(2 * axis as u32 + positive as u32));
        // Counter-clockwise around +axis in the (j, k) plane, reversed for -axis.
        let mut corners = [(true, true), (false, true), (false, false), (true, false)];
        if !positive {
            corners.reverse();
        }
        let side = |b: bool| if b { 1.0 } else { -1.0 };
        // Each corner's side of the centre on each axis: its ids come from these
        // (not from its position, which is 0 on an axis of zero extent), so that
        // a box keeps its corner and edge ids however thin it is.
        let signs = corners.map(|(sj, sk)| {
            let mut s = Vec3::ZERO;
            s[axis] = normal[axis];
            s[j] = side(sj);
            s[k] = side(sk);
            s
        });
        let positive_side = |s: Vec3, i: usize| (s[i] > 0.0) as u32;
        for (c, &s) in signs.iter().enumerate() {
            let corner = positive_side(s, 0) | positive_side(s, 1) << 1 | positive_side(s, 2) << 2;
            // The edge to the next corner runs along the axis where they differ.
            let along = if s[j] != signs[(c + 1) % 4][j] { j } else { k };
            let (o1, o2) = ((along + 1) % 3, (along + 2) % 3);
            let edge = 4 * along as u32 + positive_side(s, o1) + 2 * positive_side(s, o2);
            let p = s * self.half_extents;
            out.push_polygon_vertex(p, FeatureId::vertex(corner), FeatureId::edge(edge));
        }
        collapse_flat_face(
            self.half_extents[j] == 0.0,
            self.half_extents[k] == 0.0,
            out,
        );
    }

    /// The nearest faces are those of the smallest half extent.
    #[inline]
    fn inner_radius(&self) -> f32 {
        self.half_extents.min_element()
    }

    /// The corner farthest along world axis `i` reaches `Σ_j |R_ij| h_j`.
    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        let half = pose.rotation_matrix().abs() * self.half_extents;
        Aabb::from_center_half_extents(pose.translation(), half)
    }
}
