//! The main job's self-checks on its last step, as a table: each check compares a
//! fast path's answers with a reference and says whether they agree. Adding a
//! check (contacts against gjk-core) is a function and a line in [`CHECKS`].

use std::error::Error;

use serde::Serialize;
use widephase::BodyId;

use super::stages::Job;

/// A check's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// Which check.
    pub name: &'static str,
    /// Whether it passed.
    pub passed: bool,
    /// What it compared and found, one sentence.
    pub detail: String,
}

/// A check: its work, given the job after its last step and the number of pairs
/// to re-check with the scalar reference.
pub type Check = fn(&Job, usize) -> Result<Outcome, Box<dyn Error>>;

/// The checks, in order.
pub const CHECKS: &[Check] = &[broadphase_pairs, narrowphase_sample];

/// The broadphase's pair set against the broadphase crate's reference sweep over
/// every body's fat box (no tree, no incremental state).
fn broadphase_pairs(job: &Job, _verify: usize) -> Result<Outcome, Box<dyn Error>> {
    let scene = &job.scene;
    let mut boxes = Vec::with_capacity(scene.movers.len());
    for m in &scene.movers {
        boxes.push((m.id, scene.world.fat_bounds(m.id)?));
    }
    let expected = broadphase::reference::overlapping_pairs(&boxes);
    let mut got: Vec<(BodyId, BodyId)> = job
        .last
        .pairs
        .iter()
        .map(|p| if p.a < p.b { (p.a, p.b) } else { (p.b, p.a) })
        .collect();
    got.sort();
    let passed = got == expected;
    let detail = if passed {
        format!(
            "broadphase pair set equals the sweep over all {} bodies ({} pairs)",
            scene.movers.len(),
            expected.len()
        )
    } else {
        format!(
            "broadphase has {} pairs, the sweep {}",
            got.len(),
            expected.len()
        )
    };
    Ok(Outcome {
        name: "broadphase",
        passed,
        detail,
    })
}

/// An even sample of `verify` candidate pairs of the last step re-run with gjk-core.
fn narrowphase_sample(job: &Job, verify: usize) -> Result<Outcome, Box<dyn Error>> {
    let pairs = &job.last.pairs;
    let stride = (pairs.len() / verify.max(1)).max(1);
    let (mut checked, mut worst, mut disagree) = (0usize, 0.0f32, 0usize);
    for p in pairs.iter().step_by(stride).take(verify) {
        let (a, b) = (job.scene.world.body(p.a)?, job.scene.world.body(p.b)?);
        let reference = gjk_core::distance(&a.shape, &a.pose, &b.shape, &b.pose);
        let diff = (reference.distance - p.distance.distance).abs();
        // Agreement bound of the wide kernel's differential tests, with room for
        // its documented f32-stall class on curved shapes.
        if diff > 1e-3 * (1.0 + reference.distance) || diff.is_nan() {
            disagree += 1;
        }
        worst = worst.max(diff);
        checked += 1;
    }
    let passed = disagree == 0;
    let detail = if passed {
        format!(
            "{checked} pairs re-run with the scalar reference agree (largest distance difference {worst:.2e})"
        )
    } else {
        format!(
            "{disagree} of {checked} pairs disagree with the scalar reference (largest difference {worst:.2e})"
        )
    };
    Ok(Outcome {
        name: "narrowphase",
        passed,
        detail,
    })
}
