//! Seeded case generators by kind pair, regime and scale.
//!
//! Case `i` of a campaign depends on the seed and `i` alone (its own ChaCha stream),
//! so a campaign splits into shards without coordination and any case can be made
//! again from its seed and index. Index `i` takes combination `i mod C` of
//! (kind pair, regime, scale), so every combination is visited evenly.

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, ShapeError, ShapeKind,
    Sphere, SupportMap,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use workloads::workload::{SHAPE_KINDS, random_rotation, random_unit};

use super::case::{Case, Origin};

/// Where B is put relative to A, and how the shapes are drawn.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum Regime {
    /// Centres up to one and a half times the sum of the bounding radii apart:
    /// overlapping and separated pairs alike.
    Random,
    /// B moved along gjk-core's normal until the shapes just touch.
    Touching,
    /// Centres within a quarter of the smaller bounding radius: deep overlap.
    Deep,
    /// The same pose (and, for one kind, the same shape).
    Coincident,
    /// Plates, needles, discs and flat hulls, a thousandth to a hundredth as thick
    /// as they are wide.
    Thin,
    /// A random pair moved a thousand to a hundred thousand sizes from the origin.
    Far,
    /// Sizes at the edge of what the constructors accept: zero-height capsules,
    /// millionth-thin boxes and cylinders, nearly flat hulls, specks.
    Degenerate,
    /// Shapes a hundred to ten thousand times as long as they are wide, side by
    /// side and parallel within two degrees or crossing at any angle, a thousandth
    /// of a width to ten widths apart: the f32 GJK's hardest regime, where it
    /// stalls with the gap open.
    Long,
    /// Shapes of no volume, with sizes exactly zero: points (balls of radius 0),
    /// segments (capsules, cylinders and cones of radius 0), discs (cylinders and
    /// cones of height 0), boxes flat along one to three axes, and flat,
    /// straight and one-point hulls, bare or rounded; apart, overlapping and
    /// concentric.
    Zero,
}

impl Regime {
    /// Every regime.
    pub const ALL: [Regime; 9] = [
        Regime::Random,
        Regime::Touching,
        Regime::Deep,
        Regime::Coincident,
        Regime::Thin,
        Regime::Far,
        Regime::Degenerate,
        Regime::Long,
        Regime::Zero,
    ];

    /// The regime's name.
    pub fn name(self) -> &'static str {
        match self {
            Regime::Random => "random",
            Regime::Touching => "touching",
            Regime::Deep => "deep",
            Regime::Coincident => "coincident",
            Regime::Thin => "thin",
            Regime::Far => "far",
            Regime::Degenerate => "degenerate",
            Regime::Long => "long",
            Regime::Zero => "zero",
        }
    }
}

/// How a shape's sizes are drawn.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Normal,
    Thin,
    Degenerate,
    /// Long along local z (spheres stay round).
    Long,
    /// No volume: some sizes exactly zero.
    Zero,
}

/// A campaign's case stream.
#[derive(Debug, Clone)]
pub struct Generator {
    seed: u64,
    combos: Vec<(ShapeKind, ShapeKind, Regime, f32)>,
}

impl Generator {
    /// The stream of `seed` over every unordered pair of `kinds`, every regime and
    /// every scale.
    pub fn new(seed: u64, kinds: &[ShapeKind], regimes: &[Regime], scales: &[f32]) -> Self {
        let mut combos = Vec::new();
        for (i, &ka) in kinds.iter().enumerate() {
            for &kb in &kinds[i..] {
                for &regime in regimes {
                    for &scale in scales {
                        combos.push((ka, kb, regime, scale));
                    }
                }
            }
        }
        Generator { seed, combos }
    }

    /// Case `index`, or the constructors' refusal of what was drawn.
    pub fn case(&self, index: u64) -> Result<Case, ShapeError> {
        let (ka, kb, regime, scale) = self.combos[(index % self.combos.len() as u64) as usize];
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(index);
        let style = match regime {
            Regime::Thin => Style::Thin,
            Regime::Degenerate => Style::Degenerate,
            Regime::Long => Style::Long,
            Regime::Zero => Style::Zero,
            _ => Style::Normal,
        };
        let a = shape(&mut rng, ka, style)?;
        let b = if regime == Regime::Coincident && ka == kb {
            a.clone()
        } else {
            shape(&mut rng, kb, style)?
        };
        let (pose_a, pose_b) = place(&mut rng, &a, &b, regime);
        let mut case = Case {
            name: None,
            a: scaled(&a, scale)?,
            pose_a: scaled_pose(&pose_a, scale),
            b: scaled(&b, scale)?,
            pose_b: scaled_pose(&pose_b, scale),
            expected: None,
            origin: Some(Origin {
                seed: self.seed,
                index,
                regime: regime.name().to_string(),
                scale,
            }),
            finding: None,
        };
        if regime == Regime::Far {
            let offset = random_unit(&mut rng) * 10f32.powf(rng.random_range(3.0..5.0)) * scale;
            case.pose_a = shifted(&case.pose_a, offset);
            case.pose_b = shifted(&case.pose_b, offset);
        }
        Ok(case)
    }
}

fn shifted(pose: &Pose, by: Vec3) -> Pose {
    Pose::new(pose.rotation(), pose.translation() + by).unwrap_or(*pose)
}

fn scaled_pose(pose: &Pose, k: f32) -> Pose {
    Pose::new(pose.rotation(), pose.translation() * k).unwrap_or(*pose)
}

/// `shape` with every size times `k`.
pub fn scaled(shape: &Shape, k: f32) -> Result<Shape, ShapeError> {
    Ok(match shape {
        Shape::Sphere(s) => Sphere::new(s.radius() * k)?.into(),
        Shape::Cuboid(c) => Cuboid::new(c.half_extents() * k)?.into(),
        Shape::Capsule(c) => Capsule::new(c.half_height() * k, c.radius() * k)?.into(),
        Shape::Cylinder(c) => Cylinder::new(c.half_height() * k, c.radius() * k)?.into(),
        Shape::Cone(c) => Cone::new(c.half_height() * k, c.radius() * k)?.into(),
        Shape::ConvexHull(h) => {
            let points: Vec<Vec3> = h.vertices().iter().map(|&v| v * k).collect();
            ConvexHull::from_points(&points)?.into()
        }
        Shape::Rounded(r) => Rounded::new(scaled(r.inner(), k)?, r.radius() * k)?.into(),
    })
}

/// The kinds a rounded shape is drawn around: every kind but rounded itself,
/// which `SHAPE_KINDS` lists last.
const ROUNDED_INNER: &[ShapeKind] = SHAPE_KINDS.split_last().expect("kinds").1;

/// A size between `lo` and `hi`, log-uniform.
fn log_uniform(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> f32 {
    (rng.random_range(lo.ln()..hi.ln())).exp()
}

fn hull(rng: &mut ChaCha8Rng, stretch: Vec3) -> Result<Shape, ShapeError> {
    let n = rng.random_range(4..=32);
    let radius = rng.random_range(1.0..2.0);
    let points: Vec<Vec3> = (0..n)
        .map(|_| random_unit(rng) * radius * stretch)
        .collect();
    Ok(ConvexHull::from_points(&points)?.into())
}

fn shape(rng: &mut ChaCha8Rng, kind: ShapeKind, style: Style) -> Result<Shape, ShapeError> {
    let thin = log_uniform(rng, 1e-3, 1e-2);
    let speck = log_uniform(rng, 1e-6, 1e-5);
    let size = rng.random_range(0.5..2.0);
    let other = rng.random_range(0.3..1.5);
    let needle = rng.random_bool(0.5);
    let length = size * log_uniform(rng, 100.0, 10_000.0);
    Ok(match (kind, style) {
        (_, Style::Zero) => zero_shape(rng, kind, size, other)?,
        (ShapeKind::Sphere, Style::Normal | Style::Long) => Sphere::new(size)?.into(),
        (ShapeKind::Sphere, Style::Thin) => Sphere::new(thin)?.into(),
        (ShapeKind::Sphere, Style::Degenerate) => Sphere::new(speck)?.into(),
        (ShapeKind::Cuboid, Style::Normal) => {
            Cuboid::new(Vec3::new(size, other, rng.random_range(0.5..2.0)))?.into()
        }
        (ShapeKind::Cuboid, Style::Thin | Style::Degenerate) => {
            let t = if style == Style::Thin { thin } else { speck };
            let h = if needle {
                Vec3::new(t, t, size)
            } else {
                Vec3::new(size, t, other)
            };
            Cuboid::new(h)?.into()
        }
        (ShapeKind::Cuboid, Style::Long) => Cuboid::new(Vec3::new(size, other, length))?.into(),
        (ShapeKind::Capsule, Style::Long) => Capsule::new(length, size)?.into(),
        (ShapeKind::Cylinder, Style::Long) => Cylinder::new(length, size)?.into(),
        (ShapeKind::Cone, Style::Long) => Cone::new(length, size)?.into(),
        (ShapeKind::ConvexHull, Style::Long) => hull(rng, Vec3::new(1.0, 1.0, length / size))?,
        (ShapeKind::Capsule, Style::Normal) => Capsule::new(size, other * 0.5)?.into(),
        (ShapeKind::Capsule, Style::Thin) => Capsule::new(size, thin)?.into(),
        (ShapeKind::Capsule, Style::Degenerate) => Capsule::new(0.0, other)?.into(),
        (ShapeKind::Cylinder, Style::Normal) => Cylinder::new(size, other)?.into(),
        (ShapeKind::Cone, Style::Normal) => Cone::new(size, other)?.into(),
        (ShapeKind::Cylinder | ShapeKind::Cone, _) => {
            let t = if style == Style::Thin { thin } else { speck };
            let (hh, r) = if needle { (size, t) } else { (t, size) };
            if kind == ShapeKind::Cylinder {
                Cylinder::new(hh, r)?.into()
            } else {
                Cone::new(hh, r)?.into()
            }
        }
        (ShapeKind::ConvexHull, Style::Normal) => hull(rng, Vec3::ONE)?,
        (ShapeKind::ConvexHull, Style::Thin) => hull(rng, Vec3::new(1.0, thin, 1.0))?,
        (ShapeKind::ConvexHull, Style::Degenerate) => {
            // Nearly flat: quickhull's relative tolerance decides whether such a
            // slab still has volume; a refusal is counted, not hidden.
            hull(rng, Vec3::new(1.0, 1e-5, 1.0))?
        }
        (ShapeKind::Rounded, _) => {
            let inner_kind = ROUNDED_INNER[rng.random_range(0..ROUNDED_INNER.len())];
            let inner = shape(rng, inner_kind, style)?;
            let radius = match style {
                Style::Normal | Style::Long => rng.random_range(0.05..0.4),
                Style::Thin => thin,
                Style::Degenerate | Style::Zero => speck,
            };
            Rounded::new(inner, radius)?.into()
        }
    })
}

/// A shape of `kind` with no volume (see [`Regime::Zero`]), `size` and `other`
/// its nonzero sizes.
fn zero_shape(
    rng: &mut ChaCha8Rng,
    kind: ShapeKind,
    size: f32,
    other: f32,
) -> Result<Shape, ShapeError> {
    let flat = rng.random_range(0..3);
    Ok(match kind {
        ShapeKind::Sphere => Sphere::new(0.0)?.into(),
        ShapeKind::Cuboid => {
            // Zero along one axis (a rectangle), two (a segment) or all three (a
            // point), the zero axes drawn at random.
            let mut h = Vec3::new(size, other, rng.random_range(0.5..2.0));
            let axis = rng.random_range(0..3);
            for k in 0..=flat {
                h[(axis + k) % 3] = 0.0;
            }
            Cuboid::new(h)?.into()
        }
        ShapeKind::Capsule => match flat {
            0 => Capsule::new(size, 0.0)?.into(),
            1 => Capsule::new(0.0, 0.0)?.into(),
            _ => Capsule::new(0.0, other)?.into(),
        },
        ShapeKind::Cylinder | ShapeKind::Cone => {
            let (hh, r) = if flat == 0 { (size, 0.0) } else { (0.0, other) };
            if kind == ShapeKind::Cylinder {
                Cylinder::new(hh, r)?.into()
            } else {
                Cone::new(hh, r)?.into()
            }
        }
        ShapeKind::ConvexHull => {
            // A polygon in a random plane, a segment, or one point (listed
            // several times).
            let n = rng.random_range(3..=16);
            let (u, v) = (random_unit(rng), random_unit(rng));
            let points: Vec<Vec3> = (0..n)
                .map(|_| match flat {
                    0 => u * rng.random_range(-size..size) + v * rng.random_range(-size..size),
                    1 => u * rng.random_range(-size..size),
                    _ => u * size,
                })
                .collect();
            ConvexHull::from_points(&points)?.into()
        }
        ShapeKind::Rounded => {
            let inner_kind = ROUNDED_INNER[rng.random_range(0..ROUNDED_INNER.len())];
            let inner = zero_shape(rng, inner_kind, size, other)?;
            Rounded::new(inner, rng.random_range(0.05..0.4))?.into()
        }
    })
}

/// A pose with a uniformly random rotation at `t`.
fn turned(rng: &mut ChaCha8Rng, t: Vec3) -> Pose {
    Pose::new(random_rotation(rng), t).unwrap_or(Pose::IDENTITY)
}

fn place(rng: &mut ChaCha8Rng, a: &Shape, b: &Shape, regime: Regime) -> (Pose, Pose) {
    let (ra, rb) = (a.bounding_radius(), b.bounding_radius());
    let offset = random_unit(rng) * rng.random_range(0.0..1.0) * ra;
    let pose_a = turned(rng, offset);
    let centre_a = pose_a.translation();
    let dir = random_unit(rng);
    let pose_b = match regime {
        Regime::Random | Regime::Thin | Regime::Far | Regime::Degenerate => {
            let t = centre_a + dir * rng.random_range(0.0..1.5) * (ra + rb);
            turned(rng, t)
        }
        Regime::Deep => {
            let t = centre_a + dir * rng.random_range(0.0..0.25) * ra.min(rb);
            turned(rng, t)
        }
        // Shapes without volume touch or cross more than they overlap: half the
        // pairs placed at random, the other half concentric within a quarter of
        // the larger size (the smaller may be a point).
        Regime::Zero => {
            let reach = if rng.random_bool(0.5) {
                1.5 * (ra + rb)
            } else {
                0.25 * ra.max(rb)
            };
            let t = centre_a + dir * rng.random_range(0.0..1.0) * reach;
            turned(rng, t)
        }
        Regime::Coincident => {
            if rng.random_bool(0.5) {
                pose_a
            } else {
                turned(rng, centre_a)
            }
        }
        Regime::Touching => {
            let far = turned(rng, centre_a + dir * 2.0 * (ra + rb));
            let d = gjk_core::distance(a, &pose_a, b, &far);
            Pose::new(far.rotation(), far.translation() - d.distance * d.normal).unwrap_or(far)
        }
        Regime::Long => beside(rng, a, &pose_a, b),
    };
    (pose_a, pose_b)
}

/// B laid beside A: turned from A's pose by at most two degrees (or, half the
/// time, by any angle), its centre shifted along A's long axis (local z) by up to
/// a third of A's reach and put clear of A across it, then moved along gjk-core's
/// normal to a gap of a thousandth of a width to ten widths. Where gjk-core's own
/// answer is off, the gap is too; the case stays valid.
fn beside(rng: &mut ChaCha8Rng, a: &Shape, pose_a: &Pose, b: &Shape) -> Pose {
    let half_width = |s: &Shape| s.support(Vec3::X).x.max(s.support(Vec3::Y).y);
    let most = if rng.random_bool(0.5) {
        2f32.to_radians()
    } else {
        std::f32::consts::FRAC_PI_2
    };
    let angle = rng.random_range(0.0..most);
    let turn = Quat::from_axis_angle(random_unit(rng), angle);
    let rotation = (pose_a.rotation() * turn).normalize();
    let across = {
        let u = random_unit(rng);
        Vec3::new(u.x, u.y, 0.0).normalize_or(Vec3::X)
    };
    // B's ends swing out by its reach times the sine of the turn.
    let clear = 2.0 * (half_width(a) + half_width(b) + b.bounding_radius() * angle.sin());
    let along = rng.random_range(-0.3..0.3) * a.bounding_radius();
    let start = pose_a.transform_point(across * clear + Vec3::Z * along);
    let Ok(far) = Pose::new(rotation, start) else {
        return *pose_a;
    };
    let d = gjk_core::distance(a, pose_a, b, &far);
    let gap = half_width(a).min(half_width(b)) * log_uniform(rng, 1e-3, 10.0);
    Pose::new(rotation, start - (d.distance - gap) * d.normal).unwrap_or(far)
}

#[cfg(test)]
mod tests {
    use super::*;
    use workloads::workload::SHAPE_KINDS;

    #[test]
    fn a_case_depends_on_its_seed_and_index_only() {
        let g = Generator::new(5, &SHAPE_KINDS, &Regime::ALL, &[1.0, 1e-3]);
        let h = Generator::new(5, &SHAPE_KINDS, &Regime::ALL, &[1.0, 1e-3]);
        for i in [0, 1, 77, 1_000_003] {
            let (a, b) = (g.case(i), h.case(i));
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "case {i}");
        }
        assert_ne!(
            format!("{:?}", g.case(3)),
            format!(
                "{:?}",
                Generator::new(6, &SHAPE_KINDS, &Regime::ALL, &[1.0]).case(3)
            )
        );
    }

    /// A case is tested in the form a file gives back, so a written case replays
    /// bit for bit: written and read again, it writes the same text and gets the
    /// same answers.
    #[test]
    fn canonical_cases_replay_bit_for_bit() {
        let g = Generator::new(21, &SHAPE_KINDS, &Regime::ALL, &[1e-3, 1.0, 1e3]);
        for i in 0..600 {
            let Ok(case) = g.case(i) else { continue };
            let case = case.canonical();
            let text = serde_json::to_string(&case).unwrap();
            let back: Case = serde_json::from_str(&text).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), text, "case {i}");
            let d = |c: &Case| gjk_core::distance(&c.a, &c.pose_a, &c.b, &c.pose_b);
            let hit = |c: &Case| gjk_core::intersection(&c.a, &c.pose_a, &c.b, &c.pose_b);
            assert_eq!(
                format!("{:?}", d(&case)),
                format!("{:?}", d(&back)),
                "case {i}"
            );
            assert_eq!(
                format!("{:?}", hit(&case)),
                format!("{:?}", hit(&back)),
                "case {i}"
            );
        }
    }

    #[test]
    fn touching_cases_touch() {
        let g = Generator::new(9, &SHAPE_KINDS, &[Regime::Touching], &[1.0]);
        for i in 0..200 {
            let c = g.case(i).expect("normal sizes are valid");
            let d = gjk_core::distance(&c.a, &c.pose_a, &c.b, &c.pose_b);
            assert!(d.distance <= 1e-4 * c.scale(), "case {i}: {d:?}");
        }
    }
}
