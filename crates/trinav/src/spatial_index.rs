//! A uniform grid over the mesh bounds for point location.
//!
//! Each cell lists, in ascending id order, the triangles whose bounding box overlaps it
//! (compressed-row layout: one offsets array, one items array). The grid is derived data: it is
//! rebuilt when a mesh is built or loaded, never stored in a file.

use crate::geometry::{Aabb, Point};
use crate::ids::TriangleId;

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
    cell_start: Vec<u32>,
    items: Vec<TriangleId>,
}

impl SpatialGrid {
    /// Builds the grid for `count` triangles inside `bounds`, the bounding box of triangle `t`
    /// being `triangle_box(t)`.
    pub(crate) fn build(bounds: Aabb, count: usize, triangle_box: impl Fn(usize) -> Aabb) -> SpatialGrid {
        if bounds.is_empty() || count == 0 {
            return SpatialGrid {
                origin: Point::default(),
                inv_cell_size: 1.0,
                cols: 0,
                rows: 0,
                cell_start: vec![0],
                items: Vec::new(),
            };
        }
        let (w, h) = bounds.size();
        let target_cells = (count as f64 * CELLS_PER_TRIANGLE).max(1.0);
        let mut cell_size = ((w * h) / target_cells).sqrt();
        if !(cell_size.is_finite() && cell_size > 0.0) {
            cell_size = w.max(h).max(f64::MIN_POSITIVE);
        }
        loop {
            match Self::with_cell_size(bounds, count, &triangle_box, cell_size) {
                Some(grid) => return grid,
                None => cell_size *= 2.0,
            }
        }
    }

    /// The grid with square cells of `cell_size`, or `None` when it would hold too many entries.
    fn with_cell_size(
        bounds: Aabb,
        count: usize,
        triangle_box: &impl Fn(usize) -> Aabb,
        cell_size: f64,
    ) -> Option<SpatialGrid> {
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
            cell_start: Vec::new(),
            items: Vec::new(),
        };
        let cells_of = |t: usize| {
            let b = triangle_box(t);
            let ((c0, r0), (c1, r1)) = (grid.cell_of(b.min), grid.cell_of(b.max));
            (c0, r0, c1, r1)
        };
        // Count the entries per cell with a 2D difference array: +1 at the first cell of each
        // triangle's rectangle of cells, -1 just past its corners, then prefix sums along rows
        // and columns. Linear in triangles plus cells, whatever the rectangles' sizes.
        let stride = cols + 1;
        let mut counts = vec![0i32; stride * (rows + 1)];
        let mut entries = 0usize;
        for t in 0..count {
            let (c0, r0, c1, r1) = cells_of(t);
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
        let mut cell_start = Vec::with_capacity(cell_count + 1);
        cell_start.push(0);
        let mut total = 0u32;
        for r in 0..rows {
            for c in 0..cols {
                total += counts[r * stride + c] as u32;
                cell_start.push(total);
            }
        }
        drop(counts);
        // Fill each cell in ascending triangle order.
        let mut items = vec![TriangleId::NONE; entries];
        let mut fill: Vec<u32> = cell_start[..cell_count].to_vec();
        for t in 0..count {
            let (c0, r0, c1, r1) = cells_of(t);
            for r in r0..=r1 {
                for slot in &mut fill[r * cols + c0..=r * cols + c1] {
                    items[*slot as usize] = TriangleId::from_index(t);
                    *slot += 1;
                }
            }
        }
        grid.cell_start = cell_start;
        grid.items = items;
        Some(grid)
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
        let cell = r * self.cols + c;
        &self.items[self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize]
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
        let cell = row * self.cols + col;
        &self.items[self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize]
    }

    /// Number of cells (for stats).
    pub(crate) fn cell_count(&self) -> usize {
        self.cols * self.rows
    }

    /// Number of (cell, triangle) entries (for stats).
    pub(crate) fn entry_count(&self) -> usize {
        self.items.len()
    }
}
