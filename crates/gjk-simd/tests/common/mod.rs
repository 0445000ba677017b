//! Seeded workloads shared by the integration tests.
#![allow(dead_code)]

use std::sync::Arc;

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, Sphere, SupportMap,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The base kinds the kernels are monomorphized for, in the driver's order.
pub const KIND_NAMES: [&str; 6] = ["sphere", "cuboid", "capsule", "cylinder", "cone", "hull"];

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A uniformly random rotation (the workspace's shared generator).
pub fn rotation(rng: &mut impl Rng) -> Quat {
    workloads::workload::random_rotation(rng)
}

/// A uniformly random unit vector (the workspace's shared generator).
pub fn unit_vector(rng: &mut impl Rng) -> Vec3 {
    workloads::workload::random_unit(rng)
}

/// Hulls of `n` random points on spheres of radius 1..2, `n` from 4 to 48 so lanes
/// of one batch hold hulls of different sizes (both below and above gjk-core's
/// hill-climbing threshold).
pub fn hulls(seed: u64, count: usize) -> Vec<Arc<ConvexHull>> {
    let mut rng = rng(seed ^ 0x4855_4c4c);
    (0..count)
        .map(|i| {
            let n = [4, 6, 12, 20, 32, 32, 40, 48][i % 8];
            let r = rng.random_range(1.0..2.0);
            loop {
                let pts: Vec<Vec3> = (0..n).map(|_| unit_vector(&mut rng) * r).collect();
                if let Ok(h) = ConvexHull::from_points(&pts) {
                    return Arc::new(h);
                }
            }
        })
        .collect()
}

/// A random shape of base kind `kind` (index into [`KIND_NAMES`]).
pub fn shape(rng: &mut impl Rng, kind: usize, hulls: &[Arc<ConvexHull>]) -> Shape {
    match kind {
        0 => Sphere::new(rng.random_range(0.5..1.5)).unwrap().into(),
        1 => Cuboid::new(Vec3::new(
            rng.random_range(0.5..2.0),
            rng.random_range(0.5..2.0),
            rng.random_range(0.5..2.0),
        ))
        .unwrap()
        .into(),
        2 => Capsule::new(rng.random_range(0.5..1.5), rng.random_range(0.3..0.8))
            .unwrap()
            .into(),
        3 => Cylinder::new(rng.random_range(0.5..1.5), rng.random_range(0.3..1.2))
            .unwrap()
            .into(),
        4 => Cone::new(rng.random_range(0.5..1.5), rng.random_range(0.3..1.2))
            .unwrap()
            .into(),
        _ => Shape::ConvexHull(hulls[rng.random_range(0..hulls.len())].clone()),
    }
}

/// `shape` dilated by a random radius.
pub fn rounded(rng: &mut impl Rng, inner: Shape) -> Shape {
    Rounded::new(inner, rng.random_range(0.05..0.3))
        .unwrap()
        .into()
}

/// A pair workload: shapes with random rotations, B's centre uniform in a cube
/// around A's whose half-side is proportional to their bounding radii (about half
/// the pairs overlap), A's centre anywhere in `[-world, world]³`.
#[derive(Default)]
pub struct Pairs {
    pub shapes_a: Vec<Shape>,
    pub poses_a: Vec<Pose>,
    pub shapes_b: Vec<Shape>,
    pub poses_b: Vec<Pose>,
}

impl Pairs {
    pub fn len(&self) -> usize {
        self.shapes_a.len()
    }
}

pub fn pairs(
    seed: u64,
    n: usize,
    mut pick: impl FnMut(&mut ChaCha8Rng, usize) -> (Shape, Shape),
    world: f32,
) -> Pairs {
    let mut rng = rng(seed);
    let mut p = Pairs {
        shapes_a: Vec::with_capacity(n),
        poses_a: Vec::with_capacity(n),
        shapes_b: Vec::with_capacity(n),
        poses_b: Vec::with_capacity(n),
    };
    for i in 0..n {
        let (a, b) = pick(&mut rng, i);
        let reach = a.bounding_radius() + b.bounding_radius();
        let ca = Vec3::new(
            rng.random_range(-world..=world),
            rng.random_range(-world..=world),
            rng.random_range(-world..=world),
        );
        let h = 0.75 * reach;
        let cb = ca
            + Vec3::new(
                rng.random_range(-h..h),
                rng.random_range(-h..h),
                rng.random_range(-h..h),
            );
        p.poses_a.push(Pose::new(rotation(&mut rng), ca).unwrap());
        p.poses_b.push(Pose::new(rotation(&mut rng), cb).unwrap());
        p.shapes_a.push(a);
        p.shapes_b.push(b);
    }
    p
}

/// A degenerate shape of one of twelve kinds (some sizes zero), or with
/// probability `plain` an ordinary one.
pub fn degenerate(rng: &mut impl Rng, hulls: &[Arc<ConvexHull>], plain: f64) -> Shape {
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
pub fn degenerate_pairs(seed: u64, n: usize) -> Pairs {
    let mut rng = rng(seed);
    let hull_set = hulls(seed, 16);
    let mut p = Pairs {
        shapes_a: Vec::new(),
        poses_a: Vec::new(),
        shapes_b: Vec::new(),
        poses_b: Vec::new(),
    };
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
        p.poses_a.push(Pose::new(rotation(&mut rng), ca).unwrap());
        p.poses_b.push(Pose::new(rotation(&mut rng), cb).unwrap());
        p.shapes_a.push(a);
        p.shapes_b.push(b);
    }
    p
}

/// The farthest point of `shape` at `pose` along the world direction `n`.
pub fn world_support(shape: &Shape, pose: &Pose, n: Vec3) -> Vec3 {
    pose.transform_point(shape.support(pose.inverse_transform_vector(n)))
}
