//! Serde support (feature `serde`): shapes and poses as plain data that validate on
//! the way in, and the query results as they are.
//!
//! A shape is written as its defining sizes and read back through its constructor,
//! so a file cannot build a shape or pose that the constructors would refuse: a
//! negative radius or a NaN coordinate is a deserialization error naming the shape
//! and field. Vectors are `[x, y, z]` and quaternions `[x, y, z, w]` (glam's own
//! serde form).
//!
//! | value | form |
//! |---|---|
//! | [`Shape`] | `{"kind": "sphere", "radius": 0.5}`, `{"kind": "cuboid", "half_extents": [1, 1, 1]}`, `{"kind": "capsule" \| "cylinder" \| "cone", "half_height": 1, "radius": 0.5}`, `{"kind": "convex_hull", "points": [[x, y, z], ...]}`, `{"kind": "rounded", "inner": <shape>, "radius": 0.1}` |
//! | [`Sphere`], [`Cuboid`], ... | the same fields without `kind` |
//! | [`Pose`] | `{"rotation": [x, y, z, w], "translation": [x, y, z]}` (each optional: identity, origin; a rotation not of unit length is normalized, a unit one kept bit for bit) |
//!
//! A hull is written as its vertices and rebuilt by [`ConvexHull::from_points`]; a
//! hull rebuilt from its own vertices holds the same points, possibly in another
//! order.
//!
//! ```
//! use gjk_core::{Pose, Shape};
//!
//! let shape: Shape = serde_json::from_str(r#"{"kind": "capsule", "half_height": 1.0, "radius": 0.25}"#)?;
//! assert_eq!(shape.kind(), gjk_core::ShapeKind::Capsule);
//! let pose: Pose = serde_json::from_str(r#"{"translation": [1.0, 2.0, 3.0]}"#)?;
//! assert_eq!(pose.translation(), gjk_core::glam::Vec3::new(1.0, 2.0, 3.0));
//! // A shape the constructor refuses is a deserialization error.
//! let bad = serde_json::from_str::<Shape>(r#"{"kind": "sphere", "radius": -1.0}"#);
//! assert!(bad.unwrap_err().to_string().contains("radius"));
//! # Ok::<(), serde_json::Error>(())
//! ```

use glam::{Quat, Vec3};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Capsule, Cone, ConvexHull, Cuboid, Cylinder, Pose, Rounded, Shape, Sphere};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SphereDef {
    radius: f32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CuboidDef {
    half_extents: Vec3,
}

/// Capsules, cylinders and cones: a height and a radius about the local y axis.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct AxialDef {
    half_height: f32,
    radius: f32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HullDef {
    points: Vec<Vec3>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundedDef {
    inner: ShapeDef,
    radius: f32,
}

/// [`Shape`] as data, tagged by kind.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum ShapeDef {
    Sphere(SphereDef),
    Cuboid(CuboidDef),
    Capsule(AxialDef),
    Cylinder(AxialDef),
    Cone(AxialDef),
    ConvexHull(HullDef),
    Rounded(Box<RoundedDef>),
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PoseDef {
    #[serde(default = "identity")]
    rotation: Quat,
    #[serde(default)]
    translation: Vec3,
}

fn identity() -> Quat {
    Quat::IDENTITY
}

impl From<&Shape> for ShapeDef {
    fn from(shape: &Shape) -> Self {
        match shape {
            Shape::Sphere(s) => ShapeDef::Sphere(s.into()),
            Shape::Cuboid(c) => ShapeDef::Cuboid(c.into()),
            Shape::Capsule(c) => ShapeDef::Capsule(c.into()),
            Shape::Cylinder(c) => ShapeDef::Cylinder(c.into()),
            Shape::Cone(c) => ShapeDef::Cone(c.into()),
            Shape::ConvexHull(h) => ShapeDef::ConvexHull(h.as_ref().into()),
            Shape::Rounded(r) => ShapeDef::Rounded(Box::new(r.as_ref().into())),
        }
    }
}

impl ShapeDef {
    fn build<E: serde::de::Error>(self) -> Result<Shape, E> {
        Ok(match self {
            ShapeDef::Sphere(d) => d.build::<E>()?.into(),
            ShapeDef::Cuboid(d) => d.build::<E>()?.into(),
            ShapeDef::Capsule(d) => d.capsule::<E>()?.into(),
            ShapeDef::Cylinder(d) => d.cylinder::<E>()?.into(),
            ShapeDef::Cone(d) => d.cone::<E>()?.into(),
            ShapeDef::ConvexHull(d) => d.build::<E>()?.into(),
            ShapeDef::Rounded(d) => d.build::<E>()?.into(),
        })
    }
}

impl From<&Sphere> for SphereDef {
    fn from(s: &Sphere) -> Self {
        SphereDef { radius: s.radius() }
    }
}

impl SphereDef {
    fn build<E: serde::de::Error>(self) -> Result<Sphere, E> {
        Sphere::new(self.radius).map_err(E::custom)
    }
}

impl From<&Cuboid> for CuboidDef {
    fn from(c: &Cuboid) -> Self {
        CuboidDef {
            half_extents: c.half_extents(),
        }
    }
}

impl CuboidDef {
    fn build<E: serde::de::Error>(self) -> Result<Cuboid, E> {
        Cuboid::new(self.half_extents).map_err(E::custom)
    }
}

macro_rules! axial {
    ($($ty:ident => $build:ident),*) => {$(
        impl From<&$ty> for AxialDef {
            fn from(s: &$ty) -> Self {
                AxialDef { half_height: s.half_height(), radius: s.radius() }
            }
        }

        impl AxialDef {
            fn $build<E: serde::de::Error>(self) -> Result<$ty, E> {
                $ty::new(self.half_height, self.radius).map_err(E::custom)
            }
        }
    )*};
}

axial!(Capsule => capsule, Cylinder => cylinder, Cone => cone);

impl From<&ConvexHull> for HullDef {
    fn from(h: &ConvexHull) -> Self {
        HullDef {
            points: h.vertices().to_vec(),
        }
    }
}

impl HullDef {
    fn build<E: serde::de::Error>(self) -> Result<ConvexHull, E> {
        ConvexHull::from_points(&self.points).map_err(E::custom)
    }
}

impl From<&Rounded<Shape>> for RoundedDef {
    fn from(r: &Rounded<Shape>) -> Self {
        RoundedDef {
            inner: r.inner().into(),
            radius: r.radius(),
        }
    }
}

impl RoundedDef {
    fn build<E: serde::de::Error>(self) -> Result<Rounded<Shape>, E> {
        Rounded::new(self.inner.build::<E>()?, self.radius).map_err(E::custom)
    }
}

/// Serialize through the data form `$def` (built `From<&$ty>`), deserialize through
/// it and `$def::$build`, the validating constructor.
macro_rules! via_def {
    ($($ty:ty => $def:ident :: $build:ident),* $(,)?) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                $def::from(self).serialize(serializer)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $def::deserialize(deserializer)?.$build::<D::Error>()
            }
        }
    )*};
}

via_def!(
    Shape => ShapeDef::build,
    Sphere => SphereDef::build,
    Cuboid => CuboidDef::build,
    Capsule => AxialDef::capsule,
    Cylinder => AxialDef::cylinder,
    Cone => AxialDef::cone,
    ConvexHull => HullDef::build,
    Rounded<Shape> => RoundedDef::build,
);

impl Serialize for Pose {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PoseDef {
            rotation: self.rotation(),
            translation: self.translation(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Pose {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let d = PoseDef::deserialize(deserializer)?;
        match Pose::from_unit_parts(d.rotation, d.translation) {
            Some(pose) => Ok(pose),
            None => Pose::new(d.rotation, d.translation).map_err(D::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(shape: &Shape) -> Shape {
        serde_json::from_str(&serde_json::to_string(shape).unwrap()).unwrap()
    }

    #[test]
    fn every_kind_round_trips() {
        let cube: Shape = Cuboid::new(Vec3::new(1.0, 0.5, 0.25)).unwrap().into();
        let hull: Shape =
            ConvexHull::from_points(&[Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z])
                .unwrap()
                .into();
        let shapes: Vec<Shape> = vec![
            Sphere::new(0.5).unwrap().into(),
            cube.clone(),
            Capsule::new(0.0, 0.3).unwrap().into(),
            Cylinder::new(1.0, 0.3).unwrap().into(),
            Cone::new(1.0, 0.3).unwrap().into(),
            hull.clone(),
            Rounded::new(hull, 0.1).unwrap().into(),
            Rounded::new(cube, 0.2).unwrap().into(),
        ];
        for s in &shapes {
            let back = round_trip(s);
            assert_eq!(back.kind(), s.kind());
            if let (Shape::ConvexHull(a), Shape::ConvexHull(b)) = (s, &back) {
                let mut va = a.vertices().to_vec();
                let mut vb = b.vertices().to_vec();
                va.sort_by(|p, q| p.to_array().partial_cmp(&q.to_array()).unwrap());
                vb.sort_by(|p, q| p.to_array().partial_cmp(&q.to_array()).unwrap());
                assert_eq!(va, vb);
            } else if !matches!(s, Shape::Rounded(_)) {
                assert_eq!(&back, s);
            }
        }
        let text = serde_json::to_string(&shapes[2]).unwrap();
        assert_eq!(text, r#"{"kind":"capsule","half_height":0.0,"radius":0.3}"#);
    }

    #[test]
    fn invalid_data_is_refused_with_the_constructors_message() {
        let cases = [
            (
                r#"{"kind":"sphere","radius":0}"#,
                "Sphere: `radius` must be > 0",
            ),
            (
                r#"{"kind":"cuboid","half_extents":[1,-1,1]}"#,
                "half_extents.y",
            ),
            (
                r#"{"kind":"convex_hull","points":[[0,0,0],[1,0,0],[0,1,0]]}"#,
                "at least 4 points",
            ),
            (
                r#"{"kind":"convex_hull","points":[[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}"#,
                "a hull needs volume",
            ),
            (
                r#"{"kind":"rounded","inner":{"kind":"cone","half_height":1,"radius":-2},"radius":0.1}"#,
                "Cone: `radius`",
            ),
            (r#"{"kind":"teapot"}"#, "unknown variant"),
            (
                r#"{"kind":"sphere","radius":1,"colour":3}"#,
                "unknown field",
            ),
        ];
        for (text, needle) in cases {
            let err = serde_json::from_str::<Shape>(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
        let err = serde_json::from_str::<Pose>(r#"{"rotation":[0,0,0,0]}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("zero length"), "{err}");
        // JSON has no NaN; a literal beyond f32 is refused, by the parser or (as
        // an infinity) by the constructor.
        let err = serde_json::from_str::<Pose>(r#"{"translation":[1e39,0,0]}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("out of range") || err.contains("finite"),
            "{err}"
        );
    }

    #[test]
    fn poses_and_results_round_trip() {
        let pose = Pose::new(Quat::from_rotation_y(0.3), Vec3::new(1.0, -2.0, 1e5)).unwrap();
        let back: Pose = serde_json::from_str(&serde_json::to_string(&pose).unwrap()).unwrap();
        assert_eq!(back, pose, "a written pose reads back bit for bit");
        let halfway: Pose = serde_json::from_str(r#"{"rotation":[0,0,0.7071,0.7071]}"#).unwrap();
        assert!((halfway.rotation().length() - 1.0).abs() < 1e-6);
        let a: Shape = Sphere::new(0.5).unwrap().into();
        let d = crate::distance(&a, &Pose::IDENTITY, &a, &pose);
        let text = serde_json::to_string(&d).unwrap();
        assert_eq!(serde_json::from_str::<crate::Distance>(&text).unwrap(), d);
        assert!(text.contains(r#""status":"converged""#), "{text}");
        let kind = serde_json::to_string(&crate::ShapeKind::ConvexHull).unwrap();
        assert_eq!(kind, r#""convex_hull""#);
    }
}
