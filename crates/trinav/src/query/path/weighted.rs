//! Paths with area costs other than 1 (weighted regions): a Steiner-point search, then the path
//! refined along the edges it crosses.
//!
//! The exact cheapest path through weighted regions cannot be computed in general (de Berg et
//! al. 2024); Steiner-point searches (Aleksandrov, Maheshwari and Sack) approach it. Here every
//! triangle edge holds evenly spaced points besides its ends, as many as keep them at most a
//! quarter of the local scale apart (the smallest altitude of the triangles beside the edge;
//! 5 to 32 points): a long edge with few points made the search go round the wrong side of
//! an obstacle, which no refinement undoes. A* runs over the vertices and these points, a
//! step joining two points on the boundary of one triangle (not of an excluded type) at the
//! distance times that triangle's cost (along an edge shared by two types, the cheaper; from a
//! point on an edge, or a corner, along that edge only to its neighbours there, since a step
//! further along passes them at the same cost), the estimate the straight distance to the
//! goal times the smallest cost of a type on the mesh that the agent may enter. The path found is then refined: each point on an edge slides along that edge to where
//! the two pieces through it cost least (Newton steps in a bracket: the cost is convex along the
//! edge), sweep after sweep until a sweep gains nothing, so that each point obeys Snell's law
//! of refraction for the sequence of edges found. A point slid onto an end of its edge becomes
//! that vertex; at each vertex the way is tried past it on either side (through the fan's
//! edges) and the cheaper kept, then refined again, a few rounds.
//!
//! That is optimal mode (points per edge by length, sweeps until converged). Fast mode
//! searches the triangles instead, as the plain fast mode does, with its cones (the funnel's
//! state per triangle) inside each run of one cost: a run's root is the start or a point on
//! the edge where the cost changed, the cones measure in units of the run's cost, and g is
//! the cost of the way to the cone's root. Where the corridor crosses into another cost the
//! new run's root is the point of the part of that edge the cone sees where the node's f
//! (g plus the straight distance on times the smallest cost, weighted as the plain search's)
//! is least; the previous run's root is chosen again for it (Snell's law between the points
//! before and after) when that lowers g. Goal triangles are not closed: each way into one is
//! costed to the goal (the last run's root chosen again for the goal) and the cheapest kept.
//! The corridor found is cut where the cost changes into runs of one cost; each run is
//! string-pulled between its crossing points on the cut edges, and only those points are
//! refined (each slid along its edge, Snell's law between its neighbours, then the runs pulled
//! again), a few sweeps. The README and the tests (`tests/weighted.rs`) give the cost ratios
//! measured against a dense Steiner-point oracle.

use std::collections::BinaryHeap;

use crate::geometry::{Orientation, Point, closest_point_on_triangle, orient};
use crate::ids::{HalfEdge, TriangleId};
use crate::mesh::NavMesh;
use crate::query::path::AreaCosts;
use crate::query::path::cone::{Cone, Cones, START, Successor};
use crate::query::path::funnel::{Portal, string_pull};
use crate::query::path::search::{HEURISTIC_WEIGHT, NextEntry, OpenNode};
use crate::query::path::{
    GenerationSet, LinkStep, PartialReason, Path, PathError, PathMode, PathOptions, PathScratch, PocketPass,
    stay_at,
};

/// The fewest Steiner points inside an edge in optimal mode.
const MIN_POINTS: usize = 5;
/// The most Steiner points inside an edge in optimal mode.
const MAX_POINTS: usize = 32;
/// An edge's Steiner points are at most this many times the local scale apart (the smallest
/// altitude of the triangles beside it).
const SPACING: f64 = 0.25;
/// The most refinement sweeps in optimal mode.
const OPTIMAL_SWEEPS: usize = 200;
/// The most sweeps of fast mode's refinement of the points where the cost changes.
const FAST_SWEEPS: usize = 4;
/// How near the cheapest point of an edge a point slid along it comes (a fraction of the edge).
const EDGE_TOLERANCE: f64 = 1e-10;
/// Refinement sweeps when a vertex is tried unpinned (the whole path is refined again after).
const TRIAL_SWEEPS: usize = 3;
/// The most rounds of pinning points slid onto an edge's end and unpinning vertices.
const UNPIN_ROUNDS: usize = 8;
/// A sweep that gains less than this fraction of the cost ends the refinement.
const SWEEP_GAIN: f64 = 1e-9;

/// A node on a triangle's boundary: its number, the edge of the triangle it is inside (3: a
/// corner) and where it is.
type Boundary = (u32, u8, Point);

/// The most points a triangle's boundary holds (3 corners, [`MAX_POINTS`] per edge).
const MAX_BOUNDARY: usize = 3 + 3 * MAX_POINTS;

/// Per-query state of the weighted search (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub(crate) struct WeightedScratch {
    seen: GenerationSet,
    closed: GenerationSet,
    g: Vec<f64>,
    parent: Vec<u32>,
    /// The triangle a node was reached through (the piece to it lies in it).
    via: Vec<TriangleId>,
    open: BinaryHeap<OpenNode>,
    /// The path's nodes, goal first, while it is read back.
    nodes: Vec<u32>,
    /// Of each path point: the edge it may slide along (its ends), or none.
    slide: Vec<Option<(Point, Point)>>,
    /// Of each piece of the path (from point i to point i + 1): its cost per unit length.
    factor: Vec<f64>,
    /// Of each piece: the triangle it lies in.
    piece_triangle: Vec<TriangleId>,
    /// Of each path point: the mesh vertex it is, or `u32::MAX`.
    vertex: Vec<u32>,
    /// Of each path point: whether it or what its place depends on (its neighbours, its two
    /// pieces' costs) changed since it was last slid (the others would not move).
    stale: Vec<bool>,
    /// Of each path point: whether it (or a piece's triangle beside it) changed since the
    /// pieces' costs were last updated.
    moved: Vec<bool>,
    /// Copies of the path while changes to it are tried: as it was, and the best change.
    backup: PathCopy,
    best: PathCopy,
    /// The path's points and piece costs before a refinement sweep (put back if it lost).
    sweep_points: Vec<Point>,
    sweep_factor: Vec<f64>,
    /// The directed links the path found takes, in order (its pieces through no triangle).
    taken: Vec<u32>,
    /// Optimal mode: the expanded node with the smallest estimate to the goal so far, and
    /// that estimate (where a partial path ends when the budget runs out).
    nearest: (f64, u32),
    /// Fast mode: per triangle, the root point of its run (the start or a point on a cut edge).
    entry: Vec<Point>,
    /// Fast mode: per triangle, how the run of one cost it is in began (none: at the start).
    run: Vec<Option<RunStart>>,
    /// Fast mode: where the corridor crosses from one cost to another, in order.
    cuts: Vec<Cut>,
    /// Fast mode: the cut points before a sweep (put back when the sweep lost).
    saved: Vec<Point>,
}

/// Fast mode: a corridor crossing between triangles of different costs.
#[derive(Clone, Copy, Debug)]
struct Cut {
    /// The crossing's index in the corridor.
    at: usize,
    /// The ends of the edge crossed.
    ends: (Point, Point),
    /// Where the path crosses it.
    point: Point,
    /// That point's index in the path.
    index: usize,
}

/// Fast mode's search: how a run of one cost began, so that its first point can be chosen
/// again for where the run goes.
#[derive(Clone, Copy, Debug)]
struct RunStart {
    /// The point the way came from (the previous run's root or a vertex it bent at).
    before: Point,
    /// The cost of the way to `before`.
    g: f64,
    /// The cost per unit length from `before` to the run's first point.
    cost: f64,
    /// The part of the cut edge `before` sees, where the run's first point lies.
    seen: (Point, Point),
}

impl RunStart {
    /// The run's first point where the way on to `next` (at `cost` per unit) costs least, and
    /// the cost of the way to it.
    fn rechoose(&self, next: Point, cost: f64) -> (Point, f64) {
        let y = cheapest_on_edge(self.seen, (self.before, self.cost), (next, cost));
        (y, self.g + self.cost * self.before.distance(y))
    }
}

/// A path with what the refinement knows of its points and pieces.
#[derive(Clone, Debug, Default)]
struct PathCopy {
    points: Vec<Point>,
    slide: Vec<Option<(Point, Point)>>,
    factor: Vec<f64>,
    piece_triangle: Vec<TriangleId>,
    vertex: Vec<u32>,
    stale: Vec<bool>,
    moved: Vec<bool>,
}

/// Where a search node is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Vertex(u32),
    /// Point `j` of the edge named by its canonical half-edge (`3 t + k`).
    OnEdge(u32, u32),
    Start,
    Goal,
    /// The start of directed link `d` (the search takes the link from there).
    LinkFrom(u32),
    /// The end of directed link `d` (the way goes on from there as from a start).
    LinkTo(u32),
}

/// One query's weighted search.
struct Weighted<'a> {
    mesh: &'a NavMesh,
    options: &'a PathOptions,
    pass: &'a PocketPass,
    from: Point,
    to: Point,
    starts: &'a [TriangleId],
    goals: &'a [TriangleId],
    /// Per half-edge, the number of its first Steiner point past the vertices
    /// ([`steiner_edges`]).
    first: &'a [u32],
    vertices: u32,
    goal_node: u32,
    start_node: u32,
    /// Whether the mesh has usable links: each direction's two ends are nodes after the
    /// start's ([`Place::LinkFrom`], [`Place::LinkTo`]).
    links: bool,
    /// With links, the least any way that takes a link costs from its last link's end: over
    /// the directed links, the cost plus the straight way to the goal at the smallest cost.
    /// The estimate is the lesser of this and the straight way at the smallest cost.
    link_bound: f64,
    /// The estimate's cost per unit length: the smallest of the types on the mesh that the
    /// agent may enter.
    min_cost: f64,
}

impl Weighted<'_> {
    fn place(&self, node: u32) -> Place {
        if node == self.start_node {
            Place::Start
        } else if node > self.start_node {
            let k = node - self.start_node - 1;
            if k.is_multiple_of(2) { Place::LinkFrom(k / 2) } else { Place::LinkTo(k / 2) }
        } else if node == self.goal_node {
            Place::Goal
        } else if node < self.vertices {
            Place::Vertex(node)
        } else {
            let i = node - self.vertices;
            let h = self.first.partition_point(|&first| first <= i) - 1;
            Place::OnEdge(h as u32, i - self.first[h])
        }
    }

    /// The canonical half-edge of edge `k` of `t` (see [`canonical_edge`]).
    fn canonical(&self, t: TriangleId, k: usize) -> (TriangleId, usize) {
        canonical_edge(self.mesh, t, k)
    }

    /// The node of directed link `d`'s start (`end` 0) or end (1).
    fn link_node(&self, d: u32, end: u32) -> u32 {
        self.start_node + 1 + 2 * d + end
    }

    fn edge_node(&self, (t, k): (TriangleId, usize), j: usize) -> u32 {
        self.vertices + self.first[3 * t.index() + k] + j as u32
    }

    fn point(&self, node: u32) -> Point {
        match self.place(node) {
            Place::Start => self.from,
            Place::Goal => self.to,
            Place::LinkFrom(d) => self.mesh.links.directed[d as usize].from,
            Place::LinkTo(d) => self.mesh.links.directed[d as usize].to,
            Place::Vertex(v) => self.mesh.vertices()[v as usize],
            Place::OnEdge(h, j) => {
                let (a, b) = self.edge_ends(h);
                let s = (j as f64 + 1.0) / (self.points_on(h) as f64 + 1.0);
                Point::new(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s)
            }
        }
    }

    /// Whether a partial path may end at node `u`: an agent there must be able to ask for
    /// its next path from there. A vertex is exactly on the triangles the search reached it
    /// through; a point inside an edge is rounded off the edge's line, so only an edge with
    /// allowed ground on both sides (not a wall, nor excluded ground's side) will do; a link's
    /// end is not kept (the nodes the search goes on to from it are).
    fn may_end_at(&self, u: u32) -> bool {
        match self.place(u) {
            Place::Start | Place::Vertex(_) => true,
            Place::OnEdge(h, _) => {
                let (t, k) = (TriangleId(h / 3), (h % 3) as usize);
                let allowed = |t: TriangleId| !self.options.area_costs.is_excluded(self.mesh.area_id(t));
                let beyond = self.mesh.neighbours(t)[k];
                !beyond.is_none() && allowed(t) && allowed(beyond)
            }
            Place::Goal | Place::LinkFrom(_) | Place::LinkTo(_) => false,
        }
    }

    /// How many Steiner points canonical half-edge `h` (`3 t + k`) holds.
    fn points_on(&self, h: u32) -> usize {
        (self.first[h as usize + 1] - self.first[h as usize]) as usize
    }

    /// The ends of half-edge `h` (`3 t + k`).
    fn edge_ends(&self, h: u32) -> (Point, Point) {
        edge_ends(self.mesh, h)
    }

    /// The nodes on the boundary of `t` in order round it, each with the edge of `t` it is
    /// inside (3 for a corner), into `out`; returns how many.
    fn boundary(&self, t: TriangleId, out: &mut [Boundary; MAX_BOUNDARY]) -> usize {
        let tri = self.mesh.triangles()[t.index()];
        let mut n = 0;
        for (k, corner) in tri.iter().enumerate() {
            out[n] = (corner.0, 3, self.mesh.vertices()[corner.index()]);
            n += 1;
            let canonical = self.canonical(t, k);
            let h = 3 * canonical.0.0 + canonical.1 as u32;
            let ((a, b), count) = (self.edge_ends(h), self.points_on(h));
            // In order from this corner to the next, so that neighbours along the edge are
            // neighbours in `out` (the neighbour's half-edge runs the other way).
            let forward = a == self.mesh.vertices()[corner.index()];
            for i in 0..count {
                let j = if forward { i } else { count - 1 - i };
                let s = (j as f64 + 1.0) / (count as f64 + 1.0);
                let at = Point::new(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s);
                out[n] = (self.edge_node(canonical, j), k as u8, at);
                n += 1;
            }
        }
        n
    }

    /// The cost per unit length of a piece in `t` along its edge `k` (`k` = 3: not along an
    /// edge): `t`'s cost, or the cheaper of the two types along a shared edge.
    fn factor(&self, t: TriangleId, along: Option<usize>) -> f64 {
        let costs = &self.options.area_costs;
        let own = costs.cost(self.mesh.area_id(t));
        match along {
            Some(k) => {
                let n = self.mesh.neighbours(t)[k];
                if n.is_none() || self.pass.excludes(self.mesh, n) {
                    own
                } else {
                    own.min(costs.cost(self.mesh.area_id(n)))
                }
            }
            None => own,
        }
    }
}

/// The canonical half-edge of edge `k` of triangle `t` of `mesh`: the one named by the lower
/// triangle id (or `t`'s own on the boundary).
pub(crate) fn canonical_edge(mesh: &NavMesh, t: TriangleId, k: usize) -> (TriangleId, usize) {
    let n = mesh.neighbours(t)[k];
    if n.is_none() || t.0 < n.0 {
        return (t, k);
    }
    let j = mesh.neighbours(n).iter().position(|&x| x == t).expect("neighbours are symmetric");
    (n, j)
}

/// The ends of half-edge `h` (`3 t + k`) of `mesh`.
pub(crate) fn edge_ends(mesh: &NavMesh, h: u32) -> (Point, Point) {
    let [a, b, c] = mesh.triangle_points(TriangleId(h / 3));
    match h % 3 {
        0 => (a, b),
        1 => (b, c),
        _ => (c, a),
    }
}

/// How many Steiner points half-edge `h` (`3 t + k`) of `mesh` holds in optimal mode: evenly
/// spaced, at most [`SPACING`] times the smallest altitude of the triangles beside it apart,
/// between [`MIN_POINTS`] and [`MAX_POINTS`].
pub(crate) fn steiner_count(mesh: &NavMesh, h: u32) -> u32 {
    let t = TriangleId(h / 3);
    let (a, b) = edge_ends(mesh, h);
    let n = mesh.neighbours(t)[(h % 3) as usize];
    let altitude = |t: TriangleId| {
        let [p, q, r] = mesh.triangle_points(t);
        let longest = p.distance(q).max(q.distance(r)).max(r.distance(p));
        ((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)).abs() / longest
    };
    let scale = if n.is_none() { altitude(t) } else { altitude(t).min(altitude(n)) };
    let wanted = (a.distance(b) / (SPACING * scale)).ceil();
    let count = if wanted.is_finite() { (wanted as usize).clamp(MIN_POINTS, MAX_POINTS) } else { MAX_POINTS };
    count as u32
}

/// The weighted optimal search's numbering of Steiner points: per half-edge `3 t + k` (and
/// one past the last), the number of its first point past the vertices (prefix sums of the
/// counts). An edge's points belong to its canonical half-edge (the lower triangle's, or the
/// only one on the boundary); the other half-edge holds none. So the search's node arrays hold
/// exactly the points placed.
pub(crate) fn steiner_edges(mesh: &NavMesh) -> Box<[u32]> {
    let mut first = Vec::with_capacity(3 * mesh.triangle_count() + 1);
    let mut next = 0u32;
    for t in 0..mesh.triangle_count() {
        let here = TriangleId::from_index(t);
        for (k, &n) in mesh.neighbours(here).iter().enumerate() {
            first.push(next);
            if n.is_none() || here.0 < n.0 {
                next += steiner_count(mesh, (3 * t + k) as u32);
            }
        }
    }
    first.push(next);
    first.into_boxed_slice()
}

impl NavMesh {
    /// The cheapest path (within the mode's bound) from `from` (in every triangle of
    /// `starts`) to `to` (in every triangle of `goals`) under weighted area costs (or, for a
    /// disc, exclusions: the disc's own search).
    pub(crate) fn route_weighted(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let links = self.has_links();
        let connected = match links {
            true => self.links_reach(starts, goals, &mut scratch.islands),
            false => starts.iter().any(|&s| goals.iter().any(|&g| self.island(s) == self.island(g))),
        };
        if !connected {
            return Err(PathError::Unreachable);
        }
        if options.radius > 0.0 {
            return self.route_disc_weighted((from, starts), (to, goals), options, scratch, out);
        }
        scratch.pass.open(self, [starts, goals], &options.area_costs);
        // With links, both modes take the Steiner-point search (fast mode's corridor search
        // does not take links).
        if options.mode == PathMode::Fast && !links {
            return self.route_weighted_fast((from, starts), (to, goals), options, scratch, out);
        }
        let first = self.steiner_edges();
        let vertices = self.vertices().len() as u32;
        let goal_node = vertices + first[first.len() - 1];
        // The smallest cost of a type on this mesh the agent may enter (still admissible).
        let min_cost = options.area_costs.min_cost_of(self.area_mask());
        let link_bound = self.link_bound_walking(to, min_cost);
        let search = Weighted {
            mesh: self,
            options,
            pass: &scratch.pass,
            from,
            to,
            starts,
            goals,
            first,
            vertices,
            goal_node,
            start_node: goal_node + 1,
            links,
            link_bound,
            min_cost,
        };
        let budget = options.node_budget.unwrap_or(u32::MAX);
        let w = &mut scratch.weighted;
        let last = match search.run(w, budget, &mut scratch.expanded)? {
            true => search.goal_node,
            false if options.partial => {
                // Towards the goal as far as the search got: the path to the expanded node
                // with the smallest estimate, refined as any path (its end stays put).
                if w.nearest.1 == search.start_node {
                    return stay_at(from, PartialReason::BudgetExhausted, out);
                }
                out.partial = Some(PartialReason::BudgetExhausted);
                w.nearest.1
            }
            false => return Err(PathError::BudgetExhausted { budget }),
        };
        search.read_path(w, last, &mut out.points);
        let sweeps = OPTIMAL_SWEEPS;
        search.refine(w, &mut out.points, sweeps);
        // A point slid onto an end of its edge is a vertex of the path: the way may pass it on
        // the other side, through edges the search did not cross.
        for _ in 0..UNPIN_ROUNDS {
            search.pin_edge_ends(w, &out.points);
            if !search.unpin_vertices(w, &mut out.points) {
                break;
            }
            search.refine(w, &mut out.points, sweeps);
        }
        // Points the refinement slid onto each other (onto a corner, mostly) are one; a link's
        // two ends stay two.
        let mut k = 1;
        while k < out.points.len() {
            if out.points[k] == out.points[k - 1] && !w.piece_triangle[k - 1].is_none() {
                out.points.remove(k);
                w.factor.remove(k - 1);
                w.piece_triangle.remove(k - 1);
            } else {
                k += 1;
            }
        }
        out.links.clear();
        let (mut length, mut cost, mut taken) = (0.0, 0.0, w.taken.iter());
        for (point, (p, (&f, t))) in
            out.points.windows(2).zip(w.factor.iter().zip(&w.piece_triangle)).enumerate()
        {
            if t.is_none() {
                let d = &self.links.directed[*taken.next().expect("a link piece per link taken") as usize];
                out.links.push(LinkStep { point, link: d.link });
                cost += d.cost;
            } else {
                length += p[0].distance(p[1]);
                cost += p[0].distance(p[1]) * f;
            }
        }
        (out.length, out.cost) = (length, cost);
        Ok(())
    }
}

impl NavMesh {
    /// Fast mode under weighted costs (see the module documentation); `scratch.pass` is open.
    fn route_weighted_fast(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let costs = &options.area_costs;
        let budget = (options.node_budget.unwrap_or(u32::MAX), options.partial);
        let (goal, end) =
            self.search_weighted_corridor((from, starts), (to, goals), costs, budget, scratch)?;
        // A partial path (the budget ran out) heads for the point of the most promising
        // triangle reached that is nearest the goal.
        let to = match end {
            Some(end) if end == from => return stay_at(from, PartialReason::BudgetExhausted, out),
            Some(end) => {
                out.partial = Some(PartialReason::BudgetExhausted);
                end
            }
            None => to,
        };
        let cost = |t: TriangleId| costs.cost(self.area_id(t));
        let w = &mut scratch.weighted;
        w.cuts.clear();
        for (at, &crossing) in scratch.corridor.iter().enumerate() {
            let (t, k) = (crossing.triangle(), crossing.edge());
            let next = self.neighbours(t)[k];
            if cost(t) != cost(next) {
                let corners = self.triangle_points(t);
                let ends = (corners[k], corners[(k + 1) % 3]);
                w.cuts.push(Cut { at, ends, point: w.entry[next.index()], index: 0 });
            }
        }
        let runs = Runs { mesh: self, costs, from, to, goal, corridor: &scratch.corridor };
        let buffers = (&mut scratch.portals, &mut scratch.piece);
        let mut total = runs.pull(w, buffers.0, buffers.1, &mut out.points);
        for _ in 0..FAST_SWEEPS {
            if w.cuts.is_empty() {
                break;
            }
            w.saved.clear();
            w.saved.extend(w.cuts.iter().map(|c| c.point));
            for cut in w.cuts.iter_mut() {
                let i = cut.index;
                if i == 0 || i + 1 >= out.points.len() {
                    continue;
                }
                let (prev, next) = (out.points[i - 1], out.points[i + 1]);
                let (f0, f1) = (w.factor[i - 1], w.factor[i]);
                cut.point = cheapest_on_edge(cut.ends, (prev, f0), (next, f1));
            }
            let after = runs.pull(w, buffers.0, buffers.1, &mut out.points);
            if after >= total * (1.0 - SWEEP_GAIN) {
                if after > total {
                    for (cut, &point) in w.cuts.iter_mut().zip(&w.saved) {
                        cut.point = point;
                    }
                    runs.pull(w, buffers.0, buffers.1, &mut out.points);
                }
                break;
            }
            total = after;
        }
        runs.charge_edges(w, &scratch.pass, &out.points);
        out.length = out.points.windows(2).map(|p| p[0].distance(p[1])).sum();
        out.cost = (out.points.windows(2).zip(&w.factor)).map(|(p, f)| p[0].distance(p[1]) * f).sum();
        Ok(())
    }

    /// Fast mode's search under weighted costs: A* over triangles with a cone per triangle
    /// inside each run of one cost (see the module documentation). Fills `scratch.corridor`
    /// and returns the goal's triangle. When the budget runs out first and `partial`, the
    /// corridor leads instead to the triangle expanded with the smallest estimate to the goal
    /// (or none, when a start triangle comes as near the goal), returned with its point
    /// nearest the goal (`from` when nothing was expanded).
    fn search_weighted_corridor(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        costs: &AreaCosts,
        (budget, partial): (u32, bool),
        scratch: &mut PathScratch,
    ) -> Result<(TriangleId, Option<Point>), PathError> {
        let n = self.triangle_count();
        scratch.begin(n);
        scratch.per_entry = false;
        if scratch.weighted.entry.len() < n {
            scratch.weighted.entry.resize(n, from);
            scratch.weighted.run.resize(n, None);
        }
        let min_cost = costs.min_cost();
        let cost = |t: TriangleId| costs.cost(self.area_id(t));
        // The cones of a run of cost `c` whose root point is `root`, measuring in units of `c`
        // (their g and f times `c` are costs); the leg beyond an edge weighted as the plain
        // search's, at the smallest cost.
        let cones_of = |root: Point, c: f64| Cones {
            mesh: self,
            from: root,
            to,
            weight: HEURISTIC_WEIGHT * min_cost / c,
        };
        // Enters the triangle beyond `edge` (left with `cones`, at cost `c`, in the run that
        // began as `run`) with successor `s`, unless it was entered with a lower f. Into a
        // triangle of another cost, a new run starts on the edge where f is least (see the
        // module documentation). A goal triangle is not entered: the way's cost to the goal
        // is compared with the best so far.
        let enter = |scratch: &mut PathScratch,
                     best: &mut (f64, TriangleId),
                     cones: &Cones,
                     (c, run): (f64, Option<RunStart>),
                     edge: HalfEdge,
                     s: Successor| {
            let into = self.neighbours(edge.triangle())[edge.edge()];
            let (cone, root, run, g, f) = if cost(into) == c {
                (s.cone, cones.from, run, s.g * c, s.f * c)
            } else {
                let (at, seen) = (cones.point(s.cone.root), cones.seen(s.cone, cones.ends(edge)));
                let x = cheapest_on_edge(seen, (at, c), (to, HEURISTIC_WEIGHT * min_cost));
                let (mut before, mut g_before) = (at, s.g * c);
                if let Some(r) = run.filter(|_| s.cone.root == START) {
                    let (y, g_y) = r.rechoose(x, c);
                    if g_y + c * y.distance(x) < g_before + c * at.distance(x) {
                        (before, g_before) = (y, g_y);
                    }
                }
                let g = g_before + c * before.distance(x);
                let run = RunStart { before, g: g_before, cost: c, seen };
                (Cone::FROM_START, x, Some(run), g, g + HEURISTIC_WEIGHT * min_cost * x.distance(to))
            };
            let i = into.index();
            if goals.contains(&into) {
                let c = cost(into);
                let mut total = c * cones_of(root, c).to_goal(cone, g / c, edge);
                if let Some(r) = run.filter(|_| cone.root == START) {
                    let (y, g_y) = r.rechoose(to, c);
                    total = total.min(g_y + c * y.distance(to));
                }
                if total < best.0 {
                    *best = (total, into);
                    scratch.parent[i] = edge;
                    scratch.weighted.entry[i] = root;
                }
                return;
            }
            if scratch.seen.contains(i) && f64::from_bits(scratch.f_bits[i]) <= f {
                return;
            }
            scratch.seen.insert(i);
            scratch.g[i] = g;
            scratch.f_bits[i] = f.to_bits();
            scratch.parent[i] = edge;
            scratch.cones[i] = cone;
            scratch.weighted.entry[i] = root;
            scratch.weighted.run[i] = run;
            scratch.open.push(OpenNode { f_bits: f.to_bits(), item: into.0 });
        };
        // The triangle across `edge` if the search may enter it.
        let beyond = |scratch: &PathScratch, edge: HalfEdge| {
            let next = self.neighbours(edge.triangle())[edge.edge()];
            (!next.is_none() && !scratch.closed.contains(next.index()) && scratch.pass.allows(self, next))
                .then_some(next)
        };
        let mut best = (f64::INFINITY, TriangleId::NONE);
        for &start in starts {
            scratch.closed.insert(start.index());
            scratch.parent[start.index()] = HalfEdge::NONE;
            if goals.contains(&start) && cost(start) * from.distance(to) < best.0 {
                best = (cost(start) * from.distance(to), start);
            }
        }
        for &start in starts {
            let c = cost(start);
            let cones = cones_of(from, c);
            for k in 0..3 {
                let edge = HalfEdge::new(start, k);
                if beyond(scratch, edge).is_some() {
                    let f = cones.estimate(&cones.view(cones.ends(edge)), Cone::FROM_START, 0.0);
                    enter(
                        scratch,
                        &mut best,
                        &cones,
                        (c, None),
                        edge,
                        Successor { cone: Cone::FROM_START, g: 0.0, f },
                    );
                }
            }
        }
        let (mut expanded, mut exhausted) = (0u32, false);
        let mut nearest = (f64::INFINITY, TriangleId::NONE);
        loop {
            let t = match scratch.next_entry(best.0, budget, &mut expanded) {
                NextEntry::Expand { node, f } => {
                    if partial && f - scratch.g[node] < nearest.0 {
                        nearest = (f - scratch.g[node], TriangleId::from_index(node));
                    }
                    node
                }
                NextEntry::Exhausted => {
                    exhausted = true;
                    break;
                }
                NextEntry::Done => break,
            };
            let here = TriangleId::from_index(t);
            let c = cost(here);
            let (g, entry, cone) = (scratch.g[t] / c, scratch.parent[t], scratch.cones[t]);
            let (cones, run) = (cones_of(scratch.weighted.entry[t], c), scratch.weighted.run[t]);
            let came_from = entry.triangle();
            let i =
                self.neighbours(here).iter().position(|&n| n == came_from).expect("entered from a neighbour");
            let far = cones.far_edges(here, i);
            let next = far.edges.map(|edge| beyond(scratch, edge).is_some());
            if next == [false, false] {
                continue;
            }
            let successors = cones.successors(&far, cone, g, next);
            for (&edge, s) in far.edges.iter().zip(successors) {
                if let Some(s) = s {
                    enter(scratch, &mut best, &cones, (c, run), edge, s);
                }
            }
        }
        scratch.expanded = expanded;
        let goal = best.1;
        if goal.is_none() {
            if exhausted && partial {
                return Ok(self.weighted_partial_end((from, starts), to, (nearest.1, costs), scratch));
            }
            return Err(if exhausted {
                PathError::BudgetExhausted { budget }
            } else {
                PathError::Unreachable
            });
        }
        self.corridor_to(goal.index(), scratch);
        Ok((goal, None))
    }

    /// Where a weighted fast search that ran out of budget ends (see
    /// [`Self::search_weighted_corridor`]): the point of triangle `reached` nearest `to`, the
    /// corridor leading there, unless a start triangle's point comes as near (then that
    /// triangle and point, with no corridor); `from` when nothing was expanded.
    fn weighted_partial_end(
        &self,
        (from, starts): (Point, &[TriangleId]),
        to: Point,
        (reached, costs): (TriangleId, &AreaCosts),
        scratch: &mut PathScratch,
    ) -> (TriangleId, Option<Point>) {
        scratch.corridor.clear();
        if reached.is_none() {
            return (starts[0], Some(from));
        }
        let (mut end, mut triangle) = (from, starts[0]);
        for &start in starts {
            if let Some(q) = self.partial_end_in(start, to, costs)
                && q.distance(to) < end.distance(to)
            {
                (end, triangle) = (q, start);
            }
        }
        if let Some(q) = self.partial_end_in(reached, to, costs)
            && q.distance(to) < end.distance(to)
        {
            self.corridor_to(reached.index(), scratch);
            (end, triangle) = (q, reached);
        }
        (triangle, Some(end))
    }

    /// The point of triangle `t` nearest `to` where a partial path may end: where an agent
    /// can ask for its next path, so in a triangle of a type `costs` allows (the nearest point
    /// lies on an edge when `to` is outside `t`, and is rounded off the edge's line, perhaps
    /// onto excluded ground or off the mesh); else a point a millionth of the way from it to
    /// `t`'s centroid, else none.
    fn partial_end_in(&self, t: TriangleId, to: Point, costs: &AreaCosts) -> Option<Point> {
        let corners = self.triangle_points(t);
        let q = closest_point_on_triangle(to, corners);
        let centroid = Point::new(
            (corners[0].x + corners[1].x + corners[2].x) / 3.0,
            (corners[0].y + corners[1].y + corners[2].y) / 3.0,
        );
        let inward = Point::new(q.x + (centroid.x - q.x) * 1e-6, q.y + (centroid.y - q.y) * 1e-6);
        let allowed = |p: Point| self.locate_all(p).any(|u| !costs.is_excluded(self.area_id(u)));
        [q, inward].into_iter().find(|&p| allowed(p))
    }
}

/// Fast mode's corridor, cut into runs of one cost where it crosses [`Cut`]s.
struct Runs<'a> {
    mesh: &'a NavMesh,
    costs: &'a AreaCosts,
    from: Point,
    to: Point,
    /// The corridor's last triangle.
    goal: TriangleId,
    corridor: &'a [HalfEdge],
}

impl Runs<'_> {
    /// The triangle the corridor is in before crossing `j` (after the last: the goal's).
    fn triangle(&self, j: usize) -> TriangleId {
        self.corridor.get(j).map_or(self.goal, |c| c.triangle())
    }

    /// The corridor indices of run `k`'s crossings: those before its end cut.
    fn crossings(&self, w: &WeightedScratch, k: usize) -> std::ops::Range<usize> {
        let first = if k == 0 { 0 } else { w.cuts[k - 1].at + 1 };
        first..w.cuts.get(k).map_or(self.corridor.len(), |c| c.at)
    }

    /// String-pulls each run between its cut points into `points`, each piece's cost per unit
    /// length into `w.factor` and each cut's index in `points`; returns the path's cost.
    fn pull(
        &self,
        w: &mut WeightedScratch,
        portals: &mut Vec<Portal>,
        piece: &mut Vec<Point>,
        points: &mut Vec<Point>,
    ) -> f64 {
        points.clear();
        w.factor.clear();
        points.push(self.from);
        let (mut start, mut total) = (self.from, 0.0);
        for k in 0..=w.cuts.len() {
            let crossings = self.crossings(w, k);
            let end = w.cuts.get(k).map_or(self.to, |c| c.point);
            let factor = self.costs.cost(self.mesh.area_id(self.triangle(crossings.start)));
            portals.clear();
            portals.push((start, start));
            for &crossing in &self.corridor[crossings] {
                let (corners, i) = (self.mesh.triangle_points(crossing.triangle()), crossing.edge());
                portals.push((corners[(i + 1) % 3], corners[i]));
            }
            portals.push((end, end));
            string_pull(portals, piece);
            for &p in piece.iter().skip(1) {
                let last = *points.last().expect("the start is in");
                if p != last {
                    total += last.distance(p) * factor;
                    points.push(p);
                    w.factor.push(factor);
                }
            }
            if let Some(cut) = w.cuts.get_mut(k) {
                cut.index = points.len() - 1;
            }
            start = end;
        }
        total
    }

    /// Lowers the factor of each piece that runs along an edge of its run's triangles to the
    /// cost of the triangle beyond, when that is cheaper and not excluded.
    fn charge_edges(&self, w: &mut WeightedScratch, pass: &PocketPass, points: &[Point]) {
        let mut first_piece = 0;
        for k in 0..=w.cuts.len() {
            let last_piece = w.cuts.get(k).map_or(points.len() - 1, |c| c.index);
            let crossings = self.crossings(w, k);
            for j in crossings.start..=crossings.end {
                let t = self.triangle(j);
                let own = self.costs.cost(self.mesh.area_id(t));
                let corners = self.mesh.triangle_points(t);
                for (e, &next) in self.mesh.neighbours(t).iter().enumerate() {
                    if next.is_none() || pass.excludes(self.mesh, next) {
                        continue;
                    }
                    let beyond = self.costs.cost(self.mesh.area_id(next));
                    if beyond >= own {
                        continue;
                    }
                    let (a, b) = (corners[e], corners[(e + 1) % 3]);
                    let on_edge = |p: Point| {
                        let along = (p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y);
                        orient(a, b, p) == Orientation::Collinear
                            && (0.0..=(b.x - a.x).powi(2) + (b.y - a.y).powi(2)).contains(&along)
                    };
                    for i in first_piece..last_piece {
                        if on_edge(points[i]) && on_edge(points[i + 1]) {
                            w.factor[i] = w.factor[i].min(beyond);
                        }
                    }
                }
            }
            first_piece = last_piece;
        }
    }
}

/// The point of the edge `ends` where the way from `prev` (at cost `f0` per unit) to `next` (at
/// `f1`) through it costs least: the cost is convex along the edge, so where its derivative
/// changes sign (Snell's law), found by Newton steps from where the straight way crosses the
/// edge, kept inside a shrinking bracket (a bisection step where Newton's would leave it), to
/// within [`EDGE_TOLERANCE`] of the edge.
pub(crate) fn cheapest_on_edge(
    (a, b): (Point, Point),
    (prev, f0): (Point, f64),
    (next, f1): (Point, f64),
) -> Point {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let dd = dx * dx + dy * dy;
    let at = |s: f64| Point::new(a.x + dx * s, a.y + dy * s);
    // The first and second derivatives of f0 |x - prev| + f1 |x - next| at x = at(s).
    let slope = |s: f64| {
        let x = at(s);
        let (mut d1, mut d2) = (0.0, 0.0);
        for (end, f) in [(prev, f0), (next, f1)] {
            let (ux, uy) = (x.x - end.x, x.y - end.y);
            let len = (ux * ux + uy * uy).sqrt();
            if len > 0.0 {
                let along = ux * dx + uy * dy;
                d1 += f * along / len;
                d2 += f * (dd * len * len - along * along) / (len * len * len);
            }
        }
        (d1, d2)
    };
    if slope(0.0).0 >= 0.0 {
        return a;
    }
    if slope(1.0).0 <= 0.0 {
        return b;
    }
    // Start where the straight way from `prev` to `next` crosses the edge (the answer when
    // the two costs are equal), else at the middle.
    let side = |p: Point| (next.x - prev.x) * (p.y - prev.y) - (next.y - prev.y) * (p.x - prev.x);
    let (ca, cb) = (side(a), side(b));
    let crossing = ca / (ca - cb);
    let start = if crossing > 0.0 && crossing < 1.0 { crossing } else { 0.5 };
    let (mut lo, mut hi, mut s) = (0.0f64, 1.0f64, start);
    for _ in 0..64 {
        let (d1, d2) = slope(s);
        if d1 > 0.0 {
            hi = s;
        } else {
            lo = s;
        }
        let newton = s - d1 / d2;
        let next_s = if d2 > 0.0 && newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
        let step = (next_s - s).abs();
        s = next_s;
        if step <= EDGE_TOLERANCE || hi - lo <= EDGE_TOLERANCE {
            break;
        }
    }
    at(s)
}

impl Weighted<'_> {
    /// A* over the Steiner graph. Ok(true) when the goal was reached, Ok(false) when the
    /// budget ran out (`w.nearest` then holds, with partial paths on, the expanded node with
    /// the smallest estimate where a path may end: [`Self::may_end_at`]);
    /// `Unreachable` when the goal cannot be reached.
    fn run(&self, w: &mut WeightedScratch, budget: u32, expanded: &mut u32) -> Result<bool, PathError> {
        let links = if self.links { self.mesh.links.directed.len() } else { 0 };
        let nodes = self.start_node as usize + 1 + 2 * links;
        if w.g.len() < nodes {
            w.g.resize(nodes, 0.0);
            w.parent.resize(nodes, u32::MAX);
            w.via.resize(nodes, TriangleId::NONE);
        }
        w.seen.clear(nodes);
        w.closed.clear(nodes);
        w.open.clear();
        // Consistent with links too: a link's start is estimated at most `link_bound`, which
        // is at most the link's cost plus the estimate at its end.
        let h = |p: Point| (p.distance(self.to) * self.min_cost).min(self.link_bound);
        let s = self.start_node as usize;
        w.seen.insert(s);
        w.g[s] = 0.0;
        w.parent[s] = u32::MAX;
        w.nearest = (f64::INFINITY, self.start_node);
        w.open.push(OpenNode { f_bits: h(self.from).to_bits(), item: self.start_node });
        let mut boundary = [(0u32, 0u8, Point::new(0.0, 0.0)); MAX_BOUNDARY];
        let mut fan = [TriangleId::NONE; 64];
        *expanded = 0;
        while let Some(entry) = w.open.pop() {
            let u = entry.item;
            if w.closed.contains(u as usize) {
                continue;
            }
            if u == self.goal_node {
                return Ok(true);
            }
            if *expanded == budget {
                return Ok(false);
            }
            *expanded += 1;
            w.closed.insert(u as usize);
            let (gu, pu) = (w.g[u as usize], self.point(u));
            if self.options.partial {
                // (Measured again, not f - g: rounding would make ties.)
                let estimate = h(pu);
                if estimate < w.nearest.0 && self.may_end_at(u) {
                    w.nearest = (estimate, u);
                }
            }
            if let Place::LinkFrom(d) = self.place(u) {
                // Taken: a piece through no triangle.
                let (end, cost) = (self.link_node(d, 1), self.mesh.links.directed[d as usize].cost);
                if !w.closed.contains(end as usize) {
                    self.relax(w, (end, self.point(end)), gu + cost, u, TriangleId::NONE, &h);
                }
                continue;
            }
            // The triangles around u, and which of their edges u is inside (3: a corner or
            // inside the triangle).
            let around = self.around(u, w.via[u as usize], &mut fan);
            for &t in &fan[..around] {
                if !self.pass.allows(self.mesh, t) {
                    continue;
                }
                let u_edge = self.edge_of(t, u);
                let n = self.boundary(t, &mut boundary);
                // Along an edge through u (its own, or a corner's two), only u's neighbours
                // there: a step further along passes them at the same cost.
                let u_at = boundary[..n].iter().position(|b| b.0 == u && b.1 == u_edge);
                let lines = match (u_edge, u_at) {
                    (3, Some(_)) => {
                        let k = self.mesh.triangles()[t.index()].iter().position(|c| c.0 == u).unwrap_or(3);
                        [k as u8, ((k + 2) % 3) as u8]
                    }
                    (k, Some(_)) => [k, k],
                    (_, None) => [3, 3],
                };
                let (own, along_edge) = (self.factor(t, None), [0, 1, 2].map(|k| self.factor(t, Some(k))));
                for (i, &(v, v_edge, at)) in boundary[..n].iter().enumerate() {
                    if v == u || w.closed.contains(v as usize) {
                        continue;
                    }
                    if v_edge != 3 && lines.contains(&v_edge) {
                        let d = u_at.map_or(0, |u_at| i.abs_diff(u_at));
                        if d.min(n - d) > 1 {
                            continue;
                        }
                    }
                    let factor = self.shared_edge(t, u, u_edge, v, v_edge).map_or(own, |k| along_edge[k]);
                    let g = gu + pu.distance(at) * factor;
                    self.relax(w, (v, at), g, u, t, &h);
                }
                if self.links {
                    for d in self.mesh.links.starting_in(t) {
                        let (start, at) = (self.link_node(d, 0), self.mesh.links.directed[d as usize].from);
                        if !w.closed.contains(start as usize) {
                            let g = gu + pu.distance(at) * own;
                            self.relax(w, (start, at), g, u, t, &h);
                        }
                    }
                    // Into a triangle beside t holding a link's start, through the edge.
                    for (k, &n) in self.mesh.neighbours(t).iter().enumerate() {
                        if n.is_none() || fan[..around].contains(&n) || !self.pass.allows(self.mesh, n) {
                            continue;
                        }
                        for d in self.mesh.links.starting_in(n) {
                            let (start, at) =
                                (self.link_node(d, 0), self.mesh.links.directed[d as usize].from);
                            if !w.closed.contains(start as usize) {
                                let g = gu + self.through(t, k, pu, at, None);
                                self.relax(w, (start, at), g, u, t, &h);
                            }
                        }
                    }
                }
                if self.goals.contains(&t) {
                    let g = gu + pu.distance(self.to) * self.factor(t, None);
                    self.relax(w, (self.goal_node, self.to), g, u, t, &h);
                } else {
                    // Into a goal triangle beside t that u is not on: through the edge's
                    // cheapest point (the goal may lie near the edge, far from its points).
                    for (k, &n) in self.mesh.neighbours(t).iter().enumerate() {
                        if self.goals.contains(&n)
                            && !fan[..around].contains(&n)
                            && self.pass.allows(self.mesh, n)
                        {
                            let g = gu + self.through(t, k, pu, self.to, None);
                            self.relax(w, (self.goal_node, self.to), g, u, t, &h);
                        }
                    }
                }
            }
            self.start_through(w, (u, gu), &mut boundary, &h);
        }
        Err(PathError::Unreachable)
    }

    /// The cost of the way from `p` in `t` across `t`'s edge `k` to `q` in the triangle beyond,
    /// through the edge's cheapest point (written to `point` if given).
    fn through(&self, t: TriangleId, k: usize, p: Point, q: Point, point: Option<&mut Point>) -> f64 {
        let corners = self.mesh.triangle_points(t);
        let n = self.mesh.neighbours(t)[k];
        let (f0, f1) = (self.factor(t, None), self.factor(n, None));
        let x = cheapest_on_edge((corners[k], corners[(k + 1) % 3]), (p, f0), (q, f1));
        if let Some(point) = point {
            *point = x;
        }
        p.distance(x) * f0 + x.distance(q) * f1
    }

    /// From node `u` (reached at cost `gu`) if it is the start or a link's end: the nodes on
    /// the boundary of each triangle beside one holding it, through the edge between (it may
    /// lie near or on the edge, far from its points): each reached through the triangle
    /// beyond, which tells [`Self::read_path`] to put the edge's point back.
    fn start_through(
        &self,
        w: &mut WeightedScratch,
        (u, gu): (u32, f64),
        boundary: &mut [Boundary; MAX_BOUNDARY],
        h: &impl Fn(Point) -> f64,
    ) {
        let Some((origins, from)) = self.origin(u) else { return };
        for &t in origins {
            if !self.pass.allows(self.mesh, t) {
                continue;
            }
            for (k, &n) in self.mesh.neighbours(t).iter().enumerate() {
                if n.is_none() || origins.contains(&n) || !self.pass.allows(self.mesh, n) {
                    continue;
                }
                let count = self.boundary(n, boundary);
                for &(v, _, at) in &boundary[..count] {
                    if !w.closed.contains(v as usize) {
                        let g = gu + self.through(t, k, from, at, None);
                        self.relax(w, (v, at), g, u, n, h);
                    }
                }
            }
        }
    }

    /// Of a node the way leaves as from a start (the start, a link's end): the triangles
    /// holding it and where it is.
    fn origin(&self, node: u32) -> Option<(&[TriangleId], Point)> {
        match self.place(node) {
            Place::Start => Some((self.starts, self.from)),
            Place::LinkTo(d) => Some((self.mesh.links.end_triangles(d), self.point(node))),
            _ => None,
        }
    }

    /// Of a node the way arrives at as at a goal (the goal, a link's start): the triangles
    /// holding it.
    fn target(&self, node: u32) -> Option<&[TriangleId]> {
        match self.place(node) {
            Place::Goal => Some(self.goals),
            Place::LinkFrom(d) => Some(self.mesh.links.start_triangles(d)),
            _ => None,
        }
    }

    fn relax(
        &self,
        w: &mut WeightedScratch,
        (v, at): (u32, Point),
        g: f64,
        u: u32,
        t: TriangleId,
        h: &impl Fn(Point) -> f64,
    ) {
        let i = v as usize;
        if w.seen.contains(i) && w.g[i] <= g {
            return;
        }
        w.seen.insert(i);
        w.g[i] = g;
        w.parent[i] = u;
        w.via[i] = t;
        w.open.push(OpenNode { f_bits: (g + h(at)).to_bits(), item: v });
    }

    /// Fills `fan` with the triangles a piece from node `u` may cross: the start's triangles;
    /// the two sides of an edge; the fan around a vertex that holds `via` (the triangle it was
    /// reached through: paths never pass a vertex from one fan to another). Returns how many.
    fn around(&self, u: u32, via: TriangleId, fan: &mut [TriangleId; 64]) -> usize {
        match self.place(u) {
            Place::Start => {
                let n = self.starts.len().min(fan.len());
                fan[..n].copy_from_slice(&self.starts[..n]);
                n
            }
            Place::Goal | Place::LinkFrom(_) => 0,
            Place::LinkTo(d) => {
                let ends = self.mesh.links.end_triangles(d);
                let n = ends.len().min(fan.len());
                fan[..n].copy_from_slice(&ends[..n]);
                n
            }
            Place::OnEdge(h, _) => {
                let t = TriangleId(h / 3);
                let n = self.mesh.neighbours(t)[(h % 3) as usize];
                fan[0] = t;
                if n.is_none() {
                    1
                } else {
                    fan[1] = n;
                    2
                }
            }
            Place::Vertex(v) => {
                let mesh = self.mesh;
                let corner = |t: TriangleId| mesh.triangles()[t.index()].iter().position(|w| w.0 == v);
                let mut n = 0;
                fan[n] = via;
                n += 1;
                for leaving in [true, false] {
                    let mut cur = via;
                    while n < fan.len() {
                        let c = corner(cur).expect("the fan shares the vertex");
                        let next = mesh.neighbours(cur)[if leaving { c } else { (c + 2) % 3 }];
                        if next.is_none() || next == via {
                            break;
                        }
                        if !fan[..n].contains(&next) {
                            fan[n] = next;
                            n += 1;
                        }
                        cur = next;
                    }
                }
                n
            }
        }
    }

    /// Which edge of `t` node `u` is inside (3: a corner of `t`, the start or the goal).
    fn edge_of(&self, t: TriangleId, u: u32) -> u8 {
        match self.place(u) {
            Place::OnEdge(h, _) => {
                let (owner, k) = (TriangleId(h / 3), (h % 3) as usize);
                if owner == t {
                    k as u8
                } else {
                    self.mesh.neighbours(t).iter().position(|&x| x == owner).map_or(3, |j| {
                        debug_assert_eq!(self.mesh.neighbours(owner)[k], t);
                        j as u8
                    })
                }
            }
            _ => 3,
        }
    }

    /// The edge of `t` both nodes lie on, if any (a corner lies on two edges).
    fn shared_edge(&self, t: TriangleId, u: u32, u_edge: u8, v: u32, v_edge: u8) -> Option<usize> {
        let tri = self.mesh.triangles()[t.index()];
        let on = |node: u32, edge: u8, k: usize| {
            if edge != 3 {
                edge as usize == k
            } else {
                matches!(self.place(node), Place::Vertex(x) if x == tri[k].0 || x == tri[(k + 1) % 3].0)
            }
        };
        (0..3).find(|&k| on(u, u_edge, k) && on(v, v_edge, k))
    }

    /// Writes the path found to node `last` (the goal, or where a partial path ends) into
    /// `points`, with each point's slide edge and each piece's cost and triangle.
    fn read_path(&self, w: &mut WeightedScratch, last: u32, points: &mut Vec<Point>) {
        w.nodes.clear();
        let mut node = last;
        while node != u32::MAX {
            w.nodes.push(node);
            node = w.parent[node as usize];
        }
        w.nodes.reverse();
        points.clear();
        w.slide.clear();
        w.factor.clear();
        w.piece_triangle.clear();
        w.vertex.clear();
        w.stale.clear();
        w.moved.clear();
        w.taken.clear();
        for (i, &node) in w.nodes.iter().enumerate() {
            let at = self.point(node);
            if i > 0 {
                let t = w.via[node as usize];
                // A step through an edge (from the start or a link's end into a triangle beside
                // its own, or into the goal's or a link start's from beside it): the edge's
                // point is put back.
                let origin = self.origin(w.nodes[i - 1]).map(|o| o.0).filter(|o| !o.contains(&t));
                let target = self.target(node).filter(|o| !o.contains(&t));
                let crossed = if let Some(origins) = origin {
                    let from = origins.iter().copied().find(|&s| self.mesh.neighbours(s).contains(&t));
                    from.map(|s| (s, t))
                } else if let Some(targets) = target {
                    let into = targets.iter().copied().find(|&g| self.mesh.neighbours(t).contains(&g));
                    into.map(|g| (t, g))
                } else {
                    None
                };
                if let Some((a, b)) = crossed {
                    let k = self.mesh.neighbours(a).iter().position(|&x| x == b).expect("neighbours");
                    let corners = self.mesh.triangle_points(a);
                    let mut x = at;
                    let last = *points.last().expect("the start is in");
                    self.through(a, k, last, at, Some(&mut x));
                    points.push(x);
                    w.vertex.push(u32::MAX);
                    w.slide.push(Some((corners[k], corners[(k + 1) % 3])));
                    w.piece_triangle.extend([a, b]);
                    w.factor.extend([0.0, 0.0]);
                } else {
                    w.piece_triangle.push(t);
                    w.factor.push(0.0);
                }
            }
            if let Place::LinkTo(d) = self.place(node) {
                w.taken.push(d);
            }
            points.push(at);
            w.vertex.push(match self.place(node) {
                Place::Vertex(v) => v,
                _ => u32::MAX,
            });
            w.slide.push(match self.place(node) {
                Place::OnEdge(h, _) => Some(self.edge_ends(h)),
                _ => None,
            });
        }
        // The end stays where it is (a partial path's may be a point on an edge).
        if let Some(end) = w.slide.last_mut() {
            *end = None;
        }
        w.stale.resize(points.len(), true);
        w.moved.resize(points.len(), true);
        self.update_factors(w, points);
    }

    /// Each piece's cost per unit length from where its ends are now: its triangle's cost, or
    /// along an edge of it, the cheaper of the two sides (only the pieces with an end moved
    /// since the last update).
    fn update_factors(&self, w: &mut WeightedScratch, points: &[Point]) {
        for i in 0..w.factor.len() {
            if !(w.moved[i] || w.moved[i + 1]) {
                continue;
            }
            let t = w.piece_triangle[i];
            if t.is_none() {
                continue; // a link taken: its cost is its own
            }
            let corners = self.mesh.triangle_points(t);
            let (a, b) = (points[i], points[i + 1]);
            let along = (0..3).find(|&k| {
                let (p, q) = (corners[k], corners[(k + 1) % 3]);
                orient(p, q, a) == Orientation::Collinear && orient(p, q, b) == Orientation::Collinear
            });
            let factor = self.factor(t, along);
            if factor != w.factor[i] {
                w.factor[i] = factor;
                w.stale[i] = true;
                w.stale[i + 1] = true;
            }
        }
        w.moved.fill(false);
    }

    /// Slides each point on an edge along it to where its two pieces cost least, sweep after
    /// sweep (at most `sweeps`, stopping when a sweep gains less than [`SWEEP_GAIN`] of the
    /// cost).
    fn refine(&self, w: &mut WeightedScratch, points: &mut [Point], sweeps: usize) {
        let n = points.len();
        if n < 3 {
            return;
        }
        let cost = |points: &[Point], factor: &[f64]| -> f64 {
            points.windows(2).zip(factor).map(|(p, f)| p[0].distance(p[1]) * f).sum()
        };
        let mut before = cost(points, &w.factor);
        for _ in 0..sweeps {
            w.sweep_points.clear();
            w.sweep_points.extend_from_slice(points);
            w.sweep_factor.clear();
            w.sweep_factor.extend_from_slice(&w.factor);
            straighten_runs(w, points);
            for i in 1..n - 1 {
                let Some((a, b)) = w.slide[i] else { continue };
                if !w.stale[i] {
                    continue;
                }
                w.stale[i] = false;
                let (prev, next) = (points[i - 1], points[i + 1]);
                let (f0, f1) = (w.factor[i - 1], w.factor[i]);
                let piece_cost = |x: Point| prev.distance(x) * f0 + x.distance(next) * f1;
                let x = cheapest_on_edge((a, b), (prev, f0), (next, f1));
                if piece_cost(x) < piece_cost(points[i]) {
                    move_point((&mut w.stale, &mut w.moved), points, i, x);
                }
            }
            self.update_factors(w, points);
            let after = cost(points, &w.factor);
            if after > before {
                // A point slid off an edge that a piece through it ran along, which the slide
                // priced at the cheaper side's cost: the sweep is undone.
                points.copy_from_slice(&w.sweep_points);
                w.factor.copy_from_slice(&w.sweep_factor);
                w.stale.fill(false);
                w.moved.fill(false);
                break;
            }
            let gained = before - after;
            before = after;
            if gained <= SWEEP_GAIN * after {
                break;
            }
        }
    }
}

impl Weighted<'_> {
    /// Where the path bends at a mesh vertex that is not a wall's corner for it, the cheapest
    /// way may pass beside the vertex instead: the vertex is replaced by one point on each
    /// edge of its fan between the two pieces' triangles (going round one way, then the other,
    /// stopping at walls and excluded triangles), those points refined, and the cheaper path
    /// kept (a few sweeps each). Returns whether any vertex was unpinned.
    fn unpin_vertices(&self, w: &mut WeightedScratch, points: &mut Vec<Point>) -> bool {
        let mut changed = false;
        let mut i = 1;
        while i + 1 < points.len() {
            if w.vertex[i] == u32::MAX {
                i += 1;
                continue;
            }
            let before = self.cost_of(w, points);
            save(w, points, Slot::Original);
            let mut best: Option<f64> = None;
            for leaving in [true, false] {
                if !leaving {
                    load(w, points, Slot::Original);
                }
                if self.replace_vertex(w, points, i, leaving) {
                    self.update_factors(w, points);
                    self.refine(w, points, TRIAL_SWEEPS);
                    let cost = self.cost_of(w, points);
                    if cost < best.unwrap_or(before) * (1.0 - 1e-12) {
                        best = Some(cost);
                        save(w, points, Slot::Best);
                    }
                }
            }
            load(w, points, if best.is_some() { Slot::Best } else { Slot::Original });
            changed |= best.is_some();
            i += 1;
        }
        changed
    }

    /// Makes each point that slid onto an end of its edge the mesh vertex it is there.
    fn pin_edge_ends(&self, w: &mut WeightedScratch, points: &[Point]) {
        let inner = points.len().saturating_sub(1);
        for (i, &point) in points.iter().enumerate().take(inner).skip(1) {
            let Some((a, b)) = w.slide[i] else { continue };
            if point != a && point != b {
                continue;
            }
            let t = w.piece_triangle[i - 1];
            let corners = self.mesh.triangles()[t.index()];
            if let Some(v) = corners.iter().find(|v| self.mesh.vertices()[v.index()] == point) {
                w.vertex[i] = v.0;
                w.slide[i] = None;
            }
        }
    }

    fn cost_of(&self, w: &WeightedScratch, points: &[Point]) -> f64 {
        points.windows(2).zip(&w.factor).map(|(p, f)| p[0].distance(p[1]) * f).sum()
    }

    /// Replaces path point `i` (a vertex) by points on the fan edges between the triangles of
    /// its two pieces, walking the fan one way. False when that way meets a wall first.
    fn replace_vertex(
        &self,
        w: &mut WeightedScratch,
        points: &mut Vec<Point>,
        i: usize,
        leaving: bool,
    ) -> bool {
        let mesh = self.mesh;
        let v = w.vertex[i];
        let (t1, t2) = (w.piece_triangle[i - 1], w.piece_triangle[i]);
        let at = mesh.vertices()[v as usize];
        if t1 == t2 {
            // Straight on within one triangle.
            points.remove(i);
            w.slide.remove(i);
            w.vertex.remove(i);
            w.stale.remove(i);
            w.moved.remove(i);
            w.factor.remove(i);
            w.piece_triangle.remove(i);
            w.stale[i - 1] = true;
            w.stale[i] = true;
            w.moved[i] = true;
            return true;
        }
        let mut cur = t1;
        for k in i..i + 64 {
            let tri = mesh.triangles()[cur.index()];
            let Some(c) = tri.iter().position(|x| x.0 == v) else { return false };
            let edge = if leaving { c } else { (c + 2) % 3 };
            let next = mesh.neighbours(cur)[edge];
            if next.is_none() || self.pass.excludes(mesh, next) {
                return false;
            }
            let other = if leaving { tri[(c + 1) % 3] } else { tri[(c + 2) % 3] };
            let end = mesh.vertices()[other.index()];
            // A point sliding along the shared edge, starting at its middle (at the vertex,
            // where the pieces' costs have a kink, sliding one point at a time can stall); the
            // piece before it in `cur`, the one after it in `next`.
            let start = at.midpoint(end);
            if k == i {
                points[k] = start;
                w.slide[k] = Some((at, end));
                w.vertex[k] = u32::MAX;
                w.piece_triangle[k - 1] = cur;
                w.stale[k - 1] = true;
            } else {
                points.insert(k, start);
                w.slide.insert(k, Some((at, end)));
                w.vertex.insert(k, u32::MAX);
                w.stale.insert(k, true);
                w.moved.insert(k, true);
                w.factor.insert(k - 1, 0.0);
                w.piece_triangle.insert(k - 1, cur);
            }
            w.stale[k] = true;
            w.stale[k + 1] = true;
            w.moved[k] = true;
            w.piece_triangle[k] = next;
            if next == t2 {
                return true;
            }
            if next == t1 {
                return false;
            }
            cur = next;
        }
        false
    }
}

/// Which saved copy of the path.
#[derive(Clone, Copy)]
enum Slot {
    Original,
    Best,
}

/// Saves the path into `slot`.
fn save(w: &mut WeightedScratch, points: &[Point], slot: Slot) {
    let b = match slot {
        Slot::Original => &mut w.backup,
        Slot::Best => &mut w.best,
    };
    b.points.clear();
    b.points.extend_from_slice(points);
    b.slide.clear();
    b.slide.extend_from_slice(&w.slide);
    b.factor.clear();
    b.factor.extend_from_slice(&w.factor);
    b.piece_triangle.clear();
    b.piece_triangle.extend_from_slice(&w.piece_triangle);
    b.vertex.clear();
    b.vertex.extend_from_slice(&w.vertex);
    b.stale.clear();
    b.stale.extend_from_slice(&w.stale);
    b.moved.clear();
    b.moved.extend_from_slice(&w.moved);
}

/// Puts the path saved in `slot` back.
fn load(w: &mut WeightedScratch, points: &mut Vec<Point>, slot: Slot) {
    let b = match slot {
        Slot::Original => &w.backup,
        Slot::Best => &w.best,
    };
    points.clear();
    points.extend_from_slice(&b.points);
    w.slide.clear();
    w.slide.extend_from_slice(&b.slide);
    w.factor.clear();
    w.factor.extend_from_slice(&b.factor);
    w.piece_triangle.clear();
    w.piece_triangle.extend_from_slice(&b.piece_triangle);
    w.vertex.clear();
    w.vertex.extend_from_slice(&b.vertex);
    w.stale.clear();
    w.stale.extend_from_slice(&b.stale);
    w.moved.clear();
    w.moved.extend_from_slice(&b.moved);
}

/// Moves path point `i` to `to`, marking it moved and it and its neighbours stale if it moved.
fn move_point((stale, moved): (&mut [bool], &mut [bool]), points: &mut [Point], i: usize, to: Point) {
    if points[i] != to {
        points[i] = to;
        moved[i] = true;
        let last = (i + 1).min(points.len() - 1);
        stale[i.saturating_sub(1)..=last].fill(true);
    }
}

/// Within each run of pieces of one cost, where the straight segment between the run's ends
/// crosses every sliding point's edge, the points move onto it: that is the run's cheapest
/// way through its triangles (sliding points one at a time gets there only slowly).
fn straighten_runs(w: &mut WeightedScratch, points: &mut [Point]) {
    let n = points.len();
    let mut first = 0;
    while first + 1 < n {
        let mut last = first + 1;
        while last + 1 < n && w.factor[last] == w.factor[first] && w.slide[last].is_some() {
            last += 1;
        }
        if last > first + 1 {
            let (a, b) = (points[first], points[last]);
            let crossing = |i: usize| {
                let (p, q) = w.slide[i]?;
                // a + t (b - a) = p + s (q - p), s in [0, 1]: cross both sides with b - a.
                let (dx, dy, ex, ey) = (b.x - a.x, b.y - a.y, q.x - p.x, q.y - p.y);
                let den = ex * dy - ey * dx;
                if den == 0.0 {
                    return None;
                }
                let s = ((a.x - p.x) * dy - (a.y - p.y) * dx) / den;
                (0.0..=1.0).contains(&s).then(|| Point::new(p.x + s * ex, p.y + s * ey))
            };
            if (first + 1..last).all(|i| crossing(i).is_some()) {
                for i in first + 1..last {
                    let to = crossing(i).expect("checked above");
                    move_point((&mut w.stale, &mut w.moved), points, i, to);
                }
            }
        }
        first = last;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cost through `x` of the way from `prev` to `next`.
    fn through(x: Point, (prev, f0): (Point, f64), (next, f1): (Point, f64)) -> f64 {
        prev.distance(x) * f0 + x.distance(next) * f1
    }

    #[test]
    fn cheapest_point_of_an_edge_beats_every_sampled_point() {
        let edge = (Point::new(-3.0, 0.0), Point::new(5.0, 0.0));
        let cases = [
            ((Point::new(0.0, 2.0), 1.0), (Point::new(4.0, -1.0), 3.0)),
            ((Point::new(0.0, 2.0), 3.0), (Point::new(4.0, -1.0), 0.5)),
            // The cheapest place at an end of the edge.
            ((Point::new(-6.0, 1.0), 1.0), (Point::new(-5.0, -1.0), 1.0)),
            // An end of the way on the edge's line (a kink of the cost there).
            ((Point::new(1.0, 0.0), 2.0), (Point::new(3.0, -2.0), 1.0)),
        ];
        for (prev, next) in cases {
            let x = cheapest_on_edge(edge, prev, next);
            let best = through(x, prev, next);
            for k in 0..=10_000 {
                let s = k as f64 / 10_000.0;
                let y = Point::new(-3.0 + 8.0 * s, 0.0);
                assert!(best <= through(y, prev, next) + 1e-9, "{x:?} costs {best}, {y:?} less");
            }
        }
        // Snell's law where the way crosses: f0 sin(a0) = f1 sin(a1).
        let (prev, next) = ((Point::new(0.0, 2.0), 1.0), (Point::new(4.0, -1.0), 3.0));
        let x = cheapest_on_edge(edge, prev, next);
        let sin = |p: Point| (x.x - p.x).abs() / x.distance(p);
        assert!((sin(prev.0) * prev.1 - sin(next.0) * next.1).abs() < 1e-8);
    }
}
