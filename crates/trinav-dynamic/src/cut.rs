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
use trinav::{Point, Triangulation};
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
    let inputs = || triangles.iter().flatten().chain(blocked.iter().flat_map(|p| p.rings().flatten()));
    let corners: Vec<[f64; 2]> = inputs().map(|p| [p.x, p.y]).collect();
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
    let mut polygons = to_merged(region).map_err(|e| EditError::Internal(format!("cut: {e}")))?;
    insert_points(&mut polygons, inputs().copied());
    let region = MergedRegion { polygons, inflated_obstacles: Vec::new(), ..MergedRegion::default() };
    let soup = triangulate(&region, method).map_err(|e| EditError::Internal(format!("cut: {e}")))?;
    Ok(soup.corners().collect())
}
