//! The wide manifolds (`manifold_batch`, hence `manifold_x8`) against gjk-core's
//! `manifold_from_contact` on the same contacts (`contact_batch`'s), on every
//! kind pair, plain and rounded, in five regimes: resting (a face or side on a
//! face, tilted by up to a degree, slightly deep), speculative (the same, apart
//! by up to the prediction distance), random (about half the pairs overlap),
//! deep, and far from the origin.
//!
//! Agreement: the same pairs have manifolds, with the same number of points,
//! the same feature ids in the same order, and positions and depths within
//! 1e-5 of the pair's size. On x86-64 the wide stage rounds as gjk-core does
//! (`math/glam_rounding_x8.rs`), and the manifolds are also checked bit for bit,
//! so that no disagreement is left to explain.
//!
//! `WIDEPHASE_MANIFOLD_PAIRS` sets the pairs per kind pair and regime (default
//! 256: 72 kind pairs × 5 regimes × 256 = 92,160 pairs).

mod common;

use std::sync::Arc;

use common::{KIND_NAMES, Pairs, degenerate_pairs, hulls, pairs, rounded, shape};
use gjk_core::glam::{Quat, Vec3};
use gjk_core::tolerance::TOUCH_TOLERANCE;
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Manifold, ManifoldScratch, Pose, Shape, Sphere,
    SupportMap, distance,
};
use gjk_simd::{
    BatchOptions, ConvexHullX8, Parallelism, contact_batch_with, manifold_batch,
    manifold_batch_with, pair_contact_batch_with,
};
use rand::Rng;

const SEED: u64 = 0x3A_21F0;
const PREDICTION: f32 = 0.05;

fn pairs_per_case() -> usize {
    std::env::var("WIDEPHASE_MANIFOLD_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Regime {
    Resting,
    Speculative,
    Random,
    Deep,
    Far,
}

const REGIMES: [Regime; 5] = [
    Regime::Resting,
    Regime::Speculative,
    Regime::Random,
    Regime::Deep,
    Regime::Far,
];

/// A rotation that maps the axes onto the axes (one of the cube's 24).
fn axis_rotation(rng: &mut impl Rng) -> Quat {
    let quarter = std::f32::consts::FRAC_PI_2;
    let spins = [
        Quat::IDENTITY,
        Quat::from_rotation_x(quarter),
        Quat::from_rotation_x(-quarter),
        Quat::from_rotation_z(quarter),
        Quat::from_rotation_z(-quarter),
        Quat::from_rotation_x(2.0 * quarter),
    ];
    let about = Quat::from_rotation_y(quarter * rng.random_range(0..4) as f32);
    spins[rng.random_range(0..spins.len())] * about
}

/// B resting on A (or apart by `gap` when positive): B's frame is A's turned by a
/// quarter-turn combination and tilted by up to a degree, moved off A along
/// one of A's axes until the shapes touch, then in by `depth` (or out by `gap`),
/// with a sideways offset across that axis.
fn resting(rng: &mut impl Rng, a: &Shape, b: &Shape, speculative: bool) -> (Pose, Pose) {
    let pa = Pose::new(common::rotation(rng), Vec3::new(3.0, -1.0, 2.0)).unwrap();
    let tilt = Quat::from_scaled_axis(common::unit_vector(rng) * rng.random_range(0.0..0.0175));
    let rb = pa.rotation() * axis_rotation(rng) * tilt;
    let axis = pa.rotation() * (axis_rotation(rng) * Vec3::Y);
    // Two points have no size; they still get room to be moved across.
    let size = (a.bounding_radius() + b.bounding_radius()).max(1e-3);
    let across = common::unit_vector(rng).reject_from(axis) * rng.random_range(0.0..0.5 * size);
    let far = pa.translation() + axis * (2.0 * size) + across;
    let start = Pose::new(rb, far).unwrap();
    let d = distance(a, &pa, b, &start).distance;
    let shift = if speculative {
        -rng.random_range(0.0..PREDICTION)
    } else {
        rng.random_range(0.0..0.02)
    };
    let pb = Pose::new(rb, far - axis * (d + shift)).unwrap();
    (pa, pb)
}

/// The pairs of kinds `(ka, kb)` (rounded when `round`) in `regime`.
fn case_pairs(regime: Regime, seed: u64, n: usize, ka: usize, kb: usize, round: bool) -> Pairs {
    let hulls = hulls(seed, 8);
    let pick = |rng: &mut rand_chacha::ChaCha8Rng, _: usize| {
        let (mut a, mut b) = (shape(rng, ka, &hulls), shape(rng, kb, &hulls));
        if round {
            a = rounded(rng, a);
            b = rounded(rng, b);
        }
        (a, b)
    };
    let world = if regime == Regime::Far { 1e4 } else { 10.0 };
    let mut p = pairs(seed, n, pick, world);
    let mut rng = common::rng(seed ^ 0x5E57);
    for i in 0..p.len() {
        match regime {
            Regime::Resting | Regime::Speculative => {
                let spec = regime == Regime::Speculative;
                (p.poses_a[i], p.poses_b[i]) =
                    resting(&mut rng, &p.shapes_a[i], &p.shapes_b[i], spec);
            }
            Regime::Deep => {
                let (ta, tb) = (p.poses_a[i].translation(), p.poses_b[i].translation());
                let t = ta + (tb - ta) * 0.25;
                p.poses_b[i] = Pose::new(p.poses_b[i].rotation(), t).unwrap();
            }
            Regime::Random | Regime::Far => {}
        }
    }
    p
}

/// The reference: gjk-core's manifold on each contact of `contact_batch_with`.
fn reference(p: &Pairs, options: BatchOptions) -> Vec<Option<Manifold>> {
    let contacts = contact_batch_with(
        &p.shapes_a,
        &p.poses_a,
        &p.shapes_b,
        &p.poses_b,
        PREDICTION,
        options,
    )
    .unwrap();
    let mut scratch = ManifoldScratch::default();
    contacts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            c.map(|c| {
                gjk_core::manifold_from_contact(
                    &p.shapes_a[i],
                    &p.poses_a[i],
                    &p.shapes_b[i],
                    &p.poses_b[i],
                    &c,
                    PREDICTION,
                    &mut scratch,
                )
            })
        })
        .collect()
}

/// Whether two manifolds hold the same floats, bit for bit.
fn same_bits(x: &Manifold, y: &Manifold) -> bool {
    let v = |v: Vec3| v.to_array().map(f32::to_bits);
    v(x.normal) == v(y.normal)
        && x.len() == y.len()
        && x.points().iter().zip(y.points()).all(|(p, q)| {
            v(p.point_a) == v(q.point_a)
                && v(p.point_b) == v(q.point_b)
                && p.depth.to_bits() == q.depth.to_bits()
                && p.id == q.id
        })
}

/// Checks `got` against `want` for pair `i` of `p`; returns whether they are
/// bit-identical.
fn judge(p: &Pairs, i: usize, got: &Option<Manifold>, want: &Option<Manifold>, at: &str) -> bool {
    let (a, b) = (&p.shapes_a[i], &p.shapes_b[i]);
    let case = || {
        format!(
            "{at} pair {i}: {a:?} at {:?}, {b:?} at {:?}\nwide {got:?}\nreference {want:?}",
            p.poses_a[i], p.poses_b[i]
        )
    };
    match (got, want) {
        (None, None) => true,
        (Some(g), Some(w)) => {
            let tol = 1e-5 * (a.bounding_radius() + b.bounding_radius()).max(1.0);
            assert_eq!(g.len(), w.len(), "point count: {}", case());
            for (pg, pw) in g.points().iter().zip(w.points()) {
                assert_eq!(pg.id, pw.id, "ids: {}", case());
                assert!(
                    (pg.point_a - pw.point_a).length() <= tol
                        && (pg.point_b - pw.point_b).length() <= tol
                        && (pg.depth - pw.depth).abs() <= tol,
                    "positions: {}",
                    case()
                );
            }
            assert_eq!(
                (g.iterations, g.status),
                (w.iterations, w.status),
                "{}",
                case()
            );
            same_bits(g, w)
        }
        _ => panic!("presence: {}", case()),
    }
}

#[test]
fn wide_manifolds_equal_the_reference_in_every_regime_and_kind_pair() {
    let n = pairs_per_case();
    let options = BatchOptions {
        parallelism: Parallelism::Sequential,
        ..BatchOptions::default()
    };
    let mut exact = 0usize;
    let mut total = 0usize;
    let mut points = [0usize; 5];
    for (r, &regime) in REGIMES.iter().enumerate() {
        for (ka, name_a) in KIND_NAMES.iter().enumerate() {
            for (kb, name_b) in KIND_NAMES.iter().enumerate() {
                for round in [false, true] {
                    let seed = SEED
                        ^ ((r as u64) << 16 | (ka as u64) << 8 | (kb as u64) << 4 | round as u64);
                    let p = case_pairs(regime, seed, n, ka, kb, round);
                    let want = reference(&p, options);
                    let got = manifold_batch(
                        &p.shapes_a,
                        &p.poses_a,
                        &p.shapes_b,
                        &p.poses_b,
                        PREDICTION,
                        Parallelism::Sequential,
                    )
                    .unwrap();
                    let at = format!(
                        "seed {seed:#x} {regime:?} {name_a}-{name_b}{}",
                        if round { " rounded" } else { "" }
                    );
                    for i in 0..p.len() {
                        let bits = judge(&p, i, &got[i], &want[i], &at);
                        if let Some(m) = &got[i] {
                            total += 1;
                            exact += usize::from(bits);
                            points[m.len()] += 1;
                            if cfg!(target_arch = "x86_64") {
                                assert!(
                                    bits,
                                    "not bit-identical: {at} pair {i}: {:?} / {:?}",
                                    got[i], want[i]
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    println!("{total} manifolds, {exact} bit-identical; by point count {points:?}");
    // The regimes must produce multi-point manifolds, not only single points.
    assert!(
        points[4] > total / 20 && points[2] > total / 50,
        "{points:?}"
    );
}

/// Boxes resting on slabs (`workloads::resting::resting_boxes`): in most lanes
/// the box's face lies inside the slab's, so whole batches pass side planes
/// that cut nothing, which the wide clip skips; the manifolds are still the
/// reference's, bit for bit, and mostly the box's four corners.
#[test]
fn boxes_resting_on_slabs_equal_the_reference() {
    let resting = workloads::resting::resting_boxes(16 * pairs_per_case(), SEED);
    let p = Pairs {
        shapes_a: resting.iter().map(|r| r.a.clone()).collect(),
        poses_a: resting.iter().map(|r| r.pose_a).collect(),
        shapes_b: resting.iter().map(|r| r.b.clone()).collect(),
        poses_b: resting.iter().map(|r| r.pose_b).collect(),
    };
    resting_pairs_equal_the_reference(&p, "resting boxes");
}

/// The same resting pairs with each box as the hull of its eight corners (its
/// faces quadrilaterals, held by the wide features): the wide manifolds are the
/// reference's, bit for bit, mostly four points, and computed wide.
#[test]
fn box_hulls_resting_on_slab_hulls_equal_the_reference() {
    let resting = workloads::resting::resting_boxes(4 * pairs_per_case(), SEED ^ 0x4855);
    let as_hull = |s: &Shape| -> Shape {
        let Shape::Cuboid(c) = s else {
            panic!("resting_boxes gives boxes: {s:?}")
        };
        let h = c.half_extents();
        let corners: Vec<Vec3> = (0..8)
            .map(|i| {
                let sign = |bit: u32| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
                Vec3::new(sign(0), sign(1), sign(2)) * h
            })
            .collect();
        Shape::ConvexHull(Arc::new(ConvexHull::from_points(&corners).unwrap()))
    };
    let p = Pairs {
        shapes_a: resting.iter().map(|r| as_hull(&r.a)).collect(),
        poses_a: resting.iter().map(|r| r.pose_a).collect(),
        shapes_b: resting.iter().map(|r| as_hull(&r.b)).collect(),
        poses_b: resting.iter().map(|r| r.pose_b).collect(),
    };
    resting_pairs_equal_the_reference(&p, "resting box hulls");
    let (mut wide, mut total) = (0, 0);
    for c in 0..p.len() / 8 {
        let (w, t) = lanes::wide_lanes::<ConvexHullX8, ConvexHullX8>(&p, c);
        (wide, total) = (wide + w, total + t);
    }
    assert!(total > p.len() / 2, "{total} of {} in contact", p.len());
    assert_eq!(wide, total, "resting box hulls left to the reference");
}

/// `manifold_batch` on resting pairs `p` equals the reference bit for bit, and
/// over three quarters of the manifolds have four points.
fn resting_pairs_equal_the_reference(p: &Pairs, what: &str) {
    let options = BatchOptions {
        parallelism: Parallelism::Sequential,
        ..BatchOptions::default()
    };
    let want = reference(p, options);
    let (a, pa, b, pb) = (&p.shapes_a, &p.poses_a, &p.shapes_b, &p.poses_b);
    let got = manifold_batch(a, pa, b, pb, PREDICTION, Parallelism::Sequential).unwrap();
    let mut four = 0;
    for i in 0..p.len() {
        let at = format!("seed {SEED:#x} {what}");
        let bits = judge(p, i, &got[i], &want[i], &at);
        if cfg!(target_arch = "x86_64") {
            assert!(
                bits,
                "not bit-identical: {at} pair {i}: {:?} / {:?}",
                got[i], want[i]
            );
        }
        four += usize::from(got[i].is_some_and(|m| m.len() == 4));
    }
    assert!(
        4 * four > 3 * p.len(),
        "{what}: {four} of {} with four points",
        p.len()
    );
}

#[test]
fn reach_gives_the_closest_points_of_pairs_beyond_the_prediction() {
    let p = case_pairs(Regime::Random, SEED, 512, 1, 1, false);
    let got = manifold_batch_with(
        &p.shapes_a,
        &p.poses_a,
        &p.shapes_b,
        &p.poses_b,
        PREDICTION,
        f32::INFINITY,
        BatchOptions::default(),
    )
    .unwrap();
    for (i, m) in got.iter().enumerate() {
        let m = m.expect("every pair is within an infinite reach");
        let d = distance(&p.shapes_a[i], &p.poses_a[i], &p.shapes_b[i], &p.poses_b[i]).distance;
        if d > PREDICTION + 1e-3 {
            assert_eq!(m.len(), 1, "pair {i}: {m:?}");
            assert!(
                (m.max_depth() + d).abs() < 1e-4 * (1.0 + d),
                "pair {i}: {m:?}, distance {d}"
            );
        }
    }
}

/// `pair_contact_batch_with` is the contact batch and the manifold batch in one
/// run, bit for bit: each pair's contact is `contact_batch_with`'s (reach
/// unlimited), its manifold `manifold_batch_with`'s where the gap is within the
/// prediction (or the touch tolerance), and none beyond; on every kind pair,
/// sequential and threaded, half the pairs moved to within the touch tolerance.
#[test]
fn pair_contacts_are_the_contact_and_manifold_batches_in_one() {
    let mut checked = [0usize; 2];
    let threaded = BatchOptions::default();
    let sequential = BatchOptions {
        parallelism: Parallelism::Sequential,
        ..BatchOptions::default()
    };
    for (ka, name_a) in KIND_NAMES.iter().enumerate() {
        for (kb, name_b) in KIND_NAMES.iter().enumerate() {
            let seed = SEED ^ (ka * 16 + kb) as u64;
            let mut p = case_pairs(Regime::Random, seed, 64, ka, kb, false);
            // Every other pair moved apart along its normal to half the touch
            // tolerance: in contact at prediction 0 only by that tolerance.
            let c = contact_batch_with(
                &p.shapes_a,
                &p.poses_a,
                &p.shapes_b,
                &p.poses_b,
                f32::INFINITY,
                threaded,
            )
            .unwrap();
            for i in (0..p.len()).step_by(2) {
                let Some(c) = c[i] else { continue };
                let touch = TOUCH_TOLERANCE
                    * (p.shapes_a[i].bounding_radius() + p.shapes_b[i].bounding_radius());
                let moved = p.poses_b[i].translation() + c.normal * (c.depth + 0.5 * touch);
                p.poses_b[i] = Pose::new(p.poses_b[i].rotation(), moved).unwrap();
            }
            let (sa, pa, sb, pb) = (&p.shapes_a, &p.poses_a, &p.shapes_b, &p.poses_b);
            for prediction in [PREDICTION, 0.0] {
                for options in [threaded, sequential] {
                    let both =
                        pair_contact_batch_with(sa, pa, sb, pb, prediction, f32::INFINITY, options)
                            .unwrap();
                    let contacts =
                        contact_batch_with(sa, pa, sb, pb, f32::INFINITY, options).unwrap();
                    let manifolds =
                        manifold_batch_with(sa, pa, sb, pb, prediction, prediction, options)
                            .unwrap();
                    for i in 0..both.len() {
                        let msg = format!(
                            "seed {seed:#x} {name_a} - {name_b} pair {i}, prediction {prediction}"
                        );
                        let got = both[i].expect("an unlimited reach has every pair's contact");
                        assert_eq!(Some(got.contact), contacts[i], "{msg}");
                        assert_eq!(got.manifold, manifolds[i], "{msg}");
                        checked[usize::from(got.manifold.is_some())] += 1;
                    }
                }
            }
        }
    }
    // Both outcomes must occur for the comparison to mean anything.
    assert!(checked[0] > 100 && checked[1] > 100, "{checked:?}");
}

/// Whether every float of `m` is finite.
fn finite(m: &Manifold) -> bool {
    m.normal.is_finite()
        && m.points()
            .iter()
            .all(|p| p.point_a.is_finite() && p.point_b.is_finite() && p.depth.is_finite())
}

/// Degenerate shapes (zero radius or height, zero extents, flat, segment and
/// point hulls, a fifth of them rounded, a fifth of the pairs with one plain
/// shape) resting on each other, apart within the prediction, and at random:
/// the wide manifolds equal the reference, bit for bit on x86-64, and every
/// float they hold is finite.
#[test]
fn degenerate_shapes_give_finite_manifolds_equal_to_the_reference() {
    let n = 16 * pairs_per_case();
    let options = BatchOptions {
        parallelism: Parallelism::Sequential,
        ..BatchOptions::default()
    };
    let mut points = [0usize; 5];
    for (r, regime) in [Regime::Resting, Regime::Speculative, Regime::Random]
        .into_iter()
        .enumerate()
    {
        let seed = SEED ^ 0xde6e_0000 ^ r as u64;
        let mut p = degenerate_pairs(seed, n);
        let mut rng = common::rng(seed ^ 0x5E57);
        if regime != Regime::Random {
            let spec = regime == Regime::Speculative;
            for i in 0..p.len() {
                (p.poses_a[i], p.poses_b[i]) =
                    resting(&mut rng, &p.shapes_a[i], &p.shapes_b[i], spec);
            }
        }
        let want = reference(&p, options);
        let got = manifold_batch(
            &p.shapes_a,
            &p.poses_a,
            &p.shapes_b,
            &p.poses_b,
            PREDICTION,
            Parallelism::Sequential,
        )
        .unwrap();
        let at = format!("seed {seed:#x} degenerate {regime:?}");
        for i in 0..p.len() {
            let bits = judge(&p, i, &got[i], &want[i], &at);
            if let Some(m) = &got[i] {
                points[m.len()] += 1;
                assert!(finite(m), "not finite: {at} pair {i}: {m:?}");
                assert!(!m.is_empty(), "no point: {at} pair {i}: {m:?}");
                if cfg!(target_arch = "x86_64") {
                    assert!(
                        bits,
                        "not bit-identical: {at} pair {i}: {m:?} / {:?}",
                        want[i]
                    );
                }
            }
        }
    }
    println!("degenerate shapes: manifolds by point count {points:?}");
    // Cards on cards and segments on faces must give several points.
    assert!(points[4] > 0 && points[2] > 0, "{points:?}");
}

/// `manifold_batch` on `p` at [`PREDICTION`], and the reference, on one thread.
fn wide_and_reference(p: &Pairs) -> (Vec<Option<Manifold>>, Vec<Option<Manifold>>) {
    let options = BatchOptions {
        parallelism: Parallelism::Sequential,
        ..BatchOptions::default()
    };
    let got = manifold_batch(
        &p.shapes_a,
        &p.poses_a,
        &p.shapes_b,
        &p.poses_b,
        PREDICTION,
        Parallelism::Sequential,
    )
    .unwrap();
    (got, reference(p, options))
}

/// Pair `i`'s wide manifold, which must be present and agree with the
/// reference (bit for bit on x86-64).
fn present_and_exact(
    p: &Pairs,
    i: usize,
    got: &[Option<Manifold>],
    want: &[Option<Manifold>],
    what: &str,
) -> Manifold {
    let bits = judge(p, i, &got[i], &want[i], what);
    let m = got[i].unwrap_or_else(|| panic!("{what}, pair {i}: no manifold"));
    assert!(
        !cfg!(target_arch = "x86_64") || bits,
        "{what}, pair {i}: {m:?} / {:?}",
        want[i]
    );
    m
}

/// Degenerate shapes 0.01 deep in a slab's top face, each lying flat or along
/// it: the number of points their geometry fixes (four for a card or a disc,
/// two for a segment, one for a point), at depth 0.01, wide equal to the
/// reference.
#[test]
fn degenerate_shapes_on_a_slab_have_the_points_their_geometry_fixes() {
    let slab: Shape = Cuboid::new(Vec3::new(4.0, 0.5, 4.0)).unwrap().into();
    let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let seg = ConvexHull::from_points(&[Vec3::new(-0.7, 0.0, 0.1), Vec3::new(0.7, 0.0, -0.1)]);
    let dot = ConvexHull::from_points(&[Vec3::new(0.2, 0.0, 0.3); 3]);
    let on_edge = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let cases: [(&str, Shape, Quat, usize); 16] = [
        (
            "card",
            Cuboid::new(Vec3::new(0.5, 0.0, 0.3)).unwrap().into(),
            Quat::IDENTITY,
            4,
        ),
        (
            "box point",
            Cuboid::new(Vec3::ZERO).unwrap().into(),
            Quat::IDENTITY,
            1,
        ),
        (
            "box segment",
            Cuboid::new(Vec3::new(0.5, 0.0, 0.0)).unwrap().into(),
            Quat::IDENTITY,
            2,
        ),
        (
            "coin",
            Cylinder::new(0.0, 0.5).unwrap().into(),
            Quat::IDENTITY,
            4,
        ),
        (
            "needle cylinder",
            Cylinder::new(0.5, 0.0).unwrap().into(),
            lying,
            2,
        ),
        (
            "flat cone",
            Cone::new(0.0, 0.5).unwrap().into(),
            Quat::IDENTITY,
            4,
        ),
        ("needle cone", Cone::new(0.5, 0.0).unwrap().into(), lying, 2),
        (
            "segment capsule",
            Capsule::new(0.5, 0.0).unwrap().into(),
            lying,
            2,
        ),
        (
            "point ball",
            Sphere::new(0.0).unwrap().into(),
            Quat::IDENTITY,
            1,
        ),
        ("segment hull", seg.unwrap().into(), Quat::IDENTITY, 2),
        ("point hull", dot.unwrap().into(), Quat::IDENTITY, 1),
        // Point features: a needle's cap, a coin's side, a shape of no size.
        (
            "coin on its edge",
            Cylinder::new(0.0, 0.5).unwrap().into(),
            on_edge,
            1,
        ),
        (
            "needle cylinder standing",
            Cylinder::new(0.5, 0.0).unwrap().into(),
            Quat::IDENTITY,
            1,
        ),
        (
            "needle cone on its base",
            Cone::new(0.5, 0.0).unwrap().into(),
            Quat::IDENTITY,
            1,
        ),
        (
            "point cone",
            Cone::new(0.0, 0.0).unwrap().into(),
            Quat::IDENTITY,
            1,
        ),
        (
            "point cylinder",
            Cylinder::new(0.0, 0.0).unwrap().into(),
            Quat::IDENTITY,
            1,
        ),
    ];
    let depth = 0.01;
    let mut p = Pairs::default();
    // Each case three times, so that lanes of one batch mix the cases.
    for _ in 0..3 {
        for (_, shape, rotation, _) in &cases {
            let start = Pose::new(*rotation, Vec3::new(0.3, 5.0, -0.2)).unwrap();
            let low = common::world_support(shape, &start, -Vec3::Y).y;
            let y = 0.5 - depth - (low - 5.0);
            p.shapes_a.push(slab.clone());
            p.poses_a.push(Pose::IDENTITY);
            p.shapes_b.push(shape.clone());
            p.poses_b
                .push(Pose::new(*rotation, Vec3::new(0.3, y, -0.2)).unwrap());
        }
    }
    let (got, want) = wide_and_reference(&p);
    for i in 0..p.len() {
        let (name, _, _, count) = &cases[i % cases.len()];
        let m = present_and_exact(&p, i, &got, &want, name);
        assert!(finite(&m), "{name}: {m:?}");
        assert_eq!(m.len(), *count, "{name}: {m:?}");
        assert!(m.normal.dot(Vec3::Y) > 0.9999, "{name}: {m:?}");
        for q in m.points() {
            assert!((q.depth - depth).abs() < 1e-5, "{name}: {m:?}");
        }
    }
}

/// A capsule lying across the tip of a needle (a cylinder of radius 0), at eight
/// offsets along the capsule: one point, at the tip, wide equal to the
/// reference (the needle's cap, a polygon of coincident samples, used to keep
/// both ends of the capsule's core).
#[test]
fn a_capsule_across_a_needle_touches_at_its_tip() {
    let needle: Shape = Cylinder::new(0.5, 0.0).unwrap().into();
    let bar: Shape = Capsule::new(2.0, 0.1).unwrap().into();
    let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let depth = 0.01;
    let mut p = Pairs::default();
    for k in 0..8 {
        let along = -1.5 + 0.4 * k as f32;
        p.shapes_a.push(needle.clone());
        p.poses_a.push(Pose::IDENTITY);
        p.shapes_b.push(bar.clone());
        let centre = Vec3::new(along, 0.6 - depth, 0.0);
        p.poses_b.push(Pose::new(lying, centre).unwrap());
    }
    let (got, want) = wide_and_reference(&p);
    for i in 0..p.len() {
        let m = present_and_exact(&p, i, &got, &want, "needle");
        assert_eq!(m.len(), 1, "pair {i}: {m:?}");
        let q = m.points()[0];
        assert!(
            (q.point_a - Vec3::new(0.0, 0.5, 0.0)).length() < 1e-5,
            "pair {i}: {m:?}"
        );
        assert!((q.depth - depth).abs() < 1e-5, "pair {i}: {m:?}");
    }
}

/// Boxes with no extent on some axis as shape A, whose face of no width used to
/// be the reference: a card standing on its edge on a slab (turned about the
/// vertical by eight angles), the same card across a card lying flat, a stick,
/// a box of no size.
/// A face of no width is the segment it covers: two points at the ends of the
/// edge where it meets the other face (one for the box of no size), wide equal
/// to the reference. (The card's face used to enter as four corners with two
/// pairs coincident, whose side planes clipped nothing: the points came out at
/// the slab's rim.)
#[test]
fn boxes_of_no_width_touch_along_the_segment_they_are() {
    let card: Shape = Cuboid::new(Vec3::new(1.0, 0.0, 1.0)).unwrap().into();
    let stick: Shape = Cuboid::new(Vec3::new(1.0, 0.0, 0.0)).unwrap().into();
    let dot: Shape = Cuboid::new(Vec3::ZERO).unwrap().into();
    let slab: Shape = Cuboid::new(Vec3::new(4.0, 0.5, 4.0)).unwrap().into();
    let stand = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let depth = 0.01;
    let mut p = Pairs::default();
    // (A, its rotation and height, B, the points' count, whether the points
    // are the ends of A's edge, 1 from its centre along A's x, rather than
    // where B's rim clips it).
    let mut expected = Vec::new();
    for k in 0..8 {
        let turn = Quat::from_rotation_y(0.4 * k as f32);
        let centre = Vec3::new(0.3, 0.0, 0.2);
        let cases = [
            (&card, turn * stand, 1.5, &slab, 2, true),
            (&card, turn * stand, 1.0, &card, 2, false),
            (&stick, turn, 0.5, &slab, 2, true),
            (&dot, turn, 0.5, &slab, 1, true),
        ];
        for (a, rotation, height, b, count, ends) in cases {
            p.shapes_a.push(a.clone());
            p.poses_a
                .push(Pose::new(rotation, centre + (height - depth) * Vec3::Y).unwrap());
            p.shapes_b.push(b.clone());
            p.poses_b.push(Pose::IDENTITY);
            expected.push((count, ends));
        }
    }
    let (got, want) = wide_and_reference(&p);
    for (i, &(count, ends)) in expected.iter().enumerate() {
        let m = present_and_exact(&p, i, &got, &want, "no width");
        assert_eq!(m.len(), count, "pair {i}: {m:?}");
        assert!(m.normal.dot(-Vec3::Y) > 0.9999, "pair {i}: {m:?}");
        let axis = p.poses_a[i].rotation() * Vec3::X;
        let centre = p.poses_a[i].translation();
        for q in m.points() {
            assert!((q.depth - depth).abs() < 1e-5, "pair {i}: {m:?}");
            // On A's edge (or point), within its reach.
            let off = q.point_a - centre;
            let along = off.dot(axis);
            let across = off - along * axis - (q.point_a.y - centre.y) * Vec3::Y;
            assert!(across.length() < 1e-5, "pair {i}: off the edge: {m:?}");
            if count == 1 {
                assert!(along.abs() < 1e-5, "pair {i}: {m:?}");
            }
        }
        if count == 2 {
            // The ends: the card's or stick's, or the flat card's rim.
            let along = m.points().iter().map(|q| (q.point_a - centre).dot(axis));
            let (lo, hi) = along.fold((f32::MAX, f32::MIN), |(l, h), t| (l.min(t), h.max(t)));
            assert!(
                lo >= -1.0 - 1e-5 && hi <= 1.0 + 1e-5 && hi - lo > 0.5,
                "pair {i}: {m:?}"
            );
            if ends {
                assert!(
                    (lo + 1.0).abs() < 1e-5 && (hi - 1.0).abs() < 1e-5,
                    "pair {i}: {m:?}"
                );
            }
        }
    }
}

/// Eight pairs of kinds `(ka, kb)` packed into wide shapes, with their contacts.
mod lanes {
    use std::sync::Arc;

    use gjk_core::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, ManifoldScratch, Shape, Sphere};
    use gjk_simd::math::f32x8;
    use gjk_simd::{
        CapsuleX8, ConeX8, ConvexHullX8, CuboidX8, CylinderX8, FeatureMapX8, MaskX8, PoseX8,
        ScalarLanes, SphereX8, contact_x8, manifold_x8,
    };

    use super::{PREDICTION, Pairs};

    /// The wide shape of eight scalar shapes of one plain kind.
    pub trait Pack: FeatureMapX8 + Sized {
        fn pack(shapes: &[Shape]) -> Self;
    }

    macro_rules! pack {
        ($wide:ty, $scalar:ident) => {
            impl Pack for $wide {
                fn pack(shapes: &[Shape]) -> Self {
                    let s: [$scalar; 8] = std::array::from_fn(|k| match &shapes[k] {
                        Shape::$scalar(s) => *s,
                        other => panic!("not a {}: {other:?}", stringify!($scalar)),
                    });
                    <$wide>::from_array(s)
                }
            }
        };
    }
    pack!(SphereX8, Sphere);
    pack!(CuboidX8, Cuboid);
    pack!(CapsuleX8, Capsule);
    pack!(CylinderX8, Cylinder);
    pack!(ConeX8, Cone);

    /// Hulls keep their shared hulls, as the batch driver packs them: their
    /// lanes name their faces.
    impl Pack for ConvexHullX8 {
        fn pack(shapes: &[Shape]) -> Self {
            let hulls: Vec<Arc<ConvexHull>> = shapes[..8]
                .iter()
                .map(|s| match s {
                    Shape::ConvexHull(h) => Arc::clone(h),
                    other => panic!("not a hull: {other:?}"),
                })
                .collect();
            ConvexHullX8::from_shared(&hulls)
        }
    }

    /// How many of the lanes `8c..8c + 8` of `p` (those in contact) give the
    /// same manifold when the scalar shapes the fallback reads are swapped for
    /// others: the lanes computed wide.
    pub fn wide_lanes<A: Pack, B: Pack>(p: &Pairs, c: usize) -> (usize, usize) {
        let r = 8 * c..8 * c + 8;
        let (a, b) = (
            A::pack(&p.shapes_a[r.clone()]),
            B::pack(&p.shapes_b[r.clone()]),
        );
        let pa = PoseX8::from_slice(&p.poses_a[r.clone()]);
        let pb = PoseX8::from_slice(&p.poses_b[r.clone()]);
        let contact = contact_x8(&a, &pa, &b, &pb, f32x8::splat(PREDICTION), MaskX8::ALL);
        let honest = ScalarLanes {
            shapes_a: std::array::from_fn(|k| &p.shapes_a[8 * c + k]),
            poses_a: std::array::from_fn(|k| p.poses_a[8 * c + k]),
            shapes_b: std::array::from_fn(|k| &p.shapes_b[8 * c + k]),
            poses_b: std::array::from_fn(|k| p.poses_b[8 * c + k]),
        };
        let decoy: Shape = Sphere::new(1e-3).unwrap().into();
        let lying = ScalarLanes {
            shapes_a: [&decoy; 8],
            shapes_b: [&decoy; 8],
            ..honest
        };
        let mut scratch = ManifoldScratch::default();
        let want = manifold_x8(
            &a,
            &pa,
            &b,
            &pb,
            &contact,
            PREDICTION,
            MaskX8::ALL,
            &honest,
            &mut scratch,
        );
        let got = manifold_x8(
            &a,
            &pa,
            &b,
            &pb,
            &contact,
            PREDICTION,
            MaskX8::ALL,
            &lying,
            &mut scratch,
        );
        let in_contact = want.iter().filter(|m| m.is_some()).count();
        let same = want
            .iter()
            .zip(&got)
            .filter(|(w, g)| w.is_some() && w == g)
            .count();
        (same, in_contact)
    }
}

/// The pair types the wide stage covers are computed wide in every lane (the
/// fallback would read the decoy shapes and answer otherwise); cylinder-box
/// only where the cylinder meets the box with its side. The test hulls'
/// faces are triangles (random points on a sphere), all held.
#[test]
fn the_common_pair_types_are_computed_wide() {
    use gjk_simd::{CapsuleX8, ConeX8, ConvexHullX8, CuboidX8, CylinderX8, SphereX8};
    use lanes::wide_lanes;
    let n = 64;
    let mut report = Vec::new();
    macro_rules! check {
        ($ka:expr, $kb:expr, $a:ty, $b:ty, $all:expr) => {{
            let (mut same, mut total) = (0, 0);
            for regime in REGIMES {
                let p = case_pairs(regime, SEED ^ 0xA11, n, $ka, $kb, false);
                for c in 0..n / 8 {
                    let (s, t) = wide_lanes::<$a, $b>(&p, c);
                    same += s;
                    total += t;
                }
            }
            let name = format!("{}-{}", KIND_NAMES[$ka], KIND_NAMES[$kb]);
            assert!(total > 50, "{name}: only {total} contacts");
            if $all {
                assert_eq!(same, total, "{name}: lanes left to the reference");
            } else {
                assert!(same > total / 3, "{name}: {same} of {total} wide");
            }
            report.push(format!("{name} {same}/{total}"));
        }};
    }
    check!(0, 0, SphereX8, SphereX8, true);
    check!(0, 1, SphereX8, CuboidX8, true);
    check!(1, 0, CuboidX8, SphereX8, true);
    check!(0, 2, SphereX8, CapsuleX8, true);
    check!(0, 3, SphereX8, CylinderX8, true);
    check!(4, 0, ConeX8, SphereX8, true);
    check!(2, 2, CapsuleX8, CapsuleX8, true);
    check!(2, 1, CapsuleX8, CuboidX8, true);
    check!(1, 2, CuboidX8, CapsuleX8, true);
    check!(1, 1, CuboidX8, CuboidX8, true);
    check!(3, 1, CylinderX8, CuboidX8, false);
    check!(1, 3, CuboidX8, CylinderX8, false);
    check!(5, 5, ConvexHullX8, ConvexHullX8, true);
    check!(1, 5, CuboidX8, ConvexHullX8, true);
    check!(5, 1, ConvexHullX8, CuboidX8, true);
    check!(0, 5, SphereX8, ConvexHullX8, true);
    check!(5, 2, ConvexHullX8, CapsuleX8, true);
    println!("wide lanes: {}", report.join(", "));
}

/// A sliver triangle (a flat hull 4 long, its tip 0.001 rad wide) as the
/// reference face under a box turned 45 degrees, whose corner lies 1 beyond the
/// tip within the band of both side planes there (gjk-core's
/// `a_sliver_face_keeps_its_band_near_its_corners`): the band is narrowed at
/// the tip, the corner is clipped, and the manifold is the triangle's three
/// corners, wide equal to the reference, in eight turns about the normal.
#[test]
fn a_sliver_face_keeps_its_band_near_its_corners() {
    let corners = [
        Vec3::ZERO,
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(4.0, 0.004, 0.0),
    ];
    let tip: Shape = ConvexHull::from_points(&corners).unwrap().into();
    let slab: Shape = Cuboid::new(Vec3::splat(10.0)).unwrap().into();
    let depth = 0.01;
    let mut p = Pairs::default();
    for k in 0..8 {
        let turn = Quat::from_rotation_z(0.7 * k as f32);
        let centre = Vec3::new(-1.0 + 10.0 * 2f32.sqrt(), -0.0005, 10.0 - depth);
        let diamond = turn * Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        p.shapes_a.push(tip.clone());
        p.poses_a.push(Pose::new(turn, Vec3::ZERO).unwrap());
        p.shapes_b.push(slab.clone());
        p.poses_b.push(Pose::new(diamond, turn * centre).unwrap());
    }
    let (got, want) = wide_and_reference(&p);
    for i in 0..p.len() {
        let m = present_and_exact(&p, i, &got, &want, "sliver");
        assert_eq!(m.len(), 3, "pair {i}: {m:?}");
        for c in corners {
            let on_a = p.poses_a[i].transform_point(c);
            assert!(
                m.points()
                    .iter()
                    .any(|q| (q.point_a - on_a).length() < 2e-3),
                "pair {i}: corner {c} missing from {m:?}"
            );
        }
    }
}

/// A sliver triangle 8e6 long whose tip (3e-9 rad) f32 cannot resolve: its two
/// long edges are parallel in f32, so their side planes close nothing beyond
/// the tip, and a cylinder's side line 2.3e18 long crossing one of them was
/// clipped to a point 3.6e15 beyond it (the fuzz campaign's case, posed 1e18
/// from the origin). The polygon now clips to nothing and the contact's own
/// point stands, on both shapes; wide equal to the reference.
#[test]
fn a_sliver_closed_by_rounding_alone_clips_to_nothing() {
    let sliver: Shape = ConvexHull::from_points(&[
        Vec3::new(-6_977_871.5, -4_070_348.5, 0.0),
        Vec3::ZERO,
        Vec3::new(0.0, -0.027_458_489, 0.0),
    ])
    .unwrap()
    .into();
    let drum: Shape = Cylinder::new(1.152_921_5e18, 1.152_921_5e18)
        .unwrap()
        .into();
    let q = |x: f32, y: f32, z: f32, w: f32| Quat::from_xyzw(x, y, z, w);
    let mut p = Pairs::default();
    p.shapes_a.push(sliver);
    p.poses_a.push(
        Pose::new(
            q(0.085_088_335, -0.023_485_37, -0.711_859_8, 0.696_752_5),
            Vec3::new(0.0, 1.000_000_05e18, 0.0),
        )
        .unwrap(),
    );
    p.shapes_b.push(drum);
    p.poses_b.push(
        Pose::new(
            q(-0.411_167_62, 0.617_925_17, -0.670_156_5, 7.472_935_5e-6),
            Vec3::ZERO,
        )
        .unwrap(),
    );
    let (got, want) = wide_and_reference(&p);
    let m = present_and_exact(&p, 0, &got, &want, "sliver closed by rounding");
    assert_eq!(m.len(), 1, "{m:?}");
    let tip = p.poses_a[0].transform_point(Vec3::ZERO);
    assert!((m.points()[0].point_a - tip).length() < 1e12, "{m:?}");
}

/// The same rule, shown to be computed wide: a capsule lying across a flat
/// sliver triangle (a hull of three points whose tip is 2.5e-6 rad, under
/// `MANIFOLD_SLIVER_CORNER`'s 7.6e-6) is a segment on a hull face, which the
/// wide stage clips itself, and the decoy check shows every lane wide (the
/// test above, a cylinder's side on a hull face, is clipped wide too, without
/// that proof). The triangle clips the segment to nothing, and the contact's
/// own point stands: one point, on the triangle, wide equal to the reference.
#[test]
fn a_sliver_closed_by_rounding_alone_clips_to_nothing_wide() {
    use gjk_simd::{CapsuleX8, ConvexHullX8};
    let corners = [
        Vec3::ZERO,
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(4.0, 1e-5, 0.0),
    ];
    let sliver: Shape = ConvexHull::from_points(&corners).unwrap().into();
    let rod: Shape = Capsule::new(3.0, 0.5).unwrap().into();
    // The rod along x, across the tip and past it, 0.01 into the triangle.
    let lying = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
    let mut p = Pairs::default();
    for k in 0..8 {
        let turn = Quat::from_rotation_z(0.7 * k as f32);
        let origin = Vec3::splat(1e3 * (k % 2) as f32);
        p.shapes_a.push(sliver.clone());
        p.poses_a.push(Pose::new(turn, origin).unwrap());
        p.shapes_b.push(rod.clone());
        let centre = origin + turn * Vec3::new(1.5, 0.0, 0.49);
        p.poses_b.push(Pose::new(turn * lying, centre).unwrap());
    }
    assert_eq!(
        lanes::wide_lanes::<ConvexHullX8, CapsuleX8>(&p, 0),
        (8, 8),
        "every lane wide"
    );
    let (got, want) = wide_and_reference(&p);
    for i in 0..p.len() {
        let m = present_and_exact(&p, i, &got, &want, "sliver closed by rounding, wide");
        assert_eq!(m.len(), 1, "pair {i}: {m:?}");
        let q = m.points()[0];
        let local = p.poses_a[i].inverse_transform_point(q.point_a);
        assert!(
            local.z.abs() < 1e-3 && (-1e-3..4.001).contains(&local.x) && local.y.abs() < 1e-3,
            "pair {i}: {local} off the triangle: {m:?}"
        );
    }
}
