//! The proxy store: slots with generations (reused LIFO through a free list), each
//! with its record, user data and partner list; insertion (one by one, or handed to the
//! tree builder in bulk) and removal.

use super::{Broadphase, Hot, Pair, ProxyId};
use crate::{Aabb, Error, LeafId};

impl<T> Broadphase<T> {
    pub(super) fn slot(&self, id: ProxyId) -> Result<usize, Error> {
        let s = id.index() as usize;
        if s < self.hot.len() && self.hot[s].generation == id.generation() && self.hot[s].live {
            Ok(s)
        } else {
            Err(Error::StaleHandle)
        }
    }

    pub(super) fn id(&self, s: u32) -> ProxyId {
        ProxyId::new(s, self.hot[s as usize].generation)
    }

    pub(super) fn pair(&self, p: u32, q: u32) -> Pair {
        let (a, b) = if p < q { (p, q) } else { (q, p) };
        Pair {
            a: self.id(a),
            b: self.id(b),
        }
    }

    /// Whether the handle names a live proxy.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.slot(id).is_ok()
    }

    /// The user data of a proxy.
    pub fn data(&self, id: ProxyId) -> Result<&T, Error> {
        let s = self.slot(id)?;
        Ok(self.data[s].as_ref().expect("live slot has data"))
    }

    /// The user data of a proxy, mutably.
    pub fn data_mut(&mut self, id: ProxyId) -> Result<&mut T, Error> {
        let s = self.slot(id)?;
        Ok(self.data[s].as_mut().expect("live slot has data"))
    }

    /// The tight box last given for a proxy.
    pub fn aabb(&self, id: ProxyId) -> Result<Aabb, Error> {
        Ok(self.hot[self.slot(id)?].tight)
    }

    /// The fat box of a proxy (the one stored in the tree and used for pairs).
    pub fn fat_aabb(&self, id: ProxyId) -> Result<Aabb, Error> {
        Ok(self.hot[self.slot(id)?].fat)
    }

    fn alloc_slot(&mut self, tight: Aabb, fat: Aabb, data: T) -> Result<u32, Error> {
        let s = match self.free.pop() {
            Some(s) => s,
            None => {
                let s = self.hot.len();
                if s >= (u32::MAX - 1) as usize {
                    return Err(Error::CapacityExceeded);
                }
                self.hot.push(Hot {
                    tight,
                    fat,
                    leaf: LeafId::default(),
                    generation: 0,
                    live: false,
                    moved: false,
                });
                self.data.push(None);
                self.partners.push_empty();
                s as u32
            }
        };
        let i = s as usize;
        self.data[i] = Some(data);
        self.hot[i].live = true;
        self.hot[i].tight = tight;
        self.hot[i].fat = fat;
        self.len += 1;
        self.mark_moved(s);
        Ok(s)
    }

    pub(super) fn mark_moved(&mut self, s: u32) {
        if !self.hot[s as usize].moved {
            self.hot[s as usize].moved = true;
            self.move_buffer.push(s);
        }
    }

    /// Adds a proxy. Its pairs appear at the next [`update`](Self::update).
    pub fn insert(&mut self, aabb: Aabb, data: T) -> Result<ProxyId, Error> {
        let fat = self.config.fat_box(&aabb)?;
        let s = self.alloc_slot(aabb, fat, data)?;
        self.hot[s as usize].leaf = self.tree.insert(fat, s);
        Ok(self.id(s))
    }

    /// Adds many proxies at once: boxes are validated first (on error nothing is
    /// inserted), then, if the batch is large compared with the tree, the whole tree is
    /// rebuilt with the binned SAH builder instead of inserting leaf by leaf.
    pub fn insert_many(
        &mut self,
        items: impl IntoIterator<Item = (Aabb, T)>,
    ) -> Result<Vec<ProxyId>, Error> {
        let items: Vec<(Aabb, T)> = items.into_iter().collect();
        let mut fats = Vec::with_capacity(items.len());
        for (aabb, _) in &items {
            fats.push(self.config.fat_box(aabb)?);
        }
        if self.hot.len() - self.free.len() + items.len() >= (u32::MAX - 1) as usize {
            return Err(Error::CapacityExceeded);
        }
        let bulk = items.len() >= 64 && items.len() * 4 >= self.tree.len();
        if !bulk {
            let mut ids = Vec::with_capacity(items.len());
            for ((aabb, data), fat) in items.into_iter().zip(fats) {
                let s = self.alloc_slot(aabb, fat, data)?;
                self.hot[s as usize].leaf = self.tree.insert(fat, s);
                ids.push(self.id(s));
            }
            return Ok(ids);
        }
        // Bulk: slots from `alloc_slot` as above (free list first, LIFO), the records
        // grown once, and the new leaves handed straight to the tree builder.
        let fresh = items.len().saturating_sub(self.free.len());
        self.hot.reserve(fresh);
        self.data.reserve(fresh);
        self.partners.reserve(fresh);
        self.move_buffer.reserve(items.len());
        let mut slots = Vec::with_capacity(items.len());
        for ((aabb, data), fat) in items.into_iter().zip(fats) {
            // Cannot fail: the capacity was checked above.
            let s = self.alloc_slot(aabb, fat, data)?;
            slots.push((fat, s));
        }
        let leaves = self.tree.insert_bulk(&slots);
        let mut ids = Vec::with_capacity(slots.len());
        for (&(_, s), leaf) in slots.iter().zip(leaves) {
            self.hot[s as usize].leaf = leaf;
            ids.push(self.id(s));
        }
        Ok(ids)
    }

    /// Removes a proxy and returns its data. Its pairs are reported as ended by the next
    /// [`update`](Self::update), under this (now stale) handle.
    pub fn remove(&mut self, id: ProxyId) -> Result<T, Error> {
        let s = self.slot(id)?;
        self.tree.remove(self.hot[s].leaf)?;
        // Editing a partner's list leaves this slot's list where it is.
        let count = self.partners.get(s).len();
        for k in 0..count {
            let q = self.partners.get(s)[k];
            self.partners.remove(q as usize, s as u32);
            let pair = self.pair(s as u32, q);
            self.removed_pairs.push(pair);
        }
        self.pair_count -= count;
        self.partners.clear(s);
        let data = self.data[s].take().expect("live slot has data");
        self.hot[s].generation = self.hot[s].generation.wrapping_add(1);
        self.hot[s].moved = false;
        self.hot[s].live = false;
        self.free.push(s as u32);
        self.len -= 1;
        Ok(data)
    }
}
