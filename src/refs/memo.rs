//! What `log -n` remembers of a session between runs: how far the file has
//! been searched for branch records, and whether one was found.
//!
//! Branch names decorate the entries their work grew to, so a branch record
//! anywhere above the last entries shown can decorate them, and only a
//! search of the whole file says there is none. Session files only grow, so
//! that search need not be made twice: the memo keeps the length searched
//! and a fingerprint of the bytes just before it, and the next run searches
//! only what was appended since. A file that is another one now (another
//! inode), shorter, or whose fingerprinted bytes changed is searched whole
//! again. A memo is a cache: one that cannot be read or written is ignored,
//! and deleting the folder costs one whole search.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

/// The bytes before the searched length whose hash must still match.
const PRINT: u64 = 4096;

/// The branch kind searched for; any record of the branch family names it.
const KIND: &[u8] = b"ysess.branch";

/// A session's memo, in a folder of memos.
pub struct Memo {
    at: PathBuf,
}

/// What a memo says.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    dev: u64,
    ino: u64,
    len: u64,
    found: bool,
    print: String,
}

impl Memo {
    /// The memo of the session at `session` in the folder `dir` (named by
    /// a hash of the session's full path).
    pub fn new(dir: &Path, session: &Path) -> Memo {
        let full = std::fs::canonicalize(session).unwrap_or_else(|_| session.to_path_buf());
        let hash = Sha256::digest(full.as_os_str().as_encoded_bytes());
        let name: String = hash[..16].iter().map(|b| format!("{b:02x}")).collect();
        Memo {
            at: dir.join(format!("{name}.scan")),
        }
    }

    fn read(&self) -> Option<Seen> {
        let text = crate::input::read_small(&self.at, 512).ok()?;
        let text = std::str::from_utf8(&text).ok()?;
        let mut words = text.split_ascii_whitespace();
        if words.next()? != "ysess-scan-1" {
            return None;
        }
        let mut num = || words.next()?.parse::<u64>().ok();
        let (dev, ino, len, found) = (num()?, num()?, num()?, num()?);
        Some(Seen {
            dev,
            ino,
            len,
            found: found == 1,
            print: words.next()?.to_string(),
        })
    }

    /// Writes the memo whole or not at all; a failure is no one's concern.
    fn write(&self, seen: &Seen) {
        let Some(dir) = self.at.parent() else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let text = format!(
            "ysess-scan-1 {} {} {} {} {}\n",
            seen.dev, seen.ino, seen.len, seen.found as u8, seen.print
        );
        let Ok(mut tmp) = tempfile::NamedTempFile::new_in(dir) else {
            return;
        };
        if io::Write::write_all(&mut tmp, text.as_bytes()).is_ok() {
            let _ = tmp.persist(&self.at);
        }
    }
}

/// Whether `file` (`len` bytes) may hold a `ysess.branch` record, searching
/// only the bytes `memo` has not seen, and leaving a memo of the search.
pub fn mentions_branches(file: &File, len: u64, memo: Option<&Memo>) -> io::Result<bool> {
    let (dev, ino) = identity(file)?;
    let known = memo.and_then(Memo::read).filter(|seen| {
        seen.dev == dev
            && seen.ino == ino
            && seen.len <= len
            && fingerprint(file, seen.len).is_ok_and(|p| p == seen.print)
    });
    let (found, from) = match &known {
        Some(seen) if seen.found => return Ok(true),
        // Back far enough for a kind that straddles the old end.
        Some(seen) => (false, seen.len.saturating_sub(KIND.len() as u64 - 1)),
        None => (false, 0),
    };
    let found = found || search(file, from, len)?;
    if let Some(memo) = memo {
        let unchanged = known.as_ref().is_some_and(|seen| seen.len == len);
        if !unchanged {
            memo.write(&Seen {
                dev,
                ino,
                len,
                found,
                print: fingerprint(file, len)?,
            });
        }
    }
    Ok(found)
}

/// The hash of the (up to) [`PRINT`] bytes before `end`.
fn fingerprint(mut file: &File, end: u64) -> io::Result<String> {
    let from = end.saturating_sub(PRINT);
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::with_capacity(PRINT as usize);
    file.take(end - from).read_to_end(&mut bytes)?;
    if bytes.len() as u64 != end - from {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let hash = Sha256::digest(&bytes);
    Ok(hash.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether the bytes `from..len` hold [`KIND`]: one pass, at the speed of
/// reading them.
fn search(mut file: &File, from: u64, len: u64) -> io::Result<bool> {
    let finder = memchr::memmem::Finder::new(KIND);
    let mut buf = vec![0; 1 << 20];
    // The end of the block before, in case the kind straddles two reads.
    let mut kept = 0;
    file.seek(SeekFrom::Start(from))?;
    let mut left = len - from;
    while left > 0 {
        let want = (buf.len() - kept).min(left as usize);
        let n = match file.read(&mut buf[kept..kept + want]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        left -= n as u64;
        let filled = kept + n;
        if finder.find(&buf[..filled]).is_some() {
            return Ok(true);
        }
        kept = (KIND.len() - 1).min(filled);
        buf.copy_within(filled - kept..filled, 0);
    }
    Ok(false)
}

#[cfg(unix)]
fn identity(file: &File) -> io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata()?;
    Ok((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_: &File) -> io::Result<(u64, u64)> {
    Ok((0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn append(path: &Path, text: &str) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .expect("open");
        f.write_all(text.as_bytes()).expect("write");
    }

    fn ask(path: &Path, memo: &Memo) -> bool {
        let file = File::open(path).expect("open");
        let len = file.metadata().expect("meta").len();
        mentions_branches(&file, len, Some(memo)).expect("search")
    }

    #[test]
    fn a_memo_searches_only_what_was_appended_and_sees_a_rewrite() {
        let dir = tempfile::tempdir().expect("dir");
        let session = dir.path().join("s.jsonl");
        append(&session, &"{\"x\":1}\n".repeat(2000));
        let memo = Memo::new(&dir.path().join("memo"), &session);
        assert!(!ask(&session, &memo));
        let seen = memo.read().expect("memo written");
        assert_eq!(seen.len, 16_000);
        assert!(!seen.found);

        // A kind split across the old end is found in what was appended.
        append(&session, "{\"kind\":\"ysess.bra");
        assert!(!ask(&session, &memo));
        append(&session, "nch\"}\n");
        assert!(ask(&session, &memo));
        assert!(memo.read().expect("memo").found);

        // The same path, another file: searched whole again.
        std::fs::remove_file(&session).expect("rm");
        append(&session, &"{\"y\":2}\n".repeat(3000));
        assert!(!ask(&session, &memo));
        // Bytes rewritten within the fingerprint, the length kept: searched
        // whole again (what was appended alone holds no branch).
        let mut bytes = std::fs::read(&session).expect("read");
        let at = bytes.len() - 2000;
        bytes[at..at + 12].copy_from_slice(b"ysess.branch");
        std::fs::write(&session, &bytes).expect("rewrite");
        append(&session, "{\"z\":3}\n");
        assert!(ask(&session, &memo));
    }

    #[test]
    fn a_memo_that_cannot_be_written_changes_nothing() {
        let dir = tempfile::tempdir().expect("dir");
        let session = dir.path().join("s.jsonl");
        append(&session, "{\"kind\":\"ysess.branch\"}\n");
        // The memo folder is a file: no memo, the same answer.
        let blocker = dir.path().join("blocker");
        std::fs::write(&blocker, "").expect("file");
        let memo = Memo::new(&blocker.join("memo"), &session);
        assert!(ask(&session, &memo));
        assert!(ask(&session, &memo));
        assert!(memo.read().is_none());
    }
}
