//! The named workloads and their contestants. Each workload is built from the
//! shared seeded generators (the benches' standard pairs and standard boxes) and
//! holds one closure per library, each doing the whole workload once.
//!
//! Checksums: the narrowphase workloads count hits (pairs intersecting, at
//! distance 0, in contact), the broadphase workloads pairs found, the step
//! workloads pairs with at least one contact point.
//!
//! | name | what one run does | contestants |
//! |---|---|---|
//! | `narrowphase/{query}/{kinds}` | answers `query` (intersects, distance, contact at prediction 0) on the standard pairs of `kinds` | gjk-simd (batch driver, on the calling thread), gjk-core (scalar), parry3d (its query dispatcher: analytic, SAT or GJK/EPA per pair) |
//! | `broadphase/pairs/{n}` | builds a tree over the `n` standard boxes and finds every overlapping pair | widephase (binned-SAH `DynamicTree` and its eight-wide pair pass), parry3d (`Bvh` binned build and tree-tree traversal), bvh-arena (inserts and its pair pass) |
//! | `step/{n}` | moves `n` mixed bodies one step and computes the contact manifold (prediction: `WorldConfig`'s default) of every pair within the prediction distance | widephase (`World::set_poses` and `World::step`: fat-box broadphase, bounds, wide pair-contact batch: contacts and wide manifolds), parry3d (a `Bvh` rebuilt over the new tight boxes, its pairs, the dispatcher's `contact_manifolds` on each with the pair's manifolds and workspace kept across steps) |

use std::collections::HashMap;
use std::hint::black_box;
use std::rc::Rc;

use broadphase::{Aabb, DynamicTree};
use gjk_core::glam::{Quat, Vec3};
use gjk_core::{Pose, Shape, SupportMap};
use gjk_simd::{BatchOptions, Parallelism};
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry3d::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use parry3d::shape::SharedShape;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use widephase::{BodyId, World, WorldConfig};
use workloads::PairKind;
use workloads::workload::{
    SHAPE_KINDS, random_rotation, random_shape, random_unit, standard_hulls,
};

/// One library's run of a workload; returns a checksum (pairs found, hits, pairs
/// with contact points) so that the work cannot be optimized away and the
/// contestants' answers can be compared.
pub type Run = Box<dyn FnMut() -> u64>;

/// A contestant: a library and its run.
pub struct Contestant {
    /// The library (`gjk-simd`, `parry3d`, ...).
    pub name: &'static str,
    /// One run of the whole workload.
    pub run: Run,
}

/// A built workload.
pub struct Workload {
    /// Its name (`narrowphase/distance/hull-hull`).
    pub name: String,
    /// Items one run processes (pairs, boxes, bodies).
    pub items: usize,
    /// What an item is.
    pub unit: &'static str,
    /// The contestants, widephase's first; the ratios are against `baseline`.
    pub contestants: Vec<Contestant>,
    /// The contestant the others are compared with.
    pub baseline: &'static str,
}

/// The queries of the narrowphase workloads.
pub const QUERIES: [&str; 3] = ["intersects", "distance", "contact"];

/// Every workload name for these sizes.
pub fn names(sizes: &[usize]) -> Vec<String> {
    let mut names = Vec::new();
    for query in QUERIES {
        for kind in PairKind::ALL {
            names.push(format!("narrowphase/{query}/{}", kind.name()));
        }
    }
    for &n in sizes {
        names.push(format!("broadphase/pairs/{n}"));
    }
    for &n in sizes {
        names.push(format!("step/{n}"));
    }
    names
}

/// Builds the workload `name` (one of [`names`]).
pub fn build(name: &str, pairs: usize, seed: u64) -> Option<Workload> {
    let parts: Vec<&str> = name.split('/').collect();
    match parts.as_slice() {
        ["narrowphase", query, kind] => {
            let kind = PairKind::ALL.into_iter().find(|k| k.name() == *kind)?;
            narrowphase(name, query, kind, pairs, seed)
        }
        ["broadphase", "pairs", n] => Some(broadphase_pairs(name, n.parse().ok()?, seed)),
        ["step", n] => step(name, n.parse().ok()?, seed),
        _ => None,
    }
}

/// The standard pairs as both libraries' data.
struct Pairs {
    a: Vec<Shape>,
    pa: Vec<Pose>,
    b: Vec<Shape>,
    pb: Vec<Pose>,
    parry: Vec<(
        SharedShape,
        parry3d::math::Pose,
        SharedShape,
        parry3d::math::Pose,
    )>,
}

fn narrowphase(name: &str, query: &str, kind: PairKind, n: usize, seed: u64) -> Option<Workload> {
    let pairs = workloads::standard_pairs(kind, n, seed);
    let data = Rc::new(Pairs {
        a: pairs.iter().map(|p| p.a.clone()).collect(),
        pa: pairs.iter().map(|p| p.pose_a).collect(),
        b: pairs.iter().map(|p| p.b.clone()).collect(),
        pb: pairs.iter().map(|p| p.pose_b).collect(),
        parry: pairs
            .iter()
            .map(|p| {
                let (a, pa) = gjk_core::parry::to_parry(&p.a, &p.pose_a).ok()?;
                let (b, pb) = gjk_core::parry::to_parry(&p.b, &p.pose_b).ok()?;
                Some((a, pa, b, pb))
            })
            .collect::<Option<Vec<_>>>()?,
    });
    let serial = BatchOptions {
        parallelism: Parallelism::Sequential,
        ..BatchOptions::default()
    };
    let mut contestants = Vec::new();
    let d = data.clone();
    match query {
        "intersects" => {
            contestants.push(Contestant {
                name: "gjk-simd",
                run: Box::new(move || {
                    let r = gjk_simd::intersects_batch_with(&d.a, &d.pa, &d.b, &d.pb, serial)
                        .expect("equal lengths");
                    r.iter().filter(|i| i.intersecting).count() as u64
                }),
            });
            let d = data.clone();
            contestants.push(Contestant {
                name: "gjk-core",
                run: Box::new(move || {
                    (0..d.a.len())
                        .filter(|&i| gjk_core::intersects(&d.a[i], &d.pa[i], &d.b[i], &d.pb[i]))
                        .count() as u64
                }),
            });
            let d = data.clone();
            contestants.push(Contestant {
                name: "parry3d",
                run: Box::new(move || {
                    d.parry
                        .iter()
                        .filter(|(a, pa, b, pb)| {
                            parry3d::query::intersection_test(pa, &**a, pb, &**b)
                                .is_ok_and(|i| i.intersecting)
                        })
                        .count() as u64
                }),
            });
        }
        "distance" => {
            contestants.push(Contestant {
                name: "gjk-simd",
                run: Box::new(move || {
                    let r = gjk_simd::distance_batch_with(&d.a, &d.pa, &d.b, &d.pb, serial)
                        .expect("equal lengths");
                    r.iter().filter(|x| x.distance == 0.0).count() as u64
                }),
            });
            let d = data.clone();
            contestants.push(Contestant {
                name: "gjk-core",
                run: Box::new(move || {
                    (0..d.a.len())
                        .filter(|&i| {
                            gjk_core::distance(&d.a[i], &d.pa[i], &d.b[i], &d.pb[i]).distance == 0.0
                        })
                        .count() as u64
                }),
            });
            let d = data.clone();
            contestants.push(Contestant {
                name: "parry3d",
                run: Box::new(move || {
                    d.parry
                        .iter()
                        .filter(|(a, pa, b, pb)| {
                            parry3d::query::distance(pa, &**a, pb, &**b)
                                .is_ok_and(|x| x.distance == 0.0)
                        })
                        .count() as u64
                }),
            });
        }
        "contact" => {
            contestants.push(Contestant {
                name: "gjk-simd",
                run: Box::new(move || {
                    let r = gjk_simd::contact_batch_with(&d.a, &d.pa, &d.b, &d.pb, 0.0, serial)
                        .expect("equal lengths");
                    r.iter().filter(|c| c.is_some()).count() as u64
                }),
            });
            let d = data.clone();
            contestants.push(Contestant {
                name: "gjk-core",
                run: Box::new(move || {
                    (0..d.a.len())
                        .filter(|&i| {
                            gjk_core::contact(&d.a[i], &d.pa[i], &d.b[i], &d.pb[i], 0.0).is_some()
                        })
                        .count() as u64
                }),
            });
            let d = data.clone();
            contestants.push(Contestant {
                name: "parry3d",
                run: Box::new(move || {
                    d.parry
                        .iter()
                        .filter(|(a, pa, b, pb)| {
                            parry3d::query::contact(pa, &**a, pb, &**b, 0.0)
                                .is_ok_and(|c| c.is_some())
                        })
                        .count() as u64
                }),
            });
        }
        _ => return None,
    }
    Some(Workload {
        name: name.to_string(),
        items: n,
        unit: "pairs",
        contestants,
        baseline: "parry3d",
    })
}

fn broadphase_pairs(name: &str, n: usize, seed: u64) -> Workload {
    let (centres, half, _) = workloads::boxes::standard_boxes(n, seed);
    let ours: Rc<Vec<Aabb>> = Rc::new(
        centres
            .iter()
            .zip(&half)
            .filter_map(|(&c, &h)| Aabb::from_center_half_extents(c, h).ok())
            .collect(),
    );
    let parry: Vec<parry3d::bounding_volume::Aabb> = centres
        .iter()
        .zip(&half)
        .map(|(&c, &h)| parry3d::bounding_volume::Aabb::new(c - h, c + h))
        .collect();
    let arena: Vec<bvh_arena::volumes::Aabb<3>> = centres
        .iter()
        .zip(&half)
        .map(|(&c, &h)| bvh_arena::volumes::Aabb::from_min_max(c - h, c + h))
        .collect();
    let mut ws = BvhWorkspace::default();
    Workload {
        name: name.to_string(),
        items: n,
        unit: "boxes",
        contestants: vec![
            Contestant {
                name: "widephase",
                run: Box::new(move || {
                    let (tree, _) = DynamicTree::from_aabbs(&ours);
                    tree.overlapping_pairs().len() as u64
                }),
            },
            Contestant {
                name: "parry3d",
                run: Box::new(move || {
                    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &parry);
                    let mut count = 0u64;
                    bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |_, _| count += 1);
                    count
                }),
            },
            Contestant {
                name: "bvh-arena",
                run: Box::new(move || {
                    let mut bvh = bvh_arena::Bvh::<u32, bvh_arena::volumes::Aabb<3>>::default();
                    for (i, b) in arena.iter().enumerate() {
                        bvh.insert(i as u32, *b);
                    }
                    let mut count = 0u64;
                    bvh.for_each_overlaping_pair(|_, _| count += 1);
                    count
                }),
            },
        ],
        baseline: "parry3d",
    }
}

/// The moving scene of the `step` workloads: the main job's bodies and motion.
struct Motion {
    shapes: Vec<Shape>,
    poses: Vec<Pose>,
    velocity: Vec<Vec3>,
    spin: Vec<Vec3>,
    side: f32,
}

impl Motion {
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let side = (4.0 * n.max(1) as f32).cbrt() * 3.0;
        let hulls = standard_hulls(&mut rng);
        let mut m = Motion {
            shapes: Vec::with_capacity(n),
            poses: Vec::with_capacity(n),
            velocity: Vec::with_capacity(n),
            spin: Vec::with_capacity(n),
            side,
        };
        for _ in 0..n {
            let kind = SHAPE_KINDS[rng.random_range(0..SHAPE_KINDS.len())];
            m.shapes.push(random_shape(&mut rng, kind, &hulls));
            let centre = (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side;
            m.poses
                .push(Pose::new(random_rotation(&mut rng), centre).unwrap_or_default());
            m.velocity
                .push(random_unit(&mut rng) * rng.random_range(0.0..2.0));
            m.spin
                .push(random_unit(&mut rng) * rng.random_range(0.0..1.0));
        }
        m
    }

    /// Advances every pose by 1/60 s, bouncing off the walls.
    fn advance(&mut self) {
        let (dt, half) = (1.0 / 60.0, 0.5 * self.side);
        for i in 0..self.poses.len() {
            let p = self.poses[i];
            let mut t = p.translation() + self.velocity[i] * dt;
            for axis in 0..3 {
                if t[axis].abs() > half {
                    self.velocity[i][axis] = -self.velocity[i][axis];
                    t[axis] = t[axis].clamp(-half, half);
                }
            }
            let r = Quat::from_scaled_axis(self.spin[i] * dt) * p.rotation();
            self.poses[i] = Pose::new(r, t).unwrap_or(p);
        }
    }
}

/// What a parry3d or rapier user keeps per pair between steps: the pair's
/// manifolds (their points carry feature ids for warm starts) and the
/// dispatcher's workspace.
type ParryPairState = (
    Vec<ContactManifold<(), ()>>,
    Option<ContactManifoldsWorkspace>,
);

/// `None` when a shape has no parry3d twin, so that both contestants always
/// hold the same bodies under the same indices.
fn step(name: &str, n: usize, seed: u64) -> Option<Workload> {
    // `World::new` runs with the default configuration; parry gets the same
    // prediction distance.
    let prediction = WorldConfig::default().prediction;
    let mut ours = Motion::new(n, seed);
    let mut world = World::new(Parallelism::default());
    let ids: Vec<BodyId> = ours
        .shapes
        .iter()
        .zip(&ours.poses)
        .map(|(s, p)| world.add(s.clone(), *p).ok())
        .collect::<Option<_>>()?;
    let _ = world.step();
    let mut theirs = Motion::new(n, seed);
    let parry_shapes: Vec<SharedShape> = theirs
        .shapes
        .iter()
        .map(|s| gjk_core::parry::to_parry_shape(s).ok())
        .collect::<Option<_>>()?;
    let mut ws = BvhWorkspace::default();
    // Keyed by the pair (smaller index first); a pair whose boxes part loses its
    // state, as in rapier's narrowphase. Two tables swapped each step, so that
    // neither is reallocated.
    let mut state: HashMap<(u32, u32), ParryPairState> = HashMap::new();
    let mut kept: HashMap<(u32, u32), ParryPairState> = HashMap::new();
    Some(Workload {
        name: name.to_string(),
        items: n,
        unit: "bodies",
        contestants: vec![
            Contestant {
                name: "widephase",
                run: Box::new(move || {
                    ours.advance();
                    let moves: Vec<(BodyId, Pose)> = ids
                        .iter()
                        .copied()
                        .zip(ours.poses.iter().copied())
                        .collect();
                    if world.set_poses(&moves).is_err() {
                        return 0;
                    }
                    world.step().map_or(0, |r| {
                        black_box(
                            r.manifolds
                                .iter()
                                .filter(|m| !m.manifold.is_empty())
                                .count(),
                        ) as u64
                    })
                }),
            },
            Contestant {
                name: "parry3d",
                run: Box::new(move || {
                    theirs.advance();
                    let poses: Vec<parry3d::math::Pose> = theirs
                        .poses
                        .iter()
                        .map(gjk_core::parry::pose_to_parry)
                        .collect();
                    // The tight boxes, grown by half the prediction each so that
                    // boxes within the prediction overlap: the smallest candidate
                    // set that holds every pair World can give a manifold. The
                    // fat boxes would match World's candidate set, but World's
                    // bounds settle the fat-only pairs before any contact query;
                    // handing them to `contact_manifolds` would charge parry for
                    // work neither side needs.
                    let grow = Vec3::splat(0.5 * prediction);
                    let boxes: Vec<parry3d::bounding_volume::Aabb> = theirs
                        .shapes
                        .iter()
                        .zip(&theirs.poses)
                        .map(|(s, p)| {
                            let b = s.aabb(p);
                            parry3d::bounding_volume::Aabb::new(b.min - grow, b.max + grow)
                        })
                        .collect();
                    let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &boxes);
                    let mut pairs = Vec::new();
                    bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| {
                        pairs.push((a.min(b), a.max(b)));
                    });
                    let mut in_contact = 0u64;
                    for (a, b) in pairs {
                        let (mut manifolds, mut workspace) =
                            state.remove(&(a, b)).unwrap_or_default();
                        let (ia, ib) = (a as usize, b as usize);
                        let pos12 = poses[ia].inv_mul(&poses[ib]);
                        let ok = DefaultQueryDispatcher.contact_manifolds(
                            &pos12,
                            &*parry_shapes[ia],
                            &*parry_shapes[ib],
                            prediction,
                            &mut manifolds,
                            &mut workspace,
                        );
                        let touches = manifolds
                            .iter()
                            .any(|m| m.points.iter().any(|p| p.dist <= prediction));
                        in_contact += u64::from(ok.is_ok() && touches);
                        kept.insert((a, b), (manifolds, workspace));
                    }
                    state.clear();
                    std::mem::swap(&mut state, &mut kept);
                    in_contact
                }),
            },
        ],
        baseline: "parry3d",
    })
}
