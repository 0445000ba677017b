//! A differential case (two posed shapes, optional expected answers) and the cases
//! file that holds them; disagreements are written in the same format, so that a
//! written case replays as it is.
//!
//! ```json
//! {
//!   "format": "widephase-diff-cases", "version": 1,
//!   "cases": [
//!     {"name": "ball beside a box",
//!      "a": {"kind": "cuboid", "half_extents": [1, 1, 1]},
//!      "pose_a": {"rotation": [0, 0, 0, 1], "translation": [0, 0, 0]},
//!      "b": {"kind": "sphere", "radius": 0.5},
//!      "pose_b": {"translation": [3, 0, 0]},
//!      "expected": {"intersects": false, "distance": 1.5}}
//!   ]
//! }
//! ```
//!
//! Shapes and poses take gjk-core's serde form. `name`, the poses (identity),
//! `expected` and each of its fields (`intersects`, `distance`, `depth`: the
//! contact's depth at prediction 0) are optional. Written cases add `origin` (the
//! seed and index that generated them) and `finding` (what disagreed), which a
//! reader ignores.

use std::path::Path;

use gjk_core::{Pose, Shape, SupportMap};
use serde::{Deserialize, Serialize};

use super::paths::{Answer, Query};
use crate::cli::args::kind_name;

/// The `format` tag of cases files.
pub const FORMAT: &str = "widephase-diff-cases";

/// Answers a case's author knows (closed forms, measurements).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// Whether the shapes overlap or touch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intersects: Option<bool>,
    /// Their distance (0 when they overlap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<f32>,
    /// The contact's depth at prediction 0 (positive: penetration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f32>,
}

/// Where a generated case came from: enough to generate it again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Origin {
    /// The campaign's seed.
    pub seed: u64,
    /// The case's index in the campaign's stream.
    pub index: u64,
    /// Its regime (`touching`, `deep`, ...).
    pub regime: String,
    /// Its size scale.
    pub scale: f32,
}

/// What disagreed, as written with a case.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finding {
    /// The query.
    pub query: Query,
    /// The path that disagreed with the reference (or with `expected`).
    pub path: String,
    /// Its verdict (`disagree`).
    pub verdict: String,
    /// The reference's answer (or the expected one).
    pub reference: Option<Answer>,
    /// The path's answer.
    pub answer: Answer,
    /// Whether the case was shrunk from the generated one, and in how many
    /// steps.
    pub shrink_steps: usize,
    /// The case as generated, before shrinking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unshrunk: Option<Box<Case>>,
}

/// Two posed shapes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// A label for messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Shape A.
    pub a: Shape,
    /// A's pose.
    #[serde(default)]
    pub pose_a: Pose,
    /// Shape B.
    pub b: Shape,
    /// B's pose.
    #[serde(default)]
    pub pose_b: Pose,
    /// Known answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
    /// Where it came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// What disagreed on it (a [`Finding`], kept as written: a reader does not
    /// need it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finding: Option<serde_json::Value>,
}

/// A cases file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// [`FORMAT`].
    pub format: String,
    /// Format version, 1.
    pub version: u32,
    /// The cases.
    pub cases: Vec<Case>,
}

impl CaseFile {
    /// A file of `cases`.
    pub fn new(cases: Vec<Case>) -> Self {
        CaseFile {
            format: FORMAT.to_string(),
            version: 1,
            cases,
        }
    }
}

/// Reads a cases file, naming the file in any error.
pub fn read(path: &Path) -> Result<Vec<Case>, String> {
    let file: CaseFile = crate::cli::output::read_json(path)?;
    if file.format != FORMAT || file.version != 1 {
        return Err(format!(
            "{}: not a cases file of this version (format {:?} version {}, expected {FORMAT:?} version 1)",
            path.display(),
            file.format,
            file.version
        ));
    }
    Ok(file.cases)
}

impl Case {
    /// The pair's kinds, `a-b` (`cuboid-hull`).
    pub fn kinds(&self) -> String {
        format!("{}-{}", kind_name(self.a.kind()), kind_name(self.b.kind()))
    }

    /// The pair's size: the sum of the bounding radii (what gjk-core's touch
    /// tolerance is relative to).
    pub fn scale(&self) -> f32 {
        self.a.bounding_radius() + self.b.bounding_radius()
    }

    /// The case with only its geometry (no expected answers, origin or finding).
    pub fn geometry(&self) -> Case {
        Case {
            name: None,
            a: self.a.clone(),
            pose_a: self.pose_a,
            b: self.b.clone(),
            pose_b: self.pose_b,
            expected: None,
            origin: None,
            finding: None,
        }
    }

    /// The case as a file would give it back: its shapes and poses written and
    /// read again, until that changes nothing (a hull rebuilt from its vertices
    /// may list them in another order; a pose's unit rotation normalized by its
    /// constructor is written as it is). Generated cases are tested in this form,
    /// so that a written case replays bit for bit.
    pub fn canonical(self) -> Case {
        let mut case = self;
        for _ in 0..8 {
            let again = match serde_json::to_string(&case)
                .ok()
                .and_then(|t| serde_json::from_str::<Case>(&t).ok())
            {
                Some(again) => again,
                None => return case,
            };
            let same = serde_json::to_string(&again).ok() == serde_json::to_string(&case).ok();
            case = again;
            if same {
                break;
            }
        }
        case
    }

    /// The expected answer to `query`, as an [`Answer`] with only the known field.
    pub fn expected_for(&self, query: Query) -> Option<ExpectedAnswer> {
        let e = self.expected?;
        match query {
            Query::Intersects => e.intersects.map(ExpectedAnswer::Intersects),
            Query::Distance => e.distance.map(ExpectedAnswer::Distance),
            Query::Contact => e.depth.map(ExpectedAnswer::Depth),
            // A speculative contact's depth is the overlap, or minus the gap.
            Query::Speculative => e
                .depth
                .filter(|&d| d > 0.0)
                .or(e.distance.map(|d| -d))
                .map(ExpectedAnswer::Depth),
        }
    }
}

/// One expected value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ExpectedAnswer {
    /// `intersects`.
    Intersects(bool),
    /// `distance`.
    Distance(f32),
    /// `depth`.
    Depth(f32),
}
