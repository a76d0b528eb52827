//! What the atlas answers: a game's row, a family's rows, the games with the same sequence,
//! and raw read-only SQL.

use super::AtlasError;
use super::db::{Atlas, GAME_COLUMNS, GameStatus, game_of_row};
use super::family::{Family, FamilyError};
use crate::api::GameRow;
pub use crate::api::{FamilyRows, Filter, GameCard, ProvenTwin, Twin};
use crate::heap::code::Code;
use crate::heap::rules::HeapRule;
use rusqlite::types::ValueRef;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The most games a card lists as provably the same.
pub const MAX_PROVEN_TWINS: usize = 64;

/// The answer to a raw SQL query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SqlAnswer {
    /// The column names.
    pub columns: Vec<String>,
    /// The rows: numbers, text or null (a blob as `x'..'` text).
    pub rows: Vec<Vec<serde_json::Value>>,
}

/// The rule `text` names, canonical: `kayles` is `0.77`.
fn canonical(text: &str) -> Result<String, AtlasError> {
    let rule = HeapRule::parse(text.trim()).map_err(|e| FamilyError::Rule {
        pattern: text.to_string(),
        message: e.message.clone(),
    })?;
    Ok(rule.canonical().name().to_string())
}

impl Atlas {
    /// The row of the game `rule` names (`0.137`, `kayles`, `sub(1,2)`), if the atlas has it.
    pub fn game(&self, rule: &str) -> Result<Option<GameRow>, AtlasError> {
        self.game_row(&canonical(rule)?)
    }

    /// The card of the game `rule` names, if the atlas has it.
    pub fn card(&self, rule: &str) -> Result<Option<GameCard>, AtlasError> {
        let Some(game) = self.game(rule)? else {
            return Ok(None);
        };
        let same_as = self.same_as(&game.code)?.unwrap_or_default();
        let proven_same = self.proven_same(&game.code)?;
        let misere = self.misere_row(&game.code)?;
        Ok(Some(GameCard {
            game,
            same_as,
            proven_same,
            misere,
        }))
    }

    /// The games the shift rule ties to the code `code` ([`Code::shifted`]): the code one
    /// heap down, the codes one heap up, and the codes with the same shift (the same
    /// sequence); then the codes that differ only in a move that takes a whole heap and
    /// changes no value ([`Code::whole_heap_twins`]); at most [`MAX_PROVEN_TWINS`]. Empty
    /// for a rule that is not a code.
    pub fn proven_same(&self, code: &str) -> Result<Vec<ProvenTwin>, AtlasError> {
        let Ok(me) = code.parse::<Code>() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        if let Some(down) = me.shifted() {
            out.push((down.clone(), -1, "heaps of one are dead here".to_string()));
            for other in down.unshifted().into_iter().filter(|c| *c != me) {
                out.push((other, 0, format!("both play as {down} one heap on")));
            }
        }
        for up in me.unshifted() {
            out.push((up.clone(), 1, "heaps of one are dead there".to_string()));
        }
        for (other, k) in me.whole_heap_twins() {
            if !out.iter().any(|(c, _, _)| *c == other) {
                let reason = format!(
                    "they differ only in taking a whole heap of {k}, which has a move to 0 \
                     either way"
                );
                out.push((other, 0, reason));
            }
        }
        out.truncate(MAX_PROVEN_TWINS);
        out.into_iter()
            .map(|(other, offset, reason)| {
                let code = other.to_string();
                let in_atlas = self.game_row(&code)?.is_some();
                Ok(ProvenTwin {
                    code,
                    offset,
                    reason,
                    in_atlas,
                })
            })
            .collect()
    }

    /// The rows of a family's games that pass `filter`.
    pub fn family(&self, pattern: &str, filter: Filter) -> Result<FamilyRows, AtlasError> {
        let family = Family::parse(pattern)?;
        let mut stmt = self
            .conn
            .prepare(&format!("SELECT {GAME_COLUMNS} FROM games WHERE code = ?1"))
            .map_err(|e| self.db_error(e))?;
        let mut rows = Vec::new();
        let mut missing = 0;
        for rule in &family.rules {
            let mut found = stmt
                .query_map([rule.name()], game_of_row)
                .map_err(|e| self.db_error(e))?;
            match found.next().transpose().map_err(|e| self.db_error(e))? {
                None => missing += 1,
                Some(row) => {
                    let solved = row.status == GameStatus::Proven;
                    let keep = match filter {
                        Filter::All => true,
                        Filter::Open => !solved,
                        Filter::Solved => solved,
                    };
                    if keep {
                        rows.push(row);
                    }
                }
            }
        }
        Ok(FamilyRows {
            pattern: pattern.to_string(),
            games: family.rules.len() as u64,
            missing,
            rows,
        })
    }

    /// The games whose sequences agree with that of `rule` on the longest prefix both have a
    /// checksum of (16, 32, 64, ... values, or the whole of either), longest agreement first.
    /// `None` when the atlas does not have `rule`.
    pub fn same_as(&self, rule: &str) -> Result<Option<Vec<Twin>>, AtlasError> {
        let code = canonical(rule)?;
        if self.game_row(&code)?.is_none() {
            return Ok(None);
        }
        let mut stmt = self
            .conn
            .prepare(
                "WITH mine AS (SELECT length, checksum FROM checksums WHERE code = ?1),
                 common AS (
                   SELECT o.code AS code, MAX(o.length) AS length
                   FROM checksums o JOIN mine m ON o.length = m.length
                   WHERE o.code <> ?1 GROUP BY o.code)
                 SELECT c.code, c.length FROM common c
                 JOIN checksums o ON o.code = c.code AND o.length = c.length
                 JOIN mine m ON m.length = c.length
                 WHERE o.checksum = m.checksum
                 ORDER BY c.length DESC, c.code",
            )
            .map_err(|e| self.db_error(e))?;
        let twins = stmt
            .query_map([&code], |r| {
                Ok(Twin {
                    code: r.get(0)?,
                    length: u64::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                })
            })
            .map_err(|e| self.db_error(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.db_error(e))?;
        Ok(Some(twins))
    }

    /// Runs one read-only SQL statement: at most `max_rows` rows (more is an error asking
    /// for a LIMIT), stopped when `cancel` becomes true. A statement that would write, or
    /// ATTACH another file, is refused; the connection of [`Atlas::open`] is read-only and
    /// `query_only` besides.
    pub fn sql(
        &self,
        query: &str,
        max_rows: usize,
        cancel: Option<&AtomicBool>,
    ) -> Result<SqlAnswer, AtlasError> {
        let first_word = query
            .trim_start()
            .split(|c: char| !c.is_ascii_alphabetic())
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        if matches!(first_word.as_str(), "ATTACH" | "DETACH") {
            return Err(AtlasError::Query(format!(
                "{first_word} is refused: the atlas answers queries of its own file only"
            )));
        }
        let mut stmt = self
            .conn
            .prepare(query)
            .map_err(|e| AtlasError::Query(format!("the query cannot be read: {e}")))?;
        if !stmt.readonly() {
            return Err(AtlasError::Query(
                "the query would write to the atlas, which answers read-only queries only \
                 (SELECT ...)"
                    .into(),
            ));
        }
        let columns: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
        let width = columns.len();
        let done = AtomicBool::new(false);
        let handle = self.conn.get_interrupt_handle();
        std::thread::scope(|scope| {
            if let Some(flag) = cancel {
                let done = &done;
                scope.spawn(move || {
                    while !done.load(Ordering::Relaxed) {
                        if flag.load(Ordering::Relaxed) {
                            handle.interrupt();
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(20));
                    }
                });
            }
            let result = read_rows(&mut stmt, width, max_rows, cancel);
            done.store(true, Ordering::Relaxed);
            result
        })
        .map(|rows| SqlAnswer { columns, rows })
    }
}

fn read_rows(
    stmt: &mut rusqlite::Statement<'_>,
    width: usize,
    max_rows: usize,
    cancel: Option<&AtomicBool>,
) -> Result<Vec<Vec<serde_json::Value>>, AtlasError> {
    let interrupted = || cancel.is_some_and(|f| f.load(Ordering::Relaxed));
    let failed = |e: rusqlite::Error| {
        if interrupted() {
            AtlasError::Interrupted
        } else {
            AtlasError::Query(format!("the query failed: {e}"))
        }
    };
    let mut out = Vec::new();
    let mut rows = stmt.query([]).map_err(failed)?;
    while let Some(row) = rows.next().map_err(failed)? {
        if out.len() >= max_rows {
            return Err(AtlasError::Query(format!(
                "the query gives more than {max_rows} rows, the most shown; add a LIMIT"
            )));
        }
        let mut cells = Vec::with_capacity(width);
        for i in 0..width {
            cells.push(match row.get_ref(i).map_err(failed)? {
                ValueRef::Null => serde_json::Value::Null,
                ValueRef::Integer(n) => n.into(),
                ValueRef::Real(x) => serde_json::Number::from_f64(x)
                    .map_or(serde_json::Value::Null, serde_json::Value::Number),
                ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned().into(),
                ValueRef::Blob(b) => {
                    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
                    format!("x'{hex}'").into()
                }
            });
        }
        out.push(cells);
    }
    if interrupted() {
        return Err(AtlasError::Interrupted);
    }
    Ok(out)
}
