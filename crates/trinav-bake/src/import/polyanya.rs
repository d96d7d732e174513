//! Polyanya navigation meshes (`.mesh`), versions 2 and 3: the traversable polygons are taken
//! as the walkable geometry, their outline traced, and the region re-baked.
//!
//! Version 2: `mesh`, `2`, `V P`, then `V` vertices `x y n p1..pn` and `P` polygons
//! `n v1..vn p1..pn` (0-based, counter-clockwise; `p_i` is the polygon across the edge from
//! `v_(i-1)` to `v_i`, `-1` for none). Version 3: `mesh`, `3`, `V F`, then `V` vertices `x y`
//! and `F` faces `trav n v1..vn k1..kn` (1-based; `k_j` across the edge from `v_(j-1)` to
//! `v_j`: positive a traversable face, negative a blocked one, 0 none). Whitespace is free, as
//! the specifications allow. Points where two obstacles touch (pinch vertices) do not connect
//! the two sides.

use trinav::Point;

use crate::import::tokens::Tokens;
use crate::import::trace::{BoundaryEdge, TraceError, region_from_edges};
use crate::import::{ImportError, Malformed};
use crate::merge::{MergedRegion, ring_signed_area};
use crate::ring_crossings::{TooComplex, first_crossing};

/// One traversable polygon: its line, vertex indices (0-based) and, per edge ending at vertex
/// `i`, the traversable polygon across it (0-based) or `None`.
struct Face {
    line: usize,
    vertices: Vec<usize>,
    across: Vec<Option<usize>>,
}

/// Parses a `.mesh` file (version 2 or 3) into its walkable region.
pub fn parse_mesh(text: &str, file: &str) -> Result<MergedRegion, ImportError> {
    let mut tokens = Tokens::new(text, file);
    let (line, header): (usize, String) = tokens.next("header `mesh`")?;
    if header != "mesh" {
        return Err(tokens.error(line, Malformed::WrongHeader { expected: "mesh", found: header }));
    }
    let (line, version): (usize, u32) = tokens.next("format version")?;
    // Every number takes at least two bytes (digit and separator): counts beyond that are lies.
    let max = text.len() / 2 + 1;
    let (vertices, faces) = match version {
        2 => parse_v2(&mut tokens, max)?,
        3 => parse_v3(&mut tokens, max)?,
        version => {
            let reason = Malformed::UnsupportedVersion { format: "mesh", version, supported: &[2, 3] };
            return Err(tokens.error(line, reason));
        }
    };
    tokens.finish("the last polygon")?;
    check_faces(&tokens, &vertices, &faces)?;
    let region = region_of(&vertices, &faces).map_err(|e| tokens.error(0, Malformed::Outline(e)))?;
    // Faces that overlap (a fan turning more than once round a vertex, sheets over each other)
    // have an outline that crosses itself, which the triangulation must not be given.
    for polygon in &region.polygons {
        let crossing = first_crossing(polygon.rings().map(Vec::as_slice));
        match crossing {
            Ok(None) => {}
            Ok(Some(edges)) => return Err(tokens.error(0, Malformed::Outline(TraceError::Crossing(edges)))),
            Err(TooComplex) => {
                return Err(tokens.error(0, Malformed::Outline(TraceError::TooComplexToCheck)));
            }
        }
    }
    Ok(region)
}

fn parse_v2(tokens: &mut Tokens, max: usize) -> Result<(Vec<Point>, Vec<Face>), ImportError> {
    let (_, vertex_count) = tokens.count("vertex count", max)?;
    let (_, polygon_count) = tokens.count("polygon count", max)?;
    let mut vertices = Vec::with_capacity(vertex_count);
    for _ in 0..vertex_count {
        let x = tokens.coordinate("x")?;
        let y = tokens.coordinate("y")?;
        let (_, n) = tokens.count("vertex neighbour count", max)?;
        for _ in 0..n {
            tokens.next::<i64>("vertex neighbour")?;
        }
        vertices.push(Point::new(x, y));
    }
    let mut faces = Vec::with_capacity(polygon_count);
    for _ in 0..polygon_count {
        let (line, n) = tokens.count("polygon size", max)?;
        let mut face = Face { line, vertices: Vec::with_capacity(n), across: Vec::with_capacity(n) };
        for _ in 0..n {
            let (line, v): (usize, i64) = tokens.next("polygon vertex")?;
            face.vertices.push(index(tokens, line, v, vertex_count, "vertex")?);
        }
        for _ in 0..n {
            let (line, p): (usize, i64) = tokens.next("polygon neighbour")?;
            face.across.push(if p == -1 {
                None
            } else {
                Some(index(tokens, line, p, polygon_count, "polygon")?)
            });
        }
        faces.push(face);
    }
    Ok((vertices, faces))
}

fn parse_v3(tokens: &mut Tokens, max: usize) -> Result<(Vec<Point>, Vec<Face>), ImportError> {
    let (_, vertex_count) = tokens.count("vertex count", max)?;
    let (_, face_count) = tokens.count("face count", max)?;
    let mut vertices = Vec::with_capacity(vertex_count);
    for _ in 0..vertex_count {
        let x = tokens.coordinate("x")?;
        let y = tokens.coordinate("y")?;
        vertices.push(Point::new(x, y));
    }
    let mut traversable = Vec::with_capacity(face_count);
    let mut raw = Vec::with_capacity(face_count);
    for _ in 0..face_count {
        let (line, trav): (usize, u8) = tokens.next("face traversable flag")?;
        if trav > 1 {
            return Err(tokens.error(line, Malformed::TraversableFlag { value: trav }));
        }
        let (_, n) = tokens.count("face size", max)?;
        let mut face = Face { line, vertices: Vec::with_capacity(n), across: Vec::with_capacity(n) };
        let mut links = Vec::with_capacity(n);
        for _ in 0..n {
            let (line, v): (usize, i64) = tokens.next("face vertex")?;
            face.vertices.push(index(tokens, line, v - 1, vertex_count, "vertex")?);
        }
        for _ in 0..n {
            let (line, k): (usize, i64) = tokens.next("face neighbour")?;
            if k != 0 {
                index(tokens, line, k.abs() - 1, face_count, "face")?;
            }
            links.push(k);
        }
        traversable.push(trav == 1);
        raw.push((face, links));
    }
    // Keep traversable faces; an edge leads on only to a traversable face marked traversable.
    let mut renumber = vec![None; face_count];
    let mut next = 0;
    for (i, &t) in traversable.iter().enumerate() {
        if t {
            renumber[i] = Some(next);
            next += 1;
        }
    }
    let faces = raw
        .into_iter()
        .zip(&traversable)
        .filter(|(_, t)| **t)
        .map(|((mut face, links), _)| {
            face.across =
                links.iter().map(|&k| if k > 0 { renumber[(k - 1) as usize] } else { None }).collect();
            face
        })
        .collect();
    Ok((vertices, faces))
}

fn index(
    tokens: &Tokens,
    line: usize,
    index: i64,
    count: usize,
    what: &'static str,
) -> Result<usize, ImportError> {
    usize::try_from(index)
        .ok()
        .filter(|&v| v < count)
        .ok_or_else(|| tokens.error(line, Malformed::IndexOutOfRange { what, index, count }))
}

/// Faces have 3+ distinct vertices, wind counter-clockwise, and links are mutual.
fn check_faces(tokens: &Tokens, vertices: &[Point], faces: &[Face]) -> Result<(), ImportError> {
    for (f, face) in faces.iter().enumerate() {
        let n = face.vertices.len();
        if n < 3 {
            return Err(tokens.error(face.line, Malformed::TooFewPoints { polygon: f, points: n }));
        }
        let ring: Vec<Point> = face.vertices.iter().map(|&v| vertices[v]).collect();
        if ring_signed_area(&ring) <= 0.0 {
            return Err(tokens.error(face.line, Malformed::NotCounterClockwise { polygon: f }));
        }
        for (i, across) in face.across.iter().enumerate() {
            let Some(g) = *across else { continue };
            let (a, b) = (face.vertices[(i + n - 1) % n], face.vertices[i]);
            let other = &faces[g];
            let m = other.vertices.len();
            let mutual = (0..m).any(|j| {
                other.vertices[(j + m - 1) % m] == b && other.vertices[j] == a && other.across[j] == Some(f)
            });
            if !mutual {
                let reason = Malformed::OneWayNeighbour { polygon: f, neighbour: g, edge: [a, b] };
                return Err(tokens.error(face.line, reason));
            }
        }
    }
    Ok(())
}

/// Traces the outline of the faces: every edge with no traversable face across it, labelled
/// with its face's connected component.
fn region_of(vertices: &[Point], faces: &[Face]) -> Result<MergedRegion, TraceError> {
    let mut component = vec![u32::MAX; faces.len()];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for seed in 0..faces.len() {
        if component[seed] != u32::MAX {
            continue;
        }
        component[seed] = next;
        stack.push(seed);
        while let Some(f) = stack.pop() {
            for g in faces[f].across.iter().flatten() {
                if component[*g] == u32::MAX {
                    component[*g] = next;
                    stack.push(*g);
                }
            }
        }
        next += 1;
    }
    let mut edges = Vec::new();
    for (f, face) in faces.iter().enumerate() {
        let n = face.vertices.len();
        for (i, across) in face.across.iter().enumerate() {
            if across.is_none() {
                let (a, b) = (face.vertices[(i + n - 1) % n], face.vertices[i]);
                edges.push(BoundaryEdge { from: a as u32, to: b as u32, component: component[f] });
            }
        }
    }
    region_from_edges(vertices, &edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    const V2_SQUARE: &str = "mesh\n2\n4 2\n0 0 2 0 -1\n1.5 0 3 0 1 -1\n1.5 1.5 2 1 -1\n0 1.5 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";

    #[test]
    fn version_2_specification_example() {
        let region = parse_mesh(V2_SQUARE, "square.mesh").unwrap();
        assert_eq!(region.polygons.len(), 1);
        assert_eq!(region.polygons[0].outer.len(), 4, "the diagonal is not a boundary");
        assert_eq!(region.area(), 2.25);
        // The same square with polygon 0 wound clockwise is refused with its line.
        let clockwise = V2_SQUARE.replace("3 0 1 3 -1 -1 1", "3 0 3 1 -1 1 -1");
        match parse_mesh(&clockwise, "cw.mesh") {
            Err(ImportError::Syntax { line: 8, reason, .. }) => {
                assert_eq!(reason, Malformed::NotCounterClockwise { polygon: 0 })
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn version_3_pinch_and_blocked_faces() {
        // Two traversable triangles meeting only at vertex 2, (1, 0): a pinch; one blocked face.
        let text =
            "mesh\n3\n6 3\n0 0\n1 0\n0 1\n1 1\n2 1\n1 2\n1 3 1 2 3 0 0 0\n1 3 2 5 4 0 0 0\n0 3 2 4 3 0 0 0\n";
        let region = parse_mesh(text, "pinch.mesh").unwrap();
        assert_eq!(region.polygons.len(), 2);
        assert_eq!(region.area(), 1.0);
    }

    #[test]
    fn malformed_meshes_name_line_and_reason() {
        let cases = [
            (
                "mesh\n4\n",
                2,
                Malformed::UnsupportedVersion { format: "mesh", version: 4, supported: &[2, 3] },
            ),
            (
                "mesh\n3\n2 1\n0 0\n1 0\n1 3 1 2 3 0 0 0\n",
                6,
                Malformed::IndexOutOfRange { what: "vertex", index: 2, count: 2 },
            ),
            (
                "mesh\n3\n3 1\n0 0\n1 0\n0 1\n1 3 1 2 3 0 0 5\n",
                7,
                Malformed::IndexOutOfRange { what: "face", index: 4, count: 1 },
            ),
            ("mesh\n3\n3 1\n0 0\n1 zero\n", 5, Malformed::BadNumber { what: "y", word: "zero".into() }),
            (
                "mesh\n3\n3 1\n0 0\n1 0\n0 1\n1 3 1 2\n",
                7,
                Malformed::UnexpectedEnd { expected: "face vertex" },
            ),
            ("mesh\n3\n3 1\n0 0\n1 0\n0 1\n2 3 1 2 3 0 0 0\n", 7, Malformed::TraversableFlag { value: 2 }),
            (
                "mesh\n3\n99999999 1\n",
                3,
                Malformed::CountTooLarge { what: "vertex count", count: 99999999, max: 10 },
            ),
            ("nav\n", 1, Malformed::WrongHeader { expected: "mesh", found: "nav".into() }),
        ];
        for (text, line, reason) in cases {
            match parse_mesh(text, "bad.mesh") {
                Err(ImportError::Syntax { line: l, reason: r, .. }) => {
                    assert_eq!((l, r), (line, reason), "{text:?}")
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
        // Five triangles fanned round (0, 0), each a quarter turn: the fan turns one and a
        // quarter times, and its outline runs twice along the edge from (10, 0) to (0, 8).
        let fan = "mesh\n3\n7 5\n0 0\n10 0\n0 8\n-10 0\n0 -8\n10 0\n0 8\n\
                   1 3 1 2 3 2 0 0\n1 3 1 3 4 3 1 0\n1 3 1 4 5 4 2 0\n1 3 1 5 6 5 3 0\n1 3 1 6 7 0 4 0\n";
        let edge = (Point::new(10.0, 0.0), Point::new(0.0, 8.0));
        match parse_mesh(fan, "fan.mesh") {
            Err(ImportError::Syntax { reason: Malformed::Outline(TraceError::Crossing(edges)), .. }) => {
                assert_eq!(edges, [edge, edge])
            }
            other => panic!("{other:?}"),
        }
        // Polygon 0 names polygon 1 across its edge 1-3; polygon 1 names nothing back.
        let one_way = V2_SQUARE.replace("3 1 2 3 0 -1 -1", "3 1 2 3 -1 -1 -1");
        match parse_mesh(&one_way, "one_way.mesh") {
            Err(ImportError::Syntax { line: 8, reason, .. }) => {
                assert_eq!(reason, Malformed::OneWayNeighbour { polygon: 0, neighbour: 1, edge: [1, 3] })
            }
            other => panic!("{other:?}"),
        }
    }
}
