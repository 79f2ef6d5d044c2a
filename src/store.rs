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
    if !is_torn(&cut) {
        return Err(RepairError::Changed);
    }
    let backup = save_beside(path, torn.offset, &cut)?;
    // The backup, and its name in the directory, are on disk before the cut.
    if let Some(dir) = backup.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    file.set_len(torn.offset)?;
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
    let torn = match crate::check::check_line(line, false) {
        crate::check::Checked::Fault { fault, .. } => {
            fault.kind == crate::schema::FaultKind::Eof || line.iter().all(|&b| b == 0)
        }
        crate::check::Checked::NotUtf8 { cut, .. } => cut,
        _ => false,
    };
    blank_after && torn
}

/// Saves `bytes` as `FILE.torn-OFFSET` (or `.torn-OFFSET.N` when that name
/// holds other bytes), flushed to disk. A copy with the same bytes is kept.
fn save_beside(path: &Path, offset: u64, bytes: &[u8]) -> Result<PathBuf, RepairError> {
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
    /// Another program wrote to the file, or replaced it, while ysess read
    /// it: what was read is no longer what is there.
    Changed,
    /// Not a regular file (a device, a directory, a pipe).
    NotAFile,
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Torn { line } => {
                write!(
                    f,
                    "the last line ({line}) is torn, as by an interrupted write"
                )
            }
            WriteError::Invalid(e) => write!(f, "{e}"),
            WriteError::Changed => {
                write!(
                    f,
                    "another program changed or replaced the file while ysess read it"
                )
            }
            WriteError::NotAFile => write!(f, "not a regular file"),
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

/// Whether `path` still names the file `file` has open (not a new file
/// renamed into its place).
fn still_there(path: &Path, file: &File) -> io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (named, open) = (std::fs::metadata(path)?, file.metadata()?);
        Ok(named.dev() == open.dev() && named.ino() == open.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = (path, file);
        Ok(true)
    }
}

/// A session file opened for appending: it holds an exclusive lock on the
/// file until dropped, so what was read is what is there when the new lines
/// go in, and two ysess processes never interleave their writes.
pub struct Locked {
    file: File,
    path: PathBuf,
    /// The session as it is now.
    pub session: crate::load::Session,
    len: u64,
    ends_with_newline: bool,
}

impl Locked {
    /// The session file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens `path` for appending (through a symlink, never replacing it),
    /// takes the lock and reads the session, all from the one open file.
    /// Refuses a file yoagent would refuse (a torn last line in particular),
    /// and one that another program changes meanwhile.
    pub fn open(path: &Path) -> Result<Locked, WriteError> {
        // A file renamed into place while ysess waited for the lock is the
        // one to write to: open it again (a few times at most).
        for _ in 0..5 {
            let file = OpenOptions::new().read(true).append(true).open(path)?;
            if !file.metadata()?.is_file() {
                return Err(WriteError::NotAFile);
            }
            file.lock()?;
            if !still_there(path, &file)? {
                continue;
            }
            let len = file.metadata()?.len();
            let session = match crate::load::Session::load_locked(&file) {
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
            if file.metadata()?.len() != len {
                return Err(WriteError::Changed);
            }
            let mut last = [0u8; 1];
            let ends_with_newline = len == 0 || {
                let mut reader = &file;
                reader.seek(SeekFrom::Start(len - 1))?;
                reader.read_exact(&mut last)?;
                last[0] == b'\n'
            };
            return Ok(Locked {
                file,
                path: path.to_path_buf(),
                session,
                len,
                ends_with_newline,
            });
        }
        Err(WriteError::Changed)
    }

    /// Appends whole lines in one write and flushes them to disk. yoagent
    /// writes no newline after its last line, so one is added first when
    /// missing. The file must be as it was read (another program that does
    /// not take the lock may have written meanwhile: then nothing is
    /// written). If the write fails or falls short, the file is cut back to
    /// what it was: it never keeps half a line of ysess's.
    pub fn append(mut self, lines: &[String]) -> Result<(), WriteError> {
        let mut buf = String::new();
        if !self.ends_with_newline {
            buf.push('\n');
        }
        for line in lines {
            buf.push_str(line);
            buf.push('\n');
        }
        if !still_there(&self.path, &self.file)? || self.file.metadata()?.len() != self.len {
            return Err(WriteError::Changed);
        }
        let written = self.file.write(buf.as_bytes()).and_then(|n| {
            if n == buf.len() {
                self.file.sync_data()
            } else {
                Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    format!("only {n} of {} bytes were written", buf.len()),
                ))
            }
        });
        if let Err(e) = written {
            // Cut back only what is ysess's own: the file was `len` long
            // under the lock before this write.
            if self.file.metadata().is_ok_and(|m| m.len() >= self.len) {
                let _ = self.file.set_len(self.len);
                let _ = self.file.sync_data();
            }
            return Err(e.into());
        }
        Ok(())
    }
}
