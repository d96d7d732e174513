//! Grid-born meshes: the free cells, cut into square tiles of cells.
//!
//! A tile's triangles are its free cells traced as a bake traces a grid (exact integer
//! corners, double corners kept apart), with one more point on each border edge wherever the
//! cells on either side of the border change from free to blocked. Both tiles along a border
//! therefore put the same points on it, and their triangles meet edge to edge. A tile depends
//! on its own cells and on the cells just outside its border, so changing cells recomputes the
//! tiles within one cell of them; the tiles further away keep their triangles.

use trinav::{Point, Triangulation};
use trinav_bake::import::grid::Grid;
use trinav_bake::merge::{MergedRegion, insert_points};
use trinav_bake::triangulate::triangulate;

use crate::EditError;

/// The cells of a tile per side, unless chosen otherwise.
pub const DEFAULT_TILE_CELLS: u32 = 16;

/// The cells and their tiles.
#[derive(Clone, Debug)]
pub(crate) struct Tiles {
    /// The cells.
    pub(crate) grid: Grid,
    /// Cells per tile side.
    pub(crate) size: u32,
    /// Tiles per row.
    cols: u32,
    /// Tile rows.
    rows: u32,
    /// Per tile, the base ids of its triangles.
    pub(crate) bases: Vec<Vec<u32>>,
}

impl Tiles {
    /// The tiles of `grid`, `size` cells a side (no triangles yet).
    pub(crate) fn new(grid: Grid, size: u32) -> Tiles {
        let cols = grid.width.div_ceil(size);
        let rows = grid.height.div_ceil(size);
        Tiles { grid, size, cols, rows, bases: vec![Vec::new(); (cols * rows) as usize] }
    }

    /// Number of tiles.
    pub(crate) fn count(&self) -> u32 {
        self.cols * self.rows
    }

    /// Whether cell (`x`, `y`) is free; outside the grid is blocked.
    fn free(&self, x: i64, y: i64) -> bool {
        !self.grid.is_blocked(x, y)
    }

    /// The triangles of tile `tile` for the current cells.
    pub(crate) fn triangulate(&self, tile: u32, method: Triangulation) -> Result<Vec<[Point; 3]>, EditError> {
        let (tx, ty) = (tile % self.cols, tile / self.cols);
        let (x0, y0) = (tx * self.size, ty * self.size);
        let (x1, y1) = ((x0 + self.size).min(self.grid.width), (y0 + self.size).min(self.grid.height));
        let (w, h) = (x1 - x0, y1 - y0);
        let mut blocked = Vec::with_capacity((w * h) as usize);
        for y in y0..y1 {
            for x in x0..x1 {
                blocked.push(self.grid.is_blocked(i64::from(x), i64::from(y)));
            }
        }
        if blocked.iter().all(|&b| b) {
            return Ok(Vec::new());
        }
        let cells = Grid { width: w, height: h, blocked };
        let mut region =
            cells.walkable_region().map_err(|e| EditError::Internal(format!("tile {tile}: {e}")))?;
        let (dx, dy) = (f64::from(x0), f64::from(y0));
        for ring in region.polygons.iter_mut().flat_map(|p| std::iter::once(&mut p.outer).chain(&mut p.holes))
        {
            for p in ring {
                *p = Point::new(p.x + dx, p.y + dy);
            }
        }
        insert_points(&mut region.polygons, self.border_points(x0, y0, x1, y1));
        let region = MergedRegion {
            polygons: region.polygons,
            inflated_obstacles: Vec::new(),
            ..MergedRegion::default()
        };
        let soup =
            triangulate(&region, method).map_err(|e| EditError::Internal(format!("tile {tile}: {e}")))?;
        Ok(soup.corners().collect())
    }

    /// The points on the border of the tile [`x0`, `x1`] × [`y0`, `y1`] where a cell on either
    /// side changes from free to blocked (the tile's own corners left out).
    fn border_points(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> Vec<Point> {
        let (x0, y0, x1, y1) = (i64::from(x0), i64::from(y0), i64::from(x1), i64::from(y1));
        let mut points = Vec::new();
        // Vertical borders x = bx, between columns bx - 1 and bx.
        for bx in [x0, x1] {
            for y in y0 + 1..y1 {
                let changes = |x: i64| self.free(x, y - 1) != self.free(x, y);
                if changes(bx - 1) || changes(bx) {
                    points.push(Point::new(bx as f64, y as f64));
                }
            }
        }
        // Horizontal borders y = by, between rows by - 1 and by.
        for by in [y0, y1] {
            for x in x0 + 1..x1 {
                let changes = |y: i64| self.free(x - 1, y) != self.free(x, y);
                if changes(by - 1) || changes(by) {
                    points.push(Point::new(x as f64, by as f64));
                }
            }
        }
        points
    }

    /// The tiles whose triangles depend on the cells of [`x0`, `x1`) × [`y0`, `y1`): those
    /// within one cell of them.
    pub(crate) fn depending_on(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> Vec<u32> {
        let tx0 = x0.saturating_sub(1) / self.size;
        let ty0 = y0.saturating_sub(1) / self.size;
        let tx1 = (x1.min(self.grid.width - 1)) / self.size;
        let ty1 = (y1.min(self.grid.height - 1)) / self.size;
        (ty0..=ty1.min(self.rows - 1))
            .flat_map(|ty| (tx0..=tx1.min(self.cols - 1)).map(move |tx| ty * self.cols + tx))
            .collect()
    }

    /// Overwrites the cells from (`x`, `y`) with `patch` (which lies inside the grid).
    pub(crate) fn write(&mut self, x: u32, y: u32, patch: &Grid) {
        let width = self.grid.width as usize;
        for py in 0..patch.height as usize {
            for px in 0..patch.width as usize {
                let cell = (y as usize + py) * width + x as usize + px;
                self.grid.blocked[cell] = patch.blocked[py * patch.width as usize + px];
            }
        }
    }
}
