//! # trinav-dynamic: navigation meshes that change at runtime
//!
//! RTS buildings go up and burn down, doors close, bridges collapse. [`EditableMesh`] holds a
//! [`trinav::NavMesh`] whose obstacles are added ([`EditableMesh::add_obstacle`]), moved
//! ([`EditableMesh::move_obstacle`]) and removed ([`EditableMesh::remove_obstacle`]) while
//! the game runs, and for grid-born levels whose cells are set
//! ([`EditableMesh::set_cells`]). A game without dynamic obstacles links only `trinav`; this
//! crate brings the baker's geometry (the i_overlay boolean engine, the triangulators).
//!
//! - **Local.** A change re-triangulates only the base triangles the changed obstacles touch
//!   (with the obstacles sharing them) and patches the mesh in place
//!   ([`trinav::NavMesh::apply_patch`]): adjacency, islands, pockets, turning corners and the
//!   point-location grid are updated near the change.
//! - **Queries never wait.** [`EditableMesh::snapshot`] hands out the current mesh as an
//!   `Arc<NavMesh>`; a change builds the next mesh on a second copy (kept one change behind
//!   and brought up to date by replaying that change's patch, not by copying) and publishes
//!   it. Readers keep the snapshot they hold.
//! - **Same answer as a full bake.** Obstacles are inflated by the mesh's agent radius as a
//!   bake inflates them; the walkable area, islands and shortest paths equal those of a bake
//!   of the level with the same obstacles (up to the rounding of new crossing points).
//! - **Deterministic.** The shape of the mesh depends only on the base and the obstacles (and
//!   cells), whatever the order of the changes; the same sequence of changes gives the same
//!   arrays, bit for bit, and the same saved file.
//! - **Layers.** On a layered mesh an obstacle stands on a layer
//!   ([`EditableMesh::add_obstacle_on`]) and cuts that layer only; the part of a portal it
//!   covers closes on both sides, the rest still joins the layers.
//! - **Bad input changes nothing.** Every error ([`EditError`]) leaves the mesh as it was.
//!
//! ```
//! use trinav::{BakeSettings, PathMode, PathOptions, PathScratch, Point};
//! use trinav_bake::{bake, Level, PolygonInput};
//! use trinav_dynamic::EditableMesh;
//!
//! let level = Level { walkable: vec![PolygonInput::rect(0.0, 0.0, 30.0, 10.0)], ..Level::default() };
//! let settings = BakeSettings::default().with_agent_radius(0.5);
//! let mut world = EditableMesh::new(bake(&level, &settings)?.mesh);
//! let (from, to) = (Point::new(2.0, 5.0), Point::new(28.0, 5.0));
//! let optimal = PathOptions::default().with_mode(PathMode::Optimal);
//! let straight = world.snapshot().find_path_with(from, to, &optimal, &mut PathScratch::new())?.length;
//!
//! // A building goes up in the way: paths go around it (and keep the agent radius from it).
//! let building = world.add_obstacle(&PolygonInput::rect(14.0, 2.0, 16.0, 8.0))?;
//! let around = world.snapshot().find_path_with(from, to, &optimal, &mut PathScratch::new())?.length;
//! assert!(around > straight);
//!
//! // It burns down: the straight path is back.
//! world.remove_obstacle(building)?;
//! let again = world.snapshot().find_path_with(from, to, &optimal, &mut PathScratch::new())?.length;
//! assert_eq!(again, straight);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod base;
mod cut;
mod editable;
mod obstacle;
mod snapshots;
mod tiles;

pub use editable::{ChangeReport, EditableMesh};
pub use obstacle::ObstacleId;
pub use tiles::DEFAULT_TILE_CELLS;

use trinav::{Point, SettingsError};
use trinav_bake::ValidationError;

/// Why a change was refused. The mesh is unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EditError {
    /// No obstacle has this id (never added, or removed).
    #[error("no obstacle has id {0}")]
    UnknownObstacle(ObstacleId),
    /// The obstacle's polygon breaks the level format's rules (a ring crossing itself,
    /// coordinates out of range, ...).
    #[error("invalid obstacle: {0}")]
    Invalid(ValidationError),
    /// The settings are out of range.
    #[error("bad settings: {0}")]
    Settings(SettingsError),
    /// An obstacle without a layer on a mesh of several layers: use
    /// [`EditableMesh::add_obstacle_on`].
    #[error("the mesh has {layers} layers: an obstacle must name the layer it stands on")]
    LayerNeeded {
        /// The mesh's layer count.
        layers: usize,
    },
    /// On a mesh baked with an agent radius whose layers are joined by portals, an obstacle
    /// whose inflation reaches another layer's ground: a bake would cut that layer too (its
    /// inflated obstacles reach across portals), a local cut of one layer would not.
    #[error(
        "an obstacle on layer {layer} whose inflation by the agent radius ({agent_radius}) reaches layer {other}: on a mesh baked with a radius whose layers are joined by portals, obstacles must stay clear of the other layers (or bake at radius 0 and give the radius to queries)"
    )]
    ReachesAnotherLayer {
        /// The obstacle's layer.
        layer: trinav::LayerId,
        /// A layer its inflation reaches.
        other: trinav::LayerId,
        /// The mesh's agent radius.
        agent_radius: f64,
    },
    /// An obstacle on a layer the mesh does not have.
    #[error("the mesh has no layer {0}")]
    NoSuchLayer(trinav::LayerId),
    /// Cells were set on a mesh not made from a grid.
    #[error("this mesh was not made from a grid: it has no cells to set")]
    NotAGrid,
    /// A grid-born editable mesh was asked for with an agent radius.
    #[error(
        "agent radius {agent_radius}: a grid's cells are edited at radius 0 (bake the grid with its radius and add obstacles instead)"
    )]
    GridRadius {
        /// The radius asked for.
        agent_radius: f64,
    },
    /// A tile size outside 1 to 4096 cells.
    #[error("tiles of {0} cells a side: the size must be 1 to 4096")]
    TileSize(u32),
    /// A grid or patch whose cell list does not match its size, or with no cells.
    #[error("a grid of {width} x {height} cells has {cells} cell values")]
    BadGrid {
        /// Cells per row.
        width: u32,
        /// Rows.
        height: u32,
        /// Cell values given.
        cells: usize,
    },
    /// A patch reaching outside the grid.
    #[error(
        "a patch of {width} x {height} cells at ({x}, {y}) reaches outside the {grid_width} x {grid_height} grid"
    )]
    PatchOutsideGrid {
        /// Its column.
        x: u32,
        /// Its row.
        y: u32,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// The grid's width.
        grid_width: u32,
        /// The grid's height.
        grid_height: u32,
    },
    /// Two distinct points of one change are closer than the boolean engine's grid can tell
    /// apart (about 2^-30 of the changed region's size).
    #[error(
        "points ({}, {}) and ({}, {}) are too close to tell apart at the size of the change",
        .first.x, .first.y, .second.x, .second.y
    )]
    Precision {
        /// One point.
        first: Point,
        /// The other.
        second: Point,
    },
    /// A step that cannot fail on valid input failed: a bug, reported with what went wrong.
    #[error("internal error (the mesh is unchanged): {0}")]
    Internal(String),
}

// Not `#[from]`: that would also make the inner error the `source`, and error reporters that
// print the chain would say it twice (the message already holds it).
impl From<ValidationError> for EditError {
    fn from(e: ValidationError) -> EditError {
        EditError::Invalid(e)
    }
}

impl From<SettingsError> for EditError {
    fn from(e: SettingsError) -> EditError {
        EditError::Settings(e)
    }
}
