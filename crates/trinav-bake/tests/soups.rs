//! Property tests over random obstacle soups: overlapping, touching, duplicated, collinear,
//! slivers, nested rings with holes, at scales from 1e-3 to 1e6 (shapes of a few thousandths in
//! a room a million units wide included). A bake either gives a mesh
//! that passes verification, or reports that nothing is walkable; it never panics and never
//! fails verification. Paths on the result are valid.

use proptest::prelude::*;
use trinav::{BakeSettings, PathError, PathScratch, Point, Triangulation};
use trinav_bake::{BakeError, Level, PolygonInput, bake};

/// One obstacle shape, in units of a coarse lattice (so that shapes often touch exactly).
#[derive(Clone, Debug)]
enum Shape {
    Rect {
        x: i32,
        y: i32,
        w: i32,
        h: i32,
    },
    /// A star-shaped polygon (simple by construction): radii per equal angle step.
    Star {
        x: i32,
        y: i32,
        radii: Vec<u8>,
    },
    /// A square ring: a rectangle with a rectangular hole, whose inside may be walkable.
    Ring {
        x: i32,
        y: i32,
        size: i32,
        wall: i32,
    },
    /// A sliver: a rectangle one thousandth of a unit thick.
    Sliver {
        x: i32,
        y: i32,
        len: i32,
        vertical: bool,
    },
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (0..20i32, 0..20i32, 1..8i32, 1..8i32).prop_map(|(x, y, w, h)| Shape::Rect { x, y, w, h }),
        (2..18i32, 2..18i32, prop::collection::vec(1u8..6, 3..9)).prop_map(|(x, y, radii)| Shape::Star {
            x,
            y,
            radii
        }),
        (0..14i32, 0..14i32, 4..9i32, 0..3i32).prop_map(|(x, y, size, wall)| Shape::Ring {
            x,
            y,
            size,
            wall: 1 + wall % ((size - 1) / 2)
        }),
        (0..20i32, 0..20i32, 1..10i32, any::<bool>()).prop_map(|(x, y, len, vertical)| Shape::Sliver {
            x,
            y,
            len,
            vertical
        }),
    ]
}

/// Points of a ring with every edge also split at its midpoint (collinear points) when asked.
fn ring(points: Vec<[f64; 2]>, collinear: bool, scale: f64) -> Vec<[f64; 2]> {
    let n = points.len();
    let mut out = Vec::new();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        out.push([a[0] * scale, a[1] * scale]);
        if collinear {
            out.push([(a[0] + b[0]) * 0.5 * scale, (a[1] + b[1]) * 0.5 * scale]);
        }
    }
    out
}

fn polygon(shape: &Shape, collinear: bool, scale: f64) -> PolygonInput {
    let rect = |x: f64, y: f64, w: f64, h: f64| vec![[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
    match shape {
        Shape::Rect { x, y, w, h } => {
            PolygonInput::new(ring(rect(*x as f64, *y as f64, *w as f64, *h as f64), collinear, scale))
        }
        Shape::Star { x, y, radii } => {
            let n = radii.len();
            let points = (0..n)
                .map(|k| {
                    let angle = std::f64::consts::TAU * k as f64 / n as f64;
                    let r = radii[k] as f64 * 0.5;
                    [*x as f64 + r * angle.cos(), *y as f64 + r * angle.sin()]
                })
                .collect();
            PolygonInput::new(ring(points, collinear, scale))
        }
        Shape::Ring { x, y, size, wall } => {
            let (x, y, s, w) = (*x as f64, *y as f64, *size as f64, *wall as f64);
            PolygonInput::new(ring(rect(x, y, s, s), collinear, scale)).with_hole(ring(
                rect(x + w, y + w, s - 2.0 * w, s - 2.0 * w),
                collinear,
                scale,
            ))
        }
        Shape::Sliver { x, y, len, vertical } => {
            let (w, h) = if *vertical { (1e-3, *len as f64) } else { (*len as f64, 1e-3) };
            PolygonInput::new(ring(rect(*x as f64, *y as f64, w, h), collinear, scale))
        }
    }
}

fn level_strategy() -> impl Strategy<Value = (Level, f64)> {
    (
        prop::collection::vec((shape(), any::<bool>(), 0u8..3), 1..12),
        prop::sample::select(vec![1e-3, 1.0, 0.1, 1e3, 4e4]),
        prop::sample::select(vec![0.0, 0.0, 0.3, 1.0]),
        any::<bool>(),
    )
        .prop_map(|(shapes, scale, radius, huge_room)| {
            let mut obstacles = Vec::new();
            for (shape, collinear, copies) in &shapes {
                // copies == 2: the same obstacle twice (duplicates).
                for _ in 0..(*copies).max(1) {
                    obstacles.push(polygon(shape, *collinear, scale));
                }
            }
            // Either a room fitting the shapes, or a 1e6 room with the shapes in one corner.
            let side = if huge_room { 1e6 } else { 24.0 * scale };
            let level = Level {
                walkable: vec![PolygonInput::rect(0.0, 0.0, side, side)],
                obstacles,
                agent_radius: Some(radius * scale),
                links: Vec::new(),
            };
            (level, scale)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn soups_bake_to_verified_meshes_with_valid_paths((level, scale) in level_strategy(), ear in any::<bool>()) {
        let triangulation = if ear { Triangulation::EarClipping } else { Triangulation::ConstrainedDelaunay };
        let settings = BakeSettings::default()
            .with_agent_radius(level.agent_radius.unwrap_or(0.0))
            .with_triangulation(triangulation);
        let baked = match bake(&level, &settings) {
            Ok(baked) => baked,
            Err(BakeError::NothingWalkable { .. }) => return Ok(()),
            Err(e) => panic!("{e}\n{:#?}\nlevel: {}", e, level.to_json()),
        };
        prop_assert!(baked.mesh.parts().find_problems().is_empty());
        prop_assert!(baked.report.verification.relative_area_error <= 1e-9);
        let mesh = &baked.mesh;
        // Paths between triangle centroids: found exactly when the islands agree, and valid.
        let centroid = |t: u32| {
            let [a, b, c] = mesh.triangle_points(trinav::TriangleId(t));
            Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)
        };
        let n = mesh.triangle_count() as u32;
        let mut scratch = PathScratch::new();
        for k in 0..6u32 {
            let (s, g) = (k * 7919 % n, (k * 104_729 + 13) % n);
            let (from, to) = (centroid(s), centroid(g));
            let (Some(ts), Some(tg)) = (mesh.locate(from), mesh.locate(to)) else { continue };
            match mesh.find_path(from, to, &mut scratch) {
                Ok(path) => {
                    prop_assert_eq!(path.points.first(), Some(&from));
                    prop_assert_eq!(path.points.last(), Some(&to));
                    for w in path.points.windows(2) {
                        let clear = mesh.raycast(w[0], w[1]).unwrap().is_clear();
                        prop_assert!(clear, "segment {:?} leaves the mesh (scale {})", w, scale);
                    }
                }
                Err(PathError::Unreachable) => prop_assert_ne!(mesh.island(ts), mesh.island(tg)),
                Err(e) => panic!("{e}"),
            }
        }
    }
}

/// Fuzzing regressions (`fuzz/regressions/bake`): extreme levels give a mesh or a typed error.
/// Coordinates below 2^-142 are refused up front; two huge thin triangles near the coordinate
/// limit still fail verification (the float area check's 1e-9 tolerance; see the fuzz README),
/// which is reported as an error, never a broken mesh.
#[test]
fn fuzz_regressions_bake_or_refuse() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/bake");
    let tiny = Level::load(dir.join("spade_too_small_tiny_coordinates.json")).unwrap();
    let err = bake(&tiny, &BakeSettings::default()).unwrap_err();
    assert!(matches!(err, BakeError::Validation(trinav_bake::ValidationError::TooSmall { .. })), "{err}");
    for name in ["area_mismatch_ear_clipping.json", "area_mismatch_large_thin_triangle.json"] {
        let level = Level::load(dir.join(name)).unwrap();
        for triangulation in [Triangulation::EarClipping, Triangulation::ConstrainedDelaunay] {
            match bake(&level, &BakeSettings::default().with_triangulation(triangulation)) {
                Ok(baked) => assert!(baked.mesh.parts().find_problems().is_empty()),
                Err(BakeError::Verification(_)) => {}
                Err(e) => panic!("{name}: unexpected {e}"),
            }
        }
    }
}
