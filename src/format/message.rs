//! One entry read in full, for the commands that print messages. Only the
//! entries a command prints are parsed this way; everything else stays bytes
//! in the file.

use crate::format::MessageKind;
use serde_json::Value;

/// An entry as stored, its message decoded for display.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: String,
    pub parent_id: Option<String>,
    pub timestamp: u64,
    pub label: Option<String>,
    pub message: Message,
    /// The message as stored, a model message's tags named as yoagent
    /// names them (see [`crate::format::yoagent::canonical::named_tags`]).
    pub message_value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    User {
        content: Vec<Block>,
    },
    Assistant {
        content: Vec<Block>,
        stop_reason: String,
        model: String,
        provider: String,
        usage: Usage,
        error_message: Option<String>,
    },
    ToolResult {
        tool_call_id: String,
        tool_name: String,
        content: Vec<Block>,
        is_error: bool,
    },
    /// An app's own record: kept in history, never sent to a model.
    Custom {
        role: String,
        kind: String,
        data: Value,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub total_tokens: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Text(String),
    /// An image: its type and the size of its decoded data.
    Image {
        mime_type: String,
        bytes: usize,
    },
    Thinking {
        text: String,
        /// Encrypted reasoning the provider returned instead of text.
        redacted: bool,
    },
    ToolCall {
        id: String,
        name: String,
        arguments: Value,
    },
}

/// Why a line could not be read as an entry (the file needs `ysess fsck`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnEntry(pub String);

impl std::fmt::Display for NotAnEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn text(v: &Value, key: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

fn number(v: &Value, keys: &[&str]) -> u64 {
    keys.iter()
        .find_map(|k| v.get(*k).and_then(Value::as_u64))
        .unwrap_or(0)
}

fn blocks(v: &Value) -> Vec<Block> {
    let Some(items) = v.get("content").and_then(Value::as_array) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|b| match b.get("type").and_then(Value::as_str)? {
            "text" => Some(Block::Text(text(b, "text"))),
            "image" => Some(Block::Image {
                mime_type: text(b, "mimeType"),
                // base64: four characters carry three bytes.
                bytes: b
                    .get("data")
                    .and_then(Value::as_str)
                    .map_or(0, |d| d.trim_end_matches('=').len() * 3 / 4),
            }),
            "thinking" => Some(Block::Thinking {
                text: text(b, "thinking"),
                redacted: b.get("redacted").is_some_and(|r| !r.is_null()),
            }),
            "toolCall" => Some(Block::ToolCall {
                id: text(b, "id"),
                name: text(b, "name"),
                arguments: b.get("arguments").cloned().unwrap_or(Value::Null),
            }),
            _ => None,
        })
        .collect()
}

/// A message's role as yoagent reads it: the `role` string, or, for a model
/// message (`llm`), a variant index in its place, which serde also accepts.
pub fn role_name(message: &Value, llm: bool) -> Option<&str> {
    match message.get("role") {
        Some(Value::Number(n)) if llm => crate::format::yoagent::canonical::ROLES
            .get(usize::try_from(n.as_u64()?).ok()?)
            .copied(),
        other => other.and_then(Value::as_str),
    }
}

impl Entry {
    /// Reads one line that fsck accepts. The shapes follow yoagent's own
    /// decision: a model message when the role is one of its three and the
    /// fields fit, otherwise a custom record.
    pub fn parse(line: &[u8]) -> Result<Entry, NotAnEntry> {
        /// The entry's fields, read as yoagent reads them: unknown fields
        /// skipped unread, an array standing in for the object accepted.
        #[derive(serde::Deserialize)]
        struct Fields<'a> {
            id: String,
            parent_id: Option<String>,
            #[serde(borrow)]
            message: &'a serde_json::value::RawValue,
            timestamp: u64,
            #[serde(default)]
            label: Option<String>,
        }
        let line = std::str::from_utf8(line).map_err(|e| NotAnEntry(format!("not UTF-8: {e}")))?;
        let fields: Fields<'_> =
            serde_json::from_str(line).map_err(|e| NotAnEntry(format!("not an entry: {e}")))?;
        let mut message_value: Value = serde_json::from_str(fields.message.get())
            .map_err(|e| NotAnEntry(format!("message: {e}")))?;
        let fits_llm = crate::format::yoagent::exact::is_llm_message(&message_value);
        if fits_llm {
            message_value = crate::format::yoagent::canonical::named_tags(&message_value);
        }
        let m = &message_value;
        let message = match role_name(m, fits_llm) {
            Some("user") if fits_llm => Message::User { content: blocks(m) },
            Some("assistant") if fits_llm => {
                let usage = m.get("usage").cloned().unwrap_or(Value::Null);
                Message::Assistant {
                    content: blocks(m),
                    stop_reason: text(m, "stopReason"),
                    model: text(m, "model"),
                    provider: text(m, "provider"),
                    usage: Usage {
                        input: number(&usage, &["input"]),
                        output: number(&usage, &["output"]),
                        cache_read: number(&usage, &["cacheRead", "cache_read"]),
                        cache_write: number(&usage, &["cacheWrite", "cache_write"]),
                        total_tokens: number(&usage, &["totalTokens", "total_tokens"]),
                    },
                    error_message: m
                        .get("errorMessage")
                        .or_else(|| m.get("error_message"))
                        .and_then(Value::as_str)
                        .map(str::to_string),
                }
            }
            Some("toolResult") if fits_llm => Message::ToolResult {
                tool_call_id: text(m, "toolCallId"),
                tool_name: text(m, "toolName"),
                content: blocks(m),
                is_error: m.get("isError").and_then(Value::as_bool).unwrap_or(false),
            },
            _ => Message::Custom {
                role: m
                    .get("role")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                kind: text(m, "kind"),
                data: m.get("data").cloned().unwrap_or(Value::Null),
            },
        };
        Ok(Entry {
            id: fields.id,
            parent_id: fields.parent_id,
            timestamp: fields.timestamp,
            label: fields.label,
            message,
            message_value,
        })
    }

    /// The entry as yoagent would write it: its fields in yoagent's order,
    /// unknown fields dropped.
    pub fn canonical(&self) -> Value {
        let mut v = serde_json::json!({
            "id": self.id,
            "parent_id": self.parent_id,
            "message": self.message_value,
            "timestamp": self.timestamp,
        });
        if let Some(label) = &self.label {
            v["label"] = Value::String(label.clone());
        }
        v
    }
}

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

    pub fn content(&self) -> &[Block] {
        match self {
            Message::User { content }
            | Message::Assistant { content, .. }
            | Message::ToolResult { content, .. } => content,
            Message::Custom { .. } => &[],
        }
    }

    /// One line that says what the message is about: the first line of its
    /// first text block; else its first tool call; else its thinking; else
    /// its image; for a custom record, its data. (The index computes the same
    /// while scanning; this is for lines the scanner leaves to serde.)
    pub fn subject(&self) -> String {
        let line = |t: &str| first_line(t).chars().take(200).collect::<String>();
        if let Message::Custom { data, .. } = self {
            return line(&data.to_string());
        }
        let content = self.content();
        let text = content.iter().find_map(|b| match b {
            Block::Text(t) => Some(line(t)),
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

/// The first non-blank line, trimmed.
fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
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
