//! Paths in two modes: fast (A* over triangles, module `search`, then the funnel, `funnel`) and
//! optimal (an interval search, `optimal`).
//!
//! Fast mode, the default: when the straight segment is clear (a raycast) it is the path;
//! otherwise A* runs over the triangles, each holding what the way so far sees of the edge it
//! was entered through (a cone, module `cone`), and the corridor of triangles it finds is
//! string-pulled into the taut path through that corridor. That is the shortest path within its
//! corridor, not always the shortest path: one cone per triangle cannot hold every way there,
//! and the search can settle on a slightly longer corridor (see the README for measured
//! ratios). Optimal mode: the exact shortest path. In both, a point on an edge or vertex starts
//! (or ends) in every triangle around it, and pockets (dead-end trees of triangles, see
//! [`find_pockets`](crate::find_pockets)) without the start or goal are never entered.
//!
//! All per-query state lives in a [`PathScratch`]: reuse one per thread, and queries neither
//! clear arrays (a generation counter marks what is current) nor allocate once it has grown to
//! the mesh.

mod cone;
mod costs;
mod disc_funnel;
mod disc_layers;
mod disc_optimal;
mod disc_sight;
mod disc_weighted;
mod funnel;
mod marks;
mod optimal;
mod search;
mod weighted;

use std::collections::BinaryHeap;

use crate::clearance::ClearanceScratch;
use crate::geometry::{Aabb, Orientation, Point, closest_point_on_triangle, orient};
use crate::ids::{AreaId, HalfEdge, IslandId, TriangleId};
use crate::layers::LayerId;
use crate::links::LinkId;
use crate::mesh::NavMesh;
use crate::settings::UnknownName;
use crate::topology::Pocket;

use cone::Cone;
pub use costs::{AreaCostError, AreaCosts};
use disc_optimal::DiscScratch;
pub(crate) use disc_optimal::{DiscCorner, DiscCorners, disc_corners};
use funnel::string_pull;
pub(crate) use marks::GenerationSet;
use optimal::OptimalScratch;
pub(crate) use optimal::{search_flags, vertex_turning};
use search::OpenNode;
pub(crate) use weighted::steiner_edges;

/// A path: the points from start to goal (turns at mesh vertices in between, and the ends of
/// the off-mesh links it takes), its length and its cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    /// Start, turning points, goal (or, for a partial path, the point it gets to). A single
    /// point when start and end coincide.
    pub points: Vec<Point>,
    /// The walked length: the sum of the segment lengths, leaving out the links taken.
    pub length: f64,
    /// What the path minimises: the sum of its pieces' lengths times the cost of the area
    /// each crosses ([`PathOptions::area_costs`]), plus the costs of the off-mesh links taken;
    /// equal to `length` when every cost is 1 and no link is taken.
    pub cost: f64,
    /// The off-mesh links taken, in order: each from `points[step.point]` to the next point.
    pub links: Vec<LinkStep>,
    /// `None` when the path ends at the goal. With [`PathOptions::partial`] on, why it ends
    /// short of the goal, at its last point ([`Path::end`]).
    pub partial: Option<PartialReason>,
    /// On a layered mesh, the layer of each point (a point on a portal: the layer the path
    /// arrives on; the start: the start's layer); empty on a mesh without layers, where every
    /// point is on layer 0 (see [`Path::layer`]).
    pub layers: Vec<LayerId>,
}

/// One off-mesh link taken by a [`Path`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkStep {
    /// The index of the point the link is taken from (the link arrives at the next point).
    pub point: usize,
    /// The link.
    pub link: LinkId,
}

impl Path {
    /// Whether the segment from point `k` to point `k + 1` is a link taken, not walked.
    pub fn is_link_step(&self, k: usize) -> bool {
        self.links.iter().any(|step| step.point == k)
    }

    /// The last point: the goal, or where a partial path gets to. `None` for an empty path.
    pub fn end(&self) -> Option<Point> {
        self.points.last().copied()
    }

    /// The layer of point `k` (layer 0 on a mesh without layers).
    pub fn layer(&self, k: usize) -> LayerId {
        self.layers.get(k).copied().unwrap_or_default()
    }

    /// Whether the path stops short of the goal (see [`Path::partial`]).
    pub fn is_partial(&self) -> bool {
        self.partial.is_some()
    }
}

/// Why a partial path stops short of the goal ([`PathOptions::partial`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PartialReason {
    /// The goal is off the mesh: the path is the path (of the query's mode) to the point of
    /// the islands the start reaches (its own, and those its links lead to) nearest the goal.
    GoalOffMesh,
    /// The goal is on an island the start does not reach: the path is the path (of the
    /// query's mode) to the point of the islands it reaches nearest the goal.
    Unreachable,
    /// The search expanded its [`PathOptions::node_budget`] before it was done: the path leads
    /// to the point nearest the goal of the most promising part of the mesh reached (fast
    /// mode: the triangle with the smallest estimate to the goal; optimal mode: the interval
    /// nearest the goal, or the goal itself when a path to it was found but not yet proven
    /// the shortest). It ends no farther than the start from the point it heads for: the
    /// goal, or when the goal is unreachable or off the mesh, its nearest point on the start's
    /// island.
    BudgetExhausted,
}

impl PartialReason {
    /// A short name: `goal_off_mesh`, `unreachable`, `budget_exhausted`.
    pub fn name(self) -> &'static str {
        match self {
            PartialReason::GoalOffMesh => "goal_off_mesh",
            PartialReason::Unreachable => "unreachable",
            PartialReason::BudgetExhausted => "budget_exhausted",
        }
    }
}

impl std::fmt::Display for PartialReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PartialReason::GoalOffMesh => "the goal is off the mesh",
            PartialReason::Unreachable => "the goal is not connected to the start",
            PartialReason::BudgetExhausted => "the search ran out of its node budget",
        })
    }
}

/// Which end of a path query a problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// The start point.
    Start,
    /// The goal point.
    Goal,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// Why no path was returned.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum PathError {
    /// A point has a NaN or infinite coordinate, or one beyond
    /// ±[`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
    #[error("{which} point ({}, {}) is not finite, or has a coordinate beyond ±2^40 or non-zero below 2^-142", .point.x, .point.y)]
    NonFinite {
        /// Which point.
        which: Endpoint,
        /// The point.
        point: Point,
    },
    /// A point is off the mesh (and snapping was not asked for).
    #[error("{which} point ({}, {}) is off the mesh", .point.x, .point.y)]
    OffMesh {
        /// Which point.
        which: Endpoint,
        /// The point.
        point: Point,
    },
    /// Start and goal are on different islands, or the mesh is empty.
    #[error("no path: start and goal are not connected")]
    Unreachable,
    /// The agent radius is negative, NaN or infinite.
    #[error("agent radius {0} must be finite and >= 0")]
    BadRadius(f64),
    /// On a layered mesh, a point given without a layer lies on several layers (use
    /// [`NavMesh::find_path_on`]).
    #[error("{which} point ({}, {}) lies on several layers: name one", .point.x, .point.y)]
    AmbiguousLayer {
        /// Which point.
        which: Endpoint,
        /// The point.
        point: Point,
    },
    /// A point is not on the layer given for it.
    #[error("{which} point ({}, {}) is not on layer {layer}", .point.x, .point.y)]
    OffLayer {
        /// Which point.
        which: Endpoint,
        /// The point.
        point: Point,
        /// The layer.
        layer: LayerId,
    },
    /// An option the searches do not combine with layers yet was asked on a layered mesh.
    #[error("{0} does not work on a mesh with layers yet")]
    NotWithLayers(&'static str),
    /// No path keeping the agent radius from every wall could be verified: the fast mode's
    /// funnel found none through the corridors it chose (then, on a mesh without links, the
    /// exact search it falls back on did not either), or a path the exact search found failed
    /// the wall check (a known limitation at passages within a rounding of the disc's
    /// diameter; see the README). No unverified path is ever returned.
    #[error(
        "no path for the agent radius could be verified to keep the radius from every wall (a known limitation): try a mesh baked with that agent radius"
    )]
    DiscPathUnverified,
    /// A point is closer to a wall than the agent radius (and snapping was not asked for).
    #[error("{which} point ({}, {}) is {clearance} from the nearest wall, closer than the agent radius {radius}", .point.x, .point.y)]
    NoClearance {
        /// Which point.
        which: Endpoint,
        /// The point.
        point: Point,
        /// Its distance to the nearest wall.
        clearance: f64,
        /// The agent radius.
        radius: f64,
    },
    /// A point lies only in triangles of a type the query's [`AreaCosts`] exclude.
    #[error("{which} point ({}, {}) is on area type {}, which is excluded", .point.x, .point.y, .area.0)]
    ExcludedArea {
        /// Which point.
        which: Endpoint,
        /// The point.
        point: Point,
        /// Its area type.
        area: AreaId,
    },
    /// The search expanded [`PathOptions::node_budget`] nodes without finishing (and partial
    /// paths are off).
    #[error("no path found within the search budget of {budget} nodes")]
    BudgetExhausted {
        /// The budget.
        budget: u32,
    },
}

/// The search method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathMode {
    /// A* over the triangles, each holding what the way so far sees of the edge it is entered
    /// through, then the funnel: the taut path through the corridor found. Usually the shortest
    /// path, sometimes a little longer (see the README's measurements).
    #[default]
    Fast,
    /// The exact Euclidean shortest path within the walkable area: an interval search over
    /// the triangles (Polyanya's design), slower than the fast mode on long paths.
    Optimal,
}

impl PathMode {
    /// The names of the modes, as the command line spells them.
    pub const NAMES: [&'static str; 2] = ["fast", "optimal"];

    /// The mode's name: `fast` or `optimal`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl std::str::FromStr for PathMode {
    type Err = UnknownName;

    /// Parses `fast` or `optimal`.
    ///
    /// ```
    /// use trinav::PathMode;
    /// assert_eq!("optimal".parse(), Ok(PathMode::Optimal));
    /// assert!("fastest".parse::<PathMode>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fast" => Ok(PathMode::Fast),
            "optimal" => Ok(PathMode::Optimal),
            _ => Err(UnknownName { what: "path mode", name: s.to_string(), expected: &PathMode::NAMES }),
        }
    }
}

/// Options of a path query.
///
/// ```
/// use trinav::PathOptions;
/// let options = PathOptions::default().with_snap(true);
/// assert!(options.snap);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct PathOptions {
    /// Move an off-mesh start or goal to the nearest walkable point instead of failing with
    /// [`PathError::OffMesh`]. Default false.
    pub snap: bool,
    /// The search method. Default [`PathMode::Fast`].
    pub mode: PathMode,
    /// When the start is a pinch point (pieces of the walkable area meeting only there, as at
    /// a double corner of a grid map), leave only through the piece that opens towards this
    /// point. For grid maps, the centre of the start's cell: the start then leaves through its
    /// own cell's quadrant (the GPPC rule). Anywhere else it changes nothing. Default none:
    /// any piece around the start.
    pub start_side: Option<Point>,
    /// The same for the goal: arrive only through triangles opening towards this point.
    pub goal_side: Option<Point>,
    /// Partial paths: when the goal cannot be reached (it is on another island or off the
    /// mesh, or the [`node_budget`](PathOptions::node_budget) runs out), return the path
    /// towards it instead of an error: to the point nearest the goal (exact nearest,
    /// Euclidean) of the islands the start reaches (its own, and on a mesh with links those
    /// its links lead to, one-way ones one way), or towards the most promising node the search reached.
    /// The answer says so in [`Path::partial`]. An error still comes for a bad start (off the
    /// mesh without snapping, or not finite) or a goal that is not finite. Default false.
    pub partial: bool,
    /// The most search nodes one query may expand (fast mode: triangles; optimal mode:
    /// intervals), bounding its cost; `None` (the default) for no bound. A search that runs
    /// out fails with [`PathError::BudgetExhausted`], or with [`PathOptions::partial`] on,
    /// returns a partial path. A straight path in sight of the start needs no search. See the
    /// README for the time per node measured, to turn a budget in microseconds into nodes.
    pub node_budget: Option<u32>,
    /// The radius of the agent, a disc: the path keeps at least this far from every wall
    /// (world units, finite, `>= 0`; default 0, a point). Start and goal need that clearance
    /// too ([`PathError::NoClearance`], or with snapping the nearest point that has it). See
    /// the README for the guarantees of each mode.
    pub radius: f64,
    /// The cost of each area type and the types excluded (see [`AreaCosts`]). Default: every
    /// type costs 1, none excluded. Excluded types are walls in both modes. With costs other
    /// than 1, both modes search the cheapest path (see the README for the bounds of each).
    pub area_costs: AreaCosts,
}

impl PathOptions {
    /// These options with the search method `mode`.
    ///
    /// ```
    /// use trinav::{PathMode, PathOptions};
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// assert_eq!(options.mode, PathMode::Optimal);
    /// ```
    pub fn with_mode(mut self, mode: PathMode) -> Self {
        self.mode = mode;
        self
    }

    /// These options with snapping on or off.
    pub fn with_snap(mut self, snap: bool) -> Self {
        self.snap = snap;
        self
    }

    /// These options with the sides the start leaves and the goal is reached by (see
    /// [`PathOptions::start_side`]).
    pub fn with_sides(mut self, start_side: Option<Point>, goal_side: Option<Point>) -> Self {
        self.start_side = start_side;
        self.goal_side = goal_side;
        self
    }

    /// These options for an agent of radius `radius` (see [`PathOptions::radius`]).
    ///
    /// ```
    /// use trinav::PathOptions;
    /// assert_eq!(PathOptions::default().with_radius(0.5).radius, 0.5);
    /// ```
    pub fn with_radius(mut self, radius: f64) -> Self {
        self.radius = radius;
        self
    }

    /// These options with the area costs and exclusions of an agent kind (see [`AreaCosts`]).
    ///
    /// ```
    /// use trinav::{AreaCosts, AreaId, PathOptions};
    /// let boat = AreaCosts::default().with_excluded(AreaId(0));
    /// assert!(PathOptions::default().with_area_costs(boat).area_costs.is_excluded(AreaId(0)));
    /// ```
    pub fn with_area_costs(mut self, area_costs: AreaCosts) -> Self {
        self.area_costs = area_costs;
        self
    }

    /// These options with partial paths on or off (see [`PathOptions::partial`]).
    ///
    /// ```
    /// use trinav::PathOptions;
    /// assert!(PathOptions::default().with_partial(true).partial);
    /// ```
    pub fn with_partial(mut self, partial: bool) -> Self {
        self.partial = partial;
        self
    }

    /// These options with a node budget (a number of nodes, or `None` for no bound; see
    /// [`PathOptions::node_budget`]).
    ///
    /// ```
    /// use trinav::PathOptions;
    /// assert_eq!(PathOptions::default().with_node_budget(500).node_budget, Some(500));
    /// assert_eq!(PathOptions::default().with_node_budget(None).node_budget, None);
    /// ```
    pub fn with_node_budget(mut self, budget: impl Into<Option<u32>>) -> Self {
        self.node_budget = budget.into();
        self
    }
}

/// Reusable per-query state: one per thread serves any number of queries on any mesh.
#[derive(Clone, Debug, Default)]
pub struct PathScratch {
    /// Triangles whose `g`, `f_bits`, `parent` and `cones` are set in this query.
    seen: GenerationSet,
    /// Triangles closed (expanded, or a start) in this query.
    closed: GenerationSet,
    /// Distance from the start to the root of the triangle's cone.
    g: Vec<f64>,
    /// The f of a triangle's latest open-list entry (older entries are stale).
    f_bits: Vec<u64>,
    /// The half-edge a node was entered through.
    parent: Vec<HalfEdge>,
    /// What the root sees of the edge a triangle was entered through.
    cones: Vec<Cone>,
    /// The node a node was entered from ([`search::START`] for a start triangle).
    parent_node: Vec<u32>,
    open: BinaryHeap<OpenNode>,
    /// The half-edges the path crosses, in order.
    corridor: Vec<HalfEdge>,
    portals: Vec<funnel::Portal>,
    /// Triangles containing the start and the goal.
    starts: Vec<TriangleId>,
    goals: Vec<TriangleId>,
    /// The optimal mode's state.
    optimal: OptimalScratch,
    /// The pocket triangles this query may enter.
    pass: PocketPass,
    /// The islands reached through links, for the reachability test.
    islands: IslandReach,
    /// With exclusions, the triangles a partial path may head for (see
    /// [`NavMesh::reach_allowed`]): reached, and the queue of the flood.
    allowed_reach: (GenerationSet, Vec<TriangleId>),
    /// With links, the fast search's way: where the corridor is left by a link (the index of
    /// the next crossing, the directed link), and the pulled piece between links.
    hops: Vec<(usize, u32)>,
    piece: Vec<Point>,
    /// With links, the triangles the fast chain's current piece leaves from and heads for,
    /// less those of excluded types.
    chain_ends: (Vec<TriangleId>, Vec<TriangleId>),
    /// A disc corridor's portal ends on no wall, when pulled as points (see `pull_corridor`).
    open_ends: Vec<Point>,
    /// With links, the fast mode's walking path, while the link search looks for a cheaper one.
    walked: Vec<Point>,
    /// On a layered mesh, the layer trace's memory of the vertices and layers its segment
    /// walks tried.
    layer_walks: Vec<(Point, LayerId)>,
    /// With links, the fast search's [`NavMesh::link_estimates`].
    link_work: crate::links::LinkWork,
    /// With links, the node the fast search reached the goal by ([`search::START`]: a start
    /// triangle holds the goal).
    goal_node: u32,
    /// Nodes the last query expanded.
    expanded: u32,
    /// The wall-distance searches' memory.
    clearance: ClearanceScratch,
    /// The disc's optimal search.
    disc: DiscScratch,
    /// The disc's search under area costs or exclusions.
    disc_weighted: disc_weighted::DiscWeightedScratch,
    /// The disc funnel's memory.
    bends: Vec<disc_funnel::Bend>,
    arcs: Vec<disc_funnel::ArcRun>,
    funnel: std::collections::VecDeque<disc_funnel::Bend>,
    /// The node (and its triangle) a fast search closed with the smallest estimate to the goal.
    best_reached: Option<(u32, TriangleId)>,
    /// Whether the last fast search numbered a node per way into a triangle (the disc
    /// search) rather than per triangle.
    per_entry: bool,
    /// The weighted search's state (area costs other than 1).
    weighted: weighted::WeightedScratch,
    /// Edges the disc of this query cannot cross (both half-edges of each), found when a
    /// corridor failed verification; the disc search does not cross them.
    uncrossable: Vec<HalfEdge>,
}

/// The triangles a query may enter: not of an excluded area type, and in the core or in a
/// pocket on the way from its start and goal triangles to the core (every other pocket is a
/// dead end for it).
#[derive(Clone, Debug, Default)]
pub(crate) struct PocketPass {
    marks: GenerationSet,
    /// Bit `a`: area type `a` is excluded.
    excluded: u64,
}

impl PocketPass {
    /// Marks the way out of the pockets holding `ends` (a new generation), and takes the
    /// exclusions of `costs`.
    fn open(&mut self, mesh: &NavMesh, ends: [&[TriangleId]; 2], costs: &AreaCosts) {
        self.excluded = (0..AreaId::COUNT as u8)
            .filter(|&a| costs.is_excluded(AreaId(a)))
            .fold(0, |bits, a| bits | 1 << a);
        self.marks.clear(mesh.triangle_count());
        for &start in ends.iter().copied().flatten() {
            let mut t = start;
            while !self.marks.contains(t.index()) {
                self.marks.insert(t.index());
                match mesh.pocket(t) {
                    Pocket::Towards(next) => t = next,
                    Pocket::Core | Pocket::Root => break,
                }
            }
        }
    }

    /// Whether a search may enter triangle `t` (a pocket on the way to a link end too).
    #[inline]
    pub(crate) fn allows(&self, mesh: &NavMesh, t: TriangleId) -> bool {
        (mesh.pocket(t) == Pocket::Core || self.marks.contains(t.index()) || mesh.links.opens_pocket(t))
            && !self.excludes(mesh, t)
    }

    /// Whether triangle `t` is of an excluded type (a wall to this query).
    #[inline]
    pub(crate) fn excludes(&self, mesh: &NavMesh, t: TriangleId) -> bool {
        self.excluded != 0 && (self.excluded >> (mesh.area_id(t).0 & 63)) & 1 != 0
    }

    /// Whether some type is excluded.
    #[inline]
    pub(crate) fn has_exclusions(&self) -> bool {
        self.excluded != 0
    }
}

/// The islands a query reaches from its start through links (a breadth-first search over the
/// directed island graph: islands, and the links leaving each).
#[derive(Clone, Debug, Default)]
pub(crate) struct IslandReach {
    reached: GenerationSet,
    queue: Vec<u32>,
}

/// Tidies a path whose `steps` mark the points links are taken from: drops repeated points
/// and points lying exactly on the way straight on between their neighbours (not where the
/// path turns back), but never the
/// ends of a link (the indices in `steps` follow the points).
pub(crate) fn tidy_path(points: &mut Vec<Point>, steps: &mut [LinkStep]) {
    use crate::geometry::{Orientation, orient};
    let n = points.len();
    if n == 0 {
        return;
    }
    let (mut kept, mut pinned) = (1, 0);
    let mut next_step = usize::from(steps.first().is_some_and(|s| s.point == 0));
    let mut after_link = next_step == 1;
    for k in 1..n {
        let p = points[k];
        let is_start = steps.get(next_step).is_some_and(|s| s.point == k);
        if after_link {
            // The end of a link: kept where it is.
            points[kept] = p;
            pinned = kept;
            kept += 1;
        } else if p == points[kept - 1] {
            // Repeated.
        } else if kept >= 2
            && pinned < kept - 1
            && orient(points[kept - 2], points[kept - 1], p) == Orientation::Collinear
            && between(points[kept - 2], points[kept - 1], p)
        {
            // The previous point lies on the way straight on: drop it.
            points[kept - 1] = p;
        } else {
            points[kept] = p;
            kept += 1;
        }
        if is_start {
            steps[next_step].point = kept - 1;
            pinned = kept - 1;
            next_step += 1;
        }
        after_link = is_start;
    }
    points.truncate(kept);
}

/// Whether `m`, collinear with `a` and `b`, lies between them (a path through `m` goes straight
/// on; the other way round, it turns back, which a path across overlapping layers may do).
fn between(a: Point, m: Point, b: Point) -> bool {
    a.x.min(b.x) <= m.x && m.x <= a.x.max(b.x) && a.y.min(b.y) <= m.y && m.y <= a.y.max(b.y)
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearchEnd {
    /// It found the path.
    Found,
    /// The goal cannot be reached.
    Unreachable,
    /// It expanded its budget of nodes first.
    Exhausted,
}

impl PathScratch {
    /// An empty scratch; it grows to the mesh on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many nodes the last path query expanded (fast mode: triangles; optimal mode:
    /// intervals; 0 when the path was straight or the goal unreachable without a search).
    /// Useful to choose a [`PathOptions::node_budget`].
    pub fn expanded_nodes(&self) -> u32 {
        self.expanded
    }

    /// Offers node `node` of a fast search (a triangle, or for a disc a way into one) entered
    /// through `entry` with `cone` at distance `g` and estimate `f`: taken, and pushed on the
    /// open list, unless the node was already entered with an f no higher. Returns whether it
    /// was taken.
    #[inline(always)]
    fn offer(&mut self, node: usize, entry: HalfEdge, cone: Cone, g: f64, f: f64) -> bool {
        if self.seen.contains(node) && f64::from_bits(self.f_bits[node]) <= f {
            return false;
        }
        self.seen.insert(node);
        self.g[node] = g;
        self.f_bits[node] = f.to_bits();
        self.parent[node] = entry;
        self.cones[node] = cone;
        self.open.push(search::OpenNode { f_bits: f.to_bits(), item: node as u32 });
        true
    }

    /// Starts a fast-mode query over `nodes` triangles: grows the arrays if needed and empties
    /// the sets.
    fn begin(&mut self, nodes: usize) {
        if self.g.len() < nodes {
            self.g.resize(nodes, 0.0);
            self.f_bits.resize(nodes, 0);
            self.parent.resize(nodes, HalfEdge::NONE);
            self.cones.resize(nodes, Cone::FROM_START);
            self.parent_node.resize(nodes, search::START);
        }
        self.seen.clear(nodes);
        self.closed.clear(nodes);
        self.open.clear();
    }
}

impl NavMesh {
    /// Whether a path may lead from a triangle of `starts` to one of `goals`: their islands,
    /// joined by the links (one-way ones one way).
    fn links_reach(&self, starts: &[TriangleId], goals: &[TriangleId], reach: &mut IslandReach) -> bool {
        reach.reached.clear(self.island_count() as usize);
        reach.queue.clear();
        for &s in starts {
            let i = self.island(s).0;
            if !reach.reached.contains(i as usize) {
                reach.reached.insert(i as usize);
                reach.queue.push(i);
            }
        }
        let mut k = 0;
        while let Some(&i) = reach.queue.get(k) {
            k += 1;
            if goals.iter().any(|&g| self.island(g).0 == i) {
                return true;
            }
            for d in self.links.leaving_island(i) {
                for &t in self.links.end_triangles(d) {
                    let j = self.island(t).0;
                    if !reach.reached.contains(j as usize) {
                        reach.reached.insert(j as usize);
                        reach.queue.push(j);
                    }
                }
            }
        }
        false
    }

    /// The path from `from` to `to` with default options (fast mode, no snapping).
    ///
    /// ```
    /// # use trinav::{NavMesh, PathScratch, Point};
    /// # fn demo(mesh: &NavMesh) -> Result<(), trinav::PathError> {
    /// let mut scratch = PathScratch::new();
    /// let path = mesh.find_path(Point::new(1.0, 1.0), Point::new(8.0, 9.0), &mut scratch)?;
    /// assert_eq!(path.points[0], Point::new(1.0, 1.0));
    /// # Ok(()) }
    /// ```
    pub fn find_path(&self, from: Point, to: Point, scratch: &mut PathScratch) -> Result<Path, PathError> {
        self.find_path_with(from, to, &PathOptions::default(), scratch)
    }

    /// The path from `from` to `to` with `options`.
    ///
    /// ```
    /// use trinav::build::{MeshParts, build_adjacency};
    /// use trinav::{AreaId, BakeSettings, IslandId, NavMesh, PathMode, PathOptions, PathScratch, Point, VertexId};
    /// // An L: [0, 2]² without [1, 2]², as four triangles; (1, 1) is its inner corner.
    /// let triangles = [[0, 1, 2], [0, 2, 3], [0, 3, 5], [3, 4, 5]].map(|t| t.map(VertexId)).to_vec();
    /// let parts = MeshParts {
    ///     settings: BakeSettings::default(),
    ///     vertices: [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]
    ///         .map(|(x, y)| Point::new(x, y))
    ///         .to_vec(),
    ///     neighbours: build_adjacency(&triangles, 6)?,
    ///     areas: vec![AreaId(0); 4],
    ///     islands: vec![IslandId(0); 4],
    ///     triangles,
    /// };
    /// let mesh = NavMesh::from_parts(parts)?;
    /// let options = PathOptions::default().with_mode(PathMode::Optimal);
    /// let (from, to) = (Point::new(1.75, 0.5), Point::new(0.5, 1.75));
    /// let path = mesh.find_path_with(from, to, &options, &mut PathScratch::new())?;
    /// // Around the inner corner: 2 · √(0.75² + 0.5²).
    /// assert_eq!(path.points, vec![from, Point::new(1.0, 1.0), to]);
    /// assert!((path.length - 2.0 * 0.8125f64.sqrt()).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_path_with(
        &self,
        from: Point,
        to: Point,
        options: &PathOptions,
        scratch: &mut PathScratch,
    ) -> Result<Path, PathError> {
        let mut path = Path::default();
        self.find_path_into(from, to, options, scratch, &mut path)?;
        Ok(path)
    }

    /// Like [`NavMesh::find_path_with`], writing into `out` (its buffer is reused): with a
    /// warmed-up scratch and `out`, a query allocates nothing.
    pub fn find_path_into(
        &self,
        from: Point,
        to: Point,
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        self.find_layered_path_into((from, None), (to, None), options, scratch, out)
    }

    /// The path from `from` on layer `from_layer` to `to` on layer `to_layer` with `options`
    /// (on a mesh without layers, layer 0 is the only one). [`Path::layers`] gives the layer of
    /// each point. Snapping takes the nearest point of the end's layer when one is given (of
    /// any layer otherwise); a partial path ends at the point nearest the goal in x, y of the
    /// islands the start reaches (through portals and links), on any layer. On a layered mesh,
    /// an agent radius is refused where layers overlap in x, y ([`PathError::NotWithLayers`],
    /// see [`NavMesh::layers_overlap`]); elsewhere it composes with links and area costs.
    ///
    /// ```
    /// # use trinav::{LayerId, NavMesh, PathOptions, PathScratch, Point};
    /// # fn demo(mesh: &NavMesh) -> Result<(), trinav::PathError> {
    /// let (ground, bridge) = (LayerId(0), LayerId(1));
    /// let path = mesh.find_path_on(
    ///     (ground, Point::new(1.0, 5.0)),
    ///     (bridge, Point::new(5.0, 5.0)),
    ///     &PathOptions::default(),
    ///     &mut PathScratch::new(),
    /// )?;
    /// assert_eq!(path.layer(path.points.len() - 1), bridge);
    /// # Ok(()) }
    /// ```
    pub fn find_path_on(
        &self,
        (from_layer, from): (LayerId, Point),
        (to_layer, to): (LayerId, Point),
        options: &PathOptions,
        scratch: &mut PathScratch,
    ) -> Result<Path, PathError> {
        let mut path = Path::default();
        self.find_layered_path_into(
            (from, Some(from_layer)),
            (to, Some(to_layer)),
            options,
            scratch,
            &mut path,
        )?;
        Ok(path)
    }

    /// [`NavMesh::find_path_on`], writing into `out`.
    pub fn find_path_on_into(
        &self,
        (from_layer, from): (LayerId, Point),
        (to_layer, to): (LayerId, Point),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        self.find_layered_path_into((from, Some(from_layer)), (to, Some(to_layer)), options, scratch, out)
    }

    /// The path query: each end with its layer, when given.
    fn find_layered_path_into(
        &self,
        (from, from_layer): (Point, Option<LayerId>),
        (to, to_layer): (Point, Option<LayerId>),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        out.layers.clear();
        if !self.is_layered() {
            for (which, point, layer) in [(Endpoint::Start, from, from_layer), (Endpoint::Goal, to, to_layer)]
            {
                if let Some(layer) = layer.filter(|l| l.0 != 0) {
                    return Err(PathError::OffLayer { which, point, layer });
                }
            }
            return self.find_one_layer_path_into(from, to, options, scratch, out);
        }
        if options.radius != 0.0 {
            self.check_layered_radius(options)?;
        }
        out.points.clear();
        out.links.clear();
        out.length = 0.0;
        out.cost = 0.0;
        out.partial = None;
        scratch.expanded = 0;
        let start = self.layered_endpoint(from, Endpoint::Start, from_layer, options.snap)?;
        let (from, start_layer, from_snapped) =
            self.layered_disc_endpoint(from, start, Endpoint::Start, options, scratch)?;
        let goal = match self.layered_endpoint(to, Endpoint::Goal, to_layer, options.snap) {
            Ok(goal) => Some(self.layered_disc_endpoint(to, goal, Endpoint::Goal, options, scratch)?),
            Err(PathError::OffMesh { .. }) if options.partial => None,
            Err(PathError::OffLayer { layer, .. })
                if options.partial && layer.index() < self.layer_count() =>
            {
                None
            }
            Err(e) => return Err(e),
        };
        let (mut starts, mut goals) =
            (std::mem::take(&mut scratch.starts), std::mem::take(&mut scratch.goals));
        let costs = &options.area_costs;
        let mut result = self.layered_end_triangles(
            &mut starts,
            (from, start_layer, from_snapped),
            options.start_side,
            (Endpoint::Start, costs),
        );
        if result.is_ok() {
            result = match goal {
                Some((to, layer, snapped)) => self
                    .layered_end_triangles(
                        &mut goals,
                        (to, layer, snapped),
                        options.goal_side,
                        (Endpoint::Goal, costs),
                    )
                    .and_then(|()| match self.route((from, &starts), (to, &goals), options, scratch, out) {
                        Err(PathError::Unreachable) if options.partial => {
                            let reason = PartialReason::Unreachable;
                            self.route_to_nearest(
                                (from, &starts),
                                to,
                                reason,
                                options,
                                scratch,
                                &mut goals,
                                out,
                            )
                        }
                        result => result,
                    }),
                None => {
                    let reason = PartialReason::GoalOffMesh;
                    self.route_to_nearest((from, &starts), to, reason, options, scratch, &mut goals, out)
                }
            };
        }
        if result.is_ok() {
            // The path ends at the goal, or at the target of a partial path (`goals` then
            // holds its triangles), unless the budget ran out on the way.
            let end = match out.partial {
                None => goal.map(|(_, layer, _)| layer),
                Some(PartialReason::Unreachable | PartialReason::GoalOffMesh) => {
                    goals.first().map(|&t| self.triangle_layer(t))
                }
                Some(_) => None,
            };
            let mut tried = std::mem::take(&mut scratch.layer_walks);
            self.trace_layers(&starts, end.map(|layer| (&goals[..], layer)), out, &mut tried);
            scratch.layer_walks = tried;
            if let Some(first) = out.layers.first_mut() {
                *first = start_layer;
            }
        }
        (scratch.starts, scratch.goals) = (starts, goals);
        result
    }

    /// A path end on a layered mesh: the point, its layer and, when it was snapped onto the
    /// mesh (onto `layer` when given), the triangle it was snapped to.
    fn layered_endpoint(
        &self,
        point: Point,
        which: Endpoint,
        layer: Option<LayerId>,
        snap: bool,
    ) -> Result<(Point, LayerId, Option<TriangleId>), PathError> {
        match self.end_layer(point, which, layer) {
            Ok(layer) => Ok((point, layer, None)),
            Err(PathError::OffMesh { .. }) if snap => {
                let (q, t) = self.nearest_point(point).ok_or(PathError::Unreachable)?;
                Ok((q, self.triangle_layer(t), Some(t)))
            }
            Err(PathError::OffLayer { layer, .. }) if snap && layer.index() < self.layer_count() => {
                let (q, t) = self.nearest_point_on(layer, point).ok_or(PathError::Unreachable)?;
                Ok((q, layer, Some(t)))
            }
            Err(e) => Err(e),
        }
    }

    /// Fills `list` with the triangles of a path end at `point` on `layer` (`snapped`: the
    /// triangle it was snapped to): those of its layer and those at the same place, the fan
    /// towards `side`, less excluded ones (none left: [`PathError::ExcludedArea`]).
    fn layered_end_triangles(
        &self,
        list: &mut Vec<TriangleId>,
        (point, layer, snapped): (Point, LayerId, Option<TriangleId>),
        side: Option<Point>,
        (which, costs): (Endpoint, &AreaCosts),
    ) -> Result<(), PathError> {
        self.end_triangles(list, point, snapped, None);
        self.keep_same_place(list, point, layer);
        if let Some(side) = side.filter(|&side| side != point && list.len() > 1) {
            self.keep_fan_towards(list, point, side);
        }
        self.keep_allowed(list, which, point, costs)
    }

    /// Keeps, of the triangles `list` holding path end `point`, those `costs` do not
    /// exclude; an error when none is left.
    fn keep_allowed(
        &self,
        list: &mut Vec<TriangleId>,
        which: Endpoint,
        point: Point,
        costs: &AreaCosts,
    ) -> Result<(), PathError> {
        if costs.has_exclusions() && !list.is_empty() {
            let area = self.area_id(list[0]);
            list.retain(|&t| !costs.is_excluded(self.area_id(t)));
            if list.is_empty() {
                return Err(PathError::ExcludedArea { which, point, area });
            }
        }
        Ok(())
    }

    /// Keeps, of the triangles `list` holding `point`, those of `layer` and those at the same
    /// place of the surface: where `point` is on a portal, the triangles of the other layer
    /// that share its vertex there, or the side it lies on.
    pub(crate) fn keep_same_place(&self, list: &mut Vec<TriangleId>, point: Point, layer: LayerId) {
        // In place, in order: the triangles of `layer` are all kept, so at step r they are in
        // the kept part or not yet looked at.
        let on_layer = |t: TriangleId| self.triangle_layer(t) == layer;
        let mut kept = 0;
        for r in 0..list.len() {
            let t = list[r];
            let keep = on_layer(t)
                || list[..kept]
                    .iter()
                    .chain(&list[r + 1..])
                    .any(|&s| on_layer(s) && self.same_place(t, s, point));
            if keep {
                list[kept] = t;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// Whether triangle `t`, which holds `point`, and `other` are at the same place there:
    /// they share `t`'s vertex at `point`, or the side of `t` through it (across a portal).
    pub(crate) fn same_place(&self, t: TriangleId, other: TriangleId, point: Point) -> bool {
        let (ids, corners) = (self.triangles()[t.index()], self.triangle_points(t));
        let other = self.triangles()[other.index()];
        (0..3).any(|i| {
            let (a, b) = (ids[i], ids[(i + 1) % 3]);
            (corners[i] == point && other.contains(&a))
                || (orient(corners[i], corners[(i + 1) % 3], point) == Orientation::Collinear
                    && other.contains(&a)
                    && other.contains(&b))
        })
    }

    /// The layer of a path end at `point`: `layer` when given (and `point` is on it), else the
    /// only layer holding `point`.
    fn end_layer(&self, point: Point, which: Endpoint, layer: Option<LayerId>) -> Result<LayerId, PathError> {
        if !point.in_range() {
            return Err(PathError::NonFinite { which, point });
        }
        let layer_of = |t: TriangleId| self.triangle_layer(t);
        match layer {
            Some(layer) if self.locate_all(point).any(|t| layer_of(t) == layer) => Ok(layer),
            Some(layer) => Err(PathError::OffLayer { which, point, layer }),
            None => {
                let Some(first) = self.locate_all(point).map(layer_of).min() else {
                    return Err(PathError::OffMesh { which, point });
                };
                // On a portal, the layers meet: one place, not an ambiguity.
                let one_place = self.locate_all(point).all(|t| {
                    layer_of(t) == first
                        || self
                            .locate_all(point)
                            .any(|s| layer_of(s) == first && self.same_place(t, s, point))
                });
                if one_place { Ok(first) } else { Err(PathError::AmbiguousLayer { which, point }) }
            }
        }
    }

    /// Fills `out.layers`: walks the path's segments through the triangles from a start
    /// triangle (links jump to their arrival layer), giving each point the layer of the
    /// triangle the walk reaches it in. Where layers overlap, a segment leaving a vertex shared
    /// by two layers may open into both: each is tried until the walk ends on `goal`'s layer
    /// (`None`: a partial path that ends where the budget ran out, on any layer).
    fn trace_layers(
        &self,
        starts: &[TriangleId],
        goal: Option<(&[TriangleId], LayerId)>,
        out: &mut Path,
        tried: &mut crate::query::raycast::Tried,
    ) {
        out.layers.clear();
        for &start in starts {
            if self.trace_from(start, 0, goal, out, tried) {
                return;
            }
        }
        // Unreachable unless the path and the mesh disagree: the layers stay unknown (empty).
        debug_assert!(false, "no walk along the path ends on the goal's layer");
        out.layers.clear();
    }

    /// [`NavMesh::trace_layers`] from point `k`, reached in triangle `current` (`tried`:
    /// working memory for the segment walks).
    fn trace_from(
        &self,
        current: TriangleId,
        k: usize,
        goal: Option<(&[TriangleId], LayerId)>,
        out: &mut Path,
        tried: &mut crate::query::raycast::Tried,
    ) -> bool {
        out.layers.truncate(k);
        out.layers.push(self.triangle_layer(current));
        if k + 1 >= out.points.len() {
            // The goal is reached on its layer, or on a portal to it: a corner or a side of
            // `current` that a goal triangle shares.
            let Some((goals, goal_layer)) = goal else { return true };
            let q = out.points[k];
            let reached = self.triangle_layer(current) == goal_layer
                || goals.iter().any(|&t| self.same_place(current, t, q));
            if reached {
                out.layers[k] = goal_layer;
            }
            return reached;
        }
        let (p, q) = (out.points[k], out.points[k + 1]);
        if let Some(step) = out.links.iter().find(|step| step.point == k) {
            let Some(next) = self.link_arrival(step, current, (p, q)) else { return false };
            return self.trace_from(next, k + 1, goal, out, tried);
        }
        // Each layer the segment may start on (none opens towards q: `current` itself).
        let mut ways = self.ways_on(current, p, q).peekable();
        let none = ways.peek().is_none();
        for first in ways.chain(none.then_some(current)) {
            let mut on_to_the_goal =
                |reached, tried: &mut Vec<_>| self.trace_from(reached, k + 1, goal, out, tried);
            if self.walk_segment(first, (p, q), tried, &mut on_to_the_goal).is_some() {
                return true;
            }
        }
        false
    }

    /// The triangle a path arrives in at `q` by the link of `step`, taken at `p` from triangle
    /// `current`: forwards unless it leaves from its `to` end (the ends may share a position on
    /// two layers: a ladder; the layer walked on then tells).
    fn link_arrival(
        &self,
        step: &LinkStep,
        current: TriangleId,
        (p, q): (Point, Point),
    ) -> Option<TriangleId> {
        let link = self.link(step.link)?;
        let forwards = link.from == p && self.triangle_layer(current) == link.from_layer;
        let layer = if forwards || !link.bidirectional { link.to_layer } else { link.from_layer };
        self.locate_all(q).find(|&t| self.triangle_layer(t) == layer)
    }

    /// The path from `from` to `to` with `options` on a mesh of one layer.
    fn find_one_layer_path_into(
        &self,
        from: Point,
        to: Point,
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        out.points.clear();
        out.links.clear();
        out.length = 0.0;
        out.cost = 0.0;
        out.partial = None;
        scratch.expanded = 0;
        if !(options.radius.is_finite() && options.radius >= 0.0) {
            return Err(PathError::BadRadius(options.radius));
        }
        let (from, from_snapped) = self.path_endpoint(from, Endpoint::Start, options, scratch)?;
        let goal = match self.path_endpoint(to, Endpoint::Goal, options, scratch) {
            Ok(goal) => Some(goal),
            Err(PathError::OffMesh { .. }) if options.partial => None,
            Err(e) => return Err(e),
        };
        let (mut starts, mut goals) =
            (std::mem::take(&mut scratch.starts), std::mem::take(&mut scratch.goals));
        self.end_triangles(&mut starts, from, from_snapped, options.start_side);
        let costs = &options.area_costs;
        if let Err(e) = self.keep_allowed(&mut starts, Endpoint::Start, from, costs) {
            (scratch.starts, scratch.goals) = (starts, goals);
            return Err(e);
        }
        let result = match goal {
            Some((goal, goal_snapped)) => {
                self.end_triangles(&mut goals, goal, goal_snapped, options.goal_side);
                if let Err(e) = self.keep_allowed(&mut goals, Endpoint::Goal, goal, costs) {
                    (scratch.starts, scratch.goals) = (starts, goals);
                    return Err(e);
                }
                match self.route((from, &starts), (goal, &goals), options, scratch, out) {
                    Err(PathError::Unreachable) if options.partial => {
                        let reason = PartialReason::Unreachable;
                        self.route_to_nearest((from, &starts), to, reason, options, scratch, &mut goals, out)
                    }
                    result => result,
                }
            }
            None => {
                let reason = PartialReason::GoalOffMesh;
                self.route_to_nearest((from, &starts), to, reason, options, scratch, &mut goals, out)
            }
        };
        (scratch.starts, scratch.goals) = (starts, goals);
        result
    }

    /// Fills `list` with the triangles a path end at `point` lies in (`snapped`: the triangle
    /// a snapped point belongs to), keeping only the fan towards `side` where it matters.
    fn end_triangles(
        &self,
        list: &mut Vec<TriangleId>,
        point: Point,
        snapped: Option<TriangleId>,
        side: Option<Point>,
    ) {
        list.clear();
        list.extend(self.locate_all(point));
        // A snapped point lies in its triangle (see `nearest_point`); should a future change
        // break that, the triangle it was snapped to still gives the path somewhere to start.
        if list.is_empty() {
            list.extend(snapped);
        }
        if let Some(side) = side.filter(|&side| side != point && list.len() > 1) {
            self.keep_fan_towards(list, point, side);
        }
    }

    /// The partial path towards an unreachable `goal`: the path to the nearest point of the
    /// islands the start's islands reach (through links, one-way ones one way), marked with
    /// `reason` (unless the budget ran out on the way).
    #[allow(clippy::too_many_arguments)]
    fn route_to_nearest(
        &self,
        (from, starts): (Point, &[TriangleId]),
        goal: Point,
        reason: PartialReason,
        options: &PathOptions,
        scratch: &mut PathScratch,
        targets: &mut Vec<TriangleId>,
        out: &mut Path,
    ) -> Result<(), PathError> {
        // The islands reached: the start's, and with links those its links lead to (no goal:
        // the walk visits them all). With exclusions, the triangles reached without crossing
        // excluded ground (they can cut an island in parts).
        let costs = &options.area_costs;
        let region = if costs.has_exclusions() {
            self.reach_allowed(starts, costs, &mut scratch.allowed_reach)
        } else {
            let reach = &mut scratch.islands;
            self.links_reach(starts, &[], reach);
            reach.queue.iter().fold(Aabb::EMPTY, |b, &i| {
                let island = self.island_bounds(IslandId(i));
                b.grown(island.min).grown(island.max)
            })
        };
        let (reached, allowed_reached) = (&scratch.islands.reached, &scratch.allowed_reach.0);
        let on_reached_island = |t: TriangleId| match costs.has_exclusions() {
            true => allowed_reached.contains(t.index()),
            false => reached.contains(self.island(t).index()),
        };
        let Some((mut target, mut triangle)) = self.nearest_point_where(goal, on_reached_island, region)
        else {
            return Err(PathError::Unreachable);
        };
        let radius = options.radius;
        if radius > 0.0 {
            // A disc stops where it fits: the nearest point with room for it.
            match self.nearest_clear_point(target, radius, &mut scratch.clearance) {
                Some((clear, t)) if on_reached_island(t) => (target, triangle) = (clear, t),
                _ => return stay_at(from, reason, out),
            }
        }
        self.end_triangles(targets, target, Some(triangle), None);
        if self.is_layered() {
            // Layers may overlap there: the target is on the nearest point's layer.
            self.keep_same_place(targets, target, self.triangle_layer(triangle));
        }
        // The nearest point may be a pinch shared with another island (or, with exclusions, a
        // point on excluded ground's edge): keep the triangles reached.
        targets.retain(|&t| on_reached_island(t));
        if targets.is_empty() {
            return Err(PathError::Unreachable);
        }
        scratch.best_reached = None;
        match self.route((from, starts), (target, targets), options, scratch, out) {
            Err(PathError::Unreachable | PathError::DiscPathUnverified) if radius > 0.0 => {
                // The disc cannot get there (a passage too narrow on the way): head for the
                // place nearest the target that its search reached.
                return self.route_to_disc_reach(
                    (from, starts),
                    target,
                    reason,
                    options,
                    scratch,
                    targets,
                    out,
                );
            }
            result => result?,
        }
        out.partial.get_or_insert(reason);
        Ok(())
    }

    /// Marks in `reach` the triangles reached from `starts` without entering a type `costs`
    /// excludes: through their edges, and through the links whose end lies in an allowed
    /// triangle; returns their bounds. A flood over the part of the mesh reached, for partial
    /// paths with exclusions only.
    fn reach_allowed(
        &self,
        starts: &[TriangleId],
        costs: &AreaCosts,
        (reached, queue): &mut (GenerationSet, Vec<TriangleId>),
    ) -> Aabb {
        reached.clear(self.triangle_count());
        queue.clear();
        let allowed = |t: TriangleId| !t.is_none() && !costs.is_excluded(self.area_id(t));
        let mut bounds = Aabb::EMPTY;
        for &s in starts {
            if !reached.contains(s.index()) {
                reached.insert(s.index());
                queue.push(s);
            }
        }
        while let Some(t) = queue.pop() {
            bounds = self.triangle_points(t).into_iter().fold(bounds, Aabb::grown);
            let by_links =
                self.links.starting_in(t).flat_map(|d| self.links.end_triangles(d).iter().copied());
            for next in self.neighbours(t).into_iter().chain(by_links) {
                if allowed(next) && !reached.contains(next.index()) {
                    reached.insert(next.index());
                    queue.push(next);
                }
            }
        }
        bounds
    }

    /// After a disc search for `target` failed: the partial path to the point with room for
    /// the disc nearest `target` in the triangle of that search nearest it, or the start alone
    /// when that is no nearer or cannot be reached either.
    #[allow(clippy::too_many_arguments)]
    fn route_to_disc_reach(
        &self,
        (from, starts): (Point, &[TriangleId]),
        target: Point,
        reason: PartialReason,
        options: &PathOptions,
        scratch: &mut PathScratch,
        ends: &mut Vec<TriangleId>,
        out: &mut Path,
    ) -> Result<(), PathError> {
        let Some((_, reached)) = scratch.best_reached else { return stay_at(from, reason, out) };
        let near = closest_point_on_triangle(target, self.triangle_points(reached));
        let Some((end, triangle)) = self.nearest_clear_point(near, options.radius, &mut scratch.clearance)
        else {
            return stay_at(from, reason, out);
        };
        if end.distance(target) >= from.distance(target) {
            return stay_at(from, reason, out);
        }
        self.end_triangles(ends, end, Some(triangle), None);
        match self.route((from, starts), (end, ends), options, scratch, out) {
            Ok(()) => {
                out.partial.get_or_insert(reason);
                Ok(())
            }
            Err(PathError::Unreachable | PathError::DiscPathUnverified) => stay_at(from, reason, out),
            Err(e) => Err(e),
        }
    }

    /// Finds the path between two points, each given with the triangles it lies in.
    fn route(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        // In one triangle, or in plain sight: the straight segment is the shortest path.
        // (The segment must leave and arrive through allowed triangles: see the sides.)
        let shared = starts.iter().any(|t| goals.contains(t));
        let radius = options.radius;
        let costs = &options.area_costs;
        // Costs other than 1 take the weighted search; one cost on all the ground the agent
        // may enter is the plain search's, unless links are priced apart from walking.
        // Exclusions alone are walls to the plain searches (link ends on excluded ground too).
        // A disc kept off excluded ground takes the weighted search's way too (the disc's
        // Steiner-point search).
        let links = self.has_links();
        if !costs.is_uniform() {
            let common = costs.common_cost(self.area_mask()).filter(|&c| !links || c == 1.0);
            let disc_excluded = radius > 0.0 && costs.excludes_any_of(self.area_mask());
            match common {
                Some(common) if costs.is_weighted() && !disc_excluded => {
                    // One cost on all the ground the agent may enter: the shortest path is the
                    // cheapest.
                    let plain = PathOptions { area_costs: costs.unit(), ..*options };
                    self.route((from, starts), (to, goals), &plain, scratch, out)?;
                    out.cost *= common;
                    return Ok(());
                }
                _ if costs.is_weighted() || disc_excluded => {
                    return self.route_weighted((from, starts), (to, goals), options, scratch, out);
                }
                _ => {}
            }
        }
        // Excluded types are walls: a straight segment in sight of the walls may still cross
        // one (the searches find it then).
        let excluding = costs.has_exclusions();
        // From a start triangle: where layers overlap, the start's position alone may name a
        // triangle of another layer.
        let keeps_clear = |scratch: &mut PathScratch| {
            starts
                .first()
                .is_some_and(|&t| self.segment_keeps_clear(t, (from, to), radius, &mut scratch.clearance))
        };
        // In plain sight (for a disc, the clearance is checked apart).
        let in_sight = || {
            if self.layers_overlap() {
                // Walked from the start's triangle: the segment must arrive on the goal's layer.
                let mut arrives = |t: TriangleId, _: &mut crate::query::raycast::Tried| {
                    goals.iter().any(|&g| g == t || self.same_place(t, g, to))
                };
                let walked = starts
                    .first()
                    .and_then(|&t| self.walk_segment(t, (from, to), &mut Vec::new(), &mut arrives));
                return walked.is_some();
            }
            self.raycast(from, to).is_ok_and(|hit| hit.is_clear())
                && self.locate_towards(from, to).is_some_and(|t| starts.contains(&t))
                && self.locate_towards(to, from).is_some_and(|t| goals.contains(&t))
        };
        // With links, a way through them can still be cheaper, unless every such way costs
        // more than the straight segment.
        let links_beat = |d: f64| self.has_links() && self.link_bound(to) < d;
        let straight = if links_beat(from.distance(to)) {
            false
        } else if radius == 0.0 {
            // On a layered mesh, sight is decided by the searches (a ray starts on one layer).
            shared || (!excluding && !self.is_layered() && in_sight())
        } else {
            (shared || in_sight()) && keeps_clear(scratch)
        };
        if straight {
            out.points.push(from);
            if to != from {
                out.points.push(to);
            }
            out.length = from.distance(to);
            out.cost = out.length;
            return Ok(());
        }
        let connected = if self.has_links() {
            self.links_reach(starts, goals, &mut scratch.islands)
        } else {
            starts.iter().any(|&s| goals.iter().any(|&g| self.island(s) == self.island(g)))
        };
        if !connected {
            return Err(PathError::Unreachable);
        }
        scratch.pass.open(self, [starts, goals], costs);
        let budget = options.node_budget.unwrap_or(u32::MAX);
        let end = match options.mode {
            PathMode::Optimal if radius > 0.0 => {
                self.route_disc_optimal((from, starts), (to, goals), options, scratch, out)?
            }
            PathMode::Optimal => {
                let state = (&mut scratch.optimal, &scratch.pass);
                let limits = (budget, options.partial);
                let end = self.search_optimal((from, starts), (to, goals), limits, state, out);
                scratch.expanded = scratch.optimal.expanded;
                end
            }
            PathMode::Fast if self.has_links() => {
                self.route_fast_with_links((from, starts), (to, goals), shared, options, scratch, out)?
            }
            PathMode::Fast => {
                let mut left = budget;
                let ends = ((from, starts), (to, goals));
                match self.walk(ends, radius, options.partial, &mut left, scratch, &mut out.points) {
                    Ok(end) => {
                        scratch.expanded = budget - left;
                        end
                    }
                    // The disc's funnel found no way through its corridors that keeps clear of
                    // the walls: the exact search finds the way (checked as every disc path
                    // is), within what is left of the budget.
                    Err(PathError::DiscPathUnverified) => {
                        let spent = budget - left;
                        let rest = PathOptions { node_budget: options.node_budget.map(|_| left), ..*options };
                        let end = self.search_disc_optimal_into(
                            ends.0,
                            ends.1,
                            &rest,
                            f64::INFINITY,
                            scratch,
                            out,
                        )?;
                        scratch.expanded += spent;
                        end
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        match end {
            SearchEnd::Found => {}
            SearchEnd::Unreachable => return Err(PathError::Unreachable),
            SearchEnd::Exhausted if options.partial => out.partial = Some(PartialReason::BudgetExhausted),
            SearchEnd::Exhausted => return Err(PathError::BudgetExhausted { budget }),
        }
        self.measure(out);
        Ok(())
    }

    /// The fast mode's walk from `from` to `to` (in triangles `starts` and `goals`): the cone
    /// search and its corridor pulled taut into `points`; for a disc, searched again without
    /// each edge the funnel finds it cannot cross. Spends `left` of the budget. With `partial`,
    /// when the budget runs out: the way towards the goal (a disc whose way cannot be verified
    /// stays at `from`).
    fn walk(
        &self,
        ((from, starts), (to, goals)): (End, End),
        radius: f64,
        partial: bool,
        left: &mut u32,
        scratch: &mut PathScratch,
        points: &mut Vec<Point>,
    ) -> Result<SearchEnd, PathError> {
        scratch.uncrossable.clear();
        loop {
            let mut end = self.search_corridor(from, starts, to, goals, *left, radius, scratch);
            *left -= scratch.expanded;
            if end == SearchEnd::Unreachable && radius > 0.0 {
                // Searched again with a node per way into every triangle (see
                // `search_disc_corridor`): a disc's first search may miss a way.
                end = self.search_disc_corridor(from, starts, to, goals, *left, (radius, true), scratch);
                *left -= scratch.expanded;
            }
            let end_point = match end {
                SearchEnd::Found => Some(to),
                SearchEnd::Exhausted if partial => {
                    Some(self.partial_corridor(from, starts, to, radius, scratch))
                }
                _ => None,
            };
            let Some(end_point) = end_point else { return Ok(end) };
            // The triangle the corridor leaves the start from (one holding it when empty).
            let start = scratch.corridor.first().map_or(starts[0], |crossing| crossing.triangle());
            if self.pull_corridor((from, start), end_point, radius, scratch, points) {
                return Ok(end);
            }
            points.clear();
            if end == SearchEnd::Exhausted {
                // A partial disc path that could not be verified: the disc stays.
                points.push(from);
                return Ok(end);
            }
            // The corridor holds an edge the disc cannot cross (a wall at a narrow angle to
            // it, which the traversal widths do not see): search again without it; if none is
            // found, the failure is the funnel's.
            if scratch.uncrossable.len() >= MAX_UNCROSSABLE || !self.find_uncrossable(radius, scratch) {
                return Err(PathError::DiscPathUnverified);
            }
        }
    }

    /// The fast mode on a mesh with links: the quick ways of [`NavMesh::fast_link_ways`], the
    /// cheaper kept. When neither is found (the goal on another island, a piece beyond the
    /// budget), the link search ([`NavMesh::search_link_corridor`]) decides, with partial
    /// paths; for a disc, the optimal disc search does (bounded by the walk, it also decides
    /// when the chain failed where a link could beat the walk: a link the disc does not fit).
    fn route_fast_with_links(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        shared: bool,
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<SearchEnd, PathError> {
        let ends = ((from, starts), (to, goals));
        let ways = self.fast_link_ways(ends.0, ends.1, shared, options, scratch, out);
        if options.radius > 0.0 {
            if ways.cost.is_finite() && !ways.chain_failed {
                return Ok(SearchEnd::Found);
            }
            return self.search_disc_optimal_into(ends.0, ends.1, options, ways.cost, scratch, out);
        }
        if ways.cost.is_finite() {
            return Ok(SearchEnd::Found);
        }
        let budget = options.node_budget.unwrap_or(u32::MAX);
        Ok(match self.search_link_corridor(from, starts, to, goals, budget, scratch) {
            SearchEnd::Found => {
                self.pull_link_corridor(from, to, scratch, out);
                SearchEnd::Found
            }
            SearchEnd::Exhausted => {
                if options.partial {
                    self.partial_link_corridor(from, starts, to, scratch, out)
                }
                SearchEnd::Exhausted
            }
            end => end,
        })
    }

    /// The fast mode's quick ways on a mesh with links, the cheaper written to `out`: the
    /// chain of links the bound through links picks ([`NavMesh::chain_through_links`]) when a
    /// way through a link can beat the straight segment, kept at once when it does; otherwise
    /// the walking path (the cone search on the start's island; straight when a triangle
    /// holds both ends and the agent is a point), and the chain, when it can still beat that,
    /// competes with it.
    fn fast_link_ways(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        shared: bool,
        options: &PathOptions,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> LinkWays {
        let (budget, radius) = (options.node_budget.unwrap_or(u32::MAX), options.radius);
        let straight = from.distance(to);
        let first_bound = self.first_link_bound(from, to);
        let ends = ((from, starts), (to, goals));
        let mut chain = None;
        if first_bound < straight {
            chain =
                Some(self.chain_through_links(ends.0, ends.1, budget, f64::INFINITY, radius, scratch, out));
            if let Some(cost) = chain.flatten().filter(|&cost| cost <= straight) {
                return LinkWays { cost, chain_failed: false };
            }
        }
        let mut walked = std::mem::take(&mut scratch.walked);
        walked.clear();
        if shared && radius == 0.0 {
            walked.extend([from, to]);
        } else if starts.iter().any(|&s| goals.iter().any(|&g| self.island(s) == self.island(g))) {
            let mut left = budget;
            if !matches!(
                self.walk(ends, radius, false, &mut left, scratch, &mut walked),
                Ok(SearchEnd::Found)
            ) {
                walked.clear();
            }
        }
        let walked_length = match walked.is_empty() {
            true => f64::INFINITY,
            false => walked.windows(2).map(|w| w[0].distance(w[1])).sum(),
        };
        if chain.is_none() && first_bound < walked_length {
            // Links could not beat the straight segment, but may beat the walk.
            let cap = walked_length;
            chain = Some(self.chain_through_links(ends.0, ends.1, budget, cap, radius, scratch, out));
        }
        let chain_cost = chain.flatten().unwrap_or(f64::INFINITY);
        let chain_failed = chain.flatten().is_some_and(f64::is_infinite);
        let cost = if chain_cost < walked_length {
            chain_cost
        } else {
            out.points.clear();
            out.points.extend_from_slice(&walked);
            out.links.clear();
            walked_length
        };
        scratch.walked = walked;
        LinkWays { cost, chain_failed }
    }

    /// Sets the path's length (the walked segments) and cost (plus the links taken).
    fn measure(&self, out: &mut Path) {
        if out.links.is_empty() {
            out.length = out.points.windows(2).map(|w| w[0].distance(w[1])).sum();
            out.cost = out.length;
            return;
        }
        let mut length = 0.0;
        let mut links = out.links.iter().peekable();
        let mut link_costs = 0.0;
        for (k, w) in out.points.windows(2).enumerate() {
            if let Some(step) = links.next_if(|step| step.point == k) {
                link_costs += self.link(step.link).map_or(0.0, |link| link.cost);
            } else {
                length += w[0].distance(w[1]);
            }
        }
        out.length = length;
        out.cost = length + link_costs;
    }

    /// String-pulls `scratch.corridor` from `from` to `to` (a point of the last triangle), for
    /// a disc of `radius` (0: a point). For a disc, returns whether the path was verified to
    /// keep the radius from every wall (`false`: `points` must not be used).
    fn pull_corridor(
        &self,
        (from, start): (Point, TriangleId),
        to: Point,
        radius: f64,
        scratch: &mut PathScratch,
        points: &mut Vec<Point>,
    ) -> bool {
        if radius == 0.0 {
            self.fill_portals(from, to, None, scratch);
            string_pull(&scratch.portals, points);
            return true;
        }
        // A portal end on no wall (inside a portal between layers, or where area types meet)
        // is first a point the path may touch, keeping it in the corridor without keeping the
        // radius from it. When that path cannot be verified, the corridor is pulled again
        // without the portals that have such an end: the path may leave the corridor there.
        for keep_open_portals in [true, false] {
            let open_ends = self.fill_portals(from, to, Some(keep_open_portals), scratch);
            if self.pull_disc_verified((radius, start), scratch, points) {
                return true;
            }
            if !open_ends {
                return false;
            }
        }
        false
    }

    /// Fills `scratch.portals` with the portals of `scratch.corridor` from `from` to `to`. For
    /// a disc (`open` given), a portal with an end on no wall is kept with that end in
    /// `scratch.open_ends` (`open` true) or left out; returns whether there was one.
    #[inline]
    fn fill_portals(&self, from: Point, to: Point, open: Option<bool>, scratch: &mut PathScratch) -> bool {
        scratch.portals.clear();
        scratch.portals.push((from, from));
        scratch.open_ends.clear();
        // Meshes with every vertex on a wall (most) skip the test.
        let open_vertices = open.and_then(|_| self.open_vertices());
        let mut any_open = false;
        for &crossing in &scratch.corridor {
            let (corners, i) = (self.triangle_points(crossing.triangle()), crossing.edge());
            if let Some(vertices) = open_vertices {
                let tri = self.triangles()[crossing.triangle().index()];
                let ends = [i, (i + 1) % 3].map(|k| vertices[tri[k].index()]);
                if ends.contains(&true) {
                    any_open = true;
                    if open == Some(false) {
                        continue;
                    }
                    for (k, end) in [i, (i + 1) % 3].into_iter().zip(ends) {
                        if end {
                            scratch.open_ends.push(corners[k]);
                        }
                    }
                }
            }
            // Crossing edge p -> q out of a counter-clockwise triangle: q is on the left.
            scratch.portals.push((corners[(i + 1) % 3], corners[i]));
        }
        scratch.portals.push((to, to));
        if any_open {
            // Sorted for the funnel's look-ups (`disc_funnel::pull_disc_between`).
            scratch.open_ends.sort_unstable_by(disc_funnel::point_order);
            scratch.open_ends.dedup();
        }
        any_open
    }

    /// Pulls `scratch.portals` taut for a disc of `radius` (the ends in `scratch.open_ends` as
    /// points) into `points`; returns whether the path was verified to keep the radius from
    /// every wall.
    ///
    /// A wall off the corridor (beyond an edge it does not cross) can come within the radius
    /// of the pulled path (Kallmann's "disturbances"): its ends join the funnel as extra
    /// portal ends, on their side, and the corridor is pulled again, until no wall is that
    /// close. Every path returned has passed this check.
    fn pull_disc_verified(
        &self,
        (radius, start): (f64, TriangleId),
        scratch: &mut PathScratch,
        points: &mut Vec<Point>,
    ) -> bool {
        for _ in 0..=MAX_DISTURBANCES {
            let shape = (radius, &scratch.open_ends[..]);
            let (funnel, bends, arcs) = (&mut scratch.funnel, &mut scratch.bends, &mut scratch.arcs);
            disc_funnel::pull_disc_between(&scratch.portals, shape, funnel, bends, arcs, points);
            // The funnel may have wrapped a corner for a portal end's circle the path never
            // nears: without the bends no circle needs, the path is shorter, and kept if it
            // keeps clear of the walls (else the funnel's own path is checked as before). A
            // bend round a corner where the floor folds stays: the shortcut past it in x, y
            // may end on another sheet of the floor.
            if disc_funnel::drop_slack_bends(&mut scratch.bends, |bend| self.folds_at(bend.centre)) {
                disc_funnel::write_path(&scratch.bends, &mut scratch.arcs, points);
                if self
                    .first_disturbance(points, &scratch.arcs, &[], (radius, start), &mut scratch.clearance)
                    .is_none()
                {
                    return true;
                }
                let (funnel, bends, arcs) = (&mut scratch.funnel, &mut scratch.bends, &mut scratch.arcs);
                disc_funnel::pull_disc_between(&scratch.portals, shape, funnel, bends, arcs, points);
            }
            let Some((k, wall)) =
                self.first_disturbance(points, &scratch.arcs, &[], (radius, start), &mut scratch.clearance)
            else {
                return true;
            };
            insert_disturbance(&mut scratch.portals, points, k, wall);
        }
        false
    }

    /// Adds to `scratch.uncrossable` (both sides) every edge of `scratch.corridor` that a disc
    /// of `radius` cannot cross; returns whether there was one.
    fn find_uncrossable(&self, radius: f64, scratch: &mut PathScratch) -> bool {
        let before = scratch.uncrossable.len();
        for k in 0..scratch.corridor.len() {
            let crossing = scratch.corridor[k];
            let (t, e) = (crossing.triangle(), crossing.edge());
            if self.disc_cannot_cross(t, e, radius, &mut scratch.clearance) {
                let next = self.neighbours(t)[e];
                let back = self.neighbours(next).iter().position(|&n| n == t).expect("neighbours link back");
                scratch.uncrossable.extend([crossing, HalfEdge::new(next, back)]);
            }
        }
        scratch.uncrossable.len() > before
    }

    /// The first segment of `points` (its index) that a wall comes closer to than `radius`
    /// (beyond the rounding of the distances), with that wall, or that starts off the mesh
    /// (with its first point as the wall); the links taken (`steps`) are not walked, so not
    /// checked.
    ///
    /// The segments of an arc (`arcs`) are checked together: the walls within reach of its
    /// circle are gathered by one search, then measured against each of its chords.
    ///
    /// `start`: a triangle holding the first point. Where layers overlap, each segment is
    /// checked from the triangle the walk along the path reaches its first point in (a
    /// position alone may name a triangle of another layer).
    fn first_disturbance(
        &self,
        points: &[Point],
        arcs: &[disc_funnel::ArcRun],
        steps: &[LinkStep],
        (radius, start): (f64, TriangleId),
        scratch: &mut ClearanceScratch,
    ) -> Option<(usize, (Point, Point))> {
        let inside = radius * (1.0 - DISTURBANCE_TOLERANCE);
        if self.layers_overlap() {
            return self.first_disturbance_walked(points, steps, inside, start, scratch);
        }
        let mut arcs = arcs.iter().peekable();
        let mut k = 0;
        while k + 1 < points.len() {
            // (An arc whose first point is off the mesh, if rounding ever put one there, is
            // checked chord by chord, which then reports it.)
            if let Some(arc) = arcs.next_if(|arc| arc.first == k) {
                let chords = &points[arc.first..=arc.last];
                let outer = arc.radius * (1.0 + disc_funnel::ARC_TOLERANCE);
                if self.arc_clear_of_walls(arc.centre, chords, (outer, inside), scratch) {
                    k = arc.last;
                    continue;
                }
                if let Some(start) = self.locate(points[k]) {
                    let nearest =
                        self.nearest_wall_to_arc((start, chords), arc.centre, outer, inside, scratch);
                    if let Some((j, wall)) = nearest {
                        return Some((k + j, wall));
                    }
                    k = arc.last;
                    continue;
                }
            }
            if !steps.is_empty() && steps.iter().any(|step| step.point == k) {
                k += 1;
                continue;
            }
            // A segment whose first point is off the mesh (rounding could put a contact
            // there) is not proven clear: it disturbs the path at that point.
            let Some(from) = self.locate(points[k]) else { return Some((k, (points[k], points[k]))) };
            if let Some((_, wall)) =
                self.nearest_wall_to_segment_from(from, (points[k], points[k + 1]), inside, scratch)
            {
                return Some((k, wall));
            }
            k += 1;
        }
        None
    }

    /// [`NavMesh::first_disturbance`] where layers overlap: segment by segment (arcs chord by
    /// chord), each from the triangle the walk along the path from `start` reaches it in (a
    /// link taken goes on from its end on the layer it arrives on).
    #[cold]
    #[inline(never)]
    fn first_disturbance_walked(
        &self,
        points: &[Point],
        steps: &[LinkStep],
        inside: f64,
        start: TriangleId,
        scratch: &mut ClearanceScratch,
    ) -> Option<(usize, (Point, Point))> {
        let mut at = start;
        let mut tried = Vec::new();
        for (k, w) in points.windows(2).enumerate() {
            if let Some(step) = steps.iter().find(|step| step.point == k) {
                match self.link_arrival(step, at, (w[0], w[1])) {
                    Some(next) => at = next,
                    None => return Some((k, (w[1], w[1]))),
                }
                continue;
            }
            if let Some((_, wall)) = self.nearest_wall_to_segment_from(at, (w[0], w[1]), inside, scratch) {
                return Some((k, wall));
            }
            // Clear, so the walk gets through; should rounding stop it, the path is not kept.
            match self.walk_segment(at, (w[0], w[1]), &mut tried, &mut |_, _| true) {
                Some(next) => at = next,
                None => return Some((k, (w[1], w[1]))),
            }
        }
        None
    }

    /// After a fast search ran out of budget: sets `scratch.corridor` to the way to the most
    /// promising triangle it reached (the one closed with the smallest estimate to the goal),
    /// or to none when a start triangle comes as near the goal; returns the point of that
    /// triangle nearest `to`.
    fn partial_corridor(
        &self,
        from: Point,
        starts: &[TriangleId],
        to: Point,
        radius: f64,
        scratch: &mut PathScratch,
    ) -> Point {
        let nearest = |t: TriangleId| closest_point_on_triangle(to, self.triangle_points(t));
        let mut end = from;
        for &start in starts {
            let q = nearest(start);
            if q.distance(to) < end.distance(to) {
                end = q;
            }
        }
        if let Some((node, best)) =
            scratch.best_reached.filter(|&(_, t)| nearest(t).distance(to) < end.distance(to))
        {
            self.corridor_to(node as usize, scratch);
            if radius == 0.0 {
                return nearest(best);
            }
            // A disc ends where it fits (a point off the corridor fails verification, and
            // the disc then stays at its start).
            return match self.nearest_clear_point(nearest(best), radius, &mut scratch.clearance) {
                Some((clear, _)) if clear.distance(to) < from.distance(to) => clear,
                _ => from,
            };
        }
        scratch.corridor.clear();
        if radius > 0.0 { from } else { end }
    }

    /// `triangles` all contain `point`. Where they form several fans around it (a pinch: pieces
    /// of the walkable area meeting only at that point), keeps the fan holding a triangle that
    /// opens towards `side`; otherwise changes nothing.
    fn keep_fan_towards(&self, triangles: &mut Vec<TriangleId>, point: Point, side: Point) {
        // Label fans: triangles joined across shared edges that contain `point`.
        let n = triangles.len();
        let mut fan: [usize; 64] = [usize::MAX; 64];
        if n > fan.len() {
            return;
        }
        let mut fans = 0;
        for seed in 0..n {
            if fan[seed] != usize::MAX {
                continue;
            }
            fan[seed] = fans;
            let mut changed = true;
            while changed {
                changed = false;
                for i in 0..n {
                    if fan[i] != fans {
                        continue;
                    }
                    for j in 0..n {
                        if fan[j] == usize::MAX && self.neighbours(triangles[i]).contains(&triangles[j]) {
                            fan[j] = fans;
                            changed = true;
                        }
                    }
                }
            }
            fans += 1;
        }
        if fans < 2 {
            return;
        }
        let Some(chosen) = (0..n).find(|&i| self.opens_towards(triangles[i], point, side)).map(|i| fan[i])
        else {
            return;
        };
        let mut k = 0;
        triangles.retain(|_| {
            let keep = fan[k] == chosen;
            k += 1;
            keep
        });
    }

    /// Checks a query point, snapping it onto the mesh if asked (then also returning the
    /// triangle the snapped point belongs to).
    fn path_endpoint(
        &self,
        p: Point,
        which: Endpoint,
        options: &PathOptions,
        scratch: &mut PathScratch,
    ) -> Result<(Point, Option<TriangleId>), PathError> {
        if !p.in_range() {
            return Err(PathError::NonFinite { which, point: p });
        }
        let (q, snapped) = if self.locate(p).is_some() {
            (p, None)
        } else if options.snap {
            self.nearest_point(p).map(|(q, t)| (q, Some(t))).ok_or(PathError::Unreachable)?
        } else {
            return Err(PathError::OffMesh { which, point: p });
        };
        let radius = options.radius;
        if radius == 0.0 {
            return Ok((q, snapped));
        }
        let clearance = self.clearance_with(q, &mut scratch.clearance).unwrap_or(0.0);
        if clearance >= radius {
            return Ok((q, snapped));
        }
        if options.snap {
            if let Some((r, t)) = self.nearest_clear_point(p, radius, &mut scratch.clearance) {
                return Ok((r, Some(t)));
            }
            return Err(PathError::Unreachable);
        }
        Err(PathError::NoClearance { which, point: p, clearance, radius })
    }
}

/// A path end: the point and the triangles it lies in.
type End<'a> = (Point, &'a [TriangleId]);

/// What [`NavMesh::fast_link_ways`] found: the cost of the way written (infinite: none), and
/// whether the chain of links was walked and failed (a piece not found, or a link whose ends
/// a disc does not fit).
struct LinkWays {
    cost: f64,
    chain_failed: bool,
}

/// How many walls off the corridor one disc path may have to be pulled around (each costs one
/// more pull of the corridor); past that the query fails with
/// [`PathError::DiscPathUnverified`].
const MAX_DISTURBANCES: usize = 16;

/// Makes `out` the partial path that stays at `from` (marked with `reason`): no length, no
/// cost, no link taken.
fn stay_at(from: Point, reason: PartialReason, out: &mut Path) -> Result<(), PathError> {
    out.points.clear();
    out.points.push(from);
    out.links.clear();
    out.length = 0.0;
    out.cost = 0.0;
    out.partial = Some(reason);
    Ok(())
}

/// How many uncrossable edges (counting both sides) one disc query may find and search again
/// without; past that it fails with [`PathError::DiscPathUnverified`].
const MAX_UNCROSSABLE: usize = 32;

/// A wall closer to the path than `radius (1 - DISTURBANCE_TOLERANCE)` disturbs it: tangent
/// segments touch their circles at exactly the radius, up to rounding.
const DISTURBANCE_TOLERANCE: f64 = 1e-9;

/// Adds the ends of `wall`, which comes within the radius of segment `k` of the pulled path
/// `points`, to `portals` as extra portal ends: each on the side of the path it lies on,
/// placed among the portals in the order the path passes them. The other end of the new
/// portal repeats the previous portal's, which the funnel skips.
fn insert_disturbance(portals: &mut Vec<funnel::Portal>, points: &[Point], k: usize, (p, q): (Point, Point)) {
    use crate::clearance::segment_distance;
    use crate::geometry::{Orientation, orient};
    let (a, b) = (points[k], points[k + 1]);
    // The wall's nearest point to the segment: an end joins alone; a point inside the wall
    // brings both ends (then the wall's middle comes close, and its ends hold the path off it).
    let (dp, dq) = (segment_distance(p, a, b), segment_distance(q, a, b));
    let middle = crate::clearance::segments_distance(a, b, p, q) < dp.min(dq);
    let ends = [p, q].into_iter().filter(|&v| middle || v == if dp <= dq { p } else { q });
    for v in ends {
        let left = match orient(a, b, v) {
            Orientation::CounterClockwise => true,
            Orientation::Clockwise => false,
            Orientation::Collinear => continue,
        };
        let place = (k, along(a, b, v));
        let at = (1..portals.len() - 1)
            .scan(0, |segment, i| {
                let (l, r) = portals[i];
                // The path segment crossing portal i (from the previous portal's on), and where.
                while *segment + 1 < points.len() - 1
                    && crate::clearance::crossing_fraction(points[*segment], points[*segment + 1], l, r)
                        .is_none()
                {
                    *segment += 1;
                }
                let t = crate::clearance::crossing_fraction(points[*segment], points[*segment + 1], l, r)
                    .unwrap_or(0.0);
                Some((i, (*segment, t)))
            })
            .find(|&(_, crossed)| crossed > place)
            .map_or(portals.len() - 1, |(i, _)| i);
        let (pl, pr) = portals[at - 1];
        portals.insert(at, if left { (v, pr) } else { (pl, v) });
    }
}

/// Where `v`'s foot falls on the line `a b`, as a fraction of `a -> b`.
fn along(a: Point, b: Point, v: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    ((v.x - a.x) * dx + (v.y - a.y) * dy) / (dx * dx + dy * dy).max(f64::MIN_POSITIVE)
}
