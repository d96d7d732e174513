//! The optimal mode for a disc of radius `r`: the exact shortest path keeping `r` from every
//! wall, arcs written as circumscribed chords (see [`super::disc_funnel`]).
//!
//! Such a path is made of straight segments tangent to circles of radius `r` round the
//! turning corners (boundary vertices where the walkable area spans more than a half turn: the
//! only places a shortest path bends) and arcs of those circles. A search state is an
//! *arrival*: the path so far reaches a corner's circle at a contact point and wraps it on one
//! side (counter-clockwise, the circle on the walker's left, or clockwise). From an arrival
//! the path goes round its circle to a departure contact, then along the tangent to another
//! circle, or to the goal.
//!
//! - **Taut tangents only.** A tangent is tried only when both walls at each of its corners
//!   lie on the circle's side of it: the contact is then where the corner itself is the
//!   nearest point of its own walls, and a path bending anywhere else could be shortened.
//! - **Lazy tests.** A candidate tangent enters the open list with its cost; its arc and its
//!   segment are tested against the walls only when it comes out. The estimate (the straight
//!   distance to the goal) never overestimates, so the first goal arrival out of the open
//!   list that passes its test ends the shortest path.
//! - **Dominance.** Of two arrivals at one circle and side, one that can go round the circle
//!   to the other's contact at no more cost makes the other redundant: it is not expanded.
//! - **Candidates.** From the start, the corners in sight of it; from a corner's circle, the
//!   corners in sight of that corner ([`super::disc_sight`]). When a path of length `L` is
//!   known (the fast mode's, tried first), only corners `c` with `|s c| + |c g| - 2r <= L` (a
//!   path round `c`'s circle is at least that long). A corner expanded a few times keeps the
//!   list of the corners it sees, nearest first (read up to the first corner too far for such
//!   a path); until then its walk does not look through an edge beyond which every corner is
//!   farther.
//!
//! The tangent from circle `c` to circle `d` keeps `r` from every wall only if the segment
//! `c d` meets no wall; so the search is complete over the tangents between corners, which is
//! where every shortest disc path lies.
//!
//! - **Turning back.** A tangent leaving a circle more than a half turn round from where the
//!   path arrived is refused (round a corner where the floor folds: past its last taut
//!   contact); [`taut_sides`] tells so from the centres' offset, before the
//!   tangent is worked out (the arrival's direction counts as one more wall).
//! - **Floors that fold.** Round a portal's end where the floor turns more than a full turn
//!   and less than one and a half (a ramp turning back over its own foot; found by adding up
//!   the fan's angles), the corner's two walls lie on two sheets of the floor: a tangent is
//!   taut there unless it crosses both, and an arc may go round by more than a half turn, up
//!   to the last taut contact ([`arc_room`]); the two tests that rule tangents out by the
//!   half turn ([`taut_sides`], [`LeavingRoom`]) let every tangent from or to such a corner
//!   through to be worked out.
//! - **The leaving room.** Those three walls hold every taut tangent from an arrival within a
//!   wedge, and the centres it can reach within `2 r` of it ([`LeavingRoom`]): the walk from a
//!   circle does not look through an edge that misses that room, and list entries outside it
//!   are passed over.
//! - **Kept clearances.** The walls a tangent between two corners' circles must keep `r` from
//!   are searched for when it leaves the open list; where the segment between the two
//!   corners keeps `2 r` from every wall but their own on the side the tangent runs (see
//!   [`NavMesh::sight_line_is_free`]), none is near, and where a corner keeps `2 r` and a
//!   little more from every wall but its own, no wall is near its arcs. Those clearances
//!   depend on the mesh alone: each is measured the second time it is asked about and kept
//!   (16 bits, rounded down) beside the sight lists, for every later query and radius.
//!
//! **Off-mesh links.** The disc's centre walks to a link's start, takes the link (its cost) and
//! goes on from its end; a link is usable only when both its ends have the clearance `r` (as a
//! path's start and goal must). From every arrival, each link's start is a candidate target
//! like the goal (tested lazily, its ends' clearance too, once per query); taking it adds an
//! arrival at its end, expanded as the start is. With links, the estimate is the straight way
//! to the goal or the least a way through a link costs ([`NavMesh::link_estimates`]),
//! whichever is smaller, and the cuts by a known path's cost use it (through an edge: the
//! least way to the goal through it, or the way to the edge plus the least link estimate).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::f64::consts::{PI, TAU};
use std::sync::OnceLock;
use std::sync::atomic::{self, AtomicU16, AtomicU32};

use crate::clearance::{ClearanceScratch, segment_distance, segments_nearer};
use crate::geometry::{Orientation, Point, angle_at, orient};
use crate::ids::{TriangleId, VertexId};
use crate::links::LinkWork;
use crate::mesh::NavMesh;
use crate::query::path::disc_funnel::{self, ArcRun, Bend};
use crate::query::path::disc_sight::{SIGHT_CORNER, SightScratch, least_sum_through, sight_side};
use crate::query::path::{
    LinkStep, Path, PathError, PathMode, PathOptions, PathScratch, PocketPass, SearchEnd,
};

/// A turning corner a disc may bend round: its position, the unit directions of its two walls
/// (the boundary edges leaving it on either side of its fan) and a triangle at it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DiscCorner {
    pub(crate) centre: Point,
    pub(crate) walls: [Point; 2],
    pub(crate) triangle: TriangleId,
    pub(crate) vertex: VertexId,
    /// The next corner at the same vertex (a pinch point turns in several fans), or `NONE`.
    next_at_vertex: u32,
    /// Whether the fan sweeps more than a full turn (and less than one and a half: a floor
    /// folding round a portal's end; see [`arc_room`]). Its walls then cross a tangent only
    /// where both do, and an arc round it may exceed a half turn.
    pub(crate) fold: bool,
}

/// The turning corners of a mesh, where each vertex's are, and which corners each sees.
#[derive(Clone, Debug, Default)]
pub(crate) struct DiscCorners {
    pub(crate) list: Vec<DiscCorner>,
    /// Per vertex, its first corner, or `NONE`.
    first_at_vertex: Vec<u32>,
    /// Per corner, the corners in sight of it (they depend on the mesh alone, not on the
    /// query), kept once the corner has been expanded a few times.
    pub(crate) in_sight: Vec<SightList>,
}

/// The corners in sight of one corner, nearest first, once kept (each with the sides of its
/// circle a tangent may leave from to reach it taut: see [`NavMesh::corners_in_sight`]); how
/// often it was expanded; and per entry what is known of how far the segment between the two
/// corners keeps from the walls on its left and on its right (`free[2 k]`, `free[2 k + 1]`
/// for entry `k`; see [`NavMesh::sight_line_is_free`]).
#[derive(Debug)]
pub(crate) struct SightList {
    pub(crate) uses: AtomicU32,
    pub(crate) list: OnceLock<Box<[u32]>>,
    pub(crate) free: OnceLock<Box<[AtomicU16]>>,
    /// What is known of how far the corner keeps from every wall but its own (see
    /// [`NavMesh::walls_round`]), as the entries' clearances are kept.
    round: AtomicU16,
}

impl Default for SightList {
    fn default() -> Self {
        SightList {
            uses: AtomicU32::new(0),
            list: OnceLock::new(),
            free: OnceLock::new(),
            round: AtomicU16::new(FREE_UNKNOWN),
        }
    }
}

impl Clone for SightList {
    fn clone(&self) -> Self {
        let free = OnceLock::new();
        if let Some(known) = self.free.get() {
            let copy = known.iter().map(|k| AtomicU16::new(k.load(atomic::Ordering::Relaxed))).collect();
            let _ = free.set(copy);
        }
        SightList {
            uses: AtomicU32::new(self.uses.load(atomic::Ordering::Relaxed)),
            list: self.list.clone(),
            free,
            round: AtomicU16::new(self.round.load(atomic::Ordering::Relaxed)),
        }
    }
}

/// A kept clearance not measured yet (see [`kept_clearance_meets`]).
pub(crate) const FREE_UNKNOWN: u16 = u16::MAX;
/// A kept clearance asked for once, not measured yet.
const FREE_ASKED: u16 = u16::MAX - 1;

/// A distance kept in 16 bits: the upper half of its `f32` (a `bfloat16`), its size rounded
/// down by at most 1/256 (and up by the `f32` rounding, at most 2^-24).
fn to_half(x: f64) -> u16 {
    ((x as f32).to_bits() >> 16) as u16
}

/// The distance [`to_half`] kept.
fn from_half(h: u16) -> f64 {
    f64::from(f32::from_bits(u32::from(h) << 16))
}

/// Relative margin of a test against a kept clearance: covers its rounding up to an `f32`.
const KEPT_MARGIN: f64 = 1e-6;

/// Whether a kept clearance is far enough for `need`: `Some(true)` it is, `Some(false)` it
/// is not, `None` to be measured now (not yet measured, or measured no farther than less than
/// `need`). The first ask marks the slot and answers `Some(false)`, so that most slots, asked
/// once, are never measured. Kept values: positive, that far (rounded down); negative, at
/// least that far (measured no farther).
fn kept_clearance_meets(slot: &AtomicU16, need: f64) -> Option<bool> {
    match slot.load(atomic::Ordering::Relaxed) {
        FREE_UNKNOWN => {
            slot.store(FREE_ASKED, atomic::Ordering::Relaxed);
            Some(false)
        }
        FREE_ASKED => None,
        known => {
            let far = from_half(known);
            if far.abs() >= need * (1.0 + KEPT_MARGIN) { Some(true) } else { (far >= 0.0).then_some(false) }
        }
    }
}

/// Keeps a clearance `far` measured up to `reach` (see [`kept_clearance_meets`]).
fn keep_clearance(slot: &AtomicU16, far: f64, reach: f64) {
    let kept = if far >= reach { to_half(-reach) } else { to_half(far) };
    slot.store(kept, atomic::Ordering::Relaxed);
}

/// Whether the wall `p q` is one of `corner`'s own two.
fn own_wall(corner: &DiscCorner, p: Point, q: Point) -> bool {
    let along = |to: Point| {
        let d = corner.centre.distance(to);
        corner.walls.contains(&Point::new((to.x - corner.centre.x) / d, (to.y - corner.centre.y) / d))
    };
    (p == corner.centre && along(q)) || (q == corner.centre && along(p))
}

/// Two corner sets are equal when their corners are: the sight lists are a cache of those.
impl PartialEq for DiscCorners {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list && self.first_at_vertex == other.first_at_vertex
    }
}

impl DiscCorners {
    /// The corners at vertex `v`.
    pub(crate) fn at_vertex(&self, v: VertexId) -> impl Iterator<Item = u32> + '_ {
        let real = |c: u32| (c != NONE).then_some(c);
        std::iter::successors(real(self.first_at_vertex[v.index()]), move |&c| {
            real(self.list[c as usize].next_at_vertex)
        })
    }
}

/// The turning corners of a mesh, one per fan (a pinch point may turn in several fans).
///
/// Each boundary edge `a -> b` starts a fan of `a` (the triangles joined through the edges at
/// `a`, counter-clockwise from it); walking it to its last triangle gives the other boundary
/// edge, `last -> a`. The corner turns when the fan spans more than a half turn, the same exact
/// test as [`super::search_flags`] (a full turn included: on a layered mesh, a portal's end).
///
/// `folds`: whether some fan may sweep more than a full turn ([`NavMesh::layers_fold`]); only
/// then are the fans' angles added up, to find the corners that fold.
pub(crate) fn disc_corners(
    vertices: &[Point],
    triangles: &[[VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
    folds: bool,
) -> DiscCorners {
    let unit = |from: Point, to: Point| {
        let d = from.distance(to);
        Point::new((to.x - from.x) / d, (to.y - from.y) / d)
    };
    let mut corners = Vec::new();
    for (t, (tri, links)) in triangles.iter().zip(neighbours).enumerate() {
        for e in 0..3 {
            if !links[e].is_none() {
                continue;
            }
            let (a, first) = (tri[e], tri[(e + 1) % 3]);
            let mut span = 0.0;
            let (cur, k) = super::optimal::walk_fan(triangles, neighbours, t, e, |cur, k| {
                if folds {
                    let [c, a, b] =
                        [k, (k + 1) % 3, (k + 2) % 3].map(|j| vertices[triangles[cur][j].index()]);
                    span += angle_at(c, a, b);
                }
            });
            let last = triangles[cur][(k + 2) % 3];
            let [pa, pf, pl] = [a, first, last].map(|v| vertices[v.index()]);
            let fold = crate::layers::folds(span);
            let turns = fold
                || match orient(pa, pf, pl) {
                    Orientation::Clockwise => true,
                    // A full turn: a portal's end where the walls of its two layers run on one
                    // line (one layer's fans never overlap, so this is layers' only).
                    Orientation::Collinear => {
                        (pf.x - pa.x) * (pl.x - pa.x) + (pf.y - pa.y) * (pl.y - pa.y) > 0.0
                    }
                    Orientation::CounterClockwise => false,
                };
            if turns {
                corners.push(DiscCorner {
                    centre: pa,
                    walls: [unit(pa, pf), unit(pa, pl)],
                    triangle: TriangleId::from_index(t),
                    vertex: a,
                    next_at_vertex: NONE,
                    fold,
                });
            }
        }
    }
    let mut first_at_vertex = vec![NONE; vertices.len()];
    for (c, corner) in corners.iter_mut().enumerate().rev() {
        corner.next_at_vertex = first_at_vertex[corner.vertex.index()];
        first_at_vertex[corner.vertex.index()] = c as u32;
    }
    let in_sight = corners.iter().map(|_| SightList::default()).collect();
    DiscCorners { list: corners, first_at_vertex, in_sight }
}

/// Marks the start (as an arrival's corner) and the goal (as a candidate's target). Corner
/// ids count the corners; from the number of corners `n` on, `n + d` marks directed link `d`
/// (a candidate's target: its start; an arrival's corner: its end, reached through it).
const START: u32 = u32::MAX;
const GOAL: u32 = u32::MAX - 1;
/// The end of a list of arrivals.
const NONE: u32 = u32::MAX;

/// Slack of the taut and sweep tests (relative): tangents are computed in floating point.
const SLACK: f64 = 1e-9;

/// The path so far reaches `corner`'s circle (or is the start) at `at`, wrapping it on `side`.
#[derive(Clone, Copy, Debug)]
struct Arrival {
    corner: u32,
    side: f64,
    at: Point,
    g: f64,
    /// The arrival it came from, and where it left that one's circle.
    parent: u32,
    left_parent_at: Point,
    /// The next arrival at the same circle and side (a list per circle side).
    next_same: u32,
}

/// A tangent not yet tested: from arrival `parent` round its circle to `leave`, then straight
/// to `at` on `target`'s circle (or the goal), with the cost `g` there and `f = g + h`.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    f: f64,
    g: f64,
    target: u32,
    /// The side of the target's circle, as a sign (`1` counter-clockwise, `-1` clockwise):
    /// a byte keeps the open list's entries at 64 bytes.
    side: i8,
    leave: Point,
    at: Point,
    parent: u32,
    /// The target's entry in the sight list of the parent's corner, or `NONE`.
    entry: u32,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    /// Smallest `f` first (the heap is a max-heap), then largest `g`.
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.total_cmp(&self.f).then(self.g.total_cmp(&other.g))
    }
}

/// Reusable memory of the disc's optimal search.
#[derive(Clone, Debug, Default)]
pub(crate) struct DiscScratch {
    /// The corners whose circles hold the start (within the bound), found by its expansion.
    touching: Vec<u32>,
    arrivals: Vec<Arrival>,
    open: BinaryHeap<Candidate>,
    /// Per corner and side (`2 c` left, `2 c + 1` right): the first of its expanded arrivals.
    first_at: Vec<u32>,
    /// The arrivals of the path found, goal first.
    chain: Vec<u32>,
    chords: Vec<Point>,
    /// Per corner, its range of `walls` (`u32::MAX` before it is gathered), and the walls.
    walls_at: Vec<(u32, u32)>,
    walls: Vec<(Point, Point)>,
    pub(crate) arcs: Vec<ArcRun>,
    /// A path already through the wall check (the fast mode's, when it bounds the search),
    /// or empty.
    verified: Vec<Point>,
    /// Arrivals expanded by the last search.
    pub(crate) expanded: u32,
    sight: SightScratch,
    /// The entries of a kept sight list that pass the cheap tests, in list order.
    passing: Vec<u32>,
    /// With links: the estimates of [`NavMesh::link_estimates`] and, per directed link, the
    /// least cost at its start of the arrivals through it so far.
    link_work: LinkWork,
    link_g: Vec<f64>,
    /// With links, per directed link: its cost plus the estimate from its end (once per
    /// query); per corner: the estimate from its centre (`NaN`: not computed yet).
    link_rest: Vec<f64>,
    corner_estimate: Vec<f64>,
    /// A triangle holding the start (where layers overlap, tangents from the start are
    /// checked from it), and the goal's triangles (a tangent to the goal must reach it on
    /// them).
    start_triangle: Option<TriangleId>,
    goal_triangles: Vec<TriangleId>,
}

/// What the disc's search reads of the query: the goal, the radius, the length of a known
/// path (or infinity) and, with links, their estimates (see [`NavMesh::link_estimates`]).
#[derive(Clone, Copy)]
struct Aim<'a> {
    goal: Point,
    radius: f64,
    bound: f64,
    links: Option<&'a [(Point, f64)]>,
    /// With links, the least of their estimates (infinite without).
    least_link: f64,
}

impl Aim<'_> {
    /// A lower bound on the cost from `p` to the goal.
    fn estimate(&self, mesh: &NavMesh, p: Point) -> f64 {
        let straight = p.distance(self.goal);
        match self.links {
            Some(estimates) => straight.min(mesh.through_links(p, estimates)),
            None => straight,
        }
    }

    /// A lower bound on the way from `a` through segment `edge` plus the estimate from there:
    /// [`least_sum_through`] to the goal, or the way to the edge plus the least link estimate
    /// (weaker than each link's own, but it costs one test an edge).
    fn least_through(&self, a: Point, edge: [Point; 2]) -> f64 {
        let straight = least_sum_through(a, self.goal, edge);
        match self.links {
            Some(_) => straight.min(segment_distance(a, edge[0], edge[1]) + self.least_link),
            None => straight,
        }
    }

    /// The most the estimate at a point `d` from `p` falls short of `d`: the estimate is the
    /// least over targets `t` (the goal, the links' starts) of `|x t| + k_t`, at least
    /// `d - max(|p t| - k_t)`.
    fn shortfall(&self, p: Point) -> f64 {
        let straight = p.distance(self.goal);
        let target = |&(start, k): &(Point, f64)| p.distance(start) - k;
        self.links.map_or(straight, |estimates| estimates.iter().map(target).fold(straight, f64::max))
    }
}

/// The angle swept round `centre` from `from` to `to` in the direction of `side`, in
/// `[0, 2π)`, with sweeps a rounding short of a full turn taken as none.
fn sweep(centre: Point, from: Point, to: Point, side: f64) -> f64 {
    let (u, v) = ((from.x - centre.x, from.y - centre.y), (to.x - centre.x, to.y - centre.y));
    let turn = side * (u.0 * v.1 - u.1 * v.0);
    let s = turn.atan2(u.0 * v.0 + u.1 * v.1).rem_euclid(TAU);
    if s > TAU - SLACK { 0.0 } else { s }
}

/// Whether the walls at `corner` both lie on `side` of direction `u` (or on its line): a path
/// moving along `u` against the corner's circle on that side is taut there. Round a corner
/// that folds, the walls are on two sheets of the floor: the contacts where both walls cross
/// the tangent (a gap of less than a half turn between the walls' directions) are the only
/// ones not taut.
fn taut(corner: &DiscCorner, u: Point, side: f64) -> bool {
    let clear = |w: &Point| side * (u.x * w.y - u.y * w.x) >= -SLACK;
    match corner.fold {
        false => corner.walls.iter().all(clear),
        true => corner.walls.iter().any(clear),
    }
}

/// How far round `corner`'s circle on `side` a path that reached it at contact `at` may go:
/// a half turn (the taut contacts span less, so a longer sweep goes the other way round), or
/// round a corner that folds (its taut contacts span more than a half turn and less than a
/// full one), the sweep to its last taut contact on that side: a quarter turn short of the
/// wall the path moves towards. A contact a rounding past that one has no room.
fn arc_room(corner: &DiscCorner, at: Point, side: f64) -> f64 {
    if !corner.fold {
        return PI;
    }
    let [first, last] = corner.walls;
    let end = if side > 0.0 { Point::new(last.y, -last.x) } else { Point::new(-first.y, first.x) };
    let c = corner.centre;
    let room = sweep(c, at, Point::new(c.x + end.x, c.y + end.y), side);
    if room > TAU - 1e-6 { 0.0 } else { room }
}

/// For a tangent leaving `from`'s circle on `from_side` and reaching `to`'s on each side
/// (`[counter-clockwise, clockwise]`), both of radius `radius`: `false` where [`taut`] surely
/// fails for it at either corner (or no such tangent exists), or where it would leave `from`'s
/// circle more than a half turn round from where the path arrived moving along `ahead` (a
/// unit direction; the search's sweep test refuses such a turn), decided without the
/// tangent's divisions: its direction is `u = (s d + k perp(-d)) / |d|²` for `d` the centres'
/// offset, `k` the difference of the signed radii and `s = sqrt(|d|² - k²)`, so `u × w |d|²`
/// is `s (d × w) + k (d · w)`. A turn of at most a half turn from `ahead` is the taut test's
/// for a wall along `-ahead`. The margin (twice [`SLACK`]) leaves every case near either
/// test's edge to it.
fn taut_sides(from: &DiscCorner, from_side: f64, ahead: Point, to: &DiscCorner, radius: f64) -> [bool; 2] {
    // Round a corner that folds, neither test holds: the tangent is worked out.
    if from.fold || to.fold {
        return [true; 2];
    }
    let from_walls = [from.walls[0], from.walls[1], Point::new(-ahead.x, -ahead.y)];
    let (dx, dy) = (to.centre.x - from.centre.x, to.centre.y - from.centre.y);
    let d2 = dx * dx + dy * dy;
    let cross = |w: Point| dx * w.y - dy * w.x;
    let dot = |w: Point| dx * w.x + dy * w.y;
    // The same side (`k = 0`, `s = |d|`): `side (d × w) >= -2 SLACK |d|`, squared.
    let slack2 = 4.0 * SLACK * SLACK * d2;
    let parallel = |w: Point| {
        let c = cross(w);
        from_side * c >= 0.0 || c * c <= slack2
    };
    let same = from_walls.iter().chain(&to.walls).all(|&w| parallel(w));
    // The other side (`k = -2 from_side radius`, a crossing tangent), the target's side the
    // opposite: `side (s (d × w) + k (d · w)) >= -2 SLACK |d|²`.
    let k = -2.0 * from_side * radius;
    let crossing = d2 > k * k && {
        let s = (d2 - k * k).sqrt();
        let slack = -2.0 * SLACK * d2;
        let holds = |side: f64, w: Point| side * (s * cross(w) + k * dot(w)) >= slack;
        from_walls.iter().all(|&w| holds(from_side, w)) && to.walls.iter().all(|&w| holds(-from_side, w))
    };
    if from_side > 0.0 { [same, crossing] } else { [crossing, same] }
}

/// Where the centres lie of the circles that a tangent leaving a corner's circle on `side`
/// may reach taut, after an arrival moving along `ahead`: [`taut`] at the corner and the
/// sweep test (a wall along `-ahead`, as in [`taut_sides`]) hold the tangent's direction `u`
/// to `side (u × w) >= 0` for three walls `w`, and a tangent to a circle of the same radius
/// centred `d` away runs within `asin(2 r / |d|)` of `d`, so that circle's centre `x` has
/// `side ((x - c) × w) >= -2 r` for each (`c` the corner; a margin of `1e-6 |x - c|` covers the
/// rounding). Each of those sets holds, along every ray from `c`, a segment from `c`, so a
/// corner seen from `c` through an edge none of whose points is in all three is in them
/// neither: the sight walk need not look through that edge.
struct LeavingRoom {
    centre: Point,
    side: f64,
    walls: [Point; 3],
    radius: f64,
}

impl LeavingRoom {
    fn new(corner: &DiscCorner, side: f64, ahead: Point, radius: f64) -> LeavingRoom {
        let walls = match corner.fold {
            false => [corner.walls[0], corner.walls[1], Point::new(-ahead.x, -ahead.y)],
            // Round a corner that folds, the room is everywhere: zero walls hold every point.
            true => [Point::new(0.0, 0.0); 3],
        };
        LeavingRoom { centre: corner.centre, side, walls, radius }
    }

    /// How far beyond each wall's line the room reaches, for points at most `far` (taxicab)
    /// from the corner: `2 r`, and the rounding.
    fn margin(&self, far: f64) -> f64 {
        2.0 * self.radius * (1.0 + 1e-9) + 1e-6 * far
    }

    /// Whether point `x` is in the room.
    fn holds(&self, x: Point) -> bool {
        let (dx, dy) = (x.x - self.centre.x, x.y - self.centre.y);
        let margin = self.margin(dx.abs() + dy.abs());
        let [a, b, c] = self.walls.map(|w| self.side * (dx * w.y - dy * w.x));
        a.min(b).min(c) + margin >= 0.0
    }

    /// Whether some point of segment `[p, q]` is in the room (clipping the segment's
    /// parameter by each wall's half-plane).
    fn meets(&self, [p, q]: [Point; 2]) -> bool {
        let c = self.centre;
        // `|x - c|` on the segment is at most its ends' larger taxicab distance.
        let far = ((p.x - c.x).abs() + (p.y - c.y).abs()).max((q.x - c.x).abs() + (q.y - c.y).abs());
        let margin = self.margin(far);
        let (mut low, mut high) = (0.0_f64, 1.0_f64);
        for w in self.walls {
            // `side ((p + t (q - p) - c) × w) + margin >= 0`, as `a + b t >= 0`.
            let a = self.side * ((p.x - c.x) * w.y - (p.y - c.y) * w.x) + margin;
            let b = self.side * ((q.x - p.x) * w.y - (q.y - p.y) * w.x);
            if b > 0.0 {
                low = low.max(-a / b);
            } else if b < 0.0 {
                high = high.min(-a / b);
            } else if a < 0.0 {
                return false;
            }
            if low > high {
                return false;
            }
        }
        true
    }
}

/// Whether a tangent from `from`'s circle on `from_side` to `to`'s circle (on either side)
/// may be taut at both corners for some radius: `false` only where [`taut`] refuses both at
/// every radius, so that a corner's sight list can leave such corners out once for all radii.
/// The tangent to the same side runs along the centres' offset `d` whatever the radius; the
/// crossing one turns from it by `α = asin(2 r / |d|)` in `(0, π/2)`, and each wall's taut test
/// then reads `n · (cos α, sin α) >= 0` for a unit vector `n` (from [`taut_sides`]'s terms,
/// `|d|` divided out). The crossing tangent may be taut when some `α` passes all four: the
/// passing set is an arc whose ends are the window's or some wall's limits (the directions a
/// quarter turn from its `n`), so those are the only directions to try. Every test is widened
/// far beyond [`SLACK`] (1e-6 of a radian).
pub(crate) fn may_be_taut(from: &DiscCorner, from_side: f64, to: &DiscCorner) -> bool {
    // The sine and cosine of the widening angle.
    const WIDEN: f64 = 1e-6;
    if from.fold || to.fold {
        return true;
    }
    let widen_cos = (1.0 - WIDEN * WIDEN).sqrt();
    let (dx, dy) = (to.centre.x - from.centre.x, to.centre.y - from.centre.y);
    let length = (dx * dx + dy * dy).sqrt();
    if length == 0.0 {
        return true;
    }
    let (ux, uy) = (dx / length, dy / length);
    let cross = |w: &Point| ux * w.y - uy * w.x;
    let dot = |w: &Point| ux * w.x + uy * w.y;
    if from.walls.iter().chain(&to.walls).all(|w| from_side * cross(w) >= -WIDEN) {
        return true;
    }
    let from_terms = from.walls.map(|w| Point::new(from_side * cross(&w), -dot(&w)));
    let to_terms = to.walls.map(|w| Point::new(-from_side * cross(&w), dot(&w)));
    let normals = [from_terms[0], from_terms[1], to_terms[0], to_terms[1]];
    let passes_all = |v: Point| normals.iter().all(|n| n.x * v.x + n.y * v.y >= -WIDEN - 1e-12);
    // The window of angles `[-WIDEN, π/2 + WIDEN]` as its end directions; a direction lies in
    // it when it is counter-clockwise of the first and clockwise of the second (an arc of
    // less than a half turn).
    let (first, last) = (Point::new(widen_cos, -WIDEN), Point::new(-WIDEN, widen_cos));
    let in_window =
        |v: Point| first.x * v.y - first.y * v.x >= -1e-12 && v.x * last.y - v.y * last.x >= -1e-12;
    // Each wall's limits: its normal turned a quarter turn and the widening either way.
    let limits = normals.into_iter().flat_map(|n| {
        [
            Point::new(-n.x * WIDEN - n.y * widen_cos, n.x * widen_cos - n.y * WIDEN),
            Point::new(-n.x * WIDEN + n.y * widen_cos, -n.x * widen_cos - n.y * WIDEN),
        ]
    });
    [first, last].into_iter().chain(limits).any(|v| in_window(v) && passes_all(v))
}

/// The tangent from `from` to `to` (direction and contacts); a point already on `from`'s
/// circle (the goal there) is reached round the circle alone: the contact is the point.
fn tangent_or_on(from: Bend, to: Bend) -> Option<(Point, Point, Point)> {
    if let Some(t) = disc_funnel::tangent(from, to) {
        return Some(t);
    }
    let d = from.centre.distance(to.centre);
    (to.radius == 0.0 && from.radius > 0.0 && d <= from.radius * (1.0 + SLACK)).then(|| {
        let (nx, ny) = ((to.centre.x - from.centre.x) / d, (to.centre.y - from.centre.y) / d);
        // Moving counter-clockwise (side +1) round the circle: the direction is the normal
        // turned left.
        (Point::new(-from.side * ny, from.side * nx), to.centre, to.centre)
    })
}

impl NavMesh {
    /// The optimal mode with a radius: the fast mode's path, when it finds one, bounds the
    /// search; the path found passes the same wall check as every disc path.
    pub(super) fn route_disc_optimal(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<SearchEnd, PathError> {
        let fast = PathOptions { mode: PathMode::Fast, partial: false, ..*options };
        let bound = match self.has_links() {
            // The fast mode's ways that are quick to find (its fallback is this search).
            true => {
                let shared = starts.iter().any(|t| goals.contains(t));
                self.fast_link_ways((from, starts), (to, goals), shared, &fast, scratch, out).cost
            }
            // The fast mode's walk alone: the checks `route` makes before it (a straight way,
            // the islands) are this query's, made already, and its fallback when the walk
            // cannot verify a path is this search.
            false => {
                let mut left = fast.node_budget.unwrap_or(u32::MAX);
                let ends = ((from, starts), (to, goals));
                match self.walk(ends, fast.radius, false, &mut left, scratch, &mut out.points) {
                    Ok(SearchEnd::Found) => {
                        self.measure(out);
                        out.length
                    }
                    _ => f64::INFINITY,
                }
            }
        };
        // The fast mode's path passed the wall check: an optimal path equal to it need not
        // be checked again.
        scratch.disc.verified.clear();
        if bound.is_finite() && out.links.is_empty() {
            scratch.disc.verified.extend_from_slice(&out.points);
        }
        self.search_disc_optimal_into((from, starts), (to, goals), options, bound, scratch, out)
    }

    /// [`NavMesh::search_disc_optimal`] into `out` with the query's `options`, the path found
    /// checked against the walls (its links left out).
    pub(super) fn search_disc_optimal_into(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        options: &PathOptions,
        bound: f64,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<SearchEnd, PathError> {
        out.points.clear();
        out.links.clear();
        out.partial = None;
        let (radius, budget) = (options.radius, options.node_budget.unwrap_or(u32::MAX));
        let state = (&mut scratch.disc, &mut scratch.clearance);
        let end = self.search_disc_optimal(
            (from, starts),
            (to, goals),
            radius,
            bound,
            budget,
            options.partial,
            state,
            (&mut out.points, &mut out.links),
        );
        scratch.expanded = scratch.disc.expanded;
        let written = end == SearchEnd::Found || (end == SearchEnd::Exhausted && options.partial);
        let checked = end == SearchEnd::Found && out.links.is_empty() && out.points == scratch.disc.verified;
        scratch.disc.verified.clear();
        if written
            && !checked
            && starts.first().is_none_or(|&start| {
                let (arcs, links) = (&scratch.disc.arcs, &out.links);
                self.first_disturbance(&out.points, arcs, links, (radius, start), &mut scratch.clearance)
                    .is_some()
            })
        {
            out.points.clear();
            out.links.clear();
            return Err(PathError::DiscPathUnverified);
        }
        Ok(end)
    }

    /// The exact shortest path of a disc of `radius` from `from` to `to` (both with that
    /// clearance, `to` in triangles `goals`), written to `points` (arcs as circumscribed
    /// chords) with the links it takes in `steps`; `bound` is the cost of a known path (or
    /// infinity): no cheaper path bends round a corner farther away.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search_disc_optimal(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        radius: f64,
        bound: f64,
        budget: u32,
        partial: bool,
        (disc, clearance): (&mut DiscScratch, &mut ClearanceScratch),
        (points, steps): (&mut Vec<Point>, &mut Vec<LinkStep>),
    ) -> SearchEnd {
        let mut estimates = Vec::new();
        if self.has_links() {
            // (A radius does not combine with exclusions yet: no link is left out for them.)
            self.link_estimates((to, goals), (&PocketPass::default(), radius), &mut disc.link_work);
            estimates = std::mem::take(&mut disc.link_work.estimates);
            let n = self.links.directed.len();
            disc.link_g.clear();
            disc.link_g.resize(n, f64::INFINITY);
            disc.corner_estimate.clear();
            disc.corner_estimate.resize(self.disc_corners().len(), f64::NAN);
        }
        let least_link = estimates.iter().map(|&(_, k)| k).fold(f64::INFINITY, f64::min);
        let aim =
            Aim { goal: to, radius, bound, links: self.has_links().then_some(&estimates[..]), least_link };
        if self.has_links() {
            disc.link_rest.clear();
            disc.link_rest
                .extend(self.links.directed.iter().map(|link| link.cost + aim.estimate(self, link.to)));
        }
        disc.goal_triangles.clear();
        disc.goal_triangles.extend_from_slice(goals);
        let end = self.search_disc(from, starts, aim, budget, partial, (disc, clearance), (points, steps));
        disc.link_work.estimates = estimates;
        end
    }

    /// [`NavMesh::search_disc_optimal`] with the query's [`Aim`].
    #[allow(clippy::too_many_arguments)]
    fn search_disc(
        &self,
        from: Point,
        starts: &[TriangleId],
        aim: Aim,
        budget: u32,
        partial: bool,
        (disc, clearance): (&mut DiscScratch, &mut ClearanceScratch),
        (points, steps): (&mut Vec<Point>, &mut Vec<LinkStep>),
    ) -> SearchEnd {
        let (to, radius) = (aim.goal, aim.radius);
        let corners = self.disc_corners();
        let n = corners.len() as u32;
        disc.expanded = 0;
        disc.arrivals.clear();
        disc.open.clear();
        disc.first_at.clear();
        disc.first_at.resize(2 * corners.len(), NONE);
        disc.walls_at.clear();
        disc.walls_at.resize(corners.len(), (u32::MAX, u32::MAX));
        disc.walls.clear();
        let start = Arrival {
            corner: START,
            side: 1.0,
            at: from,
            g: 0.0,
            parent: NONE,
            left_parent_at: from,
            next_same: NONE,
        };
        disc.arrivals.push(start);
        disc.start_triangle = starts.first().copied();
        self.expand_disc_point(0, starts, aim, disc);
        let mut nearest = 0u32;
        while let Some(next) = disc.open.pop() {
            let link = (next.target >= n && next.target < GOAL).then(|| next.target - n);
            if link.is_some_and(|d| !self.disc_fits_link_ends(d, radius)) {
                continue;
            }
            // Redundant whether clear or not (and cheaper to tell): an arrival at a circle that
            // an expanded one reaches for no more, or at a link taken for no more.
            let redundant = match link {
                Some(d) => next.g >= disc.link_g[d as usize],
                None => next.target != GOAL && self.dominated(&next, radius, disc, clearance),
            };
            if redundant {
                continue;
            }
            if !self.disc_step_is_clear(&next, radius, disc, clearance) {
                continue;
            }
            if next.target == GOAL {
                let arrival = Arrival {
                    corner: GOAL,
                    side: 1.0,
                    at: next.at,
                    g: next.g,
                    parent: next.parent,
                    left_parent_at: next.leave,
                    next_same: NONE,
                };
                disc.arrivals.push(arrival);
                self.write_disc_path(disc.arrivals.len() as u32 - 1, radius, disc, (points, steps));
                return SearchEnd::Found;
            }
            if disc.expanded >= budget {
                if partial {
                    self.write_disc_path(nearest, radius, disc, (points, steps));
                }
                return SearchEnd::Exhausted;
            }
            if let Some(d) = link {
                // Through the link: an arrival at its end, expanded as the start is.
                disc.link_g[d as usize] = next.g;
                let directed = &self.links.directed[d as usize];
                disc.arrivals.push(Arrival {
                    corner: next.target,
                    side: 1.0,
                    at: directed.to,
                    g: next.g + directed.cost,
                    parent: next.parent,
                    left_parent_at: next.leave,
                    next_same: NONE,
                });
                let index = disc.arrivals.len() as u32 - 1;
                if directed.to.distance(to) < disc.arrivals[nearest as usize].at.distance(to) {
                    nearest = index;
                }
                self.expand_disc_point(index, self.links.end_triangles(d), aim, disc);
                continue;
            }
            let slot = 2 * next.target as usize + usize::from(next.side < 0);
            disc.arrivals.push(Arrival {
                corner: next.target,
                side: f64::from(next.side),
                at: next.at,
                g: next.g,
                parent: next.parent,
                left_parent_at: next.leave,
                next_same: disc.first_at[slot],
            });
            let index = disc.arrivals.len() as u32 - 1;
            disc.first_at[slot] = index;
            if next.at.distance(to) < disc.arrivals[nearest as usize].at.distance(to) {
                nearest = index;
            }
            self.expand_disc(index, starts, aim, disc);
        }
        SearchEnd::Unreachable
    }

    /// Expands arrival `index` at a point (the start, or a link's end) lying in `triangles`,
    /// then the arrivals round the corners whose circles it lies on (it leaves round them).
    fn expand_disc_point(&self, index: u32, triangles: &[TriangleId], aim: Aim, disc: &mut DiscScratch) {
        self.expand_disc(index, triangles, aim, disc);
        let point = disc.arrivals[index as usize];
        for i in 0..disc.touching.len() {
            let c = disc.touching[i];
            for side in [1.0, -1.0] {
                let arrival = Arrival {
                    corner: c,
                    side,
                    parent: index,
                    left_parent_at: point.at,
                    next_same: NONE,
                    ..point
                };
                disc.arrivals.push(arrival);
                self.expand_disc(disc.arrivals.len() as u32 - 1, triangles, aim, disc);
            }
        }
    }

    /// Pushes the tangents from arrival `index` to the goal, to the links' starts and to the
    /// corners in sight: of the arrival's point (the start or a link's end, which lies in the
    /// triangles `starts`), or of the arrival's corner.
    fn expand_disc(&self, index: u32, starts: &[TriangleId], aim: Aim, disc: &mut DiscScratch) {
        disc.expanded += 1;
        let (goal, radius) = (aim.goal, aim.radius);
        let corners = self.disc_corner_index();
        let arrival = disc.arrivals[index as usize];
        let here = corners.list.get(arrival.corner as usize);
        let from = match here {
            Some(c) => Bend { centre: c.centre, radius, side: arrival.side },
            None => Bend::point(arrival.at),
        };
        let limit = aim.bound * (1.0 + SLACK);
        let open = &mut disc.open;
        // `rest`: the estimate from the target on (`None`: the one of the contact).
        // `entry`: the target's place in the sight list of the arrival's corner, or `NONE`.
        let mut push = |target: u32, to: Bend, corner: Option<&DiscCorner>, rest: Option<f64>, entry: u32| {
            let Some((u, leave, at)) = tangent_or_on(from, to) else { return };
            if here.is_some_and(|c| !taut(c, u, arrival.side)) || corner.is_some_and(|c| !taut(c, u, to.side))
            {
                return;
            }
            let mut g = arrival.g + leave.distance(at);
            if let Some(c) = here {
                let turn = sweep(c.centre, arrival.at, leave, arrival.side);
                if turn > arc_room(c, arrival.at, arrival.side) {
                    return;
                }
                g += radius * turn;
            }
            let f = g + rest.unwrap_or_else(|| aim.estimate(self, at));
            if f <= limit {
                let side = if to.side < 0.0 { -1 } else { 1 };
                open.push(Candidate { f, g, target, side, leave, at, parent: index, entry });
            }
        };
        push(GOAL, Bend::point(goal), None, Some(0.0), NONE);
        if aim.links.is_some() {
            let n = corners.list.len() as u32;
            // The way to a link's start is at least the straight way from the arrival's
            // circle (or point).
            let (centre, round) = match here {
                Some(c) => (c.centre, radius),
                None => (arrival.at, 0.0),
            };
            for (d, link) in self.links.directed.iter().enumerate() {
                let rest = disc.link_rest[d];
                if arrival.g + centre.distance(link.from) - round + rest <= limit {
                    push(n + d as u32, Bend::point(link.from), None, Some(rest), NONE);
                }
            }
        }
        let corner_estimate = &mut disc.corner_estimate;
        let mut estimate_at = |c: u32, centre: Point| match aim.links {
            None => centre.distance(goal),
            Some(_) => {
                let known = &mut corner_estimate[c as usize];
                if known.is_nan() {
                    *known = aim.estimate(self, centre);
                }
                *known
            }
        };
        // The way the path moves at the arrival's contact (round the circle on its side): a
        // tangent leaving more than a half turn on from there is refused (the sweep test).
        let ahead = here.map_or(Point::new(0.0, 0.0), |c| {
            let (nx, ny) = (arrival.at.x - c.centre.x, arrival.at.y - c.centre.y);
            let length = (nx * nx + ny * ny).sqrt();
            match length > 0.0 {
                true => Point::new(-arrival.side * ny / length, arrival.side * nx / length),
                false => Point::new(0.0, 0.0),
            }
        });
        let mut try_corner = |c: u32, entry: u32| {
            if c == arrival.corner {
                return;
            }
            let corner = &corners.list[c as usize];
            // No path from the arrival round this circle and on to the goal costs less than the
            // straight way to its contact (within `radius` of its centre) and the estimate
            // from there on (at most `radius` less than the centre's): the rest of the path
            // starts at the arrival's contact, not at its circle's centre.
            let least = corner.centre.distance(arrival.at) + estimate_at(c, corner.centre) - 2.0 * radius;
            if arrival.g + least > limit {
                return;
            }
            // The sides whose tangent may be taut at both corners (most are not: a test
            // without the tangent's divisions first).
            let sides = here.map_or([true; 2], |h| taut_sides(h, arrival.side, ahead, corner, radius));
            for (side, may) in [1.0, -1.0].into_iter().zip(sides) {
                if may {
                    push(c, Bend { centre: corner.centre, radius, side }, Some(corner), None, entry);
                }
            }
        };
        let Some(here) = here else {
            // Through an edge, no corner is nearer the start and the goal together than the
            // edge's best point.
            let worth = |edge| aim.least_through(arrival.at, edge) - 2.0 * radius <= limit;
            let touching = &mut disc.touching;
            touching.clear();
            self.vertices_in_sight_of_point(arrival.at, starts, worth, &mut disc.sight, |v| {
                for c in corners.at_vertex(v) {
                    let centre = corners.list[c as usize].centre;
                    let near = centre.distance(arrival.at);
                    if near <= radius * (1.0 + SLACK)
                        && near + aim.estimate(self, centre) <= limit + 2.0 * radius
                    {
                        touching.push(c);
                    }
                    try_corner(c, NONE);
                }
            });
            return;
        };
        // No corner farther than `reach` from the centre passes `try_corner`'s test:
        // `|c at| >= d - r` and its estimate `>= d - shortfall` for `d = |c centre|` (without
        // links, the shortfall is `|centre goal|`).
        let reach = (limit - arrival.g + aim.shortfall(here.centre) + 3.0 * radius) / 2.0 * (1.0 + SLACK);
        let reach2 = reach * reach;
        let room = LeavingRoom::new(here, arrival.side, ahead, radius);
        if let Some(list) = self.corners_in_sight(arrival.corner, &mut disc.sight) {
            let side = sight_side(arrival.side);
            // The cheap tests first, without branches that guess wrong half the time: the
            // entries that pass are noted, then tried in list order.
            let passing = &mut disc.passing;
            if passing.len() < list.len() {
                passing.resize(list.len(), 0);
            }
            let mut count = 0;
            for (k, &entry) in list.iter().enumerate() {
                let d = corners.list[(entry & SIGHT_CORNER) as usize].centre;
                // Nearest first: no entry from here on is within reach.
                if (d.x - here.centre.x).powi(2) + (d.y - here.centre.y).powi(2) > reach2 {
                    break;
                }
                passing[count] = k as u32;
                count += usize::from((entry & side != 0) & room.holds(d));
            }
            for i in 0..count {
                let k = disc.passing[i];
                try_corner(list[k as usize] & SIGHT_CORNER, k);
            }
            return;
        }
        // Not kept (yet): walked within the bound. Through an edge, no corner is nearer the
        // centre and the goal together than the edge's best point; the contact is within
        // `radius` of the centre.
        // Nor through an edge no taut tangent's target lies beyond.
        let worth = |edge| {
            room.meets(edge) && arrival.g + aim.least_through(here.centre, edge) - 3.0 * radius <= limit
        };
        self.vertices_in_sight(here.vertex, here.triangle, worth, &mut disc.sight, |v| {
            corners.at_vertex(v).for_each(|c| try_corner(c, NONE))
        });
    }

    /// Whether a candidate's arc round its parent's circle and its tangent segment keep
    /// `radius` from every wall (up to the rounding of the distances).
    fn disc_step_is_clear(
        &self,
        step: &Candidate,
        radius: f64,
        disc: &mut DiscScratch,
        clearance: &mut ClearanceScratch,
    ) -> bool {
        let parent = disc.arrivals[step.parent as usize];
        if (parent.corner as usize) < self.disc_corners().len()
            && !self.arc_is_clear(
                parent.corner,
                parent.side,
                (parent.at, step.leave),
                radius,
                disc,
                clearance,
            )
        {
            return false;
        }
        if step.leave == step.at && !self.layers_overlap() {
            return true;
        }
        if step.entry != NONE
            && !self.layers_overlap()
            && self.sight_line_is_free(
                (parent.corner, step.entry),
                (parent.side, f64::from(step.side)),
                radius,
                clearance,
            )
        {
            return true;
        }
        // The candidates' corners are in sight (see `expand_disc`): a wall crossing the
        // segment is among the walls near it, searched from the triangle holding the
        // tangent's first point (on its layer): walked to from the parent's corner (a short
        // walk: the contact is `radius` from it), or the start's or link end's triangle.
        let inside = radius * (1.0 - super::DISTURBANCE_TOLERANCE);
        let corners = self.disc_corners();
        let n = corners.len() as u32;
        let first = match corners.get(parent.corner as usize) {
            Some(corner) if self.layers_overlap() => {
                let mut any = |_: TriangleId, _: &mut crate::query::raycast::Tried| true;
                self.walk_segment(corner.triangle, (corner.centre, step.leave), &mut Vec::new(), &mut any)
            }
            Some(corner) => self.fan_triangle_holding(corner, step.leave).or_else(|| self.locate(step.leave)),
            None if parent.corner == START => disc.start_triangle,
            // A link's end (the arrival through directed link `corner - n`).
            None => self.links.end_triangles(parent.corner - n).first().copied(),
        };
        let Some(first) = first else { return false };
        if step.leave != step.at
            && self.segment_meets_wall_beside(first, (step.leave, step.at), inside, |_| false, clearance)
        {
            return false;
        }
        if !self.layers_overlap() {
            return true;
        }
        // A clear way to the goal or a link's start ends where it aims only on the right layer
        // (a goal on the road may lie inside the circle of a corner of the bridge above): the
        // walk along it must arrive in one of the target's triangles.
        let targets: &[TriangleId] = match step.target {
            GOAL => &disc.goal_triangles,
            t if t >= n && t < GOAL => self.links.start_triangles(t - n),
            _ => return true,
        };
        let at = step.at;
        let mut arrives = |t: TriangleId, _: &mut crate::query::raycast::Tried| {
            targets.iter().any(|&u| u == t || self.same_place(t, u, at))
        };
        if step.leave == at {
            return arrives(first, &mut Vec::new());
        }
        self.walk_segment(first, (step.leave, at), &mut Vec::new(), &mut arrives).is_some()
    }

    /// Whether every tangent of `step` (from its parent's circle to the circle of the corner
    /// of entry `step.entry` in the sight list of the parent's corner) keeps `radius` from
    /// every wall, known from how far the segment between the two corners keeps from the
    /// walls on each side, the corners' own walls left out. A tangent's points lie within
    /// `radius` of that segment, so walls at least `2 radius` from it are at least `radius`
    /// from the tangent; a tangent to the same side of both circles runs at `radius` on one
    /// side of the segment (the right for counter-clockwise circles), and the walls on its
    /// other side are farther; the corners' own walls lie on the circles' sides of a taut
    /// tangent. The clearances depend on the mesh alone: they are measured the second time an
    /// entry is asked about (most are asked once), up to a little more than needed (a larger
    /// radius measures them again), and kept with the list.
    fn sight_line_is_free(
        &self,
        (corner, entry): (u32, u32),
        (from_side, to_side): (f64, f64),
        radius: f64,
        clearance: &mut ClearanceScratch,
    ) -> bool {
        let corners = self.disc_corner_index();
        let Some(free) = corners.in_sight[corner as usize].free.get() else { return false };
        let slots = &free[2 * entry as usize..2 * entry as usize + 2];
        // The sides whose walls count: `[left, right]`.
        let same = (to_side > 0.0) == (from_side > 0.0);
        let counts = match (same, from_side > 0.0) {
            (true, true) => [false, true],
            (true, false) => [true, false],
            (false, _) => [true, true],
        };
        let need = 2.0 * radius;
        // Both sides are measured together; the left slot keeps whether the entry was asked
        // about before.
        let asked = slots[0].load(atomic::Ordering::Relaxed);
        if asked == FREE_UNKNOWN {
            slots[0].store(FREE_ASKED, atomic::Ordering::Relaxed);
            return false;
        }
        let mut measure = asked == FREE_ASKED;
        if !measure {
            for side in (0..2).filter(|&side| counts[side]) {
                match kept_clearance_meets(&slots[side], need) {
                    Some(true) => {}
                    Some(false) => return false,
                    None => measure = true,
                }
            }
            if !measure {
                return true;
            }
        }
        let list = corners.in_sight[corner as usize].list.get().expect("a sight list with clearances");
        let (from, to) =
            (&corners.list[corner as usize], &corners.list[(list[entry as usize] & SIGHT_CORNER) as usize]);
        let reach = 1.1 * need;
        let skip = |p, q| own_wall(from, p, q) || own_wall(to, p, q);
        let far =
            self.segment_clearance_by_side(from.triangle, (from.centre, to.centre), reach, skip, clearance);
        for side in 0..2 {
            keep_clearance(&slots[side], far[side], reach);
        }
        (0..2).all(|side| !counts[side] || far[side] >= need * (1.0 + KEPT_MARGIN))
    }

    /// A triangle of `corner`'s fan holding `p` (a contact on its circle), by plain floating
    /// point: a wall search started from a triangle a rounding away from `p` still enters the
    /// one holding it. `None` when no fan triangle reaches that far (or rounding says so).
    fn fan_triangle_holding(&self, corner: &DiscCorner, p: Point) -> Option<TriangleId> {
        let cross = |a: Point, b: Point| (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
        let mut t = corner.triangle;
        for _ in 0..self.triangle_count() {
            let [a, b, c] = self.triangle_points(t);
            if cross(a, b) >= 0.0 && cross(b, c) >= 0.0 && cross(c, a) >= 0.0 {
                return Some(t);
            }
            // On round the vertex, counter-clockwise: through the edge that arrives at it.
            let k = self.triangles()[t.index()].iter().position(|&v| v == corner.vertex)?;
            t = self.neighbours(t)[(k + 2) % 3];
            if t.is_none() || t == corner.triangle {
                return None;
            }
        }
        None
    }

    /// Whether the arc round `corner`'s circle on `side` from `from` to `to` (as circumscribed
    /// chords) keeps `radius` from every wall. The corner's own walls are left out: both
    /// contacts lie where the corner is the nearest point of them (the taut test), so the arc
    /// between them does too.
    fn arc_is_clear(
        &self,
        corner: u32,
        side: f64,
        (from, to): (Point, Point),
        radius: f64,
        disc: &mut DiscScratch,
        clearance: &mut ClearanceScratch,
    ) -> bool {
        if from == to {
            return true;
        }
        let (start, end) = self.walls_round(corner, radius, disc, clearance);
        if start == end {
            return true;
        }
        let centre = self.disc_corners()[corner as usize].centre;
        disc.chords.clear();
        disc.chords.push(from);
        disc_funnel::arc(Bend { centre, radius, side }, from, to, &mut disc.chords);
        disc.chords.push(to);
        let inside = radius * (1.0 - super::DISTURBANCE_TOLERANCE);
        let walls = &disc.walls[start..end];
        !disc.chords.windows(2).any(|w| walls.iter().any(|&(p, q)| segments_nearer(w[0], w[1], p, q, inside)))
    }

    /// The walls other than its own that come within reach of `corner`'s arcs (the range of
    /// `disc.walls` holding them), gathered on first use in a query.
    fn walls_round(
        &self,
        corner: u32,
        radius: f64,
        disc: &mut DiscScratch,
        clearance: &mut ClearanceScratch,
    ) -> (usize, usize) {
        let known = disc.walls_at[corner as usize];
        if known.0 != u32::MAX {
            return (known.0 as usize, known.1 as usize);
        }
        let c = self.disc_corners()[corner as usize];
        let start = disc.walls.len();
        let reach = radius * (2.0 + disc_funnel::ARC_TOLERANCE);
        // No wall but its own within reach (known from earlier queries on this mesh: it
        // depends on the mesh alone): none to gather.
        if !self.layers_overlap() && self.corner_keeps_clear(corner, reach, clearance) {
            disc.walls_at[corner as usize] = (start as u32, start as u32);
            return (start, start);
        }
        self.walls_within(c.triangle, c.centre, reach, clearance, &mut disc.walls);
        let mut kept = start;
        for k in start..disc.walls.len() {
            let (p, q) = disc.walls[k];
            if !own_wall(&c, p, q) {
                disc.walls[kept] = disc.walls[k];
                kept += 1;
            }
        }
        disc.walls.truncate(kept);
        disc.walls_at[corner as usize] = (start as u32, kept as u32);
        (start, kept)
    }

    /// Whether every wall but its own keeps at least `need` from corner `corner` (of a mesh
    /// whose layers do not overlap), from what is kept of its clearance (see
    /// [`kept_clearance_meets`]: measured the second time it is asked, up to 1.1 `need`, and
    /// kept for every later query).
    pub(crate) fn corner_keeps_clear(
        &self,
        corner: u32,
        need: f64,
        clearance: &mut ClearanceScratch,
    ) -> bool {
        let slot = &self.disc_corner_index().in_sight[corner as usize].round;
        kept_clearance_meets(slot, need).unwrap_or_else(|| {
            let c = &self.disc_corners()[corner as usize];
            let skip = |p, q| own_wall(c, p, q);
            // (A point has no sides: both are its clearance.)
            let [far, _] =
                self.segment_clearance_by_side(c.triangle, (c.centre, c.centre), 1.1 * need, skip, clearance);
            keep_clearance(slot, far, 1.1 * need);
            far >= need * (1.0 + KEPT_MARGIN)
        })
    }

    /// Whether the chords of an arc round `centre` (each point within `outer` of it) keep
    /// `inside` from every wall, proven without a search: the centre is a mesh vertex with one
    /// turning corner, every wall but that corner's own keeps `outer + inside` from it (kept,
    /// see [`Self::corner_keeps_clear`]), and the chords keep `inside` from its two walls (taken
    /// `outer + inside` long, longer than any part that could come nearer). `false` says
    /// nothing: the walls are then searched.
    pub(crate) fn arc_clear_of_walls(
        &self,
        centre: Point,
        chords: &[Point],
        (outer, inside): (f64, f64),
        clearance: &mut ClearanceScratch,
    ) -> bool {
        let Some(v) = self.vertex_at(centre) else { return false };
        let corners = self.disc_corner_index();
        let mut at = corners.at_vertex(v);
        let (Some(corner), None) = (at.next(), at.next()) else { return false };
        let around = outer + inside;
        if !self.corner_keeps_clear(corner, around, clearance) {
            return false;
        }
        let c = &corners.list[corner as usize];
        c.walls.iter().all(|u| {
            let end = Point::new(centre.x + u.x * around, centre.y + u.y * around);
            chords.windows(2).all(|w| !segments_nearer(w[0], w[1], centre, end, inside))
        })
    }

    /// Whether `p` is a vertex where the floor folds (a disc corner whose fan sweeps more than
    /// a full turn).
    pub(crate) fn folds_at(&self, p: Point) -> bool {
        self.layers_fold()
            && self.vertex_at(p).is_some_and(|v| {
                let corners = self.disc_corner_index();
                corners.at_vertex(v).any(|c| corners.list[c as usize].fold)
            })
    }

    /// Whether an arrival already expanded at the candidate's circle and side can go round
    /// the circle to the candidate's contact for no more than the candidate's cost.
    fn dominated(
        &self,
        step: &Candidate,
        radius: f64,
        disc: &mut DiscScratch,
        clearance: &mut ClearanceScratch,
    ) -> bool {
        let corner = self.disc_corners()[step.target as usize];
        let mut k = disc.first_at[2 * step.target as usize + usize::from(step.side < 0)];
        let side = f64::from(step.side);
        while k != NONE {
            let other = disc.arrivals[k as usize];
            k = other.next_same;
            let turn = sweep(corner.centre, other.at, step.at, side);
            if turn <= arc_room(&corner, other.at, side)
                && other.g + radius * turn <= step.g * (1.0 + SLACK)
                && self.arc_is_clear(step.target, side, (other.at, step.at), radius, disc, clearance)
            {
                return true;
            }
        }
        false
    }

    /// Writes the path ending at arrival `last`: tangent segments, and round each circle the
    /// arc from its arrival contact to its departure contact as circumscribed chords (recorded
    /// in `disc.arcs`), and the links taken (in `steps`: a link's end is written even where
    /// it repeats its start, as on other paths with links).
    fn write_disc_path(
        &self,
        last: u32,
        radius: f64,
        disc: &mut DiscScratch,
        (points, steps): (&mut Vec<Point>, &mut Vec<LinkStep>),
    ) {
        let corners = self.disc_corners();
        steps.clear();
        disc.chain.clear();
        let mut k = last;
        while k != NONE {
            disc.chain.push(k);
            k = disc.arrivals[k as usize].parent;
        }
        points.clear();
        disc.arcs.clear();
        let push = |points: &mut Vec<Point>, p: Point| {
            if points.last() != Some(&p) {
                points.push(p);
            }
        };
        let first = disc.arrivals[*disc.chain.last().expect("the chain holds the start") as usize];
        push(points, first.at);
        for i in (1..disc.chain.len()).rev() {
            let parent = disc.arrivals[disc.chain[i] as usize];
            let node = disc.arrivals[disc.chain[i - 1] as usize];
            if (parent.corner as usize) < corners.len() {
                let centre = corners[parent.corner as usize].centre;
                let arc_start = points.len() - 1;
                let bend = Bend { centre, radius, side: parent.side };
                disc_funnel::arc(bend, parent.at, node.left_parent_at, points);
                push(points, node.left_parent_at);
                if points.len() - 1 > arc_start {
                    disc.arcs.push(ArcRun { first: arc_start, last: points.len() - 1, centre, radius });
                }
            }
            let through = (node.corner as usize).checked_sub(corners.len());
            if let Some(link) = through.and_then(|d| self.links.directed.get(d)) {
                push(points, node.left_parent_at);
                push(points, link.from);
                steps.push(LinkStep { point: points.len() - 1, link: link.link });
                points.push(node.at);
                continue;
            }
            push(points, node.at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    use crate::clearance::segments_distance;

    /// A unit direction from a small integer vector: axis-aligned, diagonal and other walls,
    /// so that walls parallel to the centres' offset come up often.
    fn direction(rng: &mut rand_pcg::Pcg64) -> Point {
        loop {
            let (x, y) = (rng.random_range(-2..=2) as f64, rng.random_range(-2..=2) as f64);
            let d = (x * x + y * y).sqrt();
            if d > 0.0 {
                return Point::new(x / d, y / d);
            }
        }
    }

    /// Two corners with random walls, centred on a half-unit lattice (offsets along the walls,
    /// circles that touch), and a random side of the first.
    fn random_pair(rng: &mut rand_pcg::Pcg64) -> (DiscCorner, f64, DiscCorner) {
        let mut corner = || {
            let centre =
                Point::new(rng.random_range(0..12) as f64 * 0.5, rng.random_range(0..12) as f64 * 0.5);
            let walls = [direction(rng), direction(rng)];
            DiscCorner {
                centre,
                walls,
                triangle: TriangleId(0),
                vertex: VertexId(0),
                next_at_vertex: NONE,
                fold: false,
            }
        };
        let (from, to) = (corner(), corner());
        (from, if rng.random_range(0..2) == 0 { 1.0 } else { -1.0 }, to)
    }

    /// Round a corner whose floor folds (walls at angles `w0` and `w0 + 2π + β` unrolled, `β`
    /// in `(0, π)`), a contact at unrolled angle `a` from the corner is taut when the walls are
    /// both at least a quarter turn from it, unrolled: `a - w0` in `[π/2, 3π/2 + β]`; and an arc
    /// may go on from it to the last such contact. [`taut`] and [`arc_room`] against those
    /// angles, for random corners, contacts and sides (a thousandth of a radian from each
    /// limit left out); corners that do not fold keep a half turn of room.
    #[test]
    fn a_corner_that_folds_is_taut_and_has_room_as_its_unrolled_angles_say() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(0xf01d);
        let unit = |a: f64| Point::new(a.cos(), a.sin());
        let (mut taut_ones, mut others) = (0, 0);
        for _ in 0..100_000 {
            let (w0, beta) = (rng.random_range(0.0..TAU), rng.random_range(0.01..PI - 0.01));
            let centre = Point::new(rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0));
            let mut corner = DiscCorner {
                centre,
                walls: [unit(w0), unit(w0 + beta)],
                triangle: TriangleId(0),
                vertex: VertexId(0),
                next_at_vertex: NONE,
                fold: true,
            };
            // The contact, as its angle past the first wall (unrolled onto the taut range where
            // it falls in it).
            let mut past = rng.random_range(0.0..TAU);
            if past < PI / 2.0 {
                past += TAU;
            }
            let (low, high) = (PI / 2.0, 1.5 * PI + beta);
            if (past - low).abs() < 1e-3 || (past - high).abs() < 1e-3 {
                continue;
            }
            let expected = (low..=high).contains(&past);
            let side = if rng.random_range(0..2) == 0 { 1.0 } else { -1.0 };
            let n = unit(w0 + past);
            // Moving round the circle on `side`: the normal turned left, or right.
            let u = Point::new(-side * n.y, side * n.x);
            assert_eq!(taut(&corner, u, side), expected, "beta {beta} past {past} side {side}");
            let at = Point::new(centre.x + 0.7 * n.x, centre.y + 0.7 * n.y);
            if expected {
                taut_ones += 1;
                let room = if side > 0.0 { high - past } else { past - low };
                let found = arc_room(&corner, at, side);
                assert!(
                    (found - room).abs() <= 1e-9,
                    "beta {beta} past {past} side {side}: {found} against {room}"
                );
            } else {
                others += 1;
            }
            corner.fold = false;
            assert_eq!(arc_room(&corner, at, side), PI);
        }
        assert!(taut_ones > 50_000 && others > 10_000, "{taut_ones} taut, {others} not");
    }

    /// A random radius and an arrival round `from`'s circle on `from_side` at a random contact
    /// (the contact and the direction `ahead` the path moves there), or none (a tangent from
    /// the start: any direction, `ahead` zero).
    fn random_arrival(
        rng: &mut rand_pcg::Pcg64,
        from: &DiscCorner,
        from_side: f64,
    ) -> (f64, Option<(Point, Point)>, Point) {
        let radius = [0.1, 0.25, 0.45, 0.5, 1.0, 2.0][rng.random_range(0..6)];
        let arrival = (rng.random_range(0..4) > 0).then(|| {
            let n = direction(rng);
            let contact = Point::new(from.centre.x + radius * n.x, from.centre.y + radius * n.y);
            (contact, Point::new(-from_side * n.y, from_side * n.x))
        });
        let ahead = arrival.map_or(Point::new(0.0, 0.0), |(_, ahead)| ahead);
        (radius, arrival, ahead)
    }

    /// The search's own test: the tangent exists and is taut at both corners.
    fn exactly_taut(
        (from, from_side, to): (&DiscCorner, f64, &DiscCorner),
        to_side: f64,
        radius: f64,
    ) -> bool {
        let bend = |c: &DiscCorner, side| Bend { centre: c.centre, radius, side };
        disc_funnel::tangent(bend(from, from_side), bend(to, to_side))
            .is_some_and(|(u, _, _)| taut(from, u, from_side) && taut(to, u, to_side))
    }

    #[test]
    fn taut_sides_rules_out_only_tangents_the_search_refuses() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2111);
        let (mut taken, mut ruled_out, mut left_to_the_test) = (0, 0, 0);
        for _ in 0..200_000 {
            let (from, from_side, to) = random_pair(&mut rng);
            let (radius, arrival, ahead) = random_arrival(&mut rng, &from, from_side);
            let sides = taut_sides(&from, from_side, ahead, &to, radius);
            for (may, to_side) in sides.into_iter().zip([1.0, -1.0]) {
                // The search's own tests: taut at both corners, and round the circle from the
                // arrival by at most a half turn.
                let bend = |c: &DiscCorner, side| Bend { centre: c.centre, radius, side };
                let tangent = disc_funnel::tangent(bend(&from, from_side), bend(&to, to_side));
                let searched = tangent.is_some_and(|(u, leave, _)| {
                    taut(&from, u, from_side)
                        && taut(&to, u, to_side)
                        && arrival.is_none_or(|(at, _)| sweep(from.centre, at, leave, from_side) <= PI)
                });
                if searched {
                    assert!(may, "{from:?} {from_side} {to:?} {to_side} r {radius} arrival {arrival:?}");
                    taken += 1;
                } else if may {
                    left_to_the_test += 1;
                } else {
                    ruled_out += 1;
                }
            }
        }
        // It decides as the search's tests do but for a few cases at their margins (and at
        // centres that coincide, which have no tangent).
        assert!(taken > 10_000 && ruled_out > 250_000, "{taken} {ruled_out}");
        assert!(left_to_the_test * 100 < ruled_out, "{left_to_the_test} of {ruled_out}");
    }

    #[test]
    fn the_leaving_room_holds_every_target_a_taut_tangent_leaves_for() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2117);
        let (mut reached, mut shut_out, mut not_reached) = (0, 0, 0);
        for _ in 0..100_000 {
            let (from, from_side, to) = random_pair(&mut rng);
            let (radius, arrival, ahead) = random_arrival(&mut rng, &from, from_side);
            let room = LeavingRoom::new(&from, from_side, ahead, radius);
            // The search's own tests at the corner it leaves: a tangent to either side of the
            // target's circle, taut there and round the circle by at most a half turn.
            let bend = |c: &DiscCorner, side| Bend { centre: c.centre, radius, side };
            let leaves = [1.0, -1.0].into_iter().any(|to_side| {
                disc_funnel::tangent(bend(&from, from_side), bend(&to, to_side)).is_some_and(
                    |(u, leave, _)| {
                        taut(&from, u, from_side)
                            && arrival.is_none_or(|(at, _)| sweep(from.centre, at, leave, from_side) <= PI)
                    },
                )
            });
            // A random segment through a random point of the sight line to the target: the
            // walk looks through it on the way to the target.
            let (c, x) = (from.centre, to.centre);
            let t = rng.random_range(0.01..=1.0);
            let on_line = Point::new(c.x + t * (x.x - c.x), c.y + t * (x.y - c.y));
            let v = direction(&mut rng);
            let (back, on) = (rng.random_range(0.0..3.0), rng.random_range(0.0..3.0));
            let edge = [
                Point::new(on_line.x - back * v.x, on_line.y - back * v.y),
                Point::new(on_line.x + on * v.x, on_line.y + on * v.y),
            ];
            // The list's test of a point and the walk's of a segment agree on the point.
            assert_eq!(room.holds(x), room.meets([x, x]), "{from:?} {from_side} {to:?} r {radius}");
            if leaves {
                assert!(room.meets(edge), "{from:?} {from_side} {to:?} r {radius} {arrival:?} {edge:?}");
                assert!(room.holds(x));
                reached += 1;
            } else {
                not_reached += 1;
                shut_out += usize::from(!room.meets([x, x]));
            }
        }
        // Most targets no taut tangent leaves for are outside the room.
        assert!(reached > 10_000 && shut_out * 2 > not_reached, "{reached} {shut_out} of {not_reached}");
    }

    #[test]
    fn may_be_taut_keeps_every_corner_a_taut_tangent_reaches_at_some_radius() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2113);
        let (mut kept, mut left_out, mut never_taut) = (0, 0, 0);
        for _ in 0..20_000 {
            let (from, from_side, to) = random_pair(&mut rng);
            let may = may_be_taut(&from, from_side, &to);
            // Radii from tiny to past half the distance (where crossing tangents vanish).
            let distance = from.centre.distance(to.centre);
            let radii: Vec<f64> = (1..=60).map(|k| distance * k as f64 / 100.0).chain([1e-9]).collect();
            let taut_somewhere = radii.iter().any(|&radius| {
                [1.0, -1.0].into_iter().any(|to_side| exactly_taut((&from, from_side, &to), to_side, radius))
            });
            if taut_somewhere {
                assert!(may, "{from:?} {from_side} {to:?}");
                kept += 1;
            } else {
                never_taut += 1;
                left_out += usize::from(!may);
            }
        }
        // Most corners no tangent reaches taut are left out of the lists.
        assert!(kept > 2_000 && left_out * 5 > never_taut * 4, "{kept} {left_out} of {never_taut}");
    }

    #[test]
    fn fan_triangle_holding_finds_the_fan_triangle_that_holds_the_point() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2112);
        let (mut found, mut beyond) = (0, 0);
        for round in 0..60 {
            let (vertices, triangles) = crate::test_meshes::lattice_mesh(&mut rng, 3 + round % 6, 4);
            let parts = crate::test_meshes::parts_of(vertices, triangles);
            let Ok(mesh) = NavMesh::from_parts(parts) else { continue };
            for corner in mesh.disc_corners() {
                // The oracle: the fan as the triangles joined to the corner's triangle across
                // edges at its vertex.
                let v = corner.vertex;
                let mut fan = vec![corner.triangle];
                let mut k = 0;
                while k < fan.len() {
                    let t = fan[k];
                    k += 1;
                    let tri = mesh.triangles()[t.index()];
                    for (e, &n) in mesh.neighbours(t).iter().enumerate() {
                        let at_v = tri[e] == v || tri[(e + 1) % 3] == v;
                        if at_v && !n.is_none() && !fan.contains(&n) {
                            fan.push(n);
                        }
                    }
                }
                for _ in 0..20 {
                    let angle = rng.random_range(0.0..TAU);
                    let d = rng.random_range(0.0..1.2);
                    let p = Point::new(corner.centre.x + d * angle.cos(), corner.centre.y + d * angle.sin());
                    match mesh.fan_triangle_holding(corner, p) {
                        Some(t) => {
                            assert!(
                                fan.contains(&t) && mesh.triangle_contains(t, p),
                                "{corner:?} {p:?} {t:?}"
                            );
                            found += 1;
                        }
                        None => {
                            assert!(fan.iter().all(|&t| !mesh.triangle_contains(t, p)), "{corner:?} {p:?}");
                            beyond += 1;
                        }
                    }
                }
            }
        }
        assert!(found > 1000 && beyond > 1000, "{found} {beyond}");
    }

    /// Every wall of `mesh` (an edge with no neighbour).
    fn all_walls(mesh: &NavMesh) -> Vec<(Point, Point)> {
        let mut walls = Vec::new();
        for t in 0..mesh.triangle_count() {
            let t = TriangleId::from_index(t);
            let corners = mesh.triangle_points(t);
            for (e, n) in mesh.neighbours(t).iter().enumerate() {
                if n.is_none() {
                    walls.push((corners[e], corners[(e + 1) % 3]));
                }
            }
        }
        walls
    }

    #[test]
    fn kept_clearances_let_through_only_tangents_that_keep_the_radius() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2210);
        let (mut free_lines, mut free_rounds, mut tangents, mut one_sided) = (0, 0, 0, 0);
        for round in 0..24 {
            let (vertices, triangles) = crate::test_meshes::lattice_mesh(&mut rng, 8 + round % 7, 6);
            let Ok(mesh) = NavMesh::from_parts(crate::test_meshes::parts_of(vertices, triangles)) else {
                continue;
            };
            let walls = all_walls(&mesh);
            let (mut sight, mut clearance) = (SightScratch::default(), ClearanceScratch::default());
            let corners = mesh.disc_corners();
            for (c, from) in corners.iter().enumerate() {
                let c = c as u32;
                let list = loop {
                    if let Some(list) = mesh.corners_in_sight(c, &mut sight) {
                        break list.to_vec();
                    }
                };
                for radius in [0.1, 0.2, 0.3, 0.45] {
                    for (k, entry) in list.iter().enumerate() {
                        let to = &corners[(entry & SIGHT_CORNER) as usize];
                        // The walls near the segment between the corners (but their own), and
                        // which of them lie wholly on the left or wholly on the right of it.
                        let side = |p: Point| orient(from.centre, to.centre, p);
                        let near: Vec<(Point, Point)> = walls
                            .iter()
                            .copied()
                            .filter(|&(p, q)| !own_wall(from, p, q) && !own_wall(to, p, q))
                            .filter(|&(p, q)| {
                                segments_distance(from.centre, to.centre, p, q) < 2.0 * radius * 1.01
                            })
                            .collect();
                        let wholly = |o| near.iter().all(|&(p, q)| side(p) == o && side(q) == o);
                        for (from_side, to_side) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                            // The first ask only marks the entry; the second measures it.
                            let sides = (from_side, to_side);
                            let free = (0..3)
                                .map(|_| {
                                    mesh.sight_line_is_free((c, k as u32), sides, radius, &mut clearance)
                                })
                                .last();
                            // A counter-clockwise tangent to the same side runs on the right of
                            // the segment: walls wholly on its left are far enough.
                            let far_side = if from_side > 0.0 {
                                Orientation::CounterClockwise
                            } else {
                                Orientation::Clockwise
                            };
                            if near.is_empty() || (from_side == to_side && wholly(far_side)) {
                                assert_eq!(free, Some(true), "{from:?} {to:?} r {radius} {sides:?}");
                            }
                            if free != Some(true) {
                                continue;
                            }
                            free_lines += 1;
                            // The taut tangent between the two circles keeps the radius from
                            // every wall of the mesh.
                            let bend = |c: &DiscCorner, side| Bend { centre: c.centre, radius, side };
                            let Some((u, leave, at)) =
                                disc_funnel::tangent(bend(from, from_side), bend(to, to_side))
                            else {
                                continue;
                            };
                            if !(taut(from, u, from_side) && taut(to, u, to_side)) {
                                continue;
                            }
                            tangents += 1;
                            one_sided += usize::from(from_side == to_side && !near.is_empty());
                            for &(p, q) in &walls {
                                let d = segments_distance(leave, at, p, q);
                                assert!(
                                    d >= radius * (1.0 - 1e-9),
                                    "{from:?} {to:?} r {radius} {sides:?}: wall {p:?} {q:?} at {d}"
                                );
                            }
                        }
                    }
                    // The arcs round a corner: no wall to gather when the kept clearance says
                    // so, as the search of the walls near it finds.
                    let mut disc = DiscScratch::default();
                    let reach = radius * (2.0 + disc_funnel::ARC_TOLERANCE);
                    let mut near = Vec::new();
                    mesh.walls_within(from.triangle, from.centre, reach, &mut clearance, &mut near);
                    near.retain(|&(p, q)| !own_wall(from, p, q));
                    for _ in 0..3 {
                        disc.walls_at.clear();
                        disc.walls_at.resize(corners.len(), (u32::MAX, u32::MAX));
                        disc.walls.clear();
                        let (start, end) = mesh.walls_round(c, radius, &mut disc, &mut clearance);
                        assert_eq!(end - start, near.len(), "{from:?} r {radius}");
                        free_rounds += usize::from(start == end);
                    }
                }
            }
        }
        assert!(
            free_lines > 1_000 && tangents > 1_000 && one_sided > 100 && free_rounds > 1_000,
            "{free_lines} {tangents} {one_sided} {free_rounds}"
        );
    }

    /// A disc path's check: a segment starting off the mesh is a disturbance at its first
    /// point (it used to pass as clear: no triangle to search the walls from); on the mesh,
    /// a segment in the open is clear and one grazing a wall is not.
    #[test]
    fn a_segment_starting_off_the_mesh_disturbs_the_path() {
        let square =
            [Point::new(0.0, 0.0), Point::new(10.0, 0.0), Point::new(10.0, 10.0), Point::new(0.0, 10.0)];
        let triangles = vec![[0, 1, 2].map(VertexId), [0, 2, 3].map(VertexId)];
        let mesh = NavMesh::from_parts(crate::test_meshes::parts_of(square.to_vec(), triangles)).unwrap();
        let mut clearance = ClearanceScratch::default();
        let start = mesh.locate(Point::new(5.0, 5.0)).unwrap();
        let mut check =
            |points: &[Point]| mesh.first_disturbance(points, &[], &[], (1.0, start), &mut clearance);
        let off = Point::new(-0.5, 5.0);
        assert_eq!(check(&[off, Point::new(5.0, 6.0)]), Some((0, (off, off))));
        assert_eq!(check(&[Point::new(2.0, 5.0), Point::new(8.0, 5.0)]), None);
        assert_eq!(check(&[Point::new(2.0, 5.0), Point::new(8.0, 9.5)]).map(|(k, _)| k), Some(0));
    }

    /// The fast mode's check of an arc round a corner without a search: random arcs (a random
    /// start, up to two radians either way round, chords as the funnel writes them) round every corner of random
    /// lattice meshes at four radii. Every arc it lets through keeps the radius from every
    /// wall by brute force; and it lets through every arc that keeps twice the radius from
    /// every wall but the corner's own and the radius from those (once its kept clearance is
    /// measured), which is most of them.
    #[test]
    fn arcs_let_through_without_a_search_keep_the_radius() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(2311);
        let (mut through, mut complete, mut arcs) = (0, 0, 0);
        for round in 0..16 {
            let (vertices, triangles) = crate::test_meshes::lattice_mesh(&mut rng, 8 + round % 7, 6);
            let Ok(mesh) = NavMesh::from_parts(crate::test_meshes::parts_of(vertices, triangles)) else {
                continue;
            };
            let walls = all_walls(&mesh);
            let mut clearance = ClearanceScratch::default();
            for c in mesh.disc_corners().iter() {
                for radius in [0.1, 0.2, 0.3, 0.45] {
                    let outer = radius * (1.0 + disc_funnel::ARC_TOLERANCE);
                    let inside = radius * (1.0 - crate::query::path::DISTURBANCE_TOLERANCE);
                    let single = mesh.disc_corner_index().at_vertex(c.vertex).count() == 1;
                    for _ in 0..6 {
                        let at =
                            |a: f64| Point::new(c.centre.x + radius * a.cos(), c.centre.y + radius * a.sin());
                        let side = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                        let a0 = rng.random_range(0.0..TAU);
                        let a1 = a0 + side * rng.random_range(0.05..2.0);
                        let bend = Bend { centre: c.centre, radius, side };
                        let mut chords = vec![at(a0)];
                        disc_funnel::arc(bend, at(a0), at(a1), &mut chords);
                        chords.push(at(a1));
                        arcs += 1;
                        let nearest = |keep: &dyn Fn(Point, Point) -> bool| {
                            (walls.iter().filter(|&&(p, q)| keep(p, q)))
                                .flat_map(|&(p, q)| {
                                    chords.windows(2).map(move |w| segments_distance(w[0], w[1], p, q))
                                })
                                .fold(f64::INFINITY, f64::min)
                        };
                        // Asked three times: the first ask marks the corner, the second measures.
                        let clear = (0..3)
                            .map(|_| {
                                mesh.arc_clear_of_walls(c.centre, &chords, (outer, inside), &mut clearance)
                            })
                            .last()
                            .unwrap();
                        if clear {
                            through += 1;
                            let d = nearest(&|_, _| true);
                            assert!(
                                d >= inside,
                                "{c:?} r {radius}: an arc let through comes {d} near a wall"
                            );
                        }
                        let others = nearest(&|p, q| !own_wall(c, p, q));
                        let own = nearest(&|p, q| own_wall(c, p, q));
                        // (Room to spare for the kept clearance's rounding down, 1/256.)
                        if single && others >= 2.02 * radius && own >= inside {
                            complete += 1;
                            let corner_far = (walls.iter().filter(|&&(p, q)| !own_wall(c, p, q)))
                                .map(|&(p, q)| segment_distance(c.centre, p, q))
                                .fold(f64::INFINITY, f64::min);
                            if corner_far >= (outer + inside) * 1.01 {
                                assert!(clear, "{c:?} r {radius}: a clear arc not let through");
                            }
                        }
                    }
                }
            }
        }
        eprintln!("{through} of {arcs} let through, {complete} clear");
        assert!(through > 1_000 && complete > 500, "{through} of {arcs} let through, {complete} clear");
    }
}
