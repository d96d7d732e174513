//! An agent radius on a layered mesh. Where no two layers overlap in x, y, the layers form one
//! floor: portal edges join triangles like any inner edge, the walls are the boundary edges
//! of all layers, and a disc's clearance, traversal widths and verification are measured as
//! on one layer (the searches only follow neighbours). Vertices inside a portal lie on no
//! wall; the traversal widths and the disc funnel leave them out (see
//! [`crate::clearance::traversal_widths`]). Where layers overlap (a bridge over a road), a
//! clearance search by position could measure the walls of the other layer: refused for now.

use super::{Endpoint, PathError, PathOptions, PathScratch};
use crate::geometry::Point;
use crate::ids::TriangleId;
use crate::layers::LayerId;
use crate::mesh::NavMesh;

impl NavMesh {
    /// The checks of an agent radius on a layered mesh: a bad radius, and layers that overlap.
    /// (Where they do not, links and area costs work as on one layer: the disc's searches
    /// follow neighbours, across portals as across any edge.)
    pub(super) fn check_layered_radius(&self, options: &PathOptions) -> Result<(), PathError> {
        let radius = options.radius;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(PathError::BadRadius(radius));
        }
        if radius > 0.0 && self.layers_overlap() {
            return Err(PathError::NotWithLayers("an agent radius where layers overlap in x, y"));
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
        let (point, layer, _) = end;
        let radius = options.radius;
        if radius == 0.0 {
            return Ok(end);
        }
        let clearance = self.clearance_with(point, &mut scratch.clearance).unwrap_or(0.0);
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
