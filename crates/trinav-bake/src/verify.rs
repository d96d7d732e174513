//! Stage 6, verify: check the mesh against the merged region it was built from.
//!
//! - the mesh area equals the region area within 1e-9 relative;
//! - the mesh passes [`MeshParts::find_problems`](trinav::build::MeshParts::find_problems) (no zero-area or clockwise triangle, adjacency
//!   symmetric and complete, islands right): guaranteed by how stages 3 to 5 make it (see
//!   [`derive`](crate::derive)), and checked in full by debug builds, so not checked again here;
//! - every boundary edge lies on a ring of the region, running the ring's way (a boundary edge
//!   may span ring points that lie exactly on it: ear clipping drops collinear points);
//! - the boundary edges' total length equals the rings' total length within 1e-9 relative, so
//!   every ring is covered.
//!
//! With area pieces, boundary edges may run along any piece's ring (a piece ends where an
//! area entry crosses a wall, at a crossing point the region's rings do not hold), and the
//! boundary's length is still that of the region's rings: a gap between two pieces would add
//! to it. Each triangle's type is its piece's by construction (stage 3).

use serde::Serialize;
use trinav::build::MeshParts;
use trinav::geometry::{Orientation, orient};
use trinav::{NavMesh, Point, TriangleId, VertexId};

use crate::merge::MergedRegion;
use crate::point_table::PointTable;
use crate::validate::Ring;

/// Relative tolerance of the area and length checks (floating-point summation only).
pub const RELATIVE_TOLERANCE: f64 = 1e-9;

/// Figures from a passed verification.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VerifyReport {
    /// Sum of the triangle areas.
    pub mesh_area: f64,
    /// Area of the merged region.
    pub region_area: f64,
    /// `|mesh_area - region_area| / region_area`.
    pub relative_area_error: f64,
}

/// A failed verification: a bug in an earlier stage or its libraries, never bad input.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum VerifyError {
    /// The mesh does not cover the region's area.
    #[error(
        "mesh area {mesh_area} differs from the walkable region's {region_area} (relative error {relative_error:e})"
    )]
    AreaMismatch {
        /// Mesh area.
        mesh_area: f64,
        /// Region area.
        region_area: f64,
        /// Relative difference.
        relative_error: f64,
    },
    /// A boundary edge is not part of any ring.
    #[error("boundary edge {edge} of triangle {triangle}, ({}, {})-({}, {}), lies on no ring of the walkable region", .from.x, .from.y, .to.x, .to.y)]
    BoundaryOffRing {
        /// The triangle.
        triangle: TriangleId,
        /// Its edge.
        edge: u8,
        /// Edge start.
        from: Point,
        /// Edge end.
        to: Point,
    },
    /// The boundary is shorter or longer than the rings.
    #[error("boundary length {boundary} differs from the rings' length {rings}")]
    BoundaryLengthMismatch {
        /// Total boundary edge length.
        boundary: f64,
        /// Total ring length.
        rings: f64,
    },
}

/// Runs stage 6.
pub fn verify(region: &MergedRegion, mesh: &NavMesh) -> Result<VerifyReport, VerifyError> {
    verify_parts(region, mesh.parts())
}

/// Runs stage 6 on a mesh's arrays (the bake runs it beside stage 5's derivation).
pub(crate) fn verify_parts(region: &MergedRegion, parts: &MeshParts) -> Result<VerifyReport, VerifyError> {
    // Every structural rule (strictly counter-clockwise triangles, symmetric and complete
    // adjacency, islands) holds by construction (stages 3 to 5).
    let mesh_area = parts.area();
    let region_area = region.area();
    let relative_error = (mesh_area - region_area).abs() / region_area.abs().max(f64::MIN_POSITIVE);
    if relative_error > RELATIVE_TOLERANCE {
        return Err(VerifyError::AreaMismatch { mesh_area, region_area, relative_error });
    }

    let rings: Vec<&Ring> = region.polygons.iter().flat_map(|p| p.rings()).collect();
    if region.area_pieces.is_empty() {
        check_boundary(&rings, &parts.vertices, &parts.triangles, &parts.neighbours)?;
    } else {
        let piece_rings: Vec<&Ring> = region.area_pieces.iter().flat_map(|p| p.polygon.rings()).collect();
        let boundary = boundary_along(&piece_rings, &parts.vertices, &parts.triangles, &parts.neighbours)?;
        check_length(boundary, &rings)?;
    }
    Ok(VerifyReport { mesh_area, region_area, relative_area_error: relative_error })
}

/// Checks that every boundary edge (no neighbour) runs along one of `rings` in the ring's
/// direction, possibly spanning ring points that lie exactly on it, and that the boundary is as
/// long as the rings (within [`RELATIVE_TOLERANCE`]), so every ring is covered.
pub(crate) fn check_boundary(
    rings: &[&Ring],
    vertices: &[Point],
    triangles: &[[VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
) -> Result<(), VerifyError> {
    check_length(boundary_along(rings, vertices, triangles, neighbours)?, rings)
}

/// Checks that the boundary's length `boundary` is the rings' total length (within
/// [`RELATIVE_TOLERANCE`]).
fn check_length(boundary: f64, rings: &[&Ring]) -> Result<(), VerifyError> {
    let ring_length: f64 = rings
        .iter()
        .map(|ring| (0..ring.len()).map(|i| ring[i].distance(ring[(i + 1) % ring.len()])).sum::<f64>())
        .sum();
    if (boundary - ring_length).abs() > RELATIVE_TOLERANCE * ring_length {
        return Err(VerifyError::BoundaryLengthMismatch { boundary, rings: ring_length });
    }
    Ok(())
}

/// Checks that every boundary edge runs along one of `rings` in the ring's direction (possibly
/// spanning ring points that lie exactly on it); returns the boundary's length.
fn boundary_along(
    rings: &[&Ring],
    vertices: &[Point],
    triangles: &[[VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
) -> Result<f64, VerifyError> {
    // Every occurrence of a point in the rings, as a chain: the map holds the last one, each
    // occurrence the one before it (`usize::MAX` ends the chain). No allocation per point.
    let mut occurrences: Vec<(usize, usize, usize)> = Vec::with_capacity(rings.iter().map(|r| r.len()).sum());
    let mut last = PointTable::for_points(rings.iter().flat_map(|r| r.iter().copied()));
    for (r, ring) in rings.iter().enumerate() {
        for (i, &p) in ring.iter().enumerate() {
            let at = u32::try_from(occurrences.len()).expect("fewer than 2^32 ring points");
            let previous = last.insert(p, at).map_or(usize::MAX, |v| v as usize);
            occurrences.push((r, i, previous));
        }
    }
    let chain = &occurrences;
    let occurrences_of = |p: Point| {
        let mut at = last.get(p).map_or(usize::MAX, |v| v as usize);
        std::iter::from_fn(move || {
            let &(r, i, previous) = chain.get(at)?;
            at = previous;
            Some((r, i))
        })
    };
    let runs_along_ring = |from: Point, to: Point| {
        occurrences_of(from).any(|(r, i)| {
            let ring = rings[r];
            for step in 1..=ring.len() {
                let p = ring[(i + step) % ring.len()];
                if p == to {
                    return true;
                }
                let between = orient(from, to, p) == Orientation::Collinear
                    && (p.x - from.x) * (to.x - p.x) + (p.y - from.y) * (to.y - p.y) > 0.0;
                if !between {
                    return false;
                }
            }
            false
        })
    };
    let mut boundary = 0.0;
    for (t, (tri, links)) in triangles.iter().zip(neighbours).enumerate() {
        if !links.iter().any(|n| n.is_none()) {
            continue; // no boundary edge: skip loading the corners
        }
        let corners = tri.map(|v| vertices[v.index()]);
        for (edge, n) in links.iter().enumerate() {
            if !n.is_none() {
                continue;
            }
            let (from, to) = (corners[edge], corners[(edge + 1) % 3]);
            if !runs_along_ring(from, to) {
                let triangle = TriangleId::from_index(t);
                return Err(VerifyError::BoundaryOffRing { triangle, edge: edge as u8, from, to });
            }
            boundary += from.distance(to);
        }
    }
    Ok(boundary)
}
