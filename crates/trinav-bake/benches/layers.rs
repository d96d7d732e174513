//! Layered queries against the same level without layers: a generated level
//! ([`scattered_obstacles`], about 10k triangles) cut along its middle, x = side / 2, into two
//! layers joined by one portal the height of the level (`layered`); the same level (less the
//! obstacles the cut touches, in both) baked as one layer (`flat`); and the layered mesh's
//! triangles as a mesh of one layer (`cut`: the layers do not overlap, so its vertices are
//! distinct), which differs from `layered` only in the layer table. The same random pairs on
//! all three (each point on one layer); groups `layers_fast` and `layers_optimal`, one query
//! per iteration, cycling through the pairs.
//!
//! Before measuring, the mean and worst ratio of the layered path lengths to the others' are
//! printed (the optimal ones must be equal).
//!
//! Run with `cargo bench -p trinav-bake --bench layers`. With `TRINAV_LAYERS_ONLY=flat`,
//! `cut`, `layered` or `none`, the benchmark instead runs every pair once in both modes on
//! that mesh and exits: run under `valgrind --tool=callgrind`, the differences to `none` are
//! the queries' instruction counts.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use trinav::{BakeSettings, LayerId, NavMesh, PathMode, PathOptions, PathScratch, Point};
use trinav_bake::generate::{SplitMix64, scattered_obstacles};
use trinav_bake::{LayerInput, Level, PolygonInput, PortalInput, bake};

/// Seed of the generated level and of the pairs.
const SEED: u64 = 21;
/// Obstacle vertices of the generated level (about 10k triangles).
const OBSTACLE_VERTICES: usize = 10_000;
/// Query pairs.
const PAIRS: usize = 500;

/// The flat level and its layered twin, and the cut's x.
fn levels() -> (Level, Level, f64) {
    let mut level = scattered_obstacles(OBSTACLE_VERTICES, SEED);
    let side = level.walkable[0].outer.iter().map(|q| q[0]).fold(0.0, f64::max);
    let cut = (side / 2.0).round();
    let x_range = |polygon: &PolygonInput| {
        polygon
            .outer
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), q| (lo.min(q[0]), hi.max(q[0])))
    };
    // Obstacles that reach within 1 of the cut are dropped from both levels.
    level.obstacles.retain(|o| {
        let (lo, hi) = x_range(o);
        hi < cut - 1.0 || lo > cut + 1.0
    });
    let (west, east): (Vec<PolygonInput>, Vec<PolygonInput>) =
        level.obstacles.iter().cloned().partition(|o| x_range(o).1 < cut);
    let layer = |name: &str, x0: f64, x1: f64, obstacles: Vec<PolygonInput>| LayerInput {
        name: name.to_string(),
        walkable: vec![PolygonInput::rect(x0, 0.0, x1, side)],
        obstacles,
        ..LayerInput::default()
    };
    let layered = Level {
        layers: vec![layer("west", 0.0, cut, west), layer("east", cut, side, east)],
        portals: vec![PortalInput {
            layers: ["west".into(), "east".into()],
            from: [cut, 0.0],
            to: [cut, side],
        }],
        ..Level::default()
    };
    (level, layered, cut)
}

/// Random pairs of points on the walkable area.
fn pairs(mesh: &NavMesh) -> Vec<(Point, Point)> {
    let mut rng = SplitMix64::new(SEED);
    let bounds = mesh.bounds();
    let size = (bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y);
    let mut point = || loop {
        let q = rng.point_in(bounds.min, size);
        if mesh.locate(q).is_some() {
            return q;
        }
    };
    (0..PAIRS).map(|_| (point(), point())).collect()
}

fn layered_queries(c: &mut Criterion) {
    let (flat_level, layered_level, cut_x) = levels();
    let flat = bake(&flat_level, &BakeSettings::default()).expect("the flat level bakes").mesh;
    let layered = bake(&layered_level, &BakeSettings::default()).expect("the layered level bakes").mesh;
    let cut = NavMesh::from_parts(layered.parts().clone()).expect("the layers do not overlap");
    let pairs = pairs(&flat);
    let layer = |q: Point| LayerId(u16::from(q.x > cut_x));
    let mut scratch = PathScratch::new();
    println!(
        "layers bench: flat {} triangles, layered {} triangles ({} portal edges), {} pairs",
        flat.triangle_count(),
        layered.triangle_count(),
        layered.portal_edge_count(),
        pairs.len()
    );
    if let Ok(only) = std::env::var("TRINAV_LAYERS_ONLY") {
        // One pass over the pairs in both modes on one mesh (`none`: no query), for an
        // instruction count (callgrind) less noisy than the timings on a loaded machine.
        for mode in [PathMode::Fast, PathMode::Optimal] {
            let options = PathOptions::default().with_mode(mode);
            for &(a, z) in &pairs {
                let found = match only.as_str() {
                    "flat" => flat.find_path_with(a, z, &options, &mut scratch).ok(),
                    "cut" => cut.find_path_with(a, z, &options, &mut scratch).ok(),
                    "layered" => {
                        layered.find_path_on((layer(a), a), (layer(z), z), &options, &mut scratch).ok()
                    }
                    _ => None,
                };
                black_box(found);
            }
        }
        std::process::exit(0);
    }
    for mode in [PathMode::Fast, PathMode::Optimal] {
        let options = PathOptions::default().with_mode(mode);
        for (name, other) in [("flat", &flat), ("cut", &cut)] {
            let (mut sum, mut worst, mut count) = (0.0, 0.0f64, 0usize);
            for &(a, b) in &pairs {
                let plain = other.find_path_with(a, b, &options, &mut scratch);
                let on = layered.find_path_on((layer(a), a), (layer(b), b), &options, &mut scratch);
                if let (Ok(plain), Ok(on)) = (plain, on)
                    && plain.length > 0.0
                {
                    let ratio = on.length / plain.length;
                    (sum, worst, count) = (sum + ratio, worst.max(ratio), count + 1);
                }
            }
            let mean = sum / count as f64;
            println!("{mode:?}: layered / {name} length mean {mean:.6}, worst {worst:.6} over {count} paths");
        }
    }
    for mode in [PathMode::Fast, PathMode::Optimal] {
        let name = if mode == PathMode::Fast { "layers_fast" } else { "layers_optimal" };
        let mut group = c.benchmark_group(name);
        group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
        let options = PathOptions::default().with_mode(mode);
        let mut i = 0;
        for (name, mesh) in [("flat", &flat), ("cut", &cut)] {
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter(|| {
                    let (a, z) = pairs[i % pairs.len()];
                    i += 1;
                    black_box(mesh.find_path_with(a, z, &options, &mut scratch).ok())
                })
            });
        }
        group.bench_function(BenchmarkId::from_parameter("layered"), |b| {
            b.iter(|| {
                let (a, z) = pairs[i % pairs.len()];
                i += 1;
                black_box(layered.find_path_on((layer(a), a), (layer(z), z), &options, &mut scratch).ok())
            })
        });
        group.finish();
    }
}

criterion_group!(benches, layered_queries);
criterion_main!(benches);
