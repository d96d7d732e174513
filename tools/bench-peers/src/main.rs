//! bench-peers: trinav against Detour (recastnavigation) and Polyanya on the same triangles.
//!
//! For each benchmark input: bake it with trinav (default settings: constrained Delaunay,
//! radius 0), build a Detour navmesh (one tile, or tiles for large meshes) and a Polyanya mesh
//! from the very same triangles, run the input's scenario queries through all of them, and on
//! grid maps through two grid searches (A* and jump point search), and compare time per query
//! and path length (against Polyanya's, the exact optimum on that mesh). Also times Polyanya's
//! own mesh builder against trinav's bake. With `--radius R`, also a disc of radius `R` on grid
//! maps: trinav on the mesh baked without a radius, Detour on one baked at `R` (see `radius`).
//! See README.md.
//!
//! Usage: `cargo run --release --manifest-path tools/bench-peers/Cargo.toml -- [--json OUT]
//! [--data DIR] [--only NAME] [--detour-tiles N] [--radius R]`.

mod detour;
mod grid;
mod peers;
mod radius;
mod stats;

use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde::Serialize;
use trinav::{BakeSettings, NavMesh, Path, PathMode, PathOptions, PathScratch, Point, TriangleId};
use trinav_bake::import::{ImportOptions, Source, bake_source, import};
use trinav_tools::scenario::{ScenarioQuery, parse_scenario};

use stats::{SystemReport, summarize};

/// One benchmark input: a level file and its scenario, relative to the data folder.
struct InputSpec {
    name: &'static str,
    input: &'static str,
    scen: &'static str,
    /// The scenario's cost column is the exact any-angle optimum (used to check Polyanya).
    exact: bool,
}

const INPUTS: &[InputSpec] = &[
    InputSpec { name: "arena", input: "movingai/arena.map", scen: "movingai/arena.map.scen", exact: false },
    InputSpec {
        name: "arena (exact scen)",
        input: "movingai/arena.map",
        scen: "movingai/arena.map.exact.scen",
        exact: true,
    },
    InputSpec {
        name: "den011d",
        input: "movingai/den011d.map",
        scen: "movingai/den011d.map.scen",
        exact: false,
    },
    InputSpec {
        name: "lak303d",
        input: "movingai/lak303d.map",
        scen: "movingai/lak303d.map.scen",
        exact: false,
    },
    InputSpec {
        name: "AR0304SR",
        input: "movingai/AR0304SR.map",
        scen: "movingai/AR0304SR.map.scen",
        exact: false,
    },
    InputSpec {
        name: "maze512-32-0",
        input: "movingai/maze512-32-0.map",
        scen: "movingai/maze512-32-0.map.scen",
        exact: false,
    },
    InputSpec {
        name: "random512-10-0",
        input: "movingai/random512-10-0.map",
        scen: "movingai/random512-10-0.map.scen",
        exact: false,
    },
    InputSpec {
        name: "8room_000",
        input: "movingai/8room_000.map",
        scen: "movingai/8room_000.map.scen",
        exact: false,
    },
    InputSpec {
        name: "iron-harvest/scene_mp_2p_01",
        input: "iron-harvest/scene_mp_2p_01.mesh",
        scen: "iron-harvest/scene_mp_2p_01.mesh.scen",
        exact: true,
    },
];

#[derive(Serialize)]
struct Report {
    inputs: Vec<InputReport>,
}

#[derive(Serialize)]
struct InputReport {
    name: String,
    input: String,
    scenario: String,
    queries: usize,
    trinav_fast: SystemReport,
    detour: Option<SystemReport>,
    polyanya: Option<SystemReport>,
    trinav_optimal: Option<SystemReport>,
    /// Grid A* (`pathfinding`) and jump point search (`grid_pathfinding`) on grid maps.
    grid_astar: Option<SystemReport>,
    grid_jps: Option<SystemReport>,
    grid_details: Option<GridDetails>,
    bake: BakeComparison,
    /// p50 time ratios.
    time_ratio_trinav_detour: Option<f64>,
    time_ratio_trinav_polyanya: Option<f64>,
    /// trinav optimal / Polyanya: p50 and p99 time ratios.
    time_ratio_optimal_polyanya_p50: Option<f64>,
    time_ratio_optimal_polyanya_p99: Option<f64>,
    /// Queries where trinav optimal's length differs from Polyanya's by more than 1e-6
    /// (relative), or only one of them found a path.
    optimal_mismatches: Option<usize>,
    detour_details: Option<detour_details::Details>,
    polyanya_details: Option<peers::PolyanyaDetails>,
    /// Where the scenario's costs are exact optima: length / cost for Polyanya and trinav.
    scenario_check: Option<ScenarioCheck>,
    /// With `--radius` on a grid map: a disc of that radius, trinav against Detour.
    #[serde(skip_serializing_if = "Option::is_none")]
    radius: Option<radius::RadiusReport>,
    notes: Vec<String>,
}

/// The most scenario queries the grid searches run per input (evenly spread over the file,
/// which is sorted by path length, so every length bucket is in).
const GRID_QUERIES: usize = 250;

/// What the grid searches' paths are against the scenario's octile optimum and each other.
#[derive(Serialize)]
struct GridDetails {
    /// The queries the grid searches ran: every k-th of the scenario (all when it has at most
    /// [`GRID_QUERIES`]), so that the slow grid A* on long maze paths keeps the run short.
    queries: usize,
    /// A* lengths differing from the scenario's cost (the 8-connected optimum without corner
    /// cutting, which the files round to 2 to 5 decimals) by more than 0.006, or missing; `null`
    /// where the cost column is the any-angle optimum instead.
    astar_vs_scenario_cost: Option<usize>,
    /// Jump point search paths shorter / longer than A*'s by more than 1e-9 relative.
    jps_shorter_than_astar: usize,
    jps_longer_than_astar: usize,
    /// Grid preparation for jump point search (jump points, components), ms.
    jps_build_ms: f64,
}

mod detour_details {
    /// What Detour did besides the timings.
    #[derive(serde::Serialize)]
    pub struct Details {
        pub quantization: crate::detour::Quantization,
        pub layout: crate::detour::Layout,
        pub no_poly: usize,
        pub partial_or_failed: usize,
        pub straight_failed: usize,
        pub out_of_nodes: usize,
        pub buffer_too_small: usize,
        pub build_ms: f64,
    }
}

#[derive(Serialize)]
struct BakeComparison {
    trinav_ms: f64,
    /// trinav's stage 6 (verification against the merged region), included in `trinav_ms`.
    trinav_verify_ms: f64,
    /// trinav's bake from the traced walkable region (`bake_region`, stages 3-6 with
    /// verification): the same input as Polyanya's builder, without the grid tracing or mesh
    /// outline tracing of `bake_source`.
    trinav_region_ms: f64,
    polyanya_ms: Option<f64>,
    /// Polyanya's builder and `Mesh::bake` (point location, islands): a mesh ready for
    /// queries, as trinav's bake gives.
    polyanya_baked_ms: Option<f64>,
    trinav_triangles: usize,
    polyanya_triangles: Option<usize>,
    trinav_min_angle_deg: f64,
    polyanya_min_angle_deg: Option<f64>,
}

#[derive(Serialize)]
struct ScenarioCheck {
    polyanya_vs_cost: Option<stats::RatioStats>,
    trinav_vs_cost: Option<stats::RatioStats>,
    optimal_vs_cost: Option<stats::RatioStats>,
}

struct Args {
    json: Option<PathBuf>,
    data: PathBuf,
    only: Option<String>,
    /// Detour tiles per side for every input (1: one tile where it fits); default: one tile
    /// where the mesh fits, otherwise the fewest that hold it.
    detour_tiles: Option<u32>,
    /// An agent radius to run on grid maps besides radius 0.
    radius: Option<f64>,
}

fn parse_args() -> Result<Args, String> {
    let repo_root = FsPath::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut args = Args {
        json: None,
        data: repo_root.join("../shared/bench-data"),
        only: None,
        detour_tiles: None,
        radius: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => args.json = Some(PathBuf::from(value("--json")?)),
            "--data" => args.data = PathBuf::from(value("--data")?),
            "--only" => args.only = Some(value("--only")?),
            "--detour-tiles" => {
                let text = value("--detour-tiles")?;
                match text.parse::<u32>() {
                    Ok(n) if (1..=64).contains(&n) => args.detour_tiles = Some(n),
                    _ => {
                        return Err(format!(
                            "--detour-tiles takes a whole number from 1 to 64, not `{text}`"
                        ));
                    }
                }
            }
            "--radius" => {
                let text = value("--radius")?;
                match text.parse::<f64>() {
                    Ok(r) if r.is_finite() && r > 0.0 => args.radius = Some(r),
                    _ => return Err(format!("--radius takes a positive finite number, not `{text}`")),
                }
            }
            "-h" | "--help" => {
                println!(
                    "bench-peers [--json OUT] [--data DIR] [--only NAME] [--detour-tiles N] [--radius R]\n\
                     Runs trinav, Detour, Polyanya and, on grid maps, grid A* and jump point search\n\
                     on the benchmark inputs of DIR (default ../shared/bench-data relative to the\n\
                     repository root). --only keeps the inputs whose name contains NAME.\n\
                     --detour-tiles N gives Detour N x N tiles on every input (1: one tile where the\n\
                     mesh fits); by default one tile where it fits, else the fewest tiles that hold it.\n\
                     --radius R adds, on grid maps, a disc of radius R: trinav on the mesh baked without\n\
                     a radius (both modes, with and without R) against Detour on the map baked at R."
                );
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument `{other}` (see --help)")),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("bench-peers: {e}");
            return ExitCode::from(2);
        }
    };
    let inputs: Vec<&InputSpec> =
        INPUTS.iter().filter(|s| args.only.as_ref().is_none_or(|o| s.name.contains(o.as_str()))).collect();
    let missing: Vec<PathBuf> = inputs
        .iter()
        .flat_map(|s| [args.data.join(s.input), args.data.join(s.scen)])
        .filter(|p| !p.is_file())
        .collect();
    if !args.data.is_dir() || !missing.is_empty() {
        eprintln!(
            "bench-peers: benchmark data not found in {} ({}). Pass --data DIR, the folder holding \
             movingai/ and iron-harvest/ (default: ../shared/bench-data relative to the repository root).",
            args.data.display(),
            if args.data.is_dir() {
                format!(
                    "missing {}",
                    missing.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
                )
            } else {
                "no such folder".to_string()
            }
        );
        return ExitCode::from(2);
    }
    if inputs.is_empty() {
        eprintln!("bench-peers: no input matches --only");
        return ExitCode::from(2);
    }

    let detour_ok = match detour::self_check() {
        Ok(line) => {
            println!("{line}\n");
            true
        }
        Err(e) => {
            println!("Detour self-check FAILED: {e}. Detour is left out.\n");
            false
        }
    };

    let mut reports = Vec::new();
    for spec in inputs {
        eprintln!("bench-peers: {} ...", spec.name);
        match run_input(spec, &args, detour_ok) {
            Ok(report) => {
                print!("{}", markdown(&report));
                reports.push(report);
            }
            Err(e) => {
                eprintln!("bench-peers: {}: {e}", spec.name);
                return ExitCode::from(2);
            }
        }
    }
    print!("{}", summary(&reports));
    if let Some(out) = &args.json {
        let text = serde_json::to_string_pretty(&Report { inputs: reports }).expect("serializable");
        if let Err(e) = std::fs::write(out, text + "\n") {
            eprintln!("bench-peers: {}: cannot write: {e}", out.display());
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}

/// Runs `f` over all queries once to warm up, then again timing each call: the times (µs) and
/// the lengths of the timed pass.
fn time_queries(
    queries: &[ScenarioQuery],
    mut f: impl FnMut(&ScenarioQuery) -> Option<f64>,
) -> (Vec<f64>, Vec<Option<f64>>) {
    for q in queries {
        std::hint::black_box(f(q));
    }
    let mut times = Vec::with_capacity(queries.len());
    let mut lengths = Vec::with_capacity(queries.len());
    for q in queries {
        let start = Instant::now();
        let length = f(q);
        times.push(start.elapsed().as_secs_f64() * 1e6);
        lengths.push(std::hint::black_box(length));
    }
    (times, lengths)
}

/// An error followed by its sources, `error: source: ...`, as the CLI prints errors.
fn with_sources(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text = format!("{text}: {e}");
        source = e.source();
    }
    text
}

/// Detour's navmesh of the mesh: one tile where it fits (or with `tiles` = 1), else `tiles`
/// per side or the fewest that hold it (about 8,000 triangles a tile).
fn build_detour(
    vertices: &[Point],
    triangles: &[[u32; 3]],
    neighbours: &[[u32; 3]],
    tiles: Option<u32>,
) -> Result<detour::DetourMesh, String> {
    let fits = triangles.len() <= detour::MAX_POLYS && vertices.len() <= detour::MAX_VERTS;
    match tiles {
        Some(1) => detour::DetourMesh::build(vertices, triangles, neighbours, detour::Winding::Reversed),
        Some(n) => detour::DetourMesh::build_tiled(vertices, triangles, neighbours, n),
        None if fits => detour::DetourMesh::build(vertices, triangles, neighbours, detour::Winding::Reversed),
        None => {
            let mut n = 2;
            while triangles.len() > 8192 * (n * n) as usize {
                n += 1;
            }
            loop {
                match detour::DetourMesh::build_tiled(vertices, triangles, neighbours, n) {
                    Err(e) if e.contains("polygons, over") && n < 64 => n += 1,
                    result => return result,
                }
            }
        }
    }
}

fn run_input(spec: &InputSpec, args: &Args, detour_ok: bool) -> Result<InputReport, String> {
    let data = args.data.as_path();
    let input_path = data.join(spec.input);
    let scen_path = data.join(spec.scen);
    let mut notes = Vec::new();
    let source = import(&input_path, None, &ImportOptions::default()).map_err(|e| with_sources(&e))?;

    // 1. trinav bake, from the parsed file and from the traced region (the same input as
    // Polyanya's builder: stages 3-6, no grid tracing), timed as Polyanya's builder is.
    let settings = BakeSettings::default();
    let (mut bake_times, mut verify_times) = (Vec::new(), Vec::new());
    let baked = stats::time_builds(
        || (),
        |()| bake_source(&source, &settings).map_err(|e| format!("trinav bake: {}", with_sources(&e))),
        |b, ms| {
            bake_times.push(ms);
            verify_times.push(b.report.times.verify.as_secs_f64() * 1e3);
        },
    )?;
    let mesh: NavMesh = baked.mesh;
    let region = match &source {
        Source::Grid(grid) => grid.walkable_region().map_err(|e| with_sources(&e))?,
        Source::Region(region) => region.clone(),
        Source::Level(_) => return Err("native levels are not benchmarked".to_string()),
        Source::Terrain(_) => return Err("grids with area types are not benchmarked".to_string()),
    };
    let mut region_times = Vec::new();
    let from_region = stats::time_builds(
        || region.clone(),
        |copy| {
            trinav_bake::bake_region(copy, &settings)
                .map_err(|e| format!("trinav bake_region: {}", with_sources(&e)))
        },
        |_, ms| region_times.push(ms),
    )?;
    if from_region.mesh.triangle_count() != mesh.triangle_count() {
        notes.push(format!(
            "trinav bake_region gave {} triangles, bake_source {}",
            from_region.mesh.triangle_count(),
            mesh.triangle_count()
        ));
    }
    let mesh_stats = mesh.stats();
    let triangles: Vec<[u32; 3]> = mesh.triangles().iter().map(|t| t.map(|v| v.0)).collect();
    let neighbours: Vec<[u32; 3]> =
        (0..mesh.triangle_count() as u32).map(|t| mesh.neighbours(TriangleId(t)).map(|n| n.0)).collect();

    let text = std::fs::read_to_string(&scen_path).map_err(|e| format!("{}: {e}", scen_path.display()))?;
    let queries = parse_scenario(&text).map_err(|e| format!("{}: {e}", scen_path.display()))?;

    // 2. Peers from the same triangles.
    let polyanya = peers::PolyanyaPeer::build(mesh.vertices(), &triangles);
    let polyanya = match polyanya {
        Ok(p) => Some(p),
        Err(e) => {
            notes.push(format!("Polyanya mesh from trinav's triangles failed: {e}; no reference lengths"));
            None
        }
    };
    let detour_start = Instant::now();
    let mut detour = if detour_ok {
        match build_detour(mesh.vertices(), &triangles, &neighbours, args.detour_tiles) {
            Ok(d) => Some(d),
            Err(e) => {
                notes.push(format!("Detour: {e}"));
                None
            }
        }
    } else {
        notes.push("Detour: left out (self-check failed)".to_string());
        None
    };
    let detour_build_ms = detour_start.elapsed().as_secs_f64() * 1e3;
    let builder = peers::polyanya_builder(&region);
    let (polyanya_ms, polyanya_baked_ms, polyanya_triangles, polyanya_min_angle) = match builder {
        Ok(b) => {
            notes.extend(b.notes);
            if b.triangles != mesh.triangle_count() || b.vertices != mesh.vertices().len() {
                notes.push(format!(
                    "Polyanya builder mesh: {} triangles over {} vertices; trinav: {} triangles over {} vertices",
                    b.triangles,
                    b.vertices,
                    mesh.triangle_count(),
                    mesh.vertices().len()
                ));
            }
            (Some(b.ms), Some(b.baked_ms), Some(b.triangles), b.min_angle_deg)
        }
        Err(e) => {
            notes.push(format!("Polyanya builder: {e}"));
            (None, None, None, None)
        }
    };

    // 3. Queries.
    let mut scratch = PathScratch::new();
    let mut path = Path::default();
    let mut run_trinav = |mode: PathMode| {
        time_queries(&queries, |q| {
            let (start_side, goal_side) = q.sides();
            let options = PathOptions::default().with_mode(mode).with_sides(start_side, goal_side);
            mesh.find_path_into(q.start, q.goal, &options, &mut scratch, &mut path).ok().map(|()| path.length)
        })
    };
    let (trinav_times, trinav_lengths) = run_trinav(PathMode::Fast);
    let (optimal_times, optimal_lengths) = run_trinav(PathMode::Optimal);

    let stride = queries.len().div_ceil(GRID_QUERIES).max(1);
    let grid_sample: Vec<usize> = (0..queries.len()).step_by(stride).collect();
    let grid_queries: Vec<ScenarioQuery> = grid_sample.iter().map(|&i| queries[i].clone()).collect();
    let grid_runs = match &source {
        Source::Grid(g) => {
            let start = Instant::now();
            let searches = grid::GridSearches::new(g);
            let jps_build_ms = start.elapsed().as_secs_f64() * 1e3;
            let astar = time_queries(&grid_queries, |q| searches.astar(q.start, q.goal));
            let jps = time_queries(&grid_queries, |q| searches.jps(q.start, q.goal));
            Some((astar, jps, jps_build_ms))
        }
        _ => None,
    };

    let mut misses = [0usize; 3];
    let detour_run = detour.as_mut().map(|d| {
        let run = time_queries(&queries, |q| d.find_path(q.start, q.goal).ok());
        // Count the reasons on one more untimed pass (the timed closure only returns lengths).
        d.out_of_nodes = 0;
        d.buffer_too_small = 0;
        for q in &queries {
            if let Err(m) = d.find_path(q.start, q.goal) {
                misses[m as usize] += 1;
            }
        }
        run
    });

    let polyanya_run = polyanya.as_ref().map(|p| {
        let mut f32_lengths = Vec::with_capacity(queries.len());
        let run = time_queries(&queries, |q| p.find_path(q.start, q.goal).map(|(l, _)| l));
        for q in &queries {
            f32_lengths.push(p.find_path(q.start, q.goal).map(|(_, l32)| l32));
        }
        (run, f32_lengths)
    });

    // 4. Statistics against Polyanya's lengths.
    let reference: Vec<Option<f64>> = match &polyanya_run {
        Some(((_, lengths), _)) => lengths.iter().map(|l| l.filter(|&l| l > 0.0)).collect(),
        None => vec![None; queries.len()],
    };
    let trinav_fast = summarize(&trinav_times, &trinav_lengths, &reference);
    let trinav_optimal = summarize(&optimal_times, &optimal_lengths, &reference);
    let optimal_mismatches = polyanya_run.as_ref().map(|((_, lengths), _)| {
        // At a double corner trinav applies the GPPC side rule (leave through the point's own
        // cell) and Polyanya does not: those queries are counted apart.
        let double_corner = |p: Point| match &source {
            Source::Grid(g) if p.x.fract() == 0.0 && p.y.fract() == 0.0 => {
                let (x, y) = (p.x as i64, p.y as i64);
                let around = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)].map(|(a, b)| g.is_blocked(a, b));
                around == [true, false, false, true] || around == [false, true, true, false]
            }
            _ => false,
        };
        let (at_double, others): (Vec<usize>, Vec<usize>) =
            (0..queries.len()).partition(|&i| double_corner(queries[i].start) || double_corner(queries[i].goal));
        if !at_double.is_empty() {
            let longer = at_double
                .iter()
                .filter(|&&i| matches!((lengths[i], optimal_lengths[i]), (Some(p), Some(t)) if t > p * (1.0 + 1e-6)))
                .count();
            notes.push(format!(
                "{} queries start or end at a double corner, left out of the optimal mismatch count: there trinav \
                 leaves through the point's own cell (GPPC) and Polyanya through either; {longer} of them are longer \
                 in trinav",
                at_double.len()
            ));
        }
        let differ: Vec<usize> = others
            .into_iter()
            .filter(|&i| match (lengths[i], optimal_lengths[i]) {
                (Some(p), Some(t)) => (t - p).abs() > 1e-6 * p.max(1.0),
                (None, None) => false,
                _ => true,
            })
            .collect();
        for &i in differ.iter().take(5) {
            let q = &queries[i];
            notes.push(format!(
                "trinav optimal differs from Polyanya on query {i}, ({}, {}) -> ({}, {}): {:?} vs {:?}",
                q.start.x, q.start.y, q.goal.x, q.goal.y, optimal_lengths[i], lengths[i]
            ));
        }
        differ.len()
    });
    let detour_report = detour_run.as_ref().map(|(t, l)| summarize(t, l, &reference));
    let grid_reports = grid_runs.as_ref().map(|((at, al), (jt, jl), _)| {
        let reference: Vec<Option<f64>> = grid_sample.iter().map(|&i| reference[i]).collect();
        (summarize(at, al, &reference), summarize(jt, jl, &reference))
    });
    let grid_details = grid_runs.as_ref().map(|((_, astar), (_, jps), jps_build_ms)| {
        let astar_vs_scenario_cost = (!spec.exact).then(|| {
            astar
                .iter()
                .zip(&grid_queries)
                .filter(|(l, q)| l.is_none_or(|l| (l - q.reference).abs() > 0.006))
                .count()
        });
        let pairs: Vec<(f64, f64)> =
            jps.iter().zip(astar).filter_map(|(j, a)| Some(((*j)?, (*a)?))).collect();
        GridDetails {
            queries: grid_queries.len(),
            astar_vs_scenario_cost,
            jps_shorter_than_astar: pairs.iter().filter(|(j, a)| *j < a * (1.0 - 1e-9)).count(),
            jps_longer_than_astar: pairs.iter().filter(|(j, a)| *j > a * (1.0 + 1e-9)).count(),
            jps_build_ms: *jps_build_ms,
        }
    });
    if let Some(d) = &grid_details {
        if let Some(n) = d.astar_vs_scenario_cost.filter(|&n| n > 0) {
            notes.push(format!(
                "grid A*: {n} lengths differ from the scenario's octile cost by more than 0.006 (or no path)"
            ));
        }
        if d.jps_shorter_than_astar + d.jps_longer_than_astar > 0 {
            notes.push(format!(
                "grid JPS (grid_pathfinding): {} paths shorter than A*'s (its diagonal steps pass a blocked corner, which \
                 the Moving AI rule forbids), {} longer",
                d.jps_shorter_than_astar, d.jps_longer_than_astar
            ));
        }
    }
    let polyanya_report = polyanya_run.as_ref().map(|((t, l), _)| summarize(t, l, &reference));
    let polyanya_details = polyanya.as_ref().zip(polyanya_run.as_ref()).map(|(p, ((_, l), l32))| {
        let mut details = p.details.clone();
        details.f32_length_max_rel_diff = l
            .iter()
            .zip(l32)
            .filter_map(|(a, b)| {
                Some((*a)?).zip(*b).filter(|(a, _)| *a > 0.0).map(|(a, b)| ((b - a) / a).abs())
            })
            .fold(0.0, f64::max);
        details
    });
    if let Some(p) = &polyanya_report
        && p.not_found > 0
    {
        let trinav_found_where_polyanya_not =
            trinav_lengths.iter().zip(&reference).filter(|(t, r)| t.is_some() && r.is_none()).count();
        notes.push(format!(
            "Polyanya found no path for {} queries ({} of them found by trinav); those queries are left out of every length ratio",
            p.not_found, trinav_found_where_polyanya_not
        ));
    }
    for (system, report) in [("trinav fast", Some(&trinav_fast)), ("Detour", detour_report.as_ref())] {
        if let Some(r) = report
            && r.shorter_than_polyanya > 0
        {
            notes.push(format!(
                "{system}: {} paths shorter than Polyanya's by more than {} (relative); smallest ratio {:.7}",
                r.shorter_than_polyanya,
                stats::SHORTER_TOLERANCE,
                r.len_ratio_min.unwrap_or(1.0)
            ));
        }
    }
    let scenario_check = spec.exact.then(|| {
        let costs: Vec<Option<f64>> =
            queries.iter().map(|q| (q.reference > 0.0).then_some(q.reference)).collect();
        ScenarioCheck {
            polyanya_vs_cost: polyanya_run.as_ref().and_then(|((_, l), _)| stats::ratio_stats(l, &costs)),
            trinav_vs_cost: stats::ratio_stats(&trinav_lengths, &costs),
            optimal_vs_cost: stats::ratio_stats(&optimal_lengths, &costs),
        }
    });
    let detour_details = detour.as_ref().map(|d| detour_details::Details {
        quantization: d.quantization.clone(),
        layout: d.layout.clone(),
        no_poly: misses[detour::Miss::NoPoly as usize],
        partial_or_failed: misses[detour::Miss::Partial as usize],
        straight_failed: misses[detour::Miss::Straight as usize],
        out_of_nodes: d.out_of_nodes,
        buffer_too_small: d.buffer_too_small,
        build_ms: detour_build_ms,
    });
    if let Some(d) = &detour_details {
        let q = &d.quantization;
        if q.max_error > 0.0 {
            notes.push(format!(
                "Detour quantization: cs = {}, {} vertices moved, by at most {:.3e}; {} triangles degenerate or flipped after quantization",
                q.cs, q.moved_vertices, q.max_error, q.degenerate_triangles
            ));
        }
    }
    let radius = match (args.radius, &source) {
        (Some(r), Source::Grid(grid)) => {
            let detour = |baked: &NavMesh| {
                if !detour_ok {
                    return None;
                }
                let (triangles, neighbours) = radius::detour_input(baked);
                let built = build_detour(baked.vertices(), &triangles, &neighbours, args.detour_tiles);
                built.map_err(|e| notes.push(format!("Detour at radius {r}: {e}"))).ok()
            };
            Some(radius::run(grid, &mesh, &queries, r, detour)?)
        }
        (Some(r), _) => {
            notes.push(format!("radius {r}: run on grid maps only"));
            None
        }
        (None, _) => None,
    };
    let ratio = |a: &SystemReport, b: Option<&SystemReport>| b.map(|b| a.p50_us / b.p50_us);
    Ok(InputReport {
        name: spec.name.to_string(),
        input: spec.input.to_string(),
        scenario: spec.scen.to_string(),
        queries: queries.len(),
        time_ratio_trinav_detour: ratio(&trinav_fast, detour_report.as_ref()),
        time_ratio_trinav_polyanya: ratio(&trinav_fast, polyanya_report.as_ref()),
        time_ratio_optimal_polyanya_p50: ratio(&trinav_optimal, polyanya_report.as_ref()),
        time_ratio_optimal_polyanya_p99: polyanya_report.as_ref().map(|p| trinav_optimal.p99_us / p.p99_us),
        optimal_mismatches,
        trinav_fast,
        detour: detour_report,
        polyanya: polyanya_report,
        trinav_optimal: Some(trinav_optimal),
        grid_astar: grid_reports.as_ref().map(|(a, _)| a.clone()),
        grid_jps: grid_reports.map(|(_, j)| j),
        grid_details,
        bake: BakeComparison {
            trinav_ms: stats::median(&bake_times),
            trinav_verify_ms: stats::median(&verify_times),
            trinav_region_ms: stats::median(&region_times),
            polyanya_ms,
            polyanya_baked_ms,
            trinav_triangles: mesh_stats.triangles,
            polyanya_triangles,
            trinav_min_angle_deg: mesh_stats.min_angle_deg,
            polyanya_min_angle_deg: polyanya_min_angle,
        },
        detour_details,
        polyanya_details,
        scenario_check,
        radius,
        notes,
    })
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.digits$}"))
}

fn row(name: &str, r: Option<&SystemReport>, missing: &str) -> String {
    match r {
        Some(r) => format!(
            "| {name} | {:.2} | {:.2} | {} | {} | {} | {} | {} |\n",
            r.p50_us,
            r.p99_us,
            opt(r.len_ratio_mean, 5),
            opt(r.len_ratio_p99, 5),
            opt(r.len_ratio_max, 5),
            r.not_found,
            r.shorter_than_polyanya,
        ),
        None => format!("| {name} | {missing} | | | | | | |\n"),
    }
}

fn markdown(r: &InputReport) -> String {
    let mut s = format!("### {} ({}, {}: {} queries)\n\n", r.name, r.input, r.scenario, r.queries);
    s += "| system | p50_us | p99_us | len_ratio_mean | len_ratio_p99 | len_ratio_max | not_found | shorter |\n";
    s += "|---|---|---|---|---|---|---|---|\n";
    s += &row("trinav fast", Some(&r.trinav_fast), "");
    s += &row("Detour", r.detour.as_ref(), "n/a (see notes)");
    s += &row("Polyanya", r.polyanya.as_ref(), "n/a (see notes)");
    s += &row("trinav optimal", r.trinav_optimal.as_ref(), "n/a");
    if let Some(d) = &r.grid_details {
        let n = d.queries;
        s += &row(&format!("grid A* (pathfinding; {n} of the queries)"), r.grid_astar.as_ref(), "n/a");
        s += &row(&format!("grid JPS (grid_pathfinding; {n} of the queries)"), r.grid_jps.as_ref(), "n/a");
    }
    s += "\n";
    s += &format!(
        "p50 time ratios: trinav/Detour {}, trinav/Polyanya {}; trinav optimal/Polyanya p50 {}, p99 {}; \
         optimal lengths differing from Polyanya's: {}\n\n",
        opt(r.time_ratio_trinav_detour, 3),
        opt(r.time_ratio_trinav_polyanya, 3),
        opt(r.time_ratio_optimal_polyanya_p50, 3),
        opt(r.time_ratio_optimal_polyanya_p99, 3),
        r.optimal_mismatches.map_or("-".to_string(), |m| m.to_string())
    );
    let b = &r.bake;
    s += "| bake | ms | triangles | min angle (deg) |\n|---|---|---|---|\n";
    s += &format!(
        "| trinav bake_source (import to mesh; CDT, radius 0) | {:.2} (of which verify {:.2}) | {} | {:.3} |\n",
        b.trinav_ms, b.trinav_verify_ms, b.trinav_triangles, b.trinav_min_angle_deg
    );
    s += &format!(
        "| trinav bake_region (from the traced region, as Polyanya) | {:.2} | {} | {:.3} |\n",
        b.trinav_region_ms, b.trinav_triangles, b.trinav_min_angle_deg
    );
    s += &format!(
        "| Polyanya from_outer_edges + add_obstacles + as_navmesh (same region) | {} | {} | {} |\n\n",
        opt(b.polyanya_ms, 2),
        b.polyanya_triangles.map_or("-".to_string(), |t| t.to_string()),
        opt(b.polyanya_min_angle_deg, 3)
    );
    s += &format!(
        "Polyanya's builder and `Mesh::bake` (point location, islands: ready for queries, as trinav's bake): {} ms\n\n",
        opt(b.polyanya_baked_ms, 2)
    );
    if let Some(radius) = &r.radius {
        s += &radius::markdown(radius);
    }
    if let Some(c) = &r.scenario_check {
        let f = |x: &Option<stats::RatioStats>| {
            x.as_ref().map_or("-".to_string(), |x| {
                format!("mean {:.6}, min {:.6}, max {:.6} ({} queries)", x.mean, x.min, x.max, x.count)
            })
        };
        s += &format!(
            "Exact scenario costs: Polyanya / cost {}; trinav fast / cost {}; trinav optimal / cost {}\n\n",
            f(&c.polyanya_vs_cost),
            f(&c.trinav_vs_cost),
            f(&c.optimal_vs_cost)
        );
    }
    if let Some(d) = &r.detour_details {
        let l = &d.layout;
        let layout = if l.tiles == [1, 1] {
            "one tile".to_string()
        } else {
            format!(
                "{} x {} tiles of {} ({} polygons: {} triangles cut by tile borders, {} pieces dropped, {} inner edges \
                 unmatched; at most {} polygons a tile)",
                l.tiles[0],
                l.tiles[1],
                l.tile_size,
                l.polygons,
                l.cut_triangles,
                l.dropped_pieces,
                l.unmatched_edges,
                l.max_tile_polygons
            )
        };
        s += &format!(
            "Detour: {layout}, built in {:.2} ms, cs = {}, quantization max error {:.3e} ({} vertices moved, {} triangles degenerate); \
             misses: {} no polygon, {} partial/failed findPath, {} failed findStraightPath; out of nodes {}, buffer too small {}\n\n",
            d.build_ms,
            d.quantization.cs,
            d.quantization.max_error,
            d.quantization.moved_vertices,
            d.quantization.degenerate_triangles,
            d.no_poly,
            d.partial_or_failed,
            d.straight_failed,
            d.out_of_nodes,
            d.buffer_too_small
        );
    }
    if let Some(p) = &r.polyanya_details {
        s += &format!(
            "Polyanya: mesh from trinav's triangles (Trimesh -> Mesh, bake) in {:.2} ms; f32 vertices moved by at most {:.3e}; \
             its own f32 path length differs from the f64 length of its path by at most {:.3e} (relative)\n\n",
            p.mesh_ms, p.vertex_f32_max_error, p.f32_length_max_rel_diff
        );
    }
    for n in &r.notes {
        s += &format!("- {n}\n");
    }
    if !r.notes.is_empty() {
        s += "\n";
    }
    s
}

fn summary(reports: &[InputReport]) -> String {
    let mut s = String::from("### Summary (p50 µs per query; length ratio mean against Polyanya)\n\n");
    s += "| input | queries | trinav p50 | Detour p50 | Polyanya p50 | optimal p50 | trinav/Detour | trinav/Polyanya | optimal/Polyanya p50 | optimal/Polyanya p99 | optimal mismatches | trinav ratio | Detour ratio | trinav bake ms | trinav region ms | Polyanya build ms | trinav tris | Polyanya tris |\n";
    s += "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for r in reports {
        s += &format!(
            "| {} | {} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {} | {} |\n",
            r.name,
            r.queries,
            r.trinav_fast.p50_us,
            opt(r.detour.as_ref().map(|d| d.p50_us), 2),
            opt(r.polyanya.as_ref().map(|d| d.p50_us), 2),
            opt(r.trinav_optimal.as_ref().map(|d| d.p50_us), 2),
            opt(r.time_ratio_trinav_detour, 3),
            opt(r.time_ratio_trinav_polyanya, 3),
            opt(r.time_ratio_optimal_polyanya_p50, 3),
            opt(r.time_ratio_optimal_polyanya_p99, 3),
            r.optimal_mismatches.map_or("-".to_string(), |m| m.to_string()),
            opt(r.trinav_fast.len_ratio_mean, 4),
            opt(r.detour.as_ref().and_then(|d| d.len_ratio_mean), 4),
            r.bake.trinav_ms,
            r.bake.trinav_region_ms,
            opt(r.bake.polyanya_ms, 2),
            r.bake.trinav_triangles,
            r.bake.polyanya_triangles.map_or("-".to_string(), |t| t.to_string()),
        );
    }
    s += "\n### Path length against the optimum, and the grid searches (p50 µs per query; length ratios against Polyanya)\n\n";
    s += "| input | fast mean | fast p99 | fast max | Detour mean | Detour p99 | grid A* p50 | grid A* mean | JPS p50 | JPS mean | fast/grid A* p50 | fast/JPS p50 |\n";
    s += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for r in reports {
        let (f, d) = (&r.trinav_fast, r.detour.as_ref());
        let (a, j) = (r.grid_astar.as_ref(), r.grid_jps.as_ref());
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.name,
            opt(f.len_ratio_mean, 5),
            opt(f.len_ratio_p99, 5),
            opt(f.len_ratio_max, 5),
            opt(d.and_then(|d| d.len_ratio_mean), 5),
            opt(d.and_then(|d| d.len_ratio_p99), 5),
            opt(a.map(|a| a.p50_us), 2),
            opt(a.and_then(|a| a.len_ratio_mean), 5),
            opt(j.map(|j| j.p50_us), 2),
            opt(j.and_then(|j| j.len_ratio_mean), 5),
            opt(a.map(|a| f.p50_us / a.p50_us), 3),
            opt(j.map(|j| f.p50_us / j.p50_us), 3),
        );
    }
    s + "\n"
}
