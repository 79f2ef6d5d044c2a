//! Named branches, read from ysess's records.
//!
//! A branch is born with a `ysess.branch` record hung below its base entry.
//! Work appended below that record (by ysess or by an agent that resumed
//! there) belongs to the branch, so the branch follows the work: its tip is
//! the newest entry, in file order, below its record. Until there is any, the
//! tip is the base itself.

pub mod listing;
pub mod memo;
pub mod range;
pub mod reflog;
pub mod rev_error;
pub mod revision;
pub mod store;
pub mod tail;

use std::collections::{BTreeMap, HashMap};
use std::io;

use crate::format::message::Entry;
use crate::format::message::Message;
use crate::format::records::Kind;
use crate::tree::{Ix, Tree};

/// A live branch: its name, the record that started it, and its tip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// Its name.
    pub name: String,
    /// The `ysess.branch` record.
    pub record: Ix,
    /// The entry new work on it last landed on.
    pub tip: Ix,
}

/// A branch that was deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    /// Its `ysess.branch` record.
    pub record: Ix,
    /// The `ysess.branch-delete` record that deleted it.
    pub by: Ix,
}

/// Every branch of a session, live and deleted.
#[derive(Debug, Clone, Default)]
pub struct Refs {
    /// Live branches, sorted by name.
    pub branches: Vec<Branch>,
    /// Deleted branches, in the order they were deleted.
    pub deleted: Vec<Deleted>,
}

impl Refs {
    /// Every ysess record of the session, read in file order; `entry`
    /// reads an entry of the tree whole.
    pub fn read(tree: &Tree, mut entry: impl FnMut(Ix) -> io::Result<Entry>) -> io::Result<Refs> {
        let mut live: BTreeMap<String, Ix> = BTreeMap::new();
        let mut deleted = Vec::new();
        // Only branch records are read (a Claude Code or Codex file folds
        // half its lines out as bookkeeping: reading each would double the
        // time to open it); the index knows each record's kind.
        let branch_record = |ix: Ix| {
            tree.is_record(ix)
                && matches!(
                    tree.tag(ix),
                    "ysess.branch" | "ysess.branch-delete" | "ysess.branch-rename"
                )
        };
        for ix in (0..tree.len() as Ix).filter(|&ix| branch_record(ix)) {
            let Message::Custom { kind, data, .. } = entry(ix)?.message else {
                continue;
            };
            match Kind::parse(&kind, &data) {
                Ok(Kind::Branch { name, .. }) => {
                    live.insert(name, ix);
                }
                Ok(Kind::BranchDelete { name }) => {
                    if let Some(record) = live.remove(&name) {
                        deleted.push(Deleted { record, by: ix });
                    }
                }
                Ok(Kind::BranchRename { from, to }) => {
                    if let Some(record) = live.remove(&from) {
                        live.insert(to, record);
                    }
                }
                // Malformed records change nothing; fsck names them.
                _ => {}
            }
        }
        if live.is_empty() {
            return Ok(Refs {
                branches: Vec::new(),
                deleted,
            });
        }
        let newest = newest_below(tree);
        let branches = live
            .into_iter()
            .filter_map(|(name, record)| {
                let tip = newest[record as usize].or_else(|| tree.parent(record))?;
                Some(Branch { name, record, tip })
            })
            .collect();
        Ok(Refs { branches, deleted })
    }

    /// The live branch a `ysess.branch` record started.
    pub fn by_record(&self, record: Ix) -> Option<&Branch> {
        self.branches.iter().find(|b| b.record == record)
    }

    /// `(name, tip)` pairs, for revisions and decorations.
    pub fn pairs(&self) -> Vec<(String, Ix)> {
        self.branches
            .iter()
            .map(|b| (b.name.clone(), b.tip))
            .collect()
    }

    /// The live branch called `name`.
    pub fn get(&self, name: &str) -> Option<&Branch> {
        self.branches.iter().find(|b| b.name == name)
    }

    /// The branch the last line belongs to: the innermost branch whose
    /// record it hangs below.
    pub fn current(&self, tree: &Tree) -> Option<&Branch> {
        let mut cursor = tree.last();
        while let Some(ix) = cursor {
            if let Some(branch) = self.by_record(ix) {
                return Some(branch);
            }
            cursor = tree.raw_parent(ix);
        }
        None
    }
}

/// What names each entry, for decorations: HEAD, the labels that resolve to
/// it (the newest carrier of a name wins, as in yoagent; see
/// [`crate::tree::label_target`]), sorted, and branch names.
pub struct Names {
    /// HEAD, if any (it is decorated `HEAD`).
    pub head: Option<Ix>,
    labels: HashMap<Ix, Vec<String>>,
    branches: HashMap<Ix, Vec<String>>,
}

impl Names {
    /// The names of `tree`'s entries, with `head` and `branches` (name, tip).
    pub fn new(tree: &Tree, head: Option<Ix>, branches: &[(String, Ix)]) -> Names {
        let mut labels: HashMap<Ix, Vec<String>> = HashMap::new();
        for (name, ix) in tree.label_pairs() {
            labels.entry(ix).or_default().push(name.to_string());
        }
        let mut by_tip: HashMap<Ix, Vec<String>> = HashMap::new();
        for (name, ix) in branches {
            by_tip.entry(*ix).or_default().push(name.clone());
        }
        Names {
            head,
            labels,
            branches: by_tip,
        }
    }

    /// The labels that name entry `ix`, sorted.
    pub fn labels(&self, ix: Ix) -> &[String] {
        self.labels.get(&ix).map_or(&[], Vec::as_slice)
    }

    /// The branches whose tip is entry `ix`, sorted.
    pub fn branches(&self, ix: Ix) -> &[String] {
        self.branches.get(&ix).map_or(&[], Vec::as_slice)
    }
}

/// For each entry, the newest entry below it (itself included) that is not a
/// ysess record. Children come after their parents in file order, so one
/// backward pass carries every answer up in time.
pub fn newest_below(tree: &Tree) -> Vec<Option<Ix>> {
    let n = tree.len();
    let mut newest: Vec<Option<Ix>> = (0..n as Ix)
        .map(|ix| (!tree.is_record(ix)).then_some(ix))
        .collect();
    for ix in (0..n).rev() {
        if let (Some(parent), Some(mine)) = (tree.raw_parent(ix as Ix), newest[ix]) {
            let theirs = &mut newest[parent as usize];
            *theirs = Some(theirs.map_or(mine, |t| t.max(mine)));
        }
    }
    newest
}
