//! Polyanya (the `polyanya` crate): the same triangles as a Polyanya mesh for the path
//! queries, and the crate's own mesh builder for the bake comparison.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use glam::Vec2;
use polyanya::{Mesh, Triangulation, Trimesh};
use serde::Serialize;
use trinav::Point;
use trinav_bake::MergedRegion;

/// What converting to Polyanya's f32 world did.
#[derive(Clone, Debug, Serialize)]
pub struct PolyanyaDetails {
    /// Trimesh -> Mesh conversion plus `Mesh::bake` (point location tree, islands), ms.
    pub mesh_ms: f64,
    /// Largest coordinate change of a vertex rounded to f32.
    pub vertex_f32_max_error: f64,
    /// Largest relative difference between Polyanya's own (f32) path length and the f64 length
    /// of the path it returns (the reference used for the ratios).
    pub f32_length_max_rel_diff: f64,
}

/// A Polyanya mesh of trinav's triangles.
pub struct PolyanyaPeer {
    mesh: Mesh,
    pub details: PolyanyaDetails,
}

fn v2(p: Point) -> Vec2 {
    Vec2::new(p.x as f32, p.y as f32)
}

impl PolyanyaPeer {
    pub fn build(vertices: &[Point], triangles: &[[u32; 3]]) -> Result<Self, String> {
        let vertex_f32_max_error = vertices
            .iter()
            .map(|&p| {
                let q = v2(p);
                (q.x as f64 - p.x).abs().max((q.y as f64 - p.y).abs())
            })
            .fold(0.0, f64::max);
        let start = Instant::now();
        let trimesh = Trimesh {
            vertices: vertices.iter().map(|&p| v2(p)).collect(),
            triangles: triangles.iter().map(|t| t.map(|v| v as usize)).collect(),
        };
        let mut mesh = catch_unwind(AssertUnwindSafe(|| Mesh::try_from(trimesh)))
            .map_err(|_| "Mesh::try_from(Trimesh) panicked".to_string())?
            .map_err(|e| format!("Mesh::try_from(Trimesh): {e}"))?;
        mesh.bake();
        let mesh_ms = start.elapsed().as_secs_f64() * 1e3;
        Ok(Self {
            mesh,
            details: PolyanyaDetails { mesh_ms, vertex_f32_max_error, f32_length_max_rel_diff: 0.0 },
        })
    }

    /// The path's length recomputed in f64 from its points (start included), and Polyanya's own
    /// f32 length.
    pub fn find_path(&self, from: Point, to: Point) -> Option<(f64, f64)> {
        let (from, to) = (v2(from), v2(to));
        let path = self.mesh.path(from, to)?;
        let mut previous = from;
        let mut length = 0.0f64;
        for &p in &path.path {
            let (dx, dy) = (p.x as f64 - previous.x as f64, p.y as f64 - previous.y as f64);
            length += (dx * dx + dy * dy).sqrt();
            previous = p;
        }
        Some((length, path.length as f64))
    }
}

/// Polyanya's own builder on the same input.
pub struct Built {
    pub ms: f64,
    /// The builder and `Mesh::bake`: a mesh ready for queries.
    pub baked_ms: f64,
    pub triangles: usize,
    pub vertices: usize,
    pub min_angle_deg: Option<f64>,
    pub notes: Vec<String>,
}

/// Smallest angle of the triangle `a b c`, degrees.
pub fn min_angle_deg(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let angle = |p: [f64; 2], q: [f64; 2], r: [f64; 2]| {
        let (u, v) = ([q[0] - p[0], q[1] - p[1]], [r[0] - p[0], r[1] - p[1]]);
        (u[0] * v[1] - u[1] * v[0]).abs().atan2(u[0] * v[0] + u[1] * v[1]).to_degrees()
    };
    angle(a, b, c).min(angle(b, c, a)).min(angle(c, a, b))
}

/// Times Polyanya's own builder (agent radius 0) on the walkable region trinav bakes (a grid's
/// free cells traced, or a traced mesh outline): for each polygon of the region,
/// `Triangulation::from_outer_edges(outer ring)` + `add_obstacles(its holes)` + `as_navmesh()`.
/// The builder takes one outer edge, so a region of several polygons takes one run per
/// polygon, timed together (noted).
///
/// (The rectangle-plus-blocked-rings input of `Grid::to_level` does not work here: a blocked
/// region touching the map border has the walkable area as its hole, and Polyanya's obstacles
/// are plain rings, so it would cover everything.)
pub fn polyanya_builder(region: &MergedRegion) -> Result<Built, String> {
    let mut notes = Vec::new();
    let pts = |r: &Vec<Point>| r.iter().map(|&q| v2(q)).collect::<Vec<_>>();
    let polygons: Vec<(Vec<Vec2>, Vec<Vec<Vec2>>)> =
        region.polygons.iter().map(|p| (pts(&p.outer), p.holes.iter().map(pts).collect())).collect();
    {
        // Distinct ring points that become one f32 point (Polyanya's builder works in f32).
        let mut exact: Vec<(u64, u64)> = region
            .polygons
            .iter()
            .flat_map(|p| p.rings())
            .flatten()
            .map(|p| (p.x.to_bits(), p.y.to_bits()))
            .collect();
        exact.sort_unstable();
        exact.dedup();
        let mut rounded: Vec<(u32, u32)> = region
            .polygons
            .iter()
            .flat_map(|p| p.rings())
            .flatten()
            .map(|&p| {
                let q = v2(p);
                (q.x.to_bits(), q.y.to_bits())
            })
            .collect();
        rounded.sort_unstable();
        rounded.dedup();
        if rounded.len() != exact.len() {
            notes.push(format!(
                "Polyanya builder: rounding the region's {} distinct points to f32 merges {} of them",
                exact.len(),
                exact.len() - rounded.len()
            ));
        }
    }
    if polygons.len() > 1 {
        notes.push(format!(
            "Polyanya builder: the walkable region has {} separate polygons and Triangulation takes one outer edge: \
             one run per polygon, times and triangles summed",
            polygons.len()
        ));
    }
    let build = |bake: bool| {
        polygons
            .iter()
            .map(|(outer, holes)| {
                catch_unwind(AssertUnwindSafe(|| {
                    let mut t = Triangulation::from_outer_edges(outer);
                    t.add_obstacles(holes.iter().map(|r| r.iter().copied()));
                    let mut mesh = t.as_navmesh();
                    if bake {
                        mesh.bake();
                    }
                    mesh
                }))
                .map_err(|_| "Triangulation::as_navmesh panicked".to_string())
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let mut times = Vec::new();
    let meshes = crate::stats::time_builds(|| (), |()| build(false), |_, ms| times.push(ms))?;
    // The same, ready for queries: `Mesh::bake` adds the point location and the islands, which
    // trinav's bake builds too.
    let mut baked_times = Vec::new();
    crate::stats::time_builds(|| (), |()| build(true), |_, ms| baked_times.push(ms))?;
    let mut triangles = 0;
    let mut min_angle = 180.0f64;
    let mut all_triangles = true;
    let mut vertices = 0;
    for mesh in &meshes {
        let layer = &mesh.layers[0];
        triangles += layer.polygons.len();
        vertices += layer.vertices.len();
        for p in &layer.polygons {
            if p.vertices.len() != 3 {
                all_triangles = false;
                continue;
            }
            let c = |i: usize| {
                let v = layer.vertices[p.vertices[i] as usize].coords;
                [v.x as f64, v.y as f64]
            };
            min_angle = min_angle.min(min_angle_deg(c(0), c(1), c(2)));
        }
    }
    if !all_triangles {
        notes.push("Polyanya builder output has non-triangle polygons: no min angle".to_string());
    }
    Ok(Built {
        ms: crate::stats::median(&times),
        baked_ms: crate::stats::median(&baked_times),
        triangles,
        vertices,
        min_angle_deg: all_triangles.then_some(min_angle),
        notes,
    })
}
