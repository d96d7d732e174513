//! Publishing changes without stopping readers: two meshes in turn.
//!
//! Readers hold an `Arc<NavMesh>` (a snapshot) and query it as long as they like. A change
//! never touches a published mesh: it is applied to the other one, the *spare*, which is the
//! mesh published before the current one, and which then becomes the current one. The spare
//! is one change behind: it first catches up by copying what the previous change wrote
//! ([`NavMesh::catch_up`] with the change's [`PatchWrites`]), without applying its patches
//! again. Only when a reader still holds the spare (it kept a snapshot across two changes) is
//! the current mesh copied instead.

use std::sync::Arc;

use trinav::NavMesh;
use trinav::build::{MeshPatch, PatchError, PatchOutcome, PatchWrites};

/// The published mesh and the spare.
#[derive(Debug)]
pub(crate) struct Snapshots {
    /// The mesh readers get.
    current: Arc<NavMesh>,
    /// The mesh published before it, `pending` behind.
    spare: Option<Arc<NavMesh>>,
    /// Where the patches that turned the spare into the current mesh wrote.
    pending: PatchWrites,
    /// How many changes had to copy the whole mesh.
    pub(crate) copies: u64,
}

impl Snapshots {
    /// Publishes `mesh`.
    pub(crate) fn new(mesh: NavMesh) -> Snapshots {
        Snapshots { current: Arc::new(mesh), spare: None, pending: PatchWrites::new(), copies: 0 }
    }

    /// The published mesh.
    pub(crate) fn current(&self) -> &Arc<NavMesh> {
        &self.current
    }

    /// Applies `patches` in order to a mesh equal to the current one and publishes it. On error
    /// nothing is published (and the spare is dropped).
    pub(crate) fn apply(&mut self, patches: &[MeshPatch]) -> Result<Vec<PatchOutcome>, PatchError> {
        let mut mesh = match self.take_spare() {
            Some(mesh) => mesh,
            None => {
                self.copies += 1;
                NavMesh::clone(&self.current)
            }
        };
        let mut writes = std::mem::take(&mut self.pending);
        writes.clear();
        let outcomes = (patches.iter())
            .map(|patch| mesh.apply_patch_recorded(patch, &mut writes))
            .collect::<Result<Vec<_>, _>>()?;
        self.spare = Some(std::mem::replace(&mut self.current, Arc::new(mesh)));
        self.pending = writes;
        Ok(outcomes)
    }

    /// The spare brought up to date, unless a reader still holds it.
    fn take_spare(&mut self) -> Option<NavMesh> {
        let mut mesh = Arc::try_unwrap(self.spare.take()?).ok()?;
        mesh.catch_up(&self.current, &self.pending);
        Some(mesh)
    }

    /// Drops the spare (to save memory; the next change copies the mesh).
    pub(crate) fn drop_spare(&mut self) {
        self.spare = None;
        self.pending.clear();
    }
}
