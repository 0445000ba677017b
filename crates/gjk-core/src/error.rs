//! Errors for invalid shapes and poses.
//!
//! Every constructor validates its input so that the queries can assume finite,
//! non-negative sizes no larger than [`MAX_SIZE`]: a NaN that reaches GJK turns
//! every comparison false and can make a loop run to its cap or return garbage
//! silently, and a size whose square overflows turns a bounding radius into
//! infinity. Zero sizes are valid (a disc, a segment, a point).

use crate::tolerance::MAX_SIZE;

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
    /// A size was negative.
    #[error("{shape}: `{field}` must be >= 0 (got {value})")]
    Negative {
        /// The shape being built.
        shape: &'static str,
        /// The offending field.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// A size was larger than [`MAX_SIZE`].
    #[error("{shape}: `{field}` must be at most {limit:e} (got {value:e})")]
    TooLarge {
        /// The shape being built.
        shape: &'static str,
        /// The offending field.
        field: &'static str,
        /// The value given.
        value: f32,
        /// The limit, [`MAX_SIZE`].
        limit: f32,
    },
    /// A convex hull needs at least one point.
    #[error("ConvexHull: needs at least 1 point (got {found})")]
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
    /// A hull input point had a coordinate larger than [`MAX_SIZE`] in magnitude.
    #[error("ConvexHull: point {index} has a coordinate beyond {limit:e}")]
    PointTooLarge {
        /// Index of the first such point.
        index: usize,
        /// The limit, [`MAX_SIZE`].
        limit: f32,
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

/// Checks a size: finite, non-negative and at most [`MAX_SIZE`]; the error names
/// `shape` and `field`. Every constructor of this crate validates its sizes with
/// it, and so do the wide twins of gjk-simd, lane by lane.
///
/// ```
/// use gjk_core::error::check_size;
/// assert_eq!(check_size("Ball", "radius", 0.0), Ok(0.0));
/// assert!(check_size("Ball", "radius", -1.0).is_err());
/// ```
pub fn check_size(shape: &'static str, field: &'static str, value: f32) -> Result<f32, ShapeError> {
    if !value.is_finite() {
        Err(ShapeError::NotFinite { shape, field })
    } else if value < 0.0 {
        Err(ShapeError::Negative {
            shape,
            field,
            value,
        })
    } else if value > MAX_SIZE {
        Err(ShapeError::TooLarge {
            shape,
            field,
            value,
            limit: MAX_SIZE,
        })
    } else {
        Ok(value)
    }
}
