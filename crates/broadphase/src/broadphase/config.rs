//! The tuning of a broadphase: fat margins, the rebuild threshold, when to go
//! parallel.

use crate::{Aabb, Error};

/// Tuning of a [`Broadphase`](crate::Broadphase).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadphaseConfig {
    /// Fat margin per side, as a fraction of the tight box's longest side.
    pub margin_fraction: f32,
    /// Lower clamp of the margin (useful for point-like boxes).
    pub min_margin: f32,
    /// Upper clamp of the margin (keeps huge boxes from getting huger).
    pub max_margin: f32,
    /// [`update`](crate::Broadphase::update) rebuilds the tree (binned SAH) when its area cost
    /// exceeds this multiple of the cost right after the last rebuild.
    pub rebuild_degradation: f64,
    /// Below this many moved proxies, `update` queries on the calling thread only.
    pub parallel_min_moved: usize,
}

impl Default for BroadphaseConfig {
    fn default() -> Self {
        Self {
            margin_fraction: 0.2,
            min_margin: 0.0,
            max_margin: f32::INFINITY,
            rebuild_degradation: 1.4,
            parallel_min_moved: 128,
        }
    }
}

impl BroadphaseConfig {
    /// The fat margin for a tight box.
    #[inline]
    pub fn margin(&self, tight: &Aabb) -> f32 {
        // `max` then `min` rather than `clamp`, which checks its bounds on every call
        // (`check` already rejected `max_margin < min_margin`).
        (self.margin_fraction * tight.size().max_element())
            .max(self.min_margin)
            .min(self.max_margin)
    }

    /// The fat box of a tight box: grown by [`margin`](Self::margin) on every side.
    /// An error if it is not finite (a box within a margin of `f32::MAX`): such a box
    /// is refused by every move that would give it a fat box.
    #[inline]
    pub fn fat_box(&self, tight: &Aabb) -> Result<Aabb, Error> {
        tight.grown(self.margin(tight))
    }

    /// Refuses a NaN, infinite or negative `margin_fraction` or `min_margin`, a NaN
    /// `max_margin` (it may be infinite) and `max_margin < min_margin`.
    pub(super) fn check(&self) -> Result<(), Error> {
        for v in [self.margin_fraction, self.min_margin] {
            if v.is_nan() {
                return Err(Error::NanCoordinate);
            }
            if v.is_infinite() {
                return Err(Error::InfiniteCoordinate);
            }
            if v < 0.0 {
                return Err(Error::NegativeValue);
            }
        }
        if self.max_margin.is_nan() {
            return Err(Error::NanCoordinate);
        }
        if self.max_margin < self.min_margin {
            return Err(Error::NegativeValue);
        }
        Ok(())
    }
}
