//! Meshes for the crate's unit tests: random lattices, and parts with their derived arrays.

use rand::RngExt;

use crate::geometry::Point;
use crate::ids::{AreaId, VertexId};
use crate::mesh::MeshParts;
use crate::settings::BakeSettings;
use crate::topology::{build_adjacency, find_islands};

/// A random mesh of unit squares on a `size` x `size` lattice, each cut by a random diagonal,
/// one half in `leave_out_one_in` (on average) left out: walls with straight runs (half turns
/// exactly), reflex and convex corners, pinch points where triangles meet at a corner only (up
/// to eight triangles round a vertex), corridors, loops, dead ends and islands that are trees.
pub(crate) fn lattice_mesh(
    rng: &mut rand_pcg::Pcg64,
    size: u32,
    leave_out_one_in: u32,
) -> (Vec<Point>, Vec<[VertexId; 3]>) {
    let vertices = (0..=size).flat_map(|y| (0..=size).map(move |x| Point::new(x as f64, y as f64))).collect();
    let id = |x: u32, y: u32| VertexId(y * (size + 1) + x);
    let mut triangles = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let [a, b, c, d] = [id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1)];
            let halves =
                if rng.random_range(0..2) == 0 { [[a, b, c], [a, c, d]] } else { [[a, b, d], [b, c, d]] };
            triangles.extend(halves.into_iter().filter(|_| rng.random_range(0..leave_out_one_in) != 0));
        }
    }
    (vertices, triangles)
}

/// Valid parts of `triangles` on `vertices` (adjacency and islands derived), area 0.
pub(crate) fn parts_of(vertices: Vec<Point>, triangles: Vec<[VertexId; 3]>) -> MeshParts {
    let neighbours = build_adjacency(&triangles, vertices.len()).expect("a manifold mesh");
    let (islands, _) = find_islands(&neighbours);
    MeshParts {
        settings: BakeSettings::default(),
        areas: vec![AreaId(0); triangles.len()],
        vertices,
        triangles,
        neighbours,
        islands,
    }
}
