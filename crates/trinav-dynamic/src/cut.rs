//! The cut: a set of base triangles minus the regions obstacles block, triangulated.
//!
//! The triangles' union minus the blocked polygons is one boolean operation of the i_overlay
//! engine on its integer grid (non-zero rule: the triangles, all counter-clockwise, union; the
//! blocked rings subtract, holes included). Every input point is converted to the grid, and
//! every grid point of the result that one of them became is mapped back to that point, bit for
//! bit: the base triangles' corners, on the region's border and wherever else they survive, and
//! the blocked rings' points come out exactly as they went in; only crossings are new points,
//! rounded to the grid (as stage 2 of a bake rounds them). Rings get back any input point lying
//! exactly on one of their edges (the engine drops points between two collinear edges), so the
//! border the region shares with the kept triangles keeps every vertex. The region is then
//! triangulated by stage 3 of the baker with the mesh's own method.

use foldhash::{HashMap, HashMapExt};
use geo::{LineString, MultiPolygon, Polygon};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::{ContourDirection, IntOverlayOptions, Overlay};
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::core::solver::Solver;
use i_overlay::i_float::adapter::FloatPointAdapter;
use i_overlay::i_float::float::rect::FloatRect;
use i_overlay::i_float::int::point::IntPoint;
use trinav::build::position_key;
use trinav::geometry::{Orientation, orient};
use trinav::{LayerId, Point, Triangulation};
use trinav_bake::merge::{MergedPolygon, MergedRegion, insert_points, to_merged};
use trinav_bake::triangulate::triangulate;

use crate::EditError;

/// `triangles` (counter-clockwise, edge-connected or not) minus the union of `blocked`,
/// triangulated with `method`.
pub(crate) fn cut(
    triangles: &[[Point; 3]],
    blocked: &[&MergedPolygon],
    method: Triangulation,
) -> Result<Vec<[Point; 3]>, EditError> {
    let mut polygons = difference(triangles, blocked)?;
    insert_points(&mut polygons, inputs(triangles, blocked).copied());
    triangulated(polygons, method)
}

/// [`cut`] on a layered mesh: each layer's `triangles` minus that layer's `blocked`, with the
/// layers' walkable parts of each of `portals` (segments on the border of the two layers'
/// triangles it names) split at the same points on both sides, so that the parts walkable on both layers are edges
/// of both (they stay a portal) and the others walls. A point counts as on a portal when it lies
/// exactly on it: a crossing the boolean engine rounded off the segment's line closes the
/// portal's part next to it on both sides (a bake refuses such a level).
pub(crate) fn cut_layered(
    triangles: &[([Point; 3], LayerId)],
    blocked: &[(&MergedPolygon, LayerId)],
    portals: &[(Point, Point, [LayerId; 2])],
    method: Triangulation,
) -> Result<Vec<([Point; 3], LayerId)>, EditError> {
    let mut layers: Vec<LayerId> = triangles.iter().map(|&(_, l)| l).collect();
    layers.sort_unstable();
    layers.dedup();
    let mut regions = Vec::with_capacity(layers.len());
    for &layer in &layers {
        let own: Vec<[Point; 3]> = triangles.iter().filter(|t| t.1 == layer).map(|t| t.0).collect();
        let walls: Vec<&MergedPolygon> = blocked.iter().filter(|b| b.1 == layer).map(|b| b.0).collect();
        let mut polygons = difference(&own, &walls)?;
        insert_points(&mut polygons, inputs(&own, &walls).copied());
        regions.push(polygons);
    }
    for &(a, b, sides) in portals {
        let sides: Vec<usize> =
            (layers.iter().enumerate()).filter(|(_, l)| sides.contains(l)).map(|(i, _)| i).collect();
        // The points of either side on the segment, its ends included, in order along it.
        let along = |p: Point| (p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y);
        let on = |p: Point| orient(a, b, p) == Orientation::Collinear && (0.0..=along(b)).contains(&along(p));
        let mut points: Vec<Point> = vec![a, b];
        for &i in &sides {
            points.extend(regions[i].iter().flat_map(MergedPolygon::rings).flatten().filter(|&&p| on(p)));
        }
        points.sort_by(|p, q| along(*p).total_cmp(&along(*q)));
        points.dedup_by_key(|p| position_key(*p));
        for &i in &sides {
            insert_points(&mut regions[i], points.iter().copied());
        }
    }
    let mut out = Vec::new();
    for (polygons, &layer) in regions.into_iter().zip(&layers) {
        out.extend(triangulated(polygons, method)?.into_iter().map(|t| (t, layer)));
    }
    Ok(out)
}

/// The points of a cut's input: the triangles' corners and the blocked rings' points.
fn inputs<'a>(triangles: &'a [[Point; 3]], blocked: &'a [&MergedPolygon]) -> impl Iterator<Item = &'a Point> {
    triangles.iter().flatten().chain(blocked.iter().flat_map(|p| p.rings().flatten()))
}

/// `polygons` triangulated by stage 3 of the baker.
fn triangulated(polygons: Vec<MergedPolygon>, method: Triangulation) -> Result<Vec<[Point; 3]>, EditError> {
    let region = MergedRegion { polygons, inflated_obstacles: Vec::new(), ..MergedRegion::default() };
    let soup = triangulate(&region, method).map_err(|e| EditError::Internal(format!("cut: {e}")))?;
    Ok(soup.corners().collect())
}

/// The union of `triangles` minus the union of `blocked`, as polygons (not yet given back the
/// input points lying on their edges).
fn difference(triangles: &[[Point; 3]], blocked: &[&MergedPolygon]) -> Result<Vec<MergedPolygon>, EditError> {
    let corners: Vec<[f64; 2]> = inputs(triangles, blocked).map(|p| [p.x, p.y]).collect();
    let Some(rect) = FloatRect::with_iter(corners.iter()).ok().flatten() else {
        return Ok(Vec::new());
    };
    let adapter = FloatPointAdapter::<[f64; 2], i32>::new_conservative(rect);
    let mut original: HashMap<IntPoint<i32>, Point> = HashMap::with_capacity(corners.len());
    let mut to_grid = |p: Point| -> Result<IntPoint<i32>, EditError> {
        let q = adapter.float_to_int(&[p.x, p.y]);
        let first = *original.entry(q).or_insert(p);
        if position_key(first) != position_key(p) {
            return Err(EditError::Precision { first, second: p });
        }
        Ok(q)
    };
    let mut subject: Vec<Vec<IntPoint<i32>>> = Vec::with_capacity(triangles.len());
    for tri in triangles {
        subject.push(tri.iter().map(|&p| to_grid(p)).collect::<Result<_, _>>()?);
    }
    let mut clip: Vec<Vec<IntPoint<i32>>> = Vec::new();
    for polygon in blocked {
        for ring in polygon.rings() {
            clip.push(ring.iter().map(|&p| to_grid(p)).collect::<Result<_, _>>()?);
        }
    }
    let options = IntOverlayOptions {
        preserve_input_collinear: true,
        output_direction: ContourDirection::CounterClockwise,
        preserve_output_collinear: true,
        min_output_area: 0,
        ogc: false,
    };
    let shapes = Overlay::from_subj_and_clip_custom(&subject, &clip, options, Solver::default())
        .overlay(OverlayRule::Difference, FillRule::NonZero);

    let back = |q: &IntPoint<i32>| {
        original.get(q).copied().unwrap_or_else(|| {
            let [x, y] = adapter.int_to_float(q);
            Point::new(x, y)
        })
    };
    let ring = |contour: &Vec<IntPoint<i32>>| {
        let mut coords: Vec<geo::Coord<f64>> =
            contour.iter().map(&back).map(|p| geo::Coord { x: p.x, y: p.y }).collect();
        if let Some(&first) = coords.first() {
            coords.push(first);
        }
        LineString(coords)
    };
    let region = MultiPolygon(
        (shapes.iter())
            .filter(|shape| !shape.is_empty())
            .map(|shape| Polygon::new(ring(&shape[0]), shape[1..].iter().map(ring).collect()))
            .collect(),
    );
    to_merged(region).map_err(|e| EditError::Internal(format!("cut: {e}")))
}
