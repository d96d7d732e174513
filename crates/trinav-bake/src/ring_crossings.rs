//! Whether rings cross: two edges meeting at a point inside both, or running along each other.
//! Rings may share vertices, and a vertex may lie inside another edge (the noding makes it a
//! shared vertex). Imported outlines are checked with it before the triangulation, which
//! expects rings that do not cross (i_triangle can panic or index out of bounds otherwise).
//!
//! The edges are bucketed in a uniform grid over their bounds, each in the cells its box
//! covers, and each pair of edges sharing a cell is tested once, with the exact orientation
//! predicate.

use trinav::geometry::{Orientation, orient};
use trinav::{Aabb, Point};

use crate::segment_points::CellGrid;

/// Why [`first_crossing`] found no answer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TooComplex;

/// Two edges of `rings` that cross or overlap (`Ok(None)`: none do), or [`TooComplex`] when
/// the edges' boxes cover more than [`WORK_PER_EDGE`] grid cells an edge (long oblique edges
/// among many) or their cells hold more than that many pairs an edge (edges crowded into few
/// cells), where the search would cost more than it may: real meshes have 4 to 5 pairs an edge.
pub(crate) fn first_crossing<'a>(
    rings: impl Iterator<Item = &'a [Point]>,
) -> Result<Option<[(Point, Point); 2]>, TooComplex> {
    let mut edges: Vec<(Point, Point)> = Vec::new();
    for ring in rings {
        let next = ring.iter().cycle().skip(1);
        edges.extend(ring.iter().zip(next).filter(|(a, b)| a != b).map(|(&a, &b)| (a, b)));
    }
    if edges.len() < 2 {
        return Ok(None);
    }
    let grid = EdgeGrid::new(&edges)?;
    for cell in 0..grid.start.len() - 1 {
        let here = &grid.edges[grid.start[cell] as usize..grid.start[cell + 1] as usize];
        for (k, &i) in here.iter().enumerate() {
            for &j in &here[k + 1..] {
                let (e, f) = (edges[i as usize], edges[j as usize]);
                // Test each pair in one cell only: the cell of their boxes' overlap's corner.
                let corner = Point::new(
                    e.0.x.min(e.1.x).max(f.0.x.min(f.1.x)),
                    e.0.y.min(e.1.y).max(f.0.y.min(f.1.y)),
                );
                if grid.grid.index(grid.grid.cell(corner)) != cell {
                    continue;
                }
                if crosses(e, f) {
                    return Ok(Some([e, f]));
                }
            }
        }
    }
    Ok(None)
}

/// Cells covered, and pairs of edges sharing a cell, allowed per edge before [`first_crossing`]
/// gives up (plus a fixed allowance for small outlines).
pub(crate) const WORK_PER_EDGE: usize = 64;

/// The allowance of cells and pairs for `edges` edges.
fn work_allowed(edges: usize) -> usize {
    WORK_PER_EDGE * edges + 65_536
}

/// Edge indices bucketed by the cells of a [`CellGrid`] their boxes cover (compressed rows).
struct EdgeGrid {
    grid: CellGrid,
    start: Vec<u32>,
    edges: Vec<u32>,
}

impl EdgeGrid {
    fn new(edges: &[(Point, Point)]) -> Result<EdgeGrid, TooComplex> {
        // Every edge's end is the next edge's start: the starts span them all.
        let grid = CellGrid::over(Aabb::from_points(edges.iter().map(|e| e.0)), edges.len());
        let boxes: Vec<[usize; 4]> = (edges.iter())
            .map(|&(a, b)| {
                grid.span(Point::new(a.x.min(b.x), a.y.min(b.y)), Point::new(a.x.max(b.x), a.y.max(b.y)))
            })
            .collect();
        let covered: usize = boxes.iter().map(|[c0, r0, c1, r1]| (c1 - c0 + 1) * (r1 - r0 + 1)).sum();
        if covered > work_allowed(edges.len()) {
            return Err(TooComplex);
        }
        let cells_of =
            |&[c0, r0, c1, r1]: &[usize; 4]| (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| (c, r)));
        let mut start = vec![0u32; grid.cells() + 1];
        for cell in boxes.iter().flat_map(cells_of) {
            start[grid.index(cell) + 1] += 1;
        }
        let pairs: usize = start.iter().map(|&k| k as usize * (k as usize).saturating_sub(1) / 2).sum();
        if pairs > work_allowed(edges.len()) {
            return Err(TooComplex);
        }
        for i in 0..grid.cells() {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut bucketed = vec![0; covered];
        for (i, span) in boxes.iter().enumerate() {
            for cell in cells_of(span) {
                let slot = &mut fill[grid.index(cell)];
                bucketed[*slot as usize] = i as u32;
                *slot += 1;
            }
        }
        Ok(EdgeGrid { grid, start, edges: bucketed })
    }
}

/// Whether edges `e` and `f` cross (each passing through the other's inside) or overlap (along
/// a line, for a positive length); `false` when they are apart, share an end, or one ends on
/// the other.
fn crosses((a, b): (Point, Point), (c, d): (Point, Point)) -> bool {
    if !Aabb::from_points([a, b]).meets(&Aabb::from_points([c, d])) {
        return false;
    }
    let (o1, o2) = (orient(a, b, c), orient(a, b, d));
    let (o3, o4) = (orient(c, d, a), orient(c, d, b));
    use Orientation::Collinear;
    if o1 != Collinear && o2 != Collinear && o3 != Collinear && o4 != Collinear {
        // A proper crossing: each edge has the other's ends on both sides.
        return o1 != o2 && o3 != o4;
    }
    if o1 == Collinear && o2 == Collinear {
        // On one line: they overlap when their spans along it (by x, or by y for a vertical
        // line) share more than a point.
        let key = |p: Point| if a.x != b.x { p.x } else { p.y };
        let low = key(a).min(key(b)).max(key(c).min(key(d)));
        let high = key(a).max(key(b)).min(key(c).max(key(d)));
        return low < high;
    }
    // One end on the other edge: a touch the noding turns into a shared vertex.
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn crossings_and_overlaps_are_found_touches_are_not() {
        let square = [p(0., 0.), p(4., 0.), p(4., 4.), p(0., 4.)];
        // A hole inside, a hole touching the outer ring at a vertex and one with a vertex on
        // its edge: no crossing.
        let inside = [p(1., 1.), p(1., 2.), p(2., 2.), p(2., 1.)];
        let at_vertex = [p(4., 4.), p(3., 3.), p(3.5, 2.)];
        let on_edge = [p(2., 0.), p(1.5, 0.5), p(2.5, 0.5)];
        for hole in [&inside[..], &at_vertex, &on_edge] {
            assert_eq!(first_crossing([&square[..], hole].into_iter()), Ok(None), "{hole:?}");
        }
        // A hole reaching out through the right edge, one running along the bottom edge.
        let through = [p(3., 1.), p(3., 2.), p(5., 2.), p(5., 1.)];
        let along = [p(1., 0.), p(1., 1.), p(3., 1.), p(3., 0.)];
        for hole in [&through[..], &along] {
            assert!(first_crossing([&square[..], hole].into_iter()).unwrap().is_some(), "{hole:?}");
        }
        // A ring crossing itself (a bow tie).
        let bow_tie = [p(0., 0.), p(2., 2.), p(2., 0.), p(0., 2.)];
        let found = first_crossing([&bow_tie[..]].into_iter()).unwrap().unwrap();
        assert_eq!(found, [(p(0., 0.), p(2., 2.)), (p(2., 0.), p(0., 2.))]);
    }

    #[test]
    fn the_grid_finds_what_every_pair_finds() {
        // Random short edges: the bucketed search against testing every pair.
        let mut random = crate::generate::SplitMix64::new(5);
        for _ in 0..300 {
            let n = 3 + random.below(30) as usize;
            let ring: Vec<Point> =
                (0..n).map(|_| p(random.below(20) as f64 * 0.5, random.below(20) as f64 * 0.5)).collect();
            let edges: Vec<(Point, Point)> =
                (0..n).map(|i| (ring[i], ring[(i + 1) % n])).filter(|(a, b)| a != b).collect();
            let every_pair =
                (0..edges.len()).any(|i| (i + 1..edges.len()).any(|j| crosses(edges[i], edges[j])));
            let found = first_crossing([&ring[..]].into_iter()).unwrap();
            assert_eq!(found.is_some(), every_pair, "{ring:?}");
        }
    }

    #[test]
    fn too_many_long_oblique_edges_or_too_crowded_cells_are_not_searched() {
        // Thousands of diagonals across the whole box: each covers every cell.
        let diagonals: Vec<Point> = (0..4000)
            .map(|i| if i % 2 == 0 { p(0., i as f64) } else { p(4000., ((i + 3000) % 4000) as f64) })
            .collect();
        assert_eq!(first_crossing([&diagonals[..]].into_iter()), Err(TooComplex));
        // 100,000 tiny edges in one corner of a box stretched by one far point: one cell.
        let mut crowded: Vec<Point> =
            (0..100_000).map(|i| p((i % 317) as f64 * 1e-3, (i / 317) as f64 * 1e-3)).collect();
        crowded.push(p(1e6, 1e6));
        assert_eq!(first_crossing([&crowded[..]].into_iter()), Err(TooComplex));
    }
}
