//! The real `trinav view` over HTTP, without a browser.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

use crate::{Viewer, cli_path, data, trinav};

fn post(viewer: &Viewer, path: &str, body: Value) -> Value {
    ureq::post(&viewer.at(path)).send_json(body).unwrap().body_mut().read_json().unwrap()
}

#[test]
fn a_level_baked_on_the_fly_answers_as_trinav_path_does() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("town.nav");
    let nav = nav.to_str().unwrap();
    let town = data("levels/town.json");
    assert!(trinav(&["bake", &town, "-o", nav]).status.success());
    let inspect: Value = serde_json::from_slice(&trinav(&["inspect", nav, "--json"]).stdout).unwrap();

    let viewer = Viewer::start(&town, &[]);
    assert!(viewer.url.starts_with("http://127.0.0.1:"), "{}", viewer.banner);
    assert!(viewer.banner.contains("(56 triangles, 2 islands, baked in"), "{}", viewer.banner);
    let mesh = viewer.mesh();
    assert_eq!(mesh["origin"]["baked"], true);
    for key in ["triangles", "islands", "area", "vertices"] {
        assert_eq!(mesh["stats"][key], inspect[key], "{key}");
    }
    assert_eq!(
        mesh["triangles"].as_array().unwrap().len(),
        3 * inspect["triangles"].as_u64().unwrap() as usize
    );

    for mode in ["fast", "optimal"] {
        for (from, to) in
            [([5.0, 5.0], [120.0, 40.0]), ([5.0, 5.0], [77.0, 57.0]), ([126.0, 42.0], [2.5, 70.0])]
        {
            let answer = post(&viewer, "/api/path", json!({"from": from, "to": to, "mode": mode}));
            let cli = cli_path(nav, from, to, mode);
            assert_eq!(answer["found"], cli["found"], "{mode} {from:?} {to:?}");
            assert_eq!(answer["points"], cli["points"], "{mode} {from:?} {to:?}");
            if cli["found"] == true {
                assert_eq!(answer["length"], cli["length"], "{mode} {from:?} {to:?}");
            } else {
                assert_eq!(
                    (answer["start_island"].as_u64(), answer["goal_island"].as_u64()),
                    (Some(0), Some(1))
                );
            }
        }
    }
}

#[test]
fn a_mesh_file_is_served_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("tiny.nav");
    let nav = nav.to_str().unwrap();
    assert!(trinav(&["bake", &data("maps/tiny.map"), "-o", nav]).status.success());
    let viewer = Viewer::start(nav, &["--bind", "127.0.0.1"]);
    assert!(
        viewer.banner.starts_with(&format!("trinav view: {} serves {nav} (", viewer.url)),
        "{}",
        viewer.banner
    );
    assert!(!viewer.banner.contains("baked"), "{}", viewer.banner);
    let mesh = viewer.mesh();
    let parsed = trinav::NavMesh::load(nav).unwrap();
    assert_eq!(mesh["origin"]["baked"], false);
    let vertices: Vec<f64> = parsed.vertices().iter().flat_map(|p| [p.x, p.y]).collect();
    assert_eq!(mesh["vertices"], json!(vertices), "exact coordinates");
    let islands: Vec<u32> =
        (0..parsed.triangle_count()).map(|t| parsed.island(trinav::TriangleId::from_index(t)).0).collect();
    assert_eq!(mesh["islands"], json!(islands));
}

#[test]
fn the_page_and_its_files_come_from_the_binary_and_nothing_else() {
    let viewer = Viewer::start(&data("levels/courtyard.json"), &["--agent-radius", "0.5"]);
    let page = ureq::get(&viewer.url).call().unwrap().body_mut().read_to_string().unwrap();
    // Every file the page refers to is one of the server's, by a path on this server.
    for reference in ["href=\"/viewer.css\"", "src=\"/viewer.js\"", "href=\"data:,\""] {
        assert!(page.contains(reference), "{reference}");
    }
    assert!(
        !page.contains("http://") && !page.contains("https://") && !page.contains("//cdn"),
        "external reference"
    );
    let mesh = viewer.mesh();
    assert_eq!(mesh["settings"]["agent_radius"], 0.5);
    // The real binary refuses to serve anything else, whatever the path.
    let addr = viewer.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    for target in ["/../Cargo.toml", "/%2e%2e/%2e%2e/Cargo.toml", "/../../../../etc/passwd", "/main.rs"] {
        let mut stream = TcpStream::connect(&addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(stream, "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 404 "), "{target}: {answer}");
        assert!(!answer.contains("[package]") && !answer.contains("root:"), "{target}: {answer}");
    }
}
