//! Queries allocate nothing once warmed up: `find_path_into` with a reused scratch and path
//! (fast and optimal mode, plain, partial, with a node budget, area costs, exclusions and an
//! agent radius with snapping), `locate`, `nearest_point`,
//! `nearest_point_on_island` and `raycast`, on fixture meshes.
//!
//! A counting global allocator wraps the system one and counts the allocations (alloc,
//! alloc_zeroed, realloc) made on a thread while that thread's counting flag is on. The flag is
//! thread-local, so the test harness's other threads (and other tests) never disturb the count;
//! the whole check is one `#[test]`.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{fixture, random_point, random_point_on_mesh, rng};
use trinav::{AreaCosts, AreaId, LayerId, NavMesh, Path, PathMode, PathOptions, PathScratch, Point};

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

/// Queries on one mesh: pairs of points on the mesh (connected or not), pairs whose goal may be
/// off the mesh (for partial paths), and points in the bounds grown by 10% of its size on each
/// side (on and off the mesh).
struct Queries {
    pairs: Vec<(Point, Point)>,
    wild_pairs: Vec<(Point, Point)>,
    points: Vec<Point>,
    /// On a layered mesh, a layer of each end of `pairs` and `wild_pairs` (the first layer
    /// holding it; layer 0 off the mesh).
    pair_layers: Vec<(LayerId, LayerId)>,
    wild_layers: Vec<(LayerId, LayerId)>,
}

fn queries(mesh: &NavMesh, count: usize) -> Queries {
    let mut rng = rng(0x0A11_0C00);
    let pairs = (0..count)
        .map(|_| (random_point_on_mesh(&mut rng, mesh), random_point_on_mesh(&mut rng, mesh)))
        .collect();
    let wild_pairs = (0..count)
        .map(|_| (random_point_on_mesh(&mut rng, mesh), random_point(&mut rng, mesh, 0.1)))
        .collect();
    let points = (0..count).map(|_| random_point(&mut rng, mesh, 0.1)).collect();
    let layer = |p: Point| mesh.layers_at(p).first().copied().unwrap_or_default();
    let layers = |pairs: &Vec<(Point, Point)>| pairs.iter().map(|&(a, b)| (layer(a), layer(b))).collect();
    let (pair_layers, wild_layers) = (layers(&pairs), layers(&wild_pairs));
    Queries { pairs, wild_pairs, points, pair_layers, wild_layers }
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
    /// Partial paths towards goals anywhere (other islands, off the mesh).
    Partial(PathMode),
    /// Partial paths with a budget of 20 nodes.
    Budget(PathMode),
    /// Paths with a type excluded (none of these meshes' triangles has it, but the searches
    /// take their filtered route).
    Excluding(PathMode),
    /// Partial paths with that type excluded (the flood over the allowed triangles reached).
    PartialExcluding(PathMode),
    /// Paths with the ground (type 0) at cost 2, on the first 30 pairs: the weighted search
    /// on a mesh of several area types, the plain one at twice the length on the others.
    Weighted(PathMode),
    /// Paths for a disc of radius 0.25 (clearance searches, the disc funnel and its
    /// verification, the disc's optimal search), on the first 100 pairs.
    Radius(PathMode),
    /// Paths for a disc of radius 0.25 with the ground (type 0) at cost 2, on the first 20
    /// pairs: the disc's Steiner-point search on a mesh of several area types.
    RadiusWeighted(PathMode),
    Locate,
    NearestPoint,
    NearestPointOnIsland,
    Raycast,
}

const KINDS: [Kind; 20] = [
    Kind::RadiusWeighted(PathMode::Fast),
    Kind::RadiusWeighted(PathMode::Optimal),
    Kind::PartialExcluding(PathMode::Fast),
    Kind::PartialExcluding(PathMode::Optimal),
    Kind::Radius(PathMode::Fast),
    Kind::Radius(PathMode::Optimal),
    Kind::Excluding(PathMode::Fast),
    Kind::Excluding(PathMode::Optimal),
    Kind::Weighted(PathMode::Fast),
    Kind::Weighted(PathMode::Optimal),
    Kind::FindPathInto(PathMode::Fast),
    Kind::FindPathInto(PathMode::Optimal),
    Kind::Partial(PathMode::Fast),
    Kind::Partial(PathMode::Optimal),
    Kind::Budget(PathMode::Fast),
    Kind::Budget(PathMode::Optimal),
    Kind::Locate,
    Kind::NearestPoint,
    Kind::NearestPointOnIsland,
    Kind::Raycast,
];

/// Runs every query of `kind` once; returns a checksum so nothing is optimised away, and
/// counts successful paths.
fn pass(mesh: &NavMesh, q: &Queries, state: &mut State, kind: Kind) -> (f64, usize) {
    let (mut sum, mut ok) = (0.0, 0);
    let mut paths = |options: PathOptions, pairs: &[(Point, Point)]| {
        // On a layered mesh, each end on the layer chosen for it.
        let layers =
            if std::ptr::eq(pairs.as_ptr(), q.wild_pairs.as_ptr()) { &q.wild_layers } else { &q.pair_layers };
        for (&(from, to), &(from_layer, to_layer)) in pairs.iter().zip(layers) {
            let (scratch, path) = (&mut state.scratch, &mut state.path);
            let found = if mesh.is_layered() {
                mesh.find_path_on_into((from_layer, from), (to_layer, to), &options, scratch, path)
            } else {
                mesh.find_path_into(from, to, &options, scratch, path)
            };
            if found.is_ok() {
                ok += 1;
                sum += state.path.length;
            }
        }
    };
    match kind {
        Kind::FindPathInto(mode) => paths(PathOptions::default().with_mode(mode), &q.pairs),
        Kind::Partial(mode) => {
            paths(PathOptions::default().with_mode(mode).with_partial(true), &q.wild_pairs)
        }
        Kind::Budget(mode) => paths(
            PathOptions::default().with_mode(mode).with_partial(true).with_node_budget(20),
            &q.wild_pairs,
        ),
        Kind::Excluding(mode) => {
            let costs = AreaCosts::default().with_excluded(AreaId(7));
            paths(PathOptions::default().with_mode(mode).with_area_costs(costs), &q.pairs)
        }
        Kind::PartialExcluding(mode) => {
            let costs = AreaCosts::default().with_excluded(AreaId(7));
            let options = PathOptions::default().with_mode(mode).with_partial(true).with_area_costs(costs);
            paths(options, &q.wild_pairs)
        }
        Kind::Weighted(mode) => {
            let costs = AreaCosts::default().with_cost(AreaId(0), 2.0).expect("a valid cost");
            paths(PathOptions::default().with_mode(mode).with_area_costs(costs), &q.pairs[..30])
        }
        Kind::Radius(mode) => {
            let options = PathOptions::default().with_mode(mode).with_radius(0.25).with_snap(true);
            paths(options, &q.pairs[..100])
        }
        Kind::RadiusWeighted(mode) => {
            let costs = AreaCosts::default().with_cost(AreaId(0), 2.0).expect("a valid cost");
            let options = PathOptions::default().with_mode(mode).with_radius(0.25).with_area_costs(costs);
            paths(options.with_snap(true), &q.pairs[..20])
        }
        Kind::NearestPointOnIsland => {
            for (k, &p) in q.points.iter().enumerate() {
                let island = trinav::IslandId(k as u32 % mesh.island_count());
                sum += mesh.nearest_point_on_island(p, island).map_or(0.0, |(p, _)| p.x + p.y);
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
    let mut meshes =
        ["town_cdt", "courtyard_ear", "generated_1k_cdt"].map(|name| (name, fixture(name))).to_vec();
    // Off-mesh links take their own ways through both searches: town with 40 of them, some
    // both ways, some free.
    let mut linked = fixture("town_cdt");
    let mut link_rng = rng(0x11AC);
    for k in 0..40 {
        let (from, to) =
            (random_point_on_mesh(&mut link_rng, &linked), random_point_on_mesh(&mut link_rng, &linked));
        let link = trinav::OffMeshLink::new(from, to).with_bidirectional(k % 3 == 0);
        linked.add_link(if k % 4 == 0 { link.with_cost(0.0) } else { link }).unwrap();
    }
    meshes.push(("town_cdt with links", linked));
    // Two layers joined by portals (a bridge over a road), with a ladder and a one-way link.
    meshes.push(("overpass_cdt", fixture("overpass_cdt")));
    // Roads, mud and water: area types the weighted searches cost differently.
    meshes.push(("terrain_cdt", fixture("terrain_cdt")));
    let mut state = State { scratch: PathScratch::new(), path: Path::default() };
    let mut failures = Vec::new();
    for (name, mesh) in &meshes {
        let q = queries(mesh, 1_000);
        // Warm-up: all queries once (the scratch grows to this mesh, the path to its longest).
        for kind in KINDS {
            // The disc's optimal search keeps, in the mesh, the corners a corner sees once it
            // has been expanded four times (derived data, like the traversal widths): four
            // warm-up passes build every list these queries use.
            if let Kind::Radius(PathMode::Optimal) = kind {
                for _ in 0..3 {
                    pass(mesh, &q, &mut state, kind);
                }
            }
            let (_, ok) = pass(mesh, &q, &mut state, kind);
            if let Kind::Partial(_) | Kind::Budget(_) | Kind::PartialExcluding(_) = kind {
                assert_eq!(ok, q.wild_pairs.len(), "{name}: every partial path query gives a path");
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
