//! `NavMesh::from_bytes` on arbitrary bytes: Ok or Err, never a panic. A loaded mesh is
//! queried (locate, nearest point, raycast, paths between vertices) and saved again.
//!
//! Random bytes almost never carry a right CRC-32, so each input is loaded twice: as it is, and
//! with its payload length field and checksum patched to match (so the fuzzer reaches the
//! decoders of both format versions, the derived arrays' checks and the structural validation
//! behind them).

#![no_main]

#[path = "checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;
use trinav::{NavMesh, PathOptions, PathScratch, Point, RayHit};

const HEADER_LEN: usize = 28;
const TRAILER_LEN: usize = 4;

fuzz_target!(|data: &[u8]| {
    if let Ok(mesh) = NavMesh::from_bytes(data) {
        exercise(&mesh);
    }
    if data.len() >= HEADER_LEN + TRAILER_LEN {
        let mut patched = data.to_vec();
        let payload = (patched.len() - HEADER_LEN - TRAILER_LEN) as u64;
        patched[20..28].copy_from_slice(&payload.to_le_bytes());
        let body_end = patched.len() - TRAILER_LEN;
        let crc = crc32fast::hash(&patched[..body_end]);
        patched[body_end..].copy_from_slice(&crc.to_le_bytes());
        if let Ok(mesh) = NavMesh::from_bytes(&patched) {
            exercise(&mesh);
        }
    }
});

fn exercise(mesh: &NavMesh) {
    // A loaded mesh saves, and the saved bytes load into a mesh that saves the same.
    let bytes = mesh.to_bytes().expect("a loaded mesh saves");
    let again = NavMesh::from_bytes(&bytes).expect("a saved mesh loads");
    assert_eq!(again.to_bytes().expect("saves"), bytes, "save/load/save is not stable");

    let stats = mesh.stats();
    let _ = (stats.area, stats.min_angle_deg);
    let vertices = mesh.vertices();
    let n = vertices.len();
    let t = mesh.triangle_count();
    if n == 0 || t == 0 {
        return;
    }
    // A handful of vertices, triangle centroids and edge midpoints.
    let mut points: Vec<Point> = Vec::new();
    for i in [0, n / 2, n - 1] {
        points.push(vertices[i]);
    }
    for i in [0, t / 3, t - 1] {
        let [a, b, c] = mesh.triangle_points(trinav::TriangleId(i as u32));
        points.push(Point::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0));
        points.push(a.midpoint(b));
    }
    let bounds = mesh.bounds();
    points.push(Point::new(bounds.min.x - 1.0, bounds.max.y + 1.0));
    points.push(bounds.min.midpoint(bounds.max));

    for &p in &points {
        if let Some(t) = mesh.locate(p) {
            assert!(mesh.triangle_contains(t, p));
        }
        let _ = mesh.locate_all(p).count();
        let _ = mesh.nearest_point(p);
    }
    let mut scratch = PathScratch::new();
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        if let Ok(RayHit::Blocked { point, fraction, .. }) = mesh.raycast(a, b) {
            assert!((0.0..=1.0).contains(&fraction), "raycast fraction {fraction}");
            checks::assert_on_segment(a, b, point, fraction);
        }
        let _ = mesh.find_path_with(a, b, &PathOptions::default().with_snap(true), &mut scratch);
    }
    // Paths between vertices (always on the mesh): a path starts and ends at them.
    for (a, b) in [(vertices[0], vertices[n - 1]), (vertices[n / 2], vertices[0])] {
        if let Ok(path) = mesh.find_path(a, b, &mut scratch) {
            assert_eq!(path.points.first(), Some(&a));
            assert_eq!(path.points.last(), Some(if a == b { &a } else { &b }));
        }
    }
}
