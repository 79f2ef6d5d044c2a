//! Copilot CLI's answers to what depends on the format ([`Spec`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{USAGE, is_copilot_line};
use crate::format::handoff::{At, Handoff, Refusal};
use crate::format::message::{Entry, Message, NotAnEntry};
use crate::format::session::Session;
use crate::format::spec::{HeadFacts, Spec, expand};
use crate::format::{Checked, LineFacts, Sent};
use crate::tree::Ix;

/// GitHub Copilot CLI's session files, read only.
pub struct Copilot;

impl Spec for Copilot {
    fn name(&self) -> &'static str {
        "copilot"
    }

    fn app(&self) -> &'static str {
        "Copilot CLI"
    }

    fn about(&self) -> &'static str {
        "GitHub Copilot CLI's session files (read only)"
    }

    fn owns_line(&self, line: &[u8]) -> bool {
        is_copilot_line(line)
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

    fn folds_subagent_turns(&self) -> bool {
        true
    }

    /// A reply's usage is the `session.usage_record` it hangs from, when
    /// that record counts the same call; in a file without usage records,
    /// what its shutdowns say ([`super::usage`]).
    fn fill_turn(&self, repo: &dyn Session, ix: Ix, message: &mut Message) -> std::io::Result<()> {
        let Message::Assistant { usage, .. } = message else {
            return Ok(());
        };
        let tree = repo.tree();
        let Some(record) = tree.raw_parent(ix).filter(|&p| tree.tag(p) == USAGE) else {
            // A version without usage records: from its shutdowns.
            if let Some(used) = super::usage::of_repo(repo)?.of(ix) {
                *usage = used;
            }
            return Ok(());
        };
        let call = |line: &[u8]| -> Option<String> {
            let v: Value = serde_json::from_slice(line).ok()?;
            v.get("data")?
                .get("apiCallId")?
                .as_str()
                .map(str::to_string)
        };
        let own = call(&repo.line_bytes(ix)?);
        if let Some((used, counted)) = super::usage_record(&repo.line_bytes(record)?)
            && (own.is_none() || counted.is_none() || own == counted)
        {
            *usage = used;
        }
        Ok(())
    }

    fn head_facts(&self, v: &Value) -> Option<HeadFacts> {
        if v.get("type")?.as_str()? != "session.start" {
            return None;
        }
        let data = v.get("data")?;
        let id = data.get("sessionId").and_then(Value::as_str);
        let cwd = data.get("context")?.get("cwd").and_then(Value::as_str);
        Some((id.map(str::to_string), cwd.map(str::to_string)))
    }

    /// `session-state/` in `$COPILOT_HOME`, else `~/.copilot/session-state`.
    fn session_dirs(
        &self,
        var: &dyn Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Vec<PathBuf> {
        var("COPILOT_HOME")
            .map(|d| expand(d, home))
            .or_else(|| home.map(|h| h.join(".copilot")))
            .map(|d| d.join("session-state"))
            .into_iter()
            .collect()
    }

    /// The session's folder is named by its id; `session.start` says it.
    fn session_id(
        &self,
        path: &Path,
        first_line: &mut dyn FnMut() -> Vec<u8>,
        _last_lines: &mut dyn FnMut() -> Vec<u8>,
    ) -> Option<String> {
        let first = first_line();
        let v: Value = serde_json::from_slice(&first).ok()?;
        let id = v
            .get("data")?
            .get("sessionId")?
            .as_str()
            .map(str::to_string);
        id.or_else(|| {
            let folder = path.parent()?.file_name()?.to_str()?;
            crate::format::handoff::is_uuid(folder).then(|| folder.to_string())
        })
    }

    fn resumed(&self, path: &[&[u8]]) -> Vec<Sent> {
        super::resume_path(path)
    }

    fn handoff(&self, at: &At<'_>) -> Result<Handoff, Refusal> {
        super::handoff::handoff(at)
    }
}
