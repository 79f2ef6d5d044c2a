//! A Claude Code session's subagents, in files of their own
//! (`<session>/subagents/agent-<id>.jsonl`, or `agent-<id>.jsonl` beside
//! the session in older versions): each one's account, and the tool result
//! in the session that brought its answer back (Claude Code records the
//! subagent's id there, in `toolUseResult.agentId`).

use std::io;
use std::path::{Path, PathBuf};

use hashbrown::HashMap;

use super::{Account, read};
use crate::format::MessageKind;
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
    let files = repo.format.spec().subagent_files(path);
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let answers = answers(repo)?;
    Ok(files
        .into_iter()
        .map(|(id, file)| Subagent {
            answer: answers.get(&id).copied(),
            account: account_of(&file),
            id,
            file,
        })
        .collect())
}

/// The subagent whose answer the tool result `ix` carries, as
/// [`of_session`] pairs them (the first result that names a subagent
/// carries it); only that subagent's file is read.
pub fn answered_by(repo: &Repo, path: &Path, ix: Ix) -> io::Result<Option<Subagent>> {
    let tree = &repo.tree;
    if !repo.format.spec().folds_subagent_turns()
        || tree.is_record(ix)
        || tree.node(ix).kind != MessageKind::ToolResult
    {
        return Ok(None);
    }
    let Some(id) = agent_of(&repo.line_bytes(ix)?) else {
        return Ok(None);
    };
    let Some((id, file)) = repo
        .format
        .spec()
        .subagent_files(path)
        .into_iter()
        .find(|(named, _)| *named == id)
    else {
        return Ok(None);
    };
    if answers(repo)?.get(&id) != Some(&ix) {
        return Ok(None);
    }
    Ok(Some(Subagent {
        account: account_of(&file),
        answer: Some(ix),
        id,
        file,
    }))
}

/// The facts of every entry of a subagent's file (as [`read`] gives them);
/// `None` when it cannot be read (`ysess fsck` on the file says why).
pub fn facts_of(file: &Path) -> Option<Vec<Option<super::Facts>>> {
    Repo::open(file, &crate::repo::Open::default())
        .ok()
        .and_then(|sub| read(&sub).ok())
}

/// What a subagent's file used, all of it.
fn account_of(file: &Path) -> Option<Account> {
    facts_of(file).map(|facts| Account::of(&facts, 0..facts.len() as Ix))
}

/// The subagent id a tool result's line names (`toolUseResult.agentId`).
fn agent_of(line: &[u8]) -> Option<String> {
    memchr::memmem::find(line, b"\"agentId\"")?;
    let value = serde_json::from_slice::<serde_json::Value>(line).ok()?;
    value
        .get("toolUseResult")?
        .get("agentId")?
        .as_str()
        .map(str::to_string)
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
        if let Some(id) = agent_of(&repo.line_bytes(ix)?) {
            found.entry(id).or_insert(ix);
        }
    }
    Ok(found)
}
