//! `trinav bench --scen FILE` without a mesh: the GPPC dynamic track (version-2 scenarios).
//!
//! A version-2 scenario is a header (`version 2`, `height H`, `width W`, `cost ...`,
//! `patch FILE`), a `commands` line, then commands in time order:
//!
//! - `P time patch x y`: patch number `patch` of the patch file overwrites the cells from
//!   column `x`, row `y` (free and blocked cells alike);
//! - `Q time sx sy gx gy length`: a query from the centre of cell (`sx`, `sy`) to the centre of
//!   cell (`gx`, `gy`), whose octile length is `length` (`-1`: no path).
//!
//! The initial grid is all free. The mesh is an [`EditableMesh`] of the grid, each `P` line one
//! [`EditableMesh::set_cells`]; queries run on the mesh as it is at their line. An any-angle
//! path may not be longer than the octile reference.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use trinav::{BakeSettings, Point};
use trinav_bake::import::grid::Grid;
use trinav_bake::import::{Source, bake_source};
use trinav_dynamic::EditableMesh;

/// How many full bakes of the final grid a run times (the first is often slower: caches and
/// allocator cold); `full_bake_ms` is their median.
pub(crate) const FULL_BAKES: usize = 5;

/// One command of a dynamic scenario.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Command {
    /// Patch `patch` written at column `x`, row `y`.
    Patch { line: usize, patch: usize, x: u32, y: u32 },
    /// A query between cell centres, with its octile length (`None`: no path).
    Query { line: usize, start: Point, goal: Point, reference: Option<f64> },
}

/// A parsed dynamic scenario.
#[derive(Debug)]
pub(crate) struct DynamicScenario {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) patches: Vec<Grid>,
    pub(crate) commands: Vec<Command>,
}

/// Whether `text` is a version-2 scenario (its first line says so).
pub(crate) fn is_version_2(text: &str) -> bool {
    let mut words = text.lines().next().unwrap_or("").split_whitespace();
    words.next() == Some("version") && matches!(words.next(), Some("2" | "2.0")) && words.next().is_none()
}

/// Reads the scenario `path` and the patch file it names (relative to its folder).
pub(crate) fn read(path: &Path, text: &str) -> Result<DynamicScenario> {
    let name = path.display();
    let (width, height, patch_file, commands) =
        parse_scenario(text).map_err(|(line, reason)| anyhow::anyhow!("{name}: line {line}: {reason}"))?;
    let patch_path: PathBuf = path.parent().unwrap_or(Path::new(".")).join(&patch_file);
    let patch_text = std::fs::read_to_string(&patch_path)
        .with_context(|| format!("{name}: patch file {}: cannot read", patch_path.display()))?;
    let patches = parse_patches(&patch_text).map_err(|(line, reason)| {
        anyhow::anyhow!("{name}: patch file {}: line {line}: {reason}", patch_path.display())
    })?;
    for command in &commands {
        if let Command::Patch { line, patch, x, y } = *command {
            let Some(p) = patches.get(patch) else {
                bail!(
                    "{name}: line {line}: patch {patch}, but {} has {}",
                    patch_path.display(),
                    patches.len()
                );
            };
            if u64::from(x) + u64::from(p.width) > u64::from(width)
                || u64::from(y) + u64::from(p.height) > u64::from(height)
            {
                bail!(
                    "{name}: line {line}: patch {patch} ({} x {} cells) at ({x}, {y}) reaches outside the {width} x {height} grid",
                    p.width,
                    p.height
                );
            }
        }
    }
    Ok(DynamicScenario { width, height, patches, commands })
}

type Parsed = (u32, u32, String, Vec<Command>);

/// Parses a version-2 scenario's text: (width, height, patch file, commands), or (line,
/// reason).
fn parse_scenario(text: &str) -> Result<Parsed, (usize, String)> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let (n, first) = lines.next().ok_or((1, "empty file (expected `version 2`)".to_string()))?;
    if !is_version_2(first) {
        return Err((n, format!("expected `version 2`, found `{first}`")));
    }
    let (mut width, mut height, mut patch) = (None, None, None);
    let size = |n: usize, word: Option<&str>, key: &str| -> Result<u32, (usize, String)> {
        let word = word.unwrap_or("");
        match word.parse::<u32>() {
            Ok(v) if (1..=trinav_bake::import::grid::MAX_GRID_SIDE).contains(&v) => Ok(v),
            _ => Err((
                n,
                format!("bad {key} `{word}` (1 to {} cells)", trinav_bake::import::grid::MAX_GRID_SIDE),
            )),
        }
    };
    let mut in_commands = false;
    let mut commands = Vec::new();
    for (n, line) in lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(&key) = fields.first() else { continue };
        if !in_commands {
            match key {
                "height" => height = Some(size(n, fields.get(1).copied(), "height")?),
                "width" => width = Some(size(n, fields.get(1).copied(), "width")?),
                "patch" if fields.len() == 2 => patch = Some(fields[1].to_string()),
                "cost" | "type" => {}
                "commands" => in_commands = true,
                _ => return Err((n, format!("unknown header line `{line}`"))),
            }
            continue;
        }
        if height.is_none() || width.is_none() {
            return Err((n, "commands before the header's `height` and `width`".to_string()));
        }
        let count = |k: usize| -> Result<(), (usize, String)> {
            if fields.len() == k {
                Ok(())
            } else {
                Err((n, format!("`{key}` takes {} values, found {}", k - 1, fields.len() - 1)))
            }
        };
        let cell = |k: usize, what: &str| -> Result<u32, (usize, String)> {
            fields[k].parse::<u32>().map_err(|_| (n, format!("bad {what} `{}`", fields[k])))
        };
        match key {
            "P" => {
                count(5)?;
                let patch = cell(2, "patch number")? as usize;
                commands.push(Command::Patch { line: n, patch, x: cell(3, "x")?, y: cell(4, "y")? });
            }
            "Q" => {
                count(7)?;
                let (w, h) = (width.unwrap_or(0), height.unwrap_or(0));
                let centre = |kx: usize, ky: usize| -> Result<Point, (usize, String)> {
                    let (x, y) = (cell(kx, "x")?, cell(ky, "y")?);
                    if x >= w || y >= h {
                        return Err((n, format!("cell ({x}, {y}) is outside the {w} x {h} grid")));
                    }
                    Ok(Point::new(f64::from(x) + 0.5, f64::from(y) + 0.5))
                };
                let (start, goal) = (centre(2, 3)?, centre(4, 5)?);
                let reference = match fields[6].parse::<f64>() {
                    Ok(-1.0) => None,
                    Ok(v) if v.is_finite() && v >= 0.0 => Some(v),
                    _ => return Err((n, format!("bad length `{}` (a length >= 0, or -1)", fields[6]))),
                };
                commands.push(Command::Query { line: n, start, goal, reference });
            }
            _ => return Err((n, format!("unknown command `{key}` (expected P or Q)"))),
        }
    }
    let missing = |what: &str| (text.lines().count().max(1), format!("no `{what}` line in the header"));
    let (width, height) = (width.ok_or_else(|| missing("width"))?, height.ok_or_else(|| missing("height"))?);
    let patch = patch.ok_or_else(|| missing("patch FILE"))?;
    if !in_commands {
        return Err(missing("commands"));
    }
    Ok((width, height, patch, commands))
}

/// Parses a patch file: `type patch`, `patches N`, then `N` times `patch i`, `height H`,
/// `width W`, `map` and `H` rows of `W` cells (`.` and `G` free, `@ O T S W` blocked).
fn parse_patches(text: &str) -> Result<Vec<Grid>, (usize, String)> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty());
    let last = text.lines().count().max(1);
    let mut next = |want: &str| -> Result<(usize, Vec<String>), (usize, String)> {
        let (n, line) = lines.next().ok_or((last, format!("the file ends where `{want}` was expected")))?;
        Ok((n, line.split_whitespace().map(str::to_string).collect()))
    };
    let value = |key: &str, (n, words): (usize, Vec<String>)| -> Result<(usize, u32), (usize, String)> {
        match words.as_slice() {
            [k, v] if k == key => {
                v.parse::<u32>().map(|v| (n, v)).map_err(|_| (n, format!("bad {key} `{v}`")))
            }
            _ => Err((n, format!("expected `{key} N`, found `{}`", words.join(" ")))),
        }
    };
    let (n, words) = next("type patch")?;
    if words != ["type", "patch"] {
        return Err((n, format!("expected `type patch`, found `{}`", words.join(" "))));
    }
    let (_, count) = value("patches", next("patches")?)?;
    let mut patches = Vec::new();
    for i in 0..count {
        let (n, number) = value("patch", next("patch")?)?;
        if number != i {
            return Err((n, format!("patch {number} where patch {i} was expected")));
        }
        let (_, height) = value("height", next("height")?)?;
        let (n, width) = value("width", next("width")?)?;
        let side = trinav_bake::import::grid::MAX_GRID_SIDE;
        if !(1..=side).contains(&width) || !(1..=side).contains(&height) {
            return Err((n, format!("patch {i}: {width} x {height} cells (1 to {side} a side)")));
        }
        let (n, words) = next("map")?;
        if words != ["map"] {
            return Err((n, format!("expected `map`, found `{}`", words.join(" "))));
        }
        let mut blocked = Vec::with_capacity(width as usize * height as usize);
        for row in 0..height {
            let (n, words) = next("a row of cells")?;
            let cells: Vec<char> = words.concat().chars().collect();
            if words.len() != 1 || cells.len() != width as usize {
                return Err((
                    n,
                    format!("patch {i} row {row} has {} cells, the header declares {width}", cells.len()),
                ));
            }
            for (column, cell) in cells.into_iter().enumerate() {
                blocked.push(match cell {
                    '.' | 'G' => false,
                    '@' | 'O' | 'T' | 'S' | 'W' => true,
                    _ => return Err((n, format!("unknown cell `{cell}` in column {column}"))),
                });
            }
        }
        patches.push(Grid { width, height, blocked });
    }
    if let Some((n, _)) = lines.next() {
        return Err((n, format!("more than the {count} patches the header declares")));
    }
    Ok(patches)
}

/// What a run of the commands measured.
pub(crate) struct DynamicRun {
    /// Per query, in file order: its line, reference and answer (length or error).
    pub(crate) answers: Vec<QueryAnswer>,
    /// Time per query, microseconds.
    pub(crate) query_us: Vec<f64>,
    /// Nodes expanded per query.
    pub(crate) expanded: Vec<f64>,
    /// Time per `P` line, microseconds.
    pub(crate) update_us: Vec<f64>,
    /// The median of [`FULL_BAKES`] full bakes of the final grid, milliseconds.
    pub(crate) full_bake_ms: f64,
    /// Triangles of the final mesh, and of the full bake.
    pub(crate) triangles: usize,
    pub(crate) baked_triangles: usize,
}

/// One query's answer.
pub(crate) struct QueryAnswer {
    pub(crate) reference: Option<f64>,
    pub(crate) result: Result<trinav::Path, trinav::PathError>,
}

/// Runs the commands: patches through [`EditableMesh::set_cells`], queries on the mesh of the
/// moment with `options`.
pub(crate) fn run(
    scenario: &DynamicScenario,
    name: &str,
    options: &trinav::PathOptions,
) -> Result<DynamicRun> {
    let grid = Grid {
        width: scenario.width,
        height: scenario.height,
        blocked: vec![false; scenario.width as usize * scenario.height as usize],
    };
    let settings = BakeSettings::default();
    let mut editable = EditableMesh::from_grid(grid, &settings).with_context(|| name.to_string())?;
    let mut scratch = trinav::PathScratch::new();
    let mut run = DynamicRun {
        answers: Vec::new(),
        query_us: Vec::new(),
        expanded: Vec::new(),
        update_us: Vec::new(),
        full_bake_ms: 0.0,
        triangles: 0,
        baked_triangles: 0,
    };
    for command in &scenario.commands {
        match *command {
            Command::Patch { line, patch, x, y } => {
                let start = Instant::now();
                editable
                    .set_cells(x, y, &scenario.patches[patch])
                    .with_context(|| format!("{name}: line {line}: patch {patch} at ({x}, {y})"))?;
                run.update_us.push(start.elapsed().as_secs_f64() * 1e6);
            }
            Command::Query { start, goal, reference, .. } => {
                let mesh = editable.mesh();
                let mut path = trinav::Path::default();
                let began = Instant::now();
                let result = mesh.find_path_into(start, goal, options, &mut scratch, &mut path);
                run.query_us.push(began.elapsed().as_secs_f64() * 1e6);
                run.expanded.push(f64::from(scratch.expanded_nodes()));
                run.answers.push(QueryAnswer { reference, result: result.map(|()| path) });
            }
        }
    }
    run.triangles = editable.mesh().triangle_count();
    let final_grid = editable.grid().expect("a grid-born mesh");
    let mut bake_ms = Vec::with_capacity(FULL_BAKES);
    for _ in 0..FULL_BAKES {
        let source = Source::Grid(final_grid.clone());
        let start = Instant::now();
        let baked = bake_source(&source, &settings).with_context(|| format!("{name}: full bake"))?;
        bake_ms.push(start.elapsed().as_secs_f64() * 1e3);
        run.baked_triangles = baked.mesh.triangle_count();
    }
    run.full_bake_ms = trinav_tools::stats::median(&bake_ms);
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_and_patch_files_parse_and_errors_name_their_line() {
        let text = "version 2\nheight 4\nwidth 5\ncost 1 octile\npatch p.patch\ncommands\nQ 0 0 0 4 3 5.2\nP 1 0 1 2\nQ 1 0 0 4 3 -1\n";
        let (width, height, file, commands) = parse_scenario(text).unwrap();
        assert_eq!((width, height, file.as_str()), (5, 4, "p.patch"));
        assert_eq!(commands[1], Command::Patch { line: 8, patch: 0, x: 1, y: 2 });
        assert_eq!(
            commands[2],
            Command::Query {
                line: 9,
                start: Point::new(0.5, 0.5),
                goal: Point::new(4.5, 3.5),
                reference: None
            }
        );
        let bad = [
            ("version 1\n", 1, "expected `version 2`"),
            ("version 2\nheight 4\nwidth 5\npatch p\ncommands\nQ 0 0 0 5 3 1\n", 6, "outside the 5 x 4 grid"),
            ("version 2\nheight 4\nwidth 5\npatch p\ncommands\nP 0 x 1 1\n", 6, "bad patch number `x`"),
            ("version 2\nheight 4\nwidth 5\npatch p\ncommands\nQ 0 0 0 1 1 -2\n", 6, "bad length `-2`"),
            ("version 2\nheight 4\nwidth 5\npatch p\ncommands\nR 0\n", 6, "unknown command `R`"),
            ("version 2\nheight 0\n", 2, "bad height `0`"),
            ("version 2\nheight 4\nwidth 5\ncommands\n", 4, "no `patch FILE` line"),
        ];
        for (text, line, reason) in bad {
            let (n, why) = parse_scenario(text).unwrap_err();
            assert_eq!(n, line, "{text:?}: {why}");
            assert!(why.contains(reason), "{text:?}: {why}");
        }

        let patches = parse_patches("type patch\npatches 2\npatch 0\nheight 2\nwidth 3\nmap\n@@.\n.G@\npatch 1\nheight 1\nwidth 1\nmap\n.\n").unwrap();
        assert_eq!(
            patches[0],
            Grid { width: 3, height: 2, blocked: vec![true, true, false, false, false, true] }
        );
        assert_eq!(patches[1], Grid { width: 1, height: 1, blocked: vec![false] });
        let bad = [
            ("type patch\npatches 1\npatch 0\nheight 1\nwidth 2\nmap\n.\n", 7, "row 0 has 1 cells"),
            (
                "type patch\npatches 2\npatch 0\nheight 1\nwidth 1\nmap\n.\n",
                7,
                "the file ends where `patch` was expected",
            ),
            ("type patch\npatches 1\npatch 0\nheight 1\nwidth 1\nmap\nx\n", 7, "unknown cell `x`"),
            ("type map\n", 1, "expected `type patch`"),
        ];
        for (text, line, reason) in bad {
            let (n, why) = parse_patches(text).unwrap_err();
            assert_eq!(n, line, "{text:?}: {why}");
            assert!(why.contains(reason), "{text:?}: {why}");
        }
    }
}
