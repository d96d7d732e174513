//! The closest walkable point to any point, through the grid.

use crate::geometry::{Aabb, Point, closest_point_on_triangle};
use crate::ids::{IslandId, TriangleId};
use crate::mesh::NavMesh;

impl NavMesh {
    /// The point of the walkable area closest to `p`, with the triangle it belongs to; `p`
    /// itself when it is on the mesh. `None` for an empty mesh, or a `p` that is not finite or
    /// beyond ±[`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
    ///
    /// The point returned always lies in the triangle returned (exact test), so
    /// [`NavMesh::locate`] finds it and a path can start there: where the exact nearest point
    /// (on an edge, in general not representable) rounds to just outside, it is pulled into the
    /// triangle by the least floating-point step that gets it there (a few ulps, about 1e-15
    /// relative).
    ///
    /// Searches the grid in square rings of cells around `p` and stops once no unvisited cell
    /// can hold a closer point, so the cost depends on the distance to the mesh, not on its
    /// size.
    ///
    /// ```
    /// # use trinav::{NavMesh, Point};
    /// # fn demo(mesh: &NavMesh) {
    /// let p = Point::new(-5.0, 2.0);
    /// let (q, t) = mesh.nearest_point(p).unwrap();
    /// assert!(q.distance(p) <= p.distance(mesh.triangle_points(t)[0]));
    /// # }
    /// ```
    pub fn nearest_point(&self, p: Point) -> Option<(Point, TriangleId)> {
        self.nearest_point_where(p, |_| true, self.bounds())
    }

    /// The point of island `island` closest to `p`, with the triangle it belongs to; `p`
    /// itself when it is on that island. `None` when the island does not exist, or for a `p`
    /// that is not finite or out of range. Same search and precision as
    /// [`NavMesh::nearest_point`], limited to the grid cells of the island's bounding box.
    ///
    /// ```
    /// # use trinav::{NavMesh, Point};
    /// # fn demo(mesh: &NavMesh, start: Point, goal: Point) {
    /// // Where an agent at `start` can get nearest to `goal`.
    /// let island = mesh.island(mesh.locate(start).unwrap());
    /// let (closest, t) = mesh.nearest_point_on_island(goal, island).unwrap();
    /// assert_eq!(mesh.island(t), island);
    /// # }
    /// ```
    pub fn nearest_point_on_island(&self, p: Point, island: IslandId) -> Option<(Point, TriangleId)> {
        self.nearest_point_where(p, |t| self.island(t) == island, self.island_bounds(island))
    }

    /// The point closest to `p` of the triangles for which `allowed` holds, all of which lie
    /// in `region`.
    pub(crate) fn nearest_point_where(
        &self,
        p: Point,
        allowed: impl Fn(TriangleId) -> bool,
        region: Aabb,
    ) -> Option<(Point, TriangleId)> {
        if !p.in_range() || self.triangle_count() == 0 || region.is_empty() {
            return None;
        }
        if let Some(t) = self.locate_all(p).find(|&t| allowed(t)) {
            return Some((p, t));
        }
        let (c0, r0) = self.grid.nearest_cell(p);
        let cell = self.grid.cell_size();
        // The cells that can hold an allowed triangle, and the rings around `p`'s cell that
        // meet them.
        let cells = CellRange::new(self.grid.nearest_cell(region.min), self.grid.nearest_cell(region.max));
        let (first_ring, last_ring) = cells.rings_from(c0, r0);
        let mut best: Option<(f64, Point, TriangleId)> = None;
        for ring in first_ring..=last_ring {
            // Every cell of this ring is at least (ring - 1) cells away from `p` (or from its
            // projection onto the grid, which is no farther from any cell).
            if let Some((d2, ..)) = best {
                let reach = (ring as f64 - 1.0) * cell;
                if reach > 0.0 && reach * reach > d2 {
                    break;
                }
            }
            for (c, r) in ring_cells(c0, r0, ring, cells) {
                for &t in self.grid.cell_items(c, r).iter().filter(|&&t| allowed(t)) {
                    let q = closest_point_on_triangle(p, self.triangle_points(t));
                    let d2 = (q.x - p.x).powi(2) + (q.y - p.y).powi(2);
                    if best.is_none_or(|(best_d2, _, best_t)| d2 < best_d2 || (d2 == best_d2 && t < best_t)) {
                        best = Some((d2, q, t));
                    }
                }
            }
        }
        best.map(|(_, q, t)| (self.pull_into(t, q), t))
    }

    /// `q`, a rounding error from triangle `t`, moved towards `t`'s centroid by the smallest
    /// doubling step (from one machine epsilon of the way) that puts it in `t` (exact test); for
    /// a triangle too thin for that, its corner nearest `q`.
    fn pull_into(&self, t: TriangleId, q: Point) -> Point {
        if self.triangle_contains(t, q) {
            return q;
        }
        let [a, b, c] = self.triangle_points(t);
        let centroid = Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
        let mut step = f64::EPSILON;
        while step < 1.0 {
            let moved = Point::new(q.x + (centroid.x - q.x) * step, q.y + (centroid.y - q.y) * step);
            if self.triangle_contains(t, moved) {
                return moved;
            }
            step *= 2.0;
        }
        [a, b, c].into_iter().min_by(|u, v| u.distance(q).total_cmp(&v.distance(q))).expect("three corners")
    }
}

/// A rectangle of grid cells, inclusive.
#[derive(Clone, Copy, Debug)]
struct CellRange {
    lo: (usize, usize),
    hi: (usize, usize),
}

impl CellRange {
    fn new(lo: (usize, usize), hi: (usize, usize)) -> Self {
        CellRange { lo, hi }
    }

    fn contains(&self, (c, r): (isize, isize)) -> bool {
        c >= self.lo.0 as isize
            && c <= self.hi.0 as isize
            && r >= self.lo.1 as isize
            && r <= self.hi.1 as isize
    }

    /// The first and last rings around cell (`c0`, `r0`) (Chebyshev distances) that meet the
    /// range.
    fn rings_from(&self, c0: usize, r0: usize) -> (usize, usize) {
        let gap = |v: usize, lo: usize, hi: usize| lo.saturating_sub(v).max(v.saturating_sub(hi));
        let far = |v: usize, lo: usize, hi: usize| v.abs_diff(lo).max(v.abs_diff(hi));
        let first = gap(c0, self.lo.0, self.hi.0).max(gap(r0, self.lo.1, self.hi.1));
        let last = far(c0, self.lo.0, self.hi.0).max(far(r0, self.lo.1, self.hi.1));
        (first, last)
    }
}

/// The cells at Chebyshev distance exactly `ring` from (`c0`, `r0`) that lie in `range`.
fn ring_cells(c0: usize, r0: usize, ring: usize, range: CellRange) -> impl Iterator<Item = (usize, usize)> {
    let (c0, r0, ring) = (c0 as isize, r0 as isize, ring as isize);
    let row_count = if ring == 0 { 1 } else { 2 };
    let top_bottom = (-ring..=ring)
        .flat_map(move |dc| [-ring, ring].into_iter().take(row_count).map(move |dr| (c0 + dc, r0 + dr)));
    let sides = (-ring + 1..ring).flat_map(move |dr| [(c0 - ring, r0 + dr), (c0 + ring, r0 + dr)]);
    top_bottom.chain(sides).filter(move |&cell| range.contains(cell)).map(|(c, r)| (c as usize, r as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_cells_cover_each_cell_once() {
        let (cols, rows) = (5, 4);
        let mut seen = vec![0; cols * rows];
        for ring in 0..6 {
            for (c, r) in ring_cells(1, 2, ring, CellRange::new((0, 0), (cols - 1, rows - 1))) {
                seen[r * cols + c] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
        // A part of the grid, from a cell outside it: only its rings, each cell once.
        let part = CellRange::new((3, 1), (4, 2));
        let (first, last) = part.rings_from(0, 3);
        assert_eq!((first, last), (3, 4));
        let mut cells: Vec<(usize, usize)> =
            (first..=last).flat_map(|ring| ring_cells(0, 3, ring, part)).collect();
        cells.sort();
        assert_eq!(cells, [(3, 1), (3, 2), (4, 1), (4, 2)]);
    }
}
