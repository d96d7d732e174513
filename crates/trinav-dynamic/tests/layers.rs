//! Obstacles on layered meshes: random sequences of obstacles added on a layer, moved and
//! removed on random two-layer levels (a west room, and an east room whose strip lies over the
//! west room, joined by a portal), each step compared with a full bake of the level with the
//! same obstacles in their layers' `obstacles`: the walkable area of each layer, the islands,
//! and the optimal lengths between random points of random layers (both path modes answer on
//! the changed mesh). A bake refuses a portal that is not on both layers' boundaries, so the
//! oracle's level has the portal's parts that no obstacle covers as its portals. A level
//! whose floor folds round the portal's end takes an agent radius after each change.

mod common;

use common::{island_areas, quarter, rng};
use rand::{Rng, RngExt};
use trinav::build::check_derived;
use trinav::{
    BakeSettings, LayerId, NavMesh, PathError, PathMode, PathOptions, PathScratch, Point, TriangleId,
};
use trinav_bake::{LayerInput, Level, PolygonInput, PortalInput, bake};
use trinav_dynamic::{EditError, EditableMesh, ObstacleId};

/// The portal's line.
const PORTAL_X: f64 = 10.0;

/// A random two-layer level: "west" [0, 10]², "east" [10, 20] × [0, 10] plus a strip
/// [10 - w, 10] × [y1, 10] over the west room, a portal on x = 10 from y0 to y1, and a few
/// fixed obstacles away from the portal. Returns the level (without portals) and the portal's
/// y range.
fn random_level(rng: &mut impl Rng) -> (Level, (f64, f64)) {
    let (y0, y1) = (f64::from(rng.random_range(0..4)), f64::from(rng.random_range(5..9)));
    let w = f64::from(rng.random_range(2..7));
    let east_outline = vec![[10., 0.], [20., 0.], [20., 10.], [10. - w, 10.], [10. - w, y1], [10., y1]];
    let mut fixed = |x0: f64, x1: f64| {
        let (x, y) = (quarter(rng, x0, x1), quarter(rng, 0.5, 8.5));
        vec![PolygonInput::rect(x, y, x + 1.0, y + 1.0)]
    };
    let (west, east) = (fixed(1.0, 7.0), fixed(12.0, 18.0));
    let level = Level {
        layers: vec![
            LayerInput {
                name: "west".into(),
                walkable: vec![PolygonInput::rect(0.0, 0.0, 10.0, 10.0)],
                obstacles: west,
                ..LayerInput::default()
            },
            LayerInput {
                name: "east".into(),
                walkable: vec![PolygonInput::new(east_outline)],
                obstacles: east,
                ..LayerInput::default()
            },
        ],
        ..Level::default()
    };
    (level, (y0, y1))
}

/// A rectangle, on quarters; near the portal half the time.
fn random_rect(rng: &mut impl Rng) -> [f64; 4] {
    let (w, h) = (quarter(rng, 0.5, 4.0), quarter(rng, 0.5, 4.0));
    let cx = if rng.random_bool(0.5) { quarter(rng, 8.0, 12.0) } else { quarter(rng, -1.0, 21.0) };
    let (x, y) = (quarter(rng, cx - w, cx), quarter(rng, -1.0, 11.0 - h));
    [x, y, x + w, y + h]
}

fn rect(r: [f64; 4]) -> PolygonInput {
    PolygonInput::rect(r[0], r[1], r[2], r[3])
}

/// The parts of the portal `(y0, y1)` that no obstacle covers: an obstacle of the west layer
/// covers its y range where it reaches from the west over the line (x0 < 10 <= x1), one of
/// the east layer where it reaches from the east (x0 <= 10 < x1).
fn open_portal_parts(obstacles: &[(LayerId, [f64; 4])], (y0, y1): (f64, f64)) -> Vec<(f64, f64)> {
    let mut covered: Vec<(f64, f64)> = obstacles
        .iter()
        .filter(|(layer, r)| match layer.0 {
            0 => r[0] < PORTAL_X && PORTAL_X <= r[2],
            _ => r[0] <= PORTAL_X && PORTAL_X < r[2],
        })
        .map(|(_, r)| (r[1].max(y0), r[3].min(y1)))
        .filter(|(a, b)| a <= b)
        .collect();
    covered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut open, mut at) = (Vec::new(), y0);
    for (a, b) in covered {
        if a > at {
            open.push((at, a));
        }
        at = at.max(b);
    }
    if y1 > at {
        open.push((at, y1));
    }
    open
}

/// The level with `obstacles` in their layers and the open parts of the portal as portals.
fn full_level(level: &Level, obstacles: &[(LayerId, [f64; 4])], portal: (f64, f64)) -> Level {
    let mut full = level.clone();
    for &(layer, r) in obstacles {
        full.layers[layer.index()].obstacles.push(rect(r));
    }
    full.portals = (open_portal_parts(obstacles, portal).into_iter())
        .map(|(a, b)| PortalInput {
            layers: ["west".into(), "east".into()],
            from: [PORTAL_X, a],
            to: [PORTAL_X, b],
        })
        .collect();
    full
}

/// The walkable area of each layer.
fn layer_areas(mesh: &NavMesh) -> Vec<f64> {
    let mut areas = vec![0.0; mesh.layer_count()];
    for t in 0..mesh.triangle_count() {
        let t = TriangleId::from_index(t);
        let [a, b, c] = mesh.triangle_points(t);
        areas[mesh.triangle_layer(t).index()] +=
            ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) * 0.5;
    }
    areas
}

/// `mesh` against `baked`: the same area per layer and islands, a random point on a layer of
/// one is on that layer of the other, and optimal lengths agree (1e-9); the fast mode answers
/// where the optimal one does, never shorter.
fn assert_same_as_bake(rng: &mut impl Rng, mesh: &NavMesh, baked: &NavMesh, tolerance: f64, what: &str) {
    let (ours, theirs) = (layer_areas(mesh), layer_areas(baked));
    for (a, b) in ours.iter().zip(&theirs) {
        assert!((a - b).abs() <= tolerance * b.max(1.0), "{what}: layer areas {ours:?} vs bake {theirs:?}");
    }
    // Islands of no area to speak of (slivers between inflated arcs) may differ.
    let significant =
        |areas: Vec<f64>| areas.into_iter().filter(|&a| a > tolerance * 100.0).collect::<Vec<_>>();
    let (ours, theirs) = (significant(island_areas(mesh)), significant(island_areas(baked)));
    assert_eq!(ours.len(), theirs.len(), "{what}: islands {ours:?} vs bake {theirs:?}");
    for (a, b) in ours.iter().zip(&theirs) {
        assert!((a - b).abs() <= tolerance * b.max(1.0), "{what}: island areas {ours:?} vs bake {theirs:?}");
    }
    let mut scratch = PathScratch::new();
    let point = |rng: &mut dyn rand::Rng| loop {
        // Points of the east layer on its strip over the west room too: the ways there turn
        // round the portal's end by more than a half turn.
        let layer = LayerId(rng.random_range(0..2));
        let (x, y): (u32, u32) = (rng.random_range(0..40 + 40 * u32::from(layer.0)), rng.random_range(0..40));
        let x = f64::from(x) / 4.0 + 0.125;
        let p = Point::new(x, f64::from(y) / 4.0 + 0.125);
        let (a, b) = (mesh.locate_on(layer, p).is_some(), baked.locate_on(layer, p).is_some());
        if a != b {
            // Inflated arcs: the two round their chords' points differently, by a grid step.
            let near = |m: &NavMesh| m.nearest_point_on(layer, p).map_or(0.0, |(q, _)| q.distance(p));
            let d = near(mesh).max(near(baked));
            assert!(
                d <= tolerance * 100.0,
                "{what}: {p:?} on layer {layer}: changed mesh {a}, bake {b}, {d} apart"
            );
            continue;
        }
        if a {
            return (layer, p);
        }
    };
    let mut found = 0;
    for _ in 0..30 {
        let ends = (point(rng), point(rng));
        let options = PathOptions::default();
        found +=
            usize::from(paths_agree(what, (mesh, baked), ends, options, (tolerance, None), &mut scratch));
    }
    assert!(found > 0, "{what}: no path found at all");
}

/// One query (`options`, in both modes) on the changed `mesh` and on `baked`: optimal lengths
/// within `tolerance` (relative, at least 1 apart), or both unreachable; the fast mode answers
/// where the optimal one does, never shorter (to rounding) and at most `fast_over` times
/// longer (when given). Returns whether a path was found.
fn paths_agree(
    what: &str,
    (mesh, baked): (&NavMesh, &NavMesh),
    (from, to): ((LayerId, Point), (LayerId, Point)),
    options: PathOptions,
    (tolerance, fast_over): (f64, Option<f64>),
    scratch: &mut PathScratch,
) -> bool {
    let (optimal, fast) = (options.with_mode(PathMode::Optimal), options.with_mode(PathMode::Fast));
    let a = mesh.find_path_on(from, to, &optimal, scratch).map(|p| p.length);
    let b = baked.find_path_on(from, to, &optimal, scratch).map(|p| p.length);
    let f = mesh.find_path_on(from, to, &fast, scratch).map(|p| p.length);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert!((a - b).abs() <= tolerance * b.max(1.0), "{what}: {from:?} -> {to:?}: {a} vs bake {b}");
            let f = f.unwrap_or_else(|e| panic!("{what}: {from:?} -> {to:?}: fast {e:?}, optimal {a}"));
            assert!(
                f >= a * (1.0 - 1e-9) && fast_over.is_none_or(|over| f <= a * over),
                "{what}: {from:?} -> {to:?}: fast {f}, optimal {a}"
            );
            true
        }
        (Err(PathError::Unreachable), Err(PathError::Unreachable)) => {
            assert_eq!(f, Err(PathError::Unreachable), "{what}: {from:?} -> {to:?}: fast");
            false
        }
        (a, b) => panic!("{what}: {from:?} -> {to:?}: {a:?} vs bake {b:?}"),
    }
}

/// A random sequence of `steps` changes on a random level; returns the saved mesh. With an
/// agent radius the level has no portal (a bake refuses portals with a radius): two layers
/// that overlap and never meet, their obstacles inflated.
fn run_sequence(seed: u64, steps: usize, radius: f64) -> Vec<u8> {
    let mut rng = rng(seed);
    let (level, portal) = random_level(&mut rng);
    let settings = BakeSettings::default().with_agent_radius(radius);
    let full_level = |level: &Level, placed: &[(LayerId, [f64; 4])], portal| {
        let full = full_level(level, placed, portal);
        if radius > 0.0 { Level { portals: Vec::new(), ..full } } else { full }
    };
    // As in rebake.rs: a bake and a change round an inflated arc's chord points differently.
    let tolerance = if radius > 0.0 { 1e-6 } else { 1e-9 };
    let mut editable =
        EditableMesh::new(bake(&full_level(&level, &[], portal), &settings).expect("bakes").mesh);
    let mut obstacles: Vec<(ObstacleId, LayerId, [f64; 4])> = Vec::new();
    // With a radius, an inflated corner can land within a rounding of a wall's corner (e.g.
    // (10, -4e-16) beside (10, 0)): the change is refused as `Precision` and changes nothing.
    let refused = |e: EditError, editable: &EditableMesh, before: &[u8], what: String| {
        assert!(radius > 0.0 && matches!(e, EditError::Precision { .. }), "{what}: {e}");
        assert_eq!(editable.mesh().to_bytes().unwrap(), before, "{what}: refused, yet changed");
    };
    for step in 0..steps {
        let choice = if obstacles.is_empty() { 0 } else { rng.random_range(0..4) };
        let before = editable.mesh().to_bytes().unwrap();
        let what = match choice {
            0 | 1 => {
                let (layer, r) = (LayerId(rng.random_range(0..2)), random_rect(&mut rng));
                match editable.add_obstacle_on(layer, &rect(r)) {
                    Ok(id) => {
                        obstacles.push((id, layer, r));
                        format!("add {id} on {layer}: {r:?}")
                    }
                    Err(e) => {
                        refused(
                            e,
                            &editable,
                            &before,
                            format!("seed {seed} step {step}: add {r:?} on {layer}"),
                        );
                        continue;
                    }
                }
            }
            2 => {
                let i = rng.random_range(0..obstacles.len());
                let (dx, dy) = (quarter(&mut rng, -3.0, 3.0), quarter(&mut rng, -3.0, 3.0));
                let (id, _, r) = &mut obstacles[i];
                if let Err(e) = editable.move_obstacle(*id, [dx, dy]) {
                    refused(
                        e,
                        &editable,
                        &before,
                        format!("seed {seed} step {step}: move {id} by {dx}, {dy}"),
                    );
                    continue;
                }
                *r = [r[0] + dx, r[1] + dy, r[2] + dx, r[3] + dy];
                format!("move {id} to {r:?}")
            }
            _ => {
                let (id, _, _) = obstacles.swap_remove(rng.random_range(0..obstacles.len()));
                editable
                    .remove_obstacle(id)
                    .unwrap_or_else(|e| panic!("seed {seed} step {step}: remove {id}: {e}"));
                format!("remove {id}")
            }
        };
        let what = format!("seed {seed} step {step} ({what}), portal {portal:?}");
        check_derived(editable.mesh()).unwrap_or_else(|e| panic!("{what}: {e}"));
        let placed: Vec<(LayerId, [f64; 4])> = obstacles.iter().map(|&(_, l, r)| (l, r)).collect();
        for (id, layer, _) in &obstacles {
            assert_eq!(editable.obstacle_layer(*id), Some(*layer), "{what}");
        }
        let full = full_level(&level, &placed, portal);
        let baked = bake(&full, &settings).unwrap_or_else(|e| panic!("{what}: the full level: {e}")).mesh;
        assert_same_as_bake(&mut rng, editable.mesh(), &baked, tolerance, &what);
    }
    let bytes = editable.mesh().to_bytes().unwrap();
    let loaded = NavMesh::from_bytes(&bytes).expect("the changed mesh saves and loads");
    let placed: Vec<(LayerId, [f64; 4])> = obstacles.iter().map(|&(_, l, r)| (l, r)).collect();
    let baked = bake(&full_level(&level, &placed, portal), &settings).unwrap().mesh;
    assert_same_as_bake(&mut rng, &loaded, &baked, tolerance, &format!("seed {seed}: the loaded mesh"));
    bytes
}

#[test]
fn random_changes_on_layers_equal_a_full_bake() {
    let seeds = std::env::var("TRINAV_LAYER_SEQUENCES").ok().and_then(|v| v.parse().ok()).unwrap_or(6);
    for seed in 0..seeds {
        run_sequence(seed, 30, 0.0);
    }
}

#[test]
fn random_changes_on_layers_with_an_agent_radius_equal_a_full_bake() {
    let seeds: u64 = std::env::var("TRINAV_LAYER_SEQUENCES").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    for seed in 1000..1000 + seeds {
        run_sequence(seed, 20, 0.5);
    }
}

#[test]
fn the_same_sequence_on_layers_gives_the_same_bytes() {
    assert_eq!(run_sequence(100, 20, 0.0), run_sequence(100, 20, 0.0));
    assert_eq!(run_sequence(101, 10, 0.5), run_sequence(101, 10, 0.5));
}

/// A cart parks on the bridge: the road below stays free; a gate closes the portal's middle:
/// its ends still join the layers.
#[test]
fn an_obstacle_cuts_its_own_layer_only_and_closes_the_part_of_a_portal_it_covers() {
    let (level, _) = random_level(&mut rng(7));
    let level = Level {
        layers: level.layers.into_iter().map(|l| LayerInput { obstacles: Vec::new(), ..l }).collect(),
        ..level
    };
    let portal = (0.0, 5.0);
    let mut editable =
        EditableMesh::new(bake(&full_level(&level, &[], portal), &BakeSettings::default()).unwrap().mesh);
    let (west, east) = (LayerId(0), LayerId(1));
    let on_strip = Point::new(9.5, 8.0);
    assert!(
        editable.mesh().locate_on(west, on_strip).is_some()
            && editable.mesh().locate_on(east, on_strip).is_some()
    );
    // Without a layer on a two-layer mesh: refused, nothing changes.
    let before = editable.mesh().to_bytes().unwrap();
    assert_eq!(
        editable.add_obstacle(&rect([9.0, 7.5, 10.0, 8.5])),
        Err(EditError::LayerNeeded { layers: 2 })
    );
    assert_eq!(
        editable.add_obstacle_on(LayerId(2), &rect([9.0, 7.5, 10.0, 8.5])),
        Err(EditError::NoSuchLayer(LayerId(2)))
    );
    assert_eq!(editable.mesh().to_bytes().unwrap(), before);
    // The cart on the strip (east): the west room under it stays walkable.
    let cart = editable.add_obstacle_on(east, &rect([9.25, 7.5, 9.75, 8.5])).unwrap();
    assert!(editable.mesh().locate_on(east, on_strip).is_none());
    assert!(editable.mesh().locate_on(west, on_strip).is_some());
    // A gate on the west side over the portal's middle, y in [2, 3].
    let gate = editable.add_obstacle_on(west, &rect([9.5, 2.0, 10.5, 3.0])).unwrap();
    let optimal = PathOptions::default().with_mode(PathMode::Optimal);
    let mut scratch = PathScratch::new();
    let path = |mesh: &NavMesh, from: Point, to: Point, scratch: &mut PathScratch| {
        mesh.find_path_on((west, from), (east, to), &optimal, scratch).map(|p| p.length)
    };
    // Straight across at y = 2.5 is closed; at y = 1 and y = 4 it is open.
    let (a, b) = (Point::new(9.0, 2.5), Point::new(11.0, 2.5));
    let around = path(editable.mesh(), a, b, &mut scratch).unwrap();
    assert!(around > 2.0 + 1e-9, "{around}");
    for y in [1.0, 4.0] {
        let straight = path(editable.mesh(), Point::new(9.0, y), Point::new(11.0, y), &mut scratch).unwrap();
        assert!((straight - 2.0).abs() < 1e-12, "y {y}: {straight}");
    }
    let placed = [(east, [9.25, 7.5, 9.75, 8.5]), (west, [9.5, 2.0, 10.5, 3.0])];
    let baked = bake(&full_level(&level, &placed, portal), &BakeSettings::default()).unwrap().mesh;
    assert_eq!(around, path(&baked, a, b, &mut scratch).unwrap());
    // Moving and removing keep the layer; all removed, the mesh has its first shape.
    editable.move_obstacle(gate, [0.0, 1.0]).unwrap();
    assert_eq!(editable.obstacle_layer(gate), Some(west));
    editable.remove_obstacle(gate).unwrap();
    editable.remove_obstacle(cart).unwrap();
    check_derived(editable.mesh()).unwrap();
    assert_eq!(editable.mesh().area(), NavMesh::from_bytes(&before).unwrap().area());
    assert!((path(editable.mesh(), a, b, &mut scratch).unwrap() - 2.0).abs() < 1e-12);
}

/// The spare mesh brought up to date by copying what a change wrote (layers included) equals
/// the mesh copied whole: two editable meshes take the same changes, one with its snapshots
/// held by a reader (so each change copies the whole mesh), and save the same bytes at every
/// step.
#[test]
fn a_caught_up_spare_equals_a_copied_mesh_on_layers() {
    let mut rng = rng(200);
    let (level, portal) = random_level(&mut rng);
    let mesh = bake(&full_level(&level, &[], portal), &BakeSettings::default()).unwrap().mesh;
    let (mut caught_up, mut copied) = (EditableMesh::new(mesh.clone()), EditableMesh::new(mesh));
    let mut held = Vec::new();
    let mut ids = Vec::new();
    for step in 0..40 {
        if ids.is_empty() || rng.random_bool(0.5) {
            let (layer, r) = (LayerId(rng.random_range(0..2)), random_rect(&mut rng));
            let a = caught_up.add_obstacle_on(layer, &rect(r)).unwrap();
            assert_eq!(copied.add_obstacle_on(layer, &rect(r)).unwrap(), a);
            ids.push(a);
        } else if rng.random_bool(0.5) {
            let id = ids[rng.random_range(0..ids.len())];
            let by = [quarter(&mut rng, -3.0, 3.0), quarter(&mut rng, -3.0, 3.0)];
            caught_up.move_obstacle(id, by).unwrap();
            copied.move_obstacle(id, by).unwrap();
        } else {
            let id = ids.swap_remove(rng.random_range(0..ids.len()));
            caught_up.remove_obstacle(id).unwrap();
            copied.remove_obstacle(id).unwrap();
        }
        held.push(copied.snapshot());
        assert_eq!(caught_up.mesh().to_bytes().unwrap(), copied.mesh().to_bytes().unwrap(), "step {step}");
    }
    assert!(caught_up.copies() <= 1, "{} copies", caught_up.copies()); // the first change makes the spare
    assert!(copied.copies() > 30, "{} copies", copied.copies());
}

/// A floor that folds round the portal's end: the east layer a ramp up from the portal that
/// turns back over the west room (450 degrees round (10, 2)). It takes obstacles like any
/// layered mesh, and a disc's paths after each change (a crate in the west room, a box on the
/// ramp's foot that narrows the way round the fold, the box moved, removed) are a full
/// bake's of the level with the same obstacles: reachability and optimal lengths equal in
/// both modes' terms (fast mode found where optimal mode is, at most 5% longer).
#[test]
fn an_agent_radius_round_a_fold_after_changes_equals_a_full_bake() {
    let ramp = vec![[10., 0.], [14., 0.], [14., 10.], [0., 10.], [0., 2.], [10., 2.]];
    let layer = |name: &str, outline: PolygonInput| LayerInput {
        name: name.into(),
        walkable: vec![outline],
        ..LayerInput::default()
    };
    let level = Level {
        layers: vec![
            layer("west", PolygonInput::rect(0.0, 0.0, 10.0, 10.0)),
            layer("east", PolygonInput::new(ramp)),
        ],
        ..Level::default()
    };
    let portal = (0.0, 2.0);
    let (west, east) = (LayerId(0), LayerId(1));
    let mut editable =
        EditableMesh::new(bake(&full_level(&level, &[], portal), &BakeSettings::default()).unwrap().mesh);
    assert!(editable.mesh().layers_fold());
    let queries = [
        ((west, Point::new(5.0, 5.0)), (east, Point::new(5.0, 5.0))),
        ((west, Point::new(8.5, 1.0)), (east, Point::new(3.0, 9.0))),
        ((east, Point::new(12.5, 8.0)), (west, Point::new(2.0, 2.0))),
    ];
    let (mut placed, mut found, mut refused) = (Vec::new(), 0, 0);
    let mut check = |mesh: &NavMesh, placed: &[(LayerId, [f64; 4])]| {
        check_derived(mesh).unwrap();
        let baked = bake(&full_level(&level, placed, portal), &BakeSettings::default()).unwrap().mesh;
        let mut scratch = PathScratch::new();
        for r in [0.2, 0.35, 0.5] {
            for &ends in &queries {
                let what = format!("{placed:?} r {r}");
                let options = PathOptions::default().with_radius(r);
                match paths_agree(&what, (mesh, &baked), ends, options, (1e-9, Some(1.05)), &mut scratch) {
                    true => found += 1,
                    false => refused += 1,
                }
            }
        }
    };
    check(editable.mesh(), &placed);
    let crate_box = [2.0, 6.0, 3.0, 7.0];
    editable.add_obstacle_on(west, &rect(crate_box)).unwrap();
    placed.push((west, crate_box));
    check(editable.mesh(), &placed);
    // The box leaves 0.90 between its corner (10.5, 1.25) and the fold's (10, 2).
    let foot = [10.5, 0.0, 11.0, 1.25];
    let id = editable.add_obstacle_on(east, &rect(foot)).unwrap();
    placed.push((east, foot));
    check(editable.mesh(), &placed);
    // Up by a half: 0.56 to the fold's corner, 0.5 under it.
    editable.move_obstacle(id, [0.0, 0.5]).unwrap();
    placed[1] = (east, [10.5, 0.5, 11.0, 1.75]);
    check(editable.mesh(), &placed);
    editable.remove_obstacle(id).unwrap();
    placed.pop();
    check(editable.mesh(), &placed);
    // Without the box every radius reaches round the fold; past it r 0.5 does not, and past
    // it moved up neither does r 0.35.
    assert_eq!((found, refused), (5 * 9 - 9, 3 + 6));
}
