//! The baked file format (version 5; versions 4 to 1 still load: without area names, and
//! versions 3 to 1 as meshes of one layer, the last two without links); its public face is
//! [`crate::file`].
//!
//! ```text
//! offset  size  field
//! 0       8     magic "TRINAV\r\n"
//! 8       4     format version, u32 little-endian (5)
//! 12      4     vertex count V, u32 LE
//! 16      4     triangle count T, u32 LE
//! 20      8     payload length in bytes, u64 LE: exactly 21 + 20 V + 29 T + 4 E + 4 + 41 L
//!               + 4, plus for a layered mesh Σ (4 + name bytes) + 2 T + 4 L, + 4 + Σ (5 +
//!               area name bytes)
//! 28      n     payload, fixed-width little-endian arrays, one after the other:
//!                 settings      agent radius f64, arc error f64, triangulation u8
//!                               (0 ear clipping, 1 constrained Delaunay, 2 the same by spade)
//!                 vertices      V x (x f64, y f64)
//!                 vertex order  V x u32: the vertex ids sorted by position (derived)
//!                 triangles     T x 3 vertex ids u32
//!                 neighbours    T x 3 triangle ids u32 (u32::MAX: boundary)
//!                 areas         T x u8
//!                 islands       T x u32
//!                 edge count E  u32
//!                 edges         E x u32: one half edge `3 t + i` (edge i of triangle t) per
//!                               edge, sorted by its two vertex ids, lower first (derived)
//!                 -- version 3: off-mesh links (version 2 ends above) --
//!                 link count L  u32
//!                 links         L x (from x f64, from y f64, to x f64, to y f64, cost f64,
//!                               flags u8: bit 0 bidirectional, the other bits 0)
//!                 -- version 4: layers (version 3 ends above) --
//!                 layer count N u32: 0 for a mesh of one layer (nothing follows), else
//!                 names         N x (length u32, UTF-8 bytes): unique, not empty
//!                 layers        T x u16: the layer of each triangle
//!                 link layers   L x (from layer u16, to layer u16)
//!                 -- version 5: area names (version 4 ends above) --
//!                 name count A  u32 (at most 63)
//!                 area names    A x (area type u8, length u32, UTF-8 bytes), by name: the
//!                               rules of [`crate::AreaNames`]
//! 28+n    4     CRC-32 (IEEE) of bytes 0..28+n, u32 LE
//! ```
//!
//! Loading checks, in order: length, magic, version, declared sizes against the file size,
//! checksum, the payload length against the counts (every array has a fixed size, so nothing is
//! allocated that the file does not hold), then every structural rule of
//! [`MeshParts::find_problems`](crate::build::MeshParts::find_problems). Encoding is deterministic: the same mesh always gives the
//! same bytes.
//!
//! The two derived arrays make two of those rules cheap to check. Vertex order: when it is a
//! permutation along which the positions strictly increase, no two vertices coincide (a linear
//! scan instead of a sort). Edges: an edge is an interior edge seen from both sides (its two
//! half edges linked to each other) or a boundary half edge; when the list names as many
//! edges as the links imply and the vertex pairs strictly increase along it, no two edges join
//! the same two vertices, so (with the links checked symmetric) the stored adjacency is the one
//! the triangles imply, without rebuilding it. A file whose derived arrays do not prove this is
//! checked the slow way and, if its mesh is valid, refused as corrupt.
//!
//! Each version adds one block at the end of the payload: a reader of version N reads the
//! blocks of every version up to N. The links are checked like [`NavMesh::add_link`] checks
//! them (ends on the walkable area, cost finite and `>= 0`); a bad one refuses the file.
//!
//! In a layered mesh, vertices of different layers may coincide, so the vertex order proves
//! nothing there: its vertices are checked distinct within each layer by a hash pass instead
//! (see [`crate::layers`]). Version 3 (no layers block) loads as a mesh of one layer.
//! Version 2 (no links block) loads as a mesh without links. Version 1 (the same header; the payload was bincode 2 with varint integers, decoded under an
//! allocation limit proportional to its size) still loads, through the same checks. Any other
//! version is refused with [`LoadError::UnsupportedVersion`], which asks for a re-bake.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::geometry::Point;
use crate::ids::{AreaId, IslandId, TriangleId, VertexId};
use crate::layers::{LayerId, LayerTable, MAX_LAYERS, layered_problems};
use crate::links::OffMeshLink;
use crate::mesh::{
    CornersAndIslands, GridAndPockets, InvalidMesh, MeshParts, NavMesh, Proven, find_problems_with,
    position_key, quick_check,
};
use crate::settings::{BakeSettings, Triangulation};

/// The 8 bytes every baked file starts with.
pub const MAGIC: [u8; 8] = *b"TRINAV\r\n";
/// The format version this build writes (it reads this one and version 1).
pub const FORMAT_VERSION: u32 = 5;
/// The older format versions this build still reads.
const VERSION_1: u32 = 1;
const VERSION_2: u32 = 2;
const VERSION_3: u32 = 3;
const VERSION_4: u32 = 4;
/// Payload bytes of one off-mesh link (version 3).
const LINK_BYTES: u64 = 41;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 28;
/// Bytes after the payload (the checksum).
pub const TRAILER_LEN: usize = 4;
/// Fewest payload bytes one vertex can take (two f64), in both versions.
const MIN_VERTEX_BYTES: u64 = 16;
/// Fewest payload bytes one triangle can take in version 1 (3 vertex ids, 3 neighbours, area,
/// island; one byte each at least).
const MIN_TRIANGLE_BYTES_V1: u64 = 8;
/// Payload bytes of the settings and the edge count in version 2.
const FIXED_BYTES: u64 = 21;
/// Payload bytes of one vertex in version 2 (position and its place in the vertex order).
const VERTEX_BYTES: u64 = 20;
/// Payload bytes of one triangle in version 2 (3 vertex ids, 3 neighbours, area, island).
const TRIANGLE_BYTES: u64 = 29;

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
    #[error(
        "format version {found} is not supported (this build reads versions 1 to {supported}): re-bake the mesh with this version of trinav"
    )]
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
    /// The counts in the header need another payload length than the payload has (checked
    /// before decoding, so that hostile counts allocate nothing): at least `needed` bytes in
    /// version 1, exactly `needed` in version 2.
    #[error(
        "header counts ({vertices} vertices, {triangles} triangles{}) need {} {needed} payload bytes, the payload has {payload}",
        .edges.map(|e| format!(", {e} edges")).unwrap_or_default(),
        if .edges.is_some() { "exactly" } else { "at least" }
    )]
    PayloadLength {
        /// Declared vertices.
        vertices: u32,
        /// Declared triangles.
        triangles: u32,
        /// Declared edges (version 2).
        edges: Option<u32>,
        /// The payload bytes those counts take.
        needed: u64,
        /// Bytes in the payload.
        payload: u64,
    },
    /// A decoded array's length differs from the count the header declares (version 1).
    #[error("the header declares {declared} {array}, the payload holds {found}")]
    CountMismatch {
        /// Which array (`vertices`, `triangles`, `neighbours`, `areas`, `islands`).
        array: &'static str,
        /// The count the header declares for it.
        declared: u32,
        /// Its length in the payload.
        found: usize,
    },
    /// A version 1 payload does not decode.
    #[error("corrupt payload")]
    Corrupt(#[source] bincode::error::DecodeError),
    /// A version 1 payload decodes but leaves bytes unread.
    #[error("corrupt payload: {0} unused bytes after it")]
    TrailingBytes(usize),
    /// A version 1 payload is larger than any mesh this build can hold in memory.
    #[error("payload of {0} bytes is too large")]
    TooLarge(usize),
    /// The stored triangulation method is not one this build knows.
    #[error("corrupt payload: unknown triangulation method {0}")]
    UnknownTriangulation(u8),
    /// The mesh is valid but its stored vertex order or edge list does not match it: the file
    /// was not written by trinav's encoder.
    #[error("corrupt payload: the stored vertex order or edge list does not match the mesh")]
    DerivedMismatch,
    /// A stored off-mesh link (numbered from 0 in the file) is not valid on the mesh.
    #[error("off-mesh link {index}: {error}")]
    BadLink {
        /// Its place in the file.
        index: usize,
        /// What is wrong.
        error: crate::links::LinkError,
    },
    /// The flags byte of a stored link has bits this build does not know.
    #[error("corrupt payload: off-mesh link {index} has unknown flags {flags:#04x}")]
    UnknownLinkFlags {
        /// Its place in the file.
        index: usize,
        /// The flags byte.
        flags: u8,
    },
    /// The layers block (version 4) is malformed.
    #[error("corrupt payload: layers block: {0}")]
    BadLayers(&'static str),
    /// The area names block (version 5) is malformed.
    #[error("corrupt payload: area names block: {0}")]
    BadAreaNamesBlock(&'static str),
    /// The area names block (version 5) holds a name the rules refuse.
    #[error("corrupt payload: {0}")]
    BadAreaName(#[from] crate::BadAreaName),
    /// The payload decodes but breaks a structural rule.
    #[error(transparent)]
    Invalid(#[from] InvalidMesh),
}

/// Why a mesh could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// An array's length differs from the triangle count (parts that never came from a valid
    /// mesh): a file stores one entry per triangle.
    #[error("{array} has {found} entries for {triangles} triangles")]
    ArrayLength {
        /// Which array.
        array: &'static str,
        /// Its length.
        found: usize,
        /// The triangle count.
        triangles: usize,
    },
    /// More vertices or triangles than a u32 count holds.
    #[error("mesh too large for the file format ({0} elements; at most u32::MAX - 1 of each kind)")]
    TooLarge(usize),
}

/// The version 1 payload (bincode 2, standard config).
#[derive(bincode::Decode)]
struct PayloadV1 {
    settings: BakeSettings,
    vertices: Vec<[f64; 2]>,
    triangles: Vec<[u32; 3]>,
    neighbours: Vec<[u32; 3]>,
    areas: Vec<u8>,
    islands: Vec<u32>,
}

/// Encodes mesh parts into the bytes of a baked file (the current version), without off-mesh
/// links ([`NavMesh::to_bytes`] stores the mesh's links too).
pub fn encode(parts: &MeshParts) -> Result<Vec<u8>, EncodeError> {
    encode_with_links(parts, &[], None, &crate::AreaNames::default())
}

/// Encodes mesh parts, off-mesh links, the layer table of a layered mesh and the names of the
/// area types into the bytes of a baked file.
fn encode_with_links(
    parts: &MeshParts,
    links: &[OffMeshLink],
    layers: Option<&LayerTable>,
    area_names: &crate::AreaNames,
) -> Result<Vec<u8>, EncodeError> {
    let count = |n: usize| u32::try_from(n).ok().filter(|&c| c != u32::MAX).ok_or(EncodeError::TooLarge(n));
    let (vertex_count, triangle_count) = (count(parts.vertices.len())?, count(parts.triangles.len())?);
    let t = parts.triangles.len();
    for (array, found) in parts.per_triangle_lengths() {
        if found != t {
            // Fixed-width arrays take their lengths from the triangle count.
            return Err(EncodeError::ArrayLength { array, found, triangles: t });
        }
    }
    let vertex_order = vertex_order(&parts.vertices);
    let edges = edge_order(&parts.triangles, &parts.neighbours);
    let link_count = count(links.len())?;
    if let Some(table) = layers
        && table.triangles.len() != t
    {
        return Err(EncodeError::ArrayLength { array: "layers", found: table.triangles.len(), triangles: t });
    }
    let layers_len = layers.map_or(4, |table| {
        4 + table.names.iter().map(|n| 4 + n.len() as u64).sum::<u64>()
            + 2 * t as u64
            + 4 * links.len() as u64
    });
    let names_len = 4 + area_names.iter().map(|(name, _)| 5 + name.len() as u64).sum::<u64>();
    let payload_len = v2_payload_len(vertex_count, triangle_count, edges.len() as u32)
        + links_block_len(link_count)
        + layers_len
        + names_len;
    let mut bytes = Vec::with_capacity(HEADER_LEN + payload_len as usize + TRAILER_LEN);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&vertex_count.to_le_bytes());
    bytes.extend_from_slice(&triangle_count.to_le_bytes());
    bytes.extend_from_slice(&payload_len.to_le_bytes());
    let settings = &parts.settings;
    bytes.extend_from_slice(&settings.agent_radius.to_le_bytes());
    bytes.extend_from_slice(&settings.arc_error.to_le_bytes());
    bytes.push(match settings.triangulation {
        Triangulation::EarClipping => 0,
        Triangulation::ConstrainedDelaunay => 1,
        Triangulation::ConstrainedDelaunaySpade => 2,
    });
    put(&mut bytes, &parts.vertices, |p| {
        let mut b = [0; 16];
        b[..8].copy_from_slice(&p.x.to_le_bytes());
        b[8..].copy_from_slice(&p.y.to_le_bytes());
        b
    });
    put(&mut bytes, &vertex_order, |v| v.to_le_bytes());
    put(&mut bytes, &parts.triangles, |t| three_words(t.map(|v| v.0)));
    put(&mut bytes, &parts.neighbours, |t| three_words(t.map(|n| n.0)));
    bytes.extend(parts.areas.iter().map(|a| a.0));
    put(&mut bytes, &parts.islands, |i| i.0.to_le_bytes());
    bytes.extend_from_slice(&(edges.len() as u32).to_le_bytes());
    put(&mut bytes, &edges, |h| h.to_le_bytes());
    // Version 3: the links block.
    bytes.extend_from_slice(&link_count.to_le_bytes());
    for link in links {
        for v in [link.from.x, link.from.y, link.to.x, link.to.y, link.cost] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.push(u8::from(link.bidirectional));
    }
    // Version 4: the layers block.
    match layers {
        None => bytes.extend_from_slice(&0u32.to_le_bytes()),
        Some(table) => {
            bytes.extend_from_slice(&count(table.names.len())?.to_le_bytes());
            for name in &table.names {
                bytes.extend_from_slice(&count(name.len())?.to_le_bytes());
                bytes.extend_from_slice(name.as_bytes());
            }
            for layer in &table.triangles {
                bytes.extend_from_slice(&layer.0.to_le_bytes());
            }
            for link in links {
                bytes.extend_from_slice(&link.from_layer.0.to_le_bytes());
                bytes.extend_from_slice(&link.to_layer.0.to_le_bytes());
            }
        }
    }
    // Version 5: the area names block.
    bytes.extend_from_slice(&(area_names.len() as u32).to_le_bytes());
    for (name, area) in area_names.iter() {
        bytes.push(area.0);
        bytes.extend_from_slice(&count(name.len())?.to_le_bytes());
        bytes.extend_from_slice(name.as_bytes());
    }
    debug_assert_eq!(bytes.len(), HEADER_LEN + payload_len as usize);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    Ok(bytes)
}

/// Appends `encode` of each of `items` to `bytes` (written in place, not pushed one by one).
fn put<T, const N: usize>(bytes: &mut Vec<u8>, items: &[T], encode: impl Fn(&T) -> [u8; N]) {
    let start = bytes.len();
    bytes.resize(start + N * items.len(), 0);
    for (slot, item) in bytes[start..].chunks_exact_mut(N).zip(items) {
        slot.copy_from_slice(&encode(item));
    }
}

/// Three `u32` as little-endian bytes.
fn three_words([a, b, c]: [u32; 3]) -> [u8; 12] {
    let mut bytes = [0; 12];
    bytes[..4].copy_from_slice(&a.to_le_bytes());
    bytes[4..8].copy_from_slice(&b.to_le_bytes());
    bytes[8..].copy_from_slice(&c.to_le_bytes());
    bytes
}

/// The payload length of a version 2 file with these counts.
fn v2_payload_len(vertices: u32, triangles: u32, edges: u32) -> u64 {
    FIXED_BYTES
        + u64::from(vertices) * VERTEX_BYTES
        + u64::from(triangles) * TRIANGLE_BYTES
        + 4 * u64::from(edges)
}

/// The payload bytes of the links block (version 3) for `links` links.
fn links_block_len(links: u32) -> u64 {
    4 + LINK_BYTES * u64::from(links)
}

/// Decodes the bytes of a baked file (version 5 to 1) into mesh parts, checking framing,
/// checksum and sizes but not the mesh structure (see [`MeshParts::find_problems`](crate::build::MeshParts::find_problems)). The
/// off-mesh links of a version 3 file are not part of the mesh parts: [`NavMesh::from_bytes`]
/// reads them.
pub fn decode(bytes: &[u8]) -> Result<MeshParts, LoadError> {
    Ok(decode_with_derived(bytes, &mut Laps(None))?.0)
}

/// What a version 2 or 3 file holds beside the mesh parts: the derived arrays (see the
/// module doc) and the links.
struct Derived<'a> {
    /// The stored vertex order, read in place (little-endian `u32`s, never copied).
    vertex_order: &'a [[u8; 4]],
    /// The stored edge list, read in place.
    edges: &'a [[u8; 4]],
    links: Vec<OffMeshLink>,
    /// The layer table of a layered mesh (version 4).
    layers: Option<LayerTable>,
    /// The names of the area types (version 5).
    area_names: crate::AreaNames,
}

/// Time spent in each step of loading a file (see [`load_timed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LoadTimes {
    /// Header checks and the CRC-32 of the whole file.
    pub checksum: Duration,
    /// Decoding the payload into arrays.
    pub decode: Duration,
    /// Checking the derived arrays and every structural rule (on two threads, also deriving
    /// what queries need, beside the checks: see [`LoadOptions`]).
    pub checks: Duration,
    /// Deriving what queries need: bounds, the point-location grid, turning corners, pockets
    /// (on two threads, only what the checks did not derive beside them).
    pub derived: Duration,
}

/// Splits a load into its steps: each `lap` adds the time since the last one to a slot of the
/// [`LoadTimes`], or does nothing (not even read the clock) when no times are wanted.
struct Laps<'a>(Option<(&'a mut LoadTimes, Instant)>);

impl Laps<'_> {
    fn lap(&mut self, slot: fn(&mut LoadTimes) -> &mut Duration) {
        if let Some((times, last)) = &mut self.0 {
            let now = Instant::now();
            *slot(times) += now - *last;
            *last = now;
        }
    }
}

/// Loads a mesh from the bytes of a baked file, as [`NavMesh::from_bytes`] does, and reports
/// the time each step took (for profiling; the load bench prints this split).
///
/// ```
/// use trinav::file::load_timed;
/// let (result, times) = load_timed(b"not a mesh");
/// assert!(result.is_err());
/// assert!(times.decode.is_zero());
/// ```
pub fn load_timed(bytes: &[u8]) -> (Result<NavMesh, LoadError>, LoadTimes) {
    load_timed_with(bytes, LoadOptions::default())
}

/// [`load_timed`] with [`LoadOptions`] (on two threads, the derived data is built beside the
/// checks and its time is part of theirs; on one, the split is checks, then derived data).
pub fn load_timed_with(bytes: &[u8], options: LoadOptions) -> (Result<NavMesh, LoadError>, LoadTimes) {
    let mut times = LoadTimes::default();
    let result = load(bytes, Laps(Some((&mut times, Instant::now()))), options);
    (result, times)
}

/// How a file is loaded ([`NavMesh::from_bytes_with`]): on how many threads.
///
/// By default a load may use two threads: meshes of at least
/// [`LoadOptions::TWO_THREADS_FROM`] triangles, on a machine with two cores or more, build
/// their point-location grid and pockets on a thread of trinav's own pool (started at the
/// first such load, asleep between loads) while the caller's thread checks the structure and
/// finds the turning corners (the Aurora mesh, 34,816 triangles: about 1.8 ms instead of 4.2).
/// `with_threads(1)` keeps everything on the caller's thread (a game's own worker pool, say);
/// the mesh is the same either way.
///
/// ```
/// use trinav::NavMesh;
/// use trinav::file::LoadOptions;
/// let bytes = include_bytes!("../tests/fixtures/courtyard_cdt.nav");
/// let one = NavMesh::from_bytes_with(bytes, LoadOptions::default().with_threads(1))?;
/// let two = NavMesh::from_bytes_with(bytes, LoadOptions::default().with_threads(2))?;
/// assert_eq!(one.to_bytes()?, two.to_bytes()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    threads: usize,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions { threads: 2 }
    }
}

impl LoadOptions {
    /// The fewest triangles for which a load takes two threads (below, handing the work over
    /// costs more than it saves).
    pub const TWO_THREADS_FROM: usize = 8_192;

    /// At most `threads` threads: 1 (or 0) keeps the load on the caller's thread, 2 or more
    /// allows the second one (a load uses at most two).
    pub fn with_threads(self, threads: usize) -> Self {
        LoadOptions { threads: threads.clamp(1, 2) }
    }

    /// The most threads a load may use (1 or 2).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether a mesh of `triangles` triangles is loaded on two threads.
    fn two_threads_for(&self, triangles: usize) -> bool {
        self.threads >= 2 && triangles >= Self::TWO_THREADS_FROM && crate::parallel::two_threads_available()
    }
}

/// Loads a mesh: decode, check the derived arrays (version 2), validate, derive.
fn load(bytes: &[u8], mut laps: Laps, options: LoadOptions) -> Result<NavMesh, LoadError> {
    let (parts, mut derived) = decode_with_derived(bytes, &mut laps)?;
    laps.lap(|t| &mut t.decode);
    let two_threads = options.two_threads_for(parts.triangles.len());
    // This thread proves the edges manifold and the vertices distinct (one layer), runs the
    // checks (the quick ones, or for a layered mesh all of them, naming the problems) and, when
    // they pass, finds the turning corners; a pool thread builds the grid and the pockets,
    // which cope with any input (all on this thread when `two_threads` is false). What was
    // derived is kept only when every check passed. On one thread, nothing is derived before
    // the checks pass.
    let ((manifold_edges, distinct_vertices, quick, layer_problems, corners), grid_and_pockets) =
        crate::parallel::join(
            two_threads,
            || {
                let Some(derived) = &derived else { return (false, false, false, None, None) };
                let manifold = proves_manifold_edges(&parts.triangles, &parts.neighbours, derived.edges);
                let distinct = derived.layers.is_none()
                    && proves_distinct_vertices(&parts.vertices, derived.vertex_order);
                let (quick, layer_problems) = match &derived.layers {
                    None => (manifold && distinct && quick_check(&parts), None),
                    Some(table) => {
                        // Vertices may coincide across layers: distinct within each layer,
                        // checked by hashing.
                        let proven = Proven { distinct_vertices: false, manifold_edges: manifold };
                        let problems = layered_problems(&parts, table, proven);
                        (manifold && problems.is_empty(), Some(problems))
                    }
                };
                let corners = (two_threads && quick).then(|| CornersAndIslands::derive(&parts));
                (manifold, distinct, quick, layer_problems, corners)
            },
            || (two_threads && derived.is_some()).then(|| GridAndPockets::derive(&parts)),
        );
    let proven = Proven { distinct_vertices, manifold_edges };
    if let Some(table) = derived.as_mut().and_then(|d| d.layers.take()) {
        let problems = layer_problems.expect("a layered mesh's checks ran on the first thread");
        if !problems.is_empty() {
            return Err(InvalidMesh { problems }.into());
        }
        if !proven.manifold_edges {
            return Err(LoadError::DerivedMismatch);
        }
        laps.lap(|t| &mut t.checks);
        let mut mesh = match (grid_and_pockets, corners) {
            (Some(grid_and_pockets), Some(corners)) => NavMesh::assemble(parts, grid_and_pockets, corners),
            _ => NavMesh::derive(parts),
        }
        .with_layers(table);
        keep_stored(&mut mesh, derived)?;
        laps.lap(|t| &mut t.derived);
        return Ok(mesh);
    }
    let proven_both = proven.distinct_vertices && proven.manifold_edges;
    if !(proven_both && quick) {
        // The slow checks name the problems (or find none: then the derived arrays are wrong).
        let problems = find_problems_with(&parts, proven);
        if !problems.is_empty() {
            return Err(InvalidMesh { problems }.into());
        }
        if derived.is_some() && !proven_both {
            // The slow checks passed: a valid mesh with wrong derived arrays was not written by
            // `encode`.
            return Err(LoadError::DerivedMismatch);
        }
    }
    laps.lap(|t| &mut t.checks);
    let mut mesh = match (grid_and_pockets, corners) {
        (Some(grid_and_pockets), Some(corners)) if proven_both => {
            NavMesh::assemble(parts, grid_and_pockets, corners)
        }
        _ => NavMesh::derive(parts),
    };
    keep_stored(&mut mesh, derived)?;
    laps.lap(|t| &mut t.derived);
    Ok(mesh)
}

/// Gives a loaded mesh what its file stores beside the triangles (a version 2 file's or
/// later's `derived`): its links, refusing the first bad one, and its area names.
fn keep_stored(mesh: &mut NavMesh, derived: Option<Derived>) -> Result<(), LoadError> {
    let Some(derived) = derived else { return Ok(()) };
    for (index, &link) in derived.links.iter().enumerate() {
        mesh.add_link(link).map_err(|error| LoadError::BadLink { index, error })?;
    }
    mesh.area_names = derived.area_names;
    Ok(())
}

/// The length of the layers block (version 4) starting at `block`, for `triangles` triangles
/// and `links` links, reading only the counts and name lengths it holds (each within `block`).
fn layers_block_len(block: &[u8], triangles: u32, links: u32) -> Result<u64, LoadError> {
    let names = u32_in(block, 0).ok_or(LoadError::BadLayers("truncated"))?;
    if names == 0 {
        return Ok(4);
    }
    if names as usize > MAX_LAYERS {
        return Err(LoadError::BadLayers("more layers than a mesh may have"));
    }
    let end = names_end(block, names, 0).ok_or(LoadError::BadLayers("truncated"))?;
    Ok(end as u64 + 2 * u64::from(triangles) + 4 * u64::from(links))
}

/// The length of the area names block (version 5) starting at `block`, reading only the count
/// and name lengths it holds (each within `block`).
fn area_names_block_len(block: &[u8]) -> Result<u64, LoadError> {
    let names = u32_in(block, 0).ok_or(LoadError::BadAreaNamesBlock("truncated"))?;
    if names as usize >= AreaId::COUNT {
        return Err(LoadError::BadAreaNamesBlock("more names than area types"));
    }
    let end = names_end(block, names, 1).ok_or(LoadError::BadAreaNamesBlock("truncated"))?;
    Ok(end as u64)
}

/// Where `count` names that follow a block's u32 count end (each `prefix` bytes, then its
/// length u32 and its bytes), or `None` when one runs past the end of `block`.
fn names_end(block: &[u8], count: u32, prefix: usize) -> Option<usize> {
    let mut at = 4usize;
    for _ in 0..count {
        let len = u32_in(block, at.saturating_add(prefix))? as usize;
        at = at.saturating_add(prefix + 4).saturating_add(len);
        if at > block.len() {
            return None;
        }
    }
    Some(at)
}

/// The little-endian u32 at `at` in `block`, if it lies within.
fn u32_in(block: &[u8], at: usize) -> Option<u32> {
    let b = block.get(at..at.saturating_add(4))?;
    Some(u32::from_le_bytes(b.try_into().expect("4 bytes")))
}

/// [`decode`], also returning the derived arrays of a version 2 file.
fn decode_with_derived<'a>(
    bytes: &'a [u8],
    laps: &mut Laps,
) -> Result<(MeshParts, Option<Derived<'a>>), LoadError> {
    if bytes.len() < HEADER_LEN + TRAILER_LEN {
        return Err(LoadError::TooShort { len: bytes.len() });
    }
    if bytes[..8] != MAGIC {
        return Err(LoadError::BadMagic);
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if !(VERSION_1..=FORMAT_VERSION).contains(&version) {
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
    laps.lap(|t| &mut t.checksum);
    let body = &bytes[HEADER_LEN..body_end];
    if version == VERSION_1 {
        return Ok((decode_v1(body, vertices, triangles)?, None));
    }
    let without_edges = v2_payload_len(vertices, triangles, 0);
    let edges_at = (without_edges - 4) as usize;
    let edge_count = match body.get(edges_at..edges_at + 4) {
        Some(b) => u32::from_le_bytes(b.try_into().expect("4 bytes")),
        None => u32::MAX,
    };
    let mut expected = v2_payload_len(vertices, triangles, edge_count);
    let mut link_count = 0;
    if version > VERSION_2 && body.len() >= edges_at + 4 {
        // The links block follows the edges.
        let at = usize::try_from(expected).unwrap_or(usize::MAX);
        link_count = match body.get(at..at.saturating_add(4)) {
            Some(b) => u32::from_le_bytes(b.try_into().expect("4 bytes")),
            None => u32::MAX,
        };
        expected += links_block_len(link_count);
    }
    if version > VERSION_3 && body.len() >= edges_at + 4 && expected <= payload_len {
        // The layers block follows the links.
        let at = usize::try_from(expected).unwrap_or(usize::MAX);
        expected += layers_block_len(body.get(at..).unwrap_or(&[]), triangles, link_count)?;
    }
    if version > VERSION_4 && body.len() >= edges_at + 4 && expected <= payload_len {
        // The area names block follows the layers.
        let at = usize::try_from(expected).unwrap_or(usize::MAX);
        expected += area_names_block_len(body.get(at..).unwrap_or(&[]))?;
    }
    if body.len() < edges_at + 4 || expected != payload_len {
        let edges = Some(edge_count);
        return Err(LoadError::PayloadLength {
            vertices,
            triangles,
            edges,
            needed: expected,
            payload: payload_len,
        });
    }
    let mut reader = Reader { rest: body };
    let settings = BakeSettings::default()
        .with_agent_radius(reader.f64())
        .with_arc_error(reader.f64())
        .with_triangulation(match reader.take::<1>()[0] {
            0 => Triangulation::EarClipping,
            1 => Triangulation::ConstrainedDelaunay,
            2 => Triangulation::ConstrainedDelaunaySpade,
            tag => return Err(LoadError::UnknownTriangulation(tag)),
        });
    let (v, t) = (vertices as usize, triangles as usize);
    let vertices = reader.array(v, |b: [u8; 16]| Point::new(le_f64(&b, 0), le_f64(&b, 8)));
    let vertex_order = reader.words(v);
    let triangles = reader.array(t, |b: [u8; 12]| [0, 4, 8].map(|at| VertexId(le_u32(&b, at))));
    let neighbours = reader.array(t, |b: [u8; 12]| [0, 4, 8].map(|at| TriangleId(le_u32(&b, at))));
    let areas = reader.array(t, |[a]: [u8; 1]| AreaId(a));
    let islands = reader.array(t, |b| IslandId(u32::from_le_bytes(b)));
    reader.u32(); // the edge count, read above
    let edges = reader.words(edge_count as usize);
    let mut links = Vec::new();
    if version > VERSION_2 {
        reader.u32(); // the link count, read above
        links.reserve_exact(link_count as usize);
        for index in 0..link_count as usize {
            let [fx, fy, tx, ty, cost] = [(); 5].map(|()| reader.f64());
            let flags = reader.take::<1>()[0];
            if flags > 1 {
                return Err(LoadError::UnknownLinkFlags { index, flags });
            }
            let link = OffMeshLink::new(Point::new(fx, fy), Point::new(tx, ty));
            links.push(link.with_cost(cost).with_bidirectional(flags == 1));
        }
    }
    let mut layers = None;
    if version > VERSION_3 {
        let count = reader.u32() as usize;
        if count > 0 {
            let mut names = Vec::with_capacity(count);
            for _ in 0..count {
                let len = reader.u32() as usize;
                let (name, rest) = reader.rest.split_at(len);
                reader.rest = rest;
                let name =
                    std::str::from_utf8(name).map_err(|_| LoadError::BadLayers("a name is not UTF-8"))?;
                names.push(name.to_string());
            }
            let triangles = reader.array(t, |b| LayerId(u16::from_le_bytes(b)));
            for link in &mut links {
                let [from, to] = [(); 2].map(|()| LayerId(u16::from_le_bytes(reader.take())));
                *link = link.with_layers(from, to);
            }
            layers = Some(LayerTable { names, triangles });
        }
    }
    let mut area_names = crate::AreaNames::default();
    if version > VERSION_4 {
        let count = reader.u32() as usize;
        let mut names = Vec::with_capacity(count);
        for _ in 0..count {
            let area = AreaId(reader.take::<1>()[0]);
            let len = reader.u32() as usize;
            let (name, rest) = reader.rest.split_at(len);
            reader.rest = rest;
            let name =
                std::str::from_utf8(name).map_err(|_| LoadError::BadAreaNamesBlock("a name is not UTF-8"))?;
            names.push((name.to_string(), area));
        }
        area_names = crate::AreaNames::new(names)?;
    }
    debug_assert!(reader.rest.is_empty());
    let parts = MeshParts { settings, vertices, triangles, neighbours, areas, islands };
    Ok((parts, Some(Derived { vertex_order, edges, links, layers, area_names })))
}

/// The vertex ids sorted by position ([`position_key`] order).
fn vertex_order(vertices: &[Point]) -> Vec<u32> {
    let keys: Vec<(u64, u64)> = vertices.iter().map(|&p| position_key(p)).collect();
    let (mut any, mut all) = ((0u64, 0u64), (u64::MAX, u64::MAX));
    for &(x, y) in &keys {
        (any.0, any.1, all.0, all.1) = (any.0 | x, any.1 | y, all.0 & x, all.1 & y);
    }
    // Least significant byte first, y then x: each pass is stable, so the order ends sorted by
    // (x, y) with equal keys in id order. Bytes equal in every key are skipped (a grid map's
    // integer coordinates vary in three bytes of the eight).
    let mut order: Vec<u32> = (0..vertices.len() as u32).collect();
    let mut spare = vec![0u32; order.len()];
    for (coordinate, varying) in [(1, any.1 ^ all.1), (0, any.0 ^ all.0)] {
        for byte in 0..8 {
            if varying >> (8 * byte) & 0xff == 0 {
                continue;
            }
            let digit = |v: u32| {
                let (x, y) = keys[v as usize];
                (if coordinate == 0 { x } else { y } >> (8 * byte) & 0xff) as usize
            };
            counting_pass(&order, &mut spare, 256, digit);
            std::mem::swap(&mut order, &mut spare);
        }
    }
    order
}

/// One stable pass of a counting sort: `from` into `to` ordered by `digit` (below `buckets`).
fn counting_pass(from: &[u32], to: &mut [u32], buckets: usize, digit: impl Fn(u32) -> usize) {
    let mut next = vec![0u32; buckets + 1];
    for &x in from {
        next[digit(x) + 1] += 1;
    }
    for d in 0..buckets {
        next[d + 1] += next[d];
    }
    for &x in from {
        let slot = &mut next[digit(x)];
        to[*slot as usize] = x;
        *slot += 1;
    }
}

/// Whether `order` is a permutation of the vertex ids along which the positions strictly
/// increase: then no two vertices coincide. Linear, for any input.
fn proves_distinct_vertices(vertices: &[Point], order: &[[u8; 4]]) -> bool {
    if order.len() != vertices.len() {
        return false;
    }
    // One bit per vertex; the test below runs without a data-dependent branch.
    let mut seen = vec![0u64; vertices.len().div_ceil(64)];
    let mut previous = (0u64, 0u64);
    let mut ok = true;
    for (i, &word) in order.iter().enumerate() {
        let v = u32::from_le_bytes(word) as usize;
        let in_range = v < vertices.len();
        let v = if in_range { v } else { 0 };
        let key = position_key(vertices[v]);
        let (slot, bit) = (&mut seen[v / 64], 1u64 << (v % 64));
        let fresh = *slot & bit == 0;
        *slot |= bit;
        ok &= in_range & fresh & (i == 0 || previous < key);
        previous = key;
    }
    ok
}

/// The two vertex ids of half edge `h`, lower first, packed (`None` when `h` is out of range).
fn edge_key(triangles: &[[VertexId; 3]], h: u32) -> Option<u64> {
    let (t, i) = (h as usize / 3, h as usize % 3);
    let tri = triangles.get(t)?;
    let (a, b) = (tri[i].0, tri[(i + 1) % 3].0);
    Some(u64::from(a.min(b)) << 32 | u64::from(a.max(b)))
}

/// One half edge per edge (an interior edge by its half edge running from the lower vertex id
/// to the higher, a boundary edge by itself), sorted by [`edge_key`].
fn edge_order(triangles: &[[VertexId; 3]], neighbours: &[[TriangleId; 3]]) -> Vec<u32> {
    let mut edges: Vec<(u64, u32)> = Vec::with_capacity(triangles.len() * 2);
    for (t, (tri, links)) in triangles.iter().zip(neighbours).enumerate() {
        for i in 0..3 {
            if links[i].is_none() || tri[i] < tri[(i + 1) % 3] {
                let h = (3 * t + i) as u32;
                edges.push((edge_key(triangles, h).expect("in range"), h));
            }
        }
    }
    let vertex_count = triangles.iter().flatten().map(|v| v.index() + 1).max().unwrap_or(0);
    if vertex_count > 4 * edges.len() + 1024 {
        // Ids far beyond the mesh's size (parts that are not a valid mesh): sort by comparison.
        edges.sort_unstable();
        return edges.into_iter().map(|(_, h)| h).collect();
    }
    // Two stable counting passes over the positions in `edges` (ascending half edges), by the
    // higher vertex id then by the lower: sorted by (key, half edge) like the comparison sort,
    // in linear time.
    let (mut order, mut spare): (Vec<u32>, Vec<u32>) =
        ((0..edges.len() as u32).collect(), vec![0; edges.len()]);
    let key = |e: u32| edges[e as usize].0;
    counting_pass(&order, &mut spare, vertex_count, |e| (key(e) & u64::from(u32::MAX)) as usize);
    counting_pass(&spare, &mut order, vertex_count, |e| (key(e) >> 32) as usize);
    order.into_iter().map(|e| edges[e as usize].1).collect()
}

/// Whether `edges` names as many edges as the links imply (a boundary half edge is one, two
/// linked half edges are one) with strictly increasing vertex pairs. With every link checked
/// symmetric, each edge is then named once and no two edges join the same two vertices (see the
/// module doc). Linear, for any input.
fn proves_manifold_edges(
    triangles: &[[VertexId; 3]],
    neighbours: &[[TriangleId; 3]],
    edges: &[[u8; 4]],
) -> bool {
    let boundary: usize = neighbours.iter().flatten().map(|n| usize::from(n.is_none())).sum();
    let interior = 3 * neighbours.len() - boundary;
    if !(interior.is_multiple_of(2) && edges.len() == boundary + interior / 2) {
        return false;
    }
    let half_edges = 3 * triangles.len() as u64;
    let mut previous = 0u64;
    let mut ok = true;
    for (i, &word) in edges.iter().enumerate() {
        let h = u32::from_le_bytes(word);
        let in_range = u64::from(h) < half_edges;
        let key = edge_key(triangles, if in_range { h } else { 0 }).unwrap_or(0);
        ok &= in_range & (i == 0 || previous < key);
        previous = key;
    }
    ok
}

/// Reads fixed-width little-endian values from the front of a slice whose length was checked
/// beforehand (reading past its end is a bug, and panics).
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    #[inline]
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.rest.split_first_chunk::<N>().expect("payload length checked");
        self.rest = rest;
        *head
    }

    #[inline]
    fn f64(&mut self) -> f64 {
        f64::from_le_bytes(self.take())
    }

    #[inline]
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    /// The next `count` little-endian `u32`s, in place.
    #[inline]
    fn words(&mut self, count: usize) -> &'a [[u8; 4]] {
        let (head, rest) = self.rest.split_at(count * 4);
        self.rest = rest;
        head.as_chunks::<4>().0
    }

    /// The next `count` values of `N` bytes each, as `decode` reads them (one pass over the
    /// bytes, which the compiler turns into wide copies).
    #[inline]
    fn array<T, const N: usize>(&mut self, count: usize, decode: impl Fn([u8; N]) -> T) -> Vec<T> {
        let (head, rest) = self.rest.split_at(count * N);
        self.rest = rest;
        let (chunks, _) = head.as_chunks::<N>();
        chunks.iter().map(|&c| decode(c)).collect()
    }
}

/// The little-endian `f64` at `at` in `bytes`.
#[inline]
fn le_f64(bytes: &[u8], at: usize) -> f64 {
    f64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The little-endian `u32` at `at` in `bytes`.
#[inline]
fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

/// Decodes a version 1 payload.
fn decode_v1(body: &[u8], vertices: u32, triangles: u32) -> Result<MeshParts, LoadError> {
    let payload = body.len() as u64;
    let needed = u64::from(vertices) * MIN_VERTEX_BYTES + u64::from(triangles) * MIN_TRIANGLE_BYTES_V1;
    if needed > payload {
        return Err(LoadError::PayloadLength { vertices, triangles, edges: None, needed, payload });
    }
    let payload = decode_bounded(body)?;
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

/// Decodes a version 1 payload with bincode's allocation limit set to a small multiple of its size:
/// bincode counts the in-memory size of every container it is asked to allocate, so a hostile
/// length prefix fails instead of allocating. The limit is a const generic, so it is picked from
/// power-of-four tiers.
fn decode_bounded(body: &[u8]) -> Result<PayloadV1, LoadError> {
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

fn decode_with_limit<const LIMIT: usize>(body: &[u8]) -> Result<PayloadV1, LoadError> {
    let config = bincode::config::standard().with_limit::<LIMIT>();
    let (payload, used): (PayloadV1, usize) =
        bincode::decode_from_slice(body, config).map_err(LoadError::Corrupt)?;
    if used != body.len() {
        return Err(LoadError::TrailingBytes(body.len() - used));
    }
    Ok(payload)
}

impl NavMesh {
    /// The bytes of this mesh's baked file.
    pub fn to_bytes(&self) -> Result<Vec<u8>, EncodeError> {
        let links: Vec<OffMeshLink> = self.links().map(|(_, link)| *link).collect();
        encode_with_links(self.parts(), &links, self.layer_table(), self.area_names())
    }

    /// Loads a mesh from the bytes of a baked file, checking everything (see [the format
    /// module](crate::file)).
    ///
    /// ```
    /// use trinav::{LoadError, NavMesh};
    /// assert!(matches!(NavMesh::from_bytes(b"not a mesh"), Err(LoadError::TooShort { .. })));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<NavMesh, LoadError> {
        load(bytes, Laps(None), LoadOptions::default())
    }

    /// [`NavMesh::from_bytes`] with [`LoadOptions`] (on one thread, say).
    pub fn from_bytes_with(bytes: &[u8], options: LoadOptions) -> Result<NavMesh, LoadError> {
        load(bytes, Laps(None), options)
    }

    /// Loads a baked file.
    pub fn load(path: impl AsRef<Path>) -> Result<NavMesh, LoadError> {
        NavMesh::from_bytes(&std::fs::read(path)?)
    }

    /// [`NavMesh::load`] with [`LoadOptions`].
    pub fn load_with(path: impl AsRef<Path>, options: LoadOptions) -> Result<NavMesh, LoadError> {
        NavMesh::from_bytes_with(&std::fs::read(path)?, options)
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

    /// Loads `bytes` with `value` written at `at` (the checksum made to match).
    fn load_with(bytes: &[u8], at: usize, value: &[u8]) -> Result<NavMesh, LoadError> {
        let mut changed = bytes.to_vec();
        changed[at..at + value.len()].copy_from_slice(value);
        reseal(&mut changed);
        NavMesh::from_bytes(&changed)
    }

    #[test]
    fn counting_sorts_give_the_comparison_sorts_order() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(16);
        for round in 0..200 {
            let n = rng.random_range(0..300);
            // Grid positions (few distinct bytes), signed decimals, and a sprinkling of -0.0.
            let vertices: Vec<Point> = (0..n)
                .map(|_| match round % 3 {
                    0 => Point::new(rng.random_range(0..5000) as f64, rng.random_range(0..20) as f64),
                    1 => Point::new(rng.random_range(-1e6..1e6), rng.random_range(-1e-3..1e-3)),
                    _ => Point::new(
                        if rng.random_bool(0.3) { -0.0 } else { 1.5 },
                        rng.random_range(-4..4) as f64 * 0.25,
                    ),
                })
                .collect();
            let mut expected: Vec<u32> = (0..n as u32).collect();
            // Stable, so coinciding vertices keep id order as the counting passes do.
            expected.sort_by_key(|&v| position_key(vertices[v as usize]));
            assert_eq!(vertex_order(&vertices), expected, "round {round}");

            let ids = if round % 5 == 0 { 1u32 << 20 } else { n.max(3) as u32 };
            let triangles: Vec<[VertexId; 3]> = (0..rng.random_range(0..200))
                .map(|_| [(); 3].map(|_| VertexId(rng.random_range(0..ids))))
                .collect();
            let neighbours: Vec<[TriangleId; 3]> = (0..triangles.len())
                .map(|_| [(); 3].map(|_| if rng.random_bool(0.5) { TriangleId::NONE } else { TriangleId(0) }))
                .collect();
            let mut expected: Vec<(u64, u32)> = (0..3 * triangles.len() as u32)
                .filter(|&h| {
                    let (t, i) = (h as usize / 3, h as usize % 3);
                    neighbours[t][i].is_none() || triangles[t][i] < triangles[t][(i + 1) % 3]
                })
                .map(|h| (edge_key(&triangles, h).unwrap(), h))
                .collect();
            expected.sort_unstable();
            let expected: Vec<u32> = expected.into_iter().map(|(_, h)| h).collect();
            assert_eq!(edge_order(&triangles, &neighbours), expected, "round {round}");
        }
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
        bytes[8] = 9;
        reseal(&mut bytes);
        let err = NavMesh::from_bytes(&bytes).unwrap_err();
        assert!(matches!(err, LoadError::UnsupportedVersion { found: 9, supported: 5 }));
        assert!(err.to_string().contains("re-bake"), "{err}");
        bytes[0] = b'X';
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::BadMagic)));
    }

    #[test]
    fn hostile_counts_are_refused_before_decoding() {
        let mut bytes = encode(&square_parts()).unwrap();
        bytes[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        reseal(&mut bytes);
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::PayloadLength { .. })));
    }

    #[test]
    fn hostile_length_prefix_fails_without_allocating() {
        // A payload whose vertex array claims 2^40 elements, with a valid frame and checksum.
        let mut body = bincode::encode_to_vec(BakeSettings::default(), bincode::config::standard()).unwrap();
        body.push(253); // varint marker for a u64
        body.extend_from_slice(&(1u64 << 40).to_le_bytes());
        body.resize(body.len() + 64, 0);
        let bytes = frame(VERSION_1, 0, 0, &body);
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::Corrupt(_))));
    }

    /// A complete file of `version` with these counts and payload, checksum included.
    fn frame(version: u32, vertices: u32, triangles: u32, body: &[u8]) -> Vec<u8> {
        let mut bytes: Vec<u8> = Vec::new();
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend_from_slice(&vertices.to_le_bytes());
        bytes.extend_from_slice(&triangles.to_le_bytes());
        bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
        bytes.extend_from_slice(body);
        bytes.extend_from_slice(&[0; 4]);
        reseal(&mut bytes);
        bytes
    }

    #[test]
    fn version_1_files_still_load() {
        let parts = square_parts();
        let payload = (
            parts.settings,
            parts.vertices.iter().map(|&p| <[f64; 2]>::from(p)).collect::<Vec<_>>(),
            parts.triangles.iter().map(|t| t.map(|v| v.0)).collect::<Vec<_>>(),
            parts.neighbours.iter().map(|t| t.map(|n| n.0)).collect::<Vec<_>>(),
            parts.areas.iter().map(|a| a.0).collect::<Vec<_>>(),
            parts.islands.iter().map(|i| i.0).collect::<Vec<_>>(),
        );
        let body = bincode::encode_to_vec(&payload, bincode::config::standard()).unwrap();
        let bytes = frame(VERSION_1, 4, 2, &body);
        assert_eq!(NavMesh::from_bytes(&bytes).unwrap().parts(), &parts);
        assert_eq!(decode(&encode(&parts).unwrap()).unwrap(), parts);
    }

    #[test]
    fn version_5_layout_is_fixed_width() {
        let parts = square_parts();
        let bytes = encode(&parts).unwrap();
        // 4 vertices, 2 triangles, 5 edges (the diagonal and four sides), no links, one layer,
        // no area names.
        assert_eq!(bytes.len(), HEADER_LEN + 21 + 20 * 4 + 29 * 2 + 4 * 5 + 4 + 4 + 4 + TRAILER_LEN);
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 5);
        // The vertex order: (0, 0), (0, 1), (1, 0), (1, 1).
        let order_at = HEADER_LEN + 17 + 16 * 4;
        let order: Vec<u32> = bytes[order_at..order_at + 16]
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(order, [0, 3, 1, 2]);
    }

    #[test]
    fn wrong_derived_arrays_are_refused_even_for_a_valid_mesh() {
        let bytes = encode(&square_parts()).unwrap();
        let order_at = HEADER_LEN + 17 + 16 * 4;
        let edges_at = bytes.len() - TRAILER_LEN - 4 - 4 - 4 - 4 * 5;
        for (at, what) in [(order_at, "vertex order"), (edges_at, "edge list")] {
            // Swap the first two entries: still a permutation, no longer sorted.
            let mut bad = bytes.clone();
            bad.copy_within(at..at + 4, at + 4);
            bad[at..at + 4].copy_from_slice(&bytes[at + 4..at + 8]);
            reseal(&mut bad);
            let err = NavMesh::from_bytes(&bad).unwrap_err();
            assert!(matches!(err, LoadError::DerivedMismatch), "{what}: {err}");
        }
        // One edge too many (the payload length kept consistent).
        let mut longer = bytes[..bytes.len() - TRAILER_LEN - 12].to_vec();
        longer.extend_from_slice(&0u32.to_le_bytes());
        longer.extend_from_slice(&0u32.to_le_bytes()); // no links
        longer.extend_from_slice(&0u32.to_le_bytes()); // one layer
        longer.extend_from_slice(&0u32.to_le_bytes()); // no area names
        let count_at = edges_at - 4;
        longer[count_at..count_at + 4].copy_from_slice(&6u32.to_le_bytes());
        let body = longer[HEADER_LEN..].to_vec();
        let err = NavMesh::from_bytes(&frame(FORMAT_VERSION, 4, 2, &body)).unwrap_err();
        assert!(matches!(err, LoadError::DerivedMismatch), "{err}");
    }

    /// The square's version 3 file with `links` in its links block.
    fn with_links_block(links: &[([f64; 5], u8)]) -> Vec<u8> {
        let bytes = encode(&square_parts()).unwrap();
        let mut body = bytes[HEADER_LEN..bytes.len() - TRAILER_LEN - 12].to_vec();
        body.extend_from_slice(&(links.len() as u32).to_le_bytes());
        for (values, flags) in links {
            for v in values {
                body.extend_from_slice(&v.to_le_bytes());
            }
            body.push(*flags);
        }
        frame(VERSION_3, 4, 2, &body)
    }

    #[test]
    fn version_2_files_load_without_links_and_bad_links_are_refused() {
        // Version 2: the same payload without the links, layers and area names blocks.
        let bytes = encode(&square_parts()).unwrap();
        let body = bytes[HEADER_LEN..bytes.len() - TRAILER_LEN - 12].to_vec();
        let mesh = NavMesh::from_bytes(&frame(VERSION_2, 4, 2, &body)).unwrap();
        assert_eq!((mesh.parts(), mesh.link_count()), (&square_parts(), 0));
        // A good link, both ways.
        let mesh = NavMesh::from_bytes(&with_links_block(&[([0.25, 0.25, 0.75, 0.75, 2.0], 1)])).unwrap();
        let link = *mesh.link(crate::LinkId(0)).unwrap();
        assert_eq!(
            (link.from, link.to, link.cost, link.bidirectional),
            (Point::new(0.25, 0.25), Point::new(0.75, 0.75), 2.0, true)
        );
        // An end off the mesh, a negative cost, unknown flags.
        let off = NavMesh::from_bytes(&with_links_block(&[([0.5, 0.5, 2.0, 0.5, 1.0], 0)])).unwrap_err();
        assert!(
            matches!(off, LoadError::BadLink { index: 0, error: crate::LinkError::OffMesh { .. } }),
            "{off}"
        );
        let cost = NavMesh::from_bytes(&with_links_block(&[([0.5; 5], 0), ([0.5, 0.5, 0.5, 0.5, -1.0], 0)]));
        assert!(matches!(cost, Err(LoadError::BadLink { index: 1, error: crate::LinkError::BadCost(_) })));
        let flags = NavMesh::from_bytes(&with_links_block(&[([0.5; 5], 2)])).unwrap_err();
        assert!(matches!(flags, LoadError::UnknownLinkFlags { index: 0, flags: 2 }), "{flags}");
        // A link count the payload does not hold.
        let mut bytes = with_links_block(&[([0.5; 5], 0)]);
        let count_at = bytes.len() - TRAILER_LEN - 41 - 4;
        bytes[count_at..count_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        reseal(&mut bytes);
        assert!(matches!(NavMesh::from_bytes(&bytes), Err(LoadError::PayloadLength { .. })));
    }

    /// The square [0, 1]² on layer "a" and the rectangle [1, 2] × [0, 1] on layer "b", joined
    /// along x = 1 (their shared vertices), and on "b" a small triangle over the corner (0, 0)
    /// of "a".
    fn two_layer_parts() -> (MeshParts, LayerTable) {
        let vertices =
            [(0., 0.), (1., 0.), (1., 1.), (0., 1.), (2., 0.), (2., 1.), (0., 0.), (0.5, 0.), (0., 0.5)]
                .map(|(x, y)| Point::new(x, y))
                .to_vec();
        // Vertex 6 repeats vertex 0's position on layer "b" (a layer may overlap another).
        let triangles =
            [[0, 1, 2], [0, 2, 3], [1, 4, 5], [1, 5, 2], [6, 7, 8]].map(|t| t.map(VertexId)).to_vec();
        let neighbours = crate::topology::build_adjacency(&triangles, vertices.len()).unwrap();
        let (islands, _) = crate::topology::find_islands(&neighbours);
        let parts = MeshParts {
            settings: BakeSettings::default(),
            vertices,
            areas: vec![AreaId(0); 5],
            islands,
            neighbours,
            triangles,
        };
        let table = LayerTable {
            names: vec!["a".into(), "b".into()],
            triangles: [0, 0, 1, 1, 1].map(LayerId).to_vec(),
        };
        (parts, table)
    }

    #[test]
    fn version_4_stores_layers_and_refuses_bad_layer_blocks() {
        let (parts, table) = two_layer_parts();
        let mesh = NavMesh::from_layered_parts(parts.clone(), table.clone()).unwrap();
        let bytes = mesh.to_bytes().unwrap();
        let loaded = NavMesh::from_bytes(&bytes).unwrap();
        assert_eq!((loaded.parts(), loaded.layer_table()), (&parts, Some(&table)));
        assert_eq!(loaded.to_bytes().unwrap(), bytes);
        // The layers block: count 2, "a", "b", five u16 layers, no link layers (then no area
        // names).
        let block_len = 4 + (4 + 1) * 2 + 2 * 5;
        let block_at = bytes.len() - TRAILER_LEN - 4 - block_len;
        assert_eq!(bytes[block_at..block_at + 4], 2u32.to_le_bytes());
        // A name that is not UTF-8, a layer out of range, a name given twice, a count past the
        // end: each refused with its reason.
        let corrupt = |at: usize, value: &[u8]| load_with(&bytes, at, value).unwrap_err();
        assert!(matches!(corrupt(block_at + 8, &[0xff]), LoadError::BadLayers(_)));
        let err = corrupt(bytes.len() - TRAILER_LEN - 4 - 2, &7u16.to_le_bytes());
        assert!(err.to_string().contains("triangle 4 is on layer 7, which does not exist"), "{err}");
        let err = corrupt(block_at + 13, b"a");
        assert!(err.to_string().contains("layer name \"a\" is empty or given twice"), "{err}");
        assert!(matches!(corrupt(block_at, &u32::MAX.to_le_bytes()), LoadError::BadLayers(_)));
        assert!(matches!(corrupt(block_at + 4, &u32::MAX.to_le_bytes()), LoadError::BadLayers(_)));
        // Without the table, the repeated position is a duplicate vertex.
        let flat = NavMesh::from_parts(parts).unwrap_err();
        assert!(flat.to_string().contains("same position"), "{flat}");
    }

    #[test]
    fn version_5_stores_area_names_and_refuses_bad_name_blocks() {
        let names = [("mud".to_string(), AreaId(2)), ("road".to_string(), AreaId(1))];
        let mut mesh = NavMesh::from_parts(square_parts()).unwrap();
        mesh.set_area_names(crate::AreaNames::new(names).unwrap());
        let bytes = mesh.to_bytes().unwrap();
        let loaded = NavMesh::from_bytes(&bytes).unwrap();
        assert_eq!(loaded.area_names(), mesh.area_names());
        assert_eq!(loaded.to_bytes().unwrap(), bytes);
        // The block: count 2, then (2, "mud"), (1, "road"), by name.
        let block_at = bytes.len() - TRAILER_LEN - (4 + 5 + 3 + 5 + 4);
        assert_eq!(bytes[block_at..block_at + 9], [2, 0, 0, 0, 2, 3, 0, 0, 0]);
        let corrupt = |at: usize, value: &[u8]| load_with(&bytes, at, value).unwrap_err();
        // Not UTF-8, a type out of range, two names for one type, a number, a count or length
        // past the end: each refused with its reason (every rule: `AreaNames::new`).
        assert!(matches!(corrupt(block_at + 9, &[0xff]), LoadError::BadAreaNamesBlock(_)));
        let err = corrupt(block_at + 4, &[64]);
        assert!(err.to_string().contains("area name \"mud\": area type 64 is outside 1..=63"), "{err}");
        let err = corrupt(block_at + 12, &[2]);
        assert!(err.to_string().contains("area type 2 is named \"mud\" already"), "{err}");
        let err = corrupt(block_at + 9, b"7.5");
        assert!(err.to_string().contains("must not be a number"), "{err}");
        for at in [block_at, block_at + 5] {
            assert!(matches!(corrupt(at, &u32::MAX.to_le_bytes()), LoadError::BadAreaNamesBlock(_)));
        }
        // Version 4 files (no names block) still load, without names.
        let body = bytes[HEADER_LEN..block_at].to_vec();
        let old = NavMesh::from_bytes(&frame(VERSION_4, 4, 2, &body)).unwrap();
        assert!(old.area_names().is_empty() && old.parts() == mesh.parts());
    }

    #[test]
    fn payload_length_must_match_the_counts_exactly() {
        let bytes = encode(&square_parts()).unwrap();
        let body = bytes[HEADER_LEN..bytes.len() - TRAILER_LEN].to_vec();
        for (v, t) in [(5, 2), (4, 3), (0, 0), (u32::MAX, u32::MAX)] {
            let err = NavMesh::from_bytes(&frame(FORMAT_VERSION, v, t, &body)).unwrap_err();
            assert!(matches!(err, LoadError::PayloadLength { edges: Some(_), .. }), "{v} {t}: {err}");
        }
        let mut extra = body.clone();
        extra.push(0);
        assert!(matches!(
            NavMesh::from_bytes(&frame(FORMAT_VERSION, 4, 2, &extra)),
            Err(LoadError::PayloadLength { .. })
        ));
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
