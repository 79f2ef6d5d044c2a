//! The files of an archive of sessions (`ysess archive`): its lock, a
//! session's first copy or a new version of it, and the bytes a session
//! grew by, appended to its copy.
//!
//! - One run at a time: [`lock`] holds `.lock` in the archive; a second
//!   run waits for it.
//! - A new copy is written under a temporary name beside its place and
//!   renamed there once whole and on disk ([`create`]): a crash leaves
//!   no half copy under a session's name.
//! - A database's new backup ([`super::database`]) is put in place whole
//!   by [`replace`].
//! - An append checks that the copy is the length planned on, writes, and
//!   flushes to disk ([`append`]); when the write fails, it cuts back what
//!   it added. A copy a crash left longer still holds only bytes of the
//!   live file, which the next run's prefix check accepts and goes on from.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

use super::output::Output;

/// The lock file's name in the archive.
pub const LOCK: &str = ".lock";

/// The archive's lock, held while it lives.
#[derive(Debug)]
pub struct Lock {
    _file: File,
    /// Whether another run held it first (and this one waited).
    pub waited: bool,
}

/// Creates the archive folder if needed and takes its lock; `waiting` is
/// called once when another run holds it, before this one waits.
pub fn lock(dir: &Path, waiting: impl FnOnce()) -> io::Result<Lock> {
    std::fs::create_dir_all(dir)?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(LOCK))?;
    let waited = match file.try_lock() {
        Ok(()) => false,
        Err(std::fs::TryLockError::WouldBlock) => {
            waiting();
            file.lock()?;
            true
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    };
    Ok(Lock {
        _file: file,
        waited,
    })
}

/// Writes `from` whole as the new file `path` (its folders made), no more
/// readable than `like`: under a temporary name, then renamed into place.
/// Returns the bytes written.
pub fn create(path: &Path, from: &mut impl Read, like: &Path) -> io::Result<u64> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut out = Output::create(path, &[], Some(like))?;
    let n = io::copy(from, &mut out)?;
    out.finish()?;
    Ok(n)
}

/// Puts the whole file `from` (made in the archive) in place as `to`,
/// over what was there, and flushes the rename to disk.
pub fn replace(from: &Path, to: &Path) -> io::Result<()> {
    if let Some(dir) = to.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::rename(from, to)?;
    if let Some(dir) = to.parent() {
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}

/// Gives the copy at `path` its live file's time of last change, as
/// `cp -p` does: copies sort by when the agent wrote them, not by when
/// they were archived.
pub fn keep_time(path: &Path, modified: std::time::SystemTime) -> io::Result<()> {
    // Read only: a copy of a read-only file is read-only too, and setting
    // its time asks only to own it.
    File::open(path)?.set_modified(modified)
}

/// Appends `from` to the copy at `path`, which must be `at` bytes long,
/// and flushes it to disk. Returns the bytes appended.
pub fn append(path: &Path, at: u64, from: &mut impl Read) -> io::Result<u64> {
    let mut file = OpenOptions::new().append(true).open(path)?;
    let len = file.metadata()?.len();
    if len != at {
        return Err(io::Error::other(format!(
            "{}: the copy is {len} bytes, not the {at} checked; nothing was appended",
            path.display()
        )));
    }
    let written = io::copy(from, &mut file).and_then(|n| {
        file.flush()?;
        file.sync_data()?;
        Ok(n)
    });
    if written.is_err() {
        // Only what this write added: the copy was `at` bytes under the lock.
        let _ = file.set_len(at).and_then(|()| file.sync_data());
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_append_to_a_copy_of_another_length_is_refused_and_changes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let copy = dir.path().join("a.jsonl");
        std::fs::write(&copy, "one\n").expect("write");
        let err = append(&copy, 3, &mut &b"two\n"[..]).expect_err("refused");
        assert!(err.to_string().contains("nothing was appended"), "{err}");
        assert_eq!(std::fs::read(&copy).expect("read"), b"one\n");
        assert_eq!(append(&copy, 4, &mut &b"two\n"[..]).expect("appended"), 4);
        assert_eq!(std::fs::read(&copy).expect("read"), b"one\ntwo\n");
    }

    #[test]
    fn a_new_copy_is_made_with_its_folders_and_a_second_lock_waits() {
        let dir = tempfile::tempdir().expect("temp dir");
        let like = dir.path().join("live.jsonl");
        std::fs::write(&like, "x\n").expect("write");
        let copy = dir.path().join("arch/claude/p/s.jsonl");
        assert_eq!(create(&copy, &mut &b"x\n"[..], &like).expect("created"), 2);
        assert_eq!(std::fs::read(&copy).expect("read"), b"x\n");
        let first = lock(&dir.path().join("arch"), || panic!("no one holds it")).expect("lock");
        assert!(!first.waited);
        let file = File::open(dir.path().join("arch").join(LOCK)).expect("open");
        assert!(matches!(
            file.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
    }
}
