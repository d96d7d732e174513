//! A map from exact point positions to `u32` values: the weld's vertex ids and the verify
//! stage's ring occurrences. Points equal as [`position_key`]s share an entry (`-0.0` is
//! `0.0`), nothing is rounded.
//!
//! When every point is an integer inside a box of at most a few lattice points per point (a
//! grid map's cell corners), the table is a plain array indexed by lattice position: no hashing,
//! and neighbouring points share cache lines. Any other set of points uses a hash map.

use foldhash::{HashMap, HashMapExt};

use trinav::Point;
use trinav::build::position_key;

/// Lattice points allowed per point before the table falls back to hashing.
const LATTICE_POINTS_PER_POINT: usize = 16;

/// Exact positions to `u32` values (see the module doc).
pub(crate) enum PointTable {
    /// Every key is an integer point of the box `min` + `[0, width) x [0, rows)`; the value of
    /// lattice point (x, y) is at `(y - min.y) * width + (x - min.x)`, `u32::MAX` when absent.
    Lattice { min: Point, width: usize, rows: usize, values: Vec<u32> },
    /// Any other points.
    Hashed(HashMap<(u64, u64), u32>),
}

impl PointTable {
    /// An empty table for (at most) the points `points`, which it sizes itself by.
    pub(crate) fn for_points(points: impl Iterator<Item = Point> + Clone) -> PointTable {
        let count = points.clone().count();
        let (mut min, mut max) =
            (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        let mut integers = true;
        for p in points {
            integers &= is_integer(p.x) && is_integer(p.y);
            (min.x, min.y, max.x, max.y) = (min.x.min(p.x), min.y.min(p.y), max.x.max(p.x), max.y.max(p.y));
        }
        let limit = (count * LATTICE_POINTS_PER_POINT).max(4096) as f64;
        let (width, rows) = (max.x - min.x + 1.0, max.y - min.y + 1.0);
        // `integers` also says every point is finite.
        if count > 0 && integers && width * rows <= limit {
            let (width, rows) = (width as usize, rows as usize);
            return PointTable::Lattice { min, width, rows, values: vec![u32::MAX; width * rows] };
        }
        PointTable::Hashed(HashMap::with_capacity(count))
    }

    /// The slot of `p` in a lattice table, if `p` is one of its lattice points.
    #[inline(always)]
    fn slot(min: Point, width: usize, rows: usize, p: Point) -> Option<usize> {
        let (dx, dy) = (p.x - min.x, p.y - min.y);
        if !(dx >= 0.0 && dy >= 0.0 && dx < width as i64 as f64 && dy < rows as i64 as f64) {
            return None;
        }
        // Through i64 (in range after the test above): one instruction each way, where the
        // conversions to and from usize take several.
        let (x, y) = (dx as i64, dy as i64);
        (x as f64 == dx && y as f64 == dy).then_some(y as usize * width + x as usize)
    }

    /// The value of `p`, if any.
    #[inline(always)]
    pub(crate) fn get(&self, p: Point) -> Option<u32> {
        match self {
            PointTable::Lattice { min, width, rows, values } => {
                Self::slot(*min, *width, *rows, p).map(|i| values[i]).filter(|&v| v != u32::MAX)
            }
            PointTable::Hashed(map) => map.get(&position_key(p)).copied(),
        }
    }

    /// The value of `p`, inserting `make()` first if it has none. `p` must be one of the points
    /// the table was made for.
    #[inline]
    pub(crate) fn get_or_insert_with(&mut self, p: Point, make: impl FnOnce() -> u32) -> u32 {
        match self {
            PointTable::Lattice { min, width, rows, values } => {
                let i = Self::slot(*min, *width, *rows, p).expect("a point the table was made for");
                if values[i] == u32::MAX {
                    values[i] = make();
                }
                values[i]
            }
            PointTable::Hashed(map) => *map.entry(position_key(p)).or_insert_with(make),
        }
    }

    /// Sets the value of `p` to `value`, returning its previous one. `p` must be one of the
    /// points the table was made for, and `value` not `u32::MAX`.
    #[inline]
    pub(crate) fn insert(&mut self, p: Point, value: u32) -> Option<u32> {
        match self {
            PointTable::Lattice { min, width, rows, values } => {
                let i = Self::slot(*min, *width, *rows, p).expect("a point the table was made for");
                Some(std::mem::replace(&mut values[i], value)).filter(|&v| v != u32::MAX)
            }
            PointTable::Hashed(map) => map.insert(position_key(p), value),
        }
    }
}

/// Whether `v` is a whole number of `i64`'s range (a cast and a comparison: `f64::fract` is a
/// library call on the baseline x86-64 target).
#[inline]
fn is_integer(v: f64) -> bool {
    (v as i64) as f64 == v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both kinds of table give the same answers: exact positions, `-0.0` as `0.0`, absent
    /// points absent.
    #[test]
    fn lattice_and_hashed_tables_agree() {
        let grid: Vec<Point> =
            (0..40).map(|i| Point::new((i % 7) as f64 - 3.0, (i / 7) as f64 - 0.0)).collect();
        let lattice = PointTable::for_points(grid.iter().copied());
        assert!(matches!(lattice, PointTable::Lattice { .. }));
        let mut decimals = grid.clone();
        decimals.push(Point::new(0.5, 0.0));
        let hashed = PointTable::for_points(decimals.iter().copied());
        assert!(matches!(hashed, PointTable::Hashed(_)));
        for mut table in [lattice, hashed] {
            for (i, &p) in grid.iter().enumerate().step_by(2) {
                assert_eq!(table.insert(p, i as u32), None);
            }
            assert_eq!(table.get_or_insert_with(Point::new(-0.0, 0.0), || 99), 99);
            assert_eq!(table.get(Point::new(0.0, -0.0)), Some(99));
            assert_eq!(table.insert(grid[2], 7), Some(2));
            for (i, &p) in grid.iter().enumerate() {
                let expected = match i {
                    2 => Some(7),
                    _ if p == Point::new(0.0, 0.0) => Some(99),
                    _ if i % 2 == 0 => Some(i as u32),
                    _ => None,
                };
                assert_eq!(table.get(p), expected, "{p:?}");
            }
            for absent in [
                Point::new(0.5, 0.0),
                Point::new(100.0, 0.0),
                Point::new(-4.0, 1.0),
                Point::new(f64::NAN, 0.0),
            ] {
                assert_eq!(table.get(absent), None);
            }
        }
    }

    #[test]
    fn sparse_or_huge_points_are_hashed() {
        let far = [Point::new(0.0, 0.0), Point::new(1e6, 1e6)];
        assert!(matches!(PointTable::for_points(far.iter().copied()), PointTable::Hashed(_)));
        let huge = [Point::new(0.0, 0.0), Point::new(f64::MAX, 0.0)];
        assert!(matches!(PointTable::for_points(huge.iter().copied()), PointTable::Hashed(_)));
        assert!(matches!(PointTable::for_points(std::iter::empty()), PointTable::Hashed(_)));
    }
}
