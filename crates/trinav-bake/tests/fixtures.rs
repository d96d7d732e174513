//! The runtime's committed test meshes are what the baker makes of their sources today.

#[path = "common/fixtures.rs"]
mod fixtures;

/// Fails, naming the command that regenerates them, when a committed mesh differs from a fresh
/// bake of its source (the baker or the file format changed since it was written).
#[test]
fn committed_fixtures_are_fresh_bakes_of_their_sources() {
    let manifest = fixtures::manifest();
    assert!(manifest.len() >= 10, "the manifest lists {} fixtures", manifest.len());
    let mut stale = Vec::new();
    for fixture in &manifest {
        let fresh = fixture.bake().to_bytes().expect("encodes");
        match std::fs::read(fixture.path()) {
            Ok(committed) if committed == fresh => {}
            Ok(_) => stale.push(format!("{} differs", fixture.name)),
            Err(e) => stale.push(format!("{}: {e}", fixture.path().display())),
        }
    }
    assert!(
        stale.is_empty(),
        "stale test meshes ({}); regenerate them with `cargo run -p trinav-bake --example fixtures`",
        stale.join(", ")
    );
}

/// Every `.nav` file in the folder is in the manifest (none left behind by a removed line).
#[test]
fn every_committed_mesh_is_in_the_manifest() {
    let names: Vec<String> = fixtures::manifest().into_iter().map(|f| f.name).collect();
    for entry in std::fs::read_dir(fixtures::folder()).expect("fixtures folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "nav") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            assert!(names.contains(&stem), "{} is not in fixtures.txt", path.display());
        }
    }
}
