//! A small WebDriver client (the W3C protocol: JSON over HTTP) driving headless Chromium
//! through chromedriver, over the `ureq` HTTP client.
//!
//! Only what the viewer's tests use: a session, navigation, scripts (a returned promise is
//! awaited), pointer, key and wheel actions, screenshots. A crate (fantoccini) was measured
//! against this: 128 crates and 121 s of debug build on the 2-core machine, against 17 crates
//! and 22 s for ureq.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use base64::Engine;
use serde_json::{Value, json};

/// Chromium's flags: headless, no network of its own (no updates, sync, metrics or QUIC
/// probes: the test machines have no outside network), root-safe, a fixed window, and WebGL
/// on the software rasterizer (SwiftShader) since there is no GPU.
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--enable-unsafe-swiftshader",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--metrics-recording-only",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--window-size=1280,800",
];

/// The browser and its driver, as found on this machine.
pub struct Installation {
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

impl Installation {
    /// `TRINAV_CHROMIUM` and `TRINAV_CHROMEDRIVER`, or `chromium` (also `chromium-browser`,
    /// `google-chrome`) and `chromedriver` on the PATH. `Err` names what is missing.
    pub fn find() -> Result<Installation, String> {
        let find = |variable: &str, names: &[&str]| -> Option<PathBuf> {
            if let Some(path) = std::env::var_os(variable) {
                return Some(PathBuf::from(path));
            }
            let path = std::env::var_os("PATH")?;
            std::env::split_paths(&path)
                .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
                .find(|p| p.is_file())
        };
        let chromium = find("TRINAV_CHROMIUM", &["chromium", "chromium-browser", "google-chrome"]);
        let chromedriver = find("TRINAV_CHROMEDRIVER", &["chromedriver"]);
        match (chromium, chromedriver) {
            (Some(chromium), Some(chromedriver)) => Ok(Installation { chromium, chromedriver }),
            (c, d) => {
                let missing: Vec<&str> = [(c.is_none(), "chromium"), (d.is_none(), "chromedriver")]
                    .iter()
                    .filter(|(m, _)| *m)
                    .map(|(_, n)| *n)
                    .collect();
                Err(format!("{} not found (apt-get install chromium chromium-driver)", missing.join(" and ")))
            }
        }
    }
}

/// A browser session; dropping it ends the session and the driver.
pub struct Browser {
    driver: Child,
    agent: ureq::Agent,
    /// `http://127.0.0.1:PORT/session/ID`.
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts chromedriver on a free loopback port and a headless Chromium session with a
    /// fresh profile.
    pub fn start(installation: &Installation) -> Result<Browser, String> {
        let mut driver = Command::new(&installation.chromedriver)
            .args(["--port=0", "--allowed-ips=127.0.0.1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: cannot start: {e}", installation.chromedriver.display()))?;
        let port = driver_port(&mut driver).inspect_err(|_| {
            let _ = driver.kill();
            let _ = driver.wait();
        })?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(180)))
            .build()
            .into();
        let profile = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": installation.chromium, "args": args},
            "timeouts": {"script": 120_000, "pageLoad": 60_000},
        }}});
        let mut browser =
            Browser { driver, agent, session: format!("http://127.0.0.1:{port}/session"), _profile: profile };
        let created = browser.call("POST", "", Some(capabilities))?;
        let id = created["sessionId"].as_str().ok_or(format!("no session id in {created}"))?;
        browser.session = format!("{}/{id}", browser.session);
        browser.set_viewport(1280, 800)?;
        Ok(browser)
    }

    /// One WebDriver command: `path` below the session; the `value` of the answer.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.session);
        let response = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self.agent.post(&url).send_json(body.unwrap_or(json!({}))),
        };
        let mut response = response.map_err(|e| format!("{method} {url}: {e}"))?;
        let status = response.status();
        let answer: Value = response
            .body_mut()
            .with_config()
            .limit(64 << 20)
            .read_json()
            .map_err(|e| format!("{method} {url}: HTTP {status}, {e}"))?;
        if !status.is_success() {
            let value = &answer["value"];
            return Err(format!("{method} {path}: {}: {}", value["error"], value["message"]));
        }
        Ok(answer["value"].clone())
    }

    /// Makes the page's viewport `width` × `height` CSS pixels (the window is larger by its
    /// frame, which headless Chromium draws too).
    pub fn set_viewport(&self, width: u32, height: u32) -> Result<(), String> {
        let frame = self.execute("return [outerWidth - innerWidth, outerHeight - innerHeight]", json!([]))?;
        let (dx, dy) = (frame[0].as_u64().unwrap_or(0), frame[1].as_u64().unwrap_or(0));
        let rect = json!({"width": u64::from(width) + dx, "height": u64::from(height) + dy});
        self.call("POST", "/window/rect", Some(rect)).map(drop)
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.call("POST", "/url", Some(json!({ "url": url }))).map(drop)
    }

    /// Runs `script` (a function body; `arguments` holds `args`) and returns what it returns;
    /// a promise is awaited.
    pub fn execute(&self, script: &str, args: Value) -> Result<Value, String> {
        self.call("POST", "/execute/sync", Some(json!({ "script": script, "args": args })))
    }

    /// Evaluates `script` every 50 ms until it returns `true` (or 60 s pass).
    pub fn wait_for(&self, what: &str, script: &str) -> Result<(), String> {
        for _ in 0..1200 {
            if self.execute(script, json!([]))? == json!(true) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!("timed out waiting for {what}"))
    }

    /// Performs input actions (W3C `actions`), then releases every key and button.
    fn actions(&self, sources: Value) -> Result<(), String> {
        self.call("POST", "/actions", Some(json!({ "actions": sources })))?;
        self.call("DELETE", "/actions", None).map(drop)
    }

    /// Clicks at viewport pixel (x, y), holding Shift when `shift`.
    pub fn click(&self, (x, y): (i64, i64), shift: bool) -> Result<(), String> {
        const SHIFT: &str = "\u{E008}";
        let pause = json!({"type": "pause", "duration": 0});
        let keys = if shift {
            vec![
                json!({"type": "keyDown", "value": SHIFT}),
                pause.clone(),
                pause.clone(),
                json!({"type": "keyUp", "value": SHIFT}),
            ]
        } else {
            vec![pause.clone(); 4]
        };
        self.actions(json!([
            {"type": "key", "id": "keyboard", "actions": keys},
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x, "y": y},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0},
                pause,
            ]},
        ]))
    }

    /// Moves the pointer to viewport pixel (x, y).
    pub fn hover(&self, (x, y): (i64, i64)) -> Result<(), String> {
        self.actions(
            json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x, "y": y},
            ]}]),
        )
    }

    /// Drags with the button held from `from` to `to` (viewport pixels).
    pub fn drag(&self, from: (i64, i64), to: (i64, i64)) -> Result<(), String> {
        self.actions(
            json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": from.0, "y": from.1},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "duration": 150, "origin": "viewport", "x": to.0, "y": to.1},
                {"type": "pointerUp", "button": 0},
            ]}]),
        )
    }

    /// Turns the wheel by `delta_y` pixels at viewport pixel (x, y).
    pub fn wheel(&self, (x, y): (i64, i64), delta_y: i64) -> Result<(), String> {
        self.actions(json!([{"type": "wheel", "id": "wheel", "actions": [
            {"type": "scroll", "origin": "viewport", "x": x, "y": y, "deltaX": 0, "deltaY": delta_y},
        ]}]))
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        let encoded = self.call("GET", "/screenshot", None)?;
        let encoded = encoded.as_str().ok_or("the screenshot is not a string")?;
        base64::engine::general_purpose::STANDARD.decode(encoded).map_err(|e| format!("screenshot: {e}"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.call("DELETE", "", None);
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The port chromedriver reports on its first lines (`... started successfully on port N.`).
fn driver_port(driver: &mut Child) -> Result<u16, String> {
    let stdout = driver.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    for line in lines.by_ref().take(20) {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(rest) = line.split("on port ").nth(1) {
            let port = rest.trim_end_matches('.').trim();
            if let Ok(port) = port.parse::<u16>()
                && port != 0
            {
                // Keep draining its output so that it never blocks on a full pipe.
                std::thread::spawn(move || lines.for_each(drop));
                return Ok(port);
            }
        }
    }
    Err("chromedriver did not report its port".to_string())
}

/// Where the browser tests keep their screenshots and measurements: `target/tmp/trinav-view`.
pub fn artifacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("trinav-view");
    std::fs::create_dir_all(&dir).expect("the artifacts folder can be made");
    dir
}
