//! `ysess append`: messages appended to a yoagent session as yoagent's own
//! `append` writes them, each checked to load in yoagent first.

use std::path::Path;

use serde_json::{Value, json};

use super::{Error, Refused, now_ms, open};
use crate::format::records::check_name;
use crate::format::{Checked, Format, yoagent::check_line};
use crate::write::Create;

/// What to append.
pub struct Append<'a> {
    /// The messages, as yoagent's `AgentMessage` JSON.
    pub messages: Vec<Value>,
    /// Where the first one hangs (a revision); `None`: below the last line.
    pub parent: Option<&'a str>,
    /// A label for the last one.
    pub label: Option<&'a str>,
    /// A missing or empty file is a new session.
    pub create: bool,
}

/// Why [`append`] refused, beyond what every operation may say.
#[derive(Debug)]
pub enum AppendError {
    /// The session is not yoagent's: its app appends its own messages.
    NotYoagent(Format),
    /// The label names an entry already.
    LabelInUse(String),
    /// Message `n` (from 1) would not load in yoagent: why.
    Invalid {
        /// Which message, from 1.
        n: usize,
        /// What yoagent would refuse.
        why: String,
    },
    /// Message `n` (from 1) is a custom message of one of ysess's own
    /// record kinds, which would move HEAD, labels or branches.
    Reserved {
        /// Which message, from 1.
        n: usize,
        /// Its kind.
        kind: String,
    },
}

/// Refuses a label no one could name (checked before anything is read).
pub fn check_label(label: &str) -> Result<(), Error> {
    check_name(label).map_err(Error::Refused)
}

/// Appends the messages in one write, each the child of the one before;
/// returns their ids.
pub fn append(path: &Path, what: Append<'_>) -> Result<Vec<String>, Refused<AppendError>> {
    if let Some(label) = what.label {
        check_label(label)?;
    }
    let create = if what.create {
        Create::Allowed
    } else {
        Create::No
    };
    let locked = open(path, create)?;
    let repo = &locked.repo;
    if !repo.format.yoagent_lines() {
        return Err(Refused::Own(AppendError::NotYoagent(repo.format)));
    }
    let tree = &repo.tree;
    let mut parent = match what.parent {
        Some(rev) => {
            let target = repo.resolve(rev)?;
            Some(crate::write::plan::attach_point(
                tree,
                &repo.refs,
                Some(rev),
                target,
            ))
        }
        // Below the last line, as yoagent's own append (a ysess record on a
        // branch included, so the work stays on it).
        None => tree.last(),
    }
    .map(|ix| tree.id(ix).to_string());
    if let Some(label) = what.label {
        crate::write::plan::check_free(tree, &repo.refs, label, false).map_err(Error::Refused)?;
        if tree.label(label).is_some() {
            return Err(Refused::Own(AppendError::LabelInUse(label.to_string())));
        }
    }
    let ids = crate::write::plan::new_ids(repo, what.messages.len()).ok_or(Error::NoIds)?;
    let now = now_ms();
    let mut lines = Vec::with_capacity(ids.len());
    for (k, (message, id)) in what.messages.into_iter().zip(&ids).enumerate() {
        let label = what.label.filter(|_| k + 1 == ids.len());
        let line = entry_line(k + 1, &message, id, parent.as_deref(), label, now)?;
        lines.push(line);
        parent = Some(id.clone());
    }
    locked.append(&lines).map_err(Error::Append)?;
    Ok(ids)
}

/// Message `n`'s line, as yoagent writes it (so an app's save keeps it as
/// is), checked as fsck checks: it must load in yoagent, before and after.
fn entry_line(
    n: usize,
    message: &Value,
    id: &str,
    parent: Option<&str>,
    label: Option<&str>,
    now: u64,
) -> Result<String, Refused<AppendError>> {
    let line = |message: &Value| {
        let mut entry =
            json!({"id": id, "parent_id": parent, "message": message, "timestamp": now});
        if let Some(label) = label {
            entry["label"] = json!(label);
        }
        entry.to_string()
    };
    let check = |line: &str| match check_line(line.as_bytes(), false) {
        Checked::Fault { fault, .. } => Err(Refused::Own(AppendError::Invalid {
            n,
            why: fault.message,
        })),
        _ => Ok(()),
    };
    check(&line(message))?;
    let llm = crate::format::yoagent::schema::is_llm_message(message);
    // The `ysess.` kinds are ysess's own bookkeeping: a message that forged
    // one would move HEAD, labels or branches behind the user's back.
    if let Some(kind) = message
        .get("kind")
        .and_then(Value::as_str)
        .filter(|k| !llm && crate::format::records::is_ysess_kind(k))
    {
        return Err(Refused::Own(AppendError::Reserved {
            n,
            kind: kind.to_string(),
        }));
    }
    let role = crate::format::yoagent::entry::stored_role(message, llm)
        .unwrap_or_default()
        .to_string();
    let stored = line(&crate::format::yoagent::canonical::message(
        message, llm, &role,
    ));
    check(&stored)?;
    Ok(stored)
}
