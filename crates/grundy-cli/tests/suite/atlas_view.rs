//! `grundy serve --atlas FILE`: the atlas's JSON API against a real server and a real atlas
//! made by `grundy census`, and the page's atlas view in headless Chromium at a phone's and
//! a desktop's width (skipped without Chromium).

use crate::common::chrome::{Chrome, screenshot};
use crate::common::server::Server;
use crate::common::{grundy, ok_stdout, scratch, stderr};
use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// An atlas of the 63 games of `0.??` to g(300), with 0.75's misère quotient.
fn make_atlas(name: &str) -> PathBuf {
    let dir = scratch(name);
    let db = dir.join("atlas.sqlite");
    let _ = std::fs::remove_file(&db);
    let path = db.display().to_string();
    ok_stdout(&grundy(&["census", "0.??", "--to", "300", "--db", &path]));
    ok_stdout(&grundy(&[
        "census", "0.75", "--to", "200", "--misere", "16", "--db", &path,
    ]));
    db
}

fn rows(answer: &Value) -> &Vec<Value> {
    answer["family"]["family"]["rows"].as_array().unwrap()
}

#[test]
fn the_atlas_api_answers_pages_filters_cards_and_refusals() {
    // Without --atlas the routes say how to start the server with one.
    let plain = Server::start(&[]);
    let (status, body) = plain.request("GET", "/api/atlas", "");
    assert_eq!(status, 404, "{body}");
    let e: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(e["kind"], "unsupported", "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("grundy serve --atlas FILE"),
        "{e}"
    );
    let (status, e) = plain.post("/api/atlas", &json!({"pattern": "0.??"}));
    assert_eq!(status, 404, "{e}");
    drop(plain);

    // A file that is not an atlas, or none, is refused before the server starts.
    let dir = scratch("atlas-view-bad");
    let notes = dir.join("notes.sqlite");
    std::fs::write(&notes, "hello\n").unwrap();
    for (file, says) in [
        (notes.clone(), "is not an atlas database"),
        (dir.join("none.sqlite"), "no such file"),
    ] {
        let out = grundy(&["serve", "--port", "0", "--atlas", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("--atlas") && err.contains(says), "{err}");
        assert!(out.stdout.is_empty(), "the server started");
    }

    let db = make_atlas("atlas-view-api");
    let server = Server::start(&["--atlas", db.to_str().unwrap()]);
    let (status, body) = server.request("GET", "/api/atlas", "");
    assert_eq!(status, 200, "{body}");
    let summary: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(summary["games"], 63, "{summary}");
    assert_eq!(summary["misere"], 1, "{summary}");
    assert_eq!(summary["patterns"], json!(["0.??", "0.75"]), "{summary}");
    let solved_count = summary["solved"].as_u64().unwrap();
    assert!((30..63).contains(&solved_count), "{summary}");

    // Every game of the family, in the family's order, with 0.75's misère order.
    let (status, all) = server.post("/api/atlas", &json!({"pattern": "0.??"}));
    assert_eq!(status, 200, "{all}");
    let page = &all["family"];
    assert_eq!(
        (page["matching"].as_u64(), page["complete"].as_bool()),
        (Some(63), Some(true))
    );
    assert_eq!(
        (
            page["family"]["games"].as_u64(),
            page["family"]["missing"].as_u64()
        ),
        (Some(63), Some(0))
    );
    assert!(all["card"].is_null(), "{all}");
    let codes: Vec<&str> = rows(&all)
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert_eq!((codes[0], codes.len()), ("0.01", 63), "{codes:?}");
    let kayles = rows(&all).iter().find(|r| r["code"] == "0.77").unwrap();
    assert_eq!(
        (kayles["period"].as_u64(), kayles["preperiod"].as_u64()),
        (Some(12), Some(71))
    );
    let misere = page["misere"].as_array().unwrap();
    assert_eq!(misere.len(), 1, "{misere:?}");
    assert_eq!(
        (misere[0]["code"].as_str(), misere[0]["order"].as_u64()),
        (Some("0.75"), Some(8))
    );

    // The filters split the family.
    let (_, solved) = server.post(
        "/api/atlas",
        &json!({"pattern": "0.??", "filter": "solved"}),
    );
    let (_, open) = server.post("/api/atlas", &json!({"pattern": "0.??", "filter": "open"}));
    assert_eq!(rows(&solved).len() as u64, solved_count);
    assert_eq!(solved["family"]["matching"].as_u64(), Some(solved_count));
    assert_eq!(rows(&solved).len() + rows(&open).len(), 63);
    assert!(rows(&solved).iter().all(|r| r["status"] == "proven"));
    assert!(rows(&open).iter().all(|r| r["status"] != "proven"));

    // Pages: completeness is data, and the pages put together are the whole.
    let mut paged = Vec::new();
    let mut offset = 0;
    loop {
        let (status, p) = server.post(
            "/api/atlas",
            &json!({"pattern": "0.??", "offset": offset, "limit": 25}),
        );
        assert_eq!(status, 200, "{p}");
        assert_eq!(p["family"]["offset"].as_u64(), Some(offset));
        paged.extend(
            rows(&p)
                .iter()
                .map(|r| r["code"].as_str().unwrap().to_string()),
        );
        offset += 25;
        let complete = p["family"]["complete"].as_bool().unwrap();
        assert_eq!(complete, offset >= 63, "{offset}");
        if complete {
            break;
        }
    }
    assert_eq!(paged, codes);

    // A card: the row, the twins, the misère quotient.
    let (status, card) = server.post("/api/atlas", &json!({"card": "kayles"}));
    assert_eq!(status, 200, "{card}");
    assert!(card["family"].is_null());
    let card = &card["card"];
    assert_eq!(card["game"]["code"], "0.77");
    assert_eq!(card["game"]["status"], "proven");
    assert!(card["misere"].is_null());
    let (_, card) = server.post("/api/atlas", &json!({"card": "0.7"}));
    let twins: Vec<&str> = card["card"]["same_as"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["code"].as_str().unwrap())
        .collect();
    assert_eq!(twins, ["0.3", "0.5"], "{card}");
    // Dawson's Kayles is Dawson's chess one heap on (the shift rule), and 0.071 shares it.
    let (_, card) = server.post("/api/atlas", &json!({"card": "0.07"}));
    let proven: Vec<(&str, i64)> = card["card"]["proven_same"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["code"].as_str().unwrap(), t["offset"].as_i64().unwrap()))
        .collect();
    assert_eq!(proven[..2], [("0.137", -1), ("0.071", 0)], "{card}");
    // 0.4 is Dawson's Kayles one heap on.
    assert!(proven.contains(&("0.4", 1)), "{card}");
    let (_, card) = server.post("/api/atlas", &json!({"card": "0.75"}));
    assert_eq!(card["card"]["misere"]["order"], 8, "{card}");
    assert_eq!(card["card"]["misere"]["p_portion"], 2, "{card}");

    // Bad requests: each a JSON error saying what to fix.
    for (request, status, says) in [
        (json!({}), 422, "exactly one"),
        (
            json!({"pattern": "0.??", "card": "0.7"}),
            422,
            "exactly one",
        ),
        (json!({"pattern": "0.??", "limit": 0}), 422, "1 to 2000"),
        (json!({"pattern": "0.??", "limit": 2001}), 422, "1 to 2000"),
        (json!({"pattern": "0.?z"}), 422, "0.?z"),
        (json!({"card": "0.??"}), 422, "family pattern"),
        (json!({"card": "0.137"}), 422, "not in this atlas"),
        (
            json!({"pattern": "0.??", "filter": "closed"}),
            400,
            "closed",
        ),
        (json!({"pattern": "0.??", "sort": "period"}), 400, "sort"),
    ] {
        let (got, e) = server.post("/api/atlas", &request);
        assert_eq!(got, status, "{request}: {e}");
        assert_eq!(e["kind"], "input", "{request}: {e}");
        assert!(
            e["error"].as_str().unwrap().contains(says),
            "{request}: {e}"
        );
    }
    let (status, _) = server.request("POST", "/api/atlas", "{not json");
    assert_eq!(status, 400);
    let (status, schema) = server.request("GET", "/api/schema", "");
    assert_eq!(status, 200);
    assert!(schema.contains("\"AtlasRequest\"") && schema.contains("\"AtlasReport\""));
}

/// Everything the test reads of the atlas view, in one call.
const SNAPSHOT: &str = r#"
const section = document.getElementById('atlas-section');
const card = document.getElementById('atlas-card');
return {
  shown: !section.hidden,
  rows: [...document.querySelectorAll('#atlas-rows tr')].map((tr) => ({code: tr.dataset.code,
    status: tr.dataset.status,
    period: tr.querySelector('td[data-key=period]').textContent})),
  count: document.getElementById('atlas-count').textContent,
  error: document.getElementById('atlas-error').textContent,
  card: card.dataset.code || '',
  card_text: card.textContent,
  twins: [...card.querySelectorAll('a.twin')].map((a) => a.textContent),
  plot: !!card.querySelector('#atlas-plot svg'),
  table_box: document.querySelector('.table-box').clientWidth,
  scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
};
"#;

/// Waits until the view's snapshot passes `ready`; checks on every look that the page never
/// scrolls sideways.
async fn wait_for(c: &Client, what: &str, ready: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let s = c.execute(SNAPSHOT, vec![]).await.unwrap();
        assert!(
            s["scroll"].as_u64().unwrap() <= s["inner"].as_u64().unwrap(),
            "the page scrolls sideways: {s}"
        );
        if ready(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "never {what}: {s}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn periods(s: &Value) -> Vec<Option<u64>> {
    s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["period"].as_str().unwrap().parse().ok())
        .collect()
}

async fn click_css(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .click()
        .await
        .unwrap();
}

async fn view(c: &Client, url: &str, width: u32) {
    c.goto(url).await.unwrap();
    let s = wait_for(c, "shown the family", |s| {
        s["shown"] == true && s["rows"].as_array().unwrap().len() == 63
    })
    .await;
    assert_eq!(s["inner"].as_u64(), Some(u64::from(width)), "{s}");
    assert!(
        s["count"]
            .as_str()
            .unwrap()
            .contains("63 shown of 63 games of 0.??"),
        "{s}"
    );

    // Sorted by period, shortest first, the games without one last; then longest first.
    click_css(c, "#atlas-head th[data-key=period] button").await;
    let s = wait_for(c, "sorted by period", |s| {
        let p = periods(s);
        p.first().copied().flatten().is_some()
            && p.windows(2).all(|w| match (w[0], w[1]) {
                (Some(a), Some(b)) => a <= b,
                (_, None) => true,
                (None, Some(_)) => false,
            })
    })
    .await;
    let shortest = periods(&s)[0].unwrap();
    click_css(c, "#atlas-head th[data-key=period] button").await;
    let s = wait_for(c, "sorted by period downwards", |s| {
        let p = periods(s);
        p.first().copied().flatten() > Some(shortest)
    })
    .await;
    let p: Vec<u64> = periods(&s).into_iter().flatten().collect();
    assert!(p.windows(2).all(|w| w[0] >= w[1]), "{p:?}");
    assert_eq!(p[0], 34, "{s}");

    // Only the solved games, still sorted.
    click_css(c, "#atlas-filter option[value=solved]").await;
    let s = wait_for(c, "filtered to the solved games", |s| {
        let rows = s["rows"].as_array().unwrap();
        !rows.is_empty() && rows.len() < 63 && rows.iter().all(|r| r["status"] == "proven")
    })
    .await;
    let p: Vec<Option<u64>> = periods(&s);
    assert!(p.iter().all(Option::is_some), "{s}");
    assert!(p.windows(2).all(|w| w[0] >= w[1]), "{p:?}");

    // The text filter, then a row opens its card with the plot; a twin opens its own.
    let text = c.find(Locator::Id("atlas-text")).await.unwrap();
    text.send_keys("0.7").await.unwrap();
    wait_for(c, "filtered by text", |s| {
        let rows = s["rows"].as_array().unwrap();
        !rows.is_empty()
            && rows
                .iter()
                .all(|r| r["code"].as_str().unwrap().contains("0.7"))
    })
    .await;
    click_css(c, "#atlas-rows tr[data-code='0.7'] td[data-key=status]").await;
    let s = wait_for(c, "opened the card of 0.7 with its plot", |s| {
        s["card"] == "0.7" && s["plot"] == true
    })
    .await;
    assert!(
        s["card_text"].as_str().unwrap().contains("proven: period"),
        "{s}"
    );
    assert_eq!(s["twins"], json!(["0.3", "0.5"]), "{s}");
    click_css(c, "#atlas-card a.twin").await;
    let s = wait_for(c, "opened the twin's card", |s| {
        s["card"] == "0.3" && s["plot"] == true
    })
    .await;
    assert!(
        s["twins"].as_array().unwrap().contains(&json!("0.7")),
        "{s}"
    );
    screenshot(c, &format!("atlas-{width}.png")).await;

    // 0.75's card shows its misère quotient.
    text.clear().await.unwrap();
    text.send_keys("0.75").await.unwrap();
    click_css(c, "#atlas-filter option[value=all]").await;
    wait_for(c, "listed 0.75 among all the games", |s| {
        s["count"].as_str().unwrap().contains("shown of 63 games")
            && s["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["code"] == "0.75")
    })
    .await;
    click_css(c, "#atlas-rows tr[data-code='0.75'] button").await;
    let s = wait_for(c, "opened 0.75's card", |s| {
        s["card"] == "0.75" && s["plot"] == true
    })
    .await;
    assert!(
        s["card_text"]
            .as_str()
            .unwrap()
            .contains("order 8, P-portion 2"),
        "{s}"
    );
}

#[test]
fn the_atlas_view_sorts_filters_and_opens_cards_at_phone_and_desktop_widths() {
    let Some(chrome) = Chrome::start() else {
        return;
    };
    let db = make_atlas("atlas-view-browser");
    let server = Server::start(&["--atlas", db.to_str().unwrap()]);
    let plain = Server::start(&[]);
    chrome.run(async {
        for width in [360, 1280] {
            let c = chrome.session(width).await;
            view(&c, &server.url(), width).await;
            // Without an atlas the view stays hidden once the page has asked.
            c.goto(&plain.url()).await.unwrap();
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                let asked = c
                    .execute(
                        "return performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/atlas') && e.responseEnd > 0)",
                        vec![],
                    )
                    .await
                    .unwrap();
                if asked == true {
                    break;
                }
                assert!(Instant::now() < deadline, "the page never asked for the atlas");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let hidden = c
                .execute("return [document.getElementById('atlas-section').hidden, document.getElementById('atlas-link').hidden]", vec![])
                .await
                .unwrap();
            assert_eq!(hidden, json!([true, true]));
            c.close().await.unwrap();
        }
    });
}
