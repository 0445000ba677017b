//! `widephase --tour`: the gjk-core queries on a few named pairs, with the answers
//! printed next to what geometry says they must be.

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, Sphere};
use gjk_core::{contact, distance, intersects};
use std::error::Error;
use std::io;

fn at(x: f32, y: f32, z: f32) -> Pose {
    Pose::from_translation(Vec3::new(x, y, z)).expect("finite translation")
}

fn report(
    name: &str,
    a: &Shape,
    pa: &Pose,
    b: &Shape,
    pb: &Pose,
    expected: &str,
) -> io::Result<()> {
    let hit = intersects(a, pa, b, pb);
    let d = distance(a, pa, b, pb);
    say!("{name}")?;
    say!("  expected: {expected}")?;
    say!("  intersects: {hit}")?;
    say!(
        "  distance: {:.6} (points {:.4} / {:.4}, normal {:.4}, {} iterations, {:?})",
        d.distance,
        d.point_a,
        d.point_b,
        d.normal,
        d.iterations,
        d.status
    )?;
    match contact(a, pa, b, pb, 0.1) {
        Some(c) => say!(
            "  contact (prediction 0.1): depth {:.6}, normal {:.4}, points {:.4} / {:.4}, {} iterations, {:?}",
            c.depth,
            c.normal,
            c.point_a,
            c.point_b,
            c.iterations,
            c.status
        ),
        None => say!("  contact (prediction 0.1): none"),
    }
}

/// Prints the tour.
pub fn tour() -> Result<(), Box<dyn Error>> {
    say!(
        "widephase {}: gjk-core query tour\n",
        env!("CARGO_PKG_VERSION")
    )?;
    let cube: Shape = Cuboid::new(Vec3::ONE)?.into();
    let ball: Shape = Sphere::new(0.5)?.into();
    let capsule: Shape = Capsule::new(1.0, 0.25)?.into();
    let cylinder: Shape = Cylinder::new(0.5, 1.0)?.into();
    let cone: Shape = Cone::new(1.0, 0.5)?.into();
    let octahedron: Shape =
        ConvexHull::from_points(&[Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z])?.into();
    let rounded: Shape = Rounded::new(Shape::from(Cuboid::new(Vec3::splat(0.5))?), 0.25)?.into();
    let tilted = Pose::new(
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
        Vec3::ZERO,
    )
    .expect("unit rotation");

    report(
        "cube vs ball 1.5 apart",
        &cube,
        &Pose::IDENTITY,
        &ball,
        &at(3.0, 0.0, 0.0),
        "distance 1.5, normal +X",
    )?;
    report(
        "cube vs ball, 0.25 deep",
        &cube,
        &Pose::IDENTITY,
        &ball,
        &at(1.25, 0.0, 0.0),
        "depth 0.25, normal +X",
    )?;
    report(
        "cube turned 45 degrees vs cube",
        &cube,
        &tilted,
        &cube,
        &at(3.0, 0.0, 0.0),
        "distance 3 - sqrt(2) - 1 = 0.585786",
    )?;
    report(
        "crossed capsules",
        &capsule,
        &Pose::IDENTITY,
        &capsule,
        &Pose::new(Quat::from_rotation_x(1.5707964), Vec3::new(0.3, 0.0, 0.0))
            .expect("unit rotation"),
        "depth 0.25 + 0.25 - 0.3 = 0.2",
    )?;
    report(
        "cylinder on a cone's apex",
        &cylinder,
        &at(0.0, 1.5, 0.0),
        &cone,
        &Pose::IDENTITY,
        "touching: distance 0, depth 0",
    )?;
    report(
        "octahedron vs rounded box",
        &octahedron,
        &Pose::IDENTITY,
        &rounded,
        &at(0.0, 0.0, 2.5),
        "distance 2.5 - 1 - 0.75 = 0.75",
    )?;
    report(
        "coincident cubes",
        &cube,
        &Pose::IDENTITY,
        &cube,
        &Pose::IDENTITY,
        "depth 2 along an axis",
    )?;
    Ok(())
}
