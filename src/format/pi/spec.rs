//! pi's answers to what depends on the format ([`Spec`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{TYPES, is_header};
use crate::format::handoff::{At, Handoff, Refusal};
use crate::format::message::{Entry, NotAnEntry};
use crate::format::records::Record;
use crate::format::session::Session;
use crate::format::spec::{HeadFacts, Joins, Spec, UsageAt, expand};
use crate::format::{Checked, LineFacts};

/// pi's session files (`@mariozechner/pi-coding-agent`, version 3, and the
/// versions 1 and 2 it migrates).
pub struct Pi;

impl Spec for Pi {
    fn name(&self) -> &'static str {
        "pi"
    }

    fn app(&self) -> &'static str {
        "pi"
    }

    fn about(&self) -> &'static str {
        "pi's session files (`@mariozechner/pi-coding-agent`)"
    }

    /// pi's files open with a `{"type":"session",…}` header.
    fn detect(&self, lines: &[&[u8]]) -> bool {
        lines.first().is_some_and(|first| is_header(first))
    }

    fn owns_line(&self, line: &[u8]) -> bool {
        is_header(line)
    }

    fn check_line<'a>(&self, bytes: &'a [u8], subject: bool, tally: bool) -> Checked<'a> {
        super::read_line(bytes, subject, tally)
    }

    fn entry(&self, line: &[u8]) -> Result<Entry, NotAnEntry> {
        super::entry(line)
    }

    fn is_record(&self, facts: &LineFacts<'_>) -> bool {
        super::is_record(facts)
    }

    fn check_record(&self, line: &[u8], facts: &LineFacts<'_>) -> Result<Option<String>, String> {
        super::check_record(line, facts)
    }

    fn unknown_type(&self, facts: &LineFacts<'_>) -> bool {
        facts
            .custom_role
            .as_deref()
            .is_some_and(|t| !TYPES.contains(&t))
    }

    fn joins(&self) -> Joins {
        Joins::ByParent
    }

    fn writable(&self) -> bool {
        true
    }

    /// pi's version-1 files have no ids: pi numbers and chains their
    /// entries when it opens them.
    fn numbered_by_line(&self, version: Option<u64>) -> bool {
        version == Some(1)
    }

    fn header_first(&self) -> bool {
        true
    }

    fn names_results_by_call(&self) -> bool {
        false
    }

    fn refuses_damaged_files(&self) -> bool {
        true
    }

    fn folded_noun(&self) -> (&'static str, &'static str) {
        (
            "label change or ysess record",
            "label changes and ysess records",
        )
    }

    fn usage_at(&self) -> UsageAt {
        UsageAt::Message { snake: false }
    }

    fn records_cost(&self) -> bool {
        true
    }

    fn recorded_cost(&self, message: &Value) -> Option<f64> {
        message
            .get("usage")?
            .get("cost")?
            .get("total")?
            .as_f64()
            .filter(|c| c.is_finite())
    }

    fn priced_by_table(&self) -> bool {
        false
    }

    fn title_tag(&self) -> Option<&'static str> {
        Some("session_info")
    }

    fn head_facts(&self, v: &Value) -> Option<HeadFacts> {
        if v.get("type")?.as_str()? != "session" {
            return None;
        }
        let string = |key: &str| v.get(key)?.as_str().map(str::to_string);
        Some((string("id"), string("cwd")))
    }

    /// `$PI_CODING_AGENT_SESSION_DIR`, else `sessions/` in
    /// `$PI_CODING_AGENT_DIR`, else `~/.pi/agent/sessions`.
    fn session_dirs(
        &self,
        var: &dyn Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Vec<PathBuf> {
        var("PI_CODING_AGENT_SESSION_DIR")
            .map(|d| expand(d, home))
            .or_else(|| var("PI_CODING_AGENT_DIR").map(|d| expand(d, home).join("sessions")))
            .or_else(|| home.map(|h| h.join(".pi/agent/sessions")))
            .into_iter()
            .collect()
    }

    /// pi runs in the session's folder, on the file by its whole path,
    /// after a checkout when REV is not HEAD.
    fn handoff(&self, at: &At<'_>) -> Result<Handoff, Refusal> {
        Ok(Handoff {
            program: "pi".to_string(),
            args: [
                "--session".to_string(),
                std::path::absolute(at.path)
                    .unwrap_or_else(|_| at.path.to_path_buf())
                    .display()
                    .to_string(),
            ]
            .into_iter()
            .chain(at.args.iter().cloned())
            .collect(),
            // pi's header names the session's working directory.
            cwd: serde_json::from_slice::<Value>(at.first_line)
                .ok()
                .and_then(|h| h.get("cwd")?.as_str().map(PathBuf::from)),
            env: Vec::new(),
            new_file: None,
            checkout_first: (!at.rev_is_head).then(|| at.rev.to_string()),
            install: "npm install -g @mariozechner/pi-coding-agent",
        })
    }

    /// pi draws 8 hex digits not in the file.
    fn new_ids(&self, repo: &dyn Session, count: usize) -> Option<Vec<String>> {
        Some(super::new_ids(|id| repo.tree().find(id).is_some(), count))
    }

    /// pi appends each entry after the one before: its leaf.
    fn record_lines(
        &self,
        repo: &dyn Session,
        records: &[Record],
        ids: &[String],
        now_ms: u64,
    ) -> Option<Vec<String>> {
        let tree = repo.tree();
        let mut leaf = tree.last().map(|ix| tree.id(ix).to_string());
        Some(
            records
                .iter()
                .zip(ids)
                .map(|(r, id)| {
                    let line = super::record_line(r, id, leaf.as_deref(), now_ms);
                    leaf = Some(id.clone());
                    line
                })
                .collect(),
        )
    }

    fn labels_in_place(&self) -> bool {
        true
    }
}
