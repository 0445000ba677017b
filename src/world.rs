//! The pipeline: a world of posed shapes, and a step that runs the broadphase, packs
//! its candidate pairs into batches and runs the wide narrowphase on them.

use std::time::{Duration, Instant};

use broadphase::{Aabb, Broadphase, BroadphaseConfig, ProxyId};
use gjk_core::{Distance, Pose, Shape, SupportMap};
use gjk_simd::{BatchError, Parallelism, distance_batch};

/// A body in a [`World`]: a shape at a pose.
#[derive(Debug, Clone)]
pub struct Body {
    /// The body's shape.
    pub shape: Shape,
    /// Where the shape is.
    pub pose: Pose,
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
}

/// The narrowphase answer for one candidate pair.
#[derive(Debug, Clone, Copy)]
pub struct PairResult {
    /// One body of the pair.
    pub a: BodyId,
    /// The other body.
    pub b: BodyId,
    /// Distance and closest points (distance 0: overlapping or touching).
    pub distance: Distance,
}

/// What one [`World::step`] found and how long it took.
#[derive(Debug, Clone, Default)]
pub struct StepReport {
    /// Every candidate pair (fat boxes overlap) with its narrowphase answer, in the
    /// broadphase's deterministic pair order.
    pub pairs: Vec<PairResult>,
    /// Candidate pairs that began this step.
    pub began: usize,
    /// Candidate pairs that ended this step.
    pub ended: usize,
    /// Time in the broadphase update.
    pub broadphase_time: Duration,
    /// Time packing, running and unpacking the wide narrowphase.
    pub narrowphase_time: Duration,
}

impl StepReport {
    /// Pairs whose shapes overlap or touch.
    pub fn touching(&self) -> impl Iterator<Item = &PairResult> {
        self.pairs.iter().filter(|p| p.distance.distance == 0.0)
    }
}

/// Bodies tracked by a broadphase, tested in eight-lane batches.
pub struct World {
    broadphase: Broadphase<Body>,
    parallelism: Parallelism,
}

impl Default for World {
    fn default() -> Self {
        Self::new(Parallelism::default())
    }
}

/// The shape's exact bounds at `pose`, as a broadphase box.
fn bounds(shape: &Shape, pose: &Pose) -> Result<Aabb, broadphase::Error> {
    let b = shape.aabb(pose);
    Aabb::new(b.min, b.max)
}

/// The bounds of `shape` at `pose` for a move, refused unless they have a finite fat
/// box: the broadphase would refuse such a box when it leaves its fat box, after the
/// pose had been written, so the check comes first and a body's pose always matches
/// its box.
fn move_bounds(
    config: &BroadphaseConfig,
    shape: &Shape,
    pose: &Pose,
) -> Result<Aabb, broadphase::Error> {
    let aabb = bounds(shape, pose)?;
    config.fat_box(&aabb)?;
    Ok(aabb)
}

impl World {
    /// An empty world whose narrowphase runs with `parallelism`.
    pub fn new(parallelism: Parallelism) -> Self {
        Self {
            broadphase: Broadphase::new(),
            parallelism,
        }
    }

    /// Adds a body.
    pub fn add(&mut self, shape: Shape, pose: Pose) -> Result<BodyId, WorldError> {
        let aabb = bounds(&shape, &pose)?;
        Ok(BodyId(self.broadphase.insert(aabb, Body { shape, pose })?))
    }

    /// Removes a body and returns it.
    pub fn remove(&mut self, id: BodyId) -> Result<Body, WorldError> {
        Ok(self.broadphase.remove(id.0)?)
    }

    /// The body behind a handle.
    pub fn body(&self, id: BodyId) -> Result<&Body, WorldError> {
        Ok(self.broadphase.data(id.0)?)
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
        let aabb = move_bounds(
            self.broadphase.config(),
            &self.broadphase.data(id.0)?.shape,
            &pose,
        )?;
        self.broadphase.move_proxy(id.0, aabb)?;
        self.broadphase.data_mut(id.0)?.pose = pose;
        Ok(())
    }

    /// Moves many bodies at once: the same as [`set_pose`](Self::set_pose) for each
    /// move in order, but the bodies' bounds are computed, and checked against their
    /// fat boxes, inside the broadphase's pass over its records
    /// ([`Broadphase::move_proxies_with`]), in parallel for large batches; only the
    /// bodies that escaped touch the tree.
    ///
    /// A move naming a stale handle, or whose pose `set_pose` would refuse, leaves that
    /// body alone; every other body moves, and the first error in batch order is
    /// returned. Each body's pose always matches its box in the broadphase.
    pub fn set_poses(&mut self, moves: &[(BodyId, Pose)]) -> Result<(), WorldError> {
        let ids: Vec<ProxyId> = moves.iter().map(|(id, _)| id.0).collect();
        let config = *self.broadphase.config();
        self.broadphase
            .move_proxies_with(&ids, |k, body: &mut Body| {
                let pose = moves[k].1;
                let aabb = move_bounds(&config, &body.shape, &pose)?;
                body.pose = pose;
                Ok::<_, WorldError>(aabb)
            })?;
        Ok(())
    }

    /// Updates the broadphase, then runs the wide distance query on every candidate
    /// pair. Results do not depend on the thread count or the batching.
    ///
    /// ```
    /// use widephase::World;
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
    /// // Spread them out: the pairs end, and the next step finds none touching.
    /// for (i, &id) in ids.iter().enumerate() {
    ///     world.set_pose(id, Pose::from_translation(Vec3::new(3.0 * i as f32, 0.0, 0.0))?)?;
    /// }
    /// let report = world.step()?;
    /// assert_eq!(report.touching().count(), 0);
    /// assert!(report.ended > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(&mut self) -> Result<StepReport, WorldError> {
        let start = Instant::now();
        let changes = self.broadphase.update();
        let (began, ended) = (changes.began.len(), changes.ended.len());
        let candidates: Vec<broadphase::Pair> = self.broadphase.pairs().collect();
        let broadphase_time = start.elapsed();

        let start = Instant::now();
        let n = candidates.len();
        let (mut shapes_a, mut poses_a) = (Vec::with_capacity(n), Vec::with_capacity(n));
        let (mut shapes_b, mut poses_b) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for pair in &candidates {
            let (a, b) = (self.broadphase.data(pair.a)?, self.broadphase.data(pair.b)?);
            shapes_a.push(&a.shape);
            poses_a.push(a.pose);
            shapes_b.push(&b.shape);
            poses_b.push(b.pose);
        }
        let results = distance_batch(&shapes_a, &poses_a, &shapes_b, &poses_b, self.parallelism)?;
        let pairs = candidates
            .iter()
            .zip(results)
            .map(|(p, distance)| PairResult {
                a: BodyId(p.a),
                b: BodyId(p.b),
                distance,
            })
            .collect();
        Ok(StepReport {
            pairs,
            began,
            ended,
            broadphase_time,
            narrowphase_time: start.elapsed(),
        })
    }
}
