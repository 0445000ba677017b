//! Prefetch hints, shared by the tree's walks and the broadphase's move pass. This
//! module holds the crate's one `unsafe` block.

/// Asks the CPU to start loading the cache line of `value`, without waiting for it
/// and without any other effect (a no-op off x86-64). Used where a loop knows which
/// scattered record it will read a few steps later: a plain load there would stall
/// the loop (or, hoisted, fill the reorder buffer), while a prefetch lets many misses
/// proceed while the loop keeps working.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_address((value as *const T).cast());
}

/// [`prefetch`] of the cache line holding any address (it need not be valid).
#[inline(always)]
fn prefetch_address(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 CPU has; a prefetch is a
    // hint with no architectural effect: it cannot fault, even on a bad address.
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(address.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// [`prefetch`] for every cache line `value` covers: a value whose size does not
/// divide 64 bytes (say 28) straddles two lines at some indices of an array, and
/// prefetching its first line alone leaves a miss on the second.
#[inline(always)]
pub(crate) fn prefetch_all<T>(value: &T) {
    let start = (value as *const T).cast::<u8>();
    let size = std::mem::size_of::<T>();
    // One address in each line from the first byte's to the last byte's.
    let mut offset = 0;
    while offset < size {
        prefetch_address(start.wrapping_add(offset));
        offset += 64;
    }
    if size > 0 {
        prefetch_address(start.wrapping_add(size - 1));
    }
}
