//! What the commands that change a session do, as library calls: each
//! takes the session's path and what the person asked for, and returns what
//! it did (the entries involved, as [`crate::view::Headline`]s) or a typed
//! [`Error`]. The command line turns an error into its message, hints and
//! exit code, and an outcome into its status line; nothing here prints.
//!
//! Every operation opens the file under its lock ([`crate::write::Locked`]),
//! checks, builds its records and appends them in one write, or refuses
//! and writes nothing.

pub mod append;
pub mod branch;
pub mod checkout;
pub mod export;
pub mod resume;
pub mod tag;

use std::fmt;

use crate::format::records::Record;
use crate::refs::Names;
pub use crate::refs::revision::RevError;
pub use crate::refs::store::Store;
use crate::repo::Repo;
use crate::tree::Ix;
use crate::view::Headline;
pub use crate::write::WriteError;
pub use crate::write::repair::still_written;
use crate::write::{Create, Locked};

/// Why an operation wrote nothing (or, for [`Error::Append`] with
/// [`WriteError::Lost`], what became of what it wrote).
#[derive(Debug)]
pub enum Error {
    /// The file cannot be opened for writing as it is.
    Open(WriteError),
    /// A rule of the session says no: the message says which.
    Refused(String),
    /// The session has no entry; what could not be done without one.
    Empty(&'static str),
    /// A revision names no entry.
    Revision(RevError),
    /// A yoagent session already has an id `e<N>` with the largest N there
    /// is: no new entry can be numbered.
    NoIds,
    /// The append itself failed, or raced another program's save.
    Append(WriteError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Open(e) | Error::Append(e) => e.fmt(f),
            Error::Refused(why) => f.write_str(why),
            Error::Empty(what) => write!(f, "the session is empty: {what}"),
            Error::Revision(e) => e.fmt(f),
            Error::NoIds => f.write_str(
                "no id is left to number new entries: the session already has an id e<N> with the largest N there is",
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<RevError> for Error {
    fn from(e: RevError) -> Error {
        Error::Revision(e)
    }
}

/// An operation's refusal: what any operation may say ([`Error`]), or what
/// only this one says (`E`, its own enum).
#[derive(Debug)]
pub enum Refused<E> {
    /// What any operation may say.
    Op(Error),
    /// What only this operation says.
    Own(E),
}

impl<E> From<Error> for Refused<E> {
    fn from(e: Error) -> Refused<E> {
        Refused::Op(e)
    }
}

impl<E> From<RevError> for Refused<E> {
    fn from(e: RevError) -> Refused<E> {
        Refused::Op(e.into())
    }
}

/// Milliseconds since the epoch, for new entries' timestamps.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Opens the session at `path` for appending, under its lock.
pub fn open(path: &std::path::Path, create: Create) -> Result<Locked, Error> {
    Locked::open(path, create).map_err(Error::Open)
}

/// Opens the session at `path` for ysess's records, under a lock: the
/// file itself, or, when its app owns it, the refs file `refs` keeps for
/// it ([`crate::refs::store`]).
pub fn open_for_records(path: &std::path::Path, refs: Option<&Store>) -> Result<Locked, Error> {
    Locked::open_for_records(path, refs).map_err(Error::Open)
}

/// The format of the session at `path` when its app owns the file (ysess
/// keeps its refs beside it); `None` for a format ysess writes into, or a
/// file that cannot be read.
pub fn app_owned(path: &std::path::Path) -> Option<crate::format::Format> {
    let file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len().min(64 << 10);
    let head = crate::input::read_at(&file, 0, len).ok()?;
    let format = crate::format::Format::detect(head.split(|&b| b == b'\n'));
    (!format.writable()).then_some(format)
}

/// Entry `ix` as a status line shows it: decorated with the branches and
/// labels that name it (no HEAD).
pub fn row(repo: &Repo, ix: Ix) -> Headline {
    let names = Names::new(&repo.tree, None, &repo.refs.pairs());
    Headline::of(&repo.tree, &names, ix, false)
}

/// Appends records (and nothing else) in one write; returns their ids.
pub fn append_records(locked: Locked, records: &[Record]) -> Result<Vec<String>, Error> {
    let ids = crate::write::plan::new_ids(&locked.repo, records.len()).ok_or(Error::NoIds)?;
    let format = locked.repo.format;
    let lines = crate::write::plan::lines(&locked.repo, records, &ids, now_ms())
        .ok_or(Error::Append(WriteError::Format(format)))?;
    locked.append(&lines).map_err(Error::Append)?;
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::Refused;
    use super::checkout::{Checkout, checkout};
    use super::tag::{Set, SetError, set};
    use crate::repo::Repo;

    #[test]
    fn a_label_and_a_checkout_through_the_library_move_what_the_file_says() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("s.jsonl");
        let demo =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/demo.jsonl");
        std::fs::copy(demo, &path).expect("copied");
        let Ok(Set::Labelled { target }) = set(&path, "v1", Some("e2"), false, None) else {
            panic!("labelled");
        };
        assert_eq!(target.id, "e2");
        // The name is taken now: refused, with where it is, and nothing written.
        let before = std::fs::read(&path).expect("reads");
        match set(&path, "v1", Some("e3"), false, None) {
            Err(Refused::Own(SetError::Exists { on })) => assert_eq!(on, "e2"),
            other => panic!("refused: {other:?}"),
        }
        assert_eq!(std::fs::read(&path).expect("reads"), before);
        let Ok(Checkout::Moved { at }) = checkout(&path, Some("v1"), None, None) else {
            panic!("moved");
        };
        assert_eq!(at.id, "e2");
        assert!(at.labels.iter().any(|l| l == "v1"), "{at:?}");
        let repo = Repo::open(&path, &crate::repo::Open::default()).expect("opens");
        assert_eq!(repo.tree.head().map(|h| repo.tree.id(h)), Some("e2"));
    }
}
