//! Random shapes, poses and pair sets.

use std::sync::Arc;

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, ShapeKind, Sphere,
    intersects,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Two posed shapes.
#[derive(Debug, Clone)]
pub struct Pair {
    /// Shape A.
    pub a: Shape,
    /// A's pose.
    pub pose_a: Pose,
    /// Shape B.
    pub b: Shape,
    /// B's pose.
    pub pose_b: Pose,
}

/// The pair kinds of the benches and differential tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairKind {
    /// Sphere vs sphere.
    BallBall,
    /// Box vs box.
    CuboidCuboid,
    /// Capsule vs capsule.
    CapsuleCapsule,
    /// Cylinder vs cylinder.
    CylinderCylinder,
    /// Cone vs cone.
    ConeCone,
    /// 32-point hull vs 32-point hull.
    HullHull,
    /// Box vs 32-point hull.
    CuboidHull,
    /// Rounded box vs rounded hull.
    RoundedRounded,
    /// Each side drawn from every kind.
    Mixed,
}

impl PairKind {
    /// The five kinds of "standard pairs" of the benches (`BENCHMARKS.md`, section 1).
    pub const STANDARD: [PairKind; 5] = [
        PairKind::BallBall,
        PairKind::CuboidCuboid,
        PairKind::CapsuleCapsule,
        PairKind::HullHull,
        PairKind::CuboidHull,
    ];

    /// Every kind.
    pub const ALL: [PairKind; 9] = [
        PairKind::BallBall,
        PairKind::CuboidCuboid,
        PairKind::CapsuleCapsule,
        PairKind::CylinderCylinder,
        PairKind::ConeCone,
        PairKind::HullHull,
        PairKind::CuboidHull,
        PairKind::RoundedRounded,
        PairKind::Mixed,
    ];

    /// A short name for bench ids and messages.
    pub fn name(self) -> &'static str {
        match self {
            PairKind::BallBall => "ball-ball",
            PairKind::CuboidCuboid => "cuboid-cuboid",
            PairKind::CapsuleCapsule => "capsule-capsule",
            PairKind::CylinderCylinder => "cylinder-cylinder",
            PairKind::ConeCone => "cone-cone",
            PairKind::HullHull => "hull-hull",
            PairKind::CuboidHull => "cuboid-hull",
            PairKind::RoundedRounded => "rounded-rounded",
            PairKind::Mixed => "mixed",
        }
    }

    fn kinds(self) -> (ShapeKind, ShapeKind) {
        use ShapeKind::*;
        match self {
            PairKind::BallBall => (Sphere, Sphere),
            PairKind::CuboidCuboid => (Cuboid, Cuboid),
            PairKind::CapsuleCapsule => (Capsule, Capsule),
            PairKind::CylinderCylinder => (Cylinder, Cylinder),
            PairKind::ConeCone => (Cone, Cone),
            PairKind::HullHull => (ConvexHull, ConvexHull),
            PairKind::CuboidHull => (Cuboid, ConvexHull),
            PairKind::RoundedRounded | PairKind::Mixed => (Rounded, Rounded),
        }
    }
}

/// A uniformly random rotation (Shoemake's method).
pub fn random_rotation(rng: &mut impl Rng) -> Quat {
    let (u1, u2, u3): (f32, f32, f32) = (rng.random(), rng.random(), rng.random());
    let tau = std::f32::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    Quat::from_xyzw(
        a * (tau * u2).sin(),
        a * (tau * u2).cos(),
        b * (tau * u3).sin(),
        b * (tau * u3).cos(),
    )
    .normalize()
}

/// A point uniformly on the unit sphere.
pub fn random_unit(rng: &mut impl Rng) -> Vec3 {
    loop {
        let v = Vec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let l = v.length_squared();
        if l > 1e-4 && l <= 1.0 {
            return v / l.sqrt();
        }
    }
}

/// The convex hull of `count` random points on a sphere of radius 1..2.
pub fn random_hull(rng: &mut impl Rng, count: usize) -> ConvexHull {
    let radius = rng.random_range(1.0..2.0);
    let points: Vec<Vec3> = (0..count).map(|_| random_unit(rng) * radius).collect();
    ConvexHull::from_points(&points).expect("random sphere points span a volume")
}

/// Every shape kind, in the order `ShapeKind` declares them: the kinds a mixed scene
/// draws from.
pub const SHAPE_KINDS: [ShapeKind; 7] = [
    ShapeKind::Sphere,
    ShapeKind::Cuboid,
    ShapeKind::Capsule,
    ShapeKind::Cylinder,
    ShapeKind::Cone,
    ShapeKind::ConvexHull,
    ShapeKind::Rounded,
];

/// A random shape of `kind` with the standard size ranges; `hulls` supplies the
/// (reused) hulls.
pub fn random_shape(rng: &mut impl Rng, kind: ShapeKind, hulls: &[Arc<ConvexHull>]) -> Shape {
    match kind {
        ShapeKind::Sphere => Sphere::new(rng.random_range(0.5..1.5)).unwrap().into(),
        ShapeKind::Cuboid => Cuboid::new(Vec3::new(
            rng.random_range(0.5..2.0),
            rng.random_range(0.5..2.0),
            rng.random_range(0.5..2.0),
        ))
        .unwrap()
        .into(),
        ShapeKind::Capsule => Capsule::new(rng.random_range(0.5..1.5), rng.random_range(0.3..0.8))
            .unwrap()
            .into(),
        ShapeKind::Cylinder => {
            Cylinder::new(rng.random_range(0.3..1.5), rng.random_range(0.3..1.5))
                .unwrap()
                .into()
        }
        ShapeKind::Cone => Cone::new(rng.random_range(0.3..1.5), rng.random_range(0.3..1.5))
            .unwrap()
            .into(),
        ShapeKind::ConvexHull => Shape::ConvexHull(hulls[rng.random_range(0..hulls.len())].clone()),
        ShapeKind::Rounded => {
            let inner_kind = [
                ShapeKind::Cuboid,
                ShapeKind::ConvexHull,
                ShapeKind::Cylinder,
            ][rng.random_range(0..3)];
            let inner = random_shape(rng, inner_kind, hulls);
            Rounded::new(inner, rng.random_range(0.05..0.4))
                .unwrap()
                .into()
        }
    }
}

fn random_kind(rng: &mut impl Rng) -> ShapeKind {
    use ShapeKind::*;
    [Sphere, Cuboid, Capsule, Cylinder, Cone, ConvexHull, Rounded][rng.random_range(0..7)]
}

/// Eight hulls of 32 points, as in the standard pairs.
pub fn standard_hulls(rng: &mut impl Rng) -> Vec<Arc<ConvexHull>> {
    (0..8).map(|_| Arc::new(random_hull(rng, 32))).collect()
}

struct Draft {
    a: Shape,
    rot_a: Quat,
    unit_a: Vec3,
    b: Shape,
    rot_b: Quat,
    unit_b: Vec3,
}

impl Draft {
    fn place(&self, side: f32) -> Pair {
        Pair {
            a: self.a.clone(),
            pose_a: Pose::new(self.rot_a, self.unit_a * side).unwrap(),
            b: self.b.clone(),
            pose_b: Pose::new(self.rot_b, self.unit_b * side).unwrap(),
        }
    }
}

fn drafts(kind: PairKind, n: usize, rng: &mut ChaCha8Rng) -> Vec<Draft> {
    let hulls = standard_hulls(rng);
    let centre = |rng: &mut ChaCha8Rng| {
        Vec3::new(rng.random(), rng.random(), rng.random()) - Vec3::splat(0.5)
    };
    (0..n)
        .map(|_| {
            let (ka, kb) = if kind == PairKind::Mixed {
                (random_kind(rng), random_kind(rng))
            } else {
                kind.kinds()
            };
            Draft {
                a: random_shape(rng, ka, &hulls),
                rot_a: random_rotation(rng),
                unit_a: centre(rng),
                b: random_shape(rng, kb, &hulls),
                rot_b: random_rotation(rng),
                unit_b: centre(rng),
            }
        })
        .collect()
}

/// The benches' standard pairs (`BENCHMARKS.md`, section 1): `n` seeded pairs of `kind`, both shapes
/// uniformly rotated, centres uniform in a cube whose side makes half the pairs
/// overlap (found by bisection on the side with gjk-core's boolean test; overlap is
/// monotone in the side because each pair's `A - B` is convex and holds the origin).
pub fn standard_pairs(kind: PairKind, n: usize, seed: u64) -> Vec<Pair> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let drafts = drafts(kind, n, &mut rng);
    let overlap_fraction = |side: f32| {
        let hits = drafts
            .iter()
            .filter(|d| {
                let p = d.place(side);
                intersects(&p.a, &p.pose_a, &p.b, &p.pose_b)
            })
            .count();
        hits as f64 / drafts.len().max(1) as f64
    };
    let (mut lo, mut hi) = (0.0f32, 64.0f32);
    for _ in 0..24 {
        let mid = 0.5 * (lo + hi);
        if overlap_fraction(mid) > 0.5 {
            lo = mid
        } else {
            hi = mid
        }
    }
    drafts.iter().map(|d| d.place(0.5 * (lo + hi))).collect()
}

/// `n` seeded pairs of `kind` for differential tests: centres in a cube of side
/// `side` (about half the standard side gives mostly overlaps, twice it mostly
/// separations), optionally all shifted by `offset` to test large coordinates.
pub fn random_pairs(kind: PairKind, n: usize, seed: u64, side: f32, offset: Vec3) -> Vec<Pair> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    drafts(kind, n, &mut rng)
        .iter()
        .map(|d| {
            let mut p = d.place(side);
            p.pose_a = Pose::new(p.pose_a.rotation(), p.pose_a.translation() + offset).unwrap();
            p.pose_b = Pose::new(p.pose_b.rotation(), p.pose_b.translation() + offset).unwrap();
            p
        })
        .collect()
}

/// A one-line description of a shape (hulls by vertex count and bounding radius:
/// the seed and index reproduce them exactly).
pub fn describe_shape(s: &Shape) -> String {
    use gjk_core::SupportMap;
    match s {
        Shape::Sphere(x) => format!("Sphere(r {})", x.radius()),
        Shape::Cuboid(x) => format!("Cuboid(he {})", x.half_extents()),
        Shape::Capsule(x) => format!("Capsule(hh {}, r {})", x.half_height(), x.radius()),
        Shape::Cylinder(x) => format!("Cylinder(hh {}, r {})", x.half_height(), x.radius()),
        Shape::Cone(x) => format!("Cone(hh {}, r {})", x.half_height(), x.radius()),
        Shape::ConvexHull(h) => format!(
            "Hull({} vertices, radius {})",
            h.vertices().len(),
            h.bounding_radius()
        ),
        Shape::Rounded(r) => format!("Rounded({}, {})", describe_shape(r.inner()), r.radius()),
    }
}

impl std::fmt::Display for Pair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "A {} at {:?}; B {} at {:?}",
            describe_shape(&self.a),
            self.pose_a,
            describe_shape(&self.b),
            self.pose_b
        )
    }
}

/// A ball whose centre lies inside a cylinder, both at random poses, and the
/// closed-form depth of their contact: the ball's radius plus the centre's
/// distance to the nearer of the cylinder's side and caps.
#[derive(Debug, Clone)]
pub struct BallInCylinder {
    /// The ball (A) and the cylinder (B), posed.
    pub pair: Pair,
    /// The depth of the contact.
    pub depth: f64,
}

/// A [`BallInCylinder`] whose centre lies as near the cylinder's side as a cap:
/// the two distances equal within a ten-thousandth, either cap, anywhere around
/// the axis, the cylinder's half-height and radius 0.3..1.5 and the pair within
/// 2 of the origin.
pub fn ball_in_cylinder_near_a_rim(rng: &mut impl Rng) -> BallInCylinder {
    let (h, r) = (rng.random_range(0.3f32..1.5), rng.random_range(0.3f32..1.5));
    let ball_radius = rng.random_range(0.1f32..2.0);
    let side = r.min(h) * rng.random_range(0.3f32..1.0);
    let rho = r - side;
    let y = (h - side * (1.0 + rng.random_range(-1e-4f32..1e-4))).max(0.0);
    let y = if rng.random() { y } else { -y };
    let angle = rng.random_range(0.0f32..std::f32::consts::TAU);
    let local = Vec3::new(rho * angle.cos(), y, rho * angle.sin());
    let at = Vec3::new(
        rng.random_range(-2.0..2.0),
        rng.random_range(-2.0..2.0),
        rng.random_range(-2.0..2.0),
    );
    let pose_b = Pose::new(random_rotation(rng), at).expect("a finite pose");
    let pose_a =
        Pose::new(random_rotation(rng), pose_b.transform_point(local)).expect("a finite pose");
    let pair = Pair {
        a: Sphere::new(ball_radius).expect("a valid ball").into(),
        pose_a,
        b: Cylinder::new(h, r).expect("a valid cylinder").into(),
        pose_b,
    };
    let depth = f64::from(ball_radius) + f64::from((r - rho).min(h - y.abs()));
    BallInCylinder { pair, depth }
}
