//! The misère side of the atlas: a game's bounded misère quotient (Plambeck–Siegel), computed
//! by a census asked for it (`--misere MAXHEAP`) and kept in the table `misere`:
//!
//! ```sql
//! CREATE TABLE misere (              -- one row per game whose quotient was asked for
//!   code        TEXT PRIMARY KEY,    -- games.code
//!   max_heap    INTEGER NOT NULL,    -- the closure of heaps 1 to max_heap was asked for
//!   status      TEXT NOT NULL,       -- 'computed' or 'refused'
//!   computed_to INTEGER,             -- the closure's largest heap (past max_heap when the
//!                                    -- period's proof needed more)
//!   quotient_order INTEGER,          -- elements of the quotient
//!   p_portion   INTEGER,             -- elements of its P-portion
//!   period      INTEGER,             -- the heap map's period, where one shows
//!   preperiod   INTEGER,
//!   period_proven INTEGER,           -- 1: for every heap (the periodicity theorem); 0: observed
//!   reason      TEXT,                -- why refused
//!   seconds     REAL,
//!   finished_at TEXT NOT NULL
//! );
//! ```
//!
//! Each quotient runs under the library's standard work limit (seconds to about twenty) and
//! at most [`MAX_ELEMENTS`] elements; past either it is written as refused, with the reason,
//! and the census goes on. A census resumed with the same or a smaller `MAXHEAP` never
//! computes a quotient again.

use super::AtlasError;
use super::db::{Atlas, NOW, int, nat};
pub use crate::api::MisereRow;
use crate::control::{Budget, Limits};
use crate::heap::rules::HeapRule;
use crate::misere::periodicity::heap_quotient_as_asked;
use rusqlite::{OptionalExtension, params};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The table, as the schema creates it (and the migration from version 1 adds it).
pub(crate) const MISERE_TABLE: &str = "
CREATE TABLE misere (
  code TEXT PRIMARY KEY, max_heap INTEGER NOT NULL, status TEXT NOT NULL, computed_to INTEGER,
  quotient_order INTEGER, p_portion INTEGER, period INTEGER, preperiod INTEGER,
  period_proven INTEGER, reason TEXT, seconds REAL, finished_at TEXT NOT NULL
);
";

/// The most elements a census's quotient may have.
pub const MAX_ELEMENTS: usize = 1024;

/// The largest `MAXHEAP` a census takes for its quotients.
pub const MAX_MISERE_HEAP: u64 = 1000;

/// The bounded misère quotient of `rule`'s heaps 1 to `max_heap`, under the standard work
/// limit; `cancel` stops it (the census's interruption).
pub(crate) fn compute(rule: &HeapRule, max_heap: u64, cancel: Arc<AtomicBool>) -> MisereRow {
    let started = Instant::now();
    let budget = Budget::with_cancel_flag(Limits::DEFAULT, cancel);
    let mut row = MisereRow {
        code: rule.name().to_string(),
        max_heap,
        computed: false,
        computed_to: None,
        order: None,
        p_portion: None,
        period: None,
        preperiod: None,
        period_proven: None,
        reason: None,
        seconds: 0.0,
        finished_at: None,
    };
    match heap_quotient_as_asked(rule, 0, max_heap, &budget, MAX_ELEMENTS) {
        Ok(q) => {
            let report = q.report();
            row.computed = true;
            row.computed_to = Some(report.max_heap);
            row.order = Some(report.order as u64);
            row.p_portion = Some(report.p_portion.len() as u64);
            if let Some(p) = report.period {
                row.period = Some(p.period);
                row.preperiod = Some(p.preperiod);
                row.period_proven = Some(p.proven);
            }
        }
        Err(stop) => {
            row.computed_to = stop.heap.and_then(|h| h.checked_sub(1));
            row.reason = Some(match stop.heap {
                Some(h) => format!("stopped at heap {h}: {}", stop.error),
                None => stop.error.to_string(),
            });
        }
    }
    row.seconds = started.elapsed().as_secs_f64();
    row
}

impl Atlas {
    /// Whether the file has the table `misere` (a version 1 file opened to read has not).
    fn has_misere(&self) -> Result<bool, AtlasError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'misere'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| self.db_error(e))
    }

    /// The `max_heap` of each game's quotient row (computed or refused).
    pub(crate) fn known_misere(&self) -> Result<HashMap<String, u64>, AtlasError> {
        if !self.has_misere()? {
            return Ok(HashMap::new());
        }
        let mut stmt = self
            .conn
            .prepare("SELECT code, max_heap FROM misere")
            .map_err(|e| self.db_error(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((r.get::<_, String>(0)?, nat(r, 1)?.unwrap_or(0)))
            })
            .map_err(|e| self.db_error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db_error(e))
    }

    /// Writes one game's quotient row, replacing what the atlas held of it.
    pub(crate) fn write_misere(&mut self, row: &MisereRow) -> Result<(), AtlasError> {
        self.conn
            .execute(
                &format!(
                    "INSERT OR REPLACE INTO misere (code, max_heap, status, computed_to, \
                     quotient_order, p_portion, period, preperiod, period_proven, reason, \
                     seconds, finished_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, \
                     ?11, {NOW})"
                ),
                params![
                    row.code,
                    int(row.max_heap),
                    if row.computed { "computed" } else { "refused" },
                    row.computed_to.map(int),
                    row.order.map(int),
                    row.p_portion.map(int),
                    row.period.map(int),
                    row.preperiod.map(int),
                    row.period_proven,
                    row.reason,
                    row.seconds,
                ],
            )
            .map(|_| ())
            .map_err(|e| self.db_error(e))
    }

    /// The quotient row of the game with this canonical name, if the atlas has one.
    pub(crate) fn misere_row(&self, code: &str) -> Result<Option<MisereRow>, AtlasError> {
        if !self.has_misere()? {
            return Ok(None);
        }
        self.conn
            .query_row(
                "SELECT code, max_heap, status, computed_to, quotient_order, p_portion, period, \
                 preperiod, period_proven, reason, seconds, finished_at FROM misere \
                 WHERE code = ?1",
                [code],
                |r| {
                    Ok(MisereRow {
                        code: r.get(0)?,
                        max_heap: nat(r, 1)?.unwrap_or(0),
                        computed: r.get::<_, String>(2)? == "computed",
                        computed_to: nat(r, 3)?,
                        order: nat(r, 4)?,
                        p_portion: nat(r, 5)?,
                        period: nat(r, 6)?,
                        preperiod: nat(r, 7)?,
                        period_proven: r.get(8)?,
                        reason: r.get(9)?,
                        seconds: r.get::<_, Option<f64>>(10)?.unwrap_or(0.0),
                        finished_at: r.get(11)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.db_error(e))
    }
}
