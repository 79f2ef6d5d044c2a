//! Gemini CLI's session files
//! (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`), read only:
//! Gemini CLI owns them and resumes inside itself (`--resume`).
//!
//! Since 2026-04 a session is JSON Lines (Gemini CLI 0.61.0 writes them in
//! the agent tests):
//! - a header, `{sessionId, projectHash, startTime, lastUpdated, kind}`,
//!   written again when the session is resumed;
//! - messages, `{id, timestamp, type, content, …}`: `user` (`content` a
//!   list of GenAI parts, a tool's answer as a `functionResponse` part),
//!   `gemini` (`content` a string, `thoughts`, `toolCalls`, `tokens`,
//!   `model`), and the app's own `info`, `warning` and `error` lines, which
//!   are folded out of the user's tree;
//! - updates: a message id seen again is the message restated (the last
//!   line wins and the message keeps its place); `{"$set": {…}}` sets the
//!   session's metadata (`summary` is its title) or, with `messages`, its
//!   whole history; `{"$rewindTo": id}` drops the conversation from that
//!   message on while the lines stay, so one file holds a real tree
//!   ([`join`] says how it is read).
//!
//! A subagent's chat is a file of its own, `chats/<parent session id>/
//! <id>.jsonl`, whose header says `"kind": "subagent"`. The older files,
//! one JSON document a session, are read as these lines ([`legacy`]).

pub mod handoff;
pub mod join;
pub mod legacy;
pub mod spec;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

pub use spec::Gemini;

use crate::format::genai;
use crate::format::json::{self, string};
use crate::format::message::{Block, Entry, Message, NotAnEntry, Usage};
use crate::format::{Checked, LineFacts, MessageKind, Moves, Title};

/// The message types Gemini CLI writes: the conversation's (`user`,
/// `gemini`) and the app's own notes.
pub const TYPES: [&str; 5] = ["user", "gemini", "info", "warning", "error"];

/// Whether a line is of Gemini CLI's own shape: its header (a `sessionId`
/// with a `projectHash`), a `$set` or `$rewindTo` update, or a message
/// with an `id` and a [`TYPES`] type.
pub fn is_gemini_line(line: &[u8]) -> bool {
    use serde::de::IgnoredAny;

    #[derive(serde::Deserialize)]
    struct Keys {
        #[serde(rename = "sessionId", default)]
        session: Option<IgnoredAny>,
        #[serde(rename = "projectHash", default)]
        project: Option<IgnoredAny>,
        #[serde(rename = "$set", default)]
        set: Option<Map<String, Value>>,
        #[serde(rename = "$rewindTo", default)]
        rewind: Option<IgnoredAny>,
    }
    let Some(keys) =
        json::object_keys::<Keys>(line, &[b"\"projectHash\"", b"\"$set\"", b"\"$rewindTo\""])
    else {
        return false;
    };
    (keys.session.is_some() && keys.project.is_some())
        || keys.set.is_some()
        || keys.rewind.is_some()
}

/// Whether an entry is bookkeeping: the app's own notes.
pub fn is_record(facts: &LineFacts<'_>) -> bool {
    facts.kind == MessageKind::Custom
}

/// The session id a file's header names.
pub fn session_of(first_line: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(first_line).ok()?;
    v.get("sessionId")?.as_str().map(str::to_string)
}

/// The files of a session's subagents, each with its id: the chats in
/// `chats/<session id>/` beside the session's file. Sorted by id.
pub fn subagent_files(session: &Path) -> Vec<(String, PathBuf)> {
    let Some(chats) = session.parent() else {
        return Vec::new();
    };
    let first = if legacy::is_legacy(session) {
        legacy::lines(session).unwrap_or_default()
    } else {
        std::fs::File::open(session)
            .and_then(|f| crate::input::read_at(&f, 0, f.metadata()?.len().min(4 << 10)))
            .unwrap_or_default()
    };
    let first = first.split(|&b| b == b'\n').next().unwrap_or_default();
    let Some(id) = session_of(first).filter(|id| !id.is_empty() && !id.contains('/')) else {
        return Vec::new();
    };
    let Ok(read) = std::fs::read_dir(chats.join(&id)) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "jsonl" || x == "json"))
        .filter(|p| !legacy::superseded(p))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .collect();
    found.sort();
    found
}

/// The working directory of the project a session file is kept for: the
/// `.project_root` file Gemini CLI writes in the project's folder.
pub fn project_root(session: &Path) -> Option<PathBuf> {
    let chats = session.parent()?;
    let project = if chats.file_name()? == "chats" {
        chats.parent()?
    } else {
        chats.parent()?.parent()?
    };
    let text = std::fs::read_to_string(project.join(".project_root")).ok()?;
    let root = text.trim();
    (!root.is_empty()).then(|| PathBuf::from(root))
}

/// Checks one line as Gemini CLI's files hold it. `subject`: also make the
/// entry's subject line.
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'static> {
    let (value, indent) = match json::parse_line(bytes) {
        Ok(line) => line,
        Err(verdict) => return *verdict,
    };
    let Some(map) = value.as_object() else {
        return json::shape_fault("a Gemini CLI line must be a JSON object", indent);
    };
    if let Some(set) = map.get("$set") {
        let Some(set) = set.as_object() else {
            return json::shape_fault("`$set` must be an object", indent);
        };
        if let Some(messages) = set.get("messages") {
            let Some(messages) = messages.as_array() else {
                return json::shape_fault("`$set.messages` must be a list", indent);
            };
            let ids = messages
                .iter()
                .filter_map(|m| m.get("id")?.as_str().map(Box::from))
                .collect();
            return Checked::Moves(Moves::History(ids));
        }
        let title = string(set, "summary")
            .filter(|t| !t.trim().is_empty())
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
    if let Some(to) = map.get("$rewindTo") {
        return match to.as_str() {
            Some(id) => Checked::Moves(Moves::RewindTo(Box::from(id))),
            None => json::shape_fault("`$rewindTo` must name a message id", indent),
        };
    }
    let Some(id) = string(map, "id") else {
        // The header (again after a resume), or a line of an unknown kind.
        let header = map.contains_key("sessionId");
        let unknown = (!header).then(|| Box::from("(none)"));
        return Checked::Aside {
            unknown,
            title: None,
        };
    };
    let kind = string(map, "type").unwrap_or_default();
    let own = |s: &str| Cow::Owned(s.to_string());
    let mut facts = LineFacts {
        id: own(id),
        timestamp: json::millis(map.get("timestamp")),
        kind: MessageKind::Custom,
        custom_role: Some(own(kind)),
        custom_kind: Some(own(kind)),
        ..LineFacts::default()
    };
    let parts = map.get("content").map_or(&[][..], genai::parts_of);
    match kind {
        // A tool's answer: Gemini CLI keeps it with its call too (below),
        // so it is not paired with the call again.
        "user" => match genai::first_response(parts) {
            Some((_, tool, _)) => {
                facts.kind = MessageKind::ToolResult;
                facts.tool_name = Some(own(tool)).filter(|t| !t.is_empty());
            }
            None => facts.kind = MessageKind::User,
        },
        // The calls still waiting for their result: a call Gemini CLI has
        // run carries its `result` in the reply's own line.
        "gemini" => {
            facts.kind = MessageKind::Assistant;
            facts.model = string(map, "model").map(own);
            (facts.tool_calls, facts.tool_call_names) = tool_calls(map)
                .filter(|(_, _, answered)| !answered)
                .map(|(id, name, _)| (own(id), own(name)))
                .unzip();
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

/// The `(id, name, answered)` of each of a reply's tool calls: answered
/// when the call's line holds its `result`.
fn tool_calls(map: &Map<String, Value>) -> impl Iterator<Item = (&str, &str, bool)> {
    map.get("toolCalls")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|c| {
            let field = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default();
            let answered = c.get("result").is_some_and(|r| !r.is_null());
            (field("id"), field("name"), answered)
        })
}

/// An entry read in full, for the commands that print it.
pub fn entry(line: &[u8]) -> Result<Entry, NotAnEntry> {
    entry_of(&json::object_line(line)?)
}

fn entry_of(map: &Map<String, Value>) -> Result<Entry, NotAnEntry> {
    let id = string(map, "id").ok_or_else(|| NotAnEntry("no `id`".to_string()))?;
    let kind = string(map, "type").unwrap_or_default();
    let content = map.get("content").cloned().unwrap_or(Value::Null);
    let parts = genai::parts_of(&content);
    let message = match kind {
        "user" => match genai::first_response(parts) {
            Some((call, tool, response)) => Message::ToolResult {
                tool_call_id: call.to_string(),
                tool_name: tool.to_string(),
                content: genai::blocks(parts, false),
                is_error: genai::response_is_error(response),
            },
            None => Message::User {
                content: match &content {
                    Value::String(s) => vec![Block::said(s.clone())],
                    _ => genai::blocks(parts, true),
                },
            },
        },
        "gemini" => {
            let thoughts = map
                .get("thoughts")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .map(|t| {
                    let field = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or_default();
                    let text = match (field("subject"), field("description")) {
                        ("", d) => d.to_string(),
                        (s, "") => s.to_string(),
                        (s, d) => format!("**{s}** {d}"),
                    };
                    Block::Thinking {
                        text,
                        redacted: false,
                    }
                });
            let text = match &content {
                Value::String(s) if !s.is_empty() => vec![Block::Text(s.clone())],
                Value::String(_) => Vec::new(),
                _ => genai::blocks(parts, false),
            };
            let calls = map
                .get("toolCalls")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .map(|c| {
                    let field = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default();
                    Block::ToolCall {
                        id: field("id").to_string(),
                        name: field("name").to_string(),
                        arguments: c.get("args").cloned().unwrap_or(Value::Null),
                    }
                });
            Message::Assistant {
                content: thoughts.chain(text).chain(calls).collect(),
                stop_reason: String::new(),
                model: string(map, "model").unwrap_or_default().to_string(),
                provider: "google".to_string(),
                usage: usage(map.get("tokens")),
                error_message: None,
                fast: false,
            }
        }
        _ => Message::Custom {
            role: "gemini".to_string(),
            kind: kind.to_string(),
            data: Value::Object(map.clone()),
            said: match &content {
                Value::String(s) => vec![Block::Text(s.clone())],
                _ => genai::blocks(parts, false),
            },
        },
    };
    Ok(Entry {
        id: id.to_string(),
        parent_id: None,
        timestamp: json::millis(map.get("timestamp")),
        label: None,
        message_value: sent(kind, map, &content),
        message,
    })
}

/// The message as a GenAI `Content`, as Gemini CLI sends it: the user's
/// parts; a reply's text and its calls as `functionCall` parts. The app's
/// own notes stay as stored.
fn sent(kind: &str, map: &Map<String, Value>, content: &Value) -> Value {
    let parts = |content: &Value| match content {
        Value::String(s) if s.is_empty() => Vec::new(),
        Value::String(s) => vec![serde_json::json!({"text": s})],
        other => genai::parts_of(other).to_vec(),
    };
    match kind {
        "user" => serde_json::json!({"role": "user", "parts": parts(content)}),
        "gemini" => {
            let calls = map
                .get("toolCalls")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .map(|c| {
                    serde_json::json!({"functionCall": {
                        "id": c.get("id"),
                        "name": c.get("name"),
                        "args": c.get("args"),
                    }})
                });
            let all: Vec<Value> = parts(content).into_iter().chain(calls).collect();
            serde_json::json!({"role": "model", "parts": all})
        }
        _ => Value::Object(map.clone()),
    }
}

/// A reply's `tokens` as ysess counts them: `input` holds the cached
/// tokens, which are taken out as cache reads, and the tool-use prompt
/// (`tool`) is input too; the thoughts are output, as they are billed.
fn usage(tokens: Option<&Value>) -> Usage {
    let n = |key: &str| {
        tokens
            .and_then(|t| t.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let cache_read = n("cached");
    let input = n("input").saturating_sub(cache_read) + n("tool");
    let output = n("output") + n("thoughts");
    Usage::counted(input, output, cache_read, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: serde reads a struct from a list too, so a yoagent entry
    /// written as the list of its fields (which yoagent loads) was taken
    /// for a Gemini CLI `$set` line, and its file for an empty session.
    #[test]
    fn a_yoagent_entry_written_as_a_list_is_no_line_of_any_app() {
        let line = br#"["e1",null,{"role":"user","content":[],"timestamp":1},1]"#;
        assert!(!is_gemini_line(line));
        assert!(!crate::format::claude::is_claude_line(line));
        assert!(!crate::format::codex::is_codex_line(line));
        assert!(!crate::format::qwen::is_qwen_line(line));
        assert!(!crate::format::copilot::is_copilot_line(line));
        assert!(!crate::format::opencode::is_opencode_line(line));
        assert_eq!(
            crate::format::Format::detect([&line[..]]),
            crate::format::Format::RECORDS
        );
    }
}
