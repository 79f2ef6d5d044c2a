//! `ysess branch NAME [REV]`, `branch -d NAME`, `branch -m OLD NEW`: names
//! only, by appending records; entries stay.

use std::path::Path;

use super::{Error, Refused, Store, append_records, open_for_records, row};
use crate::format::records::{Kind, Record, check_name};
use crate::refs::Refs;
pub use crate::refs::listing::{Listed, Listing};
use crate::tree::Tree;
use crate::view::Headline;

/// Why a branch operation refused, beyond what every operation may say.
#[derive(Debug)]
pub enum BranchError {
    /// No branch has this name.
    NoBranch(String),
    /// A branch has this name already (`force` starts it again).
    Exists(String),
    /// The branch to delete is the one HEAD is on (`force` deletes it all
    /// the same); its tip's short id.
    HeadOnIt {
        /// The branch.
        name: String,
        /// The tip HEAD stays at.
        tip: String,
    },
}

/// What [`create`] did.
#[derive(Debug)]
pub struct Created {
    /// Where the branch starts.
    pub at: Headline,
    /// The name was in use and `force` started it again.
    pub reset: bool,
}

/// A branch `name` starting at `rev` (HEAD when `None`): a `ysess.branch`
/// record below it, then a checkout record that keeps the app's head where
/// it was (new work does not land on the new branch; `checkout -b` is for
/// that).
pub fn create(
    path: &Path,
    name: &str,
    rev: Option<&str>,
    force: bool,
    refs: Option<&Store>,
) -> Result<Created, Refused<BranchError>> {
    check_name(name).map_err(Error::Refused)?;
    let locked = open_for_records(path, refs)?;
    let repo = &locked.repo;
    let tree = &repo.tree;
    let head = tree.head().ok_or(Error::Empty("nothing to branch from"))?;
    let reset = repo.refs.get(name).is_some();
    if reset && !force {
        return Err(Refused::Own(BranchError::Exists(name.to_string())));
    }
    crate::write::plan::check_free(tree, &repo.refs, name, true).map_err(Error::Refused)?;
    let target = repo.resolve(rev.unwrap_or("HEAD"))?;
    let target_id = tree.id(target).to_string();
    let records = [
        Record {
            kind: Kind::Branch {
                name: name.to_string(),
                target: target_id.clone(),
            },
            parent: target_id,
        },
        crate::write::plan::stay(tree, head),
    ];
    let at = row(repo, target);
    append_records(locked, &records)?;
    Ok(Created { at, reset })
}

/// Deletes the branch `name` (its entries stay). The branch HEAD is on is
/// refused unless `force`, as git does.
pub fn delete(
    path: &Path,
    name: &str,
    force: bool,
    store: Option<&Store>,
) -> Result<(), Refused<BranchError>> {
    change(path, store, |refs, tree| {
        let branch = refs
            .get(name)
            .ok_or_else(|| Refused::Own(BranchError::NoBranch(name.to_string())))?;
        let on_it = refs
            .current(tree)
            .is_some_and(|b| b.name == *name && Some(b.tip) == tree.head());
        if on_it && !force {
            return Err(Refused::Own(BranchError::HeadOnIt {
                name: name.to_string(),
                tip: tree.short_id(branch.tip).to_string(),
            }));
        }
        Ok(Kind::BranchDelete {
            name: name.to_string(),
        })
    })
}

/// Renames the branch `from` to `to`.
pub fn rename(
    path: &Path,
    from: &str,
    to: &str,
    store: Option<&Store>,
) -> Result<(), Refused<BranchError>> {
    check_name(to).map_err(Error::Refused)?;
    change(path, store, |refs, tree| {
        refs.get(from)
            .ok_or_else(|| Refused::Own(BranchError::NoBranch(from.to_string())))?;
        if refs.get(to).is_some() {
            return Err(Refused::Own(BranchError::Exists(to.to_string())));
        }
        crate::write::plan::check_free(tree, refs, to, true).map_err(Error::Refused)?;
        Ok(Kind::BranchRename {
            from: from.to_string(),
            to: to.to_string(),
        })
    })
}

/// Deleting or renaming a branch touches names only: one record below the
/// last line, which leaves the app resuming where it did.
fn change(
    path: &Path,
    store: Option<&Store>,
    make: impl FnOnce(&Refs, &Tree) -> Result<Kind, Refused<BranchError>>,
) -> Result<(), Refused<BranchError>> {
    let locked = open_for_records(path, store)?;
    let tree = &locked.repo.tree;
    // The name is checked first: on an empty session, too, the answer is
    // that there is no such branch.
    let kind = make(&locked.repo.refs, tree)?;
    let head = tree.head().ok_or(Error::Empty("it has no branches"))?;
    // Below the last line as it is, so work appended later stays on the
    // branch it was on.
    let parent = tree.id(tree.last().unwrap_or(head)).to_string();
    append_records(locked, &[Record { kind, parent }])?;
    Ok(())
}
