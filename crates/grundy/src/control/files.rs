//! Files written safely: every file the project writes (checkpoints, plots, pictures, DOT,
//! databases) goes through [`write_atomically`].
//!
//! - Only regular files are replaced. A device node (`/dev/null`, `/dev/full`), a FIFO, a
//!   socket or a directory is refused with its kind named: a temporary file renamed over
//!   `/dev/null` would turn the device into a regular file.
//! - A symbolic link is followed: the file it names is replaced and the link stays a link
//!   (a link to nothing, or to something that is not a regular file, is refused).
//! - The data goes to a new temporary file beside the target (`NAME.<pid>-<n>.tmp`, created
//!   new, never an existing file), is flushed to disk, and is renamed over the target, so a
//!   reader sees the old file or the new one, never half of one.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The target exists and is not a regular file.
    #[error("{path} is {kind}, not a regular file: refusing to replace it")]
    NotRegular {
        /// The path given.
        path: PathBuf,
        /// What it is ("a character device", "a directory", ...).
        kind: &'static str,
    },
    /// The file system failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
}

/// What a file system object is, in words.
fn kind_of(file_type: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// The regular file a write to `path` replaces or creates: `path` itself, or the file a
/// symbolic link at `path` names. Anything else is refused.
pub fn write_target(path: &Path) -> Result<PathBuf, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => Err(io(e)),
        Ok(meta) if meta.file_type().is_file() => Ok(path.to_path_buf()),
        Ok(meta) if meta.file_type().is_symlink() => {
            let target = fs::canonicalize(path).map_err(io)?;
            let meta = fs::metadata(&target).map_err(io)?;
            if meta.file_type().is_file() {
                Ok(target)
            } else {
                Err(FileError::NotRegular {
                    path: path.to_path_buf(),
                    kind: match kind_of(&meta.file_type()) {
                        "a directory" => "a link to a directory",
                        _ => "a link to a special file",
                    },
                })
            }
        }
        Ok(meta) => Err(FileError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&meta.file_type()),
        }),
    }
}

/// A temporary name next to `target` that no other write of this process uses.
pub(crate) fn temporary_name(target: &Path) -> PathBuf {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(format!(".{}-{n}.tmp", std::process::id()));
    PathBuf::from(tmp)
}

/// Writes a file through `write` (given a buffered writer), atomically, as the module
/// documentation says: the target must be a regular file, a link to one, or absent.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    let target = write_target(path)?;
    let tmp = temporary_name(&target);
    let file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|source| FileError::Io {
            path: tmp.clone(),
            source,
        })?;
    let mut out = io::BufWriter::with_capacity(1 << 20, file);
    let written = write(&mut out)
        .and_then(|()| out.into_inner().map_err(io::IntoInnerError::into_error))
        .and_then(|file| file.sync_all())
        .and_then(|()| fs::rename(&tmp, &target));
    if let Err(source) = written {
        // Best effort: the temporary file is ours (created above), and useless now.
        let _ = fs::remove_file(&tmp);
        return Err(FileError::Io {
            path: path.to_path_buf(),
            source,
        });
    }
    Ok(())
}

/// Writes `bytes` to `path` with [`write_atomically`].
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomically(path, |out| out.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn regular_files_are_replaced_whole() {
        let dir = scratch("regular");
        let path = dir.join("a.txt");
        write_file(&path, b"one").unwrap();
        write_file(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn directories_fifos_and_devices_are_refused() {
        let dir = scratch("special");
        let e = write_file(&dir, b"x").unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        #[cfg(unix)]
        {
            let e = write_file(Path::new("/dev/null"), b"x").unwrap_err();
            assert!(e.to_string().contains("character device"), "{e}");
            let fifo = dir.join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                let e = write_file(&fifo, b"x").unwrap_err();
                assert!(e.to_string().contains("FIFO"), "{e}");
                use std::os::unix::fs::FileTypeExt;
                assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
            }
        }
        fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let dir = scratch("link");
        let target = dir.join("target.txt");
        fs::write(&target, b"old").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&target).unwrap(), b"new");
        // A link to a device is refused, and the device is untouched.
        let to_null = dir.join("null");
        std::os::unix::fs::symlink("/dev/null", &to_null).unwrap();
        let e = write_file(&to_null, b"x").unwrap_err();
        assert!(e.to_string().contains("special file"), "{e}");
        // A link to nothing is refused.
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(dir.join("nothing"), &dangling).unwrap();
        assert!(write_file(&dangling, b"x").is_err());
        fs::remove_dir_all(dir).unwrap();
    }
}
