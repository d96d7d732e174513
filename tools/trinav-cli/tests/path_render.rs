//! End-to-end tests of `trinav path` and `trinav render`: exit codes, output, path geometry on
//! the sample levels, coordinate parsing, and that failed renders leave files alone.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn trinav(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trinav")).args(args).output().expect("runs")
}

fn level(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/levels");
    dir.join(name).to_str().unwrap().to_string()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

fn temp_path(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

/// Bakes `level_file` into `name` in `dir` and returns the mesh path.
fn bake(dir: &tempfile::TempDir, level_file: &str, name: &str) -> String {
    let nav = temp_path(dir, name);
    let out = trinav(&["bake", level_file, "-o", nav.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    nav.to_str().unwrap().to_string()
}

/// A square [-10, 10]^2 with a wall from x = -2 to 2 that crosses the bottom edge and ends at
/// y = 6: the only way from the left half to the right half is over the wall's top corners
/// (-2, 6) and (2, 6).
const NEGATIVE_LEVEL: &str = r#"{
  "walkable": [{"outer": [[-10, -10], [10, -10], [10, 10], [-10, 10]]}],
  "obstacles": [{"outer": [[-2, -12], [2, -12], [2, 6], [-2, 6]]}]
}"#;

fn negative_mesh(dir: &tempfile::TempDir) -> String {
    let level_path = temp_path(dir, "negative.json");
    std::fs::write(&level_path, NEGATIVE_LEVEL).unwrap();
    bake(dir, level_path.to_str().unwrap(), "negative.nav")
}

/// Runs `trinav path MESH --from FROM --to TO --json [extra]`.
fn path_json(mesh: &str, from: &str, to: &str, extra: &[&str]) -> Output {
    let mut args = vec!["path", mesh, "--from", from, "--to", to, "--json"];
    args.extend_from_slice(extra);
    trinav(&args)
}

fn points_of(report: &serde_json::Value) -> Vec<[f64; 2]> {
    report["points"]
        .as_array()
        .expect("points array")
        .iter()
        .map(|p| [p[0].as_f64().unwrap(), p[1].as_f64().unwrap()])
        .collect()
}

fn polyline_length(points: &[[f64; 2]]) -> f64 {
    points.windows(2).map(|w| (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1])).sum()
}

fn assert_close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{what}: {a} vs {b}");
}

#[test]
fn town_path_between_two_streets() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    // (5, 5): open ground in the south-west corner, below every building (they start at
    // y = 10). (120, 40): the middle of the road east of the square (90..130 x 35..45). The
    // straight line between them runs into the building at 20..30 x 10..35.
    let out = path_json(&nav, "5,5", "120,40", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    let keys: Vec<&str> = report.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 5, "{report}");
    for key in ["found", "length", "cost", "points", "links"] {
        assert!(keys.contains(&key), "missing {key}: {report}");
    }
    assert_eq!(report["found"], true);
    // No off-mesh links: the cost is the length, no link is taken.
    assert_eq!((&report["cost"], &report["links"]), (&report["length"], &serde_json::json!([])));
    let points = points_of(&report);
    assert_eq!(points.first(), Some(&[5.0, 5.0]));
    assert_eq!(points.last(), Some(&[120.0, 40.0]));
    assert!(points.len() > 2, "the path must turn: {points:?}");
    let length = report["length"].as_f64().unwrap();
    assert_close(length, polyline_length(&points), "length = sum of segments");
    let straight = 115f64.hypot(35.0);
    assert!(length > straight, "{length} vs straight {straight}");
    // It passes the road's corner (100, 35): the square's east edge below the road is wall.
    // (The corner may be a turning point or lie exactly on a straight segment.)
    let touches_corner = points.windows(2).any(|w| {
        let ([ax, ay], [bx, by]) = (w[0], w[1]);
        let cross = (bx - ax) * (35.0 - ay) - (by - ay) * (100.0 - ax);
        cross.abs() < 1e-9 && (ax.min(bx)..=ax.max(bx)).contains(&100.0)
    });
    assert!(touches_corner, "{points:?}");

    // The text form says the same.
    let out = trinav(&["path", &nav, "--from", "5,5", "--to", "120,40"]);
    assert_eq!(out.status.code(), Some(0));
    let line = stdout(&out);
    assert_eq!(line.lines().count(), 1, "{line}");
    let rest = line.strip_prefix("found: true, length ").expect(&line);
    let (text_length, rest) = rest.split_once(", ").expect(&line);
    // serde_json may parse the last digit differently; the text is the exact shortest form.
    assert_close(text_length.parse().unwrap(), length, "text length");
    // Every area costs 1 here: the cost is the length.
    let rest = rest.strip_prefix(&format!("cost {text_length}, ")).expect(&line);
    assert!(rest.starts_with(&format!("{} points: (5, 5) ", points.len())), "{line}");
    assert!(line.trim_end().ends_with("(120, 40)"), "{line}");
}

#[test]
fn straight_paths_in_open_space_have_exact_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    // The strip y < 10 of the town is open from x = 0 to 100.
    for (from, to, expected) in [("2,1", "26,8", 25.0), ("2,5", "98,5", 96.0), ("3.5,7.25", "3.5,7.25", 0.0)]
    {
        let out = path_json(&nav, from, to, &[]);
        assert_eq!(out.status.code(), Some(0), "{from} -> {to}: {}", stderr(&out));
        let report = json(&out);
        let points = points_of(&report);
        let expected_points = if from == to { 1 } else { 2 };
        assert_eq!(points.len(), expected_points, "{from} -> {to}: {points:?}");
        assert_close(report["length"].as_f64().unwrap(), expected, from);
    }
    let out = trinav(&["path", &nav, "--from", "3.5,7.25", "--to", "3.5,7.25"]);
    assert_eq!(stdout(&out).trim_end(), "found: true, length 0, cost 0, 1 point: (3.5, 7.25)");
}

#[test]
fn negative_coordinates_parse_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let nav = negative_mesh(&dir);
    let out = path_json(&nav, "-3.5,2", "5,-1", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    let points = points_of(&report);
    assert_eq!(points, vec![[-3.5, 2.0], [-2.0, 6.0], [2.0, 6.0], [5.0, -1.0]]);
    let expected = 18.25f64.sqrt() + 4.0 + 58f64.sqrt();
    assert_close(report["length"].as_f64().unwrap(), expected, "over the wall");

    // Other spellings: `=`, spaces, exponent, both coordinates negative.
    for (from, to) in [("--from=-3.5,2", "--to=5,-1"), ("--from= -3.5 , 2 ", "--to=5e0,-1e0")] {
        let out = trinav(&["path", &nav, from, to, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{from} {to}: {}", stderr(&out));
        assert_eq!(points_of(&json(&out)), points);
    }
    let out = path_json(&nav, "-8,-9", "-3,-7.5", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(points_of(&json(&out)), vec![[-8.0, -9.0], [-3.0, -7.5]]);
}

#[test]
fn points_on_different_islands_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("courtyard.json"), "courtyard.nav");
    // (25, 25) is in the courtyard (22.5..37.5 after the 0.5 agent radius, minus the well at
    // 27.5..32.5); (2, 2) is outside the keep.
    let out = path_json(&nav, "25,25", "2,2", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["found"], false);
    assert_eq!(report["length"], serde_json::Value::Null);
    assert_eq!(report["points"], serde_json::json!([]));
    let reason = report["reason"].as_str().expect("reason");
    assert!(reason.contains("not connected") && reason.contains("island"), "{reason}");
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));

    let out = trinav(&["path", &nav, "--from", "25,25", "--to", "2,2"]);
    assert_eq!(out.status.code(), Some(1));
    let line = stdout(&out);
    assert!(line.starts_with("found: false") && line.contains("not connected"), "{line}");

    // Both in the courtyard, on opposite sides of the well: found.
    let out = path_json(&nav, "25,25", "35,35", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let length = json(&out)["length"].as_f64().unwrap();
    assert!(length > 200f64.sqrt(), "{length}");
}

#[test]
fn off_mesh_point_is_an_error_unless_snapped() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    // (28, 15) is inside the building 20..30 x 10..35; its nearest walkable point is (30, 15).
    let out = path_json(&nav, "28,15", "5,5", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains(&nav) && err.contains("start point (28, 15) is off the mesh"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = path_json(&nav, "5,5", "-1,200", &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("goal point (-1, 200) is off the mesh"), "{}", stderr(&out));

    let out = path_json(&nav, "28,15", "5,5", &["--snap"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    let points = points_of(&report);
    let [x, y] = points[0];
    assert!((x - 30.0).abs() < 1e-9 && (y - 15.0).abs() < 1e-9, "snapped start {points:?}");
    assert_eq!(points.last(), Some(&[5.0, 5.0]));
    assert_close(report["length"].as_f64().unwrap(), polyline_length(&points), "length");
}

#[test]
fn malformed_coordinates_and_missing_mesh_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    for bad in ["3", "a,b", "nan,1", "1,inf", "1,2,3", "", ",", "1;2"] {
        let out = trinav(&["path", &nav, "--from", bad, "--to", "5,5"]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = stderr(&out);
        assert!(err.contains("--from") && err.contains("expected X,Y"), "{bad:?}: {err}");
        assert!(stdout(&out).is_empty());
    }
    let out = trinav(&["path", &nav, "--from", "5,5"]);
    assert_eq!(out.status.code(), Some(2), "--to is required");

    let missing = temp_path(&dir, "no-such.nav");
    let out = trinav(&["path", missing.to_str().unwrap(), "--from", "5,5", "--to", "6,6"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with(&format!("trinav: {}: cannot read", missing.display())), "{err}");
    assert_eq!(err.lines().count(), 1);

    let garbage = temp_path(&dir, "garbage.nav");
    std::fs::write(&garbage, b"not a mesh at all, not even close to one").unwrap();
    let out = trinav(&["path", garbage.to_str().unwrap(), "--from", "5,5", "--to", "6,6", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(garbage.to_str().unwrap()), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

/// Checks that `svg` is well-formed as far as elements go: every tag is closed, in order, and
/// there is one root `svg` element. Returns the element names in document order.
fn check_xml(svg: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        assert!(!tag.contains('<'), "'<' inside a tag: {tag}");
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes: {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "mismatched </{name}>");
        } else {
            let name = tag.split_whitespace().next().unwrap().trim_end_matches('/').to_string();
            if stack.is_empty() {
                assert!(names.is_empty(), "a second root element <{name}>");
            }
            names.push(name.clone());
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    assert_eq!(names.first().map(String::as_str), Some("svg"));
    names
}

/// The value of attribute `name` in the first tag of `svg` starting with `tag_start`.
fn attribute<'a>(svg: &'a str, tag_start: &str, name: &str) -> &'a str {
    let at = svg.find(tag_start).unwrap_or_else(|| panic!("no {tag_start}"));
    let tag = &svg[at..at + svg[at..].find('>').unwrap()];
    let key = format!(" {name}=\"");
    let from = tag.find(&key).unwrap_or_else(|| panic!("no {name} in {tag}")) + key.len();
    &tag[from..from + tag[from..].find('"').unwrap()]
}

fn pixel_points(points: &str) -> Vec<[f64; 2]> {
    points
        .split_whitespace()
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap();
            [x.parse().unwrap(), y.parse().unwrap()]
        })
        .collect()
}

fn triangle_count(nav: &str) -> usize {
    let out = trinav(&["inspect", nav, "--json"]);
    assert!(out.status.success());
    json(&out)["triangles"].as_u64().unwrap() as usize
}

#[test]
fn render_draws_every_triangle_and_the_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    let svg_path = temp_path(&dir, "town.svg");
    let out = trinav(&["render", &nav, "-o", svg_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let triangles = triangle_count(&nav);
    assert_eq!(stdout(&out), format!("wrote {}: {triangles} triangles, 2 islands\n", svg_path.display()));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
    let names = check_xml(&svg);
    assert_eq!(names.iter().filter(|n| *n == "polygon").count(), triangles);
    assert_eq!(svg.matches("<polygon").count(), triangles);
    assert_eq!(names.iter().filter(|n| *n == "path").count(), 1, "one boundary path");
    assert!(!svg.contains("<polyline"), "no path asked for");
    // Two islands, two different fills.
    let fills: Vec<&str> =
        svg.match_indices("<g class=\"island\"").map(|(at, _)| attribute(&svg[at..], "<g", "fill")).collect();
    assert_eq!(fills.len(), 2);
    assert_ne!(fills[0], fills[1]);

    // The town is 130 x 80: the triangles span 1000 px across and 1000 * 80 / 130 px down.
    let corners: Vec<[f64; 2]> = svg
        .match_indices("<polygon")
        .flat_map(|(at, _)| pixel_points(attribute(&svg[at..], "<polygon", "points")))
        .collect();
    let span = |k: usize| {
        let values = corners.iter().map(|c| c[k]);
        values.clone().fold(f64::NEG_INFINITY, f64::max) - values.fold(f64::INFINITY, f64::min)
    };
    assert!((span(0) - 1000.0).abs() < 0.02, "x span {}", span(0));
    assert!((span(1) - 1000.0 * 80.0 / 130.0).abs() < 0.02, "y span {}", span(1));
}

#[test]
fn render_draws_a_path_with_y_up() {
    let dir = tempfile::tempdir().unwrap();
    let nav = negative_mesh(&dir);
    let svg_path = temp_path(&dir, "path.svg");
    let out = trinav(&["render", &nav, "-o", svg_path.to_str().unwrap(), "--from", "-3.5,2", "--to", "5,-1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = 18.25f64.sqrt() + 4.0 + 58f64.sqrt();
    let line = stdout(&out);
    assert!(line.starts_with(&format!("wrote {}: ", svg_path.display())), "{line}");
    let length: f64 = line.trim_end().rsplit_once("path length ").expect(&line).1.parse().unwrap();
    assert!((length - expected).abs() < 1e-9, "{line}");

    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let names = check_xml(&svg);
    assert_eq!(names.iter().filter(|n| *n == "polygon").count(), triangle_count(&nav));
    let path = pixel_points(attribute(&svg, "<polyline class=\"path\"", "points"));
    assert_eq!(path.len(), 4, "{path:?}");
    // World y up, SVG y down: the start (y = 2) is drawn above the goal (y = -1), the wall's
    // top corners (y = 6) above both; x keeps its direction.
    let cy =
        |class: &str| attribute(&svg, &format!("<circle class=\"{class}\""), "cy").parse::<f64>().unwrap();
    let cx =
        |class: &str| attribute(&svg, &format!("<circle class=\"{class}\""), "cx").parse::<f64>().unwrap();
    assert!(cy("start") < cy("goal"));
    assert!(cx("start") < cx("goal"));
    assert!(path[1][1] < path[0][1] && path[2][1] < path[3][1], "{path:?}");
    assert_eq!((path[0][0], path[0][1]), (cx("start"), cy("start")));
    assert!(svg.contains("<title>") && svg.contains("path from (-3.5, 2) to (5, -1)"));
}

#[test]
fn render_without_a_path_marks_the_points_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("courtyard.json"), "courtyard.nav");
    let svg_path = temp_path(&dir, "c.svg");
    let out = trinav(&["render", &nav, "-o", svg_path.to_str().unwrap(), "--from", "25,25", "--to", "2,2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("no path"), "{}", stdout(&out));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    check_xml(&svg);
    let title = &svg[svg.find("<title>").unwrap()..svg.find("</title>").unwrap()];
    assert!(title.contains("no path") && title.contains("(25, 25)") && title.contains("(2, 2)"), "{title}");
    assert!(!svg.contains("<polyline"));
    assert_eq!(svg.matches("<circle class=\"start\"").count(), 1);
    assert_eq!(svg.matches("<circle class=\"goal\"").count(), 1);

    // --from without --to is refused.
    let out = trinav(&["render", &nav, "-o", svg_path.to_str().unwrap(), "--from", "25,25"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn render_into_a_missing_folder_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    let svg_path = temp_path(&dir, "missing/out.svg");
    let out = trinav(&["render", &nav, "-o", svg_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("missing/out.svg: cannot write"), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert!(stdout(&out).is_empty());
    assert!(!temp_path(&dir, "missing").exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "only the mesh");
}

#[test]
fn render_replaces_an_existing_file_only_on_success() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    let svg_path = temp_path(&dir, "keep.svg");
    std::fs::write(&svg_path, b"precious").unwrap();
    let svg_arg = svg_path.to_str().unwrap();

    // An off-mesh start without --snap, a missing mesh, bad coordinates: all fail, nothing
    // written.
    let missing = temp_path(&dir, "missing.nav");
    let failures: [Vec<&str>; 3] = [
        vec!["render", &nav, "-o", svg_arg, "--from", "28,15", "--to", "5,5"],
        vec!["render", missing.to_str().unwrap(), "-o", svg_arg],
        vec!["render", &nav, "-o", svg_arg, "--from", "x,1", "--to", "5,5"],
    ];
    for args in &failures {
        let out = trinav(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(std::fs::read(&svg_path).unwrap(), b"precious", "{args:?}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "no temporary file left");
    }

    // With --snap the same query succeeds and replaces the file.
    let out = trinav(&["render", &nav, "-o", svg_arg, "--from", "28,15", "--to", "5,5", "--snap"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with("<svg"));
    check_xml(&svg);
    assert_eq!(svg.matches("<polyline class=\"path\"").count(), 1);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn optimal_mode_is_never_longer_and_bad_modes_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let nav = bake(&dir, &level("town.json"), "town.nav");
    let fast = json(&path_json(&nav, "5,5", "120,40", &[]));
    let out = path_json(&nav, "5,5", "120,40", &["--mode", "optimal"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let optimal = json(&out);
    let points = points_of(&optimal);
    assert_eq!((points.first(), points.last()), (Some(&[5.0, 5.0]), Some(&[120.0, 40.0])));
    let length = optimal["length"].as_f64().unwrap();
    assert_close(length, polyline_length(&points), "length = sum of segments");
    assert!(length <= fast["length"].as_f64().unwrap() * (1.0 + 1e-12), "{optimal} vs {fast}");
    // Every turn of a shortest path is at a mesh vertex, here a corner of the town's
    // buildings and roads: integer coordinates.
    for [x, y] in &points[1..points.len() - 1] {
        assert!(x.fract() == 0.0 && y.fract() == 0.0, "turn at ({x}, {y})");
    }
    // The same for `render`, which draws the optimal path.
    let svg = temp_path(&dir, "town.svg");
    let svg = svg.to_str().unwrap();
    let out = trinav(&["render", &nav, "-o", svg, "--from", "5,5", "--to", "120,40", "--mode", "optimal"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let drawn: f64 = text.split("path length ").nth(1).expect(&text).trim().parse().unwrap();
    assert_close(drawn, length, "rendered path length");
    let bad_mode = ["--from", "5,5", "--to", "6,6", "--mode", "exact"];
    for args in [["path", &nav].as_slice(), ["render", &nav, "-o", svg].as_slice()] {
        let out = trinav(&[args, bad_mode.as_slice()].concat());
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("unknown path mode \"exact\""), "{}", stderr(&out));
    }
}
