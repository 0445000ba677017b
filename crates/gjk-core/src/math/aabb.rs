//! Axis-aligned bounding boxes of shapes (the broadphase crate has its own, richer
//! `Aabb`; this one only reports bounds).

use glam::Vec3;

/// An axis-aligned box `[min, max]`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec3,
    /// Upper corner.
    pub max: Vec3,
}

impl Aabb {
    /// The box centred at `center` with half extents `half` (non-negative).
    #[inline]
    pub fn from_center_half_extents(center: Vec3, half: Vec3) -> Self {
        Aabb {
            min: center - half,
            max: center + half,
        }
    }

    /// The box grown by `by` on every side: the bounds of the shape dilated by a
    /// ball of radius `by` (its Minkowski sum moves each face out by exactly that).
    #[inline]
    pub fn grown(&self, by: f32) -> Self {
        Aabb {
            min: self.min - Vec3::splat(by),
            max: self.max + Vec3::splat(by),
        }
    }

    /// Whether the two boxes overlap (touching counts).
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }

    /// Whether `p` lies inside or on the box.
    #[inline]
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.min.cmple(p).all() && p.cmple(self.max).all()
    }

    /// Half the diagonal.
    #[inline]
    pub fn half_extents(&self) -> Vec3 {
        (self.max - self.min) * 0.5
    }
}
