//! The runtime's committed test meshes (`crates/trinav/tests/fixtures`): their manifest and how
//! each is baked. Shared by the `fixtures` example, which writes them, and the `fixtures` test,
//! which fails when one is stale.

use std::path::{Path, PathBuf};

use trinav::{BakeSettings, NavMesh, Triangulation};
use trinav_bake::generate::scattered_obstacles;
use trinav_bake::import::{ImportOptions, bake_source, import};

/// The repository root.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The folder of the fixtures and their manifest.
pub fn folder() -> PathBuf {
    repository().join("crates/trinav/tests/fixtures")
}

/// One line of the manifest.
pub struct Fixture {
    /// The mesh is `NAME.nav` in [`folder`].
    pub name: String,
    /// A file from the repository root, or `generated:VERTICES:SEED`.
    pub source: String,
    pub triangulation: Triangulation,
}

impl Fixture {
    /// Where the mesh is committed.
    pub fn path(&self) -> PathBuf {
        folder().join(format!("{}.nav", self.name))
    }

    /// Bakes the mesh from its source.
    pub fn bake(&self) -> NavMesh {
        let base = BakeSettings::default().with_triangulation(self.triangulation);
        let baked = match self.source.strip_prefix("generated:") {
            Some(spec) => {
                let numbers: Vec<u64> =
                    spec.split(':').map(|n| n.parse().expect("generated:VERTICES:SEED")).collect();
                let level = scattered_obstacles(numbers[0] as usize, numbers[1]);
                trinav_bake::bake(&level, &base)
            }
            None => {
                let source = import(&repository().join(&self.source), None, &ImportOptions::default())
                    .unwrap_or_else(|e| panic!("{}: {e}", self.name));
                bake_source(&source, &source.settings(base, None))
            }
        };
        baked.unwrap_or_else(|e| panic!("{}: {e}", self.name)).mesh
    }
}

/// The manifest, `fixtures.txt`: `name source triangulation` per line, `#` comments.
pub fn manifest() -> Vec<Fixture> {
    let path = folder().join("fixtures.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, source, triangulation] = fields[..] else {
                panic!("{}: `{line}` is not `name source triangulation`", path.display())
            };
            Fixture {
                name: name.to_string(),
                source: source.to_string(),
                triangulation: triangulation.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display())),
            }
        })
        .collect()
}
