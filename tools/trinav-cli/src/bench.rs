//! `trinav bench`: runs a scenario file's queries on a mesh.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;
use trinav::scenario::{ScenarioQuery, parse_problem, parse_scenario};
use trinav::{Path, PathError, PathMode, PathOptions, PathScratch, Point};

use crate::{load_mesh, print};

#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// The mesh file.
    mesh: PathBuf,
    /// The scenario file (`version 1`, then `bucket map width height sx sy gx gy cost`), or a
    /// folder of any-angle maze `.problem` files (grid corners, read in name order).
    #[arg(long)]
    scen: PathBuf,
    /// The search: `fast` (midpoint A* + funnel) or `optimal` (the exact shortest path).
    #[arg(long, default_value = "fast")]
    mode: PathMode,
    /// Write one JSON line per query, in file order: `{"i", "found", "length", "points"}`.
    #[arg(long, value_name = "OUT.jsonl")]
    paths: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The figures of one run.
#[derive(Serialize)]
struct BenchReport {
    mesh: String,
    scenario: String,
    mode: String,
    queries: usize,
    found: usize,
    not_found: usize,
    p50_us: f64,
    p99_us: f64,
    mean_us: f64,
    ratio_mean: Option<f64>,
    ratio_max: Option<f64>,
    ratio_min: Option<f64>,
    shorter_than_reference: usize,
    longer_than_reference: usize,
}

#[derive(Serialize)]
struct PathLine<'a> {
    i: usize,
    found: bool,
    length: Option<f64>,
    points: Vec<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// For grid scenarios (map column `*.map`, or maze problems): the centre of the cell whose
/// top-left corner is `p`, so that a point on a double corner leaves through its own cell.
fn cell_side(query: &ScenarioQuery, grid: bool, p: Point) -> Option<Point> {
    (grid || query.map.ends_with(".map")).then(|| Point::new(p.x + 0.5, p.y + 0.5))
}

/// The queries of a scenario file, or of a folder of `.problem` files (then `true`: a grid).
fn read_queries(path: &std::path::Path) -> Result<(Vec<ScenarioQuery>, bool)> {
    let name = path.display().to_string();
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("{name}: cannot read"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "problem"))
            .collect();
        files.sort();
        if files.is_empty() {
            anyhow::bail!("{name}: a folder of scenarios must hold .problem files, this one holds none");
        }
        let queries = files
            .iter()
            .map(|f| {
                let text =
                    std::fs::read_to_string(f).with_context(|| format!("{}: cannot read", f.display()))?;
                parse_problem(&text).with_context(|| f.display().to_string())
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok((queries, true));
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?;
    Ok((parse_scenario(&text).with_context(|| name.clone())?, false))
}

pub(crate) fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    let mesh = load_mesh(&args.mesh)?;
    let scen_name = args.scen.display().to_string();
    let (queries, grid) = read_queries(&args.scen)?;

    let progress = if std::io::stderr().is_terminal() && queries.len() >= 1000 {
        indicatif::ProgressBar::new(queries.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut scratch = PathScratch::new();
    let mut path = Path::default();
    let mut times_us = Vec::with_capacity(queries.len());
    let mut ratios = Vec::new();
    let (mut found, mut shorter, mut longer) = (0, 0, 0);
    let mut lines = String::new();
    for (i, query) in queries.iter().enumerate() {
        let options = PathOptions::default()
            .with_mode(args.mode)
            .with_sides(cell_side(query, grid, query.start), cell_side(query, grid, query.goal));
        let start = Instant::now();
        let result = mesh.find_path_into(query.start, query.goal, &options, &mut scratch, &mut path);
        times_us.push(start.elapsed().as_secs_f64() * 1e6);
        progress.inc(1);
        match &result {
            Ok(()) => {
                found += 1;
                if query.reference > 0.0 {
                    let ratio = path.length / query.reference;
                    ratios.push(ratio);
                    if path.length < query.reference * (1.0 - 1e-6) {
                        shorter += 1;
                    } else if path.length > query.reference * (1.0 + 1e-6) {
                        longer += 1;
                    }
                }
            }
            Err(PathError::Unreachable) => {}
            Err(e) => {
                // Off-mesh or bad points are reported per query, not fatal to the run.
                if args.paths.is_none() {
                    eprintln!("trinav: {scen_name}: line {}: {e}", query.line);
                }
            }
        }
        if args.paths.is_some() {
            let error = result.as_ref().err().map(|e| e.to_string());
            let line = PathLine {
                i,
                found: result.is_ok(),
                length: result.is_ok().then_some(path.length),
                points: if result.is_ok() {
                    path.points.iter().map(|&p| p.into()).collect()
                } else {
                    Vec::new()
                },
                error: error.as_deref(),
            };
            lines.push_str(&serde_json::to_string(&line)?);
            lines.push('\n');
        }
    }
    progress.finish_and_clear();
    if let Some(out) = &args.paths {
        trinav::write_atomic(out, lines.as_bytes())
            .with_context(|| format!("{}: cannot write", out.display()))?;
    }

    let mut sorted = times_us.clone();
    sorted.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        if sorted.is_empty() { 0.0 } else { sorted[((sorted.len() - 1) as f64 * q).round() as usize] }
    };
    let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    let report = BenchReport {
        mesh: args.mesh.display().to_string(),
        scenario: scen_name,
        mode: args.mode.name().to_string(),
        queries: queries.len(),
        found,
        not_found: queries.len() - found,
        p50_us: quantile(0.5),
        p99_us: quantile(0.99),
        mean_us: mean(&times_us).unwrap_or(0.0),
        ratio_mean: mean(&ratios),
        ratio_max: ratios.iter().copied().reduce(f64::max),
        ratio_min: ratios.iter().copied().reduce(f64::min),
        shorter_than_reference: shorter,
        longer_than_reference: longer,
    };
    if args.json {
        print(&serde_json::to_string(&report)?)?;
    } else {
        let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.6}"));
        print(&format!(
            "{} on {}: {} queries, {} found, {} not found\n\
             time per query: p50 {:.2} us, p99 {:.2} us, mean {:.2} us\n\
             length / reference: mean {}, max {}, min {}; {} shorter than the reference, {} longer",
            report.scenario,
            report.mesh,
            report.queries,
            report.found,
            report.not_found,
            report.p50_us,
            report.p99_us,
            report.mean_us,
            ratio(report.ratio_mean),
            ratio(report.ratio_max),
            ratio(report.ratio_min),
            report.shorter_than_reference,
            report.longer_than_reference,
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
