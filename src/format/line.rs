//! One line's verdict, the model every format reads its lines into: the
//! facts of an entry ([`LineFacts`]), or why the line holds none
//! ([`Checked`], [`NoText`]).

use std::borrow::Cow;

use super::fault::LineFault;
use super::message;
use crate::tree::MessageKind;

/// Why a line holds no text to read: what every format decides first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoText {
    /// Empty or only white space.
    Blank,
    /// Not UTF-8 from byte `at`; `cut` when the bytes stop inside a
    /// character (a write cut short).
    NotUtf8 {
        /// The first byte that is not UTF-8, within the line.
        at: usize,
        /// The bytes stop inside a character.
        cut: bool,
    },
}

impl From<NoText> for Checked<'static> {
    fn from(no: NoText) -> Self {
        match no {
            NoText::Blank => Checked::Blank,
            NoText::NotUtf8 { at, cut } => Checked::NotUtf8 { at, cut },
        }
    }
}

/// A line's text, trimmed of Unicode white space as yoagent trims it, and
/// where that text starts.
pub fn text_of(bytes: &[u8]) -> Result<(&str, usize), NoText> {
    let text = match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => {
            let err = std::str::from_utf8(bytes).err();
            let at = err.map_or(0, |e| e.valid_up_to());
            // No error length: the bytes end inside a character.
            let cut = err.is_some_and(|e| e.error_len().is_none());
            return Err(NoText::NotUtf8 { at, cut });
        }
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NoText::Blank);
    }
    let indent = text.len() - text.trim_start().len();
    Ok((trimmed, indent))
}

/// The facts of one valid line, borrowed from the line where possible.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LineFacts<'a> {
    /// The entry's id.
    pub id: Cow<'a, str>,
    /// Its parent's id; `None` for a root.
    pub parent: Option<Cow<'a, str>>,
    /// The label the line carries.
    pub label: Option<Cow<'a, str>>,
    /// Milliseconds since the epoch; 0 when the line has none.
    pub timestamp: u64,
    /// What kind of message it carries.
    pub kind: MessageKind,
    /// The model, for assistant messages.
    pub model: Option<Cow<'a, str>>,
    /// The role string of a custom record.
    pub custom_role: Option<Cow<'a, str>>,
    /// The `kind` of a custom record.
    pub custom_kind: Option<Cow<'a, str>>,
    /// Ids of the tool calls an assistant message makes, in order.
    pub tool_calls: Vec<Cow<'a, str>>,
    /// The tool call a tool result answers.
    pub tool_result_for: Option<Cow<'a, str>>,
    /// The tool a tool result comes from.
    pub tool_name: Option<Cow<'a, str>>,
    /// The names of the tools an assistant message calls, beside
    /// `tool_calls`, where the format's results do not name their tool
    /// (Claude Code's): a result then takes its call's name.
    pub tool_call_names: Vec<Cow<'a, str>>,
    /// A line of a subagent's thread (Claude Code's `isSidechain`).
    pub sidechain: bool,
    /// The parent is the entry a compaction continues (Claude Code's
    /// `logicalParentUuid`), which an earlier file may hold instead.
    pub logical_parent: bool,
    /// One line saying what the message is about (see `Message::subject`).
    pub subject: Option<Cow<'a, str>>,
    /// Another entry this one names: with a `label`, the entry the label is
    /// set on, when the line is a format's label change rather than the
    /// labelled entry itself (pi's `label` entries: one label per target, an
    /// empty one clearing it); without, an entry it refers to (pi: a
    /// compaction's first kept entry, a branch summary's origin).
    pub target: Option<Cow<'a, str>>,
    /// The line carries no id of its own, as in pi's version-1 files (whose
    /// entries pi numbers and chains when it opens them); `target` then
    /// holds a compaction's `firstKeptEntryIndex`, in decimal.
    pub unnumbered: bool,
    /// What the line says of its usage, cost, text and tools, when the
    /// scanner was asked for it ([`Format::check_line_tallied`](super::Format::check_line_tallied)) and read
    /// all of it; `None` otherwise (then it is read from the line).
    pub tally: Option<Tally>,
}

/// What one entry's line says of its usage and size, read in the same pass
/// that checks it: what `ysess export --parquet` and `ysess stats` would
/// otherwise read from the line a second time.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Tally {
    /// Tokens an assistant message records.
    pub usage: message::Usage,
    /// Dollars an assistant message records (pi's `usage.cost.total`).
    pub cost: Option<f64>,
    /// The characters of the message's text blocks (not its thinking, not
    /// its tool calls' arguments).
    pub text: u64,
    /// The tool calls an assistant message makes: id and tool, in order.
    /// (Its model, and a tool result's tool, are the entry's tag in the
    /// tree.)
    pub calls: Vec<(Box<str>, Box<str>)>,
    /// The tool call a tool result answers.
    pub call: Box<str>,
    /// A tool result is an error.
    pub is_error: bool,
}

impl LineFacts<'_> {
    /// Whether the line is a custom entry whose type (`custom_role`) is
    /// none of `types`: one its format's app is not known to write.
    pub fn custom_type_outside(&self, types: &[&str]) -> bool {
        self.kind == MessageKind::Custom
            && self
                .custom_role
                .as_deref()
                .is_none_or(|t| !types.contains(&t))
    }

    /// The same facts, owning their text.
    pub fn into_owned(self) -> LineFacts<'static> {
        let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
        LineFacts {
            id: own(self.id),
            parent: self.parent.map(own),
            label: self.label.map(own),
            timestamp: self.timestamp,
            kind: self.kind,
            model: self.model.map(own),
            custom_role: self.custom_role.map(own),
            custom_kind: self.custom_kind.map(own),
            tool_calls: self.tool_calls.into_iter().map(own).collect(),
            tool_result_for: self.tool_result_for.map(own),
            tool_name: self.tool_name.map(own),
            tool_call_names: self.tool_call_names.into_iter().map(own).collect(),
            sidechain: self.sidechain,
            logical_parent: self.logical_parent,
            subject: self.subject.map(own),
            target: self.target.map(own),
            unnumbered: self.unnumbered,
            tally: self.tally,
        }
    }
}

/// A title a line gives its session: the name the user gave it (Claude
/// Code's `custom-title`) or the app's summary of it (`summary`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title {
    /// Given by the user, not made by the app.
    pub given: bool,
    /// The title, as the line has it (raw session text).
    pub text: Box<str>,
    /// The entry a summary is of (Claude Code's `leafUuid`): a summary
    /// whose leaf is in another file is another session's title (Claude
    /// Code writes them at the top of a resumed session).
    pub leaf: Option<Box<str>>,
}

/// Where a [`Checked::Moves`] line moves the conversation's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moves {
    /// The conversation from this entry on is dropped: it goes on from the
    /// entry before it.
    RewindTo(Box<str>),
    /// The conversation is now these messages, in order (ids the file may
    /// hold no line of are kept, and skipped when the end is looked for).
    History(Vec<Box<str>>),
}

/// The verdict on one raw line. (Verdicts are moved once per line, never
/// stored: boxing the facts would cost an allocation per line.)
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Checked<'a> {
    /// Empty or only whitespace: yoagent skips it.
    Blank,
    /// A format's header line (pi's `{"type":"session",…}`), not an entry;
    /// `version` is the file version it declares (pi reads a header without
    /// one as version 1).
    Header {
        /// The file version the header declares.
        version: u64,
    },
    /// A line of the app's own that holds no entry (Claude Code's summaries
    /// and housekeeping); `unknown` names its type when the format does not
    /// know it (skipped, and counted by `fsck`).
    Aside {
        /// The line's type, when the format does not know it.
        unknown: Option<Box<str>>,
        /// The title the line gives its session (Claude Code's
        /// `custom-title` and `summary` lines).
        title: Option<Title>,
    },
    /// A line of the app's own that moves where the conversation goes on
    /// (Gemini CLI's `$rewindTo` and `$set` of the whole history): the next
    /// new entry hangs from the new end ([`Joins::InFileOrder`](super::Joins::InFileOrder)).
    Moves(Moves),
    /// A loadable entry. `indent` is where the trimmed text starts.
    Entry {
        /// What the line says.
        facts: LineFacts<'a>,
        /// Where the trimmed text starts.
        indent: usize,
    },
    /// Not loadable; `indent` as above.
    Fault {
        /// Why.
        fault: LineFault,
        /// Where the trimmed text starts.
        indent: usize,
    },
    /// Not UTF-8: yoagent cannot read the file at all. `at` is the offset of
    /// the first bad byte within the line.
    NotUtf8 {
        /// The first bad byte, within the line.
        at: usize,
        /// The bytes stop in the middle of a character: a write cut short.
        cut: bool,
    },
}

impl Checked<'_> {
    /// The same verdict, owning its text.
    pub fn into_owned(self) -> Checked<'static> {
        match self {
            Checked::Blank => Checked::Blank,
            Checked::Header { version } => Checked::Header { version },
            Checked::Aside { unknown, title } => Checked::Aside { unknown, title },
            Checked::Moves(moves) => Checked::Moves(moves),
            Checked::Entry { facts, indent } => Checked::Entry {
                facts: facts.into_owned(),
                indent,
            },
            Checked::Fault { fault, indent } => Checked::Fault { fault, indent },
            Checked::NotUtf8 { at, cut } => Checked::NotUtf8 { at, cut },
        }
    }
}
