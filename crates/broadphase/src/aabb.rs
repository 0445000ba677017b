//! Axis-aligned bounding boxes that are valid by construction.

use glam::Vec3;

use crate::Error;

/// An axis-aligned box `[min, max]` with finite coordinates and `min <= max` on every axis.
///
/// The fields are private so that every `Aabb` in circulation has passed validation:
/// the tree and the pair manager never see NaN, infinite or inverted boxes. Boxes are
/// closed: two boxes that share only a face, an edge or a corner overlap. Degenerate
/// (flat or point) boxes are allowed.
///
/// The verbs are those of gjk-core's `Aabb` (the bounds a shape reports):
/// [`intersects`](Self::intersects), [`grown`](Self::grown),
/// [`contains_point`](Self::contains_point),
/// [`from_center_half_extents`](Self::from_center_half_extents); this one also
/// validates its input and carries what the tree needs (merge, containment, area).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    min: Vec3,
    max: Vec3,
}

impl Aabb {
    /// Builds `[min, max]`, rejecting NaN, infinite and inverted boxes.
    ///
    /// ```
    /// use broadphase::{Aabb, Error};
    /// use glam::Vec3;
    /// assert!(Aabb::new(Vec3::ZERO, Vec3::ONE).is_ok());
    /// assert_eq!(Aabb::new(Vec3::ONE, Vec3::ZERO), Err(Error::InvertedBox { axis: 0 }));
    /// assert_eq!(Aabb::new(Vec3::NAN, Vec3::ONE), Err(Error::NanCoordinate));
    /// ```
    #[inline]
    pub fn new(min: Vec3, max: Vec3) -> Result<Self, Error> {
        if min.is_nan() || max.is_nan() {
            return Err(Error::NanCoordinate);
        }
        if !min.is_finite() || !max.is_finite() {
            return Err(Error::InfiniteCoordinate);
        }
        let inverted = min.cmpgt(max).bitmask();
        if inverted != 0 {
            return Err(Error::InvertedBox {
                axis: inverted.trailing_zeros() as usize,
            });
        }
        Ok(Self { min, max })
    }

    /// Builds the box centred on `center` with half-size `half_extents` (each component
    /// must be `>= 0`).
    #[inline]
    pub fn from_center_half_extents(center: Vec3, half_extents: Vec3) -> Result<Self, Error> {
        if half_extents.is_nan() || center.is_nan() {
            return Err(Error::NanCoordinate);
        }
        if half_extents.cmplt(Vec3::ZERO).any() {
            return Err(Error::NegativeValue);
        }
        Self::new(center - half_extents, center + half_extents)
    }

    /// Builds a box without checks; callers guarantee finiteness and `min <= max`.
    #[inline]
    pub(crate) fn new_unchecked(min: Vec3, max: Vec3) -> Self {
        debug_assert!(min.is_finite() && max.is_finite() && min.cmple(max).all());
        Self { min, max }
    }

    /// The lower corner.
    #[inline]
    pub fn min(&self) -> Vec3 {
        self.min
    }

    /// The upper corner.
    #[inline]
    pub fn max(&self) -> Vec3 {
        self.max
    }

    /// The centre point.
    #[inline]
    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }

    /// The side lengths (`max - min`).
    #[inline]
    pub fn size(&self) -> Vec3 {
        self.max - self.min
    }

    /// The smallest box containing both boxes.
    #[inline]
    #[must_use]
    pub fn merge(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// Whether the closed boxes share at least one point.
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        // One combined mask instead of six branches: this test is the inner loop of
        // every query.
        (self.min.cmple(other.max) & other.min.cmple(self.max)).all()
    }

    /// Whether `other` lies entirely inside this box (boundaries included).
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        (self.min.cmple(other.min) & other.max.cmple(self.max)).all()
    }

    /// Whether the point lies inside the closed box.
    #[inline]
    pub fn contains_point(&self, p: Vec3) -> bool {
        (self.min.cmple(p) & p.cmple(self.max)).all()
    }

    /// The surface area, the cost measure of the tree (it stays meaningful for flat
    /// boxes, unlike volume). Infinite for boxes beyond about ±1e19, whose area
    /// leaves f32's range: see [`surface_area_f64`](Self::surface_area_f64).
    #[inline]
    pub fn surface_area(&self) -> f32 {
        let d = self.max - self.min;
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    /// The surface area in f64, finite for every valid box (its sides are at most
    /// 2 f32::MAX, their products 2^258): what the tree's tracked cost sums.
    #[inline]
    pub fn surface_area_f64(&self) -> f64 {
        let d = self.max.as_dvec3() - self.min.as_dvec3();
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    /// The box grown by `margin` on every side.
    ///
    /// Fails if the margin is NaN, infinite or negative, or if the grown box would not be
    /// finite (boxes near `f32::MAX`).
    pub fn grown(&self, margin: f32) -> Result<Aabb, Error> {
        if margin.is_nan() {
            return Err(Error::NanCoordinate);
        }
        if margin.is_infinite() {
            return Err(Error::InfiniteCoordinate);
        }
        if margin < 0.0 {
            return Err(Error::NegativeValue);
        }
        Aabb::new(
            self.min - Vec3::splat(margin),
            self.max + Vec3::splat(margin),
        )
    }
}
