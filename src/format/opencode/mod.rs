//! OpenCode's sessions, read only: OpenCode keeps them in SQLite
//! (`~/.local/share/opencode/opencode.db`: tables `session`, `message`,
//! `part`, each row's JSON in a `data` column), which ysess reads as lines
//! of its own ([`db`]), one session at a time, named
//! `…/opencode.db/<session id>`:
//!
//! - `{"opencode":"session", id, parentID, title, directory, version, time}`
//!   first (the header);
//! - `{"opencode":"message", id, time, data, parts}` for each message, in
//!   OpenCode's order (`time_created`, then id): `data` and `parts` as
//!   OpenCode stores them. A user message's words are its `text` parts; an
//!   assistant message is one model call (`reasoning`, `text` and `tool`
//!   parts; `data.tokens` and `data.cost` its usage and cost);
//! - `{"opencode":"tool", id, message, time, part}` after an assistant
//!   message for each of its tool calls that has its answer (a `tool` part
//!   `completed` or in `error`): the call's result, a turn of its own.
//!
//! Messages name no parent ysess can follow (an assistant message names the
//! user message that started its turn): the lines are one conversation in
//! their order. A subagent's session (`parent_id`) is counted with the
//! session that started it. Tokens: `input` is the uncached input,
//! `cache.read` and `cache.write` apart; `output` holds the reasoning up
//! to OpenCode 1.3 and leaves it apart from 1.14 on (`reasoning`), and
//! ysess counts it as output either way, as it is billed.

pub mod db;
pub mod handoff;
pub mod spec;
pub mod storage;

use std::borrow::Cow;

use serde_json::{Map, Value};

pub use spec::OpenCode;

use crate::format::json::{self, string};
use crate::format::message::{Block, Entry, Message, NotAnEntry, Usage};
use crate::format::{Checked, LineFacts, MessageKind, Title};

/// Whether a line is one of the lines ysess reads OpenCode's sessions as.
pub fn is_opencode_line(line: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Keys<'a> {
        #[serde(borrow)]
        opencode: Cow<'a, str>,
    }
    json::object_keys::<Keys<'_>>(line, &[b"\"opencode\""])
        .is_some_and(|k| matches!(k.opencode.as_ref(), "session" | "message" | "tool"))
}

/// The parts of a message line.
fn parts(map: &Map<String, Value>) -> &[Value] {
    map.get("parts")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Checks one line. `subject`: also make the entry's subject line.
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'static> {
    let (value, indent) = match json::parse_line(bytes) {
        Ok(line) => line,
        Err(verdict) => return *verdict,
    };
    let Some(map) = value.as_object() else {
        return json::shape_fault("an OpenCode line must be a JSON object", indent);
    };
    let own = |s: &str| Cow::Owned(s.to_string());
    match string(map, "opencode") {
        Some("session") => {
            let title = string(map, "title")
                .filter(|t| !t.trim().is_empty() && !t.starts_with("New session - "))
                .map(|t| Title {
                    given: false,
                    text: Box::from(t),
                    leaf: None,
                });
            return Checked::Aside {
                unknown: None,
                title,
            };
        }
        Some("message" | "tool") => {}
        other => {
            return Checked::Aside {
                unknown: Some(Box::from(other.unwrap_or("(none)"))),
                title: None,
            };
        }
    }
    let Some(id) = string(map, "id") else {
        return json::shape_fault("an OpenCode line must have a string `id`", indent);
    };
    let mut facts = LineFacts {
        id: own(id),
        timestamp: map.get("time").and_then(Value::as_u64).unwrap_or(0),
        ..LineFacts::default()
    };
    if string(map, "opencode") == Some("tool") {
        let part = map.get("part").unwrap_or(&Value::Null);
        facts.kind = MessageKind::ToolResult;
        facts.tool_result_for = part["callID"].as_str().map(own);
        facts.tool_name = part["tool"].as_str().map(own);
    } else {
        let data = map.get("data").unwrap_or(&Value::Null);
        match data["role"].as_str() {
            Some("assistant") => {
                facts.kind = MessageKind::Assistant;
                facts.model = data["modelID"].as_str().map(own);
                (facts.tool_calls, facts.tool_call_names) = parts(map)
                    .iter()
                    .filter(|p| p["type"] == "tool")
                    .map(|p| {
                        let f = |k: &str| own(p[k].as_str().unwrap_or_default());
                        (f("callID"), f("tool"))
                    })
                    .unzip();
            }
            Some("user") => facts.kind = MessageKind::User,
            _ => {
                facts.kind = MessageKind::Custom;
                facts.custom_role = Some(own(data["role"].as_str().unwrap_or("(none)")));
                facts.custom_kind = facts.custom_role.clone();
            }
        }
    }
    if subject {
        let said = entry_of(map).map_or_else(|_| String::new(), |e| e.message.subject());
        facts.subject = Some(Cow::Owned(said));
    }
    Checked::Entry { facts, indent }
}

/// An entry read in full, for the commands that print it.
pub fn entry(line: &[u8]) -> Result<Entry, NotAnEntry> {
    entry_of(&json::object_line(line)?)
}

fn entry_of(map: &Map<String, Value>) -> Result<Entry, NotAnEntry> {
    let id = string(map, "id").ok_or_else(|| NotAnEntry("no `id`".to_string()))?;
    let time = map.get("time").and_then(Value::as_u64).unwrap_or(0);
    let entry = |message, message_value| Entry {
        id: id.to_string(),
        parent_id: None,
        timestamp: time,
        label: None,
        message,
        message_value,
    };
    if string(map, "opencode") == Some("tool") {
        let part = map.get("part").cloned().unwrap_or(Value::Null);
        let state = &part["state"];
        let failed = state["status"] == "error";
        let said = state[if failed { "error" } else { "output" }]
            .as_str()
            .unwrap_or_default()
            .to_string();
        return Ok(entry(
            Message::ToolResult {
                tool_call_id: part["callID"].as_str().unwrap_or_default().to_string(),
                tool_name: part["tool"].as_str().unwrap_or_default().to_string(),
                content: vec![Block::Text(said)],
                is_error: failed,
            },
            part,
        ));
    }
    let data = map.get("data").cloned().unwrap_or(Value::Null);
    let parts = parts(map);
    // The message as OpenCode stores it: its data with its parts.
    let mut stored = data.clone();
    if let Some(m) = stored.as_object_mut() {
        m.insert("parts".to_string(), Value::Array(parts.to_vec()));
    }
    let message = match data["role"].as_str() {
        Some("user") => Message::User {
            content: parts
                .iter()
                .filter(|p| p["type"] == "text")
                .filter_map(|p| p["text"].as_str())
                .map(|t| Block::said(t.to_string()))
                .collect(),
        },
        Some("assistant") => Message::Assistant {
            content: parts
                .iter()
                .filter_map(|p| match p["type"].as_str()? {
                    "reasoning" => Some(Block::Thinking {
                        text: p["text"].as_str().unwrap_or_default().to_string(),
                        redacted: false,
                    }),
                    "text" => Some(Block::Text(p["text"].as_str()?.to_string())),
                    "tool" => Some(Block::ToolCall {
                        id: p["callID"].as_str().unwrap_or_default().to_string(),
                        name: p["tool"].as_str().unwrap_or_default().to_string(),
                        arguments: p["state"]["input"].clone(),
                    }),
                    _ => None,
                })
                .collect(),
            stop_reason: data["finish"].as_str().unwrap_or_default().to_string(),
            model: data["modelID"].as_str().unwrap_or_default().to_string(),
            provider: data["providerID"].as_str().unwrap_or_default().to_string(),
            usage: usage(&data),
            error_message: data["error"]["data"]["message"]
                .as_str()
                .or(data["error"]["name"].as_str())
                .map(str::to_string),
            fast: false,
        },
        other => Message::Custom {
            role: "opencode".to_string(),
            kind: other.unwrap_or("(none)").to_string(),
            data: data.clone(),
            said: Vec::new(),
        },
    };
    Ok(entry(message, stored))
}

/// An assistant message's tokens as ysess counts them: `input` the
/// uncached input, cache reads and writes apart, the reasoning in the
/// output (where OpenCode counted it apart).
fn usage(data: &Value) -> Usage {
    let t = &data["tokens"];
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    let reasoning = match data["outputHoldsReasoning"].as_bool() {
        Some(true) => 0,
        _ => n(&t["reasoning"]),
    };
    let (input, output) = (n(&t["input"]), n(&t["output"]) + reasoning);
    let (cache_read, cache_write) = (n(&t["cache"]["read"]), n(&t["cache"]["write"]));
    Usage::counted(input, output, cache_read, cache_write)
}
