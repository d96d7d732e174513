//! The `trinav` command: bake levels into navigation meshes and inspect them.
//!
//! A thin layer over the `trinav` and `trinav-bake` libraries: flag definitions, file
//! handling and output formatting. Exit status: 0 success, 2 any error (one line on stderr
//! naming the file and the problem).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};
use serde::Serialize;
use trinav::{BakeSettings, MeshParts, NavMesh, Triangulation, format, validate};
use trinav_bake::{Level, bake, settings_for};

#[derive(Parser)]
#[command(name = "trinav", version, about = "Bake and inspect 2D navigation meshes")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Bake a level (JSON) into a navigation mesh file.
    Bake(BakeArgs),
    /// Print a mesh file's statistics and validation report.
    Inspect(InspectArgs),
}

#[derive(clap::Args)]
struct BakeArgs {
    /// The level file (JSON, see the README for the format).
    level: PathBuf,
    /// Where to write the mesh (written atomically; an existing file is replaced only on success).
    #[arg(short, long)]
    output: PathBuf,
    /// Agent radius in world units; overrides the level's `agent_radius`.
    #[arg(long, allow_negative_numbers = true)]
    agent_radius: Option<f64>,
    /// Largest chord error of inflated corners, as a fraction of the agent radius.
    #[arg(long, default_value_t = BakeSettings::default().arc_error)]
    arc_error: f64,
    /// Triangulation method.
    #[arg(long, value_enum, default_value_t = TriangulationArg::EarClipping)]
    triangulation: TriangulationArg,
    /// Print one JSON object instead of a summary line.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum TriangulationArg {
    /// Ear clipping (earcut).
    EarClipping,
    /// Constrained Delaunay (spade).
    ConstrainedDelaunay,
}

impl From<TriangulationArg> for Triangulation {
    fn from(arg: TriangulationArg) -> Self {
        match arg {
            TriangulationArg::EarClipping => Triangulation::EarClipping,
            TriangulationArg::ConstrainedDelaunay => Triangulation::ConstrainedDelaunay,
        }
    }
}

#[derive(clap::Args)]
struct InspectArgs {
    /// The mesh file.
    mesh: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
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
    }
}

/// A closed stdout (`trinav inspect x | head -1`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<std::io::Error>())
        .any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}

fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

#[derive(Serialize)]
struct BakeSummary<'a> {
    level: &'a Path,
    output: &'a Path,
    vertices: usize,
    triangles: usize,
    islands: u32,
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
    let level = Level::load(level_path).with_context(|| level_path.display().to_string())?;
    let base =
        BakeSettings::default().with_arc_error(args.arc_error).with_triangulation(args.triangulation.into());
    let settings = settings_for(&level, base, args.agent_radius);
    let start = Instant::now();
    let baked = bake(&level, &settings).with_context(|| level_path.display().to_string())?;
    let bake_ms = ms(start.elapsed());
    let bytes = baked.mesh.to_bytes().with_context(|| args.output.display().to_string())?;
    trinav::write_atomic(&args.output, &bytes)
        .with_context(|| format!("{}: cannot write", args.output.display()))?;

    let stats = baked.mesh.stats();
    let times = &baked.report.times;
    let summary = BakeSummary {
        level: level_path,
        output: &args.output,
        vertices: stats.vertices,
        triangles: stats.triangles,
        islands: stats.islands,
        area: stats.area,
        min_angle_deg: stats.min_angle_deg,
        bake_ms,
        stage_ms: StageMs {
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
            "{} -> {}: {} vertices, {} triangles, {} islands, area {}, {:.2} ms ({}, agent radius {})",
            level_path.display(),
            args.output.display(),
            summary.vertices,
            summary.triangles,
            summary.islands,
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
    area: Option<f64>,
    bounds: Option<[[f64; 2]; 2]>,
    min_angle_deg: Option<f64>,
    boundary_edges: Option<usize>,
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
    let parts: MeshParts = format::decode(&bytes).with_context(|| name.clone())?;
    let problems: Vec<String> = validate(&parts).iter().map(ToString::to_string).collect();
    let mut report = InspectReport {
        file: path,
        bytes: bytes.len(),
        format_version: format::FORMAT_VERSION,
        vertices: parts.vertices.len(),
        triangles: parts.triangles.len(),
        islands: None,
        area: None,
        bounds: None,
        min_angle_deg: None,
        boundary_edges: None,
        agent_radius: parts.settings.agent_radius,
        arc_error: parts.settings.arc_error,
        triangulation: parts.settings.triangulation.name(),
        valid: problems.is_empty(),
        problems,
    };
    if report.valid {
        let mesh = NavMesh::from_parts(parts).with_context(|| name.clone())?;
        let stats = mesh.stats();
        report.islands = Some(stats.islands);
        report.area = Some(stats.area);
        report.bounds = Some([stats.bounds.min.into(), stats.bounds.max.into()]);
        report.min_angle_deg = Some(stats.min_angle_deg);
        report.boundary_edges = Some(stats.boundary_edges);
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
         vertices {}, triangles {}, islands {}, boundary edges {}\n\
         area {}, bounds {}\n\
         min angle {} deg\n\
         baked with agent radius {}, arc error {}, {}\n\
         valid: {}",
        r.file.display(),
        r.format_version,
        r.bytes,
        r.vertices,
        r.triangles,
        opt(r.islands.map(|v| v.to_string())),
        opt(r.boundary_edges.map(|v| v.to_string())),
        opt(r.area.map(|v| v.to_string())),
        opt(r.bounds.map(|[a, b]| format!("({}, {})-({}, {})", a[0], a[1], b[0], b[1]))),
        opt(r.min_angle_deg.map(|v| format!("{v:.3}"))),
        r.agent_radius,
        r.arc_error,
        r.triangulation,
        if r.valid { "yes" } else { "NO" },
    );
    for problem in &r.problems {
        text.push_str(&format!("\n  problem: {problem}"));
    }
    text
}
