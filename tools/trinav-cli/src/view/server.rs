//! The viewer's HTTP server: hyper (HTTP/1.1) on a single-threaded tokio runtime.
//!
//! Routes: `GET /` and the page's assets (a fixed table of files embedded in the binary: a
//! request is answered from the table by exact path, never from the file system, so no path
//! can reach another file), `GET /api/mesh` (the geometry, serialized at start and again after
//! each edit), `POST /api/path`, `/api/raycast`, `/api/locate`, and the edits `POST
//! /api/obstacles` and `DELETE /api/obstacles/{id}` (see [`super::api`]). Anything else is 404,
//! a known path with another method 405; every error body is `{"error": "..."}`.
//!
//! Bounds ([`Limits`]): request headers in size (hyper answers 431) and in time (hyper closes
//! the connection; this also closes idle keep-alive connections), request bodies in size (413,
//! checked against `Content-Length` before reading and while reading) and in time (408), stalled
//! writes (the connection is closed), and the number of connections open at once (further
//! ones wait to be accepted). Queries run one at a time on the runtime's thread.
//!
//! When listening on a loopback address, only requests whose `Host` names this machine are
//! answered (403 otherwise): a web page elsewhere cannot read the viewer through DNS
//! rebinding. Every answer carries a content security policy that allows the page to load
//! nothing from elsewhere.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde::Serialize;
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

use super::api::{ApiError, EditAnswer, Geometry, Origin, Queries};

/// One embedded file of the page.
pub struct Asset {
    /// The path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its contents.
    pub body: &'static str,
}

/// Every file the server serves besides the API: the page and its script and style sheet.
pub const ASSETS: &[Asset] = &[
    Asset { path: "/", content_type: "text/html; charset=utf-8", body: include_str!("assets/index.html") },
    Asset {
        path: "/viewer.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("assets/viewer.js"),
    },
    Asset {
        path: "/viewer.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("assets/viewer.css"),
    },
];

/// The page may load its own files and nothing else (no CDN, no fonts, no frames).
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// How much and how long a client may send.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest request body, bytes.
    pub max_body: usize,
    /// Largest request line and headers, bytes.
    pub max_header: usize,
    /// Time to send a request's headers (and the longest a keep-alive connection stays idle).
    pub header_timeout: Duration,
    /// Time to send a request's body.
    pub body_timeout: Duration,
    /// Longest a write to the client may stall.
    pub write_timeout: Duration,
    /// Connections served at once.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: 64 * 1024,
            max_header: 16 * 1024,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
            max_connections: 64,
        }
    }
}

/// What the server serves.
pub struct App {
    /// Where the mesh came from.
    origin: Origin,
    /// The queries and edits, one at a time, with the JSON of the mesh's
    /// [`super::api::Geometry`] (made again after each edit).
    queries: Mutex<(Queries, Bytes)>,
    /// The `Host` values answered; `None`: any.
    hosts: Option<Vec<String>>,
    limits: Limits,
}

impl App {
    /// Serves the mesh of `queries` (from `origin`) on `addr` (the address actually bound)
    /// within `limits`.
    pub fn new(origin: Origin, queries: Queries, addr: SocketAddr, limits: Limits) -> App {
        let geometry = geometry_json(&queries, &origin);
        App { origin, queries: Mutex::new((queries, geometry)), hosts: allowed_hosts(addr), limits }
    }
}

/// The JSON of the mesh's geometry.
fn geometry_json(queries: &Queries, origin: &Origin) -> Bytes {
    Bytes::from(serde_json::to_vec(&Geometry::new(queries.mesh(), origin)).expect("the geometry encodes"))
}

/// The `Host` header values that name a loopback listener (any port-less form too); `None`
/// for any other listener, which the user asked to be reachable under whatever name.
fn allowed_hosts(addr: SocketAddr) -> Option<Vec<String>> {
    if !addr.ip().is_loopback() {
        return None;
    }
    let ip = match addr.ip() {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    };
    let names = ["localhost".to_string(), "127.0.0.1".to_string(), "[::1]".to_string(), ip];
    Some(names.iter().flat_map(|n| [n.clone(), format!("{n}:{}", addr.port())]).collect())
}

/// Serves `app` on `listener` until the process ends.
pub fn serve(listener: std::net::TcpListener, app: App) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build()?;
    runtime.block_on(accept_loop(listener, Arc::new(app)))
}

/// Accepts connections, at most `max_connections` at once, and serves each in its own task.
async fn accept_loop(listener: std::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let limits = app.limits;
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(limits.max_header.max(8192))
        .max_header_size(limits.max_header);
    loop {
        let Ok(permit) = open.clone().acquire_owned().await else { return Ok(()) };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, or the connection went away before it was
                // accepted: wait a moment rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let mut stream = TimeoutStream::new(stream);
        stream.set_write_timeout(Some(limits.write_timeout));
        let io = TokioIo::new(Box::pin(stream));
        let app = app.clone();
        let connection = http.serve_connection(
            io,
            service_fn(move |request| {
                let app = app.clone();
                async move { Ok::<_, Infallible>(respond(&app, request).await) }
            }),
        );
        tokio::spawn(async move {
            // A connection error (a client gone, a timeout, malformed HTTP that hyper answered
            // itself) ends that connection only.
            let _ = connection.await;
            drop(permit);
        });
    }
}

/// The answer to one request.
async fn respond(app: &App, request: Request<Incoming>) -> Response<Full<Bytes>> {
    if let Some(hosts) = &app.hosts {
        let host = request.headers().get(header::HOST).map(|h| h.to_str().unwrap_or("(not text)"));
        if let Some(host) = host.filter(|h| !hosts.iter().any(|a| a.eq_ignore_ascii_case(h))) {
            let message = format!("unexpected Host `{host}`: open the address trinav view printed");
            return error(StatusCode::FORBIDDEN, &message);
        }
    }
    let path = request.uri().path().to_string();
    let method = request.method().clone();
    let readable = method == Method::GET || method == Method::HEAD;
    if let Some(asset) = ASSETS.iter().find(|a| a.path == path) {
        return if readable { asset_response(asset) } else { not_allowed("GET") };
    }
    match path.as_str() {
        "/api/mesh" if readable => {
            json(StatusCode::OK, app.queries.lock().unwrap_or_else(PoisonError::into_inner).1.clone())
        }
        "/api/mesh" => not_allowed("GET"),
        "/api/path" | "/api/raycast" | "/api/locate" if method == Method::POST => {
            let body = match read_body(request, &app.limits).await {
                Ok(body) => body,
                Err(response) => return *response,
            };
            let mut queries = app.queries.lock().unwrap_or_else(PoisonError::into_inner);
            match path.as_str() {
                "/api/path" => answer(queries.0.path(&body)),
                "/api/raycast" => answer(queries.0.raycast(&body)),
                _ => answer(queries.0.locate(&body)),
            }
        }
        "/api/path" | "/api/raycast" | "/api/locate" => not_allowed("POST"),
        "/api/obstacles" if method == Method::POST => {
            let body = match read_body(request, &app.limits).await {
                Ok(body) => body,
                Err(response) => return *response,
            };
            edit(app, |queries| queries.add_obstacle(&body))
        }
        "/api/obstacles" => not_allowed("POST"),
        _ if path.starts_with("/api/obstacles/") => match method {
            Method::DELETE => edit(app, |queries| queries.remove_obstacle(&path["/api/obstacles/".len()..])),
            _ => not_allowed("DELETE"),
        },
        _ => error(
            StatusCode::NOT_FOUND,
            &format!("no such page: {path} (the viewer serves / and its API under /api/)"),
        ),
    }
}

/// Runs an edit of the mesh and, when it changed it, makes the geometry's JSON again.
fn edit(
    app: &App,
    change: impl FnOnce(&mut Queries) -> Result<EditAnswer, ApiError>,
) -> Response<Full<Bytes>> {
    let mut held = app.queries.lock().unwrap_or_else(PoisonError::into_inner);
    let (queries, geometry) = &mut *held;
    let result = change(queries);
    if result.is_ok() {
        *geometry = geometry_json(queries, &app.origin);
    }
    answer(result)
}

/// Reads a JSON request body within the size and time limits; the error answer otherwise.
async fn read_body(request: Request<Incoming>, limits: &Limits) -> Result<Bytes, Box<Response<Full<Bytes>>>> {
    let too_large = || {
        let message = format!("request body larger than {} bytes", limits.max_body);
        Box::new(error(StatusCode::PAYLOAD_TOO_LARGE, &message))
    };
    let headers = request.headers();
    let json = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
    });
    if !json {
        let message = "queries are JSON: send Content-Type: application/json";
        return Err(Box::new(error(StatusCode::UNSUPPORTED_MEDIA_TYPE, message)));
    }
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.max_body as u64) {
        return Err(too_large());
    }
    let body = Limited::new(request.into_body(), limits.max_body);
    match tokio::time::timeout(limits.body_timeout, body.collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Err(too_large()),
        Ok(Err(e)) => {
            Err(Box::new(error(StatusCode::BAD_REQUEST, &format!("cannot read the request body: {e}"))))
        }
        Err(_) => {
            let message = format!("request body not received within {} s", limits.body_timeout.as_secs_f64());
            Err(Box::new(error(StatusCode::REQUEST_TIMEOUT, &message)))
        }
    }
}

/// A query's answer as JSON, or its error.
fn answer<T: Serialize>(outcome: Result<T, ApiError>) -> Response<Full<Bytes>> {
    match outcome {
        Ok(value) => match serde_json::to_vec(&value) {
            Ok(body) => json(StatusCode::OK, Bytes::from(body)),
            Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, &format!("cannot encode the answer: {e}")),
        },
        Err(e @ ApiError::BadRequest(_)) => error(StatusCode::BAD_REQUEST, e.message()),
        Err(e @ ApiError::Unprocessable(_)) => error(StatusCode::UNPROCESSABLE_ENTITY, e.message()),
    }
}

/// A response with the headers every answer carries.
fn response(status: StatusCode, content_type: &'static str, body: Bytes) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    response
}

fn asset_response(asset: &Asset) -> Response<Full<Bytes>> {
    response(StatusCode::OK, asset.content_type, Bytes::from_static(asset.body.as_bytes()))
}

fn json(status: StatusCode, body: Bytes) -> Response<Full<Bytes>> {
    response(status, "application/json", body)
}

/// `{"error": message}` with `status`.
fn error(status: StatusCode, message: &str) -> Response<Full<Bytes>> {
    let body = serde_json::json!({ "error": message }).to_string();
    json(status, Bytes::from(body))
}

/// 405, naming the method the path takes.
fn not_allowed(allow: &'static str) -> Response<Full<Bytes>> {
    let mut response = error(StatusCode::METHOD_NOT_ALLOWED, &format!("this path takes {allow} only"));
    response.headers_mut().insert(header::ALLOW, HeaderValue::from_static(allow));
    response
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::{Shutdown, TcpStream};

    use super::*;
    use crate::view::api::Origin;

    /// Short limits, so that the time bounds show within a test.
    const LIMITS: Limits = Limits {
        max_body: 1024,
        max_header: 8192,
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        write_timeout: Duration::from_secs(5),
        max_connections: 4,
    };

    /// Starts a server of the sample mesh on a free loopback port with `limits`.
    fn start(limits: Limits) -> SocketAddr {
        let mesh = crate::view::sample_mesh();
        let origin = Origin { file: "sample.json".to_string(), baked: true, load_ms: 0.0 };
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let app = App::new(origin, Queries::new(mesh), addr, limits);
        std::thread::spawn(move || serve(listener, app));
        addr
    }

    /// Sends `request` as it is, then reads the answer until the server closes the connection.
    fn raw(addr: SocketAddr, request: &[u8]) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.write_all(request).unwrap();
        read_until_closed(&mut stream)
    }

    /// Reads until the server closes the connection (or resets it); panics when it is still
    /// open after the 10 s read timeout (a server that never answers fails the test instead of
    /// hanging it).
    fn read_until_closed(stream: &mut TcpStream) -> String {
        let mut answer = Vec::new();
        if let Err(e) = stream.read_to_end(&mut answer) {
            use std::io::ErrorKind::{TimedOut, WouldBlock};
            assert!(!matches!(e.kind(), TimedOut | WouldBlock), "the server left the connection open");
        }
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// A request with `Connection: close`, so the server closes after answering.
    fn request(addr: SocketAddr, method: &str, target: &str, headers: &[&str], body: &str) -> String {
        let mut text = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
        for h in headers {
            text.push_str(&format!("{h}\r\n"));
        }
        text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        raw(addr, text.as_bytes())
    }

    fn post(addr: SocketAddr, target: &str, body: &str) -> String {
        request(addr, "POST", target, &["Content-Type: application/json"], body)
    }

    /// The status code of an answer.
    fn status(answer: &str) -> u16 {
        answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status: {answer:?}"))
    }

    /// The `error` message of a JSON error answer.
    fn error_message(answer: &str) -> String {
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let value: serde_json::Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer:?}"));
        value["error"].as_str().unwrap_or_else(|| panic!("no error message: {answer:?}")).to_string()
    }

    #[test]
    fn serves_the_embedded_files_and_the_api() {
        let addr = start(LIMITS);
        for asset in ASSETS {
            let answer = request(addr, "GET", asset.path, &[], "");
            assert_eq!(status(&answer), 200, "{}", asset.path);
            assert!(answer.contains(&format!("content-type: {}", asset.content_type)), "{answer}");
            assert!(answer.contains("content-security-policy: default-src 'none'"), "{answer}");
            assert!(answer.ends_with(asset.body), "{}", asset.path);
        }
        // The query string does not change the page.
        assert!(request(addr, "GET", "/?renderer=canvas", &[], "").ends_with(ASSETS[0].body));
        let mesh = request(addr, "GET", "/api/mesh", &[], "");
        assert_eq!(status(&mesh), 200);
        assert!(mesh.contains("\"island_colours\":[\"#cfe3f7\",\"#d4efc4\"]"), "{mesh}");
        let path = post(addr, "/api/path", r#"{"from": [1, 5], "to": [9, 5], "mode": "optimal"}"#);
        assert_eq!(status(&path), 200, "{path}");
        assert!(path.contains("\"found\":true"), "{path}");
        let ray = post(addr, "/api/raycast", r#"{"from": [1, 5], "to": [9, 5]}"#);
        assert!(ray.contains("\"clear\":false,\"end\":[4.0,5.0]"), "{ray}");
        let hover = post(addr, "/api/locate", r#"{"point": [1, 2]}"#);
        assert!(hover.contains("\"on_mesh\":true"), "{hover}");
    }

    #[test]
    fn no_path_reaches_a_file_outside_the_embedded_table() {
        let addr = start(LIMITS);
        let targets = [
            "/../Cargo.toml",
            "/../../Cargo.toml",
            "/%2e%2e/%2e%2e/Cargo.toml",
            "/..%2f..%2fCargo.toml",
            "/viewer.js/../../main.rs",
            "/assets/viewer.js",
            "/src/view/assets/viewer.js",
            "//etc/passwd",
            "/etc/passwd",
            "/%2fetc%2fpasswd",
            "/..\\..\\Cargo.toml",
            "/index.html",
            "/viewer.js%00.html",
            "/VIEWER.JS",
            "/api",
            "/api/",
            "/api/mesh/../../Cargo.toml",
        ];
        for target in targets {
            let answer = request(addr, "GET", target, &[], "");
            assert_eq!(status(&answer), 404, "{target}: {answer}");
            assert!(error_message(&answer).starts_with("no such page: "), "{target}: {answer}");
            assert!(!answer.contains("[package]") && !answer.contains("root:"), "{target}: {answer}");
        }
        // Absolute-form and malformed targets: refused by hyper or not found, never a file.
        for target in ["http://127.0.0.1/../Cargo.toml", "..", "*", "/\x7f"] {
            let answer = request(addr, "GET", target, &[], "");
            assert!([400, 404].contains(&status(&answer)), "{target}: {answer}");
            assert!(!answer.contains("[package]"), "{target}: {answer}");
        }
    }

    #[test]
    fn wrong_methods_and_media_types_are_refused_with_a_message() {
        let addr = start(LIMITS);
        for (method, target, allow) in [
            ("POST", "/", "GET"),
            ("DELETE", "/api/mesh", "GET"),
            ("GET", "/api/path", "POST"),
            ("PUT", "/api/locate", "POST"),
            ("GET", "/api/obstacles", "POST"),
            ("GET", "/api/obstacles/0", "DELETE"),
        ] {
            let answer = request(addr, method, target, &[], "");
            assert_eq!(status(&answer), 405, "{method} {target}");
            assert!(answer.contains(&format!("allow: {allow}")), "{answer}");
        }
        let plain =
            request(addr, "POST", "/api/path", &["Content-Type: text/plain"], r#"{"from":[1,1],"to":[2,2]}"#);
        assert_eq!(status(&plain), 415);
        assert!(error_message(&plain).contains("application/json"));
        let json = request(
            addr,
            "POST",
            "/api/path",
            &["Content-Type: Application/JSON; charset=utf-8"],
            r#"{"from":[1,1],"to":[2,2]}"#,
        );
        assert_eq!(status(&json), 200, "{json}");
    }

    #[test]
    fn an_obstacle_added_changes_the_mesh_served_and_removed_restores_it() {
        let addr = start(LIMITS);
        let triangles = |addr| {
            let mesh = request(addr, "GET", "/api/mesh", &[], "");
            let body = &mesh[mesh.find("\r\n\r\n").unwrap() + 4..];
            let value: serde_json::Value = serde_json::from_str(body).unwrap();
            value["stats"]["triangles"].as_u64().unwrap()
        };
        let before = triangles(addr);
        let added = post(addr, "/api/obstacles", r#"{"outer": [[4.5, 0], [5.5, 0], [5.5, 3], [4.5, 3]]}"#);
        assert_eq!(status(&added), 200, "{added}");
        let body = &added[added.find("\r\n\r\n").unwrap() + 4..];
        let answer: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(answer["triangles"].as_u64(), Some(triangles(addr)));
        assert_ne!(triangles(addr), before);
        let path = post(addr, "/api/path", r#"{"from": [1, 1], "to": [9, 1], "mode": "optimal"}"#);
        assert!(!path.contains("\"length\":8.0"), "{path}");
        let id = answer["id"].as_u64().unwrap();
        let removed = request(addr, "DELETE", &format!("/api/obstacles/{id}"), &[], "");
        assert_eq!(status(&removed), 200, "{removed}");
        assert_eq!(triangles(addr), before);
        let again = request(addr, "DELETE", &format!("/api/obstacles/{id}"), &[], "");
        assert_eq!((status(&again), error_message(&again)), (422, format!("no obstacle has id {id}")));
    }

    #[test]
    fn malformed_and_unanswerable_queries_get_400_and_422() {
        let addr = start(LIMITS);
        let bad = post(addr, "/api/path", r#"{"from": [1, 1], "to": [2, 2], "speed": 1}"#);
        assert_eq!(status(&bad), 400);
        assert!(error_message(&bad).contains("unknown field `speed`"), "{bad}");
        let no_layer = post(addr, "/api/path", r#"{"from": [1, 1], "to": [2, 2], "from_layer": "roof"}"#);
        assert_eq!(status(&no_layer), 422);
        assert_eq!(error_message(&no_layer), "unknown layer `roof` (the mesh's layers: default)");
        let not_json = post(addr, "/api/raycast", "{");
        assert_eq!(status(&not_json), 400);
        let off = post(addr, "/api/path", r#"{"from": [1, 1], "to": [50, 50]}"#);
        assert_eq!(status(&off), 422);
        assert_eq!(error_message(&off), "goal point (50, 50) is off the mesh");
        // Edits that cannot be made: 400 or 422, and the mesh served is the same.
        let mesh_before = request(addr, "GET", "/api/mesh", &[], "");
        let body_of = |answer: &str| answer[answer.find("\r\n\r\n").unwrap() + 4..].to_string();
        for (body, code) in [
            ("{", 400),
            (r#"{"outer": [[0, 0], [1, 0]], "colour": 1}"#, 400),
            (r#"{"outer": "box"}"#, 400),
            (r#"{"outer": [[1, 1], [3, 3], [3, 1], [1, 3]]}"#, 422),
            (r#"{"outer": [[0, 0], [1e300, 0], [0, 1]]}"#, 422),
            (r#"{"outer": [[0, 0], [1, 0]]}"#, 422),
            (r#"{"outer": [[0, 0], [1, 0], [2, 0]]}"#, 422),
        ] {
            let answer = post(addr, "/api/obstacles", body);
            assert_eq!(status(&answer), code, "{body}: {answer}");
            assert!(!error_message(&answer).is_empty(), "{body}: {answer}");
        }
        for target in
            ["/api/obstacles/abc", "/api/obstacles/-1", "/api/obstacles/", "/api/obstacles/99999999999"]
        {
            let answer = request(addr, "DELETE", target, &[], "");
            assert_eq!(status(&answer), 400, "{target}: {answer}");
        }
        assert_eq!(status(&request(addr, "DELETE", "/api/obstacles/7", &[], "")), 422);
        let mesh_after = request(addr, "GET", "/api/mesh", &[], "");
        assert_eq!(body_of(&mesh_after), body_of(&mesh_before));
        // The server still answers after all of that.
        assert_eq!(status(&request(addr, "GET", "/api/mesh", &[], "")), 200);
    }

    #[test]
    fn bodies_and_headers_are_bounded_in_size() {
        let addr = start(LIMITS);
        let big = format!(r#"{{"from": [1, 1], "to": [2, 2], "pad": "{}"}}"#, "x".repeat(2000));
        let declared = post(addr, "/api/path", &big);
        assert_eq!(status(&declared), 413);
        assert_eq!(error_message(&declared), "request body larger than 1024 bytes");
        // Chunked, with no declared length: cut off while reading.
        let chunk = "x".repeat(600);
        let chunked = format!(
            "POST /api/path HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nConnection: close\r\n\
             Transfer-Encoding: chunked\r\n\r\n258\r\n{chunk}\r\n258\r\n{chunk}\r\n0\r\n\r\n"
        );
        assert_eq!(status(&raw(addr, chunked.as_bytes())), 413);
        let header = format!("X-Padding: {}", "y".repeat(20_000));
        let answer = request(addr, "GET", "/", &[&header], "");
        assert_eq!(status(&answer), 431, "{answer}");
        let long_target = format!("/{}", "z".repeat(20_000));
        assert_eq!(status(&request(addr, "GET", &long_target, &[], "")), 431);
        // Not HTTP at all.
        assert_eq!(status(&raw(addr, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n")), 400);
        assert_eq!(status(&request(addr, "GET", "/", &[], "")), 200);
    }

    #[test]
    fn slow_clients_are_cut_off() {
        let addr = start(LIMITS);
        // Headers never finished: the connection is closed.
        let answer = raw(addr, format!("GET / HTTP/1.1\r\nHost: {addr}\r\n").as_bytes());
        assert!(answer.is_empty() || status(&answer) == 408, "{answer:?}");
        // A body that never arrives in full: 408.
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let head = format!(
            "POST /api/path HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{{\"from\""
        );
        stream.write_all(head.as_bytes()).unwrap();
        let answer = read_until_closed(&mut stream);
        assert_eq!(status(&answer), 408, "{answer}");
        assert_eq!(error_message(&answer), "request body not received within 0.3 s");
        // An idle keep-alive connection is closed too.
        let mut idle = TcpStream::connect(addr).unwrap();
        idle.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        idle.write_all(format!("GET /viewer.css HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes()).unwrap();
        let all = read_until_closed(&mut idle);
        assert_eq!(status(&all), 200);
        assert!(all.ends_with(ASSETS[2].body), "{all}");
    }

    #[test]
    fn connections_beyond_the_limit_wait_their_turn() {
        let addr = start(Limits { max_connections: 2, header_timeout: Duration::from_secs(2), ..LIMITS });
        // Two silent connections hold both places; a third is served once they time out.
        let silent: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
        let answer = request(addr, "GET", "/viewer.css", &[], "");
        assert_eq!(status(&answer), 200);
        for s in silent {
            let _ = s.shutdown(Shutdown::Both);
        }
    }

    #[test]
    fn only_loopback_names_are_answered_on_a_loopback_address() {
        let addr = start(LIMITS);
        for host in ["localhost", "127.0.0.1", "[::1]"] {
            for h in [host.to_string(), format!("{host}:{}", addr.port())] {
                let answer =
                    raw(addr, format!("GET / HTTP/1.1\r\nHost: {h}\r\nConnection: close\r\n\r\n").as_bytes());
                assert_eq!(status(&answer), 200, "{h}");
            }
        }
        for host in ["evil.example", "evil.example:80", "127.0.0.1.evil.example"] {
            let answer = raw(
                addr,
                format!("GET /api/mesh HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
            );
            assert_eq!(status(&answer), 403, "{host}");
            assert!(error_message(&answer).contains(host), "{answer}");
        }
        let any = "0.0.0.0:8417".parse().unwrap();
        assert_eq!(allowed_hosts(any), None);
        let v6 = allowed_hosts("[::1]:9".parse().unwrap()).unwrap();
        assert!(v6.contains(&"[::1]:9".to_string()) && v6.contains(&"localhost:9".to_string()), "{v6:?}");
    }
}
