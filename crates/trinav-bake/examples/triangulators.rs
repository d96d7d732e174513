//! Compares triangulators on the same walkable regions, side by side: spade (constrained
//! Delaunay), i_triangle (Delaunay-refined, the default), cdt and poly2tri-rs (constrained
//! Delaunay) and earcutr (ear clipping). Per region and method: median time of 5 runs over all
//! polygons, triangle count, smallest angle, whether every triangle corner is bit for bit a ring
//! point, and whether the triangles weld, derive and verify into a mesh of the region.
//!
//! ```text
//! cargo run --release -p trinav-bake --example triangulators [-- DATA_DIR]
//! ```
//!
//! Regions: the traced walkable regions of the peer bench's inputs from `DATA_DIR` (default
//! `../shared/bench-data` from the repository root, skipped when absent) and two generated
//! levels (10,000 obstacle vertices, radius 0 and 0.5) after validate and merge.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use trinav::build::position_key;
use trinav::geometry::{Orientation, orient};
use trinav::{BakeSettings, Point};
use trinav_bake::generate::scattered_obstacles;
use trinav_bake::import::{ImportOptions, Source, import};
use trinav_bake::merge::{MergedPolygon, MergedRegion};
use trinav_bake::triangulate::{constrained_delaunay, delaunay_on_grid, ear_clip};
use trinav_bake::{TriangleSoup, derive, merge, validate, verify, weld};

type Method = fn(&MergedPolygon) -> Result<Vec<[Point; 3]>, String>;

/// cdt: the distinct ring points and every ring as a closed contour of indices.
fn cdt(polygon: &MergedPolygon) -> Result<Vec<[Point; 3]>, String> {
    let mut index = std::collections::HashMap::new();
    let mut points: Vec<(f64, f64)> = Vec::new();
    let contours: Vec<Vec<usize>> = polygon
        .rings()
        .map(|ring| {
            let mut c: Vec<usize> = ring
                .iter()
                .map(|p| {
                    *index.entry(position_key(*p)).or_insert_with(|| {
                        points.push((p.x, p.y));
                        points.len() - 1
                    })
                })
                .collect();
            c.push(c[0]);
            c
        })
        .collect();
    let triangles = std::panic::catch_unwind(|| cdt::triangulate_contours(&points, &contours))
        .map_err(|_| "panicked".to_string())?
        .map_err(|e| e.to_string())?;
    Ok(triangles
        .into_iter()
        .map(|(a, b, c)| [a, b, c].map(|i| Point::new(points[i].0, points[i].1)))
        .map(|[a, b, c]| if orient(a, b, c) == Orientation::Clockwise { [a, c, b] } else { [a, b, c] })
        .collect())
}

/// poly2tri-rs (a sweep-line constrained Delaunay): the outer ring and the holes as given. It
/// takes no point twice (a grid map's double corners, holes touching the outer ring): those
/// polygons fail.
fn poly2tri(polygon: &MergedPolygon) -> Result<Vec<[Point; 3]>, String> {
    let ring = |r: &[Point]| r.iter().map(|p| poly2tri_rs::Point::new(p.x, p.y)).collect::<Vec<_>>();
    let mut seen = HashSet::new();
    if !polygon.rings().flatten().all(|&p| seen.insert(position_key(p))) {
        return Err("a point repeats (poly2tri-rs takes each point once)".to_string());
    }
    let builder = poly2tri_rs::SweeperBuilder::new(ring(&polygon.outer))
        .add_holes(polygon.holes.iter().map(|h| ring(h)));
    let triangles = std::panic::catch_unwind(|| builder.build().triangulate().collect::<Vec<_>>())
        .map_err(|_| "panicked".to_string())?;
    Ok(triangles
        .into_iter()
        .map(|t| t.points.map(|p| Point::new(p.x, p.y)))
        .map(|[a, b, c]| if orient(a, b, c) == Orientation::Clockwise { [a, c, b] } else { [a, b, c] })
        .collect())
}

const METHODS: [(&str, Method); 5] = [
    ("spade", |p| constrained_delaunay(p).map_err(|e| e.to_string())),
    ("i_triangle", |p| delaunay_on_grid(p).map_err(|e| e.to_string())),
    ("cdt", cdt),
    ("poly2tri-rs", poly2tri),
    ("earcutr", |p| ear_clip(p).map_err(|e| e.to_string())),
];

fn regions(data: &Path) -> Vec<(String, MergedRegion)> {
    let mut out = Vec::new();
    let inputs = [
        "movingai/arena.map",
        "movingai/den011d.map",
        "movingai/lak303d.map",
        "movingai/AR0304SR.map",
        "movingai/maze512-32-0.map",
        "movingai/random512-10-0.map",
        "movingai/8room_000.map",
        "iron-harvest/scene_mp_2p_01.mesh",
    ];
    for input in inputs {
        let path = data.join(input);
        let Ok(source) = import(&path, None, &ImportOptions::default()) else {
            eprintln!("skipped {} (missing or unreadable)", path.display());
            continue;
        };
        let region = match source {
            Source::Grid(grid) => grid.walkable_region().expect("traces"),
            Source::Terrain(grid) => grid.walkable_region().expect("traces"),
            Source::Region(mut region) => {
                // As `bake_region` does: ring points on other rings' edges become vertices.
                merge::node_rings(&mut region.polygons);
                region
            }
            Source::Level(_) => continue,
        };
        let name = Path::new(input).file_stem().unwrap().to_string_lossy().into_owned();
        out.push((name, region));
    }
    for radius in [0.0, 0.5] {
        let level = scattered_obstacles(10_000, 21);
        let settings = BakeSettings::default().with_agent_radius(radius);
        let region = merge::merge(&validate::validate(&level).unwrap(), &settings).unwrap();
        out.push((format!("generated 10k r{radius}"), region));
    }
    out
}

fn main() {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let data =
        std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| root.join("../shared/bench-data"));
    println!(
        "| region | polygons | ring points | method | ms (median of 5) | triangles | min angle (deg) | bit-exact | verifies |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, region) in regions(&data) {
        let ring_points: HashSet<(u64, u64)> = region
            .polygons
            .iter()
            .flat_map(MergedPolygon::rings)
            .flatten()
            .map(|&p| position_key(p))
            .collect();
        for (method_name, method) in METHODS {
            if method_name == "earcutr" && region.point_count() > 50_000 {
                println!(
                    "| {name} | | | {method_name} | (skipped: quadratic with thousands of holes) | | | | |"
                );
                continue;
            }
            let mut times = Vec::new();
            let mut result = Ok(Vec::new());
            for _ in 0..5 {
                let start = Instant::now();
                result =
                    region.polygons.iter().map(method).collect::<Result<Vec<_>, _>>().map(|t| t.concat());
                times.push(start.elapsed().as_secs_f64() * 1e3);
            }
            times.sort_by(f64::total_cmp);
            let triangles = match result {
                Ok(t) => t,
                Err(e) => {
                    println!("| {name} | | | {method_name} | fails: {e} | | | | |");
                    continue;
                }
            };
            let min_angle = triangles
                .iter()
                .map(|&[a, b, c]| trinav::geometry::min_angle_deg(a, b, c))
                .fold(180.0, f64::min);
            let exact = triangles.iter().flatten().all(|p| ring_points.contains(&position_key(*p)));
            let soup = TriangleSoup::from_corners(&triangles);
            let verifies = weld::weld(&soup)
                .map_err(|e| e.to_string())
                .and_then(|w| derive::derive(w, &BakeSettings::default()).map_err(|e| e.to_string()))
                .and_then(|m| verify::verify(&region, &m).map(|_| ()).map_err(|e| e.to_string()));
            println!(
                "| {name} | {} | {} | {method_name} | {:.2} | {} | {:.3} | {} | {} |",
                region.polygons.len(),
                region.point_count(),
                times[2],
                triangles.len(),
                min_angle,
                if exact { "yes" } else { "no" },
                match verifies {
                    Ok(()) => "yes".to_string(),
                    Err(e) => format!("no: {}", e.chars().take(60).collect::<String>()),
                }
            );
        }
    }
}
