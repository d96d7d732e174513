//! Point location through the uniform grid.

use crate::geometry::{Aabb, Orientation, Point, orient};
use crate::ids::TriangleId;
use crate::mesh::NavMesh;

impl NavMesh {
    /// The triangle containing `p` (boundary included), or `None` when `p` is off the mesh.
    ///
    /// A point on an edge or vertex shared by several triangles locates to the one with the
    /// lowest id. NaN coordinates locate nowhere.
    ///
    /// ```
    /// # use trinav::{NavMesh, Point};
    /// # fn demo(mesh: &NavMesh) {
    /// if let Some(t) = mesh.locate(Point::new(3.0, 4.0)) {
    ///     assert!(mesh.triangle_contains(t, Point::new(3.0, 4.0)));
    /// }
    /// # }
    /// ```
    pub fn locate(&self, p: Point) -> Option<TriangleId> {
        if !self.bounds().contains(p) {
            return None;
        }
        self.grid.candidates(p).iter().copied().find(|&t| self.triangle_contains(t, p))
    }

    /// Every triangle containing `p` (boundary included), in ascending id order: one for a
    /// point inside a triangle, two on a shared edge, all the triangles around a vertex.
    pub fn locate_all(&self, p: Point) -> impl Iterator<Item = TriangleId> + '_ {
        let candidates = if self.bounds().contains(p) { self.grid.candidates(p) } else { &[] };
        candidates.iter().copied().filter(move |&t| self.triangle_contains(t, p))
    }

    /// Every triangle whose bounding box overlaps the closed box `area`, each once, in no
    /// particular order (the broad phase of an area query: test the triangles themselves
    /// against the shape you have).
    ///
    /// ```
    /// # use trinav::{Aabb, NavMesh, Point};
    /// # fn demo(mesh: &NavMesh) {
    /// let area = Aabb { min: Point::new(10.0, 10.0), max: Point::new(20.0, 15.0) };
    /// for t in mesh.triangles_overlapping(area) {
    ///     let corners = mesh.triangle_points(t);
    ///     assert!(corners.iter().any(|p| p.x >= 10.0) && corners.iter().any(|p| p.y <= 15.0));
    /// }
    /// # }
    /// ```
    pub fn triangles_overlapping(&self, area: Aabb) -> impl Iterator<Item = TriangleId> + '_ {
        let bounds = self.bounds();
        let cells =
            if bounds.meets(&area) && !area.is_empty() { Some(self.grid.cells_of_box(area)) } else { None };
        cells.into_iter().flatten().flat_map(move |cell| {
            self.grid.cell_items_at(cell).iter().copied().filter(move |&t| {
                let b = Aabb::from_points(self.triangle_points(t));
                // Listed in every cell its box meets: report it from the first of those that
                // lies in `area`'s cells.
                let first = Point::new(b.min.x.max(area.min.x), b.min.y.max(area.min.y));
                b.meets(&area) && self.grid.cell_index(first) == cell
            })
        })
    }

    /// The triangle containing `from` that the segment `from -> to` enters: the one, among
    /// those whose closed area holds `from`, whose corner or side at `from` opens towards `to`
    /// (lowest id first). `None` when `from` is off the mesh or no such triangle exists (the
    /// segment leaves the mesh at once).
    pub(crate) fn locate_towards(&self, from: Point, to: Point) -> Option<TriangleId> {
        if !self.bounds().contains(from) {
            return None;
        }
        self.grid
            .candidates(from)
            .iter()
            .copied()
            .find(|&t| self.triangle_contains(t, from) && self.opens_towards(t, from, to))
    }

    /// Whether triangle `t`, which contains `at`, holds the start of the segment `at -> to`:
    /// always when `at` is inside; on a side, when `to` is not beyond that side; at a corner,
    /// when `to` lies in the corner's wedge (both bounding edges included).
    pub(crate) fn opens_towards(&self, t: TriangleId, at: Point, to: Point) -> bool {
        let corners = self.triangle_points(t);
        if let Some(k) = corners.iter().position(|&c| c == at) {
            let (v, a, b) = (corners[k], corners[(k + 1) % 3], corners[(k + 2) % 3]);
            return orient(v, a, to) != Orientation::Clockwise
                && orient(v, b, to) != Orientation::CounterClockwise;
        }
        for i in 0..3 {
            let (p, q) = (corners[i], corners[(i + 1) % 3]);
            if orient(p, q, at) == Orientation::Collinear {
                return orient(p, q, to) != Orientation::Clockwise;
            }
        }
        true
    }
}
