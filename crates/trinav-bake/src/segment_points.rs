//! Finding the points that lie exactly on a segment: the shared tool of the T-junction repairs
//! in `merge` (ring points on other rings' edges) and `weld` (vertices on unshared edges).

use std::collections::HashMap;

use trinav::geometry::{Orientation, orient};
use trinav::{Aabb, Point};

/// A set of points with payloads, bucketed in a uniform grid.
pub(crate) struct SegmentPoints<T> {
    origin: Point,
    inv_cell: f64,
    side: usize,
    cells: HashMap<(usize, usize), Vec<(Point, T)>>,
}

impl<T: Copy> SegmentPoints<T> {
    /// Buckets `items`; about one point per cell.
    pub(crate) fn new(items: impl Iterator<Item = (Point, T)>) -> Self {
        let items: Vec<(Point, T)> = items.collect();
        let bounds = Aabb::from_points(items.iter().map(|&(p, _)| p));
        let (origin, extent) = if bounds.is_empty() {
            (Point::default(), 1.0)
        } else {
            let (w, h) = bounds.size();
            (bounds.min, w.max(h))
        };
        let side = (items.len() as f64).sqrt().ceil().clamp(1.0, 4096.0);
        let cell = (extent / side).max(f64::MIN_POSITIVE);
        let mut grid =
            SegmentPoints { origin, inv_cell: 1.0 / cell, side: side as usize, cells: HashMap::new() };
        for (p, payload) in items {
            let key = grid.cell(p);
            grid.cells.entry(key).or_default().push((p, payload));
        }
        grid
    }

    fn cell(&self, p: Point) -> (usize, usize) {
        // `as usize` saturates negative values to 0.
        let c = ((p.x - self.origin.x) * self.inv_cell).floor() as usize;
        let r = ((p.y - self.origin.y) * self.inv_cell).floor() as usize;
        (c.min(self.side - 1), r.min(self.side - 1))
    }

    /// The payloads of the points lying on segment `a b` strictly between its ends (exact
    /// predicate), ordered from `a` to `b`; a point stored twice is reported twice.
    pub(crate) fn strictly_inside(&self, a: Point, b: Point) -> Vec<T> {
        let (c0, r0) = self.cell(Point::new(a.x.min(b.x), a.y.min(b.y)));
        let (c1, r1) = self.cell(Point::new(a.x.max(b.x), a.y.max(b.y)));
        let mut found: Vec<(f64, T)> = (r0..=r1)
            .flat_map(|r| (c0..=c1).map(move |c| (c, r)))
            .filter_map(|key| self.cells.get(&key))
            .flatten()
            .filter(|&&(p, _)| strictly_between(a, b, p))
            .map(|&(p, payload)| ((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y), payload))
            .collect();
        found.sort_by(|x, y| x.0.total_cmp(&y.0));
        found.into_iter().map(|(_, payload)| payload).collect()
    }
}

/// Whether `p` lies on segment `a b`, strictly between its ends.
fn strictly_between(a: Point, b: Point, p: Point) -> bool {
    p != a
        && p != b
        && orient(a, b, p) == Orientation::Collinear
        && (p.x - a.x) * (b.x - p.x) >= 0.0
        && (p.y - a.y) * (b.y - p.y) >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_points_on_the_segment_in_order_and_only_those() {
        let pts =
            [(3.0, 3.0), (1.0, 1.0), (2.0, 2.000000001), (0.0, 0.0), (4.0, 4.0), (5.0, 5.0), (2.0, 2.0)];
        let grid = SegmentPoints::new(pts.iter().enumerate().map(|(i, &(x, y))| (Point::new(x, y), i)));
        assert_eq!(grid.strictly_inside(Point::new(0.0, 0.0), Point::new(4.0, 4.0)), vec![1, 6, 0]);
        assert_eq!(grid.strictly_inside(Point::new(4.0, 4.0), Point::new(0.0, 0.0)), vec![0, 6, 1]);
        assert!(grid.strictly_inside(Point::new(0.0, 1.5), Point::new(4.0, 1.5)).is_empty());
        // Ends are not inside.
        assert!(grid.strictly_inside(Point::new(0.0, 0.0), Point::new(1.0, 1.0)).is_empty());
    }
}
