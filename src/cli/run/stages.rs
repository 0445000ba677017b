//! A step of the main job as a table of stages. Each stage does its work on the
//! job and records what it counted and how long it took under names of its own;
//! the text lines, the JSON report and the plot show whatever the stages record.
//! Adding a stage (a contact pass, manifolds) is a function and a line in
//! [`STAGES`].

use std::error::Error;
use std::time::{Duration, Instant};

use gjk_core::Pose;
use gjk_core::glam::Quat;
use serde::ser::{Serialize, SerializeMap, Serializer};
use widephase::StepReport;

use super::scene::Scene;

/// The time step: 1/60 s.
pub const DT: f32 = 1.0 / 60.0;

/// What the stages work on.
pub struct Job {
    /// The bodies and their motion.
    pub scene: Scene,
    /// The world's report of the latest step (empty before the first).
    pub last: StepReport,
}

/// Values under names, in the order recorded; serialized as a JSON object.
#[derive(Debug, Clone, Default)]
pub struct Named<T>(pub Vec<(&'static str, T)>);

impl<T: Copy> Named<T> {
    /// Records `value` under `name`.
    pub fn push(&mut self, name: &'static str, value: T) {
        self.0.push((name, value));
    }

    /// The value under `name`.
    pub fn get(&self, name: &str) -> Option<T> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

impl<T: Serialize> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// What one step recorded.
#[derive(Debug, Clone, Default)]
pub struct StepRecord {
    /// Counts (pairs, touching pairs, ...).
    pub counts: Named<usize>,
    /// Stage times.
    pub times: Named<Duration>,
}

/// A stage's work for one step: it runs and records its counts and times.
pub type StageFn = fn(&mut Job, &mut StepRecord) -> Result<(), Box<dyn Error>>;

/// A stage: its name (for errors) and its work.
pub struct Stage {
    /// The stage's name.
    pub name: &'static str,
    /// Runs the stage for one step and records its counts and times.
    pub run: StageFn,
}

/// The stages of a step, in order.
pub const STAGES: &[Stage] = &[
    Stage {
        name: "moves",
        run: moves,
    },
    Stage {
        name: "world step",
        run: world_step,
    },
];

/// Runs every stage once.
pub fn step(job: &mut Job) -> Result<StepRecord, Box<dyn Error>> {
    let mut record = StepRecord::default();
    for stage in STAGES {
        (stage.run)(job, &mut record).map_err(|e| format!("stage {}: {e}", stage.name))?;
    }
    Ok(record)
}

/// Drift and spin for one time step, bouncing off the walls of the box.
fn moves(job: &mut Job, record: &mut StepRecord) -> Result<(), Box<dyn Error>> {
    let start = Instant::now();
    let scene = &mut job.scene;
    let half = 0.5 * scene.side;
    let mut moves = Vec::with_capacity(scene.movers.len());
    for m in scene.movers.iter_mut() {
        let pose = scene.world.body(m.id)?.pose;
        let mut t = pose.translation() + m.velocity * DT;
        for axis in 0..3 {
            if t[axis].abs() > half {
                m.velocity[axis] = -m.velocity[axis];
                t[axis] = t[axis].clamp(-half, half);
            }
        }
        let rotation = Quat::from_scaled_axis(m.spin * DT) * pose.rotation();
        moves.push((m.id, Pose::new(rotation, t)?));
    }
    scene.world.set_poses(&moves)?;
    record.times.push("moves", start.elapsed());
    Ok(())
}

/// The world's step: the broadphase update and the pair cache, then the
/// narrowphase (bounds that settle pairs, the contact query and manifolds within the
/// prediction distance); the world times both itself.
fn world_step(job: &mut Job, record: &mut StepRecord) -> Result<(), Box<dyn Error>> {
    job.last = job.scene.world.step()?;
    let last = &job.last;
    record.counts.push("candidate_pairs", last.candidates);
    record.counts.push("began", last.began);
    record.counts.push("ended", last.ended);
    record.counts.push("culled", last.culled);
    record.counts.push("queried", last.queried);
    record.counts.push("manifolds", last.manifolds.len());
    record.counts.push("touching", last.touching().count());
    let points = last.manifolds.iter().map(|m| m.manifold.len()).sum();
    record.counts.push("points", points);
    record.times.push("broadphase", last.broadphase_time);
    record.times.push("narrowphase", last.narrowphase_time);
    Ok(())
}
