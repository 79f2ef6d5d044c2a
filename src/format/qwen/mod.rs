//! Qwen Code's session files
//! (`~/.qwen/projects/<project>/chats/<session id>.jsonl`), read only: Qwen
//! Code owns them and resumes inside itself (`--resume`, `--continue`).
//!
//! Claude Code's shape with Google's message model: each line has `uuid`,
//! `parentUuid`, `sessionId`, `timestamp` and a `type`:
//! - `user`, `assistant`, `tool_result`: a `message` that is a GenAI
//!   `Content` (`{role: user|model, parts}`, see [`crate::format::genai`]);
//!   an assistant line names its `model` and its `usageMetadata`
//!   (`promptTokenCount`, which includes `cachedContentTokenCount`,
//!   `candidatesTokenCount`, which includes `thoughtsTokenCount`);
//! - `system`: the app's bookkeeping, by `subtype` (`ui_telemetry`,
//!   `attribution_snapshot`, `slash_command`, `custom_title`, `rewind`,
//!   `file_history_snapshot`, …), folded out of the user's tree, except
//!   `chat_compression`, whose `compressedHistory` is what Qwen Code sends in
//!   place of everything before it.
//!
//! A rewind appends a `rewind` line whose parent is where the conversation
//! goes on, so one file holds a real tree; `--fork-session` copies the lines
//! (same uuids) into a file of a new id. A subagent's thread is a file of
//! its own, `subagents/<session id>/agent-<type>-<call>.jsonl` beside
//! `chats/`, every line `isSidechain`. Read as Qwen Code 0.24.4 writes them
//! (the agent tests run it).

pub mod handoff;
pub mod spec;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

pub use spec::Qwen;

use crate::format::genai;
use crate::format::json::{self, string};
use crate::format::message::{Entry, Message, NotAnEntry, Usage};
use crate::format::{Checked, LineFacts, MessageKind, Title};

/// The line types Qwen Code writes.
pub const TYPES: [&str; 4] = ["user", "assistant", "tool_result", "system"];

/// The `system` subtypes that are part of the conversation.
pub const KEPT_SYSTEM: [&str; 1] = ["chat_compression"];

/// Whether a line is of Qwen Code's own shape: a `uuid`, a `sessionId`, a
/// type of [`TYPES`], and a GenAI message (`parts`) or a `systemPayload`.
/// Claude Code's lines have a `uuid` and a `sessionId` too, but their
/// messages have `content`, never `parts`, and no `systemPayload`.
pub fn is_qwen_line(line: &[u8]) -> bool {
    use serde::de::IgnoredAny;

    #[derive(serde::Deserialize)]
    struct Message {
        #[serde(default)]
        parts: Option<IgnoredAny>,
    }
    #[derive(serde::Deserialize)]
    struct Keys<'a> {
        #[serde(rename = "type", default, borrow)]
        kind: Option<Cow<'a, str>>,
        #[serde(default)]
        uuid: Option<IgnoredAny>,
        #[serde(rename = "sessionId", default)]
        session: Option<IgnoredAny>,
        #[serde(default)]
        message: Option<Message>,
        #[serde(rename = "systemPayload", default)]
        payload: Option<IgnoredAny>,
    }
    let Some(keys) = json::object_keys::<Keys<'_>>(line, &[b"\"parts\"", b"\"systemPayload\""])
    else {
        return false;
    };
    keys.uuid.is_some()
        && keys.session.is_some()
        && keys.kind.is_some_and(|k| TYPES.contains(&k.as_ref()))
        && (keys.message.is_some_and(|m| m.parts.is_some()) || keys.payload.is_some())
}

/// Whether an entry is bookkeeping: every `system` line but a compaction.
pub fn is_record(facts: &LineFacts<'_>) -> bool {
    facts.kind == MessageKind::Custom
        && !facts
            .custom_kind
            .as_deref()
            .is_some_and(|k| KEPT_SYSTEM.contains(&k))
}

/// The files of a session's subagents, each with the subagent's id (its
/// type and the call that started it): `subagents/<session id>/agent-*.jsonl`
/// in the project's folder, beside `chats/`. Sorted by id.
pub fn subagent_files(session: &Path) -> Vec<(String, PathBuf)> {
    let (Some(chats), Some(stem)) = (
        session.parent(),
        session.file_stem().and_then(|s| s.to_str()),
    ) else {
        return Vec::new();
    };
    let Some(project) = chats.parent() else {
        return Vec::new();
    };
    let Ok(read) = std::fs::read_dir(project.join("subagents").join(stem)) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "jsonl"))
        .filter_map(|p| {
            let id = p.file_stem()?.to_str()?.strip_prefix("agent-")?.to_string();
            Some((id, p))
        })
        .collect();
    found.sort();
    found
}

/// Checks one line as Qwen Code's files hold it. `subject`: also make the
/// entry's subject line.
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'static> {
    let (value, indent) = match json::parse_line(bytes) {
        Ok(line) => line,
        Err(verdict) => return *verdict,
    };
    let Some(map) = value.as_object() else {
        return json::shape_fault("a Qwen Code line must be a JSON object", indent);
    };
    let kind = string(map, "type").unwrap_or_default();
    let Some(id) = string(map, "uuid") else {
        let unknown = Some(Box::from(if kind.is_empty() { "(none)" } else { kind }));
        return Checked::Aside {
            unknown,
            title: None,
        };
    };
    let own = |s: &str| Cow::Owned(s.to_string());
    let mut facts = LineFacts {
        id: own(id),
        parent: string(map, "parentUuid").map(own),
        timestamp: json::millis(map.get("timestamp")),
        kind: MessageKind::Custom,
        custom_role: Some(own(kind)),
        sidechain: map.get("isSidechain").and_then(Value::as_bool) == Some(true),
        ..LineFacts::default()
    };
    let parts = map.get("message").map_or(&[][..], genai::parts_of);
    match kind {
        "user" => facts.kind = MessageKind::User,
        "assistant" => {
            facts.kind = MessageKind::Assistant;
            facts.model = string(map, "model").map(own);
            (facts.tool_calls, facts.tool_call_names) = genai::calls(parts)
                .map(|(id, name)| (own(id), own(name)))
                .unzip();
        }
        "tool_result" => {
            facts.kind = MessageKind::ToolResult;
            if let Some((call, tool, _)) = genai::first_response(parts) {
                facts.tool_result_for = Some(own(call));
                facts.tool_name = Some(own(tool)).filter(|t| !t.is_empty());
            }
        }
        _ => facts.custom_kind = Some(own(string(map, "subtype").unwrap_or(kind))),
    }
    if facts.kind != MessageKind::Custom {
        facts.custom_role = None;
    }
    if subject {
        let said = match facts.custom_kind.as_deref() {
            Some("custom_title") => title_of(map).map(|t| t.text.into_string()),
            Some(k @ "chat_compression") => said(k, map)
                .first()
                .and_then(|b| b.text().map(str::to_string)),
            _ => None,
        };
        let said = said.unwrap_or_else(|| {
            entry_of(map).map_or_else(|_| String::new(), |e| e.message.subject())
        });
        facts.subject = Some(Cow::Owned(said));
    }
    Checked::Entry { facts, indent }
}

/// What a system line of the conversation says in words: a compaction,
/// how it was started and its tokens before and after, then the history it
/// put in place.
fn said(subtype: &str, map: &Map<String, Value>) -> Vec<crate::format::message::Block> {
    use crate::format::message::Block;
    if subtype != "chat_compression" {
        return Vec::new();
    }
    let payload = map.get("systemPayload");
    let info = payload.and_then(|p| p.get("info"));
    let field = |k: &str| info.and_then(|i| i.get(k));
    let mut how = Vec::new();
    if let Some(t) = field("triggerReason").and_then(Value::as_str) {
        how.push(t.to_string());
    }
    if let Some(n) = field("originalTokenCount").and_then(Value::as_u64) {
        how.push(format!("{n} tokens before"));
    }
    if let Some(n) = field("newTokenCount").and_then(Value::as_u64) {
        how.push(format!("{n} after"));
    }
    let head = match how.is_empty() {
        true => "Chat compressed".to_string(),
        false => format!("Chat compressed ({})", how.join(", ")),
    };
    let history = payload
        .and_then(|p| p.get("compressedHistory"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    std::iter::once(Block::Text(head))
        .chain(
            history
                .iter()
                .flat_map(|content| genai::blocks(genai::parts_of(content), false)),
        )
        .collect()
}

/// The title a `custom_title` line gives its session.
fn title_of(map: &Map<String, Value>) -> Option<Title> {
    let payload = map.get("systemPayload")?;
    let text = payload.get("customTitle")?.as_str()?;
    (!text.trim().is_empty()).then(|| Title {
        given: true,
        text: Box::from(text),
        leaf: None,
    })
}

/// An entry read in full, for the commands that print it.
pub fn entry(line: &[u8]) -> Result<Entry, NotAnEntry> {
    entry_of(&json::object_line(line)?)
}

fn entry_of(map: &Map<String, Value>) -> Result<Entry, NotAnEntry> {
    let id = string(map, "uuid").ok_or_else(|| NotAnEntry("no `uuid`".to_string()))?;
    let kind = string(map, "type").unwrap_or_default();
    let message_value = map.get("message").cloned().unwrap_or(Value::Null);
    let parts = genai::parts_of(&message_value);
    let message = match kind {
        "user" => Message::User {
            content: genai::blocks(parts, true),
        },
        "assistant" => Message::Assistant {
            content: genai::blocks(parts, false),
            stop_reason: String::new(),
            model: string(map, "model").unwrap_or_default().to_string(),
            provider: String::new(),
            usage: usage(map.get("usageMetadata")),
            error_message: None,
            fast: false,
        },
        "tool_result" => {
            let first = genai::first_response(parts);
            Message::ToolResult {
                tool_call_id: first.map(|f| f.0).unwrap_or_default().to_string(),
                tool_name: first.map(|f| f.1).unwrap_or_default().to_string(),
                content: genai::blocks(parts, false),
                is_error: first.is_some_and(|f| genai::response_is_error(f.2))
                    || map
                        .get("toolCallResult")
                        .and_then(|r| r.get("status"))
                        .and_then(Value::as_str)
                        .is_some_and(|s| s == "error"),
            }
        }
        _ => {
            let data: Map<String, Value> = map
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "type" | "uuid" | "parentUuid" | "timestamp" | "sessionId"
                    )
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let subtype = string(map, "subtype").unwrap_or(kind);
            Message::Custom {
                role: "qwen".to_string(),
                kind: subtype.to_string(),
                said: said(subtype, map),
                data: Value::Object(data),
            }
        }
    };
    Ok(Entry {
        id: id.to_string(),
        parent_id: string(map, "parentUuid").map(str::to_string),
        timestamp: json::millis(map.get("timestamp")),
        label: None,
        message,
        message_value,
    })
}

/// A reply's `usageMetadata` as tokens: the prompt less what was read from
/// the cache is the input; the candidates (thoughts included, as the
/// OpenAI-compatible API counts them) are the output.
fn usage(meta: Option<&Value>) -> Usage {
    let n = |key: &str| {
        meta.and_then(|m| m.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let cache_read = n("cachedContentTokenCount");
    let input = n("promptTokenCount").saturating_sub(cache_read);
    let output = n("candidatesTokenCount");
    Usage::counted(input, output, cache_read, 0)
}

/// What Qwen Code sends its model when it resumes at the end of `path`:
/// after the last compaction on the path, its compressed history, then
/// what follows it.
pub fn resume_path(path: &[&[u8]]) -> Vec<crate::format::Sent> {
    use crate::format::Sent;
    let compaction = path.iter().rposition(|line| {
        memchr::memmem::find(line, b"\"chat_compression\"").is_some()
            && json::object_line(line)
                .is_ok_and(|m| string(&m, "subtype") == Some("chat_compression"))
    });
    let Some(at) = compaction else {
        return (0..path.len()).map(Sent::Entry).collect();
    };
    let history = json::object_line(path[at])
        .ok()
        .and_then(|m| {
            m.get("systemPayload")?
                .get("compressedHistory")?
                .as_array()
                .cloned()
        })
        .unwrap_or_default();
    history
        .into_iter()
        .map(Sent::Message)
        .chain((at + 1..path.len()).map(Sent::Entry))
        .collect()
}
