//! Errors for invalid shapes and poses.
//!
//! Every constructor validates its input so that the queries can assume finite,
//! positive sizes: a NaN that reaches GJK turns every comparison false and can make
//! a loop run to its cap or return garbage silently.

/// Why a shape could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A size or coordinate was NaN or infinite.
    #[error("{shape}: `{field}` must be finite (got NaN or infinity)")]
    NotFinite {
        /// The shape being built, e.g. `"Cuboid"`.
        shape: &'static str,
        /// The offending field, e.g. `"half_extents.y"`.
        field: &'static str,
    },
    /// A size that must be strictly positive was zero or negative.
    #[error("{shape}: `{field}` must be > 0 (got {value})")]
    NotPositive {
        /// The shape being built.
        shape: &'static str,
        /// The offending field.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// A size that may be zero was negative.
    #[error("{shape}: `{field}` must be >= 0 (got {value})")]
    Negative {
        /// The shape being built.
        shape: &'static str,
        /// The offending field.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// A convex hull needs at least four points.
    #[error("ConvexHull: needs at least 4 points (got {found})")]
    TooFewPoints {
        /// How many points were given.
        found: usize,
    },
    /// A hull input point was NaN or infinite.
    #[error("ConvexHull: point {index} is NaN or infinite")]
    NonFinitePoint {
        /// Index of the first bad point.
        index: usize,
    },
    /// The hull input has no volume: all points coincide, lie on a line or on a plane
    /// (within the construction tolerance).
    #[error("ConvexHull: the points are {kind}; a hull needs volume")]
    Degenerate {
        /// `"coincident"`, `"collinear"` or `"coplanar"`.
        kind: &'static str,
    },
}

/// Why a pose could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PoseError {
    /// A rotation or translation component was NaN or infinite.
    #[error("Pose: `{field}` must be finite (got NaN or infinity)")]
    NotFinite {
        /// `"rotation"` or `"translation"`.
        field: &'static str,
    },
    /// The rotation quaternion has (near) zero length and cannot be normalized.
    #[error("Pose: rotation quaternion has zero length")]
    ZeroRotation,
}

/// Checks a size that must be finite and strictly positive.
pub(crate) fn positive(
    shape: &'static str,
    field: &'static str,
    value: f32,
) -> Result<f32, ShapeError> {
    match finite(shape, field, value)? {
        v if v > 0.0 => Ok(v),
        value => Err(ShapeError::NotPositive {
            shape,
            field,
            value,
        }),
    }
}

/// Checks a size that must be finite and may be zero.
pub(crate) fn non_negative(
    shape: &'static str,
    field: &'static str,
    value: f32,
) -> Result<f32, ShapeError> {
    match finite(shape, field, value)? {
        v if v >= 0.0 => Ok(v),
        value => Err(ShapeError::Negative {
            shape,
            field,
            value,
        }),
    }
}

fn finite(shape: &'static str, field: &'static str, value: f32) -> Result<f32, ShapeError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ShapeError::NotFinite { shape, field })
    }
}
