//! Conversions between parry3d's shapes and poses and gjk-core's (feature `parry`),
//! both ways, so that a parry or rapier scene can run through widephase and its
//! answers be compared with parry's.
//!
//! parry 0.31 is written in the same glam, so vectors and quaternions pass as they
//! are. A parry shape may sit off its own origin (a capsule's segment can be
//! anywhere), while every gjk-core shape is centred on its local origin: converting
//! a posed parry shape therefore gives a posed gjk-core shape whose pose carries
//! that offset ([`from_parry`]).
//!
//! ```
//! use gjk_core::parry::{from_parry, to_parry};
//! use gjk_core::{Pose, distance};
//! use parry3d::shape::{Ball, Capsule};
//! use parry3d::math::{Pose as ParryPose, Vector};
//!
//! // A parry capsule lying along x, and a ball above it.
//! let capsule = Capsule::new(Vector::new(-1.0, 0.0, 0.0), Vector::new(1.0, 0.0, 0.0), 0.25);
//! let (a, pose_a) = from_parry(&capsule, &ParryPose::IDENTITY)?;
//! let (b, pose_b) = from_parry(&Ball::new(0.5), &ParryPose::translation(0.5, 2.0, 0.0))?;
//! let d = distance(&a, &pose_a, &b, &pose_b);
//! assert!((d.distance - 1.25).abs() < 1e-5);
//!
//! // And back: parry agrees.
//! let (pa, qa) = to_parry(&a, &pose_a)?;
//! let (pb, qb) = to_parry(&b, &pose_b)?;
//! let theirs = parry3d::query::distance(&qa, &*pa, &qb, &*pb).unwrap().distance;
//! assert!((theirs - d.distance).abs() < 1e-4);
//! # Ok::<(), gjk_core::parry::ParryError>(())
//! ```

use glam::{Quat, Vec3};
use parry3d::math::Pose as ParryPose;
use parry3d::shape::{SharedShape, TypedShape};

use crate::{
    Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, PoseError, Rounded, Shape, ShapeError,
    Sphere,
};

/// Why a conversion failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ParryError {
    /// The parry shape has no convex gjk-core twin (meshes, compounds, half-spaces,
    /// heightfields, voxels) or none yet (segments and triangles, which have no
    /// volume).
    #[error("parry shape {0} has no gjk-core equivalent")]
    Unsupported(&'static str),
    /// The parry shape's sizes are refused by gjk-core's constructor.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The pose is not finite or its rotation is zero.
    #[error(transparent)]
    Pose(#[from] PoseError),
    /// parry could not build a convex hull from the hull's vertices.
    #[error("parry could not build the convex hull of {0} points")]
    HullRefused(usize),
}

/// The parry pose of `pose`.
pub fn pose_to_parry(pose: &Pose) -> ParryPose {
    ParryPose::from_parts(pose.translation(), pose.rotation())
}

/// The gjk-core pose of a parry pose (refused when not finite or the rotation is
/// zero).
pub fn pose_from_parry(pose: &ParryPose) -> Result<Pose, PoseError> {
    Pose::new(pose.rotation, pose.translation)
}

/// The parry shape equal to `shape`: primitives to primitives, hulls to convex
/// polyhedra, rounded shapes to parry's round shapes (the same Minkowski dilation);
/// a rounded sphere or capsule is a larger sphere or capsule, nested roundings add
/// up.
pub fn to_parry_shape(shape: &Shape) -> Result<SharedShape, ParryError> {
    rounded_to_parry(shape, 0.0)
}

/// `shape` dilated by `border` as a parry shape.
fn rounded_to_parry(shape: &Shape, border: f32) -> Result<SharedShape, ParryError> {
    let hull = |h: &ConvexHull| {
        let points = h.vertices();
        let built = if border > 0.0 {
            SharedShape::round_convex_hull(points, border)
        } else {
            SharedShape::convex_hull(points)
        };
        built.ok_or(ParryError::HullRefused(points.len()))
    };
    Ok(match shape {
        Shape::Sphere(s) => SharedShape::ball(s.radius() + border),
        Shape::Capsule(c) => SharedShape::capsule_y(c.half_height(), c.radius() + border),
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            if border > 0.0 {
                SharedShape::round_cuboid(h.x, h.y, h.z, border)
            } else {
                SharedShape::cuboid(h.x, h.y, h.z)
            }
        }
        Shape::Cylinder(c) if border > 0.0 => {
            SharedShape::round_cylinder(c.half_height(), c.radius(), border)
        }
        Shape::Cylinder(c) => SharedShape::cylinder(c.half_height(), c.radius()),
        Shape::Cone(c) if border > 0.0 => {
            SharedShape::round_cone(c.half_height(), c.radius(), border)
        }
        Shape::Cone(c) => SharedShape::cone(c.half_height(), c.radius()),
        Shape::ConvexHull(h) => hull(h)?,
        Shape::Rounded(r) => rounded_to_parry(r.inner(), border + r.radius())?,
    })
}

/// `shape` at `pose` as a parry shape and pose.
pub fn to_parry(shape: &Shape, pose: &Pose) -> Result<(SharedShape, ParryPose), ParryError> {
    Ok((to_parry_shape(shape)?, pose_to_parry(pose)))
}

/// A parry shape at a parry pose as a gjk-core shape and pose. The pose differs from
/// `pose` when the parry shape is not centred on its origin (a capsule whose
/// segment is off the origin or not along y).
pub fn from_parry(
    shape: &dyn parry3d::shape::Shape,
    pose: &ParryPose,
) -> Result<(Shape, Pose), ParryError> {
    let (ours, local) = from_typed(shape.as_typed_shape())?;
    Ok((ours, pose_from_parry(pose)?.compose(&local)))
}

/// A parry shape as a gjk-core shape and the pose of that shape in the parry
/// shape's frame.
fn from_typed(shape: TypedShape<'_>) -> Result<(Shape, Pose), ParryError> {
    let centred = |s: Shape| Ok((s, Pose::IDENTITY));
    let rounded =
        |(inner, local): (Shape, Pose), radius: f32| -> Result<(Shape, Pose), ParryError> {
            Ok((Rounded::new(inner, radius)?.into(), local))
        };
    match shape {
        TypedShape::Ball(b) => centred(Sphere::new(b.radius)?.into()),
        TypedShape::Cuboid(c) => centred(Cuboid::new(c.half_extents)?.into()),
        TypedShape::Capsule(c) => capsule(c.segment.a, c.segment.b, c.radius),
        TypedShape::Cylinder(c) => centred(Cylinder::new(c.half_height, c.radius)?.into()),
        TypedShape::Cone(c) => centred(Cone::new(c.half_height, c.radius)?.into()),
        TypedShape::ConvexPolyhedron(p) => centred(ConvexHull::from_points(p.points())?.into()),
        TypedShape::RoundCuboid(r) => rounded(
            (
                Cuboid::new(r.inner_shape.half_extents)?.into(),
                Pose::IDENTITY,
            ),
            r.border_radius,
        ),
        TypedShape::RoundCylinder(r) => rounded(
            (
                Cylinder::new(r.inner_shape.half_height, r.inner_shape.radius)?.into(),
                Pose::IDENTITY,
            ),
            r.border_radius,
        ),
        TypedShape::RoundCone(r) => rounded(
            (
                Cone::new(r.inner_shape.half_height, r.inner_shape.radius)?.into(),
                Pose::IDENTITY,
            ),
            r.border_radius,
        ),
        TypedShape::RoundConvexPolyhedron(r) => rounded(
            (
                ConvexHull::from_points(r.inner_shape.points())?.into(),
                Pose::IDENTITY,
            ),
            r.border_radius,
        ),
        TypedShape::Segment(_) => Err(ParryError::Unsupported("Segment")),
        TypedShape::Triangle(_) => Err(ParryError::Unsupported("Triangle")),
        TypedShape::RoundTriangle(_) => Err(ParryError::Unsupported("RoundTriangle")),
        TypedShape::TriMesh(_) => Err(ParryError::Unsupported("TriMesh")),
        TypedShape::Polyline(_) => Err(ParryError::Unsupported("Polyline")),
        TypedShape::HalfSpace(_) => Err(ParryError::Unsupported("HalfSpace")),
        TypedShape::HeightField(_) => Err(ParryError::Unsupported("HeightField")),
        TypedShape::Compound(_) => Err(ParryError::Unsupported("Compound")),
        TypedShape::Voxels(_) => Err(ParryError::Unsupported("Voxels")),
        TypedShape::Custom(_) => Err(ParryError::Unsupported("a custom shape")),
    }
}

/// parry's capsule is any segment with a radius; gjk-core's is centred on the
/// origin along y, so the segment's midpoint and direction become its local pose.
fn capsule(a: Vec3, b: Vec3, radius: f32) -> Result<(Shape, Pose), ParryError> {
    let axis = b - a;
    let half_height = 0.5 * axis.length();
    let rotation = if half_height > 0.0 {
        Quat::from_rotation_arc(Vec3::Y, axis / (2.0 * half_height))
    } else {
        Quat::IDENTITY
    };
    let local = Pose::new(rotation, 0.5 * (a + b))?;
    Ok((Capsule::new(half_height, radius)?.into(), local))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parry3d::shape::{Ball, Capsule as ParryCapsule, Compound};

    #[test]
    fn every_kind_goes_there_and_back() {
        let hull =
            ConvexHull::from_points(&[Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z])
                .unwrap();
        let shapes: Vec<Shape> = vec![
            Sphere::new(0.5).unwrap().into(),
            Cuboid::new(Vec3::new(1.0, 0.5, 0.25)).unwrap().into(),
            Capsule::new(0.7, 0.3).unwrap().into(),
            Cylinder::new(1.0, 0.3).unwrap().into(),
            Cone::new(1.0, 0.3).unwrap().into(),
            hull.clone().into(),
            Rounded::new(hull.into(), 0.1).unwrap().into(),
            Rounded::new(Cone::new(1.0, 0.5).unwrap().into(), 0.2)
                .unwrap()
                .into(),
        ];
        let pose = Pose::new(Quat::from_rotation_x(0.4), Vec3::new(1.0, 2.0, 3.0)).unwrap();
        let probe = Sphere::new(0.1).unwrap();
        for s in &shapes {
            let (theirs, their_pose) = to_parry(s, &pose).unwrap();
            let (back, back_pose) = from_parry(&*theirs, &their_pose).unwrap();
            assert_eq!(back.kind(), s.kind(), "{s:?}");
            // The same solid: the same distance to probes all around it.
            for dir in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::ONE.normalize(), -Vec3::Y] {
                let at = Pose::from_translation(pose.translation() + 5.0 * dir).unwrap();
                let d0 = crate::distance(s, &pose, &probe, &at).distance;
                let d1 = crate::distance(&back, &back_pose, &probe, &at).distance;
                assert!((d0 - d1).abs() < 1e-5, "{s:?} along {dir}: {d0} vs {d1}");
            }
        }
    }

    #[test]
    fn an_off_centre_capsule_keeps_its_place() {
        let c = ParryCapsule::new(Vec3::new(1.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0), 0.5);
        let (shape, pose) = from_parry(&c, &ParryPose::translation(0.0, 0.0, 10.0)).unwrap();
        let probe = Sphere::new(0.5).unwrap();
        let at = Pose::from_translation(Vec3::new(2.0, 3.0, 10.0)).unwrap();
        // The probe sits 2 above the segment's middle: 2 - 0.5 - 0.5 apart.
        let d = crate::distance(&shape, &pose, &probe, &at);
        assert!((d.distance - 1.0).abs() < 1e-5, "{d:?}");
    }

    #[test]
    fn what_has_no_twin_is_an_error() {
        let compound = Compound::new(vec![(ParryPose::IDENTITY, SharedShape::ball(1.0))]);
        assert_eq!(
            from_parry(&compound, &ParryPose::IDENTITY).unwrap_err(),
            ParryError::Unsupported("Compound")
        );
        assert!(matches!(
            from_parry(&Ball::new(-1.0), &ParryPose::IDENTITY),
            Err(ParryError::Shape(_))
        ));
        let nan = ParryPose::translation(f32::NAN, 0.0, 0.0);
        assert!(matches!(
            from_parry(&Ball::new(1.0), &nan),
            Err(ParryError::Pose(_))
        ));
    }
}
