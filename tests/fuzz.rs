//! Property-based fuzzing of every public entry point (issue 23, class 6): shape
//! constructors, hulls, poses, the scalar queries, the batch driver, the
//! broadphase and `World`, on hostile inputs (NaN, infinities, subnormals,
//! 1e±30, zero and negative sizes, duplicate and coplanar hull points, poses far
//! from the origin, non-unit quaternions).
//!
//! Properties: no panic and no hang; every answer finite or flagged (a status
//! other than `Converged`); symmetric queries agree when A and B swap; answers are
//! invariant under a common translation (up to 1e4) and a common rotation within
//! f32 rounding; the batch driver equals gjk-core within tolerance, distances and
//! contacts; a manifold's deepest point is as deep as its contact.
//!
//! The seed is fixed (a failure prints its minimal case, shrunk, and replays).
//! A campaign can explore other cases with `FUZZ_SEED` (decimal or `0x` hex),
//! which each property prints, so that a failure names the seed it replays with.
//! CI runs a few hundred cases a property (`PROPTEST_CASES` unset: 256 for the
//! cheap properties, 64 and 16 for the costlier). The long campaign runs about
//! 1.5 million cases in all (400,000 for each cheap property, a quarter and a
//! sixteenth of that for the costlier ones):
//!
//! ```sh
//! PROPTEST_CASES=400000 cargo test --release -p widephase --test fuzz
//! ```

use broadphase::{Aabb, Broadphase, DynamicTree, Ray};
use gjk_core::glam::{Quat, Vec3};
use gjk_core::tolerance::{
    MANIFOLD_BAND_MITRE, MANIFOLD_PARALLEL_SEGMENTS_SIN, MANIFOLD_RELATIVE_TOLERANCE, MAX_SIZE,
    TOUCH_TOLERANCE,
};
use gjk_core::{
    Capsule, Cone, Contact, ConvexHull, Cuboid, Cylinder, Distance, Feature, Manifold, Pose,
    Rounded, Shape, ShapeError, Sphere, Status, SupportMap, contact, distance, intersection,
};
use gjk_simd::{
    BatchOptions, Parallelism, contact_batch_with, distance_batch_with, intersects_batch_with,
    manifold_batch_with,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use widephase::World;
use workloads::oracle::distance_to_shape;

const SEED: u64 = 0x23_f022;
/// Cases a property runs by default (CI), before the weight of each.
const DEFAULT_CASES: u32 = 256;

/// The seed: `FUZZ_SEED` (decimal, or hex after `0x`, with `_` ignored) or the
/// fixed one. A seed that does not parse is an error, not a silent fall back
/// to the fixed one.
fn seed() -> u64 {
    let text = match std::env::var("FUZZ_SEED") {
        Ok(text) => text,
        Err(std::env::VarError::NotPresent) => return SEED,
        Err(e) => panic!("FUZZ_SEED: {e}"),
    };
    let digits = text.replace('_', "");
    let hex = digits.strip_prefix("0x").or(digits.strip_prefix("0X"));
    let parsed = match hex {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => digits.parse::<u64>(),
    };
    let seed = parsed.unwrap_or_else(|_| panic!("FUZZ_SEED={text:?} is not a u64"));
    // Captured by the test harness and shown with a failure.
    eprintln!("fuzz seed {seed:#x}");
    seed
}

/// The configuration of a property: `PROPTEST_CASES` (or the default) divided
/// by `cost`, at least 16, with the seed and no regression files.
fn config(cost: u32) -> Config {
    let base = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(DEFAULT_CASES);
    Config {
        cases: (base / cost).max(16),
        rng_seed: RngSeed::Fixed(seed()),
        failure_persistence: None,
        max_shrink_iters: 2048,
        ..Config::default()
    }
}

/// Any f32, weighted towards the hostile: NaN, infinities, zeros of both signs,
/// subnormals, powers of ten from 1e-30 to 1e30 of both signs, f32::MAX, and
/// ordinary values.
fn hostile() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -10.0f32..10.0,
        1 => Just(0.0f32),
        1 => Just(-0.0f32),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(f32::MAX),
        1 => Just(-f32::MAX),
        1 => (1u32..0x0080_0000).prop_map(f32::from_bits),
        2 => (-30i32..=30).prop_map(|e| 10f32.powi(e)),
        2 => (-30i32..=30).prop_map(|e| -(10f32.powi(e))),
        1 => any::<f32>(),
    ]
}

/// A valid size, from zero to `MAX_SIZE`, weighted towards the ordinary.
fn size() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => 0.05f32..3.0,
        1 => Just(0.0f32),
        1 => (-30i32..=18).prop_map(|e| 10f32.powi(e)),
        1 => Just(MAX_SIZE),
        1 => (1u32..0x0080_0000).prop_map(f32::from_bits),
    ]
}

/// A finite translation, far from the origin at times (up to 1e30).
fn translation() -> impl Strategy<Value = Vec3> {
    let coordinate = prop_oneof![
        6 => -20.0f32..20.0,
        2 => -1e4f32..1e4,
        1 => (-30i32..=30).prop_map(|e| 10f32.powi(e)),
        1 => (-30i32..=30).prop_map(|e| -(10f32.powi(e))),
    ];
    (coordinate.clone(), coordinate.clone(), coordinate).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

/// A rotation from a non-unit quaternion (never zero).
fn rotation() -> impl Strategy<Value = Quat> {
    (-1e3f32..1e3, -1e3f32..1e3, -1e3f32..1e3, 0.01f32..1e3)
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w))
}

fn pose() -> impl Strategy<Value = Pose> {
    (rotation(), translation()).prop_map(|(q, t)| Pose::new(q, t).unwrap())
}

/// A valid shape of any kind, degenerate ones included; a rounded shape dilates
/// any of the others, itself a rounded box at times (nested rounding).
fn shape() -> impl Strategy<Value = Shape> {
    let sized = (0usize..7, 0usize..7, size(), size(), size(), size());
    let hull = prop::collection::vec(
        (
            size(),
            -1.0f32..1.0,
            -1.0f32..1.0,
            -1.0f32..1.0,
            any::<bool>(),
        ),
        1..16,
    );
    (sized, hull).prop_map(|((kind, inner, s1, s2, s3, r), points)| {
        let bare = |kind: usize| -> Shape {
            match kind {
                0 => Sphere::new(s1).unwrap().into(),
                1 => Cuboid::new(Vec3::new(s1, s2, s3)).unwrap().into(),
                2 => Capsule::new(s1, s2).unwrap().into(),
                3 => Cylinder::new(s1, s2).unwrap().into(),
                4 => Cone::new(s1, s2).unwrap().into(),
                5 => {
                    // Points on a box of the first size; flat ones (z = 0) half the time.
                    let points: Vec<Vec3> = points
                        .iter()
                        .map(|&(scale, x, y, z, flat)| {
                            let scale = scale.min(1e17);
                            Vec3::new(x, y, if flat { 0.0 } else { z }) * scale
                        })
                        .collect();
                    ConvexHull::from_points(&points).unwrap().into()
                }
                _ => {
                    let core: Shape = Cuboid::new(Vec3::new(s1, s2, s3)).unwrap().into();
                    Rounded::new(core, s2.min(MAX_SIZE / 4.0)).unwrap().into()
                }
            }
        };
        match kind {
            6 => Rounded::new(bare(inner), r.min(MAX_SIZE / 4.0))
                .unwrap()
                .into(),
            _ => bare(kind),
        }
    })
}

/// What a size the constructors must accept looks like.
fn valid_size(v: f32) -> bool {
    v.is_finite() && (0.0..=MAX_SIZE).contains(&v)
}

fn size_error_ok(e: &ShapeError, value: f32) -> bool {
    match e {
        ShapeError::NotFinite { .. } => !value.is_finite(),
        ShapeError::Negative { .. } => value < 0.0,
        ShapeError::TooLarge { .. } => value > MAX_SIZE,
        _ => false,
    }
}

proptest! {
    #![proptest_config(config(1))]

    /// Constructors accept exactly the valid sizes and name the first bad field.
    #[test]
    fn constructors_accept_valid_sizes_only(a in hostile(), b in hostile(), c in hostile()) {
        let first_bad = [a, b, c].into_iter().find(|v| !valid_size(*v));
        let box_result = Cuboid::new(Vec3::new(a, b, c));
        match (box_result, first_bad) {
            (Ok(_), None) => {}
            (Err(e), Some(v)) => prop_assert!(size_error_ok(&e, v), "{e:?} for {v}"),
            (r, bad) => prop_assert!(false, "{r:?} for first bad {bad:?}"),
        }
        let pair_bad = [a, b].into_iter().find(|v| !valid_size(*v));
        for ok in [
            Capsule::new(a, b).is_ok(),
            Cylinder::new(a, b).is_ok(),
            Cone::new(a, b).is_ok(),
        ] {
            prop_assert_eq!(ok, pair_bad.is_none());
        }
        prop_assert_eq!(Sphere::new(a).is_ok(), valid_size(a));
        let e = Sphere::new(a).err();
        prop_assert!(e.is_none_or(|e| e.to_string().contains("radius")));
    }

    /// Hulls of hostile point sets: an error or a hull of finite input vertices
    /// whose support is the point set's (the hull holds every point).
    #[test]
    fn hulls_of_hostile_points(
        points in prop::collection::vec((hostile(), hostile(), hostile()), 0..24),
        dup in 0usize..4,
    ) {
        let mut points: Vec<Vec3> = points.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)).collect();
        if let Some(&p) = points.first() {
            points.extend(std::iter::repeat_n(p, dup));
        }
        match ConvexHull::from_points(&points) {
            Err(_) => {
                prop_assert!(
                    points.is_empty()
                        || points.iter().any(|p| !p.is_finite() || p.abs().max_element() > MAX_SIZE)
                );
            }
            Ok(hull) => {
                prop_assert!(!hull.vertices().is_empty());
                prop_assert!(hull.vertices().iter().all(|v| points.contains(v)));
                let extent = points.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element()));
                for d in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::ONE, Vec3::new(0.3, -0.7, 0.2)] {
                    let best = points.iter().map(|p| p.as_dvec3().dot(d.as_dvec3())).fold(f64::MIN, f64::max);
                    let got = hull.support(d).as_dvec3().dot(d.as_dvec3());
                    prop_assert!(got >= best - 1e-5 * f64::from(extent) - 1e-30, "{d}: {got} < {best}");
                }
            }
        }
    }

    /// Poses: an error or a unit rotation, never a panic.
    #[test]
    fn poses_of_hostile_input(x in hostile(), y in hostile(), z in hostile(), w in hostile(), t in hostile()) {
        match Pose::new(Quat::from_xyzw(x, y, z, w), Vec3::new(t, -t, 0.5)) {
            Ok(p) => {
                prop_assert!((p.rotation().length() - 1.0).abs() < 1e-5);
                prop_assert!(p.translation().is_finite());
            }
            Err(_) => prop_assert!(!(x.is_finite() && y.is_finite() && z.is_finite() && w.is_finite() && t.is_finite())
                || Quat::from_xyzw(x, y, z, w).length_squared() <= f32::MIN_POSITIVE
                || !Quat::from_xyzw(x, y, z, w).length_squared().is_finite()),
        }
    }
}

/// Finite, or flagged: a `Converged` distance is finite and non-negative with
/// finite points and normal.
fn finite_or_flagged(d: &Distance) -> bool {
    d.status != Status::Converged
        || (d.distance.is_finite()
            && d.distance >= 0.0
            && d.point_a.is_finite()
            && d.point_b.is_finite()
            && d.normal.is_finite())
}

/// The tolerance two answers of one pair may differ by: the queries' own
/// (1e-4 of the distance), and the rounding of positions, a few ulps of the
/// larger of the shapes' sizes and the coordinates involved (`extra`).
fn tolerance(a: &Shape, b: &Shape, d: f32, extra: f32) -> f32 {
    let size = a.bounding_radius().max(b.bounding_radius());
    1e-4 * (1.0 + d) + 64.0 * f32::EPSILON * (size + extra) + 4.0 * TOUCH_TOLERANCE * size
}

/// Both answers converged and agree within `tol`.
fn agree(x: &Distance, y: &Distance, tol: f32) -> bool {
    x.status != Status::Converged
        || y.status != Status::Converged
        || (x.distance - y.distance).abs() <= tol
}

proptest! {
    #![proptest_config(config(4))]

    /// The scalar queries on any valid pair: finite or flagged, the same when A
    /// and B swap, under a common translation and under a common rotation.
    #[test]
    fn scalar_queries(a in shape(), b in shape(), pa in pose(), pb in pose(),
                      shift in (-1e4f32..1e4, -1e4f32..1e4, -1e4f32..1e4), turn in rotation()) {
        let d = distance(&a, &pa, &b, &pb);
        prop_assert!(finite_or_flagged(&d), "{d:?}");
        let i = intersection(&a, &pa, &b, &pb);
        if d.status == Status::InvalidInput {
            prop_assert!(!i.intersecting);
            return Ok(());
        }
        if let Some(c) = contact(&a, &pa, &b, &pb, 0.0) {
            prop_assert!(c.status != Status::Converged || (c.depth.is_finite() && c.normal.is_finite()), "{c:?}");
        }
        let offset = (pb.translation() - pa.translation()).abs().max_element();
        // A and B swapped.
        let swapped = distance(&b, &pb, &a, &pa);
        let tol = tolerance(&a, &b, d.distance, offset);
        prop_assert!(agree(&d, &swapped, tol), "swap: {d:?} vs {swapped:?} (tol {tol})");
        // A common translation.
        let shift = Vec3::new(shift.0, shift.1, shift.2);
        let moved = |p: &Pose| Pose::new(p.rotation(), p.translation() + shift).unwrap();
        let far = pa.translation().abs().max_element().max(pb.translation().abs().max_element());
        let translated = distance(&a, &moved(&pa), &b, &moved(&pb));
        let tol_t = tolerance(&a, &b, d.distance, offset + far + shift.abs().max_element());
        prop_assert!(agree(&d, &translated, tol_t), "shift {shift}: {d:?} vs {translated:?}");
        // A common rotation about the world origin.
        let q = turn.normalize();
        let turned = |p: &Pose| Pose::new(q * p.rotation(), q * p.translation()).unwrap();
        let rotated = distance(&a, &turned(&pa), &b, &turned(&pb));
        let tol_r = tolerance(&a, &b, d.distance, offset + far);
        prop_assert!(agree(&d, &rotated, tol_r), "turn {q}: {d:?} vs {rotated:?}");
    }

    /// The batch driver equals gjk-core within tolerance, with the shortcuts on
    /// and off, and is finite or flagged.
    #[test]
    fn batch_equals_scalar(a in shape(), b in shape(), pa in pose(), pb in pose(), shortcuts in any::<bool>()) {
        let options = BatchOptions {
            parallelism: Parallelism::Sequential,
            early_outs: shortcuts,
            closed_forms: shortcuts,
        };
        let core = distance(&a, &pa, &b, &pb);
        let wide = distance_batch_with(&[&a], &[pa], &[&b], &[pb], options).unwrap()[0];
        prop_assert!(finite_or_flagged(&wide), "{wide:?}");
        prop_assert_eq!(core.status == Status::InvalidInput, wide.status == Status::InvalidInput);
        let offset = (pb.translation() - pa.translation()).abs().max_element();
        let tol = tolerance(&a, &b, core.distance, offset);
        prop_assert!(agree(&core, &wide, tol), "{core:?} vs {wide:?} (tol {tol})");
        let core_i = intersection(&a, &pa, &b, &pb);
        let wide_i = intersects_batch_with(&[&a], &[pa], &[&b], &[pb], options).unwrap()[0];
        if core.status == Status::Converged && wide.status == Status::Converged && core.distance > tol {
            prop_assert!(!core_i.intersecting && !wide_i.intersecting, "{core_i:?} {wide_i:?}");
        }
    }
}

/// Finite, or flagged: a `Converged` contact has a finite depth, a unit normal
/// and finite points.
fn contact_finite_or_flagged(c: &Contact) -> bool {
    c.status != Status::Converged
        || (c.depth.is_finite()
            && c.point_a.is_finite()
            && c.point_b.is_finite()
            && (c.normal.length() - 1.0).abs() <= 1e-4)
}

/// Finite, or flagged: a manifold holds one to four points, and those of a
/// `Converged` manifold are finite, with a unit normal.
fn manifold_finite_or_flagged(m: &Manifold) -> bool {
    (1..=4).contains(&m.len())
        && (m.status != Status::Converged
            || ((m.normal.length() - 1.0).abs() <= 1e-4
                && m.points().iter().all(|p| {
                    p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite()
                })))
}

proptest! {
    #![proptest_config(config(16))]

    /// The wide contact and manifold batches on any valid pair, at prediction 0 or
    /// up to 0.5: finite or flagged; the contact within tolerance of gjk-core's
    /// where both converge (present on one path only within the tolerance of the
    /// prediction distance, where the two may round to either side); the
    /// manifold present exactly where the wide contact is, its deepest point as
    /// deep as the contact and every point on its shape, within tolerance.
    #[test]
    fn contact_and_manifold_batches(a in shape(), b in shape(), pa in pose(), pb in pose(),
                                    prediction in prop_oneof![Just(0.0f32), 0.0f32..0.5],
                                    shortcuts in any::<bool>()) {
        let options = BatchOptions {
            parallelism: Parallelism::Sequential,
            early_outs: shortcuts,
            closed_forms: shortcuts,
        };
        let core = contact(&a, &pa, &b, &pb, prediction);
        let wide = contact_batch_with(&[&a], &[pa], &[&b], &[pb], prediction, options).unwrap()[0];
        for c in [core, wide].iter().flatten() {
            prop_assert!(contact_finite_or_flagged(c), "{c:?}");
        }
        let offset = (pb.translation() - pa.translation()).abs().max_element();
        let converged = |c: &Option<Contact>| c.is_none_or(|c| c.status == Status::Converged);
        if converged(&core) && converged(&wide) {
            let depth = core.or(wide).map_or(0.0, |c| c.depth.abs());
            let tol = tolerance(&a, &b, depth, offset);
            match (core, wide) {
                (Some(c), Some(w)) => prop_assert!(
                    (c.depth - w.depth).abs() <= tol,
                    "depth: {c:?} vs {w:?} (tol {tol})"
                ),
                (Some(c), None) | (None, Some(c)) => prop_assert!(
                    (c.depth + prediction).abs() <= tol,
                    "one path only: {core:?} vs {wide:?} (tol {tol})"
                ),
                (None, None) => {}
            }
        }
        let m = manifold_batch_with(&[&a], &[pa], &[&b], &[pb], prediction, prediction, options)
            .unwrap()[0];
        prop_assert_eq!(m.is_some(), wide.is_some(), "{:?} vs {:?}", m, wide);
        if let (Some(m), Some(w)) = (m, wide) {
            prop_assert!(manifold_finite_or_flagged(&m), "{m:?}");
            if m.status == Status::Converged && w.status == Status::Converged {
                let tol = tolerance(&a, &b, w.depth.abs(), offset)
                    + 2e-4 * (a.bounding_radius() + b.bounding_radius());
                prop_assert!(
                    (m.max_depth() - w.depth).abs() <= tol,
                    "deepest point {} vs contact {w:?} (tol {tol}): {m:?}", m.max_depth()
                );
                // Each point on its shape (the oracle measures how far outside),
                // as far as the contact's own witnesses are: on a shape thinner
                // than f32 resolves at its length (a box 0.05 wide, 1e18 long)
                // GJK's witness can slide along the other shape, which is the
                // contact's error, not the manifold's. Two segments within
                // MANIFOLD_PARALLEL_SEGMENTS_SIN of parallel have their ends
                // lined up along the normal, by half the offset the angle
                // allows over their overlap (at most the sum of the radii).
                let off = |p: Vec3, q: Vec3| {
                    distance_to_shape(&a, &pa, p).max(distance_to_shape(&b, &pb, q))
                };
                let segment = |s: &Shape, pose: &Pose, dir: Vec3| {
                    let mut f = Feature::new();
                    s.support_feature(pose.rotation().inverse() * dir, &mut f);
                    f.vertices().len() == 2
                };
                let lined_up = if segment(&a, &pa, w.normal) && segment(&b, &pb, -w.normal) {
                    MANIFOLD_PARALLEL_SEGMENTS_SIN * (a.bounding_radius() + b.bounding_radius())
                } else {
                    0.0
                };
                // And the points' own rounding in world space: an f32 point
                // near a translation of 1e24 is only resolved to 2^56.
                let position = pa.translation().abs().max_element()
                    .max(pb.translation().abs().max_element());
                let rounding = 2.0 * f32::EPSILON * position;
                // And the clipping's band: a point that far outside a reference
                // face's side counts as inside, up to MANIFOLD_BAND_MITRE bands
                // at its corners (a small face beside a large shape is clipped
                // by the band of the pair's size).
                let band = MANIFOLD_BAND_MITRE
                    * MANIFOLD_RELATIVE_TOLERANCE
                    * (a.bounding_radius() + b.bounding_radius());
                let allowed =
                    f64::from(tol + lined_up + rounding + band) + off(w.point_a, w.point_b);
                for q in m.points() {
                    let off = off(q.point_a, q.point_b);
                    prop_assert!(
                        off <= allowed,
                        "a point {off} off its shape (allowed {allowed}): {w:?}: {m:?}"
                    );
                }
            }
        }
    }
}

/// A hostile box for the broadphase: hostile corners, the second above the first
/// by a hostile extent.
fn hostile_box() -> impl Strategy<Value = (Vec3, Vec3)> {
    (hostile(), hostile(), hostile(), hostile(), size(), size()).prop_map(|(x, y, z, e, s1, s2)| {
        (Vec3::new(x, y, z), Vec3::new(x + e.abs(), y + s1, z + s2))
    })
}

proptest! {
    #![proptest_config(config(16))]

    /// The broadphase under hostile boxes and rays: refused boxes change
    /// nothing, the tree's invariants hold after every step, ray casts report
    /// finite parameters.
    #[test]
    fn broadphase_under_hostile_boxes(
        ops in prop::collection::vec((0u8..4, hostile_box(), 0usize..64), 1..64),
        ray in (hostile(), hostile(), hostile(), hostile(), hostile(), hostile()),
    ) {
        let mut bp: Broadphase<u32> = Broadphase::new();
        let mut tree = DynamicTree::new();
        let mut ids = Vec::new();
        let mut leaves = Vec::new();
        for (k, (op, (lo, hi), pick)) in ops.into_iter().enumerate() {
            let aabb = Aabb::new(lo, hi);
            match op {
                0 | 1 => if let Ok(b) = aabb {
                    if let Ok(id) = bp.insert(b, k as u32) { ids.push(id); }
                    leaves.push(tree.insert(b, k as u32));
                },
                2 => if !ids.is_empty() {
                    let id = ids.swap_remove(pick % ids.len());
                    prop_assert!(bp.remove(id).is_ok());
                    let leaf = leaves.swap_remove(pick % leaves.len());
                    prop_assert!(tree.remove(leaf).is_ok());
                },
                _ => if let (Ok(b), false) = (aabb, ids.is_empty()) {
                    let _ = bp.move_proxy(ids[pick % ids.len()], b);
                },
            }
            bp.update();
            prop_assert!(bp.validate().is_ok(), "{:?}", bp.validate());
            prop_assert!(tree.validate().is_ok(), "{:?}", tree.validate());
        }
        if let Ok(r) = Ray::new(Vec3::new(ray.0, ray.1, ray.2), Vec3::new(ray.3, ray.4, ray.5)) {
            let mut ts = Vec::new();
            tree.ray_cast(&r, f32::INFINITY, |_, t| { ts.push(t); f32::INFINITY });
            bp.ray_cast(&r, f32::INFINITY, |_, t| { ts.push(t); f32::INFINITY });
            prop_assert!(ts.iter().all(|t| t.is_finite() && *t >= 0.0), "{ts:?}");
        }
    }

    /// `World` with hostile shapes, poses and batch options: no panic, every manifold
    /// finite or flagged.
    #[test]
    fn world_under_hostile_input(
        bodies in prop::collection::vec((shape(), pose()), 1..24),
        moves in prop::collection::vec((0usize..24, pose()), 0..24),
        batches_per_task in prop_oneof![Just(0usize), 1usize..64, Just(usize::MAX / 8 + 1), Just(usize::MAX)],
    ) {
        let mut world = World::new(Parallelism::Rayon { batches_per_task });
        let mut ids = Vec::new();
        for (s, p) in bodies {
            if let Ok(id) = world.add(s, p) { ids.push(id); }
        }
        for (k, p) in moves {
            if !ids.is_empty() {
                let _ = world.set_pose(ids[k % ids.len()], p);
            }
        }
        let report = world.step();
        prop_assert!(report.is_ok(), "{:?}", report.err());
        for pair in report.unwrap().manifolds {
            let m = &pair.manifold;
            let finite = m.normal.is_finite()
                && m.points().iter().all(|p| {
                    p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite()
                });
            prop_assert!(m.status != Status::Converged || finite, "{:?}", m);
        }
    }
}
