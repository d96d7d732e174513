//! The baked file format (version 1); its public face is [`crate::file`].
//!
//! ```text
//! offset  size  field
//! 0       8     magic "TRINAV\r\n"
//! 8       4     format version, u32 little-endian (1)
//! 12      4     vertex count, u32 LE
//! 16      4     triangle count, u32 LE
//! 20      8     payload length in bytes, u64 LE
//! 28      n     payload: bincode 2 (standard config: little-endian, varint integers) of
//!               settings, vertices, triangles, neighbours, areas, islands
//! 28+n    4     CRC-32 (IEEE) of bytes 0..28+n, u32 LE
//! ```
//!
//! Loading checks, in order: length, magic, version, declared sizes against the file size,
//! checksum, the counts against the payload size, decoding under a memory limit proportional to
//! the payload size, then every structural rule of [`validate`](crate::validate). Encoding is
//! deterministic: the same mesh always gives the same bytes.

use std::path::Path;

use crate::Point;
use crate::ids::{AreaId, IslandId, TriangleId, VertexId};
use crate::mesh::{InvalidMesh, MeshParts, NavMesh};
use crate::settings::BakeSettings;

/// The 8 bytes every baked file starts with.
pub const MAGIC: [u8; 8] = *b"TRINAV\r\n";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 28;
/// Bytes after the payload (the checksum).
pub const TRAILER_LEN: usize = 4;
/// Fewest payload bytes one vertex can take (two f64).
const MIN_VERTEX_BYTES: u64 = 16;
/// Fewest payload bytes one triangle can take (3 vertex ids, 3 neighbours, area, island; one
/// byte each at least).
const MIN_TRIANGLE_BYTES: u64 = 8;

/// Why a baked file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read file")]
    Io(#[from] std::io::Error),
    /// Shorter than header plus checksum.
    #[error("file is {len} bytes, too short for a trinav mesh (at least {} bytes)", HEADER_LEN + TRAILER_LEN)]
    TooShort {
        /// The file length.
        len: usize,
    },
    /// Does not start with [`MAGIC`].
    #[error("not a trinav mesh file (bad magic bytes)")]
    BadMagic,
    /// Written by another format version.
    #[error("format version {found} is not supported (this build reads version {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The header declares a size the file does not have.
    #[error("file is {actual} bytes but its header declares {declared} bytes (truncated or padded)")]
    SizeMismatch {
        /// Size the header implies.
        declared: u64,
        /// Actual size.
        actual: u64,
    },
    /// The checksum does not match the contents.
    #[error("checksum mismatch (stored {stored:#010x}, computed {computed:#010x}): the file is corrupted")]
    ChecksumMismatch {
        /// The stored CRC-32.
        stored: u32,
        /// The CRC-32 of the contents.
        computed: u32,
    },
    /// The counts in the header need more bytes than the payload has (checked before
    /// decoding, so that hostile counts allocate nothing).
    #[error(
        "header counts ({vertices} vertices, {triangles} triangles) need at least {minimum} payload bytes, the payload has {payload}"
    )]
    CountsExceedPayload {
        /// Declared vertices.
        vertices: u32,
        /// Declared triangles.
        triangles: u32,
        /// Fewest bytes those counts take.
        minimum: u64,
        /// Bytes in the payload.
        payload: u64,
    },
    /// A decoded array's length differs from the count the header declares.
    #[error("the header declares {declared} {array}, the payload holds {found}")]
    CountMismatch {
        /// Which array (`vertices`, `triangles`, `neighbours`, `areas`, `islands`).
        array: &'static str,
        /// The count the header declares for it.
        declared: u32,
        /// Its length in the payload.
        found: usize,
    },
    /// The payload does not decode.
    #[error("corrupt payload")]
    Corrupt(#[source] bincode::error::DecodeError),
    /// The payload decodes but leaves bytes unread.
    #[error("corrupt payload: {0} unused bytes after it")]
    TrailingBytes(usize),
    /// The payload is larger than any mesh this build can hold in memory.
    #[error("payload of {0} bytes is too large")]
    TooLarge(usize),
    /// The payload decodes but breaks a structural rule.
    #[error(transparent)]
    Invalid(#[from] InvalidMesh),
}

/// Why a mesh could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// More vertices or triangles than a u32 count holds.
    #[error("mesh too large for format version 1 ({0} elements)")]
    TooLarge(usize),
    /// The payload encoder failed.
    #[error("cannot encode the mesh")]
    Encode(#[source] bincode::error::EncodeError),
}

#[derive(bincode::Encode, bincode::Decode)]
struct Payload {
    settings: BakeSettings,
    vertices: Vec<[f64; 2]>,
    triangles: Vec<[u32; 3]>,
    neighbours: Vec<[u32; 3]>,
    areas: Vec<u8>,
    islands: Vec<u32>,
}

/// Encodes mesh parts into the bytes of a baked file.
pub fn encode(parts: &MeshParts) -> Result<Vec<u8>, EncodeError> {
    let count = |n: usize| u32::try_from(n).map_err(|_| EncodeError::TooLarge(n));
    let (vertex_count, triangle_count) = (count(parts.vertices.len())?, count(parts.triangles.len())?);
    let payload = Payload {
        settings: parts.settings,
        vertices: parts.vertices.iter().map(|&p| p.into()).collect(),
        triangles: parts.triangles.iter().map(|t| t.map(|v| v.0)).collect(),
        neighbours: parts.neighbours.iter().map(|t| t.map(|n| n.0)).collect(),
        areas: parts.areas.iter().map(|a| a.0).collect(),
        islands: parts.islands.iter().map(|i| i.0).collect(),
    };
    let body = bincode::encode_to_vec(&payload, bincode::config::standard()).map_err(EncodeError::Encode)?;
    let mut bytes = Vec::with_capacity(HEADER_LEN + body.len() + TRAILER_LEN);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&vertex_count.to_le_bytes());
    bytes.extend_from_slice(&triangle_count.to_le_bytes());
    bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&body);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    Ok(bytes)
}

/// Decodes the bytes of a baked file into mesh parts, checking framing, checksum and sizes but
/// not the mesh structure (see [`validate`](crate::validate)).
pub fn decode(bytes: &[u8]) -> Result<MeshParts, LoadError> {
    if bytes.len() < HEADER_LEN + TRAILER_LEN {
        return Err(LoadError::TooShort { len: bytes.len() });
    }
    if bytes[..8] != MAGIC {
        return Err(LoadError::BadMagic);
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(LoadError::UnsupportedVersion { found: version, supported: FORMAT_VERSION });
    }
    let (vertices, triangles) = (u32_at(12), u32_at(16));
    let payload_len = u64::from_le_bytes(bytes[20..28].try_into().expect("8 bytes"));
    let declared = payload_len.saturating_add((HEADER_LEN + TRAILER_LEN) as u64);
    if declared != bytes.len() as u64 {
        return Err(LoadError::SizeMismatch { declared, actual: bytes.len() as u64 });
    }
    let body_end = bytes.len() - TRAILER_LEN;
    let stored = u32_at(body_end);
    let computed = crc32fast::hash(&bytes[..body_end]);
    if stored != computed {
        return Err(LoadError::ChecksumMismatch { stored, computed });
    }
    let minimum = u64::from(vertices) * MIN_VERTEX_BYTES + u64::from(triangles) * MIN_TRIANGLE_BYTES;
    if minimum > payload_len {
        return Err(LoadError::CountsExceedPayload { vertices, triangles, minimum, payload: payload_len });
    }
    let payload = decode_bounded(&bytes[HEADER_LEN..body_end])?;
    let lengths = [
        ("vertices", payload.vertices.len(), vertices),
        ("triangles", payload.triangles.len(), triangles),
        ("neighbours", payload.neighbours.len(), triangles),
        ("areas", payload.areas.len(), triangles),
        ("islands", payload.islands.len(), triangles),
    ];
    for (array, found, declared) in lengths {
        if found != declared as usize {
            return Err(LoadError::CountMismatch { array, declared, found });
        }
    }
    Ok(MeshParts {
        settings: payload.settings,
        vertices: payload.vertices.into_iter().map(Point::from).collect(),
        triangles: payload.triangles.into_iter().map(|t| t.map(VertexId)).collect(),
        neighbours: payload.neighbours.into_iter().map(|t| t.map(TriangleId)).collect(),
        areas: payload.areas.into_iter().map(AreaId).collect(),
        islands: payload.islands.into_iter().map(IslandId).collect(),
    })
}

/// Decodes the payload with bincode's allocation limit set to a small multiple of its size:
/// bincode counts the in-memory size of every container it is asked to allocate, so a hostile
/// length prefix fails instead of allocating. The limit is a const generic, so it is picked from
/// power-of-four tiers.
fn decode_bounded(body: &[u8]) -> Result<Payload, LoadError> {
    // In memory, an element takes at most 4x its smallest encoding (a 1-byte varint u32).
    let budget = (body.len() as u64).saturating_mul(4).max(1024);
    macro_rules! try_tiers {
        ($($shift:literal),*) => {
            $(
                if budget <= 1u64 << $shift {
                    return decode_with_limit::<{ 1usize << $shift }>(body);
                }
            )*
        };
    }
    try_tiers!(10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36);
    Err(LoadError::TooLarge(body.len()))
}

fn decode_with_limit<const LIMIT: usize>(body: &[u8]) -> Result<Payload, LoadError> {
    let config = bincode::config::standard().with_limit::<LIMIT>();
    let (payload, used): (Payload, usize) =
        bincode::decode_from_slice(body, config).map_err(LoadError::Corrupt)?;
    if used != body.len() {
        return Err(LoadError::TrailingBytes(body.len() - used));
    }
    Ok(payload)
}

impl NavMesh {
    /// The bytes of this mesh's baked file.
    pub fn to_bytes(&self) -> Result<Vec<u8>, EncodeError> {
        encode(self.parts())
    }

    /// Loads a mesh from the bytes of a baked file, checking everything (see [the format
    /// module](crate::format)).
    ///
    /// ```
    /// use trinav::{LoadError, NavMesh};
    /// assert!(matches!(NavMesh::from_bytes(b"not a mesh"), Err(LoadError::TooShort { .. })));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<NavMesh, LoadError> {
        Ok(NavMesh::from_parts(decode(bytes)?)?)
    }

    /// Loads a baked file.
    pub fn load(path: impl AsRef<Path>) -> Result<NavMesh, LoadError> {
        NavMesh::from_bytes(&std::fs::read(path)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::build_adjacency;

    fn square_parts() -> MeshParts {
        let triangles = vec![[0, 1, 2].map(VertexId), [0, 2, 3].map(VertexId)];
        MeshParts {
            settings: BakeSettings::default().with_agent_radius(0.25),
            vertices: vec![Point::new(0., 0.), Point::new(1., 0.), Point::new(1., 1.), Point::new(0., 1.)],
            neighbours: build_adjacency(&triangles, 4).unwrap(),
            triangles,
            areas: vec![AreaId(0); 2],
            islands: vec![IslandId(0); 2],
        }
    }

    /// Recomputes the checksum after a deliberate edit, to reach the checks behind it.
    fn reseal(bytes: &mut [u8]) {
        let end = bytes.len() - TRAILER_LEN;
        let crc = crc32fast::hash(&bytes[..end]);
        bytes[end..].copy_from_slice(&crc.to_le_bytes());
    }

    #[test]
    fn round_trip_preserves_every_array_and_is_deterministic() {
        let parts = square_parts();
        let bytes = encode(&parts).unwrap();
        assert_eq!(decode(&bytes).unwrap(), parts);
        assert_eq!(encode(&parts).unwrap(), bytes);
        assert_eq!(&bytes[..8], b"TRINAV\r\n");
    }

    #[test]
    fn every_truncation_is_refused() {
        let bytes = encode(&square_parts()).unwrap();
        for len in 0..bytes.len() {
            let err = NavMesh::from_bytes(&bytes[..len]).unwrap_err();
            assert!(
                matches!(err, LoadError::TooShort { .. } | LoadError::SizeMismatch { .. }),
                "length {len}: {err}"
            );
        }
    }

    #[test]
    fn every_single_bit_flip_is_refused() {
        let bytes = encode(&square_parts()).unwrap();
        for bit in 0..bytes.len() * 8 {
            let mut bad = bytes.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert!(NavMesh::from_bytes(&bad).is_err(), "bit {bit} flipped was accepted");
        }
    }

    #[test]
    fn wrong_version_and_magic_are_named() {
        let mut bytes = encode(&square_parts()).unwrap();
        bytes[8] = 2;
        reseal(&mut bytes);
        assert!(matches!(
            NavMesh::from_bytes(&bytes),
            Err(LoadError::UnsupportedVersion { found: 2, supported: 1 })
        ));
        bytes[0] = b'X';
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::BadMagic)));
    }

    #[test]
    fn hostile_counts_are_refused_before_decoding() {
        let mut bytes = encode(&square_parts()).unwrap();
        bytes[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        reseal(&mut bytes);
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::CountsExceedPayload { .. })));
        // A count that fits the payload but differs from the array decoded.
        let mut bytes = encode(&square_parts()).unwrap();
        bytes[16..20].copy_from_slice(&1u32.to_le_bytes());
        reseal(&mut bytes);
        let err = NavMesh::from_bytes(&bytes).unwrap_err();
        assert!(
            matches!(err, LoadError::CountMismatch { array: "triangles", declared: 1, found: 2 }),
            "{err}"
        );
    }

    #[test]
    fn hostile_length_prefix_fails_without_allocating() {
        // A payload whose vertex array claims 2^40 elements, with a valid frame and checksum.
        let mut body = bincode::encode_to_vec(BakeSettings::default(), bincode::config::standard()).unwrap();
        body.push(253); // varint marker for a u64
        body.extend_from_slice(&(1u64 << 40).to_le_bytes());
        body.resize(body.len() + 64, 0);
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes.extend_from_slice(&[0; 4]);
        reseal(&mut bytes);
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::Corrupt(_))));
    }

    #[test]
    fn structurally_invalid_payload_with_valid_checksum_is_refused() {
        let mut parts = square_parts();
        parts.neighbours[0][2] = TriangleId(0);
        let bytes = encode(&parts).unwrap();
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::Invalid(_))));
    }

    #[test]
    fn load_reads_a_file_and_names_io_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("square.nav");
        let mesh = NavMesh::from_parts(square_parts()).unwrap();
        std::fs::write(&path, mesh.to_bytes().unwrap()).unwrap();
        assert_eq!(NavMesh::load(&path).unwrap().parts(), mesh.parts());
        assert!(matches!(NavMesh::load(dir.path().join("missing.nav")), Err(LoadError::Io(_))));
    }
}
