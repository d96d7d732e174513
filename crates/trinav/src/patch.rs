//! Changing a mesh in place: [`NavMesh::apply_patch`] removes some triangles, adds others, and
//! brings every derived structure up to date by looking only near the change.
//!
//! A [`MeshPatch`] names the triangles to remove and gives the new ones as corner points. The
//! patch is checked first, and refused with a [`PatchError`] (the mesh untouched) unless the
//! result keeps every rule of [`MeshParts::find_problems`](crate::build::MeshParts::find_problems):
//! corners in range and counter-clockwise (exact predicate), corners equal to an existing vertex
//! (bit for bit) welded to it, every edge used at most once in each direction, and the links
//! the shared edges imply. Then:
//!
//! - **Slots.** Added triangles take the removed triangles' slots in ascending order, then the
//!   end of the arrays; when fewer come than go, the last triangles move down into the slots
//!   left over ([`PatchOutcome::moved`]). Vertices no triangle uses any more are removed the
//!   same way (the last vertex moves into the hole). The same mesh and patch always give the
//!   same arrays.
//! - **Links.** Added triangles link to each other, to the kept triangles across the border
//!   of the removed ones, and to kept triangles whose wall they share; a border edge no added
//!   triangle covers becomes a wall.
//! - **Derived data.** The point-location grid rewrites the lists of the cells the changed
//!   triangles overlap; turning corners are decided again at the vertices of removed and added
//!   triangles; half edge lengths are computed for the added triangles; pockets are peeled
//!   again from the change outwards ([`crate::topology::update_pockets`]). Islands: the added
//!   triangles and the kept ones that lost a neighbour are grouped by the links between them;
//!   where an island's border triangles fall into several groups, a search from each group at
//!   once stops as soon as all but one have met or run out, so only a piece that split off is
//!   walked whole; islands are then numbered again in order of their lowest triangle. Each
//!   island's lowest triangle is kept from patch to patch (found by the first patch), so the
//!   island array is passed over only when islands merged or their order changed. An island
//!   that lost its lowest triangle, or the last of its triangles at a point on its bounds, is
//!   walked (or, when large, the island array scanned) to find them again. The mesh's bounds
//!   are recomputed only when a removed point lay on them. Traversal widths (clearance) are
//!   dropped, to be derived again by the next query with a radius.
//!
//! [`check_derived`] recomputes everything from the arrays and compares: the tests run it after
//! every patch.

use std::collections::VecDeque;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use crate::geometry::{Aabb, Orientation, Point, orient};
use crate::ids::{AreaId, HalfEdge, IslandId, TriangleId, VertexId};
use crate::layers::LayerId;
use crate::mesh::{NavMesh, position_key};
use crate::query::path::vertex_turning;
use crate::spatial_index::SpatialGrid;
use crate::topology::{Pocket, find_pockets_of, update_pockets};

/// A local change to a mesh: triangles to remove and triangles to add. See
/// [`NavMesh::apply_patch`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshPatch {
    /// Triangles to remove, each once, in any order.
    pub remove: Vec<TriangleId>,
    /// Triangles to add, as their corners, counter-clockwise. A corner equal (bit for bit) to a
    /// vertex of the mesh is that vertex; any other is a new vertex.
    pub add: Vec<[Point; 3]>,
    /// The area type of each added triangle; empty means area 0 for all.
    pub areas: Vec<AreaId>,
    /// The layer of each added triangle: one per added triangle on a layered mesh, empty (or
    /// all layer 0) on a mesh without layers. On a layered mesh a corner is welded to the vertex
    /// of its own layer at that point (see `portals` for vertices two layers share).
    pub layers: Vec<LayerId>,
    /// On a layered mesh: segments where triangles of two layers join (portals). Added corners
    /// of two layers at one point are one vertex when an edge of each runs between the same two
    /// points the opposite ways on one of these segments, and an added edge on one of them
    /// takes the vertices of a kept triangle's wall of another layer running the other way:
    /// that edge is a portal edge. Elsewhere two layers' edges may coincide and stay walls.
    pub portals: Vec<[Point; 2]>,
    /// Whether every edge between a removed and a kept triangle must be an edge of an added
    /// triangle: the patch re-triangulates the inside of a region and keeps its border. When
    /// not set, a border edge no added triangle covers becomes a wall.
    pub keep_border: bool,
}

/// Where the triangles of an applied patch went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatchOutcome {
    /// The id of each added triangle, in the order of [`MeshPatch::add`].
    pub added: Vec<TriangleId>,
    /// Kept triangles that moved into slots left by removed ones, as (old id, new id).
    pub moved: Vec<(TriangleId, TriangleId)>,
}

/// Where applied patches wrote: what a copy of the mesh as it was before them needs to be
/// brought up to date by copying instead of applying them again ([`NavMesh::catch_up`]).
/// Filled by [`NavMesh::apply_patch_recorded`]; one record may cover several patches in a row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatchWrites {
    /// Triangles whose entries (corners, links, area, island, turning corners, pocket) may
    /// have changed, in any order, repeats allowed.
    triangles: Vec<u32>,
    /// Vertices whose position may have changed.
    vertices: Vec<u32>,
    /// Grid cells whose lists changed.
    cells: Vec<u32>,
    /// Whether every triangle's island may have changed (islands merged or numbered again).
    all_islands: bool,
    /// Whether the grid was built again.
    grid_rebuilt: bool,
}

impl PatchWrites {
    /// An empty record.
    pub fn new() -> PatchWrites {
        PatchWrites::default()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        *self == PatchWrites::default()
    }

    /// Forgets everything recorded, keeping the memory.
    pub fn clear(&mut self) {
        self.triangles.clear();
        self.vertices.clear();
        self.cells.clear();
        self.all_islands = false;
        self.grid_rebuilt = false;
    }
}

/// Why a patch was refused. The mesh is unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PatchError {
    /// A triangle to remove does not exist.
    #[error("triangle {0} cannot be removed: the mesh has no such triangle")]
    NoSuchTriangle(TriangleId),
    /// A triangle is listed twice for removal.
    #[error("triangle {0} is listed twice for removal")]
    RemovedTwice(TriangleId),
    /// `areas` is neither empty nor one per added triangle.
    #[error("{areas} area ids for {added} added triangles")]
    AreasLength {
        /// Entries of `areas`.
        areas: usize,
        /// Entries of `add`.
        added: usize,
    },
    /// An added corner is NaN, infinite or outside the coordinate range.
    #[error("added triangle {triangle}: corner ({}, {}) is out of range", .point.x, .point.y)]
    CornerOutOfRange {
        /// Index in `add`.
        triangle: usize,
        /// The corner.
        point: Point,
    },
    /// An added triangle is clockwise or has no area.
    #[error("added triangle {0} is not counter-clockwise")]
    NotCounterClockwise(usize),
    /// The mesh would have more triangles than a mesh may.
    #[error("{0} triangles, more than a mesh may have")]
    TooManyTriangles(usize),
    /// Two triangles would use the same edge in the same direction (they overlap).
    #[error("edge ({}, {})-({}, {}) would be used twice in the same direction", .from.x, .from.y, .to.x, .to.y)]
    EdgeUsedTwice {
        /// The edge's start.
        from: Point,
        /// The edge's end.
        to: Point,
    },
    /// With [`MeshPatch::keep_border`]: a border edge of the removed triangles is not an edge
    /// of an added triangle.
    #[error("border edge ({}, {})-({}, {}) of the removed triangles is not kept", .from.x, .from.y, .to.x, .to.y)]
    OpenBorder {
        /// The edge's start (as the removed triangle runs it).
        from: Point,
        /// The edge's end.
        to: Point,
    },
    /// `layers` is neither one per added triangle nor (on a mesh without layers) empty.
    #[error("{layers} layer ids for {added} added triangles")]
    LayersLength {
        /// Entries of `layers`.
        layers: usize,
        /// Entries of `add`.
        added: usize,
    },
    /// An added triangle names a layer the mesh does not have.
    #[error("added triangle {triangle} is on layer {layer}, which the mesh does not have")]
    NoSuchLayer {
        /// Index in `add`.
        triangle: usize,
        /// The layer.
        layer: LayerId,
    },
    /// Added triangles of two layers meet along a portal edge at a point where each layer
    /// already has a vertex of its own: joining them would need renaming kept triangles.
    #[error("layers' distinct vertices at ({}, {}) would be joined by a portal edge", .point.x, .point.y)]
    JoinedVertices {
        /// The point.
        point: Point,
    },
}

/// A link of an added triangle's edge.
#[derive(Clone, Copy, Debug)]
enum Link {
    /// Across it: edge `k` of added triangle `i`.
    Added(u32),
    /// Across it: a kept triangle (old id).
    Kept(TriangleId),
    /// A wall.
    None,
}

/// The kept triangles at old vertices, found once per vertex while checking a patch: per
/// vertex, a range of `items`.
struct KeptAround {
    ranges: HashMap<u32, [u32; 2]>,
    items: Vec<TriangleId>,
}

/// What checking a patch decided, for committing it.
struct Plan {
    /// The removed triangles, ascending.
    removed: Vec<TriangleId>,
    /// Corners of each added triangle: old vertex ids, or `old count + i` for new vertex `i`.
    corners: Vec<[u32; 3]>,
    /// The new vertices' positions.
    new_points: Vec<Point>,
    /// The link across each edge of each added triangle.
    links: Vec<[Link; 3]>,
    /// Kept triangles' edges that faced a removed triangle, or were walls an added triangle
    /// now covers: (kept triangle, edge, the added triangle now across, if any).
    border: Vec<(TriangleId, u8, Option<u32>)>,
    /// Old vertices no triangle uses after the patch.
    dead_vertices: Vec<VertexId>,
    /// The slot of each added triangle.
    slots: Vec<TriangleId>,
    /// Kept triangles moving into leftover slots.
    moves: Vec<(TriangleId, TriangleId)>,
}

impl NavMesh {
    /// Removes `patch.remove`, adds `patch.add`, and updates the derived data by looking near
    /// the change only. On error ([`PatchError`]) nothing changes. Afterwards the mesh is what
    /// [`NavMesh::from_parts`] would build from its arrays (same islands, pockets, turning
    /// corners, bounds; the grid's cells may be sized for the triangle count of an earlier
    /// build, which changes no answer).
    ///
    /// Added triangles take the removed triangles' slots in ascending order, then the end of
    /// the arrays; when fewer come than go, the last triangles move down into the slots left
    /// over ([`PatchOutcome::moved`]), and the last vertex moves into the place of each vertex
    /// no triangle uses any more. The same mesh and patch always give the same arrays.
    ///
    /// ```
    /// use trinav::build::{MeshParts, MeshPatch, build_adjacency, find_islands};
    /// use trinav::{AreaId, BakeSettings, NavMesh, Point, VertexId};
    /// // The unit square as two triangles; then the second is cut in three at (0.25, 0.5).
    /// let triangles = vec![[0, 1, 2].map(VertexId), [0, 2, 3].map(VertexId)];
    /// let neighbours = build_adjacency(&triangles, 4)?;
    /// let parts = MeshParts {
    ///     settings: BakeSettings::default(),
    ///     vertices: vec![Point::new(0., 0.), Point::new(1., 0.), Point::new(1., 1.), Point::new(0., 1.)],
    ///     islands: find_islands(&neighbours).0,
    ///     areas: vec![AreaId(0); 2],
    ///     triangles,
    ///     neighbours,
    /// };
    /// let mut mesh = NavMesh::from_parts(parts)?;
    /// let [a, b, c] = mesh.triangle_points(trinav::TriangleId(1));
    /// let m = Point::new(0.25, 0.5);
    /// let add = vec![[a, b, m], [b, c, m], [c, a, m]];
    /// let outcome = mesh.apply_patch(&MeshPatch { remove: vec![trinav::TriangleId(1)], add, ..MeshPatch::default() })?;
    /// assert_eq!(outcome.added.len(), 3);
    /// assert_eq!((mesh.triangle_count(), mesh.vertices().len()), (4, 5));
    /// assert_eq!(mesh.island_count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply_patch(&mut self, patch: &MeshPatch) -> Result<PatchOutcome, PatchError> {
        self.apply_patch_recorded(patch, &mut PatchWrites::new())
    }

    /// [`NavMesh::apply_patch`], adding to `writes` where it wrote, so that a copy of the mesh
    /// as it was can catch up by copying ([`NavMesh::catch_up`]). On error nothing changes and
    /// nothing is added.
    pub fn apply_patch_recorded(
        &mut self,
        patch: &MeshPatch,
        writes: &mut PatchWrites,
    ) -> Result<PatchOutcome, PatchError> {
        let plan = self.plan(patch)?;
        let outcome = self.commit(patch, plan, writes);
        self.relocate_links();
        Ok(outcome)
    }

    /// Makes this mesh equal to `changed`, given that it was equal to `changed` before the
    /// patches recorded in `writes` were applied to `changed`: copies what they wrote instead
    /// of applying them again (the derived data included; the grid lists get the same content,
    /// perhaps laid out otherwise in memory, which no answer depends on). With any other mesh
    /// or record, the result is unspecified (but memory-safe).
    ///
    /// ```
    /// use trinav::build::{MeshParts, MeshPatch, PatchWrites, build_adjacency, find_islands};
    /// use trinav::{AreaId, BakeSettings, NavMesh, Point, TriangleId, VertexId};
    /// let triangles = vec![[0, 1, 2].map(VertexId), [0, 2, 3].map(VertexId)];
    /// let neighbours = build_adjacency(&triangles, 4)?;
    /// let parts = MeshParts {
    ///     settings: BakeSettings::default(),
    ///     vertices: vec![Point::new(0., 0.), Point::new(1., 0.), Point::new(1., 1.), Point::new(0., 1.)],
    ///     islands: find_islands(&neighbours).0,
    ///     areas: vec![AreaId(0); 2],
    ///     triangles,
    ///     neighbours,
    /// };
    /// let mut mesh = NavMesh::from_parts(parts)?;
    /// let mut copy = mesh.clone();
    /// let mut writes = PatchWrites::new();
    /// mesh.apply_patch_recorded(&MeshPatch { remove: vec![TriangleId(1)], ..MeshPatch::default() }, &mut writes)?;
    /// copy.catch_up(&mesh, &writes);
    /// assert_eq!(copy.parts(), mesh.parts());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn catch_up(&mut self, changed: &NavMesh, writes: &PatchWrites) {
        let n = changed.parts.triangles.len();
        let old_n = self.parts.triangles.len().min(n);
        {
            let (to, from) = (&mut self.parts, &changed.parts);
            to.triangles.truncate(n);
            to.neighbours.truncate(n);
            to.areas.truncate(n);
            to.islands.truncate(n);
            self.search_flags.truncate(n);
            self.pockets.truncate(n);
            let grow = n - old_n;
            reserve_headroom(&mut to.triangles, grow);
            reserve_headroom(&mut to.neighbours, grow);
            reserve_headroom(&mut to.areas, grow);
            reserve_headroom(&mut to.islands, grow);
            reserve_headroom(&mut self.search_flags, grow);
            reserve_headroom(&mut self.pockets, grow);
            to.triangles.extend_from_slice(&from.triangles[old_n..]);
            to.neighbours.extend_from_slice(&from.neighbours[old_n..]);
            to.areas.extend_from_slice(&from.areas[old_n..]);
            to.islands.extend_from_slice(&from.islands[old_n..]);
            self.search_flags.extend_from_slice(&changed.search_flags[old_n..]);
            self.pockets.extend_from_slice(&changed.pockets[old_n..]);
            if let (Some(to), Some(from)) = (&mut self.layers, &changed.layers) {
                to.triangles.truncate(n);
                reserve_headroom(&mut to.triangles, grow);
                to.triangles.extend_from_slice(&from.triangles[old_n..]);
                for t in writes.triangles.iter().map(|&t| t as usize).filter(|&t| t < old_n) {
                    to.triangles[t] = from.triangles[t];
                }
            }
            for t in writes.triangles.iter().map(|&t| t as usize).filter(|&t| t < old_n) {
                to.triangles[t] = from.triangles[t];
                to.neighbours[t] = from.neighbours[t];
                to.areas[t] = from.areas[t];
                to.islands[t] = from.islands[t];
                self.search_flags[t] = changed.search_flags[t];
                self.pockets[t] = changed.pockets[t];
            }
            if writes.all_islands {
                to.islands.copy_from_slice(&from.islands);
            }
            let m = from.vertices.len();
            let old_m = to.vertices.len().min(m);
            to.vertices.truncate(m);
            reserve_headroom(&mut to.vertices, m - old_m);
            to.vertices.extend_from_slice(&from.vertices[old_m..]);
            for v in writes.vertices.iter().map(|&v| v as usize).filter(|&v| v < old_m) {
                to.vertices[v] = from.vertices[v];
            }
        }
        self.island_count = changed.island_count;
        self.bounds = changed.bounds;
        self.island_bounds.clone_from(&changed.island_bounds);
        self.island_firsts = changed.island_firsts.clone();
        if writes.grid_rebuilt {
            self.grid.clone_from(&changed.grid);
        } else {
            self.grid.copy_lists(&changed.grid, &writes.cells);
        }
        self.forget_widths();
        self.links.clone_from(&changed.links);
    }

    /// The vertex at exactly `p`, if any (through the grid: a vertex lies in the box of every
    /// triangle it is a corner of).
    pub(crate) fn vertex_at(&self, p: Point) -> Option<VertexId> {
        let key = position_key(p);
        (self.grid.candidates(p).iter())
            .flat_map(|&t| self.parts.triangles[t.index()])
            .find(|v| position_key(self.parts.vertices[v.index()]) == key)
    }

    /// The vertex at exactly `p` used by a triangle of `layer` not in `removed` (ascending),
    /// if any.
    fn kept_vertex_at_on(&self, p: Point, layer: LayerId, removed: &[TriangleId]) -> Option<VertexId> {
        let key = position_key(p);
        (self.grid.candidates(p).iter())
            .filter(|&&t| self.triangle_layer(t) == layer && removed.binary_search(&t).is_err())
            .flat_map(|&t| self.parts.triangles[t.index()])
            .find(|v| position_key(self.parts.vertices[v.index()]) == key)
    }

    /// Every (triangle, corner) at vertex `v`.
    fn incident(&self, v: VertexId) -> impl Iterator<Item = (TriangleId, u8)> + '_ {
        let p = self.parts.vertices[v.index()];
        (self.grid.candidates(p).iter()).filter_map(move |&t| {
            let k = self.parts.triangles[t.index()].iter().position(|&w| w == v)?;
            Some((t, k as u8))
        })
    }

    /// The triangles at old vertex `v` that a patch keeps (`removed`: the removed ones,
    /// ascending), remembered in `cache`.
    fn kept_around<'a>(&self, v: u32, removed: &[TriangleId], cache: &'a mut KeptAround) -> &'a [TriangleId] {
        let [start, end] = *cache.ranges.entry(v).or_insert_with(|| {
            let start = cache.items.len() as u32;
            (cache.items).extend(
                self.incident(VertexId(v)).map(|(t, _)| t).filter(|t| removed.binary_search(t).is_err()),
            );
            [start, cache.items.len() as u32]
        });
        &cache.items[start as usize..end as usize]
    }

    /// The corners of `patch`'s added triangles as vertices: a removed triangle's corner, any
    /// other vertex at that point, or a new vertex (numbered from the old vertex count on).
    fn weld(&self, patch: &MeshPatch, removed: &[TriangleId]) -> (Vec<[u32; 3]>, Vec<Point>) {
        let parts = &self.parts;
        let old_vertices = parts.vertices.len() as u32;
        let mut known: HashMap<(u64, u64), u32> =
            HashMap::with_capacity(3 * (removed.len() + patch.add.len()));
        for &t in removed {
            for v in parts.triangles[t.index()] {
                known.insert(position_key(parts.vertices[v.index()]), v.0);
            }
        }
        let mut new_points = Vec::new();
        let mut corners = Vec::with_capacity(patch.add.len());
        for tri in &patch.add {
            corners.push(tri.map(|p| {
                let key = position_key(p);
                if let Some(&v) = known.get(&key) {
                    return v;
                }
                let v = match self.vertex_at(p) {
                    Some(v) => v.0,
                    None => {
                        new_points.push(p);
                        old_vertices + new_points.len() as u32 - 1
                    }
                };
                known.insert(key, v);
                v
            }));
        }
        (corners, new_points)
    }

    /// [`NavMesh::weld`] on a layered mesh: a corner is keyed by its point and its triangle's
    /// layer; keys of two layers at one point are joined when added edges of both layers run
    /// between the same points the opposite ways on one of the patch's portals; each set of keys
    /// is a vertex one of them already has (a kept triangle's of that layer first, then a
    /// removed triangle's), or a new vertex.
    fn weld_layered(
        &self,
        patch: &MeshPatch,
        removed: &[TriangleId],
    ) -> Result<(Vec<[u32; 3]>, Vec<Point>), PatchError> {
        type Key = ((u64, u64), LayerId);
        let parts = &self.parts;
        let old_vertices = parts.vertices.len() as u32;
        let mut known: HashMap<Key, u32> = HashMap::with_capacity(3 * removed.len());
        for &t in removed {
            let layer = self.triangle_layer(t);
            for v in parts.triangles[t.index()] {
                known.insert((position_key(parts.vertices[v.index()]), layer), v.0);
            }
        }
        // The keys of the added corners, numbered in order of appearance.
        let mut index: HashMap<Key, u32> = HashMap::with_capacity(3 * patch.add.len());
        let mut keys: Vec<(Key, Point)> = Vec::new();
        let corner_keys: Vec<[u32; 3]> = (patch.add.iter().zip(&patch.layers))
            .map(|(tri, &layer)| {
                tri.map(|p| {
                    *index.entry((position_key(p), layer)).or_insert_with(|| {
                        keys.push(((position_key(p), layer), p));
                        keys.len() as u32 - 1
                    })
                })
            })
            .collect();
        // Portal edges between added triangles join their ends' keys.
        let mut parent: Vec<usize> = (0..keys.len()).collect();
        // Added edges by their ends' points: (key at one end, key at the other).
        type Position = (u64, u64);
        let mut by_points: HashMap<(Position, Position), Vec<(u32, u32)>> = HashMap::new();
        for c in &corner_keys {
            for k in 0..3 {
                let (a, b) = (c[k], c[(k + 1) % 3]);
                by_points.entry((keys[a as usize].0.0, keys[b as usize].0.0)).or_default().push((a, b));
            }
        }
        let on_portal = |a: Point, b: Point| {
            patch.portals.iter().any(|&[u, v]| {
                let within = |p: Point| {
                    orient(u, v, p) == Orientation::Collinear
                        && p.x >= u.x.min(v.x)
                        && p.x <= u.x.max(v.x)
                        && p.y >= u.y.min(v.y)
                        && p.y <= u.y.max(v.y)
                };
                within(a) && within(b)
            })
        };
        for (&(pa, pb), edges) in &by_points {
            let Some(twins) = by_points.get(&(pb, pa)) else { continue };
            let [a, b] = [edges[0].0, edges[0].1].map(|k| keys[k as usize].1);
            if !on_portal(a, b) {
                continue;
            }
            for &(a, b) in edges {
                for &(tb, ta) in
                    twins.iter().filter(|&&(tb, _)| keys[tb as usize].0.1 != keys[b as usize].0.1)
                {
                    union(&mut parent, a as usize, ta as usize);
                    union(&mut parent, b as usize, tb as usize);
                }
            }
        }
        // Each set's vertex: the one a kept triangle of one of its layers uses, or whose wall
        // one of its portal edges runs along (two are an error: they would have to become
        // one), else the first a removed triangle used (a portal's end that one layer lost and
        // gets back), else a new one.
        // An added edge on a portal whose twin is a kept triangle's wall on another layer
        // takes that wall's vertices (a layer's side of a portal put back).
        let mut anchors: Vec<(u32, VertexId)> = (keys.iter().enumerate())
            .filter_map(|(i, &((_, layer), p))| Some((i as u32, self.kept_vertex_at_on(p, layer, removed)?)))
            .collect();
        for c in &corner_keys {
            for k in 0..3 {
                let (ka, kb) = (c[k], c[(k + 1) % 3]);
                let ((_, layer), pa) = keys[ka as usize];
                let pb = keys[kb as usize].1;
                if patch.portals.is_empty() || !on_portal(pa, pb) {
                    continue;
                }
                for &t in self.grid.candidates(pa) {
                    if self.triangle_layer(t) == layer || removed.binary_search(&t).is_ok() {
                        continue;
                    }
                    let tri = self.parts.triangles[t.index()];
                    for e in 0..3 {
                        let (u, w) = (tri[e], tri[(e + 1) % 3]);
                        let at = |v: VertexId, p: Point| {
                            position_key(parts.vertices[v.index()]) == position_key(p)
                        };
                        if self.parts.neighbours[t.index()][e].is_none() && at(u, pb) && at(w, pa) {
                            anchors.extend([(ka, w), (kb, u)]);
                        }
                    }
                }
            }
        }
        let mut vertex_of_root: Vec<u32> = vec![u32::MAX; keys.len()];
        for (i, v) in anchors {
            let slot = &mut vertex_of_root[find(&mut parent, i as usize)];
            if *slot != u32::MAX && *slot != v.0 {
                return Err(PatchError::JoinedVertices { point: keys[i as usize].1 });
            }
            *slot = v.0;
        }
        for (i, (key, _)) in keys.iter().enumerate() {
            let slot = &mut vertex_of_root[find(&mut parent, i)];
            if *slot == u32::MAX
                && let Some(&v) = known.get(key)
            {
                *slot = v;
            }
        }
        let mut new_points = Vec::new();
        let mut vertex_of_key = vec![0; keys.len()];
        for (i, &(_, p)) in keys.iter().enumerate() {
            let root = find(&mut parent, i);
            if vertex_of_root[root] == u32::MAX {
                new_points.push(p);
                vertex_of_root[root] = old_vertices + new_points.len() as u32 - 1;
            }
            vertex_of_key[i] = vertex_of_root[root];
        }
        let corners = corner_keys.iter().map(|c| c.map(|k| vertex_of_key[k as usize])).collect();
        Ok((corners, new_points))
    }

    /// Checks a patch and decides where everything goes, changing nothing.
    fn plan(&self, patch: &MeshPatch) -> Result<Plan, PatchError> {
        let parts = &self.parts;
        let n = parts.triangles.len();
        let mut removed = patch.remove.clone();
        if let Some(&t) = removed.iter().find(|t| t.index() >= n) {
            return Err(PatchError::NoSuchTriangle(t));
        }
        removed.sort_unstable();
        if let Some(w) = removed.windows(2).find(|w| w[0] == w[1]) {
            return Err(PatchError::RemovedTwice(w[0]));
        }
        // Few triangles go in a patch: a binary search beats hashing.
        let is_removed = |t: &TriangleId| removed.binary_search(t).is_ok();
        if !patch.areas.is_empty() && patch.areas.len() != patch.add.len() {
            return Err(PatchError::AreasLength { areas: patch.areas.len(), added: patch.add.len() });
        }
        let layered = self.is_layered();
        if (layered || !patch.layers.is_empty()) && patch.layers.len() != patch.add.len() {
            return Err(PatchError::LayersLength { layers: patch.layers.len(), added: patch.add.len() });
        }
        if let Some((triangle, &layer)) =
            patch.layers.iter().enumerate().find(|(_, l)| l.index() >= self.layer_count())
        {
            return Err(PatchError::NoSuchLayer { triangle, layer });
        }
        for (i, tri) in patch.add.iter().enumerate() {
            if let Some(&point) = tri.iter().find(|p| !p.in_range()) {
                return Err(PatchError::CornerOutOfRange { triangle: i, point });
            }
            if orient(tri[0], tri[1], tri[2]) != Orientation::CounterClockwise {
                return Err(PatchError::NotCounterClockwise(i));
            }
        }
        let new_count = n - removed.len() + patch.add.len();
        if new_count > HalfEdge::MAX_TRIANGLES {
            return Err(PatchError::TooManyTriangles(new_count));
        }

        let old_vertices = parts.vertices.len() as u32;
        let (corners, new_points) =
            if layered { self.weld_layered(patch, &removed)? } else { self.weld(patch, &removed) };
        let point = |v: u32| {
            if v < old_vertices {
                parts.vertices[v as usize]
            } else {
                new_points[(v - old_vertices) as usize]
            }
        };

        // Added half edges, each once.
        let mut edges: HashMap<(u32, u32), (u32, u8)> = HashMap::with_capacity(patch.add.len() * 3);
        for (i, c) in corners.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (c[k], c[(k + 1) % 3]);
                if edges.insert((a, b), (i as u32, k as u8)).is_some() {
                    return Err(PatchError::EdgeUsedTwice { from: point(a), to: point(b) });
                }
            }
        }
        // The border of the removed triangles.
        let mut links = vec![[Link::None; 3]; patch.add.len()];
        let mut border = Vec::new();
        let mut border_partner: HashMap<(u32, u32), TriangleId> = HashMap::with_capacity(removed.len() + 4);
        for &t in &removed {
            let tri = parts.triangles[t.index()];
            for k in 0..3 {
                let kept = parts.neighbours[t.index()][k];
                if kept.is_none() || is_removed(&kept) {
                    continue;
                }
                let j =
                    parts.neighbours[kept.index()].iter().position(|&u| u == t).expect("links are symmetric");
                let (a, b) = (tri[k].0, tri[(k + 1) % 3].0);
                match edges.get(&(a, b)) {
                    Some(&(i, kk)) => {
                        links[i as usize][kk as usize] = Link::Kept(kept);
                        border.push((kept, j as u8, Some(i)));
                        border_partner.insert((a, b), kept);
                    }
                    None if patch.keep_border => {
                        return Err(PatchError::OpenBorder { from: point(a), to: point(b) });
                    }
                    None => border.push((kept, j as u8, None)),
                }
            }
        }
        // Kept triangles at each old vertex the added triangles use, found once.
        let mut kept_at = KeptAround {
            ranges: HashMap::with_capacity(2 * removed.len() + 4),
            items: Vec::with_capacity(12 * removed.len() + 16),
        };
        // Every other added edge: across it an added triangle, a kept triangle whose wall it
        // is, or nothing; never two of them, and no kept triangle running it the same way.
        for (i, c) in corners.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (c[k], c[(k + 1) % 3]);
                let added_twin = edges.get(&(b, a)).map(|&(j, jk)| 3 * j + u32::from(jk));
                let border_twin = border_partner.get(&(a, b)).copied();
                let mut wall_twin = None;
                if a < old_vertices && b < old_vertices {
                    for &t in self.kept_around(a, &removed, &mut kept_at) {
                        let tri = parts.triangles[t.index()];
                        for e in 0..3 {
                            let (u, w) = (tri[e].0, tri[(e + 1) % 3].0);
                            let across = parts.neighbours[t.index()][e];
                            let kept_link = !across.is_none() && !is_removed(&across);
                            if (u, w) == (a, b) || ((u, w) == (b, a) && kept_link) {
                                return Err(PatchError::EdgeUsedTwice { from: point(a), to: point(b) });
                            }
                            if (u, w) == (b, a) && across.is_none() {
                                wall_twin = Some((t, e as u8));
                            }
                        }
                    }
                }
                let twins = usize::from(added_twin.is_some())
                    + usize::from(border_twin.is_some())
                    + usize::from(wall_twin.is_some());
                if twins > 1 {
                    return Err(PatchError::EdgeUsedTwice { from: point(b), to: point(a) });
                }
                if let Some(h) = added_twin {
                    links[i][k] = Link::Added(h);
                }
                if let Some((t, e)) = wall_twin {
                    links[i][k] = Link::Kept(t);
                    border.push((t, e, Some(i as u32)));
                }
            }
        }
        // Old vertices of removed triangles that nothing uses any more.
        let used_by_added: HashSet<u32> = corners.iter().flatten().copied().collect();
        let mut dead_vertices: Vec<VertexId> = removed
            .iter()
            .flat_map(|&t| parts.triangles[t.index()])
            .filter(|v| !used_by_added.contains(&v.0))
            .collect();
        dead_vertices.sort_unstable();
        dead_vertices.dedup();
        dead_vertices.retain(|&v| self.kept_around(v.0, &removed, &mut kept_at).is_empty());

        // Slots: the removed ones in order, then the end; leftover slots below the new count
        // take the last kept triangles.
        let mut slots: Vec<TriangleId> = removed.iter().copied().take(patch.add.len()).collect();
        slots.extend((n..n + patch.add.len().saturating_sub(removed.len())).map(TriangleId::from_index));
        let holes: Vec<TriangleId> =
            removed.iter().copied().skip(patch.add.len()).filter(|t| t.index() < new_count).collect();
        let tail: Vec<TriangleId> =
            (new_count..n).map(TriangleId::from_index).filter(|t| !is_removed(t)).collect();
        debug_assert_eq!(holes.len(), tail.len());
        let moves = tail.into_iter().zip(holes).collect();
        Ok(Plan { removed, corners, new_points, links, border, dead_vertices, slots, moves })
    }

    /// Applies a checked patch.
    fn commit(&mut self, patch: &MeshPatch, plan: Plan, w: &mut PatchWrites) -> PatchOutcome {
        let Plan { removed, corners, new_points, links, border, dead_vertices, slots, moves } = plan;
        let n = self.parts.triangles.len();
        let new_count = n - removed.len() + patch.add.len();
        let old_bounds = self.bounds;
        // Clearance data is derived again on the next query with a radius.
        self.forget_widths();
        // The islands' lowest triangles, kept from patch to patch.
        self.island_firsts.get_or_init(|| lowest_triangles(&self.parts.islands, self.island_count));

        // What the removed triangles were, before their slots are reused.
        let removed_corners: Vec<[Point; 3]> = removed.iter().map(|&t| self.triangle_points(t)).collect();
        let removed_boxes: Vec<Aabb> = removed_corners.iter().map(|&c| Aabb::from_points(c)).collect();
        let removed_islands: Vec<IslandId> = removed.iter().map(|&t| self.parts.islands[t.index()]).collect();
        let mut affected_vertices: Vec<VertexId> =
            removed.iter().flat_map(|&t| self.parts.triangles[t.index()]).collect();
        let seeds: Vec<TriangleId> = border.iter().map(|&(t, _, _)| t).collect();

        // New vertices, then links from the kept side of the border.
        reserve_headroom(&mut self.parts.vertices, new_points.len());
        w.vertices.extend((self.parts.vertices.len()..).take(new_points.len()).map(|v| v as u32));
        self.parts.vertices.extend_from_slice(&new_points);
        w.triangles.extend(seeds.iter().map(|t| t.0));
        w.triangles.extend(slots.iter().map(|t| t.0));
        for &(kept, j, added) in &border {
            self.parts.neighbours[kept.index()][j as usize] =
                added.map_or(TriangleId::NONE, |i| slots[i as usize]);
        }
        // The added triangles in their slots.
        if new_count > n {
            let grow = new_count - n;
            let parts = &mut self.parts;
            reserve_headroom(&mut parts.triangles, grow);
            reserve_headroom(&mut parts.neighbours, grow);
            reserve_headroom(&mut parts.areas, grow);
            reserve_headroom(&mut parts.islands, grow);
            reserve_headroom(&mut self.search_flags, grow);
            reserve_headroom(&mut self.pockets, grow);
            parts.triangles.extend(std::iter::repeat_n([VertexId::NONE; 3], grow));
            parts.neighbours.extend(std::iter::repeat_n([TriangleId::NONE; 3], grow));
            parts.areas.extend(std::iter::repeat_n(AreaId(0), grow));
            parts.islands.extend(std::iter::repeat_n(IslandId::NONE, grow));
            self.search_flags.extend(std::iter::repeat_n(0, grow));
            self.pockets.extend(std::iter::repeat_n(Pocket::Core, grow));
            if let Some(table) = &mut self.layers {
                reserve_headroom(&mut table.triangles, grow);
                table.triangles.extend(std::iter::repeat_n(LayerId(0), grow));
            }
        }
        for (i, (&slot, c)) in slots.iter().zip(&corners).enumerate() {
            let s = slot.index();
            self.parts.triangles[s] = c.map(VertexId);
            self.parts.neighbours[s] = links[i].map(|link| match link {
                Link::Added(h) => slots[(h / 3) as usize],
                Link::Kept(t) => t,
                Link::None => TriangleId::NONE,
            });
            self.parts.areas[s] = patch.areas.get(i).copied().unwrap_or(AreaId(0));
            self.parts.islands[s] = IslandId::NONE;
            self.search_flags[s] = 0;
            self.pockets[s] = Pocket::Core;
            if let Some(table) = &mut self.layers {
                table.triangles[s] = patch.layers[i];
            }
        }
        // Kept triangles moving down into leftover slots.
        for &(from, to) in &moves {
            self.move_triangle(from, to);
            w.triangles.push(to.0);
            w.triangles
                .extend(self.parts.neighbours[to.index()].iter().filter(|u| !u.is_none()).map(|u| u.0));
        }
        self.truncate_triangles(new_count);
        let moved_to: HashMap<TriangleId, TriangleId> = moves.iter().copied().collect();
        let final_id = |t: TriangleId| moved_to.get(&t).copied().unwrap_or(t);
        let seeds: Vec<TriangleId> = seeds.into_iter().map(final_id).collect();

        // The grid: removed boxes out, added boxes in, moved triangles renamed.
        let mut changes: Vec<(u32, TriangleId, bool)> = Vec::new();
        for (&t, &b) in removed.iter().zip(&removed_boxes) {
            changes.extend(self.grid.cells_of_box(b).map(|cell| (cell, t, false)));
        }
        for &slot in &slots {
            let b = self.triangle_box(slot);
            changes.extend(self.grid.cells_of_box(b).map(|cell| (cell, slot, true)));
        }
        for &(from, to) in &moves {
            let b = self.triangle_box(to);
            changes.extend(self.grid.cells_of_box(b).map(|cell| (cell, from, false)));
            changes.extend(self.grid.cells_of_box(b).map(|cell| (cell, to, true)));
        }
        self.grid.update(&changes, &mut w.cells);

        // Vertices nothing uses: the last vertex moves into each hole.
        let dead_points: Vec<Point> = dead_vertices.iter().map(|v| self.parts.vertices[v.index()]).collect();
        let mut renamed: HashMap<VertexId, VertexId> = HashMap::new();
        let mut incident: Vec<(TriangleId, u8)> = Vec::new();
        for &hole in dead_vertices.iter().rev() {
            let last = VertexId::from_index(self.parts.vertices.len() - 1);
            if hole != last {
                incident.clear();
                incident.extend(self.incident(last));
                for &(t, k) in &incident {
                    self.parts.triangles[t.index()][k as usize] = hole;
                    w.triangles.push(t.0);
                }
                w.vertices.push(hole.0);
                self.parts.vertices[hole.index()] = self.parts.vertices[last.index()];
                renamed.insert(last, hole);
            }
            self.parts.vertices.pop();
        }
        let dead: HashSet<VertexId> = dead_vertices.iter().copied().collect();
        affected_vertices.retain(|v| !dead.contains(v));
        affected_vertices.extend(slots.iter().flat_map(|&s| self.parts.triangles[s.index()]));
        let affected_vertices: Vec<VertexId> = {
            // A vertex may move twice (into a hole, then on into a lower one as the last).
            let current = |mut v: VertexId| {
                while let Some(&to) = renamed.get(&v) {
                    v = to;
                }
                v
            };
            let mut set: Vec<VertexId> = affected_vertices.into_iter().map(current).collect();
            set.sort_unstable();
            set.dedup();
            set
        };

        // Bounds: larger when an added corner lies outside; perhaps smaller when a removed
        // vertex lay on them.
        let touches =
            |b: &Aabb, p: Point| p.x == b.min.x || p.x == b.max.x || p.y == b.min.y || p.y == b.max.y;
        let grew = new_points.iter().any(|&p| !old_bounds.contains(p));
        let shrank = dead_points.iter().any(|&p| touches(&old_bounds, p));
        if grew || shrank {
            self.bounds = Aabb::from_points(self.parts.vertices.iter().copied());
        }
        if self.bounds != old_bounds || self.grid.is_stale(self.bounds, new_count) {
            self.grid = SpatialGrid::build(self.bounds, &self.parts.vertices, &self.parts.triangles);
            w.grid_rebuilt = true;
        }

        // Turning corners at every vertex whose fan changed.
        let mut bits = Vec::new();
        for &v in &affected_vertices {
            incident.clear();
            incident.extend(self.incident(v));
            vertex_turning(
                &self.parts.vertices,
                &self.parts.triangles,
                &self.parts.neighbours,
                v,
                &incident,
                &mut bits,
            );
            if self.is_layered() && self.is_portal_corner(&incident) {
                bits.fill(true);
            }
            for (&(t, k), &bit) in incident.iter().zip(&bits) {
                w.triangles.push(t.0);
                let flags = &mut self.search_flags[t.index()];
                *flags = (*flags & !(1 << k)) | (u8::from(bit) << k);
            }
        }

        let moved_to: Vec<TriangleId> = moves.iter().map(|&(_, to)| to).collect();
        self.update_islands(&slots, &seeds, &removed_islands, &removed_corners, &moved_to, w);
        let mut roots =
            update_pockets(&self.parts.neighbours, &mut self.pockets, &slots, &seeds, &mut w.triangles);
        // An island that is all pocket takes its root from the order of its triangles, which a
        // moved triangle changes.
        roots.extend(moves.iter().map(|&(_, to)| to).filter(|&t| self.ends_at_root(t)));
        let mut done: HashSet<TriangleId> = HashSet::new();
        for root in roots {
            if done.contains(&root) {
                continue;
            }
            let island = self.island_triangles(root);
            for (t, pocket) in island.iter().zip(find_pockets_of(&self.parts.neighbours, &island)) {
                self.pockets[t.index()] = pocket;
            }
            w.triangles.extend(island.iter().map(|t| t.0));
            done.extend(island);
        }
        PatchOutcome { added: slots, moved: moves }
    }

    /// Whether the pocket pointers from `t` end at a root: its island is all pocket.
    fn ends_at_root(&self, mut t: TriangleId) -> bool {
        for _ in 0..=self.pockets.len() {
            match self.pockets[t.index()] {
                Pocket::Core => return false,
                Pocket::Root => return true,
                Pocket::Towards(u) => t = u,
            }
        }
        false
    }

    /// The bounding box of triangle `t`.
    fn triangle_box(&self, t: TriangleId) -> Aabb {
        Aabb::from_points(self.triangle_points(t))
    }

    /// Moves the kept triangle `from` into the empty slot `to`, relinking its neighbours and
    /// their pocket pointers.
    fn move_triangle(&mut self, from: TriangleId, to: TriangleId) {
        let (f, s) = (from.index(), to.index());
        self.parts.triangles[s] = self.parts.triangles[f];
        self.parts.neighbours[s] = self.parts.neighbours[f];
        self.parts.areas[s] = self.parts.areas[f];
        self.parts.islands[s] = self.parts.islands[f];
        self.search_flags[s] = self.search_flags[f];
        self.pockets[s] = self.pockets[f];
        if let Some(table) = &mut self.layers {
            table.triangles[s] = table.triangles[f];
        }
        for u in self.parts.neighbours[s] {
            if u.is_none() {
                continue;
            }
            for link in &mut self.parts.neighbours[u.index()] {
                if *link == from {
                    *link = to;
                }
            }
            if self.pockets[u.index()] == Pocket::Towards(from) {
                self.pockets[u.index()] = Pocket::Towards(to);
            }
        }
    }

    /// Drops every triangle from `count` on.
    fn truncate_triangles(&mut self, count: usize) {
        self.parts.triangles.truncate(count);
        self.parts.neighbours.truncate(count);
        self.parts.areas.truncate(count);
        self.parts.islands.truncate(count);
        self.search_flags.truncate(count);
        self.pockets.truncate(count);
        if let Some(table) = &mut self.layers {
            table.triangles.truncate(count);
        }
    }

    /// Every triangle of the island holding `t`, ascending.
    fn island_triangles(&self, t: TriangleId) -> Vec<TriangleId> {
        let mut seen: HashSet<TriangleId> = HashSet::new();
        seen.insert(t);
        let mut stack = vec![t];
        while let Some(u) = stack.pop() {
            for w in self.parts.neighbours[u.index()] {
                if !w.is_none() && seen.insert(w) {
                    stack.push(w);
                }
            }
        }
        let mut all: Vec<TriangleId> = seen.into_iter().collect();
        all.sort_unstable();
        all
    }

    /// The lowest triangle and the bounds of the island holding `t`, by walking it, unless
    /// that takes more than `budget` steps (the steps are taken from `budget` either way).
    fn walk_island(&self, t: TriangleId, budget: &mut usize) -> Option<(u32, Aabb)> {
        let mut seen: HashSet<TriangleId> = HashSet::new();
        seen.insert(t);
        let mut stack = vec![t];
        let (mut lowest, mut bounds) = (t.0, Aabb::EMPTY);
        while let Some(u) = stack.pop() {
            *budget = budget.checked_sub(1)?;
            lowest = lowest.min(u.0);
            for p in self.triangle_points(u) {
                bounds = bounds.grown(p);
            }
            for w in self.parts.neighbours[u.index()] {
                if !w.is_none() && seen.insert(w) {
                    stack.push(w);
                }
            }
        }
        Some((lowest, bounds))
    }

    /// Islands after a patch (see the module documentation): `added` are the added triangles
    /// (island `NONE` so far), `seeds` the kept triangles that lost a neighbour,
    /// `removed_islands` and `removed_corners` the islands and corners of the removed
    /// triangles, `moved_to` the slots kept triangles moved into.
    fn update_islands(
        &mut self,
        added: &[TriangleId],
        seeds: &[TriangleId],
        removed_islands: &[IslandId],
        removed_corners: &[[Point; 3]],
        moved_to: &[TriangleId],
        w: &mut PatchWrites,
    ) {
        let islands = &self.parts.islands;
        let seed_set: HashSet<TriangleId> = seeds.iter().copied().collect();
        // Groups: one per connected set of added triangles (with the seeds it touches), one per
        // seed touching none.
        let mut group_of: HashMap<TriangleId, usize> =
            HashMap::with_capacity(4 * (added.len() + seeds.len()));
        let mut groups: Vec<Group> = Vec::new();
        // Groups that meet at a seed (a seed joins the first group reaching it).
        let mut meeting: Vec<(usize, usize)> = Vec::new();
        for &start in added.iter().chain(seeds) {
            if group_of.contains_key(&start) {
                continue;
            }
            let g = groups.len();
            let mut group = Group::default();
            let mut stack = vec![start];
            group_of.insert(start, g);
            while let Some(t) = stack.pop() {
                group.members.push(t);
                group.frontier.push_back(t);
                if islands[t.index()].is_none() {
                    for u in self.parts.neighbours[t.index()] {
                        if u.is_none() || !(islands[u.index()].is_none() || seed_set.contains(&u)) {
                            continue;
                        }
                        match group_of.get(&u) {
                            Some(&h) if h != g => meeting.push((g, h)),
                            Some(_) => {}
                            None => {
                                group_of.insert(u, g);
                                stack.push(u);
                            }
                        }
                    }
                } else {
                    group.labels.push(islands[t.index()]);
                }
            }
            group.labels.sort_unstable();
            group.labels.dedup();
            groups.push(group);
        }
        // Race: while an old island has border triangles in two groups that may still be
        // apart, grow every such group by one triangle in turn.
        let mut parent: Vec<usize> = (0..groups.len()).collect();
        for (g, h) in meeting {
            let (g, h) = (find(&mut parent, g), find(&mut parent, h));
            if g != h {
                join(&mut groups, &mut parent, g, h);
            }
        }
        // The racing groups change only when a group runs out or two join: they are found
        // again only then, not at every step (a long race would otherwise pay for a pass over
        // every group per triangle walked).
        let mut racing = racing_groups(&groups, &mut parent);
        while !racing.is_empty() {
            let mut changed = false;
            for &g in &racing {
                let g = find(&mut parent, g);
                let Some(t) = groups[g].frontier.pop_front() else {
                    groups[g].done = true;
                    changed = true;
                    continue;
                };
                for u in self.parts.neighbours[t.index()] {
                    if u.is_none() {
                        continue;
                    }
                    match group_of.get(&u) {
                        Some(&h) => {
                            let h = find(&mut parent, h);
                            if h != g {
                                join(&mut groups, &mut parent, g, h);
                                groups[g].done = false;
                                changed = true;
                            }
                        }
                        None => {
                            group_of.insert(u, g);
                            groups[g].members.push(u);
                            groups[g].frontier.push_back(u);
                        }
                    }
                }
                if groups[g].frontier.is_empty() {
                    groups[g].done = true;
                    changed = true;
                }
            }
            if changed {
                racing = racing_groups(&groups, &mut parent);
            }
        }

        // Labels: a group that ran out is a whole island of its own; a group still open holds
        // the rest of its old islands, which merge into the lowest of them (each old island has
        // at most one open group left, so a merge is one step: `merged_into`).
        let old_count = self.island_count;
        let old_firsts = self.island_firsts.take().expect("derived before the patch");
        let mut next_label = old_count;
        let mut merged_into: Vec<u32> = (0..old_count).collect();
        let mut merged = false;
        let mut bounds: Vec<Aabb> = self.island_bounds.clone();
        // Corners of removed triangles and of pieces that split off lying on the bounds of
        // their old island: the bounds stay unless the island has no triangle left there.
        let on_edge =
            |b: &Aabb, p: Point| p.x == b.min.x || p.x == b.max.x || p.y == b.min.y || p.y == b.max.y;
        let mut on_bounds: Vec<(Point, IslandId)> = Vec::new();
        for (&island, corners) in removed_islands.iter().zip(removed_corners) {
            if let Some(old) = self.island_bounds.get(island.index()) {
                on_bounds.extend(corners.iter().filter(|&&p| on_edge(old, p)).map(|&p| (p, island)));
            }
        }
        // The lowest triangle of each label, where known without a scan.
        let mut first: Vec<u32> = vec![u32::MAX; old_count as usize];
        let representatives: Vec<usize> = (0..groups.len()).filter(|&g| find(&mut parent, g) == g).collect();
        for g in representatives {
            let group = std::mem::take(&mut groups[g]);
            let label = if group.done || group.labels.is_empty() {
                let label = IslandId(next_label);
                next_label += 1;
                merged_into.push(label.0);
                first.push(u32::MAX);
                bounds.push(Aabb::EMPTY);
                label
            } else {
                let keep = group.labels[0];
                for &l in &group.labels[1..] {
                    merged_into[l.index()] = keep.0;
                    merged = true;
                    let merged = bounds[l.index()];
                    let b = &mut bounds[keep.index()];
                    *b = b.grown(merged.min).grown(merged.max);
                }
                keep
            };
            w.triangles.extend(group.members.iter().map(|t| t.0));
            let lowest = &mut first[label.index()];
            for &t in &group.members {
                let old = self.parts.islands[t.index()];
                if label.0 >= old_count && !old.is_none() {
                    let old_bounds = &self.island_bounds[old.index()];
                    for p in self.triangle_points(t).into_iter().filter(|&p| on_edge(old_bounds, p)) {
                        on_bounds.push((p, old));
                    }
                }
                self.parts.islands[t.index()] = label;
                *lowest = (*lowest).min(t.0);
                // A kept triangle staying in one of its group's old islands is inside their
                // bounds, merged above.
                if label.0 >= old_count || old.is_none() {
                    let b = &mut bounds[label.index()];
                    for p in self.triangle_points(t) {
                        *b = b.grown(p);
                    }
                }
            }
        }
        let count = self.parts.islands.len();
        let islands = &self.parts.islands;
        let label_of = |t: usize| merged_into[islands[t].index()] as usize;
        // An old island's lowest triangle is still the lowest of its kept part if it is still
        // there, under the label it went to: its other triangles kept their higher ids, or
        // moved (counted below). If it went (or went to a piece that split off), the lowest
        // of the rest is unknown. Lowest triangles in the tail moved with the whole island.
        let mut unknown = vec![false; next_label as usize];
        for (l, &f) in old_firsts.iter().enumerate() {
            let target = merged_into[l] as usize;
            if f.index() >= count {
                continue;
            }
            if label_of(f.index()) == target {
                first[target] = first[target].min(f.0);
            } else {
                unknown[target] = true;
            }
        }
        for &to in moved_to {
            let l = label_of(to.index());
            first[l] = first[l].min(to.0);
        }
        // The lowest triangles not known and the bounds to measure again (of the open islands
        // whose bounds a removed or split-off triangle touched): small islands are walked from
        // a triangle known to be theirs (a label without one is gone); the island array is
        // scanned for the rest.
        let mut measure = vec![false; next_label as usize];
        for (p, l) in on_bounds {
            let target = merged_into[l.index()] as usize;
            // Only points still on the bounds of what their island became can count.
            if measure[target] || !on_edge(&bounds[target], p) {
                continue;
            }
            let held = self.grid.candidates(p).iter().any(|&t| {
                label_of(t.index()) == target
                    && self.parts.triangles[t.index()].iter().any(|v| self.parts.vertices[v.index()] == p)
            });
            if !held {
                measure[target] = true;
                bounds[target] = Aabb::EMPTY;
            }
        }
        let mut budget = count / 32 + 64;
        for l in 0..next_label as usize {
            if first[l] == u32::MAX {
                // No triangle is known to be its own, so none is: the island is gone.
                (unknown[l], measure[l]) = (false, false);
                continue;
            }
            if !(unknown[l] || measure[l]) {
                continue;
            }
            if let Some((lowest, b)) = self.walk_island(TriangleId(first[l]), &mut budget) {
                first[l] = lowest;
                bounds[l] = b;
                unknown[l] = false;
                measure[l] = false;
            }
        }
        if unknown.iter().chain(&measure).any(|&x| x) {
            let mut looking = 0;
            for l in (0..next_label as usize).filter(|&l| unknown[l]) {
                first[l] = u32::MAX;
                looking += 1;
            }
            let measuring = measure.iter().any(|&m| m);
            for t in 0..count {
                if looking == 0 && !measuring {
                    break;
                }
                let l = label_of(t);
                if unknown[l] && first[l] == u32::MAX {
                    first[l] = t as u32;
                    looking -= 1;
                }
                if measure[l] {
                    let b = &mut bounds[l];
                    for v in self.parts.triangles[t] {
                        *b = b.grown(self.parts.vertices[v.index()]);
                    }
                }
            }
        }
        // Number the islands by their lowest triangle; labels without one are gone.
        let mut order: Vec<u32> = (0..next_label).filter(|&l| first[l as usize] != u32::MAX).collect();
        order.sort_unstable_by_key(|&l| first[l as usize]);
        let mut number = vec![IslandId::NONE; next_label as usize];
        for (new, &old) in order.iter().enumerate() {
            number[old as usize] = IslandId(new as u32);
        }
        let renumbered = order.iter().enumerate().any(|(new, &old)| new as u32 != old);
        if merged || renumbered {
            w.all_islands = true;
            // Each label's final number in one step (labels are at most the old count plus
            // the groups, so the map is small), written only where it differs.
            let final_number: Vec<IslandId> = merged_into.iter().map(|&l| number[l as usize]).collect();
            for island in &mut self.parts.islands {
                let to = final_number[island.index()];
                if *island != to {
                    *island = to;
                }
            }
        }
        let firsts: Vec<TriangleId> = order.iter().map(|&l| TriangleId(first[l as usize])).collect();
        self.island_firsts = std::sync::OnceLock::from(firsts);
        self.island_bounds = order.iter().map(|&l| bounds[l as usize]).collect();
        self.island_count = order.len() as u32;
    }
}

/// The lowest triangle of each of `count` islands.
fn lowest_triangles(islands: &[IslandId], count: u32) -> Vec<TriangleId> {
    let mut first = vec![TriangleId::NONE; count as usize];
    for (t, island) in islands.iter().enumerate() {
        let f = &mut first[island.index()];
        if f.is_none() {
            *f = TriangleId::from_index(t);
        }
    }
    first
}

/// A set of triangles known to be connected during [`NavMesh::update_islands`].
#[derive(Default)]
struct Group {
    /// Its triangles so far.
    members: Vec<TriangleId>,
    /// Triangles whose neighbours are not looked at yet.
    frontier: VecDeque<TriangleId>,
    /// The old islands of its kept triangles.
    labels: Vec<IslandId>,
    /// Whether it has no triangle left to look from: it is a whole island.
    done: bool,
}

/// Joins the sets of `a` and `b` (the lower root stays the root).
fn union(parent: &mut [usize], a: usize, b: usize) {
    let (a, b) = (find(parent, a), find(parent, b));
    if a != b {
        parent[a.max(b)] = a.min(b);
    }
}

/// The representative of `g`'s set.
fn find(parent: &mut [usize], mut g: usize) -> usize {
    while parent[g] != g {
        parent[g] = parent[parent[g]];
        g = parent[g];
    }
    g
}

/// Joins group `h` into group `g` (both their own representatives): its triangles, frontier
/// and old islands move to `g`, and `h` points to `g` from now on.
fn join(groups: &mut [Group], parent: &mut [usize], g: usize, h: usize) {
    parent[h] = g;
    let other = std::mem::take(&mut groups[h]);
    let mine = &mut groups[g];
    mine.members.extend(other.members);
    mine.frontier.extend(other.frontier);
    mine.labels.extend(other.labels);
    mine.labels.sort_unstable();
    mine.labels.dedup();
}

/// The groups still racing: those not done whose old island has another group not done.
fn racing_groups(groups: &[Group], parent: &mut [usize]) -> Vec<usize> {
    let mut open_by_label: HashMap<IslandId, Vec<usize>> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        if find(parent, g) == g && !group.done {
            for &l in &group.labels {
                open_by_label.entry(l).or_default().push(g);
            }
        }
    }
    let mut racing: Vec<usize> = open_by_label.into_values().filter(|gs| gs.len() > 1).flatten().collect();
    racing.sort_unstable();
    racing.dedup();
    racing
}

/// Every difference between `mesh`'s derived data and what [`NavMesh::from_parts`] derives from
/// its arrays (and the traversal widths and disc corners, when derived): the check the tests of in-place changes
/// run after every patch. The grid is
/// compared by content (every triangle in exactly the cells its box overlaps, in ascending
/// order), since its cells may be sized for another triangle count.
pub fn check_derived(mesh: &NavMesh) -> Result<(), String> {
    let problems = match mesh.layer_table() {
        Some(table) => crate::layers::layered_problems(&mesh.parts, table, crate::mesh::Proven::default()),
        None => mesh.parts.find_problems(),
    };
    if let Some(problem) = problems.first() {
        return Err(format!("invalid arrays: {problem}"));
    }
    let fresh = NavMesh::derive_layered(mesh.parts.clone(), mesh.layer_table().cloned());
    let mut wrong = Vec::new();
    if fresh.island_count != mesh.island_count {
        wrong.push(format!("island count {} (expected {})", mesh.island_count, fresh.island_count));
    }
    if fresh.bounds != mesh.bounds {
        wrong.push(format!("bounds {:?} (expected {:?})", mesh.bounds, fresh.bounds));
    }
    if fresh.island_bounds != mesh.island_bounds {
        wrong.push(format!("island bounds {:?} (expected {:?})", mesh.island_bounds, fresh.island_bounds));
    }
    if let Some(t) = (0..fresh.search_flags.len()).find(|&t| fresh.search_flags[t] != mesh.search_flags[t]) {
        wrong.push(format!(
            "turning corners of triangle {t}: {} (expected {})",
            mesh.search_flags[t], fresh.search_flags[t]
        ));
    }
    if let Some(t) = (0..fresh.pockets.len()).find(|&t| fresh.pockets[t] != mesh.pockets[t]) {
        wrong
            .push(format!("pocket of triangle {t}: {:?} (expected {:?})", mesh.pockets[t], fresh.pockets[t]));
    }
    let parts = &mesh.parts;
    if let Some(firsts) = mesh.island_firsts.get()
        && *firsts != lowest_triangles(&parts.islands, mesh.island_count)
    {
        wrong.push(format!("lowest triangles of the islands {firsts:?}"));
    }
    if let Some(widths) = mesh.derived_widths() {
        let fresh = crate::clearance::traversal_widths(
            &parts.vertices,
            &parts.triangles,
            &parts.neighbours,
            (fresh.open_vertices(), fresh.overlapping_layers()),
        );
        if widths != fresh.as_slice() {
            wrong.push("traversal widths".to_string());
        }
    }
    if let Some(corners) = mesh.derived_disc_corners() {
        let fresh = crate::query::path::disc_corners(
            &parts.vertices,
            &parts.triangles,
            &parts.neighbours,
            fresh.layers_fold(),
        );
        if *corners != fresh {
            wrong.push("disc corners".to_string());
        }
    }
    if !mesh.grid.lists_match(parts.triangles.len(), |t| {
        Aabb::from_points(parts.triangles[t].map(|v| parts.vertices[v.index()]))
    }) {
        wrong.push("grid lists".to_string());
    }
    if wrong.is_empty() { Ok(()) } else { Err(wrong.join("; ")) }
}

/// Makes room in `v` for `additional` more items, with at most 1/16 of its length to spare: a
/// mesh that grows by small patches keeps its arrays near their size (doubling, `Vec`'s own
/// rule, would leave a changed mesh up to twice as large as a loaded one), reallocating once
/// per 1/16 of growth.
pub(crate) fn reserve_headroom<T>(v: &mut Vec<T>, additional: usize) {
    if v.capacity() - v.len() < additional {
        v.reserve_exact(additional.max(v.len() / 16));
    }
}
