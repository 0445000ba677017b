//! The batch driver: any number of `gjk_core::Shape` pairs in, results in input
//! order out.
//!
//! Pairs are bucketed by (kind of A, kind of B) with `Rounded` shapes counted as
//! their inner kind plus a per-lane margin, packed eight at a time into the wide
//! shapes of that kind pair, run through the kernel monomorphized for it, and the
//! results scattered back. A bucket's last batch is padded with lanes that start
//! finished. The order of the pairs is not normalized (A and B are never swapped):
//! each pair runs exactly the computation it would run alone, so its result is
//! bit-identical whatever its neighbours, the chunking or the thread count.

use std::borrow::Borrow;
use std::fmt;
use std::mem::MaybeUninit;
use std::sync::Arc;

use gjk_core::SupportMap;
use gjk_core::{Distance, Intersection, Pose, Shape, Status};
use glam::Vec3;
use rayon::prelude::*;
use wide::f32x8;

use crate::bounds_x8::{BoundsVerdictX8, ball_tests_x8, box_ball_tests_x8, box_box_overlap_x8};
use crate::gjk_x8::{DistanceX8, distance_x8, intersects_x8};
use crate::math::{CmpX8, Mask8, PoseX8, QuatX8, Vec3x8};
use crate::sat_x8::cuboids_sat_x8;
use crate::segments_x8::{SegmentCoreX8, segments_distance_x8, segments_intersect_x8};
use crate::shapes::{
    CapsuleX8, ConeX8, CuboidX8, CylinderX8, HullX8, LaneShape, RoundedX8, SphereX8, SupportMapX8,
};
use gjk_core::query::bounds::{ball_overlap_point, ball_tests, box_ball_tests};

/// Why a batch query was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// The four input slices must have the same length (one entry per pair).
    LengthMismatch {
        /// Length of `shapes_a`.
        shapes_a: usize,
        /// Length of `poses_a`.
        poses_a: usize,
        /// Length of `shapes_b`.
        shapes_b: usize,
        /// Length of `poses_b`.
        poses_b: usize,
    },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::LengthMismatch {
                shapes_a,
                poses_a,
                shapes_b,
                poses_b,
            } => write!(
                f,
                "batch inputs must have one entry per pair: shapes_a {shapes_a}, \
                 poses_a {poses_a}, shapes_b {shapes_b}, poses_b {poses_b}"
            ),
        }
    }
}

impl std::error::Error for BatchError {}

/// How a batch query spreads its work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parallelism {
    /// Everything on the calling thread.
    Sequential,
    /// Tasks on the current rayon pool (use `rayon::ThreadPool::install` to
    /// choose the thread count): each block of 8192 consecutive pairs is a task
    /// that buckets its pairs, then runs its buckets' batches in nested tasks of
    /// at most `batches_per_task` batches of eight pairs (one bucket's pairs
    /// each).
    Rayon {
        /// Batches per kernel task (tasks at a bucket's end hold fewer): smaller
        /// tasks balance the threads better, larger ones amortize scheduling.
        batches_per_task: usize,
    },
}

impl Default for Parallelism {
    /// Rayon with kernel tasks of 16 batches (128 pairs).
    fn default() -> Self {
        Parallelism::Rayon {
            batches_per_task: 16,
        }
    }
}

/// Options of the batch queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchOptions {
    /// How the work is spread (default: [`Parallelism::default`]).
    pub parallelism: Parallelism,
    /// Whether the queries answer the pairs that cheap tests decide without
    /// running GJK on them (default: yes). The boolean query takes both verdicts
    /// of the bounding balls ([`gjk_core::query::bounds`]) and of the
    /// separating-axis test for box pairs ([`cuboids_sat_x8`]); the distance query
    /// takes the balls' overlap verdict, answering distance 0 with a point inside
    /// both shapes as both witnesses. Such pairs report 0 iterations.
    pub early_outs: bool,
    /// Whether pairs of spheres and capsules (rounded or not) take the closed-form
    /// segment kernels ([`crate::segments_x8`]) instead of GJK, in both queries
    /// (default: yes). Their answers report 0 iterations.
    pub closed_forms: bool,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            parallelism: Parallelism::default(),
            early_outs: true,
            closed_forms: true,
        }
    }
}

/// Number of shape kinds a kernel is monomorphized for (`Rounded` is not one).
const KINDS: usize = 6;

/// Buckets with hulls are sorted further by hull, so that batches mostly hold one
/// hull pair: this many distinct hulls get their own key ([`HullIds`]), further
/// ones share hash bins of their addresses.
const HULL_BINS: usize = 256;

/// Pairs bucketed together (see `run_query`): large enough that a mixed block's
/// buckets mostly fill whole batches and a hull bucket's runs of one hull pair
/// are long (its rows are splatted once a run), small enough that a block's
/// shapes and poses stay in the L2 or L3 cache. 8192 against 2048, callgrind on
/// the standard pairs: 4% fewer instructions for hull-hull distance, 7% for
/// hull-hull intersects, 7% and 10% for the mixed workload's; wall time level or
/// faster, on one thread and on two.
const BLOCK: usize = 8192;

/// The kernel index of spheres.
const SPHERE: usize = 0;

/// The kernel index of boxes.
const CUBOID: usize = 1;

/// The kernel index of capsules.
const CAPSULE: usize = 2;

/// The kernel index of cylinders.
const CYLINDER: usize = 3;

/// The kernel index of cones.
const CONE: usize = 4;

/// The kernel index of convex hulls.
const HULL: usize = 5;

/// The kind a shape runs as and its extra rounding radius: `Rounded` wrappers are
/// peeled off and their radii summed into a margin.
#[inline(always)]
fn peel(shape: &Shape) -> (&Shape, f32) {
    let mut s = shape;
    let mut radius = 0.0;
    while let Shape::Rounded(r) = s {
        radius += r.radius();
        s = r.inner();
    }
    (s, radius)
}

/// The kernel index of a shape's kind, `Rounded` layers peeled.
#[inline(always)]
fn kind_index(shape: &Shape) -> usize {
    match shape {
        Shape::Sphere(_) => SPHERE,
        Shape::Cuboid(_) => CUBOID,
        Shape::Capsule(_) => CAPSULE,
        Shape::Cylinder(_) => CYLINDER,
        Shape::Cone(_) => CONE,
        Shape::ConvexHull(_) => HULL,
        Shape::Rounded(_) => kind_index(peel(shape).0),
    }
}

/// What the bounding tests read of a shape, `Rounded` layers peeled: one match
/// instead of a dispatch per item.
struct Facts {
    /// The kernel index of its kind.
    kind: usize,
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
fn core_facts(inner_shape: &Shape, rounding: f32) -> Facts {
    let mut half_extents = Vec3::ZERO;
    let (kind, outer, inner) = match inner_shape {
        Shape::Sphere(s) => (SPHERE, s.bounding_radius(), s.inner_radius()),
        Shape::Cuboid(s) => {
            half_extents = s.half_extents();
            (CUBOID, s.bounding_radius(), s.inner_radius())
        }
        Shape::Capsule(s) => (CAPSULE, s.bounding_radius(), s.inner_radius()),
        Shape::Cylinder(s) => (CYLINDER, s.bounding_radius(), s.inner_radius()),
        Shape::Cone(s) => (CONE, s.bounding_radius(), s.inner_radius()),
        Shape::ConvexHull(s) => (HULL, s.bounding_radius(), s.inner_radius()),
        // `peel` leaves no `Rounded`; if it did, no ball would decide the pair.
        Shape::Rounded(_) => (kind_index(inner_shape), f32::NAN, f32::NEG_INFINITY),
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
fn bounding_tests(a: &Facts, pose_a: &Pose, b: &Facts, pose_b: &Pose) -> (bool, bool) {
    let (ta, tb) = (pose_a.translation(), pose_b.translation());
    match (a.kind == CUBOID, b.kind == CUBOID) {
        (true, false) => box_ball_tests(a.half_extents, a.rounding, pose_a, tb, b.outer, b.inner),
        (false, true) => box_ball_tests(b.half_extents, b.rounding, pose_b, ta, a.outer, a.inner),
        _ => ball_tests(ta, tb, a.outer + b.outer, a.inner + b.inner),
    }
}

/// One side of a pair as the wide bounds pass reads it, one row of an 8x8
/// transpose: outer and inner radius, a box's half extents, the rounding, whether
/// it is a box, and a 1 that padding rows (all zero) lack.
#[inline(always)]
fn bounds_row(f: &Facts) -> [f32; 8] {
    let h = f.half_extents;
    let is_box = if f.kind == CUBOID { 1.0 } else { 0.0 };
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
fn bounding_tests_x8(
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
        let he_a = Vec3x8::new(hxa, hya, hza);
        let he_b = Vec3x8::new(hxb, hyb, hzb);
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
/// costs about 40 instructions a pair, and saves the kernel for the pairs it
/// decides, but the batches left hold the harder pairs and run longer. Measured
/// with callgrind on the standard pairs (instructions per pair without / with the
/// test): ball-ball 215 / 122, hull-hull 1,611 / 861, cuboid-hull 1,076 / 774,
/// cylinder 579 / 443, rounded 922 / 601, mixed 815 / 598; but capsule-capsule
/// 320 / 353 and cone-cone 578 / 621, whose inner balls (the capsule's radius, the
/// cone's distance to its side) are small beside their outer balls. Box pairs take
/// the separating-axis test instead, which decides all the balls would and more.
#[inline(always)]
fn boolean_ball_test_pays(kind_a: usize, kind_b: usize) -> bool {
    let thin = |k: usize| k == CAPSULE || k == CONE;
    let both_thin = thin(kind_a) && thin(kind_b);
    let both_boxes = kind_a == CUBOID && kind_b == CUBOID;
    !both_thin && !both_boxes
}

/// The address of a (peeled) hull, or 0 for other kinds: identifies a hull within
/// one driver call, whose shapes are borrowed for the whole call.
#[inline(always)]
fn hull_address(shape: &Shape) -> usize {
    match peel(shape).0 {
        Shape::ConvexHull(h) => Arc::as_ptr(h) as usize,
        _ => 0,
    }
}

/// One query the driver can run: the wide kernel call and the scalar result type.
trait Query: Sync {
    type Out: Copy + Send + Sync;
    /// What decides a pair of boxes before GJK, for the lanes of `lanes`
    /// ([`box_prepass`]); answers as [`Query::decides`] and [`Query::answer`]
    /// read them.
    fn box_verdict(
        a: &RoundedX8<CuboidX8>,
        pose_a: &PoseX8,
        b: &RoundedX8<CuboidX8>,
        pose_b: &PoseX8,
        lanes: Mask8,
    ) -> BoundsVerdictX8;
    /// Whether [`Query::answer`] needs a point inside both shapes.
    const INSIDE_POINT: bool;
    /// The span of [`closeness_bin`]'s measure over which the pairs that reach
    /// GJK spread.
    const CLOSENESS_SPAN: f32;
    /// Whether the bounding tests are worth running on a kind pair.
    fn ball_test_pays(kind_a: usize, kind_b: usize, options: &BatchOptions) -> bool;
    /// Which lanes a cheap test's verdicts (`apart`, `overlapping`, one bit a
    /// lane) decide.
    fn decides(apart: u8, overlapping: u8) -> u8;
    /// The answer of a pair a cheap test decided (`overlap`: which way; `inside`:
    /// a point inside both shapes when they overlap). For an undecided pair, any
    /// value: the kernel overwrites it.
    fn answer(overlap: bool, inside: Vec3) -> Self::Out;
    /// The closed-form kernel for point and segment cores, like `run`.
    ///
    /// # Safety
    /// As for `run`.
    unsafe fn run_segments<A: SegmentCoreX8, B: SegmentCoreX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Self::Out>,
    );
    /// Runs the kernel on the lanes of the pairs `batch` (lane `k` holds pair
    /// `batch[k]`) and writes lane `k`'s result to slot `batch[k]` of `out`.
    ///
    /// # Safety
    /// No other task may access the slots of `batch` meanwhile (see
    /// [`OutSlots::write`]).
    unsafe fn run<A: SupportMapX8, B: SupportMapX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Self::Out>,
    );
}

struct IntersectsQuery;

impl Query for IntersectsQuery {
    type Out = Intersection;
    const INSIDE_POINT: bool = false;
    /// With early outs, the balls decide every pair outside `0..1`.
    const CLOSENESS_SPAN: f32 = 1.0;
    /// The separating-axis test ([`cuboids_sat_x8`]), which decides every pair the
    /// balls would and more.
    #[inline(always)]
    fn box_verdict(
        a: &RoundedX8<CuboidX8>,
        pose_a: &PoseX8,
        b: &RoundedX8<CuboidX8>,
        pose_b: &PoseX8,
        lanes: Mask8,
    ) -> BoundsVerdictX8 {
        let v = cuboids_sat_x8(a, pose_a, b, pose_b, lanes);
        BoundsVerdictX8 {
            apart: v.apart,
            overlapping: v.overlapping,
            inside: Vec3x8::ZERO,
        }
    }
    #[inline(always)]
    fn ball_test_pays(kind_a: usize, kind_b: usize, _: &BatchOptions) -> bool {
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
    #[inline(always)]
    unsafe fn run<A: SupportMapX8, B: SupportMapX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Intersection>,
    ) {
        let r = intersects_x8(a, pose_a, b, pose_b, Mask8::first(batch.len()));
        for (k, &i) in batch.iter().enumerate() {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(i as usize, r.lane(k)) };
        }
    }
    #[inline(always)]
    unsafe fn run_segments<A: SegmentCoreX8, B: SegmentCoreX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Intersection>,
    ) {
        let r = segments_intersect_x8(a, pose_a, b, pose_b, Mask8::first(batch.len()));
        for (k, &i) in batch.iter().enumerate() {
            // SAFETY: exclusive by the caller's contract.
            unsafe { out.write(i as usize, r.lane(k)) };
        }
    }
}

struct DistanceQuery;

impl Query for DistanceQuery {
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
        lanes: Mask8,
    ) -> BoundsVerdictX8 {
        let (rot_a, rot_b) = (pose_a.rotation_matrix(), pose_b.rotation_matrix());
        let (overlapping, inside) = box_box_overlap_x8(
            (a.inner.half_extents, &rot_a, pose_a.translation),
            (b.inner.half_extents, &rot_b, pose_b.translation),
        );
        BoundsVerdictX8 {
            apart: Mask8::NONE,
            overlapping: overlapping & lanes,
            inside,
        }
    }
    /// Everywhere but on pairs of spheres and capsules when they take the closed
    /// forms, which cost about what the test does, and on pairs of boxes, which
    /// take the box-box certificate after bucketing instead ([`box_prepass`]:
    /// it certifies 92% of the overlapping standard pairs, the box-ball tests
    /// 67%). The GJK distance kernel costs hundreds of instructions a pair and the
    /// test about 40; on the standard pairs it certifies 12% (cones) to 35%
    /// (cuboid-hull) of the pairs.
    #[inline(always)]
    fn ball_test_pays(kind_a: usize, kind_b: usize, options: &BatchOptions) -> bool {
        let boxes = kind_a == CUBOID && kind_b == CUBOID;
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
    #[inline(always)]
    unsafe fn run<A: SupportMapX8, B: SupportMapX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Distance>,
    ) {
        let r = distance_x8(a, pose_a, b, pose_b, Mask8::first(batch.len()));
        // SAFETY: exclusive by the caller's contract.
        unsafe { out.write_distances(batch, &r) };
    }
    #[inline(always)]
    unsafe fn run_segments<A: SegmentCoreX8, B: SegmentCoreX8>(
        a: &A,
        pose_a: &PoseX8,
        b: &B,
        pose_b: &PoseX8,
        batch: &[u32],
        out: &OutSlots<Distance>,
    ) {
        let r = segments_distance_x8(a, pose_a, b, pose_b, Mask8::first(batch.len()));
        // SAFETY: exclusive by the caller's contract.
        unsafe { out.write_distances(batch, &r) };
    }
}

/// The output vector's slots, written once each, possibly from several threads.
struct OutSlots<T> {
    ptr: *mut MaybeUninit<T>,
    len: usize,
}

// SAFETY: `OutSlots` hands out writes to disjoint slots only (see `write`); `T` is
// `Send`, so moving values into slots from other threads is sound.
unsafe impl<T: Send> Sync for OutSlots<T> {}
unsafe impl<T: Send> Send for OutSlots<T> {}

impl<T: Copy> OutSlots<T> {
    /// # Safety
    /// Slot `i` must not be written concurrently with any other access to it: the
    /// driver writes each slot once or twice, from one task at a time (an early
    /// answer from the task planning its block, then its kernel's from the task
    /// running its bucket's slice; with rayon a block's kernel tasks are forked
    /// after its planning has finished). `T: Copy` has no drop, so overwriting
    /// leaks nothing.
    #[inline(always)]
    unsafe fn write(&self, i: usize, value: T) {
        assert!(i < self.len);
        // SAFETY: in bounds (checked above) and exclusive by the caller's contract.
        unsafe { (*self.ptr.add(i)).write(value) };
    }
}

// `write_distances` stores a `Distance` as twelve 32-bit words in this order.
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<Distance>() == 48);
    assert!(offset_of!(Distance, distance) == 0);
    assert!(offset_of!(Distance, point_a) == 4);
    assert!(offset_of!(Distance, point_b) == 16);
    assert!(offset_of!(Distance, normal) == 28);
    assert!(offset_of!(Distance, iterations) == 40);
    assert!(offset_of!(Distance, status) == 44);
    assert!(size_of::<Status>() == 1);
};

impl OutSlots<Distance> {
    /// Writes lane `k` of `r` to slot `batch[k]`, as two vector stores a lane:
    /// the results are transposed from lanes to the field order of `Distance`
    /// (`repr(C)`, twelve 32-bit words, checked above) instead of gathered field
    /// by field, which cost a fifth of a sphere pair's time.
    ///
    /// # Safety
    /// As for [`OutSlots::write`], for every slot of `batch`.
    #[inline(always)]
    unsafe fn write_distances(&self, batch: &[u32], r: &DistanceX8) {
        let word = |bits: [u32; 8]| f32x8::new(bits.map(f32::from_bits));
        // `Status` is `repr(u8)`: its byte first, then three bytes of padding.
        let status = word(
            r.status
                .map(|s| u32::from_ne_bytes([s.to_core() as u8, 0, 0, 0])),
        );
        let (a, b, n) = (r.point_a, r.point_b, r.normal);
        let head = f32x8::transpose([r.distance, a.x, a.y, a.z, b.x, b.y, b.z, n.x]);
        let zero = f32x8::ZERO;
        let tail = f32x8::transpose([n.y, n.z, word(r.iterations), status, zero, zero, zero, zero]);
        for (k, &i) in batch.iter().enumerate() {
            assert!((i as usize) < self.len);
            let [t0, t1, t2, t3, ..] = tail[k].to_array();
            // SAFETY: in bounds (checked above) and exclusive by the caller's
            // contract. The slot's 48 bytes receive the twelve words of lane `k`
            // in the field order of `Distance` (asserted above): floats for the
            // distance and points, the iteration count's bits, and a status
            // byte that is a valid `Status` (its discriminant) followed by
            // padding. Unaligned stores: the slot is only 4-byte aligned.
            unsafe {
                let words = self.ptr.add(i as usize).cast::<f32>();
                words.cast::<[f32; 8]>().write_unaligned(head[k].to_array());
                words
                    .add(8)
                    .cast::<[f32; 4]>()
                    .write_unaligned([t0, t1, t2, t3]);
            }
        }
    }
}

/// The pairs of one call.
struct Inputs<'s, S> {
    shapes_a: &'s [S],
    poses_a: &'s [Pose],
    shapes_b: &'s [S],
    poses_b: &'s [Pose],
}

/// Eight poses in SoA form: lane `k` from `poses[idx[k]]`, lanes past `idx.len()`
/// repeating the first (they are not queried).
#[inline(always)]
fn pose_x8(poses: &[Pose], idx: &[u32]) -> PoseX8 {
    pose_x8_full(
        poses,
        &std::array::from_fn(|k| *idx.get(k).unwrap_or(&idx[0])),
    )
}

/// [`pose_x8`] on exactly eight indices: one 8x8 transpose instead of 56 scalar
/// lane stores.
#[inline(always)]
fn pose_x8_full(poses: &[Pose], idx: &[u32; 8]) -> PoseX8 {
    let rows: [f32x8; 8] = std::array::from_fn(|k| f32x8::new(poses[idx[k] as usize].to_row()));
    let [qx, qy, qz, qw, tx, ty, tz, _] = f32x8::transpose(rows);
    PoseX8 {
        rotation: QuatX8 {
            x: qx,
            y: qy,
            z: qz,
            w: qw,
        },
        translation: Vec3x8::new(tx, ty, tz),
    }
}

/// The peeled shapes of the pairs `batch` (lanes past its end repeat lane 0) and
/// their rounding radii.
#[inline(always)]
fn lane_shapes<'s, S: Borrow<Shape>>(shapes: &'s [S], batch: &[u32]) -> ([&'s Shape; 8], f32x8) {
    let mut radius = [0.0f32; 8];
    let mut inner = [peel(shapes[batch[0] as usize].borrow()).0; 8];
    for (k, &i) in batch.iter().enumerate() {
        (inner[k], radius[k]) = peel(shapes[i as usize].borrow());
    }
    (inner, f32x8::new(radius))
}

/// Packs the pairs `batch` (at most eight, one kind pair) into the wide shapes `a`
/// and `b`, and returns their poses.
#[inline(always)]
fn pack_batch<SA: LaneShape, SB: LaneShape, S: Borrow<Shape>>(
    inputs: &Inputs<'_, S>,
    batch: &[u32],
    a: &mut RoundedX8<SA>,
    b: &mut RoundedX8<SB>,
) -> (PoseX8, PoseX8) {
    let (inner_a, radius_a) = lane_shapes(inputs.shapes_a, batch);
    let (inner_b, radius_b) = lane_shapes(inputs.shapes_b, batch);
    a.inner.pack(&inner_a);
    b.inner.pack(&inner_b);
    a.radius = radius_a;
    b.radius = radius_b;
    (
        pose_x8(inputs.poses_a, batch),
        pose_x8(inputs.poses_b, batch),
    )
}

/// Moves the box-box pairs of `idx` that the query's box verdict
/// ([`Query::box_verdict`]: separating axes, or the box-box certificate) leaves
/// undecided to the front of `idx`, in order, and returns how many there are; the
/// decided ones get their answer. It reads the packed boxes, which costs less than
/// gathering the shapes' facts for the bounding pass before bucketing. The
/// compaction is branch-free, like the bounding-ball pass, and in place: a batch
/// is copied out before any of its slots can be overwritten, and the write cursor
/// never passes the read position.
fn box_prepass<Q: Query, S: Borrow<Shape>>(
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
        let v = Q::box_verdict(&a, &pose_a, &b, &pose_b, Mask8::first(len));
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

/// Runs query `Q` on the pairs `idx` (bucket order, one kind pair `SA`, `SB`),
/// eight at a time, writing each result to its input slot. The wide shapes are
/// reused from batch to batch (hulls skip repacking when the lanes' hulls repeat).
fn run_bucket<SA, SB, Q, S>(inputs: &Inputs<'_, S>, idx: &[u32], out: &OutSlots<Q::Out>)
where
    SA: LaneShape,
    SB: LaneShape,
    Q: Query,
    S: Borrow<Shape>,
{
    let mut a = RoundedX8::<SA>::default();
    let mut b = RoundedX8::<SB>::default();
    for batch in idx.chunks(8) {
        let (pose_a, pose_b) = pack_batch(inputs, batch, &mut a, &mut b);
        // SAFETY: `batch` is a range of a block's `order`, which holds each pair
        // once; slices handed to different tasks are disjoint, and run after
        // their block's planning (see `run_query`).
        unsafe { Q::run(&a, &pose_a, &b, &pose_b, batch, out) };
    }
}

/// [`run_bucket`] with the closed-form segment kernel (spheres and capsules).
fn run_segment_bucket<SA, SB, Q, S>(inputs: &Inputs<'_, S>, idx: &[u32], out: &OutSlots<Q::Out>)
where
    SA: LaneShape + SegmentCoreX8,
    SB: LaneShape + SegmentCoreX8,
    Q: Query,
    S: Borrow<Shape>,
{
    let mut a = RoundedX8::<SA>::default();
    let mut b = RoundedX8::<SB>::default();
    for batch in idx.chunks(8) {
        let (pose_a, pose_b) = pack_batch(inputs, batch, &mut a, &mut b);
        // SAFETY: as in `run_bucket`.
        unsafe { Q::run_segments(&a, &pose_a, &b, &pose_b, batch, out) };
    }
}

/// Whether a kind has a point or segment core (sphere, capsule).
#[inline(always)]
fn segment_core(kind: usize) -> bool {
    kind == SPHERE || kind == CAPSULE
}

/// Second dispatch level: the kind of B.
fn dispatch_b<SA: LaneShape, Q: Query, S: Borrow<Shape>>(
    kind_b: usize,
    inputs: &Inputs<'_, S>,
    idx: &[u32],
    out: &OutSlots<Q::Out>,
) {
    match kind_b {
        SPHERE => run_bucket::<SA, SphereX8, Q, S>(inputs, idx, out),
        CUBOID => run_bucket::<SA, CuboidX8, Q, S>(inputs, idx, out),
        CAPSULE => run_bucket::<SA, CapsuleX8, Q, S>(inputs, idx, out),
        CYLINDER => run_bucket::<SA, CylinderX8, Q, S>(inputs, idx, out),
        CONE => run_bucket::<SA, ConeX8, Q, S>(inputs, idx, out),
        _ => run_bucket::<SA, HullX8, Q, S>(inputs, idx, out),
    }
}

/// First dispatch level: the kind of A.
fn dispatch<Q: Query, S: Borrow<Shape>>(
    key: usize,
    inputs: &Inputs<'_, S>,
    idx: &[u32],
    out: &OutSlots<Q::Out>,
) {
    let (kind_a, kind_b) = (key / KINDS, key % KINDS);
    match kind_a {
        SPHERE => dispatch_b::<SphereX8, Q, S>(kind_b, inputs, idx, out),
        CUBOID => dispatch_b::<CuboidX8, Q, S>(kind_b, inputs, idx, out),
        CAPSULE => dispatch_b::<CapsuleX8, Q, S>(kind_b, inputs, idx, out),
        CYLINDER => dispatch_b::<CylinderX8, Q, S>(kind_b, inputs, idx, out),
        CONE => dispatch_b::<ConeX8, Q, S>(kind_b, inputs, idx, out),
        _ => dispatch_b::<HullX8, Q, S>(kind_b, inputs, idx, out),
    }
}

/// Dense ids for the hulls of one bucket, by address, in order of first
/// appearance: the keys of [`sort_by_hulls`]. They are exact where bins of a
/// hash of the address were not: two hulls sharing a bin (one run in ten with the
/// standard pairs' eight hulls, by where the allocator put them) interleaved
/// their runs, and the batches mixed hulls, costing the boolean hull-hull query
/// 7% more instructions. Being independent of addresses, they also make the
/// batches the same from run to run. Past [`HULL_BINS`] distinct hulls a new hull
/// takes the hash bin of its address instead: batches may then mix hulls, which
/// costs time, never correctness (a lane's result does not depend on its batch).
struct HullIds {
    /// Open addressing with linear probing: the addresses, 0 (no hull lives
    /// there) marking a free slot, never more than half full...
    keys: [usize; HULL_SLOTS],
    /// ...and their ids.
    ids: [u8; HULL_SLOTS],
    /// Ids handed out so far.
    count: usize,
}

/// Slots of [`HullIds`]' table: twice the ids it hands out.
const HULL_SLOTS: usize = 2 * HULL_BINS;

impl HullIds {
    fn new() -> Self {
        HullIds {
            keys: [0; HULL_SLOTS],
            ids: [0; HULL_SLOTS],
            count: 0,
        }
    }

    /// The id of the hull at `address` (nonzero).
    #[inline(always)]
    fn id(&mut self, address: usize) -> u8 {
        let hash = address_hash(address);
        let mut at = (hash >> 32) as usize % HULL_SLOTS;
        // At most half full, so a free slot ends the probe well within the bound.
        for _ in 0..HULL_SLOTS {
            let key = self.keys[at];
            if key == address {
                return self.ids[at];
            }
            if key == 0 {
                if self.count == HULL_BINS {
                    break;
                }
                let id = self.count as u8;
                (self.keys[at], self.ids[at]) = (address, id);
                self.count += 1;
                return id;
            }
            at = (at + 1) % HULL_SLOTS;
        }
        (hash >> 56) as u8
    }
}

/// Fibonacci hashing of an address, whose low bits are alignment: the top bits
/// are well mixed ([`HullIds`] probes from bits 32.., and its fallback bin is the
/// top byte).
#[inline(always)]
fn address_hash(address: usize) -> u64 {
    (address as u64 >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Sorts the pairs `idx` of a hull bucket by A's hull, then by B's ([`HullIds`]),
/// then (given the poses and span) by [`closeness_bin`], with stable counting
/// passes, minor key first. Runs of one hull pair fill whole batches, and A's
/// hull changes only between runs: A's rows are reused across the pairs of all
/// its B hulls, and only B's are splatted again when B's hull changes.
///
/// Within a run, pairs of like closeness share batches: a batch runs as many
/// trips as its slowest lane, and GJK's iteration count peaks for pairs near
/// touching (on the standard hull pairs, a mean of 7.0 support calls there
/// against 3.8 to 4.1 far apart or deep), so mixing them idles lanes.
fn sort_by_hulls<S: Borrow<Shape>>(
    sa: &[S],
    sb: &[S],
    idx: &mut [u32],
    (a_hull, b_hull): (bool, bool),
    closeness: Option<(&[Pose], &[Pose], f32)>,
) {
    let bins: Option<Vec<u8>> = closeness.map(|(pa, pb, span)| {
        idx.iter()
            .map(|&i| {
                let i = i as usize;
                let (inner_a, outer_a) = ball_radii(sa[i].borrow());
                let (inner_b, outer_b) = ball_radii(sb[i].borrow());
                let centres_sq = pa[i].translation().distance_squared(pb[i].translation());
                closeness_bin(centres_sq, inner_a + inner_b, outer_a + outer_b, span)
            })
            .collect()
    });
    let mut ids = HullIds::new();
    let mut keys = |shapes: &[S], items: &[u32]| -> Vec<u8> {
        items
            .iter()
            .map(|&i| ids.id(hull_address(shapes[i as usize].borrow())))
            .collect()
    };
    let mut unsorted = idx.to_vec();
    // The minor key: B's hull id and the closeness bin in one byte when B's ids
    // fit in its high half (one pass saved, in the common case of few hulls);
    // else a pass by closeness first.
    let mut minor = if b_hull {
        keys(sb, &unsorted)
    } else {
        vec![0; idx.len()]
    };
    if let Some(bins) = &bins {
        let ids_fit_in_a_nibble = minor
            .iter()
            .all(|&id| usize::from(id) < HULL_BINS / CLOSENESS_BINS);
        if ids_fit_in_a_nibble {
            for (key, &bin) in minor.iter_mut().zip(bins) {
                *key = *key * CLOSENESS_BINS as u8 + bin;
            }
        } else {
            scattered_counting_sort::<CLOSENESS_BINS>(bins, &unsorted, idx);
            unsorted.copy_from_slice(idx);
            minor = keys(sb, &unsorted);
        }
    }
    if b_hull || bins.is_some() {
        scattered_counting_sort::<HULL_BINS>(&minor, &unsorted, idx);
    }
    if a_hull {
        let unsorted = idx.to_vec();
        scattered_counting_sort::<HULL_BINS>(&keys(sa, &unsorted), &unsorted, idx);
    }
}

/// The bucket length from which [`sort_by_hulls`] sorts by closeness: runs of
/// one hull pair must be long for it to pay, and a bucket of many pairs is a
/// cheap sign of long runs (16 pairs a run, two batches, with 64 hull pairs).
/// The mixed workload's hull buckets hold about 230 pairs a block, four a run
/// for hull-hull, and sorting them cost 2.4% of its boolean time.
const CLOSENESS_MIN_BUCKET: usize = 1024;

/// A shape's inner and bounding radii (its balls about its origin).
#[inline(always)]
fn ball_radii(shape: &Shape) -> (f32, f32) {
    (shape.inner_radius(), shape.bounding_radius())
}

/// Bins of [`closeness_bin`] that [`sort_by_hulls`] orders a run by. On the
/// standard hull-hull pairs, 16 bins run 10.4% fewer distance trips and 8.6%
/// fewer boolean ones than input order (a full sort by the ratio of the centres'
/// distance to the bounding radii 11.2% and 9.1%; 4 bins 2.3% and 7.1%).
const CLOSENESS_BINS: usize = 16;

/// Where the squared distance between a pair's centres (`centres_sq`) lies
/// between the squared sums of the inner radii (0: the shapes surely overlap) and
/// of the bounding radii (1: they surely do not), cut into [`CLOSENESS_BINS`]
/// over `0..span`: a cheap guess at how near the pair is to touching. Squares
/// keep the square root out; for given radii they order the pairs as their
/// distances do.
#[inline(always)]
fn closeness_bin(centres_sq: f32, inner: f32, outer: f32, span: f32) -> u8 {
    // A shape without an inner ball (gjk-core gives a hull whose origin is not
    // inside it an inner radius of −∞) makes the sum −∞ or negative: no ball,
    // so the scale starts where the centres meet.
    let inner = inner.max(0.0);
    let (inner_sq, outer_sq) = (inner * inner, outer * outer);
    let t = (centres_sq - inner_sq) / (outer_sq - inner_sq);
    // Saturating: below 0 and NaN go to bin 0, past the span to the last.
    ((t * (CLOSENESS_BINS as f32 / span)) as u8).min(CLOSENESS_BINS as u8 - 1)
}

/// Calls `f(key, run_length)` for each maximal run of equal keys, in order.
#[inline(always)]
fn for_each_run(keys: &[u8], mut f: impl FnMut(u8, usize)) {
    let mut rest = keys;
    while let Some(&k) = rest.first() {
        // Eight keys per comparison while they match.
        let pattern = u64::from_ne_bytes([k; 8]);
        let mut len = 0;
        while let Some(word) = rest.get(len..len + 8)
            && u64::from_ne_bytes(word.try_into().unwrap_or_default()) == pattern
        {
            len += 8;
        }
        len += rest[len..]
            .iter()
            .position(|&x| x != k)
            .unwrap_or(rest.len() - len);
        f(k, len);
        rest = &rest[len..];
    }
}

/// Stable counting sort of `items` by `keys` (`keys[j]` belongs to `items[j]`, all
/// below `BINS`): returns the sorted items and where each bin starts. Runs of equal
/// keys are counted and placed in registers: a histogram that increments one
/// counter in memory per item is bound by store-to-load latency.
fn counting_sort<const BINS: usize>(
    keys: &[u8],
    items: impl Fn(usize) -> u32,
    sorted: &mut [u32],
) -> [usize; BINS] {
    let mut start = [0usize; BINS];
    for_each_run(keys, |k, len| start[k as usize] += len);
    counts_to_starts(&mut start);
    let mut next = start;
    let mut j = 0;
    for_each_run(keys, |k, len| {
        let s = &mut next[k as usize];
        for (o, jj) in sorted[*s..*s + len].iter_mut().zip(j..) {
            *o = items(jj);
        }
        *s += len;
        j += len;
    });
    start
}

/// [`counting_sort`] for keys that rarely repeat in a row (hull ids in input
/// order): a plain histogram, one counter a key, where counting runs would
/// mispredict the end of almost every run.
fn scattered_counting_sort<const BINS: usize>(keys: &[u8], items: &[u32], sorted: &mut [u32]) {
    let mut next = [0usize; BINS];
    for &k in keys {
        next[k as usize] += 1;
    }
    counts_to_starts(&mut next);
    for (&k, &item) in keys.iter().zip(items) {
        let s = &mut next[k as usize];
        sorted[*s] = item;
        *s += 1;
    }
}

/// Turns per-bin counts into where each bin starts (an exclusive prefix sum).
#[inline(always)]
fn counts_to_starts<const BINS: usize>(counts: &mut [usize; BINS]) {
    let mut sum = 0;
    for c in counts.iter_mut() {
        (*c, sum) = (sum, sum + *c);
    }
}

fn run_query<Q: Query, S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    options: BatchOptions,
) -> Result<Vec<Q::Out>, BatchError> {
    let parallelism = options.parallelism;
    let n = shapes_a.len();
    if poses_a.len() != n || shapes_b.len() != n || poses_b.len() != n {
        return Err(BatchError::LengthMismatch {
            shapes_a: n,
            poses_a: poses_a.len(),
            shapes_b: shapes_b.len(),
            poses_b: poses_b.len(),
        });
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    assert!(n <= u32::MAX as usize, "at most 2^32 - 1 pairs per call");
    let inputs = Inputs {
        shapes_a,
        poses_a,
        shapes_b,
        poses_b,
    };
    let mut results: Vec<Q::Out> = Vec::with_capacity(n);
    let out = OutSlots {
        ptr: results.spare_capacity_mut().as_mut_ptr(),
        len: n,
    };
    // Blocks of consecutive pairs are bucketed independently: a block's shapes
    // and poses stay in cache between bucketing and packing, and tasks bucket in
    // parallel.
    let plan = |first: usize| {
        let range = first..(first + BLOCK).min(n);
        plan_block::<Q, S>(&inputs, range, options, &out)
    };
    // A pool of one thread runs the sequential path: same results, no tasks.
    let parallelism = match parallelism {
        Parallelism::Rayon { .. } if rayon::current_num_threads() == 1 => Parallelism::Sequential,
        p => p,
    };
    match parallelism {
        Parallelism::Sequential => {
            for first in (0..n).step_by(BLOCK) {
                for (key, idx) in plan(first).buckets_mut() {
                    run_slice::<Q, S>(&inputs, key, idx, options, &out);
                }
            }
        }
        Parallelism::Rayon { batches_per_task } => {
            // Each block is a task that plans its pairs and then runs its kernels
            // as nested tasks of `batches_per_task` batches cut from its buckets,
            // while the block's shapes, poses and plan are still in the thread's
            // cache. An idle thread steals the other half of a block's kernels or
            // of the remaining blocks (rayon's join), so a thread that wakes late
            // still finds work. Blocks stay large, so that a mixed block's buckets
            // fill whole batches.
            let task = 8 * batches_per_task.max(1);
            (0..n.div_ceil(BLOCK))
                .into_par_iter()
                .with_max_len(1)
                .for_each(|b| {
                    let mut block = plan(b * BLOCK);
                    let slices: Vec<(usize, &mut [u32])> = block
                        .buckets_mut()
                        .flat_map(|(key, idx)| idx.chunks_mut(task).map(move |c| (key, c)))
                        .collect();
                    slices
                        .into_par_iter()
                        .with_max_len(1)
                        .for_each(|(key, idx)| run_slice::<Q, S>(&inputs, key, idx, options, &out));
                });
        }
    }
    // SAFETY: the blocks cover 0..n exactly once, and every index of a block is
    // written by `plan_block` or by the `run_slice` of its bucket: all n slots are
    // initialized.
    unsafe { results.set_len(n) };
    Ok(results)
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
    fn decide<Q: Query, S: Borrow<Shape>>(
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

/// The pairs of a block that need a kernel, bucketed.
struct Plan {
    /// Pair indices, bucket after bucket.
    order: Vec<u32>,
    /// Each kind pair's range of `order`, by key.
    buckets: [std::ops::Range<usize>; KINDS * KINDS],
}

impl Plan {
    /// The non-empty buckets: key and pair indices, in key order. The slices are
    /// the runner's to reorder (the box pass compacts its undecided pairs in
    /// place).
    fn buckets_mut(&mut self) -> impl Iterator<Item = (usize, &mut [u32])> {
        // The ranges tile `order` in key order, so each bucket is split off the
        // front of what is left.
        let mut rest = self.order.as_mut_slice();
        let mut at = 0;
        self.buckets.iter().enumerate().filter_map(move |(key, r)| {
            debug_assert_eq!(r.start, at, "bucket ranges tile the order");
            at = r.end;
            let (bucket, tail) = std::mem::take(&mut rest).split_at_mut(r.len());
            rest = tail;
            (!bucket.is_empty()).then_some((key, bucket))
        })
    }
}

/// Answers the pairs of `range` that the early outs decide, and buckets the
/// others by kind pair (and hull pair) for [`run_slice`].
fn plan_block<Q: Query, S: Borrow<Shape>>(
    inputs: &Inputs<'_, S>,
    range: std::ops::Range<usize>,
    options: BatchOptions,
    out: &OutSlots<Q::Out>,
) -> Plan {
    let (sa, sb) = (inputs.shapes_a, inputs.shapes_b);
    // The pairs that need a kernel, with their kind-pair keys. Pairs the bounding
    // tests decide get their answer here and stay out of the batches, instead of
    // idling in a lane beside undecided ones. The tests run inline and the append
    // is branch-free (a decided pair is written and then overwritten by the
    // next): which pairs are decided is data, and branching on it mispredicts.
    // The distance query needs a point inside both shapes: the balls give it
    // here, and it sets pairs with a box aside for the wide pass, which rotates
    // eight at once.
    let len = range.len();
    let mut pending = vec![0u32; len];
    let mut keys = vec![0u8; len];
    let mut candidates = Candidates::default();
    // Whether the bounding tests run on a kind pair, by key.
    let pays: [bool; KINDS * KINDS] = std::array::from_fn(|key| {
        options.early_outs && Q::ball_test_pays(key / KINDS, key % KINDS, &options)
    });
    let mut n = 0;
    for i in range {
        // Kinds first: the radii are read only where the tests pay.
        let ((core_a, round_a), (core_b, round_b)) = (peel(sa[i].borrow()), peel(sb[i].borrow()));
        let key = (kind_index(core_a) * KINDS + kind_index(core_b)) as u8;
        let decided = pays[key as usize] && {
            let (fa, fb) = (core_facts(core_a, round_a), core_facts(core_b, round_b));
            if Q::INSIDE_POINT && (fa.kind == CUBOID || fb.kind == CUBOID) {
                // Room for the whole block at the first candidate: no regrowth,
                // and no allocation for blocks without candidates.
                candidates.reserve_once(len);
                candidates.push(i as u32, key, &fa, &fb);
                continue;
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
            Q::decides(u8::from(apart), u8::from(overlap)) != 0
        };
        pending[n] = i as u32;
        keys[n] = key;
        n += usize::from(!decided);
    }
    if !candidates.idx.is_empty() {
        n = candidates.decide::<Q, S>(inputs, out, &mut pending, &mut keys, n);
    }
    pending.truncate(n);
    keys.truncate(n);
    let mut order = vec![0u32; n];
    // Counting sort by kind pair, stable: within a bucket, pairs keep their input
    // order...
    let starts = counting_sort::<{ KINDS * KINDS }>(&keys, |j| pending[j], &mut order);
    let len = order.len();
    let buckets: [std::ops::Range<usize>; KINDS * KINDS] =
        std::array::from_fn(|key| starts[key]..starts.get(key + 1).copied().unwrap_or(len));
    for (key, bucket) in buckets.iter().enumerate() {
        let idx = &mut order[bucket.clone()];
        let (kind_a, kind_b) = (key / KINDS, key % KINDS);
        // ...except in buckets with hulls, which are sorted further by their
        // hulls so that batches mostly hold one hull pair (whose rows are then
        // splatted once and reused by the following batches).
        if (kind_a == HULL || kind_b == HULL) && idx.len() > 8 {
            // A box's ball fits it loosely: no guess at closeness from it.
            let balls_fit = kind_a != CUBOID && kind_b != CUBOID;
            let long = idx.len() >= CLOSENESS_MIN_BUCKET;
            let closeness =
                (balls_fit && long).then_some((inputs.poses_a, inputs.poses_b, Q::CLOSENESS_SPAN));
            sort_by_hulls(sa, sb, idx, (kind_a == HULL, kind_b == HULL), closeness);
        }
    }
    Plan { order, buckets }
}

/// Runs the pairs `idx` of one bucket (kind pair `key`, in bucket order)
/// through their kernel, eight at a time, and writes the results to their slots.
fn run_slice<Q: Query, S: Borrow<Shape>>(
    inputs: &Inputs<'_, S>,
    key: usize,
    idx: &mut [u32],
    options: BatchOptions,
    out: &OutSlots<Q::Out>,
) {
    let (kind_a, kind_b) = (key / KINDS, key % KINDS);
    if options.closed_forms && segment_core(kind_a) && segment_core(kind_b) {
        match (kind_a, kind_b) {
            (SPHERE, SPHERE) => run_segment_bucket::<SphereX8, SphereX8, Q, S>(inputs, idx, out),
            (SPHERE, _) => run_segment_bucket::<SphereX8, CapsuleX8, Q, S>(inputs, idx, out),
            (_, SPHERE) => run_segment_bucket::<CapsuleX8, SphereX8, Q, S>(inputs, idx, out),
            _ => run_segment_bucket::<CapsuleX8, CapsuleX8, Q, S>(inputs, idx, out),
        }
        return;
    }
    if options.early_outs && key == CUBOID * KINDS + CUBOID {
        let pending = box_prepass::<Q, S>(inputs, idx, out);
        run_bucket::<CuboidX8, CuboidX8, Q, S>(inputs, &idx[..pending], out);
        return;
    }
    dispatch::<Q, S>(key, inputs, idx, out);
}

/// Whether each pair `(shapes_a[i] at poses_a[i], shapes_b[i] at poses_b[i])`
/// overlaps or touches, eight pairs per kernel call; results in input order, each
/// bit-identical to what the pair gets alone.
///
/// Pairs whose bounding balls decide the answer ([`gjk_core::query::bounds`])
/// skip GJK and report 0 iterations (not for capsule and cone pairs, where the
/// test costs more than it saves), and so do box pairs that the separating-axis
/// test decides ([`cuboids_sat_x8`]); [`intersects_batch_with`] turns both off.
///
/// Empty input gives empty output; slices of different lengths give
/// [`BatchError::LengthMismatch`]. `S` is `Shape` or any reference to one.
pub fn intersects_batch<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    parallelism: Parallelism,
) -> Result<Vec<Intersection>, BatchError> {
    let options = BatchOptions {
        parallelism,
        ..BatchOptions::default()
    };
    intersects_batch_with(shapes_a, poses_a, shapes_b, poses_b, options)
}

/// [`intersects_batch`] with every option: `options.early_outs = false` runs
/// every pair through the GJK kernel (what a differential test of the kernel
/// wants); the answers agree either way, up to GJK's own accuracy at touching.
pub fn intersects_batch_with<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    options: BatchOptions,
) -> Result<Vec<Intersection>, BatchError> {
    run_query::<IntersectsQuery, S>(shapes_a, poses_a, shapes_b, poses_b, options)
}

/// Distance and closest points of each pair `(shapes_a[i] at poses_a[i],
/// shapes_b[i] at poses_b[i])`, with the conventions of [`gjk_core::distance`];
/// results in input order, each bit-identical to what the pair gets alone.
///
/// Pairs whose inner balls prove an overlap ([`crate::bounds_x8`]) skip GJK:
/// distance 0, a point inside both shapes as both witnesses, a zero normal, 0
/// iterations (which point inside both is the contract's choice: GJK would give
/// another). [`distance_batch_with`] turns that off.
///
/// Empty input gives empty output; slices of different lengths give
/// [`BatchError::LengthMismatch`]. A pair whose relative pose overflows f32 (the
/// validated inputs rule out anything else non-finite) reports
/// `Status::InvalidInput` with a NaN distance.
pub fn distance_batch<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    parallelism: Parallelism,
) -> Result<Vec<Distance>, BatchError> {
    let options = BatchOptions {
        parallelism,
        ..BatchOptions::default()
    };
    distance_batch_with(shapes_a, poses_a, shapes_b, poses_b, options)
}

/// [`distance_batch`] with every option: `options.closed_forms = false` runs
/// sphere and capsule pairs through GJK too, `options.early_outs = false` the
/// pairs the inner balls prove overlapping.
pub fn distance_batch_with<S: Borrow<Shape> + Sync>(
    shapes_a: &[S],
    poses_a: &[Pose],
    shapes_b: &[S],
    poses_b: &[Pose],
    options: BatchOptions,
) -> Result<Vec<Distance>, BatchError> {
    run_query::<DistanceQuery, S>(shapes_a, poses_a, shapes_b, poses_b, options)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use gjk_core::ConvexHull;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// `HullIds` against a map built by brute force: the same address always gets
    /// the same id, the first `HULL_BINS` distinct addresses get 0, 1, 2, ... in
    /// order of first appearance, and addresses past them get the hash bin, with
    /// the earlier ones still found (the probe never runs out of free slots).
    #[test]
    fn hull_ids_are_dense_in_first_appearance_order() {
        let seed = 0x1D5u64;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for case in 0..40 {
            let distinct = [3, 8, 64, 255, 256, 257, 400][case % 7];
            // Allocation-like addresses: nonzero, 16-aligned, clustered.
            let base = rng.random_range(1usize..1 << 40) << 4;
            let pool: Vec<usize> = (0..distinct)
                .map(|k| base + 16 * (k * rng.random_range(1..40)) + 16 * k)
                .collect();
            let mut ids = HullIds::new();
            let mut expected: HashMap<usize, u8> = HashMap::new();
            for _ in 0..4 * distinct {
                let address = pool[rng.random_range(0..distinct)];
                let id = ids.id(address);
                let what = format!("seed {seed:#x} case {case}, address {address:#x}");
                match expected.get(&address) {
                    Some(&seen) => assert_eq!(id, seen, "{what}: the same hull changed id"),
                    None if expected.len() < HULL_BINS => {
                        assert_eq!(usize::from(id), expected.len(), "{what}: not dense");
                        expected.insert(address, id);
                    }
                    None => {
                        let bin = (address_hash(address) >> 56) as u8;
                        assert_eq!(id, bin, "{what}: past the table, not the hash bin");
                        expected.insert(address, id);
                    }
                }
            }
        }
    }

    /// `sort_by_hulls` leaves every hull pair in one run, A's hulls each in one
    /// run too, and within a run the pairs in order of closeness and then of
    /// input (or of input alone without closeness); checked by brute force on
    /// random buckets over shared hulls, with hulls on either side or both, and
    /// with B's ids in and past the byte they share with the closeness bin.
    #[test]
    fn hull_sort_makes_one_run_per_hull_pair() {
        let seed = 0x50_47u64;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Up to 40 hulls: past 16, B's ids and the closeness bins no longer
        // share a byte and the sort takes its separate closeness pass.
        let hulls: Vec<Arc<ConvexHull>> = (0..40)
            .map(|_| {
                // About the origin, so that the inner balls are not empty.
                let points: Vec<Vec3> = (0..12)
                    .map(|_| Vec3::new(rng.random(), rng.random(), rng.random()) * 2.0 - 1.0)
                    .collect();
                Arc::new(ConvexHull::from_points(&points).unwrap())
            })
            .collect();
        let ball: Shape = gjk_core::Sphere::new(0.75).unwrap().into();
        for case in 0..72 {
            // Hull-hull, hull-ball and ball-hull buckets, with B drawn from 6 or
            // 40 hulls (A then from 3, so that runs hold several pairs).
            let (a_hull, b_hull) = [(true, true), (true, false), (false, true)][(case / 2) % 3];
            let (few_a, few_b, n) = if case % 2 == 0 {
                (6, 6, rng.random_range(9..400))
            } else {
                (3, 40, rng.random_range(400..800))
            };
            let pick = |rng: &mut ChaCha8Rng, hull: bool, few: usize| match hull {
                true => Shape::ConvexHull(hulls[rng.random_range(0..few)].clone()),
                false => ball.clone(),
            };
            let sa: Vec<Shape> = (0..n).map(|_| pick(&mut rng, a_hull, few_a)).collect();
            let sb: Vec<Shape> = (0..n).map(|_| pick(&mut rng, b_hull, few_b)).collect();
            if few_b == 40 && b_hull {
                let distinct: std::collections::HashSet<usize> =
                    sb.iter().map(hull_address).collect();
                assert!(
                    distinct.len() > 16,
                    "case {case}: the separate pass needs over 16 B hulls"
                );
            }
            let place = |rng: &mut ChaCha8Rng| {
                let t = Vec3::new(rng.random(), rng.random(), rng.random()) * 3.0;
                Pose::from_translation(t).unwrap()
            };
            let pa: Vec<Pose> = (0..n).map(|_| place(&mut rng)).collect();
            let pb: Vec<Pose> = (0..n).map(|_| place(&mut rng)).collect();
            let span = [None, Some(1.0), Some(4.0)][(case / 6) % 3];
            let bin = |i: u32| {
                span.map_or(0, |span| {
                    let i = i as usize;
                    let ((ia, oa), (ib, ob)) = (ball_radii(&sa[i]), ball_radii(&sb[i]));
                    let d = pa[i].translation().distance_squared(pb[i].translation());
                    closeness_bin(d, ia + ib, oa + ob, span)
                })
            };
            let mut idx: Vec<u32> = (0..n as u32).collect();
            let closeness = span.map(|span| (pa.as_slice(), pb.as_slice(), span));
            sort_by_hulls(&sa, &sb, &mut idx, (a_hull, b_hull), closeness);
            let what = format!(
                "seed {seed:#x} case {case} (n {n}, hulls {a_hull}/{b_hull}, {few_b} B hulls, \
                 span {span:?})"
            );
            let key = |i: u32| (hull_address(&sa[i as usize]), hull_address(&sb[i as usize]));
            let mut sorted = idx.clone();
            sorted.sort_unstable();
            assert!(
                sorted.iter().copied().eq(0..n as u32),
                "{what}: not a permutation"
            );
            let (mut pairs_seen, mut a_seen) = (Vec::new(), Vec::new());
            for (k, &i) in idx.iter().enumerate() {
                let (a, b) = key(i);
                if k == 0 || key(idx[k - 1]) != (a, b) {
                    assert!(!pairs_seen.contains(&(a, b)), "{what}: hull pair split");
                    pairs_seen.push((a, b));
                } else {
                    let (before, here) = ((bin(idx[k - 1]), idx[k - 1]), (bin(i), i));
                    assert!(
                        before < here,
                        "{what}: closeness or input order lost in a run"
                    );
                }
                if k == 0 || key(idx[k - 1]).0 != a {
                    assert!(!a_seen.contains(&a), "{what}: A's hull split");
                    a_seen.push(a);
                }
            }
        }
    }

    /// `closeness_bin`'s ends and order: bin 0 within the inner balls (and for
    /// NaN), the last bin from the span on, bins never falling as the centres
    /// part.
    #[test]
    fn closeness_bins_rise_from_the_inner_to_past_the_outer_balls() {
        let (inner, outer) = (1.0f32, 2.0f32);
        let at = |d: f32, span: f32| closeness_bin(d * d, inner, outer, span);
        let last = CLOSENESS_BINS as u8 - 1;
        for span in [1.0, 4.0] {
            assert_eq!(at(0.0, span), 0);
            assert_eq!(at(inner, span), 0);
            assert_eq!(closeness_bin(f32::NAN, inner, outer, span), 0);
            // A negative or −∞ inner radius (gjk-core's hull whose origin is
            // not inside it) is no ball: the scale starts where the centres
            // meet, and half the outer sum squared is half way (bin 8 of 16
            // over span 1, bin 2 over span 4), not below the inner ball.
            for no_ball in [-1.5, f32::NEG_INFINITY] {
                let half_way = closeness_bin(0.5 * outer * outer, no_ball, outer, span);
                let expected = if span == 1.0 { 8 } else { 2 };
                assert_eq!(half_way, expected, "span {span}, inner {no_ball}");
            }
            assert_eq!(at(100.0, span), last);
            assert_eq!(at(f32::INFINITY, span), last);
            let bins: Vec<u8> = (0..=400).map(|k| at(k as f32 * 0.01, span)).collect();
            assert!(
                bins.windows(2).all(|w| w[0] <= w[1]),
                "span {span}: {bins:?}"
            );
            // Span 1 spreads the pairs between the balls over every bin.
            if span == 1.0 {
                assert_eq!(at(outer, span), last);
                assert_eq!(
                    at(0.5 * (inner + outer), span),
                    6,
                    "(1.5² - 1) / 3 of 16 bins"
                );
            }
        }
    }
}
