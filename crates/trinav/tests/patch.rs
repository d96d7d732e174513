//! `NavMesh::apply_patch`: random sequences of local changes on the fixture meshes (regions
//! cut out and put back, triangles split, diagonals flipped), each followed by the full check
//! that the derived data equals what the arrays give (`check_derived`) and by queries compared
//! with a mesh built from the same arrays; refused patches leave the mesh as it was.

mod common;

use common::{PLAIN_FIXTURES, fixture, random_point, rng};
use rand::{Rng, RngExt};
use trinav::build::{MeshPatch, PatchError, PatchWrites, check_derived};
use trinav::geometry::{Orientation, orient};
use trinav::{LinkId, NavMesh, OffMeshLink, PathMode, PathOptions, PathScratch, Point, TriangleId};

/// Up to `count` triangles connected to `start` (breadth first).
fn region(mesh: &NavMesh, start: TriangleId, count: usize) -> Vec<TriangleId> {
    let mut out = vec![start];
    let mut i = 0;
    while i < out.len() && out.len() < count {
        for u in mesh.neighbours(out[i]) {
            if !u.is_none() && !out.contains(&u) && out.len() < count {
                out.push(u);
            }
        }
        i += 1;
    }
    out
}

/// A point strictly inside triangle `t`, if rounding leaves one at the centroid's neighbour.
fn inner_point(mesh: &NavMesh, t: TriangleId) -> Option<Point> {
    let [a, b, c] = mesh.triangle_points(t);
    let m = a.midpoint(b).midpoint(c);
    let inside =
        [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| orient(u, v, m) == Orientation::CounterClockwise);
    inside.then_some(m)
}

/// One random change: cut a region out (remembered in `cut`), put the last cut back, split a
/// triangle at an inner point, or flip the diagonal of a convex pair.
fn random_patch(rng: &mut impl Rng, mesh: &NavMesh, cut: &mut Vec<Vec<[Point; 3]>>) -> Option<MeshPatch> {
    let n = mesh.triangle_count();
    if n == 0 {
        return cut.pop().map(|add| MeshPatch { add, ..MeshPatch::default() });
    }
    let t = TriangleId(rng.random_range(0..n as u32));
    match rng.random_range(0..4) {
        0 => {
            let remove = region(mesh, t, rng.random_range(1..25));
            cut.push(remove.iter().map(|&t| mesh.triangle_points(t)).collect());
            Some(MeshPatch { remove, ..MeshPatch::default() })
        }
        1 => cut.pop().map(|add| MeshPatch { add, ..MeshPatch::default() }),
        2 => {
            let m = inner_point(mesh, t)?;
            let [a, b, c] = mesh.triangle_points(t);
            Some(MeshPatch {
                remove: vec![t],
                add: vec![[a, b, m], [b, c, m], [c, a, m]],
                keep_border: true,
                ..MeshPatch::default()
            })
        }
        _ => {
            let k = rng.random_range(0..3);
            let u = mesh.neighbours(t)[k];
            if u.is_none() {
                return None;
            }
            let pts = mesh.triangle_points(t);
            let (a, b, c) = (pts[k], pts[(k + 1) % 3], pts[(k + 2) % 3]);
            let d = *mesh.triangle_points(u).iter().find(|&&q| q != a && q != b)?;
            let ok = orient(c, a, d) == Orientation::CounterClockwise
                && orient(c, d, b) == Orientation::CounterClockwise;
            ok.then(|| MeshPatch {
                remove: vec![t, u],
                add: vec![[c, a, d], [c, d, b]],
                keep_border: true,
                ..MeshPatch::default()
            })
        }
    }
}

/// The patched mesh answers as the mesh built from its arrays does.
fn same_answers(rng: &mut impl Rng, mesh: &NavMesh) {
    check_derived(mesh).unwrap_or_else(|e| panic!("derived data differs: {e}"));
    let fresh = NavMesh::from_parts(mesh.parts().clone()).expect("the patched arrays are a valid mesh");
    assert_eq!(fresh.island_count(), mesh.island_count());
    if mesh.triangle_count() == 0 {
        return;
    }
    for _ in 0..40 {
        let q = random_point(rng, mesh, 0.05);
        assert_eq!(mesh.locate(q), fresh.locate(q), "locate {q:?}");
        let (a, b) = (mesh.nearest_point(q), fresh.nearest_point(q));
        assert_eq!(a.map(|x| x.0), b.map(|x| x.0), "nearest point to {q:?}");
    }
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let (mut s1, mut s2) = (PathScratch::new(), PathScratch::new());
    for _ in 0..10 {
        let (from, to) = (random_point(rng, mesh, 0.0), random_point(rng, mesh, 0.0));
        let a = mesh.find_path_with(from, to, &options, &mut s1).map(|p| p.length);
        let b = fresh.find_path_with(from, to, &options, &mut s2).map(|p| p.length);
        assert_eq!(a, b, "optimal path {from:?} -> {to:?}");
    }
}

#[test]
fn random_patches_keep_every_derived_structure_exact() {
    for (f, name) in PLAIN_FIXTURES.iter().chain(&["pinch_cdt", "corner_cdt", "generated_1k_cdt"]).enumerate()
    {
        let mut mesh = fixture(name);
        let mut rng = rng(40 + f as u64);
        let mut cut = Vec::new();
        let mut applied = 0;
        for step in 0..60 {
            let Some(patch) = random_patch(&mut rng, &mesh, &mut cut) else { continue };
            let before = mesh.triangle_count();
            let outcome = mesh.apply_patch(&patch).unwrap_or_else(|e| panic!("{name} step {step}: {e}"));
            applied += 1;
            assert_eq!(mesh.triangle_count(), before - patch.remove.len() + patch.add.len());
            for (&slot, corners) in outcome.added.iter().zip(&patch.add) {
                assert_eq!(&mesh.triangle_points(slot), corners, "{name} step {step}: added triangle moved");
            }
            same_answers(&mut rng, &mesh);
        }
        // Put back everything cut out: the area comes back.
        while let Some(add) = cut.pop() {
            mesh.apply_patch(&MeshPatch { add, ..MeshPatch::default() }).unwrap();
        }
        same_answers(&mut rng, &mesh);
        let original = fixture(name);
        assert!((mesh.area() - original.area()).abs() <= 1e-9 * original.area(), "{name}: area");
        assert_eq!(mesh.island_count(), original.island_count(), "{name}: islands");
        assert!(applied > 20, "{name}: only {applied} patches applied");
    }
}

#[test]
fn cutting_a_corridor_splits_its_island_and_putting_it_back_joins_it() {
    let mesh = fixture("u_corridor_cdt");
    let mut rng = rng(7);
    let islands = mesh.island_count();
    // Find a cut of a few triangles that splits the island, then undo it.
    for _ in 0..200 {
        let t = TriangleId(rng.random_range(0..mesh.triangle_count() as u32));
        let remove = region(&mesh, t, 3);
        let add: Vec<[Point; 3]> = remove.iter().map(|&t| mesh.triangle_points(t)).collect();
        let mut cut = mesh.clone();
        cut.apply_patch(&MeshPatch { remove, ..MeshPatch::default() }).unwrap();
        check_derived(&cut).unwrap();
        if cut.island_count() > islands {
            cut.apply_patch(&MeshPatch { add, ..MeshPatch::default() }).unwrap();
            check_derived(&cut).unwrap();
            assert_eq!(cut.island_count(), islands);
            return;
        }
    }
    panic!("no cut split the corridor");
}

#[test]
fn the_same_patches_give_the_same_bytes() {
    let run = || {
        let mut mesh = fixture("town_cdt");
        let mut rng = rng(3);
        let mut cut = Vec::new();
        for _ in 0..40 {
            if let Some(patch) = random_patch(&mut rng, &mesh, &mut cut) {
                mesh.apply_patch(&patch).unwrap();
            }
        }
        mesh.to_bytes().unwrap()
    };
    let bytes = run();
    assert_eq!(bytes, run());
    // The saved mesh loads: its islands are numbered as the loader requires.
    NavMesh::from_bytes(&bytes).expect("a patched mesh saves and loads");
}

#[test]
fn refused_patches_leave_the_mesh_unchanged() {
    let mesh = fixture("town_cdt");
    let bytes = mesh.to_bytes().unwrap();
    let t0 = mesh.triangle_points(TriangleId(0));
    let [a, b, c] = t0;
    let far = Point::new(1e300, 0.0);
    type Expected = fn(&PatchError) -> bool;
    let cases: Vec<(MeshPatch, Expected)> = vec![
        (MeshPatch { remove: vec![TriangleId(u32::MAX - 1)], ..MeshPatch::default() }, |e| {
            matches!(e, PatchError::NoSuchTriangle(_))
        }),
        (MeshPatch { remove: vec![TriangleId(1), TriangleId(1)], ..MeshPatch::default() }, |e| {
            matches!(e, PatchError::RemovedTwice(TriangleId(1)))
        }),
        (MeshPatch { remove: vec![TriangleId(0)], add: vec![[a, c, b]], ..MeshPatch::default() }, |e| {
            matches!(e, PatchError::NotCounterClockwise(0))
        }),
        (MeshPatch { remove: vec![TriangleId(0)], add: vec![[a, b, far]], ..MeshPatch::default() }, |e| {
            matches!(e, PatchError::CornerOutOfRange { triangle: 0, .. })
        }),
        (MeshPatch { add: vec![t0], ..MeshPatch::default() }, |e| {
            matches!(e, PatchError::EdgeUsedTwice { .. })
        }),
        (MeshPatch { remove: vec![TriangleId(0)], add: vec![t0, t0], ..MeshPatch::default() }, |e| {
            matches!(e, PatchError::EdgeUsedTwice { .. })
        }),
        (MeshPatch { remove: vec![TriangleId(0)], keep_border: true, ..MeshPatch::default() }, |e| {
            matches!(e, PatchError::OpenBorder { .. })
        }),
        (
            MeshPatch {
                remove: vec![TriangleId(0)],
                add: vec![t0],
                areas: vec![trinav::AreaId(1); 2],
                ..MeshPatch::default()
            },
            |e| matches!(e, PatchError::AreasLength { areas: 2, added: 1 }),
        ),
    ];
    for (i, (patch, expected)) in cases.into_iter().enumerate() {
        let mut changed = mesh.clone();
        let err = changed.apply_patch(&patch).expect_err(&format!("case {i} was accepted"));
        assert!(expected(&err), "case {i}: {err}");
        assert_eq!(changed.to_bytes().unwrap(), bytes, "case {i} changed the mesh");
        check_derived(&changed).unwrap();
    }
}

#[test]
fn triangles_overlapping_a_box_are_those_a_scan_finds() {
    for name in ["town_cdt", "generated_1k_cdt", "pinch_cdt"] {
        let mut mesh = fixture(name);
        let mut rng = rng(11);
        let mut cut = Vec::new();
        for step in 0..30 {
            for _ in 0..if mesh.triangle_count() == 0 { 0 } else { 10 } {
                let (a, b) = (random_point(&mut rng, &mesh, 0.1), random_point(&mut rng, &mesh, 0.1));
                let area = trinav::Aabb::from_points([a, b]);
                let mut found: Vec<TriangleId> = mesh.triangles_overlapping(area).collect();
                found.sort_unstable();
                let expected: Vec<TriangleId> = (0..mesh.triangle_count())
                    .map(TriangleId::from_index)
                    .filter(|&t| {
                        let b = trinav::Aabb::from_points(mesh.triangle_points(t));
                        b.min.x <= area.max.x
                            && area.min.x <= b.max.x
                            && b.min.y <= area.max.y
                            && area.min.y <= b.max.y
                    })
                    .collect();
                assert_eq!(found, expected, "{name} step {step}: {area:?}");
            }
            if let Some(patch) = random_patch(&mut rng, &mesh, &mut cut) {
                mesh.apply_patch(&patch).unwrap();
            }
        }
    }
}

#[test]
fn a_copy_catches_up_by_copying_what_the_patches_wrote() {
    for (f, name) in PLAIN_FIXTURES.iter().chain(&["pinch_cdt", "generated_1k_cdt"]).enumerate() {
        let mut mesh = fixture(name);
        // Links between triangle centroids: the copy must follow which ones the patches cover.
        let centroid = |t: usize| {
            let [a, b, c] = mesh.triangle_points(TriangleId(t as u32));
            Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)
        };
        let n = mesh.triangle_count();
        let ends: Vec<(Point, Point)> =
            (0..4).map(|k| (centroid(k * n / 4), centroid((k * n / 4 + n / 2) % n))).collect();
        let links: Vec<LinkId> =
            ends.into_iter().map(|(a, b)| mesh.add_link(OffMeshLink::new(a, b)).unwrap()).collect();
        let mut copy = mesh.clone();
        let mut rng = rng(70 + f as u64);
        let mut cut = Vec::new();
        let mut writes = PatchWrites::new();
        for step in 0..60 {
            let Some(patch) = random_patch(&mut rng, &mesh, &mut cut) else { continue };
            mesh.apply_patch_recorded(&patch, &mut writes)
                .unwrap_or_else(|e| panic!("{name} step {step}: {e}"));
            // Sometimes two patches in one record.
            if rng.random_bool(0.3) {
                continue;
            }
            copy.catch_up(&mesh, &writes);
            writes.clear();
            assert_eq!(copy.parts(), mesh.parts(), "{name} step {step}: arrays");
            check_derived(&copy).unwrap_or_else(|e| panic!("{name} step {step}: {e}"));
            assert_eq!(copy.to_bytes().unwrap(), mesh.to_bytes().unwrap(), "{name} step {step}: bytes");
            assert_eq!(copy.island_count(), mesh.island_count());
            assert_eq!(copy.bounds(), mesh.bounds());
            for &link in &links {
                assert_eq!(
                    copy.link_is_usable(link),
                    mesh.link_is_usable(link),
                    "{name} step {step}: {link:?}"
                );
            }
        }
    }
}

#[test]
fn traversal_widths_follow_a_patch() {
    let mut mesh = fixture("town_cdt");
    let mut rng = rng(5);
    let mut cut = Vec::new();
    for step in 0..20 {
        mesh.prepare_clearance();
        let Some(patch) = random_patch(&mut rng, &mesh, &mut cut) else { continue };
        mesh.apply_patch(&patch).unwrap();
        mesh.prepare_clearance();
        check_derived(&mesh).unwrap_or_else(|e| panic!("step {step}: {e}"));
    }
}

#[test]
fn added_triangles_meeting_only_at_a_kept_triangle_join_its_island() {
    // A dead-end triangle `n` whose one neighbour is `s`, and another neighbour `m` of `s`:
    // both put back as they were, `m` first, so the first group of added triangles takes `s`
    // and `n`'s group meets it only there.
    let mut checked = 0;
    for name in PLAIN_FIXTURES.iter().chain(&["pinch_cdt", "generated_1k_cdt"]) {
        let mesh = fixture(name);
        for n in (0..mesh.triangle_count()).map(TriangleId::from_index) {
            let links: Vec<TriangleId> = mesh.neighbours(n).into_iter().filter(|u| !u.is_none()).collect();
            let [s] = links[..] else { continue };
            let Some(m) = mesh.neighbours(s).into_iter().find(|&u| !u.is_none() && u != n) else { continue };
            let mut changed = mesh.clone();
            let add = vec![mesh.triangle_points(m), mesh.triangle_points(n)];
            changed.apply_patch(&MeshPatch { remove: vec![n, m], add, ..MeshPatch::default() }).unwrap();
            check_derived(&changed).unwrap_or_else(|e| panic!("{name}, triangles {n:?} {m:?}: {e}"));
            assert_eq!(changed.island_count(), mesh.island_count(), "{name}");
            checked += 1;
            break;
        }
    }
    assert!(checked > 0, "no fixture has a dead-end triangle");
}

/// A strip of 400 unit squares (cells) along x, two triangles each: first cell 9, then cell 0,
/// then the others left to right; then a flap under cell 5: triangle 800 on the strip's edge
/// from (5, 0) to (6, 0), and triangle 801 on its left side, reaching down to (5, -3).
fn strip_with_flap() -> NavMesh {
    use trinav::build::{MeshParts, build_adjacency, find_islands};
    use trinav::{AreaId, BakeSettings, VertexId};
    let cells = 400;
    let mut vertices: Vec<Point> =
        (0..=cells).flat_map(|i| [Point::new(f64::from(i), 0.0), Point::new(f64::from(i), 1.0)]).collect();
    // Cell i: bottom corners 2i, 2i + 2, top corners 2i + 1, 2i + 3.
    let mut triangles: Vec<[u32; 3]> = [9, 0]
        .into_iter()
        .chain((1..cells).filter(|&i| i != 9))
        .flat_map(|i| [[2 * i, 2 * i + 2, 2 * i + 3], [2 * i, 2 * i + 3, 2 * i + 1]])
        .collect();
    let (tip, foot) = (vertices.len() as u32, vertices.len() as u32 + 1);
    vertices.extend([Point::new(5.5, -1.0), Point::new(5.0, -3.0)]);
    triangles.extend([[10, tip, 12], [tip, 10, foot]]);
    let triangles: Vec<[VertexId; 3]> = triangles.into_iter().map(|t| t.map(VertexId)).collect();
    let neighbours = build_adjacency(&triangles, vertices.len()).unwrap();
    let islands = find_islands(&neighbours).0;
    let areas = vec![AreaId(0); triangles.len()];
    let parts =
        MeshParts { settings: BakeSettings::default(), vertices, triangles, neighbours, islands, areas };
    NavMesh::from_parts(parts).unwrap()
}

/// The two triangles of cell `x` of a strip, wherever patches moved them.
fn cell(mesh: &NavMesh, x: u32) -> Vec<TriangleId> {
    let at = |y: f64| mesh.locate(Point::new(f64::from(x) + 0.5, y)).expect("a cell of the strip");
    vec![at(0.25), at(0.75)]
}

#[test]
fn islands_that_lose_their_lowest_triangle_or_an_end_are_measured_again() {
    // Each island is numbered by its lowest triangle and keeps it from patch to patch; its
    // bounds stay unless a point on them goes. Cutting a strip of 400 cells makes the pieces
    // that keep the old number lose their lowest triangle (to the piece that split off, or to
    // a removal; removed slots are filled by the last triangles, so lowest triangles also
    // move) or an end (removed, or split off). The big piece is longer than the walk that
    // finds a small piece's lowest triangle and bounds, so both ways (walk, scan) are taken.
    // First a flap under the strip is cut off, put back and removed.
    let mut mesh = strip_with_flap();
    let flap = |mesh: &NavMesh, y: f64| mesh.locate(Point::new(5.2, y)).expect("a triangle of the flap");
    let island_box = |mesh: &NavMesh, t: TriangleId| {
        let b = mesh.island_bounds(mesh.island(t));
        [b.min, b.max].map(|p| (p.x, p.y))
    };
    // The flap's foot splits off: no removed corner was on the bounds, a corner of the piece
    // that split off was.
    let top = flap(&mesh, -0.2);
    let add = vec![mesh.triangle_points(top)];
    mesh.apply_patch(&MeshPatch { remove: vec![top], ..MeshPatch::default() }).unwrap();
    check_derived(&mesh).unwrap_or_else(|e| panic!("flap cut: {e}"));
    assert_eq!(mesh.island_count(), 2);
    assert_eq!(island_box(&mesh, TriangleId(0)), [(0.0, 0.0), (400.0, 1.0)], "flap cut: the strip");
    assert_eq!(island_box(&mesh, flap(&mesh, -2.0)), [(5.0, -3.0), (5.5, 0.0)], "flap cut: the foot");
    // Put back: one island again; then the foot goes (a removed corner on the bounds), then
    // the rest of the flap.
    mesh.apply_patch(&MeshPatch { add, ..MeshPatch::default() }).unwrap();
    check_derived(&mesh).unwrap_or_else(|e| panic!("flap put back: {e}"));
    assert_eq!(island_box(&mesh, TriangleId(0)), [(0.0, -3.0), (400.0, 1.0)], "flap put back");
    let foot = flap(&mesh, -2.0);
    mesh.apply_patch(&MeshPatch { remove: vec![foot], ..MeshPatch::default() }).unwrap();
    check_derived(&mesh).unwrap_or_else(|e| panic!("foot removed: {e}"));
    assert_eq!(island_box(&mesh, TriangleId(0)), [(0.0, -1.0), (400.0, 1.0)], "foot removed");
    let top = flap(&mesh, -0.2);
    mesh.apply_patch(&MeshPatch { remove: vec![top], ..MeshPatch::default() }).unwrap();
    let expect = |mesh: &NavMesh, pieces: &[(u32, u32)], step: &str| {
        check_derived(mesh).unwrap_or_else(|e| panic!("{step}: {e}"));
        assert_eq!(mesh.island_count() as usize, pieces.len(), "{step}");
        // Islands in the order of their lowest triangle, each the box of its cells.
        let mut lowest: Vec<(TriangleId, (u32, u32))> = (pieces.iter())
            .map(|&(a, b)| {
                let t = (a..b).flat_map(|x| cell(mesh, x)).min().unwrap();
                (t, (a, b))
            })
            .collect();
        lowest.sort_unstable();
        for (i, &(t, (a, b))) in lowest.iter().enumerate() {
            let island = mesh.island(t);
            assert_eq!(island.0 as usize, i, "{step}: the piece from {a} to {b}");
            let bounds = mesh.island_bounds(island);
            assert_eq!(
                [bounds.min, bounds.max],
                [Point::new(f64::from(a), 0.0), Point::new(f64::from(b), 1.0)],
                "{step}: bounds of the piece from {a} to {b}"
            );
            for x in a..b {
                assert!(cell(mesh, x).iter().all(|&u| mesh.island(u) == island), "{step}: cell {x}");
            }
        }
    };
    // Cells removed one by one, and the pieces left after each. Cell 10: the small left
    // piece holds the lowest triangle, and the rest's lowest triangle is one that moved down
    // into a hole. Cell 8: the piece that splits off holds the lowest triangle, and the other
    // piece's lowest is at its far end (cell 0), found by walking it. Cell 399: the big
    // piece's bounds shrink. Cell 390: a small piece splits off the right end, and the big
    // piece's bounds shrink again. Cell 3: another split, then every cell is put back in
    // reverse order, merging the pieces again.
    let steps: [(u32, &[(u32, u32)]); 5] = [
        (10, &[(0, 10), (11, 400)]),
        (8, &[(0, 8), (9, 10), (11, 400)]),
        (399, &[(0, 8), (9, 10), (11, 399)]),
        (390, &[(0, 8), (9, 10), (11, 390), (391, 399)]),
        (3, &[(0, 3), (4, 8), (9, 10), (11, 390), (391, 399)]),
    ];
    let mut cut = Vec::new();
    for (x, pieces) in steps {
        let remove = cell(&mesh, x);
        cut.push(remove.iter().map(|&t| mesh.triangle_points(t)).collect::<Vec<_>>());
        mesh.apply_patch(&MeshPatch { remove, ..MeshPatch::default() }).unwrap();
        expect(&mesh, pieces, &format!("cell {x} removed"));
    }
    for i in (0..steps.len()).rev() {
        let add = cut.pop().unwrap();
        mesh.apply_patch(&MeshPatch { add, ..MeshPatch::default() }).unwrap();
        let pieces: &[(u32, u32)] = if i == 0 { &[(0, 400)] } else { steps[i - 1].1 };
        expect(&mesh, pieces, &format!("cell {} put back", steps[i].0));
    }
}

/// Patches on a layered mesh: groups of triangles around a random one (on a portal half the
/// time) taken out and put back with their layers and their portal edges (to each other or to
/// the other layer's kept triangles, whose walls they join again);
/// the derived data is checked after every patch, and the mesh ends with the portals, islands
/// and area per layer it had. A patch without a layer per added triangle, or naming a layer
/// the mesh lacks, is refused and changes nothing.
#[test]
fn patches_on_a_layered_mesh_keep_layers_and_portals() {
    use trinav::LayerId;
    let mut mesh = fixture("overpass_cdt");
    assert!(mesh.is_layered() && mesh.portal_edge_count() > 0);
    let area_per_layer = |mesh: &trinav::NavMesh| {
        let mut areas = vec![0.0; mesh.layer_count()];
        for t in 0..mesh.triangle_count() {
            let t = TriangleId::from_index(t);
            let [a, b, c] = mesh.triangle_points(t);
            areas[mesh.triangle_layer(t).index()] +=
                ((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2.0;
        }
        areas
    };
    let before = (mesh.portal_edge_count(), mesh.island_count(), area_per_layer(&mesh));
    let bytes = mesh.to_bytes().unwrap();
    let t0 = mesh.triangle_points(TriangleId(0));
    for (layers, expected) in [(vec![], "0 layer ids for 1 added triangles"), (vec![LayerId(7)], "layer 7")] {
        let patch = MeshPatch { remove: vec![TriangleId(0)], add: vec![t0], layers, ..MeshPatch::default() };
        let err = mesh.apply_patch(&patch).unwrap_err();
        assert!(err.to_string().contains(expected), "{err}");
        assert_eq!(mesh.to_bytes().unwrap(), bytes);
    }
    let portal_triangles: Vec<TriangleId> = (0..mesh.triangle_count())
        .map(TriangleId::from_index)
        .filter(|&t| {
            mesh.neighbours(t)
                .iter()
                .any(|n| !n.is_none() && mesh.triangle_layer(*n) != mesh.triangle_layer(t))
        })
        .collect();
    let mut rng = rng(40);
    for step in 0..60 {
        let start = if step % 2 == 0 {
            portal_triangles[rng.random_range(0..portal_triangles.len())]
        } else {
            TriangleId::from_index(rng.random_range(0..mesh.triangle_count()))
        };
        // Portal triangles keep their ids only until the first patch moves them: find them again.
        let start = if step % 2 == 0 {
            (0..mesh.triangle_count())
                .map(TriangleId::from_index)
                .find(|&t| {
                    mesh.neighbours(t)
                        .iter()
                        .any(|n| !n.is_none() && mesh.triangle_layer(*n) != mesh.triangle_layer(t))
                        && rng.random_bool(0.2)
                })
                .unwrap_or(start)
        } else {
            start
        };
        let mut group = vec![start];
        group.extend(mesh.neighbours(start).iter().filter(|n| !n.is_none()));
        group.sort_unstable();
        group.dedup();
        let add: Vec<[Point; 3]> = group.iter().map(|&t| mesh.triangle_points(t)).collect();
        let layers: Vec<LayerId> = group.iter().map(|&t| mesh.triangle_layer(t)).collect();
        let mut portals = Vec::new();
        for &t in &group {
            for (k, &n) in mesh.neighbours(t).iter().enumerate() {
                if !n.is_none() && mesh.triangle_layer(n) != mesh.triangle_layer(t) {
                    let p = mesh.triangle_points(t);
                    portals.push([p[k], p[(k + 1) % 3]]);
                }
            }
        }
        mesh.apply_patch(&MeshPatch { remove: group, ..MeshPatch::default() }).unwrap();
        check_derived(&mesh).unwrap_or_else(|e| panic!("step {step}, out: {e}"));
        mesh.apply_patch(&MeshPatch { add, layers, portals, ..MeshPatch::default() })
            .unwrap_or_else(|e| panic!("step {step}, back: {e}"));
        check_derived(&mesh).unwrap_or_else(|e| panic!("step {step}, back: {e}"));
        let now = (mesh.portal_edge_count(), mesh.island_count(), area_per_layer(&mesh));
        assert_eq!(now, before, "step {step}");
    }
    trinav::NavMesh::from_bytes(&mesh.to_bytes().unwrap()).expect("the patched mesh saves and loads");
}
