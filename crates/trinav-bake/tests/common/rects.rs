//! Axis-aligned obstacle rectangles for the tests' independent oracles (links, layers).

use trinav::Point;
use trinav::geometry::{Orientation, orient};

/// An axis-aligned obstacle rectangle: min and max corners.
pub type Rect = (Point, Point);

/// The rectangle's corners, counter-clockwise from its min corner.
pub fn corners((a, b): Rect) -> [Point; 4] {
    [a, Point::new(b.x, a.y), b, Point::new(a.x, b.y)]
}

/// Whether the closed segment `a b` misses the open interior of `rect` (a separating line: one
/// of the rectangle's edge lines or the segment's own).
pub fn misses_interior(a: Point, b: Point, rect: Rect) -> bool {
    let c = corners(rect);
    let by_edge = (0..4).any(|i| {
        let (u, w) = (c[i], c[(i + 1) % 4]);
        orient(u, w, a) != Orientation::CounterClockwise && orient(u, w, b) != Orientation::CounterClockwise
    });
    let by_segment = a != b
        && (c.iter().all(|&v| orient(a, b, v) != Orientation::Clockwise)
            || c.iter().all(|&v| orient(a, b, v) != Orientation::CounterClockwise));
    by_edge || by_segment
}
