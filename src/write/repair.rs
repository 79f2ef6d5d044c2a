//! `fsck --repair`: cutting a torn last line, its bytes kept beside the file.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::still_there;
use crate::check::Torn;
use crate::input::read_at;

/// Why a repair was refused.
#[derive(Debug)]
pub enum RepairError {
    /// The file changed since it was checked.
    Changed,
    /// The backup path exists with other contents.
    BackupExists(PathBuf),
    /// A format ysess leaves to the app that owns it.
    Format(crate::format::Format),
    /// Another error, from the system.
    Io(io::Error),
}

impl From<io::Error> for RepairError {
    fn from(e: io::Error) -> Self {
        RepairError::Io(e)
    }
}

/// How long ysess watches a file whose last line is torn for another
/// program still writing it.
pub const WATCH: std::time::Duration = std::time::Duration::from_millis(250);

/// Whether another program is still writing `path`, which was `read` bytes
/// long when read: its length differs now, or within [`WATCH`]. Asked only
/// of a file whose last line is torn, where the answer decides whether the
/// line is an interrupted write or one being written.
pub fn still_written(path: &Path, read: u64) -> bool {
    let moved = || std::fs::metadata(path).is_ok_and(|m| m.len() != read);
    if moved() {
        return true;
    }
    let until = std::time::Instant::now() + WATCH;
    while std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(25));
        if moved() {
            return true;
        }
    }
    false
}

/// Where the bytes cut from `path` at `offset` are kept.
pub fn backup_path(path: &Path, offset: u64) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(format!(".torn-{offset}"));
    path.with_file_name(name)
}

/// Cuts the torn last line off `path`, which was `checked_len` bytes long
/// when checked. Under an exclusive lock: confirms the file is unchanged,
/// saves the torn bytes to [`backup_path`] (flushed to disk), then truncates
/// and flushes. Returns the backup's path.
pub fn cut_torn(path: &Path, torn: Torn, checked_len: u64) -> Result<PathBuf, RepairError> {
    let mut file = OpenOptions::new().read(true).write(true).open(path)?;
    file.lock()?;
    if file.metadata()?.len() != checked_len || torn.offset + torn.len > checked_len {
        return Err(RepairError::Changed);
    }
    let mut cut = Vec::new();
    file.seek(SeekFrom::Start(torn.offset))?;
    Read::read_to_end(&mut file, &mut cut)?;
    if !is_torn(&cut) {
        return Err(RepairError::Changed);
    }
    let mode = file.metadata()?.permissions();
    let backup = save_beside(path, torn.offset, &cut, mode)?;
    // The backup, and its name in the directory, are on disk before the cut.
    if let Some(dir) = backup.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    // An app that does not take the lock may have saved the file while the
    // backup went to disk: look again right before cutting, and cut only
    // the very bytes that were saved (never extending a shorter file).
    let unchanged = file.metadata()?.len() == checked_len
        && read_at(&file, torn.offset, checked_len - torn.offset)? == cut
        && still_there(path, &file)?;
    if !unchanged {
        return Err(RepairError::Changed);
    }
    file.set_len(torn.offset)?;
    file.sync_all()?;
    Ok(backup)
}

/// Cuts the bytes from `offset` off a file only ysess writes (a refs file,
/// [`crate::refs::store`]), which the caller holds open under its lock: a
/// write of ysess's that a crash cut short. Its bytes are saved beside it
/// first, as [`cut_torn`] saves them.
pub(crate) fn cut_own_torn(file: &File, path: &Path, offset: u64) -> Result<PathBuf, RepairError> {
    let len = file.metadata()?.len();
    let cut = read_at(file, offset, len - offset)?;
    let backup = save_beside(path, offset, &cut, file.metadata()?.permissions())?;
    if let Some(dir) = backup.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    file.set_len(offset)?;
    file.sync_all()?;
    Ok(backup)
}

/// Whether `bytes` (from a line's start to the end of the file) are still
/// one torn line and nothing but white space after it, as checked.
fn is_torn(bytes: &[u8]) -> bool {
    let (line, rest) = match memchr::memchr(b'\n', bytes) {
        Some(i) => (&bytes[..i], &bytes[i + 1..]),
        None => (bytes, &b""[..]),
    };
    let blank_after = String::from_utf8_lossy(rest).trim().is_empty();
    let torn = match crate::format::yoagent::check_line(line, false) {
        crate::format::Checked::Fault { fault, .. } => {
            fault.kind == crate::format::fault::FaultKind::Eof || line.iter().all(|&b| b == 0)
        }
        crate::format::Checked::NotUtf8 { cut, .. } => cut,
        _ => false,
    };
    blank_after && torn
}

/// Saves `bytes` as `FILE.torn-OFFSET` (or `.torn-OFFSET.N` when that name
/// holds other bytes), flushed to disk. A copy with the same bytes is kept.
fn save_beside(
    path: &Path,
    offset: u64,
    bytes: &[u8],
    mode: std::fs::Permissions,
) -> Result<PathBuf, RepairError> {
    let first = backup_path(path, offset);
    for n in 0..100 {
        let candidate = if n == 0 {
            first.clone()
        } else {
            let mut name = first.clone().into_os_string();
            name.push(format!(".{n}"));
            PathBuf::from(name)
        };
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(mut saved) => {
                // Session text is no more readable in the backup than in
                // the session file.
                saved.set_permissions(mode.clone())?;
                saved.write_all(bytes)?;
                saved.sync_all()?;
                return Ok(candidate);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                if std::fs::read(&candidate)? == bytes {
                    return Ok(candidate);
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    Err(RepairError::BackupExists(first))
}
