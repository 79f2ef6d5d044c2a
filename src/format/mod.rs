//! Session formats, and the one model of an entry every command uses.
//!
//! A format turns one line of its files into [`LineFacts`] (what the tree
//! index and the checks need, never the message body, which stays in the
//! file by range) or says why the line is not an entry ([`Checked`]), and
//! reads an entry whole as a [`message::Entry`] when a command prints it.
//! [`yoagent`] is the format ysess reads today.

pub mod message;
pub mod yoagent;

use std::borrow::Cow;

use self::yoagent::exact::LineFault;

/// A session format ysess reads: how its files spell the one tree model.
/// A new format is a variant here and a module beside [`yoagent`]; commands
/// never branch on it, only the readers and writers do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// yoagent 0.26.6's `Session::to_jsonl`.
    Yoagent,
}

impl Format {
    /// The name ysess shows and takes for the format.
    pub fn name(self) -> &'static str {
        match self {
            Format::Yoagent => "yoagent",
        }
    }
}

/// What kind of message an entry carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MessageKind {
    #[default]
    User,
    Assistant,
    ToolResult,
    /// An app-specific record (`{role, kind, data}`), never sent to a model.
    Custom,
}

impl MessageKind {
    /// The one name ysess gives each kind in every output: the role as it
    /// appears in the file, and `custom` for a custom message (which carries
    /// a role string of its own).
    pub fn role_name(self) -> &'static str {
        match self {
            MessageKind::User => "user",
            MessageKind::Assistant => "assistant",
            MessageKind::ToolResult => "toolResult",
            MessageKind::Custom => "custom",
        }
    }
}

/// The facts of one valid line, borrowed from the line where possible.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LineFacts<'a> {
    pub id: Cow<'a, str>,
    pub parent: Option<Cow<'a, str>>,
    pub label: Option<Cow<'a, str>>,
    pub timestamp: u64,
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
    /// One line saying what the message is about (see `Message::subject`).
    pub subject: Option<Cow<'a, str>>,
}

impl LineFacts<'_> {
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
            subject: self.subject.map(own),
        }
    }
}

/// The verdict on one raw line.
#[derive(Debug)]
pub enum Checked<'a> {
    /// Empty or only whitespace: yoagent skips it.
    Blank,
    /// A loadable entry. `indent` is where the trimmed text starts.
    Entry { facts: LineFacts<'a>, indent: usize },
    /// Not loadable; `indent` as above.
    Fault { fault: LineFault, indent: usize },
    /// Not UTF-8: yoagent cannot read the file at all. `at` is the offset of
    /// the first bad byte within the line.
    NotUtf8 {
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
            Checked::Entry { facts, indent } => Checked::Entry {
                facts: facts.into_owned(),
                indent,
            },
            Checked::Fault { fault, indent } => Checked::Fault { fault, indent },
            Checked::NotUtf8 { at, cut } => Checked::NotUtf8 { at, cut },
        }
    }
}
