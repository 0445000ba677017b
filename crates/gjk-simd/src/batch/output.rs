//! The output vector's slots, written in place from the tasks that compute them.
//!
//! This is the driver's one `unsafe` seam: results land straight in their input
//! slot, from whichever thread ran the pair, without a second pass to reorder
//! them.

use std::mem::MaybeUninit;

use gjk_core::{Distance, Status};
use wide::f32x8;

use crate::query::gjk_x8::DistanceX8;

/// The output vector's slots, written once each, possibly from several threads.
pub(super) struct OutSlots<T> {
    ptr: *mut MaybeUninit<T>,
    len: usize,
}

// SAFETY: `OutSlots` hands out writes to disjoint slots only (see `write`); `T` is
// `Send`, so moving values into slots from other threads is sound.
unsafe impl<T: Send> Sync for OutSlots<T> {}

unsafe impl<T: Send> Send for OutSlots<T> {}

impl<T: Copy> OutSlots<T> {
    /// The first `n` slots of `results`' spare capacity (`results` empty, with
    /// room for at least `n`); the caller sets the length once every slot is
    /// written.
    pub(super) fn new(results: &mut Vec<T>, n: usize) -> Self {
        assert!(results.is_empty() && results.capacity() >= n);
        OutSlots {
            ptr: results.spare_capacity_mut().as_mut_ptr(),
            len: n,
        }
    }

    /// # Safety
    /// Slot `i` must not be written concurrently with any other access to it: the
    /// driver writes each slot once or twice, from one task at a time (an early
    /// answer from the task planning its block, then its kernel's from the task
    /// running its bucket's slice; with rayon a block's kernel tasks are forked
    /// after its planning has finished). `T: Copy` has no drop, so overwriting
    /// leaks nothing.
    #[inline(always)]
    pub(super) unsafe fn write(&self, i: usize, value: T) {
        assert!(i < self.len);
        // SAFETY: in bounds (checked above) and exclusive by the caller's contract.
        unsafe { (*self.ptr.add(i)).write(value) };
    }
}

// `write_distances` stores a `Distance` as twelve 32-bit words in this order.
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<Distance>() == 48);
    assert!(offset_of!(Distance, distance) == 0);
    assert!(offset_of!(Distance, point_a) == 4);
    assert!(offset_of!(Distance, point_b) == 16);
    assert!(offset_of!(Distance, normal) == 28);
    assert!(offset_of!(Distance, iterations) == 40);
    assert!(offset_of!(Distance, status) == 44);
    assert!(size_of::<Status>() == 1);
};

impl OutSlots<Distance> {
    /// Writes lane `k` of `r` to slot `batch[k]`, as two vector stores a lane:
    /// the results are transposed from lanes to the field order of `Distance`
    /// (`repr(C)`, twelve 32-bit words, checked above) instead of gathered field
    /// by field, which cost a fifth of a sphere pair's time.
    ///
    /// # Safety
    /// As for [`OutSlots::write`], for every slot of `batch`.
    #[inline(always)]
    pub(super) unsafe fn write_distances(&self, batch: &[u32], r: &DistanceX8) {
        let word = |bits: [u32; 8]| f32x8::new(bits.map(f32::from_bits));
        // `Status` is `repr(u8)`: its byte first, then three bytes of padding.
        let status = word(r.status.map(|s| u32::from_ne_bytes([s as u8, 0, 0, 0])));
        let (a, b, n) = (r.point_a, r.point_b, r.normal);
        let head = f32x8::transpose([r.distance, a.x, a.y, a.z, b.x, b.y, b.z, n.x]);
        let zero = f32x8::ZERO;
        let tail = f32x8::transpose([n.y, n.z, word(r.iterations), status, zero, zero, zero, zero]);
        for (k, &i) in batch.iter().enumerate() {
            assert!((i as usize) < self.len);
            let [t0, t1, t2, t3, ..] = tail[k].to_array();
            // SAFETY: in bounds (checked above) and exclusive by the caller's
            // contract. The slot's 48 bytes receive the twelve words of lane `k`
            // in the field order of `Distance` (asserted above): floats for the
            // distance and points, the iteration count's bits, and a status
            // byte that is a valid `Status` (its discriminant) followed by
            // padding. Unaligned stores: the slot is only 4-byte aligned.
            unsafe {
                let words = self.ptr.add(i as usize).cast::<f32>();
                words.cast::<[f32; 8]>().write_unaligned(head[k].to_array());
                words
                    .add(8)
                    .cast::<[f32; 4]>()
                    .write_unaligned([t0, t1, t2, t3]);
            }
        }
    }
}
