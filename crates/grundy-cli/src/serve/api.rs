//! The JSON API: each handler checks its input, then runs the library under a fresh budget
//! on the blocking pool, within the time limit.

use super::Shared;
use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use grundy::analysis::{Analysis, picture};
use grundy::control::{BudgetError, Limits};
use grundy::play::{Choice, Game, Hint, PlayError, Player, Reply, Status};
use grundy::sum::{AnalysisError, Context, Engine};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The longest expression accepted, in characters.
pub const MAX_EXPRESSION: usize = 2000;

/// The longest nim-sequence the API computes.
pub const MAX_SEQUENCE: u64 = 2000;

/// How many values a plot computes at least, to find the period it marks.
const PERIOD_LOOKAHEAD: u64 = 1000;

/// The most moves listed in one answer.
const MAX_LISTED: usize = 500;

/// The work limits of one request: far below the command line's, so many students share a
/// machine.
const LIMITS: Limits = Limits {
    max_positions: 500_000,
    max_work: 50_000_000,
    max_bytes: 256 << 20,
};

/// An error answer: `{"error": "...", "span": [start, end]}`.
#[derive(Debug, Serialize)]
pub struct ApiError {
    #[serde(skip)]
    status: StatusCode,
    /// What went wrong, for people.
    error: String,
    /// Where in the expression, for expression errors (byte offsets).
    #[serde(skip_serializing_if = "Option::is_none")]
    span: Option<[usize; 2]>,
}

impl ApiError {
    fn new(status: StatusCode, error: impl Into<String>) -> Self {
        ApiError {
            status,
            error: error.into(),
            span: None,
        }
    }

    fn input(error: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, error)
    }

    fn expr(e: &grundy::expr::ExprError, text: &str) -> Self {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            error: format!("invalid expression\n{}", e.render(text)),
            span: Some([e.span.start, e.span.end]),
        }
    }

    fn analysis(e: &AnalysisError) -> Self {
        match e.budget_error() {
            Some(BudgetError::Cancelled) => Self::timeout(),
            Some(b) => Self::input(format!("too large to answer here: {b}")),
            None => Self::input(e.to_string()),
        }
    }

    fn play(e: PlayError, text: &str) -> Self {
        match e {
            PlayError::Expr(e) => Self::expr(&e, text),
            PlayError::Analysis(e) => Self::analysis(&e),
            e => Self::input(e.to_string()),
        }
    }

    fn timeout() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request took longer than this server's time limit and was stopped; try a smaller position",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self)).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        let status = if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            StatusCode::PAYLOAD_TOO_LARGE
        } else {
            StatusCode::BAD_REQUEST
        };
        ApiError::new(status, format!("bad request: {}", r.body_text()))
    }
}

pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page: the API is under /api/",
    )
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed: the API takes POST with a JSON body (GET for / and /api/rules)",
    )
}

/// Runs `work` on the blocking pool under a fresh budget, within the time limit; on timeout
/// the budget is cancelled (the work stops at its next check) and the answer is a 503.
async fn compute<T, F>(shared: &Shared, work: F) -> Result<Json<T>, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Context) -> Result<T, ApiError> + Send + 'static,
{
    let ctx = Context::new(Engine::Fast, LIMITS);
    let budget = ctx.budget.clone();
    // A closed connection drops this future: the guard then cancels the work too.
    let _guard = CancelOnDrop(ctx.budget.clone());
    let job = async {
        let permit = Arc::clone(&shared.jobs)
            .acquire_owned()
            .await
            .map_err(|_| {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
            })?;
        // The slot is held until the work really ends, even after a timeout answered.
        let handle = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&ctx)
        });
        handle.await.map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the computation failed: {e}"),
            )
        })?
    };
    match tokio::time::timeout(shared.timeout, job).await {
        Ok(result) => result.map(Json),
        Err(_) => {
            budget.cancel();
            Err(ApiError::timeout())
        }
    }
}

/// Cancels a budget when dropped: the work of a request whose client has gone stops at its
/// next budget check (after a normal answer, cancelling finished work changes nothing).
struct CancelOnDrop(grundy::control::Budget);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

fn check_expression(text: &str) -> Result<(), ApiError> {
    let chars = text.chars().count();
    if chars > MAX_EXPRESSION {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the expression has {chars} characters, more than the limit of {MAX_EXPRESSION}"
            ),
        ));
    }
    Ok(())
}

/// A rule of the language, for the page's list.
#[derive(Debug, Serialize)]
pub struct RuleInfo {
    name: &'static str,
    usage: &'static str,
    summary: &'static str,
}

pub async fn rules() -> Json<Vec<RuleInfo>> {
    Json(
        grundy::catalog::rules()
            .map(|r| RuleInfo {
                name: r.name,
                usage: r.usage,
                summary: r.summary,
            })
            .collect(),
    )
}

/// A position and its rules of play.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    expression: String,
    #[serde(default)]
    misere: bool,
}

/// An analysis (with its teaching notes) and what the page can plot.
#[derive(Debug, Serialize)]
pub struct AnalyzeAnswer {
    #[serde(flatten)]
    analysis: Analysis,
    /// The notes as lines of text, as the terminal shows them (the typed notes are in
    /// `notes`).
    note_lines: Vec<String>,
    /// The heap rules in the position (the page offers their nim-sequence plots).
    heap_rules: Vec<String>,
}

pub async fn analyze(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<AnalyzeAnswer>, ApiError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    compute(&shared, move |ctx| {
        let sum = grundy::catalog::parse(&req.expression)
            .map_err(|e| ApiError::expr(&e, &req.expression))?;
        let options = grundy::Options {
            misere: req.misere,
            context: ctx.clone(),
        };
        let analysis =
            grundy::analysis::analyze_sum(&sum, &options).map_err(|e| ApiError::analysis(&e))?;
        let mut heap_rules: Vec<String> = sum
            .components
            .iter()
            .map(|c| c.rule())
            .filter(|r| grundy::heap::rules::HeapRule::parse(r).is_ok() && is_heap_rule(r))
            .collect();
        heap_rules.dedup();
        Ok(AnalyzeAnswer {
            note_lines: analysis.note_lines(),
            analysis,
            heap_rules,
        })
    })
    .await
}

fn is_heap_rule(rule: &str) -> bool {
    let name = rule.split('(').next().unwrap_or(rule);
    grundy::catalog::find_rule(name).is_some_and(|r| {
        grundy::heap::catalog::RULES
            .iter()
            .any(|h| std::ptr::eq(h, r))
    })
}

/// A move in a game: the position, the move (a number or a position), or none for the
/// computer to start.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    expression: String,
    #[serde(default)]
    misere: bool,
    /// The player's move: a number from the list of moves (from 1) or the position it
    /// leads to; the computer then replies. Without it, the answer lists the player's moves,
    /// or, with `computer_first`, the computer moves first.
    #[serde(rename = "move", default, deserialize_with = "move_input")]
    human_move: Option<String>,
    #[serde(default)]
    computer_first: bool,
}

/// A move as JSON: a move number (`2`), or text (`"2"`, a position, a move as listed).
fn move_input<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match Option::<serde_json::Value>::deserialize(d)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(text)) => Ok(Some(text)),
        Some(serde_json::Value::Number(n)) if n.is_u64() => Ok(Some(n.to_string())),
        Some(other) => Err(serde::de::Error::custom(format!(
            "expected a move number (1, 2, ...) or a position as a string, not {}",
            match other {
                serde_json::Value::Number(_) => "a negative or fractional number",
                serde_json::Value::Bool(_) => "a boolean",
                serde_json::Value::Array(_) => "an array",
                _ => "an object",
            }
        ))),
    }
}

/// The game after the player's move and the computer's reply.
#[derive(Debug, Serialize)]
pub struct PlayAnswer {
    /// The position now, as an expression.
    position: String,
    status: Status,
    /// The player's move, as understood.
    human_move: Option<Choice>,
    /// The computer's reply.
    computer_move: Option<Reply>,
    /// The player's legal moves now (at most 500 listed).
    moves: Vec<Choice>,
    /// How many legal moves there are (0 when they are not listed).
    moves_total: usize,
    /// Why the moves are not listed (too many: a Nim heap of 10^9), when the game goes on
    /// without a list: the player types the position after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    unlisted: Option<String>,
}

pub async fn play(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<PlayRequest>, JsonRejection>,
) -> Result<Json<PlayAnswer>, ApiError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    if let Some(m) = &req.human_move {
        check_expression(m)?;
    }
    compute(&shared, move |ctx| {
        let text = &req.expression;
        let first = if req.human_move.is_none() && req.computer_first {
            Player::Computer
        } else {
            Player::Human
        };
        let mut game = Game::new(text, req.misere, first).map_err(|e| ApiError::play(e, text))?;
        let human_move = match &req.human_move {
            Some(m) => {
                let choice = game.choose(m, ctx).map_err(|e| ApiError::play(e, m))?;
                game.apply(&choice);
                Some(choice)
            }
            None => None,
        };
        let computer_move = match game.status_in(ctx).map_err(|e| ApiError::play(e, text))? {
            Status::ToMove(Player::Computer) => {
                let reply = game.reply(ctx).map_err(|e| ApiError::play(e, text))?;
                game.apply(&reply.choice);
                Some(reply)
            }
            _ => None,
        };
        let (mut moves, status, unlisted) = match game.moves(ctx) {
            Ok(moves) => {
                let status = game.status_from(&moves);
                (moves, status, None)
            }
            Err(e) if e.may_play_unlisted() => {
                let status = game
                    .status_in(ctx)
                    .map_err(|_| ApiError::play(e.clone(), text))?;
                (Vec::new(), status, Some(e.to_string()))
            }
            Err(e) => return Err(ApiError::play(e, text)),
        };
        let moves_total = moves.len();
        moves.truncate(MAX_LISTED);
        Ok(PlayAnswer {
            position: game.position().to_string(),
            status,
            human_move,
            computer_move,
            moves,
            moves_total,
            unlisted,
        })
    })
    .await
}

pub async fn hint(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<Hint>, ApiError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    compute(&shared, move |ctx| {
        let game = Game::new(&req.expression, req.misere, Player::Human)
            .map_err(|e| ApiError::play(e, &req.expression))?;
        game.hint(ctx)
            .map_err(|e| ApiError::play(e, &req.expression))
    })
    .await
}

/// The pictures of a position.
#[derive(Debug, Serialize)]
pub struct PictureAnswer {
    /// The game graph coloured P/N, when the position is small enough.
    graph_svg: Option<String>,
    /// Why there is no game graph.
    graph_error: Option<String>,
    /// Each Hackenbush component with its winning cuts marked.
    hackenbush_svgs: Vec<String>,
}

pub async fn picture(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<PictureAnswer>, ApiError> {
    let Json(req) = body?;
    check_expression(&req.expression)?;
    compute(&shared, move |ctx| {
        let sum = grundy::catalog::parse(&req.expression)
            .map_err(|e| ApiError::expr(&e, &req.expression))?;
        let (graph_svg, graph_error) = match picture::game_graph_svg(&sum, req.misere, ctx) {
            Ok(svg) => (Some(svg), None),
            Err(picture::PictureError::Analysis(e)) if e.budget_error().is_some() => {
                return Err(ApiError::analysis(&e));
            }
            Err(e) => (None, Some(e.to_string())),
        };
        let hackenbush_svgs = picture::hackenbush_svgs(&sum, ctx).unwrap_or_default();
        Ok(PictureAnswer {
            graph_svg,
            graph_error,
            hackenbush_svgs,
        })
    })
    .await
}

/// A nim-sequence request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceRequest {
    rule: String,
    to: u64,
}

/// A nim-sequence with its period and plot.
#[derive(Debug, Serialize)]
pub struct SequenceAnswer {
    rule: String,
    values: Vec<u16>,
    /// The period, as text (`period 12 from n = 71, proven ...`).
    period: Option<String>,
    svg: String,
}

pub async fn sequence(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<SequenceRequest>, JsonRejection>,
) -> Result<Json<SequenceAnswer>, ApiError> {
    let Json(req) = body?;
    check_expression(&req.rule)?;
    if req.to > MAX_SEQUENCE {
        return Err(ApiError::input(format!(
            "`to` is {}, more than the limit of {MAX_SEQUENCE} here (use `grundy sequence` for long runs)",
            req.to
        )));
    }
    compute(&shared, move |_ctx| {
        let rule = grundy::heap::rules::HeapRule::parse(&req.rule)
            .map_err(|e| ApiError::expr(&e, &req.rule))?;
        // A web request computes at most an eighth of what the command line would directly
        // (rules that split into three heaps cost O(n²) per value).
        let web_limit = (grundy::heap::sequence::direct_limit(&rule) / 8).min(MAX_SEQUENCE);
        if req.to > web_limit {
            return Err(ApiError::input(format!(
                "{} values of {} are more than this page computes ({web_limit}); use `grundy sequence {} --to {}`",
                req.to + 1,
                rule.name(),
                rule.name(),
                req.to
            )));
        }
        // Enough values to find (and, where the theory allows, prove) a period to mark.
        let look = PERIOD_LOOKAHEAD.min(web_limit).max(req.to);
        let known = grundy::heap::sequence::known(&rule, look)
            .map_err(|e| ApiError::input(e.to_string()))?;
        let mut values = Vec::with_capacity(req.to as usize + 1);
        for n in 0..=req.to {
            let v = known
                .value(n)
                .and_then(|v| u16::try_from(v).ok())
                .ok_or_else(|| ApiError::input(format!("g({n}) is out of reach")))?;
            values.push(v);
        }
        let period = known.period.as_ref();
        let svg = picture::sequence_svg(&values, period, &format!("nim-sequence of {}", rule.name()));
        Ok(SequenceAnswer {
            rule: rule.name().to_string(),
            values,
            period: period.map(|p| p.to_string()),
            svg,
        })
    })
    .await
}
