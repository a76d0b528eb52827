//! Search tables kept on disk, so that a long search stopped (Ctrl-C, SIGTERM, a limit)
//! starts again from what it proved. Every entry is a proved fact about one component (its
//! value, or values it does not have), true for any later search of the same game, so a
//! table may be loaded into a search of another board of the same game and frame.
//!
//! The file: a line `grundy search table 1`; for each table a line `table NAME ENTRIES`
//! followed by `ENTRIES` records of 24 bytes (the key, 16 bytes little-endian; the values
//! below 32 excluded, 4 bytes; the work code and the value, 2 bytes each); then a line
//! `end HASH`, a hash of every record, so that a cut or damaged file is refused rather than
//! half read. It is written to `FILE.part` and renamed over `FILE`, so a stop while writing
//! leaves the previous file whole.

use super::KeptTable;
use super::store::Store;
use super::table::{KeyBytes, Record};
use crate::control::{Budget, BudgetError};
use std::fs::File;
use std::hash::Hash;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The first line of a checkpoint file.
const MAGIC: &str = "grundy search table 1";
/// Bytes of a record.
const RECORD: usize = 24;

/// Why a checkpoint could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not a checkpoint of these tables, or is damaged.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The tables read do not fit the limits.
    #[error(transparent)]
    Budget(#[from] BudgetError),
}

/// A table a checkpoint holds: a [`KeptTable`] of keys of 16 bytes or fewer.
pub trait Section {
    /// Writes the records; their count.
    fn write(&self, out: &mut dyn Write, hash: &mut u64) -> io::Result<u64>;
    /// Entries now.
    fn count(&self) -> u64;
    /// Makes room for `count` records to come (the table made under `budget` if there is
    /// none).
    fn reserve(&self, count: u64, budget: &Budget) -> Result<(), BudgetError>;
    /// Adds records to the table (made under `budget` if there is none); `false` if a
    /// record is no key of this table.
    fn read(&self, records: &[Record], budget: &Budget) -> Result<bool, BudgetError>;
}

impl<K: Copy + Default + Eq + Hash + KeyBytes> Section for KeptTable<K> {
    fn write(&self, out: &mut dyn Write, hash: &mut u64) -> io::Result<u64> {
        let Some(table) = self.take() else {
            return Ok(0);
        };
        let mut n = 0u64;
        let mut written = Ok(());
        table.each_record(&mut |record| {
            let bytes = encode(record);
            *hash = add(*hash, &bytes);
            if let Err(e) = out.write_all(&bytes) {
                written = Err(e);
                return false;
            }
            n += 1;
            true
        });
        self.put(table);
        written.map(|()| n)
    }

    fn count(&self) -> u64 {
        // The records themselves, so that the count written always matches them.
        let Some(table) = self.take() else {
            return 0;
        };
        let mut n = 0u64;
        table.each_record(&mut |_| {
            n += 1;
            true
        });
        self.put(table);
        n
    }

    fn reserve(&self, count: u64, budget: &Budget) -> Result<(), BudgetError> {
        let mut table = match self.take() {
            Some(t) => t,
            None => Store::new(budget)?,
        };
        let reserved = table.reserve(usize::try_from(count).unwrap_or(usize::MAX));
        self.put(table);
        reserved
    }

    fn read(&self, records: &[Record], budget: &Budget) -> Result<bool, BudgetError> {
        let mut table = match self.take() {
            Some(t) => t,
            None => Store::new(budget)?,
        };
        let mut fits = true;
        let mut outcome = Ok(());
        for &r in records {
            match table.restore(r) {
                Ok(true) => {}
                Ok(false) => {
                    fits = false;
                    break;
                }
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
        }
        self.put(table);
        outcome.map(|()| fits)
    }
}

fn encode((key, excluded, work, value): Record) -> [u8; RECORD] {
    let mut b = [0u8; RECORD];
    b[..16].copy_from_slice(&key);
    b[16..20].copy_from_slice(&excluded.to_le_bytes());
    b[20..22].copy_from_slice(&work.to_le_bytes());
    b[22..].copy_from_slice(&value.to_le_bytes());
    b
}

fn decode(b: &[u8]) -> Record {
    let mut key = [0u8; 16];
    key.copy_from_slice(&b[..16]);
    (
        key,
        u32::from_le_bytes([b[16], b[17], b[18], b[19]]),
        u16::from_le_bytes([b[20], b[21]]),
        u16::from_le_bytes([b[22], b[23]]),
    )
}

/// The running hash of the records (each record's bytes mixed in, word by word).
fn add(mut h: u64, bytes: &[u8; RECORD]) -> u64 {
    for w in bytes.chunks_exact(8) {
        let x = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = crate::hash::mix(h, x);
    }
    h
}

/// Writes `sections` to `path` (through `path.part`, renamed at the end, removed if the
/// writing fails); the entries written.
pub fn save(path: &Path, sections: &[(&str, &dyn Section)]) -> Result<u64, CheckpointError> {
    let part = PathBuf::from(format!("{}.part", path.display()));
    let written = write(&part, sections).and_then(|total| {
        std::fs::rename(&part, path)?;
        Ok(total)
    });
    written.map_err(|source| {
        let _ = std::fs::remove_file(&part);
        CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        }
    })
}

fn write(part: &Path, sections: &[(&str, &dyn Section)]) -> io::Result<u64> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(part)?);
    let mut hash = 0u64;
    let mut total = 0u64;
    writeln!(out, "{MAGIC}")?;
    for &(name, section) in sections {
        // The count first: the table does not change while it is written (one thread).
        writeln!(out, "table {name} {}", section.count())?;
        total += section.write(&mut out, &mut hash)?;
    }
    writeln!(out, "end {hash:016x}")?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(total)
}

/// Reads the checkpoint at `path` into `sections` (by name); the entries read. The file is
/// read twice: first checked whole (its first line, its tables' names and sizes, the hash of
/// its records), then loaded, so that a damaged file adds nothing to the tables.
pub fn load(
    path: &Path,
    sections: &[(&str, &dyn Section)],
    budget: &Budget,
) -> Result<u64, CheckpointError> {
    read(path, sections, None)?;
    read(path, sections, Some(budget))
}

/// One reading of the file at `path`: checked only, or loaded into `sections` under
/// `budget`.
fn read(
    path: &Path,
    sections: &[(&str, &dyn Section)],
    load: Option<&Budget>,
) -> Result<u64, CheckpointError> {
    let io = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    };
    let bad = |message: String| CheckpointError::Format {
        path: path.to_path_buf(),
        message,
    };
    let mut input = BufReader::with_capacity(1 << 20, File::open(path).map_err(io)?);
    // A text line of at most 200 bytes (a binary file has no long lines read whole).
    let read_line = |input: &mut BufReader<File>| {
        let mut line = Vec::new();
        input
            .by_ref()
            .take(200)
            .read_until(b'\n', &mut line)
            .map_err(io)?;
        if line.last() != Some(&b'\n') {
            return Err(bad(if line.len() == 200 {
                "a line too long: not a search table of this tool".into()
            } else {
                "the file is cut short (it ends inside a line)".into()
            }));
        }
        Ok::<_, CheckpointError>(String::from_utf8_lossy(&line).trim_end().to_owned())
    };
    if read_line(&mut input)? != MAGIC {
        return Err(bad(format!(
            "not a search table of this tool (its first line is not `{MAGIC}`)"
        )));
    }
    let mut hash = 0u64;
    let mut total = 0u64;
    loop {
        let text = read_line(&mut input)?;
        let words: Vec<&str> = text.split(' ').collect();
        match words.as_slice() {
            ["end", h] => {
                let expected = u64::from_str_radix(h, 16)
                    .map_err(|_| bad(format!("a damaged last line `{text}`")))?;
                if expected != hash {
                    return Err(bad(
                        "the records do not match their hash: the file is damaged".into(),
                    ));
                }
                return Ok(total);
            }
            ["table", name, count] => {
                let Some(&(_, section)) = sections.iter().find(|(n, _)| n == name) else {
                    return Err(bad(format!("a table `{name}` that this game does not use")));
                };
                let count: u64 = count
                    .parse()
                    .map_err(|_| bad(format!("a damaged line `{text}`")))?;
                if let Some(budget) = load {
                    section.reserve(count, budget)?;
                }
                let mut left = count;
                let mut buf = vec![0u8; RECORD * 4096];
                while left > 0 {
                    let n = left.min(4096) as usize;
                    input.read_exact(&mut buf[..n * RECORD]).map_err(|e| {
                        if e.kind() == io::ErrorKind::UnexpectedEof {
                            bad(format!(
                                "the file ends inside table `{name}` ({count} entries announced)"
                            ))
                        } else {
                            io(e)
                        }
                    })?;
                    let records: Vec<Record> = buf[..n * RECORD]
                        .chunks_exact(RECORD)
                        .map(|b| {
                            let bytes: &[u8; RECORD] = b.try_into().expect("a record");
                            hash = add(hash, bytes);
                            decode(b)
                        })
                        .collect();
                    if let Some(budget) = load
                        && !section.read(&records, budget)?
                    {
                        return Err(bad(format!("a key too large for table `{name}`")));
                    }
                    left -= n as u64;
                }
                total += count;
            }
            _ => return Err(bad(format!("an unexpected line `{text}`"))),
        }
    }
}
