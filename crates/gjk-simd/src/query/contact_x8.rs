//! Contact on eight pairs at once: `contact_x8`, the twin of `gjk_core::contact`.
//!
//! The cores first meet GJK (`gjk_x8::closest_cores`): where they are apart the
//! contact comes from their closest points, the margins subtracted (a speculative
//! contact within the prediction distance, a margin-only overlap, or nothing).
//! Where the cores overlap, their penetration is measured by the best method the
//! kinds allow:
//!
//! * two box cores: the fifteen separating axes give the depth and normal
//!   exactly (`separating_axes_x8::box_cores_penetration_x8`), and one GJK run on
//!   the pair moved apart along that normal gives the witness points and checks
//!   the depth: B moved out by the depth plus a small gap must sit that gap away;
//! * every other pair, and any box lane the check refuses or whose cores the
//!   axes find apart and GJK overlapping (a pair within rounding of touching):
//!   `gjk_core`'s own GJK and EPA on that lane (`LaneOf` is the scalar view of
//!   one lane), so the answer is the reference's by construction.
//!
//! Whatever path a lane takes, its result depends on its own inputs only.

use gjk_core::tolerance::{EPA_RELATIVE_GAP, TOUCH_TOLERANCE, WITNESS_GAP_TOUCHES_X8};
use gjk_core::{Contact, CoreSymmetry, Pose, Status};
use glam::Vec3;
use wide::f32x8;

use super::epa_x8::penetration_x8;
use super::gjk_x8::{CoreClosest, closest_cores, iteration_counts};
use super::minkowski_x8::MinkowskiX8;
use super::separating_axes_x8::box_cores_penetration_x8;
use crate::math::{CmpX8, MaskX8, PoseX8, Vec3X8};
use crate::support_x8::{LaneOf, SupportMapX8};

/// What [`contact_x8`] found, per lane, in world space with the conventions of
/// [`gjk_core::Contact`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactX8 {
    /// Lanes with a contact: shapes overlapping, touching, or apart by at most the
    /// prediction distance; and invalid lanes, whose fields are NaN with status
    /// [`Status::InvalidInput`] so that bad input is never mistaken for "no
    /// contact".
    pub in_contact: MaskX8,
    /// Penetration depth: positive for overlap, negative (a gap) for a speculative
    /// contact.
    pub depth: f32x8,
    /// Unit normals from A towards B.
    pub normal: Vec3X8,
    /// The points of A deepest in B (closest to B when apart).
    pub point_a: Vec3X8,
    /// The points of B deepest in A; `point_a - point_b = depth * normal`.
    pub point_b: Vec3X8,
    /// Support evaluations per lane.
    pub iterations: [u32; 8],
    /// How each lane's last loop ended.
    pub status: [Status; 8],
}

impl ContactX8 {
    /// Lane `i` as a scalar contact, `None` where the shapes are farther apart than
    /// the prediction distance.
    #[inline]
    pub fn lane(&self, i: usize) -> Option<Contact> {
        self.in_contact.lane(i).then(|| Contact {
            depth: self.depth.as_array()[i],
            normal: self.normal.lane(i),
            point_a: self.point_a.lane(i),
            point_b: self.point_b.lane(i),
            iterations: self.iterations[i],
            status: self.status[i],
        })
    }
}

/// How far apart a lane's shapes may be and still be in contact: the
/// prediction distance (a NaN or negative one counts as 0), or the touch
/// tolerance of the pair's size where that is larger. A lane is in contact
/// exactly when its depth is at least `-contact_reach`.
#[inline(always)]
pub(crate) fn contact_reach<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    b: &B,
    prediction: f32x8,
) -> f32x8 {
    let touch = f32x8::splat(TOUCH_TOLERANCE) * (a.bounding_radius() + b.bounding_radius());
    let prediction = prediction.ge(f32x8::ZERO).select(prediction, f32x8::ZERO);
    prediction.fast_max(touch)
}

/// The contact between `a` at `pose_a` and `b` at `pose_b` for the lanes of
/// `lanes` (other lanes report [`Status::InvalidInput`]), `None`-lanes (outside
/// `in_contact`) where the shapes are farther apart than `prediction` (a NaN or
/// negative prediction counts as 0), with the conventions of
/// [`gjk_core::contact`]. See the module docs for how each kind pair is measured.
pub fn contact_x8<A: SupportMapX8, B: SupportMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    prediction: f32x8,
    lanes: MaskX8,
) -> ContactX8 {
    let (m, valid) = MinkowskiX8::new(a, pose_a, b, pose_b, lanes);
    let scale = a.bounding_radius() + b.bounding_radius();
    let touch = f32x8::splat(TOUCH_TOLERANCE) * scale;
    let reach = contact_reach(a, b, prediction);
    let margins = (a.margin(), b.margin());

    let mut local = match (a.box_core(), b.box_core()) {
        (Some(ha), Some(hb)) => box_contact(&m, ha, hb, valid, (scale, touch), reach, margins),
        _ => gjk_contact(&m, valid, (scale, touch), reach, margins),
    };
    if local.unresolved.any() {
        resolve_on_lanes(&mut local, a, pose_a, b, pose_b, prediction);
    }
    finish_contact(&local, Some(pose_a), valid)
}

/// A contact in A's frame, before it is moved to world space; `unresolved` lanes
/// still need their penetration measured.
pub(crate) struct LocalContact {
    pub in_contact: MaskX8,
    pub unresolved: MaskX8,
    pub depth: f32x8,
    pub normal: Vec3X8,
    pub point_a: Vec3X8,
    pub point_b: Vec3X8,
    pub iterations: f32x8,
    pub status: [Status; 8],
}

/// The contact of lanes whose cores GJK found apart (`cores` from
/// `closest_cores`): the gap between the cores less the margins, the witnesses
/// pushed out along the normal by each margin. Lanes farther apart than `reach`
/// have no contact.
#[inline(always)]
pub(crate) fn from_closest_cores(
    cores: &CoreClosest,
    apart: MaskX8,
    reach: f32x8,
    (ma, mb): (f32x8, f32x8),
) -> (MaskX8, f32x8, Vec3X8, Vec3X8, Vec3X8) {
    let gap = cores.core_distance - ma - mb;
    let n = -cores.v * (f32x8::ONE / cores.core_distance);
    let in_contact = apart & gap.le(reach);
    (
        in_contact,
        -gap,
        n,
        n.mul_add(ma, cores.core_a),
        (-n).mul_add(mb, cores.core_b),
    )
}

/// The general path: GJK on the cores, then EPA on the lanes whose cores overlap
/// inside a tetrahedron; the other overlapping lanes are left unresolved.
/// `scale` is the pairs' size (the sum of the bounding radii), `touch` its touch
/// tolerance.
#[inline(always)]
fn gjk_contact<A: SupportMapX8, B: SupportMapX8>(
    m: &MinkowskiX8<'_, A, B>,
    valid: MaskX8,
    (scale, touch): (f32x8, f32x8),
    reach: f32x8,
    margins: (f32x8, f32x8),
) -> LocalContact {
    let gjk = closest_cores(m, valid, touch);
    let unresolved = valid & gjk.without_closest_points(scale);
    let apart = valid.and_not(unresolved);
    let (in_contact, depth, normal, point_a, point_b) =
        from_closest_cores(&gjk.cores, apart, reach, margins);
    let mut contact = LocalContact {
        in_contact,
        unresolved,
        depth,
        normal,
        point_a,
        point_b,
        iterations: gjk.iterations,
        status: gjk.status,
    };
    if contact.unresolved.any() {
        // Coaxial solids of revolution stay unresolved: the scalar query measures
        // them in their axial plane (`gjk_core::query::epa_axial`).
        let polytope_lanes = contact.unresolved.and_not(axial_lanes(m, scale, touch));
        let pen = penetration_x8(m, &gjk.enclosure, polytope_lanes, touch);
        let done = pen.resolved;
        let (ma, mb) = margins;
        let n = pen.normal;
        contact.in_contact |= done;
        contact.unresolved = contact.unresolved.and_not(done);
        contact.depth = done.select(pen.depth + ma + mb, contact.depth);
        contact.normal = done.select(n, contact.normal);
        contact.point_a = done.select(n.mul_add(ma, pen.core_a), contact.point_a);
        contact.point_b = done.select((-n).mul_add(mb, pen.core_b), contact.point_b);
        contact.iterations = done.select(contact.iterations + pen.iterations, contact.iterations);
        let bits = done.bitmask();
        for (k, s) in contact.status.iter_mut().enumerate() {
            if bits >> k & 1 == 1 {
                *s = pen.status[k];
            }
        }
    }
    contact
}

/// The lanes whose cores gjk-core's contact measures in their axial plane: both
/// solids of revolution with axes parallel enough that B's tilt stays within
/// EPA's tolerance at any depth up to the shapes' size, or a point core against
/// a solid of revolution (see `gjk_core::query::epa_axial`).
#[inline(always)]
fn axial_lanes<A: SupportMapX8, B: SupportMapX8>(
    m: &MinkowskiX8<'_, A, B>,
    scale: f32x8,
    touch: f32x8,
) -> MaskX8 {
    use CoreSymmetry::{Point, RevolutionY};
    match (A::CORE_SYMMETRY, B::CORE_SYMMETRY) {
        (RevolutionY, RevolutionY) => {
            let rb = m.shapes().1.bounding_radius();
            let axis_b = m.b_to_a().y_axis;
            let sine = (axis_b.x * axis_b.x + axis_b.z * axis_b.z).sqrt();
            let bound = f32x8::splat(EPA_RELATIVE_GAP) * scale + touch;
            (sine * rb).le(bound)
        }
        (RevolutionY, Point) | (Point, RevolutionY) => MaskX8::ALL,
        _ => MaskX8::NONE,
    }
}

/// Two box cores: the separating axes measure overlapping cores exactly; one GJK
/// run finds the witness points of those lanes (B moved apart along the normal)
/// and the closest points of the others (where the axes do not already prove
/// them beyond `reach`). Lanes the check refuses, and the others where GJK has
/// no closest points to give (`CoresGjk::without_closest_points`), are left
/// unresolved.
#[inline(always)]
fn box_contact<A: SupportMapX8, B: SupportMapX8>(
    m: &MinkowskiX8<'_, A, B>,
    ha: Vec3X8,
    hb: Vec3X8,
    valid: MaskX8,
    (scale, touch): (f32x8, f32x8),
    reach: f32x8,
    (ma, mb): (f32x8, f32x8),
) -> LocalContact {
    let zero = f32x8::ZERO;
    let (core_depth, n) = box_cores_penetration_x8(ha, hb, &m.b_to_a(), m.unscaled_offset());
    // Within the touch tolerance the cores count as overlapping, as in GJK.
    let overlapping = valid & core_depth.gt(-touch);
    // Elsewhere -core_depth bounds the cores' distance from below.
    let far = valid.and_not(overlapping) & (-core_depth - ma - mb).gt(reach);
    let gap = f32x8::splat(WITNESS_GAP_TOUCHES_X8) * touch;
    let shift = overlapping.select(n * (core_depth + gap), Vec3X8::ZERO);
    let gjk = closest_cores(&m.shifted(shift), valid.and_not(far), touch);

    // The lanes the axes neither measured nor proved far take their contact from
    // GJK's closest points, by the general path's rule: not where GJK has none.
    // Within the rounding of the pair's size the axes can find the cores apart by
    // more than the touch tolerance while GJK finds them overlapping (`v` zero,
    // no normal); and on long thin boxes a loop that stalled in f32 leaves `|v|`
    // far above the distance. gjk-core decides those lanes.
    let unmeasured = valid.and_not(far | overlapping);
    let disputed = unmeasured & gjk.without_closest_points(scale);
    let apart = unmeasured.and_not(disputed);
    let (in_apart, depth, normal, point_a, point_b) =
        from_closest_cores(&gjk.cores, apart, reach, (ma, mb));
    // Moved out by depth + gap along n, the cores must sit `gap` apart: otherwise
    // the depth along n was wrong in rounding, and the lane goes to EPA.
    let moved_gap = gjk.cores.core_distance;
    let checked = overlapping.and_not(gjk.cores_overlap)
        & (moved_gap - gap).abs().le(gap * f32x8::splat(0.5));
    let core_b = gjk.cores.core_b - shift;
    // The axes decided the lanes they proved far apart, and measured the checked
    // ones exactly: both converged, whatever GJK (which skipped the far lanes)
    // reports for them.
    let mut status = gjk.status;
    let decided = (checked | far).bitmask();
    for (k, s) in status.iter_mut().enumerate() {
        if decided >> k & 1 == 1 {
            *s = Status::Converged;
        }
    }
    LocalContact {
        in_contact: in_apart | checked,
        unresolved: overlapping.and_not(checked) | disputed,
        depth: checked.select(core_depth + ma + mb, depth),
        normal: checked.select(n, normal),
        point_a: checked.select(n.mul_add(ma, gjk.cores.core_a), point_a),
        point_b: checked.select((-n).mul_add(mb, core_b), point_b),
        iterations: far.select(zero, gjk.iterations),
        status,
    }
}

/// Measures the unresolved lanes with `gjk_core::contact` on each lane's shapes,
/// in A's frame (B at its pose relative to A, as the wide path uses it).
fn resolve_on_lanes<A: SupportMapX8, B: SupportMapX8>(
    local: &mut LocalContact,
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    prediction: f32x8,
) {
    let relative = pose_a.relative(pose_b);
    let rotations = relative.rotation.to_array();
    let offsets = [
        relative.translation.x.to_array(),
        relative.translation.y.to_array(),
        relative.translation.z.to_array(),
    ];
    let prediction = prediction.to_array();
    let mut depth = local.depth.to_array();
    let mut normal = local.normal.to_array();
    let mut point_a = local.point_a.to_array();
    let mut point_b = local.point_b.to_array();
    let mut iterations = local.iterations.to_array();
    let mut in_contact = local.in_contact.bitmask();
    let unresolved = local.unresolved.bitmask();
    for k in (0..8).filter(|k| unresolved >> k & 1 == 1) {
        let offset = Vec3::new(offsets[0][k], offsets[1][k], offsets[2][k]);
        let found = Pose::new(rotations[k], offset).map(|pose_b| {
            let (lane_a, lane_b) = (LaneOf { shape: a, lane: k }, LaneOf { shape: b, lane: k });
            gjk_core::contact(&lane_a, &Pose::IDENTITY, &lane_b, &pose_b, prediction[k])
        });
        match found {
            Ok(Some(c)) => {
                (depth[k], normal[k], point_a[k]) = (c.depth, c.normal, c.point_a);
                point_b[k] = c.point_b;
                iterations[k] += c.iterations as f32;
                local.status[k] = c.status;
                in_contact |= 1 << k;
            }
            Ok(None) => in_contact &= !(1 << k),
            // A finite lane always makes a pose; if not, the lane is invalid.
            Err(_) => {
                local.status[k] = Status::InvalidInput;
                in_contact |= 1 << k;
                depth[k] = f32::NAN;
            }
        }
    }
    local.depth = f32x8::new(depth);
    local.normal = Vec3X8::from_array(normal);
    local.point_a = Vec3X8::from_array(point_a);
    local.point_b = Vec3X8::from_array(point_b);
    local.iterations = f32x8::new(iterations);
    local.in_contact = MaskX8::from_bitmask(in_contact);
    local.unresolved = MaskX8::NONE;
}

/// The contact in world space, from A's frame (`pose_a`) or from world space
/// already (`None`: two point cores); invalid lanes NaN, in contact, with their
/// status.
#[inline(always)]
pub(crate) fn finish_contact(
    local: &LocalContact,
    pose_a: Option<&PoseX8>,
    valid: MaskX8,
) -> ContactX8 {
    let frame = pose_a.map(|pose| (pose.rotation_matrix(), pose.translation));
    let rotate = |d: Vec3X8| frame.as_ref().map_or(d, |(rot, _)| rot.mul_vec3(d));
    let world = |p: Vec3X8| frame.as_ref().map_or(p, |(rot, t)| rot.mul_vec3(p) + *t);
    let invalid = !valid;
    let nan = f32x8::splat(f32::NAN);
    let nan3 = Vec3X8::splat(Vec3::NAN);
    let depth_not_finite = !local.depth.finite();
    let (normal, point_a, point_b) = (
        rotate(local.normal),
        world(local.point_a),
        world(local.point_b),
    );
    // A contact the arithmetic spoiled (an overflow in a kernel on shapes near
    // the size limit) must not pass for a converged one: it is flagged instead.
    let finite = !depth_not_finite & normal.finite() & point_a.finite() & point_b.finite();
    let spoiled = (local.in_contact & valid).and_not(finite).bitmask();
    let mut status = local.status;
    for (k, s) in status.iter_mut().enumerate() {
        if spoiled >> k & 1 == 1 && *s == Status::Converged {
            *s = Status::Degenerate;
        }
    }
    ContactX8 {
        in_contact: local.in_contact | invalid,
        depth: invalid.select(nan, local.depth),
        normal: (invalid | depth_not_finite).select(nan3, normal),
        point_a: invalid.select(nan3, point_a),
        point_b: invalid.select(nan3, point_b),
        iterations: iteration_counts(local.iterations),
        status,
    }
}
