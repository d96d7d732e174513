//! Grid terrain: area types for grid cells, from Moving AI map letters and bitmap colours.
//!
//! Moving AI maps mark swamp `S`, water `W` and trees `T`; the benchmarks treat them as
//! blocked, and so does the baker unless [`GridTerrain::with_letter`] makes a letter walkable
//! ground of an area type. Bitmaps tag the pixels of an exact colour
//! ([`GridTerrain::with_color`]). Cells of every type are traced like the free cells of a plain
//! grid: for agent radius 0 each type's cells become the area pieces of the walkable region
//! (integer corners, rings noded together, so every boundary between two types is made of
//! triangle edges), for a radius above 0 they become the level's area entries.

use std::fmt;
use std::path::Path;

use trinav::AreaId;

use crate::import::ImportError;
use crate::import::cells::CellMask;
use crate::import::grid::Grid;
use crate::level::{AreaInput, Level};
use crate::merge::{AreaPiece, MergedPolygon, MergedRegion, node_rings};

/// The Moving AI letters that can take an area type: swamp, water, trees.
pub const TERRAIN_LETTERS: [char; 3] = ['S', 'W', 'T'];

/// Which grid cells are walkable ground of which area type: `.map` letters and bitmap colours.
///
/// ```
/// use trinav::AreaId;
/// use trinav_bake::import::terrain::GridTerrain;
/// let terrain = GridTerrain::default().with_letter('W', AreaId(3))?.with_color([0, 0, 255], AreaId(3))?;
/// assert_eq!(terrain.letter_area('W'), Some(AreaId(3)));
/// assert_eq!(terrain.letter_area('S'), None); // swamp stays blocked
/// assert!(GridTerrain::default().with_letter('@', AreaId(1)).is_err());
/// # Ok::<(), trinav_bake::import::terrain::TerrainError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridTerrain {
    /// The type of each of [`TERRAIN_LETTERS`], `None` when it stays blocked.
    letters: [Option<AreaId>; 3],
    /// Colours and their types, in the order given.
    colors: Vec<([u8; 3], AreaId)>,
}

/// A terrain setting that is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TerrainError {
    /// A letter other than `S`, `W` and `T`.
    #[error(
        "letter `{letter}` takes no area type: only S (swamp), W (water) and T (trees) do (`.` and `G` are ground of type 0, `@` and `O` out of bounds)"
    )]
    Letter {
        /// The letter.
        letter: char,
    },
    /// A type outside `1..=63`.
    #[error("area type {area} is outside 1..={} (0 is plain ground)", AreaId::MAX.0)]
    AreaOutOfRange {
        /// The type.
        area: u8,
    },
    /// A letter given a type twice.
    #[error("letter `{letter}` is given a type twice")]
    DuplicateLetter {
        /// The letter.
        letter: char,
    },
    /// A colour given a type twice.
    #[error("colour {} is given a type twice", Hex(*.color))]
    DuplicateColor {
        /// The colour.
        color: [u8; 3],
    },
}

/// A colour as `RRGGBB`.
struct Hex([u8; 3]);

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "{r:02X}{g:02X}{b:02X}")
    }
}

fn check_area(area: AreaId) -> Result<AreaId, TerrainError> {
    if area.0 == 0 || area > AreaId::MAX {
        return Err(TerrainError::AreaOutOfRange { area: area.0 });
    }
    Ok(area)
}

impl GridTerrain {
    /// This terrain with map letter `letter` (`S`, `W` or `T`) walkable ground of type `area`
    /// (1 to 63).
    pub fn with_letter(mut self, letter: char, area: AreaId) -> Result<Self, TerrainError> {
        let index =
            TERRAIN_LETTERS.iter().position(|&l| l == letter).ok_or(TerrainError::Letter { letter })?;
        let area = check_area(area)?;
        if self.letters[index].replace(area).is_some() {
            return Err(TerrainError::DuplicateLetter { letter });
        }
        Ok(self)
    }

    /// This terrain with the bitmap pixels of colour `rgb` walkable ground of type `area` (1 to
    /// 63), whatever their brightness.
    pub fn with_color(mut self, rgb: [u8; 3], area: AreaId) -> Result<Self, TerrainError> {
        let area = check_area(area)?;
        if self.colors.iter().any(|&(c, _)| c == rgb) {
            return Err(TerrainError::DuplicateColor { color: rgb });
        }
        self.colors.push((rgb, area));
        Ok(self)
    }

    /// The type map letter `letter` takes, `None` when it is not walkable by this terrain.
    pub fn letter_area(&self, letter: char) -> Option<AreaId> {
        let index = TERRAIN_LETTERS.iter().position(|&l| l == letter)?;
        self.letters[index]
    }

    /// The type of the pixels of colour `rgb`, if tagged.
    pub fn color_area(&self, rgb: [u8; 3]) -> Option<AreaId> {
        self.colors.iter().find(|&&(c, _)| c == rgb).map(|&(_, area)| area)
    }

    /// Whether any map letter takes a type.
    pub fn has_letters(&self) -> bool {
        self.letters.iter().any(Option::is_some)
    }

    /// Whether any colour takes a type.
    pub fn has_colors(&self) -> bool {
        !self.colors.is_empty()
    }
}

/// A grid whose free cells have area types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainGrid {
    /// The free and blocked cells (a typed cell is free).
    pub grid: Grid,
    /// `areas[y * width + x]`: the type of each cell (0 for plain ground and for blocked cells).
    pub areas: Vec<AreaId>,
}

impl TerrainGrid {
    /// Parses a Moving AI map (see [`Grid::parse_map`]) whose letters `S`, `W`, `T` are walkable
    /// ground of the types `terrain` gives them (blocked when it gives none).
    ///
    /// ```
    /// use trinav::AreaId;
    /// use trinav_bake::import::terrain::{GridTerrain, TerrainGrid};
    /// let terrain = GridTerrain::default().with_letter('W', AreaId(3))?;
    /// let map = "type octile\nheight 1\nwidth 4\nmap\n.WT.\n";
    /// let grid = TerrainGrid::parse_map(map, "river.map", &terrain)?;
    /// assert_eq!(grid.area_at(1, 0), Some(AreaId(3)));
    /// assert_eq!(grid.area_at(2, 0), None); // trees stay blocked
    /// assert_eq!(grid.area_at(3, 0), Some(AreaId(0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_map(text: &str, file: &str, terrain: &GridTerrain) -> Result<TerrainGrid, ImportError> {
        let (grid, areas) = Grid::parse_map_typed(text, file, |letter| terrain.letter_area(letter))?;
        Ok(TerrainGrid { grid, areas })
    }

    /// Reads an image (see [`Grid::from_image`]): pixels of a colour `terrain` tags are walkable
    /// ground of its type, the others walkable (type 0) where their luminance is at least
    /// `threshold`.
    pub fn from_image(path: &Path, threshold: u8, terrain: &GridTerrain) -> Result<TerrainGrid, ImportError> {
        let image = Grid::decode_image(path)?;
        let (luma, rgb) = (image.to_luma8(), image.to_rgb8());
        let mut blocked = Vec::with_capacity(luma.len());
        let mut areas = Vec::with_capacity(luma.len());
        for (l, c) in luma.pixels().zip(rgb.pixels()) {
            let area = terrain.color_area(c.0);
            blocked.push(area.is_none() && l.0[0] < threshold);
            areas.push(area.unwrap_or(AreaId(0)));
        }
        let (width, height) = luma.dimensions();
        Ok(TerrainGrid { grid: Grid { width, height, blocked }, areas })
    }

    /// The type of cell (`x`, `y`), `None` when it is blocked or outside the map.
    pub fn area_at(&self, x: i64, y: i64) -> Option<AreaId> {
        if self.grid.is_blocked(x, y) {
            return None;
        }
        Some(self.areas[y as usize * self.grid.width as usize + x as usize])
    }

    /// Whether some free cell has a type other than 0.
    pub fn has_types(&self) -> bool {
        self.areas.iter().zip(&self.grid.blocked).any(|(a, &b)| !b && a.0 != 0)
    }

    /// The number of free cells of each type.
    pub fn cell_counts(&self) -> [usize; AreaId::COUNT] {
        let mut counts = [0; AreaId::COUNT];
        for (area, &blocked) in self.areas.iter().zip(&self.grid.blocked) {
            if !blocked {
                counts[area.index()] += 1;
            }
        }
        counts
    }

    /// The free cells of type `area`, traced (one polygon per 4-connected group).
    fn traced(&self, area: AreaId) -> Result<Vec<MergedPolygon>, ImportError> {
        let cells: Vec<bool> =
            (self.areas.iter().zip(&self.grid.blocked)).map(|(&a, &b)| !b && a == area).collect();
        let mask = CellMask::new(self.grid.width as usize, self.grid.height as usize, &cells, true);
        Ok(mask.trace().map_err(ImportError::Trace)?.polygons)
    }

    /// The types present, in increasing order.
    fn present(&self) -> impl Iterator<Item = AreaId> {
        let counts = self.cell_counts();
        (0..AreaId::COUNT).filter(move |&a| counts[a] > 0).map(|a| AreaId(a as u8))
    }

    /// The free cells as a walkable region (agent radius 0), cut into one area piece per
    /// 4-connected group of cells of one type. Pieces meet at integer corners; every piece's
    /// ring holds the corners of the pieces along it.
    pub fn walkable_region(&self) -> Result<MergedRegion, ImportError> {
        let mut region = self.grid.walkable_region()?;
        if !self.has_types() {
            return Ok(region);
        }
        let mut polygons = Vec::new();
        let mut areas = Vec::new();
        for area in self.present() {
            let traced = self.traced(area)?;
            areas.extend(std::iter::repeat_n(area, traced.len()));
            polygons.extend(traced);
        }
        // A piece's straight side may run past the corners of the pieces beside it.
        node_rings(&mut polygons);
        region.area_pieces =
            polygons.into_iter().zip(areas).map(|(polygon, area)| AreaPiece { polygon, area }).collect();
        Ok(region)
    }

    /// The grid as a level (see [`Grid::to_level`]), each type's cells one area entry per
    /// 4-connected group. For agent radius > 0.
    pub fn to_level(&self) -> Result<Level, ImportError> {
        let mut level = self.grid.to_level()?;
        let ring = |r: &Vec<trinav::Point>| r.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>();
        for area in self.present().filter(|a| a.0 != 0) {
            for polygon in self.traced(area)? {
                level.areas.push(AreaInput {
                    outer: ring(&polygon.outer),
                    holes: polygon.holes.iter().map(ring).collect(),
                    area: area.0,
                });
            }
        }
        Ok(level)
    }
}
