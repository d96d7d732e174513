//! Queries never wait: readers on other threads query the snapshots they hold while a writer
//! adds, moves and removes obstacles; a snapshot's answers never change, and each snapshot
//! equals the mesh the writer published at that point.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use common::{quarter, random_obstacle, rng};
use rand::RngExt;
use trinav::build::check_derived;
use trinav::{BakeSettings, NavMesh, PathMode, PathOptions, PathScratch, Point};
use trinav_bake::{Level, PolygonInput, bake};
use trinav_dynamic::EditableMesh;

/// A fingerprint of a mesh's answers: optimal path lengths between fixed points.
fn answers(mesh: &NavMesh, scratch: &mut PathScratch) -> Vec<Option<f64>> {
    let options = PathOptions::default().with_mode(PathMode::Optimal).with_snap(true);
    let points =
        [(1.0, 1.0), (59.0, 59.0), (30.0, 2.0), (2.0, 45.0), (50.0, 20.0)].map(|(x, y)| Point::new(x, y));
    let mut out = Vec::new();
    for a in points {
        for b in points {
            out.push(mesh.find_path_with(a, b, &options, scratch).ok().map(|p| p.length));
        }
    }
    out
}

#[test]
fn readers_keep_their_snapshots_while_the_writer_changes_the_world() {
    let level = Level { walkable: vec![PolygonInput::rect(0.0, 0.0, 60.0, 60.0)], ..Level::default() };
    let editable =
        EditableMesh::new(bake(&level, &BakeSettings::default().with_agent_radius(0.25)).unwrap().mesh);
    let published: Arc<Mutex<Arc<NavMesh>>> = Arc::new(Mutex::new(editable.snapshot()));
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (published, done) = (Arc::clone(&published), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut scratch = PathScratch::new();
                let mut checked = 0;
                while !done.load(Ordering::Relaxed) || checked == 0 {
                    // Take the current snapshot, answer on it, and again later: same answers.
                    let mesh = Arc::clone(&published.lock().unwrap());
                    let first = answers(&mesh, &mut scratch);
                    std::thread::yield_now();
                    assert_eq!(answers(&mesh, &mut scratch), first, "a held snapshot changed");
                    checked += 1;
                }
                checked
            })
        })
        .collect();
    let mut editable = editable;
    let mut rng = rng(5);
    let mut ids = Vec::new();
    let mut history = Vec::new();
    for step in 0..60 {
        if ids.is_empty() || rng.random_bool(0.5) {
            let (cx, cy) = (quarter(&mut rng, 5.0, 55.0), quarter(&mut rng, 5.0, 55.0));
            ids.push(editable.add_obstacle(&random_obstacle(&mut rng, cx, cy)).unwrap());
        } else if rng.random_bool(0.5) {
            let id = ids[rng.random_range(0..ids.len())];
            editable.move_obstacle(id, [quarter(&mut rng, -3.0, 3.0), quarter(&mut rng, -3.0, 3.0)]).unwrap();
        } else {
            editable.remove_obstacle(ids.swap_remove(rng.random_range(0..ids.len()))).unwrap();
        }
        let snapshot = editable.snapshot();
        check_derived(&snapshot).unwrap_or_else(|e| panic!("step {step}: {e}"));
        history.push((Arc::clone(&snapshot), snapshot.to_bytes().unwrap()));
        *published.lock().unwrap() = snapshot;
    }
    done.store(true, Ordering::Relaxed);
    for reader in readers {
        assert!(reader.join().expect("no reader panicked") > 0);
    }
    // Every snapshot handed out is still exactly what it was when published.
    for (step, (snapshot, bytes)) in history.iter().enumerate() {
        assert_eq!(&snapshot.to_bytes().unwrap(), bytes, "snapshot {step} changed after publication");
    }
    // `history` holds every published mesh, so no change from the third on could reuse the
    // spare (the mesh of two changes before): each copied. (The first has no spare; the second's
    // spare, the initial mesh, may still be held by a reader.) Reuse without readers is tested
    // below.
    assert!(editable.copies() >= 59, "{} copies", editable.copies());
}

#[test]
fn a_change_reuses_the_spare_mesh_when_no_reader_holds_it() {
    let level = Level { walkable: vec![PolygonInput::rect(0.0, 0.0, 60.0, 60.0)], ..Level::default() };
    let mut editable = EditableMesh::new(bake(&level, &BakeSettings::default()).unwrap().mesh);
    let mut rng = rng(9);
    for _ in 0..20 {
        let (cx, cy) = (quarter(&mut rng, 5.0, 55.0), quarter(&mut rng, 5.0, 55.0));
        editable.add_obstacle(&random_obstacle(&mut rng, cx, cy)).unwrap();
    }
    // Only the first change copies (there is no spare yet).
    assert_eq!(editable.copies(), 1);
    // A reader holding a snapshot across two changes makes the second one copy.
    let held = editable.snapshot();
    editable.add_obstacle(&PolygonInput::rect(1.0, 1.0, 2.0, 2.0)).unwrap();
    assert!(!editable.last_change().copied);
    editable.add_obstacle(&PolygonInput::rect(3.0, 1.0, 4.0, 2.0)).unwrap();
    assert!(editable.last_change().copied);
    assert_eq!(editable.copies(), 2);
    drop(held);
    check_derived(editable.mesh()).unwrap();
}
