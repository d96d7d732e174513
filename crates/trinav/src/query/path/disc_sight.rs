//! The vertices in sight of a mesh vertex: a walk over the triangles seen from it (triangular
//! expansion, Bungiu, Hemmer, Hershberger, Huang and Kröller 2014), narrowing a wedge of
//! directions at each edge it looks through.
//!
//! The disc's optimal search tries tangents from a corner's circle only to the corners this
//! walk finds: a tangent between two circles keeps the radius from every wall only if the
//! segment between their centres meets no wall (see [`super::disc_optimal`]). The walk is
//! closed: a vertex on the edge of the wedge (a direction grazing a wall's end) counts as in
//! sight, so it can only find more vertices than a disc needs, never fewer; the tangents it
//! yields are still tested against the walls.

use std::sync::atomic::{AtomicU16, Ordering};

use crate::geometry::{Orientation, Point, orient};
use crate::ids::{HalfEdge, TriangleId, VertexId};
use crate::mesh::NavMesh;
use crate::query::path::GenerationSet;

/// A corner's sight list is kept from its this-many-th expansion on: a corner expanded fewer
/// times (on open maps most are, and their lists are long) is walked within each query's
/// bound instead.
const KEEP_FROM_USE: u32 = 4;

/// The bits of a sight list entry that hold the corner; the two above say for which sides
/// of the eye's circle it is kept (see [`NavMesh::corners_in_sight`]).
pub(crate) const SIGHT_CORNER: u32 = (1 << 30) - 1;

/// The bit of a sight list entry for tangents leaving the eye's circle on `side`
/// (counter-clockwise: positive).
pub(crate) fn sight_side(side: f64) -> u32 {
    if side > 0.0 { 1 << 30 } else { 1 << 31 }
}

/// A wedge of directions from the eye, through edge `edge` of the triangle it enters: every
/// direction from `right` counter-clockwise to `left`, both on the edge's line or beyond it.
/// Triangles are counter-clockwise and the eye is outside the entered one, so seen from the
/// eye the edge runs from its end `edge + 1` on the right to its end `edge` on the left, and
/// the far vertex is `edge + 2`.
#[derive(Clone, Copy, Debug)]
struct Window {
    triangle: TriangleId,
    edge: usize,
    right: Point,
    left: Point,
}

/// Reusable memory of the walk.
#[derive(Clone, Debug, Default)]
pub(crate) struct SightScratch {
    windows: Vec<Window>,
    seen: GenerationSet,
}

/// Whether `p` is in the closed wedge of directions from `eye`, from `right` counter-clockwise
/// to `left` (a wedge of less than a half turn).
fn in_wedge(eye: Point, right: Point, left: Point, p: Point) -> bool {
    orient(eye, right, p) != Orientation::Clockwise && orient(eye, p, left) != Orientation::Clockwise
}

/// The least of `|w - a| + |w - b|` over the points `w` of segment `s`: by the triangle
/// inequality, no point seen from `a` through `s` is nearer both together.
pub(crate) fn least_sum_through(a: Point, b: Point, s: [Point; 2]) -> f64 {
    let d = (s[1].x - s[0].x, s[1].y - s[0].y);
    let length2 = d.0 * d.0 + d.1 * d.1;
    if length2 == 0.0 {
        return s[0].distance(a) + s[0].distance(b);
    }
    let along = |p: Point| ((p.x - s[0].x) * d.0 + (p.y - s[0].y) * d.1) / length2;
    let off = |p: Point| ((p.x - s[0].x) * d.1 - (p.y - s[0].y) * d.0).abs();
    // The shortest way from `a` to `b` through the line (b mirrored onto a's other side when
    // both are on one side: the distances stay the same) crosses it in proportion to the
    // distances off it; the sum is convex along the line, so the segment's best is that
    // crossing clamped to the segment.
    let (oa, ob) = (off(a), off(b));
    let (ta, tb) = (along(a), along(b));
    let t = if oa + ob == 0.0 { ta } else { ta + (tb - ta) * oa / (oa + ob) };
    let t = t.clamp(0.0, 1.0);
    let w = Point::new(s[0].x + t * d.0, s[0].y + t * d.1);
    w.distance(a) + w.distance(b)
}

/// Calls `visit` for `v` unless it was seen already.
fn report(v: VertexId, seen: &mut GenerationSet, visit: &mut impl FnMut(VertexId)) {
    if !seen.contains(v.index()) {
        seen.insert(v.index());
        visit(v);
    }
}

impl NavMesh {
    /// The turning corners in sight of corner `corner` (see [`Self::vertices_in_sight`]),
    /// nearest first, the corner itself left out, once the corner has been expanded often
    /// enough to keep them ([`KEEP_FROM_USE`]; the list is then walked and allocated, once per
    /// corner and mesh); `None` before, and on meshes with more corners than an entry holds.
    /// Each entry is a corner ([`SIGHT_CORNER`] bits) and, per side of `corner`'s circle
    /// ([`sight_side`]), whether a tangent from that side may reach it taut at some radius
    /// ([`super::disc_optimal::may_be_taut`]); entries for neither side are left out.
    pub(crate) fn corners_in_sight(&self, corner: u32, scratch: &mut SightScratch) -> Option<&[u32]> {
        let corners = self.disc_corner_index();
        let kept = &corners.in_sight[corner as usize];
        if let Some(list) = kept.list.get() {
            return Some(list);
        }
        if corners.list.len() > SIGHT_CORNER as usize
            || kept.uses.fetch_add(1, Ordering::Relaxed) + 1 < KEEP_FROM_USE
        {
            return None;
        }
        Some(kept.list.get_or_init(|| {
            let eye = &corners.list[corner as usize];
            let mut found = Vec::new();
            let everywhere = |_: [Point; 2]| true;
            self.vertices_in_sight(eye.vertex, eye.triangle, everywhere, scratch, |v| {
                found.extend(corners.at_vertex(v));
            });
            found.retain(|&c| c != corner);
            let away = |c: &u32| corners.list[*c as usize].centre.distance(eye.centre);
            found.sort_by(|a, b| away(a).total_cmp(&away(b)).then(a.cmp(b)));
            let sides = |c: u32| {
                let may = |side| super::disc_optimal::may_be_taut(eye, side, &corners.list[c as usize]);
                c | [1.0, -1.0].into_iter().filter(|&side| may(side)).map(sight_side).fold(0, |a, b| a | b)
            };
            let list: Box<[u32]> =
                found.into_iter().map(sides).filter(|entry| entry & !SIGHT_CORNER != 0).collect();
            let unknown = || AtomicU16::new(super::disc_optimal::FREE_UNKNOWN);
            kept.free.get_or_init(|| list.iter().flat_map(|_| [unknown(), unknown()]).collect());
            list
        }))
    }

    /// Calls `visit` once for every vertex in sight of `eye` (a vertex of the mesh) through
    /// its fan that starts at `first`: the triangle at `eye` whose edge leaving `eye`
    /// counter-clockwise is a wall (a [`super::DiscCorner`]'s triangle), walked to the fan's
    /// other wall. `worth(edge)` may cut off every direction through an edge: vertices seen
    /// only through it are not visited.
    pub(crate) fn vertices_in_sight(
        &self,
        eye: VertexId,
        first: TriangleId,
        mut worth: impl FnMut([Point; 2]) -> bool,
        scratch: &mut SightScratch,
        mut visit: impl FnMut(VertexId),
    ) {
        let triangles = self.triangles();
        let vertices = self.vertices();
        scratch.seen.clear(vertices.len());
        scratch.seen.insert(eye.index());
        scratch.windows.clear();
        // The fan round the eye: every vertex of it is in sight, and each triangle's far edge
        // (from its vertex `k + 1` on the right to `k + 2` on the left, seen from the eye inside
        // the counter-clockwise triangle) opens a window.
        let mut cur = first;
        for _ in 0..triangles.len() {
            let tri = triangles[cur.index()];
            let k = tri.iter().position(|&v| v == eye).expect("the fan holds the eye");
            let (a, b) = (tri[(k + 1) % 3], tri[(k + 2) % 3]);
            report(a, &mut scratch.seen, &mut visit);
            report(b, &mut scratch.seen, &mut visit);
            let ends = (vertices[a.index()], vertices[b.index()]);
            self.narrow(HalfEdge::new(cur, (k + 1) % 3), ends, &mut worth, &mut scratch.windows);
            cur = self.neighbours(cur)[(k + 2) % 3];
            if cur.is_none() || cur == first {
                break;
            }
        }
        self.look_through_windows(vertices[eye.index()], worth, scratch, visit);
    }

    /// Calls `visit` once for every vertex in sight of point `eye`, which lies in each of the
    /// triangles `at` and in no other (all of them: where it lies on an edge or a vertex, the
    /// triangles on every side). `worth` as in [`Self::vertices_in_sight`].
    pub(crate) fn vertices_in_sight_of_point(
        &self,
        eye: Point,
        at: &[TriangleId],
        mut worth: impl FnMut([Point; 2]) -> bool,
        scratch: &mut SightScratch,
        mut visit: impl FnMut(VertexId),
    ) {
        let vertices = self.vertices();
        scratch.seen.clear(vertices.len());
        scratch.windows.clear();
        // Each edge of the triangles round the eye that leads out of them opens a window,
        // from its first end on the right to its second on the left: the eye is inside the
        // counter-clockwise triangle, or on an edge that leads to another of them.
        for &t in at {
            let tri = self.triangles()[t.index()];
            for e in 0..3 {
                report(tri[e], &mut scratch.seen, &mut visit);
                if !at.contains(&self.neighbours(t)[e]) {
                    let ends = (vertices[tri[e].index()], vertices[tri[(e + 1) % 3].index()]);
                    self.narrow(HalfEdge::new(t, e), ends, &mut worth, &mut scratch.windows);
                }
            }
        }
        self.look_through_windows(eye, worth, scratch, visit);
    }

    /// The walk itself: takes windows from `scratch` until none is left, reporting the far
    /// vertex of each triangle a window enters when it lies in the window's wedge, and
    /// pushing the narrowed windows through its two other edges.
    fn look_through_windows(
        &self,
        p: Point,
        mut worth: impl FnMut([Point; 2]) -> bool,
        scratch: &mut SightScratch,
        mut visit: impl FnMut(VertexId),
    ) {
        let triangles = self.triangles();
        let vertices = self.vertices();
        while let Some(w) = scratch.windows.pop() {
            let tri = triangles[w.triangle.index()];
            let z = tri[(w.edge + 2) % 3];
            let pz = vertices[z.index()];
            if in_wedge(p, w.right, w.left, pz) {
                report(z, &mut scratch.seen, &mut visit);
            }
            // Through the edge from the right end to the far vertex: directions from the
            // window's right up to the far vertex, where it is right of the window's left.
            let left = if orient(p, pz, w.left) == Orientation::CounterClockwise { pz } else { w.left };
            if orient(p, w.right, left) == Orientation::CounterClockwise {
                let through = HalfEdge::new(w.triangle, (w.edge + 1) % 3);
                self.narrow(through, (w.right, left), &mut worth, &mut scratch.windows);
            }
            let right = if orient(p, w.right, pz) == Orientation::CounterClockwise { pz } else { w.right };
            if orient(p, right, w.left) == Orientation::CounterClockwise {
                let through = HalfEdge::new(w.triangle, (w.edge + 2) % 3);
                self.narrow(through, (right, w.left), &mut worth, &mut scratch.windows);
            }
        }
    }

    /// Pushes the window through half-edge `through` (out of the triangle on the eye's side)
    /// into the triangle beyond, for the directions from `right` to `left`, unless the edge
    /// is a wall or `worth` cuts it off.
    fn narrow(
        &self,
        through: HalfEdge,
        (right, left): (Point, Point),
        worth: &mut impl FnMut([Point; 2]) -> bool,
        windows: &mut Vec<Window>,
    ) {
        let (t, e) = (through.triangle(), through.edge());
        let beyond = self.neighbours(t)[e];
        if beyond.is_none() {
            return;
        }
        let tri = self.triangles()[t.index()];
        let ends = [tri[e], tri[(e + 1) % 3]].map(|v| self.vertices()[v.index()]);
        if worth(ends) {
            let edge =
                self.neighbours(beyond).iter().position(|&n| n == t).expect("neighbours are symmetric");
            windows.push(Window { triangle: beyond, edge, right, left });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A room [0, 10]² round a square hole [4, 6]², in 8 triangles (vertices 0-3 the room's
    /// corners, 4-7 the hole's).
    fn room_with_hole() -> NavMesh {
        let vertices = [(0, 0), (10, 0), (10, 10), (0, 10), (4, 4), (6, 4), (6, 6), (4, 6)]
            .map(|(x, y)| Point::new(f64::from(x), f64::from(y)))
            .to_vec();
        let triangles: Vec<[VertexId; 3]> =
            [[0, 1, 5], [0, 5, 4], [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]]
                .iter()
                .map(|t| t.map(VertexId))
                .collect();
        NavMesh::from_parts(crate::test_meshes::parts_of(vertices, triangles)).expect("a valid mesh")
    }

    /// Whether the open segment `a -> b` meets the open hole (4, 6)²: exactly, on the doubled
    /// (integer) coordinates of points on the half-unit grid, by clipping `t` to each slab.
    fn crosses_hole(a: Point, b: Point) -> bool {
        let (mut lo, mut hi) = ((0i64, 1i64), (1i64, 1i64));
        for (from, to) in [(a.x, b.x), (a.y, b.y)] {
            let (from, d) = ((2.0 * from) as i64, (2.0 * (to - from)) as i64);
            let (low, high) = (8 - from, 12 - from);
            if d == 0 {
                if low >= 0 || high <= 0 {
                    return false;
                }
                continue;
            }
            let (enter, leave) = if d > 0 { ((low, d), (high, d)) } else { ((-high, -d), (-low, -d)) };
            if enter.0 * lo.1 > lo.0 * enter.1 {
                lo = enter;
            }
            if leave.0 * hi.1 < hi.0 * leave.1 {
                hi = leave;
            }
        }
        lo.0 * hi.1 < hi.0 * lo.1
    }

    #[test]
    fn the_walk_sees_what_the_hole_does_not_hide() {
        let mesh = room_with_hole();
        let mut scratch = SightScratch::default();
        let everywhere = |_: [Point; 2]| true;
        let in_sight_of = |eye: Point| -> Vec<u32> {
            (0..8).filter(|&v| !crosses_hole(eye, mesh.vertices()[v as usize])).collect()
        };
        // From points on the half-unit grid (inside triangles, on their edges, at the room's
        // corners): the triangles holding the point are where the walk starts.
        let mut checked = 0;
        for (i, j) in (0..=20).flat_map(|i| (0..=20).map(move |j| (i, j))) {
            let eye = Point::new(f64::from(i) * 0.5, f64::from(j) * 0.5);
            let at: Vec<TriangleId> = mesh.locate_all(eye).collect();
            if at.is_empty() || (4.0..=6.0).contains(&eye.x) && (4.0..=6.0).contains(&eye.y) {
                continue;
            }
            let mut seen = Vec::new();
            mesh.vertices_in_sight_of_point(eye, &at, everywhere, &mut scratch, |v| seen.push(v.0));
            seen.sort_unstable();
            assert_eq!(seen, in_sight_of(eye), "from {eye:?}");
            checked += 1;
        }
        assert_eq!(checked, 21 * 21 - 25);
        // From the hole's corners, through each one's fan: the corner itself is left out.
        for corner in &mesh.disc_corner_index().list {
            let mut seen = Vec::new();
            mesh.vertices_in_sight(corner.vertex, corner.triangle, everywhere, &mut scratch, |v| {
                seen.push(v.0)
            });
            seen.sort_unstable();
            let mut expected = in_sight_of(corner.centre);
            expected.retain(|&v| v != corner.vertex.0);
            assert_eq!(seen, expected, "from corner {:?}", corner.centre);
        }
        assert_eq!(mesh.disc_corner_index().list.len(), 4, "the hole's four corners turn");
    }

    #[test]
    fn least_sum_through_a_segment() {
        let (a, b) = (Point::new(0.0, 0.0), Point::new(4.0, 0.0));
        // Crossed between the two: the straight distance.
        let s = [Point::new(2.0, -1.0), Point::new(2.0, 1.0)];
        assert!((least_sum_through(a, b, s) - 4.0).abs() < 1e-12);
        // Both on one side: mirrored, 3-4-5 twice.
        let s = [Point::new(-10.0, 3.0), Point::new(10.0, 3.0)];
        assert!((least_sum_through(a, b, s) - 2.0 * 13f64.sqrt()).abs() < 1e-12);
        // The best point of the line is off the segment: its nearer end.
        let s = [Point::new(5.0, 3.0), Point::new(10.0, 3.0)];
        let end = Point::new(5.0, 3.0);
        assert!((least_sum_through(a, b, s) - (end.distance(a) + end.distance(b))).abs() < 1e-12);
    }
}
