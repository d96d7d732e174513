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
pub(crate) struct Bend {
    pub(crate) centre: Point,
    pub(crate) radius: f64,
    pub(crate) side: f64,
}

impl Bend {
    pub(crate) fn point(p: Point) -> Bend {
        Bend { centre: p, radius: 0.0, side: 1.0 }
    }
}

/// The common tangent leaving `from` and reaching `to` (each kept on its side): its unit
/// direction and its two points of contact, or `None` when the circles overlap so that no such
/// tangent exists.
pub(crate) fn tangent(from: Bend, to: Bend) -> Option<(Point, Point, Point)> {
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
    let contact =
        |b: Bend| Point::new(b.centre.x - b.side * b.radius * n.x, b.centre.y - b.side * b.radius * n.y);
    Some((u, contact(from), contact(to)))
}

/// Writes to `out` (cleared first) the shortest path of a disc of radius `radius` through
/// `portals` (first `(start, start)`, last `(goal, goal)`, as [`super::funnel::string_pull`]
/// takes them), arcs as circumscribed chords. `funnel` and `bends` are reused memory.
///
/// The funnel is kept as a deque (Lee and Preparata's funnel): the left chain, the apex, the
/// right chain, each element a circle the path wraps on its side. A new portal end joins its
/// chain after the elements the tangent to it no longer needs are removed (an element is
/// needed while the tangent from the one before it to the new end would pass it on the wrong
/// side or closer than the radius); when its chain empties to the apex, the end is checked
/// against the other chain, whose first element becomes the apex, part of the path, for as
/// long as the tangent from the apex to the new end would pass it wrongly. Deciding by the
/// tangent *segment* (not the ray) keeps an end lying before a circle, such as a goal near a
/// corner, from being wrapped round it.
#[cfg(test)]
pub(crate) fn pull_disc(
    portals: &[Portal],
    radius: f64,
    funnel: &mut std::collections::VecDeque<Bend>,
    bends: &mut Vec<Bend>,
    arcs: &mut Vec<ArcRun>,
    out: &mut Vec<Point>,
) {
    pull_disc_between(portals, (radius, &[]), funnel, bends, arcs, out);
}

/// An order of points (by x, then y; no NaN here) for the sorted `open` of
/// [`pull_disc_between`].
pub(crate) fn point_order(a: &Point, b: &Point) -> std::cmp::Ordering {
    a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
}

/// [`pull_disc`] where the portal ends in `open` (vertices on no wall: inside a portal between
/// layers, or where area types meet; sorted by [`point_order`]) are points the path may touch,
/// not circles of `radius`: the path stays in the corridor there without keeping the radius
/// from them.
pub(crate) fn pull_disc_between(
    portals: &[Portal],
    (radius, open): (f64, &[Point]),
    funnel: &mut std::collections::VecDeque<Bend>,
    bends: &mut Vec<Bend>,
    arcs: &mut Vec<ArcRun>,
    out: &mut Vec<Point>,
) {
    let radius_at = |p: Point| match open.binary_search_by(|q| point_order(q, &p)) {
        Ok(_) => 0.0,
        Err(_) => radius,
    };
    out.clear();
    bends.clear();
    arcs.clear();
    funnel.clear();
    let (Some(&(start, _)), Some(&(goal, _))) = (portals.first(), portals.last()) else { return };
    // The deque: front = end of the left chain, back = end of the right chain, apex at `apex`.
    funnel.push_back(Bend::point(start));
    let mut apex = 0usize;
    bends.push(Bend::point(start));
    let last = portals.len() - 1;
    for (i, &(l, r)) in portals.iter().enumerate().skip(1) {
        let (left, right) = if i == last {
            (Bend::point(goal), Bend::point(goal))
        } else {
            (
                Bend { centre: l, radius: radius_at(l), side: 1.0 },
                Bend { centre: r, radius: radius_at(r), side: -1.0 },
            )
        };
        if funnel.front().is_none_or(|f| f.centre != left.centre) || i == last {
            add_left(funnel, &mut apex, bends, left);
        }
        if i != last && funnel.back().is_none_or(|b| b.centre != right.centre) {
            add_right(funnel, &mut apex, bends, right);
        }
    }
    // The path: the apexes passed, then the left chain from the apex to the goal.
    for k in (0..apex).rev() {
        bends.push(funnel[k]);
    }
    write_path(bends, arcs, out);
}

/// The points `out[first..=last]` of a written path go round the circle of radius `radius`
/// about `centre` (an arc as circumscribed chords: each point at least `radius` from the
/// centre, at most `ARC_TOLERANCE radius` farther).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ArcRun {
    pub(crate) first: usize,
    pub(crate) last: usize,
    pub(crate) centre: Point,
    pub(crate) radius: f64,
}

/// Adds `end` to the left chain (the front of `funnel`).
fn add_left(
    funnel: &mut std::collections::VecDeque<Bend>,
    apex: &mut usize,
    bends: &mut Vec<Bend>,
    end: Bend,
) {
    // Drop the left elements the tangent from the one before (towards the apex) no longer needs.
    while *apex > 0 && clears(funnel[1], end, funnel[0]) {
        funnel.pop_front();
        *apex -= 1;
    }
    if *apex == 0 {
        // The chain is down to the apex: the right chain's elements the new tangent would pass
        // wrongly become the apex in turn.
        while funnel.len() > 1 {
            if narrows(funnel, 0, 1, end) {
                funnel[0] = end;
                bends.push(end);
                return;
            }
            if passes(funnel[0], end, funnel[1]) {
                break;
            }
            funnel.pop_front();
            bends.push(funnel[0]);
        }
    }
    funnel.push_front(end);
    *apex += 1;
}

/// Adds `end` to the right chain (the back of `funnel`), mirroring [`add_left`].
fn add_right(
    funnel: &mut std::collections::VecDeque<Bend>,
    apex: &mut usize,
    bends: &mut Vec<Bend>,
    end: Bend,
) {
    let n = |f: &std::collections::VecDeque<Bend>| f.len() - 1;
    while n(funnel) > *apex && clears(funnel[n(funnel) - 1], end, funnel[n(funnel)]) {
        funnel.pop_back();
    }
    if n(funnel) == *apex {
        while *apex > 0 {
            if narrows(funnel, *apex, *apex - 1, end) {
                funnel[*apex] = end;
                bends.push(end);
                return;
            }
            if passes(funnel[*apex], end, funnel[*apex - 1]) {
                break;
            }
            funnel.pop_back();
            *apex -= 1;
            bends.push(funnel[*apex]);
        }
    }
    funnel.push_back(end);
}

/// Whether the tangent segment from `from` to `to` passes `other` correctly: with its centre on
/// the segment's side that `other` asks for (left for +1), as the point funnel's orientation
/// test, and with the whole segment at least `other`'s radius from that centre. The second
/// condition reads the segment, not its line: an end lying short of a corner's circle (a goal
/// near a corner) or a circle behind the segment's start (a start nearer a portal than the
/// radius) is passed, because the segment never comes near it. A rounding tolerance of 1e-9
/// of the radius lets a tangent that just touches a circle pass it.
fn passes(from: Bend, to: Bend, other: Bend) -> bool {
    passes_by(from, to, other, 1e-9)
}

/// Whether the circle of a new chain end `end` reaches across the tangent segment from the
/// apex (`funnel[apex]`) to the first element of the other chain (`funnel[other]`): then the
/// way to the other chain bends round `end` first, and `end` becomes the apex. Checked before
/// the point funnel's test (does the tangent to `end` pass the other chain's element on its
/// side?), which for discs can fail too when `end` is nearer: the tangent's line may have the
/// element on the wrong side though its segment stops short of it. (For points only the
/// orientation test is left: a point has no circle to reach across.)
fn narrows(funnel: &std::collections::VecDeque<Bend>, apex: usize, other: usize, end: Bend) -> bool {
    if end.radius == 0.0 || other >= funnel.len() {
        return false;
    }
    let Some((u, a, b)) = tangent(funnel[apex], funnel[other]) else { return false };
    let (cx, cy) = (end.centre.x - a.x, end.centre.y - a.y);
    let length = (b.x - a.x) * u.x + (b.y - a.y) * u.y;
    let along = (cx * u.x + cy * u.y).clamp(0.0, length.max(0.0));
    let nearest = Point::new(a.x + along * u.x, a.y + along * u.y);
    end.centre.distance(nearest) < end.radius * (1.0 - 1e-9)
}

/// Whether the tangent segment from `from` to `to` passes `other` with room to spare (as
/// [`passes`], but a tangent that only touches `other`'s circle does not count): a chain
/// element is dropped only then. One touched is kept, because a later end short of the
/// touching tangent's far end (a goal between that tangent and the walls) may need it.
fn clears(from: Bend, to: Bend, other: Bend) -> bool {
    passes_by(from, to, other, -1e-9)
}

/// [`passes`] with a tolerance of `tolerance` times the radius (negative: a margin asked for).
fn passes_by(from: Bend, to: Bend, other: Bend, tolerance: f64) -> bool {
    let Some((u, a, b)) = tangent(from, to) else { return false };
    let (cx, cy) = (other.centre.x - a.x, other.centre.y - a.y);
    // Signed distance of the centre from the line: positive on the left.
    let offset = u.x * cy - u.y * cx;
    let slack = other.radius * tolerance;
    if other.side * offset < -slack {
        return false;
    }
    let length = (b.x - a.x) * u.x + (b.y - a.y) * u.y;
    let along = (cx * u.x + cy * u.y).clamp(0.0, length.max(0.0));
    let nearest = Point::new(a.x + along * u.x, a.y + along * u.y);
    other.centre.distance(nearest) >= other.radius - slack
}

/// Drops from `bends` (a pulled path, start to goal) every circle that the tangent from the
/// bend before it to the bend after it passes with room to spare; returns whether it dropped
/// one. The funnel keeps each portal end's circle on its side though the path may end, or turn
/// away, short of that circle (a goal beside a portal's far end): the apex it then made of a
/// corner on the other side is a bend no wall asks for. What is left must still be checked
/// against the walls. Bends for which `keep` holds stay (round a floor that folds, a tangent
/// that clears a circle in x, y may run on the wrong sheet).
pub(crate) fn drop_slack_bends(bends: &mut Vec<Bend>, keep: impl Fn(&Bend) -> bool) -> bool {
    let before = bends.len();
    let mut k = 1;
    while k + 1 < bends.len() {
        if !keep(&bends[k]) && clears(bends[k - 1], bends[k + 1], bends[k]) {
            bends.remove(k);
            k = (k - 1).max(1);
        } else {
            k += 1;
        }
    }
    bends.len() < before
}

/// Writes the points of the path through `bends` (`out` and `arcs` cleared first): tangent
/// segments, and round each circle the arc from the incoming to the outgoing contact as
/// circumscribed chords.
pub(crate) fn write_path(bends: &[Bend], arcs: &mut Vec<ArcRun>, out: &mut Vec<Point>) {
    out.clear();
    arcs.clear();
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
        let first = out.len() - 1;
        if b.radius > 0.0
            && let (Some(from), Some((_, to, _))) = (arrived, leave)
        {
            arc(b, from, to, out);
        }
        arrived = leave.map(|(_, _, reach)| reach);
        if let Some((_, contact, _)) = leave {
            push(out, contact);
        }
        if b.radius > 0.0 && out.len() - 1 > first {
            arcs.push(ArcRun { first, last: out.len() - 1, centre: b.centre, radius: b.radius });
        }
    }
}

/// The arc of `b` from contact `from` to contact `to`, in `b`'s direction of turn, as the
/// corners of a circumscribed polygon whose first and last edges touch the circle at `from`
/// and `to` (both already written or about to be).
pub(crate) fn arc(b: Bend, from: Point, to: Point, out: &mut Vec<Point>) {
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
        assert!(
            (pa.distance(p(0., 0.)) - 1.0).abs() < 1e-12 && (pc.distance(p(10., 0.)) - 1.0).abs() < 1e-12
        );
        assert!(pa.y < 0.0 && pc.y > 0.0, "{pa:?} {pc:?}");
        // From a point to a circle kept on the left: the contact is on the circle's right.
        let (_, q, t) =
            tangent(Bend::point(p(0., -5.)), Bend { centre: p(0., 0.), radius: 1.0, side: 1.0 }).unwrap();
        assert_eq!(q, p(0., -5.));
        assert!((t.distance(p(0., 0.)) - 1.0).abs() < 1e-12 && t.x > 0.0, "{t:?}");
        // Overlapping circles on opposite sides have no such tangent.
        assert!(tangent(a, Bend { centre: p(1.5, 0.), radius: 1.0, side: -1.0 }).is_none());
    }

    #[test]
    fn a_disc_rounds_the_inner_corner_of_an_l_at_its_radius() {
        // Walking +x, then up: the corridor turns left round (1, 1); portals put (1, 1) on the
        // left.
        let portals =
            [(p(0., 0.), p(0., 0.)), (p(1., 1.), p(1., -1.)), (p(1., 1.), p(3., 1.)), (p(2., 4.), p(2., 4.))];
        let mut out = Vec::new();
        pull_disc(&portals, 0.25, &mut Default::default(), &mut Vec::new(), &mut Vec::new(), &mut out);
        assert_eq!(out.first(), Some(&p(0., 0.)));
        assert_eq!(out.last(), Some(&p(2., 4.)));
        // Every point keeps the radius from the corner, and no more than the tolerance beyond
        // it where the path bends round it.
        for q in &out[1..out.len() - 1] {
            let d = q.distance(p(1., 1.));
            assert!((0.25 - 1e-12..=0.25 * (1.0 + ARC_TOLERANCE) + 1e-12).contains(&d), "{q:?} at {d}");
        }
        // Segments too: each chord's middle is outside the circle.
        for w in out.windows(2) {
            let m = w[0].midpoint(w[1]);
            assert!(m.distance(p(1., 1.)) >= 0.25 - 1e-12, "{w:?}");
        }
        // With radius 0 it is the point path.
        pull_disc(&portals, 0.0, &mut Default::default(), &mut Vec::new(), &mut Vec::new(), &mut out);
        assert_eq!(out, vec![p(0., 0.), p(1., 1.), p(2., 4.)]);
    }

    #[test]
    fn a_start_nearer_a_portal_than_the_radius_keeps_the_far_end_on_its_side() {
        // From a maze: the start lies 0.19 from the first portal, near its left end (264, 331);
        // the corridor turns right round (232, 297) and (231, 297). The disc must bend round
        // those, never round the left end behind it.
        let start = p(259.5, 326.5);
        let goal = p(224.5, 308.5);
        let portals = [
            (start, start),
            (p(264., 331.), p(232., 297.)),
            (p(264., 265.), p(232., 297.)),
            (p(199., 265.), p(232., 297.)),
            (p(199., 265.), p(231., 297.)),
            (p(199., 330.), p(231., 297.)),
            (goal, goal),
        ];
        let mut out = Vec::new();
        pull_disc(&portals, 0.3, &mut Default::default(), &mut Vec::new(), &mut Vec::new(), &mut out);
        assert_eq!((out.first(), out.last()), (Some(&start), Some(&goal)));
        for q in &out[1..out.len() - 1] {
            let d = q.distance(p(232., 297.)).min(q.distance(p(231., 297.)));
            assert!((0.3 - 1e-12..=0.3 * (1.0 + ARC_TOLERANCE) + 1e-12).contains(&d), "{q:?} at {d}");
        }
    }

    #[test]
    fn a_corner_wrapped_for_a_far_portal_end_is_dropped() {
        // The corridor passes over (6.5, 18), then (8, 16.5) on the right, and ends at a goal
        // short of the last portal's left end (13.5, 13.5): the tangent to that end's circle
        // passes (8, 16.5) 0.89 away, so the funnel wraps (8, 16.5), though the tangent from
        // (6.5, 18) to the goal passes it more than 0.9 away.
        let (start, goal) = (p(2.14, 13.3), p(12.32, 14.07));
        let portals = [
            (start, start),
            (p(0., 20.), p(4.5, 10.5)),
            (p(0., 20.), p(6.5, 18.)),
            (p(20., 20.), p(6.5, 18.)),
            (p(20., 20.), p(8., 16.5)),
            (p(13.5, 13.5), p(8., 16.5)),
            (goal, goal),
        ];
        let (mut bends, mut arcs, mut out) = (Vec::new(), Vec::new(), Vec::new());
        pull_disc(&portals, 0.9, &mut Default::default(), &mut bends, &mut arcs, &mut out);
        let centres = |bends: &[Bend]| bends.iter().map(|b| b.centre).collect::<Vec<_>>();
        assert_eq!(centres(&bends), [start, p(6.5, 18.), p(8., 16.5), goal]);
        assert!(drop_slack_bends(&mut bends, |_| false));
        assert_eq!(centres(&bends), [start, p(6.5, 18.), goal]);
        assert!(!drop_slack_bends(&mut bends, |_| false));
        write_path(&bends, &mut arcs, &mut out);
        assert_eq!((out.first(), out.last(), arcs.len()), (Some(&start), Some(&goal), 1));
        // The last segment keeps 0.9 from (8, 16.5).
        let [a, b] = [out[out.len() - 2], goal];
        let d = crate::clearance::segment_distance(p(8., 16.5), a, b);
        assert!(d > 0.9, "{d}");
    }

    #[test]
    fn a_straight_corridor_is_one_segment() {
        let portals = [
            (p(0., 0.), p(0., 0.)),
            (p(1., 2.), p(1., -2.)),
            (p(2., 2.), p(2., -2.)),
            (p(3., 0.), p(3., 0.)),
        ];
        let mut out = Vec::new();
        pull_disc(&portals, 0.5, &mut Default::default(), &mut Vec::new(), &mut Vec::new(), &mut out);
        assert_eq!(out, vec![p(0., 0.), p(3., 0.)]);
    }
}
