//! Boundary tracing: turns the directed boundary edges of a walkable region (walkable side on
//! the left) into rings, and the rings into a [`MergedRegion`].
//!
//! Where several boundary edges leave one vertex (a pinch: two obstacles, or two walkable
//! pieces, meeting at a single point), each arriving edge continues along the leaving edge
//! that turns furthest left, hugging the walkable piece it belongs to. A ring that comes back
//! to a vertex it passed is then split there into simple rings, so rings never cross or touch
//! themselves; rings meeting at a pinch share the vertex, and the triangulation does not
//! connect the two sides through it.

use trinav::Point;
use trinav::geometry::{Orientation, orient};

use crate::merge::{MergedPolygon, MergedRegion, ring_signed_area};

/// A directed boundary edge between two point indices, with the walkable piece on its left
/// and the label of the connected walkable component it bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoundaryEdge {
    pub from: u32,
    pub to: u32,
    pub component: u32,
}

/// Why traced boundary edges do not form a region.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TraceError {
    /// An edge arrives at a vertex that no edge leaves.
    #[error("the boundary is not closed at ({}, {})", .0.x, .0.y)]
    Open(Point),
    /// Two boundary edges cross or run along each other: the faces overlap.
    #[error("boundary edges ({}, {})-({}, {}) and ({}, {})-({}, {}) cross: the faces overlap", .0[0].0.x, .0[0].0.y, .0[0].1.x, .0[0].1.y, .0[1].0.x, .0[1].0.y, .0[1].1.x, .0[1].1.y)]
    Crossing([(Point, Point); 2]),
    /// The outline's edges are too long and oblique, or too crowded, for the crossing check.
    #[error("the outline's edges are too long or too crowded to check that they do not cross")]
    TooComplexToCheck,
    /// A component has no outer ring, or more than one.
    #[error("walkable component {component} has {outer_rings} outer rings")]
    Outer {
        /// The component label.
        component: u32,
        /// How many counter-clockwise rings it got.
        outer_rings: usize,
    },
}

/// Links the edges into rings and groups them into polygons: per component, the one
/// counter-clockwise ring is the outer ring and the clockwise rings are its holes. Points that
/// lie exactly on the straight line between their ring neighbours are dropped.
pub(crate) fn region_from_edges(
    points: &[Point],
    edges: &[BoundaryEdge],
) -> Result<MergedRegion, TraceError> {
    // Outgoing edges per vertex, compressed-row layout.
    let mut start = vec![0u32; points.len() + 1];
    for e in edges {
        start[e.from as usize + 1] += 1;
    }
    for i in 0..points.len() {
        start[i + 1] += start[i];
    }
    let mut outgoing = vec![0u32; edges.len()];
    let mut fill = start.clone();
    for (k, e) in edges.iter().enumerate() {
        outgoing[fill[e.from as usize] as usize] = k as u32;
        fill[e.from as usize] += 1;
    }
    let leaving = |v: u32| &outgoing[start[v as usize] as usize..start[v as usize + 1] as usize];

    let mut used = vec![false; edges.len()];
    let mut rings: Vec<(u32, Vec<Point>)> = Vec::new();
    for first in 0..edges.len() {
        if used[first] {
            continue;
        }
        let mut ring = Vec::new();
        let mut k = first;
        loop {
            used[k] = true;
            let e = edges[k];
            ring.push(e.from);
            let next =
                next_edge(points, edges, e, leaving(e.to)).ok_or(TraceError::Open(points[e.to as usize]))?;
            if next == first {
                break;
            }
            if used[next] {
                return Err(TraceError::Open(points[e.to as usize]));
            }
            k = next;
        }
        let component = edges[first].component;
        for simple in split_at_repeats(&ring) {
            let ring_points = simple.iter().map(|&v| points[v as usize]).collect();
            rings.push((component, drop_straight_points(ring_points)));
        }
    }

    let components = edges.iter().map(|e| e.component as usize + 1).max().unwrap_or(0);
    polygons_from_rings(rings, components)
}

/// Groups rings, each with its component label (below `components`), into polygons: per
/// component, the one counter-clockwise ring is the outer ring and the clockwise rings are its
/// holes; rings of fewer than 3 points are dropped. Polygons come in component order.
pub(crate) fn polygons_from_rings(
    rings: Vec<(u32, Vec<Point>)>,
    components: usize,
) -> Result<MergedRegion, TraceError> {
    let mut outer: Vec<Option<Vec<Point>>> = vec![None; components];
    let mut holes: Vec<Vec<Vec<Point>>> = vec![Vec::new(); components];
    for (component, ring) in rings {
        if ring.len() < 3 {
            continue;
        }
        let c = component as usize;
        if ring_signed_area(&ring) > 0.0 {
            if outer[c].is_some() {
                return Err(TraceError::Outer { component, outer_rings: 2 });
            }
            outer[c] = Some(ring);
        } else {
            holes[c].push(ring);
        }
    }
    let mut polygons = Vec::new();
    for (c, (outer, holes)) in outer.into_iter().zip(holes).enumerate() {
        match outer {
            Some(outer) => polygons.push(MergedPolygon { outer, holes }),
            None if holes.is_empty() => {}
            None => return Err(TraceError::Outer { component: c as u32, outer_rings: 0 }),
        }
    }
    Ok(MergedRegion { polygons, inflated_obstacles: Vec::new(), ..MergedRegion::default() })
}

/// Of the edges leaving the end of `arriving`, the one turning furthest left: the first met
/// when turning clockwise from straight back, i.e. the boundary of the piece on the left (the
/// last of equals). Every comparison is an exact orientation or a comparison of coordinates.
fn next_edge(
    points: &[Point],
    edges: &[BoundaryEdge],
    arriving: BoundaryEdge,
    leaving: &[u32],
) -> Option<usize> {
    let (a, v) = (points[arriving.from as usize], points[arriving.to as usize]);
    let end = |k: u32| points[edges[k as usize].to as usize];
    let mut best: Option<u32> = None;
    for &k in leaving {
        if best.is_none_or(|b| turn_order(a, v, end(k), end(b)) != std::cmp::Ordering::Less) {
            best = Some(k);
        }
    }
    best.map(|k| k as usize)
}

/// How the turn from `a -> v` onto `v -> b` compares with the turn onto `v -> c`, furthest left
/// greatest: straight back, then left turns (sharper first), straight on, right turns.
fn turn_order(a: Point, v: Point, b: Point, c: Point) -> std::cmp::Ordering {
    // The turn's class: 3 straight back, 2 left, 1 straight on, 0 right.
    let class = |p: Point| match orient(a, v, p) {
        Orientation::CounterClockwise => 2,
        Orientation::Clockwise => 0,
        // On the line through a and v: back when p lies on a's side of v.
        Orientation::Collinear => {
            let ahead = p.x.partial_cmp(&v.x) == v.x.partial_cmp(&a.x)
                && p.y.partial_cmp(&v.y) == v.y.partial_cmp(&a.y);
            if ahead { 1 } else { 3 }
        }
    };
    let (cb, cc) = (class(b), class(c));
    if cb != cc || cb % 2 == 1 {
        return cb.cmp(&cc);
    }
    // Both on the same side: the one counter-clockwise of the other turns further left.
    match orient(v, c, b) {
        Orientation::CounterClockwise => std::cmp::Ordering::Greater,
        Orientation::Clockwise => std::cmp::Ordering::Less,
        Orientation::Collinear => std::cmp::Ordering::Equal,
    }
}

/// Splits a closed ring of vertex ids that passes some vertex twice into rings that pass
/// every vertex once: each time the walk comes back to a vertex still open, the loop since then
/// is cut off.
pub(crate) fn split_at_repeats(ring: &[u32]) -> Vec<Vec<u32>> {
    split_at_candidates(ring, 0..ring.len(), ring.len() > SHORT_RING)
}

/// [`split_at_repeats`] of a ring that can pass a vertex twice only at the positions
/// `candidates` (ascending; a traced grid's double corners, which the walk notes as it passes
/// them): only those are looked for among the open vertices, and no other vertex is hashed.
pub(crate) fn split_at_repeats_at(ring: &[u32], candidates: &[usize]) -> Vec<Vec<u32>> {
    split_at_candidates(ring, candidates.iter().copied(), candidates.len() > SHORT_RING)
}

/// Rings with up to this many positions to look at find a repeated vertex by scanning the
/// open ones (a grid map's pinched holes are short), others through a hash map.
const SHORT_RING: usize = 32;

/// [`split_at_repeats`] looking only at the positions `candidates` (ascending), finding the
/// open ones through a hash map (`hashed`) or by a scan.
fn split_at_candidates(ring: &[u32], candidates: impl Iterator<Item = usize>, hashed: bool) -> Vec<Vec<u32>> {
    let mut loops = Vec::new();
    let mut open: Vec<u32> = Vec::with_capacity(ring.len());
    // The open candidates, as (vertex, index in `open`) by index, and (if `hashed`) the same
    // by vertex.
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let mut position: foldhash::HashMap<u32, usize> = foldhash::HashMapExt::new();
    let mut candidates = candidates.peekable();
    for (i, &v) in ring.iter().enumerate() {
        if candidates.next_if_eq(&i).is_some() {
            let at = if hashed {
                position.get(&v).copied()
            } else {
                stack.iter().find(|&&(u, _)| u == v).map(|&(_, at)| at)
            };
            if let Some(at) = at {
                loops.push(open.drain(at..).collect());
                while let Some(&(u, j)) = stack.last()
                    && j >= at
                {
                    stack.pop();
                    if hashed {
                        position.remove(&u);
                    }
                }
            }
            stack.push((v, open.len()));
            if hashed {
                position.insert(v, open.len());
            }
        }
        open.push(v);
    }
    loops.push(open);
    loops
}

/// Drops points lying exactly on the straight line between their neighbours (repeatedly, so
/// runs of them go).
fn drop_straight_points(mut ring: Vec<Point>) -> Vec<Point> {
    let mut changed = true;
    while changed && ring.len() >= 3 {
        changed = false;
        let n = ring.len();
        let keep: Vec<bool> = (0..n)
            .map(|i| {
                let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
                let straight = orient(a, b, c) == Orientation::Collinear
                    && (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) > 0.0;
                !straight
            })
            .collect();
        if keep.iter().any(|k| !k) {
            changed = true;
            ring = ring.into_iter().zip(keep).filter_map(|(p, k)| k.then_some(p)).collect();
        }
    }
    ring
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The loops of `ring` the plain way: every vertex looked for among the open ones.
    fn split_by_scanning(ring: &[u32]) -> Vec<Vec<u32>> {
        let mut loops = Vec::new();
        let mut open: Vec<u32> = Vec::new();
        for &v in ring {
            if let Some(at) = open.iter().position(|&u| u == v) {
                loops.push(open.split_off(at));
            }
            open.push(v);
        }
        loops.push(open);
        loops
    }

    #[test]
    fn a_ring_through_a_pinch_splits_into_its_two_loops() {
        assert_eq!(split_at_repeats(&[1, 2, 3, 2, 4]), vec![vec![2, 3], vec![1, 2, 4]]);
    }

    proptest! {
        /// The scan of the open vertices (short rings) cuts the same loops as the hash map.
        #[test]
        fn the_scan_and_the_hash_map_cut_the_same_loops(ring in proptest::collection::vec(0u32..12, 0..80)) {
            let plain = split_by_scanning(&ring);
            for hashed in [false, true] {
                prop_assert_eq!(&split_at_candidates(&ring, 0..ring.len(), hashed), &plain);
            }
        }

        /// Looking only at the positions of the vertices that can repeat (here the even ones;
        /// each odd one appears once) cuts the same loops as looking for every vertex, by a
        /// scan and by a hash map.
        #[test]
        fn only_the_positions_that_can_repeat_need_looking_at(
            evens in proptest::collection::vec(0u32..40, 0..120),
            odds in proptest::collection::vec(any::<bool>(), 0..120),
        ) {
            let mut ring = Vec::new();
            for (i, &v) in evens.iter().enumerate() {
                ring.push(2 * v);
                if odds.get(i).copied().unwrap_or(false) {
                    ring.push(2 * i as u32 + 1);
                }
            }
            let candidates: Vec<usize> = (0..ring.len()).filter(|&i| ring[i] % 2 == 0).collect();
            let plain = split_by_scanning(&ring);
            for hashed in [false, true] {
                let at = split_at_candidates(&ring, candidates.iter().copied(), hashed);
                prop_assert_eq!(&at, &plain);
            }
            prop_assert_eq!(split_at_repeats_at(&ring, &candidates), plain);
        }
    }
}
