//! Contact generation: signed separation along a normal, from GJK and EPA.

use glam::Vec3;

use super::epa::penetration;
use super::gjk::{Goal, dilate, run};
use super::minkowski::Minkowski;
use super::status::Status;
use crate::math::Pose;
use crate::support::SupportMap;
use crate::tolerance::TOUCH_TOLERANCE;

/// A contact between two shapes, in world space.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Penetration depth: positive when the shapes overlap, negative (a gap) when
    /// they are apart but within the prediction distance. Translating B by
    /// `depth * normal` brings the shapes to touching.
    pub depth: f32,
    /// Unit vector from A towards B.
    pub normal: Vec3,
    /// The point of A deepest in B (or closest to B when apart).
    pub point_a: Vec3,
    /// The point of B deepest in A (or closest to A when apart).
    /// `point_a - point_b = depth * normal`.
    pub point_b: Vec3,
    /// Support evaluations of GJK and EPA together.
    pub iterations: u32,
    /// How the last loop (EPA when it ran, else GJK) ended.
    pub status: Status,
}

/// The contact between `a` at `pose_a` and `b` at `pose_b`, or `None` when they are
/// farther apart than `prediction` (a NaN or negative prediction counts as 0) or
/// than f32 measures ([`MAX_OFFSET`](crate::tolerance::MAX_OFFSET)).
///
/// Separated or margin-only overlaps come straight from GJK on the cores; when the
/// cores themselves overlap, EPA measures their penetration and the margins are
/// added (exact: the dilation adds the same radius in every direction).
///
/// ```
/// use gjk_core::{Cuboid, Pose, contact};
/// use gjk_core::glam::Vec3;
///
/// // Two unit boxes (half extents 1), B 1.75 above A: 0.25 deep along +y.
/// let cube = Cuboid::new(Vec3::ONE)?;
/// let above = Pose::from_translation(Vec3::new(0.0, 1.75, 0.0)).unwrap();
/// let c = contact(&cube, &Pose::IDENTITY, &cube, &above, 0.0).expect("they overlap");
/// assert!((c.depth - 0.25).abs() < 1e-5);
/// assert!((c.normal - Vec3::Y).length() < 1e-5);
/// // Moving B by depth along the normal leaves them touching.
/// assert!((c.point_a - c.point_b - c.depth * c.normal).length() < 1e-5);
///
/// // 0.5 apart: no contact at prediction 0, a negative depth within 1.
/// let apart = Pose::from_translation(Vec3::new(0.0, 2.5, 0.0)).unwrap();
/// assert!(contact(&cube, &Pose::IDENTITY, &cube, &apart, 0.0).is_none());
/// let near = contact(&cube, &Pose::IDENTITY, &cube, &apart, 1.0).unwrap();
/// assert!((near.depth + 0.5).abs() < 1e-5);
/// # Ok::<(), gjk_core::ShapeError>(())
/// ```
pub fn contact<A, B>(a: &A, pose_a: &Pose, b: &B, pose_b: &Pose, prediction: f32) -> Option<Contact>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let prediction = prediction.max(0.0);
    let mut m = Minkowski::new(a, pose_a, b, pose_b);
    if !m.in_range() {
        return None;
    }
    let (ma, mb) = m.margins();
    let touch = TOUCH_TOLERANCE * m.scale();
    let out = run(&mut m, Goal::Distance);
    let world_point = |p: Vec3| pose_a.transform_point(p);

    if out.cores_overlap
        && let Some(pen) = penetration(&mut m, &out.simplex, touch)
    {
        let n = pen.normal;
        let (point_a, point_b) = dilate(n, pen.point_a, pen.point_b, (ma, mb));
        return Some(Contact {
            depth: pen.depth + ma + mb,
            normal: pose_a.transform_vector(n),
            point_a: world_point(point_a),
            point_b: world_point(point_b),
            iterations: out.iterations + pen.iterations,
            status: pen.status,
        });
    }
    // Apart, or within the touch tolerance of each other without a polytope
    // around the origin for EPA to start from: GJK's closest points decide.
    let core_distance = out.v.length() as f32;
    let gap = core_distance - ma - mb;
    if gap > prediction.max(touch) {
        return None;
    }
    let n = if core_distance > 0.0 {
        out.normal()
    } else {
        m.towards_b().unwrap_or(Vec3::Y)
    };
    let (core_a, core_b) = out.simplex.witnesses();
    let (point_a, point_b) = dilate(n, core_a, core_b, (ma, mb));
    Some(Contact {
        depth: -gap,
        normal: pose_a.transform_vector(n),
        point_a: world_point(point_a),
        point_b: world_point(point_b),
        iterations: out.iterations,
        status: out.status,
    })
}
