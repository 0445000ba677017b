//! The closed-form bounds of every shape (`SupportMap::aabb`) against three
//! references: the six-support construction (`aabb_from_supports`, exact by
//! definition), parry3d's `compute_aabb` (an independent implementation), and
//! boxes derived by hand for axis-aligned and slightly tilted poses. Every box must
//! also contain the shape: support points along many directions lie inside it.

use gjk_core::glam::{Quat, Vec3};
use gjk_core::support::aabb_from_supports;
use gjk_core::{Aabb, Capsule, Cone, Cuboid, Cylinder, Pose, Rounded, Shape, Sphere, SupportMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use workloads::workload::{random_hull, random_rotation, random_unit};

/// Every kind, plain and rounded, in several proportions (flat, long, hulls small
/// enough to scan and large enough to climb).
fn shapes() -> Vec<Shape> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let plain: Vec<Shape> = vec![
        Sphere::new(0.7).unwrap().into(),
        Cuboid::new(Vec3::new(0.5, 2.0, 1.0)).unwrap().into(),
        Cuboid::new(Vec3::new(3.0, 0.01, 3.0)).unwrap().into(),
        Capsule::new(1.5, 0.4).unwrap().into(),
        Capsule::new(0.0, 0.4).unwrap().into(),
        Cylinder::new(0.3, 1.0).unwrap().into(),
        Cylinder::new(2.0, 0.1).unwrap().into(),
        Cone::new(0.8, 0.3).unwrap().into(),
        Cone::new(0.1, 2.0).unwrap().into(),
        Shape::ConvexHull(random_hull(&mut rng, 8).into()),
        Shape::ConvexHull(random_hull(&mut rng, 32).into()),
        Shape::ConvexHull(random_hull(&mut rng, 200).into()),
    ];
    let rounded = plain
        .iter()
        .map(|s| Shape::Rounded(Rounded::new(s.clone(), 0.25).unwrap().into()));
    plain.clone().into_iter().chain(rounded).collect()
}

/// Random poses, with rotations about one axis by tiny angles mixed in (where a
/// cylinder's rim extent along its own axis is a few ulps of its radius) and
/// translations from the origin out to 1e4.
fn poses(seed: u64, n: usize) -> Vec<Pose> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|k| {
            let rotation = match k % 4 {
                0 => random_rotation(&mut rng),
                1 => Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-1e-3..1e-3)),
                2 => Quat::IDENTITY,
                _ => Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            };
            let reach = [0.0, 1.0, 100.0, 1e4][k % 4 / 2 + (k / 4) % 3];
            let t = random_unit(&mut rng) * reach * rng.random_range(0.0..1.0f32);
            Pose::new(rotation, t).unwrap()
        })
        .collect()
}

/// How far two boxes of the same shape may differ: rounding of products of the
/// rotation with the shape's size, plus the translation's own ulp.
fn tolerance(shape: &Shape, pose: &Pose) -> f32 {
    4e-6 * shape.bounding_radius() + 2.0 * f32::EPSILON * pose.translation().abs().max_element()
}

fn assert_close(got: &Aabb, want: &Aabb, tol: f32, what: &str) {
    let err = (got.min - want.min)
        .abs()
        .max((got.max - want.max).abs())
        .max_element();
    assert!(
        err <= tol,
        "{what}: got {got:?}, want {want:?} (error {err:e}, tolerance {tol:e})"
    );
}

#[test]
fn closed_forms_equal_six_supports() {
    let seed = 5;
    for (s, shape) in shapes().iter().enumerate() {
        for (k, pose) in poses(seed, 400).iter().enumerate() {
            let what = format!("seed {seed}, shape {s} ({shape:?}), pose {k} ({pose:?})");
            assert_close(
                &shape.aabb(pose),
                &aabb_from_supports(shape, pose),
                tolerance(shape, pose),
                &what,
            );
        }
    }
}

#[test]
fn closed_forms_equal_parrys_bounds() {
    let seed = 6;
    for (s, shape) in shapes().iter().enumerate() {
        // parry has no rounded capsule or cone (a rounded capsule is a capsule), nor
        // a rounded sphere.
        if let Shape::Rounded(r) = shape
            && !matches!(
                r.inner(),
                Shape::Cuboid(_) | Shape::Cylinder(_) | Shape::ConvexHull(_)
            )
        {
            continue;
        }
        let parry_shape = workloads::parry::shape(shape);
        for (k, pose) in poses(seed, 200).iter().enumerate() {
            let b = parry_shape.compute_aabb(&workloads::parry::pose(pose));
            let want = Aabb {
                min: b.mins,
                max: b.maxs,
            };
            let what = format!("seed {seed}, shape {s} ({shape:?}), pose {k} ({pose:?})");
            // parry's hull bounds start from its own copy of the vertices, its
            // cylinder and cone bounds from support points: a few more roundings.
            let tol = 2.0 * tolerance(shape, pose);
            assert_close(&shape.aabb(pose), &want, tol, &what);
        }
    }
}

#[test]
fn boxes_contain_their_shapes() {
    let seed = 8;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for (s, shape) in shapes().iter().enumerate() {
        for (k, pose) in poses(seed, 100).iter().enumerate() {
            let b = shape.aabb(pose);
            let tol = Vec3::splat(tolerance(shape, pose));
            for j in 0..64 {
                let d = random_unit(&mut rng);
                let local = shape.support(pose.rotation().inverse() * d);
                let p = pose.transform_point(local);
                assert!(
                    p.cmpge(b.min - tol).all() && p.cmple(b.max + tol).all(),
                    "seed {seed}, shape {s} ({shape:?}), pose {k} ({pose:?}), direction {j}: \
                     support point {p} outside {b:?}"
                );
            }
        }
    }
}

#[test]
fn boxes_derived_by_hand() {
    let at = |rotation: Quat, t: Vec3| Pose::new(rotation, t).unwrap();
    let quarter_z = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let eighth_z = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    let t = Vec3::new(1.0, -2.0, 3.0);
    let expect = |shape: Shape, pose: Pose, half: Vec3| {
        let want = Aabb::from_center_half_extents(pose.translation(), half);
        assert_close(
            &shape.aabb(&pose),
            &want,
            2e-6 * shape.bounding_radius() + 1e-6,
            &format!("{shape:?} at {pose:?}"),
        );
    };
    let h = Vec3::new(0.5, 2.0, 1.0);
    // A box turned a quarter about z swaps its x and y extents; an eighth spreads
    // both over (hx + hy) / √2.
    expect(
        Cuboid::new(h).unwrap().into(),
        at(quarter_z, t),
        Vec3::new(2.0, 0.5, 1.0),
    );
    let s = (h.x + h.y) / 2f32.sqrt();
    expect(
        Cuboid::new(h).unwrap().into(),
        at(eighth_z, t),
        Vec3::new(s, s, 1.0),
    );
    // A cylinder (axis y) turned onto x: its half height along x, its radius across.
    expect(
        Cylinder::new(2.0, 0.5).unwrap().into(),
        at(quarter_z, t),
        Vec3::new(2.0, 0.5, 0.5),
    );
    // A capsule's radius adds to every side.
    expect(
        Capsule::new(1.0, 0.25).unwrap().into(),
        at(Quat::IDENTITY, t),
        Vec3::new(0.25, 1.25, 0.25),
    );
    // An upright cone: apex at +h, base rim at -h with radius r.
    expect(
        Cone::new(0.8, 0.3).unwrap().into(),
        at(Quat::IDENTITY, t),
        Vec3::new(0.3, 0.8, 0.3),
    );
    // Turned upside down about x, its apex points down: same box.
    expect(
        Cone::new(0.8, 0.3).unwrap().into(),
        at(Quat::from_rotation_x(std::f32::consts::PI), t),
        Vec3::new(0.3, 0.8, 0.3),
    );
    // Rounded: the inner box grown by the radius.
    expect(
        Shape::Rounded(
            Rounded::new(Shape::from(Cuboid::new(h).unwrap()), 0.5)
                .unwrap()
                .into(),
        ),
        at(quarter_z, t),
        Vec3::new(2.5, 1.0, 1.5),
    );
}

/// A cylinder tilted by θ about x reaches `h cos θ + r sin θ` along y: for tiny θ
/// the rim's part, `r sin θ`, is far below the radius, and computing it as
/// `r √(1 − cos² θ)` in f32 would lose most of its digits.
#[test]
fn tilted_cylinder_keeps_its_rim_extent() {
    let (h, r) = (1.0f64, 2.0f64);
    let cylinder: Shape = Cylinder::new(h as f32, r as f32).unwrap().into();
    for theta in [1e-2f64, 1e-3, 3e-4, 1e-4] {
        let pose = Pose::new(Quat::from_rotation_x(theta as f32), Vec3::ZERO).unwrap();
        // The f32 rotation's own angle, as f64 (the quaternion rounds θ).
        let rot = pose.rotation_matrix();
        let (c, s) = (f64::from(rot.y_axis.y), f64::from(rot.y_axis.z).abs());
        let want_y = h * c + r * s;
        let got_y = f64::from(cylinder.aabb(&pose).max.y);
        assert!(
            (got_y - want_y).abs() <= 1e-6 * want_y,
            "θ = {theta}: max y {got_y}, want {want_y}"
        );
    }
}
