//! The bake settings a mesh was made with; stored in every baked file.

use serde::{Deserialize, Serialize};

/// How the walkable polygons are cut into triangles.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, bincode::Encode, bincode::Decode,
)]
#[serde(rename_all = "snake_case")]
pub enum Triangulation {
    /// Ear clipping (earcut). Makes long thin triangles, and slows down badly on polygons with
    /// many holes (49 s on a 512x512 grid map where constrained Delaunay takes 0.1 s).
    EarClipping,
    /// Constrained Delaunay triangulation of the same rings: the same vertices, better shaped
    /// triangles. The default: faster to bake at scale, faster to query, and the fast path
    /// mode's search is misled less by its triangles (see the README's measurements). Computed
    /// by i_triangle (on its integer grid, its points mapped back to the ring points exactly);
    /// a polygon it cannot do exactly is done by spade, and reported.
    #[default]
    ConstrainedDelaunay,
    /// The same constrained Delaunay triangulation, computed by spade for every polygon (the
    /// default's engine before i_triangle measured two to four times faster).
    ConstrainedDelaunaySpade,
}

impl Triangulation {
    /// The name used in JSON (`ear_clipping`, `constrained_delaunay`,
    /// `constrained_delaunay_spade`).
    pub fn name(self) -> &'static str {
        match self {
            Triangulation::EarClipping => "ear_clipping",
            Triangulation::ConstrainedDelaunay => "constrained_delaunay",
            Triangulation::ConstrainedDelaunaySpade => "constrained_delaunay_spade",
        }
    }
}

/// Settings of one bake. All lengths are in world units.
///
/// ```
/// use trinav::{BakeSettings, Triangulation};
/// let settings = BakeSettings::default()
///     .with_agent_radius(0.5)
///     .with_triangulation(Triangulation::ConstrainedDelaunay);
/// assert_eq!(settings.agent_radius, 0.5);
/// assert_eq!(settings.arc_error, 0.01);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, bincode::Encode, bincode::Decode)]
#[non_exhaustive]
pub struct BakeSettings {
    /// Radius of the agent the mesh is baked for: obstacles are inflated by it. World units,
    /// finite and `>= 0`; default 0 (no inflation).
    pub agent_radius: f64,
    /// Largest distance between an inflated obstacle's true rounded corner and the chords that
    /// approximate it, as a fraction of `agent_radius`. Range `[0.0002, 0.07]` (the limits of
    /// the buffer implementation's arc step); default 0.01, i.e. the clearance at a convex
    /// obstacle corner is at least 99% of the radius.
    pub arc_error: f64,
    /// Triangulation method; default [`Triangulation::ConstrainedDelaunay`].
    pub triangulation: Triangulation,
}

impl BakeSettings {
    /// Smallest allowed [`BakeSettings::arc_error`].
    pub const MIN_ARC_ERROR: f64 = 0.0002;
    /// Largest allowed [`BakeSettings::arc_error`].
    pub const MAX_ARC_ERROR: f64 = 0.07;

    /// These settings with another agent radius.
    pub fn with_agent_radius(mut self, agent_radius: f64) -> Self {
        self.agent_radius = agent_radius;
        self
    }

    /// These settings with another arc error (fraction of the radius).
    pub fn with_arc_error(mut self, arc_error: f64) -> Self {
        self.arc_error = arc_error;
        self
    }

    /// These settings with another triangulation method.
    pub fn with_triangulation(mut self, triangulation: Triangulation) -> Self {
        self.triangulation = triangulation;
        self
    }

    /// Checks the ranges documented on each field; returns a description of the first
    /// violation.
    pub fn check(&self) -> Result<(), String> {
        if !(self.agent_radius.is_finite() && self.agent_radius >= 0.0) {
            return Err(format!("agent radius must be finite and >= 0, got {}", self.agent_radius));
        }
        if !(Self::MIN_ARC_ERROR..=Self::MAX_ARC_ERROR).contains(&self.arc_error) {
            return Err(format!(
                "arc error must be in [{}, {}], got {}",
                Self::MIN_ARC_ERROR,
                Self::MAX_ARC_ERROR,
                self.arc_error
            ));
        }
        Ok(())
    }
}

impl Default for BakeSettings {
    fn default() -> Self {
        Self { agent_radius: 0.0, arc_error: 0.01, triangulation: Triangulation::ConstrainedDelaunay }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_refuses_out_of_range_values() {
        assert!(BakeSettings::default().check().is_ok());
        assert!(BakeSettings::default().with_agent_radius(-1.0).check().is_err());
        assert!(BakeSettings::default().with_agent_radius(f64::NAN).check().is_err());
        assert!(BakeSettings::default().with_arc_error(0.5).check().is_err());
        assert!(BakeSettings::default().with_arc_error(0.0).check().is_err());
    }
}
