//! Stage 1, validate: check and clean the input rings.
//!
//! Rules, applied to every ring (outer rings and holes, walkable and obstacle polygons):
//! - every coordinate is finite and within ±[`MAX_LEVEL_COORDINATE`], and 0 or at least 2^-142 in
//!   magnitude (below that the exact predicates would underflow);
//! - a closing point equal to the first is dropped (rings may be open or closed);
//! - **repairs**, always exact (no point is moved): a point equal to the one before it is
//!   dropped, and so is the tip of a zero-width spike (a point where the ring turns straight
//!   back on itself, the next point lying on the segment it came along);
//! - after that the ring has at least 3 points and encloses a non-zero area;
//! - the ring is simple: two edges that are not neighbours along the ring share no point, and
//!   two neighbouring edges share only their common vertex. A ring that crosses or touches
//!   itself is refused, naming the polygon, the ring and both segments. (To model a shape that
//!   touches itself, use two polygons, or a hole.)
//!
//! Rings of different polygons, and a polygon's holes and outer ring, may overlap, touch and
//! cross freely: the merge stage defines what they mean.
//!
//! Area entries follow the same ring rules, and their type must be in `1..=63`
//! ([`trinav::AreaId::MAX`]); an error names the entry (`areas[2]`). Area names must be
//! non-empty, not a number (the command line reads numbers as types), and name types in
//! `1..=63`, one name per type.

use std::fmt;

use geo::algorithm::sweep::{Cross, Intersections};
use geo::{Line, LineIntersection};
use trinav::geometry::{Orientation, orient};
use trinav::{AreaId, AreaNames, Point};

use crate::level::{Level, PolygonInput};

/// Largest coordinate magnitude a level may have, 2^28 (meshes and queries allow up to
/// [`trinav::geometry::MAX_COORDINATE`], 2^40). Within it, integer coordinates pass through the
/// boolean operations' fixed-point grid exactly.
pub const MAX_LEVEL_COORDINATE: f64 = 268_435_456.0;

/// Which list of the level a polygon is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolygonKind {
    /// `walkable`.
    Walkable,
    /// `obstacles`.
    Obstacle,
    /// `areas`.
    Area,
}

/// Names one ring of one input polygon, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingRef {
    /// The polygon's list.
    pub kind: PolygonKind,
    /// The polygon's index in its list (0-based).
    pub polygon: usize,
    /// `None` for the outer ring, `Some(i)` for hole `i` (0-based).
    pub hole: Option<usize>,
}

impl fmt::Display for RingRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            PolygonKind::Walkable => "walkable",
            PolygonKind::Obstacle => "obstacles",
            PolygonKind::Area => "areas",
        };
        match self.hole {
            None => write!(f, "{kind}[{}] outer ring", self.polygon),
            Some(h) => write!(f, "{kind}[{}] hole {h}", self.polygon),
        }
    }
}

/// A segment of an input ring: from input point `from` to input point `to` (0-based indices
/// into the ring as written).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Index of the start point in the input ring.
    pub from: usize,
    /// Index of the end point in the input ring.
    pub to: usize,
    /// Start position.
    pub a: Point,
    /// End position.
    pub b: Point,
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "segment {}-{} ({}, {})-({}, {})",
            self.from, self.to, self.a.x, self.a.y, self.b.x, self.b.y
        )
    }
}

/// Input geometry the baker refuses.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValidationError {
    /// The level has no walkable polygon.
    #[error("the level has no walkable polygon")]
    NoWalkable,
    /// A coordinate is NaN or infinite.
    #[error("{ring}, point {vertex}: coordinate {value} is not finite")]
    NonFinite {
        /// The ring.
        ring: RingRef,
        /// Index of the point in the ring.
        vertex: usize,
        /// The offending value.
        value: f64,
    },
    /// A coordinate is larger than [`MAX_LEVEL_COORDINATE`].
    #[error("{ring}, point {vertex}: coordinate {value:e} exceeds the limit of ±{MAX_LEVEL_COORDINATE}")]
    TooLarge {
        /// The ring.
        ring: RingRef,
        /// Index of the point in the ring.
        vertex: usize,
        /// The offending value.
        value: f64,
    },
    /// A non-zero coordinate is smaller than [`trinav::geometry::MIN_COORDINATE`].
    #[error(
        "{ring}, point {vertex}: coordinate {value:e} is below the smallest allowed magnitude 2^-142 (use 0)"
    )]
    TooSmall {
        /// The ring.
        ring: RingRef,
        /// Index of the point in the ring.
        vertex: usize,
        /// The offending value.
        value: f64,
    },
    /// Fewer than 3 distinct points.
    #[error("{ring}: needs at least 3 distinct points, has {distinct}")]
    TooFewPoints {
        /// The ring.
        ring: RingRef,
        /// Its number of distinct points after dropping repeats.
        distinct: usize,
    },
    /// The ring encloses no area (all points on one line).
    #[error("{ring}: encloses no area (all its points lie on one line)")]
    ZeroArea {
        /// The ring.
        ring: RingRef,
    },
    /// Two segments of one ring cross or touch (boxed: it is the largest error).
    #[error("{0}")]
    SelfIntersection(Box<SelfIntersection>),
    /// An area entry's type is 0 or beyond [`AreaId::MAX`].
    #[error("areas[{entry}]: area type {area} is outside 1..={} (0 is untagged ground)", AreaId::MAX.0)]
    AreaOutOfRange {
        /// The entry (0-based).
        entry: usize,
        /// Its type.
        area: u8,
    },
    /// An entry of `area_names` is refused.
    #[error("area_names: \"{name}\": {problem}")]
    BadAreaName {
        /// The name.
        name: String,
        /// What is wrong with it.
        problem: AreaNameProblem,
    },
}

/// What is wrong with an entry of `area_names` (the runtime's rules, which a loaded file's
/// names meet too).
pub use trinav::AreaNameProblem;

/// Where a ring crosses or touches itself.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{ring}: {first} and {second} {how}")]
pub struct SelfIntersection {
    /// The ring.
    pub ring: RingRef,
    /// One segment.
    pub first: Segment,
    /// The other segment.
    pub second: Segment,
    /// How they meet.
    pub how: Contact,
}

/// How two segments of a ring meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Contact {
    /// They cross at a point inside both.
    Cross(Point),
    /// They touch at a point: an end of one lies on the other.
    Touch(Point),
    /// They overlap along a stretch, from one point to another.
    Overlap {
        /// One end of the shared stretch.
        from: Point,
        /// The other end.
        to: Point,
    },
}

impl fmt::Display for Contact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contact::Cross(at) => write!(f, "cross at ({}, {})", at.x, at.y),
            Contact::Touch(at) => write!(f, "touch at ({}, {})", at.x, at.y),
            Contact::Overlap { from, to } => {
                write!(f, "overlap from ({}, {}) to ({}, {})", from.x, from.y, to.x, to.y)
            }
        }
    }
}

/// A cleaned ring: open (no closing point), at least 3 points, simple, non-zero area; wound as
/// written.
pub type Ring = Vec<Point>;

/// A cleaned polygon.
#[derive(Clone, Debug, PartialEq)]
pub struct CleanPolygon {
    /// The outer ring.
    pub outer: Ring,
    /// The holes.
    pub holes: Vec<Ring>,
}

/// The output of stage 1: every polygon cleaned, in input order.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidatedLevel {
    /// The walkable polygons.
    pub walkable: Vec<CleanPolygon>,
    /// The obstacle polygons.
    pub obstacles: Vec<CleanPolygon>,
    /// The area entries with their types, in input order (later entries win).
    pub areas: Vec<(CleanPolygon, AreaId)>,
    /// How many points the repairs dropped (repeats and spike tips; closing points not counted).
    pub dropped_points: usize,
}

/// Runs stage 1 on a level.
///
/// ```
/// use trinav_bake::{validate, Level, PolygonInput, ValidationError};
/// let bow_tie = PolygonInput::new(vec![[0., 0.], [2., 2.], [2., 0.], [0., 2.]]);
/// let level = Level { walkable: vec![bow_tie], ..Level::default() };
/// let err = validate::validate(&level).unwrap_err();
/// assert!(matches!(err, ValidationError::SelfIntersection(_)));
/// assert_eq!(
///     err.to_string(),
///     "walkable[0] outer ring: segment 0-1 (0, 0)-(2, 2) and segment 2-3 (2, 0)-(0, 2) cross at (1, 1)"
/// );
/// ```
pub fn validate(level: &Level) -> Result<ValidatedLevel, ValidationError> {
    if level.walkable.is_empty() {
        return Err(ValidationError::NoWalkable);
    }
    let mut dropped_points = 0;
    let mut clean_list = |list: &[PolygonInput], kind: PolygonKind| {
        list.iter()
            .enumerate()
            .map(|(polygon, input)| {
                let (clean, dropped) = validate_polygon(input, kind, polygon)?;
                dropped_points += dropped;
                Ok(clean)
            })
            .collect::<Result<Vec<_>, ValidationError>>()
    };
    let walkable = clean_list(&level.walkable, PolygonKind::Walkable)?;
    let obstacles = clean_list(&level.obstacles, PolygonKind::Obstacle)?;
    check_area_names(level)?;
    let mut areas = Vec::with_capacity(level.areas.len());
    for (entry, input) in level.areas.iter().enumerate() {
        if input.area == 0 || AreaId(input.area) > AreaId::MAX {
            return Err(ValidationError::AreaOutOfRange { entry, area: input.area });
        }
        let (clean, dropped) = validate_polygon(&input.polygon(), PolygonKind::Area, entry)?;
        dropped_points += dropped;
        areas.push((clean, AreaId(input.area)));
    }
    Ok(ValidatedLevel { walkable, obstacles, areas, dropped_points })
}

/// Checks `area_names`: non-empty, non-numeric names of types in `1..=63`, one name per type.
fn check_area_names(level: &Level) -> Result<(), ValidationError> {
    area_names(level).map(|_| ())
}

/// A level's `area_names`, checked (see [`trinav::AreaNames`]), as the mesh keeps them.
pub fn area_names(level: &Level) -> Result<AreaNames, ValidationError> {
    AreaNames::new(level.area_names.iter().map(|(name, &area)| (name.clone(), AreaId(area))))
        .map_err(|bad| ValidationError::BadAreaName { name: bad.name, problem: bad.problem })
}

/// Checks and cleans one polygon by the rules of stage 1, as polygon `index` of the `kind`
/// list (which errors name); returns it with the number of points the repairs dropped.
pub fn validate_polygon(
    input: &PolygonInput,
    kind: PolygonKind,
    index: usize,
) -> Result<(CleanPolygon, usize), ValidationError> {
    let mut dropped_points = 0;
    let mut clean = |points: &[[f64; 2]], hole: Option<usize>| {
        let (ring, dropped) = clean_ring(points, RingRef { kind, polygon: index, hole })?;
        dropped_points += dropped;
        Ok::<_, ValidationError>(ring)
    };
    let outer = clean(&input.outer, None)?;
    let holes =
        (input.holes.iter().enumerate()).map(|(h, hole)| clean(hole, Some(h))).collect::<Result<_, _>>()?;
    Ok((CleanPolygon { outer, holes }, dropped_points))
}

/// Cleans one ring; returns it with the number of points dropped by repairs.
fn clean_ring(points: &[[f64; 2]], ring: RingRef) -> Result<(Ring, usize), ValidationError> {
    for (vertex, p) in points.iter().enumerate() {
        for &value in p {
            if !value.is_finite() {
                return Err(ValidationError::NonFinite { ring, vertex, value });
            }
            if value.abs() > MAX_LEVEL_COORDINATE {
                return Err(ValidationError::TooLarge { ring, vertex, value });
            }
            if value != 0.0 && value.abs() < trinav::geometry::MIN_COORDINATE {
                return Err(ValidationError::TooSmall { ring, vertex, value });
            }
        }
    }
    // (position, index in the input ring)
    let mut kept: Vec<(Point, usize)> = Vec::with_capacity(points.len());
    for (i, &p) in points.iter().enumerate() {
        let p = Point::from(p);
        if kept.last().is_none_or(|&(q, _)| q != p) {
            kept.push((p, i));
        }
    }
    let mut dropped = points.len() - kept.len();
    if kept.len() > 1 && kept[0].0 == kept[kept.len() - 1].0 {
        // A closing point is not a repair: not counted.
        kept.pop();
    }
    let distinct = {
        let mut keys: Vec<(u64, u64)> = kept.iter().map(|&(p, _)| trinav::build::position_key(p)).collect();
        keys.sort_unstable();
        keys.dedup();
        keys.len()
    };
    if distinct < 3 {
        return Err(ValidationError::TooFewPoints { ring, distinct });
    }
    let before = kept.len();
    remove_spikes(&mut kept);
    dropped += before - kept.len();
    if kept.len() < 3 {
        return Err(ValidationError::ZeroArea { ring });
    }
    check_simple(&kept, ring)?;
    Ok((kept.into_iter().map(|(p, _)| p).collect(), dropped))
}

/// Drops spike tips (and the repeats they leave) until none is left. A point `b` between
/// neighbours `a` and `c` is a spike tip when `a`, `b`, `c` are collinear and the ring turns
/// back at `b` (`c` is not beyond `b` as seen from `a`).
fn remove_spikes(ring: &mut Vec<(Point, usize)>) {
    let is_tip = |a: Point, b: Point, c: Point| {
        orient(a, b, c) == Orientation::Collinear
            && (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) <= 0.0
    };
    loop {
        let n = ring.len();
        if n < 3 {
            return;
        }
        let tip = (0..n).find(|&i| {
            let (a, b, c) = (ring[(i + n - 1) % n].0, ring[i].0, ring[(i + 1) % n].0);
            a == b || b == c || is_tip(a, b, c)
        });
        match tip {
            Some(i) => {
                ring.remove(i);
            }
            None => return,
        }
    }
}

#[derive(Clone, Debug)]
struct RingEdge {
    position: usize,
    line: Line<f64>,
}

impl Cross for RingEdge {
    type Scalar = f64;
    fn line(&self) -> Line<f64> {
        self.line
    }
}

/// Refuses a ring whose edges cross or touch (see the module rules).
fn check_simple(ring: &[(Point, usize)], ring_ref: RingRef) -> Result<(), ValidationError> {
    let n = ring.len();
    let coord = |p: Point| geo::Coord { x: p.x, y: p.y };
    let edges = (0..n)
        .map(|i| RingEdge { position: i, line: Line::new(coord(ring[i].0), coord(ring[(i + 1) % n].0)) });
    for (e, f, meeting) in Intersections::from_iter(edges) {
        let (i, j) = (e.position.min(f.position), e.position.max(f.position));
        let neighbours = j == i + 1 || (i == 0 && j == n - 1);
        let how = match meeting {
            LineIntersection::SinglePoint { intersection: at, is_proper } => {
                let shared = if j == i + 1 { ring[j].0 } else { ring[i].0 };
                if neighbours && !is_proper && coord(shared) == at {
                    continue;
                }
                let at = Point::new(at.x, at.y);
                if is_proper { Contact::Cross(at) } else { Contact::Touch(at) }
            }
            LineIntersection::Collinear { intersection } => Contact::Overlap {
                from: Point::new(intersection.start.x, intersection.start.y),
                to: Point::new(intersection.end.x, intersection.end.y),
            },
        };
        let segment = |k: usize| Segment {
            from: ring[k].1,
            to: ring[(k + 1) % n].1,
            a: ring[k].0,
            b: ring[(k + 1) % n].0,
        };
        return Err(ValidationError::SelfIntersection(Box::new(SelfIntersection {
            ring: ring_ref,
            first: segment(i),
            second: segment(j),
            how,
        })));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level_with(outer: Vec<[f64; 2]>) -> Level {
        Level { walkable: vec![PolygonInput::new(outer)], ..Level::default() }
    }

    #[test]
    fn closed_ring_and_repeats_are_cleaned_without_moving_points() {
        let level = level_with(vec![[0., 0.], [0., 0.], [4., 0.], [4., 4.], [4., 4.], [0., 4.], [0., 0.]]);
        let v = validate(&level).unwrap();
        let expected = [(0., 0.), (4., 0.), (4., 4.), (0., 4.)].map(|(x, y)| Point::new(x, y));
        assert_eq!(v.walkable[0].outer, expected);
        assert_eq!(v.dropped_points, 2);
    }

    #[test]
    fn spikes_are_removed() {
        // A zero-width antenna from (4, 2) out to (6, 2) and back.
        let level = level_with(vec![[0., 0.], [4., 0.], [4., 2.], [6., 2.], [4., 2.], [4., 4.], [0., 4.]]);
        let v = validate(&level).unwrap();
        let expected = [(0., 0.), (4., 0.), (4., 2.), (4., 4.), (0., 4.)].map(|(x, y)| Point::new(x, y));
        assert_eq!(v.walkable[0].outer, expected);
        assert_eq!(v.dropped_points, 2);
    }

    #[test]
    fn collinear_points_are_kept() {
        let level = level_with(vec![[0., 0.], [1., 0.], [2., 0.], [2., 2.], [0., 2.]]);
        assert_eq!(validate(&level).unwrap().walkable[0].outer.len(), 5);
    }

    #[test]
    fn degenerate_rings_are_refused() {
        let err = validate(&level_with(vec![[0., 0.], [1., 1.], [0., 0.]])).unwrap_err();
        assert!(matches!(err, ValidationError::TooFewPoints { distinct: 2, .. }));
        let err = validate(&level_with(vec![[0., 0.], [1., 1.], [3., 3.]])).unwrap_err();
        assert!(matches!(err, ValidationError::ZeroArea { .. }));
        let err = validate(&level_with(vec![[0., 0.], [1., f64::NAN], [3., 3.]])).unwrap_err();
        assert!(matches!(err, ValidationError::NonFinite { vertex: 1, .. }));
        let err = validate(&level_with(vec![[0., 0.], [1e12, 0.], [3., 3.]])).unwrap_err();
        assert!(matches!(err, ValidationError::TooLarge { vertex: 1, .. }));
        assert_eq!(validate(&Level::default()), Err(ValidationError::NoWalkable));
    }

    #[test]
    fn self_touching_ring_is_refused_with_both_segments() {
        // The point (2, 0) of segment 4-5 touches the bottom edge 0-1.
        let mut level =
            level_with(vec![[0., 0.], [4., 0.], [4., 4.], [3., 4.], [2., 0.], [1., 4.], [0., 4.]]);
        level.obstacles.push(PolygonInput::rect(0., 0., 1., 1.));
        let err = validate(&level).unwrap_err();
        let ValidationError::SelfIntersection(info) = &err else { panic!("{err}") };
        let SelfIntersection { first, second, how, .. } = &**info;
        assert_eq!((first.from, first.to), (0, 1));
        // Both segments 3-4 and 4-5 end on the bottom edge; either may be reported.
        assert!([(3, 4), (4, 5)].contains(&(second.from, second.to)), "{err}");
        assert_eq!(*how, Contact::Touch(Point::new(2., 0.)));
        assert!(err.to_string().starts_with("walkable[0] outer ring: segment 0-1"));
    }

    #[test]
    fn ring_running_back_along_itself_is_refused_with_the_overlap() {
        // Segment 4-5 runs back along the bottom edge 0-1, from (3, 0) to (1, 0).
        let level =
            level_with(vec![[0., 0.], [4., 0.], [4., 2.], [3., 2.], [3., 0.], [1., 0.], [1., 2.], [0., 2.]]);
        let err = validate(&level).unwrap_err();
        let ValidationError::SelfIntersection(info) = &err else { panic!("{err}") };
        let Contact::Overlap { from, to } = info.how else { panic!("{err}") };
        let mut ends = [from, to].map(|p| (p.x, p.y));
        ends.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(ends, [(1., 0.), (3., 0.)], "{err}");
        assert!(err.to_string().contains(&format!("overlap from ({}, 0) to ({}, 0)", from.x, to.x)));
    }

    #[test]
    fn errors_name_obstacle_holes() {
        let mut level = level_with(vec![[0., 0.], [9., 0.], [9., 9.]]);
        level.obstacles.push(PolygonInput::rect(0., 0., 1., 1.));
        level.obstacles.push(PolygonInput::rect(0., 0., 8., 8.).with_hole(vec![
            [1., 1.],
            [3., 3.],
            [3., 1.],
            [1., 3.],
        ]));
        let err = validate(&level).unwrap_err();
        assert!(err.to_string().starts_with("obstacles[1] hole 0: "), "{err}");
    }
}
