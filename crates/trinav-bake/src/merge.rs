//! Stage 2, merge: boolean operations that turn the level's polygons into the walkable region.
//!
//! - The region of one input polygon is its outer ring minus the union of its holes (holes may
//!   overlap each other and cross the outer ring).
//! - walkable region = union(walkable regions) − inflate(union(obstacle regions), agent radius).
//! - Inflation is geo's buffer with round joins; each arc is cut into chords whose angle is
//!   chosen so that no chord lies more than `arc_error * agent_radius` inside the true arc
//!   (the chords' ends lie on the arc). A hole of an obstacle shrinks by the radius; what is
//!   left of it is walkable only where a walkable polygon covers it.
//!
//! - With area entries, the walkable region is sliced by every entry's rings into pieces (one
//!   operation: each crossing is computed once), each piece taking the type of the last entry
//!   covering it (0 where none does). The pieces' rings are noded together, so neighbouring
//!   pieces meet vertex to vertex and their triangles share edges. An entry's point that falls
//!   on the engine grid point of a region point (a region corner the engine rounded) takes the
//!   region's point: the region stays as merged, the type boundary moves by less than a step.
//!
//! All boolean work is geo's `BooleanOps` and `Buffer` (the i_overlay engine). That engine
//! computes on a fixed-point grid of spacing `2^(k-29)` for a level whose half-extent is in
//! `[2^k, 2^(k+1))`: input points on that grid, which includes every integer point within
//! ±2^28, come out exactly; new points (crossings, arcs) are rounded to it.

use geo::algorithm::bool_ops::FillRule;
use geo::algorithm::buffer::{BufferStyle, LineJoin};
use geo::coordinate_position::{CoordPos, CoordinatePosition};
use geo::orient::{Direction, Orient};
use geo::{BooleanOps, Buffer, LineString, MultiPolygon, Polygon, unary_union};
use trinav::geometry::{Orientation, closest_point_on_segment, orient};
use trinav::{Aabb, AreaId, BakeSettings, Point};

use crate::segment_points::{LatticePoints, SegmentPoints};
use crate::validate::{CleanPolygon, Ring, ValidatedLevel};

/// One polygon of the walkable region: a counter-clockwise outer ring and clockwise holes, all
/// open (no repeated closing point).
#[derive(Clone, Debug, PartialEq)]
pub struct MergedPolygon {
    /// Outer ring, counter-clockwise.
    pub outer: Ring,
    /// Holes, clockwise.
    pub holes: Vec<Ring>,
}

impl MergedPolygon {
    /// All rings: the outer ring first, then the holes.
    pub fn rings(&self) -> impl Iterator<Item = &Ring> {
        std::iter::once(&self.outer).chain(&self.holes)
    }

    /// Area (outer minus holes), by the shoelace formula.
    pub fn area(&self) -> f64 {
        ring_signed_area(&self.outer) + self.holes.iter().map(|h| ring_signed_area(h)).sum::<f64>()
    }
}

/// The output of stage 2: the walkable region as disjoint polygons with holes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MergedRegion {
    /// The polygons, in the order the boolean engine returns them (deterministic).
    pub polygons: Vec<MergedPolygon>,
    /// The inflated obstacles that were subtracted (for drawing and debugging).
    pub inflated_obstacles: Vec<MergedPolygon>,
    /// The walkable region cut by area type (empty when the level has no area entries, and
    /// then all of it is area 0): disjoint polygons covering the region, meeting vertex to
    /// vertex. Stage 3 triangulates these instead of `polygons` when there are any.
    pub area_pieces: Vec<AreaPiece>,
}

/// A part of the walkable region with one area type.
#[derive(Clone, Debug, PartialEq)]
pub struct AreaPiece {
    /// The part.
    pub polygon: MergedPolygon,
    /// Its type.
    pub area: AreaId,
}

impl MergedRegion {
    /// Total area of the walkable region.
    pub fn area(&self) -> f64 {
        self.polygons.iter().map(MergedPolygon::area).sum()
    }

    /// Total number of ring points.
    pub fn point_count(&self) -> usize {
        self.polygons.iter().flat_map(MergedPolygon::rings).map(Vec::len).sum()
    }
}

/// Signed area of an open ring (positive when counter-clockwise).
pub fn ring_signed_area(ring: &[Point]) -> f64 {
    ring_area_with_error(ring).0
}

/// Signed area of an open ring and a bound on its floating-point error. The shoelace sum runs
/// on coordinates relative to the first point, so a small ring far from the origin keeps its
/// precision.
pub fn ring_area_with_error(ring: &[Point]) -> (f64, f64) {
    let Some(&origin) = ring.first() else { return (0.0, 0.0) };
    let n = ring.len();
    let (mut twice, mut magnitude) = (0.0, 0.0);
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let (ax, ay, bx, by) = (a.x - origin.x, a.y - origin.y, b.x - origin.x, b.y - origin.y);
        twice += ax * by - bx * ay;
        magnitude += (ax * by).abs() + (bx * ay).abs();
    }
    // Each term: two rounded differences per factor and a rounded product and difference; then
    // n rounded additions.
    let error = (n as f64 + 6.0) * f64::EPSILON * magnitude * 0.5;
    (twice * 0.5, error)
}

/// The chord angle (radians) for round joins of radius `r` whose chords stay within
/// `arc_error * r` of the arc: the sagitta `r (1 - cos(θ/2))` equals the allowed error.
pub fn arc_step(arc_error: f64) -> f64 {
    2.0 * (1.0 - arc_error).acos()
}

/// Runs stage 2.
pub fn merge(level: &ValidatedLevel, settings: &BakeSettings) -> Result<MergedRegion, MergeError> {
    merge_on_grid(level, settings, None)
}

/// Runs stage 2 with the boolean engine's grid fixed by `grid`, integer bounds holding every
/// point of the level and of its inflation: the walkable union and the difference then round
/// each input point the same way whatever else the level holds, so that the layers of a
/// layered level, merged apart, meet point for point along their portals (decimal coordinates
/// included). `None`: each operation's own bounds (integer ones for the difference when
/// inflating, see [`integer_bounds`]).
pub(crate) fn merge_on_grid(
    level: &ValidatedLevel,
    settings: &BakeSettings,
    grid: Option<Aabb>,
) -> Result<MergedRegion, MergeError> {
    let walkable = union_on_grid(&level.walkable, grid);
    let inflate = settings.agent_radius > 0.0 && !level.obstacles.is_empty();
    let mut inflated = if inflate {
        inflated(&level.obstacles, settings)
    } else {
        // No inflation: the difference below takes the overlapping obstacles as they are (the
        // non-zero rule makes it subtract their union), saving a separate union pass.
        MultiPolygon(level.obstacles.iter().flat_map(|p| polygon_region(p).0).collect())
    };
    // The difference's grid: the one given, else integer bounds when inflating.
    let difference_grid = grid.or_else(|| inflate.then(|| integer_bounds(&walkable, &inflated)).flatten());
    if let Some(bounds) = difference_grid
        && !inflated.0.is_empty()
    {
        inflated.0.extend(grid_markers(bounds));
    }
    let region = if inflated.0.is_empty() {
        walkable
    } else {
        walkable.difference_with_fill_rule(&inflated, FillRule::NonZero)
    };
    let mut polygons = to_merged(region)?;
    node_rings(&mut polygons);
    let area_pieces = area_pieces(&polygons, &level.areas)?;
    Ok(MergedRegion { polygons, inflated_obstacles: to_merged(inflated)?, area_pieces })
}

/// Cuts the walkable region (`polygons`, noded) by the area entries' rings into pieces, each
/// with the type of the last entry covering it (0 where none does); empty when there are no
/// entries.
///
/// One slice of the i_overlay engine on its integer grid (the region as the shape, every
/// entry's rings as lines): every crossing is computed once, so neighbouring pieces share
/// their boundary points exactly. Input points are mapped back bit for bit; crossings are new
/// points rounded to the grid, as in the rest of this stage. A piece's type is the type at an
/// inner point (the centroid of the largest triangle of an ear clipping of it), by an exact
/// winding test against the entries' rings.
fn area_pieces(
    polygons: &[MergedPolygon],
    areas: &[(CleanPolygon, AreaId)],
) -> Result<Vec<AreaPiece>, MergeError> {
    use i_overlay::core::fill_rule::FillRule as IntFillRule;
    use i_overlay::core::overlay::{ContourDirection, IntOverlayOptions};
    use i_overlay::i_float::adapter::FloatPointAdapter;
    use i_overlay::i_float::float::rect::FloatRect;
    use i_overlay::i_float::int::point::IntPoint;
    use i_overlay::string::overlay::StringOverlay;
    use i_overlay::string::rule::StringRule;

    if areas.is_empty() || polygons.is_empty() {
        return Ok(Vec::new());
    }
    let area_rings = || areas.iter().flat_map(|(p, _)| std::iter::once(&p.outer).chain(&p.holes));
    let inputs = || polygons.iter().flat_map(MergedPolygon::rings).chain(area_rings()).flatten();
    let corners: Vec<[f64; 2]> = inputs().map(|p| [p.x, p.y]).collect();
    let Some(rect) = FloatRect::with_iter(corners.iter()).ok().flatten() else {
        return Ok(Vec::new());
    };
    let adapter = FloatPointAdapter::<[f64; 2], i32>::new_conservative(rect);
    // Each grid point's input point, and whether it is a point of the region's rings.
    let mut original: foldhash::HashMap<IntPoint<i32>, (Point, bool)> = foldhash::HashMap::default();
    let mut to_grid = |p: Point, of_region: bool| -> Result<IntPoint<i32>, MergeError> {
        let q = adapter.float_to_int(&[p.x, p.y]);
        let (first, first_of_region) = *original.entry(q).or_insert((p, of_region));
        // An entry's point on the grid point of a region point (a region corner the boolean
        // engine rounded, next to the integer corner of an entry) takes the region's point:
        // the walkable region stays as it is, the type boundary moves by less than a grid
        // step, as at the crossings. Two region points, or two entry points, on one grid
        // point cannot be told apart.
        if trinav::build::position_key(first) != trinav::build::position_key(p)
            && (of_region || !first_of_region)
        {
            return Err(MergeError::AreaPrecision { first, second: p });
        }
        Ok(q)
    };
    let mut shape: Vec<Vec<IntPoint<i32>>> = Vec::new();
    for ring in polygons.iter().flat_map(MergedPolygon::rings) {
        shape.push(ring.iter().map(|&p| to_grid(p, true)).collect::<Result<_, _>>()?);
    }
    let mut lines: Vec<Vec<IntPoint<i32>>> = Vec::new();
    for ring in area_rings() {
        lines.push(ring.iter().map(|&p| to_grid(p, false)).collect::<Result<_, _>>()?);
    }
    let options = IntOverlayOptions {
        preserve_input_collinear: true,
        output_direction: ContourDirection::CounterClockwise,
        preserve_output_collinear: true,
        min_output_area: 0,
        ogc: false,
    };
    let mut overlay = StringOverlay::with_options(shape.len() + lines.len(), options);
    overlay.add_shape_source(&shape);
    overlay.add_string_contour_source(&lines);
    let faces = (overlay.build_graph_view(IntFillRule::NonZero))
        .map(|graph| graph.extract_shapes(StringRule::Slice))
        .unwrap_or_default();

    // New points (crossings) on a region edge go back onto that edge, not to the grid: the
    // region's walls may lie off the grid (an agent radius moves them), and a crossing
    // rounded off a wall would move the walkable outline, which the bake's verification
    // refuses.
    let new_points: Vec<IntPoint<i32>> =
        faces.iter().flatten().flatten().copied().filter(|q| !original.contains_key(q)).collect();
    let on_walls = crossings_on_region_edges(&new_points, &shape, polygons, |q| {
        let [x, y] = adapter.int_to_float(q);
        Point::new(x, y)
    });
    let back = |q: &IntPoint<i32>| {
        original.get(q).map(|&(p, _)| p).or_else(|| on_walls.get(q).copied()).unwrap_or_else(|| {
            let [x, y] = adapter.int_to_float(q);
            Point::new(x, y)
        })
    };
    let ring = |contour: &Vec<IntPoint<i32>>, want: Orientation| -> Option<Ring> {
        let mut ring: Ring = contour.iter().map(&back).collect();
        match ring_orientation(&ring) {
            Orientation::Collinear => None,
            o if o == want => Some(ring),
            _ => {
                ring.reverse();
                Some(ring)
            }
        }
    };
    // A closed line inside a face comes back as a shape whose outer ring is also one of its
    // holes (the face inside the line; the line is a hole of the face around it as well): that
    // hole is dropped. The engine's grouping of holes is kept (to_merged's regrouping would
    // give the face around a line's hole to the face inside it, whose ring is the same).
    let same_ring = |a: &Vec<IntPoint<i32>>, b: &Vec<IntPoint<i32>>| {
        let key = |r: &Vec<IntPoint<i32>>| {
            let mut k: Vec<(i32, i32)> = r.iter().map(|p| (p.x, p.y)).collect();
            k.sort_unstable();
            k
        };
        a.len() == b.len() && key(a) == key(b)
    };
    let mut pieces: Vec<MergedPolygon> = Vec::with_capacity(faces.len());
    for face in faces.iter().filter(|face| !face.is_empty()) {
        let Some(outer) = ring(&face[0], Orientation::CounterClockwise) else { continue };
        let holes = (face[1..].iter())
            .filter(|h| !same_ring(h, &face[0]))
            .filter_map(|h| ring(h, Orientation::Clockwise))
            .collect();
        pieces.push(MergedPolygon { outer, holes });
    }
    // The input points the pieces keep (not an entry's point that gave way to a region point).
    let kept = inputs().copied().filter(|p| {
        let q = adapter.float_to_int(&[p.x, p.y]);
        original
            .get(&q)
            .is_some_and(|&(first, _)| trinav::build::position_key(first) == trinav::build::position_key(*p))
    });
    insert_points(&mut pieces, kept);
    node_rings(&mut pieces);
    pieces
        .into_iter()
        .map(|polygon| {
            let inner =
                inner_point(&polygon).ok_or(MergeError::NoInnerPoint { first_point: polygon.outer[0] })?;
            let area = (areas.iter().rev())
                .find(|(entry, _)| polygon_contains(entry, inner))
                .map_or(AreaId(0), |&(_, area)| area);
            Ok(AreaPiece { polygon, area })
        })
        .collect()
}

/// For each of `points` (grid points the boolean engine made) lying within two grid steps of an
/// edge of the region's rings (`shape` on the grid, `polygons` the same rings as they are), the
/// point of that edge nearest to its position (`to_float`): the crossing put back on the wall.
fn crossings_on_region_edges(
    points: &[i_overlay::i_float::int::point::IntPoint<i32>],
    shape: &[Vec<i_overlay::i_float::int::point::IntPoint<i32>>],
    polygons: &[MergedPolygon],
    to_float: impl Fn(&i_overlay::i_float::int::point::IntPoint<i32>) -> Point,
) -> foldhash::HashMap<i_overlay::i_float::int::point::IntPoint<i32>, Point> {
    use i_overlay::i_float::int::point::IntPoint;
    const REACH: f64 = 2.0;
    let mut snapped = foldhash::HashMap::default();
    if points.is_empty() {
        return snapped;
    }
    // The region's edges on the grid and as they are, bucketed by coarse cells of the grid.
    let edges: Vec<(IntPoint<i32>, IntPoint<i32>, Point, Point)> = (shape.iter())
        .zip(polygons.iter().flat_map(MergedPolygon::rings))
        .flat_map(|(grid, ring)| {
            (0..grid.len()).map(move |i| {
                let j = (i + 1) % grid.len();
                (grid[i], grid[j], ring[i], ring[j])
            })
        })
        .collect();
    let coordinates = || edges.iter().flat_map(|&(a, b, ..)| [a.x, a.y, b.x, b.y]).map(i64::from);
    let (min, max) = (coordinates().min().unwrap_or(0), coordinates().max().unwrap_or(0));
    let cell = ((max - min) / 256).max(1);
    let cell_of = |v: i64| (v - min).div_euclid(cell);
    let mut buckets: foldhash::HashMap<(i64, i64), Vec<u32>> = foldhash::HashMap::default();
    for (k, &(a, b, ..)) in edges.iter().enumerate() {
        let reach = REACH as i64 + 1;
        let (x0, x1) = (i64::from(a.x.min(b.x)) - reach, i64::from(a.x.max(b.x)) + reach);
        let (y0, y1) = (i64::from(a.y.min(b.y)) - reach, i64::from(a.y.max(b.y)) + reach);
        for cx in cell_of(x0)..=cell_of(x1) {
            for cy in cell_of(y0)..=cell_of(y1) {
                buckets.entry((cx, cy)).or_default().push(k as u32);
            }
        }
    }
    let on_grid = |q: IntPoint<i32>| Point::new(f64::from(q.x), f64::from(q.y));
    for q in points {
        let Some(near) = buckets.get(&(cell_of(i64::from(q.x)), cell_of(i64::from(q.y)))) else { continue };
        let grid_distance = |&k: &u32| {
            let (a, b, ..) = edges[k as usize];
            on_grid(*q).distance(closest_point_on_segment(on_grid(*q), on_grid(a), on_grid(b)))
        };
        let nearest = near.iter().map(|k| (grid_distance(k), *k)).min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, k)) = nearest.filter(|&(d, _)| d <= REACH) {
            let (.., fa, fb) = edges[k as usize];
            snapped.insert(*q, closest_point_on_segment(to_float(q), fa, fb));
        }
    }
    snapped
}

/// A point strictly inside `polygon`: the centroid of the largest triangle of its ear
/// clipping (constrained Delaunay if ear clipping fails).
fn inner_point(polygon: &MergedPolygon) -> Option<Point> {
    let triangles = crate::triangulate::ear_clip(polygon)
        .or_else(|_| crate::triangulate::constrained_delaunay(polygon))
        .ok()?;
    let [a, b, c] = triangles.into_iter().max_by(|x, y| doubled_area(x).total_cmp(&doubled_area(y)))?;
    Some(Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0))
}

fn doubled_area(&[a, b, c]: &[Point; 3]) -> f64 {
    trinav::geometry::doubled_signed_area(a, b, c)
}

/// Whether `p` is inside `polygon` (its outer ring, outside its holes), by winding numbers
/// with the exact predicate; a point on a ring counts as inside that ring.
fn polygon_contains(polygon: &CleanPolygon, p: Point) -> bool {
    winding(&polygon.outer, p) != 0 && polygon.holes.iter().all(|h| winding(h, p) == 0)
}

/// The winding number of `ring` about `p` (a point on the ring gives 1).
fn winding(ring: &[Point], p: Point) -> i32 {
    let mut winding = 0;
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        let side = orient(a, b, p);
        let within = p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y);
        if side == Orientation::Collinear && within {
            return 1;
        }
        if a.y <= p.y {
            if b.y > p.y && side == Orientation::CounterClockwise {
                winding += 1;
            }
        } else if b.y <= p.y && side == Orientation::Clockwise {
            winding -= 1;
        }
    }
    winding
}

/// The union of the obstacles' regions inflated by the agent radius (round joins, chords
/// within `arc_error × agent_radius` of the arcs): the region stage 2 cuts out of the walkable
/// area. For radius 0, the union itself.
pub fn blocked_region(
    obstacles: &[CleanPolygon],
    settings: &BakeSettings,
) -> Result<Vec<MergedPolygon>, MergeError> {
    if settings.agent_radius > 0.0 && !obstacles.is_empty() {
        to_merged(inflated(obstacles, settings))
    } else {
        to_merged(union_of(obstacles))
    }
}

/// The part of the level's obstacles that stands on its walkable region: their union clipped
/// to the walkable polygons' union (layers joined by portals inflate each other's obstacles
/// where they stand on their own layer).
pub(crate) fn obstacles_on_walkable(level: &ValidatedLevel) -> Result<Vec<MergedPolygon>, MergeError> {
    if level.obstacles.is_empty() {
        return Ok(Vec::new());
    }
    to_merged(union_of(&level.walkable).intersection(&union_of(&level.obstacles)))
}

/// Polygons as the boolean engine's multipolygon.
pub(crate) fn to_geo(polygons: &[MergedPolygon]) -> MultiPolygon<f64> {
    MultiPolygon(
        (polygons.iter())
            .map(|p| Polygon::new(line_string(&p.outer), p.holes.iter().map(|h| line_string(h)).collect()))
            .collect(),
    )
}

/// Integer corners just outside the bounds of `walkable` and `inflated` (`None` when both are
/// empty), for the difference's grid markers. The engine's grid is centred on the bounds of an
/// operation's points: inflated arcs sticking out of the walkable area would move that centre
/// off the half-integers, and integer points of the walkable outline would then be rounded (by
/// up to a grid step). With integer bounds they stay exact, as a portal's ends must for two
/// layers' edges along it to meet.
fn integer_bounds(walkable: &MultiPolygon<f64>, inflated: &MultiPolygon<f64>) -> Option<Aabb> {
    let bounds = (walkable.0.iter().chain(&inflated.0))
        .flat_map(|p| p.exterior().0.iter())
        .fold(Aabb::EMPTY, |b, c| b.grown(Point::new(c.x, c.y)));
    (!bounds.is_empty()).then(|| Aabb {
        min: Point::new(bounds.min.x.floor() - 1.0, bounds.min.y.floor() - 1.0),
        max: Point::new(bounds.max.x.ceil() + 1.0, bounds.max.y.ceil() + 1.0),
    })
}

/// Two polygons of one point each at the corners of `bounds`: no area (the engine and
/// [`to_merged`] drop them), but the engine's grid follows them.
fn grid_markers(bounds: Aabb) -> [Polygon<f64>; 2] {
    [bounds.min, bounds.max].map(|p| {
        let corner = geo::Coord { x: p.x, y: p.y };
        Polygon::new(LineString(vec![corner, corner]), Vec::new())
    })
}

/// The boolean engine's grid over `bounds` (i_overlay 4, through geo's `BooleanOps`; mirrors
/// `i_float` 1.16's `FloatPointAdapter::new`): centred on the bounds, spacing `2^-e` with
/// `e = 29 - round(log2(half the larger side))`. [`EngineGrid::snap`] gives the point the
/// engine puts `p` at. (Tested: a decimal point snapped here equals the engine's output for it.)
#[derive(Clone, Copy, Debug)]
pub(crate) struct EngineGrid {
    centre: Point,
    scale: f64,
    step: f64,
}

impl EngineGrid {
    /// The grid of an operation whose points have these bounds.
    pub(crate) fn new(bounds: Aabb) -> EngineGrid {
        let (width, height) = bounds.size();
        let (half_width, half_height) = (width * 0.5, height * 0.5);
        let centre = Point::new(bounds.min.x + half_width, bounds.min.y + half_height);
        let half = half_width.max(half_height);
        if half == 0.0 {
            return EngineGrid { centre, scale: 1.0, step: 1.0 };
        }
        let exponent = 29 - round_half_away(half.log2());
        EngineGrid { centre, scale: 2f64.powi(exponent), step: 2f64.powi(-exponent) }
    }

    /// Where the engine puts `p`.
    pub(crate) fn snap(&self, p: Point) -> Point {
        let back = |v: f64, c: f64| f64::from(round_half_away((v - c) * self.scale)) * self.step + c;
        Point::new(back(p.x, self.centre.x), back(p.y, self.centre.y))
    }
}

/// Rounds half away from zero to an `i32`, saturating, as the engine converts.
fn round_half_away(v: f64) -> i32 {
    (v + 0.5f64.copysign(v)) as i32
}

/// The union of the obstacles, inflated by the agent radius (> 0).
fn inflated(obstacles: &[CleanPolygon], settings: &BakeSettings) -> MultiPolygon<f64> {
    let style =
        BufferStyle::new(settings.agent_radius).line_join(LineJoin::Round(arc_step(settings.arc_error)));
    union_of(obstacles).buffer_with_style(style)
}

/// The boolean engine returned rings that do not form polygons.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// Two input points of a level with areas fall on one point of the boolean engine's grid.
    #[error(
        "points ({}, {}) and ({}, {}) are too close to tell apart on the boolean engine's grid (the areas' extent is too large for this detail)",
        .first.x, .first.y, .second.x, .second.y
    )]
    AreaPrecision {
        /// One point.
        first: Point,
        /// The other.
        second: Point,
    },
    /// An area piece has no inner point (it has no area): a bug.
    #[error("area piece starting at ({}, {}) has no inner point", .first_point.x, .first_point.y)]
    NoInnerPoint {
        /// The piece's first point.
        first_point: Point,
    },
    /// A hole lies inside no outer ring.
    #[error("boolean operations returned a hole ({points} points, starting at ({}, {})) inside no outer ring", .first_point.x, .first_point.y)]
    OrphanHole {
        /// The hole's first point.
        first_point: Point,
        /// Its number of points.
        points: usize,
    },
}

/// Inserts into every ring edge the ring points (of any ring) lying exactly on it, strictly
/// between its ends. The boolean engine can return a ring whose vertex touches the inside of
/// another ring's edge (an obstacle corner touching a wall) without a matching vertex on that
/// edge; after this, rings meet only at shared vertices. No point is created or moved. Rings
/// of integer points with horizontal and vertical edges only (a grid map's) are walked on the
/// lattice of their points, any others searched in buckets of points.
pub fn node_rings(polygons: &mut [MergedPolygon]) {
    let points = || polygons.iter().flat_map(MergedPolygon::rings).flatten().copied();
    let axis_aligned = polygons.iter().flat_map(MergedPolygon::rings).all(|ring| {
        let next = ring.iter().cycle().skip(1);
        ring.iter().zip(next).all(|(a, b)| a.x == b.x || a.y == b.y)
    });
    if let Some(lattice) = axis_aligned.then(|| LatticePoints::new(points)).flatten() {
        let inside = |a, b| lattice.strictly_inside(a, b).expect("every edge is on the lattice");
        return node_with(polygons, inside);
    }
    let buckets = SegmentPoints::new(points().map(|p| (p, p)));
    node_with(polygons, |a, b| buckets.strictly_inside(a, b));
}

/// Inserts into every ring edge the `points` lying exactly on it, strictly between its ends
/// (exact predicate), in order along the edge. No point is created or moved.
pub fn insert_points(polygons: &mut [MergedPolygon], points: impl IntoIterator<Item = Point>) {
    let buckets = SegmentPoints::new(points.into_iter().map(|p| (p, p)));
    node_with(polygons, |a, b| buckets.strictly_inside(a, b));
}

/// Inserts into every ring edge `a b` the points `inside(a, b)` (strictly inside it, in order
/// from `a`).
fn node_with(polygons: &mut [MergedPolygon], inside: impl Fn(Point, Point) -> Vec<Point>) {
    let node = |ring: &mut Ring| {
        // Rebuilt only from the first edge that holds a point (most rings hold none).
        let mut noded: Option<Ring> = None;
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            let mut inside = inside(a, b);
            if inside.is_empty() {
                if let Some(noded) = &mut noded {
                    noded.push(a);
                }
                continue;
            }
            let noded = noded.get_or_insert_with(|| ring[..i].to_vec());
            noded.push(a);
            inside.dedup();
            noded.extend(inside);
        }
        if let Some(noded) = noded {
            *ring = noded;
        }
    };
    for polygon in polygons {
        node(&mut polygon.outer);
        polygon.holes.iter_mut().for_each(node);
    }
}

/// The union of the regions of `polygons` (each its outer ring minus its holes).
fn union_of(polygons: &[CleanPolygon]) -> MultiPolygon<f64> {
    union_on_grid(polygons, None)
}

/// [`union_of`], on the engine's grid over `grid` when given (see [`merge_on_grid`]).
fn union_on_grid(polygons: &[CleanPolygon], grid: Option<Aabb>) -> MultiPolygon<f64> {
    let mut regions: Vec<MultiPolygon<f64>> = polygons.iter().map(polygon_region).collect();
    if regions.is_empty() {
        return MultiPolygon(Vec::new());
    }
    if let Some(bounds) = grid {
        regions.push(MultiPolygon(grid_markers(bounds).to_vec()));
    }
    unary_union(&regions).orient(Direction::Default)
}

/// The region of one polygon, outer ring counter-clockwise and holes clockwise.
fn polygon_region(polygon: &CleanPolygon) -> MultiPolygon<f64> {
    let outer = Polygon::new(line_string(&polygon.outer), Vec::new()).orient(Direction::Default);
    if polygon.holes.is_empty() {
        return MultiPolygon(vec![outer]);
    }
    let holes = MultiPolygon(
        (polygon.holes.iter())
            .map(|h| Polygon::new(line_string(h), Vec::new()).orient(Direction::Default))
            .collect(),
    );
    outer.difference_with_fill_rule(&holes, FillRule::NonZero).orient(Direction::Default)
}

fn line_string(ring: &[Point]) -> LineString<f64> {
    let mut coords: Vec<geo::Coord<f64>> = ring.iter().map(|p| geo::Coord { x: p.x, y: p.y }).collect();
    coords.push(coords[0]);
    LineString(coords)
}

/// Rebuilds polygons from the boolean engine's output: its outer rings and holes, each wound
/// the standard way (outer counter-clockwise, holes clockwise; orientation by the exact
/// predicate), with each hole given to the smallest outer ring that contains it. The engine's
/// grouping of holes is not trusted: i_overlay 4.5 can attach a hole to an outer ring far from
/// it (regression test `holes_are_given_to_the_outer_ring_that_contains_them`). Zero-area
/// rings are dropped.
pub fn to_merged(region: MultiPolygon<f64>) -> Result<Vec<MergedPolygon>, MergeError> {
    let wound = |ls: &LineString<f64>, want: Orientation| -> Option<Ring> {
        let mut ring: Ring = ls.0.iter().map(|c| Point::new(c.x, c.y)).collect();
        if ring.len() > 1 && ring.first() == ring.last() {
            ring.pop();
        }
        match ring_orientation(&ring) {
            Orientation::Collinear => None,
            o if o == want => Some(ring),
            _ => {
                ring.reverse();
                Some(ring)
            }
        }
    };
    // Outer rings with their bounds and area; the geo polygon for containment tests is built
    // only for outer rings some hole's bounds fall in, once.
    let mut outers: Vec<(Ring, Aabb, f64, std::cell::OnceCell<Polygon<f64>>)> = Vec::new();
    let mut holes: Vec<Ring> = Vec::new();
    for polygon in &region.0 {
        if let Some(ring) = wound(polygon.exterior(), Orientation::CounterClockwise) {
            let bounds = Aabb::from_points(ring.iter().copied());
            let area = ring_signed_area(&ring);
            outers.push((ring, bounds, area, std::cell::OnceCell::new()));
        }
        holes.extend(polygon.interiors().iter().filter_map(|h| wound(h, Orientation::Clockwise)));
    }
    let mut holes_of: Vec<Vec<Ring>> = vec![Vec::new(); outers.len()];
    let index = BoxIndex::new(outers.iter().map(|(_, b, _, _)| *b).collect());
    let mut candidates = Vec::new();
    for hole in holes {
        let bounds = Aabb::from_points(hole.iter().copied());
        candidates.clear();
        candidates.extend(index.containing(bounds));
        // The outer ring holding a hole holds its bounds: when only one outer ring's bounds
        // do, that is the one, and no containment test is needed.
        let parent = match candidates[..] {
            [] => None,
            [only] => Some(only),
            _ => (candidates.iter().copied())
                .filter(|&i| {
                    let (ring, _, _, shape) = &outers[i];
                    ring_inside(&hole, shape.get_or_init(|| Polygon::new(line_string(ring), Vec::new())))
                })
                .min_by(|&x, &y| outers[x].2.total_cmp(&outers[y].2)),
        };
        match parent {
            Some(i) => holes_of[i].push(hole),
            None => return Err(MergeError::OrphanHole { first_point: hole[0], points: hole.len() }),
        }
    }
    let polygons =
        outers.into_iter().zip(holes_of).map(|((outer, ..), holes)| MergedPolygon { outer, holes }).collect();
    Ok(polygons)
}

/// Boxes bucketed in a uniform grid over their bounds, for finding the boxes that contain a
/// given box (each box is listed in every cell it overlaps).
struct BoxIndex {
    boxes: Vec<Aabb>,
    bounds: Aabb,
    side: usize,
    /// Compressed rows: the boxes of cell `i` are `items[start[i]..start[i + 1]]`, ascending.
    start: Vec<u32>,
    items: Vec<u32>,
}

impl BoxIndex {
    fn new(boxes: Vec<Aabb>) -> BoxIndex {
        let bounds = boxes.iter().fold(Aabb::EMPTY, |b, x| b.grown(x.min).grown(x.max));
        // About one cell per box, coarser while the boxes would fill more than 16 entries each
        // (large boxes overlap many cells).
        let mut side = (boxes.len() as f64).sqrt().ceil().clamp(1.0, 1024.0) as usize;
        let mut index = BoxIndex { boxes, bounds, side, start: Vec::new(), items: Vec::new() };
        loop {
            index.side = side;
            let entries: usize = index.boxes.iter().map(|&b| index.cells(b).count()).sum();
            if entries <= 16 * index.boxes.len().max(1) || side == 1 {
                break;
            }
            side = side.div_ceil(2);
        }
        let mut start = vec![0u32; side * side + 1];
        for &b in &index.boxes {
            for c in index.cells(b) {
                start[c + 1] += 1;
            }
        }
        for c in 0..side * side {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; start[side * side] as usize];
        for (i, &b) in index.boxes.iter().enumerate() {
            for c in index.cells(b) {
                items[fill[c] as usize] = i as u32;
                fill[c] += 1;
            }
        }
        index.start = start;
        index.items = items;
        index
    }

    /// The (column, row) of the cell holding `p`, clamped to the grid.
    fn cell(&self, p: Point) -> (usize, usize) {
        let (w, h) = self.bounds.size();
        let at = |v: f64, min: f64, extent: f64| {
            let f = if extent > 0.0 { (v - min) / extent * self.side as f64 } else { 0.0 };
            (f as usize).min(self.side - 1)
        };
        (at(p.x, self.bounds.min.x, w), at(p.y, self.bounds.min.y, h))
    }

    /// The cells box `b` overlaps.
    fn cells(&self, b: Aabb) -> impl Iterator<Item = usize> + use<> {
        let ((c0, r0), (c1, r1)) = (self.cell(b.min), self.cell(b.max));
        let side = self.side;
        (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| r * side + c))
    }

    /// The boxes that contain box `b`, ascending.
    fn containing(&self, b: Aabb) -> impl Iterator<Item = usize> + '_ {
        let (c, r) = self.cell(b.min);
        let cell = r * self.side + c;
        (self.items[self.start[cell] as usize..self.start[cell + 1] as usize].iter())
            .map(|&i| i as usize)
            .filter(move |&i| self.boxes[i].contains(b.min) && self.boxes[i].contains(b.max))
    }
}

/// The orientation of a ring, exactly: the turn at its lowest-leftmost point (a corner of its
/// convex hull), or `Collinear` for a ring with no area.
fn ring_orientation(ring: &[Point]) -> Orientation {
    let n = ring.len();
    if n < 3 {
        return Orientation::Collinear;
    }
    let lowest = (0..n)
        .min_by(|&i, &j| (ring[i].x, ring[i].y).partial_cmp(&(ring[j].x, ring[j].y)).expect("finite"))
        .expect("n >= 3");
    match orient(ring[(lowest + n - 1) % n], ring[lowest], ring[(lowest + 1) % n]) {
        Orientation::Collinear => match ring_signed_area(ring) {
            a if a > 0.0 => Orientation::CounterClockwise,
            a if a < 0.0 => Orientation::Clockwise,
            _ => Orientation::Collinear,
        },
        turn => turn,
    }
}

/// Whether a hole ring lies inside an outer polygon: its first point (vertex or edge midpoint)
/// that is not on the outer ring decides. A valid hole touches its outer ring at points only.
fn ring_inside(hole: &[Point], outer: &Polygon<f64>) -> bool {
    let n = hole.len();
    let probes = (0..n).flat_map(|i| [hole[i], hole[i].midpoint(hole[(i + 1) % n])]);
    for p in probes {
        match outer.coordinate_position(&geo::Coord { x: p.x, y: p.y }) {
            CoordPos::Inside => return true,
            CoordPos::Outside => return false,
            CoordPos::OnBoundary => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Level, PolygonInput};
    use crate::validate::validate;

    fn merged(level: &Level, radius: f64) -> MergedRegion {
        let settings = BakeSettings::default().with_agent_radius(radius);
        merge(&validate(level).unwrap(), &settings).unwrap()
    }

    fn room(obstacles: Vec<PolygonInput>) -> Level {
        Level {
            walkable: vec![PolygonInput::rect(0., 0., 10., 10.)],
            obstacles,
            agent_radius: None,
            ..Level::default()
        }
    }

    #[test]
    fn noding_puts_ring_points_into_the_edges_they_touch_on_the_lattice_and_off_it() {
        // Holes with vertices inside the outer ring's bottom and right edges (the rings need
        // not bound a region for noding): each such vertex joins the edge, in order along it.
        let p = |x: f64, y: f64| Point::new(x, y);
        let outer = vec![p(0., 0.), p(10., 0.), p(10., 10.), p(0., 10.)];
        let hole = vec![p(4., 0.), p(4., 2.), p(10., 3.5), p(10., 3.), p(6., 1.), p(6., 0.)];
        let noded_outer = vec![
            p(0., 0.),
            p(4., 0.),
            p(6., 0.),
            p(10., 0.),
            p(10., 3.),
            p(10., 3.5),
            p(10., 10.),
            p(0., 10.),
        ];
        // On the lattice (integer points, horizontal and vertical edges only) and off it (the
        // same rings scaled by 0.5: halves, and one oblique edge in the hole).
        for scale in [1.0, 0.5] {
            let scaled =
                |ring: &[Point]| ring.iter().map(|q| p(q.x * scale, q.y * scale)).collect::<Vec<_>>();
            let axis_hole: Vec<Point> =
                vec![p(4., 0.), p(4., 2.), p(10., 2.), p(10., 1.), p(6., 1.), p(6., 0.)];
            for (hole, expected) in [
                (
                    &axis_hole,
                    vec![
                        p(0., 0.),
                        p(4., 0.),
                        p(6., 0.),
                        p(10., 0.),
                        p(10., 1.),
                        p(10., 2.),
                        p(10., 10.),
                        p(0., 10.),
                    ],
                ),
                (&hole, noded_outer.clone()),
            ] {
                let mut polygons = vec![MergedPolygon { outer: scaled(&outer), holes: vec![scaled(hole)] }];
                node_rings(&mut polygons);
                assert_eq!(polygons[0].outer, scaled(&expected));
                assert_eq!(polygons[0].holes[0], scaled(hole));
            }
        }
    }

    #[test]
    fn overlapping_obstacles_are_unioned() {
        let region =
            merged(&room(vec![PolygonInput::rect(2., 2., 5., 5.), PolygonInput::rect(4., 4., 7., 7.)]), 0.0);
        assert_eq!(region.polygons.len(), 1);
        assert_eq!(region.polygons[0].holes.len(), 1);
        assert_eq!(region.area(), 100.0 - (9.0 + 9.0 - 1.0));
    }

    #[test]
    fn obstacle_crossing_the_outline_is_clipped() {
        let region = merged(&room(vec![PolygonInput::rect(8., 2., 12., 4.)]), 0.0);
        assert_eq!(region.polygons.len(), 1);
        assert!(region.polygons[0].holes.is_empty());
        assert_eq!(region.area(), 100.0 - 4.0);
    }

    #[test]
    fn touching_obstacles_and_integer_points_stay_exact() {
        // Two obstacles sharing an edge, one more meeting them at a corner.
        let region = merged(
            &room(vec![
                PolygonInput::rect(2., 2., 4., 4.),
                PolygonInput::rect(4., 2., 6., 4.),
                PolygonInput::rect(6., 4., 7., 5.),
            ]),
            0.0,
        );
        assert_eq!(region.area(), 100.0 - 8.0 - 1.0);
        for p in region.polygons.iter().flat_map(MergedPolygon::rings).flatten() {
            assert_eq!((p.x.fract(), p.y.fract()), (0.0, 0.0), "{p:?} moved off the integers");
        }
    }

    #[test]
    fn obstacle_hole_is_walkable_only_where_walkable_covers_it() {
        let ring = PolygonInput::rect(2., 2., 8., 8.).with_hole(vec![[4., 4.], [6., 4.], [6., 6.], [4., 6.]]);
        let region = merged(&room(vec![ring.clone()]), 0.0);
        // The courtyard stays walkable: the room covers it.
        assert_eq!(region.polygons.len(), 2);
        assert_eq!(region.area(), 100.0 - 36.0 + 4.0);
        // Without a walkable polygon under the courtyard, nothing there is walkable.
        let mut level = room(vec![ring]);
        level.walkable = vec![PolygonInput::rect(0., 0., 10., 2.)];
        assert_eq!(merged(&level, 0.0).area(), 20.0);
    }

    #[test]
    fn holes_crossing_the_outer_ring_and_each_other() {
        let polygon = PolygonInput::rect(0., 0., 10., 10.)
            .with_hole(vec![[-2., 4.], [3., 4.], [3., 6.], [-2., 6.]])
            .with_hole(vec![[2., 4.], [5., 4.], [5., 6.], [2., 6.]]);
        let level = Level { walkable: vec![polygon], ..Level::default() };
        // Holes cover x in [0, 5] x [4, 6] inside the square.
        assert_eq!(merged(&level, 0.0).area(), 100.0 - 10.0);
    }

    #[test]
    fn holes_are_given_to_the_outer_ring_that_contains_them() {
        // Generated level on which i_overlay 4.5 attached two holes to an outer ring far from
        // them (the polygon's area came out negative).
        let level = crate::generate::scattered_obstacles(1000, 5);
        let region = merged(&level, 0.5);
        for polygon in &region.polygons {
            let outer = Polygon::new(line_string(&polygon.outer), Vec::new());
            assert!(polygon.area() > 0.0);
            for hole in &polygon.holes {
                assert!(ring_inside(hole, &outer), "hole at {:?} outside its outer ring", hole[0]);
            }
        }
    }

    #[test]
    fn tiny_far_polygon_area_is_precise() {
        // A sliver about 1e-6 wide and 1 high at (1e5, 1e5). Its exact area is its stored width
        // (an exact difference) times 1; an untranslated shoelace loses about 1e-6 relative.
        let ring =
            [(0.0, 0.0), (1e-6, 0.0), (1e-6, 1.0), (0.0, 1.0)].map(|(x, y)| Point::new(1e5 + x, 1e5 + y));
        let exact = ring[1].x - ring[0].x;
        let (area, error) = ring_area_with_error(&ring);
        assert!((area - exact).abs() <= error, "{area} vs {exact}");
        assert!((area - exact).abs() < 1e-20 && error < 1e-18, "{area} vs {exact}, bound {error}");
    }

    #[test]
    fn the_engine_grid_puts_points_where_the_engine_does() {
        // Decimal corners, on a grid fixed by the bounds (as every layer of a layered level is
        // merged): each output point is the snapped input point.
        let bounds = Aabb { min: Point::new(-3.0, -2.0), max: Point::new(31.0, 17.0) };
        let grid = EngineGrid::new(bounds);
        let corners = [(0.1, 0.3), (10.3, 0.3), (10.3, 9.7), (0.1, 9.7)];
        let level = Level {
            walkable: vec![PolygonInput::new(corners.iter().map(|&(x, y)| [x, y]).collect())],
            obstacles: vec![PolygonInput::rect(2.2, 2.2, 3.3, 3.3)],
            ..Level::default()
        };
        for radius in [0.0, 0.5] {
            let settings = BakeSettings::default().with_agent_radius(radius);
            let region = merge_on_grid(&validate(&level).unwrap(), &settings, Some(bounds)).unwrap();
            let outer = &region.polygons[0].outer;
            for &(x, y) in &corners {
                let snapped = grid.snap(Point::new(x, y));
                assert!(outer.contains(&snapped), "{snapped:?} is not in {outer:?}");
                assert_ne!(snapped, Point::new(x, y), "{x} and {y} are off the grid");
            }
        }
    }

    #[test]
    fn inflation_stays_within_the_stated_arc_error() {
        let (r, arc_error) = (1.0, BakeSettings::default().arc_error);
        let region = merged(&room(vec![PolygonInput::rect(4., 4., 6., 6.)]), r);
        let hole = &region.polygons[0].holes[0];
        let dist_to_square = |p: Point| {
            let dx = (4.0 - p.x).max(p.x - 6.0).max(0.0);
            let dy = (4.0 - p.y).max(p.y - 6.0).max(0.0);
            dx.hypot(dy)
        };
        let tolerance = 1e-6; // the engine's fixed-point grid
        for i in 0..hole.len() {
            let (a, b) = (hole[i], hole[(i + 1) % hole.len()]);
            for p in [a, a.midpoint(b)] {
                let d = dist_to_square(p);
                assert!(d <= r + tolerance, "{p:?} is {d} from the obstacle");
                assert!(d >= r * (1.0 - arc_error) - tolerance, "{p:?} is {d} from the obstacle");
            }
        }
        // Area between the exact rounded square (4 + 8r + πr²) and the chord polygon.
        let exact = 4.0 + 8.0 * r + std::f64::consts::PI * r * r;
        let inflated = -ring_signed_area(hole);
        assert!(inflated < exact && inflated > exact * 0.99, "{inflated} vs {exact}");
    }
}
