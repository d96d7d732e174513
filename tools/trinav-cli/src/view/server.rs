//! The viewer's HTTP server: hyper (HTTP/1.1) on a single-threaded tokio runtime.
//!
//! Routes: `GET /` and the page's assets (a fixed table of files embedded in the binary: a
//! request is answered from the table by exact path, never from the file system, so no path
//! can reach another file), `GET /api/mesh` (the geometry, serialized once at start) and
//! `POST /api/path`, `/api/raycast`, `/api/locate` (see [`super::api`]). Anything else is 404,
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

use super::api::{ApiError, Queries};

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
    /// The JSON of [`super::api::Geometry`].
    geometry: Bytes,
    /// The queries, one at a time.
    queries: Mutex<Queries>,
    /// The `Host` values answered; `None`: any.
    hosts: Option<Vec<String>>,
    limits: Limits,
}

impl App {
    /// Serves `geometry` and `queries` on `addr` (the address actually bound) within `limits`.
    pub fn new(geometry: Vec<u8>, queries: Queries, addr: SocketAddr, limits: Limits) -> App {
        App {
            geometry: Bytes::from(geometry),
            queries: Mutex::new(queries),
            hosts: allowed_hosts(addr),
            limits,
        }
    }
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
        "/api/mesh" if readable => json(StatusCode::OK, app.geometry.clone()),
        "/api/mesh" => not_allowed("GET"),
        "/api/path" | "/api/raycast" | "/api/locate" if method == Method::POST => {
            let body = match read_body(request, &app.limits).await {
                Ok(body) => body,
                Err(response) => return *response,
            };
            let mut queries = app.queries.lock().unwrap_or_else(PoisonError::into_inner);
            match path.as_str() {
                "/api/path" => answer(queries.path(&body)),
                "/api/raycast" => answer(queries.raycast(&body)),
                _ => answer(queries.locate(&body)),
            }
        }
        "/api/path" | "/api/raycast" | "/api/locate" => not_allowed("POST"),
        _ => error(
            StatusCode::NOT_FOUND,
            &format!("no such page: {path} (the viewer serves / and its API under /api/)"),
        ),
    }
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
