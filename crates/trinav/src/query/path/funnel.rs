//! The funnel algorithm ("simple stupid funnel", after Mikko Mononen): string-pulls a corridor
//! of portals into the shortest path through it. Every turn of the result is at a portal end,
//! i.e. at a corridor vertex.

use crate::geometry::{Orientation, Point, orient};

/// One portal: the left and right ends of an edge the path crosses, as seen walking forward.
pub(crate) type Portal = (Point, Point);

/// Writes to `out` (cleared first) the taut path through `portals`. The first portal is
/// `(start, start)` and the last `(goal, goal)`. Repeated points and points lying exactly on
/// the straight line between their neighbours are left out.
pub(crate) fn string_pull(portals: &[Portal], out: &mut Vec<Point>) {
    out.clear();
    let Some(&(start, _)) = portals.first() else { return };
    let (mut apex, mut left, mut right) = (start, start, start);
    let (mut left_at, mut right_at) = (0usize, 0usize);
    push_point(out, apex);
    let mut i = 1;
    while i < portals.len() {
        let (l, r) = portals[i];
        // Right side: `r` narrows the funnel when it is left of (or on) apex -> right.
        if orient(apex, right, r) != Orientation::Clockwise {
            if apex == right || orient(apex, left, r) == Orientation::Clockwise {
                right = r;
                right_at = i;
            } else {
                // The right side crossed the left one: the left end is a corner of the path.
                apex = left;
                push_point(out, apex);
                (right, right_at) = (apex, left_at);
                i = left_at + 1;
                continue;
            }
        }
        // Left side, mirrored.
        if orient(apex, left, l) != Orientation::CounterClockwise {
            if apex == left || orient(apex, right, l) == Orientation::CounterClockwise {
                left = l;
                left_at = i;
            } else {
                apex = right;
                push_point(out, apex);
                (left, left_at) = (apex, right_at);
                i = right_at + 1;
                continue;
            }
        }
        i += 1;
    }
    if let Some(&(goal, _)) = portals.last() {
        push_point(out, goal);
    }
}

#[inline]
fn push_point(out: &mut Vec<Point>, p: Point) {
    if out.last() == Some(&p) {
        return;
    }
    if let [.., a, b] = out[..] {
        let between = (b.x - a.x) * (p.x - b.x) + (b.y - a.y) * (p.y - b.y) > 0.0;
        if between && orient(a, b, p) == Orientation::Collinear {
            out.pop();
        }
    }
    out.push(p);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    fn pull(portals: &[Portal]) -> Vec<Point> {
        let mut out = Vec::new();
        string_pull(portals, &mut out);
        out
    }

    #[test]
    fn straight_corridor_is_one_segment() {
        // Walking +x through vertical portals: left is +y.
        let portals = [
            (p(0., 0.), p(0., 0.)),
            (p(1., 1.), p(1., -1.)),
            (p(2., 1.), p(2., -1.)),
            (p(3., 0.), p(3., 0.)),
        ];
        assert_eq!(pull(&portals), vec![p(0., 0.), p(3., 0.)]);
    }

    #[test]
    fn turns_at_the_inner_corner() {
        // An L-shaped corridor turning left around the corner (1, 1).
        let portals =
            [(p(0., 0.), p(0., 0.)), (p(1., 1.), p(1., -1.)), (p(1., 1.), p(3., 1.)), (p(2., 4.), p(2., 4.))];
        assert_eq!(pull(&portals), vec![p(0., 0.), p(1., 1.), p(2., 4.)]);
    }

    #[test]
    fn collinear_portals_sharing_ends_give_no_extra_turns() {
        // A fan of portals all sharing the left end (1, 1), the path grazing it straight.
        let portals = [
            (p(0., 0.), p(0., 0.)),
            (p(1., 1.), p(1., -1.)),
            (p(1., 1.), p(2., -1.)),
            (p(1., 1.), p(3., -1.)),
            (p(4., 0.), p(4., 0.)),
        ];
        assert_eq!(pull(&portals), vec![p(0., 0.), p(4., 0.)]);
        // Portals whose ends lie on one line through the start.
        let portals =
            [(p(0., 0.), p(0., 0.)), (p(1., 1.), p(1., 0.)), (p(2., 2.), p(2., 0.)), (p(3., 3.), p(3., 3.))];
        assert_eq!(pull(&portals), vec![p(0., 0.), p(3., 3.)]);
    }

    #[test]
    fn zig_zag_touches_alternate_corners() {
        let portals = [
            (p(0., 0.), p(0., 0.)),
            (p(1., 3.), p(1., 1.)),
            (p(2., -1.), p(2., -3.)),
            (p(3., 3.), p(3., 1.)),
            (p(4., 0.), p(4., 0.)),
        ];
        assert_eq!(pull(&portals), vec![p(0., 0.), p(1., 1.), p(2., -1.), p(3., 1.), p(4., 0.)]);
    }

    #[test]
    fn degenerate_corridors() {
        assert_eq!(pull(&[(p(1., 1.), p(1., 1.)), (p(1., 1.), p(1., 1.))]), vec![p(1., 1.)]);
        assert_eq!(pull(&[]), Vec::<Point>::new());
        // A goal exactly on a portal end.
        let portals = [(p(0., 0.), p(0., 0.)), (p(1., 1.), p(1., -1.)), (p(1., 1.), p(1., 1.))];
        assert_eq!(pull(&portals), vec![p(0., 0.), p(1., 1.)]);
    }
}
