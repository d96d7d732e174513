//! `trinav view FILE`: an interactive viewer of a mesh in the browser.
//!
//! The command loads a `.nav` mesh (or imports and bakes any level or map `trinav bake` reads),
//! listens on 127.0.0.1 (another address only with `--bind`), prints the page's address and
//! serves until stopped. The page (`assets/`: HTML, one script, one style sheet, embedded in the
//! binary) asks for the mesh geometry once and then for queries, through the JSON API of
//! [`api`]; [`server`] is the HTTP side (routes, limits, the embedded files).

pub mod api;
pub mod server;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use trinav::file::MAGIC;
use trinav::{BakeSettings, NavMesh};
use trinav_bake::import::{ImportOptions, bake_source, import};

use api::{Origin, Queries};
use server::{App, Limits};

/// The port `trinav view` listens on unless `--port` says otherwise.
pub const DEFAULT_PORT: u16 = 8417;

#[derive(clap::Args)]
pub struct ViewArgs {
    /// A mesh file (.nav), or a level or map that `trinav bake` reads (baked on the fly with the
    /// default settings).
    file: PathBuf,
    /// The port to listen on; 0 picks any free one.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to listen on. The default serves this machine only; any other address
    /// (0.0.0.0: every interface) makes the viewer reachable from the network.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Levels baked on the fly: the agent radius, instead of the level's own.
    #[arg(long, allow_negative_numbers = true)]
    agent_radius: Option<f64>,
}

/// Runs `trinav view`: returns only on an error (or when the server stops).
pub fn run_view(args: &ViewArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let (mesh, baked) = load(args)?;
    let origin = Origin {
        file: args.file.display().to_string(),
        baked,
        load_ms: started.elapsed().as_secs_f64() * 1e3,
    };

    let wanted = SocketAddr::new(args.bind, args.port);
    let listener = std::net::TcpListener::bind(wanted).map_err(|e| listen_error(wanted, &e))?;
    let addr = listener.local_addr().with_context(|| format!("cannot listen on {wanted}"))?;
    // Every interface: this machine opens it through loopback.
    let open = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port()),
        _ => addr,
    };
    let (triangles, islands) = (mesh.triangle_count(), mesh.island_count());
    crate::print(&format!(
        "trinav view: http://{open}/ serves {} ({triangles} triangles, {islands} islands{}); Ctrl-C stops it",
        origin.file,
        if baked { format!(", baked in {:.0} ms", origin.load_ms) } else { String::new() },
    ))?;
    if !addr.ip().is_loopback() {
        eprintln!("trinav: note: listening on {addr}: the viewer is reachable from the network");
    }
    let app = App::new(origin, Queries::new(mesh), addr, Limits::default());
    server::serve(listener, app).with_context(|| format!("http://{addr}/: server stopped"))?;
    Ok(ExitCode::SUCCESS)
}

/// The mesh of `args.file`, and whether it was baked on the fly.
fn load(args: &ViewArgs) -> Result<(NavMesh, bool)> {
    let file = &args.file;
    let name = file.display();
    if is_mesh_file(file) {
        if args.agent_radius.is_some() {
            bail!(
                "{name}: --agent-radius applies to levels baked on the fly, not to a baked mesh (re-bake it)"
            );
        }
        return Ok((crate::load_mesh(file)?, false));
    }
    let source = import(file, None, &ImportOptions::default())?;
    let settings = source.settings(BakeSettings::default(), args.agent_radius);
    let baked = bake_source(&source, &settings).with_context(|| name.to_string())?;
    Ok((baked.mesh, true))
}

/// Whether `file` is a baked mesh: named `.nav`, or starting with the mesh file's magic.
fn is_mesh_file(file: &Path) -> bool {
    use std::io::Read;
    if file.extension().is_some_and(|e| e.eq_ignore_ascii_case("nav")) {
        return true;
    }
    let mut start = [0u8; MAGIC.len()];
    std::fs::File::open(file).and_then(|mut f| f.read_exact(&mut start)).is_ok() && start == MAGIC
}

/// Why the server cannot listen on `addr`, with what to do about it.
fn listen_error(addr: SocketAddr, error: &std::io::Error) -> anyhow::Error {
    use std::io::ErrorKind;
    let advice = match error.kind() {
        ErrorKind::AddrInUse => {
            " (another program uses it: choose another port with --port, or --port 0 for any free one)"
        }
        ErrorKind::AddrNotAvailable => " (not an address of this machine)",
        ErrorKind::PermissionDenied => " (ports below 1024 need privileges: choose another with --port)",
        _ => "",
    };
    anyhow::anyhow!("cannot listen on {addr}: {error}{advice}")
}

/// A small mesh for the tests: [0, 10]² without the obstacle [4, 6]², and the separate island
/// [20, 22] × [0, 2].
#[cfg(test)]
pub fn sample_mesh() -> NavMesh {
    use trinav_bake::{Level, PolygonInput, bake};
    let level = Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, 10.0, 10.0), PolygonInput::rect(20.0, 0.0, 22.0, 2.0)],
        obstacles: vec![PolygonInput::rect(4.0, 4.0, 6.0, 6.0)],
        agent_radius: None,
        ..Level::default()
    };
    bake(&level, &BakeSettings::default()).expect("the sample level bakes").mesh
}
