//! One enum over every shape, for dynamic dispatch and batching.

use std::sync::Arc;

use glam::Vec3;

use super::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Rounded, Sphere};
use crate::feature::Feature;
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap};

/// Any shape widephase knows. Hulls and rounded shapes are behind `Arc` so that a
/// `Shape` is cheap to clone into many bodies and batches.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A ball.
    Sphere(Sphere),
    /// A box.
    Cuboid(Cuboid),
    /// A segment plus radius.
    Capsule(Capsule),
    /// A cylinder.
    Cylinder(Cylinder),
    /// A cone.
    Cone(Cone),
    /// A convex polytope.
    ConvexHull(Arc<ConvexHull>),
    /// Any shape dilated by a radius.
    Rounded(Arc<Rounded<Shape>>),
}

/// The kind of a [`Shape`], without its data (the batch driver buckets by it).
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShapeKind {
    /// [`Shape::Sphere`].
    Sphere,
    /// [`Shape::Cuboid`].
    Cuboid,
    /// [`Shape::Capsule`].
    Capsule,
    /// [`Shape::Cylinder`].
    Cylinder,
    /// [`Shape::Cone`].
    Cone,
    /// [`Shape::ConvexHull`].
    ConvexHull,
    /// [`Shape::Rounded`].
    Rounded,
}

impl Shape {
    /// The shape's kind.
    #[inline]
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Sphere(_) => ShapeKind::Sphere,
            Shape::Cuboid(_) => ShapeKind::Cuboid,
            Shape::Capsule(_) => ShapeKind::Capsule,
            Shape::Cylinder(_) => ShapeKind::Cylinder,
            Shape::Cone(_) => ShapeKind::Cone,
            Shape::ConvexHull(_) => ShapeKind::ConvexHull,
            Shape::Rounded(_) => ShapeKind::Rounded,
        }
    }
}

macro_rules! dispatch {
    ($self:expr, $s:ident => $body:expr) => {
        match $self {
            Shape::Sphere($s) => $body,
            Shape::Cuboid($s) => $body,
            Shape::Capsule($s) => $body,
            Shape::Cylinder($s) => $body,
            Shape::Cone($s) => $body,
            Shape::ConvexHull($s) => $body,
            Shape::Rounded($s) => $body,
        }
    };
}

impl SupportMap for Shape {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        dispatch!(self, s => s.support_core(dir))
    }

    #[inline]
    fn margin(&self) -> f32 {
        dispatch!(self, s => s.margin())
    }

    #[inline]
    fn support_core_hinted(&self, dir: Vec3, hint: &mut u32) -> Vec3 {
        dispatch!(self, s => s.support_core_hinted(dir, hint))
    }

    #[inline]
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        dispatch!(self, s => s.support_feature(dir, out))
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        dispatch!(self, s => s.bounding_radius())
    }

    #[inline]
    fn inner_radius(&self) -> f32 {
        dispatch!(self, s => s.inner_radius())
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        dispatch!(self, s => s.core_symmetry())
    }

    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        dispatch!(self, s => s.aabb(pose))
    }
}

impl<S: SupportMap + ?Sized> SupportMap for Arc<S> {
    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        (**self).support_core(dir)
    }

    #[inline]
    fn margin(&self) -> f32 {
        (**self).margin()
    }

    #[inline]
    fn support_core_hinted(&self, dir: Vec3, hint: &mut u32) -> Vec3 {
        (**self).support_core_hinted(dir, hint)
    }

    #[inline]
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        (**self).support_feature(dir, out)
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        (**self).bounding_radius()
    }

    #[inline]
    fn inner_radius(&self) -> f32 {
        (**self).inner_radius()
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        (**self).core_symmetry()
    }

    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        (**self).aabb(pose)
    }
}

macro_rules! from_shape {
    ($($t:ident => $wrap:expr),* $(,)?) => {
        $(impl From<$t> for Shape {
            fn from(s: $t) -> Shape {
                $wrap(s)
            }
        })*
    };
}

from_shape!(
    Sphere => Shape::Sphere,
    Cuboid => Shape::Cuboid,
    Capsule => Shape::Capsule,
    Cylinder => Shape::Cylinder,
    Cone => Shape::Cone,
    ConvexHull => |h| Shape::ConvexHull(Arc::new(h)),
);

impl From<Rounded<Shape>> for Shape {
    fn from(r: Rounded<Shape>) -> Shape {
        Shape::Rounded(Arc::new(r))
    }
}
