//! Importers: the level formats trinav bakes from, chosen by file extension or by name.
//!
//! | format | extension | read as |
//! |---|---|---|
//! | [`InputFormat::Json`] | `.json` | the native [`Level`] |
//! | [`InputFormat::Map`] | `.map` | Moving AI grid map ([`grid`]) |
//! | [`InputFormat::Image`] | `.png`, `.bmp`, `.gif`, `.pnm`/`.pgm`/`.ppm`, `.tga` | bitmap, one pixel a cell ([`grid`]) |
//! | [`InputFormat::Mesh`] | `.mesh` | Polyanya mesh, version 2 or 3 ([`polyanya`]) |
//! | [`InputFormat::Maze`] | `maze.txt` | any-angle benchmark maze: `W H`, rows of 0/1 ([`grid`]) |
//! | [`InputFormat::Poly`] | `.poly` | Polyanya polygon map, version 1: even-odd of all polygons ([`poly`]) |
//!
//! Every importer refuses a malformed file with an [`ImportError`] naming the file, the line
//! (0 when the problem is not on one line) and the reason (a [`Malformed`]); none panics.

mod cells;
mod error;
pub mod grid;
pub mod poly;
pub mod polyanya;
pub mod terrain;
mod tokens;
pub(crate) mod trace;

pub use error::{ImportError, Malformed, TerrainOption};
pub use trace::TraceError;

use std::path::Path;

use trinav::BakeSettings;

use crate::level::{Level, LevelError};
use crate::merge::MergedRegion;
use crate::{BakeError, Baked};
use grid::Grid;
use terrain::{GridTerrain, TerrainGrid};

/// A level file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// The native JSON level.
    Json,
    /// A Moving AI grid map.
    Map,
    /// A bitmap.
    Image,
    /// A Polyanya mesh (version 2 or 3).
    Mesh,
    /// A Polyanya polygon map (version 1).
    Poly,
    /// An any-angle benchmark maze (`maze.txt`).
    Maze,
}

impl InputFormat {
    /// The format a file extension stands for.
    pub fn from_path(path: &Path) -> Option<InputFormat> {
        if path.file_name().is_some_and(|name| name == "maze.txt") {
            return Some(InputFormat::Maze);
        }
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match extension.as_str() {
            "json" => InputFormat::Json,
            "map" => InputFormat::Map,
            "png" | "bmp" | "gif" | "pnm" | "pgm" | "ppm" | "pbm" | "tga" => InputFormat::Image,
            "mesh" => InputFormat::Mesh,
            "poly" => InputFormat::Poly,
            _ => return None,
        })
    }

    /// The format's name, as [`InputFormat::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Json => "json",
            InputFormat::Map => "map",
            InputFormat::Image => "image",
            InputFormat::Mesh => "mesh",
            InputFormat::Poly => "poly",
            InputFormat::Maze => "maze",
        }
    }

    /// The names [`InputFormat::from_name`] accepts, as the command line lists them.
    pub const NAMES: [&'static str; 7] = ["json", "map", "image", "png", "mesh", "poly", "maze"];

    /// The format named `name` (one of [`InputFormat::NAMES`]: `json`, `map`, `image` or
    /// `png`, `mesh`, `poly`, `maze`).
    pub fn from_name(name: &str) -> Option<InputFormat> {
        Some(match name {
            "json" => InputFormat::Json,
            "map" => InputFormat::Map,
            "image" | "png" => InputFormat::Image,
            "mesh" => InputFormat::Mesh,
            "poly" => InputFormat::Poly,
            "maze" => InputFormat::Maze,
            _ => return None,
        })
    }
}

impl std::str::FromStr for InputFormat {
    type Err = trinav::UnknownName;

    /// Parses one of [`InputFormat::NAMES`].
    ///
    /// ```
    /// use trinav_bake::import::InputFormat;
    /// assert_eq!("png".parse(), Ok(InputFormat::Image));
    /// assert!("svg".parse::<InputFormat>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InputFormat::from_name(s).ok_or_else(|| trinav::UnknownName {
            what: "level format",
            name: s.to_string(),
            expected: &InputFormat::NAMES,
        })
    }
}

/// Import options.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImportOptions {
    /// Bitmaps: pixels with luminance at least this (0-255) are walkable. Default 128.
    pub threshold: u8,
    /// Grids: the map letters and bitmap colours that are walkable ground of an area type
    /// (default none). Letters apply to Moving AI maps only, colours to bitmaps only: either
    /// given for another format is an [`ImportError::TerrainNotApplicable`].
    pub terrain: GridTerrain,
}

impl ImportOptions {
    /// These options with another bitmap threshold.
    pub fn with_threshold(mut self, threshold: u8) -> Self {
        self.threshold = threshold;
        self
    }

    /// These options with grid terrain.
    pub fn with_terrain(mut self, terrain: GridTerrain) -> Self {
        self.terrain = terrain;
        self
    }
}

impl Default for ImportOptions {
    fn default() -> Self {
        Self { threshold: 128, terrain: GridTerrain::default() }
    }
}

/// What an importer read.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A native level: baked through all six stages.
    Level(Level),
    /// A grid: its free cells are traced directly (agent radius 0), or its blocked cells
    /// become obstacles of a level (radius > 0).
    Grid(Grid),
    /// A grid with area types (some free cell has a type other than 0): each type's cells are
    /// traced into area pieces (radius 0) or become area entries of a level (radius > 0).
    Terrain(TerrainGrid),
    /// A walkable region traced from a mesh: clean already, baked from stage 3 on.
    Region(MergedRegion),
}

impl Source {
    /// The agent radius the source itself asks for (only native levels have one).
    pub fn agent_radius(&self) -> Option<f64> {
        match self {
            Source::Level(level) => level.agent_radius,
            _ => None,
        }
    }

    /// The settings for baking this source: `base`, with the agent radius taken from
    /// `radius_override` (the command line), else from the source itself, else from `base`.
    ///
    /// ```
    /// use trinav::BakeSettings;
    /// use trinav_bake::Level;
    /// use trinav_bake::import::Source;
    /// let source = Source::Level(Level::from_json(r#"{"walkable": [], "agent_radius": 0.5}"#)?);
    /// assert_eq!(source.settings(BakeSettings::default(), None).agent_radius, 0.5);
    /// assert_eq!(source.settings(BakeSettings::default(), Some(2.0)).agent_radius, 2.0);
    /// # Ok::<(), trinav_bake::LevelError>(())
    /// ```
    pub fn settings(&self, base: BakeSettings, radius_override: Option<f64>) -> BakeSettings {
        crate::with_radius(base, self.agent_radius(), radius_override)
    }
}

/// Reads a level file in `format` (or the one its extension names).
pub fn import(
    path: &Path,
    format: Option<InputFormat>,
    options: &ImportOptions,
) -> Result<Source, ImportError> {
    let file = path.display().to_string();
    let format = match format.or_else(|| InputFormat::from_path(path)) {
        Some(format) => format,
        None => {
            let extension = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
            return Err(ImportError::UnknownFormat { file, extension });
        }
    };
    let terrain = &options.terrain;
    let refused = |option| ImportError::TerrainNotApplicable { file: file.clone(), option, format };
    if terrain.has_letters() && format != InputFormat::Map {
        return Err(refused(TerrainOption::Letters));
    }
    if terrain.has_colors() && format != InputFormat::Image {
        return Err(refused(TerrainOption::Colors));
    }
    // A grid whose terrain types no cell: a plain grid.
    let grid_or_terrain =
        |grid: TerrainGrid| if grid.has_types() { Source::Terrain(grid) } else { Source::Grid(grid.grid) };
    let read =
        || std::fs::read_to_string(path).map_err(|source| ImportError::Io { file: file.clone(), source });
    Ok(match format {
        InputFormat::Json => Source::Level(Level::from_json(&read()?).map_err(|e| match e {
            LevelError::Json { line, column, source } => {
                ImportError::Json { file: file.clone(), line, column, source }
            }
            LevelError::Io(source) => ImportError::Io { file: file.clone(), source },
        })?),
        InputFormat::Map if terrain.has_letters() => {
            grid_or_terrain(TerrainGrid::parse_map(&read()?, &file, terrain)?)
        }
        InputFormat::Map => Source::Grid(Grid::parse_map(&read()?, &file)?),
        InputFormat::Image if terrain.has_colors() => {
            grid_or_terrain(TerrainGrid::from_image(path, options.threshold, terrain)?)
        }
        InputFormat::Image => Source::Grid(Grid::from_image(path, options.threshold)?),
        InputFormat::Mesh => Source::Region(polyanya::parse_mesh(&read()?, &file)?),
        InputFormat::Poly => Source::Region(poly::parse_poly(&read()?, &file)?),
        InputFormat::Maze => Source::Grid(Grid::parse_maze(&read()?, &file)?),
    })
}

/// Bakes what an importer read with `settings`.
pub fn bake_source(source: &Source, settings: &BakeSettings) -> Result<Baked, BakeError> {
    match source {
        Source::Level(level) => crate::bake(level, settings),
        Source::Grid(grid) if settings.agent_radius > 0.0 => {
            crate::bake(&grid.to_level().map_err(BakeError::Import)?, settings)
        }
        Source::Grid(grid) => {
            // Tracing the free cells is this route's stage 2 (its rings meet only at shared
            // corners, so they need no noding): its time counts as merge's.
            let start = std::time::Instant::now();
            let region = grid.walkable_region().map_err(BakeError::Import)?;
            let times = crate::StageTimes { merge: start.elapsed(), ..Default::default() };
            crate::bake_noded_region(&region, settings, times)
        }
        Source::Terrain(grid) if settings.agent_radius > 0.0 => {
            crate::bake(&grid.to_level().map_err(BakeError::Import)?, settings)
        }
        Source::Terrain(grid) => {
            // As for a plain grid, the tracing (each type's cells, then the pieces' noding) is
            // this route's stage 2.
            let start = std::time::Instant::now();
            let region = grid.walkable_region().map_err(BakeError::Import)?;
            let times = crate::StageTimes { merge: start.elapsed(), ..Default::default() };
            crate::bake_noded_region(&region, settings, times)
        }
        Source::Region(region) => {
            if settings.agent_radius > 0.0 {
                return Err(BakeError::RadiusOnMesh { agent_radius: settings.agent_radius });
            }
            crate::bake_region(region.clone(), settings)
        }
    }
}
