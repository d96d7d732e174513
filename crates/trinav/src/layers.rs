//! Layers: walkable floors that may overlap in x, y (a bridge over a road, two storeys), each
//! triangulated on its own and joined where the level says so by portals: segments on the
//! boundary of two layers, whose vertices the two layers share, so that the triangles on both
//! sides are neighbours across the portal's edges like any two triangles of one floor.
//!
//! A mesh without layers is one layer (named [`DEFAULT_LAYER`]) and stores nothing more: its
//! queries take the code they always took. A layered mesh keeps a layer per triangle; a point
//! is addressed by a layer and a position ([`NavMesh::locate_on`],
//! [`NavMesh::find_path_on`](crate::NavMesh::find_path_on)). Vertices of different layers may
//! coincide in x, y; within one layer every vertex is distinct. A vertex shared by two layers
//! lies on a portal.

use std::collections::HashMap;
use std::f64::consts::TAU;
use std::fmt;

use crate::geometry::{Orientation, Point, angle_at, orient};
use crate::ids::{TriangleId, VertexId};
use crate::mesh::{InvalidMesh, MeshParts, MeshProblem, NavMesh, Proven, find_problems_with, position_key};

/// The name of the one layer of a mesh baked without layers.
pub const DEFAULT_LAYER: &str = "default";

/// The most layers one mesh holds.
pub const MAX_LAYERS: usize = u16::MAX as usize;

/// A layer of a mesh: its index among the mesh's layers ([`NavMesh::layer_name`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LayerId(pub u16);

impl LayerId {
    /// The index, for slices.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for LayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The layers of a layered mesh: their names and the layer of every triangle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerTable {
    /// One name per layer, unique, in [`LayerId`] order.
    pub names: Vec<String>,
    /// The layer of each triangle.
    pub triangles: Vec<LayerId>,
}

/// A problem with a mesh's layer table (see [`NavMesh::from_layered_parts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayerProblem {
    /// No names, or more than [`MAX_LAYERS`].
    Count(usize),
    /// A name is empty, or is given twice.
    BadName(String),
    /// The per-triangle array has another length than the triangle count.
    Length {
        /// Its length.
        found: usize,
        /// The triangle count.
        triangles: usize,
    },
    /// A triangle names a layer that does not exist.
    OutOfRange {
        /// The triangle.
        triangle: TriangleId,
        /// The layer it names.
        layer: LayerId,
    },
    /// Two vertices at one position are used by the same layer (they should have been
    /// welded).
    DuplicateVertex {
        /// The later vertex.
        vertex: VertexId,
        /// The earlier vertex at the same position.
        first: VertexId,
        /// The layer both are used by.
        layer: LayerId,
    },
}

impl fmt::Display for LayerProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayerProblem::Count(n) => write!(f, "{n} layer names (a layered mesh has 1 to {MAX_LAYERS})"),
            LayerProblem::BadName(name) => write!(f, "layer name {name:?} is empty or given twice"),
            LayerProblem::Length { found, triangles } => {
                write!(f, "{found} triangle layers for {triangles} triangles")
            }
            LayerProblem::OutOfRange { triangle, layer } => {
                write!(f, "triangle {triangle} is on layer {layer}, which does not exist")
            }
            LayerProblem::DuplicateVertex { vertex, first, layer } => {
                write!(f, "vertex {vertex} has the same position as vertex {first}, both on layer {layer}")
            }
        }
    }
}

/// Everything wrong with `table` as the layers of `parts`: the names, the array, and the rule
/// that replaces "every vertex is distinct" in a layered mesh: distinct within each layer.
pub(crate) fn layer_problems(parts: &MeshParts, table: &LayerTable) -> Vec<LayerProblem> {
    let mut problems = Vec::new();
    if table.names.is_empty() || table.names.len() > MAX_LAYERS {
        problems.push(LayerProblem::Count(table.names.len()));
        return problems;
    }
    let mut seen = std::collections::HashSet::new();
    for name in &table.names {
        if name.is_empty() || !seen.insert(name.as_str()) {
            problems.push(LayerProblem::BadName(name.clone()));
        }
    }
    if table.triangles.len() != parts.triangles.len() {
        problems
            .push(LayerProblem::Length { found: table.triangles.len(), triangles: parts.triangles.len() });
        return problems;
    }
    for (t, &layer) in table.triangles.iter().enumerate() {
        if layer.index() >= table.names.len() {
            problems.push(LayerProblem::OutOfRange { triangle: TriangleId::from_index(t), layer });
            if problems.len() >= InvalidMesh::MAX_PROBLEMS {
                return problems;
            }
        }
    }
    if !problems.is_empty() {
        return problems;
    }
    // (position, layer) -> the first vertex there; a vertex of one layer is listed once.
    let mut first: HashMap<((u64, u64), LayerId), VertexId> = HashMap::with_capacity(parts.vertices.len());
    for (tri, &layer) in parts.triangles.iter().zip(&table.triangles) {
        for &v in tri {
            let Some(&p) = parts.vertices.get(v.index()) else { continue };
            let earlier = *first.entry((position_key(p), layer)).or_insert(v);
            if earlier != v {
                let (vertex, first) = (v.max(earlier), v.min(earlier));
                let problem = LayerProblem::DuplicateVertex { vertex, first, layer };
                if !problems.contains(&problem) {
                    problems.push(problem);
                    if problems.len() >= InvalidMesh::MAX_PROBLEMS {
                        return problems;
                    }
                }
            }
        }
    }
    problems
}

/// Validates a layered mesh: every rule of [`MeshParts::find_problems`] except that vertices
/// need only be distinct within each layer, plus the layer table's own rules. `proven`: what a
/// file's derived arrays proved already.
pub(crate) fn layered_problems(parts: &MeshParts, table: &LayerTable, proven: Proven) -> Vec<MeshProblem> {
    let mut problems: Vec<MeshProblem> =
        layer_problems(parts, table).into_iter().map(MeshProblem::Layer).collect();
    if !problems.is_empty() {
        return problems;
    }
    problems.extend(find_problems_with(parts, Proven { distinct_vertices: true, ..proven }));
    problems
}

/// Whether triangles whose angles round one vertex add up to `turn` fold the floor over
/// itself there: more than a full turn (a fold adds at least the angle of a corner; rounding
/// adds a few ulps per triangle).
pub(crate) fn folds(turn: f64) -> bool {
    turn > TAU * (1.0 + 1e-9)
}

impl NavMesh {
    /// Validates `parts` with the layers `table` names (see [`MeshParts::find_problems`]:
    /// vertices need only be distinct within each layer) and derives the rest, as
    /// [`NavMesh::from_parts`] does. Triangles of different layers are neighbours across the
    /// edges they share: the portals.
    pub fn from_layered_parts(parts: MeshParts, table: LayerTable) -> Result<NavMesh, InvalidMesh> {
        let problems = layered_problems(&parts, &table, Proven::default());
        if !problems.is_empty() {
            return Err(InvalidMesh { problems });
        }
        Ok(Self::derive_layered(parts, Some(table)))
    }

    /// Derives a mesh from validated parts and layers (`None`: one layer).
    pub(crate) fn derive_layered(parts: MeshParts, table: Option<LayerTable>) -> NavMesh {
        let mesh = NavMesh::derive(parts);
        match table {
            Some(table) => mesh.with_layers(table),
            None => mesh,
        }
    }

    /// This mesh of one layer, derived from validated parts, with its triangles' layers:
    /// portal ends flagged turning, overlap and folds found.
    pub(crate) fn with_layers(mut self, table: LayerTable) -> NavMesh {
        let shared = vertices_of_two_layers(&self.parts, &table);
        self.layers = Some(Box::new(table));
        self.flag_portal_corners(&shared);
        self.layers_overlap = self.find_layer_overlap();
        let turn = if self.layers_overlap { self.largest_turn(&shared) } else { 0.0 };
        self.layers_fold = folds(turn);
        self.layers_fold_deep = turn >= 1.5 * TAU * (1.0 - 1e-9);
        self
    }

    /// Whether the insides of two triangles of different layers overlap in x, y. Exact: two
    /// triangles' insides are apart when the other's corners all lie on or right of the line
    /// of some edge of one (counter-clockwise triangles; a line along an edge separates
    /// convex shapes whenever any line does).
    fn find_layer_overlap(&self) -> bool {
        let Some(table) = &self.layers else { return false };
        let apart = |t: [Point; 3], s: [Point; 3]| {
            (0..3)
                .any(|k| s.iter().all(|&p| orient(t[k], t[(k + 1) % 3], p) != Orientation::CounterClockwise))
        };
        (0..self.triangle_count()).any(|t| {
            let t = TriangleId::from_index(t);
            let corners = self.triangle_points(t);
            self.triangles_overlapping(crate::geometry::Aabb::from_points(corners)).any(|s| {
                let other = self.triangle_points(s);
                table.triangles[s.index()] != table.triangles[t.index()]
                    && !apart(corners, other)
                    && !apart(other, corners)
            })
        })
    }

    /// Whether edge `edge` of `t` has an end on no wall (inside a portal, or where area types
    /// meet inside the walkable ground).
    /// Out of line: the fast search's start loop asks it only for a disc at an edge narrower
    /// than its diameter, and inlined there it made the plain search 4-5% slower (the same
    /// instructions: the search's code laid out otherwise; peer bench, session 9).
    #[cold]
    #[inline(never)]
    pub(crate) fn has_open_end(&self, t: TriangleId, edge: usize) -> bool {
        self.open_vertices().is_some_and(|open| {
            let tri = self.parts.triangles[t.index()];
            open[tri[edge].index()] || open[tri[(edge + 1) % 3].index()]
        })
    }

    /// The largest angle the triangles round a vertex used by two layers sweep (their
    /// corners' angles added up; `shared`: per vertex, whether two layers use it). Beyond a
    /// full turn, the floor folds over itself at a portal's end, as a ramp leaving the ground
    /// and turning back over its own foot does.
    fn largest_turn(&self, shared: &[bool]) -> f64 {
        let parts = &self.parts;
        let mut turn = vec![0.0f64; parts.vertices.len()];
        for tri in &parts.triangles {
            let corners = tri.map(|v| parts.vertices[v.index()]);
            for (k, &v) in tri.iter().enumerate() {
                turn[v.index()] += angle_at(corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
            }
        }
        shared.iter().zip(&turn).filter(|(shared, _)| **shared).map(|(_, &turn)| turn).fold(0.0, f64::max)
    }

    /// Whether triangles of two layers overlap in x, y (a bridge over a road): where they do
    /// not, the layers form one floor and a disc's clearance is measured as on one.
    pub fn layers_overlap(&self) -> bool {
        self.layers_overlap
    }

    /// Whether the floor turns more than a full turn round a portal's end somewhere (a ramp
    /// that leaves the ground and turns back over its own foot). An agent radius is taken
    /// there (a path round such a corner may turn more than a half turn), unless the floor
    /// turns one and a half turns or more ([`Self::layers_fold_deep`]).
    pub fn layers_fold(&self) -> bool {
        self.layers_fold
    }

    /// Whether the floor turns one and a half turns or more round a portal's end somewhere (a
    /// ramp that winds round it again): an agent radius is refused on such a mesh
    /// ([`crate::PathError::NotWithLayers`]; a contact on a circle round that end would not be
    /// told by its direction alone).
    pub fn layers_fold_deep(&self) -> bool {
        self.layers_fold_deep
    }

    /// The layer of each triangle where layers overlap (`None` elsewhere).
    pub(crate) fn overlapping_layers(&self) -> Option<&[LayerId]> {
        self.layers.as_ref().filter(|_| self.layers_overlap).map(|table| &table.triangles[..])
    }

    /// Every corner of a vertex shared by two layers that lies on a wall turns: such a vertex
    /// is a portal's end, and its fan, joined across layers, may sweep more than a full turn,
    /// which the one-floor test for a reflex corner cannot see. A corner flagged turning that
    /// does not need to is only a few more nodes for the optimal search, never a wrong answer
    /// (`shared`: per vertex, whether two layers use it).
    fn flag_portal_corners(&mut self, shared: &[bool]) {
        let parts = &self.parts;
        let mut on_wall = vec![false; parts.vertices.len()];
        for (t, tri) in parts.triangles.iter().enumerate() {
            for (k, &v) in tri.iter().enumerate() {
                if parts.neighbours[t][k].is_none() {
                    on_wall[v.index()] = true;
                    on_wall[tri[(k + 1) % 3].index()] = true;
                }
            }
        }
        for (t, tri) in parts.triangles.iter().enumerate() {
            for (k, &v) in tri.iter().enumerate() {
                if shared[v.index()] && on_wall[v.index()] {
                    self.search_flags[t] |= 1 << k;
                }
            }
        }
    }

    /// Whether the vertex whose (triangle, corner) pairs are `incident` is one that
    /// [`NavMesh::flag_portal_corners`] makes turn: used by two layers, and on a wall.
    pub(crate) fn is_portal_corner(&self, incident: &[(TriangleId, u8)]) -> bool {
        let Some(&(first, _)) = incident.first() else { return false };
        let layer = self.triangle_layer(first);
        let shared = incident.iter().any(|&(t, _)| self.triangle_layer(t) != layer);
        shared
            && incident.iter().any(|&(t, k)| {
                let links = self.parts.neighbours[t.index()];
                links[k as usize].is_none() || links[(k as usize + 2) % 3].is_none()
            })
    }

    /// Whether this mesh has more than one layer (more precisely: was built with a layer table).
    #[inline]
    pub fn is_layered(&self) -> bool {
        self.layers.is_some()
    }

    /// The layer table of a layered mesh.
    pub fn layer_table(&self) -> Option<&LayerTable> {
        self.layers.as_deref()
    }

    /// Number of layers (1 for a mesh without layers).
    pub fn layer_count(&self) -> usize {
        self.layers.as_ref().map_or(1, |l| l.names.len())
    }

    /// The name of `layer` ([`DEFAULT_LAYER`] on a mesh without layers), `None` when it does
    /// not exist.
    pub fn layer_name(&self, layer: LayerId) -> Option<&str> {
        match &self.layers {
            Some(table) => table.names.get(layer.index()).map(String::as_str),
            None => (layer.0 == 0).then_some(DEFAULT_LAYER),
        }
    }

    /// The layer named `name`.
    ///
    /// ```
    /// # use trinav::{LayerId, NavMesh};
    /// # fn demo(mesh: &NavMesh) {
    /// if !mesh.is_layered() {
    ///     assert_eq!(mesh.layer_by_name("default"), Some(LayerId(0)));
    /// }
    /// # }
    /// ```
    pub fn layer_by_name(&self, name: &str) -> Option<LayerId> {
        match &self.layers {
            Some(table) => table.names.iter().position(|n| n == name).map(|i| LayerId(i as u16)),
            None => (name == DEFAULT_LAYER).then_some(LayerId(0)),
        }
    }

    /// The layer of triangle `t`.
    #[inline]
    pub fn triangle_layer(&self, t: TriangleId) -> LayerId {
        self.layers.as_ref().map_or(LayerId(0), |l| l.triangles[t.index()])
    }

    /// The triangle of layer `layer` containing `p` (boundary included; lowest id first), or
    /// `None` when `p` is off that layer.
    pub fn locate_on(&self, layer: LayerId, p: Point) -> Option<TriangleId> {
        self.locate_all(p).find(|&t| self.triangle_layer(t) == layer)
    }

    /// The point of layer `layer` closest to `p`, with its triangle (as
    /// [`NavMesh::nearest_point`], over that layer's triangles only).
    pub fn nearest_point_on(&self, layer: LayerId, p: Point) -> Option<(Point, TriangleId)> {
        self.nearest_point_where(p, |t| self.triangle_layer(t) == layer, self.bounds())
    }

    /// The layers holding `p`, ascending, each once (a mesh without layers: layer 0 or none).
    pub fn layers_at(&self, p: Point) -> Vec<LayerId> {
        let mut layers: Vec<LayerId> = self.locate_all(p).map(|t| self.triangle_layer(t)).collect();
        layers.sort_unstable();
        layers.dedup();
        layers
    }

    /// Number of portal edges: edges whose two triangles are on different layers.
    pub fn portal_edge_count(&self) -> usize {
        let Some(table) = &self.layers else { return 0 };
        let mut count = 0;
        for (t, links) in self.parts.neighbours.iter().enumerate() {
            for &n in links {
                if !n.is_none() && n.index() > t && table.triangles[n.index()] != table.triangles[t] {
                    count += 1;
                }
            }
        }
        count
    }
}

/// Per vertex, whether triangles of two layers use it (a portal's vertex).
fn vertices_of_two_layers(parts: &MeshParts, table: &LayerTable) -> Vec<bool> {
    let mut layer_of = vec![u32::MAX; parts.vertices.len()];
    let mut shared = vec![false; parts.vertices.len()];
    for (tri, &layer) in parts.triangles.iter().zip(&table.triangles) {
        for &v in tri {
            let slot = &mut layer_of[v.index()];
            if *slot == u32::MAX {
                *slot = u32::from(layer.0);
            } else if *slot != u32::from(layer.0) {
                shared[v.index()] = true;
            }
        }
    }
    shared
}
