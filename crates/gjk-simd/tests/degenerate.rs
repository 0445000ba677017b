//! Degenerate but valid shapes through the batch driver and the wide kernels:
//! zero sizes (point balls, segment capsules and cylinders, disc cylinders and
//! cones, flat and needle boxes) and flat and lower-dimensional hulls (polygons,
//! segments, points), against gjk-core, with the shortcuts on and off.

mod common;

use common::{Pairs, degenerate_pairs};
use gjk_core::{Status, SupportMap, distance, intersection};
use gjk_simd::{BatchOptions, Parallelism, distance_batch_with, intersects_batch_with};

/// Batch answers equal gjk-core's: distances within 1e-4 (1 + d) of the shapes'
/// scale, booleans equal outside a touching band of the same width, no cap,
/// no non-finite answer.
#[test]
fn batch_answers_on_degenerate_shapes_match_gjk_core() {
    let seed = 0xde6e;
    let Pairs {
        shapes_a: sa,
        poses_a: pa,
        shapes_b: sb,
        poses_b: pb,
    } = degenerate_pairs(seed, 16_384);
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
