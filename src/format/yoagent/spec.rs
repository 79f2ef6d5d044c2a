//! yoagent's answers to what depends on the format ([`Spec`]).

use crate::format::handoff::{At, Handoff, Refusal};
use crate::format::message::{Entry, NotAnEntry};
use crate::format::records::{self, Record};
use crate::format::session::Session;
use crate::format::spec::{Joins, Spec, UsageAt};
use crate::format::{Checked, LineFacts};

/// yoagent 0.26.6's `Session::to_jsonl`: the format ysess writes its own
/// records in.
pub struct Yoagent;

impl Spec for Yoagent {
    fn name(&self) -> &'static str {
        "yoagent"
    }

    fn app(&self) -> &'static str {
        "yoagent"
    }

    fn about(&self) -> &'static str {
        "yoagent's session files"
    }

    /// Any file no other format claims: its first line is an entry.
    fn detect(&self, _lines: &[&[u8]]) -> bool {
        true
    }

    fn owns_line(&self, _line: &[u8]) -> bool {
        false
    }

    fn check_line<'a>(&self, bytes: &'a [u8], subject: bool, tally: bool) -> Checked<'a> {
        super::read_line(bytes, subject, tally)
    }

    fn entry(&self, line: &[u8]) -> Result<Entry, NotAnEntry> {
        Entry::parse(line)
    }

    fn is_record(&self, facts: &LineFacts<'_>) -> bool {
        records::is_record_entry(facts)
    }

    fn check_record(&self, line: &[u8], facts: &LineFacts<'_>) -> Result<Option<String>, String> {
        records::check_line(line, facts)
    }

    fn joins(&self) -> Joins {
        Joins::ByParent
    }

    fn writable(&self) -> bool {
        true
    }

    fn yoagent_lines(&self) -> bool {
        true
    }

    fn counter_ids(&self) -> bool {
        true
    }

    fn names_results_by_call(&self) -> bool {
        false
    }

    fn refuses_damaged_files(&self) -> bool {
        true
    }

    fn folded_noun(&self) -> (&'static str, &'static str) {
        ("ysess record", "ysess records")
    }

    fn usage_at(&self) -> UsageAt {
        UsageAt::Message { snake: true }
    }

    fn priced_by_table(&self) -> bool {
        false
    }

    fn handoff(&self, _at: &At<'_>) -> Result<Handoff, Refusal> {
        Err(Refusal::NoApp(
            "a yoagent session is resumed by the program built on yoagent, which ysess cannot \
             run: `ysess checkout REV` moves HEAD there, and yoagent's `Session::load` resumes \
             at HEAD",
        ))
    }

    /// yoagent's `append` numbers new entries `e<N+1>`…; `None` when the
    /// session already has an id `e<N>` with the largest N there is.
    fn new_ids(&self, repo: &dyn Session, count: usize) -> Option<Vec<String>> {
        let first = next_number(repo.tree())?;
        first.checked_add(count.saturating_sub(1) as u64)?;
        Some(
            (0..count as u64)
                .map(|k| format!("e{}", first + k))
                .collect(),
        )
    }

    fn record_lines(
        &self,
        _repo: &dyn Session,
        records: &[Record],
        ids: &[String],
        now_ms: u64,
    ) -> Option<Vec<String>> {
        Some(
            records
                .iter()
                .zip(ids)
                .map(|(r, id)| r.line(id, now_ms))
                .collect(),
        )
    }
}

/// The number of the next id yoagent's `append` would give, `e<N+1>` for
/// the largest N of the ids of the form `e<N>` (as yoagent parses them);
/// `None` when N is already the largest number there is.
fn next_number(tree: &crate::tree::Tree) -> Option<u64> {
    let max = (0..tree.len() as crate::tree::Ix)
        .filter_map(|ix| super::counter_number(tree.id(ix)))
        .max()
        .unwrap_or(0);
    max.checked_add(1)
}
