//! Detour (recastnavigation) over trinav's triangles: one tile, three vertices per polygon,
//! neighbour links taken from trinav's adjacency.
//!
//! Coordinates: trinav `(x, y)` is Detour `(x, 0, y)` (Detour's y is up). Winding: Detour's
//! polygons must have a positive `dtTriArea2D` (`acx*abz - abx*acz`), i.e. clockwise when the
//! x/z plane is drawn with x right and z up; trinav's triangles are counter-clockwise in x/y,
//! so each triangle `(a, b, c)` goes to Detour as `(a, c, b)`, its neighbours
//! `(n_ab, n_bc, n_ca)` as `(n_ca, n_bc, n_ab)` (Detour's edge `j` runs from vertex `j` to
//! `j + 1`, like trinav's). [`self_check`] verifies this on a small L-shaped mesh: with trinav's
//! order kept, Detour's funnel runs around the wrong side (a path of 9.39 instead of 3.16).
//!
//! Vertices are stored quantized (`u16` steps of `cs` from `bmin`): `cs` is the finest power of
//! two that covers the mesh in at most 65,000 steps, so integer coordinates (grid maps) stay
//! exact and others move by at most `cs / 2` (reported in [`Quantization`]).

use std::ptr;

use recastnavigation_sys::*;
use trinav::{Point, TriangleId};

/// Detour's polygon limit per tile: neighbour indices must stay below the 0x8000 flag bit.
pub const MAX_POLYS: usize = 0x7fff;
/// Vertex indices are `u16` and 0xffff means none.
pub const MAX_VERTS: usize = 0xfffe;
const NULL_IDX: u16 = 0xffff;
const MAX_PATH: usize = 4096;
const MAX_STRAIGHT: usize = 4096;
const MAX_NODES: i32 = 65535;

/// The vertex order handed to Detour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winding {
    /// `(a, c, b)`: what Detour expects (see the module documentation).
    Reversed,
    /// trinav's own order `(a, b, c)`: wrong for Detour, used only by the self-check.
    AsIs,
}

/// How far quantization moved the mesh.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Quantization {
    /// Cell size (a power of two).
    pub cs: f64,
    /// Largest distance a vertex moved along x or z (world units), after Detour's f32 storage.
    pub max_error: f64,
    /// Vertices that moved at all.
    pub moved_vertices: usize,
    /// Triangles whose quantized corners are no longer strictly clockwise-from-above
    /// (degenerate or flipped).
    pub degenerate_triangles: usize,
}

/// Why a Detour query found nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// `findNearestPoly` found no polygon for an end.
    NoPoly,
    /// `findPath` failed or returned `DT_PARTIAL_RESULT` (goal not reached).
    Partial,
    /// `findStraightPath` failed.
    Straight,
}

/// A single-tile Detour mesh with its query object and buffers.
pub struct DetourMesh {
    nav: *mut dtNavMesh,
    query: *mut dtNavMeshQuery,
    filter: dtQueryFilter,
    path: Vec<dtPolyRef>,
    straight: Vec<f32>,
    straight_flags: Vec<u8>,
    straight_refs: Vec<dtPolyRef>,
    straight_count: usize,
    /// Queries that ran out of search nodes (status flag `DT_OUT_OF_NODES`).
    pub out_of_nodes: usize,
    /// Queries whose corridor or straight path filled its buffer (`DT_BUFFER_TOO_SMALL`).
    pub buffer_too_small: usize,
    /// The quantization report.
    pub quantization: Quantization,
}

impl Drop for DetourMesh {
    fn drop(&mut self) {
        // SAFETY: both were allocated by Detour's allocators and are freed once; the tile data
        // was added with DT_TILE_FREE_DATA, so the mesh frees it.
        unsafe {
            dtFreeNavMeshQuery(self.query);
            dtFreeNavMesh(self.nav);
        }
    }
}

fn failed(status: dtStatus) -> bool {
    status & DT_FAILURE != 0
}

impl DetourMesh {
    /// Builds the Detour mesh from trinav's vertices, triangles and neighbours
    /// (`u32::MAX` = none), or says why it cannot.
    pub fn build(
        vertices: &[Point],
        triangles: &[[u32; 3]],
        neighbours: &[[u32; 3]],
        winding: Winding,
    ) -> Result<Self, String> {
        if triangles.len() > MAX_POLYS {
            return Err(format!(
                "{} triangles: a Detour tile holds at most {MAX_POLYS} polygons (tiling not implemented)",
                triangles.len()
            ));
        }
        if vertices.len() > MAX_VERTS {
            return Err(format!("{} vertices: a Detour tile holds at most {MAX_VERTS}", vertices.len()));
        }
        if triangles.is_empty() {
            return Err("empty mesh".to_string());
        }
        let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in vertices {
            min = [min[0].min(p.x), min[1].min(p.y)];
            max = [max[0].max(p.x), max[1].max(p.y)];
        }
        let extent = (max[0] - min[0]).max(max[1] - min[1]);
        // Finest power of two covering the extent in at most 65,534 steps (one spare for the
        // floor of bmin).
        let mut cs = 2f64.powi(-24);
        while extent / cs > 65_000.0 {
            cs *= 2.0;
        }
        let bmin = [(min[0] / cs).floor() * cs, (min[1] / cs).floor() * cs];
        let mut verts = Vec::with_capacity(vertices.len() * 3);
        let mut quantized = Vec::with_capacity(vertices.len());
        let (mut max_error, mut moved) = (0.0f64, 0usize);
        for p in vertices {
            let q = [((p.x - bmin[0]) / cs).round(), ((p.y - bmin[1]) / cs).round()];
            if !(0.0..=65534.0).contains(&q[0]) || !(0.0..=65534.0).contains(&q[1]) {
                return Err(format!("vertex ({}, {}) does not quantize into u16", p.x, p.y));
            }
            let q = [q[0] as u16, q[1] as u16];
            verts.extend_from_slice(&[q[0], 0, q[1]]);
            quantized.push([q[0] as i64, q[1] as i64]);
            // What Detour stores: bmin + q * cs, in f32.
            let stored = [
                (bmin[0] as f32 + q[0] as f32 * cs as f32) as f64,
                (bmin[1] as f32 + q[1] as f32 * cs as f32) as f64,
            ];
            let error = (stored[0] - p.x).abs().max((stored[1] - p.y).abs());
            if error > 0.0 {
                moved += 1;
            }
            max_error = max_error.max(error);
        }
        let degenerate = triangles
            .iter()
            .filter(|t| {
                let [a, b, c] = t.map(|v| quantized[v as usize]);
                // trinav orientation (x right, y = Detour z up on paper): must stay positive.
                (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) <= 0
            })
            .count();
        let mut polys = Vec::with_capacity(triangles.len() * 6);
        for (&[a, b, c], &[ab, bc, ca]) in triangles.iter().zip(neighbours) {
            let (t, n) = match winding {
                Winding::Reversed => ([a, c, b], [ca, bc, ab]),
                Winding::AsIs => ([a, b, c], [ab, bc, ca]),
            };
            polys.extend(t.iter().map(|&v| v as u16));
            polys.extend(n.iter().map(|&n| if n == TriangleId::NONE.0 { NULL_IDX } else { n as u16 }));
        }
        let flags = vec![1u16; triangles.len()];
        let areas = vec![0u8; triangles.len()];
        // SAFETY: the struct is plain data; every pointer set below outlives the call.
        let mut params: dtNavMeshCreateParams = unsafe { std::mem::zeroed() };
        params.verts = verts.as_ptr();
        params.vertCount = vertices.len() as i32;
        params.polys = polys.as_ptr();
        params.polyFlags = flags.as_ptr();
        params.polyAreas = areas.as_ptr();
        params.polyCount = triangles.len() as i32;
        params.nvp = 3;
        params.bmin = [bmin[0] as f32, 0.0, bmin[1] as f32];
        params.bmax = [(bmin[0] + 65535.0 * cs) as f32, 1.0, (bmin[1] + 65535.0 * cs) as f32];
        params.bmax[0] = params.bmax[0].min(max[0] as f32 + cs as f32);
        params.bmax[2] = params.bmax[2].min(max[1] as f32 + cs as f32);
        params.walkableHeight = 2.0;
        params.walkableRadius = 0.0;
        params.walkableClimb = 1.0;
        params.cs = cs as f32;
        params.ch = 1.0;
        params.buildBvTree = true;
        let (mut data, mut size) = (ptr::null_mut::<u8>(), 0i32);
        // SAFETY: params points at live buffers of the declared sizes.
        if !unsafe { dtCreateNavMeshData(&mut params, &mut data, &mut size) } {
            return Err("dtCreateNavMeshData failed".to_string());
        }
        // SAFETY: allocation functions of Detour; checked for null; the data pointer is handed
        // to the mesh with DT_TILE_FREE_DATA, or freed here on failure.
        unsafe {
            let nav = dtAllocNavMesh();
            if nav.is_null() {
                dtFree(data.cast());
                return Err("dtAllocNavMesh failed".to_string());
            }
            let status = (*nav).init1(data, size, dtTileFlags_DT_TILE_FREE_DATA as i32);
            if failed(status) {
                dtFree(data.cast());
                dtFreeNavMesh(nav);
                return Err(format!("dtNavMesh::init failed (status {status:#x})"));
            }
            let query = dtAllocNavMeshQuery();
            if query.is_null() {
                dtFreeNavMesh(nav);
                return Err("dtAllocNavMeshQuery failed".to_string());
            }
            let status = (*query).init(nav, MAX_NODES);
            if failed(status) {
                dtFreeNavMeshQuery(query);
                dtFreeNavMesh(nav);
                return Err(format!("dtNavMeshQuery::init failed (status {status:#x})"));
            }
            let mut filter = dtQueryFilter::new();
            filter.m_includeFlags = 0xffff;
            filter.m_excludeFlags = 0;
            Ok(DetourMesh {
                nav,
                query,
                filter,
                path: vec![0; MAX_PATH],
                straight: vec![0.0; MAX_STRAIGHT * 3],
                straight_flags: vec![0; MAX_STRAIGHT],
                straight_refs: vec![0; MAX_STRAIGHT],
                straight_count: 0,
                out_of_nodes: 0,
                buffer_too_small: 0,
                quantization: Quantization {
                    cs,
                    max_error,
                    moved_vertices: moved,
                    degenerate_triangles: degenerate,
                },
            })
        }
    }

    /// The (x, z) points of the last straight path found.
    pub fn last_straight_path(&self) -> Vec<[f32; 2]> {
        self.straight[..self.straight_count * 3].chunks_exact(3).map(|p| [p[0], p[2]]).collect()
    }

    /// findNearestPoly for both ends, findPath, findStraightPath: the path length, or why not.
    pub fn find_path(&mut self, from: Point, to: Point) -> Result<f64, Miss> {
        let extents = [0.5f32, 1.0, 0.5];
        let start = [from.x as f32, 0.0, from.y as f32];
        let goal = [to.x as f32, 0.0, to.y as f32];
        let (mut start_ref, mut goal_ref) = (0 as dtPolyRef, 0 as dtPolyRef);
        let (mut start_pt, mut goal_pt) = ([0f32; 3], [0f32; 3]);
        // SAFETY: every pointer is to a live local or to a buffer of the length passed.
        unsafe {
            let query = &*self.query;
            let s = query.findNearestPoly(
                start.as_ptr(),
                extents.as_ptr(),
                &self.filter,
                &mut start_ref,
                start_pt.as_mut_ptr(),
            );
            let g = query.findNearestPoly(
                goal.as_ptr(),
                extents.as_ptr(),
                &self.filter,
                &mut goal_ref,
                goal_pt.as_mut_ptr(),
            );
            if failed(s) || failed(g) || start_ref == 0 || goal_ref == 0 {
                return Err(Miss::NoPoly);
            }
            let mut count = 0i32;
            let status = query.findPath(
                start_ref,
                goal_ref,
                start_pt.as_ptr(),
                goal_pt.as_ptr(),
                &self.filter,
                self.path.as_mut_ptr(),
                &mut count,
                MAX_PATH as i32,
            );
            if status & DT_OUT_OF_NODES != 0 {
                self.out_of_nodes += 1;
            }
            if status & DT_BUFFER_TOO_SMALL != 0 {
                self.buffer_too_small += 1;
            }
            if failed(status) || status & DT_PARTIAL_RESULT != 0 || count == 0 {
                return Err(Miss::Partial);
            }
            let mut points = 0i32;
            let status = query.findStraightPath(
                start_pt.as_ptr(),
                goal_pt.as_ptr(),
                self.path.as_ptr(),
                count,
                self.straight.as_mut_ptr(),
                self.straight_flags.as_mut_ptr(),
                self.straight_refs.as_mut_ptr(),
                &mut points,
                MAX_STRAIGHT as i32,
                0,
            );
            if status & DT_BUFFER_TOO_SMALL != 0 {
                self.buffer_too_small += 1;
            }
            if failed(status) || points == 0 {
                return Err(Miss::Straight);
            }
            self.straight_count = points as usize;
            let s = &self.straight[..points as usize * 3];
            let mut length = 0.0;
            for i in 1..points as usize {
                let (dx, dz) = ((s[3 * i] - s[3 * i - 3]) as f64, (s[3 * i + 2] - s[3 * i - 1]) as f64);
                length += (dx * dx + dz * dz).sqrt();
            }
            Ok(length)
        }
    }
}

/// Builds Detour meshes of a small L-shaped level baked by trinav and checks that a path around
/// the inner corner comes out with the right length; with the other winding the same query
/// must go wrong. Returns a one-line report or the failure.
pub fn self_check() -> Result<String, String> {
    use trinav_bake::{Level, PolygonInput};
    // An L: the square [0,4]x[0,4] minus [2,4]x[2,4].
    let level = Level {
        walkable: vec![PolygonInput::new(vec![
            [0.0, 0.0],
            [4.0, 0.0],
            [4.0, 2.0],
            [2.0, 2.0],
            [2.0, 4.0],
            [0.0, 4.0],
        ])],
        obstacles: vec![],
        agent_radius: None,
    };
    let baked = trinav_bake::bake(&level, &trinav::BakeSettings::default()).map_err(|e| e.to_string())?;
    let mesh = &baked.mesh;
    // The straight segment crosses the notch: the shortest path turns at (2, 2).
    let (from, to) = (Point::new(3.5, 1.5), Point::new(1.5, 3.5));
    let expected = 2.0 * (1.5f64 * 1.5 + 0.5 * 0.5).sqrt();
    let triangles: Vec<[u32; 3]> = mesh.triangles().iter().map(|t| t.map(|v| v.0)).collect();
    let neighbours: Vec<[u32; 3]> =
        (0..mesh.triangle_count() as u32).map(|t| mesh.neighbours(TriangleId(t)).map(|n| n.0)).collect();
    let mut detour = DetourMesh::build(mesh.vertices(), &triangles, &neighbours, Winding::Reversed)?;
    let length = detour.find_path(from, to).map_err(|m| format!("no path on the L-shaped mesh ({m:?})"))?;
    if (length - expected).abs() > 1e-4 {
        return Err(format!(
            "L-shaped mesh: Detour path length {length}, expected {expected}: {:?}",
            detour.last_straight_path()
        ));
    }
    let other =
        DetourMesh::build(mesh.vertices(), &triangles, &neighbours, Winding::AsIs).and_then(|mut d| {
            let l = d.find_path(from, to).map_err(|m| format!("{m:?}"))?;
            Ok((l, d.last_straight_path()))
        });
    let other = match other {
        Ok((l, _)) if (l - expected).abs() <= 1e-4 => {
            return Err(format!(
                "trinav's own winding also gives the right length {l}: check not conclusive"
            ));
        }
        Ok((l, points)) => format!("length {l:.4} via {points:?}"),
        Err(e) => format!("fails: {e}"),
    };
    Ok(format!(
        "Detour self-check: {} triangles of an L-shaped level, path (3.5, 1.5) -> (1.5, 3.5) length {length:.6} \
         (expected {expected:.6}) with the triangles reversed for Detour; with trinav's order kept the same query \
         gives {other}",
        triangles.len()
    ))
}
