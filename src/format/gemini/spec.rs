//! Gemini CLI's answers to what depends on the format ([`Spec`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{TYPES, is_gemini_line};
use crate::format::handoff::{At, Handoff, Refusal};
use crate::format::message::{Entry, NotAnEntry};
use crate::format::spec::{HeadFacts, Joins, Spec, expand};
use crate::format::{Checked, LineFacts};

/// Gemini CLI's session files, read only.
pub struct Gemini;

impl Spec for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }

    fn app(&self) -> &'static str {
        "Gemini CLI"
    }

    fn about(&self) -> &'static str {
        "Gemini CLI's session files (read only)"
    }

    fn owns_line(&self, line: &[u8]) -> bool {
        is_gemini_line(line)
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

    fn joins(&self) -> Joins {
        Joins::InFileOrder
    }

    fn keeps_whole(&self, path: &Path) -> bool {
        super::legacy::is_legacy(path) && path.is_file()
    }

    fn read_whole(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        super::legacy::lines(path)
    }

    /// The older session files, one JSON document each.
    fn store_globs(&self) -> &'static [&'static str] {
        &["**/chats/session-*.json"]
    }

    fn superseded(&self, path: &Path) -> bool {
        super::legacy::superseded(path)
    }

    fn subagent_files(&self, path: &Path) -> Vec<(String, PathBuf)> {
        super::subagent_files(path)
    }

    /// `chats/<parent session id>/<id>.jsonl`.
    fn is_subagent_file(&self, path: &Path) -> bool {
        path.parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .is_some_and(|n| n == "chats")
    }

    /// The header names the session; its project is the folder's
    /// `.project_root` (not in the file).
    fn head_facts(&self, v: &Value) -> Option<HeadFacts> {
        let id = v.get("sessionId")?.as_str()?;
        v.get("projectHash")?;
        Some((Some(id.to_string()), None))
    }

    fn project(&self, path: &Path) -> Option<PathBuf> {
        super::project_root(path)
    }

    /// `.gemini/tmp/` in `$GEMINI_CLI_HOME`, else in `$HOME`.
    fn session_dirs(
        &self,
        var: &dyn Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Vec<PathBuf> {
        var("GEMINI_CLI_HOME")
            .map(|d| expand(d, home))
            .or_else(|| home.map(Path::to_path_buf))
            .map(|h| h.join(".gemini/tmp"))
            .into_iter()
            .collect()
    }

    /// Gemini CLI names a file by the start of its session's id: the
    /// header says the whole of it.
    fn session_id(
        &self,
        _path: &Path,
        first_line: &mut dyn FnMut() -> Vec<u8>,
        _last_lines: &mut dyn FnMut() -> Vec<u8>,
    ) -> Option<String> {
        super::session_of(&first_line()).filter(|id| !id.is_empty())
    }

    fn handoff(&self, at: &At<'_>) -> Result<Handoff, Refusal> {
        super::handoff::handoff(at)
    }
}
