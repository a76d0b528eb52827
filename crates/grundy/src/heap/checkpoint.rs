//! Checkpoints of long nim-sequence computations: the rule and the values so far, written
//! atomically.
//!
//! The file is a magic line `grundy-sequence 1`, the rule as written, the number of values
//! (8 bytes, little-endian), the values (2 bytes each, little-endian) and an FNV-1a checksum
//! of everything before it (8 bytes). [`save`] writes a temporary file next to the target,
//! flushes it to disk and renames it over the target, so a crash mid-write leaves the
//! previous checkpoint intact; [`load`] refuses truncated or corrupted files.
//!
//! The temporary file has a name of its own (`FILE.<pid>-<n>.tmp`, `n` counting the saves of
//! this process) and is created with `create_new`: it never replaces a file that is already
//! there, and two processes saving next to each other do not write into one file. Whether a
//! run may replace an existing checkpoint at all is decided above, by
//! [`SequenceRun`](super::run::SequenceRun).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Writes a checkpoint of `values` of `rule` to `path`, atomically (temporary file, flush,
/// rename).
pub fn save(path: &Path, rule: &str, values: &[u16]) -> Result<(), CheckpointError> {
    let io_err = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::with_capacity(MAGIC.len() + rule.len() + 17 + 2 * values.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(rule.as_bytes());
    bytes.push(b'\n');
    bytes.extend_from_slice(&(values.len() as u64).to_le_bytes());
    for v in values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let tmp = temporary_name(path);
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|source| CheckpointError::Io {
            path: tmp.clone(),
            source,
        })?;
    let written = file
        .write_all(&bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            fs::rename(&tmp, path)
        });
    if let Err(e) = written {
        // Best effort: the temporary file is ours (created above), and useless now.
        let _ = fs::remove_file(&tmp);
        return Err(io_err(e));
    }
    Ok(())
}

/// A temporary name next to `path` that no other save uses: `FILE.<pid>-<n>.tmp`.
fn temporary_name(path: &Path) -> PathBuf {
    static SAVES: AtomicU64 = AtomicU64::new(0);
    let n = SAVES.fetch_add(1, Ordering::Relaxed);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}-{n}.tmp", std::process::id()));
    PathBuf::from(tmp)
}

/// Reads a checkpoint: the rule as written and the values.
pub fn load(path: &Path) -> Result<(String, Vec<u16>), CheckpointError> {
    let bytes = fs::read(path).map_err(|source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let invalid = |reason: &str| CheckpointError::Invalid {
        path: path.to_path_buf(),
        reason: reason.into(),
    };
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or_else(|| invalid("it does not start with the checkpoint header"))?;
    let end = rest
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| invalid("no rule line"))?;
    let rule = std::str::from_utf8(&rest[..end])
        .map_err(|_| invalid("the rule is not text"))?
        .to_string();
    let rest = &rest[end + 1..];
    if rest.len() < 16 {
        return Err(invalid("it is truncated"));
    }
    let count = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
    let body = &rest[8..rest.len() - 8];
    if count.checked_mul(2) != Some(body.len() as u64) {
        return Err(invalid(
            "it is truncated (the value count does not match the length)",
        ));
    }
    let stored = u64::from_le_bytes(rest[rest.len() - 8..].try_into().expect("8 bytes"));
    if fnv1a(&bytes[..bytes.len() - 8]) != stored {
        return Err(invalid("the checksum does not match (the file is damaged)"));
    }
    let values = body
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    Ok((rule, values))
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
        assert_ne!(temporary_name(&path), temporary_name(&path));
        // Damage: flip a byte, truncate.
        let mut bytes = fs::read(&path).unwrap();
        bytes[30] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(matches!(load(&path), Err(CheckpointError::Invalid { .. })));
        fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
        assert!(matches!(load(&path), Err(CheckpointError::Invalid { .. })));
        assert!(matches!(
            load(&dir.join("missing")),
            Err(CheckpointError::Io { .. })
        ));
        fs::remove_dir_all(&dir).unwrap();
    }
}
