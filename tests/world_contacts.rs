//! `World::step` against a brute-force reference over seeded multi-step scenes:
//! every pair of live bodies tested (A the body of the smaller slot), filters
//! applied, and the contact events, the persisted points and the distance bounds
//! derived from the reference's answers of consecutive steps. The reference runs
//! the narrowphase the world uses, the wide contact batch and gjk-core's
//! `manifold_from_contact`, on every pair, so that the world's pipeline (candidate
//! pairs, the bounds that settle pairs, the pair cache, events and filters) must
//! match it bit for bit; and every contact is also checked against gjk-core's
//! scalar `contact` within the wide query's tolerance. The same scenes on the
//! calling thread, on a one-thread and a two-thread pool give identical reports.
//!
//! The scenes mix every shape kind densely enough for hundreds of contacts, move
//! every body each step (drift, spin, a few teleports), remove and add bodies, and
//! carry user data, group/mask filters (one body's filter changes mid-run) and a
//! pair filter. The prediction distance (0.05) is below the smallest fat margin
//! (0.2 of the smallest box side, 0.6 here), so every pair within it is a
//! broadphase candidate and the world must find them all.

use std::collections::BTreeMap;

use gjk_core::glam::{Quat, Vec3};
use gjk_core::tolerance::TOUCH_TOLERANCE;
use gjk_core::{
    ContactId, Manifold, ManifoldScratch, Pose, Shape, Status, SupportMap, contact,
    manifold_from_contact,
};
use gjk_simd::{Parallelism, contact_batch};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use widephase::{
    Body, BodyId, CollisionFilter, ContactEvent, ContactEventKind, PairManifold, StepReport, World,
    WorldConfig,
};
use workloads::workload::{
    SHAPE_KINDS, random_rotation, random_shape, random_unit, standard_hulls,
};

const PREDICTION: f32 = 0.05;

/// The pair filter of the scenes: pairs whose user data sum to a multiple of 7
/// stay out.
fn keep(a: &Body, b: &Body) -> bool {
    !(a.user_data + b.user_data).is_multiple_of(7)
}

/// Filters of the scenes: most bodies in group 1, some in group 2 that ignore
/// each other.
fn filter_for(rng: &mut ChaCha8Rng) -> CollisionFilter {
    if rng.random_range(0..5) == 0 {
        CollisionFilter { group: 2, mask: !2 }
    } else {
        CollisionFilter::default()
    }
}

struct Mover {
    id: BodyId,
    velocity: Vec3,
    spin: Vec3,
}

/// Runs a seeded scene for `steps` steps with `parallelism`, inside `pool` when
/// given; returns each step's report, and checks each against the reference when
/// `check` is set.
fn run(
    seed: u64,
    steps: usize,
    parallelism: Parallelism,
    pool: Option<&rayon::ThreadPool>,
    check: bool,
) -> Vec<StepReport> {
    let body = || -> Vec<StepReport> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let hulls = standard_hulls(&mut rng);
        let n = 300;
        let side = 14.0;
        let mut world = World::with_config(WorldConfig {
            prediction: PREDICTION,
            parallelism,
        })
        .unwrap();
        world.set_pair_filter(keep);
        let mut next_user = 1u64;
        let mut new_body = |rng: &mut ChaCha8Rng| {
            let kind = SHAPE_KINDS[rng.random_range(0..SHAPE_KINDS.len())];
            let shape = random_shape(rng, kind, &hulls);
            let centre = (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side;
            let mut b = Body::new(shape, Pose::new(random_rotation(rng), centre).unwrap());
            b.user_data = next_user;
            b.filter = filter_for(rng);
            next_user += 1;
            b
        };
        let first: Vec<Body> = (0..n).map(|_| new_body(&mut rng)).collect();
        let ids = world.add_many(first).unwrap();
        let mut movers: Vec<Mover> = ids
            .into_iter()
            .map(|id| Mover {
                id,
                velocity: random_unit(&mut rng) * rng.random_range(0.0..3.0),
                spin: random_unit(&mut rng) * rng.random_range(0.0..1.5),
            })
            .collect();
        let mut reference = Reference::default();
        let mut reports = Vec::new();
        for step in 0..steps {
            if step > 0 {
                // Removals and additions.
                for _ in 0..rng.random_range(0..4) {
                    let m = movers.swap_remove(rng.random_range(0..movers.len()));
                    let removed = world.remove(m.id).unwrap();
                    reference.removed(m.id, removed.user_data);
                }
                for _ in 0..rng.random_range(0..4) {
                    let id = world.insert(new_body(&mut rng)).unwrap();
                    movers.push(Mover {
                        id,
                        velocity: random_unit(&mut rng),
                        spin: Vec3::ZERO,
                    });
                }
                if step == steps / 2 {
                    // A filter change mid-run: this body now ignores group 1.
                    let id = movers[0].id;
                    world
                        .set_filter(id, CollisionFilter { group: 1, mask: !1 })
                        .unwrap();
                }
                let dt = 1.0 / 30.0;
                let moves: Vec<(BodyId, Pose)> = movers
                    .iter()
                    .map(|m| {
                        let pose = world.body(m.id).unwrap().pose;
                        let t = if rng.random_range(0..100) == 0 {
                            (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side
                        } else {
                            pose.translation() + m.velocity * dt
                        };
                        let r = Quat::from_scaled_axis(m.spin * dt) * pose.rotation();
                        (m.id, Pose::new(r, t).unwrap())
                    })
                    .collect();
                world.set_poses(&moves).unwrap();
            }
            let report = world.step().unwrap();
            if check {
                reference.check(&world, &movers, &report, seed, step);
            }
            reports.push(report);
        }
        reports
    };
    match pool {
        Some(p) => p.install(body),
        None => body(),
    }
}

/// The reference's memory of the previous step: touching pairs with their user
/// data, and every manifold's ids.
#[derive(Default)]
struct Reference {
    touching: BTreeMap<(BodyId, BodyId), (u64, u64)>,
    ids: BTreeMap<(BodyId, BodyId), Vec<ContactId>>,
    /// Contacts ended by removals since the last step.
    ended_by_removal: Vec<ContactEvent>,
}

impl Reference {
    fn removed(&mut self, id: BodyId, _user_data: u64) {
        let gone: Vec<(BodyId, BodyId)> = self
            .touching
            .keys()
            .filter(|(a, b)| *a == id || *b == id)
            .copied()
            .collect();
        for k in gone {
            let (ua, ub) = self.touching.remove(&k).unwrap();
            self.ended_by_removal.push(ContactEvent {
                kind: ContactEventKind::Ended,
                a: k.0,
                b: k.1,
                user_data_a: ua,
                user_data_b: ub,
            });
        }
        self.ids.retain(|(a, b), _| *a != id && *b != id);
    }

    fn check(
        &mut self,
        world: &World,
        movers: &[Mover],
        report: &StepReport,
        seed: u64,
        step: usize,
    ) {
        let at = |what: &str| format!("seed {seed} step {step}: {what}");
        // Handles order by slot first (a live slot has one handle), which is how
        // the world orders a pair's bodies and its pairs.
        let mut ids: Vec<BodyId> = movers.iter().map(|m| m.id).collect();
        ids.sort();
        let mut candidates: Vec<(BodyId, BodyId)> = Vec::new();
        for (i, &ia) in ids.iter().enumerate() {
            for &ib in &ids[i + 1..] {
                let (a, b) = (world.body(ia).unwrap(), world.body(ib).unwrap());
                if a.filter.collides_with(&b.filter) && keep(a, b) {
                    candidates.push((ia, ib));
                }
            }
        }
        let body = |id: BodyId| world.body(id).unwrap();
        let shapes_a: Vec<&Shape> = candidates.iter().map(|&(a, _)| &body(a).shape).collect();
        let shapes_b: Vec<&Shape> = candidates.iter().map(|&(_, b)| &body(b).shape).collect();
        let poses_a: Vec<Pose> = candidates.iter().map(|&(a, _)| body(a).pose).collect();
        let poses_b: Vec<Pose> = candidates.iter().map(|&(_, b)| body(b).pose).collect();
        let contacts = contact_batch(
            &shapes_a,
            &poses_a,
            &shapes_b,
            &poses_b,
            PREDICTION,
            Parallelism::Sequential,
        )
        .unwrap();
        let mut expected: BTreeMap<(BodyId, BodyId), Manifold> = BTreeMap::new();
        let mut scratch = ManifoldScratch::default();
        for (k, c) in contacts.iter().enumerate() {
            let (ia, ib) = candidates[k];
            let (a, b) = (body(ia), body(ib));
            let Some(c) = c else { continue };
            let m = manifold_from_contact(
                &a.shape,
                &a.pose,
                &b.shape,
                &b.pose,
                c,
                PREDICTION,
                &mut scratch,
            );
            expected.insert((ia, ib), m);
            // The wide contact against gjk-core's scalar one (see the crate's
            // contact tests for the tolerance and for the coincident curved
            // pairs gjk-core's EPA leaves unconverged).
            let scale = a.shape.bounding_radius() + b.shape.bounding_radius();
            let tol = 1e-4 * (scale.max(1.0) + c.depth.abs());
            if let Some(r) = contact(&a.shape, &a.pose, &b.shape, &b.pose, PREDICTION)
                && r.status == Status::Converged
                && c.status == Status::Converged
            {
                assert!(
                    (r.depth - c.depth).abs() <= tol,
                    "{}: wide {c:?} against gjk-core {r:?}",
                    at("contact depth")
                );
            }
        }
        // The manifolds: the same pairs, the same answers bit for bit, in slot order.
        let got: Vec<&PairManifold> = report.manifolds.iter().collect();
        let got_keys: Vec<(BodyId, BodyId)> = got.iter().map(|m| (m.a, m.b)).collect();
        let want_keys: Vec<(BodyId, BodyId)> = expected.keys().copied().collect();
        assert_eq!(got_keys, want_keys, "{}", at("pairs with manifolds"));
        let mut touching = BTreeMap::new();
        let mut new_ids = BTreeMap::new();
        let mut events = std::mem::take(&mut self.ended_by_removal);
        for m in &got {
            let want = &expected[&(m.a, m.b)];
            assert_eq!(
                &m.manifold,
                want,
                "{}",
                at(&format!("manifold of {:?}", (m.a, m.b)))
            );
            let (a, b) = (world.body(m.a).unwrap(), world.body(m.b).unwrap());
            let touch = TOUCH_TOLERANCE * (a.shape.bounding_radius() + b.shape.bounding_radius());
            let is_touching = want.max_depth() >= -touch;
            assert_eq!(m.touching, is_touching, "{}", at("touching"));
            // Persisted points: ids the pair had at the previous step.
            let prev = self.ids.get(&(m.a, m.b));
            for (k, p) in want.points().iter().enumerate() {
                let was = prev.is_some_and(|v| v.contains(&p.id));
                assert_eq!(m.persisted(k), was, "{}", at("persisted"));
            }
            new_ids.insert(
                (m.a, m.b),
                want.points().iter().map(|p| p.id).collect::<Vec<_>>(),
            );
            if is_touching {
                touching.insert((m.a, m.b), (a.user_data, b.user_data));
            }
        }
        for (k, &(ua, ub)) in &touching {
            let kind = if self.touching.contains_key(k) {
                ContactEventKind::Persisted
            } else {
                ContactEventKind::Began
            };
            events.push(ContactEvent {
                kind,
                a: k.0,
                b: k.1,
                user_data_a: ua,
                user_data_b: ub,
            });
        }
        for (k, &(ua, ub)) in &self.touching {
            if !touching.contains_key(k) {
                events.push(ContactEvent {
                    kind: ContactEventKind::Ended,
                    a: k.0,
                    b: k.1,
                    user_data_a: ua,
                    user_data_b: ub,
                });
            }
        }
        let sort = |v: &mut Vec<ContactEvent>| v.sort_by_key(|e| (e.a, e.b, e.kind as u8));
        let mut got_events = report.events.clone();
        sort(&mut got_events);
        sort(&mut events);
        assert_eq!(got_events, events, "{}", at("events"));
        // Every pair the world kept a bound for: no more than the true distance.
        for p in world.pairs().filter(|p| !p.filtered && p.gap > 0.0) {
            let (a, b) = (world.body(p.a).unwrap(), world.body(p.b).unwrap());
            let d = gjk_core::distance(&a.shape, &a.pose, &b.shape, &b.pose).distance;
            assert!(
                p.gap <= d + 1e-4 * (1.0 + d),
                "{}",
                at(&format!("bound {} above distance {d}", p.gap))
            );
        }
        self.touching = touching;
        self.ids = new_ids;
    }
}

#[test]
fn world_matches_the_brute_force_reference_with_events() {
    for seed in [1, 2] {
        let reports = run(seed, 30, Parallelism::default(), None, true);
        let contacts: usize = reports.iter().map(|r| r.touching().count()).sum();
        let ended = reports
            .iter()
            .flat_map(|r| &r.events)
            .filter(|e| e.kind == ContactEventKind::Ended)
            .count();
        // The scenes must exercise what they check.
        assert!(contacts > 500, "seed {seed}: only {contacts} contacts");
        assert!(ended > 20, "seed {seed}: only {ended} ended contacts");
        let culled: usize = reports.iter().map(|r| r.culled).sum();
        let filtered: usize = reports.iter().map(|r| r.filtered).sum();
        assert!(
            culled > 0 && filtered > 0,
            "seed {seed}: culled {culled}, filtered {filtered}"
        );
    }
}

#[test]
fn reports_do_not_depend_on_threads_or_parallelism() {
    let seed = 3;
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let sequential = run(seed, 20, Parallelism::Sequential, None, false);
    for (name, pool) in [("1 thread", &one), ("2 threads", &two)] {
        let got = run(seed, 20, Parallelism::default(), Some(pool), false);
        for (step, (g, w)) in got.iter().zip(&sequential).enumerate() {
            let at = format!("seed {seed} step {step} {name}");
            assert_eq!(g.manifolds, w.manifolds, "{at}: manifolds");
            assert_eq!(g.events, w.events, "{at}: events");
            assert_eq!(
                (
                    g.candidates,
                    g.began,
                    g.ended,
                    g.filtered,
                    g.culled,
                    g.queried
                ),
                (
                    w.candidates,
                    w.began,
                    w.ended,
                    w.filtered,
                    w.culled,
                    w.queried
                ),
                "{at}: counts"
            );
        }
    }
}
