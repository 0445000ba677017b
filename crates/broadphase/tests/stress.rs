//! One million boxes in the two classic worst cases for incremental trees: inserted
//! one by one sorted along a line, and all at the same point. No recursion means no
//! stack overflow; rotations keep insertion from degenerating into a list, and a
//! rebuild brings the height down to a logarithmic bound.

use broadphase::{Aabb, Broadphase, DynamicTree};
use glam::Vec3;

const N: usize = 1_000_000;

/// 2 log2(n) + 2: what the middle-split fallback and the SAH builder stay within.
fn log_bound(n: usize) -> u32 {
    2 * (usize::BITS - n.leading_zeros()) + 2
}

#[test]
fn million_boxes_sorted_along_a_line() {
    let mut tree = DynamicTree::new();
    for i in 0..N {
        let x = i as f32 * 0.5;
        let b = Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)).unwrap();
        tree.insert(b, i as u32);
    }
    tree.validate().unwrap();
    let incremental = tree.height();
    eprintln!("incremental height {incremental}");
    assert!(
        incremental <= 4 * log_bound(N),
        "incremental height {incremental}"
    );
    let mut hits = Vec::new();
    tree.query(
        &Aabb::new(Vec3::new(1000.2, 0.5, 0.5), Vec3::new(1000.3, 0.5, 0.5)).unwrap(),
        |p| hits.push(p),
    );
    hits.sort_unstable();
    assert_eq!(hits, vec![1999, 2000]);
    tree.rebuild();
    tree.validate().unwrap();
    eprintln!("rebuilt height {}", tree.height());
    assert!(
        tree.height() <= log_bound(N),
        "rebuilt height {}",
        tree.height()
    );
    // Every box overlaps its two neighbours on each side (closed boxes touch at 1.0).
    assert_eq!(tree.overlapping_pairs().len(), 2 * N - 3);
}

#[test]
fn million_boxes_at_the_same_point() {
    let b = Aabb::new(Vec3::splat(3.0), Vec3::splat(4.0)).unwrap();
    let mut tree = DynamicTree::new();
    for i in 0..N {
        tree.insert(b, i as u32);
    }
    tree.validate().unwrap();
    let incremental = tree.height();
    eprintln!("incremental height {incremental}");
    assert!(
        incremental <= 4 * log_bound(N),
        "incremental height {incremental}"
    );
    tree.rebuild();
    tree.validate().unwrap();
    eprintln!("rebuilt height {}", tree.height());
    assert!(
        tree.height() <= log_bound(N),
        "rebuilt height {}",
        tree.height()
    );
    let mut count = 0usize;
    tree.query(&b, |_| count += 1);
    assert_eq!(count, N);
}

#[test]
fn million_proxy_broadphase_bulk_insert_and_line() {
    // Through the pair manager: a bulk insert of sorted boxes, then one update that
    // finds every pair.
    let mut bp = Broadphase::new();
    let ids = bp
        .insert_many((0..N).map(|i| {
            let x = i as f32 * 2.0;
            (
                Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)).unwrap(),
                i,
            )
        }))
        .unwrap();
    assert!(bp.tree().height() <= log_bound(N));
    // Boxes 1 apart with 0.2 margin each side do not pair.
    assert_eq!(bp.update().began.len(), 0);
    bp.move_proxy(
        ids[10],
        Aabb::new(Vec3::new(21.5, 0.0, 0.0), Vec3::new(22.5, 1.0, 1.0)).unwrap(),
    )
    .unwrap();
    let changes = bp.update();
    assert_eq!(changes.began.len(), 1);
    assert_eq!(bp.pair_count(), 1);
}
