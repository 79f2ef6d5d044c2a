//! Qwen Code's answers to what depends on the format ([`Spec`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{TYPES, is_qwen_line};
use crate::format::handoff::{At, Handoff, Refusal, is_uuid};
use crate::format::message::{Entry, NotAnEntry};
use crate::format::spec::{HeadFacts, Spec, expand};
use crate::format::{Checked, LineFacts, Sent};

/// Qwen Code's session files, read only.
pub struct Qwen;

impl Spec for Qwen {
    fn name(&self) -> &'static str {
        "qwen"
    }

    fn app(&self) -> &'static str {
        "Qwen Code"
    }

    fn about(&self) -> &'static str {
        "Qwen Code's session files (read only)"
    }

    fn owns_line(&self, line: &[u8]) -> bool {
        is_qwen_line(line)
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

    fn subagent_files(&self, path: &Path) -> Vec<(String, PathBuf)> {
        super::subagent_files(path)
    }

    /// `subagents/<session id>/agent-<type>-<call>.jsonl`.
    fn is_subagent_file(&self, path: &Path) -> bool {
        path.parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .is_some_and(|n| n == "subagents")
    }

    fn title_tag(&self) -> Option<&'static str> {
        Some("custom_title")
    }

    /// Every line names the session and its working directory.
    fn head_facts(&self, v: &Value) -> Option<HeadFacts> {
        let cwd = v.get("cwd")?.as_str()?;
        let id = v.get("sessionId").and_then(Value::as_str);
        Some((id.map(str::to_string), Some(cwd.to_string())))
    }

    /// `projects/` in `$QWEN_RUNTIME_DIR`, else in `$QWEN_HOME`, else
    /// `~/.qwen/projects`.
    fn session_dirs(
        &self,
        var: &dyn Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Vec<PathBuf> {
        var("QWEN_RUNTIME_DIR")
            .or_else(|| var("QWEN_HOME"))
            .map(|d| expand(d, home).join("projects"))
            .or_else(|| home.map(|h| h.join(".qwen/projects")))
            .into_iter()
            .collect()
    }

    /// Qwen Code names a session's file by its id; a file under another
    /// name is known by the `sessionId` its lines carry.
    fn session_id(
        &self,
        path: &Path,
        first_line: &mut dyn FnMut() -> Vec<u8>,
        _last_lines: &mut dyn FnMut() -> Vec<u8>,
    ) -> Option<String> {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if is_uuid(stem) {
            return Some(stem.to_string());
        }
        let first = first_line();
        let v: Value = serde_json::from_slice(&first).ok()?;
        v.get("sessionId")?.as_str().map(str::to_string)
    }

    fn resumed(&self, path: &[&[u8]]) -> Vec<Sent> {
        super::resume_path(path)
    }

    fn handoff(&self, at: &At<'_>) -> Result<Handoff, Refusal> {
        super::handoff::handoff(at)
    }
}
