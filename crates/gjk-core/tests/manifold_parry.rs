//! Contact manifolds against parry3d 0.31's `contact_manifolds` (its default
//! dispatcher, a fresh workspace, the same prediction distance), on stacking
//! scenes (every kind resting on a box, a turned box, a hull slab or a cylinder's
//! cap, tilted by up to 0.01 rad, some over the edge; and the same lifted off the
//! ground with a prediction distance) and on the seeded random pairs of every pair
//! kind (at two densities: mostly deep overlaps, mostly gaps and shallow contacts).
//!
//! Per pair, in order:
//! - **Presence**: both return a manifold or neither, unless the pair is within
//!   the touch band (`|depth| < 1e-4` of its size), where each library's threshold
//!   decides.
//! - **Our points are sound**, whatever parry says: each lies on its shape
//!   (closed-form point-to-shape distances, `workloads::oracle`, within `2e-4` of
//!   the pair's size: a corner kept in the clipping's tolerance band, then dilated
//!   by a rounded shape's radius; plus `1e-3` of the depth, what a normal within
//!   1e-3 rad moves a point projected across the overlap; plus `0.0045` of the
//!   overlap for two segments parallel within the manifold's bound) with
//!   `point_a - point_b = depth *
//!   normal`, and the deepest is within `2e-4` of the size of the contact's depth
//!   (the manifold tolerance twice: the deepest candidate, then the first point
//!   among near-equals). Accepted: the contact's own point (a one-point
//!   manifold) whose EPA witnesses are apart off the normal: gjk-core's contact.
//! - **Normal** within 1e-3 rad of parry's. A larger angle is accepted only when
//!   moving B along parry's normal by our depth does not clear A (the support
//!   extent along parry's normal is at least our depth, less `1e-4` of the size):
//!   then our depth is no larger than what parry's direction needs (two normals of
//!   nearly equal depth, or a parry EPA stopped early on a curved shape). Points
//!   are compared only for pairs whose normals agree.
//! - **Deepest point**: depths within `2e-4` of the size plus `1e-3` relative.
//!   Accepted beyond: parry's deepest point deeper than the extent along its own
//!   normal allows, or shallower than it needs while ours equals the extent along
//!   ours.
//! - **Points**, where the geometry fixes them. Not compared, and why:
//!   cylinders and cones (parry approximates a disc by a square, we by a 16-gon
//!   and the exact rim point, so clipped points differ by design); overlaps deeper
//!   than 5% of the size (no resting contact to describe; the libraries' feature
//!   choices part); polytope pairs whose normal is more than 1 degree off one
//!   face or both (parry clips an edge or a vertex there, we the closest face).
//!   Otherwise parry's points are filtered as ours are (depth within the
//!   prediction distance plus our `1e-4`-of-the-size tolerance), its extra point
//!   with unknown features (the GJK point it adds to every polygonal manifold, a
//!   copy of the deepest) dropped, coincident ones merged; parry does not reduce,
//!   so ours must be all of parry's when it has at most four, else four of them:
//!   the same count, each of our points within `1e-3` of the size of one of
//!   parry's, with a depth within `1e-4`. Accepted, each checked as stated:
//!   - a corner kept within the tolerance band of a side plane: the point lies
//!     within twice the tolerance of the other library's region;
//!   - a corner within 1% of the size of another, kept by one library only;
//!   - parry misses the deepest point: ours is deeper than all of parry's (and
//!     sound, as deep as the contact);
//!   - ours a superset of parry's: every parry point is one of ours;
//!   - parry merges hull faces within 1.5 degrees into one polygon (its
//!     `ConvexPolyhedron`), ours are exact faces: the hull has two such faces;
//!   - two segments parallel seen along the normal but not in 3D (capsules
//!     crossing at a pitch): we keep both ends of the overlap, parry one, which
//!     is one of ours.
//!
//! Counts of accepted disagreements are printed per class; a pair that fits no
//! class fails the test with its seed and index.

use std::collections::BTreeMap;

use gjk_core::glam::{Quat, Vec3};
use gjk_core::{
    Capsule, Cone, Cuboid, Cylinder, Manifold, Pose, Rounded, Shape, Sphere, SupportMap, contact,
    contact_manifold,
};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use workloads::oracle::distance_to_shape;
use workloads::workload::{describe_shape, random_hull, random_unit};
use workloads::{PairKind, random_pairs};

/// A point of parry's manifold in world space.
#[derive(Debug, Clone, Copy)]
struct ParryPoint {
    on_b: Vec3,
    depth: f32,
    /// parry's features are unknown (its added GJK point).
    unknown: bool,
}

struct ParryManifold {
    normal: Vec3,
    points: Vec<ParryPoint>,
}

fn parry_manifold(s: &Scene, prediction: f32) -> Option<ParryManifold> {
    let (sa, sb) = (workloads::parry::shape(&s.a), workloads::parry::shape(&s.b));
    let (qa, qb) = (
        workloads::parry::pose(&s.pose_a),
        workloads::parry::pose(&s.pose_b),
    );
    let pos12 = qa.inverse() * qb;
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    DefaultQueryDispatcher
        .contact_manifolds(
            &pos12,
            &*sa,
            &*sb,
            prediction,
            &mut manifolds,
            &mut workspace,
        )
        .expect("parry supports every convex pair");
    let m = manifolds.into_iter().find(|m| !m.points.is_empty())?;
    Some(ParryManifold {
        normal: qa.rotation * m.local_n1,
        points: m
            .points
            .iter()
            .map(|p| ParryPoint {
                on_b: qb * p.local_p2,
                depth: -p.dist,
                unknown: p.fid1.is_unknown() || p.fid2.is_unknown(),
            })
            .collect(),
    })
}

struct Scene {
    what: String,
    a: Shape,
    pose_a: Pose,
    b: Shape,
    pose_b: Pose,
}

impl std::fmt::Display for Scene {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: A {} at {:?}; B {} at {:?}",
            self.what,
            describe_shape(&self.a),
            self.pose_a,
            describe_shape(&self.b),
            self.pose_b
        )
    }
}

/// How far B must move along `n` to clear A: the support extent of the whole
/// shapes' difference along `n` (world space).
fn extent_along(s: &Scene, n: Vec3) -> f32 {
    let (pa, pb) = (&s.pose_a, &s.pose_b);
    let sa = pa.transform_point(s.a.support(pa.inverse_transform_vector(n)));
    let sb = pb.transform_point(s.b.support(pb.inverse_transform_vector(-n)));
    (sa - sb).dot(n)
}

/// Whether the shape's features are exact polygons and segments.
fn exact_features(s: &Shape) -> bool {
    match s {
        Shape::Cylinder(_) | Shape::Cone(_) => false,
        Shape::Rounded(r) => exact_features(r.inner()),
        _ => true,
    }
}

/// A shape resting flat on the top (y = 0.5) of a ground (a box, a box turned
/// about y, a hull slab, a cylinder's cap of radius 4), by a depth in
/// 1e-3..2e-2, turned about y, tilted by up to 0.01 rad, anywhere over
/// [-3.8, 3.8]² (over the edge of the box and the cap at times).
fn stacking_scenes(n: usize, seed: u64) -> Vec<Scene> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Grounds with their top face at y = 0.5 spanning at least [-4, 4]² (the
    // turned box and the hull slab are turned about y). The slab's faces have four
    // vertices: parry keeps no more of a face (its polygonal features hold four).
    let slab: Vec<Vec3> = (0..8)
        .map(|i| {
            let c = Vec3::new(
                if i & 1 == 0 { -6.0 } else { 6.0 },
                if i & 2 == 0 { -0.5 } else { 0.5 },
                if i & 4 == 0 { -6.0 } else { 6.0 },
            );
            Quat::from_rotation_y(0.7) * c
        })
        .collect();
    let grounds: Vec<(&str, Shape, Pose)> = vec![
        (
            "box",
            Cuboid::new(Vec3::new(4.0, 0.5, 4.0)).unwrap().into(),
            Pose::IDENTITY,
        ),
        (
            "turned box",
            Cuboid::new(Vec3::new(4.5, 0.5, 5.0)).unwrap().into(),
            Pose::new(Quat::from_rotation_y(0.4), Vec3::ZERO).unwrap(),
        ),
        (
            "hull slab",
            gjk_core::ConvexHull::from_points(&slab).unwrap().into(),
            Pose::IDENTITY,
        ),
        (
            "cylinder",
            Cylinder::new(0.5, 4.0).unwrap().into(),
            Pose::IDENTITY,
        ),
    ];
    let mut out = Vec::new();
    for i in 0..n {
        let (ground_name, ground, ground_pose) = &grounds[i % grounds.len()];
        let size = |rng: &mut ChaCha8Rng| rng.random_range(0.2..1.0);
        let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let (name, shape, rest): (&str, Shape, Quat) = match rng.random_range(0..9) {
            0 => {
                let h = Vec3::new(size(&mut rng), size(&mut rng), size(&mut rng));
                ("box", Cuboid::new(h).unwrap().into(), Quat::IDENTITY)
            }
            1 => {
                let c = Cylinder::new(size(&mut rng), size(&mut rng)).unwrap();
                ("cylinder standing", c.into(), Quat::IDENTITY)
            }
            2 => {
                let c = Cylinder::new(size(&mut rng), size(&mut rng)).unwrap();
                ("cylinder lying", c.into(), lying)
            }
            3 => {
                let c = Capsule::new(size(&mut rng), 0.5 * size(&mut rng)).unwrap();
                ("capsule lying", c.into(), lying)
            }
            4 => {
                let c = Cone::new(size(&mut rng), size(&mut rng)).unwrap();
                ("cone on its base", c.into(), Quat::IDENTITY)
            }
            5 => (
                "sphere",
                Sphere::new(size(&mut rng)).unwrap().into(),
                Quat::IDENTITY,
            ),
            6 | 8 => {
                let h = random_hull(&mut rng, if i % 3 == 0 { 12 } else { 32 });
                let f = rng.random_range(0..h.polygon_count());
                let down = Quat::from_rotation_arc(h.polygon(f).0, Vec3::NEG_Y);
                let shape: Shape = h.into();
                if rng.random_bool(0.5) {
                    ("hull on a face", shape, down)
                } else {
                    let r = 0.2 * size(&mut rng);
                    (
                        "rounded hull on a face",
                        Rounded::new(shape, r).unwrap().into(),
                        down,
                    )
                }
            }
            _ => {
                let h = Vec3::new(size(&mut rng), size(&mut rng), size(&mut rng));
                let inner = Shape::from(Cuboid::new(h).unwrap());
                let r = 0.2 * size(&mut rng);
                (
                    "rounded box",
                    Rounded::new(inner, r).unwrap().into(),
                    Quat::IDENTITY,
                )
            }
        };
        let tilt = Quat::from_scaled_axis(random_unit(&mut rng) * rng.random_range(0.0..0.01));
        let yaw = Quat::from_rotation_y(rng.random_range(0.0..std::f32::consts::TAU));
        let rotation = yaw * tilt * rest;
        let depth = rng.random_range(1e-3..2e-2);
        let down = rotation.conjugate() * Vec3::NEG_Y;
        let below = shape.support(down).dot(down);
        let xz = Vec3::new(
            rng.random_range(-3.8..3.8),
            0.0,
            rng.random_range(-3.8..3.8),
        );
        out.push(Scene {
            what: format!("stacking {i}: {name} on a {ground_name}, {depth} deep"),
            a: ground.clone(),
            pose_a: *ground_pose,
            b: shape,
            pose_b: Pose::new(rotation, xz + Vec3::Y * (0.5 - depth + below)).unwrap(),
        });
    }
    out
}

#[derive(Default)]
struct Tally {
    pairs: usize,
    points_compared: usize,
    accepted: BTreeMap<&'static str, usize>,
    failures: Vec<String>,
}

impl Tally {
    fn accept(&mut self, class: &'static str) {
        *self.accepted.entry(class).or_default() += 1;
    }

    fn report(&self, what: &str) {
        println!(
            "{what}: {} pairs, points compared on {}",
            self.pairs, self.points_compared
        );
        for (class, n) in &self.accepted {
            println!("  accepted: {n:6}  {class}");
        }
        for f in self.failures.iter().take(10) {
            println!("  FAILED {f}");
        }
        assert!(
            self.failures.is_empty(),
            "{what}: {} pairs disagree with parry beyond the accepted classes",
            self.failures.len()
        );
    }
}

fn judge(s: &Scene, prediction: f32, t: &mut Tally) {
    t.pairs += 1;
    let scale = s.a.bounding_radius() + s.b.bounding_radius();
    let tol = 1e-4 * scale;
    let ours = contact_manifold(&s.a, &s.pose_a, &s.b, &s.pose_b, prediction);
    let theirs = parry_manifold(s, prediction);
    let (m, p) = match (ours, theirs) {
        (Some(m), Some(p)) => (m, p),
        (None, None) => return,
        (ours, _) => {
            let depth = contact(&s.a, &s.pose_a, &s.b, &s.pose_b, 1.0).map_or(-1.0, |c| c.depth);
            if (depth + prediction).abs() < tol {
                t.accept("presence: pair within the touch band");
            } else {
                t.failures.push(format!(
                    "presence: ours {} parry {} (depth {depth}); {s}",
                    ours.is_some(),
                    ours.is_none()
                ));
            }
            return;
        }
    };
    match sound(s, &m, scale) {
        Err(e) => {
            t.failures.push(format!("{e}; {m:?}; {s}"));
            return;
        }
        Ok(Some(class)) => t.accept(class),
        Ok(None) => {}
    }
    let ours_depth = m.max_depth();
    if m.normal.angle_between(p.normal) > 1e-3 {
        if extent_along(s, p.normal) >= ours_depth - tol {
            t.accept("normal: differs, our depth no larger than parry's direction needs");
        } else {
            t.failures.push(format!(
                "normal: ours {} parry {}, extent along parry's {} < our depth {ours_depth}; {s}",
                m.normal,
                p.normal,
                extent_along(s, p.normal)
            ));
        }
        return;
    }
    let parry_depth = p
        .points
        .iter()
        .map(|q| q.depth)
        .fold(f32::NEG_INFINITY, f32::max);
    if (parry_depth - ours_depth).abs() > 2.0 * tol + 1e-3 * ours_depth.abs() {
        let parry_extent = extent_along(s, p.normal);
        if parry_depth > parry_extent + tol {
            t.accept("depth: parry's deepest point deeper than its normal allows");
        } else if parry_depth < parry_extent - tol
            && (extent_along(s, m.normal) - ours_depth).abs() <= tol
        {
            t.accept(
                "depth: parry's deepest point short of what its normal needs, ours equal to it",
            );
        } else {
            t.failures.push(format!(
                "depth: ours {ours_depth} parry {parry_depth}; {m:?}; {s}"
            ));
        }
        return;
    }
    if !(exact_features(&s.a) && exact_features(&s.b)) {
        t.accept("points: cylinder or cone disc (approximated differently)");
        return;
    }
    // Shapes sunk into each other by more than a few percent of their size have
    // no resting contact to describe, and the libraries' feature choices part.
    if ours_depth > 0.05 * scale {
        t.accept("points: overlap deeper than 5% of the size (not compared)");
        return;
    }
    // Between polytopes, parry clips faces only when the normal is within 1
    // degree of a face's, else takes edges and vertices; we clip the closest faces.
    let face_cos = |shape: &Shape, pose: &Pose, dir: Vec3| {
        let mut f = gjk_core::Feature::new();
        let local = pose.inverse_transform_vector(dir);
        shape.support_feature(local, &mut f);
        f.is_polygon().then(|| f.normal().dot(local))
    };
    let one_degree = 1f32.to_radians().cos();
    match (
        face_cos(&s.a, &s.pose_a, m.normal),
        face_cos(&s.b, &s.pose_b, -m.normal),
    ) {
        (Some(ca), Some(cb)) if ca < one_degree && cb < one_degree => {
            t.accept("points: normal more than 1 degree off both faces (parry clips edges, we the closest faces)");
            return;
        }
        (Some(ca), Some(cb)) if ca < one_degree || cb < one_degree => {
            t.accept("points: one face more than 1 degree off the normal (parry clips its edge or vertex, we the face)");
            return;
        }
        _ => {}
    }
    // parry's points as ours are filtered.
    let mut theirs: Vec<ParryPoint> = Vec::new();
    let known = p.points.iter().filter(|q| !q.unknown).count();
    for q in &p.points {
        let dropped = q.depth < -prediction - tol || (q.unknown && known > 0);
        if !dropped && !theirs.iter().any(|x| (x.on_b - q.on_b).length() < tol) {
            theirs.push(*q);
        }
    }
    t.points_compared += 1;
    let n = m.normal;
    let matches = |x: &ParryPoint, q: &gjk_core::ManifoldPoint| {
        (x.on_b - q.point_b).length() < 10.0 * tol && (x.depth - q.depth).abs() < tol
    };
    let near = 0.01 * scale;
    let mut classes: Vec<&'static str> = Vec::new();
    // Each of our points is one of parry's, or accounted for.
    let matched: Vec<bool> = m
        .points()
        .iter()
        .map(|q| theirs.iter().any(|x| matches(x, q)))
        .collect();
    for (k, q) in m.points().iter().enumerate() {
        if matched[k] {
            continue;
        }
        let deepest_parry = theirs
            .iter()
            .map(|x| x.depth)
            .fold(f32::NEG_INFINITY, f32::max);
        if distance_to_region(q.point_b, &theirs, n) < 2.0 * tol {
            classes.push("point: a corner kept within the tolerance band of a side plane");
        } else if q.depth > deepest_parry + 0.1 * tol {
            classes.push(
                "point: parry misses the deepest point (ours is sound, as deep as the contact)",
            );
        } else if theirs
            .iter()
            .all(|x| m.points().iter().any(|r| matches(x, r)))
        {
            classes.push("point: ours a superset of parry's (its feature leaves out a corner within reach; ours sound)");
        } else if nearly_coplanar_faces(&s.a) || nearly_coplanar_faces(&s.b) {
            classes.push("point: parry merges hull faces within 1.5 degrees into one polygon, ours are exact faces");
        } else if theirs.len() == 1
            && segments(&s.a)
            && segments(&s.b)
            && matched.iter().any(|&x| x)
        {
            classes.push("point: segments parallel seen along the normal, not in 3D: both ends of the overlap are within reach, parry keeps one");
        } else if m
            .points()
            .iter()
            .enumerate()
            .any(|(j, r)| matched[j] && (r.point_b - q.point_b).length() < near)
        {
            classes
                .push("point: a corner within 1% of the size of another, one library keeps both");
        } else {
            t.failures.push(format!(
                "point {:?} not among parry's {theirs:?}; {m:?}; {s}",
                q.point_b
            ));
            return;
        }
    }
    // parry's points that none of ours matches, when it has no more than four.
    if theirs.len() <= 4 {
        let ours_matched: Vec<&ParryPoint> = theirs
            .iter()
            .filter(|x| m.points().iter().any(|q| matches(x, q)))
            .collect();
        for x in theirs
            .iter()
            .filter(|x| !m.points().iter().any(|q| matches(x, q)))
        {
            let ours_as_region: Vec<ParryPoint> = m
                .points()
                .iter()
                .map(|q| ParryPoint {
                    on_b: q.point_b,
                    depth: q.depth,
                    unknown: false,
                })
                .collect();
            if distance_to_region(x.on_b, &ours_as_region, n) < 2.0 * tol {
                classes.push("point: a corner kept within the tolerance band of a side plane");
            } else if ours_matched
                .iter()
                .any(|y| (y.on_b - x.on_b).length() < near)
            {
                classes.push(
                    "point: a corner within 1% of the size of another, one library keeps both",
                );
            } else if nearly_coplanar_faces(&s.a) || nearly_coplanar_faces(&s.b) {
                classes.push("point: parry merges hull faces within 1.5 degrees into one polygon, ours are exact faces");
            } else {
                t.failures.push(format!(
                    "count: parry's {x:?} not among ours; {theirs:?}; {m:?}; {s}"
                ));
                return;
            }
        }
    } else if m.len() != 4 {
        t.failures.push(format!(
            "count: ours {} of parry's {}; {theirs:?}; {m:?}; {s}",
            m.len(),
            theirs.len()
        ));
        return;
    }
    classes.sort();
    classes.dedup();
    for c in classes {
        t.accept(c);
    }
}

/// Whether the shape's core is a segment.
fn segments(shape: &Shape) -> bool {
    matches!(shape, Shape::Capsule(c) if c.half_height() > 0.0)
}

/// Distance from `p` to the convex region spanned by parry's points, seen along
/// `n` (0 inside).
fn distance_to_region(p: Vec3, region: &[ParryPoint], n: Vec3) -> f32 {
    let flat = |v: Vec3| v - n * n.dot(v);
    let pts: Vec<Vec3> = region.iter().map(|x| flat(x.on_b)).collect();
    let q = flat(p);
    match pts.len() {
        0 => f32::INFINITY,
        1 => (q - pts[0]).length(),
        _ => {
            let c = pts.iter().copied().sum::<Vec3>() / pts.len() as f32;
            let u = n.any_orthonormal_vector();
            let w = n.cross(u);
            let mut ring = pts.clone();
            ring.sort_by(|a, b| {
                let (ta, tb) = (
                    (*a - c).dot(w).atan2((*a - c).dot(u)),
                    (*b - c).dot(w).atan2((*b - c).dot(u)),
                );
                ta.total_cmp(&tb)
            });
            let to_segment = |a: Vec3, b: Vec3| {
                let t = ((q - a).dot(b - a) / (b - a).length_squared().max(f32::MIN_POSITIVE))
                    .clamp(0.0, 1.0);
                (q - (a + (b - a) * t)).length()
            };
            let edges = (0..ring.len()).map(|i| (ring[i], ring[(i + 1) % ring.len()]));
            let inside = ring.len() >= 3
                && edges
                    .clone()
                    .all(|(a, b)| (b - a).cross(q - a).dot(n) >= 0.0);
            if inside {
                0.0
            } else {
                edges
                    .map(|(a, b)| to_segment(a, b))
                    .fold(f32::INFINITY, f32::min)
            }
        }
    }
}

/// Whether a hull (or rounded hull) has two faces sharing a vertex whose normals
/// are within parry's merge angle, `acos(1 - √ε)` (1.5 degrees).
fn nearly_coplanar_faces(shape: &Shape) -> bool {
    let hull = match shape {
        Shape::ConvexHull(h) => h,
        Shape::Rounded(r) => return nearly_coplanar_faces(r.inner()),
        _ => return false,
    };
    let limit = 1.0 - f32::EPSILON.sqrt();
    let faces: Vec<(Vec3, &[u32])> = (0..hull.polygon_count()).map(|f| hull.polygon(f)).collect();
    faces.iter().enumerate().any(|(i, (ni, vi))| {
        faces[i + 1..]
            .iter()
            .any(|(nj, vj)| ni.dot(*nj) > limit && vi.iter().any(|v| vj.contains(v)))
    })
}

/// Our points lie on both surfaces with `point_a - point_b = depth * normal`, and
/// the deepest has the contact's depth.
fn sound(s: &Scene, m: &Manifold, scale: f32) -> Result<Option<&'static str>, String> {
    let tol = 1e-4 * scale;
    // Two segments parallel within the manifold's bound leave each point off its
    // segment by up to 0.0045 of the overlap (`MANIFOLD_PARALLEL_SEGMENTS_SIN`).
    let along_segments = m.len() == 2
        && m.points().iter().all(|q| {
            use gjk_core::FeatureKind::{Edge, Vertex};
            matches!(
                (q.id.a.kind(), q.id.b.kind()),
                (Vertex, Edge) | (Edge, Vertex)
            )
        });
    // A corner kept in the clipping's tolerance band is up to `tol` off the
    // reference face, and a margin added along the normal there (rounded shapes)
    // can carry it as far again: twice the tolerance.
    // A normal within 1e-3 rad of the exact one (the accuracy asked of it, which
    // EPA reaches on curved shapes only to that order) carries a point projected
    // along it across a depth `d` up to `1e-3 d` off the reference face.
    let tilt = 1e-3 * m.max_depth().max(0.0);
    let slack = if along_segments {
        2.0 * tol + tilt + 0.0045 * (m.points()[0].point_a - m.points()[1].point_a).length()
    } else {
        2.0 * tol + tilt
    };
    let c = contact(&s.a, &s.pose_a, &s.b, &s.pose_b, 1.0).expect("a contact");
    let mut class = None;
    for q in m.points() {
        let da = distance_to_shape(&s.a, &s.pose_a, q.point_a);
        let db = distance_to_shape(&s.b, &s.pose_b, q.point_b);
        if da.abs() > f64::from(slack) || db.abs() > f64::from(slack) {
            // The contact's own point (a one-point manifold) is EPA's witness pair;
            // when that is off the surface, it is gjk-core's contact that is.
            let ca = distance_to_shape(&s.a, &s.pose_a, c.point_a);
            let cb = distance_to_shape(&s.b, &s.pose_b, c.point_b);
            let is_contact = m.len() == 1 && (q.point_a - c.point_a).length() < 10.0 * tol;
            if is_contact && ca.max(cb) + f64::from(tol) >= da.max(db) {
                class = Some(
                    "sound: the contact's own point, whose EPA witness is off the surface by more than 1e-4 of the size (gjk-core's contact)",
                );
                continue;
            }
            return Err(format!(
                "point off its shape: A by {da}, B by {db} (the contact's by {ca}, {cb})"
            ));
        }
        let off_normal = (q.point_a - q.point_b - q.depth * m.normal).length();
        if off_normal > 0.1 * tol {
            // The contact's own point is EPA's witness pair, apart along the normal
            // only as closely as gjk-core's contact makes it.
            let contact_off = (c.point_a - c.point_b - c.depth * c.normal).length();
            let is_contact = (q.point_a - c.point_a).length() < 0.1 * tol
                && (q.point_b - c.point_b).length() < 0.1 * tol;
            if is_contact && contact_off >= off_normal - 0.1 * tol {
                class = Some(
                    "sound: the contact's own point, whose EPA witnesses are apart off the normal by more than 1e-5 of the size (gjk-core's contact)",
                );
                continue;
            }
            return Err(format!(
                "point_a - point_b is {off_normal} off depth * normal"
            ));
        }
    }
    // The deepest candidate is within the tolerance of the contact, the first
    // point within the tolerance of the deepest candidate.
    if (c.depth - m.max_depth()).abs() > 2.0 * tol {
        return Err(format!(
            "deepest {} against the contact's {}",
            m.max_depth(),
            c.depth
        ));
    }
    Ok(class)
}

#[test]
fn stacking_scenes_match_parry() {
    let mut t = Tally::default();
    for s in stacking_scenes(8000, 1) {
        judge(&s, 0.0, &mut t);
    }
    // The same scenes lifted 0.03 off the ground, with a prediction of 0.05:
    // every point speculative.
    for mut s in stacking_scenes(2000, 2) {
        s.pose_b = Pose::new(s.pose_b.rotation(), s.pose_b.translation() + Vec3::Y * 0.03).unwrap();
        judge(&s, 0.05, &mut t);
    }
    t.report("stacking");
}

#[test]
fn random_pairs_match_parry() {
    for kind in PairKind::ALL {
        let seed = 5;
        let mut t = Tally::default();
        // Mostly deep overlaps at side 3, mostly gaps and shallow contacts at 6.
        let pairs = random_pairs(kind, 4000, seed, 3.0, Vec3::ZERO)
            .into_iter()
            .chain(random_pairs(kind, 4000, seed + 1, 6.0, Vec3::ZERO));
        for (i, p) in pairs.enumerate() {
            let s = Scene {
                what: format!(
                    "{} seed {seed} (side 3, then seed {} side 6) index {i}",
                    kind.name(),
                    seed + 1
                ),
                a: p.a,
                pose_a: p.pose_a,
                b: p.b,
                pose_b: p.pose_b,
            };
            judge(&s, 0.0, &mut t);
        }
        t.report(kind.name());
    }
}
