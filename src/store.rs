//! Changing session files: the one module that writes them. ysess never
//! rewrites history; the only cut it makes is of a torn last line, and the
//! cut bytes are saved beside the file first.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::fsck::Torn;

/// Why a repair was refused.
#[derive(Debug)]
pub enum RepairError {
    /// The file changed since it was checked.
    Changed,
    /// The backup path exists with other contents.
    BackupExists(PathBuf),
    Io(io::Error),
}

impl From<io::Error> for RepairError {
    fn from(e: io::Error) -> Self {
        RepairError::Io(e)
    }
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
    let backup = backup_path(path, torn.offset);
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&backup)
    {
        Ok(mut saved) => {
            saved.write_all(&cut)?;
            saved.sync_all()?;
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if std::fs::read(&backup)? != cut {
                return Err(RepairError::BackupExists(backup));
            }
        }
        Err(e) => return Err(e.into()),
    }
    file.set_len(torn.offset)?;
    file.sync_all()?;
    if let Some(dir) = backup.parent().filter(|d| !d.as_os_str().is_empty()) {
        // Make the backup's directory entry durable too; best effort.
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(backup)
}
