//! A session opened at a path: what every command starts from.
//!
//! [`Repo::open`] reads and checks the file once (refusing one its format's
//! own loader would refuse), and keeps what the commands need: the file's
//! [`Format`], its tree (with subject lines), its named branches, and the
//! file itself, held open, to read whole entries from when they are printed.
//! What it reads and how is one [`Open`] value: the format, whether a torn
//! last line is kept aside, subject lines, tallies, a read into memory.
//!
//! | file | what it holds |
//! | --- | --- |
//! | `mod.rs` | [`Repo`], [`LoadError`], revisions resolved against the tree |
//! | `open.rs` | [`Open`] and [`Input`]: what a session is read from and how, and [`Repo::open`] |
//! | `lines.rs` | an opened session's bytes read back: lines, blocks, entries |
//! | `side.rs` | the refs ysess keeps beside an app's file, joined to the tree |

use std::fmt;
use std::io;

use crate::check::Finding;
use crate::format::Format;
use crate::refs::Refs;
use crate::refs::revision::{RevError, resolve_at};
use crate::tree::{Ix, Tree};

mod lines;
mod open;
mod side;

pub use open::{Input, Open, TornLine};

/// Where entry bytes are read back from: the file, or (for standard input,
/// which cannot be read twice) memory.
enum Held {
    /// The file, held open: read through the same handle that was checked
    /// (and, for writing commands, locked), whatever the path names meanwhile.
    Open(std::fs::File),
    Memory(Vec<u8>),
}

/// A session file, read, checked and indexed.
pub struct Repo {
    /// The file's format.
    pub format: Format,
    /// Every entry, with the user's tree folded out of ysess's records.
    pub tree: Tree,
    /// The named branches.
    pub refs: Refs,
    /// The file version its header declares, as its app reads it (pi's 1,
    /// 2 or 3); `None` for a format without one.
    pub version: Option<u64>,
    /// The torn last line, when the file was opened with
    /// [`TornLine::Keep`] and has one.
    pub torn: Option<crate::check::Torn>,
    /// The title the format's own lines give the session
    /// ([`crate::check::Report::title`]).
    pub title: Option<String>,
    store: Held,
    /// Read without subject lines ([`Open::subjects`]).
    lean: bool,
    /// Each entry's tally, when the open asked for them ([`Open::tallies`]).
    tallies: Vec<Option<crate::format::Tally>>,
    /// The whole file's digest, as read, when the open asked for it
    /// ([`Open::digest`]).
    digest: Option<crate::check::digest::Digest>,
    /// What the format works out once per session when first asked for
    /// (a Codex rollout's usage by model call): [`Repo::format_memo`].
    format_memo: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
    /// How many bytes of the file were read.
    read_len: u64,
    /// For a session whose app owns the file: its refs file, and the
    /// records joined from it ([`Repo::with_store`]).
    side: Side,
}

/// An app-owned session's refs, kept beside its file
/// ([`crate::refs::store`]).
#[derive(Default)]
struct Side {
    /// The session's id, as its app knows it.
    session: Option<String>,
    /// Its refs file (which may not exist yet).
    file: Option<std::path::PathBuf>,
    /// The entries from it, from this one on, are records from the refs
    /// file: `(entry, its line)`, in order.
    lines: Vec<(Ix, Vec<u8>)>,
    /// Where the app's whole lines ended when the session was read.
    app_end: Option<u64>,
    /// The refs file, as read.
    refs: Option<crate::refs::store::Refs>,
}

/// Why a session cannot be shown.
#[derive(Debug)]
pub enum LoadError {
    /// The file cannot be read.
    Io(io::Error),
    /// yoagent would refuse the file; the first error and how many there are.
    Invalid {
        /// The first error.
        first: Finding,
        /// How many errors there are.
        errors: usize,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read: {e}"),
            LoadError::Invalid { first, errors } => {
                let at = first
                    .line
                    .map(|l| format!("line {l}: "))
                    .unwrap_or_default();
                let more = match errors {
                    1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                };
                write!(
                    f,
                    "not a valid session: {at}{}: {}{more}",
                    first.code, first.message
                )
            }
        }
    }
}

impl std::error::Error for LoadError {}

impl From<io::Error> for LoadError {
    fn from(e: io::Error) -> Self {
        LoadError::Io(e)
    }
}

impl Repo {
    /// What entry `ix`'s line says of its usage and size, when the load
    /// kept it ([`Open::tallies`]) and the format's scanner read the line;
    /// `None` otherwise (read it from the line).
    pub fn tally(&self, ix: Ix) -> Option<&crate::format::Tally> {
        self.tallies.get(ix as usize)?.as_ref()
    }

    /// Entry `ix`'s subject line: the tree's, or, for a repo read without
    /// them ([`Open::subjects`]), made from its line as the tree would
    /// have made it (empty when the line cannot be read).
    pub fn subject(&self, ix: Ix) -> std::borrow::Cow<'_, str> {
        if !self.lean {
            return std::borrow::Cow::Borrowed(self.tree.subject(ix));
        }
        let Ok(line) = self.line_bytes(ix) else {
            return std::borrow::Cow::Borrowed("");
        };
        match self.format.check_line(&line, true) {
            crate::format::Checked::Entry { facts, .. } => {
                std::borrow::Cow::Owned(facts.subject.as_deref().unwrap_or_default().to_string())
            }
            _ => std::borrow::Cow::Borrowed(""),
        }
    }

    /// HEAD: where the app that owns the file resumes.
    pub fn head(&self) -> Option<Ix> {
        self.tree.head()
    }

    /// The entry a revision names (`HEAD~2`, `first-draft`, an id, a
    /// branch, a unique prefix): the one resolver every command uses.
    pub fn resolve(&self, text: &str) -> Result<Ix, RevError> {
        // Only a text that may name an earlier head pays for the reflog.
        let previous = if text.contains("@{") || text.contains("@-") {
            crate::refs::reflog::previous_heads(&self.tree)
        } else {
            Vec::new()
        };
        resolve_at(&self.tree, self.head(), &previous, &self.refs.pairs(), text)
    }

    /// Each revision's entry, or a range's entries newest first, one after
    /// the other in the order given (`ysess show`); all resolved before
    /// any is returned.
    pub fn each(&self, texts: &[&str]) -> Result<Vec<Ix>, RevError> {
        let mut entries = Vec::new();
        for &text in texts {
            if self.is_range(text) {
                entries.extend(self.select(&[text], false)?);
            } else {
                entries.push(self.resolve(text)?);
            }
        }
        Ok(entries)
    }

    /// Whether `text` is a range (`A..B`, `A...B`, `^A`) rather than one
    /// revision (a name that exists is a revision, whatever it looks like).
    pub fn is_range(&self, text: &str) -> bool {
        crate::refs::range::Spec::parse(text, |t| self.resolve(t).is_ok()).is_range()
    }

    /// The entries that revisions and ranges (`A..B`, `A...B`, `^A`) name
    /// together, newest first; with `records`, ysess's records on their
    /// paths too.
    pub fn select(&self, texts: &[&str], records: bool) -> Result<Vec<Ix>, RevError> {
        let tree = &self.tree;
        crate::refs::range::select(
            tree,
            texts,
            |text| self.resolve(text),
            |ix| {
                if records {
                    tree.raw_parent(ix)
                } else {
                    tree.parent(ix)
                }
            },
        )
    }

    /// The whole file's digest, as read, when the open asked for it
    /// ([`Open::digest`]).
    pub fn digest(&self) -> Option<crate::check::digest::Digest> {
        self.digest
    }

    /// What the session's format works out once per session and keeps
    /// ([`crate::format::Spec::fill_turn`]: Codex's usage of each call).
    pub fn format_memo(&self) -> &std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>> {
        &self.format_memo
    }
}
