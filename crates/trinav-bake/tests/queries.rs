//! Runtime queries on baked meshes: known optimal paths, path validity on random levels, and
//! raycast and nearest point against brute force.

use std::path::PathBuf;

use proptest::prelude::*;
use trinav::geometry::closest_point_on_triangle;
use trinav::{
    BakeSettings, NavMesh, Path, PathError, PathOptions, PathScratch, Point, QueryError, RayHit, TriangleId,
    Triangulation,
};
use trinav_bake::{Level, PolygonInput, bake, settings_for};

const METHODS: [Triangulation; 2] = [Triangulation::EarClipping, Triangulation::ConstrainedDelaunay];

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn bake_level(level: &Level, method: Triangulation) -> NavMesh {
    let settings = settings_for(level, BakeSettings::default().with_triangulation(method), None);
    bake(level, &settings).unwrap_or_else(|e| panic!("{e:#?}")).mesh
}

fn sample(name: &str) -> Level {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/levels").join(name);
    Level::load(path).unwrap()
}

fn path(mesh: &NavMesh, from: Point, to: Point) -> Result<Path, PathError> {
    mesh.find_path(from, to, &mut PathScratch::new())
}

fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() <= 1e-12 * expected.max(1.0), "{actual} vs {expected}");
}

/// Everything a returned path must satisfy: it joins the query points, each segment lies in
/// the walkable area (raycast walk, and points sampled along it locate), its length is the sum
/// of its segments and at least the straight distance.
fn check_path(mesh: &NavMesh, from: Point, to: Point, path: &Path) {
    assert_eq!(path.points.first(), Some(&from));
    assert_eq!(*path.points.last().unwrap(), to);
    let sum: f64 = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
    assert!((path.length - sum).abs() <= 1e-9 * sum.max(1.0), "{} vs {sum}", path.length);
    assert!(path.length >= from.distance(to) * (1.0 - 1e-12), "{} < {}", path.length, from.distance(to));
    for w in path.points.windows(2) {
        let hit = mesh.raycast(w[0], w[1]).unwrap();
        assert!(hit.is_clear(), "segment {:?} -> {:?} leaves the mesh: {hit:?}", w[0], w[1]);
        // Points along the segment are on the mesh, up to the rounding of computing them (a
        // segment running along a wall may round to just outside it).
        for k in 1..8 {
            let s = k as f64 / 8.0;
            let q = p(w[0].x + (w[1].x - w[0].x) * s, w[0].y + (w[1].y - w[0].y) * s);
            let (nearest, _) = mesh.nearest_point(q).unwrap();
            assert!(nearest.distance(q) <= 1e-12 * (1.0 + q.x.abs() + q.y.abs()), "{q:?} is off the mesh");
        }
    }
}

#[test]
fn around_one_square() {
    // From (2, 5) to (8, 5) around the square [4, 6]²: via (4, 6) and (6, 6), or the mirror
    // image below; either way 2·√5 + 2.
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 10., 10.)],
        obstacles: vec![PolygonInput::rect(4., 4., 6., 6.)],
        agent_radius: None,
    };
    for method in METHODS {
        let mesh = bake_level(&level, method);
        let (from, to) = (p(2., 5.), p(8., 5.));
        let found = path(&mesh, from, to).unwrap();
        check_path(&mesh, from, to, &found);
        assert_close(found.length, 2.0 * 5f64.sqrt() + 2.0);
        let above = vec![from, p(4., 6.), p(6., 6.), to];
        let below = vec![from, p(4., 4.), p(6., 4.), to];
        assert!(found.points == above || found.points == below, "{:?}", found.points);
    }
}

#[test]
fn through_a_doorway() {
    // A wall at x in [9, 11] with a door for y in [4, 6]: from (2, 9) to (18, 9) the path
    // turns at the door's top corners: 2·√58 + 2.
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 20., 10.)],
        obstacles: vec![PolygonInput::rect(9., 0., 11., 4.), PolygonInput::rect(9., 6., 11., 10.)],
        agent_radius: None,
    };
    for method in METHODS {
        let mesh = bake_level(&level, method);
        let (from, to) = (p(2., 9.), p(18., 9.));
        let found = path(&mesh, from, to).unwrap();
        check_path(&mesh, from, to, &found);
        assert_eq!(found.points, vec![from, p(9., 6.), p(11., 6.), to]);
        assert_close(found.length, 2.0 * 58f64.sqrt() + 2.0);
        // Where the straight line fits through the door, the path is that line.
        let straight = path(&mesh, p(2., 9.), p(18., 1.)).unwrap();
        assert_eq!(straight.points, vec![p(2., 9.), p(18., 1.)]);
    }
}

#[test]
fn u_shaped_corridor() {
    // The U left by cutting [3, 7] x [3, 10] out of [0, 10]²: from the top of one arm to the
    // top of the other, around the inner corners (3, 3) and (7, 3): 2·√38.25 + 4.
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 10., 10.)],
        obstacles: vec![PolygonInput::rect(3., 3., 7., 10.)],
        agent_radius: None,
    };
    for method in METHODS {
        let mesh = bake_level(&level, method);
        let (from, to) = (p(1.5, 9.), p(8.5, 9.));
        let found = path(&mesh, from, to).unwrap();
        check_path(&mesh, from, to, &found);
        assert_eq!(found.points, vec![from, p(3., 3.), p(7., 3.), to]);
        assert_close(found.length, 2.0 * 38.25f64.sqrt() + 4.0);
    }
}

#[test]
fn same_triangle_is_a_straight_segment_and_same_point_is_one_point() {
    let mesh = bake_level(&sample("town.json"), Triangulation::EarClipping);
    let t = TriangleId(0);
    let [a, b, c] = mesh.triangle_points(t);
    let (from, to) = (a.midpoint(b), a.midpoint(c));
    let found = path(&mesh, from, to).unwrap();
    assert_eq!(found.points, vec![from, to]);
    assert_eq!(found.length, from.distance(to));
    let here = path(&mesh, from, from).unwrap();
    assert_eq!((here.points, here.length), (vec![from], 0.0));
}

#[test]
fn errors_and_snapping() {
    let mesh = bake_level(&sample("courtyard.json"), Triangulation::EarClipping);
    let outside = p(2., 2.);
    let courtyard = p(25., 25.);
    assert_eq!(path(&mesh, outside, courtyard), Err(PathError::Unreachable));
    let nan = p(f64::NAN, 1.0);
    assert!(matches!(path(&mesh, nan, outside), Err(PathError::NonFinite { .. })));
    assert!(matches!(path(&mesh, outside, p(1.0, f64::INFINITY)), Err(PathError::NonFinite { .. })));
    // Inside the keep's wall (an obstacle) and outside the level.
    for off in [p(18., 30.), p(-5., 30.)] {
        assert!(matches!(path(&mesh, outside, off), Err(PathError::OffMesh { .. })));
        let snapped = mesh
            .find_path_with(outside, off, &PathOptions::default().with_snap(true), &mut PathScratch::new())
            .unwrap();
        let (nearest, _) = mesh.nearest_point(off).unwrap();
        assert_eq!(*snapped.points.last().unwrap(), nearest);
        check_path(&mesh, outside, nearest, &snapped);
    }
    assert_eq!(mesh.raycast(p(-1., -1.), outside), Err(QueryError::OffMesh(p(-1., -1.))));
    assert!(matches!(mesh.raycast(outside, nan), Err(QueryError::NonFinite(_))));
    assert_eq!(mesh.nearest_point(nan), None);
}

#[test]
fn pinch_point_does_not_connect() {
    // Two obstacles meeting corner to corner at (5, 5) close the room's diagonal; the free
    // quadrants on either side of the corner meet only at that point.
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 10., 10.)],
        obstacles: vec![
            PolygonInput::new(vec![[0., 5.], [5., 5.], [5., 10.], [0., 10.]]),
            PolygonInput::new(vec![[5., 0.], [10., 0.], [10., 5.], [5., 5.]]),
        ],
        agent_radius: None,
    };
    for method in METHODS {
        let mesh = bake_level(&level, method);
        assert_eq!(path(&mesh, p(1., 1.), p(9., 9.)), Err(PathError::Unreachable));
        // A ray through the pinch point is blocked there.
        match mesh.raycast(p(1., 1.), p(9., 9.)).unwrap() {
            RayHit::Blocked { point, fraction, .. } => {
                assert_eq!(point, p(5., 5.));
                assert_close(fraction, 0.5);
            }
            clear => panic!("ray passed the pinch: {clear:?}"),
        }
        // A ray to the pinch point itself is clear, along the wall too.
        assert!(mesh.raycast(p(1., 1.), p(5., 5.)).unwrap().is_clear());
        assert!(mesh.raycast(p(0., 0.), p(5., 0.)).unwrap().is_clear());
    }
}

#[test]
fn sample_level_paths_are_valid() {
    for name in ["town.json", "courtyard.json", "room_pillars.json"] {
        for method in METHODS {
            let mesh = bake_level(&sample(name), method);
            let b = mesh.bounds();
            let grid: Vec<Point> = (0..=12)
                .flat_map(|i| (0..=12).map(move |j| (i, j)))
                .map(|(i, j)| {
                    p(
                        b.min.x + (b.max.x - b.min.x) * i as f64 / 12.0,
                        b.min.y + (b.max.y - b.min.y) * j as f64 / 12.0,
                    )
                })
                .filter(|&q| mesh.locate(q).is_some())
                .collect();
            let mut scratch = PathScratch::new();
            for (k, &from) in grid.iter().enumerate() {
                for &to in grid.iter().skip(k).step_by(7) {
                    let same_island =
                        mesh.island(mesh.locate(from).unwrap()) == mesh.island(mesh.locate(to).unwrap());
                    match mesh.find_path(from, to, &mut scratch) {
                        Ok(found) => {
                            assert!(same_island);
                            check_path(&mesh, from, to, &found);
                        }
                        Err(PathError::Unreachable) => assert!(!same_island, "{name}: {from:?} -> {to:?}"),
                        Err(e) => panic!("{name}: {e}"),
                    }
                }
            }
        }
    }
}

/// The first point where segment `from -> to` properly crosses a boundary edge, by brute force
/// over every boundary edge; `None` if it crosses none.
fn brute_force_first_crossing(mesh: &NavMesh, from: Point, to: Point) -> Option<f64> {
    let cross = |ax: f64, ay: f64, bx: f64, by: f64| ax * by - ay * bx;
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let mut best: Option<f64> = None;
    for t in 0..mesh.triangle_count() {
        let t = TriangleId(t as u32);
        let corners = mesh.triangle_points(t);
        for (i, n) in mesh.neighbours(t).iter().enumerate() {
            if !n.is_none() {
                continue;
            }
            let (a, b) = (corners[i], corners[(i + 1) % 3]);
            let (ex, ey) = (b.x - a.x, b.y - a.y);
            let denom = cross(dx, dy, ex, ey);
            if denom == 0.0 {
                continue;
            }
            let s = cross(a.x - from.x, a.y - from.y, ex, ey) / denom;
            let u = cross(a.x - from.x, a.y - from.y, dx, dy) / denom;
            // Only crossings going outwards (from the left of a -> b to its right).
            if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u) && denom > 0.0 {
                best = Some(best.map_or(s, |b: f64| b.min(s)));
            }
        }
    }
    best
}

fn random_level_strategy() -> impl Strategy<Value = Level> {
    let obstacle = (0i32..20, 0i32..20, 1i32..6, 1i32..6)
        .prop_map(|(x, y, w, h)| PolygonInput::rect(x as f64, y as f64, (x + w) as f64, (y + h) as f64));
    prop::collection::vec(obstacle, 1..10).prop_map(|obstacles| Level {
        walkable: vec![PolygonInput::rect(0., 0., 20., 20.)],
        obstacles,
        agent_radius: None,
    })
}

fn random_points(seed: u64, count: usize, lo: f64, hi: f64) -> Vec<Point> {
    let mut rng = trinav_bake::generate::SplitMix64::new(seed);
    (0..count).map(|_| rng.point_in(p(lo, lo), (hi - lo, hi - lo))).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random levels: paths exist exactly when the islands agree and are valid; raycast and
    /// nearest point agree with brute force.
    #[test]
    fn random_levels(level in random_level_strategy(), seed in any::<u64>(), method_index in 0usize..2) {
        let settings = BakeSettings::default().with_triangulation(METHODS[method_index]);
        let mesh = match bake(&level, &settings) {
            Ok(baked) => baked.mesh,
            Err(trinav_bake::BakeError::NothingWalkable { .. }) => return Ok(()),
            Err(e) => panic!("{e:#?}"),
        };
        let points = random_points(seed, 40, -2.0, 22.0);
        let mut scratch = PathScratch::new();
        for pair in points.chunks(2) {
            let (from, to) = (pair[0], pair[1]);
            let (Some(s), Some(g)) = (mesh.locate(from), mesh.locate(to)) else {
                let refused = matches!(mesh.find_path(from, to, &mut scratch), Err(PathError::OffMesh { .. }));
                prop_assert!(refused, "off-mesh query not refused");
                continue;
            };
            match mesh.find_path(from, to, &mut scratch) {
                Ok(found) => {
                    prop_assert_eq!(mesh.island(s), mesh.island(g));
                    check_path(&mesh, from, to, &found);
                }
                Err(PathError::Unreachable) => prop_assert_ne!(mesh.island(s), mesh.island(g)),
                Err(e) => panic!("{e}"),
            }
        }
        for pair in points.chunks(2) {
            let (from, to) = (pair[0], pair[1]);
            if mesh.locate(from).is_none() {
                continue;
            }
            let walked = mesh.raycast(from, to).unwrap();
            let brute = brute_force_first_crossing(&mesh, from, to);
            match (walked, brute) {
                (RayHit::Clear { .. }, None) => prop_assert!(mesh.locate(to).is_some()),
                (RayHit::Blocked { fraction, point, .. }, Some(s)) => {
                    let same = (fraction - s).abs() <= 1e-9;
                    prop_assert!(same, "fraction {} vs brute force {}", fraction, s);
                    // The hit point is on the mesh boundary, up to rounding.
                    let (nearest, _) = mesh.nearest_point(point).unwrap();
                    prop_assert!(nearest.distance(point) <= 1e-10, "hit point {:?} is off the mesh", point);
                }
                (walked, brute) => panic!("{from:?} -> {to:?}: walk {walked:?}, brute force {brute:?}"),
            }
        }
        for &q in &points {
            let (nearest, t) = mesh.nearest_point(q).unwrap();
            // The point is in its triangle, up to the rounding of projecting onto an edge.
            let off_by = closest_point_on_triangle(nearest, mesh.triangle_points(t)).distance(nearest);
            prop_assert!(off_by < 1e-10, "nearest point {:?} is {} from its triangle", nearest, off_by);
            let brute = (0..mesh.triangle_count())
                .map(|t| closest_point_on_triangle(q, mesh.triangle_points(TriangleId(t as u32))).distance(q))
                .fold(f64::INFINITY, f64::min);
            prop_assert!((nearest.distance(q) - brute).abs() <= 1e-10, "{} vs {}", nearest.distance(q), brute);
        }
    }
}

#[test]
fn start_on_a_vertex_searches_from_every_triangle_around_it() {
    // (85, 50) is a corner of the market hall in town.json: the straight line to (95, 60) is
    // clear. Seeded from one triangle only, the search once went round the hall (56.2).
    let mesh = bake_level(&sample("town.json"), Triangulation::EarClipping);
    let found = path(&mesh, p(85., 50.), p(95., 60.)).unwrap();
    assert_eq!(found.points, vec![p(85., 50.), p(95., 60.)]);
    // From the inner corner of a U, blocked line of sight: around the other inner corner.
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 10., 10.)],
        obstacles: vec![PolygonInput::rect(3., 3., 7., 10.)],
        agent_radius: None,
    };
    for method in METHODS {
        let mesh = bake_level(&level, method);
        let found = path(&mesh, p(3., 3.), p(8.5, 9.)).unwrap();
        assert_eq!(found.points, vec![p(3., 3.), p(7., 3.), p(8.5, 9.)]);
        let back = path(&mesh, p(8.5, 9.), p(3., 3.)).unwrap();
        assert_eq!(back.points, vec![p(8.5, 9.), p(7., 3.), p(3., 3.)]);
    }
}

#[test]
fn snapping_onto_a_point_that_rounds_outside_its_triangle() {
    // The nearest point of this off-mesh point projects onto an arc chord and rounds to just
    // outside its triangle; snapping once failed with Unreachable.
    let mesh = bake_level(&sample("courtyard.json"), Triangulation::EarClipping);
    let off = p(8.201680953062908, 50.240192948175334);
    assert_eq!(mesh.locate(off), None);
    let snap = PathOptions::default().with_snap(true);
    let found = mesh.find_path_with(off, p(8.0, 52.0), &snap, &mut PathScratch::new()).unwrap();
    let (nearest, _) = mesh.nearest_point(off).unwrap();
    assert_eq!(found.points[0], nearest);
    assert_eq!(*found.points.last().unwrap(), p(8.0, 52.0));
}

#[test]
fn start_on_a_double_corner_leaves_through_the_chosen_side() {
    // Blocked cells (2, 1) and (1, 2) meet at the corner (2, 2): a pinch between free cells
    // (1, 1) and (2, 2). A start there belongs to both pieces, unless a side is given.
    let text = "type octile\nheight 4\nwidth 4\nmap\n....\n..@.\n.@..\n....\n";
    let grid = trinav_bake::import::grid::Grid::parse_map(text, "corner.map").unwrap();
    let region = grid.walkable_region().unwrap();
    for method in METHODS {
        let settings = BakeSettings::default().with_triangulation(method);
        let mesh = trinav_bake::bake_region(region.clone(), &settings).unwrap().mesh;
        let (corner, target) = (p(2., 2.), p(1., 1.));
        assert_close(path(&mesh, corner, target).unwrap().length, 2f64.sqrt());
        // Leaving through cell (2, 2) (towards its centre), the path goes round a blocked cell.
        let options = PathOptions::default().with_sides(Some(p(2.5, 2.5)), None);
        let found = mesh.find_path_with(corner, target, &options, &mut PathScratch::new()).unwrap();
        check_path(&mesh, corner, target, &found);
        assert_close(found.length, 4.0);
        // Arriving at the corner from cell (1, 1)'s side is the straight diagonal again.
        let options = PathOptions::default().with_sides(None, Some(p(1.5, 1.5)));
        let back = mesh.find_path_with(target, corner, &options, &mut PathScratch::new()).unwrap();
        assert_close(back.length, 2f64.sqrt());
        // A side away from any pinch changes nothing.
        let options = PathOptions::default().with_sides(Some(p(0.2, 0.9)), Some(p(3.5, 3.5)));
        let plain = mesh.find_path_with(p(0.5, 0.5), p(3.5, 3.5), &options, &mut PathScratch::new()).unwrap();
        assert_eq!(plain.points.len(), 3, "{:?}", plain.points);
    }
}

/// Fuzzing regressions (`fuzz/regressions/query`): tiny and huge query coordinates.
#[test]
fn fuzz_regressions_tiny_and_huge_coordinates() {
    let mesh = bake_level(&sample("town.json"), Triangulation::ConstrainedDelaunay);
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
    let tiny = trinav::geometry::MIN_COORDINATE;
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
    assert!(matches!(path(&mesh, p(5., 5.), huge), Err(PathError::NonFinite { .. })));
    let far = p(trinav::geometry::MAX_COORDINATE, 0.0);
    let (q, _) = mesh.nearest_point(far).unwrap();
    assert!(q.is_finite() && q.x <= 130.0);
}
