//! Axis-aligned obstacle rectangles for the tests' independent oracles (links, layers).

use std::ops::Range;

use proptest::prelude::*;
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

/// Random disjoint rectangles on the integer grid: min corners in `xs` x `ys`, sides 1 to
/// `max_side - 1`, clipped to `limit` (the largest max corner), `count` drawn and kept when
/// strictly apart.
pub fn disjoint_rects(
    (xs, ys): (Range<i32>, Range<i32>),
    max_side: i32,
    count: Range<usize>,
    limit: (i32, i32),
) -> impl Strategy<Value = Vec<Rect>> {
    prop::collection::vec((xs, ys, 1..max_side, 1..max_side), count).prop_map(move |shapes| {
        let mut kept: Vec<Rect> = Vec::new();
        for (x, y, w, h) in shapes {
            let (xe, ye) = ((x + w).min(limit.0), (y + h).min(limit.1));
            if xe <= x || ye <= y {
                continue;
            }
            let r = (Point::new(f64::from(x), f64::from(y)), Point::new(f64::from(xe), f64::from(ye)));
            let apart = |k: &Rect| k.1.x < r.0.x || r.1.x < k.0.x || k.1.y < r.0.y || r.1.y < k.0.y;
            if kept.iter().all(apart) {
                kept.push(r);
            }
        }
        kept
    })
}
