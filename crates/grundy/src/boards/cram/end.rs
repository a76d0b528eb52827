//! The end table: the Cram value of every set of cells of a box four cells wide and up to
//! [`MAX_END_ROWS`] tall, computed once from the definition and kept on disk, so that the
//! position search of a big board never searches (nor stores) a region that fits the box.
//!
//! A set of cells of the `rows × 4` box is a number, bit `4 r + c` for cell (`r`, `c`); its
//! value is the mex of the values of the sets a domino inside it leaves. Every set a domino
//! leaves is a smaller number, so one pass over the numbers in increasing order fills the
//! table (`O(2^(4 rows) × moves)`: 7 rows, 2^28 sets, about
//! 6 s of one core). A value is at most the number of dominoes that fit (14 for 28 cells),
//! so it takes four bits: 128 MiB for 7 rows, 8 MiB for 6.
//!
//! A region of a frame ([`super::CramGame`]) is looked up when its box is at most four
//! wide and [`EndTable::rows`] tall, or the other way round (the region is then
//! transposed): its key, aligned to the frame's corner, gives the number directly. The
//! table is the end database of Lemoine and Viennot's and Beling's solvers made in the
//! simplest form: every set of the box, so no key is stored and no hash table is needed.
//!
//! Measured (release, `analyze "cram RxC" --no-moves`, user time, one run each on this
//! two-core machine, the table read from a file): see `docs/src/boards.md`.
//!
//! The file: a line `grundy cram end table 1 ROWS HASH` (the hash of the values, in hex),
//! then the values, two to a byte (the lower four bits first). It is written atomically
//! ([`crate::control::files::write_atomically`]: a stop while writing leaves no half file);
//! a file whose first line, size or hash is wrong is refused.

use super::cells::{Cells, extent, transpose};
use crate::control::files::{FileError, write_atomically};
use crate::control::{Budget, BudgetError};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The tallest box an end table covers (2^28 sets, 128 MiB).
pub const MAX_END_ROWS: u32 = 7;

/// The first words of an end table file.
const MAGIC: &str = "grundy cram end table 1";

/// Why an end table could not be made, read or written.
#[derive(Debug, thiserror::Error)]
pub enum EndTableError {
    /// A box taller than [`MAX_END_ROWS`] (or of no rows) was asked for.
    #[error(
        "an end table covers boxes of 1 to {MAX_END_ROWS} rows of 4 cells; {rows} rows were asked for"
    )]
    Rows {
        /// The rows asked for.
        rows: u32,
    },
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] FileError),
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not an end table of this tool, or is damaged.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Computing the table went past the budget (its memory, its work, a cancel).
    #[error(transparent)]
    Budget(#[from] BudgetError),
}

/// The Cram values of every set of cells of a `rows × 4` box (see the module docs).
#[derive(Clone, PartialEq, Eq)]
pub struct EndTable {
    rows: u32,
    /// Two values a byte, the set `2 i` in the lower four bits of byte `i`.
    values: Vec<u8>,
}

impl std::fmt::Debug for EndTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EndTable {{ rows: {} }}", self.rows)
    }
}

impl EndTable {
    /// Computes the table of the `rows × 4` box under `budget` (its memory limit, one unit
    /// of work a set, its cancellation).
    pub fn compute(rows: u32, budget: &Budget) -> Result<Self, EndTableError> {
        let sets = Self::sets(rows)?;
        let mut values = budget.vec_with_capacity(sets / 2)?;
        values.resize(sets / 2, 0u8);
        let mut table = EndTable { rows, values };
        const STEP: usize = 1 << 16;
        for start in (0..sets).step_by(STEP) {
            let end = (start + STEP).min(sets);
            budget.charge((end - start) as u64)?;
            for m in start.max(1)..end {
                let v = table.mex_of_options(m as u64);
                table.values[m / 2] |= v << (4 * (m % 2));
            }
        }
        Ok(table)
    }

    /// The number of sets of a `rows × 4` box, if an end table covers it.
    fn sets(rows: u32) -> Result<usize, EndTableError> {
        if rows == 0 || rows > MAX_END_ROWS {
            return Err(EndTableError::Rows { rows });
        }
        Ok(1 << (4 * rows))
    }

    /// The mex of the values of the sets a domino leaves in `x` (all of them smaller).
    fn mex_of_options(&self, x: u64) -> u8 {
        let mut seen = 0u32;
        // Horizontal dominoes by their left cell (not in the last column), vertical ones by
        // their upper cell.
        let mut across = x & (x >> 1) & 0x7777_7777_7777_7777;
        while across != 0 {
            let i = across.trailing_zeros();
            across &= across - 1;
            seen |= 1 << self.get(x & !(0b11 << i));
        }
        let mut down = x & (x >> 4);
        while down != 0 {
            let i = down.trailing_zeros();
            down &= down - 1;
            seen |= 1 << self.get(x & !(0x11 << i));
        }
        (!seen).trailing_zeros() as u8
    }

    /// The value of set `x` of the box (`x < 2^(4 rows)`).
    fn get(&self, x: u64) -> u32 {
        u32::from(self.values[(x / 2) as usize] >> (4 * (x % 2))) & 0xF
    }

    /// The rows of the box.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// The bytes the values take.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    /// The value of a set of cells of a frame, aligned to its top-left corner, if its box
    /// fits this table's (four wide and [`EndTable::rows`] tall, or turned).
    #[inline]
    pub fn value<C: Cells>(&self, x: C) -> Option<u32> {
        let y = x.to_u64()?;
        let set = if C::W == 4 || y == 0 {
            y
        } else {
            let (h, w) = extent(y);
            if w <= 4 && h <= self.rows {
                Self::narrow(y, h)
            } else if h <= 4 && w <= self.rows {
                Self::narrow(transpose(y), w)
            } else {
                return None;
            }
        };
        (set >> (4 * self.rows) == 0).then(|| self.get(set))
    }

    /// The first four columns of the first `h` rows of an 8-wide set, four bits a row.
    fn narrow(y: u64, h: u32) -> u64 {
        (0..h).fold(0, |out, r| out | ((y >> (8 * r)) & 0xF) << (4 * r))
    }

    /// The hash of the values.
    fn hash(&self) -> u64 {
        self.values.chunks(8).fold(self.rows.into(), |h, w| {
            let mut word = [0u8; 8];
            word[..w.len()].copy_from_slice(w);
            crate::hash::mix(h, u64::from_le_bytes(word))
        })
    }

    /// Writes the table to `path`, atomically.
    pub fn write(&self, path: &Path) -> Result<(), EndTableError> {
        write_atomically(path, |out| {
            writeln!(out, "{MAGIC} {} {:016x}", self.rows, self.hash())?;
            out.write_all(&self.values)
        })?;
        Ok(())
    }

    /// Reads the table at `path`, checked whole (its first line, its size, its hash),
    /// within `budget`'s memory limit.
    pub fn read(path: &Path, budget: &Budget) -> Result<Self, EndTableError> {
        let io = |source| EndTableError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bad = |message: String| EndTableError::Format {
            path: path.to_path_buf(),
            message,
        };
        let mut input = BufReader::new(File::open(path).map_err(io)?);
        let mut line = Vec::new();
        input
            .by_ref()
            .take(128)
            .read_until(b'\n', &mut line)
            .map_err(io)?;
        let line = String::from_utf8_lossy(&line);
        let fields = line
            .strip_prefix(MAGIC)
            .and_then(|rest| rest.strip_prefix(' '))
            .filter(|_| line.ends_with('\n'))
            .map(|rest| rest.split_whitespace().collect::<Vec<_>>());
        let Some([rows, hash]) = fields.as_deref() else {
            return Err(bad(format!(
                "not an end table of this tool (its first line should be `{MAGIC} ROWS HASH`)"
            )));
        };
        let rows: u32 = rows
            .parse()
            .map_err(|_| bad(format!("the rows `{rows}` are not a number")))?;
        let hash = u64::from_str_radix(hash, 16)
            .map_err(|_| bad(format!("the hash `{hash}` is not a hexadecimal number")))?;
        let bytes = match Self::sets(rows) {
            Ok(sets) => sets / 2,
            Err(_) => {
                return Err(bad(format!(
                    "its first line says {rows} rows; an end table has 1 to {MAX_END_ROWS}"
                )));
            }
        };
        let mut values = budget.vec_with_capacity(bytes)?;
        values.resize(bytes, 0u8);
        let size = |e: io::Error| match e.kind() {
            io::ErrorKind::UnexpectedEof => bad(format!(
                "fewer bytes of values than the {bytes} of a table of {rows} rows: cut short"
            )),
            _ => io(e),
        };
        input.read_exact(&mut values).map_err(size)?;
        if input.read(&mut [0u8]).map_err(io)? != 0 {
            return Err(bad(format!(
                "more bytes of values than the {bytes} of a table of {rows} rows"
            )));
        }
        let table = EndTable { rows, values };
        if table.hash() != hash {
            return Err(bad(
                "the values do not match the hash of the first line: the file is damaged"
                    .to_string(),
            ));
        }
        Ok(table)
    }

    /// The table at `path` if the file exists (its rows may differ from `rows`), else
    /// computed for `rows` and written there. Whether it was read.
    pub fn open_or_compute(
        path: &Path,
        rows: u32,
        budget: &Budget,
    ) -> Result<(Self, bool), EndTableError> {
        if path.exists() {
            return Ok((Self::read(path, budget)?, true));
        }
        let table = Self::compute(rows, budget)?;
        table.write(path)?;
        Ok((table, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The value of a set of cells of a `rows × 4` box from the definition: cells as
    /// (row, column) pairs, a move any two free cells side by side.
    fn slow(cells: &[(u32, u32)], memo: &mut HashMap<Vec<(u32, u32)>, u32>) -> u32 {
        if let Some(&v) = memo.get(cells) {
            return v;
        }
        let mut seen = Vec::new();
        for (i, a) in cells.iter().enumerate() {
            for b in &cells[i + 1..] {
                if a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1 {
                    let rest: Vec<_> = cells
                        .iter()
                        .filter(|c| *c != a && *c != b)
                        .copied()
                        .collect();
                    seen.push(slow(&rest, memo));
                }
            }
        }
        let v = (0..).find(|v| !seen.contains(v)).unwrap();
        memo.insert(cells.to_vec(), v);
        v
    }

    #[test]
    fn every_set_of_a_small_box_has_its_value_by_the_definition() {
        let table = EndTable::compute(4, &Budget::default()).unwrap();
        let mut memo = HashMap::new();
        for x in 0u64..1 << 16 {
            let cells: Vec<_> = (0..16)
                .filter(|i| x >> i & 1 == 1)
                .map(|i| (i / 4, i % 4))
                .collect();
            assert_eq!(table.get(x), slow(&cells, &mut memo), "set {x:#x}");
        }
    }

    /// The cells of `x`, a set of a frame `w` wide, as (row, column) pairs.
    fn cells_of(x: u64, w: u32) -> Vec<(u32, u32)> {
        (0..64)
            .filter(|i| x >> i & 1 == 1)
            .map(|i| (i / w, i % w))
            .collect()
    }

    #[test]
    fn regions_of_every_frame_are_looked_up_as_their_cells_say() {
        let table = EndTable::compute(5, &Budget::default()).unwrap();
        let mut memo = HashMap::new();
        // Every set of a 3 x 5 and of a 5 x 3 box of the 8-wide frames (the first turned).
        for (h, w) in [(3, 5), (5, 3)] {
            for bits in 0u64..1 << (h * w) {
                let x = (0..h).fold(0u64, |x, r| {
                    x | ((bits >> (r * w)) & ((1 << w) - 1)) << (8 * r)
                });
                let want = slow(&cells_of(x, 8), &mut memo);
                assert_eq!(table.value(x), Some(want), "{x:#x}");
                assert_eq!(table.value(u128::from(x)), Some(want), "{x:#x}");
            }
        }
        // Sets of the narrow frame within five rows, and sets too big for the box.
        for bits in (0u64..1 << 20).step_by(97) {
            let want = slow(&cells_of(bits, 4), &mut memo);
            assert_eq!(table.value(bits as usize), Some(want), "{bits:#x}");
        }
        assert_eq!(table.value(1usize << 20), None);
        assert_eq!(table.value(1u64 << 40), None);
        assert_eq!(table.value(0x3fu64), None);
        assert_eq!(table.value(1u128 << 100), None);
    }

    #[test]
    fn a_table_reads_back_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("grundy-end-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("end.tbl");
        let budget = Budget::default();
        let (made, read) = EndTable::open_or_compute(&path, 3, &budget).unwrap();
        assert!(!read);
        let (again, read) = EndTable::open_or_compute(&path, 5, &budget).unwrap();
        assert!(read);
        assert_eq!(again, made);
        assert_eq!(again.rows(), 3);
        let bytes = std::fs::read(&path).unwrap();
        let mut damaged = bytes.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 0x10;
        std::fs::write(&path, &damaged).unwrap();
        let e = EndTable::read(&path, &budget).unwrap_err().to_string();
        assert!(e.contains("damaged"), "{e}");
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        let e = EndTable::read(&path, &budget).unwrap_err().to_string();
        assert!(e.contains("cut short"), "{e}");
        std::fs::write(&path, [&bytes[..], b"x"].concat()).unwrap();
        let e = EndTable::read(&path, &budget).unwrap_err().to_string();
        assert!(e.contains("more bytes of values"), "{e}");
        for header in ["grundy search table 1\n", "grundy cram end table 17 abc\n"] {
            std::fs::write(&path, header).unwrap();
            let e = EndTable::read(&path, &budget).unwrap_err().to_string();
            assert!(e.contains("not an end table"), "{header}: {e}");
        }
        std::fs::write(&path, b"grundy cram end table 1 9 0\n").unwrap();
        let e = EndTable::read(&path, &budget).unwrap_err().to_string();
        assert!(e.contains("says 9 rows"), "{e}");
        // A table larger than the memory limit is refused before it is read.
        std::fs::write(&path, &bytes).unwrap();
        let small = Budget::new(crate::control::Limits {
            max_bytes: 4,
            ..crate::control::Limits::DEFAULT
        });
        assert!(matches!(
            EndTable::read(&path, &small),
            Err(EndTableError::Budget(BudgetError::Memory { .. }))
        ));
        // A directory is not replaced.
        let e = made.write(&dir).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_box_too_tall_or_a_budget_too_small_is_refused() {
        let e = EndTable::compute(8, &Budget::default()).unwrap_err();
        assert!(e.to_string().contains("1 to 7 rows"), "{e}");
        let small = Budget::new(crate::control::Limits {
            max_bytes: 1 << 20,
            ..crate::control::Limits::DEFAULT
        });
        assert!(matches!(
            EndTable::compute(6, &small),
            Err(EndTableError::Budget(BudgetError::Memory { .. }))
        ));
        let short = Budget::new(crate::control::Limits {
            max_work: 1000,
            ..crate::control::Limits::DEFAULT
        });
        assert!(matches!(
            EndTable::compute(5, &short),
            Err(EndTableError::Budget(BudgetError::Work { .. }))
        ));
    }
}
