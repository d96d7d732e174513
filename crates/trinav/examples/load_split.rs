//! Loads one file many times in one process and prints the fastest time of each load step and
//! the fastest and median whole load (`trinav::file::load_timed_with`):
//!
//! ```text
//! cargo run --release -p trinav --example load_split -- MESH.nav [LOADS] [THREADS]
//! ```
//!
//! `LOADS` defaults to 60, `THREADS` (1 or 2, as `LoadOptions::with_threads`) to 2. On two
//! threads the derived data is built beside the checks, so its time is part of theirs. The
//! median shows what the fastest hides: loads whose two halves ran one after the other.

use std::time::Instant;

use trinav::file::{LoadOptions, load_timed_with};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: load_split MESH.nav [LOADS] [THREADS]")?;
    let loads: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(60).max(1);
    let threads: usize = args.next().map(|s| s.parse()).transpose()?.unwrap_or(2);
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
    let options = LoadOptions::default().with_threads(threads);
    // Fastest checksum, decode, checks and derived data, in milliseconds.
    let mut fastest_steps = [f64::MAX; 4];
    let mut totals = Vec::with_capacity(loads);
    for _ in 0..loads {
        let start = Instant::now();
        let (mesh, times) = load_timed_with(&bytes, options);
        let total = start.elapsed().as_secs_f64() * 1e3;
        std::hint::black_box(mesh.map_err(|e| format!("{path}: {e}"))?);
        let steps = [times.checksum, times.decode, times.checks, times.derived];
        for (fastest, step) in fastest_steps.iter_mut().zip(steps) {
            *fastest = fastest.min(step.as_secs_f64() * 1e3);
        }
        totals.push(total);
    }
    totals.sort_by(f64::total_cmp);
    let [checksum, decode, checks, derived] = fastest_steps;
    println!(
        "{path}: {} threads, {loads} loads: fastest checksum {checksum:.3} decode {decode:.3} checks {checks:.3} \
         derived {derived:.3}; load fastest {:.3} median {:.3} ms",
        options.threads(),
        totals[0],
        totals[loads / 2]
    );
    Ok(())
}
