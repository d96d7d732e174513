//! Queries on fixed meshes (data/levels/town.json with both triangulations, courtyard.json with
//! its agent radius 0.5), each baked once: locate, locate_all, nearest_point, raycast and paths
//! (with and without snapping, with and without sides) at arbitrary points, NaN, infinities
//! and huge values included. Besides "no panic", each answer is checked against what the API
//! documents:
//!
//! - `locate` returns a triangle containing the point, the lowest of `locate_all`;
//! - `nearest_point` is `None` only for a non-finite point, is the point itself on the mesh,
//!   and is no farther than any mesh vertex;
//! - a clear raycast ends in a triangle containing its end; a blocked one has its fraction in
//!   [0, 1] and its point where that fraction puts it on the segment; a raycast from a point
//!   to itself is clear;
//! - a path starts and ends at the query points (or their snapped points), its length is
//!   finite, equals the sum of its segments and is at least the straight distance; a clear
//!   raycast gives the straight segment; `Unreachable` only between different islands;
//! - the optimal mode answers as the fast mode does (the same errors, a path when it finds
//!   one), never longer than the fast mode's path, and every segment of its path passes a
//!   raycast;
//! - with partial paths on (and maybe a node budget), a path comes whenever the start is
//!   accepted and the goal is finite; a partial one ends on the mesh, on the start's island, no
//!   farther from the goal than the nearest vertex of that island (goal unreachable or off the
//!   mesh), or (budget exhausted) no farther than the start from the point it heads for (the
//!   goal, or its nearest point on the start's island); no search expands more than its budget.

#![no_main]

#[path = "checks.rs"]
mod checks;

use std::sync::OnceLock;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use trinav::{
    BakeSettings, NavMesh, PartialReason, Path, PathError, PathMode, PathOptions, PathScratch, Point,
    QueryError, RayHit, TriangleId, Triangulation,
};
use trinav_bake::Level;

fn meshes() -> &'static [NavMesh] {
    static MESHES: OnceLock<Vec<NavMesh>> = OnceLock::new();
    MESHES.get_or_init(|| {
        let bake = |json: &str, triangulation: Triangulation| {
            let level = Level::from_json(json).expect("bundled level parses");
            let base = BakeSettings::default().with_triangulation(triangulation);
            let settings = trinav_bake::settings_for(&level, base, None);
            trinav_bake::bake(&level, &settings).expect("bundled level bakes").mesh
        };
        let town = include_str!("../../data/levels/town.json");
        let courtyard = include_str!("../../data/levels/courtyard.json");
        vec![
            bake(town, Triangulation::ConstrainedDelaunay),
            bake(town, Triangulation::EarClipping),
            bake(courtyard, Triangulation::ConstrainedDelaunay),
        ]
    })
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Special {
    Nan,
    Inf,
    NegInf,
    Max,
    Min,
    Tiny,
    Zero,
    NegZero,
}

impl Special {
    fn value(self) -> f64 {
        match self {
            Special::Nan => f64::NAN,
            Special::Inf => f64::INFINITY,
            Special::NegInf => f64::NEG_INFINITY,
            Special::Max => f64::MAX,
            Special::Min => f64::MIN,
            Special::Tiny => f64::MIN_POSITIVE / 4.0,
            Special::Zero => 0.0,
            Special::NegZero => -0.0,
        }
    }
}

/// A query point, described relative to the mesh so that vertices, edges and their
/// neighbourhoods are hit often.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Spot {
    /// Anything.
    Raw(f64, f64),
    /// Special values in either coordinate, the other in the mesh's box.
    Special(Special, u16, bool),
    /// In the mesh's box grown by 10% on each side.
    InBox(u16, u16),
    /// Integer coordinates (the bundled levels have integer corners).
    Integer(i8, i8),
    /// A vertex.
    Vertex(u16),
    /// A vertex moved by a few ulps.
    NearVertex(u16, i8, i8),
    /// On (or a rounding error off) a triangle edge.
    OnEdge(u16, u8, u16),
}

fn nudge(v: f64, ulps: i8) -> f64 {
    let bits = v.to_bits() as i64;
    // Moving the bit pattern moves away from zero for positive and towards it for negative;
    // either way a few representable steps.
    f64::from_bits((bits + i64::from(ulps)) as u64)
}

impl Spot {
    fn point(self, mesh: &NavMesh) -> Point {
        let b = mesh.bounds();
        let (w, h) = (b.max.x - b.min.x, b.max.y - b.min.y);
        let in_box = |x: u16, y: u16| {
            Point::new(
                b.min.x - 0.1 * w + 1.2 * w * f64::from(x) / 65535.0,
                b.min.y - 0.1 * h + 1.2 * h * f64::from(y) / 65535.0,
            )
        };
        let vertices = mesh.vertices();
        match self {
            Spot::Raw(x, y) => Point::new(x, y),
            Spot::Special(s, other, x_special) => {
                let p = in_box(other, other);
                if x_special { Point::new(s.value(), p.y) } else { Point::new(p.x, s.value()) }
            }
            Spot::InBox(x, y) => in_box(x, y),
            Spot::Integer(x, y) => Point::new(f64::from(x), f64::from(y)),
            Spot::Vertex(i) => vertices[usize::from(i) % vertices.len()],
            Spot::NearVertex(i, dx, dy) => {
                let v = vertices[usize::from(i) % vertices.len()];
                Point::new(nudge(v.x, dx), nudge(v.y, dy))
            }
            Spot::OnEdge(t, e, s) => {
                let corners = mesh.triangle_points(TriangleId(u32::from(t) % mesh.triangle_count() as u32));
                let (p, q) = (corners[usize::from(e) % 3], corners[(usize::from(e) + 1) % 3]);
                let s = f64::from(s) / 65535.0;
                Point::new(p.x + (q.x - p.x) * s, p.y + (q.y - p.y) * s)
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Query {
    mesh: u8,
    a: Spot,
    b: Spot,
    sides: Option<(Spot, Spot)>,
    /// A node budget for a partial-path query.
    budget: Option<u16>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    queries: Vec<Query>,
}

fn check_point(mesh: &NavMesh, p: Point) {
    let located = mesh.locate(p);
    let all: Vec<TriangleId> = mesh.locate_all(p).collect();
    assert!(all.windows(2).all(|w| w[0] < w[1]), "locate_all({p:?}) not ascending: {all:?}");
    for &t in &all {
        assert!(mesh.triangle_contains(t, p), "locate_all({p:?}) gave {t:?}, which does not contain it");
    }
    assert_eq!(located, all.first().copied(), "locate({p:?}) is not the lowest of locate_all");
    match mesh.nearest_point(p) {
        None => assert!(!p.in_range(), "nearest_point({p:?}) is None for a point in range"),
        Some((q, t)) => {
            assert!(p.in_range(), "nearest_point({p:?}) answered for a point out of range");
            assert!(q.is_finite(), "nearest_point({p:?}) = {q:?} is not finite");
            assert!(mesh.triangle_contains(t, q), "nearest_point({p:?}) = {q:?} is not in {t:?}");
            if located.is_some() {
                assert_eq!(q, p, "nearest_point of a point on the mesh is not the point");
            }
            // hypot: `Point::distance` squares, which overflows for points beyond ~1e154.
            let distance = |u: Point, v: Point| (u.x - v.x).hypot(u.y - v.y);
            let d = distance(q, p);
            if d.is_finite() {
                for &v in mesh.vertices() {
                    let dv = distance(v, p);
                    assert!(
                        d <= dv * (1.0 + 1e-9) + 1e-9,
                        "nearest_point({p:?}) = {q:?} at {d}, but vertex {v:?} is at {dv}"
                    );
                }
            }
        }
    }
}

/// The point a path query starts or ends at, and the triangles around it, as the query sees
/// them (the snapped point when snapping); `None` when the point is refused.
fn endpoint(mesh: &NavMesh, p: Point, snap: bool) -> Option<(Point, Vec<TriangleId>)> {
    if !p.is_finite() {
        return None;
    }
    if mesh.locate(p).is_some() {
        return Some((p, mesh.locate_all(p).collect()));
    }
    if !snap {
        return None;
    }
    let (q, t) = mesh.nearest_point(p)?;
    let around: Vec<TriangleId> = mesh.locate_all(q).collect();
    Some((q, if around.is_empty() { vec![t] } else { around }))
}

/// Checks the path query in both modes, and the optimal path against the fast one.
fn check_path(mesh: &NavMesh, a: Point, b: Point, options: &PathOptions, scratch: &mut PathScratch) {
    let fast = check_path_in(mesh, a, b, options, scratch);
    let optimal = check_path_in(mesh, a, b, &options.with_mode(PathMode::Optimal), scratch);
    match (&fast, &optimal) {
        (Ok(fast), Ok(optimal)) => {
            assert!(
                optimal.length <= fast.length * (1.0 + 1e-9),
                "optimal path {optimal:?} longer than the fast one {fast:?} for {a:?} -> {b:?}"
            );
            for w in optimal.points.windows(2) {
                let hit = mesh.raycast(w[0], w[1]);
                assert!(hit.is_ok_and(|h| h.is_clear()), "optimal segment {w:?} blocked: {hit:?}");
            }
        }
        // Compared as text: the errors hold the query points, and NaN != NaN.
        (fast, optimal) => assert_eq!(
            format!("{:?}", fast.as_ref().err()),
            format!("{:?}", optimal.as_ref().err()),
            "{a:?} -> {b:?}"
        ),
    }
}

/// Checks one path query against the API's promises; returns its result.
fn check_path_in(
    mesh: &NavMesh,
    a: Point,
    b: Point,
    options: &PathOptions,
    scratch: &mut PathScratch,
) -> Result<Path, PathError> {
    let result = mesh.find_path_with(a, b, options, scratch);
    let (ea, eb) = (endpoint(mesh, a, options.snap), endpoint(mesh, b, options.snap));
    match &result {
        Err(PathError::NonFinite { .. }) => {
            assert!(!a.in_range() || !b.in_range(), "NonFinite for in-range {a:?} -> {b:?}")
        }
        Err(PathError::OffMesh { .. }) => {
            assert!(!options.snap, "OffMesh with snapping");
            assert!(ea.is_none() || eb.is_none(), "OffMesh for {a:?} -> {b:?}, both on the mesh");
        }
        Err(PathError::BudgetExhausted { budget }) => {
            assert_eq!(options.node_budget, Some(*budget), "BudgetExhausted without that budget");
            assert!(!options.partial, "BudgetExhausted with partial paths on");
        }
        Err(PathError::Unreachable) => {
            let (Some((_, starts)), Some((_, goals))) = (ea, eb) else {
                panic!("Unreachable for {a:?} -> {b:?}, but an endpoint is refused")
            };
            if options.start_side.is_none() && options.goal_side.is_none() {
                let shared = starts.iter().any(|&s| goals.iter().any(|&g| mesh.island(s) == mesh.island(g)));
                assert!(!shared, "Unreachable for {a:?} -> {b:?} on one island ({starts:?}, {goals:?})");
            }
        }
        Ok(path) => {
            let (Some((pa, _)), Some((pb, _))) = (ea, eb) else {
                panic!("path for {a:?} -> {b:?}, but an endpoint should be refused")
            };
            assert_eq!(path.points.first(), Some(&pa), "path does not start at {pa:?} (query {a:?})");
            let last = if pa == pb { pa } else { pb };
            assert_eq!(path.points.last(), Some(&last), "path does not end at {pb:?} (query {b:?})");
            assert!(path.length.is_finite(), "path length {} for {a:?} -> {b:?}", path.length);
            assert!(path.points.iter().all(|p| p.is_finite()), "non-finite path point");
            let sum: f64 = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
            assert_eq!(path.length, sum, "path length is not the sum of its segments");
            let straight = pa.distance(pb);
            assert!(
                path.length >= straight * (1.0 - 1e-12),
                "path length {} shorter than the straight distance {straight}",
                path.length
            );
            if options.start_side.is_none()
                && options.goal_side.is_none()
                && mesh.raycast(pa, pb).is_ok_and(|hit| hit.is_clear())
            {
                assert_eq!(path.points.len(), if pa == pb { 1 } else { 2 }, "clear line of sight, bent path");
            }
        }
        // This target asks for no radius, costs or links: none of their errors may come.
        Err(e) => panic!("{a:?} -> {b:?}: unexpected error {e:?}"),
    }
    result
}

/// Checks a partial-path query (both modes): a path whenever the start is accepted and the
/// goal finite, ending where the API says.
fn check_partial(mesh: &NavMesh, a: Point, b: Point, options: &PathOptions, scratch: &mut PathScratch) {
    for mode in [PathMode::Fast, PathMode::Optimal] {
        let options = options.with_partial(true).with_mode(mode);
        let result = mesh.find_path_with(a, b, &options, scratch);
        if let Some(budget) = options.node_budget {
            assert!(
                scratch.expanded_nodes() <= budget,
                "{} nodes for a budget of {budget}",
                scratch.expanded_nodes()
            );
        }
        let start = endpoint(mesh, a, options.snap);
        let (path, (from, starts)) = match (result, start) {
            (Ok(path), Some(start)) => (path, start),
            (Err(PathError::NonFinite { .. }), _) if !b.in_range() || !a.in_range() => continue,
            (Err(PathError::OffMesh { .. } | PathError::NonFinite { .. }), None) => continue,
            (result, start) => panic!("partial {a:?} -> {b:?} ({mode:?}): {result:?}, start {start:?}"),
        };
        assert_eq!(path.points.first(), Some(&from), "partial path does not start at {from:?}");
        let end = path.end().expect("a path has points");
        let Some(reason) = path.partial else {
            assert!(b.in_range(), "complete path to an out-of-range goal");
            continue;
        };
        assert!(mesh.locate(end).is_some(), "partial path ends off the mesh at {end:?}");
        let islands: Vec<_> = starts.iter().map(|&s| mesh.island(s)).collect();
        assert!(
            mesh.locate_all(end).any(|t| islands.contains(&mesh.island(t))),
            "{end:?} is on another island"
        );
        let distance = |u: Point, v: Point| (u.x - v.x).hypot(u.y - v.y);
        let d = distance(end, b);
        match reason {
            PartialReason::BudgetExhausted => {
                assert!(options.node_budget.is_some(), "budget exhausted without a budget");
                // It heads for the goal, or (unreachable, off the mesh) for the goal's nearest
                // point on the start's islands, and ends no farther from it than the start.
                let on_start_island = mesh.locate_all(b).any(|t| islands.contains(&mesh.island(t)));
                let target = if on_start_island {
                    b
                } else {
                    let nearest = islands.iter().filter_map(|&i| mesh.nearest_point_on_island(b, i));
                    nearest
                        .map(|(q, _)| q)
                        .min_by(|u, v| distance(*u, b).total_cmp(&distance(*v, b)))
                        .expect("an island")
                };
                assert!(
                    distance(end, target) <= distance(from, target) * (1.0 + 1e-9) + 1e-9,
                    "{end:?} is farther from {target:?} (heading for {b:?}) than {from:?}"
                );
            }
            _ => {
                let island_vertices = starts.iter().flat_map(|&s| {
                    let island = mesh.island(s);
                    (0..mesh.triangle_count() as u32)
                        .map(TriangleId)
                        .filter(move |&t| mesh.island(t) == island)
                        .flat_map(|t| mesh.triangle_points(t))
                });
                for v in island_vertices {
                    assert!(
                        d <= distance(v, b) * (1.0 + 1e-9) + 1e-9,
                        "{end:?} farther from {b:?} than vertex {v:?}"
                    );
                }
            }
        }
    }
}

fn check_raycast(mesh: &NavMesh, a: Point, b: Point) {
    match mesh.raycast(a, b) {
        Err(QueryError::NonFinite(_)) => assert!(!a.in_range() || !b.in_range()),
        Err(QueryError::AmbiguousLayer(p)) => panic!("raycast from {p:?}: several layers on a mesh of one"),
        Err(QueryError::OffMesh(p)) => {
            assert_eq!(p, a);
            assert!(mesh.locate(a).is_none(), "raycast says {a:?} is off the mesh, locate finds it");
        }
        Ok(RayHit::Clear { triangle }) => {
            assert!(
                mesh.triangle_contains(triangle, b),
                "clear raycast {a:?} -> {b:?} ends outside {triangle:?}"
            )
        }
        Ok(RayHit::Blocked { point, fraction, edge, .. }) => {
            assert!(a != b, "raycast from {a:?} to itself is blocked");
            assert!((0.0..=1.0).contains(&fraction), "raycast fraction {fraction} for {a:?} -> {b:?}");
            assert!(edge < 3);
            assert!(point.is_finite(), "raycast hit point {point:?}");
            checks::assert_on_segment(a, b, point, fraction);
        }
    }
}

fuzz_target!(|input: Input| {
    let meshes = meshes();
    let mut scratch = PathScratch::new();
    for query in input.queries.iter().take(16) {
        let mesh = &meshes[usize::from(query.mesh) % meshes.len()];
        let (a, b) = (query.a.point(mesh), query.b.point(mesh));
        check_point(mesh, a);
        check_point(mesh, b);
        check_raycast(mesh, a, b);
        check_raycast(mesh, a, a);
        check_path(mesh, a, b, &PathOptions::default(), &mut scratch);
        check_path(mesh, a, b, &PathOptions::default().with_snap(true), &mut scratch);
        let partial = PathOptions::default().with_node_budget(query.budget.map(u32::from));
        check_partial(mesh, a, b, &partial, &mut scratch);
        check_partial(mesh, a, b, &partial.with_snap(true), &mut scratch);
        if let Some((sa, sb)) = query.sides {
            let options = PathOptions::default().with_sides(Some(sa.point(mesh)), Some(sb.point(mesh)));
            check_path(mesh, a, b, &options, &mut scratch);
            check_path(mesh, a, b, &options.with_snap(true), &mut scratch);
        }
    }
});
