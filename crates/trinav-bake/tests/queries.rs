//! Queries on freshly baked random levels: paths exist exactly when the islands agree and are
//! valid, raycast and nearest point agree with brute force. (The runtime's own tests, on
//! committed meshes, are in `crates/trinav/tests`; these are the baker's end of the road.)

use proptest::prelude::*;
use trinav::geometry::closest_point_on_triangle;
use trinav::{BakeSettings, NavMesh, Path, PathError, PathScratch, Point, RayHit, TriangleId, Triangulation};
use trinav_bake::{Level, PolygonInput, bake};

const METHODS: [Triangulation; 2] = [Triangulation::EarClipping, Triangulation::ConstrainedDelaunay];

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
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
        links: Vec::new(),
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
