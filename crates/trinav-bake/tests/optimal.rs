//! Optimal mode against an exact visibility-graph oracle built from the level itself, not from
//! the mesh: among disjoint convex obstacles, a shortest path bends only at obstacle vertices
//! (seed article 001), so Dijkstra over start, goal and every obstacle vertex, joined where the
//! segment between them enters no obstacle's interior, gives the exact optimum. Segment tests
//! use only exact orientation predicates.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use proptest::prelude::*;
use trinav::geometry::{Orientation, orient};
use trinav::{BakeSettings, NavMesh, Path, PathError, PathMode, PathOptions, PathScratch, Point};
use trinav_bake::{Level, PolygonInput, bake};

/// Optimal mode, no snapping.
fn optimal() -> PathOptions {
    PathOptions::default().with_mode(PathMode::Optimal)
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A convex obstacle, counter-clockwise.
type Convex = Vec<Point>;

/// Whether the closed segment `a b` and the interior of the convex polygon `poly` are
/// disjoint: some line weakly separates them, and for a segment and a convex polygon one of
/// the polygon's edge lines or the segment's own line does.
fn misses_interior(a: Point, b: Point, poly: &Convex) -> bool {
    let n = poly.len();
    let by_edge = (0..n).any(|i| {
        let (u, w) = (poly[i], poly[(i + 1) % n]);
        orient(u, w, a) != Orientation::CounterClockwise && orient(u, w, b) != Orientation::CounterClockwise
    });
    let by_segment = a != b
        && (poly.iter().all(|&v| orient(a, b, v) != Orientation::Clockwise)
            || poly.iter().all(|&v| orient(a, b, v) != Orientation::CounterClockwise));
    by_edge || by_segment
}

/// Whether two convex polygons are strictly apart: an edge line of one has the whole other
/// strictly on its outer side.
fn apart(s: &Convex, t: &Convex) -> bool {
    let separates = |s: &Convex, t: &Convex| {
        (0..s.len()).any(|i| {
            let (u, w) = (s[i], s[(i + 1) % s.len()]);
            t.iter().all(|&v| orient(u, w, v) == Orientation::Clockwise)
        })
    };
    separates(s, t) || separates(t, s)
}

/// The shortest distance from `nodes[0]` to `nodes[1]` over segments between nodes that
/// `clear` accepts (Dijkstra), or `None` if the goal cannot be reached.
fn shortest_through(nodes: &[Point], clear: impl Fn(Point, Point) -> bool) -> Option<f64> {
    let mut dist = vec![f64::INFINITY; nodes.len()];
    let mut done = vec![false; nodes.len()];
    // Non-negative distances order like their bits; `Reverse` pops the smallest first.
    let mut heap = BinaryHeap::from([Reverse((0f64.to_bits(), 0))]);
    dist[0] = 0.0;
    while let Some(Reverse((bits, u))) = heap.pop() {
        if std::mem::replace(&mut done[u], true) {
            continue;
        }
        let d = f64::from_bits(bits);
        if u == 1 {
            return Some(d);
        }
        for v in 0..nodes.len() {
            if !done[v] && clear(nodes[u], nodes[v]) {
                let nd = d + nodes[u].distance(nodes[v]);
                if nd < dist[v] {
                    dist[v] = nd;
                    heap.push(Reverse((nd.to_bits(), v)));
                }
            }
        }
    }
    None
}

/// The exact shortest distance from `from` to `to` among `obstacles` (inside a convex outer
/// boundary holding everything), or `None` if the goal cannot be reached.
fn oracle(obstacles: &[Convex], from: Point, to: Point) -> Option<f64> {
    let mut nodes = vec![from, to];
    nodes.extend(obstacles.iter().flatten().copied());
    shortest_through(&nodes, |a, b| obstacles.iter().all(|o| misses_interior(a, b, o)))
}

/// Everything a path must satisfy: it joins the query points and every segment stays out of
/// every obstacle's interior and inside the outer square.
fn check_valid(obstacles: &[Convex], size: f64, from: Point, to: Point, path: &Path) {
    assert_eq!(path.points.first(), Some(&from));
    assert_eq!(path.points.last(), Some(&to));
    for w in path.points.windows(2) {
        assert!(obstacles.iter().all(|o| misses_interior(w[0], w[1], o)), "{w:?} crosses an obstacle");
    }
    assert!(path.points.iter().all(|q| (0.0..=size).contains(&q.x) && (0.0..=size).contains(&q.y)));
    let sum: f64 = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
    assert!((path.length - sum).abs() <= 1e-9 * sum.max(1.0));
}

/// The optimal path from `from` to `to`, checked: valid, and as long as the oracle's shortest
/// path (within 1e-9 relative).
fn check_against_oracle(
    mesh: &NavMesh,
    obstacles: &[Convex],
    size: f64,
    from: Point,
    to: Point,
    scratch: &mut PathScratch,
) -> Result<Path, TestCaseError> {
    let expected = oracle(obstacles, from, to).expect("obstacles apart leave the square connected");
    let found = mesh.find_path_with(from, to, &optimal(), scratch).unwrap();
    check_valid(obstacles, size, from, to, &found);
    prop_assert!(
        (found.length - expected).abs() <= 1e-9 * expected.max(1.0),
        "{from:?} -> {to:?}: optimal {} ({:?}), oracle {expected}",
        found.length,
        found.points
    );
    Ok(found)
}

fn level_of(obstacles: &[Convex], size: f64) -> Level {
    Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, size, size)],
        obstacles: obstacles
            .iter()
            .map(|o| PolygonInput::new(o.iter().map(|&q| [q.x, q.y]).collect()))
            .collect(),
        agent_radius: None,
        links: Vec::new(),
    }
}

/// Random obstacles on an integer grid: axis-aligned rectangles and triangles, kept when
/// strictly apart from the ones before (so that the oracle's model, disjoint convex obstacles
/// in a square, is exactly the baked walkable area). Integer corners make many vertices
/// collinear: the degenerate cases of the interval search.
fn obstacles_strategy(size: i32) -> impl Strategy<Value = Vec<Convex>> {
    let shape = (1..size - 2, 1..size - 2, 1..6i32, 1..6i32, any::<bool>(), 0..3usize);
    prop::collection::vec(shape, 1..14).prop_map(move |shapes| {
        let mut kept: Vec<Convex> = Vec::new();
        for (x, y, w, h, rect, corner) in shapes {
            let (x1, y1) = ((x + w).min(size - 1), (y + h).min(size - 1));
            let (x, y, x1, y1) = (f64::from(x), f64::from(y), f64::from(x1), f64::from(y1));
            if x1 <= x || y1 <= y {
                continue;
            }
            let poly = if rect {
                vec![p(x, y), p(x1, y), p(x1, y1), p(x, y1)]
            } else {
                // A right triangle with its right angle at one of three corners (ccw).
                match corner {
                    0 => vec![p(x, y), p(x1, y), p(x, y1)],
                    1 => vec![p(x, y), p(x1, y), p(x1, y1)],
                    _ => vec![p(x1, y), p(x1, y1), p(x, y1)],
                }
            };
            if kept.iter().all(|k| apart(k, &poly)) {
                kept.push(poly);
            }
        }
        kept
    })
}

/// Random triangles in general position: vertices on a 1/1024 grid (which the boolean
/// operations' fixed-point grid keeps exact), kept when strictly apart from the ones before.
fn triangles_strategy(size: f64) -> impl Strategy<Value = Vec<Convex>> {
    // An anchor anywhere, the other two corners within 4 units of it.
    let anchor = (1024..(size as u32 - 5) * 1024, 1024..(size as u32 - 5) * 1024);
    let offsets = [0..4096u32, 0..4096u32, 0..4096u32, 0..4096u32];
    prop::collection::vec((anchor, offsets), 1..16).prop_map(|triangles| {
        let mut kept: Vec<Convex> = Vec::new();
        for ((x, y), [dx0, dy0, dx1, dy1]) in triangles {
            let at = |x: u32, y: u32| p(f64::from(x) / 1024.0, f64::from(y) / 1024.0);
            let (a, b, c) = (at(x, y), at(x + dx0, y + dy1), at(x + dx1, y + dy0));
            let poly = match orient(a, b, c) {
                Orientation::CounterClockwise => vec![a, b, c],
                Orientation::Clockwise => vec![a, c, b],
                Orientation::Collinear => continue,
            };
            // Skip slivers: the bake would keep them, but they say nothing new.
            if trinav::geometry::doubled_signed_area(poly[0], poly[1], poly[2]) < 0.5 {
                continue;
            }
            if kept.iter().all(|k| apart(k, &poly)) {
                kept.push(poly);
            }
        }
        kept
    })
}

/// Whether `q` is walkable: in the square and in no obstacle's interior.
fn walkable(obstacles: &[Convex], size: f64, q: Point) -> bool {
    (0.0..=size).contains(&q.x)
        && (0.0..=size).contains(&q.y)
        && obstacles.iter().all(|o| {
            (0..o.len()).any(|i| orient(o[i], o[(i + 1) % o.len()], q) != Orientation::CounterClockwise)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// On random levels, the optimal mode's length equals the oracle's, its path is valid, and
    /// it is never longer than the fast mode's.
    #[test]
    fn optimal_paths_match_the_visibility_graph(
        obstacles in obstacles_strategy(16),
        points in prop::collection::vec((0..=64u32, 0..=64u32, 0..=64u32, 0..=64u32), 12),
    ) {
        let size = 16.0;
        let mesh = bake(&level_of(&obstacles, size), &BakeSettings::default()).expect("level bakes").mesh;
        let mut scratch = PathScratch::new();
        for (x0, y0, x1, y1) in points {
            // Quarter-unit points: on obstacle edges and vertices too.
            let (from, to) = (p(f64::from(x0) / 4.0, f64::from(y0) / 4.0), p(f64::from(x1) / 4.0, f64::from(y1) / 4.0));
            if !walkable(&obstacles, size, from) || !walkable(&obstacles, size, to) {
                continue;
            }
            let found = check_against_oracle(&mesh, &obstacles, size, from, to, &mut scratch)?;
            let fast = mesh.find_path(from, to, &mut scratch).unwrap();
            prop_assert!(fast.length >= found.length * (1.0 - 1e-12));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The same with triangles in general position and query points anywhere: lines through
    /// vertices cross edges at arbitrary, sometimes grazing, angles.
    #[test]
    fn optimal_paths_match_the_visibility_graph_in_general_position(
        obstacles in triangles_strategy(16.0),
        points in prop::collection::vec((0..=16384u32, 0..=16384u32, 0..=16384u32, 0..=16384u32), 12),
    ) {
        let size = 16.0;
        let mesh = bake(&level_of(&obstacles, size), &BakeSettings::default()).expect("level bakes").mesh;
        let mut scratch = PathScratch::new();
        for (x0, y0, x1, y1) in points {
            let coordinate = |v: u32| f64::from(v) / 1024.0;
            let (from, to) = (p(coordinate(x0), coordinate(y0)), p(coordinate(x1), coordinate(y1)));
            if !walkable(&obstacles, size, from) || !walkable(&obstacles, size, to) {
                continue;
            }
            check_against_oracle(&mesh, &obstacles, size, from, to, &mut scratch)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Far from the origin (2^20 away, where the coordinates still hold exactly), every optimal
    /// length is the same as at the origin: the search's decisions do not depend on the
    /// magnitude of the coordinates.
    #[test]
    fn optimal_lengths_do_not_change_far_from_the_origin(
        obstacles in triangles_strategy(16.0),
        points in prop::collection::vec((0..=16384u32, 0..=16384u32, 0..=16384u32, 0..=16384u32), 8),
    ) {
        let size = 16.0;
        let (dx, dy) = (1_048_576.0, -1_048_576.0);
        let shifted: Vec<Convex> =
            obstacles.iter().map(|o| o.iter().map(|q| p(q.x + dx, q.y + dy)).collect()).collect();
        let mut far_level = level_of(&shifted, size);
        far_level.walkable = vec![PolygonInput::rect(dx, dy, dx + size, dy + size)];
        let near = bake(&level_of(&obstacles, size), &BakeSettings::default()).expect("level bakes").mesh;
        let far = bake(&far_level, &BakeSettings::default()).expect("level bakes").mesh;
        let mut scratch = PathScratch::new();
        for (x0, y0, x1, y1) in points {
            let coordinate = |v: u32| f64::from(v) / 1024.0;
            let (from, to) = (p(coordinate(x0), coordinate(y0)), p(coordinate(x1), coordinate(y1)));
            if !walkable(&obstacles, size, from) || !walkable(&obstacles, size, to) {
                continue;
            }
            let here = near.find_path_with(from, to, &optimal(), &mut scratch).unwrap();
            let shift = |q: Point| p(q.x + dx, q.y + dy);
            let there = far.find_path_with(shift(from), shift(to), &optimal(), &mut scratch).unwrap();
            prop_assert!((here.length - there.length).abs() <= 1e-12 * here.length.max(1.0),
                "{from:?} -> {to:?}: {} near the origin, {} far from it", here.length, there.length);
        }
    }
}

/// A mesh of `obstacles` in a 20 × 10 room.
fn room(obstacles: Vec<PolygonInput>) -> NavMesh {
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 20., 10.)],
        obstacles,
        agent_radius: None,
        links: Vec::new(),
    };
    bake(&level, &BakeSettings::default()).unwrap().mesh
}

#[test]
fn snakes_around_a_comb_of_walls() {
    // A comb of walls from alternate sides of a room: the path snakes around every tip.
    let walls = (1..10).map(|i| {
        let x = 2.0 * f64::from(i);
        if i % 2 == 0 {
            PolygonInput::rect(x, 0.0, x + 0.5, 7.0)
        } else {
            PolygonInput::rect(x, 3.0, x + 0.5, 10.0)
        }
    });
    let mesh = room(walls.collect());
    let obstacles: Vec<Convex> = (1..10)
        .map(|i| {
            let x = 2.0 * f64::from(i);
            let (y0, y1) = if i % 2 == 0 { (0.0, 7.0) } else { (3.0, 10.0) };
            vec![p(x, y0), p(x + 0.5, y0), p(x + 0.5, y1), p(x, y1)]
        })
        .collect();
    let mut scratch = PathScratch::new();
    let (from, to) = (p(0.5, 9.5), p(19.5, 0.5));
    let found = mesh.find_path_with(from, to, &optimal(), &mut scratch).unwrap();
    check_valid(&obstacles, 20.0, from, to, &found);
    // Under wall 1's tip, over wall 2's, ... (both corners of each tip), then from the last
    // tip's near corner straight to the goal.
    let mut expected = vec![from];
    for i in 1..10 {
        let x = 2.0 * f64::from(i);
        let y = if i % 2 == 0 { 7.0 } else { 3.0 };
        expected.extend([p(x, y), p(x + 0.5, y)]);
    }
    expected.pop();
    expected.push(to);
    assert_eq!(found.points, expected);
    let length: f64 = expected.windows(2).map(|w| w[0].distance(w[1])).sum();
    assert!((found.length - length).abs() <= 1e-12 * length);
    let fast = mesh.find_path(from, to, &mut scratch).unwrap();
    assert!(fast.length >= length * (1.0 - 1e-12));
}

#[test]
fn optimal_mode_errors_like_the_fast_mode() {
    // Two rooms not connected: unreachable; points off the mesh or not finite: the same errors.
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 4., 4.), PolygonInput::rect(6., 0., 10., 4.)],
        obstacles: vec![],
        agent_radius: None,
        links: Vec::new(),
    };
    let mesh = bake(&level, &BakeSettings::default()).unwrap().mesh;
    let mut scratch = PathScratch::new();
    for options in [PathOptions::default(), optimal()] {
        let mut run = |a, b| mesh.find_path_with(a, b, &options, &mut scratch);
        assert_eq!(run(p(1., 1.), p(8., 1.)), Err(PathError::Unreachable));
        assert!(matches!(run(p(5., 1.), p(1., 1.)), Err(PathError::OffMesh { .. })));
        assert!(matches!(run(p(1., 1.), p(f64::NAN, 1.)), Err(PathError::NonFinite { .. })));
        let snapped =
            mesh.find_path_with(p(5., 1.), p(1., 1.), &options.with_snap(true), &mut scratch).unwrap();
        assert_eq!(snapped.points, vec![p(4., 1.), p(1., 1.)]);
        let same = mesh.find_path_with(p(1., 1.), p(1., 1.), &options, &mut scratch).unwrap();
        assert_eq!((same.points.len(), same.length), (1, 0.0));
    }
}

#[test]
fn paths_never_pass_where_obstacles_touch_corner_to_corner() {
    // Two squares touching at (10, 5) split the room's middle band, except for the corridor
    // above and below: a path from the left pocket to the right one cannot squeeze through the
    // touching corners, both modes go around.
    let mesh = room(vec![PolygonInput::rect(8., 1., 10., 5.), PolygonInput::rect(10., 5., 12., 9.)]);
    let mut scratch = PathScratch::new();
    let (from, to) = (p(9., 7.), p(11., 3.));
    let optimal = mesh.find_path_with(from, to, &optimal(), &mut scratch).unwrap();
    assert!(!optimal.points.contains(&p(10., 5.)), "{:?}", optimal.points);
    // Around the left square (via (8, 5), (8, 1), (10, 1)) or the right one (via (10, 9),
    // (12, 9), (12, 5)): 2·√5 + 6 either way.
    let expected = 2.0 * 5f64.sqrt() + 6.0;
    assert!((optimal.length - expected).abs() <= 1e-12 * expected, "{optimal:?}");
    let left = vec![from, p(8., 5.), p(8., 1.), p(10., 1.), to];
    let right = vec![from, p(10., 9.), p(12., 9.), p(12., 5.), to];
    assert!(optimal.points == left || optimal.points == right, "{:?}", optimal.points);
    let fast = mesh.find_path(from, to, &mut scratch).unwrap();
    assert!(optimal.length <= fast.length * (1.0 + 1e-12));
}

/// The GPPC any-angle rules on a grid (`gppc/Problem_Definition.md` of the bench data), as an
/// oracle independent of the mesh: cell `(x, y)` is the unit square at `(x, y)`, outside the map
/// is blocked, and a segment may not enter a blocked square, run along an edge between two
/// blocked squares, or pass through a double corner (two diagonal blocked squares, the other
/// two free).
struct GridOracle {
    width: i64,
    height: i64,
    blocked: Vec<bool>,
}

impl GridOracle {
    fn is_blocked(&self, x: i64, y: i64) -> bool {
        x < 0 || y < 0 || x >= self.width || y >= self.height || self.blocked[(y * self.width + x) as usize]
    }

    /// Whether the four cells around corner point (`x`, `y`) are blocked: top-left, top-right,
    /// bottom-left, bottom-right.
    fn around(&self, x: i64, y: i64) -> [bool; 4] {
        [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)].map(|(cx, cy)| self.is_blocked(cx, cy))
    }

    /// Whether corner point (`x`, `y`) is a double corner: two diagonal cells blocked, the other
    /// two free.
    fn is_double_corner(&self, x: i64, y: i64) -> bool {
        let around = self.around(x, y);
        around == [true, false, false, true] || around == [false, true, true, false]
    }

    fn square(x: i64, y: i64) -> Convex {
        let (x, y) = (x as f64, y as f64);
        vec![p(x, y), p(x + 1.0, y), p(x + 1.0, y + 1.0), p(x, y + 1.0)]
    }

    /// Whether the segment `a b` is valid.
    fn clear(&self, a: Point, b: Point) -> bool {
        let on_segment = |q: Point| {
            orient(a, b, q) == Orientation::Collinear
                && (q.x - a.x) * (q.x - b.x) <= 0.0
                && (q.y - a.y) * (q.y - b.y) <= 0.0
        };
        for y in -1..=self.height {
            for x in -1..=self.width {
                if !self.is_blocked(x, y) {
                    continue;
                }
                if !misses_interior(a, b, &Self::square(x, y)) {
                    return false;
                }
                // Edges shared with the blocked squares to the right and below: the segment
                // may touch them, not run along them.
                let runs_along = |u: Point, w: Point| {
                    let (s0, s1, e0, e1) =
                        if u.x == w.x { (a.y, b.y, u.y, w.y) } else { (a.x, b.x, u.x, w.x) };
                    a != b
                        && orient(a, b, u) == Orientation::Collinear
                        && orient(a, b, w) == Orientation::Collinear
                        && s0.max(s1).min(e0.max(e1)) > s0.min(s1).max(e0.min(e1))
                };
                let (fx, fy) = (x as f64, y as f64);
                if self.is_blocked(x + 1, y) && runs_along(p(fx + 1.0, fy), p(fx + 1.0, fy + 1.0)) {
                    return false;
                }
                if self.is_blocked(x, y + 1) && runs_along(p(fx, fy + 1.0), p(fx + 1.0, fy + 1.0)) {
                    return false;
                }
                // A double corner at the square's bottom-right or bottom-left corner.
                for (cx, cy) in [(x + 1, y + 1), (x, y + 1)] {
                    let corner = p(cx as f64, cy as f64);
                    if self.is_double_corner(cx, cy) && corner != a && corner != b && on_segment(corner) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Dijkstra over start, goal and every corner of a blocked square that is not a double
    /// corner.
    fn shortest(&self, from: Point, to: Point) -> Option<f64> {
        let mut nodes = vec![from, to];
        for y in 0..=self.height {
            for x in 0..=self.width {
                let around = self.around(x, y);
                if around.iter().any(|&b| b) && !around.iter().all(|&b| b) && !self.is_double_corner(x, y) {
                    nodes.push(p(x as f64, y as f64));
                }
            }
        }
        shortest_through(&nodes, |a, b| self.clear(a, b))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// On random grid maps (touching squares, double corners, long collinear walls), optimal
    /// lengths equal the GPPC oracle's between free cell corners (double corners excluded).
    #[test]
    fn optimal_paths_on_grids_match_the_gppc_rules(
        cells in prop::collection::vec(prop::bool::weighted(0.3), 100),
        ends in prop::collection::vec((0..=10i64, 0..=10i64, 0..=10i64, 0..=10i64), 10),
    ) {
        let oracle = GridOracle { width: 10, height: 10, blocked: cells };
        let text: String = (0..10)
            .map(|y| (0..10).map(|x| if oracle.is_blocked(x, y) { '@' } else { '.' }).collect::<String>() + "\n")
            .collect();
        let grid = trinav_bake::import::grid::Grid::parse_map(
            &format!("type octile\nheight 10\nwidth 10\nmap\n{text}"), "random.map").unwrap();
        let Ok(region) = grid.walkable_region() else { return Ok(()) };
        let Ok(baked) = trinav_bake::bake_region(region, &BakeSettings::default()) else { return Ok(()) };
        let mesh = baked.mesh;
        let mut scratch = PathScratch::new();
        for (x0, y0, x1, y1) in ends {
            // GPPC query points: the top-left corner of a free cell, not a double corner.
            let usable = |x: i64, y: i64| !oracle.is_blocked(x, y) && !oracle.is_double_corner(x, y);
            if !usable(x0, y0) || !usable(x1, y1) {
                continue;
            }
            let (from, to) = (p(x0 as f64, y0 as f64), p(x1 as f64, y1 as f64));
            let expected = oracle.shortest(from, to);
            let found = mesh.find_path_with(from, to, &optimal(), &mut scratch);
            match (expected, found) {
                (None, Err(PathError::Unreachable)) => {}
                (Some(expected), Ok(found)) => {
                    prop_assert!(found.points.windows(2).all(|w| oracle.clear(w[0], w[1])), "{:?}", found.points);
                    prop_assert!((found.length - expected).abs() <= 1e-9 * expected.max(1.0),
                        "{from:?} -> {to:?}: optimal {} ({:?}), oracle {expected}\n{text}", found.length, found.points);
                }
                (expected, found) => prop_assert!(false, "{from:?} -> {to:?}: oracle {expected:?}, found {found:?}\n{text}"),
            }
        }
    }
}

#[test]
fn fuzz_regression_start_nearly_on_an_edge_line() {
    // Fuzzing found (courtyard): a start almost on the line of an edge of its triangle made
    // the heuristic overestimate the way around the far corner, and the optimal mode came
    // back longer than the fast mode. A square inflated by 0.5 (round corners) shows it.
    let level = Level {
        walkable: vec![PolygonInput::rect(0., 0., 60., 60.)],
        obstacles: vec![PolygonInput::rect(15., 15., 45., 45.)],
        agent_radius: Some(0.5),
        links: Vec::new(),
    };
    let settings = trinav_bake::settings_for(&level, BakeSettings::default(), None);
    let mesh = bake(&level, &settings).unwrap().mesh;
    let (from, to) = (p(47.838561784116955, 47.54237756608707), p(0., 0.));
    let mut scratch = PathScratch::new();
    let fast = mesh.find_path(from, to, &mut scratch).unwrap();
    let optimal = mesh.find_path_with(from, to, &optimal(), &mut scratch).unwrap();
    // Around the bottom-right corner: down to (45.5, 15), round the arc, then straight on.
    assert_eq!(optimal.points[1], p(45.5, 15.0), "{:?}", optimal.points);
    assert!(optimal.length <= fast.length * (1.0 + 1e-12), "{} vs {}", optimal.length, fast.length);
}
