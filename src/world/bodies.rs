//! The world's body table: one record per broadphase slot, so that a candidate
//! pair's bodies are two array reads by the pair's slot indices, with no handle
//! check (the broadphase's pairs name live proxies only).

use gjk_core::{Aabb, Shape, Sphere, SupportMap};

use super::Body;

/// A body and what the narrowphase's bound tests read of it every step.
#[derive(Debug, Clone)]
pub(super) struct BodyRecord {
    pub body: Body,
    /// The shape's exact world bounds at its pose.
    pub bounds: Aabb,
    /// The shape's bounding radius about its origin.
    pub radius: f32,
}

impl BodyRecord {
    pub fn new(body: Body, bounds: Aabb) -> Self {
        let radius = body.shape.bounding_radius();
        Self {
            body,
            bounds,
            radius,
        }
    }

    /// What a free slot holds: a shape without heap data, never read.
    fn vacant() -> Self {
        let shape = Shape::Sphere(Sphere::new(1.0).expect("a unit ball is valid"));
        Self::new(
            Body::new(shape, gjk_core::Pose::IDENTITY),
            Aabb {
                min: gjk_core::glam::Vec3::ZERO,
                max: gjk_core::glam::Vec3::ZERO,
            },
        )
    }
}

/// Records indexed by broadphase slot; its length is the broadphase's slot count
/// (free slots hold a vacant record until the broadphase hands them out again).
#[derive(Debug, Default)]
pub(super) struct BodyTable {
    records: Vec<BodyRecord>,
}

impl BodyTable {
    /// Puts a body in slot `slot`, which is either a free slot or the next new one.
    pub fn put(&mut self, slot: usize, record: BodyRecord) {
        if slot == self.records.len() {
            self.records.push(record);
        } else {
            self.records[slot] = record;
        }
    }

    /// Takes the body out of slot `slot`, leaving it vacant.
    pub fn take(&mut self, slot: usize) -> Body {
        std::mem::replace(&mut self.records[slot], BodyRecord::vacant()).body
    }

    /// The record of slot `slot`.
    #[inline]
    pub fn get(&self, slot: u32) -> &BodyRecord {
        &self.records[slot as usize]
    }

    /// The record of slot `slot`, mutably.
    #[inline]
    pub fn get_mut(&mut self, slot: u32) -> &mut BodyRecord {
        &mut self.records[slot as usize]
    }

    /// All records, for the broadphase's pass over its slots.
    pub fn records_mut(&mut self) -> &mut [BodyRecord] {
        &mut self.records
    }

    /// Reserves room for `more` records.
    pub fn reserve(&mut self, more: usize) {
        self.records.reserve(more);
    }
}
