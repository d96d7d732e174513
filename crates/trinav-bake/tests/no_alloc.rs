//! Queries allocate nothing once warmed up: `find_path_into` with a reused scratch and path
//! (fast and optimal mode), `locate`, `nearest_point` and `raycast`.
//!
//! A counting global allocator wraps the system one and counts the allocations (alloc,
//! alloc_zeroed, realloc) made on a thread while that thread's counting flag is on. The flag is
//! thread-local, so the test harness's other threads (and other tests) never disturb the count;
//! the whole check is one `#[test]`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use trinav::{BakeSettings, NavMesh, Path, PathMode, PathOptions, PathScratch, Point};
use trinav_bake::generate::{SplitMix64, scattered_obstacles};
use trinav_bake::{Level, bake, settings_for};

struct CountingAllocator;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether allocations on this thread are counted. A const-initialised `Cell` needs no
    /// allocation and no destructor, so the allocator may read it at any time.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note_allocation() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to `System`; counting has no effect on memory.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: as for `alloc`; `ptr` came from this allocator, i.e. from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, i.e. from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// The number of allocations `f` makes on this thread.
fn allocations_in<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let result = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCATIONS.load(Ordering::Relaxed) - before, result)
}

/// Queries on one mesh: connected path pairs (both points on the mesh, same island), plus
/// points in the bounds grown by 10% of its size on each side (on and off the mesh).
struct Queries {
    pairs: Vec<(Point, Point)>,
    points: Vec<Point>,
}

fn queries(mesh: &NavMesh, count: usize) -> Queries {
    let mut rng = SplitMix64::new(0x0A11_0C00_u64);
    let bounds = mesh.bounds();
    let size = bounds.size();
    let mut pairs = Vec::with_capacity(count);
    for _ in 0..count * 1_000 {
        if pairs.len() == count {
            break;
        }
        let (a, b) = (rng.point_in(bounds.min, size), rng.point_in(bounds.min, size));
        if let (Some(s), Some(g)) = (mesh.locate(a), mesh.locate(b))
            && mesh.island(s) == mesh.island(g)
        {
            pairs.push((a, b));
        }
    }
    assert_eq!(pairs.len(), count, "too few connected pairs");
    let margin = Point::new(bounds.min.x - 0.1 * size.0, bounds.min.y - 0.1 * size.1);
    let points = (0..count).map(|_| rng.point_in(margin, (1.2 * size.0, 1.2 * size.1))).collect();
    Queries { pairs, points }
}

/// Reused query state.
struct State {
    scratch: PathScratch,
    path: Path,
}

/// Which kind of query a pass runs.
#[derive(Clone, Copy, Debug)]
enum Kind {
    FindPathInto(PathMode),
    Locate,
    NearestPoint,
    Raycast,
}

const KINDS: [Kind; 5] = [
    Kind::FindPathInto(PathMode::Fast),
    Kind::FindPathInto(PathMode::Optimal),
    Kind::Locate,
    Kind::NearestPoint,
    Kind::Raycast,
];

/// Runs every query of `kind` once; returns a checksum so nothing is optimised away, and
/// counts successful paths.
fn pass(mesh: &NavMesh, q: &Queries, state: &mut State, kind: Kind) -> (f64, usize) {
    let (mut sum, mut ok) = (0.0, 0);
    match kind {
        Kind::FindPathInto(mode) => {
            let options = PathOptions::default().with_mode(mode);
            for &(from, to) in &q.pairs {
                if mesh.find_path_into(from, to, &options, &mut state.scratch, &mut state.path).is_ok() {
                    ok += 1;
                    sum += state.path.length;
                }
            }
        }
        Kind::Locate => {
            for &p in q.points.iter().chain(q.pairs.iter().map(|(a, _)| a)) {
                sum += mesh.locate(p).map_or(0.0, |t| t.0 as f64);
            }
        }
        Kind::NearestPoint => {
            for &p in &q.points {
                sum += mesh.nearest_point(p).map_or(0.0, |(p, _)| p.x + p.y);
            }
        }
        Kind::Raycast => {
            for &(from, to) in &q.pairs {
                sum += f64::from(u8::from(mesh.raycast(from, to).is_ok_and(|hit| hit.is_clear())));
            }
        }
    }
    (sum, ok)
}

#[test]
fn warmed_up_queries_allocate_nothing() {
    let town_path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/levels/town.json"));
    let town = Level::load(&town_path).expect("town.json loads");
    let generated = scattered_obstacles(1_000, 21);
    let meshes = [
        ("town", bake(&town, &settings_for(&town, BakeSettings::default(), None)).expect("town bakes").mesh),
        ("generated 1k", bake(&generated, &BakeSettings::default()).expect("generated level bakes").mesh),
    ];
    let mut state = State { scratch: PathScratch::new(), path: Path::default() };
    let mut failures = Vec::new();
    for (name, mesh) in &meshes {
        let q = queries(mesh, 1_000);
        // Warm-up: all queries once (the scratch grows to this mesh, the path to its longest).
        for kind in KINDS {
            let (_, ok) = pass(mesh, &q, &mut state, kind);
            if let Kind::FindPathInto(_) = kind {
                assert_eq!(
                    ok,
                    q.pairs.len(),
                    "{name}: every pair is connected, so every path query succeeds"
                );
            }
        }
        // Second pass, counted.
        for kind in KINDS {
            let (allocations, _) = allocations_in(|| pass(mesh, &q, &mut state, kind));
            if allocations > 0 {
                failures.push(format!("{name}: {kind:?}: {allocations} allocations in the second pass"));
            }
        }
    }
    // The counter works: an allocation on this thread is seen.
    let (allocations, v) = allocations_in(|| std::hint::black_box(vec![1u8; 16]));
    drop(v);
    assert_eq!(allocations, 1, "the counting allocator sees this thread's allocations");
    assert!(failures.is_empty(), "{failures:#?}");
}
