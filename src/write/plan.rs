//! What to append for a change: the ids new entries get, where they hang,
//! and the records that keep HEAD where it was.

use crate::format::records::{Kind, Record};
use crate::refs::{Refs, newest_below};
use crate::repo::Repo;
use crate::tree::{Ix, Tree};

/// Ids for `count` new entries, as the file's own app makes them: yoagent's
/// `append` numbers them `e<N+1>`…, pi draws 8 hex digits not in the file.
/// ysess's records kept beside another app's file are `ysess:N` in the refs
/// store. `None` when a yoagent session already has an id `e<N>` with the
/// largest N there is.
pub fn new_ids(repo: &Repo, count: usize) -> Option<Vec<String>> {
    let spec = repo.format.spec();
    if spec.writable() {
        return spec.new_ids(repo, count);
    }
    // ysess's records beside the app's file: `ysess:N` in the refs store.
    let first = match repo.stored_refs() {
        Some(refs) => refs.next_number()?,
        None => 1,
    };
    first.checked_add(count.saturating_sub(1) as u64)?;
    Some(
        (0..count as u64)
            .map(|k| format!("{}{}", crate::refs::store::ID_PREFIX, first + k))
            .collect(),
    )
}

/// The lines that write `records` (with `ids`) into the session, in its
/// format, timed `now_ms`; `None` for a format ysess does not write.
pub fn lines(repo: &Repo, records: &[Record], ids: &[String], now_ms: u64) -> Option<Vec<String>> {
    let spec = repo.format.spec();
    if spec.writable() {
        return spec.record_lines(repo, records, ids, now_ms);
    }
    // In the refs store, never before a record already written (a shorter
    // copy of the session may have been read).
    let at = repo.app_end()?.max(
        repo.stored_refs()
            .map_or(0, crate::refs::store::Refs::last_at),
    );
    Some(
        records
            .iter()
            .zip(ids)
            .map(|(r, id)| crate::refs::store::record_line(r, id, now_ms, at))
            .collect(),
    )
}

/// The records that label `target` as `name` while HEAD stays where it is.
/// yoagent: a tag record hung below the target (which `seek_checkpoint`
/// finds), then, unless it hangs below the last line, a checkout record
/// that puts the head back; the same in the refs kept beside an app's file.
/// pi: one label change (pi's `label` entry), which never moves what pi
/// resumes with.
pub fn tag(repo: &Repo, name: &str, target: Ix, head: Ix) -> Vec<Record> {
    let tree = &repo.tree;
    let target_id = tree.id(target).to_string();
    let tag = Record {
        kind: Kind::Tag {
            name: name.to_string(),
            target: target_id.clone(),
        },
        parent: target_id,
    };
    if repo.format.spec().labels_in_place() || tree.last() == Some(target) {
        vec![tag]
    } else {
        vec![tag, stay(tree, head)]
    }
}

/// The records that take label `name` off every entry it names, where the
/// format allows it (pi: a label change with an empty label); `None` for
/// yoagent, whose labels live on the entries that carry them.
pub fn untag(repo: &Repo, name: &str) -> Option<Vec<Record>> {
    if !repo.format.spec().labels_in_place() {
        return None;
    }
    let tree = &repo.tree;
    Some(
        tree.label_pairs()
            .into_iter()
            .filter(|&(n, _)| n == name)
            .map(|(_, on)| Record {
                // No name: the entry's label cleared.
                kind: Kind::Tag {
                    name: String::new(),
                    target: tree.id(on).to_string(),
                },
                parent: tree.id(on).to_string(),
            })
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
