//! A reference for the pair finders: every pair of overlapping boxes, found by sort and
//! sweep with no tree and no incremental state. The crate's tests and the main job
//! check the tree and the broadphase against it.

use crate::Aabb;

/// Every pair of overlapping boxes among `boxes` (closed boxes: touching counts, as in
/// [`Aabb::intersects`]), as `(k, l)` with `k < l`, sorted. Keys are expected to be
/// distinct; the output depends only on the keys and boxes given, not on their order.
///
/// Sort and sweep along x: with the boxes sorted by their lower x bound, each box is
/// tested against the ones after it until their lower x bound passes its upper one
/// (no later box can overlap it then). The cost is `O(n log n)` plus one box test per
/// pair that overlaps on x, so scenes whose boxes all share an x range (a column of
/// boxes, or boxes at one point) cost `O(n^2)`: this is a reference, not a broadphase.
///
/// ```
/// use broadphase::{Aabb, reference};
/// use glam::Vec3;
/// let cube = |x: f32| Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)).unwrap();
/// let boxes = [(7, cube(0.0)), (3, cube(1.0)), (5, cube(9.0)), (1, cube(0.5))];
/// // 7 and 3 touch at a face, which counts; 1 overlaps both; 5 is alone.
/// assert_eq!(reference::overlapping_pairs(&boxes), vec![(1, 3), (1, 7), (3, 7)]);
/// ```
pub fn overlapping_pairs<K: Copy + Ord>(boxes: &[(K, Aabb)]) -> Vec<(K, K)> {
    let mut sorted: Vec<&(K, Aabb)> = boxes.iter().collect();
    sorted.sort_by(|x, y| x.1.min().x.total_cmp(&y.1.min().x));
    let mut pairs = Vec::new();
    for (i, (ka, a)) in sorted.iter().enumerate() {
        for (kb, b) in &sorted[i + 1..] {
            if b.min().x > a.max().x {
                break;
            }
            if a.intersects(b) {
                pairs.push(if ka < kb { (*ka, *kb) } else { (*kb, *ka) });
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_box;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The sweep equals the test of every pair of boxes, on sparse and dense random
    /// scenes, half of them with boxes that share their lower x bound or touch on x.
    #[test]
    fn sweep_equals_every_pair_tested() {
        let mut rng = ChaCha8Rng::seed_from_u64(900);
        for case in 0..200 {
            let n = rng.random_range(0..300);
            let side = rng.random_range(1.0..20.0);
            let mut boxes: Vec<(u32, Aabb)> = (0..n)
                .map(|k| (k as u32, random_box(&mut rng, side, 0.0..1.5)))
                .collect();
            // Some boxes snapped to whole x bounds, so that lower bounds coincide and
            // boxes touch at a face.
            if case % 2 == 0 {
                for (_, b) in &mut boxes {
                    let (lo, hi) = (b.min(), b.max());
                    *b = Aabb::new(lo.with_x(lo.x.floor()), hi.with_x(hi.x.ceil())).unwrap();
                }
            }
            let mut want = Vec::new();
            for (i, (p, a)) in boxes.iter().enumerate() {
                for (q, b) in &boxes[i + 1..] {
                    if a.intersects(b) {
                        want.push(((*p).min(*q), (*p).max(*q)));
                    }
                }
            }
            want.sort_unstable();
            // Reversed: the output must not depend on the input order.
            boxes.reverse();
            assert_eq!(overlapping_pairs(&boxes), want, "seed 900, case {case}");
        }
    }
}
