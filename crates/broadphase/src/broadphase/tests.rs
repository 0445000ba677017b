//! Unit tests of the batch paths: the parallel record pass and update against the
//! serial ones, and `move_proxies_with` against moves one by one.

use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::test_support::{pool, random_move};

/// The half extents of the tests' boxes.
const HALF: std::ops::Range<f32> = 0.25..0.75;

fn random_box(rng: &mut ChaCha8Rng, side: f32) -> Aabb {
    crate::test_support::random_box(rng, side, HALF)
}

/// A seeded scene of the batch-move tests.
struct Scene {
    bp: Broadphase<u32>,
    boxes: Vec<Aabb>,
    ids: Vec<ProxyId>,
    /// The side of the boxes' cube (about two overlaps a box).
    side: f32,
}

/// 3000 random boxes in a broadphase (each proxy's data is its index), updated,
/// with proxy `stale` then removed and updated again.
fn scene(rng: &mut ChaCha8Rng, stale: usize) -> Scene {
    let n = 3000;
    let side = (4.0 * n as f32).cbrt();
    let boxes: Vec<Aabb> = (0..n).map(|_| random_box(rng, side)).collect();
    let mut bp = Broadphase::new();
    let ids = bp
        .insert_many(boxes.iter().enumerate().map(|(i, b)| (*b, i as u32)))
        .unwrap();
    bp.update();
    bp.remove(ids[stale]).unwrap();
    bp.update();
    Scene {
        bp,
        boxes,
        ids,
        side,
    }
}

/// The parallel record pass of `move_proxies` and the parallel list edits of
/// `update` (forced on small batches) give the same results as the serial paths:
/// return values, began and ended pairs, pair sets and fat boxes, on 2 and 3
/// threads, with repeated proxies, stale handles, jumps and small steps.
#[test]
fn parallel_paths_equal_serial_paths() {
    for seed in [31u64, 32, 33] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let Scene {
            bp: mut serial,
            boxes,
            ids,
            side,
        } = scene(&mut rng, 5);
        let n = boxes.len();
        let stale = ids[5];
        let mut forced = serial.clone();
        forced.move_parallel_min = 0;
        forced.config.parallel_min_moved = 1;
        let mut parallel = [forced.clone(), forced];
        let pools = [pool(2), pool(3)];
        let mut current = boxes.clone();
        for frame in 0..10 {
            let mut batch: Vec<(ProxyId, Aabb)> = Vec::new();
            for _ in 0..rng.random_range(50..1200) {
                let k = rng.random_range(0..n);
                let b = random_move(&mut rng, &current[k], side, HALF);
                if k != 5 {
                    current[k] = b;
                }
                batch.push((ids[k], b));
            }
            if frame % 3 == 1 {
                let (id, b) = batch[0];
                batch.push((id, b));
                batch.push((stale, boxes[0]));
            }
            let want = serial.move_proxies(&batch);
            let want_changes = {
                let c = serial.update();
                (c.began.to_vec(), c.ended.to_vec())
            };
            let want_pairs: Vec<Pair> = serial.pairs().collect();
            for (bp, pool) in parallel.iter_mut().zip(&pools) {
                let t = pool.current_num_threads();
                let got = pool.install(|| bp.move_proxies(&batch));
                assert_eq!(got, want, "seed {seed} frame {frame} threads {t}");
                let changes = pool.install(|| {
                    let c = bp.update();
                    (c.began.to_vec(), c.ended.to_vec())
                });
                assert_eq!(
                    changes, want_changes,
                    "seed {seed} frame {frame} threads {t}"
                );
                let pairs: Vec<Pair> = bp.pairs().collect();
                assert_eq!(pairs, want_pairs, "seed {seed} frame {frame} threads {t}");
                for &id in &ids {
                    assert_eq!(bp.fat_aabb(id), serial.fat_aabb(id), "seed {seed}");
                }
                bp.validate()
                    .unwrap_or_else(|e| panic!("seed {seed} frame {frame} threads {t}: {e}"));
            }
        }
    }
}

/// An empty batch moves nothing, on the serial and the parallel paths alike.
#[test]
fn empty_batches_move_nothing() {
    let mut bp: Broadphase<u32> = Broadphase::new();
    bp.insert(random_box(&mut ChaCha8Rng::seed_from_u64(1), 4.0), 0)
        .unwrap();
    bp.update();
    bp.move_parallel_min = 0;
    bp.move_with_parallel_min = 0;
    bp.config.parallel_min_moved = 0;
    for threads in [1, 2] {
        pool(threads).install(|| {
            assert_eq!(bp.move_proxies(&[]), Ok(0), "threads {threads}");
            let called =
                |_: usize, _: &mut u32| -> Result<Aabb, Error> { panic!("no move, no call") };
            assert_eq!(
                bp.move_proxies_with(&[], called),
                Ok(0),
                "threads {threads}"
            );
            let c = bp.update();
            assert!(
                c.began.is_empty() && c.ended.is_empty(),
                "threads {threads}"
            );
        });
    }
    bp.validate().unwrap();
}

/// Every pair of the live proxies among `ids` whose fat boxes overlap, by the
/// reference sweep, in the broadphase's order (live handles have distinct indices, so
/// ordering handles orders their indices).
fn brute_force_pairs(bp: &Broadphase<u32>, ids: &[ProxyId]) -> Vec<Pair> {
    let live: Vec<(ProxyId, Aabb)> = ids
        .iter()
        .filter_map(|&id| Some((id, bp.fat_aabb(id).ok()?)))
        .collect();
    crate::reference::overlapping_pairs(&live)
        .into_iter()
        .map(|(a, b)| Pair { a, b })
        .collect()
}

/// What `move_proxies_with` must do, one `move_proxy` at a time: the function runs
/// for live handles only, and a move whose function fails is skipped.
fn moves_one_by_one(
    bp: &mut Broadphase<u32>,
    ids: &[ProxyId],
    new_box: impl Fn(usize, &mut u32) -> Result<Aabb, Error>,
) -> Result<usize, Error> {
    let mut escapes = 0;
    let mut first = None;
    for (k, &id) in ids.iter().enumerate() {
        let moved = bp
            .data_mut(id)
            .and_then(|data| new_box(k, data))
            .and_then(|b| bp.move_proxy(id, b));
        match moved {
            Ok(e) => escapes += usize::from(e),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    first.map_or(Ok(escapes), Err)
}

/// `move_proxies_with`, serially and through its parallel pass (forced on small
/// batches, 2 and 3 threads), equals `move_proxy` called move by move: return
/// values (first error in batch order), the data the function updates, fat and
/// tight boxes, pair changes and pair sets (the reference's checked against every
/// pair of fat boxes); batches include repeated proxies, stale handles, a handle
/// beyond every slot, failing functions, boxes whose fat boxes overflow, proxies
/// inserted since the last update, jumps and small steps.
#[test]
fn move_proxies_with_equals_moves_one_by_one() {
    for seed in [41u64, 42] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let Scene {
            bp: mut single,
            boxes,
            ids,
            side,
        } = scene(&mut rng, 7);
        let n = boxes.len();
        let stale = ids[7];
        let mut forced = single.clone();
        forced.move_with_parallel_min = 0;
        forced.config.parallel_min_moved = 1;
        // On the calling thread (the serial pass), then on pools of 2 and 3 threads.
        let mut batched = [single.clone(), forced.clone(), forced];
        let pools = [pool(1), pool(2), pool(3)];
        // A handle whose slot lies beyond every slot these broadphases will have
        // (they grow by 5 slots every third frame).
        let foreign = {
            let mut big: Broadphase<u32> = Broadphase::new();
            let far = boxes.iter().chain(&boxes[..100]).map(|b| (*b, 0));
            *big.insert_many(far).unwrap().last().unwrap()
        };
        // A box whose fat box overflows f32: 3.3e38 plus a margin of 2.6e37.
        let overflow = Aabb::new(glam::Vec3::splat(2.0e38), glam::Vec3::splat(3.3e38)).unwrap();
        let mut live = ids.clone();
        let mut current = boxes.clone();
        for frame in 0..8 {
            let mut batch: Vec<(ProxyId, Aabb)> = Vec::new();
            for _ in 0..rng.random_range(50..1200) {
                let k = rng.random_range(0..n);
                let b = random_move(&mut rng, &current[k], side, HALF);
                current[k] = b;
                batch.push((ids[k], b));
            }
            if frame % 2 == 1 {
                batch.push(batch[0]);
                batch.insert(batch.len() / 2, (stale, boxes[0]));
                // First in half the frames, so that its error is the one returned.
                let at = if frame % 4 == 1 { 0 } else { batch.len() / 3 };
                batch.insert(at, (foreign, boxes[0]));
            }
            if frame % 3 == 2 {
                // Proxies inserted since the last update (already in the move
                // buffer) move in the batch too, one of them twice.
                for i in 0..5 {
                    let b = random_box(&mut rng, side);
                    let id = single.insert(b, 0).unwrap();
                    for bp in &mut batched {
                        assert_eq!(bp.insert(b, 0), Ok(id), "seed {seed} frame {frame}");
                    }
                    let moved = random_move(&mut rng, &b, side, HALF);
                    batch.insert(batch.len() * i / 5, (id, moved));
                    live.push(id);
                }
                batch.push(batch[batch.len() / 5]);
            }
            let handles: Vec<ProxyId> = batch.iter().map(|m| m.0).collect();
            // Counts the calls per proxy; every 97th move fails, every 89th asks
            // for a box whose fat box overflows.
            let new_box = |k: usize, calls: &mut u32| {
                *calls += 1;
                if k % 97 == 13 {
                    Err(Error::NegativeValue)
                } else if k % 89 == 7 {
                    Ok(overflow)
                } else {
                    Ok(batch[k].1)
                }
            };
            let want = moves_one_by_one(&mut single, &handles, new_box);
            // Move 7 asks for the overflowing box (so the error paths run every
            // frame), unless the foreign handle comes first.
            let first = if frame % 4 == 1 {
                Error::StaleHandle
            } else {
                Error::InfiniteCoordinate
            };
            assert_eq!(want, Err(first), "seed {seed} frame {frame}");
            let want_changes = {
                let c = single.update();
                (c.began.to_vec(), c.ended.to_vec())
            };
            let want_pairs: Vec<Pair> = single.pairs().collect();
            assert_eq!(
                want_pairs,
                brute_force_pairs(&single, &live),
                "seed {seed} frame {frame}: the reference against every pair of fat boxes"
            );
            for (bp, pool) in batched.iter_mut().zip(&pools) {
                let t = pool.current_num_threads();
                let at = format!("seed {seed} frame {frame} threads {t}");
                let got = pool.install(|| bp.move_proxies_with(&handles, new_box));
                assert_eq!(got, want, "{at}");
                let changes = pool.install(|| {
                    let c = bp.update();
                    (c.began.to_vec(), c.ended.to_vec())
                });
                assert_eq!(changes, want_changes, "{at}");
                assert_eq!(bp.pairs().collect::<Vec<_>>(), want_pairs, "{at}");
                for &id in &live {
                    assert_eq!(bp.data(id), single.data(id), "{at}: calls");
                    assert_eq!(bp.fat_aabb(id), single.fat_aabb(id), "{at}: fat");
                    assert_eq!(bp.aabb(id), single.aabb(id), "{at}: tight");
                }
                bp.validate().unwrap_or_else(|e| panic!("{at}: {e}"));
            }
        }
    }
}
