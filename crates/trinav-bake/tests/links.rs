//! Off-mesh links: exact answers on small levels (a one-way drop, a teleporter, a zero-cost link
//! inside one triangle, islands joined one way), and both path modes against an oracle built
//! from the level itself on random levels: Dijkstra over start, goal, every obstacle corner and
//! every link end, joined where the segment between them enters no obstacle's interior (exact
//! orientation tests), plus one edge per direction of each link at its cost.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use proptest::prelude::*;
use trinav::{
    AreaCosts, AreaId, BakeSettings, LinkError, LinkId, LinkStep, NavMesh, OffMeshLink, Path, PathError,
    PathMode, PathOptions, PathScratch, Point,
};
use trinav_bake::{AreaInput, BakeError, Level, LinkInput, PolygonInput, bake};

#[path = "common/rects.rs"]
mod rects;
use rects::{Rect, corners, disjoint_rects, misses_interior};

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn options(mode: PathMode) -> PathOptions {
    PathOptions::default().with_mode(mode)
}

const MODES: [PathMode; 2] = [PathMode::Fast, PathMode::Optimal];

fn walkable(obstacles: &[Rect], size: f64, q: Point) -> bool {
    (0.0..=size).contains(&q.x)
        && (0.0..=size).contains(&q.y)
        && obstacles.iter().all(|&(a, b)| !(a.x < q.x && q.x < b.x && a.y < q.y && q.y < b.y))
}

/// The least cost from `from` to `to`: walked segments among the obstacles plus links, or
/// `None` when no way leads there. `barriers` block like obstacles, but their corners (off the
/// floor) are no way round them.
fn oracle(
    obstacles: &[Rect],
    barriers: &[Rect],
    links: &[OffMeshLink],
    from: Point,
    to: Point,
) -> Option<f64> {
    let mut nodes = vec![from, to];
    nodes.extend(obstacles.iter().flat_map(|&r| corners(r)));
    let link_at = nodes.len();
    for link in links {
        nodes.extend([link.from, link.to]);
    }
    let n = nodes.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::from([Reverse((0f64.to_bits(), 0usize))]);
    dist[0] = 0.0;
    while let Some(Reverse((bits, u))) = heap.pop() {
        if std::mem::replace(&mut done[u], true) {
            continue;
        }
        let d = f64::from_bits(bits);
        if u == 1 {
            return Some(d);
        }
        let mut relax = |v: usize, nd: f64, heap: &mut BinaryHeap<Reverse<(u64, usize)>>| {
            if !done[v] && nd < dist[v] {
                dist[v] = nd;
                heap.push(Reverse((nd.to_bits(), v)));
            }
        };
        for v in 0..n {
            if obstacles.iter().chain(barriers).all(|&r| misses_interior(nodes[u], nodes[v], r)) {
                relax(v, d + nodes[u].distance(nodes[v]), &mut heap);
            }
        }
        if u >= link_at {
            let (k, end) = ((u - link_at) / 2, (u - link_at) % 2);
            let link = &links[k];
            if end == 0 {
                relax(u + 1, d + link.cost, &mut heap);
            } else if link.bidirectional {
                relax(u - 1, d + link.cost, &mut heap);
            }
        }
    }
    None
}

/// Everything a path with links must satisfy: it joins the query points, every walked segment
/// stays out of the obstacles, every link step is a direction of a live link, and its length
/// and cost add up.
fn check_valid(mesh: &NavMesh, obstacles: &[Rect], from: Point, to: Point, path: &Path) {
    assert_eq!(path.points.first(), Some(&from));
    assert_eq!(path.points.last(), Some(&to));
    let (mut length, mut cost) = (0.0, 0.0);
    for (k, w) in path.points.windows(2).enumerate() {
        if let Some(step) = path.links.iter().find(|s| s.point == k) {
            let link = mesh.link(step.link).expect("a live link");
            let forward = (link.from, link.to) == (w[0], w[1]);
            let backward = link.bidirectional && (link.to, link.from) == (w[0], w[1]);
            assert!(forward || backward, "step {k} {w:?} is not link {:?} {link:?}", step.link);
            cost += link.cost;
        } else {
            assert!(obstacles.iter().all(|&r| misses_interior(w[0], w[1], r)), "{w:?} crosses an obstacle");
            length += w[0].distance(w[1]);
        }
    }
    assert!((path.length - length).abs() <= 1e-9 * length.max(1.0), "{} against {length}", path.length);
    assert!((path.cost - (length + cost)).abs() <= 1e-9 * (length + cost).max(1.0));
}

/// A room of `size × size` with rectangle obstacles and links, baked.
fn bake_room(size: f64, obstacles: &[Rect], links: &[LinkInput]) -> NavMesh {
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, size, size)],
        obstacles: obstacles.iter().map(|&(a, b)| PolygonInput::rect(a.x, a.y, b.x, b.y)).collect(),
        links: links.to_vec(),
        ..Level::default()
    };
    bake(&level, &BakeSettings::default()).expect("level bakes").mesh
}

fn link(from: [f64; 2], to: [f64; 2], cost: Option<f64>, bidirectional: bool) -> LinkInput {
    LinkInput { from, to, cost, bidirectional, layers: None }
}

/// A 20 × 10 room split by a wall `[9, 11] × [0, 8]` (open above), a drop from `(8, 2)` to
/// `(12, 2)` of cost 1.
fn drop_room() -> (NavMesh, Vec<Rect>) {
    let wall = vec![(p(9.0, 0.0), p(11.0, 8.0))];
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 20.0, 10.0)],
        obstacles: vec![PolygonInput::rect(9.0, 0.0, 11.0, 8.0)],
        links: vec![link([8.0, 2.0], [12.0, 2.0], Some(1.0), false)],
        ..Level::default()
    };
    (bake(&level, &BakeSettings::default()).unwrap().mesh, wall)
}

#[test]
fn a_one_way_drop_makes_a_to_b_short_and_b_to_a_long() {
    let (mesh, wall) = drop_room();
    let (a, b) = (p(5.0, 2.0), p(15.0, 2.0));
    let mut scratch = PathScratch::new();
    for mode in MODES {
        let there = mesh.find_path_with(a, b, &options(mode), &mut scratch).unwrap();
        check_valid(&mesh, &wall, a, b, &there);
        assert_eq!(there.points, vec![a, p(8.0, 2.0), p(12.0, 2.0), b], "{mode:?}");
        assert_eq!(there.links.len(), 1);
        assert_eq!((there.links[0].point, there.links[0].link), (1, LinkId(0)));
        assert_eq!((there.length, there.cost), (6.0, 7.0));
        let back = mesh.find_path_with(b, a, &options(mode), &mut scratch).unwrap();
        check_valid(&mesh, &wall, b, a, &back);
        assert!(back.links.is_empty());
        assert_eq!(back.points, vec![b, p(11.0, 8.0), p(9.0, 8.0), a], "{mode:?}");
        let around = 2.0 * 52f64.sqrt() + 2.0;
        assert!((back.cost - around).abs() < 1e-12 && back.cost == back.length);
    }
}

#[test]
fn a_teleporter_is_taken_only_when_it_beats_walking() {
    // A 20 × 10 room, the same wall; a teleporter pair (both ways, cost 3) between the bottom
    // corners of the two halves.
    let wall = vec![(p(9.0, 0.0), p(11.0, 8.0))];
    let teleporter = link([1.0, 1.0], [19.0, 1.0], Some(3.0), true);
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 20.0, 10.0)],
        obstacles: vec![PolygonInput::rect(9.0, 0.0, 11.0, 8.0)],
        links: vec![teleporter],
        ..Level::default()
    };
    let mesh = bake(&level, &BakeSettings::default()).unwrap().mesh;
    let mut scratch = PathScratch::new();
    for mode in MODES {
        // Low down both sides: 1 + 3 + 1 through the teleporter, about 16.4 round the wall.
        let (a, b) = (p(1.0, 2.0), p(19.0, 2.0));
        let path = mesh.find_path_with(a, b, &options(mode), &mut scratch).unwrap();
        check_valid(&mesh, &wall, a, b, &path);
        assert_eq!(path.points, vec![a, p(1.0, 1.0), p(19.0, 1.0), b], "{mode:?}");
        assert_eq!((path.length, path.cost), (2.0, 5.0));
        // The other way too (bidirectional).
        let path = mesh.find_path_with(b, a, &options(mode), &mut scratch).unwrap();
        assert_eq!(path.points, vec![b, p(19.0, 1.0), p(1.0, 1.0), a], "{mode:?}");
        // High up, walking over the wall is shorter: 4, straight along y = 9 ...
        let (c, d) = (p(8.0, 9.0), p(12.0, 9.0));
        let path = mesh.find_path_with(c, d, &options(mode), &mut scratch).unwrap();
        assert_eq!(path.points, vec![c, d]);
        assert!(path.links.is_empty() && path.cost == 4.0);
        // ... and near the break-even the cheaper of the two wins: from (4, 1) to (16, 1) the
        // teleporter costs 3 + 3 + 3 = 9, round the wall 2 √(25 + 49) + 2 ≈ 19.2.
        let (e, f) = (p(4.0, 1.0), p(16.0, 1.0));
        let path = mesh.find_path_with(e, f, &options(mode), &mut scratch).unwrap();
        check_valid(&mesh, &wall, e, f, &path);
        assert_eq!((path.links.len(), path.cost), (1, 9.0), "{mode:?}");
        // From (8, 7) to (12, 7): round the top corners 2 √2 + 2 ≈ 4.83 against 7 + 3 + 7.
        let (g, h) = (p(8.0, 7.0), p(12.0, 7.0));
        let path = mesh.find_path_with(g, h, &options(mode), &mut scratch).unwrap();
        assert!(path.links.is_empty(), "{mode:?}: {path:?}");
        assert!((path.cost - (2.0 * 2f64.sqrt() + 2.0)).abs() < 1e-12);
    }
}

#[test]
fn a_zero_cost_link_inside_one_triangle_is_taken() {
    // A plain square (two triangles); both ends of the link in the same triangle.
    let mesh = bake_room(10.0, &[], &[link([1.0, 0.5], [9.0, 0.5], Some(0.0), false)]);
    let (a, b) = (p(1.0, 0.5), p(9.0, 0.5));
    assert!(mesh.locate_all(a).any(|t| mesh.locate_all(b).any(|u| u == t)));
    let mut scratch = PathScratch::new();
    for mode in MODES {
        let path = mesh.find_path_with(a, b, &options(mode), &mut scratch).unwrap();
        assert_eq!(path.points, vec![a, b], "{mode:?}");
        assert_eq!(path.links.len(), 1);
        assert_eq!((path.length, path.cost), (0.0, 0.0));
        // Back: walked (one way).
        let path = mesh.find_path_with(b, a, &options(mode), &mut scratch).unwrap();
        assert!(path.links.is_empty());
        assert_eq!(path.cost, 8.0);
    }
}

#[test]
fn no_path_follows_links_one_way() {
    // Two islands; a one-way link from the left one to the right one.
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 4.0, 4.0), PolygonInput::rect(10.0, 0.0, 14.0, 4.0)],
        links: vec![link([3.0, 2.0], [11.0, 2.0], None, false)],
        ..Level::default()
    };
    let mut mesh = bake(&level, &BakeSettings::default()).unwrap().mesh;
    assert_eq!(mesh.island_count(), 2);
    let (a, b) = (p(1.0, 2.0), p(13.0, 2.0));
    let mut scratch = PathScratch::new();
    for mode in MODES {
        let path = mesh.find_path_with(a, b, &options(mode), &mut scratch).unwrap();
        assert_eq!(path.points, vec![a, p(3.0, 2.0), p(11.0, 2.0), b]);
        assert_eq!((path.length, path.cost), (4.0, 12.0)); // the default cost: the distance
        assert_eq!(mesh.find_path_with(b, a, &options(mode), &mut scratch), Err(PathError::Unreachable));
    }
    // Removed at runtime: unreachable both ways; added back the other way round.
    let removed = mesh.remove_link(LinkId(0)).unwrap();
    assert_eq!(mesh.remove_link(LinkId(0)), Err(LinkError::UnknownLink(LinkId(0))));
    for mode in MODES {
        assert_eq!(mesh.find_path_with(a, b, &options(mode), &mut scratch), Err(PathError::Unreachable));
    }
    let back = mesh.add_link(OffMeshLink::new(removed.to, removed.from).with_cost(0.5)).unwrap();
    assert_eq!(back, LinkId(1));
    for mode in MODES {
        let path = mesh.find_path_with(b, a, &options(mode), &mut scratch).unwrap();
        assert_eq!((path.links[0].link, path.cost), (back, 4.0 + 0.5));
        assert_eq!(mesh.find_path_with(a, b, &options(mode), &mut scratch), Err(PathError::Unreachable));
    }
}

#[test]
fn links_are_checked_when_added_and_when_baked() {
    let mut mesh = bake_room(10.0, &[(p(4.0, 4.0), p(6.0, 6.0))], &[]);
    let inside = OffMeshLink::new(p(1.0, 1.0), p(5.0, 5.0));
    assert!(matches!(mesh.add_link(inside), Err(LinkError::OffMesh { end: trinav::LinkEnd::To, .. })));
    let nan = OffMeshLink::new(p(1.0, 1.0), p(2.0, 2.0)).with_cost(f64::NAN);
    assert!(matches!(mesh.add_link(nan), Err(LinkError::BadCost(c)) if c.is_nan()));
    let negative = OffMeshLink::new(p(1.0, 1.0), p(2.0, 2.0)).with_cost(-1.0);
    assert_eq!(mesh.add_link(negative), Err(LinkError::BadCost(-1.0)));
    let off = OffMeshLink::new(p(f64::INFINITY, 1.0), p(2.0, 2.0));
    assert!(matches!(mesh.add_link(off), Err(LinkError::NonFinite { end: trinav::LinkEnd::From, .. })));
    assert_eq!(mesh.link_count(), 0);
    // In a level: the error names the link.
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 10.0, 10.0)],
        obstacles: vec![PolygonInput::rect(4.0, 4.0, 6.0, 6.0)],
        links: vec![link([1.0, 1.0], [2.0, 2.0], None, false), link([1.0, 1.0], [5.0, 5.0], Some(1.0), true)],
        ..Level::default()
    };
    let err = bake(&level, &BakeSettings::default()).unwrap_err();
    assert!(matches!(err, BakeError::Link { index: 1, .. }), "{err}");
    assert!(err.to_string().starts_with("link 1 (from [1, 1] to [5, 5]): link to point (5, 5)"), "{err}");
}

#[test]
fn links_survive_the_file_and_old_versions_load_without() {
    let (mesh, _) = drop_room();
    let bytes = mesh.to_bytes().unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), trinav::file::FORMAT_VERSION);
    let loaded = NavMesh::from_bytes(&bytes).unwrap();
    assert_eq!(loaded.links().collect::<Vec<_>>(), mesh.links().collect::<Vec<_>>());
    assert_eq!(loaded.to_bytes().unwrap(), bytes);
    // The mesh parts alone encode without links.
    let plain = NavMesh::from_bytes(&trinav::file::encode(mesh.parts()).unwrap()).unwrap();
    assert_eq!(plain.link_count(), 0);
}

/// Random disjoint rectangles on an integer grid, kept when strictly apart.
fn rects_strategy(size: i32) -> impl Strategy<Value = Vec<Rect>> {
    disjoint_rects((1..size - 2, 1..size - 2), 6, 1..10, (size - 1, size - 1))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// On random levels with random links (costs 0 to 20, some free, some both ways), the
    /// optimal mode's cost equals the oracle's and the fast mode's is valid and never below
    /// it; a goal the oracle cannot reach is unreachable for both.
    #[test]
    fn paths_with_links_match_the_oracle(
        obstacles in rects_strategy(16),
        raw_links in prop::collection::vec((0..=64u32, 0..=64u32, 0..=64u32, 0..=64u32, 0..=8u32, any::<bool>()), 0..8),
        points in prop::collection::vec((0..=64u32, 0..=64u32, 0..=64u32, 0..=64u32), 10),
    ) {
        let size = 16.0;
        let quarter = |v: u32| f64::from(v) / 4.0;
        let links: Vec<OffMeshLink> = raw_links
            .iter()
            .map(|&(x0, y0, x1, y1, c, both)| {
                let link = OffMeshLink::new(p(quarter(x0), quarter(y0)), p(quarter(x1), quarter(y1)));
                let cost = if c == 0 { 0.0 } else { link.cost * f64::from(c) / 4.0 };
                link.with_cost(cost).with_bidirectional(both)
            })
            .filter(|l| walkable(&obstacles, size, l.from) && walkable(&obstacles, size, l.to))
            .collect();
        let mut mesh = bake_room(size, &obstacles, &[]);
        for &l in &links {
            mesh.add_link(l).unwrap();
        }
        let mut scratch = PathScratch::new();
        for (x0, y0, x1, y1) in points {
            let (from, to) = (p(quarter(x0), quarter(y0)), p(quarter(x1), quarter(y1)));
            if !walkable(&obstacles, size, from) || !walkable(&obstacles, size, to) {
                continue;
            }
            let expected = oracle(&obstacles, &[], &links, from, to).expect("the room is connected");
            let optimal = mesh.find_path_with(from, to, &options(PathMode::Optimal), &mut scratch).unwrap();
            check_valid(&mesh, &obstacles, from, to, &optimal);
            prop_assert!((optimal.cost - expected).abs() <= 1e-9 * expected.max(1.0),
                "{from:?} -> {to:?}: optimal {} ({:?} {:?}), oracle {expected}", optimal.cost, optimal.points, optimal.links);
            let fast = mesh.find_path_with(from, to, &options(PathMode::Fast), &mut scratch).unwrap();
            check_valid(&mesh, &obstacles, from, to, &fast);
            prop_assert!(fast.cost >= expected * (1.0 - 1e-12), "fast {} below the oracle {expected}", fast.cost);
        }
    }
}

fn assert_near(found: f64, expected: f64) {
    assert!((found - expected).abs() <= 1e-9 * expected.max(1.0), "{found} against {expected}");
}

/// Area costs and exclusions compose with links (both modes): walking costs its length times
/// the area's cost, a link its own cost; a link whose end lies only on excluded ground is not
/// taken.
#[test]
fn area_costs_and_exclusions_compose_with_links() {
    let (mesh, _) = drop_room();
    let (a, b) = (p(5.0, 2.0), p(15.0, 2.0));
    let mut scratch = PathScratch::new();
    let doubled = AreaCosts::default().with_cost(AreaId(0), 2.0).unwrap();
    for mode in MODES {
        let options = options(mode).with_area_costs(doubled);
        // 3 walked at 2, the drop at 1 (not doubled), 3 walked at 2.
        let there = mesh.find_path_with(a, b, &options, &mut scratch).unwrap();
        assert_eq!(there.points, vec![a, p(8.0, 2.0), p(12.0, 2.0), b], "{mode:?}");
        assert_eq!(there.links, vec![LinkStep { point: 1, link: LinkId(0) }]);
        assert_near(there.length, 6.0);
        assert_near(there.cost, 13.0);
        // Back: no link that way; round the wall at 2 per unit.
        let back = mesh.find_path_with(b, a, &options, &mut scratch).unwrap();
        assert!(back.links.is_empty(), "{mode:?}");
        assert_near(back.cost, 2.0 * (2.0 * 52f64.sqrt() + 2.0));
    }
    // The wall as excluded ground: the drop into it is unusable when it is excluded, a drop
    // over it is taken; with the wall's type at cost 1 the way is straight through it.
    let wall = PolygonInput::rect(9.0, 0.0, 11.0, 8.0);
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 20.0, 10.0)],
        areas: vec![AreaInput::new(wall, 9)],
        links: vec![
            link([8.0, 2.0], [10.0, 2.0], Some(0.0), false),
            link([8.0, 4.0], [12.0, 4.0], Some(5.0), true),
        ],
        ..Level::default()
    };
    let mesh = bake(&level, &BakeSettings::default()).unwrap().mesh;
    let excluded = AreaCosts::default().with_excluded(AreaId(9));
    for mode in MODES {
        let path = mesh.find_path_with(a, b, &options(mode).with_area_costs(excluded), &mut scratch).unwrap();
        assert_eq!(path.points, vec![a, p(8.0, 4.0), p(12.0, 4.0), b], "{mode:?}");
        assert_eq!(path.links, vec![LinkStep { point: 1, link: LinkId(1) }]);
        assert_near(path.cost, 2.0 * 13f64.sqrt() + 5.0);
        // Back (the link goes both ways), walking at 3: the link's 5 is not tripled.
        let mud = excluded.with_cost(AreaId(0), 3.0).unwrap();
        let path = mesh.find_path_with(b, a, &options(mode).with_area_costs(mud), &mut scratch).unwrap();
        assert_eq!(path.links, vec![LinkStep { point: 1, link: LinkId(1) }], "{mode:?}");
        assert_near(path.cost, 3.0 * 2.0 * 13f64.sqrt() + 5.0);
        // Not excluded, the wall costs 2: the free drop into it, then 1 at 2 to its far side,
        // beats the other link (5 + 2 √13) and the straight way (4 + 2 · 2 + 4).
        let dear = AreaCosts::default().with_cost(AreaId(9), 2.0).unwrap();
        let path = mesh.find_path_with(a, b, &options(mode).with_area_costs(dear), &mut scratch).unwrap();
        assert_eq!(path.links, vec![LinkStep { point: 1, link: LinkId(0) }], "{mode:?}: {path:?}");
        assert_near(path.cost, 3.0 + 2.0 + 4.0);
    }
}

/// Checks both modes on `mesh` (with live links `links`) against the oracle: the optimal cost
/// equal, the fast path valid and never cheaper, "no path" exactly when the oracle has none.
fn check_against_oracle(
    mesh: &NavMesh,
    (obstacles, barriers): (&[Rect], &[Rect]),
    links: &[OffMeshLink],
    from: Point,
    to: Point,
) {
    let mut scratch = PathScratch::new();
    let expected = oracle(obstacles, barriers, links, from, to);
    let walls: Vec<Rect> = obstacles.iter().chain(barriers).copied().collect();
    for mode in MODES {
        let found = mesh.find_path_with(from, to, &options(mode), &mut scratch);
        let Some(expected) = expected else {
            assert_eq!(
                found.map(|path| path.cost),
                Err(PathError::Unreachable),
                "{mode:?} {from:?} -> {to:?}"
            );
            continue;
        };
        let path = found.unwrap_or_else(|e| panic!("{mode:?} {from:?} -> {to:?}: {e}"));
        check_valid(mesh, &walls, from, to, &path);
        match mode {
            PathMode::Optimal => assert!(
                (path.cost - expected).abs() <= 1e-9 * expected.max(1.0),
                "{from:?} -> {to:?}: optimal {} ({:?} {:?}), oracle {expected}",
                path.cost,
                path.points,
                path.links
            ),
            _ => assert!(
                path.cost >= expected * (1.0 - 1e-12),
                "fast {} below the oracle {expected}",
                path.cost
            ),
        }
    }
}

/// Two rooms of 12 × 12 side by side, `[0, 12]²` and `[13, 25] × [0, 12]`, with obstacles: two
/// islands. For the oracle, the gap between them is a barrier reaching past the rooms.
fn two_rooms(a: &[Rect], b: &[Rect]) -> (NavMesh, Vec<Rect>, Rect) {
    let shift = |&(lo, hi): &Rect| (p(lo.x + 13.0, lo.y), p(hi.x + 13.0, hi.y));
    let obstacles: Vec<Rect> = a.iter().copied().chain(b.iter().map(shift)).collect();
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 12.0, 12.0), PolygonInput::rect(13.0, 0.0, 25.0, 12.0)],
        obstacles: obstacles.iter().map(|&(a, b)| PolygonInput::rect(a.x, a.y, b.x, b.y)).collect(),
        ..Level::default()
    };
    let mesh = bake(&level, &BakeSettings::default()).expect("level bakes").mesh;
    (mesh, obstacles, (p(12.0, -1.0), p(13.0, 13.0)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Many links (10 to 40, some between the two islands, some one way) on two rooms: both
    /// modes against the oracle, then again after removing some links at runtime and adding
    /// them back (the per-mesh tables of the bound through links follow every change).
    #[test]
    fn many_links_on_two_islands_match_the_oracle_after_add_and_remove(
        (a, b) in (rects_strategy(12), rects_strategy(12)),
        raw_links in prop::collection::vec((0..=100u32, 0..=48u32, 0..=100u32, 0..=48u32, 0..=8u32, any::<bool>()), 10..40),
        points in prop::collection::vec((0..=100u32, 0..=48u32, 0..=100u32, 0..=48u32), 6),
        removed in prop::collection::vec(any::<prop::sample::Index>(), 1..8),
    ) {
        let (mut mesh, obstacles, gap) = two_rooms(&a, &b);
        let walls = (&obstacles[..], &[gap][..]);
        let quarter = |v: u32| f64::from(v) / 4.0;
        let on_floor = |q: Point| walkable(&obstacles, 25.0, q) && !(12.0 < q.x && q.x < 13.0);
        let mut links: Vec<(LinkId, OffMeshLink)> = raw_links
            .iter()
            .map(|&(x0, y0, x1, y1, c, both)| {
                let link = OffMeshLink::new(p(quarter(x0), quarter(y0)), p(quarter(x1), quarter(y1)));
                link.with_cost(link.cost * f64::from(c) / 8.0).with_bidirectional(both)
            })
            .filter(|l| on_floor(l.from) && on_floor(l.to))
            .map(|l| (mesh.add_link(l).unwrap(), l))
            .collect();
        let queries: Vec<(Point, Point)> = points
            .iter()
            .map(|&(x0, y0, x1, y1)| (p(quarter(x0), quarter(y0)), p(quarter(x1), quarter(y1))))
            .filter(|&(from, to)| on_floor(from) && on_floor(to))
            .collect();
        let live = |links: &[(LinkId, OffMeshLink)]| links.iter().map(|&(_, l)| l).collect::<Vec<_>>();
        for &(from, to) in &queries {
            check_against_oracle(&mesh, walls, &live(&links), from, to);
        }
        let mut taken = Vec::new();
        for index in removed {
            if links.is_empty() {
                break;
            }
            let (id, link) = links.remove(index.index(links.len()));
            prop_assert_eq!(mesh.remove_link(id), Ok(link));
            taken.push(link);
        }
        for &(from, to) in &queries {
            check_against_oracle(&mesh, walls, &live(&links), from, to);
        }
        for link in taken {
            links.push((mesh.add_link(link).unwrap(), link));
        }
        for &(from, to) in &queries {
            check_against_oracle(&mesh, walls, &live(&links), from, to);
        }
    }
}

/// More directions of links (600) than the bound's table holds: the bound computes its hops
/// when asked, and the answers stay exact.
#[test]
fn more_links_than_the_table_holds_match_the_oracle() {
    let obstacles = vec![(p(3.0, 3.0), p(7.0, 5.0)), (p(9.0, 8.0), p(12.0, 13.0))];
    let mut mesh = bake_room(16.0, &obstacles, &[]);
    // A fixed pseudo-random sequence (a linear congruential generator) of points on the floor.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut point = || loop {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let q = p(f64::from((state >> 33) as u32 % 65) / 4.0, f64::from((state >> 13) as u32 % 65) / 4.0);
        if walkable(&obstacles, 16.0, q) {
            return q;
        }
    };
    let mut links = Vec::new();
    for k in 0..300 {
        let link = OffMeshLink::new(point(), point());
        let link = link.with_cost(link.cost * f64::from(k % 5) / 4.0).with_bidirectional(true);
        mesh.add_link(link).unwrap();
        links.push(link);
    }
    for _ in 0..8 {
        let (from, to) = (point(), point());
        check_against_oracle(&mesh, (&obstacles, &[]), &links, from, to);
    }
}
