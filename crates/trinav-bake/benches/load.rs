//! Load benchmark: `NavMesh::from_bytes` on generated meshes of about 1k, 35k and 1M triangles
//! ([`scattered_obstacles`] with 1,000, 34,000 and 1,000,000 obstacle vertices, radius 0), and
//! on the file named by `TRINAV_BENCH_MESH` when it is set (re-encoded in the current format).
//!
//! Before measuring, the per-step split of each mesh's load (checksum, decode, structure checks,
//! derived data; medians of 21 [`load_timed_with`] runs) is printed, on one thread and with the
//! default options (two threads from [`LoadOptions::TWO_THREADS_FROM`] triangles). Each mesh
//! is timed both ways (`from_bytes`, `from_bytes_one_thread`).
//!
//! Run with `cargo bench -p trinav-bake --bench load`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use trinav::file::{LoadOptions, LoadTimes, load_timed_with};
use trinav::{BakeSettings, NavMesh};
use trinav_bake::bake;
use trinav_bake::generate::scattered_obstacles;

/// Seed of the generated levels (the one the README's figures use).
const SEED: u64 = 21;
/// The generated cases: (label, obstacle vertices).
const GENERATED: [(&str, usize); 3] = [("1k", 1_000), ("35k", 34_000), ("1M", 1_000_000)];

/// The meshes to load: (label, file bytes).
fn meshes() -> Vec<(String, Vec<u8>)> {
    let mut meshes = Vec::new();
    for (label, vertices) in GENERATED {
        let level = scattered_obstacles(vertices, SEED);
        let baked = bake(&level, &BakeSettings::default()).unwrap_or_else(|e| panic!("{label}: {e}"));
        meshes.push((label.to_string(), baked.mesh.to_bytes().expect("encodes")));
    }
    if let Some(path) = std::env::var_os("TRINAV_BENCH_MESH") {
        let mesh = NavMesh::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.to_string_lossy()));
        let name = std::path::Path::new(&path).file_stem().unwrap().to_string_lossy().into_owned();
        meshes.push((name, mesh.to_bytes().expect("encodes")));
    }
    meshes
}

/// Loads on the caller's thread only (the split of each step; see [`LoadOptions`]).
fn one_thread() -> LoadOptions {
    LoadOptions::default().with_threads(1)
}

/// The median of each step over `runs` loads with `options`.
fn median_split(bytes: &[u8], runs: usize, options: LoadOptions) -> LoadTimes {
    let mut all: Vec<LoadTimes> = (0..runs)
        .map(|_| {
            let (mesh, times) = load_timed_with(bytes, options);
            black_box(mesh.expect("loads"));
            times
        })
        .collect();
    let mut median = |step: fn(&LoadTimes) -> Duration| {
        all.sort_by_key(step);
        step(&all[runs / 2])
    };
    LoadTimes {
        checksum: median(|t| t.checksum),
        decode: median(|t| t.decode),
        checks: median(|t| t.checks),
        derived: median(|t| t.derived),
    }
}

fn load(c: &mut Criterion) {
    let meshes = meshes();
    println!(
        "load split (medians of 21 loads; microseconds; on two threads the derived data is built beside the checks):"
    );
    for (label, bytes) in &meshes {
        let mesh = NavMesh::from_bytes(bytes).expect("loads");
        for (threads, options) in [("one thread", one_thread()), ("default", LoadOptions::default())] {
            let t = median_split(bytes, 21, options);
            let us = |d: Duration| d.as_secs_f64() * 1e6;
            println!(
                "  {label:>8} ({threads:>10}): {} triangles, {} bytes: checksum {:.0}, decode {:.0}, checks {:.0}, derived {:.0}, sum {:.0}",
                mesh.triangle_count(),
                bytes.len(),
                us(t.checksum),
                us(t.decode),
                us(t.checks),
                us(t.derived),
                us(t.checksum + t.decode + t.checks + t.derived)
            );
        }
    }
    let mut group = c.benchmark_group("load");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for (label, bytes) in &meshes {
        group.bench_with_input(BenchmarkId::new("from_bytes", label), bytes, |b, bytes| {
            b.iter(|| NavMesh::from_bytes(black_box(bytes)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("from_bytes_one_thread", label), bytes, |b, bytes| {
            b.iter(|| NavMesh::from_bytes_with(black_box(bytes), one_thread()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
