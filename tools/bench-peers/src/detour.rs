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
//!
//! A tile holds at most 32,767 polygons. Larger meshes go to Detour's tiled navmesh
//! ([`DetourMesh::build_tiled`]): a grid of square tiles, each triangle clipped to the tiles it
//! overlaps (a triangle inside one tile stays whole; a cut one becomes convex pieces of up to
//! 6 vertices), the pieces' edges on a tile border flagged as portals so that Detour links the
//! tiles itself (`connectExtLinks`, matching edges along the border). The walkable area is the
//! same; only the triangles crossing a tile border become two to four pieces (reported in
//! [`Layout`]).

use std::collections::HashMap;
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

/// How the mesh was laid out in Detour's tiles.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Layout {
    /// Tiles along x and along y: `[1, 1]` is one tile holding trinav's triangles as they are.
    pub tiles: [u32; 2],
    /// The side of a tile (world units; for one tile, the mesh's extent).
    pub tile_size: f64,
    /// Polygons handed to Detour: the triangles, or with tiles the triangles and pieces.
    pub polygons: usize,
    /// Triangles cut by a tile border.
    pub cut_triangles: usize,
    /// Pieces left out because quantization collapsed them (no area left).
    pub dropped_pieces: usize,
    /// Polygon edges inside a tile that found no neighbour though they are not on the mesh
    /// boundary or a tile border (their two sides rounded apart): 0 means the tiles join up.
    pub unmatched_edges: usize,
    /// The most polygons in one tile.
    pub max_tile_polygons: usize,
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
    /// The tile layout.
    pub layout: Layout,
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

/// The bounding box of `vertices`: (min, max).
fn bounds(vertices: &[Point]) -> ([f64; 2], [f64; 2]) {
    let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in vertices {
        min = [min[0].min(p.x), min[1].min(p.y)];
        max = [max[0].max(p.x), max[1].max(p.y)];
    }
    (min, max)
}

/// The finest power of two that covers `extent` in at most 65,000 steps (one spare for the
/// floor of bmin), so that integer coordinates stay exact.
fn cell_size(extent: f64) -> f64 {
    let mut cs = 2f64.powi(-24);
    while extent / cs > 65_000.0 {
        cs *= 2.0;
    }
    cs
}

/// One tile's polygons for `dtCreateNavMeshData`: `u16` vertices (x, 0, z steps of `cs` from
/// `bmin`) and `nvp`-wide polygons (vertex indices, then neighbour entries).
struct TileInput<'a> {
    verts: &'a [u16],
    polys: &'a [u16],
    nvp: usize,
    bmin: [f64; 2],
    bmax: [f64; 2],
    cs: f64,
    tile: [i32; 2],
}

/// A point of a tile piece in quantized steps from the tile's corner, and whether the edge on
/// from it lies on an inner edge.
type QuantizedPoint = ([i64; 2], bool);

/// Detour's tile data for `input` (freed by the navmesh it is added to with
/// `DT_TILE_FREE_DATA`).
fn create_tile_data(input: &TileInput) -> Result<(*mut u8, i32), String> {
    let count = input.polys.len() / (2 * input.nvp);
    let flags = vec![1u16; count];
    let areas = vec![0u8; count];
    // SAFETY: the struct is plain data; every pointer set below outlives the call.
    let mut params: dtNavMeshCreateParams = unsafe { std::mem::zeroed() };
    params.verts = input.verts.as_ptr();
    params.vertCount = (input.verts.len() / 3) as i32;
    params.polys = input.polys.as_ptr();
    params.polyFlags = flags.as_ptr();
    params.polyAreas = areas.as_ptr();
    params.polyCount = count as i32;
    params.nvp = input.nvp as i32;
    params.tileX = input.tile[0];
    params.tileY = input.tile[1];
    params.bmin = [input.bmin[0] as f32, 0.0, input.bmin[1] as f32];
    params.bmax = [input.bmax[0] as f32, 1.0, input.bmax[1] as f32];
    params.walkableHeight = 2.0;
    params.walkableRadius = 0.0;
    params.walkableClimb = 1.0;
    params.cs = input.cs as f32;
    params.ch = 1.0;
    params.buildBvTree = true;
    let (mut data, mut size) = (ptr::null_mut::<u8>(), 0i32);
    // SAFETY: params points at live buffers of the declared sizes.
    if !unsafe { dtCreateNavMeshData(&mut params, &mut data, &mut size) } {
        return Err(format!("dtCreateNavMeshData failed for tile {:?}", input.tile));
    }
    Ok((data, size))
}

impl DetourMesh {
    /// Builds the Detour mesh from trinav's vertices, triangles and neighbours
    /// (`u32::MAX` = none) in one tile, or says why it cannot.
    pub fn build(
        vertices: &[Point],
        triangles: &[[u32; 3]],
        neighbours: &[[u32; 3]],
        winding: Winding,
    ) -> Result<Self, String> {
        if triangles.len() > MAX_POLYS {
            return Err(format!(
                "{} triangles: a Detour tile holds at most {MAX_POLYS} polygons (see build_tiled)",
                triangles.len()
            ));
        }
        if vertices.len() > MAX_VERTS {
            return Err(format!("{} vertices: a Detour tile holds at most {MAX_VERTS}", vertices.len()));
        }
        if triangles.is_empty() {
            return Err("empty mesh".to_string());
        }
        let (min, max) = bounds(vertices);
        let extent = (max[0] - min[0]).max(max[1] - min[1]);
        let cs = cell_size(extent);
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
            let error = stored_error(*p, bmin, q, cs);
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
        let bmax = [(bmin[0] + 65535.0 * cs).min(max[0] + cs), (bmin[1] + 65535.0 * cs).min(max[1] + cs)];
        let input = TileInput { verts: &verts, polys: &polys, nvp: 3, bmin, bmax, cs, tile: [0, 0] };
        let (data, size) = create_tile_data(&input)?;
        // SAFETY: allocation functions of Detour; checked for null; the data pointer is handed
        // to the mesh with DT_TILE_FREE_DATA, or freed here on failure.
        let nav = unsafe {
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
            nav
        };
        let quantization =
            Quantization { cs, max_error, moved_vertices: moved, degenerate_triangles: degenerate };
        let layout = Layout {
            tiles: [1, 1],
            tile_size: extent,
            polygons: triangles.len(),
            cut_triangles: 0,
            dropped_pieces: 0,
            unmatched_edges: 0,
            max_tile_polygons: triangles.len(),
        };
        Self::with_query(nav, quantization, layout)
    }

    /// Builds Detour's tiled navmesh of `tiles` × `tiles` square tiles from trinav's vertices
    /// and triangles: each triangle clipped to the tiles it overlaps, the pieces of a tile
    /// joined by their shared edges, the edges on a tile border left to Detour to link.
    pub fn build_tiled(
        vertices: &[Point],
        triangles: &[[u32; 3]],
        neighbours: &[[u32; 3]],
        tiles: u32,
    ) -> Result<Self, String> {
        if triangles.is_empty() || tiles == 0 {
            return Err("empty mesh or no tiles".to_string());
        }
        let (min, max) = bounds(vertices);
        let n = tiles as usize;
        // Tile side: a multiple of cs, so that every tile border is a whole number of steps.
        let cs = cell_size((max[0] - min[0]).max(max[1] - min[1]) / tiles as f64 + 1.0);
        let origin = [(min[0] / cs).floor() * cs, (min[1] / cs).floor() * cs];
        let side_steps = ((max[0] - origin[0]).max(max[1] - origin[1]) / tiles as f64 / cs).ceil().max(1.0);
        let side = side_steps * cs;
        let steps = side_steps as i64;
        if steps > 65_534 {
            return Err(format!("a tile of {side} does not quantize into u16 steps of {cs}"));
        }
        let tile_of = |v: f64, axis: usize| {
            (((v - origin[axis]) / side).floor() as i64).clamp(0, n as i64 - 1) as usize
        };
        // Pieces per tile, counter-clockwise in trinav's orientation, as quantized steps from
        // the tile's corner, each point with whether the edge on from it lies on an inner edge.
        let mut pieces: Vec<Vec<Vec<QuantizedPoint>>> = vec![Vec::new(); n * n];
        let (mut cut, mut dropped, mut max_error, mut moved) = (0usize, 0usize, 0.0f64, 0usize);
        for (t, around) in triangles.iter().zip(neighbours) {
            let corners = t.map(|v| vertices[v as usize]);
            let inner = around.map(|n| n != TriangleId::NONE.0);
            let (lo, hi) = (
                [0, 1].map(|a| corners.iter().map(|p| [p.x, p.y][a]).fold(f64::INFINITY, f64::min)),
                [0, 1].map(|a| corners.iter().map(|p| [p.x, p.y][a]).fold(f64::NEG_INFINITY, f64::max)),
            );
            let (tx, ty) = ((tile_of(lo[0], 0), tile_of(hi[0], 0)), (tile_of(lo[1], 1), tile_of(hi[1], 1)));
            if (tx.0, ty.0) != (tx.1, ty.1) {
                cut += 1;
            }
            for j in ty.0..=ty.1 {
                for i in tx.0..=tx.1 {
                    let corner = [origin[0] + i as f64 * side, origin[1] + j as f64 * side];
                    let polygon = clip_to_square(&corners, inner, corner, side);
                    let mut q: Vec<([i64; 2], bool)> = Vec::with_capacity(polygon.len());
                    for (p, on_inner) in polygon {
                        let steps_of =
                            |v: f64, c: f64| ((v - c) / cs).round().clamp(0.0, steps as f64) as i64;
                        let s = [steps_of(p.x, corner[0]), steps_of(p.y, corner[1])];
                        let error = stored_error(p, corner, [s[0] as u16, s[1] as u16], cs);
                        if error > 0.0 {
                            moved += 1;
                        }
                        max_error = max_error.max(error);
                        // A point that rounds onto the previous one: the edge on from it is
                        // the one that goes on.
                        if let Some(last) = q.last_mut().filter(|last| last.0 == s) {
                            last.1 = on_inner;
                        } else if q.first().is_none_or(|f| f.0 != s) {
                            q.push((s, on_inner));
                        }
                    }
                    let area = twice_area(&q.iter().map(|&(s, _)| s).collect::<Vec<_>>());
                    if q.len() < 3 || area <= 0 {
                        // Nothing of the triangle in this tile but a point or a border, or a
                        // sliver that quantization collapsed.
                        dropped += usize::from(q.len() >= 3);
                        continue;
                    }
                    // Detour takes at most 6 vertices: a 7-gon (triangle through all four
                    // borders) becomes a pentagon and a quadrilateral.
                    if q.len() > 6 {
                        // The cut runs from q[4] to q[0], inside the tile: an inner edge.
                        let rest = vec![(q[0].0, true), q[4], q[5], q[6]];
                        q.truncate(5);
                        q[4].1 = true;
                        pieces[j * n + i].push(rest);
                    }
                    pieces[j * n + i].push(q);
                }
            }
        }
        // SAFETY: Detour's allocator; checked for null.
        let nav = unsafe { dtAllocNavMesh() };
        if nav.is_null() {
            return Err("dtAllocNavMesh failed".to_string());
        }
        let max_tile_polygons = pieces.iter().map(Vec::len).max().unwrap_or(0);
        let mut params: dtNavMeshParams = unsafe { std::mem::zeroed() };
        params.orig = [origin[0] as f32, 0.0, origin[1] as f32];
        params.tileWidth = side as f32;
        params.tileHeight = side as f32;
        params.maxTiles = (n * n) as i32;
        params.maxPolys = max_tile_polygons.max(1).next_power_of_two() as i32;
        // SAFETY: nav is a live navmesh; params is plain data.
        let status = unsafe { (*nav).init(&params) };
        if failed(status) {
            unsafe { dtFreeNavMesh(nav) };
            return Err(format!("dtNavMesh::init (tiled) failed (status {status:#x})"));
        }
        let mut unmatched = 0;
        for j in 0..n {
            for i in 0..n {
                let tile = &pieces[j * n + i];
                if tile.is_empty() {
                    continue;
                }
                if tile.len() > MAX_POLYS {
                    unsafe { dtFreeNavMesh(nav) };
                    return Err(format!("tile ({i}, {j}) has {} polygons, over {MAX_POLYS}", tile.len()));
                }
                let (verts, polys, open) = tile_polygons(tile, steps);
                unmatched += open;
                let corner = [origin[0] + i as f64 * side, origin[1] + j as f64 * side];
                let input = TileInput {
                    verts: &verts,
                    polys: &polys,
                    nvp: 6,
                    bmin: corner,
                    bmax: [corner[0] + side, corner[1] + side],
                    cs,
                    tile: [i as i32, j as i32],
                };
                let (data, size) = match create_tile_data(&input) {
                    Ok(tile) => tile,
                    Err(e) => {
                        unsafe { dtFreeNavMesh(nav) };
                        return Err(e);
                    }
                };
                // SAFETY: data comes from dtCreateNavMeshData; the mesh frees it
                // (DT_TILE_FREE_DATA), or it is freed here on failure.
                let status = unsafe {
                    (*nav).addTile(data, size, dtTileFlags_DT_TILE_FREE_DATA as i32, 0, ptr::null_mut())
                };
                if failed(status) {
                    unsafe {
                        dtFree(data.cast());
                        dtFreeNavMesh(nav);
                    }
                    return Err(format!("dtNavMesh::addTile ({i}, {j}) failed (status {status:#x})"));
                }
            }
        }
        let quantization = Quantization { cs, max_error, moved_vertices: moved, degenerate_triangles: 0 };
        let layout = Layout {
            tiles: [tiles, tiles],
            tile_size: side,
            polygons: pieces.iter().map(Vec::len).sum(),
            cut_triangles: cut,
            dropped_pieces: dropped,
            unmatched_edges: unmatched,
            max_tile_polygons,
        };
        Self::with_query(nav, quantization, layout)
    }

    /// The query object and buffers over a built navmesh (freed on failure).
    fn with_query(nav: *mut dtNavMesh, quantization: Quantization, layout: Layout) -> Result<Self, String> {
        // SAFETY: nav is a live navmesh; the query is checked for null and freed on failure.
        unsafe {
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
                quantization,
                layout,
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

/// How far Detour's f32 storage of `steps` from `corner` is from `p` (along x or z).
fn stored_error(p: Point, corner: [f64; 2], steps: [u16; 2], cs: f64) -> f64 {
    let stored = [
        (corner[0] as f32 + steps[0] as f32 * cs as f32) as f64,
        (corner[1] as f32 + steps[1] as f32 * cs as f32) as f64,
    ];
    (stored[0] - p.x).abs().max((stored[1] - p.y).abs())
}

/// Twice the signed area of a polygon of integer points (positive: counter-clockwise).
fn twice_area(q: &[[i64; 2]]) -> i64 {
    (0..q.len())
        .map(|k| {
            let (a, b) = (q[k], q[(k + 1) % q.len()]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum()
}

/// The part of the triangle `corners` inside the square of `side` from `corner`
/// (Sutherland-Hodgman, one border at a time), each point with whether the edge from it to the
/// next lies on a triangle edge that has a neighbour (`inner[k]` for edge `k`). A crossing is
/// computed from the crossing segment's ends in a fixed order, so that two triangles sharing
/// an edge cut it at the same point.
fn clip_to_square(corners: &[Point; 3], inner: [bool; 3], corner: [f64; 2], side: f64) -> Vec<(Point, bool)> {
    let mut polygon: Vec<(Point, bool)> = (0..3).map(|k| (corners[k], inner[k])).collect();
    // (axis, border value, keep the side above it)
    let borders = [
        (0, corner[0], true),
        (0, corner[0] + side, false),
        (1, corner[1], true),
        (1, corner[1] + side, false),
    ];
    for (axis, at, above) in borders {
        let coordinate = |p: &Point| if axis == 0 { p.x } else { p.y };
        let inside = |p: &Point| if above { coordinate(p) >= at } else { coordinate(p) <= at };
        let mut out = Vec::with_capacity(polygon.len() + 1);
        for k in 0..polygon.len() {
            let ((a, on_inner), (b, _)) = (polygon[k], polygon[(k + 1) % polygon.len()]);
            if inside(&a) {
                out.push((a, on_inner));
            }
            if inside(&a) != inside(&b) {
                let (p, q) = if (a.x, a.y) < (b.x, b.y) { (a, b) } else { (b, a) };
                let t = (at - coordinate(&p)) / (coordinate(&q) - coordinate(&p));
                let crossing = if axis == 0 {
                    Point::new(at, p.y + t * (q.y - p.y))
                } else {
                    Point::new(p.x + t * (q.x - p.x), at)
                };
                // Leaving: the way on runs along the border. Entering: along a -> b.
                out.push((crossing, !inside(&a) && on_inner));
            }
        }
        polygon = out;
        if polygon.is_empty() {
            break;
        }
    }
    polygon
}

/// One tile's pieces (counter-clockwise, steps from the tile's corner, within `0..=steps`,
/// each point with whether the edge on from it lies on an inner edge) as Detour's input:
/// shared vertices, 6-wide polygons in Detour's winding with their neighbours (a piece across
/// a shared edge, a portal flag on a tile border, or none), and the number of inner edges off
/// the tile borders that found no piece across.
fn tile_polygons(pieces: &[Vec<([i64; 2], bool)>], steps: i64) -> (Vec<u16>, Vec<u16>, usize) {
    let mut index: HashMap<[i64; 2], u16> = HashMap::new();
    let mut verts = Vec::new();
    let mut ids: Vec<Vec<u16>> = Vec::with_capacity(pieces.len());
    // Per piece and Detour edge j (from vertex j to j + 1): whether it lies on an inner edge.
    let mut inner: Vec<Vec<bool>> = Vec::with_capacity(pieces.len());
    for piece in pieces {
        // Detour's winding: the reverse of trinav's. trinav's edge k (point k to k + 1) is
        // Detour's edge from point k + 1 to k.
        let reversed: Vec<u16> = piece
            .iter()
            .rev()
            .map(|&(q, _)| {
                *index.entry(q).or_insert_with(|| {
                    verts.extend_from_slice(&[q[0] as u16, 0, q[1] as u16]);
                    (verts.len() / 3 - 1) as u16
                })
            })
            .collect();
        let m = piece.len();
        // reversed[j] is piece[m - 1 - j]; Detour's edge j runs piece[m-1-j] -> piece[m-2-j],
        // trinav's edge m - 2 - j reversed.
        inner.push((0..m).map(|j| piece[(2 * m - 2 - j) % m].1).collect());
        ids.push(reversed);
    }
    let mut edges: HashMap<(u16, u16), usize> = HashMap::new();
    for (k, poly) in ids.iter().enumerate() {
        for j in 0..poly.len() {
            edges.insert((poly[j], poly[(j + 1) % poly.len()]), k);
        }
    }
    let at = |v: u16| [verts[3 * v as usize] as i64, verts[3 * v as usize + 2] as i64];
    let mut polys = Vec::with_capacity(ids.len() * 12);
    let mut unmatched = 0;
    for (poly, inner) in ids.iter().zip(&inner) {
        let mut row = [NULL_IDX; 12];
        for (j, &v) in poly.iter().enumerate() {
            row[j] = v;
            let w = poly[(j + 1) % poly.len()];
            let (a, b) = (at(v), at(w));
            // Portal sides as Detour numbers them: 0 x-, 1 z+, 2 x+, 3 z-.
            let border = if a[0] == b[0] && a[0] == 0 {
                Some(0)
            } else if a[1] == b[1] && a[1] == steps {
                Some(1)
            } else if a[0] == b[0] && a[0] == steps {
                Some(2)
            } else if a[1] == b[1] && a[1] == 0 {
                Some(3)
            } else {
                None
            };
            row[6 + j] = match (edges.get(&(w, v)), border) {
                (Some(&other), _) => other as u16,
                (None, Some(side)) => 0x8000 | side,
                (None, None) => {
                    unmatched += usize::from(inner[j]);
                    NULL_IDX
                }
            };
        }
        polys.extend_from_slice(&row);
    }
    (verts, polys, unmatched)
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
        ..Level::default()
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
    // Tiled: the same queries, and a straight one, across 2 x 2 and 3 x 3 tiles (borders through
    // the notch's corner, and off the grid). Every piece must join its neighbours and every
    // query must find a full path, never shorter than the optimum; it may be a little longer:
    // Detour's A* costs polygons at edge midpoints, so with tile pieces it may choose a corridor
    // past a tile corner (3 x 3: the straight query bends at (8/3, 4/3), 0.3% longer).
    let around = |a: Point, b: Point| a.distance(Point::new(2.0, 2.0)) + Point::new(2.0, 2.0).distance(b);
    let tiled_queries = [
        (from, to, expected),
        (Point::new(0.5, 0.5), Point::new(3.5, 1.5), 10f64.sqrt()),
        (Point::new(0.5, 3.5), Point::new(3.5, 1.5), around(Point::new(0.5, 3.5), Point::new(3.5, 1.5))),
    ];
    for tiles in [2, 3] {
        let mut tiled = DetourMesh::build_tiled(mesh.vertices(), &triangles, &neighbours, tiles)?;
        if tiled.layout.unmatched_edges != 0 || tiled.layout.dropped_pieces != 0 {
            return Err(format!("{tiles} x {tiles} tiles: {:?}", tiled.layout));
        }
        for (a, b, want) in tiled_queries {
            let got =
                tiled.find_path(a, b).map_err(|m| format!("{tiles} x {tiles} tiles: no path ({m:?})"))?;
            if got < want - 1e-4 || got > want * 1.01 {
                return Err(format!(
                    "{tiles} x {tiles} tiles: path {a:?} -> {b:?} of length {got}, expected {want}: {:?}",
                    tiled.last_straight_path()
                ));
            }
        }
    }
    Ok(format!(
        "Detour self-check: {} triangles of an L-shaped level, path (3.5, 1.5) -> (1.5, 3.5) length {length:.6} \
         (expected {expected:.6}) with the triangles reversed for Detour; with trinav's order kept the same query \
         gives {other}; clipped to 2 x 2 and 3 x 3 tiles, every piece joins up and it and two more queries across tiles \
         stay within 1% of their lengths",
        triangles.len()
    ))
}
