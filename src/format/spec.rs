//! What a format is: every question whose answer depends on the format,
//! answered by the format's own folder through one trait, [`Spec`].
//!
//! A format implements [`Spec`] in its folder (`src/format/<name>/`) and is
//! named once in the registry ([`super::Format::spec`]); nothing outside
//! `src/format/` branches on which format a file is in. The defaults are
//! those of a format whose app owns its files (ysess reads them and keeps
//! its own records beside them, in the refs store): a new agent's folder
//! overrides only what differs.

use std::io;
use std::path::{Path, PathBuf};

use super::message::{Entry, Message, NotAnEntry};
use super::records::Record;
use super::{Checked, LineFacts, Sent};
use crate::format::session::Session;
use crate::tree::Ix;

/// Where a format's replies record their usage, which decides how `stats`
/// reads it without reading the whole message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageAt {
    /// In the message, as yoagent and pi write it (`message.usage`,
    /// camelCase; `snake_case` also taken when `snake`).
    Message {
        /// yoagent also takes `cache_read`, `cache_write`, `total_tokens`.
        snake: bool,
    },
    /// In the message, as the Anthropic API returns it (Claude Code).
    Api,
    /// Anywhere else: the reply is read whole ([`Spec::entry`] and
    /// [`Spec::fill_turn`]).
    Elsewhere,
}

/// How the entries of a format's file join the tree beyond their own
/// `parent` links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Joins {
    /// Each entry names its parent, defined before it (yoagent, pi).
    ByParent,
    /// As Claude Code reads its files (and formats of its shape): a map by
    /// id followed from the leaf, so a parent may come later; a reply's
    /// tool results are one turn; subagent lines fold out.
    AsClaude,
    /// As Gemini CLI reads its files: no parent links; each new entry
    /// continues the conversation as the file has laid it out so far, an id
    /// seen again restates its entry in place (the last line wins), and
    /// [`super::Checked::Moves`] lines rewind it or set it whole.
    InFileOrder,
}

/// The session id and working directory a file records near its start.
pub type HeadFacts = (Option<String>, Option<String>);

/// Every answer that depends on the format. See the module's docs.
pub trait Spec: Sync {
    /// The name ysess shows and takes for the format (`--format-of`).
    fn name(&self) -> &'static str;

    /// The app that owns the format's files, as people call it.
    fn app(&self) -> &'static str;

    /// One line saying what the format is, for `--format-of`'s help.
    fn about(&self) -> &'static str;

    /// Whether a file whose first non-blank lines are `lines` is in this
    /// format. Asked in the registry's order; yoagent's, last, takes any.
    /// By default, any of them is a line of the format's own
    /// ([`Spec::owns_line`]).
    fn detect(&self, lines: &[&[u8]]) -> bool {
        lines.iter().any(|l| self.owns_line(l))
    }

    /// Whether `line` alone shows the format (a header, a line of the app's
    /// own shape): a file with such a line is not an unknown kind of file.
    fn owns_line(&self, line: &[u8]) -> bool;

    /// Decides one line (without its `\n`) as the format's app reads it;
    /// `subject` makes the entry's subject line, `tally` asks for its
    /// [`super::Tally`] where the scanner can take it.
    fn check_line<'a>(&self, bytes: &'a [u8], subject: bool, tally: bool) -> Checked<'a>;

    /// An entry read whole from its (trimmed) line.
    fn entry(&self, line: &[u8]) -> Result<Entry, NotAnEntry>;

    /// Whether an entry is bookkeeping the user's tree folds out.
    fn is_record(&self, facts: &LineFacts<'_>) -> bool;

    /// Checks a folded-out entry as the format's own records are checked:
    /// `Ok(Some(target))` for a record that moves HEAD to `target`.
    fn check_record(&self, _line: &[u8], _facts: &LineFacts<'_>) -> Result<Option<String>, String> {
        Ok(None)
    }

    /// Whether an entry's type is one the app is not known to write.
    fn unknown_type(&self, _facts: &LineFacts<'_>) -> bool {
        false
    }

    /// How the file's entries join the tree.
    fn joins(&self) -> Joins {
        Joins::AsClaude
    }

    /// Whether ysess appends its records to the file itself (else beside
    /// it, in the refs store).
    fn writable(&self) -> bool {
        false
    }

    /// Whether the file's lines are yoagent's, the shape ysess writes its
    /// own records in: what `append`, `export --session`, the read from the
    /// end (`log -n`) and the fast search read.
    fn yoagent_lines(&self) -> bool {
        false
    }

    /// Whether entries without ids are named by their line (`line<N>`), at
    /// the file `version` the header declares.
    fn numbered_by_line(&self, _version: Option<u64>) -> bool {
        false
    }

    /// Whether the app refuses its first line when it is not a header, so
    /// that `fsck` says so (pi).
    fn header_first(&self) -> bool {
        false
    }

    /// Whether ids that yoagent would not have made are worth a warning.
    fn counter_ids(&self) -> bool {
        false
    }

    /// The model of a reply that names none.
    fn assumed_model(&self) -> Option<&'static str> {
        None
    }

    /// Whether tool results name only the call they answer, so the reader
    /// pairs them with their calls for the tool's name.
    fn names_results_by_call(&self) -> bool {
        true
    }

    /// Whether the app writes an entry's time after its parent's.
    fn orders_times(&self) -> bool {
        true
    }

    /// Whether the app refuses a file with a line it cannot read.
    fn refuses_damaged_files(&self) -> bool {
        false
    }

    /// What fsck's summary calls the entries the user's tree folds out.
    fn folded_noun(&self) -> (&'static str, &'static str) {
        ("bookkeeping line", "bookkeeping lines")
    }

    /// Where a reply records its usage.
    fn usage_at(&self) -> UsageAt {
        UsageAt::Elsewhere
    }

    /// Whether replies record their own cost (pi's `usage.cost.total`).
    fn records_cost(&self) -> bool {
        false
    }

    /// The cost a reply records itself (pi's `usage.cost.total`), when the
    /// format records one.
    fn recorded_cost(&self, _message: &serde_json::Value) -> Option<f64> {
        None
    }

    /// Whether usage is priced by ysess's table (the format records tokens
    /// but no cost).
    fn priced_by_table(&self) -> bool {
        true
    }

    /// Whether one reply may be written over several lines that share its
    /// API message id, its usage on each (Claude Code).
    fn splits_replies(&self) -> bool {
        false
    }

    /// A reply filled in from the lines around it (Codex: the model and the
    /// usage stand on lines of their own).
    fn fill_turn(&self, _repo: &dyn Session, _ix: Ix, _message: &mut Message) -> io::Result<()> {
        Ok(())
    }

    /// The first entry whose usage the file does not hold yet (Codex: a
    /// reply whose `token_count` has not come): an export stops before it.
    fn waiting(&self, _repo: &dyn Session) -> io::Result<Option<Ix>> {
        Ok(None)
    }

    /// The subagents' files of the session in `path`, by subagent id.
    fn subagent_files(&self, _path: &Path) -> Vec<(String, PathBuf)> {
        Vec::new()
    }

    /// The files the app keeps beside the session in `path` that belong to
    /// it, which `ysess archive` keeps with it: its subagents' files, and
    /// whatever else the app writes for the session alone.
    fn kept_with(&self, path: &Path) -> Vec<PathBuf> {
        self.subagent_files(path)
            .into_iter()
            .map(|(_, p)| p)
            .collect()
    }

    /// Whether `path` is where the app keeps a subagent's own file, which
    /// `ls` leaves to its session's row.
    fn is_subagent_file(&self, _path: &Path) -> bool {
        false
    }

    /// Whether a subagent's turns may be folded into the session's own file
    /// (Claude Code's sidechain lines).
    fn folds_subagent_turns(&self) -> bool {
        false
    }

    /// The tag of entries that name the session (pi's `session_info`).
    fn title_tag(&self) -> Option<&'static str> {
        None
    }

    /// The session id and working directory the line `v` near the file's
    /// start records, if it records them.
    fn head_facts(&self, _v: &serde_json::Value) -> Option<HeadFacts> {
        None
    }

    /// Whether `path` names a session the app keeps other than as JSON
    /// Lines of its own (a session in its database): read whole
    /// ([`Spec::read_whole`]), never opened as a file.
    fn keeps_whole(&self, _path: &Path) -> bool {
        false
    }

    /// The store the session at `path` is read out of, when it is no
    /// file of its own that can be copied as it is (a session in the app's
    /// database, or spread over many files): `ysess archive` names the
    /// store and does not copy it.
    fn store_of(&self, _path: &Path) -> Option<PathBuf> {
        None
    }

    /// A session [`Spec::keeps_whole`] names, read whole as the lines ysess
    /// reads the format as.
    fn read_whole(&self, path: &Path) -> io::Result<Vec<u8>> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("{}: no session kept whole here", path.display()),
        ))
    }

    /// The files beside the session files (`*.jsonl`) that hold the app's
    /// sessions, as globs (a name, or a path below the folder searched,
    /// with `/`): OpenCode's `opencode.db` ([`Spec::sessions_in`]) and its
    /// older store's session files.
    fn store_globs(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether the session at `path` is one the app has copied into the
    /// store it goes on in (Gemini CLI's older `.json` beside its `.jsonl`
    /// copy; OpenCode's older files beside the database it copied them
    /// into): `ls` and `stats --all` read the copy only.
    fn superseded(&self, _path: &Path) -> bool {
        false
    }

    /// The sessions a file holds, when the app keeps many in one (its
    /// database): each one's path (`FILE/<session id>`) and when it was
    /// last written (ms since the epoch). A subagent's session is not
    /// among them: it is counted with its session.
    fn sessions_in(&self, _path: &Path) -> Option<io::Result<Vec<(PathBuf, u64)>>> {
        None
    }

    /// The tables of the app's database `store` whose rows are its
    /// sessions' history, when it is one: `ysess archive` keeps a backup
    /// that lost a row of one of them as a new version, and lets the rows
    /// of the others (a to-do list the app rewrites) come and go.
    fn history_tables(&self, _store: &Path) -> Option<&'static [&'static str]> {
        None
    }

    /// The working directory of the session in `path` when its lines do
    /// not say it ([`Spec::head_facts`]) but the app keeps it beside them.
    fn project(&self, _path: &Path) -> Option<PathBuf> {
        None
    }

    /// The folders where the app keeps its sessions, found as the app finds
    /// them: `var` reads the environment, `home` is `$HOME`.
    fn session_dirs(
        &self,
        _var: &dyn Fn(&str) -> Option<std::ffi::OsString>,
        _home: Option<&Path>,
    ) -> Vec<PathBuf> {
        Vec::new()
    }

    /// The session's id as its app knows it, for the refs store; see
    /// [`super::Format::session_id`].
    fn session_id(
        &self,
        _path: &Path,
        _first_line: &mut dyn FnMut() -> Vec<u8>,
        _last_lines: &mut dyn FnMut() -> Vec<u8>,
    ) -> Option<String> {
        None
    }

    /// What the app sends its model when it resumes at the end of `path`
    /// (the lines of the entries root→REV).
    fn resumed(&self, path: &[&[u8]]) -> Vec<Sent> {
        (0..path.len()).map(Sent::Entry).collect()
    }

    /// The messages the app sends for a resumed path's messages.
    fn as_sent(&self, messages: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
        messages
    }

    /// The message the app sends for an entry ysess reads as custom.
    fn custom_sent(&self, _entry: &Entry) -> Option<serde_json::Value> {
        None
    }

    /// The file whose conversation `file` continues, and how many of its
    /// lines come first.
    fn continues(&self, _file: &Path) -> Option<(PathBuf, u64)> {
        None
    }

    /// Whether entry `id` is among the first `lines` lines of its file.
    fn within_lines(&self, _id: &str, _lines: u64) -> bool {
        false
    }

    /// The command that resumes the session `at` describes at REV.
    fn handoff(
        &self,
        at: &super::handoff::At<'_>,
    ) -> Result<super::handoff::Handoff, super::handoff::Refusal>;

    /// Ids for `count` new entries, as the file's own app makes them, for a
    /// format ysess writes in place ([`Spec::writable`]); `None` when there
    /// are none to give. ysess's records beside any other format's file
    /// are numbered by the refs store.
    fn new_ids(&self, _session: &dyn Session, _count: usize) -> Option<Vec<String>> {
        None
    }

    /// The lines that write `records` (with `ids`) into the file, timed
    /// `now_ms`, for a format ysess writes in place; `None` otherwise.
    fn record_lines(
        &self,
        _session: &dyn Session,
        _records: &[Record],
        _ids: &[String],
        _now_ms: u64,
    ) -> Option<Vec<String>> {
        None
    }

    /// Whether a label is one record on its target that never moves HEAD
    /// (pi's `label` entry), rather than a record below the target that
    /// yoagent's loader would take for HEAD.
    fn labels_in_place(&self) -> bool {
        false
    }
}

/// `~/…` as the agents expand it in their own variables.
pub fn expand(v: std::ffi::OsString, home: Option<&Path>) -> PathBuf {
    match (v.to_str(), home) {
        (Some("~"), Some(h)) => h.to_path_buf(),
        (Some(s), Some(h)) if s.starts_with("~/") => h.join(&s[2..]),
        _ => PathBuf::from(v),
    }
}
