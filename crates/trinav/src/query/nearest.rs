//! The closest walkable point to any point, through the grid.

use crate::geometry::{Point, closest_point_on_triangle};
use crate::ids::{IslandId, TriangleId};
use crate::mesh::NavMesh;

impl NavMesh {
    /// The point of the walkable area closest to `p`, with the triangle it belongs to; `p`
    /// itself when it is on the mesh. `None` for an empty mesh, or a `p` that is not finite or
    /// beyond ±[`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
    ///
    /// A point projected onto an edge is computed in floating point, so it may lie a rounding
    /// error (around 1e-15 relative) outside its triangle: [`NavMesh::locate`] may not find it,
    /// and path queries that snap use the triangle returned here.
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
        self.nearest_point_where(p, |_| true)
    }

    /// The point of island `island` closest to `p`, with the triangle it belongs to; `p`
    /// itself when it is on that island. `None` when the island does not exist, or for a `p`
    /// that is not finite or out of range. Same search and precision as
    /// [`NavMesh::nearest_point`]; the farther the island from `p`, the more grid cells it
    /// visits.
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
        self.nearest_point_where(p, |t| self.island(t) == island)
    }

    /// The point closest to `p` of the triangles for which `allowed` holds.
    pub(crate) fn nearest_point_where(
        &self,
        p: Point,
        allowed: impl Fn(TriangleId) -> bool,
    ) -> Option<(Point, TriangleId)> {
        if !p.in_range() || self.triangle_count() == 0 {
            return None;
        }
        if let Some(t) = self.locate_all(p).find(|&t| allowed(t)) {
            return Some((p, t));
        }
        let (cols, rows) = self.grid.dimensions();
        let (c0, r0) = self.grid.nearest_cell(p);
        let cell = self.grid.cell_size();
        let mut best: Option<(f64, Point, TriangleId)> = None;
        let max_ring = cols.max(rows);
        for ring in 0..=max_ring {
            // Every cell of this ring is at least (ring - 1) cells away from `p` (or from its
            // projection onto the grid, which is no farther from any cell).
            if let Some((d2, ..)) = best {
                let reach = (ring as f64 - 1.0) * cell;
                if reach > 0.0 && reach * reach > d2 {
                    break;
                }
            }
            for (c, r) in ring_cells(c0, r0, ring, cols, rows) {
                for &t in self.grid.cell_items(c, r).iter().filter(|&&t| allowed(t)) {
                    let q = closest_point_on_triangle(p, self.triangle_points(t));
                    let d2 = (q.x - p.x).powi(2) + (q.y - p.y).powi(2);
                    if best.is_none_or(|(best_d2, _, best_t)| d2 < best_d2 || (d2 == best_d2 && t < best_t)) {
                        best = Some((d2, q, t));
                    }
                }
            }
        }
        best.map(|(_, q, t)| (q, t))
    }
}

/// The cells at Chebyshev distance exactly `ring` from (`c0`, `r0`), clipped to the grid.
fn ring_cells(
    c0: usize,
    r0: usize,
    ring: usize,
    cols: usize,
    rows: usize,
) -> impl Iterator<Item = (usize, usize)> {
    let (c0, r0, ring) = (c0 as isize, r0 as isize, ring as isize);
    let inside = move |(c, r): (isize, isize)| c >= 0 && r >= 0 && (c as usize) < cols && (r as usize) < rows;
    let row_count = if ring == 0 { 1 } else { 2 };
    let top_bottom = (-ring..=ring)
        .flat_map(move |dc| [-ring, ring].into_iter().take(row_count).map(move |dr| (c0 + dc, r0 + dr)));
    let sides = (-ring + 1..ring).flat_map(move |dr| [(c0 - ring, r0 + dr), (c0 + ring, r0 + dr)]);
    top_bottom.chain(sides).filter(move |&cell| inside(cell)).map(|(c, r)| (c as usize, r as usize))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_cells_cover_each_cell_once() {
        let (cols, rows) = (5, 4);
        let mut seen = vec![0; cols * rows];
        for ring in 0..6 {
            for (c, r) in ring_cells(1, 2, ring, cols, rows) {
                seen[r * cols + c] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }
}
