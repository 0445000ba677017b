//! The scene of `widephase run`: bodies with their motion, drawn from a seed or read
//! from a scene file, and written back to one.
//!
//! A scene file (JSON) holds the bodies and how they move:
//!
//! ```json
//! {
//!   "format": "widephase-scene", "version": 1,
//!   "seed": 7,
//!   "side": 40.0,
//!   "bodies": [
//!     {"shape": {"kind": "sphere", "radius": 0.5},
//!      "pose": {"rotation": [0, 0, 0, 1], "translation": [1, 2, 3]},
//!      "velocity": [0.5, 0, 0], "spin": [0, 1, 0]}
//!   ]
//! }
//! ```
//!
//! Shapes and poses take gjk-core's serde form and validate as they are read.
//! `velocity` (units per second) and `spin` (a rotation vector, radians per second)
//! are optional: a body without them draws them from `seed`, in body order. `side`
//! is the box the bodies bounce in (default: the generated scenes' side for that
//! many bodies); `format`, `version` and `seed` are optional too.

use std::error::Error;
use std::path::Path;

use gjk_core::glam::Vec3;
use gjk_core::{Pose, Shape, ShapeKind};
use gjk_simd::Parallelism;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use widephase::{BodyId, World, WorldConfig};
use workloads::workload::{random_rotation, random_shape, random_unit, standard_hulls};

use crate::cli::args::{MAX_BODIES, kind_name};
use crate::cli::output::Progress;

/// The speculative margin of the main job's world: pairs closer than this get
/// manifolds.
pub const PREDICTION: f32 = 0.05;

/// The `format` tag of scene files.
pub const FORMAT: &str = "widephase-scene";

/// A body's motion: constant velocity and spin, bouncing off the box's walls.
#[derive(Debug, Clone)]
pub struct Mover {
    /// The body.
    pub id: BodyId,
    /// Units per second.
    pub velocity: Vec3,
    /// Rotation vector, radians per second.
    pub spin: Vec3,
}

/// The bodies, their motion and the box they move in.
pub struct Scene {
    /// The bodies.
    pub world: World,
    /// Every body's motion, in the order the bodies were added.
    pub movers: Vec<Mover>,
    /// The side of the box centred on the origin that the bodies bounce in.
    pub side: f32,
}

/// A scene file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    /// [`FORMAT`].
    #[serde(default = "format_tag")]
    pub format: String,
    /// Format version, 1.
    #[serde(default = "version_one")]
    pub version: u32,
    /// The seed of any motion left out.
    #[serde(default)]
    pub seed: u64,
    /// The box's side.
    #[serde(default)]
    pub side: Option<f32>,
    /// The bodies.
    pub bodies: Vec<BodyDef>,
}

fn format_tag() -> String {
    FORMAT.to_string()
}

fn version_one() -> u32 {
    1
}

/// A body of a scene file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDef {
    /// Its shape.
    pub shape: Shape,
    /// Where it starts (default: the origin, unrotated).
    #[serde(default)]
    pub pose: Pose,
    /// Units per second (default: drawn from the seed).
    #[serde(default)]
    pub velocity: Option<Vec3>,
    /// Radians per second about this axis (default: drawn from the seed).
    #[serde(default)]
    pub spin: Option<Vec3>,
}

/// The side of the generated scenes' box for `bodies` bodies: about two candidate
/// pairs per body (the density of the standard boxes of `BENCHMARKS.md`, section
/// 1, scaled for these larger shapes and their fat margins).
pub fn default_side(bodies: usize) -> f32 {
    (4.0 * bodies.max(1) as f32).cbrt() * 3.0
}

/// A motion drawn from `rng`: a random direction at up to 2 units per second, a
/// random axis at up to 1 radian per second.
fn random_motion(rng: &mut ChaCha8Rng) -> (Vec3, Vec3) {
    let velocity = random_unit(rng) * rng.random_range(0.0..2.0);
    let spin = random_unit(rng) * rng.random_range(0.0..1.0);
    (velocity, spin)
}

/// `bodies` random bodies of `kinds` (each body's kind uniform among them), centres
/// uniform in the box, from `seed`. The same seed and kinds give the same scene.
pub fn generate(
    bodies: usize,
    kinds: &[ShapeKind],
    seed: u64,
    progress: &Progress,
) -> Result<Scene, Box<dyn Error>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = default_side(bodies);
    let hulls = standard_hulls(&mut rng);
    let mut world = World::with_config(WorldConfig {
        prediction: PREDICTION,
        parallelism: Parallelism::default(),
    })?;
    let mut movers = Vec::with_capacity(bodies);
    for i in 0..bodies {
        let kind = kinds[rng.random_range(0..kinds.len())];
        let shape: Shape = random_shape(&mut rng, kind, &hulls);
        let centre = (Vec3::new(rng.random(), rng.random(), rng.random()) - 0.5) * side;
        let id = world.add(shape, Pose::new(random_rotation(&mut rng), centre)?)?;
        let (velocity, spin) = random_motion(&mut rng);
        movers.push(Mover { id, velocity, spin });
        if i % 4096 == 4095 {
            progress.inc(4096);
        }
    }
    Ok(Scene {
        world,
        movers,
        side,
    })
}

/// Reads a scene file; any problem is an error naming the file.
pub fn read(path: &Path) -> Result<SceneFile, String> {
    let file: SceneFile = crate::cli::output::read_json(path)?;
    let name = path.display();
    if file.format != FORMAT || file.version != 1 {
        return Err(format!(
            "{name}: not a scene file of this version (format {:?} version {}, expected {FORMAT:?} version 1)",
            file.format, file.version
        ));
    }
    if file.bodies.len() as u64 > MAX_BODIES {
        return Err(format!(
            "{name}: {} bodies, at most {MAX_BODIES} (see --help for --bodies)",
            file.bodies.len()
        ));
    }
    if let Some(side) = file.side.filter(|s| !(s.is_finite() && *s > 0.0)) {
        return Err(format!(
            "{name}: side must be finite and above 0, got {side}"
        ));
    }
    for (i, b) in file.bodies.iter().enumerate() {
        for (what, v) in [("velocity", b.velocity), ("spin", b.spin)] {
            if v.is_some_and(|v| !v.is_finite()) {
                return Err(format!("{name}: body {i}: {what} must be finite"));
            }
        }
    }
    Ok(file)
}

/// The scene of a scene file.
pub fn build(file: SceneFile, progress: &Progress) -> Result<Scene, Box<dyn Error>> {
    let mut rng = ChaCha8Rng::seed_from_u64(file.seed);
    let side = file.side.unwrap_or_else(|| default_side(file.bodies.len()));
    let mut world = World::with_config(WorldConfig {
        prediction: PREDICTION,
        parallelism: Parallelism::default(),
    })?;
    let mut movers = Vec::with_capacity(file.bodies.len());
    for (i, body) in file.bodies.into_iter().enumerate() {
        let (drawn_velocity, drawn_spin) = random_motion(&mut rng);
        let id = world
            .add(body.shape, body.pose)
            .map_err(|e| format!("body {i}: {e}"))?;
        movers.push(Mover {
            id,
            velocity: body.velocity.unwrap_or(drawn_velocity),
            spin: body.spin.unwrap_or(drawn_spin),
        });
        if i % 4096 == 4095 {
            progress.inc(4096);
        }
    }
    Ok(Scene {
        world,
        movers,
        side,
    })
}

impl Scene {
    /// The scene as a scene file (every body's motion written out).
    pub fn to_file(&self, seed: u64) -> Result<SceneFile, Box<dyn Error>> {
        let mut bodies = Vec::with_capacity(self.movers.len());
        for m in &self.movers {
            let body = self.world.body(m.id)?;
            bodies.push(BodyDef {
                shape: body.shape.clone(),
                pose: body.pose,
                velocity: Some(m.velocity),
                spin: Some(m.spin),
            });
        }
        Ok(SceneFile {
            format: FORMAT.to_string(),
            version: 1,
            seed,
            side: Some(self.side),
            bodies,
        })
    }

    /// The kinds present, by name, in `ShapeKind` order.
    pub fn kinds(&self) -> Result<Vec<&'static str>, Box<dyn Error>> {
        let mut kinds = Vec::new();
        for m in &self.movers {
            kinds.push(self.world.body(m.id)?.shape.kind());
        }
        kinds.sort();
        kinds.dedup();
        Ok(kinds.into_iter().map(kind_name).collect())
    }
}
