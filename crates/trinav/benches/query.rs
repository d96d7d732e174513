//! Query benchmarks: paths, point location, nearest point and raycasts, one query per iteration.
//!
//! Meshes: the committed fixtures (`tests/fixtures`, see `fixtures.txt`) of the sample levels,
//! baked with constrained Delaunay (`_cdt`) and, for town and courtyard, with ear clipping
//! (`_ear`) side by side, and `generated_10k_cdt` (`trinav_bake::generate::scattered_obstacles(10_000,
//! 21)`, radius 0).
//!
//! For each mesh a fixed set of queries is drawn with a seeded generator:
//!
//! - `PAIRS` path pairs: points uniform in the mesh bounds, kept when both are on the mesh and on
//!   the same island (so every pair is connected). `find_path_into` (reused scratch and path;
//!   group `find_path_into` in fast mode, `find_path_into_optimal` in optimal mode) and
//!   `raycast` run over these pairs.
//! - `POINTS` points uniform in the bounds, for `locate`.
//! - `POINTS` points uniform in the bounds grown by 5% of its size on each side (10% larger in
//!   all), for `nearest_point`.
//!
//! Every benchmark runs one query per iteration, cycling through its set, so criterion's time
//! is the time of one query (`Throughput::Elements(1)`: its throughput is queries per second).
//!
//! Before measuring, each mesh's figures are printed, for each path mode: triangles, pairs, the
//! ratio of path length to straight-line distance (mean, max), how many path segments a raycast finds
//! blocked (must be 0), and, for meshes with at most `VISIBILITY_GRAPH_LIMIT` boundary
//! vertices, the ratio of the path length to the exact shortest path, computed with a
//! visibility graph (nodes: start, goal and every boundary vertex, one node per fan where
//! obstacles touch corner to corner; a directed edge `a -> b` when `raycast(a, b)` is clear;
//! Dijkstra). A path shorter than the optimum (by more than 1e-9 relative) would be an invalid
//! path: that count must be 0. Also printed: how many `nearest_point` results lie outside the
//! triangle returned with them, and per mode the time per search node (all pairs timed once,
//! over the nodes they expanded), to turn a node budget into microseconds.
//!
//! Off-mesh links (groups `links_fast`, `links_optimal`, `links_add_remove`): the pairs of
//! `generated_10k_cdt` on the mesh as it is (`none`) and with `LINKS` links added (ends
//! uniform on the mesh, one in three both ways; `100_cheap`: costs uniform from 0 to their
//! length, shortcuts everywhere; `100_at_length`: each costing its length, as a jump or a
//! ladder), and one link added and removed again on the mesh with links. `none_r` and
//! `100_cheap_r`: the pairs whose ends keep `LINK_RADIUS` from the walls, for a disc of that
//! radius (a link is usable by it where it fits at both ends). Printed first, per
//! mesh with links: the mean and worst ratio of the fast mode's cost to the optimal one over
//! the pairs both modes join, and how many paths take a link in each mode.
//!
//! Run with `cargo bench -p trinav --bench query` (`-- links` for the link groups alone).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use trinav::geometry::{Orientation, orient};
use trinav::{NavMesh, Path, PathMode, PathOptions, PathScratch, Point, RayHit, TriangleId, VertexId};

/// The path modes measured, side by side.
const MODES: [PathMode; 2] = [PathMode::Fast, PathMode::Optimal];
/// Path pairs per mesh.
const PAIRS: usize = 1_000;
/// Points per mesh for `locate` and for `nearest_point`.
const POINTS: usize = 1_000;
/// The fixture meshes measured.
const MESHES: [&str; 6] =
    ["town_cdt", "town_ear", "courtyard_cdt", "courtyard_ear", "room_pillars_cdt", "generated_10k_cdt"];
/// Seed of the query sets (the same for every mesh).
const QUERY_SEED: u64 = 0x7121_A5EE_D000_0001;
/// Meshes with more boundary vertices than this get no visibility-graph reference.
const VISIBILITY_GRAPH_LIMIT: usize = 3_000;
/// Off-mesh links added for the link groups.
const LINKS: usize = 100;
/// The agent radius of the link groups' `_r` benchmarks.
const LINK_RADIUS: f64 = 0.25;
/// Relative tolerance when comparing a path with the optimum.
const RELATIVE_TOLERANCE: f64 = 1e-9;

/// A baked mesh and its query sets.
struct Case {
    name: String,
    mesh: NavMesh,
    /// Connected (start, goal) pairs.
    pairs: Vec<(Point, Point)>,
    /// Points drawn until `pairs` was full.
    pair_draws: usize,
    /// Points in the bounds.
    locate_points: Vec<Point>,
    /// Points in the bounds grown by 5% on each side.
    nearest_points: Vec<Point>,
}

/// Every benchmarked mesh with its queries.
fn cases() -> Vec<Case> {
    MESHES
        .iter()
        .map(|name| {
            let path =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/{name}.nav"));
            let mesh = NavMesh::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            with_queries(name.to_string(), mesh)
        })
        .collect()
}

/// Draws the query sets of `mesh`.
fn with_queries(name: String, mesh: NavMesh) -> Case {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(QUERY_SEED);
    let bounds = mesh.bounds();
    let size = bounds.size();
    let mut point_in = |min: Point, (w, h): (f64, f64)| {
        Point::new(min.x + w * rng.random::<f64>(), min.y + h * rng.random::<f64>())
    };
    let mut pairs = Vec::with_capacity(PAIRS);
    let mut pair_draws = 0;
    while pairs.len() < PAIRS {
        assert!(pair_draws < PAIRS * 100_000, "{name}: too few connected pairs in the bounds");
        let (a, b) = (point_in(bounds.min, size), point_in(bounds.min, size));
        pair_draws += 2;
        if let (Some(s), Some(g)) = (mesh.locate(a), mesh.locate(b))
            && mesh.island(s) == mesh.island(g)
        {
            pairs.push((a, b));
        }
    }
    let locate_points = (0..POINTS).map(|_| point_in(bounds.min, size)).collect();
    let margin = Point::new(bounds.min.x - 0.05 * size.0, bounds.min.y - 0.05 * size.1);
    let nearest_points = (0..POINTS).map(|_| point_in(margin, (1.1 * size.0, 1.1 * size.1))).collect();
    Case { name, mesh, pairs, pair_draws, locate_points, nearest_points }
}

/// The ids of the vertices at the ends of boundary edges, sorted, without repeats.
fn boundary_vertices(mesh: &NavMesh) -> Vec<VertexId> {
    let mut ids = Vec::new();
    for (t, tri) in mesh.triangles().iter().enumerate() {
        let neighbours = mesh.neighbours(TriangleId::from_index(t));
        for i in 0..3 {
            if neighbours[i].is_none() {
                ids.push(tri[i]);
                ids.push(tri[(i + 1) % 3]);
            }
        }
    }
    ids.sort();
    ids.dedup();
    ids
}

/// A Dijkstra queue entry, ordered so that `BinaryHeap` pops the smallest distance.
#[derive(Clone, Copy, PartialEq)]
struct Queued(f64, usize);

impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

/// One corner of a triangle at a boundary vertex, with the fan it belongs to.
#[derive(Clone, Copy)]
struct Corner {
    triangle: TriangleId,
    /// 0..3: which corner of the triangle.
    k: usize,
    /// The graph node of its fan.
    node: usize,
}

/// Exact shortest paths: the visibility graph over the boundary vertices (which hold every turn
/// of a shortest path), with the start and goal added per query.
///
/// A vertex where obstacles touch corner to corner has several fans (triangles around it
/// joined through shared edges), and a path may not pass from one fan to another there: such a
/// vertex is one node per fan. A clear segment `a -> b` is an edge from the fan at `a` that it
/// leaves through to the fan at `b` that it arrives through.
struct VisibilityGraph {
    /// The boundary vertices.
    vertices: Vec<Point>,
    /// The corners at each boundary vertex.
    corners: Vec<Vec<Corner>>,
    /// The position of each node (fan).
    nodes: Vec<Point>,
    /// `edges[a]`: the nodes reached from node `a` by a clear segment, with its length.
    edges: Vec<Vec<(usize, f64)>>,
    /// Vertex pairs whose two raycasts (a -> b, b -> a) disagree.
    asymmetric: usize,
    /// Clear raycasts between vertices whose ends have no fan opening towards the other end.
    fanless: usize,
}

impl VisibilityGraph {
    fn new(mesh: &NavMesh, ids: &[VertexId]) -> Self {
        let mut local = vec![usize::MAX; mesh.vertices().len()];
        for (i, v) in ids.iter().enumerate() {
            local[v.index()] = i;
        }
        let mut corners: Vec<Vec<Corner>> = vec![Vec::new(); ids.len()];
        for (t, tri) in mesh.triangles().iter().enumerate() {
            for (k, v) in tri.iter().enumerate() {
                if local[v.index()] != usize::MAX {
                    corners[local[v.index()]].push(Corner {
                        triangle: TriangleId::from_index(t),
                        k,
                        node: usize::MAX,
                    });
                }
            }
        }
        // Fans: the corners at a vertex joined through the two edges incident to it.
        let vertices: Vec<Point> = ids.iter().map(|v| mesh.vertices()[v.index()]).collect();
        let mut nodes = Vec::new();
        for (i, at) in corners.iter_mut().enumerate() {
            for first in 0..at.len() {
                if at[first].node != usize::MAX {
                    continue;
                }
                let node = nodes.len();
                nodes.push(vertices[i]);
                at[first].node = node;
                let mut stack = vec![first];
                while let Some(c) = stack.pop() {
                    let Corner { triangle, k, .. } = at[c];
                    for edge in [k, (k + 2) % 3] {
                        let next = mesh.neighbours(triangle)[edge];
                        if next.is_none() {
                            continue;
                        }
                        let j =
                            at.iter().position(|c| c.triangle == next).expect("neighbour shares the vertex");
                        if at[j].node == usize::MAX {
                            at[j].node = node;
                            stack.push(j);
                        }
                    }
                }
            }
        }
        let mut graph = VisibilityGraph {
            vertices,
            corners,
            edges: vec![Vec::new(); nodes.len()],
            nodes,
            asymmetric: 0,
            fanless: 0,
        };
        let n = graph.vertices.len();
        for a in 0..n {
            for b in a + 1..n {
                let (pa, pb) = (graph.vertices[a], graph.vertices[b]);
                let forward = clear(mesh, pa, pb);
                let backward = clear(mesh, pb, pa);
                graph.asymmetric += usize::from(forward != backward);
                let d = pa.distance(pb);
                for (clear, from, to) in [(forward, a, b), (backward, b, a)] {
                    if !clear {
                        continue;
                    }
                    let (p_from, p_to) = (graph.vertices[from], graph.vertices[to]);
                    match (graph.fan(mesh, from, p_to), graph.fan(mesh, to, p_from)) {
                        (Some(u), Some(v)) => graph.edges[u].push((v, d)),
                        _ => graph.fanless += 1,
                    }
                }
            }
        }
        graph
    }

    /// The node of the fan at boundary vertex `i` whose corner opens towards `towards`.
    fn fan(&self, mesh: &NavMesh, i: usize, towards: Point) -> Option<usize> {
        self.corners[i]
            .iter()
            .find(|c| {
                let corners = mesh.triangle_points(c.triangle);
                let (v, next, prev) = (corners[c.k], corners[(c.k + 1) % 3], corners[(c.k + 2) % 3]);
                orient(v, next, towards) != Orientation::Clockwise
                    && orient(v, prev, towards) != Orientation::CounterClockwise
            })
            .map(|c| c.node)
    }

    fn edge_count(&self) -> usize {
        self.edges.iter().map(Vec::len).sum()
    }

    /// The shortest path from `from` to `to` (length and points), or `None` when the graph does
    /// not connect them.
    fn shortest(&self, mesh: &NavMesh, from: Point, to: Point) -> Option<(f64, Vec<Point>)> {
        let n = self.nodes.len();
        let (start, goal) = (n, n + 1);
        let mut from_start = Vec::new();
        let mut to_goal = vec![None; n];
        for (i, &v) in self.vertices.iter().enumerate() {
            if clear(mesh, from, v)
                && let Some(node) = self.fan(mesh, i, from)
            {
                from_start.push((node, from.distance(v)));
            }
            if clear(mesh, v, to)
                && let Some(node) = self.fan(mesh, i, to)
            {
                to_goal[node] = Some(v.distance(to));
            }
        }
        if clear(mesh, from, to) {
            from_start.push((goal, from.distance(to)));
        }
        let mut dist = vec![f64::INFINITY; n + 2];
        let mut parent = vec![usize::MAX; n + 2];
        let mut heap = BinaryHeap::new();
        dist[start] = 0.0;
        heap.push(Queued(0.0, start));
        while let Some(Queued(d, u)) = heap.pop() {
            if d > dist[u] {
                continue;
            }
            if u == goal {
                let mut points = vec![to];
                let mut node = parent[goal];
                while node != start {
                    points.push(self.nodes[node]);
                    node = parent[node];
                }
                points.push(from);
                points.reverse();
                return Some((d, points));
            }
            let mut relax = |v: usize, w: f64| {
                let nd = d + w;
                if nd < dist[v] {
                    dist[v] = nd;
                    parent[v] = u;
                    heap.push(Queued(nd, v));
                }
            };
            if u == start {
                from_start.iter().for_each(|&(v, w)| relax(v, w));
            } else {
                self.edges[u].iter().for_each(|&(v, w)| relax(v, w));
                if let Some(w) = to_goal[u] {
                    relax(goal, w);
                }
            }
        }
        None
    }
}

/// Whether the segment `a -> b` is clear (`a` on the mesh).
fn clear(mesh: &NavMesh, a: Point, b: Point) -> bool {
    matches!(mesh.raycast(a, b), Ok(RayHit::Clear { .. }))
}

/// Mean and maximum of `values` (NaN for none).
fn mean_max(values: &[f64]) -> (f64, f64) {
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    (mean, values.iter().copied().fold(f64::NAN, f64::max))
}

/// Prints the figures of one case: sizes, path quality, the visibility-graph comparison.
fn report(case: &Case) {
    let mesh = &case.mesh;
    let stats = mesh.stats();
    let boundary = boundary_vertices(mesh);
    println!(
        "{}: {} triangles, {} vertices ({} on the boundary), {} islands; {} pairs ({} of {} points drawn \
         kept)",
        case.name,
        stats.triangles,
        stats.vertices,
        boundary.len(),
        stats.islands,
        case.pairs.len(),
        2 * case.pairs.len(),
        case.pair_draws,
    );

    let mut paths_by_mode = Vec::new();
    for mode in MODES {
        let mut scratch = PathScratch::new();
        let options = PathOptions::default().with_mode(mode);
        let mut path = Path::default();
        let mut paths = Vec::with_capacity(case.pairs.len());
        let (mut failures, mut blocked_paths, mut corners) = (0, 0, 0);
        let mut straight_ratios = Vec::new();
        for &(from, to) in &case.pairs {
            match mesh.find_path_into(from, to, &options, &mut scratch, &mut path) {
                Ok(()) => {
                    corners += path.points.len().saturating_sub(2);
                    if path.points.windows(2).any(|w| !clear(mesh, w[0], w[1])) {
                        blocked_paths += 1;
                        if blocked_paths == 1 {
                            println!(
                                "  first path with a blocked segment: {from:?} -> {to:?}: {:?}",
                                path.points
                            );
                        }
                    }
                    let straight = from.distance(to);
                    if straight > 0.0 {
                        straight_ratios.push(path.length / straight);
                    }
                    paths.push(Some(path.clone()));
                }
                Err(e) => {
                    failures += 1;
                    if failures == 1 {
                        println!("  first failed path: {from:?} -> {to:?}: {e}");
                    }
                    paths.push(None);
                }
            }
        }
        let (mean, max) = mean_max(&straight_ratios);
        let rays_clear = case.pairs.iter().filter(|&&(a, b)| clear(mesh, a, b)).count();
        // Time per expanded node: every pair once more, timed as a whole.
        let (mut nodes, started) = (0u64, Instant::now());
        for &(from, to) in &case.pairs {
            let _ = mesh.find_path_into(from, to, &options, &mut scratch, &mut path);
            nodes += u64::from(scratch.expanded_nodes());
        }
        let ns_per_node = started.elapsed().as_nanos() as f64 / nodes.max(1) as f64;
        println!(
            "  {} paths: {failures} failed, {blocked_paths} with a blocked segment, {:.2} turns on average; \
             length / straight line: mean {mean:.4}, max {max:.4}; raycasts clear: {rays_clear} of {}; \
             {:.1} nodes expanded per query, {ns_per_node:.1} ns per node",
            mode.name(),
            corners as f64 / (case.pairs.len() - failures) as f64,
            case.pairs.len(),
            nodes as f64 / case.pairs.len() as f64,
        );
        paths_by_mode.push((mode, paths));
    }
    let on_mesh = case.locate_points.iter().filter(|&&p| mesh.locate(p).is_some()).count();
    // `nearest_point` promises a triangle containing the point it returns; a path query with
    // snapping re-locates that point, so one that is off the mesh makes the snap fail.
    let off_mesh: Vec<Point> =
        case.nearest_points.iter().copied().filter(|&p| mesh.locate(p).is_none()).collect();
    let (mut outside_triangle, mut relocate_fails) = (0, 0);
    for &p in &off_mesh {
        let (q, t) = mesh.nearest_point(p).expect("the mesh is not empty");
        outside_triangle += usize::from(!mesh.triangle_contains(t, q));
        relocate_fails += usize::from(mesh.locate(q).is_none());
    }
    println!(
        "  locate points on the mesh: {on_mesh} of {}; nearest_point: {} of {} points off the mesh, for \
         {outside_triangle} of them the point returned is not in the triangle returned ({relocate_fails} not \
         on the mesh at all)",
        case.locate_points.len(),
        off_mesh.len(),
        case.nearest_points.len(),
    );

    if boundary.len() > VISIBILITY_GRAPH_LIMIT {
        println!(
            "  visibility graph: skipped ({} boundary vertices > {VISIBILITY_GRAPH_LIMIT})",
            boundary.len()
        );
        return;
    }
    let started = Instant::now();
    let graph = VisibilityGraph::new(mesh, &boundary);
    for (mode, paths) in &paths_by_mode {
        let (mut optimal_ratios, mut exact, mut shorter, mut unreached) = (Vec::new(), 0, 0, 0);
        let mut worst: Option<(f64, Path, Vec<Point>)> = None;
        for (&(from, to), path) in case.pairs.iter().zip(paths) {
            let Some(path) = path else { continue };
            let length = path.length;
            let Some((optimal, optimal_points)) = graph.shortest(mesh, from, to) else {
                unreached += 1;
                continue;
            };
            if optimal == 0.0 {
                exact += usize::from(length == 0.0);
                continue;
            }
            let ratio = length / optimal;
            optimal_ratios.push(ratio);
            exact += usize::from((ratio - 1.0).abs() <= RELATIVE_TOLERANCE);
            if ratio < 1.0 - RELATIVE_TOLERANCE {
                shorter += 1;
                println!(
                    "  SHORTER THAN OPTIMAL: {from:?} -> {to:?}: path {length} {:?}, optimum {optimal} {optimal_points:?}",
                    path.points
                );
            }
            if worst.as_ref().is_none_or(|w| ratio > w.0) {
                worst = Some((ratio, path.clone(), optimal_points));
            }
        }
        let (mean, max) = mean_max(&optimal_ratios);
        println!(
            "  {} mode against the visibility graph ({} nodes + 2 ({} pinched vertices), {} directed edges, {} asymmetric raycast pairs, \
             {} clear raycasts without a fan, built and solved in {:.1?}): length / optimum: mean {mean:.5}, max {max:.5}; optimal within 1e-9: {exact} \
             of {}; shorter than optimal by > 1e-9 relative: {shorter}; not connected by the graph: {unreached}",
            mode.name(),
            graph.nodes.len(),
            graph.nodes.len() - graph.vertices.len(),
            graph.edge_count(),
            graph.asymmetric,
            graph.fanless,
            started.elapsed(),
            optimal_ratios.len(),
        );
        if let Some((ratio, path, optimal)) = worst {
            println!("  worst pair (ratio {ratio:.5}): path {:.6} {:?}", path.length, path.points);
            println!("    optimum {:?}", optimal);
        }
    }
}

/// A benchmark group with this bench's timing: 25 samples, 1 s warm-up, 3 s measurement, one
/// query per iteration.
fn configure<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(25);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(1));
    group
}

/// Runs `query` on one item per iteration, cycling through `items`.
fn cycle<T: Copy, R>(items: &[T], mut query: impl FnMut(T) -> R) -> impl FnMut() -> R {
    let mut i = 0;
    move || {
        let item = items[i];
        i = if i + 1 == items.len() { 0 } else { i + 1 };
        query(black_box(item))
    }
}

fn queries(c: &mut Criterion) {
    let cases = cases();
    for case in &cases {
        report(case);
    }

    for mode in MODES {
        find_path_group(c, &cases, mode);
    }
    links_groups(c, &cases);

    let mut group = configure(c, "locate");
    for case in &cases {
        group.bench_function(BenchmarkId::from_parameter(&case.name), |b| {
            b.iter(cycle(&case.locate_points, |p| case.mesh.locate(p)))
        });
    }
    group.finish();

    let mut group = configure(c, "nearest_point");
    for case in &cases {
        group.bench_function(BenchmarkId::from_parameter(&case.name), |b| {
            b.iter(cycle(&case.nearest_points, |p| case.mesh.nearest_point(p)))
        });
    }
    group.finish();

    let mut group = configure(c, "raycast");
    for case in &cases {
        group.bench_function(BenchmarkId::from_parameter(&case.name), |b| {
            b.iter(cycle(&case.pairs, |(from, to)| case.mesh.raycast(from, to)))
        });
    }
    group.finish();
}

/// `find_path_into` in one mode over every case's pairs (group `find_path_into` for the fast
/// mode, `find_path_into_optimal` for the optimal one).
fn find_path_group(c: &mut Criterion, cases: &[Case], mode: PathMode) {
    let name = if mode == PathMode::Fast {
        "find_path_into".to_string()
    } else {
        format!("find_path_into_{}", mode.name())
    };
    let mut group = configure(c, &name);
    for case in cases {
        let mesh = &case.mesh;
        let options = PathOptions::default().with_mode(mode);
        let (mut scratch, mut path) = (PathScratch::new(), Path::default());
        group.bench_function(BenchmarkId::from_parameter(&case.name), |b| {
            b.iter(cycle(&case.pairs, |(from, to)| {
                let result = mesh.find_path_into(from, to, &options, &mut scratch, &mut path);
                black_box(&path);
                result.is_ok()
            }))
        });
    }
    group.finish();
}

/// The fast mode's cost against the optimal one on a mesh with links (see the module
/// documentation).
fn report_links(name: &str, mesh: &NavMesh, pairs: &[(Point, Point)]) {
    let mut scratch = PathScratch::new();
    let (mut ratios, mut linked) = (Vec::new(), [0usize; 2]);
    for &(from, to) in pairs {
        let costs = MODES.map(|mode| {
            let options = PathOptions::default().with_mode(mode);
            mesh.find_path_with(from, to, &options, &mut scratch).ok()
        });
        for (count, path) in linked.iter_mut().zip(&costs) {
            *count += usize::from(path.as_ref().is_some_and(|path| !path.links.is_empty()));
        }
        if let [Some(fast), Some(optimal)] = &costs {
            ratios.push(if optimal.cost > 0.0 { fast.cost / optimal.cost } else { 1.0 });
        }
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    let worst = ratios.iter().copied().fold(1.0, f64::max);
    println!(
        "links {name}: fast cost / optimal cost mean {mean:.4}, worst {worst:.4} over {} pairs; paths taking a \
         link: fast {}, optimal {}",
        ratios.len(),
        linked[0],
        linked[1]
    );
}

/// The link groups (see the module documentation).
fn links_groups(c: &mut Criterion, cases: &[Case]) {
    let Some(base) = cases.iter().find(|case| case.name == "generated_10k_cdt") else { return };
    let mut linked = base.mesh.clone();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(QUERY_SEED ^ 0x11AC);
    let (bounds, size) = (linked.bounds(), linked.bounds().size());
    let point = |rng: &mut rand_pcg::Pcg64| loop {
        let p = Point::new(
            bounds.min.x + size.0 * rng.random::<f64>(),
            bounds.min.y + size.1 * rng.random::<f64>(),
        );
        if linked.locate(p).is_some() {
            return p;
        }
    };
    let mut links = Vec::new();
    while links.len() < LINKS {
        let (from, to) = (point(&mut rng), point(&mut rng));
        let link = trinav::OffMeshLink::new(from, to);
        links.push(link.with_cost(link.cost * rng.random::<f64>()).with_bidirectional(links.len() % 3 == 0));
    }
    let spare = links.pop().expect("links drawn");
    let mut at_length = linked.clone();
    for link in links {
        linked.add_link(link).expect("ends on the mesh");
        at_length.add_link(link.with_cost(link.from.distance(link.to))).expect("ends on the mesh");
    }
    for (name, mesh) in [("100_cheap", &linked), ("100_at_length", &at_length)] {
        report_links(name, mesh, &base.pairs);
    }
    let clear = |p: Point| base.mesh.clearance(p).is_some_and(|c| c >= LINK_RADIUS);
    let disc_pairs: Vec<(Point, Point)> =
        base.pairs.iter().copied().filter(|&(from, to)| clear(from) && clear(to)).collect();
    for mode in MODES {
        let mut group = configure(c, &format!("links_{}", mode.name()));
        for (name, mesh, radius) in [
            ("none", &base.mesh, 0.0),
            ("100_cheap", &linked, 0.0),
            ("100_at_length", &at_length, 0.0),
            ("none_r", &base.mesh, LINK_RADIUS),
            ("100_cheap_r", &linked, LINK_RADIUS),
        ] {
            let options = PathOptions::default().with_mode(mode).with_radius(radius);
            let pairs = if radius > 0.0 { &disc_pairs } else { &base.pairs };
            let (mut scratch, mut path) = (PathScratch::new(), Path::default());
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(cycle(pairs, |(from, to)| {
                    let result = mesh.find_path_into(from, to, &options, &mut scratch, &mut path);
                    black_box(&path);
                    result.is_ok()
                }))
            });
        }
        group.finish();
    }
    let mut group = configure(c, "links_add_remove");
    group.bench_function(BenchmarkId::from_parameter("100"), |b| {
        b.iter(|| {
            let id = linked.add_link(spare).expect("ends on the mesh");
            linked.remove_link(id).expect("just added")
        })
    });
    group.finish();
}

criterion_group!(benches, queries);
criterion_main!(benches);
