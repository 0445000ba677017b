//! Every tolerance and iteration cap of the narrowphase, scalar and wide, in one
//! place.
//!
//! `gjk-simd` imports these so that the scalar and wide paths stop on the same
//! criteria; a constant only one path uses says which, and the wide path's own
//! carry the `_X8` suffix of its types. All tolerances are *relative*: f32 carries about seven significant
//! digits, so an absolute epsilon that suits unit shapes is noise for shapes of size
//! 1e3 and a canyon for shapes of size 1e-3 (parry #166, #415).

/// Hard cap on GJK iterations (one support evaluation each). The standard pairs
/// converge in 4 to 11; curved shapes near contact need the most. libccd's uncapped
/// loop has hung users; a capped query reports `Status::IterationLimit` instead.
pub const GJK_MAX_ITERATIONS: u32 = 64;

/// GJK distance stops when the duality gap `|v|² - v·w` (upper bound squared minus
/// the support plane's lower bound times `|v|`) is at most this fraction of `|v|²`.
/// The reported distance `|v|` then exceeds the true one by at most this fraction.
pub const GJK_RELATIVE_GAP: f32 = 1e-6;

/// Rounding floor of the duality gap, relative to `|v| · max|w|`. The gap is the
/// difference of two dot products of size `|v|·|w|`, each rounded to f32 (2^-24
/// relative); below a few ulps of that the gap is noise and further iterations
/// cannot make progress.
pub const GJK_GAP_FLOOR: f32 = 8.0 * f32::EPSILON;

/// Two shapes closer than `TOUCH_TOLERANCE × scale` (scale: the sum of both shapes'
/// bounding radii) are *touching*, and touching counts as intersecting in all three
/// queries: `intersects` is true, `distance` is 0, `contact` returns a contact whose
/// depth lies in `[-TOUCH_TOLERANCE × scale, 0]`. It is also the containment test of
/// GJK: a simplex that comes this close to the origin encloses it for f32 purposes.
pub const TOUCH_TOLERANCE: f32 = 1e-6;

/// Hard cap on EPA expansions. Polytopes (boxes, hulls) converge in under 10; EPA on
/// curved cores (cylinders, cones) converges linearly and is cut here.
pub const EPA_MAX_ITERATIONS: u32 = 128;

/// Upper bound on polytope faces in EPA, so memory per query is bounded.
pub const EPA_MAX_FACES: usize = 1024;

/// EPA stops when the support point along the nearest face's normal lies at most
/// this fraction of the face's distance beyond it (plus the touch floor).
pub const EPA_RELATIVE_GAP: f32 = 1e-5;

/// Relative tolerance of convex hull construction (quickhull runs in f64): a point
/// closer than this fraction of the input's extent to a face plane is treated as on
/// it, which merges near-coplanar faces instead of creating slivers.
pub const HULL_RELATIVE_TOLERANCE: f64 = 1e-6;

/// Hulls with at least this many vertices use hill climbing over vertex adjacency
/// for their support function; smaller ones scan linearly (see `BENCHMARKS.md`,
/// "hull support").
pub const HULL_HILL_CLIMB_MIN_VERTICES: usize = 16;

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

/// A tetrahedron of the scalar simplex solve whose volume (times six) is below
/// this fraction of the product of three edge lengths is flat: its vertices carry
/// f32 rounding, and a volume that small is within the noise of where they should
/// be, so only its faces can hold the closest point. The solve runs in f64, which
/// resolves far flatter tetrahedra than the wide f32 solve
/// ([`FLAT_TETRAHEDRON_X8`]).
pub const FLAT_TETRAHEDRON: f64 = 1e-9;

/// The wide (f32) simplex solve's flatness bound, [`FLAT_TETRAHEDRON`]'s twin, on
/// the squared sine of the angle a new vertex `w` stands off a triangle's plane
/// (height² over the squared normal times the squared edge from the triangle to
/// `w`). Below it, about 1e-5 rad, the signs of the tetrahedron's barycentric
/// weights are rounding noise, and a separated pair could be declared enclosed
/// with weights in the millions. The same bound on the angle at `w` between two
/// edges marks a triangle with no reliable face region: its normal's direction
/// error, about `f32::EPSILON / sin θ`, would exceed the angle itself, and its
/// edges bound it within `sin θ` of their length instead.
pub const FLAT_TETRAHEDRON_X8: f32 = 1e-10;

/// Below this squared sine of the angle at the new vertex, the wide solve computes
/// a triangle's normal at its largest angle instead: above it, the plain cross
/// product's direction error is under ten ulps, which moves the distance far less
/// than the queries' tolerances.
pub const SLIVER_TRIANGLE_X8: f32 = 1e-2;

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

/// Vertices of the allocation-free EPA polytope ([`crate::query::polytope`]), one
/// per support point: a wide driver keeps eight, so they stay small; the
/// polytopes of boxes and hulls converge in well under this, and a lane that needs
/// more is measured by the scalar EPA with its larger caps.
pub const POLYTOPE_MAX_VERTICES: usize = 64;

/// Face slots of that polytope: a closed triangulation of `V` vertices has
/// `2V - 4` faces, so twice the vertices, with slots reused as faces are carved.
pub const POLYTOPE_MAX_FACES: usize = 2 * POLYTOPE_MAX_VERTICES;

/// The most horizon edges one expansion of that polytope takes: a support point
/// that sees more faces at once is refused as degenerate (the polytopes of convex
/// shapes see a handful at a time), which keeps a step's scratch small.
pub const POLYTOPE_MAX_HORIZON: usize = 48;
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
