//! `trinav edit`: obstacles added to, moved on and removed from a mesh file, re-triangulated
//! locally (an [`EditableMesh`] over the mesh), the result written as a new mesh file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use trinav::LayerId;
use trinav_bake::PolygonInput;
use trinav_dynamic::{EditableMesh, ObstacleId};
use trinav_tools::write_atomic;

use crate::{load_mesh, print};

#[derive(clap::Args)]
pub(crate) struct EditArgs {
    /// The mesh file (its triangles are the base the obstacles cut into; obstacles are
    /// inflated by its agent radius).
    mesh: PathBuf,
    /// A file of changes applied first, in order: a JSON array of `{"add": OBSTACLE}`,
    /// `{"move": {"id": ID, "by": [DX, DY]}}`, `{"replace": {"id": ID, "with": POLYGON}}` and
    /// `{"remove": ID}`, where POLYGON is `{"outer": [[x, y], ...], "holes": [...]}` and
    /// OBSTACLE a POLYGON with an optional `"layer": NAME`: the layer it stands on, needed on a
    /// mesh of several layers (moves and replacements keep an obstacle's layer).
    #[arg(long, value_name = "CHANGES.json")]
    changes: Option<PathBuf>,
    /// Add the obstacle of this file (one OBSTACLE, or a JSON array of them); repeatable.
    #[arg(long, value_name = "OBSTACLE.json")]
    add: Vec<PathBuf>,
    /// Move obstacle ID by (DX, DY), after the adds; repeatable.
    #[arg(long = "move", value_name = "ID:DX,DY", value_parser = parse_move, allow_hyphen_values = true)]
    moves: Vec<(u32, [f64; 2])>,
    /// Remove obstacle ID, after the moves; repeatable.
    #[arg(long, value_name = "ID")]
    remove: Vec<u32>,
    /// Where to write the changed mesh (written atomically, only when every change succeeds).
    #[arg(short, long)]
    output: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// One change of a changes file.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Change {
    Add(ObstacleInput),
    Move { id: u32, by: [f64; 2] },
    Replace { id: u32, with: PolygonInput },
    Remove(u32),
}

/// An obstacle to add: a polygon, and on a layered mesh the name of its layer.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ObstacleInput {
    /// The layer it stands on (may be left out on a mesh of one layer).
    layer: Option<String>,
    outer: Vec<[f64; 2]>,
    #[serde(default)]
    holes: Vec<Vec<[f64; 2]>>,
}

/// An obstacle file: one obstacle or several.
#[derive(Deserialize)]
#[serde(untagged)]
enum Obstacles {
    One(ObstacleInput),
    Many(Vec<ObstacleInput>),
}

/// Adds `obstacle` to `editable` on the layer it names.
fn add(editable: &mut EditableMesh, obstacle: &ObstacleInput) -> Result<u32> {
    let polygon = PolygonInput { outer: obstacle.outer.clone(), holes: obstacle.holes.clone() };
    let mesh = editable.mesh();
    let names =
        || (0..mesh.layer_count()).filter_map(|l| mesh.layer_name(LayerId(l as u16))).collect::<Vec<_>>();
    let layer = match &obstacle.layer {
        Some(name) => mesh
            .layer_by_name(name)
            .with_context(|| format!("the mesh has no layer {name:?} (its layers: {:?})", names()))?,
        None if mesh.layer_count() > 1 => {
            bail!("the mesh has layers {:?}: give the obstacle a \"layer\" key naming one", names())
        }
        None => LayerId(0),
    };
    Ok(editable.add_obstacle_on(layer, &polygon)?.0)
}

/// What one change did.
#[derive(Serialize)]
struct ChangeLine {
    change: &'static str,
    id: u32,
    /// Where it came from (`FILE` or `FILE[i]`, or the flag).
    from: String,
    triangles_removed: usize,
    triangles_added: usize,
    ms: f64,
}

#[derive(Serialize)]
struct EditSummary<'a> {
    mesh: &'a Path,
    output: &'a Path,
    changes: Vec<ChangeLine>,
    obstacles: usize,
    vertices: usize,
    triangles: usize,
    islands: u32,
    area: f64,
    bytes: usize,
}

/// Parses `ID:DX,DY`.
fn parse_move(text: &str) -> Result<(u32, [f64; 2]), String> {
    let expected = "expected ID:DX,DY, e.g. 0:2.5,-1";
    let (id, offset) = text.split_once(':').ok_or_else(|| format!("no colon; {expected}"))?;
    let id = id.trim().parse::<u32>().map_err(|_| format!("id `{id}` is not a number; {expected}"))?;
    let point = crate::parse_point(offset)?;
    Ok((id, [point.x, point.y]))
}

/// Reads a JSON file as `T`, naming the file in errors.
fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let name = path.display();
    let text = std::fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?;
    serde_json::from_str(&text).with_context(|| format!("{name}: not valid JSON for this file"))
}

pub(crate) fn run_edit(args: &EditArgs) -> Result<ExitCode> {
    let mesh = load_mesh(&args.mesh)?;
    // Every input read before any change, so that a bad file fails fast.
    let mut changes: Vec<(Change, String)> = Vec::new();
    if let Some(path) = &args.changes {
        let list: Vec<Change> = read_json(path)?;
        changes.extend(list.into_iter().enumerate().map(|(i, c)| (c, format!("{}[{i}]", path.display()))));
    }
    for path in &args.add {
        match read_json(path)? {
            Obstacles::One(polygon) => changes.push((Change::Add(polygon), path.display().to_string())),
            Obstacles::Many(list) => changes.extend(
                list.into_iter()
                    .enumerate()
                    .map(|(i, p)| (Change::Add(p), format!("{}[{i}]", path.display()))),
            ),
        }
    }
    for &(id, by) in &args.moves {
        changes.push((Change::Move { id, by }, format!("--move {id}:{},{}", by[0], by[1])));
    }
    for &id in &args.remove {
        changes.push((Change::Remove(id), format!("--remove {id}")));
    }
    if changes.is_empty() {
        bail!("{}: no changes given (--changes, --add, --move or --remove)", args.mesh.display());
    }

    let mut editable = EditableMesh::new(mesh);
    let mut lines = Vec::with_capacity(changes.len());
    for (change, from) in changes {
        let start = Instant::now();
        let (name, id) = match &change {
            Change::Add(obstacle) => ("add", add(&mut editable, obstacle)),
            Change::Move { id, by } => {
                ("move", editable.move_obstacle(ObstacleId(*id), *by).map(|()| *id).map_err(Into::into))
            }
            Change::Replace { id, with } => (
                "replace",
                editable.replace_obstacle(ObstacleId(*id), with).map(|()| *id).map_err(Into::into),
            ),
            Change::Remove(id) => {
                ("remove", editable.remove_obstacle(ObstacleId(*id)).map(|()| *id).map_err(Into::into))
            }
        };
        let id = id.with_context(|| format!("{from}: {name}"))?;
        let report = editable.last_change();
        lines.push(ChangeLine {
            change: name,
            id,
            from,
            triangles_removed: report.removed,
            triangles_added: report.added,
            ms: start.elapsed().as_secs_f64() * 1e3,
        });
    }

    let mesh = editable.mesh();
    let bytes = mesh.to_bytes().with_context(|| args.output.display().to_string())?;
    write_atomic(&args.output, &bytes).with_context(|| format!("{}: cannot write", args.output.display()))?;
    let stats = mesh.stats();
    let summary = EditSummary {
        mesh: &args.mesh,
        output: &args.output,
        obstacles: editable.obstacles().count(),
        changes: lines,
        vertices: stats.vertices,
        triangles: stats.triangles,
        islands: stats.islands,
        area: stats.area,
        bytes: bytes.len(),
    };
    if args.json {
        print(&serde_json::to_string(&summary)?)?;
    } else {
        let mut text = String::new();
        for line in &summary.changes {
            text.push_str(&format!(
                "{} obstacle {} ({}): {} triangles out, {} in, {:.3} ms\n",
                line.change, line.id, line.from, line.triangles_removed, line.triangles_added, line.ms
            ));
        }
        text.push_str(&format!(
            "wrote {}: {} obstacles, {} vertices, {} triangles, {} islands, area {:.3}, {} bytes",
            summary.output.display(),
            summary.obstacles,
            summary.vertices,
            summary.triangles,
            summary.islands,
            summary.area,
            summary.bytes
        ));
        print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}
