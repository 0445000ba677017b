//! Eight convex hulls, each lane its own hull with its own vertex count.

use std::sync::Arc;

use gjk_core::tolerance::MAX_SIZE;
use gjk_core::{ConvexHull, Shape, SupportMap};
use glam::Vec3;
use wide::f32x8;

use super::shape_x8::LaneShape;
use crate::feature_x8::{FEATURE_X8_VERTICES, FeatureMapX8, FeatureX8};
use crate::math::{CmpX8, MaskX8, Vec3X8};
use crate::support_x8::SupportMapX8;

/// Eight convex polytopes given by their vertices (the twin of
/// [`gjk_core::ConvexHull`]); lane `i` may hold a different hull with a different
/// vertex count than lane `j`.
///
/// Vertices are stored by index across lanes: row `j` holds vertex `j` of every
/// lane. A lane with fewer vertices than the longest, and every lane past the
/// longest up to a whole group of four rows, repeats its last vertex. The support
/// scan keeps the first maximum, so a repeated vertex never wins over the original and
/// ties go to the lowest index, as in `gjk-core`'s scan; no per-row count mask is
/// needed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConvexHullX8 {
    rows: Vec<Vec3X8>,
    counts: [u32; 8],
    bounding_radius: f32x8,
    finite: Mask8Default,
    /// Addresses of the `ConvexHull`s the lanes were last packed from by the batch
    /// driver (0: not packed from shapes). Within one driver call the shapes are
    /// borrowed, so equal addresses mean equal hulls and the rows can be reused.
    packed_from: [usize; 8],
    /// The hulls the batch driver packed the lanes from, shared with their
    /// `Shape`s: a hull's faces, which name its support features, live there
    /// ([`FeatureMapX8::support_feature_x8`]). `None` in lanes built from
    /// vertex lists or borrowed hulls, whose features are not held.
    shared: [Option<Arc<ConvexHull>>; 8],
    /// The vertex count of every lane when all lanes have the same (else 0): the
    /// scan's trip count without looking at the active lanes.
    uniform_count: usize,
    /// When every lane holds the same hull: its vertices eight at a time, chunk
    /// `c` holding the coordinates of vertices `8c..8c + 8` (else empty). The
    /// support then takes each lane's point with one permute per chunk and
    /// coordinate instead of one select per lane and coordinate.
    columns: Vec<[f32x8; 3]>,
}

/// `MaskX8` defaulting to "no lane" (private helper so `ConvexHullX8` can derive `Default`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mask8Default(MaskX8);

impl Default for Mask8Default {
    fn default() -> Self {
        Mask8Default(MaskX8::NONE)
    }
}

impl ConvexHullX8 {
    /// Hull `i` of `hulls` in lane `i` (at most 8 are used; missing lanes are empty
    /// and report invalid input if queried). The lanes hold the hulls'
    /// vertices, not their faces: their support features are not held, and
    /// [`manifold_x8`](crate::manifold_x8) leaves them to the scalar reference
    /// (see [`ConvexHullX8::from_shared`]).
    pub fn from_hulls(hulls: &[&ConvexHull]) -> Self {
        let mut h = ConvexHullX8::default();
        let lanes: Vec<(&[Vec3], f32)> = hulls
            .iter()
            .take(8)
            .map(|h| (h.vertices(), h.bounding_radius()))
            .collect();
        h.fill(&lanes);
        h
    }

    /// Hull `i` of `hulls` in lane `i`, as [`ConvexHullX8::from_hulls`], each
    /// kept shared so that its lane also names its support features (the faces
    /// the wide manifolds clip), as the batch driver packs hulls.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use gjk_core::ConvexHull;
    /// use gjk_core::glam::Vec3;
    /// use gjk_simd::{ConvexHullX8, FeatureMapX8, MaskX8, Vec3X8};
    ///
    /// let cube: Vec<Vec3> = (0..8)
    ///     .map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32) - 0.5)
    ///     .collect();
    /// let hull = Arc::new(ConvexHull::from_points(&cube)?);
    /// let wide = ConvexHullX8::from_shared(&[hull.clone(), hull]);
    /// // Seen from below, the bottom face: four vertices in the lanes holding a hull.
    /// let face = wide.support_feature_x8(Vec3X8::splat(-Vec3::Y), MaskX8::ALL);
    /// assert_eq!(face.lane(0).unwrap().vertices().len(), 4);
    /// assert!(face.lane(2).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_shared(hulls: &[Arc<ConvexHull>]) -> Self {
        let borrowed: Vec<&ConvexHull> = hulls.iter().map(|h| &**h).collect();
        let mut wide = ConvexHullX8::from_hulls(&borrowed);
        for (slot, hull) in wide.shared.iter_mut().zip(hulls) {
            *slot = Some(Arc::clone(hull));
        }
        wide
    }

    /// Unvalidated vertex lists, one per lane (at most 8 are used). The bounding
    /// radius of each lane is its farthest vertex's distance from the origin. An
    /// empty list, or a coordinate that is not finite or exceeds
    /// [`MAX_SIZE`](gjk_core::tolerance::MAX_SIZE) (as `ConvexHull::from_points`
    /// refuses), makes that lane invalid input.
    pub fn from_vertices(lanes: &[&[Vec3]]) -> Self {
        let mut h = ConvexHullX8::default();
        let lanes: Vec<(&[Vec3], f32)> = lanes
            .iter()
            .take(8)
            .map(|v| (*v, v.iter().map(|p| p.length()).fold(0.0, f32::max)))
            .collect();
        h.fill(&lanes);
        h
    }

    /// Number of vertices in each lane.
    pub fn counts(&self) -> [u32; 8] {
        self.counts
    }

    /// Refills this hull set (reusing its allocation) from vertex lists with their
    /// bounding radii.
    fn fill(&mut self, lanes: &[(&[Vec3], f32)]) {
        // Vertex lists name no faces, and no driver packing stands behind them.
        self.shared = Default::default();
        self.packed_from = [0; 8];
        let rows = lanes.iter().map(|l| l.0.len()).max().unwrap_or(0);
        self.rows.clear();
        self.rows.resize(padded_rows(rows), Vec3X8::ZERO);
        self.counts = [0; 8];
        let mut radius = [0.0f32; 8];
        let mut finite = [false; 8];
        for (lane, &(verts, r)) in lanes.iter().enumerate() {
            self.counts[lane] = verts.len() as u32;
            radius[lane] = r;
            finite[lane] = !verts.is_empty()
                && verts
                    .iter()
                    .all(|v| v.is_finite() && v.abs().max_element() <= MAX_SIZE);
            for (j, row) in self.rows.iter_mut().enumerate() {
                row.set_lane(lane, vertex_or_last(verts, j));
            }
        }
        self.bounding_radius = f32x8::new(radius);
        self.finite = Mask8Default(MaskX8::from_bools(finite) & f32x8::new(radius).finite());
        self.uniform_count = self.common_count();
        let one_list = lanes.len() == 8 && lanes.iter().all(|l| std::ptr::eq(l.0, lanes[0].0));
        self.set_columns(if one_list { lanes[0].0 } else { &[] });
    }

    /// Sets [`ConvexHullX8::columns`] from the vertex list every lane holds (empty: the
    /// lanes differ), padded as the rows are.
    fn set_columns(&mut self, verts: &[Vec3]) {
        self.columns.clear();
        self.columns.extend((0..verts.len().div_ceil(8)).map(|c| {
            let at = |k: usize| vertex_or_last(verts, 8 * c + k);
            let coordinate = |c: fn(Vec3) -> f32| f32x8::new(std::array::from_fn(|k| c(at(k))));
            [
                coordinate(|v| v.x),
                coordinate(|v| v.y),
                coordinate(|v| v.z),
            ]
        }));
    }

    /// The common vertex count of all lanes, or 0 when they differ.
    fn common_count(&self) -> usize {
        let c = self.counts[0];
        if self.counts.iter().all(|&x| x == c) {
            c as usize
        } else {
            0
        }
    }

    /// The longest vertex list among the lanes of `active`, rounded up to whole
    /// groups of four rows: the scan's length, so finished lanes with big hulls do
    /// not slow down the others.
    #[inline(always)]
    fn rows_for(&self, active: MaskX8) -> usize {
        if self.uniform_count != 0 {
            return padded_rows(self.uniform_count).min(self.rows.len());
        }
        let bits = active.bitmask();
        let mut n = 0;
        for (lane, &c) in self.counts.iter().enumerate() {
            if bits >> lane & 1 == 1 {
                n = n.max(c as usize);
            }
        }
        padded_rows(n).min(self.rows.len())
    }
}

/// Vertex `j` of a lane's list, or its last vertex past the list's end (zero for
/// an empty list, whose lane is invalid input): what rows and chunks hold past a
/// list's end, which the first-maximum scan never prefers to the original.
#[inline(always)]
fn vertex_or_last(verts: &[Vec3], j: usize) -> Vec3 {
    verts.get(j).or(verts.last()).copied().unwrap_or(Vec3::ZERO)
}

/// Rows stored for a longest hull of `n` vertices: whole groups of four (the scan
/// takes four rows a step), at least one group. Padding rows repeat each lane's
/// last vertex, which the scan's first-maximum rule never prefers to the original.
#[inline(always)]
fn padded_rows(n: usize) -> usize {
    n.max(1).next_multiple_of(4)
}

/// Each lane's vertex `best` (row indices as floats, all below the hull's vertex
/// count) when every lane holds the hull of `columns`: per chunk of eight
/// vertices (sixteen with AVX-512, whose `vpermt2ps` permutes across two
/// registers), one permute by the index's low bits for each coordinate, kept in
/// the lanes whose index reaches that chunk. `None` without AVX2's cross-lane
/// permute, or when the lanes hold different hulls (`columns` empty).
///
/// The AVX-512 form halves both the permutes' selects and the chain of selects
/// the point waits on: about 10 instructions for 32 vertices instead of about 25.
#[inline(always)]
fn fetch_from_columns(columns: &[[f32x8; 3]], best: f32x8) -> Option<Vec3X8> {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512vl"))]
    {
        use std::arch::x86_64::{__m256i, _mm256_permutex2var_ps};
        let index: __m256i = best.round_int().into();
        // SAFETY: `vpermt2ps` only reads its register operands, and this code is
        // compiled only when the target has AVX-512F and VL (the `cfg` above, VL
        // implying F), so the instruction exists wherever the binary runs.
        let permute_two = |lo: f32x8, hi: f32x8| -> f32x8 {
            unsafe { _mm256_permutex2var_ps(lo.into(), index, hi.into()) }.into()
        };
        // Index bit 3 picks `hi`; a lone last chunk stands in for both.
        fetch_in_groups(columns, best, 2, |pair| {
            let (lo, hi) = (&pair[0], pair.last().unwrap_or(&pair[0]));
            Vec3X8::new(
                permute_two(lo[0], hi[0]),
                permute_two(lo[1], hi[1]),
                permute_two(lo[2], hi[2]),
            )
        })
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(target_feature = "avx512vl")
    ))]
    {
        use std::arch::x86_64::{__m256i, _mm256_permutevar8x32_ps};
        let index: __m256i = best.round_int().into();
        // SAFETY: `vpermps` only reads its register operands, and this code is
        // compiled only when the target has AVX2 (the `cfg` above), so the
        // instruction exists wherever the binary runs.
        let permute_one =
            |v: f32x8| -> f32x8 { unsafe { _mm256_permutevar8x32_ps(v.into(), index) }.into() };
        fetch_in_groups(columns, best, 1, |chunk| {
            let c = &chunk[0];
            Vec3X8::new(permute_one(c[0]), permute_one(c[1]), permute_one(c[2]))
        })
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        let _ = (columns, best);
        None
    }
}

/// The select chain of [`fetch_from_columns`]: `permute` takes each lane's point
/// from a group of `group` chunks (8 vertices each) by the index's low bits, and
/// each lane keeps the group its index `best` reaches. `None` for no chunks.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn fetch_in_groups(
    columns: &[[f32x8; 3]],
    best: f32x8,
    group: usize,
    permute: impl Fn(&[[f32x8; 3]]) -> Vec3X8,
) -> Option<Vec3X8> {
    let mut groups = columns.chunks(group);
    let mut point = permute(groups.next()?);
    let step = f32x8::splat((8 * group) as f32);
    let mut start = f32x8::ZERO;
    for g in groups {
        start += step;
        point = best.ge(start).select(permute(g), point);
    }
    Some(point)
}

impl SupportMapX8 for ConvexHullX8 {
    /// Lockstep scan over the vertex index, all lanes at once: per row, one dot
    /// product, a maximum and a select of the row's index; then each lane's point
    /// is taken from the row its index names.
    ///
    /// Carrying the index instead of the point saves three of the four selects a
    /// row and lets the rows be read straight into the dot products. The result
    /// is exactly the sequential scan's (the lowest index among ties).
    #[inline(always)]
    fn support_core(&self, dir: Vec3X8, active: MaskX8) -> Vec3X8 {
        let rows = &self.rows[..self.rows_for(active)];
        if rows.is_empty() {
            return Vec3X8::ZERO;
        }
        // Four chains, chain `s` taking rows `4k + s` (one chain would be bound by
        // the latency of compare-and-select); each carries, per lane, its best dot
        // product and that row's `k` (exact in f32).
        type Best = (f32x8, f32x8);
        let (first, rest) = rows.split_at(4);
        let mut b: [Best; 4] = std::array::from_fn(|s| (first[s].dot(dir), f32x8::ZERO));
        let mut k = f32x8::ZERO;
        for quad in rest.chunks_exact(4) {
            k += f32x8::ONE;
            for (best, row) in b.iter_mut().zip(quad) {
                let d = row.dot(dir);
                // `d > best_dot ? d : best_dot` is one max; the index needs the select.
                *best = (d.fast_max(best.0), d.gt(best.0).select(k, best.1));
            }
        }
        // The chains' winners as row indices `4k + s`, merged keeping the larger
        // dot product and, among equal ones, the lower row: the first maximum, as
        // a sequential scan with a strict `>` finds it.
        let four = f32x8::splat(4.0);
        let (_, best) = (1..4).fold((b[0].0, b[0].1 * four), |(best_dot, best), s| {
            let (d, i) = (b[s].0, b[s].1.mul_add(four, f32x8::splat(s as f32)));
            let better = d.gt(best_dot) | (d.same(best_dot) & i.lt(best));
            (better.select(d, best_dot), better.select(i, best))
        });
        if let Some(point) = fetch_from_columns(&self.columns, best) {
            return point;
        }
        // Lane `l` of row `i` is vertex `i` of lane `l`'s hull: each lane's point
        // is one select from its row (no lane-by-lane stores to reassemble).
        let best = best.round_int().to_array();
        let mut point = Vec3X8::ZERO;
        for (lane, &i) in best.iter().enumerate() {
            point = MaskX8::from_bitmask(1 << lane).select(rows[i as usize], point);
        }
        point
    }
    #[inline(always)]
    fn bounding_radius(&self) -> f32x8 {
        self.bounding_radius
    }
    fn finite(&self) -> MaskX8 {
        self.finite.0
    }
}

impl FeatureMapX8 for ConvexHullX8 {
    const MAX_VERTICES: usize = FEATURE_X8_VERTICES;
    /// Each lane's feature from its shared hull, looked up lane by lane (the
    /// hull's polygons are its own); neither held nor named in lanes outside
    /// `lanes` or without a shared hull (see [`ConvexHullX8::from_hulls`]).
    #[inline(always)]
    fn support_feature_x8(&self, dir: Vec3X8, lanes: MaskX8) -> FeatureX8 {
        let bits = lanes.bitmask();
        FeatureX8::gather(|k, f| {
            let Some(hull) = self.shared[k].as_ref().filter(|_| bits >> k & 1 == 1) else {
                return false;
            };
            hull.support_feature(dir.lane(k), f);
            true
        })
    }
    #[inline(always)]
    fn bounding_radius_glam(&self) -> f32x8 {
        self.bounding_radius
    }
}

impl LaneShape for ConvexHullX8 {
    /// Lanes holding the same hull (by address) are filled together: each row
    /// blends a splat of that hull's vertex into the lanes' mask, so a batch of one
    /// hull costs one splat per row and a batch of k distinct hulls k blends per
    /// row. Rows are reused outright when the lanes' hulls repeat.
    fn pack(&mut self, shapes: &[&Shape; 8]) {
        let shared: [Option<&Arc<ConvexHull>>; 8] = shapes.map(|s| match s {
            Shape::ConvexHull(h) => Some(h),
            _ => None,
        });
        let hulls: [Option<&ConvexHull>; 8] = shared.map(|h| h.map(|h| &**h));
        let addresses = hulls.map(|h| h.map_or(0, |h| std::ptr::from_ref(h) as usize));
        if addresses[0] != 0 && addresses == self.packed_from {
            return;
        }
        self.packed_from = addresses;
        self.shared = shared.map(|h| h.cloned());
        let Some(first) = hulls[0] else {
            // Not hulls (never from the driver): no valid lane.
            *self = ConvexHullX8::default();
            return;
        };
        let rows = hulls
            .iter()
            .map(|h| h.map_or(0, |h| h.vertices().len()))
            .max()
            .unwrap_or(0);
        // The lanes' distinct hulls, each with the mask of the lanes holding it;
        // the first fills every lane, the others are blended over it.
        let mut groups: [(&ConvexHull, MaskX8); 8] = [(first, MaskX8::NONE); 8];
        let mut distinct = 0;
        let mut radius = [0.0f32; 8];
        let mut done = 0u8;
        for lane in 0..8 {
            let Some(h) = hulls[lane] else {
                self.counts[lane] = 0;
                continue;
            };
            self.counts[lane] = h.vertices().len() as u32;
            radius[lane] = h.bounding_radius();
            if done >> lane & 1 == 1 {
                continue;
            }
            let mask = MaskX8::from_bools(addresses.map(|a| a == addresses[lane]));
            done |= mask.bitmask();
            groups[distinct] = (h, mask);
            distinct += 1;
        }
        // Each row is built in registers and stored once. Blending into the
        // stored rows instead let the compiler turn each blend into a masked
        // store (`vmaskmovps`), which AMD's Zen cores microcode.
        let splat_row = |v: &[Vec3], j: usize| Vec3X8::splat(vertex_or_last(v, j));
        self.rows.clear();
        let padded = padded_rows(rows);
        if distinct == 1 {
            // One hull in every lane (the driver sorts hull pairs together, so
            // most batches): its vertices splatted in order, then the padding.
            let v = first.vertices();
            self.rows.extend(v.iter().map(|&p| Vec3X8::splat(p)));
            self.rows.resize(padded, splat_row(v, v.len()));
            // Lanes without a hull (never from the driver) keep the selects.
            if hulls.iter().all(Option::is_some) {
                self.set_columns(v);
            } else {
                self.columns.clear();
            }
        } else {
            self.columns.clear();
            let groups = &groups[1..distinct];
            self.rows.extend((0..padded).map(|j| {
                groups
                    .iter()
                    .fold(splat_row(first.vertices(), j), |row, &(h, mask)| {
                        mask.select(splat_row(h.vertices(), j), row)
                    })
            }));
        }
        self.bounding_radius = f32x8::new(radius);
        self.uniform_count = self.common_count();
        // Validated hulls have finite vertices and radii.
        self.finite = Mask8Default(MaskX8::from_bools(hulls.map(|h| h.is_some())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The driver's packing keeps each lane's hull, so that its lanes name
    /// their faces: on first packing, when the same hulls come again (the rows
    /// reused), and when other shapes replace them.
    #[test]
    fn packed_lanes_name_their_hulls_faces() {
        let cube: Vec<Vec3> = (0..8)
            .map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32) - 0.5)
            .collect();
        let hull: Shape = ConvexHull::from_points(&cube).unwrap().into();
        let ball: Shape = gjk_core::Sphere::new(1.0).unwrap().into();
        let down = Vec3X8::splat(-Vec3::Y);
        let mut wide = ConvexHullX8::default();
        let named = |w: &ConvexHullX8| {
            let f = w.support_feature_x8(down, MaskX8::ALL);
            (0..8)
                .filter(|&k| f.lane(k).is_some_and(|f| f.vertices().len() == 4))
                .count()
        };
        wide.pack(&[&hull; 8]);
        assert_eq!(named(&wide), 8);
        wide.pack(&[&hull; 8]);
        assert_eq!(named(&wide), 8);
        let mut mixed = [&hull; 8];
        mixed[3] = &ball;
        wide.pack(&mixed);
        assert_eq!(named(&wide), 7);
        wide.pack(&[&ball; 8]);
        assert_eq!(named(&wide), 0);
    }

    #[test]
    fn scan_matches_scalar_with_ragged_lanes() {
        let cube: Vec<Vec3> = (0..8)
            .map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32) - 0.5)
            .collect();
        let tetra = vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        let hc = ConvexHull::from_points(&cube).unwrap();
        let ht = ConvexHull::from_points(&tetra).unwrap();
        let hulls = [&hc, &ht, &hc, &ht];
        let wide = ConvexHullX8::from_hulls(&hulls);
        let dirs = [Vec3::new(1.0, 2.0, -0.5), Vec3::new(-1.0, -1.0, -1.0)];
        for d in dirs {
            let s = wide.support_core(Vec3X8::splat(d), MaskX8::ALL);
            for (i, h) in hulls.iter().enumerate() {
                assert_eq!(s.lane(i), h.support_core(d), "lane {i} dir {d}");
            }
        }
        assert_eq!(wide.finite().bitmask(), 0b1111);
    }

    /// The first vertex with the largest dot product (the wide dot's own
    /// rounding), by brute force.
    fn first_farthest(verts: &[Vec3], d: Vec3) -> Vec3 {
        let dot = |v: Vec3| (v.z).mul_add(d.z, (v.y).mul_add(d.y, v.x * d.x));
        let mut best = verts[0];
        for &v in &verts[1..] {
            if dot(v) > dot(best) {
                best = v;
            }
        }
        best
    }

    /// `n` points in a cube of side 4, half the time on a coarse grid so that
    /// ties between vertices are common.
    fn random_points(rng: &mut impl rand::Rng, n: usize) -> Vec<Vec3> {
        let coarse = rng.random_bool(0.5);
        (0..n)
            .map(|_| {
                let v = Vec3::new(
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                    rng.random_range(-2.0..2.0),
                );
                if coarse { v.round() } else { v }
            })
            .collect()
    }

    #[test]
    fn scan_finds_the_first_farthest_vertex_in_every_active_lane() {
        use rand::{Rng, SeedableRng};
        let seed = 0x5ca7;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for case in 0..2_000 {
            // Ragged lanes of 1..=40 points, some on a coarse grid so that ties
            // between vertices are common.
            let lanes: Vec<Vec<Vec3>> = (0..8)
                .map(|_| {
                    let n = rng.random_range(1..=40);
                    random_points(&mut rng, n)
                })
                .collect();
            let refs: Vec<&[Vec3]> = lanes.iter().map(Vec::as_slice).collect();
            let wide = ConvexHullX8::from_vertices(&refs);
            let dirs: [Vec3; 8] = std::array::from_fn(|_| {
                let d = Vec3::new(
                    rng.random_range(-1.0f32..1.0),
                    rng.random_range(-1.0f32..1.0),
                    rng.random_range(-1.0f32..1.0),
                );
                if rng.random_bool(0.3) { d.round() } else { d }
            });
            let active = MaskX8::from_bitmask(rng.random());
            let s = wide.support_core(Vec3X8::from_array(dirs), active);
            for lane in (0..8).filter(|&l| active.lane(l)) {
                assert_eq!(
                    s.lane(lane),
                    first_farthest(&lanes[lane], dirs[lane]),
                    "seed {seed:#x} case {case} lane {lane} dir {} of {} vertices",
                    dirs[lane],
                    lanes[lane].len()
                );
            }
        }
    }

    /// The same check when every lane holds one vertex list, where the point is
    /// fetched by permutes over chunks of eight vertices (counts around chunk
    /// boundaries), and after packing one hull into all lanes.
    #[test]
    fn scan_of_one_hull_in_every_lane_finds_the_first_farthest_vertex() {
        use rand::{Rng, SeedableRng};
        let seed = 0x0c01;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for case in 0..600 {
            let n: usize = [1, 3, 7, 8, 9, 15, 16, 17, 32, 33, 40][case % 11];
            let verts = random_points(&mut rng, n);
            let wide = ConvexHullX8::from_vertices(&[verts.as_slice(); 8]);
            assert_eq!(wide.columns.len(), n.div_ceil(8), "case {case}");
            let dirs: [Vec3; 8] = std::array::from_fn(|_| {
                Vec3::new(
                    rng.random_range(-1.0f32..1.0),
                    rng.random_range(-1.0f32..1.0),
                    rng.random_range(-1.0f32..1.0),
                )
            });
            let active = MaskX8::from_bitmask(rng.random::<u8>() | 1);
            let s = wide.support_core(Vec3X8::from_array(dirs), active);
            for lane in (0..8).filter(|&l| active.lane(l)) {
                assert_eq!(
                    s.lane(lane),
                    first_farthest(&verts, dirs[lane]),
                    "seed {seed:#x} case {case} lane {lane} dir {} of {n} vertices",
                    dirs[lane]
                );
            }
        }
        // Packed from shapes: one hull in all lanes takes the permutes, two hulls
        // do not, and both find the scalar scan's vertex.
        let hull = |seed: u64| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let points: Vec<Vec3> = (0..30)
                .map(|_| Vec3::new(rng.random(), rng.random(), rng.random()) * 2.0 - 1.0)
                .collect();
            Shape::ConvexHull(std::sync::Arc::new(
                ConvexHull::from_points(&points).unwrap(),
            ))
        };
        let (h1, h2) = (hull(1), hull(2));
        let dirs: [Vec3; 8] =
            std::array::from_fn(|k| Vec3::new(k as f32 - 3.5, 1.0, -0.25 * k as f32));
        for (lanes, uniform) in [
            ([&h1; 8], true),
            ([&h1, &h2, &h1, &h2, &h1, &h2, &h1, &h2], false),
        ] {
            let mut wide = ConvexHullX8::default();
            wide.pack(&lanes);
            assert_eq!(!wide.columns.is_empty(), uniform);
            let s = wide.support_core(Vec3X8::from_array(dirs), MaskX8::ALL);
            for (lane, shape) in lanes.iter().enumerate() {
                let Shape::ConvexHull(h) = shape else {
                    unreachable!()
                };
                assert_eq!(
                    s.lane(lane),
                    h.support_core(dirs[lane]),
                    "lane {lane}, uniform {uniform}"
                );
            }
        }
    }
}
