//! End-to-end tests of the importers and `trinav bench`, on the bundled samples and, when
//! `../shared/bench-data` is present, on the real benchmark files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn trinav(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trinav")).args(args).output().expect("runs")
}

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(path).to_str().unwrap().to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn bake(input: &str, nav: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["bake", input, "-o", nav.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let out = trinav(&args);
    assert!(out.status.success(), "{input}: {}", stderr(&out));
    json(&out)
}

#[test]
fn every_sample_format_bakes_to_its_exact_area() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("x.nav");
    // tiny.map: 8x6 cells, 7 blocked. tiny.png: the same grid as a bitmap.
    // tiny.mesh and tiny.poly: the 4x4 square minus the triangle (2,1) (3,3) (1,3) of area 2.
    for (input, area) in [
        ("maps/tiny.map", 41.0),
        ("maps/tiny.png", 41.0),
        ("meshes/tiny.mesh", 14.0),
        ("meshes/tiny.poly", 14.0),
    ] {
        let baked = bake(&data(input), &nav, &[]);
        assert_eq!(baked["area"], area, "{input}");
        assert_eq!(baked["islands"], 1, "{input}");
    }
    // A threshold of 0 makes every pixel walkable.
    assert_eq!(bake(&data("maps/tiny.png"), &nav, &["--threshold", "0"])["area"], 48.0);
    // --format overrides the extension.
    let copy = dir.path().join("tiny.txt");
    std::fs::copy(data("maps/tiny.map"), &copy).unwrap();
    assert_eq!(bake(copy.to_str().unwrap(), &nav, &["--format", "map"])["area"], 41.0);
    // With an agent radius the grid's blocked cells become inflated obstacles.
    let inflated = bake(&data("maps/tiny.map"), &nav, &["--agent-radius", "0.25"]);
    assert!(inflated["area"].as_f64().unwrap() < 41.0);
}

#[test]
fn bench_on_the_tiny_scenarios_meets_the_exact_references() {
    let dir = tempfile::tempdir().unwrap();
    for (input, scen, queries) in
        [("maps/tiny.map", "maps/tiny.map.scen", 5), ("meshes/tiny.mesh", "meshes/tiny.mesh.scen", 2)]
    {
        let nav = dir.path().join("t.nav");
        bake(&data(input), &nav, &[]);
        let lines = dir.path().join("paths.jsonl");
        let out = trinav(&[
            "bench",
            nav.to_str().unwrap(),
            "--scen",
            &data(scen),
            "--json",
            "--paths",
            lines.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let report = json(&out);
        for key in [
            "queries",
            "found",
            "p50_us",
            "p99_us",
            "mean_us",
            "ratio_mean",
            "ratio_max",
            "shorter_than_reference",
        ] {
            assert!(report.get(key).is_some(), "missing {key}");
        }
        assert_eq!(report["queries"], queries);
        assert_eq!(report["found"], queries);
        assert_eq!(report["shorter_than_reference"], 0);
        // The references are the exact shortest lengths (worked out by hand; see the README):
        // these simple queries are all met exactly.
        assert!((report["ratio_max"].as_f64().unwrap() - 1.0).abs() < 1e-12, "{report}");
        let text = std::fs::read_to_string(&lines).unwrap();
        let rows: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.len(), queries);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row["i"], i);
            assert_eq!(row["found"], true);
        }
    }
}

#[test]
fn double_corner_start_leaves_through_its_own_cell() {
    // tiny.map: blocked cells (6, 2) and (5, 3) meet at the corner (6, 3). From that corner,
    // which belongs to cell (6, 3), to (5, 2) the path goes round: length 4 (third query).
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("t.nav");
    bake(&data("maps/tiny.map"), &nav, &[]);
    let lines = dir.path().join("p.jsonl");
    let out = trinav(&[
        "bench",
        nav.to_str().unwrap(),
        "--scen",
        &data("maps/tiny.map.scen"),
        "--paths",
        lines.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&lines).unwrap();
    let third: serde_json::Value = serde_json::from_str(text.lines().nth(2).unwrap()).unwrap();
    assert_eq!(third["length"], 4.0);
    // Without the grid rule (a plain path query) the corner touches cell (5, 2) directly.
    let out = trinav(&["path", nav.to_str().unwrap(), "--from", "6,3", "--to", "5,2", "--json"]);
    assert_eq!(json(&out)["length"], 2f64.sqrt());
}

#[test]
fn malformed_inputs_name_file_line_and_reason() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("out.nav");
    let cases: [(&str, &[u8], &str); 7] = [
        (
            "rows.map",
            b"type octile\nheight 3\nwidth 2\nmap\n..\n..\n",
            "line 6: 2 rows, the header declares 3",
        ),
        ("cell.map", b"type octile\nheight 1\nwidth 2\nmap\n.x\n", "line 5: unknown cell `x`"),
        (
            "bad.mesh",
            b"mesh\n3\n3 1\n0 0\n1 0\n0 1\n1 3 1 2 9 0 0 0\n",
            "line 7: vertex index 8 out of range",
        ),
        ("bad.poly", b"poly\n1\n1\n2 0 0 1 1\n", "line 4: polygon 0 has 2 points"),
        ("cut.png", &[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n', 0, 0], "cannot decode image"),
        ("level.xyz", b"{}", "unknown level format"),
        ("empty.json", b"", "line 1"),
    ];
    for (name, content, expected) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let out = trinav(&["bake", path.to_str().unwrap(), "-o", nav.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = stderr(&out);
        assert!(err.contains(path.to_str().unwrap()) && err.contains(expected), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(!nav.exists(), "{name} left an output");
    }
    // A radius on a mesh input is refused with the reason.
    let out =
        trinav(&["bake", &data("meshes/tiny.mesh"), "-o", nav.to_str().unwrap(), "--agent-radius", "0.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("radius 0"), "{}", stderr(&out));
}

#[test]
fn malformed_scenarios_are_refused_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("t.nav");
    bake(&data("maps/tiny.map"), &nav, &[]);
    for (text, expected) in
        [("version 3\n", "line 1"), ("version 1\n0 tiny.map 8 6 0 0 7\n", "line 2: expected 9 columns")]
    {
        let scen = dir.path().join("bad.scen");
        std::fs::write(&scen, text).unwrap();
        let out = trinav(&["bench", nav.to_str().unwrap(), "--scen", scen.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        assert!(err.contains("bad.scen") && err.contains(expected), "{err}");
    }
}

/// The benchmark data, when present next to the project.
fn bench_data() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench-data");
    dir.is_dir().then_some(dir)
}

/// On the scenario files whose references are exact optima, every query finds its path; in
/// fast mode none is shorter than the reference, in optimal mode every length equals it
/// (within the references' own rounding).
#[test]
fn exact_optimum_scenarios() {
    let Some(data) = bench_data() else {
        eprintln!("../shared/bench-data not present: skipped");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("b.nav");
    // arena's references have 6 significant digits: allow 1e-5 relative.
    for (input, scen, tolerance) in [
        ("movingai/arena.map", "movingai/arena.map.exact.scen", 1e-5),
        ("iron-harvest/scene_mp_2p_01.mesh", "iron-harvest/scene_mp_2p_01.mesh.scen", 1e-6),
    ] {
        bake(data.join(input).to_str().unwrap(), &nav, &[]);
        for mode in ["fast", "optimal"] {
            let lines = dir.path().join("p.jsonl");
            let scen_path = data.join(scen);
            let out = trinav(&[
                "bench",
                nav.to_str().unwrap(),
                "--scen",
                scen_path.to_str().unwrap(),
                "--mode",
                mode,
                "--json",
                "--paths",
                lines.to_str().unwrap(),
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
            let report = json(&out);
            assert_eq!(report["found"], report["queries"], "{input}");
            let references: Vec<f64> = std::fs::read_to_string(&scen_path)
                .unwrap()
                .lines()
                .skip(1)
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.split_whitespace().nth(8).unwrap().parse().unwrap())
                .collect();
            for (row, reference) in std::fs::read_to_string(&lines).unwrap().lines().zip(references) {
                let row: serde_json::Value = serde_json::from_str(row).unwrap();
                let length = row["length"].as_f64().unwrap();
                assert!(length >= reference * (1.0 - tolerance), "{input}: {row} shorter than {reference}");
                if mode == "optimal" {
                    assert!(
                        length <= reference * (1.0 + tolerance),
                        "{input}: {row} longer than {reference}"
                    );
                }
            }
        }
    }
}

/// The any-angle mazes' `.problem` files hold visibility-graph optima (as float32): the
/// optimal mode matches every one.
#[test]
fn maze_problems_are_solved_exactly_in_optimal_mode() {
    let Some(data) = bench_data() else {
        eprintln!("../shared/bench-data not present: skipped");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("maze.nav");
    let mut mazes: Vec<_> =
        std::fs::read_dir(data.join("mazes")).unwrap().map(|e| e.unwrap().path()).collect();
    mazes.retain(|m| m.is_dir());
    mazes.sort();
    assert!(!mazes.is_empty());
    for maze in mazes {
        bake(maze.join("maze.txt").to_str().unwrap(), &nav, &[]);
        let out = trinav(&[
            "bench",
            nav.to_str().unwrap(),
            "--scen",
            maze.to_str().unwrap(),
            "--mode",
            "optimal",
            "--json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let report = json(&out);
        assert_eq!(report["found"], report["queries"], "{}", maze.display());
        let (min, max) = (report["ratio_min"].as_f64().unwrap(), report["ratio_max"].as_f64().unwrap());
        assert!(min >= 1.0 - 1e-6 && max <= 1.0 + 1e-6, "{}: {report}", maze.display());
    }
}

#[test]
fn grid_terrain_tags_cells_and_paths_cost_them() {
    let dir = tempfile::tempdir().unwrap();
    let (nav, plain) = (dir.path().join("strip.nav"), dir.path().join("plain.nav"));
    // 12 x 5 cells; a water strip at x = 5 over rows 0-3, the way round through row 4.
    let map = dir.path().join("strip.map");
    let rows = [".....W......", ".....W......", ".....W......", ".....W......", "............"];
    std::fs::write(&map, format!("type octile\nheight 5\nwidth 12\nmap\n{}\n", rows.join("\n"))).unwrap();
    let names = dir.path().join("names.json");
    std::fs::write(&names, r#"{"area_names": {"water": 3}}"#).unwrap();
    let map = map.to_str().unwrap();
    // Water is blocked by default (the benchmark convention): 56 cells.
    assert_eq!(bake(map, &plain, &[])["area"], 56.0);
    for terrain in
        [["--terrain", "W=3", "", ""], ["--terrain", "W=water", "--names", names.to_str().unwrap()]]
    {
        let extra: Vec<&str> = terrain.iter().copied().filter(|s| !s.is_empty()).collect();
        assert_eq!(bake(map, &nav, &extra)["area"], 60.0, "{extra:?}");
        let inspect = json(&trinav(&["inspect", nav.to_str().unwrap(), "--json"]));
        let sizes: Vec<(u64, f64)> = (inspect["area_types"].as_array().unwrap().iter())
            .map(|t| (t["area"].as_u64().unwrap(), t["size"].as_f64().unwrap()))
            .collect();
        assert_eq!(sizes, vec![(0, 56.0), (3, 4.0)], "{extra:?}");
        // With --names the mesh keeps the level's names (a grid has none of its own).
        let kept = if extra.contains(&"--names") {
            serde_json::json!({"water": 3})
        } else {
            serde_json::Value::Null
        };
        assert_eq!(inspect["area_names"], kept, "{extra:?}");
    }
    let path = |mesh: &Path, extra: &[&str]| {
        let mut args = vec!["path", mesh.to_str().unwrap(), "--from", "1,0.5", "--to", "10,0.5", "--json"];
        args.extend_from_slice(extra);
        trinav(&args)
    };
    // Across at cost 3: 8 on the ground and 1 in the water. Round: via (5, 4) and (6, 4).
    let round = 2.0 * (16.0f64 + 3.5 * 3.5).sqrt() + 1.0;
    for (extra, cost) in [
        (vec!["--cost", "3=3", "--mode", "optimal"], 11.0),
        (vec!["--cost", "water=5", "--names", names.to_str().unwrap(), "--mode", "optimal"], round),
        // The names the mesh keeps.
        (vec!["--cost", "water=5", "--mode", "optimal"], round),
        (vec!["--exclude", "3", "--mode", "optimal"], round),
    ] {
        let out = path(&nav, &extra);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        let found = json(&out)["cost"].as_f64().unwrap();
        assert!(
            found >= cost * (1.0 - 1e-9) && found <= cost * 1.001,
            "{extra:?}: cost {found}, optimum {cost}"
        );
    }
    let blocked = json(&path(&plain, &["--mode", "optimal"]))["length"].as_f64().unwrap();
    assert!((blocked - round).abs() < 1e-9, "{blocked}");
    // Bitmaps: tiny.png's 7 black pixels tagged as type 5.
    let baked = bake(&data("maps/tiny.png"), &nav, &["--area-color", "000000=5"]);
    assert_eq!(baked["area"], 48.0);
    let inspect = json(&trinav(&["inspect", nav.to_str().unwrap(), "--json"]));
    assert_eq!(inspect["area_types"][1]["area"], 5);
    assert_eq!(inspect["area_types"][1]["size"], 7.0);
}
