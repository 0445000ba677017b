//! Heap bytes a `World` holds per body and per persistent pair, measured with a
//! counting allocator on the main job's scene (mixed kinds, the main job's
//! density).
//!
//! `cargo run --release --example memory -- [bodies]` (default 20000). Per body:
//! the live heap after `add_many` (body table, broadphase records and tree), less
//! what the scene's shapes hold (hulls are shared). Per candidate pair: what the
//! first step adds and keeps (the broadphase's partner lists, the pair cache, the
//! contact ids of touching pairs, the broadphase's change lists and the tree's
//! all-pairs buffers), with the step's report dropped, after the first step and
//! after three more (when the pair cache's second buffer exists); the pair
//! cache's own share is given apart.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use gjk_core::Pose;
use gjk_core::glam::Vec3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use widephase::{Body, World, WorldConfig};
use workloads::workload::{SHAPE_KINDS, random_rotation, random_shape, standard_hulls};

/// The system allocator, counting the bytes live.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator with the caller's
// arguments; the counter only observes the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract for `realloc` is passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let side = (4.0 * n.max(1) as f32).cbrt() * 3.0;
    let hulls = standard_hulls(&mut rng);
    let bodies: Vec<Body> = (0..n)
        .map(|_| {
            let kind = SHAPE_KINDS[rng.random_range(0..SHAPE_KINDS.len())];
            let shape = random_shape(&mut rng, kind, &hulls);
            let centre = (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side;
            Body::new(shape, Pose::new(random_rotation(&mut rng), centre).unwrap())
        })
        .collect();
    let input = bodies.capacity() * std::mem::size_of::<Body>();
    let before = live();
    let mut world = World::with_config(WorldConfig {
        prediction: 0.05,
        ..Default::default()
    })?;
    world.add_many(bodies)?;
    // The input vector was freed inside `add_many`; its shapes (and their heap
    // data) moved into the world, where they are counted below.
    let loaded = live() + input - before;
    let report = world.step()?;
    let (candidates, touching) = (report.candidates, report.touching().count());
    let manifolds = report.manifolds.len();
    drop(report);
    let stepped = live() + input - before;
    let cache_first = world.pair_cache_bytes();
    let pairs = stepped - loaded;
    // Steady state: the pair cache's second buffer exists after the next step.
    for _ in 0..3 {
        world.step()?;
    }
    let steady = live() + input - before - loaded;
    println!(
        "{n} bodies: {loaded} bytes after add_many, {:.1} bytes per body",
        loaded as f64 / n as f64
    );
    println!(
        "first step: {candidates} candidate pairs ({manifolds} manifolds, {touching} touching): {pairs} bytes kept, {:.1} bytes per candidate pair, of which the pair cache and contact ids {:.1}",
        pairs as f64 / candidates.max(1) as f64,
        cache_first as f64 / candidates.max(1) as f64
    );
    println!(
        "after 3 more steps: {steady} bytes kept for pairs, {:.1} bytes per candidate pair, of which the pair cache (both buffers) and contact ids {:.1}",
        steady as f64 / candidates.max(1) as f64,
        world.pair_cache_bytes() as f64 / candidates.max(1) as f64
    );
    Ok(())
}
