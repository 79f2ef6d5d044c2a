//! Why a line is not an entry: the one fault model every format reports
//! through (`fsck`'s `invalidJson`, `invalidEntry`, `truncatedLastLine` and
//! `gluedLines` come from it).

/// Why a line does not load, in a person's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineFault {
    /// What kind of fault.
    pub kind: FaultKind,
    /// Byte position within the (trimmed) line, where known.
    pub at: Option<usize>,
    /// What is wrong, for people.
    pub message: String,
    /// The entry's id, when the line names one.
    pub id: Option<String>,
}

/// What kind of fault a line has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// Not JSON at all.
    Syntax,
    /// JSON that stops in the middle of a value.
    Eof,
    /// JSON, but not a session entry.
    Shape,
    /// An entry whose message is neither a model message nor a custom record.
    Message,
    /// Two JSON objects on one line, the newline between them missing (a line
    /// appended to a file without a final newline, as yoagent writes it).
    /// `at` is where the second starts.
    Glued,
}
