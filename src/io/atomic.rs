//! Output files that appear whole or not at all: written to a temporary file in the
//! destination's folder, flushed and synced, then renamed over the destination.
//!
//! Every file the library and the `edgeblas` command line write goes through
//! [`AtomicFile`] (or [`write_atomically`], its one-call form): graph files, result
//! files, reports, plots. A write that fails part-way (a full disk, a file-size limit)
//! or a process killed mid-write leaves the destination as it was (absent, or its old
//! content); only the temporary file can be left behind by a kill, and it is a hidden
//! file named after the destination (`.STEM.tmp-PID-N.EXT`, see
//! [`AtomicFile::temp_path`]).
//!
//! # What is not atomic
//! A destination that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a
//! named pipe) cannot be replaced by a rename: it is written in place, as before. A
//! symbolic link is followed: its target is replaced, the link kept.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// Distinguishes the temporary files of one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A file being written to a temporary path beside its destination, renamed into place
/// by [`AtomicFile::commit`]. Dropped without a commit (an error, a panic), it removes
/// the temporary file and leaves the destination untouched.
///
/// Writes are buffered (1 MiB).
///
/// # Example
/// ```
/// use std::io::Write;
/// use edgeblas::io::AtomicFile;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("out.txt");
/// let mut f = AtomicFile::create(&path).unwrap();
/// writeln!(f, "0 1").unwrap();
/// assert!(!path.exists()); // nothing at the destination until the commit
/// f.commit().unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "0 1\n");
/// ```
pub struct AtomicFile {
    /// The destination (a symbolic link's target).
    dest: PathBuf,
    /// The temporary file; `None` when the destination is written in place.
    temp: Option<PathBuf>,
    /// `None` once committed.
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file for `path` in `path`'s folder.
    ///
    /// # Errors
    /// [`Error::Io`] naming `path` when the temporary file cannot be created (no such
    /// folder, no permission) or `path` is a folder.
    pub fn create(path: &Path) -> Result<AtomicFile> {
        let err = |e| Error::io(path, e);
        let dest = match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).map_err(err)?,
            _ => path.to_path_buf(),
        };
        let existing = fs::metadata(&dest).ok();
        if let Some(m) = &existing {
            if m.is_dir() {
                return Err(err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a folder, not a file",
                )));
            }
            if !m.is_file() {
                // A device or a pipe: no rename can replace it; write it in place.
                let f = fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(&dest)
                    .map_err(err)?;
                return Ok(AtomicFile {
                    dest,
                    temp: None,
                    out: Some(BufWriter::with_capacity(1 << 20, f)),
                });
            }
        }
        let temp = temp_path_for(&dest);
        let f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(err)?;
        if let Some(m) = existing {
            // The replacement keeps the old file's permissions; failing to is no error.
            let _ = f.set_permissions(m.permissions());
        }
        Ok(AtomicFile {
            dest,
            temp: Some(temp),
            out: Some(BufWriter::with_capacity(1 << 20, f)),
        })
    }

    /// The path being written: the temporary file, or the destination itself when it is
    /// written in place (a device, a pipe). A library that insists on opening a path
    /// itself (a plotting backend) writes here; [`AtomicFile::commit`] then syncs and
    /// renames what it wrote.
    ///
    /// The temporary file is `.STEM.tmp-PID-N.EXT` for a destination `STEM.EXT`
    /// (`.NAME.tmp-PID-N` without an extension), in the destination's folder: hidden,
    /// named after the destination, with its extension so that tools that go by it
    /// still work.
    pub fn temp_path(&self) -> &Path {
        self.temp.as_deref().unwrap_or(&self.dest)
    }

    /// The destination.
    pub fn path(&self) -> &Path {
        &self.dest
    }

    /// Flushes, syncs (`fsync`) and renames the temporary file over the destination, then
    /// syncs the folder where the OS allows it.
    ///
    /// # Errors
    /// [`Error::Io`] naming the destination; the temporary file is then removed and the
    /// destination is as it was.
    pub fn commit(mut self) -> Result<()> {
        let out = self.out.take().expect("an AtomicFile is committed once");
        let r = finish(out, self.temp.as_deref(), &self.dest);
        if r.is_ok() {
            // Renamed: nothing left to remove.
            self.temp = None;
        }
        r.map_err(|e| Error::io(&self.dest, e))
    }

    fn writer(&mut self) -> &mut BufWriter<File> {
        self.out
            .as_mut()
            .expect("an AtomicFile is not written after its commit")
    }
}

/// Flushes and syncs `out`, renames `temp` (if any) to `dest`, syncs the folder.
fn finish(out: BufWriter<File>, temp: Option<&Path>, dest: &Path) -> io::Result<()> {
    let f = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    let Some(temp) = temp else {
        // In place (a device or a pipe): flushed is all there is.
        return Ok(());
    };
    f.sync_all()?;
    drop(f);
    fs::rename(temp, dest)?;
    sync_folder(dest);
    Ok(())
}

/// Makes the rename itself durable where a folder can be synced (Unix); a failure here
/// does not undo a rename that happened, so it is not reported.
fn sync_folder(dest: &Path) {
    #[cfg(unix)]
    {
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = dest;
}

/// `.STEM.tmp-PID-N.EXT` beside `dest` (see [`AtomicFile::temp_path`]).
fn temp_path_for(dest: &Path) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let pid = std::process::id();
    let name = dest.file_name().map(Path::new).unwrap_or(Path::new("out"));
    let tag = format!("tmp-{pid}-{n}");
    let temp = match (name.file_stem(), name.extension()) {
        (Some(stem), Some(ext)) => {
            let mut s = std::ffi::OsString::from(".");
            s.push(stem);
            s.push(format!(".{tag}."));
            s.push(ext);
            s
        }
        _ => {
            let mut s = std::ffi::OsString::from(".");
            s.push(name.as_os_str());
            s.push(format!(".{tag}"));
            s
        }
    };
    dest.with_file_name(temp)
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            // Close before removing (Windows cannot remove an open file); the buffered
            // rest is thrown away, not written.
            if let Some(out) = self.out.take() {
                let (f, _) = out.into_parts();
                drop(f);
            }
            let _ = fs::remove_file(temp);
        }
    }
}

/// Writes the file `path` whole or not at all: `write` fills a temporary file beside it,
/// which is flushed, synced and renamed over `path` only when `write` returns `Ok`. On
/// any error the temporary file is removed and an existing `path` keeps its content.
///
/// # Errors
/// [`Error::Io`] naming `path` for any failure: creating the temporary file, an error
/// `write` returns, flushing, syncing, renaming.
///
/// # Example
/// ```
/// use std::io::Write;
/// use edgeblas::io::write_atomically;
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("levels.txt");
/// std::fs::write(&path, "old\n").unwrap();
/// let failed = write_atomically(&path, |w| -> std::io::Result<()> {
///     w.write_all(b"0 0\n")?;
///     Err(std::io::Error::other("disk full"))
/// });
/// assert!(failed.unwrap_err().to_string().contains("levels.txt"));
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
/// write_atomically(&path, |w| w.write_all(b"0 0\n")).unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "0 0\n");
/// ```
pub fn write_atomically<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> Result<T> {
    let mut f = AtomicFile::create(path)?;
    let v = write(&mut f).map_err(|e| Error::io(path, e))?;
    f.commit()?;
    Ok(v)
}
