//! OpenCode's answers to what depends on the format ([`Spec`]).

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{db, is_opencode_line, storage};
use crate::format::handoff::{At, Handoff, Refusal};
use crate::format::message::{Entry, NotAnEntry};
use crate::format::spec::{HeadFacts, Joins, Spec, expand};
use crate::format::{Checked, LineFacts};

/// OpenCode's sessions, read only.
pub struct OpenCode;

impl Spec for OpenCode {
    fn name(&self) -> &'static str {
        "opencode"
    }

    fn app(&self) -> &'static str {
        "OpenCode"
    }

    fn about(&self) -> &'static str {
        "OpenCode's sessions, in its SQLite database (read only)"
    }

    fn owns_line(&self, line: &[u8]) -> bool {
        is_opencode_line(line)
    }

    fn check_line<'a>(&self, bytes: &'a [u8], subject: bool, _tally: bool) -> Checked<'a> {
        super::check_line(bytes, subject)
    }

    fn entry(&self, line: &[u8]) -> Result<Entry, NotAnEntry> {
        super::entry(line)
    }

    fn is_record(&self, facts: &LineFacts<'_>) -> bool {
        facts.kind == crate::format::MessageKind::Custom
    }

    fn joins(&self) -> Joins {
        Joins::InFileOrder
    }

    /// OpenCode records each reply's cost (`data.cost`).
    fn records_cost(&self) -> bool {
        true
    }

    fn recorded_cost(&self, message: &Value) -> Option<f64> {
        message.get("cost")?.as_f64().filter(|c| c.is_finite())
    }

    fn priced_by_table(&self) -> bool {
        false
    }

    fn keeps_whole(&self, path: &Path) -> bool {
        db::split(path).is_some() || storage::is_session_file(path)
    }

    fn store_of(&self, path: &Path) -> Option<PathBuf> {
        match db::split(path) {
            Some((database, _)) => Some(database.to_path_buf()),
            None if storage::is_session_file(path) => {
                storage::storage_of(path).map(Path::to_path_buf)
            }
            None => None,
        }
    }

    fn read_whole(&self, path: &Path) -> io::Result<Vec<u8>> {
        match db::split(path) {
            Some((database, session)) => db::lines(database, session),
            None => storage::lines(path),
        }
    }

    /// The database, and the older store's session files.
    fn store_globs(&self) -> &'static [&'static str] {
        &[db::FILE, db::VERSIONS, "**/storage/session/*/ses_*.json"]
    }

    /// A session, its messages and their parts; not its to-do list, which
    /// OpenCode deletes and writes again whole.
    fn history_tables(&self, store: &Path) -> Option<&'static [&'static str]> {
        db::is_db(store).then_some(&["session", "message", "part"])
    }

    fn sessions_in(&self, path: &Path) -> Option<io::Result<Vec<(PathBuf, u64)>>> {
        if !db::is_db(path) {
            return None;
        }
        Some(db::sessions(path).map(|all| {
            all.into_iter()
                .filter(|s| s.parent.is_none())
                .map(|s| (path.join(&s.id), s.updated))
                .collect()
        }))
    }

    /// OpenCode 1.2 copied the older store into its database and left it.
    fn superseded(&self, path: &Path) -> bool {
        storage::is_session_file(path) && storage::in_database(path)
    }

    fn subagent_files(&self, path: &Path) -> Vec<(String, PathBuf)> {
        match db::split(path) {
            Some((database, session)) => db::children(database, session).unwrap_or_default(),
            None if storage::is_session_file(path) => storage::children(path),
            None => Vec::new(),
        }
    }

    fn is_subagent_file(&self, path: &Path) -> bool {
        match db::split(path) {
            Some((database, session)) => db::has_parent(database, session),
            None => storage::is_session_file(path) && storage::has_parent(path),
        }
    }

    fn head_facts(&self, v: &Value) -> Option<HeadFacts> {
        if v.get("opencode")?.as_str()? != "session" {
            return None;
        }
        let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        Some((field("id"), field("directory")))
    }

    /// `opencode/` in `$XDG_DATA_HOME`, else `~/.local/share/opencode`.
    fn session_dirs(
        &self,
        var: &dyn Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Vec<PathBuf> {
        var("XDG_DATA_HOME")
            .map(|d| expand(d, home))
            .or_else(|| home.map(|h| h.join(".local/share")))
            .map(|d| d.join("opencode"))
            .into_iter()
            .collect()
    }

    /// The path names the session.
    fn session_id(
        &self,
        path: &Path,
        _first_line: &mut dyn FnMut() -> Vec<u8>,
        _last_lines: &mut dyn FnMut() -> Vec<u8>,
    ) -> Option<String> {
        match db::split(path) {
            Some((_, id)) => Some(id.to_string()),
            None => path.file_stem()?.to_str().map(str::to_string),
        }
    }

    fn handoff(&self, at: &At<'_>) -> Result<Handoff, Refusal> {
        super::handoff::handoff(at)
    }
}
