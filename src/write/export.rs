//! `export --session`: one path of a session as a session of its own, which
//! yoagent's `Session::from_jsonl` loads and resumes at the path's end.

use std::io;

use serde_json::Value;

use crate::format::records::{Kind, Record};
use crate::format::yoagent::counter_number;
use crate::repo::Repo;
use crate::tree::Ix;

/// `export` (the default): the messages on the path root→`target`, as
/// stored, custom messages left out (a model never sees them); none for an
/// empty session. Where the format's app resumes less than the whole path
/// (Claude Code after a compaction), only what it resumes.
pub fn path_messages(repo: &Repo, target: Option<Ix>) -> io::Result<Vec<Value>> {
    let path = target.map(|t| repo.tree.path(t)).unwrap_or_default();
    let mut lines = Vec::with_capacity(path.len());
    for &ix in &path {
        lines.push(Some(repo.line_bytes(ix)?));
    }
    let sent = {
        let borrowed: Vec<&[u8]> = lines.iter().flatten().map(|l| l.as_ref()).collect();
        repo.format.resumed(&borrowed)
    };
    let mut messages = Vec::new();
    for sent in sent {
        let i = match sent {
            crate::format::Sent::Entry(i) => i,
            crate::format::Sent::Message(m) => {
                messages.push(m);
                continue;
            }
        };
        // A line's bytes go as its message is made.
        let line = match lines[i].take() {
            Some(line) => line,
            None => repo.line_bytes(path[i])?,
        };
        let entry = repo.entry_from(path[i], &line)?;
        if matches!(
            entry.message,
            crate::format::message::Message::Custom { .. }
        ) {
            messages.extend(repo.format.custom_sent(&entry));
        } else {
            messages.push(entry.message_value);
        }
    }
    Ok(repo.format.as_sent(messages))
}

/// [`path_messages`], and before them the conversation the session's file
/// continues, where its app resumes one file after another (a forked Codex
/// rollout after its parent's first lines, found beside it); the parent's
/// own parent first, and so on (at most 64 files deep).
pub fn resumed_messages(
    repo: &Repo,
    target: Option<Ix>,
    file: Option<&std::path::Path>,
) -> io::Result<Vec<Value>> {
    let own = path_messages(repo, target)?;
    let Some(file) = file else {
        return Ok(own);
    };
    let mut chain = Vec::new();
    let mut at = file.to_path_buf();
    while let Some((parent, lines)) = repo.format.continues(&at) {
        if chain.len() == 64 || chain.iter().any(|(p, _)| *p == parent) {
            break;
        }
        at = parent.clone();
        chain.push((parent, lines));
    }
    let mut messages = Vec::new();
    for (parent, lines) in chain.iter().rev() {
        let earlier = match Repo::open(parent, &crate::repo::Open::default()) {
            Ok(r) => r,
            Err(crate::repo::LoadError::Io(e)) => return Err(e),
            Err(e) => return Err(io::Error::other(format!("{}: {e}", parent.display()))),
        };
        // The parent as its app resumes it at its last entry among those
        // first lines (a compaction in it counts too).
        let last = earlier.tree.head().and_then(|head| {
            earlier
                .tree
                .path(head)
                .into_iter()
                .rfind(|&ix| earlier.format.within_lines(earlier.tree.id(ix), *lines))
        });
        messages.extend(path_messages(&earlier, last)?);
    }
    messages.extend(own);
    Ok(messages)
}

/// Why `export --session` cannot write the session: `None` when it can
/// (a yoagent session); else what it is.
pub fn session_refusal(repo: &Repo) -> Option<String> {
    (!repo.format.yoagent_lines()).then(|| {
        format!(
            "export --session writes a yoagent session; this is a {} session",
            repo.format.name()
        )
    })
}

/// One line of the exported session.
pub enum Line {
    /// An entry of the path, as yoagent writes it, re-parented onto the one
    /// before it.
    Entry(Value),
    /// A ysess record that carries a label or keeps the head at the end.
    Record(String),
}

/// The lines of a session holding only the path root→`target`, handed to
/// `emit` one at a time (the path is never held whole). Every label that
/// names an entry of the path goes with it, however it was set (in place, or
/// by `ysess tag`), so that `seek_checkpoint` finds it in the export too;
/// labels that name entries off the path stay behind. `now_ms` times the
/// records.
pub fn path_session(
    repo: &Repo,
    target: Ix,
    now_ms: u64,
    mut emit: impl FnMut(Line) -> io::Result<()>,
) -> io::Result<()> {
    let tree = &repo.tree;
    let path = tree.path(target);
    let mut labels: hashbrown::HashMap<Ix, Vec<&str>> = hashbrown::HashMap::new();
    for name in tree.label_names() {
        if let Some(ix) = tree.label(name) {
            labels.entry(ix).or_default().push(name);
        }
    }
    let mut parent: Option<String> = None;
    let mut more: Vec<(String, &str)> = Vec::new();
    for &ix in &path {
        let entry = repo.entry(ix)?;
        let mut names = labels.remove(&ix).unwrap_or_default();
        // The entry's own label first, when it still names the entry.
        if let Some(own) = entry.label.as_deref() {
            names.sort_by_key(|&n| n != own);
        }
        let mut raw = entry.canonical();
        raw["parent_id"] = parent.map_or(Value::Null, Value::String);
        match names.split_first() {
            Some((first, rest)) => {
                raw["label"] = Value::String((*first).to_string());
                more.extend(rest.iter().map(|&n| (tree.id(ix).to_string(), n)));
            }
            None => {
                if let Some(map) = raw.as_object_mut() {
                    map.remove("label");
                }
            }
        }
        emit(Line::Entry(raw))?;
        parent = Some(tree.id(ix).to_string());
    }
    // An entry holds one label; any more are carried as ysess does, by tag
    // records, and a checkout record keeps the head at the end.
    let (false, Some(&last)) = (more.is_empty(), path.last()) else {
        return Ok(());
    };
    let mut next = path
        .iter()
        .filter_map(|&ix| counter_number(tree.id(ix)))
        .max()
        .unwrap_or(0);
    let mut records: Vec<Record> = more
        .into_iter()
        .map(|(target, name)| Record {
            kind: Kind::Tag {
                name: name.to_string(),
                target: target.clone(),
            },
            parent: target,
        })
        .collect();
    let last = tree.id(last).to_string();
    records.push(Record {
        kind: Kind::Checkout {
            target: last.clone(),
        },
        parent: last,
    });
    for record in records {
        next = next.saturating_add(1);
        emit(Line::Record(record.line(&format!("e{next}"), now_ms)))?;
    }
    Ok(())
}
