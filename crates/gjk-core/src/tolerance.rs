//! Every tolerance and iteration cap of the GJK/EPA queries, in one place.
//!
//! `gjk-simd` imports these so that the scalar and wide paths stop on the same
//! criteria. All tolerances are *relative*: f32 carries about seven significant
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
