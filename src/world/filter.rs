//! Which pairs reach the narrowphase: a group and mask per body, checked on every
//! candidate pair, and the user's function on pair begin.

use super::Body;

/// A body's collision groups and the groups it collides with (as Box2D's category
/// and mask bits). Two bodies are tested only when each one's `group` meets the
/// other's `mask`: `(a.group & b.mask) != 0 && (b.group & a.mask) != 0`.
///
/// ```
/// use widephase::CollisionFilter;
/// let debris = CollisionFilter { group: 0b10, mask: 0b01 };
/// let ground = CollisionFilter { group: 0b01, mask: u32::MAX };
/// assert!(debris.collides_with(&ground));
/// assert!(!debris.collides_with(&debris));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CollisionFilter {
    /// The groups the body belongs to.
    pub group: u32,
    /// The groups the body collides with.
    pub mask: u32,
}

impl Default for CollisionFilter {
    /// Group 1, colliding with every group.
    fn default() -> Self {
        Self {
            group: 1,
            mask: u32::MAX,
        }
    }
}

impl CollisionFilter {
    /// Whether two bodies with these filters are tested against each other.
    #[inline]
    pub fn collides_with(&self, other: &CollisionFilter) -> bool {
        (self.group & other.mask) != 0 && (other.group & self.mask) != 0
    }
}

/// The user's say on a pair, asked once when the pair begins (its fat boxes start
/// to overlap) with both bodies; `false` keeps the pair out of the narrowphase
/// until it ends. Set with [`World::set_pair_filter`](super::World::set_pair_filter).
pub type PairFilter = dyn Fn(&Body, &Body) -> bool + Send + Sync;
