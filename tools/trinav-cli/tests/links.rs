//! Off-mesh links and layers through the command line: bake, inspect, path (exit statuses,
//! `--json` with `links`, `cost`, `length` and `layers`, `--from LAYER:X,Y`), render (arrows;
//! layers side by side) and bench on a level with links.

use std::process::{Command, Output};

fn trinav(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trinav")).args(args).output().expect("runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

/// Two rooms, `[0, 10]²` and `[20, 30] × [0, 10]`, joined only by a one-way drop from (8, 2)
/// to (22, 2) of cost 2, and a teleporter inside the left room (both ways, cost 0) between
/// (1, 1) and (1, 9).
const LEVEL: &str = r#"{
  "walkable": [{"outer": [[0, 0], [10, 0], [10, 10], [0, 10]]}, {"outer": [[20, 0], [30, 0], [30, 10], [20, 10]]}],
  "links": [
    {"from": [8, 2], "to": [22, 2], "cost": 2},
    {"from": [1, 1], "to": [1, 9], "cost": 0, "bidirectional": true}
  ]
}"#;

fn baked(dir: &tempfile::TempDir) -> String {
    let level = dir.path().join("links.json");
    std::fs::write(&level, LEVEL).unwrap();
    let nav = dir.path().join("links.nav").to_str().unwrap().to_string();
    let out = trinav(&["bake", level.to_str().unwrap(), "-o", &nav, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["links"], 2);
    nav
}

#[test]
fn inspect_counts_the_links() {
    let dir = tempfile::tempdir().unwrap();
    let nav = baked(&dir);
    let out = trinav(&["inspect", &nav, "--json"]);
    assert!(out.status.success());
    let report = json(&out);
    assert_eq!((report["links"].as_u64(), report["format_version"].as_u64()), (Some(2), Some(5)));
    let out = trinav(&["inspect", &nav]);
    assert!(stdout(&out).contains("islands 2, links 2,"), "{}", stdout(&out));
}

#[test]
fn paths_take_links_and_no_path_follows_them_one_way() {
    let dir = tempfile::tempdir().unwrap();
    let nav = baked(&dir);
    for mode in ["fast", "optimal"] {
        // Over the drop: 3 walked to it, 3 after it.
        let out = trinav(&["path", &nav, "--from", "5,2", "--to", "25,2", "--mode", mode, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{mode}");
        let report = json(&out);
        assert_eq!(report["points"], serde_json::json!([[5.0, 2.0], [8.0, 2.0], [22.0, 2.0], [25.0, 2.0]]));
        assert_eq!(report["links"], serde_json::json!([1]));
        assert_eq!((report["length"].as_f64(), report["cost"].as_f64()), (Some(6.0), Some(8.0)));
        // From the top left corner: the free teleporter down (0.5 + 0 + √50 + 2 + 3), not the
        // walk to the drop (√(49 + 56.25) + 2 + 3).
        let out = trinav(&["path", &nav, "--from", "1,9.5", "--to", "25,2", "--mode", mode, "--json"]);
        let report = json(&out);
        assert_eq!(report["links"], serde_json::json!([1, 3]), "{mode}: {report}");
        assert_eq!(report["cost"].as_f64(), Some(0.5 + 50f64.sqrt() + 5.0));
        // Back up: no way (the drop is one way): exit 1.
        let out = trinav(&["path", &nav, "--from", "25,2", "--to", "5,2", "--mode", mode, "--json"]);
        assert_eq!(out.status.code(), Some(1), "{mode}");
        assert_eq!(json(&out)["found"], false);
        // Text output marks the link.
        let out = trinav(&["path", &nav, "--from", "5,2", "--to", "25,2", "--mode", mode]);
        let text = stdout(&out);
        assert!(
            text.contains("length 6, cost 8 with 1 link") && text.contains("(8, 2) => (22, 2)"),
            "{text}"
        );
    }
}

/// An agent radius on the level with links: a link is taken when the disc fits at both its
/// ends (the teleporter's ends are 1 from the walls, the drop's 2).
#[test]
fn a_disc_takes_the_links_whose_ends_it_fits_at() {
    let dir = tempfile::tempdir().unwrap();
    let nav = baked(&dir);
    for mode in ["fast", "optimal"] {
        let path = |from: &str, to: &str, radius: &str| {
            trinav(&["path", &nav, "--from", from, "--to", to, "--mode", mode, "--radius", radius, "--json"])
        };
        // Over the drop, as for a point.
        let out = path("5,2", "25,2", "0.5");
        assert_eq!(out.status.code(), Some(0), "{mode}: {}", String::from_utf8_lossy(&out.stderr));
        let report = json(&out);
        assert_eq!(report["points"], serde_json::json!([[5.0, 2.0], [8.0, 2.0], [22.0, 2.0], [25.0, 2.0]]));
        assert_eq!(report["links"], serde_json::json!([1]));
        assert_eq!((report["length"].as_f64(), report["cost"].as_f64()), (Some(6.0), Some(8.0)));
        // Too wide for the drop's start (2 from the wall): no path, exit 1.
        let out = path("5,5", "25,5", "2.5");
        assert_eq!(out.status.code(), Some(1), "{mode}");
        assert_eq!(json(&out)["found"], false);
        // From (1.5, 8.5): the teleporter down and the drop (√0.5 + 0 + √50 + 2 + 3) for a disc
        // of 0.5; one of 1.2 does not fit at the teleporter's ends and walks to the drop
        // (√84.5 + 2 + 3).
        let report = json(&path("1.5,8.5", "25,2", "0.5"));
        assert_eq!(report["links"], serde_json::json!([1, 3]), "{mode}: {report}");
        assert!((report["cost"].as_f64().unwrap() - (0.5f64.sqrt() + 50f64.sqrt() + 5.0)).abs() < 1e-12);
        let report = json(&path("1.5,8.5", "25,2", "1.2"));
        assert_eq!(report["links"], serde_json::json!([1]), "{mode}: {report}");
        assert!((report["cost"].as_f64().unwrap() - (84.5f64.sqrt() + 5.0)).abs() < 1e-12, "{report}");
    }
    // A bench with a radius on the mesh with links.
    let scen = dir.path().join("links.scen");
    std::fs::write(&scen, "version 1\n0 links.json 30 10 5 2 25 2 8\n0 links.json 30 10 25 2 5 2 1\n")
        .unwrap();
    for mode in ["fast", "optimal"] {
        let args =
            ["bench", &nav, "--scen", scen.to_str().unwrap(), "--mode", mode, "--radius", "0.5", "--json"];
        let out = trinav(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report = json(&out);
        assert_eq!((report["queries"].as_u64(), report["found"].as_u64()), (Some(2), Some(1)), "{report}");
    }
}

/// Area costs on a mesh with links, both modes: walking at the area's cost, a link at its own.
#[test]
fn costs_compose_with_links_in_path_and_bench() {
    let dir = tempfile::tempdir().unwrap();
    let nav = baked(&dir);
    for mode in ["fast", "optimal"] {
        // 3 walked at 2, the drop at 2 (not doubled), 3 walked at 2.
        let args = ["path", &nav, "--from", "5,2", "--to", "25,2", "--mode", mode, "--cost", "0=2", "--json"];
        let out = trinav(&args);
        assert_eq!(out.status.code(), Some(0), "{mode}: {}", String::from_utf8_lossy(&out.stderr));
        let report = json(&out);
        assert_eq!(report["links"], serde_json::json!([1]), "{mode}: {report}");
        let (length, cost) = (report["length"].as_f64().unwrap(), report["cost"].as_f64().unwrap());
        assert!((length - 6.0).abs() < 1e-9 && (cost - 14.0).abs() < 1e-9, "{mode}: {report}");
        // Back up: still no way.
        let args = ["path", &nav, "--from", "25,2", "--to", "5,2", "--mode", mode, "--cost", "0=2"];
        assert_eq!(trinav(&args).status.code(), Some(1), "{mode}");
        let scen = dir.path().join("costs.scen");
        std::fs::write(&scen, "version 1\n0 links.json 30 10 5 2 25 2 8\n").unwrap();
        let scen = scen.to_str().unwrap();
        let out = trinav(&["bench", &nav, "--scen", scen, "--mode", mode, "--cost", "0=2", "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(json(&out)["found"].as_u64(), Some(1));
    }
}

#[test]
fn render_draws_links_as_arrows_and_bench_runs() {
    let dir = tempfile::tempdir().unwrap();
    let nav = baked(&dir);
    let svg = dir.path().join("links.svg");
    let out = trinav(&["render", &nav, "-o", svg.to_str().unwrap(), "--from", "5,2", "--to", "25,2"]);
    assert!(out.status.success());
    let svg = std::fs::read_to_string(svg).unwrap();
    assert_eq!(svg.matches("<line class=\"link\"").count(), 2);
    assert_eq!(svg.matches("marker-start=").count(), 1, "the teleporter has two heads");
    // A bench on the mesh: the references are the costs (walked length plus links).
    let scen = dir.path().join("links.scen");
    let via_teleporter = 0.5 + 50f64.sqrt() + 5.0;
    let lines = format!(
        "version 1\n0 links.json 30 10 5 2 25 2 8\n0 links.json 30 10 1 9.5 25 2 {via_teleporter}\n0 links.json 30 10 25 2 5 2 1\n"
    );
    std::fs::write(&scen, lines).unwrap();
    for mode in ["fast", "optimal"] {
        let out = trinav(&["bench", &nav, "--scen", scen.to_str().unwrap(), "--mode", mode, "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report = json(&out);
        assert_eq!((report["queries"].as_u64(), report["found"].as_u64()), (Some(3), Some(2)), "{report}");
        let ratio = report["ratio_max"].as_f64().unwrap();
        assert!((ratio - 1.0).abs() < 1e-12, "{report}");
    }
}

/// Ground [0, 10]²; upper: a ramp [10, 14] × [0, 2] up to a floor [0, 14] × [2, 10] over the
/// ground, the ramp's foot x = 10, y in [0, 2], a portal.
const LAYERED: &str = r#"{
  "layers": [
    {"name": "ground", "walkable": [{"outer": [[0, 0], [10, 0], [10, 10], [0, 10]]}]},
    {"name": "upper", "walkable": [{"outer": [[10, 0], [14, 0], [14, 10], [0, 10], [0, 2], [10, 2]]}]}
  ],
  "portals": [{"layers": ["ground", "upper"], "from": [10, 0], "to": [10, 2]}]
}"#;

#[test]
fn layers_bake_inspect_path_and_render() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("floors.json");
    std::fs::write(&level, LAYERED).unwrap();
    let nav = dir.path().join("floors.nav").to_str().unwrap().to_string();
    let out = trinav(&["bake", level.to_str().unwrap(), "-o", &nav, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json(&out)["layers"], 2);
    let report = json(&trinav(&["inspect", &nav, "--json"]));
    assert_eq!(report["layers"], serde_json::json!(["ground", "upper"]));
    assert_eq!((report["portal_edges"].as_u64(), report["valid"].as_bool()), (Some(1), Some(true)));
    assert!(stdout(&trinav(&["inspect", &nav])).contains("layers 2: ground, upper; portal edges 1"));
    // Round the ramp's inner corner, in both modes: 2 √34.
    for mode in ["fast", "optimal"] {
        let out =
            trinav(&["path", &nav, "--from", "ground:5,5", "--to", "upper:5,5", "--mode", mode, "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let path = json(&out);
        assert_eq!(path["points"], serde_json::json!([[5.0, 5.0], [10.0, 2.0], [5.0, 5.0]]));
        assert_eq!(path["layers"], serde_json::json!(["ground", "ground", "upper"]));
        assert!((path["length"].as_f64().unwrap() - 2.0 * 34f64.sqrt()).abs() < 1e-12);
    }
    // The layer may be left out where one layer holds the point; text names each point's layer.
    let out = trinav(&["path", &nav, "--from", "5,1", "--to", "upper:12,5"]);
    assert!(stdout(&out).contains("ground:(5, 1) ground:(10, 2) upper:(12, 5)"), "{}", stdout(&out));
    // Ambiguous or unknown layers: exit 2, naming the problem.
    let out = trinav(&["path", &nav, "--from", "5,5", "--to", "12,5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("lies on several layers: name one"));
    let out = trinav(&["path", &nav, "--from", "attic:5,5", "--to", "12,5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("unknown layer \"attic\" (the mesh has layers: ground, upper)")
    );
    let out = trinav(&["path", &nav, "--from", "upper:5,1", "--to", "12,5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not on layer 1"));
    // Render: the layers side by side, the portal dashed, the path on both panels (a segment
    // whose ends are on two layers is drawn on both).
    let svg = dir.path().join("floors.svg");
    let out =
        trinav(&["render", &nav, "-o", svg.to_str().unwrap(), "--from", "ground:5,5", "--to", "upper:5,5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(
        svg.contains("id=\"portals\"") && svg.contains(">ground</text>") && svg.contains(">upper</text>")
    );
    assert_eq!(svg.matches("class=\"path\"").count(), 3);
}

/// West [0, 10]² and east [10, 20] × [0, 10] on two layers, side by side (no overlap), joined
/// by the portal x = 10, y in [4, 6].
const SIDE_BY_SIDE: &str = r#"{
  "layers": [
    {"name": "west", "walkable": [{"outer": [[0, 0], [10, 0], [10, 10], [0, 10]]}]},
    {"name": "east", "walkable": [{"outer": [[10, 0], [20, 0], [20, 10], [10, 10]]}]}
  ],
  "portals": [{"layers": ["west", "east"], "from": [10, 4], "to": [10, 6]}]
}"#;

#[test]
fn a_radius_on_layers_path_and_bench() {
    let dir = tempfile::tempdir().unwrap();
    let bake_json = |name: &str, text: &str| {
        let level = dir.path().join(format!("{name}.json"));
        std::fs::write(&level, text).unwrap();
        let nav = dir.path().join(format!("{name}.nav")).to_str().unwrap().to_string();
        let out = trinav(&["bake", level.to_str().unwrap(), "-o", &nav]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        nav
    };
    let nav = bake_json("side", SIDE_BY_SIDE);
    for mode in ["fast", "optimal"] {
        // Through the 2-wide portal, round its upper end at the radius.
        let args =
            ["path", &nav, "--from", "west:5,9", "--to", "east:15,9", "--radius", "0.9", "--mode", mode];
        let out = trinav(&[&args[..], &["--json"]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let path = json(&out);
        let points = path["points"].as_array().unwrap();
        let layers = path["layers"].as_array().unwrap();
        assert_eq!(
            (layers.first().unwrap(), layers.last().unwrap()),
            (&serde_json::json!("west"), &serde_json::json!("east"))
        );
        for q in points {
            let (x, y) = (q[0].as_f64().unwrap(), q[1].as_f64().unwrap());
            assert!((x - 10.0).hypot(y - 6.0) >= 0.9 * (1.0 - 1e-3), "{path}");
        }
        // Wider than the portal: no path (exit 1).
        let out = trinav(&[
            "path",
            &nav,
            "--from",
            "west:5,5",
            "--to",
            "east:15,5",
            "--radius",
            "1.05",
            "--mode",
            mode,
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    }
    // Bench with a radius: the straight query and the one round the portal's end are found.
    let scen = dir.path().join("side.scen");
    std::fs::write(&scen, "version 1\n0 side.json 20 10 5 5 15 5 10\n0 side.json 20 10 5 9 15 9 0\n")
        .unwrap();
    for mode in ["fast", "optimal"] {
        let out = trinav(&[
            "bench",
            &nav,
            "--scen",
            scen.to_str().unwrap(),
            "--radius",
            "0.9",
            "--mode",
            mode,
            "--json",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report = json(&out);
        assert_eq!((report["queries"].as_u64(), report["found"].as_u64()), (Some(2), Some(2)), "{report}");
    }
    // Where the floor folds round a portal's end (the ramp turns back over its own foot, 450
    // degrees round (10, 2)), the disc goes round that end by 190 degrees: the two tangents
    // from (5, 5) and the arc, as chords a little longer (see `tests/layers.rs` in the baker).
    let nav = bake_json("floors", LAYERED);
    let (d, r) = (34f64.sqrt(), 0.5);
    let exact = 2.0 * (d * d - r * r).sqrt() + r * (std::f64::consts::TAU - 2.0 * (r / d).acos());
    for mode in ["fast", "optimal"] {
        let out = trinav(&[
            "path",
            &nav,
            "--from",
            "ground:5,5",
            "--to",
            "upper:5,5",
            "--radius",
            "0.5",
            "--mode",
            mode,
            "--json",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let length = json(&out)["length"].as_f64().unwrap();
        assert!(length >= exact && length <= exact * 1.001, "{mode}: {length} against {exact}");
    }
    // One and a half turns round it (a third floor under the upper one's wall over the ramp's
    // foot, joined by a portal): a radius is refused (exit 2).
    let deep = LAYERED
        .replace(
            r#"{"name": "upper","#,
            r#"{"name": "lower", "walkable": [{"outer": [[0, 0], [10, 0], [10, 2], [0, 2]]}]},
    {"name": "upper","#,
        )
        .replace(
            r#""portals": ["#,
            r#""portals": [{"layers": ["upper", "lower"], "from": [0, 2], "to": [10, 2]}, "#,
        );
    let nav = bake_json("deep", &deep);
    let out = trinav(&["path", &nav, "--from", "ground:5,5", "--to", "upper:5,5", "--radius", "0.5"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("an agent radius where the floor turns one and a half turns or more"),
        "{stderr}"
    );
}

/// A radius where layers overlap without folding: `data/levels/overpass.json`, a bridge over a
/// road with a ladder between them. Along the road under the bridge, bank to bank over it,
/// and down the ladder, in both modes: every point at least the radius from the walls of its
/// own layer (the road's edges lie under the bridge).
#[test]
fn a_radius_on_a_bridge_over_a_road() {
    let dir = tempfile::tempdir().unwrap();
    let level = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/levels/overpass.json");
    let nav = dir.path().join("overpass.nav").to_str().unwrap().to_string();
    let out = trinav(&["bake", level.to_str().unwrap(), "-o", &nav]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for mode in ["fast", "optimal"] {
        let path = |from: &str, to: &str, radius: &str| {
            let out = trinav(&[
                "path", &nav, "--from", from, "--to", to, "--radius", radius, "--mode", mode, "--json",
            ]);
            assert!(out.status.success(), "{from} -> {to}: {}", String::from_utf8_lossy(&out.stderr));
            json(&out)
        };
        // The road is 6 wide: a disc of radius 2.5 goes along it under the bridge, whose sides
        // (x = 26 and 34) are not its walls.
        let road = path("ground:3,23", "ground:57,23", "2.5");
        assert_eq!(road["points"], serde_json::json!([[3.0, 23.0], [57.0, 23.0]]), "{mode}");
        // The bridge is 8 wide with a block [29, 31] x [22, 24] on it: radius 1.2 passes.
        let over = path("ground:30,8", "ground:27.5,40", "1.2");
        let layers = over["layers"].as_array().unwrap();
        assert!(layers.contains(&serde_json::json!("bridge")), "{over}");
        for q in over["points"].as_array().unwrap() {
            let x = q[0].as_f64().unwrap();
            // Between the bridge's sides (26 and 34) by the radius while over the road.
            let y = q[1].as_f64().unwrap();
            if (14.0..=32.0).contains(&y) {
                assert!((26.0 + 1.2 * (1.0 - 1e-9)..=34.0 - 1.2 * (1.0 - 1e-9)).contains(&x), "{over}");
            }
        }
        // A disc wider than the road: not from the road (no clearance, exit 1).
        let out = trinav(&["path", &nav, "--from", "ground:3,23", "--to", "ground:57,23", "--radius", "3.5"]);
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
        // From the road up the ladder (33, 21) onto the bridge.
        let up = path("ground:45,23", "bridge:30,28", "0.5");
        assert_eq!(up["links"].as_array().map(Vec::len), Some(1), "{up}");
    }
}
