//! A parry3d scene through widephase: parry shapes and poses converted with
//! `widephase::parry`, stepped in a `World`, and each candidate pair's distance
//! (`World::distances`) compared with parry's own answer.
//!
//! Run: `cargo run --release --example parry_scene`.

use parry3d::math::{Pose as ParryPose, Vector};
use parry3d::query;
use parry3d::shape::SharedShape;
use widephase::World;
use widephase::parry::from_parry;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // What a parry or rapier user already has: shapes and poses.
    let scene: Vec<(SharedShape, ParryPose)> = vec![
        (SharedShape::cuboid(2.0, 0.25, 2.0), ParryPose::IDENTITY),
        (
            SharedShape::ball(0.5),
            ParryPose::translation(0.0, 0.7, 0.0),
        ),
        (
            SharedShape::capsule(Vector::new(-1.0, 0.0, 0.0), Vector::new(1.0, 0.0, 0.0), 0.3),
            ParryPose::translation(0.5, 0.6, 1.0),
        ),
        (
            SharedShape::round_cuboid(0.4, 0.4, 0.4, 0.1),
            ParryPose::translation(-1.2, 0.9, 0.0),
        ),
        (
            SharedShape::cone(0.5, 0.4),
            ParryPose::translation(1.5, 1.0, -1.0),
        ),
    ];

    // Into widephase: one call a shape.
    let mut world = World::default();
    let mut ids = Vec::new();
    for (shape, pose) in &scene {
        let (ours, our_pose) = from_parry(&**shape, pose)?;
        ids.push(world.add(ours, our_pose)?);
    }

    let report = world.step()?;
    println!(
        "{} candidate pairs, {} touching",
        report.candidates,
        report.touching().count()
    );
    // Exact distances of every candidate pair, eight at a time.
    for pair in world.distances()? {
        let (i, j) = (
            ids.iter()
                .position(|&id| id == pair.a)
                .expect("a body of the scene"),
            ids.iter()
                .position(|&id| id == pair.b)
                .expect("a body of the scene"),
        );
        let (sa, pa) = &scene[i];
        let (sb, pb) = &scene[j];
        let theirs = query::distance(pa, &**sa, pb, &**sb)?.distance;
        println!(
            "bodies {i} and {j}: widephase {:.6}, parry {theirs:.6}",
            pair.distance.distance
        );
        // parry's GJK on rounded and curved shapes stops within about 1e-3 of the
        // distance; widephase's answers are exact to f32 here (the widephase diff
        // command compares the two with certificates).
        assert!((pair.distance.distance - theirs).abs() < 1e-3 * (1.0 + theirs));
    }
    Ok(())
}
