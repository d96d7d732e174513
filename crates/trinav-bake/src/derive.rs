//! Stage 5, derive: islands, area ids, bounds and the point-location grid.
//!
//! Islands are the connected components over edge adjacency
//! ([`trinav::build::find_islands`]); each triangle keeps the area type of the piece it was cut from.
//! The bake's own meshes of at least [`NUMBER_BREADTH_FIRST_FROM`] triangles are numbered
//! breadth first from the lowest triangle of each island (`number_breadth_first`): every
//! triangle but the first of its island then links to a lower one, which lets a load count the
//! islands in one pass instead of by union-find. Bounds and the uniform grid are derived by
//! the same code that runs when a baked file is loaded, so a baked and a loaded mesh are built
//! identically; the bake's own meshes skip the structure checks, which its stages establish
//! (`derive_baked_beside`).

use std::time::{Duration, Instant};

use trinav::build::{InvalidMesh, MeshParts, find_islands};
use trinav::{BakeSettings, IslandId, NavMesh, TriangleId};

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
/// pockets are built on a pool thread from [`NavMesh::TWO_THREADS_FROM`] triangles: the mesh,
/// and `verify`'s answer with the time it took.
pub(crate) fn derive_baked_beside<R>(
    welded: WeldedMesh,
    settings: &BakeSettings,
    verify: impl FnOnce(&MeshParts) -> R,
) -> Result<(NavMesh, (R, Duration)), InvalidMesh> {
    let parts = if welded.triangles.len() >= NUMBER_BREADTH_FIRST_FROM {
        let (welded, islands) = number_breadth_first(welded);
        parts_with(welded, islands, settings)
    } else {
        parts_of(welded, settings)
    };
    NavMesh::from_trusted_parts_beside(parts, |parts| {
        let start = Instant::now();
        let answer = verify(parts);
        (answer, start.elapsed())
    })
}

/// The fewest triangles for which the bake numbers them breadth first per island: the meshes
/// whose load runs on two threads ([`trinav::file::LoadOptions::TWO_THREADS_FROM`]), where the
/// island count is on the longer thread (Aurora: 0.42 ms of union-find saved). Renumbering
/// costs the bake about 20-30 ns a triangle, 3% of a small map's bake (den011d's 1,402
/// triangles: 0.127 -> 0.153 ms for stage 5), more than one-thread loads of such meshes gain.
pub const NUMBER_BREADTH_FIRST_FROM: usize = trinav::file::LoadOptions::TWO_THREADS_FROM;

/// The mesh arrays of `welded`, with its islands.
fn parts_of(welded: WeldedMesh, settings: &BakeSettings) -> MeshParts {
    let (islands, _) = find_islands(&welded.neighbours);
    parts_with(welded, islands, settings)
}

/// The mesh arrays of `welded` with `islands`.
fn parts_with(welded: WeldedMesh, islands: Vec<IslandId>, settings: &BakeSettings) -> MeshParts {
    MeshParts {
        settings: *settings,
        areas: welded.areas,
        islands,
        vertices: welded.vertices,
        triangles: welded.triangles,
        neighbours: welded.neighbours,
    }
}

/// `welded` with its triangles numbered breadth first from the lowest triangle of each island,
/// islands in the order of their lowest triangles (the numbers [`find_islands`] gives, which
/// the renumbering keeps), and the island of each triangle. Every triangle but the first of
/// its island links to a lower one; the islands come in runs.
fn number_breadth_first(welded: WeldedMesh) -> (WeldedMesh, Vec<IslandId>) {
    let count = welded.triangles.len();
    // The new id of each old triangle once reached; the old triangles in their new order.
    let mut new_id = vec![u32::MAX; count];
    let mut order: Vec<u32> = Vec::with_capacity(count);
    let mut islands = Vec::with_capacity(count);
    let mut island = 0u32;
    for seed in 0..count {
        if new_id[seed] != u32::MAX {
            continue;
        }
        new_id[seed] = order.len() as u32;
        order.push(seed as u32);
        let mut next = order.len() - 1;
        while let Some(&t) = order.get(next) {
            next += 1;
            for n in welded.neighbours[t as usize] {
                if !n.is_none() && new_id[n.index()] == u32::MAX {
                    new_id[n.index()] = order.len() as u32;
                    order.push(n.0);
                }
            }
        }
        islands.resize(order.len(), IslandId(island));
        island += 1;
    }
    let renumber = |n: TriangleId| if n.is_none() { n } else { TriangleId(new_id[n.index()]) };
    let welded = WeldedMesh {
        triangles: order.iter().map(|&t| welded.triangles[t as usize]).collect(),
        neighbours: order.iter().map(|&t| welded.neighbours[t as usize].map(renumber)).collect(),
        areas: order.iter().map(|&t| welded.areas[t as usize]).collect(),
        vertices: welded.vertices,
    };
    (welded, islands)
}
