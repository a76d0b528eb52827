//! A board of cells as written in expressions (`5x7`, `##..#/....#/#....`), and Cram and
//! Node Kayles on it as a component of a sum.

use super::cram::{Cells, CramGame};
use super::grid::{GridGame, GridRule, MAX_CELLS, Region};
use super::plain::PlainBoard;
use super::{charge_listing, heap_value, search_error};
use crate::control::Budget;
use crate::expr::{ExprError, Spanned, parse_u64};
use crate::nimber::Nimber;
use crate::search::checkpoint::{self, CheckpointError, Section};
use crate::search::{KeptTable, SearchGame, Searcher};
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move, moves_to_value_by_search};
use crate::value::Outcome;
use std::path::Path;

/// The most cells of a board whose moves are listed one by one.
pub const MAX_LISTED_CELLS: u64 = 1 << 16;

/// A board: a full rectangle of any size, or cells written out (`.` free, `#` blocked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Board {
    /// `rows` × `cols`, every cell free.
    Rect {
        /// Rows.
        rows: u64,
        /// Columns.
        cols: u64,
    },
    /// Cells row by row.
    Cells {
        /// Cells per row.
        cols: usize,
        /// Whether each cell is free, row by row.
        free: Vec<bool>,
    },
}

/// Whether `text` is written as a board (`RxC`, or rows of `.` and `#` joined by `/`).
pub fn looks_like_board(text: &str) -> bool {
    is_rect(text) || text.chars().all(|c| matches!(c, '.' | '#' | '/'))
}

/// Whether `text` is written `RxC` (a number first, then `x`).
fn is_rect(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit())
        && text.matches('x').count() == 1
        && text.chars().all(|c| c.is_ascii_digit() || c == 'x')
}

impl Board {
    /// Reads `RxC` or rows of `.` and `#` separated by `/`.
    pub fn parse(arg: &Spanned<String>) -> Result<Board, ExprError> {
        let text = arg.value.as_str();
        let at = |i: usize, len: usize| arg.span.start + i..arg.span.start + i + len;
        if let Some(x) = text.find('x').filter(|_| is_rect(text)) {
            let side = |s: &str, off: usize, what: &str| {
                let n = parse_u64(
                    &Spanned {
                        value: s.to_string(),
                        span: at(off, s.len().max(1)),
                    },
                    what,
                )?;
                if n == 0 {
                    return Err(ExprError::new(
                        at(off, s.len()),
                        format!("{what} must be at least 1"),
                    ));
                }
                Ok(n)
            };
            let rows = side(&text[..x], 0, "the number of rows")?;
            let cols = side(&text[x + 1..], x + 1, "the number of columns")?;
            return Ok(Board::Rect { rows, cols });
        }
        let mut free = Vec::new();
        let mut cols = None;
        let mut offset = 0;
        for row in text.split('/') {
            if row.is_empty() {
                return Err(ExprError::new(
                    at(offset, 1),
                    "empty row: a board is rows of `.` (free) and `#` (blocked) separated by `/`",
                ));
            }
            for (i, ch) in row.char_indices() {
                match ch {
                    '.' => free.push(true),
                    '#' => free.push(false),
                    _ => {
                        return Err(ExprError::new(
                            at(offset + i, ch.len_utf8()),
                            format!(
                                "`{ch}` is not a cell: write `.` for a free cell, `#` for a blocked one"
                            ),
                        ));
                    }
                }
            }
            match cols {
                None => cols = Some(row.len()),
                Some(c) if c != row.len() => {
                    return Err(ExprError::new(
                        at(offset, row.len()),
                        format!(
                            "this row has {} but the first has {}: every row must be as long",
                            crate::words::count(row.len(), "cell"),
                            crate::words::count(c, "cell")
                        ),
                    ));
                }
                Some(_) => {}
            }
            offset += row.len() + 1;
        }
        let cols = cols.unwrap_or(0);
        Ok(Board::Cells { cols, free }.normalized())
    }

    /// A board of cells that are all free is written as a rectangle.
    fn normalized(self) -> Board {
        match self {
            Board::Cells { cols, free } if free.iter().all(|&f| f) && cols > 0 => Board::Rect {
                rows: (free.len() / cols) as u64,
                cols: cols as u64,
            },
            b => b,
        }
    }

    /// Rows and columns.
    pub fn dims(&self) -> (u64, u64) {
        match self {
            Board::Rect { rows, cols } => (*rows, *cols),
            Board::Cells { cols, free } => ((free.len() / cols.max(&1)) as u64, *cols as u64),
        }
    }

    /// The cells, if the board is small enough to list them.
    pub fn cells(&self) -> Option<(usize, Vec<bool>)> {
        match self {
            Board::Rect { rows, cols } => {
                let n = rows.checked_mul(*cols).filter(|&n| n <= MAX_LISTED_CELLS)?;
                Some((*cols as usize, vec![true; n as usize]))
            }
            Board::Cells { cols, free } => Some((*cols, free.clone())),
        }
    }

    /// The free cells as a bit mask (stride `cols`), if the board has at most 128 cells.
    pub fn mask(&self) -> Option<(u128, usize)> {
        let (rows, cols) = self.dims();
        if rows.checked_mul(cols)? > MAX_CELLS as u64 {
            return None;
        }
        let (cols, free) = self.cells()?;
        let bits = free
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .fold(0u128, |b, (i, _)| b | 1 << i);
        Some((bits, cols))
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Board::Rect { rows, cols } => write!(f, "{rows}x{cols}"),
            Board::Cells { cols, free } => {
                for (i, row) in free.chunks((*cols).max(1)).enumerate() {
                    if i > 0 {
                        f.write_str("/")?;
                    }
                    for &c in row {
                        f.write_str(if c { "." } else { "#" })?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// A search of a board, run over whichever game its regions fit ([`BoardGame::search`]).
trait BoardSearch {
    /// What the search gives.
    type Out;
    /// The analysis it is part of.
    fn context(&self) -> &Context;
    /// Runs over `game`, starting from the table `kept`; `keys` gives a board's components.
    fn run<G: SearchGame + Sync>(
        &self,
        board: &BoardGame,
        game: &G,
        kept: &KeptTable<G::Key>,
        keys: &dyn Fn(&BoardGame) -> Option<Vec<G::Key>>,
    ) -> Self::Out
    where
        G::Key: Send + Sync;
}

/// The value of a board.
struct ValueSearch<'a> {
    ctx: &'a Context,
}

impl BoardSearch for ValueSearch<'_> {
    type Out = Result<Nimber, AnalysisError>;
    fn context(&self) -> &Context {
        self.ctx
    }
    fn run<G: SearchGame + Sync>(
        &self,
        board: &BoardGame,
        game: &G,
        kept: &KeptTable<G::Key>,
        keys: &dyn Fn(&BoardGame) -> Option<Vec<G::Key>>,
    ) -> Self::Out
    where
        G::Key: Send + Sync,
    {
        let parts = keys(board).ok_or_else(|| board.too_big())?;
        board.search_value(game, kept, &parts, self.ctx)
    }
}

/// The moves of a board to the value `target` (only the first found when `first`).
struct MovesSearch<'a> {
    target: u32,
    first: bool,
    ctx: &'a Context,
}

impl BoardSearch for MovesSearch<'_> {
    type Out = Result<Vec<Move>, AnalysisError>;
    fn context(&self) -> &Context {
        self.ctx
    }
    fn run<G: SearchGame + Sync>(
        &self,
        board: &BoardGame,
        game: &G,
        kept: &KeptTable<G::Key>,
        keys: &dyn Fn(&BoardGame) -> Option<Vec<G::Key>>,
    ) -> Self::Out
    where
        G::Key: Send + Sync,
    {
        board.search_moves(game, kept, keys, (self.target, self.first), self.ctx)
    }
}

/// Cram or Node Kayles on a board, as a component of a sum.
#[derive(Clone, Debug)]
pub struct BoardGame {
    /// The game.
    pub rule: GridRule,
    /// The board.
    pub board: Board,
    /// The search tables, kept from the value's search for the winning moves' (and shared
    /// with the boards the moves leave).
    tables: Tables,
}

/// The search tables of a board, one per search game.
#[derive(Clone, Debug, Default)]
struct Tables {
    cram: KeptTable<u64>,
    /// Of the narrow frame (boards with a side of 9 to 16 cells and the other of at most 4).
    cram_narrow: KeptTable<usize>,
    /// Of the tall frame (boards with a side of 9 to 16 cells and the other of at most 8).
    cram_tall: KeptTable<u128>,
    grid: KeptTable<Region>,
}

impl Tables {
    /// The tables a checkpoint keeps, by name: the Cram frames' (the general region search's
    /// table, of variable-length keys, is not kept).
    fn sections(&self) -> [(&'static str, &dyn Section); 3] {
        [
            ("cram-8x8", &self.cram),
            ("cram-16x4", &self.cram_narrow),
            ("cram-16x8", &self.cram_tall),
        ]
    }
}

impl BoardGame {
    /// Whether the board's search keeps its table in a checkpoint file: Cram boards whose
    /// regions fit a frame (one side at most 8 cells, or at most 16 with the other at most
    /// 8).
    pub fn keeps_tables(&self) -> bool {
        let (rows, cols) = match &self.board {
            Board::Rect { rows, cols } => (*rows, *cols),
            Board::Cells { cols, free } => {
                (free.len().div_ceil((*cols).max(1)) as u64, *cols as u64)
            }
        };
        let (short, long) = (rows.min(cols), rows.max(cols));
        self.rule == GridRule::Cram && (long <= 8 || (long <= 16 && short <= 8))
    }

    /// Writes what the board's searches proved to `path` (see
    /// [`crate::search::checkpoint`]); the entries written.
    pub fn save_tables(&self, path: &Path) -> Result<u64, CheckpointError> {
        checkpoint::save(path, &self.tables.sections())
    }

    /// Adds the entries of the checkpoint at `path` to the board's search tables, made under
    /// `budget`; the entries read.
    pub fn load_tables(&self, path: &Path, budget: &Budget) -> Result<u64, CheckpointError> {
        checkpoint::load(path, &self.tables.sections(), budget)
    }

    /// `rule` played on `board`.
    pub fn new(rule: GridRule, board: Board) -> Self {
        BoardGame {
            rule,
            board,
            tables: Tables::default(),
        }
    }

    fn with(&self, cols: usize, free: Vec<bool>) -> BoardGame {
        BoardGame {
            rule: self.rule,
            board: Board::Cells { cols, free }.normalized(),
            tables: self.tables.clone(),
        }
    }

    /// Every move, described, with the board it leaves.
    fn move_list(&self, ctx: &Context) -> Result<Vec<(String, BoardGame)>, AnalysisError> {
        let (cols, free) = self.board.cells().ok_or_else(|| {
            AnalysisError::unsupported(
                self,
                format!(
                    "the board is too large to list its moves (more than {MAX_LISTED_CELLS} cells)"
                ),
            )
        })?;
        ctx.budget
            .afford(2 * free.len() as u64)
            .map_err(|e| AnalysisError::budget(self, e))?;
        let name = |i: usize| format!("({},{})", i / cols + 1, i % cols + 1);
        let mut out = Vec::new();
        for i in 0..free.len() {
            if !free[i] {
                continue;
            }
            let right = (i % cols + 1 < cols).then_some(i + 1);
            let down = (i + cols < free.len()).then_some(i + cols);
            match self.rule {
                GridRule::Cram => {
                    for j in [right, down].into_iter().flatten() {
                        if free[j] {
                            let mut next = free.clone();
                            next[i] = false;
                            next[j] = false;
                            out.push((
                                format!("domino {}-{}", name(i), name(j)),
                                self.with(cols, next),
                            ));
                        }
                    }
                }
                GridRule::NodeKayles => {
                    let left = (i % cols > 0).then(|| i - 1);
                    let up = i.checked_sub(cols);
                    let mut next = free.clone();
                    next[i] = false;
                    for j in [left, right, up, down].into_iter().flatten() {
                        next[j] = false;
                    }
                    out.push((format!("take {}", name(i)), self.with(cols, next)));
                }
            }
        }
        charge_listing(self, out.len(), free.len(), ctx)?;
        Ok(out)
    }

    /// The value by a closed form, if one applies.
    fn closed_form(&self, ctx: &Context) -> Result<Option<u64>, AnalysisError> {
        let (rows, cols) = self.board.dims();
        if let Board::Rect { .. } = self.board {
            if rows % 2 == 0 && cols % 2 == 0 {
                return Ok(Some(0));
            }
            if rows == 1 || cols == 1 {
                let code = match self.rule {
                    GridRule::Cram => "0.07",
                    GridRule::NodeKayles => "0.137",
                };
                return heap_value(self, code, rows.max(cols), ctx).map(Some);
            }
        }
        Ok(None)
    }

    fn regions(&self, game: &GridGame) -> Option<Vec<Region>> {
        let (bits, cols) = self.board.mask()?;
        let mut out = Vec::new();
        game.split(bits, cols, |r| out.push(r));
        Some(out)
    }

    /// The keys of the board's regions for the Cram search over the frame `C`, if it is Cram
    /// and every region fits the frame.
    fn cram_keys<C: Cells>(&self, grid: &GridGame, cram: &CramGame<C>) -> Option<Vec<C>> {
        if self.rule != GridRule::Cram {
            return None;
        }
        cram.keys(&self.regions(grid)?)
    }

    /// The value of the sum of `parts` by the position search over `game`, on as many
    /// threads as the budget's limits allow.
    fn search_value<G: SearchGame + Sync>(
        &self,
        game: &G,
        kept: &KeptTable<G::Key>,
        parts: &[G::Key],
        ctx: &Context,
    ) -> Result<Nimber, AnalysisError>
    where
        G::Key: Send + Sync,
    {
        let mut searcher = Searcher::resume(game, &ctx.budget, kept)
            .map_err(|e| AnalysisError::budget(self, e))?;
        let v = searcher.value_of_sum_with_threads(parts, ctx.budget.limits().max_threads);
        // What the search proved stays true even when it stopped short.
        searcher.keep(kept);
        let v = v.map_err(|e| search_error(self, e))?;
        Ok(Nimber(u64::from(v)))
    }

    /// The moves to a position of value `target`, by the position search over `game`
    /// (`parts` gives the keys of a board the moves leave); only the first found when
    /// `first`.
    fn search_moves<G: SearchGame>(
        &self,
        game: &G,
        kept: &KeptTable<G::Key>,
        parts: impl Fn(&BoardGame) -> Option<Vec<G::Key>>,
        (target, first): (u32, bool),
        ctx: &Context,
    ) -> Result<Vec<Move>, AnalysisError> {
        let moves = self.move_list(ctx)?;
        let mut searcher = Searcher::resume(game, &ctx.budget, kept)
            .map_err(|e| AnalysisError::budget(self, e))?;
        let mut found = Vec::new();
        let mut failed = None;
        for (description, b) in moves {
            let Some(keys) = parts(&b) else {
                failed = Some(self.too_big());
                break;
            };
            match searcher.sum_is(&keys, target) {
                Ok(true) => {
                    found.push(Move {
                        description,
                        result: vec![Box::new(b)],
                    });
                    if first {
                        break;
                    }
                }
                Ok(false) => {}
                Err(e) => {
                    failed = Some(search_error(self, e));
                    break;
                }
            }
        }
        searcher.keep(kept);
        match failed {
            Some(e) => Err(e),
            None => Ok(found),
        }
    }

    /// [`Component::moves_to_value`], or only the first move found when `first`.
    fn board_moves_to_value(
        &self,
        target: Nimber,
        first: bool,
        ctx: &Context,
    ) -> Result<Vec<Move>, AnalysisError> {
        if self.board.mask().is_none() {
            // The boards a move leaves are as large: their values are out of reach too.
            return Err(self.too_big());
        }
        if ctx.engine == Engine::Generic {
            return moves_to_value_by_search(self, target, ctx);
        }
        let Ok(target) = u32::try_from(target.0) else {
            return Ok(Vec::new());
        };
        // The boards a move leaves are smaller: they fit the same frame.
        self.search(&MovesSearch { target, first, ctx })
    }

    /// Runs `search` over the first game the board fits: Cram in the 8 × 8 frame, the
    /// narrow frame or the tall frame, else the region search of `super::grid`.
    fn search<S: BoardSearch>(&self, search: &S) -> S::Out {
        let grid = GridGame::new(self.rule);
        if self.rule == GridRule::Cram {
            let tables = &self.tables;
            let out = self
                .in_frame(&grid, &tables.cram, search)
                .or_else(|| self.in_frame(&grid, &tables.cram_narrow, search))
                .or_else(|| self.in_frame(&grid, &tables.cram_tall, search));
            if let Some(out) = out {
                return out;
            }
        }
        search.run(self, &grid, &self.tables.grid, &|b| b.regions(&grid))
    }

    /// Runs `search` over Cram in the frame `C`, if every region of the board fits it.
    fn in_frame<C: Cells, S: BoardSearch>(
        &self,
        grid: &GridGame,
        kept: &KeptTable<C>,
        search: &S,
    ) -> Option<S::Out> {
        let cram = CramGame::<C>::new().with_end_table(search.context().end_table.clone());
        self.cram_keys(grid, &cram)?;
        Some(search.run(self, &cram, kept, &|b| b.cram_keys(grid, &cram)))
    }

    fn too_big(&self) -> AnalysisError {
        let (rows, cols) = self.board.dims();
        AnalysisError::unsupported(
            self,
            format!(
                "the board has {rows} x {cols} cells; the position search handles boards of at most {MAX_CELLS} cells, and no closed form applies (even x even boards are 0 by symmetry, 1 x n boards are octal games)"
            ),
        )
    }
}

impl Component for BoardGame {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Board
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        match self.rule {
            GridRule::Cram => "cram",
            GridRule::NodeKayles => "node-kayles",
        }
        .to_string()
    }

    fn args(&self) -> Vec<String> {
        vec![self.board.to_string()]
    }

    fn joins(&self) -> bool {
        self.rule == GridRule::Cram
    }

    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        if let Some(v) = self.closed_form(ctx)? {
            return Ok(Nimber(v));
        }
        self.search(&ValueSearch { ctx })
    }

    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        let (cols, free) = self.board.cells().ok_or_else(|| self.too_big())?;
        let game = PlainBoard {
            cols,
            node_kayles: self.rule == GridRule::NodeKayles,
        };
        Solver::with_budget(game, &ctx.budget)
            .value(&free)
            .map_err(|e| AnalysisError::solve(self, e))
    }

    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        Ok(self
            .move_list(ctx)?
            .into_iter()
            .map(|(description, b)| Move {
                description,
                result: vec![Box::new(b)],
            })
            .collect())
    }

    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        self.board_moves_to_value(target, false, ctx)
    }

    fn a_move_to_value(
        &self,
        target: Nimber,
        ctx: &Context,
    ) -> Result<Option<Move>, AnalysisError> {
        Ok(self
            .board_moves_to_value(target, true, ctx)?
            .into_iter()
            .next())
    }

    fn outcome(&self, ctx: &Context) -> Result<Outcome, AnalysisError> {
        let (rows, cols) = self.board.dims();
        if let Board::Rect { .. } = self.board {
            let symmetric_first_move = match self.rule {
                // Take the two central cells, then mirror.
                GridRule::Cram => rows % 2 != cols % 2,
                // Take the central cell, then mirror.
                GridRule::NodeKayles => rows % 2 == 1 && cols % 2 == 1,
            };
            if symmetric_first_move {
                return Ok(Outcome::N);
            }
        }
        Ok(if self.value_in(ctx)?.is_zero() {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    fn notes(&self) -> Vec<String> {
        let (rows, cols) = self.board.dims();
        let mut notes = Vec::new();
        let name = (self as &dyn Component).to_string();
        if let Board::Rect { .. } = self.board {
            if rows % 2 == 0 && cols % 2 == 0 {
                notes.push(format!(
                    "{name}: an even x even board is worth 0: the second player answers every move with its image under the half turn about the centre."
                ));
            } else if rows == 1 || cols == 1 {
                let game = match self.rule {
                    GridRule::Cram => "Dawson's Kayles (0.07)",
                    GridRule::NodeKayles => "Dawson's chess (0.137)",
                };
                notes.push(format!(
                    "{name}: a single row is {game} on a heap of {}.",
                    rows.max(cols)
                ));
            }
        }
        notes
    }

    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}
