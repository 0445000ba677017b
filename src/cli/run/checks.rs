//! The main job's self-checks on its last step, as a table: each check compares a
//! fast path's answers with a reference and says whether they agree. Adding a
//! check is a function and a line in [`CHECKS`].

use std::error::Error;

use std::collections::HashMap;

use serde::Serialize;
use widephase::{BodyId, CandidatePair};

use super::scene::PREDICTION;
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
    let mut got: Vec<(BodyId, BodyId)> = scene
        .world
        .pairs()
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

/// An even sample of `verify` candidate pairs of the last step re-run with gjk-core:
/// a pair within the prediction distance must have a manifold whose deepest point
/// has the contact's depth; any other must be farther apart than the prediction,
/// and the distance bound the world kept for it must not exceed the true distance.
fn narrowphase_sample(job: &Job, verify: usize) -> Result<Outcome, Box<dyn Error>> {
    let world = &job.scene.world;
    let candidates: Vec<CandidatePair> = world.pairs().collect();
    let manifolds: HashMap<(BodyId, BodyId), &gjk_core::Manifold> = job
        .last
        .manifolds
        .iter()
        .map(|m| ((m.a, m.b), &m.manifold))
        .collect();
    let stride = (candidates.len() / verify.max(1)).max(1);
    let (mut checked, mut worst, mut disagree) = (0usize, 0.0f32, 0usize);
    for p in candidates
        .iter()
        .filter(|p| !p.filtered)
        .step_by(stride)
        .take(verify)
    {
        let (a, b) = (world.body(p.a)?, world.body(p.b)?);
        let reference = gjk_core::contact(&a.shape, &a.pose, &b.shape, &b.pose, PREDICTION);
        // Agreement bound of the differential tests, with room for the f32 stall
        // class of curved shapes.
        let tol = |x: f32| 1e-3 * (1.0 + x.abs());
        let diff = match (reference, manifolds.get(&(p.a, p.b))) {
            (Some(c), Some(m)) => (c.depth - m.max_depth()).abs(),
            (None, None) => {
                let d = gjk_core::distance(&a.shape, &a.pose, &b.shape, &b.pose).distance;
                // The kept bound is a lower bound of the distance.
                (p.gap - d).max(0.0)
            }
            // Just at the prediction distance, either answer is right.
            (Some(c), None) => (c.depth + PREDICTION).abs(),
            (None, Some(m)) => (m.max_depth() + PREDICTION).abs(),
        };
        if diff > tol(p.gap) || diff.is_nan() {
            disagree += 1;
        }
        worst = worst.max(diff);
        checked += 1;
    }
    let passed = disagree == 0;
    let detail = if passed {
        format!(
            "{checked} pairs re-run with the scalar reference agree (largest depth or distance difference {worst:.2e})"
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
