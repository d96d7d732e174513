//! Bake and point-location benchmarks.
//!
//! - `bake_sample`: every level in `data/levels`, with its own agent radius, both
//!   triangulations.
//! - `bake_generated`: [`scattered_obstacles`] levels with 1,000 and 10,000 obstacle vertices
//!   (radius 0), and 10,000 with radius 0.5, both triangulations.
//! - `locate`: 1,000 random points on the 10,000-vertex mesh, located with the grid index
//!   ([`NavMesh::locate`]) and with a linear scan over all triangles.
//!
//! Before measuring, the generated levels' triangle counts and stage times of one bake are
//! printed.
//!
//! Run with `cargo bench -p trinav-bake --bench bake`.

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use trinav::geometry::{Orientation, orient};
use trinav::{BakeSettings, NavMesh, Point, TriangleId, Triangulation};
use trinav_bake::generate::{SplitMix64, scattered_obstacles};
use trinav_bake::{bake, settings_for};

const TRIANGULATIONS: [Triangulation; 2] = [Triangulation::EarClipping, Triangulation::ConstrainedDelaunay];
/// Seed of the generated levels (any seed bakes; 21 is the one the README's figures use).
const SEED: u64 = 21;
const LOCATE_POINTS: usize = 1_000;

fn bake_sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("bake_sample");
    for (name, level) in common::sample_levels() {
        for triangulation in TRIANGULATIONS {
            let settings =
                settings_for(&level, BakeSettings::default(), None).with_triangulation(triangulation);
            bake(&level, &settings).unwrap_or_else(|e| panic!("{name}: {e}"));
            group.bench_with_input(BenchmarkId::new(triangulation.name(), &name), &level, |b, level| {
                b.iter(|| bake(black_box(level), &settings).unwrap())
            });
        }
    }
    group.finish();
}

/// The generated cases: (label, obstacle vertices, agent radius).
const GENERATED: [(&str, usize, f64); 3] =
    [("1k_r0", 1_000, 0.0), ("10k_r0", 10_000, 0.0), ("10k_r0.5", 10_000, 0.5)];

fn generated_settings(radius: f64, triangulation: Triangulation) -> BakeSettings {
    BakeSettings::default().with_agent_radius(radius).with_triangulation(triangulation)
}

/// Prints triangle counts and the stage times of one bake of every generated case.
fn report_generated() {
    println!("generated levels (seed {SEED}):");
    for (label, vertices, radius) in GENERATED {
        let level = scattered_obstacles(vertices, SEED);
        for triangulation in TRIANGULATIONS {
            let baked = bake(&level, &generated_settings(radius, triangulation))
                .unwrap_or_else(|e| panic!("{label} {}: {e}", triangulation.name()));
            let stats = baked.mesh.stats();
            let t = &baked.report.times;
            println!(
                "  {label:>9} {:<20} obstacles {:>5}  region polygons {:>3}  fallbacks {:>3}  \
                 vertices {:>6}  triangles {:>6}  islands {:>3}  min angle {:>7.4}°  \
                 grid {} cells / {} entries",
                triangulation.name(),
                level.obstacles.len(),
                baked.report.region_polygons,
                baked.report.fallbacks.len(),
                stats.vertices,
                stats.triangles,
                stats.islands,
                stats.min_angle_deg,
                stats.grid_cells,
                stats.grid_entries,
            );
            println!(
                "  {:>9} stages: validate {:?}, merge {:?}, triangulate {:?}, weld {:?}, \
                 derive {:?}, verify {:?}, total {:?}",
                "",
                t.validate,
                t.merge,
                t.triangulate,
                t.weld,
                t.derive,
                t.verify,
                t.total()
            );
        }
    }
}

fn bake_generated(c: &mut Criterion) {
    report_generated();
    let mut group = c.benchmark_group("bake_generated");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    for (label, vertices, radius) in GENERATED {
        // 10 samples of a 150 ms bake need about 8.5 s (criterion's linear sampling).
        group.measurement_time(Duration::from_secs(if vertices > 1_000 { 10 } else { 5 }));
        let level = scattered_obstacles(vertices, SEED);
        for triangulation in TRIANGULATIONS {
            let settings = generated_settings(radius, triangulation);
            group.bench_with_input(BenchmarkId::new(triangulation.name(), label), &level, |b, level| {
                b.iter(|| bake(black_box(level), &settings).unwrap())
            });
        }
    }
    group.finish();
}

/// `LOCATE_POINTS` points uniform in the mesh's bounding box (splitmix64, fixed seed).
fn random_points(mesh: &NavMesh) -> Vec<Point> {
    let mut rng = SplitMix64::new(0x5EED);
    let bounds = mesh.bounds();
    let (w, h) = bounds.size();
    (0..LOCATE_POINTS).map(|_| rng.point_in(bounds.min, (w, h))).collect()
}

/// The lowest-id triangle containing `p` (boundary included), by testing every triangle: the
/// same answer as [`NavMesh::locate`], without the grid.
fn locate_brute_force(mesh: &NavMesh, p: Point) -> Option<TriangleId> {
    (0..mesh.triangle_count()).map(TriangleId::from_index).find(|&t| {
        let [a, b, c] = mesh.triangle_points(t);
        orient(a, b, p) != Orientation::Clockwise
            && orient(b, c, p) != Orientation::Clockwise
            && orient(c, a, p) != Orientation::Clockwise
    })
}

fn locate(c: &mut Criterion) {
    let mut group = c.benchmark_group("locate");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    let level = scattered_obstacles(10_000, SEED);
    for triangulation in TRIANGULATIONS {
        let mesh = bake(&level, &generated_settings(0.0, triangulation)).expect("10k level bakes").mesh;
        let points = random_points(&mesh);
        let grid: Vec<_> = points.iter().map(|&p| mesh.locate(p)).collect();
        let brute: Vec<_> = points.iter().map(|&p| locate_brute_force(&mesh, p)).collect();
        assert_eq!(grid, brute, "grid and brute force disagree");
        println!(
            "locate on 10k_r0 {}: {} triangles, {} of {LOCATE_POINTS} points on the mesh",
            triangulation.name(),
            mesh.triangle_count(),
            grid.iter().flatten().count()
        );
        let id = |method: &str| BenchmarkId::new(method, triangulation.name());
        group.bench_function(id("grid"), |b| {
            b.iter(|| points.iter().filter_map(|&p| mesh.locate(black_box(p))).count())
        });
        group.bench_function(id("brute_force"), |b| {
            b.iter(|| points.iter().filter_map(|&p| locate_brute_force(&mesh, black_box(p))).count())
        });
    }
    group.finish();
}

criterion_group!(benches, bake_sample, bake_generated, locate);
criterion_main!(benches);
