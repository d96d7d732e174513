//! `trinav bench`: runs a scenario file's queries on a mesh, or a dynamic scenario (GPPC
//! dynamic track, version 2) on the grid it builds.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use trinav::{Path, PathError, PathMode, PathOptions, PathScratch};
use trinav_tools::scenario::read_queries;
use trinav_tools::stats::{mean, quantile};
use trinav_tools::write_atomic;

use crate::{dynamic, load_mesh, print};

#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// The mesh file; none for a dynamic scenario (version 2), which builds its own grid.
    mesh: Option<PathBuf>,
    /// The scenario file (`version 1`, then `bucket map width height sx sy gx gy cost`), or a
    /// folder of any-angle maze `.problem` files (grid corners, read in name order), or a
    /// dynamic scenario of the GPPC dynamic track (`version 2`, a header naming its patch file,
    /// `commands`, then `P time patch x y` and `Q time sx sy gx gy length` lines; see the README).
    #[arg(long)]
    scen: PathBuf,
    /// The search: `fast` (A* over triangles + funnel) or `optimal` (the exact shortest path).
    #[arg(long, default_value = "fast")]
    mode: PathMode,
    /// The most search nodes each query may expand; queries that run out count as not found
    /// (`budget_exhausted` in the JSON).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    node_budget: Option<u32>,
    /// The agent's radius (a disc; both modes). Queries whose start or goal is nearer a wall
    /// count as `no_clearance` (not found, written to --paths with `"found": false`).
    #[arg(long, value_name = "R", default_value_t = 0.0, allow_negative_numbers = true)]
    radius: f64,
    #[command(flatten)]
    areas: crate::area_flags::AreaFlags,
    /// Write one JSON line per query, in file order: `{"i", "found", "length", "cost", "points"}`.
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
    /// Queries whose search ran out of its node budget.
    budget_exhausted: usize,
    /// The agent radius asked for.
    radius: f64,
    /// Queries whose start or goal lacks the radius's clearance.
    no_clearance: usize,
    /// Queries the disc funnel could not verify (`DiscPathUnverified`).
    unverified: usize,
    /// Nodes expanded per query (triangles in fast mode, intervals in optimal mode).
    expanded_mean: f64,
    /// Time of all queries over the nodes they expanded: what a node of budget costs.
    ns_per_node: Option<f64>,
    ratio_mean: Option<f64>,
    ratio_max: Option<f64>,
    ratio_min: Option<f64>,
    /// The mean cost of the paths found (their length when every area costs 1).
    cost_mean: Option<f64>,
    shorter_than_reference: usize,
    longer_than_reference: usize,
}

#[derive(Serialize)]
struct PathLine<'a> {
    i: usize,
    found: bool,
    length: Option<f64>,
    cost: Option<f64>,
    points: Vec<[f64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

pub(crate) fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    let scen_name = args.scen.display().to_string();
    let dynamic_text = if args.scen.is_dir() {
        None
    } else {
        let bytes = std::fs::read(&args.scen).with_context(|| format!("{scen_name}: cannot read"))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        dynamic::is_version_2(&text).then_some(text)
    };
    let mesh_path = match (&args.mesh, dynamic_text) {
        (None, Some(_)) if args.radius != 0.0 => bail!(
            "{scen_name}: --radius {}: a dynamic scenario runs point agents only (its reference lengths are for a point)",
            args.radius
        ),
        (None, Some(_)) if !(args.areas.costs.is_empty() && args.areas.exclude.is_empty()) => {
            bail!("{scen_name}: --cost and --exclude: a dynamic scenario's grid has no area types")
        }
        (None, Some(text)) => return run_dynamic(args, &text),
        (Some(mesh), None) => mesh,
        (Some(mesh), Some(_)) => bail!(
            "{scen_name}: a dynamic scenario (version 2) builds its own grid: run it without the mesh {}",
            mesh.display()
        ),
        (None, None) => bail!(
            "{scen_name}: not a dynamic scenario (version 2): give the mesh to run it on (trinav bench MESH --scen {scen_name})"
        ),
    };
    let mesh = load_mesh(mesh_path)?;
    let area_costs = args.areas.area_costs(&mesh, mesh_path)?;
    let queries = read_queries(&args.scen)?;
    let mut costs = Vec::new();

    let progress = if std::io::stderr().is_terminal() && queries.len() >= 1000 {
        indicatif::ProgressBar::new(queries.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut scratch = PathScratch::new();
    let mut path = Path::default();
    let mut times_us = Vec::with_capacity(queries.len());
    let mut expanded = Vec::with_capacity(queries.len());
    let mut exhausted = 0;
    let (mut no_clearance, mut unverified) = (0, 0);
    let mut ratios = Vec::new();
    let (mut found, mut shorter, mut longer) = (0, 0, 0);
    let mut lines = String::new();
    for (i, query) in queries.iter().enumerate() {
        let (start_side, goal_side) = query.sides();
        let options = PathOptions::default()
            .with_mode(args.mode)
            .with_sides(start_side, goal_side)
            .with_node_budget(args.node_budget)
            .with_radius(args.radius)
            .with_area_costs(area_costs);
        let start = Instant::now();
        let result = mesh.find_path_into(query.start, query.goal, &options, &mut scratch, &mut path);
        times_us.push(start.elapsed().as_secs_f64() * 1e6);
        expanded.push(f64::from(scratch.expanded_nodes()));
        progress.inc(1);
        match &result {
            Ok(()) => {
                found += 1;
                costs.push(path.cost);
                if query.reference > 0.0 {
                    // The cost: the walked length, plus the costs of any off-mesh links taken.
                    let ratio = path.cost / query.reference;
                    ratios.push(ratio);
                    if path.cost < query.reference * (1.0 - 1e-6) {
                        shorter += 1;
                    } else if path.cost > query.reference * (1.0 + 1e-6) {
                        longer += 1;
                    }
                }
            }
            Err(PathError::Unreachable) => {}
            Err(PathError::BudgetExhausted { .. }) => exhausted += 1,
            Err(PathError::NoClearance { .. }) => no_clearance += 1,
            Err(PathError::DiscPathUnverified) => unverified += 1,
            Err(e @ (PathError::BadRadius(_) | PathError::NotWithLayers(_))) => {
                anyhow::bail!("{}: --radius {}: {e}", mesh_path.display(), args.radius)
            }
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
                cost: result.is_ok().then_some(path.cost),
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
        write_atomic(out, lines.as_bytes()).with_context(|| format!("{}: cannot write", out.display()))?;
    }

    let mut sorted = times_us.clone();
    sorted.sort_by(f64::total_cmp);
    let total_nodes: f64 = expanded.iter().sum();
    let report = BenchReport {
        mesh: mesh_path.display().to_string(),
        scenario: scen_name,
        mode: args.mode.name().to_string(),
        queries: queries.len(),
        found,
        not_found: queries.len() - found,
        p50_us: quantile(&sorted, 0.5),
        p99_us: quantile(&sorted, 0.99),
        mean_us: mean(&times_us).unwrap_or(0.0),
        budget_exhausted: exhausted,
        radius: args.radius,
        no_clearance,
        unverified,
        expanded_mean: mean(&expanded).unwrap_or(0.0),
        ns_per_node: (total_nodes > 0.0).then(|| times_us.iter().sum::<f64>() * 1e3 / total_nodes),
        ratio_mean: mean(&ratios),
        ratio_max: ratios.iter().copied().reduce(f64::max),
        ratio_min: ratios.iter().copied().reduce(f64::min),
        cost_mean: mean(&costs),
        shorter_than_reference: shorter,
        longer_than_reference: longer,
    };
    if args.json {
        print(&serde_json::to_string(&report)?)?;
    } else {
        let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.6}"));
        print(&format!(
            "{} on {}: {} queries, {} found, {} not found\n\
             time per query: p50 {:.2} us, p99 {:.2} us, mean {:.2} us; {:.1} nodes expanded per query{}\n\
             length / reference: mean {}, max {}, min {}; {} shorter than the reference, {} longer",
            report.scenario,
            report.mesh,
            report.queries,
            report.found,
            report.not_found,
            report.p50_us,
            report.p99_us,
            report.mean_us,
            report.expanded_mean,
            report.ns_per_node.map_or(String::new(), |ns| format!(", {ns:.1} ns per node")),
            ratio(report.ratio_mean),
            ratio(report.ratio_max),
            ratio(report.ratio_min),
            report.shorter_than_reference,
            report.longer_than_reference,
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The figures of a dynamic run.
#[derive(Serialize)]
struct DynamicReport {
    scenario: String,
    mode: String,
    width: u32,
    height: u32,
    queries: usize,
    found: usize,
    not_found: usize,
    p50_us: f64,
    p99_us: f64,
    mean_us: f64,
    budget_exhausted: usize,
    expanded_mean: f64,
    ratio_mean: Option<f64>,
    ratio_max: Option<f64>,
    ratio_min: Option<f64>,
    /// Paths longer than the octile reference by more than 1e-6 relative (an any-angle path
    /// never should be).
    longer_than_reference: usize,
    /// Queries found where the reference says no path, or not found where it has one.
    connectivity_mismatches: usize,
    /// `P` lines applied.
    updates: usize,
    update_p50_us: f64,
    update_p99_us: f64,
    update_max_us: f64,
    /// The median of five full bakes of the final grid, in the same run.
    full_bake_ms: f64,
    /// The median update over the full bake.
    update_p50_over_full_bake: Option<f64>,
    /// Triangles of the final mesh, and of the full bake of the final grid.
    triangles: usize,
    full_bake_triangles: usize,
}

/// Runs a dynamic scenario (its text already read).
fn run_dynamic(args: &BenchArgs, text: &str) -> Result<ExitCode> {
    let scen_name = args.scen.display().to_string();
    let scenario = dynamic::read(&args.scen, text)?;
    let options = PathOptions::default().with_mode(args.mode).with_node_budget(args.node_budget);
    let run = dynamic::run(&scenario, &scen_name, &options)?;

    let (mut found, mut exhausted, mut longer, mut mismatches) = (0, 0, 0, 0);
    let mut ratios = Vec::new();
    let mut lines = String::new();
    for (i, answer) in run.answers.iter().enumerate() {
        match (&answer.result, answer.reference) {
            (Ok(path), Some(reference)) => {
                found += 1;
                if reference > 0.0 {
                    ratios.push(path.length / reference);
                }
                if path.length > reference * (1.0 + 1e-6) {
                    longer += 1;
                }
            }
            (Ok(_), None) => {
                found += 1;
                mismatches += 1;
            }
            (Err(e), reference) => {
                if matches!(e, PathError::BudgetExhausted { .. }) {
                    exhausted += 1;
                } else if reference.is_some() {
                    mismatches += 1;
                }
            }
        }
        if args.paths.is_some() {
            let error = answer.result.as_ref().err().map(|e| e.to_string());
            let line = PathLine {
                i,
                found: answer.result.is_ok(),
                length: answer.result.as_ref().ok().map(|p| p.length),
                cost: answer.result.as_ref().ok().map(|p| p.cost),
                points: answer
                    .result
                    .as_ref()
                    .map_or(Vec::new(), |p| p.points.iter().map(|&q| q.into()).collect()),
                error: error.as_deref(),
            };
            lines.push_str(&serde_json::to_string(&line)?);
            lines.push('\n');
        }
    }
    if let Some(out) = &args.paths {
        write_atomic(out, lines.as_bytes()).with_context(|| format!("{}: cannot write", out.display()))?;
    }
    let sorted = |values: &[f64]| {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        sorted
    };
    let (queries, updates) = (sorted(&run.query_us), sorted(&run.update_us));
    let update_p50_us = quantile(&updates, 0.5);
    let report = DynamicReport {
        scenario: scen_name,
        mode: args.mode.name().to_string(),
        width: scenario.width,
        height: scenario.height,
        queries: queries.len(),
        found,
        not_found: queries.len() - found,
        p50_us: quantile(&queries, 0.5),
        p99_us: quantile(&queries, 0.99),
        mean_us: mean(&run.query_us).unwrap_or(0.0),
        budget_exhausted: exhausted,
        expanded_mean: mean(&run.expanded).unwrap_or(0.0),
        ratio_mean: mean(&ratios),
        ratio_max: ratios.iter().copied().reduce(f64::max),
        ratio_min: ratios.iter().copied().reduce(f64::min),
        longer_than_reference: longer,
        connectivity_mismatches: mismatches,
        updates: updates.len(),
        update_p50_us,
        update_p99_us: quantile(&updates, 0.99),
        update_max_us: updates.last().copied().unwrap_or(0.0),
        full_bake_ms: run.full_bake_ms,
        update_p50_over_full_bake: (!updates.is_empty() && run.full_bake_ms > 0.0)
            .then(|| update_p50_us / (run.full_bake_ms * 1e3)),
        triangles: run.triangles,
        full_bake_triangles: run.baked_triangles,
    };
    if args.json {
        print(&serde_json::to_string(&report)?)?;
    } else {
        let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.6}"));
        print(&format!(
            "{} ({} x {} grid, dynamic): {} queries, {} found, {} not found\n\
             time per query: p50 {:.2} us, p99 {:.2} us, mean {:.2} us; {:.1} nodes expanded per query\n\
             length / octile reference: mean {}, max {}, min {}; {} longer than the reference, {} connectivity mismatches\n\
             {} updates: p50 {:.1} us, p99 {:.1} us, max {:.1} us; full bake of the final grid {:.2} ms (median of 5 bakes; median update = {} of it)",
            report.scenario,
            report.width,
            report.height,
            report.queries,
            report.found,
            report.not_found,
            report.p50_us,
            report.p99_us,
            report.mean_us,
            report.expanded_mean,
            ratio(report.ratio_mean),
            ratio(report.ratio_max),
            ratio(report.ratio_min),
            report.longer_than_reference,
            report.connectivity_mismatches,
            report.updates,
            report.update_p50_us,
            report.update_p99_us,
            report.update_max_us,
            report.full_bake_ms,
            report.update_p50_over_full_bake.map_or("-".to_string(), |r| format!("1/{:.0}", 1.0 / r)),
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
