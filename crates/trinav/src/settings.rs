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
    /// Every method, in the order the command line lists them.
    pub const ALL: [Triangulation; 3] = [
        Triangulation::EarClipping,
        Triangulation::ConstrainedDelaunay,
        Triangulation::ConstrainedDelaunaySpade,
    ];

    /// The name used in JSON reports (`ear_clipping`, `constrained_delaunay`,
    /// `constrained_delaunay_spade`).
    pub fn name(self) -> &'static str {
        match self {
            Triangulation::EarClipping => "ear_clipping",
            Triangulation::ConstrainedDelaunay => "constrained_delaunay",
            Triangulation::ConstrainedDelaunaySpade => "constrained_delaunay_spade",
        }
    }

    /// The command-line names of [`Triangulation::ALL`], in the same order.
    pub const FLAG_NAMES: [&'static str; 3] =
        ["ear-clipping", "constrained-delaunay", "constrained-delaunay-spade"];

    /// The name used on the command line (`ear-clipping`, `constrained-delaunay`,
    /// `constrained-delaunay-spade`).
    pub fn flag_name(self) -> &'static str {
        Self::FLAG_NAMES[self as usize]
    }
}

impl std::str::FromStr for Triangulation {
    type Err = UnknownName;

    /// Parses either spelling of a method's name (`ear-clipping` or `ear_clipping`).
    ///
    /// ```
    /// use trinav::Triangulation;
    /// assert_eq!("ear-clipping".parse(), Ok(Triangulation::EarClipping));
    /// assert_eq!("constrained_delaunay".parse(), Ok(Triangulation::ConstrainedDelaunay));
    /// assert!("delaunay".parse::<Triangulation>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Triangulation::ALL.into_iter().find(|t| t.name() == s || t.flag_name() == s).ok_or_else(|| {
            UnknownName { what: "triangulation", name: s.to_string(), expected: &Triangulation::FLAG_NAMES }
        })
    }
}

/// A name that names no value of a choice (a path mode, a triangulation, a level format).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {name:?} (expected {})", .expected.join(", "))]
pub struct UnknownName {
    /// What was being named.
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names accepted.
    pub expected: &'static [&'static str],
}

/// A [`BakeSettings`] field outside its range.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// The agent radius is negative, NaN or infinite.
    #[error("agent radius must be finite and >= 0, got {0}")]
    AgentRadius(f64),
    /// The arc error is outside [`BakeSettings::MIN_ARC_ERROR`, `BakeSettings::MAX_ARC_ERROR`].
    #[error("arc error must be in [{min}, {max}], got {0}", min = BakeSettings::MIN_ARC_ERROR, max = BakeSettings::MAX_ARC_ERROR)]
    ArcError(f64),
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

    /// Checks the ranges documented on each field; returns the first violation.
    ///
    /// ```
    /// use trinav::{BakeSettings, SettingsError};
    /// let bad = BakeSettings::default().with_agent_radius(-1.0);
    /// assert_eq!(bad.check(), Err(SettingsError::AgentRadius(-1.0)));
    /// ```
    pub fn check(&self) -> Result<(), SettingsError> {
        if !(self.agent_radius.is_finite() && self.agent_radius >= 0.0) {
            return Err(SettingsError::AgentRadius(self.agent_radius));
        }
        if !(Self::MIN_ARC_ERROR..=Self::MAX_ARC_ERROR).contains(&self.arc_error) {
            return Err(SettingsError::ArcError(self.arc_error));
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
        assert_eq!(
            BakeSettings::default().with_agent_radius(-1.0).check(),
            Err(SettingsError::AgentRadius(-1.0))
        );
        assert!(matches!(
            BakeSettings::default().with_agent_radius(f64::NAN).check(),
            Err(SettingsError::AgentRadius(r)) if r.is_nan()
        ));
        assert_eq!(BakeSettings::default().with_arc_error(0.5).check(), Err(SettingsError::ArcError(0.5)));
        assert_eq!(BakeSettings::default().with_arc_error(0.0).check(), Err(SettingsError::ArcError(0.0)));
        assert_eq!(SettingsError::ArcError(0.5).to_string(), "arc error must be in [0.0002, 0.07], got 0.5");
    }
}
