//! Long seeded random histories: after every update the pair set must equal the
//! brute-force set of overlapping fat boxes (`broadphase::reference`), contain every
//! overlapping tight pair, and the reported began/ended lists must be exactly the set
//! difference with the previous frame. Every few frames the answer is also compared with bvh-arena's on the same
//! boxes, and with the tree's from-scratch traversal.

mod common;

use std::collections::BTreeSet;

use broadphase::{Aabb, Broadphase, BroadphaseConfig, Error, Pair, ProxyId, reference};
use common::*;
use glam::Vec3;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Copy, Debug)]
struct Scenario {
    seed: u64,
    frames: usize,
    max_live: usize,
    side: f32,
    config: BroadphaseConfig,
}

type Log = Vec<(Vec<Pair>, Vec<Pair>)>;

fn key(p: &Pair) -> (ProxyId, ProxyId) {
    (p.a, p.b)
}

fn random_op_box(rng: &mut ChaCha8Rng, s: &Scenario) -> Aabb {
    // Mix of sizes, including flat and point boxes.
    match rng.random_range(0..10) {
        0 => {
            let c = random_vec(rng, 0.0, s.side);
            Aabb::new(c, c).unwrap()
        }
        1 => {
            let b = random_box(rng, s.side, 1.0);
            Aabb::new(b.min(), Vec3::new(b.max().x, b.min().y, b.max().z)).unwrap()
        }
        2 => random_box(rng, s.side, 4.0),
        _ => random_box(rng, s.side, 1.0),
    }
}

/// Runs one history, checking every frame; returns the log of changes.
fn run(s: Scenario) -> Log {
    let ctx = |frame: usize, what: &str| format!("seed {} frame {frame}: {what} ({s:?})", s.seed);
    let mut rng = rng(s.seed);
    let mut bp: Broadphase<u64> = Broadphase::with_config(s.config).unwrap();
    let mut live: Vec<ProxyId> = Vec::new();
    let mut dead: Vec<ProxyId> = Vec::new();
    let mut prev: BTreeSet<(ProxyId, ProxyId)> = BTreeSet::new();
    let mut log = Log::new();
    let mut next_key = 0u64;
    for frame in 0..s.frames {
        let ops = rng.random_range(0..(s.max_live / 4).max(2));
        for _ in 0..ops {
            let r = rng.random_range(0..100);
            if (r < 20 && live.len() < s.max_live) || live.is_empty() {
                let b = random_op_box(&mut rng, &s);
                live.push(bp.insert(b, next_key).unwrap());
                next_key += 1;
            } else if r < 30 {
                let id = live.swap_remove(rng.random_range(0..live.len()));
                bp.remove(id).unwrap();
                dead.push(id);
            } else if r < 70 {
                let id = live[rng.random_range(0..live.len())];
                let step = rng.random_range(0.0..0.3);
                let d = random_dir(&mut rng) * step;
                let b = translate(&bp.aabb(id).unwrap(), d);
                bp.move_proxy(id, b).unwrap();
            } else if r < 80 {
                let id = live[rng.random_range(0..live.len())];
                let b = random_op_box(&mut rng, &s);
                // Ok(false) only if the new box happens to fit in the old fat box.
                let escaped = bp.move_proxy(id, b).unwrap();
                assert!(
                    escaped || bp.fat_aabb(id).unwrap().contains(&b),
                    "{}",
                    ctx(frame, "teleport")
                );
            } else if r < 92 {
                let id = live[rng.random_range(0..live.len())];
                let b = bp.aabb(id).unwrap();
                let f = rng.random_range(0.3..2.5);
                let g = Aabb::from_center_half_extents(b.center(), b.size() * 0.5 * f).unwrap();
                bp.move_proxy(id, g).unwrap();
            } else if let Some(&id) = dead.last() {
                // Stale handles are errors and change nothing.
                assert_eq!(
                    bp.remove(id),
                    Err(Error::StaleHandle),
                    "{}",
                    ctx(frame, "stale remove")
                );
                let b = random_op_box(&mut rng, &s);
                assert_eq!(bp.move_proxy(id, b), Err(Error::StaleHandle));
                assert!(bp.data(id).is_err() && !bp.contains(id));
            }
        }
        let changes = bp.update();
        let began: Vec<Pair> = changes.began.to_vec();
        let ended: Vec<Pair> = changes.ended.to_vec();
        for list in [&began, &ended] {
            assert!(
                list.windows(2)
                    .all(|w| (w[0].a.index(), w[0].b.index()) < (w[1].a.index(), w[1].b.index())),
                "{}",
                ctx(frame, "change list not sorted")
            );
        }
        if let Err(e) = bp.validate() {
            panic!("{}", ctx(frame, &format!("validate: {e}")));
        }
        let pairs: Vec<Pair> = bp.pairs().collect();
        assert_eq!(pairs.len(), bp.pair_count(), "{}", ctx(frame, "pair_count"));
        // Brute force over the fat boxes.
        let fat: Vec<(u32, Aabb)> = live
            .iter()
            .map(|&id| (id.index(), bp.fat_aabb(id).unwrap()))
            .collect();
        let expected = reference::overlapping_pairs(&fat);
        let got: Vec<(u32, u32)> = pairs.iter().map(|p| (p.a.index(), p.b.index())).collect();
        if got != expected {
            let missing: Vec<_> = expected
                .iter()
                .filter(|p| !got.contains(p))
                .take(5)
                .collect();
            let extra: Vec<_> = got
                .iter()
                .filter(|p| !expected.contains(p))
                .take(5)
                .collect();
            panic!(
                "{}",
                ctx(
                    frame,
                    &format!("pairs != brute force: missing {missing:?}, extra {extra:?}")
                )
            );
        }
        // Every tight overlap is reported.
        let tight: Vec<(u32, Aabb)> = live
            .iter()
            .map(|&id| (id.index(), bp.aabb(id).unwrap()))
            .collect();
        for p in reference::overlapping_pairs(&tight) {
            assert!(
                got.binary_search(&p).is_ok(),
                "{}",
                ctx(frame, &format!("tight pair {p:?} missing"))
            );
        }
        // Changes are the set difference with the previous frame.
        let now: BTreeSet<_> = pairs.iter().map(key).collect();
        let exp_began: BTreeSet<_> = now.difference(&prev).copied().collect();
        let exp_ended: BTreeSet<_> = prev.difference(&now).copied().collect();
        assert_eq!(
            began.iter().map(key).collect::<BTreeSet<_>>(),
            exp_began,
            "{}",
            ctx(frame, "began")
        );
        assert_eq!(
            ended.iter().map(key).collect::<BTreeSet<_>>(),
            exp_ended,
            "{}",
            ctx(frame, "ended")
        );
        assert_eq!(
            began.len() + ended.len(),
            exp_began.len() + exp_ended.len(),
            "{}",
            ctx(frame, "duplicates")
        );
        prev = now;
        if frame % 16 == 0 {
            assert_eq!(
                bvh_arena_pairs(&fat),
                expected,
                "{}",
                ctx(frame, "bvh-arena (fat)")
            );
            let scratch: Vec<Pair> = bp.pairs_from_scratch();
            assert_eq!(scratch, pairs, "{}", ctx(frame, "from scratch"));
        }
        log.push((began, ended));
    }
    log
}

fn scenario(seed: u64, frames: usize, max_live: usize, side: f32) -> Scenario {
    Scenario {
        seed,
        frames,
        max_live,
        side,
        config: BroadphaseConfig {
            parallel_min_moved: 8,
            ..BroadphaseConfig::default()
        },
    }
}

#[test]
fn random_histories_match_brute_force() {
    for seed in 0..6 {
        run(scenario(seed, 400, 300, 12.0));
    }
}

#[test]
fn dense_histories_match_brute_force() {
    // Crowded: every box overlaps many others, lots of rotations and escapes.
    for seed in 100..104 {
        run(scenario(seed, 300, 200, 4.0));
    }
}

#[test]
fn zero_margin_and_eager_rebuild_histories() {
    for seed in 200..204 {
        let mut s = scenario(seed, 300, 200, 10.0);
        s.config.margin_fraction = 0.0;
        s.config.rebuild_degradation = 1.01;
        s.config.parallel_min_moved = 1;
        run(s);
    }
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let s = scenario(300, 300, 400, 10.0);
    let logs: Vec<Log> = [1, 2, 3]
        .iter()
        .map(|&t| pool(t).install(|| run(s)))
        .collect();
    assert!(
        logs[0] == logs[1] && logs[1] == logs[2],
        "seed {}: logs differ across thread counts",
        s.seed
    );
}

#[test]
fn pair_set_does_not_depend_on_insertion_order() {
    let mut rng = rng(400);
    let boxes: Vec<Aabb> = (0..2000).map(|_| random_box(&mut rng, 25.0, 1.0)).collect();
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    let sets: Vec<BTreeSet<(usize, usize)>> = (0..3)
        .map(|round| {
            // Reverse, then a seeded shuffle.
            if round == 1 {
                order.reverse();
            } else if round == 2 {
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.random_range(0..=i));
                }
            }
            let mut bp = Broadphase::new();
            for &i in &order {
                bp.insert(boxes[i], i).unwrap();
            }
            bp.update();
            bp.pairs()
                .map(|p| {
                    let (x, y) = (*bp.data(p.a).unwrap(), *bp.data(p.b).unwrap());
                    (x.min(y), x.max(y))
                })
                .collect()
        })
        .collect();
    assert_eq!(
        sets[0], sets[1],
        "seed 400: reversed insertion changed the pairs"
    );
    assert_eq!(
        sets[0], sets[2],
        "seed 400: shuffled insertion changed the pairs"
    );
}

#[test]
fn bulk_insert_matches_single_inserts() {
    let mut rng = rng(500);
    let boxes: Vec<Aabb> = (0..3000).map(|_| random_box(&mut rng, 30.0, 1.0)).collect();
    let mut a = Broadphase::new();
    for (i, b) in boxes.iter().enumerate() {
        a.insert(*b, i).unwrap();
    }
    let mut b = Broadphase::new();
    b.insert_many(boxes.iter().copied().zip(0..)).unwrap();
    let ca: Vec<Pair> = a.update().began.to_vec();
    let cb: Vec<Pair> = b.update().began.to_vec();
    assert_eq!(ca, cb, "seed 500");
    a.validate().unwrap();
    b.validate().unwrap();
    // A failing batch inserts nothing.
    let bad = vec![(boxes[0], 0), (boxes[1], 1)];
    let mut c: Broadphase<i32> = Broadphase::with_config(BroadphaseConfig {
        max_margin: f32::INFINITY,
        ..Default::default()
    })
    .unwrap();
    let huge = Aabb::new(Vec3::splat(-3.0e38), Vec3::splat(3.0e38)).unwrap();
    assert_eq!(
        c.insert_many(bad.into_iter().chain([(huge, 2)])),
        Err(Error::InfiniteCoordinate)
    );
    assert!(c.is_empty());
    c.validate().unwrap();
}

/// The bulk path of `insert_many` into a populated broadphase with free slots (removed
/// proxies) hands out the same handles as single inserts and ends with the same pairs.
#[test]
fn bulk_insert_after_removals_matches_single_inserts() {
    let mut rng = rng(501);
    let first: Vec<Aabb> = (0..400).map(|_| random_box(&mut rng, 15.0, 1.0)).collect();
    let second: Vec<Aabb> = (0..300).map(|_| random_box(&mut rng, 15.0, 1.0)).collect();
    let mut a: Broadphase<usize> = Broadphase::new();
    let ids = a
        .insert_many(first.iter().copied().zip(0..))
        .expect("valid boxes");
    a.update();
    for id in ids.iter().step_by(3) {
        a.remove(*id).unwrap();
    }
    a.update();
    let mut b = a.clone();
    // 300 >= 64 and 300 * 4 >= 266 leaves: the bulk path (slots from the free list
    // first, then fresh ones).
    let bulk = b
        .insert_many(second.iter().copied().zip(1000..))
        .expect("valid boxes");
    let single: Vec<_> = second
        .iter()
        .zip(1000..)
        .map(|(x, d)| a.insert(*x, d).unwrap())
        .collect();
    assert_eq!(bulk, single, "seed 501: handles differ");
    let ca: Vec<Pair> = a.update().began.to_vec();
    let cb: Vec<Pair> = b.update().began.to_vec();
    assert_eq!(ca, cb, "seed 501: began pairs differ");
    assert_eq!(
        a.pairs().collect::<Vec<_>>(),
        b.pairs().collect::<Vec<_>>(),
        "seed 501"
    );
    assert_eq!(
        b.pairs().collect::<Vec<_>>(),
        b.pairs_from_scratch(),
        "seed 501"
    );
    a.validate().unwrap();
    b.validate().unwrap();
}

/// `move_proxies` against one `move_proxy` call per move: same return values, same fat
/// boxes, same pair changes and pair sets, on 1, 2 and 3 threads; batches include
/// repeated proxies, stale handles, jumps and small steps.
#[test]
fn batch_moves_equal_single_moves_on_any_thread_count() {
    for seed in [21u64, 22] {
        let mut rng = rng(seed);
        let n = 5000;
        let side = (4.0 * n as f32).cbrt();
        let boxes: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng, side, 1.0)).collect();
        let mut single: Broadphase<u32> = Broadphase::new();
        let ids = single
            .insert_many(boxes.iter().enumerate().map(|(i, b)| (*b, i as u32)))
            .unwrap();
        single.update();
        // A stale handle: removed from every copy before the batches start.
        let stale = ids[17];
        single.remove(stale).unwrap();
        single.update();
        let mut batched: Vec<Broadphase<u32>> = vec![single.clone(); 3];
        let mut current = boxes.clone();
        for frame in 0..12 {
            let mut batch: Vec<(ProxyId, Aabb)> = Vec::new();
            for _ in 0..rng.random_range(100..1500) {
                let k = rng.random_range(0..n);
                let b = match rng.random_range(0..20) {
                    0 => random_box(&mut rng, side, 1.0),
                    1 => random_box(&mut rng, side, 0.2),
                    _ => translate(&current[k], random_dir(&mut rng) * 0.05),
                };
                if k != 17 {
                    current[k] = b;
                }
                batch.push((ids[k], b));
            }
            if frame % 3 == 1 {
                // Repeat a few proxies later in the same batch.
                for r in 0..20 {
                    let (id, b) = batch[r * 3];
                    let b2 = translate(&b, Vec3::new(0.3, -0.2, 0.1));
                    current[id.index() as usize] = b2;
                    batch.push((id, b2));
                }
            }
            if frame % 2 == 0 {
                let mid = batch.len() / 2;
                batch.insert(mid, (stale, boxes[0]));
            }
            let mut want_escapes = 0;
            let mut want_err = None;
            for &(id, b) in &batch {
                match single.move_proxy(id, b) {
                    Ok(e) => want_escapes += usize::from(e),
                    Err(e) => {
                        want_err.get_or_insert(e);
                    }
                }
            }
            let want = if let Some(e) = want_err {
                Err(e)
            } else {
                Ok(want_escapes)
            };
            let want_changes = {
                let c = single.update();
                (c.began.to_vec(), c.ended.to_vec())
            };
            let want_pairs: Vec<Pair> = single.pairs().collect();
            for (t, bp) in batched.iter_mut().enumerate() {
                let pool = pool(t + 1);
                let got = pool.install(|| bp.move_proxies(&batch));
                assert_eq!(got, want, "seed {seed} frame {frame} threads {}", t + 1);
                let changes = pool.install(|| {
                    let c = bp.update();
                    (c.began.to_vec(), c.ended.to_vec())
                });
                assert_eq!(
                    changes,
                    want_changes,
                    "seed {seed} frame {frame} threads {}: changes",
                    t + 1
                );
                let pairs: Vec<Pair> = bp.pairs().collect();
                assert_eq!(pairs, want_pairs, "seed {seed} frame {frame}: pairs");
                for &id in &ids {
                    assert_eq!(bp.fat_aabb(id), single.fat_aabb(id), "seed {seed}: fat");
                    assert_eq!(bp.aabb(id), single.aabb(id), "seed {seed}: tight");
                }
                bp.validate()
                    .unwrap_or_else(|e| panic!("seed {seed} frame {frame}: {e}"));
            }
            if frame % 4 == 3 {
                // The stale handle, on its own and inside a batch.
                assert_eq!(single.move_proxy(stale, boxes[17]), Err(Error::StaleHandle));
            }
        }
        assert_eq!(
            single.pairs().collect::<Vec<_>>(),
            {
                let mut p = single.pairs_from_scratch();
                p.sort_unstable_by_key(|p| (p.a.index(), p.b.index()));
                p
            },
            "seed {seed}: pairs against the from-scratch pairs"
        );
    }
}

/// Updates that recompute the pair set from scratch (at least half of 12,000
/// proxies moved: a bulk insert, frames that teleport most boxes) and incremental
/// ones (10% moved), mixed with removals and inserts, on pools of 1 and 2 threads:
/// after each, the pair set equals the sweep over the fat boxes, began and ended
/// are the set differences with the previous frame, and the threads agree.
#[test]
fn from_scratch_updates_match_the_reference() {
    let seed = 502;
    let n = 12_000;
    let side = 40.0;
    let run = |threads: usize| {
        pool(threads).install(|| {
            let mut rng = rng(seed);
            let mut bp: Broadphase<u32> = Broadphase::new();
            let boxes: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng, side, 1.0)).collect();
            let mut live = bp.insert_many(boxes.into_iter().zip(0..)).unwrap();
            let mut prev: BTreeSet<(ProxyId, ProxyId)> = BTreeSet::new();
            let mut log = Log::new();
            for frame in 0..6 {
                let at =
                    |what: &str| format!("seed {seed} threads {threads} frame {frame}: {what}");
                if frame > 0 {
                    let share = if frame % 2 == 1 { 0.7 } else { 0.1 };
                    for &id in &live {
                        if rng.random_bool(share) {
                            let b = if rng.random_bool(0.5) {
                                random_box(&mut rng, side, 1.0)
                            } else {
                                let d = random_dir(&mut rng) * 0.5;
                                translate(&bp.aabb(id).unwrap(), d)
                            };
                            bp.move_proxy(id, b).unwrap();
                        }
                    }
                    for _ in 0..200 {
                        let id = live.swap_remove(rng.random_range(0..live.len()));
                        bp.remove(id).unwrap();
                    }
                    for _ in 0..150 {
                        live.push(bp.insert(random_box(&mut rng, side, 1.0), 0).unwrap());
                    }
                }
                let changes = bp.update();
                let (began, ended) = (changes.began.to_vec(), changes.ended.to_vec());
                bp.validate().unwrap_or_else(|e| panic!("{}", at(&e)));
                let pairs: Vec<Pair> = bp.pairs().collect();
                let fat: Vec<(u32, Aabb)> = live
                    .iter()
                    .map(|&id| (id.index(), bp.fat_aabb(id).unwrap()))
                    .collect();
                let got: Vec<(u32, u32)> =
                    pairs.iter().map(|p| (p.a.index(), p.b.index())).collect();
                assert_eq!(got, reference::overlapping_pairs(&fat), "{}", at("pairs"));
                let now: BTreeSet<_> = pairs.iter().map(key).collect();
                let exp_began: BTreeSet<_> = now.difference(&prev).copied().collect();
                let exp_ended: BTreeSet<_> = prev.difference(&now).copied().collect();
                assert_eq!(
                    began.iter().map(key).collect::<BTreeSet<_>>(),
                    exp_began,
                    "{}",
                    at("began")
                );
                assert_eq!(
                    ended.iter().map(key).collect::<BTreeSet<_>>(),
                    exp_ended,
                    "{}",
                    at("ended")
                );
                assert_eq!(
                    began.len() + ended.len(),
                    exp_began.len() + exp_ended.len(),
                    "{}",
                    at("duplicates")
                );
                prev = now;
                log.push((began, ended));
            }
            log
        })
    };
    assert_eq!(run(1), run(2), "seed {seed}: thread counts disagree");
}

/// A scene loaded in one `insert_many` (its partner lists laid out by the
/// from-scratch update, each with no room to spare) against the same scene grown by
/// single inserts in batches small enough for the incremental update: then the same
/// history on both, with boxes drawn towards a cluster so that lists outgrow their
/// room, removals, inserts into freed slots, and a frame that teleports most boxes.
/// After every update both report the same began and ended lists, in order (sorted),
/// the same pair set and partner lists, equal to the sweep over the fat boxes.
#[test]
fn loaded_scene_then_edits_match_an_incremental_history() {
    let seed = 503;
    let n = 6_000;
    let side = 30.0;
    let mut rng = rng(seed);
    let boxes: Vec<Aabb> = (0..n).map(|_| random_box(&mut rng, side, 1.0)).collect();
    let mut loaded: Broadphase<u32> = Broadphase::new();
    let mut grown: Broadphase<u32> = Broadphase::new();
    let mut live = loaded.insert_many(boxes.iter().copied().zip(0..)).unwrap();
    let began_loaded = loaded.update().began.to_vec();
    assert!(
        began_loaded.is_sorted_by_key(|p| (p.a.index(), p.b.index())),
        "seed {seed}: loaded began list not sorted"
    );
    // Below the from-scratch path's threshold (4096 moved proxies) per update.
    let mut began_grown = Vec::new();
    for (k, batch) in boxes.chunks(1_000).enumerate() {
        for (i, &b) in batch.iter().enumerate() {
            grown.insert(b, (1_000 * k + i) as u32).unwrap();
        }
        began_grown.extend_from_slice(grown.update().began);
    }
    began_grown.sort_unstable_by_key(|p| (p.a.index(), p.b.index()));
    assert_eq!(began_loaded, began_grown, "seed {seed}: loading");
    let longest = |bp: &Broadphase<u32>, live: &[ProxyId]| {
        live.iter()
            .map(|&id| bp.partners(id).unwrap().count())
            .max()
            .unwrap()
    };
    let longest_loaded = longest(&loaded, &live);
    let cluster = Vec3::splat(side / 2.0);
    for frame in 0..8 {
        let at = |what: &str| format!("seed {seed} frame {frame}: {what}");
        let teleport = frame == 5;
        for &id in &live {
            let b = if teleport && rng.random_bool(0.8) {
                random_box(&mut rng, side, 1.0)
            } else if rng.random_bool(0.25) {
                // A step towards the cluster: lists there grow frame after frame.
                let c = loaded.aabb(id).unwrap().center();
                translate(&loaded.aabb(id).unwrap(), (cluster - c) * 0.3)
            } else {
                continue;
            };
            loaded.move_proxy(id, b).unwrap();
            grown.move_proxy(id, b).unwrap();
        }
        for _ in 0..100 {
            let id = live.swap_remove(rng.random_range(0..live.len()));
            assert_eq!(loaded.remove(id), grown.remove(id), "{}", at("remove"));
        }
        for _ in 0..80 {
            let b = random_box(&mut rng, side, 1.0);
            let id = loaded.insert(b, 0).unwrap();
            assert_eq!(grown.insert(b, 0).unwrap(), id, "{}", at("insert"));
            live.push(id);
        }
        let a = loaded.update();
        let (began, ended) = (a.began.to_vec(), a.ended.to_vec());
        let b = grown.update();
        assert_eq!(began, b.began, "{}", at("began"));
        assert_eq!(ended, b.ended, "{}", at("ended"));
        for list in [&began, &ended] {
            assert!(
                list.is_sorted_by_key(|p| (p.a.index(), p.b.index())),
                "{}",
                at("order")
            );
        }
        loaded.validate().unwrap_or_else(|e| panic!("{}", at(&e)));
        grown.validate().unwrap_or_else(|e| panic!("{}", at(&e)));
        let pairs: Vec<Pair> = loaded.pairs().collect();
        assert_eq!(pairs, grown.pairs().collect::<Vec<_>>(), "{}", at("pairs"));
        for &id in &live {
            assert!(
                loaded.partners(id).unwrap().eq(grown.partners(id).unwrap()),
                "{}",
                at(&format!("partners of {id:?}"))
            );
        }
        let fat: Vec<(u32, Aabb)> = live
            .iter()
            .map(|&id| (id.index(), loaded.fat_aabb(id).unwrap()))
            .collect();
        let got: Vec<(u32, u32)> = pairs.iter().map(|p| (p.a.index(), p.b.index())).collect();
        assert_eq!(
            got,
            reference::overlapping_pairs(&fat),
            "{}",
            at("reference")
        );
    }
    // The cluster made some lists far longer than any at loading.
    let now = longest(&loaded, &live);
    assert!(
        now > 2 * longest_loaded,
        "seed {seed}: longest list {now}, {longest_loaded} at loading"
    );
}
