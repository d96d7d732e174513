//! Optimal mode: the exact Euclidean shortest path, by an interval search over the triangles
//! (the design of Polyanya: Cui, Harabor and Grastien, IJCAI 2017).
//!
//! A search node stands for every path that leaves a *root* (the start, or a mesh vertex where
//! paths turn) in a straight line through an interval of a mesh edge, into the triangle
//! beyond. Its g is the shortest known distance from the start to the root; its h the distance
//! from the root through the interval to the goal (mirrored across the edge when on the root's
//! side), so f never overestimates.
//!
//! The interval is cut from its edge by two lines through the root, each held as two exact
//! points (the start, or mesh vertices). Every decision (which side of a line a vertex lies on,
//! whether an interval ends exactly at a vertex) is therefore an exact orientation test; only
//! the costs and the heuristic are computed in floating point, and the path's points are the
//! query points and mesh vertices themselves.
//!
//! Expanding a node projects its two lines across the triangle: the part of the far edges the
//! root sees keeps the root (observable successors). Where the interval ends exactly at a
//! *turning corner* (a boundary vertex whose fan of triangles spans more than a half turn), the
//! region behind that corner, hidden from the root, gets the corner as its new root
//! (non-observable successors), in the triangle itself and in the fan triangles around the
//! corner up to a half turn. Paths never pass through a vertex from one fan to another (where
//! obstacles touch corner to corner), just as they never cross a boundary edge.
//!
//! Pruning: a root reached again by a longer route is not expanded again (its region is
//! covered from the shorter route); a node with a single successor of the same root is
//! expanded at once instead of going through the open list; a pocket (a dead-end tree of
//! triangles, see [`find_pockets`](crate::find_pockets)) is not entered unless it holds the
//! start or the goal; a node that cannot beat the best path found so far is dropped. The goal
//! is a final node whose f is the exact length: when it leaves the open list, no shorter path
//! exists.
//!
//! Off-mesh links (when the mesh has any; the search is compiled apart for meshes without):
//! both ends of each direction of a link are points of their own, numbered after the vertices.
//! A link's start is reached like the goal (seen from a node's root through its interval, or
//! round a turning corner the interval ends at, or from the start or a link end in the same
//! triangle); its end is then a new root, `g` plus the link's cost, put on the open list as a
//! node of its own that, expanded, searches from the end as from the start. The heuristic is
//! the smaller of the straight way to the goal and the least that a way through a link can cost
//! from the node's root (over the links, the straight way to its start plus the link's bound:
//! its cost and the least the rest can cost with every walk taken straight, from a search over
//! the links once per query, [`NavMesh::link_estimates`]; computed once per root), so it stays
//! a lower bound, and the goal test (a final node leaving the open list) stays exact.
//!
//! A node budget bounds the expansions (each node of a single-successor chain counts); when it
//! runs out, a partial path can be written from the nodes made so far.

use std::collections::BinaryHeap;

use crate::geometry::{Orientation, Point, closest_point_on_segment, orient};
use crate::ids::{HalfEdge, TriangleId};
use crate::links::LinkWork;
use crate::mesh::NavMesh;
use crate::query::path::search::OpenNode;
use crate::query::path::{GenerationSet, LinkStep, Path, PocketPass, SearchEnd, tidy_path};

/// The start as a root or a point of a line (mesh vertices are their ids).
const START: u32 = u32::MAX;
/// The `crossing` of a final node: its root sees the goal.
const FINAL: HalfEdge = HalfEdge::NONE;
/// The `crossing` of a node whose root is a link's end, reached through the link.
const LINK: HalfEdge = HalfEdge::LINK;
/// Relative slack when comparing two distances to the same root: routes of equal length can
/// differ in their last bits, and both must survive (each covers the region behind the corner
/// on its own side). Only the amount of work depends on it, never the path.
const ROOT_SLACK: f64 = 1e-9;

/// A search node (32 bytes).
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Distance from the start to the root.
    g: f64,
    /// The root: [`START`], a vertex id, or a link end's id (see [`Search::point`]).
    root: u32,
    /// The line bounding the interval on the left as seen from the root (two point ids).
    left: [u32; 2],
    /// The line bounding it on the right.
    right: [u32; 2],
    /// The half-edge crossed (named by the triangle left behind), [`FINAL`] or [`LINK`].
    crossing: HalfEdge,
}

const _: () = assert!(std::mem::size_of::<Node>() == 32);

/// Per-query state of the optimal search, reused across queries (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub(crate) struct OptimalScratch {
    /// Vertices reached as roots in this query.
    root_seen: GenerationSet,
    /// Best known distance from the start to each root.
    root_g: Vec<f64>,
    /// The root each root is reached from on its best route ([`START`] for the start).
    root_parent: Vec<u32>,
    nodes: Vec<Node>,
    open: BinaryHeap<OpenNode>,
    /// Successors of the node being expanded.
    successors: Vec<Node>,
    /// With links: per directed link, the estimate of [`NavMesh::link_estimates`]; per root
    /// (the start in the last slot), the bound on a way through a link from it, once computed.
    link_work: LinkWork,
    link_bound_seen: GenerationSet,
    root_link_bound: Vec<f64>,
    /// The slot of the start in `root_link_bound`.
    start_slot: usize,
    /// Nodes the last query expanded.
    pub(crate) expanded: u32,
}

impl OptimalScratch {
    /// Starts a query over `vertices` vertices.
    fn begin(&mut self, vertices: usize) {
        if self.root_g.len() < vertices {
            self.root_g.resize(vertices, 0.0);
            self.root_parent.resize(vertices, START);
        }
        self.root_seen.clear(vertices);
        self.nodes.clear();
        self.open.clear();
        self.successors.clear();
        self.expanded = 0;
    }
}

/// Which side of an interval.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

/// One query's search; `LINKS`: whether the mesh has links (the search without is compiled
/// apart, so that links cost nothing where there are none).
struct Search<'a, const LINKS: bool> {
    mesh: &'a NavMesh,
    from: Point,
    to: Point,
    goals: &'a [TriangleId],
    scratch: &'a mut OptimalScratch,
    /// The pocket triangles this query may enter.
    pass: &'a PocketPass,
    /// The length of the shortest path to the goal found so far (a final node in the open
    /// list): nodes that cannot beat it are dropped.
    best_length: f64,
    /// The most nodes the search may expand.
    budget: u32,
    /// The number of vertices: ids from here on are link ends (`vertices + 2 d` the start of
    /// directed link `d`, `+ 1` its end).
    vertices: u32,
}

impl NavMesh {
    /// Whether corner `k` (0..3) of triangle `t` is a turning corner: a boundary vertex whose
    /// fan containing `t` spans more than a half turn.
    #[inline]
    fn is_turning(&self, t: TriangleId, k: usize) -> bool {
        self.search_flags[t.index()] & (1 << k) != 0
    }

    /// The exact shortest path from `from` (in every triangle of `starts`) to `to` (in every
    /// triangle of `goals`; the two sets do not meet), written into `points`, expanding at
    /// most `budget` nodes. When the budget runs out first and `partial` is set, `points` gets
    /// the partial path towards the most promising node (see [`Search::write_partial_path`]).
    pub(crate) fn search_optimal(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        (budget, partial): (u32, bool),
        (scratch, pass): (&mut OptimalScratch, &PocketPass),
        out: &mut Path,
    ) -> SearchEnd {
        if self.has_links() {
            self.search_optimal_with::<true>(
                (from, starts),
                (to, goals),
                (budget, partial),
                (scratch, pass),
                out,
            )
        } else {
            self.search_optimal_with::<false>(
                (from, starts),
                (to, goals),
                (budget, partial),
                (scratch, pass),
                out,
            )
        }
    }

    /// [`NavMesh::search_optimal`], with or without links.
    fn search_optimal_with<const LINKS: bool>(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        (budget, partial): (u32, bool),
        (scratch, pass): (&mut OptimalScratch, &PocketPass),
        out: &mut Path,
    ) -> SearchEnd {
        let vertices = self.vertices().len();
        scratch.begin(vertices + if LINKS { 2 * self.links.directed.len() } else { 0 });
        if LINKS {
            self.link_estimates((to, goals), (pass, 0.0), &mut scratch.link_work);
            let slots = vertices + 2 * self.links.directed.len() + 1;
            scratch.link_bound_seen.clear(slots);
            scratch.start_slot = slots - 1;
            if scratch.root_link_bound.len() < slots {
                scratch.root_link_bound.resize(slots, 0.0);
            }
        }
        let mut search: Search<'_, LINKS> = Search {
            mesh: self,
            from,
            to,
            goals,
            scratch,
            pass,
            best_length: f64::INFINITY,
            budget,
            vertices: vertices as u32,
        };
        if LINKS {
            // With links, start and goal may share a triangle and still be joined by a
            // cheaper way through links.
            if starts.iter().any(|t| goals.contains(t)) {
                search.push_final(START, from.distance(to));
            }
            for &start in starts {
                for d in self.links.starting_in(start) {
                    search.take_link(START, 0.0, d);
                }
            }
        }
        for &start in starts {
            let tri = self.triangles()[start.index()];
            for e in 0..3 {
                let (a, b) = (tri[e].0, tri[(e + 1) % 3].0);
                // An edge through the start is seen edge-on: the triangle across holds the
                // start too, and searches from there.
                let next = self.neighbours(start)[e];
                if next.is_none()
                    || !pass.allows(self, next)
                    || orient(search.point(a), search.point(b), from) == Orientation::Collinear
                {
                    continue;
                }
                let crossing = HalfEdge::new(start, e);
                let node = Node { g: 0.0, root: START, left: [START, b], right: [START, a], crossing };
                search.scratch.successors.push(node);
            }
        }
        search.push_successors();
        while let Some(entry) = search.scratch.open.pop() {
            let node = search.scratch.nodes[entry.item as usize];
            if node.crossing == FINAL {
                search.write_path(node.root, to, out);
                return SearchEnd::Found;
            }
            if search.is_stale(&node) {
                continue;
            }
            let expanded = if LINKS && node.crossing == LINK {
                search.expand_link_end(node)
            } else {
                search.expand_chain(node)
            };
            if !expanded {
                if partial {
                    search.write_partial_path(out);
                }
                return SearchEnd::Exhausted;
            }
        }
        SearchEnd::Unreachable
    }
}

impl<const LINKS: bool> Search<'_, LINKS> {
    /// The position of a root or line point: the start, a vertex, or (with links) a link end.
    #[inline]
    fn point(&self, id: u32) -> Point {
        if id == START {
            self.from
        } else if LINKS && id >= self.vertices {
            let k = id - self.vertices;
            let link = &self.mesh.links.directed[(k / 2) as usize];
            if k.is_multiple_of(2) { link.from } else { link.to }
        } else {
            self.mesh.vertices()[id as usize]
        }
    }

    /// A lower bound on the cost from root `root` to the goal: the straight way, or with links
    /// the least a way through a link costs from there, whichever is smaller.
    #[inline]
    fn bound_from(&mut self, root: u32) -> f64 {
        let straight = self.point(root).distance(self.to);
        if LINKS { straight.min(self.link_bound_from(root)) } else { straight }
    }

    /// The least a way through a link costs from root `root` (computed once per root).
    fn link_bound_from(&mut self, root: u32) -> f64 {
        let slot = if root == START { self.scratch.start_slot } else { root as usize };
        if self.scratch.link_bound_seen.contains(slot) {
            return self.scratch.root_link_bound[slot];
        }
        let bound = self.mesh.through_links(self.point(root), &self.scratch.link_work.estimates);
        self.scratch.link_bound_seen.insert(slot);
        self.scratch.root_link_bound[slot] = bound;
        bound
    }

    /// Takes directed link `d`, whose start `root` (at distance `g`) sees: records the start
    /// and the end as roots when this is the cheapest way to them found so far, and puts the
    /// end on the open list.
    fn take_link(&mut self, root: u32, g: f64, d: u32) {
        let link = self.mesh.links.directed[d as usize];
        let start_id = self.vertices + 2 * d;
        let g_start = g + self.point(root).distance(link.from);
        if !self.improve(start_id, g_start, root) {
            return;
        }
        let g_end = g_start + link.cost;
        if !self.improve(start_id + 1, g_end, start_id) {
            return;
        }
        let f = g_end + self.bound_from(start_id + 1);
        if f < self.best_length {
            let node =
                Node { g: g_end, root: start_id + 1, left: [START; 2], right: [START; 2], crossing: LINK };
            self.push(node, f);
        }
    }

    /// Records `g` as the distance to link point `id`, reached from `parent`, if it is less
    /// than the one known.
    fn improve(&mut self, id: u32, g: f64, parent: u32) -> bool {
        let s = &mut *self.scratch;
        let k = id as usize;
        if s.root_seen.contains(k) && s.root_g[k] <= g {
            return false;
        }
        s.root_seen.insert(k);
        s.root_g[k] = g;
        s.root_parent[k] = parent;
        true
    }

    /// Expands a node whose root is a link's end: searches from the end as from the start
    /// (the goal or further links in its triangles, the nodes through their edges). False
    /// when the budget ran out first.
    fn expand_link_end(&mut self, node: Node) -> bool {
        if self.scratch.expanded == self.budget {
            self.scratch.nodes.push(node);
            return false;
        }
        self.scratch.expanded += 1;
        let mesh = self.mesh;
        let end = node.root;
        let d = (end - self.vertices) / 2;
        let at = self.point(end);
        for &t in mesh.links.end_triangles(d) {
            // An end on excluded ground is left only through its allowed triangles.
            if self.pass.excludes(mesh, t) {
                continue;
            }
            if self.goals.contains(&t) {
                self.push_final(end, node.g + at.distance(self.to));
            }
            for next_link in mesh.links.starting_in(t) {
                self.take_link(end, node.g, next_link);
            }
            let tri = mesh.triangles()[t.index()];
            for e in 0..3 {
                let (a, b) = (tri[e].0, tri[(e + 1) % 3].0);
                let next = mesh.neighbours(t)[e];
                if next.is_none()
                    || !self.pass.allows(mesh, next)
                    || orient(self.point(a), self.point(b), at) == Orientation::Collinear
                {
                    continue;
                }
                let crossing = HalfEdge::new(t, e);
                self.scratch.successors.push(Node {
                    g: node.g,
                    root: end,
                    left: [end, b],
                    right: [end, a],
                    crossing,
                });
            }
        }
        self.push_successors();
        true
    }

    /// Which side of `line` the point `p` lies on (exact).
    #[inline]
    fn side(&self, line: [u32; 2], p: Point) -> Orientation {
        orient(self.point(line[0]), self.point(line[1]), p)
    }

    /// Whether a better route to the node's root has been found since it was made.
    fn is_stale(&self, node: &Node) -> bool {
        node.root != START && node.g > self.scratch.root_g[node.root as usize] * (1.0 + ROOT_SLACK)
    }

    /// Makes vertex `corner` a root reached straight from `node`'s root: records its distance
    /// from the start and returns it, or `None` when a clearly shorter route to it is already
    /// known (the caller then drops what it found).
    fn reach_root(&mut self, node: &Node, corner: u32) -> Option<f64> {
        let g = node.g + self.point(node.root).distance(self.point(corner));
        let s = &mut *self.scratch;
        let k = corner as usize;
        if s.root_seen.contains(k) {
            if g > s.root_g[k] * (1.0 + ROOT_SLACK) {
                return None;
            }
            if g >= s.root_g[k] {
                return Some(g);
            }
        }
        s.root_seen.insert(k);
        s.root_g[k] = g;
        s.root_parent[k] = node.root;
        Some(g)
    }

    /// Expands `node`, and while it has a single successor of the same root, that successor in
    /// turn; the last successors go to the open list. False when the budget ran out first
    /// (the node left unexpanded is kept in the arena, for the partial path).
    fn expand_chain(&mut self, mut node: Node) -> bool {
        loop {
            if self.scratch.expanded == self.budget {
                self.scratch.successors.clear();
                self.scratch.nodes.push(node);
                return false;
            }
            self.scratch.expanded += 1;
            self.scratch.successors.clear();
            self.expand(&node);
            match self.scratch.successors[..] {
                [next] if next.root == node.root => {
                    // Cheap bound: the straight distance from the root to the goal.
                    if next.g + self.bound_from(next.root) >= self.best_length {
                        self.scratch.successors.clear();
                        break;
                    }
                    node = next;
                }
                _ => break,
            }
        }
        self.push_successors();
        true
    }

    /// Moves the successors to the node arena and the open list, with f = g + h.
    fn push_successors(&mut self) {
        for k in 0..self.scratch.successors.len() {
            let node = self.scratch.successors[k];
            let h = self.heuristic(&node);
            let f = node.g + if LINKS { h.min(self.link_bound_from(node.root)) } else { h };
            if f < self.best_length {
                self.push(node, f);
            }
        }
        self.scratch.successors.clear();
    }

    /// Stores `node` and puts it on the open list with priority `f`.
    fn push(&mut self, node: Node, f: f64) {
        let s = &mut *self.scratch;
        let item = s.nodes.len() as u32;
        s.nodes.push(node);
        s.open.push(OpenNode { f_bits: f.to_bits(), item });
    }

    /// A final node: the goal seen from `root`, `length` from the start.
    fn push_final(&mut self, root: u32, length: f64) {
        if length < self.best_length {
            self.best_length = length;
            let node = Node { g: length, root, left: [START; 2], right: [START; 2], crossing: FINAL };
            self.push(node, length);
        }
    }

    /// The successors of `node` in the triangle it enters.
    fn expand(&mut self, node: &Node) {
        let mesh = self.mesh;
        let (behind, e) = (node.crossing.triangle(), node.crossing.edge());
        let here = mesh.neighbours(behind)[e];
        let p_id = mesh.triangles()[behind.index()][(e + 1) % 3];
        let tri = mesh.triangles()[here.index()];
        // Corners of `here`: p (left end of the entry edge), q (right end), v (opposite).
        let i = tri.iter().position(|&v| v == p_id).expect("neighbours share their edge");
        let (qi, vi) = ((i + 1) % 3, (i + 2) % 3);
        let (p, q, v) = (tri[i].0, tri[qi].0, tri[vi].0);
        let (p_at, q_at, v_at) = (self.point(p), self.point(q), self.point(v));
        // Whether the interval ends exactly at a turning corner.
        let left_corner = self.corner_turns(here, i) && self.side(node.left, p_at) == Orientation::Collinear;
        let right_corner =
            self.corner_turns(here, qi) && self.side(node.right, q_at) == Orientation::Collinear;
        if self.goals.contains(&here) {
            self.reach_goal(node, (p, left_corner), (q, right_corner));
        }
        if LINKS {
            for d in mesh.links.starting_in(here) {
                let from = mesh.links.directed[d as usize].from;
                if let Some((root, g)) = self.sight(node, from, (p, left_corner), (q, right_corner)) {
                    self.take_link(root, g, d);
                }
            }
        }
        let v_left = self.side(node.left, v_at);
        let v_right = self.side(node.right, v_at);
        if v_left == Orientation::Clockwise && v_right == Orientation::CounterClockwise {
            // v inside the interval's cone: both far edges are seen, split at v.
            self.successor(node.root, node.g, node.left, node.right, here, vi);
            self.successor(node.root, node.g, node.left, node.right, here, qi);
        } else if v_left != Orientation::Clockwise {
            // v left of (or on) the left line: only the far edge q-v is seen.
            self.successor(node.root, node.g, node.left, node.right, here, qi);
            if left_corner {
                self.turn(node, here, i, Side::Left, v_left == Orientation::CounterClockwise);
            }
        } else {
            // v right of (or on) the right line: only the far edge v-p is seen.
            self.successor(node.root, node.g, node.left, node.right, here, vi);
            if right_corner {
                self.turn(node, here, qi, Side::Right, v_right == Orientation::Clockwise);
            }
        }
    }

    /// Whether corner `k` of triangle `t` is a turning corner for this query: one of the mesh
    /// (flagged at load), or, with excluded types, any corner whose fan holds an excluded
    /// triangle. Those are walls to the query, and the corners they make may turn; flagging
    /// every such corner (reflex or not) keeps the search exact, a corner that is not reflex
    /// only adding nodes that never lead to a shorter path.
    #[inline(always)]
    fn corner_turns(&self, t: TriangleId, k: usize) -> bool {
        self.mesh.is_turning(t, k) || (self.pass.has_exclusions() && self.touches_excluded(t, k))
    }

    /// Whether the fan of corner `k` of triangle `t` (the triangles joined to `t` across edges
    /// at that corner) holds an excluded triangle. (Kept out of line: only queries that exclude
    /// a type call it, and inlined it slowed the plain search.)
    #[cold]
    #[inline(never)]
    fn touches_excluded(&self, t: TriangleId, k: usize) -> bool {
        self.fan_holds(t, k, |next| self.pass.excludes(self.mesh, next))
    }

    /// Whether the fan of corner `k` of triangle `t` holds a triangle of another layer than
    /// `t`'s: the corner is on a portal.
    #[cold]
    #[inline(never)]
    fn fan_spans_layers(&self, t: TriangleId, k: usize) -> bool {
        let layer = self.mesh.triangle_layer(t);
        self.fan_holds(t, k, |next| self.mesh.triangle_layer(next) != layer)
    }

    /// Whether a triangle of the fan of corner `k` of triangle `t` (the triangles joined to `t`
    /// across edges at that corner, `t` left out) is `wanted`.
    fn fan_holds(&self, t: TriangleId, k: usize, wanted: impl Fn(TriangleId) -> bool) -> bool {
        let mesh = self.mesh;
        let v = mesh.triangles()[t.index()][k];
        // Edge k leaves the corner, edge k + 2 arrives at it: one walk each way.
        for leaving in [true, false] {
            let (mut cur, mut c) = (t, k);
            for _ in 0..mesh.triangle_count() {
                let next = mesh.neighbours(cur)[if leaving { c } else { (c + 2) % 3 }];
                if next.is_none() {
                    break;
                }
                if next == t {
                    return false;
                }
                if wanted(next) {
                    return true;
                }
                cur = next;
                c = mesh.triangles()[cur.index()]
                    .iter()
                    .position(|&w| w == v)
                    .expect("the fan shares the corner");
            }
        }
        false
    }

    /// Adds the successor of `root` through edge `k` of triangle `t`, between the lines `left`
    /// and `right` (tightened to the edge's ends where they lie inside), unless there is no
    /// triangle across or it is in a pocket the query has no business in.
    fn successor(&mut self, root: u32, g: f64, left: [u32; 2], right: [u32; 2], t: TriangleId, k: usize) {
        let mesh = self.mesh;
        let next = mesh.neighbours(t)[k];
        if next.is_none() {
            return;
        }
        if !self.pass.allows(mesh, next) {
            return;
        }
        let tri = mesh.triangles()[t.index()];
        // Seen from the root (on the left of edge k as `t` holds it), the edge's left end is
        // its vertex k + 1.
        let (a, b) = (tri[(k + 1) % 3].0, tri[k].0);
        let left = if self.side(left, self.point(a)) == Orientation::Clockwise { [root, a] } else { left };
        let right =
            if self.side(right, self.point(b)) == Orientation::CounterClockwise { [root, b] } else { right };
        self.scratch.successors.push(Node { g, root, left, right, crossing: HalfEdge::new(t, k) });
    }

    /// The node's interval ends at turning corner `k` of triangle `here`, on `side`: the region
    /// behind the corner, hidden from the node's root, is searched from the corner. `shadow`:
    /// whether that region reaches into `here` itself (the line continues through it).
    fn turn(&mut self, node: &Node, here: TriangleId, k: usize, side: Side, shadow: bool) {
        let mesh = self.mesh;
        let tri = mesh.triangles()[here.index()];
        let corner = tri[k].0;
        let Some(g) = self.reach_root(node, corner) else {
            return;
        };
        let corner_at = self.point(corner);
        let line = if side == Side::Left { node.left } else { node.right };
        // The hidden part of the edge opposite the corner, between the node's line (through
        // the corner) and the corner's edge to the opposite vertex.
        if shadow {
            let (left, right) = match side {
                Side::Left => ([corner, tri[(k + 2) % 3].0], line),
                Side::Right => (line, [corner, tri[(k + 1) % 3].0]),
            };
            self.successor(corner, g, left, right, here, (k + 1) % 3);
        }
        // The fan triangles beyond, rotating away from the root (counter-clockwise around a
        // left corner, clockwise around a right one) up to a half turn past the line: beyond
        // it the root sees the fan itself. Not so round a vertex whose fan spans two layers (a
        // portal's end, whose fan may sweep more than a full turn): past the half turn the
        // fan lies over the root's side in x, y but on another layer, which a straight line
        // from the root does not reach (the strip of an upper floor over the room below), so
        // the walk goes on to the fan's end.
        let (mut t, mut edge) = (here, if side == Side::Left { (k + 2) % 3 } else { k });
        let mut first = true;
        let mut spans_layers = None;
        loop {
            let next = mesh.neighbours(t)[edge];
            if next.is_none() || next == here || self.pass.excludes(mesh, next) {
                break;
            }
            let around = mesh.triangles()[next.index()];
            let j = around.iter().position(|&w| w.0 == corner).expect("the fan shares the corner");
            let (x, y) = (around[(j + 1) % 3].0, around[(j + 2) % 3].0);
            let (leading, hidden) = match side {
                Side::Left => (x, Orientation::CounterClockwise),
                Side::Right => (y, Orientation::Clockwise),
            };
            if !first
                && self.side(line, self.point(leading)) != hidden
                && !(self.mesh.is_layered()
                    && *spans_layers.get_or_insert_with(|| self.fan_spans_layers(here, k)))
            {
                break;
            }
            first = false;
            if self.goals.contains(&next) {
                self.push_final(corner, g + corner_at.distance(self.to));
            }
            if LINKS {
                for d in mesh.links.starting_in(next) {
                    self.take_link(corner, g, d);
                }
            }
            self.successor(corner, g, [corner, y], [corner, x], next, (j + 1) % 3);
            (t, edge) = (next, if side == Side::Left { (j + 2) % 3 } else { j });
        }
    }

    /// The node enters a triangle holding the goal: the goal is reached straight from the root
    /// when the interval's cone holds it, or around a turning corner the interval ends at.
    fn reach_goal(&mut self, node: &Node, corners: (u32, bool), corners_right: (u32, bool)) {
        if let Some((root, g)) = self.sight(node, self.to, corners, corners_right) {
            self.push_final(root, g + self.point(root).distance(self.to));
        }
    }

    /// The root that sees `target` (a point of the triangle the node enters), with its
    /// distance from the start: the node's root when the interval's cone holds the target,
    /// or a turning corner the interval ends at, made a root, when the target is behind it.
    fn sight(
        &mut self,
        node: &Node,
        target: Point,
        (p, left_corner): (u32, bool),
        (q, right_corner): (u32, bool),
    ) -> Option<(u32, f64)> {
        let left = self.side(node.left, target);
        let right = self.side(node.right, target);
        let via = if left != Orientation::CounterClockwise
            && right != Orientation::Clockwise
            && (!self.mesh.is_layered() || self.ahead(node, target))
        {
            return Some((node.root, node.g));
        } else if left == Orientation::CounterClockwise && left_corner {
            p
        } else if right == Orientation::Clockwise && right_corner {
            q
        } else {
            return None;
        };
        self.reach_root(node, via).map(|g| (via, g))
    }

    /// Whether `target`, in the cone of `node`, lies ahead of its root: not on the root's side
    /// of the edge the node crosses (exact). Always so on one floor, where the triangle the
    /// node enters lies beyond that edge; where layers overlap, a fan round a portal's end may
    /// sweep more than a full turn, and a cone squeezed to a ray through that vertex then also
    /// holds the points behind its root, in the same place on the other layer.
    fn ahead(&self, node: &Node, target: Point) -> bool {
        let (a, b) = self.crossing_ends(node.crossing);
        let (a, b) = (self.point(a), self.point(b));
        let there = orient(a, b, target);
        there == Orientation::Collinear || there != orient(a, b, self.point(node.root))
    }

    /// A lower bound on the length of any path through `node` to the goal, minus its g: from
    /// the root through the interval to the goal (mirrored across the edge when on the root's
    /// side of it). Floating point: a bound, never a decision.
    fn heuristic(&self, node: &Node) -> f64 {
        let ends = self.crossing_ends(node.crossing);
        let (a, b) = (self.point(ends.0), self.point(ends.1));
        let root = self.point(node.root);
        let left = self.crossing_point(node.left, ends, Side::Left);
        let right = self.crossing_point(node.right, ends, Side::Right);
        // The root is on the left of b -> a; a goal on that side is mirrored to the other.
        let mut goal = self.to;
        if cross(b, a, goal) > 0.0 {
            let (dx, dy) = (a.x - b.x, a.y - b.y);
            let s = ((goal.x - b.x) * dx + (goal.y - b.y) * dy) / (dx * dx + dy * dy);
            let foot = Point::new(b.x + s * dx, b.y + s * dy);
            goal = Point::new(2.0 * foot.x - goal.x, 2.0 * foot.y - goal.y);
        }
        if cross(root, left, goal) > 0.0 {
            root.distance(left) + left.distance(goal)
        } else if cross(root, right, goal) < 0.0 {
            root.distance(right) + right.distance(goal)
        } else {
            root.distance(goal)
        }
    }

    /// Where `line` crosses the edge from vertex `a` to vertex `b`, as a point of the edge: the
    /// vertex itself when the line passes through it, otherwise rounded outwards (towards `a`
    /// for the interval's left line, `b` for its right one) by the computation's error bound,
    /// so that the interval never shrinks and the heuristic stays a lower bound even where the
    /// line runs nearly parallel to the edge.
    fn crossing_point(&self, line: [u32; 2], (a_id, b_id): (u32, u32), side: Side) -> Point {
        let (a, b) = (self.point(a_id), self.point(b_id));
        if line.contains(&a_id) {
            return a;
        }
        if line.contains(&b_id) {
            return b;
        }
        let (c, d) = (self.point(line[0]), self.point(line[1]));
        let (ux, uy) = (d.x - c.x, d.y - c.y);
        let (ex, ey) = (a.x - b.x, a.y - b.y);
        let (ax, ay) = (a.x - c.x, a.y - c.y);
        let denominator = ux * ey - uy * ex;
        let numerator = ux * ay - uy * ax;
        // Each product above is off by at most a few ulps of its size.
        let length = ux.hypot(uy);
        let error = 8.0 * f64::EPSILON * length * (ex.hypot(ey) + ax.hypot(ay));
        let s = if denominator.abs() <= 2.0 * error {
            if side == Side::Left { 0.0 } else { 1.0 }
        } else {
            let s = numerator / denominator;
            let slack = error * (1.0 + s.abs()) / (denominator.abs() - error);
            if side == Side::Left { s - slack } else { s + slack }
        }
        .clamp(0.0, 1.0);
        Point::new(a.x + s * (b.x - a.x), a.y + s * (b.y - a.y))
    }

    /// The ends of the edge `crossing` crosses: its left end as seen from the root, then its
    /// right end.
    fn crossing_ends(&self, crossing: HalfEdge) -> (u32, u32) {
        let (tri, e) = (self.mesh.triangles()[crossing.triangle().index()], crossing.edge());
        (tri[(e + 1) % 3].0, tri[e].0)
    }

    /// After the budget ran out: writes the path to the goal through the best final node
    /// found (a path not yet proven the shortest), or else to the point nearest the goal of
    /// the interval nearest the goal among all nodes made, seen straight from its root (or
    /// nowhere, when no interval comes nearer the goal than the start). The
    /// interval's ends are rounded inwards here, so that its root sees the point; when the
    /// rounding leaves nothing, the path ends at the root.
    fn write_partial_path(&self, out: &mut Path) {
        let nodes = &self.scratch.nodes;
        if let Some(last) = nodes.iter().filter(|n| n.crossing == FINAL).min_by(|a, b| a.g.total_cmp(&b.g)) {
            return self.write_path(last.root, self.to, out);
        }
        // Never farther from the goal than the start.
        let mut best = (self.from.distance(self.to), START, self.from);
        for node in nodes {
            if node.crossing == LINK {
                // A link's end, reached: a point the path can end at.
                let d = self.point(node.root).distance(self.to);
                if d < best.0 {
                    best = (d, node.root, self.point(node.root));
                }
                continue;
            }
            let ends = self.crossing_ends(node.crossing);
            // Inwards: the left line's crossing towards the right end, and the other way round.
            let left = self.crossing_point(node.left, ends, Side::Right);
            let right = self.crossing_point(node.right, ends, Side::Left);
            let root = self.point(node.root);
            let end = if self.point(ends.0).distance(left) <= self.point(ends.0).distance(right) {
                closest_point_on_segment(self.to, left, right)
            } else {
                root
            };
            let d = end.distance(self.to);
            if d < best.0 {
                best = (d, node.root, end);
            }
        }
        self.write_path(best.1, best.2, out);
    }

    /// Writes the path from the start through `root` and the chain of its best parents to
    /// `end`, which `root` sees, without repeated points or turns of exactly zero (see
    /// [`tidy_path`]), marking the links taken.
    fn write_path(&self, root: u32, end: Point, out: &mut Path) {
        let (points, steps) = (&mut out.points, &mut out.links);
        points.clear();
        steps.clear();
        points.push(end);
        let mut r = root;
        while r != START {
            points.push(self.point(r));
            let parent = self.scratch.root_parent[r as usize];
            if LINKS && r >= self.vertices && (r - self.vertices) % 2 == 1 {
                // A link's end, reached from its start (the next point, counted from the end).
                let link = self.mesh.links.directed[((r - self.vertices) / 2) as usize].link;
                steps.push(LinkStep { point: points.len(), link });
            }
            r = parent;
        }
        points.push(self.from);
        points.reverse();
        let n = points.len();
        steps.reverse();
        for step in steps.iter_mut() {
            step.point = n - 1 - step.point;
        }
        tidy_path(points, steps);
    }
}

/// Twice the signed area of `o a b` in floating point (positive: `b` left of `o -> a`).
#[inline]
fn cross(o: Point, a: Point, b: Point) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// Per triangle `t`: bit `k` (0..3) when corner `k` is a turning corner, a boundary vertex whose
/// fan of triangles (joined through the edges at that vertex) spans more than a half turn
/// (shortest paths turn only at such corners).
///
/// A fan runs counter-clockwise from a boundary edge leaving its vertex to a boundary edge
/// entering it, so a vertex with a single boundary edge leaving it (nearly all of them) has a
/// single fan, bounded by its only boundary edges out and in: one exact orientation test
/// decides, with no walk. Vertices with several fans (pinch points) walk each fan from its
/// first triangle.
pub(crate) fn search_flags(
    vertices: &[Point],
    triangles: &[[crate::ids::VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
) -> Vec<u8> {
    const NONE: u32 = u32::MAX;
    const PINCH: u32 = u32::MAX - 1;
    // The boundary edges first, appended without a branch (whether an edge is on the boundary
    // follows no pattern a branch could predict), then one pass over them alone.
    let mut boundary = vec![[0u32; 2]; triangles.len() * 3 + 1];
    let mut count = 0;
    for (tri, links) in triangles.iter().zip(neighbours) {
        for e in 0..3 {
            boundary[count] = [tri[e].0, tri[(e + 1) % 3].0];
            count += usize::from(links[e].is_none());
        }
    }
    boundary.truncate(count);
    // Per vertex: where its boundary edge leaves to (`PINCH` when several leave it), and where
    // the last one entering it comes from.
    let mut leaves_to = vec![NONE; vertices.len()];
    let mut enters_from = vec![NONE; vertices.len()];
    for &[a, b] in &boundary {
        let (a, b) = (a as usize, b as usize);
        leaves_to[a] = if leaves_to[a] == NONE { b as u32 } else { PINCH };
        enters_from[b] = a as u32;
    }
    drop(boundary);
    // Per vertex: whether its one fan turns (a vertex with one boundary edge leaving it turns
    // when the fan spans more than a half turn), or `AT_PINCH`.
    const AT_PINCH: u8 = 2;
    let turning: Vec<u8> = (leaves_to.iter().zip(&enters_from).zip(vertices))
        .map(|((&out, &last), &pa)| match out {
            NONE => 0,
            PINCH => AT_PINCH,
            _ => u8::from(
                orient(pa, vertices[out as usize], vertices[last as usize]) == Orientation::Clockwise,
            ),
        })
        .collect();
    drop((leaves_to, enters_from));
    // The flags of one-fan vertices; the boundary edges leaving pinch points, for below.
    let mut pinch_edges: Vec<(u32, u8)> = Vec::new();
    let mut flags: Vec<u8> = (triangles.iter().zip(neighbours).enumerate())
        .map(|(t, (tri, links))| {
            let [a, b, c] = tri.map(|v| turning[v.index()]);
            if (a | b | c) & AT_PINCH != 0 {
                for (k, code) in [a, b, c].into_iter().enumerate() {
                    if code == AT_PINCH && links[k].is_none() {
                        pinch_edges.push((t as u32, k as u8));
                    }
                }
            }
            (a & 1) | (b & 1) << 1 | (c & 1) << 2
        })
        .collect();
    let mut fan: Vec<(u32, u8)> = Vec::new();
    for (t, e) in pinch_edges {
        // Boundary edge a -> b leaving a pinch point: triangle t is the clockwise-most of one
        // of a's fans. Walk it counter-clockwise to its other boundary edge a -> last,
        // remembering the corners.
        let (t, e) = (t as usize, e as usize);
        let (a, first_direction) = (triangles[t][e], triangles[t][(e + 1) % 3]);
        fan.clear();
        let (cur, k) = walk_fan(triangles, neighbours, t, e, |cur, k| fan.push((cur as u32, k as u8)));
        let last_direction = triangles[cur][(k + 2) % 3];
        let [pa, pf, pl] = [a, first_direction, last_direction].map(|v| vertices[v.index()]);
        if orient(pa, pf, pl) == Orientation::Clockwise {
            for &(c, k) in &fan {
                flags[c as usize] |= 1 << k;
            }
        }
    }
    flags
}

/// Walks the fan of vertex `a = triangles[t][e]` counter-clockwise from triangle `t`, whose
/// edge `e` leaves `a` on the boundary, to its last triangle (whose edge arriving at `a` is on
/// the boundary), calling `visit(triangle, corner)` on each on the way; returns the last.
pub(crate) fn walk_fan(
    triangles: &[[crate::ids::VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
    t: usize,
    e: usize,
    mut visit: impl FnMut(usize, usize),
) -> (usize, usize) {
    let a = triangles[t][e];
    let (mut cur, mut k) = (t, e);
    for _ in 0..triangles.len() {
        visit(cur, k);
        let next = neighbours[cur][(k + 2) % 3];
        if next.is_none() {
            break;
        }
        cur = next.index();
        k = triangles[cur].iter().position(|&w| w == a).expect("the fan shares the vertex");
    }
    (cur, k)
}

/// The turning-corner bits [`search_flags`] gives the corners at vertex `v`, for a mesh changed
/// in place: `incident` lists every (triangle, corner) at `v` (any order). Sets `bits` to one
/// bit per entry of `incident`, in its order: the same decision as the whole-mesh pass (one
/// boundary edge leaving `v`: the fan turns clockwise from it to the one arriving; several, at a
/// pinch: each fan decided on its own by walking it).
pub(crate) fn vertex_turning(
    vertices: &[Point],
    triangles: &[[crate::ids::VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
    v: crate::ids::VertexId,
    incident: &[(TriangleId, u8)],
    bits: &mut Vec<bool>,
) {
    bits.clear();
    bits.resize(incident.len(), false);
    let leaving = || {
        (incident.iter())
            .filter(|&&(t, k)| neighbours[t.index()][k as usize].is_none())
            .map(|&(t, k)| (t, k as usize))
    };
    let mut boundary = leaving();
    let Some((t, k)) = boundary.next() else { return };
    if boundary.next().is_none() {
        let out_to = triangles[t.index()][(k + 1) % 3];
        let in_from = (incident.iter())
            .find(|&&(u, j)| neighbours[u.index()][(j as usize + 2) % 3].is_none())
            .map(|&(u, j)| triangles[u.index()][(j as usize + 2) % 3])
            .expect("a vertex with a boundary edge leaving it has one arriving");
        let [pv, pf, pl] = [v, out_to, in_from].map(|i| vertices[i.index()]);
        bits.fill(orient(pv, pf, pl) == Orientation::Clockwise);
        return;
    }
    // Each fan counter-clockwise from its clockwise-most triangle `t` (corner `k` at `v`), as
    // the whole-mesh pass walks it at a pinch.
    for (t, k) in leaving() {
        let first_direction = triangles[t.index()][(k + 1) % 3];
        let (cur, corner) = walk_fan(triangles, neighbours, t.index(), k, |_, _| {});
        let last_direction = triangles[cur][(corner + 2) % 3];
        let [pv, pf, pl] = [v, first_direction, last_direction].map(|i| vertices[i.index()]);
        if orient(pv, pf, pl) == Orientation::Clockwise {
            walk_fan(triangles, neighbours, t.index(), k, |u, j| {
                for (bit, &(w, i)) in bits.iter_mut().zip(incident) {
                    *bit |= (w.index(), i as usize) == (u, j);
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::VertexId;
    use crate::topology::build_adjacency;

    #[test]
    fn flags_mark_the_reflex_corner_of_an_l() {
        // The L of [0, 2]² minus [1, 2]²: only (1, 1) is reflex (270° walkable).
        let vertices =
            [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)].map(|(x, y)| Point::new(x, y));
        let triangles = [[0, 1, 2], [0, 2, 3], [0, 3, 5], [3, 4, 5]].map(|t| t.map(VertexId));
        let neighbours = build_adjacency(&triangles, vertices.len()).unwrap();
        let flags = search_flags(&vertices, &triangles, &neighbours);
        // Vertex 3 is corner 2, 1 and 0 of triangles 1, 2 and 3.
        assert_eq!(flags, vec![0, 1 << 2, 1 << 1, 1]);
    }

    #[test]
    fn flags_are_the_fans_that_span_more_than_a_half_turn() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(875);
        let (mut turning, mut turning_at_pinches) = (0, 0);
        for round in 0..300 {
            // A quarter of the halves left out: pinch points with fans of more than a half turn.
            let (vertices, triangles) = crate::test_meshes::lattice_mesh(&mut rng, 2 + round % 9, 4);
            let neighbours = build_adjacency(&triangles, vertices.len()).unwrap();
            let flags = search_flags(&vertices, &triangles, &neighbours);
            // The oracle: the fans at each vertex as unions of corners joined across the edges
            // at that vertex, each fan's angle summed from its triangles' angles.
            let corner = |t: usize, k: usize| 3 * t + k;
            let k_of = |tri: &[VertexId; 3], v: VertexId| tri.iter().position(|&w| w == v).unwrap();
            let mut parent: Vec<usize> = (0..3 * triangles.len()).collect();
            fn root(parent: &mut [usize], mut x: usize) -> usize {
                while parent[x] != x {
                    x = parent[x];
                }
                x
            }
            for (t, tri) in triangles.iter().enumerate() {
                for (k, n) in neighbours[t].iter().enumerate() {
                    if n.is_none() {
                        continue;
                    }
                    // Edge k runs tri[k] -> tri[k + 1]: it joins the corners at both its ends.
                    for v in [tri[k], tri[(k + 1) % 3]] {
                        let a = root(&mut parent, corner(t, k_of(tri, v)));
                        let b = root(&mut parent, corner(n.index(), k_of(&triangles[n.index()], v)));
                        parent[a] = b;
                    }
                }
            }
            let mut angle = vec![0.0f64; parent.len()];
            let mut open = vec![false; parent.len()];
            let mut fans_at = std::collections::HashMap::<VertexId, std::collections::HashSet<usize>>::new();
            for (t, tri) in triangles.iter().enumerate() {
                for k in 0..3 {
                    let [p, q, r] = [tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]].map(|v| vertices[v.index()]);
                    let turn = ((r.y - p.y).atan2(r.x - p.x) - (q.y - p.y).atan2(q.x - p.x))
                        .rem_euclid(std::f64::consts::TAU);
                    let fan = root(&mut parent, corner(t, k));
                    angle[fan] += turn;
                    open[fan] |= neighbours[t][k].is_none() || neighbours[t][(k + 2) % 3].is_none();
                    fans_at.entry(tri[k]).or_default().insert(fan);
                }
            }
            // Each corner's flag is its fan's turn; turning fans at vertices with several fans
            // are counted once each.
            let mut counted = std::collections::HashSet::new();
            for (t, tri) in triangles.iter().enumerate() {
                for (k, v) in tri.iter().enumerate() {
                    let fan = root(&mut parent, corner(t, k));
                    let turns = open[fan] && angle[fan] > std::f64::consts::PI + 1e-9;
                    assert_eq!(flags[t] & (1 << k) != 0, turns, "round {round}: triangle {t} corner {k}");
                    turning += usize::from(turns);
                    turning_at_pinches += usize::from(turns && fans_at[v].len() > 1 && counted.insert(fan));
                }
            }
        }
        assert!(
            turning > 1000 && turning_at_pinches > 100,
            "turning corners {turning}, at pinch points {turning_at_pinches}"
        );
    }
}
