//! Support-mapped convex shapes: one per file, each with a validating constructor.

mod capsule;
mod cone;
mod convex_hull;
mod cuboid;
mod cylinder;
mod hull_faces;
mod quickhull;
mod rounded;
mod shape;
mod sphere;

pub use capsule::Capsule;
pub use cone::Cone;
pub use convex_hull::ConvexHull;
pub use cuboid::Cuboid;
pub use cylinder::Cylinder;
pub use rounded::Rounded;
pub use shape::{Shape, ShapeKind};
pub use sphere::Sphere;
