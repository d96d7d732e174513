//! Why a level file could not be imported: [`ImportError`] names the file (and the line), and
//! [`Malformed`] says what is wrong with the numbers and words at fault.

use std::fmt;

use crate::import::InputFormat;
use crate::import::grid::MAX_GRID_SIDE;
use crate::import::trace::TraceError;
use crate::merge::MergeError;
use crate::validate::MAX_LEVEL_COORDINATE;

/// A file that could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read.
    #[error("{file}: cannot read level")]
    Io {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A native level that is not valid JSON for the level format.
    #[error("{file}: invalid level JSON")]
    Json {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong (its message ends with the position).
        #[source]
        source: serde_json::Error,
    },
    /// A bitmap that cannot be decoded.
    #[error("{file}: cannot decode image")]
    Image {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: image::ImageError,
    },
    /// The file is malformed.
    #[error("{file}: line {line}: {reason}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line, 0 when not tied to one line.
        line: usize,
        /// What is wrong.
        reason: Malformed,
    },
    /// The extension names no known format.
    #[error("{file}: unknown level format (extension `{extension}`); use --format {}", InputFormat::NAMES.join("|"))]
    UnknownFormat {
        /// The file.
        file: String,
        /// Its extension.
        extension: String,
    },
    /// Terrain letters given for a file that is not a Moving AI map, or colours for one that is
    /// not a bitmap.
    #[error("{file}: {option} apply to {} only, not to a {} file", option.applies_to(), format.name())]
    TerrainNotApplicable {
        /// The file.
        file: String,
        /// What was given.
        option: TerrainOption,
        /// The file's format.
        format: InputFormat,
    },
    /// A bug: the boundary traced from a grid's cells does not form a region.
    #[error("internal error while importing")]
    Trace(#[source] TraceError),
    /// A bug: the even-odd combination of a polygon map returned rings that do not form
    /// polygons.
    #[error("internal error while importing")]
    Merge(#[source] MergeError),
}

/// A kind of grid terrain setting ([`ImportOptions::terrain`](crate::import::ImportOptions)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerrainOption {
    /// Map letters with area types.
    Letters,
    /// Bitmap colours with area types.
    Colors,
}

impl TerrainOption {
    /// The formats it applies to.
    fn applies_to(self) -> &'static str {
        match self {
            TerrainOption::Letters => "Moving AI maps (.map)",
            TerrainOption::Colors => "bitmaps",
        }
    }
}

impl fmt::Display for TerrainOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TerrainOption::Letters => "terrain letters",
            TerrainOption::Colors => "area colours",
        })
    }
}

/// What is wrong in a malformed level file, with the numbers and words at fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Malformed {
    /// The file ends where more was expected.
    #[error("file ends where {expected} was expected")]
    UnexpectedEnd {
        /// What was expected (`polygon count`, `x`, ...).
        expected: &'static str,
    },
    /// Numbers are left after the last expected one.
    #[error("unexpected data after {after}")]
    TrailingData {
        /// The last element read (`the last polygon`, ...).
        after: &'static str,
    },
    /// A header line is missing.
    #[error("missing `{key}` line")]
    MissingHeader {
        /// Its key (`type`, `height`, `width`, `map`).
        key: &'static str,
    },
    /// A header word other than the one expected.
    #[error("expected `{expected}`, found `{found}`")]
    WrongHeader {
        /// The word expected (`mesh`, `poly`, a map header key).
        expected: &'static str,
        /// What the file has instead.
        found: String,
    },
    /// A format version the importer does not read.
    #[error("{format} version {version} is not supported ({})", Alternatives(.supported))]
    UnsupportedVersion {
        /// The format (`mesh`, `poly`).
        format: &'static str,
        /// The version in the file.
        version: u32,
        /// The versions read.
        supported: &'static [u32],
    },
    /// A Moving AI map type other than `octile`.
    #[error("map type `{found}` is not supported (expected octile)")]
    UnsupportedMapType {
        /// The type in the file.
        found: String,
    },
    /// A word that is not the number expected.
    #[error("bad {what} `{word}`")]
    BadNumber {
        /// The number expected (`height`, `x`, `face vertex`, ...).
        what: &'static str,
        /// The word found.
        word: String,
    },
    /// A coordinate that is not finite or exceeds [`MAX_LEVEL_COORDINATE`].
    #[error("{what} {value} is not finite or exceeds ±{MAX_LEVEL_COORDINATE}")]
    Coordinate {
        /// Which coordinate (`x` or `y`).
        what: &'static str,
        /// Its value.
        value: f64,
    },
    /// A count larger than the file could hold.
    #[error("{what} {count} exceeds the {max} the file can hold")]
    CountTooLarge {
        /// What is counted (`vertex count`, ...).
        what: &'static str,
        /// The count in the file.
        count: usize,
        /// The most the file's size allows.
        max: usize,
    },
    /// An index naming no element.
    #[error("{what} index {index} out of range (there are {count})")]
    IndexOutOfRange {
        /// What is indexed (`vertex`, `polygon`, `face`).
        what: &'static str,
        /// The index (0-based).
        index: i64,
        /// How many there are.
        count: usize,
    },
    /// A map or maze size outside 1 to [`MAX_GRID_SIDE`] per side.
    #[error("{what} size {width}x{height} out of range (1 to {MAX_GRID_SIDE} per side)")]
    GridSize {
        /// `map` or `maze`.
        what: &'static str,
        /// Cells per row.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// An image larger than [`MAX_GRID_SIDE`] per side.
    #[error("image {width}x{height} too large ({MAX_GRID_SIDE} per side at most)")]
    ImageTooLarge {
        /// Pixels per row.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A map row of another length than the header declares.
    #[error("row {row} has {cells} cells, the header declares {width}")]
    RowLength {
        /// The row (0-based).
        row: u32,
        /// Its cells.
        cells: usize,
        /// The declared width.
        width: u32,
    },
    /// More map rows than the header declares.
    #[error("more than the {height} rows the header declares")]
    ExtraRows {
        /// The declared height.
        height: u32,
    },
    /// Fewer map rows than the header declares.
    #[error("{rows} rows, the header declares {height}")]
    MissingRows {
        /// The rows in the file.
        rows: u32,
        /// The declared height.
        height: u32,
    },
    /// A map character that is no cell kind.
    #[error("unknown cell `{cell}` at column {column}")]
    UnknownCell {
        /// The character.
        cell: char,
        /// Its column (0-based).
        column: usize,
    },
    /// A maze cell other than 0 or 1.
    #[error("cell {value} is neither 0 (free) nor 1 (blocked)")]
    MazeCell {
        /// The value.
        value: u8,
    },
    /// A mesh face's traversable flag other than 0 or 1.
    #[error("traversable flag must be 0 or 1, found {value}")]
    TraversableFlag {
        /// The value.
        value: u8,
    },
    /// A polygon with fewer than 3 points.
    #[error("polygon {polygon} has {points} points (at least 3)")]
    TooFewPoints {
        /// The polygon (0-based).
        polygon: usize,
        /// Its points.
        points: usize,
    },
    /// A mesh polygon that does not wind counter-clockwise.
    #[error("polygon {polygon} is not counter-clockwise")]
    NotCounterClockwise {
        /// The polygon (0-based).
        polygon: usize,
    },
    /// A mesh polygon names a neighbour that does not name it back.
    #[error(
        "polygon {polygon} names polygon {neighbour} across edge {}-{}, which does not name it back",
        .edge[0], .edge[1]
    )]
    OneWayNeighbour {
        /// The polygon (0-based).
        polygon: usize,
        /// The polygon it names (0-based).
        neighbour: usize,
        /// The edge's vertices (0-based).
        edge: [usize; 2],
    },
    /// A mesh's polygons do not trace into a region (they overlap, or their outline is open).
    #[error("{0}")]
    Outline(TraceError),
}

/// Numbers as `1` or `2 or 3`.
struct Alternatives<'a>(&'a [u32]);

impl fmt::Display for Alternatives<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" or ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_file_line_and_what_is_wrong() {
        let cases = [
            (
                Malformed::UnsupportedVersion { format: "mesh", version: 4, supported: &[2, 3] },
                "a.mesh: line 2: mesh version 4 is not supported (2 or 3)",
            ),
            (
                Malformed::UnsupportedVersion { format: "poly", version: 2, supported: &[1] },
                "a.mesh: line 2: poly version 2 is not supported (1)",
            ),
            (
                Malformed::OneWayNeighbour { polygon: 0, neighbour: 1, edge: [1, 3] },
                "a.mesh: line 2: polygon 0 names polygon 1 across edge 1-3, which does not name it back",
            ),
            (
                Malformed::GridSize { what: "map", width: 0, height: 5 },
                "a.mesh: line 2: map size 0x5 out of range (1 to 32768 per side)",
            ),
            (
                Malformed::Outline(TraceError::Outer { component: 3, outer_rings: 2 }),
                "a.mesh: line 2: walkable component 3 has 2 outer rings",
            ),
        ];
        for (reason, message) in cases {
            let error = ImportError::Syntax { file: "a.mesh".to_string(), line: 2, reason };
            assert_eq!(error.to_string(), message);
        }
    }
}
