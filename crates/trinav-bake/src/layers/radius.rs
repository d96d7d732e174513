//! An agent radius at bake on layers joined by portals.
//!
//! A bake radius inflates obstacles (the walkable outline is not shrunk, as on one layer). At a
//! portal the disc reaches across: an obstacle standing on one layer next to the portal keeps the
//! disc off the other layer's ground there too. Layers joined by portals (directly or through
//! other layers: one *world*) are therefore baked as one flat level would be: each layer's
//! ground minus the inflated obstacles of every layer of its world, each obstacle counted where
//! it stands on its own layer (its part on its layer's walkable area). That is exact when no
//! two layers of a world overlap in x, y (chunks of a world); where they do (a bridge over a
//! road) the flat picture is wrong (the road would lose the ground under the bridge's
//! obstacles), and the bake is refused: bake at radius 0 and give the radius to queries.
//!
//! Before baking at the radius, each portal is checked on the layers' ground at radius 0 (the
//! same rules as a bake at radius 0: the boundary of both layers runs along all of it, their
//! ground on its two sides), so a portal off the boundary is still refused by name. At the
//! radius an inflated obstacle may cover part of a portal; the rest joins the layers.

use geo::{Area, BooleanOps};
use trinav::{Aabb, BakeSettings, LayerId, Point};

use super::{LayerError, Segment, check_portal_sides, portal_layers, portal_side_of, root};
use crate::BakeError;
use crate::level::{Level, PolygonInput, PortalInput};
use crate::merge::{MergedPolygon, merge_on_grid, obstacles_on_walkable, to_geo};
use crate::validate::validate;

/// What a bake at a radius needs from the layers at radius 0.
pub(super) struct JoinedWorlds {
    /// For each layer, its world (layers joined by portals share one).
    world: Vec<u32>,
    /// For each layer, its obstacles' part on its walkable area, with their bounds.
    standing: Vec<Vec<(Aabb, MergedPolygon)>>,
    /// For each layer, the bounds of its walkable area.
    bounds: Vec<Aabb>,
    /// The agent radius.
    radius: f64,
}

impl JoinedWorlds {
    /// Checks the portals at radius 0 and that no two layers of a world overlap; collects each
    /// layer's standing obstacles.
    /// `grid`: the engine's grid of every layer's merge; `portal_segment`: a portal's segment
    /// (its ends where that grid puts them).
    pub(super) fn prepare(
        level: &Level,
        settings: &BakeSettings,
        grid: Option<Aabb>,
        portal_segment: &dyn Fn(&PortalInput) -> Segment,
    ) -> Result<JoinedWorlds, BakeError> {
        let flat = settings.with_agent_radius(0.0);
        let mut ground = Vec::with_capacity(level.layers.len());
        let mut standing = Vec::with_capacity(level.layers.len());
        let mut bounds = Vec::with_capacity(level.layers.len());
        for layer in &level.layers {
            let in_layer =
                |error: BakeError| BakeError::InLayer { name: layer.name.clone(), error: Box::new(error) };
            let own = Level {
                walkable: layer.walkable.clone(),
                obstacles: layer.obstacles.clone(),
                ..Level::default()
            };
            let validated = validate(&own).map_err(|e| in_layer(BakeError::Validation(e)))?;
            let region = merge_on_grid(&validated, &flat, grid).map_err(|e| in_layer(BakeError::Merge(e)))?;
            let parts = obstacles_on_walkable(&validated).map_err(|e| in_layer(BakeError::Merge(e)))?;
            standing
                .push(parts.into_iter().map(|p| (Aabb::from_points(p.outer.iter().copied()), p)).collect());
            bounds.push(Aabb::from_points(region.polygons.iter().flat_map(|p| p.outer.iter().copied())));
            ground.push(region.polygons);
        }
        // Worlds: layers joined by portals.
        let mut world: Vec<u32> = (0..level.layers.len() as u32).collect();
        for (index, portal) in level.portals.iter().enumerate() {
            let [a, b] = portal_layers(level, index, portal)?;
            let segment = portal_segment(portal);
            check_portal_sides(level, index, portal, [a, b], |layer| {
                let edges = ground[layer.index()]
                    .iter()
                    .flat_map(MergedPolygon::rings)
                    .flat_map(|ring| (0..ring.len()).map(move |k| (ring[k], ring[(k + 1) % ring.len()])));
                portal_side_of(edges, segment)
            })?;
            let (ra, rb) = (root(&mut world, u32::from(a.0)), root(&mut world, u32::from(b.0)));
            world[ra.max(rb) as usize] = ra.min(rb);
        }
        let world: Vec<u32> = (0..world.len() as u32).map(|l| root(&mut world, l)).collect();
        // No two layers of a world may overlap (an intersection of more than rounding).
        let shapes: Vec<_> = ground.iter().map(|g| to_geo(g)).collect();
        for a in 0..ground.len() {
            for b in a + 1..ground.len() {
                if world[a] != world[b] || !overlap_with_area(bounds[a], bounds[b]) {
                    continue;
                }
                let common = shapes[a].intersection(&shapes[b]).unsigned_area();
                let smaller = shapes[a].unsigned_area().min(shapes[b].unsigned_area());
                if common > 1e-9 * smaller {
                    return Err(BakeError::Layer(LayerError::OverlapAtRadius {
                        a: level.layers[a].name.clone(),
                        b: level.layers[b].name.clone(),
                        radius: settings.agent_radius,
                    }));
                }
            }
        }
        Ok(JoinedWorlds { world, standing, bounds, radius: settings.agent_radius })
    }

    /// The obstacles of the other layers of `layer`'s world that its inflation can reach: those
    /// within the radius of its walkable area's bounds, as they stand on their own layers.
    pub(super) fn obstacles_from_beyond(&self, layer: LayerId) -> Vec<PolygonInput> {
        let l = layer.index();
        // The inflated chords lie within the radius; a little more for rounding.
        let reach = self.radius * (1.0 + 1e-6);
        let near = Aabb {
            min: Point::new(self.bounds[l].min.x - reach, self.bounds[l].min.y - reach),
            max: Point::new(self.bounds[l].max.x + reach, self.bounds[l].max.y + reach),
        };
        let mut obstacles = Vec::new();
        for (m, standing) in self.standing.iter().enumerate() {
            if m == l || self.world[m] != self.world[l] {
                continue;
            }
            for (bounds, polygon) in standing {
                if bounds.meets(&near) {
                    let ring = |r: &Vec<Point>| r.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>();
                    obstacles.push(PolygonInput {
                        outer: ring(&polygon.outer),
                        holes: polygon.holes.iter().map(ring).collect(),
                    });
                }
            }
        }
        obstacles
    }
}

/// Whether two boxes overlap with a positive area (boxes of layers that only touch along a
/// portal do not).
fn overlap_with_area(a: Aabb, b: Aabb) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}
