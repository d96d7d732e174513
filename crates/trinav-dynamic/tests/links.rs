//! Off-mesh links in a world that changes: an obstacle dropped on a link's end makes the link
//! unusable, and removing the obstacle makes it usable again (the links are located again after
//! every change).

use trinav::{BakeSettings, LinkId, OffMeshLink, PathError, PathMode, PathOptions, PathScratch, Point};
use trinav_bake::{Level, PolygonInput, bake};
use trinav_dynamic::EditableMesh;

#[test]
fn an_obstacle_on_a_link_end_disables_the_link_until_removed() {
    // Two rooms joined only by a one-way link from (8, 5) to (22, 5).
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 10.0, 10.0), PolygonInput::rect(20.0, 0.0, 30.0, 10.0)],
        ..Level::default()
    };
    let mut mesh = bake(&level, &BakeSettings::default()).unwrap().mesh;
    let link = mesh.add_link(OffMeshLink::new(Point::new(8.0, 5.0), Point::new(22.0, 5.0))).unwrap();
    let mut world = EditableMesh::new(mesh);
    let (a, b) = (Point::new(2.0, 5.0), Point::new(28.0, 5.0));
    let mut scratch = PathScratch::new();
    for mode in [PathMode::Fast, PathMode::Optimal] {
        let options = PathOptions::default().with_mode(mode);
        let path = world.snapshot().find_path_with(a, b, &options, &mut scratch).unwrap();
        assert_eq!((path.links.len(), path.cost), (1, 6.0 + 14.0 + 6.0), "{mode:?}");
    }
    // A box over the link's end: the link is kept but unusable, so no way leads across.
    let block = world.add_obstacle(&PolygonInput::rect(21.0, 4.0, 23.0, 6.0)).unwrap();
    let snapshot = world.snapshot();
    assert!(snapshot.link(link).is_some() && !snapshot.link_is_usable(link));
    for mode in [PathMode::Fast, PathMode::Optimal] {
        let options = PathOptions::default().with_mode(mode);
        assert_eq!(snapshot.find_path_with(a, b, &options, &mut scratch), Err(PathError::Unreachable));
    }
    world.remove_obstacle(block).unwrap();
    let snapshot = world.snapshot();
    assert!(snapshot.link_is_usable(LinkId(0)));
    let path = snapshot
        .find_path_with(a, b, &PathOptions::default().with_mode(PathMode::Optimal), &mut scratch)
        .unwrap();
    assert_eq!(path.cost, 26.0);
}

/// On a layered mesh a link's end is on a layer: an obstacle on that layer over the end makes
/// the link unusable, one on the other layer over the same x, y does not.
#[test]
fn an_obstacle_disables_a_link_only_when_on_the_layer_of_its_end() {
    // overpass.json: link 0 climbs from the road (ground) at (33, 21) to the bridge above it.
    let level = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/levels/overpass.json")).unwrap();
    let mut world = EditableMesh::new(bake(&level, &BakeSettings::default()).unwrap().mesh);
    let (ground, bridge) = (trinav::LayerId(0), trinav::LayerId(1));
    let end = Point::new(33.0, 21.0);
    assert!(world.mesh().link_is_usable(LinkId(0)));
    let under = PolygonInput::rect(32.5, 20.5, 33.5, 21.5);
    for (layer, other) in [(ground, bridge), (bridge, ground)] {
        let block = world.add_obstacle_on(layer, &under).unwrap();
        let snapshot = world.snapshot();
        assert!(!snapshot.link_is_usable(LinkId(0)), "blocked on {layer}");
        assert!(snapshot.locate_on(layer, end).is_none() && snapshot.locate_on(other, end).is_some());
        // Moved off the end (on the same layer), the link is usable again.
        world.move_obstacle(block, [-2.0, 0.0]).unwrap();
        assert!(world.mesh().link_is_usable(LinkId(0)), "moved off on {layer}");
        world.remove_obstacle(block).unwrap();
    }
    // An obstacle elsewhere on the bridge leaves the link alone.
    world.add_obstacle_on(bridge, &PolygonInput::rect(27.0, 16.0, 29.0, 18.0)).unwrap();
    assert!(world.mesh().link_is_usable(LinkId(0)));
}
