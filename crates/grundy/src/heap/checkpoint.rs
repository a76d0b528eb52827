//! Checkpoints of long nim-sequence computations: the rule and the values so far, written
//! atomically.
//!
//! The file is a magic line `grundy-sequence 1`, the rule as written, the number of values
//! (8 bytes, little-endian), the values (2 bytes each, little-endian) and an FNV-1a checksum
//! of everything before it (8 bytes). [`save`] writes a temporary file next to the target,
//! flushes it to disk and renames it over the target, so a crash mid-write leaves the
//! previous checkpoint intact; [`load`] refuses truncated or corrupted files.
//!
//! The write is [`crate::control::files::write_atomically`]'s: the temporary file has a name
//! of its own (`FILE.<pid>-<n>.tmp`) and is created with `create_new`, so it never replaces a
//! file that is already there; only a regular file (or the file a link names) is replaced,
//! never a device, a FIFO or a directory. Whether a
//! run may replace an existing checkpoint at all is decided above, by
//! [`SequenceRun`](super::run::SequenceRun).

use std::fs;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8] = b"grundy-sequence 1\n";

/// Why a checkpoint could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file system failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The file is not a checkpoint, or is damaged.
    #[error("{path} is not a valid checkpoint: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// FNV-1a over a stream of bytes, fed piece by piece.
#[derive(Debug, Clone, Copy)]
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn feed(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    }
}

/// A writer that checksums what passes through it.
struct Summing<W> {
    inner: W,
    sum: Fnv1a,
}

impl<W: Write> Summing<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.sum.feed(bytes);
        self.inner.write_all(bytes)
    }
}

/// How many values are encoded per write (a bounded buffer, whatever the run's length).
const VALUES_PER_WRITE: usize = 1 << 16;

/// Writes a checkpoint of `values` of `rule` to `path`, atomically (temporary file, flush,
/// rename). The values are streamed through a bounded buffer: saving a run of billions of
/// values needs no second copy of them in memory.
pub fn save(path: &Path, rule: &str, values: &[u16]) -> Result<(), CheckpointError> {
    crate::control::files::write_atomically(path, |out| write_body(out, rule, values)).map_err(
        |e| match e {
            crate::control::files::FileError::Io { path, source } => {
                CheckpointError::Io { path, source }
            }
            e => CheckpointError::Io {
                path: path.to_path_buf(),
                source: io::Error::other(e.to_string()),
            },
        },
    )
}

fn write_body(out: &mut dyn Write, rule: &str, values: &[u16]) -> io::Result<()> {
    let mut out = Summing {
        inner: out,
        sum: Fnv1a::new(),
    };
    out.put(MAGIC)?;
    out.put(rule.as_bytes())?;
    out.put(b"\n")?;
    out.put(&(values.len() as u64).to_le_bytes())?;
    let mut buf = Vec::with_capacity(2 * VALUES_PER_WRITE);
    for chunk in values.chunks(VALUES_PER_WRITE) {
        buf.clear();
        buf.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
        out.put(&buf)?;
    }
    let sum = out.sum.0;
    out.inner.write_all(&sum.to_le_bytes())
}

/// Reads a checkpoint: the rule as written and the values. The file is read through a
/// bounded buffer, so loading needs memory for the values only.
pub fn load(path: &Path) -> Result<(String, Vec<u16>), CheckpointError> {
    let io_err = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    };
    let invalid = |reason: &str| CheckpointError::Invalid {
        path: path.to_path_buf(),
        reason: reason.into(),
    };
    let file = fs::File::open(path).map_err(io_err)?;
    let len = file.metadata().map_err(io_err)?.len();
    let mut input = io::BufReader::with_capacity(1 << 20, file);
    let mut sum = Fnv1a::new();
    let mut magic = vec![0u8; MAGIC.len()];
    read_exact_or(&mut input, &mut magic, path, || {
        invalid("it does not start with the checkpoint header")
    })?;
    if magic != MAGIC {
        return Err(invalid("it does not start with the checkpoint header"));
    }
    sum.feed(&magic);
    // The rule line: at most a few KiB in any real checkpoint.
    let mut rule = Vec::new();
    (&mut input)
        .take(MAX_RULE_BYTES + 1)
        .read_until(b'\n', &mut rule)
        .map_err(io_err)?;
    if rule.last() != Some(&b'\n') {
        return Err(invalid("no rule line"));
    }
    sum.feed(&rule);
    rule.pop();
    let rule = String::from_utf8(rule).map_err(|_| invalid("the rule is not text"))?;
    let mut count = [0u8; 8];
    read_exact_or(&mut input, &mut count, path, || invalid("it is truncated"))?;
    sum.feed(&count);
    let count = u64::from_le_bytes(count);
    let header = (MAGIC.len() + rule.len() + 1 + 8 + 8) as u64;
    match count.checked_mul(2).and_then(|b| b.checked_add(header)) {
        Some(expected) if expected == len => {}
        Some(expected) if expected < len => {
            return Err(invalid(&format!(
                "the value count does not match the length: the file has {} bytes more than \
                 the count says ({expected}), so something was appended or the count is damaged",
                len - expected
            )));
        }
        _ => {
            return Err(invalid(
                "it is truncated (the value count does not match the length)",
            ));
        }
    }
    let count = usize::try_from(count).map_err(|_| invalid("too many values for this machine"))?;
    let mut values = Vec::new();
    values
        .try_reserve_exact(count)
        .map_err(|_| invalid("too many values to hold in memory"))?;
    let mut buf = vec![0u8; 2 * VALUES_PER_WRITE];
    while values.len() < count {
        let take = (count - values.len()).min(VALUES_PER_WRITE);
        let bytes = &mut buf[..2 * take];
        read_exact_or(&mut input, bytes, path, || invalid("it is truncated"))?;
        sum.feed(bytes);
        values.extend(
            bytes
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]])),
        );
    }
    let mut stored = [0u8; 8];
    read_exact_or(&mut input, &mut stored, path, || invalid("it is truncated"))?;
    if u64::from_le_bytes(stored) != sum.0 {
        return Err(invalid("the checksum does not match (the file is damaged)"));
    }
    Ok((rule, values))
}

/// The longest rule line a checkpoint may hold.
const MAX_RULE_BYTES: u64 = 1 << 16;

/// `read_exact`, with a short file reported as `short()` rather than an I/O error.
fn read_exact_or(
    input: &mut impl Read,
    buf: &mut [u8],
    path: &Path,
    short: impl FnOnce() -> CheckpointError,
) -> Result<(), CheckpointError> {
    match input.read_exact(buf) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(short()),
        Err(source) => Err(CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage_detection() {
        let dir = std::env::temp_dir().join(format!("grundy-ckpt-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let values: Vec<u16> = (0..1000).map(|i| (i * 7 % 13) as u16).collect();
        save(&path, "0.137", &values).unwrap();
        assert_eq!(load(&path).unwrap(), ("0.137".to_string(), values.clone()));
        // A second save replaces the first; no temporary file is left behind, and a file
        // named like the old fixed temporary name is left alone.
        fs::write(dir.join("run.ckpt.tmp"), b"precious").unwrap();
        save(&path, "0.137", &values[..10]).unwrap();
        assert_eq!(load(&path).unwrap().1, &values[..10]);
        assert_eq!(fs::read(dir.join("run.ckpt.tmp")).unwrap(), b"precious");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        // Temporary names differ from save to save.
        let tmp = crate::control::files::temporary_name;
        assert_ne!(tmp(&path), tmp(&path));
        // Damage: flip a byte, truncate.
        let mut bytes = fs::read(&path).unwrap();
        bytes[30] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(matches!(load(&path), Err(CheckpointError::Invalid { .. })));
        fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(matches!(load(&path), Err(CheckpointError::Invalid { .. })));
        // Junk appended is named as such, not as a truncation.
        save(&path, "0.137", &values[..10]).unwrap();
        let mut longer = fs::read(&path).unwrap();
        longer.extend_from_slice(b"junk");
        fs::write(&path, &longer).unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(e.contains("4 bytes more") && e.contains("appended"), "{e}");
        assert!(matches!(
            load(&dir.join("missing")),
            Err(CheckpointError::Io { .. })
        ));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The format written from its description in the module docs, byte by byte.
    fn by_the_format(rule: &str, values: &[u16]) -> Vec<u8> {
        let mut bytes = b"grundy-sequence 1\n".to_vec();
        bytes.extend_from_slice(rule.as_bytes());
        bytes.push(b'\n');
        bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        bytes.extend_from_slice(&h.to_le_bytes());
        bytes
    }

    #[test]
    fn streamed_files_are_the_documented_format_across_buffer_boundaries() {
        let dir = std::env::temp_dir().join(format!("grundy-ckpt-fmt-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        for count in [
            0,
            1,
            VALUES_PER_WRITE - 1,
            VALUES_PER_WRITE,
            2 * VALUES_PER_WRITE + 3,
        ] {
            let values: Vec<u16> = (0..count).map(|i| (i * 40503 % 65521) as u16).collect();
            save(&path, "4!.0", &values).unwrap();
            assert_eq!(
                fs::read(&path).unwrap(),
                by_the_format("4!.0", &values),
                "{count}"
            );
            assert_eq!(load(&path).unwrap(), ("4!.0".to_string(), values));
        }
        // A file written by hand in the format loads; one whose count lies does not.
        let values = [3u16, 1, 4, 1, 5];
        let mut bytes = by_the_format("0.137", &values);
        fs::write(&path, &bytes).unwrap();
        assert_eq!(load(&path).unwrap().1, values);
        bytes[18 + 6] ^= 1; // the count's low byte
        fs::write(&path, &bytes).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("count does not match"), "{err}");
        // No rule line at all.
        fs::write(&path, b"grundy-sequence 1\n0.137").unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("no rule line"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
