//! Finding the points that lie exactly on a segment: the shared tool of the T-junction repairs
//! in `merge` (ring points on other rings' edges) and `weld` (vertices on unshared edges).
//! [`SegmentPoints`] takes any points and segments; [`LatticePoints`] integer points and
//! horizontal or vertical segments (a grid map's rings), walked cell by cell.

use trinav::geometry::{Orientation, closest_point_on_segment, orient};
use trinav::{Aabb, Point};

/// A uniform grid of `side` x `side` square cells over a box, about one cell per item: the
/// buckets of [`SegmentPoints`] and of the crossing check's edges. Points outside the box fall
/// in its border cells.
#[derive(Clone, Copy)]
pub(crate) struct CellGrid {
    origin: Point,
    inv_cell: f64,
    side: usize,
}

impl CellGrid {
    /// The grid over `bounds` for `items` items (an empty box: one unit square at the origin).
    pub(crate) fn over(bounds: Aabb, items: usize) -> CellGrid {
        let (origin, extent) = if bounds.is_empty() {
            (Point::default(), 1.0)
        } else {
            let (w, h) = bounds.size();
            (bounds.min, w.max(h))
        };
        let side = (items as f64).sqrt().ceil().clamp(1.0, 4096.0);
        let cell = (extent / side).max(f64::MIN_POSITIVE);
        CellGrid { origin, inv_cell: 1.0 / cell, side: side as usize }
    }

    /// The number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.side * self.side
    }

    /// The column and row of the cell holding `p`.
    pub(crate) fn cell(&self, p: Point) -> (usize, usize) {
        // `as usize` truncates, which is the floor for the non-negative values, and saturates
        // the rest (negative and NaN to 0, as the floor would be clamped): no call to `floor`,
        // which is a library call on the baseline x86-64 target.
        let c = ((p.x - self.origin.x) * self.inv_cell) as usize;
        let r = ((p.y - self.origin.y) * self.inv_cell) as usize;
        (c.min(self.side - 1), r.min(self.side - 1))
    }

    /// The index of the cell in column `c` and row `r` (row by row).
    pub(crate) fn index(&self, (c, r): (usize, usize)) -> usize {
        r * self.side + c
    }

    /// The columns and rows `[c0, r0, c1, r1]` of the cells the box from `low` to `high`
    /// overlaps.
    pub(crate) fn span(&self, low: Point, high: Point) -> [usize; 4] {
        let ((c0, r0), (c1, r1)) = (self.cell(low), self.cell(high));
        [c0, r0, c1, r1]
    }
}

/// A set of points with payloads, bucketed in a [`CellGrid`] (compressed rows: the items of
/// cell `i` are `items[start[i]..start[i + 1]]`).
pub(crate) struct SegmentPoints<T> {
    grid: CellGrid,
    start: Vec<u32>,
    items: Vec<(Point, T)>,
}

impl<T: Copy> SegmentPoints<T> {
    /// Buckets `items`; about one point per cell.
    pub(crate) fn new(items: impl Iterator<Item = (Point, T)>) -> Self {
        let items: Vec<(Point, T)> = items.collect();
        let grid = CellGrid::over(Aabb::from_points(items.iter().map(|&(p, _)| p)), items.len());
        let mut start = vec![0; grid.cells() + 1];
        let cells: Vec<usize> = items.iter().map(|&(p, _)| grid.index(grid.cell(p))).collect();
        for &c in &cells {
            start[c + 1] += 1;
        }
        for i in 0..start.len() - 1 {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut sorted: Vec<Option<(Point, T)>> = vec![None; items.len()];
        for (item, c) in items.into_iter().zip(cells) {
            sorted[fill[c] as usize] = Some(item);
            fill[c] += 1;
        }
        let items = sorted.into_iter().map(|item| item.expect("every slot filled")).collect();
        SegmentPoints { grid, start, items }
    }

    /// The items of the cells the box from `low` to `high` overlaps, one slice per row of cells
    /// (read as nested loops: flattened into one iterator, the noding was 8% slower).
    fn rows_in_box(&self, low: Point, high: Point) -> impl Iterator<Item = &[(Point, T)]> {
        let [c0, r0, c1, r1] = self.grid.span(low, high);
        (r0..=r1).map(move |r| {
            let (first, last) = (self.grid.index((c0, r)), self.grid.index((c1, r)));
            &self.items[self.start[first] as usize..self.start[last + 1] as usize]
        })
    }

    /// The payloads of the points lying on segment `a b` strictly between its ends (exact
    /// predicate), ordered from `a` to `b`; a point stored twice is reported twice.
    pub(crate) fn strictly_inside(&self, a: Point, b: Point) -> Vec<T> {
        let (low, high) = (Point::new(a.x.min(b.x), a.y.min(b.y)), Point::new(a.x.max(b.x), a.y.max(b.y)));
        let mut found: Vec<(f64, T)> = Vec::new();
        for row in self.rows_in_box(low, high) {
            for &(p, payload) in row {
                if strictly_between(a, b, p) {
                    found.push(((p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y), payload));
                }
            }
        }
        found.sort_by(|x, y| x.0.total_cmp(&y.0));
        found.into_iter().map(|(_, payload)| payload).collect()
    }

    /// A point at another position than `a` and `b` within distance `margin` of segment `a b`,
    /// if there is one (the distance in floating point: `margin` must cover its rounding).
    pub(crate) fn any_near(&self, a: Point, b: Point, margin: f64) -> Option<T> {
        let low = Point::new(a.x.min(b.x) - margin, a.y.min(b.y) - margin);
        let high = Point::new(a.x.max(b.x) + margin, a.y.max(b.y) + margin);
        for row in self.rows_in_box(low, high) {
            for &(p, payload) in row {
                let in_box = (low.x <= p.x) & (p.x <= high.x) & (low.y <= p.y) & (p.y <= high.y);
                if !in_box || p == a || p == b {
                    continue;
                }
                let q = closest_point_on_segment(p, a, b);
                let (ex, ey) = (p.x - q.x, p.y - q.y);
                if ex * ex + ey * ey <= margin * margin {
                    return Some(payload);
                }
            }
        }
        None
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

/// Integer points marked in arrays over their bounding box (at most
/// [`LatticePoints::CELLS_PER_POINT`] cells a point), row by row and column by column: the
/// points strictly inside a horizontal or vertical segment between two of them are the marks
/// between its ends in one row or column, found by a byte search.
pub(crate) struct LatticePoints {
    min: (i64, i64),
    width: usize,
    rows: usize,
    /// One byte a cell, row by row; 1 where a point is.
    by_row: Vec<u8>,
    /// The same, column by column.
    by_column: Vec<u8>,
}

impl LatticePoints {
    /// Cells allowed per point: beyond that, searching the box costs more than bucketing.
    const CELLS_PER_POINT: usize = 64;

    /// The lattice of the points `points()` iterates, or `None` when one is not an integer (or
    /// not finite) or their box is too large.
    pub(crate) fn new<I: Iterator<Item = Point>>(points: impl Fn() -> I) -> Option<LatticePoints> {
        let (mut min, mut max, mut count) = ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN), 0usize);
        for p in points() {
            let (x, y) = (lattice_coordinate(p.x)?, lattice_coordinate(p.y)?);
            (min.0, min.1, max.0, max.1) = (min.0.min(x), min.1.min(y), max.0.max(x), max.1.max(y));
            count += 1;
        }
        if count == 0 {
            return None;
        }
        // Coordinates are within 2^53, so the sizes cannot overflow i64.
        let (width, rows) = (max.0 - min.0 + 1, max.1 - min.1 + 1);
        let limit = (count * Self::CELLS_PER_POINT).max(4096);
        if width.saturating_mul(rows) > limit as i64 {
            return None;
        }
        let (width, rows) = (width as usize, rows as usize);
        let mut lattice = LatticePoints {
            min,
            width,
            rows,
            by_row: vec![0; width * rows],
            by_column: vec![0; width * rows],
        };
        for p in points() {
            let (x, y) = lattice.column_and_row(p)?;
            lattice.by_row[y * width + x] = 1;
            lattice.by_column[x * rows + y] = 1;
        }
        Some(lattice)
    }

    /// `p`'s column and row, if `p` is a lattice point of the box.
    fn column_and_row(&self, p: Point) -> Option<(usize, usize)> {
        let (x, y) = (lattice_coordinate(p.x)? - self.min.0, lattice_coordinate(p.y)? - self.min.1);
        let inside = (0..self.width as i64).contains(&x) && (0..self.rows as i64).contains(&y);
        inside.then_some((x as usize, y as usize))
    }

    /// The marked points lying on segment `a b` strictly between its ends, ordered from `a` to
    /// `b`, when `a b` is horizontal or vertical with both ends lattice points of the box;
    /// `None` otherwise.
    pub(crate) fn strictly_inside(&self, a: Point, b: Point) -> Option<Vec<Point>> {
        let ((ax, ay), (bx, by)) = (self.column_and_row(a)?, self.column_and_row(b)?);
        let point =
            |x: usize, y: usize| Point::new((x as i64 + self.min.0) as f64, (y as i64 + self.min.1) as f64);
        let mut found: Vec<Point> = if ay == by {
            let (low, high) = (ax.min(bx), ax.max(bx));
            let between = &self.by_row[ay * self.width..][low + 1..high.max(low + 1)];
            memchr::memchr_iter(1, between).map(|i| point(low + 1 + i, ay)).collect()
        } else if ax == bx {
            let (low, high) = (ay.min(by), ay.max(by));
            let between = &self.by_column[ax * self.rows..][low + 1..high];
            memchr::memchr_iter(1, between).map(|i| point(ax, low + 1 + i)).collect()
        } else {
            return None;
        };
        if (ax, ay) > (bx, by) {
            found.reverse();
        }
        Some(found)
    }
}

/// `v` as an integer, if it is one within 2^53 (where every integer is an `f64`).
fn lattice_coordinate(v: f64) -> Option<i64> {
    const LIMIT: f64 = (1u64 << 53) as f64;
    (v.abs() <= LIMIT && (v as i64) as f64 == v).then_some(v as i64)
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

    #[test]
    fn the_lattice_finds_what_the_buckets_find_on_horizontal_and_vertical_segments() {
        let mut random = crate::generate::SplitMix64::new(17);
        let mut segments = 0;
        for _ in 0..200 {
            // Integer points (some repeated) in a box whose corner is not the origin.
            let points: Vec<Point> = (0..40)
                .map(|_| Point::new(random.below(30) as f64 - 5.0, random.below(20) as f64 + 3.0))
                .collect();
            let lattice = LatticePoints::new(|| points.iter().copied()).unwrap();
            let buckets = SegmentPoints::new(points.iter().map(|&p| (p, p)));
            for &a in &points {
                for &b in &points {
                    if a.x != b.x && a.y != b.y {
                        assert_eq!(lattice.strictly_inside(a, b), None);
                        continue;
                    }
                    let mut expected = buckets.strictly_inside(a, b);
                    expected.dedup();
                    assert_eq!(lattice.strictly_inside(a, b), Some(expected), "{a:?} {b:?}");
                    segments += 1;
                }
            }
        }
        assert!(segments > 20_000, "{segments}");
        // An end off the lattice's box, a point that is no integer, a box too large.
        let lattice =
            LatticePoints::new(|| [Point::new(0.0, 0.0), Point::new(4.0, 0.0)].into_iter()).unwrap();
        assert_eq!(lattice.strictly_inside(Point::new(0.0, 0.0), Point::new(5.0, 0.0)), None);
        assert!(LatticePoints::new(|| [Point::new(0.5, 0.0)].into_iter()).is_none());
        assert!(LatticePoints::new(|| [Point::new(0.0, 0.0), Point::new(1e4, 1e4)].into_iter()).is_none());
    }
}
