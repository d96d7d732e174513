//! What the runtime's tests share: the committed fixture meshes (`tests/fixtures`, see its
//! `fixtures.txt`), random points, the checks every path must pass, and oracles that answer
//! by brute force over the triangles and boundary edges, never through the queries they check.

#![allow(dead_code)] // Each test binary uses its own part.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rand::{Rng, RngExt, SeedableRng};
use trinav::geometry::{Orientation, closest_point_on_triangle, orient};
use trinav::{NavMesh, Path, Point, TriangleId};

/// The fixture mesh `NAME.nav`.
pub fn fixture(name: &str) -> NavMesh {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(format!("{name}.nav"));
    NavMesh::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixtures made from level files, whose walls never touch corner to corner (no pinch
/// points), with both triangulations where there are two.
pub const PLAIN_FIXTURES: [&str; 11] = [
    "town_cdt",
    "town_ear",
    "courtyard_cdt",
    "courtyard_ear",
    "room_pillars_cdt",
    "square_cdt",
    "square_ear",
    "doorway_cdt",
    "doorway_ear",
    "u_corridor_cdt",
    "u_corridor_ear",
];

pub fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

/// A seeded generator (the same points on every run and machine).
pub fn rng(seed: u64) -> rand_pcg::Pcg64 {
    rand_pcg::Pcg64::seed_from_u64(seed)
}

/// A point uniform in the mesh's bounds grown by `margin` (a fraction of its size) on each side.
pub fn random_point(rng: &mut impl Rng, mesh: &NavMesh, margin: f64) -> Point {
    let b = mesh.bounds();
    let (w, h) = b.size();
    p(
        rng.random_range(b.min.x - margin * w..=b.max.x + margin * w),
        rng.random_range(b.min.y - margin * h..=b.max.y + margin * h),
    )
}

/// A random point on the mesh.
pub fn random_point_on_mesh(rng: &mut impl Rng, mesh: &NavMesh) -> Point {
    loop {
        let q = random_point(rng, mesh, 0.0);
        if !brute_locate_all(mesh, q).is_empty() {
            return q;
        }
    }
}

pub fn assert_close(actual: f64, expected: f64, what: &str) {
    assert!((actual - expected).abs() <= 1e-9 * expected.abs().max(1.0), "{what}: {actual} vs {expected}");
}

/// Every triangle whose closed area holds `q` (exact predicates).
pub fn brute_locate_all(mesh: &NavMesh, q: Point) -> Vec<TriangleId> {
    (0..mesh.triangle_count())
        .map(|t| TriangleId(t as u32))
        .filter(|&t| {
            let [a, b, c] = mesh.triangle_points(t);
            [orient(a, b, q), orient(b, c, q), orient(c, a, q)].iter().all(|&o| o != Orientation::Clockwise)
        })
        .collect()
}

/// The distance from `q` to the nearest point of the triangles `allowed` accepts (0 when one of
/// them holds `q`, by the exact test: the floating-point projection is least precise inside thin
/// triangles).
pub fn brute_nearest_distance(mesh: &NavMesh, q: Point, allowed: impl Fn(TriangleId) -> bool) -> f64 {
    if brute_locate_all(mesh, q).into_iter().any(&allowed) {
        return 0.0;
    }
    (0..mesh.triangle_count())
        .map(|t| TriangleId(t as u32))
        .filter(|&t| allowed(t))
        .map(|t| closest_point_on_triangle(q, mesh.triangle_points(t)).distance(q))
        .fold(f64::INFINITY, f64::min)
}

/// The boundary edges (no triangle across), each as its two ends, walkable side on the left.
pub fn boundary_edges(mesh: &NavMesh) -> Vec<(Point, Point)> {
    let mut edges = Vec::new();
    for t in 0..mesh.triangle_count() {
        let t = TriangleId(t as u32);
        let corners = mesh.triangle_points(t);
        for (i, n) in mesh.neighbours(t).iter().enumerate() {
            if n.is_none() {
                edges.push((corners[i], corners[(i + 1) % 3]));
            }
        }
    }
    edges
}

/// The first fraction of `from -> to` where it crosses a boundary edge from the walkable side
/// to the other, by floating-point intersection with every boundary edge; `None` if none.
pub fn brute_first_crossing(edges: &[(Point, Point)], from: Point, to: Point) -> Option<f64> {
    let cross = |ax: f64, ay: f64, bx: f64, by: f64| ax * by - ay * bx;
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let mut best: Option<f64> = None;
    for &(a, b) in edges {
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let denom = cross(dx, dy, ex, ey);
        if denom <= 0.0 {
            continue; // parallel, or entering the walkable side
        }
        let s = cross(a.x - from.x, a.y - from.y, ex, ey) / denom;
        let u = cross(a.x - from.x, a.y - from.y, dx, dy) / denom;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&u) {
            best = Some(best.map_or(s, |b: f64| b.min(s)));
        }
    }
    best
}

/// Whether the segment `a -> b` stays in the walkable area, decided without the mesh's own
/// queries: it crosses no boundary edge properly; where it passes through a boundary vertex,
/// the triangles around that vertex holding its way in and its way out are joined through
/// shared edges around the vertex (not two pieces of the area touching at one point); and the
/// middle of every piece between such points lies in a triangle or on a boundary edge the
/// segment runs along.
pub fn segment_is_walkable(mesh: &NavMesh, edges: &[(Point, Point)], a: Point, b: Point) -> bool {
    let mut cuts = vec![0.0, 1.0];
    let mut passed = Vec::new();
    for &(c, d) in edges {
        let (oc, od) = (orient(a, b, c), orient(a, b, d));
        let (oa, ob) = (orient(c, d, a), orient(c, d, b));
        let proper = oc != od
            && oc != Orientation::Collinear
            && od != Orientation::Collinear
            && oa != ob
            && oa != Orientation::Collinear
            && ob != Orientation::Collinear;
        if proper {
            return false;
        }
        // Where the segment meets the edge's ends.
        if oc == Orientation::Collinear {
            let s = fraction_along(a, b, c);
            cuts.push(s);
            if s > 0.0 && s < 1.0 && c != a && c != b {
                passed.push(c);
            }
        }
    }
    let d = p(b.x - a.x, b.y - a.y);
    if passed.iter().any(|&v| !passes_through(mesh, v, d)) {
        return false;
    }
    cuts.retain(|s| (0.0..=1.0).contains(s));
    cuts.sort_by(f64::total_cmp);
    cuts.windows(2).filter(|w| w[1] > w[0]).all(|w| {
        let s = 0.5 * (w[0] + w[1]);
        let m = p(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s);
        let along_wall = edges.iter().any(|&(c, d)| {
            orient(c, d, a) == Orientation::Collinear
                && orient(c, d, b) == Orientation::Collinear
                && (0.0..=1.0).contains(&fraction_along(c, d, m))
        });
        along_wall || !brute_locate_all(mesh, m).is_empty()
    })
}

/// Whether a straight line in direction `d` can pass through vertex `v`: some triangle at `v`
/// holds the direction `-d` (the way in) and is in the same fan as one holding `d` (the way out).
fn passes_through(mesh: &NavMesh, v: Point, d: Point) -> bool {
    let back = p(-d.x, -d.y);
    fans_at(mesh, v).iter().any(|fan| fan_holds(mesh, fan, v, back) && fan_holds(mesh, fan, v, d))
}

/// The triangles around vertex `v`, grouped into fans: triangles joined through their edges at
/// `v`. Two fans meet only at `v` (a pinch point).
pub fn fans_at(mesh: &NavMesh, v: Point) -> Vec<Vec<TriangleId>> {
    let at_v: Vec<TriangleId> = (0..mesh.triangle_count())
        .map(|t| TriangleId(t as u32))
        .filter(|&t| mesh.triangle_points(t).contains(&v))
        .collect();
    let mut fans: Vec<Vec<TriangleId>> = Vec::new();
    for &seed in &at_v {
        if fans.iter().any(|fan| fan.contains(&seed)) {
            continue;
        }
        let mut fan = vec![seed];
        let mut k = 0;
        while k < fan.len() {
            for n in mesh.neighbours(fan[k]) {
                if !n.is_none() && at_v.contains(&n) && !fan.contains(&n) {
                    fan.push(n);
                }
            }
            k += 1;
        }
        fans.push(fan);
    }
    fans
}

/// Whether a triangle of `fan` (all at vertex `v`) holds the direction `u` from `v`.
fn fan_holds(mesh: &NavMesh, fan: &[TriangleId], v: Point, u: Point) -> bool {
    let ahead = p(v.x + u.x, v.y + u.y);
    fan.iter().any(|&t| {
        let corners = mesh.triangle_points(t);
        let k = corners.iter().position(|&c| c == v).expect("a corner");
        let (x, y) = (corners[(k + 1) % 3], corners[(k + 2) % 3]);
        orient(v, x, ahead) != Orientation::Clockwise && orient(v, y, ahead) != Orientation::CounterClockwise
    })
}

/// The fraction of `a -> b` at the foot of `q` (floating point).
fn fraction_along(a: Point, b: Point, q: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    ((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy)
}

/// The exact shortest path length by a visibility graph: nodes are the two query points and
/// every fan of every boundary vertex (a vertex where two pieces of the area touch is one node
/// per piece), edges the walkable segments between them ([`segment_is_walkable`]) that leave
/// and reach a vertex within the node's fan, then Dijkstra.
pub struct VisibilityGraph {
    edges: Vec<(Point, Point)>,
    /// A boundary vertex and one of its fans.
    corners: Vec<(Point, Vec<TriangleId>)>,
    /// Walkable segments between corners, as adjacency lists with lengths.
    links: Vec<Vec<(usize, f64)>>,
}

impl VisibilityGraph {
    pub fn new(mesh: &NavMesh) -> Self {
        let edges = boundary_edges(mesh);
        let mut vertices: Vec<Point> = edges.iter().map(|e| e.0).collect();
        vertices.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        vertices.dedup();
        let corners: Vec<(Point, Vec<TriangleId>)> =
            vertices.iter().flat_map(|&v| fans_at(mesh, v).into_iter().map(move |fan| (v, fan))).collect();
        let mut links = vec![Vec::new(); corners.len()];
        for i in 0..corners.len() {
            for j in i + 1..corners.len() {
                let ((a, fa), (b, fb)) = (&corners[i], &corners[j]);
                if a != b && Self::joins(mesh, &edges, (*a, fa), (*b, fb)) {
                    let d = a.distance(*b);
                    links[i].push((j, d));
                    links[j].push((i, d));
                }
            }
        }
        VisibilityGraph { edges, corners, links }
    }

    /// Whether the segment between two corners is walkable, leaving each within its fan.
    fn joins(
        mesh: &NavMesh,
        edges: &[(Point, Point)],
        (a, fa): (Point, &[TriangleId]),
        (b, fb): (Point, &[TriangleId]),
    ) -> bool {
        fan_holds(mesh, fa, a, p(b.x - a.x, b.y - a.y))
            && fan_holds(mesh, fb, b, p(a.x - b.x, a.y - b.y))
            && segment_is_walkable(mesh, edges, a, b)
    }

    /// The shortest walkable length from `from` to `to` (both on the mesh, neither a vertex).
    pub fn shortest(&self, mesh: &NavMesh, from: Point, to: Point) -> Option<f64> {
        if segment_is_walkable(mesh, &self.edges, from, to) {
            return Some(from.distance(to));
        }
        let n = self.corners.len();
        let (start, goal) = (n, n + 1);
        let seen_from = |q: Point| -> Vec<(usize, f64)> {
            (0..n)
                .filter(|&i| {
                    let (v, fan) = &self.corners[i];
                    fan_holds(mesh, fan, *v, p(q.x - v.x, q.y - v.y))
                        && segment_is_walkable(mesh, &self.edges, q, *v)
                })
                .map(|i| (i, q.distance(self.corners[i].0)))
                .collect()
        };
        let (from_links, to_links) = (seen_from(from), seen_from(to));
        let mut dist = vec![f64::INFINITY; n + 2];
        let mut heap = BinaryHeap::new();
        dist[start] = 0.0;
        heap.push(Entry(0.0, start));
        while let Some(Entry(d, u)) = heap.pop() {
            if d > dist[u] {
                continue;
            }
            if u == goal {
                return Some(d);
            }
            let next: Vec<(usize, f64)> = if u == start {
                from_links.clone()
            } else {
                let mut list = self.links[u].clone();
                if let Some(&(_, l)) = to_links.iter().find(|&&(i, _)| i == u) {
                    list.push((goal, l));
                }
                list
            };
            for (v, l) in next {
                if d + l < dist[v] {
                    dist[v] = d + l;
                    heap.push(Entry(d + l, v));
                }
            }
        }
        None
    }
}

/// A Dijkstra entry, smallest distance first.
struct Entry(f64, usize);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

/// Everything a returned path must satisfy: it starts at `from` and ends at `end`, each segment
/// lies in the walkable area (a raycast walk, and points sampled along it lie on the mesh up
/// to rounding), its length is the sum of its segments and at least the straight distance.
pub fn check_path(mesh: &NavMesh, from: Point, end: Point, path: &Path) {
    assert_eq!(path.points.first(), Some(&from), "{path:?}");
    assert_eq!(path.points.last(), Some(&end), "{path:?}");
    let sum: f64 = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
    assert_eq!(path.length, sum, "length is the sum of the segments");
    assert!(path.length >= from.distance(end) * (1.0 - 1e-12), "{} < {}", path.length, from.distance(end));
    for w in path.points.windows(2) {
        let hit = mesh.raycast(w[0], w[1]).unwrap();
        assert!(hit.is_clear(), "segment {:?} -> {:?} leaves the mesh: {hit:?}", w[0], w[1]);
        for k in 1..8 {
            let s = k as f64 / 8.0;
            let q = p(w[0].x + (w[1].x - w[0].x) * s, w[0].y + (w[1].y - w[0].y) * s);
            let off = brute_nearest_distance(mesh, q, |_| true);
            assert!(off <= 1e-12 * (1.0 + q.x.abs() + q.y.abs()), "{q:?} is {off} off the mesh");
        }
    }
}
