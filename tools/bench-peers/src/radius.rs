//! Agents with a radius (`--radius R`): trinav answers on the mesh baked without a radius,
//! Detour on a mesh baked for that radius, the way Detour is used (one mesh per agent size).
//!
//! On a grid map: the map's level, walled in along its border, is baked at radius `R` (round
//! inflation, the default arc error); Detour is built from those triangles. The queries are the
//! scenario's, from the start cell's centre to the goal cell's, where both keep `R` from every
//! wall of the map and lie on the baked mesh, the same for every system. (A radius of half a
//! cell makes every corridor one cell wide a knife edge, exactly `2R`: prefer 0.45 or 0.7.) The reference lengths are trinav's optimal mode on the
//! baked mesh (radius 0 there: the oracle of the clearance tests).

use serde::Serialize;
use trinav::{BakeSettings, NavMesh, Path, PathMode, PathOptions, PathScratch, Point, TriangleId};
use trinav_bake::import::grid::Grid;
use trinav_bake::{Level, PolygonInput};
use trinav_tools::scenario::ScenarioQuery;

use crate::stats::{SystemReport, summarize};

/// The figures of one input at one radius.
#[derive(Serialize)]
pub struct RadiusReport {
    pub radius: f64,
    /// Scenario queries whose ends keep the radius (the ones run).
    pub queries: usize,
    pub baked_triangles: usize,
    /// trinav on the mesh baked without a radius: both modes at radius 0 and at `radius`.
    pub trinav_fast_r0: SystemReport,
    pub trinav_optimal_r0: SystemReport,
    pub trinav_fast: SystemReport,
    pub trinav_optimal: SystemReport,
    /// Detour's fast path on the mesh baked at `radius`.
    pub detour: Option<SystemReport>,
    /// p50 time ratios: each mode with the radius over itself without one, and over Detour.
    pub fast_over_fast_r0: f64,
    pub optimal_over_optimal_r0: f64,
    pub fast_over_detour: Option<f64>,
    pub optimal_over_detour: Option<f64>,
}

/// The grid's level walled in along its border, so that a bake at a radius keeps the agent
/// that far from the border as from the blocked cells.
fn framed_level(grid: &Grid) -> Result<Level, String> {
    let mut level = grid.to_level().map_err(|e| e.to_string())?;
    let (w, h) = (grid.width as f64, grid.height as f64);
    level.walkable = vec![PolygonInput::rect(-1.0, -1.0, w + 1.0, h + 1.0)];
    level.obstacles.push(PolygonInput {
        outer: vec![[-1.0, -1.0], [w + 1.0, -1.0], [w + 1.0, h + 1.0], [-1.0, h + 1.0]],
        holes: vec![vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]],
    });
    Ok(level)
}

/// Runs the queries of `queries` that suit a disc of `radius` on `mesh` (the map baked without
/// a radius) and on the map baked at `radius` (for Detour and the reference).
pub fn run(
    grid: &Grid,
    mesh: &NavMesh,
    queries: &[ScenarioQuery],
    radius: f64,
    detour: impl FnOnce(&NavMesh) -> Option<crate::detour::DetourMesh>,
) -> Result<RadiusReport, String> {
    let settings = BakeSettings::default().with_agent_radius(radius);
    let baked = trinav_bake::bake(&framed_level(grid)?, &settings).map_err(|e| e.to_string())?.mesh;
    // An agent stands in a cell: the queries run from cell centre to cell centre.
    let centre = |p: Point| Point::new(p.x + 0.5, p.y + 0.5);
    let fits = |p: Point| mesh.clearance(p).is_some_and(|c| c >= radius) && baked.locate(p).is_some();
    let kept: Vec<ScenarioQuery> = queries
        .iter()
        .map(|q| ScenarioQuery { start: centre(q.start), goal: centre(q.goal), ..q.clone() })
        .filter(|q| fits(q.start) && fits(q.goal))
        .collect();
    let mut scratch = PathScratch::new();
    let mut path = Path::default();
    let mut run_on = |on: &NavMesh, mode: PathMode, r: f64| {
        crate::time_queries(&kept, |q| {
            let options = PathOptions::default().with_mode(mode).with_radius(r);
            on.find_path_into(q.start, q.goal, &options, &mut scratch, &mut path).ok().map(|()| path.length)
        })
    };
    let (_, reference) = run_on(&baked, PathMode::Optimal, 0.0);
    let runs = [
        run_on(mesh, PathMode::Fast, 0.0),
        run_on(mesh, PathMode::Optimal, 0.0),
        run_on(mesh, PathMode::Fast, radius),
        run_on(mesh, PathMode::Optimal, radius),
    ];
    let [fast_r0, optimal_r0, fast, optimal] = runs.map(|(t, l)| summarize(&t, &l, &reference));
    let detour = detour(&baked).map(|mut d| {
        let (t, l) = crate::time_queries(&kept, |q| d.find_path(q.start, q.goal).ok());
        summarize(&t, &l, &reference)
    });
    Ok(RadiusReport {
        radius,
        queries: kept.len(),
        baked_triangles: baked.triangle_count(),
        fast_over_fast_r0: fast.p50_us / fast_r0.p50_us,
        optimal_over_optimal_r0: optimal.p50_us / optimal_r0.p50_us,
        fast_over_detour: detour.as_ref().map(|d| fast.p50_us / d.p50_us),
        optimal_over_detour: detour.as_ref().map(|d| optimal.p50_us / d.p50_us),
        trinav_fast_r0: fast_r0,
        trinav_optimal_r0: optimal_r0,
        trinav_fast: fast,
        trinav_optimal: optimal,
        detour,
    })
}

/// The triangles and neighbours of `mesh` as Detour's builder takes them.
pub fn detour_input(mesh: &NavMesh) -> (Vec<[u32; 3]>, Vec<[u32; 3]>) {
    let triangles = mesh.triangles().iter().map(|t| t.map(|v| v.0)).collect();
    let neighbours =
        (0..mesh.triangle_count() as u32).map(|t| mesh.neighbours(TriangleId(t)).map(|n| n.0)).collect();
    (triangles, neighbours)
}

/// The report's lines in the markdown output.
pub fn markdown(r: &RadiusReport) -> String {
    let mut s = format!(
        "Radius {}: {} queries whose ends keep it; Detour on the mesh baked at that radius ({} triangles); \
         length ratios against trinav optimal on that mesh\n\n",
        r.radius, r.queries, r.baked_triangles
    );
    s += "| system | p50_us | p99_us | len_ratio_mean | len_ratio_p99 | len_ratio_max | not_found | shorter |\n";
    s += "|---|---|---|---|---|---|---|---|\n";
    s += &crate::row("trinav fast, radius 0", Some(&r.trinav_fast_r0), "");
    s += &crate::row("trinav optimal, radius 0", Some(&r.trinav_optimal_r0), "");
    s += &crate::row(&format!("trinav fast, radius {}", r.radius), Some(&r.trinav_fast), "");
    s += &crate::row(&format!("trinav optimal, radius {}", r.radius), Some(&r.trinav_optimal), "");
    s += &crate::row("Detour (baked at the radius)", r.detour.as_ref(), "n/a (see notes)");
    s += &format!(
        "\np50 time ratios: fast with/without the radius {:.3}, optimal {:.3}; trinav fast/Detour {}, trinav optimal/Detour {}\n\n",
        r.fast_over_fast_r0,
        r.optimal_over_optimal_r0,
        crate::opt(r.fast_over_detour, 3),
        crate::opt(r.optimal_over_detour, 3)
    );
    s
}
