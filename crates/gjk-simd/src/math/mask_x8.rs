//! Per-lane booleans.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

use wide::f32x8;

/// Eight booleans, one per lane, stored as all-ones or all-zeros `f32x8` lanes so
/// that they select between wide values without conversion.
///
/// A newtype rather than a bare `f32x8` so that a mask cannot be mixed up with a
/// value, and so that every mask in the kernels carries a predicate name
/// (`terminated`, `intersected`, ...).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaskX8(f32x8);

/// Lane-wise selection between two wide values (`if mask { a } else { b }` per lane).
pub trait SelectX8: Sized {
    /// Per lane: `if_true` where `mask` is set, `if_false` elsewhere.
    fn select_x8(mask: MaskX8, if_true: Self, if_false: Self) -> Self;
}

impl SelectX8 for f32x8 {
    #[inline(always)]
    fn select_x8(mask: MaskX8, if_true: Self, if_false: Self) -> Self {
        select_bits(mask.0, if_true, if_false)
    }
}

impl SelectX8 for MaskX8 {
    #[inline(always)]
    fn select_x8(mask: MaskX8, if_true: Self, if_false: Self) -> Self {
        MaskX8(select_bits(mask.0, if_true.0, if_false.0))
    }
}

/// `if_true` where the lanes of `mask` are all ones, `if_false` where they are
/// all zeros (a [`MaskX8`] holds nothing else).
///
/// With AVX-512 the bitwise form `(mask & t) | (!mask & f)` is one `vpternlogd`,
/// while a `blendv` is lowered to a move of the vector mask into a mask register
/// (`vpmovd2m`) and a masked move: two instructions a select, the most common
/// operation of the kernels (the hull scan takes six instructions a row instead
/// of seven). Without AVX-512, `blendv` is one instruction and the bitwise form
/// three.
#[inline(always)]
fn select_bits(mask: f32x8, if_true: f32x8, if_false: f32x8) -> f32x8 {
    #[cfg(target_feature = "avx512vl")]
    {
        mask.bitselect(if_true, if_false)
    }
    #[cfg(not(target_feature = "avx512vl"))]
    {
        mask.select(if_true, if_false)
    }
}

impl MaskX8 {
    /// No lane set.
    pub const NONE: MaskX8 = MaskX8(f32x8::ZERO);
    /// Every lane set.
    pub const ALL: MaskX8 = MaskX8(f32x8::new([f32::from_bits(u32::MAX); 8]));

    /// The mask with lane `i` set iff `lanes[i]`.
    pub fn from_bools(lanes: [bool; 8]) -> Self {
        Self::from_bitmask(
            lanes
                .iter()
                .enumerate()
                .fold(0u8, |m, (i, &b)| m | (u8::from(b) << i)),
        )
    }

    /// The mask with lane `i` set iff bit `i` of `bits` is set.
    ///
    /// In registers: lane `i` tests whether `floor(bits / 2^i)` is odd, exact in
    /// f32 for eight bits (an array of lanes read back as a vector would wait on
    /// eight separate stores). A constant `bits` folds to a constant mask.
    #[inline(always)]
    pub fn from_bitmask(bits: u8) -> Self {
        let weight = f32x8::new([1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125]);
        let shifted = (f32x8::splat(f32::from(bits)) * weight).floor();
        let half = shifted * f32x8::splat(0.5);
        MaskX8(half.floor().simd_ne(half))
    }

    /// The first `n` lanes set (`n` is clamped to 8).
    #[inline(always)]
    pub fn first(n: usize) -> Self {
        let lane = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        MaskX8(lane.simd_lt(f32x8::splat(n.min(8) as f32)))
    }

    /// Bit `i` set iff lane `i` is set.
    #[inline(always)]
    pub fn bitmask(self) -> u8 {
        self.0.to_bitmask() as u8
    }

    /// Whether lane `i` is set.
    #[inline]
    pub fn lane(self, i: usize) -> bool {
        self.bitmask() >> i & 1 == 1
    }

    /// The lanes as booleans.
    pub fn to_bools(self) -> [bool; 8] {
        let bits = self.bitmask();
        std::array::from_fn(|i| bits >> i & 1 == 1)
    }

    /// Whether any lane is set.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.bitmask() != 0
    }

    /// Whether every lane is set.
    #[inline(always)]
    pub fn all(self) -> bool {
        self.bitmask() == 0xFF
    }

    /// Whether no lane is set.
    #[inline(always)]
    pub fn none(self) -> bool {
        self.bitmask() == 0
    }

    /// `self && !other` per lane.
    #[inline(always)]
    pub fn and_not(self, other: MaskX8) -> MaskX8 {
        self & !other
    }

    /// Per lane: `if_true` where set, `if_false` elsewhere.
    #[inline(always)]
    pub fn select<T: SelectX8>(self, if_true: T, if_false: T) -> T {
        T::select_x8(self, if_true, if_false)
    }
}

impl BitAnd for MaskX8 {
    type Output = MaskX8;
    #[inline(always)]
    fn bitand(self, rhs: MaskX8) -> MaskX8 {
        MaskX8(self.0 & rhs.0)
    }
}

impl BitOr for MaskX8 {
    type Output = MaskX8;
    #[inline(always)]
    fn bitor(self, rhs: MaskX8) -> MaskX8 {
        MaskX8(self.0 | rhs.0)
    }
}

impl BitXor for MaskX8 {
    type Output = MaskX8;
    /// Lanes where exactly one of the two is set.
    #[inline(always)]
    fn bitxor(self, rhs: MaskX8) -> MaskX8 {
        MaskX8(self.0 ^ rhs.0)
    }
}

impl BitAndAssign for MaskX8 {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: MaskX8) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for MaskX8 {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: MaskX8) {
        *self = *self | rhs;
    }
}

impl Not for MaskX8 {
    type Output = MaskX8;
    #[inline(always)]
    fn not(self) -> MaskX8 {
        MaskX8(self.0 ^ MaskX8::ALL.0)
    }
}

/// Lane-wise comparisons of `f32x8` values that return named masks. NaN compares
/// false everywhere (ordered comparisons), so a NaN lane never satisfies a test.
pub trait CmpX8 {
    /// `self < rhs` per lane.
    fn lt(self, rhs: Self) -> MaskX8;
    /// `self <= rhs` per lane.
    fn le(self, rhs: Self) -> MaskX8;
    /// `self > rhs` per lane.
    fn gt(self, rhs: Self) -> MaskX8;
    /// `self >= rhs` per lane.
    fn ge(self, rhs: Self) -> MaskX8;
    /// `self == rhs` per lane.
    fn same(self, rhs: Self) -> MaskX8;
    /// Finite (not NaN, not infinite) per lane.
    fn finite(self) -> MaskX8;
}

impl CmpX8 for f32x8 {
    #[inline(always)]
    fn lt(self, rhs: Self) -> MaskX8 {
        MaskX8(self.simd_lt(rhs))
    }
    #[inline(always)]
    fn le(self, rhs: Self) -> MaskX8 {
        MaskX8(self.simd_le(rhs))
    }
    #[inline(always)]
    fn gt(self, rhs: Self) -> MaskX8 {
        MaskX8(self.simd_gt(rhs))
    }
    #[inline(always)]
    fn ge(self, rhs: Self) -> MaskX8 {
        MaskX8(self.simd_ge(rhs))
    }
    #[inline(always)]
    fn same(self, rhs: Self) -> MaskX8 {
        MaskX8(self.simd_eq(rhs))
    }
    #[inline(always)]
    fn finite(self) -> MaskX8 {
        MaskX8(self.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_roundtrip() {
        for bits in 0..=u8::MAX {
            assert_eq!(MaskX8::from_bitmask(bits).bitmask(), bits);
        }
        assert_eq!(MaskX8::first(3).bitmask(), 0b111);
        assert_eq!(MaskX8::first(9).bitmask(), 0xFF);
        assert_eq!((!MaskX8::first(3)).bitmask(), 0xF8);
        assert!(MaskX8::ALL.all() && MaskX8::NONE.none());
        let m = MaskX8::from_bools([true, false, true, false, false, false, false, true]);
        assert_eq!(m.bitmask(), 0b1000_0101);
        assert!(m.to_bools()[2]);
    }

    #[test]
    fn select_and_compare() {
        let a = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, f32::NAN]);
        let m = a.gt(f32x8::splat(2.5));
        assert_eq!(m.bitmask(), 0b0111_1000, "NaN compares false");
        let s = m.select(a, f32x8::splat(-1.0)).to_array();
        assert_eq!(s[..7], [-1.0, -1.0, -1.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(a.finite().bitmask(), 0x7F);
    }

    /// Every mask, however made, selects bit for bit what a per-lane `if` does,
    /// NaN payloads, signed zeros and infinities included: the bitwise select of
    /// AVX-512 builds and the `blendv` of AVX2 builds must agree, which holds only
    /// because a mask's lanes are all ones or all zeros.
    #[test]
    fn select_is_exact_for_every_mask() {
        let t = f32x8::new([
            f32::from_bits(0x7fc0_1234),
            -0.0,
            f32::INFINITY,
            1.5,
            -2.25,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::from_bits(1),
        ]);
        let f = f32x8::new([
            0.0,
            f32::NEG_INFINITY,
            -7.0,
            f32::NAN,
            3.0,
            -0.0,
            1e-30,
            -1e30,
        ]);
        let lanes = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        for bits in 0..=u8::MAX {
            let made = [
                MaskX8::from_bitmask(bits),
                MaskX8::from_bools(std::array::from_fn(|i| bits >> i & 1 == 1)),
                // The same lanes by a comparison and by mask logic.
                MaskX8::from_bitmask(bits) & lanes.ge(f32x8::ZERO),
                !MaskX8::from_bitmask(!bits) | MaskX8::NONE,
            ];
            for m in made {
                let got = m.select(t, f);
                let inner = m.select(m, !m);
                for i in 0..8 {
                    let want = if bits >> i & 1 == 1 { t } else { f };
                    assert_eq!(
                        got.to_array()[i].to_bits(),
                        want.to_array()[i].to_bits(),
                        "bits {bits:#010b} lane {i}"
                    );
                }
                assert_eq!(inner.bitmask(), 0xFF, "bits {bits:#010b}");
            }
        }
    }
}
