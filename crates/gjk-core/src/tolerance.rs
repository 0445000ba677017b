//! Every tolerance and iteration cap of the narrowphase, scalar and wide, in one
//! place.
//!
//! `gjk-simd` imports these so that the scalar and wide paths stop on the same
//! criteria; a constant only one path uses says which, and the wide path's own
//! carry the `_X8` suffix of its types. All tolerances are *relative*: f32 carries about seven significant
//! digits, so an absolute epsilon that suits unit shapes is noise for shapes of size
//! 1e3 and a canyon for shapes of size 1e-3 (parry #166, #415).

/// The largest size a shape accepts, and the largest coordinate of a hull's
/// points: 2^60, about 1.15e18. Sums of squares of a few such sizes stay finite
/// in f32 (2^122 against f32's 2^128), so every bounding radius, inner radius and
/// box extent a shape derives from its sizes is finite, on the scalar and the wide
/// path alike; poses may still place shapes anywhere f32 reaches (the queries
/// scale each pair to its own size).
pub const MAX_SIZE: f32 = (1u64 << 60) as f32;

/// The farthest B's origin may lie from A's, 2^126 (about 8.5e37): beyond, the
/// pair's distance could approach the end of f32's range (2^128). Such a pair is `Status::InvalidInput` on the
/// scalar and the wide path alike (its shapes are, in any case, farther apart
/// than anything f32 measures near them).
pub const MAX_OFFSET: f32 = (1u128 << 126) as f32;

/// The wide GJK kernels scale each pair by a power of two to size one unless its
/// size (its offset's largest coordinate, or its bounding radii, if larger) lies
/// within this factor of one (gjk-simd only). Within it, products of six lengths,
/// those of the f32 simplex solve's flatness tests, stay far from f32's range
/// (2^96 of 2^127), and the standard pairs run exactly as unscaled.
pub const UNSCALED_BAND_X8: f32 = 65536.0;

/// Hard cap on GJK iterations (one support evaluation each). The standard pairs
/// converge in 4 to 11; curved shapes near contact need the most. libccd's uncapped
/// loop has hung users; a capped query reports `Status::IterationLimit` instead.
pub const GJK_MAX_ITERATIONS: u32 = 64;

/// GJK distance stops when the duality gap `|v|² - v·w` (upper bound squared minus
/// the support plane's lower bound times `|v|`) is at most this fraction of `|v|²`.
/// The reported distance `|v|` then exceeds the true one by at most this fraction.
pub const GJK_RELATIVE_GAP: f32 = 1e-6;

/// Rounding floor of the duality gap, relative to `|v| · |w|` (`w` the new
/// support point). The gap `|v|² - v·w` is uncertain by the rounding of `w`'s f32
/// coordinates (an ulp of `|w|`) times `|v|`, and in the wide f32 solve by the
/// rounding of the dot products, of the same size; below a few ulps of that the
/// gap is noise and further iterations cannot make progress. (It used to be
/// relative to the largest `|w|` of the whole run, which on long shapes, whose
/// first support points are their far ends, stopped GJK with the gap a thousand
/// times the noise of the points it then held.)
pub const GJK_GAP_FLOOR: f32 = 8.0 * f32::EPSILON;

/// Two shapes closer than `TOUCH_TOLERANCE × scale` (scale: the sum of both shapes'
/// bounding radii) are *touching*, and touching counts as intersecting in all three
/// queries: `intersects` is true, `distance` is 0, `contact` returns a contact whose
/// depth lies in `[-TOUCH_TOLERANCE × scale, 0]`. It is also the containment test of
/// GJK: a simplex that comes this close to the origin encloses it for f32 purposes.
/// (A GJK stall that no plane shows apart touches up to four times this:
/// [`STALL_TOUCHING`].)
///
/// The value is what the arithmetic resolves in the pair's frame. Every query runs
/// in A's frame: B's origin there is one exact subtraction of the world
/// translations (exact however far from the world origin the pair is, as long as
/// the two are within a factor of two of each other) and one rotation, and B's
/// support points one more rotation and a sum. Each rounds to half an ulp of the
/// magnitudes involved, at most about the pair's scale, so a gap above two ulps of
/// the scale is one the arithmetic tells from zero, and is reported (unless GJK
/// stalls on it with nothing showing it, [`STALL_TOUCHING`]); below it the
/// shapes touch. (It was 1e-6, eight ulps, which reported gaps several times larger
/// than the rounding as touching.)
///
/// For the same reason the wide (f32) GJK distance stops once its duality gap
/// bounds the distance's error by this tolerance: the distance is then known as
/// exactly as the pair's arithmetic resolves a gap, and curved cores, which GJK
/// approaches linearly, would spend further iterations on its last ulps.
pub const TOUCH_TOLERANCE: f32 = 2.0 * f32::EPSILON;

/// A GJK loop that stalls (`|v|` no longer decreases) with no support plane of
/// its run showing the cores apart by more than [`TOUCH_TOLERANCE`] (its best
/// lower bound `v·w / |v|`), and `|v|` within this fraction of the pair's scale,
/// counts the cores as touching. Its `|v|` is then only an upper bound, within
/// the rounding of the support points (each an ulp or so of the scale, after a
/// rotation and a sum): f64 cannot tell the origin's side of a simplex that
/// thin. Two nearly segment-like shapes crossing (a box 0.036 long and 1e-4
/// thick across a cylinder 1.45 long and 3.2e-4 wide) overlapping by 4.3e-7
/// stalled at `|v|` = 1.96e-7 with the plane along `v` showing an overlap of
/// 0.003, and came back apart along a normal square to the contact's, where the
/// swapped pair touched.
///
/// Such a pair touches for `intersects` and `distance`, and `contact` runs EPA
/// on it; should EPA find no polytope to start from, the contact is GJK's
/// closest points as for a pair apart, none at prediction 0 (a normal from a
/// stall that thin would be the wrong one). The wide loops follow the rule
/// through gjk-core where they recheck a stalled lane; elsewhere the two paths
/// may differ on pairs one to four touch tolerances apart, far inside the
/// touching band their differential tests allow.
pub const STALL_TOUCHING: f32 = 4.0 * TOUCH_TOLERANCE;

/// Hard cap on EPA expansions. Polytopes (boxes, hulls) converge in under 10; EPA on
/// curved cores (cylinders, cones) converges linearly and is cut here.
pub const EPA_MAX_ITERATIONS: u32 = 128;

/// A face the new EPA support point lies on, within this many f64 ulps of the
/// coordinates, counts as seen from it and is carved away. The test runs in f64
/// on the f32 support points, which it holds exactly: points that are coplanar
/// in f32 (on boxes and hulls the support point often lands exactly in a
/// neighbouring face's plane, the corner beyond a face-centre vertex) come out
/// within a few f64 ulps of the plane, where a strict test would keep the face
/// and join it to the point by a triangle of no area. Any wider, and faces the
/// point lies genuinely below would be carved, denting the polytope.
pub const EPA_COPLANAR_ULPS: f64 = 64.0;

/// Two edges of EPA's polygon in the axial plane whose unit normals differ by
/// less than this (one minus their dot product) and whose distances from the
/// origin agree to this fraction lie on one line (a support point that the
/// rounding left a hair off a flat side's line): the witness is taken from
/// the one the origin projects into. Far above the f64 rounding of either, far
/// below any angle between true sides.
pub const EPA_COLLINEAR: f64 = 1e-9;

/// When the cores' difference is a segment (coaxial capsules, or any pair of
/// segment and point cores), EPA's normal is the direction from A to B made
/// perpendicular to the segment, if that direction stands off the segment by
/// more than this sine; else any perpendicular. Below it, the perpendicular part
/// is the rounding of the segment's direction (ulps over its length) and would
/// point anywhere, even nearly along the segment.
pub const EPA_FLAT_NORMAL_SIN: f32 = 1e-3;

/// Upper bound on polytope faces in EPA, so memory per query is bounded.
pub const EPA_MAX_FACES: usize = 1024;

/// EPA stops when the support point along the nearest face's normal lies at most
/// this fraction of the face's distance beyond it (plus the touch floor).
pub const EPA_RELATIVE_GAP: f32 = 1e-5;

/// Relative tolerance of convex hull construction (quickhull runs in f64): a point
/// closer than this fraction of the input's size to a face plane is treated as on
/// it, which merges near-coplanar faces instead of creating slivers. The size is
/// the input's extent, or for a sliver (thinner than [`HULL_SLIVER_THICKNESS`]
/// of its extent) its thickness, so that the sliver still keeps all its corners.
pub const HULL_RELATIVE_TOLERANCE: f64 = 1e-6;

/// A hull thinner than this fraction of its extent is a sliver: quickhull builds
/// it with its tolerance relative to the thickness, not the extent. With the
/// extent's tolerance a slab only a few tolerances thick came out folded: a
/// point within the tolerance of a top face was counted inside it while lying
/// outside a side face, and the triangles of a hull 2e-3 wide and 1.6e-8 thick
/// (seven tolerances) covered 3.36e-6 on each side of a polygon of 2.79e-6, a
/// silhouette edge missing. A thousand tolerances keeps any fold within a
/// thousandth of the thickness.
pub const HULL_SLIVER_THICKNESS: f64 = 1e3 * HULL_RELATIVE_TOLERANCE;

/// A hull's points count as coincident, collinear or coplanar when they stand
/// off the point, line or plane by at most this many f64 ulps of their extent:
/// the construction runs in f64 on the f32 points, which it holds exactly, so
/// points that lie on a line or plane in f32 come out within a few ulps of it,
/// while a point one f32 ulp off (2^29 f64 ulps) is a sliver to keep.
pub const HULL_FLAT_ULPS: f64 = 64.0;

/// Hulls with at least this many vertices use hill climbing over vertex adjacency
/// for their support function; smaller ones scan linearly (see `BENCHMARKS.md`,
/// "hull support").
pub const HULL_HILL_CLIMB_MIN_VERTICES: usize = 16;

/// Hulls whose centroid lies nearer a face plane than this fraction of their
/// radius about it (slabs, plates) scan for their support instead of climbing:
/// quickhull may fold a slab's sliver side faces by its construction tolerance,
/// and hill climbing over such a mesh can stop on a local maximum (a slab 1e-5
/// as thick as it is wide came a tenth short of its support).
pub const HULL_CLIMB_MIN_DEPTH: f64 = 1e-2;

/// Rounding slack of the bounding-ball tests ([`crate::query::bounds::ball_tests`]
/// and its wide twin), in units of `f32::EPSILON` times the magnitudes involved:
/// the subtraction of the centres and the squared length (relative to the
/// coordinates) and the radii sums (relative to the radii), with a factor 4 to
/// spare.
pub const BALL_SLACK_ULPS: f32 = 4.0;

/// Rounding slack of the box-against-balls tests
/// ([`crate::query::bounds::box_ball_tests`] and its wide twin): the rotation into
/// the box's frame adds a few ulps of the offset to those of the subtraction, so
/// twice [`BALL_SLACK_ULPS`].
pub const BOX_BALL_SLACK_ULPS: f32 = 8.0;

/// Rounding slack of the box-box overlap certificate
/// ([`crate::query::bounds::box_box_overlap`] and its wide twin): the nearest point
/// is rotated into one box's frame, out to world space and into the other box's
/// frame, so twice [`BOX_BALL_SLACK_ULPS`].
pub const BOX_BOX_SLACK_ULPS: f32 = 16.0;

/// Rounding slack of the wide separating-axis test for box pairs (gjk-simd), in
/// units of `f32::EPSILON` times the world coordinates plus the boxes' sizes: the
/// relative pose carries a few ulps of the coordinates, the projections on the
/// fifteen axes a few ulps of the offset and the extents; 64 bounds both with room
/// to spare, and pairs within it go to GJK. The world's bounds (balls, boxes, the
/// last separating axis, widephase's `world/narrowphase.rs`) take the same slack
/// for the same reasons.
pub const BOX_AXES_SLACK_ULPS: f32 = 64.0;

/// A tetrahedron of the simplex solve is flat, and only its faces can hold the
/// closest point, unless its height over a face (its least, over its largest
/// face, in gjk-core; over the face it extends in the wide solve) exceeds this many
/// f32 ulps of its vertices' coordinates along that face's normal. The vertices are
/// f32 support points, each coordinate rounded by half an ulp of itself, which
/// moves the vertex along the normal by those roundings weighted by the normal's
/// components; the signed volumes behind the origin's barycentric weights carry
/// that error relative to the height, so a height of many such ulps keeps their
/// signs (a flatter one could declare a separated pair enclosed, with weights in
/// the millions). Both solves use it: gjk-core's runs in f64 but its points carry
/// the same rounding. (The bound used to be on the angle the new vertex stands off
/// the face, which on the long tetrahedra of shapes a thousand times longer than
/// wide refused heights fifty times their rounding: GJK stalled outside a simplex
/// it had closed around the origin. Along the long direction, the coordinates'
/// large ulps do not move the vertices off the face.)
pub const FLAT_HEIGHT_ULPS: f32 = 16.0;

/// The wide (f32) simplex solve's bound on the squared sine of the angle at the
/// new vertex `w` between a triangle's two edges through it: below it the
/// triangle has no reliable face region (its normal's direction error, about
/// `f32::EPSILON / sin θ`, would exceed the angle itself), and its edges bound it
/// within `sin θ` of their length instead.
pub const FLAT_TRIANGLE_X8: f32 = 1e-10;

/// A wide GJK lane that stops because `|v|` no longer decreases in f32, with its
/// cores closer than this fraction of the pair's scale, is answered again by
/// gjk-core (gjk-simd only). Near contact the support points of curved cores
/// cluster and the simplex turns thin; its f32 solve can then stall a few 1e-4
/// of the scale short of a touching pair's zero, where gjk-core's f64 pair frame
/// goes on. Stalls that close are rare on random pairs (under 0.1% of the GJK
/// lanes of cylinders and cones), so the rerun costs little; farther out a
/// stall is f32 rounding of a distance that is right to its tolerance, unless
/// its duality gap is still open ([`STALL_OPEN_GAP_X8`]).
pub const STALL_RECHECK_X8: f32 = 1e-2;

/// A wide GJK lane that stalls (see [`STALL_RECHECK_X8`]) with its duality gap
/// `|v|² - v·w` above this fraction of `|v|²` is also answered again by
/// gjk-core, however far apart the cores are: its distance is then only known
/// to within `gap / |v|`, over 5e-6 of itself. A thin simplex across a large
/// flat face (a disk 1e4 wide against a short segment 1,456 away) stalls that
/// way: the f32 solve of the new vertex rounds `|v|²` up, a distance 0.8 too
/// long; ordinary rounding stalls close the gap far below this. A lane whose
/// support point is a vertex of its simplex already, with the gap above this,
/// counts as such a stall: on long curved cores (a capsule 266 long beside a
/// cone 2,920 long) the f32 `v` of a thin simplex is off and its support
/// repeats, and the distance came back 8 to 44 ulps of the shapes' size long.
pub const STALL_OPEN_GAP_X8: f32 = 1e-5;

/// GJK trips a round of gjk-simd's distance batch runs before the lanes still
/// running are regrouped, eight to a batch, for the next round (gjk-simd only;
/// a schedule, not a tolerance: answers are the same bit for bit whatever its
/// value). A batch runs as many trips as its slowest lane: on cylinders and
/// cones half the lanes end within 4 or 5 trips while the others take 10 to 40,
/// which GJK's linear approach of a curved surface needs, and their batches
/// ran about twice the lane trips their loops needed. A regrouped lane costs the
/// saving of its loop's state, the packing of its pair again and a share of its
/// new batch's set-up and finish, a few trips' work: rounds of 4 regrouped lanes
/// too often to pay on boxes (9% more instructions than rounds of 6, for 2%
/// fewer on cones), rounds of 8 left idle trips on curved cores, and 6 did best
/// over the kinds together (BENCHMARKS.md, the batch driver's parameters). Not a cap: a loop goes on, round after round, to
/// [`GJK_MAX_ITERATIONS`].
pub const GJK_TRIPS_PER_ROUND_X8: u32 = 6;

/// A wide GJK lane whose cores are apart, and whose witnesses' difference
/// `core_a - core_b` lies farther than this many f32 ulps of the pair's scale
/// from the `v` its simplex solve gave, is answered again by gjk-core (gjk-simd
/// only). Both come from one simplex and differ by the rounding of a few sums of
/// products, under two ulps of the scale on 999 apart pairs in 1,000 of the
/// differential harness's regimes; they part by far more where the simplex is a
/// sliver, and the distance is then only known between the two. A needle hull
/// beside a thin cylinder (9 long, 0.003 wide) came back a quarter of the true
/// 1.2e-4, 149 ulps of the scale away; a needle 12,120 long beside a cone 440
/// long, 0.016 short of the true 5.924, 22 ulps away, which is twice the
/// eight ulps of the shapes' size that f32 positions allow. Sixteen ulps keeps
/// the distance within that, and costs at most 2% of the wide distance query on
/// the standard pairs of every kind (cones, whose thin simplices drift most,
/// the most).
pub const WITNESS_DRIFT_ULPS_X8: f32 = 16.0;

/// The wide GJK distance keeps the f32 barycentric weights of a tetrahedron that
/// encloses the origin when the witnesses they give on A and B lie within this
/// many f32 ulps of the tetrahedron's vertices' magnitude of each other
/// (gjk-simd only); farther apart, it takes the weights again in f64. Normalized
/// to sum one, the weights are a convex combination, so each witness lies in its
/// core whatever their error, and the point reported between the two is off each
/// shape by half their distance. Sums of four rounded products part them by a
/// few ulps of the vertices; eight leaves room for that and keeps the point in
/// both shapes to a few ulps, where the f64 weights' own rounding to f32 leaves
/// it within one.
pub const ENCLOSED_WITNESS_ULPS_X8: f32 = 8.0;

/// A wide GJK lane whose f32 solve found the origin inside a tetrahedron, and
/// whose weights [`ENCLOSED_WITNESS_ULPS_X8`] sent to f64, is answered again by
/// gjk-core when an f64 weight is negative by more than this many f64 ulps of
/// the weights' conditioning (the vertices' largest magnitude cubed over six
/// times the volume, which bounds how far the rounding of the f64 solve moves a
/// weight): the origin then lies outside the tetrahedron and the cores need not
/// overlap at all (gjk-simd only). On a needle hull beside a thin cylinder,
/// 1.6e4 and 1.8e3 long, the f32 weight of the fourth vertex came out 5.5e-4
/// where f64 gives -4.0e-5, and the pair, 0.0177 apart, was reported touching.
pub const ENCLOSURE_REFUTED_ULPS_X8: f64 = 64.0;

/// Below this squared sine of the angle at the new vertex, the wide solve computes
/// a triangle's normal at its largest angle instead: above it, the plain cross
/// product's direction error is under ten ulps, which moves the distance far less
/// than the queries' tolerances.
pub const SLIVER_TRIANGLE_X8: f32 = 1e-2;

/// The wide simplex solve takes the closest point of an edge as `w + t d` unless
/// `|w|²` exceeds this many times the point's `|p|²`, then as the part of `w`
/// orthogonal to the edge (gjk-simd only). The sum's rounding is a few ulps of
/// `|w|`, so at `|w| = 64 |p|` it is about 1e-5 of `|p|` (on a par with the f32
/// stalls of the curved cores); beyond, on long edges passing close to the origin,
/// it grows until GJK stops on a point far from the true one.
pub const EDGE_CANCELLATION_X8: f32 = 4096.0;

/// Two segment cores whose directions' squared sine is below this are treated as
/// parallel by the closed-form segment distance (gjk-simd only): its free
/// solution divides by that squared sine, which at an angle of 1e-6 rad (a few
/// ulps of a unit vector's components) would amplify its numerator's rounding
/// past any use, while for parallel segments the clamped centre is a closest pair.
pub const PARALLEL_SEGMENTS_SIN_SQ: f32 = 1e-12;

/// An edge-edge axis of two boxes (the cross product of an edge of each) whose
/// squared length is below this, the squared sine of the edges' angle, is left out
/// of the wide box penetration test: the axis's direction error is about
/// `f32::EPSILON / sin θ`, so near-parallel edges give a noisy axis; and leaving
/// an axis out can only raise the minimum overlap found, towards the faces' axes
/// next to those edges, which hold the answer as the edges become parallel.
pub const BOX_EDGE_AXIS_SIN_SQ_X8: f32 = 1e-8;

/// The wide contact query finds the witness points of overlapping shapes whose
/// normal and depth it knows by moving B out along the normal by the depth plus
/// this many touch tolerances and taking the closest points: far enough that GJK
/// sees separated shapes (its containment test stops at one touch tolerance), near
/// enough that the closest features are those of the contact.
pub const WITNESS_GAP_TOUCHES_X8: f32 = 8.0;

/// A disc (a cylinder's cap, a cone's base) takes part in contact manifolds as a
/// regular polygon of this many rim points, plus the exact rim point that supports
/// the contact normal. Inscribed in the disc, the polygon falls short of the rim by
/// `1 - cos(π / 16)`, 2% of the radius, at the middle of its chords: as a reference
/// face it clips the other shape's face that much inside the rim at worst, and the
/// deepest point, the one that matters most, is exact. Sixteen is a multiple of
/// four, so a cap resting flat reduces to an inscribed square.
pub const CAP_POLYGON_VERTICES: u32 = 16;

/// A disc's exact support point is left out of its polygon when it lies within
/// this fraction of the sample spacing of a rim sample: the sample is then the
/// support point to within `r · (1 - cos(1e-3 · 2π / 16))`, about 2e-8 of the
/// radius, while inserting a point that close could put it on the wrong side of
/// the sample once the angle is rounded, and make the polygon non-convex.
pub const CAP_RIM_MIN_GAP: f32 = 1e-3;

/// Tolerance of the contact manifolds' clipping and reduction, relative to the
/// pair's scale (the sum of the bounding radii): a vertex this close outside a
/// reference face's side still counts as inside, depths and distances this close
/// are ties (broken by feature id), and points this close together are one. Wider
/// than the rounding of the poses (a few ulps of the coordinates) and than the
/// resting jitter a solver leaves (1e-5 of a unit box), so that the points and
/// their ids do not flicker from step to step; far below anything a solver can
/// notice in a contact's position.
pub const MANIFOLD_RELATIVE_TOLERANCE: f32 = 1e-4;

/// How far, in bands ([`MANIFOLD_RELATIVE_TOLERANCE`] measured on the reference
/// face), a point kept in the band of two side planes may lie from their
/// corner: the band is narrowed where a corner is sharper than about 29
/// degrees, whose planes would otherwise meet far beyond it (see `clip.rs`'s
/// `side_planes`). Well above the meeting distance at a right angle (`sqrt 2`
/// bands), so that boxes and most hull faces keep their whole band. The bound
/// is that of exact planes: a side plane's direction carries the rounding of
/// its edge (about an epsilon of its length `L`), which moves where two
/// planes meet by about `eps L / theta` at a corner of angle `theta`; near
/// [`MANIFOLD_SLIVER_CORNER`] that can exceed the band.
pub const MANIFOLD_BAND_MITRE: f32 = 4.0;

/// A reference polygon corner whose two side planes' unit normals sum to no
/// more than this (a corner under about 7.6e-6 rad, or 64 epsilons) is closed
/// only by rounding: its side planes are parallel within the rounding of the
/// edges' directions, and the region inside both runs on past the corner
/// without end (a sliver triangle 8e6 long with a tip of 3e-9 rad kept a point
/// 3.6e15 beyond it). Such a polygon clips to nothing, as one with an edge of
/// no normal does, and the contact's own point stands.
pub const MANIFOLD_SLIVER_CORNER: f32 = 64.0 * f32::EPSILON;

/// A reference edge of B's no longer than this many f32 epsilons of its ends'
/// largest coordinate in A's frame (where the clipping runs, and where B's
/// features are rounded by half an ulp per coordinate at each end) has no side
/// plane, and its face clips to nothing, leaving the contact's own point. An
/// edge of one or two ulps may have turned any way, and a face of such edges (a
/// box 1 wide posed 1e8 from A's centre) may have rounded out of shape or inside
/// out, whose side planes then keep points far outside it. An edge of this many
/// epsilons (4 to 8 ulps) turns by about 20 degrees at most, which keeps a
/// face's edges turning the same way round, so its side planes still enclose
/// it; the edges this drops are below 4.8e-7 of their distance from A's centre
/// (5 mm at 10 km). A's own features are exact in its frame and never dropped.
pub const MANIFOLD_EDGE_MIN_ULPS: f32 = 4.0;

/// A face is a manifold's reference face only when the cosine between its normal
/// and the contact normal exceeds this (about 84 degrees); a face more oblique
/// would stretch the points projected onto it along the normal by more than ten
/// times its own size, so the contact then keeps its single deepest point. A box's
/// best face is never worse than 1/√3, a cylinder's or cone's feature not worse
/// than 1/√2 (by their choice of feature); hulls with very sharp vertices can be.
pub const MANIFOLD_MIN_FACE_ALIGNMENT: f32 = 0.1;

/// B's face becomes the manifold's reference face, instead of A's, only when the
/// cosine between its normal and the contact normal beats A's by this much: two
/// faces resting flat on each other are equally aligned, and without a bias the
/// choice, and with it every point's id, would flip with the rounding of each step.
/// A tilt of 2.6 degrees between the two faces decides it.
pub const MANIFOLD_REFERENCE_BIAS: f32 = 1e-3;

/// Two segment features (capsule cores, cylinder sides, box faces seen edge on)
/// are parallel, and give a two-point manifold, when the sine of the angle between
/// their projections on the plane orthogonal to the normal is below this (0.5
/// degrees). Each end's pair of points is then moved across the normal to line
/// up along it, which takes each off its segment by half the offset the angle
/// allows: at most `0.0045 · L` over an overlap of length `L`, and nothing for the
/// exactly parallel segments of a capsule lying on another. Otherwise they cross
/// at one point.
pub const MANIFOLD_PARALLEL_SEGMENTS_SIN: f32 = 9e-3;

/// Above this length of a direction's XZ part, a disc's support divides its
/// radius by that length directly: the quotient stays finite for every radius up
/// to [`MAX_SIZE`] (2^60 / 1e-18 < 2^121) and the squares are far from
/// subnormal. Below it the XZ part is first divided by its largest component.
pub const DISC_RESCALE_BELOW: f32 = 1e-18;
