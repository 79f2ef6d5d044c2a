//! GitHub Copilot CLI's session files
//! (`~/.copilot/session-state/<session id>/events.jsonl`), read only:
//! Copilot CLI owns them and resumes inside itself (`--resume`,
//! `--continue`).
//!
//! Each line is an event, `{type, data, id, timestamp, parentId}`, and
//! `parentId` is the event written before it: one chain, which Copilot CLI
//! replays in file order when it resumes (a `/rewind` deletes the rewound
//! events from the file). The conversation's events are `user.message`,
//! `assistant.message` (its `toolRequests` the calls) and
//! `tool.execution_complete` (a call's result); a compaction
//! (`session.compaction_complete`) is kept as a node with its summary.
//! Everything else (`session.start`, `system.message`, turn markers,
//! `session.usage_record`, `session.shutdown`, …) is bookkeeping, folded
//! out. A subagent's events carry an `agentId` and are folded out of the
//! session's tree as Claude Code's sidechain lines are.
//!
//! A reply's usage is the `session.usage_record` written right before it
//! (its `apiCallId` the reply's): `inputTokens` holds the cache reads and
//! writes, `outputTokens` the reasoning. Read as Copilot CLI 1.0.102 writes
//! them (the fixtures it wrote against a mock model).

pub mod handoff;
pub mod spec;
pub mod usage;

use std::borrow::Cow;

use serde_json::{Map, Value};

pub use spec::Copilot;

use crate::format::json::{self, string};
use crate::format::message::{Block, Entry, Message, NotAnEntry, Usage};
use crate::format::{Checked, LineFacts, MessageKind};

/// The event that holds a compaction's summary: a node of the tree.
pub const COMPACTION: &str = "session.compaction_complete";

/// The event that holds a model call's usage.
pub const USAGE: &str = "session.usage_record";

/// Whether a line is of Copilot CLI's shape: an event with a dotted `type`
/// (`session.start`, `user.message`, …), a `data` object and an `id`.
pub fn is_copilot_line(line: &[u8]) -> bool {
    use serde::de::IgnoredAny;

    #[derive(serde::Deserialize)]
    struct Keys<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
        #[serde(rename = "data")]
        _data: Map<String, Value>,
        #[serde(rename = "id")]
        _id: IgnoredAny,
        #[serde(rename = "parentId")]
        _parent: IgnoredAny,
    }
    json::object_keys::<Keys<'_>>(line, &[b"\"parentId\""]).is_some_and(|k| {
        let mut parts = k.kind.split('.');
        parts.next().is_some_and(|p| !p.is_empty()) && parts.next().is_some_and(|p| !p.is_empty())
    })
}

/// What a compaction that did not take place (`success: false`: Copilot
/// CLI cancels one when the turn ends first) is tagged: bookkeeping.
const CANCELLED: &str = "cancelled";

/// Whether an event is bookkeeping: all but the conversation's and a
/// compaction that took place.
pub fn is_record(facts: &LineFacts<'_>) -> bool {
    facts.kind == MessageKind::Custom
        && !(facts.custom_kind.as_deref() == Some(COMPACTION)
            && facts.custom_role.as_deref() != Some(CANCELLED))
}

/// Whether a compaction event took place (a cancelled one did not).
fn compacted(data: &Value) -> bool {
    data.get("success").and_then(Value::as_bool) != Some(false)
}

/// Checks one line as Copilot CLI's files hold it. `subject`: also make
/// the entry's subject line.
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'static> {
    let (value, indent) = match json::parse_line(bytes) {
        Ok(line) => line,
        Err(verdict) => return *verdict,
    };
    let fault = |message: &str| json::shape_fault(message, indent);
    let Some(map) = value.as_object() else {
        return fault("a Copilot CLI event must be a JSON object");
    };
    let Some(id) = string(map, "id") else {
        return fault("a Copilot CLI event must have a string `id`");
    };
    let kind = string(map, "type").unwrap_or_default();
    let data = map.get("data").and_then(Value::as_object);
    let field = |k: &str| data.and_then(|d| string(d, k));
    let own = |s: &str| Cow::Owned(s.to_string());
    let mut facts = LineFacts {
        id: own(id),
        parent: string(map, "parentId").map(own),
        timestamp: json::millis(map.get("timestamp")),
        kind: MessageKind::Custom,
        custom_role: Some(own(kind)),
        custom_kind: Some(own(kind)),
        sidechain: map.contains_key("agentId"),
        ..LineFacts::default()
    };
    match kind {
        "user.message" => facts.kind = MessageKind::User,
        "assistant.message" => {
            facts.kind = MessageKind::Assistant;
            facts.model = field("model").map(own);
            (facts.tool_calls, facts.tool_call_names) = requests(data)
                .map(|(id, name)| (own(id), own(name)))
                .unzip();
        }
        "tool.execution_complete" => {
            facts.kind = MessageKind::ToolResult;
            facts.tool_result_for = field("toolCallId").map(own);
        }
        COMPACTION if !compacted(map.get("data").unwrap_or(&Value::Null)) => {
            facts.custom_role = Some(own(CANCELLED));
        }
        _ => {}
    }
    if facts.kind != MessageKind::Custom {
        facts.custom_role = None;
        facts.custom_kind = None;
    }
    if subject {
        let said = entry_of(map).map_or_else(|_| String::new(), |e| e.message.subject());
        facts.subject = Some(Cow::Owned(said));
    }
    Checked::Entry { facts, indent }
}

/// The `(toolCallId, name)` of each of a reply's tool requests.
fn requests(data: Option<&Map<String, Value>>) -> impl Iterator<Item = (&str, &str)> {
    data.and_then(|d| d.get("toolRequests"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|r| {
            let field = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default();
            (field("toolCallId"), field("name"))
        })
}

/// An entry read in full, for the commands that print it.
pub fn entry(line: &[u8]) -> Result<Entry, NotAnEntry> {
    entry_of(&json::object_line(line)?)
}

fn entry_of(map: &Map<String, Value>) -> Result<Entry, NotAnEntry> {
    let id = string(map, "id").ok_or_else(|| NotAnEntry("no `id`".to_string()))?;
    let kind = string(map, "type").unwrap_or_default();
    let empty = Map::new();
    let data = map.get("data").and_then(Value::as_object).unwrap_or(&empty);
    let field = |k: &str| string(data, k).unwrap_or_default();
    let (message, sent) = match kind {
        "user.message" => (
            Message::User {
                content: vec![Block::said(field("content").to_string())],
            },
            serde_json::json!({
                "role": "user",
                "content": string(data, "transformedContent").unwrap_or(field("content")),
            }),
        ),
        "assistant.message" => reply(data),
        "tool.execution_complete" => {
            let said = result_text(data);
            (
                Message::ToolResult {
                    tool_call_id: field("toolCallId").to_string(),
                    tool_name: String::new(),
                    content: vec![Block::Text(said.clone())],
                    is_error: data.get("success").and_then(Value::as_bool) == Some(false),
                },
                serde_json::json!({
                    "role": "tool",
                    "tool_call_id": field("toolCallId"),
                    "content": said,
                }),
            )
        }
        _ => (
            Message::Custom {
                role: "copilot".to_string(),
                kind: kind.to_string(),
                said: said(kind, data),
                data: Value::Object(data.clone()),
            },
            Value::Object(map.clone()),
        ),
    };
    Ok(Entry {
        id: id.to_string(),
        parent_id: string(map, "parentId").map(str::to_string),
        timestamp: json::millis(map.get("timestamp")),
        label: None,
        message,
        message_value: sent,
    })
}

/// An assistant's reply (`assistant.message`): its thinking, text and tool
/// calls, and the message as sent to the model.
fn reply(data: &Map<String, Value>) -> (Message, Value) {
    let field = |k: &str| string(data, k).unwrap_or_default();
    let thinking = Some(field("reasoningText"))
        .filter(|t| !t.is_empty())
        .map(|t| Block::Thinking {
            text: t.to_string(),
            redacted: false,
        });
    let text = Some(field("content"))
        .filter(|t| !t.is_empty())
        .map(|t| Block::Text(t.to_string()));
    let calls = data
        .get("toolRequests")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|r| {
            let f = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default();
            Block::ToolCall {
                id: f("toolCallId").to_string(),
                name: f("name").to_string(),
                arguments: r.get("arguments").cloned().unwrap_or(Value::Null),
            }
        });
    let content: Vec<Block> = thinking.into_iter().chain(text).chain(calls).collect();
    // Older versions wrote the reply's output tokens on it.
    let output = data
        .get("outputTokens")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let tool_calls: Vec<Value> = data
        .get("toolRequests")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.get("toolCallId"),
                "type": "function",
                "function": {"name": r.get("name"), "arguments": r.get("arguments")},
            })
        })
        .collect();
    (
        Message::Assistant {
            content,
            stop_reason: String::new(),
            model: field("model").to_string(),
            provider: String::new(),
            usage: Usage::counted(0, output, 0, 0),
            error_message: None,
            fast: false,
        },
        serde_json::json!({
            "role": "assistant",
            "content": field("content"),
            "tool_calls": tool_calls,
        }),
    )
}

/// What a tool call's completion says: its result's content, or its error.
fn result_text(data: &Map<String, Value>) -> String {
    let text = |v: Option<&Value>, k: &str| {
        v.and_then(|v| v.get(k))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    text(data.get("result"), "content")
        .or_else(|| text(data.get("error"), "message"))
        .unwrap_or_default()
}

/// What an event says in words: a compaction, its tokens before and
/// after, then its summary; the app's bookkeeping, what it did (not its
/// data, which holds ids of its own).
fn said(kind: &str, data: &Map<String, Value>) -> Vec<Block> {
    if kind != COMPACTION {
        let field = |k: &str| string(data, k).unwrap_or_default();
        let n = |v: &Value, k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
        let text = match kind {
            "session.start" => format!(
                "session started in {}",
                data.get("context")
                    .and_then(|c| c.get("cwd"))
                    .and_then(Value::as_str)
                    .unwrap_or("?")
            ),
            "session.resume" => "session resumed".to_string(),
            "system.message" => format!(
                "system prompt ({} characters)",
                field("content").chars().count()
            ),
            "assistant.turn_start" | "assistant.turn_end" => format!("turn {}", field("turnId")),
            USAGE => {
                let u = data.get("usage").unwrap_or(&Value::Null);
                format!(
                    "{}: {} in, {} out, {} cache read",
                    u.get("model").and_then(Value::as_str).unwrap_or("?"),
                    n(u, "inputTokens"),
                    n(u, "outputTokens"),
                    n(u, "cacheReadTokens")
                )
            }
            "session.shutdown" => format!("shutdown ({})", field("shutdownType")),
            "session.model_change" => format!("model {}", field("newModel")),
            "tool.execution_start" => format!("{} started", field("toolName")),
            k if k.starts_with("subagent.") => format!("{} {}", field("agentName"), &k[9..]),
            "session.info" | "session.warning" => field("message").to_string(),
            other => other.to_string(),
        };
        return vec![Block::Text(text)];
    }
    if data.get("success").and_then(Value::as_bool) == Some(false) {
        let outcome = string(data, "outcome").unwrap_or("failed");
        return vec![Block::Text(format!("Conversation compaction {outcome}"))];
    }
    let n = |k: &str| data.get(k).and_then(Value::as_u64);
    let head = match (n("preCompactionTokens"), n("postCompactionTokens")) {
        (Some(a), Some(b)) => format!("Conversation compacted ({a} tokens before, {b} after)"),
        _ => "Conversation compacted".to_string(),
    };
    let summary = string(data, "summaryContent").unwrap_or_default();
    std::iter::once(Block::Text(head))
        .chain((!summary.is_empty()).then(|| Block::Text(summary.to_string())))
        .collect()
}

/// A model call's usage as a `session.usage_record` line holds it, and the
/// call it counts (`apiCallId`).
pub fn usage_record(line: &[u8]) -> Option<(Usage, Option<String>)> {
    let v: Value = serde_json::from_slice(line).ok()?;
    let u = v.get("data")?.get("usage")?;
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    let (cache_read, cache_write) = (n("cacheReadTokens"), n("cacheWriteTokens"));
    let input = n("inputTokens").saturating_sub(cache_read + cache_write);
    let output = n("outputTokens");
    let call = u
        .get("apiCallId")
        .and_then(Value::as_str)
        .map(str::to_string);
    Some((Usage::counted(input, output, cache_read, cache_write), call))
}

/// What Copilot CLI sends its model when it resumes at the end of `path`:
/// after the last compaction on the path, its summary as the user's, then
/// what follows it.
pub fn resume_path(path: &[&[u8]]) -> Vec<crate::format::Sent> {
    use crate::format::Sent;
    let compaction = path.iter().rposition(|line| {
        memchr::memmem::find(line, COMPACTION.as_bytes()).is_some()
            && json::object_line(line).is_ok_and(|m| {
                string(&m, "type") == Some(COMPACTION)
                    && compacted(m.get("data").unwrap_or(&Value::Null))
            })
    });
    let Some(at) = compaction else {
        return (0..path.len()).map(Sent::Entry).collect();
    };
    let summary = json::object_line(path[at])
        .ok()
        .and_then(|m| {
            m.get("data")?
                .get("summaryContent")?
                .as_str()
                .map(str::to_string)
        })
        .unwrap_or_default();
    std::iter::once(Sent::Message(
        serde_json::json!({"role": "user", "content": summary}),
    ))
    .chain((at + 1..path.len()).map(Sent::Entry))
    .collect()
}
