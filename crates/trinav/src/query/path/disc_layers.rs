//! An agent radius on a layered mesh. Where no two layers overlap in x, y, the layers form one
//! floor: portal edges join triangles like any inner edge, the walls are the boundary edges
//! of all layers, and a disc's clearance, traversal widths and verification are measured as
//! on one layer (the searches only follow neighbours). Vertices inside a portal lie on no
//! wall; the traversal widths and the disc funnel leave them out (see
//! [`crate::clearance::traversal_widths`]).
//!
//! Where layers overlap (a bridge over a road), a position may lie on several layers: every
//! clearance search then starts from a triangle of the right layer (the path's end on its
//! layer, a segment's first point walked to along the path), and counts only walls in plain
//! sight ([`NavMesh::wall_in_sight`]), not those of another layer over the same place; under
//! area costs, the disc's shortcuts and slides keep the path on its layers.
//!
//! Where the floor turns more than a full turn round a portal's end ([`NavMesh::layers_fold`]:
//! a ramp turning back over its own foot), the disc's corner there is a fold (see
//! [`super::disc_optimal`]'s arcs round it), the disc funnel keeps its bend there, and the
//! disc's Steiner-point search counts a wall of another sheet only in plain sight. Refused by
//! name: a radius where the floor turns one and a half turns or more round one
//! ([`NavMesh::layers_fold_deep`]: a contact on the circle round that end would not be told by
//! its direction alone).

use super::{Endpoint, PathError, PathOptions, PathScratch};
use crate::geometry::Point;
use crate::ids::TriangleId;
use crate::layers::LayerId;
use crate::mesh::NavMesh;

impl NavMesh {
    /// The checks of an agent radius on a layered mesh: a bad radius, and a floor that folds
    /// round a portal's end.
    pub(super) fn check_layered_radius(&self, options: &PathOptions) -> Result<(), PathError> {
        let radius = options.radius;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(PathError::BadRadius(radius));
        }
        if radius > 0.0 && self.layers_fold_deep() {
            return Err(PathError::NotWithLayers(
                "an agent radius where the floor turns one and a half turns or more round a portal's end",
            ));
        }
        Ok(())
    }

    /// A layered path end (`end`: the point on the mesh, its layer, the triangle it was
    /// snapped to), given as `asked`, checked for a disc of `options.radius`: without the
    /// clearance, an error, or with snapping the nearest point of its layer that has it.
    pub(super) fn layered_disc_endpoint(
        &self,
        asked: Point,
        end: (Point, LayerId, Option<TriangleId>),
        which: Endpoint,
        options: &PathOptions,
        scratch: &mut PathScratch,
    ) -> Result<(Point, LayerId, Option<TriangleId>), PathError> {
        let (point, layer, snapped) = end;
        let radius = options.radius;
        if radius == 0.0 {
            return Ok(end);
        }
        // Measured on the end's own layer: where layers overlap, the position alone may name
        // a triangle of the other.
        let on_layer = snapped.or_else(|| self.locate_on(layer, point));
        let clearance =
            on_layer.map_or(0.0, |t| self.clearance_beside(point, t, |_| false, &mut scratch.clearance));
        if clearance >= radius {
            return Ok(end);
        }
        if options.snap {
            let (q, t) = self
                .nearest_clear_point_on(asked, radius, Some(layer), &mut scratch.clearance)
                .ok_or(PathError::Unreachable)?;
            return Ok((q, layer, Some(t)));
        }
        Err(PathError::NoClearance { which, point: asked, clearance, radius })
    }
}
