//! Properties every correct answer has, over seeded random pairs of every kind.

use gjk_core::glam::{DQuat, Quat, Vec3};
use gjk_core::{Pose, SupportMap, contact, distance, intersects};
use workloads::oracle::distance_to_shape;
use workloads::workload::random_rotation;
use workloads::{Pair, PairKind, random_pairs};

const PAIRS: usize = 4000;

fn scale(p: &Pair) -> f32 {
    p.a.bounding_radius() + p.b.bounding_radius()
}

fn for_all(seed: u64, mut check: impl FnMut(&Pair, &str)) {
    for (k, kind) in PairKind::ALL.iter().enumerate() {
        for (side, s) in [(2.5, seed + 10 * k as u64), (6.0, seed + 10 * k as u64 + 1)] {
            for (i, p) in random_pairs(*kind, PAIRS, s, side, Vec3::ZERO)
                .iter()
                .enumerate()
            {
                check(p, &format!("kind {} seed {s} index {i}: {p}", kind.name()));
            }
        }
    }
}

#[test]
fn swapping_a_and_b_mirrors_every_answer() {
    for_all(1000, |p, case| {
        let tol = 1e-5 * scale(p);
        let ab = distance(&p.a, &p.pose_a, &p.b, &p.pose_b);
        let ba = distance(&p.b, &p.pose_b, &p.a, &p.pose_a);
        assert!(
            (ab.distance - ba.distance).abs() <= tol,
            "{case}: {ab:?} vs {ba:?}"
        );
        // GJK's direction converges like the square root of its distance (a 1e-6
        // relative gap leaves ~1e-3 rad), and worse when the gap is tiny next to
        // the shapes: compare normals only for clearly separated pairs.
        if ab.distance > 1e-2 * scale(p) {
            assert!(
                (ab.normal + ba.normal).length() < 1e-2,
                "{case}: {ab:?} vs {ba:?}"
            );
        }
        if ab.distance > tol || ab.distance == 0.0 && ba.distance == 0.0 {
            // Outside the touching band both orders agree on overlap.
            let (i_ab, i_ba) = (
                intersects(&p.a, &p.pose_a, &p.b, &p.pose_b),
                intersects(&p.b, &p.pose_b, &p.a, &p.pose_a),
            );
            let c = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0)
                .map_or(f32::NEG_INFINITY, |c| c.depth);
            if c.abs() > tol {
                assert_eq!(i_ab, i_ba, "{case}");
            }
        }
        if let (Some(c1), Some(c2)) = (
            contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0),
            contact(&p.b, &p.pose_b, &p.a, &p.pose_a, 0.0),
        ) {
            assert!(
                (c1.depth - c2.depth).abs() <= 1e-3 * c1.depth.abs() + 2e-5 * scale(p),
                "{case}: {c1:?} vs {c2:?}"
            );
        }
    });
}

#[test]
fn answers_depend_only_on_the_relative_pose() {
    // Move both shapes by a common rigid motion, up to 1e4 from the origin. f32
    // rounds the moved poses (an ulp of 1e4 is 1e-3), so the reference is the pair
    // at the relative pose of the *rounded* moved poses, computed in f64.
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(77);
    for_all(2000, |p, case| {
        let motion_rot = random_rotation(&mut rng);
        let motion_t = Vec3::new(1e4, -7.5e3, 3e3) * rand::Rng::random_range(&mut rng, 0.0..1.0);
        let motion = Pose::new(motion_rot, motion_t).unwrap();
        let (ma, mb) = (motion * p.pose_a, motion * p.pose_b);
        let exact_relative = |a: &Pose, b: &Pose| {
            let qa = DQuat::from_xyzw(
                a.rotation().x as f64,
                a.rotation().y as f64,
                a.rotation().z as f64,
                a.rotation().w as f64,
            );
            let qb = DQuat::from_xyzw(
                b.rotation().x as f64,
                b.rotation().y as f64,
                b.rotation().z as f64,
                b.rotation().w as f64,
            );
            let t = qa.conjugate() * (b.translation().as_dvec3() - a.translation().as_dvec3());
            let q = (qa.conjugate() * qb).normalize();
            Pose::new(
                Quat::from_xyzw(q.x as f32, q.y as f32, q.z as f32, q.w as f32),
                t.as_vec3(),
            )
            .unwrap()
        };
        let rel = exact_relative(&ma, &mb);
        let moved = distance(&p.a, &ma, &p.b, &mb);
        let reference = distance(&p.a, &Pose::IDENTITY, &p.b, &rel);
        let tol = 2e-5 * scale(p);
        assert!(
            (moved.distance - reference.distance).abs() <= tol,
            "{case}: moved {moved:?} reference {reference:?}"
        );
        if reference.distance > 1e-2 * scale(p) {
            let n = ma.inverse_transform_vector(moved.normal);
            assert!(
                (n - reference.normal).length() < 1e-2,
                "{case}: moved {moved:?} reference {reference:?}"
            );
        }
    });
}

#[test]
fn the_three_queries_agree_on_overlap() {
    for_all(3000, |p, case| {
        let tol = 1e-5 * scale(p);
        let hit = intersects(&p.a, &p.pose_a, &p.b, &p.pose_b);
        let d = distance(&p.a, &p.pose_a, &p.b, &p.pose_b);
        let c = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0);
        if d.distance > tol {
            assert!(!hit, "{case}: separated by {} but intersects", d.distance);
            assert!(
                c.is_none(),
                "{case}: separated by {} but contact {c:?}",
                d.distance
            );
        }
        if d.distance == 0.0 {
            let c = c.unwrap_or_else(|| panic!("{case}: distance 0 but no contact"));
            assert!(c.depth >= -tol, "{case}: {c:?}");
        }
        if let Some(c) = c
            && c.depth > tol
        {
            assert!(hit, "{case}: depth {} but no intersection", c.depth);
            assert_eq!(d.distance, 0.0, "{case}");
        }
    });
}

#[test]
fn witness_points_lie_on_their_shapes() {
    for_all(4000, |p, case| {
        let tol = 2e-5 * scale(p) as f64;
        let d = distance(&p.a, &p.pose_a, &p.b, &p.pose_b);
        let (on_a, on_b) = (
            distance_to_shape(&p.a, &p.pose_a, d.point_a),
            distance_to_shape(&p.b, &p.pose_b, d.point_b),
        );
        assert!(
            on_a <= tol && on_b <= tol,
            "{case}: {d:?}, off by {on_a} and {on_b}"
        );
        if d.distance > 0.0 {
            let realized = d.point_a.distance(d.point_b);
            assert!(
                (realized - d.distance).abs() <= 1e-4 * (1.0 + d.distance),
                "{case}: {d:?}"
            );
        }
        if let Some(c) = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0) {
            let (on_a, on_b) = (
                distance_to_shape(&p.a, &p.pose_a, c.point_a),
                distance_to_shape(&p.b, &p.pose_b, c.point_b),
            );
            assert!(
                on_a <= 1e-4 * scale(p) as f64 && on_b <= 1e-4 * scale(p) as f64,
                "{case}: {c:?}, off by {on_a} and {on_b}"
            );
            let diff = c.point_a - c.point_b - c.normal * c.depth;
            assert!(
                diff.length() <= 1e-3 * (1.0 + c.depth.abs()),
                "{case}: {c:?}"
            );
        }
    });
}

#[test]
fn depth_and_normal_move_b_out_of_contact() {
    for_all(5000, |p, case| {
        let Some(c) = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0) else {
            return;
        };
        if c.depth <= 1e-3 * scale(p) {
            return;
        }
        let step = 2e-3 * scale(p) + 2e-3 * c.depth;
        let moved = |by: f32| {
            Pose::new(p.pose_b.rotation(), p.pose_b.translation() + c.normal * by).unwrap()
        };
        // Past the depth the shapes separate (the normal really needs no more) ...
        let past = distance(&p.a, &p.pose_a, &p.b, &moved(c.depth + step));
        assert!(
            past.distance > 0.0,
            "{case}: {c:?} but still touching after moving {}",
            c.depth + step
        );
        // ... and short of it no translation at all can separate them (the depth is
        // not overestimated).
        assert!(
            intersects(&p.a, &p.pose_a, &p.b, &moved(c.depth - step)),
            "{case}: {c:?} separated early"
        );
    });
}

#[test]
fn prediction_reports_gaps_as_negative_depth() {
    for_all(6000, |p, case| {
        let d = distance(&p.a, &p.pose_a, &p.b, &p.pose_b);
        if d.distance <= 0.0 {
            return;
        }
        assert!(
            contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.5 * d.distance).is_none(),
            "{case}"
        );
        let c = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 2.0 * d.distance + 1e-3)
            .unwrap_or_else(|| panic!("{case}: no predicted contact"));
        assert!(
            (c.depth + d.distance).abs() <= 1e-5 * scale(p),
            "{case}: {c:?} vs {d:?}"
        );
    });
}

#[test]
fn nan_prediction_counts_as_zero() {
    let p = &random_pairs(PairKind::CuboidCuboid, 1, 1, 2.5, Vec3::ZERO)[0];
    let a = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, f32::NAN);
    let b = contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0);
    assert_eq!(a, b);
}
