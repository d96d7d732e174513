//! Distances to walls for the tests' checks of clearance (plain floating point, apart from the
//! library's own code).

use trinav::Point;
use trinav::geometry::{Orientation, orient};

/// The distance from `p` to the segment `a b` (a point when `a == b`).
pub fn point_segment(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let l2 = dx * dx + dy * dy;
    let s = if l2 == 0.0 { 0.0 } else { (((p.x - a.x) * dx + (p.y - a.y) * dy) / l2).clamp(0.0, 1.0) };
    p.distance(Point::new(a.x + s * dx, a.y + s * dy))
}

/// The distance between segments `a b` and `c d`: 0 where they cross, else the least from an
/// end of one to the other.
pub fn segments(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let crosses = orient(a, b, c) != orient(a, b, d)
        && orient(c, d, a) != orient(c, d, b)
        && [orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)]
            .iter()
            .all(|&o| o != Orientation::Collinear);
    if crosses {
        return 0.0;
    }
    point_segment(a, c, d).min(point_segment(b, c, d)).min(point_segment(c, a, b)).min(point_segment(d, a, b))
}
