//! The pair cache: one entry per broadphase pair, kept from step to step in the
//! broadphase's pair order, with what the narrowphase learnt about the pair: the
//! last normal (the separating axis of a pair apart, which may prove it apart again
//! without GJK), the last distance bound, whether it touched and its contact's
//! feature ids, and its filter verdicts.

use broadphase::Pair;
use gjk_core::glam::Vec3;

/// [`PairEntry::contact`] of a pair without a manifold at the last step.
pub(super) const NO_CONTACT: u32 = u32::MAX;

/// The user's pair filter excluded the pair when it began.
pub(super) const EXCLUDED: u8 = 1;
/// The bodies' groups and masks exclude the pair.
pub(super) const MASKED: u8 = 2;
/// The pair touched at the last step.
pub(super) const TOUCHING: u8 = 4;
/// One of the bodies was removed; its contact's end is already reported.
pub(super) const REMOVED: u8 = 8;

/// What the world keeps of one broadphase pair between steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PairEntry {
    pub pair: Pair,
    /// The pair's last normal, A to B, in A's frame; zero before the first query.
    pub axis: Vec3,
    /// The last distance bound: a lower bound of the gap when apart (exact when
    /// GJK measured it), minus the deepest point's depth when in contact.
    pub gap: f32,
    /// The index of the pair's contact ids in the last step's store, or
    /// [`NO_CONTACT`].
    pub contact: u32,
    pub flags: u8,
}

impl PairEntry {
    fn new(pair: Pair, flags: u8) -> Self {
        Self {
            pair,
            axis: Vec3::ZERO,
            gap: f32::INFINITY,
            contact: NO_CONTACT,
            flags,
        }
    }

    #[inline]
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// The broadphase's total order on pairs.
fn key(p: &Pair) -> (u32, u32, u32, u32) {
    (p.a.index(), p.b.index(), p.a.generation(), p.b.generation())
}

/// The entries, sorted like the broadphase's pairs.
#[derive(Debug, Default)]
pub(super) struct PairCache {
    entries: Vec<PairEntry>,
    spare: Vec<PairEntry>,
}

impl PairCache {
    /// Brings the cache up to the broadphase's pair set: the `ended` pairs leave
    /// (each handed to `on_ended` first), the `began` pairs join with the flags
    /// `flags(pair)` gives. Both lists are sorted like the cache, so this is one
    /// merge pass.
    pub fn apply(
        &mut self,
        began: &[Pair],
        ended: &[Pair],
        mut flags: impl FnMut(&Pair) -> u8,
        mut on_ended: impl FnMut(&PairEntry),
    ) {
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        next.reserve(self.entries.len() + began.len());
        let (mut j, mut k) = (0, 0);
        for e in &self.entries {
            let ek = key(&e.pair);
            while k < ended.len() && key(&ended[k]) < ek {
                k += 1;
            }
            if k < ended.len() && ended[k] == e.pair {
                on_ended(e);
                k += 1;
                continue;
            }
            while j < began.len() && key(&began[j]) < ek {
                next.push(PairEntry::new(began[j], flags(&began[j])));
                j += 1;
            }
            next.push(*e);
        }
        for p in &began[j..] {
            next.push(PairEntry::new(*p, flags(p)));
        }
        self.spare = std::mem::replace(&mut self.entries, next);
    }

    /// The entry of `pair`, if cached.
    pub fn find_mut(&mut self, pair: &Pair) -> Option<&mut PairEntry> {
        let k = key(pair);
        let i = self
            .entries
            .binary_search_by(|e| key(&e.pair).cmp(&k))
            .ok()?;
        Some(&mut self.entries[i])
    }

    pub fn entries(&self) -> &[PairEntry] {
        &self.entries
    }

    pub fn entries_mut(&mut self) -> &mut [PairEntry] {
        &mut self.entries
    }

    /// Bytes held (both buffers' capacities).
    pub fn heap_bytes(&self) -> usize {
        (self.entries.capacity() + self.spare.capacity()) * std::mem::size_of::<PairEntry>()
    }
}
