//! Clearance: how far points and segments are from the walls, and how wide each passage through
//! a triangle is.
//!
//! Every vertex of a trinav mesh lies on a wall (the triangulation adds no point inside the
//! walkable area), which makes two things cheap:
//!
//! - **Distances to the walls** are found by a search over the triangles around a point (or
//!   along a segment) that stops at the distance of the nearest wall found so far: every vertex
//!   is a wall point, so that distance is at most the distance to the nearest vertex.
//! - **Traversal widths** (Demyen and Buro, "Efficient triangulation-based pathfinding", AAAI
//!   2006): the width of the way through triangle `CAB` from edge `CA` to edge `CB` (around
//!   corner `C`) is the diameter of the largest disc that can pass. A disc going round `C` stays
//!   clear of `C`, `A` and `B` (wall points), so the width is at most `|CA|` and `|CB|`; it must
//!   also pass between `C` and the walls across `AB`, so the width is at most the distance
//!   from `C` to any wall point beyond `AB` inside the angle at `C`. Those are found by a search
//!   across unconstrained edges, bounded by the width found so far. When the angle at `A` or
//!   `B` is not acute, no point beyond `AB` is nearer to `C` than that corner, and the width is
//!   the shorter of the two edges.
//!
//! A disc of radius `r` may go round corner `C` of a triangle when that traversal's width is
//! more than `2r`; a path search for a disc skips every other traversal.

use crate::geometry::{Orientation, Point, closest_point_on_segment, doubled_signed_area, orient};
use crate::ids::TriangleId;
use crate::mesh::NavMesh;
use crate::query::path::GenerationSet;

/// The traversal widths of every triangle: `[w0, w1, w2]`, `wk` the width of the way round
/// corner `k` (between edge `k + 2` and edge `k`, the two edges at that corner).
///
/// `open`: on a layered mesh, per vertex, whether it lies on no wall (inside a portal, where
/// the layers' triangles meet). Such a vertex bounds no width: the way round an open corner
/// is unbounded (infinite), and an open vertex elsewhere is not a wall point. A width is an
/// upper bound on the discs that pass, so leaving a bound out is safe (a disc path is
/// verified against the walls anyway).
///
/// `layers`: where layers overlap, the layer of each triangle; the searches then stay on the
/// corner's own layer (beyond a portal they could meet walls of another layer over the same
/// place), which again only leaves bounds out.
pub(crate) fn traversal_widths(
    vertices: &[Point],
    triangles: &[[crate::ids::VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
    (open, layers): (Option<&[bool]>, Option<&[crate::layers::LayerId]>),
) -> Vec<[f32; 3]> {
    let mesh = Topology { vertices, triangles, neighbours, open, layers };
    let mut search = WidthSearch::default();
    (0..triangles.len())
        .map(|t| {
            let t = TriangleId::from_index(t);
            // Stored rounded down: a width is a bound a disc must not exceed.
            std::array::from_fn(|k| round_down(search.width(&mesh, t, k)))
        })
        .collect()
}

/// The arrays a width search reads.
struct Topology<'a> {
    vertices: &'a [Point],
    triangles: &'a [[crate::ids::VertexId; 3]],
    neighbours: &'a [[TriangleId; 3]],
    /// Per vertex, whether it lies on no wall (layered meshes only).
    open: Option<&'a [bool]>,
    /// Per triangle, its layer (only where layers overlap).
    layers: Option<&'a [crate::layers::LayerId]>,
}

impl Topology<'_> {
    fn corner(&self, t: TriangleId, k: usize) -> Point {
        self.vertices[self.triangles[t.index()][k % 3].index()]
    }

    /// Whether corner `k` of `t` is a wall point.
    fn on_wall(&self, t: TriangleId, k: usize) -> bool {
        self.open.is_none_or(|open| !open[self.triangles[t.index()][k % 3].index()])
    }
}

/// Reusable memory of the width searches.
#[derive(Default)]
struct WidthSearch {
    visited: GenerationSet,
    stack: Vec<(TriangleId, usize)>,
}

/// The largest `f32` not above `v`.
fn round_down(v: f64) -> f32 {
    let f = v as f32;
    if f64::from(f) > v { f32::from_bits(f.to_bits() - 1) } else { f }
}

impl WidthSearch {
    /// The width of the way round corner `k` of triangle `t` (see the module documentation).
    fn width(&mut self, mesh: &Topology, t: TriangleId, k: usize) -> f64 {
        let (c, a, b) = (mesh.corner(t, k), mesh.corner(t, k + 1), mesh.corner(t, k + 2));
        let mut width = c.distance(a).min(c.distance(b));
        if mesh.open.is_some() {
            if !mesh.on_wall(t, k) {
                return f64::INFINITY;
            }
            let (wall_a, wall_b) = (mesh.on_wall(t, k + 1), mesh.on_wall(t, k + 2));
            width = f64::INFINITY;
            if wall_a {
                width = width.min(c.distance(a));
            }
            if wall_b {
                width = width.min(c.distance(b));
            }
            if wall_a && wall_b && (!acute_at(a, c, b) || !acute_at(b, c, a)) {
                return width;
            }
        } else if !acute_at(a, c, b) || !acute_at(b, c, a) {
            return width;
        }
        // Edge k + 1 runs from a to b. Depth first over the triangles beyond it, entered
        // through an edge nearer to `c` than the width so far, looking for wall points inside
        // the angle at `c`.
        self.visited.clear(mesh.triangles.len());
        self.visited.insert(t.index());
        self.stack.clear();
        self.stack.push((t, (k + 1) % 3));
        while let Some((from, edge)) = self.stack.pop() {
            let next = mesh.neighbours[from.index()][edge];
            if next.is_none() {
                let (p, q) = (mesh.corner(from, edge), mesh.corner(from, edge + 1));
                if let Some(d) = distance_within_angle(c, a, b, p, q, mesh.open.is_some()) {
                    width = width.min(d);
                }
                continue;
            }
            if self.visited.contains(next.index())
                || mesh.layers.is_some_and(|layers| layers[next.index()] != layers[from.index()])
            {
                continue;
            }
            self.visited.insert(next.index());
            for e in 0..3 {
                let (p, q) = (mesh.corner(next, e), mesh.corner(next, e + 1));
                if in_angle(c, a, b, p) && mesh.on_wall(next, e) {
                    width = width.min(c.distance(p));
                }
                if mesh.neighbours[next.index()][e] != from && segment_distance(c, p, q) < width {
                    self.stack.push((next, e));
                }
            }
        }
        width
    }
}

/// Relative slack of the disc tests: tangent segments touch their circles at exactly the
/// radius, up to rounding.
pub(crate) const DISC_TOLERANCE: f64 = 1e-9;

/// The open interval of `s` for which `p + s (q - p)` is nearer than `r` to segment `a b`
/// (`None` when no point of the line is). The points within `r` of the segment form a convex
/// capsule (two discs and the band between them), which a line meets in one interval: the
/// hull of where it meets each of the three parts.
pub(crate) fn line_near_segment(p: Point, q: Point, (a, b): (Point, Point), r: f64) -> Option<(f64, f64)> {
    let d = (q.x - p.x, q.y - p.y);
    let dd = d.0 * d.0 + d.1 * d.1;
    if dd == 0.0 {
        return None;
    }
    let mut hull: Option<(f64, f64)> = None;
    let mut join = |lo: f64, hi: f64| {
        if lo < hi {
            hull = Some(hull.map_or((lo, hi), |(l, h)| (l.min(lo), h.max(hi))));
        }
    };
    // The discs round the ends: |p + s d - c|² < r².
    for c in [a, b] {
        let (ox, oy) = (p.x - c.x, p.y - c.y);
        let half_b = d.0 * ox + d.1 * oy;
        let disc = half_b * half_b - dd * (ox * ox + oy * oy - r * r);
        if disc > 0.0 {
            let root = disc.sqrt();
            join((-half_b - root) / dd, (-half_b + root) / dd);
        }
    }
    // The band: 0 < along < 1 and |across| < r, each linear in s.
    let w = (b.x - a.x, b.y - a.y);
    let ww = w.0 * w.0 + w.1 * w.1;
    if ww > 0.0 {
        let length = ww.sqrt();
        let (ox, oy) = (p.x - a.x, p.y - a.y);
        // along(s) = (o + s d)·w / |w|², across(s) = cross(w, o + s d) / |w|.
        let along = ((ox * w.0 + oy * w.1) / ww, (d.0 * w.0 + d.1 * w.1) / ww);
        let across = ((w.0 * oy - w.1 * ox) / length, (w.0 * d.1 - w.1 * d.0) / length);
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        for (value, slope, min, max) in [(along.0, along.1, 0.0, 1.0), (across.0, across.1, -r, r)] {
            if slope == 0.0 {
                // Open bounds: a line at exactly `r` from the wall is not nearer than `r`.
                if value <= min || value >= max {
                    return hull;
                }
            } else {
                let (s1, s2) = ((min - value) / slope, (max - value) / slope);
                lo = lo.max(s1.min(s2));
                hi = hi.min(s1.max(s2));
            }
        }
        join(lo, hi);
    }
    hull
}

/// Whether the angle at `at` in triangle `at, u, v` is strictly acute.
fn acute_at(at: Point, u: Point, v: Point) -> bool {
    (u.x - at.x) * (v.x - at.x) + (u.y - at.y) * (v.y - at.y) > 0.0
}

/// Whether `p` lies in the closed angle at `c` between the rays to `a` and `b` (`c, a, b`
/// counter-clockwise), on the far side of line `a b` or on it.
fn in_angle(c: Point, a: Point, b: Point, p: Point) -> bool {
    orient(c, a, p) != Orientation::Clockwise
        && orient(c, b, p) != Orientation::CounterClockwise
        && orient(a, b, p) != Orientation::CounterClockwise
}

/// The distance from `c` to the part of segment `p q` inside the angle at `c` between the rays
/// to `a` and `b` (and, when `beyond`, on the far side of line `a b` from `c`), or `None` when
/// no part of it is inside. (Where every vertex lies on a wall, the walls a width search
/// reaches beyond `a b` lie there; round a vertex on no wall it can come back to `c`'s side.)
fn distance_within_angle(c: Point, a: Point, b: Point, p: Point, q: Point, beyond: bool) -> Option<f64> {
    // Clip p-q to the half-planes bounding the angle (left of c->a, right of c->b, right of
    // a->b when `beyond`).
    let mut s0 = 0.0_f64;
    let mut s1 = 1.0_f64;
    let far_side = beyond.then_some((a, b, false));
    for (from, to, keep_left) in [(c, a, true), (c, b, false)].into_iter().chain(far_side) {
        let side = |x: Point| {
            let cross = (to.x - from.x) * (x.y - from.y) - (to.y - from.y) * (x.x - from.x);
            if keep_left { cross } else { -cross }
        };
        let (dp, dq) = (side(p), side(q));
        if dp < 0.0 && dq < 0.0 {
            return None;
        }
        if dp < 0.0 {
            s0 = s0.max(dp / (dp - dq));
        } else if dq < 0.0 {
            s1 = s1.min(dp / (dp - dq));
        }
    }
    if s0 > s1 {
        return None;
    }
    let at = |s: f64| Point::new(p.x + (q.x - p.x) * s, p.y + (q.y - p.y) * s);
    Some(segment_distance(c, at(s0), at(s1)))
}

/// The distance from `p` to segment `a b` (floating point).
pub(crate) fn segment_distance(p: Point, a: Point, b: Point) -> f64 {
    segment_distance2(p, a, b).sqrt()
}

/// The squared distance from `p` to segment `a b` (floating point).
fn segment_distance2(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let length2 = dx * dx + dy * dy;
    let (px, py) = (p.x - a.x, p.y - a.y);
    let s = if length2 == 0.0 { 0.0 } else { ((px * dx + py * dy) / length2).clamp(0.0, 1.0) };
    let (ex, ey) = (px - s * dx, py - s * dy);
    ex * ex + ey * ey
}

/// The distance between segments `a b` and `c d` (0 when they cross).
pub(crate) fn segments_distance(a: Point, b: Point, c: Point, d: Point) -> f64 {
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    let opposite = |x: Orientation, y: Orientation| {
        matches!(
            (x, y),
            (Orientation::Clockwise, Orientation::CounterClockwise)
                | (Orientation::CounterClockwise, Orientation::Clockwise)
        )
    };
    if opposite(o1, o2) && opposite(o3, o4) {
        return 0.0;
    }
    segment_distance2(a, c, d)
        .min(segment_distance2(b, c, d))
        .min(segment_distance2(c, a, b))
        .min(segment_distance2(d, a, b))
        .sqrt()
}

/// Whether segments `a b` and `c d` come nearer than `reach` (positive): the decision of
/// `segments_distance(a, b, c, d) < reach` in plain floating point. Where rounding could
/// misjudge whether they cross, an end of one lies within rounding of the other, nearer than
/// any reach; so only the crossing test, which needs no exact predicate here, is cheaper.
pub(crate) fn segments_nearer(a: Point, b: Point, c: Point, d: Point, reach: f64) -> bool {
    let opposite = |x: f64, y: f64| (x < 0.0 && y > 0.0) || (x > 0.0 && y < 0.0);
    let crosses = opposite(doubled_signed_area(a, b, c), doubled_signed_area(a, b, d))
        && opposite(doubled_signed_area(c, d, a), doubled_signed_area(c, d, b));
    let r2 = reach * reach;
    crosses
        || segment_distance2(a, c, d) < r2
        || segment_distance2(b, c, d) < r2
        || segment_distance2(c, a, b) < r2
        || segment_distance2(d, a, b) < r2
}

/// Whether the bounding boxes of the point sets `a` and `b` are at least `gap` apart along x
/// or y, so that no two of their points are nearer than `gap` (a cheap test before a distance).
pub(crate) fn boxes_apart<const M: usize, const N: usize>(a: [Point; M], b: [Point; N], gap: f64) -> bool {
    let span = |ps: &[Point], f: fn(&Point) -> f64| {
        ps.iter().map(f).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    let ((ax0, ax1), (bx0, bx1)) = (span(&a, |p| p.x), span(&b, |p| p.x));
    let ((ay0, ay1), (by0, by1)) = (span(&a, |p| p.y), span(&b, |p| p.y));
    bx0 - ax1 >= gap || ax0 - bx1 >= gap || by0 - ay1 >= gap || ay0 - by1 >= gap
}

/// Reusable memory for clearance searches.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClearanceScratch {
    visited: GenerationSet,
    stack: Vec<TriangleId>,
    /// The parts of an edge too near a wall (fractions along it), for [`NavMesh::disc_cannot_cross`].
    too_near: Vec<(f64, f64)>,
    /// The walls near a point and the candidates for its nearest clear point, for
    /// [`NavMesh::nearest_clear_point`].
    walls: Vec<(Point, Point)>,
    candidates: Vec<Point>,
}

impl NavMesh {
    /// The distance from `p` to the nearest wall (the nearest point of a boundary edge), or
    /// `None` when `p` is off the mesh or not finite. An agent of radius `r` can stand at `p`
    /// when the clearance is at least `r`.
    ///
    /// Searches the triangles around `p`, nearest first in effect: a triangle farther from `p`
    /// than the nearest wall found so far is not entered. Allocates a little memory per call;
    /// path queries with a radius use the search through their scratch instead.
    ///
    /// ```
    /// # use trinav::{NavMesh, Point};
    /// # fn demo(mesh: &NavMesh) {
    /// if let Some(room) = mesh.clearance(Point::new(5.0, 5.0)) {
    ///     println!("an agent of radius up to {room} fits here");
    /// }
    /// # }
    /// ```
    pub fn clearance(&self, p: Point) -> Option<f64> {
        self.clearance_with(p, &mut ClearanceScratch::default())
    }

    /// [`NavMesh::clearance`] on layer `layer` (where layers overlap, a position may lie on
    /// several): the distance from `p` to the nearest wall along that layer's floor (walls of
    /// another layer over the same place do not count), `None` when `p` is off that layer.
    ///
    /// ```
    /// # use trinav::{LayerId, NavMesh, Point};
    /// # fn demo(mesh: &NavMesh, bridge: LayerId) {
    /// let room = mesh.clearance_on(bridge, Point::new(10.0, 5.0));
    /// # }
    /// ```
    pub fn clearance_on(&self, layer: crate::layers::LayerId, p: Point) -> Option<f64> {
        if !p.in_range() {
            return None;
        }
        let start = self.locate_on(layer, p)?;
        Some(self.clearance_beside(p, start, |_| false, &mut ClearanceScratch::default()))
    }

    /// [`NavMesh::clearance`] with reused memory.
    pub(crate) fn clearance_with(&self, p: Point, scratch: &mut ClearanceScratch) -> Option<f64> {
        if !p.in_range() {
            return None;
        }
        let start = self.locate(p)?;
        Some(self.clearance_beside(p, start, |_| false, scratch))
    }

    /// The distance from `p`, a point of triangle `start`, to the nearest wall, counting the
    /// edges into the triangles `blocked` accepts as walls.
    pub(crate) fn clearance_beside(
        &self,
        p: Point,
        start: TriangleId,
        blocked: impl Fn(TriangleId) -> bool,
        scratch: &mut ClearanceScratch,
    ) -> f64 {
        let mut best = f64::INFINITY;
        self.walls_near_beside(
            start,
            Some((p, p)),
            blocked,
            scratch,
            |a, b, best: f64| {
                let d = segment_distance(p, a, b);
                (d < best).then_some(d)
            },
            &mut best,
            |a, b, best| segment_distance(p, a, b) < best,
        );
        best
    }

    /// Whether the segment `a -> b`, which starts in triangle `start`, keeps at least `r`
    /// from every wall (every point of it farther than `r`, up to floating-point rounding of
    /// the distances).
    pub(crate) fn segment_keeps_clear(
        &self,
        start: TriangleId,
        (a, b): (Point, Point),
        r: f64,
        scratch: &mut ClearanceScratch,
    ) -> bool {
        self.nearest_wall_to_segment_from(start, (a, b), r, scratch).is_none_or(|(d, _)| d >= r)
    }

    /// The wall nearest the segment `a -> b`, which starts in triangle `start`, among those
    /// closer than `reach`, with its distance (`None` when no wall is that close).
    pub(crate) fn nearest_wall_to_segment_from(
        &self,
        start: TriangleId,
        (a, b): (Point, Point),
        reach: f64,
        scratch: &mut ClearanceScratch,
    ) -> Option<(f64, (Point, Point))> {
        let mut nearest = reach;
        let mut wall = None;
        self.walls_near(
            start,
            Some((a, b)),
            scratch,
            |p, q, best: f64| {
                if boxes_apart([a, b], [p, q], best) {
                    return None;
                }
                let d = segments_distance(a, b, p, q);
                (d < best).then(|| {
                    wall = Some((p, q));
                    d
                })
            },
            &mut nearest,
            |p, q, _| !boxes_apart([a, b], [p, q], reach) && segments_nearer(a, b, p, q, reach),
        );
        wall.map(|w| (nearest, w))
    }

    /// Appends to `out` every wall nearer than `reach` to `centre`, a point of triangle
    /// `start`.
    pub(crate) fn walls_within(
        &self,
        start: TriangleId,
        centre: Point,
        reach: f64,
        scratch: &mut ClearanceScratch,
        out: &mut Vec<(Point, Point)>,
    ) {
        let mut none = f64::INFINITY;
        self.walls_near(
            start,
            Some((centre, centre)),
            scratch,
            |p, q, _| {
                if segment_distance(centre, p, q) < reach {
                    out.push((p, q));
                }
                None
            },
            &mut none,
            |p, q, _| segment_distance(centre, p, q) < reach,
        );
    }

    /// The first chord of the polyline `chords` (its index) that a wall comes closer to than
    /// `reach`, with that wall: `chords` stay within `outer` of `centre` (an arc round it), so
    /// every wall that close is within `outer + reach` of the centre, gathered by one search
    /// from `start`, the triangle of the first point.
    pub(crate) fn nearest_wall_to_arc(
        &self,
        (start, chords): (TriangleId, &[Point]),
        centre: Point,
        outer: f64,
        reach: f64,
        scratch: &mut ClearanceScratch,
    ) -> Option<(usize, (Point, Point))> {
        let around = outer + reach;
        let mut found: Option<(usize, (Point, Point))> = None;
        let mut none = f64::INFINITY;
        self.walls_near(
            start,
            None,
            scratch,
            |p, q, _| {
                if segment_distance(centre, p, q) >= around {
                    return None;
                }
                for (j, w) in chords.windows(2).enumerate() {
                    if found.is_some_and(|(first, _)| first <= j) {
                        break;
                    }
                    if !boxes_apart([w[0], w[1]], [p, q], reach) && segments_nearer(w[0], w[1], p, q, reach) {
                        found = Some((j, (p, q)));
                        break;
                    }
                }
                None
            },
            &mut none,
            |p, q, _| segment_distance(centre, p, q) < around,
        );
        found
    }

    /// Whether a disc of radius `r` cannot cross edge `edge` of triangle `t` at all: every
    /// point of the edge is nearer than `r` (beyond the rounding of the distances) to some
    /// wall. Traversal widths bound the way round a corner of one triangle; a wall leaving a
    /// corner at a narrow angle to an edge can block the edge for a disc those widths let
    /// through (the edge's end is far enough from the opposite corner, but the wall is not).
    ///
    /// Exact up to rounding: the points of the edge's line within `r` of a wall form an
    /// interval (a line meets the wall's convex "capsule" in one piece); the edge is blocked
    /// when those intervals cover it.
    pub(crate) fn disc_cannot_cross(
        &self,
        t: TriangleId,
        edge: usize,
        r: f64,
        scratch: &mut ClearanceScratch,
    ) -> bool {
        let corners = self.triangle_points(t);
        let (p, q) = (corners[edge], corners[(edge + 1) % 3]);
        let near = r * (1.0 - DISC_TOLERANCE);
        let mut too_near = std::mem::take(&mut scratch.too_near);
        too_near.clear();
        let mut none = f64::INFINITY;
        self.walls_near(
            t,
            Some((p, q)),
            scratch,
            |a, b, _| {
                too_near.extend(line_near_segment(p, q, (a, b), near));
                None
            },
            &mut none,
            |a, b, _| !boxes_apart([p, q], [a, b], r) && segments_nearer(p, q, a, b, r),
        );
        too_near.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
        // Blocked when the open intervals leave no point of [0, 1] out: `uncovered` is the
        // first point not yet known to be covered.
        let mut uncovered = 0.0;
        let mut blocked = false;
        for &(from, to) in &too_near {
            if from >= uncovered {
                break;
            }
            uncovered = f64::max(uncovered, to);
            if uncovered > 1.0 {
                blocked = true;
                break;
            }
        }
        scratch.too_near = too_near;
        blocked
    }

    /// Appends to `out` every wall nearer than `reach` to triangle `t` (its own walls too),
    /// counting the edges into the triangles `blocked` accepts as walls, and with `owners`
    /// the triangle each is an edge of. The disc's searches under area exclusions measure
    /// against these.
    pub(crate) fn walls_near_triangle(
        &self,
        t: TriangleId,
        reach: f64,
        blocked: impl Fn(TriangleId) -> bool,
        scratch: &mut ClearanceScratch,
        (out, mut owners): (&mut Vec<(Point, Point)>, Option<&mut Vec<TriangleId>>),
    ) {
        let [c0, c1, c2] = self.triangle_points(t);
        let near = |p: Point, q: Point| {
            !boxes_apart([p, q], [c0, c1, c2], reach)
                && (segments_nearer(p, q, c0, c1, reach)
                    || segments_nearer(p, q, c1, c2, reach)
                    || segments_nearer(p, q, c2, c0, reach))
        };
        let mut none = f64::INFINITY;
        // The owner of the wall about to be measured (`counts` is asked first).
        let owner = std::cell::Cell::new(TriangleId::NONE);
        let counts = |t: TriangleId, _: (Point, Point)| {
            owner.set(t);
            true
        };
        let measure = |p: Point, q: Point, _: f64| {
            if near(p, q) {
                out.push((p, q));
                if let Some(owners) = owners.as_deref_mut() {
                    owners.push(owner.get());
                }
            }
            None
        };
        self.flood_walls(t, (blocked, counts), scratch, measure, &mut none, |p, q, _| near(p, q));
    }

    /// The distances from the segment `a -> b` (`a` a point of triangle `start`, no wall
    /// crossing it) to the nearest wall on its left and on its right that `skip` does not
    /// leave out, each at most `reach`. A wall counts on a side when some point of it lies
    /// strictly on that side of the line `a b`, or when it lies on the line.
    pub(crate) fn segment_clearance_by_side(
        &self,
        start: TriangleId,
        (a, b): (Point, Point),
        reach: f64,
        skip: impl Fn(Point, Point) -> bool,
        scratch: &mut ClearanceScratch,
    ) -> [f64; 2] {
        let mut nearest = [reach; 2];
        let mut best = reach;
        let side = |p: Point| (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
        self.walls_near(
            start,
            Some((a, b)),
            scratch,
            |p, q, best: f64| {
                if skip(p, q) || boxes_apart([a, b], [p, q], best) {
                    return None;
                }
                let d = segments_distance(a, b, p, q);
                if d >= best {
                    return None;
                }
                let (sp, sq) = (side(p), side(q));
                let on_line = sp == 0.0 && sq == 0.0;
                if on_line || sp.max(sq) > 0.0 {
                    nearest[0] = nearest[0].min(d);
                }
                if on_line || sp.min(sq) < 0.0 {
                    nearest[1] = nearest[1].min(d);
                }
                // The search goes on as far as the farther side's nearest wall.
                Some(nearest[0].max(nearest[1]))
            },
            &mut best,
            |p, q, best| !boxes_apart([a, b], [p, q], best) && segments_nearer(a, b, p, q, best),
        );
        nearest
    }

    /// Whether some wall (with the edges into the triangles `blocked` accepts) comes nearer
    /// than `reach` to the segment `a -> b`, `a` a point of triangle `start`.
    pub(crate) fn segment_meets_wall_beside(
        &self,
        start: TriangleId,
        (a, b): (Point, Point),
        reach: f64,
        blocked: impl Fn(TriangleId) -> bool,
        scratch: &mut ClearanceScratch,
    ) -> bool {
        let near =
            |p: Point, q: Point| !boxes_apart([a, b], [p, q], reach) && segments_nearer(a, b, p, q, reach);
        let mut met = f64::INFINITY;
        self.walls_near_beside(
            start,
            Some((a, b)),
            blocked,
            scratch,
            |p, q, _| near(p, q).then_some(0.0),
            &mut met,
            |p, q, met| met > 0.0 && near(p, q),
        );
        met == 0.0
    }

    /// Visits the walls of the triangles reachable from `start` through the edges `enter`
    /// accepts (given the best distance so far), updating `best` with `measure`.
    ///
    /// Searching within a convex region (a disc, or the points within a distance of a
    /// segment) only needs the edges that meet it: the straight way from the query to a wall
    /// in the region crosses nothing but such edges, or meets a wall first.
    ///
    /// `core`: the query's segment (a point: both ends the same), which starts in `start`.
    /// Where layers overlap, the search can reach walls of another layer that are near in x,
    /// y but not on the surface; with a core given, a wall counts only when it is in plain
    /// sight of the core (see [`NavMesh::wall_in_sight`]). Searches for a reach fixed in
    /// advance (is any wall nearer than `r`?) decide right without it: they can only reach
    /// another layer round a portal's end within the reach, itself a wall point.
    fn walls_near(
        &self,
        start: TriangleId,
        core: Option<(Point, Point)>,
        scratch: &mut ClearanceScratch,
        measure: impl FnMut(Point, Point, f64) -> Option<f64>,
        best: &mut f64,
        enter: impl Fn(Point, Point, f64) -> bool,
    ) {
        self.walls_near_beside(start, core, |_| false, scratch, measure, best, enter);
    }

    /// [`Self::walls_near`] where the edges into the triangles `blocked` accepts are walls too
    /// (ground excluded by a query's area costs).
    #[allow(clippy::too_many_arguments)]
    fn walls_near_beside(
        &self,
        start: TriangleId,
        core: Option<(Point, Point)>,
        blocked: impl Fn(TriangleId) -> bool,
        scratch: &mut ClearanceScratch,
        measure: impl FnMut(Point, Point, f64) -> Option<f64>,
        best: &mut f64,
        enter: impl Fn(Point, Point, f64) -> bool,
    ) {
        // Two copies of the search: one layer (or no core) keeps the plain loop.
        match core.filter(|_| self.layers_overlap()) {
            Some(core) => {
                let in_sight = |owner, wall| self.wall_in_sight(start, core, owner, wall);
                self.flood_walls(start, (blocked, in_sight), scratch, measure, best, enter);
            }
            None => self.flood_walls(start, (blocked, |_, _| true), scratch, measure, best, enter),
        }
    }

    /// The search of [`Self::walls_near_beside`]: a wall (an edge of triangle `owner`) is
    /// measured when `counts(owner, wall)`.
    fn flood_walls(
        &self,
        start: TriangleId,
        (blocked, counts): (impl Fn(TriangleId) -> bool, impl Fn(TriangleId, (Point, Point)) -> bool),
        scratch: &mut ClearanceScratch,
        mut measure: impl FnMut(Point, Point, f64) -> Option<f64>,
        best: &mut f64,
        enter: impl Fn(Point, Point, f64) -> bool,
    ) {
        scratch.visited.clear(self.triangle_count());
        scratch.stack.clear();
        scratch.stack.push(start);
        scratch.visited.insert(start.index());
        while let Some(t) = scratch.stack.pop() {
            let corners = self.triangle_points(t);
            for (e, &next) in self.neighbours(t).iter().enumerate() {
                if next.is_none() || blocked(next) {
                    let wall = (corners[e], corners[(e + 1) % 3]);
                    if !counts(t, wall) {
                        continue;
                    }
                    if let Some(d) = measure(wall.0, wall.1, *best) {
                        *best = d;
                    }
                } else if !scratch.visited.contains(next.index())
                    && enter(corners[e], corners[(e + 1) % 3], *best)
                {
                    scratch.visited.insert(next.index());
                    scratch.stack.push(next);
                }
            }
        }
    }
}

impl NavMesh {
    /// Where layers overlap: whether the wall `(a, b)`, an edge of triangle `owner`, is in
    /// plain sight of the segment `core` (which starts in `start`): from the point of the core
    /// nearest the wall (walked to along the core), the straight walk to the wall's nearest
    /// point reaches it on `owner` (or at the same vertex or side), not on another layer over
    /// the same place. A wall nearer the core than a reach is in sight of it, or another
    /// wall is nearer still and in sight (the walk towards the first is stopped by one), so
    /// leaving the others out decides "a wall within reach" exactly, and a point's distance
    /// to the walls. A core whose own walk is stopped (it crosses a wall) counts every wall.
    #[cold]
    #[inline(never)]
    pub(crate) fn wall_in_sight(
        &self,
        start: TriangleId,
        core: (Point, Point),
        owner: TriangleId,
        wall: (Point, Point),
    ) -> bool {
        let (eye, target) = nearest_points(core, wall);
        let mut tried = Vec::new();
        let on_core = if eye == core.0 {
            Some(start)
        } else {
            self.walk_segment(start, (core.0, eye), &mut tried, &mut |_, _| true)
        };
        let Some(at) = on_core else { return true };
        let mut reaches = |t: TriangleId, _: &mut crate::query::raycast::Tried| {
            t == owner || self.same_place(t, owner, target)
        };
        self.walk_segment(at, (eye, target), &mut tried, &mut reaches).is_some()
    }
}

/// The nearest points of segments `p q` and `a b` (the first on `p q`): where they cross,
/// that point twice; else an end of one and its nearest point on the other.
fn nearest_points((p, q): (Point, Point), (a, b): (Point, Point)) -> (Point, Point) {
    if let Some(x) = segment_crossing((p, q), (a, b)) {
        return (x, x);
    }
    let pairs = [
        (p, closest_point_on_segment(p, a, b)),
        (q, closest_point_on_segment(q, a, b)),
        (closest_point_on_segment(a, p, q), a),
        (closest_point_on_segment(b, p, q), b),
    ];
    pairs.into_iter().min_by(|x, y| x.0.distance(x.1).total_cmp(&y.0.distance(y.1))).expect("four pairs")
}

/// The candidates for the nearest point of the free space of a disc (at least `r` from every
/// wall): a point at distance `r` (scaled by [`SNAP_MARGIN`]) from one wall or two.
struct Candidates {
    points: Vec<Point>,
}

/// Snapped points are placed this much farther than the radius from their walls (relative),
/// so that the rounding of the distances checked later cannot put them inside it.
const SNAP_MARGIN: f64 = 1.0 + 1e-12;

impl Candidates {
    /// Points at distance `r` from wall `(a, b)` (walkable side on its left) nearest `p`: the
    /// foot on its offset line (when it falls within the wall's span) and the nearest points
    /// of the circles round its ends.
    fn one_wall(&mut self, p: Point, (a, b): (Point, Point), r: f64) {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let length = dx.hypot(dy);
        if length > 0.0 {
            let (nx, ny) = (-dy / length, dx / length);
            let s = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (length * length);
            if (0.0..=1.0).contains(&s) {
                let d = r * SNAP_MARGIN;
                self.points.push(Point::new(a.x + s * dx + nx * d, a.y + s * dy + ny * d));
            }
        }
        for v in [a, b] {
            let dist = p.distance(v);
            if dist > 0.0 {
                let k = r * SNAP_MARGIN / dist;
                self.points.push(Point::new(v.x + (p.x - v.x) * k, v.y + (p.y - v.y) * k));
            }
        }
    }

    /// Points at distance `r` from both walls: where their offset lines and end circles cross.
    fn two_walls(&mut self, (a, b): (Point, Point), (c, d): (Point, Point), r: f64) {
        let r = r * SNAP_MARGIN;
        let offset = |a: Point, b: Point| -> Option<(Point, Point)> {
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            let length = dx.hypot(dy);
            (length > 0.0).then(|| {
                let (nx, ny) = (-dy / length * r, dx / length * r);
                (Point::new(a.x + nx, a.y + ny), Point::new(b.x + nx, b.y + ny))
            })
        };
        let (l1, l2) = (offset(a, b), offset(c, d));
        if let (Some(l1), Some(l2)) = (l1, l2)
            && let Some(x) = segment_crossing(l1, l2)
        {
            self.points.push(x);
        }
        for (line, centres) in [(l1, [c, d]), (l2, [a, b])] {
            if let Some(line) = line {
                for centre in centres {
                    self.points.extend(segment_circle(line, centre, r));
                }
            }
        }
        for u in [a, b] {
            for v in [c, d] {
                self.points.extend(circle_circle(u, v, r));
            }
        }
    }
}

/// Where segments `p` and `q` cross, if they do (floating point).
fn segment_crossing((a, b): (Point, Point), (c, d): (Point, Point)) -> Option<Point> {
    crossing_fraction(a, b, c, d).map(|t| Point::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)))
}

/// Where segment `a b` crosses segment `c d`, as a fraction of `a -> b` (`None` when it does
/// not, or they are parallel; floating point).
pub(crate) fn crossing_fraction(a: Point, b: Point, c: Point, d: Point) -> Option<f64> {
    let (rx, ry, sx, sy) = (b.x - a.x, b.y - a.y, d.x - c.x, d.y - c.y);
    let denominator = rx * sy - ry * sx;
    if denominator == 0.0 {
        return None;
    }
    let t = ((c.x - a.x) * sy - (c.y - a.y) * sx) / denominator;
    let u = ((c.x - a.x) * ry - (c.y - a.y) * rx) / denominator;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

/// Where segment `a b` meets the circle of radius `r` round `centre` (0, 1 or 2 points).
fn segment_circle((a, b): (Point, Point), centre: Point, r: f64) -> impl Iterator<Item = Point> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (fx, fy) = (a.x - centre.x, a.y - centre.y);
    let qa = dx * dx + dy * dy;
    let qb = 2.0 * (fx * dx + fy * dy);
    let qc = fx * fx + fy * fy - r * r;
    let disc = qb * qb - 4.0 * qa * qc;
    let roots = if qa > 0.0 && disc >= 0.0 {
        let root = disc.sqrt();
        [(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)]
    } else {
        [f64::NAN; 2]
    };
    roots.into_iter().filter(|t| (0.0..=1.0).contains(t)).map(move |t| Point::new(a.x + t * dx, a.y + t * dy))
}

/// Where the circles of radius `r` round `u` and `v` meet (0 or 2 points).
fn circle_circle(u: Point, v: Point, r: f64) -> impl Iterator<Item = Point> {
    let d = u.distance(v);
    let points = if d > 0.0 && d <= 2.0 * r {
        let h = (r * r - 0.25 * d * d).max(0.0).sqrt();
        let m = u.midpoint(v);
        let (nx, ny) = (-(v.y - u.y) / d * h, (v.x - u.x) / d * h);
        [Some(Point::new(m.x + nx, m.y + ny)), Some(Point::new(m.x - nx, m.y - ny))]
    } else {
        [None, None]
    };
    points.into_iter().flatten()
}

impl NavMesh {
    /// The point nearest `p` where a disc of radius `r` fits (clearance at least `r`), with
    /// its triangle; `None` when none does anywhere near. The nearest point of the disc's free
    /// space is `p` itself, or at distance `r` from one wall (the foot on its offset line, or
    /// on the circle round one of its ends) or from two (where those cross): every such
    /// candidate from the walls within reach is checked, and the reach doubles until the best
    /// candidate is certainly the nearest.
    pub(crate) fn nearest_clear_point(
        &self,
        p: Point,
        r: f64,
        scratch: &mut ClearanceScratch,
    ) -> Option<(Point, TriangleId)> {
        self.nearest_clear_point_on(p, r, None, scratch)
    }

    /// [`NavMesh::nearest_clear_point`] on `layer` when given (on any otherwise).
    pub(crate) fn nearest_clear_point_on(
        &self,
        p: Point,
        r: f64,
        layer: Option<crate::layers::LayerId>,
        scratch: &mut ClearanceScratch,
    ) -> Option<(Point, TriangleId)> {
        self.nearest_clear_point_beside(p, r, layer, |_| false, scratch)
    }

    /// [`NavMesh::nearest_clear_point_on`] where the edges into the triangles `blocked` accepts
    /// are walls too, and the point is not in one of them (ground excluded by area costs).
    pub(crate) fn nearest_clear_point_beside(
        &self,
        p: Point,
        r: f64,
        layer: Option<crate::layers::LayerId>,
        blocked: impl Fn(TriangleId) -> bool + Copy,
        scratch: &mut ClearanceScratch,
    ) -> Option<(Point, TriangleId)> {
        let (q, t0) = match layer {
            Some(layer) => self.nearest_point_on(layer, p)?,
            None => self.nearest_point(p)?,
        };
        // A point on the edge of blocked ground searches from its other side.
        let t0 = if blocked(t0) { self.locate_all(q).find(|&t| !blocked(t)).unwrap_or(t0) } else { t0 };
        let (w, h) = self.bounds().size();
        let limit = p.distance(q) + w.hypot(h) + 2.0 * r;
        let mut reach = p.distance(q) + 4.0 * r;
        let mut walls = std::mem::take(&mut scratch.walls);
        let mut candidates = Candidates { points: std::mem::take(&mut scratch.candidates) };
        let nearest = loop {
            walls.clear();
            let mut none = f64::INFINITY;
            // Walls of another layer only add candidates, each checked below.
            self.walls_near_beside(
                t0,
                None,
                blocked,
                scratch,
                |a, b, _| {
                    if segment_distance(p, a, b) < reach {
                        walls.push((a, b));
                    }
                    None
                },
                &mut none,
                |a, b, _| segment_distance(p, a, b) < reach,
            );
            candidates.points.clear();
            for (i, &wall) in walls.iter().enumerate() {
                candidates.one_wall(p, wall, r);
                for &other in &walls[i + 1..] {
                    candidates.two_walls(wall, other, r);
                }
            }
            let mut best: Option<(f64, Point, TriangleId)> = None;
            for &c in &candidates.points {
                let d = c.distance(p);
                if best.is_some_and(|(bd, ..)| d >= bd) {
                    continue;
                }
                let located = match layer {
                    Some(layer) => self.locate_on(layer, c),
                    None => self.locate(c),
                };
                let Some(t) = located.filter(|&t| !blocked(t)) else { continue };
                if self.clearance_beside(c, t, blocked, scratch) >= r {
                    best = Some((d, c, t));
                }
            }
            match best {
                Some((d, c, t)) if d + r <= reach => break Some((c, t)),
                _ if reach > limit => break best.map(|(_, c, t)| (c, t)),
                _ => reach *= 2.0,
            }
        };
        (scratch.walls, scratch.candidates) = (walls, candidates.points);
        nearest
    }
}

impl NavMesh {
    /// The widest place of the walkable area: a point and its clearance, the radius of the
    /// largest agent that fits there (`None` for an empty mesh).
    ///
    /// A branch and bound over the triangles: the clearance changes no faster than the
    /// distance moved, so no point of a triangle is wider than the clearance at its centroid
    /// plus the centroid's distance to its farthest corner. The triangle of largest such bound
    /// is split in four at its edge midpoints, until no bound beats the widest centroid found
    /// by more than a thousandth; the best point is then climbed to its local top. The result
    /// is within that thousandth of the widest place (tests hold it against a dense grid of
    /// samples), and its clearance is exact: an agent of that radius fits there. Costs a
    /// clearance search per triangle and per split (a tool's query, not a game's).
    ///
    /// ```
    /// # use trinav::NavMesh;
    /// # fn demo(mesh: &NavMesh) {
    /// if let Some((at, radius)) = mesh.widest_point() {
    ///     println!("agents up to radius {radius} fit, at {at:?}");
    /// }
    /// # }
    /// ```
    pub fn widest_point(&self) -> Option<(Point, f64)> {
        /// A piece of a triangle and the most clearance any point of it can have.
        struct Piece([Point; 3], f64);
        impl PartialEq for Piece {
            fn eq(&self, other: &Self) -> bool {
                self.1 == other.1
            }
        }
        impl Eq for Piece {}
        impl PartialOrd for Piece {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for Piece {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.1.total_cmp(&other.1)
            }
        }
        let mut scratch = ClearanceScratch::default();
        let mut best: Option<(Point, f64)> = None;
        let mut open = std::collections::BinaryHeap::new();
        let mut visit = |corners: [Point; 3],
                         best: &mut Option<(Point, f64)>,
                         open: &mut std::collections::BinaryHeap<Piece>| {
            let [a, b, c] = corners;
            let centre = centroid(a, b, c);
            let Some(clearance) = self.clearance_with(centre, &mut scratch) else { return };
            if best.is_none_or(|(_, widest)| clearance > widest) {
                *best = Some((centre, clearance));
            }
            let reach = [a, b, c].iter().map(|&p| centre.distance(p)).fold(0.0, f64::max);
            open.push(Piece(corners, clearance + reach));
        };
        for t in 0..self.triangle_count() {
            visit(self.triangle_points(TriangleId(t as u32)), &mut best, &mut open);
        }
        // Splits stop at a thousandth of the widest found (and at a bound on the work, which
        // only a mesh of billions of triangles could reach).
        for _ in 0..10_000_000 {
            let (Some(Piece([a, b, c], bound)), Some((_, widest))) = (open.pop(), best) else { break };
            if bound <= widest * (1.0 + 1e-3) {
                break;
            }
            let (ab, bc, ca) = (a.midpoint(b), b.midpoint(c), c.midpoint(a));
            for piece in [[a, ab, ca], [ab, b, bc], [ca, bc, c], [bc, ca, ab]] {
                visit(piece, &mut best, &mut open);
            }
        }
        let (at, clearance) = best?;
        Some(self.climb_clearance(at, clearance, &mut scratch))
    }

    /// Climbs the clearance from `p` (clearance `clearance`). The clearance is the smallest
    /// distance to the walls, so it grows only in a direction that leads away from every wall
    /// that could become the nearest within one step, or along a ridge between two of them
    /// (where it grows to second order, as along the parabola between a wall and a corner).
    /// The directions tried: each such wall's way away from `p`, the bisector of each pair
    /// (up a ridge), the ridge itself both ways, and the eight compass points; those that do
    /// not lead towards any of the walls, fastest away first. A success grows the step, no
    /// success halves it, down to a billionth of the clearance (at a local top).
    fn climb_clearance(
        &self,
        mut p: Point,
        mut clearance: f64,
        scratch: &mut ClearanceScratch,
    ) -> (Point, f64) {
        let mut step = 0.25 * clearance;
        let (mut walls, mut away, mut directions) = (Vec::new(), Vec::new(), Vec::new());
        let compass = (0..8).map(|k| (k as f64 * std::f64::consts::FRAC_PI_4).sin_cos());
        let compass: Vec<(f64, f64)> = compass.map(|(s, c)| (c, s)).collect();
        for _ in 0..10_000 {
            if step <= clearance * 1e-9 {
                break;
            }
            let Some(start) = self.locate(p) else { break };
            walls.clear();
            self.walls_within(start, p, clearance + step, scratch, &mut walls);
            away.clear();
            away.extend(walls.iter().filter_map(|&(a, b)| {
                let q = closest_point_on_segment(p, a, b);
                let d = p.distance(q);
                (d > 0.0).then(|| ((p.x - q.x) / d, (p.y - q.y) / d))
            }));
            directions.clear();
            directions.extend_from_slice(&compass);
            for (k, g) in away.iter().enumerate() {
                for h in &away[k..] {
                    for (x, y) in [(g.0 + h.0, g.1 + h.1), (g.1 - h.1, h.0 - g.0), (h.1 - g.1, g.0 - h.0)] {
                        let norm = x.hypot(y);
                        if norm > 1e-12 {
                            directions.push((x / norm, y / norm));
                        }
                    }
                }
            }
            let rate =
                |d: &(f64, f64)| away.iter().map(|g| g.0 * d.0 + g.1 * d.1).fold(f64::INFINITY, f64::min);
            directions.retain(|d| rate(d) > -1e-9);
            directions.sort_by(|a, b| rate(b).total_cmp(&rate(a)));
            let moved = directions.iter().find_map(|&(dx, dy)| {
                let q = Point::new(p.x + step * dx, p.y + step * dy);
                self.clearance_with(q, scratch).filter(|&d| d > clearance).map(|d| (q, d))
            });
            match moved {
                Some((q, d)) => {
                    (p, clearance) = (q, d);
                    step *= 1.5;
                }
                None => step *= 0.5,
            }
        }
        (p, clearance)
    }
}

/// The centroid of triangle `a b c`.
fn centroid(a: Point, b: Point, c: Point) -> Point {
    Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interval of the line `(0, 0) -> (10, 0)` within `r` of a wall, in world x.
    fn near_x(wall: (Point, Point), r: f64) -> Option<(f64, f64)> {
        line_near_segment(Point::new(0.0, 0.0), Point::new(10.0, 0.0), wall, r)
            .map(|(a, b)| (10.0 * a, 10.0 * b))
    }

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12
    }

    #[test]
    fn segments_nearer_decides_as_the_exact_distance_does() {
        let p = Point::new;
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Coordinates on a coarse grid, so that touching, collinear and crossing segments
            // come up often.
            (rng % 9) as f64 * 0.5
        };
        for _ in 0..20_000 {
            let (a, b, c, d) = (p(next(), next()), p(next(), next()), p(next(), next()), p(next(), next()));
            for reach in [1e-9, 0.25, 0.5, 1.0] {
                let exact = segments_distance(a, b, c, d) < reach;
                assert_eq!(segments_nearer(a, b, c, d, reach), exact, "{a:?} {b:?} {c:?} {d:?} {reach}");
            }
        }
        // Crossing in the middle, far from every end.
        assert!(segments_nearer(p(0., 0.), p(10., 10.), p(0., 10.), p(10., 0.), 0.1));
    }

    #[test]
    fn a_line_meets_a_parallel_walls_capsule_between_its_end_circles() {
        // Wall 1 above the line: its end circles reach sqrt(2² - 1²) beyond its ends.
        let wall = (Point::new(4.0, 1.0), Point::new(6.0, 1.0));
        let s = 3f64.sqrt();
        assert!(close(near_x(wall, 2.0).unwrap(), (4.0 - s, 6.0 + s)));
        // The same wall reversed gives the same interval; out of reach, none.
        assert!(close(near_x((wall.1, wall.0), 2.0).unwrap(), (4.0 - s, 6.0 + s)));
        assert_eq!(near_x(wall, 1.0), None);
    }

    #[test]
    fn a_line_meets_an_oblique_walls_capsule_where_its_band_and_circles_reach() {
        // A wall crossing the line at x = 5 at 45 degrees: the band reaches r sqrt(2) either
        // side of the crossing, and the end circles (centres 3 away) no farther.
        let wall = (Point::new(2.0, -3.0), Point::new(8.0, 3.0));
        let r = 0.5;
        let reach = r * 2f64.sqrt();
        assert!(close(near_x(wall, r).unwrap(), (5.0 - reach, 5.0 + reach)));
        // A wall ending on the line: the end circle rounds off the band's far side.
        let ending = (Point::new(5.0, 0.0), Point::new(8.0, 3.0));
        let (from, to) = near_x(ending, r).unwrap();
        assert!((from - (5.0 - r)).abs() < 1e-12 && (to - (5.0 + reach)).abs() < 1e-12, "{from} {to}");
    }

    #[test]
    fn a_wall_along_the_line_covers_it_from_end_to_end() {
        let wall = (Point::new(-1.0, 0.0), Point::new(11.0, 0.0));
        assert!(close(near_x(wall, 0.5).unwrap(), (-1.5, 11.5)));
    }
}
