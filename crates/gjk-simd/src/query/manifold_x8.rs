//! Contact manifolds of eight pairs at once: the twin of `gjk_core`'s
//! `query/manifold.rs`. [`manifold_x8`] takes eight contacts (normal, depth,
//! witness points, from [`crate::contact_x8`] or the closed forms) and builds each
//! lane's manifold from the shapes' support features along its normal, with the
//! reference's rules, feature ids and reduction, rounded as the reference rounds
//! (`math::glam_rounding_x8`): a wide lane's manifold is
//! `gjk_core::manifold_from_contact`'s on the same contact, bit for bit.
//!
//! Which lanes are wide, by the features along the normal
//! ([`crate::feature_x8`]):
//!
//! | features | kinds (rounded or not) | method |
//! |---|---|---|
//! | a vertex and anything named | sphere with sphere, capsule, box, cylinder, cone; a zero-length capsule, a needle's cap, a coin's side, a stick's end, a box, cylinder or cone of no size | the contact's own point |
//! | two segments | capsule-capsule; a cylinder or cone side with a capsule or another side | `clip_x8::overlap_segments_x8` |
//! | a segment and a box face | capsule-box; cylinder-box and cone-box where the cylinder or cone meets the box with its side; a card's side or a stick with a box | `clip_x8::clip_segment_x8` |
//! | two box faces | box-box | `clip_x8::clip_polygon_x8` (Sutherland-Hodgman in slots) |
//! | a hull's face (three or four vertices) or vertex (a segment hull's segment) with any feature above | hull-hull, hull-box, hull-capsule, sphere-hull, hull with a cylinder's or cone's side | the same cases, the hull's feature looked up lane by lane in its shared `gjk_core::ConvexHull` (`FeatureX8::gather`) |
//!
//! Every other lane runs `gjk_core::manifold_from_contact` on its scalar shapes
//! ([`ScalarLanes`]): a cylinder's or cone's cap of some radius against
//! anything but a vertex (a 16-gon), a hull face of five or more vertices
//! (coplanar triangles merged),
//! hull lanes packed without their shared hull
//! ([`ConvexHullX8::from_hulls`](crate::ConvexHullX8::from_hulls)), a clipped
//! polygon that outgrows its slots (rounding only), and lanes whose contact is
//! not finite.

use gjk_core::glam::Vec3;
use gjk_core::tolerance::{
    MANIFOLD_MIN_FACE_ALIGNMENT, MANIFOLD_PARALLEL_SEGMENTS_SIN, MANIFOLD_REFERENCE_BIAS,
    MANIFOLD_RELATIVE_TOLERANCE,
};
use gjk_core::{
    Contact, ContactId, FeatureId, Manifold, ManifoldPoint, ManifoldScratch, Pose, Shape,
    manifold_from_contact,
};
use wide::f32x8;

use super::clip_x8::{
    CANDIDATES, CandidatesX8, ClipFrame, clip_polygon_x8, clip_segment_x8, overlap_segments_x8,
};
use super::contact_x8::ContactX8;
use super::reduce_x8::{ReducedX8, reduce_x8};
use crate::feature_x8::{FeatureMapX8, FeatureX8, id_bits};
use crate::math::{CmpX8, MaskX8, PoseX8, Vec3X8};

/// The scalar shapes and poses the eight lanes were packed from: the lanes the
/// wide stage leaves to the reference run `gjk_core::manifold_from_contact` on
/// them. Lanes past a short batch repeat any pair (they are not asked for).
#[derive(Clone, Copy, Debug)]
pub struct ScalarLanes<'s> {
    /// A's shape in each lane, `Rounded` layers included.
    pub shapes_a: [&'s Shape; 8],
    /// A's pose in each lane.
    pub poses_a: [Pose; 8],
    /// B's shape in each lane.
    pub shapes_b: [&'s Shape; 8],
    /// B's pose in each lane.
    pub poses_b: [Pose; 8],
}

/// The manifolds of the lanes of `lanes` whose `contact` is in contact (the
/// others `None`): `a` at `pose_a` and `b` at `pose_b`, the same shapes as
/// `scalar` holds, points kept within `prediction` (NaN or negative counts as
/// 0), as `gjk_core::manifold_from_contact` makes them. See the module
/// documentation for the lanes computed wide; `scratch` serves the others.
///
/// ```
/// use gjk_core::{Cuboid, Pose, Shape, ManifoldScratch};
/// use gjk_core::glam::Vec3;
/// use gjk_simd::query::manifold_x8::{ScalarLanes, manifold_x8};
/// use gjk_simd::{CuboidX8, MaskX8, PoseX8, contact_x8};
/// use gjk_simd::math::f32x8;
///
/// // A unit cube 0.01 deep in a slab, in every lane: four corners each.
/// let slab = Cuboid::new(Vec3::new(4.0, 0.5, 4.0))?;
/// let cube = Cuboid::new(Vec3::splat(0.5))?;
/// let on_top = Pose::from_translation(Vec3::new(0.3, 0.99, -0.2))?;
/// let (sa, sb): (Shape, Shape) = (slab.into(), cube.into());
/// let (a, b) = (CuboidX8::from_array([slab; 8]), CuboidX8::from_array([cube; 8]));
/// let (pa, pb) = (PoseX8::from_array([Pose::IDENTITY; 8]), PoseX8::from_array([on_top; 8]));
/// let c = contact_x8(&a, &pa, &b, &pb, f32x8::ZERO, MaskX8::ALL);
/// let lanes = ScalarLanes {
///     shapes_a: [&sa; 8],
///     poses_a: [Pose::IDENTITY; 8],
///     shapes_b: [&sb; 8],
///     poses_b: [on_top; 8],
/// };
/// let mut scratch = ManifoldScratch::default();
/// let m = manifold_x8(&a, &pa, &b, &pb, &c, 0.0, MaskX8::ALL, &lanes, &mut scratch);
/// let m = m[5].unwrap();
/// assert_eq!(m.len(), 4);
/// assert!(m.points().iter().all(|p| (p.depth - 0.01).abs() < 1e-5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn manifold_x8<A: FeatureMapX8, B: FeatureMapX8>(
    a: &A,
    pose_a: &PoseX8,
    b: &B,
    pose_b: &PoseX8,
    contact: &ContactX8,
    prediction: f32,
    lanes: MaskX8,
    scalar: &ScalarLanes<'_>,
    scratch: &mut ManifoldScratch,
) -> [Option<Manifold>; 8] {
    let mut out = [None; 8];
    let pair = PairX8 {
        a,
        pose_a,
        b,
        pose_b,
    };
    let reference = |k: usize, c: &Contact, prediction: f32| {
        manifold_from_contact(
            scalar.shapes_a[k],
            &scalar.poses_a[k],
            scalar.shapes_b[k],
            &scalar.poses_b[k],
            c,
            prediction,
            scratch,
        )
    };
    manifold_lanes_x8(&pair, contact, prediction, lanes, reference, |k, m| {
        out[k] = m
    });
    out
}

/// Eight pairs of one kind pair and their poses.
pub(crate) struct PairX8<'s, A, B> {
    pub a: &'s A,
    pub pose_a: &'s PoseX8,
    pub b: &'s B,
    pub pose_b: &'s PoseX8,
}

/// [`manifold_x8`] with the scalar reference as a function of the lane, its
/// contact and the prediction (`reference`, called for the lanes the wide stage
/// leaves to it), handing each lane of `lanes` to `emit` (lane, manifold).
#[inline(always)]
pub(crate) fn manifold_lanes_x8<A: FeatureMapX8, B: FeatureMapX8>(
    pair: &PairX8<'_, A, B>,
    contact: &ContactX8,
    prediction: f32,
    lanes: MaskX8,
    mut reference: impl FnMut(usize, &Contact, f32) -> Manifold,
    mut emit: impl FnMut(usize, Option<Manifold>),
) {
    let active = lanes & contact.in_contact;
    let bits = lanes.bitmask();
    if active.none() {
        for k in (0..8).filter(|k| bits >> k & 1 == 1) {
            emit(k, None);
        }
        return;
    }
    let prediction = prediction.max(0.0);
    let (wide, built) = build_x8(pair, contact, prediction, active);
    let fallback = active.and_not(wide).bitmask();
    let active = active.bitmask();
    let rows = built.rows();
    let normal = contact.normal.to_array();
    for k in (0..8).filter(|k| bits >> k & 1 == 1) {
        let m = if active >> k & 1 == 0 {
            None
        } else if fallback >> k & 1 == 1 {
            let c = contact.lane(k).expect("an active lane is in contact");
            Some(reference(k, &c, prediction))
        } else {
            let (points, len) = rows.lane(k);
            Some(Manifold::new(
                normal[k],
                &points[..len],
                contact.iterations[k],
                contact.status[k],
            ))
        };
        emit(k, m);
    }
}

/// The manifolds' points in world space, per slot, and how many each lane has.
struct BuiltX8 {
    point_a: [Vec3X8; 4],
    point_b: [Vec3X8; 4],
    depth: [f32x8; 4],
    id_a: [f32x8; 4],
    id_b: [f32x8; 4],
    len: f32x8,
    /// Slots that may hold a point in some lane.
    slots: usize,
}

/// [`BuiltX8`] stored lane by lane: per slot, seven float rows (point on A,
/// point on B, depth) and two rows of id bits.
struct RowsX8 {
    floats: [[[f32; 8]; 7]; 4],
    ids: [[[u32; 8]; 2]; 4],
    len: [f32; 8],
}

impl RowsX8 {
    /// Lane `k`'s points and count.
    #[inline(always)]
    fn lane(&self, k: usize) -> ([ManifoldPoint; 4], usize) {
        let n = (self.len[k] as usize).min(4);
        let mut points = [ManifoldPoint::default(); 4];
        for (s, p) in points.iter_mut().enumerate().take(n) {
            let f = &self.floats[s];
            *p = ManifoldPoint {
                point_a: Vec3::new(f[0][k], f[1][k], f[2][k]),
                point_b: Vec3::new(f[3][k], f[4][k], f[5][k]),
                depth: f[6][k],
                id: ContactId {
                    a: FeatureId::from_bits(self.ids[s][0][k]),
                    b: FeatureId::from_bits(self.ids[s][1][k]),
                },
            };
        }
        (points, n)
    }
}

impl BuiltX8 {
    /// The slots stored lane by lane, ids as [`FeatureId`] bits.
    #[inline(always)]
    fn rows(&self) -> RowsX8 {
        let mut rows = RowsX8 {
            floats: [[[0.0; 8]; 7]; 4],
            ids: [[[0; 8]; 2]; 4],
            len: self.len.to_array(),
        };
        for s in 0..self.slots {
            let (pa, pb) = (self.point_a[s], self.point_b[s]);
            // Spelled out: `map` over the seven vectors was left out of line (a
            // call and a round trip through the stack per slot).
            rows.floats[s] = [
                pa.x.to_array(),
                pa.y.to_array(),
                pa.z.to_array(),
                pb.x.to_array(),
                pb.y.to_array(),
                pb.z.to_array(),
                self.depth[s].to_array(),
            ];
            rows.ids[s] = [id_bits(self.id_a[s]), id_bits(self.id_b[s])];
        }
        rows
    }
}

/// The wide manifolds of the lanes of `active`: the lanes it could build and
/// their points (see the module documentation for the others).
#[inline(always)]
fn build_x8<A: FeatureMapX8, B: FeatureMapX8>(
    pair: &PairX8<'_, A, B>,
    contact: &ContactX8,
    prediction: f32,
    active: MaskX8,
) -> (MaskX8, BuiltX8) {
    let PairX8 {
        a,
        pose_a,
        b,
        pose_b,
    } = *pair;
    let zero = f32x8::ZERO;
    let finite = contact.depth.finite()
        & contact.normal.finite()
        & contact.point_a.finite()
        & contact.point_b.finite();
    let rel = pose_a.relative_glam(pose_b);
    let b_to_a = rel.rotation_matrix();
    let n = pose_a.inverse_transform_vector_glam(contact.normal);
    let (ma, mb) = (a.margin(), b.margin());
    let tol = f32x8::splat(MANIFOLD_RELATIVE_TOLERANCE)
        * (a.bounding_radius_glam() + b.bounding_radius_glam());
    // Only these lanes' features are read (a hull looks each one up).
    let asked = active & finite;
    let fa = a.support_feature_x8(n, asked);
    let mut fb = b.support_feature_x8(b_to_a.transpose_mul_vec3_glam(-n), asked);
    fb.transform_glam(&b_to_a, rel.translation);

    // A vertex on either side leaves nothing to clip: the contact's own point.
    let point = (fa.is_vertex() & fb.named) | (fb.is_vertex() & fa.named);
    let mut wide = active & finite & (point | (fa.held & fb.held));
    let mut cands = CandidatesX8::default();
    let clipping = wide.and_not(point);
    let slots = clip_features_x8::<A, B>(&fa, &fb, n, tol, clipping, &mut cands);
    wide = wide.and_not(cands.overflow);

    // Points within the prediction distance (and the tolerance) stay, and none
    // deeper than the contact (the reference's backstop, for faces rounding put
    // out of shape).
    let core_depth = contact.depth - ma - mb;
    let reach = -f32x8::splat(prediction) - tol - ma - mb;
    let deepest_allowed = core_depth + tol;
    let mut depth = [zero; CANDIDATES];
    let mut deepest = f32x8::splat(f32::NEG_INFINITY);
    let mut any = MaskX8::NONE;
    for (j, d) in depth.iter_mut().enumerate().take(slots) {
        *d = (cands.a[j] - cands.b[j]).dot_glam(n);
        cands.valid[j] &= d.ge(reach) & d.le(deepest_allowed);
        deepest = (cands.valid[j] & d.gt(deepest)).select(*d, deepest);
        any |= cands.valid[j];
    }
    // The contact's own point joins when the clipped ones fall short of its depth
    // (a disc's chord inside the rim), and stands alone when none is left.
    let contact_a = pose_a.inverse_transform_point_glam(contact.point_a) - n * ma;
    let contact_b = contact_a - n * core_depth;
    let own = Own {
        a: contact_a,
        b: contact_b,
        id_a: fa.id,
        id_b: fb.id,
    };
    let reduced = if slots == 0 {
        None
    } else {
        let join = any & deepest.lt(core_depth - tol);
        cands.a[slots] = contact_a;
        cands.b[slots] = contact_b;
        cands.id_a[slots] = fa.id;
        cands.id_b[slots] = fb.id;
        cands.valid[slots] = join;
        depth[slots] = (contact_a - contact_b).dot_glam(n);
        Some(reduce_x8(&cands, slots + 1, &depth, n, tol))
    };
    (wide, finish(reduced, &own, n, (ma, mb), pose_a))
}

/// The contact's own point as a candidate.
struct Own {
    a: Vec3X8,
    b: Vec3X8,
    id_a: f32x8,
    id_b: f32x8,
}

/// The kept points in world space, the margins added along the normal; the
/// contact's own point where nothing was kept.
#[inline(always)]
fn finish(
    reduced: Option<ReducedX8>,
    own: &Own,
    n: Vec3X8,
    (ma, mb): (f32x8, f32x8),
    pose_a: &PoseX8,
) -> BuiltX8 {
    let zero = f32x8::ZERO;
    let mut r = reduced.unwrap_or(ReducedX8 {
        a: [own.a; 4],
        b: [own.b; 4],
        id_a: [own.id_a; 4],
        id_b: [own.id_b; 4],
        len: zero,
    });
    let alone = r.len.same(zero);
    r.a[0] = alone.select(own.a, r.a[0]);
    r.b[0] = alone.select(own.b, r.b[0]);
    r.id_a[0] = alone.select(own.id_a, r.id_a[0]);
    r.id_b[0] = alone.select(own.id_b, r.id_b[0]);
    let len = alone.select(f32x8::ONE, r.len);
    let slots = if reduced.is_some() { 4 } else { 1 };
    let mut built = BuiltX8 {
        point_a: [Vec3X8::ZERO; 4],
        point_b: [Vec3X8::ZERO; 4],
        depth: [zero; 4],
        id_a: r.id_a,
        id_b: r.id_b,
        len,
        slots,
    };
    for s in 0..slots {
        built.point_a[s] = pose_a.transform_point_glam(r.a[s] + n * ma);
        built.point_b[s] = pose_a.transform_point_glam(r.b[s] - n * mb);
        built.depth[s] = (r.a[s] - r.b[s]).dot_glam(n) + ma + mb;
    }
    built
}

/// The candidate points of two features (A's frame) along `n`, by the kinds of
/// the features (`manifold.rs`'s `clip_features`), in the lanes of `lanes`;
/// returns how many slots the candidates may occupy. Pairs of kinds that cannot
/// have two segments or a polygon skip those cases at compile time.
#[inline(always)]
fn clip_features_x8<A: FeatureMapX8, B: FeatureMapX8>(
    fa: &FeatureX8,
    fb: &FeatureX8,
    n: Vec3X8,
    tol: f32x8,
    lanes: MaskX8,
    out: &mut CandidatesX8,
) -> usize {
    if A::MAX_VERTICES < 2 || B::MAX_VERTICES < 2 || lanes.none() {
        return 0;
    }
    let two = f32x8::splat(2.0);
    let (seg_a, seg_b) = (fa.len.same(two), fb.len.same(two));
    let min_alignment = f32x8::splat(MANIFOLD_MIN_FACE_ALIGNMENT);
    let (ca, cb) = (fa.normal.dot_glam(n), fb.normal.dot_glam(-n));
    let (aligned_a, aligned_b) = (ca.ge(min_alignment), cb.ge(min_alignment));
    let mut slots = 0;
    let segments = lanes & seg_a & seg_b;
    if segments.any() {
        let sin = f32x8::splat(MANIFOLD_PARALLEL_SEGMENTS_SIN);
        overlap_segments_x8(fa, fb, (n, tol, sin), segments, out);
        slots = 2;
    }
    if A::MAX_VERTICES >= 3 || B::MAX_VERTICES >= 3 {
        // A segment clipped to the other's polygon, if that faces the normal.
        let mixed = lanes & (seg_a ^ seg_b);
        let facing = seg_a.select(aligned_b, aligned_a);
        if (mixed & facing).any() {
            let frame = ClipFrame {
                n,
                reference_is_a: seg_b,
                tol,
            };
            let incident = FeatureX8::select(seg_a, fa, fb);
            let reference = FeatureX8::select(seg_a, fb, fa);
            clip_segment_x8(&incident, &reference, &frame, mixed & facing, out);
            slots = slots.max(2);
        }
    }
    if A::MAX_VERTICES >= 3 && B::MAX_VERTICES >= 3 {
        // Two polygons: the one closer to facing the normal is the reference
        // (A's unless B's is closer by the bias), the other is clipped to it.
        let polygons = lanes.and_not(seg_a | seg_b) & (aligned_a | aligned_b);
        if polygons.any() {
            let bias = f32x8::splat(MANIFOLD_REFERENCE_BIAS);
            let on_b = (aligned_a & aligned_b & cb.gt(ca + bias)) | aligned_b.and_not(aligned_a);
            let frame = ClipFrame {
                n,
                reference_is_a: !on_b,
                tol,
            };
            let incident = FeatureX8::select(on_b, fa, fb);
            let reference = FeatureX8::select(on_b, fb, fa);
            let clipped = clip_polygon_x8(&incident, &reference, &frame, polygons, out);
            slots = slots.max(clipped);
        }
    }
    slots
}
