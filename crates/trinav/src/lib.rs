//! # trinav: 2D navigation meshes at runtime
//!
//! This crate is what a game links: it loads a navigation mesh baked by `trinav-bake` (or the
//! `trinav` command) and answers queries on it. It depends on no geometry crate of the baker.
//!
//! FRONT-PAGE-WALKTHROUGH

#![warn(missing_docs)]

pub mod geometry;

mod format;
mod ids;
mod mesh;
mod point;
mod query;
mod settings;
mod spatial_index;
mod topology;

pub use format::LoadError;
pub use ids::{AreaId, IslandId, TriangleId, VertexId};
pub use mesh::{MeshStats, NavMesh};
pub use point::{Aabb, Point};
pub use query::QueryError;
pub use query::path::{Endpoint, PartialReason, Path, PathError, PathMode, PathOptions, PathScratch};
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
pub mod build {
    pub use crate::mesh::{InvalidMesh, MeshParts, MeshProblem, position_key};
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
/// 28      n     payload: bincode 2 (standard config: little-endian, varint integers) of
///               settings, vertices, triangles, neighbours, areas, islands
/// 28+n    4     CRC-32 (IEEE) of bytes 0..28+n, u32 LE
/// ```
///
/// Games load files with [`NavMesh::load`](crate::NavMesh::load) or
/// [`NavMesh::from_bytes`](crate::NavMesh::from_bytes), which check everything (framing,
/// checksum, sizes, then every structural rule) and fail with a typed
/// [`LoadError`](crate::LoadError); nothing panics. Encoding is deterministic: the same mesh
/// always gives the same bytes.
pub mod file {
    pub use crate::format::{EncodeError, FORMAT_VERSION, HEADER_LEN, MAGIC, TRAILER_LEN, decode, encode};
}
