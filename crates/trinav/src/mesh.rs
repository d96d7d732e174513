//! The navigation mesh: flat arrays of vertices and counter-clockwise triangles, with edge
//! adjacency, islands, area ids and a point-location grid.

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;

use crate::geometry::{Aabb, Point};
use crate::geometry::{Orientation, doubled_signed_area, orient, smallest_min_angle_deg};
use crate::ids::{AreaId, HalfEdge, IslandId, TriangleId, VertexId};
use crate::query::path::search_flags;
use crate::settings::{BakeSettings, SettingsError};
use crate::spatial_index::SpatialGrid;
use crate::topology::{Pocket, TopologyError, build_adjacency, find_pockets};

/// The stored arrays of a mesh, as the baker produces them and the file format holds them,
/// before validation. [`NavMesh::from_parts`] checks them ([`MeshParts::find_problems`]) and
/// derives the rest.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshParts {
    /// The settings the mesh was baked with.
    pub settings: BakeSettings,
    /// Vertex positions; every vertex is distinct (welded exactly).
    pub vertices: Vec<Point>,
    /// Triangles as three vertex ids, counter-clockwise.
    pub triangles: Vec<[VertexId; 3]>,
    /// Neighbour across edge `i` (vertex `i` to vertex `i+1`) of each triangle, or
    /// [`TriangleId::NONE`] on the boundary.
    pub neighbours: Vec<[TriangleId; 3]>,
    /// Area type of each triangle.
    pub areas: Vec<AreaId>,
    /// Island of each triangle, numbered as [`find_islands`](crate::build::find_islands) numbers them.
    pub islands: Vec<IslandId>,
}

impl MeshParts {
    /// The name and length of each array that holds one entry per triangle (besides the
    /// triangles themselves).
    pub(crate) fn per_triangle_lengths(&self) -> [(&'static str, usize); 3] {
        [("neighbours", self.neighbours.len()), ("areas", self.areas.len()), ("islands", self.islands.len())]
    }

    /// The sum of the triangles' signed areas, in triangle order ([`NavMesh::area`] of a mesh
    /// of these parts). Panics on a corner id out of range.
    pub fn area(&self) -> f64 {
        (self.triangles.iter())
            .map(|tri| {
                let [a, b, c] = tri.map(|v| self.vertices[v.index()]);
                doubled_signed_area(a, b, c) * 0.5
            })
            .sum()
    }
}

/// One thing wrong with a mesh's arrays.
#[derive(Clone, Debug, PartialEq)]
pub enum MeshProblem {
    /// The stored bake settings are outside their documented ranges.
    BadSettings(SettingsError),
    /// More triangles than a mesh may have (the path searches name each triangle edge by a
    /// `u32`).
    TooManyTriangles(usize),
    /// An array has the wrong length.
    LengthMismatch {
        /// Which array.
        array: &'static str,
        /// Its expected length (the triangle count).
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A vertex coordinate is NaN, infinite, or beyond ±[`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
    NonFiniteVertex(VertexId),
    /// Two vertices have the same position (they should have been welded).
    DuplicateVertex {
        /// The later vertex.
        vertex: VertexId,
        /// The earlier vertex at the same position.
        first: VertexId,
    },
    /// A vertex is used by no triangle.
    UnusedVertex(VertexId),
    /// A triangle names a vertex that does not exist.
    VertexOutOfRange {
        /// The triangle.
        triangle: TriangleId,
        /// The vertex id it names.
        vertex: VertexId,
    },
    /// A triangle is clockwise or has zero area.
    NotCounterClockwise {
        /// The triangle.
        triangle: TriangleId,
        /// Twice its signed area (<= 0).
        doubled_area: f64,
    },
    /// A triangle names a neighbour that does not exist.
    NeighbourOutOfRange {
        /// The triangle.
        triangle: TriangleId,
        /// The edge (0..3).
        edge: u8,
        /// The neighbour id it names.
        neighbour: TriangleId,
    },
    /// A neighbour link is not returned across the same edge.
    AsymmetricAdjacency {
        /// The triangle.
        triangle: TriangleId,
        /// The edge (0..3).
        edge: u8,
        /// The neighbour it names, which does not name it back across that edge.
        neighbour: TriangleId,
    },
    /// The triangles do not form a surface: an edge is used twice in the same direction (a
    /// non-manifold or flipped neighbour).
    NotASurface(TopologyError),
    /// The stored neighbours of a triangle differ from the ones its shared edges imply (a
    /// shared edge marked as boundary).
    AdjacencyMismatch {
        /// The triangle.
        triangle: TriangleId,
        /// Its stored neighbours.
        stored: [TriangleId; 3],
        /// The triangles across its edges.
        implied: [TriangleId; 3],
    },
    /// A triangle's area type is beyond [`AreaId::MAX`].
    AreaOutOfRange {
        /// The triangle.
        triangle: TriangleId,
        /// Its area type.
        area: AreaId,
    },
    /// A triangle's stored island differs from its connected component.
    IslandMismatch {
        /// The triangle.
        triangle: TriangleId,
        /// The stored island.
        stored: IslandId,
        /// The island it belongs to.
        expected: IslandId,
    },
    /// A layered mesh's layer table breaks a rule (see [`NavMesh::from_layered_parts`]).
    Layer(crate::layers::LayerProblem),
}

impl fmt::Display for MeshProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeshProblem::BadSettings(why) => write!(f, "bake settings: {why}"),
            MeshProblem::TooManyTriangles(n) => {
                write!(f, "{n} triangles, more than the {} a mesh may have", HalfEdge::MAX_TRIANGLES)
            }
            MeshProblem::LengthMismatch { array, expected, found } => {
                write!(f, "{array} has {found} entries, expected {expected} (one per triangle)")
            }
            MeshProblem::NonFiniteVertex(v) => {
                write!(
                    f,
                    "vertex {v} has a NaN, infinite or out-of-range coordinate (beyond ±2^40, or non-zero below 2^-142)"
                )
            }
            MeshProblem::DuplicateVertex { vertex, first } => {
                write!(f, "vertex {vertex} has the same position as vertex {first}")
            }
            MeshProblem::UnusedVertex(v) => write!(f, "vertex {v} is used by no triangle"),
            MeshProblem::VertexOutOfRange { triangle, vertex } => {
                write!(f, "triangle {triangle} names vertex {vertex}, which does not exist")
            }
            MeshProblem::NotCounterClockwise { triangle, doubled_area } => {
                write!(f, "triangle {triangle} is not counter-clockwise (signed area {})", doubled_area / 2.0)
            }
            MeshProblem::NeighbourOutOfRange { triangle, edge, neighbour } => {
                write!(f, "triangle {triangle} edge {edge} names neighbour {neighbour}, which does not exist")
            }
            MeshProblem::AsymmetricAdjacency { triangle, edge, neighbour } => write!(
                f,
                "triangle {triangle} edge {edge} names neighbour {neighbour}, which does not name it back across that edge"
            ),
            MeshProblem::NotASurface(e) => write!(f, "{e}"),
            MeshProblem::AdjacencyMismatch { triangle, stored, implied } => write!(
                f,
                "triangle {triangle}: stored neighbours {} differ from the shared edges {}",
                neighbour_list(stored),
                neighbour_list(implied)
            ),
            MeshProblem::AreaOutOfRange { triangle, area } => {
                write!(
                    f,
                    "triangle {triangle} has area type {}, beyond the largest, {}",
                    area.0,
                    AreaId::MAX.0
                )
            }
            MeshProblem::IslandMismatch { triangle, stored, expected } => {
                write!(f, "triangle {triangle} is stored in island {stored} but belongs to island {expected}")
            }
            MeshProblem::Layer(problem) => write!(f, "{problem}"),
        }
    }
}

/// A mesh that failed validation, with every problem found (at most
/// [`InvalidMesh::MAX_PROBLEMS`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}", describe_problems(.problems))]
pub struct InvalidMesh {
    /// The problems, in the order they were found.
    pub problems: Vec<MeshProblem>,
}

impl InvalidMesh {
    /// The most problems one validation reports.
    pub const MAX_PROBLEMS: usize = 100;
}

/// `[3, none, 7]`.
fn neighbour_list(neighbours: &[TriangleId; 3]) -> String {
    let names = neighbours.map(|n| if n.is_none() { "none".to_string() } else { n.to_string() });
    format!("[{}]", names.join(", "))
}

fn describe_problems(problems: &[MeshProblem]) -> String {
    match problems {
        [] => "invalid mesh".to_string(),
        [one] => format!("invalid mesh: {one}"),
        [first, rest @ ..] => format!("invalid mesh: {first} (and {} more problems)", rest.len()),
    }
}

impl MeshParts {
    /// Everything wrong with these arrays; an empty list means a valid mesh.
    ///
    /// Checks: bake settings in range, array lengths, finite and distinct vertices, every
    /// vertex used, vertex and neighbour ids in range, every triangle strictly
    /// counter-clockwise (exact predicate), adjacency symmetric and equal to the adjacency the
    /// triangles imply, islands equal to the connected components. Stops after
    /// [`InvalidMesh::MAX_PROBLEMS`] problems.
    pub fn find_problems(&self) -> Vec<MeshProblem> {
        find_problems_with(self, Proven::default())
    }
}

/// Rules a baked file proves with the derived data it stores, verified by the loader before
/// validation (see [the format module](crate::format)), so that validation need not check
/// them again the slow way.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Proven {
    /// No two vertices have the same position.
    pub(crate) distinct_vertices: bool,
    /// No two edge classes (an interior edge seen from both sides, or a boundary edge) join the
    /// same two vertices. With symmetric links, this makes the stored adjacency equal to the
    /// one the triangles imply.
    pub(crate) manifold_edges: bool,
}

/// [`MeshParts::find_problems`], skipping the checks of the rules in `proven`.
pub(crate) fn find_problems_with(parts: &MeshParts, proven: Proven) -> Vec<MeshProblem> {
    let mut problems = Vec::new();
    if let Err(why) = parts.settings.check() {
        problems.push(MeshProblem::BadSettings(why));
    }
    let t_count = parts.triangles.len();
    if t_count > HalfEdge::MAX_TRIANGLES {
        problems.push(MeshProblem::TooManyTriangles(t_count));
        return problems;
    }
    for (array, len) in parts.per_triangle_lengths() {
        if len != t_count {
            problems.push(MeshProblem::LengthMismatch { array, expected: t_count, found: len });
        }
    }
    if !problems.is_empty() {
        return problems;
    }
    let full = |p: &Vec<MeshProblem>| p.len() >= InvalidMesh::MAX_PROBLEMS;
    if parts.areas.iter().any(|&a| a > AreaId::MAX) {
        for (t, &area) in parts.areas.iter().enumerate() {
            if area > AreaId::MAX {
                problems.push(MeshProblem::AreaOutOfRange { triangle: TriangleId::from_index(t), area });
                if full(&problems) {
                    return problems;
                }
            }
        }
    }

    let in_range = parts.vertices.iter().all(|p| p.in_range());
    if !(in_range && (proven.distinct_vertices || all_distinct(&parts.vertices))) {
        // Name every bad vertex in order; only a mesh with a problem takes this slower path.
        let mut seen: HashMap<(u64, u64), VertexId> = HashMap::with_capacity(parts.vertices.len());
        for (i, p) in parts.vertices.iter().enumerate() {
            let v = VertexId::from_index(i);
            if !p.in_range() {
                problems.push(MeshProblem::NonFiniteVertex(v));
            } else if let Some(&first) = seen.get(&position_key(*p)) {
                problems.push(MeshProblem::DuplicateVertex { vertex: v, first });
            } else {
                seen.insert(position_key(*p), v);
            }
            if full(&problems) {
                return problems;
            }
        }
    }

    let mut used = vec![false; parts.vertices.len()];
    let mut indices_ok = true;
    for (t, tri) in parts.triangles.iter().enumerate() {
        let triangle = TriangleId::from_index(t);
        for &vertex in tri {
            match used.get_mut(vertex.index()) {
                Some(u) => *u = true,
                None => {
                    indices_ok = false;
                    problems.push(MeshProblem::VertexOutOfRange { triangle, vertex });
                }
            }
        }
        if full(&problems) {
            return problems;
        }
    }
    if !indices_ok {
        return problems;
    }
    if let Some(v) = used.iter().position(|u| !u) {
        problems.push(MeshProblem::UnusedVertex(VertexId::from_index(v)));
    }
    if !problems.is_empty() {
        // Non-finite or unused vertices make the geometric checks below meaningless.
        return problems;
    }

    for (t, tri) in parts.triangles.iter().enumerate() {
        let [a, b, c] = tri.map(|v| parts.vertices[v.index()]);
        if orient(a, b, c) != Orientation::CounterClockwise {
            problems.push(MeshProblem::NotCounterClockwise {
                triangle: TriangleId::from_index(t),
                doubled_area: doubled_signed_area(a, b, c),
            });
            if full(&problems) {
                return problems;
            }
        }
    }

    let mut links_ok = true;
    for (t, links) in parts.neighbours.iter().enumerate() {
        let triangle = TriangleId::from_index(t);
        for (edge, &neighbour) in links.iter().enumerate() {
            if neighbour.is_none() {
                continue;
            }
            let edge = edge as u8;
            let Some(back) = parts.neighbours.get(neighbour.index()) else {
                links_ok = false;
                problems.push(MeshProblem::NeighbourOutOfRange { triangle, edge, neighbour });
                continue;
            };
            let tri = parts.triangles[t];
            let (from, to) = (tri[edge as usize], tri[(edge as usize + 1) % 3]);
            let other = parts.triangles[neighbour.index()];
            let returns = (0..3).any(|j| back[j] == triangle && other[j] == to && other[(j + 1) % 3] == from);
            if !returns {
                links_ok = false;
                problems.push(MeshProblem::AsymmetricAdjacency { triangle, edge, neighbour });
            }
            if full(&problems) {
                return problems;
            }
        }
    }
    if !links_ok {
        return problems;
    }
    if proven.manifold_edges {
        return check_islands(parts, problems);
    }

    match build_adjacency(&parts.triangles, parts.vertices.len()) {
        Err(e) => {
            problems.push(MeshProblem::NotASurface(e));
            return problems;
        }
        Ok(implied) => {
            for (t, (stored, implied)) in parts.neighbours.iter().zip(&implied).enumerate() {
                if stored != implied {
                    problems.push(MeshProblem::AdjacencyMismatch {
                        triangle: TriangleId::from_index(t),
                        stored: *stored,
                        implied: *implied,
                    });
                    if full(&problems) {
                        return problems;
                    }
                }
            }
        }
    }
    check_islands(parts, problems)
}

/// Whether `parts` is valid, for a file whose derived arrays proved distinct vertices and
/// manifold edges: the rules of [`find_problems_with`] in a few branch-free passes that name
/// nothing. It accepts exactly the meshes that the slow checks find no problem in (the load
/// falls back to them to name the problems when it says no). The islands are checked without a
/// second island array: the stored island is the same across every link, the island numbers
/// first appear in ascending order, and there are as many connected components as numbers
/// (counted in one pass when every triangle but the first of its island links to a lower one,
/// as the bake numbers them; by union-find otherwise).
pub(crate) fn quick_check(parts: &MeshParts) -> bool {
    let (v_count, t_count) = (parts.vertices.len(), parts.triangles.len());
    if parts.settings.check().is_err()
        || t_count > HalfEdge::MAX_TRIANGLES
        || parts.per_triangle_lengths().iter().any(|&(_, len)| len != t_count)
    {
        return false;
    }
    let mut ok = parts.areas.iter().fold(true, |ok, &a| ok & (a <= AreaId::MAX));
    ok &= parts.vertices.iter().fold(true, |ok, p| ok & p.in_range());
    if !ok {
        return false;
    }
    // Indices in range, every vertex used, every triangle counter-clockwise.
    let mut used = vec![0u64; v_count.div_ceil(64)];
    for tri in &parts.triangles {
        let [a, b, c] = tri.map(VertexId::index);
        if !((a < v_count) & (b < v_count) & (c < v_count)) {
            return false;
        }
        for v in [a, b, c] {
            used[v / 64] |= 1 << (v % 64);
        }
        let [pa, pb, pc] = [a, b, c].map(|v| parts.vertices[v]);
        ok &= orient(pa, pb, pc) == Orientation::CounterClockwise;
    }
    let (full, rest) = (v_count / 64, v_count % 64);
    ok &= used[..full].iter().all(|&w| w == u64::MAX);
    ok &= rest == 0 || used[full] == (1u64 << rest) - 1;
    if !ok {
        return false;
    }
    // Every link returned across the same edge, and the same island on both sides.
    let (triangles, neighbours, islands) = (&parts.triangles, &parts.neighbours, &parts.islands);
    for (t, ((tri, links), island)) in triangles.iter().zip(neighbours).zip(islands).enumerate() {
        let me = TriangleId::from_index(t);
        for e in 0..3 {
            let n = links[e];
            let in_range = n.index() < t_count;
            let other_index = if in_range { n.index() } else { 0 };
            let (back, other) = (neighbours[other_index], triangles[other_index]);
            let (from, to) = (tri[e], tri[(e + 1) % 3]);
            let returns = (0..3)
                .fold(false, |r, j| r | ((back[j] == me) & (other[j] == to) & (other[(j + 1) % 3] == from)));
            ok &= n.is_none() | (in_range & returns & (islands[other_index] == *island));
        }
    }
    // Island numbers in order of first appearance, and whether every triangle but the first
    // of its number links to a lower triangle...
    let mut numbers = 0u32;
    let mut joined_below = true;
    for (t, (island, links)) in islands.iter().zip(neighbours).enumerate() {
        ok &= island.0 <= numbers;
        let first = island.0 == numbers;
        numbers += u32::from(first);
        // Boundary links are `u32::MAX`, never lower.
        let lower = links.iter().fold(false, |lower, n| lower | (n.0 < t as u32));
        joined_below &= first | lower;
    }
    // ... and one connected component per number. When every triangle but the first of its
    // number links to a lower one (a bake numbers them so), each reaches the first of its
    // number through lower and lower triangles, and links never cross numbers: one component
    // each. Otherwise, union-find counts the components.
    ok && (joined_below || component_count(neighbours) == numbers as usize)
}

/// The number of connected components of the adjacency (`neighbours` in range and symmetric).
///
/// Union-find by Rem's algorithm: every parent is at most its child, and joining `x` and `y`
/// walks up from whichever of the two has the higher parent, pointing each node passed at the
/// other's parent on the way (splicing), until the two paths meet (already joined) or a root is
/// reached and linked under the other's parent. One loop, no separate finds (Patwary, Blair
/// and Manne 2010 found it the fastest in practice); on Aurora's 52,000 links 0.42 ms against
/// 0.45 for path halving with separate finds.
fn component_count(neighbours: &[[TriangleId; 3]]) -> usize {
    let mut parent: Vec<u32> = (0..neighbours.len() as u32).collect();
    let mut components = neighbours.len();
    for (t, links) in neighbours.iter().enumerate() {
        for n in links {
            // Each link once, from its higher end (boundary links are `u32::MAX`, never lower).
            if n.0 < t as u32 {
                let (mut x, mut y) = (t, n.index());
                while parent[x] != parent[y] {
                    if parent[x] < parent[y] {
                        std::mem::swap(&mut x, &mut y);
                    }
                    // Now parent[x] > parent[y].
                    if parent[x] as usize == x {
                        parent[x] = parent[y];
                        components -= 1;
                        break;
                    }
                    let up = parent[x] as usize;
                    parent[x] = parent[y];
                    x = up;
                }
            }
        }
    }
    components
}

/// The islands check, last of [`validate`]'s: appends to `problems` unless it holds some.
/// Walks each connected component from its lowest triangle, as [`find_islands`](crate::find_islands) numbers them,
/// comparing every stored island with the component's number on the way: one bit per triangle
/// of extra memory, no second island array.
fn check_islands(parts: &MeshParts, mut problems: Vec<MeshProblem>) -> Vec<MeshProblem> {
    if !problems.is_empty() {
        return problems;
    }
    let full = |p: &Vec<MeshProblem>| p.len() >= InvalidMesh::MAX_PROBLEMS;
    let neighbours = &parts.neighbours;
    let mut reached = vec![0u64; neighbours.len().div_ceil(64)];
    let mut reach = |t: usize| {
        let (word, bit) = (t / 64, 1u64 << (t % 64));
        let fresh = reached[word] & bit == 0;
        reached[word] |= bit;
        fresh
    };
    let mut stack = Vec::new();
    let mut count = 0u32;
    // Problems are reported in triangle order, as a comparison of whole arrays would.
    let mut wrong: Vec<(usize, IslandId)> = Vec::new();
    for seed in 0..neighbours.len() {
        if !reach(seed) {
            continue;
        }
        let island = IslandId(count);
        count += 1;
        stack.push(seed);
        while let Some(t) = stack.pop() {
            if parts.islands[t] != island {
                wrong.push((t, island));
            }
            for n in neighbours[t] {
                if !n.is_none() && n.index() < neighbours.len() && reach(n.index()) {
                    stack.push(n.index());
                }
            }
        }
    }
    wrong.sort_unstable_by_key(|&(t, _)| t);
    for (t, expected) in wrong {
        problems.push(MeshProblem::IslandMismatch {
            triangle: TriangleId::from_index(t),
            stored: parts.islands[t],
            expected,
        });
        if full(&problems) {
            break;
        }
    }
    problems
}

/// Whether no two of `vertices` have the same position (as [`position_key`] compares them).
/// Sorts the keys: `O(V log V)` in the worst case whatever the input, with no hashing a
/// hostile file could aim at.
fn all_distinct(vertices: &[Point]) -> bool {
    let mut keys: Vec<u128> = vertices
        .iter()
        .map(|&p| {
            let (x, y) = position_key(p);
            (u128::from(x) << 64) | u128::from(y)
        })
        .collect();
    keys.sort_unstable();
    keys.windows(2).all(|w| w[0] != w[1])
}

/// The derived data that copes with arrays not yet checked: the bounds and the grid (from the
/// vertices and triangles) and the pockets (from the links). The load builds it beside the
/// structure checks, on another thread, and drops it when they fail.
pub(crate) struct GridAndPockets {
    bounds: Aabb,
    grid: SpatialGrid,
    pockets: Vec<Pocket>,
}

impl GridAndPockets {
    /// The bounds, the point-location grid and the pockets of `parts` (any parts: nothing here
    /// panics or runs on without end on a mesh that breaks the rules).
    pub(crate) fn derive(parts: &MeshParts) -> GridAndPockets {
        let (bounds, grid) = SpatialGrid::build_for(&parts.vertices, &parts.triangles);
        GridAndPockets { bounds, grid, pockets: find_pockets(&parts.neighbours) }
    }
}

/// The derived data that walks the links, so needs them checked: the turning corners and the
/// islands' count and boxes.
pub(crate) struct CornersAndIslands {
    search_flags: Vec<u8>,
    island_count: u32,
    island_bounds: Vec<Aabb>,
}

impl CornersAndIslands {
    /// The turning corners and the islands of `parts`, whose links are in range and symmetric
    /// (vertex positions may coincide: the answer is then dropped).
    pub(crate) fn derive(parts: &MeshParts) -> CornersAndIslands {
        let island_count = parts.islands.iter().map(|i| i.0 + 1).max().unwrap_or(0);
        CornersAndIslands {
            search_flags: search_flags(&parts.vertices, &parts.triangles, &parts.neighbours),
            island_count,
            island_bounds: island_bounds(parts, island_count),
        }
    }
}

/// The box of each island's triangles. Islands mostly come in runs of triangles, so the box
/// of the current run is grown in registers and stored when the island changes.
fn island_bounds(parts: &MeshParts, island_count: u32) -> Vec<Aabb> {
    let mut boxes = vec![Aabb::EMPTY; island_count as usize];
    let Some(first) = parts.islands.first() else { return boxes };
    let (mut current, mut run) = (first.index(), Aabb::EMPTY);
    for (tri, island) in parts.triangles.iter().zip(&parts.islands) {
        if island.index() != current {
            boxes[current] = boxes[current].union(run);
            (current, run) = (island.index(), Aabb::EMPTY);
        }
        let [a, b, c] = tri.map(|v| parts.vertices[v.index()]);
        run = run.union(Aabb::from_points([a, b, c]));
    }
    boxes[current] = boxes[current].union(run);
    boxes
}

/// Exact position key for welding: the bit patterns of both coordinates, with `-0.0` read as
/// `0.0` so that the two zeros weld.
#[inline]
pub fn position_key(p: Point) -> (u64, u64) {
    let bits = |v: f64| if v == 0.0 { 0u64 } else { v.to_bits() };
    (bits(p.x), bits(p.y))
}

/// An immutable navigation mesh. Cheap to share between threads (`Send + Sync`).
///
/// Load a baked file with [`NavMesh::load`] / [`NavMesh::from_bytes`], or build one from a
/// baker's [`MeshParts`] with [`NavMesh::from_parts`].
///
/// ```
/// use trinav::build::{MeshParts, build_adjacency};
/// use trinav::{AreaId, BakeSettings, IslandId, NavMesh, Point, TriangleId, VertexId};
/// // The unit square as two triangles sharing the diagonal.
/// let parts = MeshParts {
///     settings: BakeSettings::default(),
///     vertices: vec![Point::new(0., 0.), Point::new(1., 0.), Point::new(1., 1.), Point::new(0., 1.)],
///     triangles: vec![[0, 1, 2].map(VertexId), [0, 2, 3].map(VertexId)],
///     neighbours: build_adjacency(&[[0, 1, 2].map(VertexId), [0, 2, 3].map(VertexId)], 4)?,
///     areas: vec![AreaId(0); 2],
///     islands: vec![IslandId(0); 2],
/// };
/// let mesh = NavMesh::from_parts(parts)?;
/// assert_eq!(mesh.stats().area, 1.0);
/// assert_eq!(mesh.locate(Point::new(0.9, 0.1)), Some(TriangleId(0)));
/// assert_eq!(mesh.locate(Point::new(2.0, 0.5)), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct NavMesh {
    pub(crate) parts: MeshParts,
    pub(crate) island_count: u32,
    pub(crate) bounds: Aabb,
    /// The bounding box of each island.
    pub(crate) island_bounds: Vec<Aabb>,
    pub(crate) grid: SpatialGrid,
    /// Per triangle, bit `k`: corner `k` is a turning corner (see the optimal search).
    pub(crate) search_flags: Vec<u8>,
    /// Per triangle: in the core, or in a pocket (see [`find_pockets`]).
    pub(crate) pockets: Vec<Pocket>,
    /// Per triangle, the width of the way round each corner (see [`crate::clearance`]),
    /// derived on first use by a query with a radius.
    widths: std::sync::OnceLock<Vec<[f32; 3]>>,
    /// The turning corners as a disc's optimal search reads them, derived on first use.
    disc_corners: std::sync::OnceLock<crate::query::path::DiscCorners>,
    /// Where each edge's Steiner points are numbered in the weighted optimal search, derived
    /// on first use.
    steiner_edges: std::sync::OnceLock<Box<[u32]>>,
    /// Bit `a`: some triangle is of area type `a`; derived on first use.
    area_mask: std::sync::OnceLock<u64>,
    /// The off-mesh links and the index the searches read (see [`crate::links`]).
    pub(crate) links: crate::links::Links,
    /// Per island, its lowest triangle: derived by the first patch (see `crate::patch`), then
    /// kept up to date by the patches.
    pub(crate) island_firsts: std::sync::OnceLock<Vec<TriangleId>>,
    /// The layers of a layered mesh (see [`crate::layers`]); `None`: one layer.
    pub(crate) layers: Option<Box<crate::layers::LayerTable>>,
    /// Per vertex, whether it lies on no wall (inside a portal, or where area types meet
    /// inside the walkable ground); `None` when none does. Derived on first use by a query
    /// with a radius, dropped by patches.
    open_vertices: std::sync::OnceLock<Option<Box<[bool]>>>,
    /// Whether triangles of two layers overlap in x, y (a bridge over a road).
    pub(crate) layers_overlap: bool,
    /// Whether the floor turns more than a full turn round a portal's end somewhere (a ramp
    /// that folds back over its own foot).
    pub(crate) layers_fold: bool,
    /// Whether it turns one and a half turns or more round one (an agent radius is refused).
    pub(crate) layers_fold_deep: bool,
    /// The names of its area types (see [`crate::AreaNames`]).
    pub(crate) area_names: crate::AreaNames,
}

/// Summary figures of a mesh.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeshStats {
    /// Number of vertices.
    pub vertices: usize,
    /// Number of triangles.
    pub triangles: usize,
    /// Number of islands (connected components).
    pub islands: u32,
    /// Total walkable area.
    pub area: f64,
    /// Bounding box of all vertices.
    pub bounds: Aabb,
    /// The smallest interior angle of any triangle, in degrees.
    pub min_angle_deg: f64,
    /// Number of boundary edges (edges with no neighbour).
    pub boundary_edges: usize,
    /// Number of cells in the point-location grid.
    pub grid_cells: usize,
    /// Number of (cell, triangle) entries in the point-location grid.
    pub grid_entries: usize,
}

/// The share of a mesh one area type holds ([`NavMesh::area_types`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AreaTypeStats {
    /// The type.
    pub area: AreaId,
    /// Its triangles.
    pub triangles: usize,
    /// Their total area.
    pub size: f64,
}

impl NavMesh {
    /// Validates `parts` (see [`MeshParts::find_problems`]) and derives islands count, bounds, the
    /// point-location grid, the pockets and the turning corners (where shortest paths may turn).
    pub fn from_parts(parts: MeshParts) -> Result<NavMesh, InvalidMesh> {
        let problems = parts.find_problems();
        if !problems.is_empty() {
            return Err(InvalidMesh { problems });
        }
        Ok(Self::derive(parts))
    }

    /// The mesh of `parts` from a baker whose own stages establish the rules of
    /// [`MeshParts::find_problems`]: vertices distinct (welded by exact position), triangles
    /// strictly counter-clockwise (checked when made), neighbours equal to
    /// [`build_adjacency`]'s, islands equal to [`find_islands`](crate::build::find_islands)'s.
    /// Only the rules that keep the derivation in bounds are checked here (settings, array
    /// lengths, indices, area ids), so a mesh breaking the others gives wrong query answers or panics
    /// instead of an error; debug builds check every rule. Use [`NavMesh::from_parts`] for
    /// parts of any other origin.
    pub fn from_trusted_parts(parts: MeshParts) -> Result<NavMesh, InvalidMesh> {
        Self::check_trusted(&parts)?;
        Ok(Self::derive(parts))
    }

    /// [`NavMesh::from_trusted_parts`], running `beside` on the parts meanwhile (the bake
    /// verifies its mesh there). From [`NavMesh::TWO_THREADS_FROM`] triangles, on a machine
    /// with two cores, the grid and the pockets are built on a thread of trinav's pool while
    /// this one runs `beside` and finds the turning corners; the mesh is the same either way.
    ///
    /// ```
    /// use trinav::build::{MeshParts, build_adjacency, find_islands};
    /// use trinav::{AreaId, BakeSettings, NavMesh, Point, VertexId};
    /// let vertices = vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0), Point::new(0.0, 1.0)];
    /// let triangles = vec![[0, 1, 2].map(VertexId)];
    /// let neighbours = build_adjacency(&triangles, vertices.len())?;
    /// let (islands, _) = find_islands(&neighbours);
    /// let parts = MeshParts {
    ///     settings: BakeSettings::default(), vertices, triangles, neighbours, areas: vec![AreaId(0)], islands,
    /// };
    /// let (mesh, corners) = NavMesh::from_trusted_parts_beside(parts, |parts| parts.vertices.len())?;
    /// assert_eq!((mesh.triangle_count(), corners), (1, 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_trusted_parts_beside<R>(
        parts: MeshParts,
        beside: impl FnOnce(&MeshParts) -> R,
    ) -> Result<(NavMesh, R), InvalidMesh> {
        Self::check_trusted(&parts)?;
        let two_threads =
            parts.triangles.len() >= Self::TWO_THREADS_FROM && crate::parallel::two_threads_available();
        let ((corners, answer), grid_and_pockets) = crate::parallel::join(
            two_threads,
            || (CornersAndIslands::derive(&parts), beside(&parts)),
            || GridAndPockets::derive(&parts),
        );
        Ok((Self::assemble(parts, grid_and_pockets, corners), answer))
    }

    /// The fewest triangles for which [`NavMesh::from_trusted_parts_beside`] takes two
    /// threads. Below, handing the work over costs about what it saves: the bake of den011d's 1,402
    /// triangles was within 2% either way, AR0304SR's 724 about 15% slower on two threads.
    pub const TWO_THREADS_FROM: usize = 2_048;

    /// The checks of [`NavMesh::from_trusted_parts`]: what keeps the derivation in bounds (every
    /// rule in debug builds).
    fn check_trusted(parts: &MeshParts) -> Result<(), InvalidMesh> {
        let (v_count, t_count) = (parts.vertices.len(), parts.triangles.len());
        let in_bounds = parts.settings.check().is_ok()
            && t_count <= HalfEdge::MAX_TRIANGLES
            && parts.per_triangle_lengths().iter().all(|&(_, len)| len == t_count)
            && parts.areas.iter().fold(true, |ok, &a| ok & (a <= AreaId::MAX))
            && parts.triangles.iter().flatten().fold(true, |ok, v| ok & (v.index() < v_count))
            && parts
                .neighbours
                .iter()
                .flatten()
                .fold(true, |ok, n| ok & (n.is_none() | (n.index() < t_count)));
        if !in_bounds || cfg!(debug_assertions) {
            let problems = parts.find_problems();
            if !problems.is_empty() {
                return Err(InvalidMesh { problems });
            }
        }
        Ok(())
    }

    /// The mesh of validated `parts`: derives the island count, bounds, the point-location
    /// grid, the turning corners and the pockets.
    pub(crate) fn derive(parts: MeshParts) -> NavMesh {
        let grid_and_pockets = GridAndPockets::derive(&parts);
        let corners_and_islands = CornersAndIslands::derive(&parts);
        Self::assemble(parts, grid_and_pockets, corners_and_islands)
    }

    /// The mesh of validated `parts` and what was derived from them.
    pub(crate) fn assemble(
        parts: MeshParts,
        grid_and_pockets: GridAndPockets,
        corners: CornersAndIslands,
    ) -> NavMesh {
        let GridAndPockets { bounds, grid, pockets } = grid_and_pockets;
        let CornersAndIslands { search_flags, island_count, island_bounds } = corners;
        NavMesh {
            parts,
            island_count,
            bounds,
            island_bounds,
            grid,
            search_flags,
            pockets,
            widths: std::sync::OnceLock::new(),
            disc_corners: std::sync::OnceLock::new(),
            steiner_edges: std::sync::OnceLock::new(),
            area_mask: std::sync::OnceLock::new(),
            links: crate::links::Links::default(),
            island_firsts: std::sync::OnceLock::new(),
            layers: None,
            open_vertices: std::sync::OnceLock::new(),
            layers_overlap: false,
            layers_fold: false,
            layers_fold_deep: false,
            area_names: crate::AreaNames::default(),
        }
    }

    /// The names of this mesh's area types (a level's `"area_names"`; none by default).
    ///
    /// ```
    /// use trinav::build::{MeshParts, build_adjacency};
    /// use trinav::{AreaId, AreaNames, BakeSettings, IslandId, NavMesh, Point, VertexId};
    /// let triangles = vec![[0, 1, 2].map(VertexId)];
    /// let mut mesh = NavMesh::from_parts(MeshParts {
    ///     settings: BakeSettings::default(),
    ///     vertices: vec![Point::new(0., 0.), Point::new(1., 0.), Point::new(0., 1.)],
    ///     neighbours: build_adjacency(&triangles, 3)?,
    ///     triangles,
    ///     areas: vec![AreaId(1)],
    ///     islands: vec![IslandId(0)],
    /// })?;
    /// mesh.set_area_names(AreaNames::new([("road".to_string(), AreaId(1))])?);
    /// assert_eq!(mesh.area_names().area("road"), Some(AreaId(1)));
    /// let again = NavMesh::from_bytes(&mesh.to_bytes()?)?;
    /// assert_eq!(again.area_names(), mesh.area_names());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn area_names(&self) -> &crate::AreaNames {
        &self.area_names
    }

    /// Names this mesh's area types (replacing any names it had); saved with it.
    pub fn set_area_names(&mut self, names: crate::AreaNames) {
        self.area_names = names;
    }

    /// Drops the data derived from the triangles on first use (traversal widths, disc
    /// corners, Steiner point numbering, area types present, open vertices) after a change of the triangles: the next query
    /// that needs them derives them again.
    pub(crate) fn forget_widths(&mut self) {
        self.widths = std::sync::OnceLock::new();
        self.disc_corners = std::sync::OnceLock::new();
        self.steiner_edges = std::sync::OnceLock::new();
        self.area_mask = std::sync::OnceLock::new();
        self.open_vertices = std::sync::OnceLock::new();
    }

    /// Per vertex, whether it lies on no wall (`None`: none does), derived on first use. Such
    /// a vertex (inside a portal, or a corner of an area type inside the walkable ground) is
    /// no corner a disc must keep clear of.
    pub(crate) fn open_vertices(&self) -> Option<&[bool]> {
        self.open_vertices
            .get_or_init(|| {
                let parts = &self.parts;
                let mut open = vec![true; parts.vertices.len()];
                for (tri, links) in parts.triangles.iter().zip(&parts.neighbours) {
                    for (k, n) in links.iter().enumerate() {
                        if n.is_none() {
                            open[tri[k].index()] = false;
                            open[tri[(k + 1) % 3].index()] = false;
                        }
                    }
                }
                open.contains(&true).then(|| open.into_boxed_slice())
            })
            .as_deref()
    }

    /// Bit `a` set: some triangle is of area type `a`; derived on first use.
    pub(crate) fn area_mask(&self) -> u64 {
        *self.area_mask.get_or_init(|| self.parts.areas.iter().fold(0, |mask, a| mask | 1 << a.index()))
    }

    /// Per half-edge `3 t + k` (and one past the last), the number of its first Steiner point
    /// past the vertices in the weighted optimal search (see `query::path::weighted`), derived
    /// on first use.
    pub(crate) fn steiner_edges(&self) -> &[u32] {
        self.steiner_edges.get_or_init(|| crate::query::path::steiner_edges(self))
    }

    /// The disc corners, if derived already.
    pub(crate) fn derived_disc_corners(&self) -> Option<&crate::query::path::DiscCorners> {
        self.disc_corners.get()
    }

    /// The traversal widths, if derived already.
    pub(crate) fn derived_widths(&self) -> Option<&[[f32; 3]]> {
        self.widths.get().map(Vec::as_slice)
    }

    /// Per triangle, the width of the way round each corner, derived on first use.
    pub(crate) fn traversal_widths(&self) -> &[[f32; 3]] {
        self.widths.get_or_init(|| {
            crate::clearance::traversal_widths(
                &self.parts.vertices,
                &self.parts.triangles,
                &self.parts.neighbours,
                (self.open_vertices(), self.overlapping_layers()),
            )
        })
    }

    /// The turning corners a disc may bend round, derived on first use.
    pub(crate) fn disc_corners(&self) -> &[crate::query::path::DiscCorner] {
        &self.disc_corner_index().list
    }

    /// The turning corners a disc may bend round and where each vertex's are, derived on
    /// first use.
    pub(crate) fn disc_corner_index(&self) -> &crate::query::path::DiscCorners {
        self.disc_corners.get_or_init(|| {
            crate::query::path::disc_corners(
                &self.parts.vertices,
                &self.parts.triangles,
                &self.parts.neighbours,
                self.layers_fold,
            )
        })
    }

    /// Derives now the clearance data that queries with an agent radius need (otherwise the
    /// first such query does: about 1 ms per 15,000 triangles), so that no frame pays for it.
    /// Idempotent and thread-safe.
    pub fn prepare_clearance(&self) {
        self.traversal_widths();
        self.disc_corners();
    }

    /// The stored arrays.
    pub fn parts(&self) -> &MeshParts {
        &self.parts
    }

    /// The settings the mesh was baked with.
    pub fn settings(&self) -> &BakeSettings {
        &self.parts.settings
    }

    /// All vertex positions, indexed by [`VertexId`].
    pub fn vertices(&self) -> &[Point] {
        &self.parts.vertices
    }

    /// All triangles (counter-clockwise vertex ids), indexed by [`TriangleId`].
    pub fn triangles(&self) -> &[[VertexId; 3]] {
        &self.parts.triangles
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.parts.triangles.len()
    }

    /// Whether the closed triangle `t` contains `p` (exact predicate).
    #[inline]
    pub fn triangle_contains(&self, t: TriangleId, p: Point) -> bool {
        let [a, b, c] = self.triangle_points(t);
        orient(a, b, p) != Orientation::Clockwise
            && orient(b, c, p) != Orientation::Clockwise
            && orient(c, a, p) != Orientation::Clockwise
    }

    /// The three corners of triangle `t`, counter-clockwise.
    #[inline]
    pub fn triangle_points(&self, t: TriangleId) -> [Point; 3] {
        self.parts.triangles[t.index()].map(|v| self.parts.vertices[v.index()])
    }

    /// The neighbours of triangle `t` across its edges 0, 1, 2 ([`TriangleId::NONE`] on the
    /// boundary).
    #[inline]
    pub fn neighbours(&self, t: TriangleId) -> [TriangleId; 3] {
        self.parts.neighbours[t.index()]
    }

    /// The island (connected component) of triangle `t`.
    #[inline]
    pub fn island(&self, t: TriangleId) -> IslandId {
        self.parts.islands[t.index()]
    }

    /// Whether triangle `t` is in the core or in a pocket (a dead-end tree of triangles that
    /// paths enter only to reach a point inside; see [`find_pockets`]).
    #[inline]
    pub(crate) fn pocket(&self, t: TriangleId) -> Pocket {
        self.pockets[t.index()]
    }

    /// Number of islands.
    pub fn island_count(&self) -> u32 {
        self.island_count
    }

    /// The bounding box of island `island` ([`Aabb::EMPTY`] for an island that does not exist).
    pub fn island_bounds(&self, island: IslandId) -> Aabb {
        self.island_bounds.get(island.index()).copied().unwrap_or(Aabb::EMPTY)
    }

    /// The area type of triangle `t`.
    #[inline]
    pub fn area_id(&self, t: TriangleId) -> AreaId {
        self.parts.areas[t.index()]
    }

    /// Bounding box of the mesh.
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Total walkable area: the sum of the triangle areas.
    pub fn area(&self) -> f64 {
        self.parts.area()
    }

    /// The walkable area and triangle count of each area type present, by ascending type.
    ///
    /// ```
    /// use trinav::build::{MeshParts, build_adjacency};
    /// use trinav::{AreaId, BakeSettings, IslandId, NavMesh, Point, VertexId};
    /// let triangles = vec![[0, 1, 2].map(VertexId), [0, 2, 3].map(VertexId)];
    /// let parts = MeshParts {
    ///     settings: BakeSettings::default(),
    ///     vertices: vec![Point::new(0., 0.), Point::new(2., 0.), Point::new(2., 2.), Point::new(0., 2.)],
    ///     neighbours: build_adjacency(&triangles, 4)?,
    ///     triangles,
    ///     areas: vec![AreaId(0), AreaId(5)],
    ///     islands: vec![IslandId(0); 2],
    /// };
    /// let types = NavMesh::from_parts(parts)?.area_types();
    /// assert_eq!((types[1].area, types[1].triangles, types[1].size), (AreaId(5), 1, 2.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn area_types(&self) -> Vec<AreaTypeStats> {
        let mut by_type = [(0usize, 0.0f64); AreaId::COUNT];
        for (t, area) in self.parts.areas.iter().enumerate() {
            let [a, b, c] = self.triangle_points(TriangleId::from_index(t));
            let slot = &mut by_type[area.index()];
            slot.0 += 1;
            slot.1 += crate::geometry::doubled_signed_area(a, b, c) / 2.0;
        }
        (by_type.iter().enumerate())
            .filter(|(_, (triangles, _))| *triangles > 0)
            .map(|(a, &(triangles, size))| AreaTypeStats { area: AreaId(a as u8), triangles, size })
            .collect()
    }

    /// Summary figures: counts, area, bounds, worst angle.
    pub fn stats(&self) -> MeshStats {
        let min_angle = smallest_min_angle_deg(
            (0..self.triangle_count()).map(|t| self.triangle_points(TriangleId::from_index(t))),
        );
        MeshStats {
            vertices: self.parts.vertices.len(),
            triangles: self.triangle_count(),
            islands: self.island_count,
            area: self.area(),
            bounds: self.bounds,
            min_angle_deg: if min_angle.is_finite() { min_angle } else { 0.0 },
            boundary_edges: self.parts.neighbours.iter().flatten().filter(|n| n.is_none()).count(),
            grid_cells: self.grid.cell_count(),
            grid_entries: self.grid.entry_count(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes::parts_of;
    use crate::topology::find_islands;

    /// A 2x1 strip of 4 triangles, plus a separate triangle touching it at one corner.
    fn sample_parts() -> MeshParts {
        let vertices = [(0., 0.), (1., 0.), (2., 0.), (2., 1.), (1., 1.), (0., 1.), (3., 2.), (2., 2.)]
            .map(|(x, y)| Point::new(x, y))
            .to_vec();
        let triangles: Vec<[VertexId; 3]> =
            [[0, 1, 4], [0, 4, 5], [1, 2, 3], [1, 3, 4], [3, 6, 7]].iter().map(|t| t.map(VertexId)).collect();
        parts_of(vertices, triangles)
    }

    #[test]
    fn valid_parts_build_a_mesh_with_two_islands() {
        let mesh = NavMesh::from_parts(sample_parts()).unwrap();
        let stats = mesh.stats();
        assert_eq!(stats.triangles, 5);
        assert_eq!(stats.islands, 2);
        assert_eq!(stats.area, 2.5);
        // The corner-touching triangle (vertex 3 is shared) is its own island.
        assert_eq!(mesh.island(TriangleId(4)), IslandId(1));
        assert_eq!(mesh.island(TriangleId(2)), IslandId(0));
        let bounds = |island| {
            let b = mesh.island_bounds(IslandId(island));
            (b.min, b.max)
        };
        assert_eq!(bounds(0), (Point::new(0., 0.), Point::new(2., 1.)));
        assert_eq!(bounds(1), (Point::new(2., 1.), Point::new(3., 2.)));
        assert!(mesh.island_bounds(IslandId(2)).is_empty());
    }

    #[test]
    fn locate_finds_the_containing_triangle_or_none() {
        let mesh = NavMesh::from_parts(sample_parts()).unwrap();
        for t in 0..mesh.triangle_count() {
            let [a, b, c] = mesh.triangle_points(TriangleId::from_index(t));
            let centroid = Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
            assert_eq!(mesh.locate(centroid), Some(TriangleId::from_index(t)));
        }
        // On the shared diagonal 0-4 of triangles 0 and 1: the lower id.
        assert_eq!(mesh.locate(Point::new(0.5, 0.5)), Some(TriangleId(0)));
        // Inside the bounds but off the mesh.
        assert_eq!(mesh.locate(Point::new(0.5, 1.5)), None);
        assert_eq!(mesh.locate(Point::new(f64::NAN, 0.5)), None);
    }

    #[test]
    fn clockwise_triangle_is_reported() {
        let mut parts = sample_parts();
        parts.triangles[4] = [3, 7, 6].map(VertexId);
        parts.neighbours = build_adjacency(&parts.triangles, parts.vertices.len()).unwrap();
        let problems = parts.find_problems();
        assert!(matches!(problems[0], MeshProblem::NotCounterClockwise { triangle: TriangleId(4), .. }));
    }

    #[test]
    fn asymmetric_adjacency_is_reported() {
        let mut parts = sample_parts();
        parts.neighbours[4][0] = TriangleId(2);
        let problems = parts.find_problems();
        assert_eq!(
            problems,
            vec![MeshProblem::AsymmetricAdjacency {
                triangle: TriangleId(4),
                edge: 0,
                neighbour: TriangleId(2)
            }]
        );
    }

    #[test]
    fn missing_link_and_wrong_island_are_reported() {
        let mut parts = sample_parts();
        let (t, e) = (0, parts.neighbours[0].iter().position(|n| !n.is_none()).unwrap());
        let n = parts.neighbours[t][e];
        let back = parts.neighbours[n.index()].iter().position(|&x| x == TriangleId(0)).unwrap();
        parts.neighbours[t][e] = TriangleId::NONE;
        parts.neighbours[n.index()][back] = TriangleId::NONE;
        assert!(matches!(parts.find_problems()[0], MeshProblem::AdjacencyMismatch { .. }));

        let mut parts = sample_parts();
        parts.islands[4] = IslandId(0);
        assert_eq!(
            parts.find_problems(),
            vec![MeshProblem::IslandMismatch {
                triangle: TriangleId(4),
                stored: IslandId(0),
                expected: IslandId(1)
            }]
        );
    }

    #[test]
    fn wrong_islands_are_reported_in_triangle_order() {
        // Islands swapped: every triangle is wrong, and the problems come as a comparison with
        // `find_islands` lists them.
        let mut parts = sample_parts();
        for island in &mut parts.islands {
            island.0 = 1 - island.0;
        }
        let (expected, _) = find_islands(&parts.neighbours);
        let problems = parts.find_problems();
        let listed: Vec<MeshProblem> = (0..5)
            .map(|t| MeshProblem::IslandMismatch {
                triangle: TriangleId(t),
                stored: parts.islands[t as usize],
                expected: expected[t as usize],
            })
            .collect();
        assert_eq!(problems, listed);
    }

    #[test]
    fn bad_vertices_are_reported() {
        let mut parts = sample_parts();
        parts.vertices[7] = parts.vertices[0];
        assert_eq!(
            parts.find_problems()[0],
            MeshProblem::DuplicateVertex { vertex: VertexId(7), first: VertexId(0) }
        );
        let mut parts = sample_parts();
        parts.vertices[2].x = f64::NAN;
        assert_eq!(parts.find_problems()[0], MeshProblem::NonFiniteVertex(VertexId(2)));
        let mut parts = sample_parts();
        parts.triangles[0][1] = VertexId(99);
        assert!(matches!(parts.find_problems()[0], MeshProblem::VertexOutOfRange { .. }));
        let mut parts = sample_parts();
        parts.areas.pop();
        assert!(matches!(parts.find_problems()[0], MeshProblem::LengthMismatch { array: "areas", .. }));
    }

    /// A `cols x rows` grid of squares split into two triangles each (every other square the
    /// other diagonal), plus a lone triangle: two islands.
    fn grid_with_a_lone_triangle(cols: u32, rows: u32) -> MeshParts {
        let id = |i: u32, j: u32| VertexId(j * (cols + 1) + i);
        let mut vertices: Vec<Point> = (0..=rows)
            .flat_map(|j| (0..=cols).map(move |i| Point::new(f64::from(i), f64::from(j))))
            .collect();
        let mut triangles = Vec::new();
        for j in 0..rows {
            for i in 0..cols {
                let [a, b, c, d] = [id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)];
                if (i + j) % 2 == 0 {
                    triangles.extend([[a, b, c], [a, c, d]]);
                } else {
                    triangles.extend([[a, b, d], [b, c, d]]);
                }
            }
        }
        let base = vertices.len() as u32;
        vertices.extend([Point::new(-3., -3.), Point::new(-2., -3.), Point::new(-2., -2.)]);
        triangles.push([base, base + 1, base + 2].map(VertexId));
        parts_of(vertices, triangles)
    }

    #[test]
    fn quick_check_agrees_with_the_slow_checks_on_random_corruptions() {
        let proven = Proven { distinct_vertices: true, manifold_edges: true };
        let good = grid_with_a_lone_triangle(5, 4);
        assert!(quick_check(&good));
        assert!(find_problems_with(&good, proven).is_empty());
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut below = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let (v, t) = (good.vertices.len(), good.triangles.len());
        let mut rejected = 0;
        for round in 0..3000 {
            let mut parts = good.clone();
            for _ in 0..1 + round % 3 {
                let (i, k) = (below(t), below(3));
                match below(9) {
                    0 => parts.vertices[below(v)] = Point::new(f64::NAN, 0.0),
                    1 => parts.vertices[below(v)].x += 0.5,
                    2 => parts.triangles[i][k] = VertexId(below(v + 2) as u32),
                    3 => parts.triangles[i].swap(0, 1),
                    4 => parts.neighbours[i][k] = TriangleId(below(t + 2) as u32),
                    5 => parts.neighbours[i][k] = TriangleId::NONE,
                    6 => parts.islands[i] = IslandId(below(3) as u32),
                    7 => parts.areas[i] = AreaId(below(70) as u8),
                    _ => {
                        parts.islands.swap(i, t - 1);
                    }
                }
            }
            let slow_valid = find_problems_with(&parts, proven).is_empty();
            assert_eq!(quick_check(&parts), slow_valid, "round {round}");
            rejected += usize::from(!slow_valid);
        }
        // Most corruptions are caught (a few are harmless: a moved vertex, an island swapped
        // with an equal one).
        assert!(rejected > 2000, "{rejected}");
        let mut short = good.clone();
        short.islands.pop();
        assert!(!quick_check(&short));
    }

    /// The triangles of `parts` in breadth-first order from the lowest of each island, links
    /// and islands derived again.
    fn breadth_first(parts: &MeshParts) -> MeshParts {
        let mut order: Vec<usize> = Vec::new();
        let mut seen = vec![false; parts.triangles.len()];
        for seed in 0..parts.triangles.len() {
            if !seen[seed] {
                seen[seed] = true;
                order.push(seed);
                let mut next = order.len() - 1;
                while let Some(&t) = order.get(next) {
                    next += 1;
                    for n in parts.neighbours[t].into_iter().filter(|n| !n.is_none()) {
                        if !std::mem::replace(&mut seen[n.index()], true) {
                            order.push(n.index());
                        }
                    }
                }
            }
        }
        parts_of(parts.vertices.clone(), order.iter().map(|&t| parts.triangles[t]).collect())
    }

    /// Whether every triangle but the first of its island links to a lower triangle (the
    /// order in which [`quick_check`] counts islands without union-find).
    fn joined_below(parts: &MeshParts) -> bool {
        let mut seen = 0u32;
        (parts.islands.iter().zip(&parts.neighbours).enumerate()).all(|(t, (island, links))| {
            let first = island.0 == seen;
            seen += u32::from(first);
            first || links.iter().any(|n| n.0 < t as u32)
        })
    }

    #[test]
    fn quick_check_counts_islands_in_any_triangle_order() {
        let proven = Proven { distinct_vertices: true, manifold_edges: true };
        // In the grid's order of squares a triangle may link only to higher ones (the first of
        // every other square): union-find counts. Breadth first, every triangle but the first
        // of its island links to a lower one: one pass counts.
        let good = grid_with_a_lone_triangle(5, 4);
        let breadth = breadth_first(&good);
        assert!(!joined_below(&good));
        assert!(joined_below(&breadth));
        for parts in [&good, &breadth] {
            assert!(quick_check(parts));
            // Two islands given one number: refused in either order.
            let mut merged = parts.clone();
            let lone = merged.islands.iter().position(|i| i.0 == 1).unwrap();
            let lone_island = merged.islands[lone];
            for island in &mut merged.islands {
                if *island == lone_island {
                    *island = IslandId(0);
                }
            }
            assert!(!find_problems_with(&merged, proven).is_empty());
            assert!(!quick_check(&merged));
        }
    }

    #[test]
    fn trusted_parts_refuse_what_would_break_the_derivation() {
        let good = grid_with_a_lone_triangle(5, 4);
        let trusted = NavMesh::from_trusted_parts(good.clone()).unwrap();
        assert_eq!(trusted.stats(), NavMesh::from_parts(good.clone()).unwrap().stats());
        let mut bad_index = good.clone();
        bad_index.triangles[3][1] = VertexId(good.vertices.len() as u32);
        let mut bad_link = good.clone();
        bad_link.neighbours[2][0] = TriangleId(good.triangles.len() as u32);
        let mut short = good.clone();
        short.areas.pop();
        for parts in [bad_index, bad_link, short] {
            let problems = parts.find_problems();
            assert!(!problems.is_empty());
            assert_eq!(NavMesh::from_trusted_parts(parts.clone()).unwrap_err().problems, problems);
            // The work given to run beside the derivation never sees refused parts.
            let beside = NavMesh::from_trusted_parts_beside(parts, |_| panic!("ran on refused parts"));
            assert_eq!(beside.unwrap_err().problems, problems);
        }
        // Big enough for the second thread: the same mesh, and the work beside it done.
        let big = grid_with_a_lone_triangle(40, 30);
        assert!(big.triangles.len() >= NavMesh::TWO_THREADS_FROM);
        let (mesh, area) = NavMesh::from_trusted_parts_beside(big.clone(), MeshParts::area).unwrap();
        assert_eq!((area, mesh.triangle_count()), (big.area(), big.triangles.len()));
        crate::patch::check_derived(&mesh).unwrap();
        // Debug builds check every rule (release builds trust them: deriving from a clockwise
        // triangle may panic there, so it is not tried).
        if cfg!(debug_assertions) {
            let mut flipped = good.clone();
            flipped.triangles[0].swap(0, 1);
            assert!(NavMesh::from_trusted_parts(flipped).is_err());
        }
    }

    #[test]
    fn nav_mesh_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<NavMesh>();
    }
}
