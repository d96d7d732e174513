//! Writes the runtime's test meshes (`crates/trinav/tests/fixtures/*.nav`) from the sources its
//! manifest names: `cargo run -p trinav-bake --example fixtures`. Run it after a change to the
//! baker or the file format; `cargo test -p trinav-bake --test fixtures` says when it is due.

#[path = "../tests/common/fixtures.rs"]
mod fixtures;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for fixture in fixtures::manifest() {
        let bytes = fixture.bake().to_bytes()?;
        std::fs::write(fixture.path(), &bytes)?;
        println!("{}: {} bytes", fixture.path().display(), bytes.len());
    }
    Ok(())
}
