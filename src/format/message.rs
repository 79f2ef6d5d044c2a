//! One entry read in full, for the commands that print messages. Only the
//! entries a command prints are parsed this way; everything else stays bytes
//! in the file.

use crate::format::MessageKind;
pub use crate::format::markup::{Look, Piece};
use serde_json::Value;

/// An entry as stored, its message decoded for display.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Its id (for a format numbered by line, the id ysess gives it).
    pub id: String,
    /// Its parent's id, as stored; `None` for a root.
    pub parent_id: Option<String>,
    /// Milliseconds since the epoch; 0 when the line has no time.
    pub timestamp: u64,
    /// The label the line carries, if any.
    pub label: Option<String>,
    /// Its message, decoded.
    pub message: Message,
    /// The message as stored, a model message's tags named as yoagent
    /// names them (see [`crate::format::yoagent::canonical::named_tags`]).
    pub message_value: Value,
}

/// A message, whatever the format: the one model every view reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// The person's words (or, for Claude Code, text the app sent as the
    /// user).
    User {
        /// Its blocks, in order.
        content: Vec<Block>,
    },
    /// A model's reply.
    Assistant {
        /// Its blocks, in order: text, thinking, tool calls.
        content: Vec<Block>,
        /// Why the model stopped (`stop`, `toolUse`, `end_turn`…); empty
        /// when the line does not say.
        stop_reason: String,
        /// The model that wrote it.
        model: String,
        /// Who served the model (`anthropic`…); empty when not recorded.
        provider: String,
        /// The tokens it used.
        usage: Usage,
        /// The provider's error, when the call failed.
        error_message: Option<String>,
        /// Served in fast mode (Claude Code's `usage.speed: "fast"`, Codex's
        /// `fast` or `priority` service tier), which costs more.
        fast: bool,
    },
    /// A tool's answer to a call.
    ToolResult {
        /// The id of the call it answers.
        tool_call_id: String,
        /// The tool (for Claude Code, the name on the call it answers).
        tool_name: String,
        /// Its blocks, in order.
        content: Vec<Block>,
        /// The tool reported an error.
        is_error: bool,
    },
    /// An app's own record: kept in history, never sent to a model.
    Custom {
        /// The role string it carries.
        role: String,
        /// What kind of record it is.
        kind: String,
        /// Its data, as stored.
        data: Value,
        /// What it says in words, when the app wrote it as a message
        /// (Claude Code's slash command on a `system` line): views show
        /// these blocks instead of its data. Empty for most records.
        said: Vec<Block>,
    },
}

/// The tokens one model call used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Input tokens (not read from the cache).
    pub input: u64,
    /// Output tokens.
    pub output: u64,
    /// Input tokens read from the prompt cache.
    pub cache_read: u64,
    /// Input tokens written to the prompt cache.
    pub cache_write: u64,
    /// Of `cache_write`, the tokens written for one hour rather than five
    /// minutes (Claude Code's `cache_creation.ephemeral_1h_input_tokens`),
    /// priced at their own rate.
    pub cache_write_1h: u64,
    /// The total as the message records it (0 when it does not).
    pub total_tokens: u64,
}

impl Usage {
    /// These counts, their total the sum of the four (no one-hour cache
    /// writes).
    pub fn counted(input: u64, output: u64, cache_read: u64, cache_write: u64) -> Usage {
        Usage {
            input,
            output,
            cache_read,
            cache_write,
            cache_write_1h: 0,
            total_tokens: input + output + cache_read + cache_write,
        }
    }

    /// Adds `other`'s tokens to these, as a sum of turns counts them: its
    /// total is then the sum of the four counts.
    pub fn add(&mut self, other: &Usage) {
        self.input += other.input;
        self.output += other.output;
        self.cache_read += other.cache_read;
        self.cache_write += other.cache_write;
        self.cache_write_1h += other.cache_write_1h;
        self.total_tokens = self.input + self.output + self.cache_read + self.cache_write;
    }
}

/// One content block of a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// Text.
    Text(String),
    /// An image: its type and the size of its decoded data.
    Image {
        /// `image/png`, …
        mime_type: String,
        /// Bytes of decoded image data.
        bytes: usize,
    },
    /// The model's reasoning.
    Thinking {
        /// Its text (empty when redacted).
        text: String,
        /// Encrypted reasoning the provider returned instead of text.
        redacted: bool,
    },
    /// A call of a tool.
    ToolCall {
        /// The call's id, which its result names.
        id: String,
        /// The tool.
        name: String,
        /// Its arguments, as given.
        arguments: Value,
    },
    /// Text an agent wrote as markup (a slash command, its output, a shell
    /// command, a task's notification, context it injected), read as what
    /// it means ([`crate::format::markup`]).
    Markup {
        /// The text as stored: what `grep` searches and `stats` measures.
        text: String,
        /// What it says, in order.
        pieces: Vec<Piece>,
    },
}

impl Block {
    /// A text block of words the user's side of a conversation sent: the
    /// app's markup in it read as such ([`Block::Markup`]), else plain
    /// [`Block::Text`].
    pub fn said(text: String) -> Block {
        match crate::format::markup::read(&text) {
            Some(pieces) => Block::Markup { text, pieces },
            None => Block::Text(text),
        }
    }

    /// The text of a text block as stored, markup included.
    pub fn text(&self) -> Option<&str> {
        match self {
            Block::Text(text) | Block::Markup { text, .. } => Some(text),
            _ => None,
        }
    }
}

pub use super::json::NotAnEntry;

impl Message {
    /// The role as ysess names it everywhere: `user`, `assistant`,
    /// `toolResult`, or `custom` for a custom message, whatever role string
    /// it carries (yoagent's `CustomMessage`; its kind says what it is).
    pub fn role(&self) -> &'static str {
        self.kind().role_name()
    }

    /// The kind of message, as the index keeps it.
    pub fn kind(&self) -> MessageKind {
        match self {
            Message::User { .. } => MessageKind::User,
            Message::Assistant { .. } => MessageKind::Assistant,
            Message::ToolResult { .. } => MessageKind::ToolResult,
            Message::Custom { .. } => MessageKind::Custom,
        }
    }

    /// Its content blocks (for a custom message, what it says in words,
    /// if anything).
    pub fn content(&self) -> &[Block] {
        match self {
            Message::User { content }
            | Message::Assistant { content, .. }
            | Message::ToolResult { content, .. } => content,
            Message::Custom { said, .. } => said,
        }
    }

    /// The first line of the user's own words in a user message: its text,
    /// without the markup and context an app put in it (`None` when it
    /// holds none, or is not a user message).
    pub fn own_words(&self) -> Option<String> {
        let Message::User { content } = self else {
            return None;
        };
        content
            .iter()
            .filter_map(|b| match b {
                Block::Text(text) => Some(text.as_str()),
                Block::Markup { pieces, .. } => crate::format::markup::words(pieces),
                _ => None,
            })
            .map(crate::format::json::subject_line)
            .find(|line| !line.is_empty())
    }

    /// One line that says what the message is about: the first line of its
    /// first text block; else its first tool call; else its thinking; else
    /// its image; for a custom record, its data. (The index computes the same
    /// while scanning; this is for lines the scanner leaves to serde.)
    pub fn subject(&self) -> String {
        let line = crate::format::json::subject_line;
        if let Message::Custom { data, said, .. } = self
            && said.is_empty()
        {
            return line(&data.to_string());
        }
        let content = self.content();
        let text = content.iter().find_map(|b| match b {
            Block::Text(t) => Some(line(t)),
            Block::Markup { pieces, .. } => crate::format::markup::subject_of(pieces),
            _ => None,
        });
        let call = || {
            content.iter().find_map(|b| match b {
                Block::ToolCall {
                    name, arguments, ..
                } => Some(line(&format!("{name} {arguments}"))),
                _ => None,
            })
        };
        let thinking = || {
            content.iter().find_map(|b| match b {
                Block::Thinking { text, .. } => Some(line(text)).filter(|l| !l.is_empty()),
                _ => None,
            })
        };
        let image = || {
            content.iter().find_map(|b| match b {
                Block::Image { mime_type, bytes } => {
                    Some(format!("[{mime_type}, {}]", human_size(*bytes)))
                }
                _ => None,
            })
        };
        text.filter(|t| !t.is_empty())
            .or_else(call)
            .or_else(thinking)
            .or_else(image)
            .unwrap_or_default()
    }
}

/// `12 KB`, `3.4 MB`: sizes as a person reads them.
pub fn human_size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{} KB", (b + 512) / 1024),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_is_the_first_line_of_text_then_the_tool_call() {
        let line = br#"{"id":"e2","parent_id":"e1","timestamp":5,"message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2,"cache_read":3},"timestamp":5}}"#;
        let e = Entry::parse(line).expect("parses");
        assert_eq!(e.message.subject(), r#"bash {"command":"ls"}"#);
        let Message::Assistant { usage, .. } = &e.message else {
            panic!("assistant")
        };
        assert_eq!(usage.cache_read, 3);
        let line = br#"{"id":"e1","timestamp":5,"message":{"role":"user","content":[{"type":"text","text":"\n  draft a plan\nwith steps"}],"timestamp":5}}"#;
        assert_eq!(
            Entry::parse(line).expect("parses").message.subject(),
            "draft a plan"
        );
    }

    #[test]
    fn a_user_role_with_kind_and_data_but_no_content_is_custom_as_in_yoagent() {
        let line =
            br#"{"id":"e1","timestamp":5,"message":{"role":"user","kind":"note","data":{"a":1}}}"#;
        let e = Entry::parse(line).expect("parses");
        assert!(
            matches!(e.message, Message::Custom { ref kind, ref role, .. } if kind == "note" && role == "user")
        );
        assert_eq!(e.message.role(), "custom");
    }

    #[test]
    fn sizes_read_like_a_person_writes_them() {
        assert_eq!(human_size(900), "900 B");
        assert_eq!(human_size(12 * 1024), "12 KB");
        assert_eq!(human_size(3 * 1024 * 1024 + 400 * 1024), "3.4 MB");
    }
}
