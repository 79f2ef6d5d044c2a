//! The kind of message an entry carries: what the tree keeps of each
//! node's message, and what every format's reader says of each line.

/// What kind of message an entry carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MessageKind {
    /// The person's message.
    #[default]
    User,
    /// A model's reply.
    Assistant,
    /// A tool's answer to a call.
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
