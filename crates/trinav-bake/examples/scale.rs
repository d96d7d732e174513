//! Bakes a generated level of N obstacle vertices and prints its figures and stage times.
//!
//! ```text
//! cargo build --release --example scale -p trinav-bake
//! /usr/bin/time -v target/release/examples/scale 1000000 [ear|cdt] [radius]
//! ```

use std::time::Instant;

use trinav::{BakeSettings, Triangulation};
use trinav_bake::generate::{obstacle_vertex_count, scattered_obstacles};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let vertices: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let triangulation = match args.get(2).map(String::as_str) {
        Some("ear") => Triangulation::EarClipping,
        _ => Triangulation::ConstrainedDelaunay,
    };
    let radius: f64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0.0);
    let start = Instant::now();
    let level = scattered_obstacles(vertices, 21);
    let generated = start.elapsed();
    let settings = BakeSettings::default().with_triangulation(triangulation).with_agent_radius(radius);
    let start = Instant::now();
    match trinav_bake::bake(&level, &settings) {
        Ok(baked) => {
            let total = start.elapsed();
            let stats = baked.mesh.stats();
            let t = &baked.report.times;
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            println!(
                "{} obstacle vertices ({} obstacles, generated in {:.0} ms), {}, radius {radius}: bake {:.0} ms \
                 (validate {:.0}, merge {:.0}, triangulate {:.0}, weld {:.0}, derive {:.0}, verify {:.0}); \
                 {} vertices, {} triangles, {} islands, {} fallbacks",
                obstacle_vertex_count(&level),
                level.obstacles.len(),
                ms(generated),
                triangulation.name(),
                ms(total),
                ms(t.validate),
                ms(t.merge),
                ms(t.triangulate),
                ms(t.weld),
                ms(t.derive),
                ms(t.verify),
                stats.vertices,
                stats.triangles,
                stats.islands,
                baked.report.fallbacks.len(),
            );
        }
        Err(e) => {
            eprintln!("bake failed: {e:#?}");
            std::process::exit(2);
        }
    }
}
