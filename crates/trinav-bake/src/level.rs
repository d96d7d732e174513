//! The native level format: JSON via serde.
//!
//! ```json
//! { "walkable":  [ { "outer": [[0, 0], [10, 0], [10, 10], [0, 10]], "holes": [] } ],
//!   "obstacles": [ { "outer": [[4, 4], [6, 4], [6, 6], [4, 6]] } ],
//!   "agent_radius": 0.5,
//!   "links": [ { "from": [1, 1], "to": [8, 8], "cost": 2, "bidirectional": true } ] }
//! ```
//!
//! Rings may be open or closed (first point repeated) and wound either way. `holes`,
//! `agent_radius` and `links` are optional; a link's `cost` defaults to the straight distance
//! between its ends and `bidirectional` to false.
//!
//! Layers (floors that may overlap in x, y: a bridge over a road):
//! `"layers": [{"name": "ground", "walkable": [...], "obstacles": [...], "areas": [...]}]`
//! replaces the top-level `walkable`, `obstacles` and `areas`; each layer is baked on its own.
//! `"portals": [{"layers": ["ground", "bridge"], "from": [x, y], "to": [x, y]}]` joins two
//! layers along a segment on the boundary of both walkable areas (the two areas on its two
//! sides). A link between layers names them: `"layers": ["ground", "roof"]` (its `from` end's
//! layer, then its `to` end's). A level without `layers` is one layer, as before.
//!
//! Terrain: `"areas": [{"outer": ring, "holes": [...], "area": 3}]` tags the walkable ground
//! under each polygon with an area type in `1..=63` (later entries win where they overlap;
//! untagged ground is area 0). Areas never add walkable ground: what they cover outside the
//! walkable region is ignored. `"area_names": {"road": 1, "mud": 2}` names types for the
//! command line and reports.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// A level: the geometry the baker turns into a navigation mesh.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Polygons agents may walk on; their union is the walkable region.
    #[serde(default)]
    pub walkable: Vec<PolygonInput>,
    /// Polygons agents may not enter; their union, inflated by the agent radius, is cut out of
    /// the walkable region.
    #[serde(default)]
    pub obstacles: Vec<PolygonInput>,
    /// Agent radius in world units (default 0); a command-line override wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_radius: Option<f64>,
    /// Walkable ground tagged with area types; later entries win where they overlap.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<AreaInput>,
    /// Names of area types (`"road": 1`), for the command line and reports.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub area_names: BTreeMap<String, u8>,
    /// Off-mesh links (jumps, drops, teleporters): each end must lie on the walkable area of
    /// the baked mesh.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkInput>,
    /// Layers (each baked on its own); when present, `walkable`, `obstacles` and `areas` are
    /// empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<LayerInput>,
    /// Portals joining two layers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub portals: Vec<PortalInput>,
}

/// One layer of a level: a floor of its own.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerInput {
    /// The layer's name (unique, not empty).
    pub name: String,
    /// Polygons agents may walk on.
    #[serde(default)]
    pub walkable: Vec<PolygonInput>,
    /// Polygons agents may not enter.
    #[serde(default)]
    pub obstacles: Vec<PolygonInput>,
    /// Ground tagged with area types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<AreaInput>,
}

/// A portal: the segment `from -> to`, on the boundary of both layers' walkable areas, which
/// lie on its two sides.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortalInput {
    /// The two layers it joins.
    pub layers: [String; 2],
    /// One end.
    pub from: [f64; 2],
    /// The other end.
    pub to: [f64; 2],
}

/// A polygon tagging the walkable ground it covers with an area type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaInput {
    /// The outer ring.
    pub outer: Vec<[f64; 2]>,
    /// Holes: ground the entry does not tag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Vec<[f64; 2]>>,
    /// The area type, `1..=63` ([`trinav::AreaId::MAX`]).
    pub area: u8,
}

impl AreaInput {
    /// Tags the ground under `polygon` with area type `area`.
    pub fn new(polygon: PolygonInput, area: u8) -> Self {
        Self { outer: polygon.outer, holes: polygon.holes, area }
    }

    /// The polygon without its type.
    pub fn polygon(&self) -> PolygonInput {
        PolygonInput { outer: self.outer.clone(), holes: self.holes.clone() }
    }
}

/// An off-mesh link of a level (see [`trinav::OffMeshLink`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkInput {
    /// Where the link is taken.
    pub from: [f64; 2],
    /// Where it arrives.
    pub to: [f64; 2],
    /// What taking it costs (finite, `>= 0`); the straight distance when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// Whether it can be taken both ways (default: one way).
    #[serde(default)]
    pub bidirectional: bool,
    /// In a layered level, the layers of its `from` and `to` ends (required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<[String; 2]>,
}

impl LinkInput {
    /// The runtime link.
    pub fn to_link(&self) -> trinav::OffMeshLink {
        let [from, to] = [self.from, self.to].map(|[x, y]| trinav::Point::new(x, y));
        let link = trinav::OffMeshLink::new(from, to).with_bidirectional(self.bidirectional);
        match self.cost {
            Some(cost) => link.with_cost(cost),
            None => link,
        }
    }
}

/// One polygon of a level: an outer ring and optional holes, each a list of `[x, y]` points.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolygonInput {
    /// The outer ring.
    pub outer: Vec<[f64; 2]>,
    /// Holes: regions cut out of the outer ring.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<Vec<[f64; 2]>>,
}

impl PolygonInput {
    /// A polygon without holes.
    pub fn new(outer: Vec<[f64; 2]>) -> Self {
        Self { outer, holes: Vec::new() }
    }

    /// This polygon with one more hole.
    pub fn with_hole(mut self, hole: Vec<[f64; 2]>) -> Self {
        self.holes.push(hole);
        self
    }

    /// An axis-aligned rectangle from `(x0, y0)` to `(x1, y1)`.
    pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Self {
        Self::new(vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    }
}

/// A level file that is not valid JSON for the level format.
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// The file could not be read.
    #[error("cannot read level")]
    Io(#[from] std::io::Error),
    /// JSON syntax or shape error (serde_json's message, the source, ends with its position).
    #[error("invalid level JSON")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        #[source]
        source: serde_json::Error,
    },
}

impl Level {
    /// Parses a level from JSON text.
    ///
    /// ```
    /// use trinav_bake::Level;
    /// let level = Level::from_json(r#"{"walkable": [{"outer": [[0,0],[4,0],[4,4]]}]}"#)?;
    /// assert_eq!(level.walkable[0].outer.len(), 3);
    /// assert!(Level::from_json(r#"{"walkable": 3}"#).is_err());
    /// # Ok::<(), trinav_bake::LevelError>(())
    /// ```
    pub fn from_json(text: &str) -> Result<Level, LevelError> {
        serde_json::from_str(text).map_err(|source| LevelError::Json {
            line: source.line(),
            column: source.column(),
            source,
        })
    }

    /// Reads and parses a level file.
    pub fn load(path: impl AsRef<Path>) -> Result<Level, LevelError> {
        Level::from_json(&std::fs::read_to_string(path)?)
    }

    /// The level as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a level always serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_carry_line_and_column() {
        let err =
            Level::from_json("{\n  \"walkable\": [\n    {\"outer\": [[0, 0], [1]]}\n  ]\n}").unwrap_err();
        let LevelError::Json { line: 3, column: 26, source } = &err else { panic!("unexpected {err:?}") };
        let message = source.to_string();
        assert!(message.contains("invalid length") && message.contains("line 3 column 26"), "{message}");
        assert!(matches!(Level::from_json("{\"walkabel\": []}"), Err(LevelError::Json { line: 1, .. })));
        // Out-of-range numbers are refused by the parser.
        assert!(Level::from_json("{\"walkable\": [{\"outer\": [[1e999, 0]]}]}").is_err());
    }

    /// A coordinate written as the shortest decimal of a double is read back as that double
    /// (serde_json's default parser misreads about one 17-digit decimal in ten by one unit in
    /// the last place; the workspace enables its `float_roundtrip`).
    #[test]
    fn decimal_coordinates_are_read_exactly() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = (state % 1_000_000_000) as f64 / 1e7 + (state >> 40) as f64 * 1e-9;
            let text = format!("{{\"walkable\": [{{\"outer\": [[{x:?}, 0], [200, 0], [200, 1]]}}]}}");
            let level = Level::from_json(&text).unwrap();
            assert_eq!(level.walkable[0].outer[0][0].to_bits(), x.to_bits(), "{x:?}");
        }
        let level =
            Level::from_json("{\"walkable\": [{\"outer\": [[96.00543478260869, 0], [1, 0], [1, 1]]}]}")
                .unwrap();
        assert_eq!(level.walkable[0].outer[0][0], 96.005_434_782_608_69);
    }

    #[test]
    fn json_round_trip() {
        let level = Level {
            walkable: vec![PolygonInput::rect(0.0, 0.0, 4.0, 4.0).with_hole(vec![
                [1.0, 1.0],
                [2.0, 1.0],
                [2.0, 2.0],
            ])],
            obstacles: vec![PolygonInput::rect(3.0, 3.0, 5.0, 5.0)],
            agent_radius: Some(0.25),
            areas: vec![
                AreaInput::new(PolygonInput::rect(0.0, 0.0, 2.0, 4.0), 3),
                AreaInput::new(
                    PolygonInput::rect(1.0, 0.0, 4.0, 1.0).with_hole(vec![[2., 0.2], [3., 0.2], [3., 0.8]]),
                    63,
                ),
            ],
            area_names: [("road".to_string(), 3), ("lava".to_string(), 63)].into(),
            links: vec![LinkInput {
                from: [0.5, 0.5],
                to: [3.5, 3.5],
                cost: Some(0.0),
                bidirectional: true,
                layers: None,
            }],
            ..Level::default()
        };
        assert_eq!(Level::from_json(&level.to_json()).unwrap(), level);
        let layered = Level {
            layers: vec![
                LayerInput {
                    name: "ground".into(),
                    walkable: vec![PolygonInput::rect(0.0, 0.0, 4.0, 4.0)],
                    ..LayerInput::default()
                },
                LayerInput { name: "roof".into(), ..LayerInput::default() },
            ],
            portals: vec![PortalInput {
                layers: ["ground".into(), "roof".into()],
                from: [4., 0.],
                to: [4., 4.],
            }],
            links: vec![LinkInput {
                from: [1.0, 1.0],
                to: [1.0, 1.0],
                layers: Some(["ground".into(), "roof".into()]),
                ..LinkInput::default()
            }],
            ..Level::default()
        };
        assert_eq!(Level::from_json(&layered.to_json()).unwrap(), layered);
        assert_eq!(Level::from_json(&level.to_json()).unwrap(), level);
        let text = r#"{"walkable": [], "areas": [{"outer": [[0,0],[1,0],[1,1]], "area": 2}], "area_names": {"mud": 2}}"#;
        let parsed = Level::from_json(text).unwrap();
        assert_eq!(
            parsed.areas,
            vec![AreaInput::new(PolygonInput::new(vec![[0., 0.], [1., 0.], [1., 1.]]), 2)]
        );
        assert_eq!(parsed.area_names["mud"], 2);
        // An area type beyond a byte, or a missing one, is a parse error with its position.
        assert!(Level::from_json(r#"{"areas": [{"outer": [], "area": 256}]}"#).is_err());
        assert!(Level::from_json(r#"{"areas": [{"outer": []}]}"#).is_err());
    }
}
