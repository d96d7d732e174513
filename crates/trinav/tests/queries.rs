//! Locate, nearest point, raycast and paths in both modes on the committed fixture meshes:
//! known optimal paths, errors, snapping, pinch points and sides, and random queries against
//! brute-force oracles (point in triangle, nearest point of every triangle, crossing of every
//! boundary edge, a visibility graph for the optimal lengths).

mod common;

use common::*;
use trinav::geometry::{MAX_COORDINATE, MIN_COORDINATE};
use trinav::{NavMesh, Path, PathError, PathMode, PathOptions, PathScratch, Point, QueryError, RayHit};

const MODES: [PathMode; 2] = [PathMode::Fast, PathMode::Optimal];

fn path_in(mesh: &NavMesh, from: Point, to: Point, mode: PathMode) -> Result<Path, PathError> {
    mesh.find_path_with(from, to, &PathOptions::default().with_mode(mode), &mut PathScratch::new())
}

/// Both triangulations of a fixture level.
fn both(level: &str) -> [NavMesh; 2] {
    [fixture(&format!("{level}_cdt")), fixture(&format!("{level}_ear"))]
}

#[test]
fn around_one_square() {
    // From (2, 5) to (8, 5) around the square [4, 6]²: via (4, 6) and (6, 6), or the mirror
    // image below; either way 2·√5 + 2.
    for mesh in both("square") {
        for mode in MODES {
            let (from, to) = (p(2., 5.), p(8., 5.));
            let found = path_in(&mesh, from, to, mode).unwrap();
            check_path(&mesh, from, to, &found);
            assert_close(found.length, 2.0 * 5f64.sqrt() + 2.0, "length");
            let above = vec![from, p(4., 6.), p(6., 6.), to];
            let below = vec![from, p(4., 4.), p(6., 4.), to];
            assert!(found.points == above || found.points == below, "{:?}", found.points);
        }
    }
}

#[test]
fn through_a_doorway() {
    // A wall at x in [9, 11] with a door for y in [4, 6]: from (2, 9) to (18, 9) the path
    // turns at the door's top corners: 2·√58 + 2.
    for mesh in both("doorway") {
        for mode in MODES {
            let (from, to) = (p(2., 9.), p(18., 9.));
            let found = path_in(&mesh, from, to, mode).unwrap();
            check_path(&mesh, from, to, &found);
            assert_eq!(found.points, vec![from, p(9., 6.), p(11., 6.), to]);
            assert_close(found.length, 2.0 * 58f64.sqrt() + 2.0, "length");
            // Where the straight line fits through the door, the path is that line.
            let straight = path_in(&mesh, p(2., 9.), p(18., 1.), mode).unwrap();
            assert_eq!(straight.points, vec![p(2., 9.), p(18., 1.)]);
        }
    }
}

#[test]
fn u_shaped_corridor() {
    // The U left by cutting [3, 7] x [3, 10] out of [0, 10]²: from the top of one arm to the
    // top of the other, around the inner corners (3, 3) and (7, 3): 2·√38.25 + 4.
    for mesh in both("u_corridor") {
        for mode in MODES {
            let (from, to) = (p(1.5, 9.), p(8.5, 9.));
            let found = path_in(&mesh, from, to, mode).unwrap();
            check_path(&mesh, from, to, &found);
            assert_eq!(found.points, vec![from, p(3., 3.), p(7., 3.), to]);
            assert_close(found.length, 2.0 * 38.25f64.sqrt() + 4.0, "length");
            // From the inner corner itself, blocked line of sight: around the other corner.
            let found = path_in(&mesh, p(3., 3.), p(8.5, 9.), mode).unwrap();
            assert_eq!(found.points, vec![p(3., 3.), p(7., 3.), p(8.5, 9.)]);
            let back = path_in(&mesh, p(8.5, 9.), p(3., 3.), mode).unwrap();
            assert_eq!(back.points, vec![p(8.5, 9.), p(7., 3.), p(3., 3.)]);
        }
    }
}

#[test]
fn same_triangle_is_a_straight_segment_and_same_point_is_one_point() {
    for mesh in both("town") {
        for mode in MODES {
            let [a, b, c] = mesh.triangle_points(trinav::TriangleId(0));
            let (from, to) = (a.midpoint(b), a.midpoint(c));
            let found = path_in(&mesh, from, to, mode).unwrap();
            assert_eq!((found.points, found.length), (vec![from, to], from.distance(to)));
            let here = path_in(&mesh, from, from, mode).unwrap();
            assert_eq!((here.points, here.length), (vec![from], 0.0));
        }
    }
}

#[test]
fn start_on_a_vertex_searches_from_every_triangle_around_it() {
    // (85, 50) is a corner of the market hall in town.json: the straight line to (95, 60) is
    // clear. Seeded from one triangle only, the search once went round the hall (56.2).
    for mesh in both("town") {
        for mode in MODES {
            let found = path_in(&mesh, p(85., 50.), p(95., 60.), mode).unwrap();
            assert_eq!(found.points, vec![p(85., 50.), p(95., 60.)]);
        }
    }
}

#[test]
fn errors_and_snapping() {
    for mesh in both("courtyard") {
        for mode in MODES {
            let options = PathOptions::default().with_mode(mode);
            let run = |from, to, options: &PathOptions| {
                mesh.find_path_with(from, to, options, &mut PathScratch::new())
            };
            let (outside, courtyard) = (p(2., 2.), p(25., 25.));
            assert_eq!(run(outside, courtyard, &options), Err(PathError::Unreachable));
            let nan = p(f64::NAN, 1.0);
            assert!(matches!(run(nan, outside, &options), Err(PathError::NonFinite { .. })));
            assert!(matches!(
                run(outside, p(1.0, f64::INFINITY), &options),
                Err(PathError::NonFinite { .. })
            ));
            // Inside the keep's wall (an obstacle) and outside the level.
            for off in [p(18., 30.), p(-5., 30.)] {
                assert!(matches!(run(outside, off, &options), Err(PathError::OffMesh { .. })));
                let snapped = run(outside, off, &options.with_snap(true)).unwrap();
                let (nearest, _) = mesh.nearest_point(off).unwrap();
                check_path(&mesh, outside, nearest, &snapped);
            }
            assert_eq!(mesh.raycast(p(-1., -1.), outside), Err(QueryError::OffMesh(p(-1., -1.))));
            assert!(matches!(mesh.raycast(outside, nan), Err(QueryError::NonFinite(_))));
            assert_eq!(mesh.nearest_point(nan), None);
        }
    }
}

#[test]
fn snapping_onto_a_point_that_rounds_outside_its_triangle() {
    // The nearest point of this off-mesh point projects onto an arc chord and rounds to just
    // outside its triangle; snapping once failed with Unreachable.
    let mesh = fixture("courtyard_ear");
    let off = p(8.201680953062908, 50.240192948175334);
    assert_eq!(mesh.locate(off), None);
    for mode in MODES {
        let snap = PathOptions::default().with_snap(true).with_mode(mode);
        let found = mesh.find_path_with(off, p(8.0, 52.0), &snap, &mut PathScratch::new()).unwrap();
        let (nearest, _) = mesh.nearest_point(off).unwrap();
        assert_eq!(found.points[0], nearest);
        assert_eq!(*found.points.last().unwrap(), p(8.0, 52.0));
    }
}

#[test]
fn pinch_point_does_not_connect() {
    // Two obstacles meeting corner to corner at (5, 5) close the room's diagonal; the free
    // quadrants on either side of the corner meet only at that point.
    for mesh in both("pinch") {
        for mode in MODES {
            assert_eq!(path_in(&mesh, p(1., 1.), p(9., 9.), mode), Err(PathError::Unreachable));
        }
        // A ray through the pinch point is blocked there.
        match mesh.raycast(p(1., 1.), p(9., 9.)).unwrap() {
            RayHit::Blocked { point, fraction, .. } => {
                assert_eq!(point, p(5., 5.));
                assert_close(fraction, 0.5, "fraction");
            }
            clear => panic!("ray passed the pinch: {clear:?}"),
        }
        // A ray to the pinch point itself is clear, along the wall too.
        assert!(mesh.raycast(p(1., 1.), p(5., 5.)).unwrap().is_clear());
        assert!(mesh.raycast(p(0., 0.), p(5., 0.)).unwrap().is_clear());
    }
}

#[test]
fn start_on_a_double_corner_leaves_through_the_chosen_side() {
    // corner.map: blocked cells (2, 1) and (1, 2) meet at the corner (2, 2), a pinch between
    // free cells (1, 1) and (2, 2). A start there belongs to both pieces, unless a side is given.
    for mesh in both("corner") {
        for mode in MODES {
            let run = |from, to, options: PathOptions| {
                mesh.find_path_with(from, to, &options.with_mode(mode), &mut PathScratch::new()).unwrap()
            };
            let (corner, target) = (p(2., 2.), p(1., 1.));
            assert_close(run(corner, target, PathOptions::default()).length, 2f64.sqrt(), "free");
            // Leaving through cell (2, 2) (towards its centre), the path goes round a blocked cell.
            let found = run(corner, target, PathOptions::default().with_sides(Some(p(2.5, 2.5)), None));
            check_path(&mesh, corner, target, &found);
            assert_close(found.length, 4.0, "round the block");
            // Arriving at the corner from cell (1, 1)'s side is the straight diagonal again.
            let back = run(target, corner, PathOptions::default().with_sides(None, Some(p(1.5, 1.5))));
            assert_close(back.length, 2f64.sqrt(), "back");
            // A side away from any pinch changes nothing.
            let sides = PathOptions::default().with_sides(Some(p(0.2, 0.9)), Some(p(3.5, 3.5)));
            assert_eq!(run(p(0.5, 0.5), p(3.5, 3.5), sides).points.len(), 3);
        }
    }
}

#[test]
fn locate_and_nearest_point_agree_with_brute_force() {
    for name in PLAIN_FIXTURES.iter().copied().chain(["pinch_cdt", "corner_ear", "tiny_map_cdt"]) {
        let mesh = fixture(name);
        let mut rng = rng(11);
        for _ in 0..300 {
            let q = random_point(&mut rng, &mesh, 0.1);
            let all = brute_locate_all(&mesh, q);
            assert_eq!(mesh.locate_all(q).collect::<Vec<_>>(), all, "{name}: locate_all {q:?}");
            assert_eq!(mesh.locate(q), all.first().copied(), "{name}: locate {q:?}");
            let (nearest, t) = mesh.nearest_point(q).unwrap();
            // In its triangle (exact test), so a path can start there.
            assert!(brute_locate_all(&mesh, nearest).contains(&t), "{name}: {nearest:?} is not in {t}");
            assert_close(nearest.distance(q), brute_nearest_distance(&mesh, q, |_| true), "nearest distance");
            if !all.is_empty() {
                assert_eq!((nearest, t), (q, all[0]), "{name}: a point on the mesh is its own nearest");
            }
            let island = mesh.island(t);
            let (on_island, u) = mesh.nearest_point_on_island(q, island).unwrap();
            assert_eq!(mesh.island(u), island);
            assert!(brute_locate_all(&mesh, on_island).contains(&u), "{name}: {on_island:?} is not in {u}");
            let brute = brute_nearest_distance(&mesh, q, |t| mesh.island(t) == island);
            assert_close(on_island.distance(q), brute, "nearest on island");
        }
        assert_eq!(mesh.nearest_point_on_island(p(1., 1.), trinav::IslandId(mesh.island_count())), None);
    }
}

#[test]
fn raycasts_agree_with_brute_force() {
    for name in PLAIN_FIXTURES {
        let mesh = fixture(name);
        let edges = boundary_edges(&mesh);
        let mut rng = rng(12);
        for _ in 0..300 {
            let (from, to) = (random_point_on_mesh(&mut rng, &mesh), random_point(&mut rng, &mesh, 0.1));
            let walked = mesh.raycast(from, to).unwrap();
            match (walked, brute_first_crossing(&edges, from, to)) {
                (RayHit::Clear { .. }, None) => {
                    assert!(mesh.locate(to).is_some(), "{name}: clear to off-mesh")
                }
                (RayHit::Blocked { fraction, point, .. }, Some(s)) => {
                    assert!((fraction - s).abs() <= 1e-9, "{name}: fraction {fraction} vs brute force {s}");
                    let off = brute_nearest_distance(&mesh, point, |_| true);
                    assert!(off <= 1e-10, "{name}: hit point {point:?} is {off} off the mesh");
                }
                (walked, brute) => {
                    panic!("{name}: {from:?} -> {to:?}: walk {walked:?}, brute force {brute:?}")
                }
            }
        }
    }
}

/// Random pairs on every plain fixture: a path exists exactly when the islands agree; both
/// modes' paths are valid; the optimal length equals the visibility graph's, the fast length is
/// never shorter.
#[test]
fn paths_agree_with_the_visibility_graph() {
    for name in PLAIN_FIXTURES {
        let mesh = fixture(name);
        let graph = VisibilityGraph::new(&mesh);
        let mut rng = rng(13);
        let mut scratch = PathScratch::new();
        for _ in 0..60 {
            let (from, to) = (random_point_on_mesh(&mut rng, &mesh), random_point_on_mesh(&mut rng, &mesh));
            let shortest = graph.shortest(&mesh, from, to);
            let same_island =
                mesh.island(mesh.locate(from).unwrap()) == mesh.island(mesh.locate(to).unwrap());
            assert_eq!(shortest.is_some(), same_island, "{name}: {from:?} -> {to:?}");
            let options = PathOptions::default();
            let fast = mesh.find_path_with(from, to, &options, &mut scratch);
            let optimal = mesh.find_path_with(from, to, &options.with_mode(PathMode::Optimal), &mut scratch);
            let Some(shortest) = shortest else {
                assert_eq!((fast, optimal), (Err(PathError::Unreachable), Err(PathError::Unreachable)));
                continue;
            };
            let (fast, optimal) = (fast.unwrap(), optimal.unwrap());
            check_path(&mesh, from, to, &fast);
            check_path(&mesh, from, to, &optimal);
            assert_close(optimal.length, shortest, &format!("{name}: optimal {from:?} -> {to:?}"));
            assert!(fast.length >= shortest * (1.0 - 1e-9), "{name}: fast shorter than the optimum");
        }
    }
}

/// Fuzzing regressions (`fuzz/regressions/query`): tiny and huge query coordinates.
#[test]
fn fuzz_regressions_tiny_and_huge_coordinates() {
    let mesh = fixture("town_cdt");
    // Rays between points a few 1e-154 and 1e-183 from the origin: one reported a hit at
    // fraction 45, another a hit point off the segment (the squared length underflowed, and the
    // orientation predicate is not exact when products of differences underflow). Non-zero
    // coordinates below 2^-142 are refused; from 2^-142 up, rays behave.
    let (a, b) = (
        p(6.30344185350817e-154, 7.075764624534243e-291),
        p(6.164099239606742e-154, -2.174865917711718e-272),
    );
    assert_eq!(mesh.raycast(a, b), Err(QueryError::NonFinite(a)));
    let (a, b) = (p(6.14293298947794e-183, 6.162238530389485e-183), p(-2.2899868470072027e-185, 2.3e-322));
    assert_eq!(mesh.raycast(a, b), Err(QueryError::NonFinite(a)));
    let tiny = MIN_COORDINATE;
    let (a, b) = (p(3.0 * tiny, 2.0 * tiny), p(tiny, 5.0 * tiny));
    assert!(mesh.raycast(a, b).unwrap().is_clear());
    match mesh.raycast(a, p(-tiny, 3.0 * tiny)).unwrap() {
        RayHit::Blocked { point, fraction, .. } => {
            assert!((0.0..=1.0).contains(&fraction));
            assert_eq!(point.x, 0.0, "leaves through the wall x = 0: {point:?}");
        }
        clear => panic!("{clear:?}"),
    }
    // A point near -1.5e308: its nearest point once came out as NaN. Points beyond ±2^40 are
    // refused by every query.
    let huge = p(-1.5727826207346066e308, -1.526479302221885e308);
    assert_eq!(mesh.nearest_point(huge), None);
    assert_eq!(mesh.raycast(p(5., 5.), huge), Err(QueryError::NonFinite(huge)));
    for mode in MODES {
        assert!(matches!(path_in(&mesh, p(5., 5.), huge, mode), Err(PathError::NonFinite { .. })));
    }
    let far = p(MAX_COORDINATE, 0.0);
    let (q, _) = mesh.nearest_point(far).unwrap();
    assert!(q.is_finite() && q.x <= 130.0);
}

/// The fast mode's paths stay near the shortest ones (the visibility graph's) on every plain
/// fixture: over 300 random connected pairs each, the mean ratio is at most 1.005 and no path
/// is longer by more than 10%. With nodes at edge midpoints (the fast search before issue 17)
/// this failed: town with ear clipping had a mean of 1.070 and a worst pair of 3.26, square a
/// worst pair of 1.35.
#[test]
fn fast_paths_stay_near_the_shortest() {
    for name in PLAIN_FIXTURES {
        let mesh = fixture(name);
        let graph = VisibilityGraph::new(&mesh);
        let mut rng = rng(17);
        let mut scratch = PathScratch::new();
        let mut ratios = Vec::new();
        while ratios.len() < 300 {
            let (from, to) = (random_point_on_mesh(&mut rng, &mesh), random_point_on_mesh(&mut rng, &mesh));
            let Some(shortest) = graph.shortest(&mesh, from, to).filter(|&s| s > 0.0) else {
                continue;
            };
            let fast = mesh.find_path_with(from, to, &PathOptions::default(), &mut scratch).unwrap();
            check_path(&mesh, from, to, &fast);
            let ratio = fast.length / shortest;
            assert!(ratio <= 1.1, "{name}: {from:?} -> {to:?} is {ratio} times the shortest");
            ratios.push(ratio);
        }
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        assert!(mean <= 1.005, "{name}: mean ratio {mean}");
    }
}
