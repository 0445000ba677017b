//! How deep the manifolds of the `manifold_x8` bench say the standard pairs
//! overlap, against gjk-core's contact depth (EPA to a relative gap of 1e-5, the
//! answer the `widephase diff` campaigns certify): the deepest point of gjk-simd's
//! `manifold_batch`, and of parry3d's `contact_manifolds` called twice on each
//! pair with its workspace kept (as the bench's repeated calls keep it).
//!
//! Errors are relative to the pair's size (the sum of the bounding radii), the
//! scale of the manifold's own tolerance: a manifold may report its deepest point
//! up to twice `MANIFOLD_RELATIVE_TOLERANCE` of the size shallower than the
//! contact (the contact's own point joins the clipped ones only when they fall
//! short of it by more than that tolerance, and the reduction takes depths within
//! it as equal, preferring the smaller feature id so that the choice holds from
//! step to step). Prints per kind, for each library, the largest error and how
//! many pairs are off by more than that bound, and by more than 1e-3 of the size
//! (deeper or shallower than the contact).
//!
//! `cargo run --release -p gjk-simd --example manifold_accuracy`

use gjk_core::tolerance::MANIFOLD_RELATIVE_TOLERANCE;
use gjk_core::{SupportMap, contact};
use gjk_simd::{Parallelism, manifold_batch};
use parry3d::query::{
    ContactManifold, ContactManifoldsWorkspace, DefaultQueryDispatcher, PersistentQueryDispatcher,
};
use workloads::PairKind;
use workloads::parry::PairColumns;

/// Signed errors (deepest point less the contact's depth, over the size) of one
/// library on one kind.
#[derive(Default)]
struct Errors(Vec<f32>);

impl Errors {
    fn summary(&self) -> String {
        let bound = 2.0 * MANIFOLD_RELATIVE_TOLERANCE;
        let max = self.0.iter().fold(0.0f32, |m, e| m.max(e.abs()));
        let over = |t: f32| self.0.iter().filter(|e| e.abs() > t).count();
        let deeper = self.0.iter().filter(|&&e| e > 1e-3).count();
        format!(
            "max {max:.1e}, over {bound:.0e}: {}, over 1e-3: {} ({deeper} deeper)",
            over(bound),
            over(1e-3)
        )
    }
}

fn main() {
    for kind in PairKind::ALL {
        let w = PairColumns::standard(kind, 16_384, 42);
        let ours = manifold_batch(
            &w.a,
            &w.poses_a,
            &w.b,
            &w.poses_b,
            0.0,
            Parallelism::Sequential,
        )
        .expect("the standard pairs are valid");
        let (mut wide, mut parry, mut overlapping) = (Errors::default(), Errors::default(), 0);
        for (i, (a, pa, b, pb)) in w.parry.iter().enumerate() {
            let reference = contact(&w.a[i], &w.poses_a[i], &w.b[i], &w.poses_b[i], 0.0);
            let Some(c) = reference.filter(|c| c.depth > 0.0) else {
                continue;
            };
            overlapping += 1;
            let size = w.a[i].bounding_radius() + w.b[i].bounding_radius();
            let ours = ours[i]
                .as_ref()
                .map_or(f32::NEG_INFINITY, |m| m.max_depth());
            wide.0.push((ours - c.depth) / size);

            let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
            let mut workspace: Option<ContactManifoldsWorkspace> = None;
            let pos12 = pa.inv_mul(pb);
            for _ in 0..2 {
                DefaultQueryDispatcher
                    .contact_manifolds(&pos12, &**a, &**b, 0.0, &mut manifolds, &mut workspace)
                    .expect("parry3d handles every standard kind");
            }
            let theirs = manifolds
                .iter()
                .flat_map(|m| m.points.iter())
                .map(|p| -p.dist)
                .fold(f32::NEG_INFINITY, f32::max);
            parry.0.push((theirs - c.depth) / size);
        }
        println!(
            "{}: {overlapping} overlapping pairs; manifold_batch {}; parry3d {}",
            kind.name(),
            wide.summary(),
            parry.summary()
        );
    }
}
