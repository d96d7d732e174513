//! The page in headless Chromium: real clicks, drags and wheel turns through WebDriver; what
//! the page shows is checked against `trinav path` and the library; screenshots and frame
//! times are kept in `target/tmp/trinav-view/`.
//!
//! Without Chromium and chromedriver the tests say so and pass; under CI (`CI` set), where
//! `.ci/run` installs them, a missing browser is a failure.

use std::sync::{Mutex, MutexGuard, PoisonError};

use serde_json::{Value, json};
use trinav::{NavMesh, Point, RayHit, TriangleId};

use crate::webdriver::{Browser, Installation, artifacts};
use crate::{Viewer, cli_path, data, say, trinav};

/// One browser test at a time: the frame times are not measured while another Chromium runs.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A browser session (and the turn to use it), or `None` after saying why `test` is skipped.
fn browser(test: &str) -> Option<(MutexGuard<'static, ()>, Browser)> {
    match Installation::find() {
        Ok(installation) => {
            let turn = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
            Some((turn, Browser::start(&installation).unwrap_or_else(|e| panic!("{test}: {e}"))))
        }
        Err(why) if std::env::var_os("CI").is_some() => {
            panic!("{test}: {why}; CI runs the browser tests (.ci/run installs the browser)")
        }
        Err(why) => {
            say(&format!("SKIPPED {test}: {why}"));
            None
        }
    }
}

/// Opens the viewer's page (with `query`, e.g. `?renderer=canvas`) and waits for the mesh.
fn open(browser: &Browser, viewer: &Viewer, query: &str) {
    browser.goto(&format!("{}{query}", viewer.url)).unwrap();
    let ready = "return document.body.dataset.state === 'ready' || \
                 !document.getElementById('loading').classList.contains('hidden') && \
                 document.getElementById('loading').textContent.startsWith('Cannot')";
    browser.wait_for("the mesh to load", ready).unwrap();
    let loading = js(browser, "return document.getElementById('loading').textContent");
    assert_eq!(js(browser, "return document.body.dataset.state"), "ready", "{loading}");
}

fn js(browser: &Browser, script: &str) -> Value {
    browser.execute(script, json!([])).unwrap()
}

/// The viewport pixel of world point (x, y), rounded as a pointer position is.
fn pixel(browser: &Browser, x: f64, y: f64) -> (i64, i64) {
    let at = browser
        .execute("return window.trinavView.worldToClient(arguments[0], arguments[1])", json!([x, y]))
        .unwrap();
    (at[0].as_f64().unwrap().round() as i64, at[1].as_f64().unwrap().round() as i64)
}

/// The `data-` attribute `key` of the element `selector`, as a number.
fn data_number(browser: &Browser, selector: &str, key: &str) -> Option<f64> {
    let value = browser
        .execute(
            "const e = document.querySelector(arguments[0]); return e && e.dataset[arguments[1]]",
            json!([selector, key]),
        )
        .unwrap();
    value.as_str().map(|s| s.parse().unwrap_or_else(|e| panic!("{selector} data-{key} {s:?}: {e}")))
}

fn text_of(browser: &Browser, selector: &str) -> String {
    let value = browser
        .execute("return document.querySelector(arguments[0]).textContent", json!([selector]))
        .unwrap();
    value.as_str().unwrap().to_string()
}

/// The camera: centre and scale (pixels per world unit).
fn camera(browser: &Browser) -> (f64, f64, f64) {
    let c = js(browser, "const c = window.trinavView.camera; return [c.cx, c.cy, c.scale]");
    (c[0].as_f64().unwrap(), c[1].as_f64().unwrap(), c[2].as_f64().unwrap())
}

/// How many pixels of `png` have exactly the colour `rgb`.
fn pixels_of(png: &image::RgbaImage, rgb: [u8; 3]) -> usize {
    pixels_near(png, rgb, 0)
}

/// How many pixels of `png` are within `tolerance` of `rgb` in every channel.
fn pixels_near(png: &image::RgbaImage, rgb: [u8; 3], tolerance: u8) -> usize {
    png.pixels().filter(|p| (0..3).all(|k| p.0[k].abs_diff(rgb[k]) <= tolerance)).count()
}

#[test]
fn the_page_shows_the_paths_trinav_path_finds() {
    let Some((_turn, browser)) = browser("the_page_shows_the_paths_trinav_path_finds") else { return };
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("town.nav");
    let nav = nav.to_str().unwrap();
    let town = data("levels/town.json");
    assert!(trinav(&["bake", &town, "-o", nav]).status.success());
    let mesh = NavMesh::load(nav).unwrap();
    let viewer = Viewer::start(&town, &[]);
    open(&browser, &viewer, "");
    let renderer = text_of(&browser, "#renderer");
    assert!(renderer.starts_with("Drawn with "), "{renderer}");
    assert_eq!(text_of(&browser, "dd[data-stat=triangles]"), mesh.triangle_count().to_string());

    // Hover: the triangle named contains the point under the pointer.
    browser.hover(pixel(&browser, 20.0, 45.0)).unwrap();
    browser
        .wait_for(
            "the hover answer",
            "return document.getElementById('hover').dataset.triangle !== undefined",
        )
        .unwrap();
    let hover = js(&browser, "return window.trinavView.state.hover");
    let shown = data_number(&browser, "#hover", "triangle").unwrap();
    assert_eq!(Some(shown), hover["triangle"].as_f64(), "{hover}");
    let under = Point::new(hover["nearest"][0].as_f64().unwrap(), hover["nearest"][1].as_f64().unwrap());
    assert!((under.x - 20.0).abs() < 0.5 && (under.y - 45.0).abs() < 0.5, "{hover}");
    let t = TriangleId(shown as u32);
    assert!(mesh.triangle_contains(t, under), "triangle {t} does not contain {under:?}");
    let hover_text = text_of(&browser, "#hover");
    assert!(
        hover_text.starts_with(&format!("triangle {t}, island {}, area 0 at (", mesh.island(t))),
        "{hover_text}"
    );

    // Click start and goal: both modes' lengths equal trinav path's for the points clicked.
    browser.click(pixel(&browser, 5.0, 5.0), false).unwrap();
    browser.click(pixel(&browser, 120.0, 40.0), false).unwrap();
    let both = "return ['fast', 'optimal'].every(m => \
                document.querySelector(`#path-${m} .length`).dataset.value !== undefined)";
    browser.wait_for("both paths", both).unwrap();
    let (start, goal) = ends_shown(&browser);
    assert!((start[0] - 5.0).abs() < 0.5 && (goal[1] - 40.0).abs() < 0.5, "{start:?} {goal:?}");
    for mode in ["fast", "optimal"] {
        let row = format!("#path-{mode}");
        let cli = cli_path(nav, start, goal, mode);
        assert_eq!(cli["found"], true, "{mode}");
        let length = cli["length"].as_f64().unwrap();
        assert_eq!(
            data_number(&browser, &format!("{row} .length"), "value"),
            Some(length),
            "{mode}: exact length"
        );
        let shown: f64 = text_of(&browser, &format!("{row} .length")).parse().unwrap();
        assert!((shown - length).abs() <= 5e-4, "{mode}: shows {shown}, trinav path says {length}");
        let points = cli["points"].as_array().unwrap().len();
        assert_eq!(text_of(&browser, &format!("{row} .points")), points.to_string(), "{mode}");
        let time = text_of(&browser, &format!("{row} .time"));
        assert!(
            time.ends_with(" µs") && data_number(&browser, &format!("{row} .time"), "value").unwrap() > 0.0,
            "{time}"
        );
        say(&format!(
            "page: {mode} path from {start:?} to {goal:?}: length {shown} (trinav path: {length}), {time}"
        ));
    }
    let png = browser.screenshot().unwrap();
    std::fs::write(artifacts().join("town-paths.png"), &png).unwrap();
    let image = image::load_from_memory(&png).unwrap().to_rgba8();
    assert_eq!(image.dimensions(), (1280, 800));
    assert!(pixels_of(&image, [0xd6, 0x27, 0x28]) > 100, "the optimal path is drawn");
    assert!(pixels_of(&image, [0x2c, 0xa0, 0x2c]) > 20, "the start marker is drawn");
    assert!(pixels_of(&image, [0xcf, 0xe3, 0xf7]) > 100_000, "island 0 is filled");

    // Unconnected: (77, 57) is on town's second island.
    browser.click(pixel(&browser, 5.0, 5.0), false).unwrap();
    browser.click(pixel(&browser, 77.0, 57.0), false).unwrap();
    browser.wait_for("no path", "return document.getElementById('path-note').textContent !== ''").unwrap();
    assert_eq!(text_of(&browser, "#path-fast .length"), "no path");
    assert_eq!(text_of(&browser, "#path-optimal .length"), "no path");
    assert_eq!(
        text_of(&browser, "#path-note"),
        "No path: start and goal are not connected (start on island 0, goal on island 1)"
    );

    // Shift+click twice: the ray stops where the library's raycast does.
    browser.click(pixel(&browser, 5.0, 5.0), true).unwrap();
    browser.click(pixel(&browser, 120.0, 40.0), true).unwrap();
    browser.wait_for("the ray", "return document.getElementById('ray').dataset.clear !== undefined").unwrap();
    let ray = js(&browser, "return window.trinavView.state.ray");
    let point = |v: &Value| Point::new(v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    let (from, to) = (point(&ray["from"]), point(&ray["to"]));
    let end = Point::new(
        data_number(&browser, "#ray", "endX").unwrap(),
        data_number(&browser, "#ray", "endY").unwrap(),
    );
    match mesh.raycast(from, to).unwrap() {
        RayHit::Blocked { point, .. } => {
            assert_eq!(end, point);
            assert_eq!(js(&browser, "return document.getElementById('ray').dataset.clear"), "false");
            assert!(text_of(&browser, "#ray").starts_with("Blocked at ("), "{}", text_of(&browser, "#ray"));
        }
        RayHit::Clear { .. } => panic!("the ray from {from:?} to {to:?} crosses obstacles in town"),
    }

    // Drag: the camera moves by the pixels dragged; wheel: the point under the pointer stays.
    let (cx, cy, scale) = camera(&browser);
    browser.drag((400, 400), (500, 450)).unwrap();
    let (cx2, cy2, scale2) = camera(&browser);
    assert_eq!(scale2, scale);
    assert!(
        (cx2 - (cx - 100.0 / scale)).abs() < 1e-9 && (cy2 - (cy + 50.0 / scale)).abs() < 1e-9,
        "{cx2} {cy2}"
    );
    let world = |b: &Browser| js(b, "return window.trinavView.camera.toWorld(300, 300)");
    let before = world(&browser);
    browser.wheel((300, 300), -240).unwrap();
    let (_, _, zoomed) = camera(&browser);
    assert!(zoomed > scale * 1.2, "zoomed in: {scale} -> {zoomed}");
    let after = world(&browser);
    for k in 0..2 {
        let (a, b) = (before[k].as_f64().unwrap(), after[k].as_f64().unwrap());
        assert!((a - b).abs() < 1e-9 * (1.0 + a.abs()), "{before} -> {after}");
    }
}

/// A page script: whether both modes' answers are shown (their costs' values set).
const BOTH_COSTS: &str = "return ['fast', 'optimal'].every(m => \
                          document.querySelector(`#path-${m} .cost`).dataset.value !== undefined)";

/// The start and goal the page shows, `[x, y]` each.
fn ends_shown(browser: &Browser) -> ([f64; 2], [f64; 2]) {
    let at = |id: &str| [data_number(browser, id, "x").unwrap(), data_number(browser, id, "y").unwrap()];
    (at("#start"), at("#goal"))
}

/// `trinav path MESH --json ARGS...`, parsed (exit 0: a path).
fn cli_path_with(mesh: &str, args: &[&str]) -> Value {
    let out = trinav(&[&["path", mesh, "--json"], args].concat());
    assert!(out.status.success(), "trinav path {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Chooses option `value` of the select `id`, as a hand would.
fn choose(browser: &Browser, id: &str, value: &str) {
    let script = "const s = document.getElementById(arguments[0]); s.value = arguments[1]; \
                  s.dispatchEvent(new Event('change'));";
    browser.execute(script, json!([id, value])).unwrap();
}

/// Types `text` into the input `id` and leaves it (its change event).
fn enter(browser: &Browser, id: &str, text: &str) {
    let script = "const i = document.getElementById(arguments[0]); i.value = arguments[1]; \
                  i.dispatchEvent(new Event('change'));";
    browser.execute(script, json!([id, text])).unwrap();
}

/// Clicks start and goal and waits for both modes' answers; the optimal row's cost.
fn click_path(browser: &Browser, from: [f64; 2], to: [f64; 2]) -> f64 {
    js(browser, "window.trinavView.state.paths = {}; return null");
    browser.click(pixel(browser, from[0], from[1]), false).unwrap();
    browser.click(pixel(browser, to[0], to[1]), false).unwrap();
    browser.wait_for("both paths", BOTH_COSTS).unwrap();
    data_number(browser, "#path-optimal .cost", "value").unwrap()
}

/// On a layered level with links, the page picks each end on the layer shown, lists the links
/// and shows the cost and the links taken; on a one-layer level, an agent radius and area
/// costs from the panel give the answers of `trinav path --radius` and `--cost`.
#[test]
fn the_page_asks_for_layers_links_a_radius_and_costs() {
    let Some((_turn, browser)) = browser("the_page_asks_for_layers_links_a_radius_and_costs") else { return };
    let dir = tempfile::tempdir().unwrap();
    let nav = dir.path().join("overpass.nav");
    let nav = nav.to_str().unwrap();
    let overpass = data("levels/overpass.json");
    assert!(trinav(&["bake", &overpass, "-o", nav]).status.success());
    let viewer = Viewer::start(&overpass, &[]);
    open(&browser, &viewer, "");
    assert_eq!(text_of(&browser, "dd[data-stat=links]"), "2");
    let layers = js(&browser, "return [...document.getElementById('layer').options].map(o => o.text)");
    assert_eq!(layers[0], "every layer", "{layers}");
    // The start on the road (ground), the goal on the bridge above it: the ladder is taken.
    choose(&browser, "layer", "0");
    browser.click(pixel(&browser, 5.0, 23.0), false).unwrap();
    choose(&browser, "layer", "1");
    browser.click(pixel(&browser, 30.0, 25.0), false).unwrap();
    browser.wait_for("both paths", BOTH_COSTS).unwrap();
    let (start, goal) = ends_shown(&browser);
    let (from, to) = (format!("ground:{},{}", start[0], start[1]), format!("bridge:{},{}", goal[0], goal[1]));
    let cli = cli_path_with(nav, &["--from", &from, "--to", &to, "--mode", "optimal"]);
    assert_eq!(data_number(&browser, "#path-optimal .cost", "value"), cli["cost"].as_f64(), "{cli}");
    assert_eq!(data_number(&browser, "#path-optimal .length", "value"), cli["length"].as_f64(), "{cli}");
    let links = cli["links"].as_array().unwrap().len();
    assert_eq!(data_number(&browser, "#path-optimal", "links"), Some(links as f64), "{cli}");
    let shown_layers = js(&browser, "return document.getElementById('path-optimal').dataset.layers");
    let cli_layers: Vec<&str> =
        cli["layers"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    assert_eq!(shown_layers, cli_layers.join(","));
    let png = browser.screenshot().unwrap();
    std::fs::write(artifacts().join("overpass-layers.png"), &png).unwrap();
    let image = image::load_from_memory(&png).unwrap().to_rgba8();
    assert!(pixels_of(&image, [0x0f, 0x8b, 0x8d]) > 20, "the links are drawn");
    drop(viewer);

    // An agent radius and area costs, on terrain.json (area types, one layer, no links).
    let terrain = data("levels/terrain.json");
    let nav = dir.path().join("terrain.nav");
    let nav = nav.to_str().unwrap();
    assert!(trinav(&["bake", &terrain, "-o", nav]).status.success());
    // The page's server reads the file `trinav path` reads.
    let viewer = Viewer::start(nav, &[]);
    open(&browser, &viewer, "");
    let mesh = NavMesh::load(nav).unwrap();
    let b = mesh.bounds();
    let (from, to) = (
        [b.min.x + 0.2 * (b.max.x - b.min.x), b.min.y + 0.5 * (b.max.y - b.min.y)],
        [b.min.x + 0.8 * (b.max.x - b.min.x), b.min.y + 0.5 * (b.max.y - b.min.y)],
    );
    // Costs by type and by the names the mesh keeps (terrain.json: road 1, mud 2).
    for (radius, costs, args) in [
        ("0.5", "", vec!["--radius", "0.5"]),
        ("0", "1=3, 2=0.5", vec!["--cost", "1=3", "--cost", "2=0.5"]),
        ("0", "road=3, mud=0.5", vec!["--cost", "road=3", "--cost", "mud=0.5"]),
    ] {
        enter(&browser, "radius", radius);
        enter(&browser, "costs", costs);
        let cost = click_path(&browser, from, to);
        let (start, goal) = ends_shown(&browser);
        let (f, g) = (format!("{},{}", start[0], start[1]), format!("{},{}", goal[0], goal[1]));
        let cli = cli_path_with(
            nav,
            &[&["--from", &f, "--to", &g, "--mode", "optimal", "--snap"], &args[..]].concat(),
        );
        let page = js(&browser, "return window.trinavView.state.paths.optimal");
        assert_eq!(Some(cost), cli["cost"].as_f64(), "radius {radius}, costs {costs}: {cli}\npage: {page}");
        say(&format!("page: terrain.json radius {radius} costs [{costs}]: optimal cost {cost}"));
    }
    // A box obstacle added on the page (as Ctrl+click twice does): the optimal path equals
    // `trinav path` on the mesh `trinav edit --add` makes with the same box; removed, the
    // path of the file again.
    enter(&browser, "costs", "");
    let plain = click_path(&browser, from, to);
    let (mid_x, mid_y) = ((from[0] + to[0]) / 2.0, from[1]);
    let outer = [
        [mid_x - 2.0, mid_y - 3.0],
        [mid_x + 2.0, mid_y - 3.0],
        [mid_x + 2.0, mid_y + 3.0],
        [mid_x - 2.0, mid_y + 3.0],
    ];
    browser
        .execute(
            "window.trinavView.addBox(arguments[0], arguments[1]); return null",
            json!([outer[0], outer[2]]),
        )
        .unwrap();
    browser
        .wait_for(
            "the edit",
            "return document.getElementById('obstacle-note').dataset.triangles !== undefined",
        )
        .unwrap();
    browser.wait_for("both paths", BOTH_COSTS).unwrap();
    let box_file = dir.path().join("box.json");
    std::fs::write(&box_file, json!({"outer": outer}).to_string()).unwrap();
    let edited = dir.path().join("edited.nav");
    let edit = trinav(&["edit", nav, "--add", box_file.to_str().unwrap(), "-o", edited.to_str().unwrap()]);
    assert!(edit.status.success(), "{}", String::from_utf8_lossy(&edit.stderr));
    let (start, goal) = ends_shown(&browser);
    let (f, g) = (format!("{},{}", start[0], start[1]), format!("{},{}", goal[0], goal[1]));
    let cli =
        cli_path_with(edited.to_str().unwrap(), &["--from", &f, "--to", &g, "--mode", "optimal", "--snap"]);
    let around = data_number(&browser, "#path-optimal .cost", "value").unwrap();
    assert_eq!(Some(around), cli["cost"].as_f64(), "{cli}");
    assert!(around > plain, "the box is in the way: {around} > {plain}");
    let triangles = data_number(&browser, "#obstacle-note", "triangles").unwrap();
    assert_eq!(
        Some(triangles),
        NavMesh::load(edited.to_str().unwrap()).map(|m| m.triangle_count() as f64).ok()
    );
    let png = browser.screenshot().unwrap();
    std::fs::write(artifacts().join("terrain-obstacle.png"), &png).unwrap();
    browser
        .execute("document.querySelector('#obstacle-list button').click(); return null", json!([]))
        .unwrap();
    // The list is emptied and the paths asked again in one step, after the mesh is reloaded.
    browser
        .wait_for("the removal", "return document.getElementById('obstacle-list').children.length === 0")
        .unwrap();
    browser.wait_for("the path again", BOTH_COSTS).unwrap();
    assert_eq!(data_number(&browser, "#path-optimal .cost", "value"), Some(plain));
    say(&format!("page: terrain.json box obstacle: optimal cost {plain} -> {around} -> {plain}"));

    enter(&browser, "costs", "mud");
    browser.click(pixel(&browser, from[0], from[1]), false).unwrap();
    browser.click(pixel(&browser, to[0], to[1]), false).unwrap();
    browser.wait_for("the error", "return document.getElementById('error').textContent !== ''").unwrap();
    assert!(text_of(&browser, "#error").starts_with("costs: \"mud\""), "{}", text_of(&browser, "#error"));
}

/// A Moving AI map of `side` × `side` cells, a tenth of them blocked at random (the same for
/// the same seed).
fn random_map(side: usize, seed: u64) -> String {
    let mut rng = trinav_bake::generate::SplitMix64::new(seed);
    let mut map = format!("type octile\nheight {side}\nwidth {side}\nmap\n");
    for _ in 0..side {
        map.extend((0..side).map(|_| if rng.below(10) == 0 { '@' } else { '.' }));
        map.push('\n');
    }
    map
}

#[test]
fn a_100k_triangle_mesh_pans_and_zooms_with_both_renderers() {
    let Some((_turn, browser)) = browser("a_100k_triangle_mesh_pans_and_zooms_with_both_renderers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("random480.map");
    std::fs::write(&map, random_map(480, 7)).unwrap();
    let viewer = Viewer::start(map.to_str().unwrap(), &[]);
    let triangles = viewer.mesh()["stats"]["triangles"].as_u64().unwrap();
    assert!(triangles >= 100_000, "{triangles} triangles");

    let mut results = Vec::new();
    for (renderer, name) in [("webgl", "WebGL 2"), ("canvas", "2D canvas")] {
        open(&browser, &viewer, &format!("?renderer={renderer}"));
        let note = text_of(&browser, "#renderer");
        assert!(note.starts_with(&format!("Drawn with {name}: ")), "{note}");
        let png = browser.screenshot().unwrap();
        std::fs::write(artifacts().join(format!("random480-{renderer}.png")), &png).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgba8();
        // Island 0's colour, blended with the edges and boundary of small triangles.
        assert!(pixels_near(&image, [0xcf, 0xe3, 0xf7], 40) > 50_000, "{renderer}: the mesh is drawn");
        // As the viewer pans and zooms (snapshots, zoom levels), then drawing every triangle
        // every frame (the renderer's own speed).
        for (direct, frames) in [(false, 120), (true, 10)] {
            let measured = browser
                .execute(
                    "return window.trinavView.measureFrames(arguments[0], arguments[1])",
                    json!([frames, direct]),
                )
                .unwrap();
            assert_eq!(measured["renderer"], name);
            assert_eq!(measured["triangles"], triangles);
            assert_eq!(measured["frames"], frames);
            let number = |key: &str| measured[key].as_f64().unwrap();
            say(&format!(
                "frame times, {triangles} triangles, {name}, {}: median {:.1} ms, p95 {:.1} ms, max {:.1} ms, \
                 mean {:.1} ms = {:.1} fps ({} snapshots drawn)",
                if direct { "every triangle every frame" } else { "as the viewer pans and zooms" },
                number("median_ms"),
                number("p95_ms"),
                number("max_ms"),
                number("mean_ms"),
                number("fps"),
                measured["renders"],
            ));
            results.push(json!({"note": note, "frames": measured}));
        }
    }
    std::fs::write(artifacts().join("frame-times.json"), serde_json::to_string_pretty(&results).unwrap())
        .unwrap();
}
