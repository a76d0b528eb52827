//! Headless Chromium for the browser tests, driven through chromedriver with `fantoccini`:
//! one way to start it, open sessions at a given width and keep screenshots.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`.ci/run` installs them where
//! it can); without them [`Chrome::start`] says why the test is skipped and the test passes.

// The test modules use only some of the helpers each.
#![allow(dead_code)]

use fantoccini::{Client, ClientBuilder};
use std::future::Future;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Whether `program --version` runs.
pub fn found(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A free TCP port on the loopback interface.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A running chromedriver, stopped when dropped.
pub struct Chrome {
    child: Child,
    port: u16,
}

impl Chrome {
    /// Starts chromedriver on a free port and waits until it listens; `None` (after saying
    /// that the test is skipped) without Chromium or chromedriver.
    pub fn start() -> Option<Chrome> {
        if !found("chromium") || !found("chromedriver") {
            println!(
                "SKIPPED: the browser test needs Chromium and chromedriver \
                 (apt-get install chromium chromium-driver)"
            );
            return None;
        }
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        // Made at once, so that a chromedriver that never listens is still stopped.
        let chrome = Chrome { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(chrome)
    }

    /// Runs the test's browser work (which opens its sessions with [`Chrome::session`]) to
    /// its end on a runtime of its own.
    pub fn run(&self, work: impl Future<Output = ()>) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(work);
    }

    /// A new headless browser session whose page is `width` CSS pixels wide (a phone's width
    /// below 500 px is emulated: Chromium's windows are at least 500 px wide).
    pub async fn session(&self, width: u32) -> Client {
        let mut caps = serde_json::Map::new();
        let mut options = serde_json::json!({"args": ["--headless=new", "--no-sandbox",
            "--disable-gpu", "--disable-dev-shm-usage", format!("--window-size={width},800")]});
        if width < 500 {
            options["mobileEmulation"] = serde_json::json!({"deviceMetrics":
                {"width": width, "height": 800, "pixelRatio": 1.0}});
        }
        caps.insert("goog:chromeOptions".into(), options);
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a browser session")
    }
}

impl Drop for Chrome {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Saves a screenshot of the page as `target/browser-screenshots/NAME` (a test artefact).
pub async fn screenshot(c: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}
