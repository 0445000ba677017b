//! Degenerate but valid shapes through the batch driver and the wide kernels:
//! zero sizes (point balls, segment capsules and cylinders, disc cylinders and
//! cones, flat and needle boxes) and flat and lower-dimensional hulls (polygons,
//! segments, points), against gjk-core, with the shortcuts on and off.

mod common;

use common::{hulls, rotation, shape, unit_vector};
use gjk_core::glam::Vec3;
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, Sphere, Status, SupportMap,
    distance, intersection,
};
use gjk_simd::{BatchOptions, Parallelism, distance_batch_with, intersects_batch_with};
use rand::Rng;

/// A degenerate shape of one of twelve kinds (some sizes zero), or with
/// probability `plain` an ordinary one.
fn degenerate(rng: &mut impl Rng, hulls: &[std::sync::Arc<ConvexHull>], plain: f64) -> Shape {
    if rng.random_bool(plain) {
        let kind = rng.random_range(0..6);
        return shape(rng, kind, hulls);
    }
    let mut size = || rng.random_range(0.05f32..2.0);
    let (s1, s2) = (size(), size());
    let s: Shape = match rng.random_range(0..11) {
        0 => Sphere::new(0.0).unwrap().into(),
        1 => Capsule::new(s1, 0.0).unwrap().into(),
        2 => Cylinder::new(0.0, s1).unwrap().into(),
        3 => Cylinder::new(s1, 0.0).unwrap().into(),
        4 => Cone::new(0.0, s1).unwrap().into(),
        5 => Cone::new(s1, 0.0).unwrap().into(),
        6 => Cuboid::new(Vec3::new(s1, 0.0, s2)).unwrap().into(),
        7 => Cuboid::new(Vec3::new(0.0, s1, 0.0)).unwrap().into(),
        8 => Cuboid::new(Vec3::ZERO).unwrap().into(),
        9 => {
            // A polygon in the plane y = c, or a segment, or a point.
            let n = rng.random_range(1..9);
            let y = rng.random_range(-0.5f32..0.5);
            let points: Vec<Vec3> = (0..n)
                .map(|_| Vec3::new(rng.random_range(-1.5..1.5), y, rng.random_range(-1.5..1.5)))
                .collect();
            ConvexHull::from_points(&points).unwrap().into()
        }
        _ => {
            let a = unit_vector(rng) * s1;
            ConvexHull::from_points(&[a, -a]).unwrap().into()
        }
    };
    if rng.random_bool(0.2) {
        Rounded::new(s, rng.random_range(0.0..0.3)).unwrap().into()
    } else {
        s
    }
}

/// The pairs: A and B degenerate (or one of them plain), B's centre within
/// their reach of A's.
fn pairs(seed: u64, n: usize) -> (Vec<Shape>, Vec<Pose>, Vec<Shape>, Vec<Pose>) {
    let mut rng = common::rng(seed);
    let hull_set = hulls(seed, 16);
    let mut p = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..n {
        let a = degenerate(&mut rng, &hull_set, 0.2);
        let b = degenerate(&mut rng, &hull_set, 0.2);
        let reach = a.bounding_radius() + b.bounding_radius() + 0.05;
        let ca = Vec3::new(
            rng.random_range(-50.0..50.0),
            rng.random_range(-50.0..50.0),
            rng.random_range(-50.0..50.0),
        );
        let cb = ca + unit_vector(&mut rng) * rng.random_range(0.0..1.2 * reach);
        p.1.push(Pose::new(rotation(&mut rng), ca).unwrap());
        p.3.push(Pose::new(rotation(&mut rng), cb).unwrap());
        p.0.push(a);
        p.2.push(b);
    }
    p
}

/// Batch answers equal gjk-core's: distances within 1e-4 (1 + d) of the shapes'
/// scale, booleans equal outside a touching band of the same width, no cap,
/// no non-finite answer.
#[test]
fn batch_answers_on_degenerate_shapes_match_gjk_core() {
    let seed = 0xde6e;
    let (sa, pa, sb, pb) = pairs(seed, 16_384);
    for options in [
        BatchOptions {
            parallelism: Parallelism::Sequential,
            ..BatchOptions::default()
        },
        BatchOptions {
            parallelism: Parallelism::default(),
            early_outs: false,
            closed_forms: false,
        },
    ] {
        let dists = distance_batch_with(&sa, &pa, &sb, &pb, options).unwrap();
        let bools = intersects_batch_with(&sa, &pa, &sb, &pb, options).unwrap();
        let mut worst = 0.0f32;
        for i in 0..sa.len() {
            let (a, b) = (&sa[i], &sb[i]);
            let core = distance(a, &pa[i], b, &pb[i]);
            let core_bool = intersection(a, &pa[i], b, &pb[i]);
            let (wide, wide_bool) = (dists[i], bools[i]);
            let msg = format!(
                "seed {seed:#x} pair {i} ({options:?}): {a:?} at {:?}, {b:?} at {:?}\n  core {core:?}\n  wide {wide:?}",
                pa[i], pb[i]
            );
            let scale = 1.0 + a.bounding_radius() + b.bounding_radius();
            let tol = 1e-4 * (scale + core.distance);
            assert!(wide.distance.is_finite(), "{msg}");
            assert_eq!(wide.status, Status::Converged, "{msg}");
            assert_eq!(wide_bool.status, Status::Converged, "{msg}");
            let diff = (wide.distance - core.distance).abs();
            worst = worst.max(diff / scale);
            assert!(diff <= tol, "{msg}");
            if core_bool.intersecting != wide_bool.intersecting {
                // Only within the touching band: gjk-core's distance (or, for
                // overlapping cores, the depth its contact finds) is within it.
                let depth = gjk_core::contact(a, &pa[i], b, &pb[i], 0.0).map_or(0.0, |c| c.depth);
                assert!(
                    core.distance <= tol && depth <= tol,
                    "{msg}\n  {core_bool:?}\n  {wide_bool:?}"
                );
            }
            if wide.distance == 0.0 && core.distance == 0.0 {
                continue;
            }
            if wide.distance > 0.0 {
                let realized = wide.point_a.distance(wide.point_b);
                assert!((realized - wide.distance).abs() <= tol, "{msg}");
            }
        }
        println!("{options:?}: worst distance difference {worst:.2e} of the scale");
    }
}
