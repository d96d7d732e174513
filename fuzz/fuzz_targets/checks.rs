//! Checks shared by the fuzz targets (included with `#[path]`; not a target itself).

use trinav::Point;

/// A blocked raycast's point is where its fraction puts it on the segment (up to rounding).
pub fn assert_on_segment(a: Point, b: Point, point: Point, fraction: f64) {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let expected = Point::new(a.x + dx * fraction, a.y + dy * fraction);
    let scale = |u: Point| u.x.abs().max(u.y.abs());
    let tolerance = 1e-9 * dx.abs().max(dy.abs()) + 1e-12 * (scale(a) + scale(point));
    assert!(
        (point.x - expected.x).abs() <= tolerance && (point.y - expected.y).abs() <= tolerance,
        "raycast {a:?} -> {b:?} blocked at {point:?}, but its fraction {fraction} puts that at {expected:?}"
    );
}
