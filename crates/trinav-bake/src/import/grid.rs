//! Grid maps: Moving AI `.map` files and bitmaps, as free and blocked unit cells.
//!
//! Cell `(x, y)` is the square `[x, x+1] x [y, y+1]`, with `y` growing downwards as rows go
//! (the GPPC any-angle convention); outside the map is blocked. The walkable region is traced
//! straight from the cells, never by unioning squares: its rings have exact integer vertices
//! and no collinear ones. Two blocked cells meeting only at a corner (a double corner) leave
//! the free cells on either side touching at that point only, and the mesh does not connect
//! them through it.

use std::path::Path;

use trinav::{AreaId, Point};

use crate::import::cells::CellMask;
use crate::import::terrain::TERRAIN_LETTERS;
use crate::import::tokens::Tokens;
use crate::import::{ImportError, Malformed};
use crate::level::{Level, PolygonInput};
use crate::merge::MergedRegion;

/// The most cells a grid has per side (rows, and cells per row).
pub const MAX_GRID_SIDE: u32 = 1 << 15;

/// A grid of free and blocked cells, row by row from `y = 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Cells per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `blocked[y * width + x]`.
    pub blocked: Vec<bool>,
}

impl Grid {
    /// Whether cell (`x`, `y`) is blocked; outside the map counts as blocked.
    pub fn is_blocked(&self, x: i64, y: i64) -> bool {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return true;
        }
        self.blocked[y as usize * self.width as usize + x as usize]
    }

    /// Parses a Moving AI map: `type octile`, `height H`, `width W`, `map`, then `H` rows of
    /// `W` characters; `.` and `G` are free, `@ O T S W` blocked (see
    /// [`TerrainGrid::parse_map`](crate::import::terrain::TerrainGrid::parse_map) to make
    /// `S`, `W`, `T` walkable ground of area types).
    ///
    /// ```
    /// use trinav_bake::import::grid::Grid;
    /// let grid = Grid::parse_map("type octile\nheight 2\nwidth 3\nmap\n..@\n.@.\n", "tiny.map")?;
    /// assert_eq!((grid.width, grid.height), (3, 2));
    /// assert!(grid.is_blocked(2, 0) && !grid.is_blocked(0, 1));
    /// # Ok::<(), trinav_bake::import::ImportError>(())
    /// ```
    pub fn parse_map(text: &str, file: &str) -> Result<Grid, ImportError> {
        Ok(Grid::parse_map_typed(text, file, |_| None)?.0)
    }

    /// Parses a Moving AI map whose letters `S`, `W`, `T` are free cells of the type `typed`
    /// gives them (blocked when it gives none); returns the grid and each cell's type (0 for
    /// ground and blocked cells; empty when no letter is typed).
    pub(crate) fn parse_map_typed(
        text: &str,
        file: &str,
        typed: impl Fn(char) -> Option<AreaId>,
    ) -> Result<(Grid, Vec<AreaId>), ImportError> {
        let any_typed = TERRAIN_LETTERS.iter().any(|&l| typed(l).is_some());
        let err =
            |line: usize, reason: Malformed| ImportError::Syntax { file: file.to_string(), line, reason };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
        let mut header = |key: &'static str| -> Result<(usize, String), ImportError> {
            let (n, line) = lines.next().ok_or_else(|| err(0, Malformed::MissingHeader { key }))?;
            let mut words = line.split_whitespace();
            if words.next() != Some(key) {
                return Err(err(n, Malformed::WrongHeader { expected: key, found: line.to_string() }));
            }
            Ok((n, words.collect::<Vec<_>>().join(" ")))
        };
        let (n, kind) = header("type")?;
        if kind != "octile" {
            return Err(err(n, Malformed::UnsupportedMapType { found: kind }));
        }
        let mut number = |key: &'static str| -> Result<(usize, u32), ImportError> {
            let (n, word) = header(key)?;
            let value = word.parse().map_err(|_| err(n, Malformed::BadNumber { what: key, word }))?;
            Ok((n, value))
        };
        let (_, height) = number("height")?;
        let (n, width) = number("width")?;
        if !grid_size_in_range(width, height) {
            return Err(err(n, Malformed::GridSize { what: "map", width, height }));
        }
        header("map")?;
        let mut blocked = Vec::with_capacity(width as usize * height as usize);
        let mut areas = Vec::with_capacity(if any_typed { blocked.capacity() } else { 0 });
        let mut rows = 0u32;
        for (n, line) in lines {
            if rows == height {
                if line.trim().is_empty() {
                    continue;
                }
                return Err(err(n, Malformed::ExtraRows { height }));
            }
            let cells: Vec<char> = line.chars().collect();
            if cells.len() != width as usize {
                return Err(err(n, Malformed::RowLength { row: rows, cells: cells.len(), width }));
            }
            for (column, &cell) in cells.iter().enumerate() {
                let area = match cell {
                    '.' | 'G' => Some(AreaId(0)),
                    '@' | 'O' => None,
                    'T' | 'S' | 'W' => typed(cell),
                    _ => return Err(err(n, Malformed::UnknownCell { cell, column })),
                };
                blocked.push(area.is_none());
                if any_typed {
                    areas.push(area.unwrap_or(AreaId(0)));
                }
            }
            rows += 1;
        }
        if rows != height {
            return Err(err(text.lines().count(), Malformed::MissingRows { rows, height }));
        }
        Ok((Grid { width, height, blocked }, areas))
    }

    /// Parses a maze of the any-angle benchmarks: `W H`, then `H` rows of `W` numbers, `0`
    /// free and `1` blocked, row `y = 0` first.
    pub fn parse_maze(text: &str, file: &str) -> Result<Grid, ImportError> {
        let mut tokens = Tokens::new(text, file);
        let (line, width): (usize, u32) = tokens.next("width")?;
        let (_, height): (usize, u32) = tokens.next("height")?;
        if !grid_size_in_range(width, height) {
            return Err(tokens.error(line, Malformed::GridSize { what: "maze", width, height }));
        }
        let mut blocked = Vec::with_capacity(width as usize * height as usize);
        for _ in 0..width as usize * height as usize {
            let (line, cell): (usize, u8) = tokens.next("cell (0 or 1)")?;
            if cell > 1 {
                return Err(tokens.error(line, Malformed::MazeCell { value: cell }));
            }
            blocked.push(cell == 1);
        }
        tokens.finish("the last row")?;
        Ok(Grid { width, height, blocked })
    }

    /// Reads an image (any format the `image` crate decodes): one pixel a cell, walkable where
    /// the pixel's luminance is at least `threshold` (white walkable, black blocked).
    pub fn from_image(path: &Path, threshold: u8) -> Result<Grid, ImportError> {
        let image = Grid::decode_image(path)?.to_luma8();
        let (width, height) = image.dimensions();
        let blocked = image.pixels().map(|p| p.0[0] < threshold).collect();
        Ok(Grid { width, height, blocked })
    }

    /// Decodes an image, refusing one with more than [`MAX_GRID_SIDE`] pixels per side.
    pub(crate) fn decode_image(path: &Path) -> Result<image::DynamicImage, ImportError> {
        let file = path.display().to_string();
        let io = |source| ImportError::Io { file: file.clone(), source };
        let image = image::ImageReader::open(path)
            .map_err(io)?
            .with_guessed_format()
            .map_err(io)?
            .decode()
            .map_err(|source| ImportError::Image { file: file.clone(), source })?;
        let (width, height) = (image.width(), image.height());
        if width > MAX_GRID_SIDE || height > MAX_GRID_SIDE {
            return Err(ImportError::Syntax {
                file,
                line: 0,
                reason: Malformed::ImageTooLarge { width, height },
            });
        }
        Ok(image)
    }

    /// The free cells as a walkable region, traced from the grid (for agent radius 0). Its
    /// rings meet only at shared corners: a ring point never lies inside another ring's side.
    pub fn walkable_region(&self) -> Result<MergedRegion, ImportError> {
        self.mask(false).trace().map_err(ImportError::Trace)
    }

    /// [`Grid::walkable_region`] of the cells in columns `x0..x1` and rows `y0..y1` only, as
    /// a map of their own (the cells around them count as blocked, the window's first cell is
    /// (0, 0)). The window must lie inside the grid.
    pub fn walkable_region_within(&self, [x0, y0, x1, y1]: [u32; 4]) -> Result<MergedRegion, ImportError> {
        let (w, width) = ((x1 - x0) as usize, self.width as usize);
        let rows = (y0 as usize..y1 as usize).map(|y| &self.blocked[y * width + x0 as usize..][..w]);
        CellMask::from_rows(w, (y1 - y0) as usize, rows, false).trace().map_err(ImportError::Trace)
    }

    /// The grid as a level: the map's rectangle walkable, each 4-connected group of blocked
    /// cells one obstacle (with holes where it encloses free cells). For agent radius > 0,
    /// where obstacles must be inflated.
    pub fn to_level(&self) -> Result<Level, ImportError> {
        let blocked = self.mask(true).trace().map_err(ImportError::Trace)?;
        let ring = |r: &Vec<Point>| r.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>();
        let (w, h) = (self.width as f64, self.height as f64);
        Ok(Level {
            walkable: vec![PolygonInput::rect(0.0, 0.0, w, h)],
            obstacles: blocked
                .polygons
                .iter()
                .map(|p| PolygonInput { outer: ring(&p.outer), holes: p.holes.iter().map(ring).collect() })
                .collect(),
            agent_radius: None,
            ..Level::default()
        })
    }

    /// The cells to trace: the blocked ones (`blocked == true`) or the free ones.
    pub(crate) fn mask(&self, blocked: bool) -> CellMask {
        CellMask::new(self.width as usize, self.height as usize, &self.blocked, blocked)
    }
}

/// Whether a grid of `width` by `height` cells has 1 to [`MAX_GRID_SIDE`] cells per side.
fn grid_size_in_range(width: u32, height: u32) -> bool {
    (1..=MAX_GRID_SIDE).contains(&width) && (1..=MAX_GRID_SIDE).contains(&height)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let text = format!(
            "type octile\nheight {}\nwidth {}\nmap\n{}\n",
            rows.len(),
            rows[0].len(),
            rows.join("\n")
        );
        Grid::parse_map(&text, "test.map").unwrap()
    }

    #[test]
    fn open_map_is_one_rectangle() {
        let region = grid(&["...", "..."]).walkable_region().unwrap();
        assert_eq!(region.polygons.len(), 1);
        assert_eq!(region.polygons[0].outer.len(), 4, "no collinear points");
        assert_eq!(region.area(), 6.0);
    }

    #[test]
    fn a_window_traces_as_the_grid_of_its_cells() {
        // The oracle: the window's cells copied into a grid of their own.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(n)) as u32
        };
        for case in 0..200 {
            let (width, height) = (1 + next(90), 1 + next(30));
            let density = next(100);
            let blocked = (0..width * height).map(|_| next(100) < density).collect();
            let grid = Grid { width, height, blocked };
            let (x0, y0) = (next(width), next(height));
            let (x1, y1) = (x0 + 1 + next(width - x0), y0 + 1 + next(height - y0));
            let cells = (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .map(|(x, y)| grid.is_blocked(i64::from(x), i64::from(y)))
                .collect();
            let copy = Grid { width: x1 - x0, height: y1 - y0, blocked: cells };
            assert_eq!(
                grid.walkable_region_within([x0, y0, x1, y1]).unwrap(),
                copy.walkable_region().unwrap(),
                "case {case}: {width}x{height}, window {x0},{y0} to {x1},{y1}"
            );
        }
    }

    #[test]
    fn double_corner_separates_rings() {
        // Free cells (0,0) and (1,1) touch only at the corner (1,1).
        let region = grid(&[".@", "@."]).walkable_region().unwrap();
        assert_eq!(region.polygons.len(), 2);
        assert_eq!(region.area(), 2.0);
        // Connected around: the free ring has a hole made of two blocked cells touching at a
        // corner, traced as two hole rings sharing that vertex.
        let region = grid(&["....", ".@..", "..@.", "...."]).walkable_region().unwrap();
        assert_eq!(region.polygons.len(), 1);
        assert_eq!(region.polygons[0].holes.len(), 2);
        assert_eq!(region.area(), 14.0);
    }

    #[test]
    fn enclosed_pocket_is_its_own_polygon_and_obstacle_hole() {
        let g = grid(&["@@@@", "@..@", "@@@@"]);
        assert_eq!(g.walkable_region().unwrap().area(), 2.0);
        let level = g.to_level().unwrap();
        assert_eq!(level.obstacles.len(), 1);
        assert_eq!(level.obstacles[0].holes.len(), 1);
        assert_eq!(level.walkable[0].outer, vec![[0., 0.], [4., 0.], [4., 3.], [0., 3.]]);
    }

    #[test]
    fn mazes_read_rows_of_zeros_and_ones() {
        let maze = Grid::parse_maze("3 2\n0 1 0\n0 0 0\n", "maze.txt").unwrap();
        assert_eq!(maze, grid(&[".@.", "..."]));
        let cases = [
            ("3 2\n0 1 0\n0 0\n", 3, Malformed::UnexpectedEnd { expected: "cell (0 or 1)" }),
            ("2 1\n0 2\n", 2, Malformed::MazeCell { value: 2 }),
            ("0 1\n", 1, Malformed::GridSize { what: "maze", width: 0, height: 1 }),
        ];
        for (text, line, reason) in cases {
            match Grid::parse_maze(text, "maze.txt") {
                Err(ImportError::Syntax { line: l, reason: r, .. }) => {
                    assert_eq!((l, r), (line, reason), "{text:?}")
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn malformed_maps_name_line_and_reason() {
        let cases = [
            (
                "type octile\nheight 2\nwidth 2\nmap\n..\n.\n",
                6,
                Malformed::RowLength { row: 1, cells: 1, width: 2 },
            ),
            ("type octile\nheight 2\nwidth 2\nmap\n..\n", 5, Malformed::MissingRows { rows: 1, height: 2 }),
            (
                "type octile\nheight x\nwidth 2\nmap\n",
                2,
                Malformed::BadNumber { what: "height", word: "x".into() },
            ),
            ("type hex\n", 1, Malformed::UnsupportedMapType { found: "hex".into() }),
            ("type octile\nheight 1\nwidth 2\nmap\n.?\n", 5, Malformed::UnknownCell { cell: '?', column: 1 }),
            ("type octile\nheight 1\nwidth 1\nmap\n.\n.\n", 6, Malformed::ExtraRows { height: 1 }),
            (
                "type octile\nheight 1\nwidth 40000\nmap\n",
                3,
                Malformed::GridSize { what: "map", width: 40000, height: 1 },
            ),
            (
                "type octile\nwidth 1\n",
                2,
                Malformed::WrongHeader { expected: "height", found: "width 1".into() },
            ),
            ("", 0, Malformed::MissingHeader { key: "type" }),
        ];
        for (text, line, reason) in cases {
            match Grid::parse_map(text, "bad.map") {
                Err(ImportError::Syntax { line: l, reason: r, .. }) => {
                    assert_eq!((l, r), (line, reason), "{text:?}")
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }
}
