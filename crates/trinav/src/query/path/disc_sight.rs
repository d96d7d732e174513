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

use crate::geometry::{Orientation, Point, orient};
use crate::ids::{HalfEdge, TriangleId, VertexId};
use crate::mesh::NavMesh;
use crate::query::path::GenerationSet;

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

impl NavMesh {
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
        let p = vertices[eye.index()];
        scratch.seen.clear(vertices.len());
        scratch.seen.insert(eye.index());
        scratch.windows.clear();
        let mut report = |v: VertexId, seen: &mut GenerationSet| {
            if !seen.contains(v.index()) {
                seen.insert(v.index());
                visit(v);
            }
        };
        // The fan round the eye: every vertex of it is in sight, and each triangle's far edge
        // (from its vertex `k + 1` on the right to `k + 2` on the left, seen from the eye inside
        // the counter-clockwise triangle) opens a window.
        let mut cur = first;
        for _ in 0..triangles.len() {
            let tri = triangles[cur.index()];
            let k = tri.iter().position(|&v| v == eye).expect("the fan holds the eye");
            let (a, b) = (tri[(k + 1) % 3], tri[(k + 2) % 3]);
            report(a, &mut scratch.seen);
            report(b, &mut scratch.seen);
            let ends = (vertices[a.index()], vertices[b.index()]);
            self.narrow(HalfEdge::new(cur, (k + 1) % 3), ends, &mut worth, &mut scratch.windows);
            cur = self.neighbours(cur)[(k + 2) % 3];
            if cur.is_none() || cur == first {
                break;
            }
        }
        while let Some(w) = scratch.windows.pop() {
            let tri = triangles[w.triangle.index()];
            let z = tri[(w.edge + 2) % 3];
            let pz = vertices[z.index()];
            if in_wedge(p, w.right, w.left, pz) {
                report(z, &mut scratch.seen);
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
