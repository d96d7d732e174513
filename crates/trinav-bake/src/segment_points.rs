//! Finding the points that lie exactly on a segment: the shared tool of the T-junction repairs
//! in `merge` (ring points on other rings' edges) and `weld` (vertices on unshared edges).

use trinav::geometry::{Orientation, orient};
use trinav::{Aabb, Point};

/// A set of points with payloads, bucketed in a uniform grid (compressed rows: the items of
/// cell `i` are `items[start[i]..start[i + 1]]`).
pub(crate) struct SegmentPoints<T> {
    origin: Point,
    inv_cell: f64,
    side: usize,
    start: Vec<u32>,
    items: Vec<(Point, T)>,
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
        let mut grid = SegmentPoints {
            origin,
            inv_cell: 1.0 / cell,
            side: side as usize,
            start: vec![0; side as usize * side as usize + 1],
            items: Vec::new(),
        };
        let cells: Vec<usize> = items.iter().map(|&(p, _)| grid.cell_index(grid.cell(p))).collect();
        for &c in &cells {
            grid.start[c + 1] += 1;
        }
        for i in 0..grid.start.len() - 1 {
            grid.start[i + 1] += grid.start[i];
        }
        let mut fill = grid.start.clone();
        let mut sorted: Vec<Option<(Point, T)>> = vec![None; items.len()];
        for (item, c) in items.into_iter().zip(cells) {
            sorted[fill[c] as usize] = Some(item);
            fill[c] += 1;
        }
        grid.items = sorted.into_iter().map(|item| item.expect("every slot filled")).collect();
        grid
    }

    fn cell(&self, p: Point) -> (usize, usize) {
        // `as usize` saturates negative values to 0.
        let c = ((p.x - self.origin.x) * self.inv_cell).floor() as usize;
        let r = ((p.y - self.origin.y) * self.inv_cell).floor() as usize;
        (c.min(self.side - 1), r.min(self.side - 1))
    }

    fn cell_index(&self, (c, r): (usize, usize)) -> usize {
        r * self.side + c
    }

    /// The payloads of the points lying on segment `a b` strictly between its ends (exact
    /// predicate), ordered from `a` to `b`; a point stored twice is reported twice.
    pub(crate) fn strictly_inside(&self, a: Point, b: Point) -> Vec<T> {
        let (c0, r0) = self.cell(Point::new(a.x.min(b.x), a.y.min(b.y)));
        let (c1, r1) = self.cell(Point::new(a.x.max(b.x), a.y.max(b.y)));
        let mut found: Vec<(f64, T)> = Vec::new();
        for r in r0..=r1 {
            let (first, last) = (self.cell_index((c0, r)), self.cell_index((c1, r)));
            let row = &self.items[self.start[first] as usize..self.start[last + 1] as usize];
            for &(p, payload) in row {
                if strictly_between(a, b, p) {
                    found.push(((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y), payload));
                }
            }
        }
        found.sort_by(|x, y| x.0.total_cmp(&y.0));
        found.into_iter().map(|(_, payload)| payload).collect()
    }
}

/// Whether `p` lies on segment `a b`, strictly between its ends. The box test comes first and
/// without branches: most points tested lie outside the segment's box.
#[inline]
fn strictly_between(a: Point, b: Point, p: Point) -> bool {
    let in_box =
        (a.x.min(b.x) <= p.x) & (p.x <= a.x.max(b.x)) & (a.y.min(b.y) <= p.y) & (p.y <= a.y.max(b.y));
    let not_an_end = ((p.x != a.x) | (p.y != a.y)) & ((p.x != b.x) | (p.y != b.y));
    in_box && not_an_end && orient(a, b, p) == Orientation::Collinear
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
