//! The pair set's storage: every slot's sorted partner list, each a span of one shared
//! pool of slot indices.
//!
//! One heap list per slot made loading a scene pay an allocation per proxy (and a free
//! per proxy when the broadphase is dropped); here the from-scratch path lays every
//! list out in one array (counts, offsets, fill) and hands that array over as the
//! pool. Incremental edits work in place while a list fits its span; a list that
//! outgrows it moves to the end of the pool with twice its room. A slot's room never
//! shrinks (as a `Vec`'s capacity), so the spans left behind by its moves add up to
//! less than its current room: the pool stays under twice the lists' room, and is
//! only laid out afresh by the next from-scratch update.

/// Where a slot's list lies in the pool: `pool[start..start + len]`, with room up to
/// `start + cap` that no other list uses.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: usize,
    len: u32,
    cap: u32,
}

/// The partner lists of every slot (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(super) struct PartnerLists {
    spans: Vec<Span>,
    pool: Vec<u32>,
}

impl PartnerLists {
    /// Adds a slot with an empty list.
    pub(super) fn push_empty(&mut self) {
        self.spans.push(Span::default());
    }

    /// Makes room for `additional` more slots.
    pub(super) fn reserve(&mut self, additional: usize) {
        self.spans.reserve(additional);
    }

    /// The list of slot `s`, sorted.
    #[inline]
    pub(super) fn get(&self, s: usize) -> &[u32] {
        let span = self.spans[s];
        &self.pool[span.start..span.start + span.len as usize]
    }

    /// Every slot's list, in slot order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.spans
            .iter()
            .map(|span| &self.pool[span.start..span.start + span.len as usize])
    }

    /// Replaces the list of slot `s` by `list` (sorted).
    pub(super) fn set(&mut self, s: usize, list: &[u32]) {
        if list.len() > self.spans[s].cap as usize {
            self.relocate(s, list.len());
        }
        let span = &mut self.spans[s];
        span.len = list.len() as u32;
        self.pool[span.start..span.start + list.len()].copy_from_slice(list);
    }

    /// Empties the list of slot `s` (its span stays for the slot's next tenant).
    pub(super) fn clear(&mut self, s: usize) {
        self.spans[s].len = 0;
    }

    /// Adds `q` to the list of slot `s`, unless it is there already.
    pub(super) fn insert(&mut self, s: usize, q: u32) {
        let Err(at) = self.get(s).binary_search(&q) else {
            return;
        };
        let len = self.spans[s].len as usize;
        if len == self.spans[s].cap as usize {
            self.relocate(s, len + 1);
        }
        let span = &mut self.spans[s];
        span.len += 1;
        let list = &mut self.pool[span.start..span.start + len + 1];
        list.copy_within(at..len, at + 1);
        list[at] = q;
    }

    /// Removes `q` from the list of slot `s`, if it is there.
    pub(super) fn remove(&mut self, s: usize, q: u32) {
        let Ok(at) = self.get(s).binary_search(&q) else {
            return;
        };
        let span = &mut self.spans[s];
        let len = span.len as usize;
        span.len -= 1;
        self.pool[span.start..span.start + len].copy_within(at + 1.., at);
    }

    /// Replaces every list: slot `s`'s list becomes `pool[start[s]..start[s + 1]]`
    /// (each sorted), for the `start.len() - 1` slots.
    pub(super) fn replace_all(&mut self, start: &[u32], pool: Vec<u32>) {
        debug_assert_eq!(start.len(), self.spans.len() + 1);
        for (span, w) in self.spans.iter_mut().zip(start.windows(2)) {
            let len = w[1] - w[0];
            *span = Span {
                start: w[0] as usize,
                len,
                cap: len,
            };
        }
        self.pool = pool;
    }

    /// Moves the list of slot `s` to the end of the pool with room for at least
    /// `need` entries and twice its old room (so that a list growing one entry at a
    /// time moves a logarithmic number of times, and the spans it leaves behind add
    /// up to less than its room).
    #[cold]
    fn relocate(&mut self, s: usize, need: usize) {
        let span = self.spans[s];
        let cap = need.max(2 * span.cap as usize).max(4);
        let start = self.pool.len();
        self.pool
            .extend_from_within(span.start..span.start + span.len as usize);
        self.pool.resize(start + cap, 0);
        self.spans[s] = Span {
            start,
            len: span.len,
            cap: cap as u32,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random inserts, removals, replacements, clears and wholesale replacements
    /// against one `Vec` per slot, enough of them to move lists many times; the lists
    /// must agree after every step, and the pool must stay under twice the lists'
    /// room.
    #[test]
    fn edits_match_one_vec_per_slot() {
        for seed in 0..4u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let slots = [1, 7, 64, 300][seed as usize];
            let mut lists = PartnerLists::default();
            let mut reference: Vec<Vec<u32>> = vec![Vec::new(); slots];
            for _ in 0..slots {
                lists.push_empty();
            }
            let mut moved = 0;
            for step in 0..20_000 {
                let s = rng.random_range(0..slots);
                let q = rng.random_range(0..2 * slots as u32 + 3);
                let pool_before = lists.pool.len();
                let op = rng.random_range(0..100);
                match op {
                    0..45 => {
                        lists.insert(s, q);
                        if let Err(at) = reference[s].binary_search(&q) {
                            reference[s].insert(at, q);
                        }
                    }
                    45..80 => {
                        lists.remove(s, q);
                        if let Ok(at) = reference[s].binary_search(&q) {
                            reference[s].remove(at);
                        }
                    }
                    80..95 => {
                        let mut new: Vec<u32> = (0..rng.random_range(0..12))
                            .map(|_| rng.random_range(0..2 * slots as u32 + 3))
                            .collect();
                        new.sort_unstable();
                        new.dedup();
                        lists.set(s, &new);
                        reference[s] = new;
                    }
                    95..99 => {
                        lists.clear(s);
                        reference[s].clear();
                    }
                    _ => {
                        let mut start = vec![0u32];
                        let mut pool = Vec::new();
                        for list in &mut reference {
                            list.truncate(rng.random_range(0..=list.len()));
                            pool.extend_from_slice(list);
                            start.push(pool.len() as u32);
                        }
                        lists.replace_all(&start, pool);
                    }
                }
                // Only inserts and replacements move lists.
                if op < 95 {
                    moved += usize::from(lists.pool.len() > pool_before);
                }
                let what = format!("seed {seed}, step {step}, slot {s}, value {q}");
                assert!(lists.iter().eq(reference.iter().map(|l| &l[..])), "{what}");
                let room: usize = lists.spans.iter().map(|span| span.cap as usize).sum();
                assert!(
                    lists.pool.len() <= 2 * room,
                    "{what}: pool {} for room {room}",
                    lists.pool.len()
                );
            }
            assert!(moved > 100, "seed {seed}: only {moved} moves");
        }
    }
}
