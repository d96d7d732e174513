//! The funnel for a disc (Demyen's "modified funnel"): the shortest path of a disc of radius
//! `r` through a corridor of portals keeps `r` from every portal end, so each end is a circle of
//! radius `r` the path may bend around: left ends counter-clockwise (the circle on the walker's
//! left), right ends clockwise. The string-pulling is the simple stupid funnel's, with the
//! direction from the apex to a point replaced by the direction of the tangent from the apex
//! circle to the point's circle. The result is tangent segments and arcs; each arc is written
//! as chords of a polygon circumscribed about its circle (every point at least `r` from the
//! centre, at most `ARC_TOLERANCE r` farther), from tangent point to tangent point.

use crate::geometry::Point;
use crate::query::path::funnel::Portal;

/// How far the chords of an arc may stray outside its circle, as a fraction of the radius.
pub(crate) const ARC_TOLERANCE: f64 = 1e-3;

/// A circle the path bends around: centre, radius (0 for the start and goal), and the side it
/// is kept on: +1 on the walker's left (the path turns counter-clockwise round it), -1 on the
/// right.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bend {
    centre: Point,
    radius: f64,
    side: f64,
}

impl Bend {
    fn point(p: Point) -> Bend {
        Bend { centre: p, radius: 0.0, side: 1.0 }
    }
}

/// The common tangent leaving `from` and reaching `to` (each kept on its side): its unit
/// direction and its two points of contact, or `None` when the circles overlap so that no such
/// tangent exists.
fn tangent(from: Bend, to: Bend) -> Option<(Point, Point, Point)> {
    let (dx, dy) = (to.centre.x - from.centre.x, to.centre.y - from.centre.y);
    let d2 = dx * dx + dy * dy;
    // The signed offset of `to`'s centre from the line, minus `from`'s: k = s2 r2 - s1 r1.
    let k = to.side * to.radius - from.side * from.radius;
    if d2 <= k * k || d2 == 0.0 {
        return None;
    }
    let s = (d2 - k * k).sqrt();
    // u = (s d - k perp(d)) / |d|², perp(x, y) = (-y, x); n = perp(u) is the left normal.
    let u = Point::new((s * dx + k * dy) / d2, (s * dy - k * dx) / d2);
    let n = Point::new(-u.y, u.x);
    let contact = |b: Bend| Point::new(b.centre.x - b.side * b.radius * n.x, b.centre.y - b.side * b.radius * n.y);
    Some((u, contact(from), contact(to)))
}

/// The direction of the tangent from `from` to `to`; for circles too close for one, the
/// direction between their centres (the corridor search keeps such pairs apart, so this only
/// orders the funnel's sides).
fn direction(from: Bend, to: Bend) -> Point {
    match tangent(from, to) {
        Some((u, ..)) => u,
        None => Point::new(to.centre.x - from.centre.x, to.centre.y - from.centre.y),
    }
}

/// `u × v`: positive when `v` turns left of `u`.
fn cross(u: Point, v: Point) -> f64 {
    u.x * v.y - u.y * v.x
}

/// Writes to `out` (cleared first) the shortest path of a disc of radius `radius` through
/// `portals` (first `(start, start)`, last `(goal, goal)`, as [`super::funnel::string_pull`]
/// takes them), arcs as circumscribed chords. `bends` is reused memory.
pub(crate) fn pull_disc(portals: &[Portal], radius: f64, bends: &mut Vec<Bend>, out: &mut Vec<Point>) {
    out.clear();
    bends.clear();
    let Some(&(start, _)) = portals.first() else { return };
    let Some(&(goal, _)) = portals.last() else { return };
    let end = portals.len() - 1;
    let bend_at = |i: usize, left: bool| -> Bend {
        if i == 0 || i == end {
            return Bend::point(portals[i].0);
        }
        let (l, r) = portals[i];
        if left { Bend { centre: l, radius, side: 1.0 } } else { Bend { centre: r, radius, side: -1.0 } }
    };
    let mut apex = Bend::point(start);
    let (mut left, mut right) = (apex, apex);
    let (mut left_at, mut right_at) = (0usize, 0usize);
    bends.push(apex);
    let mut i = 1;
    while i < portals.len() {
        let (l, r) = (bend_at(i, true), bend_at(i, false));
        // Right side: `r` narrows the funnel when its direction is left of (or on) the right
        // side's.
        if r != right && (right == apex || cross(direction(apex, right), direction(apex, r)) >= 0.0) {
            if right == apex || left == apex || cross(direction(apex, left), direction(apex, r)) < 0.0 || r == left {
                if left == apex || r == left || cross(direction(apex, left), direction(apex, r)) < 0.0 {
                    right = r;
                    right_at = i;
                }
            }
            if right != r {
                // The right side crossed the left one: the left end is a bend of the path.
                apex = left;
                bends.push(apex);
                (right, right_at) = (apex, left_at);
                i = left_at + 1;
                continue;
            }
        }
        // Left side, mirrored.
        if l != left && (left == apex || cross(direction(apex, left), direction(apex, l)) <= 0.0) {
            if right == apex || l == right || cross(direction(apex, right), direction(apex, l)) > 0.0 {
                left = l;
                left_at = i;
            } else {
                apex = right;
                bends.push(apex);
                (left, left_at) = (apex, right_at);
                i = right_at + 1;
                continue;
            }
        }
        i += 1;
    }
    bends.push(Bend::point(goal));
    write_path(bends, out);
}

/// Writes the points of the path through `bends`: tangent segments, and round each circle the
/// arc from the incoming to the outgoing contact as circumscribed chords.
fn write_path(bends: &[Bend], out: &mut Vec<Point>) {
    let push = |out: &mut Vec<Point>, p: Point| {
        if out.last() != Some(&p) {
            out.push(p);
        }
    };
    let mut arrived: Option<Point> = None;
    for k in 0..bends.len() {
        let b = bends[k];
        let leave = bends.get(k + 1).and_then(|&next| tangent(b, next));
        let here = if b.radius == 0.0 { b.centre } else { arrived.unwrap_or(b.centre) };
        push(out, here);
        if b.radius > 0.0
            && let (Some(from), Some((_, to, _))) = (arrived, leave)
        {
            arc(b, from, to, out);
        }
        arrived = leave.map(|(_, _, reach)| reach);
        if let Some((_, contact, _)) = leave {
            push(out, contact);
        }
    }
}

/// The arc of `b` from contact `from` to contact `to`, in `b`'s direction of turn, as the
/// corners of a circumscribed polygon whose first and last edges touch the circle at `from`
/// and `to` (both already written or about to be).
fn arc(b: Bend, from: Point, to: Point, out: &mut Vec<Point>) {
    let angle = |p: Point| (p.y - b.centre.y).atan2(p.x - b.centre.x);
    let (a0, a1) = (angle(from), angle(to));
    let tau = std::f64::consts::TAU;
    // Counter-clockwise (side +1) from a0 to a1, or clockwise.
    let sweep = if b.side > 0.0 { (a1 - a0).rem_euclid(tau) } else { (a0 - a1).rem_euclid(tau) };
    let max_step = 2.0 * (1.0 / (1.0 + ARC_TOLERANCE)).acos();
    if sweep <= 1e-12 || sweep >= tau - 1e-12 {
        return;
    }
    let steps = (sweep / max_step).ceil().max(1.0);
    let step = sweep / steps;
    let reach = b.radius / (0.5 * step).cos();
    for j in 0..steps as usize {
        let a = a0 + b.side * (0.5 * step + j as f64 * step);
        out.push(Point::new(b.centre.x + reach * a.cos(), b.centre.y + reach * a.sin()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn tangents_between_equal_circles() {
        let a = Bend { centre: p(0., 0.), radius: 1.0, side: 1.0 };
        // Same side: the outer tangent, parallel to the centres' line, 1 to its right.
        let b = Bend { centre: p(10., 0.), radius: 1.0, side: 1.0 };
        let (u, pa, pb) = tangent(a, b).unwrap();
        assert_eq!((u, pa, pb), (p(1., 0.), p(0., -1.), p(10., -1.)));
        // Opposite sides: the inner tangent crosses the centres' line.
        let c = Bend { centre: p(10., 0.), radius: 1.0, side: -1.0 };
        let (_, pa, pc) = tangent(a, c).unwrap();
        assert!((pa.distance(p(0., 0.)) - 1.0).abs() < 1e-12 && (pc.distance(p(10., 0.)) - 1.0).abs() < 1e-12);
        assert!(pa.y < 0.0 && pc.y > 0.0, "{pa:?} {pc:?}");
        // From a point to a circle kept on the left: the contact is on the circle's right.
        let (_, q, t) = tangent(Bend::point(p(0., -5.)), Bend { centre: p(0., 0.), radius: 1.0, side: 1.0 }).unwrap();
        assert_eq!(q, p(0., -5.));
        assert!((t.distance(p(0., 0.)) - 1.0).abs() < 1e-12 && t.x > 0.0, "{t:?}");
        // Overlapping circles on opposite sides have no such tangent.
        assert!(tangent(a, Bend { centre: p(1.5, 0.), radius: 1.0, side: -1.0 }).is_none());
    }

    #[test]
    fn a_disc_rounds_the_inner_corner_of_an_l_at_its_radius() {
        // Walking +x, then up: the corridor turns left round (1, 1); portals put (1, 1) on the
        // left.
        let portals = [(p(0., 0.), p(0., 0.)), (p(1., 1.), p(1., -1.)), (p(1., 1.), p(3., 1.)), (p(2., 4.), p(2., 4.))];
        let mut out = Vec::new();
        pull_disc(&portals, 0.25, &mut Vec::new(), &mut out);
        assert_eq!(out.first(), Some(&p(0., 0.)));
        assert_eq!(out.last(), Some(&p(2., 4.)));
        // Every point keeps the radius from the corner, and no more than the tolerance beyond
        // it where the path bends round it.
        for q in &out[1..out.len() - 1] {
            let d = q.distance(p(1., 1.));
            assert!(d >= 0.25 - 1e-12 && d <= 0.25 * (1.0 + ARC_TOLERANCE) + 1e-12, "{q:?} at {d}");
        }
        // Segments too: each chord's middle is outside the circle.
        for w in out.windows(2) {
            let m = w[0].midpoint(w[1]);
            assert!(m.distance(p(1., 1.)) >= 0.25 - 1e-12, "{w:?}");
        }
        // With radius 0 it is the point path.
        pull_disc(&portals, 0.0, &mut Vec::new(), &mut out);
        assert_eq!(out, vec![p(0., 0.), p(1., 1.), p(2., 4.)]);
    }

    #[test]
    fn a_straight_corridor_is_one_segment() {
        let portals = [(p(0., 0.), p(0., 0.)), (p(1., 2.), p(1., -2.)), (p(2., 2.), p(2., -2.)), (p(3., 0.), p(3., 0.))];
        let mut out = Vec::new();
        pull_disc(&portals, 0.5, &mut Vec::new(), &mut out);
        assert_eq!(out, vec![p(0., 0.), p(3., 0.)]);
    }
}
