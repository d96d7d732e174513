//! Stage 4, weld and adjacency: share vertices between triangles and link neighbours.
//!
//! Vertices weld only when their coordinates are identical (bit for bit, with `-0.0` equal to
//! `0.0`): no tolerance ever moves a point. Vertex ids follow first use, so the result depends
//! only on the triangle order. Adjacency is by shared edges only
//! ([`trinav::build_adjacency`]): triangles that meet at a single vertex are not neighbours.

use std::collections::HashMap;

use trinav::{Point, TopologyError, TriangleId, VertexId, build_adjacency, position_key};

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
    if soup.triangles.len() > limit || soup.triangles.len() * 3 > limit.saturating_mul(3) {
        return Err(WeldError::TooLarge(soup.triangles.len()));
    }
    let mut ids: HashMap<(u64, u64), VertexId> = HashMap::with_capacity(soup.triangles.len());
    let mut vertices = Vec::new();
    let triangles: Vec<[VertexId; 3]> = soup
        .triangles
        .iter()
        .map(|tri| {
            tri.map(|p| {
                *ids.entry(position_key(p)).or_insert_with(|| {
                    vertices.push(p);
                    VertexId::from_index(vertices.len() - 1)
                })
            })
        })
        .collect();
    if vertices.len() > limit {
        return Err(WeldError::TooLarge(vertices.len()));
    }
    let neighbours = build_adjacency(&triangles, vertices.len())?;
    Ok(WeldedMesh {
        vertices,
        triangles,
        neighbours,
    })
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
        let soup = TriangleSoup {
            triangles: vec![
                [p(0., 0.), p(1., 0.), p(0., 1.)],
                [p(1., 0.), p(1., 1.), p(0., 1.)],
                [p(near, 2.), p(-0.0, 2.), p(0., 1.)],
            ],
            fallbacks: vec![],
        };
        let mesh = weld(&soup).unwrap();
        // (0,1) is shared by all three; -0.0 welds with... nothing else here; `near` stays apart.
        assert_eq!(mesh.vertices.len(), 6);
        assert_eq!(mesh.neighbours[0][1], TriangleId(1));
        assert_eq!(mesh.neighbours[1][2], TriangleId(0));
        assert!(mesh.neighbours[2].iter().all(|n| n.is_none()));
    }

    #[test]
    fn negative_zero_welds_with_zero() {
        let soup = TriangleSoup {
            triangles: vec![
                [p(0., 0.), p(1., 0.), p(0., 1.)],
                [p(1., 0.), p(1., 1.), p(-0.0, 1.)],
            ],
            fallbacks: vec![],
        };
        let mesh = weld(&soup).unwrap();
        assert_eq!(mesh.vertices.len(), 4);
        assert_eq!(mesh.neighbours[1][2], TriangleId(0));
    }

    #[test]
    fn corner_to_corner_triangles_share_a_vertex_but_not_adjacency() {
        let soup = TriangleSoup {
            triangles: vec![
                [p(0., 0.), p(1., 0.), p(1., 1.)],
                [p(1., 1.), p(2., 1.), p(2., 2.)],
            ],
            fallbacks: vec![],
        };
        let mesh = weld(&soup).unwrap();
        assert_eq!(mesh.vertices.len(), 5);
        assert!(mesh.neighbours.iter().flatten().all(|n| n.is_none()));
    }

    #[test]
    fn overlapping_triangles_are_refused() {
        let soup = TriangleSoup {
            triangles: vec![
                [p(0., 0.), p(1., 0.), p(0., 1.)],
                [p(0., 0.), p(1., 0.), p(1., 1.)],
            ],
            fallbacks: vec![],
        };
        assert!(matches!(weld(&soup), Err(WeldError::Topology(_))));
    }
}
