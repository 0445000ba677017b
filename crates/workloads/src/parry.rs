//! gjk-core shapes and poses as parry3d ones (parry 0.31 uses the same glam).

use gjk_core::{Pose, Shape, SupportMap};
use parry3d::shape::SharedShape;

/// The parry pose of `pose`.
pub fn pose(pose: &Pose) -> parry3d::math::Pose {
    parry3d::math::Pose::from_parts(pose.translation(), pose.rotation())
}

/// The parry shape equal to `shape`. Rounded shapes become parry's round shapes
/// (`RoundCuboid`, `RoundConvexPolyhedron`, `RoundCylinder`), whose border radius
/// is the same Minkowski dilation.
pub fn shape(shape: &Shape) -> SharedShape {
    match shape {
        Shape::Sphere(s) => SharedShape::ball(s.radius()),
        Shape::Cuboid(c) => {
            SharedShape::cuboid(c.half_extents().x, c.half_extents().y, c.half_extents().z)
        }
        Shape::Capsule(c) => SharedShape::capsule_y(c.half_height(), c.radius()),
        Shape::Cylinder(c) => SharedShape::cylinder(c.half_height(), c.radius()),
        Shape::Cone(c) => SharedShape::cone(c.half_height(), c.radius()),
        Shape::ConvexHull(h) => {
            SharedShape::convex_hull(h.vertices()).expect("parry builds the same hull")
        }
        Shape::Rounded(r) => {
            let radius = r.radius();
            match r.inner() {
                Shape::Cuboid(c) => {
                    let h = c.half_extents();
                    SharedShape::round_cuboid(h.x, h.y, h.z, radius)
                }
                Shape::Cylinder(c) => {
                    SharedShape::round_cylinder(c.half_height(), c.radius(), radius)
                }
                Shape::ConvexHull(h) => SharedShape::round_convex_hull(h.vertices(), radius)
                    .expect("parry builds the same hull"),
                other => panic!(
                    "no parry round shape for {:?} (margin {})",
                    other.kind(),
                    other.margin()
                ),
            }
        }
    }
}
