//! One `NavMesh` shared by 8 threads answers exactly as it does on one thread.
//!
//! For the generated 1k fixture and `courtyard` (two islands): 10,000 deterministic queries (a
//! mix of paths in both modes, plain, snapped, partial and with a node budget, `locate`,
//! `nearest_point` and `raycast` on seeded random points) are answered once sequentially; then 8 threads share the mesh through an `Arc`, each with
//! its own `PathScratch`, each running all 10,000 queries in its own order, and every answer
//! must equal the sequential one exactly (`PartialEq`, so bit-identical floats).

mod common;

use std::sync::{Arc, Barrier};

use common::{fixture, random_point, rng};
use rand::RngExt;
use trinav::{
    NavMesh, Path, PathError, PathMode, PathOptions, PathScratch, Point, QueryError, RayHit, TriangleId,
};

const QUERIES: usize = 10_000;
const THREADS: usize = 8;

// Path options are large (a cost per area type); queries are copied, not boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
enum Query {
    Path(Point, Point, PathOptions),
    Locate(Point),
    Nearest(Point),
    Raycast(Point, Point),
}

#[derive(Clone, Debug, PartialEq)]
enum Answer {
    Path(Result<Path, PathError>),
    Locate(Option<TriangleId>),
    Nearest(Option<(Point, TriangleId)>),
    Raycast(Result<RayHit, QueryError>),
}

/// `count` queries on points of the mesh's bounds grown by 10% on each side (some off the
/// mesh); one point in eight is snapped to a mesh vertex, so that vertices and edges (the
/// ties of `locate` and the raycast's vertex walk) are exercised too.
fn queries(mesh: &NavMesh, count: usize, seed: u64) -> Vec<Query> {
    let mut rng = rng(seed);
    let vertices = mesh.vertices();
    let point = |rng: &mut rand_pcg::Pcg64| {
        if rng.random_range(0..8) == 0 {
            vertices[rng.random_range(0..vertices.len())]
        } else {
            random_point(rng, mesh, 0.1)
        }
    };
    (0..count)
        .map(|_| {
            let mode = if rng.random_range(0..2) == 0 { PathMode::Fast } else { PathMode::Optimal };
            let options = PathOptions::default().with_mode(mode);
            match rng.random_range(0..12) {
                0 | 1 => Query::Path(point(&mut rng), point(&mut rng), options),
                2 => Query::Path(point(&mut rng), point(&mut rng), options.with_snap(true)),
                3 => Query::Path(point(&mut rng), point(&mut rng), options.with_partial(true)),
                4 => Query::Path(
                    point(&mut rng),
                    point(&mut rng),
                    options.with_partial(true).with_node_budget(30),
                ),
                5 | 6 => Query::Locate(point(&mut rng)),
                7 | 8 => Query::Nearest(point(&mut rng)),
                _ => Query::Raycast(point(&mut rng), point(&mut rng)),
            }
        })
        .collect()
}

fn answer(mesh: &NavMesh, query: Query, scratch: &mut PathScratch) -> Answer {
    match query {
        Query::Path(a, b, options) => Answer::Path(mesh.find_path_with(a, b, &options, scratch)),
        Query::Locate(p) => Answer::Locate(mesh.locate(p)),
        Query::Nearest(p) => Answer::Nearest(mesh.nearest_point(p)),
        Query::Raycast(a, b) => Answer::Raycast(mesh.raycast(a, b)),
    }
}

/// The order thread `k` runs the queries in: a different start and stride per thread (strides
/// odd and not multiples of 5, so coprime with 10,000: every query exactly once), odd threads
/// backwards.
fn order(k: usize, n: usize) -> impl Iterator<Item = usize> {
    const STRIDES: [usize; THREADS] = [1, 3, 7, 9, 11, 13, 17, 19];
    let (start, stride) = (k * 1_237 % n, STRIDES[k]);
    (0..n).map(move |i| {
        let j = (start + i * stride) % n;
        if k % 2 == 1 { n - 1 - j } else { j }
    })
}

fn check_shared(name: &str, mesh: NavMesh, seed: u64) {
    let queries = Arc::new(queries(&mesh, QUERIES, seed));
    let mut scratch = PathScratch::new();
    let expected: Arc<Vec<Answer>> =
        Arc::new(queries.iter().map(|&q| answer(&mesh, q, &mut scratch)).collect());

    // The answers are not trivial: some paths are found, some points are off the mesh, some
    // rays are blocked.
    let found = expected.iter().filter(|a| matches!(a, Answer::Path(Ok(path)) if !path.is_partial())).count();
    let partial =
        expected.iter().filter(|a| matches!(a, Answer::Path(Ok(path)) if path.is_partial())).count();
    assert!(partial > 100, "{name}: {partial} partial paths");
    let off = expected.iter().filter(|a| matches!(a, Answer::Locate(None))).count();
    let blocked =
        expected.iter().filter(|a| matches!(a, Answer::Raycast(Ok(RayHit::Blocked { .. })))).count();
    eprintln!("{name}: {found} paths found, {off} points off, {blocked} rays blocked");
    assert!(found > 100 && off > 50 && blocked > 100, "{name}: {found} paths, {off} off, {blocked} blocked");

    let mesh = Arc::new(mesh);
    let barrier = Arc::new(Barrier::new(THREADS));
    let handles: Vec<_> = (0..THREADS)
        .map(|k| {
            let (mesh, queries, expected, barrier) =
                (Arc::clone(&mesh), Arc::clone(&queries), Arc::clone(&expected), Arc::clone(&barrier));
            std::thread::spawn(move || {
                let mut scratch = PathScratch::new();
                let mut visited = vec![false; queries.len()];
                let mut mismatches = Vec::new();
                barrier.wait();
                for i in order(k, queries.len()) {
                    visited[i] = true;
                    let got = answer(&mesh, queries[i], &mut scratch);
                    if got != expected[i] && mismatches.len() < 5 {
                        mismatches.push(format!(
                            "thread {k}, query {i} {:?}: got {got:?}, expected {:?}",
                            queries[i], expected[i]
                        ));
                    }
                }
                assert!(visited.iter().all(|&v| v), "thread {k} ran every query");
                mismatches
            })
        })
        .collect();
    let mismatches: Vec<String> =
        handles.into_iter().flat_map(|h| h.join().expect("no thread panics")).collect();
    assert!(mismatches.is_empty(), "{name}: {mismatches:#?}");
}

#[test]
fn generated_level_answers_the_same_on_8_threads() {
    check_shared("generated_1k_cdt", fixture("generated_1k_cdt"), 0x5EED_0001);
}

#[test]
fn courtyard_answers_the_same_on_8_threads() {
    check_shared("courtyard_cdt", fixture("courtyard_cdt"), 0x5EED_0002);
}
