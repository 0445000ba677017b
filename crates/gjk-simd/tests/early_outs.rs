//! The batch driver's early outs (bounding balls, separating axes for boxes) on the
//! configurations that strain them, against gjk-core's GJK: face-to-face stacks
//! of axis-aligned boxes (parallel edges everywhere), boxes turned by exact right
//! angles, edge-on-edge contacts, thin plates, shapes far from the origin, and
//! every pair at, just inside and just outside touching. An answer may differ from
//! GJK's only within the 1e-4 band around touching, and no decided pair may claim
//! the opposite of a clear GJK answer.

use gjk_core::glam::{EulerRot, Quat, Vec3};
use gjk_core::{Cuboid, Pose, Rounded, Shape, Sphere, contact, distance, intersection};
use gjk_simd::{BatchOptions, Parallelism, distance_batch_with, intersects_batch_with};
use workloads::oracle::distance_to_shape;

const BAND: f32 = 1e-4;

fn cuboid(x: f32, y: f32, z: f32) -> Shape {
    Cuboid::new(Vec3::new(x, y, z)).unwrap().into()
}

fn pose(q: Quat, t: Vec3) -> Pose {
    Pose::new(q, t).unwrap()
}

/// Pairs of (shape, pose, shape, pose) with a description.
fn cases() -> Vec<(String, Shape, Pose, Shape, Pose)> {
    let mut out = Vec::new();
    let turns = [
        ("identity", Quat::IDENTITY),
        (
            "quarter turn",
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        ),
        ("half turn", Quat::from_rotation_x(std::f32::consts::PI)),
        (
            "45 degrees",
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_4),
        ),
        ("general", Quat::from_euler(EulerRot::XYZ, 0.3, 0.7, 1.1)),
        (
            "nearly aligned",
            Quat::from_euler(EulerRot::XYZ, 1e-6, -2e-6, 3e-7),
        ),
    ];
    let boxes = [
        ("unit box", cuboid(1.0, 1.0, 1.0)),
        ("plate", cuboid(2.0, 1e-3, 2.0)),
        ("bar", cuboid(3.0, 0.1, 0.1)),
        (
            "rounded box",
            Shape::Rounded(Rounded::new(cuboid(0.5, 0.5, 0.5), 0.5).unwrap().into()),
        ),
    ];
    let ball: Shape = Sphere::new(0.75).unwrap().into();
    let offsets = [Vec3::ZERO, Vec3::splat(1e4), Vec3::new(-3e5, 2e5, 1e5)];
    for (na, a) in &boxes {
        for (nb, b) in boxes.iter().chain([&("ball", ball.clone())]) {
            for (nq, q) in turns {
                for dir in [
                    Vec3::X,
                    Vec3::Y,
                    Vec3::new(1.0, 1.0, 0.0).normalize(),
                    Vec3::ONE.normalize(),
                ] {
                    for origin in offsets {
                        // Touching distance along `dir` by bisection on gjk-core's
                        // distance, then pairs at, inside and outside it.
                        let pa = pose(Quat::IDENTITY, origin);
                        let at = |s: f32| pose(q, origin + dir * s);
                        let (mut lo, mut hi) = (0.0f32, 20.0f32);
                        for _ in 0..40 {
                            let mid = 0.5 * (lo + hi);
                            if distance(a, &pa, b, &at(mid)).distance > 0.0 {
                                hi = mid
                            } else {
                                lo = mid
                            }
                        }
                        for (label, s) in [
                            ("deep", 0.5 * lo),
                            ("inside", lo * (1.0 - 1e-3)),
                            ("touching", lo),
                            ("outside", hi * (1.0 + 1e-3)),
                            ("clear", hi * 1.5 + 0.1),
                        ] {
                            out.push((
                                format!(
                                    "{na} vs {nb}, {nq}, along {dir}, at {origin}: {label} ({s})"
                                ),
                                a.clone(),
                                pa,
                                b.clone(),
                                at(s),
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn early_outs_agree_with_gjk_on_hard_configurations() {
    let cases = cases();
    let (sa, pa, sb, pb): (Vec<_>, Vec<_>, Vec<_>, Vec<_>) = cases.iter().fold(
        (vec![], vec![], vec![], vec![]),
        |(mut sa, mut pa, mut sb, mut pb), (_, a, posa, b, posb)| {
            sa.push(a.clone());
            pa.push(*posa);
            sb.push(b.clone());
            pb.push(*posb);
            (sa, pa, sb, pb)
        },
    );
    let options = BatchOptions {
        parallelism: Parallelism::Sequential,
        ..BatchOptions::default()
    };
    let fast = intersects_batch_with(&sa, &pa, &sb, &pb, options).unwrap();
    let dist = distance_batch_with(&sa, &pa, &sb, &pb, options).unwrap();
    let (mut decided, mut in_band, mut dist_decided) = (0, 0, 0);
    for (i, (what, a, posa, b, posb)) in cases.iter().enumerate() {
        let core = intersection(a, posa, b, posb);
        decided += usize::from(fast[i].iterations == 0);
        if fast[i].intersecting != core.intersecting {
            let d = distance(a, posa, b, posb).distance;
            let depth = if d > 0.0 {
                d
            } else {
                contact(a, posa, b, posb, 0.0).map_or(0.0, |c| c.depth)
            };
            assert!(
                depth <= BAND,
                "case {i} ({what}): batch {:?}, gjk-core {core:?}, distance or depth {depth}",
                fast[i]
            );
            in_band += 1;
        }
        // The distance query takes the overlap verdict only: distance 0 and a
        // point inside both shapes, where gjk-core finds them overlapping.
        if dist[i].iterations == 0 {
            dist_decided += 1;
            let core = distance(a, posa, b, posb);
            let p = dist[i].point_a;
            let tol = 1e-5 * (1.0 + p.abs().max_element());
            // How far outside a shape, from its definition (f64, no GJK).
            let inside = |s: &Shape, pose: &Pose| distance_to_shape(s, pose, p) as f32;
            assert!(
                dist[i].distance == 0.0
                    && core.distance == 0.0
                    && dist[i].point_b == p
                    && inside(a, posa) <= tol
                    && inside(b, posb) <= tol,
                "case {i} ({what}): batch {:?}, gjk-core {core:?}",
                dist[i]
            );
        }
    }
    println!(
        "{} cases, {decided} decided by early outs ({dist_decided} for distance), \
         {in_band} disagreements within the band",
        cases.len()
    );
    // Most cases sit near touching, where only GJK can tell; the rest must
    // exercise the early outs.
    assert!(
        decided * 10 > cases.len(),
        "early outs decided only {decided} of {}",
        cases.len()
    );
}
