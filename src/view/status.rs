//! Where HEAD is and how the file stands, as `ysess status` shows it
//! ([`Standing::of`]).

use std::io;
use std::path::Path;

pub use crate::check::digest::{Change, Digest};
use crate::repo::Repo;
use crate::tree::{Ix, Tree};

/// Opens the session file at `path` to compare with a digest ([`since`]):
/// a regular file, for it is read whole.
pub fn open_for_digest(path: &Path) -> io::Result<std::fs::File> {
    crate::input::open_regular(path)
}

/// Whether `file` is unchanged since `digest` was taken, only grew, or was
/// rewritten.
pub fn since(file: std::fs::File, digest: &Digest) -> io::Result<Change> {
    crate::check::digest::compare(io::BufReader::new(file), digest)
}

/// The head of a file that holds a digest (read boundedly: a digest is one
/// short line).
pub fn read_digest_file(path: &Path) -> io::Result<Vec<u8>> {
    crate::check::digest::read_file(path)
}

/// How a session stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// HEAD; `None` for an empty session.
    pub head: Option<Ix>,
    /// The branch HEAD is on (at its tip).
    pub branch: Option<String>,
    /// HEAD is on no named branch, and not at a tip either (new work forks
    /// there), as `branch` lists it.
    pub detached: bool,
    /// The nearest label on HEAD's path, HEAD itself included: its name,
    /// the entry it names, and how many entries HEAD is below it.
    pub label: Option<(String, Ix, u32)>,
    /// Entries of the conversation (folded-out lines not counted).
    pub entries: usize,
    /// Tips of the conversation.
    pub tips: usize,
}

impl Standing {
    /// How `repo` stands.
    pub fn of(repo: &Repo) -> Standing {
        let tree = &repo.tree;
        let head = tree.head();
        let branch = repo
            .refs
            .current(tree)
            .filter(|b| Some(b.tip) == head)
            .map(|b| b.name.clone());
        let label = head.and_then(|h| {
            nearest_label(tree, h).map(|(name, ix)| {
                let behind = tree.node(h).depth - tree.node(ix).depth;
                (name.to_string(), ix, behind)
            })
        });
        Standing {
            head,
            // As `branch` lists it: HEAD on a tip is that tip's, named or not.
            detached: branch.is_none() && head.is_some_and(|h| !tree.children(h).is_empty()),
            branch,
            label,
            entries: tree.entries().count(),
            tips: tree.tips().count(),
        }
    }
}

/// The nearest label on `head`'s path, itself included: its name and entry.
fn nearest_label(tree: &Tree, head: Ix) -> Option<(&str, Ix)> {
    let mut cursor = Some(head);
    while let Some(at) = cursor {
        if let Some(name) = tree.labels_of(at).first() {
            return Some((name, at));
        }
        cursor = tree.parent(at);
    }
    None
}
