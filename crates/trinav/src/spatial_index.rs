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
    /// Builds the grid for triangles with the given bounding boxes inside `bounds`.
    pub(crate) fn build(bounds: Aabb, triangle_boxes: &[Aabb]) -> SpatialGrid {
        if bounds.is_empty() || triangle_boxes.is_empty() {
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
        let target_cells = (triangle_boxes.len() as f64 * CELLS_PER_TRIANGLE).max(1.0);
        let mut cell_size = ((w * h) / target_cells).sqrt();
        if !(cell_size.is_finite() && cell_size > 0.0) {
            cell_size = w.max(h).max(f64::MIN_POSITIVE);
        }
        loop {
            let grid = Self::with_cell_size(bounds, triangle_boxes, cell_size);
            match grid {
                Some(grid) => return grid,
                None => cell_size *= 2.0,
            }
        }
    }

    /// The grid with square cells of `cell_size`, or `None` when it would hold too many entries.
    fn with_cell_size(bounds: Aabb, boxes: &[Aabb], cell_size: f64) -> Option<SpatialGrid> {
        let (w, h) = bounds.size();
        let cols = ((w / cell_size).ceil() as usize).clamp(1, 1 << 16);
        let rows = ((h / cell_size).ceil() as usize).clamp(1, 1 << 16);
        let cell_count = cols.checked_mul(rows)?;
        if cell_count > boxes.len().saturating_mul(4).saturating_add(16) {
            return None;
        }
        let mut grid = SpatialGrid {
            origin: bounds.min,
            inv_cell_size: 1.0 / cell_size,
            cols,
            rows,
            cell_start: vec![0; cell_count + 1],
            items: Vec::new(),
        };
        let mut entries = 0usize;
        for b in boxes {
            let (c0, r0) = grid.cell_of(b.min);
            let (c1, r1) = grid.cell_of(b.max);
            entries += (c1 - c0 + 1) * (r1 - r0 + 1);
            if entries > boxes.len().saturating_mul(MAX_ENTRIES_PER_TRIANGLE) {
                return None;
            }
            for r in r0..=r1 {
                for c in c0..=c1 {
                    grid.cell_start[r * cols + c + 1] += 1;
                }
            }
        }
        for i in 0..cell_count {
            grid.cell_start[i + 1] += grid.cell_start[i];
        }
        grid.items = vec![TriangleId::NONE; entries];
        let mut fill: Vec<u32> = grid.cell_start[..cell_count].to_vec();
        for (t, b) in boxes.iter().enumerate() {
            let (c0, r0) = grid.cell_of(b.min);
            let (c1, r1) = grid.cell_of(b.max);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    let slot = &mut fill[r * cols + c];
                    grid.items[*slot as usize] = TriangleId::from_index(t);
                    *slot += 1;
                }
            }
        }
        Some(grid)
    }

    /// The (column, row) of the cell holding `p`, clamped to the grid.
    #[inline]
    fn cell_of(&self, p: Point) -> (usize, usize) {
        let cx = ((p.x - self.origin.x) * self.inv_cell_size).floor();
        let cy = ((p.y - self.origin.y) * self.inv_cell_size).floor();
        // `as usize` saturates: negative and NaN become 0.
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
