//! The narrowphase of a step: the bound tests that settle most candidate pairs
//! without GJK, and the contact and manifold of the rest.
//!
//! Most candidate pairs are not in contact (the fat boxes' margins make several
//! candidates per touching pair), so each pair first meets three bounds, cheapest
//! first; any of them that proves the shapes farther apart than the prediction
//! distance settles the pair:
//! - the bounding balls: the centres' distance less both bounding radii;
//! - the exact world boxes: their gap along the worst axis;
//! - the pair's last normal, when it was apart: the gap between the shapes'
//!   support planes along it (two support evaluations). Shapes that move a little
//!   stay separated along last step's axis, as Bullet's and Box2D's separating-axis
//!   caches exploit.
//!
//! Each bound is a lower bound of the distance, less a rounding slack
//! ([`BOX_AXES_SLACK_ULPS`] of the coordinates and sizes), so it never
//! contradicts GJK. The pairs left go to [`query_pairs`], the one place where
//! contacts are computed.

use gjk_core::glam::Vec3;
use gjk_core::tolerance::BOX_AXES_SLACK_ULPS;
use gjk_core::{Manifold, Pose, Shape, SupportMap};
use gjk_simd::{BatchOptions, PairContact, Parallelism, pair_contact_batch_with};
use rayon::prelude::*;

use super::bodies::{BodyRecord, BodyTable};
use super::pairs::{EXCLUDED, MASKED, PairEntry};

/// What the bound tests made of a pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Verdict {
    /// A filter keeps the pair out.
    Filtered,
    /// A bound proves the shapes at least `gap` apart, more than the prediction.
    Apart { gap: f32 },
    /// The bounds cannot tell: the pair goes to [`query_pairs`].
    Query,
}

/// What [`query_pairs`] found for a pair. The manifold stays inline: outcomes
/// exist only for the queried pairs, a few per touching pair, and a box per
/// contact would cost an allocation each step.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub(super) enum Outcome {
    /// Apart by `gap` (more than the prediction) along `axis` (A to B, A's frame).
    Apart { gap: f32, axis: Vec3 },
    /// Within the prediction: the manifold, and the contact's depth (the manifold's
    /// first point is the deepest to the manifold tolerance only).
    Contact { manifold: Manifold, depth: f32 },
}

/// Entries per task of the parallel passes: a constant, so that the work split
/// (and with it nothing of the results) does not depend on the thread count.
const CHUNK: usize = 1024;

/// The rounding slack of the bounds for two bodies: a few ulps of the coordinates
/// and sizes involved (the same slack as the wide separating-axis test's).
fn slack(a: &BodyRecord, b: &BodyRecord) -> f32 {
    let scale = a.body.pose.translation().abs().max_element()
        + b.body.pose.translation().abs().max_element()
        + a.radius
        + b.radius;
    BOX_AXES_SLACK_ULPS * f32::EPSILON * scale
}

/// The bound tests of one pair (see the module documentation).
fn verdict(e: &PairEntry, a: &BodyRecord, b: &BodyRecord, prediction: f32) -> Verdict {
    if e.has(EXCLUDED) || e.has(MASKED) {
        return Verdict::Filtered;
    }
    let reach = prediction + slack(a, b);
    let (pa, pb) = (&a.body.pose, &b.body.pose);
    let balls = (pb.translation() - pa.translation()).length() - a.radius - b.radius;
    if balls > reach {
        return Verdict::Apart { gap: balls };
    }
    let boxes = (a.bounds.min - b.bounds.max)
        .max(b.bounds.min - a.bounds.max)
        .max_element();
    if boxes > reach {
        return Verdict::Apart { gap: boxes };
    }
    if e.gap > 0.0 && e.axis != Vec3::ZERO {
        let n = pa.transform_vector(e.axis);
        let top_a = pa.transform_point(a.body.shape.support(e.axis)).dot(n);
        let bottom_b = pb
            .transform_point(b.body.shape.support(pb.inverse_transform_vector(-n)))
            .dot(n);
        let planes = bottom_b - top_a;
        if planes > reach {
            return Verdict::Apart { gap: planes };
        }
    }
    Verdict::Query
}

/// The verdict of every entry, in order, in fixed chunks over the pool when
/// `parallelism` says so.
pub(super) fn verdicts(
    entries: &[PairEntry],
    bodies: &BodyTable,
    prediction: f32,
    parallelism: Parallelism,
) -> Vec<Verdict> {
    let one = |e: &PairEntry| {
        verdict(
            e,
            bodies.get(e.pair.a.index()),
            bodies.get(e.pair.b.index()),
            prediction,
        )
    };
    match parallelism {
        Parallelism::Sequential => entries.iter().map(one).collect(),
        Parallelism::Rayon { .. } => {
            let mut out = vec![Verdict::Query; entries.len()];
            out.par_chunks_mut(CHUNK)
                .zip(entries.par_chunks(CHUNK))
                .for_each(|(out, entries)| {
                    for (o, e) in out.iter_mut().zip(entries) {
                        *o = one(e);
                    }
                });
            out
        }
    }
}

/// The contact of each pair of slots in `jobs` (A first), and its manifold when
/// the shapes are within `prediction`; in the order of `jobs`.
///
/// This is the one function that computes contacts: the wide batch
/// ([`pair_contact_batch_with`]: GJK, and EPA where the cores overlap, then the
/// wide manifold stage, eight pairs at a time), asked with an unlimited reach so
/// that a pair apart gets its distance and normal from the same GJK run and no
/// manifold.
pub(super) fn query_pairs(
    jobs: &[(u32, u32)],
    bodies: &BodyTable,
    prediction: f32,
    parallelism: Parallelism,
) -> Vec<Outcome> {
    let body = |slot: u32| &bodies.get(slot).body;
    let shapes_a: Vec<&Shape> = jobs.iter().map(|&(a, _)| &body(a).shape).collect();
    let shapes_b: Vec<&Shape> = jobs.iter().map(|&(_, b)| &body(b).shape).collect();
    let poses_a: Vec<Pose> = jobs.iter().map(|&(a, _)| body(a).pose).collect();
    let poses_b: Vec<Pose> = jobs.iter().map(|&(_, b)| body(b).pose).collect();
    let options = BatchOptions {
        parallelism,
        ..BatchOptions::default()
    };
    let answers = pair_contact_batch_with(
        &shapes_a,
        &poses_a,
        &shapes_b,
        &poses_b,
        prediction,
        f32::INFINITY,
        options,
    )
    .unwrap_or_default();
    jobs.iter()
        .zip(&answers)
        .map(|(&(sa, _), answer)| match answer {
            // Bodies are validated, so every pair has a finite contact; a pair
            // that does not (a relative pose beyond f32) is left apart at
            // infinity.
            Some(PairContact {
                contact: c,
                manifold: Some(m),
            }) if c.depth.is_finite() => Outcome::Contact {
                manifold: *m,
                depth: c.depth,
            },
            Some(PairContact {
                contact: c,
                manifold: None,
            }) if c.depth.is_finite() => Outcome::Apart {
                gap: -c.depth,
                axis: body(sa).pose.inverse_transform_vector(c.normal),
            },
            _ => Outcome::Apart {
                gap: f32::INFINITY,
                axis: Vec3::ZERO,
            },
        })
        .collect()
}
