//! "Same answer as a full re-bake": random sequences of obstacles added, moved and removed,
//! and of grid patches, each step compared with a bake of the level as it then is (walkable
//! area, islands, optimal path lengths), with the derived data of the changed mesh checked
//! against a fresh derive; and the same sequence twice gives the same bytes.

mod common;

use common::{assert_same_as_bake, quarter, random_obstacle, rng};
use rand::{Rng, RngExt};
use trinav::build::check_derived;
use trinav::{BakeSettings, NavMesh, Point};
use trinav_bake::import::grid::Grid;
use trinav_bake::import::{Source, bake_source};
use trinav_bake::{Level, PolygonInput, bake};
use trinav_dynamic::{EditableMesh, ObstacleId};

/// A 60 × 60 room with a few fixed obstacles.
fn room(rng: &mut impl Rng) -> Level {
    let obstacles = (0..6).map(|_| {
        let (x, y) = (quarter(rng, 5.0, 55.0), quarter(rng, 5.0, 55.0));
        PolygonInput::rect(x, y, x + quarter(rng, 1.0, 6.0), y + quarter(rng, 1.0, 6.0))
    });
    Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 60.0, 60.0)],
        obstacles: obstacles.collect(),
        agent_radius: None,
        ..Level::default()
    }
}

/// One random change to `editable`, mirrored in `obstacles` (id, polygon).
fn random_change(
    rng: &mut impl Rng,
    editable: &mut EditableMesh,
    obstacles: &mut Vec<(ObstacleId, PolygonInput)>,
) -> String {
    let choice = if obstacles.is_empty() { 0 } else { rng.random_range(0..4) };
    match choice {
        0 | 1 => {
            let (cx, cy) = (quarter(rng, -2.0, 62.0), quarter(rng, -2.0, 62.0));
            let polygon = random_obstacle(rng, cx, cy);
            let id = editable.add_obstacle(&polygon).unwrap_or_else(|e| panic!("add {polygon:?}: {e}"));
            obstacles.push((id, polygon));
            format!("add {id}")
        }
        2 => {
            let i = rng.random_range(0..obstacles.len());
            let offset = [quarter(rng, -6.0, 6.0), quarter(rng, -6.0, 6.0)];
            let (id, polygon) = &mut obstacles[i];
            editable.move_obstacle(*id, offset).unwrap_or_else(|e| panic!("move {id}: {e}"));
            let moved = |r: &Vec<[f64; 2]>| {
                r.iter().map(|&[x, y]| [x + offset[0], y + offset[1]]).collect::<Vec<_>>()
            };
            *polygon = PolygonInput {
                outer: moved(&polygon.outer),
                holes: polygon.holes.iter().map(moved).collect(),
            };
            format!("move {id} by {offset:?}")
        }
        _ => {
            let (id, _) = obstacles.swap_remove(rng.random_range(0..obstacles.len()));
            editable.remove_obstacle(id).unwrap_or_else(|e| panic!("remove {id}: {e}"));
            format!("remove {id}")
        }
    }
}

fn run_sequence(seed: u64, radius: f64, steps: usize, compare_every: usize) -> Vec<u8> {
    let mut rng = rng(seed);
    let level = room(&mut rng);
    let settings = BakeSettings::default().with_agent_radius(radius);
    let mut editable = EditableMesh::new(bake(&level, &settings).expect("bakes").mesh);
    let mut obstacles = Vec::new();
    // Inflated arcs are rounded to the boolean engine's grid, which depends on the extent of
    // each operation: a bake and a change round a chord point differently by up to a grid step.
    let tolerance = if radius > 0.0 { 1e-6 } else { 1e-9 };
    let mut near = 0;
    for step in 0..steps {
        let what = random_change(&mut rng, &mut editable, &mut obstacles);
        let what = format!("seed {seed} radius {radius} step {step} ({what})");
        check_derived(editable.mesh()).unwrap_or_else(|e| panic!("{what}: {e}"));
        if step % compare_every == 0 || step + 1 == steps {
            let mut full = level.clone();
            full.obstacles.extend(obstacles.iter().map(|(_, p)| p.clone()));
            let baked = bake(&full, &settings).expect("the full level bakes").mesh;
            let area = (Point::new(0.0, 0.0), Point::new(60.0, 60.0));
            near += assert_same_as_bake(&mut rng, editable.mesh(), &baked, area, 30, tolerance, &what);
        }
    }
    if radius == 0.0 {
        assert_eq!(near, 0, "with radius 0 every point is on both meshes or on neither");
    }
    editable.mesh().to_bytes().unwrap()
}

#[test]
fn random_adds_moves_and_removes_equal_a_full_bake() {
    for seed in 0..4 {
        run_sequence(seed, 0.0, 40, 1);
    }
}

#[test]
fn random_changes_with_an_agent_radius_equal_a_full_bake() {
    for seed in 10..13 {
        run_sequence(seed, 0.5, 30, 3);
    }
}

#[test]
fn the_same_sequence_gives_the_same_bytes() {
    for (seed, radius) in [(20, 0.0), (21, 0.5)] {
        let bytes = run_sequence(seed, radius, 25, 100);
        assert_eq!(bytes, run_sequence(seed, radius, 25, 100), "seed {seed}");
        NavMesh::from_bytes(&bytes).expect("the changed mesh saves and loads");
    }
}

#[test]
fn obstacles_added_in_any_order_give_the_same_walkable_area() {
    let mut rng = rng(30);
    let level = room(&mut rng);
    let polygons: Vec<PolygonInput> = (0..12)
        .map(|_| {
            let (cx, cy) = (quarter(&mut rng, 10.0, 50.0), quarter(&mut rng, 10.0, 50.0));
            random_obstacle(&mut rng, cx, cy)
        })
        .collect();
    let settings = BakeSettings::default();
    let build = |order: &[usize]| {
        let mut editable = EditableMesh::new(bake(&level, &settings).unwrap().mesh);
        for &i in order {
            editable.add_obstacle(&polygons[i]).unwrap();
        }
        editable.snapshot()
    };
    let forwards = build(&(0..12).collect::<Vec<_>>());
    let backwards = build(&(0..12).rev().collect::<Vec<_>>());
    let area = (Point::new(0.0, 0.0), Point::new(60.0, 60.0));
    assert_eq!(assert_same_as_bake(&mut rng, &forwards, &backwards, area, 40, 1e-12, "orders"), 0);
    assert_eq!(forwards.triangle_count(), backwards.triangle_count());
}

/// A `width` × `height` grid with a tenth of its cells blocked.
fn random_grid(rng: &mut impl Rng, width: u32, height: u32, blocked: f64) -> Grid {
    Grid { width, height, blocked: (0..width * height).map(|_| rng.random_bool(blocked)).collect() }
}

#[test]
fn random_grid_patches_equal_a_bake_of_the_final_grid() {
    for (seed, tile) in [(40, 8), (41, 5), (42, 16), (43, 1)] {
        let mut rng = rng(seed);
        let (w, h) = (37, 29);
        let settings = BakeSettings::default();
        let mut editable =
            EditableMesh::from_grid_with_tiles(random_grid(&mut rng, w, h, 0.1), &settings, tile).unwrap();
        for step in 0..30 {
            let (pw, ph) = (rng.random_range(1..12), rng.random_range(1..12));
            let (x, y) = (rng.random_range(0..=w - pw), rng.random_range(0..=h - ph));
            let density = rng.random_range(0.0..0.9);
            let patch = random_grid(&mut rng, pw, ph, density);
            editable.set_cells(x, y, &patch).unwrap_or_else(|e| panic!("seed {seed} step {step}: {e}"));
            let what = format!("seed {seed} tile {tile} step {step}: patch {pw}x{ph} at ({x}, {y})");
            check_derived(editable.mesh()).unwrap_or_else(|e| panic!("{what}: {e}"));
            let grid = editable.grid().unwrap().clone();
            let baked = bake_source(&Source::Grid(grid), &settings).map(|b| b.mesh);
            let Ok(baked) = baked else {
                assert_eq!(editable.mesh().triangle_count(), 0, "{what}: nothing walkable, yet triangles");
                continue;
            };
            let area = (Point::new(0.0, 0.0), Point::new(f64::from(w), f64::from(h)));
            assert_eq!(assert_same_as_bake(&mut rng, editable.mesh(), &baked, area, 25, 1e-9, &what), 0);
        }
    }
}

#[test]
fn the_same_grid_patches_give_the_same_bytes() {
    let run = || {
        let mut rng = rng(50);
        let mut editable =
            EditableMesh::from_grid(random_grid(&mut rng, 50, 40, 0.2), &BakeSettings::default()).unwrap();
        for _ in 0..20 {
            let (pw, ph) = (rng.random_range(1..15), rng.random_range(1..15));
            let (x, y) = (rng.random_range(0..=50 - pw), rng.random_range(0..=40 - ph));
            editable.set_cells(x, y, &random_grid(&mut rng, pw, ph, 0.5)).unwrap();
        }
        editable.mesh().to_bytes().unwrap()
    };
    assert_eq!(run(), run());
}

#[test]
fn obstacles_on_a_grid_mesh_follow_its_cells() {
    let mut rng = rng(60);
    let settings = BakeSettings::default();
    let mut editable =
        EditableMesh::from_grid_with_tiles(random_grid(&mut rng, 30, 30, 0.05), &settings, 6).unwrap();
    let mut obstacles: Vec<(ObstacleId, PolygonInput)> = Vec::new();
    for step in 0..30 {
        if rng.random_bool(0.5) {
            let what = random_change(&mut rng, &mut editable, &mut obstacles);
            let _ = what;
        } else {
            let (pw, ph) = (rng.random_range(1..8), rng.random_range(1..8));
            let (x, y) = (rng.random_range(0..=30 - pw), rng.random_range(0..=30 - ph));
            editable.set_cells(x, y, &random_grid(&mut rng, pw, ph, 0.4)).unwrap();
        }
        let what = format!("step {step}");
        check_derived(editable.mesh()).unwrap_or_else(|e| panic!("{what}: {e}"));
        // The level: the grid's rectangle, its blocked cells and the obstacles as obstacles.
        let mut level = editable.grid().unwrap().to_level().unwrap();
        level.obstacles.extend(obstacles.iter().map(|(_, p)| p.clone()));
        let Ok(baked) = bake(&level, &settings) else { continue };
        let area = (Point::new(0.0, 0.0), Point::new(30.0, 30.0));
        assert_eq!(assert_same_as_bake(&mut rng, editable.mesh(), &baked.mesh, area, 20, 1e-9, &what), 0);
    }
}

/// Cells set one at a time in large tiles: only the triangles that differ from the tiles' old
/// ones are replaced (a small part of what the tiles hold; none when a cell is written with
/// the value it has), and the mesh still equals a bake of the grid.
#[test]
fn cells_set_replace_only_the_triangles_that_change() {
    let mut rng = rng(70);
    let settings = BakeSettings::default();
    let (w, h) = (64, 64);
    let mut editable =
        EditableMesh::from_grid_with_tiles(random_grid(&mut rng, w, h, 0.1), &settings, 32).unwrap();
    let (mut replaced, mut held) = (0, 0);
    for step in 0..40 {
        let (x, y) = (rng.random_range(0..w), rng.random_range(0..h));
        let value = editable.grid().unwrap().is_blocked(i64::from(x), i64::from(y));
        let what = format!("step {step}: cell ({x}, {y})");
        // The same value again: nothing changes.
        let before = editable.mesh().to_bytes().unwrap();
        editable.set_cells(x, y, &Grid { width: 1, height: 1, blocked: vec![value] }).unwrap();
        let last = editable.last_change();
        assert_eq!((last.removed, last.added), (0, 0), "{what}");
        assert_eq!(editable.mesh().to_bytes().unwrap(), before, "{what}");

        held += editable.mesh().triangle_count();
        editable.set_cells(x, y, &Grid { width: 1, height: 1, blocked: vec![!value] }).unwrap();
        replaced += editable.last_change().removed;
        check_derived(editable.mesh()).unwrap_or_else(|e| panic!("{what}: {e}"));
        let baked = bake_source(&Source::Grid(editable.grid().unwrap().clone()), &settings).unwrap().mesh;
        let area = (Point::new(0.0, 0.0), Point::new(f64::from(w), f64::from(h)));
        assert_eq!(assert_same_as_bake(&mut rng, editable.mesh(), &baked, area, 25, 1e-9, &what), 0);
    }
    // Recomputing whole tiles would replace at least a quarter of the mesh at each step.
    assert!(replaced * 8 < held, "{replaced} triangles replaced of {held}");
}
