//! `trinav_bake::bake` on arbitrary small levels, with both triangulations: Ok (then the mesh
//! is valid, its area matches the region's within 1e-9 relative, and it saves and loads) or
//! Err, never a panic.
//!
//! Coordinates mix small integers and halves (so that points coincide, edges touch, overlap
//! and run collinear, the cases the boolean operations and welding must get right) with
//! arbitrary f64 values (NaN, infinities, huge, subnormal) and large integers.
//!
//! One input in three is a layered level instead: 2 or 3 layers of such polygons, and up to 3
//! portals between them, each along an edge of one of its layers' walkable rings or anywhere
//! (then usually refused by name), baked at the radius like the rest (a bake radius with
//! portals inflates obstacles across them; overlapping layers are refused).
//!
//! An input starting with `{` is read as level JSON instead (`Level::from_json`, its own agent
//! radius), so that the bundled levels seed the corpus; JSON levels with more than 128 points in
//! all are skipped to keep runs short.
//!
//! With `TRINAV_FUZZ_LOG` set, every bake error is printed to stderr as `bake error: ...`
//! (used to tally which errors a corpus reaches), followed by the level as JSON for the errors
//! the crate documents as bugs or library limits (Merge, Triangulation, Weld, Derive,
//! Verification).

#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use trinav::{BakeSettings, NavMesh, Triangulation};
use trinav_bake::{LayerInput, Level, PolygonInput, PortalInput};

const MAX_POINTS: usize = 8;
const MAX_WALKABLE: usize = 3;
const MAX_OBSTACLES: usize = 4;
const MAX_HOLES: usize = 2;

#[derive(Arbitrary, Debug)]
enum Coord {
    /// -16 to 16.
    Small(i8),
    /// Halves, -8 to 8.
    Half(i8),
    /// Anything an f64 can hold.
    Raw(f64),
    /// Large integers (around the ±2^28 limit and past it).
    Large(i32),
}

impl Coord {
    fn value(&self) -> f64 {
        match *self {
            Coord::Small(v) => f64::from(v % 17),
            Coord::Half(v) => f64::from(v % 17) / 2.0,
            Coord::Raw(v) => v,
            Coord::Large(v) => f64::from(v) * 0.25,
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Radius {
    Zero,
    /// 0 to 4 in steps of 1/64.
    Small(u8),
    Raw(f64),
}

fn ring(u: &mut Unstructured) -> arbitrary::Result<Vec<[f64; 2]>> {
    let n = u.int_in_range(0..=MAX_POINTS)?;
    (0..n).map(|_| Ok([Coord::arbitrary(u)?.value(), Coord::arbitrary(u)?.value()])).collect()
}

fn polygon(u: &mut Unstructured) -> arbitrary::Result<PolygonInput> {
    let mut polygon = PolygonInput::new(ring(u)?);
    for _ in 0..u.int_in_range(0..=MAX_HOLES)? {
        polygon.holes.push(ring(u)?);
    }
    Ok(polygon)
}

/// A level of one layer.
fn flat(u: &mut Unstructured) -> arbitrary::Result<Level> {
    let walkable = (0..u.int_in_range(1..=MAX_WALKABLE)?).map(|_| polygon(u)).collect::<Result<_, _>>()?;
    let obstacles = (0..u.int_in_range(0..=MAX_OBSTACLES)?).map(|_| polygon(u)).collect::<Result<_, _>>()?;
    Ok(Level { walkable, obstacles, agent_radius: None, ..Level::default() })
}

/// A level of 2 or 3 layers joined by up to 3 portals.
fn layered(u: &mut Unstructured) -> arbitrary::Result<Level> {
    let count = u.int_in_range(2..=3usize)?;
    let mut layers = Vec::with_capacity(count);
    for i in 0..count {
        let Level { walkable, obstacles, .. } = flat(u)?;
        layers.push(LayerInput { name: format!("l{i}"), walkable, obstacles, ..LayerInput::default() });
    }
    let mut portals = Vec::new();
    for _ in 0..u.int_in_range(0..=3)? {
        let (a, b) = (u.int_in_range(0..=count - 1)?, u.int_in_range(0..=count - 1)?);
        let ring = &layers[a].walkable[0].outer;
        let (from, to) = if !ring.is_empty() && u.ratio(3u8, 4u8)? {
            let k = u.choose_index(ring.len())?;
            (ring[k], ring[(k + 1) % ring.len()])
        } else {
            (
                [Coord::arbitrary(u)?.value(), Coord::arbitrary(u)?.value()],
                [Coord::arbitrary(u)?.value(), Coord::arbitrary(u)?.value()],
            )
        };
        portals.push(PortalInput { layers: [format!("l{a}"), format!("l{b}")], from, to });
    }
    Ok(Level { layers, portals, ..Level::default() })
}

/// Points in all rings of a level.
fn point_count(level: &Level) -> usize {
    level
        .walkable
        .iter()
        .chain(&level.obstacles)
        .map(|p| p.outer.len() + p.holes.iter().map(Vec::len).sum::<usize>())
        .sum()
}

#[derive(Debug)]
struct Input {
    level: Level,
    radius: f64,
}

impl<'a> Arbitrary<'a> for Input {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        if u.peek_bytes(1) == Some(b"{") {
            let text =
                std::str::from_utf8(u.bytes(u.len())?).map_err(|_| arbitrary::Error::IncorrectFormat)?;
            let level = Level::from_json(text).map_err(|_| arbitrary::Error::IncorrectFormat)?;
            if point_count(&level) > 128 {
                return Err(arbitrary::Error::IncorrectFormat);
            }
            let radius = level.agent_radius.unwrap_or(0.0);
            return Ok(Input { level, radius });
        }
        let level = if u.ratio(1u8, 3u8)? { layered(u)? } else { flat(u)? };
        let radius = match Radius::arbitrary(u)? {
            Radius::Zero => 0.0,
            Radius::Small(v) => f64::from(v) / 64.0,
            Radius::Raw(v) => v,
        };
        Ok(Input { level, radius })
    }
}

/// An error the crate documents as a bug (or library limit), not as bad input.
fn internal(e: &trinav_bake::BakeError) -> bool {
    use trinav_bake::BakeError::*;
    matches!(e, Merge(_) | Triangulation(_) | Weld(_) | Derive(_) | Verification(_))
}

/// The level on one line (JSON cannot hold NaN or infinities: those print as null).
fn level_json(level: &Level) -> String {
    level.to_json().split_whitespace().collect::<Vec<_>>().join(" ")
}

fn log_enabled() -> bool {
    static LOG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LOG.get_or_init(|| std::env::var_os("TRINAV_FUZZ_LOG").is_some())
}

fuzz_target!(|input: Input| {
    for triangulation in [
        Triangulation::EarClipping,
        Triangulation::ConstrainedDelaunay,
        Triangulation::ConstrainedDelaunaySpade,
    ] {
        let settings =
            BakeSettings::default().with_triangulation(triangulation).with_agent_radius(input.radius);
        match trinav_bake::bake(&input.level, &settings) {
            Ok(baked) => {
                // A layered mesh's vertices need only be distinct within each layer: its own
                // rules are checked by the load below.
                if !baked.mesh.is_layered() {
                    let problems = baked.mesh.parts().find_problems();
                    assert!(problems.is_empty(), "{triangulation:?}: baked mesh is invalid: {problems:?}");
                }
                let error = baked.report.verification.relative_area_error;
                assert!(error <= 1e-9, "{triangulation:?}: relative area error {error:e}");
                let bytes = baked.mesh.to_bytes().expect("a baked mesh saves");
                NavMesh::from_bytes(&bytes).expect("a baked mesh loads");
            }
            Err(e) => {
                if log_enabled() {
                    eprintln!("bake error: {triangulation:?}: {e:?}");
                    if internal(&e) {
                        eprintln!("level (agent radius {}): {}", input.radius, level_json(&input.level));
                    }
                }
            }
        }
    }
});
