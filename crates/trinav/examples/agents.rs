//! Many agents walking a shared mesh on several threads, as a game server runs them.
//!
//! `cargo run --release -p trinav --example agents [MESH.nav]` (default: a built-in mesh of a
//! generated 10,000-obstacle-vertex level). The mesh is loaded once from bytes and shared
//! through an `Arc`; each worker thread owns a `PathScratch` and a `Path` buffer and moves its
//! share of the agents every frame. An agent without a path asks for one to a random goal,
//! which may be off the mesh or on another island: with partial paths on it walks as close as
//! it can, and a node budget bounds what any one query may cost. Prints what each thread did.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use trinav::{NavMesh, Path, PathOptions, PathScratch, Point};

const AGENTS: usize = 400;
const THREADS: usize = 4;
const FRAMES: usize = 300;
/// World units per frame.
const SPEED: f64 = 0.8;
/// The most triangles a query may expand (a few tens of microseconds on this machine's meshes;
/// see the README's time per node).
const NODE_BUDGET: u32 = 5_000;

/// One agent: where it is and the rest of its path (points still ahead, in reverse order).
struct Agent {
    at: Point,
    ahead: Vec<Point>,
    rng: rand_pcg::Pcg64,
}

/// What one worker did.
#[derive(Default)]
struct Report {
    queries: usize,
    partial: usize,
    failed: usize,
    slowest: Duration,
    total: Duration,
    walked: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bytes = match std::env::args_os().nth(1) {
        Some(file) => std::fs::read(file)?,
        None => include_bytes!("../tests/fixtures/generated_10k_cdt.nav").to_vec(),
    };
    let mesh = Arc::new(NavMesh::from_bytes(&bytes)?);
    let stats = mesh.stats();
    println!(
        "mesh: {} triangles, {} islands; {AGENTS} agents on {THREADS} threads, {FRAMES} frames",
        stats.triangles, stats.islands
    );

    let started = Instant::now();
    let workers: Vec<_> = (0..THREADS)
        .map(|worker| {
            let mesh = Arc::clone(&mesh);
            std::thread::spawn(move || run_worker(&mesh, worker))
        })
        .collect();
    for (worker, handle) in workers.into_iter().enumerate() {
        let r = handle.join().expect("a worker panicked")?;
        println!(
            "thread {worker}: {} path queries ({} partial, {} without a path), {:.1} us on average, slowest {:.1} us; agents walked {:.0} units",
            r.queries,
            r.partial,
            r.failed,
            r.total.as_secs_f64() * 1e6 / r.queries.max(1) as f64,
            r.slowest.as_secs_f64() * 1e6,
            r.walked,
        );
    }
    println!("all frames in {:.1} ms", started.elapsed().as_secs_f64() * 1e3);
    Ok(())
}

/// Moves this worker's agents for every frame.
fn run_worker(mesh: &NavMesh, worker: usize) -> Result<Report, trinav::PathError> {
    let mut scratch = PathScratch::new();
    let mut path = Path::default();
    let options = PathOptions::default().with_partial(true).with_node_budget(NODE_BUDGET);
    let mut agents: Vec<Agent> = (worker..AGENTS)
        .step_by(THREADS)
        .map(|k| {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(k as u64);
            let at = loop {
                let p = random_point(&mut rng, mesh);
                if mesh.locate(p).is_some() {
                    break p;
                }
            };
            Agent { at, ahead: Vec::new(), rng }
        })
        .collect();
    let mut report = Report::default();
    for _frame in 0..FRAMES {
        for agent in &mut agents {
            if agent.ahead.is_empty() {
                let goal = random_point(&mut agent.rng, mesh);
                let started = Instant::now();
                let result = mesh.find_path_into(agent.at, goal, &options, &mut scratch, &mut path);
                let took = started.elapsed();
                report.queries += 1;
                report.total += took;
                report.slowest = report.slowest.max(took);
                match result {
                    Ok(()) => {
                        report.partial += usize::from(path.is_partial());
                        agent.ahead.extend(path.points.iter().rev().copied());
                        agent.ahead.pop(); // its own position
                    }
                    // A start off the mesh (an agent pushed there by something else than its
                    // path; `with_snap(true)` would move it back) waits for the next frame.
                    Err(_) => report.failed += 1,
                }
            }
            report.walked += step(agent, SPEED);
        }
    }
    Ok(report)
}

/// Moves the agent up to `distance` along its path; returns how far it went.
fn step(agent: &mut Agent, distance: f64) -> f64 {
    let mut left = distance;
    while let Some(&next) = agent.ahead.last() {
        let d = agent.at.distance(next);
        if d > left {
            let s = left / d;
            agent.at =
                Point::new(agent.at.x + (next.x - agent.at.x) * s, agent.at.y + (next.y - agent.at.y) * s);
            return distance;
        }
        agent.at = next;
        left -= d;
        agent.ahead.pop();
    }
    distance - left
}

/// A point in the mesh's bounds (on the mesh or not).
fn random_point(rng: &mut rand_pcg::Pcg64, mesh: &NavMesh) -> Point {
    let b = mesh.bounds();
    Point::new(rng.random_range(b.min.x..=b.max.x), rng.random_range(b.min.y..=b.max.y))
}
