//! A uniform grid over the mesh bounds for point location.
//!
//! Each cell lists, in ascending id order, the triangles whose bounding box overlaps it: one
//! items array, and per cell the range of it holding the cell's list. A mesh built or loaded
//! gets its lists packed in cell order; a mesh changed in place ([`SpatialGrid::update`], for
//! [`NavMesh::apply_patch`](crate::NavMesh::apply_patch)) rewrites the lists of the cells a
//! change touches, in place when they fit and at the end of the items otherwise, and packs
//! them again once the dead entries outnumber the live ones. The grid is derived data: it is
//! rebuilt when a mesh is built or loaded, never stored in a file.

use crate::geometry::{Aabb, Point};
use crate::ids::{TriangleId, VertexId};

/// Cells per triangle the grid aims for.
const CELLS_PER_TRIANGLE: f64 = 1.0;
/// Largest allowed number of (cell, triangle) entries per triangle before the grid is coarsened:
/// bounds memory when long slivers cross many cells.
const MAX_ENTRIES_PER_TRIANGLE: usize = 16;

/// Uniform grid of triangle lists.
#[derive(Clone, Debug)]
pub(crate) struct SpatialGrid {
    origin: Point,
    inv_cell_size: f64,
    cols: usize,
    rows: usize,
    /// Per cell, the range of `items` holding its list.
    ranges: Vec<[u32; 2]>,
    items: Vec<TriangleId>,
    /// Entries of `items` no cell's range covers (left behind by [`SpatialGrid::update`]).
    dead: usize,
    /// The triangle count the cell size was chosen for.
    built_for: usize,
}

impl SpatialGrid {
    /// The box of `vertices` and the grid of `triangles` in it. Any input: a corner id out of
    /// range counts as a corner in the first cell (the load builds the grid while another
    /// thread checks the mesh, and drops it when a check fails).
    pub(crate) fn build_for(vertices: &[Point], triangles: &[[VertexId; 3]]) -> (Aabb, SpatialGrid) {
        let bounds = Aabb::from_points(vertices.iter().copied());
        (bounds, Self::build(bounds, vertices, triangles))
    }

    /// Builds the grid for `triangles` (corners in `vertices`) inside `bounds`, the box of all
    /// their corners.
    pub(crate) fn build(bounds: Aabb, vertices: &[Point], triangles: &[[VertexId; 3]]) -> SpatialGrid {
        let count = triangles.len();
        if bounds.is_empty() || count == 0 {
            return SpatialGrid {
                origin: Point::default(),
                inv_cell_size: 1.0,
                cols: 0,
                rows: 0,
                ranges: Vec::new(),
                items: Vec::new(),
                dead: 0,
                built_for: count,
            };
        }
        let (w, h) = bounds.size();
        let target_cells = (count as f64 * CELLS_PER_TRIANGLE).max(1.0);
        let mut cell_size = ((w * h) / target_cells).sqrt();
        if !(cell_size.is_finite() && cell_size > 0.0) {
            cell_size = w.max(h).max(f64::MIN_POSITIVE);
        }
        loop {
            match Self::with_cell_size(bounds, vertices, triangles, cell_size) {
                Some(grid) => return grid,
                None => cell_size *= 2.0,
            }
        }
    }

    /// The grid with square cells of `cell_size`, or `None` when it would hold too many entries.
    fn with_cell_size(
        bounds: Aabb,
        vertices: &[Point],
        triangles: &[[VertexId; 3]],
        cell_size: f64,
    ) -> Option<SpatialGrid> {
        let count = triangles.len();
        let (w, h) = bounds.size();
        let cols = ((w / cell_size).ceil() as usize).clamp(1, 1 << 16);
        let rows = ((h / cell_size).ceil() as usize).clamp(1, 1 << 16);
        let cell_count = cols.checked_mul(rows)?;
        if cell_count > count.saturating_mul(4).saturating_add(16) {
            return None;
        }
        let mut grid = SpatialGrid {
            origin: bounds.min,
            inv_cell_size: 1.0 / cell_size,
            cols,
            rows,
            ranges: Vec::new(),
            items: Vec::new(),
            dead: 0,
            built_for: count,
        };
        let rects = grid.cell_rectangles(vertices, triangles);
        // Count the entries per cell with a 2D difference array: +1 at the first cell of each
        // triangle's rectangle of cells, -1 just past its corners, then prefix sums along rows
        // and columns. Linear in triangles plus cells, whatever the rectangles' sizes.
        let stride = cols + 1;
        let mut counts = vec![0i32; stride * (rows + 1)];
        let mut entries = 0usize;
        for rect in &rects {
            let [c0, r0, c1, r1] = rect.map(usize::from);
            entries += (c1 - c0 + 1) * (r1 - r0 + 1);
            counts[r0 * stride + c0] += 1;
            counts[r0 * stride + c1 + 1] -= 1;
            counts[(r1 + 1) * stride + c0] -= 1;
            counts[(r1 + 1) * stride + c1 + 1] += 1;
        }
        if entries > count.saturating_mul(MAX_ENTRIES_PER_TRIANGLE) {
            return None;
        }
        for r in 0..rows {
            for c in 0..cols {
                let i = r * stride + c;
                counts[i + 1] += counts[i];
            }
        }
        for r in 0..rows {
            for c in 0..cols {
                let i = r * stride + c;
                counts[i + stride] += counts[i];
            }
        }
        // Each cell's range of the item array, empty at first and then filled in ascending
        // triangle order (ranges rather than starts: a changed mesh rewrites cells in place).
        let mut ranges = Vec::with_capacity(cell_count);
        let mut total = 0u32;
        for r in 0..rows {
            for c in 0..cols {
                let start = total;
                total += counts[r * stride + c] as u32;
                ranges.push([start, start]);
            }
        }
        drop(counts);
        let mut items = vec![TriangleId::NONE; entries];
        for (t, rect) in rects.iter().enumerate() {
            // One loop over the rectangle's cells, row by row, wrapping without a branch: the
            // rectangles' widths vary, and an inner loop per row would end in a mispredicted
            // branch on most rows.
            let [c0, r0, c1, r1] = rect.map(usize::from);
            let (mut c, mut row) = (c0, r0 * cols);
            for _ in 0..(c1 - c0 + 1) * (r1 - r0 + 1) {
                let range = &mut ranges[row + c];
                items[range[1] as usize] = TriangleId::from_index(t);
                range[1] += 1;
                let wrap = c == c1;
                c = if wrap { c0 } else { c + 1 };
                row += if wrap { cols } else { 0 };
            }
        }
        grid.ranges = ranges;
        grid.items = items;
        Some(grid)
    }

    /// Each triangle's rectangle of cells `[c0, r0, c1, r1]`: the cells its bounding box
    /// overlaps. Columns and rows are below 2^16, so a rectangle fits in four `u16`. The cell of
    /// a point is monotone in each coordinate, so the cells of the box's corners are the least
    /// and greatest of the corners' cells: each vertex's cell is computed once, not once per
    /// triangle round it.
    fn cell_rectangles(&self, vertices: &[Point], triangles: &[[VertexId; 3]]) -> Vec<[u16; 4]> {
        let cells: Vec<[u16; 2]> = vertices
            .iter()
            .map(|&p| {
                let (c, r) = self.cell_of(p);
                [c as u16, r as u16]
            })
            .collect();
        triangles
            .iter()
            .map(|tri| {
                let [a, b, c] = tri.map(|v| cells.get(v.index()).copied().unwrap_or_default());
                [
                    a[0].min(b[0]).min(c[0]),
                    a[1].min(b[1]).min(c[1]),
                    a[0].max(b[0]).max(c[0]),
                    a[1].max(b[1]).max(c[1]),
                ]
            })
            .collect()
    }

    /// The (column, row) of the cell holding `p`, clamped to the grid.
    #[inline]
    fn cell_of(&self, p: Point) -> (usize, usize) {
        let cx = (p.x - self.origin.x) * self.inv_cell_size;
        let cy = (p.y - self.origin.y) * self.inv_cell_size;
        // `as usize` truncates, which is the floor for the non-negative values that matter, and
        // saturates: negative and NaN become 0 (clamped to the first cell, as the floor would).
        let c = (cx as usize).min(self.cols.saturating_sub(1));
        let r = (cy as usize).min(self.rows.saturating_sub(1));
        (c, r)
    }

    /// The triangles whose bounding box overlaps the cell of `p`, in ascending id order. The
    /// caller checks that `p` lies inside the grid bounds.
    #[inline]
    pub(crate) fn candidates(&self, p: Point) -> &[TriangleId] {
        if self.cols == 0 {
            return &[];
        }
        let (c, r) = self.cell_of(p);
        self.cell_items(c, r)
    }

    /// Side length of a cell.
    pub(crate) fn cell_size(&self) -> f64 {
        1.0 / self.inv_cell_size
    }

    /// The (column, row) of the cell nearest to `p` (`p` clamped to the grid).
    pub(crate) fn nearest_cell(&self, p: Point) -> (usize, usize) {
        self.cell_of(p)
    }

    /// The triangles listed in cell (`col`, `row`), in ascending id order.
    #[inline]
    pub(crate) fn cell_items(&self, col: usize, row: usize) -> &[TriangleId] {
        let [start, end] = self.ranges[row * self.cols + col];
        &self.items[start as usize..end as usize]
    }

    /// The triangles listed in cell number `cell` (row-major), in ascending id order.
    #[inline]
    pub(crate) fn cell_items_at(&self, cell: u32) -> &[TriangleId] {
        let [start, end] = self.ranges[cell as usize];
        &self.items[start as usize..end as usize]
    }

    /// The number (row-major) of the cell holding `p`, clamped to the grid.
    pub(crate) fn cell_index(&self, p: Point) -> u32 {
        let (c, r) = self.cell_of(p);
        (r * self.cols + c) as u32
    }

    /// Number of cells (for stats).
    pub(crate) fn cell_count(&self) -> usize {
        self.cols * self.rows
    }

    /// Number of (cell, triangle) entries (for stats).
    pub(crate) fn entry_count(&self) -> usize {
        self.items.len() - self.dead
    }

    /// The index of every cell a box overlaps (clamped to the grid), row by row.
    pub(crate) fn cells_of_box(&self, b: Aabb) -> impl Iterator<Item = u32> + use<> {
        let ((c0, r0), (c1, r1)) =
            if self.cols == 0 { ((1, 1), (0, 0)) } else { (self.cell_of(b.min), self.cell_of(b.max)) };
        let cols = self.cols;
        (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| (r * cols + c) as u32))
    }

    /// Whether the grid should be built again for a mesh of `count` triangles in `bounds`: its
    /// cells no longer cover the mesh, or were sized for a triangle count more than twice as
    /// large or small.
    pub(crate) fn is_stale(&self, bounds: Aabb, count: usize) -> bool {
        let covered = Aabb {
            min: self.origin,
            max: Point::new(
                self.origin.x + self.cols as f64 * self.cell_size(),
                self.origin.y + self.rows as f64 * self.cell_size(),
            ),
        };
        let inside = bounds.is_empty() || (covered.contains(bounds.min) && covered.contains(bounds.max));
        !inside || count > self.built_for.saturating_mul(2) || count.saturating_mul(2) < self.built_for
    }

    /// Applies `changes`, each `(cell, triangle, added)`: the triangle enters the cell's list
    /// (`added`) or leaves it. Every list stays in ascending id order. Adds each cell changed
    /// to `written`, once.
    pub(crate) fn update(&mut self, changes: &[(u32, TriangleId, bool)], written: &mut Vec<u32>) {
        // Sorted as tuples, each packed into one number (triangle ids are below 2^31): plain
        // integers sort faster than keys computed at each comparison.
        let mut keys: Vec<u64> = (changes.iter())
            .map(|&(cell, t, added)| (u64::from(cell) << 32) | (u64::from(t.0) << 1) | u64::from(added))
            .collect();
        keys.sort_unstable();
        let triangle = |key: u64| TriangleId((key as u32) >> 1);
        let mut list: Vec<TriangleId> = Vec::new();
        for group in keys.chunk_by(|a, b| a >> 32 == b >> 32) {
            let cell = (group[0] >> 32) as usize;
            let [start, end] = self.ranges[cell];
            // The group is sorted by triangle, so the leaving and the entering triangles come
            // in ascending order, as the list does: one merge.
            let mut leaving = group.iter().filter(|&&k| k & 1 == 0).map(|&k| triangle(k)).peekable();
            let mut entering = group.iter().filter(|&&k| k & 1 == 1).map(|&k| triangle(k)).peekable();
            list.clear();
            for &t in &self.items[start as usize..end as usize] {
                while leaving.next_if(|&u| u < t).is_some() {}
                if leaving.next_if_eq(&t).is_some() {
                    continue;
                }
                while let Some(u) = entering.next_if(|&u| u < t) {
                    list.push(u);
                }
                list.push(t);
            }
            list.extend(entering);
            self.write_list(cell, &list);
            written.push(cell as u32);
        }
        self.pack_if_sparse();
    }

    /// Makes the lists of `cells` those of `other` (a grid of the same cells): brings a copy
    /// of a grid up to date after [`SpatialGrid::update`] changed those cells of `other`.
    pub(crate) fn copy_lists(&mut self, other: &SpatialGrid, cells: &[u32]) {
        for &cell in cells {
            self.write_list(cell as usize, other.cell_items_at(cell));
        }
        self.pack_if_sparse();
    }

    /// Replaces the list of `cell` with `list`: in place when it fits, else at the end.
    fn write_list(&mut self, cell: usize, list: &[TriangleId]) {
        let [start, end] = self.ranges[cell];
        let old_len = (end - start) as usize;
        if list.len() <= old_len {
            self.items[start as usize..start as usize + list.len()].copy_from_slice(list);
            self.ranges[cell] = [start, start + list.len() as u32];
            self.dead += old_len - list.len();
        } else {
            let new_start = self.items.len() as u32;
            crate::patch::reserve_headroom(&mut self.items, list.len());
            self.items.extend_from_slice(list);
            self.ranges[cell] = [new_start, self.items.len() as u32];
            self.dead += old_len;
        }
    }

    /// Packs the lists when more than half the entries are dead.
    fn pack_if_sparse(&mut self) {
        if self.dead > 1024 && self.dead > self.items.len() / 2 {
            self.pack();
        }
    }

    /// Packs the lists in cell order, dropping the dead entries.
    fn pack(&mut self) {
        let mut items = Vec::with_capacity(self.items.len() - self.dead);
        for range in &mut self.ranges {
            let start = items.len() as u32;
            items.extend_from_slice(&self.items[range[0] as usize..range[1] as usize]);
            *range = [start, items.len() as u32];
        }
        self.items = items;
        self.dead = 0;
    }

    /// Whether the lists are exactly those a triangle's box gives: every triangle listed,
    /// once, in each cell its box overlaps and in no other, each list in ascending order. For
    /// checking in-place updates.
    pub(crate) fn lists_match(&self, count: usize, triangle_box: impl Fn(usize) -> Aabb) -> bool {
        let mut expected: Vec<Vec<TriangleId>> = vec![Vec::new(); self.ranges.len()];
        for t in 0..count {
            for cell in self.cells_of_box(triangle_box(t)) {
                expected[cell as usize].push(TriangleId::from_index(t));
            }
        }
        let used: usize = self.ranges.iter().map(|[s, e]| (e - s) as usize).sum();
        used + self.dead == self.items.len()
            && (0..self.ranges.len()).all(|cell| {
                let [s, e] = self.ranges[cell];
                self.items[s as usize..e as usize] == expected[cell][..]
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    /// Grids built from each vertex's cell list every triangle in exactly the cells its
    /// bounding box overlaps (the box-based lists are the oracle), on random triangle soups:
    /// slivers, long triangles, points on cell borders, tiny and huge extents.
    #[test]
    fn vertex_cell_rectangles_give_the_box_lists() {
        let mut rng = Pcg64::seed_from_u64(16);
        for round in 0..400 {
            let scale = [1e-6, 1.0, 37.5, 1e9][round % 4];
            let vertex_count = rng.random_range(3..120);
            let vertices: Vec<Point> = (0..vertex_count)
                .map(|_| {
                    // Coarse coordinates on some rounds, so many points fall on cell borders.
                    let (x, y) = if round % 3 == 0 {
                        (rng.random_range(0..16) as f64, rng.random_range(0..5) as f64)
                    } else {
                        (rng.random::<f64>(), rng.random::<f64>())
                    };
                    Point::new(x * scale, y * scale)
                })
                .collect();
            let triangles: Vec<[VertexId; 3]> = (0..rng.random_range(1..200))
                .map(|_| [(); 3].map(|_| VertexId::from_index(rng.random_range(0..vertex_count))))
                .collect();
            let bounds = Aabb::from_points(vertices.iter().copied());
            let grid = SpatialGrid::build(bounds, &vertices, &triangles);
            let triangle_box = |t: usize| Aabb::from_points(triangles[t].map(|v| vertices[v.index()]));
            assert!(grid.lists_match(triangles.len(), triangle_box), "round {round}");
        }
    }
}
