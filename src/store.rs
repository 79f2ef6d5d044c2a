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

/// Why ysess will not append to a session.
#[derive(Debug)]
pub enum WriteError {
    /// The last line is torn (an interrupted write): appending after it
    /// would bury it mid-file.
    Torn {
        line: u64,
    },
    /// The file holds lines yoagent would refuse.
    Invalid(crate::load::LoadError),
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Torn { line } => write!(
                f,
                "the last line ({line}) is torn, as by an interrupted write"
            ),
            WriteError::Invalid(e) => write!(f, "{e}"),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}

/// A session file opened for appending: it holds an exclusive lock on the
/// file until dropped, so what was read is what is there when the new lines
/// go in, and two ysess processes never interleave their writes.
pub struct Locked {
    file: File,
    /// The session as it is now.
    pub session: crate::load::Session,
    len: u64,
    ends_with_newline: bool,
}

impl Locked {
    /// Opens `path` for appending (through a symlink, never replacing it),
    /// takes the lock and reads the session. Refuses a file yoagent would
    /// refuse, and a torn last line in particular.
    pub fn open(path: &Path) -> Result<Locked, WriteError> {
        let file = OpenOptions::new().read(true).append(true).open(path)?;
        file.lock()?;
        let session = match crate::load::Session::load_locked(&file, path) {
            Ok(session) => session,
            Err(crate::load::LoadError::Invalid { first, errors }) => {
                return Err(match first.code {
                    crate::fsck::Code::TruncatedLastLine => WriteError::Torn {
                        line: first.line.unwrap_or(0),
                    },
                    _ => WriteError::Invalid(crate::load::LoadError::Invalid { first, errors }),
                });
            }
            Err(crate::load::LoadError::Io(e)) => return Err(e.into()),
        };
        let len = file.metadata()?.len();
        let mut last = [0u8; 1];
        let ends_with_newline = len == 0 || {
            let mut reader = &file;
            reader.seek(SeekFrom::Start(len - 1))?;
            reader.read_exact(&mut last)?;
            last[0] == b'\n'
        };
        Ok(Locked {
            file,
            session,
            len,
            ends_with_newline,
        })
    }

    /// Appends whole lines in one write and flushes them to disk. yoagent
    /// writes no newline after its last line, so one is added first when
    /// missing. If the write fails part way, the file is cut back to what it
    /// was: it never keeps half a line of ysess's.
    pub fn append(mut self, lines: &[String]) -> io::Result<()> {
        let mut buf = String::new();
        if !self.ends_with_newline {
            buf.push('\n');
        }
        for line in lines {
            buf.push_str(line);
            buf.push('\n');
        }
        if let Err(e) = self
            .file
            .write_all(buf.as_bytes())
            .and_then(|()| self.file.sync_data())
        {
            let _ = self.file.set_len(self.len);
            let _ = self.file.sync_data();
            return Err(e);
        }
        Ok(())
    }
}
