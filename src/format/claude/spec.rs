//! Claude Code's answers to what depends on the format ([`Spec`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{TYPES, is_claude_line};
use crate::format::handoff::{At, Handoff, Refusal, is_uuid};
use crate::format::message::{Entry, Message, NotAnEntry};
use crate::format::spec::{HeadFacts, Spec, UsageAt};
use crate::format::{Checked, LineFacts, Sent};

/// Claude Code's session files, read only.
pub struct Claude;

impl Spec for Claude {
    fn name(&self) -> &'static str {
        "claude"
    }

    fn app(&self) -> &'static str {
        "Claude Code"
    }

    fn about(&self) -> &'static str {
        "Claude Code's session files (read only)"
    }

    /// A line of Claude Code's own shape among the first: an entry with a
    /// `uuid` and a `sessionId`, or one of its housekeeping lines.
    fn owns_line(&self, line: &[u8]) -> bool {
        is_claude_line(line)
    }

    fn check_line<'a>(&self, bytes: &'a [u8], subject: bool, _tally: bool) -> Checked<'a> {
        super::check_line(bytes, subject)
    }

    fn entry(&self, line: &[u8]) -> Result<Entry, NotAnEntry> {
        super::entry(line)
    }

    fn is_record(&self, facts: &LineFacts<'_>) -> bool {
        super::is_record(facts)
    }

    fn unknown_type(&self, facts: &LineFacts<'_>) -> bool {
        facts.custom_type_outside(&TYPES)
    }

    /// Claude Code 2.1.328 writes a compaction's summary a millisecond
    /// before its boundary, and the caveat of the command after it earlier
    /// still (seen in the sessions it writes in the agent tests).
    fn orders_times(&self) -> bool {
        false
    }

    fn usage_at(&self) -> UsageAt {
        UsageAt::Api
    }

    fn splits_replies(&self) -> bool {
        true
    }

    fn subagent_files(&self, path: &Path) -> Vec<(String, PathBuf)> {
        super::subagent_files(path)
    }

    /// The subagents' files, and every file of the session's own folder
    /// (`<session>/`): the subagents' `agent-<id>.meta.json`, and the
    /// outputs too large to keep in a line, which Claude Code saves under
    /// `<session>/tool-results/` and the session points to.
    fn kept_with(&self, path: &Path) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = super::subagent_files(path)
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        // Claude Code names a session by a UUID: a folder beside another
        // app's file is not taken for its.
        let uuid = path.file_stem().and_then(|s| s.to_str()).is_some_and(|s| {
            s.len() == 36
                && s.char_indices().all(|(i, c)| match i {
                    8 | 13 | 18 | 23 => c == '-',
                    _ => c.is_ascii_hexdigit(),
                })
        });
        if uuid && path.extension().is_some_and(|x| x == "jsonl") {
            files_under(&path.with_extension(""), &mut files);
        }
        files.sort();
        files.dedup();
        files
    }

    /// `<session>/subagents/agent-<id>.jsonl`.
    fn is_subagent_file(&self, path: &Path) -> bool {
        path.parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "subagents")
    }

    fn folds_subagent_turns(&self) -> bool {
        true
    }

    /// Claude Code names the file by its session's id; the lines of a
    /// resumed session begin with the id of the one it resumes, so only
    /// the working directory is taken from the first line with a `cwd`.
    fn head_facts(&self, v: &Value) -> Option<HeadFacts> {
        let cwd = v.get("cwd")?;
        Some((None, cwd.as_str().map(str::to_string)))
    }

    /// `projects/` in every folder of `$CLAUDE_CONFIG_DIR` (a
    /// comma-separated list), else `~/.claude/projects` and
    /// `~/.config/claude/projects`.
    fn session_dirs(
        &self,
        var: &dyn Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Vec<PathBuf> {
        match var("CLAUDE_CONFIG_DIR") {
            Some(list) => list
                .to_string_lossy()
                .split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(|d| crate::format::spec::expand(d.into(), home).join("projects"))
                .collect(),
            None => [".claude/projects", ".config/claude/projects"]
                .into_iter()
                .filter_map(|rel| home.map(|h| h.join(rel)))
                .collect(),
        }
    }

    /// Claude Code names a session's file by its id: a file stem that is a
    /// UUID is the id; a file renamed or copied under another name is known
    /// by the `sessionId` its last lines carry.
    fn session_id(
        &self,
        path: &Path,
        _first_line: &mut dyn FnMut() -> Vec<u8>,
        last_lines: &mut dyn FnMut() -> Vec<u8>,
    ) -> Option<String> {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if is_uuid(stem) {
            return Some(stem.to_string());
        }
        let tail = last_lines();
        tail.split(|&b| b == b'\n').rev().find_map(|line| {
            memchr::memmem::find(line, b"\"sessionId\"")?;
            let v: Value = serde_json::from_slice(line).ok()?;
            let id = v.get("sessionId")?.as_str()?;
            is_uuid(id).then(|| id.to_string())
        })
    }

    /// Claude Code resumes a compacted conversation from its summary (see
    /// [`super::resume`]).
    fn resumed(&self, path: &[&[u8]]) -> Vec<Sent> {
        super::resume::resumed(path)
            .into_iter()
            .map(Sent::Entry)
            .collect()
    }

    /// Claude Code gathers a reply written over several lines into one
    /// message (see [`super::resume::as_sent`]).
    fn as_sent(&self, messages: Vec<Value>) -> Vec<Value> {
        super::resume::as_sent(messages)
    }

    /// Claude Code sends a slash command's `local_command` system line as
    /// the user's (its `content`); any other custom entry is not sent.
    fn custom_sent(&self, entry: &Entry) -> Option<Value> {
        match &entry.message {
            Message::Custom { kind, data, .. } if kind == "local_command" => {
                let content = data.get("content")?.as_str()?;
                Some(serde_json::json!({"role": "user", "content": content}))
            }
            _ => None,
        }
    }

    fn handoff(&self, at: &At<'_>) -> Result<Handoff, Refusal> {
        super::handoff::handoff(at)
    }
}

/// Every regular file under `dir`, at any depth, added to `out`; a link
/// is not followed.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.filter_map(Result::ok) {
        match entry.file_type() {
            Ok(t) if t.is_dir() => files_under(&entry.path(), out),
            Ok(t) if t.is_file() => out.push(entry.path()),
            _ => {}
        }
    }
}
