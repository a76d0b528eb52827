//! A game against the perfect opponent, one move at a time, and the pictures of a position.

use super::{ApiError, ErrorKind, LimitRequest, Session};
use crate::analysis::picture;
use crate::control::Budget;
use crate::play::{Choice, Game, Hint, PlayError, Player, Reply, Status};
use crate::sum::{Context, Engine};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The most moves one play answer lists.
pub const MAX_LISTED: usize = 500;

/// A position and its rules of play: for a hint or pictures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The position, in the expression language.
    pub expression: String,
    /// Misère play.
    #[serde(default)]
    pub misere: bool,
    /// Limits other than the preset's.
    #[serde(default)]
    pub limits: LimitRequest,
}

/// A move as a request gives it: its number in the list of moves (from 1), or text (a
/// number, the position the move leaves, the move as listed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum MoveInput {
    /// The move's number in the list of legal moves, from 1.
    Number(u64),
    /// A number, the position after the move, or the move as listed.
    Text(String),
}

/// A number or a string; anything else is refused saying what was expected.
impl<'de> Deserialize<'de> for MoveInput {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(text) => Ok(MoveInput::Text(text)),
            serde_json::Value::Number(n) if n.is_u64() => {
                Ok(MoveInput::Number(n.as_u64().unwrap_or_default()))
            }
            other => Err(serde::de::Error::custom(format!(
                "expected a move number (1, 2, ...) or a position as a string, not {}",
                match other {
                    serde_json::Value::Number(_) => "a negative or fractional number",
                    serde_json::Value::Bool(_) => "a boolean",
                    serde_json::Value::Array(_) => "an array",
                    serde_json::Value::Null => "null",
                    _ => "an object",
                }
            ))),
        }
    }
}

impl MoveInput {
    fn text(&self) -> String {
        match self {
            MoveInput::Number(n) => n.to_string(),
            MoveInput::Text(t) => t.clone(),
        }
    }
}

/// One step of a game against the computer: the player's move (or none), then the
/// computer's reply ([`PlayReport`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The position before the player's move.
    pub expression: String,
    /// Misère play.
    #[serde(default)]
    pub misere: bool,
    /// The player's move; without it the answer lists the player's moves, or, with
    /// `computer_first`, the computer moves first.
    #[serde(default, rename = "move")]
    pub human_move: Option<MoveInput>,
    /// The computer moves first (when no move is given).
    #[serde(default)]
    pub computer_first: bool,
    /// Limits other than the preset's.
    #[serde(default)]
    pub limits: LimitRequest,
}

/// The game after the player's move and the computer's reply.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct PlayReport {
    /// The position now, as an expression.
    pub position: String,
    /// Whose turn it is, or who has won.
    pub status: Status,
    /// The player's move, as understood.
    pub human_move: Option<Choice>,
    /// The computer's reply.
    pub computer_move: Option<Reply>,
    /// The player's legal moves now (at most [`MAX_LISTED`]).
    pub moves: Vec<Choice>,
    /// How many legal moves there are (0 when they are not listed).
    pub moves_total: usize,
    /// Why the moves are not listed (too many: a Nim heap of 10^9), when the game goes on
    /// without a list: the player types the position after the move.
    pub unlisted: Option<String>,
}

/// The pictures of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PictureReport {
    /// The game graph coloured P/N, when the position is small enough.
    pub graph_svg: Option<String>,
    /// Why there is no game graph.
    pub graph_error: Option<String>,
    /// Each Hackenbush component with its winning cuts marked.
    pub hackenbush_svgs: Vec<String>,
}

impl From<PlayError> for ApiError {
    fn from(e: PlayError) -> Self {
        match e {
            PlayError::Expr(e) => ApiError {
                kind: ErrorKind::Expression,
                message: format!("invalid expression: {e}"),
                span: Some([e.span.start, e.span.end]),
                limit: None,
            },
            PlayError::Analysis(e) => e.into(),
            e => ApiError::input(e.to_string()),
        }
    }
}

/// A play error about `text`: an expression error is shown under it.
fn play_error(e: PlayError, text: &str) -> ApiError {
    match e {
        PlayError::Expr(e) => ApiError::expression(&e, text),
        e => e.into(),
    }
}

impl Session {
    fn play_context(&self, budget: &Budget) -> Context {
        Context {
            engine: Engine::Fast,
            budget: budget.clone(),
            end_table: self.end_table.clone(),
        }
    }

    /// One step of a game: the player's move, then the computer's reply.
    pub fn play(&self, req: &PlayRequest, budget: &Budget) -> Result<PlayReport, ApiError> {
        let ctx = self.play_context(budget);
        let text = &req.expression;
        let first = if req.human_move.is_none() && req.computer_first {
            Player::Computer
        } else {
            Player::Human
        };
        let mut game = Game::new(text, req.misere, first).map_err(|e| play_error(e, text))?;
        let human_move = match &req.human_move {
            Some(m) => {
                let m = m.text();
                let choice = game.choose(&m, &ctx).map_err(|e| play_error(e, &m))?;
                game.apply(&choice);
                Some(choice)
            }
            None => None,
        };
        let computer_move = match game.status_in(&ctx).map_err(|e| play_error(e, text))? {
            Status::ToMove(Player::Computer) => {
                let reply = game.reply(&ctx).map_err(|e| play_error(e, text))?;
                game.apply(&reply.choice);
                Some(reply)
            }
            _ => None,
        };
        let (mut moves, status, unlisted) = match game.moves(&ctx) {
            Ok(moves) => {
                let status = game.status_from(&moves);
                (moves, status, None)
            }
            Err(e) if e.may_play_unlisted() => {
                let status = game
                    .status_in(&ctx)
                    .map_err(|_| play_error(e.clone(), text))?;
                (Vec::new(), status, Some(e.to_string()))
            }
            Err(e) => return Err(play_error(e, text)),
        };
        let moves_total = moves.len();
        moves.truncate(MAX_LISTED);
        Ok(PlayReport {
            position: game.position().to_string(),
            status,
            human_move,
            computer_move,
            moves,
            moves_total,
            unlisted,
        })
    }

    /// Who wins from a position, the best moves and why.
    pub fn hint(&self, req: &PositionRequest, budget: &Budget) -> Result<Hint, ApiError> {
        let ctx = self.play_context(budget);
        let game = Game::new(&req.expression, req.misere, Player::Human)
            .map_err(|e| play_error(e, &req.expression))?;
        game.hint(&ctx).map_err(|e| play_error(e, &req.expression))
    }

    /// The game graph of a position (coloured P/N) and its Hackenbush pictures with the
    /// winning cuts marked.
    pub fn picture(
        &self,
        req: &PositionRequest,
        budget: &Budget,
    ) -> Result<PictureReport, ApiError> {
        let ctx = self.play_context(budget);
        let sum = self
            .catalog
            .parse(&req.expression)
            .map_err(|e| ApiError::expression(&e, &req.expression))?;
        let (graph_svg, graph_error) = match picture::game_graph_svg(&sum, req.misere, &ctx) {
            Ok(svg) => (Some(svg), None),
            Err(picture::PictureError::Analysis(e)) if e.budget_error().is_some() => {
                return Err(e.into());
            }
            Err(e) => (None, Some(e.to_string())),
        };
        let hackenbush_svgs = picture::hackenbush_svgs(&sum, &ctx).unwrap_or_default();
        Ok(PictureReport {
            graph_svg,
            graph_error,
            hackenbush_svgs,
        })
    }
}
