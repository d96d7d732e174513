//! Runtime queries on a [`NavMesh`](crate::NavMesh), one module each: [`locate`], [`nearest`],
//! [`raycast`] and [`path`] (A* search over shared edges, then the funnel).

pub mod locate;
pub mod nearest;
pub mod path;
pub mod raycast;

use crate::geometry::Point;

/// Why a query could not run.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum QueryError {
    /// A query point has a NaN or infinite coordinate, or one beyond
    /// ±[`MAX_COORDINATE`](crate::geometry::MAX_COORDINATE).
    #[error("query point ({}, {}) is not finite, or has a coordinate beyond ±2^40 or non-zero below 2^-142", .0.x, .0.y)]
    NonFinite(Point),
    /// A query point lies outside the walkable area.
    #[error("point ({}, {}) is off the mesh", .0.x, .0.y)]
    OffMesh(Point),
    /// On a layered mesh, a query point given without a layer lies on several layers (use
    /// the `_on` form of the query).
    #[error("point ({}, {}) lies on several layers: name one", .0.x, .0.y)]
    AmbiguousLayer(Point),
}

/// Checks that `p` has finite coordinates within range.
pub(crate) fn check_finite(p: Point) -> Result<Point, QueryError> {
    if p.in_range() { Ok(p) } else { Err(QueryError::NonFinite(p)) }
}
