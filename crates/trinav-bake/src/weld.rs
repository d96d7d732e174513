//! Stage 4, weld and adjacency: share vertices between triangles and link neighbours.
//!
//! Vertices weld only when their coordinates are identical (bit for bit, with `-0.0` equal to
//! `0.0`): no tolerance ever moves a point. Vertex ids follow first use, so the result depends
//! only on the triangle order. Adjacency is by shared edges only
//! ([`trinav::build::build_adjacency`]): triangles that meet at a single vertex are not neighbours.
//! A region of one polygon triangulated by i_triangle comes with its neighbours and with every
//! point at its own position: those are taken instead (each link checked to point back across
//! the same edge), the same mesh without a table of positions or a rebuilt adjacency.
//!
//! T-junctions are repaired: ear clipping drops ring points that are collinear with their
//! neighbours, and across a hole bridge that leaves a vertex lying inside the edge of a
//! triangle on the other side, so the two sides share no edge. Every unshared edge with a
//! vertex exactly on its interior (exact predicate) is split there: its triangle becomes a fan
//! from the opposite corner. Area is unchanged and no point moves.

use foldhash::{HashMap, HashMapExt};

use trinav::build::{TopologyError, build_adjacency};
use trinav::{AreaId, Point, TriangleId, VertexId};

use crate::point_table::PointTable;
use crate::segment_points::SegmentPoints;

use crate::triangulate::TriangleSoup;

/// The output of stage 4.
#[derive(Clone, Debug, PartialEq)]
pub struct WeldedMesh {
    /// Distinct vertex positions.
    pub vertices: Vec<Point>,
    /// Counter-clockwise triangles as vertex ids.
    pub triangles: Vec<[VertexId; 3]>,
    /// Neighbour across each edge ([`TriangleId::NONE`] on the boundary).
    pub neighbours: Vec<[TriangleId; 3]>,
    /// The area type of each triangle (a split triangle's pieces keep its type).
    pub areas: Vec<AreaId>,
}

/// Why welding failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WeldError {
    /// More vertices or triangles than `u32` ids can name.
    #[error("mesh too large: {0} elements exceed the u32 id range")]
    TooLarge(usize),
    /// The triangles do not form a valid surface (an edge used twice in one direction).
    #[error(transparent)]
    Topology(#[from] TopologyError),
}

/// Runs stage 4.
pub fn weld(soup: &TriangleSoup) -> Result<WeldedMesh, WeldError> {
    let limit = u32::MAX as usize - 1;
    if soup.triangles.len() > limit || soup.points.len() > limit {
        return Err(WeldError::TooLarge(soup.triangles.len().max(soup.points.len())));
    }
    if let Some(links) = soup.neighbours.as_deref().filter(|_| !soup.t_junctions)
        && let Some(welded) = take_links(soup, links)
    {
        return Ok(welded);
    }
    // Each soup point is looked up once; points at one position share a vertex.
    let mut ids = PointTable::for_points(soup.points.iter().copied());
    let (vertices, mut triangles) = number_by_first_use(soup, 0, |p, vertices| {
        ids.get_or_insert_with(p, || {
            vertices.push(p);
            (vertices.len() - 1) as u32
        })
    });
    let mut neighbours = build_adjacency(&triangles, vertices.len())?;
    let mut areas = soup.areas.clone();
    areas.resize(triangles.len(), AreaId(0));
    // One pass splits every T-junction: the edges it creates end at existing vertices on the
    // split edge, so they hold no further vertex inside.
    if soup.t_junctions && split_t_junctions(&vertices, &mut triangles, &mut areas, &neighbours) {
        neighbours = build_adjacency(&triangles, vertices.len())?;
    }
    if triangles.len() > limit {
        return Err(WeldError::TooLarge(triangles.len()));
    }
    Ok(WeldedMesh { vertices, triangles, neighbours, areas })
}

/// The vertices and the triangles as vertex ids, the ids following the first use of a soup
/// point in triangle order: `id_of(p, vertices)` gives the id of point `p` when one of its
/// soup entries is first used, pushing it onto `vertices` (made with `capacity`) if it is new.
fn number_by_first_use(
    soup: &TriangleSoup,
    capacity: usize,
    mut id_of: impl FnMut(Point, &mut Vec<Point>) -> u32,
) -> (Vec<Point>, Vec<[VertexId; 3]>) {
    let mut vertex_of = vec![VertexId::NONE; soup.points.len()];
    let mut vertices = Vec::with_capacity(capacity);
    let triangles = (soup.triangles.iter())
        .map(|tri| {
            tri.map(|i| {
                let slot = &mut vertex_of[i as usize];
                if slot.is_none() {
                    *slot = VertexId(id_of(soup.points[i as usize], &mut vertices));
                }
                *slot
            })
        })
        .collect();
    (vertices, triangles)
}

/// [`weld`] of a soup whose points lie at distinct positions (and within the id range, which
/// `weld` checks first), with the triangulator's neighbours (`links`, `u32::MAX` for none):
/// vertex ids by first use in triangle order, as welding gives them, and the neighbours taken
/// once each is seen to link back across the same edge the other way. `None` if one does not
/// (the soup is then welded as any other); the verification stage checks that the unlinked
/// edges are the rings.
fn take_links(soup: &TriangleSoup, links: &[[u32; 3]]) -> Option<WeldedMesh> {
    let count = soup.triangles.len();
    if links.len() != count {
        return None;
    }
    // Every point a vertex of its own.
    let (vertices, triangles) = number_by_first_use(soup, soup.points.len(), |p, vertices| {
        vertices.push(p);
        (vertices.len() - 1) as u32
    });
    let mut neighbours = Vec::with_capacity(count);
    for (t, (tri, across)) in triangles.iter().zip(links).enumerate() {
        let mut linked = [TriangleId::NONE; 3];
        for (edge, &n) in across.iter().enumerate() {
            if n == u32::MAX {
                continue;
            }
            let (from, to) = (tri[edge], tri[(edge + 1) % 3]);
            let other = triangles.get(n as usize)?;
            let back = (0..3).find(|&k| other[k] == to && other[(k + 1) % 3] == from)?;
            if links[n as usize][back] as usize != t {
                return None;
            }
            linked[edge] = TriangleId(n);
        }
        neighbours.push(linked);
    }
    let mut areas = soup.areas.clone();
    areas.resize(count, AreaId(0));
    Some(WeldedMesh { vertices, triangles, neighbours, areas })
}

/// Splits every unshared edge that has an endpoint of another unshared edge strictly inside it.
/// Returns whether anything was split.
fn split_t_junctions(
    vertices: &[Point],
    triangles: &mut Vec<[VertexId; 3]>,
    areas: &mut Vec<AreaId>,
    neighbours: &[[TriangleId; 3]],
) -> bool {
    let mut open_edges = Vec::new();
    for (t, links) in neighbours.iter().enumerate() {
        for (i, n) in links.iter().enumerate() {
            if n.is_none() {
                open_edges.push((t, i));
            }
        }
    }
    let mut candidates: Vec<VertexId> = open_edges.iter().map(|&(t, i)| triangles[t][i]).collect();
    candidates.sort_unstable();
    candidates.dedup();
    let grid = SegmentPoints::new(candidates.iter().map(|&v| (vertices[v.index()], v)));

    // Vertices strictly inside each open edge, ordered from its start to its end.
    let mut splits: HashMap<(usize, usize), Vec<VertexId>> = HashMap::new();
    for &(t, i) in &open_edges {
        let (a, b) = (triangles[t][i], triangles[t][(i + 1) % 3]);
        let (pa, pb) = (vertices[a.index()], vertices[b.index()]);
        let inside = grid.strictly_inside(pa, pb);
        if !inside.is_empty() {
            splits.insert((t, i), inside);
        }
    }
    if splits.is_empty() {
        return false;
    }
    let mut out = Vec::with_capacity(triangles.len() + splits.len() * 2);
    let mut out_areas = Vec::with_capacity(out.capacity());
    for (t, &tri) in triangles.iter().enumerate() {
        let mut pieces = vec![tri];
        for i in 0..3 {
            let Some(points) = splits.get(&(t, i)) else { continue };
            let (a, b) = (tri[i], tri[(i + 1) % 3]);
            // The piece that still holds the whole edge a->b (splitting another edge keeps it
            // whole in exactly one piece), fanned from its opposite corner.
            let (k, j) = pieces
                .iter()
                .enumerate()
                .find_map(|(k, w)| (0..3).find(|&j| w[j] == a && w[(j + 1) % 3] == b).map(|j| (k, j)))
                .expect("an edge being split is whole in one piece");
            let apex = pieces.swap_remove(k)[(j + 2) % 3];
            let chain: Vec<VertexId> = std::iter::once(a).chain(points.iter().copied()).chain([b]).collect();
            pieces.extend(chain.windows(2).map(|pair| [pair[0], pair[1], apex]));
        }
        out_areas.extend(std::iter::repeat_n(areas[t], pieces.len()));
        out.extend(pieces);
    }
    *triangles = out;
    *areas = out_areas;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn identical_points_weld_and_near_points_do_not() {
        let near = f64::from_bits(1.0f64.to_bits() + 1);
        let soup = TriangleSoup::from_corners(&[
            [p(0., 0.), p(1., 0.), p(0., 1.)],
            [p(1., 0.), p(1., 1.), p(0., 1.)],
            [p(near, 2.), p(-0.0, 2.), p(0., 1.)],
        ]);
        let mesh = weld(&soup).unwrap();
        // (0,1) is shared by all three; -0.0 welds with... nothing else here; `near` stays apart.
        assert_eq!(mesh.vertices.len(), 6);
        assert_eq!(mesh.neighbours[0][1], TriangleId(1));
        assert_eq!(mesh.neighbours[1][2], TriangleId(0));
        assert!(mesh.neighbours[2].iter().all(|n| n.is_none()));
    }

    #[test]
    fn negative_zero_welds_with_zero() {
        let soup = TriangleSoup::from_corners(&[
            [p(0., 0.), p(1., 0.), p(0., 1.)],
            [p(1., 0.), p(1., 1.), p(-0.0, 1.)],
        ]);
        let mesh = weld(&soup).unwrap();
        assert_eq!(mesh.vertices.len(), 4);
        assert_eq!(mesh.neighbours[1][2], TriangleId(0));
    }

    #[test]
    fn corner_to_corner_triangles_share_a_vertex_but_not_adjacency() {
        let soup = TriangleSoup::from_corners(&[
            [p(0., 0.), p(1., 0.), p(1., 1.)],
            [p(1., 1.), p(2., 1.), p(2., 2.)],
        ]);
        let mesh = weld(&soup).unwrap();
        assert_eq!(mesh.vertices.len(), 5);
        assert!(mesh.neighbours.iter().flatten().all(|n| n.is_none()));
    }

    #[test]
    fn t_junction_is_split_into_shared_edges() {
        // Below: one triangle with edge (4,0)->(0,0). Above: two triangles meeting at (1,0),
        // which lies inside that edge.
        let soup = TriangleSoup::from_corners(&[
            [p(0., 0.), p(2., -2.), p(4., 0.)],
            [p(0., 0.), p(1., 0.), p(0., 2.)],
            [p(1., 0.), p(4., 0.), p(0., 2.)],
        ]);
        let mesh = weld(&soup).unwrap();
        assert_eq!(mesh.triangles.len(), 4);
        let shared = mesh.neighbours.iter().flatten().filter(|n| !n.is_none()).count();
        // Shared edges, each seen from both sides: (0,0)-(1,0) and (1,0)-(4,0) across the old
        // T-junction, (1,0)-(0,2) above, and the new fan edge (1,0)-(2,-2) below.
        assert_eq!(shared, 8);
        let area: f64 = mesh
            .triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|v| mesh.vertices[v.index()]);
                trinav::geometry::doubled_signed_area(a, b, c) / 2.0
            })
            .sum();
        assert_eq!(area, 4.0 + 4.0);
    }

    /// The triangulator's neighbours give the mesh that welding the points and rebuilding the
    /// adjacency gives, on random grid regions of one polygon, at integer and at decimal
    /// (rounded onto i_triangle's grid) coordinates; a link that does not point back is not
    /// taken.
    #[test]
    fn the_triangulators_neighbours_weld_as_the_rebuilt_adjacency() {
        use crate::import::grid::Grid;
        use crate::triangulate::triangulate;
        use trinav::Triangulation;
        let mut rng = crate::generate::SplitMix64::new(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.next_u64();
        let mut taken = 0;
        for case in 0..300 {
            let (width, height) = (2 + next() % 40, 2 + next() % 40);
            let density = next() % 30;
            let blocked = (0..width * height).map(|_| next() % 100 < density).collect();
            let grid = Grid { width: width as u32, height: height as u32, blocked };
            let Ok(mut region) = grid.walkable_region() else { continue };
            if case % 2 == 1 {
                let rings = region
                    .polygons
                    .iter_mut()
                    .flat_map(|p| std::iter::once(&mut p.outer).chain(&mut p.holes));
                for p in rings.flatten() {
                    (p.x, p.y) = (p.x * 0.1 + 3.7, p.y * 0.1 - 1.3);
                }
            }
            let Ok(soup) = triangulate(&region, Triangulation::ConstrainedDelaunay) else { continue };
            let Some(links) = soup.neighbours.clone() else {
                assert!(region.polygons.len() != 1 || !soup.fallbacks.is_empty(), "case {case}");
                continue;
            };
            let rebuilt = weld(&TriangleSoup { neighbours: None, ..soup.clone() }).unwrap();
            assert_eq!(take_links(&soup, &links).as_ref(), Some(&rebuilt), "case {case}");
            assert_eq!(weld(&soup).unwrap(), rebuilt, "case {case}");
            taken += 1;
            // A link that does not point back is refused (the soup is then welded as usual).
            if let Some((t, e)) = (0..links.len())
                .flat_map(|t| (0..3).map(move |e| (t, e)))
                .find(|&(t, e)| links[t][e] != u32::MAX && links.len() > 2)
            {
                let mut wrong = links.clone();
                wrong[t][e] = (0..links.len() as u32).find(|&u| u != links[t][e] && u as usize != t).unwrap();
                assert!(take_links(&soup, &wrong).is_none(), "case {case}");
                let soup = TriangleSoup { neighbours: Some(wrong), ..soup.clone() };
                assert_eq!(weld(&soup).unwrap(), rebuilt, "case {case}");
            }
        }
        assert!(taken > 150, "{taken} soups with the triangulator's neighbours");
    }

    #[test]
    fn overlapping_triangles_are_refused() {
        let soup = TriangleSoup::from_corners(&[
            [p(0., 0.), p(1., 0.), p(0., 1.)],
            [p(0., 0.), p(1., 0.), p(1., 1.)],
        ]);
        assert!(matches!(weld(&soup), Err(WeldError::Topology(_))));
    }
}
