//! The atlas: censuses over families of heap rules, kept in an SQLite database.
//!
//! - [`family`]: patterns such as `0.???`, `4.??` or `sub(1..8)` expanded into checked
//!   [`HeapRule`](crate::heap::HeapRule)s ([`Family`]).
//! - [`db`]: the database, one SQLite file with a versioned schema ([`Atlas`]; the schema is
//!   documented there): a row per game, a row per census run, checksums of prefixes of each
//!   sequence.
//! - [`census`](mod@census): every game of the families computed to a heap or until its period is
//!   proven, on every core, one transaction per game, resumable ([`census()`]).
//! - [`query`]: what the database answers: a game's card, a family's rows (open, solved),
//!   the games with the same sequence, read-only SQL.
//!
//! ```
//! use grundy::atlas::{Atlas, CensusOptions, census};
//! use grundy::control::Control;
//! let dir = std::env::temp_dir().join(format!("atlas-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("atlas.sqlite");
//! let mut atlas = Atlas::create_or_open(&path).unwrap();
//! let options = CensusOptions::new(500);
//! let summary = census(&mut atlas, &["0.?7".to_string()], &options, &mut |_| {}, &Control::none()).unwrap();
//! assert_eq!(summary.computed, 8);
//! let kayles = atlas.game("kayles").unwrap().unwrap();
//! assert_eq!((kayles.period, kayles.preperiod), (Some(12), Some(71)));
//! # drop(atlas); std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod census;
pub mod db;
pub mod family;
pub mod misere;
pub mod query;

pub use census::{CensusEvent, CensusOptions, CensusSummary, census};
pub use db::{Atlas, GameRow, GameStatus, RunRow, SCHEMA_VERSION};
pub use family::{Family, FamilyError, MAX_FAMILY};
pub use misere::MisereRow;
pub use query::{FamilyRows, Filter, GameCard, ProvenTwin, SqlAnswer, Twin};

use std::path::PathBuf;

/// Why the atlas could not answer.
#[derive(Debug, thiserror::Error)]
pub enum AtlasError {
    /// The file cannot be opened or read as a database.
    #[error("{}: {message}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The file is not an atlas (damaged, not SQLite, or another program's database).
    #[error("{} is not an atlas database: {reason}", path.display())]
    NotAtlas {
        /// The file.
        path: PathBuf,
        /// Why not.
        reason: String,
    },
    /// The file was written by a newer grundy.
    #[error(
        "{} has atlas schema version {found}, newer than version {supported} that this grundy \
         reads; use a newer grundy",
        path.display()
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// The version this build reads, [`SCHEMA_VERSION`].
        supported: i64,
    },
    /// The database failed while reading or writing.
    #[error("{}: {message}", path.display())]
    Database {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A pattern is not a family.
    #[error(transparent)]
    Family(#[from] FamilyError),
    /// A query was refused or failed (raw SQL that writes, a syntax error, too many rows).
    #[error("{0}")]
    Query(String),
    /// A figure out of range (N of a census).
    #[error("{0}")]
    Input(String),
    /// Interrupted (Ctrl-C).
    #[error("interrupted")]
    Interrupted,
}

/// The FNV-1a 64-bit hash of a sequence of values, each as two little-endian bytes: the
/// atlas's checksum of a sequence (`games.checksum`, `checksums.checksum`), written as 16
/// hexadecimal digits.
///
/// ```
/// assert_eq!(grundy::atlas::checksum(&[]), "cbf29ce484222325");
/// assert_ne!(grundy::atlas::checksum(&[0, 1]), grundy::atlas::checksum(&[1, 0]));
/// ```
pub fn checksum(values: &[u16]) -> String {
    format!("{:016x}", fnv1a(values))
}

fn fnv1a(values: &[u16]) -> u64 {
    let mut hash = Fnv::new();
    hash.extend(values);
    hash.0
}

/// A running FNV-1a hash, for checksums of every prefix length in one pass.
#[derive(Clone, Copy, Debug)]
struct Fnv(u64);

impl Fnv {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Self {
        Fnv(Self::OFFSET)
    }

    fn extend(&mut self, values: &[u16]) {
        for v in values {
            for byte in v.to_le_bytes() {
                self.0 ^= u64::from(byte);
                self.0 = self.0.wrapping_mul(Self::PRIME);
            }
        }
    }
}
