//! Paths with area costs other than 1 (weighted regions): a Steiner-point search, then the path
//! refined along the edges it crosses.
//!
//! The exact cheapest path through weighted regions cannot be computed in general (de Berg et
//! al. 2024); Steiner-point searches (Aleksandrov, Maheshwari and Sack) approach it. Here every
//! triangle edge holds `m` evenly spaced points besides its ends; A* runs over the vertices and
//! these points, a step joining two points on the boundary of one triangle (not of an
//! excluded type) at the distance times that triangle's cost (along an edge shared by two
//! types, the cheaper), the estimate the straight distance to the goal times the smallest
//! cost. The path found is then refined: each point on an edge slides along that edge to where
//! the two pieces through it cost least (golden-section search: the cost is convex along the
//! edge), sweep after sweep until a sweep gains nothing, so that each point obeys Snell's law
//! of refraction for the sequence of edges found. Mesh vertices on the path stay.
//!
//! Fast mode uses [`FAST_POINTS`] per edge and a few sweeps; optimal mode [`OPTIMAL_POINTS`]
//! and sweeps until converged. The README and the tests (`tests/weighted.rs`) give the cost
//! ratios measured against a dense Steiner-point oracle.

use std::collections::BinaryHeap;

use crate::geometry::{Orientation, Point, orient};
use crate::ids::TriangleId;
use crate::mesh::NavMesh;
use crate::query::path::search::OpenNode;
use crate::query::path::{GenerationSet, Path, PathError, PathMode, PathOptions, PathScratch, PocketPass};

/// Steiner points inside each edge in fast mode.
pub(crate) const FAST_POINTS: usize = 1;
/// Steiner points inside each edge in optimal mode.
pub(crate) const OPTIMAL_POINTS: usize = 5;
/// Refinement sweeps in fast mode (optimal mode sweeps until a sweep gains nothing).
const FAST_SWEEPS: usize = 3;
/// The most refinement sweeps in optimal mode.
const OPTIMAL_SWEEPS: usize = 200;
/// Refinement sweeps when a vertex is tried unpinned (the whole path is refined again after).
const TRIAL_SWEEPS: usize = 3;
/// A sweep that gains less than this fraction of the cost ends the refinement.
const SWEEP_GAIN: f64 = 1e-9;

/// The most points a triangle's boundary holds (3 corners, `m` per edge).
const MAX_BOUNDARY: usize = 3 + 3 * OPTIMAL_POINTS;

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
    /// Copies of the path while changes to it are tried: as it was, and the best change.
    backup: PathCopy,
    best: PathCopy,
}

/// A path with what the refinement knows of its points and pieces.
#[derive(Clone, Debug, Default)]
struct PathCopy {
    points: Vec<Point>,
    slide: Vec<Option<(Point, Point)>>,
    factor: Vec<f64>,
    piece_triangle: Vec<TriangleId>,
    vertex: Vec<u32>,
}

/// Where a search node is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Vertex(u32),
    /// Point `j` of the edge named by its canonical half-edge (`3 t + k`).
    OnEdge(u32, u32),
    Start,
    Goal,
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
    /// Points per edge.
    m: usize,
    vertices: u32,
    goal_node: u32,
    start_node: u32,
}

impl Weighted<'_> {
    fn place(&self, node: u32) -> Place {
        if node == self.start_node {
            Place::Start
        } else if node == self.goal_node {
            Place::Goal
        } else if node < self.vertices {
            Place::Vertex(node)
        } else {
            let i = node - self.vertices;
            Place::OnEdge(i / self.m as u32, i % self.m as u32)
        }
    }

    /// The canonical half-edge of edge `k` of `t`: the one named by the lower triangle id (or
    /// `t`'s own on the boundary).
    fn canonical(&self, t: TriangleId, k: usize) -> (TriangleId, usize) {
        let n = self.mesh.neighbours(t)[k];
        if n.is_none() || t.0 < n.0 {
            return (t, k);
        }
        let j = self.mesh.neighbours(n).iter().position(|&x| x == t).expect("neighbours are symmetric");
        (n, j)
    }

    fn edge_node(&self, (t, k): (TriangleId, usize), j: usize) -> u32 {
        self.vertices + ((3 * t.0 as usize + k) * self.m + j) as u32
    }

    fn point(&self, node: u32) -> Point {
        match self.place(node) {
            Place::Start => self.from,
            Place::Goal => self.to,
            Place::Vertex(v) => self.mesh.vertices()[v as usize],
            Place::OnEdge(h, j) => {
                let (a, b) = self.edge_ends(h);
                let s = (j as f64 + 1.0) / (self.m as f64 + 1.0);
                Point::new(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s)
            }
        }
    }

    /// The ends of half-edge `h` (`3 t + k`).
    fn edge_ends(&self, h: u32) -> (Point, Point) {
        let [a, b, c] = self.mesh.triangle_points(TriangleId(h / 3));
        match h % 3 {
            0 => (a, b),
            1 => (b, c),
            _ => (c, a),
        }
    }

    /// The nodes on the boundary of `t`, each with the edge of `t` it is inside (3 for a
    /// corner), into `out`; returns how many.
    fn boundary(&self, t: TriangleId, out: &mut [(u32, u8); MAX_BOUNDARY]) -> usize {
        let tri = self.mesh.triangles()[t.index()];
        let mut n = 0;
        for (k, corner) in tri.iter().enumerate() {
            out[n] = (corner.0, 3);
            n += 1;
            let canonical = self.canonical(t, k);
            for j in 0..self.m {
                out[n] = (self.edge_node(canonical, j), k as u8);
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

impl NavMesh {
    /// The cheapest path (within the mode's bound) from `from` (in every triangle of
    /// `starts`) to `to` (in every triangle of `goals`) under weighted area costs.
    pub(crate) fn route_weighted(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let connected = starts.iter().any(|&s| goals.iter().any(|&g| self.island(s) == self.island(g)));
        if !connected {
            return Err(PathError::Unreachable);
        }
        scratch.pass.open(self, [starts, goals], &options.area_costs);
        let m = if options.mode == PathMode::Optimal { OPTIMAL_POINTS } else { FAST_POINTS };
        let vertices = self.vertices().len() as u32;
        let goal_node = vertices + (3 * self.triangle_count() * m) as u32;
        let search = Weighted {
            mesh: self,
            options,
            pass: &scratch.pass,
            from,
            to,
            starts,
            goals,
            m,
            vertices,
            goal_node,
            start_node: goal_node + 1,
        };
        let budget = options.node_budget.unwrap_or(u32::MAX);
        let w = &mut scratch.weighted;
        let found = search.run(w, budget, &mut scratch.expanded)?;
        if !found {
            return Err(PathError::BudgetExhausted { budget });
        }
        search.read_path(w, &mut out.points);
        let sweeps = if options.mode == PathMode::Optimal { OPTIMAL_SWEEPS } else { FAST_SWEEPS };
        search.refine(w, &mut out.points, sweeps);
        if search.unpin_vertices(w, &mut out.points) {
            search.refine(w, &mut out.points, sweeps);
        }
        // Points the refinement slid onto each other (onto a corner, mostly) are one.
        let mut k = 1;
        while k < out.points.len() {
            if out.points[k] == out.points[k - 1] {
                out.points.remove(k);
                w.factor.remove(k - 1);
            } else {
                k += 1;
            }
        }
        out.length = out.points.windows(2).map(|p| p[0].distance(p[1])).sum();
        out.cost = (out.points.windows(2).zip(&w.factor)).map(|(p, f)| p[0].distance(p[1]) * f).sum();
        Ok(())
    }
}

impl Weighted<'_> {
    /// A* over the Steiner graph. Ok(true) when the goal was reached, Ok(false) when the
    /// budget ran out; `Unreachable` when the goal cannot be reached.
    fn run(&self, w: &mut WeightedScratch, budget: u32, expanded: &mut u32) -> Result<bool, PathError> {
        let nodes = self.start_node as usize + 1;
        if w.g.len() < nodes {
            w.g.resize(nodes, 0.0);
            w.parent.resize(nodes, u32::MAX);
            w.via.resize(nodes, TriangleId::NONE);
        }
        w.seen.clear(nodes);
        w.closed.clear(nodes);
        w.open.clear();
        let min_cost = self.options.area_costs.min_cost();
        let h = |p: Point| p.distance(self.to) * min_cost;
        let s = self.start_node as usize;
        w.seen.insert(s);
        w.g[s] = 0.0;
        w.parent[s] = u32::MAX;
        w.open.push(OpenNode { f_bits: h(self.from).to_bits(), item: self.start_node });
        let mut boundary = [(0u32, 0u8); MAX_BOUNDARY];
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
            // The triangles around u, and which of their edges u is inside (3: a corner or
            // inside the triangle).
            let around = self.around(u, w.via[u as usize], &mut fan);
            for &t in &fan[..around] {
                if !self.pass.allows(self.mesh, t) {
                    continue;
                }
                let u_edge = self.edge_of(t, u);
                let n = self.boundary(t, &mut boundary);
                for &(v, v_edge) in &boundary[..n] {
                    if v == u || w.closed.contains(v as usize) {
                        continue;
                    }
                    let along = self.shared_edge(t, u, u_edge, v, v_edge);
                    let g = gu + pu.distance(self.point(v)) * self.factor(t, along);
                    self.relax(w, v, g, u, t, &h);
                }
                if self.goals.contains(&t) {
                    let g = gu + pu.distance(self.to) * self.factor(t, None);
                    self.relax(w, self.goal_node, g, u, t, &h);
                }
            }
        }
        Err(PathError::Unreachable)
    }

    fn relax(
        &self,
        w: &mut WeightedScratch,
        v: u32,
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
        w.open.push(OpenNode { f_bits: (g + h(self.point(v))).to_bits(), item: v });
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
            Place::Goal => 0,
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

    /// Writes the path found into `points`, with each point's slide edge and each piece's
    /// cost and triangle.
    fn read_path(&self, w: &mut WeightedScratch, points: &mut Vec<Point>) {
        w.nodes.clear();
        let mut node = self.goal_node;
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
        for (i, &node) in w.nodes.iter().enumerate() {
            points.push(self.point(node));
            w.vertex.push(match self.place(node) {
                Place::Vertex(v) => v,
                _ => u32::MAX,
            });
            w.slide.push(match self.place(node) {
                Place::OnEdge(h, _) => Some(self.edge_ends(h)),
                _ => None,
            });
            if i > 0 {
                let t = w.via[node as usize];
                w.piece_triangle.push(t);
                w.factor.push(0.0);
            }
        }
        self.update_factors(w, points);
    }

    /// Each piece's cost per unit length from where its ends are now: its triangle's cost, or
    /// along an edge of it, the cheaper of the two sides.
    fn update_factors(&self, w: &mut WeightedScratch, points: &[Point]) {
        for i in 0..w.factor.len() {
            let t = w.piece_triangle[i];
            let corners = self.mesh.triangle_points(t);
            let (a, b) = (points[i], points[i + 1]);
            let along = (0..3).find(|&k| {
                let (p, q) = (corners[k], corners[(k + 1) % 3]);
                orient(p, q, a) == Orientation::Collinear && orient(p, q, b) == Orientation::Collinear
            });
            w.factor[i] = self.factor(t, along);
        }
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
            straighten_runs(w, points);
            for i in 1..n - 1 {
                let Some((a, b)) = w.slide[i] else { continue };
                let (prev, next) = (points[i - 1], points[i + 1]);
                let (f0, f1) = (w.factor[i - 1], w.factor[i]);
                let at = |s: f64| Point::new(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s);
                let piece_cost = |s: f64| {
                    let x = at(s);
                    prev.distance(x) * f0 + x.distance(next) * f1
                };
                let s = golden_section(piece_cost, 1e-10);
                let x = at(s);
                if piece_cost(s) < prev.distance(points[i]) * f0 + points[i].distance(next) * f1 {
                    points[i] = x;
                }
            }
            self.update_factors(w, points);
            let after = cost(points, &w.factor);
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
            w.factor.remove(i);
            w.piece_triangle.remove(i);
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
            } else {
                points.insert(k, start);
                w.slide.insert(k, Some((at, end)));
                w.vertex.insert(k, u32::MAX);
                w.factor.insert(k - 1, 0.0);
                w.piece_triangle.insert(k - 1, cur);
            }
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
}

/// Within each run of pieces of one cost, where the straight segment between the run's ends
/// crosses every sliding point's edge, the points move onto it: that is the run's cheapest
/// way through its triangles (sliding points one at a time gets there only slowly).
fn straighten_runs(w: &WeightedScratch, points: &mut [Point]) {
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
                for (i, point) in points.iter_mut().enumerate().take(last).skip(first + 1) {
                    *point = crossing(i).expect("checked above");
                }
            }
        }
        first = last;
    }
}

/// The minimum of a convex function on `[0, 1]`, within `tolerance`.
fn golden_section(f: impl Fn(f64) -> f64, tolerance: f64) -> f64 {
    const INV_PHI: f64 = 0.618_033_988_749_894_9;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut x1 = hi - INV_PHI * (hi - lo);
    let mut x2 = lo + INV_PHI * (hi - lo);
    let (mut f1, mut f2) = (f(x1), f(x2));
    while hi - lo > tolerance {
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - INV_PHI * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + INV_PHI * (hi - lo);
            f2 = f(x2);
        }
    }
    let mid = 0.5 * (lo + hi);
    // The ends themselves, where the minimum often is (a corner).
    [0.0, mid, 1.0].into_iter().min_by(|&x, &y| f(x).total_cmp(&f(y))).expect("three candidates")
}
