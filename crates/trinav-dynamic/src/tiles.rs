//! Grid-born meshes: the free cells, cut into square tiles of cells.
//!
//! A tile's triangles are its free cells traced as a bake traces a grid (exact integer
//! corners, double corners kept apart), with one more point on each border edge wherever the
//! cells on either side of the border change from free to blocked. Both tiles along a border
//! therefore put the same points on it, and their triangles meet edge to edge. A tile depends
//! on its own cells and on the cells just outside its border, so changing cells recomputes the
//! tiles within one cell of them; the tiles further away keep their triangles (and so do the
//! triangles a recomputed tile has before and after).

use trinav::{Point, Triangulation};
use trinav_bake::import::grid::Grid;
use trinav_bake::merge::MergedRegion;
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
        let width = self.grid.width as usize;
        let row = |y: u32| &self.grid.blocked[y as usize * width + x0 as usize..][..(x1 - x0) as usize];
        if (y0..y1).all(|y| row(y).iter().all(|&b| b)) {
            return Ok(Vec::new());
        }
        let mut region = (self.grid.walkable_region_within([x0, y0, x1, y1]))
            .map_err(|e| EditError::Internal(format!("tile {tile}: {e}")))?;
        let (dx, dy) = (f64::from(x0), f64::from(y0));
        for ring in region.polygons.iter_mut().flat_map(|p| std::iter::once(&mut p.outer).chain(&mut p.holes))
        {
            for p in ring {
                *p = Point::new(p.x + dx, p.y + dy);
            }
        }
        let border = self.border_points(x0, y0, x1, y1);
        for ring in region.polygons.iter_mut().flat_map(|p| std::iter::once(&mut p.outer).chain(&mut p.holes))
        {
            insert_border_points(ring, &border, [x0, y0, x1, y1].map(f64::from));
        }
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
    /// side changes from free to blocked (the tile's own corners left out): per side (left,
    /// right, bottom, top), the coordinate along it, ascending.
    fn border_points(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> [Vec<f64>; 4] {
        let (x0, y0, x1, y1) = (i64::from(x0), i64::from(y0), i64::from(x1), i64::from(y1));
        let along = |a: i64, b: i64| Vec::with_capacity((b - a) as usize);
        let mut sides: [Vec<f64>; 4] = [along(y0, y1), along(y0, y1), along(x0, x1), along(x0, x1)];
        // Vertical borders x = bx, between columns bx - 1 and bx.
        for (side, bx) in [x0, x1].into_iter().enumerate() {
            for y in y0 + 1..y1 {
                let changes = |x: i64| self.free(x, y - 1) != self.free(x, y);
                if changes(bx - 1) || changes(bx) {
                    sides[side].push(y as f64);
                }
            }
        }
        // Horizontal borders y = by, between rows by - 1 and by.
        for (side, by) in [y0, y1].into_iter().enumerate() {
            for x in x0 + 1..x1 {
                let changes = |y: i64| self.free(x - 1, y) != self.free(x, y);
                if changes(by - 1) || changes(by) {
                    sides[2 + side].push(x as f64);
                }
            }
        }
        sides
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

/// Inserts into `ring` (a tile's traced ring) the `border` points (per side of the tile
/// `[x0, y0, x1, y1]`, as [`Tiles::border_points`] gives them) lying strictly inside its edges,
/// in order along each edge. A ring edge holding a border point lies along that border (the
/// ring is inside the tile), so only edges on the four border lines are looked at: what the
/// baker's general `insert_points` does, without its search over every edge.
fn insert_border_points(ring: &mut Vec<Point>, border: &[Vec<f64>; 4], [x0, y0, x1, y1]: [f64; 4]) {
    let inside = |side: &[f64], from: f64, to: f64| {
        let (lo, hi) = (from.min(to), from.max(to));
        let start = side.partition_point(|&c| c <= lo);
        let end = side.partition_point(|&c| c < hi);
        (start < end).then_some(start..end)
    };
    let mut noded: Option<Vec<Point>> = None;
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        let found = if a.x == b.x && (a.x == x0 || a.x == x1) {
            let side = &border[usize::from(a.x != x0)];
            inside(side, a.y, b.y).map(|r| (side, r, false, a.y > b.y))
        } else if a.y == b.y && (a.y == y0 || a.y == y1) {
            let side = &border[2 + usize::from(a.y != y0)];
            inside(side, a.x, b.x).map(|r| (side, r, true, a.x > b.x))
        } else {
            None
        };
        let Some((side, range, horizontal, descending)) = found else {
            if let Some(noded) = &mut noded {
                noded.push(a);
            }
            continue;
        };
        let noded = noded.get_or_insert_with(|| ring[..i].to_vec());
        noded.push(a);
        let point = |c: f64| if horizontal { Point::new(c, a.y) } else { Point::new(a.x, c) };
        if descending {
            noded.extend(side[range].iter().rev().map(|&c| point(c)));
        } else {
            noded.extend(side[range].iter().map(|&c| point(c)));
        }
    }
    if let Some(noded) = noded {
        *ring = noded;
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use trinav_bake::merge::{MergedPolygon, insert_points};

    use super::*;

    /// The tile's rings with the border points inserted by the baker's general
    /// `insert_points` (the oracle) and by `insert_border_points`.
    /// Also the number of ring points before.
    fn both_ways(tiles: &Tiles, tile: u32) -> (Vec<Vec<Point>>, Vec<Vec<Point>>, usize) {
        let (tx, ty) = (tile % tiles.cols, tile / tiles.cols);
        let (x0, y0) = (tx * tiles.size, ty * tiles.size);
        let (x1, y1) = ((x0 + tiles.size).min(tiles.grid.width), (y0 + tiles.size).min(tiles.grid.height));
        let blocked = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .map(|(x, y)| tiles.grid.is_blocked(i64::from(x), i64::from(y)))
            .collect();
        let cells = Grid { width: x1 - x0, height: y1 - y0, blocked };
        let mut polygons = cells.walkable_region().expect("traced").polygons;
        for p in polygons.iter_mut().flat_map(|p| std::iter::once(&mut p.outer).chain(&mut p.holes)).flatten()
        {
            *p = Point::new(p.x + f64::from(x0), p.y + f64::from(y0));
        }
        let before = polygons.iter().flat_map(MergedPolygon::rings).map(Vec::len).sum();
        let border = tiles.border_points(x0, y0, x1, y1);
        let mut oracle = polygons.clone();
        let points = (border[0].iter().map(|&y| Point::new(f64::from(x0), y)))
            .chain(border[1].iter().map(|&y| Point::new(f64::from(x1), y)))
            .chain(border[2].iter().map(|&x| Point::new(x, f64::from(y0))))
            .chain(border[3].iter().map(|&x| Point::new(x, f64::from(y1))));
        insert_points(&mut oracle, points);
        let mut mine = polygons;
        for ring in mine.iter_mut().flat_map(|p| std::iter::once(&mut p.outer).chain(&mut p.holes)) {
            insert_border_points(ring, &border, [x0, y0, x1, y1].map(f64::from));
        }
        let rings = |ps: Vec<MergedPolygon>| {
            ps.into_iter().flat_map(|p| std::iter::once(p.outer).chain(p.holes)).collect()
        };
        (rings(oracle), rings(mine), before)
    }

    #[test]
    fn border_points_go_where_the_general_insertion_puts_them() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(14);
        let mut inserted = 0;
        for round in 0..60 {
            let (width, height) = (rng.random_range(1..40), rng.random_range(1..40));
            let density = [0.1, 0.3, 0.5, 0.7][round % 4];
            let blocked = (0..width * height).map(|_| rng.random_bool(density)).collect();
            let tiles = Tiles::new(Grid { width, height, blocked }, rng.random_range(1..12));
            for tile in 0..tiles.count() {
                let (oracle, mine, before) = both_ways(&tiles, tile);
                assert_eq!(mine, oracle, "round {round}, tile {tile}");
                inserted += mine.iter().map(Vec::len).sum::<usize>() - before;
            }
        }
        assert!(inserted > 100, "only {inserted} points inserted");
    }
}
