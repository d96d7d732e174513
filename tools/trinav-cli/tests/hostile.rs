//! Every command of the real `trinav` binary against hostile inputs.
//!
//! One table of cases (command, arguments, where its output goes, what stderr must name). For
//! each case: the exit status is 2 (an error, not 101 = a panic, not a signal); stderr is
//! exactly one line, starting with `trinav: `, naming the offending file (or point) and what is
//! wrong; no output file is created, an existing one is left byte for byte as it was, and no
//! temporary file is left next to the output or the inputs. `trinav view` must fail before it
//! serves (a run still going after a minute is killed and counted as a failure).
//!
//! Also: the exit statuses of `trinav path` (0 found, 1 not connected, 2 error) as the README
//! documents them, and that a closed stdout is not an error.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_trinav");
/// What an existing output file holds before a failing run.
const PRECIOUS: &[u8] = b"precious: must survive a failed run\n";

fn trinav(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(path).to_str().unwrap().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(unix)]
fn signal(status: ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal(_: ExitStatus) -> Option<i32> {
    None
}

/// What is wrong with an exit status, if anything, for a run that must fail with `expected`.
fn status_problem(status: ExitStatus, expected: i32) -> Option<String> {
    if let Some(sig) = signal(status) {
        return Some(format!("killed by signal {sig}"));
    }
    match status.code() {
        Some(101) => Some("exit status 101: a panic".to_string()),
        Some(0) => Some("exit status 0: the error was not reported".to_string()),
        Some(code) if code != expected => Some(format!("exit status {code}, expected {expected}")),
        Some(_) => None,
        None => Some("no exit status".to_string()),
    }
}

/// What is wrong with an error's stderr, if anything: it must be one line starting with
/// `trinav: ` and containing every string of `expect`.
fn stderr_problem(stderr: &[u8], expect: &[String]) -> Option<String> {
    let err = text(stderr);
    if !(err.starts_with("trinav: ") && err.ends_with('\n') && err.matches('\n').count() == 1) {
        return Some(format!("stderr is not one `trinav: ` line: {err:?}"));
    }
    let missing: Vec<&String> = expect.iter().filter(|s| !err.contains(s.as_str())).collect();
    (!missing.is_empty()).then(|| format!("stderr {err:?} does not contain {missing:?}"))
}

/// The names and contents of the files directly in `dir` (sub-folders as `name/`), sorted.
fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut entries: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                (format!("{name}/"), Vec::new())
            } else {
                (name, std::fs::read(e.path()).unwrap())
            }
        })
        .collect();
    entries.sort();
    entries
}

/// The standard CRC-32 (for the PNG chunks and for resealing a `.nav`), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A PNG chunk: length, type, data, CRC of type and data.
fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let crc = crc32(&[&kind[..], data].concat());
    [&(data.len() as u32).to_be_bytes()[..], kind, data, &crc.to_be_bytes()].concat()
}

/// The input files of every case, in one folder that no case may change, and a port in use.
struct Fixture {
    dir: tempfile::TempDir,
    /// Holds a loopback port, so that `trinav view --port` on it fails.
    taken: std::net::TcpListener,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let fixture = Fixture { dir, taken };
        for (level, nav) in [
            ("levels/town.json", "town.nav"),
            ("maps/tiny.map", "tiny.nav"),
            ("levels/overpass.json", "overpass.nav"),
            ("levels/terrain.json", "terrain.nav"),
        ] {
            let out = trinav(&["bake", &data(level), "-o", &fixture.path(nav)]);
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
        let town = std::fs::read(fixture.path("town.nav")).unwrap();
        let mut flipped = town.clone();
        flipped[town.len() / 2] ^= 0x10;
        // Vertex 0's x coordinate set to NaN and the checksum recomputed: a file whose frame
        // is valid and whose contents break a rule. The first vertex's x lies after the
        // 28-byte header and the settings (two f64 and a one-byte enum).
        let mut nan_vertex = town.clone();
        let x_at = 28 + 17;
        let vertex0 = trinav::NavMesh::from_bytes(&town).unwrap().vertices()[0];
        assert_eq!(town[x_at..x_at + 8], vertex0.x.to_le_bytes(), "vertex 0's x is where expected");
        nan_vertex[x_at..x_at + 8].copy_from_slice(&f64::NAN.to_le_bytes());
        let end = nan_vertex.len() - 4;
        let crc = crc32(&nan_vertex[..end]);
        nan_vertex[end..].copy_from_slice(&crc.to_le_bytes());
        // A link whose end is off the mesh, in a file whose frame and checksum are valid: the
        // links block (version 3), the layers block (version 4, a count of 0 for one layer)
        // and the area names block (version 5, a count of 0) end the payload, the link count
        // 12 bytes before the checksum.
        let blocks_at = town.len() - 16;
        assert_eq!(town[blocks_at..town.len() - 4], [0u8; 12], "town.nav has no links, one layer, no names");
        let sealed = |mut bytes: Vec<u8>| {
            let payload = (bytes.len() - 28) as u64;
            bytes[20..28].copy_from_slice(&payload.to_le_bytes());
            let crc = crc32(&bytes);
            bytes.extend_from_slice(&crc.to_le_bytes());
            bytes
        };
        let mut bad_link = town[..blocks_at].to_vec();
        bad_link.extend_from_slice(&1u32.to_le_bytes());
        for v in [5.0f64, 5.0, 1e6, 1e6, 1.0] {
            bad_link.extend_from_slice(&v.to_le_bytes());
        }
        bad_link.push(0);
        bad_link.extend_from_slice(&[0u8; 8]);
        let bad_link = sealed(bad_link);
        // An area name for type 70 (there are 64), the rest of the file valid.
        let mut bad_name = town[..blocks_at + 8].to_vec();
        bad_name.extend_from_slice(&1u32.to_le_bytes());
        bad_name.push(70);
        bad_name.extend_from_slice(&4u32.to_le_bytes());
        bad_name.extend_from_slice(b"lava");
        let bad_name = sealed(bad_name);
        // Deterministic bytes, not valid UTF-8.
        let garbage: Vec<u8> =
            (0..512u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x80).collect();
        let png = std::fs::read(data("maps/tiny.png")).unwrap();
        let huge_png = [
            &b"\x89PNG\r\n\x1a\n"[..],
            &png_chunk(
                b"IHDR",
                &[&100_000u32.to_be_bytes()[..], &100_000u32.to_be_bytes(), &[8, 0, 0, 0, 0]].concat(),
            ),
            &png_chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
            &png_chunk(b"IEND", &[]),
        ]
        .concat();
        let mesh = std::fs::read_to_string(data("meshes/tiny.mesh")).unwrap();
        let bad_index = mesh.replacen("1 3 1 2 5 4 0 2", "1 3 1 2 99 4 0 2", 1);
        assert_ne!(bad_index, mesh, "the polygon line to damage is in tiny.mesh");
        let deep =
            format!("{{\"walkable\": [{{\"outer\": [[0,0],[1,0],[1,1]], \"holes\": {}", "[".repeat(100_000));

        let files: Vec<(&str, Vec<u8>)> = vec![
            ("empty.nav", Vec::new()),
            ("garbage.nav", garbage.clone()),
            ("truncated.nav", town[..town.len() / 2].to_vec()),
            ("flipped.nav", flipped),
            ("nan_vertex.nav", nan_vertex),
            ("bad_link.nav", bad_link),
            ("bad_name.nav", bad_name),
            ("empty.json", Vec::new()),
            ("garbage.json", garbage.clone()),
            ("huge_1e400.json", br#"{"walkable": [{"outer": [[0,0],[1e400,0],[1,1]]}]}"#.to_vec()),
            ("huge_neg_1e400.json", br#"{"walkable": [{"outer": [[0,0],[4,0],[4,-1e400]]}]}"#.to_vec()),
            ("huge_1e300.json", br#"{"walkable": [{"outer": [[0,0],[1e300,0],[1,1]]}]}"#.to_vec()),
            (
                "huge_obstacle.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "obstacles": [{"outer": [[1,1],[2,1],[2,268435457]]}]}"#.to_vec(),
            ),
            ("nan_token.json", br#"{"walkable": [{"outer": [[0,0],[NaN,0],[1,1]]}]}"#.to_vec()),
            ("two_points.json", br#"{"walkable": [{"outer": [[0,0],[4,0]]}]}"#.to_vec()),
            ("bowtie.json", br#"{"walkable": [{"outer": [[0,0],[2,2],[2,0],[0,2]]}]}"#.to_vec()),
            ("deep.json", deep.into_bytes()),
            (
                "area_zero.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "areas": [{"outer": [[0,0],[1,0],[1,1]], "area": 2}, {"outer": [[0,0],[1,0],[1,1]], "area": 0}]}"#.to_vec(),
            ),
            ("area_64.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "areas": [{"outer": [[0,0],[1,0],[1,1]], "area": 64}]}"#.to_vec()),
            ("area_256.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "areas": [{"outer": [[0,0],[1,0],[1,1]], "area": 256}]}"#.to_vec()),
            ("area_no_type.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "areas": [{"outer": [[0,0],[1,0],[1,1]]}]}"#.to_vec()),
            ("area_bowtie.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "areas": [{"outer": [[0,0],[2,2],[2,0],[0,2]], "area": 1}]}"#.to_vec()),
            ("area_nan.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "areas": [{"outer": [[0,0],[1,0],[1,1e300]], "area": 1}]}"#.to_vec()),
            ("area_name_number.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "area_names": {"7": 7}}"#.to_vec()),
            ("area_name_twice.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "area_names": {"mud": 2, "swamp": 2}}"#.to_vec()),
            ("area_name_range.json", br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9]]}], "area_names": {"lava": 99}}"#.to_vec()),
            (
                "link_off.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "links": [{"from": [1,1], "to": [50,50]}]}"#.to_vec(),
            ),
            (
                "link_in_obstacle.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "obstacles": [{"outer": [[4,4],[6,4],[6,6],[4,6]]}],
                  "links": [{"from": [1,1], "to": [2,2]}, {"from": [5,5], "to": [1,1], "bidirectional": true}]}"#.to_vec(),
            ),
            (
                "link_negative.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "links": [{"from": [1,1], "to": [2,2], "cost": -1}]}"#.to_vec(),
            ),
            (
                "link_cost_1e400.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "links": [{"from": [1,1], "to": [2,2], "cost": 1e400}]}"#.to_vec(),
            ),
            (
                "link_unknown_field.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "links": [{"from": [1,1], "to": [2,2], "speed": 3}]}"#.to_vec(),
            ),
            (
                "layer_twice.json",
                br#"{"layers": [{"name": "a", "walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}]}, {"name": "a"}]}"#.to_vec(),
            ),
            (
                "portal_unknown_layer.json",
                br#"{"layers": [{"name": "a", "walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}]}],
                  "portals": [{"layers": ["a", "b"], "from": [9,0], "to": [9,9]}]}"#.to_vec(),
            ),
            (
                "portal_off_boundary.json",
                br#"{"layers": [{"name": "a", "walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}]},
                                {"name": "b", "walkable": [{"outer": [[9,0],[12,0],[12,9],[9,9]]}]}],
                  "portals": [{"layers": ["a", "b"], "from": [5,0], "to": [5,9]}]}"#.to_vec(),
            ),
            (
                "link_unknown_layer.json",
                br#"{"layers": [{"name": "a", "walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}]}],
                  "links": [{"from": [1,1], "to": [2,2], "layers": ["a", "roof"]}]}"#.to_vec(),
            ),
            (
                "layers_and_walkable.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "layers": [{"name": "a"}]}"#.to_vec(),
            ),
            (
                "link_short_point.json",
                br#"{"walkable": [{"outer": [[0,0],[9,0],[9,9],[0,9]]}], "links": [{"from": [1], "to": [2,2]}]}"#.to_vec(),
            ),
            ("short_row.map", b"type octile\nheight 3\nwidth 4\nmap\n....\n...\n....\n".to_vec()),
            ("long_row.map", b"type octile\nheight 2\nwidth 2\nmap\n..\n...\n".to_vec()),
            ("few_rows.map", b"type octile\nheight 3\nwidth 4\nmap\n....\n....\n".to_vec()),
            ("extra_rows.map", b"type octile\nheight 1\nwidth 2\nmap\n..\n..\n".to_vec()),
            ("huge_header.map", b"type octile\nheight 32768\nwidth 32768\nmap\n".to_vec()),
            ("too_large.map", b"type octile\nheight 4000000000\nwidth 4\nmap\n".to_vec()),
            ("empty.map", Vec::new()),
            ("truncated.png", png[..png.len() / 2].to_vec()),
            ("empty.png", Vec::new()),
            ("huge.png", huge_png),
            ("bad_index.mesh", bad_index.into_bytes()),
            ("huge_count.mesh", b"mesh\n2\n4000000000 4000000000\n".to_vec()),
            // Five triangles fanned one and a quarter turns round (0, 0): faces that overlap.
            (
                "overlapping_faces.mesh",
                b"mesh\n3\n7 5\n0 0\n10 0\n0 8\n-10 0\n0 -8\n10 0\n0 8\n1 3 1 2 3 2 0 0\n1 3 1 3 4 3 1 0\n\
                  1 3 1 4 5 4 2 0\n1 3 1 5 6 5 3 0\n1 3 1 6 7 0 4 0\n"
                    .to_vec(),
            ),
            ("empty.mesh", Vec::new()),
            ("garbage.mesh", garbage.clone()),
            ("bad.poly", b"poly\n1\n1\n3\n0 0 1 0\n".to_vec()),
            ("bad_number.scen", b"version 1\n0\ttiny.map\t8\t6\tx\t0\t7\t0\t7\n".to_vec()),
            ("columns.scen", b"version 1\n0 tiny.map 8 6 0 0 7 0\n".to_vec()),
            ("not_finite.scen", b"version 1\n0 tiny.map 8 6 1e999 0 7 0 7\n".to_vec()),
            ("negative_cost.scen", b"version 1\n0 tiny.map 8 6 0 0 7 0 -7\n".to_vec()),
            ("no_header.scen", b"0 tiny.map 8 6 0 0 7 0 7\n".to_vec()),
            ("empty.scen", Vec::new()),
            ("garbage.scen", garbage),
            ("problems/bad.problem", b"sx:\t0\nsy:\tnot a number\nex:\t1\ney:\t1\nshortestPathLength:\t1\n".to_vec()),
            ("maze/maze.txt", b"3 2\n0 1 0\n".to_vec()),
            ("obstacle_box.json", br#"{"outer": [[40,40],[50,40],[50,50],[40,50]]}"#.to_vec()),
            ("obstacle_bowtie.json", br#"{"outer": [[0,0],[2,2],[2,0],[0,2]]}"#.to_vec()),
            ("obstacle_huge.json", br#"{"outer": [[1,1],[2,1],[2,268435457]]}"#.to_vec()),
            ("obstacle_nan.json", br#"{"outer": [[1,1],[NaN,1],[2,2]]}"#.to_vec()),
            ("obstacle_roof.json", br#"{"layer": "roof", "outer": [[29,16],[31,16],[31,18],[29,18]]}"#.to_vec()),
            ("obstacle_layer_number.json", br#"{"layer": 1, "outer": [[29,16],[31,16],[31,18],[29,18]]}"#.to_vec()),
            (
                "chunks.json",
                br#"{"layers": [{"name": "west", "walkable": [{"outer": [[0,0],[10,0],[10,10],[0,10]]}]},
                               {"name": "east", "walkable": [{"outer": [[10,0],[20,0],[20,10],[10,10]]}]}],
                    "portals": [{"layers": ["west", "east"], "from": [10,0], "to": [10,10]}]}"#.to_vec(),
            ),
            ("obstacle_by_portal.json", br#"{"layer": "west", "outer": [[8,4],[9.75,4],[9.75,5],[8,5]]}"#.to_vec()),
            ("changes_no_layer.json", br#"[{"add": {"layer": "bridge", "outer": [[29,16],[31,16],[31,18]]}}, {"add": {"outer": [[29,26],[31,26],[31,28]]}}]"#.to_vec()),
            ("changes_unknown.json", br#"[{"rotate": {"id": 0, "by": 90}}]"#.to_vec()),
            ("changes_remove.json", br#"[{"add": {"outer": [[40,40],[50,40],[50,50]]}}, {"remove": 7}]"#.to_vec()),
            ("dyn/ok.patch", b"type patch\npatches 1\npatch 0\nheight 2\nwidth 2\nmap\n@@\n@.\n".to_vec()),
            ("dyn/bad.patch", b"type patch\npatches 1\npatch 0\nheight 2\nwidth 2\nmap\n@@\n@\n".to_vec()),
            (
                "dyn/good.scen",
                b"version 2\nheight 4\nwidth 4\ncost 1 octile\npatch ok.patch\ncommands\nP 0 0 1 1\nQ 0 0 0 3 3 4.2426\n".to_vec(),
            ),
            (
                "dyn/outside.scen",
                b"version 2\nheight 4\nwidth 4\npatch ok.patch\ncommands\nQ 0 0 0 3 3 4.2426\nP 1 0 3 3\n".to_vec(),
            ),
            ("dyn/unknown_patch.scen", b"version 2\nheight 4\nwidth 4\npatch ok.patch\ncommands\nP 1 5 0 0\n".to_vec()),
            ("dyn/no_patch_file.scen", b"version 2\nheight 4\nwidth 4\npatch gone.patch\ncommands\n".to_vec()),
            ("dyn/bad_patch.scen", b"version 2\nheight 4\nwidth 4\npatch bad.patch\ncommands\n".to_vec()),
            ("dyn/query_outside.scen", b"version 2\nheight 4\nwidth 4\npatch ok.patch\ncommands\nQ 0 0 0 4 0 4\n".to_vec()),
            ("dyn/bad_length.scen", b"version 2\nheight 4\nwidth 4\npatch ok.patch\ncommands\nQ 0 0 0 3 0 -3\n".to_vec()),
            ("dyn/no_width.scen", b"version 2\nheight 4\npatch ok.patch\ncommands\nP 0 0 0 0\n".to_vec()),
            ("a_folder/keep", b"x".to_vec()),
            ("folder.json/keep", b"x".to_vec()),
            ("folder.nav/keep", b"x".to_vec()),
        ];
        for (name, content) in files {
            let path = fixture.dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, content).unwrap();
        }
        // Two rooms joined by a portal, baked at a radius (the bake inflates across portals).
        let out = trinav(&[
            "bake",
            &fixture.path("chunks.json"),
            "-o",
            &fixture.path("chunks_r.nav"),
            "--agent-radius",
            "0.5",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        fixture
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).to_str().unwrap().to_string()
    }
}

/// Where a case's output goes.
#[derive(Clone, Copy)]
enum Out {
    /// The command writes no file.
    Nothing,
    /// A file of this name in a fresh folder: run once without it (it must not appear) and
    /// once with it holding [`PRECIOUS`] (it must be unchanged).
    File(&'static str),
    /// A file of this name in a folder that does not exist (which must not appear).
    MissingFolder(&'static str),
    /// An existing folder of this name (it and its contents must be unchanged).
    Folder(&'static str),
}

struct Case {
    name: String,
    /// The arguments; `{OUT}` stands for the output path.
    args: Vec<String>,
    out: Out,
    /// What stderr must contain: the offending file (or point) and what is wrong.
    expect: Vec<String>,
}

fn case(name: impl Into<String>, args: &[&str], out: Out, expect: &[&str]) -> Case {
    Case {
        name: name.into(),
        args: args.iter().map(|s| s.to_string()).collect(),
        out,
        expect: expect.iter().map(|s| s.to_string()).collect(),
    }
}

/// Every case of the table.
fn cases(f: &Fixture) -> Vec<Case> {
    let p = |name: &str| f.path(name);
    let mut cases = Vec::new();

    // Mesh files read by inspect, path, render and bench: (file, what stderr says).
    let bad_meshes: Vec<(String, &str)> = vec![
        (p("missing.nav"), "cannot read"),
        (p("a_folder"), "cannot read"),
        (p("folder.nav"), "cannot read"),
        (p("empty.nav"), "too short"),
        (p("garbage.nav"), "bad magic"),
        (p("truncated.nav"), "truncated"),
        (p("flipped.nav"), "checksum mismatch"),
        (p("nan_vertex.nav"), "vertex 0 has a NaN, infinite or out-of-range"),
        (p("bad_link.nav"), "off-mesh link 0: link to point (1000000, 1000000) is not on the walkable area"),
        (p("bad_name.nav"), "area name \"lava\": area type 70 is outside 1..=63"),
        (data("levels/town.json"), "bad magic"),
    ];
    let scen = data("maps/tiny.map.scen");
    for (mesh, what) in &bad_meshes {
        let file = mesh.as_str();
        let short = Path::new(file).file_name().unwrap().to_string_lossy().into_owned();
        cases.push(case(format!("inspect {short}"), &["inspect", file], Out::Nothing, &[file, *what]));
        cases.push(case(
            format!("inspect --json {short}"),
            &["inspect", file, "--json"],
            Out::Nothing,
            &[file, *what],
        ));
        let path_args = ["path", file, "--from", "5,5", "--to", "120,40"];
        cases.push(case(format!("path {short}"), &path_args, Out::Nothing, &[file, *what]));
        let render_args = ["render", file, "-o", "{OUT}", "--from", "5,5", "--to", "120,40"];
        cases.push(case(format!("render {short}"), &render_args, Out::File("out.svg"), &[file, *what]));
        let bench_args = ["bench", file, "--scen", &scen, "--paths", "{OUT}"];
        cases.push(case(format!("bench {short}"), &bench_args, Out::File("out.jsonl"), &[file, *what]));
    }

    // Level files read by bake: (file, what stderr says).
    let bad_levels: Vec<(String, &str)> = vec![
        (p("missing.json"), "cannot read level"),
        (p("folder.json"), "cannot read level"),
        (p("a_folder"), "unknown level format"),
        (p("town.nav"), "unknown level format (extension `nav`)"),
        (p("empty.json"), "line 1"),
        (p("garbage.json"), "cannot read level"),
        (p("huge_1e400.json"), "number out of range"),
        (p("huge_neg_1e400.json"), "number out of range"),
        (p("huge_1e300.json"), "walkable[0] outer ring, point 1: coordinate"),
        (p("huge_obstacle.json"), "exceeds the limit of ±268435456"),
        (p("nan_token.json"), "line 1"),
        (p("two_points.json"), "walkable[0] outer ring: needs at least 3 distinct points"),
        (p("bowtie.json"), "segment 0-1 (0, 0)-(2, 2) and segment 2-3 (2, 0)-(0, 2) cross at (1, 1)"),
        (p("deep.json"), "line 1"),
        (p("area_zero.json"), "areas[1]: area type 0 is outside 1..=63"),
        (p("area_64.json"), "areas[0]: area type 64 is outside 1..=63"),
        (p("area_256.json"), "expected u8"),
        (p("area_no_type.json"), "missing field `area`"),
        (p("area_bowtie.json"), "areas[0] outer ring: segment 0-1 (0, 0)-(2, 2) and segment 2-3"),
        (p("area_nan.json"), "areas[0] outer ring, point 2: coordinate"),
        (p("area_name_number.json"), "area_names: \"7\": a name must not be a number"),
        (p("area_name_twice.json"), "area_names: \"swamp\": area type 2 is named \"mud\" already"),
        (p("area_name_range.json"), "area_names: \"lava\": area type 99 is outside 1..=63"),
        (
            p("link_off.json"),
            "link 0 (from [1, 1] to [50, 50]): link to point (50, 50) is not on the walkable area",
        ),
        (
            p("link_in_obstacle.json"),
            "link 1 (from [5, 5] to [1, 1]): link from point (5, 5) is not on the walkable area",
        ),
        (p("link_negative.json"), "link 0 (from [1, 1] to [2, 2]): link cost -1 must be finite and >= 0"),
        (p("link_cost_1e400.json"), "number out of range"),
        (p("link_unknown_field.json"), "unknown field `speed`"),
        (p("link_short_point.json"), "invalid length 1"),
        (p("layer_twice.json"), "layer 1: the name \"a\" is used by an earlier layer"),
        (p("portal_unknown_layer.json"), "portal 0: unknown layer \"b\""),
        (
            p("portal_off_boundary.json"),
            "portal 0 (layers \"a\" and \"b\", from [5, 0] to [5, 9]): not on the boundary of layer \"a\"'s walkable area",
        ),
        (p("link_unknown_layer.json"), "link 0: unknown layer \"roof\""),
        (p("layers_and_walkable.json"), "a level with \"layers\" keeps its walkable polygons"),
        (p("short_row.map"), "line 6: row 1 has 3 cells, the header declares 4"),
        (p("long_row.map"), "line 6: row 1 has 3 cells, the header declares 2"),
        (p("few_rows.map"), "2 rows, the header declares 3"),
        (p("extra_rows.map"), "more than the 1 rows the header declares"),
        (p("huge_header.map"), "0 rows, the header declares 32768"),
        (p("too_large.map"), "out of range"),
        (p("empty.map"), "missing `type` line"),
        (p("truncated.png"), "cannot decode image"),
        (p("empty.png"), "cannot decode image"),
        (p("huge.png"), "cannot decode image"),
        (p("bad_index.mesh"), "line 11: vertex index 98 out of range"),
        (p("huge_count.mesh"), "vertex count 4000000000 exceeds"),
        (
            p("overlapping_faces.mesh"),
            "boundary edges (10, 0)-(0, 8) and (10, 0)-(0, 8) cross: the faces overlap",
        ),
        (p("empty.mesh"), "file ends"),
        (p("garbage.mesh"), "cannot read level"),
        (p("bad.poly"), "file ends"),
        (p("maze/maze.txt"), "file ends"),
    ];
    for (level, what) in &bad_levels {
        let file = level.as_str();
        let short = file.strip_prefix(&format!("{}/", f.dir.path().display())).unwrap_or(file).to_string();
        cases.push(case(
            format!("bake {short}"),
            &["bake", file, "-o", "{OUT}"],
            Out::File("out.nav"),
            &[file, *what],
        ));
    }
    let town_json = data("levels/town.json");
    let bowtie = p("bowtie.json");
    let args = ["bake", &bowtie, "-o", "{OUT}", "--json"];
    cases.push(case("bake --json bowtie", &args, Out::File("out.nav"), &[&bowtie, "cross at (1, 1)"]));
    let args = ["bake", &town_json, "-o", "{OUT}", "--json"];
    cases.push(case(
        "bake to a missing folder",
        &args,
        Out::MissingFolder("out.nav"),
        &["missing/out.nav", "cannot write"],
    ));
    cases.push(case("bake onto a folder", &args, Out::Folder("taken"), &["taken", "cannot write"]));
    let radius = ["bake", &town_json, "-o", "{OUT}", "--agent-radius", "-1"];
    cases.push(case(
        "bake with a negative radius",
        &radius,
        Out::File("out.nav"),
        &[&town_json, "agent radius must be finite and >= 0"],
    ));
    let arc = ["bake", &town_json, "-o", "{OUT}", "--arc-error", "5"];
    cases.push(case(
        "bake with an arc error out of range",
        &arc,
        Out::File("out.nav"),
        &[&town_json, "arc error must be in"],
    ));
    // Layers that overlap (a bridge over a road) joined by portals: no bake radius.
    let overpass_json = data("levels/overpass.json");
    let overlap = ["bake", &overpass_json, "-o", "{OUT}", "--agent-radius", "0.5"];
    cases.push(case(
        "bake overlapping layers with a radius",
        &overlap,
        Out::File("out.nav"),
        &[&overpass_json, "overlap and are joined by portals", "give the radius to queries"],
    ));
    let mesh_radius = ["bake", &data("meshes/tiny.mesh"), "-o", "{OUT}", "--agent-radius", "1"];
    cases.push(case(
        "bake a .mesh with a radius",
        &mesh_radius,
        Out::File("out.nav"),
        &[&data("meshes/tiny.mesh")],
    ));

    // Grid terrain flags: a clear error naming the flag, nothing written.
    let (tiny_map, tiny_png) = (data("maps/tiny.map"), data("maps/tiny.png"));
    let terrain_cases: Vec<(&str, Vec<&str>, Vec<&str>)> = vec![
        (&tiny_map, vec!["--terrain", "X=2"], vec!["--terrain X=2", "letter `X` takes no area type"]),
        (&tiny_map, vec!["--terrain", "@=2"], vec!["--terrain @=2", "letter `@` takes no area type"]),
        (&tiny_map, vec!["--terrain", "SW=2"], vec!["--terrain SW=2", "`SW` is not one letter"]),
        (&tiny_map, vec!["--terrain", "S"], vec!["--terrain S", "expected LETTER=AREA"]),
        (&tiny_map, vec!["--terrain", "S=0"], vec!["--terrain S=0", "area type 0 is outside 1..=63"]),
        (
            &tiny_map,
            vec!["--terrain", "S=64"],
            vec!["--terrain S=64", "area type 64 is beyond the largest, 63"],
        ),
        (&tiny_map, vec!["--terrain", "S=-1"], vec!["--terrain S=-1", "unknown area name `-1`"]),
        (
            &tiny_map,
            vec!["--terrain", "S=2,S=3"],
            vec!["--terrain S=2,S=3", "letter `S` is given a type twice"],
        ),
        (&tiny_map, vec!["--terrain", "S=mud"], vec!["--terrain S=mud", "unknown area name `mud`"]),
        (
            &tiny_map,
            vec!["--terrain", "S=2", "--names", "missing.json"],
            vec!["--names missing.json", "cannot read level"],
        ),
        (
            &town_json,
            vec!["--terrain", "S=2"],
            vec!["--terrain S=2", &town_json, "apply to Moving AI maps (.map) only"],
        ),
        (&tiny_png, vec!["--terrain", "W=2"], vec!["--terrain W=2", &tiny_png, "not to a image file"]),
        (
            &tiny_png,
            vec!["--area-color", "12345=2"],
            vec!["--area-color 12345=2", "colour `12345` is not RRGGBB"],
        ),
        (
            &tiny_png,
            vec!["--area-color", "00GG00=2"],
            vec!["--area-color 00GG00=2", "colour `00GG00` is not RRGGBB"],
        ),
        (&tiny_png, vec!["--area-color", "000000"], vec!["--area-color 000000", "expected RRGGBB=AREA"]),
        (
            &tiny_png,
            vec!["--area-color", "000000=0"],
            vec!["--area-color 000000=0", "area type 0 is outside"],
        ),
        (
            &tiny_png,
            vec!["--area-color", "000000=64"],
            vec!["--area-color 000000=64", "beyond the largest, 63"],
        ),
        (
            &tiny_png,
            vec!["--area-color", "000000=2", "--area-color", "#000000=3"],
            vec!["--area-color #000000=3", "colour 000000 is given a type twice"],
        ),
        (
            &tiny_map,
            vec!["--area-color", "000000=2"],
            vec!["--area-color 000000=2", &tiny_map, "apply to bitmaps only"],
        ),
        (&town_json, vec!["--area-color", "000000=2"], vec!["--area-color 000000=2", "not to a json file"]),
    ];
    for (input, flags, expect) in &terrain_cases {
        let mut args = vec!["bake", *input, "-o", "{OUT}"];
        args.extend(flags.iter().copied());
        let short = Path::new(input).file_name().unwrap().to_string_lossy().into_owned();
        cases.push(case(format!("bake {short} {}", flags.join(" ")), &args, Out::File("out.nav"), expect));
    }

    // Points: off the mesh without --snap (path, render), named with the mesh file.
    let town = p("town.nav");
    for (from, to, which, point) in
        [("1000,1000", "5,5", "start", "(1000, 1000)"), ("5,5", "-3.5,2", "goal", "(-3.5, 2)")]
    {
        let expect = [town.as_str(), which, point, "off the mesh"];
        let args = ["path", &town, "--from", from, "--to", to];
        cases.push(case(format!("path {which} off the mesh"), &args, Out::Nothing, &expect));
        let args = ["path", &town, "--from", from, "--to", to, "--json"];
        cases.push(case(format!("path --json {which} off the mesh"), &args, Out::Nothing, &expect));
        let args = ["render", &town, "-o", "{OUT}", "--from", from, "--to", to];
        cases.push(case(format!("render {which} off the mesh"), &args, Out::File("out.svg"), &expect));
    }
    // Partial paths keep the errors of a bad start; bad node budgets are refused.
    let tiny_nav = p("tiny.nav");
    let args = ["path", &town, "--from", "1000,1000", "--to", "5,5", "--closest"];
    cases.push(case(
        "path --closest start off the mesh",
        &args,
        Out::Nothing,
        &[&town, "start", "off the mesh"],
    ));
    let args = ["render", &town, "-o", "{OUT}", "--from", "1000,1000", "--to", "5,5", "--closest"];
    cases.push(case("render --closest start off the mesh", &args, Out::File("out.svg"), &[&town, "start"]));
    for budget in ["-1", "x", "4294967296", "1.5", ""] {
        let args = ["path", &town, "--from", "5,5", "--to", "120,40", "--node-budget", budget];
        cases.push(case(format!("path --node-budget {budget:?}"), &args, Out::Nothing, &["--node-budget"]));
        let args = ["bench", &tiny_nav, "--scen", &scen, "--node-budget", budget, "--paths", "{OUT}"];
        cases.push(case(
            format!("bench --node-budget {budget:?}"),
            &args,
            Out::File("out.jsonl"),
            &["--node-budget"],
        ));
    }
    // Agent radii: negative, not a number, infinite or missing are refused naming the radius.
    for radius in ["-1", "NaN", "inf", "x", ""] {
        let expect: &[&str] = if ["x", ""].contains(&radius) { &["--radius"] } else { &["radius", "finite"] };
        let args = ["path", &town, "--from", "5,5", "--to", "120,40", "--radius", radius];
        cases.push(case(format!("path --radius {radius:?}"), &args, Out::Nothing, expect));
        let args = ["render", &town, "-o", "{OUT}", "--from", "5,5", "--to", "120,40", "--radius", radius];
        cases.push(case(format!("render --radius {radius:?}"), &args, Out::File("out.svg"), expect));
        let args = ["bench", &tiny_nav, "--scen", &scen, "--radius", radius, "--paths", "{OUT}"];
        cases.push(case(format!("bench --radius {radius:?}"), &args, Out::File("out.jsonl"), expect));
    }
    // Area costs: bad costs, types and names are refused naming the flag; a start on an
    // excluded type names the point.
    let missing_names = p("missing.json");
    let area_cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["--cost", "0=0"], vec!["--cost 0=0", "cost 0 must be a finite number above 0"]),
        (vec!["--cost", "0=-1"], vec!["--cost 0=-1", "above 0"]),
        (vec!["--cost", "0=inf"], vec!["--cost 0=inf", "finite"]),
        (vec!["--cost", "0=NaN"], vec!["--cost 0=NaN", "finite"]),
        (vec!["--cost", "0=cheap"], vec!["--cost 0=cheap", "not a number"]),
        (vec!["--cost", "road"], vec!["--cost road", "AREA=C"]),
        (vec!["--cost", "64=2"], vec!["--cost 64=2", "beyond the largest, 63"]),
        (vec!["--cost", "road=2"], vec!["--cost road=2", "unknown area name `road`", "--names"]),
        (vec!["--exclude", "lava"], vec!["--exclude lava", "unknown area name `lava`"]),
        (vec!["--cost", "road=2", "--names", &town_json], vec!["--cost road=2", "unknown area name `road`"]),
        (
            vec!["--exclude", "1", "--names", &missing_names],
            vec!["--names", "missing.json", "cannot read level"],
        ),
        (vec!["--exclude", "0"], vec![&town, "start point (5, 5) is on area type 0, which is excluded"]),
        (
            vec!["--exclude", "0", "--radius", "0.5"],
            vec![&town, "start point (5, 5) is on area type 0, which is excluded"],
        ),
    ];
    for (extra, expect) in area_cases.iter().filter(|(extra, _)| !extra.contains(&"--radius")) {
        // bench: a start on an excluded type is per query, not an error.
        if expect.contains(&town.as_str()) {
            continue;
        }
        let mut args = vec!["bench", &tiny_nav, "--scen", &scen, "--paths", "{OUT}"];
        args.extend(extra.iter().copied());
        cases.push(case(format!("bench {}", extra.join(" ")), &args, Out::File("out.jsonl"), expect));
    }
    for (extra, expect) in &area_cases {
        let mut args = vec!["path", &town, "--from", "5,5", "--to", "120,40"];
        args.extend(extra.iter().copied());
        cases.push(case(format!("path {}", extra.join(" ")), &args, Out::Nothing, expect));
        let mut args = vec!["render", &town, "-o", "{OUT}", "--from", "5,5", "--to", "120,40"];
        args.extend(extra.iter().copied());
        cases.push(case(format!("render {}", extra.join(" ")), &args, Out::File("out.svg"), expect));
    }
    // A mesh that keeps area names (terrain.json's): a name it does not keep is refused,
    // listing those it keeps.
    let terrain = p("terrain.nav");
    let expect = ["--cost lava=2", "unknown area name `lava`", "terrain.nav: mud, road, water"];
    let args = ["path", &terrain, "--from", "5,5", "--to", "100,70", "--cost", "lava=2"];
    cases.push(case("path --cost lava=2 on a mesh with names", &args, Out::Nothing, &expect));
    let args = ["bench", &terrain, "--scen", &scen, "--cost", "lava=2", "--paths", "{OUT}"];
    cases.push(case("bench --cost lava=2 on a mesh with names", &args, Out::File("out.jsonl"), &expect));
    let args = ["render", &town, "-o", "{OUT}"];
    cases.push(case(
        "render to a missing folder",
        &args,
        Out::MissingFolder("out.svg"),
        &["missing/out.svg", "cannot write"],
    ));
    cases.push(case("render onto a folder", &args, Out::Folder("taken"), &["taken", "cannot write"]));

    // Scenarios read by bench: (file, what stderr says).
    let bad_scens: Vec<(String, &str)> = vec![
        (p("missing.scen"), "cannot read"),
        (p("empty.scen"), "line 1: empty file"),
        (p("garbage.scen"), "cannot read"),
        (p("no_header.scen"), "line 1: expected `version 1`"),
        (p("bad_number.scen"), "line 2: bad start x `x`"),
        (p("columns.scen"), "line 2: expected 9 columns, found 8"),
        (p("not_finite.scen"), "line 2: start x `1e999` is not finite"),
        (p("negative_cost.scen"), "line 2: negative cost"),
        (p("problems/bad.problem"), "line 2: bad sy"),
    ];
    let tiny = p("tiny.nav");
    for (scen_file, what) in &bad_scens {
        let file = scen_file.as_str();
        // A bad `.problem` file is read through its folder.
        let scen_arg = if file.ends_with(".problem") { p("problems") } else { file.to_string() };
        let short = Path::new(file).file_name().unwrap().to_string_lossy().into_owned();
        let args = ["bench", &tiny, "--scen", &scen_arg, "--paths", "{OUT}"];
        cases.push(case(format!("bench --scen {short}"), &args, Out::File("out.jsonl"), &[file, *what]));
        let args = ["bench", &tiny, "--scen", &scen_arg, "--json"];
        cases.push(case(format!("bench --json --scen {short}"), &args, Out::Nothing, &[file, *what]));
    }
    let args = ["bench", &tiny, "--scen", &scen, "--paths", "{OUT}"];
    cases.push(case(
        "bench --paths to a missing folder",
        &args,
        Out::MissingFolder("out.jsonl"),
        &["missing/out.jsonl", "cannot write"],
    ));
    cases.push(case("bench --paths onto a folder", &args, Out::Folder("taken"), &["taken", "cannot write"]));

    // Dynamic scenarios (version 2, no mesh): (file, what stderr says).
    let bad_dynamic: Vec<(String, Vec<&str>)> = vec![
        (
            p("dyn/outside.scen"),
            vec!["line 7", "patch 0 (2 x 2 cells) at (3, 3) reaches outside the 4 x 4 grid"],
        ),
        (p("dyn/unknown_patch.scen"), vec!["line 6", "patch 5, but", "ok.patch has 1"]),
        (p("dyn/no_patch_file.scen"), vec!["gone.patch", "cannot read"]),
        (p("dyn/bad_patch.scen"), vec!["bad.patch: line 8", "row 1 has 1 cells, the header declares 2"]),
        (p("dyn/query_outside.scen"), vec!["line 6", "cell (4, 0) is outside the 4 x 4 grid"]),
        (p("dyn/bad_length.scen"), vec!["line 6", "bad length `-3`"]),
        (p("dyn/no_width.scen"), vec!["line 5", "commands before the header's `height` and `width`"]),
    ];
    for (scen_file, what) in &bad_dynamic {
        let file = scen_file.as_str();
        let short = Path::new(file).file_name().unwrap().to_string_lossy().into_owned();
        let mut expect = vec![file];
        expect.extend(what.iter().copied());
        let args = ["bench", "--scen", file, "--paths", "{OUT}"];
        cases.push(case(format!("bench dynamic --scen {short}"), &args, Out::File("out.jsonl"), &expect));
        let args = ["bench", "--scen", file, "--json", "--mode", "optimal"];
        cases.push(case(format!("bench dynamic --json --scen {short}"), &args, Out::Nothing, &expect));
    }
    let good_dynamic = p("dyn/good.scen");
    let args = ["bench", &tiny, "--scen", &good_dynamic, "--paths", "{OUT}"];
    cases.push(case(
        "bench a dynamic scenario with a mesh",
        &args,
        Out::File("out.jsonl"),
        &[&good_dynamic, "builds its own grid", &tiny],
    ));
    let args = ["bench", "--scen", &scen, "--paths", "{OUT}"];
    cases.push(case(
        "bench a version-1 scenario without a mesh",
        &args,
        Out::File("out.jsonl"),
        &[&scen, "not a dynamic scenario", "give the mesh"],
    ));
    let args = ["bench", "--scen", &good_dynamic, "--paths", "{OUT}"];
    cases.push(case(
        "bench dynamic --paths onto a folder",
        &args,
        Out::Folder("taken"),
        &["taken", "cannot write"],
    ));

    // edit: bad meshes, bad obstacles and changes, unknown ids, bad flags.
    let obstacle = p("obstacle_box.json");
    for (mesh, what) in &bad_meshes {
        let file = mesh.as_str();
        let short = Path::new(file).file_name().unwrap().to_string_lossy().into_owned();
        let args = ["edit", file, "--add", &obstacle, "-o", "{OUT}"];
        cases.push(case(format!("edit {short}"), &args, Out::File("out.nav"), &[file, *what]));
    }
    let edits: Vec<(&str, Vec<String>, Vec<String>)> = vec![
        (
            "a self-intersecting obstacle",
            vec!["--add".into(), p("obstacle_bowtie.json")],
            vec![p("obstacle_bowtie.json"), "invalid obstacle".into(), "cross at (1, 1)".into()],
        ),
        (
            "an obstacle out of range",
            vec!["--add".into(), p("obstacle_huge.json")],
            vec![p("obstacle_huge.json"), "exceeds the limit of ±268435456".into()],
        ),
        (
            "an obstacle that is not JSON",
            vec!["--add".into(), p("obstacle_nan.json")],
            vec![p("obstacle_nan.json"), "not valid JSON".into()],
        ),
        (
            "a missing obstacle file",
            vec!["--add".into(), p("missing.json")],
            vec![p("missing.json"), "cannot read".into()],
        ),
        (
            "a garbage obstacle file",
            vec!["--add".into(), p("garbage.json")],
            vec![p("garbage.json"), "cannot read".into()],
        ),
        (
            "an unknown change",
            vec!["--changes".into(), p("changes_unknown.json")],
            vec![p("changes_unknown.json"), "rotate".into()],
        ),
        (
            "a change on an unknown id",
            vec!["--changes".into(), p("changes_remove.json")],
            vec![format!("{}[1]", p("changes_remove.json")), "no obstacle has id 7".into()],
        ),
        (
            "removing an unknown id",
            vec!["--remove".into(), "0".into()],
            vec!["--remove 0".into(), "no obstacle has id 0".into()],
        ),
        (
            "moving an unknown id",
            vec!["--add".into(), obstacle.clone(), "--move".into(), "1:2,3".into()],
            vec!["--move 1:2,3".into(), "no obstacle has id 1".into()],
        ),
        (
            "a malformed move",
            vec!["--move".into(), "0:x,1".into()],
            vec!["--move".into(), "`x` is not a number".into()],
        ),
        ("a negative id", vec!["--remove".into(), "-1".into()], vec!["-1".into()]),
        ("no changes", vec![], vec![town.clone(), "no changes given".into()]),
    ];
    for (name, flags, expect) in &edits {
        let mut args = vec!["edit", town.as_str(), "-o", "{OUT}"];
        args.extend(flags.iter().map(String::as_str));
        let expect: Vec<&str> = expect.iter().map(String::as_str).collect();
        cases.push(case(format!("edit with {name}"), &args, Out::File("out.nav"), &expect));
    }
    // edit on layers: an obstacle naming no layer on a mesh of several, or one it lacks.
    let overpass = p("overpass.nav");
    let chunks_r = p("chunks_r.nav");
    let layered: Vec<(&str, &str, Vec<String>, Vec<String>)> = vec![
        (
            "an obstacle without a layer on a layered mesh",
            overpass.as_str(),
            vec!["--add".into(), obstacle.clone()],
            vec![obstacle.clone(), "layers [\"ground\", \"bridge\"]".into(), "\"layer\" key".into()],
        ),
        (
            "a change without a layer on a layered mesh",
            overpass.as_str(),
            vec!["--changes".into(), p("changes_no_layer.json")],
            vec![format!("{}[1]", p("changes_no_layer.json")), "\"layer\" key".into()],
        ),
        (
            "an obstacle on an unknown layer",
            overpass.as_str(),
            vec!["--add".into(), p("obstacle_roof.json")],
            vec![p("obstacle_roof.json"), "no layer \"roof\"".into()],
        ),
        (
            "an obstacle on a layer a one-layer mesh lacks",
            town.as_str(),
            vec!["--add".into(), p("obstacle_roof.json")],
            vec![p("obstacle_roof.json"), "no layer \"roof\" (its layers: [\"default\"])".into()],
        ),
        (
            "an obstacle reaching across a portal at a bake radius",
            chunks_r.as_str(),
            vec!["--add".into(), p("obstacle_by_portal.json")],
            vec![p("obstacle_by_portal.json"), "reaches layer 1".into(), "give the radius to queries".into()],
        ),
        (
            "a layer that is not a name",
            overpass.as_str(),
            vec!["--add".into(), p("obstacle_layer_number.json")],
            vec![p("obstacle_layer_number.json"), "not valid JSON".into()],
        ),
    ];
    for (name, mesh, flags, expect) in &layered {
        let mut args = vec!["edit", mesh, "-o", "{OUT}"];
        args.extend(flags.iter().map(String::as_str));
        let expect: Vec<&str> = expect.iter().map(String::as_str).collect();
        cases.push(case(format!("edit with {name}"), &args, Out::File("out.nav"), &expect));
    }
    let args = ["edit", &town, "--add", &obstacle, "-o", "{OUT}"];
    cases.push(case(
        "edit to a missing folder",
        &args,
        Out::MissingFolder("out.nav"),
        &["missing/out.nav", "cannot write"],
    ));
    cases.push(case("edit onto a folder", &args, Out::Folder("taken"), &["taken", "cannot write"]));

    // view: every bad mesh and level (it bakes levels on the fly), then its own flags. Each
    // must fail before serving (a case that serves is killed and reported).
    let view_files = bad_meshes
        .iter()
        .filter(|(file, _)| file.ends_with(".nav"))
        .chain(bad_levels.iter().filter(|(file, _)| !file.ends_with(".nav")));
    for (file, what) in view_files {
        let file = file.as_str();
        let short = file.strip_prefix(&format!("{}/", f.dir.path().display())).unwrap_or(file).to_string();
        let args = ["view", file, "--port", "0"];
        cases.push(case(format!("view {short}"), &args, Out::Nothing, &[file, *what]));
    }
    let taken = f.taken.local_addr().unwrap().port().to_string();
    let view_flags: Vec<(&str, Vec<&str>, Vec<&str>)> = vec![
        (
            "a port in use",
            vec![&town_json, "--port", &taken],
            vec!["cannot listen on 127.0.0.1:", &taken, "--port 0"],
        ),
        ("a port that is not a number", vec![&town_json, "--port", "http"], vec!["--port", "http"]),
        ("a port beyond 65535", vec![&town_json, "--port", "70000"], vec!["--port", "70000"]),
        ("a negative port", vec![&town_json, "--port", "-1"], vec!["-1"]),
        (
            "a bind address that is not one",
            vec![&town_json, "--bind", "localhost:80"],
            vec!["--bind", "localhost:80"],
        ),
        (
            "a bind address out of range",
            vec![&town_json, "--bind", "10.0.0.300"],
            vec!["--bind", "10.0.0.300"],
        ),
        (
            "a bind address of another machine",
            vec![&town_json, "--port", "0", "--bind", "192.0.2.1"],
            vec!["cannot listen on 192.0.2.1:0", "not an address of this machine"],
        ),
        (
            "a negative agent radius",
            vec![&town_json, "--port", "0", "--agent-radius", "-1"],
            vec![&town_json, "agent radius must be finite and >= 0"],
        ),
        (
            "an agent radius for a baked mesh",
            vec![&town, "--port", "0", "--agent-radius", "1"],
            vec![&town, "--agent-radius applies to levels baked on the fly"],
        ),
        ("no file", vec!["--port", "0"], vec!["required arguments were not provided"]),
        ("an unknown flag", vec![&town_json, "--open"], vec!["--open"]),
    ];
    for (name, args, expect) in view_flags {
        let args: Vec<&str> = std::iter::once("view").chain(args).collect();
        cases.push(case(format!("view with {name}"), &args, Out::Nothing, &expect));
    }
    cases
}

/// Runs the binary with `args`, killing it when it has not exited within a minute (a `view`
/// that serves instead of failing); the output, and whether it had to be killed.
fn run_bounded(args: &[String]) -> (Output, bool) {
    let mut child =
        Command::new(BIN).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut killed = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            killed = true;
            break child.wait().expect("waits");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    (Output { status, stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() }, killed)
}

/// Runs `case` once per output situation; returns what went wrong.
fn run_case(case: &Case, fixture: &Fixture, before: &[(String, Vec<u8>)]) -> Vec<String> {
    let situations: &[bool] = match case.out {
        Out::File(_) => &[false, true],
        _ => &[false],
    };
    let mut problems = Vec::new();
    for &existing in situations {
        let out_dir = tempfile::tempdir().unwrap();
        let out_path: PathBuf = match case.out {
            Out::Nothing => out_dir.path().join("unused"),
            Out::File(name) => out_dir.path().join(name),
            Out::MissingFolder(name) => out_dir.path().join("missing").join(name),
            Out::Folder(name) => {
                let folder = out_dir.path().join(name);
                std::fs::create_dir(&folder).unwrap();
                std::fs::write(folder.join("keep"), PRECIOUS).unwrap();
                folder
            }
        };
        if existing {
            std::fs::write(&out_path, PRECIOUS).unwrap();
        }
        let out_dir_before = listing(out_dir.path());
        let args: Vec<String> =
            case.args.iter().map(|a| a.replace("{OUT}", out_path.to_str().unwrap())).collect();
        let (output, killed) = run_bounded(&args);
        let label = if existing { format!("{} (output exists)", case.name) } else { case.name.clone() };
        if killed {
            problems.push(format!("{label}: still running after a minute (killed)"));
        }
        let mut expect = case.expect.clone();
        if let Out::MissingFolder(_) | Out::Folder(_) = case.out {
            expect.push(out_path.to_str().unwrap().to_string());
        }
        problems.extend(status_problem(output.status, 2).map(|p| format!("{label}: {p}")));
        problems.extend(stderr_problem(&output.stderr, &expect).map(|p| format!("{label}: {p}")));
        let out_dir_after = listing(out_dir.path());
        if out_dir_after != out_dir_before {
            let names: Vec<&String> = out_dir_after.iter().map(|(n, _)| n).collect();
            problems.push(format!("{label}: the output folder changed: now {names:?}"));
        }
        if let Out::Folder(_) = case.out
            && std::fs::read(out_path.join("keep")).ok().as_deref() != Some(PRECIOUS)
        {
            problems.push(format!("{label}: the folder given as output was changed"));
        }
        if listing(fixture.dir.path()) != before {
            problems.push(format!("{label}: the input folder changed"));
        }
    }
    problems
}

#[test]
fn every_command_refuses_hostile_inputs_cleanly() {
    let fixture = Fixture::new();
    let before = listing(fixture.dir.path());
    let cases = cases(&fixture);
    for command in ["bake", "edit", "inspect", "path", "render", "bench", "view"] {
        let n = cases.iter().filter(|c| c.args[0] == command).count();
        assert!(n >= 9, "{command}: only {n} cases");
        eprintln!("{command}: {n} cases");
    }
    let problems: Vec<String> = cases.iter().flat_map(|c| run_case(c, &fixture, &before)).collect();
    assert!(
        problems.is_empty(),
        "{} of {} cases failed:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

#[test]
fn path_exit_status_follows_the_readme() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("town.nav");
    let nav = nav.to_str().unwrap();
    assert!(trinav(&["bake", &data("levels/town.json"), "-o", nav]).status.success());

    // 0: a path was found.
    let found = trinav(&["path", nav, "--from", "5,5", "--to", "120,40"]);
    assert_eq!(found.status.code(), Some(0), "{}", text(&found.stderr));
    assert!(text(&found.stdout).starts_with("found: true, length "), "{}", text(&found.stdout));
    assert!(found.stderr.is_empty());

    // 1: start and goal are not connected. (77, 57) lies in the walkable hole of the obstacle
    // [70, 85] x [50, 65], town's second island. Reported on stdout, not as an error.
    for extra in [&[][..], &["--json"][..], &["--snap"][..]] {
        let mut args = vec!["path", nav, "--from", "5,5", "--to", "77,57"];
        args.extend_from_slice(extra);
        let apart = trinav(&args);
        assert_eq!(apart.status.code(), Some(1), "{extra:?}: {}", text(&apart.stderr));
        assert!(apart.stderr.is_empty(), "{extra:?}: {}", text(&apart.stderr));
        let out = text(&apart.stdout);
        if extra == ["--json"] {
            let report: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(report["found"], false);
            assert_eq!(report["points"], serde_json::json!([]));
            assert!(report["reason"].as_str().unwrap().contains("not connected"), "{out}");
        } else {
            assert!(out.starts_with("found: false, reason: start and goal are not connected"), "{out}");
        }
    }

    // 0 with --snap for an off-mesh point; 2 without it (stderr names file and point).
    let snapped = trinav(&["path", nav, "--from", "5,5", "--to", "1000,1000", "--snap"]);
    assert_eq!(snapped.status.code(), Some(0), "{}", text(&snapped.stderr));
    let off = trinav(&["path", nav, "--from", "5,5", "--to", "1000,1000"]);
    assert_eq!(off.status.code(), Some(2));
    assert!(
        stderr_problem(&off.stderr, &[nav.to_string(), "(1000, 1000) is off the mesh".to_string()]).is_none()
    );

    // --closest: 0 with a partial path to the point of the start's island nearest the goal,
    // for a goal on another island or off the mesh; `partial` says whether it got there.
    for (to, partial) in [("77,57", true), ("1000,1000", true), ("120,40", false)] {
        let out = trinav(&["path", nav, "--from", "5,5", "--to", to, "--closest", "--json"]);
        assert_eq!(out.status.code(), Some(0), "--to {to}: {}", text(&out.stderr));
        let report: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        assert_eq!(
            (report["found"].as_bool(), report["partial"].as_bool()),
            (Some(true), Some(partial)),
            "{report}"
        );
        let text_out = text(&trinav(&["path", nav, "--from", "5,5", "--to", to, "--closest"]).stdout);
        assert_eq!(text_out.starts_with("found: true (partial: "), partial, "{text_out}");
    }
    // A node budget too small: 1 (no path within it) without --closest, 0 and partial with it.
    for mode in ["fast", "optimal"] {
        let tight = ["path", nav, "--from", "5,5", "--to", "120,40", "--mode", mode, "--node-budget", "2"];
        let out = trinav(&tight);
        assert_eq!(out.status.code(), Some(1), "{mode}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("budget of 2 nodes"), "{}", text(&out.stdout));
        let out = trinav(&[&tight[..], &["--closest", "--json"]].concat());
        assert_eq!(out.status.code(), Some(0), "{mode}: {}", text(&out.stderr));
        let report: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        assert_eq!(report["partial"], true, "{report}");
        assert!(report["reason"].as_str().unwrap().contains("budget"), "{report}");
    }

    // 2: an unreadable mesh, malformed coordinates.
    assert_eq!(trinav(&["path", "no/such.nav", "--from", "5,5", "--to", "6,6"]).status.code(), Some(2));
    for bad in ["nan,1", "1e400,1", "1,2,3", "1;2", "", "x,1", "inf,0"] {
        let out = trinav(&["path", nav, "--from", "5,5", "--to", bad]);
        assert_eq!(out.status.code(), Some(2), "--to {bad:?}");
        assert!(text(&out.stderr).contains("X,Y"), "--to {bad:?}: {}", text(&out.stderr));
    }
}

#[test]
fn malformed_coordinates_give_one_trinav_line() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("town.nav");
    let nav = nav.to_str().unwrap();
    assert!(trinav(&["bake", &data("levels/town.json"), "-o", nav]).status.success());
    for bad in ["nan,1", "1e400,1", "1,2,3"] {
        let out = trinav(&["path", nav, "--from", "5,5", "--to", bad]);
        assert_eq!(out.status.code(), Some(2));
        let problem = stderr_problem(&out.stderr, &[bad.to_string()]);
        assert!(problem.is_none(), "--to {bad}: {problem:?}");
    }
}

#[test]
fn bench_refuses_a_folder_without_problem_files() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("tiny.nav");
    let nav = nav.to_str().unwrap();
    assert!(trinav(&["bake", &data("maps/tiny.map"), "-o", nav]).status.success());
    let empty = dir.path().join("no_problems");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("notes.txt"), "not a problem file").unwrap();
    let paths = dir.path().join("out.jsonl");
    let out = trinav(&["bench", nav, "--scen", empty.to_str().unwrap(), "--paths", paths.to_str().unwrap()]);
    assert_eq!(status_problem(out.status, 2), None);
    assert_eq!(stderr_problem(&out.stderr, &[empty.to_str().unwrap().to_string()]), None);
    assert!(!paths.exists(), "no output file");
}

/// Runs `args` with stdout a pipe whose reading end is already closed: every write to stdout
/// fails with a broken pipe, deterministically.
fn run_with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = Command::new(BIN).args(args).stdout(writer).stderr(Stdio::piped()).spawn().expect("runs");
    child.wait_with_output().expect("waits")
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("town.nav");
    let nav = nav.to_str().unwrap();
    let tiny = dir.path().join("tiny.nav");
    let tiny = tiny.to_str().unwrap();
    let svg = dir.path().join("town.svg");
    let jsonl = dir.path().join("paths.jsonl");
    let town_json = data("levels/town.json");
    assert!(trinav(&["bake", &data("maps/tiny.map"), "-o", tiny]).status.success());
    let scen = data("maps/tiny.map.scen");
    let runs: Vec<Vec<&str>> = vec![
        vec!["bake", &town_json, "-o", nav],
        vec!["bake", &town_json, "-o", nav, "--json"],
        vec!["inspect", nav],
        vec!["inspect", nav, "--json"],
        vec!["path", nav, "--from", "5,5", "--to", "120,40"],
        vec!["path", nav, "--from", "5,5", "--to", "120,40", "--json"],
        vec!["render", nav, "-o", svg.to_str().unwrap(), "--from", "5,5", "--to", "120,40"],
        vec!["bench", tiny, "--scen", &scen],
        vec!["bench", tiny, "--scen", &scen, "--json", "--paths", jsonl.to_str().unwrap()],
    ];
    for args in &runs {
        let out = run_with_closed_stdout(args);
        assert_eq!(signal(out.status), None, "{args:?}: killed by a signal");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        assert!(out.stderr.is_empty(), "{args:?}: {}", text(&out.stderr));
    }
    // The files were still written in full (the write comes before the summary line).
    assert!(trinav(&["inspect", nav]).status.success());
    assert!(std::fs::read_to_string(&svg).unwrap().trim_end().ends_with("</svg>"));
    assert_eq!(std::fs::read_to_string(&jsonl).unwrap().lines().count(), 5);

    // `trinav inspect X | head -c 1`: the reader takes one byte and goes away.
    let mut child =
        Command::new(BIN).args(["inspect", nav, "--json"]).stdout(Stdio::piped()).spawn().expect("runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"{");
    drop(stdout);
    let status = child.wait().unwrap();
    assert_eq!(signal(status), None);
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_closed_stdout_keeps_the_exit_status() {
    let fixture = Fixture::new();
    let town = fixture.path("town.nav");
    let apart = run_with_closed_stdout(&["path", &town, "--from", "5,5", "--to", "77,57"]);
    let invalid = run_with_closed_stdout(&["inspect", &fixture.path("nan_vertex.nav")]);
    assert_eq!(
        (apart.status.code(), invalid.status.code()),
        (Some(1), Some(2)),
        "path not connected, inspect invalid: {} / {}",
        text(&apart.stderr),
        text(&invalid.stderr)
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_failed_stdout_write_names_stdout() {
    let fixture = Fixture::new();
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = Command::new(BIN)
        .args(["inspect", &fixture.path("town.nav")])
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    assert_eq!(status_problem(out.status, 2), None);
    assert_eq!(stderr_problem(&out.stderr, &["stdout".to_string()]), None);
}
