//! Codex's rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`,
//! under `$CODEX_HOME`), read only: Codex owns them.
//!
//! Each line is `{"timestamp", "type", "payload"}`. A rollout is one
//! conversation, line after line, with no ids: ysess names each entry by
//! its line (`line<N>`) and hangs it from the entry before, as it does for
//! pi's version-1 files. The types:
//!
//! - `session_meta` (the first line): the session's id, cwd and version; a
//!   header, not an entry;
//! - `response_item`: what the model saw and said: a `message` (role
//!   `user`, `assistant`, `developer` or `system`), `reasoning` (its summary
//!   is the thinking shown; the rest is encrypted), a tool call
//!   (`function_call`, `custom_tool_call`, `local_shell_call`,
//!   `web_search_call`) or a call's output (`function_call_output`,
//!   `custom_tool_call_output`), paired with its call by `call_id`;
//! - `compacted`: a compaction's summary, an entry of the conversation;
//! - `turn_context` (the model and settings of the turns that follow) and
//!   `event_msg` (the app's events: `token_count` carries one model call's
//!   usage, the others repeat what the response items say) are
//!   bookkeeping, folded out of the user's tree as ysess's records are.
//!
//! A type ysess does not know is folded out the same way and counted by
//! `fsck`. Usage: which call a `token_count` event counts is worked out in
//! [`usage`] (its place differs between versions); `input_tokens` counts
//! the cached input too, so ysess's `input` is
//! `input_tokens - cached_input_tokens` and `cache_read` is
//! `cached_input_tokens`.

pub mod handoff;
pub mod resume;
pub mod spec;
pub mod usage;

pub use spec::Codex;
use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::format::json::{self, string};
use crate::format::message::{Block, Entry, Message, NotAnEntry, Usage};
use crate::format::{Checked, LineFacts, MessageKind};

/// The line types a rollout holds.
pub const TYPES: [&str; 7] = [
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
    // Codex 0.169's: the turn's settings and context in full, and each
    // response's usage (which its `token_count` event repeats).
    "world_state",
    "token_usage_record",
];

/// The model of the outputs of a rollout that names none: Codex 0.34
/// writes no `turn_context` line and no model anywhere, and its default
/// model was `gpt-5` (what it asks a server for when none is configured;
/// ccusage assumes the same).
pub const ASSUMED_MODEL: &str = "gpt-5";

/// Whether a line is of a rollout's shape: one of [`TYPES`] with a
/// `payload` object.
pub fn is_codex_line(line: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Keys<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
        #[serde(rename = "payload")]
        _payload: Map<String, Value>,
    }
    json::object_keys::<Keys<'_>>(line, &[b"\"payload\""])
        .is_some_and(|k| TYPES.contains(&k.kind.as_ref()))
}

/// Whether an entry is bookkeeping: everything but the conversation's
/// response items and compactions.
pub fn is_record(facts: &LineFacts<'_>) -> bool {
    facts.kind == MessageKind::Custom && facts.custom_role.as_deref() != Some("compacted")
}

/// Checks one line of a rollout. `subject`: also make its subject line.
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'_> {
    let (value, indent) = match json::parse_line(bytes) {
        Ok(line) => line,
        Err(verdict) => return *verdict,
    };
    let Some(map) = value.as_object() else {
        return json::shape_fault("a Codex rollout line must be a JSON object", indent);
    };
    let kind = string(map, "type").unwrap_or_default();
    if kind == "session_meta" {
        return Checked::Header { version: 1 };
    }
    let own = |s: &str| Cow::Owned(s.to_string());
    let mut facts = LineFacts {
        timestamp: map
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(json::iso_millis)
            .unwrap_or(0),
        unnumbered: true,
        kind: MessageKind::Custom,
        custom_role: Some(own(kind)),
        ..LineFacts::default()
    };
    let payload = map.get("payload").and_then(Value::as_object);
    let item = payload.and_then(|p| string(p, "type")).unwrap_or(kind);
    facts.custom_kind = Some(own(item));
    if let Some(p) = payload {
        match kind {
            "response_item" => {
                let message = message_of(p);
                facts.kind = message.kind();
                match &message {
                    Message::Assistant { content, .. } => {
                        for b in content {
                            if let Block::ToolCall { id, name, .. } = b {
                                facts.tool_calls.push(own(id));
                                facts.tool_call_names.push(own(name));
                            }
                        }
                    }
                    Message::ToolResult { tool_call_id, .. } => {
                        facts.tool_result_for = Some(own(tool_call_id));
                    }
                    // A message of another role (the `developer`
                    // instructions Codex 0.169 sends) is an item Codex is
                    // known to write, tagged with its role; an item of a
                    // type ysess does not know is counted by `fsck`.
                    Message::Custom { kind: role, .. } if item == "message" => {
                        facts.custom_kind = Some(own(role));
                    }
                    Message::Custom { .. } => {
                        facts.custom_role = Some(own(item));
                    }
                    Message::User { .. } => {}
                }
                if facts.kind != MessageKind::Custom {
                    facts.custom_role = None;
                    facts.custom_kind = None;
                }
                if subject {
                    facts.subject = Some(Cow::Owned(message.subject()));
                }
                // Context Codex injects as a user message is not the user's.
                if let Message::User { content } = &message
                    && content.iter().any(|b| {
                        matches!(b, Block::Markup { pieces, .. } if crate::format::markup::only_context(pieces))
                    })
                {
                    facts.custom_kind = Some(own("meta"));
                }
            }
            "compacted" if subject => {
                let said = string(p, "message").unwrap_or("compacted");
                facts.subject = Some(Cow::Owned(json::subject_line(said)));
            }
            _ if subject => facts.subject = Some(own(item)),
            _ => {}
        }
        // The model of the turns that follow.
        if kind == "turn_context" {
            facts.model = string(p, "model").map(own);
        }
    }
    Checked::Entry { facts, indent }
}

/// The text of a message's content parts (`input_text`, `output_text`,
/// `text`, `summary_text`).
fn texts(parts: Option<&Value>) -> Vec<String> {
    match parts {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// A tool call's arguments: JSON where the text is JSON, else the text.
fn arguments(text: Option<&Value>) -> Value {
    match text {
        Some(Value::String(s)) => {
            serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
        }
        Some(other) => other.clone(),
        None => Value::Null,
    }
}

fn assistant(content: Vec<Block>) -> Message {
    Message::Assistant {
        content,
        stop_reason: String::new(),
        model: String::new(),
        provider: "openai".to_string(),
        usage: Usage::default(),
        error_message: None,
        fast: false,
    }
}

/// A response item as the one message model.
fn message_of(p: &Map<String, Value>) -> Message {
    let item = string(p, "type").unwrap_or_default();
    let call_id = || string(p, "call_id").unwrap_or_default().to_string();
    match item {
        "message" => {
            let user = string(p, "role") == Some("user");
            let content = texts(p.get("content"))
                .into_iter()
                .map(|t| if user { Block::said(t) } else { Block::Text(t) })
                .collect();
            match string(p, "role") {
                Some("user") => Message::User { content },
                Some("assistant") => assistant(content),
                role => Message::Custom {
                    role: "codex".to_string(),
                    kind: role.unwrap_or("message").to_string(),
                    data: Value::Object(p.clone()),
                    said: Vec::new(),
                },
            }
        }
        "reasoning" => {
            let summary = texts(p.get("summary")).join("\n");
            assistant(vec![Block::Thinking {
                redacted: summary.is_empty(),
                text: summary,
            }])
        }
        "function_call" | "custom_tool_call" | "local_shell_call" | "web_search_call" => {
            let name = string(p, "name").map_or_else(
                || item.trim_end_matches("_call").to_string(),
                str::to_string,
            );
            let arguments = match item {
                "function_call" => arguments(p.get("arguments")),
                "custom_tool_call" => arguments(p.get("input")),
                _ => p.get("action").cloned().unwrap_or(Value::Null),
            };
            let id = string(p, "call_id")
                .or_else(|| string(p, "id"))
                .unwrap_or_default()
                .to_string();
            assistant(vec![Block::ToolCall {
                id,
                name,
                arguments,
            }])
        }
        "function_call_output" | "custom_tool_call_output" => {
            // A function's output is JSON text holding `output` (and the
            // exit code in `metadata`), or the output itself.
            let raw = p.get("output");
            let (text, failed) = match raw {
                Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
                    Ok(Value::Object(o)) if o.contains_key("output") => (
                        o.get("output")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        o.get("metadata")
                            .and_then(|m| m.get("exit_code"))
                            .and_then(Value::as_i64)
                            .is_some_and(|c| c != 0),
                    ),
                    _ => (s.clone(), false),
                },
                Some(Value::Object(o)) => (
                    texts(o.get("content")).join("\n"),
                    o.get("success").and_then(Value::as_bool) == Some(false),
                ),
                _ => (String::new(), false),
            };
            Message::ToolResult {
                tool_call_id: call_id(),
                tool_name: String::new(),
                content: vec![Block::Text(text)],
                is_error: failed,
            }
        }
        other => Message::Custom {
            role: "codex".to_string(),
            kind: other.to_string(),
            data: Value::Object(p.clone()),
            said: Vec::new(),
        },
    }
}

/// An entry read in full (its id and parent are given by the tree, which
/// numbers the lines).
pub fn entry(line: &[u8]) -> Result<Entry, NotAnEntry> {
    let map = &json::object_line(line)?;
    let kind = string(map, "type").unwrap_or_default();
    let payload = map.get("payload").and_then(Value::as_object);
    let message = match (kind, payload) {
        ("response_item", Some(p)) => message_of(p),
        (_, p) => Message::Custom {
            role: "codex".to_string(),
            kind: p
                .and_then(|p| string(p, "type"))
                .unwrap_or(kind)
                .to_string(),
            data: p.map_or(Value::Null, |p| Value::Object(p.clone())),
            // A compaction says its summary; the history it put in place
            // stays in its data (`export` sends it).
            said: p
                .filter(|_| kind == "compacted")
                .and_then(|p| string(p, "message"))
                .map(|m| vec![Block::Text(m.to_string())])
                .unwrap_or_default(),
        },
    };
    let message_value = payload.map_or(Value::Null, |p| Value::Object(p.clone()));
    Ok(Entry {
        id: String::new(),
        parent_id: None,
        timestamp: map
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(json::iso_millis)
            .unwrap_or(0),
        label: None,
        message,
        message_value,
    })
}

/// What a `token_count` event's line reports ([`usage::Count`]; `None`
/// inside for `info: null`, which Codex writes before any call has
/// returned). `None` for any other line. `input_tokens` counts the cached
/// input too: ysess's `input` is the rest.
pub fn token_count(line: &[u8]) -> Option<Option<usage::Count>> {
    let value: Value = serde_json::from_slice(line).ok()?;
    let payload = value.get("payload")?;
    if value.get("type")?.as_str()? != "event_msg"
        || payload.get("type")?.as_str()? != "token_count"
    {
        return None;
    }
    let Some(info) = payload.get("info").filter(|i| i.is_object()) else {
        return Some(None);
    };
    let read = |u: &Value| {
        let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
        let (input, cached, output) = (
            n("input_tokens"),
            n("cached_input_tokens"),
            n("output_tokens"),
        );
        Usage {
            input: input.saturating_sub(cached),
            output,
            cache_read: cached,
            cache_write: 0,
            cache_write_1h: 0,
            total_tokens: input + output,
        }
    };
    Some(Some(usage::Count {
        last: info
            .get("last_token_usage")
            .filter(|u| u.is_object())
            .map(read),
        total: info
            .get("total_token_usage")
            .filter(|u| u.is_object())
            .map(read),
    }))
}
