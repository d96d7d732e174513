//! Stage 5, derive: islands, area ids, bounds and the point-location grid.
//!
//! Islands are the connected components over edge adjacency
//! ([`trinav::find_islands`]); each triangle keeps the area type of the piece it was cut from. Bounds and the uniform
//! grid are derived by [`NavMesh::from_parts`], the same code that runs when a baked file is
//! loaded, so a baked and a loaded mesh are built identically.

use trinav::build::{InvalidMesh, MeshParts, find_islands};
use trinav::{BakeSettings, NavMesh};

use crate::weld::WeldedMesh;

/// Runs stage 5. An error here is a bug in an earlier stage: the welded mesh breaks a rule of
/// [`MeshParts::find_problems`].
pub fn derive(welded: WeldedMesh, settings: &BakeSettings) -> Result<NavMesh, InvalidMesh> {
    let (islands, _) = find_islands(&welded.neighbours);
    let parts = MeshParts {
        settings: *settings,
        areas: welded.areas,
        islands,
        vertices: welded.vertices,
        triangles: welded.triangles,
        neighbours: welded.neighbours,
    };
    NavMesh::from_parts(parts)
}
