//! Points, boxes and the robust orientation predicate.
//!
//! Every sidedness decision in trinav goes through [`orient`], which is exact for all finite
//! `f64` inputs (Shewchuk's adaptive predicate from the `robust` crate). Nothing else compares a
//! determinant to zero.

use serde::{Deserialize, Serialize};

/// Largest coordinate magnitude a mesh vertex or query point may have, 2^40 (about 1.1e12):
/// far beyond any level, and small enough that squared distances never overflow.
pub const MAX_COORDINATE: f64 = 1_099_511_627_776.0;

/// Smallest non-zero coordinate magnitude a mesh vertex or query point may have, 2^-142
/// (about 1.8e-43; spade's limit too): below it, products of coordinate differences underflow
/// and the orientation predicate is no longer exact.
pub const MIN_COORDINATE: f64 = 1.793662034335766e-43;

/// A point (or vector) in the plane, in world units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// X coordinate.
    pub x: f64,
    /// Y coordinate.
    pub y: f64,
}

impl Point {
    /// A point at `(x, y)`.
    #[inline]
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// Whether both coordinates are finite (not NaN, not infinite).
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// Whether both coordinates are 0 or have a magnitude between [`MIN_COORDINATE`] and
    /// [`MAX_COORDINATE`] (so finite): the points meshes and queries accept.
    #[inline]
    pub fn in_range(self) -> bool {
        let ok = |v: f64| v == 0.0 || (MIN_COORDINATE..=MAX_COORDINATE).contains(&v.abs());
        ok(self.x) && ok(self.y)
    }

    /// Euclidean distance to `other`. (A plain square root, not `hypot`: coordinates are
    /// bounded far below where the squares could overflow, and it is several times faster.)
    #[inline]
    pub fn distance(self, other: Point) -> f64 {
        let (dx, dy) = (self.x - other.x, self.y - other.y);
        (dx * dx + dy * dy).sqrt()
    }

    /// The midpoint of the segment from `self` to `other`.
    #[inline]
    pub fn midpoint(self, other: Point) -> Point {
        Point::new((self.x + other.x) * 0.5, (self.y + other.y) * 0.5)
    }
}

impl From<[f64; 2]> for Point {
    fn from([x, y]: [f64; 2]) -> Self {
        Point::new(x, y)
    }
}

impl From<Point> for [f64; 2] {
    fn from(p: Point) -> Self {
        [p.x, p.y]
    }
}

/// Which side of a directed line a point lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// Left of the line (counter-clockwise turn).
    CounterClockwise,
    /// Right of the line (clockwise turn).
    Clockwise,
    /// Exactly on the line.
    Collinear,
}

/// The exact orientation of `c` relative to the directed line `a -> b`.
///
/// ```
/// use trinav::{orient, Orientation, Point};
/// let (a, b) = (Point::new(0.0, 0.0), Point::new(1.0, 0.0));
/// assert_eq!(orient(a, b, Point::new(0.5, 1.0)), Orientation::CounterClockwise);
/// assert_eq!(orient(a, b, Point::new(3.0, 0.0)), Orientation::Collinear);
/// ```
#[inline]
pub fn orient(a: Point, b: Point, c: Point) -> Orientation {
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

/// Twice the signed area of triangle `a b c` (positive when counter-clockwise), computed in
/// plain floating point: use it for measurements, and [`orient`] for decisions.
#[inline]
pub fn doubled_signed_area(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

/// The smallest interior angle of triangle `a b c`, in degrees (0 for a degenerate triangle).
pub fn min_angle_deg(a: Point, b: Point, c: Point) -> f64 {
    let angle_at = |p: Point, q: Point, r: Point| {
        let (ux, uy) = (q.x - p.x, q.y - p.y);
        let (vx, vy) = (r.x - p.x, r.y - p.y);
        let cross = (ux * vy - uy * vx).abs();
        let dot = ux * vx + uy * vy;
        cross.atan2(dot).to_degrees()
    };
    angle_at(a, b, c).min(angle_at(b, c, a)).min(angle_at(c, a, b))
}

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: Point,
    /// The corner with the largest coordinates.
    pub max: Point,
}

impl Aabb {
    /// The empty box: contains nothing; growing it by a point gives that point's box.
    pub const EMPTY: Aabb = Aabb {
        min: Point::new(f64::INFINITY, f64::INFINITY),
        max: Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    };

    /// The smallest box holding all `points` ([`Aabb::EMPTY`] for none).
    pub fn from_points(points: impl IntoIterator<Item = Point>) -> Aabb {
        points.into_iter().fold(Aabb::EMPTY, Aabb::grown)
    }

    /// This box grown to hold `p`.
    #[inline]
    pub fn grown(self, p: Point) -> Aabb {
        Aabb {
            min: Point::new(self.min.x.min(p.x), self.min.y.min(p.y)),
            max: Point::new(self.max.x.max(p.x), self.max.y.max(p.y)),
        }
    }

    /// Whether the box holds no point.
    pub fn is_empty(&self) -> bool {
        !(self.min.x <= self.max.x && self.min.y <= self.max.y)
    }

    /// Whether `p` lies in the closed box.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// Width and height.
    pub fn size(&self) -> (f64, f64) {
        (self.max.x - self.min.x, self.max.y - self.min.y)
    }
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

    #[test]
    fn min_angle_of_right_isosceles_is_45() {
        let deg = min_angle_deg(Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(0.0, 1.0));
        assert!((deg - 45.0).abs() < 1e-12);
        assert_eq!(min_angle_deg(Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(2.0, 0.0)), 0.0);
    }

    #[test]
    fn aabb_grows_and_contains() {
        let b = Aabb::from_points([Point::new(1.0, 2.0), Point::new(-1.0, 5.0)]);
        assert_eq!(b.min, Point::new(-1.0, 2.0));
        assert_eq!(b.max, Point::new(1.0, 5.0));
        assert!(b.contains(Point::new(0.0, 5.0)));
        assert!(!b.contains(Point::new(0.0, 5.5)));
        assert!(Aabb::EMPTY.is_empty());
        assert!(Aabb::from_points([]).is_empty());
    }
}
