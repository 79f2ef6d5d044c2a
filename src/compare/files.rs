//! `diff --files OLD NEW`: two copies of one session compared entry by
//! entry, by id.

use std::io;

use crate::repo::Repo;
use crate::tree::Ix;

/// What happened to an entry between the two copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Only in the new copy.
    Added,
    /// Only in the old copy.
    Removed,
    /// In both, with a different entry.
    Changed,
}

impl Status {
    /// `added`, `removed`, `changed`: the word in `--json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Changed => "changed",
        }
    }

    /// `+`, `-`, `~`: the mark in the listing.
    pub fn mark(self) -> char {
        match self {
            Status::Added => '+',
            Status::Removed => '-',
            Status::Changed => '~',
        }
    }
}

/// One entry that differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Added, removed or changed.
    pub status: Status,
    /// The entry: in the new copy, or in the old one when removed.
    pub ix: Ix,
    /// What changed, when only the label did (`label "a" → none`), else
    /// `changed`; empty for added and removed entries.
    pub note: String,
}

/// The entries added or changed (in the new copy's order), then those
/// removed (in the old copy's order). Entries are compared as yoagent
/// would save them, so a re-save that changes no field changes nothing.
pub fn changes(old: &Repo, new: &Repo) -> io::Result<Vec<Change>> {
    let mut out = Vec::new();
    for ix in 0..new.tree.len() as Ix {
        let Some(before) = old.tree.find(new.tree.id(ix)) else {
            out.push(Change {
                status: Status::Added,
                ix,
                note: String::new(),
            });
            continue;
        };
        let (mut was, mut now) = (old.entry(before)?.canonical(), new.entry(ix)?.canonical());
        if was == now {
            continue;
        }
        let (l0, l1) = (
            was.as_object_mut().and_then(|o| o.remove("label")),
            now.as_object_mut().and_then(|o| o.remove("label")),
        );
        let note = if was == now {
            format!(
                "label {} → {}",
                l0.map_or("none".into(), |l| l.to_string()),
                l1.map_or("none".into(), |l| l.to_string())
            )
        } else {
            "changed".to_string()
        };
        out.push(Change {
            status: Status::Changed,
            ix,
            note,
        });
    }
    for ix in 0..old.tree.len() as Ix {
        if new.tree.find(old.tree.id(ix)).is_none() {
            out.push(Change {
                status: Status::Removed,
                ix,
                note: String::new(),
            });
        }
    }
    Ok(out)
}
