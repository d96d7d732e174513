//! Stage 3, triangulate: cut each merged polygon into counter-clockwise triangles.
//!
//! [`Triangulation::ConstrainedDelaunay`] (the default) computes each polygon's constrained
//! Delaunay triangulation with i_triangle, which works on an integer grid: every ring point is
//! converted to a grid point, and every grid point of the result is mapped back to the ring
//! point it came from, so the triangles' corners are the ring points bit for bit. When every
//! ring point is exactly on the grid (the grid spans the polygon's bounds in about 2^30 steps:
//! integer and dyadic coordinates are on it), i_triangle triangulates the ring points
//! themselves. Otherwise (decimal coordinates) it triangulates the rounded rings, and the
//! result is kept only if it is a triangulation of the exact ones: no two ring points share a
//! grid point, every triangle is strictly counter-clockwise on the ring points (exact
//! predicate), and the triangles' sides pair up, each unpaired side being a ring edge and each
//! ring edge one unpaired side. Then the triangles' boundary is the rings, and triangles of
//! positive orientation cover every point as many times as the rings wind around it: once
//! inside, never outside. A polygon that fails any check (or makes i_triangle panic) is
//! triangulated by spade instead, which works on the floating-point points themselves; that is
//! recorded in [`TriangleSoup::fallbacks`] (never silently).
//! [`Triangulation::ConstrainedDelaunaySpade`] uses spade for every polygon.
//!
//! [`Triangulation::EarClipping`] runs earcut on each polygon with its holes. Ear clipping can
//! go wrong on degenerate rings (it may emit a zero-area triangle or miss area): every
//! polygon's triangles are checked, and a polygon that fails is triangulated again by
//! constrained Delaunay, recorded the same way.
//!
//! Every method uses the rings' points exactly as they are: no point is added or moved. See the
//! README (and `examples/triangulators.rs`) for the measurements behind the default.

use std::cell::RefCell;

use i_triangle::advanced::delaunay::IntDelaunay;
use i_triangle::geom::triangle::IntTriangle;
use i_triangle::i_overlay::core::integer::OverlayInt;
use i_triangle::i_overlay::i_float::adapter::FloatPointAdapter;
use i_triangle::i_overlay::i_float::float::rect::FloatRect;
use i_triangle::i_overlay::i_float::int::number::int::IntNumber;
use i_triangle::i_overlay::i_float::int::point::IntPoint;
use i_triangle::int::triangulator::IntTriangulator;
use spade::handles::FixedFaceHandle;
use spade::{ConstrainedDelaunayTriangulation, Point2, Triangulation as _};
use trinav::geometry::{Orientation, orient};
use trinav::{AreaId, Point, Triangulation};

use crate::merge::{MergedPolygon, MergedRegion, ring_area_with_error};
use crate::point_table::PointTable;
use crate::segment_points::SegmentPoints;
use crate::validate::Ring;
use crate::verify::VerifyError;
use crate::weld::WeldError;

/// A polygon the chosen method could not handle, triangulated by spade's constrained Delaunay
/// instead.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Fallback {
    /// Index of the polygon in [`MergedRegion::polygons`].
    pub polygon: usize,
    /// What went wrong with ear clipping (serialized as its message).
    pub reason: TriangulationProblem,
}

/// Why one polygon's triangles were refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TriangulationProblem {
    /// i_triangle has no integer grid for the ring points (none, or not finite).
    #[error("no i_triangle grid for the ring points")]
    NoGrid,
    /// A ring point is not exactly on i_triangle's 16-bit grid (the 32-bit grid is tried next).
    #[error("ring point ({}, {}) is not on i_triangle's grid", .0.x, .0.y)]
    OffGrid(Point),
    /// Two different ring points round to the same point of i_triangle's grid.
    #[error("ring points ({}, {}) and ({}, {}) share a point of i_triangle's grid", .0.x, .0.y, .1.x, .1.y)]
    SharedGridPoint(Point, Point),
    /// A ring point lies so near a ring edge (of which it is no end) that rounding both to
    /// i_triangle's grid could make them meet.
    #[error("ring point ({}, {}) is within two grid steps of ring edge ({}, {})-({}, {})", .point.x, .point.y, .from.x, .from.y, .to.x, .to.y)]
    NearOtherEdge {
        /// The point.
        point: Point,
        /// The edge's start.
        from: Point,
        /// The edge's end.
        to: Point,
    },
    /// On the rounded rings, i_triangle's triangles do not pair up along their sides into a
    /// surface bounded by the polygon's rings.
    #[error("i_triangle's triangles of the rounded rings are not bounded by the rings")]
    NotBoundedByRings,
    /// i_triangle returned a triangle corner that is none of the ring points.
    #[error("a triangle corner is not a ring point")]
    CornerNotRingPoint,
    /// i_triangle panicked (a bug there); spade triangulates the polygon instead.
    #[error("i_triangle panicked")]
    GridPanicked,
    /// earcut gave up.
    #[error("earcut failed: {0:?}")]
    Earcut(earcutr::Error),
    /// A ring point cannot be inserted into the constrained Delaunay triangulation.
    #[error("cannot insert point ({}, {}): {error:?}", .point.x, .point.y)]
    Insert {
        /// The point.
        point: Point,
        /// spade's reason.
        error: spade::InsertionError,
    },
    /// A ring edge cannot be added as a constraint: it crosses another ring edge.
    #[error("ring edge ({}, {})-({}, {}) crosses another ring edge", .from.x, .from.y, .to.x, .to.y)]
    CrossingEdge {
        /// The edge's start.
        from: Point,
        /// The edge's end.
        to: Point,
    },
    /// A triangle has zero area (its corners lie on one line).
    #[error("zero-area triangle {}", Corners(.0))]
    ZeroArea([Point; 3]),
    /// A triangle is wound clockwise.
    #[error("clockwise triangle {}", Corners(.0))]
    Clockwise([Point; 3]),
    /// The triangles do not cover the polygon's area.
    #[error("triangles cover area {covered}, the polygon has {expected}")]
    AreaMismatch {
        /// The triangles' total area.
        covered: f64,
        /// The polygon's area.
        expected: f64,
    },
    /// The triangles do not weld into a surface.
    #[error(transparent)]
    Weld(WeldError),
    /// The triangles' boundary does not run along the polygon's rings.
    #[error(transparent)]
    Boundary(VerifyError),
}

/// The JSON report shows the message.
impl serde::Serialize for TriangulationProblem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A triangle's corners as `(x, y) (x, y) (x, y)`.
struct Corners<'a>(&'a [Point; 3]);

impl std::fmt::Display for Corners<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c] = self.0;
        write!(f, "({}, {}) ({}, {}) ({}, {})", a.x, a.y, b.x, b.y, c.x, c.y)
    }
}

/// The output of stage 3: triangles as indices into a list of points, not yet welded.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TriangleSoup {
    /// The triangles' corner points (each a ring point; one point may be listed more than once).
    pub points: Vec<Point>,
    /// Counter-clockwise triangles with non-zero area, as indices into `points`.
    pub triangles: Vec<[u32; 3]>,
    /// The area type of each triangle.
    pub areas: Vec<AreaId>,
    /// Whether a vertex may lie inside another triangle's edge (ear clipping drops ring points
    /// collinear with their neighbours); `false` when every polygon's triangles have all its ring
    /// points as corners, and welding then need not look for such T-junctions.
    pub t_junctions: bool,
    /// Polygons that fell back from the chosen method to spade's constrained Delaunay.
    pub fallbacks: Vec<Fallback>,
    /// The neighbour across each edge of each triangle (`u32::MAX`: none), when the
    /// triangulator gave them for the whole soup: a region of one polygon triangulated by
    /// i_triangle, whose points then lie at distinct positions. The weld takes them (checked)
    /// instead of welding the points and rebuilding the adjacency.
    pub(crate) neighbours: Option<Vec<[u32; 3]>>,
}

impl TriangleSoup {
    /// A soup of triangles given by their corners (which may have T-junctions).
    pub fn from_corners(corners: &[[Point; 3]]) -> TriangleSoup {
        let mut soup = TriangleSoup { t_junctions: true, ..TriangleSoup::default() };
        soup.extend(&Triangles::from_corners(corners), AreaId(0));
        soup
    }

    /// The corners of each triangle.
    pub fn corners(&self) -> impl Iterator<Item = [Point; 3]> + '_ {
        self.triangles.iter().map(|t| t.map(|i| self.points[i as usize]))
    }

    /// Appends one polygon's triangles, of area type `area`.
    fn extend(&mut self, polygon: &Triangles, area: AreaId) {
        let offset = self.points.len() as u32;
        self.points.extend_from_slice(&polygon.points);
        self.triangles.extend(polygon.triangles.iter().map(|t| t.map(|i| i + offset)));
        self.areas.extend(std::iter::repeat_n(area, polygon.triangles.len()));
    }
}

/// One polygon's triangles: corners as indices into its points (each point once).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Triangles {
    /// The corner points.
    pub points: Vec<Point>,
    /// Counter-clockwise triangles, as indices into `points`.
    pub triangles: Vec<[u32; 3]>,
    /// The neighbour across each edge (edge `i` from corner `i` to corner `i + 1`; `u32::MAX`:
    /// none), when the triangulator was asked for them (i_triangle, for a region of one
    /// polygon; every point then at its own position).
    pub neighbours: Option<Vec<[u32; 3]>>,
}

impl Triangles {
    /// The corners of each triangle.
    pub fn corners(&self) -> impl Iterator<Item = [Point; 3]> + '_ {
        self.triangles.iter().map(|t| t.map(|i| self.points[i as usize]))
    }

    /// Triangles given by their corners, each corner its own point.
    fn from_corners(corners: &[[Point; 3]]) -> Triangles {
        Triangles {
            points: corners.iter().flatten().copied().collect(),
            triangles: (0..corners.len() as u32).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect(),
            neighbours: None,
        }
    }
}

/// A polygon that could not be triangulated at all.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("merged polygon {polygon}: cannot triangulate: {reason}")]
pub struct TriangulateError {
    /// Index of the polygon in [`MergedRegion::polygons`] (in [`MergedRegion::area_pieces`]
    /// when there are any).
    pub polygon: usize,
    /// Why.
    pub reason: TriangulationProblem,
}

/// Runs stage 3: the region's polygons, or its area pieces when it has any (each triangle
/// taking its piece's type).
pub fn triangulate(region: &MergedRegion, method: Triangulation) -> Result<TriangleSoup, TriangulateError> {
    let mut soup =
        TriangleSoup { t_junctions: method == Triangulation::EarClipping, ..TriangleSoup::default() };
    let polygons: Vec<(&MergedPolygon, AreaId)> = if region.area_pieces.is_empty() {
        region.polygons.iter().map(|p| (p, AreaId(0))).collect()
    } else {
        region.area_pieces.iter().map(|p| (&p.polygon, p.area)).collect()
    };
    let one_polygon = polygons.len() == 1;
    for (index, (polygon, area)) in polygons.into_iter().enumerate() {
        let first_choice = match method {
            Triangulation::EarClipping => Some(ear_clip_indexed(polygon)),
            Triangulation::ConstrainedDelaunay => Some(grid_delaunay(polygon, one_polygon)),
            Triangulation::ConstrainedDelaunaySpade => None,
        };
        let triangles = match first_choice {
            Some(Ok(t)) => t,
            refused => {
                if let Some(Err(reason)) = refused {
                    soup.fallbacks.push(Fallback { polygon: index, reason });
                }
                spade_delaunay(polygon).map_err(|reason| TriangulateError { polygon: index, reason })?
            }
        };
        soup.extend(&triangles, area);
        if one_polygon {
            soup.neighbours = triangles.neighbours;
        }
    }
    Ok(soup)
}

/// Constrained Delaunay triangulation of one polygon with holes by i_triangle, on its integer
/// grid, mapped back to the ring points exactly (see the module doc); checked: distinct grid
/// points, every triangle strictly counter-clockwise on the ring points, area conserved.
pub fn delaunay_on_grid(polygon: &MergedPolygon) -> Result<Vec<[Point; 3]>, TriangulationProblem> {
    Ok(grid_delaunay(polygon, false)?.corners().collect())
}

/// [`delaunay_on_grid`], as indexed triangles.
/// With `with_neighbours` (a region of one polygon, whose weld takes them), the triangles'
/// neighbours too.
fn grid_delaunay(polygon: &MergedPolygon, with_neighbours: bool) -> Result<Triangles, TriangulationProblem> {
    // A panic inside the library (a bug there, on rings it mishandles) becomes a refusal, which
    // `triangulate` hands to spade like any other.
    std::panic::catch_unwind(|| grid_delaunay_unguarded(polygon, with_neighbours))
        .unwrap_or(Err(TriangulationProblem::GridPanicked))
}

/// [`grid_delaunay`] without the guard against panics. A polygon whose ring points are all on
/// i_triangle's 16-bit grid (as a grid map's cell corners are, up to 8,192 cells across) is
/// triangulated there, with narrower arithmetic than on the 32-bit grid. The triangles are the
/// same on every map of the peer bench, and should be everywhere: every decision is an exact
/// test on the same points, which the two grids' shift and power-of-two scale preserve (only
/// the order of equal points, at pinch vertices, in i_triangle's sorts could depend on the
/// integer type). Other polygons go to the 32-bit grid, rounded if they are not on it. Either
/// way the triangles are checked below and verified by stage 6.
fn grid_delaunay_unguarded(
    polygon: &MergedPolygon,
    with_neighbours: bool,
) -> Result<Triangles, TriangulationProblem> {
    let points: Vec<[f64; 2]> = polygon.rings().flatten().map(|p| [p.x, p.y]).collect();
    let rect = FloatRect::with_iter(points.iter()).ok().flatten().ok_or(TriangulationProblem::NoGrid)?;
    match delaunay_on_grid_of::<i16>(polygon, &points, rect, OffGridPoints::Refuse, with_neighbours) {
        Err(TriangulationProblem::OffGrid(_)) => {
            delaunay_on_grid_of::<i32>(polygon, &points, rect, OffGridPoints::Round, with_neighbours)
        }
        done => done,
    }
}

/// i_triangle's triangulator (its monotone pass's vertices, its flip buffer) and its last
/// triangles, kept by each thread from one polygon to the next: a game rebaking tiles at
/// runtime, or a bake of many polygons, allocates them once. Dropped after a polygon of more
/// than [`SCRATCH_KEPT_POINTS`] ring points, so that one large bake holds no memory after.
struct GridScratch<I: OverlayInt> {
    triangulator: IntTriangulator<I, u32>,
    delaunay: IntDelaunay<I>,
}

/// The largest polygon (in ring points) whose triangulation buffers a thread keeps.
const SCRATCH_KEPT_POINTS: usize = 1 << 16;

impl<I: OverlayInt> GridScratch<I> {
    fn new() -> Self {
        GridScratch {
            triangulator: IntTriangulator::default(),
            delaunay: IntDelaunay { triangles: Vec::new(), points: Vec::new() },
        }
    }
}

/// The integer types of i_triangle's grids used here, each with its thread's scratch.
trait GridInt: OverlayInt {
    /// Runs `f` with this thread's scratch for this integer type.
    fn with_scratch<R>(f: impl FnOnce(&mut GridScratch<Self>) -> R) -> R;
}

/// Runs `f` on `scratch`'s value, put back afterwards unless it grew past
/// [`SCRATCH_KEPT_POINTS`] (a panic in `f` leaves the thread a fresh one).
fn with_scratch_in<I: OverlayInt, R>(
    scratch: &'static std::thread::LocalKey<RefCell<Option<GridScratch<I>>>>,
    f: impl FnOnce(&mut GridScratch<I>) -> R,
) -> R {
    let mut kept = scratch.with(|s| s.borrow_mut().take()).unwrap_or_else(GridScratch::new);
    let result = f(&mut kept);
    if kept.delaunay.points.capacity() <= SCRATCH_KEPT_POINTS {
        scratch.with(|s| *s.borrow_mut() = Some(kept));
    }
    result
}

thread_local! {
    static SCRATCH_16: RefCell<Option<GridScratch<i16>>> = const { RefCell::new(None) };
    static SCRATCH_32: RefCell<Option<GridScratch<i32>>> = const { RefCell::new(None) };
}

impl GridInt for i16 {
    fn with_scratch<R>(f: impl FnOnce(&mut GridScratch<i16>) -> R) -> R {
        with_scratch_in(&SCRATCH_16, f)
    }
}

impl GridInt for i32 {
    fn with_scratch<R>(f: impl FnOnce(&mut GridScratch<i32>) -> R) -> R {
        with_scratch_in(&SCRATCH_32, f)
    }
}

/// What [`delaunay_on_grid_of`] does with a ring point that is not exactly on its grid.
#[derive(Clone, Copy, PartialEq)]
enum OffGridPoints {
    /// Refuse the polygon ([`TriangulationProblem::OffGrid`]).
    Refuse,
    /// Triangulate the rounded rings and check the triangles on the exact ones.
    Round,
}

/// [`grid_delaunay_unguarded`] on i_triangle's grid of integer type `I` over `rect`, the
/// bounds of the polygon's ring points (`ring_points`, the rings one after the other).
fn delaunay_on_grid_of<I: GridInt>(
    polygon: &MergedPolygon,
    ring_points: &[[f64; 2]],
    rect: FloatRect<f64>,
    off_grid: OffGridPoints,
    with_neighbours: bool,
) -> Result<Triangles, TriangulationProblem> {
    let adapter = FloatPointAdapter::<[f64; 2], I>::new_conservative(rect);
    let mut shape: Vec<Vec<IntPoint<I>>> = Vec::with_capacity(1 + polygon.holes.len());
    let mut rounded = false;
    for ring in polygon.rings() {
        let mut contour = Vec::with_capacity(ring.len());
        for &p in ring {
            let q = adapter.float_to_int(&[p.x, p.y]);
            if adapter.int_to_float(&q) != [p.x, p.y] {
                if off_grid == OffGridPoints::Refuse {
                    return Err(TriangulationProblem::OffGrid(p));
                }
                rounded = true;
            }
            contour.push(q);
        }
        shape.push(contour);
    }
    // On rounded rings, two ring points on one grid point would make the triangles' corners
    // ambiguous, and a ring point near another edge could cross it: refused before i_triangle
    // sees them (it expects rings that touch only at shared points, and can panic otherwise).
    let grid_points = GridPoints::new(&shape, ring_points, &adapter, rounded)?;
    if rounded {
        check_rounding_keeps_rings_apart(polygon, &adapter, rect)?;
    }
    I::with_scratch(|scratch| {
        let GridScratch { triangulator, delaunay } = scratch;
        triangulator.uncheck_delaunay_shape_into(&shape, delaunay);
        triangles_of(polygon, ring_points, &shape, grid_points, rounded, delaunay, with_neighbours)
    })
}

/// The triangles of i_triangle's `delaunay` of `polygon`'s rings as `shape` on the grid
/// (`rounded` if any ring point is not exactly on it), each corner the ring point it is on,
/// checked to be a triangulation of the exact rings.
fn triangles_of<I: IntNumber>(
    polygon: &MergedPolygon,
    ring_points: &[[f64; 2]],
    shape: &[Vec<IntPoint<I>>],
    grid_points: GridPoints<I>,
    rounded: bool,
    delaunay: &IntDelaunay<I>,
    with_neighbours: bool,
) -> Result<Triangles, TriangulationProblem> {
    let ids = (delaunay.points.iter())
        .map(|&q| grid_points.ring_point_at(q).ok_or(TriangulationProblem::CornerNotRingPoint))
        .collect::<Result<Vec<u32>, _>>()?;
    let points: Vec<Point> = ids.iter().map(|&i| point_of(ring_points[i as usize])).collect();
    let mut triangles = Vec::with_capacity(delaunay.triangles.len());
    let count = delaunay.triangles.len();
    let mut neighbours = Vec::with_capacity(if with_neighbours { count } else { 0 });
    for triangle in &delaunay.triangles {
        let corners = triangle.vertices.map(|v| v.index);
        let [a, b, c] = corners.map(|i| points.get(i).copied());
        let (Some(a), Some(b), Some(c)) = (a, b, c) else {
            return Err(TriangulationProblem::CornerNotRingPoint);
        };
        if orient(a, b, c) != Orientation::CounterClockwise {
            return Err(TriangulationProblem::Clockwise([a, b, c]));
        }
        triangles.push(corners.map(|i| i as u32));
        if with_neighbours {
            // i_triangle names the neighbour opposite each corner; edge `i` is opposite
            // corner `i + 2`.
            let across = |k: usize| match triangle.neighbors[k] {
                n if n < count => n as u32,
                _ => u32::MAX,
            };
            neighbours.push([across(2), across(0), across(1)]);
        }
    }
    if rounded {
        let ring_edges = RingEdges::new(shape, grid_points.first_at);
        check_sides_pair_up(&delaunay.triangles, &ids, ring_edges)?;
    }
    // Distinct grid points are distinct ring points (`GridPoints`), so each point is at its
    // own position, as the weld's use of the neighbours requires.
    let neighbours = with_neighbours.then_some(neighbours);
    let triangles = Triangles { points, triangles, neighbours };
    // On the grid, this is exactly the ring points' triangulation; off it, the sides' check
    // above proved it one. The area check guards against a bug in either.
    check_area(polygon, triangles.corners())?;
    Ok(triangles)
}

/// Refuses rings that rounding to `adapter`'s grid could make cross or touch: a ring point
/// within two grid steps of a ring edge it is not an end of. Rounding moves each point by at
/// most half a step in each coordinate, so by at most `sqrt(2) / 2` step, and every point of a
/// rounded edge by as much: two rounded edges can meet only where the exact ones come within
/// `sqrt(2)` steps, and then an end of one is that near the other.
fn check_rounding_keeps_rings_apart<I: IntNumber>(
    polygon: &MergedPolygon,
    adapter: &FloatPointAdapter<[f64; 2], I>,
    rect: FloatRect<f64>,
) -> Result<(), TriangulationProblem> {
    let magnitude =
        [rect.min_x, rect.max_x, rect.min_y, rect.max_y].map(f64::abs).into_iter().fold(0.0, f64::max);
    // The distances' rounding is a few units in the last place of the coordinates.
    let margin = 2.0 * adapter.inv_scale() + 16.0 * f64::EPSILON * magnitude;
    let points = SegmentPoints::new(polygon.rings().flatten().map(|&p| (p, p)));
    for ring in polygon.rings() {
        for (i, &a) in ring.iter().enumerate() {
            let b = ring[(i + 1) % ring.len()];
            if let Some(near) = points.any_near(a, b, margin) {
                return Err(TriangulationProblem::NearOtherEdge { point: near, from: a, to: b });
            }
        }
    }
    Ok(())
}

/// A point of `[x, y]` coordinates.
fn point_of([x, y]: [f64; 2]) -> Point {
    Point::new(x, y)
}

/// Which ring point each grid point of a shape is: its id, the index (among the ring points,
/// rings one after the other) of the first ring point at that grid point. Keyed by the ring
/// points' positions when they are all on the grid (a grid map's integer corners make a
/// lattice table, without hashing), by the grid points otherwise.
struct GridPoints<'a, I: IntNumber> {
    first: PointTable,
    adapter: &'a FloatPointAdapter<[f64; 2], I>,
    rounded: bool,
    /// The id of each ring point.
    first_at: Vec<u32>,
}

impl<'a, I: IntNumber> GridPoints<'a, I> {
    /// The table of `shape`'s grid points (the `ring_points` on `adapter`'s grid, `rounded` if
    /// some are not exactly on it); refused when two ring points at different positions share a
    /// grid point.
    fn new(
        shape: &[Vec<IntPoint<I>>],
        ring_points: &[[f64; 2]],
        adapter: &'a FloatPointAdapter<[f64; 2], I>,
        rounded: bool,
    ) -> Result<Self, TriangulationProblem> {
        let grid = shape.iter().flatten().map(|&q| grid_point_key(adapter, rounded, q));
        let mut first = PointTable::for_points(grid.clone());
        let mut first_at = Vec::with_capacity(ring_points.len());
        for (i, q) in grid.enumerate() {
            let i = u32::try_from(i).expect("fewer than 2^32 ring points");
            let at = first.get_or_insert_with(q, || i);
            let (p, other) = (ring_points[i as usize], ring_points[at as usize]);
            if p != other {
                return Err(TriangulationProblem::SharedGridPoint(point_of(other), point_of(p)));
            }
            first_at.push(at);
        }
        Ok(GridPoints { first, adapter, rounded, first_at })
    }

    /// The id of the ring point at grid point `q`, if any.
    fn ring_point_at(&self, q: IntPoint<I>) -> Option<u32> {
        self.first.get(grid_point_key(self.adapter, self.rounded, q))
    }
}

/// The [`GridPoints`] key of grid point `q`: its position, or on rounded rings its integer
/// coordinates (exact in a [`Point`]: at most 32 bits).
fn grid_point_key<I: IntNumber>(
    adapter: &FloatPointAdapter<[f64; 2], I>,
    rounded: bool,
    q: IntPoint<I>,
) -> Point {
    if rounded { Point::new(q.x.to_f64(), q.y.to_f64()) } else { point_of(adapter.int_to_float(&q)) }
}

/// The rings' edges of non-zero length, between ring point ids ([`GridPoints`]), each to be
/// matched to one open side of a triangle.
struct RingEdges {
    /// The id of the ring point after each ring point in its ring.
    next_in_ring: Vec<u32>,
    /// The id of each ring point.
    first_at: Vec<u32>,
    /// The next ring point at the same position (`u32::MAX`: no more): the ring points at one
    /// position form a chain from the first, their id.
    same_position: Vec<u32>,
    /// Whether each ring point's edge to the next has been matched.
    matched: Vec<bool>,
    /// The number of edges of non-zero length.
    count: usize,
}

impl RingEdges {
    /// The edges of `shape`'s rings, whose points have the ids `first_at`.
    fn new<I: IntNumber>(shape: &[Vec<IntPoint<I>>], first_at: Vec<u32>) -> RingEdges {
        let mut next_in_ring = Vec::with_capacity(first_at.len());
        let mut start = 0;
        for ring in shape {
            let ids = &first_at[start..start + ring.len()];
            next_in_ring.extend(ids.iter().skip(1).chain(ids.first()));
            start += ring.len();
        }
        let mut same_position = vec![u32::MAX; first_at.len()];
        for (i, &first) in first_at.iter().enumerate() {
            if first as usize != i {
                same_position[i] = same_position[first as usize];
                same_position[first as usize] = i as u32;
            }
        }
        let count = first_at.iter().zip(&next_in_ring).filter(|(a, b)| a != b).count();
        let matched = vec![false; first_at.len()];
        RingEdges { next_in_ring, first_at, same_position, matched, count }
    }

    /// Marks the ring edge from id `from` to id `to` as matched; `false` if there is no such
    /// edge left.
    fn take(&mut self, from: u32, to: u32) -> bool {
        let mut point = from;
        while point != u32::MAX && self.first_at.get(point as usize) == Some(&from) {
            let i = point as usize;
            if !self.matched[i] && self.next_in_ring[i] == to {
                self.matched[i] = true;
                return true;
            }
            point = self.same_position[i];
        }
        false
    }
}

/// Checks that i_triangle's triangles (corners as indices into its points, whose ring point ids
/// are `ids`; the triangle across the side opposite each corner, `usize::MAX` for none) pair
/// up along their sides: a side with a triangle across is that triangle's side the other way
/// round, with this triangle across it; every other side is a ring edge, each ring edge exactly
/// one such side. With strictly counter-clockwise triangles, this makes the triangles a
/// triangulation of the region the rings bound (see the module doc). Every corner index must be
/// within `ids` (the caller's orientation pass has checked them).
fn check_sides_pair_up<I: IntNumber>(
    triangles: &[IntTriangle<I>],
    ids: &[u32],
    mut ring_edges: RingEdges,
) -> Result<(), TriangulationProblem> {
    let corners = |t: &IntTriangle<I>| t.vertices.map(|v| ids[v.index]);
    let mut open_sides = 0;
    for (t, triangle) in triangles.iter().enumerate() {
        let mine = corners(triangle);
        for side in 0..3 {
            let (from, to) = (mine[(side + 1) % 3], mine[(side + 2) % 3]);
            let paired = match triangle.neighbors[side] {
                usize::MAX => {
                    open_sides += 1;
                    ring_edges.take(from, to)
                }
                other => triangles.get(other).is_some_and(|across| {
                    let theirs = corners(across);
                    (0..3).any(|k| {
                        across.neighbors[k] == t && theirs[(k + 1) % 3] == to && theirs[(k + 2) % 3] == from
                    })
                }),
            };
            if !paired {
                return Err(TriangulationProblem::NotBoundedByRings);
            }
        }
    }
    if open_sides != ring_edges.count {
        return Err(TriangulationProblem::NotBoundedByRings);
    }
    Ok(())
}

/// Ear clipping of one polygon with holes (earcutr), checked: every triangle non-degenerate and
/// the triangles' area equal to the polygon's within 1e-9 relative.
pub fn ear_clip(polygon: &MergedPolygon) -> Result<Vec<[Point; 3]>, TriangulationProblem> {
    Ok(ear_clip_indexed(polygon)?.corners().collect())
}

/// [`ear_clip`], as indexed triangles.
fn ear_clip_indexed(polygon: &MergedPolygon) -> Result<Triangles, TriangulationProblem> {
    let points: Vec<Point> = polygon.rings().flatten().copied().collect();
    let flat: Vec<f64> = points.iter().flat_map(|p| [p.x, p.y]).collect();
    let mut hole_starts = Vec::with_capacity(polygon.holes.len());
    let mut next = polygon.outer.len();
    for hole in &polygon.holes {
        hole_starts.push(next);
        next += hole.len();
    }
    let indices = earcutr::earcut(&flat, &hole_starts, 2).map_err(TriangulationProblem::Earcut)?;
    let mut triangles = Vec::with_capacity(indices.len() / 3);
    for tri in indices.chunks_exact(3) {
        let [i, j, k] = [tri[0], tri[1], tri[2]].map(|i| i as u32);
        let [a, b, c] = [points[tri[0]], points[tri[1]], points[tri[2]]];
        triangles.push(match orient(a, b, c) {
            Orientation::CounterClockwise => [i, j, k],
            Orientation::Clockwise => [i, k, j],
            Orientation::Collinear => return Err(TriangulationProblem::ZeroArea([a, b, c])),
        });
    }
    let triangles = Triangles { points, triangles, neighbours: None };
    check_area(polygon, triangles.corners())?;
    check_surface(polygon, &triangles)?;
    Ok(triangles)
}

/// Checks that the triangles form a surface bounded by the polygon's rings: welded (with
/// T-junctions repaired, as the weld stage will), every edge shared at most twice in opposite
/// directions, every unshared edge on a ring. Catches ear clipping's overlapping output, which
/// can conserve area while leaving a gap elsewhere (holes touching at a vertex).
fn check_surface(polygon: &MergedPolygon, triangles: &Triangles) -> Result<(), TriangulationProblem> {
    let mut soup = TriangleSoup { t_junctions: true, ..TriangleSoup::default() };
    soup.extend(triangles, AreaId(0));
    let welded = crate::weld::weld(&soup).map_err(TriangulationProblem::Weld)?;
    let rings: Vec<&Ring> = polygon.rings().collect();
    crate::verify::check_boundary(&rings, &welded.vertices, &welded.triangles, &welded.neighbours)
        .map_err(TriangulationProblem::Boundary)
}

/// Constrained Delaunay triangulation of one polygon with holes (spade): the triangulation of
/// all ring points with every ring edge as a constraint, keeping the faces inside the polygon
/// (an odd number of constraint edges away from the outside).
pub fn constrained_delaunay(polygon: &MergedPolygon) -> Result<Vec<[Point; 3]>, TriangulationProblem> {
    Ok(spade_delaunay(polygon)?.corners().collect())
}

/// [`constrained_delaunay`], as indexed triangles.
fn spade_delaunay(polygon: &MergedPolygon) -> Result<Triangles, TriangulationProblem> {
    let mut cdt = ConstrainedDelaunayTriangulation::<Point2<f64>>::new();
    for ring in polygon.rings() {
        let handles = ring
            .iter()
            .map(|&point| {
                (cdt.insert(Point2::new(point.x, point.y)))
                    .map_err(|error| TriangulationProblem::Insert { point, error })
            })
            .collect::<Result<Vec<_>, _>>()?;
        for i in 0..handles.len() {
            let (from, to) = (handles[i], handles[(i + 1) % handles.len()]);
            if from != to && cdt.try_add_constraint(from, to).is_empty() {
                let (from, to) = (ring[i], ring[(i + 1) % ring.len()]);
                return Err(TriangulationProblem::CrossingEdge { from, to });
            }
        }
    }
    // Parity flood fill: faces next to the outside start the fill; crossing a constraint
    // toggles inside/outside.
    let mut inside: Vec<Option<bool>> = vec![None; cdt.num_all_faces()];
    let mut stack: Vec<(FixedFaceHandle<spade::handles::InnerTag>, bool)> = Vec::new();
    for face in cdt.inner_faces() {
        for edge in face.adjacent_edges() {
            if edge.rev().face().is_outer() {
                let crossing = cdt.is_constraint_edge(edge.as_undirected().fix());
                stack.push((face.fix(), crossing));
            }
        }
    }
    while let Some((face, is_inside)) = stack.pop() {
        let slot = &mut inside[face.index()];
        if slot.is_some() {
            continue;
        }
        *slot = Some(is_inside);
        for edge in cdt.face(face).adjacent_edges() {
            if let Some(next) = edge.rev().face().as_inner()
                && inside[next.fix().index()].is_none()
            {
                let crossing = cdt.is_constraint_edge(edge.as_undirected().fix());
                stack.push((next.fix(), is_inside != crossing));
            }
        }
    }
    // spade keeps each point as given (identical points are one vertex).
    let points: Vec<Point> = cdt.vertices().map(|v| Point::new(v.position().x, v.position().y)).collect();
    let triangles: Vec<[u32; 3]> = cdt
        .inner_faces()
        .filter(|f| inside[f.fix().index()] == Some(true))
        .map(|f| f.vertices().map(|v| v.fix().index() as u32))
        .collect();
    let triangles = Triangles { points, triangles, neighbours: None };
    for t in triangles.corners() {
        match orient(t[0], t[1], t[2]) {
            Orientation::CounterClockwise => {}
            Orientation::Collinear => return Err(TriangulationProblem::ZeroArea(t)),
            Orientation::Clockwise => return Err(TriangulationProblem::Clockwise(t)),
        }
    }
    check_area(polygon, triangles.corners())?;
    Ok(triangles)
}

/// Checks that the triangles cover the polygon's area: equal within 1e-9 relative, widened by
/// a bound on the floating-point error of both sums (which matters for tiny slivers).
fn check_area(
    polygon: &MergedPolygon,
    triangles: impl Iterator<Item = [Point; 3]>,
) -> Result<(), TriangulationProblem> {
    let (mut expected, mut error) = (0.0, 0.0);
    for ring in polygon.rings() {
        let (area, ring_error) = ring_area_with_error(ring);
        expected += area;
        error += ring_error;
    }
    let (mut covered, mut magnitude, mut count) = (0.0, 0.0, 0);
    for [a, b, c] in triangles {
        count += 1;
        let (ux, uy, vx, vy) = (b.x - a.x, b.y - a.y, c.x - a.x, c.y - a.y);
        covered += (ux * vy - uy * vx) * 0.5;
        magnitude += ((ux * vy).abs() + (uy * vx).abs()) * 0.5;
    }
    error += (count as f64 + 6.0) * f64::EPSILON * magnitude;
    if (covered - expected).abs() > 1e-9 * expected.abs() + error {
        return Err(TriangulationProblem::AreaMismatch { covered, expected });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use i_triangle::geom::point::IndexPoint;
    use trinav::geometry::doubled_signed_area;

    fn pts(raw: &[(f64, f64)]) -> Vec<Point> {
        raw.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    fn square_with_hole() -> MergedPolygon {
        MergedPolygon {
            outer: pts(&[(0., 0.), (4., 0.), (4., 4.), (0., 4.)]),
            holes: vec![pts(&[(1., 1.), (1., 3.), (3., 3.), (3., 1.)])],
        }
    }

    fn area(t: &[[Point; 3]]) -> f64 {
        t.iter().map(|&[a, b, c]| doubled_signed_area(a, b, c) * 0.5).sum()
    }

    #[test]
    fn both_methods_cover_a_square_with_a_hole_exactly() {
        for method in [ear_clip, constrained_delaunay, delaunay_on_grid] {
            let t = method(&square_with_hole()).unwrap();
            assert_eq!(t.len(), 8, "8 triangles for 8 points and one hole");
            assert_eq!(area(&t), 12.0);
            assert!(t.iter().all(|t| orient(t[0], t[1], t[2]) == Orientation::CounterClockwise));
        }
    }

    #[test]
    fn collinear_ring_points_are_handled() {
        // Many points along the bottom edge.
        let mut outer = pts(&[(0., 0.)]);
        outer.extend((1..10).map(|i| Point::new(i as f64, 0.0)));
        outer.extend(pts(&[(10., 0.), (10., 1.), (0., 1.)]));
        let polygon = MergedPolygon { outer, holes: vec![] };
        for method in [ear_clip, constrained_delaunay, delaunay_on_grid] {
            assert_eq!(area(&method(&polygon).unwrap()), 10.0);
        }
    }

    #[test]
    fn hole_touching_the_outer_ring_at_a_vertex() {
        // A triangular hole whose corner touches the outer ring at (2, 0).
        let polygon = MergedPolygon {
            outer: pts(&[(0., 0.), (2., 0.), (4., 0.), (4., 4.), (0., 4.)]),
            holes: vec![pts(&[(2., 0.), (1., 2.), (3., 2.)])],
        };
        for method in [ear_clip, constrained_delaunay] {
            assert_eq!(area(&method(&polygon).unwrap()), 16.0 - 2.0);
        }
    }

    #[test]
    fn fallbacks_serialize_with_their_message() {
        let corners = pts(&[(0., 0.), (1., 1.), (2., 2.)]);
        let reason = TriangulationProblem::ZeroArea([corners[0], corners[1], corners[2]]);
        let fallback = Fallback { polygon: 3, reason };
        assert_eq!(
            serde_json::to_string(&fallback).unwrap(),
            r#"{"polygon":3,"reason":"zero-area triangle (0, 0) (1, 1) (2, 2)"}"#
        );
    }

    #[test]
    fn grid_delaunay_returns_the_ring_points_bit_for_bit() {
        // Quarter and eighth steps far from the origin: on i_triangle's grid, which is not
        // centred on the origin, so the mapping back must be exact.
        let outer =
            pts(&[(1e5 + 0.125, 7.25), (1e5 + 40.75, 7.25), (1e5 + 40.75, 33.5), (1e5 + 0.125, 33.5)]);
        let hole = pts(&[(1e5 + 10.25, 10.5), (1e5 + 10.25, 20.75), (1e5 + 20.5, 20.75), (1e5 + 20.5, 10.5)]);
        let polygon = MergedPolygon { outer, holes: vec![hole] };
        let triangles = delaunay_on_grid(&polygon).unwrap();
        let rings: Vec<Point> = polygon.rings().flatten().copied().collect();
        assert_eq!(triangles.len(), 8);
        for corner in triangles.iter().flatten() {
            let same = |p: &Point| p.x.to_bits() == corner.x.to_bits() && p.y.to_bits() == corner.y.to_bits();
            assert!(rings.iter().any(same), "{corner:?} is not a ring point");
        }
        assert!(triangles.iter().all(|t| orient(t[0], t[1], t[2]) == Orientation::CounterClockwise));
    }

    /// The region of one polygon, and its triangulations by the default method (which must
    /// record `fallbacks` polygons handed to spade) and by spade alone.
    fn default_and_spade(polygon: MergedPolygon, fallbacks: usize) -> (TriangleSoup, TriangleSoup) {
        let region =
            MergedRegion { polygons: vec![polygon], inflated_obstacles: vec![], ..MergedRegion::default() };
        let soup = triangulate(&region, Triangulation::ConstrainedDelaunay).unwrap();
        assert_eq!(soup.fallbacks.len(), fallbacks, "{:?}", soup.fallbacks);
        let spade = triangulate(&region, Triangulation::ConstrainedDelaunaySpade).unwrap();
        assert!(spade.fallbacks.is_empty());
        (soup, spade)
    }

    #[test]
    fn decimal_rings_are_triangulated_rounded_and_mapped_back_bit_for_bit() {
        // Decimal coordinates are not on i_triangle's grid: it triangulates the rounded rings,
        // and the triangles are checked on the ring points themselves.
        let outer = pts(&[(0.1, 0.3), (40.7, 0.3), (40.7, 33.9), (20.35, 33.7), (0.1, 33.9)]);
        let hole = pts(&[(10.3, 10.7), (10.3, 20.1), (20.9, 20.1), (20.9, 10.7)]);
        let polygon = MergedPolygon { outer, holes: vec![hole] };
        let triangles = delaunay_on_grid(&polygon).unwrap();
        let rings: Vec<Point> = polygon.rings().flatten().copied().collect();
        assert_eq!(triangles.len(), rings.len() + 2 * polygon.holes.len() - 2);
        for corner in triangles.iter().flatten() {
            let same = |p: &Point| p.x.to_bits() == corner.x.to_bits() && p.y.to_bits() == corner.y.to_bits();
            assert!(rings.iter().any(same), "{corner:?} is not a ring point");
        }
        check_surface(&polygon, &grid_delaunay(&polygon, false).unwrap()).unwrap();
        let (soup, spade) = default_and_spade(polygon, 0);
        let total = |soup: &TriangleSoup| area(&soup.corners().collect::<Vec<_>>());
        assert!((total(&soup) - total(&spade)).abs() < 1e-12 * total(&spade));
    }

    #[test]
    fn ring_points_sharing_a_grid_point_fall_back_to_spade() {
        // Two ring points 1e-9 apart on a polygon a million units wide share a grid point.
        let outer = pts(&[(0., 0.), (1e6, 0.), (1e6, 1e6), (5e5, 1e6), (5e5 - 1e-9, 1e6 - 1e-9), (0., 1e6)]);
        let polygon = MergedPolygon { outer, holes: vec![] };
        let refused = delaunay_on_grid(&polygon);
        assert!(matches!(refused, Err(TriangulationProblem::SharedGridPoint(..))), "{refused:?}");
        let (soup, spade) = default_and_spade(polygon, 1);
        assert_eq!(spade.corners().collect::<Vec<_>>(), soup.corners().collect::<Vec<_>>());
    }

    #[test]
    fn a_ring_point_rounding_could_push_across_an_edge_falls_back_to_spade() {
        // A hole's corner 1e-9 inside the outer ring's slanted edge (grid steps of about 1e-7):
        // rounding could put it on or across the edge, which i_triangle does not expect.
        let outer = pts(&[(0.1, 0.3), (40.7, 0.3), (40.7, 33.9), (0.1, 13.9)]);
        let (a, b) = (outer[2], outer[3]);
        let t = 0.37;
        let on_edge = Point::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
        let corner = Point::new(on_edge.x, on_edge.y - 1e-9);
        let hole = vec![
            corner,
            Point::new(corner.x + 3.3, corner.y - 5.1),
            Point::new(corner.x - 2.9, corner.y - 4.7),
        ];
        assert_eq!(orient(a, b, corner), Orientation::CounterClockwise, "the corner is inside");
        let polygon = MergedPolygon { outer, holes: vec![hole] };
        let refused = delaunay_on_grid(&polygon);
        assert!(
            matches!(refused, Err(TriangulationProblem::NearOtherEdge { point, .. }) if point == corner),
            "{refused:?}"
        );
        let (soup, spade) = default_and_spade(polygon, 1);
        assert_eq!(spade.corners().collect::<Vec<_>>(), soup.corners().collect::<Vec<_>>());
    }

    /// A random polygon with decimal coordinates: a star-shaped outer ring round a centre far
    /// from the origin, and small square holes on a jittered lattice inside it.
    fn random_decimal_polygon(random: &mut crate::generate::SplitMix64) -> MergedPolygon {
        let centre = Point::new(1234.5 + random.unit() * 100.0, -987.6 + random.unit() * 100.0);
        // Turns of at most 45 degrees between corners at least 5 from the centre keep every
        // edge more than 4.6 from it, outside the holes (within 3.9 of it).
        let sides = 12 + random.below(30) as usize;
        let step = std::f64::consts::TAU / sides as f64;
        let outer = (0..sides)
            .map(|k| {
                let a = (k as f64 + random.unit() * 0.5) * step;
                let r = 5.0 + random.unit() * 5.0;
                Point::new(centre.x + r * a.cos(), centre.y + r * a.sin())
            })
            .collect();
        let mut holes = Vec::new();
        for i in -2..=2 {
            for j in -2..=2 {
                if random.below(2) == 0 {
                    continue;
                }
                let (x, y) =
                    (centre.x + i as f64 + random.unit() * 0.3, centre.y + j as f64 + random.unit() * 0.3);
                let side = 0.1 + random.unit() * 0.3;
                holes.push(vec![
                    Point::new(x, y),
                    Point::new(x, y + side),
                    Point::new(x + side, y + side),
                    Point::new(x + side, y),
                ]);
            }
        }
        MergedPolygon { outer, holes }
    }

    #[test]
    fn rounded_rings_give_triangulations_of_the_exact_rings() {
        // Oracle: the weld and the boundary walk of stage 6 (`check_surface`), the triangle
        // count of any triangulation of a polygon with holes (points + 2 holes - 2) and the
        // rings' area.
        let mut random = crate::generate::SplitMix64::new(2026);
        let mut rounded = 0;
        for _ in 0..300 {
            let polygon = random_decimal_polygon(&mut random);
            let points = polygon.rings().map(Vec::len).sum::<usize>();
            let triangles = match grid_delaunay(&polygon, false) {
                Ok(triangles) => triangles,
                Err(
                    TriangulationProblem::NearOtherEdge { .. } | TriangulationProblem::SharedGridPoint(..),
                ) => {
                    continue;
                }
                Err(other) => panic!("{other}"),
            };
            rounded += 1;
            assert_eq!(triangles.triangles.len(), points + 2 * polygon.holes.len() - 2);
            assert!(triangles.corners().all(|[a, b, c]| orient(a, b, c) == Orientation::CounterClockwise));
            check_surface(&polygon, &triangles).unwrap();
            check_area(&polygon, triangles.corners()).unwrap();
        }
        assert!(rounded >= 290, "only {rounded} of 300 polygons were triangulated on the grid");
    }

    #[test]
    fn a_threads_kept_scratch_triangulates_as_a_fresh_one() {
        // Polygons of both grids, small and large, one after the other on this thread (each
        // reusing the buffers the one before left), against each on a thread of its own.
        let mut random = crate::generate::SplitMix64::new(7);
        let mut polygons: Vec<MergedPolygon> = (0..40).map(|_| random_decimal_polygon(&mut random)).collect();
        polygons.insert(10, square_with_hole());
        let comb = |teeth: usize| {
            let mut outer = vec![Point::new(0.0, 0.0), Point::new(2.0 * teeth as f64, 0.0)];
            for t in (0..teeth).rev() {
                let x = 2.0 * t as f64;
                outer.extend(pts(&[(x + 2.0, 3.0), (x + 1.0, 3.0), (x + 1.0, 1.0), (x, 1.0)]));
            }
            MergedPolygon { outer, holes: Vec::new() }
        };
        polygons.insert(20, comb(300));
        polygons.insert(30, comb(3));
        let mut triangulated = 0;
        for (i, polygon) in polygons.iter().enumerate() {
            let with_neighbours = i % 2 == 0;
            let here = grid_delaunay(polygon, with_neighbours);
            let fresh =
                std::thread::scope(|s| s.spawn(|| grid_delaunay(polygon, with_neighbours)).join().unwrap());
            assert_eq!(here, fresh, "polygon {i}");
            if let Ok(triangles) = here {
                let points = polygon.rings().map(Vec::len).sum::<usize>();
                assert_eq!(triangles.triangles.len(), points + 2 * polygon.holes.len() - 2, "polygon {i}");
                triangulated += 1;
            }
        }
        assert!(triangulated >= 40, "only {triangulated} of {} triangulated", polygons.len());
    }

    /// i_triangle's triangles of `corners` (indices of `points`, which are their own ids) with
    /// the triangles across their sides.
    fn int_triangles(
        points: &[IntPoint<i32>],
        corners: &[([usize; 3], [usize; 3])],
    ) -> Vec<IntTriangle<i32>> {
        (corners.iter())
            .map(|&(c, neighbors)| IntTriangle {
                vertices: c.map(|i| IndexPoint::new(i, points[i])),
                neighbors,
            })
            .collect()
    }

    #[test]
    fn sides_pair_up_only_in_a_surface_bounded_by_the_rings() {
        let square: Vec<IntPoint<i32>> =
            [(0, 0), (2, 0), (2, 2), (0, 2)].map(|(x, y)| IntPoint::new(x, y)).into();
        let ids = [0, 1, 2, 3];
        let check = |corners: &[([usize; 3], [usize; 3])]| {
            let edges = RingEdges::new(std::slice::from_ref(&square), ids.to_vec());
            check_sides_pair_up(&int_triangles(&square, corners), &ids, edges)
        };
        let none = usize::MAX;
        // Two triangles across the diagonal from corner 0 to corner 2.
        assert_eq!(check(&[([0, 1, 2], [none, 1, none]), ([0, 2, 3], [none, none, 0])]), Ok(()));
        // One of them: the diagonal is an open side, and two ring edges are left over.
        let refused = Err(TriangulationProblem::NotBoundedByRings);
        assert_eq!(check(&[([0, 1, 2], [none, none, none])]), refused);
        // The triangle across is missing, or does not name this one across the same side.
        assert_eq!(check(&[([0, 1, 2], [none, 1, none])]), refused);
        assert_eq!(check(&[([0, 1, 2], [none, 1, none]), ([0, 2, 3], [none, 0, none])]), refused);
        // The same triangles twice: ring edges taken twice.
        let twice = [([0, 1, 2], [none, 1, none]), ([0, 2, 3], [none, none, 0])];
        assert_eq!(check(&[twice[0], twice[1], twice[0], twice[1]]), refused);
        // A ring with a point at the same position twice (a pinch): each of its edges is
        // matched to its own side.
        let pinch: Vec<IntPoint<i32>> =
            [(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 1)].map(|(x, y)| IntPoint::new(x, y)).into();
        let ids = [0, 1, 2, 3, 4, 2];
        let mut edges = RingEdges::new(std::slice::from_ref(&pinch), ids.to_vec());
        assert_eq!(edges.count, 6);
        assert!(edges.take(2, 0) && edges.take(2, 3) && !edges.take(2, 0) && !edges.take(0, 2));
        let edges = RingEdges::new(std::slice::from_ref(&pinch), ids.to_vec());
        let triangles =
            int_triangles(&pinch, &[([0, 1, 2], [none, none, none]), ([2, 3, 4], [none, none, none])]);
        assert_eq!(check_sides_pair_up(&triangles, &ids, edges), Ok(()));
    }

    #[test]
    fn delaunay_has_a_better_minimum_angle_than_ear_clipping_on_a_fan() {
        // A long strip with many points on both sides: earcut makes slivers.
        let mut outer: Vec<Point> = (0..=20).map(|i| Point::new(i as f64, 0.0)).collect();
        outer.extend((0..=20).rev().map(|i| Point::new(i as f64 + 0.5, 1.0)));
        let polygon = MergedPolygon { outer, holes: vec![] };
        let worst = |t: Vec<[Point; 3]>| {
            t.iter().map(|&[a, b, c]| trinav::geometry::min_angle_deg(a, b, c)).fold(180.0, f64::min)
        };
        let (ear, cdt) = (ear_clip(&polygon).unwrap(), constrained_delaunay(&polygon).unwrap());
        assert_eq!(area(&ear), area(&cdt));
        assert!(worst(cdt) >= worst(ear));
    }
}
