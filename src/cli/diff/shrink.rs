//! Shrinking a disagreement to a simpler case that still disagrees: rounded shapes
//! without their rounding, hulls with fewer vertices, rotations dropped, the pair
//! moved to the origin, numbers with fewer digits. Greedy: the first simpler
//! candidate that still fails is taken and the search starts again from it, until
//! no candidate fails or the budget of evaluations is spent.

use gjk_core::glam::Vec3;
use gjk_core::{ConvexHull, Pose, Shape};
use serde_json::Value;

use super::case::Case;

/// The most candidates one shrink evaluates: each costs one run of two paths on one
/// case, so this bounds a shrink to well under a second.
pub const SHRINK_BUDGET: usize = 2_000;

/// The simplest case found from `case` for which `fails` holds, and how many
/// simplifications it took.
pub fn shrink(case: &Case, fails: impl Fn(&Case) -> bool) -> (Case, usize) {
    let mut current = case.geometry();
    let mut steps = 0;
    let mut spent = 0;
    'search: while spent < SHRINK_BUDGET {
        for candidate in candidates(&current) {
            if spent >= SHRINK_BUDGET {
                break 'search;
            }
            spent += 1;
            let candidate = candidate.canonical();
            if fails(&candidate) {
                current = candidate;
                steps += 1;
                continue 'search;
            }
        }
        break;
    }
    (current, steps)
}

/// Simpler variants of `case`, simplest changes first.
fn candidates(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let with = |a: Shape, pose_a: Pose, b: Shape, pose_b: Pose| Case {
        a,
        pose_a,
        b,
        pose_b,
        ..case.geometry()
    };
    let (a, b, pa, pb) = (&case.a, &case.b, case.pose_a, case.pose_b);
    if let Shape::Rounded(r) = a {
        out.push(with(r.inner().clone(), pa, b.clone(), pb));
    }
    if let Shape::Rounded(r) = b {
        out.push(with(a.clone(), pa, r.inner().clone(), pb));
    }
    if pa.translation() != Vec3::ZERO {
        // The same relative placement with A at the origin, unrotated.
        let relative = pa.relative(&pb);
        out.push(with(a.clone(), Pose::IDENTITY, b.clone(), relative));
        if let Ok(at) = Pose::new(pa.rotation(), Vec3::ZERO) {
            let moved = Pose::new(pb.rotation(), pb.translation() - pa.translation());
            if let Ok(moved) = moved {
                out.push(with(a.clone(), at, b.clone(), moved));
            }
        }
    }
    if let Ok(unturned) = Pose::new(gjk_core::glam::Quat::IDENTITY, pb.translation())
        && unturned != pb
    {
        out.push(with(a.clone(), pa, b.clone(), unturned));
    }
    if let Ok(unturned) = Pose::new(gjk_core::glam::Quat::IDENTITY, pa.translation())
        && unturned != pa
    {
        out.push(with(a.clone(), unturned, b.clone(), pb));
    }
    for (side, shape) in [(0, a), (1, b)] {
        if let Shape::ConvexHull(h) = shape {
            for fewer in fewer_vertices(h) {
                let fewer: Shape = fewer.into();
                out.push(match side {
                    0 => with(fewer, pa, b.clone(), pb),
                    _ => with(a.clone(), pa, fewer, pb),
                });
            }
        }
    }
    for digits in 1..=4 {
        if let Some(rounded) = rounded_numbers(case, digits) {
            out.push(rounded);
        }
    }
    out
}

/// The hulls of `h`'s vertices less one, for each vertex (refused hulls left out).
fn fewer_vertices(h: &ConvexHull) -> Vec<ConvexHull> {
    let v = h.vertices();
    if v.len() <= 4 {
        return Vec::new();
    }
    (0..v.len())
        .filter_map(|skip| {
            let points: Vec<Vec3> = v
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, &p)| p)
                .collect();
            ConvexHull::from_points(&points).ok()
        })
        .collect()
}

/// `case` with every number rounded to `digits` significant digits, if that changes
/// it and still makes valid shapes and poses.
fn rounded_numbers(case: &Case, digits: i32) -> Option<Case> {
    let mut value = serde_json::to_value(case.geometry()).ok()?;
    round_value(&mut value, digits);
    let rounded: Case = serde_json::from_value(value).ok()?;
    let changed =
        serde_json::to_string(&rounded).ok() != serde_json::to_string(&case.geometry()).ok();
    changed.then_some(rounded)
}

fn round_value(value: &mut Value, digits: i32) {
    match value {
        Value::Number(n) => {
            if let Some(x) = n.as_f64().filter(|x| *x != 0.0 && x.is_finite()) {
                let magnitude = x.abs().log10().floor() as i32;
                let unit = 10f64.powi(magnitude + 1 - digits);
                let r = (x / unit).round() * unit;
                if let Some(r) = serde_json::Number::from_f64(r) {
                    *n = r;
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| round_value(v, digits)),
        Value::Object(map) => map.values_mut().for_each(|v| round_value(v, digits)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gjk_core::{Cuboid, Rounded, Sphere};

    #[test]
    fn shrinking_keeps_the_failure_and_simplifies() {
        let inner: Shape = Cuboid::new(Vec3::new(1.2345678, 0.5, 0.75)).unwrap().into();
        let case = Case {
            name: None,
            a: Rounded::new(inner, 0.123).unwrap().into(),
            pose_a: Pose::new(
                gjk_core::glam::Quat::from_rotation_y(0.3),
                Vec3::new(10.123, 5.0, -3.0),
            )
            .unwrap(),
            b: Sphere::new(0.4321).unwrap().into(),
            pose_b: Pose::from_translation(Vec3::new(11.5, 5.0, -3.0)).unwrap(),
            expected: None,
            origin: None,
            finding: None,
        };
        // "Fails" while A is a box of any kind: everything else may go.
        let fails = |c: &Case| {
            matches!(&c.a, Shape::Cuboid(_))
                || matches!(&c.a, Shape::Rounded(r) if matches!(r.inner(), Shape::Cuboid(_)))
        };
        let (small, steps) = shrink(&case, fails);
        assert!(steps > 0);
        assert!(matches!(small.a, Shape::Cuboid(_)), "{small:?}");
        assert_eq!(small.pose_a, Pose::IDENTITY);
        let text = serde_json::to_string(&small).unwrap();
        assert!(!text.contains("1.2345678"), "{text}");
    }
}
