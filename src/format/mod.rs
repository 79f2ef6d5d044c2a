//! Session formats, and the one model of an entry every command uses.
//!
//! A format turns one line of its files into [`LineFacts`] (what the tree
//! index and the checks need, never the message body, which stays in the
//! file by range) or says why the line is not an entry ([`Checked`]), and
//! reads an entry whole as a [`message::Entry`] when a command prints it.
//! Each format is a folder here that implements [`spec::Spec`], every
//! question that depends on the format; [`Format`] is the registry.

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod fault;
pub mod finding;
pub mod gemini;
pub mod genai;
pub mod handoff;
pub mod json;
mod line;
pub mod markup;
pub mod message;
pub mod opencode;
pub mod pi;
pub mod qwen;
pub mod read;
pub mod records;
pub mod scan;
pub mod session;
pub mod spec;
pub(crate) mod tools;
pub mod yoagent;

use std::path::{Path, PathBuf};

pub use self::line::{Checked, LineFacts, Moves, NoText, Tally, Title, text_of};
pub use self::spec::{Joins, Spec, UsageAt};
pub use crate::tree::MessageKind;

/// A session format ysess reads: the registry. A new format is a folder
/// beside [`yoagent`] that implements [`Spec`], a variant here, and its line
/// in [`Format::spec`]; nothing outside `src/format/` names a variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// yoagent 0.26.6's `Session::to_jsonl`.
    #[default]
    Yoagent,
    /// pi's session files (`@mariozechner/pi-coding-agent`, version 3, and
    /// the versions 1 and 2 it migrates).
    Pi,
    /// Claude Code's session files, read only.
    Claude,
    /// Codex's rollout files, read only.
    Codex,
    /// Qwen Code's session files, read only.
    Qwen,
    /// Gemini CLI's session files, read only.
    Gemini,
    /// GitHub Copilot CLI's session files, read only.
    Copilot,
    /// OpenCode's sessions, in its SQLite database, read only.
    OpenCode,
}

impl Format {
    /// Every format, in the order `--format-of` lists them.
    pub const ALL: [Format; 8] = [
        Format::Yoagent,
        Format::Pi,
        Format::Claude,
        Format::Codex,
        Format::Qwen,
        Format::Gemini,
        Format::Copilot,
        Format::OpenCode,
    ];

    /// The formats in the order [`Format::detect`] asks them; yoagent's,
    /// which takes any file, last.
    /// (Gemini CLI's header and Qwen Code's lines have a `sessionId`, as
    /// Claude Code's do: they are asked first.)
    const DETECTED: [Format; 8] = [
        Format::OpenCode,
        Format::Pi,
        Format::Codex,
        Format::Copilot,
        Format::Gemini,
        Format::Qwen,
        Format::Claude,
        Format::Yoagent,
    ];

    /// The format ysess's own records are written in, in a file of its own
    /// or beside an app's file.
    pub const RECORDS: Format = Format::Yoagent;

    /// The format's answers: the registry's one line per format.
    pub fn spec(self) -> &'static dyn Spec {
        match self {
            Format::Yoagent => &yoagent::Yoagent,
            Format::Pi => &pi::Pi,
            Format::Claude => &claude::Claude,
            Format::Codex => &codex::Codex,
            Format::Qwen => &qwen::Qwen,
            Format::Gemini => &gemini::Gemini,
            Format::Copilot => &copilot::Copilot,
            Format::OpenCode => &opencode::OpenCode,
        }
    }

    /// The session at `path` read whole, when its app keeps it other than
    /// as JSON Lines of its own ([`Spec::read_whole`]): OpenCode's database.
    pub fn read_whole(path: &Path) -> Option<std::io::Result<Vec<u8>>> {
        Format::ALL
            .iter()
            .find(|f| f.spec().keeps_whole(path))
            .map(|f| f.spec().read_whole(path))
    }

    /// Opens `source` for reading: a regular file, standard input, or, for
    /// a session its app keeps in a database, the session read whole.
    pub fn open(source: &crate::input::Source) -> std::io::Result<Box<dyn std::io::Read + Send>> {
        match source {
            crate::input::Source::Path(p) => match Format::read_whole(p) {
                Some(bytes) => Ok(Box::new(std::io::Cursor::new(bytes?))),
                None => Ok(Box::new(crate::input::open_session(p)?)),
            },
            crate::input::Source::Stdin => Ok(Box::new(std::io::stdin())),
        }
    }

    /// Whether `path` names a session its app keeps other than as JSON
    /// Lines of its own ([`Spec::keeps_whole`]).
    pub fn keeps_whole(path: &Path) -> bool {
        Format::ALL.iter().any(|f| f.spec().keeps_whole(path))
    }

    /// The store the session at `path` is read out of, when it is no file
    /// of its own ([`Spec::store_of`]): OpenCode's database.
    pub fn store_of(path: &Path) -> Option<PathBuf> {
        Format::ALL.iter().find_map(|f| f.spec().store_of(path))
    }

    /// The tables of the database `store` that hold its sessions' history
    /// ([`Spec::history_tables`]).
    pub fn history_tables(store: &Path) -> Option<&'static [&'static str]> {
        Format::ALL
            .iter()
            .find_map(|f| f.spec().history_tables(store))
    }

    /// The sessions the file at `path` holds, when its app keeps many in
    /// one file ([`Spec::sessions_in`]).
    pub fn sessions_in(path: &Path) -> Option<std::io::Result<Vec<(PathBuf, u64)>>> {
        Format::ALL.iter().find_map(|f| f.spec().sessions_in(path))
    }

    /// The name ysess shows and takes for the format.
    pub fn name(self) -> &'static str {
        self.spec().name()
    }

    /// The app that owns the format's files, as people call it.
    pub fn app(self) -> &'static str {
        self.spec().app()
    }

    /// One line saying what the format is, for `--format-of`'s help.
    pub fn about(self) -> &'static str {
        self.spec().about()
    }

    /// The format `--format-of` names `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether ysess appends to files of the format ([`Spec::writable`]).
    pub fn writable(self) -> bool {
        self.spec().writable()
    }

    /// Whether the file's lines are yoagent's ([`Spec::yoagent_lines`]).
    pub fn yoagent_lines(self) -> bool {
        self.spec().yoagent_lines()
    }

    /// Whether the entries of a file of this format (at `version`, as its
    /// header declares) have no ids of their own, so that ysess names them
    /// by their line (`line<N>`) as the format's app numbers them on open.
    pub fn numbered_by_line(self, version: Option<u64>) -> bool {
        self.spec().numbered_by_line(version)
    }

    /// The model of a model output when the file names none for it.
    pub fn assumed_model(self) -> Option<&'static str> {
        self.spec().assumed_model()
    }

    /// Whether the format's tool results name only the call they answer
    /// ([`Spec::names_results_by_call`]).
    pub fn names_results_by_call(self) -> bool {
        self.spec().names_results_by_call()
    }

    /// How the file's entries join the tree ([`Spec::joins`]).
    pub fn joins(self) -> Joins {
        self.spec().joins()
    }

    /// What the format's app sends its model when it resumes at REV, for
    /// `path` (the lines of the entries root→REV).
    pub fn resumed(self, path: &[&[u8]]) -> Vec<Sent> {
        self.spec().resumed(path)
    }

    /// The messages the format's app sends its model for a resumed path's
    /// messages.
    pub fn as_sent(self, messages: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
        self.spec().as_sent(messages)
    }

    /// The message the format's app sends for an entry ysess reads as a
    /// record of its own kind (`Message::Custom`).
    pub fn custom_sent(self, entry: &message::Entry) -> Option<serde_json::Value> {
        self.spec().custom_sent(entry)
    }

    /// The file whose conversation `file` continues, as the format's app
    /// reads it, and how many of that file's lines come first.
    pub fn continues(self, file: &Path) -> Option<(PathBuf, u64)> {
        self.spec().continues(file)
    }

    /// Whether the entry `id` is among the first `lines` lines of its file,
    /// for [`Format::continues`].
    pub fn within_lines(self, id: &str, lines: u64) -> bool {
        self.spec().within_lines(id, lines)
    }

    /// Whether the format's app writes an entry's time after its parent's,
    /// so that `fsck` reports one that is not (`olderThanParent`).
    pub fn orders_times(self) -> bool {
        self.spec().orders_times()
    }

    /// Whether the format's own app refuses a file with a line it cannot
    /// read (so ysess does too).
    pub fn refuses_damaged_files(self) -> bool {
        self.spec().refuses_damaged_files()
    }

    /// What fsck's summary calls the entries the user's tree folds out.
    pub fn folded_noun(self) -> (&'static str, &'static str) {
        self.spec().folded_noun()
    }

    /// How many non-blank lines at the start of a file [`Format::detect`]
    /// looks at: Claude Code may open a file with lines of its own
    /// (`permission-mode`, `last-prompt`, …) before any entry.
    pub const DETECT_LINES: usize = 16;

    /// The format a file is in, from its first non-blank lines: the first
    /// format in the registry's order that claims them; yoagent's (whose
    /// first line is an entry) for anything else.
    pub fn detect<'a>(lines: impl IntoIterator<Item = &'a [u8]>) -> Format {
        let lines: Vec<&[u8]> = lines
            .into_iter()
            .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
            .take(Format::DETECT_LINES)
            .collect();
        Format::DETECTED
            .into_iter()
            .find(|f| f.spec().detect(&lines))
            .unwrap_or(Format::Yoagent)
    }

    /// Whether a file whose first lines show no format (which
    /// [`Format::detect`] reads as yoagent's) is some other JSON Lines file
    /// altogether: each of those lines is a JSON object with keys, and none
    /// has a key of a yoagent entry. A file whose lines do not parse, or
    /// that has a yoagent key anywhere, is left to the checks, which say
    /// what is wrong line by line.
    pub fn unrecognized<'a>(lines: impl IntoIterator<Item = &'a [u8]>) -> bool {
        #[derive(serde::Deserialize)]
        struct Keys {
            #[serde(default)]
            id: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            parent_id: Option<serde::de::IgnoredAny>,
            #[serde(default)]
            message: Option<serde::de::IgnoredAny>,
        }
        let mut seen = 0;
        for line in lines
            .into_iter()
            .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
            .take(Format::DETECT_LINES)
        {
            let Ok((text, _)) = text_of(line) else {
                return false;
            };
            if Format::ALL.iter().any(|f| f.spec().owns_line(line)) {
                return false;
            }
            let shaped = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text);
            match (shaped, serde_json::from_str::<Keys>(text)) {
                (Ok(map), Ok(keys))
                    if !map.is_empty()
                        && keys.id.is_none()
                        && keys.parent_id.is_none()
                        && keys.message.is_none() => {}
                _ => return false,
            }
            seen += 1;
        }
        seen > 0
    }

    /// The format of an open file, from its first lines (read at its start,
    /// whatever the file's position): at most 64 KiB are read.
    pub fn detect_file(file: &std::fs::File) -> std::io::Result<Format> {
        let len = file.metadata()?.len().min(64 << 10);
        let head = crate::input::read_at(file, 0, len)?;
        let mut lines: Vec<&[u8]> = head.split(|&b| b == b'\n').collect();
        // A line cut at the 64 KiB mark is not judged.
        if len == 64 << 10 && lines.len() > 1 {
            lines.pop();
        }
        Ok(Format::detect(lines))
    }

    /// Decides one line (without its `\n`) as the format's own loader does;
    /// `subject` also makes the entry's subject line.
    pub fn check_line(self, bytes: &[u8], subject: bool) -> Checked<'_> {
        self.spec().check_line(bytes, subject, false)
    }

    /// [`Format::check_line`], an entry's [`Tally`] taken too when `tally`
    /// asks for it and the format's scanner reads the line.
    pub fn check_line_tallied(self, bytes: &[u8], subject: bool, tally: bool) -> Checked<'_> {
        self.spec().check_line(bytes, subject, tally)
    }

    /// Whether an entry is bookkeeping that the user's tree folds out:
    /// ysess's own records, and a format's own lines.
    pub fn is_record(self, facts: &LineFacts<'_>) -> bool {
        self.spec().is_record(facts)
    }

    /// Checks a folded-out entry as the format's own records are checked:
    /// `Ok(Some(target))` for a record that moves HEAD to `target`,
    /// `Ok(None)` for anything else that is sound, `Err(why)` for a record
    /// ysess would not have written.
    pub fn check_record(
        self,
        line: &[u8],
        facts: &LineFacts<'_>,
    ) -> Result<Option<String>, String> {
        self.spec().check_record(line, facts)
    }

    /// Whether an entry's type is one the format's own app does not write
    /// (read, and warned about: a newer version of the app may write it).
    pub fn unknown_type(self, facts: &LineFacts<'_>) -> bool {
        self.spec().unknown_type(facts)
    }

    /// An entry read whole from its (trimmed) line, for the commands that
    /// print it.
    pub fn entry(self, line: &[u8]) -> Result<message::Entry, message::NotAnEntry> {
        self.spec().entry(line)
    }
}
/// One message an app sends its model when it resumes ([`Format::resumed`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Sent {
    /// The entry at this position of the path, its message as stored.
    Entry(usize),
    /// A message the file holds inside another line (Codex's
    /// `replacement_history`).
    Message(serde_json::Value),
}

/// A file that is none of the formats ysess reads.
#[derive(Debug)]
pub struct UnknownFormat;

impl std::fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        write!(
            f,
            "not a session file of a format ysess reads ({}): its first lines are JSON of another shape (`--format-of FORMAT` reads it as one of them)",
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl From<UnknownFormat> for std::io::Error {
    fn from(e: UnknownFormat) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}
