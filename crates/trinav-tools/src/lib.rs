//! # trinav-tools: what trinav's tools share, apart from the game-facing crates
//!
//! The `trinav` command, the benchmarks (`tools/bench-peers`) and the fuzz targets need a few
//! helpers that a game never calls: reading benchmark scenario files ([`scenario`]), the GPPC
//! rule for queries on grid maps ([`ScenarioQuery::sides`]), quantiles of timings ([`stats`])
//! and writing files atomically ([`write_atomic`]). They live here so that the `trinav` crate
//! holds only what a game links, and so that every tool applies the same rule the same way.

#![warn(missing_docs)]

mod fs;
pub mod scenario;
pub mod stats;

pub use fs::write_atomic;
pub use scenario::{ScenarioError, ScenarioQuery};
