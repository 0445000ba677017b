//! Contact manifolds: up to four contact points between two shapes, each with its
//! depth and the ids of the features it lies on, what a rigid-body solver needs to
//! hold a box on a box, and to warm-start it from the previous step.
//!
//! The normal and the depth come from [`contact`] (GJK and EPA); the points come
//! from the shapes' support features along that normal
//! ([`SupportMap::support_feature`]):
//!
//! - two polygons (box, hull and cylinder faces): the one whose normal is closer
//!   to the contact normal is the *reference* face (A's unless B's is closer by
//!   [`MANIFOLD_REFERENCE_BIAS`]), the other is clipped to its side planes and
//!   carried onto its plane along the normal;
//! - a segment (capsule core, cylinder or cone side, a card's side seen edge
//!   on, a stick) and a polygon: the segment clipped to the polygon's side
//!   planes, up to two points;
//! - two segments: the two ends of their overlap when they are parallel, else
//!   the one point where they cross;
//! - a point (a sphere's core, a needle's cap, a coin's side, a stick's end, a
//!   shape of no size): the single contact point.
//!
//! A reference face with an edge that has no normal (a cap of radius 1e-30), or
//! one of B's whose edge rounding leaves unresolved in A's frame (a small face
//! posed far from A's centre, [`MANIFOLD_EDGE_MIN_ULPS`](crate::tolerance::MANIFOLD_EDGE_MIN_ULPS)), clips to nothing.
//!
//! Points farther apart than the prediction distance are dropped, and so are
//! points deeper than the contact (beyond the tolerance; a backstop behind the
//! rule on unresolved edges); when a disc's
//! polygon left the deepest point short of the contact's (a chord inside the
//! rim), the contact's point joins them; the rest are reduced to four (`reduce.rs`): the deepest, then the largest area.
//! When nothing is left (an oblique face, two crossing edges), the manifold is the
//! contact's single point. Margins (rounded shapes, capsules, spheres) are added
//! along the normal, as the contact does.
//!
//! Each point's id ([`ContactId`]) names a feature of A and one of B: an incident
//! vertex and the reference face it lies on, an incident edge and the reference
//! edge that cut it, and so on. Ids name features of each shape alone, so they do
//! not change while the same features touch, and change when the contact moves to
//! other features, which is what a solver matches impulses by.

use glam::Vec3;

use super::clip::{ClipBuffers, CorePoint, Side, clip_polygon, clip_segment, overlap_segments};
use super::contact::{Contact, contact};
use super::reduce::reduce;
use super::status::Status;
use crate::feature::{Feature, FeatureId};
use crate::math::Pose;
use crate::support::SupportMap;
use crate::tolerance::{
    MANIFOLD_MIN_FACE_ALIGNMENT, MANIFOLD_PARALLEL_SEGMENTS_SIN, MANIFOLD_REFERENCE_BIAS,
    MANIFOLD_RELATIVE_TOLERANCE,
};

/// The pair of features a manifold point lies on, one of each shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ContactId {
    /// The feature of A.
    pub a: FeatureId,
    /// The feature of B.
    pub b: FeatureId,
}

impl ContactId {
    /// Both ids in one integer, for matching points from step to step.
    #[inline]
    pub fn key(self) -> u64 {
        (u64::from(self.a.to_bits()) << 32) | u64::from(self.b.to_bits())
    }
}

/// One point of a [`Manifold`], in world space.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ManifoldPoint {
    /// The point on A's surface.
    pub point_a: Vec3,
    /// The point on B's surface; `point_a - point_b = depth * normal`.
    pub point_b: Vec3,
    /// Penetration along the manifold's normal: positive when the shapes overlap
    /// there, negative for a gap within the prediction distance.
    pub depth: f32,
    /// The features the point lies on.
    pub id: ContactId,
}

/// Up to four contact points sharing one normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Manifold {
    /// Unit vector from A towards B (the contact's normal), world space.
    pub normal: Vec3,
    points: [ManifoldPoint; 4],
    len: u8,
    /// Support evaluations of the contact query (GJK and EPA).
    pub iterations: u32,
    /// How the contact query ended.
    pub status: Status,
}

impl Manifold {
    /// A manifold from its parts, for the paths that build manifolds outside this
    /// module (the wide twin in `gjk-simd`): the first four of `points` (the
    /// deepest first, by this module's conventions), the contact's normal, its
    /// support evaluations and how it ended.
    ///
    /// ```
    /// use gjk_core::{ContactId, Manifold, ManifoldPoint, Status};
    /// use gjk_core::glam::Vec3;
    ///
    /// let p = ManifoldPoint {
    ///     point_a: Vec3::ZERO,
    ///     point_b: Vec3::new(0.0, -0.1, 0.0),
    ///     depth: 0.1,
    ///     id: ContactId::default(),
    /// };
    /// let m = Manifold::new(Vec3::Y, &[p], 4, Status::Converged);
    /// assert_eq!((m.len(), m.max_depth()), (1, 0.1));
    /// ```
    #[inline]
    pub fn new(normal: Vec3, points: &[ManifoldPoint], iterations: u32, status: Status) -> Self {
        let mut m = Manifold {
            normal,
            points: [ManifoldPoint::default(); 4],
            len: 0,
            iterations,
            status,
        };
        for (slot, p) in m.points.iter_mut().zip(points) {
            *slot = *p;
            m.len += 1;
        }
        m
    }

    /// The points, the deepest first (the first of those within the manifold
    /// tolerance of the deepest, by feature ids, so that the order holds from step
    /// to step).
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.len as usize]
    }

    /// Number of points (1 to 4).
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the manifold has no point (never, for a manifold from this module).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The largest depth among the points.
    pub fn max_depth(&self) -> f32 {
        self.points()
            .iter()
            .map(|p| p.depth)
            .fold(f32::NEG_INFINITY, f32::max)
    }
}

/// Reusable buffers of [`manifold_from_contact`], so that a caller computing many
/// manifolds does not allocate for each.
#[derive(Debug, Default, Clone)]
pub struct ManifoldScratch {
    feature_a: Feature,
    feature_b: Feature,
    clip: ClipBuffers,
    points: Vec<CorePoint>,
}

/// The contact manifold of `a` at `pose_a` and `b` at `pose_b`, or `None` when
/// they are farther apart than `prediction` (a NaN or negative prediction counts
/// as 0). Points whose gap exceeds `prediction` are left out, so a manifold with a
/// prediction distance holds the speculative points a solver uses to stop shapes
/// before they meet.
///
/// ```
/// use gjk_core::{Cuboid, Pose, contact_manifold};
/// use gjk_core::glam::Vec3;
///
/// // A unit cube resting 0.01 deep in the top of a wider slab: its four bottom
/// // corners, each 0.01 deep, with the slab's top face below them.
/// let slab = Cuboid::new(Vec3::new(4.0, 0.5, 4.0))?;
/// let cube = Cuboid::new(Vec3::splat(0.5))?;
/// let on_top = Pose::from_translation(Vec3::new(0.3, 0.99, -0.2))?;
/// let m = contact_manifold(&slab, &Pose::IDENTITY, &cube, &on_top, 0.0).unwrap();
/// assert_eq!(m.len(), 4);
/// assert!((m.normal - Vec3::Y).length() < 1e-5);
/// for p in m.points() {
///     assert!((p.depth - 0.01).abs() < 1e-5);
///     assert!((p.point_b.y - 0.49).abs() < 1e-5);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn contact_manifold<A, B>(
    a: &A,
    pose_a: &Pose,
    b: &B,
    pose_b: &Pose,
    prediction: f32,
) -> Option<Manifold>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let c = contact(a, pose_a, b, pose_b, prediction)?;
    let mut scratch = ManifoldScratch::default();
    Some(manifold_from_contact(
        a,
        pose_a,
        b,
        pose_b,
        &c,
        prediction,
        &mut scratch,
    ))
}

/// The manifold of a pair whose contact (normal, depth and deepest points, with
/// [`contact`]'s conventions) is already known, for callers that compute contacts
/// another way (many at once). `prediction` as in [`contact_manifold`].
pub fn manifold_from_contact<A, B>(
    a: &A,
    pose_a: &Pose,
    b: &B,
    pose_b: &Pose,
    c: &Contact,
    prediction: f32,
    scratch: &mut ManifoldScratch,
) -> Manifold
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let prediction = prediction.max(0.0);
    let rel = pose_a.relative(pose_b);
    let b_to_a = rel.rotation_matrix();
    let n = pose_a.inverse_transform_vector(c.normal);
    let (ma, mb) = (a.margin(), b.margin());
    let tol = MANIFOLD_RELATIVE_TOLERANCE * (a.bounding_radius() + b.bounding_radius());

    let ManifoldScratch {
        feature_a: fa,
        feature_b: fb,
        clip,
        points,
    } = scratch;
    a.support_feature(n, fa);
    b.support_feature(b_to_a.transpose() * -n, fb);
    fb.transform(&b_to_a, rel.translation());
    points.clear();
    clip_features(fa, fb, n, tol, clip, points);
    // Points within the prediction distance (and the tolerance, so that a resting
    // point does not flicker with rounding) stay, and none deeper than the
    // contact (beyond the tolerance): along its normal the contact is as deep as
    // the shapes reach, so a deeper point could only come from a reference face
    // that rounding put out of shape in A's frame (a backstop: side_plane
    // already refuses edges too short to resolve there).
    let core_depth = c.depth - ma - mb;
    let reach = -prediction - tol - ma - mb;
    let deepest_allowed = core_depth + tol;
    points.retain(|p| {
        let d = (p.a - p.b).dot(n);
        d >= reach && d <= deepest_allowed
    });
    // Discs enter as inscribed polygons, whose chords fall short of the rim: when
    // the deepest point lies on such a chord, the contact's own point (on the rim)
    // is deeper, and joins the candidates.
    let deepest = points
        .iter()
        .map(|p| (p.a - p.b).dot(n))
        .fold(f32::NEG_INFINITY, f32::max);
    let (contact_a, contact_b) = contact_points(c, pose_a, n, ma, core_depth);
    if !points.is_empty() && deepest < core_depth - tol {
        points.push(CorePoint {
            a: contact_a,
            b: contact_b,
            id_a: fa.id(),
            id_b: fb.id(),
        });
    }
    reduce(points, n, tol);

    let mut m = Manifold {
        normal: c.normal,
        points: [ManifoldPoint::default(); 4],
        len: 0,
        iterations: c.iterations,
        status: c.status,
    };
    if points.is_empty() {
        points.push(CorePoint {
            a: contact_a,
            b: contact_b,
            id_a: fa.id(),
            id_b: fb.id(),
        });
    }
    for (slot, p) in m.points.iter_mut().zip(points.iter()) {
        *slot = ManifoldPoint {
            point_a: pose_a.transform_point(p.a + n * ma),
            point_b: pose_a.transform_point(p.b - n * mb),
            depth: (p.a - p.b).dot(n) + ma + mb,
            id: ContactId {
                a: p.id_a,
                b: p.id_b,
            },
        };
    }
    m.len = points.len().min(4) as u8;
    m
}

/// The contact's points as core points in A's frame (the margins taken off along
/// the normal): A's from the contact's point on A, B's from it and the depth
/// (`point_a - point_b = depth * normal`, the contact's own rule). Taking B's
/// from the contact's world point instead would lose the depth to the rounding
/// of world coordinates far from the origin, where the pair frame keeps it.
fn contact_points(c: &Contact, pose_a: &Pose, n: Vec3, ma: f32, core_depth: f32) -> (Vec3, Vec3) {
    let a = pose_a.inverse_transform_point(c.point_a) - n * ma;
    (a, a - n * core_depth)
}

/// The candidate points of two features (A's frame) along the normal `n`, by the
/// kinds of the features (see the module documentation); none when the features
/// leave the single contact point as the manifold.
fn clip_features(
    fa: &Feature,
    fb: &Feature,
    n: Vec3,
    tol: f32,
    clip: &mut ClipBuffers,
    out: &mut Vec<CorePoint>,
) {
    let aligned = |f: &Feature, towards: Vec3| {
        let c = f.normal().dot(towards);
        (c >= MANIFOLD_MIN_FACE_ALIGNMENT).then_some(c)
    };
    match (fa.vertices().len(), fb.vertices().len()) {
        (0 | 1, _) | (_, 0 | 1) => {}
        (2, 2) => {
            overlap_segments(fa, fb, n, MANIFOLD_PARALLEL_SEGMENTS_SIN, tol, out);
        }
        (2, _) => {
            if aligned(fb, -n).is_some() {
                clip_segment(fa, fb, n, Side::B, tol, clip, out);
            }
        }
        (_, 2) => {
            if aligned(fa, n).is_some() {
                clip_segment(fb, fa, n, Side::A, tol, clip, out);
            }
        }
        _ => match (aligned(fa, n), aligned(fb, -n)) {
            (Some(ca), Some(cb)) if cb > ca + MANIFOLD_REFERENCE_BIAS => {
                clip_polygon(fa, fb, n, Side::B, tol, clip, out)
            }
            (Some(_), _) => clip_polygon(fb, fa, n, Side::A, tol, clip, out),
            (None, Some(_)) => clip_polygon(fa, fb, n, Side::B, tol, clip, out),
            (None, None) => {}
        },
    }
}
