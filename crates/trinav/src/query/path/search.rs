//! Fast mode: A* over the triangles, one node per triangle. A node is a cone (module `cone`):
//! the root the way last bends at, its distance from the start (g), and what the root sees of
//! the edge the triangle was entered through. f is g plus the straight way from the root
//! through that edge to the goal, the part beyond the edge weighted by [`HEURISTIC_WEIGHT`]. A
//! triangle keeps the entry with the lowest f and is expanded once; pockets without the start
//! or goal are never entered. A node budget bounds the triangles expanded.
//!
//! Why cones: a node at the midpoint of its entry edge (Detour's layout, and this search's
//! before issue 17) has a g that zigzags where triangles are long and misleads the search into
//! longer corridors. A cone's g is the length of a taut way and its estimate a bound of the way
//! on, as in the optimal search, only with one node per triangle (the README's peer-bench
//! section has the lengths and times of both).

use std::cmp::Ordering;

use crate::geometry::{Point, closest_point_on_triangle};
use crate::ids::{HalfEdge, TriangleId};
use crate::mesh::NavMesh;
use crate::query::path::cone::{Cone, Cones};
use crate::query::path::funnel::string_pull;
use crate::query::path::{LinkStep, Path, PathScratch, PocketPass, SearchEnd, tidy_path};

/// The weight of the way left beyond an edge (weighted A*): slightly above 1, so that among
/// nearly equal ways the search follows the one it is on instead of widening in all of them.
/// Not yet tuned by a side-by-side sweep; the peer-bench figures in the README are with 1.05.
pub(crate) const HEURISTIC_WEIGHT: f64 = 1.05;

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
    /// Runs A* from `from`, which lies in every triangle of `starts`, to `to`, which lies in
    /// every triangle of `goals` (the two sets do not meet), expanding at most `budget`
    /// triangles. When found, `scratch.corridor` holds the half-edges crossed, in order. When
    /// the budget runs out first, `scratch.best_reached` is the triangle closed with the
    /// smallest estimate of the way left (if any was). With a `radius` above 0, the search
    /// for a disc ([`NavMesh::search_disc_corridor`]).
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
            return self.search_disc_corridor(from, starts, to, goals, budget, (radius, false), scratch);
        }
        scratch.begin(self.triangle_count());
        scratch.per_entry = false;
        let cones = Cones { mesh: self, from, to, weight: HEURISTIC_WEIGHT };
        // The triangle across `edge` if the search may enter it: not closed, and not a pocket
        // the query has no business in.
        let beyond = |scratch: &PathScratch, edge: HalfEdge| {
            let next = self.neighbours(edge.triangle())[edge.edge()];
            (!next.is_none() && !scratch.closed.contains(next.index()) && scratch.pass.allows(self, next))
                .then_some(next)
        };
        // Enters triangle `into` through `entry` with `cone` at distance `g` and estimate `f`,
        // unless it was already entered with a lower f.
        let enter =
            |scratch: &mut PathScratch, into: TriangleId, entry: HalfEdge, cone: Cone, g: f64, f: f64| {
                scratch.offer(into.index(), entry, cone, g, f);
            };
        for &start in starts {
            scratch.closed.insert(start.index());
            scratch.parent[start.index()] = HalfEdge::NONE;
        }
        for &start in starts {
            for k in 0..3 {
                let entry = HalfEdge::new(start, k);
                if let Some(next) = beyond(scratch, entry) {
                    let f = cones.estimate(&cones.view(cones.ends(entry)), Cone::FROM_START, 0.0);
                    enter(scratch, next, entry, Cone::FROM_START, 0.0, f);
                }
            }
        }
        let (mut goal_g, mut goal) = (f64::INFINITY, TriangleId::NONE);
        let (mut expanded, mut exhausted) = (0u32, false);
        let (mut best_estimate, mut best_reached) = (f64::INFINITY, TriangleId::NONE);
        while let Some(node) = scratch.open.pop() {
            if f64::from_bits(node.f_bits) >= goal_g {
                break;
            }
            let here = TriangleId(node.item);
            let t = here.index();
            if scratch.closed.contains(t) || node.f_bits != scratch.f_bits[t] {
                continue;
            }
            if expanded == budget {
                exhausted = true;
                break;
            }
            expanded += 1;
            scratch.closed.insert(t);
            let (g, entry, cone) = (scratch.g[t], scratch.parent[t], scratch.cones[t]);
            // The weighted estimate of the way left from the root, f - g.
            let estimate = f64::from_bits(node.f_bits) - g;
            if estimate < best_estimate {
                (best_estimate, best_reached) = (estimate, here);
            }
            if goals.contains(&here) {
                let total = cones.to_goal(cone, g, entry);
                if total < goal_g {
                    (goal_g, goal) = (total, here);
                }
                continue;
            }
            let came_from = entry.triangle();
            let i =
                self.neighbours(here).iter().position(|&n| n == came_from).expect("entered from a neighbour");
            let far = cones.far_edges(here, i);
            let next = far.edges.map(|edge| beyond(scratch, edge));
            if next == [None, None] {
                continue;
            }
            let successors = cones.successors(&far, cone, g, next.map(|n| n.is_some()));
            for k in 0..2 {
                if let (Some(into), Some(s)) = (next[k], successors[k]) {
                    enter(scratch, into, far.edges[k], s.cone, s.g, s.f);
                }
            }
        }
        scratch.expanded = expanded;
        scratch.best_reached = (!best_reached.is_none()).then_some((best_reached.0, best_reached));
        if !goal.is_none() {
            self.corridor_to(goal.index(), scratch);
            SearchEnd::Found
        } else if exhausted {
            SearchEnd::Exhausted
        } else {
            SearchEnd::Unreachable
        }
    }

    /// Sets `scratch.corridor` to the half-edges crossed from a start to the closed node
    /// `node` (a triangle, or for a disc a way into one), in order.
    pub(crate) fn corridor_to(&self, node: usize, scratch: &mut PathScratch) {
        scratch.corridor.clear();
        if scratch.per_entry {
            let mut node = node as u32;
            while node != START {
                scratch.corridor.push(scratch.parent[node as usize]);
                node = scratch.parent_node[node as usize];
            }
        } else {
            let mut entry = scratch.parent[node];
            while !entry.is_none() {
                scratch.corridor.push(entry);
                entry = scratch.parent[entry.triangle().index()];
            }
        }
        scratch.corridor.reverse();
    }

    /// The midpoint of `half_edge`.
    #[inline]
    fn half_edge_midpoint(&self, half_edge: HalfEdge) -> Point {
        let (tri, i) = (self.triangles()[half_edge.triangle().index()], half_edge.edge());
        let vertices = self.vertices();
        vertices[tri[i].index()].midpoint(vertices[tri[(i + 1) % 3].index()])
    }

    /// The fast search for a disc of `radius`: only ways through triangles wider than `2 radius`
    /// wide are taken (see [`crate::clearance`]), and a triangle is a node per edge it is
    /// entered by (which ways out are wide enough depends on the way in). Each node holds a
    /// cone as in the plain search: its g is the taut length of the point's way along the
    /// corridor, which the disc's way (in the same corridor, kept off the walls) is never
    /// shorter than.
    ///
    /// Unless `every_way_in`, a triangle whose every corner is wider than the disc is one
    /// node: closed by its first way in, it goes on through its other two edges only, so a
    /// way that must enter it by another edge and leave by that first one (into a triangle
    /// whose nodes depend on the way in) is missed. Rare, and only ever a miss: a search
    /// that finds nothing is run again with `every_way_in` (a node per way in everywhere:
    /// every way a disc can take through the triangles is then searched).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_disc_corridor(
        &self,
        from: Point,
        starts: &[TriangleId],
        to: Point,
        goals: &[TriangleId],
        budget: u32,
        (radius, every_way_in): (f64, bool),
        scratch: &mut PathScratch,
    ) -> SearchEnd {
        scratch.begin(3 * self.triangle_count());
        scratch.per_entry = true;
        let widths = self.traversal_widths();
        let diameter = 2.0 * radius;
        let cones = Cones { mesh: self, from, to, weight: HEURISTIC_WEIGHT };
        // The node of the way into the triangle across half-edge `entry`: one per triangle
        // where the disc may leave by either far edge whichever edge it came in by (every
        // corner wider than the disc: the plain search's node), else one per edge entered by.
        let node_of = |entry: HalfEdge, into: TriangleId| {
            let t = into.index();
            if !every_way_in && widths[t].iter().all(|&w| f64::from(w) > diameter) {
                return 3 * t;
            }
            let came_from = entry.triangle();
            3 * t + self.neighbours(into).iter().position(|&n| n == came_from).unwrap_or(0)
        };
        // The node across half-edge `entry` if the search may enter it: a neighbour, the node
        // not closed, not a pocket the query has no business in, and not an edge found too
        // narrow for the disc.
        let open = |scratch: &PathScratch, entry: HalfEdge| {
            let into = self.neighbours(entry.triangle())[entry.edge()];
            if into.is_none() || !scratch.pass.allows(self, into) || scratch.uncrossable.contains(&entry) {
                return None;
            }
            let node = node_of(entry, into);
            (!scratch.closed.contains(node)).then_some(node)
        };
        // Enters `node` across `entry` from node `previous` with `cone` at distance `g` and
        // estimate `f`, unless it was already entered with a lower f.
        let enter = |scratch: &mut PathScratch,
                     previous: u32,
                     node: usize,
                     entry: HalfEdge,
                     cone: Cone,
                     g: f64,
                     f: f64| {
            if scratch.offer(node, entry, cone, g, f) {
                scratch.parent_node[node] = previous;
            }
        };
        for &start in starts {
            let corners = self.triangle_points(start);
            for i in 0..3 {
                // A disc leaves through an edge longer than its diameter (or with an end on no
                // wall, inside a portal: that end does not hold it back).
                let entry = HalfEdge::new(start, i);
                if let Some(node) = open(scratch, entry)
                    && (corners[i].distance(corners[(i + 1) % 3]) > diameter || self.has_open_end(start, i))
                {
                    let f = cones.estimate(&cones.view(cones.ends(entry)), Cone::FROM_START, 0.0);
                    enter(scratch, START, node, entry, Cone::FROM_START, 0.0, f);
                }
            }
        }
        // A start triangle holding the goal gives the way that never leaves it (its straight
        // segment came too near a wall: the funnel bends it round the walls' ends).
        let (mut goal_g, mut goal) = goal_in_a_start(from, starts, to, goals);
        let (mut expanded, mut exhausted) = (0u32, false);
        let (mut best_estimate, mut best_reached) = (f64::INFINITY, None);
        loop {
            let (node, f) = match scratch.next_entry(goal_g, budget, &mut expanded) {
                NextEntry::Expand { node, f } => (node, f),
                NextEntry::Exhausted => {
                    exhausted = true;
                    break;
                }
                NextEntry::Done => break,
            };
            let (g, entry, cone) = (scratch.g[node], scratch.parent[node], scratch.cones[node]);
            let here = self.neighbours(entry.triangle())[entry.edge()];
            // The weighted estimate of the way left, f - g.
            let estimate = f - g;
            if estimate < best_estimate {
                (best_estimate, best_reached) = (estimate, Some((node as u32, here)));
            }
            if goals.contains(&here) {
                let total = cones.to_goal(cone, g, entry);
                if total < goal_g {
                    (goal_g, goal) = (total, Some(node as u32));
                }
                continue;
            }
            let came_from = entry.triangle();
            let i =
                self.neighbours(here).iter().position(|&n| n == came_from).expect("entered from a neighbour");
            let far = cones.far_edges(here, i);
            // The way from edge i to a far edge goes round their shared corner. A passage
            // exactly as wide as the disc is closed: the disc would touch both sides, which
            // rounding cannot prove it clears.
            let nodes = far.edges.map(|edge| {
                open(scratch, edge)
                    .filter(|_| f64::from(widths[here.index()][shared_corner(i, edge.edge())]) > diameter)
            });
            if nodes == [None, None] {
                continue;
            }
            let successors = cones.successors(&far, cone, g, nodes.map(|n| n.is_some()));
            for k in 0..2 {
                if let (Some(next), Some(s)) = (nodes[k], successors[k]) {
                    enter(scratch, node as u32, next, far.edges[k], s.cone, s.g, s.f);
                }
            }
        }
        scratch.expanded = expanded;
        scratch.best_reached = best_reached;
        if let Some(goal) = goal {
            self.corridor_to(goal as usize, scratch);
            SearchEnd::Found
        } else if exhausted {
            SearchEnd::Exhausted
        } else {
            SearchEnd::Unreachable
        }
    }
}

/// The per-entry searches' first goal: reached from [`START`] at the straight distance when a
/// start triangle holds it (the way that never leaves it), else none yet.
fn goal_in_a_start(
    from: Point,
    starts: &[TriangleId],
    to: Point,
    goals: &[TriangleId],
) -> (f64, Option<u32>) {
    match starts.iter().any(|s| goals.contains(s)) {
        true => (from.distance(to), Some(START)),
        false => (f64::INFINITY, None),
    }
}

/// What the searches with a node per way into a triangle (the disc's, the links') do next.
pub(crate) enum NextEntry {
    /// Expand `node`, whose open entry had estimate `f` (it is now closed and counted).
    Expand { node: usize, f: f64 },
    /// The budget is spent with nodes still open.
    Exhausted,
    /// Nothing open can beat the goal found, or nothing is open.
    Done,
}

impl PathScratch {
    /// The next node of a search (per entry, or per triangle as the weighted one): pops the open list, skipping closed nodes and
    /// stale entries, until a node whose `f` is below `goal_g` (else `Done`); when `expanded`
    /// has reached `budget`, `Exhausted` instead; otherwise closes and counts the node.
    #[inline]
    pub(crate) fn next_entry(&mut self, goal_g: f64, budget: u32, expanded: &mut u32) -> NextEntry {
        while let Some(open) = self.open.pop() {
            if f64::from_bits(open.f_bits) >= goal_g {
                return NextEntry::Done;
            }
            let node = open.item as usize;
            if self.closed.contains(node) || open.f_bits != self.f_bits[node] {
                continue;
            }
            if *expanded == budget {
                return NextEntry::Exhausted;
            }
            *expanded += 1;
            self.closed.insert(node);
            return NextEntry::Expand { node, f: f64::from_bits(open.f_bits) };
        }
        NextEntry::Done
    }
}

/// The `parent_node` of a node entered from a start triangle (the disc search).
pub(crate) const START: u32 = u32::MAX;

/// The corner two edges (0..3) of a triangle share: edge `i` runs from corner `i` to `i + 1`.
#[inline]
fn shared_corner(i: usize, j: usize) -> usize {
    if j == (i + 1) % 3 { j } else { i }
}

/// The fast search on a mesh with off-mesh links (module [`crate::links`]): a node per way into
/// a triangle, through an edge (placed at its midpoint) or by a link (at the link's end), as in
/// the search for a disc; a link is a step from a triangle holding its start, costing the way
/// to the start plus the link's cost. The estimate is the straight way to the goal or the least
/// any way through a link costs, whichever is smaller (weighted as elsewhere). The corridor is
/// then pulled piece by piece between the links taken. The fast mode runs it only when neither
/// its walking path nor the chain of links the bound picks is found (see
/// [`NavMesh::chain_through_links`]).
impl NavMesh {
    /// Runs the search; when found, [`NavMesh::pull_link_corridor`] writes the path.
    pub(crate) fn search_link_corridor(
        &self,
        from: Point,
        starts: &[TriangleId],
        to: Point,
        goals: &[TriangleId],
        budget: u32,
        scratch: &mut PathScratch,
    ) -> SearchEnd {
        let base = 3 * self.triangle_count();
        scratch.begin(base + self.links.directed.len());
        scratch.per_entry = true;
        let mut work = std::mem::take(&mut scratch.link_work);
        self.link_estimates((to, goals), (&scratch.pass, 0.0), &mut work);
        let estimates = std::mem::take(&mut work.estimates);
        let walk = LinkWalk { mesh: self, base, to, estimates };
        // The node the goal is reached from ([`START`]: a start triangle holds it).
        let (mut goal_g, mut goal) = goal_in_a_start(from, starts, to, goals);
        for &start in starts {
            walk.leave(scratch, START, start, from, 0.0, None);
        }
        let (mut expanded, mut exhausted) = (0u32, false);
        let (mut best_estimate, mut best_reached) = (f64::INFINITY, None);
        loop {
            let (node, f) = match scratch.next_entry(goal_g, budget, &mut expanded) {
                NextEntry::Expand { node, f } => (node, f),
                NextEntry::Exhausted => {
                    exhausted = true;
                    break;
                }
                NextEntry::Done => break,
            };
            let g = scratch.g[node];
            let at = walk.position(scratch, node);
            let estimate = f - g;
            if estimate < best_estimate {
                (best_estimate, best_reached) = (estimate, Some((node as u32, TriangleId::NONE)));
            }
            let entry = scratch.parent[node];
            if entry == HalfEdge::LINK {
                let d = (node - base) as u32;
                for &t in self.links.end_triangles(d) {
                    // An end on excluded ground is left only through its allowed triangles.
                    if scratch.pass.excludes(self, t) {
                        continue;
                    }
                    if goals.contains(&t) && g + at.distance(to) < goal_g {
                        (goal_g, goal) = (g + at.distance(to), Some(node as u32));
                    }
                    walk.leave(scratch, node as u32, t, at, g, None);
                }
                continue;
            }
            let here = self.neighbours(entry.triangle())[entry.edge()];
            if goals.contains(&here) && g + at.distance(to) < goal_g {
                (goal_g, goal) = (g + at.distance(to), Some(node as u32));
            }
            let came_from = entry.triangle();
            let i =
                self.neighbours(here).iter().position(|&n| n == came_from).expect("entered from a neighbour");
            walk.leave(scratch, node as u32, here, at, g, Some(i));
        }
        scratch.expanded = expanded;
        scratch.best_reached = best_reached;
        work.estimates = walk.estimates;
        scratch.link_work = work;
        if let Some(goal) = goal {
            scratch.goal_node = goal;
            SearchEnd::Found
        } else if exhausted {
            SearchEnd::Exhausted
        } else {
            SearchEnd::Unreachable
        }
    }

    /// The fast mode's way through links, chosen by the bound of [`NavMesh::link_estimates`]:
    /// from the start, the link (on the start's island) with the least straight way to its
    /// start plus its bound, then the links that bound takes next; each piece between
    /// links walked by the cone search and pulled taut (for a disc of `radius` above 0, its
    /// walk, [`NavMesh::walk`]). Writes the path into `out` and returns its cost: infinite
    /// when a piece is not found within the budget (or the disc does not fit at a link's
    /// end), `None` when no link is worth trying (its estimate not below `cap`). Its paths are
    /// valid, not always the cheapest: the bound walks straight between links.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn chain_through_links(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        budget: u32,
        cap: f64,
        radius: f64,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Option<f64> {
        let &start = starts.first()?;
        if goals.is_empty() {
            return None;
        }
        let mut work = std::mem::take(&mut scratch.link_work);
        self.link_estimates((to, goals), (&scratch.pass, radius), &mut work);
        let start_island = self.island(start).0;
        let directed = &self.links.directed;
        // Any link with a bound is a chain to the goal (settled or not: its `next` are), and
        // may beat a long walk even when it does not beat the straight way.
        let first = (0..directed.len())
            .filter(|&d| directed[d].from_island == start_island && work.bound[d].is_finite())
            .map(|d| (d as u32, from.distance(directed[d].from) + work.bound[d]))
            .fold(None, |best: Option<(u32, f64)>, next| match best {
                Some(best) if best.1 <= next.1 => Some(best),
                _ => Some(next),
            });
        let written = match first {
            Some((d, estimate)) if estimate < cap => Some(self.walk_chain(
                (from, starts),
                (to, goals),
                d,
                &work.next,
                budget,
                radius,
                scratch,
                out,
            )),
            _ => None,
        };
        scratch.link_work = work;
        if written != Some(true) {
            out.points.clear();
            out.links.clear();
        }
        written.map(|written| match written {
            true => {
                self.measure(out);
                out.cost
            }
            false => f64::INFINITY,
        })
    }

    /// Writes the path from `from` through directed link `first` and the links `next` chains
    /// after it to `to`, each piece walked (see [`NavMesh::chain_through_links`]); false when
    /// a piece is not found within `budget` expansions in all, or a disc of `radius` does not
    /// fit at a link's end.
    #[allow(clippy::too_many_arguments)]
    fn walk_chain(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        first: u32,
        next: &[u32],
        budget: u32,
        radius: f64,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> bool {
        out.points.clear();
        out.links.clear();
        let mut piece = std::mem::take(&mut scratch.piece);
        // Each piece's triangles, less excluded ones: a link end on excluded ground is reached
        // and left only through the allowed triangles beside it (none: the link is unusable).
        let (mut at_triangles, mut target_triangles) = std::mem::take(&mut scratch.chain_ends);
        at_triangles.clear();
        at_triangles.extend_from_slice(starts);
        let (mut at, mut d, mut left) = (from, first, budget);
        let walked = loop {
            let target = match d {
                u32::MAX => {
                    target_triangles.clear();
                    target_triangles.extend_from_slice(goals);
                    to
                }
                d => {
                    self.allowed_of(self.links.start_triangles(d), &scratch.pass, &mut target_triangles);
                    self.links.directed[d as usize].from
                }
            };
            piece.clear();
            if target_triangles.is_empty() {
                break false;
            }
            if radius > 0.0 && d != u32::MAX && !self.disc_fits_link_ends(d, radius) {
                break false;
            }
            if radius == 0.0 && at_triangles.iter().any(|t| target_triangles.contains(t)) {
                piece.extend([at, target]);
            } else {
                let ends = ((at, &at_triangles[..]), (target, &target_triangles[..]));
                if !matches!(
                    self.walk(ends, radius, false, &mut left, scratch, &mut piece),
                    Ok(SearchEnd::Found)
                ) {
                    break false;
                }
            }
            out.points.extend_from_slice(&piece);
            if d == u32::MAX {
                break true;
            }
            let link = &self.links.directed[d as usize];
            out.links.push(LinkStep { point: out.points.len() - 1, link: link.link });
            at = link.to;
            self.allowed_of(self.links.end_triangles(d), &scratch.pass, &mut at_triangles);
            if at_triangles.is_empty() {
                break false;
            }
            d = next[d as usize];
        };
        scratch.piece = piece;
        scratch.chain_ends = (at_triangles, target_triangles);
        tidy_path(&mut out.points, &mut out.links);
        walked
    }

    /// Writes into `out` the triangles of `list` that `pass` does not exclude.
    fn allowed_of(&self, list: &[TriangleId], pass: &PocketPass, out: &mut Vec<TriangleId>) {
        out.clear();
        out.extend(list.iter().copied().filter(|&t| !pass.excludes(self, t)));
    }

    /// Writes the path the link search found: the corridor of each piece between links pulled
    /// taut, the links marked.
    pub(crate) fn pull_link_corridor(
        &self,
        from: Point,
        to: Point,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) {
        self.pull_link_pieces(from, scratch.goal_node, to, scratch, out);
    }

    /// After the link search ran out of budget: the path to the most promising node reached
    /// (its midpoint or link end), or none beyond the start.
    pub(crate) fn partial_link_corridor(
        &self,
        from: Point,
        starts: &[TriangleId],
        to: Point,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) {
        let walk = LinkWalk { mesh: self, base: 3 * self.triangle_count(), to, estimates: Vec::new() };
        let start_best = starts
            .iter()
            .map(|&t| closest_point_on_triangle(to, self.triangle_points(t)))
            .fold(from, |best, q| if q.distance(to) < best.distance(to) { q } else { best });
        match scratch.best_reached {
            Some((node, _))
                if walk.position(scratch, node as usize).distance(to) < start_best.distance(to) =>
            {
                let end = walk.position(scratch, node as usize);
                self.pull_link_pieces(from, node, end, scratch, out);
            }
            _ => {
                out.points.clear();
                out.links.clear();
                out.points.push(from);
                if start_best != from {
                    out.points.push(start_best);
                }
            }
        }
    }

    /// Writes the path from `from` through the chain of nodes ending at `node` to `end`.
    fn pull_link_pieces(
        &self,
        from: Point,
        node: u32,
        end: Point,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) {
        let base = 3 * self.triangle_count();
        // The chain, backwards: crossings, and the links between them.
        scratch.corridor.clear();
        scratch.hops.clear();
        let mut n = node;
        while n != START {
            let entry = scratch.parent[n as usize];
            if entry == HalfEdge::LINK {
                scratch.hops.push((scratch.corridor.len(), n - base as u32));
            } else {
                scratch.corridor.push(entry);
            }
            n = scratch.parent_node[n as usize];
        }
        scratch.corridor.reverse();
        let crossings = scratch.corridor.len();
        for hop in scratch.hops.iter_mut() {
            hop.0 = crossings - hop.0;
        }
        scratch.hops.reverse();
        out.points.clear();
        out.links.clear();
        let (mut piece_from, mut first) = (from, 0);
        for k in 0..=scratch.hops.len() {
            let (last, piece_to) = match scratch.hops.get(k) {
                Some(&(at, d)) => (at, self.links.directed[d as usize].from),
                None => (crossings, end),
            };
            scratch.portals.clear();
            scratch.portals.push((piece_from, piece_from));
            for &crossing in &scratch.corridor[first..last] {
                let (corners, i) = (self.triangle_points(crossing.triangle()), crossing.edge());
                scratch.portals.push((corners[(i + 1) % 3], corners[i]));
            }
            scratch.portals.push((piece_to, piece_to));
            string_pull(&scratch.portals, &mut scratch.piece);
            if scratch.piece.last() != Some(&piece_to) {
                scratch.piece.push(piece_to);
            }
            out.points.extend_from_slice(&scratch.piece);
            if let Some(&(_, d)) = scratch.hops.get(k) {
                let link = &self.links.directed[d as usize];
                out.links.push(LinkStep { point: out.points.len() - 1, link: link.link });
                piece_from = link.to;
                first = last;
            }
        }
        tidy_path(&mut out.points, &mut out.links);
    }
}

/// The geometry of the link search's steps.
struct LinkWalk<'a> {
    mesh: &'a NavMesh,
    /// Nodes from here on arrive by a link (`base + d` for directed link `d`).
    base: usize,
    to: Point,
    /// Per directed link, [`NavMesh::link_estimates`].
    estimates: Vec<(Point, f64)>,
}

impl LinkWalk<'_> {
    /// Where a node is: its entry edge's midpoint, or the end of its link.
    fn position(&self, scratch: &PathScratch, node: usize) -> Point {
        let entry = scratch.parent[node];
        if entry == HalfEdge::LINK {
            self.mesh.links.directed[node - self.base].to
        } else {
            self.mesh.half_edge_midpoint(entry)
        }
    }

    /// Enters `node` (at `at`, by `entry`) from node `previous` at distance `g`, unless it is
    /// closed or already entered with a lower f.
    fn enter(
        &self,
        scratch: &mut PathScratch,
        previous: u32,
        node: usize,
        entry: HalfEdge,
        g: f64,
        at: Point,
    ) {
        if scratch.closed.contains(node) {
            return;
        }
        let h = at.distance(self.to).min(self.mesh.through_links(at, &self.estimates));
        let f = g + HEURISTIC_WEIGHT * h;
        if scratch.seen.contains(node) && f64::from_bits(scratch.f_bits[node]) <= f {
            return;
        }
        scratch.seen.insert(node);
        scratch.g[node] = g;
        scratch.f_bits[node] = f.to_bits();
        scratch.parent[node] = entry;
        scratch.parent_node[node] = previous;
        scratch.open.push(OpenNode { f_bits: f.to_bits(), item: node as u32 });
    }

    /// Leaves triangle `t` from `at` (node `previous`, distance `g`): through its edges but
    /// `skip`, and by the links starting in it.
    fn leave(
        &self,
        scratch: &mut PathScratch,
        previous: u32,
        t: TriangleId,
        at: Point,
        g: f64,
        skip: Option<usize>,
    ) {
        let mesh = self.mesh;
        for (j, &next) in mesh.neighbours(t).iter().enumerate() {
            if Some(j) == skip || next.is_none() || !scratch.pass.allows(mesh, next) {
                continue;
            }
            let entry = HalfEdge::new(t, j);
            let mid = mesh.half_edge_midpoint(entry);
            self.enter(scratch, previous, entry.index(), entry, g + at.distance(mid), mid);
        }
        for d in mesh.links.starting_in(t) {
            let link = mesh.links.directed[d as usize];
            let g = g + at.distance(link.from) + link.cost;
            self.enter(scratch, previous, self.base + d as usize, HalfEdge::LINK, g, link.to);
        }
    }
}
