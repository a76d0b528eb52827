//! `grundy serve` keeps a memory ceiling: junk of every kind (huge bodies, thousands of
//! headers, endless request lines, requests cut off, wrong methods) costs bounded memory that
//! is given back, and thousands of distinct requests level off. The resident memory is read
//! from /proc before, during and after; the figures are printed (`--nocapture`) and held to
//! ceilings far above what the server needs and far below what unbounded buffers took (250 MB
//! after 200 junk requests, before the caps).

use crate::common::server::Server;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

const MIB: u64 = 1024;

/// Clients holding an unfinished request head open at once.
const HOLDERS: usize = 256;

/// One junk request of kind `k`, sent and read as far as the server lets it; every error of
/// the client's side (a reset when the server closes early) is expected and ignored.
fn junk(address: &str, k: usize) {
    let Ok(mut s) = TcpStream::connect(address) else {
        return;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(20)));
    let _ = s.set_write_timeout(Some(Duration::from_secs(20)));
    let chunk = vec![b'7'; 64 * 1024];
    let _ = match k % 6 {
        // A 10 MB body on a JSON route.
        0 => s
            .write_all(
                b"POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                  Content-Length: 10485760\r\n\r\n",
            )
            .and_then(|()| (0..160).try_for_each(|_| s.write_all(&chunk))),
        // 10,000 headers.
        1 => {
            let mut head = String::from("GET / HTTP/1.1\r\nHost: x\r\n");
            for i in 0..10_000 {
                head.push_str(&format!("X-Junk-{i}: {}\r\n", "v".repeat(24)));
            }
            head.push_str("\r\n");
            s.write_all(head.as_bytes())
        }
        // A request line of 4 MB.
        2 => s
            .write_all(b"GET /")
            .and_then(|()| (0..64).try_for_each(|_| s.write_all(&chunk))),
        // A request cut off in its body.
        3 => s.write_all(
            b"POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 5000\r\n\r\n{\"position\": \"nim",
        ),
        // A wrong method.
        4 => s.write_all(b"DELETE /api/analyze HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        // A body of 16 MB sent chunked.
        _ => s
            .write_all(
                b"POST /api/sequence HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                  Transfer-Encoding: chunked\r\n\r\n",
            )
            .and_then(|()| {
                (0..256).try_for_each(|_| {
                    s.write_all(b"10000\r\n")?;
                    s.write_all(&chunk)?;
                    s.write_all(b"\r\n")
                })
            }),
    };
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut sink = Vec::new();
    let _ = s.take(1 << 20).read_to_end(&mut sink);
}

/// Runs `work` on `threads` threads while sampling the server's resident memory; returns the
/// peak, in KiB.
fn peak_during(server: &Server, threads: usize, work: impl Fn(usize) + Sync) -> u64 {
    let peak = AtomicU64::new(server.resident_kib());
    let done = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let sampler = scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(server.resident_kib(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let work = &work;
        let workers: Vec<_> = (0..threads).map(|t| scope.spawn(move || work(t))).collect();
        for w in workers {
            w.join().unwrap();
        }
        done.store(true, Ordering::Relaxed);
        sampler.join().unwrap();
    });
    peak.into_inner()
}

/// The resident memory once the server has had a moment to give back what it freed.
fn settled(server: &Server) -> u64 {
    std::thread::sleep(Duration::from_millis(1500));
    server.resident_kib()
}

#[test]
fn a_junk_storm_costs_bounded_memory_that_is_given_back() {
    let server = Server::start(&[]);
    assert_eq!(server.request("GET", "/api/rules", "").0, 200);
    let before = server.resident_kib();
    let threads = 16;
    let per_thread = 40; // 640 junk requests
    let peak = peak_during(&server, threads, |t| {
        for i in 0..per_thread {
            junk(&server.address, t * per_thread + i);
        }
    });
    // Then clients holding unfinished heads open while the memory is read: half send a
    // header that never ends (350 KB, which hyper's default buffer took whole: 128 MB for
    // 256 such clients), half stay just under the head limit (30 KB) and wait.
    let held: Vec<TcpStream> = (0..HOLDERS)
        .filter_map(|i| {
            let mut s = TcpStream::connect(&server.address).ok()?;
            s.set_write_timeout(Some(Duration::from_secs(5))).ok()?;
            let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: ");
            let chunk = vec![b'v'; if i % 2 == 0 { 50 * 1024 } else { 10 * 1024 }];
            for _ in 0..if i % 2 == 0 { 7 } else { 3 } {
                if s.write_all(&chunk).is_err() {
                    break;
                }
            }
            Some(s)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let holding = server.resident_kib();
    drop(held);
    let peak = peak.max(holding);
    let after = settled(&server);
    // The server still answers.
    assert_eq!(server.request("GET", "/api/rules", "").0, 200);
    println!(
        "junk storm of {} requests: resident {before} KiB before, {peak} KiB at most during \
         ({holding} KiB with {HOLDERS} unfinished heads held open), {after} KiB after",
        threads * per_thread
    );
    assert!(peak < before + 48 * MIB, "{before} -> peak {peak} KiB");
    assert!(after < before + 16 * MIB, "{before} -> after {after} KiB");
}

#[test]
fn thousands_of_distinct_requests_level_off() {
    let server = Server::start(&[]);
    let send = |i: usize| {
        // Distinct rules: a subtraction set and a code, each new to the server.
        let rule = if i % 2 == 0 {
            format!("sub(1,{})", 3 + i)
        } else {
            format!("sub(2,{})", 5 + i)
        };
        let (status, body) = server.post(
            "/api/sequence",
            &serde_json::json!({ "rule": rule, "to": 500 }),
        );
        assert_eq!(status, 200, "{body}");
    };
    let mut levels = Vec::new();
    let rounds = 4;
    let per_round = 600; // 2,400 requests in all
    for round in 0..rounds {
        let threads = 4;
        peak_during(&server, threads, |t| {
            for j in (t..per_round).step_by(threads) {
                send(round * per_round + j);
            }
        });
        levels.push(server.resident_kib());
    }
    println!(
        "soak of {} distinct sequence requests: resident KiB after each {per_round}: {levels:?}",
        rounds * per_round
    );
    // After the first round (buffers and caches warm), the rest adds little.
    let grown = levels[rounds - 1].saturating_sub(levels[1]);
    assert!(grown < 8 * MIB, "{levels:?}");
}
