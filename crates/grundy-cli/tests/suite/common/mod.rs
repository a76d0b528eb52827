//! Helpers shared by the end-to-end tests: run the real `grundy` binary and read its output.

// The test modules use only some of the helpers each.
#![allow(dead_code)]

pub mod chrome;
pub mod server;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `grundy` with these arguments.
pub fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `grundy` with these arguments and `input` on standard input.
pub fn grundy_with_input(args: &[&str], input: &str) -> Output {
    grundy_with_bytes(args, input.as_bytes())
}

/// Runs `grundy` with these arguments and raw bytes on standard input (written from a thread
/// of its own, so a large input cannot block the run; a reader that stops early is fine).
pub fn grundy_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The reader may stop early (a refusal): a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Sends `signal` (`-INT`, `-TERM`, ...) to process `pid` with `kill`.
pub fn send_signal(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill {signal} {pid}");
}

/// Sends `signal` (`-INT`, `-TERM`, ...) to a long `grundy` run after it got going; returns
/// its exit code, its standard error and how long it took to stop.
#[cfg(unix)]
pub fn interrupt(args: &[&str], signal: &str) -> (Option<i32>, String, Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        child.try_wait().unwrap().is_none(),
        "{args:?} ended before the signal"
    );
    let sent = Instant::now();
    send_signal(child.id(), signal);
    // Wait at most 20 s (a loaded machine), then kill it so that the test cannot hang.
    while child.try_wait().unwrap().is_none() && sent.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), stderr(&out), sent.elapsed())
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("output is UTF-8")
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("errors are UTF-8")
}

/// Standard output as text, after checking that the command succeeded.
pub fn ok_stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", stderr(o));
    stdout(o)
}

/// Standard output parsed as JSON, after checking that the command succeeded.
pub fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
