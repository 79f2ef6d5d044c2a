//! `ysess checkout REV`, `checkout -b NAME [REV]`, `checkout -`: HEAD
//! moves by one appended record.

use std::path::Path;

use super::{Error, Refused, Store, append_records, open_for_records, row};
use crate::format::records::{Kind, Record, check_name};
use crate::refs::Refs;
use crate::tree::Tree;
use crate::view::Headline;

/// What [`checkout`] did.
#[derive(Debug)]
pub enum Checkout {
    /// HEAD was there already: nothing was written.
    Already {
        /// Where HEAD is.
        at: Headline,
    },
    /// HEAD is now at an entry.
    Moved {
        /// Where HEAD is.
        at: Headline,
    },
    /// HEAD is now on the branch it was asked for by name.
    Branch {
        /// The branch.
        name: String,
        /// Its tip, where HEAD is.
        at: Headline,
    },
    /// `-b`: a new branch, with HEAD on it.
    NewBranch {
        /// The branch.
        name: String,
        /// Where it starts, and HEAD is.
        at: Headline,
    },
}

/// Why [`checkout`] refused, beyond what every operation may say.
#[derive(Debug)]
pub enum CheckoutError {
    /// Neither a revision nor `-b NAME` was given.
    NoRevision,
    /// `checkout -`, and ysess has recorded no HEAD move.
    NoPrevious,
    /// `-b NAME`, and a branch has that name: `at` is where it was asked
    /// to start (the revision as typed, or `HEAD`).
    BranchExists {
        /// The branch.
        name: String,
        /// The revision as typed.
        at: String,
    },
}

/// Moves HEAD to `rev` (`-` for where it was before the last move), or,
/// with `branch`, starts a branch there and puts HEAD on it. Checking out
/// a branch by name keeps new work on it.
pub fn checkout(
    path: &Path,
    rev: Option<&str>,
    branch: Option<&str>,
    store: Option<&Store>,
) -> Result<Checkout, Refused<CheckoutError>> {
    let locked = open_for_records(path, store)?;
    let repo = &locked.repo;
    let (tree, refs) = (&repo.tree, &repo.refs);
    let head = tree.head();
    if rev.is_some() || branch.is_some() {
        head.ok_or(Error::Empty("nothing to check out"))?;
    }
    let back = match rev {
        Some("-") => Some(previous(tree, refs)?),
        _ => None,
    };
    let rev = back.as_deref().or(rev);
    let target = match (rev, branch) {
        (Some(rev), _) => repo.resolve(rev)?,
        (None, Some(_)) => repo.resolve("HEAD")?,
        (None, None) => return Err(Refused::Own(CheckoutError::NoRevision)),
    };
    let target_id = tree.id(target).to_string();
    let record = match branch {
        Some(name) => {
            check_name(name).map_err(Error::Refused)?;
            if refs.get(name).is_some() {
                return Err(Refused::Own(CheckoutError::BranchExists {
                    name: name.to_string(),
                    at: rev.unwrap_or("HEAD").to_string(),
                }));
            }
            crate::write::plan::check_free(tree, refs, name, true).map_err(Error::Refused)?;
            Record {
                kind: Kind::Branch {
                    name: name.to_string(),
                    target: target_id.clone(),
                },
                parent: target_id,
            }
        }
        None if head == Some(target)
            && rev.and_then(|name| refs.get(name)).is_none_or(|b| {
                refs.current(tree)
                    .is_some_and(|current| current.name == b.name)
            }) =>
        {
            return Ok(Checkout::Already {
                at: row(repo, target),
            });
        }
        None => {
            // Checking out a branch keeps new work on it: hang the record
            // from the branch's tip when that is below the branch's own
            // record, else from the record itself (a branch with no work
            // yet).
            let parent = tree
                .id(crate::write::plan::attach_point(tree, refs, rev, target))
                .to_string();
            Record {
                kind: Kind::Checkout { target: target_id },
                parent,
            }
        }
    };
    let at = row(repo, target);
    // A branch checked out by its name, as git says it.
    let by_name = rev
        .filter(|name| refs.get(name).is_some() && tree.find(name).is_none())
        .map(str::to_string);
    append_records(locked, &[record])?;
    Ok(match (branch, by_name) {
        (Some(name), _) => Checkout::NewBranch {
            name: name.to_string(),
            at,
        },
        (None, Some(name)) => Checkout::Branch { name, at },
        (None, None) => Checkout::Moved { at },
    })
}

/// Where `checkout -` goes: the branch HEAD was on before the last move,
/// by name while it lives, else the entry HEAD was at.
fn previous(tree: &Tree, refs: &Refs) -> Result<String, Refused<CheckoutError>> {
    let moves = crate::refs::reflog::moves(tree);
    let last = moves
        .last()
        .ok_or(Refused::Own(CheckoutError::NoPrevious))?;
    let branch = last
        .from_branch
        .and_then(|record| refs.by_record(record))
        .filter(|b| tree.find(&b.name).is_none());
    Ok(match branch {
        Some(b) => b.name.clone(),
        None => tree.id(last.from).to_string(),
    })
}
