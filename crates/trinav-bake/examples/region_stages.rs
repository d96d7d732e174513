//! Times `bake_region` on the walkable region an input traces to (as the peer bench's "from the
//! traced region" figure) and prints the median of each stage over many runs in one process:
//!
//! ```text
//! cargo run --release -p trinav-bake --example region_stages -- MAP_OR_MESH [RUNS]
//! ```
//!
//! Grid maps (`.map`, bitmaps, mazes) give their traced cells, Polyanya meshes and `.poly`
//! files their outline; levels are not supported (their stage 2 is the boolean operations).

use std::path::Path;
use std::time::Duration;

use trinav::BakeSettings;
use trinav_bake::import::{ImportOptions, Source, import};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: region_stages MAP_OR_MESH [RUNS]")?;
    let runs: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(41);
    let region = match import(Path::new(&path), None, &ImportOptions::default())? {
        Source::Grid(grid) => grid.walkable_region()?,
        Source::Region(region) => region,
        _ => return Err("a level or typed grid: its stage 2 is not a traced region".into()),
    };
    let settings = BakeSettings::default();
    let names = ["total", "merge", "triangulate", "weld", "derive", "verify"];
    let mut times: Vec<[Duration; 6]> = Vec::with_capacity(runs);
    let mut fallbacks = 0;
    for _ in 0..runs.max(1) {
        let copy = region.clone();
        let start = std::time::Instant::now();
        let baked = trinav_bake::bake_region(copy, &settings)?;
        let total = start.elapsed();
        let t = &baked.report.times;
        times.push([total, t.merge, t.triangulate, t.weld, t.derive, t.verify]);
        fallbacks = baked.report.fallbacks.len();
    }
    for (k, name) in names.iter().enumerate() {
        let mut column: Vec<Duration> = times.iter().map(|row| row[k]).collect();
        column.sort();
        print!("{name} {:.3} ms  ", column[column.len() / 2].as_secs_f64() * 1e3);
    }
    println!("fallbacks {fallbacks}");
    Ok(())
}
