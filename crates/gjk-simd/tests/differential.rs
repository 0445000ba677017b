//! Differential test against gjk-core: 1,032,192 seeded pairs over all 36 kind
//! pairs (plus rounded variants), through the batch driver, twice: as users call
//! it (boolean pairs decided by bounding balls, or for boxes by separating axes,
//! skip GJK, the share reported as "bool by early outs"; sphere and capsule pairs
//! take the closed-form segment kernels in both queries), and with every pair
//! through the GJK kernels (rows marked "(GJK)").
//!
//! Agreement criteria (issue 3):
//! * boolean: identical outside a 1e-4 band around touching (a disagreement is
//!   accepted only when gjk-core's distance, or for overlapping pairs its EPA
//!   depth, is at most 1e-4);
//! * distance within 1e-5 absolute + 1e-5 relative;
//! * closest points within the same bounds — or, where they differ, both pairs of
//!   points are valid closest points (the closest points of a pair are not unique
//!   when the nearest features are parallel: face-face, edge-face, parallel
//!   segments; then any point of the overlap is correct). Such cases are counted
//!   and reported, the others fail.
//!
//! * overlapping results (distance 0): `point_a == point_b`, a point inside both
//!   shapes, whoever answered (GJK, a closed form, the bounding balls' verdict).
//!   A failure when it lies outside either shape by more than 1e-5 + 1e-5 of its
//!   magnitude (the worst is reported: 6.7e-5 on cone-cylinder, at coordinates
//!   near 5; before the enclosing tetrahedron's weights were normalized to sum to
//!   one, three curved pairs were up to 5.8e-4 outside).
//!
//! Where the two differ beyond the bounds, the SIMD result is *certified*
//! independently: its points must lie on the shapes, and its distance must be within
//! the bounds of a lower bound proven by supporting planes along either result's
//! normal. gjk-core itself fails that certificate on a few pairs in 1,000 with a
//! cylinder or cone (reported as `core-off`). A SIMD distance below that lower
//! bound always fails: a stall overestimates, only a wrong answer underestimates
//! (this caught a nearly flat tetrahedron taken for an enclosure, which reported
//! distance 0 for a hull and a cylinder 0.13 apart).
//!
//! Named class where agreement to 1e-5 is not reached: **f32 stall of the
//! sub-simplex solve**, mostly on curved cores (cylinder, cone). GJK converges
//! linearly on curved cores; near the tolerance the decrease of `|v|²` per
//! iteration falls below the rounding of the f32 sub-simplex solve (sliver
//! triangles), the "no decrease of |v|" rule (shared with gjk-core) stops the loop
//! before the relative gap 1e-6 is reached, and the distance is off by up to a few
//! 1e-4 relative. gjk-core's f32 solve had the same misses (and more); since it
//! moved to an f64 solve it has none. The test bounds the class: at most 0.1% of
//! the pairs of a kind pair with a curved core, 0.01% otherwise, and never more
//! than 1e-3 relative.

mod common;

use common::{KIND_NAMES, Pairs, hulls, pairs, rounded, shape, world_support};
use gjk_core::glam::Vec3;
use gjk_core::{Distance, Intersection, contact, distance, intersection};
use gjk_simd::{BatchOptions, Parallelism, distance_batch_with, intersects_batch_with};

const SEED: u64 = 0x5EED_6A6B;
/// Pairs per kind pair (×36 kind pairs = 1,032,192 pairs).
const PER_KIND_PAIR: usize = 28_672;
const BAND: f32 = 1e-4;
const ABS: f32 = 1e-5;
const REL: f32 = 1e-5;

#[derive(Default)]
struct Stats {
    pairs: usize,
    overlapping: usize,
    bool_disagree_in_band: usize,
    max_abs: f32,
    max_rel: f32,
    non_unique_witness: usize,
    core_off: usize,
    curved_stall: usize,
    curved_worst: f32,
    /// Overlapping results whose point was checked to lie inside both shapes.
    inside_checked: usize,
    inside_off: usize,
    inside_worst: f32,
    distance_differs_both_certified: usize,
    /// Boolean answers the driver took from its early outs (bounding balls,
    /// separating axes for boxes: 0 support evaluations); the rest went
    /// through the GJK kernel.
    ball_decided: usize,
    iters_core_bool: u64,
    iters_simd_bool: u64,
    iters_core_dist: u64,
    iters_simd_dist: u64,
    failures: Vec<String>,
    fail_kinds: std::collections::BTreeMap<&'static str, usize>,
}

fn within(a: Vec3, b: Vec3) -> bool {
    // Points of the same result are compared in world space, where coordinates reach
    // about 12: the relative part is relative to the point's magnitude.
    (a - b).length() <= ABS + REL * b.length()
}

/// Distance from world point `p` to the shape of pair side `a` (0 inside).
fn point_distance(shape: &gjk_core::Shape, pose: &gjk_core::Pose, p: Vec3) -> f32 {
    let dot = gjk_core::Sphere::new(f32::MIN_POSITIVE).unwrap();
    distance(
        shape,
        pose,
        &dot,
        &gjk_core::Pose::from_translation(p).unwrap(),
    )
    .distance
}

/// A certified lower bound of the distance of pair `i` from a unit normal `n`
/// (A towards B): the gap between the supporting planes of A along `n` and of B
/// along `-n`. Zero normals give no bound.
fn lower_bound(p: &Pairs, i: usize, n: Vec3) -> f32 {
    if n == Vec3::ZERO {
        return f32::NEG_INFINITY;
    }
    let sa = world_support(&p.shapes_a[i], &p.poses_a[i], n);
    let sb = world_support(&p.shapes_b[i], &p.poses_b[i], -n);
    n.dot(sb) - n.dot(sa)
}

/// Whether result `d` is certified correct to `tol` for pair `i`: its points lie
/// on (in) the shapes, and for a separated result its distance is within `tol` of
/// the best certified lower bound `lower` and of its own points' distance (so the
/// true distance lies in `[lower, d.distance]`).
fn certified(p: &Pairs, i: usize, d: &Distance, lower: f32, tol: f32) -> bool {
    let on_a = point_distance(&p.shapes_a[i], &p.poses_a[i], d.point_a) <= tol;
    let on_b = point_distance(&p.shapes_b[i], &p.poses_b[i], d.point_b) <= tol;
    if d.distance == 0.0 {
        return on_a && on_b && d.point_a == d.point_b && lower <= tol;
    }
    on_a && on_b
        && ((d.point_b - d.point_a).length() - d.distance).abs() <= tol
        && d.distance - lower <= tol
}

fn check(p: &Pairs, label: &str, seed: u64, curved: bool, options: BatchOptions) -> Stats {
    let (sa, pa, sb, pb) = (&p.shapes_a, &p.poses_a, &p.shapes_b, &p.poses_b);
    let bools = intersects_batch_with(sa, pa, sb, pb, options).unwrap();
    let dists = distance_batch_with(sa, pa, sb, pb, options).unwrap();
    let mut st = Stats {
        pairs: p.len(),
        ..Stats::default()
    };
    for i in 0..p.len() {
        let (a, pa, b, pb) = (&p.shapes_a[i], &p.poses_a[i], &p.shapes_b[i], &p.poses_b[i]);
        let cb: Intersection = intersection(a, pa, b, pb);
        let cd: Distance = distance(a, pa, b, pb);
        let (sb, sd) = (bools[i], dists[i]);
        st.iters_core_bool += u64::from(cb.iterations);
        st.iters_simd_bool += u64::from(sb.iterations);
        st.ball_decided += usize::from(sb.iterations == 0);
        st.iters_core_dist += u64::from(cd.iterations);
        st.iters_simd_dist += u64::from(sd.iterations);
        st.overlapping += usize::from(cb.intersecting);
        let mut fail = |why: &'static str| {
            *st.fail_kinds.entry(why).or_default() += 1;
            if st.failures.len() < 8 {
                st.failures.push(format!(
                    "[{label} seed {seed:#x} pair {i}] {why}\n  A {a:?} at {pa:?}\n  B {b:?} at {pb:?}\n  \
                     core bool {cb:?}\n  simd bool {sb:?}\n  core dist {cd:?}\n  simd dist {sd:?}"
                ));
            } else {
                st.failures.push(String::new());
            }
        };
        {
            let answer = sb;
            let what = "boolean disagreement outside the touching band";
            if answer.intersecting != cb.intersecting {
                let depth = if cd.distance > 0.0 {
                    cd.distance
                } else {
                    contact(a, pa, b, pb, 0.0).map_or(0.0, |c| c.depth)
                };
                if depth <= BAND {
                    st.bool_disagree_in_band += 1;
                } else {
                    fail(what);
                }
            }
        }
        let diff = (sd.distance - cd.distance).abs();
        st.max_abs = st.max_abs.max(diff);
        if cd.distance > 0.0 {
            st.max_rel = st.max_rel.max(diff / cd.distance);
        }
        let tol = ABS + REL * cd.distance;
        let points_agree = within(sd.point_a, cd.point_a) && within(sd.point_b, cd.point_b);
        if sd.distance == 0.0 && sd.point_a != sd.point_b {
            fail("overlapping result must have point_a == point_b");
        }
        // Whoever answered (GJK, a closed form, the bounding balls' overlap
        // verdict), an overlapping result's point lies inside both shapes; the
        // tolerance is relative to the point's magnitude, which its rounding is.
        let outside_both = |q: Vec3| {
            let outside = point_distance(a, pa, q).max(point_distance(b, pb, q));
            (outside, ABS + REL * q.abs().max_element())
        };
        if sd.distance == 0.0 {
            let (outside, inside_tol) = outside_both(sd.point_a);
            st.inside_checked += 1;
            st.inside_worst = st.inside_worst.max(outside);
            if outside > inside_tol {
                st.inside_off += 1;
                fail("overlapping result's point is not inside both shapes");
            }
        }
        // The oracle owes the same.
        if cd.distance == 0.0 {
            let (outside, inside_tol) = outside_both(cd.point_a);
            if outside > inside_tol {
                fail("gjk-core's overlapping point is not inside both shapes");
            }
        }
        // Closest points are compared for separated pairs only: for overlapping
        // shapes `point_a == point_b` is just some point inside both.
        if diff <= tol && (points_agree || (sd.distance == 0.0 && cd.distance == 0.0)) {
            continue;
        }
        // The results differ: certify the SIMD result independently (and classify
        // the core one the same way, to report gjk-core's own misses).
        let lower = lower_bound(p, i, sd.normal).max(lower_bound(p, i, cd.normal));
        let simd_ok = certified(p, i, &sd, lower, tol);
        let core_ok = certified(p, i, &cd, lower, tol);
        if sd.distance < lower - tol {
            // A stall overestimates; nothing excuses a distance below a proven
            // lower bound (a false enclosure, say).
            fail("distance below the certified lower bound");
        } else if !simd_ok && (curved || diff > tol) {
            // Named class: f32 stall of the sub-simplex solve (see the module docs).
            st.curved_stall += 1;
            st.curved_worst = st
                .curved_worst
                .max((sd.distance - lower) / (1.0 + cd.distance));
            st.core_off += usize::from(!core_ok);
        } else if !simd_ok {
            fail(if diff > tol {
                "distance disagreement, SIMD result not certified"
            } else {
                "closest points disagree, SIMD points not certified"
            });
        } else if diff > tol {
            st.core_off += usize::from(!core_ok);
            st.distance_differs_both_certified += usize::from(core_ok);
        } else {
            st.non_unique_witness += 1;
        }
    }
    st
}

fn report(name: &str, st: &Stats) {
    println!(
        "{name:<22} pairs {:>7} overlap {:>5.1}% band-disagree {:>3} witness-differs {:>4} core-off {:>3} both-ok {:>3} \
         max|Δd| {:.2e} max rel {:.2e} iters core/simd bool {:.2}/{:.2} dist {:.2}/{:.2} \
         bool by early outs {:>5.1}% inside-checked {} off {} worst {:.2e}",
        st.pairs,
        100.0 * st.overlapping as f64 / st.pairs as f64,
        st.bool_disagree_in_band,
        st.non_unique_witness,
        st.core_off,
        st.distance_differs_both_certified,
        st.max_abs,
        st.max_rel,
        st.iters_core_bool as f64 / st.pairs as f64,
        st.iters_simd_bool as f64 / st.pairs as f64,
        st.iters_core_dist as f64 / st.pairs as f64,
        st.iters_simd_dist as f64 / st.pairs as f64,
        100.0 * st.ball_decided as f64 / st.pairs as f64,
        st.inside_checked,
        st.inside_off,
        st.inside_worst,
    );
    if st.curved_stall > 0 {
        println!(
            "    f32 stall: SIMD outside tolerance on {} pairs (worst excess over the \
             certified bound {:.2e} relative), gjk-core outside tolerance on {} pairs",
            st.curved_stall, st.curved_worst, st.core_off
        );
    }
    if !st.fail_kinds.is_empty() {
        println!("    FAIL {:?}", st.fail_kinds);
    }
}

fn run_kind_a(kind_a: usize) {
    let hulls = hulls(SEED, 16);
    let mut failures = Vec::new();
    for (kind_b, name_b) in KIND_NAMES.iter().enumerate() {
        let seed = SEED ^ (kind_a as u64 * 31 + kind_b as u64) << 8;
        // One pair in eight wraps A, B or both in `Rounded` (same kernels, margins
        // per lane), so rounded and plain shapes share batches.
        let p = pairs(
            seed,
            PER_KIND_PAIR,
            |rng, i| {
                let mut a = shape(rng, kind_a, &hulls);
                let mut b = shape(rng, kind_b, &hulls);
                match i % 16 {
                    1 => a = rounded(rng, a),
                    9 => b = rounded(rng, b),
                    5 => {
                        a = rounded(rng, a);
                        b = rounded(rng, b);
                    }
                    _ => {}
                }
                (a, b)
            },
            10.0,
        );
        let curved = [3, 4].contains(&kind_a) || [3, 4].contains(&kind_b);
        // As users call it (early outs and closed forms), then with every pair
        // through the GJK kernels, so that neither hides a bug in the other.
        let as_called = BatchOptions {
            parallelism: Parallelism::Sequential,
            ..BatchOptions::default()
        };
        let gjk_only = BatchOptions {
            early_outs: false,
            closed_forms: false,
            ..as_called
        };
        for (suffix, options) in [("", as_called), (" (GJK)", gjk_only)] {
            let name = format!("{}-{name_b}{suffix}", KIND_NAMES[kind_a]);
            let st = check(&p, &name, seed, curved, options);
            report(&name, &st);
            // The named class stays rare (0.1% of pairs with a curved core, 0.01%
            // otherwise) and its misses within 1e-3 relative.
            let allowed = if curved {
                p.len() / 1000
            } else {
                p.len() / 10_000
            };
            if st.curved_stall > allowed || st.curved_worst > 1e-3 {
                failures.push(format!(
                    "{name}: curved-core misses {} (gjk-core {}), worst {:.2e}",
                    st.curved_stall, st.core_off, st.curved_worst
                ));
            }
            if !st.failures.is_empty() {
                failures.push(format!(
                    "{name}: {} failures, first:\n{}",
                    st.failures.len(),
                    st.failures
                        .iter()
                        .filter(|f| !f.is_empty())
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn differential_sphere_vs_all() {
    run_kind_a(0);
}

#[test]
fn differential_cuboid_vs_all() {
    run_kind_a(1);
}

#[test]
fn differential_capsule_vs_all() {
    run_kind_a(2);
}

#[test]
fn differential_cylinder_vs_all() {
    run_kind_a(3);
}

#[test]
fn differential_cone_vs_all() {
    run_kind_a(4);
}

#[test]
fn differential_hull_vs_all() {
    run_kind_a(5);
}
