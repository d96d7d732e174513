//! # trinav: 2D navigation meshes at runtime
//!
//! This crate loads a navigation mesh baked by `trinav-bake` and answers queries on it. It has
//! no dependency on the baker's geometry crates.
//!
//! A mesh is a set of counter-clockwise triangles over welded vertices, stored as flat arrays
//! indexed by `u32` ids ([`VertexId`], [`TriangleId`]); each triangle knows its neighbour
//! across each edge, its island (connected component) and its area type. A uniform grid locates
//! points.
//!
//! ```no_run
//! use trinav::{NavMesh, Point};
//! let mesh = NavMesh::load("level.nav")?;
//! if let Some(t) = mesh.locate(Point::new(3.0, 4.0)) {
//!     println!("triangle {t} on island {}", mesh.island(t));
//! }
//! # Ok::<(), trinav::LoadError>(())
//! ```
//!
//! Modules: [`geometry`] (points, the exact orientation predicate), [`topology`] (adjacency and
//! islands), [`format`] (the baked file), [`query`] (locate, nearest point, raycast, paths), and
//! the mesh itself ([`NavMesh`], [`validate`]).

#![warn(missing_docs)]

pub mod format;
mod fs;
pub mod geometry;
mod ids;
mod mesh;
pub mod query;
pub mod scenario;
mod settings;
mod spatial_index;
pub mod topology;

pub use format::{LoadError, SaveError};
pub use fs::write_atomic;
pub use geometry::{Aabb, Orientation, Point, orient};
pub use ids::{AreaId, IslandId, TriangleId, VertexId};
pub use mesh::{InvalidMesh, MeshParts, MeshProblem, MeshStats, NavMesh, position_key, validate};
pub use query::QueryError;
pub use query::nearest::closest_point_on_triangle;
pub use query::path::{Endpoint, Path, PathError, PathMode, PathOptions, PathScratch};
pub use query::raycast::RayHit;
pub use settings::{BakeSettings, Triangulation};
pub use topology::{Pocket, TopologyError, build_adjacency, find_islands, find_pockets};
