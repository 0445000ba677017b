//! widephase's broadphase against bvh-arena 1.4 and parry3d 0.31's `partitioning::Bvh`
//! on the "standard boxes" (`BENCHMARKS.md`, section 1), in the same run.
//!
//! Workload: N boxes, side lengths uniform in 0.5..1.5 per axis, centres uniform in a
//! cube of side (4N)^(1/3) (about 1.95 overlaps per box). A frame moves a random 10% of
//! the boxes by a step of length 0.05 in a random direction (the choice of boxes and
//! directions is made in criterion's untimed setup), then updates the pairs.
//!
//! - `build`: construct the structure over the N tight boxes. widephase: binned-SAH
//!   `DynamicTree::from_aabbs` (and `Broadphase::insert_many`, which adds fat boxes and
//!   proxy slots); parry: `Bvh::from_leaves(Binned)`; bvh-arena: N inserts.
//! - `load`: a scene loaded from nothing: every box in, then every pair. widephase:
//!   `Broadphase::insert_many` and its first `update` (on the calling thread, and on
//!   a two-thread pool); parry: `Bvh::from_leaves(Binned)` and all pairs, on the
//!   same fat boxes (the tight boxes grown by the broadphase's default margin), so
//!   that both find the same pairs.
//! - `all_pairs`: on an already built tree of the tight boxes, find every overlapping
//!   pair from scratch into a `Vec` (no incremental state). widephase:
//!   `DynamicTree::overlapping_pairs`; parry: `traverse_bvtt_single_tree::<false>`;
//!   bvh-arena: `for_each_overlaping_pair`.
//! - `frame`: move 10% of the boxes and bring the pairs up to date, the caller's work
//!   of stepping each moved box and making its new box included. widephase: each box's
//!   centre and half extents live in its proxy's user data; the caller gathers the
//!   moved handles, one `move_proxies_with` batch steps the boxes and makes their new
//!   boxes inside the broadphase's pass over its records, then `Broadphase::update`
//!   (fat margin 0.2 x longest side, began/ended lists and the full pair set
//!   maintained). The baselines step the boxes in the caller's loop, and so does
//!   `widephase_boxes`: the same frame through `move_proxies` with a vector of new
//!   boxes made by the caller first. parry
//!   (as rapier does it):
//!   `insert_or_update_partially` with the same per-box margin, `refit`,
//!   `optimize_incremental`, `traverse_bvtt_single_tree::<true>` collecting the pairs of
//!   changed leaves (no pair-set bookkeeping, which favours parry). bvh-arena: remove +
//!   insert per moved box, then all pairs again (it has no update).
//! - `threads`: widephase's frame and all-pairs on rayon pools of 1 and 2 threads (all
//!   pairs also called from a thread of the pool, `_on_pool`), and
//!   the frame's broadphase part alone with the boxes made ahead (`move_update`:
//!   `move_proxies` + `update`, the caller's batch of new boxes made in the untimed
//!   setup).
//!
//! The other groups run everything on the calling thread with rayon's global pool set
//! to one thread (widephase then takes its serial paths).
//!
//! Run: `CARGO_TARGET_DIR=target-bp cargo bench -p broadphase --bench broadphase`
//! (`BP_SIZES=100000` to pick sizes, `BP_BASELINES=0` to skip parry and bvh-arena).

use std::hint::black_box;
use std::time::Duration;

use broadphase::{Aabb, Broadphase, BroadphaseConfig, DynamicTree, ProxyId};
use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

type ArenaBvh = bvh_arena::Bvh<u32, bvh_arena::volumes::Aabb<3>>;

struct Scene {
    centres: Vec<Vec3>,
    half: Vec<Vec3>,
}

impl Scene {
    fn new(n: usize, seed: u64) -> Self {
        let (centres, half, _) = workloads::boxes::standard_boxes(n, seed);
        Self { centres, half }
    }

    fn aabb(&self, i: usize) -> Aabb {
        Aabb::from_center_half_extents(self.centres[i], self.half[i]).unwrap()
    }

    fn aabbs(&self) -> Vec<Aabb> {
        (0..self.centres.len()).map(|i| self.aabb(i)).collect()
    }

    fn parry(&self, i: usize) -> parry3d::bounding_volume::Aabb {
        parry3d::bounding_volume::Aabb::new(
            self.centres[i] - self.half[i],
            self.centres[i] + self.half[i],
        )
    }

    fn arena(&self, i: usize) -> bvh_arena::volumes::Aabb<3> {
        bvh_arena::volumes::Aabb::from_min_max(
            self.centres[i] - self.half[i],
            self.centres[i] + self.half[i],
        )
    }
}

/// One frame's moves: 10% distinct random boxes, each with a step of length 0.05.
fn frame_moves(rng: &mut ChaCha8Rng, n: usize) -> Vec<(u32, Vec3)> {
    rand::seq::index::sample(rng, n, n / 10)
        .into_iter()
        .map(|i| {
            let d = loop {
                let v = Vec3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                );
                let l = v.length_squared();
                if l > 1e-4 && l <= 1.0 {
                    break v / l.sqrt();
                }
            };
            (i as u32, d * 0.05)
        })
        .collect()
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.sample_size(if n >= 100_000 { 10 } else { 30 });
}

/// A moving box as the caller keeps it, in the broadphase's user data (as a physics
/// engine keeps a body's pose and shape).
#[derive(Clone, Copy)]
struct Body {
    centre: Vec3,
    half: Vec3,
}

impl Body {
    fn aabb(&self) -> Aabb {
        Aabb::from_center_half_extents(self.centre, self.half).unwrap()
    }
}

struct Ours {
    bp: Broadphase<Body>,
    ids: Vec<ProxyId>,
}

impl Ours {
    fn new(n: usize) -> Self {
        let scene = Scene::new(n, 42);
        let mut bp = Broadphase::with_config(BroadphaseConfig::default()).unwrap();
        let ids = bp
            .insert_many((0..n).map(|i| {
                let body = Body {
                    centre: scene.centres[i],
                    half: scene.half[i],
                };
                (body.aabb(), body)
            }))
            .unwrap();
        bp.update();
        Self { bp, ids }
    }

    /// A whole frame: the caller gathers the moved bodies' handles, then
    /// `move_proxies_with` steps each body and makes its new box inside the
    /// broadphase's pass over the records (in parallel on a pool of several threads),
    /// and `update` brings the pairs up to date.
    fn frame(&mut self, moves: &[(u32, Vec3)]) -> usize {
        let ids: Vec<ProxyId> = moves.iter().map(|&(i, _)| self.ids[i as usize]).collect();
        self.bp
            .move_proxies_with(&ids, |k, body: &mut Body| {
                body.centre += moves[k].1;
                Aabb::from_center_half_extents(body.centre, body.half)
            })
            .unwrap();
        let c = self.bp.update();
        c.began.len() + c.ended.len()
    }

    /// The caller's side of a frame made ahead, as `move_proxies` takes it: the moved
    /// bodies' new tight boxes.
    fn batch(&mut self, moves: &[(u32, Vec3)]) -> Vec<(ProxyId, Aabb)> {
        moves
            .iter()
            .map(|&(i, d)| {
                let id = self.ids[i as usize];
                let body = self.bp.data_mut(id).unwrap();
                body.centre += d;
                (id, body.aabb())
            })
            .collect()
    }

    /// The broadphase's side of a frame whose boxes were made ahead: `move_proxies`
    /// and `update`.
    fn apply(&mut self, batch: &[(ProxyId, Aabb)]) -> usize {
        self.bp.move_proxies(batch).unwrap();
        let c = self.bp.update();
        c.began.len() + c.ended.len()
    }
}

struct Parry {
    scene: Scene,
    bvh: Bvh,
    ws: BvhWorkspace,
    config: BroadphaseConfig,
    pairs: Vec<(u32, u32)>,
}

impl Parry {
    fn new(n: usize) -> Self {
        let scene = Scene::new(n, 42);
        let config = BroadphaseConfig::default();
        let mut bvh = Bvh::new();
        for i in 0..n {
            let m = config.margin(&scene.aabb(i));
            bvh.insert_or_update_partially(scene.parry(i), i as u32, m);
        }
        let mut ws = BvhWorkspace::default();
        bvh.refit(&mut ws);
        let mut p = Self {
            scene,
            bvh,
            ws,
            config,
            pairs: Vec::new(),
        };
        p.frame(&[]);
        p
    }

    fn frame(&mut self, moves: &[(u32, Vec3)]) -> usize {
        for &(i, d) in moves {
            let i = i as usize;
            self.scene.centres[i] += d;
            let m = self.config.margin(&self.scene.aabb(i));
            self.bvh
                .insert_or_update_partially(self.scene.parry(i), i as u32, m);
        }
        self.bvh.refit(&mut self.ws);
        self.bvh.optimize_incremental(&mut self.ws);
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .traverse_bvtt_single_tree::<true>(&mut self.ws, &mut |a, b| pairs.push((a, b)));
        self.pairs.len()
    }
}

struct Arena {
    scene: Scene,
    bvh: ArenaBvh,
    handles: Vec<bvh_arena::VolumeHandle>,
    pairs: Vec<(u32, u32)>,
}

impl Arena {
    fn new(n: usize) -> Self {
        let scene = Scene::new(n, 42);
        let mut bvh = ArenaBvh::default();
        let handles = (0..n)
            .map(|i| bvh.insert(i as u32, scene.arena(i)))
            .collect();
        Self {
            scene,
            bvh,
            handles,
            pairs: Vec::new(),
        }
    }

    fn frame(&mut self, moves: &[(u32, Vec3)]) -> usize {
        for &(i, d) in moves {
            let i = i as usize;
            self.scene.centres[i] += d;
            self.bvh.remove(self.handles[i]);
            self.handles[i] = self.bvh.insert(i as u32, self.scene.arena(i));
        }
        self.pairs.clear();
        let pairs = &mut self.pairs;
        self.bvh
            .for_each_overlaping_pair(|a, b| pairs.push((*a, *b)));
        self.pairs.len()
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn bench_size(c: &mut Criterion, n: usize, with_arena: bool, with_parry: bool) {
    let one = pool(1);
    let two = pool(2);
    let scene = Scene::new(n, 42);
    let boxes = scene.aabbs();
    let parry_boxes: Vec<_> = (0..n).map(|i| scene.parry(i)).collect();

    // Loading a scene: every box in, then every pair. widephase: `insert_many` (a
    // binned SAH build of the whole set) and the first `update` (all pairs from
    // the tree, then the partner lists), on the calling thread and on a
    // two-thread pool; parry: its binned `Bvh` build and all pairs
    // (`traverse_bvtt_single_tree`), which keeps no pair set.
    let mut g = c.benchmark_group(format!("load/{n}"));
    configure(&mut g, n);
    let load = || {
        let mut bp = Broadphase::new();
        bp.insert_many(boxes.iter().map(|&x| (x, ()))).unwrap();
        let began = bp.update().began.len();
        (bp, began)
    };
    // Outputs are dropped outside the timing (`iter_with_large_drop`): freeing a
    // loaded scene is not part of loading it, for either library.
    g.bench_function("widephase_insert_many_update", |b| {
        b.iter_with_large_drop(load)
    });
    g.bench_function("widephase_insert_many_update_2_threads", |b| {
        b.iter_with_large_drop(|| two.install(load))
    });
    if with_parry {
        // The same boxes as the broadphase's pairs: the tight boxes grown by the
        // default fat margin, so that both find the same pairs.
        let config = BroadphaseConfig::default();
        let fat: Vec<_> = boxes
            .iter()
            .map(|b| {
                let f = config.fat_box(b).unwrap();
                parry3d::bounding_volume::Aabb::new(f.min(), f.max())
            })
            .collect();
        g.bench_function("parry_build_all_pairs", |b| {
            b.iter_with_large_drop(|| {
                let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, black_box(&fat));
                let mut ws = BvhWorkspace::default();
                let mut pairs = Vec::new();
                bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| pairs.push((a, b)));
                (bvh, pairs)
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group(format!("build/{n}"));
    configure(&mut g, n);
    g.bench_function("widephase_tree", |b| {
        b.iter(|| DynamicTree::from_aabbs(black_box(&boxes)))
    });
    g.bench_function("widephase_broadphase_insert_many", |b| {
        b.iter(|| {
            let mut bp = Broadphase::new();
            bp.insert_many(boxes.iter().map(|&x| (x, ()))).unwrap();
            bp
        })
    });
    if with_parry {
        g.bench_function("parry_bvh", |b| {
            b.iter(|| Bvh::from_leaves(BvhBuildStrategy::Binned, black_box(&parry_boxes)))
        });
    }
    if with_arena {
        g.bench_function("bvh_arena", |b| {
            b.iter(|| {
                let mut bvh = ArenaBvh::default();
                for i in 0..n {
                    bvh.insert(i as u32, scene.arena(i));
                }
                bvh
            })
        });
    }
    g.finish();

    let (tree, _) = DynamicTree::from_aabbs(&boxes);
    let mut g = c.benchmark_group(format!("all_pairs/{n}"));
    configure(&mut g, n);
    // On the calling thread like the baselines (the global pool has one thread, so the
    // serial path runs); a pool `install` would add a thread hand-off per call.
    g.bench_function("widephase", |b| b.iter(|| tree.overlapping_pairs()));
    if with_parry {
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry_boxes);
        let mut ws = BvhWorkspace::default();
        g.bench_function("parry_bvh", |b| {
            b.iter(|| {
                let mut pairs = Vec::new();
                bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| pairs.push((a, b)));
                pairs
            })
        });
    }
    if with_arena {
        let mut bvh = ArenaBvh::default();
        for i in 0..n {
            bvh.insert(i as u32, scene.arena(i));
        }
        g.bench_function("bvh_arena", |b| {
            b.iter(|| {
                let mut pairs = Vec::new();
                bvh.for_each_overlaping_pair(|a, b| pairs.push((*a, *b)));
                pairs
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group(format!("frame/{n}"));
    configure(&mut g, n);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut ours = Ours::new(n);
    g.bench_function("widephase", |b| {
        b.iter_batched(
            || frame_moves(&mut rng, n),
            |m| ours.frame(&m),
            BatchSize::LargeInput,
        )
    });
    // The same frame with the caller's loop making a vector of new boxes first and
    // `move_proxies` taking it, as the baselines' callers do.
    let mut ours = Ours::new(n);
    g.bench_function("widephase_boxes", |b| {
        b.iter_batched(
            || frame_moves(&mut rng, n),
            |m| {
                let batch = ours.batch(&m);
                ours.apply(&batch)
            },
            BatchSize::LargeInput,
        )
    });
    if with_parry {
        let mut parry = Parry::new(n);
        g.bench_function("parry_bvh", |b| {
            b.iter_batched(
                || frame_moves(&mut rng, n),
                |m| parry.frame(&m),
                BatchSize::LargeInput,
            )
        });
    }
    if with_arena {
        let mut arena = Arena::new(n);
        g.bench_function("bvh_arena", |b| {
            b.iter_batched(
                || frame_moves(&mut rng, n),
                |m| arena.frame(&m),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();

    let mut g = c.benchmark_group(format!("threads/{n}"));
    configure(&mut g, n);
    for (name, p) in [("1", &one), ("2", &two)] {
        let mut ours = Ours::new(n);
        g.bench_function(format!("frame_{name}_thread"), |b| {
            b.iter_batched(
                || frame_moves(&mut rng, n),
                |m| p.install(|| ours.frame(&m)),
                BatchSize::LargeInput,
            )
        });
        g.bench_function(format!("all_pairs_{name}_thread"), |b| {
            b.iter(|| p.install(|| tree.overlapping_pairs()))
        });
        // The same calls from a thread of the pool (`install` once around the
        // timing loop), as from an engine step that already runs on the pool: no
        // hand-off per call, the workers stay awake between calls.
        g.bench_function(format!("all_pairs_{name}_thread_on_pool"), |b| {
            p.install(|| b.iter(|| tree.overlapping_pairs()))
        });
        // The broadphase's own part of the frame (`move_proxies` + `update`), with the
        // caller's batch of new boxes (serial, the same for any thread count) made in
        // the untimed setup.
        let ours = std::cell::RefCell::new(Ours::new(n));
        g.bench_function(format!("move_update_{name}_thread"), |b| {
            b.iter_batched(
                || ours.borrow_mut().batch(&frame_moves(&mut rng, n)),
                |batch| {
                    let o: &mut Ours = &mut ours.borrow_mut();
                    p.install(|| o.apply(&batch))
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    // The one-thread figures run on the calling thread: with a one-thread global pool,
    // widephase takes its serial paths (no task hand-off), like the baselines. The
    // `threads` group compares dedicated 1- and 2-thread pools (both pay `install`).
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .expect("global pool");
    // `BP_SIZES=1000,100000` restricts the scene sizes (setup is not free at 1M).
    let sizes: Vec<usize> = std::env::var("BP_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000, 100_000, 1_000_000]);
    let baselines = std::env::var("BP_BASELINES")
        .map(|v| v != "0")
        .unwrap_or(true);
    for n in sizes {
        // bvh-arena's build alone takes seconds at 1M: it is measured up to 100k.
        bench_size(c, n, baselines && n <= 100_000, baselines);
    }
}

criterion_group!(broadphase_benches, benches);
criterion_main!(broadphase_benches);
