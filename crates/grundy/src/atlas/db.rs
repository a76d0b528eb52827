//! The atlas database: one SQLite file, its schema and its version.
//!
//! The schema version is SQLite's `PRAGMA user_version`, [`SCHEMA_VERSION`] here. A file
//! with a newer version, a file that is not SQLite (or is damaged), and another program's
//! SQLite database are refused with an error naming the file. Every game is written in its
//! own transaction, so a census killed at any moment loses at most the games in flight.
//!
//! Schema version 1:
//!
//! ```sql
//! CREATE TABLE runs (                -- one row per census
//!   id          INTEGER PRIMARY KEY,
//!   patterns    TEXT NOT NULL,       -- the families, space-separated
//!   target      INTEGER NOT NULL,    -- N of --to N
//!   started_at  TEXT NOT NULL,       -- UTC, ISO 8601
//!   finished_at TEXT,                -- NULL while running (or killed)
//!   status      TEXT NOT NULL,       -- 'running', 'finished', 'interrupted', 'failed'
//!   games       INTEGER,             -- games in the families
//!   computed    INTEGER,             -- games computed by this run
//!   skipped     INTEGER,             -- games already known to N, or proven
//!   refused     INTEGER,             -- games refused (time limit, memory, ...)
//!   version     TEXT NOT NULL        -- the grundy that ran it
//! );
//! CREATE TABLE games (               -- one row per game: the latest computation of it
//!   code             TEXT PRIMARY KEY, -- the rule's canonical name: 0.137, sub(1,3,4)
//!   status           TEXT NOT NULL,  -- 'proven', 'apparent', 'none' (no period seen), 'refused'
//!   target           INTEGER NOT NULL, -- the N asked for
//!   computed_to      INTEGER,        -- g(0) to g(computed_to) computed (NULL: none)
//!   engine           TEXT,           -- plain, sparse, small, periodic, ...
//!   period           INTEGER,        -- the period p (proven or apparent)
//!   preperiod        INTEGER,        -- the preperiod e: g(n + p) = g(n) + saltus for n >= e
//!   saltus           INTEGER,
//!   proof            TEXT,           -- how the period is proven, in words
//!   last_exceptional INTEGER,        -- e - 1, the last heap outside the period (NULL if e = 0)
//!   max_value        INTEGER,        -- the largest value in g(0..=computed_to)
//!   max_value_heap   INTEGER,        -- the first heap with it
//!   p_positions      INTEGER,        -- heaps n <= computed_to with g(n) = 0
//!   first_values     TEXT,           -- g(0) to g(63), space-separated
//!   checksum         TEXT,           -- FNV-1a 64 of g(0..=computed_to), 16 hex digits
//!   rare_mask        INTEGER,        -- sparse engine: the mask splitting rare from common
//!   rare_values      TEXT,           -- the distinct rare values, space-separated
//!   rare_count       INTEGER,        -- heaps n >= 1 with a rare value
//!   last_rare        INTEGER,        -- the last rare heap found
//!   reason           TEXT,           -- why refused
//!   seconds          REAL,           -- time spent on this game
//!   run_id           INTEGER,        -- the census that wrote it (runs.id)
//!   finished_at      TEXT NOT NULL   -- UTC, ISO 8601
//! );
//! CREATE TABLE checksums (           -- prefix checksums, for games with the same sequence
//!   code     TEXT NOT NULL,          -- games.code
//!   length   INTEGER NOT NULL,       -- 16, 32, 64, ... and the whole length
//!   checksum TEXT NOT NULL,          -- FNV-1a 64 of g(0..length), 16 hex digits
//!   PRIMARY KEY (code, length)
//! );
//! ```
//!
//! Version 2 adds the table `misere` (a game's bounded misère quotient, see
//! [`misere`](super::misere)); a version 1 file opened to write gains it.
//!
//! Sequences are not stored whole: the first values, the period and the checksums are what
//! a reader needs to verify a recomputation. A proven period extends the sequence for the
//! checksums: they cover g(0) to g(N) (as far as values fit in 16 bits).

use super::AtlasError;
use super::misere::MISERE_TABLE;
pub use crate::api::{GameRow, GameStatus};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The schema version this build reads and writes.
pub const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE runs (
  id INTEGER PRIMARY KEY, patterns TEXT NOT NULL, target INTEGER NOT NULL,
  started_at TEXT NOT NULL, finished_at TEXT, status TEXT NOT NULL,
  games INTEGER, computed INTEGER, skipped INTEGER, refused INTEGER, version TEXT NOT NULL
);
CREATE TABLE games (
  code TEXT PRIMARY KEY, status TEXT NOT NULL, target INTEGER NOT NULL, computed_to INTEGER,
  engine TEXT, period INTEGER, preperiod INTEGER, saltus INTEGER, proof TEXT,
  last_exceptional INTEGER, max_value INTEGER, max_value_heap INTEGER, p_positions INTEGER,
  first_values TEXT, checksum TEXT, rare_mask INTEGER, rare_values TEXT, rare_count INTEGER,
  last_rare INTEGER, reason TEXT, seconds REAL, run_id INTEGER, finished_at TEXT NOT NULL
);
CREATE TABLE checksums (
  code TEXT NOT NULL, length INTEGER NOT NULL, checksum TEXT NOT NULL,
  PRIMARY KEY (code, length)
);
CREATE INDEX checksums_by_value ON checksums (length, checksum);
";

/// The UTC time now, as SQLite writes it.
pub(crate) const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// A row of `runs`: one census.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RunRow {
    /// Its id.
    pub id: i64,
    /// The patterns.
    pub patterns: String,
    /// N.
    pub target: u64,
    /// Started (UTC).
    pub started_at: String,
    /// Finished (UTC), if it did.
    pub finished_at: Option<String>,
    /// `running`, `finished`, `interrupted` or `failed`.
    pub status: String,
    /// Games computed.
    pub computed: Option<u64>,
    /// Games skipped.
    pub skipped: Option<u64>,
}

/// The columns of `games`, in [`GameRow`]'s order.
pub(crate) const GAME_COLUMNS: &str = "code, status, target, computed_to, engine, period, \
    preperiod, saltus, proof, last_exceptional, max_value, max_value_heap, p_positions, \
    first_values, checksum, rare_mask, rare_values, rare_count, last_rare, reason, seconds, \
    run_id, finished_at";

pub(crate) fn int(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

pub(crate) fn nat(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Option<u64>> {
    Ok(r.get::<_, Option<i64>>(i)?
        .map(|v| u64::try_from(v).unwrap_or(0)))
}

/// What a census needs to know of a game the atlas has: whether to compute it again.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Known {
    pub(crate) status: GameStatus,
    /// g(0) to g(computed_to) were computed.
    pub(crate) computed_to: Option<u64>,
    /// The time spent on it: for a game refused by the time limit, at least that limit.
    pub(crate) seconds: f64,
    /// Why it was refused, if it was.
    pub(crate) reason: Option<String>,
}

/// A [`GameRow`] from a row selected with [`GAME_COLUMNS`].
pub(crate) fn game_of_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        code: r.get(0)?,
        status: GameStatus::parse(&r.get::<_, String>(1)?),
        target: nat(r, 2)?.unwrap_or(0),
        computed_to: nat(r, 3)?,
        engine: r.get(4)?,
        period: nat(r, 5)?,
        preperiod: nat(r, 6)?,
        saltus: nat(r, 7)?,
        proof: r.get(8)?,
        last_exceptional: nat(r, 9)?,
        max_value: nat(r, 10)?,
        max_value_heap: nat(r, 11)?,
        p_positions: nat(r, 12)?,
        first_values: r.get::<_, Option<String>>(13)?.unwrap_or_default(),
        checksum: r.get(14)?,
        rare_mask: nat(r, 15)?,
        rare_values: r.get(16)?,
        rare_count: nat(r, 17)?,
        last_rare: nat(r, 18)?,
        reason: r.get(19)?,
        seconds: r.get::<_, Option<f64>>(20)?.unwrap_or(0.0),
        run_id: r.get(21)?,
        finished_at: r.get(22)?,
    })
}

/// An open atlas database (see the [module documentation](self)).
#[derive(Debug)]
pub struct Atlas {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
}

impl Atlas {
    /// Opens the atlas at `path` to write, creating the file and the schema if there is none.
    pub fn create_or_open(path: &Path) -> Result<Atlas, AtlasError> {
        if path.is_dir() {
            return Err(AtlasError::Open {
                path: path.to_path_buf(),
                message: "is a directory, not a database file".into(),
            });
        }
        let conn = Connection::open(path).map_err(|e| AtlasError::Open {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let mut atlas = Atlas {
            conn,
            path: path.to_path_buf(),
        };
        atlas.prepare(true)?;
        Ok(atlas)
    }

    /// Opens the atlas at `path` to read only (queries cannot write through it).
    pub fn open(path: &Path) -> Result<Atlas, AtlasError> {
        match std::fs::metadata(path) {
            Err(e) => {
                return Err(AtlasError::Open {
                    path: path.to_path_buf(),
                    message: if e.kind() == std::io::ErrorKind::NotFound {
                        "no such file (a census creates it)".into()
                    } else {
                        e.to_string()
                    },
                });
            }
            Ok(m) if m.is_dir() => {
                return Err(AtlasError::Open {
                    path: path.to_path_buf(),
                    message: "is a directory, not a database file".into(),
                });
            }
            Ok(_) => {}
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| AtlasError::Open {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let mut atlas = Atlas {
            conn,
            path: path.to_path_buf(),
        };
        atlas.prepare(false)?;
        atlas
            .conn
            .pragma_update(None, "query_only", true)
            .map_err(|e| atlas.db_error(e))?;
        Ok(atlas)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn db_error(&self, e: rusqlite::Error) -> AtlasError {
        AtlasError::Database {
            path: self.path.clone(),
            message: e.to_string(),
        }
    }

    fn not_atlas(&self, reason: impl Into<String>) -> AtlasError {
        AtlasError::NotAtlas {
            path: self.path.clone(),
            reason: reason.into(),
        }
    }

    /// Checks the version and the tables; with `create`, makes the schema in an empty file.
    fn prepare(&mut self, create: bool) -> Result<(), AtlasError> {
        let _ = self.conn.busy_timeout(std::time::Duration::from_secs(10));
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| self.not_atlas(e.to_string()))?;
        if version > SCHEMA_VERSION {
            return Err(AtlasError::Newer {
                path: self.path.clone(),
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        let tables: i64 = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(|e| self.not_atlas(e.to_string()))?;
        if version < 1 {
            if tables > 0 {
                return Err(self.not_atlas(
                    "it is an SQLite database without the atlas's schema version (another \
                     program's?)",
                ));
            }
            if !create {
                return Err(self.not_atlas("it is empty: no census has written to it"));
            }
            let path = self.path.clone();
            let tx = self.conn.transaction().map_err(|e| AtlasError::Database {
                path: path.clone(),
                message: e.to_string(),
            })?;
            tx.execute_batch(SCHEMA)
                .and_then(|()| tx.execute_batch(MISERE_TABLE))
                .and_then(|()| tx.pragma_update(None, "user_version", SCHEMA_VERSION))
                .and_then(|()| tx.commit())
                .map_err(|e| AtlasError::Database {
                    path,
                    message: e.to_string(),
                })?;
            return Ok(());
        }
        let ours: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' \
                 AND name IN ('games', 'runs', 'checksums')",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.not_atlas(e.to_string()))?;
        if ours != 3 {
            return Err(self.not_atlas("the tables games, runs and checksums are not all there"));
        }
        // Version 1 had no table `misere`: a file opened to write gains it (a file opened to
        // read answers without it).
        if version == 1 && create {
            let path = self.path.clone();
            let tx = self.conn.transaction().map_err(|e| AtlasError::Database {
                path: path.clone(),
                message: e.to_string(),
            })?;
            tx.execute_batch(MISERE_TABLE)
                .and_then(|()| tx.pragma_update(None, "user_version", SCHEMA_VERSION))
                .and_then(|()| tx.commit())
                .map_err(|e| AtlasError::Database {
                    path,
                    message: e.to_string(),
                })?;
        }
        Ok(())
    }

    /// Sets how commits reach the disk: during a census (`fast`), a write-ahead log with
    /// `synchronous = NORMAL` (a commit survives the process being killed, without a disk
    /// flush per game); after it, the one-file rollback journal again (the `-wal` file is
    /// folded back in).
    pub(crate) fn set_journal(&mut self, fast: bool) -> Result<(), AtlasError> {
        let (mode, sync) = if fast {
            ("WAL", "NORMAL")
        } else {
            ("DELETE", "FULL")
        };
        self.conn
            .pragma_update_and_check(None, "journal_mode", mode, |r| r.get::<_, String>(0))
            .and_then(|_| self.conn.pragma_update(None, "synchronous", sync))
            .map_err(|e| self.db_error(e))
    }

    /// Records the start of a census; its id.
    pub(crate) fn begin_run(&mut self, patterns: &str, target: u64) -> Result<i64, AtlasError> {
        self.conn
            .execute(
                &format!(
                    "INSERT INTO runs (patterns, target, started_at, status, version) \
                     VALUES (?1, ?2, {NOW}, 'running', ?3)"
                ),
                params![patterns, int(target), env!("CARGO_PKG_VERSION")],
            )
            .map_err(|e| self.db_error(e))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Records the end of a census.
    pub(crate) fn end_run(
        &mut self,
        id: i64,
        status: &str,
        counts: [u64; 4],
    ) -> Result<(), AtlasError> {
        let [games, computed, skipped, refused] = counts.map(int);
        self.conn
            .execute(
                &format!(
                    "UPDATE runs SET finished_at = {NOW}, status = ?2, games = ?3, computed = ?4, \
                     skipped = ?5, refused = ?6 WHERE id = ?1"
                ),
                params![id, status, games, computed, skipped, refused],
            )
            .map_err(|e| self.db_error(e))?;
        Ok(())
    }

    /// Writes one game and its prefix checksums in one transaction, replacing what the
    /// atlas held of it.
    pub(crate) fn write_game(
        &mut self,
        row: &GameRow,
        checksums: &[(u64, String)],
    ) -> Result<(), AtlasError> {
        let path = self.path.clone();
        let failed = |e: rusqlite::Error| AtlasError::Database {
            path: path.clone(),
            message: e.to_string(),
        };
        let tx = self.conn.transaction().map_err(failed)?;
        tx.execute(
            &format!(
                "INSERT OR REPLACE INTO games ({GAME_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, \
                 ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, \
                 {NOW})"
            ),
            params![
                row.code,
                row.status.as_str(),
                int(row.target),
                row.computed_to.map(int),
                row.engine,
                row.period.map(int),
                row.preperiod.map(int),
                row.saltus.map(int),
                row.proof,
                row.last_exceptional.map(int),
                row.max_value.map(int),
                row.max_value_heap.map(int),
                row.p_positions.map(int),
                row.first_values,
                row.checksum,
                row.rare_mask.map(int),
                row.rare_values,
                row.rare_count.map(int),
                row.last_rare.map(int),
                row.reason,
                row.seconds,
                row.run_id,
            ],
        )
        .map_err(failed)?;
        tx.execute("DELETE FROM checksums WHERE code = ?1", [&row.code])
            .map_err(failed)?;
        {
            let mut insert = tx
                .prepare("INSERT INTO checksums (code, length, checksum) VALUES (?1, ?2, ?3)")
                .map_err(failed)?;
            for (length, sum) in checksums {
                insert
                    .execute(params![row.code, int(*length), sum])
                    .map_err(failed)?;
            }
        }
        tx.commit().map_err(failed)
    }

    /// What the atlas knows of each game: its status and last heap computed.
    pub(crate) fn known(&self) -> Result<HashMap<String, Known>, AtlasError> {
        let mut stmt = self
            .conn
            .prepare("SELECT code, status, computed_to, seconds, reason FROM games")
            .map_err(|e| self.db_error(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    Known {
                        status: GameStatus::parse(&r.get::<_, String>(1)?),
                        computed_to: nat(r, 2)?,
                        seconds: r.get::<_, Option<f64>>(3)?.unwrap_or(0.0),
                        reason: r.get(4)?,
                    },
                ))
            })
            .map_err(|e| self.db_error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db_error(e))
    }

    /// One game's row by its canonical name.
    pub(crate) fn game_row(&self, code: &str) -> Result<Option<GameRow>, AtlasError> {
        self.conn
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE code = ?1"),
                [code],
                game_of_row,
            )
            .optional()
            .map_err(|e| self.db_error(e))
    }

    /// Every census run, oldest first.
    pub fn runs(&self) -> Result<Vec<RunRow>, AtlasError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, patterns, target, started_at, finished_at, status, computed, \
                 skipped FROM runs ORDER BY id",
            )
            .map_err(|e| self.db_error(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(RunRow {
                    id: r.get(0)?,
                    patterns: r.get(1)?,
                    target: nat(r, 2)?.unwrap_or(0),
                    started_at: r.get(3)?,
                    finished_at: r.get(4)?,
                    status: r.get(5)?,
                    computed: nat(r, 6)?,
                    skipped: nat(r, 7)?,
                })
            })
            .map_err(|e| self.db_error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.db_error(e))
    }
}
