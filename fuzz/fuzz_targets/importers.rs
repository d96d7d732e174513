//! Every text importer on arbitrary text: Moving AI maps, mazes, Polyanya meshes and polygon
//! maps, scenario and maze problem files. Ok or Err, never a panic. A small file that parses
//! is baked too (Ok, then valid with the area conserved, or Err); a map also with its letters
//! `S`, `W`, `T` as ground of area types.
//!
//! With `TRINAV_FUZZ_LOG` set, every bake error is printed to stderr as `bake error: ...`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use trinav::{AreaId, BakeSettings, Triangulation};
use trinav_bake::import::grid::Grid;
use trinav_bake::import::terrain::{GridTerrain, TerrainGrid};
use trinav_bake::import::{Source, bake_source, poly::parse_poly, polyanya::parse_mesh};

/// Larger files are parsed but not baked (keeps one run well under a second).
const MAX_BAKE_LEN: usize = 4096;
/// Grids this small are also baked with an agent radius (obstacles inflated).
const MAX_RADIUS_BAKE_LEN: usize = 1024;

fn log_enabled() -> bool {
    static LOG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LOG.get_or_init(|| std::env::var_os("TRINAV_FUZZ_LOG").is_some())
}

fn bake(what: &str, source: &Source, settings: &BakeSettings) {
    match bake_source(source, settings) {
        Ok(baked) => {
            let problems = baked.mesh.parts().find_problems();
            assert!(problems.is_empty(), "{what}: baked mesh is invalid: {problems:?}");
            let error = baked.report.verification.relative_area_error;
            assert!(error <= 1e-9, "{what}: relative area error {error:e}");
        }
        Err(e) => {
            if log_enabled() {
                eprintln!("bake error: {what}: {e:?}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let small = text.len() < MAX_BAKE_LEN;
    let default = BakeSettings::default();

    let grids = [("map", Grid::parse_map(&text, "fuzz.map")), ("maze", Grid::parse_maze(&text, "maze.txt"))];
    for (what, grid) in grids {
        let Ok(grid) = grid else { continue };
        if !small {
            continue;
        }
        let source = Source::Grid(grid);
        bake(what, &source, &default);
        bake(what, &source, &default.with_triangulation(Triangulation::EarClipping));
        if text.len() < MAX_RADIUS_BAKE_LEN {
            bake(what, &source, &default.with_agent_radius(0.3));
        }
    }
    // The map again with swamp, water and trees walkable ground of three types.
    let terrain = (GridTerrain::default().with_letter('S', AreaId(1)))
        .and_then(|t| t.with_letter('W', AreaId(2)))
        .and_then(|t| t.with_letter('T', AreaId(3)))
        .expect("valid terrain");
    if let Ok(grid) = TerrainGrid::parse_map(&text, "fuzz.map", &terrain)
        && small
        && grid.has_types()
    {
        let source = Source::Terrain(grid);
        bake("terrain map", &source, &default);
        bake("terrain map", &source, &default.with_triangulation(Triangulation::EarClipping));
        if text.len() < MAX_RADIUS_BAKE_LEN {
            bake("terrain map", &source, &default.with_agent_radius(0.3));
        }
    }
    let regions = [("mesh", parse_mesh(&text, "fuzz.mesh")), ("poly", parse_poly(&text, "fuzz.poly"))];
    for (what, region) in regions {
        let Ok(region) = region else { continue };
        if !small {
            continue;
        }
        let source = Source::Region(region);
        bake(what, &source, &default);
        bake(what, &source, &default.with_triangulation(Triangulation::EarClipping));
    }
    let _ = trinav_tools::scenario::parse_scenario(&text);
    let _ = trinav_tools::scenario::parse_problem(&text);
});
