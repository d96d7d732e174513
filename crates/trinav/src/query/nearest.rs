//! The closest walkable point to any point, through the grid.

use crate::geometry::Point;
use crate::ids::TriangleId;
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
        if !p.in_range() || self.triangle_count() == 0 {
            return None;
        }
        if let Some(t) = self.locate(p) {
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
                for &t in self.grid.cell_items(c, r) {
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

/// The point of the closed triangle `[a, b, c]` closest to `p` (Ericson, Real-Time Collision
/// Detection, 5.1.5: Voronoi regions of the corners, then of the edges, else the inside).
pub fn closest_point_on_triangle(p: Point, [a, b, c]: [Point; 3]) -> Point {
    let sub = |u: Point, v: Point| (u.x - v.x, u.y - v.y);
    let dot = |u: (f64, f64), v: (f64, f64)| u.0 * v.0 + u.1 * v.1;
    let at = |base: Point, dir: (f64, f64), s: f64| Point::new(base.x + dir.0 * s, base.y + dir.1 * s);
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(p, a));
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = sub(p, b);
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return at(a, ab, d1 / (d1 - d3));
    }
    let cp = sub(p, c);
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return at(a, ac, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return at(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    // Inside: `p` itself (the caller handles points on the mesh before this).
    let denom = 1.0 / (va + vb + vc);
    let (v, w) = (vb * denom, vc * denom);
    Point::new(a.x + ab.0 * v + ac.0 * w, a.y + ab.1 * v + ac.1 * w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_point_regions() {
        let tri = [Point::new(0.0, 0.0), Point::new(4.0, 0.0), Point::new(0.0, 4.0)];
        assert_eq!(closest_point_on_triangle(Point::new(-1.0, -1.0), tri), tri[0]);
        assert_eq!(closest_point_on_triangle(Point::new(6.0, -1.0), tri), tri[1]);
        assert_eq!(closest_point_on_triangle(Point::new(2.0, -3.0), tri), Point::new(2.0, 0.0));
        assert_eq!(closest_point_on_triangle(Point::new(-3.0, 1.0), tri), Point::new(0.0, 1.0));
        assert_eq!(closest_point_on_triangle(Point::new(3.0, 3.0), tri), Point::new(2.0, 2.0));
        let inside = closest_point_on_triangle(Point::new(1.0, 1.0), tri);
        assert!((inside.x - 1.0).abs() < 1e-15 && (inside.y - 1.0).abs() < 1e-15);
    }

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
