//! A load on two threads against a load on one: a mesh of about 10,000 triangles (big enough
//! for the second thread, which builds the grid and the pockets while the first checks the
//! structure) with the input's byte changes applied to its arrays after the vertices, the
//! checksum recomputed. Both loads must give the same mesh or the same error, and neither may
//! panic (the second thread works on arrays not yet checked).
//!
//! Input: up to 16 changes of 5 bytes each (a little-endian `u32` offset into the arrays, taken
//! modulo their length, and a byte XORed in there).

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use trinav::file::{LoadOptions, TRAILER_LEN};
use trinav::{BakeSettings, NavMesh};

const HEADER_LEN: usize = 28;
/// The settings block before the vertices: radius f64, arc error f64, triangulation u8.
const SETTINGS_LEN: usize = 17;

/// The baked file and where its arrays after the vertices start.
fn base() -> &'static (Vec<u8>, usize) {
    static BASE: OnceLock<(Vec<u8>, usize)> = OnceLock::new();
    BASE.get_or_init(|| {
        let level = trinav_bake::generate::scattered_obstacles(9_000, 7);
        let baked = trinav_bake::bake(&level, &BakeSettings::default()).expect("the generated level bakes");
        assert!(baked.mesh.triangle_count() >= LoadOptions::TWO_THREADS_FROM);
        let start = HEADER_LEN + SETTINGS_LEN + 16 * baked.mesh.vertices().len();
        (baked.mesh.to_bytes().expect("encodes"), start)
    })
}

fuzz_target!(|data: &[u8]| {
    let (file, start) = base();
    let body_end = file.len() - TRAILER_LEN;
    let mut bytes = file.clone();
    for change in data.chunks_exact(5).take(16) {
        let offset = u32::from_le_bytes(change[..4].try_into().expect("4 bytes")) as usize;
        bytes[start + offset % (body_end - start)] ^= change[4];
    }
    let crc = crc32fast::hash(&bytes[..body_end]);
    bytes[body_end..].copy_from_slice(&crc.to_le_bytes());
    let one = NavMesh::from_bytes_with(&bytes, LoadOptions::default().with_threads(1));
    let two = NavMesh::from_bytes_with(&bytes, LoadOptions::default().with_threads(2));
    match (one, two) {
        (Ok(one), Ok(two)) => {
            assert_eq!(one.to_bytes().expect("saves"), two.to_bytes().expect("saves"));
            trinav::build::check_derived(&two).expect("the derived data of a load on two threads");
        }
        (Err(one), Err(two)) => assert_eq!(format!("{one:?}"), format!("{two:?}")),
        (one, two) => panic!("one thread: {:?}; two threads: {:?}", one.err(), two.err()),
    }
});
