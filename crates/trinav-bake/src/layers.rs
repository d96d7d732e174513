//! Layered levels: each layer baked on its own (stages 1 to 6), then joined into one mesh.
//!
//! A portal is a segment on the boundary of two layers' walkable areas, the two areas on its
//! two sides (a bridge's end on the river bank). Joining: every boundary edge of either layer
//! that runs along a portal is split at the other layer's points on it (and at the portal's
//! ends), so that both layers have the same vertices along the portal; those vertices are then
//! shared, and the edges along the portal join the triangles on both sides. Splitting a
//! boundary edge at a point exactly on it (exact predicate) replaces its triangle by two; no
//! point moves.

mod radius;

use std::collections::HashMap;

use trinav::build::{MeshParts, build_adjacency, find_islands};
use trinav::geometry::{Orientation, orient};
use trinav::{Aabb, AreaId, BakeSettings, LayerId, LayerTable, NavMesh, Point, TriangleId, VertexId};

use crate::level::{Level, PortalInput};
use crate::merge::EngineGrid;
use crate::{BakeError, BakeReport, Baked};

/// What is wrong with a layer or portal of a level.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LayerError {
    /// A layered level also has top-level walkable polygons, obstacles or areas.
    #[error(
        "a level with \"layers\" keeps its walkable polygons, obstacles and areas in its layers, not at the top level"
    )]
    TopLevelGeometry,
    /// Portals without layers.
    #[error("\"portals\" need \"layers\"")]
    PortalsWithoutLayers,
    /// A layer name is empty.
    #[error("layer {index}: the name is empty")]
    EmptyName {
        /// Its place in `layers`.
        index: usize,
    },
    /// Two layers have the same name.
    #[error("layer {index}: the name {name:?} is used by an earlier layer")]
    DuplicateName {
        /// Its place in `layers`.
        index: usize,
        /// The name.
        name: String,
    },
    /// More layers than a mesh may have.
    #[error("{0} layers, more than the {max} a mesh may have", max = trinav::MAX_LAYERS)]
    TooMany(usize),
    /// A portal or link names a layer the level does not have.
    #[error("{element}: unknown layer {name:?}")]
    UnknownLayer {
        /// The portal or link, e.g. `portal 2`.
        element: String,
        /// The name.
        name: String,
    },
    /// A link of a layered level does not name the layers of its ends.
    #[error(
        "link {index}: a link of a level with layers names the layers of its ends (\"layers\": [from, to])"
    )]
    LinkWithoutLayers {
        /// Its place in `links`.
        index: usize,
    },
    /// Two layers joined by portals overlap, and the bake has an agent radius.
    #[error(
        "layers {a:?} and {b:?} overlap and are joined by portals: a bake radius ({radius}) cannot inflate the obstacles of one without wrongly cutting the other's ground under it; bake at radius 0 and give the radius to queries (--radius)"
    )]
    OverlapAtRadius {
        /// One layer.
        a: String,
        /// The other.
        b: String,
        /// The radius.
        radius: f64,
    },
    /// A portal is refused.
    #[error("portal {index} (layers {a:?} and {b:?}, from [{}, {}] to [{}, {}]): {why}", .from[0], .from[1], .to[0], .to[1])]
    Portal {
        /// Its place in `portals`.
        index: usize,
        /// Its first layer.
        a: String,
        /// Its second layer.
        b: String,
        /// Its start.
        from: [f64; 2],
        /// Its end.
        to: [f64; 2],
        /// What is wrong.
        why: String,
    },
}

/// A portal's layers, checked against the level's layer names.
fn portal_layers(level: &Level, index: usize, portal: &PortalInput) -> Result<[LayerId; 2], LayerError> {
    let find = |name: &String| {
        (level.layers.iter().position(|l| &l.name == name).map(|i| LayerId(i as u16))).ok_or_else(|| {
            LayerError::UnknownLayer { element: format!("portal {index}"), name: name.clone() }
        })
    };
    Ok([find(&portal.layers[0])?, find(&portal.layers[1])?])
}

/// The index of layer `name` of a layered level, for `element` (a link).
pub(crate) fn layer_named(level: &Level, name: &str, element: &str) -> Result<LayerId, LayerError> {
    (level.layers.iter().position(|l| l.name == name).map(|i| LayerId(i as u16)))
        .ok_or_else(|| LayerError::UnknownLayer { element: element.to_string(), name: name.to_string() })
}

/// Checks what a layered level says about its layers before baking anything.
pub(crate) fn check_layers(level: &Level) -> Result<(), LayerError> {
    if level.layers.is_empty() {
        return if level.portals.is_empty() { Ok(()) } else { Err(LayerError::PortalsWithoutLayers) };
    }
    if !(level.walkable.is_empty() && level.obstacles.is_empty() && level.areas.is_empty()) {
        return Err(LayerError::TopLevelGeometry);
    }
    if level.layers.len() > trinav::MAX_LAYERS {
        return Err(LayerError::TooMany(level.layers.len()));
    }
    for (index, layer) in level.layers.iter().enumerate() {
        if layer.name.is_empty() {
            return Err(LayerError::EmptyName { index });
        }
        if level.layers[..index].iter().any(|l| l.name == layer.name) {
            return Err(LayerError::DuplicateName { index, name: layer.name.clone() });
        }
    }
    for (index, portal) in level.portals.iter().enumerate() {
        let [a, b] = portal_layers(level, index, portal)?;
        let refuse = |why: &str| portal_error(index, portal, why.to_string());
        if a == b {
            return Err(refuse("its two layers are the same"));
        }
        if portal.from == portal.to {
            return Err(refuse("its ends are the same point"));
        }
        if !portal.from.iter().chain(&portal.to).all(|c| Point::new(*c, 0.0).in_range()) {
            return Err(refuse("an end is out of the coordinate range"));
        }
    }
    Ok(())
}

fn portal_error(index: usize, portal: &PortalInput, why: String) -> LayerError {
    LayerError::Portal {
        index,
        a: portal.layers[0].clone(),
        b: portal.layers[1].clone(),
        from: portal.from,
        to: portal.to,
        why,
    }
}

/// One layer's triangles, as they are being joined.
struct LayerMesh {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
    areas: Vec<AreaId>,
}

impl LayerMesh {
    fn of(mesh: &NavMesh) -> LayerMesh {
        LayerMesh {
            vertices: mesh.vertices().to_vec(),
            triangles: mesh.triangles().iter().map(|t| t.map(|v| v.0)).collect(),
            areas: (0..mesh.triangle_count()).map(|t| mesh.area_id(TriangleId::from_index(t))).collect(),
        }
    }

    /// The boundary edges as (triangle, edge) pairs.
    fn boundary(&self) -> Vec<(usize, usize)> {
        let tris: Vec<[VertexId; 3]> = self.triangles.iter().map(|t| t.map(VertexId)).collect();
        let neighbours = build_adjacency(&tris, self.vertices.len()).expect("a baked layer is a surface");
        let mut edges = Vec::new();
        for (t, n) in neighbours.iter().enumerate() {
            for (k, n) in n.iter().enumerate() {
                if n.is_none() {
                    edges.push((t, k));
                }
            }
        }
        edges
    }

    fn edge(&self, t: usize, k: usize) -> (Point, Point) {
        let tri = self.triangles[t];
        (self.vertices[tri[k] as usize], self.vertices[tri[(k + 1) % 3] as usize])
    }
}

/// A portal segment: where points lie along it.
#[derive(Clone, Copy)]
struct Segment {
    from: Point,
    to: Point,
}

impl Segment {
    /// Where `p` (on the line) lies along the segment: 0 at `from`, 1 at `to` (the longer
    /// axis; only compared, never used to make a point).
    fn param(&self, p: Point) -> f64 {
        let (dx, dy) = (self.to.x - self.from.x, self.to.y - self.from.y);
        if dx.abs() >= dy.abs() { (p.x - self.from.x) / dx } else { (p.y - self.from.y) / dy }
    }

    fn on_line(&self, p: Point) -> bool {
        orient(self.from, self.to, p) == Orientation::Collinear
    }

    /// Whether the edge `u -> v` lies on the line and overlaps the open segment.
    fn overlaps(&self, u: Point, v: Point) -> bool {
        if !(self.on_line(u) && self.on_line(v)) {
            return false;
        }
        let (a, b) = (self.param(u), self.param(v));
        a.min(b) < 1.0 && a.max(b) > 0.0
    }
}

/// Splits every boundary edge of `layer` lying along `segment` at the points of `points` strictly
/// inside it (each point becomes a vertex of the layer once).
fn split_along(layer: &mut LayerMesh, segment: Segment, points: &[Point]) {
    let mut known: HashMap<(u64, u64), u32> = HashMap::new();
    for (i, &p) in layer.vertices.iter().enumerate() {
        if segment.on_line(p) {
            known.insert(trinav::build::position_key(p), i as u32);
        }
    }
    // The boundary as directed vertex pairs: splitting a boundary edge gives two boundary edges.
    let mut boundary: std::collections::HashSet<(u32, u32)> = std::collections::HashSet::new();
    let mut work = Vec::new();
    for (t, k) in layer.boundary() {
        let tri = layer.triangles[t];
        boundary.insert((tri[k], tri[(k + 1) % 3]));
        work.push(t);
    }
    while let Some(t) = work.pop() {
        for k in 0..3 {
            let tri = layer.triangles[t];
            let (ui, vi, wi) = (tri[k], tri[(k + 1) % 3], tri[(k + 2) % 3]);
            if !boundary.contains(&(ui, vi)) {
                continue;
            }
            let (u, v) = layer.edge(t, k);
            if !segment.overlaps(u, v) {
                continue;
            }
            let (a, b) = (segment.param(u), segment.param(v));
            let (lo, hi) = (a.min(b), a.max(b));
            let Some(&m) = points.iter().find(|&&p| {
                let s = segment.param(p);
                s > lo && s < hi
            }) else {
                continue;
            };
            let mi = *known.entry(trinav::build::position_key(m)).or_insert_with(|| {
                layer.vertices.push(m);
                (layer.vertices.len() - 1) as u32
            });
            // (u, v, w) becomes (u, m, w) in place and (m, v, w) at the end.
            layer.triangles[t] = [ui, mi, wi];
            layer.triangles.push([mi, vi, wi]);
            let area = layer.areas[t];
            layer.areas.push(area);
            boundary.remove(&(ui, vi));
            boundary.insert((ui, mi));
            boundary.insert((mi, vi));
            work.push(t);
            work.push(layer.triangles.len() - 1);
            break;
        }
    }
}

/// The side of the segment's line the layer lies on along the portal, after checking that its
/// boundary edges along the portal cover it exactly: `Ok(true)` on the left of `from -> to`.
fn portal_side(layer: &LayerMesh, segment: Segment) -> Result<bool, String> {
    portal_side_of(layer.boundary().into_iter().map(|(t, k)| layer.edge(t, k)), segment)
}

/// [`portal_side`] of a region given by its boundary edges, each directed with the region on
/// its left.
fn portal_side_of(edges: impl Iterator<Item = (Point, Point)>, segment: Segment) -> Result<bool, String> {
    let mut pieces: Vec<(f64, f64, bool)> = Vec::new();
    for (u, v) in edges {
        if segment.overlaps(u, v) {
            let (a, b) = (segment.param(u), segment.param(v));
            // A counter-clockwise triangle lies on the left of its edges. A ring edge may run
            // on past the portal's ends: its part along the portal counts.
            pieces.push((a.min(b).max(0.0), a.max(b).min(1.0), a < b));
        }
    }
    pieces.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut reached = 0.0;
    for &(lo, hi, _) in &pieces {
        if lo != reached {
            return Err(format!(
                "the boundary does not run along the whole portal (a gap or an overlap at {reached} of its length)"
            ));
        }
        reached = hi;
    }
    if pieces.is_empty() || reached != 1.0 {
        return Err("the boundary does not run along the whole portal".to_string());
    }
    let left = pieces[0].2;
    if pieces.iter().any(|p| p.2 != left) {
        return Err("the walkable area changes sides along the portal".to_string());
    }
    Ok(left)
}

/// Checks that portal `index` runs along both its layers' boundaries with their walkable areas
/// on its two sides; `side(layer)`: [`portal_side`] on that layer's boundary.
fn check_portal_sides(
    level: &Level,
    index: usize,
    portal: &PortalInput,
    layers: [LayerId; 2],
    mut side: impl FnMut(LayerId) -> Result<bool, String>,
) -> Result<(), BakeError> {
    let mut sides = [false; 2];
    for (found, layer) in sides.iter_mut().zip(layers) {
        *found = side(layer).map_err(|why| {
            let name = &level.layers[layer.index()].name;
            let why = format!("not on the boundary of layer {name:?}'s walkable area: {why}");
            BakeError::Layer(portal_error(index, portal, why))
        })?;
    }
    if sides[0] == sides[1] {
        let why =
            "both layers' walkable areas lie on the same side of it (a portal joins areas on its two sides)";
        return Err(BakeError::Layer(portal_error(index, portal, why.to_string())));
    }
    Ok(())
}

/// Union-find: the root of `v` in `parent`, halving the path on the way.
fn root(parent: &mut [u32], mut v: u32) -> u32 {
    while parent[v as usize] != v {
        parent[v as usize] = parent[parent[v as usize] as usize];
        v = parent[v as usize];
    }
    v
}

/// Integer bounds holding every point of every layer and the inflation round it: the boolean
/// engine's grid for all the layers' merges (`None` when no point is finite: validation
/// refuses such a level).
fn shared_grid(level: &Level, settings: &BakeSettings) -> Option<Aabb> {
    let points = (level.layers.iter())
        .flat_map(|l| l.walkable.iter().chain(&l.obstacles))
        .flat_map(|p| p.outer.iter().chain(p.holes.iter().flatten()))
        .filter(|p| p.iter().all(|c| c.is_finite()))
        .map(|&[x, y]| Point::new(x, y));
    let bounds = Aabb::from_points(points);
    let margin = settings.agent_radius + 1.0;
    (!bounds.is_empty()).then(|| Aabb {
        min: Point::new((bounds.min.x - margin).floor(), (bounds.min.y - margin).floor()),
        max: Point::new((bounds.max.x + margin).ceil(), (bounds.max.y + margin).ceil()),
    })
}

/// Bakes a layered level: each layer as a level of its own, then the layers joined at the
/// portals into one mesh, then the links (their ends on the layers they name).
pub(crate) fn bake_layered(level: &Level, settings: &BakeSettings) -> Result<Baked, BakeError> {
    check_layers(level)?;
    // Every layer is merged on one grid of the boolean engine, so that a point two layers
    // share (a portal's end, decimal or not) is rounded the same way in both; the portals'
    // ends go where the engine puts them.
    let grid = shared_grid(level, settings);
    let engine = grid.map(EngineGrid::new);
    let portal_segment = |portal: &PortalInput| {
        let [from, to] = [portal.from, portal.to].map(|[x, y]| Point::new(x, y));
        let snap = |p: Point| engine.map_or(p, |e| e.snap(p));
        Segment { from: snap(from), to: snap(to) }
    };
    // With a radius, portals are checked at radius 0 first (see `radius`), and each layer
    // also takes the obstacles of the layers joined to it.
    let joined = if settings.agent_radius > 0.0 && !level.portals.is_empty() {
        Some(radius::JoinedWorlds::prepare(level, settings, grid, &portal_segment)?)
    } else {
        None
    };
    let mut report: Option<BakeReport> = None;
    let mut layers = Vec::with_capacity(level.layers.len());
    for (index, layer) in level.layers.iter().enumerate() {
        let mut obstacles = layer.obstacles.clone();
        if let Some(joined) = &joined {
            obstacles.extend(joined.obstacles_from_beyond(LayerId(index as u16)));
        }
        let own = Level {
            walkable: layer.walkable.clone(),
            obstacles,
            areas: layer.areas.clone(),
            area_names: level.area_names.clone(),
            ..Level::default()
        };
        let baked = match crate::bake_on_grid(&own, settings, grid) {
            Ok(baked) => baked,
            // Inflated obstacles may cover a small layer: it has no ground at this radius.
            Err(BakeError::NothingWalkable { .. }) if settings.agent_radius > 0.0 => {
                layers.push(LayerMesh { vertices: Vec::new(), triangles: Vec::new(), areas: Vec::new() });
                continue;
            }
            Err(error) => {
                return Err(BakeError::InLayer { name: layer.name.clone(), error: Box::new(error) });
            }
        };
        report = Some(match report {
            None => baked.report,
            Some(mut total) => {
                let t = &baked.report.times;
                total.times.validate += t.validate;
                total.times.merge += t.merge;
                total.times.triangulate += t.triangulate;
                total.times.weld += t.weld;
                total.times.derive += t.derive;
                total.times.verify += t.verify;
                total.dropped_points += baked.report.dropped_points;
                total.region_polygons += baked.report.region_polygons;
                total.fallbacks.extend(baked.report.fallbacks);
                total.verification.mesh_area += baked.report.verification.mesh_area;
                total.verification.region_area += baked.report.verification.region_area;
                total
            }
        });
        layers.push(LayerMesh::of(&baked.mesh));
    }
    let start = std::time::Instant::now();
    // Split both layers of every portal at the points of either along it.
    let mut segments = Vec::new();
    for (index, portal) in level.portals.iter().enumerate() {
        let [a, b] = portal_layers(level, index, portal)?;
        let segment = portal_segment(portal);
        let mut points = vec![segment.from, segment.to];
        for layer in [a, b] {
            let mesh = &layers[layer.index()];
            for (t, k) in mesh.boundary() {
                let (u, v) = mesh.edge(t, k);
                if segment.overlaps(u, v) {
                    points.extend([u, v].into_iter().filter(|&p| (0.0..=1.0).contains(&segment.param(p))));
                }
            }
        }
        for layer in [a, b] {
            split_along(&mut layers[layer.index()], segment, &points);
        }
        // With a radius, checked at radius 0 (inflated obstacles may cover parts of it now).
        if joined.is_none() {
            check_portal_sides(level, index, portal, [a, b], |layer| {
                portal_side(&layers[layer.index()], segment)
            })?;
        }
        segments.push((a, b, segment));
    }
    // One vertex array; the vertices of two layers on a portal between them become one.
    let mut offsets = Vec::with_capacity(layers.len());
    let mut vertices = Vec::new();
    for layer in &layers {
        offsets.push(vertices.len() as u32);
        vertices.extend_from_slice(&layer.vertices);
    }
    let mut same: Vec<u32> = (0..vertices.len() as u32).collect();
    for &(a, b, segment) in &segments {
        let on = |layer: LayerId| -> HashMap<(u64, u64), u32> {
            let mesh = &layers[layer.index()];
            let mut found = HashMap::new();
            for (t, k) in mesh.boundary() {
                let (u, v) = mesh.edge(t, k);
                if segment.overlaps(u, v) {
                    let tri = mesh.triangles[t];
                    for (p, i) in [(u, tri[k]), (v, tri[(k + 1) % 3])] {
                        found.insert(trinav::build::position_key(p), offsets[layer.index()] + i);
                    }
                }
            }
            found
        };
        let (on_a, on_b) = (on(a), on(b));
        for (key, &va) in &on_a {
            if let Some(&vb) = on_b.get(key) {
                let (ra, rb) = (root(&mut same, va), root(&mut same, vb));
                same[ra.max(rb) as usize] = ra.min(rb);
            }
        }
    }
    let mut new_id = vec![u32::MAX; vertices.len()];
    let mut kept = Vec::new();
    for v in 0..vertices.len() as u32 {
        let r = root(&mut same, v);
        if new_id[r as usize] == u32::MAX {
            new_id[r as usize] = kept.len() as u32;
            kept.push(vertices[r as usize]);
        }
        new_id[v as usize] = new_id[r as usize];
    }
    let mut triangles = Vec::new();
    let mut areas = Vec::new();
    let mut triangle_layers = Vec::new();
    for (l, layer) in layers.iter().enumerate() {
        for (tri, &area) in layer.triangles.iter().zip(&layer.areas) {
            triangles.push(tri.map(|v| VertexId(new_id[(offsets[l] + v) as usize])));
            areas.push(area);
            triangle_layers.push(LayerId(l as u16));
        }
    }
    let neighbours = build_adjacency(&triangles, kept.len()).map_err(|e| {
        BakeError::Derive(trinav::build::InvalidMesh {
            problems: vec![trinav::build::MeshProblem::NotASurface(e)],
        })
    })?;
    let (islands, _) = find_islands(&neighbours);
    let parts = MeshParts { settings: *settings, vertices: kept, triangles, neighbours, areas, islands };
    let names = level.layers.iter().map(|l| l.name.clone()).collect();
    let mesh = NavMesh::from_layered_parts(parts, LayerTable { names, triangles: triangle_layers })?;
    let Some(mut report) = report else {
        return Err(BakeError::NothingWalkable { agent_radius: settings.agent_radius });
    };
    report.times.derive += start.elapsed();
    Ok(Baked { mesh, report })
}
