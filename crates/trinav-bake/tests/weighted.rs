//! Area costs and exclusions in both path modes, against oracles that do not use the searches:
//!
//! - exclusions: levels whose excluded ground is disjoint convex shapes (tagged with an
//!   excluded type, under other, overlapping area entries that only change costs), so the
//!   shortest path with the exclusions bends only at those shapes' corners: a visibility graph
//!   over them (segments tested against each shape with exact predicates, as in
//!   `tests/optimal.rs`) gives the exact optimum;
//! - weights: a dense Steiner-point graph over the baked triangles ([`ORACLE_POINTS`] points
//!   inside every edge besides its ends; within each triangle every pair of its boundary points
//!   joined at the distance times the triangle's cost, the cheaper of two types along a shared
//!   edge; excluded triangles left out; Dijkstra). Its cost is that of a real path, so at least
//!   the optimum: the optimal mode must come within 1% of it, the fast mode within 5% on mean.
//!
//! Each returned path's cost is recomputed here, piece by piece, from the triangles holding
//! each piece's midpoint.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use trinav::geometry::{Orientation, orient};
use trinav::{
    AreaCosts, AreaId, BakeSettings, NavMesh, PartialReason, Path, PathError, PathMode, PathOptions,
    PathScratch, Point, TriangleId,
};
use trinav_bake::generate::SplitMix64;
use trinav_bake::{AreaInput, Level, LinkInput, PolygonInput, bake};

/// The excluded type of these levels.
const WALL_TYPE: u8 = 9;
/// Steiner points inside each edge of the oracle's graph.
const ORACLE_POINTS: usize = 12;

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// Whether the closed segment `a b` misses the interior of the convex counter-clockwise
/// polygon `poly` (a separating line: one of its edges' or the segment's own).
fn misses_interior(a: Point, b: Point, poly: &[Point]) -> bool {
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

/// Dijkstra over `n` nodes from 0 to 1 with edges from `edges(u)`.
fn dijkstra(n: usize, edges: impl Fn(usize, &mut Vec<(usize, f64)>)) -> Option<f64> {
    let mut dist = vec![f64::INFINITY; n];
    let mut heap = BinaryHeap::from([Reverse((0f64.to_bits(), 0usize))]);
    dist[0] = 0.0;
    let mut out = Vec::new();
    while let Some(Reverse((bits, u))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[u] {
            continue;
        }
        if u == 1 {
            return Some(d);
        }
        out.clear();
        edges(u, &mut out);
        for &(v, w) in &out {
            if d + w < dist[v] {
                dist[v] = d + w;
                heap.push(Reverse(((d + w).to_bits(), v)));
            }
        }
    }
    None
}

/// A room of `size` with disjoint convex shapes of the excluded type (each at least 1 from the
/// walls and from each other) and rectangles of types 1 to 3 overlapping anything, listed
/// first so that the shapes win.
struct TestLevel {
    level: Level,
    walls: Vec<Vec<Point>>,
}

fn random_level(rng: &mut SplitMix64, size: u64) -> TestLevel {
    random_level_with(rng, size, 5, None)
}

/// [`random_level`] with up to `max_walls` shapes and `patches` typed rectangles (by default 2
/// to 6).
fn random_level_with(rng: &mut SplitMix64, size: u64, max_walls: usize, patches: Option<u64>) -> TestLevel {
    let mut walls: Vec<Vec<Point>> = Vec::new();
    let mut boxes: Vec<(f64, f64, f64, f64)> = Vec::new();
    for _ in 0..6 * max_walls {
        if walls.len() == max_walls {
            break;
        }
        let (w, h) = (1 + rng.below(4), 1 + rng.below(4));
        let (x, y) = (1 + rng.below(size - w - 1), 1 + rng.below(size - h - 1));
        let (x0, y0, x1, y1) = (x as f64, y as f64, (x + w) as f64, (y + h) as f64);
        if boxes
            .iter()
            .any(|&(a0, b0, a1, b1)| x0 < a1 + 1.0 && a0 < x1 + 1.0 && y0 < b1 + 1.0 && b0 < y1 + 1.0)
        {
            continue;
        }
        boxes.push((x0, y0, x1, y1));
        let shape = match rng.below(3) {
            0 => vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)],
            1 => vec![p(x0, y0), p(x1, y0), p(x0, y1)],
            _ => vec![p(x0, y1), p(x1, y0), p(x1, y1)],
        };
        walls.push(shape);
    }
    let mut areas: Vec<AreaInput> = (0..patches.unwrap_or_else(|| 2 + rng.below(5)))
        .map(|_| {
            let (x, y) = (rng.below(size) as f64, rng.below(size) as f64);
            let (w, h) = (1 + rng.below(size / 2), 1 + rng.below(size / 2));
            AreaInput::new(PolygonInput::rect(x, y, x + w as f64, y + h as f64), 1 + rng.below(3) as u8)
        })
        .collect();
    for shape in &walls {
        areas.push(AreaInput::new(PolygonInput::new(shape.iter().map(|q| [q.x, q.y]).collect()), WALL_TYPE));
    }
    let side = size as f64;
    let level = Level { walkable: vec![PolygonInput::rect(0.0, 0.0, side, side)], areas, ..Level::default() };
    TestLevel { level, walls }
}

/// A random query point outside every excluded shape (and off its boundary).
fn free_point(rng: &mut SplitMix64, size: u64, walls: &[Vec<Point>]) -> Point {
    loop {
        let q = p(rng.unit() * size as f64, rng.unit() * size as f64);
        if walls.iter().all(|w| misses_interior(q, q, w) && w.iter().all(|&c| c != q)) {
            let on_boundary = walls.iter().any(|w| {
                (0..w.len()).any(|i| orient(w[i], w[(i + 1) % w.len()], q) == Orientation::Collinear)
            });
            if !on_boundary {
                return q;
            }
        }
    }
}

/// The exact shortest length from `a` to `b` around the excluded shapes.
fn visibility_oracle(a: Point, b: Point, walls: &[Vec<Point>], size: f64) -> Option<f64> {
    let mut nodes = vec![a, b];
    // Corners inside the room only (a corner on a wall would be a pinch; shapes keep away).
    nodes.extend(
        walls.iter().flatten().copied().filter(|q| q.x > 0.0 && q.y > 0.0 && q.x < size && q.y < size),
    );
    let clear = |u: Point, v: Point| walls.iter().all(|w| misses_interior(u, v, w));
    dijkstra(nodes.len(), |i, out| {
        for j in 0..nodes.len() {
            if j != i && clear(nodes[i], nodes[j]) {
                out.push((j, nodes[i].distance(nodes[j])));
            }
        }
    })
}

/// The distance from `q` to the closed triangle `t` (counter-clockwise).
fn distance_to_triangle(q: Point, t: [Point; 3]) -> f64 {
    if (0..3).all(|k| orient(t[k], t[(k + 1) % 3], q) != Orientation::Clockwise) {
        return 0.0;
    }
    (0..3)
        .map(|k| {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let s = (((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
            q.distance(p(a.x + dx * s, a.y + dy * s))
        })
        .fold(f64::INFINITY, f64::min)
}

/// The cost of each piece of `path`, recomputed from the triangles holding its midpoint (a
/// piece along an edge between two types costs the cheaper), a link taken at its cost; `None`
/// if a walked piece's midpoint is in no allowed triangle.
fn recomputed_cost(mesh: &NavMesh, costs: &AreaCosts, path: &Path) -> Option<f64> {
    let mut total = 0.0;
    for (k, w) in path.points.windows(2).enumerate() {
        if let Some(step) = path.links.iter().find(|step| step.point == k) {
            total += mesh.link(step.link).expect("a live link").cost;
            continue;
        }
        let mid = w[0].midpoint(w[1]);
        let allowed = |t: &TriangleId| !costs.is_excluded(mesh.area_id(*t));
        let mut factor = mesh
            .locate_all(mid)
            .filter(allowed)
            .map(|t| costs.cost(mesh.area_id(t)))
            .fold(f64::INFINITY, f64::min);
        if !factor.is_finite() {
            // A point slid along a wall's side is rounded (to ~1e-16) off it, possibly to the
            // wall's side: the allowed triangles within 1e-9 of the midpoint.
            factor = (0..mesh.triangle_count())
                .map(TriangleId::from_index)
                .filter(|t| allowed(t) && distance_to_triangle(mid, mesh.triangle_points(*t)) <= 1e-9)
                .map(|t| costs.cost(mesh.area_id(t)))
                .fold(f64::INFINITY, f64::min);
        }
        if !factor.is_finite() {
            return None;
        }
        total += w[0].distance(w[1]) * factor;
    }
    Some(total)
}

/// A directed link for the oracle: its start, its end, its cost.
type DirectedLink = (Point, Point, f64);

/// The dense Steiner-point oracle's cheapest cost from `a` to `b`, with `inside` points inside
/// each edge (by default [`ORACLE_POINTS`]), and the directed `links`: each end a node joined
/// to every node of the allowed triangles holding it, the start to the end at the link's cost.
fn steiner_oracle(
    mesh: &NavMesh,
    costs: &AreaCosts,
    (a, b): (Point, Point),
    inside: usize,
    links: &[DirectedLink],
) -> Option<f64> {
    // Nodes: a, b, then per triangle its corners and `inside` points inside each edge
    // (shared points are repeated per triangle and joined at zero cost along the edge, where
    // both triangles see them: positions are computed from the edge's lower-id end, so they
    // match bit for bit).
    let allowed = |t: TriangleId| !costs.is_excluded(mesh.area_id(t));
    let per = 3 + 3 * inside;
    let ends = 2 + per * mesh.triangle_count();
    let n = ends + 2 * links.len();
    let mut points: Vec<Point> = vec![a, b];
    for t in 0..mesh.triangle_count() {
        let tri = mesh.triangles()[t];
        for k in 0..3 {
            let (u, w) = (tri[k], tri[(k + 1) % 3]);
            points.push(mesh.vertices()[u.index()]);
            let (lo, hi) = if u.0 < w.0 { (u, w) } else { (w, u) };
            let (pl, ph) = (mesh.vertices()[lo.index()], mesh.vertices()[hi.index()]);
            let mut inner: Vec<Point> = (1..=inside)
                .map(|j| {
                    let s = j as f64 / (inside + 1) as f64;
                    p(pl.x + (ph.x - pl.x) * s, pl.y + (ph.y - pl.y) * s)
                })
                .collect();
            if lo != u {
                inner.reverse();
            }
            points.extend(inner);
        }
    }
    // Link ends (node ends + 2 l: the start of link l, + 1 its end) and, per triangle, the
    // link ends it holds.
    let mut ends_in: Vec<Vec<usize>> = vec![Vec::new(); mesh.triangle_count()];
    let mut end_triangles: Vec<Vec<TriangleId>> = Vec::new();
    for (l, &(from, to, _)) in links.iter().enumerate() {
        for (e, q) in [from, to].into_iter().enumerate() {
            points.push(q);
            let held: Vec<TriangleId> = mesh.locate_all(q).filter(|&t| allowed(t)).collect();
            for t in &held {
                ends_in[t.index()].push(ends + 2 * l + e);
            }
            end_triangles.push(held);
        }
    }
    // Same position, different triangle: joined at zero cost.
    let mut same: std::collections::HashMap<(u64, u64), Vec<usize>> = std::collections::HashMap::new();
    for (i, q) in points.iter().enumerate().take(ends).skip(2) {
        same.entry((q.x.to_bits(), q.y.to_bits())).or_default().push(i);
    }
    let triangle_of = |i: usize| TriangleId::from_index((i - 2) / per);
    let starts: Vec<TriangleId> = mesh.locate_all(a).filter(|&t| allowed(t)).collect();
    let goals: Vec<TriangleId> = mesh.locate_all(b).filter(|&t| allowed(t)).collect();
    let factor = |t: TriangleId, i: usize, j: usize| {
        // Both on edge k of t: the cheaper of t and its neighbour across k.
        let (ei, ej) = (((i - 2) % per) / (1 + inside), ((j - 2) % per) / (1 + inside));
        let on_edge = |local: usize, e: usize, k: usize| {
            e == k || (local.is_multiple_of(1 + inside) && (e + 2) % 3 == k)
        };
        let (li, lj) = ((i - 2) % per, (j - 2) % per);
        let own = costs.cost(mesh.area_id(t));
        for k in 0..3 {
            if on_edge(li, ei, k) && on_edge(lj, ej, k) {
                let nb = mesh.neighbours(t)[k];
                if !nb.is_none() && allowed(nb) {
                    return own.min(costs.cost(mesh.area_id(nb)));
                }
            }
        }
        own
    };
    dijkstra(n, |i, out| {
        let link_triangle = |t: TriangleId, from: usize, from_point: Point, out: &mut Vec<(usize, f64)>| {
            let base = 2 + per * t.index();
            let c = costs.cost(mesh.area_id(t));
            for (j, &q) in points.iter().enumerate().skip(base).take(per) {
                let f = if (2..ends).contains(&from) { factor(t, from, j) } else { c };
                out.push((j, from_point.distance(q) * f));
            }
            for &j in &ends_in[t.index()] {
                out.push((j, from_point.distance(points[j]) * c));
            }
            if goals.contains(&t) {
                out.push((1, from_point.distance(b) * c));
            }
        };
        if i == 0 {
            for &t in &starts {
                link_triangle(t, 0, a, out);
            }
            return;
        }
        if i == 1 {
            return;
        }
        if i >= ends {
            let l = (i - ends) / 2;
            if (i - ends).is_multiple_of(2) {
                out.push((i + 1, links[l].2));
            }
            for &t in &end_triangles[i - ends] {
                link_triangle(t, i, points[i], out);
            }
            return;
        }
        for &k in &same[&(points[i].x.to_bits(), points[i].y.to_bits())] {
            if k != i && allowed(triangle_of(k)) {
                out.push((k, 0.0));
            }
        }
        let t = triangle_of(i);
        if allowed(t) {
            link_triangle(t, i, points[i], out);
        }
    })
}

fn modes() -> [PathOptions; 2] {
    [PathOptions::default(), PathOptions::default().with_mode(PathMode::Optimal)]
}

#[test]
fn excluded_types_are_walls_and_optimal_mode_stays_exact() {
    let mut rng = SplitMix64::new(1313);
    let excluded = AreaCosts::default().with_excluded(AreaId(WALL_TYPE));
    let (mut fast_ratio, mut pairs) = (0.0, 0);
    for _ in 0..12 {
        let size = 16;
        let test = random_level(&mut rng, size);
        let mesh = bake(&test.level, &BakeSettings::default()).unwrap().mesh;
        let mut scratch = PathScratch::new();
        for _ in 0..15 {
            let (a, b) = (free_point(&mut rng, size, &test.walls), free_point(&mut rng, size, &test.walls));
            let expected = visibility_oracle(a, b, &test.walls, size as f64);
            for options in modes() {
                let options = options.with_area_costs(excluded);
                match (mesh.find_path_with(a, b, &options, &mut scratch), expected) {
                    (Ok(path), Some(best)) => {
                        for w in path.points.windows(2) {
                            assert!(
                                test.walls.iter().all(|s| misses_interior(w[0], w[1], s)),
                                "{w:?} enters a wall"
                            );
                        }
                        assert_eq!(path.cost, path.length);
                        // Crossings of the other area types with the shapes' sides are
                        // rounded to the boolean engine's grid: the sides bend by ~1e-8.
                        assert!(path.length >= best * (1.0 - 1e-7), "{} < {best}", path.length);
                        if options.mode == PathMode::Optimal {
                            assert!(
                                path.length <= best * (1.0 + 1e-7),
                                "{a:?} {b:?}: {} > {best}",
                                path.length
                            );
                        } else {
                            fast_ratio += path.length / best;
                            pairs += 1;
                        }
                    }
                    (Err(PathError::Unreachable), None) => {}
                    (got, want) => panic!("{a:?} -> {b:?}: {got:?}, oracle {want:?}"),
                }
            }
        }
    }
    let mean = fast_ratio / pairs as f64;
    assert!(mean <= 1.05, "fast mode's mean length ratio {mean}");
}

/// A link end for [`exclusions_with_links_stay_exact`]: one in six inside an excluded shape
/// (its centroid: the link is unusable), one in six on a shape's corner, one in six on the
/// middle of a shape's side (usable from the allowed ground beside it), else free ground.
fn link_end(rng: &mut SplitMix64, size: u64, walls: &[Vec<Point>]) -> Point {
    let shape = &walls[rng.below(walls.len() as u64) as usize];
    let n = shape.len();
    let i = rng.below(n as u64) as usize;
    match rng.below(6) {
        0 => p(
            shape.iter().map(|q| q.x).sum::<f64>() / n as f64,
            shape.iter().map(|q| q.y).sum::<f64>() / n as f64,
        ),
        1 => shape[i],
        2 => shape[i].midpoint(shape[(i + 1) % n]),
        _ => free_point(rng, size, walls),
    }
}

/// The exact cheapest cost from `a` to `b` around the excluded shapes, walking at 1 per unit
/// of length and taking the directed `links` at their costs (a link with an end inside a shape
/// is unusable): a visibility graph over the shapes' corners and the links' ends.
fn visibility_oracle_with_links(
    (a, b): (Point, Point),
    walls: &[Vec<Point>],
    size: f64,
    links: &[DirectedLink],
) -> Option<f64> {
    let inside = |q: Point| !walls.iter().all(|w| misses_interior(q, q, w));
    let usable: Vec<DirectedLink> =
        links.iter().copied().filter(|&(from, to, _)| !inside(from) && !inside(to)).collect();
    let mut nodes = vec![a, b];
    nodes.extend(
        walls.iter().flatten().copied().filter(|q| q.x > 0.0 && q.y > 0.0 && q.x < size && q.y < size),
    );
    let first_end = nodes.len();
    nodes.extend(usable.iter().flat_map(|&(from, to, _)| [from, to]));
    let clear = |u: Point, v: Point| walls.iter().all(|w| misses_interior(u, v, w));
    dijkstra(nodes.len(), |i, out| {
        for j in 0..nodes.len() {
            if j != i && clear(nodes[i], nodes[j]) {
                out.push((j, nodes[i].distance(nodes[j])));
            }
        }
        if i >= first_end && (i - first_end) % 2 == 0 {
            out.push((i + 1, usable[(i - first_end) / 2].2));
        }
    })
}

/// Exclusions alone with links are walls to the plain searches, link ends included: a link
/// whose end lies inside excluded ground is unusable, one whose end lies on its boundary is
/// taken from the allowed side. Optimal mode's cost equals the visibility graph's with the
/// links' edges (exact, as without links), fast mode's is never below it and within 5% on
/// mean; no walked piece enters excluded ground.
#[test]
fn exclusions_with_links_stay_exact() {
    let mut rng = SplitMix64::new(2929);
    let excluded = AreaCosts::default().with_excluded(AreaId(WALL_TYPE));
    let (mut fast_ratio, mut pairs, mut with_links) = (0.0, 0, 0);
    for _ in 0..levels(16) {
        let size = 16;
        let mut test = random_level(&mut rng, size);
        if test.walls.is_empty() {
            continue;
        }
        let mut directed = Vec::new();
        for _ in 0..5 {
            let (from, to) = (link_end(&mut rng, size, &test.walls), link_end(&mut rng, size, &test.walls));
            push_random_link(&mut rng, &mut test, (from, to), 3.0, &mut directed);
        }
        let mesh = bake(&test.level, &BakeSettings::default()).unwrap().mesh;
        let mut scratch = PathScratch::new();
        for _ in 0..12 {
            let (a, b) = (free_point(&mut rng, size, &test.walls), free_point(&mut rng, size, &test.walls));
            let expected = visibility_oracle_with_links((a, b), &test.walls, size as f64, &directed);
            for options in modes() {
                let options = options.with_area_costs(excluded);
                match (mesh.find_path_with(a, b, &options, &mut scratch), expected) {
                    (Ok(path), Some(best)) => {
                        assert_eq!((path.points[0], *path.points.last().unwrap()), (a, b));
                        for (k, w) in path.points.windows(2).enumerate() {
                            assert!(
                                path.is_link_step(k)
                                    || test.walls.iter().all(|s| misses_interior(w[0], w[1], s)),
                                "{a:?} -> {b:?} {:?}: {w:?} enters a wall: {path:?}",
                                options.mode
                            );
                        }
                        with_links += usize::from(!path.links.is_empty());
                        let slack = 1e-7 * best.max(1.0);
                        assert!(path.cost >= best - slack, "{a:?} -> {b:?}: {} < {best}", path.cost);
                        if options.mode == PathMode::Optimal {
                            assert!(
                                path.cost <= best + slack,
                                "{a:?} -> {b:?}: {} > {best}: {path:?}",
                                path.cost
                            );
                        } else if best > 0.0 {
                            fast_ratio += path.cost / best;
                            pairs += 1;
                        }
                    }
                    (Err(PathError::Unreachable), None) => {}
                    (got, want) => panic!("{a:?} -> {b:?} {:?}: {got:?}, oracle {want:?}", options.mode),
                }
            }
        }
    }
    assert!(pairs > 100 && with_links > 20, "{pairs} pairs, {with_links} paths through links");
    let mean = fast_ratio / pairs as f64;
    assert!(mean <= 1.05, "fast mode's mean cost ratio {mean}");
    eprintln!(
        "exclusions with links: fast mean {mean:.5} over {pairs} pairs, {with_links} paths through links"
    );
}

/// Partial paths with exclusions head for the nearest point the start reaches without
/// crossing excluded ground (which can cut an island in parts): random excluded shapes in a
/// west room [0, 8]², an excluded strip [8, 10] × [0, 8] between it and an east room; goals in
/// the east room (unreachable) or east of the mesh (off it). The end must be the nearest point
/// of the west room, (8, y) (the shapes keep 1 from the strip), and the optimal cost the
/// visibility graph's to it; fast mode never cheaper.
#[test]
fn partial_paths_with_exclusions_stop_at_the_nearest_point_reached() {
    let mut rng = SplitMix64::new(4949);
    let excluded = AreaCosts::default().with_excluded(AreaId(WALL_TYPE));
    let mut paths = 0;
    for _ in 0..20 {
        let mut test = random_level_with(&mut rng, 8, 4, Some(1));
        test.level.walkable = vec![PolygonInput::rect(0.0, 0.0, 20.0, 8.0)];
        test.level.areas.push(AreaInput::new(PolygonInput::rect(8.0, 0.0, 10.0, 8.0), WALL_TYPE));
        let mesh = bake(&test.level, &BakeSettings::default()).unwrap().mesh;
        let mut scratch = PathScratch::new();
        for k in 0..10 {
            let from = free_point(&mut rng, 8, &test.walls);
            let goal = match k % 2 {
                0 => p(10.5 + rng.unit() * 9.0, rng.unit() * 8.0),
                _ => p(21.0 + rng.unit() * 4.0, -2.0 + rng.unit() * 12.0),
            };
            let end = p(8.0, goal.y.clamp(0.0, 8.0));
            for options in modes() {
                let options = options.with_area_costs(excluded).with_partial(true);
                let path = mesh
                    .find_path_with(from, goal, &options, &mut scratch)
                    .unwrap_or_else(|e| panic!("{from:?} -> {goal:?} {:?}: {e}", options.mode));
                assert!(path.partial.is_some(), "{path:?}");
                // The nearest point is found on a triangle, to within rounding.
                let last = *path.points.last().unwrap();
                assert!(
                    path.points[0] == from && last.distance(end) <= 1e-12,
                    "{:?}: {path:?}",
                    options.mode
                );
                let best =
                    visibility_oracle(from, last, &test.walls, 8.0).expect("the west room is connected");
                for w in path.points.windows(2) {
                    assert!(test.walls.iter().all(|s| misses_interior(w[0], w[1], s)), "{w:?} enters a wall");
                    assert!(w[0].x <= 8.0 && w[1].x <= 8.0, "{w:?} enters the strip");
                }
                assert!(path.cost >= best * (1.0 - 1e-9), "{} < {best}", path.cost);
                if options.mode == PathMode::Optimal {
                    assert!(path.cost <= best * (1.0 + 1e-9), "{from:?} -> {end:?}: {} > {best}", path.cost);
                }
                paths += 1;
            }
        }
    }
    assert_eq!(paths, 400);
}

/// Costs every type shares: all 1 (given one by one) is the default's plain search, point
/// for point; all `c` is the plain path (with the same exclusions) at `c` times its length,
/// also when only the types on the mesh (0 to 3 and the excluded one) cost `c`.
#[test]
fn one_cost_everywhere_is_the_plain_path_at_that_cost() {
    let mut rng = SplitMix64::new(1717);
    let every = |c: f64| (0..=63).try_fold(AreaCosts::default(), |costs, a| costs.with_cost(AreaId(a), c));
    let on_mesh = |c: f64| {
        [0, 1, 2, 3, WALL_TYPE]
            .into_iter()
            .try_fold(AreaCosts::default(), |costs, a| costs.with_cost(AreaId(a), c))
    };
    let ones = every(1.0).unwrap();
    assert!(ones.is_uniform() && ones == AreaCosts::default());
    let wall = AreaCosts::default().with_excluded(AreaId(WALL_TYPE));
    for _ in 0..6 {
        let size = 16;
        let test = random_level(&mut rng, size);
        let mesh = bake(&test.level, &BakeSettings::default()).unwrap().mesh;
        let mut scratch = PathScratch::new();
        for _ in 0..10 {
            let (a, b) = (free_point(&mut rng, size, &test.walls), free_point(&mut rng, size, &test.walls));
            for options in modes() {
                let plain = mesh.find_path_with(a, b, &options, &mut scratch).unwrap();
                let got = mesh.find_path_with(a, b, &options.with_area_costs(ones), &mut scratch).unwrap();
                assert_eq!(got, plain);
                let walled = mesh.find_path_with(a, b, &options.with_area_costs(wall), &mut scratch);
                for (c, costs) in [0.25, 3.0].into_iter().flat_map(|c| [(c, every(c)), (c, on_mesh(c))]) {
                    let costs = costs.unwrap();
                    let got =
                        mesh.find_path_with(a, b, &options.with_area_costs(costs), &mut scratch).unwrap();
                    assert_eq!((&got.points, got.length), (&plain.points, plain.length));
                    assert_eq!(got.cost, c * plain.length);
                    let recomputed = recomputed_cost(&mesh, &costs, &got).unwrap();
                    assert!((got.cost - recomputed).abs() <= 1e-9 * recomputed);
                    // A type excluded, the others all at `c`.
                    let costs = costs.with_excluded(AreaId(WALL_TYPE));
                    let got = mesh.find_path_with(a, b, &options.with_area_costs(costs), &mut scratch);
                    match &walled {
                        Ok(w) => {
                            let got = got.unwrap();
                            assert_eq!((&got.points, got.length), (&w.points, w.length));
                            assert_eq!(got.cost, c * w.length);
                        }
                        Err(e) => assert_eq!(got.as_ref().err(), Some(e)),
                    }
                }
            }
        }
    }
}

/// The costs of the weighted tests: types 1 to 3 at 0.4, 2.5 and 6, the walls excluded.
fn test_costs() -> AreaCosts {
    AreaCosts::default()
        .with_cost(AreaId(1), 0.4)
        .unwrap()
        .with_cost(AreaId(2), 2.5)
        .unwrap()
        .with_cost(AreaId(3), 6.0)
        .unwrap()
        .with_excluded(AreaId(WALL_TYPE))
}

/// Random links on `test`'s level, `count` of them: ends on free ground or (one in five) a
/// start inside an excluded shape (unusable); one-way or both ways; cost the default (the
/// distance), 0 or random up to 5. Returns the directed links for the oracle.
fn add_random_links(
    rng: &mut SplitMix64,
    size: u64,
    test: &mut TestLevel,
    count: usize,
) -> Vec<DirectedLink> {
    let mut directed = Vec::new();
    for _ in 0..count {
        let from = match rng.below(5) {
            0 => {
                let shape = &test.walls[rng.below(test.walls.len() as u64) as usize];
                let n = shape.len() as f64;
                p(shape.iter().map(|q| q.x).sum::<f64>() / n, shape.iter().map(|q| q.y).sum::<f64>() / n)
            }
            _ => free_point(rng, size, &test.walls),
        };
        let to = free_point(rng, size, &test.walls);
        push_random_link(rng, test, (from, to), 5.0, &mut directed);
    }
    directed
}

/// Adds a link from `from` to `to` to `test`'s level, costing the default (the distance), 0
/// or a random cost up to `max_cost`, one-way or both ways; its directions go to `directed`.
fn push_random_link(
    rng: &mut SplitMix64,
    test: &mut TestLevel,
    (from, to): (Point, Point),
    max_cost: f64,
    directed: &mut Vec<DirectedLink>,
) {
    let cost = match rng.below(3) {
        0 => None,
        1 => Some(0.0),
        _ => Some(rng.unit() * max_cost),
    };
    let bidirectional = rng.below(2) == 0;
    let c = cost.unwrap_or(from.distance(to));
    directed.push((from, to, c));
    if bidirectional {
        directed.push((to, from, c));
    }
    let (from, to) = ([from.x, from.y], [to.x, to.y]);
    test.level.links.push(LinkInput { from, to, cost, bidirectional, layers: None });
}

/// Over `levels` random levels from `rng` (of `size`, up to `max_walls` excluded shapes,
/// `patches` typed rectangles, `links` random links) and `pairs` random pairs on each: every
/// path of each mode in `modes` checked (ends, cost recomputed, walls missed, at least the
/// lower bound without links) and compared with the dense Steiner oracle (`oracle_points`
/// inside each edge, the links). Returns optimal mode's worst ratio, fast mode's mean and how
/// many pairs had a path.
fn weighted_ratios(
    rng: &mut SplitMix64,
    (levels, size, max_walls, patches): (usize, u64, usize, Option<u64>),
    (pairs_per_level, oracle_points, links): (usize, usize, usize),
    modes: &[PathOptions],
) -> (f64, f64, usize) {
    let costs = test_costs();
    let (mut fast_sum, mut worst_optimal, mut pairs) = (0.0, 0.0f64, 0);
    for level_index in 0..levels {
        let mut test = random_level_with(rng, size, max_walls, patches);
        let directed = if links > 0 && !test.walls.is_empty() {
            add_random_links(rng, size, &mut test, links)
        } else {
            Vec::new()
        };
        let mesh = bake(&test.level, &BakeSettings::default()).unwrap().mesh;
        let shrunk = shrunk_walls(&test.walls);
        let mut scratch = PathScratch::new();
        for _ in 0..pairs_per_level {
            let (a, b) = (free_point(rng, size, &test.walls), free_point(rng, size, &test.walls));
            let Some(oracle) = steiner_oracle(&mesh, &costs, (a, b), oracle_points, &directed) else {
                for &options in modes {
                    let got = mesh.find_path_with(a, b, &options.with_area_costs(costs), &mut scratch);
                    assert!(matches!(got, Err(PathError::Unreachable)), "{got:?}");
                }
                continue;
            };
            let unweighted = visibility_oracle(a, b, &test.walls, size as f64).unwrap();
            pairs += 1;
            for &options in modes {
                let path = mesh.find_path_with(a, b, &options.with_area_costs(costs), &mut scratch).unwrap();
                assert_eq!((path.points[0], *path.points.last().unwrap()), (a, b));
                assert!(path.points.windows(2).all(|w| w[0] != w[1]), "repeated point in {:?}", path.points);
                let recomputed = recomputed_cost(&mesh, &costs, &path).unwrap_or_else(|| {
                    panic!("{a:?} -> {b:?} {:?}: a piece off allowed ground: {path:?}", options.mode)
                });
                assert!((recomputed - path.cost).abs() <= 1e-9 * path.cost, "{recomputed} vs {}", path.cost);
                let walked: f64 = (path.points.windows(2).enumerate())
                    .filter(|&(k, _)| !path.is_link_step(k))
                    .map(|(_, w)| w[0].distance(w[1]))
                    .sum();
                assert!(
                    (walked - path.length).abs() <= 1e-9 * walked.max(1.0),
                    "{walked} vs {}",
                    path.length
                );
                // The shapes shrunk (see `shrunk_walls`).
                for (k, w) in path.points.windows(2).enumerate() {
                    let walks = !path.is_link_step(k);
                    assert!(
                        !walks || shrunk.iter().all(|s| misses_interior(w[0], w[1], s)),
                        "{a:?} -> {b:?} {:?}: {w:?} enters a wall: {path:?}",
                        options.mode
                    );
                }
                // No path is cheaper than the shortest one at the smallest cost.
                assert!(!directed.is_empty() || path.cost >= unweighted * 0.4 * (1.0 - 1e-7));
                let ratio = path.cost / oracle;
                if options.mode == PathMode::Optimal && ratio > 1.01 {
                    eprintln!(
                        "MISS {ratio} {a:?} -> {b:?} level {level_index} {:?} {:?}",
                        path.points, test.level
                    );
                }
                if options.mode == PathMode::Optimal {
                    worst_optimal = worst_optimal.max(ratio);
                } else {
                    fast_sum += ratio;
                }
            }
        }
    }
    (worst_optimal, fast_sum / pairs as f64, pairs)
}

/// The excluded shapes shrunk by 1e-6 towards their centres. The mesh's wall sides bend where
/// other types' sides cross them (rounded to the boolean engine's grid, ~1e-8): a path along
/// one may enter the exact shape by that much.
fn shrunk_walls(walls: &[Vec<Point>]) -> Vec<Vec<Point>> {
    (walls.iter())
        .map(|shape| {
            let n = shape.len() as f64;
            let c = p(shape.iter().map(|q| q.x).sum::<f64>() / n, shape.iter().map(|q| q.y).sum::<f64>() / n);
            shape.iter().map(|q| p(q.x + (c.x - q.x) * 1e-6, q.y + (c.y - q.y) * 1e-6)).collect()
        })
        .collect()
}

/// Node budgets under weighted costs, in both modes, on levels with and without links: with
/// exactly the nodes a query needed, its path again; with fewer, never more nodes than the
/// budget, and either still that path (fast mode may have met the goal already) or out of
/// budget: an error, or with partial paths on, a path from the start whose walked pieces stay
/// on allowed ground (its cost recomputed from the triangles), that ends on the mesh no
/// farther from the goal than the start and, in optimal mode, costs within the mode's 1% of
/// the dense Steiner oracle's cheapest way to its end.
#[test]
fn node_budgets_under_weighted_costs_give_partial_paths() {
    let mut rng = SplitMix64::new(6161);
    let costs = test_costs();
    let size = 12;
    let (mut ran_out, mut linked) = ([0; 2], 0);
    for level in 0..8 {
        let mut test = random_level(&mut rng, size);
        let directed = match level % 2 {
            1 if !test.walls.is_empty() => add_random_links(&mut rng, size, &mut test, 3),
            _ => Vec::new(),
        };
        let mesh = bake(&test.level, &BakeSettings::default()).unwrap().mesh;
        let shrunk = shrunk_walls(&test.walls);
        let mut scratch = PathScratch::new();
        for _ in 0..8 {
            let (a, b) = (free_point(&mut rng, size, &test.walls), free_point(&mut rng, size, &test.walls));
            for (m, options) in modes().into_iter().enumerate() {
                let options = options.with_area_costs(costs);
                let Ok(full) = mesh.find_path_with(a, b, &options, &mut scratch) else { continue };
                let needed = scratch.expanded_nodes();
                let again = mesh.find_path_with(a, b, &options.with_node_budget(needed), &mut scratch);
                assert_eq!(
                    again.as_ref(),
                    Ok(&full),
                    "{:?}: a budget of exactly the nodes needed",
                    options.mode
                );
                for budget in [0, needed / 4, needed / 2, needed.saturating_sub(1)] {
                    if needed == 0 {
                        break;
                    }
                    let options = options.with_node_budget(budget);
                    let result = mesh.find_path_with(a, b, &options, &mut scratch);
                    assert!(
                        scratch.expanded_nodes() <= budget,
                        "{:?}: {} > {budget}",
                        options.mode,
                        scratch.expanded_nodes()
                    );
                    let partial =
                        mesh.find_path_with(a, b, &options.with_partial(true), &mut scratch).unwrap();
                    match result {
                        Ok(path) => {
                            assert_eq!(
                                options.mode,
                                PathMode::Fast,
                                "optimal mode returns only finished searches"
                            );
                            assert_eq!(partial, path);
                            continue;
                        }
                        Err(PathError::BudgetExhausted { budget: b }) => assert_eq!(b, budget),
                        Err(e) => panic!("{:?}: {e}", options.mode),
                    }
                    ran_out[m] += 1;
                    linked += usize::from(!partial.links.is_empty());
                    assert_eq!(partial.partial, Some(PartialReason::BudgetExhausted), "{partial:?}");
                    let end = *partial.points.last().unwrap();
                    assert_eq!(partial.points[0], a);
                    assert!(mesh.locate(end).is_some(), "{end:?} is off the mesh");
                    assert!(
                        end.distance(b) <= a.distance(b),
                        "{:?}: {partial:?} leads away from {b:?}",
                        options.mode
                    );
                    let recomputed = recomputed_cost(&mesh, &costs, &partial)
                        .unwrap_or_else(|| panic!("a piece off allowed ground: {partial:?}"));
                    assert!(
                        (recomputed - partial.cost).abs() <= 1e-9 * partial.cost.max(1.0),
                        "{recomputed} vs {partial:?}"
                    );
                    for (k, w) in partial.points.windows(2).enumerate() {
                        let walks = !partial.is_link_step(k);
                        assert!(
                            !walks || shrunk.iter().all(|s| misses_interior(w[0], w[1], s)),
                            "{w:?} enters a wall"
                        );
                    }
                    if options.mode == PathMode::Optimal && end != a {
                        let oracle = steiner_oracle(&mesh, &costs, (a, end), ORACLE_POINTS, &directed)
                            .unwrap_or_else(|| panic!("the oracle reaches the end of {partial:?}"));
                        assert!(
                            partial.cost <= oracle * 1.01,
                            "{a:?} -> {end:?}: {} against {oracle}",
                            partial.cost
                        );
                    }
                }
            }
        }
    }
    assert!(ran_out.iter().all(|&n| n > 20), "budgets that ran out: {ran_out:?}");
    eprintln!("weighted budgets: {ran_out:?} ran out (fast, optimal), {linked} partial paths through links");
}

/// Random levels: `default`, or `TRINAV_WEIGHTED_LEVELS` (for long runs in release).
fn levels(default: usize) -> usize {
    std::env::var("TRINAV_WEIGHTED_LEVELS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn weighted_paths_come_near_the_dense_steiner_oracle() {
    let mut rng = SplitMix64::new(4242);
    let (worst_optimal, mean, pairs) =
        weighted_ratios(&mut rng, (levels(6), 12, 5, None), (8, ORACLE_POINTS, 0), &modes());
    assert!(pairs > 20, "{pairs} pairs");
    assert!(worst_optimal <= 1.01, "optimal mode's worst cost ratio to the oracle {worst_optimal}");
    assert!(mean <= 1.05, "fast mode's mean cost ratio to the oracle {mean}");
    eprintln!("weighted: optimal worst {worst_optimal:.5}, fast mean {mean:.5} over {pairs} pairs");
}

/// Costs and exclusions on levels with random links (one-way and both ways, cost the distance,
/// 0 or random; some starting on excluded ground, so unusable): both modes against the dense
/// Steiner oracle with the links' edges.
#[test]
fn costs_with_links_come_near_the_dense_steiner_oracle() {
    let mut rng = SplitMix64::new(5151);
    let (worst_optimal, mean, pairs) =
        weighted_ratios(&mut rng, (levels(8), 12, 5, None), (8, ORACLE_POINTS, 4), &modes());
    assert!(pairs > 30, "{pairs} pairs");
    assert!(worst_optimal <= 1.01, "optimal mode's worst cost ratio to the oracle {worst_optimal}");
    assert!(mean <= 1.05, "fast mode's mean cost ratio to the oracle {mean}");
    eprintln!(
        "weighted with links: optimal worst {worst_optimal:.5}, fast mean {mean:.5} over {pairs} pairs"
    );
}

/// Fast mode on a bigger level with many overlapping typed patches (many cost changes along a
/// corridor). Its mean is 1.013 on this level; on eight other seeds it ranged 0.997 to 1.072
/// (the README has the figures), so the goal holds on this level, not on every level.
#[test]
fn weighted_fast_mode_comes_near_the_oracle_on_a_bigger_level() {
    let mut rng = SplitMix64::new(1331);
    let (_, mean, pairs) =
        weighted_ratios(&mut rng, (1, 40, 14, Some(30)), (10, ORACLE_POINTS, 0), &[PathOptions::default()]);
    assert!(pairs >= 8, "{pairs} pairs");
    assert!(mean <= 1.05, "fast mode's mean cost ratio to the oracle {mean}");
    eprintln!("weighted, bigger level: fast mean {mean:.5} over {pairs} pairs");
}

/// Optimal mode on sparse levels of long triangles (a room of 20 with up to 3 excluded shapes
/// and one typed rectangle: two costs, a few dozen triangles with edges up to ~20 long), where 5
/// Steiner points per edge (with no unpinning of vertices at all) came to 1.018: within 1%
/// of an oracle with 40 points inside each edge.
#[test]
fn weighted_optimal_mode_comes_near_the_oracle_on_sparse_long_triangles() {
    let mut rng = SplitMix64::new(2027);
    let optimal = [PathOptions::default().with_mode(PathMode::Optimal)];
    let (worst, _, pairs) = weighted_ratios(&mut rng, (levels(6), 20, 3, Some(1)), (6, 40, 0), &optimal);
    assert!(pairs >= 25, "{pairs} pairs");
    assert!(worst <= 1.01, "optimal mode's worst cost ratio to the oracle {worst}");
    eprintln!("weighted, sparse levels: optimal worst {worst:.5} over {pairs} pairs");
}

/// The case a long run (150 levels) found at 1.0597 times the oracle: a refinement sweep slid a
/// point off an edge a zero-length piece through it ran along (priced at the cheaper side's
/// cost), and the sweep that lost was kept.
#[test]
fn a_refinement_sweep_that_loses_is_undone() {
    let rect = |x0, y0, x1, y1, area| AreaInput::new(PolygonInput::rect(x0, y0, x1, y1), area);
    let shape = |corners: &[[f64; 2]]| AreaInput::new(PolygonInput::new(corners.to_vec()), WALL_TYPE);
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 12.0, 12.0)],
        areas: vec![
            rect(10., 5., 11., 11., 1),
            rect(10., 8., 11., 13., 1),
            rect(9., 9., 12., 15., 2),
            shape(&[[6., 10.], [7., 6.], [7., 10.]]),
            shape(&[[1., 3.], [4., 3.], [1., 5.]]),
            shape(&[[7., 2.], [9., 1.], [9., 2.]]),
            shape(&[[1., 7.], [4., 7.], [1., 11.]]),
            rect(1., 1., 5., 2., WALL_TYPE),
        ],
        ..Level::default()
    };
    let mesh = bake(&level, &BakeSettings::default()).unwrap().mesh;
    let costs = test_costs();
    let (a, b) = (p(5.244068934313294, 0.714382836481311), p(11.822889920976866, 6.220924588915079));
    let oracle = steiner_oracle(&mesh, &costs, (a, b), ORACLE_POINTS, &[]).unwrap();
    let options = PathOptions::default().with_mode(PathMode::Optimal).with_area_costs(costs);
    let path = mesh.find_path_with(a, b, &options, &mut PathScratch::new()).unwrap();
    assert!(path.cost <= 1.01 * oracle, "{} against the oracle's {oracle}", path.cost);
}

#[test]
fn endpoints_on_excluded_ground_are_refused() {
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 10.0, 4.0)],
        areas: vec![AreaInput::new(PolygonInput::rect(4.0, 0.0, 6.0, 4.0), 3)],
        ..Level::default()
    };
    let mesh = bake(&level, &BakeSettings::default()).unwrap().mesh;
    let river = AreaCosts::default().with_excluded(AreaId(3));
    let mut scratch = PathScratch::new();
    for options in modes() {
        let options = options.with_area_costs(river);
        let got = mesh.find_path_with(p(5.0, 2.0), p(9.0, 2.0), &options, &mut scratch);
        assert!(matches!(got, Err(PathError::ExcludedArea { area: AreaId(3), .. })), "{got:?}");
        let got = mesh.find_path_with(p(1.0, 2.0), p(5.0, 1.0), &options, &mut scratch);
        assert!(matches!(got, Err(PathError::ExcludedArea { area: AreaId(3), .. })), "{got:?}");
        // The river cuts the level in two.
        let got = mesh.find_path_with(p(1.0, 2.0), p(9.0, 2.0), &options, &mut scratch);
        assert!(matches!(got, Err(PathError::Unreachable)), "{got:?}");
        // A point on the river's bank is on dry ground too.
        let path = mesh.find_path_with(p(1.0, 2.0), p(4.0, 3.0), &options, &mut scratch).unwrap();
        assert_eq!(path.length, p(1.0, 2.0).distance(p(4.0, 3.0)));
    }
    // With a cost instead, the river is crossed at its price: straight across, 2 of 8 in it.
    let ford = AreaCosts::default().with_cost(AreaId(3), 3.0).unwrap();
    for options in modes() {
        let path = mesh
            .find_path_with(p(1.0, 2.0), p(9.0, 2.0), &options.with_area_costs(ford), &mut scratch)
            .unwrap();
        assert!((path.length - 8.0).abs() < 1e-9, "{path:?}");
        assert!((path.cost - (6.0 + 2.0 * 3.0)).abs() < 1e-9, "{path:?}");
    }
}
