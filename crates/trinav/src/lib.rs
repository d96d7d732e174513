//! # trinav: 2D navigation meshes at runtime
//!
//! This crate is what a game links: it loads a navigation mesh baked by `trinav-bake` (or the
//! `trinav` command) and answers queries on it. It depends on no geometry crate of the baker.
//!
//! ## From bytes to paths, frame after frame
//!
//! 1. **Bytes to mesh.** A baked file (`trinav bake level.json -o level.nav`) is loaded from
//!    memory with [`NavMesh::from_bytes`] (or from disk with [`NavMesh::load`]). Loading checks
//!    everything (framing, checksum, every structural rule) and fails with a typed
//!    [`LoadError`]; a hostile or corrupted file never panics and never allocates beyond a small
//!    multiple of its size. A big mesh loads on two threads for the length of the load
//!    ([`file::LoadOptions`]; [`NavMesh::from_bytes_with`] keeps it on one).
//! 2. **One mesh for every thread.** A [`NavMesh`] is immutable, `Send + Sync`: put it in an
//!    `Arc` and share it.
//! 3. **One scratch per thread.** A [`PathScratch`] holds a path query's working memory. Give
//!    each thread (or each worker of a job system) its own and reuse it: after the first
//!    queries it has grown to the mesh, and [`NavMesh::find_path_into`] with a reused [`Path`]
//!    allocates nothing.
//! 4. **Per-frame queries.** [`NavMesh::locate`] (which triangle), [`NavMesh::nearest_point`]
//!    (snap a click to the walkable area), [`NavMesh::raycast`] (line of sight), and paths in
//!    two [`PathMode`]s: fast, or exactly shortest. [`PathOptions`] bounds a query's work
//!    ([`PathOptions::node_budget`]) and asks for partial paths ([`PathOptions::partial`]): an
//!    agent whose goal is out of reach walks as close as it can.
//!
//! ```
//! use std::sync::Arc;
//! use trinav::{NavMesh, Path, PathMode, PathOptions, PathScratch, Point};
//!
//! // 1. The bytes of a baked mesh, here compiled into the program.
//! let bytes: &[u8] = include_bytes!("../tests/fixtures/courtyard_cdt.nav");
//! let mesh = Arc::new(NavMesh::from_bytes(bytes)?);
//!
//! // 2-3. A worker thread with its own scratch and path buffer.
//! let worker = {
//!     let mesh = Arc::clone(&mesh);
//!     std::thread::spawn(move || {
//!         let (mut scratch, mut path) = (PathScratch::new(), Path::default());
//!         // 4. Each frame: a bounded query that always gives the agent somewhere to go.
//!         let options = PathOptions::default().with_partial(true).with_node_budget(2_000);
//!         let mut lengths = Vec::new();
//!         for goal in [Point::new(50.0, 55.0), Point::new(30.0, 30.0)] {
//!             mesh.find_path_into(Point::new(2.0, 2.0), goal, &options, &mut scratch, &mut path)?;
//!             lengths.push((path.length, path.partial));
//!         }
//!         Ok::<_, trinav::PathError>(lengths)
//!     })
//! };
//! let lengths = worker.join().expect("no panic")?;
//! // (30, 30) is in the walled courtyard, another island: the agent gets as close as it can.
//! assert!(lengths[0].1.is_none() && lengths[1].1.is_some());
//!
//! // The exact shortest path, where quality shows.
//! let optimal = PathOptions::default().with_mode(PathMode::Optimal);
//! let path = mesh.find_path_with(Point::new(2.0, 2.0), Point::new(50.0, 55.0), &optimal, &mut PathScratch::new())?;
//! assert!(path.length <= lengths[0].0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/agents.rs` runs the same with many agents on several threads
//! (`cargo run --release -p trinav --example agents`).
//!
//! ## What else is here
//!
//! The root holds what a game uses. Three modules serve tools: [`geometry`] (the exact
//! orientation predicate every decision goes through, and the coordinate limits), [`build`]
//! (building and checking a mesh from raw arrays, for bakers) and [`file`](mod@file) (the baked file's
//! layout and raw encoding).

#![warn(missing_docs)]

pub mod geometry;

mod area_names;
mod clearance;
mod format;
mod ids;
mod layers;
mod links;
mod mesh;
mod parallel;
mod patch;
mod point;
mod query;
mod settings;
mod spatial_index;
#[cfg(test)]
mod test_meshes;
mod topology;

pub use area_names::{AreaNameProblem, AreaNames, BadAreaName};
pub use format::LoadError;
pub use ids::{AreaId, IslandId, TriangleId, VertexId};
pub use layers::{DEFAULT_LAYER, LayerId, LayerProblem, LayerTable, MAX_LAYERS};
pub use links::{LinkEnd, LinkError, LinkId, MAX_LINKS, OffMeshLink};
pub use mesh::{AreaTypeStats, MeshStats, NavMesh};
pub use point::{Aabb, Point};
pub use query::QueryError;
pub use query::path::{
    AreaCostError, AreaCosts, Endpoint, LinkStep, PartialReason, Path, PathError, PathMode, PathOptions,
    PathScratch,
};
pub use query::raycast::RayHit;
pub use settings::{BakeSettings, SettingsError, Triangulation, UnknownName};

/// Building a mesh from its raw arrays and checking them: what bakers and tools use, not games.
///
/// A baker fills [`MeshParts`](build::MeshParts) (vertices, counter-clockwise triangles, their
/// neighbours, areas and islands, computed with [`build_adjacency`](build::build_adjacency) and
/// [`find_islands`](build::find_islands)) and hands them to
/// [`NavMesh::from_parts`](crate::NavMesh::from_parts), which checks every rule of
/// [`MeshParts::find_problems`](build::MeshParts::find_problems), the same road a loaded file
/// takes.
///
/// A mesh can also change in place: [`NavMesh::apply_patch`](crate::NavMesh::apply_patch)
/// replaces some triangles with others ([`MeshPatch`](build::MeshPatch)) and updates the
/// derived data near the change only; [`check_derived`](build::check_derived) compares a
/// changed mesh with one built from its arrays.
pub mod build {
    pub use crate::mesh::{InvalidMesh, MeshParts, MeshProblem, position_key};
    pub use crate::patch::{MeshPatch, PatchError, PatchOutcome, PatchWrites, check_derived};
    pub use crate::topology::{TopologyError, build_adjacency, find_islands};
}

/// The baked file: its layout, version, and raw encoding and decoding.
///
/// ```text
/// offset  size  field
/// 0       8     magic "TRINAV\r\n"
/// 8       4     format version, u32 little-endian
/// 12      4     vertex count, u32 LE
/// 16      4     triangle count, u32 LE
/// 20      8     payload length in bytes, u64 LE
/// 28      n     payload: fixed-width little-endian arrays: settings, vertices, the vertex
///               order (derived), triangles, neighbours, areas, islands, the edge list
///               (derived), then the off-mesh links (version 3), the layers (version 4)
///               and the names of the area types (version 5); version 1 files held bincode
///               2 of the first six
/// 28+n    4     CRC-32 (IEEE) of bytes 0..28+n, u32 LE
/// ```
///
/// Games load files with [`NavMesh::load`](crate::NavMesh::load) or
/// [`NavMesh::from_bytes`](crate::NavMesh::from_bytes), which check everything (framing,
/// checksum, sizes, then every structural rule) and fail with a typed
/// [`LoadError`]; nothing panics. Encoding is deterministic: the same mesh
/// always gives the same bytes.
pub mod file {
    pub use crate::format::{
        EncodeError, FORMAT_VERSION, HEADER_LEN, LoadOptions, LoadTimes, MAGIC, TRAILER_LEN, decode, encode,
        load_timed, load_timed_with,
    };
}
