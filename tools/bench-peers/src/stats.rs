//! Quantiles and length ratios.

use std::time::Instant;

use serde::Serialize;
pub use trinav_tools::stats::median;
use trinav_tools::stats::quantile;

/// Timed runs of each bake and build: at least this many, and more while their total is under
/// [`BUILD_BUDGET_MS`], up to [`BUILD_RUNS_MAX`].
pub const BUILD_RUNS_MIN: usize = 5;
pub const BUILD_BUDGET_MS: f64 = 100.0;
pub const BUILD_RUNS_MAX: usize = 41;

/// Lengths closer to the reference than this (relative) count as equal.
pub const SHORTER_TOLERANCE: f64 = 1e-6;

/// The figures of one system on one input.
#[derive(Clone, Debug, Serialize)]
pub struct SystemReport {
    pub p50_us: f64,
    pub p99_us: f64,
    pub mean_us: f64,
    /// length / Polyanya length, over the queries both found with a positive Polyanya length.
    pub len_ratio_mean: Option<f64>,
    pub len_ratio_p99: Option<f64>,
    pub len_ratio_max: Option<f64>,
    pub len_ratio_min: Option<f64>,
    /// Queries this system found no path for.
    pub not_found: usize,
    /// Queries in the ratios.
    pub compared: usize,
    /// Ratios below 1 - 1e-6: shorter than Polyanya's "optimal" path.
    pub shorter_than_polyanya: usize,
}

/// Mean, min and max of a set of ratios.
#[derive(Clone, Debug, Serialize)]
pub struct RatioStats {
    pub count: usize,
    pub mean: f64,
    pub min: f64,
    pub max: f64,
}

fn ratios(lengths: &[Option<f64>], reference: &[Option<f64>]) -> Vec<f64> {
    lengths.iter().zip(reference).filter_map(|(l, r)| Some(l.as_ref()? / r.as_ref()?)).collect()
}

pub fn ratio_stats(lengths: &[Option<f64>], reference: &[Option<f64>]) -> Option<RatioStats> {
    let r = ratios(lengths, reference);
    (!r.is_empty()).then(|| RatioStats {
        count: r.len(),
        mean: r.iter().sum::<f64>() / r.len() as f64,
        min: r.iter().copied().fold(f64::INFINITY, f64::min),
        max: r.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    })
}

/// Times (µs) and lengths of one system, against the reference lengths.
pub fn summarize(times: &[f64], lengths: &[Option<f64>], reference: &[Option<f64>]) -> SystemReport {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut r = ratios(lengths, reference);
    r.sort_by(f64::total_cmp);
    let some = !r.is_empty();
    SystemReport {
        p50_us: quantile(&sorted, 0.5),
        p99_us: quantile(&sorted, 0.99),
        mean_us: times.iter().sum::<f64>() / times.len().max(1) as f64,
        len_ratio_mean: some.then(|| r.iter().sum::<f64>() / r.len() as f64),
        len_ratio_p99: some.then(|| quantile(&r, 0.99)),
        len_ratio_max: r.last().copied(),
        len_ratio_min: r.first().copied(),
        not_found: lengths.iter().filter(|l| l.is_none()).count(),
        compared: r.len(),
        shorter_than_polyanya: r.iter().filter(|&&x| x < 1.0 - SHORTER_TOLERANCE).count(),
    }
}

/// Times a bake or build the same way for every system: one untimed run first (the first call
/// in a process pays for cold caches and fresh pages; a game rebaking at runtime does not),
/// then [`BUILD_RUNS_MIN`] to [`BUILD_RUNS_MAX`] timed runs. `input` makes each run's input
/// (untimed), `timed` gets each timed run's result and milliseconds; returns the last result.
pub fn time_builds<I, T, E>(
    mut input: impl FnMut() -> I,
    mut build: impl FnMut(I) -> Result<T, E>,
    mut timed: impl FnMut(&T, f64),
) -> Result<T, E> {
    let mut last = build(input())?;
    let (mut runs, mut total_ms) = (0, 0.0);
    while runs < BUILD_RUNS_MIN || (total_ms < BUILD_BUDGET_MS && runs < BUILD_RUNS_MAX) {
        let run_input = input();
        let start = Instant::now();
        let built = build(run_input)?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        timed(&built, ms);
        (runs, total_ms, last) = (runs + 1, total_ms + ms, built);
    }
    Ok(last)
}
