//! Boolean verdicts from bounding balls, before any GJK iteration.
//!
//! Every shape lies between two balls about its local origin: one inside it
//! ([`SupportMap::inner_radius`]) and one containing it
//! ([`SupportMap::bounding_radius`]). When the centres are farther apart than the
//! outer radii (plus the touch tolerance) the shapes are apart; when they are
//! closer than the inner radii, they overlap. Between the two, only GJK can tell.
//! The balls decide every ball-ball pair of the benches' standard pairs and a
//! good share of the others (`BENCHMARKS.md`), at the cost of a subtraction, a squared
//! length and two comparisons.
//!
//! When the inner balls certify an overlap they also give a point inside both
//! shapes ([`ball_overlap_point`], [`box_ball_overlap_point`]): all a distance
//! query owes an overlapping pair besides its zero distance.
//!
//! `gjk-core`'s own queries do not take this shortcut: they are the oracle the
//! shortcut is tested against. The wide batch driver of `gjk-simd` uses it to
//! keep decided pairs out of its batches.

use glam::Vec3;

use crate::math::Pose;
use crate::support::SupportMap;
use crate::tolerance::{BALL_SLACK_ULPS, BOX_BALL_SLACK_ULPS, BOX_BOX_SLACK_ULPS, TOUCH_TOLERANCE};

/// Whether the bounding balls decide the boolean query of `a` at `pose_a` and `b`
/// at `pose_b`: `Some(true)` if the shapes certainly overlap, `Some(false)` if
/// they are certainly farther apart than the touch tolerance (so that GJK would
/// answer the same), `None` if GJK must decide.
///
/// The centre distance is computed in f32 from world coordinates, so both tests
/// leave a margin for its rounding (a few ulps of the coordinates' magnitude, and
/// of the radii): a pair within that margin of either ball goes to GJK. Non-finite
/// distances (coordinates near `f32::MAX`) are never decided here. See
/// [`ball_tests`] for the same tests on precomputed radii.
///
/// ```
/// use gjk_core::glam::Vec3;
/// use gjk_core::query::bounds::ball_verdict;
/// use gjk_core::{Cuboid, Pose, Sphere};
///
/// let unit_box = Cuboid::new(Vec3::splat(1.0)).unwrap();
/// let ball = Sphere::new(0.5).unwrap();
/// let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0)).unwrap();
/// // Centres 1.2 apart: closer than the inner radii (1 + 0.5).
/// assert_eq!(ball_verdict(&unit_box, &Pose::IDENTITY, &ball, &at(1.2)), Some(true));
/// // 3 apart: farther than the outer radii (√3 + 0.5).
/// assert_eq!(ball_verdict(&unit_box, &Pose::IDENTITY, &ball, &at(3.0)), Some(false));
/// // 1.6 apart: the ball pokes into a face, or not, depending on direction.
/// assert_eq!(ball_verdict(&unit_box, &Pose::IDENTITY, &ball, &at(1.6)), None);
/// ```
#[inline]
pub fn ball_verdict<A, B>(a: &A, pose_a: &Pose, b: &B, pose_b: &Pose) -> Option<bool>
where
    A: SupportMap + ?Sized,
    B: SupportMap + ?Sized,
{
    let outer = a.bounding_radius() + b.bounding_radius();
    let inner = a.inner_radius() + b.inner_radius();
    match ball_tests(pose_a.translation(), pose_b.translation(), outer, inner) {
        (true, _) => Some(false),
        (_, true) => Some(true),
        _ => None,
    }
}

/// The two tests of [`ball_verdict`] on centres and summed radii, without
/// branches (callers deciding thousands of pairs would mispredict them):
/// `(certainly apart, certainly overlapping)`, never both.
///
/// Squared distances spare the square root: both sides of each comparison are
/// non-negative (the inner test requires `inner > slack` first).
#[inline(always)]
pub fn ball_tests(centre_a: Vec3, centre_b: Vec3, outer: f32, inner: f32) -> (bool, bool) {
    let centres_sq = (centre_b - centre_a).length_squared();
    let slack = BALL_SLACK_ULPS
        * f32::EPSILON
        * (centre_a.abs().max_element() + centre_b.abs().max_element() + outer);
    let apart_at = outer + TOUCH_TOLERANCE * outer + slack;
    verdicts(centres_sq, slack, apart_at, inner - slack)
}

/// `(apart, overlapping)` from a squared gap measure: apart beyond `apart_at`,
/// overlapping within `overlap_within` (when positive), neither when anything is
/// not finite. Without branches.
#[inline(always)]
fn verdicts(gap_sq: f32, slack: f32, apart_at: f32, overlap_within: f32) -> (bool, bool) {
    let finite = gap_sq.is_finite() & slack.is_finite();
    let apart = finite & (gap_sq > apart_at * apart_at);
    let overlap = finite & (overlap_within > 0.0) & (gap_sq < overlap_within * overlap_within);
    (apart, overlap)
}

/// [`ball_tests`] with one side a (rounded) box, which its bounding ball fits
/// loosely: the other shape's balls about `centre` are tested against the box
/// itself (half extents `half_extents`, rounding `margin`, placed at `box_pose`).
/// Apart when the box is farther from `centre` than the outer radius plus the
/// touch tolerance; overlapping when it is closer than the inner radius (or holds
/// `centre`, if the other shape holds its own origin). `(apart, overlapping)`,
/// never both, without branches.
///
/// A box's own bounding ball fits it loosely; tested against the box itself, the
/// other shape's balls decide many more pairs than the two balls alone.
#[inline(always)]
pub fn box_ball_tests(
    half_extents: Vec3,
    margin: f32,
    box_pose: &Pose,
    centre: Vec3,
    outer: f32,
    inner: f32,
) -> (bool, bool) {
    let t = box_pose.translation();
    let local = box_pose.inverse_transform_point(centre);
    let outside = local - local.clamp(-half_extents, half_extents);
    let gap_sq = outside.length_squared();
    let box_radius = half_extents.length() + margin;
    let slack = BOX_BALL_SLACK_ULPS
        * f32::EPSILON
        * (t.abs().max_element() + centre.abs().max_element() + box_radius + outer);
    let apart_at = outer + margin + TOUCH_TOLERANCE * (box_radius + outer) + slack;
    verdicts(gap_sq, slack, apart_at, inner + margin - slack)
}

/// A point inside both shapes when [`ball_tests`] certified their overlap: on the
/// segment between the centres, splitting it in proportion to the inner radii.
///
/// The centres are `d < inner_a + inner_b` apart, so the split point lies within
/// `d · inner_a / (inner_a + inner_b) < inner_a` of `centre_a` and within `inner_b`
/// of `centre_b`: inside both inner balls, hence inside both shapes. A negative
/// inner radius (a hull whose origin lies within rounding of its boundary) counts
/// as zero: the other ball then holds the first centre, which its shape holds.
/// Meaningless (possibly NaN) when the test did not certify the overlap; it is
/// computed without branches so that callers can evaluate it for every pair.
#[inline(always)]
pub fn ball_overlap_point(centre_a: Vec3, centre_b: Vec3, inner_a: f32, inner_b: f32) -> Vec3 {
    let (ra, rb) = (inner_a.max(0.0), inner_b.max(0.0));
    (centre_b - centre_a).mul_add(Vec3::splat(ra / (ra + rb)), centre_a)
}

/// A point inside both shapes when [`box_ball_tests`] certified their overlap
/// (same arguments, `inner` the other shape's inner radius): between the box's
/// point nearest `centre` and `centre`, split in proportion to the box's rounding
/// and the inner radius, so that it lies within `margin` of the box and within
/// `inner` of `centre`. When the box holds `centre`, that is `centre` itself.
/// Meaningless (possibly NaN) when the test did not certify the overlap.
#[inline(always)]
pub fn box_ball_overlap_point(
    half_extents: Vec3,
    margin: f32,
    box_pose: &Pose,
    centre: Vec3,
    inner: f32,
) -> Vec3 {
    let local = box_pose.inverse_transform_point(centre);
    let nearest = local.clamp(-half_extents, half_extents);
    let inner = inner.max(0.0);
    let split = (local - nearest).mul_add(Vec3::splat(margin / (margin + inner)), nearest);
    box_pose.transform_point(split)
}

/// Whether two boxes certainly overlap, and a point inside both: the point of
/// box A nearest B's centre, if it lies inside box B, else the point of B
/// nearest A's centre, if it lies inside A. `(overlapping, point)`; the point is
/// meaningless when the boxes are not certified.
///
/// Both boxes are convex and hold their centres, so when the boxes overlap
/// deeply one box's point nearest the other's centre usually lies in the other
/// (on the standard cuboid pairs it certifies most of the overlapping pairs,
/// many more than [`box_ball_tests`] both ways round, whose certificates it
/// includes: a point within the inner ball lies in the box). A
/// point must lie inside the other box by more than the rounding slack
/// ([`BOX_BOX_SLACK_ULPS`]), so pairs near touching are left to GJK. Rounded
/// boxes pass their cores' half extents: a rounded box holds its core.
///
/// ```
/// use gjk_core::glam::Vec3;
/// use gjk_core::query::bounds::box_box_overlap;
/// use gjk_core::Pose;
///
/// let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0)).unwrap();
/// let (big, small) = (Vec3::splat(1.0), Vec3::new(2.0, 0.1, 0.1));
/// // The cube's point nearest the bar's centre is inside the bar.
/// let (overlap, point) = box_box_overlap(big, &at(0.0), small, &at(2.5));
/// assert!(overlap);
/// assert_eq!(point, Vec3::new(1.0, 0.0, 0.0));
/// // 3.1 apart the bar's end misses the cube.
/// assert!(!box_box_overlap(big, &at(0.0), small, &at(3.1)).0);
/// ```
#[inline(always)]
pub fn box_box_overlap(
    half_extents_a: Vec3,
    pose_a: &Pose,
    half_extents_b: Vec3,
    pose_b: &Pose,
) -> (bool, Vec3) {
    let (ta, tb) = (pose_a.translation(), pose_b.translation());
    let slack = BOX_BOX_SLACK_ULPS
        * f32::EPSILON
        * (ta.abs().max_element()
            + tb.abs().max_element()
            + half_extents_a.length()
            + half_extents_b.length());
    let nearest_inside = |h: Vec3, pose: &Pose, centre: Vec3, other_h: Vec3, other: &Pose| {
        let local = pose.inverse_transform_point(centre);
        let point = pose.transform_point(local.clamp(-h, h));
        let depth = other_h - other.inverse_transform_point(point).abs();
        let inside = depth.cmpgt(Vec3::splat(slack)).all() & slack.is_finite();
        (inside, point)
    };
    let (by_a, point_a) = nearest_inside(half_extents_a, pose_a, tb, half_extents_b, pose_b);
    let (by_b, point_b) = nearest_inside(half_extents_b, pose_b, ta, half_extents_a, pose_a);
    (by_a | by_b, if by_a { point_a } else { point_b })
}
