//! The dynamic tree against brute force: random insert/remove/update/reinsert
//! histories keep every invariant, and box queries, ray casts and the all-pairs
//! traversal return exactly the brute-force answer (for pairs, the library's reference
//! sweep, `broadphase::reference`), and bvh-arena's.

mod common;

use broadphase::{Aabb, DynamicTree, Error, LeafId, Ray, reference};
use common::*;
use glam::Vec3;
use rand::Rng;

fn check_queries(tree: &DynamicTree, live: &[(LeafId, u32, Aabb)], seed: u64, step: usize) {
    let mut rng = rng(seed ^ 0xABCD ^ step as u64);
    for _ in 0..20 {
        let q = random_box(&mut rng, 20.0, 3.0);
        let mut got = Vec::new();
        tree.query(&q, |p| got.push(p));
        got.sort_unstable();
        let mut want: Vec<u32> = live
            .iter()
            .filter(|(_, _, b)| b.intersects(&q))
            .map(|(_, p, _)| *p)
            .collect();
        want.sort_unstable();
        assert_eq!(got, want, "seed {seed} step {step}: query {q:?}");
    }
    for _ in 0..20 {
        let o = random_vec(&mut rng, -2.0, 22.0);
        let d = random_dir(&mut rng);
        let ray = Ray::new(o, d).unwrap();
        let max_t = rng.random_range(1.0..30.0);
        let mut got = Vec::new();
        tree.ray_cast(&ray, max_t, |p, t| {
            got.push((p, t));
            max_t
        });
        got.sort_by_key(|a| a.0);
        let mut want: Vec<(u32, f32)> = live
            .iter()
            .filter_map(|(_, p, b)| ray.intersect_aabb(b, max_t).map(|t| (*p, t)))
            .collect();
        want.sort_by_key(|a| a.0);
        assert_eq!(
            got, want,
            "seed {seed} step {step}: ray {ray:?} max_t {max_t}"
        );
        // Closest hit: clipping with the returned distance keeps the nearest.
        let mut best = f32::INFINITY;
        tree.ray_cast(&ray, max_t, |_, t| {
            best = best.min(t);
            t
        });
        let want_best = want.iter().map(|w| w.1).fold(f32::INFINITY, f32::min);
        assert_eq!(best, want_best, "seed {seed} step {step}: closest hit");
    }
    let boxes: Vec<(u32, Aabb)> = live.iter().map(|(_, p, b)| (*p, *b)).collect();
    let want = reference::overlapping_pairs(&boxes);
    let mut serial = Vec::new();
    tree.for_each_overlapping_pair(|a, b| serial.push((a, b)));
    serial.sort_unstable();
    assert_eq!(serial, want, "seed {seed} step {step}: serial all-pairs");
    let mut par = tree.overlapping_pairs();
    par.sort_unstable();
    assert_eq!(par, want, "seed {seed} step {step}: parallel all-pairs");
    assert_eq!(
        bvh_arena_pairs(&boxes),
        want,
        "seed {seed} step {step}: bvh-arena"
    );
}

#[test]
fn random_tree_histories() {
    for seed in 0..8u64 {
        let mut rng = rng(seed);
        let mut tree = DynamicTree::new();
        let mut live: Vec<(LeafId, u32, Aabb)> = Vec::new();
        let mut removed: Vec<LeafId> = Vec::new();
        for step in 0..3000 {
            let r = rng.random_range(0..100);
            if r < 40 || live.len() < 2 {
                let scale = rng.random_range(0.1..3.0);
                let b = random_box(&mut rng, 20.0, scale);
                let p = step as u32;
                live.push((tree.insert(b, p), p, b));
            } else if r < 60 {
                let (id, p, _) = live.swap_remove(rng.random_range(0..live.len()));
                assert_eq!(tree.remove(id), Ok(p), "seed {seed} step {step}");
                removed.push(id);
            } else if r < 70 {
                let k = rng.random_range(0..live.len());
                let b = translate(&live[k].2, random_dir(&mut rng) * 0.3);
                tree.update_in_place(live[k].0, b).unwrap();
                live[k].2 = b;
            } else if r < 80 {
                // Grow-only refit: ancestors stay valid (containing) but may be loose.
                let k = rng.random_range(0..live.len());
                let b = translate(&live[k].2, random_dir(&mut rng) * 0.3);
                tree.enlarge(live[k].0, b).unwrap();
                live[k].2 = b;
            } else if r < 95 {
                let k = rng.random_range(0..live.len());
                let b = random_box(&mut rng, 20.0, 1.0);
                tree.reinsert(live[k].0, b).unwrap();
                live[k].2 = b;
            } else if let Some(&id) = removed.last() {
                assert_eq!(
                    tree.remove(id),
                    Err(Error::StaleHandle),
                    "seed {seed} step {step}"
                );
                assert_eq!(tree.update_in_place(id, live[0].2), Err(Error::StaleHandle));
                assert_eq!(tree.aabb(id), Err(Error::StaleHandle));
            }
            if step % 97 == 0 && rng.random_bool(0.3) {
                tree.rebuild();
                assert!((tree.degradation() - 1.0).abs() < 1e-9);
            }
            if let Err(e) = tree.validate() {
                panic!("seed {seed} step {step}: {e}");
            }
            assert_eq!(tree.len(), live.len());
            if step % 250 == 0 {
                check_queries(&tree, &live, seed, step);
            }
        }
        check_queries(&tree, &live, seed, usize::MAX);
        for (id, p, b) in &live {
            assert_eq!(tree.aabb(*id), Ok(*b));
            assert_eq!(tree.payload(*id), Ok(*p));
        }
    }
}

#[test]
fn bulk_build_matches_brute_force_and_is_shallow() {
    for (seed, n) in [(1u64, 1usize), (2, 2), (3, 17), (4, 5000)] {
        let mut rng = rng(seed);
        let side = (4.0 * n as f32).cbrt();
        let boxes: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng, side, 1.0)).collect();
        let (tree, ids) = DynamicTree::from_aabbs(&boxes);
        tree.validate().unwrap();
        let live: Vec<(LeafId, u32, Aabb)> = ids
            .iter()
            .zip(0..)
            .map(|(id, i)| (*id, i, boxes[i as usize]))
            .collect();
        check_queries(&tree, &live, seed, 0);
        let bound = 3 * (usize::BITS - n.leading_zeros()) + 4;
        assert!(
            tree.height() <= bound,
            "seed {seed}: height {} > {bound}",
            tree.height()
        );
    }
}

/// Bulk builds large enough for the grid-sorted top levels, on scenes where the grid's
/// cells are uneven: far clusters, a dense cluster among sparse outliers, a thin slab,
/// boxes on a diagonal line. Every tree is valid, answers all pairs and queries exactly,
/// and stays shallow (the SAH takes over when a cell holds many leaves).
#[test]
fn grid_topped_builds_on_uneven_scenes() {
    let mut rng = rng(800);
    let n: usize = 3000;
    let mut scenes: Vec<(&str, Vec<Aabb>)> = Vec::new();
    scenes.push((
        "two far clusters",
        (0..n)
            .map(|i| {
                let b = random_box(&mut rng, 15.0, 1.0);
                let d = if i % 2 == 0 {
                    Vec3::ZERO
                } else {
                    Vec3::splat(5000.0)
                };
                translate(&b, d)
            })
            .collect(),
    ));
    scenes.push((
        "cluster and outliers",
        (0..n)
            .map(|i| {
                if i % 100 == 0 {
                    random_box(&mut rng, 3000.0, 1.0)
                } else {
                    random_box(&mut rng, 10.0, 0.5)
                }
            })
            .collect(),
    ));
    scenes.push((
        "thin slab",
        (0..n)
            .map(|_| {
                let c = random_vec(&mut rng, 0.0, 150.0);
                Aabb::from_center_half_extents(Vec3::new(c.x, c.y, c.z * 1e-3), Vec3::splat(0.6))
                    .unwrap()
            })
            .collect(),
    ));
    scenes.push((
        "diagonal line",
        (0..n)
            .map(|i| {
                let c = Vec3::splat(i as f32 * 0.3);
                Aabb::from_center_half_extents(c, Vec3::splat(0.5)).unwrap()
            })
            .collect(),
    ));
    for (name, boxes) in scenes {
        let (tree, ids) = DynamicTree::from_aabbs(&boxes);
        tree.validate().unwrap();
        let numbered: Vec<(u32, Aabb)> = (0..).zip(boxes.iter().copied()).collect();
        let mut got = tree.overlapping_pairs();
        got.sort_unstable();
        assert_eq!(got, reference::overlapping_pairs(&numbered), "{name}");
        let live: Vec<(LeafId, u32, Aabb)> = ids
            .iter()
            .zip(0..)
            .map(|(id, i)| (*id, i, boxes[i as usize]))
            .collect();
        check_queries(&tree, &live, 800, 0);
        let bound = 3 * (usize::BITS - n.leading_zeros()) + 4;
        assert!(tree.height() <= bound, "{name}: height {}", tree.height());
    }
}

#[test]
fn leaf_handles_survive_rebuilds_and_rotations() {
    let mut rng = rng(7);
    let mut tree = DynamicTree::new();
    let ids: Vec<(LeafId, Aabb)> = (0..500)
        .map(|i| {
            let b = random_box(&mut rng, 10.0, 1.0);
            (tree.insert(b, i), b)
        })
        .collect();
    tree.rebuild();
    for (i, (id, b)) in ids.iter().enumerate() {
        assert_eq!(tree.payload(*id), Ok(i as u32));
        assert_eq!(tree.aabb(*id), Ok(*b));
    }
    assert_eq!(tree.leaves().len(), 500);
    assert_eq!(tree.remove(LeafId::default()), Err(Error::StaleHandle));
}

#[test]
fn empty_and_tiny_trees() {
    let mut tree = DynamicTree::new();
    tree.validate().unwrap();
    tree.rebuild();
    assert_eq!(tree.overlapping_pairs(), vec![]);
    assert_eq!(tree.root_aabb(), None);
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE).unwrap();
    let id = tree.insert(b, 3);
    tree.rebuild();
    tree.validate().unwrap();
    assert_eq!(tree.height(), 0);
    let mut hits = 0;
    tree.ray_cast(
        &Ray::new(Vec3::splat(-1.0), Vec3::ONE).unwrap(),
        10.0,
        |p, t| {
            assert_eq!((p, t), (3, 1.0));
            hits += 1;
            10.0
        },
    );
    assert_eq!(hits, 1);
    tree.remove(id).unwrap();
    tree.validate().unwrap();
    assert!(tree.is_empty());
}

#[test]
fn all_pairs_order_does_not_depend_on_thread_count() {
    // Large enough for the parallel split into work items.
    let mut rng = rng(11);
    let n = 60_000;
    let side = (4.0 * n as f32).cbrt();
    let boxes: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng, side, 1.0)).collect();
    let (tree, _) = DynamicTree::from_aabbs(&boxes);
    let runs: Vec<Vec<(u32, u32)>> = [1, 2, 3]
        .iter()
        .map(|&t| pool(t).install(|| tree.overlapping_pairs()))
        .collect();
    assert!(
        runs[0] == runs[1] && runs[1] == runs[2],
        "seed 11: order depends on threads"
    );
    let mut serial = Vec::new();
    tree.for_each_overlapping_pair(|a, b| serial.push((a, b)));
    serial.sort_unstable();
    let mut wide = runs[0].clone();
    wide.sort_unstable();
    assert_eq!(wide, serial, "seed 11: wide and binary traversals disagree");
}

#[test]
fn refit_undoes_enlarge_looseness() {
    let mut rng = rng(12);
    let boxes: Vec<Aabb> = (0..2000).map(|_| random_box(&mut rng, 20.0, 1.0)).collect();
    let (mut tree, ids) = DynamicTree::from_aabbs(&boxes);
    let built = tree.area_cost();
    // Wander every leaf far, then back home: enlarge leaves the ancestors grown.
    for (id, b) in ids.iter().zip(&boxes) {
        tree.enlarge(*id, translate(b, Vec3::splat(3.0))).unwrap();
    }
    for (id, b) in ids.iter().zip(&boxes) {
        tree.enlarge(*id, *b).unwrap();
    }
    tree.validate().unwrap();
    assert!(
        tree.area_cost() > built * 1.01,
        "seed 12: enlarge should loosen"
    );
    tree.refit();
    tree.validate().unwrap();
    let rel = (tree.area_cost() - built).abs() / built;
    assert!(
        rel < 1e-6,
        "seed 12: refit area {} vs built {built}",
        tree.area_cost()
    );
}

#[test]
fn all_pairs_at_bucket_boundaries_and_after_edits() {
    // Sizes around the 8-leaf buckets and 64-leaf nodes of the all-pairs snapshot,
    // each checked right after a build (the arena scan), after box-only edits (still
    // the scan) and after structural edits (the tree walk).
    for (seed, n) in [0usize, 1, 2, 7, 8, 9, 63, 64, 65, 513, 4100]
        .into_iter()
        .enumerate()
    {
        let seed = 100 + seed as u64;
        let mut rng = rng(seed);
        let side = (4.0 * n.max(1) as f32).cbrt();
        let mut boxes: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng, side, 1.0)).collect();
        let (mut tree, ids) = DynamicTree::from_aabbs(&boxes);
        let check = |tree: &DynamicTree, boxes: &[Aabb], what: &str| {
            let live: Vec<(u32, Aabb)> = boxes
                .iter()
                .enumerate()
                .filter(|(_, b)| b.min().x > -1e6)
                .map(|(i, b)| (i as u32, *b))
                .collect();
            let mut got = tree.overlapping_pairs();
            got.sort_unstable();
            assert_eq!(
                got,
                reference::overlapping_pairs(&live),
                "seed {seed} n {n}: {what}"
            );
        };
        check(&tree, &boxes, "after build");
        for k in (0..n).step_by(3) {
            boxes[k] = translate(&boxes[k], random_dir(&mut rng) * 0.7);
            tree.enlarge(ids[k], boxes[k]).unwrap();
        }
        check(&tree, &boxes, "after enlarge");
        for k in (0..n).step_by(5) {
            boxes[k] = random_box(&mut rng, side, 1.0);
            tree.reinsert(ids[k], boxes[k]).unwrap();
        }
        for k in (1..n).step_by(7) {
            tree.remove(ids[k]).unwrap();
            // Marks a removed box for `check` (no box lies that far out).
            boxes[k] = Aabb::new(Vec3::splat(-2e6), Vec3::splat(-2e6)).unwrap();
        }
        check(&tree, &boxes, "after reinsert and remove");
        tree.rebuild();
        check(&tree, &boxes, "after rebuild");
    }
}

/// All pairs from scratch on degenerate distributions, built (subtree buckets) and after
/// a structural edit (walked buckets), against brute force, on one and two threads with
/// the same order: every box at one point, boxes sorted along a line, a few huge boxes
/// among small ones, nested boxes, flat boxes on a plane, a single box.
#[test]
fn all_pairs_on_degenerate_scenes_match_brute_force() {
    let mut rng = rng(600);
    let unit = |c: Vec3, h: f32| Aabb::from_center_half_extents(c, Vec3::splat(h)).unwrap();
    let mut scenes: Vec<(&str, Vec<Aabb>)> = Vec::new();
    scenes.push(("one point", vec![unit(Vec3::splat(2.0), 0.5); 300]));
    scenes.push((
        "line",
        (0..2000)
            .map(|i| unit(Vec3::new(i as f32 * 0.4, 0.0, 0.0), 0.5))
            .collect(),
    ));
    let mut huge: Vec<Aabb> = (0..1500).map(|_| random_box(&mut rng, 12.0, 1.0)).collect();
    for k in 0..5 {
        huge[k * 300] = unit(Vec3::splat(6.0), 1000.0 + k as f32);
    }
    scenes.push(("huge among small", huge));
    scenes.push((
        "nested",
        (0..400).map(|i| unit(Vec3::ZERO, 1.0 + i as f32)).collect(),
    ));
    scenes.push((
        "flat plane",
        (0..1500)
            .map(|_| {
                let c = random_vec(&mut rng, 0.0, 30.0);
                Aabb::new(
                    Vec3::new(c.x, c.y, 0.0),
                    Vec3::new(c.x + 1.0, c.y + 1.0, 0.0),
                )
                .unwrap()
            })
            .collect(),
    ));
    scenes.push(("single", vec![unit(Vec3::ONE, 0.5)]));
    let pools: Vec<rayon::ThreadPool> = [1, 2].into_iter().map(pool).collect();
    for (name, boxes) in scenes {
        let (mut tree, ids) = DynamicTree::from_aabbs(&boxes);
        let mut live: Vec<(u32, Aabb)> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| (i as u32, *b))
            .collect();
        for edited in [false, true] {
            if edited && !ids.is_empty() {
                // A removal clears the preorder layout: the walk path.
                tree.remove(ids[0]).unwrap();
                live.remove(0);
            }
            let want = reference::overlapping_pairs(&live);
            let runs: Vec<Vec<(u32, u32)>> = pools
                .iter()
                .map(|p| p.install(|| tree.overlapping_pairs()))
                .collect();
            assert_eq!(
                runs[0], runs[1],
                "seed 600, {name} (edited {edited}): order depends on threads"
            );
            let mut got = runs[0].clone();
            got.sort_unstable();
            assert_eq!(got, want, "seed 600, {name} (edited {edited})");
        }
    }
}
