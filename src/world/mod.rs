//! The pipeline: a world of posed shapes, and a step that runs the broadphase,
//! keeps a cache of its candidate pairs, settles most of them with bounds and
//! computes the contact manifolds of the rest.
//!
//! Layout: this module holds [`World`] and its public types; `bodies` the body
//! table (a record per broadphase slot), `pairs` the pair cache, `narrowphase` the
//! bound tests and the contact query, `filter` and `events` the public filter and
//! event types.

mod bodies;
mod events;
mod filter;
mod narrowphase;
mod pairs;

use std::time::{Duration, Instant};

use broadphase::{Aabb, Broadphase, BroadphaseConfig, Pair, ProxyId};
use gjk_core::tolerance::TOUCH_TOLERANCE;
use gjk_core::{ContactId, Distance, Manifold, Pose, Shape, SupportMap};
use gjk_simd::{BatchError, Parallelism, distance_batch};

use bodies::{BodyRecord, BodyTable};
pub use events::{ContactEvent, ContactEventKind};
pub use filter::{CollisionFilter, PairFilter};
use narrowphase::{Outcome, Verdict, query_pairs, verdicts};
use pairs::{EXCLUDED, MASKED, NO_CONTACT, PairCache, PairEntry, REMOVED, TOUCHING};

/// A body in a [`World`]: a shape at a pose, with the user's data and its
/// collision filter.
#[derive(Debug, Clone)]
pub struct Body {
    /// The body's shape.
    pub shape: Shape,
    /// Where the shape is.
    pub pose: Pose,
    /// The user's number for the body (an index or a key of theirs), carried by
    /// its contact events.
    pub user_data: u64,
    /// Which bodies it is tested against.
    pub filter: CollisionFilter,
}

impl Body {
    /// A body with user data 0 and the default filter (colliding with all).
    pub fn new(shape: Shape, pose: Pose) -> Self {
        Self {
            shape,
            pose,
            user_data: 0,
            filter: CollisionFilter::default(),
        }
    }
}

/// A handle to a body (generational: a removed body's handle stays invalid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(ProxyId);

/// Why a world operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// The broadphase refused the request (stale handle, non-finite bounds, ...).
    #[error("broadphase: {0}")]
    Broadphase(#[from] broadphase::Error),
    /// The narrowphase batch driver refused its input.
    #[error("narrowphase: {0}")]
    Narrowphase(#[from] BatchError),
    /// The prediction distance was NaN, infinite or negative.
    #[error("prediction distance must be finite and non-negative (got {0})")]
    Prediction(f32),
}

/// How a [`World`] runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldConfig {
    /// The speculative margin: pairs closer than this get manifolds (with points
    /// of negative depth for the gap), so that a solver can stop bodies before
    /// they meet. World units, finite and non-negative.
    pub prediction: f32,
    /// How the narrowphase spreads its work (the results do not depend on it).
    pub parallelism: Parallelism,
}

impl Default for WorldConfig {
    /// No prediction, the default parallelism.
    fn default() -> Self {
        Self {
            prediction: 0.0,
            parallelism: Parallelism::default(),
        }
    }
}

/// The distance answer for one candidate pair ([`World::distances`]).
#[derive(Debug, Clone, Copy)]
pub struct PairResult {
    /// One body of the pair.
    pub a: BodyId,
    /// The other body.
    pub b: BodyId,
    /// Distance and closest points (distance 0: overlapping or touching).
    pub distance: Distance,
}

/// A candidate pair as the world last saw it ([`World::pairs`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CandidatePair {
    /// The body with the smaller slot.
    pub a: BodyId,
    /// The other body.
    pub b: BodyId,
    /// A filter keeps the pair out of the narrowphase.
    pub filtered: bool,
    /// What the last step knew of the pair's distance: a lower bound of the gap
    /// when apart (the bound that settled it, or GJK's distance), the negated
    /// depth of the deepest point when within the prediction distance; infinite
    /// before its first step or when filtered.
    pub gap: f32,
}

/// The manifold of one pair within the prediction distance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairManifold {
    /// The body with the smaller slot (the manifold's A).
    pub a: BodyId,
    /// The other body (B).
    pub b: BodyId,
    /// Normal from A to B, and up to four points.
    pub manifold: Manifold,
    /// Bit `k` is set when point `k`'s [`ContactId`] was among the pair's points
    /// at the previous step: the point a solver warm-starts from its last impulse.
    pub persisted: u8,
    /// The pair touches (a point at depth 0 or deeper, to the touch tolerance);
    /// otherwise every point is speculative.
    pub touching: bool,
}

impl PairManifold {
    /// Whether point `k` was in the pair's manifold at the previous step.
    pub fn persisted(&self, k: usize) -> bool {
        self.persisted & (1 << k) != 0
    }
}

/// What one [`World::step`] found and how long it took.
#[derive(Debug, Clone, Default)]
pub struct StepReport {
    /// The manifold of every candidate pair within the prediction distance, in
    /// the broadphase's pair order.
    pub manifolds: Vec<PairManifold>,
    /// Contacts that began, persisted and ended, in this order of origin: bodies
    /// removed since the last step, pairs whose fat boxes parted, then pairs in
    /// the broadphase's order.
    pub events: Vec<ContactEvent>,
    /// Candidate pairs (fat boxes overlap).
    pub candidates: usize,
    /// Candidate pairs that began this step.
    pub began: usize,
    /// Candidate pairs that ended this step.
    pub ended: usize,
    /// Candidate pairs a filter kept out.
    pub filtered: usize,
    /// Candidate pairs the bounds proved apart (no GJK).
    pub culled: usize,
    /// Candidate pairs that ran GJK (and EPA when overlapping).
    pub queried: usize,
    /// Time in the broadphase update and the pair cache.
    pub broadphase_time: Duration,
    /// Time in the bounds, the contact queries and the manifolds.
    pub narrowphase_time: Duration,
}

impl StepReport {
    /// The manifolds of the pairs that touch.
    pub fn touching(&self) -> impl Iterator<Item = &PairManifold> {
        self.manifolds.iter().filter(|m| m.touching)
    }
}

/// The feature ids of a pair's manifold, kept for the next step.
#[derive(Debug, Clone, Copy, Default)]
struct ContactIds {
    ids: [ContactId; 4],
    len: u8,
}

/// Bodies tracked by a broadphase, with a pair cache and contact manifolds.
///
/// Each step: the broadphase updates its candidate pairs (fat boxes overlap);
/// the pair cache follows its changes; pairs a filter excludes are skipped; the
/// bounds (balls, boxes, the pair's last separating axis) settle the pairs they
/// prove farther apart than the prediction distance; the rest get a contact
/// query and, within the prediction distance, a manifold whose points carry
/// feature ids, flagged when they persist from the previous step; contact events
/// report the pairs whose contact began, persisted and ended.
///
/// Bodies live in a table indexed by the broadphase's slots, so a candidate pair's
/// bodies are read by index; handles are checked only where the user passes one.
/// Results do not depend on the thread count or on [`WorldConfig::parallelism`].
pub struct World {
    broadphase: Broadphase<()>,
    bodies: BodyTable,
    pairs: PairCache,
    /// The feature ids of the last step's manifolds ([`PairEntry::contact`]).
    contact_ids: Vec<ContactIds>,
    /// Events made between steps (removed bodies' contacts), reported first.
    pending: Vec<ContactEvent>,
    pair_filter: Option<Box<PairFilter>>,
    /// A body's filter changed: the next step checks every pair's groups.
    refilter: bool,
    config: WorldConfig,
}

impl Default for World {
    fn default() -> Self {
        Self::new(Parallelism::default())
    }
}

/// The shape's exact bounds at `pose`, as a broadphase box.
fn bounds(shape: &Shape, pose: &Pose) -> Result<(gjk_core::Aabb, Aabb), broadphase::Error> {
    let b = shape.aabb(pose);
    Ok((b, Aabb::new(b.min, b.max)?))
}

/// The bounds of `shape` at `pose` for a move, refused unless they have a finite
/// fat box: the broadphase would refuse such a box when it leaves its fat box,
/// after the pose had been written, so the check comes first and a body's pose
/// always matches its box.
fn move_bounds(
    config: &BroadphaseConfig,
    shape: &Shape,
    pose: &Pose,
) -> Result<(gjk_core::Aabb, Aabb), broadphase::Error> {
    let (exact, aabb) = bounds(shape, pose)?;
    config.fat_box(&aabb)?;
    Ok((exact, aabb))
}

impl World {
    /// An empty world without prediction whose narrowphase runs with
    /// `parallelism`.
    pub fn new(parallelism: Parallelism) -> Self {
        Self::with_parts(WorldConfig {
            parallelism,
            ..WorldConfig::default()
        })
    }

    /// An empty world; an error if the prediction distance is not finite and
    /// non-negative.
    pub fn with_config(config: WorldConfig) -> Result<Self, WorldError> {
        if !(config.prediction.is_finite() && config.prediction >= 0.0) {
            return Err(WorldError::Prediction(config.prediction));
        }
        Ok(Self::with_parts(config))
    }

    fn with_parts(config: WorldConfig) -> Self {
        Self {
            broadphase: Broadphase::new(),
            bodies: BodyTable::default(),
            pairs: PairCache::default(),
            contact_ids: Vec::new(),
            pending: Vec::new(),
            pair_filter: None,
            refilter: false,
            config,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Adds a shape at a pose (user data 0, the default filter).
    pub fn add(&mut self, shape: Shape, pose: Pose) -> Result<BodyId, WorldError> {
        self.insert(Body::new(shape, pose))
    }

    /// Adds a body.
    pub fn insert(&mut self, body: Body) -> Result<BodyId, WorldError> {
        let (exact, aabb) = bounds(&body.shape, &body.pose)?;
        let id = self.broadphase.insert(aabb, ())?;
        self.bodies
            .put(id.index() as usize, BodyRecord::new(body, exact));
        Ok(BodyId(id))
    }

    /// Adds many bodies at once, for loading a scene: the broadphase takes them in
    /// one binned SAH build, and the next step finds all their pairs with one
    /// traversal of the tree. Every body's bounds are checked first: on an error
    /// nothing is added.
    pub fn add_many(
        &mut self,
        bodies: impl IntoIterator<Item = Body>,
    ) -> Result<Vec<BodyId>, WorldError> {
        let bodies: Vec<Body> = bodies.into_iter().collect();
        let mut boxes = Vec::with_capacity(bodies.len());
        for body in &bodies {
            boxes.push(bounds(&body.shape, &body.pose)?);
        }
        let ids = self
            .broadphase
            .insert_many(boxes.iter().map(|&(_, aabb)| (aabb, ())))?;
        self.bodies.reserve(bodies.len());
        for ((body, (exact, _)), id) in bodies.into_iter().zip(boxes).zip(&ids) {
            self.bodies
                .put(id.index() as usize, BodyRecord::new(body, exact));
        }
        Ok(ids.into_iter().map(BodyId).collect())
    }

    /// Removes a body and returns it. Its contacts end now: their events (with
    /// both bodies' user data) open the next step's report.
    pub fn remove(&mut self, id: BodyId) -> Result<Body, WorldError> {
        let partners: Vec<ProxyId> = self.broadphase.partners(id.0)?.collect();
        for q in partners {
            let pair = if id.0.index() < q.index() {
                Pair { a: id.0, b: q }
            } else {
                Pair { a: q, b: id.0 }
            };
            let Some(e) = self.pairs.find_mut(&pair) else {
                continue;
            };
            if e.has(TOUCHING) && !e.has(REMOVED) {
                let (a, b) = (
                    &self.bodies.get(pair.a.index()).body,
                    &self.bodies.get(pair.b.index()).body,
                );
                self.pending.push(ContactEvent {
                    kind: ContactEventKind::Ended,
                    a: BodyId(pair.a),
                    b: BodyId(pair.b),
                    user_data_a: a.user_data,
                    user_data_b: b.user_data,
                });
            }
            e.flags |= REMOVED;
        }
        self.broadphase.remove(id.0)?;
        Ok(self.bodies.take(id.0.index() as usize))
    }

    /// The body behind a handle.
    pub fn body(&self, id: BodyId) -> Result<&Body, WorldError> {
        if !self.broadphase.contains(id.0) {
            return Err(broadphase::Error::StaleHandle.into());
        }
        Ok(&self.bodies.get(id.0.index()).body)
    }

    /// The live record behind a handle, mutably.
    fn record_mut(&mut self, id: BodyId) -> Result<&mut BodyRecord, WorldError> {
        if !self.broadphase.contains(id.0) {
            return Err(broadphase::Error::StaleHandle.into());
        }
        Ok(self.bodies.get_mut(id.0.index()))
    }

    /// Sets a body's user data (carried by its contact events from now on).
    pub fn set_user_data(&mut self, id: BodyId, user_data: u64) -> Result<(), WorldError> {
        self.record_mut(id)?.body.user_data = user_data;
        Ok(())
    }

    /// Sets a body's collision filter; the next step applies it to all its pairs
    /// (a pair it now excludes ends its contact).
    pub fn set_filter(&mut self, id: BodyId, filter: CollisionFilter) -> Result<(), WorldError> {
        self.record_mut(id)?.body.filter = filter;
        self.refilter = true;
        Ok(())
    }

    /// Sets the function asked about each pair when it begins (its fat boxes start
    /// to overlap), with both bodies: `false` keeps the pair out of the
    /// narrowphase until it ends. Pairs already begun keep their answer.
    pub fn set_pair_filter(
        &mut self,
        filter: impl Fn(&Body, &Body) -> bool + Send + Sync + 'static,
    ) {
        self.pair_filter = Some(Box::new(filter));
    }

    /// Number of bodies.
    pub fn len(&self) -> usize {
        self.broadphase.len()
    }

    /// Whether the world has no bodies.
    pub fn is_empty(&self) -> bool {
        self.broadphase.is_empty()
    }

    /// The broadphase's fat box of a body (its tight bounds plus a margin).
    pub fn fat_bounds(&self, id: BodyId) -> Result<Aabb, WorldError> {
        Ok(self.broadphase.fat_aabb(id.0)?)
    }

    /// Moves a body. The broadphase tree is only touched when the body leaves its
    /// fat box.
    ///
    /// A pose whose bounds are not finite, or would not be once grown by the
    /// broadphase's fat margin, is refused and the body stays where it was.
    pub fn set_pose(&mut self, id: BodyId, pose: Pose) -> Result<(), WorldError> {
        let shape = &self.body(id)?.shape;
        let (exact, aabb) = move_bounds(self.broadphase.config(), shape, &pose)?;
        self.broadphase.move_proxy(id.0, aabb)?;
        let record = self.bodies.get_mut(id.0.index());
        record.body.pose = pose;
        record.bounds = exact;
        Ok(())
    }

    /// Moves many bodies at once: the same as [`set_pose`](Self::set_pose) for each
    /// move in order, but the bodies' bounds are computed, and checked against their
    /// fat boxes, inside the broadphase's pass over its records
    /// ([`Broadphase::move_proxies_in`], over the body table), in parallel for
    /// large batches; only the bodies that escaped touch the tree.
    ///
    /// A move naming a stale handle, or whose pose `set_pose` would refuse, leaves that
    /// body alone; every other body moves, and the first error in batch order is
    /// returned. Each body's pose always matches its box in the broadphase.
    pub fn set_poses(&mut self, moves: &[(BodyId, Pose)]) -> Result<(), WorldError> {
        let ids: Vec<ProxyId> = moves.iter().map(|(id, _)| id.0).collect();
        let config = *self.broadphase.config();
        self.broadphase.move_proxies_in(
            &ids,
            self.bodies.records_mut(),
            |k, record: &mut BodyRecord| {
                let pose = moves[k].1;
                let (exact, aabb) = move_bounds(&config, &record.body.shape, &pose)?;
                record.body.pose = pose;
                record.bounds = exact;
                Ok::<_, WorldError>(aabb)
            },
        )?;
        Ok(())
    }

    /// Every candidate pair as the last step left it, in the broadphase's pair
    /// order: whether a filter excludes it and what is known of its distance.
    pub fn pairs(&self) -> impl Iterator<Item = CandidatePair> + '_ {
        self.pairs
            .entries()
            .iter()
            .filter(|e| !e.has(REMOVED))
            .map(|e| CandidatePair {
                a: BodyId(e.pair.a),
                b: BodyId(e.pair.b),
                filtered: e.has(EXCLUDED) || e.has(MASKED),
                gap: e.gap,
            })
    }

    /// The exact distance of every candidate pair of the last step (filtered ones
    /// included), by the wide distance query, in the broadphase's pair order: for
    /// users who need distances beyond the prediction distance. Results do not
    /// depend on the thread count or the batching.
    pub fn distances(&self) -> Result<Vec<PairResult>, WorldError> {
        let entries: Vec<&PairEntry> = self
            .pairs
            .entries()
            .iter()
            .filter(|e| !e.has(REMOVED))
            .collect();
        let n = entries.len();
        let (mut shapes_a, mut poses_a) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut shapes_b, mut poses_b) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for e in &entries {
            let (a, b) = (
                &self.bodies.get(e.pair.a.index()).body,
                &self.bodies.get(e.pair.b.index()).body,
            );
            shapes_a.push(&a.shape);
            poses_a.push(a.pose);
            shapes_b.push(&b.shape);
            poses_b.push(b.pose);
        }
        let results = distance_batch(
            &shapes_a,
            &poses_a,
            &shapes_b,
            &poses_b,
            self.config.parallelism,
        )?;
        Ok(entries
            .iter()
            .zip(results)
            .map(|(e, distance)| PairResult {
                a: BodyId(e.pair.a),
                b: BodyId(e.pair.b),
                distance,
            })
            .collect())
    }

    /// Bytes the world holds on the heap for its pair cache and contact ids
    /// (the broadphase's and the bodies' own are measured from outside, see
    /// `examples/memory.rs`).
    pub fn pair_cache_bytes(&self) -> usize {
        self.pairs.heap_bytes() + self.contact_ids.capacity() * std::mem::size_of::<ContactIds>()
    }

    /// Updates the broadphase and the pair cache, then settles every candidate
    /// pair: filtered, proven apart by its bounds, or queried for its contact and,
    /// within the prediction distance, its manifold. Returns the manifolds and the
    /// contact events; results do not depend on the thread count or the batching.
    ///
    /// ```
    /// use widephase::{ContactEventKind, World};
    /// use widephase::gjk_core::{Pose, Sphere};
    /// use widephase::gjk_core::glam::Vec3;
    ///
    /// // A row of ten balls of radius 0.5, 0.9 apart: each overlaps its neighbours.
    /// let mut world = World::default();
    /// let ball = Sphere::new(0.5)?;
    /// let mut ids = Vec::new();
    /// for i in 0..10 {
    ///     let at = Pose::from_translation(Vec3::new(0.9 * i as f32, 0.0, 0.0))?;
    ///     ids.push(world.add(ball.into(), at)?);
    /// }
    /// let report = world.step()?;
    /// assert_eq!(report.touching().count(), 9);
    /// assert!(report.events.iter().all(|e| e.kind == ContactEventKind::Began));
    /// // Spread them out: the nine contacts end.
    /// for (i, &id) in ids.iter().enumerate() {
    ///     world.set_pose(id, Pose::from_translation(Vec3::new(3.0 * i as f32, 0.0, 0.0))?)?;
    /// }
    /// let report = world.step()?;
    /// assert_eq!(report.touching().count(), 0);
    /// assert_eq!(report.events.iter().filter(|e| e.kind == ContactEventKind::Ended).count(), 9);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(&mut self) -> Result<StepReport, WorldError> {
        let start = Instant::now();
        let mut events = std::mem::take(&mut self.pending);
        let changes = self.broadphase.update();
        let (began, ended) = (changes.began.len(), changes.ended.len());
        {
            let bodies = &self.bodies;
            let pair_filter = self.pair_filter.as_deref();
            let flags = |p: &Pair| {
                let (a, b) = (&bodies.get(p.a.index()).body, &bodies.get(p.b.index()).body);
                let mut f = 0;
                if !a.filter.collides_with(&b.filter) {
                    f |= MASKED;
                }
                if pair_filter.is_some_and(|keep| !keep(a, b)) {
                    f |= EXCLUDED;
                }
                f
            };
            let on_ended = |e: &PairEntry| {
                if e.has(TOUCHING) && !e.has(REMOVED) {
                    events.push(contact_event(bodies, e, ContactEventKind::Ended));
                }
            };
            self.pairs
                .apply(changes.began, changes.ended, flags, on_ended);
        }
        if std::mem::take(&mut self.refilter) {
            let bodies = &self.bodies;
            for e in self.pairs.entries_mut() {
                let (a, b) = (
                    &bodies.get(e.pair.a.index()).body,
                    &bodies.get(e.pair.b.index()).body,
                );
                e.flags &= !MASKED;
                if !a.filter.collides_with(&b.filter) {
                    e.flags |= MASKED;
                }
            }
        }
        let broadphase_time = start.elapsed();

        let start = Instant::now();
        let (prediction, parallelism) = (self.config.prediction, self.config.parallelism);
        let verdicts = verdicts(self.pairs.entries(), &self.bodies, prediction, parallelism);
        let jobs: Vec<(u32, u32)> = self
            .pairs
            .entries()
            .iter()
            .zip(&verdicts)
            .filter(|(_, v)| **v == Verdict::Query)
            .map(|(e, _)| (e.pair.a.index(), e.pair.b.index()))
            .collect();
        let outcomes = query_pairs(&jobs, &self.bodies, prediction, parallelism);
        let mut report = StepReport {
            candidates: self.pairs.entries().len(),
            began,
            ended,
            queried: jobs.len(),
            broadphase_time,
            ..StepReport::default()
        };
        let mut ids = Vec::with_capacity(self.contact_ids.len());
        let mut outcomes = outcomes.into_iter();
        for (e, v) in self.pairs.entries_mut().iter_mut().zip(verdicts) {
            let was_touching = e.has(TOUCHING);
            let previous = (e.contact != NO_CONTACT).then(|| self.contact_ids[e.contact as usize]);
            e.contact = NO_CONTACT;
            e.flags &= !TOUCHING;
            let manifold = match v {
                Verdict::Filtered => {
                    report.filtered += 1;
                    e.gap = f32::INFINITY;
                    None
                }
                Verdict::Apart { gap } => {
                    report.culled += 1;
                    e.gap = gap;
                    None
                }
                Verdict::Query => match outcomes.next().expect("one outcome per query") {
                    Outcome::Apart { gap, axis } => {
                        e.gap = gap;
                        e.axis = axis;
                        None
                    }
                    Outcome::Contact { manifold, depth } => Some((manifold, depth)),
                },
            };
            let Some((m, depth)) = manifold else {
                if was_touching {
                    events.push(contact_event(&self.bodies, e, ContactEventKind::Ended));
                }
                continue;
            };
            let (ra, rb) = (
                self.bodies.get(e.pair.a.index()),
                self.bodies.get(e.pair.b.index()),
            );
            let touch = TOUCH_TOLERANCE * (ra.radius + rb.radius);
            let touching = m.max_depth() >= -touch;
            let mut persisted = 0u8;
            let mut now = ContactIds::default();
            for (k, p) in m.points().iter().enumerate() {
                if previous.is_some_and(|prev| prev.ids[..prev.len as usize].contains(&p.id)) {
                    persisted |= 1 << k;
                }
                now.ids[k] = p.id;
            }
            now.len = m.len() as u8;
            e.contact = ids.len() as u32;
            ids.push(now);
            e.axis = ra.body.pose.inverse_transform_vector(m.normal);
            e.gap = -depth;
            if touching {
                e.flags |= TOUCHING;
                let kind = if was_touching {
                    ContactEventKind::Persisted
                } else {
                    ContactEventKind::Began
                };
                events.push(contact_event(&self.bodies, e, kind));
            } else if was_touching {
                events.push(contact_event(&self.bodies, e, ContactEventKind::Ended));
            }
            report.manifolds.push(PairManifold {
                a: BodyId(e.pair.a),
                b: BodyId(e.pair.b),
                manifold: m,
                persisted,
                touching,
            });
        }
        self.contact_ids = ids;
        report.events = events;
        report.narrowphase_time = start.elapsed();
        Ok(report)
    }
}

/// A contact event of kind `kind` for the pair of `e`, with its bodies' user data.
fn contact_event(bodies: &BodyTable, e: &PairEntry, kind: ContactEventKind) -> ContactEvent {
    ContactEvent {
        kind,
        a: BodyId(e.pair.a),
        b: BodyId(e.pair.b),
        user_data_a: bodies.get(e.pair.a.index()).body.user_data,
        user_data_b: bodies.get(e.pair.b.index()).body.user_data,
    }
}
