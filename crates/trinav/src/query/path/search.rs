//! A* over the triangles (Detour's layout): a triangle's node sits at the midpoint of the shared
//! edge it was entered through; g sums straight distances between consecutive positions (half
//! the length of the triangle's third edge, precomputed), h is the straight distance to the goal
//! times [`HEURISTIC_WEIGHT`]. A triangle keeps the entry with the lowest f and is expanded
//! once; pockets without the start or goal are never entered. A node budget bounds the
//! triangles expanded.

use std::cmp::Ordering;

use crate::geometry::Point;
use crate::ids::{HalfEdge, TriangleId};
use crate::mesh::NavMesh;
use crate::query::path::{PathScratch, SearchEnd};

/// The scale of the heuristic (weighted A*). A path through edge midpoints zigzags, so g grows
/// faster than the straight distance it covers; scaling h by about that factor makes f
/// estimate the midpoint path instead of underestimating it, and the search expands far fewer
/// triangles. Measured by `tools/bench-peers` against 1.0: p50 1.4 times (Iron Harvest) to
/// 16 times (`random512-10-0`) faster, mean path length unchanged within ±0.04%.
const HEURISTIC_WEIGHT: f64 = 1.2;

/// An open-list entry (16 bytes): an item (here a triangle; in the optimal search a node index)
/// with its f as the bits of a non-negative f64, which order like the numbers. An entry is
/// stale when its f is no longer the triangle's current one (a better entry was pushed since).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenNode {
    pub(crate) f_bits: u64,
    pub(crate) item: u32,
}

impl PartialEq for OpenNode {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for OpenNode {}

impl PartialOrd for OpenNode {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OpenNode {
    /// Reversed, so that `BinaryHeap` pops the smallest f first (ties: the lowest item).
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        other.f_bits.cmp(&self.f_bits).then(other.item.cmp(&self.item))
    }
}

impl NavMesh {
    /// The midpoint of `half_edge`.
    #[inline]
    fn half_edge_midpoint(&self, half_edge: HalfEdge) -> Point {
        let (tri, i) = (self.triangles()[half_edge.triangle().index()], half_edge.edge());
        let vertices = self.vertices();
        vertices[tri[i].index()].midpoint(vertices[tri[(i + 1) % 3].index()])
    }

    /// Runs A* from `from`, which lies in every triangle of `starts`, to `to`, which lies in
    /// every triangle of `goals` (the two sets do not meet), expanding at most `budget` nodes.
    /// With a `radius` above 0, a disc: only ways through triangles at least `2 radius` wide
    /// are taken (see [`crate::clearance`]), and a triangle is a node per edge it is entered
    /// by (which ways out are wide enough depends on the way in). When found,
    /// `scratch.corridor` holds the half-edges crossed, in order. When the budget runs out
    /// first, `scratch.best_reached` is the triangle closed with the smallest estimate to the
    /// goal (if any was).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_corridor(
        &self,
        from: Point,
        starts: &[TriangleId],
        to: Point,
        goals: &[TriangleId],
        budget: u32,
        radius: f64,
        scratch: &mut PathScratch,
    ) -> SearchEnd {
        if radius > 0.0 {
            self.search_nodes::<PerEntry>(from, starts, to, goals, budget, radius, scratch)
        } else {
            self.search_nodes::<PerTriangle>(from, starts, to, goals, budget, 0.0, scratch)
        }
    }

    /// [`NavMesh::search_corridor`] over the nodes of `N`.
    #[allow(clippy::too_many_arguments)]
    fn search_nodes<N: NodeSpace>(
        &self,
        from: Point,
        starts: &[TriangleId],
        to: Point,
        goals: &[TriangleId],
        budget: u32,
        radius: f64,
        scratch: &mut PathScratch,
    ) -> SearchEnd {
        scratch.begin(N::count(self));
        let widths = if radius > 0.0 { self.traversal_widths() } else { &[] };
        let diameter = 2.0 * radius;
        // Enters node `node` (triangle `into`) through half-edge `entry` (whose midpoint is
        // `position`) from node `previous` at distance `g`, unless it is closed, already
        // entered with a lower f, or in a pocket the query has no business in.
        let enter = |scratch: &mut PathScratch, previous: u32, entry: HalfEdge, into: TriangleId, g: f64| {
            let node = N::node(entry, into) as usize;
            if scratch.closed.contains(node) || !scratch.pass.allows(self, into) {
                return;
            }
            let f = g + HEURISTIC_WEIGHT * self.half_edge_midpoint(entry).distance(to);
            if scratch.seen.contains(node) && f64::from_bits(scratch.f_bits[node]) <= f {
                return;
            }
            scratch.seen.insert(node);
            scratch.g[node] = g;
            scratch.f_bits[node] = f.to_bits();
            scratch.parent[node] = entry;
            scratch.parent_node[node] = previous;
            scratch.open.push(OpenNode { f_bits: f.to_bits(), item: node as u32 });
        };
        for &start in starts {
            if let Some(node) = N::start_node(start) {
                scratch.closed.insert(node);
            }
        }
        for &start in starts {
            let corners = self.triangle_points(start);
            for (i, &next) in self.neighbours(start).iter().enumerate() {
                // A disc leaves through an edge at least its diameter long.
                if !next.is_none() && (radius == 0.0 || corners[i].distance(corners[(i + 1) % 3]) >= diameter)
                {
                    let entry = HalfEdge::new(start, i);
                    enter(scratch, START, entry, next, from.distance(self.half_edge_midpoint(entry)));
                }
            }
        }
        let (mut goal_g, mut goal) = (f64::INFINITY, START);
        let (mut expanded, mut exhausted) = (0u32, false);
        let (mut best_estimate, mut best_reached) = (f64::INFINITY, None);
        while let Some(open) = scratch.open.pop() {
            if f64::from_bits(open.f_bits) >= goal_g {
                break;
            }
            let node = open.item as usize;
            if scratch.closed.contains(node) || open.f_bits != scratch.f_bits[node] {
                continue;
            }
            if expanded == budget {
                exhausted = true;
                break;
            }
            expanded += 1;
            scratch.closed.insert(node);
            let (g, entry) = (scratch.g[node], scratch.parent[node]);
            let here = self.neighbours(entry.triangle())[entry.edge()];
            // The weighted estimate of the way left, f - g.
            let estimate = f64::from_bits(open.f_bits) - g;
            if estimate < best_estimate {
                (best_estimate, best_reached) = (estimate, Some((node as u32, here)));
            }
            if goals.contains(&here) {
                let total = g + self.half_edge_midpoint(entry).distance(to);
                if total < goal_g {
                    (goal_g, goal) = (total, node as u32);
                }
                continue;
            }
            // From the midpoint of entry edge i to that of exit edge j: half the third edge.
            let neighbours = self.neighbours(here);
            let came_from = entry.triangle();
            let i = neighbours.iter().position(|&n| n == came_from).expect("entered from a neighbour");
            let halves = self.half_edge_lengths[here.index()];
            for (j, &next) in neighbours.iter().enumerate() {
                if j == i || next.is_none() {
                    continue;
                }
                // The way from edge i to edge j goes round their shared corner.
                if radius > 0.0 && f64::from(widths[here.index()][shared_corner(i, j)]) < diameter {
                    continue;
                }
                let step = f64::from(halves[3 - i - j]);
                enter(scratch, node as u32, HalfEdge::new(here, j), next, g + step);
            }
        }
        scratch.expanded = expanded;
        scratch.best_reached = best_reached;
        if goal != START {
            self.corridor_to(goal as usize, scratch);
            SearchEnd::Found
        } else if exhausted {
            SearchEnd::Exhausted
        } else {
            SearchEnd::Unreachable
        }
    }

    /// Sets `scratch.corridor` to the half-edges crossed from a start to the closed node
    /// `node`, in order.
    pub(crate) fn corridor_to(&self, node: usize, scratch: &mut PathScratch) {
        scratch.corridor.clear();
        let mut node = node as u32;
        while node != START {
            scratch.corridor.push(scratch.parent[node as usize]);
            node = scratch.parent_node[node as usize];
        }
        scratch.corridor.reverse();
    }
}

/// The `parent_node` of a node entered from a start triangle.
pub(crate) const START: u32 = u32::MAX;

/// The corner two edges (0..3) of a triangle share: edge `i` runs from corner `i` to `i + 1`.
#[inline]
fn shared_corner(i: usize, j: usize) -> usize {
    if j == (i + 1) % 3 { j } else { i }
}

/// How the fast search numbers its nodes.
trait NodeSpace {
    /// How many nodes `mesh` has.
    fn count(mesh: &NavMesh) -> usize;
    /// The node of triangle `into` entered through `entry` (a half-edge of the triangle left).
    fn node(entry: HalfEdge, into: TriangleId) -> u32;
    /// The node a start triangle is, if it is one (then it is closed from the start).
    fn start_node(start: TriangleId) -> Option<usize>;
}

/// A node per triangle: it keeps its best entry (the fast mode without a radius).
struct PerTriangle;

impl NodeSpace for PerTriangle {
    fn count(mesh: &NavMesh) -> usize {
        mesh.triangle_count()
    }
    #[inline]
    fn node(_entry: HalfEdge, into: TriangleId) -> u32 {
        into.0
    }
    fn start_node(start: TriangleId) -> Option<usize> {
        Some(start.index())
    }
}

/// A node per way into a triangle (the half-edge crossed), for a disc, whose ways out depend
/// on the way in.
struct PerEntry;

impl NodeSpace for PerEntry {
    fn count(mesh: &NavMesh) -> usize {
        3 * mesh.triangle_count()
    }
    #[inline]
    fn node(entry: HalfEdge, _into: TriangleId) -> u32 {
        entry.index() as u32
    }
    fn start_node(_start: TriangleId) -> Option<usize> {
        None
    }
}
