//! Paths for a disc agent (a radius above 0) under area costs or exclusions: a Steiner-point
//! search in the disc's free space, then shortcuts.
//!
//! The disc's centre must keep the radius `r` from every wall, and (with exclusions) from
//! every edge between ground it may enter and ground it may not: excluded ground is a wall to
//! it, as an obstacle inflated by `r` would be. The cost of a path is that of its centre's
//! way (length times the cost of the area under the centre), as for a point.
//!
//! The search's nodes lie in the free space only: on each edge between two triangles the
//! agent may enter, the ends of the parts at least `r` from every wall and evenly spaced
//! points inside them (twice as many as the weighted search puts on the edge; in fast mode
//! an eighth as many as it puts); round each corner where the walls turn away from the free space, the vertices of a
//! regular polygon circumscribed about the circle of radius `r` ([`OPTIMAL_SIDES`] sides, its
//! sides at most 1e-3 r outside the circle; [`FAST_SIDES`] in fast mode), and where its sides
//! cross edges. A step joins two nodes of one triangle (the triangle's cost times its length,
//! along an edge shared by two types the cheaper) when every wall near the triangle stays at
//! least `r` from it. A* over these nodes (estimate: straight distance times the smallest
//! cost, in fast mode twice that: [`FAST_ESTIMATE_WEIGHT`]) gives a valid path; then points are dropped while the straight segment past them
//! keeps the radius and costs no more (each such segment checked against every wall near it
//! and costed triangle by triangle). Triangles are opened (their walls gathered, their nodes
//! placed) only when the search reaches them.
//!
//! Bound: every step keeps at least `r` (up to rounding) from every wall and excluded edge.
//! The cost is within the Steiner spacing's error of the optimum: the tests hold optimal mode
//! within 1% of an independent oracle on average and 3% on every query (the level baked at
//! `r` with excluded ground as obstacles, and the weighted optimal search of a point on it),
//! and fast mode's mean within 5%.

use std::collections::BinaryHeap;
use std::f64::consts::PI;

use crate::clearance::{
    ClearanceScratch, DISC_TOLERANCE, boxes_apart, crossing_fraction, line_near_segment, segment_distance,
    segments_nearer,
};
use crate::geometry::{Aabb, Orientation, Point, closest_point_on_triangle, orient};
use crate::ids::TriangleId;
use crate::mesh::NavMesh;
use crate::query::path::search::OpenNode;
use crate::query::path::weighted::{canonical_edge, cheapest_on_edge, edge_ends, steiner_count};
use crate::query::path::{
    AreaCosts, Endpoint, GenerationSet, LinkStep, PartialReason, Path, PathError, PathMode, PathOptions,
    PathScratch,
};

/// Sides of the polygon standing for a corner's circle in optimal mode: its sides touch the
/// circle and its vertices are `1 / cos(pi / 72) - 1` (under 1e-3) of the radius outside it.
const OPTIMAL_SIDES: usize = 72;
/// The same in fast mode (vertices 0.4% of the radius outside the circle).
const FAST_SIDES: usize = 24;
/// Fast mode's estimate is the straight distance times the smallest cost times this (a
/// weighted A*: its path costs at most this times the cheapest over the same nodes, before
/// the shortcuts). Measured side by side (session 14; AR0304SR with roads at 0.5, mud 2,
/// water 3, r 0.45, 40 queries): weight 1 2,621 us p50 and 2,083 nodes, 2 1,647 us and 1,047
/// nodes at a mean cost 0.2% higher, 3 1,010 us and 607 nodes at 1.0% higher; on the oracle
/// test's levels (costs 0.5 to 3.5) the mean over the oracle went 0.9997 -> 1.0050 (2) ->
/// 1.0151 (3), the worst 1.07 -> 1.20 -> 1.58.
const FAST_ESTIMATE_WEIGHT: f64 = 2.0;
/// The start's node number.
const START: u32 = 0;
/// The goal's node number.
const GOAL: u32 = 1;
/// A node on no edge.
const NO_EDGE: u32 = u32::MAX;
/// No link.
const NO_LINK: u32 = u32::MAX;
/// The most triangles a snapped path end is kept in (a vertex's fan).
const SNAPPED_TRIANGLES: usize = 16;
/// The most shortcut sweeps over a path.
const SHORTCUT_SWEEPS: usize = 16;
/// The most refinement sweeps (points slid along their edges).
const REFINE_SWEEPS: usize = 32;
/// How many times a slide that brings a step too near a wall is halved before it is given up.
const MOVE_HALVINGS: usize = 8;
/// Bisection steps of a partial path's last straight piece towards the goal.
const STRAIGHT_ON_HALVINGS: usize = 30;
/// A refinement sweep that gains less than this fraction of the cost ends the refinement.
const SWEEP_GAIN: f64 = 1e-9;

/// A node of the search: where it is, the triangles it belongs to, and the edge (canonical
/// half-edge) it lies on.
#[derive(Clone, Copy, Debug)]
struct Node {
    at: Point,
    homes: [TriangleId; 2],
    edge: u32,
    /// Of a link's start or end node: the directed link (else [`NO_LINK`]).
    link: u32,
    /// Whether it is the link's end (entered by the link, left into its end's triangles).
    link_end: bool,
}

impl Node {
    /// A node at `at` in the triangles `homes`, on edge `edge`, of no link.
    fn on(at: Point, homes: [TriangleId; 2], edge: u32) -> Self {
        Node { at, homes, edge, link: NO_LINK, link_end: false }
    }
}

/// A triangle the search has opened: its nodes (ranges of node numbers) and the walls near it.
#[derive(Clone, Copy, Debug, Default)]
struct Opened {
    edges: [(u32, u32); 3],
    interior: (u32, u32),
    /// The start nodes of the links leaving from the triangle.
    links: (u32, u32),
    walls: (u32, u32),
    goal: bool,
}

/// Per-query state of the disc's weighted search (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub(crate) struct DiscWeightedScratch {
    nodes: Vec<Node>,
    g: Vec<f64>,
    parent: Vec<u32>,
    /// The triangle of the step into each node.
    via: Vec<TriangleId>,
    closed: Vec<bool>,
    open: BinaryHeap<OpenNode>,
    opened: GenerationSet,
    triangles: Vec<Opened>,
    edges_done: GenerationSet,
    edge_nodes: Vec<(u32, u32)>,
    walls: Vec<(Point, Point)>,
    /// Where the floor folds round a portal's end ([`NavMesh::layers_fold`]): the triangle
    /// each wall of `walls` is an edge of (else empty).
    wall_owners: Vec<TriangleId>,
    corners: Vec<Point>,
    /// The offsets of the corner polygons' vertices from their corner (one past the last: the
    /// first again).
    unit: Vec<(f64, f64)>,
    blocked: Vec<(f64, f64)>,
    along: Vec<f64>,
    /// Of each directed link whose nodes were made: its start and end nodes.
    link_nodes: GenerationSet,
    link_node: Vec<(u32, u32)>,
    /// Per opened triangle, the start nodes of its links (ranges in `Opened::links`).
    link_members: Vec<u32>,
    /// Of each path step: the directed link it takes, or [`NO_LINK`].
    step_link: Vec<u32>,
    /// The path read back: its nodes, goal first.
    read: Vec<u32>,
    /// Of each path step (from point k to k + 1): the triangle it starts in, and its cost.
    step_triangle: Vec<TriangleId>,
    step_cost: Vec<f64>,
    /// Of each path point: the edge (canonical half-edge) it may slide along, or [`NO_EDGE`].
    point_edge: Vec<u32>,
    clearance: ClearanceScratch,
}

/// The search over one query's nodes.
struct DiscSearch<'a> {
    mesh: &'a NavMesh,
    costs: &'a AreaCosts,
    /// The radius, and the reach a step must keep from walls (the radius less rounding).
    r: f64,
    reach: f64,
    /// The corner polygons' sides and the distance of their vertices from the corner.
    sides: usize,
    outer: f64,
    fast: bool,
    from: Point,
    to: Point,
    starts: &'a [TriangleId],
    goals: &'a [TriangleId],
    min_cost: f64,
    /// Whether layers overlap (a position may lie on several: shortcuts and slides must keep
    /// the path on its layers).
    overlap: bool,
    /// What the estimate is multiplied by: 1 in optimal mode (never overestimates),
    /// [`FAST_ESTIMATE_WEIGHT`] in fast mode.
    estimate_weight: f64,
    /// The least a way through a link can cost from anywhere (its cost and the straight way
    /// on from its end at the smallest cost; infinite without links).
    link_bound: f64,
}

impl NavMesh {
    /// The cheapest path (within the search's bound, see the module documentation) for a disc
    /// of `options.radius` from `from` (in `starts`) to `to` (in `goals`) under
    /// `options.area_costs`.
    pub(crate) fn route_disc_weighted(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let r = options.radius;
        let reach = r * (1.0 - DISC_TOLERANCE);
        // Ends nearer than r to excluded ground: an error, or with snapping the nearest point
        // with room on ground the agent may enter.
        let costs = &options.area_costs;
        let blocked = |n: TriangleId| costs.is_excluded(self.area_id(n));
        let w = &mut scratch.disc_weighted;
        let mut snapped = [[TriangleId::NONE; SNAPPED_TRIANGLES]; 2];
        let mut counts = [0; 2];
        let mut ends = [from, to];
        let mut goal_clear = true;
        for (k, (which, list)) in [(Endpoint::Start, starts), (Endpoint::Goal, goals)].into_iter().enumerate()
        {
            let point = ends[k];
            let clearance =
                list.first().map_or(0.0, |&t| self.clearance_beside(point, t, blocked, &mut w.clearance));
            if clearance >= reach {
                continue;
            }
            if options.snap {
                // On the end's layer (where layers overlap, its position may lie on several).
                let layer = list.first().filter(|_| self.is_layered()).map(|&t| self.triangle_layer(t));
                let (c, t) = self
                    .nearest_clear_point_beside(point, r, layer, blocked, &mut w.clearance)
                    .ok_or(PathError::Unreachable)?;
                ends[k] = c;
                let on_layer = |u: &TriangleId| layer.is_none_or(|l| self.triangle_layer(*u) == l);
                for (slot, u) in
                    snapped[k].iter_mut().zip(self.locate_all(c).filter(|&u| !blocked(u) && on_layer(&u)))
                {
                    *slot = u;
                    counts[k] += 1;
                }
                if counts[k] == 0 {
                    (snapped[k][0], counts[k]) = (t, 1);
                }
            } else if which == Endpoint::Goal && options.partial {
                // Head for the nearest point reached instead.
                goal_clear = false;
            } else {
                return Err(PathError::NoClearance { which, point, clearance, radius: r });
            }
        }
        let [from, to] = ends;
        let starts = if counts[0] > 0 { &snapped[0][..counts[0]] } else { starts };
        let goals = if counts[1] > 0 { &snapped[1][..counts[1]] } else { goals };
        // The estimate's factors: the smallest cost the agent may walk at, and the least a way
        // through a link costs to the (perhaps snapped) goal.
        let min_cost = costs.min_cost_of(self.area_mask());
        let link_bound = self.link_bound_walking(to, min_cost);
        let fast = options.mode == PathMode::Fast;
        let sides = if fast { FAST_SIDES } else { OPTIMAL_SIDES };
        let search = DiscSearch {
            mesh: self,
            costs: &options.area_costs,
            r,
            reach,
            sides,
            // A hair beyond r / cos(pi / n), so that the polygon's sides stay outside the circle.
            outer: r / (PI / sides as f64).cos() * (1.0 + 4.0 * f64::EPSILON),
            fast,
            from,
            to,
            starts,
            goals,
            min_cost,
            estimate_weight: if fast { FAST_ESTIMATE_WEIGHT } else { 1.0 },
            overlap: self.layers_overlap(),
            link_bound,
        };
        w.unit.clear();
        w.unit.extend((0..=sides).map(|j| {
            let (sin, cos) = (2.0 * PI * (j % sides) as f64 / sides as f64).sin_cos();
            (search.outer * cos, search.outer * sin)
        }));
        let budget = options.node_budget.unwrap_or(u32::MAX);
        let end = search.run(w, budget, goal_clear, &mut scratch.expanded);
        let last = match end {
            SearchEnd::Goal => GOAL,
            SearchEnd::Stopped(reason) if options.partial => {
                out.partial = Some(reason);
                search.nearest_reached(w)
            }
            SearchEnd::Stopped(PartialReason::BudgetExhausted) => {
                return Err(PathError::BudgetExhausted { budget });
            }
            SearchEnd::Stopped(_) => return Err(PathError::Unreachable),
        };
        search.read_path(w, last, &mut out.points);
        search.shortcut(w, &mut out.points);
        search.refine(w, &mut out.points);
        search.shortcut(w, &mut out.points);
        if out.partial.is_some() {
            search.straight_on(w, last, &mut out.points);
        }
        out.links.clear();
        out.length = 0.0;
        for (k, (p, &d)) in out.points.windows(2).zip(&w.step_link).enumerate() {
            match d {
                NO_LINK => out.length += p[0].distance(p[1]),
                d => out.links.push(LinkStep { point: k, link: self.links.directed[d as usize].link }),
            }
        }
        out.cost = w.step_cost.iter().sum();
        Ok(())
    }
}

/// How the search ended short of the goal, or that it found it.
enum SearchEnd {
    Goal,
    Stopped(PartialReason),
}

impl DiscSearch<'_> {
    /// Whether triangle `t` (a triangle, not none) is of a type the agent may not enter.
    fn blocked(&self, t: TriangleId) -> bool {
        self.costs.is_excluded(self.mesh.area_id(t))
    }

    /// Whether the agent may enter triangle `t`.
    fn allowed(&self, t: TriangleId) -> bool {
        !t.is_none() && !self.blocked(t)
    }

    /// The triangles node `u` (`node`) lies in and is left through.
    fn homes<'s>(&'s self, u: u32, node: &'s Node) -> &'s [TriangleId] {
        match u {
            START => self.starts,
            _ if node.link_end => self.mesh.links.end_triangles(node.link),
            _ => &node.homes,
        }
    }

    /// The cost per unit length of triangle `t`.
    fn cost(&self, t: TriangleId) -> f64 {
        self.costs.cost(self.mesh.area_id(t))
    }

    /// A new node (its search state reset).
    fn push_node(&self, w: &mut DiscWeightedScratch, node: Node) -> u32 {
        w.nodes.push(node);
        w.g.push(f64::INFINITY);
        w.parent.push(u32::MAX);
        w.via.push(TriangleId::NONE);
        w.closed.push(false);
        (w.nodes.len() - 1) as u32
    }

    /// A* from the start to the goal (`goal_clear`: the goal has room for the disc).
    fn run(
        &self,
        w: &mut DiscWeightedScratch,
        budget: u32,
        goal_clear: bool,
        expanded: &mut u32,
    ) -> SearchEnd {
        let mesh = self.mesh;
        w.nodes.clear();
        w.g.clear();
        w.parent.clear();
        w.via.clear();
        w.closed.clear();
        w.open.clear();
        w.walls.clear();
        w.wall_owners.clear();
        w.link_members.clear();
        w.opened.clear(mesh.triangle_count());
        w.edges_done.clear(3 * mesh.triangle_count());
        w.triangles.resize(mesh.triangle_count(), Opened::default());
        w.edge_nodes.resize(3 * mesh.triangle_count(), (0, 0));
        self.push_node(w, Node::on(self.from, [TriangleId::NONE; 2], NO_EDGE));
        self.push_node(w, Node::on(self.to, [TriangleId::NONE; 2], NO_EDGE));
        w.link_nodes.clear(mesh.links.directed.len());
        w.link_node.resize(mesh.links.directed.len(), (0, 0));
        w.g[START as usize] = 0.0;
        w.open.push(OpenNode { f_bits: self.estimate(self.from).to_bits(), item: START });
        *expanded = 0;
        while let Some(OpenNode { item: u, .. }) = w.open.pop() {
            if w.closed[u as usize] {
                continue;
            }
            if u == GOAL {
                return SearchEnd::Goal;
            }
            if *expanded >= budget {
                return SearchEnd::Stopped(PartialReason::BudgetExhausted);
            }
            *expanded += 1;
            w.closed[u as usize] = true;
            let node = w.nodes[u as usize];
            if node.link != NO_LINK && !node.link_end {
                self.take_link(w, u, node.link);
            }
            for &t in self.homes(u, &node) {
                if self.allowed(t) {
                    self.expand_in(w, u, t, goal_clear);
                }
            }
        }
        SearchEnd::Stopped(PartialReason::Unreachable)
    }

    /// The estimate of the cost from `p` to the goal.
    fn estimate(&self, p: Point) -> f64 {
        (p.distance(self.to) * self.min_cost).min(self.link_bound) * self.estimate_weight
    }

    /// Relaxes every node of triangle `t` from node `u`.
    fn expand_in(&self, w: &mut DiscWeightedScratch, u: u32, t: TriangleId, goal_clear: bool) {
        let opened = self.open(w, t);
        let edges: [u32; 3] = std::array::from_fn(|k| self.canonical(t, k));
        let corners = self.mesh.triangle_points(t);
        // The edges of `t` a node lies on (bit k: edge k): its own, or both at a corner.
        let on_edges = |node: &Node| -> u32 {
            match corners.iter().position(|&c| c == node.at) {
                Some(k) => 1 << k | 1 << ((k + 2) % 3),
                None => edges.iter().position(|&h| h != NO_EDGE && h == node.edge).map_or(0, |k| 1 << k),
            }
        };
        // Along an edge shared with ground of another cost: the cheaper.
        let cost = self.cost(t);
        let along: [f64; 3] = std::array::from_fn(|k| {
            let n = self.mesh.neighbours(t)[k];
            if self.allowed(n) { cost.min(self.cost(n)) } else { cost }
        });
        let a = w.nodes[u as usize];
        let (a_edges, g_u) = (on_edges(&a), w.g[u as usize]);
        let ranges = opened.edges.into_iter().chain([opened.interior]);
        let goal = (opened.goal && goal_clear).then_some(GOAL);
        // The links' start nodes are read from the scratch inside the loop (it is relaxed).
        let link_slots = (opened.links.0..opened.links.1).map(|k| (true, k));
        let ordinary = ranges.flat_map(|(lo, hi)| lo..hi).chain(goal).map(|v| (false, v));
        for (is_link, slot) in ordinary.chain(link_slots) {
            let v = if is_link { w.link_members[slot as usize] } else { slot };
            if v == u || w.closed[v as usize] {
                continue;
            }
            let b = w.nodes[v as usize];
            let shared = if a_edges == 0 { 0 } else { a_edges & on_edges(&b) };
            let factor = if shared == 0 { cost } else { along[shared.trailing_zeros() as usize] };
            let g = g_u + a.at.distance(b.at) * factor;
            if g >= w.g[v as usize] || !self.step_clear(w, (t, opened.walls), a.at, b.at) {
                continue;
            }
            w.g[v as usize] = g;
            w.parent[v as usize] = u;
            w.via[v as usize] = t;
            w.open.push(OpenNode { f_bits: (g + self.estimate(b.at)).to_bits(), item: v });
        }
    }

    /// The canonical half-edge of edge `k` of triangle `t` (the lower triangle's), or
    /// [`NO_EDGE`] on a wall or an edge into excluded ground.
    fn canonical(&self, t: TriangleId, k: usize) -> u32 {
        if !self.allowed(self.mesh.neighbours(t)[k]) {
            return NO_EDGE;
        }
        let (c, j) = canonical_edge(self.mesh, t, k);
        3 * c.0 + j as u32
    }

    /// The start node of directed link `d` (made with its end node on first use), or `None`
    /// when the disc does not fit at one of its ends (`near`: the start's triangle, being
    /// opened, and the walls near it) or the end is on ground it may not enter.
    fn link_nodes(&self, w: &mut DiscWeightedScratch, d: u32, near: (TriangleId, (u32, u32))) -> Option<u32> {
        if !w.link_nodes.contains(d as usize) {
            w.link_nodes.insert(d as usize);
            let directed = &self.mesh.links.directed[d as usize];
            let ends = self.mesh.links.end_triangles(d);
            let usable = match ends.iter().copied().find(|&t| self.allowed(t)) {
                Some(t) if self.point_clear(w, near, directed.from) => {
                    let blocked = |n: TriangleId| self.blocked(n);
                    self.mesh.clearance_beside(directed.to, t, blocked, &mut w.clearance) >= self.reach
                }
                _ => false,
            };
            w.link_node[d as usize] = if usable {
                let start = Node { link: d, ..Node::on(directed.from, [TriangleId::NONE; 2], NO_EDGE) };
                let start = self.push_node(w, start);
                let end =
                    self.push_node(w, Node { at: directed.to, link_end: true, ..w.nodes[start as usize] });
                (start, end)
            } else {
                (u32::MAX, u32::MAX)
            };
        }
        let (start, _) = w.link_node[d as usize];
        (start != u32::MAX).then_some(start)
    }

    /// Relaxes the end of directed link `d` from its start node `u`.
    fn take_link(&self, w: &mut DiscWeightedScratch, u: u32, d: u32) {
        let (_, end) = w.link_node[d as usize];
        let g = w.g[u as usize] + self.mesh.links.directed[d as usize].cost;
        if end == u32::MAX || w.closed[end as usize] || g >= w.g[end as usize] {
            return;
        }
        w.g[end as usize] = g;
        w.parent[end as usize] = u;
        w.via[end as usize] = TriangleId::NONE;
        w.open.push(OpenNode { f_bits: (g + self.estimate(w.nodes[end as usize].at)).to_bits(), item: end });
    }

    /// Whether the step `a -> b` inside triangle `t` keeps the radius from the walls near it
    /// (a range of `w.walls`).
    fn step_clear(
        &self,
        w: &DiscWeightedScratch,
        (t, walls): (TriangleId, (u32, u32)),
        a: Point,
        b: Point,
    ) -> bool {
        let range = walls.0 as usize..walls.1 as usize;
        !w.walls[range.clone()].iter().enumerate().any(|(k, &(p, q))| {
            !boxes_apart([a, b], [p, q], self.reach)
                && segments_nearer(a, b, p, q, self.reach)
                && self.wall_counts(w, t, (a, b), range.start + k)
        })
    }

    /// Whether wall `k` of `w.walls`, found near triangle `t` and within the radius of the
    /// segment `core` in it, is a wall to it: always, but where the floor folds round a
    /// portal's end, the search round `t` also finds walls of another sheet of the floor
    /// over the same place; those count only in plain sight of the core (see
    /// [`NavMesh::wall_in_sight`]: whether any wall is within the radius is still decided
    /// exactly).
    fn wall_counts(&self, w: &DiscWeightedScratch, t: TriangleId, core: (Point, Point), k: usize) -> bool {
        w.wall_owners.is_empty() || self.mesh.wall_in_sight(t, core, w.wall_owners[k], w.walls[k])
    }

    /// Opens triangle `t` (once per query): gathers the walls near it and places its nodes.
    fn open(&self, w: &mut DiscWeightedScratch, t: TriangleId) -> Opened {
        if w.opened.contains(t.index()) {
            return w.triangles[t.index()];
        }
        w.opened.insert(t.index());
        let first_wall = w.walls.len() as u32;
        let blocked = |n: TriangleId| self.blocked(n);
        let owners = self.mesh.layers_fold().then_some(&mut w.wall_owners);
        self.mesh.walls_near_triangle(t, self.outer, blocked, &mut w.clearance, (&mut w.walls, owners));
        let walls = (first_wall, w.walls.len() as u32);
        self.find_corners(w, t, walls);
        let mut opened = Opened { walls, ..Opened::default() };
        for k in 0..3 {
            opened.edges[k] = self.edge_nodes(w, t, k, walls);
        }
        // The corner polygons' vertices inside the triangle.
        let first = w.nodes.len() as u32;
        let bounds = Aabb::from_points(self.mesh.triangle_points(t));
        for c in 0..w.corners.len() {
            for j in 0..self.sides {
                let q = polygon_vertex(&w.unit, w.corners[c], j);
                let inside = bounds.contains(q) && self.mesh.triangle_contains(t, q);
                if inside && self.point_clear(w, (t, walls), q) {
                    self.push_node(w, Node::on(q, [t, TriangleId::NONE], NO_EDGE));
                }
            }
        }
        opened.interior = (first, w.nodes.len() as u32);
        let first_link = w.link_members.len() as u32;
        for d in self.mesh.links.starting_in(t) {
            if let Some(start) = self.link_nodes(w, d, (t, walls)) {
                w.link_members.push(start);
            }
        }
        opened.links = (first_link, w.link_members.len() as u32);
        opened.goal = self.goals.contains(&t);
        w.triangles[t.index()] = opened;
        opened
    }

    /// Whether point `q` of triangle `t` is at least the radius from the walls near it (a
    /// range of `w.walls`).
    fn point_clear(&self, w: &DiscWeightedScratch, (t, walls): (TriangleId, (u32, u32)), q: Point) -> bool {
        let range = walls.0 as usize..walls.1 as usize;
        w.walls[range.clone()].iter().enumerate().all(|(k, &(a, b))| {
            segment_distance(q, a, b) >= self.reach || !self.wall_counts(w, t, (q, q), range.start + k)
        })
    }

    /// Fills `w.corners` with the ends of the walls near `t` (within the polygons' reach)
    /// where the walls turn away from the free space (or more than two walls meet).
    fn find_corners(&self, w: &mut DiscWeightedScratch, t: TriangleId, (lo, hi): (u32, u32)) {
        w.corners.clear();
        let corners = self.mesh.triangle_points(t);
        let walls = &w.walls[lo as usize..hi as usize];
        for &(a, b) in walls {
            for v in [a, b] {
                if w.corners.contains(&v) || closest_point_on_triangle(v, corners).distance(v) >= self.outer {
                    continue;
                }
                // Walls run with the walkable side on their left: turning right at a vertex
                // wraps the free space round it (and so does a floor folding round it).
                if self.mesh.folds_at(v) {
                    w.corners.push(v);
                    continue;
                }
                let mut ins = walls.iter().filter(|w| w.1 == v);
                let mut outs = walls.iter().filter(|w| w.0 == v);
                let turning = match (ins.next(), ins.next(), outs.next(), outs.next()) {
                    (Some(&(x, _)), None, Some(&(_, y)), None) => orient(x, v, y) == Orientation::Clockwise,
                    _ => true,
                };
                if turning {
                    w.corners.push(v);
                }
            }
        }
    }

    /// The nodes on edge `k` of triangle `t` (placed when the first of its triangles opens):
    /// none on a wall or an edge into excluded ground.
    fn edge_nodes(
        &self,
        w: &mut DiscWeightedScratch,
        t: TriangleId,
        k: usize,
        walls: (u32, u32),
    ) -> (u32, u32) {
        let mesh = self.mesh;
        let n = mesh.neighbours(t)[k];
        let h = self.canonical(t, k);
        if h == NO_EDGE {
            return (0, 0);
        }
        if w.edges_done.contains(h as usize) {
            return w.edge_nodes[h as usize];
        }
        w.edges_done.insert(h as usize);
        let corners = mesh.triangle_points(t);
        let (p, q) = (corners[k], corners[(k + 1) % 3]);
        // The parts of the edge nearer than r to a wall (open intervals of the fraction along
        // it). Where the floor folds, a wall of another sheet blocks no part from whose middle
        // it is out of sight: the ends of the free parts are then only places to try, as the
        // steps from them are tested ([`Self::step_clear`]).
        w.blocked.clear();
        for j in walls.0 as usize..walls.1 as usize {
            let Some((lo, hi)) = line_near_segment(p, q, w.walls[j], self.r) else { continue };
            let s = 0.5 * (lo.max(0.0) + hi.min(1.0));
            let middle = Point::new(p.x + s * (q.x - p.x), p.y + s * (q.y - p.y));
            if self.wall_counts(w, t, (middle, middle), j) {
                w.blocked.push((lo, hi));
            }
        }
        w.blocked.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        let free = |s: f64, blocked: &[(f64, f64)]| blocked.iter().all(|&(lo, hi)| s <= lo || s >= hi);
        w.along.clear();
        // The ends of the free parts.
        let mut from = 0.0f64;
        for &(lo, hi) in &w.blocked {
            if lo > from {
                w.along.extend([from, lo.min(1.0)]);
            }
            from = from.max(hi);
            if from >= 1.0 {
                break;
            }
        }
        if from <= 1.0 {
            w.along.extend([from, 1.0]);
        }
        w.along.retain(|&s| (0.0..=1.0).contains(&s));
        // Evenly spaced points, and where the corner polygons' sides cross the edge.
        // Optimal mode: twice the weighted search's count. With the same count a path could
        // come out up to 2.6% dearer than the oracle (long runs of `tests/clearance.rs`: the
        // cheaper way bent round a corner between points the search could not join); with 1.5
        // times it, 1.2% where layers overlap; with twice, at most 0.42% in every run.
        let mut count = steiner_count(mesh, h);
        if self.fast {
            count = count.div_ceil(8);
        } else {
            count *= 2;
        }
        w.along.extend((1..=count).map(|j| j as f64 / (count + 1) as f64));
        // The feet of the start and goal on the edges of their triangles: the way from a
        // point to a cheaper edge beside it leaves square to the edge.
        let (ee, length2) = ((q.x - p.x, q.y - p.y), (q.x - p.x).powi(2) + (q.y - p.y).powi(2));
        for (end, list) in [(self.from, self.starts), (self.to, self.goals)] {
            if length2 > 0.0 && (list.contains(&t) || list.contains(&n)) {
                w.along.push((((end.x - p.x) * ee.0 + (end.y - p.y) * ee.1) / length2).clamp(0.0, 1.0));
            }
        }
        for &c in &w.corners {
            if segment_distance(c, p, q) >= self.outer || (c.distance(p) < self.r && c.distance(q) < self.r) {
                continue;
            }
            for j in 0..self.sides {
                let (u, v) = (polygon_vertex(&w.unit, c, j), polygon_vertex(&w.unit, c, j + 1));
                w.along.extend(crossing_fraction(p, q, u, v));
            }
        }
        let blocked = std::mem::take(&mut w.blocked);
        w.along.retain(|&s| free(s, &blocked));
        w.blocked = blocked;
        w.along.sort_unstable_by(f64::total_cmp);
        w.along.dedup();
        let first = w.nodes.len() as u32;
        for i in 0..w.along.len() {
            let s = w.along[i];
            let at = Point::new(p.x + s * (q.x - p.x), p.y + s * (q.y - p.y));
            self.push_node(w, Node::on(at, [t, n], h));
        }
        let range = (first, w.nodes.len() as u32);
        w.edge_nodes[h as usize] = range;
        range
    }

    /// The closed node nearest the goal (where a partial path ends).
    fn nearest_reached(&self, w: &DiscWeightedScratch) -> u32 {
        (0..w.nodes.len() as u32)
            .filter(|&v| w.closed[v as usize])
            .min_by(|&a, &b| {
                let d = |v: u32| w.nodes[v as usize].at.distance(self.to);
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(START)
    }

    /// Reads the path to node `last` into `points`, with each step's triangle and cost.
    fn read_path(&self, w: &mut DiscWeightedScratch, last: u32, points: &mut Vec<Point>) {
        w.read.clear();
        let mut v = last;
        while v != START {
            w.read.push(v);
            v = w.parent[v as usize];
        }
        points.clear();
        points.push(self.from);
        w.step_triangle.clear();
        w.step_cost.clear();
        w.point_edge.clear();
        w.point_edge.push(NO_EDGE);
        w.step_link.clear();
        for i in (0..w.read.len()).rev() {
            let v = w.read[i] as usize;
            w.step_triangle.push(w.via[v]);
            w.step_link.push(if w.via[v].is_none() { w.nodes[v].link } else { NO_LINK });
            w.step_cost.push(w.g[v] - w.g[w.parent[v] as usize]);
            points.push(w.nodes[v].at);
            w.point_edge.push(if v == GOAL as usize { NO_EDGE } else { w.nodes[v].edge });
        }
    }

    /// Drops path points while the straight segment past one keeps the radius and costs no
    /// more than the two steps it replaces.
    fn shortcut(&self, w: &mut DiscWeightedScratch, points: &mut Vec<Point>) {
        let blocked = |n: TriangleId| self.blocked(n);
        for _ in 0..SHORTCUT_SWEEPS {
            let mut changed = false;
            let mut i = 0;
            while i + 2 < points.len() {
                let (a, b) = (points[i], points[i + 2]);
                let t = w.step_triangle[i];
                if t.is_none() || w.step_triangle[i + 1].is_none() {
                    // A link's step stays.
                    i += 1;
                    continue;
                }
                let before = w.step_cost[i] + w.step_cost[i + 1];
                // (Where layers overlap, the straight segment must arrive on the layer the two
                // steps did.)
                let was = || self.segment_walk(w.step_triangle[i + 1], points[i + 1], b).map(|(_, end)| end);
                let better = (self.segment_walk(t, a, b))
                    .filter(|&(c, end)| {
                        c <= before && (!self.overlap || was().is_some_and(|e| self.same_arrival(end, e, b)))
                    })
                    .map(|(c, _)| c)
                    .filter(|_| {
                        !self.mesh.segment_meets_wall_beside(t, (a, b), self.reach, blocked, &mut w.clearance)
                    });
                match better {
                    Some(c) => {
                        points.remove(i + 1);
                        w.point_edge.remove(i + 1);
                        w.step_cost[i] = c;
                        w.step_cost.remove(i + 1);
                        w.step_triangle.remove(i + 1);
                        w.step_link.remove(i + 1);
                        changed = true;
                    }
                    None => i += 1,
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Slides each path point that lies on an edge along it to where its two steps cost
    /// least (Snell's law between its neighbours), as far towards there as keeps both steps
    /// clear of the walls; sweeps until one gains nothing.
    fn refine(&self, w: &mut DiscWeightedScratch, points: &mut [Point]) {
        let blocked = |n: TriangleId| self.blocked(n);
        for _ in 0..REFINE_SWEEPS {
            let mut gained = 0.0;
            for i in 1..points.len().saturating_sub(1) {
                let h = w.point_edge[i];
                let (prev, at, next) = (points[i - 1], points[i], points[i + 1]);
                let (l0, l1) = (prev.distance(at), at.distance(next));
                let linked = w.step_triangle[i - 1].is_none() || w.step_triangle[i].is_none();
                if h == NO_EDGE || l0 == 0.0 || l1 == 0.0 || linked {
                    continue;
                }
                let (f0, f1) = (w.step_cost[i - 1] / l0, w.step_cost[i] / l1);
                let best = cheapest_on_edge(edge_ends(self.mesh, h), (prev, f0), (next, f1));
                let before = w.step_cost[i - 1] + w.step_cost[i];
                // The point stays on its edge, an edge of the triangle its next step starts in.
                let (t0, t1) = (w.step_triangle[i - 1], w.step_triangle[i]);
                // Where layers overlap, both steps must arrive on the layers they did: the
                // triangle the next step reaches its end in now.
                let next_end =
                    if self.overlap { self.segment_walk(t1, at, next).map(|(_, end)| end) } else { None };
                // Halfway back towards the point while the steps from the new place hit a wall.
                let mut to = best;
                for _ in 0..MOVE_HALVINGS {
                    let arrives = |(c0, end0): (f64, TriangleId), (c1, end1): (f64, TriangleId)| {
                        let kept = !self.overlap
                            || (self.same_arrival(end0, t1, to)
                                && next_end.is_some_and(|e| self.same_arrival(end1, e, next)));
                        kept.then_some((c0, c1))
                    };
                    let costs = (self.segment_walk(t0, prev, to).zip(self.segment_walk(t1, to, next)))
                        .and_then(|(first, second)| arrives(first, second));
                    let mut clear = |t: TriangleId, a: Point, b: Point| {
                        !self.mesh.segment_meets_wall_beside(t, (a, b), self.reach, blocked, &mut w.clearance)
                    };
                    if let Some((c0, c1)) = costs.filter(|&(c0, c1)| c0 + c1 < before)
                        && clear(t0, prev, to)
                        && clear(t1, to, next)
                    {
                        points[i] = to;
                        w.step_cost[i - 1] = c0;
                        w.step_cost[i] = c1;
                        gained += before - c0 - c1;
                        break;
                    }
                    to = Point::new(0.5 * (to.x + at.x), 0.5 * (to.y + at.y));
                }
            }
            if gained <= SWEEP_GAIN * w.step_cost.iter().sum::<f64>() {
                break;
            }
        }
    }

    /// A partial path's end (node `last_node`) moved on towards the goal in a straight line, as far as the disc
    /// keeps clear of the walls and on ground it may enter (bisection: a part of a clear
    /// segment is clear).
    fn straight_on(&self, w: &mut DiscWeightedScratch, last_node: u32, points: &mut Vec<Point>) {
        let blocked = |n: TriangleId| self.blocked(n);
        let Some(&last) = points.last() else { return };
        // The path's last point is still that node, in its first triangle.
        let node = w.nodes[last_node as usize];
        let Some(&t) = self.homes(last_node, &node).first() else { return };
        let at = |s: f64| Point::new(last.x + s * (self.to.x - last.x), last.y + s * (self.to.y - last.y));
        let (mut lo, mut hi, mut cost) = (0.0, 1.0, None);
        for _ in 0..STRAIGHT_ON_HALVINGS {
            let mid = 0.5 * (lo + hi);
            let p = at(mid);
            let clear = self.segment_cost(t, last, p).filter(|_| {
                !self.mesh.segment_meets_wall_beside(t, (last, p), self.reach, blocked, &mut w.clearance)
            });
            match clear {
                Some(c) => (lo, cost) = (mid, Some(c)),
                None => hi = mid,
            }
        }
        if let Some(c) = cost {
            points.push(at(lo));
            w.step_triangle.push(t);
            w.step_cost.push(c);
            w.step_link.push(NO_LINK);
        }
    }

    /// The cost of the segment `a -> b` (`a` a point of triangle `t`), walked triangle by
    /// triangle; `None` when it leaves the ground the agent may enter.
    fn segment_cost(&self, t: TriangleId, a: Point, b: Point) -> Option<f64> {
        self.segment_walk(t, a, b).map(|(cost, _)| cost)
    }

    /// Whether walks that reach `b` in triangles `x` and `y` reach it on the same layer: the
    /// same triangle, or ones that share `b`'s vertex or side.
    fn same_arrival(&self, x: TriangleId, y: TriangleId, b: Point) -> bool {
        x == y || self.mesh.same_place(x, y, b)
    }

    /// [`Self::segment_cost`] and the triangle the walk reaches `b` in.
    fn segment_walk(&self, mut t: TriangleId, a: Point, b: Point) -> Option<(f64, TriangleId)> {
        let mesh = self.mesh;
        let (mut x, mut cost) = (a, 0.0);
        for _ in 0..=mesh.triangle_count() {
            if !self.allowed(t) {
                return None;
            }
            let c = mesh.triangle_points(t);
            let edge = |k: usize| (c[k], c[(k + 1) % 3]);
            // Along an edge shared with ground of another cost: the cheaper.
            let factor = (0..3)
                .find(|&k| {
                    orient(a, b, edge(k).0) == Orientation::Collinear
                        && orient(a, b, edge(k).1) == Orientation::Collinear
                })
                .map(|k| mesh.neighbours(t)[k])
                .filter(|&n| self.allowed(n))
                .map_or(self.cost(t), |n| self.cost(t).min(self.cost(n)));
            if mesh.triangle_contains(t, b) {
                return Some((cost + x.distance(b) * factor, t));
            }
            let exit = (0..3).find(|&k| {
                let (p, q) = edge(k);
                orient(p, q, b) == Orientation::Clockwise
                    && orient(a, b, p) != Orientation::CounterClockwise
                    && orient(a, b, q) != Orientation::Clockwise
            })?;
            let (p, q) = edge(exit);
            let y = line_crossing((a, b), (p, q));
            cost += x.distance(y) * factor;
            x = y;
            t = mesh.neighbours(t)[exit];
        }
        None
    }
}

/// Where segment `a b` crosses the line through `p q` (its fraction clamped to the segment,
/// which it crosses up to rounding).
fn line_crossing((a, b): (Point, Point), (p, q): (Point, Point)) -> Point {
    let (dx, dy, ex, ey) = (b.x - a.x, b.y - a.y, q.x - p.x, q.y - p.y);
    let denominator = dx * ey - dy * ex;
    let s = if denominator == 0.0 { 0.0 } else { ((p.x - a.x) * ey - (p.y - a.y) * ex) / denominator };
    let s = s.clamp(0.0, 1.0);
    Point::new(a.x + s * dx, a.y + s * dy)
}

/// Vertex `j` of the polygon round corner `c` (`unit`: the offsets of its vertices).
fn polygon_vertex(unit: &[(f64, f64)], c: Point, j: usize) -> Point {
    let (dx, dy) = unit[j];
    Point::new(c.x + dx, c.y + dy)
}
