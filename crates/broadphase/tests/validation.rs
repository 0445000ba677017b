//! Bad input is a clear error, never a panic: NaN, infinite and inverted boxes,
//! bad margins and rays, stale and foreign handles.

use broadphase::{Aabb, Broadphase, BroadphaseConfig, Error, Ray};
use glam::Vec3;

#[test]
fn aabb_rejects_bad_boxes() {
    let one = Vec3::ONE;
    assert_eq!(
        Aabb::new(Vec3::new(0.0, f32::NAN, 0.0), one),
        Err(Error::NanCoordinate)
    );
    assert_eq!(
        Aabb::new(Vec3::ZERO, Vec3::new(1.0, 1.0, f32::NAN)),
        Err(Error::NanCoordinate)
    );
    assert_eq!(
        Aabb::new(Vec3::ZERO, Vec3::new(f32::INFINITY, 1.0, 1.0)),
        Err(Error::InfiniteCoordinate)
    );
    assert_eq!(
        Aabb::new(Vec3::splat(f32::NEG_INFINITY), one),
        Err(Error::InfiniteCoordinate)
    );
    assert_eq!(
        Aabb::new(Vec3::new(0.0, 2.0, 0.0), one),
        Err(Error::InvertedBox { axis: 1 })
    );
    assert_eq!(
        Aabb::new(Vec3::new(0.0, 0.0, 2.0), one),
        Err(Error::InvertedBox { axis: 2 })
    );
    assert_eq!(
        Aabb::from_center_half_extents(Vec3::ZERO, Vec3::new(1.0, -1.0, 1.0)),
        Err(Error::NegativeValue)
    );
    assert!(Aabb::new(one, one).is_ok(), "point boxes are valid");
    let b = Aabb::new(Vec3::ZERO, one).unwrap();
    assert_eq!(b.grown(f32::NAN), Err(Error::NanCoordinate));
    assert_eq!(b.grown(-1.0), Err(Error::NegativeValue));
    assert_eq!(b.grown(f32::INFINITY), Err(Error::InfiniteCoordinate));
    let big = Aabb::new(Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX)).unwrap();
    assert_eq!(big.grown(f32::MAX), Err(Error::InfiniteCoordinate));
    for e in [
        Error::NanCoordinate,
        Error::StaleHandle,
        Error::InvertedBox { axis: 0 },
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn aabb_geometry() {
    let a = Aabb::new(Vec3::ZERO, Vec3::new(1.0, 2.0, 3.0)).unwrap();
    let b = Aabb::new(Vec3::new(1.0, 2.0, 3.0), Vec3::splat(4.0)).unwrap();
    assert!(
        a.intersects(&b) && b.intersects(&a),
        "touching corners overlap"
    );
    assert_eq!(a.surface_area(), 2.0 * (2.0 + 6.0 + 3.0));
    let m = a.merge(&b);
    assert!(m.contains(&a) && m.contains(&b) && !a.contains(&m));
    assert_eq!(a.grown(0.5).unwrap().min(), Vec3::splat(-0.5));
    let flat = Aabb::new(Vec3::ZERO, Vec3::new(1.0, 0.0, 1.0)).unwrap();
    assert!(flat.surface_area() > 0.0, "flat boxes still have a cost");
}

#[test]
fn rays_reject_bad_input() {
    assert_eq!(Ray::new(Vec3::NAN, Vec3::X), Err(Error::NanCoordinate));
    assert_eq!(Ray::new(Vec3::ZERO, Vec3::ZERO), Err(Error::NegativeValue));
    assert_eq!(
        Ray::new(Vec3::ZERO, Vec3::INFINITY),
        Err(Error::InfiniteCoordinate)
    );
    // Axis-parallel rays grazing a face still hit the closed box.
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE).unwrap();
    let r = Ray::new(Vec3::new(-1.0, 1.0, 0.0), Vec3::X).unwrap();
    assert_eq!(r.intersect_aabb(&b, 10.0), Some(1.0));
}

#[test]
fn broadphase_rejects_bad_input_without_changing_state() {
    assert_eq!(
        Broadphase::<()>::with_config(BroadphaseConfig {
            margin_fraction: f32::NAN,
            ..Default::default()
        })
        .err(),
        Some(Error::NanCoordinate)
    );
    assert_eq!(
        Broadphase::<()>::with_config(BroadphaseConfig {
            min_margin: -1.0,
            ..Default::default()
        })
        .err(),
        Some(Error::NegativeValue)
    );
    let mut bp = Broadphase::new();
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE).unwrap();
    let a = bp.insert(b, 1).unwrap();
    let c = bp.insert(b, 2).unwrap();
    bp.update();
    // A box whose fat box would overflow is refused; the proxy keeps its boxes.
    let huge = Aabb::new(Vec3::splat(-3.0e38), Vec3::splat(3.0e38)).unwrap();
    assert_eq!(bp.move_proxy(a, huge), Err(Error::InfiniteCoordinate));
    assert_eq!(bp.insert(huge, 3), Err(Error::InfiniteCoordinate));
    assert_eq!(bp.aabb(a), Ok(b));
    assert_eq!(bp.remove(a), Ok(1));
    assert_eq!(bp.remove(a), Err(Error::StaleHandle));
    assert_eq!(bp.move_proxy(a, b), Err(Error::StaleHandle));
    assert_eq!(bp.fat_aabb(a), Err(Error::StaleHandle));
    assert!(bp.partners(a).is_err());
    // The slot is reused with a new generation: the old handle stays stale.
    let d = bp.insert(b, 4).unwrap();
    assert_eq!(d.index(), a.index());
    assert_ne!(d, a);
    assert_eq!(bp.data(a), Err(Error::StaleHandle));
    let changes = bp.update();
    assert_eq!(changes.ended.len(), 1, "the removed proxy's pair ends");
    assert_eq!((changes.ended[0].a, changes.ended[0].b), (a, c));
    assert_eq!(changes.began.len(), 1);
    assert_eq!((changes.began[0].a, changes.began[0].b), (d, c));
    bp.validate().unwrap();
}

/// A box spanning ±1e18 (and one reaching f32's range), inserted among small ones
/// and removed again: the tracked area cost stays the tree's (it drifted to 307.2
/// against 423.4: the sum had held the huge box's 2.4e37 and lost the small
/// terms' digits when it left; at ±1e19 the f32 area itself was infinite).
#[test]
fn area_cost_survives_a_huge_box_coming_and_going() {
    use broadphase::DynamicTree;
    for huge in [1e18f32, 1e19, 3e38] {
        let mut tree = DynamicTree::new();
        let mut leaves = Vec::new();
        for i in 0..200 {
            let c = Vec3::new((i % 10) as f32, (i / 10 % 10) as f32, (i / 100) as f32) * 3.0;
            leaves.push(tree.insert(Aabb::new(c, c + Vec3::ONE).unwrap(), i));
        }
        tree.validate().unwrap();
        let big = tree.insert(
            Aabb::new(Vec3::splat(-huge), Vec3::splat(huge)).unwrap(),
            999,
        );
        tree.validate()
            .unwrap_or_else(|e| panic!("huge {huge:e} in: {e}"));
        tree.remove(big).unwrap();
        tree.validate()
            .unwrap_or_else(|e| panic!("huge {huge:e} out: {e}"));
        assert!(tree.area_cost().is_finite() && tree.area_cost() > 0.0);
        for leaf in leaves.drain(..100) {
            tree.remove(leaf).unwrap();
        }
        tree.validate()
            .unwrap_or_else(|e| panic!("huge {huge:e}, half removed: {e}"));
    }
}

/// A ray whose direction is about 1e-30 (and subnormal) reaches boxes only at
/// parameters beyond f32's range: the cast reports no hit there rather than
/// `t = inf`, and every `t` it reports is finite.
#[test]
fn ray_casts_never_report_infinite_parameters() {
    use broadphase::DynamicTree;
    let mut tree = DynamicTree::new();
    let near = tree.insert(Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0)).unwrap(), 0);
    tree.insert(
        Aabb::new(Vec3::splat(1e9), Vec3::splat(1e9 + 1.0)).unwrap(),
        1,
    );
    let _ = near;
    for dir in [
        Vec3::splat(1e-30),
        Vec3::new(1e-30, 0.0, 0.0),
        Vec3::splat(1e-44),
        Vec3::new(1e-40, 1e-30, 2e-45),
    ] {
        let ray = Ray::new(Vec3::splat(0.5), dir).unwrap();
        let mut hits = Vec::new();
        tree.ray_cast(&ray, f32::INFINITY, |payload, t| {
            hits.push((payload, t));
            f32::INFINITY
        });
        assert!(hits.iter().all(|&(_, t)| t.is_finite()), "{dir}: {hits:?}");
        // The box holding the origin is entered at 0.
        assert!(hits.contains(&(0, 0.0)), "{dir}: {hits:?}");
        // The far box lies beyond any f32 parameter along these directions.
        assert!(!hits.iter().any(|&(p, _)| p == 1), "{dir}: {hits:?}");
    }
    // A direction of ordinary size still finds the far box, at a finite t.
    let ray = Ray::new(Vec3::splat(0.5), Vec3::ONE).unwrap();
    let mut far = None;
    tree.ray_cast(&ray, f32::INFINITY, |payload, t| {
        if payload == 1 {
            far = Some(t);
        }
        f32::INFINITY
    });
    let t = far.expect("the far box is on the ray");
    assert!((t - (1e9 - 0.5)).abs() <= 1e3, "{t}");
}
