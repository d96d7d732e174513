//! Obstacles: the polygon as given, the region it blocks (inflated by the agent radius, as a
//! bake inflates), and the base triangles that region meets (its footprint).

use geo::{Intersects, LineString, MultiPolygon, Polygon, Triangle};
use trinav::{Aabb, BakeSettings, Point};
use trinav_bake::PolygonInput;
use trinav_bake::merge::{MergedPolygon, blocked_region};
use trinav_bake::validate::{PolygonKind, validate_polygon};

use crate::EditError;

/// An obstacle's id: the order obstacles were added in, from 0, never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObstacleId(pub u32);

impl std::fmt::Display for ObstacleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An obstacle of an editable mesh.
#[derive(Clone, Debug)]
pub(crate) struct Obstacle {
    /// The polygon as given.
    pub(crate) polygon: PolygonInput,
    /// The region it blocks: the polygon inflated by the agent radius.
    pub(crate) blocked: Vec<MergedPolygon>,
    /// The same region for intersection tests.
    shape: MultiPolygon<f64>,
    /// The bounding box of `blocked`.
    pub(crate) bounds: Aabb,
    /// The base triangles `blocked` meets (closed sets), ascending.
    pub(crate) footprint: Vec<u32>,
}

impl Obstacle {
    /// Checks `polygon` as a bake checks an obstacle (stage 1; errors name it as obstacle
    /// `id`) and inflates it as stage 2 does. The footprint is left empty.
    pub(crate) fn new(
        polygon: &PolygonInput,
        id: ObstacleId,
        settings: &BakeSettings,
    ) -> Result<Obstacle, EditError> {
        let (clean, _) = validate_polygon(polygon, PolygonKind::Obstacle, id.0 as usize)?;
        let blocked = blocked_region(std::slice::from_ref(&clean), settings)
            .map_err(|e| EditError::Internal(e.to_string()))?;
        let bounds = Aabb::from_points(blocked.iter().flat_map(|p| p.rings().flatten().copied()));
        let line = |ring: &Vec<Point>| {
            let mut coords: Vec<geo::Coord<f64>> =
                ring.iter().map(|p| geo::Coord { x: p.x, y: p.y }).collect();
            coords.push(coords[0]);
            LineString(coords)
        };
        let shape = MultiPolygon(
            (blocked.iter())
                .map(|p| Polygon::new(line(&p.outer), p.holes.iter().map(line).collect()))
                .collect(),
        );
        Ok(Obstacle { polygon: polygon.clone(), blocked, shape, bounds, footprint: Vec::new() })
    }

    /// Whether the closed region it blocks meets the closed triangle `tri`.
    pub(crate) fn meets(&self, tri: &[Point; 3]) -> bool {
        let b = Aabb::from_points(*tri);
        let apart = b.max.x < self.bounds.min.x
            || self.bounds.max.x < b.min.x
            || b.max.y < self.bounds.min.y
            || self.bounds.max.y < b.min.y;
        if apart {
            return false;
        }
        let [a, b, c] = tri.map(|p| geo::Coord { x: p.x, y: p.y });
        self.shape.intersects(&Triangle::new(a, b, c))
    }
}

/// `polygon` moved by `(dx, dy)`.
pub(crate) fn translated(polygon: &PolygonInput, [dx, dy]: [f64; 2]) -> PolygonInput {
    let ring = |r: &Vec<[f64; 2]>| r.iter().map(|&[x, y]| [x + dx, y + dy]).collect();
    PolygonInput { outer: ring(&polygon.outer), holes: polygon.holes.iter().map(ring).collect() }
}
