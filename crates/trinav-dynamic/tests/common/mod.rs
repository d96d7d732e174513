//! What the editable mesh's tests share: random obstacles, and the comparison of a mesh with a
//! full bake of the same level (walkable area, islands, optimal path lengths), which never
//! looks at how either mesh was built.

#![allow(dead_code)] // Each test binary uses its own part.

use rand::{Rng, RngExt, SeedableRng};
use trinav::{NavMesh, PathError, PathMode, PathOptions, PathScratch, Point, TriangleId};
use trinav_bake::PolygonInput;

/// A seeded generator.
pub fn rng(seed: u64) -> rand_pcg::Pcg64 {
    rand_pcg::Pcg64::seed_from_u64(seed)
}

/// A multiple of 1/4 in `lo..hi`.
pub fn quarter(rng: &mut impl Rng, lo: f64, hi: f64) -> f64 {
    (rng.random_range(lo..hi) * 4.0).round() / 4.0
}

/// A random obstacle around `(cx, cy)`: a rectangle, an L, a convex polygon (corners on
/// multiples of 1/64) or a rectangle with a hole; 1 to 8 units across.
pub fn random_obstacle(rng: &mut impl Rng, cx: f64, cy: f64) -> PolygonInput {
    let (w, h) = (quarter(rng, 1.0, 8.0), quarter(rng, 1.0, 8.0));
    let (x0, y0) = (quarter(rng, cx - w, cx), quarter(rng, cy - h, cy));
    match rng.random_range(0..4) {
        0 => PolygonInput::rect(x0, y0, x0 + w, y0 + h),
        1 => {
            let (a, b) = (quarter(rng, 0.25, w), quarter(rng, 0.25, h));
            PolygonInput::new(vec![
                [x0, y0],
                [x0 + w, y0],
                [x0 + w, y0 + b],
                [x0 + a, y0 + b],
                [x0 + a, y0 + h],
                [x0, y0 + h],
            ])
        }
        2 => {
            let n = rng.random_range(3..12);
            let r = 0.5 + w / 2.0;
            let start = rng.random_range(0.0..std::f64::consts::TAU);
            let snap = |v: f64| (v * 64.0).round() / 64.0;
            let corners: Vec<[f64; 2]> = (0..n)
                .map(|i| {
                    let a = start + std::f64::consts::TAU * i as f64 / n as f64;
                    [snap(cx + r * a.cos()), snap(cy + r * a.sin())]
                })
                .collect();
            PolygonInput::new(corners)
        }
        _ => {
            let (w, h) = (w.max(3.0), h.max(3.0));
            PolygonInput::rect(x0, y0, x0 + w, y0 + h).with_hole(vec![
                [x0 + 1.0, y0 + 1.0],
                [x0 + w - 1.0, y0 + 1.0],
                [x0 + w - 1.0, y0 + h - 1.0],
                [x0 + 1.0, y0 + h - 1.0],
            ])
        }
    }
}

/// The area of each island, largest first.
pub fn island_areas(mesh: &NavMesh) -> Vec<f64> {
    let mut areas = vec![0.0; mesh.island_count() as usize];
    for t in 0..mesh.triangle_count() {
        let t = TriangleId::from_index(t);
        let [a, b, c] = mesh.triangle_points(t);
        areas[mesh.island(t).index()] += ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) * 0.5;
    }
    areas.sort_by(|x, y| y.total_cmp(x));
    areas
}

/// Asserts that `mesh` and `baked` have the same walkable area and islands (each within
/// `tolerance` of the total area) and the same optimal path lengths (within `tolerance`
/// relative) between `pairs` random pairs of points of `area` that are on both meshes. A
/// point on one mesh and off the other is allowed only within `tolerance × size` of a boundary
/// (for inflated arcs, whose chords the two bakes round differently); their number is returned.
pub fn assert_same_as_bake(
    rng: &mut impl Rng,
    mesh: &NavMesh,
    baked: &NavMesh,
    area: (Point, Point),
    pairs: usize,
    tolerance: f64,
    what: &str,
) -> usize {
    let total = baked.area();
    assert!(
        (mesh.area() - total).abs() <= tolerance * total.max(1.0),
        "{what}: area {} vs bake {}",
        mesh.area(),
        total
    );
    let (ours, theirs) = (island_areas(mesh), island_areas(baked));
    // Islands of no area to speak of (slivers between inflated arcs) may differ.
    let significant =
        |areas: &[f64]| areas.iter().copied().filter(|&a| a > tolerance * total.max(1.0)).collect::<Vec<_>>();
    let (ours, theirs) = (significant(&ours), significant(&theirs));
    assert_eq!(ours.len(), theirs.len(), "{what}: islands {ours:?} vs bake {theirs:?}");
    for (a, b) in ours.iter().zip(&theirs) {
        assert!(
            (a - b).abs() <= tolerance * total.max(1.0),
            "{what}: island areas {ours:?} vs bake {theirs:?}"
        );
    }
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let (mut s1, mut s2) = (PathScratch::new(), PathScratch::new());
    let mut near_boundary = 0;
    let mut point = |rng: &mut dyn rand::Rng| loop {
        let p = Point::new(rng.random_range(area.0.x..area.1.x), rng.random_range(area.0.y..area.1.y));
        match (mesh.locate(p).is_some(), baked.locate(p).is_some()) {
            (true, true) => return p,
            (false, false) => continue,
            _ => {
                let d = mesh
                    .nearest_point(p)
                    .map_or(0.0, |(q, _)| q.distance(p))
                    .max(baked.nearest_point(p).map_or(0.0, |(q, _)| q.distance(p)));
                assert!(d <= tolerance * 100.0, "{what}: {p:?} is on one mesh only, {d} from the other");
                near_boundary += 1;
            }
        }
    };
    for _ in 0..pairs {
        let (from, to) = (point(rng), point(rng));
        let a = mesh.find_path_with(from, to, &options, &mut s1).map(|p| p.length);
        let b = baked.find_path_with(from, to, &options, &mut s2).map(|p| p.length);
        match (a, b) {
            (Ok(a), Ok(b)) => assert!(
                (a - b).abs() <= tolerance * b.max(1.0),
                "{what}: {from:?} -> {to:?}: {a} vs bake {b}"
            ),
            (Err(PathError::Unreachable), Err(PathError::Unreachable)) => {}
            (a, b) => panic!("{what}: {from:?} -> {to:?}: {a:?} vs bake {b:?}"),
        }
    }
    near_boundary
}
