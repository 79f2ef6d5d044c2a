//! What to append for a change: the ids new entries get, where they hang,
//! and the records that keep HEAD where it was.

use crate::format::yoagent::records::{Kind, Record};
use crate::refs::{Refs, newest_below};
use crate::repo::Repo;
use crate::tree::{Ix, Tree};

/// Ids for `count` new entries, as yoagent's `append` would number them;
/// `None` when the session already has an id `e<N>` with the largest N
/// there is.
pub fn new_ids(repo: &Repo, count: usize) -> Option<Vec<String>> {
    let first = repo.next_number()?;
    first.checked_add(count.saturating_sub(1) as u64)?;
    Some(
        (0..count as u64)
            .map(|k| format!("e{}", first + k))
            .collect(),
    )
}

/// Where new entries for REV hang: REV itself, except that the name of a
/// branch with no work yet means the branch's own record, so that the work
/// lands on the branch.
pub fn attach_point(tree: &Tree, refs: &Refs, rev: Option<&str>, target: Ix) -> Ix {
    match rev.and_then(|name| refs.get(name)) {
        Some(branch) if newest_below(tree)[branch.record as usize].is_none() => branch.record,
        _ => target,
    }
}

/// Refuses a name that already names something else: branch and label names
/// share one namespace in revisions, so a clash would make one unreachable.
pub fn check_free(tree: &Tree, refs: &Refs, name: &str, for_branch: bool) -> Result<(), String> {
    if tree.find(name).is_some() {
        return Err(format!("'{name}' is already an entry id"));
    }
    if for_branch && tree.label(name).is_some() {
        return Err(format!("'{name}' is already a label"));
    }
    if !for_branch && refs.get(name).is_some() {
        return Err(format!("'{name}' is already a branch"));
    }
    Ok(())
}

/// The checkout record that puts yoagent's head back where it is now, after
/// other records moved it: it hangs from the current last line's entry (a
/// record on a branch included), so work appended later lands where it
/// would have, on the same branch.
pub fn stay(tree: &Tree, head: Ix) -> Record {
    let at = tree.last().unwrap_or(head);
    Record {
        kind: Kind::Checkout {
            target: tree.id(head).to_string(),
        },
        parent: tree.id(at).to_string(),
    }
}
