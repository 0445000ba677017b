//! The edges of f32, on the scalar and the wide path alike: sizes beyond
//! `MAX_SIZE` are refused by name, pairs posed up to `MAX_OFFSET` apart (1e30,
//! 5e37) and pairs of size 1e-30 are answered as closed forms say, pairs farther
//! apart are `InvalidInput` on both paths, and no answer is non-finite with
//! status `Converged`.

mod common;

use common::{rng, rotation, unit_vector};
use gjk_core::glam::{DVec3, Quat, Vec3};
use gjk_core::tolerance::{MAX_OFFSET, MAX_SIZE};
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Distance, Pose, Rounded, Shape, ShapeError,
    Sphere, Status, contact, distance, intersection,
};
use gjk_simd::math::f32x8;
use gjk_simd::{
    BatchOptions, CylinderX8, Parallelism, RoundedX8, SphereX8, contact_batch_with,
    distance_batch_with, intersects_batch_with,
};
use rand::Rng;

const PATHS: [BatchOptions; 2] = [
    BatchOptions {
        parallelism: Parallelism::Sequential,
        early_outs: true,
        closed_forms: true,
    },
    BatchOptions {
        parallelism: Parallelism::Sequential,
        early_outs: false,
        closed_forms: false,
    },
];

/// The scalar answer and the batch driver's, both ways (shortcuts on and off).
fn all_paths(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> Vec<Distance> {
    let mut out = vec![distance(a, pa, b, pb)];
    for options in PATHS {
        out.push(distance_batch_with(&[a], &[*pa], &[b], &[*pb], options).unwrap()[0]);
    }
    out
}

#[test]
fn sizes_beyond_the_limit_are_refused_by_name() {
    assert_eq!(
        Cuboid::new(Vec3::splat(1e30)),
        Err(ShapeError::TooLarge {
            shape: "Cuboid",
            field: "half_extents.x",
            value: 1e30,
            limit: MAX_SIZE
        })
    );
    assert!(matches!(
        Cone::new(f32::MAX, 1.0),
        Err(ShapeError::TooLarge {
            field: "half_height",
            ..
        })
    ));
    assert!(Sphere::new(3e38).is_err());
    assert_eq!(
        ConvexHull::from_points(&[Vec3::ZERO, Vec3::splat(1e37)]),
        Err(ShapeError::PointTooLarge {
            index: 1,
            limit: MAX_SIZE
        })
    );
    // The wide shapes check their lanes the same way.
    let mut r = [1.0f32; 8];
    r[5] = -0.25;
    assert_eq!(
        CylinderX8::new(f32x8::splat(1.0), f32x8::new(r)),
        Err(ShapeError::Negative {
            shape: "CylinderX8",
            field: "radius",
            value: -0.25
        })
    );
    r[5] = 1e30;
    assert!(matches!(
        SphereX8::new(f32x8::new(r)),
        Err(ShapeError::TooLarge { .. })
    ));
    r[5] = f32::NAN;
    assert!(matches!(
        RoundedX8::new(SphereX8::default(), f32x8::new(r)),
        Err(ShapeError::NotFinite { .. })
    ));
    assert!(SphereX8::new(f32x8::splat(MAX_SIZE)).is_ok());
}

/// A random shape of size about `size`.
fn shape_of_size(rng: &mut impl Rng, kind: usize, size: f32) -> Shape {
    let mut s = || size * rng.random_range(0.25f32..1.0);
    match kind % 6 {
        0 => Sphere::new(s()).unwrap().into(),
        1 => Cuboid::new(Vec3::new(s(), s(), s())).unwrap().into(),
        2 => Capsule::new(s(), s()).unwrap().into(),
        3 => Cylinder::new(s(), s()).unwrap().into(),
        4 => Cone::new(s(), s()).unwrap().into(),
        _ => {
            let radius = s();
            let points: Vec<Vec3> = (0..12).map(|_| unit_vector(rng) * radius).collect();
            ConvexHull::from_points(&points).unwrap().into()
        }
    }
}

/// Shapes of size 1 to 1e18 posed 1e19 to 5e37 apart: the distance is the
/// offset less the supports along it, within a few ulps, on every path, and
/// every status is `Converged`. The wide kernels used to return infinity where
/// `|v|²` overflowed (two balls 1.9e19 apart through the closed form, any pair
/// 1e30 apart through GJK).
#[test]
fn pairs_posed_far_apart() {
    let seed = 0xfa7;
    let mut rng = rng(seed);
    for case in 0..600 {
        let size = 10f32.powf(rng.random_range(0.0..18.0));
        let far = 10f32.powf(rng.random_range(19.0..37.7));
        let (a, b) = (
            shape_of_size(&mut rng, case, size),
            shape_of_size(&mut rng, case / 6, size),
        );
        let dir = unit_vector(&mut rng);
        let pa = Pose::new(rotation(&mut rng), Vec3::ZERO).unwrap();
        let pb = Pose::new(rotation(&mut rng), dir * far).unwrap();
        // The offset less A's support along it and B's against it, in f64.
        let n = (pb.translation().as_dvec3() - pa.translation().as_dvec3()).normalize();
        let support = |s: &Shape, p: &Pose, d: DVec3| {
            let q = p.rotation().as_dquat();
            (q * workloads::oracle::local_support(s, q.conjugate() * d)).dot(d)
        };
        let expected =
            pb.translation().as_dvec3().length() - support(&a, &pa, n) - support(&b, &pb, -n);
        let msg = format!("seed {seed:#x} case {case}: {a:?}, {b:?} {far:e} apart along {dir}");
        for d in all_paths(&a, &pa, &b, &pb) {
            assert_eq!(d.status, Status::Converged, "{msg}: {d:?}");
            assert!(d.distance.is_finite(), "{msg}: {d:?}");
            // The supports along the offset only approximate the closest
            // points' offset (the shapes are not aligned), by at most their size.
            let err = (f64::from(d.distance) - expected).abs();
            assert!(
                err <= 1e-6 * expected + 4.0 * f64::from(size),
                "{msg}: {d:?}, expected {expected}"
            );
            assert!(
                d.point_a.is_finite() && d.point_b.is_finite(),
                "{msg}: {d:?}"
            );
        }
        let i = intersection(&a, &pa, &b, &pb);
        assert!(
            !i.intersecting && i.status == Status::Converged,
            "{msg}: {i:?}"
        );
        for options in PATHS {
            let w = intersects_batch_with(&[&a], &[pa], &[&b], &[pb], options).unwrap()[0];
            assert!(
                !w.intersecting && w.status == Status::Converged,
                "{msg}: {w:?}"
            );
        }
    }
}

/// Balls and axis-aligned boxes of sizes up to `MAX_SIZE`, a gap of 1e-6 of
/// their size apart or overlapping: the closed form on every path.
#[test]
fn the_largest_shapes() {
    let seed = 0xb16;
    let mut rng = rng(seed);
    for case in 0..400 {
        let size = MAX_SIZE * rng.random_range(0.01f32..1.0);
        let (ha, hb) = (
            size * rng.random_range(0.5f32..1.0),
            size * rng.random_range(0.5f32..1.0),
        );
        let gap = size * rng.random_range(-0.5f32..0.5);
        let (a, b): (Shape, Shape) = if case % 2 == 0 {
            (
                Sphere::new(ha).unwrap().into(),
                Sphere::new(hb).unwrap().into(),
            )
        } else {
            (
                Cuboid::new(Vec3::splat(ha)).unwrap().into(),
                Cuboid::new(Vec3::splat(hb)).unwrap().into(),
            )
        };
        let x = ha + hb + gap;
        let (pa, pb) = (
            Pose::IDENTITY,
            Pose::from_translation(Vec3::new(x, 0.0, 0.0)).unwrap(),
        );
        let expected = (f64::from(x) - f64::from(ha) - f64::from(hb)).max(0.0);
        let msg = format!("seed {seed:#x} case {case}: {a:?}, {b:?} at {x:e}");
        for d in all_paths(&a, &pa, &b, &pb) {
            assert_eq!(d.status, Status::Converged, "{msg}: {d:?}");
            let err = (f64::from(d.distance) - expected).abs();
            assert!(
                err <= 4e-6 * f64::from(size),
                "{msg}: {d:?}, expected {expected:e}"
            );
        }
        if gap < -1e-3 * size {
            let c = contact(&a, &pa, &b, &pb, 0.0).expect("overlapping");
            assert!((c.depth + gap).abs() <= 1e-5 * size, "{msg}: {c:?}");
            assert!((c.normal - Vec3::X).length() < 1e-4, "{msg}: {c:?}");
        }
    }
}

/// Discs at `MAX_SIZE` (cones and cylinders 0.1 high) against small shapes
/// nearly on their axis: support points along directions a hair off the axis
/// stay on the rim (the XZ part's squares underflow there, and `radius /
/// |xz|` overflowed to an infinite support point), and every contact,
/// distance and manifold is finite. The fuzz suite's `World` property found a
/// cone against a short segment answered with NaN points and status
/// `Converged`; it is case 0.
#[test]
fn the_largest_discs_near_their_axis() {
    use gjk_core::SupportMap;
    for tilt in [0.0f32, 1e-30, 1e-25, 1e-20, 1e-19, 1e-18, 1e-17, 1e-10] {
        for disc in [
            Shape::from(Cone::new(0.05, MAX_SIZE).unwrap()),
            Shape::from(Cylinder::new(0.05, MAX_SIZE).unwrap()),
        ] {
            let p = disc.support(Vec3::new(tilt, 1.0, -tilt));
            assert!(p.is_finite(), "{disc:?} along a tilt of {tilt:e}: {p}");
            let rim = (p.x * p.x + p.z * p.z).sqrt();
            assert!(
                rim == 0.0 || (rim / MAX_SIZE - 1.0).abs() < 1e-6,
                "{disc:?} along a tilt of {tilt:e}: {p}"
            );
        }
    }
    let seed = 0xd1_5c;
    let mut rng = rng(seed);
    for case in 0..200 {
        let (disc, pose_disc, other, pose_other) = if case == 0 {
            (
                Shape::from(Cone::new(0.05, MAX_SIZE).unwrap()),
                Pose::new(
                    Quat::from_xyzw(-0.570_298_6, 0.0, 0.0, 0.821_437_5),
                    Vec3::new(0.0, -3745.5051, 0.0),
                )
                .unwrap(),
                Shape::from(
                    ConvexHull::from_points(&[Vec3::new(0.0, -0.007_997_564, 0.0), Vec3::ZERO])
                        .unwrap(),
                ),
                Pose::new(
                    Quat::from_xyzw(1.0, 0.0, 0.0, 1.054_844_9e-5),
                    Vec3::new(-1.0, 0.0, 0.0),
                )
                .unwrap(),
            )
        } else {
            let disc = if case % 2 == 0 {
                Shape::from(Cone::new(0.05, MAX_SIZE).unwrap())
            } else {
                Shape::from(Cylinder::new(0.05, MAX_SIZE).unwrap())
            };
            let other = Shape::from(
                ConvexHull::from_points(&[Vec3::ZERO, unit_vector(&mut rng) * 0.01]).unwrap(),
            );
            let pose_disc = Pose::new(rotation(&mut rng), Vec3::ZERO).unwrap();
            let height = rng.random_range(-1e4f32..1e4);
            let near_axis = pose_disc.transform_vector(Vec3::Y) * height
                + unit_vector(&mut rng) * rng.random_range(0.0f32..1.0);
            (
                disc,
                pose_disc,
                other,
                Pose::new(rotation(&mut rng), near_axis).unwrap(),
            )
        };
        for (a, pa, b, pb) in [
            (&disc, &pose_disc, &other, &pose_other),
            (&other, &pose_other, &disc, &pose_disc),
        ] {
            let msg = format!("seed {seed:#x} case {case}: {a:?} at {pa:?}, {b:?} at {pb:?}");
            for d in all_paths(a, pa, b, pb) {
                let finite =
                    d.distance.is_finite() && d.point_a.is_finite() && d.point_b.is_finite();
                assert!(d.status != Status::Converged || finite, "{msg}: {d:?}");
            }
            let wide =
                gjk_simd::manifold_batch(&[a], &[*pa], &[b], &[*pb], 0.1, Parallelism::Sequential)
                    .unwrap()[0];
            for m in [gjk_core::contact_manifold(a, pa, b, pb, 0.1), wide]
                .into_iter()
                .flatten()
            {
                let finite = m.normal.is_finite()
                    && m.points().iter().all(|p| {
                        p.depth.is_finite() && p.point_a.is_finite() && p.point_b.is_finite()
                    });
                assert!(m.status != Status::Converged || finite, "{msg}: {m:?}");
            }
        }
    }
}

/// Rounded boxes `MAX_SIZE` long, posed 1e12 from the origin against ones within
/// 1e4 of it: many pairs sit within a few ulps of touching (an ulp of 1e18 is
/// 1.4e11), where the separating axes can find the cores apart by more than the
/// touch tolerance while GJK, in its own rounding, finds them overlapping. Such
/// a lane once took the "apart" path with a zero core distance, and its normal
/// `-v / |v|` came out NaN (flagged `Degenerate` by `finish_contact`'s check,
/// but still without a normal); the fuzz suite's `World` property met it. Every
/// contact is finite with a unit normal, and a pair's answer in a batch is its
/// answer alone.
#[test]
fn the_longest_boxes_near_touching() {
    let seed = 0xb0_7e;
    let mut rng = rng(seed);
    /// A rounded box `MAX_SIZE` long on a random axis, its other sizes 0 to 3.
    fn long_box(rng: &mut impl Rng) -> Shape {
        let mut h = [0.0f32; 3].map(|_| rng.random_range(0.0f32..3.0));
        h[rng.random_range(0..3)] = MAX_SIZE;
        let core: Shape = Cuboid::new(Vec3::from_array(h)).unwrap().into();
        Shape::from(Rounded::new(core, rng.random_range(0.0f32..3.0)).unwrap())
    }
    for batch in 0..250 {
        let (mut sa, mut pa, mut sb, mut pb) = (vec![], vec![], vec![], vec![]);
        for _ in 0..8 {
            sa.push(long_box(&mut rng));
            sb.push(long_box(&mut rng));
            let mut far = [0.0f32; 3].map(|_| rng.random_range(-20.0f32..20.0));
            far[rng.random_range(0..3)] = if rng.random_bool(0.5) { 1e12 } else { -1e12 };
            pa.push(Pose::new(rotation(&mut rng), Vec3::from_array(far)).unwrap());
            let near = Vec3::from_array([0.0f32; 3].map(|_| rng.random_range(-1e4f32..1e4)));
            pb.push(Pose::new(rotation(&mut rng), near).unwrap());
        }
        for options in PATHS {
            let all = contact_batch_with(&sa, &pa, &sb, &pb, f32::INFINITY, options).unwrap();
            for (i, c) in all.iter().enumerate() {
                let msg = format!(
                    "seed {seed:#x} batch {batch} pair {i} ({options:?}): {:?} at {:?}, {:?} at {:?}",
                    sa[i], pa[i], sb[i], pb[i]
                );
                // An infinite prediction keeps every pair's contact.
                let c = c.unwrap_or_else(|| panic!("{msg}: no contact"));
                let finite = c.depth.is_finite()
                    && c.normal.is_finite()
                    && c.point_a.is_finite()
                    && c.point_b.is_finite();
                assert!(finite, "{msg}: {c:?}");
                assert!((c.normal.length() - 1.0).abs() < 1e-5, "{msg}: {c:?}");
                let alone = contact_batch_with(
                    &sa[i..=i],
                    &pa[i..=i],
                    &sb[i..=i],
                    &pb[i..=i],
                    f32::INFINITY,
                    options,
                )
                .unwrap()[0];
                assert_eq!(format!("{alone:?}"), format!("{:?}", Some(c)), "{msg}");
            }
        }
    }
}

/// Shapes of size 1e-30 and smaller, that far apart: closed forms on every
/// path (products of six such lengths underflowed the wide solve).
#[test]
fn the_smallest_pairs() {
    let seed = 0x5a11;
    let mut rng = rng(seed);
    for case in 0..600 {
        let size = 10f32.powf(rng.random_range(-36.0..-20.0));
        let (ra, rb) = (
            size * rng.random_range(0.1f32..1.0),
            size * rng.random_range(0.1f32..1.0),
        );
        let (a, b): (Shape, Shape) = if case % 3 == 0 {
            (
                Sphere::new(ra).unwrap().into(),
                Sphere::new(rb).unwrap().into(),
            )
        } else {
            (
                Capsule::new(ra, 0.5 * ra).unwrap().into(),
                Cuboid::new(Vec3::splat(rb)).unwrap().into(),
            )
        };
        let dir = unit_vector(&mut rng);
        let centre = Vec3::new(1e-30, -2e-30, 0.0);
        let offset = dir * size * rng.random_range(0.0f32..4.0);
        let pa = Pose::new(Quat::IDENTITY, centre).unwrap();
        let pb = Pose::new(rotation(&mut rng), centre + offset).unwrap();
        let msg = format!("seed {seed:#x} case {case}: {a:?}, {b:?}, offset {offset}");
        let truth = -workloads::oracle::penetration_by_directions(&a, &pa, &b, &pb, 2000).0;
        let paths = all_paths(&a, &pa, &b, &pb);
        for d in &paths {
            assert_ne!(d.status, Status::InvalidInput, "{msg}: {d:?}");
            assert!(d.distance.is_finite(), "{msg}: {d:?}");
            let err = (f64::from(d.distance) - truth.max(0.0)).abs();
            assert!(
                err <= 1e-5 * f64::from(size),
                "{msg}: {d:?}, expected {truth:e}"
            );
        }
    }
}

/// Pairs farther apart than `MAX_OFFSET` (and only those) are invalid input on
/// every path: a NaN distance, no intersection, no contact.
#[test]
fn pairs_beyond_the_largest_offset_are_invalid_on_both_paths() {
    let ball: Shape = Sphere::new(1.0).unwrap().into();
    let cube: Shape = Cuboid::new(Vec3::ONE).unwrap().into();
    for (a, b) in [
        (&ball, &ball),
        (&cube, &ball),
        (&cube, &cube),
        (&ball, &cube),
    ] {
        for (xa, xb, valid) in [
            (-3e38, 3e38, false),
            (f32::MAX, -f32::MAX, false),
            (0.0, 1.01 * MAX_OFFSET, false),
            (0.0, 0.99 * MAX_OFFSET, true),
            (-0.4 * MAX_OFFSET, 0.5 * MAX_OFFSET, true),
        ] {
            let pa = Pose::new(Quat::from_rotation_y(0.3), Vec3::new(xa, 0.0, 0.0)).unwrap();
            let pb = Pose::from_translation(Vec3::new(xb, 0.0, 0.0)).unwrap();
            let msg = format!("{a:?} at {xa:e}, {b:?} at {xb:e}");
            let i = intersection(a, &pa, b, &pb);
            assert!(!i.intersecting, "{msg}");
            for d in all_paths(a, &pa, b, &pb) {
                if valid {
                    assert_eq!(d.status, Status::Converged, "{msg}: {d:?}");
                    assert!(d.distance.is_finite() && d.distance > 0.0, "{msg}: {d:?}");
                } else {
                    assert_eq!(d.status, Status::InvalidInput, "{msg}: {d:?}");
                    assert!(d.distance.is_nan(), "{msg}: {d:?}");
                }
            }
            for options in PATHS {
                let w = intersects_batch_with(&[a], &[pa], &[b], &[pb], options).unwrap()[0];
                assert!(!w.intersecting, "{msg}");
                assert_eq!(w.status == Status::InvalidInput, !valid, "{msg}: {w:?}");
            }
            assert_eq!(i.status == Status::InvalidInput, !valid, "{msg}: {i:?}");
            if !valid {
                assert!(contact(a, &pa, b, &pb, f32::MAX).is_none(), "{msg}");
            }
        }
    }
}

/// Options are input too: any `batches_per_task` runs, the answers bit for bit
/// those of the sequential path (a task of `usize::MAX / 8 + 1` batches once
/// overflowed the pair count of a task).
#[test]
fn any_batches_per_task_runs() {
    let ball: Shape = Sphere::new(0.5).unwrap().into();
    let cube: Shape = Cuboid::new(Vec3::ONE).unwrap().into();
    let shapes: Vec<&Shape> = (0..100)
        .map(|i| if i % 3 == 0 { &cube } else { &ball })
        .collect();
    let poses: Vec<Pose> = (0..100)
        .map(|i| Pose::from_translation(Vec3::new(i as f32 * 0.3, 0.0, 0.0)).unwrap())
        .collect();
    let others = vec![Pose::IDENTITY; 100];
    let want = distance_batch_with(&shapes, &poses, &shapes, &others, PATHS[0]).unwrap();
    for batches_per_task in [0, 1, 3, usize::MAX / 8, usize::MAX / 8 + 1, usize::MAX] {
        let options = BatchOptions {
            parallelism: Parallelism::Rayon { batches_per_task },
            ..PATHS[0]
        };
        let got = distance_batch_with(&shapes, &poses, &shapes, &others, options).unwrap();
        let bits = |d: &Distance| (d.distance.to_bits(), d.point_a.x.to_bits(), d.iterations);
        assert!(
            got.iter().zip(&want).all(|(g, w)| bits(g) == bits(w)),
            "batches_per_task {batches_per_task}"
        );
        intersects_batch_with(&shapes, &poses, &shapes, &others, options).unwrap();
    }
}
