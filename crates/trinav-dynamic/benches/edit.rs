//! Editing a large mesh: one building-sized obstacle added, moved and removed.
//!
//! The mesh: a [`scattered_obstacles`] level baked with agent radius 0.5, about 100,000
//! triangles (`TRINAV_EDIT_VERTICES` obstacle vertices, 30,000 unless set). The obstacles: a
//! 4-corner box (4 × 3 units) and a 64-corner round tower (radius 2.5), at random places, so
//! that some land on baked obstacles and some in the open.
//!
//! - `add`: the obstacle is added (timed), then removed (not timed);
//! - `remove`: added (not timed), then removed (timed);
//! - `move`: one obstacle moved by a random offset of up to ±3 units a side (timed).
//!
//! Criterion reports the mean time of its samples; besides, every single timed change is kept
//! and, at the end of each benchmark, its median, p99 and max are printed (warm-up included).
//! Before measuring: the mesh's size, one full bake's time, and the memory of the editable mesh
//! against the plain mesh (live heap bytes, counted by the allocator).
//!
//! Run with `cargo bench -p trinav-dynamic --bench edit`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use trinav::{BakeSettings, NavMesh};
use trinav_bake::generate::{SplitMix64, scattered_obstacles};
use trinav_bake::{PolygonInput, bake};
use trinav_dynamic::EditableMesh;

/// Counts live heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, only counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const SEED: u64 = 21;

/// An obstacle placed at a point.
type Shape = fn(f64, f64) -> PolygonInput;

fn vertices() -> usize {
    std::env::var("TRINAV_EDIT_VERTICES").ok().and_then(|v| v.parse().ok()).unwrap_or(30_000)
}

/// A box of 4 × 3 units with its lower left corner at (`x`, `y`).
fn building(x: f64, y: f64) -> PolygonInput {
    PolygonInput::rect(x, y, x + 4.0, y + 3.0)
}

/// A 64-corner round tower of radius 2.5 centred at (`x`, `y`).
fn tower(x: f64, y: f64) -> PolygonInput {
    let corners = (0..64).map(|i| {
        let a = f64::from(i) * std::f64::consts::TAU / 64.0;
        [x + 2.5 * a.cos(), y + 2.5 * a.sin()]
    });
    PolygonInput::new(corners.collect())
}

fn quantiles(name: &str, mut times: Vec<Duration>) {
    if times.is_empty() {
        return;
    }
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
    println!(
        "{name}: {} changes, median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
}

fn edit(c: &mut Criterion) {
    let level = scattered_obstacles(vertices(), SEED);
    let settings = BakeSettings::default().with_agent_radius(0.5);
    let start = Instant::now();
    let mesh = bake(&level, &settings).expect("the generated level bakes").mesh;
    let bake_ms = start.elapsed().as_secs_f64() * 1e3;
    let side = mesh.bounds().max.x;
    let bytes = mesh.to_bytes().expect("encodes");
    drop(mesh);

    // Memory: the plain mesh as loaded, then the editable mesh over it after a change (when it
    // keeps its spare mesh) and after 100 obstacles.
    let before = LIVE.load(Ordering::Relaxed);
    let mesh = NavMesh::from_bytes(&bytes).expect("loads");
    let plain = LIVE.load(Ordering::Relaxed) - before;
    println!(
        "mesh: {} triangles, {} vertices, side {side}; full bake {bake_ms:.0} ms; plain mesh {:.1} MB",
        mesh.triangle_count(),
        mesh.vertices().len(),
        plain as f64 / 1e6
    );
    let mut world = EditableMesh::new(mesh);
    let mut rng = SplitMix64::new(7);
    let mut place = move || {
        let margin = 4.0;
        (margin + rng.unit() * (side - 2.0 * margin), margin + rng.unit() * (side - 2.0 * margin))
    };
    let (x, y) = place();
    let id = world.add_obstacle(&building(x, y)).expect("adds");
    world.remove_obstacle(id).expect("removes");
    let editable = LIVE.load(Ordering::Relaxed) - before;
    let ids: Vec<_> = (0..100)
        .map(|_| {
            let (x, y) = place();
            world.add_obstacle(&tower(x, y)).expect("adds")
        })
        .collect();
    let with_100 = LIVE.load(Ordering::Relaxed) - before;
    for id in ids {
        world.remove_obstacle(id).expect("removes");
    }
    println!(
        "memory: editable {:.1} MB = {:.2}x the plain mesh; with 100 towers {:.1} MB = {:.2}x",
        editable as f64 / 1e6,
        editable as f64 / plain as f64,
        with_100 as f64 / 1e6,
        with_100 as f64 / plain as f64
    );

    let mut group = c.benchmark_group("edit_100k");
    group.sample_size(50).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    let shapes: [(&str, Shape); 2] = [("box4", building), ("tower64", tower)];
    for (shape_name, shape) in shapes {
        let mut times = Vec::new();
        group.bench_function(format!("add/{shape_name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (x, y) = place();
                    let polygon = shape(x, y);
                    let start = Instant::now();
                    let id = world.add_obstacle(&polygon).expect("adds");
                    let took = start.elapsed();
                    total += took;
                    times.push(took);
                    world.remove_obstacle(id).expect("removes");
                }
                total
            })
        });
        quantiles(&format!("add/{shape_name}"), std::mem::take(&mut times));

        group.bench_function(format!("remove/{shape_name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (x, y) = place();
                    let id = world.add_obstacle(&shape(x, y)).expect("adds");
                    let start = Instant::now();
                    world.remove_obstacle(id).expect("removes");
                    let took = start.elapsed();
                    total += took;
                    times.push(took);
                }
                total
            })
        });
        quantiles(&format!("remove/{shape_name}"), std::mem::take(&mut times));

        let (x, y) = place();
        let id = world.add_obstacle(&shape(x, y)).expect("adds");
        let mut offsets = SplitMix64::new(11);
        let mut at = (x, y);
        group.bench_function(format!("move/{shape_name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut d = [offsets.unit() * 6.0 - 3.0, offsets.unit() * 6.0 - 3.0];
                    // Keep it inside the room.
                    if !(4.0..side - 8.0).contains(&(at.0 + d[0])) {
                        d[0] = -d[0];
                    }
                    if !(4.0..side - 8.0).contains(&(at.1 + d[1])) {
                        d[1] = -d[1];
                    }
                    let start = Instant::now();
                    world.move_obstacle(id, d).expect("moves");
                    let took = start.elapsed();
                    total += took;
                    times.push(took);
                    at = (at.0 + d[0], at.1 + d[1]);
                }
                total
            })
        });
        quantiles(&format!("move/{shape_name}"), std::mem::take(&mut times));
        world.remove_obstacle(id).expect("removes");
    }
    group.finish();
    println!("changes that had to copy the whole mesh: {}", world.copies());
}

criterion_group!(benches, edit);
criterion_main!(benches);
