//! Chomp: `chomp 6x7` (6 rows of 7 squares) and `chomp 6,6,4,1` (row lengths, top row
//! first, never increasing). The top-left square is poisoned and is never taken; a move
//! picks any other square and takes it with every square below it and to its right. The
//! player who cannot move (only the poisoned square is left) loses.
//!
//! The value of a position whose box (its rows times its first row) has at most 256
//! squares comes from the [`StaircaseTable`]: every staircase in the box numbered densely,
//! filled in rank order with no hashing (Chomp 10 × 12 in well under a second). Larger
//! positions, and the cross-checks, go through the position search.
//!
//! For the search ([`ChompGame`]) a position is up to 16 row lengths of 8 bits in a `u128`,
//! in canonical form under the transpose (a position and its conjugate are the same game).
//! Closed forms: a single row or column of `n` squares is a Nim heap of `n − 1`; an L
//! (a row and a column through the poisoned square) is two Nim heaps. Any rectangle other
//! than 1 × 1 is a first-player win by strategy stealing (its value still needs the
//! search).

use super::plain::{PlainChomp, bites};
use super::staircase::StaircaseTable;
use super::{charge_listing, search_error};
use crate::expr::{ExprError, Spanned, parse_u64};
use crate::nimber::Nimber;
use crate::search::{Options, SearchGame, Searcher};
use crate::solve::Solver;
use crate::sum::{AnalysisError, Component, Context, Engine, Move, moves_to_value_by_search};
use crate::value::Outcome;

/// The most rows the search packs (after turning the board so that it has fewer rows).
pub const MAX_ROWS: usize = 16;
/// The longest row the search packs.
pub const MAX_ROW: u64 = 255;
/// The most squares of a position the search takes (a game lasts at most this many moves).
pub const MAX_SQUARES: u64 = 256;
/// The most squares of a position whose moves are listed.
pub const MAX_LISTED: u64 = 1 << 16;

/// A Chomp position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChompBoard {
    /// `rows` × `cols`, full.
    Rect {
        /// Rows.
        rows: u64,
        /// Columns.
        cols: u64,
    },
    /// Row lengths, top first, never increasing, each at least 1.
    Rows(Vec<u64>),
}

impl ChompBoard {
    /// Reads `RxC` or row lengths `a,b,c`.
    pub fn parse(arg: &Spanned<String>) -> Result<ChompBoard, ExprError> {
        let text = arg.value.as_str();
        let number = |s: &str, off: usize, what: &str| {
            let span = arg.span.start + off..arg.span.start + off + s.len().max(1);
            let n = parse_u64(
                &Spanned {
                    value: s.to_string(),
                    span: span.clone(),
                },
                what,
            )?;
            if n == 0 {
                return Err(ExprError::new(span, format!("{what} must be at least 1")));
            }
            Ok(n)
        };
        if let Some((r, c)) = text.split_once('x') {
            let rows = number(r, 0, "the number of rows")?;
            let cols = number(c, r.len() + 1, "the number of columns")?;
            return Ok(ChompBoard::Rect { rows, cols });
        }
        let mut rows: Vec<u64> = Vec::new();
        let mut off = 0;
        for part in text.split(',') {
            let n = number(part, off, "a row length")?;
            if let Some(&prev) = rows.last() {
                if n > prev {
                    let span = arg.span.start + off..arg.span.start + off + part.len();
                    return Err(ExprError::new(
                        span,
                        format!(
                            "row lengths never increase (this row has {n}, the one above {prev})"
                        ),
                    ));
                }
            }
            rows.push(n);
            off += part.len() + 1;
        }
        Ok(ChompBoard::Rows(rows).normalized())
    }

    fn normalized(self) -> ChompBoard {
        match self {
            ChompBoard::Rows(r) if r.iter().all(|&x| x == r[0]) => ChompBoard::Rect {
                rows: r.len() as u64,
                cols: r[0],
            },
            b => b,
        }
    }

    /// The number of squares, if it fits in 64 bits.
    pub fn squares(&self) -> Option<u64> {
        match self {
            ChompBoard::Rect { rows, cols } => rows.checked_mul(*cols),
            ChompBoard::Rows(r) => r.iter().try_fold(0u64, |s, &x| s.checked_add(x)),
        }
    }

    /// The row lengths, if there are few enough squares to list (at most 65,536 squares, in
    /// either shape: `18446744073709551615,1` has as many moves as `1x18446744073709551616`).
    pub fn rows(&self) -> Option<Vec<u64>> {
        self.squares().filter(|&n| n <= MAX_LISTED)?;
        match self {
            ChompBoard::Rect { rows, cols } => Some(vec![*cols; *rows as usize]),
            ChompBoard::Rows(r) => Some(r.clone()),
        }
    }

    /// The packed key of the search, if the position fits it.
    pub fn key(&self) -> Option<u128> {
        let rows = self.rows()?;
        if rows.iter().sum::<u64>() > MAX_SQUARES {
            return None;
        }
        let rows = if rows.len() > MAX_ROWS {
            conjugate(&rows)
        } else {
            rows
        };
        if rows.len() > MAX_ROWS || rows.iter().any(|&r| r > MAX_ROW) {
            return None;
        }
        Some(canonical(&rows))
    }
}

impl std::fmt::Display for ChompBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChompBoard::Rect { rows, cols } => write!(f, "{rows}x{cols}"),
            // Written number by number: the misère search formats every board it meets
            // (a String per number was most of its time on 100x100 boards).
            ChompBoard::Rows(r) => {
                for (i, x) in r.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{x}")?;
                }
                Ok(())
            }
        }
    }
}

/// The conjugate: column heights as row lengths.
fn conjugate(rows: &[u64]) -> Vec<u64> {
    let width = rows.first().copied().unwrap_or(0);
    (0..width)
        .map(|c| rows.iter().take_while(|&&len| len > c).count() as u64)
        .collect()
}

fn pack(rows: &[u64]) -> u128 {
    rows.iter()
        .enumerate()
        .fold(0u128, |k, (i, &len)| k | (u128::from(len as u8) << (8 * i)))
}

fn unpack(key: u128) -> ([u64; MAX_ROWS], usize) {
    let mut rows = [0u64; MAX_ROWS];
    let mut n = 0;
    while n < MAX_ROWS {
        let len = ((key >> (8 * n)) & 0xff) as u64;
        if len == 0 {
            break;
        }
        rows[n] = len;
        n += 1;
    }
    (rows, n)
}

/// The least packing of a position and its conjugate (when the conjugate fits).
fn canonical(rows: &[u64]) -> u128 {
    let a = pack(rows);
    if rows.first().is_some_and(|&w| w as usize <= MAX_ROWS) {
        a.min(pack(&conjugate(rows)))
    } else {
        a
    }
}

/// Chomp as a [`SearchGame`]: keys are packed row lengths (the root in canonical form).
#[derive(Clone, Copy, Debug, Default)]
pub struct ChompGame;

impl SearchGame for ChompGame {
    type Key = u128;

    fn options(&self, &key: &u128, out: &mut Options<u128>) {
        let (rows, n) = unpack(key);
        let mut next = [0u64; MAX_ROWS];
        for r in 0..n {
            for c in 0..rows[r] {
                if r == 0 && c == 0 {
                    continue;
                }
                let mut m = 0;
                for i in 0..n {
                    let len = if i >= r { rows[i].min(c) } else { rows[i] };
                    if len == 0 {
                        break;
                    }
                    next[i] = len;
                    m += 1;
                }
                // Options are packed as they are, not turned to their least form: computing
                // conjugates for every option costs more than the entries it would share.
                out.push_option([pack(&next[..m])]);
            }
        }
    }

    fn prove_values(&self) -> bool {
        false
    }

    fn size(&self, &key: &u128) -> u32 {
        let (rows, n) = unpack(key);
        rows[..n].iter().sum::<u64>() as u32
    }

    fn known_value(&self, &key: &u128) -> Option<u32> {
        let (rows, n) = unpack(key);
        if n == 1 {
            return Some(rows[0] as u32 - 1);
        }
        if rows[1] == 1 {
            // An L: the top row and the first column are two Nim heaps.
            return Some((rows[0] as u32 - 1) ^ (n as u32 - 1));
        }
        None
    }
}

/// A Chomp position as a component of a sum.
#[derive(Clone, Debug)]
pub struct Chomp {
    /// The position.
    pub board: ChompBoard,
}

impl Chomp {
    fn move_list(&self, ctx: &Context) -> Result<Vec<(String, Chomp)>, AnalysisError> {
        let rows = self.board.rows().ok_or_else(|| {
            AnalysisError::unsupported(
                self,
                format!(
                    "the position is too large to list its moves (more than {MAX_LISTED} squares)"
                ),
            )
        })?;
        // At most MAX_LISTED squares (`rows` checked the sum): no overflow.
        let squares = rows.iter().sum::<u64>();
        ctx.budget
            .afford(squares)
            .map_err(|e| AnalysisError::budget(self, e))?;
        charge_listing(self, squares as usize, rows.len(), ctx)?;
        Ok(bites(&rows)
            .map(|(r, c, next)| {
                (
                    format!("bite ({},{})", r + 1, c + 1),
                    Chomp {
                        board: ChompBoard::Rows(next).normalized(),
                    },
                )
            })
            .collect())
    }

    fn closed_form(&self) -> Option<u64> {
        match &self.board {
            ChompBoard::Rect { rows, cols } if *rows == 1 || *cols == 1 => Some(rows.max(cols) - 1),
            ChompBoard::Rows(r) if r.len() >= 2 && r[1] == 1 => {
                Some((r[0] - 1) ^ (r.len() as u64 - 1))
            }
            _ => None,
        }
    }

    /// The table of every staircase up to this position ([`StaircaseTable`]), when its box
    /// is small enough and the table fits the budget's position limit; `None` leaves the
    /// position to the search.
    fn table(&self, ctx: &Context) -> Result<Option<StaircaseTable>, AnalysisError> {
        let Some(rows) = self.board.rows() else {
            return Ok(None);
        };
        match StaircaseTable::positions(&rows) {
            Some(n) if n <= ctx.budget.limits().max_positions as u64 => {
                StaircaseTable::build(&rows, &ctx.budget)
                    .map(Some)
                    .map_err(|e| AnalysisError::budget(self, e))
            }
            _ => Ok(None),
        }
    }

    fn too_big(&self) -> AnalysisError {
        AnalysisError::unsupported(
            self,
            format!(
                "the position search handles Chomp positions of at most {MAX_SQUARES} squares in at most {MAX_ROWS} rows or columns; no closed form applies (a rectangle is a first-player win by strategy stealing, but its value needs the search)"
            ),
        )
    }
}

impl Component for Chomp {
    fn family(&self) -> crate::sum::Family {
        crate::sum::Family::Board
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn rule(&self) -> String {
        "chomp".to_string()
    }

    fn args(&self) -> Vec<String> {
        vec![self.board.to_string()]
    }

    fn joins(&self) -> bool {
        true
    }

    fn value(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        if let Some(v) = self.closed_form() {
            return Ok(Nimber(v));
        }
        if let Some(table) = self.table(ctx)? {
            let rows = self.board.rows().ok_or_else(|| self.too_big())?;
            let v = table.value(&rows).ok_or_else(|| self.too_big())?;
            return Ok(Nimber(u64::from(v)));
        }
        let key = self.board.key().ok_or_else(|| self.too_big())?;
        let mut s =
            Searcher::new(&ChompGame, &ctx.budget).map_err(|e| AnalysisError::budget(self, e))?;
        let v = s.value(&key).map_err(|e| search_error(self, e))?;
        Ok(Nimber(u64::from(v)))
    }

    fn value_generic(&self, ctx: &Context) -> Result<Nimber, AnalysisError> {
        let rows = self.board.rows().ok_or_else(|| self.too_big())?;
        Solver::with_budget(PlainChomp, &ctx.budget)
            .value(&rows)
            .map_err(|e| AnalysisError::solve(self, e))
    }

    fn moves(&self, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        Ok(self
            .move_list(ctx)?
            .into_iter()
            .map(|(description, c)| Move {
                description,
                result: vec![Box::new(c)],
            })
            .collect())
    }

    fn moves_to_value(&self, target: Nimber, ctx: &Context) -> Result<Vec<Move>, AnalysisError> {
        if self.board.key().is_none() {
            return Err(self.too_big());
        }
        if ctx.engine == Engine::Generic {
            return moves_to_value_by_search(self, target, ctx);
        }
        let Ok(target) = u32::try_from(target.0) else {
            return Ok(Vec::new());
        };
        if let Some(table) = self.table(ctx)? {
            let mut found = Vec::new();
            for (description, c) in self.move_list(ctx)? {
                let rows = c.board.rows().ok_or_else(|| self.too_big())?;
                let v = table.value(&rows).ok_or_else(|| self.too_big())?;
                if v == target {
                    found.push(Move {
                        description,
                        result: vec![Box::new(c)],
                    });
                }
            }
            return Ok(found);
        }
        let mut s =
            Searcher::new(&ChompGame, &ctx.budget).map_err(|e| AnalysisError::budget(self, e))?;
        let mut found = Vec::new();
        for (description, c) in self.move_list(ctx)? {
            let key = c.board.key().ok_or_else(|| self.too_big())?;
            if s.sum_is(&[key], target)
                .map_err(|e| search_error(self, e))?
            {
                found.push(Move {
                    description,
                    result: vec![Box::new(c)],
                });
            }
        }
        Ok(found)
    }

    fn outcome(&self, ctx: &Context) -> Result<Outcome, AnalysisError> {
        if let ChompBoard::Rect { rows, cols } = self.board {
            // Strategy stealing: if biting the far corner lost, its winning answer would be
            // available at once.
            if rows > 1 || cols > 1 {
                return Ok(Outcome::N);
            }
        }
        Ok(if self.value_in(ctx)?.is_zero() {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    fn clone_box(&self) -> Box<dyn Component> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_position_is_searched_once() {
        use crate::control::Budget;
        let key = ChompBoard::Rect { rows: 6, cols: 7 }.key().unwrap();
        let mut s = Searcher::new(&ChompGame, &Budget::default()).unwrap();
        s.value(&key).unwrap();
        let stats = s.stats();
        // At most C(13, 6) = 1716 staircases fit in 6 x 7.
        assert!(stats.nodes <= 1716, "{stats:?}");
        assert!(stats.peak_entries <= 1716, "{stats:?}");
    }

    #[test]
    fn conjugates_share_a_key() {
        assert_eq!(canonical(&[3, 1]), canonical(&[2, 1, 1]));
        assert_eq!(conjugate(&[4, 2, 1]), [3, 2, 1, 1]);
        let (rows, n) = unpack(pack(&[5, 3, 3]));
        assert_eq!(&rows[..n], &[5, 3, 3]);
    }
}
