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
