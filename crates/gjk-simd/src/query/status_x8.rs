//! Per-lane statuses: how each lane of a wide query ended, as
//! [`gjk_core::Status`] (the scalar type, one per lane).

use gjk_core::Status;

use crate::math::MaskX8;

/// Assembles per-lane statuses from the masks of the ways a lane can end.
#[inline(always)]
pub(crate) fn statuses(invalid: MaskX8, degenerate: MaskX8, capped: MaskX8) -> [Status; 8] {
    let (inv, deg, cap) = (invalid.bitmask(), degenerate.bitmask(), capped.bitmask());
    // Most batches end with every lane converged: one test instead of the
    // per-lane choice below, up to 24 bit tests and their branches.
    if inv | deg | cap == 0 {
        return [Status::Converged; 8];
    }
    std::array::from_fn(|i| {
        if inv >> i & 1 == 1 {
            Status::InvalidInput
        } else if deg >> i & 1 == 1 {
            Status::Degenerate
        } else if cap >> i & 1 == 1 {
            Status::IterationLimit
        } else {
            Status::Converged
        }
    })
}
