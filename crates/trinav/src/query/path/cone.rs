//! The fast search's node: a cone, the part of an edge a *root* sees through the corridor of
//! triangles crossed so far (the funnel algorithm's state, carried per triangle).
//!
//! The root is the start or a mesh vertex where the way bends. Two lines through the root bound
//! the cone: one through a vertex on its left, one through a vertex on its right (or through
//! the edge's own ends). The estimate of a path through the cone is the root's distance from the
//! start plus the shortest way from the root through the seen part of the edge to the goal: a
//! straight line when the goal lies between the lines, otherwise a bend at the edge point where
//! the line nearer the goal crosses it. Only the leg beyond the edge is weighted (the leg to the
//! edge is seen, hence known).
//!
//! Expanding a triangle projects its cone onto the two far edges. A far edge that the cone misses
//! (wholly or in part) is reached by turning at the vertex of the line on that side, as the funnel
//! algorithm moves its apex: the new root, seeing the whole edge. Each far edge takes the
//! candidate (seen from the old root, or from a turn) with the lowest estimate.
//!
//! Floating point throughout: a cone only steers the search. The path itself comes from the
//! funnel over the corridor found, with exact predicates.

use crate::geometry::Point;
use crate::ids::{HalfEdge, TriangleId};
use crate::mesh::NavMesh;

/// The root id of the start point (mesh vertices are their ids).
pub(crate) const START: u32 = u32::MAX;
/// A line id meaning "through the edge's own end on that side".
pub(crate) const EDGE_END: u32 = u32::MAX;

/// A root and the two lines through it that bound what it sees of the edge a triangle was
/// entered through (see the module documentation). 12 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cone {
    /// [`START`] or a vertex id.
    pub(crate) root: u32,
    /// The vertex the left line passes through, or [`EDGE_END`].
    pub(crate) left: u32,
    /// The vertex the right line passes through, or [`EDGE_END`].
    pub(crate) right: u32,
}

impl Cone {
    /// The start sees the whole edge.
    pub(crate) const FROM_START: Cone = Cone { root: START, left: EDGE_END, right: EDGE_END };

    /// `root` sees the whole edge.
    fn whole(root: u32) -> Cone {
        Cone { root, left: EDGE_END, right: EDGE_END }
    }
}

/// A node to enter: the cone on an edge, the distance from the start to its root and the
/// estimate f of the whole path through it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Successor {
    pub(crate) cone: Cone,
    pub(crate) g: f64,
    pub(crate) f: f64,
}

/// The far edges of a triangle, left and right of the way in: `p` and `q` are the left and
/// right ends of the edge it was entered through, `v` the opposite corner.
pub(crate) struct FarEdges {
    pub(crate) edges: [HalfEdge; 2],
    p: u32,
    q: u32,
    v: u32,
}

/// An edge as the estimates of cones on it see it.
pub(crate) struct EdgeView {
    /// Its left and right end (vertex ids) as seen crossing it.
    ends: (u32, u32),
    a: Point,
    b: Point,
    /// The goal, mirrored across the edge when on the near side.
    goal: Point,
}

/// Twice the signed area of `o a b` (positive: `b` left of `o -> a`).
#[inline]
fn cross(o: Point, a: Point, b: Point) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// Where the line from `root` through `through` crosses the segment `a b`, clamped to it (its
/// middle when the line is parallel to it).
#[inline]
fn line_crossing(root: Point, through: Point, a: Point, b: Point) -> Point {
    let (ca, cb) = (cross(root, through, a), cross(root, through, b));
    let s = if ca == cb { 0.5 } else { (ca / (ca - cb)).clamp(0.0, 1.0) };
    Point::new(a.x + s * (b.x - a.x), a.y + s * (b.y - a.y))
}

/// The geometry of one query's cones.
pub(crate) struct Cones<'a> {
    pub(crate) mesh: &'a NavMesh,
    pub(crate) from: Point,
    pub(crate) to: Point,
    /// The weight of the leg beyond the edge.
    pub(crate) weight: f64,
}

impl Cones<'_> {
    /// The position of a root or line vertex.
    #[inline]
    pub(crate) fn point(&self, id: u32) -> Point {
        if id == START { self.from } else { self.mesh.vertices()[id as usize] }
    }

    /// The ends of `edge` as seen crossing it: (left, right) vertex ids.
    #[inline]
    pub(crate) fn ends(&self, edge: HalfEdge) -> (u32, u32) {
        let tri = self.mesh.triangles()[edge.triangle().index()];
        let k = edge.edge();
        (tri[(k + 1) % 3].0, tri[k].0)
    }

    /// The vertices the cone's left and right lines pass through, on an edge with ends `ends`.
    #[inline]
    fn lines(cone: Cone, (a, b): (u32, u32)) -> (u32, u32) {
        (
            if cone.left == EDGE_END { a } else { cone.left },
            if cone.right == EDGE_END { b } else { cone.right },
        )
    }

    /// What the estimates of cones on the edge with `ends` (left, right as seen crossing it)
    /// share: its ends and the goal as seen across it.
    #[inline]
    pub(crate) fn view(&self, ends: (u32, u32)) -> EdgeView {
        let (a, b) = (self.point(ends.0), self.point(ends.1));
        // Roots are on the right of a -> b; a goal on that side too is mirrored across the
        // edge (the way to it crosses the edge and comes back).
        let mut goal = self.to;
        let side = cross(b, a, goal);
        if side > 0.0 {
            let (dx, dy) = (a.x - b.x, a.y - b.y);
            let k = 2.0 * side / (dx * dx + dy * dy);
            goal = Point::new(goal.x + k * dy, goal.y - k * dx);
        }
        EdgeView { ends, a, b, goal }
    }

    /// The estimate f of a path through `cone` on the edge of `view`, its root `g` from the
    /// start.
    #[inline]
    pub(crate) fn estimate(&self, view: &EdgeView, cone: Cone, g: f64) -> f64 {
        let (a, b, goal) = (view.a, view.b, view.goal);
        let root = self.point(cone.root);
        let w = self.weight;
        if cone.root == view.ends.0 || cone.root == view.ends.1 {
            // The root is an end of the edge: it sees all beyond.
            return g + w * root.distance(goal);
        }
        let (left, right) = Self::lines(cone, view.ends);
        let bend = |line: u32| {
            let x = self.crossing(root, line, view);
            g + root.distance(x) + w * x.distance(goal)
        };
        if cross(root, self.point(left), goal) > 0.0 {
            bend(left)
        } else if cross(root, self.point(right), goal) < 0.0 {
            bend(right)
        } else {
            // Straight from the root to the goal, crossing the edge a fraction t of the way.
            let (to_root, to_goal) = (cross(b, a, root).abs(), cross(b, a, goal).abs());
            let t = if to_root + to_goal > 0.0 { to_root / (to_root + to_goal) } else { 0.0 };
            g + root.distance(goal) * (t + w * (1.0 - t))
        }
    }

    /// The part of the edge with `ends` (left, right) that the root of `cone` sees: from where
    /// its left line crosses the edge to where its right line does.
    pub(crate) fn seen(&self, cone: Cone, ends: (u32, u32)) -> (Point, Point) {
        let view = EdgeView { ends, a: self.point(ends.0), b: self.point(ends.1), goal: self.to };
        if cone.root == ends.0 || cone.root == ends.1 {
            return (view.a, view.b);
        }
        let root = self.point(cone.root);
        let (left, right) = Self::lines(cone, ends);
        (self.crossing(root, left, &view), self.crossing(root, right, &view))
    }

    /// Where the line from `root` through vertex `line` crosses the edge of `view` (clamped
    /// to the edge).
    fn crossing(&self, root: Point, line: u32, view: &EdgeView) -> Point {
        let (a, b) = (view.a, view.b);
        if line == view.ends.0 {
            return a;
        }
        if line == view.ends.1 {
            return b;
        }
        line_crossing(root, self.point(line), a, b)
    }

    /// The length estimate of the way from the root of `cone` (entered through `entry`, `g`
    /// from the start) to the goal, which lies in the triangle: straight, or bent at a line's
    /// vertex when the goal is outside the cone.
    pub(crate) fn to_goal(&self, cone: Cone, g: f64, entry: HalfEdge) -> f64 {
        let ends = self.ends(entry);
        let root = self.point(cone.root);
        if cone.root != ends.0 && cone.root != ends.1 {
            let (left, right) = Self::lines(cone, ends);
            for (line, outside) in [(left, 1.0), (right, -1.0)] {
                let through = self.point(line);
                if outside * cross(root, through, self.to) > 0.0 {
                    return g + root.distance(through) + through.distance(self.to);
                }
            }
        }
        g + root.distance(self.to)
    }

    /// The two far edges of triangle `here`, entered through its edge `i`.
    #[inline]
    pub(crate) fn far_edges(&self, here: TriangleId, i: usize) -> FarEdges {
        let tri = self.mesh.triangles()[here.index()];
        // Crossing edge i (tri[i] -> tri[i + 1] in `here`) inwards, tri[i] is on the left.
        let (p, q, v) = (tri[i].0, tri[(i + 1) % 3].0, tri[(i + 2) % 3].0);
        // Edge i + 2 runs v -> p (left end p, right end v), edge i + 1 runs q -> v.
        FarEdges { edges: [HalfEdge::new(here, (i + 2) % 3), HalfEdge::new(here, (i + 1) % 3)], p, q, v }
    }

    /// The successors of a triangle entered with `cone` (`g` from the start to its root),
    /// through its far edges (left, right): for each edge the search may enter (`wanted`), the
    /// candidate with the lowest estimate.
    // Always inlined: the plain search's hottest step (out of line since the weighted search
    // calls it too, it cost the plain search 1.5% more instructions).
    #[inline(always)]
    pub(crate) fn successors(
        &self,
        far: &FarEdges,
        cone: Cone,
        g: f64,
        wanted: [bool; 2],
    ) -> [Option<Successor>; 2] {
        let (p, q, v) = (far.p, far.q, far.v);
        let far_ends = [(p, v), (v, q)];
        // The candidate with the lowest estimate on far edge k.
        let best = |k: usize, candidates: [Option<(Cone, f64)>; 3]| {
            let view = self.view(far_ends[k]);
            let mut best: Option<Successor> = None;
            for (cone, g) in candidates.into_iter().flatten() {
                let f = self.estimate(&view, cone, g);
                if best.is_none_or(|b| f < b.f) {
                    best = Some(Successor { cone, g, f });
                }
            }
            best
        };
        if cone.root == p || cone.root == q {
            // The root is a corner of this triangle and sees all of it.
            let whole = Some((Cone::whole(cone.root), g));
            return [0, 1].map(|k| if wanted[k] { best(k, [whole, None, None]) } else { None });
        }
        let root = self.point(cone.root);
        let (left, right) = Self::lines(cone, (p, q));
        let (left_at, right_at) = (self.point(left), self.point(right));
        let opposite = self.point(v);
        // v strictly right of the left line / strictly left of the right line: inside.
        let v_in_left = cross(root, left_at, opposite) < 0.0;
        let v_in_right = cross(root, right_at, opposite) > 0.0;
        let goal_left = cross(root, left_at, self.to) > 0.0;
        let goal_right = cross(root, right_at, self.to) < 0.0;
        // Turning at a line's vertex, worth trying only where the goal lies beyond that line
        // or nothing of the edge is seen.
        let turn_left = |worth: bool| worth.then(|| (Cone::whole(left), g + root.distance(left_at)));
        let turn_right = |worth: bool| worth.then(|| (Cone::whole(right), g + root.distance(right_at)));
        let mut out = [None, None];
        if wanted[0] {
            // p..v: seen unless v is left of (or on) the left line; some of it lies beyond the
            // left line unless that line runs through p.
            let seen = v_in_left.then_some((Cone { right: if v_in_right { v } else { right }, ..cone }, g));
            let beyond_left = left != p || !v_in_left;
            out[0] = best(
                0,
                [
                    seen,
                    turn_left(beyond_left && (goal_left || !v_in_left)),
                    turn_right(!v_in_right && goal_right),
                ],
            );
        }
        if wanted[1] {
            // v..q, mirrored.
            let seen = v_in_right.then_some((Cone { left: if v_in_left { v } else { left }, ..cone }, g));
            let beyond_right = right != q || !v_in_right;
            out[1] = best(
                1,
                [
                    seen,
                    turn_right(beyond_right && (goal_right || !v_in_right)),
                    turn_left(!v_in_left && goal_left),
                ],
            );
        }
        out
    }
}
