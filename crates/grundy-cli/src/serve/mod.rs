//! `grundy serve`: a local web server with one page (built into the binary) to analyse and
//! play positions, and the JSON API under `/api/` that the page uses.
//!
//! Safe to leave running in a classroom: it binds to 127.0.0.1 unless told otherwise; request
//! heads are limited to [`MAX_HEAD`] bytes, bodies to [`MAX_BODY`] bytes and expressions to [`api::MAX_EXPRESSION`]
//! characters; every request's work runs on the blocking pool under its own work budget and a
//! time limit (on timeout its budget is cancelled and the client gets a 503 with a JSON
//! message); at most [`MAX_JOBS`] computations run at once, so one slow request cannot take
//! every core; a connection silent for the idle time is closed and at most
//! [`guard::MAX_CONNECTIONS`] are open at once, so slow clients cannot hold the server; bad
//! input of any kind is a JSON error, never a crash.

mod api;
mod guard;

use crate::Failure;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::header::CONTENT_TYPE;
use axum::response::Html;
use axum::routing::{get, post};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// The page, built into the binary: its HTML, its style and its script.
const PAGE: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const PAGE_JS: &str = include_str!("page.js");
/// The atlas view's script, loaded by the page only when the server has an atlas.
const ATLAS_JS: &str = include_str!("atlas.js");

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// The largest read buffer of one connection, in bytes: a request head (request line and
/// headers) must fit in it; a longer one is answered 431 and the connection closed.
pub const MAX_HEAD: usize = 32 * 1024;

/// The most computations running at once.
pub const MAX_JOBS: usize = 4;

/// Serve the web page and the JSON API: analyse and play positions in a browser.
///
/// Open http://127.0.0.1:8080 (the default) in a browser. The API: POST /api/analyze,
/// /api/play, /api/hint, /api/picture, /api/sequence, /api/quotient, /api/graph with JSON
/// bodies (the library's typed requests); GET /api/rules, and /api/schema for the JSON
/// Schema of every request and answer. With --atlas FILE the page has an atlas view too:
/// GET /api/atlas (what the atlas holds), POST /api/atlas (a family's games, a card).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The port to listen on (0 picks a free one and prints it).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default serves this computer only; 0.0.0.0 serves the
    /// whole network (a classroom).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The most seconds one request may compute before it is stopped.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
    /// The most seconds a connection may stay silent (a client that sends its request or
    /// reads its answer too slowly, or an idle one) before it is closed; at least the
    /// --timeout plus 5, so that no answer being computed is cut off.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    idle_timeout: u64,
    /// An atlas database made by `grundy census`, opened read-only: the page gets an atlas
    /// view of its families and games.
    #[arg(long, value_name = "FILE")]
    atlas: Option<std::path::PathBuf>,
}

/// What every handler shares.
#[derive(Debug)]
pub struct Shared {
    /// The library's API under the shared preset of limits.
    session: grundy::api::Session,
    /// Slots for computations: one permit per running job.
    jobs: Arc<tokio::sync::Semaphore>,
    /// The time limit of one request.
    timeout: Duration,
    /// The atlas of `--atlas`, read-only (one query at a time: a connection is not shared
    /// between threads).
    atlas: Option<std::sync::Mutex<grundy::atlas::Atlas>>,
}

/// The application: the page and the API (and the atlas view, given an atlas).
pub fn app(timeout: Duration, atlas: Option<grundy::atlas::Atlas>) -> Router {
    let shared = Arc::new(Shared {
        session: grundy::api::Session::new(grundy::api::Preset::Shared),
        jobs: Arc::new(tokio::sync::Semaphore::new(MAX_JOBS)),
        timeout,
        atlas: atlas.map(std::sync::Mutex::new),
    });
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/page.css",
            get(|| async { ([(CONTENT_TYPE, "text/css; charset=utf-8")], PAGE_CSS) }),
        )
        .route(
            "/page.js",
            get(|| async { ([(CONTENT_TYPE, "text/javascript; charset=utf-8")], PAGE_JS) }),
        )
        .route(
            "/atlas.js",
            get(|| async { ([(CONTENT_TYPE, "text/javascript; charset=utf-8")], ATLAS_JS) }),
        )
        .route("/api/rules", get(api::rules))
        .route("/api/atlas", get(api::atlas_summary).post(api::atlas))
        .route("/api/analyze", post(api::analyze))
        .route("/api/play", post(api::play))
        .route("/api/hint", post(api::hint))
        .route("/api/picture", post(api::picture))
        .route("/api/sequence", post(api::sequence))
        .route("/api/quotient", post(api::quotient))
        .route("/api/graph", post(api::graph))
        .route("/api/schema", get(api::schema))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

pub fn run(args: Args) -> Result<(), Failure> {
    if args.timeout == 0 {
        return Err(Failure::input("--timeout must be at least 1 second"));
    }
    // A file that is not an atlas is refused before the server starts.
    let atlas = match &args.atlas {
        Some(path) => Some(
            grundy::atlas::Atlas::open(path)
                .map_err(|e| Failure::input(format!("--atlas: {e}")))?,
        ),
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::compute(format!("cannot start the server: {e}")))?;
    runtime.block_on(async move {
        let address = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| {
            Failure::compute(format!(
                "cannot listen on {address}: {e} (choose another port with --port)"
            ))
        })?;
        let local = listener
            .local_addr()
            .map_err(|e| Failure::compute(format!("cannot read the address: {e}")))?;
        crate::emit(&format!(
            "grundy serve: open http://{local}/ in a browser (Ctrl-C stops the server)\n"
        ))?;
        // At most a day: a deadline is an instant, which must not overflow.
        let idle = args.idle_timeout.max(args.timeout.saturating_add(5));
        let idle = Duration::from_secs(idle.min(86_400));
        let listener = guard::GuardedListener::new(listener, idle);
        serve(listener, app(Duration::from_secs(args.timeout), atlas)).await;
        Ok(())
    })
}

/// Serves HTTP/1.1 on the guarded connections until Ctrl-C, each connection's buffer capped
/// at [`MAX_HEAD`] bytes (hyper's default lets a request head reach about 400 KB, so 512
/// clients each sending an endless header held 128 MB).
async fn serve(mut listener: guard::GuardedListener, app: Router) {
    use axum::serve::Listener;
    let stop = tokio::signal::ctrl_c();
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = &mut stop => return,
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            // A connection's failure (a reset, a head too large, a silent client) is its
            // own: hyper has answered what can be answered; the server goes on.
            let _ = hyper::server::conn::http1::Builder::new()
                .max_buf_size(MAX_HEAD)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}
