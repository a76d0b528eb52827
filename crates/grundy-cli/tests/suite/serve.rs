//! End-to-end: `grundy serve` and its JSON API, over real HTTP, under concurrent load.

use crate::common::server;

use serde_json::{Value, json};
use server::{Server, nim_sum};
use std::time::{Duration, Instant};

/// The library's own analysis, as JSON, to check the server's answers against.
fn library(expression: &str) -> Value {
    let a = grundy::analyze(expression, &grundy::Options::default()).unwrap();
    serde_json::to_value(a).unwrap()
}

#[test]
fn the_page_and_the_api_answer_and_bad_input_gets_json_errors() {
    let s = Server::start(&[]);
    let (status, page) = s.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<title>grundy"), "{page}");
    let (status, rules) = s.request("GET", "/api/rules", "");
    assert_eq!(status, 200);
    assert!(rules.contains("\"kayles\""));

    let (status, a) = s.post("/api/analyze", &json!({"expression": "nim 13 12 8"}));
    assert_eq!(status, 200, "{a}");
    let expected = library("nim 13 12 8");
    for key in ["value", "outcome", "winning_moves", "explanation", "notes"] {
        assert_eq!(a[key], expected[key], "{key}");
    }
    let (_, a) = s.post("/api/analyze", &json!({"expression": "kayles 1000"}));
    // The notes are typed data (as in `analyze --json`), with their text for the page.
    assert_eq!(a["notes"], library("kayles 1000")["notes"]);
    assert_eq!(a["notes"][0]["kind"], "period");
    assert_eq!(a["notes"][0]["same_as"], 76);
    assert!(
        a["notes"][0]["text"]
            .as_str()
            .unwrap()
            .contains("g(1000) = g(76)"),
        "{a}"
    );
    assert_eq!(a["components"][0]["family"], "heap");
    assert_eq!(a["components"][0]["rule"], "kayles");
    // The value alone, as `analyze --no-moves` gives it.
    let (status, a) = s.post(
        "/api/analyze",
        &json!({"expression": "cram 3x5 + nim 2", "moves": "none"}),
    );
    assert_eq!(status, 200, "{a}");
    assert_eq!(
        (a["value"].as_u64(), a["outcome"].as_str()),
        (Some(3), Some("N"))
    );
    assert_eq!(a["winning_moves"], json!([]));
    assert_eq!(a["winning_moves_complete"], false);
    let (status, e) = s.post(
        "/api/analyze",
        &json!({"expression": "nim 1", "moves": "some"}),
    );
    assert_eq!(status, 400, "{e}");

    // Bad input: each a clear JSON error with the right status.
    let (status, e) = s.post("/api/analyze", &json!({"expression": "nim 3 + nmi 4"}));
    assert_eq!(status, 422);
    assert!(
        e["error"].as_str().unwrap().contains("unknown rule `nmi`"),
        "{e}"
    );
    assert_eq!(e["span"], json!([8, 11]));
    let long = format!("nim {}", "1 ".repeat(1500));
    let (status, e) = s.post("/api/analyze", &json!({ "expression": long }));
    assert_eq!(status, 413, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("more than the limit of 2000")
    );
    let huge = "x".repeat(40_000);
    let (status, _) = s.request(
        "POST",
        "/api/analyze",
        &format!("{{\"expression\": \"{huge}\"}}"),
    );
    assert_eq!(status, 413);
    let (status, text) = s.request("POST", "/api/analyze", "{not json");
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("\"error\""), "{text}");
    let (status, text) = s.request("GET", "/api/nothing", "");
    assert_eq!(status, 404);
    assert!(text.contains("\"error\""));
    let (status, e) = s.post(
        "/api/play",
        &json!({"expression": "nim 2 3", "move": "nim 5"}),
    );
    assert_eq!(status, 422);
    assert_eq!(e["error"], "nim 5 is not one move away from nim 2 3");
    let (status, e) = s.post("/api/sequence", &json!({"rule": "kayles", "to": 1_000_000}));
    assert_eq!(status, 422, "{e}");

    // A closed connection in the middle of a request does not disturb the server.
    {
        use std::io::Write;
        let mut c = std::net::TcpStream::connect(&s.address).unwrap();
        c.write_all(b"POST /api/analyze HTTP/1.1\r\nContent-Length: 500\r\n\r\n{\"expr")
            .unwrap();
    }
    let (status, _) = s.post("/api/analyze", &json!({"expression": "nim 1"}));
    assert_eq!(status, 200);
}

#[test]
fn huge_heaps_are_played_by_typed_positions_through_the_api() {
    let s = Server::start(&[]);
    let (status, state) = s.post("/api/play", &json!({"expression": "nim 1000000000 7"}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["status"],
        json!({"state": "tomove", "player": "human"})
    );
    assert_eq!(state["moves_total"], 0);
    assert!(
        state["unlisted"]
            .as_str()
            .unwrap()
            .contains("too many moves to list"),
        "{state}"
    );
    let (status, next) = s.post(
        "/api/play",
        &json!({"expression": "nim 1000000000 7", "move": "nim 5 7"}),
    );
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["human_move"]["move"], "1000000000 -> 5");
    // The computer's winning reply: nim 5 5.
    assert_eq!(next["computer_move"]["choice"]["result"], "nim 5 5");
    let (status, e) = s.post(
        "/api/play",
        &json!({"expression": "nim 1000000000 7", "move": "2"}),
    );
    assert_eq!(status, 422, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("too many to number"),
        "{e}"
    );
}

#[test]
fn a_whole_game_of_nim_through_the_api() {
    let s = Server::start(&[]);
    let (status, mut state) = s.post("/api/play", &json!({"expression": "nim 3 4 5"}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(
        state["status"],
        json!({"state": "tomove", "player": "human"})
    );
    assert_eq!(state["moves_total"], 12);
    for _ in 0..20 {
        if state["status"]["state"] == "won" {
            break;
        }
        let position = state["position"].as_str().unwrap().to_string();
        let (status, next) = s.post("/api/play", &json!({"expression": position, "move": "1"}));
        assert_eq!(status, 200, "{next}");
        let after_human = next["human_move"]["result"].as_str().unwrap();
        if let Some(reply) = next["computer_move"].as_object() {
            let result = reply["choice"]["result"].as_str().unwrap();
            if nim_sum(after_human) != 0 {
                assert_eq!(
                    nim_sum(result),
                    0,
                    "the computer missed a win from {after_human}"
                );
                assert_eq!(reply["reason"]["kind"], "winning");
            }
        }
        state = next;
    }
    assert_eq!(
        state["status"],
        json!({"state": "won", "player": "computer"})
    );
    // The computer can also start; hints list the winning moves.
    let (_, first) = s.post(
        "/api/play",
        &json!({"expression": "nim 2 3", "computer_first": true}),
    );
    assert_eq!(first["computer_move"]["choice"]["result"], "nim 2 2");
    let (_, hint) = s.post("/api/hint", &json!({"expression": "nim 3 4 5"}));
    assert_eq!(hint["outcome"], "N");
    assert_eq!(hint["moves"][0]["result"], "nim 1 4 5");
    let (_, hint) = s.post(
        "/api/hint",
        &json!({"expression": "kayles 7", "misere": true}),
    );
    assert!(hint["remoteness"].is_u64(), "{hint}");
}

#[test]
fn pictures_and_sequences() {
    let s = Server::start(&[]);
    let (status, p) = s.post(
        "/api/picture",
        &json!({"expression": "hackenbush 0-1 1-2 2-3 + hackenbush 0-4"}),
    );
    assert_eq!(status, 200, "{p}");
    assert!(
        p["hackenbush_svgs"][0]
            .as_str()
            .unwrap()
            .contains("cut 1-2")
    );
    assert!(p["graph_svg"].as_str().unwrap().contains("<svg"));
    let (_, p) = s.post("/api/picture", &json!({"expression": "nim 40 40"}));
    assert!(
        p["graph_error"]
            .as_str()
            .unwrap()
            .contains("too many to draw"),
        "{p}"
    );
    let (status, q) = s.post(
        "/api/sequence",
        &json!({"rule": "kayles", "to": 300, "plot": true}),
    );
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["values"].as_array().unwrap().len(), 301);
    assert_eq!(q["values"][3], 3);
    assert_eq!(q["period"]["proven"], true, "{q}");
    assert!(
        q["period"]["text"]
            .as_str()
            .unwrap()
            .starts_with("period 12 from n = 71"),
        "{q}"
    );
    assert!(
        q["plot"]
            .as_str()
            .unwrap()
            .contains("preperiod 71, period 12")
    );
}

/// 50 clients at once, each a bounded loop of requests, every answer checked against the
/// library.
#[test]
fn fifty_clients_at_once() {
    let s = std::sync::Arc::new(Server::start(&[]));
    let started = Instant::now();
    let threads: Vec<_> = (0..50u64)
        .map(|t| {
            let s = std::sync::Arc::clone(&s);
            std::thread::spawn(move || {
                for k in 0..4u64 {
                    let (a, b, c) = (t % 7 + 1, (t * 3 + k) % 11, (t + 5 * k) % 13);
                    let expression = format!("nim {a} {b} {c}");
                    let (status, answer) =
                        s.post("/api/analyze", &json!({ "expression": expression }));
                    assert_eq!(status, 200, "{answer}");
                    let expected = library(&expression);
                    assert_eq!(answer["value"], expected["value"], "{expression}");
                    assert_eq!(answer["winning_moves"], expected["winning_moves"]);
                    let kayles = format!("kayles {} + nim {}", t % 20, k);
                    let (status, answer) = s.post("/api/analyze", &json!({ "expression": kayles }));
                    assert_eq!(status, 200, "{answer}");
                    assert_eq!(answer["value"], library(&kayles)["value"], "{kayles}");
                    let (status, answer) =
                        s.post("/api/play", &json!({"expression": expression, "move": "1"}));
                    assert_eq!(status, 200, "{answer}");
                    let after = answer["human_move"]["result"].as_str().unwrap();
                    if let Some(r) = answer["computer_move"]["choice"]["result"].as_str() {
                        if nim_sum(after) != 0 {
                            assert_eq!(nim_sum(r), 0, "{after} -> {r}");
                        }
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a client failed");
    }
    println!("50 clients x 12 requests in {:?}", started.elapsed());
}

/// A request that would run too long is stopped with a clear message, and the server keeps
/// serving the others.
#[test]
fn a_long_request_is_stopped_and_others_are_served() {
    let s = Server::start(&["--timeout", "1"]);
    let heavy = json!({"expression": "kayles 40 + kayles 41 + dawson-kayles 37 + 0.137 33", "misere": true});
    let started = Instant::now();
    let (status, e) = s.post("/api/analyze", &heavy);
    assert!(status == 503 || status == 422, "{status} {e}");
    assert!(!e["error"].as_str().unwrap().is_empty());
    assert!(started.elapsed() < Duration::from_secs(30));
    let (status, a) = s.post("/api/analyze", &json!({"expression": "nim 1 2"}));
    assert_eq!(status, 200, "{a}");
}

/// Clients that hang up stop their work: four long requests closed at once would otherwise
/// hold every computation slot until their budgets ran out.
#[test]
fn a_closed_connection_cancels_its_work() {
    use std::io::Write;
    let s = Server::start(&["--timeout", "120"]);
    let body = json!({"expression": "kayles 40 + kayles 41 + dawson-kayles 37 + 0.137 33", "misere": true}).to_string();
    for _ in 0..4 {
        let mut c = std::net::TcpStream::connect(&s.address).unwrap();
        let head = format!(
            "POST /api/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        c.write_all(head.as_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
    let started = Instant::now();
    let (status, a) = s.post("/api/analyze", &json!({"expression": "nim 1 2"}));
    assert_eq!(status, 200, "{a}");
    println!("answered after the hang-ups in {:?}", started.elapsed());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// The page offers an example of every rule of the expression language, and each one is
/// analysed (with the library's answer) when clicked.
#[test]
fn the_page_has_an_example_of_every_rule() {
    let s = Server::start(&[]);
    let (_, page) = s.request("GET", "/", "");
    let data = page
        .split(r#"<script type="application/json" id="examples-data">"#)
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .expect("the examples in the page");
    let families: Vec<(String, Vec<(String, String)>)> =
        serde_json::from_str(data).expect("the examples are JSON");
    let examples: Vec<&String> = families
        .iter()
        .flat_map(|(_, list)| list.iter().map(|(e, _)| e))
        .collect();
    let mut covered = std::collections::HashSet::new();
    for e in &examples {
        for term in e.split('+') {
            let head = term.split_whitespace().next().unwrap();
            let name = head.split('(').next().unwrap();
            let rule = grundy::catalog::find_rule(name).unwrap_or_else(|| panic!("{e}"));
            covered.insert(rule.name);
        }
        let (status, a) = s.post("/api/analyze", &json!({ "expression": e }));
        assert_eq!(status, 200, "{e}: {a}");
        assert_eq!(a["value"], library(e)["value"], "{e}");
    }
    for rule in grundy::catalog::rules() {
        assert!(
            covered.contains(rule.name),
            "no example of `{}` on the page",
            rule.usage
        );
    }
}
