//! The `trinav` command: bake levels into navigation meshes, edit their obstacles, inspect
//! them, find paths on them, draw them and view them in the browser.
//!
//! A thin layer over the `trinav` and `trinav-bake` libraries: flag definitions, file
//! handling and output formatting. Exit status: 0 success, 1 `path` found no path (start and
//! goal are not connected), 2 any error (one line on stderr naming the file and the problem).

mod area_flags;
mod bench;
mod dynamic;
mod edit;
mod render;
mod view;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use serde::Serialize;
use trinav::build::MeshParts;
use trinav::file::decode;
use trinav::{BakeSettings, NavMesh, PathError, PathMode, PathOptions, PathScratch, Point, Triangulation};
use trinav_bake::import::{ImportOptions, InputFormat, bake_source, import};
use trinav_tools::write_atomic;

#[derive(Parser)]
#[command(name = "trinav", version, about = "Bake, inspect, query and draw 2D navigation meshes")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Bake a level into a navigation mesh file.
    ///
    /// The format comes from the extension (or --format): .json (native level), .map (Moving
    /// AI grid), .png/.bmp/.gif/.pnm/.tga (bitmap: white walkable, black blocked, one pixel a
    /// cell), .mesh (Polyanya mesh, version 2 or 3). Grid terrain: --terrain makes a map's S,
    /// W, T cells (blocked otherwise) walkable ground of area types, --area-color a bitmap's
    /// pixels of a colour.
    Bake(BakeArgs),
    /// Run every query of a scenario file on a mesh and report times and path lengths.
    ///
    /// Reports queries, found, not found, median / p99 / mean microseconds per query, and the
    /// path length against the scenario's reference (mean and max ratio, how many paths are
    /// shorter than the reference by more than 1e-6 relative). Scenarios of grid maps (map
    /// column ending in .map) use cell corners: a point on a double corner belongs to cell
    /// (x, y) and leaves or arrives through that cell's quadrant.
    ///
    /// Without a mesh, a dynamic scenario (version 2, the GPPC dynamic track): the grid starts
    /// all free, each `P` line overwrites cells (re-triangulating the tiles around them), each
    /// `Q` line is a query from cell centre to cell centre against its octile length. Also
    /// reports the updates (`updates`, `update_p50_us`, `update_p99_us`, `update_max_us`) and
    /// the median of five full bakes of the final grid in the same run (`full_bake_ms`).
    ///
    /// Exit status: 0 the run completed (whatever it found), 2 any error.
    Bench(bench::BenchArgs),
    /// Add, move and remove obstacles on a mesh, re-triangulated locally; write the result.
    ///
    /// Obstacles are polygons with holes (the level format's `{"outer": [[x, y], ...],
    /// "holes": [...]}`), inflated by the mesh's agent radius as a bake inflates them. They get
    /// ids 0, 1, 2, ... in the order they are added. Changes apply in this order: the
    /// --changes file's (in file order), each --add file's, each --move, each --remove. One
    /// line per change (triangles taken out and put in, time), then the result's statistics.
    ///
    /// The output is written atomically and only when every change succeeds. Exit status: 0
    /// written, 2 any error (an unreadable file, an invalid polygon, an unknown id).
    Edit(edit::EditArgs),
    /// Print a mesh file's statistics and validation report.
    Inspect(InspectArgs),
    /// Find a path between two points of a mesh.
    ///
    /// Prints `found: true, length L, N points: (x, y) ...`, or with --json one object
    /// `{"found", "length", "points"}`.
    ///
    /// Exit status: 0 a path was found; 1 no path exists because start and goal are not
    /// connected (on different islands): `found: false` and the reason are printed on stdout
    /// (with --json: `"found": false, "length": null, "points": []` and `"reason"`); 2 any error,
    /// with a message on stderr: an unreadable mesh, malformed coordinates, or a start or goal
    /// off the mesh when --snap is not given.
    Path(PathArgs),
    /// Draw a mesh, and optionally a path, as an SVG picture.
    ///
    /// Triangles are filled with a light colour per island and outlined in grey; boundary
    /// edges are thick and dark; world y points up. With --from and --to the path is drawn in
    /// red with start and goal markers; when there is no path (start and goal not connected)
    /// the two points are drawn with a note and the picture is still written.
    ///
    /// The file is written atomically: on any error an existing file is left as it was.
    /// Exit status: 0 the picture was written (path or not), 2 any error (also a start or goal
    /// off the mesh without --snap).
    Render(RenderArgs),
    /// Open a mesh in the browser: pan, zoom, hover, paths in both modes, raycasts.
    ///
    /// Serves one page on 127.0.0.1 (another address only with --bind) and prints its address;
    /// every file of the page is in the binary, nothing is loaded from elsewhere. FILE is a
    /// .nav mesh or any level or map `trinav bake` reads, baked on the fly.
    ///
    /// Exit status: 2 on any error (an unreadable file, a port in use); otherwise it serves
    /// until stopped (Ctrl-C).
    View(view::ViewArgs),
}

#[derive(clap::Args)]
struct BakeArgs {
    /// The level file: .json (see the README), .map, an image, or .mesh.
    level: PathBuf,
    /// The input format, instead of the one the extension names: json, map, image (or png),
    /// mesh, poly or maze.
    #[arg(long)]
    format: Option<InputFormat>,
    /// Bitmaps: pixels whose luminance (0-255) is at least this are walkable.
    #[arg(long, default_value_t = ImportOptions::default().threshold)]
    threshold: u8,
    #[command(flatten)]
    terrain: area_flags::TerrainFlags,
    /// Where to write the mesh (written atomically; an existing file is replaced only on success).
    #[arg(short, long)]
    output: PathBuf,
    /// Agent radius in world units; overrides the level's `agent_radius`.
    #[arg(long, allow_negative_numbers = true)]
    agent_radius: Option<f64>,
    /// Largest chord error of inflated corners, as a fraction of the agent radius.
    #[arg(long, default_value_t = BakeSettings::default().arc_error)]
    arc_error: f64,
    /// Triangulation method: constrained-delaunay (spade) or ear-clipping (earcut).
    #[arg(long, default_value = "constrained-delaunay")]
    triangulation: Triangulation,
    /// Print one JSON object instead of a summary line.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct InspectArgs {
    /// The mesh file.
    mesh: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct PathArgs {
    /// The mesh file.
    mesh: PathBuf,
    /// Start point, `X,Y` in world units (negative values as written: `--from -3.5,2`), or
    /// `LAYER:X,Y` on a mesh with layers (the layer may be left out where only one layer
    /// holds the point).
    #[arg(long, value_name = "[LAYER:]X,Y", value_parser = parse_layered_point, allow_hyphen_values = true)]
    from: LayeredPoint,
    /// Goal point, `[LAYER:]X,Y` in world units.
    #[arg(long, value_name = "[LAYER:]X,Y", value_parser = parse_layered_point, allow_hyphen_values = true)]
    to: LayeredPoint,
    #[command(flatten)]
    search: SearchFlags,
    /// Print one JSON object instead of a line of text.
    #[arg(long)]
    json: bool,
}

/// How `path` and `render` search.
#[derive(clap::Args)]
struct SearchFlags {
    /// Move an off-mesh start or goal to the nearest walkable point instead of failing.
    #[arg(long)]
    snap: bool,
    /// The search: `fast` (A* over triangles + funnel, the default) or `optimal` (the exact
    /// shortest path).
    #[arg(long, default_value = "fast")]
    mode: PathMode,
    /// Partial paths: when the goal is on another island or off the mesh, or the node budget
    /// runs out, return the path as close to it as the start's island allows (the exact
    /// nearest point; see the README) instead of no path.
    #[arg(long)]
    closest: bool,
    /// The most search nodes the query may expand (triangles in fast mode, intervals in
    /// optimal mode); without --closest, running out means no path (exit 1).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    node_budget: Option<u32>,
    /// The agent's radius (a disc, world units): the path keeps this far from every wall, on
    /// a mesh baked without a radius (both modes; the optimal mode gives the disc's exact
    /// shortest path).
    /// A start or goal nearer a wall is no path (exit 1) unless --snap moves it.
    #[arg(long, value_name = "R", default_value_t = 0.0, allow_negative_numbers = true)]
    radius: f64,
    #[command(flatten)]
    areas: area_flags::AreaFlags,
}

impl SearchFlags {
    /// The path options for queries on `mesh` (read from `mesh_path`: area names).
    fn options(&self, mesh: &NavMesh, mesh_path: &Path) -> Result<PathOptions> {
        Ok(PathOptions::default()
            .with_snap(self.snap)
            .with_mode(self.mode)
            .with_partial(self.closest)
            .with_node_budget(self.node_budget)
            .with_radius(self.radius)
            .with_area_costs(self.areas.area_costs(mesh, mesh_path)?))
    }
}

#[derive(clap::Args)]
struct RenderArgs {
    /// The mesh file.
    mesh: PathBuf,
    /// Where to write the SVG (written atomically; an existing file is replaced only on success).
    #[arg(short, long)]
    output: PathBuf,
    /// Start of a path to draw, `[LAYER:]X,Y` in world units (needs --to).
    #[arg(long, value_name = "[LAYER:]X,Y", value_parser = parse_layered_point, allow_hyphen_values = true, requires = "to")]
    from: Option<LayeredPoint>,
    /// Goal of a path to draw, `[LAYER:]X,Y` in world units (needs --from).
    #[arg(long, value_name = "[LAYER:]X,Y", value_parser = parse_layered_point, allow_hyphen_values = true, requires = "from")]
    to: Option<LayeredPoint>,
    #[command(flatten)]
    search: SearchFlags,
}

/// A query point, with the name of its layer when given (`LAYER:X,Y`).
#[derive(Clone, Debug, PartialEq)]
struct LayeredPoint {
    layer: Option<String>,
    point: Point,
}

/// Parses `X,Y` or `LAYER:X,Y` (the layer: everything before the last colon, not empty).
fn parse_layered_point(text: &str) -> Result<LayeredPoint, String> {
    match text.rsplit_once(':') {
        Some(("", _)) => Err("empty layer name before the colon; expected LAYER:X,Y or X,Y".to_string()),
        Some((layer, point)) => {
            Ok(LayeredPoint { layer: Some(layer.to_string()), point: parse_point(point)? })
        }
        None => Ok(LayeredPoint { layer: None, point: parse_point(text)? }),
    }
}

impl LayeredPoint {
    /// The layer, checked against the mesh's layer names.
    fn layer_id(&self, mesh: &NavMesh, file: &Path) -> Result<Option<trinav::LayerId>> {
        let Some(name) = &self.layer else { return Ok(None) };
        match mesh.layer_by_name(name) {
            Some(id) => Ok(Some(id)),
            None => {
                let names: Vec<&str> = (0..mesh.layer_count())
                    .filter_map(|l| mesh.layer_name(trinav::LayerId(l as u16)))
                    .collect();
                bail!(
                    "{}: unknown layer {name:?} (the mesh has layers: {})",
                    file.display(),
                    names.join(", ")
                )
            }
        }
    }
}

/// Parses `X,Y` (two finite numbers separated by a comma, spaces allowed around them).
fn parse_point(text: &str) -> Result<Point, String> {
    let expected = "expected X,Y: two finite numbers separated by a comma, e.g. 12.5,-3";
    let Some((x, y)) = text.split_once(',') else {
        return Err(format!("no comma; {expected}"));
    };
    if y.contains(',') {
        return Err(format!("more than two numbers; {expected}"));
    }
    let number = |part: &str, axis: &str| -> Result<f64, String> {
        let part = part.trim();
        match part.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(_) => Err(format!("{axis} `{part}` is not finite; {expected}")),
            Err(_) => Err(format!("{axis} `{part}` is not a number; {expected}")),
        }
    };
    Ok(Point::new(number(x, "x")?, number(y, "y")?))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => {
            // --help and --version: clap prints them.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) if err.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `trinav` alone: the help, on stderr, as a usage error.
            let _ = err.print();
            return ExitCode::from(2);
        }
        Err(err) => {
            // One line, like every other error: clap's first line, without its `error: `.
            let rendered = err.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("trinav: {}", first.strip_prefix("error: ").unwrap_or(first));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("trinav: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Bake(args) => run_bake(&args),
        Command::Inspect(args) => run_inspect(&args),
        Command::Path(args) => run_path(&args),
        Command::Render(args) => run_render(&args),
        Command::Bench(args) => bench::run_bench(&args),
        Command::Edit(args) => edit::run_edit(&args),
        Command::View(args) => view::run_view(&args),
    }
}

/// Prints a line on stdout. A closed stdout (`trinav inspect x | head -1`) is not an error:
/// the command goes on and keeps its exit status. Any other write error names stdout.
fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e).context("cannot write to stdout"),
        _ => Ok(()),
    }
}

#[derive(Serialize)]
struct BakeSummary<'a> {
    level: &'a Path,
    output: &'a Path,
    vertices: usize,
    triangles: usize,
    islands: u32,
    links: usize,
    /// On a level with layers: how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    layers: Option<usize>,
    area: f64,
    min_angle_deg: f64,
    bake_ms: f64,
    stage_ms: StageMs,
    agent_radius: f64,
    triangulation: &'static str,
    fallbacks: usize,
    dropped_points: usize,
    bytes: usize,
}

#[derive(Serialize)]
struct StageMs {
    import: f64,
    validate: f64,
    merge: f64,
    triangulate: f64,
    weld: f64,
    derive: f64,
    verify: f64,
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn run_bake(args: &BakeArgs) -> Result<ExitCode> {
    let level_path = &args.level;
    let (terrain, names) = args.terrain.terrain()?;
    let options = ImportOptions::default().with_threshold(args.threshold).with_terrain(terrain);
    let start = Instant::now();
    let source = import(level_path, args.format, &options).map_err(|e| args.terrain.name_flag(e))?;
    let import_ms = ms(start.elapsed());
    let base = BakeSettings::default().with_arc_error(args.arc_error).with_triangulation(args.triangulation);
    let settings = source.settings(base, args.agent_radius);
    let mut baked = bake_source(&source, &settings).with_context(|| level_path.display().to_string())?;
    // A grid or bitmap has no names of its own: it keeps those --names gives (a level keeps
    // its own).
    if let Some(names) = names
        && baked.mesh.area_names().is_empty()
    {
        baked.mesh.set_area_names(names);
    }
    let bake_ms = ms(start.elapsed());
    let bytes = baked.mesh.to_bytes().with_context(|| args.output.display().to_string())?;
    write_atomic(&args.output, &bytes).with_context(|| format!("{}: cannot write", args.output.display()))?;

    let stats = baked.mesh.stats();
    let times = &baked.report.times;
    let summary = BakeSummary {
        level: level_path,
        output: &args.output,
        vertices: stats.vertices,
        triangles: stats.triangles,
        islands: stats.islands,
        links: baked.mesh.link_count(),
        layers: baked.mesh.is_layered().then(|| baked.mesh.layer_count()),
        area: stats.area,
        min_angle_deg: stats.min_angle_deg,
        bake_ms,
        stage_ms: StageMs {
            import: import_ms,
            validate: ms(times.validate),
            merge: ms(times.merge),
            triangulate: ms(times.triangulate),
            weld: ms(times.weld),
            derive: ms(times.derive),
            verify: ms(times.verify),
        },
        agent_radius: settings.agent_radius,
        triangulation: settings.triangulation.name(),
        fallbacks: baked.report.fallbacks.len(),
        dropped_points: baked.report.dropped_points,
        bytes: bytes.len(),
    };
    if args.json {
        print(&serde_json::to_string(&summary)?)?;
    } else {
        print(&format!(
            "{} -> {}: {} vertices, {} triangles, {} islands, {} links{}, area {}, {:.2} ms ({}, agent radius {})",
            level_path.display(),
            args.output.display(),
            summary.vertices,
            summary.triangles,
            summary.islands,
            summary.links,
            summary.layers.map(|n| format!(", {n} layers")).unwrap_or_default(),
            summary.area,
            summary.bake_ms,
            summary.triangulation,
            summary.agent_radius,
        ))?;
        for fallback in &baked.report.fallbacks {
            eprintln!(
                "trinav: note: merged polygon {} was triangulated by constrained Delaunay: {}",
                fallback.polygon, fallback.reason
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct InspectReport<'a> {
    file: &'a Path,
    bytes: usize,
    format_version: u32,
    vertices: usize,
    triangles: usize,
    islands: Option<u32>,
    /// Off-mesh links stored in the file.
    links: Option<usize>,
    /// On a mesh with layers: their names.
    #[serde(skip_serializing_if = "Option::is_none")]
    layers: Option<Vec<String>>,
    /// On a mesh with layers: the edges joining triangles of two layers (the portals' edges).
    #[serde(skip_serializing_if = "Option::is_none")]
    portal_edges: Option<usize>,
    area: Option<f64>,
    bounds: Option<[[f64; 2]; 2]>,
    min_angle_deg: Option<f64>,
    boundary_edges: Option<usize>,
    /// The largest agent radius that fits somewhere, and where (`NavMesh::widest_point`).
    widest_radius: Option<f64>,
    widest_point: Option<[f64; 2]>,
    /// The area and triangles of each area type present.
    area_types: Option<Vec<trinav::AreaTypeStats>>,
    /// The names of the area types the mesh keeps (name to type), when it keeps any.
    #[serde(skip_serializing_if = "Option::is_none")]
    area_names: Option<std::collections::BTreeMap<String, u8>>,
    agent_radius: f64,
    arc_error: f64,
    triangulation: &'static str,
    valid: bool,
    problems: Vec<String>,
}

fn run_inspect(args: &InspectArgs) -> Result<ExitCode> {
    let path = &args.mesh;
    let name = path.display().to_string();
    let bytes = std::fs::read(path).with_context(|| format!("{name}: cannot read"))?;
    let parts: MeshParts = decode(&bytes).with_context(|| name.clone())?;
    // A layered mesh is checked with its layers (its vertices need only be distinct within
    // each); the loader names the problems of an invalid one.
    let loaded = NavMesh::from_bytes(&bytes);
    let problems: Vec<String> = match &loaded {
        Ok(_) => Vec::new(),
        Err(trinav::LoadError::Invalid(invalid)) => {
            invalid.problems.iter().map(ToString::to_string).collect()
        }
        Err(_) => parts.find_problems().iter().map(ToString::to_string).collect(),
    };
    let mut report = InspectReport {
        file: path,
        bytes: bytes.len(),
        // The version the file was written in (decoding checked the header).
        format_version: u32::from_le_bytes(bytes[8..12].try_into().expect("a decoded file has a header")),
        vertices: parts.vertices.len(),
        triangles: parts.triangles.len(),
        islands: None,
        links: None,
        layers: None,
        portal_edges: None,
        area: None,
        bounds: None,
        min_angle_deg: None,
        boundary_edges: None,
        widest_radius: None,
        widest_point: None,
        area_types: None,
        area_names: None,
        agent_radius: parts.settings.agent_radius,
        arc_error: parts.settings.arc_error,
        triangulation: parts.settings.triangulation.name(),
        valid: problems.is_empty(),
        problems,
    };
    if report.valid {
        // From the bytes, not the parts: the file's links come with it (and are checked).
        let mesh = loaded.with_context(|| name.clone())?;
        let stats = mesh.stats();
        report.islands = Some(stats.islands);
        report.links = Some(mesh.link_count());
        if let Some(table) = mesh.layer_table() {
            report.layers = Some(table.names.clone());
            report.portal_edges = Some(mesh.portal_edge_count());
        }
        report.area = Some(stats.area);
        report.bounds = Some([stats.bounds.min.into(), stats.bounds.max.into()]);
        report.min_angle_deg = Some(stats.min_angle_deg);
        report.boundary_edges = Some(stats.boundary_edges);
        report.area_types = Some(mesh.area_types());
        if !mesh.area_names().is_empty() {
            report.area_names = Some(area_flags::by_name(mesh.area_names()));
        }
        if let Some((at, radius)) = mesh.widest_point() {
            report.widest_radius = Some(radius);
            report.widest_point = Some(at.into());
        }
    }
    if args.json {
        print(&serde_json::to_string(&report)?)?;
    } else {
        print(&inspect_text(&report))?;
    }
    if !report.valid {
        bail!("{name}: invalid mesh: {}", report.problems[0]);
    }
    Ok(ExitCode::SUCCESS)
}

fn inspect_text(r: &InspectReport) -> String {
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    let mut text = format!(
        "{}: trinav mesh, format {}, {} bytes\n\
         vertices {}, triangles {}, islands {}, links {}, boundary edges {}\n\
         area {}, bounds {}\n\
         min angle {} deg\n\
         widest place found: an agent of radius {} fits at {}\n\
         baked with agent radius {}, arc error {}, {}\n\
         valid: {}",
        r.file.display(),
        r.format_version,
        r.bytes,
        r.vertices,
        r.triangles,
        opt(r.islands.map(|v| v.to_string())),
        opt(r.links.map(|v| v.to_string())),
        opt(r.boundary_edges.map(|v| v.to_string())),
        opt(r.area.map(|v| v.to_string())),
        opt(r.bounds.map(|[a, b]| format!("({}, {})-({}, {})", a[0], a[1], b[0], b[1]))),
        opt(r.min_angle_deg.map(|v| format!("{v:.3}"))),
        opt(r.widest_radius.map(|v| v.to_string())),
        opt(r.widest_point.map(|[x, y]| format!("({x}, {y})"))),
        r.agent_radius,
        r.arc_error,
        r.triangulation,
        if r.valid { "yes" } else { "NO" },
    );
    if let (Some(layers), Some(portal_edges)) = (&r.layers, r.portal_edges) {
        text.push_str(&format!(
            "\nlayers {}: {}; portal edges {portal_edges}",
            layers.len(),
            layers.join(", ")
        ));
    }
    if let Some(types) = &r.area_types {
        let list: Vec<String> = types
            .iter()
            .map(|t| {
                let name = (r.area_names.iter().flatten()).find(|&(_, &a)| a == t.area.0).map(|(n, _)| n);
                let name = name.map(|n| format!(" ({n})")).unwrap_or_default();
                format!("{}{name}: area {} ({} triangles)", t.area.0, t.size, t.triangles)
            })
            .collect();
        text.push_str(&format!("\narea types: {}", list.join(", ")));
    }
    for problem in &r.problems {
        text.push_str(&format!("\n  problem: {problem}"));
    }
    text
}

/// Loads a mesh file; errors name it.
fn load_mesh(path: &Path) -> Result<NavMesh> {
    let name = path.display();
    let bytes = std::fs::read(path).with_context(|| format!("{name}: cannot read"))?;
    NavMesh::from_bytes(&bytes).with_context(|| name.to_string())
}

/// Runs a path query. `Ok(Ok(path))`: found (maybe partial); `Ok(Err(reason))`: no path (start
/// and goal are not connected, or the node budget ran out); `Err`: the query is invalid (a
/// point off the mesh without snapping, or not finite), with a message naming the mesh file and
/// the point.
fn query_path(
    mesh: &NavMesh,
    file: &Path,
    (from, to): (&LayeredPoint, &LayeredPoint),
    options: &PathOptions,
) -> Result<Result<trinav::Path, String>> {
    let (from_layer, to_layer) = (from.layer_id(mesh, file)?, to.layer_id(mesh, file)?);
    let (from, to) = (from.point, to.point);
    let found = if from_layer.is_none() && to_layer.is_none() {
        mesh.find_path_with(from, to, options, &mut PathScratch::new())
    } else {
        // A layer left out is the only layer holding the point.
        let only = |p: Point, layer: Option<trinav::LayerId>| {
            layer.or_else(|| match mesh.layers_at(p)[..] {
                [one] => Some(one),
                _ => None,
            })
        };
        match (only(from, from_layer), only(to, to_layer)) {
            (Some(a), Some(b)) => mesh.find_path_on((a, from), (b, to), options, &mut PathScratch::new()),
            _ => mesh.find_path_with(from, to, options, &mut PathScratch::new()),
        }
    };
    match found {
        Ok(path) => Ok(Ok(path)),
        Err(PathError::Unreachable) => Ok(Err(unreachable_reason(mesh, from, to, options.snap))),
        Err(err @ PathError::BudgetExhausted { .. }) => {
            Ok(Err(format!("{err} (--closest walks towards the goal)")))
        }
        Err(err @ PathError::NoClearance { .. }) => {
            Ok(Err(format!("{err} (--snap moves it to the nearest point with that clearance)")))
        }
        Err(err @ PathError::DiscPathUnverified) => Ok(Err(err.to_string())),
        Err(err @ PathError::ExcludedArea { .. }) => bail!("{}: {err} (by --exclude)", file.display()),
        Err(err @ PathError::OffMesh { .. }) => {
            bail!(
                "{}: {err} (--snap moves it to the nearest walkable point{})",
                file.display(),
                if options.partial { "" } else { "; for the goal, --closest walks as close as it can" }
            )
        }
        Err(err @ PathError::AmbiguousLayer { .. }) => {
            bail!("{}: {err} (--from and --to take LAYER:X,Y)", file.display())
        }
        Err(err) => bail!("{}: {err}", file.display()),
    }
}

/// The name of the layer of each point of `path`, on a mesh with layers.
fn layer_names(mesh: &NavMesh, path: &trinav::Path) -> Option<Vec<String>> {
    mesh.is_layered().then(|| {
        (0..path.points.len()).map(|k| mesh.layer_name(path.layer(k)).unwrap_or("?").to_string()).collect()
    })
}

/// Why start and goal are not connected, naming their islands when both are on the mesh.
fn unreachable_reason(mesh: &NavMesh, from: Point, to: Point, snap: bool) -> String {
    let triangle = |p: Point| if snap { mesh.nearest_point(p).map(|(_, t)| t) } else { mesh.locate(p) };
    match (triangle(from), triangle(to)) {
        (Some(a), Some(b)) if mesh.island(a) != mesh.island(b) => format!(
            "start and goal are not connected (start on island {}, goal on island {})",
            mesh.island(a),
            mesh.island(b)
        ),
        _ => "start and goal are not connected".to_string(),
    }
}

/// `(x, y)` with the shortest exact decimal form of each coordinate.
fn point_text(p: Point) -> String {
    format!("({}, {})", p.x, p.y)
}

#[derive(Serialize)]
struct PathReport {
    found: bool,
    /// With --closest only: whether the path stops short of the goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    partial: Option<bool>,
    /// The walked length (links left out).
    length: Option<f64>,
    /// What the path minimises: the pieces' lengths times their area costs, plus the costs of
    /// the links taken (the length when every cost is 1 and no link is taken).
    cost: Option<f64>,
    points: Vec<[f64; 2]>,
    /// The index of each point from which an off-mesh link is taken to the next point.
    links: Vec<usize>,
    /// On a mesh with layers: the layer of each point, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    layers: Option<Vec<String>>,
    /// Why there is no path, or why a partial path stops short.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// Why a partial path stops short of the goal, for people.
fn partial_text(reason: trinav::PartialReason) -> String {
    format!("{reason}; the path goes as near it as it can")
}

fn run_path(args: &PathArgs) -> Result<ExitCode> {
    let mesh = load_mesh(&args.mesh)?;
    let options = args.search.options(&mesh, &args.mesh)?;
    let outcome = query_path(&mesh, &args.mesh, (&args.from, &args.to), &options)?;
    let partial_flag = |partial: bool| args.search.closest.then_some(partial);
    let report = match &outcome {
        Ok(path) => PathReport {
            found: true,
            partial: partial_flag(path.is_partial()),
            length: Some(path.length),
            cost: Some(path.cost),
            points: path.points.iter().map(|&p| p.into()).collect(),
            links: path.links.iter().map(|step| step.point).collect(),
            layers: layer_names(&mesh, path),
            reason: path.partial.map(partial_text),
        },
        Err(reason) => PathReport {
            found: false,
            partial: partial_flag(false),
            length: None,
            cost: None,
            points: Vec::new(),
            links: Vec::new(),
            layers: mesh.is_layered().then(Vec::new),
            reason: Some(reason.clone()),
        },
    };
    if args.json {
        print(&serde_json::to_string(&report)?)?;
    } else {
        match &outcome {
            Ok(path) => {
                let n = path.points.len();
                let layers = layer_names(&mesh, path);
                // A link taken from a point shows as `=>` to the next one; on a mesh with
                // layers, each point carries its layer (`ground:(1, 2)`).
                let points: Vec<String> = (path.points.iter().enumerate())
                    .map(|(k, &p)| {
                        let link = if path.is_link_step(k) { " =>" } else { "" };
                        let layer = layers.as_ref().map(|l| format!("{}:", l[k])).unwrap_or_default();
                        format!("{layer}{}{link}", point_text(p))
                    })
                    .collect();
                let partial =
                    path.partial.map(|r| format!(" (partial: {})", partial_text(r))).unwrap_or_default();
                let links = match path.links.len() {
                    0 => String::new(),
                    k => format!(" with {k} link{}", if k == 1 { "" } else { "s" }),
                };
                print(&format!(
                    "found: true{partial}, length {}, cost {}{links}, {n} point{}: {}",
                    path.length,
                    path.cost,
                    if n == 1 { "" } else { "s" },
                    points.join(" ")
                ))?;
            }
            Err(reason) => print(&format!("found: false, reason: {reason}"))?,
        }
    }
    Ok(if report.found { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn run_render(args: &RenderArgs) -> Result<ExitCode> {
    let mesh = load_mesh(&args.mesh)?;
    let query = match (&args.from, &args.to) {
        (Some(from), Some(to)) => Some((
            from.point,
            to.point,
            query_path(&mesh, &args.mesh, (from, to), &args.search.options(&mesh, &args.mesh)?)?,
        )),
        _ => None,
    };
    let (triangles, islands) = (mesh.triangle_count(), mesh.island_count());
    let mut title = format!("trinav: {}, {triangles} triangles, {islands} islands", args.mesh.display());
    let mut summary = format!("wrote {}: {triangles} triangles, {islands} islands", args.output.display());
    if mesh.is_layered() {
        let layers = format!(", {} layers side by side", mesh.layer_count());
        title.push_str(&layers);
        summary.push_str(&layers);
    }
    if let Some((from, to, outcome)) = &query {
        let (from_text, to_text) = (point_text(*from), point_text(*to));
        match outcome {
            Ok(path) => {
                let kind = if path.is_partial() { "partial path" } else { "path" };
                title.push_str(&format!(", {kind} from {from_text} to {to_text}, length {}", path.length));
                summary.push_str(&format!(", {kind} length {}", path.length));
                if let (Some(reason), Some(end)) = (path.partial, path.end()) {
                    title.push_str(&format!(" ({reason}; it ends at {})", point_text(end)));
                }
            }
            Err(reason) => {
                title.push_str(&format!(", no path from {from_text} to {to_text}: {reason}"));
                summary.push_str(&format!(", no path: {reason}"));
            }
        }
    }
    let drawing = query.as_ref().map(|(from, to, outcome)| render::PathDrawing {
        from: *from,
        to: *to,
        outcome: outcome.as_ref().map_err(String::as_str),
        radius: args.search.radius,
    });
    let svg = render::svg(&mesh, &title, drawing.as_ref());
    write_atomic(&args.output, svg.as_bytes())
        .with_context(|| format!("{}: cannot write", args.output.display()))?;
    print(&summary)?;
    Ok(ExitCode::SUCCESS)
}
