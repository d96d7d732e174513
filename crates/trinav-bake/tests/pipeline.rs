//! End-to-end tests of the bake pipeline: level geometry in, navigation mesh out.
//!
//! Every expected figure here is derived by hand from the input geometry (areas by
//! inclusion–exclusion or by counting unit cells, island counts from the picture, vertex
//! positions from the input points and the exact crossings of input edges), never copied from a
//! run. Every scenario is baked with both triangulation methods.
//!
//! Section 11 holds regression tests for a bug found while writing these tests: a ring point
//! touching the inside of another ring's edge (fixed by noding the rings in `merge`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::f64::consts::PI;
use std::path::PathBuf;

use proptest::prelude::*;
use trinav::geometry::{Orientation, orient};
use trinav::{BakeSettings, IslandId, NavMesh, Point, TriangleId, Triangulation};
use trinav_bake::validate::{Contact, PolygonKind, RingRef, Segment, SelfIntersection};
use trinav_bake::{
    BakeError, Baked, Level, PolygonInput, TriangulationProblem, ValidationError, VerifyError, bake, merge,
    validate,
};

const METHODS: [Triangulation; 2] = [Triangulation::EarClipping, Triangulation::ConstrainedDelaunay];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn settings(method: Triangulation) -> BakeSettings {
    BakeSettings::default().with_triangulation(method)
}

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> PolygonInput {
    PolygonInput::rect(x0, y0, x1, y1)
}

fn poly(points: &[(f64, f64)]) -> PolygonInput {
    PolygonInput::new(points.iter().map(|&(x, y)| [x, y]).collect())
}

fn ring(points: &[(f64, f64)]) -> Vec<[f64; 2]> {
    points.iter().map(|&(x, y)| [x, y]).collect()
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// The room `[0, 10] x [0, 10]` with the given obstacles.
fn room(obstacles: Vec<PolygonInput>) -> Level {
    Level { walkable: vec![rect(0., 0., 10., 10.)], obstacles, agent_radius: None, ..Level::default() }
}

/// Bakes `level`, panicking with the error on failure, and checks the invariants every
/// successful bake must meet: a structurally valid mesh and conserved area.
fn bake_ok(level: &Level, settings: &BakeSettings) -> Baked {
    let baked = bake(level, settings)
        .unwrap_or_else(|e| panic!("{:?}: bake failed: {e} ({e:?})", settings.triangulation));
    let problems = baked.mesh.parts().find_problems();
    assert!(problems.is_empty(), "invalid mesh: {problems:?}");
    assert!(baked.report.verification.relative_area_error <= 1e-9, "{:?}", baked.report.verification);
    baked
}

/// Bakes with agent radius 0 and the given method.
fn bake_with(level: &Level, method: Triangulation) -> NavMesh {
    bake_ok(level, &settings(method)).mesh
}

/// The island holding point `q` (which must be on the mesh).
fn island_at(mesh: &NavMesh, q: Point) -> IslandId {
    let t = mesh.locate(q).unwrap_or_else(|| panic!("({}, {}) is not on the mesh", q.x, q.y));
    mesh.island(t)
}

/// Total triangle area per island.
fn island_areas(mesh: &NavMesh) -> BTreeMap<u32, f64> {
    let mut areas = BTreeMap::new();
    for t in 0..mesh.triangle_count() {
        let t = TriangleId::from_index(t);
        *areas.entry(mesh.island(t).0).or_insert(0.0) += triangle_area(mesh.triangle_points(t));
    }
    areas
}

fn triangle_area([a, b, c]: [Point; 3]) -> f64 {
    trinav::geometry::doubled_signed_area(a, b, c) * 0.5
}

/// An integer point as a sortable key; panics when a coordinate is not an integer.
fn int_key(q: Point) -> (i64, i64) {
    assert!(q.x.fract() == 0.0 && q.y.fract() == 0.0, "({}, {}) is not an integer point", q.x, q.y);
    (q.x as i64, q.y as i64)
}

fn int_set(points: &[(i64, i64)]) -> BTreeSet<(i64, i64)> {
    points.iter().copied().collect()
}

/// The vertices of the mesh that lie on a boundary edge.
fn boundary_vertices(mesh: &NavMesh) -> Vec<Point> {
    let mut seen = HashMap::new();
    for t in 0..mesh.triangle_count() {
        let t = TriangleId::from_index(t);
        let tri = mesh.triangles()[t.index()];
        for (e, n) in mesh.neighbours(t).iter().enumerate() {
            if n.is_none() {
                for v in [tri[e], tri[(e + 1) % 3]] {
                    seen.insert(v, mesh.vertices()[v.index()]);
                }
            }
        }
    }
    seen.into_values().collect()
}

/// The boundary vertices where the boundary turns (or where several boundary edges meet).
fn boundary_corners(mesh: &NavMesh) -> Vec<Point> {
    let mut incoming: HashMap<u32, Vec<Point>> = HashMap::new();
    let mut outgoing: HashMap<u32, Vec<Point>> = HashMap::new();
    for t in 0..mesh.triangle_count() {
        let t = TriangleId::from_index(t);
        let tri = mesh.triangles()[t.index()];
        for (e, n) in mesh.neighbours(t).iter().enumerate() {
            if n.is_none() {
                let (a, b) = (tri[e], tri[(e + 1) % 3]);
                outgoing.entry(a.0).or_default().push(mesh.vertices()[b.index()]);
                incoming.entry(b.0).or_default().push(mesh.vertices()[a.index()]);
            }
        }
    }
    outgoing
        .iter()
        .filter(|(v, outs)| {
            let ins = &incoming[*v];
            let here = mesh.vertices()[**v as usize];
            ins.len() != 1 || outs.len() != 1 || orient(ins[0], here, outs[0]) != Orientation::Collinear
        })
        .map(|(v, _)| mesh.vertices()[*v as usize])
        .collect()
}

/// Every segment of every ring of the level (closing segment included, zero-length ones
/// skipped).
fn input_segments(level: &Level) -> Vec<(Point, Point)> {
    let mut segments = Vec::new();
    for polygon in level.walkable.iter().chain(&level.obstacles) {
        for ring in std::iter::once(&polygon.outer).chain(&polygon.holes) {
            for i in 0..ring.len() {
                let (a, b) = (Point::from(ring[i]), Point::from(ring[(i + 1) % ring.len()]));
                if a != b {
                    segments.push((a, b));
                }
            }
        }
    }
    segments
}

fn input_points(level: &Level) -> Vec<Point> {
    (level.walkable.iter().chain(&level.obstacles))
        .flat_map(|polygon| std::iter::once(&polygon.outer).chain(&polygon.holes))
        .flatten()
        .map(|&q| Point::from(q))
        .collect()
}

/// Whether `q` lies on the closed segment `a b` (exact).
fn on_segment(q: Point, (a, b): (Point, Point)) -> bool {
    orient(a, b, q) == Orientation::Collinear
        && q.x >= a.x.min(b.x)
        && q.x <= a.x.max(b.x)
        && q.y >= a.y.min(b.y)
        && q.y <= a.y.max(b.y)
}

/// Asserts that every vertex of the mesh is an input point or the exact crossing of two
/// non-parallel input segments (checked with the exact orientation predicate: the vertex lies on
/// both). Only meaningful at agent radius 0, where the baker adds no other point.
fn assert_vertices_are_input_points_or_crossings(mesh: &NavMesh, level: &Level) {
    let points = input_points(level);
    let segments = input_segments(level);
    for &v in mesh.vertices() {
        if points.contains(&v) {
            continue;
        }
        let on: Vec<(Point, Point)> = segments.iter().copied().filter(|&s| on_segment(v, s)).collect();
        let crossing = on.iter().any(|&(a, b)| {
            on.iter().any(|&(c, d)| {
                // Not parallel: the directions' cross product is non-zero (exact for these
                // small integers).
                (b.x - a.x) * (d.y - c.y) - (b.y - a.y) * (d.x - c.x) != 0.0
            })
        });
        assert!(
            crossing,
            "vertex ({}, {}) is neither an input point nor a crossing of input segments",
            v.x, v.y
        );
    }
}

fn assert_integer_vertices(mesh: &NavMesh) {
    for &v in mesh.vertices() {
        int_key(v);
    }
}

/// Asserts that `q` is not on the mesh.
fn assert_off_mesh(mesh: &NavMesh, q: Point) {
    assert_eq!(mesh.locate(q), None, "({}, {}) should be off the mesh", q.x, q.y);
}

// ---------------------------------------------------------------------------------------------
// 1. Overlapping obstacles
// ---------------------------------------------------------------------------------------------

fn overlapping_obstacles_level() -> Level {
    room(vec![rect(1., 1., 4., 4.), rect(3., 2., 6., 5.), rect(2., 3., 5., 7.)])
}

#[test]
fn overlapping_obstacles_remove_their_union() {
    // A = [1,4]x[1,4] (9), B = [3,6]x[2,5] (9), C = [2,5]x[3,7] (12).
    // A∩B = [3,4]x[2,4] (2), A∩C = [2,4]x[3,4] (2), B∩C = [3,5]x[3,5] (4), A∩B∩C = [3,4]^2 (1).
    // |A∪B∪C| = 9 + 9 + 12 - 2 - 2 - 4 + 1 = 23.
    let level = overlapping_obstacles_level();
    for method in METHODS {
        let mesh = bake_with(&level, method);
        let stats = mesh.stats();
        assert_eq!(stats.area, 100.0 - 23.0, "{method:?}");
        assert_eq!(stats.islands, 1, "{method:?}");
        assert_integer_vertices(&mesh);
        assert_vertices_are_input_points_or_crossings(&mesh, &level);
        // The union's outline, walked by hand: (1,1) (4,1), up A's right side to B's bottom
        // at (4,2), (6,2) (6,5), left along B's top to C's right side at (5,5), (5,7) (2,7),
        // down C's left side to A's top at (2,4), (1,4). B's corner (3,2) is inside A.
        let expected = int_set(&[
            // room
            (0, 0),
            (10, 0),
            (10, 10),
            (0, 10),
            // A's free corners
            (1, 1),
            (4, 1),
            (1, 4),
            // crossings of A with B and C
            (4, 2),
            (2, 4),
            // B's free corners
            (6, 2),
            (6, 5),
            // crossing of B and C: B's top y=5 with C's right x=5
            (5, 5),
            // C's free corners
            (5, 7),
            (2, 7),
        ]);
        let corners: BTreeSet<_> = boundary_corners(&mesh).into_iter().map(int_key).collect();
        assert_eq!(corners, expected, "{method:?}");
        // Inside each obstacle and in each pairwise overlap: off the mesh. Free space: on it.
        for q in [(2.5, 2.5), (5.5, 2.5), (3.5, 6.5), (3.5, 3.5), (4.5, 4.5)] {
            assert_off_mesh(&mesh, p(q.0, q.1));
        }
        for q in [(0.5, 0.5), (1.5, 5.0), (5.5, 6.0), (6.5, 3.0), (9.5, 9.5)] {
            assert!(mesh.locate(p(q.0, q.1)).is_some(), "{q:?}");
        }
    }
}

#[test]
fn overlapping_non_rectangular_obstacles() {
    // Triangle T = (2,2) (8,2) (2,8): area 18. Square S = [4,7]x[4,7]: area 9.
    // S ∩ T: the part of S below the line x + y = 10: the triangle (4,4) (6,4) (4,6), area 2.
    // |S ∪ T| = 18 + 9 - 2 = 25. The crossings (6,4) and (4,6) are exact integers.
    let level = room(vec![poly(&[(2., 2.), (8., 2.), (2., 8.)]), rect(4., 4., 7., 7.)]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 75.0, "{method:?}");
        assert_eq!(mesh.island_count(), 1);
        assert_integer_vertices(&mesh);
        assert_vertices_are_input_points_or_crossings(&mesh, &level);
        let corners: BTreeSet<_> = boundary_corners(&mesh).into_iter().map(int_key).collect();
        assert_eq!(
            corners,
            int_set(&[
                (0, 0),
                (10, 0),
                (10, 10),
                (0, 10),
                (2, 2),
                (8, 2),
                (6, 4),
                (7, 4),
                (7, 7),
                (4, 7),
                (4, 6),
                (2, 8),
            ]),
            "{method:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Touching obstacles and pinch points
// ---------------------------------------------------------------------------------------------

#[test]
fn obstacles_sharing_an_edge_act_as_one() {
    // [2,4]x[2,4] and [4,6]x[2,4] share the edge x = 4; [4,6]x[4,5] sits on the second
    // one's top edge. Union area 4 + 4 + 2 = 10, outline (2,2) (6,2) (6,5) (4,5) (4,4) (2,4).
    let level = room(vec![rect(2., 2., 4., 4.), rect(4., 2., 6., 4.), rect(4., 4., 6., 5.)]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 90.0, "{method:?}");
        assert_eq!(mesh.island_count(), 1);
        assert_integer_vertices(&mesh);
        assert_vertices_are_input_points_or_crossings(&mesh, &level);
        // The shared edges are inside the union: not walkable.
        assert_off_mesh(&mesh, p(4.0, 3.0));
        assert_off_mesh(&mesh, p(5.0, 4.0));
        // The corner (4, 4) of the first square is on the union's outline (boundary point).
        assert!(mesh.locate(p(4.0, 4.0)).is_some());
        assert!(mesh.locate(p(3.0, 4.5)).is_some());
        let corners: BTreeSet<_> = boundary_corners(&mesh).into_iter().map(int_key).collect();
        assert_eq!(
            corners,
            int_set(&[(0, 0), (10, 0), (10, 10), (0, 10), (2, 2), (6, 2), (6, 5), (4, 5), (4, 4), (2, 4)]),
            "{method:?}"
        );
    }
}

/// Checks that no triangle reaches across a pinch: every triangle lies wholly inside `inside`
/// or wholly outside its interior (`inside` is a closed axis-aligned box `[x0,x1]x[y0,y1]`).
fn assert_triangles_respect_box(mesh: &NavMesh, (x0, y0, x1, y1): (f64, f64, f64, f64)) {
    let in_box = |q: Point| q.x >= x0 && q.x <= x1 && q.y >= y0 && q.y <= y1;
    for t in 0..mesh.triangle_count() {
        let pts = mesh.triangle_points(TriangleId::from_index(t));
        let centroid = p((pts[0].x + pts[1].x + pts[2].x) / 3.0, (pts[0].y + pts[1].y + pts[2].y) / 3.0);
        if in_box(centroid) {
            assert!(pts.iter().all(|&q| in_box(q)), "triangle {pts:?} leaves the box");
        }
    }
}

#[test]
fn obstacles_meeting_corner_to_corner_split_the_room() {
    // The lower-left and upper-right quarters are blocked; they meet at (5, 5). The free
    // quarters [0,5]x[5,10] and [5,10]x[0,5] touch only at that point: two islands of 25.
    // The second variant makes the same obstacles cross the room's outline.
    for obstacles in [
        vec![rect(0., 0., 5., 5.), rect(5., 5., 10., 10.)],
        vec![rect(-2., -3., 5., 5.), rect(5., 5., 12., 11.)],
    ] {
        let level = room(obstacles);
        for method in METHODS {
            let mesh = bake_with(&level, method);
            assert_eq!(mesh.stats().area, 50.0, "{method:?}");
            assert_eq!(mesh.island_count(), 2, "{method:?}");
            let (a, b) = (island_at(&mesh, p(2.5, 7.5)), island_at(&mesh, p(7.5, 2.5)));
            assert_ne!(a, b, "{method:?}: the pinch at (5, 5) must not connect");
            let areas = island_areas(&mesh);
            assert_eq!(areas.values().copied().collect::<Vec<_>>(), vec![25.0, 25.0]);
            assert_triangles_respect_box(&mesh, (0., 5., 5., 10.));
            assert_triangles_respect_box(&mesh, (5., 0., 10., 5.));
            // The pinch point itself is a vertex of both islands.
            assert!(mesh.vertices().contains(&p(5.0, 5.0)));
        }
    }
}

#[test]
fn enclosure_open_only_at_a_corner_is_its_own_island() {
    // Four walls around the cell [4,6]^2:
    //   bottom [3,7]x[3,4] (4), left [3,4]x[4,7] (3), top [4,6]x[6,7] (2), right [6,7]x[4,6] (2).
    // The top and right walls meet corner to corner at (6, 6), where the enclosed cell touches
    // the outside cell [6,7]x[6,7] at one point only. Area 100 - 11 = 89; the enclosed island
    // is the 2x2 cell.
    let level =
        room(vec![rect(3., 3., 7., 4.), rect(3., 4., 4., 7.), rect(4., 6., 6., 7.), rect(6., 4., 7., 6.)]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 89.0, "{method:?}");
        assert_eq!(mesh.island_count(), 2, "{method:?}");
        let inner = island_at(&mesh, p(5.0, 5.0));
        let outer = island_at(&mesh, p(6.5, 6.5));
        assert_ne!(inner, outer, "{method:?}");
        assert_eq!(island_at(&mesh, p(0.5, 0.5)), outer);
        let areas = island_areas(&mesh);
        assert_eq!(areas[&inner.0], 4.0);
        assert_eq!(areas[&outer.0], 85.0);
        assert_triangles_respect_box(&mesh, (4., 4., 6., 6.));
        assert_integer_vertices(&mesh);
        assert_vertices_are_input_points_or_crossings(&mesh, &level);
    }
}

#[test]
fn walkable_polygons_touching_at_a_corner_are_two_islands() {
    let level = Level { walkable: vec![rect(0., 0., 5., 5.), rect(5., 5., 10., 10.)], ..Level::default() };
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 50.0);
        assert_eq!(mesh.island_count(), 2);
        assert_ne!(island_at(&mesh, p(1., 1.)), island_at(&mesh, p(9., 9.)));
        assert_triangles_respect_box(&mesh, (0., 0., 5., 5.));
    }
}

#[test]
fn corner_contact_with_free_space_around_it_stays_one_island() {
    // Two obstacles meeting at (5, 5) in the middle of the room: the free space goes around
    // them, so the pinch does not split anything. Area 100 - 4 - 4.
    let level = room(vec![rect(3., 3., 5., 5.), rect(5., 5., 7., 7.)]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 92.0);
        assert_eq!(mesh.island_count(), 1);
        assert_eq!(island_at(&mesh, p(4.0, 6.0)), island_at(&mesh, p(6.0, 4.0)));
    }
}

#[test]
fn obstacles_with_collinear_edges_weld_into_one_surface() {
    // Holes of one merged polygon whose edges lie on a common line: ear clipping bridges holes
    // along such lines, and the triangles on the two sides of a bridge must still share edges
    // (no T-junction), or the mesh would split into false islands.
    let cases = [
        // Two squares, bottoms on y = 2 and tops on y = 4: 100 - 4 - 4.
        (room(vec![rect(2., 2., 4., 4.), rect(6., 2., 8., 4.)]), 92.0),
        // A walkable hole and a triangular obstacle, bottoms on y = 1: 100 - 4 - 2.
        (
            Level {
                walkable: vec![rect(0., 0., 10., 10.).with_hole(ring(&[
                    (1., 1.),
                    (3., 1.),
                    (3., 3.),
                    (1., 3.),
                ]))],
                obstacles: vec![poly(&[(5., 1.), (7., 1.), (7., 3.)])],
                agent_radius: None,
                ..Level::default()
            },
            94.0,
        ),
        // Two triangles meeting at (5, 5), hypotenuses on y = x: 100 - 4.5 - 4.5.
        (room(vec![poly(&[(2., 2.), (5., 2.), (5., 5.)]), poly(&[(5., 5.), (8., 5.), (8., 8.)])]), 91.0),
        // A row of five squares on one line.
        (room((0..5).map(|i| rect(1. + 2. * i as f64, 4., 2. + 2. * i as f64, 5.)).collect()), 95.0),
    ];
    for (level, area) in cases {
        for method in METHODS {
            let mesh = bake_with(&level, method);
            assert_eq!(mesh.stats().area, area, "{method:?}");
            assert_eq!(mesh.island_count(), 1, "{method:?}");
            assert_integer_vertices(&mesh);
            assert_vertices_are_input_points_or_crossings(&mesh, &level);
            // Every vertex inside the room is a corner of the outline (no stray point).
            let corners: BTreeSet<_> = boundary_corners(&mesh).into_iter().map(int_key).collect();
            let vertices: BTreeSet<_> = mesh.vertices().iter().map(|&q| int_key(q)).collect();
            assert_eq!(vertices, corners, "{method:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Obstacles crossing the walkable outline
// ---------------------------------------------------------------------------------------------

#[test]
fn obstacles_crossing_the_outline_are_clipped() {
    // [8,12]x[2,4] crosses the right wall: 2x2 inside.
    // Triangle (5,12) (8,9) (11,12) crosses the top wall at (7,10) and (9,10): the part inside
    // is the triangle (7,10) (8,9) (9,10), base 2, height 1: area 1.
    // [-2,1]x[-2,1] covers the lower-left corner: 1x1 inside.
    let level =
        room(vec![rect(8., 2., 12., 4.), poly(&[(5., 12.), (8., 9.), (11., 12.)]), rect(-2., -2., 1., 1.)]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 100.0 - 4.0 - 1.0 - 1.0, "{method:?}");
        assert_eq!(mesh.island_count(), 1);
        assert_integer_vertices(&mesh);
        assert_vertices_are_input_points_or_crossings(&mesh, &level);
        let corners: BTreeSet<_> = boundary_corners(&mesh).into_iter().map(int_key).collect();
        assert_eq!(
            corners,
            int_set(&[
                (1, 0),
                (10, 0),
                (10, 2),
                (8, 2),
                (8, 4),
                (10, 4),
                (10, 10),
                (9, 10),
                (8, 9),
                (7, 10),
                (0, 10),
                (0, 1),
                (1, 1),
            ]),
            "{method:?}"
        );
        let bounds = mesh.bounds();
        assert_eq!((bounds.min, bounds.max), (p(0., 0.), p(10., 10.)));
    }
}

#[test]
fn obstacle_cutting_the_room_in_two() {
    // A wall [4,6]x[-1,11] crosses the room from bottom to top: two islands of 40 each.
    let level = room(vec![rect(4., -1., 6., 11.)]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 80.0);
        assert_eq!(mesh.island_count(), 2);
        assert_ne!(island_at(&mesh, p(1., 5.)), island_at(&mesh, p(9., 5.)));
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Obstacle rings with a hole
// ---------------------------------------------------------------------------------------------

/// The ring [2,8]^2 minus [3,7]^2 (area 36 - 16 = 20).
fn obstacle_ring() -> PolygonInput {
    rect(2., 2., 8., 8.).with_hole(ring(&[(3., 3.), (7., 3.), (7., 7.), (3., 7.)]))
}

#[test]
fn obstacle_ring_hole_covered_by_the_room_is_an_island() {
    // The hole [3,7]^2 holds a pillar [4,5]^2: the courtyard is 16 - 1 = 15; outside the ring
    // 100 - 36 = 64. Total 79, two islands.
    let level = room(vec![obstacle_ring(), rect(4., 4., 5., 5.)]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 79.0, "{method:?}");
        assert_eq!(mesh.island_count(), 2, "{method:?}");
        let courtyard = island_at(&mesh, p(6., 6.));
        let outside = island_at(&mesh, p(1., 1.));
        assert_ne!(courtyard, outside);
        let areas = island_areas(&mesh);
        assert_eq!(areas[&courtyard.0], 15.0);
        assert_eq!(areas[&outside.0], 64.0);
        assert_off_mesh(&mesh, p(2.5, 5.0));
        assert_off_mesh(&mesh, p(4.5, 4.5));
        assert_integer_vertices(&mesh);
        assert_vertices_are_input_points_or_crossings(&mesh, &level);
    }
}

#[test]
fn obstacle_ring_hole_not_covered_by_any_walkable_polygon_is_not_walkable() {
    // The walkable frame [0,10]^2 has its own hole exactly where the ring's hole is: nothing
    // walkable is left inside the ring. Area 100 - 36 = 64, one island.
    let frame = rect(0., 0., 10., 10.).with_hole(ring(&[(3., 3.), (7., 3.), (7., 7.), (3., 7.)]));
    let level = Level {
        walkable: vec![frame],
        obstacles: vec![obstacle_ring()],
        agent_radius: None,
        ..Level::default()
    };
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 64.0, "{method:?}");
        assert_eq!(mesh.island_count(), 1, "{method:?}");
        assert_off_mesh(&mesh, p(5., 5.));
        assert_off_mesh(&mesh, p(2.5, 5.));
        assert!(mesh.locate(p(1., 5.)).is_some());
    }
}

#[test]
fn obstacle_ring_hole_covered_by_a_second_walkable_polygon() {
    // Walkable: a frame [0,10]^2 minus [1,9]^2 (area 36, untouched by the ring) and a separate
    // square exactly filling the ring's hole [3,7]^2, which holds the pillar [4,5]^2.
    // Area 36 + 15 = 51, two islands.
    let frame = rect(0., 0., 10., 10.).with_hole(ring(&[(1., 1.), (9., 1.), (9., 9.), (1., 9.)]));
    let level = Level {
        walkable: vec![frame, rect(3., 3., 7., 7.)],
        obstacles: vec![obstacle_ring(), rect(4., 4., 5., 5.)],
        agent_radius: None,
        ..Level::default()
    };
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 51.0, "{method:?}");
        assert_eq!(mesh.island_count(), 2, "{method:?}");
        let areas = island_areas(&mesh);
        assert_eq!(areas[&island_at(&mesh, p(5., 6.)).0], 15.0);
        assert_eq!(areas[&island_at(&mesh, p(0.5, 5.)).0], 36.0);
        assert_off_mesh(&mesh, p(2., 5.));
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Ring variants: collinear points, repeats, open/closed, both orientations
// ---------------------------------------------------------------------------------------------

/// The same ring written in different ways, each with the number of repeated points the
/// validation must report as dropped (a point equal to the one before it; the closing point is
/// not a repeat).
fn ring_variants(base: &[(f64, f64)]) -> Vec<(&'static str, Vec<[f64; 2]>, usize)> {
    let pts: Vec<[f64; 2]> = base.iter().map(|&(x, y)| [x, y]).collect();
    let closed = |r: &[[f64; 2]]| {
        let mut r = r.to_vec();
        r.push(r[0]);
        r
    };
    let reversed: Vec<[f64; 2]> = pts.iter().rev().copied().collect();
    let mut rotated = pts.clone();
    rotated.rotate_left(2);
    // The midpoint of every edge inserted (all edges have even integer lengths here).
    let with_midpoints = |r: &[[f64; 2]]| {
        let n = r.len();
        (0..n)
            .flat_map(|i| {
                let (a, b) = (r[i], r[(i + 1) % n]);
                [a, [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]]
            })
            .collect::<Vec<_>>()
    };
    let doubled = |r: &[[f64; 2]]| r.iter().flat_map(|&q| [q, q]).collect::<Vec<_>>();
    let n = pts.len();
    vec![
        ("open", pts.clone(), 0),
        ("closed", closed(&pts), 0),
        ("reversed", reversed.clone(), 0),
        ("reversed closed", closed(&reversed), 0),
        ("rotated", rotated, 0),
        ("collinear midpoints", with_midpoints(&pts), 0),
        // p0 p0 p1 p1 ... p(n-1) p(n-1): n repeats, and the ring is open.
        ("every point doubled", doubled(&pts), n),
        // Doubled, closed with a doubled closing point: n + 1 repeats.
        ("doubled and closed", doubled(&closed(&pts)), n + 1),
        ("reversed, collinear, doubled, closed", doubled(&closed(&with_midpoints(&reversed))), 2 * n + 1),
    ]
}

#[test]
fn ring_variants_give_the_same_mesh_outline_and_area() {
    // Walkable L: [0,8]x[0,8] minus [4,8]x[4,8]: area 48, with a hole [1,3]x[1,3] (4).
    // Obstacle: triangle (5,1) (7,1) (7,3): area 2. Walkable area 48 - 4 - 2 = 42.
    // (The hole's and the obstacle's bottom edges lie on one line, y = 1.)
    let outer = [(0., 0.), (8., 0.), (8., 4.), (4., 4.), (4., 8.), (0., 8.)];
    let hole = [(1., 1.), (3., 1.), (3., 3.), (1., 3.)];
    let obstacle = [(5., 1.), (7., 1.), (7., 3.)];
    let corners: BTreeSet<(i64, i64)> =
        (outer.iter().chain(&hole).chain(&obstacle)).map(|&(x, y)| (x as i64, y as i64)).collect();
    assert_eq!(corners.len(), 13);
    let (outers, holes, obstacles) = (ring_variants(&outer), ring_variants(&hole), ring_variants(&obstacle));
    let mut bakes = 0;
    for (outer_name, outer_ring, outer_dropped) in &outers {
        for (hole_name, hole_ring, hole_dropped) in &holes {
            for (obstacle_name, obstacle_ring, obstacle_dropped) in &obstacles {
                let level = Level {
                    walkable: vec![PolygonInput {
                        outer: outer_ring.clone(),
                        holes: vec![hole_ring.clone()],
                    }],
                    obstacles: vec![PolygonInput::new(obstacle_ring.clone())],
                    agent_radius: None,
                    ..Level::default()
                };
                let what = format!("outer {outer_name}, hole {hole_name}, obstacle {obstacle_name}");
                let validated = validate::validate(&level).unwrap();
                assert_eq!(
                    validated.dropped_points,
                    outer_dropped + hole_dropped + obstacle_dropped,
                    "{what}"
                );
                let region = merge::merge(&validated, &BakeSettings::default()).unwrap();
                let region_points: BTreeSet<(i64, i64)> = (region.polygons.iter())
                    .flat_map(|polygon| polygon.rings())
                    .flatten()
                    .map(|&q| int_key(q))
                    .collect();
                assert_eq!(region_points, corners, "{what}: merged ring points");
                for method in METHODS {
                    let baked = bake_ok(&level, &settings(method));
                    let mesh = &baked.mesh;
                    assert_eq!(mesh.stats().area, 42.0, "{what}, {method:?}");
                    assert_eq!(mesh.island_count(), 1, "{what}, {method:?}");
                    assert_eq!(baked.report.dropped_points, validated.dropped_points, "{what}");
                    // Integer input stays integer, and the mesh uses exactly the corners.
                    let vertices: BTreeSet<(i64, i64)> =
                        mesh.vertices().iter().map(|&q| int_key(q)).collect();
                    assert_eq!(vertices, corners, "{what}, {method:?}: mesh vertices");
                    let boundary: BTreeSet<(i64, i64)> =
                        boundary_vertices(mesh).into_iter().map(int_key).collect();
                    assert_eq!(boundary, corners, "{what}, {method:?}: boundary vertices");
                    let turning: BTreeSet<(i64, i64)> =
                        boundary_corners(mesh).into_iter().map(int_key).collect();
                    assert_eq!(turning, corners, "{what}, {method:?}: boundary corners");
                    bakes += 1;
                }
            }
        }
    }
    assert_eq!(bakes, 9 * 9 * 9 * 2);
}

#[test]
fn spikes_are_removed_without_changing_the_area() {
    // A zero-width antenna on the room's right wall, out to (14, 5) and back: area still 100.
    // A zero-width spike on an obstacle removes no area either.
    let level = Level {
        walkable: vec![poly(&[(0., 0.), (10., 0.), (10., 5.), (14., 5.), (10., 5.), (10., 10.), (0., 10.)])],
        obstacles: vec![poly(&[(2., 2.), (4., 2.), (4., 4.), (6., 6.), (4., 4.), (2., 4.)])],
        agent_radius: None,
        ..Level::default()
    };
    for method in METHODS {
        let baked = bake_ok(&level, &settings(method));
        assert_eq!(baked.mesh.stats().area, 96.0);
        assert_eq!(baked.report.dropped_points, 4);
        assert!(!baked.mesh.vertices().contains(&p(14., 5.)));
        assert!(!baked.mesh.vertices().contains(&p(6., 6.)));
        // The spike's line is walkable: no zero-width cut into the mesh.
        assert_eq!(baked.mesh.island_count(), 1);
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Sample levels
// ---------------------------------------------------------------------------------------------

fn sample_levels() -> Vec<(String, Level)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/levels"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let levels: Vec<(String, Level)> = files
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let level = Level::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, level)
        })
        .collect();
    for name in ["courtyard.json", "room_pillars.json", "town.json"] {
        assert!(levels.iter().any(|(n, _)| n == name), "{name} missing");
    }
    levels
}

fn sample_level(name: &str) -> Level {
    let path = format!("{}/../../data/levels/{name}", env!("CARGO_MANIFEST_DIR"));
    Level::load(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every sample level, at its own agent radius and at radius 0: the verification's relative
/// area error is at most 1e-9, and the mesh area equals the merged region's.
fn check_sample_levels_conserve_area(method: Triangulation) {
    for (name, level) in &sample_levels() {
        for radius in [None, Some(0.0)] {
            let settings = trinav_bake::settings_for(level, settings(method), radius);
            let baked = bake_ok(level, &settings);
            // A layered level's area is the sum of its layers', each merged on its own.
            let one_layer = |layer: &trinav_bake::LayerInput| Level {
                walkable: layer.walkable.clone(),
                obstacles: layer.obstacles.clone(),
                areas: layer.areas.clone(),
                ..Level::default()
            };
            let layers: Vec<Level> = if level.layers.is_empty() {
                vec![level.clone()]
            } else {
                level.layers.iter().map(one_layer).collect()
            };
            let regions: Vec<_> = layers
                .iter()
                .map(|l| merge::merge(&validate::validate(l).unwrap(), &settings).unwrap())
                .collect();
            let region_area: f64 = regions.iter().map(|r| r.area()).sum();
            let mesh_area = baked.mesh.stats().area;
            assert!(
                (mesh_area - region_area).abs() <= 1e-9 * region_area,
                "{name} {radius:?} {method:?}: mesh {mesh_area} vs region {region_area}"
            );
            if let [region] = &regions[..] {
                assert_eq!(baked.report.verification.region_area, region_area);
                assert_eq!(baked.report.verification.mesh_area, mesh_area);
                assert_eq!(baked.report.region_polygons, region.polygons.len());
            }
        }
    }
}

#[test]
fn sample_levels_conserve_area() {
    for method in METHODS {
        check_sample_levels_conserve_area(method);
    }
}

/// courtyard: the ring obstacle's hole is a courtyard (holding a pillar) that the room covers:
/// 2 islands, at radius 0.5 (the hole shrinks to [22.5,37.5]^2, the pillar grows to
/// [27.5,32.5]^2, nothing closes) and at 0. town (radius 0): the market hall's hole is
/// walkable: 2 islands; the two obstacles meeting corner to corner at (80, 20) have free space
/// all around them, and the obstacles crossing the outline cut nothing off. room_pillars: 1.
fn check_sample_level_island_counts(method: Triangulation) {
    for (name, count) in [("courtyard.json", 2), ("town.json", 2), ("room_pillars.json", 1)] {
        let level = sample_level(name);
        for radius in [None, Some(0.0)] {
            let settings = trinav_bake::settings_for(&level, settings(method), radius);
            let mesh = bake_ok(&level, &settings).mesh;
            assert_eq!(mesh.island_count(), count, "{name} {radius:?} {method:?}");
        }
    }
}

#[test]
fn sample_level_island_counts() {
    for method in METHODS {
        check_sample_level_island_counts(method);
    }
}

/// town: walkable [0,100]x[0,80] ∪ [90,130]x[35,45] = 8000 + 30*10 = 8300. Obstacles:
///   L [10,30]x[10,20] ∪ [20,30]x[10,35]: 200 + 250 - 100 = 350
///   three touching blocks [40,48], [48,56], [56,64] x [10,20]: 240
///   [70,80]x[10,20] and [80,90]x[20,30], meeting at a corner: 100 + 100
///   [-5,15]x[50,60] clipped to x >= 0: 150
///   [95,105]x[60,75] clipped to x <= 100 (the east annex is at y 35..45 only): 75
///   U: [30,60]x[45,70] minus the notch [38,52]x[53,70]: 750 - 14*17 = 512
///   market hall ring: 15*15 - 7*7 = 176 (its courtyard, 49, stays walkable)
///   total 350 + 240 + 200 + 150 + 75 + 512 + 176 = 1703: area 8300 - 1703 = 6597.
fn check_town_exact_area_and_islands(method: Triangulation) {
    let level = sample_level("town.json");
    assert_eq!(level.agent_radius, Some(0.0));
    let town = bake_ok(&level, &settings(method)).mesh;
    assert_eq!(town.stats().area, 6597.0, "{method:?}");
    let hall = island_at(&town, p(77.5, 57.5));
    assert_eq!(island_areas(&town)[&hall.0], 49.0);
    assert_ne!(hall, island_at(&town, p(1., 1.)));
    // Both sides of the corner contact at (80, 20) are the same island.
    assert_eq!(island_at(&town, p(79., 21.)), island_at(&town, p(81., 19.)));
    // The east annex is part of the main island; the clipped obstacles are off the mesh.
    assert_eq!(island_at(&town, p(125., 40.)), island_at(&town, p(1., 1.)));
    assert_off_mesh(&town, p(97., 70.));
    assert_off_mesh(&town, p(5., 55.));
    assert_off_mesh(&town, p(45., 50.));
    assert!(town.locate(p(45., 60.)).is_some()); // in the U's notch
    assert_integer_vertices(&town);
    assert_vertices_are_input_points_or_crossings(&town, &level);
}

#[test]
fn town_exact_area_and_islands() {
    for method in METHODS {
        check_town_exact_area_and_islands(method);
    }
}

#[test]
fn courtyard_exact_area_at_radius_zero() {
    // 3600 - ring (900 - 256) - pillar 4*4 - wall 3*45 = 2805; the courtyard island is the
    // hole [22,38]^2 minus the pillar: 256 - 16.
    let level = sample_level("courtyard.json");
    for method in METHODS {
        let mesh = bake_ok(&level, &settings(method)).mesh;
        assert_eq!(mesh.stats().area, 2805.0, "{method:?}");
        let inner = island_at(&mesh, p(25., 25.));
        assert_eq!(island_areas(&mesh)[&inner.0], 256.0 - 16.0);
        assert_ne!(inner, island_at(&mesh, p(1., 1.)));
        assert_integer_vertices(&mesh);
        assert_vertices_are_input_points_or_crossings(&mesh, &level);
    }
}

/// 1200 minus four 2x2 pillars (16), the L [12,16]x[12,14] ∪ [12,14]x[14,18] (8 + 8), the wall
/// stub [26,28]x[0,3] (6) and the octagon (shoelace of its input points).
fn check_room_pillars_area_at_radius_zero(method: Triangulation) {
    let level = sample_level("room_pillars.json");
    let octagon = &level.obstacles[4].outer;
    assert_eq!(octagon.len(), 8);
    let twice: f64 = (0..8)
        .map(|i| {
            let (a, b) = (octagon[i], octagon[(i + 1) % 8]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    let expected = 1200.0 - 16.0 - 16.0 - 6.0 - twice.abs() / 2.0;
    let mesh = bake_ok(&level, &settings(method)).mesh;
    // The octagon's decimal coordinates are not on the boolean engine's fixed-point grid
    // (spacing below 1e-7 at this level's size) and are rounded to it: allow for that.
    let area = mesh.stats().area;
    assert!((area - expected).abs() < 1e-5, "{method:?}: {area} vs {expected}");
    assert_eq!(mesh.island_count(), 1);
}

#[test]
fn room_pillars_area_at_radius_zero() {
    for method in METHODS {
        check_room_pillars_area_at_radius_zero(method);
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Determinism and the byte format
// ---------------------------------------------------------------------------------------------

/// Bakes `level` twice (the second time from a fresh JSON round trip of the level) and checks
/// the bytes are identical and load back to equal parts.
fn check_deterministic_and_round_trip(what: &str, level: &Level, settings: &BakeSettings) {
    let first = bake_ok(level, settings).mesh;
    let again = Level::from_json(&level.to_json()).unwrap();
    let second = bake_ok(&again, settings).mesh;
    let bytes = first.to_bytes().unwrap();
    assert_eq!(bytes, second.to_bytes().unwrap(), "{what}: bytes differ");
    let loaded = NavMesh::from_bytes(&bytes).unwrap();
    assert_eq!(loaded.parts(), first.parts(), "{what}");
    assert_eq!(loaded.stats(), first.stats(), "{what}");
    assert_eq!(loaded.to_bytes().unwrap(), bytes, "{what}");
    assert_eq!(loaded.settings(), settings, "{what}");
    // Point location agrees after loading.
    // (On a layered mesh, on the triangle's own layer: layers overlap.)
    for t in 0..first.triangle_count() {
        let [a, b, c] = first.triangle_points(TriangleId::from_index(t));
        let centroid = p((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
        let layer = first.triangle_layer(TriangleId::from_index(t));
        let locate = |mesh: &NavMesh| {
            if mesh.is_layered() { mesh.locate_on(layer, centroid) } else { mesh.locate(centroid) }
        };
        assert_eq!(locate(&loaded), locate(&first), "{what}");
        assert_eq!(locate(&first), Some(TriangleId::from_index(t)), "{what}");
    }
}

#[test]
fn bakes_are_deterministic_and_round_trip_through_bytes() {
    let mut levels = vec![
        ("courtyard.json".to_string(), sample_level("courtyard.json")),
        ("three obstacles".to_string(), overlapping_obstacles_level()),
        ("ring with pillar".to_string(), room(vec![obstacle_ring(), rect(4., 4., 5., 5.)])),
    ];
    levels[1].1.agent_radius = Some(0.75);
    for (name, level) in &levels {
        for method in METHODS {
            let settings = trinav_bake::settings_for(level, settings(method), None);
            check_deterministic_and_round_trip(&format!("{name} {method:?}"), level, &settings);
        }
    }
}

fn check_sample_levels_deterministic(method: Triangulation) {
    for (name, level) in sample_levels() {
        let settings = trinav_bake::settings_for(&level, settings(method), None);
        check_deterministic_and_round_trip(&format!("{name} {method:?}"), &level, &settings);
    }
}

#[test]
fn sample_levels_are_deterministic() {
    for method in METHODS {
        check_sample_levels_deterministic(method);
    }
}

// ---------------------------------------------------------------------------------------------
// 8. Agent radius
// ---------------------------------------------------------------------------------------------

/// Distance from `q` to the square `[x0, x1] x [y0, y1]` (0 inside).
fn distance_to_box(q: Point, (x0, y0, x1, y1): (f64, f64, f64, f64)) -> f64 {
    let dx = (x0 - q.x).max(q.x - x1).max(0.0);
    let dy = (y0 - q.y).max(q.y - y1).max(0.0);
    dx.hypot(dy)
}

#[test]
fn agent_radius_inflates_a_square_within_the_arc_error() {
    // Square [4,6]^2 (side 2) in the room, radius r = 1, arc error e.
    //
    // The exact inflated square is the square, four 2 x r strips and four quarter discs:
    // 4 + 8r + πr². The baker's round joins are chords with both ends on the arc, so the
    // corners are inside the quarter discs: the removed area is strictly smaller.
    //
    // Lower bound: at each corner the chords make a fan of triangles (corner, p_i, p_i+1)
    // whose chords are at distance r cos(θ_i / 2) >= r (1 - e) from the corner (that is what
    // the arc error bounds), so each fan triangle holds the sector of radius r (1 - e) over its
    // angle: the four corners hold a full disc of radius r (1 - e), and the removed area is at
    // least 4 + 8r + π r² (1 - e)² (strictly more, as a chord touches that disc at one point).
    // The boolean engine's fixed-point grid (below 1e-7 here) moves new points by far less than
    // the gaps between these bounds.
    let r = 1.0;
    let square = (4., 4., 6., 6.);
    let level = room(vec![rect(4., 4., 6., 6.)]);
    for method in METHODS {
        let settings = settings(method).with_agent_radius(r);
        let e = settings.arc_error;
        let mesh = bake_ok(&level, &settings).mesh;
        let removed = 100.0 - mesh.stats().area;
        let upper = 4.0 + 8.0 * r + PI * r * r;
        let lower = 4.0 + 8.0 * r + PI * (r * (1.0 - e)).powi(2);
        assert!(
            lower < removed && removed < upper,
            "{method:?}: removed {removed}, expected in ({lower}, {upper})"
        );
        assert_eq!(mesh.island_count(), 1);
        for &v in mesh.vertices() {
            let d = distance_to_box(v, square);
            assert!(d >= r * (1.0 - e) - 1e-6, "{method:?}: {v:?} is {d} from the obstacle");
            // Vertices are room corners or on the inflated outline (at most r away).
            let on_room_outline = v.x == 0.0 || v.x == 10.0 || v.y == 0.0 || v.y == 10.0;
            assert!(on_room_outline || d <= r + 1e-6, "{method:?}: {v:?} is {d} away");
        }
        // The straight parts of the inflated outline are exact: the offset edges' ends.
        for corner in [(3., 4.), (3., 6.), (7., 4.), (7., 6.), (4., 3.), (6., 3.), (4., 7.), (6., 7.)] {
            assert!(
                mesh.vertices().contains(&p(corner.0, corner.1)),
                "{method:?}: missing offset point {corner:?}"
            );
        }
        // Within the radius of the obstacle is off the mesh; just outside, on it.
        assert_off_mesh(&mesh, p(3.1, 5.0));
        assert_off_mesh(&mesh, p(3.4, 3.4)); // 0.6 * sqrt(2) ≈ 0.85 from the corner
        assert!(mesh.locate(p(2.9, 5.0)).is_some());
        assert!(mesh.locate(p(3.2, 3.2)).is_some()); // 0.8 * sqrt(2) ≈ 1.13 from the corner
    }
}

#[test]
fn agent_radius_closes_narrow_gaps() {
    // A wall across the room with a gap of width 1 ([4,5] in x): passable for radius 0.4 (the
    // gap keeps width 0.2), closed for radius 0.6 (the inflated sides overlap by 0.2).
    let level = room(vec![rect(-1., 4., 4., 6.), rect(5., 4., 11., 6.)]);
    for method in METHODS {
        let open = bake_ok(&level, &settings(method).with_agent_radius(0.4)).mesh;
        assert_eq!(open.island_count(), 1, "{method:?}");
        assert!(open.locate(p(4.5, 5.0)).is_some());
        // Below and above the wall: 10 x (4 - 0.4) = 36 each; the gap 0.2 x 2 = 0.4; and a
        // notch at each mouth of the gap, [4,5] x [3.6,4] (and its mirror) minus the inflated
        // corners at (4,4) and (5,4): 0.08 between them plus 2 x (0.16 - quarter disc). With
        // true arcs a quarter disc is π 0.4² / 4; the chords cut less (at least the disc of
        // radius 0.4 (1 - e), see above), so the notch is strictly larger than with arcs and at
        // most 0.08 + 2 (0.16 - π (0.4 (1 - e))² / 4).
        let e = BakeSettings::default().arc_error;
        let notch = |radius: f64| 0.08 + 2.0 * (0.16 - PI * radius * radius / 4.0);
        let (low, high) = (72.4 + 2.0 * notch(0.4), 72.4 + 2.0 * notch(0.4 * (1.0 - e)));
        let area = open.stats().area;
        assert!(low < area && area < high, "{method:?}: {area} not in ({low}, {high})");

        let closed = bake_ok(&level, &settings(method).with_agent_radius(0.6)).mesh;
        assert_eq!(closed.island_count(), 2, "{method:?}");
        assert_ne!(island_at(&closed, p(4.5, 1.0)), island_at(&closed, p(4.5, 9.0)));
        assert_off_mesh(&closed, p(4.5, 5.0));
        // Each side is 10 x (4 - 0.6) = 34 plus a notch inside [4,5] x [3.4,4] (free at
        // (4.5, 3.5), which is 0.71 from both corners) that misses at least the quarter disc
        // of radius 0.6 (1 - e) around the corner (4,4).
        let areas = island_areas(&closed);
        assert_eq!(areas.len(), 2);
        let high = 34.0 + 0.6 - PI * (0.6 * (1.0 - e)).powi(2) / 4.0;
        for a in areas.into_values() {
            assert!(34.0 < a && a < high, "{method:?}: {a} not in (34, {high})");
        }
        assert!(closed.locate(p(4.5, 3.5)).is_some());
    }
}

// ---------------------------------------------------------------------------------------------
// 9. Errors
// ---------------------------------------------------------------------------------------------

#[test]
fn bow_tie_obstacle_is_refused_naming_polygon_and_segments() {
    let bow_tie = poly(&[(1., 1.), (3., 3.), (3., 1.), (1., 3.)]);
    let level = room(vec![rect(5., 5., 6., 6.), bow_tie]);
    for method in METHODS {
        let err = bake(&level, &settings(method)).unwrap_err();
        let BakeError::Validation(ValidationError::SelfIntersection(info)) = &err else {
            panic!("expected a self-intersection, got {err:?}");
        };
        let SelfIntersection { ring, first, second, how } = &**info;
        assert_eq!(*ring, RingRef { kind: PolygonKind::Obstacle, polygon: 1, hole: None });
        assert_eq!(*first, Segment { from: 0, to: 1, a: p(1., 1.), b: p(3., 3.) });
        assert_eq!(*second, Segment { from: 2, to: 3, a: p(3., 1.), b: p(1., 3.) });
        assert_eq!(*how, Contact::Cross(p(2., 2.)));
        assert_eq!(
            err.to_string(),
            "obstacles[1] outer ring: segment 0-1 (1, 1)-(3, 3) and segment 2-3 (3, 1)-(1, 3) \
             cross at (2, 2)"
        );
    }
}

#[test]
fn self_intersection_segments_use_input_indices_after_repeats() {
    // A repeated first point: the segments are named by their points' indices as written.
    let level = Level {
        walkable: vec![rect(0., 0., 10., 10.).with_hole(ring(&[
            (1., 1.),
            (1., 1.),
            (3., 3.),
            (3., 1.),
            (1., 3.),
        ]))],
        ..Level::default()
    };
    let err = bake(&level, &BakeSettings::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "walkable[0] hole 0: segment 0-2 (1, 1)-(3, 3) and segment 3-4 (3, 1)-(1, 3) cross at (2, 2)"
    );
}

#[test]
fn obstacles_covering_everything_leave_nothing_walkable() {
    let cases = [
        (room(vec![rect(-1., -1., 11., 11.)]), 0.0),
        // Two halves that exactly tile the room.
        (room(vec![rect(0., 0., 5., 10.), rect(5., 0., 10., 10.)]), 0.0),
        // An obstacle exactly the size of the room.
        (room(vec![rect(0., 0., 10., 10.)]), 0.0),
        // The inflated obstacle covers the room: the room's corners are sqrt(2) ≈ 1.41 from
        // the square [1,3]^2 inside [0,4]^2, well within 2 * (1 - arc error).
        (
            Level {
                walkable: vec![rect(0., 0., 4., 4.)],
                obstacles: vec![rect(1., 1., 3., 3.)],
                agent_radius: None,
                ..Level::default()
            },
            2.0,
        ),
    ];
    for (level, radius) in cases {
        for method in METHODS {
            let err = bake(&level, &settings(method).with_agent_radius(radius)).unwrap_err();
            assert!(
                matches!(err, BakeError::NothingWalkable { agent_radius } if agent_radius == radius),
                "{err:?}"
            );
        }
    }
}

#[test]
fn degenerate_rings_are_refused() {
    let two_points = |points: &[(f64, f64)]| room(vec![poly(points)]);
    for (level, expected_ring) in [
        (two_points(&[(1., 1.), (2., 2.)]), RingRef { kind: PolygonKind::Obstacle, polygon: 0, hole: None }),
        // Closed, and with a repeat: still two distinct points.
        (
            two_points(&[(1., 1.), (2., 2.), (2., 2.), (1., 1.)]),
            RingRef { kind: PolygonKind::Obstacle, polygon: 0, hole: None },
        ),
        (
            Level { walkable: vec![rect(0., 0., 1., 1.), poly(&[(0., 0.), (5., 5.)])], ..Level::default() },
            RingRef { kind: PolygonKind::Walkable, polygon: 1, hole: None },
        ),
        (
            room(vec![rect(1., 1., 3., 3.).with_hole(ring(&[(2., 2.), (2.5, 2.5)]))]),
            RingRef { kind: PolygonKind::Obstacle, polygon: 0, hole: Some(0) },
        ),
    ] {
        let err = bake(&level, &BakeSettings::default()).unwrap_err();
        assert!(
            matches!(
                err,
                BakeError::Validation(ValidationError::TooFewPoints { ring, distinct: 2 })
                    if ring == expected_ring
            ),
            "{err:?}"
        );
    }
    // Three points on one line: no area.
    let err = bake(&room(vec![poly(&[(1., 1.), (2., 2.), (4., 4.)])]), &BakeSettings::default()).unwrap_err();
    assert!(matches!(err, BakeError::Validation(ValidationError::ZeroArea { .. })));
    // No walkable polygon at all.
    let err = bake(&Level::default(), &BakeSettings::default()).unwrap_err();
    assert!(matches!(err, BakeError::Validation(ValidationError::NoWalkable)));
}

#[test]
fn bad_settings_are_refused_before_anything_else() {
    // The level is itself invalid: settings are checked first.
    let level = room(vec![poly(&[(1., 1.), (2., 2.)])]);
    for settings in [
        BakeSettings::default().with_agent_radius(-1.0),
        BakeSettings::default().with_agent_radius(f64::NAN),
        BakeSettings::default().with_agent_radius(f64::INFINITY),
        BakeSettings::default().with_arc_error(0.5),
        BakeSettings::default().with_arc_error(0.0),
    ] {
        let err = bake(&level, &settings).unwrap_err();
        assert!(matches!(err, BakeError::Settings(_)), "{settings:?}: {err:?}");
    }
    let err = bake(&room(vec![]), &BakeSettings::default().with_agent_radius(-0.5)).unwrap_err();
    assert!(matches!(err, BakeError::Settings(trinav::SettingsError::AgentRadius(-0.5))), "{err:?}");
}

// ---------------------------------------------------------------------------------------------
// 10. Random levels
// ---------------------------------------------------------------------------------------------

/// A random obstacle: an axis-aligned rectangle or a convex polygon, integer coordinates,
/// possibly crossing the room's outline.
#[derive(Clone, Debug)]
enum Shape {
    Rect(i64, i64, i64, i64),
    Convex(Vec<(i64, i64)>),
}

impl Shape {
    fn polygon(&self) -> PolygonInput {
        match *self {
            Shape::Rect(x0, y0, x1, y1) => rect(x0 as f64, y0 as f64, x1 as f64, y1 as f64),
            Shape::Convex(ref pts) => {
                PolygonInput::new(pts.iter().map(|&(x, y)| [x as f64, y as f64]).collect())
            }
        }
    }

    /// The shape's counter-clockwise outline.
    fn outline(&self) -> Vec<Point> {
        match *self {
            Shape::Rect(x0, y0, x1, y1) => {
                [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|(x, y)| p(x as f64, y as f64)).to_vec()
            }
            Shape::Convex(ref pts) => pts.iter().map(|&(x, y)| p(x as f64, y as f64)).collect(),
        }
    }
}

/// Convex hull (counter-clockwise, no collinear points) of integer points.
fn convex_hull(mut pts: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    pts.sort_unstable();
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross =
        |o: (i64, i64), a: (i64, i64), b: (i64, i64)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let half = |points: &mut dyn Iterator<Item = (i64, i64)>| {
        let mut chain: Vec<(i64, i64)> = Vec::new();
        for q in points {
            while chain.len() >= 2 && cross(chain[chain.len() - 2], chain[chain.len() - 1], q) <= 0 {
                chain.pop();
            }
            chain.push(q);
        }
        chain.pop();
        chain
    };
    let mut hull = half(&mut pts.iter().copied());
    hull.extend(half(&mut pts.iter().rev().copied()));
    hull
}

fn shape_strategy(w: i64, h: i64) -> impl Strategy<Value = Shape> {
    let rect = (-2..=w + 1, -2..=h + 1, 1..=w / 2 + 2, 1..=h / 2 + 2)
        .prop_map(|(x, y, dx, dy)| Shape::Rect(x, y, x + dx, y + dy));
    let convex = (-2..=w + 1, -2..=h + 1, prop::collection::vec((0..=8i64, 0..=8i64), 3..8)).prop_map(
        |(x, y, offsets)| {
            let hull = convex_hull(offsets.iter().map(|&(dx, dy)| (x + dx, y + dy)).collect());
            if hull.len() >= 3 { Shape::Convex(hull) } else { Shape::Rect(x, y, x + 2, y + 1) }
        },
    );
    prop_oneof![rect, convex]
}

fn level_strategy(rects_only: bool) -> impl Strategy<Value = (i64, i64, Vec<Shape>)> {
    (4..=20i64, 4..=20i64).prop_flat_map(move |(w, h)| {
        let shape = if rects_only {
            (-2..=w + 1, -2..=h + 1, 1..=w / 2 + 2, 1..=h / 2 + 2)
                .prop_map(|(x, y, dx, dy)| Shape::Rect(x, y, x + dx, y + dy))
                .boxed()
        } else {
            shape_strategy(w, h).boxed()
        };
        (Just(w), Just(h), prop::collection::vec(shape, 1..=12))
    })
}

fn random_level(w: i64, h: i64, shapes: &[Shape]) -> Level {
    Level {
        walkable: vec![rect(0., 0., w as f64, h as f64)],
        obstacles: shapes.iter().map(Shape::polygon).collect(),
        agent_radius: None,
        ..Level::default()
    }
}

/// Distance from `q` to segment `a b`.
fn distance_to_segment(q: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let t = (((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    q.distance(p(a.x + t * dx, a.y + t * dy))
}

/// Whether `q` is strictly inside a counter-clockwise convex outline.
fn strictly_inside(q: Point, outline: &[Point]) -> bool {
    (0..outline.len())
        .all(|i| orient(outline[i], outline[(i + 1) % outline.len()], q) == Orientation::CounterClockwise)
}

/// Sample points over the room (and a little outside it), each classified as walkable or not,
/// skipping points within 1e-6 of any outline (where rounded crossings could decide).
fn classified_samples(w: i64, h: i64, shapes: &[Shape]) -> Vec<(Point, bool)> {
    let room = Shape::Rect(0, 0, w, h).outline();
    let outlines: Vec<Vec<Point>> = shapes.iter().map(Shape::outline).collect();
    let n = 23;
    let mut samples = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let q = p(
                -1.0 + (w as f64 + 2.0) * (i as f64 + 0.5) / n as f64 + 0.0123,
                -1.0 + (h as f64 + 2.0) * (j as f64 + 0.5) / n as f64 + 0.0371,
            );
            let near_edge = std::iter::once(&room)
                .chain(&outlines)
                .any(|o| (0..o.len()).any(|k| distance_to_segment(q, o[k], o[(k + 1) % o.len()]) < 1e-6));
            if near_edge {
                continue;
            }
            let walkable = strictly_inside(q, &room) && !outlines.iter().any(|o| strictly_inside(q, o));
            samples.push((q, walkable));
        }
    }
    samples
}

/// For a room and axis-aligned rectangles: the exact free area, and the island of each free
/// cell of the grid made by all the rectangles' coordinates (cells are connected through a
/// shared side, never through a corner only).
struct CellOracle {
    xs: Vec<i64>,
    ys: Vec<i64>,
    /// Island of cell (i, j), or None for blocked cells.
    island: Vec<Vec<Option<usize>>>,
    islands: usize,
    area: i64,
}

impl CellOracle {
    fn new(w: i64, h: i64, shapes: &[Shape]) -> CellOracle {
        let rects: Vec<(i64, i64, i64, i64)> = shapes
            .iter()
            .map(|s| match *s {
                Shape::Rect(x0, y0, x1, y1) => (x0, y0, x1, y1),
                Shape::Convex(_) => unreachable!("rectangles only"),
            })
            .collect();
        let mut xs: Vec<i64> = [0, w]
            .into_iter()
            .chain(rects.iter().flat_map(|r| [r.0, r.2]))
            .filter(|&x| (0..=w).contains(&x))
            .collect();
        let mut ys: Vec<i64> = [0, h]
            .into_iter()
            .chain(rects.iter().flat_map(|r| [r.1, r.3]))
            .filter(|&y| (0..=h).contains(&y))
            .collect();
        xs.sort_unstable();
        xs.dedup();
        ys.sort_unstable();
        ys.dedup();
        let (nx, ny) = (xs.len() - 1, ys.len() - 1);
        let free = |i: usize, j: usize| {
            // Cell centre (doubled, to stay in integers).
            let (cx, cy) = (xs[i] + xs[i + 1], ys[j] + ys[j + 1]);
            !rects.iter().any(|r| 2 * r.0 < cx && cx < 2 * r.2 && 2 * r.1 < cy && cy < 2 * r.3)
        };
        let mut island = vec![vec![None; ny]; nx];
        let mut islands = 0;
        let mut area = 0;
        for i in 0..nx {
            for j in 0..ny {
                if !free(i, j) {
                    continue;
                }
                area += (xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j]);
                if island[i][j].is_some() {
                    continue;
                }
                island[i][j] = Some(islands);
                let mut stack = vec![(i, j)];
                while let Some((a, b)) = stack.pop() {
                    let mut next = Vec::new();
                    if a > 0 {
                        next.push((a - 1, b));
                    }
                    if a + 1 < nx {
                        next.push((a + 1, b));
                    }
                    if b > 0 {
                        next.push((a, b - 1));
                    }
                    if b + 1 < ny {
                        next.push((a, b + 1));
                    }
                    for (c, d) in next {
                        if island[c][d].is_none() && free(c, d) {
                            island[c][d] = Some(islands);
                            stack.push((c, d));
                        }
                    }
                }
                islands += 1;
            }
        }
        CellOracle { xs, ys, island, islands, area }
    }

    /// The island of the free cell strictly containing `q`, if any.
    fn island_at(&self, q: Point) -> Option<usize> {
        let i = self.xs.windows(2).position(|x| (x[0] as f64) < q.x && q.x < x[1] as f64)?;
        let j = self.ys.windows(2).position(|y| (y[0] as f64) < q.y && q.y < y[1] as f64)?;
        self.island[i][j]
    }
}

/// Bakes a random level and checks what every bake must give: success with conserved area and
/// a valid mesh, or `NothingWalkable`; never another error. (A panic fails the proptest too:
/// proptest catches it and reports it with the shrunk input.)
fn check_random_level(level: &Level, method: Triangulation) -> Result<Option<NavMesh>, TestCaseError> {
    let result = bake(level, &settings(method));
    match result {
        Ok(baked) => {
            prop_assert!(
                baked.report.verification.relative_area_error <= 1e-9,
                "{:?}",
                baked.report.verification
            );
            let problems = baked.mesh.parts().find_problems();
            prop_assert!(problems.is_empty(), "{method:?}: {problems:?}");
            Ok(Some(baked.mesh))
        }
        Err(BakeError::NothingWalkable { .. }) => Ok(None),
        Err(e) => Err(TestCaseError::fail(format!(
            "{method:?}: unexpected error {e} ({e:?}) on {}",
            level.to_json()
        ))),
    }
}

/// Checks one random level with one method: see the proptests below.
fn check_random_level_fully(
    w: i64,
    h: i64,
    shapes: &[Shape],
    method: Triangulation,
) -> Result<(), TestCaseError> {
    let level = random_level(w, h, shapes);
    let samples = classified_samples(w, h, shapes);
    let oracle = shapes.iter().all(|s| matches!(s, Shape::Rect(..))).then(|| CellOracle::new(w, h, shapes));
    let Some(mesh) = check_random_level(&level, method)? else {
        prop_assert!(
            samples.iter().all(|&(_, walkable)| !walkable),
            "{:?}: NothingWalkable, but some samples are free",
            method
        );
        if let Some(oracle) = &oracle {
            prop_assert_eq!(oracle.area, 0, "{:?}: NothingWalkable but free area", method);
        }
        return Ok(());
    };
    for &(q, walkable) in &samples {
        prop_assert_eq!(mesh.locate(q).is_some(), walkable, "{:?}: at {:?}", method, q);
    }
    let region = merge::merge(&validate::validate(&level).unwrap(), &settings(method)).unwrap();
    let area = mesh.stats().area;
    prop_assert!((area - region.area()).abs() <= 1e-9 * region.area());
    let Some(oracle) = oracle else {
        return Ok(());
    };
    // Rectangles only: exact area, islands, integer vertices.
    prop_assert_eq!(area, oracle.area as f64, "{:?}", method);
    prop_assert_eq!(mesh.island_count() as usize, oracle.islands, "{:?}", method);
    for &v in mesh.vertices() {
        prop_assert!(v.x.fract() == 0.0 && v.y.fract() == 0.0, "{:?}: vertex {:?}", method, v);
    }
    // The mesh's islands and the cells' islands partition the samples the same way.
    let mut mesh_to_cell: HashMap<IslandId, usize> = HashMap::new();
    let mut cell_to_mesh: HashMap<usize, IslandId> = HashMap::new();
    for &(q, _) in &samples {
        let located = mesh.locate(q).map(|t| mesh.island(t));
        let cell = oracle.island_at(q);
        prop_assert_eq!(located.is_some(), cell.is_some(), "{:?}: at {:?}", method, q);
        if let (Some(m), Some(c)) = (located, cell) {
            prop_assert_eq!(*mesh_to_cell.entry(m).or_insert(c), c, "{:?}: at {:?}", method, q);
            prop_assert_eq!(*cell_to_mesh.entry(c).or_insert(m), m, "{:?}: at {:?}", method, q);
        }
    }
    Ok(())
}

fn random_level_strategy() -> impl Strategy<Value = (i64, i64, Vec<Shape>)> {
    prop_oneof![level_strategy(true), level_strategy(false)]
}

fn proptest_config() -> ProptestConfig {
    ProptestConfig {
        // No regression files: failures print the level as JSON instead.
        failure_persistence: None,
        ..ProptestConfig::with_cases(48)
    }
}

proptest! {
    #![proptest_config(proptest_config())]

    /// A room and 1..12 random rectangles or convex polygons (integer coordinates, overlapping,
    /// touching, crossing the outline): the bake succeeds with conserved area and a valid mesh
    /// whose point location agrees with the input geometry, or reports NothingWalkable when
    /// nothing is free. For rectangles only, area and islands match the exact cell oracle.
    /// Levels where a ring's point touches the inside of another ring's edge are included
    /// (regression tests in section 11).
    #[test]
    fn random_levels((w, h, shapes) in random_level_strategy()) {
        for method in METHODS {
            check_random_level_fully(w, h, &shapes, method)?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 11. Regressions: a ring point touching the inside of another ring's edge
// ---------------------------------------------------------------------------------------------

/// An obstacle whose corner touches the walkable outline from inside: the diamond
/// (8,5) (9,4) (10,5) (9,6) touches the right wall x = 10 at (10, 5) only.
///
/// Expected: area 100 - 2 = 98 (the diamond's diagonals are 2 and 2), one island, with either
/// method. The boolean engine returns the room's outer ring without (10, 5), which only the
/// diamond hole's ring holds; before the rings were noded in `merge`, `bake` failed with
/// `BakeError::Verification(BoundaryOffRing)` for (10,0)-(10,5) or (10,5)-(10,10).
#[test]
fn obstacle_vertex_touching_the_walkable_outline() {
    let level = room(vec![poly(&[(8., 5.), (9., 4.), (10., 5.), (9., 6.)])]);
    for method in METHODS {
        // The stages without the verification: the mesh is right.
        let settings = settings(method);
        let region = merge::merge(&validate::validate(&level).unwrap(), &settings).unwrap();
        let soup = trinav_bake::triangulate::triangulate(&region, method).unwrap();
        let welded = trinav_bake::weld::weld(&soup).unwrap();
        let mesh = trinav_bake::derive::derive(welded, &settings).unwrap();
        assert_eq!(mesh.stats().area, 98.0, "{method:?}");
        assert_eq!(mesh.island_count(), 1, "{method:?}");
        assert!(mesh.parts().find_problems().is_empty());
        // The verification and the bake should accept it.
        let verified = trinav_bake::verify::verify(&region, &mesh);
        assert!(verified.is_ok(), "{method:?}: {verified:?}");
        assert_eq!(bake_with(&level, method).stats().area, 98.0);
    }
}

/// The same contact between two obstacles: the triangle (5,3) (8,2) (8,4) touches the right
/// edge of the square [2,5]^2 at (5, 3), inside that edge. Expected area 100 - 9 - 3 = 88, one
/// island; `bake` fails with `BakeError::Verification(BoundaryOffRing)` for an edge of x = 5
/// starting or ending at (5, 3). The same for a walkable polygon's own hole touching its outer
/// ring: the room with the diamond of the test above as a hole, expected area 98.
#[test]
fn obstacle_vertex_touching_another_obstacle_edge() {
    let level = room(vec![rect(2., 2., 5., 5.), poly(&[(5., 3.), (8., 2.), (8., 4.)])]);
    for method in METHODS {
        let mesh = bake_with(&level, method);
        assert_eq!(mesh.stats().area, 88.0, "{method:?}");
        assert_eq!(mesh.island_count(), 1, "{method:?}");
        assert_off_mesh(&mesh, p(4.9, 4.0)); // inside the square; (5, 4) itself is on the walkable boundary
        assert!(mesh.locate(p(5.5, 4.5)).is_some());
    }
    let level = Level {
        walkable: vec![rect(0., 0., 10., 10.).with_hole(ring(&[(8., 5.), (9., 4.), (10., 5.), (9., 6.)]))],
        ..Level::default()
    };
    for method in METHODS {
        assert_eq!(bake_with(&level, method).stats().area, 98.0, "{method:?}");
    }
}

/// Generated levels (the benchmark generator) bake with both methods and radii. Seeds 1-8 at
/// 1,000 obstacle vertices include levels where the boolean engine attached holes to the
/// wrong outer ring (seed 5, radius 0.5) and tiny sliver polygons far from the origin whose
/// area check once failed on rounding.
#[test]
fn generated_levels_bake() {
    for seed in 1..=8 {
        let level = trinav_bake::generate::scattered_obstacles(1_000, seed);
        for radius in [0.0, 0.5] {
            for method in METHODS {
                let settings = BakeSettings::default().with_agent_radius(radius).with_triangulation(method);
                let baked = bake(&level, &settings)
                    .unwrap_or_else(|e| panic!("seed {seed}, radius {radius}, {method:?}: {e:#?}"));
                assert!(baked.report.verification.relative_area_error <= 1e-9);
            }
        }
    }
}

/// Ear clipping of a polygon whose holes touch corner to corner produced overlapping triangles
/// that conserved the area but left a gap; the polygon is now re-triangulated by constrained
/// Delaunay and the fallback reported.
#[test]
fn ear_clipping_failure_falls_back_and_is_reported() {
    let level = trinav_bake::generate::scattered_obstacles(10_000, 15);
    let baked = bake(&level, &settings(Triangulation::EarClipping)).expect("bakes");
    assert!(!baked.report.fallbacks.is_empty(), "the fallback is reported");
    for fallback in &baked.report.fallbacks {
        let off_ring =
            matches!(fallback.reason, TriangulationProblem::Boundary(VerifyError::BoundaryOffRing { .. }));
        assert!(off_ring, "{}", fallback.reason);
        assert!(fallback.reason.to_string().contains("lies on no ring"), "{}", fallback.reason);
    }
}

#[test]
fn stage_six_beside_stage_five_gives_the_plain_mesh_and_report() {
    // Big enough for the second thread (`NavMesh::TWO_THREADS_FROM`), where the machine has
    // two cores: the grid and the pockets on it, the turning corners and the verification here.
    let level = trinav_bake::generate::scattered_obstacles(4_000, 5);
    for method in METHODS {
        let baked = bake_ok(&level, &settings(method));
        assert!(baked.mesh.triangle_count() >= NavMesh::TWO_THREADS_FROM, "{method:?}");
        trinav::build::check_derived(&baked.mesh).unwrap_or_else(|e| panic!("{method:?}: {e}"));
        // Stage 6 summed the area over the arrays as the mesh sums it.
        assert_eq!(baked.report.verification.mesh_area, baked.mesh.area(), "{method:?}");
    }
}

/// A triangle's corners as the bits of their coordinates.
type CornerBits = [(u64, u64); 3];

/// Each triangle's corners, its area type and the corners of its island's first triangle: the
/// mesh as a set, whatever the numbering.
fn triangles_by_island(mesh: &NavMesh) -> BTreeSet<(CornerBits, u8, CornerBits)> {
    let key = |t: TriangleId| mesh.triangle_points(t).map(|q| (q.x.to_bits(), q.y.to_bits()));
    let mut first: HashMap<IslandId, TriangleId> = HashMap::new();
    (0..mesh.triangle_count())
        .map(|t| {
            let t = TriangleId::from_index(t);
            let island_first = *first.entry(mesh.island(t)).or_insert(t);
            (key(t), mesh.area_id(t).0, key(island_first))
        })
        .collect()
}

#[test]
fn the_bake_numbers_big_meshes_breadth_first_per_island() {
    // Rooms apart (islands), an enclosure (an island inside another's hole) and many
    // obstacles, in both triangulations: big enough to be renumbered, and one below.
    let mut level =
        room((0..4).map(|i| rect(1. + 2. * f64::from(i), 1., 2. + 2. * f64::from(i), 8.)).collect());
    level.walkable.push(rect(20., 0., 25., 5.));
    level.walkable.push(poly(&[(12., 0.), (18., 0.), (18., 6.), (12., 6.)]).with_hole(ring(&[
        (13., 1.),
        (17., 1.),
        (17., 5.),
        (13., 5.),
    ])));
    level.walkable.push(rect(14., 2., 16., 4.));
    let mut big = trinav_bake::generate::scattered_obstacles(8_000, 9);
    // Three islands more, away from the scattered obstacles' room (which starts at 0, 0).
    big.walkable.push(rect(-30., -30., -25., -25.));
    big.walkable.push(poly(&[(-50., -50.), (-40., -50.), (-40., -40.), (-50., -40.)]).with_hole(ring(&[
        (-48., -48.),
        (-42., -48.),
        (-42., -42.),
        (-48., -42.),
    ])));
    big.walkable.push(rect(-46., -46., -44., -44.));
    for level in [&level, &big] {
        for method in METHODS {
            let settings = settings(method);
            let baked = bake_ok(level, &settings).mesh;
            // The same welded mesh through the plain stage 5, which keeps the weld's order.
            let region = merge::merge(&validate::validate(level).unwrap(), &settings).unwrap();
            let soup = trinav_bake::triangulate::triangulate(&region, method).unwrap();
            let plain =
                trinav_bake::derive::derive(trinav_bake::weld::weld(&soup).unwrap(), &settings).unwrap();
            let renumbered = baked.triangle_count() >= trinav_bake::derive::NUMBER_BREADTH_FIRST_FROM;
            assert_eq!(renumbered, std::ptr::eq(level, &big), "{method:?}");
            assert!(baked.island_count() >= 4, "{method:?}");
            if !renumbered {
                assert_eq!(baked.parts(), plain.parts(), "{method:?}");
                continue;
            }
            assert_eq!(baked.vertices(), plain.vertices(), "{method:?}");
            assert_eq!(baked.island_count(), plain.island_count(), "{method:?}");
            assert_eq!(triangles_by_island(&baked), triangles_by_island(&plain), "{method:?}");
            // Islands in runs, numbered in order; each triangle but the first of its island
            // linked to a lower one.
            let parts = baked.parts();
            assert!(parts.islands.is_sorted(), "{method:?}");
            for (t, links) in parts.neighbours.iter().enumerate() {
                let first = t == 0 || parts.islands[t] != parts.islands[t - 1];
                assert!(first || links.iter().any(|n| n.index() < t), "{method:?}: triangle {t}");
            }
            // The islands are those the plain numbering finds on the new order.
            assert_eq!(trinav::build::find_islands(&parts.neighbours).0, parts.islands, "{method:?}");
        }
    }
}
