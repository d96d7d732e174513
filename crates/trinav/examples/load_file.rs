//! Loads a baked file 15 times and prints the fastest load, then times `locate` and
//! `nearest_point` on 100,000 and 20,000 points spread over the mesh's bounds. Uses only the
//! public interface, so the same file builds against older trees for side-by-side runs:
//!
//! ```text
//! cargo run --release -p trinav --example load_file -- MESH.nav [--resave OUT.nav]
//! ```
//!
//! `--resave OUT.nav` writes the loaded mesh in this build's format version first (to turn an
//! old file into a new one).

use std::time::Instant;

use trinav::{NavMesh, Point};

fn main() {
    let path = std::env::args().nth(1).expect("usage: load_file MESH.nav");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let args: Vec<String> = std::env::args().collect();
    if let Some(out) = args.iter().position(|a| a == "--resave").and_then(|i| args.get(i + 1)) {
        let resaved = NavMesh::from_bytes(&bytes).expect("loads").to_bytes().expect("encodes");
        std::fs::write(out, resaved).unwrap_or_else(|e| panic!("{out}: {e}"));
    }
    let mut fastest = f64::MAX;
    for _ in 0..15 {
        let start = Instant::now();
        std::hint::black_box(NavMesh::from_bytes(&bytes).expect("loads"));
        fastest = fastest.min(start.elapsed().as_secs_f64() * 1e3);
    }
    let mesh = NavMesh::from_bytes(&bytes).expect("loads");
    let bounds = mesh.bounds();
    let (w, h) = bounds.size();
    // xorshift64: the same points on every build.
    let mut state = 0x12345u64;
    let mut unit = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 1_000_000) as f64 / 1e6
    };
    let points: Vec<Point> =
        (0..100_000).map(|_| Point::new(bounds.min.x + unit() * w, bounds.min.y + unit() * h)).collect();
    let mut locate_ns = f64::MAX;
    let mut found = 0;
    for _ in 0..5 {
        let start = Instant::now();
        found = points.iter().filter(|&&p| mesh.locate(p).is_some()).count();
        locate_ns = locate_ns.min(start.elapsed().as_secs_f64() * 1e9 / points.len() as f64);
    }
    let mut nearest_ns = f64::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        for &p in &points[..20_000] {
            std::hint::black_box(mesh.nearest_point(p));
        }
        nearest_ns = nearest_ns.min(start.elapsed().as_secs_f64() * 1e9 / 20_000.0);
    }
    println!(
        "{path}: {} triangles; load {fastest:.3} ms (fastest of 15); locate {locate_ns:.1} ns ({found} of {} on the mesh); nearest_point {nearest_ns:.1} ns",
        mesh.triangle_count(),
        points.len()
    );
}
