//! Paths in two modes: fast (A* over triangles, module `search`, then the funnel, `funnel`) and
//! optimal (an interval search, `optimal`).
//!
//! Fast mode, the default: when the straight segment is clear (a raycast) it is the path;
//! otherwise A* runs over the triangles, each placed at the midpoint of the edge it is entered
//! through, and the corridor of triangles it finds is string-pulled into the taut path through
//! that corridor. That is the shortest path within its corridor, not always the shortest path:
//! the midpoints can mislead the search into a longer corridor (see the README for measured
//! ratios). Optimal mode: the exact shortest path. In both, a point on an edge or vertex starts
//! (or ends) in every triangle around it, and pockets (dead-end trees of triangles, see
//! [`find_pockets`](crate::find_pockets)) without the start or goal are never entered.
//!
//! All per-query state lives in a [`PathScratch`]: reuse one per thread, and queries neither
//! clear arrays (a generation counter marks what is current) nor allocate once it has grown to
//! the mesh.

mod funnel;
mod optimal;
mod search;

use std::collections::BinaryHeap;

use crate::geometry::Point;
use crate::ids::TriangleId;
use crate::mesh::NavMesh;
use crate::topology::Pocket;

pub(crate) use funnel::string_pull;
use optimal::OptimalScratch;
pub(crate) use optimal::search_flags;
use search::OpenNode;

/// A path: the points from start to goal (turns at mesh vertices in between), and its length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    /// Start, turning points, goal. A single point when start and goal coincide.
    pub points: Vec<Point>,
    /// Sum of the segment lengths.
    pub length: f64,
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
}

/// The search method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathMode {
    /// A* over the triangles, each at the midpoint of the edge it is entered through, then the
    /// funnel: the taut path through the corridor found. Usually the shortest path, sometimes a little longer (see the README's measurements).
    #[default]
    Fast,
    /// The exact Euclidean shortest path within the walkable area: an interval search over
    /// the triangles (Polyanya's design), slower than the fast mode on long paths.
    Optimal,
}

impl PathMode {
    /// The mode's name, as the command line spells it: `fast` or `optimal`.
    pub fn name(self) -> &'static str {
        match self {
            PathMode::Fast => "fast",
            PathMode::Optimal => "optimal",
        }
    }
}

impl std::str::FromStr for PathMode {
    type Err = String;

    /// Parses `fast` or `optimal`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fast" => Ok(PathMode::Fast),
            "optimal" => Ok(PathMode::Optimal),
            _ => Err(format!("unknown path mode {s:?} (expected fast or optimal)")),
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
}

/// Reusable per-query state: one per thread serves any number of queries on any mesh.
#[derive(Clone, Debug, Default)]
pub struct PathScratch {
    generation: u32,
    /// Generation in which a triangle's `g`, `f_bits` and `parent` were last set.
    seen: Vec<u32>,
    /// Generation in which a triangle was closed (expanded, or a start).
    closed: Vec<u32>,
    /// Distance from the start to the triangle's node (the midpoint of its entry edge).
    g: Vec<f64>,
    /// The f of a triangle's latest open-list entry (older entries are stale).
    f_bits: Vec<u64>,
    /// The half-edge a triangle was entered through (`3 * triangle + edge` of the triangle
    /// before it).
    parent: Vec<u32>,
    open: BinaryHeap<OpenNode>,
    corridor: Vec<u32>,
    portals: Vec<funnel::Portal>,
    /// Triangles containing the start and the goal.
    starts: Vec<TriangleId>,
    goals: Vec<TriangleId>,
    /// The optimal mode's state.
    optimal: OptimalScratch,
    /// The pocket triangles this query may enter.
    pass: PocketPass,
}

/// The pocket triangles a query may enter: those on the way from its start and goal triangles
/// to the core (marked with a generation counter). Every other pocket is a dead end for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PocketPass {
    generation: u32,
    marks: Vec<u32>,
}

impl PocketPass {
    /// Marks the way out of the pockets holding `ends` (a new generation).
    fn open(&mut self, mesh: &NavMesh, ends: [&[TriangleId]; 2]) {
        if self.marks.len() < mesh.triangle_count() {
            self.marks.resize(mesh.triangle_count(), 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
        for &start in ends.iter().copied().flatten() {
            let mut t = start;
            while self.marks[t.index()] != self.generation {
                self.marks[t.index()] = self.generation;
                match mesh.pocket(t) {
                    Pocket::Towards(next) => t = next,
                    Pocket::Core | Pocket::Root => break,
                }
            }
        }
    }

    /// Whether a search may enter triangle `t`.
    #[inline]
    pub(crate) fn allows(&self, mesh: &NavMesh, t: TriangleId) -> bool {
        mesh.pocket(t) == Pocket::Core || self.marks[t.index()] == self.generation
    }
}

impl PathScratch {
    /// An empty scratch; it grows to the mesh on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query over `nodes` triangles: grows the arrays if needed and moves to a new
    /// generation (clearing only when the counter wraps).
    fn begin(&mut self, nodes: usize) {
        if self.seen.len() < nodes {
            self.seen.resize(nodes, 0);
            self.closed.resize(nodes, 0);
            self.g.resize(nodes, 0.0);
            self.f_bits.resize(nodes, 0);
            self.parent.resize(nodes, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.seen.fill(0);
            self.closed.fill(0);
            self.generation = 1;
        }
        self.open.clear();
    }
}

impl NavMesh {
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
    /// use trinav::{BakeSettings, MeshParts, NavMesh, PathMode, PathOptions, PathScratch, Point};
    /// use trinav::{AreaId, IslandId, VertexId};
    /// // An L: [0, 2]² without [1, 2]², as four triangles; (1, 1) is its inner corner.
    /// let triangles = [[0, 1, 2], [0, 2, 3], [0, 3, 5], [3, 4, 5]].map(|t| t.map(VertexId)).to_vec();
    /// let parts = MeshParts {
    ///     settings: BakeSettings::default(),
    ///     vertices: [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]
    ///         .map(|(x, y)| Point::new(x, y))
    ///         .to_vec(),
    ///     neighbours: trinav::build_adjacency(&triangles, 6)?,
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
        out.points.clear();
        out.length = 0.0;
        let (from, from_snapped) = self.path_endpoint(from, Endpoint::Start, options)?;
        let (to, to_snapped) = self.path_endpoint(to, Endpoint::Goal, options)?;
        let (mut starts, mut goals) =
            (std::mem::take(&mut scratch.starts), std::mem::take(&mut scratch.goals));
        let ends = [
            (&mut starts, from, from_snapped, options.start_side),
            (&mut goals, to, to_snapped, options.goal_side),
        ];
        for (list, point, snapped, side) in ends {
            list.clear();
            list.extend(self.locate_all(point));
            // A snapped point can round to just outside its triangle: use that triangle.
            if list.is_empty() {
                list.extend(snapped);
            }
            if let Some(side) = side.filter(|&side| side != point && list.len() > 1) {
                self.keep_fan_towards(list, point, side);
            }
        }
        let result = self.route((from, &starts), (to, &goals), options.mode, scratch, out);
        (scratch.starts, scratch.goals) = (starts, goals);
        result
    }

    /// Finds the path between two points, each given with the triangles it lies in.
    fn route(
        &self,
        (from, starts): (Point, &[TriangleId]),
        (to, goals): (Point, &[TriangleId]),
        mode: PathMode,
        scratch: &mut PathScratch,
        out: &mut Path,
    ) -> Result<(), PathError> {
        // In one triangle, or in plain sight: the straight segment is the shortest path.
        // (The segment must leave and arrive through allowed triangles: see the sides.)
        let shared = starts.iter().any(|t| goals.contains(t));
        let in_sight = || {
            self.raycast(from, to).is_ok_and(|hit| hit.is_clear())
                && self.locate_towards(from, to).is_some_and(|t| starts.contains(&t))
                && self.locate_towards(to, from).is_some_and(|t| goals.contains(&t))
        };
        if shared || in_sight() {
            out.points.push(from);
            if to != from {
                out.points.push(to);
            }
            out.length = from.distance(to);
            return Ok(());
        }
        let connected = starts.iter().any(|&s| goals.iter().any(|&g| self.island(s) == self.island(g)));
        if !connected {
            return Err(PathError::Unreachable);
        }
        scratch.pass.open(self, [starts, goals]);
        match mode {
            PathMode::Optimal => {
                let state = (&mut scratch.optimal, &scratch.pass);
                if !self.search_optimal(from, starts, to, goals, state, &mut out.points) {
                    return Err(PathError::Unreachable);
                }
            }
            PathMode::Fast => {
                if !self.search_corridor(from, starts, to, goals, scratch) {
                    return Err(PathError::Unreachable);
                }
                scratch.portals.clear();
                scratch.portals.push((from, from));
                for &h in &scratch.corridor {
                    let (t, i) = (TriangleId(h / 3), (h % 3) as usize);
                    let corners = self.triangle_points(t);
                    // Crossing edge p -> q out of a counter-clockwise triangle: q is on the left.
                    scratch.portals.push((corners[(i + 1) % 3], corners[i]));
                }
                scratch.portals.push((to, to));
                string_pull(&scratch.portals, &mut out.points);
            }
        }
        out.length = out.points.windows(2).map(|w| w[0].distance(w[1])).sum();
        Ok(())
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
    ) -> Result<(Point, Option<TriangleId>), PathError> {
        if !p.in_range() {
            return Err(PathError::NonFinite { which, point: p });
        }
        if self.locate(p).is_some() {
            return Ok((p, None));
        }
        if options.snap {
            return self.nearest_point(p).map(|(q, t)| (q, Some(t))).ok_or(PathError::Unreachable);
        }
        Err(PathError::OffMesh { which, point: p })
    }
}
