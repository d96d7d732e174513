//! Polyanya polygon maps (`.poly`), version 1: `poly`, `1`, `N`, then `N` polygons, each
//! `M x1 y1 ... xM yM`. The walkable area is the even-odd combination of all polygons (a point
//! is walkable when an odd number of polygons contain it), computed with geo's boolean
//! operations.

use geo::algorithm::bool_ops::FillRule;
use geo::{BooleanOps, LineString, MultiPolygon, Polygon};

use crate::import::tokens::Tokens;
use crate::import::{ImportError, Malformed};
use crate::merge::{MergedRegion, node_rings, to_merged};

/// Parses a `.poly` file into its walkable region.
///
/// ```
/// use trinav_bake::import::poly::parse_poly;
/// // A 4x4 square with a 2x2 square inside it: even-odd leaves a square ring of area 12.
/// let region = parse_poly("poly\n1\n2\n4 0 0 4 0 4 4 0 4\n4 1 1 3 1 3 3 1 3\n", "ring.poly")?;
/// assert_eq!(region.area(), 12.0);
/// # Ok::<(), trinav_bake::import::ImportError>(())
/// ```
pub fn parse_poly(text: &str, file: &str) -> Result<MergedRegion, ImportError> {
    let mut tokens = Tokens::new(text, file);
    let (line, header): (usize, String) = tokens.next("header `poly`")?;
    if header != "poly" {
        return Err(tokens.error(line, Malformed::WrongHeader { expected: "poly", found: header }));
    }
    let (line, version): (usize, u32) = tokens.next("format version")?;
    if version != 1 {
        let reason = Malformed::UnsupportedVersion { format: "poly", version, supported: &[1] };
        return Err(tokens.error(line, reason));
    }
    let max = text.len() / 2 + 1;
    let (_, count) = tokens.count("polygon count", max)?;
    let mut polygons = Vec::with_capacity(count);
    for index in 0..count {
        let (line, points) = tokens.count("point count", max)?;
        if points < 3 {
            return Err(tokens.error(line, Malformed::TooFewPoints { polygon: index, points }));
        }
        let mut ring = Vec::with_capacity(points + 1);
        for _ in 0..points {
            let x = tokens.coordinate("x")?;
            let y = tokens.coordinate("y")?;
            ring.push(geo::Coord { x, y });
        }
        ring.push(ring[0]);
        polygons.push(Polygon::new(LineString(ring), Vec::new()));
    }
    tokens.finish("the last polygon")?;
    let combined =
        MultiPolygon(polygons).union_with_fill_rule(&MultiPolygon::<f64>(Vec::new()), FillRule::EvenOdd);
    let mut polygons = to_merged(combined).map_err(ImportError::Merge)?;
    node_rings(&mut polygons);
    Ok(MergedRegion { polygons, inflated_obstacles: Vec::new(), ..MergedRegion::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_polygons_combine_even_odd() {
        // Two overlapping 2x2 squares: the overlap (1x1) is covered twice, so not walkable.
        let region = parse_poly("poly\n1\n2\n4 0 0 2 0 2 2 0 2\n4 1 1 3 1 3 3 1 3\n", "x.poly").unwrap();
        assert_eq!(region.area(), 8.0 - 2.0);
    }

    #[test]
    fn malformed_files_name_line_and_reason() {
        let cases = [
            ("poly\n2\n", 2, Malformed::UnsupportedVersion { format: "poly", version: 2, supported: &[1] }),
            ("poly\n1\n1\n2 0 0 1 1\n", 4, Malformed::TooFewPoints { polygon: 0, points: 2 }),
            ("poly\n1\n1\n3 0 0 1 0\n", 4, Malformed::UnexpectedEnd { expected: "x" }),
            ("poly\n1\n1\n3 0 0 1 0 0 1e300\n", 4, Malformed::Coordinate { what: "y", value: 1e300 }),
            ("poly\n1\n1\n3 0 0 1 0 0 1\n7\n", 5, Malformed::TrailingData { after: "the last polygon" }),
            ("mesh\n", 1, Malformed::WrongHeader { expected: "poly", found: "mesh".into() }),
        ];
        for (text, line, reason) in cases {
            match parse_poly(text, "bad.poly") {
                Err(ImportError::Syntax { line: l, reason: r, .. }) => {
                    assert_eq!((l, r), (line, reason), "{text:?}")
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        let nan = parse_poly("poly\n1\n1\n3 0 0 1 0 0 nan\n", "bad.poly");
        let is_nan =
            |r: &Malformed| matches!(r, Malformed::Coordinate { what: "y", value } if value.is_nan());
        assert!(
            matches!(&nan, Err(ImportError::Syntax { line: 4, reason, .. }) if is_nan(reason)),
            "{nan:?}"
        );
    }
}
