//! End-to-end tests of the `trinav` binary: exit codes, output, and that failures leave files
//! alone.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn trinav(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trinav")).args(args).output().expect("runs")
}

fn level(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/levels");
    dir.join(name).to_str().unwrap().to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn temp_path(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

#[test]
fn bake_then_inspect_a_sample_level() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "town.nav");
    let out = trinav(&["bake", &level("town.json"), "-o", nav.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let baked = json(&out);
    for key in ["vertices", "triangles", "islands", "area", "bake_ms"] {
        assert!(baked.get(key).is_some(), "missing {key}");
    }
    // Town: 100x80 square + 40x10 road (10x10 overlap) minus 1703 of buildings.
    assert_eq!(baked["area"], 6597.0);
    assert_eq!(baked["islands"], 2);

    let out = trinav(&["inspect", nav.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["valid"], true);
    assert_eq!(report["problems"], serde_json::json!([]));
    assert_eq!(report["area"], 6597.0);
    assert_eq!(report["triangles"], baked["triangles"]);
    assert_eq!(report["vertices"], baked["vertices"]);
    assert_eq!(report["bounds"], serde_json::json!([[0.0, 0.0], [130.0, 80.0]]));
    assert!(report["min_angle_deg"].as_f64().unwrap() > 0.0);

    let text = trinav(&["inspect", nav.to_str().unwrap()]);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("valid: yes"));
}

#[test]
fn area_types_are_baked_inspected_and_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "terrain.nav");
    let out = trinav(&["bake", &level("terrain.json"), "-o", nav.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&trinav(&["inspect", nav.to_str().unwrap(), "--json"]));
    let types = report["area_types"].as_array().unwrap();
    let ids: Vec<u64> = types.iter().map(|t| t["area"].as_u64().unwrap()).collect();
    assert_eq!(ids, [0, 1, 2, 3]);
    // The roads: two strips over the whole level, 120 x 6 and 6 x 80, sharing a 6 x 6 square,
    // and no building on them.
    let roads = types[1]["size"].as_f64().unwrap();
    assert!((roads - (120.0 * 6.0 + 6.0 * 80.0 - 36.0)).abs() < 1e-9, "{roads}");
    let sum: f64 = types.iter().map(|t| t["size"].as_f64().unwrap()).sum();
    assert!((sum - report["area"].as_f64().unwrap()).abs() < 1e-9 * sum);
    let text = String::from_utf8_lossy(&trinav(&["inspect", nav.to_str().unwrap()]).stdout).into_owned();
    assert!(text.contains("area types: 0: area "), "{text}");

    let svg = temp_path(&dir, "terrain.svg");
    let out = trinav(&["render", nav.to_str().unwrap(), "-o", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let picture = std::fs::read_to_string(&svg).unwrap();
    for area in 0..4 {
        assert!(picture.contains(&format!("class=\"area\" data-area=\"{area}\"")), "area {area}");
    }
    assert!(!picture.contains("class=\"island\""));
}

#[test]
fn path_costs_and_exclusions_by_name_and_number() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "terrain.nav");
    let nav = nav.to_str().unwrap();
    assert!(trinav(&["bake", &level("terrain.json"), "-o", nav]).status.success());
    let names = level("terrain.json");
    let path = |extra: &[&str]| {
        let mut args = vec!["path", nav, "--from", "2,39", "--to", "118,39", "--json"];
        args.extend_from_slice(extra);
        trinav(&args)
    };
    // Along the road (y 36 to 42) end to end: straight, at the road's cost.
    for mode in ["fast", "optimal"] {
        let plain = json(&path(&["--mode", mode]));
        assert_eq!((plain["length"].as_f64(), plain["cost"].as_f64()), (Some(116.0), Some(116.0)));
        let cheap = path(&["--mode", mode, "--cost", "road=0.5", "--names", &names]);
        assert!(cheap.status.success(), "{}", stderr(&cheap));
        let cheap = json(&cheap);
        // 58 at best. The search's edges are not all those the straight way crosses, and
        // the refinement keeps to them: within 0.1% (optimal) and 1% (fast, a few sweeps).
        let cost = cheap["cost"].as_f64().unwrap();
        let bound = if mode == "fast" { 58.0 * 1.01 } else { 58.0 * 1.001 };
        assert!((58.0 * (1.0 - 1e-9)..=bound).contains(&cost), "{cheap}");
        let by_number = json(&path(&["--mode", mode, "--cost", "1=0.5"]));
        assert_eq!(by_number["cost"], cheap["cost"]);
        // A disc of radius 1 keeps to the road as well (its walls are farther than that).
        let disc = path(&["--mode", mode, "--cost", "road=0.5", "--names", &names, "--radius", "1"]);
        assert!(disc.status.success(), "{}", stderr(&disc));
        let cost = json(&disc)["cost"].as_f64().unwrap();
        assert!((58.0 * (1.0 - 1e-9)..=bound).contains(&cost), "{}", json(&disc));
    }
    let text = String::from_utf8_lossy(&trinav(&["path", nav, "--from", "2,39", "--to", "118,39"]).stdout)
        .into_owned();
    assert!(text.starts_with("found: true, length 116, cost 116, "), "{text}");
    // Water and roads excluded: from the water to the mud there is no way (exit 1).
    for mode in ["fast", "optimal"] {
        let mut args =
            vec!["path", nav, "--from", "25,28", "--to", "90,25", "--mode", mode, "--names", &names];
        args.extend(["--exclude", "0", "--exclude", "road"]);
        let out = trinav(&args);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(String::from_utf8_lossy(&out.stdout).contains("not connected"));
        // Excluding the water instead: the start is on it (exit 2, naming the point).
        let out = trinav(&["path", nav, "--from", "25,28", "--to", "90,25", "--exclude", "3"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("start point (25, 28) is on area type 3, which is excluded"),
            "{}",
            stderr(&out)
        );
    }
}

/// A disc in both modes on the town level baked without a radius: the optimal mode's path is
/// never longer than the fast mode's, never shorter than a point's, and stays `r` from walls
/// (the path command verifies every disc path; the library tests check the exact lengths).
#[test]
fn path_with_a_radius_in_both_modes() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "town.nav");
    let nav = nav.to_str().unwrap();
    assert!(trinav(&["bake", &level("town.json"), "-o", nav]).status.success());
    let length = |extra: &[&str]| {
        let mut args = vec!["path", nav, "--from", "5,5", "--to", "120,40", "--json"];
        args.extend_from_slice(extra);
        let out = trinav(&args);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        json(&out)["length"].as_f64().unwrap()
    };
    let point = length(&["--mode", "optimal"]);
    let fast = length(&["--radius", "0.5"]);
    let optimal = length(&["--radius", "0.5", "--mode", "optimal"]);
    assert!(point < optimal && optimal <= fast + 1e-9, "point {point}, optimal {optimal}, fast {fast}");
}

#[test]
fn summary_line_and_radius_override() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "c.nav");
    let out = trinav(&["bake", &level("courtyard.json"), "-o", nav.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = String::from_utf8_lossy(&out.stdout);
    assert_eq!(line.lines().count(), 1);
    assert!(line.contains("2 islands") && line.contains("agent radius 0.5"), "{line}");

    let out = trinav(&[
        "bake",
        &level("courtyard.json"),
        "-o",
        nav.to_str().unwrap(),
        "--agent-radius",
        "0",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // 60x60 minus the keep (30x30 - 16x16), the well (4x4) and the wall (3x45).
    assert_eq!(json(&out)["area"], 3600.0 - (900.0 - 256.0) - 16.0 - 135.0);
}

#[test]
fn both_triangulations_bake_the_same_area() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "r.nav");
    let area = |method: &str| {
        let out = trinav(&[
            "bake",
            &level("room_pillars.json"),
            "-o",
            nav.to_str().unwrap(),
            "--triangulation",
            method,
            "--json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        json(&out)["area"].as_f64().unwrap()
    };
    let (ear, cdt) = (area("ear-clipping"), area("constrained-delaunay"));
    assert!((ear - cdt).abs() <= 1e-9 * ear, "{ear} vs {cdt}");
}

#[test]
fn missing_level_names_the_file_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "x.nav");
    let out = trinav(&["bake", "no/such/level.json", "-o", nav.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("trinav: no/such/level.json: cannot read level"), "{err}");
    assert!(err.contains("os error"), "the io error follows: {err}");
    assert_eq!(err.lines().count(), 1);
    assert!(!nav.exists());
}

#[test]
fn bad_level_errors_name_file_and_place() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "x.nav");
    let cases = [
        ("{\"walkable\": [\n  {\"outer\": [[0,0],[4,0]]]\n}", "line 2"),
        (
            "{\"walkable\": [{\"outer\": [[0,0],[4,0]]}]}",
            "walkable[0] outer ring: needs at least 3 distinct points",
        ),
        (
            "{\"walkable\": [{\"outer\": [[0,0],[9,0],[9,9],[0,9]]}], \"obstacles\": [{\"outer\": [[1,1],[2,1],[2,2],[1,2]]}, {\"outer\": [[3,3],[5,5],[5,3],[3,5]]}]}",
            "obstacles[1] outer ring: segment 0-1 (3, 3)-(5, 5) and segment 2-3 (5, 3)-(3, 5) cross at (4, 4)",
        ),
        (
            "{\"walkable\": [{\"outer\": [[0,0],[1,0],[1,1]]}], \"obstacles\": [{\"outer\": [[-1,-1],[2,-1],[2,2],[-1,2]]}]}",
            "nothing is walkable",
        ),
        ("", "line 1"),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = temp_path(&dir, &format!("bad{i}.json"));
        std::fs::write(&path, text).unwrap();
        let out = trinav(&["bake", path.to_str().unwrap(), "-o", nav.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "case {i}");
        let err = stderr(&out);
        assert!(err.contains(path.to_str().unwrap()) && err.contains(expected), "case {i}: {err}");
        assert_eq!(err.lines().count(), 1, "case {i}: {err}");
        assert!(!nav.exists(), "case {i} left an output file");
    }
    let out = trinav(&["bake", &level("town.json"), "-o", nav.to_str().unwrap(), "--agent-radius", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("agent radius must be finite and >= 0"), "{}", stderr(&out));
}

#[test]
fn failed_bake_leaves_an_existing_output_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "keep.nav");
    std::fs::write(&nav, b"precious").unwrap();
    let bad = temp_path(&dir, "bad.json");
    std::fs::write(&bad, "{\"walkable\": []}").unwrap();
    let out = trinav(&["bake", bad.to_str().unwrap(), "-o", nav.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no walkable polygon"));
    assert_eq!(std::fs::read(&nav).unwrap(), b"precious");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "no temporary file left");
}

#[test]
fn output_in_a_missing_folder_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "missing/out.nav");
    let out = trinav(&["bake", &level("town.json"), "-o", nav.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("missing/out.nav: cannot write"), "{err}");
    assert!(!nav.exists());
}

#[test]
fn inspect_refuses_damaged_files_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let nav = temp_path(&dir, "m.nav");
    let out = trinav(&["bake", &level("courtyard.json"), "-o", nav.to_str().unwrap()]);
    assert!(out.status.success());
    let bytes = std::fs::read(&nav).unwrap();

    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x10;
    let mut wrong_version = bytes.clone();
    wrong_version[8] = 9;
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("truncated.nav", bytes[..bytes.len() - 7].to_vec(), "truncated"),
        ("flipped.nav", flipped, "checksum mismatch"),
        ("version.nav", wrong_version, "format version 9 is not supported"),
        ("garbage.nav", b"hello, this is not a navigation mesh at all".to_vec(), "bad magic"),
        ("empty.nav", Vec::new(), "too short"),
    ];
    for (name, content, expected) in cases {
        let path = temp_path(&dir, name);
        std::fs::write(&path, content).unwrap();
        let out = trinav(&["inspect", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = stderr(&out);
        assert!(err.contains(path.to_str().unwrap()) && err.contains(expected), "{name}: {err}");
        assert_eq!(err.lines().count(), 1);
    }
    let out = trinav(&["inspect", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "a directory is refused");
}

#[test]
fn baking_twice_gives_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (temp_path(&dir, "a.nav"), temp_path(&dir, "b.nav"));
    for path in [&a, &b] {
        assert!(
            trinav(&["bake", &level("room_pillars.json"), "-o", path.to_str().unwrap()]).status.success()
        );
    }
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
}

/// `trinav edit` against the oracle: the edited mesh has the area, islands and optimal path
/// lengths of a bake of the level with the same obstacles; a failing change writes nothing.
#[test]
fn edit_gives_what_a_bake_with_the_same_obstacles_gives() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| temp_path(&dir, name).to_str().unwrap().to_string();
    let (nav, edited, rebaked) = (path("town.nav"), path("edited.nav"), path("rebaked.nav"));
    assert!(trinav(&["bake", &level("town.json"), "-o", &nav]).status.success());
    // A building with a courtyard, then a wall added, moved and another one removed.
    let building = serde_json::json!({"outer": [[40, 40], [50, 40], [50, 50], [40, 50]],
        "holes": [[[44, 44], [46, 44], [46, 46], [44, 46]]]});
    std::fs::write(path("building.json"), building.to_string()).unwrap();
    let changes = serde_json::json!([
        {"add": {"outer": [[60, 30], [62, 30], [62, 70], [60, 70]]}},
        {"add": {"outer": [[5, 65], [25, 65], [25, 67], [5, 67]]}},
        {"move": {"id": 0, "by": [5, -2]}},
    ]);
    std::fs::write(path("changes.json"), changes.to_string()).unwrap();
    let args = ["edit", &nav, "--changes", &path("changes.json"), "--add", &path("building.json")];
    let out = trinav(&[&args[..], &["--remove", "1", "-o", &edited, "--json"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let summary = json(&out);
    assert_eq!(summary["obstacles"], 2);
    let ids: Vec<u64> =
        summary["changes"].as_array().unwrap().iter().map(|c| c["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [0, 1, 0, 2, 1]);

    let mut level: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(level("town.json")).unwrap()).unwrap();
    let obstacles = level["obstacles"].as_array_mut().unwrap();
    obstacles.push(serde_json::json!({"outer": [[65, 28], [67, 28], [67, 68], [65, 68]]}));
    obstacles.push(building);
    std::fs::write(path("level.json"), level.to_string()).unwrap();
    assert!(trinav(&["bake", &path("level.json"), "-o", &rebaked]).status.success());

    assert_same_as_bake(
        (&edited, &rebaked),
        &[("5,5", "95,75"), ("1,70", "99,1"), ("45,45", "2,2"), ("55,45", "128,40"), ("64,50", "70,50")],
    );

    // A change that fails writes nothing, even after changes that succeeded.
    let out =
        trinav(&["edit", &nav, "--add", &path("building.json"), "--remove", "5", "-o", &path("none.nav")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no obstacle has id 5"));
    assert!(!temp_path(&dir, "none.nav").exists());
}

/// `trinav edit` on a layered mesh: each obstacle names its layer (`"layer"`), and the result
/// is what a bake with the obstacles in those layers gives.
#[test]
fn edit_on_layers_gives_what_a_bake_with_the_obstacles_in_their_layers_gives() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| temp_path(&dir, name).to_str().unwrap().to_string();
    let (nav, edited, rebaked) = (path("overpass.nav"), path("edited.nav"), path("rebaked.nav"));
    assert!(trinav(&["bake", &level("overpass.json"), "-o", &nav]).status.success());
    // A cart on the bridge, and a truck on the road under it.
    let cart = serde_json::json!({"layer": "bridge", "outer": [[27, 16], [33, 16], [33, 18], [27, 18]]});
    let truck = serde_json::json!({"layer": "ground", "outer": [[24, 21], [36, 21], [36, 25], [24, 25]]});
    std::fs::write(path("obstacles.json"), serde_json::json!([cart, truck]).to_string()).unwrap();
    let out = trinav(&["edit", &nav, "--add", &path("obstacles.json"), "--move", "0:0,-1", "-o", &edited]);
    assert!(out.status.success(), "{}", stderr(&out));

    let mut level: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(level("overpass.json")).unwrap()).unwrap();
    level["layers"][1]["obstacles"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"outer": [[27, 15], [33, 15], [33, 17], [27, 17]]}));
    level["layers"][0]["obstacles"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"outer": truck["outer"]}));
    std::fs::write(path("level.json"), level.to_string()).unwrap();
    assert!(trinav(&["bake", &path("level.json"), "-o", &rebaked]).status.success());
    let codes = assert_same_as_bake(
        (&edited, &rebaked),
        &[("ground:30,2", "ground:30,44"), ("ground:5,23", "ground:55,23"), ("bridge:30,20", "ground:12,40")],
    );
    assert!(codes.iter().all(|&c| c == Some(0)), "every path found: {codes:?}");
}

/// An edited mesh answers as a bake of the level with the same obstacles: valid, the same area
/// and islands, and for each (from, to) the same exit status and optimal length (1e-9). The
/// edited mesh's exit statuses, in order.
fn assert_same_as_bake((edited, rebaked): (&str, &str), pairs: &[(&str, &str)]) -> Vec<Option<i32>> {
    let inspect = |nav: &str| json(&trinav(&["inspect", nav, "--json"]));
    let (a, b) = (inspect(edited), inspect(rebaked));
    assert_eq!(a["valid"], true, "{a}");
    assert_eq!((&a["area"], &a["islands"]), (&b["area"], &b["islands"]));
    let mut codes = Vec::new();
    for &(from, to) in pairs {
        let length = |nav: &str| {
            let out = trinav(&["path", nav, "--from", from, "--to", to, "--mode", "optimal", "--json"]);
            (out.status.code(), json(&out)["length"].as_f64())
        };
        let (mine, bake) = (length(edited), length(rebaked));
        assert_eq!(mine.0, bake.0, "{from} -> {to}");
        if let (Some(x), Some(y)) = (mine.1, bake.1) {
            assert!((x - y).abs() <= 1e-9 * y.max(1.0), "{from} -> {to}: {x} vs {y}");
        }
        codes.push(mine.0);
    }
    codes
}

/// The GPPC dynamic track on a tiny scenario worked by hand: the JSON fields, and the optimal
/// lengths before and after a patch that walls off the straight line.
#[test]
fn bench_runs_a_dynamic_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| temp_path(&dir, name).to_str().unwrap().to_string();
    // 6 x 4 grid; the patch blocks column 2, rows 0-2 (a wall with a gap at the bottom row).
    std::fs::write(path("wall.patch"), "type patch\npatches 2\npatch 0\nheight 3\nwidth 1\nmap\n@\n@\n@\npatch 1\nheight 1\nwidth 1\nmap\n.\n")
        .unwrap();
    let scen = "version 2\nheight 4\nwidth 6\ncost 1 octile\npatch wall.patch\ncommands\n\
                Q 0 0 0 5 0 5\nP 1 0 2 0\nQ 1 0 0 5 0 9.2426406871\nP 2 1 2 1\nQ 2 0 0 5 0 5.8284271247\nQ 2 2 0 5 0 -1\n";
    std::fs::write(path("wall.scen"), scen).unwrap();
    let out = trinav(&[
        "bench",
        "--scen",
        &path("wall.scen"),
        "--mode",
        "optimal",
        "--json",
        "--paths",
        &path("p.jsonl"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["updates"], 2);
    for key in ["update_p50_us", "update_p99_us", "update_max_us", "full_bake_ms"] {
        assert!(report[key].as_f64().unwrap() > 0.0, "{key}: {report}");
    }
    assert_eq!((&report["queries"], &report["found"]), (&4.into(), &3.into()));
    assert_eq!(
        (&report["longer_than_reference"], &report["connectivity_mismatches"]),
        (&0.into(), &0.into())
    );
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(path("p.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    // Open: straight. Walled but for row 3: from (0.5, 0.5) down around the corners (2, 3)
    // and (3, 3), up to (5.5, 0.5). Cell (2, 1) free again (patch 1): through that gap, bending
    // at (2, 1) and (3, 1).
    assert_eq!(lines[0]["length"], 5.0);
    let around = |corners: &[(f64, f64)]| {
        let mut points = vec![(0.5, 0.5)];
        points.extend_from_slice(corners);
        points.push((5.5, 0.5));
        points.windows(2).map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1)).sum::<f64>()
    };
    let close = |v: &serde_json::Value, want: f64| (v.as_f64().unwrap() - want).abs() < 1e-9;
    assert!(close(&lines[1]["length"], around(&[(2.0, 3.0), (3.0, 3.0)])), "{}", lines[1]);
    assert!(close(&lines[2]["length"], around(&[(2.0, 1.0), (3.0, 1.0)])), "{}", lines[2]);
    // Query 4 starts in a blocked cell: off the mesh, not found.
    assert_eq!(lines[3]["found"], false);
}
