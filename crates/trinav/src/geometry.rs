//! Exact geometric predicates, the coordinate limits, and measurements of triangles.
//!
//! Every sidedness decision in trinav goes through [`orient`], which is exact for all finite
//! `f64` inputs (Shewchuk's adaptive predicate from the `robust` crate, after a check that the
//! plain determinant came out exact, as it does for collinear points on a grid). Nothing else
//! compares a determinant to zero.

pub(crate) use crate::point::{Aabb, Point};

/// Largest coordinate magnitude a mesh vertex or query point may have, 2^40 (about 1.1e12):
/// far beyond any level, and small enough that squared distances never overflow.
pub const MAX_COORDINATE: f64 = 1_099_511_627_776.0;

/// Smallest non-zero coordinate magnitude a mesh vertex or query point may have, 2^-142
/// (about 1.8e-43; spade's limit too): below it, products of coordinate differences underflow
/// and the orientation predicate is no longer exact.
pub const MIN_COORDINATE: f64 = 1.793662034335766e-43;

/// Which side of a directed line a point lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i8)]
pub enum Orientation {
    /// Left of the line (counter-clockwise turn).
    CounterClockwise = 1,
    /// Right of the line (clockwise turn).
    Clockwise = -1,
    /// Exactly on the line.
    Collinear = 0,
}

/// The exact orientation of `c` relative to the directed line `a -> b`.
///
/// ```
/// use trinav::Point;
/// use trinav::geometry::{orient, Orientation};
/// let (a, b) = (Point::new(0.0, 0.0), Point::new(1.0, 0.0));
/// assert_eq!(orient(a, b, Point::new(0.5, 1.0)), Orientation::CounterClockwise);
/// assert_eq!(orient(a, b, Point::new(3.0, 0.0)), Orientation::Collinear);
/// ```
#[inline]
pub fn orient(a: Point, b: Point, c: Point) -> Orientation {
    // Shewchuk's filter, as `robust::orient2d` computes it: when it passes, the sign of the
    // plain determinant is exact. The rest stays out of line, so that loops over many
    // orientations keep the filter alone inside them.
    let (left, right) = ((a.x - c.x) * (b.y - c.y), (a.y - c.y) * (b.x - c.x));
    let det = left - right;
    let error_bound = 3.3306690621773722e-16 * (left + right).abs();
    // One comparison (`det >= bound || -det >= bound` would branch on the sign).
    if det.abs() >= error_bound { sign_of(det) } else { orient_near_collinear(a, b, c) }
}

/// The orientation of `c` relative to `a -> b` where [`orient`]'s filter could not decide: the
/// plain determinant when it came out exact (collinear points with short coordinates, as on
/// grid levels), else the adaptive predicate.
#[inline(never)]
fn orient_near_collinear(a: Point, b: Point, c: Point) -> Orientation {
    let (acx, bcy, acy, bcx) = (a.x - c.x, b.y - c.y, a.y - c.y, b.x - c.x);
    if plain_determinant_is_exact([a.x, c.x, acx], [b.y, c.y, bcy], [a.y, c.y, acy], [b.x, c.x, bcx]) {
        return sign_of(acx * bcy - acy * bcx);
    }
    sign_of(robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    ))
}

/// The orientation a determinant's sign stands for (no branch: the sign is as often one way as
/// the other in many loops).
#[inline]
fn sign_of(det: f64) -> Orientation {
    match i8::from(det > 0.0) - i8::from(det < 0.0) {
        1 => Orientation::CounterClockwise,
        -1 => Orientation::Clockwise,
        _ => Orientation::Collinear,
    }
}

/// Whether the plain determinant `det` of [`orient`] is exact, given that the filter failed:
/// each of the four differences `[p, q, p - q]` and the two products were computed without
/// rounding (then `det`, the difference of two products of the same sign within a factor of
/// two, is exact too, by Sterbenz's lemma; a filter that fails means they are that close, or
/// both zero). A difference is exact when Knuth's two-diff error term is zero; a product of
/// normal numbers is exact when their significant bits add up to at most 53 and it stays far
/// from underflow and overflow.
#[inline]
fn plain_determinant_is_exact(ac_x: [f64; 3], bc_y: [f64; 3], ac_y: [f64; 3], bc_x: [f64; 3]) -> bool {
    let difference_is_exact = |[p, q, d]: [f64; 3]| {
        let q_virtual = p - d;
        let p_virtual = d + q_virtual;
        (p - p_virtual) + (q_virtual - q) == 0.0
    };
    let significant_bits = |v: f64| 53 - ((v.to_bits() & ((1 << 52) - 1)) | (1 << 52)).trailing_zeros();
    let product_is_exact = |u: f64, v: f64| {
        let product = u * v;
        (u == 0.0 || v == 0.0)
            || (u.is_normal()
                && v.is_normal()
                && (2f64.powi(-1000)..=f64::MAX).contains(&product.abs())
                && significant_bits(u) + significant_bits(v) <= 53)
    };
    [ac_x, bc_y, ac_y, bc_x].into_iter().all(difference_is_exact)
        && product_is_exact(ac_x[2], bc_y[2])
        && product_is_exact(ac_y[2], bc_x[2])
}

/// Twice the signed area of triangle `a b c` (positive when counter-clockwise), computed in
/// plain floating point: use it for measurements, and [`orient`] for decisions.
#[inline]
pub fn doubled_signed_area(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// The smallest interior angle of triangle `a b c`, in degrees (0 for a degenerate triangle).
pub fn min_angle_deg(a: Point, b: Point, c: Point) -> f64 {
    let angle_at = |p, q, r| {
        let (cross, dot) = corner_sides(p, q, r);
        cross.atan2(dot).to_degrees()
    };
    angle_at(a, b, c).min(angle_at(b, c, a)).min(angle_at(c, a, b))
}

/// The angle at `p` of triangle `p q r`, in radians (`[0, π]`; the sum of these round a mesh
/// vertex is how far its fan turns).
#[inline]
pub(crate) fn angle_at(p: Point, q: Point, r: Point) -> f64 {
    let (cross, dot) = corner_sides(p, q, r);
    cross.atan2(dot)
}

/// The angle at `p` of triangle `p q r` as the (absolute cross, dot) products of its sides.
#[inline]
fn corner_sides(p: Point, q: Point, r: Point) -> (f64, f64) {
    let (ux, uy) = (q.x - p.x, q.y - p.y);
    let (vx, vy) = (r.x - p.x, r.y - p.y);
    ((ux * vy - uy * vx).abs(), ux * vx + uy * vy)
}

/// The smallest [`min_angle_deg`] of `triangles` (infinity for none), bit for bit, computing it
/// only for triangles with a corner that may be below the smallest so far: a corner whose
/// sides' ratio (tangent) is above that angle's tangent by a margin far beyond rounding, or
/// which is at least a right angle, cannot give a smaller value.
pub(crate) fn smallest_min_angle_deg(triangles: impl Iterator<Item = [Point; 3]>) -> f64 {
    let mut smallest = f64::INFINITY;
    let mut tangent = f64::INFINITY;
    for [a, b, c] in triangles {
        let above = |p, q, r| {
            let (cross, dot) = corner_sides(p, q, r);
            // atan2(0, 0) is 0: a corner with no sides is not a right angle.
            (dot > 0.0 && cross > dot * tangent)
                || ((dot < 0.0 || dot == 0.0 && cross > 0.0) && smallest < 89.0)
        };
        if above(a, b, c) && above(b, c, a) && above(c, a, b) {
            continue;
        }
        let angle = min_angle_deg(a, b, c);
        if angle < smallest {
            smallest = angle;
            tangent =
                if smallest < 89.0 { smallest.to_radians().tan() * (1.0 + 1e-6) } else { f64::INFINITY };
        }
    }
    smallest
}

/// The point of the segment `a b` closest to `p` (floating point, clamped to the segment;
/// `a` when the segment is a point).
///
/// ```
/// use trinav::Point;
/// use trinav::geometry::closest_point_on_segment;
/// let (a, b) = (Point::new(0.0, 0.0), Point::new(4.0, 0.0));
/// assert_eq!(closest_point_on_segment(Point::new(1.0, 3.0), a, b), Point::new(1.0, 0.0));
/// assert_eq!(closest_point_on_segment(Point::new(9.0, 1.0), a, b), b);
/// ```
pub fn closest_point_on_segment(p: Point, a: Point, b: Point) -> Point {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length2 = dx * dx + dy * dy;
    if length2 == 0.0 {
        return a;
    }
    let s = (((p.x - a.x) * dx + (p.y - a.y) * dy) / length2).clamp(0.0, 1.0);
    Point::new(a.x + s * dx, a.y + s * dy)
}

/// The point of the closed triangle `[a, b, c]` closest to `p` (Ericson, Real-Time Collision
/// Detection, 5.1.5: Voronoi regions of the corners, then of the edges, else the inside).
pub fn closest_point_on_triangle(p: Point, [a, b, c]: [Point; 3]) -> Point {
    let sub = |u: Point, v: Point| (u.x - v.x, u.y - v.y);
    let dot = |u: (f64, f64), v: (f64, f64)| u.0 * v.0 + u.1 * v.1;
    let at = |base: Point, dir: (f64, f64), s: f64| Point::new(base.x + dir.0 * s, base.y + dir.1 * s);
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return at(a, ab, d1 / (d1 - d3));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return at(a, ac, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return at(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    // Inside: `p` itself (the caller handles points on the mesh before this).
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    Point::new(a.x + ab.0 * v + ac.0 * w, a.y + ab.1 * v + ac.1 * w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orient_is_exact_on_nearly_collinear_points() {
        // A naive determinant gets these wrong; the adaptive predicate does not.
        let a = Point::new(0.5, 0.5);
        let b = Point::new(12.0, 12.0);
        let c = Point::new(24.0, 24.0);
        assert_eq!(orient(a, b, c), Orientation::Collinear);
        let nudged = Point::new(24.0, f64::from_bits(24.0f64.to_bits() + 1));
        assert_eq!(orient(a, b, nudged), Orientation::CounterClockwise);
    }

    /// The orientation the adaptive predicate alone gives.
    fn adaptive(a: Point, b: Point, c: Point) -> Orientation {
        let det = robust::orient2d(
            robust::Coord { x: a.x, y: a.y },
            robust::Coord { x: b.x, y: b.y },
            robust::Coord { x: c.x, y: c.y },
        );
        if det > 0.0 {
            Orientation::CounterClockwise
        } else if det < 0.0 {
            Orientation::Clockwise
        } else {
            Orientation::Collinear
        }
    }

    #[test]
    fn the_exact_plain_determinant_agrees_with_the_adaptive_predicate() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(61);
        let (mut collinear, mut shortcut) = (0, 0);
        for round in 0..400_000 {
            // Grid points (many collinear), half and quarter steps, long fractions, points nudged
            // by one unit in the last place off a line, at scales from tiny to huge; and powers of
            // two plus small integers (differences that round to short numbers).
            let scale = [1.0, 0.5, 1e-3, 3.0, 1e12, 1e-140, 1e150, 2f64.powi(-1030)][round % 8];
            let kind = (round / 8) % 5;
            let coordinate = |rng: &mut rand_pcg::Pcg64| match kind {
                0 | 4 => rng.random_range(-8..8) as f64 * scale,
                1 => rng.random_range(-4096..4096) as f64 / 4.0 * scale,
                _ => rng.random_range(-3.0..3.0) * scale,
            };
            let mut a = Point::new(coordinate(&mut rng), coordinate(&mut rng));
            if kind == 4 {
                // Far out on the diagonal: a - c rounds whenever b - c lies on it too.
                let power = 2f64.powi(rng.random_range(54..70)) * scale;
                a = Point::new(a.x + power, a.y + power);
            }
            let b = Point::new(coordinate(&mut rng), coordinate(&mut rng));
            let mut c = Point::new(coordinate(&mut rng), coordinate(&mut rng));
            if kind == 2 || kind == 3 {
                // On the line through a and b as nearly as floating point allows, then nudged.
                let t = rng.random_range(-2.0..3.0);
                c = Point::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
                let step = rng.random_range(-2i64..=2);
                if kind == 3 && c.y.is_finite() && c.y != 0.0 {
                    c.y = f64::from_bits((c.y.to_bits() as i64 + step) as u64);
                }
            }
            let expected = adaptive(a, b, c);
            collinear += usize::from(expected == Orientation::Collinear);
            let (acx, bcy, acy, bcx) = (a.x - c.x, b.y - c.y, a.y - c.y, b.x - c.x);
            shortcut += usize::from(plain_determinant_is_exact(
                [a.x, c.x, acx],
                [b.y, c.y, bcy],
                [a.y, c.y, acy],
                [b.x, c.x, bcx],
            ));
            for (p, q, r) in [(a, b, c), (b, c, a), (c, a, b), (b, a, c)] {
                assert_eq!(orient(p, q, r), adaptive(p, q, r), "round {round}: {p:?} {q:?} {r:?}");
            }
        }
        // The cases the shortcut exists for were drawn, and it took many of them.
        assert!(collinear > 50_000 && shortcut > 50_000, "collinear {collinear}, shortcut {shortcut}");
    }

    #[test]
    fn min_angle_of_right_isosceles_is_45() {
        let deg = min_angle_deg(Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(0.0, 1.0));
        assert!((deg - 45.0).abs() < 1e-12);
        assert_eq!(min_angle_deg(Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(2.0, 0.0)), 0.0);
    }

    #[test]
    fn smallest_min_angle_is_the_plain_minimum_bit_for_bit() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(16);
        for round in 0..400 {
            // Grid points (cocircular ties, right angles, degenerate triangles), then points with
            // long fractions (near ties), then huge and tiny coordinates.
            let scale = [1.0, 1e-3, 1e150, 1e-150][round % 4];
            let point = |rng: &mut rand_pcg::Pcg64| {
                let mut coordinate = || {
                    let v: f64 = if round % 2 == 0 {
                        rng.random_range(0..6) as f64
                    } else {
                        rng.random_range(-3.0..3.0)
                    };
                    v * scale
                };
                Point::new(coordinate(), coordinate())
            };
            let triangles: Vec<[Point; 3]> = (0..rng.random_range(0..60))
                .map(|_| [point(&mut rng), point(&mut rng), point(&mut rng)])
                .collect();
            let plain =
                triangles.iter().map(|&[a, b, c]| min_angle_deg(a, b, c)).fold(f64::INFINITY, f64::min);
            let fast = smallest_min_angle_deg(triangles.iter().copied());
            assert_eq!(fast.to_bits(), plain.to_bits(), "round {round}: {triangles:?}");
        }
        let nan = Point::new(f64::NAN, 0.0);
        let with_nan = [[nan, Point::new(1.0, 0.0), Point::new(0.0, 1.0)]];
        assert_eq!(smallest_min_angle_deg(with_nan.into_iter()), f64::INFINITY);
    }

    #[test]
    fn closest_point_regions() {
        let tri = [Point::new(0.0, 0.0), Point::new(4.0, 0.0), Point::new(0.0, 4.0)];
        assert_eq!(closest_point_on_triangle(Point::new(-1.0, -1.0), tri), tri[0]);
        assert_eq!(closest_point_on_triangle(Point::new(6.0, -1.0), tri), tri[1]);
        assert_eq!(closest_point_on_triangle(Point::new(2.0, -3.0), tri), Point::new(2.0, 0.0));
        assert_eq!(closest_point_on_triangle(Point::new(-3.0, 1.0), tri), Point::new(0.0, 1.0));
        assert_eq!(closest_point_on_triangle(Point::new(3.0, 3.0), tri), Point::new(2.0, 2.0));
        let inside = closest_point_on_triangle(Point::new(1.0, 1.0), tri);
        assert!((inside.x - 1.0).abs() < 1e-15 && (inside.y - 1.0).abs() < 1e-15);
    }
}
