//! A Claude Code session's subagents, in files of their own
//! (`<session>/subagents/agent-<id>.jsonl`, or `agent-<id>.jsonl` beside
//! the session in older versions): each one's account, and the tool result
//! in the session that brought its answer back (Claude Code records the
//! subagent's id there, in `toolUseResult.agentId`).

use std::io;
use std::path::{Path, PathBuf};

use hashbrown::HashMap;

use super::{Account, read};
use crate::format::{Format, MessageKind};
use crate::repo::Repo;
use crate::tree::Ix;

/// One subagent of a session, read from its own file.
#[derive(Debug, Clone)]
pub struct Subagent {
    /// Its id, as its file's name and the session's lines give it.
    pub id: String,
    /// Its file.
    pub file: PathBuf,
    /// What its turns used; `None` when its file cannot be read (`ysess
    /// fsck` on the file says why).
    pub account: Option<Account>,
    /// The tool result in the session that carries its answer, when the
    /// session names it.
    pub answer: Option<Ix>,
}

/// The subagents of the session `repo` read from `path`, sorted by id: none
/// for a format other than Claude Code's, or a subagent's own file.
pub fn of_session(repo: &Repo, path: &Path) -> io::Result<Vec<Subagent>> {
    if repo.format != Format::Claude {
        return Ok(Vec::new());
    }
    let files = crate::format::claude::subagent_files(path);
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let answers = answers(repo)?;
    Ok(files
        .into_iter()
        .map(|(id, file)| {
            let account = Repo::open(&file)
                .ok()
                .and_then(|sub| read(&sub).ok())
                .map(|facts| Account::of(&facts, 0..facts.len() as Ix));
            Subagent {
                answer: answers.get(&id).copied(),
                id,
                file,
                account,
            }
        })
        .collect())
}

/// Each subagent id the session's tool results name, with the result that
/// names it (the first, if several do).
fn answers(repo: &Repo) -> io::Result<HashMap<String, Ix>> {
    let tree = &repo.tree;
    let mut found = HashMap::new();
    for ix in 0..tree.len() as Ix {
        if tree.is_record(ix) || tree.node(ix).kind != MessageKind::ToolResult {
            continue;
        }
        let line = repo.line(ix)?;
        if memchr::memmem::find(&line, b"\"agentId\"").is_none() {
            continue;
        }
        let Ok(value) = serde_json::from_slice::<serde_json::Value>(&line) else {
            continue;
        };
        if let Some(id) = value
            .get("toolUseResult")
            .and_then(|r| r.get("agentId"))
            .and_then(serde_json::Value::as_str)
        {
            found.entry(id.to_string()).or_insert(ix);
        }
    }
    Ok(found)
}
