//! What Codex sends its model when it resumes a rollout.
//!
//! A forked rollout (`codex exec fork`, `codex fork`): Codex 0.169 writes
//! the fork's own lines only, and names where its history comes from in
//! the `session_meta` line: `forked_from_id` (the parent session) and
//! `forked_from_ordinal_exclusive` (how many of the parent rollout's lines
//! come first). Resuming the fork, Codex sends its model the parent's
//! conversation up to there, then the fork's (measured by the agent tests).

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Where a forked rollout's history begins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fork {
    /// The parent session's id.
    pub parent: String,
    /// How many of the parent rollout's lines come before the fork's own.
    pub lines: u64,
}

/// The fork a rollout's first line (its `session_meta`) declares, if any.
pub fn fork_of(first_line: &[u8]) -> Option<Fork> {
    let v: Value = serde_json::from_slice(first_line).ok()?;
    if v["type"] != "session_meta" {
        return None;
    }
    let meta = &v["payload"];
    let parent = meta["forked_from_id"].as_str()?.to_string();
    let lines = meta["forked_from_ordinal_exclusive"]
        .as_u64()
        .unwrap_or(u64::MAX);
    Some(Fork { parent, lines })
}

/// The rollout of session `id` among the rollouts beside `file`: Codex keeps
/// them under `sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, so the
/// folder three levels up from `file` is searched (and, when `file` is not
/// so placed, its own folder).
pub fn rollout_of(file: &Path, id: &str) -> Option<PathBuf> {
    let folder = file.parent()?;
    let root = folder
        .ancestors()
        .nth(3)
        .filter(|r| r.file_name().is_some_and(|n| n == "sessions"))
        .unwrap_or(folder);
    let suffix = format!("-{id}.jsonl");
    let mut found = None;
    let walk = ignore::WalkBuilder::new(root)
        .standard_filters(false)
        .max_depth(Some(4))
        .build();
    for entry in walk.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy();
        if name.starts_with("rollout-") && name.ends_with(&suffix) {
            let path = entry.into_path();
            if found.as_ref().is_none_or(|f: &PathBuf| path < *f) {
                found = Some(path);
            }
        }
    }
    found
}

/// Whether an entry named by its line (`line<N>`, counted from 1) is among
/// the first `lines` lines of its rollout.
pub fn within(id: &str, lines: u64) -> bool {
    id.strip_prefix("line")
        .and_then(|n| n.parse::<u64>().ok())
        .is_some_and(|n| n <= lines)
}

/// The rollout `file` continues and how many of its lines come first, when
/// `file` is a fork whose parent is still beside it.
pub fn continues(file: &Path) -> Option<(PathBuf, u64)> {
    use std::io::{BufRead as _, Read as _};
    let mut first = Vec::new();
    let f = std::fs::File::open(file).ok()?;
    std::io::BufReader::new(f)
        .take(1 << 20)
        .read_until(b'\n', &mut first)
        .ok()?;
    let fork = fork_of(first.trim_ascii_end())?;
    let parent = rollout_of(file, &fork.parent)?;
    (parent != file).then_some((parent, fork.lines))
}

/// What Codex sends its model for a path's lines (root first) when it
/// resumes at its end, measured with Codex 0.169.0 (the agent tests'
/// `compact`, and the hand-built rollout of an older shape):
/// - after a `compacted` line that carries the history it replaced the
///   conversation with (`replacement_history`, Codex 0.169), that history,
///   then the entries after the line; the compaction's own reply (the
///   summary the model wrote, before the line) is not sent again;
/// - after a `compacted` line of an older shape (its summary only), the
///   user's messages before it (not the context Codex injected), the
///   summary as the user's, then the entries after it;
/// - a path without a compaction, whole.
pub fn resumed(path: &[&[u8]]) -> Vec<crate::format::Sent> {
    use crate::format::Sent;
    let parsed = |line: &[u8]| serde_json::from_slice::<Value>(line).ok();
    // Only a line that names the type is read whole.
    let last = path.iter().enumerate().rev().find_map(|(i, line)| {
        memchr::memmem::find(line, b"\"compacted\"")?;
        let v = parsed(line)?;
        (v["type"] == "compacted").then_some((i, v))
    });
    let Some((at, compacted)) = last else {
        return (0..path.len()).map(Sent::Entry).collect();
    };
    let payload = &compacted["payload"];
    let before: Vec<Sent> = match payload["replacement_history"].as_array() {
        Some(history) => history.iter().cloned().map(Sent::Message).collect(),
        None => {
            let users = (0..at).filter(|&i| {
                parsed(path[i]).is_some_and(|v| {
                    let p = &v["payload"];
                    v["type"] == "response_item"
                        && p["type"] == "message"
                        && p["role"] == "user"
                        && !injected(p)
                })
            });
            let summary = payload["message"].as_str().unwrap_or_default();
            users
                .map(Sent::Entry)
                .chain(std::iter::once(Sent::Message(serde_json::json!({
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": summary}],
                }))))
                .collect()
        }
    };
    before
        .into_iter()
        .chain((at + 1..path.len()).map(Sent::Entry))
        .collect()
}

/// A user message Codex injects (its environment, the project's
/// instructions), not the user's own: markup that is context only, as
/// [`crate::format::markup`] reads it for every view.
fn injected(payload: &Value) -> bool {
    use crate::format::markup;
    payload["content"]
        .as_array()
        .and_then(|c| c.first())
        .and_then(|c| c["text"].as_str())
        .and_then(markup::read)
        .is_some_and(|pieces| markup::only_context(&pieces))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fork_names_its_parent_and_where_it_left() {
        let line = br#"{"type":"session_meta","payload":{"id":"b","forked_from_id":"a","forked_from_ordinal_exclusive":28}}"#;
        assert_eq!(
            fork_of(line),
            Some(Fork {
                parent: "a".into(),
                lines: 28
            })
        );
        assert_eq!(
            fork_of(br#"{"type":"session_meta","payload":{"id":"a"}}"#),
            None
        );
        assert!(within("line28", 28) && !within("line29", 28) && !within("e1", 28));
    }
}
