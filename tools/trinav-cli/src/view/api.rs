//! The viewer's JSON API: the mesh geometry the page draws (once), and the queries it asks.
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /api/mesh` | none | [`Geometry`]: vertices, triangles, neighbours, per-triangle island, area and layer, island colours, layers, links, statistics |
//! | `POST /api/path` | [`PathRequest`] `{"from": [x, y], "to": [x, y], "mode": "fast", "snap": true, "closest": false, "radius": 0.5, "from_layer": "ground", "to_layer": "bridge", "costs": [[2, 3.0]], "exclude": [4], "budget": 500}` | [`PathAnswer`] |
//! | `POST /api/raycast` | [`RaycastRequest`] `{"from": [x, y], "to": [x, y], "layer": "ground"}` | [`RaycastAnswer`] |
//! | `POST /api/locate` | [`LocateRequest`] `{"point": [x, y], "layer": "ground"}` | [`LocateAnswer`] |
//! | `POST /api/obstacles` | [`ObstacleRequest`] `{"outer": [[x, y], ...], "holes": [[[x, y], ...]], "layer": "bridge"}` | [`EditAnswer`] (its id) |
//! | `DELETE /api/obstacles/{id}` | none | [`EditAnswer`] |
//!
//! An obstacle is added as `trinav-dynamic` adds one (inflated by the mesh's agent radius,
//! the triangles it touches re-triangulated); the mesh answer then describes the changed mesh.
//!
//! Requests are JSON objects with named fields. Optional fields have defaults, so a feature
//! that lands later adds one (`closest`, `radius`, the layers and the area costs came so)
//! without changing what older pages send; unknown fields are refused, so a page newer than the
//! server gets a clear error instead of an option silently ignored. A malformed request is an
//! [`ApiError::BadRequest`] (HTTP 400), a well-formed query the mesh cannot answer (a point off
//! the mesh without `snap`, a coordinate out of range) an [`ApiError::Unprocessable`] (422);
//! both carry a message for the page to show. No request can make a handler panic.
//!
//! Query times are measured here, around the library call alone: the query runs once for its
//! answer, then again while [`TIMING_BUDGET`] lasts (at most [`MAX_RUNS`] runs), and the answer
//! carries the median of the repeated runs (the scratch is warm by then, as in a game loop).

use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use trinav::{
    AreaCosts, AreaId, LayerId, NavMesh, PathError, PathMode, PathOptions, PathScratch, Point, RayHit,
    TriangleId,
};

use trinav_bake::PolygonInput;
use trinav_dynamic::{EditableMesh, ObstacleId};

use crate::render::island_colour;

/// The time one query may spend being re-run for its timing.
pub const TIMING_BUDGET: Duration = Duration::from_millis(20);
/// The most runs of one query for its timing.
pub const MAX_RUNS: usize = 101;

/// What went wrong with a request, with the message the page shows.
#[derive(Debug, PartialEq)]
pub enum ApiError {
    /// The request is malformed (HTTP 400): not JSON, a missing or unknown field, a wrong type.
    BadRequest(String),
    /// The request is well formed but the mesh cannot answer it (HTTP 422).
    Unprocessable(String),
}

impl ApiError {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            ApiError::BadRequest(m) | ApiError::Unprocessable(m) => m,
        }
    }
}

/// Where the mesh came from, for the page's title.
#[derive(Clone, Debug, Serialize)]
pub struct Origin {
    /// The file as given on the command line.
    pub file: String,
    /// Baked on the fly from a level or map (`true`), or loaded from a `.nav` file.
    pub baked: bool,
    /// Milliseconds to load (or import and bake) the file.
    pub load_ms: f64,
}

/// The mesh geometry: everything the page draws, sent once. Flat arrays, indexed by triangle
/// (or vertex) id, as in [`NavMesh`].
#[derive(Serialize)]
pub struct Geometry<'a> {
    /// Where the mesh came from.
    pub origin: &'a Origin,
    /// Counts and measures.
    pub stats: Stats,
    /// The bake settings stored in the mesh.
    pub settings: Settings,
    /// `[min x, min y, max x, max y]` of the vertices.
    pub bounds: [f64; 4],
    /// `x0, y0, x1, y1, ...`: vertex `v` at `2v`.
    pub vertices: Vec<f64>,
    /// Three vertex ids per triangle, counter-clockwise: triangle `t` at `3t`.
    pub triangles: Vec<u32>,
    /// The neighbour across each edge (edge `i` runs from corner `i` to corner `i + 1`), `-1`
    /// on a boundary edge: triangle `t`'s at `3t`.
    pub neighbours: Vec<i64>,
    /// The island (connected component) of each triangle.
    pub islands: Vec<u32>,
    /// The area type of each triangle (`mesh.area_id(t)`).
    pub areas: Vec<u8>,
    /// The names of area types the mesh keeps, name to type (empty when none).
    pub area_names: std::collections::BTreeMap<String, u8>,
    /// The layer of each triangle (an index into `layers`); empty on a mesh without layers.
    pub triangle_layers: Vec<u16>,
    /// The fill colour (`#rrggbb`) of each island, as `trinav render` draws it.
    pub island_colours: Vec<String>,
    /// The layers (one, `default`, on a mesh without layers).
    pub layers: Vec<Layer>,
    /// The off-mesh links, in id order.
    pub links: Vec<LinkView>,
    /// The path modes `/api/path` accepts.
    pub path_modes: [&'static str; 2],
}

/// Mesh counts and measures.
#[derive(Serialize)]
pub struct Stats {
    /// Vertices.
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// Islands.
    pub islands: u32,
    /// Walkable area.
    pub area: f64,
    /// Boundary edges.
    pub boundary_edges: usize,
    /// Smallest triangle angle, degrees.
    pub min_angle_deg: f64,
}

/// The bake settings of a mesh.
#[derive(Serialize)]
pub struct Settings {
    /// Agent radius the obstacles were inflated by.
    pub agent_radius: f64,
    /// Chord error of inflated corners.
    pub arc_error: f64,
    /// `ear-clipping` or `constrained-delaunay`.
    pub triangulation: &'static str,
}

/// A layer of the mesh.
#[derive(Serialize)]
pub struct Layer {
    /// Its id.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its triangle count.
    pub triangles: usize,
}

/// An off-mesh link of the mesh.
#[derive(Serialize)]
pub struct LinkView {
    /// Its id (`LinkId`).
    pub id: u32,
    /// Where it starts, `[x, y]`.
    pub from: [f64; 2],
    /// Where it leads, `[x, y]`.
    pub to: [f64; 2],
    /// The layer of `from` (an index into `layers`).
    pub from_layer: u16,
    /// The layer of `to`.
    pub to_layer: u16,
    /// What taking it costs.
    pub cost: f64,
    /// Whether it may be taken both ways.
    pub bidirectional: bool,
    /// Whether both ends lie on the mesh (an obstacle may cover one).
    pub usable: bool,
}

impl<'a> Geometry<'a> {
    /// The geometry of `mesh`.
    pub fn new(mesh: &NavMesh, origin: &'a Origin) -> Geometry<'a> {
        let n = mesh.triangle_count();
        let stats = mesh.stats();
        let ids = || (0..n).map(TriangleId::from_index);
        let bounds = if stats.bounds.is_empty() {
            [0.0; 4]
        } else {
            [stats.bounds.min.x, stats.bounds.min.y, stats.bounds.max.x, stats.bounds.max.y]
        };
        let settings = mesh.settings();
        Geometry {
            origin,
            stats: Stats {
                vertices: stats.vertices,
                triangles: stats.triangles,
                islands: stats.islands,
                area: stats.area,
                boundary_edges: stats.boundary_edges,
                min_angle_deg: stats.min_angle_deg,
            },
            settings: Settings {
                agent_radius: settings.agent_radius,
                arc_error: settings.arc_error,
                triangulation: settings.triangulation.name(),
            },
            bounds,
            vertices: mesh.vertices().iter().flat_map(|p| [p.x, p.y]).collect(),
            triangles: mesh.triangles().iter().flatten().map(|v| v.0).collect(),
            neighbours: ids()
                .flat_map(|t| mesh.neighbours(t))
                .map(|t| if t.is_none() { -1 } else { i64::from(t.0) })
                .collect(),
            islands: ids().map(|t| mesh.island(t).0).collect(),
            areas: ids().map(|t| mesh.area_id(t).0).collect(),
            area_names: crate::area_flags::by_name(mesh.area_names()),
            triangle_layers: match mesh.is_layered() {
                true => ids().map(|t| mesh.triangle_layer(t).0).collect(),
                false => Vec::new(),
            },
            island_colours: (0..mesh.island_count()).map(island_colour).collect(),
            layers: (0..mesh.layer_count())
                .map(|i| {
                    let layer = LayerId(i as u16);
                    Layer {
                        id: i as u32,
                        name: mesh.layer_name(layer).unwrap_or_default().to_string(),
                        triangles: ids().filter(|&t| mesh.triangle_layer(t) == layer).count(),
                    }
                })
                .collect(),
            links: mesh
                .links()
                .map(|(id, link)| LinkView {
                    id: id.0,
                    from: link.from.into(),
                    to: link.to.into(),
                    from_layer: link.from_layer.0,
                    to_layer: link.to_layer.0,
                    cost: link.cost,
                    bidirectional: link.bidirectional,
                    usable: mesh.link_is_usable(id),
                })
                .collect(),
            path_modes: [PathMode::Fast.name(), PathMode::Optimal.name()],
        }
    }
}

/// `POST /api/path`: a path between two points.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathRequest {
    /// Start, `[x, y]`.
    pub from: [f64; 2],
    /// Goal, `[x, y]`.
    pub to: [f64; 2],
    /// `fast` (default) or `optimal`.
    #[serde(default, deserialize_with = "path_mode")]
    pub mode: PathMode,
    /// Move an off-mesh start or goal to the nearest walkable point (default false).
    #[serde(default)]
    pub snap: bool,
    /// Partial paths: towards a goal on another island or off the mesh, the path to the
    /// nearest point of the islands the start reaches (default false).
    #[serde(default)]
    pub closest: bool,
    /// The agent's radius: the path keeps this distance from every wall (default 0).
    #[serde(default)]
    pub radius: f64,
    /// The start's layer by name (default: the layer holding it; needed where layers
    /// overlap).
    #[serde(default)]
    pub from_layer: Option<String>,
    /// The goal's layer by name (as `from_layer`).
    #[serde(default)]
    pub to_layer: Option<String>,
    /// Area costs, `[[area type, cost per unit of distance], ...]` (other types cost 1).
    #[serde(default)]
    pub costs: Vec<(u8, f64)>,
    /// Area types the agent may not enter.
    #[serde(default)]
    pub exclude: Vec<u8>,
    /// The most search nodes the query may expand (default: no bound); with `closest`, a
    /// search that runs out gives the way towards the goal.
    #[serde(default)]
    pub budget: Option<u32>,
}

/// Reads a path mode by its name, as the command line does.
fn path_mode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<PathMode, D::Error> {
    let name = String::deserialize(deserializer)?;
    name.parse().map_err(serde::de::Error::custom)
}

/// The answer to a [`PathRequest`].
#[derive(Debug, Serialize)]
pub struct PathAnswer {
    /// The mode that answered.
    pub mode: &'static str,
    /// Whether a path was found (false: start and goal are not connected).
    pub found: bool,
    /// The path's length (walked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<f64>,
    /// The path's cost: lengths times their areas' costs, plus the links taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// The path's points, start to goal (the snapped ends with `snap`).
    pub points: Vec<[f64; 2]>,
    /// The points from which a link is taken to the next point (indices into `points`).
    pub links: Vec<usize>,
    /// The layer of each point, by name (empty on a mesh without layers).
    pub layers: Vec<String>,
    /// Whether the path stops short of the goal (partial paths), and then why.
    pub partial: bool,
    /// Why there is no path, or why a partial path stops short.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The islands of start and goal (after snapping), when on the mesh.
    pub start_island: Option<u32>,
    /// See `start_island`.
    pub goal_island: Option<u32>,
    /// The query's time.
    #[serde(flatten)]
    pub timing: Timing,
}

/// `POST /api/raycast`: a straight walk from one point towards another.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaycastRequest {
    /// Start, `[x, y]` (on the mesh).
    pub from: [f64; 2],
    /// End, `[x, y]`.
    pub to: [f64; 2],
    /// The layer `from` is on, by name (default: the layer holding it).
    #[serde(default)]
    pub layer: Option<String>,
}

/// The answer to a [`RaycastRequest`].
#[derive(Debug, Serialize)]
pub struct RaycastAnswer {
    /// Whether the whole segment lies in the walkable area.
    pub clear: bool,
    /// Where the walk ends: `to` when clear, else where the segment leaves the walkable area.
    pub end: [f64; 2],
    /// How far along the segment `end` is (1 when clear).
    pub fraction: f64,
    /// The triangle holding `end`.
    pub triangle: u32,
    /// The boundary edge (0..3) of `triangle` the segment leaves through, when blocked.
    pub edge: Option<u8>,
    /// The query's time.
    #[serde(flatten)]
    pub timing: Timing,
}

/// `POST /api/locate`: what lies under a point (the page's hover).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocateRequest {
    /// The point, `[x, y]`.
    pub point: [f64; 2],
    /// Look on this layer only, by name (default: any).
    #[serde(default)]
    pub layer: Option<String>,
}

/// The answer to a [`LocateRequest`]. Off the mesh, the triangle fields describe the triangle
/// of the nearest walkable point; all are `null` on an empty mesh.
#[derive(Debug, Serialize)]
pub struct LocateAnswer {
    /// Whether the point lies on the mesh.
    pub on_mesh: bool,
    /// The triangle holding the point (or the nearest walkable point).
    pub triangle: Option<u32>,
    /// Its island.
    pub island: Option<u32>,
    /// Its area type.
    pub area: Option<u8>,
    /// Its layer, by name.
    pub layer: Option<String>,
    /// Every layer holding the point, by name.
    pub layers: Vec<String>,
    /// Its corners.
    pub corners: Option<[[f64; 2]; 3]>,
    /// The nearest walkable point (the point itself on the mesh).
    pub nearest: Option<[f64; 2]>,
    /// The distance to it.
    pub distance: Option<f64>,
}

/// `POST /api/obstacles`: a polygon to add as an obstacle.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObstacleRequest {
    /// The outer ring, `[[x, y], ...]` (open or closed, either orientation).
    pub outer: Vec<[f64; 2]>,
    /// Holes.
    #[serde(default)]
    pub holes: Vec<Vec<[f64; 2]>>,
    /// The layer it stands on, by name (needed on a mesh of several layers).
    #[serde(default)]
    pub layer: Option<String>,
}

/// The answer to an obstacle change.
#[derive(Debug, Serialize)]
pub struct EditAnswer {
    /// The obstacle added or removed.
    pub id: u32,
    /// Microseconds the change took (the mesh updated, not its JSON).
    pub update_us: f64,
    /// Triangles of the mesh after the change.
    pub triangles: usize,
    /// Islands after the change.
    pub islands: u32,
}

/// How long a query took.
#[derive(Debug, Serialize)]
pub struct Timing {
    /// Median microseconds per run.
    pub query_us: f64,
    /// How many runs the median is of.
    pub runs: usize,
}

/// Runs `query` once for its answer, then again while [`TIMING_BUDGET`] lasts (at most
/// [`MAX_RUNS`] runs in all), and returns the answer with the median time of the repeated
/// runs (of the first, when there was no time to repeat it).
fn timed<T>(mut query: impl FnMut() -> T) -> (T, Timing) {
    let started = Instant::now();
    let answer = query();
    let first = started.elapsed();
    let mut times = Vec::new();
    while times.len() + 1 < MAX_RUNS && started.elapsed() + first <= TIMING_BUDGET {
        let run = Instant::now();
        std::hint::black_box(query());
        times.push(run.elapsed());
    }
    if times.is_empty() {
        times.push(first);
    }
    times.sort_unstable();
    let median = times[times.len() / 2];
    (answer, Timing { query_us: median.as_secs_f64() * 1e6, runs: times.len() })
}

/// Parses a request body.
fn parse<R: DeserializeOwned>(body: &[u8]) -> Result<R, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::BadRequest(format!("malformed request: {e}")))
}

/// The mesh of [`Queries`]: the edited one once there is one.
fn mesh_of<'a>(plain: &'a Option<NavMesh>, edited: &'a Option<EditableMesh>) -> &'a NavMesh {
    match edited {
        Some(edited) => edited.mesh(),
        None => plain.as_ref().expect("a mesh is plain until its first edit"),
    }
}

/// The layer named `name` (`None` for no name); an unknown name is unprocessable.
fn layer_named(mesh: &NavMesh, name: Option<&str>) -> Result<Option<LayerId>, ApiError> {
    let Some(name) = name else { return Ok(None) };
    match mesh.layer_by_name(name) {
        Some(layer) => Ok(Some(layer)),
        None => {
            let known: Vec<&str> =
                (0..mesh.layer_count()).filter_map(|i| mesh.layer_name(LayerId(i as u16))).collect();
            Err(ApiError::Unprocessable(format!(
                "unknown layer `{name}` (the mesh's layers: {})",
                known.join(", ")
            )))
        }
    }
}

/// The area costs of a request: `costs` (type, cost) pairs and `exclude`d types.
fn area_costs(costs: &[(u8, f64)], exclude: &[u8]) -> Result<AreaCosts, ApiError> {
    let mut out = AreaCosts::default();
    for &(area, cost) in costs {
        out =
            out.with_cost(AreaId(area), cost).map_err(|e| ApiError::Unprocessable(format!("costs: {e}")))?;
    }
    for &area in exclude {
        if area > AreaId::MAX.0 {
            return Err(ApiError::Unprocessable(format!(
                "exclude: area type {area} is beyond the largest, {}",
                AreaId::MAX.0
            )));
        }
        out = out.with_excluded(AreaId(area));
    }
    Ok(out)
}

/// The queries of one mesh, with the scratch they reuse.
pub struct Queries {
    /// The mesh, until its first edit.
    plain: Option<NavMesh>,
    /// The mesh once edited (made at the first edit).
    edited: Option<EditableMesh>,
    scratch: PathScratch,
    path: trinav::Path,
}

impl Queries {
    /// Queries on `mesh`.
    pub fn new(mesh: NavMesh) -> Queries {
        Queries {
            plain: Some(mesh),
            edited: None,
            scratch: PathScratch::new(),
            path: trinav::Path::default(),
        }
    }

    /// The mesh as it is now.
    pub fn mesh(&self) -> &NavMesh {
        mesh_of(&self.plain, &self.edited)
    }

    /// The editable mesh, made from the plain one at the first edit.
    fn editable(&mut self) -> &mut EditableMesh {
        if self.edited.is_none() {
            let mesh = self.plain.take().expect("a mesh is plain until its first edit");
            self.edited = Some(EditableMesh::new(mesh));
        }
        self.edited.as_mut().expect("made above")
    }

    /// Answers `POST /api/obstacles`.
    pub fn add_obstacle(&mut self, body: &[u8]) -> Result<EditAnswer, ApiError> {
        let request: ObstacleRequest = parse(body)?;
        let polygon =
            (request.holes.into_iter()).fold(PolygonInput::new(request.outer), PolygonInput::with_hole);
        let layer = layer_named(self.mesh(), request.layer.as_deref())?;
        let started = Instant::now();
        let world = self.editable();
        let added = match layer {
            Some(layer) => world.add_obstacle_on(layer, &polygon),
            None => world.add_obstacle(&polygon),
        };
        let id = added.map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        Ok(self.edit_answer(id, started))
    }

    /// Answers `DELETE /api/obstacles/{id}` (`id` as the path gives it).
    pub fn remove_obstacle(&mut self, id: &str) -> Result<EditAnswer, ApiError> {
        let id = id.parse::<u32>().map(ObstacleId).map_err(|_| {
            ApiError::BadRequest(format!("malformed request: obstacle id `{id}` is not a number"))
        })?;
        let started = Instant::now();
        self.editable().remove_obstacle(id).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
        Ok(self.edit_answer(id, started))
    }

    fn edit_answer(&self, id: ObstacleId, started: Instant) -> EditAnswer {
        let update_us = started.elapsed().as_secs_f64() * 1e6;
        let mesh = self.mesh();
        EditAnswer { id: id.0, update_us, triangles: mesh.triangle_count(), islands: mesh.island_count() }
    }

    /// Answers `POST /api/path`.
    pub fn path(&mut self, body: &[u8]) -> Result<PathAnswer, ApiError> {
        let request: PathRequest = parse(body)?;
        let (from, to) = (Point::from(request.from), Point::from(request.to));
        let options = PathOptions::default()
            .with_snap(request.snap)
            .with_mode(request.mode)
            .with_partial(request.closest)
            .with_radius(request.radius)
            .with_area_costs(area_costs(&request.costs, &request.exclude)?);
        let options = match request.budget {
            Some(budget) => options.with_node_budget(budget),
            None => options,
        };
        let Queries { plain, edited, scratch, path } = self;
        let mesh = mesh_of(plain, edited);
        let from_layer = layer_named(mesh, request.from_layer.as_deref())?;
        let to_layer = layer_named(mesh, request.to_layer.as_deref())?;
        let (outcome, timing) = match (from_layer, to_layer) {
            (None, None) => timed(|| mesh.find_path_into(from, to, &options, scratch, path)),
            _ => {
                // One end's layer named: the other's is the layer holding it (the first).
                let or_at = |layer: Option<LayerId>, p: Point| {
                    layer.or_else(|| mesh.layers_at(p).first().copied()).unwrap_or_default()
                };
                let ends = ((or_at(from_layer, from), from), (or_at(to_layer, to), to));
                timed(|| mesh.find_path_on_into(ends.0, ends.1, &options, scratch, path))
            }
        };
        let island = |p: Point, layer: Option<LayerId>| {
            let t = match (request.snap, layer) {
                (true, Some(layer)) => mesh.nearest_point_on(layer, p).map(|(_, t)| t),
                (true, None) => mesh.nearest_point(p).map(|(_, t)| t),
                (false, Some(layer)) => mesh.locate_on(layer, p),
                (false, None) => mesh.locate(p),
            };
            t.map(|t| mesh.island(t).0)
        };
        let mut answer = PathAnswer {
            mode: request.mode.name(),
            found: false,
            length: None,
            cost: None,
            points: Vec::new(),
            links: Vec::new(),
            layers: Vec::new(),
            partial: false,
            reason: None,
            start_island: island(from, from_layer),
            goal_island: island(to, to_layer),
            timing,
        };
        match outcome {
            Ok(()) => {
                answer.found = true;
                answer.length = Some(path.length);
                answer.cost = Some(path.cost);
                answer.points = path.points.iter().map(|&p| p.into()).collect();
                answer.links = path.links.iter().map(|step| step.point).collect();
                if mesh.is_layered() {
                    let name = |layer: &LayerId| mesh.layer_name(*layer).unwrap_or_default().to_string();
                    answer.layers = path.layers.iter().map(name).collect();
                }
                answer.partial = path.is_partial();
                answer.reason =
                    path.partial.map(|reason| format!("{reason}; the path goes as near it as it can"));
            }
            Err(PathError::Unreachable) => {
                answer.reason = Some("start and goal are not connected".to_string())
            }
            Err(err @ PathError::BudgetExhausted { .. }) => answer.reason = Some(err.to_string()),
            Err(err) => return Err(ApiError::Unprocessable(err.to_string())),
        }
        Ok(answer)
    }

    /// Answers `POST /api/raycast`.
    pub fn raycast(&mut self, body: &[u8]) -> Result<RaycastAnswer, ApiError> {
        let request: RaycastRequest = parse(body)?;
        let (from, to) = (Point::from(request.from), Point::from(request.to));
        let mesh = self.mesh();
        let (outcome, timing) = match layer_named(mesh, request.layer.as_deref())? {
            Some(layer) => timed(|| mesh.raycast_on(layer, from, to)),
            None => timed(|| mesh.raycast(from, to)),
        };
        match outcome.map_err(|e| ApiError::Unprocessable(e.to_string()))? {
            RayHit::Clear { triangle } => Ok(RaycastAnswer {
                clear: true,
                end: request.to,
                fraction: 1.0,
                triangle: triangle.0,
                edge: None,
                timing,
            }),
            RayHit::Blocked { point, fraction, triangle, edge } => Ok(RaycastAnswer {
                clear: false,
                end: point.into(),
                fraction,
                triangle: triangle.0,
                edge: Some(edge),
                timing,
            }),
        }
    }

    /// Answers `POST /api/locate`.
    pub fn locate(&self, body: &[u8]) -> Result<LocateAnswer, ApiError> {
        let request: LocateRequest = parse(body)?;
        let p = Point::from(request.point);
        if !p.in_range() {
            return Err(ApiError::Unprocessable(format!(
                "point ({}, {}) has a coordinate beyond ±2^40 or non-zero below 2^-142",
                p.x, p.y
            )));
        }
        let mesh = self.mesh();
        let found = match layer_named(mesh, request.layer.as_deref())? {
            Some(layer) => {
                mesh.locate_on(layer, p).map(|t| (p, t)).or_else(|| mesh.nearest_point_on(layer, p))
            }
            None => mesh.locate(p).map(|t| (p, t)).or_else(|| mesh.nearest_point(p)),
        };
        let name = |layer: LayerId| mesh.layer_name(layer).unwrap_or_default().to_string();
        let layers = mesh.layers_at(p).into_iter().map(name).collect();
        Ok(match found {
            Some((nearest, t)) => LocateAnswer {
                on_mesh: nearest == p,
                triangle: Some(t.0),
                island: Some(mesh.island(t).0),
                area: Some(mesh.area_id(t).0),
                layer: Some(name(mesh.triangle_layer(t))),
                layers,
                corners: Some(mesh.triangle_points(t).map(Into::into)),
                nearest: Some(nearest.into()),
                distance: Some(nearest.distance(p)),
            },
            None => LocateAnswer {
                on_mesh: false,
                triangle: None,
                island: None,
                area: None,
                layer: None,
                layers,
                corners: None,
                nearest: None,
                distance: None,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queries() -> Queries {
        Queries::new(super::super::sample_mesh())
    }

    #[test]
    fn paths_in_both_modes_go_around_the_obstacle() {
        let mut q = queries();
        for mode in ["fast", "optimal"] {
            let body = format!(r#"{{"from": [1, 5], "to": [9, 5], "mode": "{mode}"}}"#);
            let answer = q.path(body.as_bytes()).unwrap();
            assert_eq!(answer.mode, mode);
            assert!(answer.found);
            // Around a corner of the obstacle: (1, 5) -> (4, 6) -> (6, 6) -> (9, 5).
            let expected = 2.0 * 10f64.sqrt() + 2.0;
            assert!((answer.length.unwrap() - expected).abs() < 1e-12, "{answer:?}");
            assert_eq!(answer.points.first(), Some(&[1.0, 5.0]));
            assert_eq!(answer.points.last(), Some(&[9.0, 5.0]));
            assert!(answer.timing.runs >= 1 && answer.timing.runs <= MAX_RUNS);
            assert!(answer.timing.query_us >= 0.0);
            assert_eq!((answer.start_island, answer.goal_island), (Some(0), Some(0)));
        }
    }

    #[test]
    fn unconnected_points_answer_not_found_with_their_islands() {
        let mut q = queries();
        let answer = q.path(br#"{"from": [1, 1], "to": [21, 1]}"#).unwrap();
        assert!(!answer.found);
        assert_eq!(answer.length, None);
        assert!(answer.points.is_empty());
        assert_eq!(answer.reason.as_deref(), Some("start and goal are not connected"));
        assert_ne!(answer.start_island, answer.goal_island);
        let json = serde_json::to_value(&answer).unwrap();
        assert!(json.get("length").is_none(), "{json}");
    }

    #[test]
    fn closest_gives_the_partial_path_to_the_nearest_point_of_the_start_island() {
        let mut q = queries();
        for mode in ["fast", "optimal"] {
            // (21, 1) is on the other island [20, 22] x [0, 2]: nearest on the start's is (10, 1).
            let body = format!(r#"{{"from": [1, 1], "to": [21, 1], "mode": "{mode}", "closest": true}}"#);
            let answer = q.path(body.as_bytes()).unwrap();
            assert!(answer.found && answer.partial, "{answer:?}");
            assert_eq!(answer.points, vec![[1.0, 1.0], [10.0, 1.0]]);
            assert!(answer.reason.as_deref().unwrap().contains("not connected"), "{answer:?}");
            let reached = q.path(br#"{"from": [1, 1], "to": [2, 1], "closest": true}"#).unwrap();
            assert!(reached.found && !reached.partial && reached.reason.is_none());
        }
    }

    #[test]
    fn snap_moves_an_off_mesh_point_and_without_it_the_query_is_refused() {
        let mut q = queries();
        let answer = q.path(br#"{"from": [1, 1], "to": [12, 1], "snap": true}"#).unwrap();
        assert!(answer.found);
        assert_eq!(answer.points.last(), Some(&[10.0, 1.0]));
        let refused = q.path(br#"{"from": [1, 1], "to": [12, 1]}"#).unwrap_err();
        assert_eq!(refused, ApiError::Unprocessable("goal point (12, 1) is off the mesh".to_string()));
        let far = q.path(br#"{"from": [1e300, 1], "to": [1, 1]}"#).unwrap_err();
        assert!(matches!(far, ApiError::Unprocessable(m) if m.contains("not finite")));
    }

    #[test]
    fn malformed_requests_are_bad_requests_with_a_message() {
        let mut q = queries();
        let cases: [(&[u8], &str); 11] = [
            (b"", "EOF while parsing"),
            (b"not json", "expected"),
            (b"[1, 2]", "invalid type"),
            (br#"{"from": [1, 1]}"#, "missing field `to`"),
            (br#"{"from": [1, 1], "to": [2, 2], "mode": "slow"}"#, "unknown path mode \"slow\""),
            (br#"{"from": [1, 1], "to": [2, 2], "speed": 1}"#, "unknown field `speed`"),
            (br#"{"from": [1, 1], "to": [2, 2], "costs": [[1]]}"#, "invalid length 1"),
            (br#"{"from": [1, 1], "to": [2, 2], "exclude": [300]}"#, "invalid value"),
            (br#"{"from": [1], "to": [2, 2]}"#, "invalid length 1"),
            (br#"{"from": [1e999, 1], "to": [2, 2]}"#, "number out of range"),
            (b"\xff\xfe", "expected value"),
        ];
        for (body, expected) in cases {
            match q.path(body) {
                Err(ApiError::BadRequest(m)) => {
                    assert!(m.starts_with("malformed request: ") && m.contains(expected), "{m}")
                }
                other => panic!("{:?}: {other:?}", String::from_utf8_lossy(body)),
            }
        }
        assert!(matches!(q.raycast(br#"{"from": [1, 1]}"#), Err(ApiError::BadRequest(_))));
        assert!(matches!(q.locate(br#"{"point": "here"}"#), Err(ApiError::BadRequest(_))));
    }

    #[test]
    fn raycast_stops_at_the_obstacle_and_passes_beside_it() {
        let mut q = queries();
        let blocked = q.raycast(br#"{"from": [1, 5], "to": [9, 5]}"#).unwrap();
        assert!(!blocked.clear);
        assert_eq!(blocked.end, [4.0, 5.0]);
        assert_eq!(blocked.fraction, 3.0 / 8.0);
        assert!(blocked.edge.is_some());
        let clear = q.raycast(br#"{"from": [1, 1], "to": [9, 2]}"#).unwrap();
        assert!(clear.clear);
        assert_eq!((clear.end, clear.fraction, clear.edge), ([9.0, 2.0], 1.0, None));
        let off = q.raycast(br#"{"from": [5, 5], "to": [9, 2]}"#).unwrap_err();
        assert_eq!(off, ApiError::Unprocessable("point (5, 5) is off the mesh".to_string()));
    }

    #[test]
    fn locate_names_the_triangle_or_the_nearest_point() {
        let q = queries();
        let on = q.locate(br#"{"point": [1, 2]}"#).unwrap();
        assert!(on.on_mesh);
        assert_eq!(
            (on.nearest, on.distance, on.island, on.area),
            (Some([1.0, 2.0]), Some(0.0), Some(0), Some(0))
        );
        let t = TriangleId(on.triangle.unwrap());
        assert!(q.mesh().triangle_contains(t, Point::new(1.0, 2.0)));
        assert_eq!(on.corners, Some(q.mesh().triangle_points(t).map(Into::into)));
        let off = q.locate(br#"{"point": [5, 5.5]}"#).unwrap();
        assert!(!off.on_mesh);
        assert_eq!((off.nearest, off.distance), (Some([5.0, 6.0]), Some(0.5)));
        let refused = q.locate(br#"{"point": [1e300, 0]}"#).unwrap_err();
        assert!(matches!(refused, ApiError::Unprocessable(_)));
    }

    #[test]
    fn geometry_has_one_entry_per_triangle_and_vertex() {
        let q = queries();
        let origin = Origin { file: "x.json".to_string(), baked: true, load_ms: 1.0 };
        let g = Geometry::new(q.mesh(), &origin);
        let (n, v) = (q.mesh().triangle_count(), q.mesh().vertices().len());
        assert_eq!(
            (g.triangles.len(), g.neighbours.len(), g.islands.len(), g.areas.len()),
            (3 * n, 3 * n, n, n)
        );
        assert_eq!(g.vertices.len(), 2 * v);
        assert_eq!(g.island_colours.len(), 2);
        assert_eq!(g.bounds, [0.0, 0.0, 22.0, 10.0]);
        assert_eq!((g.layers.len(), g.layers[0].name.as_str(), g.layers[0].triangles), (1, "default", n));
        assert!(g.triangle_layers.is_empty() && g.links.is_empty());
        // Boundary edges: -1 exactly where the mesh has no neighbour, and as many as it counts.
        assert_eq!(g.neighbours.iter().filter(|&&t| t == -1).count(), g.stats.boundary_edges);
        let json = serde_json::to_value(&g).unwrap();
        assert_eq!(json["path_modes"], serde_json::json!(["fast", "optimal"]));
    }

    /// The disc's path, as the library finds it: around the obstacle at distance 0.5.
    #[test]
    fn a_radius_keeps_the_path_that_far_from_the_walls() {
        let mut q = queries();
        for mode in ["fast", "optimal"] {
            let body = format!(r#"{{"from": [1, 5], "to": [9, 5], "mode": "{mode}", "radius": 0.5}}"#);
            let answer = q.path(body.as_bytes()).unwrap();
            let options = PathOptions::default().with_mode(mode.parse().unwrap()).with_radius(0.5);
            let expected = q
                .mesh()
                .find_path_with(Point::new(1.0, 5.0), Point::new(9.0, 5.0), &options, &mut PathScratch::new())
                .unwrap();
            assert_eq!(answer.length, Some(expected.length), "{mode}");
            assert_eq!(
                answer.points,
                expected.points.iter().map(|&p| <[f64; 2]>::from(p)).collect::<Vec<_>>()
            );
            let plain =
                q.path(format!(r#"{{"from": [1, 5], "to": [9, 5], "mode": "{mode}"}}"#).as_bytes()).unwrap();
            assert!(
                answer.length.unwrap() > plain.length.unwrap(),
                "{mode}: a disc goes wider round the corner"
            );
            let tight = q.path(br#"{"from": [1, 5], "to": [9, 5], "radius": 0.5, "from_layer": "default"}"#);
            assert!(tight.is_ok(), "{tight:?}");
        }
        let near_wall = q.path(br#"{"from": [0.2, 5], "to": [9, 5], "radius": 0.5}"#).unwrap_err();
        assert!(
            matches!(&near_wall, ApiError::Unprocessable(m) if m.contains("closer than the agent radius")),
            "{near_wall:?}"
        );
        let bad = q.path(br#"{"from": [1, 5], "to": [9, 5], "radius": -1}"#).unwrap_err();
        assert!(matches!(&bad, ApiError::Unprocessable(m) if m.contains("radius")), "{bad:?}");
    }

    #[test]
    fn a_budget_bounds_the_search_and_with_closest_gives_the_way_towards_the_goal() {
        let mut q = queries();
        for mode in ["fast", "optimal"] {
            let body = format!(r#"{{"from": [1, 5], "to": [9, 5], "mode": "{mode}", "budget": 0}}"#);
            let spent = q.path(body.as_bytes()).unwrap();
            assert!(!spent.found, "{spent:?}");
            assert_eq!(spent.reason.as_deref(), Some("no path found within the search budget of 0 nodes"));
            let body = format!(
                r#"{{"from": [1, 5], "to": [9, 5], "mode": "{mode}", "budget": 0, "closest": true}}"#
            );
            let towards = q.path(body.as_bytes()).unwrap();
            assert!(towards.found && towards.partial, "{towards:?}");
            let plenty = format!(r#"{{"from": [1, 5], "to": [9, 5], "mode": "{mode}", "budget": 100000}}"#);
            assert!(q.path(plenty.as_bytes()).unwrap().found);
        }
    }

    #[test]
    fn costs_scale_the_cost_and_exclusions_refuse_an_end_on_them() {
        let mut q = queries();
        let answer = q.path(br#"{"from": [1, 1], "to": [9, 2], "costs": [[0, 2.5]]}"#).unwrap();
        assert_eq!(answer.cost, Some(2.5 * answer.length.unwrap()));
        let plain = q.path(br#"{"from": [1, 1], "to": [9, 2]}"#).unwrap();
        assert_eq!(
            (plain.cost, plain.length),
            (plain.length, Some(Point::new(1.0, 1.0).distance(Point::new(9.0, 2.0))))
        );
        let excluded = q.path(br#"{"from": [1, 1], "to": [9, 2], "exclude": [0]}"#).unwrap_err();
        assert!(matches!(&excluded, ApiError::Unprocessable(m) if m.contains("excluded")), "{excluded:?}");
        let zero = q.path(br#"{"from": [1, 1], "to": [9, 2], "costs": [[1, 0]]}"#).unwrap_err();
        assert!(matches!(&zero, ApiError::Unprocessable(m) if m.starts_with("costs: ")), "{zero:?}");
        let beyond = q.path(br#"{"from": [1, 1], "to": [9, 2], "exclude": [64]}"#).unwrap_err();
        assert!(matches!(&beyond, ApiError::Unprocessable(m) if m.contains("beyond")), "{beyond:?}");
    }

    #[test]
    fn links_are_listed_and_paths_say_where_they_take_one() {
        let mut mesh = super::super::sample_mesh();
        // A one-way link from the big room to the far island [20, 22] x [0, 2], costing 3.
        let id = mesh
            .add_link(trinav::OffMeshLink::new(Point::new(9.0, 1.0), Point::new(20.5, 1.0)).with_cost(3.0))
            .unwrap();
        let origin = Origin { file: "x.json".to_string(), baked: true, load_ms: 1.0 };
        let g = Geometry::new(&mesh, &origin);
        assert_eq!(g.links.len(), 1);
        let link = &g.links[0];
        assert_eq!(
            (link.id, link.from, link.to, link.cost, link.bidirectional, link.usable),
            (id.0, [9.0, 1.0], [20.5, 1.0], 3.0, false, true)
        );
        let mut q = Queries::new(mesh);
        for mode in ["fast", "optimal"] {
            let body = format!(r#"{{"from": [1, 1], "to": [21, 1], "mode": "{mode}"}}"#);
            let there = q.path(body.as_bytes()).unwrap();
            assert!(there.found, "{there:?}");
            assert_eq!(there.points, vec![[1.0, 1.0], [9.0, 1.0], [20.5, 1.0], [21.0, 1.0]]);
            assert_eq!((there.links.clone(), there.length, there.cost), (vec![1], Some(8.5), Some(11.5)));
            let back =
                q.path(format!(r#"{{"from": [21, 1], "to": [1, 1], "mode": "{mode}"}}"#).as_bytes()).unwrap();
            assert!(!back.found, "one way only: {back:?}");
        }
    }

    #[test]
    fn layers_are_named_in_queries_and_answers() {
        let level = trinav_bake::Level::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/levels/overpass.json"
        )))
        .unwrap();
        let mesh = trinav_bake::bake(&level, &trinav::BakeSettings::default()).unwrap().mesh;
        let origin = Origin { file: "overpass.json".to_string(), baked: true, load_ms: 1.0 };
        let g = Geometry::new(&mesh, &origin);
        let names: Vec<&str> = g.layers.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["ground", "bridge"]);
        assert_eq!(g.triangle_layers.len(), mesh.triangle_count());
        assert_eq!(g.layers.iter().map(|l| l.triangles).sum::<usize>(), mesh.triangle_count());
        assert_eq!(g.links.len(), 2);
        let mut q = Queries::new(mesh);
        // Under the bridge on the road, and on the bridge above it: the same x, y.
        let body = br#"{"from": [5, 23], "to": [30, 25], "from_layer": "ground", "to_layer": "bridge", "mode": "optimal"}"#;
        let answer = q.path(body).unwrap();
        let options = PathOptions::default().with_mode(PathMode::Optimal);
        let (ground, bridge) =
            (q.mesh().layer_by_name("ground").unwrap(), q.mesh().layer_by_name("bridge").unwrap());
        let expected = q
            .mesh()
            .find_path_on(
                (ground, Point::new(5.0, 23.0)),
                (bridge, Point::new(30.0, 25.0)),
                &options,
                &mut PathScratch::new(),
            )
            .unwrap();
        assert_eq!((answer.length, answer.cost), (Some(expected.length), Some(expected.cost)));
        assert_eq!(answer.layers.first().map(String::as_str), Some("ground"));
        assert_eq!(answer.layers.last().map(String::as_str), Some("bridge"));
        assert_eq!(answer.layers.len(), answer.points.len());
        assert_eq!(answer.links.len(), expected.links.len());
        let ambiguous = q.path(br#"{"from": [5, 23], "to": [30, 25]}"#).unwrap_err();
        assert!(
            matches!(&ambiguous, ApiError::Unprocessable(m) if m.contains("several layers")),
            "{ambiguous:?}"
        );
        let unknown = q.path(br#"{"from": [5, 23], "to": [30, 25], "from_layer": "roof"}"#).unwrap_err();
        assert_eq!(
            unknown,
            ApiError::Unprocessable("unknown layer `roof` (the mesh's layers: ground, bridge)".to_string())
        );
        let on_bridge = q.locate(br#"{"point": [30, 25], "layer": "bridge"}"#).unwrap();
        assert_eq!(
            (on_bridge.layer.as_deref(), on_bridge.layers.clone()),
            (Some("bridge"), vec!["ground".to_string(), "bridge".to_string()])
        );
        let ray = q.raycast(br#"{"from": [30, 25], "to": [30, 20], "layer": "bridge"}"#).unwrap();
        let hit = q.mesh().raycast_on(bridge, Point::new(30.0, 25.0), Point::new(30.0, 20.0)).unwrap();
        assert_eq!(ray.clear, hit.is_clear());
    }

    /// An obstacle added in the way: the optimal path equals that of a bake of the level with
    /// it (the oracle); removed: the straight path again. Bad edits change nothing.
    #[test]
    fn obstacles_are_added_and_removed_as_a_bake_with_them_has_it() {
        use trinav_bake::{Level, PolygonInput, bake};
        let mut q = queries();
        let body = br#"{"from": [1, 1], "to": [9, 1], "mode": "optimal"}"#;
        assert_eq!(q.path(body).unwrap().length, Some(8.0));
        let added = q.add_obstacle(br#"{"outer": [[4.5, 0], [5.5, 0], [5.5, 3], [4.5, 3]]}"#).unwrap();
        let level = Level {
            walkable: vec![
                PolygonInput::rect(0.0, 0.0, 10.0, 10.0),
                PolygonInput::rect(20.0, 0.0, 22.0, 2.0),
            ],
            obstacles: vec![PolygonInput::rect(4.0, 4.0, 6.0, 6.0), PolygonInput::rect(4.5, 0.0, 5.5, 3.0)],
            ..Level::default()
        };
        let rebaked = bake(&level, &trinav::BakeSettings::default()).unwrap().mesh;
        let options = PathOptions::default().with_mode(PathMode::Optimal);
        let expected = rebaked
            .find_path_with(Point::new(1.0, 1.0), Point::new(9.0, 1.0), &options, &mut PathScratch::new())
            .unwrap();
        let around = q.path(body).unwrap();
        assert!((around.length.unwrap() - expected.length).abs() < 1e-9, "{around:?} vs {}", expected.length);
        assert_eq!((added.triangles, added.islands), (q.mesh().triangle_count(), 2));
        assert!(added.update_us >= 0.0);
        // Errors: nothing changes.
        let triangles = q.mesh().triangle_count();
        let crossed = q.add_obstacle(br#"{"outer": [[1, 1], [3, 3], [3, 1], [1, 3]]}"#).unwrap_err();
        assert!(
            matches!(&crossed, ApiError::Unprocessable(m) if m.contains("invalid obstacle")),
            "{crossed:?}"
        );
        let unknown = q.remove_obstacle("99").unwrap_err();
        assert_eq!(unknown, ApiError::Unprocessable("no obstacle has id 99".to_string()));
        assert!(
            matches!(q.remove_obstacle("x"), Err(ApiError::BadRequest(m)) if m.contains("`x` is not a number"))
        );
        assert!(matches!(
            q.add_obstacle(br#"{"outer": [[1, 1]], "colour": 3}"#),
            Err(ApiError::BadRequest(_))
        ));
        assert_eq!(q.mesh().triangle_count(), triangles);
        let removed = q.remove_obstacle(&added.id.to_string()).unwrap();
        assert_eq!(removed.id, added.id);
        assert_eq!(q.path(body).unwrap().length, Some(8.0));
    }

    /// On a layered mesh an obstacle names its layer: a cart on the bridge leaves the road
    /// below free (both against the library's answer on a mesh edited the same way).
    #[test]
    fn an_obstacle_on_a_layer_blocks_that_layer_only() {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/levels/overpass.json");
        let level = trinav_bake::Level::load(std::path::Path::new(file)).unwrap();
        let mesh = trinav_bake::bake(&level, &trinav::BakeSettings::default()).unwrap().mesh;
        let mut q = Queries::new(mesh.clone());
        let cart = r#""outer": [[28, 22], [32, 22], [32, 23], [28, 23]]"#;
        let no_layer = q.add_obstacle(format!("{{{cart}}}").as_bytes()).unwrap_err();
        assert!(matches!(&no_layer, ApiError::Unprocessable(m) if m.contains("layer")), "{no_layer:?}");
        let unknown = q.add_obstacle(format!(r#"{{{cart}, "layer": "roof"}}"#).as_bytes()).unwrap_err();
        assert!(
            matches!(&unknown, ApiError::Unprocessable(m) if m.starts_with("unknown layer `roof`")),
            "{unknown:?}"
        );
        q.add_obstacle(format!(r#"{{{cart}, "layer": "bridge"}}"#).as_bytes()).unwrap();
        let mut world = EditableMesh::new(mesh.clone());
        let bridge = world.mesh().layer_by_name("bridge").unwrap();
        world.add_obstacle_on(bridge, &PolygonInput::rect(28.0, 22.0, 32.0, 23.0)).unwrap();
        let ground = world.mesh().layer_by_name("ground").unwrap();
        let optimal = PathOptions::default().with_mode(PathMode::Optimal);
        for (from, to) in [([30.0, 2.0], [30.0, 44.0]), ([5.0, 23.0], [55.0, 23.0])] {
            let body = format!(
                r#"{{"from": {from:?}, "to": {to:?}, "from_layer": "ground", "to_layer": "ground", "mode": "optimal"}}"#
            );
            let answer = q.path(body.as_bytes()).unwrap();
            let ends = ((ground, Point::from(from)), (ground, Point::from(to)));
            let expected = world.mesh().find_path_on(ends.0, ends.1, &optimal, &mut PathScratch::new());
            assert_eq!(answer.length, expected.ok().map(|p| p.length), "{body}");
            let before = mesh.find_path_on(ends.0, ends.1, &optimal, &mut PathScratch::new()).unwrap();
            // Over the bridge: round the cart; along the road below it: as before.
            let over_the_bridge = from[1] < 10.0;
            assert_eq!(answer.length.unwrap() > before.length, over_the_bridge, "{body}");
        }
    }
}
