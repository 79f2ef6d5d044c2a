//! `ysess tag NAME [REV]` and `ysess tag -d NAME`: labels, by appending.

use std::path::Path;

use super::{Error, Refused, Store, append_records, open_for_records, row};
use crate::format::records::check_name;
use crate::view::Headline;

/// What [`set`] did.
#[derive(Debug)]
pub enum Set {
    /// The label now names `target`.
    Labelled {
        /// The entry it names.
        target: Headline,
    },
    /// `force` moved the label from the entry `from` (its short id).
    Moved {
        /// Where it was.
        from: String,
        /// The entry it names now.
        target: Headline,
    },
    /// The label already named `target`: nothing was written.
    Already {
        /// The entry it names.
        target: Headline,
    },
}

/// Why [`set`] refused, beyond what every operation may say.
#[derive(Debug)]
pub enum SetError {
    /// The label names another entry (its short id), and `force` was not
    /// given.
    Exists {
        /// The entry it names.
        on: String,
    },
}

/// Labels `rev` (HEAD when `None`) with `name`: the label on a record below
/// it, then, when it is not HEAD, a checkout record that puts the app's
/// head back where it was, in the same write. With `force`, a label that
/// names another entry moves (the newest carrier wins, as in yoagent).
pub fn set(
    path: &Path,
    name: &str,
    rev: Option<&str>,
    force: bool,
    refs: Option<&Store>,
) -> Result<Set, Refused<SetError>> {
    check_name(name).map_err(Error::Refused)?;
    let locked = open_for_records(path, refs)?;
    let repo = &locked.repo;
    let tree = &repo.tree;
    let head = tree.head().ok_or(Error::Empty("nothing to label"))?;
    let target = repo.resolve(rev.unwrap_or("HEAD"))?;
    crate::write::plan::check_free(tree, &repo.refs, name, false).map_err(Error::Refused)?;
    let was = tree.label(name);
    if let Some(on) = was.filter(|_| !force) {
        return Err(Refused::Own(SetError::Exists {
            on: tree.short_id(on).to_string(),
        }));
    }
    let target_row = row(repo, target);
    // Nothing to move: say so, and write nothing (as `checkout` to HEAD).
    if was == Some(target) {
        return Ok(Set::Already { target: target_row });
    }
    let from = was.map(|on| tree.short_id(on).to_string());
    let records = crate::write::plan::tag(repo, name, target, head);
    append_records(locked, &records)?;
    Ok(match from {
        Some(from) => Set::Moved {
            from,
            target: target_row,
        },
        None => Set::Labelled { target: target_row },
    })
}

/// What [`delete`] did: the entry the label was on, when it is an entry.
#[derive(Debug)]
pub struct Deleted {
    /// The entry the label named.
    pub was_on: Option<Headline>,
}

/// Why [`delete`] refused, beyond what every operation may say.
#[derive(Debug)]
pub enum DeleteError {
    /// No entry carries the label.
    NoLabel,
    /// The format has no way to take a label off by appending (yoagent):
    /// it lives on the entries that carry it.
    Permanent,
}

/// Takes `name` off the entries it names, where the format has a way to
/// say so by appending (pi's empty label change); yoagent has none, and
/// the refusal says so.
pub fn delete(
    path: &Path,
    name: &str,
    refs: Option<&Store>,
) -> Result<Deleted, Refused<DeleteError>> {
    let locked = open_for_records(path, refs)?;
    let repo = &locked.repo;
    if repo.tree.label(name).is_none() {
        return Err(Refused::Own(DeleteError::NoLabel));
    }
    let Some(records) = crate::write::plan::untag(repo, name).filter(|r| !r.is_empty()) else {
        return Err(Refused::Own(DeleteError::Permanent));
    };
    let was_on = records
        .first()
        .and_then(|r| repo.tree.find(&r.parent))
        .map(|ix| row(repo, ix));
    append_records(locked, &records)?;
    Ok(Deleted { was_on })
}
