//! Stage 5, derive: islands, area ids, bounds and the point-location grid.
//!
//! Islands are the connected components over edge adjacency
//! ([`trinav::find_islands`]); each triangle keeps the area type of the piece it was cut from. Bounds and the uniform
//! grid are derived by the same code that runs when a baked file is loaded, so a baked and a
//! loaded mesh are built identically; the bake's own meshes skip the structure checks, which
//! its stages establish (`derive_baked_beside`).

use std::time::{Duration, Instant};

use trinav::build::{InvalidMesh, MeshParts, find_islands};
use trinav::{BakeSettings, NavMesh};

use crate::weld::WeldedMesh;

/// Runs stage 5 on a welded mesh of any origin, checking every rule of
/// [`MeshParts::find_problems`] ([`NavMesh::from_parts`]). An error here is a bug in the
/// stage that made `welded`.
pub fn derive(welded: WeldedMesh, settings: &BakeSettings) -> Result<NavMesh, InvalidMesh> {
    NavMesh::from_parts(parts_of(welded, settings))
}

/// Runs stage 5 on the weld of the bake's own triangles, which establish the rules that
/// [`NavMesh::from_parts`] would check again: stage 3 checked every triangle strictly
/// counter-clockwise, stage 4 welded the vertices by exact position and built the adjacency
/// with [`trinav::build::build_adjacency`] (refusing any edge shared the wrong way), and the
/// islands are computed here ([`NavMesh::from_trusted_parts_beside`]; debug builds check it
/// all). Runs `verify` (stage 6) on the arrays meanwhile, on this thread while the grid and the
/// pockets are built on a second one from [`NavMesh::TWO_THREADS_FROM`] triangles: the mesh,
/// and `verify`'s answer with the time it took.
pub(crate) fn derive_baked_beside<R>(
    welded: WeldedMesh,
    settings: &BakeSettings,
    verify: impl FnOnce(&MeshParts) -> R,
) -> Result<(NavMesh, (R, Duration)), InvalidMesh> {
    NavMesh::from_trusted_parts_beside(parts_of(welded, settings), |parts| {
        let start = Instant::now();
        let answer = verify(parts);
        (answer, start.elapsed())
    })
}

/// The mesh arrays of `welded`, with its islands.
fn parts_of(welded: WeldedMesh, settings: &BakeSettings) -> MeshParts {
    let (islands, _) = find_islands(&welded.neighbours);
    MeshParts {
        settings: *settings,
        areas: welded.areas,
        islands,
        vertices: welded.vertices,
        triangles: welded.triangles,
        neighbours: welded.neighbours,
    }
}
