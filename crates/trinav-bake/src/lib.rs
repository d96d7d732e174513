//! # trinav-bake: level geometry to navigation mesh
//!
//! The offline half of trinav. [`bake`] runs six stages, one module each, every stage a
//! function from a named input to a named output that can be inspected or drawn:
//!
//! | stage | function | output |
//! |---|---|---|
//! | 1 | [`validate::validate`] | [`ValidatedLevel`]: cleaned rings, or an error naming polygon, ring and points |
//! | 2 | [`merge::merge`] | [`MergedRegion`]: union(walkable) − inflate(union(obstacles)) |
//! | 3 | [`triangulate::triangulate`] | [`TriangleSoup`]: ear clipping or constrained Delaunay |
//! | 4 | [`weld::weld`] | [`WeldedMesh`]: exact vertex welding, edge adjacency |
//! | 5 | [`derive::derive`] | [`trinav::NavMesh`]: islands, area ids, bounds, grid |
//! | 6 | [`verify::verify`] | [`VerifyReport`]: area conserved, boundary on the rings |
//!
//! ```
//! use trinav_bake::{bake, Level, PolygonInput};
//! use trinav::BakeSettings;
//! let level = Level {
//!     walkable: vec![PolygonInput::rect(0.0, 0.0, 10.0, 10.0)],
//!     obstacles: vec![PolygonInput::rect(4.0, 4.0, 6.0, 6.0)],
//!     ..Level::default()
//! };
//! let baked = bake(&level, &BakeSettings::default())?;
//! assert_eq!(baked.mesh.stats().area, 96.0);
//! assert_eq!(baked.mesh.island_count(), 1);
//! # Ok::<(), trinav_bake::BakeError>(())
//! ```

#![warn(missing_docs)]

pub mod derive;
pub mod generate;
pub mod import;
pub mod layers;
pub mod level;
pub mod merge;
mod point_table;
mod ring_crossings;
mod segment_points;
pub mod triangulate;
pub mod validate;
pub mod verify;
pub mod weld;

use std::time::{Duration, Instant};

use serde::Serialize;
use trinav::build::InvalidMesh;
use trinav::{BakeSettings, NavMesh, SettingsError};

pub use layers::LayerError;
pub use level::{AreaInput, LayerInput, Level, LevelError, LinkInput, PolygonInput, PortalInput};
pub use merge::{MergedPolygon, MergedRegion};
pub use triangulate::{Fallback, TriangleSoup, TriangulateError, TriangulationProblem};
pub use validate::{SelfIntersection, ValidatedLevel, ValidationError};
pub use verify::{VerifyError, VerifyReport};
pub use weld::{WeldError, WeldedMesh};

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// Why a bake failed.
#[derive(Debug, thiserror::Error)]
pub enum BakeError {
    /// The bake settings are out of range.
    #[error("bad settings")]
    Settings(#[from] SettingsError),
    /// A mesh or polygon map was given an agent radius.
    #[error(
        "agent radius {agent_radius}: a mesh's outline is its walls, which the agent radius does not shrink: bake meshes with radius 0"
    )]
    RadiusOnMesh {
        /// The radius asked for.
        agent_radius: f64,
    },
    /// An imported file could not be turned into geometry.
    #[error(transparent)]
    Import(#[from] import::ImportError),
    /// The input geometry is refused (stage 1).
    #[error(transparent)]
    Validation(#[from] ValidationError),
    /// The boolean operations returned rings that do not form polygons (stage 2): a bug.
    #[error(transparent)]
    Merge(#[from] merge::MergeError),
    /// Obstacles cover every walkable polygon (stage 2).
    #[error(
        "nothing is walkable: the obstacles (inflated by the agent radius {agent_radius}) cover every walkable polygon"
    )]
    NothingWalkable {
        /// The agent radius used.
        agent_radius: f64,
    },
    /// A polygon could not be triangulated (stage 3).
    #[error(transparent)]
    Triangulation(#[from] TriangulateError),
    /// The triangles do not weld into a valid surface (stage 4).
    #[error("weld failed")]
    Weld(#[from] WeldError),
    /// The derived mesh breaks a structural rule (stage 5): a bug.
    #[error("internal error, derived mesh is invalid")]
    Derive(#[from] InvalidMesh),
    /// The mesh does not match the merged region (stage 6): a bug.
    #[error("verification failed")]
    Verification(#[from] VerifyError),
    /// An off-mesh link of the level is refused (an end off the walkable area, a bad cost).
    #[error("link {index} (from [{}, {}] to [{}, {}]): {error}", .link.from[0], .link.from[1], .link.to[0], .link.to[1])]
    Link {
        /// Its place in the level's `links`.
        index: usize,
        /// The link (boxed: it is large, and errors are rare).
        link: Box<LinkInput>,
        /// What is wrong.
        error: trinav::LinkError,
    },
    /// A layer or portal of the level is refused (a bad or unknown name, a portal off a
    /// layer's boundary).
    #[error(transparent)]
    Layer(#[from] LayerError),
    /// Baking one layer failed.
    #[error("layer {name:?}: {error}")]
    InLayer {
        /// The layer.
        name: String,
        /// Why.
        error: Box<BakeError>,
    },
}

/// Time spent in each stage.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StageTimes {
    /// Stage 1.
    pub validate: Duration,
    /// Stage 2; for an imported region, its noding (and a grid's tracing, in `bake_source`).
    pub merge: Duration,
    /// Stage 3.
    pub triangulate: Duration,
    /// Stage 4.
    pub weld: Duration,
    /// Stage 5: with stage 6 run beside it, the time of the pair less stage 6's own (so the
    /// stages add up to the bake; on two threads, what the derivation took beyond the
    /// verification).
    pub derive: Duration,
    /// Stage 6, its own time (beside stage 5: see [`NavMesh::from_trusted_parts_beside`]).
    pub verify: Duration,
}

impl StageTimes {
    /// Sum of all stages.
    pub fn total(&self) -> Duration {
        self.validate + self.merge + self.triangulate + self.weld + self.derive + self.verify
    }
}

/// What a bake reports besides the mesh.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BakeReport {
    /// Time per stage.
    pub times: StageTimes,
    /// Points dropped by input repairs (repeats, spike tips).
    pub dropped_points: usize,
    /// Polygons of the walkable region.
    pub region_polygons: usize,
    /// Polygons that fell back from ear clipping to constrained Delaunay.
    pub fallbacks: Vec<Fallback>,
    /// The verification figures.
    pub verification: VerifyReport,
}

/// A baked mesh with its report.
#[derive(Clone, Debug)]
pub struct Baked {
    /// The mesh.
    pub mesh: NavMesh,
    /// How the bake went.
    pub report: BakeReport,
}

/// Runs `stage`, adding its duration to `slot`.
fn timed<T>(slot: &mut Duration, stage: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let output = stage();
    *slot += start.elapsed();
    output
}

/// The settings for baking `level`: `base`, with the agent radius taken from `radius_override`,
/// else from the level, else from `base`.
pub fn settings_for(level: &Level, base: BakeSettings, radius_override: Option<f64>) -> BakeSettings {
    with_radius(base, level.agent_radius, radius_override)
}

/// The one rule for which agent radius a bake uses: the override (the command line), else the
/// input's own, else the base settings'.
fn with_radius(base: BakeSettings, own: Option<f64>, radius_override: Option<f64>) -> BakeSettings {
    base.with_agent_radius(radius_override.or(own).unwrap_or(base.agent_radius))
}

/// Bakes a level into a verified navigation mesh, with the settings as given (see
/// [`settings_for`] to honour the level's own agent radius).
pub fn bake(level: &Level, settings: &BakeSettings) -> Result<Baked, BakeError> {
    settings.check()?;
    let names = validate::area_names(level)?;
    let mut baked = if !(level.layers.is_empty() && level.portals.is_empty()) {
        let mut baked = layers::bake_layered(level, settings)?;
        add_layered_links(&mut baked.mesh, level)?;
        baked
    } else {
        if let Some(index) = level.links.iter().position(|l| l.layers.is_some()) {
            let name = level.links[index].layers.as_ref().expect("found")[0].clone();
            return Err(LayerError::UnknownLayer { element: format!("link {index}"), name }.into());
        }
        bake_on_grid(level, settings, None)?
    };
    baked.mesh.set_area_names(names);
    Ok(baked)
}

/// [`bake`] of a level without layers, with the boolean engine's grid fixed by `grid` (see
/// [`merge::merge_on_grid`]): the layers of a layered level are baked on one grid.
pub(crate) fn bake_on_grid(
    level: &Level,
    settings: &BakeSettings,
    grid: Option<trinav::Aabb>,
) -> Result<Baked, BakeError> {
    let mut times = StageTimes::default();
    let validated = timed(&mut times.validate, || validate::validate(level))?;
    let region = timed(&mut times.merge, || merge::merge_on_grid(&validated, settings, grid))?;
    if region.polygons.is_empty() {
        return Err(BakeError::NothingWalkable { agent_radius: settings.agent_radius });
    }
    let mut baked = finish(&region, settings, times, validated.dropped_points)?;
    add_links(&mut baked.mesh, &level.links)?;
    Ok(baked)
}

/// Adds a level's links to its baked mesh, refusing the first bad one.
pub fn add_links(mesh: &mut NavMesh, links: &[LinkInput]) -> Result<(), BakeError> {
    for (index, link) in links.iter().enumerate() {
        mesh.add_link(link.to_link()).map_err(|error| BakeError::Link {
            index,
            link: Box::new(link.clone()),
            error,
        })?;
    }
    Ok(())
}

/// Adds a layered level's links to its baked mesh: each names the layers of its ends.
fn add_layered_links(mesh: &mut NavMesh, level: &Level) -> Result<(), BakeError> {
    for (index, link) in level.links.iter().enumerate() {
        let element = format!("link {index}");
        let Some([from, to]) = &link.layers else {
            return Err(LayerError::LinkWithoutLayers { index }.into());
        };
        let from = layers::layer_named(level, from, &element)?;
        let to = layers::layer_named(level, to, &element)?;
        mesh.add_link(link.to_link().with_layers(from, to)).map_err(|error| BakeError::Link {
            index,
            link: Box::new(link.clone()),
            error,
        })?;
    }
    Ok(())
}

/// Bakes a walkable region that is clean already (from an importer: simple rings meeting only
/// at vertices, no two edges crossing), running stages 3 to 6. The importers make sure of it;
/// a region built by hand must too: the triangulator is not given rings that cross (i_triangle
/// can panic or index out of bounds on them).
pub fn bake_region(mut region: MergedRegion, settings: &BakeSettings) -> Result<Baked, BakeError> {
    settings.check()?;
    let mut times = StageTimes::default();
    // Noding is the one step of stage 2 an importer's region needs.
    timed(&mut times.merge, || merge::node_rings(&mut region.polygons));
    bake_noded_region(&region, settings, times)
}

/// Stages 3 to 6 of a region whose rings meet only at shared vertices already (noded, as
/// traced grid cells are), with the stage times so far.
pub(crate) fn bake_noded_region(
    region: &MergedRegion,
    settings: &BakeSettings,
    times: StageTimes,
) -> Result<Baked, BakeError> {
    settings.check()?;
    if region.polygons.is_empty() {
        return Err(BakeError::NothingWalkable { agent_radius: settings.agent_radius });
    }
    finish(region, settings, times, 0)
}

/// Stages 3 to 6.
fn finish(
    region: &MergedRegion,
    settings: &BakeSettings,
    mut times: StageTimes,
    dropped_points: usize,
) -> Result<Baked, BakeError> {
    let soup = timed(&mut times.triangulate, || triangulate::triangulate(region, settings.triangulation))?;
    let welded = timed(&mut times.weld, || weld::weld(&soup))?;
    // Stage 6 beside stage 5: the verification reads only the mesh's arrays.
    let start = Instant::now();
    let (mesh, (verification, verify_time)) =
        derive::derive_baked_beside(welded, settings, |parts| verify::verify_parts(region, parts))?;
    times.derive += start.elapsed().saturating_sub(verify_time);
    times.verify += verify_time;
    let verification = verification?;
    let report = BakeReport {
        times,
        dropped_points,
        region_polygons: region.polygons.len(),
        fallbacks: soup.fallbacks,
        verification,
    };
    Ok(Baked { mesh, report })
}
