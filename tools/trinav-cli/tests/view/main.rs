//! `trinav view` end to end: the real binary serving, answered over HTTP (`http`), and the
//! page in headless Chromium (`browser`, through the WebDriver client of `webdriver`).

mod browser;
mod http;
mod webdriver;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_trinav");

fn trinav(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data").join(path).to_str().unwrap().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `trinav path MESH --from X,Y --to X,Y --json --mode MODE`, parsed.
fn cli_path(mesh: &str, from: [f64; 2], to: [f64; 2], mode: &str) -> Value {
    let (from, to) = (format!("{},{}", from[0], from[1]), format!("{},{}", to[0], to[1]));
    let out = trinav(&["path", mesh, "--from", &from, "--to", &to, "--json", "--mode", mode]);
    assert!(out.status.code().is_some_and(|c| c <= 1), "trinav path: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("trinav path --json prints JSON")
}

/// A running `trinav view`, stopped when dropped.
struct Viewer {
    child: Child,
    /// `http://127.0.0.1:PORT/`, as printed.
    url: String,
    /// The first line it printed.
    banner: String,
}

impl Viewer {
    /// Starts `trinav view FILE --port 0 EXTRA...` and reads the address it prints.
    fn start(file: &str, extra: &[&str]) -> Viewer {
        let mut child = Command::new(BIN)
            .args(["view", file, "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("trinav view starts");
        let mut banner = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut banner).unwrap();
        if banner.is_empty() {
            let out = child.wait_with_output().unwrap();
            panic!("trinav view printed nothing; stderr: {}", text(&out.stderr));
        }
        let url = banner
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {banner:?}"))
            .to_string();
        Viewer { child, url, banner }
    }

    /// An absolute URL of `path` (which starts with `/`).
    fn at(&self, path: &str) -> String {
        format!("{}{}", self.url.trim_end_matches('/'), path)
    }

    /// `GET /api/mesh`.
    fn mesh(&self) -> Value {
        ureq::get(&self.at("/api/mesh"))
            .call()
            .unwrap()
            .body_mut()
            .with_config()
            .limit(256 << 20)
            .read_json()
            .unwrap()
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Prints a line past the test harness's output capture, so that it shows even when the test
/// passes (a skipped browser test must say so).
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}
