//! Codex's answers to what depends on the format ([`Spec`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{ASSUMED_MODEL, TYPES, is_codex_line};
use crate::format::handoff::{At, Handoff, Refusal, is_uuid};
use crate::format::message::{Entry, Message, NotAnEntry};
use crate::format::session::Session;
use crate::format::spec::{HeadFacts, Spec, expand};
use crate::format::{Checked, LineFacts, Sent};
use crate::tree::Ix;

/// Codex's rollout files, read only.
pub struct Codex;

impl Spec for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    fn app(&self) -> &'static str {
        "Codex"
    }

    fn about(&self) -> &'static str {
        "Codex's rollout files (read only)"
    }

    fn owns_line(&self, line: &[u8]) -> bool {
        is_codex_line(line)
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

    /// A rollout's lines have no ids: Codex reads them in order.
    fn numbered_by_line(&self, _version: Option<u64>) -> bool {
        true
    }

    /// Codex 0.34's rollouts name no model ([`ASSUMED_MODEL`]).
    fn assumed_model(&self) -> Option<&'static str> {
        Some(ASSUMED_MODEL)
    }

    fn fill_turn(&self, repo: &dyn Session, ix: Ix, message: &mut Message) -> std::io::Result<()> {
        super::usage::fill_turn(repo, ix, message)
    }

    fn waiting(&self, repo: &dyn Session) -> std::io::Result<Option<Ix>> {
        Ok(super::usage::of_repo(repo)?.waiting)
    }

    fn head_facts(&self, v: &Value) -> Option<HeadFacts> {
        if v.get("type")?.as_str()? != "session_meta" {
            return None;
        }
        let payload = v.get("payload").unwrap_or(&Value::Null);
        let string = |key: &str| payload.get(key)?.as_str().map(str::to_string);
        Some((string("id"), string("cwd")))
    }

    /// `sessions/` in `$CODEX_HOME`, else `~/.codex/sessions`.
    fn session_dirs(
        &self,
        var: &dyn Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Vec<PathBuf> {
        var("CODEX_HOME")
            .map(|d| expand(d, home).join("sessions"))
            .or_else(|| home.map(|h| h.join(".codex/sessions")))
            .into_iter()
            .collect()
    }

    /// Codex names a rollout `rollout-<time>-<id>.jsonl`; under another
    /// name, its `session_meta` says.
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
        let tail = stem.len().checked_sub(36).map(|at| &stem[at..]);
        if let Some(id) = tail.filter(|t| stem.starts_with("rollout-") && is_uuid(t)) {
            return Some(id.to_string());
        }
        let first = first_line();
        let v: Value = serde_json::from_slice(&first).ok()?;
        (v.get("type")?.as_str()? == "session_meta")
            .then(|| v.get("payload")?.get("id")?.as_str().map(str::to_string))
            .flatten()
            .filter(|id| !id.is_empty())
    }

    /// Codex resumes a compacted conversation from the history its
    /// compaction put in place (see [`super::resume::resumed`]).
    fn resumed(&self, path: &[&[u8]]) -> Vec<Sent> {
        super::resume::resumed(path)
    }

    /// A forked rollout names its parent (see [`super::resume`]).
    fn continues(&self, file: &Path) -> Option<(PathBuf, u64)> {
        super::resume::continues(file)
    }

    fn within_lines(&self, id: &str, lines: u64) -> bool {
        super::resume::within(id, lines)
    }

    fn handoff(&self, at: &At<'_>) -> Result<Handoff, Refusal> {
        super::handoff::handoff(at)
    }
}
