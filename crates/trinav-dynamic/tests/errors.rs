//! Bad input to an editable mesh: a typed error and the mesh unchanged (same bytes, same
//! snapshot, same obstacles); an agent whose position an obstacle covers gets "off the mesh"
//! (or a snapped path), never a panic.

mod common;

use std::sync::Arc;

use trinav::{BakeSettings, PathError, PathOptions, PathScratch, Point};
use trinav_bake::import::grid::Grid;
use trinav_bake::{Level, PolygonInput, ValidationError, bake};
use trinav_dynamic::{EditError, EditableMesh, ObstacleId};

fn room() -> EditableMesh {
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 40.0, 20.0)],
        obstacles: vec![PolygonInput::rect(10.0, 5.0, 12.0, 15.0)],
        agent_radius: None,
        ..Level::default()
    };
    let mut editable =
        EditableMesh::new(bake(&level, &BakeSettings::default().with_agent_radius(0.5)).unwrap().mesh);
    editable.add_obstacle(&PolygonInput::rect(20.0, 5.0, 22.0, 9.0)).unwrap();
    editable
}

/// Runs `change` and asserts it fails as `expected` says, leaving `editable` as it was.
fn refused(
    editable: &mut EditableMesh,
    change: impl FnOnce(&mut EditableMesh) -> Result<(), EditError>,
    expected: fn(&EditError) -> bool,
) {
    let (bytes, snapshot) = (editable.mesh().to_bytes().unwrap(), editable.snapshot());
    let obstacles: Vec<(ObstacleId, PolygonInput)> =
        editable.obstacles().map(|(id, p)| (id, p.clone())).collect();
    let err = change(editable).expect_err("the change was accepted");
    assert!(expected(&err), "unexpected error: {err}");
    assert!(!err.to_string().is_empty());
    assert!(Arc::ptr_eq(&snapshot, &editable.snapshot()), "{err}: a new mesh was published");
    assert_eq!(editable.mesh().to_bytes().unwrap(), bytes, "{err}: the mesh changed");
    let after: Vec<(ObstacleId, PolygonInput)> =
        editable.obstacles().map(|(id, p)| (id, p.clone())).collect();
    assert_eq!(after, obstacles, "{err}: the obstacles changed");
    // And it still takes good changes.
    let id = editable.add_obstacle(&PolygonInput::rect(30.0, 2.0, 31.0, 3.0)).unwrap();
    editable.remove_obstacle(id).unwrap();
}

#[test]
fn bad_obstacles_are_refused_and_change_nothing() {
    let mut editable = room();
    let bow_tie = PolygonInput::new(vec![[1.0, 1.0], [3.0, 3.0], [3.0, 1.0], [1.0, 3.0]]);
    refused(
        &mut editable,
        |e| e.add_obstacle(&bow_tie).map(drop),
        |e| matches!(e, EditError::Invalid(ValidationError::SelfIntersection(_))),
    );
    let huge = PolygonInput::rect(0.0, 0.0, 1e9, 1.0);
    refused(
        &mut editable,
        |e| e.add_obstacle(&huge).map(drop),
        |e| matches!(e, EditError::Invalid(ValidationError::TooLarge { .. })),
    );
    let nan = PolygonInput::rect(0.0, 0.0, f64::NAN, 1.0);
    refused(
        &mut editable,
        |e| e.add_obstacle(&nan).map(drop),
        |e| matches!(e, EditError::Invalid(ValidationError::NonFinite { .. })),
    );
    let flat = PolygonInput::new(vec![[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]);
    refused(
        &mut editable,
        |e| e.add_obstacle(&flat).map(drop),
        |e| matches!(e, EditError::Invalid(ValidationError::ZeroArea { .. })),
    );
    refused(
        &mut editable,
        |e| e.replace_obstacle(ObstacleId(0), &bow_tie),
        |e| matches!(e, EditError::Invalid(_)),
    );
    // A move that takes the obstacle out of range.
    refused(
        &mut editable,
        |e| e.move_obstacle(ObstacleId(0), [3e8, 0.0]),
        |e| matches!(e, EditError::Invalid(ValidationError::TooLarge { .. })),
    );
}

#[test]
fn unknown_ids_are_refused_and_change_nothing() {
    let mut editable = room();
    for id in [ObstacleId(1), ObstacleId(7), ObstacleId(u32::MAX)] {
        refused(&mut editable, |e| e.remove_obstacle(id), |e| matches!(e, EditError::UnknownObstacle(_)));
        refused(
            &mut editable,
            |e| e.move_obstacle(id, [1.0, 0.0]),
            |e| matches!(e, EditError::UnknownObstacle(_)),
        );
        refused(
            &mut editable,
            |e| e.replace_obstacle(id, &PolygonInput::rect(1.0, 1.0, 2.0, 2.0)),
            |e| matches!(e, EditError::UnknownObstacle(_)),
        );
    }
    // Removed ids stay unknown; ids are not reused.
    editable.remove_obstacle(ObstacleId(0)).unwrap();
    refused(
        &mut editable,
        |e| e.remove_obstacle(ObstacleId(0)),
        |e| matches!(e, EditError::UnknownObstacle(ObstacleId(0))),
    );
    let a = editable.add_obstacle(&PolygonInput::rect(1.0, 1.0, 2.0, 2.0)).unwrap();
    let b = editable.add_obstacle(&PolygonInput::rect(3.0, 1.0, 4.0, 2.0)).unwrap();
    assert!(a > ObstacleId(0) && b > a);
    assert!(editable.obstacle(ObstacleId(0)).is_none());
}

#[test]
fn bad_cell_patches_are_refused_and_change_nothing() {
    let grid = Grid { width: 20, height: 10, blocked: vec![false; 200] };
    let mut editable = EditableMesh::from_grid(grid, &BakeSettings::default()).unwrap();
    let patch = |w: u32, h: u32| Grid { width: w, height: h, blocked: vec![true; (w * h) as usize] };
    refused(
        &mut editable,
        |e| e.set_cells(18, 0, &patch(3, 1)),
        |e| matches!(e, EditError::PatchOutsideGrid { x: 18, width: 3, .. }),
    );
    refused(
        &mut editable,
        |e| e.set_cells(0, 9, &patch(1, 2)),
        |e| matches!(e, EditError::PatchOutsideGrid { .. }),
    );
    refused(
        &mut editable,
        |e| e.set_cells(u32::MAX, 0, &patch(1, 1)),
        |e| matches!(e, EditError::PatchOutsideGrid { .. }),
    );
    let ragged = Grid { width: 2, height: 2, blocked: vec![true; 3] };
    refused(
        &mut editable,
        |e| e.set_cells(0, 0, &ragged),
        |e| matches!(e, EditError::BadGrid { cells: 3, .. }),
    );
    refused(&mut editable, |e| e.set_cells(0, 0, &patch(0, 1)), |e| matches!(e, EditError::BadGrid { .. }));
    // Cells on a mesh that is not a grid.
    let mut editable = room();
    refused(&mut editable, |e| e.set_cells(0, 0, &patch(1, 1)), |e| matches!(e, EditError::NotAGrid));
}

#[test]
fn bad_grids_are_refused() {
    let grid = Grid { width: 4, height: 4, blocked: vec![false; 16] };
    let radius = BakeSettings::default().with_agent_radius(0.5);
    assert!(matches!(EditableMesh::from_grid(grid.clone(), &radius), Err(EditError::GridRadius { .. })));
    assert!(matches!(
        EditableMesh::from_grid_with_tiles(grid.clone(), &BakeSettings::default(), 0),
        Err(EditError::TileSize(0))
    ));
    let ragged = Grid { width: 4, height: 4, blocked: vec![false; 15] };
    assert!(matches!(
        EditableMesh::from_grid(ragged, &BakeSettings::default()),
        Err(EditError::BadGrid { .. })
    ));
    let bad_settings = BakeSettings::default().with_arc_error(2.0);
    assert!(matches!(EditableMesh::from_grid(grid, &bad_settings), Err(EditError::Settings(_))));
}

#[test]
fn an_agent_under_a_new_obstacle_is_off_the_mesh_or_snapped() {
    let mut editable = room();
    let agent = Point::new(30.0, 10.0);
    let goal = Point::new(2.0, 2.0);
    let mut scratch = PathScratch::new();
    assert!(editable.snapshot().find_path_with(agent, goal, &PathOptions::default(), &mut scratch).is_ok());
    editable.add_obstacle(&PolygonInput::rect(28.0, 8.0, 32.0, 12.0)).unwrap();
    let mesh = editable.snapshot();
    assert!(matches!(
        mesh.find_path_with(agent, goal, &PathOptions::default(), &mut scratch),
        Err(PathError::OffMesh { .. })
    ));
    let snapped =
        mesh.find_path_with(agent, goal, &PathOptions::default().with_snap(true), &mut scratch).unwrap();
    let start = snapped.points[0];
    // Snapped to the border of the inflated obstacle (radius 0.5): 2.5 from the agent.
    assert!((start.distance(agent) - 2.5).abs() < 0.01, "snapped to {start:?}");
    assert!(mesh.locate(start).is_some());
}

/// Two rooms side by side joined by a portal along all of x = 10, baked at radius 0.5 (the bake
/// inflates each room's obstacles into the other across the portal). An obstacle whose
/// inflation would reach the other room is refused by name, the mesh unchanged; one that stays
/// clear of it gives the full bake's answer.
#[test]
fn an_obstacle_reaching_across_a_portal_at_a_bake_radius_is_refused() {
    use trinav::{LayerId, PathMode};
    use trinav_bake::{LayerInput, PortalInput};
    let room = |name: &str, x0: f64, obstacles: Vec<PolygonInput>| LayerInput {
        name: name.into(),
        walkable: vec![PolygonInput::rect(x0, 0.0, x0 + 10.0, 10.0)],
        obstacles,
        ..LayerInput::default()
    };
    let level = |west: Vec<PolygonInput>| Level {
        layers: vec![room("west", 0.0, west), room("east", 10.0, vec![])],
        portals: vec![PortalInput {
            layers: ["west".into(), "east".into()],
            from: [10., 0.],
            to: [10., 10.],
        }],
        ..Level::default()
    };
    let settings = BakeSettings::default().with_agent_radius(0.5);
    let mut editable = EditableMesh::new(bake(&level(vec![]), &settings).unwrap().mesh);
    let west = LayerId(0);
    // Refused, and nothing changes.
    let unchanged = |editable: &EditableMesh, bytes: &[u8], snapshot: &Arc<trinav::NavMesh>| {
        assert_eq!(editable.mesh().to_bytes().unwrap(), bytes);
        assert!(Arc::ptr_eq(snapshot, &editable.snapshot()));
    };
    let (bytes, snapshot) = (editable.mesh().to_bytes().unwrap(), editable.snapshot());
    let near = PolygonInput::rect(8.0, 4.0, 9.75, 5.0); // inflated to 10.25
    let err = editable.add_obstacle_on(west, &near).unwrap_err();
    assert_eq!(err, EditError::ReachesAnotherLayer { layer: west, other: LayerId(1), agent_radius: 0.5 });
    assert!(err.to_string().contains("bake at radius 0 and give the radius to queries"), "{err}");
    unchanged(&editable, &bytes, &snapshot);
    let clear = PolygonInput::rect(3.0, 3.0, 4.0, 4.0);
    let id = editable.add_obstacle_on(west, &clear).unwrap();
    let (bytes, snapshot) = (editable.mesh().to_bytes().unwrap(), editable.snapshot());
    let err = editable.move_obstacle(id, [5.5, 0.0]).unwrap_err();
    assert!(matches!(err, EditError::ReachesAnotherLayer { other: LayerId(1), .. }), "{err}");
    unchanged(&editable, &bytes, &snapshot);
    let rebaked = bake(&level(vec![clear]), &settings).unwrap().mesh;
    let (ours, theirs) = (editable.mesh().stats(), rebaked.stats());
    assert!((ours.area - theirs.area).abs() < 1e-9 * theirs.area && ours.islands == theirs.islands);
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let (from, to) = (Point::new(1.0, 3.5), Point::new(19.0, 3.5));
    let mut scratch = PathScratch::new();
    let ours = editable.mesh().find_path_with(from, to, &options, &mut scratch).unwrap().length;
    let theirs = rebaked.find_path_with(from, to, &options, &mut scratch).unwrap().length;
    assert!((ours - theirs).abs() < 1e-9 * theirs && ours > 18.0, "{ours} vs {theirs}");
}
