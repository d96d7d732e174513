//! A* over shared edges: the nodes are the edges crossed (directed: from one triangle into
//! the next), placed at their midpoints; g sums straight distances between consecutive
//! positions, h is the straight distance to the goal.

use std::cmp::Ordering;

use crate::geometry::Point;
use crate::ids::TriangleId;
use crate::mesh::NavMesh;
use crate::query::path::PathScratch;

/// "No parent": the node was reached from the start point.
pub(crate) const FROM_START: u32 = u32::MAX;

/// An open-list entry (16 bytes): an item (here a half-edge, `3 * triangle + edge`; in the
/// optimal search a node index) with its f as the bits of a non-negative f64, which order like
/// the numbers. An entry is stale when its f is no longer the half-edge's current one (a better
/// g was found and pushed since).
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
    /// The midpoint of edge `half_edge % 3` of triangle `half_edge / 3`.
    #[inline]
    fn half_edge_midpoint(&self, half_edge: u32) -> Point {
        let (t, i) = ((half_edge / 3) as usize, (half_edge % 3) as usize);
        let tri = self.triangles()[t];
        let vertices = self.vertices();
        vertices[tri[i].index()].midpoint(vertices[tri[(i + 1) % 3].index()])
    }

    /// Runs A* from `from`, which lies in every triangle of `starts`, to `to`, which lies in
    /// every triangle of `goals` (the two sets do not meet). On success fills
    /// `scratch.corridor` with the half-edges crossed, in order, and returns true.
    pub(crate) fn search_corridor(
        &self,
        from: Point,
        starts: &[TriangleId],
        to: Point,
        goals: &[TriangleId],
        scratch: &mut PathScratch,
    ) -> bool {
        scratch.begin(self.triangle_count() * 3);
        let generation = scratch.generation;
        let push = |scratch: &mut PathScratch, half_edge: u32, g: f64, parent: u32, position: Point| {
            let h = half_edge as usize;
            if scratch.closed[h] == generation || (scratch.seen[h] == generation && scratch.g[h] <= g) {
                return;
            }
            // A pocket without the start or goal is a dead end.
            let into = self.neighbours(TriangleId(half_edge / 3))[h % 3];
            if !scratch.pass.allows(self, into) {
                return;
            }
            scratch.seen[h] = generation;
            let f_bits = (g + position.distance(to)).to_bits();
            scratch.g[h] = g;
            scratch.f_bits[h] = f_bits;
            scratch.parent[h] = parent;
            scratch.open.push(OpenNode { f_bits, item: half_edge });
        };
        for &start in starts {
            for (i, n) in self.neighbours(start).iter().enumerate() {
                if !n.is_none() {
                    let h = start.0 * 3 + i as u32;
                    let m = self.half_edge_midpoint(h);
                    push(scratch, h, from.distance(m), FROM_START, m);
                }
            }
        }
        let (mut goal_g, mut goal_parent) = (f64::INFINITY, FROM_START);
        while let Some(node) = scratch.open.pop() {
            if f64::from_bits(node.f_bits) >= goal_g {
                break;
            }
            let h = node.item as usize;
            if scratch.closed[h] == generation || node.f_bits != scratch.f_bits[h] {
                continue;
            }
            scratch.closed[h] = generation;
            let g = scratch.g[h];
            let came_from = TriangleId(node.item / 3);
            let here = self.neighbours(came_from)[h % 3];
            let position = self.half_edge_midpoint(node.item);
            if goals.contains(&here) {
                let total = g + position.distance(to);
                if total < goal_g {
                    (goal_g, goal_parent) = (total, node.item);
                }
                continue;
            }
            for (j, next) in self.neighbours(here).iter().enumerate() {
                if next.is_none() || *next == came_from {
                    continue;
                }
                let h2 = here.0 * 3 + j as u32;
                let m2 = self.half_edge_midpoint(h2);
                push(scratch, h2, g + position.distance(m2), node.item, m2);
            }
        }
        if goal_parent == FROM_START {
            return false;
        }
        scratch.corridor.clear();
        let mut h = goal_parent;
        while h != FROM_START {
            scratch.corridor.push(h);
            h = scratch.parent[h as usize];
        }
        scratch.corridor.reverse();
        true
    }
}
