//! The early outs: every pair a test much cheaper than GJK can decide is answered
//! here and kept out of the batches.
//!
//! The boolean query takes the bounding balls' verdicts both ways (apart and
//! overlapping) and, for box pairs, the separating axes; the distance query takes
//! only the overlap verdicts, which also give a point inside both shapes, and for
//! box pairs the box-box certificate. The tests run scalar and inline in the
//! bucketing loop where that costs fewer instructions (the boolean query), and
//! eight pairs at a time where a rotation is needed (pairs with a box in the
//! distance query, and the box pass after bucketing).

use std::borrow::Borrow;

use gjk_core::query::bounds::{ball_overlap_point, ball_tests, box_ball_tests};
use gjk_core::{Contact, Distance, Intersection, Pose, Shape, ShapeKind, Status, SupportMap};
use glam::Vec3;
use wide::f32x8;

use super::dispatch::{core_kind, segment_core};
use super::options::BatchOptions;
use super::output::OutSlots;
use super::pack::{Inputs, pack_batch, pose_x8_full};
use super::pair_contact::ManifoldOut;
use super::queries::{BatchQuery, ContactQuery, DistanceQuery, IntersectsQuery, ManifoldQuery};
use crate::math::{CmpX8, MaskX8, PoseX8, Vec3X8};
use crate::query::bounds_x8::{
    BoundsVerdictX8, ball_tests_x8, box_ball_tests_x8, box_box_overlap_x8,
};
use crate::query::separating_axes_x8::cuboids_sat_x8;
use crate::shapes::{CuboidX8, RoundedX8};

/// The early-out policy of one query: which cheap tests run on which kind pairs,
/// which of their verdicts decide a pair, and what a decided pair is answered.
pub(super) trait EarlyOuts {
    /// The scalar result of one pair.
    type Out: Copy + Send + Sync;
    /// Whether [`EarlyOuts::answer`] needs a point inside both shapes.
    const INSIDE_POINT: bool;
    /// Whether box pairs take the box pass ([`box_prepass`]) before their kernel.
    const BOX_PASS: bool = true;
    /// How far beyond touching the bounding balls must prove a pair apart for it
    /// to be decided: 0, or the prediction distance of a contact query.
    #[inline(always)]
    fn reach(&self) -> f32 {
        0.0
    }
    /// The span of the closeness measure ([`super::sort`]) over which the pairs
    /// that reach GJK spread.
    const CLOSENESS_SPAN: f32;
    /// What decides a pair of boxes before GJK, for the lanes of `lanes`
    /// ([`box_prepass`]); answers as [`EarlyOuts::decides`] and
    /// [`EarlyOuts::answer`] read them.
    fn box_verdict(
        a: &RoundedX8<CuboidX8>,
        pose_a: &PoseX8,
        b: &RoundedX8<CuboidX8>,
        pose_b: &PoseX8,
        lanes: MaskX8,
    ) -> BoundsVerdictX8;
    /// Whether the bounding tests are worth running on a kind pair.
    fn ball_test_pays(kind_a: ShapeKind, kind_b: ShapeKind, options: &BatchOptions) -> bool;
    /// Which lanes a cheap test's verdicts (`apart`, `overlapping`, one bit a
    /// lane) decide.
    fn decides(apart: u8, overlapping: u8) -> u8;
    /// The answer of a pair a cheap test decided (`overlap`: which way; `inside`:
    /// a point inside both shapes when they overlap). For an undecided pair, any
    /// value: the kernel overwrites it.
    fn answer(overlap: bool, inside: Vec3) -> Self::Out;
}

impl EarlyOuts for IntersectsQuery {
    type Out = Intersection;
    const INSIDE_POINT: bool = false;
    /// With early outs, the balls decide every pair outside `0..1`.
    const CLOSENESS_SPAN: f32 = 1.0;
    /// The separating-axis test ([`crate::cuboids_sat_x8`]), which decides every pair the
    /// balls would and more.
    #[inline(always)]
    fn box_verdict(
        a: &RoundedX8<CuboidX8>,
        pose_a: &PoseX8,
        b: &RoundedX8<CuboidX8>,
        pose_b: &PoseX8,
        lanes: MaskX8,
    ) -> BoundsVerdictX8 {
        let v = cuboids_sat_x8(a, pose_a, b, pose_b, lanes);
        BoundsVerdictX8 {
            apart: v.apart,
            overlapping: v.overlapping,
            inside: Vec3X8::ZERO,
        }
    }
    #[inline(always)]
    fn ball_test_pays(kind_a: ShapeKind, kind_b: ShapeKind, _: &BatchOptions) -> bool {
        boolean_ball_test_pays(kind_a, kind_b)
    }
    /// Either verdict decides.
    #[inline(always)]
    fn decides(apart: u8, overlapping: u8) -> u8 {
        apart | overlapping
    }
    /// Zero support evaluations.
    #[inline(always)]
    fn answer(overlap: bool, _: Vec3) -> Intersection {
        Intersection {
            intersecting: overlap,
            iterations: 0,
            status: Status::Converged,
        }
    }
}

impl EarlyOuts for DistanceQuery {
    type Out = Distance;
    const INSIDE_POINT: bool = true;
    /// Only the overlap verdict is taken (closeness below 0); apart pairs run GJK
    /// too, and past 4 (twice the bounding radii apart, when the inner balls are
    /// small) their iteration counts level off.
    const CLOSENESS_SPAN: f32 = 4.0;
    /// The box-box certificate ([`box_box_overlap_x8`], on the cores: a rounded box
    /// holds its core): the separating axes bound the distance but do not give it,
    /// nor a point inside two overlapping boxes.
    #[inline(always)]
    fn box_verdict(
        a: &RoundedX8<CuboidX8>,
        pose_a: &PoseX8,
        b: &RoundedX8<CuboidX8>,
        pose_b: &PoseX8,
        lanes: MaskX8,
    ) -> BoundsVerdictX8 {
        let (rot_a, rot_b) = (pose_a.rotation_matrix(), pose_b.rotation_matrix());
        let (overlapping, inside) = box_box_overlap_x8(
            (a.inner.half_extents(), &rot_a, pose_a.translation),
            (b.inner.half_extents(), &rot_b, pose_b.translation),
        );
        BoundsVerdictX8 {
            apart: MaskX8::NONE,
            overlapping: overlapping & lanes,
            inside,
        }
    }
    /// Everywhere but on pairs of spheres and capsules when they take the closed
    /// forms, which cost about what the test does, and on pairs of boxes, which
    /// take the box-box certificate after bucketing instead ([`box_prepass`],
    /// which certifies more of the overlapping box pairs than the box-ball
    /// tests). The GJK distance kernel costs hundreds of instructions a pair and
    /// the test a few dozen.
    #[inline(always)]
    fn ball_test_pays(kind_a: ShapeKind, kind_b: ShapeKind, options: &BatchOptions) -> bool {
        let boxes = kind_a == ShapeKind::Cuboid && kind_b == ShapeKind::Cuboid;
        let closed = options.closed_forms && segment_core(kind_a) && segment_core(kind_b);
        !(boxes || closed)
    }
    /// Only an overlap decides (distance needs GJK otherwise).
    #[inline(always)]
    fn decides(_: u8, overlapping: u8) -> u8 {
        overlapping
    }
    /// Distance 0, the point inside both as both witnesses, a zero normal, zero
    /// support evaluations, as `gjk-core` reports overlapping shapes.
    #[inline(always)]
    fn answer(_: bool, inside: Vec3) -> Distance {
        Distance {
            distance: 0.0,
            point_a: inside,
            point_b: inside,
            normal: Vec3::ZERO,
            iterations: 0,
            status: Status::Converged,
        }
    }
}

/// What the bounding tests read of a shape, `Rounded` layers peeled: one match
/// instead of a dispatch per item.
pub(super) struct Facts {
    /// The kernel index of its kind.
    kind: ShapeKind,
    /// Bounding radius ([`SupportMap::bounding_radius`]), rounding included.
    outer: f32,
    /// Inner radius ([`SupportMap::inner_radius`]), rounding included.
    inner: f32,
    /// A box's half extents (zero for other kinds).
    half_extents: Vec3,
    /// The peeled `Rounded` layers' radii.
    rounding: f32,
}

/// The [`Facts`] of a shape peeled ([`peel`]) into its core and rounding.
#[inline(always)]
pub(super) fn core_facts(inner_shape: &Shape, rounding: f32) -> Facts {
    let mut half_extents = Vec3::ZERO;
    let (kind, outer, inner) = match inner_shape {
        Shape::Sphere(s) => (ShapeKind::Sphere, s.bounding_radius(), s.inner_radius()),
        Shape::Cuboid(s) => {
            half_extents = s.half_extents();
            (ShapeKind::Cuboid, s.bounding_radius(), s.inner_radius())
        }
        Shape::Capsule(s) => (ShapeKind::Capsule, s.bounding_radius(), s.inner_radius()),
        Shape::Cylinder(s) => (ShapeKind::Cylinder, s.bounding_radius(), s.inner_radius()),
        Shape::Cone(s) => (ShapeKind::Cone, s.bounding_radius(), s.inner_radius()),
        Shape::ConvexHull(s) => (ShapeKind::ConvexHull, s.bounding_radius(), s.inner_radius()),
        // `peel` leaves no `Rounded`; if it did, no ball would decide the pair.
        Shape::Rounded(_) => (core_kind(inner_shape), f32::NAN, f32::NEG_INFINITY),
    };
    Facts {
        kind,
        outer: outer + rounding,
        inner: inner + rounding,
        half_extents,
        rounding,
    }
}

/// The boolean query's early-out tests of one pair, `(apart, overlapping)`: a box
/// against the other shape's balls when exactly one side is a box
/// ([`box_ball_tests`], much tighter than the box's own ball), the two balls
/// otherwise ([`ball_tests`]). Scalar and inline in the bucketing loop: for these
/// tests that costs fewer instructions than gathering the pairs for the wide pass
/// that the distance query uses for pairs with a box ([`bounding_tests_x8`]),
/// which also computes the points inside both shapes.
#[inline(always)]
pub(super) fn bounding_tests(a: &Facts, pose_a: &Pose, b: &Facts, pose_b: &Pose) -> (bool, bool) {
    let (ta, tb) = (pose_a.translation(), pose_b.translation());
    match (a.kind == ShapeKind::Cuboid, b.kind == ShapeKind::Cuboid) {
        (true, false) => box_ball_tests(a.half_extents, a.rounding, pose_a, tb, b.outer, b.inner),
        (false, true) => box_ball_tests(b.half_extents, b.rounding, pose_b, ta, a.outer, a.inner),
        _ => ball_tests(ta, tb, a.outer + b.outer, a.inner + b.inner),
    }
}

/// One side of a pair as the wide bounds pass reads it, one row of an 8x8
/// transpose: outer and inner radius, a box's half extents, the rounding, whether
/// it is a box, and a 1 that padding rows (all zero) lack.
#[inline(always)]
pub(super) fn bounds_row(f: &Facts) -> [f32; 8] {
    let h = f.half_extents;
    let is_box = if f.kind == ShapeKind::Cuboid {
        1.0
    } else {
        0.0
    };
    [f.outer, f.inner, h.x, h.y, h.z, f.rounding, is_box, 1.0]
}

/// The bounding verdicts of eight pairs of mixed kinds (`rows_a`, `rows_b` from
/// [`bounds_row`], poses by input index `idx`): a box against the other
/// shape's balls when one side is a box ([`box_ball_tests_x8`], much tighter than
/// the box's own ball; both ways round for two boxes, the inside point from the
/// one that certified, though the driver sends box pairs to [`box_prepass`]
/// instead), the two balls otherwise ([`ball_tests_x8`]). Lanes whose test does
/// not pay, and lanes past `idx.len()`, are left undecided.
#[inline(always)]
pub(super) fn bounding_tests_x8(
    rows_a: &[[f32; 8]; 8],
    rows_b: &[[f32; 8]; 8],
    poses_a: &[Pose],
    poses_b: &[Pose],
    idx: &[u32; 8],
) -> BoundsVerdictX8 {
    let transpose = |rows: &[[f32; 8]; 8]| f32x8::transpose(rows.map(f32x8::new));
    let [outer_a, inner_a, hxa, hya, hza, round_a, box_a, real] = transpose(rows_a);
    let [outer_b, inner_b, hxb, hyb, hzb, round_b, box_b, _] = transpose(rows_b);
    let (pose_a, pose_b) = (pose_x8_full(poses_a, idx), pose_x8_full(poses_b, idx));
    let (ta, tb) = (pose_a.translation, pose_b.translation);
    let real = real.gt(f32x8::ZERO);
    let (is_a, is_b) = (box_a.gt(f32x8::ZERO), box_b.gt(f32x8::ZERO));
    let balls = ball_tests_x8(ta, tb, outer_a + outer_b, inner_a, inner_b);
    let mut v = balls;
    // A uniform branch: batches without boxes (most buckets) skip the rotations.
    if (is_a | is_b).any() {
        let he_a = Vec3X8::new(hxa, hya, hza);
        let he_b = Vec3X8::new(hxb, hyb, hzb);
        let (rot_a, rot_b) = (pose_a.rotation_matrix(), pose_b.rotation_matrix());
        let by_a = box_ball_tests_x8(he_a, round_a, &rot_a, ta, tb, outer_b, inner_b);
        let by_b = box_ball_tests_x8(he_b, round_b, &rot_b, tb, ta, outer_a, inner_a);
        let boxed = is_a | is_b;
        v.apart = boxed.select((is_a & by_a.apart) | (is_b & by_b.apart), balls.apart);
        v.overlapping = boxed.select(
            (is_a & by_a.overlapping) | (is_b & by_b.overlapping),
            balls.overlapping,
        );
        v.inside =
            (is_a & by_a.overlapping).select(by_a.inside, is_b.select(by_b.inside, balls.inside));
    }
    v.apart &= real;
    v.overlapping &= real;
    v
}

/// Whether the bounding-ball test pays for a kind pair in the boolean query: it
/// costs a few dozen instructions a pair and saves the kernel for the pairs it
/// decides, but the batches left hold the harder pairs and run longer. Counted
/// with callgrind on the standard pairs it pays for every kind pair but those of
/// capsules and cones, whose inner balls (the capsule's radius, the cone's
/// distance to its side) are small beside their outer balls, so that it decides
/// few pairs. Box pairs take the separating-axis test instead, which decides all
/// the balls would and more.
#[inline(always)]
pub(super) fn boolean_ball_test_pays(kind_a: ShapeKind, kind_b: ShapeKind) -> bool {
    let thin = |k: ShapeKind| k == ShapeKind::Capsule || k == ShapeKind::Cone;
    let both_thin = thin(kind_a) && thin(kind_b);
    let both_boxes = kind_a == ShapeKind::Cuboid && kind_b == ShapeKind::Cuboid;
    !both_thin && !both_boxes
}

/// Moves the box-box pairs of `idx` that the query's box verdict
/// ([`EarlyOuts::box_verdict`]: separating axes, or the box-box certificate) leaves
/// undecided to the front of `idx`, in order, and returns how many there are; the
/// decided ones get their answer. It reads the packed boxes, which costs less than
/// gathering the shapes' facts for the bounding pass before bucketing. The
/// compaction is branch-free, like the bounding-ball pass, and in place: a batch
/// is copied out before any of its slots can be overwritten, and the write cursor
/// never passes the read position.
pub(super) fn box_prepass<Q: BatchQuery, S: Borrow<Shape>>(
    inputs: &Inputs<'_, S>,
    idx: &mut [u32],
    out: &OutSlots<Q::Out>,
) -> usize {
    let mut a = RoundedX8::<CuboidX8>::default();
    let mut b = RoundedX8::<CuboidX8>::default();
    let mut n = 0;
    for start in (0..idx.len()).step_by(8) {
        let len = (idx.len() - start).min(8);
        let mut lanes = [0u32; 8];
        lanes[..len].copy_from_slice(&idx[start..start + len]);
        let batch = &lanes[..len];
        let (pose_a, pose_b) = pack_batch(inputs, batch, &mut a, &mut b);
        let v = Q::box_verdict(&a, &pose_a, &b, &pose_b, MaskX8::first(len));
        let overlapping = v.overlapping.bitmask();
        let decided = Q::decides(v.apart.bitmask(), overlapping);
        for (k, &i) in batch.iter().enumerate() {
            let answer = Q::answer(overlapping >> k & 1 == 1, v.inside.lane(k));
            // SAFETY: `i` lies in this task's slice, whose slots no other task
            // touches (see `run_query`); an undecided pair's slot is written
            // again by its kernel, in this task.
            unsafe { out.write(i as usize, answer) };
            idx[n] = i;
            n += usize::from(decided >> k & 1 == 0);
        }
    }
    n
}

impl EarlyOuts for ContactQuery {
    type Out = Option<Contact>;
    const INSIDE_POINT: bool = false;
    /// Box pairs need their depth, which the box pass does not give: their kernel
    /// decides far lanes by the separating axes itself.
    const BOX_PASS: bool = false;
    /// As for distance: only pairs proven apart leave.
    const CLOSENESS_SPAN: f32 = 4.0;
    /// Never called (no box pass).
    #[inline(always)]
    fn box_verdict(
        _: &RoundedX8<CuboidX8>,
        _: &PoseX8,
        _: &RoundedX8<CuboidX8>,
        _: &PoseX8,
        _: MaskX8,
    ) -> BoundsVerdictX8 {
        BoundsVerdictX8 {
            apart: MaskX8::NONE,
            overlapping: MaskX8::NONE,
            inside: Vec3X8::ZERO,
        }
    }
    /// As for the boolean query (the balls' apart verdict is what a contact can
    /// take), and not on pairs the closed forms answer for about the test's cost.
    #[inline(always)]
    fn ball_test_pays(kind_a: ShapeKind, kind_b: ShapeKind, options: &BatchOptions) -> bool {
        let closed = options.closed_forms && segment_core(kind_a) && segment_core(kind_b);
        boolean_ball_test_pays(kind_a, kind_b) && !closed
    }
    /// Only pairs proven apart beyond the prediction distance: no contact.
    #[inline(always)]
    fn decides(apart: u8, _: u8) -> u8 {
        apart
    }
    /// No contact (the only verdict taken).
    #[inline(always)]
    fn answer(_: bool, _: Vec3) -> Option<Contact> {
        None
    }
    #[inline(always)]
    fn reach(&self) -> f32 {
        self.prediction
    }
}

/// The manifold query takes the contact query's policy: a pair the balls prove
/// farther apart than its contacts' reach has no contact, hence no manifold.
impl<O: ManifoldOut> EarlyOuts for ManifoldQuery<O> {
    type Out = O;
    const INSIDE_POINT: bool = ContactQuery::INSIDE_POINT;
    const BOX_PASS: bool = ContactQuery::BOX_PASS;
    const CLOSENESS_SPAN: f32 = ContactQuery::CLOSENESS_SPAN;
    /// Never called (no box pass).
    #[inline(always)]
    fn box_verdict(
        a: &RoundedX8<CuboidX8>,
        pose_a: &PoseX8,
        b: &RoundedX8<CuboidX8>,
        pose_b: &PoseX8,
        lanes: MaskX8,
    ) -> BoundsVerdictX8 {
        ContactQuery::box_verdict(a, pose_a, b, pose_b, lanes)
    }
    #[inline(always)]
    fn ball_test_pays(kind_a: ShapeKind, kind_b: ShapeKind, options: &BatchOptions) -> bool {
        ContactQuery::ball_test_pays(kind_a, kind_b, options)
    }
    #[inline(always)]
    fn decides(apart: u8, overlapping: u8) -> u8 {
        ContactQuery::decides(apart, overlapping)
    }
    /// No manifold (the only verdict taken).
    #[inline(always)]
    fn answer(_: bool, _: Vec3) -> O {
        O::none()
    }
    #[inline(always)]
    fn reach(&self) -> f32 {
        self.reach
    }
}

/// What the early outs made of one pair of the bucketing loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PairVerdict {
    /// Answered: its slot holds its result, it needs no kernel.
    Decided,
    /// Left to its kernel (its slot may hold a placeholder the kernel overwrites).
    Undecided,
    /// Set aside for the wide bounding tests of [`EarlyOutPass::finish`].
    SetAside,
}

/// The early outs of one block's planning: scalar tests inline, pair by pair,
/// and the distance query's pairs with a box set aside and tested eight at a
/// time at the end (their tests rotate, which pays wide).
pub(super) struct EarlyOutPass {
    candidates: Candidates,
    block_len: usize,
    /// The query's [`EarlyOuts::reach`].
    reach: f32,
}

impl EarlyOutPass {
    /// The pass of `query` over a block of `block_len` pairs.
    pub(super) fn new<Q: EarlyOuts>(query: &Q, block_len: usize) -> Self {
        EarlyOutPass {
            candidates: Candidates::default(),
            block_len,
            reach: query.reach(),
        }
    }

    /// Tests pair `i` (kind-pair key `key`, each side peeled into its core and
    /// rounding) and writes its answer if the tests decide it.
    #[inline(always)]
    pub(super) fn test_pair<Q: BatchQuery, S: Borrow<Shape>>(
        &mut self,
        inputs: &Inputs<'_, S>,
        i: usize,
        key: u8,
        (core_a, round_a): (&Shape, f32),
        (core_b, round_b): (&Shape, f32),
        out: &OutSlots<Q::Out>,
    ) -> PairVerdict {
        let (mut fa, mut fb) = (core_facts(core_a, round_a), core_facts(core_b, round_b));
        // The reach goes on a side tested as a ball (a box is tested as itself
        // when the other side is not a box).
        if fb.kind == ShapeKind::Cuboid {
            fa.outer += self.reach;
        } else {
            fb.outer += self.reach;
        }
        if Q::INSIDE_POINT && (fa.kind == ShapeKind::Cuboid || fb.kind == ShapeKind::Cuboid) {
            // Room for the whole block at the first candidate: no regrowth, and
            // no allocation for blocks without candidates.
            self.candidates.reserve_once(self.block_len);
            self.candidates.push(i as u32, key, &fa, &fb);
            return PairVerdict::SetAside;
        }
        let (pose_a, pose_b) = (&inputs.poses_a[i], &inputs.poses_b[i]);
        let (apart, overlap) = bounding_tests(&fa, pose_a, &fb, pose_b);
        let inside = if Q::INSIDE_POINT {
            let (ta, tb) = (pose_a.translation(), pose_b.translation());
            ball_overlap_point(ta, tb, fa.inner, fb.inner)
        } else {
            Vec3::ZERO
        };
        // SAFETY: `i` lies in this task's block, whose slots no other task
        // touches while it is planned (see `run_query`); an undecided pair's
        // slot is written again by its kernel, after the planning.
        unsafe { out.write(i, Q::answer(overlap, inside)) };
        if Q::decides(u8::from(apart), u8::from(overlap)) != 0 {
            PairVerdict::Decided
        } else {
            PairVerdict::Undecided
        }
    }

    /// Runs the wide tests on the pairs set aside, writes the answers of those
    /// they decide, and appends the others to `pending` and `keys` from `n` on;
    /// returns the new count.
    pub(super) fn finish<Q: BatchQuery, S: Borrow<Shape>>(
        self,
        inputs: &Inputs<'_, S>,
        out: &OutSlots<Q::Out>,
        pending: &mut [u32],
        keys: &mut [u8],
        n: usize,
    ) -> usize {
        if self.candidates.idx.is_empty() {
            return n;
        }
        self.candidates
            .decide::<Q, S>(inputs, out, pending, keys, n)
    }
}

/// Pairs with a box set aside for the distance query's wide bounding tests
/// ([`bounding_tests_x8`]), with their keys and [`bounds_row`]s.
#[derive(Default)]
struct Candidates {
    idx: Vec<u32>,
    keys: Vec<u8>,
    rows_a: Vec<[f32; 8]>,
    rows_b: Vec<[f32; 8]>,
}

impl Candidates {
    /// Room for `n` candidates (and the padding to whole chunks of eight), the
    /// first time only.
    #[inline(always)]
    fn reserve_once(&mut self, n: usize) {
        if self.idx.capacity() == 0 {
            self.idx.reserve(n);
            self.keys.reserve(n);
            self.rows_a.reserve(n.next_multiple_of(8));
            self.rows_b.reserve(n.next_multiple_of(8));
        }
    }

    #[inline(always)]
    fn push(&mut self, i: u32, key: u8, a: &Facts, b: &Facts) {
        self.idx.push(i);
        self.keys.push(key);
        self.rows_a.push(bounds_row(a));
        self.rows_b.push(bounds_row(b));
    }

    /// Runs the wide tests eight candidates at a time, writes the answers of the
    /// pairs they decide, and appends the others to `pending` and `keys` from
    /// `n` on; returns the new count. Padding rows are zero, hence undecided.
    fn decide<Q: BatchQuery, S: Borrow<Shape>>(
        mut self,
        inputs: &Inputs<'_, S>,
        out: &OutSlots<Q::Out>,
        pending: &mut [u32],
        keys: &mut [u8],
        mut n: usize,
    ) -> usize {
        let len = self.idx.len();
        self.rows_a.resize(len.next_multiple_of(8), [0.0; 8]);
        self.rows_b.resize(len.next_multiple_of(8), [0.0; 8]);
        let rows = self
            .rows_a
            .as_chunks::<8>()
            .0
            .iter()
            .zip(self.rows_b.as_chunks::<8>().0);
        for (c, (rows_a, rows_b)) in rows.enumerate() {
            let j0 = 8 * c;
            let lanes = (len - j0).min(8);
            let idx: [u32; 8] = std::array::from_fn(|k| self.idx[j0 + k.min(lanes - 1)]);
            let v = bounding_tests_x8(rows_a, rows_b, inputs.poses_a, inputs.poses_b, &idx);
            let overlapping = v.overlapping.bitmask();
            let decided = Q::decides(v.apart.bitmask(), overlapping);
            // Few lanes are decided: answers for those only, one lane at a time.
            let inside = v.inside.to_array();
            let mut bits = decided;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                let answer = Q::answer(overlapping >> k & 1 == 1, inside[k]);
                // SAFETY: the pair lies in this task's block, whose slots no other
                // task touches while it is planned (see `run_query`).
                unsafe { out.write(idx[k] as usize, answer) };
                bits &= bits - 1;
            }
            for (k, &i) in idx[..lanes].iter().enumerate() {
                pending[n] = i;
                keys[n] = self.keys[j0 + k];
                n += usize::from(decided >> k & 1 == 0);
            }
        }
        n
    }
}
