//! Scenario files: lists of path queries with reference lengths (the Moving AI `.scen`
//! format, also used for meshes).
//!
//! A `version 1` (or `version 1.0`) line, then one query per line:
//! `bucket map width height start_x start_y goal_x goal_y cost`, tab- or space-separated.
//! Coordinates may be integers or decimals; the map column is kept but not interpreted; the
//! cost is the reference length.

use crate::geometry::Point;

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
/// use trinav::scenario::parse_scenario;
/// let queries = parse_scenario("version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n")?;
/// assert_eq!(queries.len(), 1);
/// assert_eq!(queries[0].reference, 1.0);
/// # Ok::<(), trinav::scenario::ScenarioError>(())
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
/// use trinav::scenario::parse_problem;
/// let q = parse_problem("sx:\t0\nsy:\t0\nex:\t3\ney:\t4\nshortestPathLength:\t5\n")?;
/// assert_eq!((q.goal.x, q.goal.y, q.reference), (3.0, 4.0, 5.0));
/// # Ok::<(), trinav::scenario::ScenarioError>(())
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
    })
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
}
