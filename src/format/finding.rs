//! Findings: what is wrong in a session file, each with a stable code, the
//! line, the byte offset and the entry. A format's reader finds some as it
//! links the entries (an unknown parent, a repeated id); the checker
//! ([`crate::check`]) finds the rest and reports them all.

use std::fmt;

use crate::tree::Link;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The file's own app would refuse the file (`fsck` exits 1).
    Error,
    /// The app loads it, but it is likely a mistake.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as printed and in `--json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $severity:ident;)*) => {
        /// A finding's stable code, as printed and in `--json` (the table
        /// of codes in docs/commands/fsck.md says what each means).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[allow(missing_docs)] // each variant is its name: see docs/commands/fsck.md's table
        pub enum Code { $($variant),* }

        impl Code {
            /// Every code, in the order of docs/commands/fsck.md's table.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// Its stable name, as printed and in `--json`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name),* }
            }

            /// How bad a finding with this code is.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity),* }
            }
        }
    };
}

codes! {
    Unreadable = "unreadable", Error;
    NotUtf8 = "notUtf8", Error;
    ByteOrderMark = "byteOrderMark", Error;
    InvalidJson = "invalidJson", Error;
    GluedLines = "gluedLines", Error;
    TruncatedLastLine = "truncatedLastLine", Error;
    InvalidEntry = "invalidEntry", Error;
    InvalidMessage = "invalidMessage", Error;
    DuplicateId = "duplicateId", Error;
    SelfParent = "selfParent", Error;
    UnknownParent = "unknownParent", Error;
    ForwardParent = "forwardParent", Error;
    DigestMismatch = "digestMismatch", Error;
    HistoryRewritten = "historyRewritten", Error;
    DuplicateLabel = "duplicateLabel", Warning;
    EmptyLabel = "emptyLabel", Warning;
    NonStandardId = "nonStandardId", Warning;
    MultipleRoots = "multipleRoots", Warning;
    OlderThanParent = "olderThanParent", Warning;
    OrphanToolResult = "orphanToolResult", Warning;
    UnansweredToolCall = "unansweredToolCall", Warning;
    LabelAddedInPlace = "labelAddedInPlace", Warning;
    InvalidRecord = "invalidRecord", Warning;
    MissingHeader = "missingHeader", Error;
    MisplacedHeader = "misplacedHeader", Warning;
    UnknownEntryType = "unknownEntryType", Warning;
    UnknownTarget = "unknownTarget", Warning;
    DanglingParent = "danglingParent", Warning;
    UnknownLineType = "unknownLineType", Warning;
    RepeatedUuid = "repeatedUuid", Warning;
    DanglingRef = "danglingRef", Error;
    RefsWithoutSession = "refsWithoutSession", Warning;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem in one file. `message` may quote session text: renderers
/// must escape it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What kind of problem it is.
    pub code: Code,
    /// The line it is on, from 1; `None` for the file as a whole.
    pub line: Option<u64>,
    /// The byte offset in the file where the problem is.
    pub offset: Option<u64>,
    /// The entry it is about, raw.
    pub id: Option<String>,
    /// What is wrong, for people.
    pub message: String,
    /// What a person can do about it, when ysess can do it: the front end
    /// words it in its own terms (a command line names the command).
    pub remedy: Option<Remedy>,
}

/// What ysess itself can do about a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remedy {
    /// Cutting the torn last line (`fsck --repair`), these many bytes.
    CutTorn(u64),
    /// Cutting the torn last line once no program writes the file: it may
    /// still be being written.
    CutTornWhenQuiet,
    /// Comparing with an old copy of the file, which names the line that
    /// changed (`fsck --since OLDFILE`).
    CompareOldCopy,
}

impl Finding {
    /// How bad it is (its code's severity).
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}

/// Why an entry could not join the tree, as a finding.
pub(crate) fn link_finding(
    line: u64,
    offset: u64,
    indent: usize,
    id: &str,
    parent: Option<&str>,
    link: &Link,
) -> Finding {
    let (code, message) = match link {
        Link::DuplicateId { first_line } => (
            Code::DuplicateId,
            format!("entry {id} already defined at line {first_line}"),
        ),
        Link::SelfParent => (
            Code::SelfParent,
            format!("entry {id} names itself as its parent"),
        ),
        Link::UnknownParent => (
            Code::UnknownParent,
            format!(
                "entry {id}: parent {} is not defined in this file",
                parent.unwrap_or_default()
            ),
        ),
    };
    Finding {
        code,
        line: Some(line),
        offset: Some(offset + indent as u64),
        id: Some(id.to_string()),
        message,
        remedy: None,
    }
}
