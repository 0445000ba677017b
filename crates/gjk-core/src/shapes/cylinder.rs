//! Cylinder about the local Y axis.

use glam::Vec3;

use crate::error::{ShapeError, check_size};
use crate::feature::{Feature, FeatureId};
use crate::math::Aabb;
use crate::math::Pose;
use crate::support::{CoreSymmetry, SupportMap, disc_extents};
use crate::tolerance::{CAP_POLYGON_VERTICES, CAP_RIM_MIN_GAP, DISC_RESCALE_BELOW};

/// A solid cylinder of radius `radius` whose axis runs along Y from `-half_height`
/// to `half_height`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder {
    half_height: f32,
    radius: f32,
}

impl Cylinder {
    /// A cylinder; both sizes finite, `>= 0` and at most
    /// [`MAX_SIZE`](crate::tolerance::MAX_SIZE). A zero half height gives a disc
    /// (a coin, a wheel), a zero radius the segment of its axis.
    #[inline]
    pub fn new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_size("Cylinder", "half_height", half_height)?,
            radius: check_size("Cylinder", "radius", radius)?,
        })
    }

    /// Half the height.
    #[inline]
    pub fn half_height(&self) -> f32 {
        self.half_height
    }

    /// The radius.
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

/// The point of a disc of radius `radius` in the XZ plane farthest along `dir`:
/// on the rim in the direction of `dir`'s XZ part, or the centre when `dir` is
/// parallel to Y (every point of the disc is then a support point).
#[inline]
pub(crate) fn disc_support(dir: Vec3, radius: f32) -> Vec3 {
    let xz_len = (dir.x * dir.x + dir.z * dir.z).sqrt();
    if xz_len > DISC_RESCALE_BELOW {
        let s = radius / xz_len;
        Vec3::new(dir.x * s, 0.0, dir.z * s)
    } else {
        // A direction this close to the axis has an XZ part whose squares are
        // subnormal or zero: `radius / xz_len` would overflow for large discs
        // (and `dir.x * inf` give an infinite point). The part divided by its
        // largest component has a length in [1, √2] instead.
        let largest = dir.x.abs().max(dir.z.abs());
        if largest > 0.0 {
            let (x, z) = (dir.x / largest, dir.z / largest);
            let s = radius / (x * x + z * z).sqrt();
            Vec3::new(x * s, 0.0, z * s)
        } else {
            Vec3::ZERO
        }
    }
}

/// The ids a disc cap's polygon ([`cap_polygon`]) gives its parts: rim sample `k`
/// is vertex `first_vertex + k` and the chord from sample `k` to `k + 1` edge
/// `first_edge + k`; the exact rim point is vertex `rim_vertex`, and the two halves
/// of the chord it splits are edges `split_edges` (the half next to the lower
/// sample first).
pub(crate) struct CapIds {
    pub first_vertex: u32,
    pub rim_vertex: u32,
    pub first_edge: u32,
    pub split_edges: [u32; 2],
    pub face: u32,
}

/// A disc of radius `radius` in the plane `y = height`, facing `+y` if `up` (else
/// `-y`), as a convex polygon: [`CAP_POLYGON_VERTICES`] rim samples at fixed angles
/// (so that a cap resting flat keeps its points and ids from step to step), plus
/// the exact rim point that supports `dir`, the deepest point of a tilted cap,
/// where `dir` leans off the axis (a point that follows the contact around the
/// rim, with one id). Counter-clockwise seen from outside: the samples by
/// decreasing angle about `+y` for an upper cap, increasing for a lower one.
/// A cap of radius 0 is the vertex at its centre, with the cap's id.
pub(crate) fn cap_polygon(
    out: &mut Feature,
    radius: f32,
    height: f32,
    up: bool,
    dir: Vec3,
    ids: &CapIds,
) {
    if radius == 0.0 {
        // A cap of no radius (a needle's end) is its centre: a polygon of
        // coincident samples has no side planes to clip against.
        out.set_vertex(Vec3::new(0.0, height, 0.0), FeatureId::face(ids.face));
        return;
    }
    let n = CAP_POLYGON_VERTICES;
    let step = std::f32::consts::TAU / n as f32;
    let normal = if up { Vec3::Y } else { Vec3::NEG_Y };
    out.begin_polygon(normal, FeatureId::face(ids.face));
    // The chord the rim point splits, by its angle, unless it sits on a sample.
    let xz = (dir.x * dir.x + dir.z * dir.z).sqrt();
    let split = (xz > 0.0)
        .then(|| {
            let angle = dir.z.atan2(dir.x).rem_euclid(std::f32::consts::TAU) / step;
            let k = (angle.floor() as u32).min(n - 1);
            let frac = angle - k as f32;
            (frac > CAP_RIM_MIN_GAP && frac < 1.0 - CAP_RIM_MIN_GAP).then_some(k)
        })
        .flatten();
    let rim = disc_support(dir, radius) + Vec3::new(0.0, height, 0.0);
    let sample = |k: u32| {
        let (s, c) = (k as f32 * step).sin_cos();
        Vec3::new(radius * c, height, radius * s)
    };
    let vertex = |k: u32| FeatureId::vertex(ids.first_vertex + k);
    let chord = |k: u32| FeatureId::edge(ids.first_edge + k);
    for i in 0..n {
        // Sample k, and the chord from it to the next sample in the polygon's turn.
        if up {
            let k = (n - i) % n;
            let next = (k + n - 1) % n;
            if split == Some(next) {
                out.push_polygon_vertex(sample(k), vertex(k), FeatureId::edge(ids.split_edges[1]));
                out.push_polygon_vertex(
                    rim,
                    FeatureId::vertex(ids.rim_vertex),
                    FeatureId::edge(ids.split_edges[0]),
                );
            } else {
                out.push_polygon_vertex(sample(k), vertex(k), chord(next));
            }
        } else {
            let k = i;
            if split == Some(k) {
                out.push_polygon_vertex(sample(k), vertex(k), FeatureId::edge(ids.split_edges[0]));
                out.push_polygon_vertex(
                    rim,
                    FeatureId::vertex(ids.rim_vertex),
                    FeatureId::edge(ids.split_edges[1]),
                );
            } else {
                out.push_polygon_vertex(sample(k), vertex(k), chord(k));
            }
        }
    }
}

impl SupportMap for Cylinder {
    /// The cap facing `dir` when `dir` is within 45 degrees of the axis, else the
    /// side line through the rim points that support `dir` (a cylinder lying on a
    /// face touches it along that line). With `N` = [`CAP_POLYGON_VERTICES`]: the
    /// rim samples of the lower cap are vertices `0..N`, of the upper `N..2N`, the
    /// exact rim points `2N` (lower) and `2N + 1` (upper); chords `0..N` and `N..2N`,
    /// split chords `2N, 2N + 1` (lower) and `2N + 2, 2N + 3` (upper), the side line
    /// edge `2N + 4`; faces: lower cap 0, upper cap 1. A needle's cap (radius 0)
    /// is the vertex at its centre, with the cap's id, and a disc's side (height
    /// 0) its rim point, vertex `2N`. A cylinder of no size is that vertex from
    /// every direction, so that its contacts keep one id whichever way they turn.
    fn support_feature(&self, dir: Vec3, out: &mut Feature) {
        let n = CAP_POLYGON_VERTICES;
        if self.radius == 0.0 && self.half_height == 0.0 {
            out.set_vertex(Vec3::ZERO, FeatureId::vertex(2 * n));
            return;
        }
        let xz = (dir.x * dir.x + dir.z * dir.z).sqrt();
        let up = dir.y >= 0.0;
        if dir.y.abs() >= xz {
            let u = up as u32;
            let ids = CapIds {
                first_vertex: u * n,
                rim_vertex: 2 * n + u,
                first_edge: u * n,
                split_edges: [2 * n + 2 * u, 2 * n + 2 * u + 1],
                face: u,
            };
            let height = if up {
                self.half_height
            } else {
                -self.half_height
            };
            cap_polygon(out, self.radius, height, up, dir, &ids);
        } else {
            let rim = disc_support(dir, self.radius);
            if self.half_height == 0.0 {
                // A disc's side is its rim point: a segment of no length has no
                // direction to clip along.
                out.set_vertex(rim, FeatureId::vertex(2 * n));
                return;
            }
            let h = Vec3::new(0.0, self.half_height, 0.0);
            out.set_segment(
                rim - h,
                rim + h,
                [FeatureId::vertex(2 * n), FeatureId::vertex(2 * n + 1)],
                FeatureId::edge(2 * n + 4),
            );
        }
    }

    #[inline]
    fn support_core(&self, dir: Vec3) -> Vec3 {
        let mut p = disc_support(dir, self.radius);
        p.y = if dir.y < 0.0 {
            -self.half_height
        } else {
            self.half_height
        };
        p
    }

    #[inline]
    fn core_symmetry(&self) -> CoreSymmetry {
        CoreSymmetry::RevolutionY
    }

    #[inline]
    fn bounding_radius(&self) -> f32 {
        (self.half_height * self.half_height + self.radius * self.radius).sqrt()
    }

    /// The nearer of the caps and the side.
    #[inline]
    fn inner_radius(&self) -> f32 {
        self.half_height.min(self.radius)
    }

    /// The cap farthest along each world axis, plus its rim's extent there.
    #[inline]
    fn aabb(&self, pose: &Pose) -> Aabb {
        let rot = pose.rotation_matrix();
        let half = rot.y_axis.abs() * self.half_height + disc_extents(&rot, self.radius);
        Aabb::from_center_half_extents(pose.translation(), half)
    }
}
