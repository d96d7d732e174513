//! Helpers shared by the benches.

use std::path::PathBuf;

use trinav_bake::Level;

/// The sample levels, by file stem, sorted.
pub fn sample_levels() -> Vec<(String, Level)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/levels"));
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let level = Level::load(&p).unwrap_or_else(|e| panic!("cannot load {}: {e}", p.display()));
            (name, level)
        })
        .collect()
}
