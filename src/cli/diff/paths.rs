//! The implementations compared, one table: each path answers one query for a slice
//! of cases. gjk-core is every query's reference; gjk-simd is widephase's fast
//! path (as users call it, and with its shortcuts off so that every pair runs the
//! GJK and EPA kernels); parry3d is the independent opinion. Adding an
//! implementation or a query is a function and a line in [`PATHS`].

use std::collections::BTreeMap;

use gjk_core::glam::Vec3;
use gjk_core::{Pose, Shape};
use gjk_simd::{BatchOptions, Parallelism};
use serde::{Deserialize, Serialize};

use super::case::Case;

/// The queries.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    /// Whether the shapes overlap or touch.
    Intersects,
    /// Distance and closest points.
    Distance,
    /// Penetration depth, normal and points (prediction 0).
    Contact,
    /// The contact at a prediction distance ([`Query::prediction`]): pairs apart by
    /// less than it give a speculative contact, with the gap as a negative depth.
    Speculative,
}

impl Query {
    /// The query's name.
    pub fn name(self) -> &'static str {
        match self {
            Query::Intersects => "intersects",
            Query::Distance => "distance",
            Query::Contact => "contact",
            Query::Speculative => "speculative",
        }
    }

    /// The prediction distance the query asks `case`'s contact at: 0 for
    /// [`Query::Contact`]; for [`Query::Speculative`] a quarter of the pair's scale
    /// (the `random` regime's gaps reach half of it), rounded down to a power of
    /// two so that cases of one size class share it and go through the batch
    /// driver together. 0 for the other queries and for scales that are not
    /// finite and positive.
    pub fn prediction(self, case: &Case) -> f32 {
        let quarter = 0.25 * case.scale();
        if self != Query::Speculative || !(quarter.is_finite() && quarter > 0.0) {
            return 0.0;
        }
        // Clearing the mantissa rounds a positive f32 down to a power of two.
        f32::from_bits(quarter.to_bits() & 0xff80_0000)
    }
}

/// A contact, in gjk-core's conventions (normal from A to B, depth positive when
/// overlapping).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ContactAnswer {
    /// Penetration depth.
    pub depth: f32,
    /// Unit normal from A to B.
    pub normal: Vec3,
    /// A's point deepest in B.
    pub point_a: Vec3,
    /// B's point deepest in A.
    pub point_b: Vec3,
}

/// A path's answer to a query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// `intersects`.
    Intersects {
        /// Overlapping or touching.
        intersecting: bool,
    },
    /// `distance`.
    Distance {
        /// The gap, 0 when overlapping.
        distance: f32,
        /// A's closest point.
        point_a: Vec3,
        /// B's closest point.
        point_b: Vec3,
        /// Unit normal from A to B (zero when overlapping).
        normal: Vec3,
    },
    /// `contact`: `None` when the shapes are apart.
    Contact(Option<ContactAnswer>),
    /// The path could not answer (an error it returned).
    Failed(String),
}

/// How a path's disagreements count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The answer every other path is compared with (gjk-core).
    Reference,
    /// widephase's own fast path: any disagreement beyond tolerance fails.
    Ours,
    /// An independent implementation: where it disagrees and an independent check
    /// shows the reference right and it wrong, the case is counted, not failed.
    Independent,
}

/// One implementation of one query.
pub struct Path {
    /// Its name in reports (`gjk-simd`).
    pub name: &'static str,
    /// The query it answers.
    pub query: Query,
    /// How its disagreements count.
    pub role: Role,
    /// Its answers for a slice of cases, in order.
    pub run: fn(&[Case]) -> Vec<Answer>,
}

/// Every path.
pub const PATHS: &[Path] = &[
    Path {
        name: "gjk-core",
        query: Query::Intersects,
        role: Role::Reference,
        run: core_intersects,
    },
    Path {
        name: "gjk-simd",
        query: Query::Intersects,
        role: Role::Ours,
        run: simd_intersects,
    },
    Path {
        name: "gjk-simd-gjk",
        query: Query::Intersects,
        role: Role::Ours,
        run: simd_gjk_intersects,
    },
    Path {
        name: "parry3d",
        query: Query::Intersects,
        role: Role::Independent,
        run: parry_intersects,
    },
    Path {
        name: "gjk-core",
        query: Query::Distance,
        role: Role::Reference,
        run: core_distance,
    },
    Path {
        name: "gjk-simd",
        query: Query::Distance,
        role: Role::Ours,
        run: simd_distance,
    },
    Path {
        name: "gjk-simd-gjk",
        query: Query::Distance,
        role: Role::Ours,
        run: simd_gjk_distance,
    },
    Path {
        name: "parry3d",
        query: Query::Distance,
        role: Role::Independent,
        run: parry_distance,
    },
    Path {
        name: "gjk-core",
        query: Query::Contact,
        role: Role::Reference,
        run: core_contact,
    },
    Path {
        name: "gjk-simd",
        query: Query::Contact,
        role: Role::Ours,
        run: simd_contact,
    },
    Path {
        name: "gjk-simd-gjk",
        query: Query::Contact,
        role: Role::Ours,
        run: simd_gjk_contact,
    },
    Path {
        name: "parry3d",
        query: Query::Contact,
        role: Role::Independent,
        run: parry_contact,
    },
    Path {
        name: "gjk-core",
        query: Query::Speculative,
        role: Role::Reference,
        run: core_speculative,
    },
    Path {
        name: "gjk-simd",
        query: Query::Speculative,
        role: Role::Ours,
        run: simd_speculative,
    },
    Path {
        name: "gjk-simd-gjk",
        query: Query::Speculative,
        role: Role::Ours,
        run: simd_gjk_speculative,
    },
    Path {
        name: "parry3d",
        query: Query::Speculative,
        role: Role::Independent,
        run: parry_speculative,
    },
];

/// `path`'s answers for `cases`; a case on which the path panics gets
/// [`Answer::Failed`] with the panic's message (a panic is a finding, not the end
/// of the campaign).
pub fn answers(path: &Path, cases: &[Case]) -> Vec<Answer> {
    let run = |cases: &[Case]| std::panic::catch_unwind(|| (path.run)(cases));
    match run(cases) {
        Ok(answers) => answers,
        // Case by case, to find the ones that panic.
        Err(_) => cases
            .iter()
            .map(|c| match run(std::slice::from_ref(c)) {
                Ok(mut a) => a.remove(0),
                Err(payload) => Answer::Failed(format!("panicked: {}", panic_message(&payload))),
            })
            .collect(),
    }
}

fn panic_message(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}

/// The reference path of `query`.
pub fn reference(query: Query) -> &'static Path {
    PATHS
        .iter()
        .find(|p| p.query == query && p.role == Role::Reference)
        .expect("every query has a reference path")
}

/// The distinct path names, in table order.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for p in PATHS {
        if !names.contains(&p.name) {
            names.push(p.name);
        }
    }
    names
}

fn distance_answer(d: &gjk_core::Distance) -> Answer {
    Answer::Distance {
        distance: d.distance,
        point_a: d.point_a,
        point_b: d.point_b,
        normal: d.normal,
    }
}

fn core_intersects(cases: &[Case]) -> Vec<Answer> {
    cases
        .iter()
        .map(|c| Answer::Intersects {
            intersecting: gjk_core::intersects(&c.a, &c.pose_a, &c.b, &c.pose_b),
        })
        .collect()
}

fn core_distance(cases: &[Case]) -> Vec<Answer> {
    cases
        .iter()
        .map(|c| distance_answer(&gjk_core::distance(&c.a, &c.pose_a, &c.b, &c.pose_b)))
        .collect()
}

fn contact_answer(c: Option<gjk_core::Contact>) -> Answer {
    Answer::Contact(c.map(|k| ContactAnswer {
        depth: k.depth,
        normal: k.normal,
        point_a: k.point_a,
        point_b: k.point_b,
    }))
}

fn core_contact_at(cases: &[Case], query: Query) -> Vec<Answer> {
    cases
        .iter()
        .map(|c| {
            let prediction = query.prediction(c);
            contact_answer(gjk_core::contact(
                &c.a, &c.pose_a, &c.b, &c.pose_b, prediction,
            ))
        })
        .collect()
}

fn core_contact(cases: &[Case]) -> Vec<Answer> {
    core_contact_at(cases, Query::Contact)
}

fn core_speculative(cases: &[Case]) -> Vec<Answer> {
    core_contact_at(cases, Query::Speculative)
}

/// The batch driver takes one prediction a call: the cases go in groups of equal
/// prediction (a handful of powers of two), and each group's answers back to its
/// cases' places. The driver's answers do not depend on which pairs share a call.
fn simd_contact_with(cases: &[Case], query: Query, options: BatchOptions) -> Vec<Answer> {
    let mut groups: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, c) in cases.iter().enumerate() {
        groups
            .entry(query.prediction(c).to_bits())
            .or_default()
            .push(i);
    }
    let mut answers = vec![Answer::Contact(None); cases.len()];
    for (prediction, members) in groups {
        let (sa, pa, sb, pb) = columns(members.iter().map(|&i| &cases[i]));
        let prediction = f32::from_bits(prediction);
        match gjk_simd::contact_batch_with(&sa, &pa, &sb, &pb, prediction, options) {
            Ok(r) => {
                for (&i, c) in members.iter().zip(r) {
                    answers[i] = contact_answer(c);
                }
            }
            Err(e) => {
                for &i in &members {
                    answers[i] = Answer::Failed(e.to_string());
                }
            }
        }
    }
    answers
}

fn simd_contact(cases: &[Case]) -> Vec<Answer> {
    simd_contact_with(cases, Query::Contact, BatchOptions::default())
}

fn simd_gjk_contact(cases: &[Case]) -> Vec<Answer> {
    simd_contact_with(cases, Query::Contact, GJK_ONLY)
}

fn simd_speculative(cases: &[Case]) -> Vec<Answer> {
    simd_contact_with(cases, Query::Speculative, BatchOptions::default())
}

fn simd_gjk_speculative(cases: &[Case]) -> Vec<Answer> {
    simd_contact_with(cases, Query::Speculative, GJK_ONLY)
}

/// The batch driver's four slices.
fn columns<'a>(
    cases: impl Iterator<Item = &'a Case> + Clone,
) -> (Vec<&'a Shape>, Vec<Pose>, Vec<&'a Shape>, Vec<Pose>) {
    (
        cases.clone().map(|c| &c.a).collect(),
        cases.clone().map(|c| c.pose_a).collect(),
        cases.clone().map(|c| &c.b).collect(),
        cases.map(|c| c.pose_b).collect(),
    )
}

/// Every pair through the GJK kernels: no early outs, no closed forms.
const GJK_ONLY: BatchOptions = BatchOptions {
    parallelism: Parallelism::Rayon {
        batches_per_task: 16,
    },
    early_outs: false,
    closed_forms: false,
};

fn simd_intersects_with(cases: &[Case], options: BatchOptions) -> Vec<Answer> {
    let (sa, pa, sb, pb) = columns(cases.iter());
    match gjk_simd::intersects_batch_with(&sa, &pa, &sb, &pb, options) {
        Ok(r) => r
            .iter()
            .map(|i| Answer::Intersects {
                intersecting: i.intersecting,
            })
            .collect(),
        Err(e) => vec![Answer::Failed(e.to_string()); cases.len()],
    }
}

fn simd_distance_with(cases: &[Case], options: BatchOptions) -> Vec<Answer> {
    let (sa, pa, sb, pb) = columns(cases.iter());
    match gjk_simd::distance_batch_with(&sa, &pa, &sb, &pb, options) {
        Ok(r) => r.iter().map(distance_answer).collect(),
        Err(e) => vec![Answer::Failed(e.to_string()); cases.len()],
    }
}

fn simd_intersects(cases: &[Case]) -> Vec<Answer> {
    simd_intersects_with(cases, BatchOptions::default())
}

fn simd_gjk_intersects(cases: &[Case]) -> Vec<Answer> {
    simd_intersects_with(cases, GJK_ONLY)
}

fn simd_distance(cases: &[Case]) -> Vec<Answer> {
    simd_distance_with(cases, BatchOptions::default())
}

fn simd_gjk_distance(cases: &[Case]) -> Vec<Answer> {
    simd_distance_with(cases, GJK_ONLY)
}

/// Each case's shapes and poses as parry's, or why not.
fn parry_each(cases: &[Case], query: impl Fn(&Case, &ParryPair) -> Answer) -> Vec<Answer> {
    use gjk_core::parry::to_parry;
    cases
        .iter()
        .map(
            |c| match (to_parry(&c.a, &c.pose_a), to_parry(&c.b, &c.pose_b)) {
                (Ok((a, pa)), Ok((b, pb))) => query(c, &ParryPair { a, pa, b, pb }),
                (Err(e), _) | (_, Err(e)) => Answer::Failed(format!("parry conversion: {e}")),
            },
        )
        .collect()
}

struct ParryPair {
    a: parry3d::shape::SharedShape,
    pa: parry3d::math::Pose,
    b: parry3d::shape::SharedShape,
    pb: parry3d::math::Pose,
}

fn parry_intersects(cases: &[Case]) -> Vec<Answer> {
    parry_each(cases, |_, p| {
        match parry3d::query::intersection_test(&p.pa, &*p.a, &p.pb, &*p.b) {
            Ok(i) => Answer::Intersects {
                intersecting: i.intersecting,
            },
            Err(e) => Answer::Failed(format!("parry: {e:?}")),
        }
    })
}

fn parry_distance(cases: &[Case]) -> Vec<Answer> {
    parry_each(cases, |_, p| {
        match parry3d::query::distance(&p.pa, &*p.a, &p.pb, &*p.b) {
            // parry's distance query gives no points; the judge certifies the
            // reference's answer instead when the two differ.
            Ok(d) => Answer::Distance {
                distance: d.distance,
                point_a: Vec3::NAN,
                point_b: Vec3::NAN,
                normal: Vec3::ZERO,
            },
            Err(e) => Answer::Failed(format!("parry: {e:?}")),
        }
    })
}

fn parry_contact_at(cases: &[Case], query: Query) -> Vec<Answer> {
    parry_each(cases, |c, p| {
        match parry3d::query::contact(&p.pa, &*p.a, &p.pb, &*p.b, query.prediction(c)) {
            Ok(c) => Answer::Contact(c.map(|c| ContactAnswer {
                depth: -c.dist,
                normal: c.normal1,
                point_a: c.point1,
                point_b: c.point2,
            })),
            Err(e) => Answer::Failed(format!("parry: {e:?}")),
        }
    })
}

fn parry_contact(cases: &[Case]) -> Vec<Answer> {
    parry_contact_at(cases, Query::Contact)
}

fn parry_speculative(cases: &[Case]) -> Vec<Answer> {
    parry_contact_at(cases, Query::Speculative)
}
