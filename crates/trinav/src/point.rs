//! Points and boxes.

use serde::{Deserialize, Serialize};

use crate::geometry::{MAX_COORDINATE, MIN_COORDINATE};

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

    /// Whether both coordinates are 0 or have a magnitude between
    /// [`MIN_COORDINATE`](crate::geometry::MIN_COORDINATE) and
    /// [`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE) (so finite): the points meshes and queries accept.
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

    /// The smallest box holding both boxes.
    #[inline]
    pub fn union(self, other: Aabb) -> Aabb {
        Aabb {
            min: Point::new(self.min.x.min(other.min.x), self.min.y.min(other.min.y)),
            max: Point::new(self.max.x.max(other.max.x), self.max.y.max(other.max.y)),
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

    /// Whether the closed boxes share a point (touching counts).
    #[inline]
    pub fn meets(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
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
    fn aabb_grows_and_contains() {
        let b = Aabb::from_points([Point::new(1.0, 2.0), Point::new(-1.0, 5.0)]);
        assert_eq!(b.min, Point::new(-1.0, 2.0));
        assert_eq!(b.max, Point::new(1.0, 5.0));
        assert!(b.contains(Point::new(0.0, 5.0)));
        assert!(!b.contains(Point::new(0.0, 5.5)));
        assert!(Aabb::EMPTY.is_empty());
        assert!(Aabb::from_points([]).is_empty());
        let touching = Aabb::from_points([Point::new(1.0, 5.0), Point::new(3.0, 6.0)]);
        assert!(b.meets(&touching) && touching.meets(&b));
        let apart = Aabb::from_points([Point::new(1.5, 5.0), Point::new(3.0, 6.0)]);
        assert!(!b.meets(&apart) && !apart.meets(&b));
        assert!(!b.meets(&Aabb::EMPTY));
    }
}
