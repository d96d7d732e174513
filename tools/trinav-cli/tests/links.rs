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
    assert_eq!((report["links"].as_u64(), report["format_version"].as_u64()), (Some(2), Some(4)));
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
