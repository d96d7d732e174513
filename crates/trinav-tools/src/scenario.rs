//! Scenario files: lists of path queries with reference lengths.
//!
//! - The Moving AI `.scen` format, also used for meshes ([`parse_scenario`]): a `version 1` (or
//!   `version 1.0`) line, then one query per line:
//!   `bucket map width height start_x start_y goal_x goal_y cost`, tab- or space-separated.
//!   Coordinates may be integers or decimals; the cost is the reference length. A map column
//!   ending in `.map` marks a grid map (see [`ScenarioQuery::sides`]).
//! - The any-angle maze benchmark's `.problem` files, one query each ([`parse_problem`]), on
//!   grids.
//!
//! [`read_queries`] reads either a scenario file or a folder of `.problem` files.

use std::path::{Path, PathBuf};

use trinav::Point;

/// One query of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioQuery {
    /// 1-based line of the query in its file.
    pub line: usize,
    /// The bucket column.
    pub bucket: u32,
    /// The map column, as written.
    pub map: String,
    /// Start point.
    pub start: Point,
    /// Goal point.
    pub goal: Point,
    /// Reference length.
    pub reference: f64,
    /// Whether the query is on a grid map, where the GPPC any-angle rules hold (the map column
    /// names a `.map` file, or the query comes from a maze `.problem` file).
    pub on_grid: bool,
}

impl ScenarioQuery {
    /// The sides the path leaves the start and reaches the goal by
    /// ([`PathOptions::with_sides`](trinav::PathOptions::with_sides)). On a grid, query points
    /// are cell corners, and the GPPC rule makes a point on a double corner (two blocked cells
    /// meeting diagonally) belong to the cell whose top-left corner it is: the path leaves and
    /// arrives through that cell's quadrant, so the side is the cell's centre. Elsewhere, none.
    ///
    /// ```
    /// use trinav::Point;
    /// use trinav_tools::scenario::parse_scenario;
    /// let q = &parse_scenario("version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n")?[0];
    /// assert_eq!(q.sides(), (Some(Point::new(1.5, 11.5)), Some(Point::new(1.5, 12.5))));
    /// # Ok::<(), trinav_tools::ScenarioError>(())
    /// ```
    pub fn sides(&self) -> (Option<Point>, Option<Point>) {
        let side = |p: Point| self.on_grid.then(|| Point::new(p.x + 0.5, p.y + 0.5));
        (side(self.start), side(self.goal))
    }
}

/// A malformed scenario file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct ScenarioError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Parses a scenario file's text.
///
/// ```
/// use trinav_tools::scenario::parse_scenario;
/// let queries = parse_scenario("version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n")?;
/// assert_eq!(queries.len(), 1);
/// assert_eq!(queries[0].reference, 1.0);
/// # Ok::<(), trinav_tools::ScenarioError>(())
/// ```
pub fn parse_scenario(text: &str) -> Result<Vec<ScenarioQuery>, ScenarioError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let error = |line: usize, reason: String| ScenarioError { line, reason };
    let (n, first) = lines.next().ok_or_else(|| error(1, "empty file (expected `version 1`)".to_string()))?;
    let mut header = first.split_whitespace();
    if header.next() != Some("version")
        || !matches!(header.next(), Some("1" | "1.0"))
        || header.next().is_some()
    {
        return Err(error(n, format!("expected `version 1`, found `{first}`")));
    }
    let mut queries = Vec::new();
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 9 {
            return Err(error(n, format!("expected 9 columns, found {}", fields.len())));
        }
        let number = |k: usize, what: &str| -> Result<f64, ScenarioError> {
            let v: f64 = fields[k].parse().map_err(|_| error(n, format!("bad {what} `{}`", fields[k])))?;
            if v.is_finite() { Ok(v) } else { Err(error(n, format!("{what} `{}` is not finite", fields[k]))) }
        };
        let bucket = fields[0].parse().map_err(|_| error(n, format!("bad bucket `{}`", fields[0])))?;
        let reference = number(8, "cost")?;
        if reference < 0.0 {
            return Err(error(n, format!("negative cost {reference}")));
        }
        queries.push(ScenarioQuery {
            line: n,
            bucket,
            on_grid: fields[1].ends_with(".map"),
            map: fields[1].to_string(),
            start: Point::new(number(4, "start x")?, number(5, "start y")?),
            goal: Point::new(number(6, "goal x")?, number(7, "goal y")?),
            reference,
        });
    }
    Ok(queries)
}

/// Parses one `.problem` file of the any-angle maze benchmarks: `key:<tab>value` lines with at
/// least `sx`, `sy`, `ex`, `ey` and `shortestPathLength` (the reference). `map` is left empty.
///
/// ```
/// use trinav_tools::scenario::parse_problem;
/// let q = parse_problem("sx:\t0\nsy:\t0\nex:\t3\ney:\t4\nshortestPathLength:\t5\n")?;
/// assert_eq!((q.goal.x, q.goal.y, q.reference), (3.0, 4.0, 5.0));
/// # Ok::<(), trinav_tools::ScenarioError>(())
/// ```
pub fn parse_problem(text: &str) -> Result<ScenarioQuery, ScenarioError> {
    let value = |key: &str| -> Result<f64, ScenarioError> {
        for (i, line) in text.lines().enumerate() {
            if let Some((k, v)) = line.split_once(':')
                && k.trim() == key
            {
                return v.trim().parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| ScenarioError {
                    line: i + 1,
                    reason: format!("bad {key} `{}`", v.trim()),
                });
            }
        }
        Err(ScenarioError { line: 0, reason: format!("no `{key}:` line") })
    };
    Ok(ScenarioQuery {
        line: 1,
        bucket: 0,
        map: String::new(),
        start: Point::new(value("sx")?, value("sy")?),
        goal: Point::new(value("ex")?, value("ey")?),
        reference: value("shortestPathLength")?,
        on_grid: true,
    })
}

/// A scenario that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A file or folder could not be read.
    #[error("{}: cannot read", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file is malformed.
    #[error("{}: {error}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Where and what.
        #[source]
        error: ScenarioError,
    },
    /// A folder holds no `.problem` file.
    #[error("{}: a folder of scenarios must hold .problem files, this one holds none", path.display())]
    NoProblems {
        /// The folder.
        path: PathBuf,
    },
}

/// The queries of a scenario file, or of a folder of maze `.problem` files (read in name order).
pub fn read_queries(path: &Path) -> Result<Vec<ScenarioQuery>, ReadError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReadError::Io { path, source }
    };
    let parse = |path: &Path, parser: &dyn Fn(&str) -> Result<Vec<ScenarioQuery>, ScenarioError>| {
        let text = std::fs::read_to_string(path).map_err(io(path))?;
        parser(&text).map_err(|error| ReadError::Malformed { path: path.to_path_buf(), error })
    };
    if !path.is_dir() {
        return parse(path, &parse_scenario);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(io(path))? {
        let file = entry.map_err(io(path))?.path();
        if file.extension().is_some_and(|e| e == "problem") {
            files.push(file);
        }
    }
    if files.is_empty() {
        return Err(ReadError::NoProblems { path: path.to_path_buf() });
    }
    files.sort();
    let mut queries = Vec::with_capacity(files.len());
    for file in &files {
        queries.extend(parse(file, &|text| parse_problem(text).map(|q| vec![q]))?);
    }
    Ok(queries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_spaces_floats_and_errors() {
        let text = "version 1.0\n45 maps/x.map 512 512 338 375 227 242 182.49\n\n0\tm.mesh\t1\t1\t-73.0625\t-4.8125\t-72.9375\t-4.6875\t0.1767766952966\n";
        let queries = parse_scenario(text).unwrap();
        assert_eq!(queries.len(), 2);
        assert_eq!(queries[0].start, Point::new(338.0, 375.0));
        assert_eq!(queries[1].goal, Point::new(-72.9375, -4.6875));
        assert_eq!(queries[1].line, 4);
        assert!(queries[0].on_grid && !queries[1].on_grid);
        assert_eq!(queries[0].sides().0, Some(Point::new(338.5, 375.5)));
        assert_eq!(queries[1].sides(), (None, None));
        let bad = [
            ("", 1, "empty"),
            ("version 2\n", 1, "expected `version 1`"),
            ("version 1\n0 m 1 1 1 1 1\n", 2, "9 columns"),
            ("version 1\n0 m 1 1 x 1 1 1 1\n", 2, "bad start x"),
            ("version 1\n0 m 1 1 1 1 1 1 -2\n", 2, "negative cost"),
            ("version 1\n0 m 1 1 1 1 1 1 inf\n", 2, "not finite"),
        ];
        for (text, line, reason) in bad {
            let e = parse_scenario(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}");
            assert!(e.reason.contains(reason), "{text:?}: {}", e.reason);
        }
    }

    #[test]
    fn read_queries_from_a_file_or_a_folder_of_problems() {
        let dir = tempfile::tempdir().unwrap();
        let scen = dir.path().join("a.scen");
        std::fs::write(&scen, "version 1\n0 m.mesh 1 1 0 0 3 4 5\n").unwrap();
        assert_eq!(read_queries(&scen).unwrap()[0].goal, Point::new(3.0, 4.0));
        assert!(matches!(read_queries(dir.path()), Err(ReadError::NoProblems { .. })));
        for (name, ex) in [("b.problem", 2), ("a.problem", 1)] {
            let text = format!("sx:\t0\nsy:\t0\nex:\t{ex}\ney:\t0\nshortestPathLength:\t{ex}\n");
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let queries = read_queries(dir.path()).unwrap();
        assert_eq!(queries.iter().map(|q| q.goal.x).collect::<Vec<_>>(), [1.0, 2.0], "name order");
        assert!(queries.iter().all(|q| q.on_grid));
        std::fs::write(dir.path().join("c.problem"), "sx: x\n").unwrap();
        let err = read_queries(dir.path()).unwrap_err();
        assert!(err.to_string().contains("c.problem: line 1: bad sx `x`"), "{err}");
        assert!(matches!(read_queries(&dir.path().join("missing")), Err(ReadError::Io { .. })));
    }
}
