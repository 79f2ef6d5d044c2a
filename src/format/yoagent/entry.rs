//! Reading one yoagent entry whole, for the commands that print messages:
//! the shapes follow yoagent's own decision between a model message and a
//! custom record.

use serde_json::Value;

use super::canonical;
use super::schema::is_llm_message;
use crate::format::message::{Block, Entry, Message, NotAnEntry, Usage};

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
pub fn stored_role(message: &Value, llm: bool) -> Option<&str> {
    match message.get("role") {
        Some(Value::Number(n)) if llm => canonical::ROLES
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
        let fits_llm = is_llm_message(&message_value);
        if fits_llm {
            message_value = canonical::named_tags(message_value);
        }
        let m = &message_value;
        let message = match stored_role(m, fits_llm) {
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
                        cache_write_1h: 0,
                        total_tokens: number(&usage, &["totalTokens", "total_tokens"]),
                    },
                    fast: false,
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
                said: Vec::new(),
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
