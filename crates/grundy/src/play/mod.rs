//! A game in progress against a perfect opponent: the position, whose turn it is, the legal
//! moves in the game's own words, the user's move (by number or by the position it leads to),
//! the computer's reply, hints with the reason, and undo.
//!
//! The computer plays the way a teacher wants an opponent to play (GamesmanUni's "perfect
//! player"): from a winning position it moves to a losing one, as fast as it can; from a
//! losing position it makes the game last as long as it can, so a student who has the win
//! must keep playing well to the end. "As fast" and "as long" are measured by *remoteness*
//! (Steinhaus 1925; Winning Ways ch. 9): the number of moves the game still lasts when the
//! winner hurries and the loser delays. Remoteness needs the whole position's game graph, so
//! it is computed exactly (`opponent`) for positions with at most [`EXACT_POSITIONS`]
//! reachable positions, by retrograde analysis on the explored graph (`O(V + E)`, which also
//! handles games with cycles and draws, and misère play by one extra move out of every
//! terminal position). Larger positions fall back, under the same work budget, to the
//! analysis's winning moves (fast paths: nim-sums, periods, Hackenbush values) and, where
//! there is none, to the move that leaves the opponent the most moves: a documented proxy for
//! a long game that never needs a search.
//!
//! *Positions too large to list.* A Nim heap of 10^9 has 10^9 moves, an octal heap of 10^9
//! as many: such a position is played without a list. The player types the position after
//! the move, which the component's family checks from its rules
//! ([`Component::move_leaving`](crate::sum::Component::move_leaving)); the computer takes the
//! analysis's winning move (Bouton's nim-sum, a proven period, the misère quotient) or, in a
//! lost position, the move that takes least
//! ([`Component::least_move`](crate::sum::Component::least_move)). Such moves are not numbered
//! ([`Choice::number`] is 0).
//!
//! ```
//! use grundy::play::{Game, Player};
//! use grundy::sum::Context;
//! let ctx = Context::default();
//! let mut game = Game::new("nim 1 2", false, Player::Human).unwrap();
//! let moves = game.moves(&ctx).unwrap();
//! assert_eq!(moves.len(), 3);
//! // The human plays 2 -> 1, leaving the P-position nim 1 1; the computer must lose.
//! let choice = game.choose("nim 1 1", &ctx).unwrap();
//! game.apply(&choice);
//! let reply = game.reply(&ctx).unwrap();
//! assert_eq!(reply.choice.result, "nim 0 1");
//! game.apply(&reply.choice);
//! game.apply(&game.choose("1", &ctx).unwrap());
//! assert_eq!(game.status(), grundy::play::Status::Won(Player::Human));
//! ```

pub mod board;
pub(crate) mod opponent;

use crate::analysis::{Analysis, Options, analyze_sum};
use crate::catalog;
use crate::expr::ExprError;
use crate::nimber::Nimber;
use crate::sum::{AnalysisError, ComponentId, Context, Sum};
use crate::value::Outcome;

pub use opponent::{EXACT_POSITIONS, Reason, Reply, Solved, solve_exact};

/// One of the two players.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The person at the keyboard.
    Human,
    /// The perfect opponent.
    Computer,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Human => Player::Computer,
            Player::Computer => Player::Human,
        }
    }
}

/// Where the game stands.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase", tag = "state", content = "player")]
pub enum Status {
    /// The game goes on; this player moves.
    ToMove(Player),
    /// The game is over and this player has won.
    Won(Player),
}

/// A legal move, numbered from 1 as it is shown to the player.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Choice {
    /// Its number in the list of legal moves (from 1); 0 when the moves are too many to list
    /// and so are not numbered.
    pub number: usize,
    /// Which component moves (0-based, in the order written).
    pub component: usize,
    /// The component before the move, as an expression.
    pub from: String,
    /// What the move does, in the game's words (`13 -> 4`, `cut edge 1-2`).
    #[serde(rename = "move")]
    pub description: String,
    /// The whole position after the move, as an expression.
    pub result: String,
    /// What the moving component becomes, as typed identities: none when it vanishes, one,
    /// or several (a heap split in two); the other components stay as they were.
    pub becomes: Vec<ComponentId>,
    /// The position after the move.
    #[serde(skip)]
    pub position: Sum,
}

/// One move made, for the history and for undo.
#[derive(Clone, Debug)]
pub struct Ply {
    /// Who made it.
    pub mover: Player,
    /// The position before it.
    pub before: Sum,
    /// The move.
    pub choice: Choice,
}

/// A hint: who wins from here, the winning moves, and why.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Hint {
    /// Who wins from the position, the player to move being the one asking.
    pub outcome: Outcome,
    /// The nimber of the position (normal play, where it is known).
    pub value: Option<Nimber>,
    /// Moves left with best play (the winner hurrying, the loser delaying), where the whole
    /// position was small enough to search.
    pub remoteness: Option<u32>,
    /// The numbers of the winning moves in the list of legal moves (or, in a draw, the moves
    /// that keep it a draw).
    pub moves: Vec<Choice>,
    /// Why, in sentences: the analysis's explanation and the teaching notes.
    pub explanation: Vec<String>,
}

/// Why a move or a request could not be carried out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The expression is invalid.
    #[error("{0}")]
    Expr(#[from] ExprError),
    /// A number outside the list of legal moves.
    #[error("there is no move {number}: choose a number from 1 to {count}")]
    NoSuchNumber {
        /// The number typed.
        number: usize,
        /// How many moves there are.
        count: usize,
    },
    /// A position that no legal move leads to.
    #[error("{position} is not one move away from {from}")]
    NotAMove {
        /// The position typed, as an expression.
        position: String,
        /// The current position.
        from: String,
    },
    /// The game is over: no move is left, and this player has won.
    #[error("the game is over: {0} won")]
    GameOver(Player),
    /// The game's moves could not be listed or analysed (too large, or the budget ran out).
    #[error("{0}")]
    Analysis(#[from] AnalysisError),
    /// The position has more moves than a list can show (the game is played without one).
    #[error("at least {count} moves, more than are listed (limit {limit})")]
    TooManyMoves {
        /// How many moves were counted before the limit was passed.
        count: u64,
        /// [`MAX_LISTED`].
        limit: usize,
    },
    /// A number typed where the moves are too many to list, so not numbered.
    #[error("the moves are too many to number: type the position after your move")]
    Unnumbered,
}

impl PlayError {
    /// Whether this failure to list the moves (too many, or a component that cannot list
    /// them) may leave the game playable without a list: by typing positions, checked by
    /// the moving component's rules. [`Game::status_in`] says whether it does.
    pub fn may_play_unlisted(&self) -> bool {
        unlisted(self)
    }
}

/// Whether a failure to list the moves leaves the game playable without a list (every
/// failure but a cancellation: the unlisted route fails on its own if it cannot help).
pub(crate) fn unlisted(e: &PlayError) -> bool {
    match e {
        PlayError::TooManyMoves { .. } => true,
        PlayError::Analysis(a) => a.budget_error() != Some(crate::control::BudgetError::Cancelled),
        _ => false,
    }
}

/// The most moves [`Game::moves`] lists: past it a position is played without a list
/// (building every position after a move costs in proportion to all the components; 0.75
/// heaps of 10^6 have half a million moves each).
pub const MAX_LISTED: usize = 20_000;

/// Work units for each component of each position a listed move builds (a clone, its key
/// and its text: some 100 ns in all, more with a long text).
pub const POSITION_COST: u64 = 16;

/// A game in progress: a checked position, the play so far and whose turn it is.
#[derive(Clone, Debug)]
pub struct Game {
    position: Sum,
    misere: bool,
    to_move: Player,
    history: Vec<Ply>,
}

impl Game {
    /// A new game from an expression; `first` moves first.
    pub fn new(expression: &str, misere: bool, first: Player) -> Result<Game, PlayError> {
        Ok(Game::from_sum(catalog::parse(expression)?, misere, first))
    }

    /// A new game from a checked position.
    pub fn from_sum(position: Sum, misere: bool, first: Player) -> Game {
        Game {
            position,
            misere,
            to_move: first,
            history: Vec::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Sum {
        &self.position
    }

    /// Whether the game is played misère (the last player to move loses).
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// Whose turn it is (also when the game is over: the player who cannot move).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The moves made so far, oldest first.
    pub fn history(&self) -> &[Ply] {
        &self.history
    }

    /// Whether the game is over (no move is left) and who won. The game is over exactly when
    /// the position has no component with a move; that is decided by listing moves, so it
    /// takes a context.
    pub fn status_in(&self, ctx: &Context) -> Result<Status, PlayError> {
        let over = match self.moves(ctx) {
            Ok(moves) => moves.is_empty(),
            Err(e) if unlisted(&e) => self.least_move(ctx)?.is_none(),
            Err(e) => return Err(e),
        };
        Ok(if over {
            Status::Won(self.winner_at_end())
        } else {
            Status::ToMove(self.to_move)
        })
    }

    /// A legal move that takes as little as the rules allow, in the first component that has
    /// a move, found without listing the moves where the families can
    /// ([`Component::least_move`](crate::sum::Component::least_move)); `None` when no move is
    /// left. Not numbered.
    pub fn least_move(&self, ctx: &Context) -> Result<Option<Choice>, PlayError> {
        for (i, c) in self.position.components.iter().enumerate() {
            if let Some(m) = c.least_move(ctx)? {
                return Ok(Some(self.unnumbered(i, m)));
            }
        }
        Ok(None)
    }

    /// The move `m` of component `i` as a choice without a number.
    fn unnumbered(&self, i: usize, m: crate::sum::Move) -> Choice {
        let position = self.position.replaced(i, &m.result);
        Choice {
            number: 0,
            component: i,
            from: self.position.components[i].to_string(),
            description: m.description,
            result: position.to_string(),
            becomes: ComponentId::all(&m.result),
            position,
        }
    }

    /// The move to the position `input` names, checked by the moving component's rules
    /// (the moves are too many to list): the components of the two positions must differ
    /// in one component of this position only.
    fn choose_unlisted(&self, input: &str, ctx: &Context) -> Result<Choice, PlayError> {
        if input.parse::<usize>().is_ok() {
            return Err(PlayError::Unnumbered);
        }
        let target = catalog::parse(input)?;
        let not_a_move = || PlayError::NotAMove {
            position: target.to_string(),
            from: self.position.to_string(),
        };
        // The target's components by text (a multiset), each matched once: what is left
        // unmatched on either side is the move.
        let mut added: std::collections::HashMap<String, Vec<usize>> =
            std::collections::HashMap::new();
        for (k, c) in target.components.iter().enumerate() {
            added.entry(c.to_string()).or_default().push(k);
        }
        let mut moved = Vec::new();
        for (i, c) in self.position.components.iter().enumerate() {
            let matched = added.get_mut(&c.to_string()).and_then(Vec::pop);
            if matched.is_none() {
                moved.push(i);
                if moved.len() > 1 {
                    return Err(not_a_move());
                }
            }
        }
        let [i] = moved[..] else {
            return Err(not_a_move());
        };
        let mut left: Vec<usize> = added.into_values().flatten().collect();
        left.sort_unstable();
        let result: Vec<Box<dyn crate::sum::Component>> = left
            .into_iter()
            .map(|k| target.components[k].clone())
            .collect();
        match self.position.components[i].move_leaving(&result, ctx)? {
            Some(m) => Ok(self.unnumbered(i, m)),
            None => Err(not_a_move()),
        }
    }

    /// Where the game stands, given the legal moves (from [`Game::moves`]) of its position.
    pub fn status_from(&self, moves: &[Choice]) -> Status {
        if moves.is_empty() {
            Status::Won(self.winner_at_end())
        } else {
            Status::ToMove(self.to_move)
        }
    }

    /// [`Game::status_in`] under a default context.
    pub fn status(&self) -> Status {
        self.status_in(&Context::default())
            .unwrap_or(Status::ToMove(self.to_move))
    }

    /// Who has won when the player to move has no move: the other player in normal play,
    /// the player to move in misère play.
    pub(crate) fn winner_at_end(&self) -> Player {
        if self.misere {
            self.to_move
        } else {
            self.to_move.other()
        }
    }

    /// Every legal move, numbered from 1, in the order of the components and their moves.
    /// Moves that lead to the same position (a move in either of two equal heaps) are listed
    /// once.
    pub fn moves(&self, ctx: &Context) -> Result<Vec<Choice>, PlayError> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        // Each move builds the whole position after it (its components, key and text): a
        // move costs in proportion to the number of components, refused before it is built.
        let per_move = (self.position.components.len() as u64 + 1).saturating_mul(POSITION_COST);
        let mut listed = Vec::with_capacity(self.position.components.len());
        let mut count = 0u64;
        for c in &self.position.components {
            let moves = c.moves(ctx)?;
            count = count.saturating_add(moves.len() as u64);
            if count > MAX_LISTED as u64 {
                return Err(PlayError::TooManyMoves {
                    count,
                    limit: MAX_LISTED,
                });
            }
            listed.push(moves);
        }
        for (i, (c, moves)) in self.position.components.iter().zip(listed).enumerate() {
            let units = (moves.len() as u64 + 1).saturating_mul(per_move);
            ctx.budget
                .afford(units)
                .and_then(|()| ctx.budget.charge(units))
                .map_err(|e| AnalysisError::budget(c.as_ref(), e))?;
            for m in moves {
                let position = self.position.replaced(i, &m.result);
                if seen.insert(position.key()) {
                    out.push(Choice {
                        number: out.len() + 1,
                        component: i,
                        from: c.to_string(),
                        description: m.description,
                        result: position.to_string(),
                        becomes: ComponentId::all(&m.result),
                        position,
                    });
                }
            }
        }
        Ok(out)
    }

    /// The legal move a player's input names: a number from the list of moves, the move's
    /// description as listed (`a -> b`), or the position the move leads to, written as an
    /// expression (in any order of its terms).
    ///
    /// Where the moves are too many to list, only the position is understood, checked by the
    /// moving component's rules.
    pub fn choose(&self, input: &str, ctx: &Context) -> Result<Choice, PlayError> {
        let input = input.trim();
        let moves = match self.moves(ctx) {
            Ok(moves) => moves,
            Err(e) if unlisted(&e) => {
                if self.least_move(ctx)?.is_none() {
                    return Err(PlayError::GameOver(self.winner_at_end()));
                }
                return self.choose_unlisted(input, ctx);
            }
            Err(e) => return Err(e),
        };
        if moves.is_empty() {
            return Err(PlayError::GameOver(self.winner_at_end()));
        }
        if let Ok(number) = input.parse::<usize>() {
            return match number.checked_sub(1).and_then(|i| moves.get(i)) {
                Some(m) => Ok(m.clone()),
                None => Err(PlayError::NoSuchNumber {
                    number,
                    count: moves.len(),
                }),
            };
        }
        if let Some(m) = moves
            .iter()
            .find(|m| m.result == input || m.description == input)
        {
            return Ok(m.clone());
        }
        let target = catalog::parse(input)?;
        let key = target.key();
        moves
            .into_iter()
            .find(|m| m.position.key() == key)
            .ok_or_else(|| PlayError::NotAMove {
                position: target.to_string(),
                from: self.position.to_string(),
            })
    }

    /// Makes a move (one from [`Game::moves`] or [`Game::choose`]) for the player to move.
    pub fn apply(&mut self, choice: &Choice) {
        let before = std::mem::replace(&mut self.position, choice.position.clone());
        self.history.push(Ply {
            mover: self.to_move,
            before,
            choice: choice.clone(),
        });
        self.to_move = self.to_move.other();
    }

    /// Takes back the last move. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Ply> {
        let ply = self.history.pop()?;
        self.position = ply.before.clone();
        self.to_move = ply.mover;
        Some(ply)
    }

    /// Takes back moves until it is `player`'s turn again with at least one move taken back
    /// (a human's undo takes back the computer's reply and the human's move). Returns how many
    /// moves were taken back (0 when there is nothing to take back).
    pub fn undo_for(&mut self, player: Player) -> usize {
        let mut taken = 0;
        while let Some(ply) = self.history.last() {
            let mover = ply.mover;
            self.undo();
            taken += 1;
            if mover == player {
                break;
            }
        }
        taken
    }

    /// The perfect opponent's move for the player to move: see `opponent`.
    pub fn reply(&self, ctx: &Context) -> Result<Reply, PlayError> {
        opponent::reply(self, ctx)
    }

    /// The analysis of the position now (value, outcome, winning moves, explanation).
    pub fn analysis(&self, ctx: &Context) -> Result<Analysis, AnalysisError> {
        analyze_sum(
            &self.position,
            &Options {
                misere: self.misere,
                context: ctx.clone(),
                moves: crate::MoveSearch::All,
            },
        )
    }

    /// A hint for the player to move: who wins, the winning moves (numbered as in
    /// [`Game::moves`]) and why.
    pub fn hint(&self, ctx: &Context) -> Result<Hint, PlayError> {
        let moves = match self.moves(ctx) {
            Ok(moves) => moves,
            Err(e) if unlisted(&e) => return self.unlisted_hint(ctx),
            Err(e) => return Err(e),
        };
        let exact = solve_exact(self, &moves, ctx)?;
        let analysis = match self.analysis(ctx) {
            Ok(a) => Some(a),
            Err(_) if exact.is_some() => None,
            Err(e) => return Err(e.into()),
        };
        let mut explanation = Vec::new();
        match &analysis {
            Some(a) => {
                explanation.extend(a.explanation.iter().cloned());
                explanation.extend(a.note_lines());
            }
            // The notes explain normal-play values; misère values are another theory.
            None if !self.misere => explanation.extend(
                crate::analysis::teach::notes(&self.position, ctx)
                    .iter()
                    .flat_map(crate::analysis::teach::Note::lines),
            ),
            None => {}
        }
        let (outcome, remoteness, winning) = match &exact {
            Some(s) => (s.outcome, s.remoteness, s.best_numbers()),
            None => {
                let a = analysis.as_ref().expect("analysis when no exact solution");
                let results: Vec<&str> =
                    a.winning_moves.iter().map(|m| m.result.as_str()).collect();
                let numbers = moves
                    .iter()
                    .filter(|m| results.contains(&m.result.as_str()))
                    .map(|m| m.number)
                    .collect();
                (a.outcome, None, numbers)
            }
        };
        if let Some(r) = remoteness {
            explanation.push(match outcome {
                Outcome::N => format!(
                    "With best play the player to move wins in {r} {}.",
                    crate::words::plural(r, "move")
                ),
                Outcome::P => format!(
                    "With best play the player to move loses, holding out for {r} {}.",
                    crate::words::plural(r, "move")
                ),
                Outcome::Draw => String::new(),
            });
        }
        if outcome == Outcome::Draw {
            explanation.push(
                "Neither player can force a win: the moves shown keep the game going forever."
                    .into(),
            );
        }
        explanation.retain(|l| !l.is_empty());
        Ok(Hint {
            outcome,
            value: analysis.as_ref().and_then(|a| a.value),
            remoteness,
            moves: moves
                .into_iter()
                .filter(|m| winning.contains(&m.number))
                .collect(),
            explanation,
        })
    }
}

impl Game {
    /// The analysis's winning moves as choices (not numbered), for a position whose moves are
    /// too many to list; those whose text does not parse back are left out.
    pub(crate) fn winning_choices(&self, analysis: &Analysis) -> Vec<Choice> {
        analysis
            .winning_moves
            .iter()
            .filter_map(|w| {
                let position = catalog::parse(&w.result).ok()?;
                Some(Choice {
                    number: 0,
                    component: w.component,
                    from: self.position.components.get(w.component)?.to_string(),
                    description: w.description.clone(),
                    result: w.result.clone(),
                    becomes: w.becomes.clone(),
                    position,
                })
            })
            .collect()
    }

    /// A hint from the analysis alone (the moves are too many to list).
    fn unlisted_hint(&self, ctx: &Context) -> Result<Hint, PlayError> {
        let a = self.analysis(ctx)?;
        let mut explanation = a.explanation.clone();
        explanation.extend(a.note_lines());
        explanation.retain(|l| !l.is_empty());
        Ok(Hint {
            outcome: a.outcome,
            value: a.value,
            remoteness: None,
            moves: self.winning_choices(&a),
            explanation,
        })
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Player::Human => "you",
            Player::Computer => "the computer",
        })
    }
}

#[cfg(test)]
mod tests;
