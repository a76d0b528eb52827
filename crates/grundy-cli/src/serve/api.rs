//! The JSON API: the library's typed requests in, its typed responses out
//! ([`grundy::api`]): each handler checks the size of its input, then answers through the
//! shared [`Session`] (the `shared` preset of limits) on the blocking pool, under a fresh
//! budget and the time limit.

use super::Shared;
use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use grundy::api::{
    Analysis, AnalyzeRequest, ApiError, AtlasReport, AtlasRequest, AtlasSummary, ErrorKind,
    GraphReport, GraphRequest, PictureReport, PlayReport, PlayRequest, PositionRequest,
    QuotientReport, QuotientRequest, RuleInfo, SequenceReport, SequenceRequest, Session, Task,
};
use grundy::control::Budget;
use grundy::play::Hint;
use std::sync::Arc;

/// The longest expression (or rule) accepted, in characters.
pub const MAX_EXPRESSION: usize = 2000;

/// An error answer: the API's error (`{"kind", "error", "span", "limit"}`) with its status.
#[derive(Debug)]
pub struct WebError {
    status: StatusCode,
    error: ApiError,
}

impl WebError {
    fn new(status: StatusCode, kind: ErrorKind, message: impl Into<String>) -> Self {
        WebError {
            status,
            error: ApiError::new(kind, message),
        }
    }
}

impl From<ApiError> for WebError {
    fn from(error: ApiError) -> Self {
        let (status, error) = match error.kind {
            ErrorKind::Interrupted => (StatusCode::SERVICE_UNAVAILABLE, timeout()),
            ErrorKind::Limit => {
                let message = format!("too large to answer here: {}", error.message);
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    ApiError { message, ..error },
                )
            }
            _ => (StatusCode::UNPROCESSABLE_ENTITY, error),
        };
        WebError { status, error }
    }
}

fn timeout() -> ApiError {
    ApiError::new(
        ErrorKind::Interrupted,
        "the request took longer than this server's time limit and was stopped; try a smaller position",
    )
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        (self.status, Json(self.error)).into_response()
    }
}

impl From<JsonRejection> for WebError {
    fn from(r: JsonRejection) -> Self {
        let status = if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            StatusCode::PAYLOAD_TOO_LARGE
        } else {
            StatusCode::BAD_REQUEST
        };
        WebError::new(
            status,
            ErrorKind::Input,
            format!("bad request: {}", r.body_text()),
        )
    }
}

pub async fn not_found() -> WebError {
    WebError::new(
        StatusCode::NOT_FOUND,
        ErrorKind::Input,
        "no such page: the API is under /api/",
    )
}

pub async fn method_not_allowed() -> WebError {
    WebError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        ErrorKind::Input,
        "method not allowed: the API takes POST with a JSON body (GET for /, /api/rules, \
         /api/schema and /api/atlas)",
    )
}

/// Runs `work` on the blocking pool under a fresh budget for `limits`, within the time
/// limit; on timeout the budget is cancelled (the work stops at its next check) and the
/// answer is a 503.
async fn compute<T, F>(
    shared: &Arc<Shared>,
    limits: &grundy::api::LimitRequest,
    task: Task,
    work: F,
) -> Result<Json<T>, WebError>
where
    T: Send + 'static,
    F: FnOnce(&Session, &Budget) -> Result<T, ApiError> + Send + 'static,
{
    let budget = shared.session.budget(limits, task)?;
    // A closed connection drops this future: the guard then cancels the work too.
    let _guard = CancelOnDrop(budget.clone());
    let job = async {
        let permit = Arc::clone(&shared.jobs)
            .acquire_owned()
            .await
            .map_err(|_| {
                WebError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ErrorKind::Interrupted,
                    "the server is stopping",
                )
            })?;
        // The slot is held until the work really ends, even after a timeout answered.
        let worker = Arc::clone(shared);
        let work_budget = budget.clone();
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&worker.session, &work_budget)
        });
        handle
            .await
            .map_err(|e| {
                WebError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    ErrorKind::Unsupported,
                    format!("the computation failed: {e}"),
                )
            })?
            .map_err(WebError::from)
    };
    match tokio::time::timeout(shared.timeout, job).await {
        Ok(result) => result.map(Json),
        Err(_) => {
            budget.cancel();
            Err(WebError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                error: timeout(),
            })
        }
    }
}

/// Cancels a budget when dropped: the work of a request whose client has gone stops at its
/// next budget check (after a normal answer, cancelling finished work changes nothing).
struct CancelOnDrop(Budget);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

fn check_expression(text: &str) -> Result<(), WebError> {
    let chars = text.chars().count();
    if chars > MAX_EXPRESSION {
        return Err(WebError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::Input,
            format!(
                "the expression has {chars} characters, more than the limit of {MAX_EXPRESSION}"
            ),
        ));
    }
    Ok(())
}

pub async fn rules(State(shared): State<Arc<Shared>>) -> Json<Vec<RuleInfo>> {
    Json(shared.session.rules())
}

pub async fn schema() -> Json<serde_json::Value> {
    Json(grundy::api::schema())
}

pub async fn analyze(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<AnalyzeRequest>, JsonRejection>,
) -> Result<Json<Analysis>, WebError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    let task = req.task();
    let limits = req.limits;
    compute(&shared, &limits, task, move |s, b| s.analyze(&req, b)).await
}

pub async fn play(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<PlayRequest>, JsonRejection>,
) -> Result<Json<PlayReport>, WebError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    if let Some(grundy::api::MoveInput::Text(m)) = &req.human_move {
        check_expression(m)?;
    }
    let limits = req.limits;
    compute(&shared, &limits, Task::Play, move |s, b| s.play(&req, b)).await
}

pub async fn hint(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<Hint>, WebError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    let limits = req.limits;
    compute(&shared, &limits, Task::Play, move |s, b| s.hint(&req, b)).await
}

pub async fn picture(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<PictureReport>, WebError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    let limits = req.limits;
    compute(&shared, &limits, Task::Play, move |s, b| s.picture(&req, b)).await
}

pub async fn sequence(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<SequenceRequest>, JsonRejection>,
) -> Result<Json<SequenceReport>, WebError> {
    let Json(req) = body?;
    check_expression(&req.rule)?;
    let limits = req.limits;
    compute(&shared, &limits, Task::Sequence, move |s, b| {
        s.sequence(&req, b)
    })
    .await
}

pub async fn quotient(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<QuotientRequest>, JsonRejection>,
) -> Result<Json<QuotientReport>, WebError> {
    let Json(req) = body?;
    check_expression(&req.rule)?;
    let limits = req.limits;
    compute(&shared, &limits, Task::Quotient, move |s, b| {
        s.quotient(&req, b)
    })
    .await
}

pub async fn graph(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<GraphRequest>, JsonRejection>,
) -> Result<Json<GraphReport>, WebError> {
    let Json(req) = body?;
    if let Some(e) = &req.expression {
        check_expression(e)?;
    }
    let limits = req.limits;
    compute(&shared, &limits, Task::Graph, move |s, b| s.graph(&req, b)).await
}

/// The answer of the atlas routes when the server has no atlas.
fn no_atlas() -> WebError {
    WebError::new(
        StatusCode::NOT_FOUND,
        ErrorKind::Unsupported,
        "this server has no atlas: start it with one, `grundy serve --atlas FILE` (a file \
         made by `grundy census PATTERN --to N --db FILE`)",
    )
}

/// Runs an atlas query on the blocking pool (the query holds the atlas's one connection),
/// within the time limit and the limit on computations at once.
async fn ask_atlas<T, F>(shared: &Arc<Shared>, work: F) -> Result<Json<T>, WebError>
where
    T: Send + 'static,
    F: FnOnce(&Session, &grundy::atlas::Atlas) -> Result<T, ApiError> + Send + 'static,
{
    if shared.atlas.is_none() {
        return Err(no_atlas());
    }
    let worker = Arc::clone(shared);
    compute(
        shared,
        &grundy::api::LimitRequest::default(),
        Task::Sequence,
        move |session, _| {
            let atlas = worker.atlas.as_ref().ok_or_else(|| no_atlas().error)?;
            // A query that panicked poisons the lock; the atlas is read-only, so its state
            // cannot be half-written: go on with it.
            let atlas = atlas
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            work(session, &atlas)
        },
    )
    .await
}

pub async fn atlas_summary(
    State(shared): State<Arc<Shared>>,
) -> Result<Json<AtlasSummary>, WebError> {
    ask_atlas(&shared, |s, atlas| s.atlas_summary(atlas)).await
}

pub async fn atlas(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<AtlasRequest>, JsonRejection>,
) -> Result<Json<AtlasReport>, WebError> {
    let Json(req) = body?;
    for text in [&req.pattern, &req.card].into_iter().flatten() {
        check_expression(text)?;
    }
    ask_atlas(&shared, move |s, atlas| s.atlas(atlas, &req)).await
}
