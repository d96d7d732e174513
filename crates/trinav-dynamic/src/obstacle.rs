//! Obstacles: the polygon as given, the region it blocks (inflated by the agent radius, as a
//! bake inflates), and the base triangles that region meets (its footprint).

use trinav::geometry::{Orientation, orient};
use trinav::{Aabb, BakeSettings, LayerId, Point};
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
    /// The bounding box of `blocked`.
    pub(crate) bounds: Aabb,
    /// The base triangles `blocked` meets (closed sets), ascending; on a layered mesh those of
    /// its layer, and the triangles across the portal edges it meets.
    pub(crate) footprint: Vec<u32>,
    /// The layer it stands on (0 on a mesh without layers).
    pub(crate) layer: LayerId,
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
        Ok(Obstacle { polygon: polygon.clone(), blocked, bounds, footprint: Vec::new(), layer: LayerId(0) })
    }

    /// Whether the closed region it blocks meets the closed triangle `tri` (exact predicates):
    /// an edge of the region meets an edge of the triangle, or else one lies inside the other.
    pub(crate) fn meets(&self, tri: &[Point; 3]) -> bool {
        let b = Aabb::from_points(*tri);
        if !b.meets(&self.bounds) {
            return false;
        }
        for ring in self.blocked.iter().flat_map(MergedPolygon::rings) {
            for (i, &p) in ring.iter().enumerate() {
                let q = ring[(i + 1) % ring.len()];
                if b.meets(&Aabb::from_points([p, q]))
                    && (0..3).any(|k| segments_meet(p, q, tri[k], tri[(k + 1) % 3]))
                {
                    return true;
                }
            }
        }
        // No edges meet, so no corner of one lies on the other's boundary.
        self.blocked.iter().any(|polygon| strictly_inside(polygon, tri[0]))
            || self.blocked.iter().any(|polygon| in_triangle(tri, polygon.outer[0]))
    }
}

impl Obstacle {
    /// Whether the closed region it blocks meets the closed segment `ab`: [`Obstacle::meets`]
    /// on the triangle `a, b, b` (its edges are the segment twice and a point, and nothing lies
    /// strictly inside it).
    pub(crate) fn meets_segment(&self, a: Point, b: Point) -> bool {
        self.meets(&[a, b, b])
    }
}

/// The sign of an orientation: 1 counter-clockwise, -1 clockwise, 0 collinear.
fn sign(o: Orientation) -> i8 {
    match o {
        Orientation::CounterClockwise => 1,
        Orientation::Clockwise => -1,
        Orientation::Collinear => 0,
    }
}

/// Whether the closed segments `ab` and `cd` meet.
fn segments_meet(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (o1, o2) = (sign(orient(a, b, c)), sign(orient(a, b, d)));
    let (o3, o4) = (sign(orient(c, d, a)), sign(orient(c, d, b)));
    if o1 == 0 && o2 == 0 {
        // On one line: they meet where their boxes do.
        return Aabb::from_points([a, b]).meets(&Aabb::from_points([c, d]));
    }
    o1 * o2 <= 0 && o3 * o4 <= 0
}

/// Whether `p`, on no edge of `polygon`, lies inside it (crossings of a ray towards +x).
fn strictly_inside(polygon: &MergedPolygon, p: Point) -> bool {
    let mut inside = false;
    for ring in polygon.rings() {
        for (i, &a) in ring.iter().enumerate() {
            let b = ring[(i + 1) % ring.len()];
            if (a.y > p.y) != (b.y > p.y) {
                let side = orient(a, b, p);
                let upwards = b.y > a.y;
                if (upwards && side == Orientation::CounterClockwise)
                    || (!upwards && side == Orientation::Clockwise)
                {
                    inside = !inside;
                }
            }
        }
    }
    inside
}

/// Whether `p`, on no edge of the triangle `tri`, lies inside it.
fn in_triangle(tri: &[Point; 3], p: Point) -> bool {
    let sides = [0, 1, 2].map(|k| orient(tri[k], tri[(k + 1) % 3], p));
    sides[0] != Orientation::Collinear && sides.iter().all(|&s| s == sides[0])
}

/// `polygon` moved by `(dx, dy)`.
pub(crate) fn translated(polygon: &PolygonInput, [dx, dy]: [f64; 2]) -> PolygonInput {
    let ring = |r: &Vec<[f64; 2]>| r.iter().map(|&[x, y]| [x + dx, y + dy]).collect();
    PolygonInput { outer: ring(&polygon.outer), holes: polygon.holes.iter().map(ring).collect() }
}

#[cfg(test)]
mod tests {
    use geo::{Intersects, LineString, MultiPolygon, Polygon, Triangle};
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// The oracle: geo's intersection test of the closed region and the closed triangle.
    fn geo_meets(obstacle: &Obstacle, tri: &[Point; 3]) -> bool {
        let line = |ring: &Vec<Point>| {
            let mut coords: Vec<geo::Coord<f64>> =
                ring.iter().map(|p| geo::Coord { x: p.x, y: p.y }).collect();
            coords.push(coords[0]);
            LineString(coords)
        };
        let shape = MultiPolygon(
            (obstacle.blocked.iter())
                .map(|p| Polygon::new(line(&p.outer), p.holes.iter().map(line).collect()))
                .collect(),
        );
        let [a, b, c] = tri.map(|p| geo::Coord { x: p.x, y: p.y });
        shape.intersects(&Triangle::new(a, b, c))
    }

    #[test]
    fn meets_answers_as_geo_does_on_random_and_touching_triangles() {
        let tower = PolygonInput::new(
            (0..64)
                .map(|i| {
                    let a = f64::from(i) * std::f64::consts::TAU / 64.0;
                    [5.0 + 2.5 * a.cos(), 5.0 + 2.5 * a.sin()]
                })
                .collect(),
        );
        let ring = PolygonInput {
            outer: vec![[1.0, 1.0], [9.0, 1.0], [9.0, 9.0], [1.0, 9.0]],
            holes: vec![vec![[3.0, 3.0], [3.0, 7.0], [7.0, 7.0], [7.0, 3.0]]],
        };
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let (mut met, mut apart) = (0, 0);
        for (polygon, radius) in [(&tower, 0.0), (&tower, 0.5), (&ring, 0.0), (&ring, 0.5)] {
            let settings = BakeSettings::default().with_agent_radius(radius);
            let obstacle = Obstacle::new(polygon, ObstacleId(0), &settings).unwrap();
            let corners: Vec<Point> =
                obstacle.blocked.iter().flat_map(|p| p.rings().flatten().copied()).collect();
            for _ in 0..3000 {
                // Corners near a random point: the region's own corners, points on a grid of
                // half units (on lines through corners), or anywhere.
                let at = Point::new(rng.random_range(-1.0..11.0), rng.random_range(-1.0..11.0));
                let mut corner = || match rng.random_range(0..3) {
                    0 => *corners.iter().min_by(|p, q| p.distance(at).total_cmp(&q.distance(at))).unwrap(),
                    1 => Point::new(
                        ((at.x + rng.random_range(-1.0..1.0)) * 2.0).round() / 2.0,
                        ((at.y + rng.random_range(-1.0..1.0)) * 2.0).round() / 2.0,
                    ),
                    _ => Point::new(at.x + rng.random_range(-1.0..1.0), at.y + rng.random_range(-1.0..1.0)),
                };
                let tri = [corner(), corner(), corner()];
                if orient(tri[0], tri[1], tri[2]) != Orientation::CounterClockwise {
                    continue;
                }
                let expected = geo_meets(&obstacle, &tri);
                assert_eq!(obstacle.meets(&tri), expected, "{polygon:?} at radius {radius}: {tri:?}");
                if expected { met += 1 } else { apart += 1 }
            }
        }
        assert!(met > 1000 && apart > 500, "{met} triangles meet, {apart} do not");
    }

    #[test]
    fn meets_segment_answers_as_geo_does() {
        let ring = PolygonInput {
            outer: vec![[1.0, 1.0], [9.0, 1.0], [9.0, 9.0], [1.0, 9.0]],
            holes: vec![vec![[3.0, 3.0], [3.0, 7.0], [7.0, 7.0], [7.0, 3.0]]],
        };
        let obstacle = Obstacle::new(&ring, ObstacleId(0), &BakeSettings::default()).unwrap();
        let shape = MultiPolygon(vec![Polygon::new(
            LineString::from(vec![(1.0, 1.0), (9.0, 1.0), (9.0, 9.0), (1.0, 9.0), (1.0, 1.0)]),
            vec![LineString::from(vec![(3.0, 3.0), (3.0, 7.0), (7.0, 7.0), (7.0, 3.0), (3.0, 3.0)])],
        )]);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(6);
        let (mut met, mut apart) = (0, 0);
        for _ in 0..5000 {
            // Ends on a grid of halves: segments along, through, touching and missing the rings.
            let mut end = || {
                Point::new(f64::from(rng.random_range(0..21)) / 2.0, f64::from(rng.random_range(0..21)) / 2.0)
            };
            let (a, b) = (end(), end());
            let expected = shape.intersects(&geo::Line::new((a.x, a.y), (b.x, b.y)));
            assert_eq!(obstacle.meets_segment(a, b), expected, "{a:?} {b:?}");
            if expected { met += 1 } else { apart += 1 }
        }
        assert!(met > 1000 && apart > 200, "{met} segments meet, {apart} do not");
    }
}
