//! Raycast: walk the triangles along a segment until it ends or leaves the walkable area.

use crate::geometry::{Orientation, Point, orient};
use crate::ids::TriangleId;
use crate::layers::LayerId;
use crate::mesh::NavMesh;
use crate::query::{QueryError, check_finite};

/// What a raycast found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayHit {
    /// The whole segment lies in the (closed) walkable area; `triangle` holds its end.
    Clear {
        /// A triangle containing the segment's end.
        triangle: TriangleId,
    },
    /// The segment leaves the walkable area.
    Blocked {
        /// Where it leaves.
        point: Point,
        /// How far along the segment that is, from 0 (start) to 1 (end).
        fraction: f64,
        /// The triangle it leaves from.
        triangle: TriangleId,
        /// The boundary edge (0..3) of that triangle it crosses or touches.
        edge: u8,
    },
}

impl RayHit {
    /// Whether the segment is clear.
    pub fn is_clear(&self) -> bool {
        matches!(self, RayHit::Clear { .. })
    }
}

/// The vertices and layers a segment walk tried (see [`NavMesh::walk_on`]).
pub(crate) type Tried = Vec<(Point, LayerId)>;

/// What a segment walk asks of a triangle it reaches the segment's end in: whether to stop
/// there (with the walk's working memory, for walks of its own).
pub(crate) type Accept<'a> = dyn FnMut(TriangleId, &mut Tried) -> bool + 'a;

/// Where the walk goes next from the current triangle.
enum Step {
    /// Through the inside of edge `edge` (the ray crosses it properly).
    Edge(u8),
    /// Through a corner of the triangle lying exactly on the ray.
    Vertex(Point),
    /// Nowhere (cannot happen with exact predicates; handled as blocked).
    Stuck,
}

impl NavMesh {
    /// Walks from `from` towards `to` and reports whether the segment stays in the walkable
    /// area (its closed set: running along a wall or touching a corner is allowed; passing
    /// through a point where two obstacles touch corner to corner is not).
    ///
    /// Errors: a non-finite point, or `from` off the mesh.
    ///
    /// ```
    /// # use trinav::{NavMesh, Point, RayHit};
    /// # fn demo(mesh: &NavMesh) -> Result<(), trinav::QueryError> {
    /// match mesh.raycast(Point::new(1.0, 1.0), Point::new(9.0, 9.0))? {
    ///     RayHit::Clear { .. } => println!("line of sight"),
    ///     RayHit::Blocked { point, .. } => println!("wall at {point:?}"),
    /// }
    /// # Ok(()) }
    /// ```
    pub fn raycast(&self, from: Point, to: Point) -> Result<RayHit, QueryError> {
        check_finite(from)?;
        check_finite(to)?;
        let start = self.locate(from).ok_or(QueryError::OffMesh(from))?;
        let layer_of = |t: TriangleId| self.triangle_layer(t);
        if self.is_layered() && self.locate_all(from).any(|t| layer_of(t) != layer_of(start)) {
            return Err(QueryError::AmbiguousLayer(from));
        }
        let first = self.locate_towards(from, to);
        Ok(self.ray_walk(start, first, from, to))
    }

    /// [`NavMesh::raycast`] from `from` on layer `layer` (a ray starts on one layer and may
    /// cross portals to others; [`RayHit`]'s triangle tells where it ends).
    pub fn raycast_on(&self, layer: LayerId, from: Point, to: Point) -> Result<RayHit, QueryError> {
        check_finite(from)?;
        check_finite(to)?;
        let start = self.locate_on(layer, from).ok_or(QueryError::OffMesh(from))?;
        let first = (self.locate_all(from))
            .find(|&t| self.triangle_layer(t) == layer && self.opens_towards(t, from, to));
        Ok(self.ray_walk(start, first, from, to))
    }

    /// The triangle a walk along `from -> to` that starts in `t` (which contains `from`)
    /// reaches `to` in, through shared edges and vertex fans (across portals too), and that
    /// `accept` takes; `None` when a wall is in the way or `accept` takes none. Where layers
    /// overlap, the walk may reach `to` in several triangles (see [`NavMesh::walk_on`]):
    /// `accept` sees each until it takes one. `tried` is working memory, left as it was
    /// (`accept` may use it above its length on the call, for walks of its own).
    pub(crate) fn walk_segment(
        &self,
        t: TriangleId,
        (from, to): (Point, Point),
        tried: &mut Tried,
        accept: &mut Accept<'_>,
    ) -> Option<TriangleId> {
        let first = if self.opens_towards(t, from, to) {
            Some(t)
        } else if self.triangle_points(t).contains(&from) {
            self.fan_triangle_towards(t, from, to)
        } else {
            self.walk_first(t, from, to)
        };
        match self.ray_walk_accepting(t, first, (from, to), tried, accept) {
            RayHit::Clear { triangle } => Some(triangle),
            RayHit::Blocked { .. } => None,
        }
    }

    /// The ray from `from` (in triangle `start`) to `to`, walked from `first`, the triangle
    /// holding `from` that the ray enters (`None`: it leaves the mesh at once). On a layered
    /// mesh, a ray that passes a vertex where two layers open towards `to` remembers that it
    /// tried them (the only allocation of a raycast).
    fn ray_walk(&self, start: TriangleId, first: Option<TriangleId>, from: Point, to: Point) -> RayHit {
        self.ray_walk_accepting(start, first, (from, to), &mut Vec::new(), &mut |_, _| true)
    }

    /// [`NavMesh::ray_walk`], clear only when it ends in a triangle that `accept` takes;
    /// `tried` is working memory, left as it was.
    fn ray_walk_accepting(
        &self,
        start: TriangleId,
        first: Option<TriangleId>,
        (from, to): (Point, Point),
        tried: &mut Tried,
        accept: &mut Accept<'_>,
    ) -> RayHit {
        let Some(first) = first else {
            let edge = self.edge_facing(start, to);
            return RayHit::Blocked { point: from, fraction: 0.0, triangle: start, edge };
        };
        let base = tried.len();
        let hit = self.walk_on(first, (from, to), (0.0, base), tried, accept);
        tried.truncate(base);
        hit
    }

    /// The walk of [`NavMesh::ray_walk_accepting`] from triangle `t`, in which the ray has
    /// passed the vertices up to `reached` along it (0 at `from`, 1 at `to`); `tried[base..]`
    /// holds the vertices and layers already walked on from.
    ///
    /// On a mesh of one layer the walk has one way on at each vertex it passes. Where layers
    /// overlap it may have two: a ray along a portal and past its end may go on along one
    /// layer's wall or through the other layer. There the walk tries each layer (once per
    /// vertex and layer) and the ray is clear when one of them is; when none is, the hit is
    /// the one that gets farthest.
    fn walk_on(
        &self,
        mut t: TriangleId,
        (from, to): (Point, Point),
        (mut reached, base): (f64, usize),
        tried: &mut Tried,
        accept: &mut Accept<'_>,
    ) -> RayHit {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        // Where a point of the segment's line lies along it (0 at `from`, 1 at `to`), from the
        // longer axis: no squares, so tiny or huge coordinates neither underflow nor overflow.
        let param = |p: Point| {
            let t = if dx.abs() >= dy.abs() { (p.x - from.x) / dx } else { (p.y - from.y) / dy };
            if t.is_finite() { t.clamp(0.0, 1.0) } else { 0.0 }
        };
        // Each step enters a new triangle or passes a vertex further along the ray; the bound
        // only guards against a broken invariant.
        for _ in 0..=4 * self.triangle_count() + 4 {
            if self.triangle_contains(t, to) {
                if accept(t, tried) {
                    return RayHit::Clear { triangle: t };
                }
                // Reached, but not where the caller wants: as far as a walk gets.
                return RayHit::Blocked {
                    point: to,
                    fraction: 1.0,
                    triangle: t,
                    edge: self.edge_facing(t, to),
                };
            }
            match self.next_step(t, from, to, |p| param(p) > reached) {
                Step::Edge(edge) => {
                    let next = self.neighbours(t)[edge as usize];
                    if next.is_none() {
                        let corners = self.triangle_points(t);
                        let (p, q) = (corners[edge as usize], corners[(edge as usize + 1) % 3]);
                        let fraction = crossing_fraction(from, to, p, q).max(reached);
                        let point = Point::new(from.x + dx * fraction, from.y + dy * fraction);
                        return RayHit::Blocked { point, fraction, triangle: t, edge };
                    }
                    t = next;
                }
                Step::Vertex(v) => {
                    reached = param(v);
                    let blocked = |t| RayHit::Blocked {
                        point: v,
                        fraction: reached,
                        triangle: t,
                        edge: self.edge_facing(t, to),
                    };
                    if !self.is_layered() {
                        match self.fan_triangle_towards(t, v, to) {
                            Some(next) => t = next,
                            None => return blocked(t),
                        }
                        continue;
                    }
                    // One way on per layer; at a vertex with several, each is tried once.
                    let ways = self.ways_on(t, v, to);
                    let mut first_two = ways.clone();
                    match (first_two.next(), first_two.next()) {
                        (None, _) => return blocked(t),
                        (Some(next), None) => {
                            t = next;
                            continue;
                        }
                        _ => {}
                    }
                    let mut farthest = blocked(t);
                    for next in ways {
                        let key = (v, self.triangle_layer(next));
                        if tried[base..].contains(&key) {
                            continue;
                        }
                        tried.push(key);
                        let hit = self.walk_on(next, (from, to), (reached, base), tried, accept);
                        if hit.is_clear() {
                            return hit;
                        }
                        if hit_fraction(&hit) > hit_fraction(&farthest) {
                            farthest = hit;
                        }
                    }
                    return farthest;
                }
                Step::Stuck => break,
            }
        }
        let edge = self.edge_facing(t, to);
        RayHit::Blocked { point: from, fraction: reached, triangle: t, edge }
    }

    /// How the segment `from -> to` leaves triangle `t` (which does not contain `to`): through
    /// an edge's inside, or through a corner on the ray that `ahead` accepts.
    fn next_step(&self, t: TriangleId, from: Point, to: Point, ahead: impl Fn(Point) -> bool) -> Step {
        let corners = self.triangle_points(t);
        let mut vertex = None;
        for i in 0..3 {
            let (p, q) = (corners[i], corners[(i + 1) % 3]);
            if orient(p, q, to) != Orientation::Clockwise {
                continue;
            }
            match (orient(from, to, p), orient(from, to, q)) {
                (Orientation::Clockwise, Orientation::CounterClockwise) => return Step::Edge(i as u8),
                (Orientation::Collinear, _) if ahead(p) => vertex = Some(p),
                (_, Orientation::Collinear) if ahead(q) => vertex = Some(q),
                _ => {}
            }
        }
        vertex.map_or(Step::Stuck, Step::Vertex)
    }

    /// Among the triangles around vertex `v` reachable from `t` through shared edges (its
    /// fan, `t` included), the first whose corner at `v` opens towards `to`.
    pub(crate) fn fan_triangle_towards(&self, t: TriangleId, v: Point, to: Point) -> Option<TriangleId> {
        Fan::round(self, t, v, true).find(|&w| self.opens_towards(w, v, to))
    }

    /// The ways on from `v` towards `to` for a walk in triangle `t`: of the triangles of the
    /// fan of `t` round `v` whose corner or side at `v` opens towards `to`, the first of each
    /// layer (`t`, or its neighbour across the side holding `v`, when `v` is not a corner of
    /// `t`). Allocates nothing.
    pub(crate) fn ways_on(
        &self,
        t: TriangleId,
        v: Point,
        to: Point,
    ) -> impl Iterator<Item = TriangleId> + Clone + '_ {
        let at_corner = self.triangle_points(t).contains(&v);
        let alone = match at_corner {
            true => None,
            false if self.opens_towards(t, v, to) => Some(t),
            false => self.walk_first(t, v, to),
        };
        let open = Fan::round(self, t, v, at_corner).filter(move |&w| self.opens_towards(w, v, to));
        let ways = alone.into_iter().chain(open);
        let earlier = ways.clone();
        ways.enumerate()
            .filter(move |&(i, w)| {
                let layer = self.triangle_layer(w);
                !earlier.clone().take(i).any(|u| self.triangle_layer(u) == layer)
            })
            .map(|(_, w)| w)
    }

    /// The neighbour of `t` across the side holding `from` when it opens towards `to`.
    fn walk_first(&self, t: TriangleId, from: Point, to: Point) -> Option<TriangleId> {
        let corners = self.triangle_points(t);
        (0..3)
            .find(|&i| orient(corners[i], corners[(i + 1) % 3], from) == Orientation::Collinear)
            .map(|i| self.neighbours(t)[i])
            .filter(|n| !n.is_none() && self.opens_towards(*n, from, to))
    }

    /// An edge of `t` that `to` lies beyond (for reporting a blocked ray), or 0.
    fn edge_facing(&self, t: TriangleId, to: Point) -> u8 {
        let corners = self.triangle_points(t);
        (0..3)
            .find(|&i| {
                self.neighbours(t)[i].is_none()
                    && orient(corners[i], corners[(i + 1) % 3], to) == Orientation::Clockwise
            })
            .unwrap_or(0) as u8
    }
}

/// The triangles round a corner `v` of a triangle (its fan, through shared edges), each once:
/// from the triangle one way round, then, unless that closed the fan, the other way.
#[derive(Clone)]
struct Fan<'a> {
    mesh: &'a NavMesh,
    start: TriangleId,
    v: Point,
    /// The next triangle to give, and which way round the walk is (1: through the edge
    /// leaving `v`, 2: through the edge arriving at it).
    next: Option<TriangleId>,
    turn: u8,
    /// Steps taken (a bound against a broken mesh).
    steps: usize,
}

impl<'a> Fan<'a> {
    /// The fan of `start` round `v`; empty unless `at_corner` (`v` is a corner of `start`).
    fn round(mesh: &'a NavMesh, start: TriangleId, v: Point, at_corner: bool) -> Self {
        Fan { mesh, start, v, next: at_corner.then_some(start), turn: 1, steps: 0 }
    }
}

impl Iterator for Fan<'_> {
    type Item = TriangleId;

    fn next(&mut self) -> Option<TriangleId> {
        let current = self.next?;
        self.steps += 1;
        let corners = self.mesh.triangle_points(current);
        let beyond = corners.iter().position(|&c| c == self.v).map(|k| {
            // Edge k leaves v; edge (k + 2) % 3 arrives at v.
            self.mesh.neighbours(current)[if self.turn == 1 { k } else { (k + 2) % 3 }]
        });
        self.next = match beyond {
            // Round the whole fan: done.
            Some(n) if n == self.start => None,
            Some(n) if !n.is_none() && self.steps <= self.mesh.triangle_count() => Some(n),
            // The boundary: the other way round from the start, once.
            _ if self.turn == 1 => {
                self.turn = 2;
                let k = self.mesh.triangle_points(self.start).iter().position(|&c| c == self.v);
                k.map(|k| self.mesh.neighbours(self.start)[(k + 2) % 3]).filter(|n| !n.is_none())
            }
            _ => None,
        };
        Some(current)
    }
}

/// How far along its ray a hit is (1 when clear).
fn hit_fraction(hit: &RayHit) -> f64 {
    match hit {
        RayHit::Clear { .. } => 1.0,
        RayHit::Blocked { fraction, .. } => *fraction,
    }
}

/// The fraction along `from -> to` where it crosses the line through `p` and `q`.
fn crossing_fraction(from: Point, to: Point, p: Point, q: Point) -> f64 {
    let cross = |ux: f64, uy: f64, vx: f64, vy: f64| ux * vy - uy * vx;
    let (ex, ey) = (q.x - p.x, q.y - p.y);
    let denom = cross(to.x - from.x, to.y - from.y, ex, ey);
    if denom == 0.0 {
        return 0.0;
    }
    (cross(p.x - from.x, p.y - from.y, ex, ey) / denom).clamp(0.0, 1.0)
}
