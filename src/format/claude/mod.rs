//! Claude Code's session files (`~/.claude/projects/<project>/<session>.jsonl`),
//! read only: Claude Code owns them, and resumes inside itself (`/resume`).
//!
//! Each line is an object with a `type`. Lines of type `user`, `assistant`
//! and `system` are the tree: `uuid`, `parentUuid`, `sessionId`,
//! `timestamp` (ISO 8601), `isSidechain`, and a `message` in the shape of
//! Anthropic's Messages API. Other lines are the app's own and hold no
//! entry: `summary` (a title for the conversation ending at `leafUuid`) and
//! housekeeping such as `file-history-snapshot`; they have no `uuid`.
//!
//! Wrinkles, read as Claude Code means them:
//! - one model response is written as several `assistant` lines, one per
//!   content block, sharing `message.id` (and repeating its usage);
//! - a compaction starts a `system` line (`subtype: compact_boundary`) with
//!   `parentUuid: null` and the entry it continues in `logicalParentUuid`:
//!   ysess hangs it there, so the conversation stays one tree;
//! - a subagent's thread (`isSidechain: true`) inside a session's file is
//!   bookkeeping of the call that started it: folded out of the user's tree
//!   like ysess's records (`log --markers` shows it); a subagent's own file
//!   (every line a sidechain) is a conversation of its own;
//! - `progress`, `attachment`, hook and timing lines carry a `uuid` and
//!   hang in the chain, but are not turns: folded out ([`is_record`]);
//! - a parent may come later in the file (Claude Code reads the file into a
//!   map by `uuid`): the checks judge what Claude Code would lose, not the
//!   order.

pub mod handoff;
pub mod join;
pub mod resume;
pub mod scan;
pub mod spec;

pub use spec::Claude;
use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::format::fault::{FaultKind, LineFault};
use crate::format::json::{self, blocks, string};
use crate::format::message::{Block, Entry, Message, NotAnEntry, Usage};
use crate::format::{Checked, LineFacts, MessageKind, text_of};
use scan::{Scanned, scan_claude_line};

/// The line types with a `uuid` that Claude Code writes: each is an entry
/// of the file's tree. Only `user`, `assistant` and the [`KEPT_SYSTEM`]
/// system lines are turns of the conversation; the rest (hook and tool
/// `progress`, `attachment`s, hook and timing `system` lines) are the app's
/// bookkeeping, folded out of the user's tree as ysess's records are.
pub const TYPES: [&str; 5] = ["user", "assistant", "system", "progress", "attachment"];

/// The `system` lines that are part of the conversation: a compaction's
/// boundary and a slash command's output. Other subtypes (`turn_duration`,
/// `stop_hook_summary`, `informational`, `api_error`, …) are bookkeeping.
pub const KEPT_SYSTEM: [&str; 3] = ["compact_boundary", "microcompact_boundary", "local_command"];

/// The line types without a `uuid` that Claude Code writes: its
/// housekeeping, which holds no entry. A type in neither list is skipped
/// all the same, and `fsck` counts it (a newer Claude Code may write it).
pub const HOUSEKEEPING: [&str; 22] = [
    "summary",
    "file-history-snapshot",
    "file-history-delta",
    "queue-operation",
    "last-prompt",
    "custom-title",
    "ai-title",
    "agent-name",
    "agent-setting",
    "agent-color",
    "permission-mode",
    "mode",
    "tag",
    "cost-state",
    "worktree-state",
    "pr-link",
    "x-metadata",
    // Claude Code 2.1.328's own records of its requests and state, seen in
    // the sessions it writes in the agent tests.
    "api-request",
    "api-request-shape",
    "api-request-blob",
    "atis-latch",
    "tools-used",
];

/// Whether a line is of Claude Code's own shape: one with a `sessionId`
/// (every line type of a session carries one, housekeeping included), an
/// entry of a [`TYPES`] type with a `uuid`, or a line of a
/// [`HOUSEKEEPING`] type. No yoagent entry has these keys. Only the
/// top-level keys are looked at (a line may be very long).
pub fn is_claude_line(line: &[u8]) -> bool {
    // The keys read where they stand; serde decides anything odd.
    scan::is_claude_line(line).unwrap_or_else(|| is_claude_line_by_serde(line))
}

/// [`is_claude_line`], the keys read by serde.
fn is_claude_line_by_serde(line: &[u8]) -> bool {
    use serde::de::IgnoredAny;

    #[derive(serde::Deserialize)]
    struct Keys<'a> {
        #[serde(rename = "type", default, borrow)]
        kind: Option<Cow<'a, str>>,
        #[serde(default)]
        uuid: Option<IgnoredAny>,
        #[serde(rename = "sessionId", default)]
        session: Option<IgnoredAny>,
    }
    let Some(keys) = json::object_keys::<Keys<'_>>(line, &[]) else {
        return false;
    };
    let kind = keys.kind.as_deref();
    keys.session.is_some()
        || (keys.uuid.is_some() && kind.is_some_and(|k| TYPES.contains(&k)))
        || kind.is_some_and(|k| HOUSEKEEPING.contains(&k))
}

/// The files of a session's subagents, each with the subagent's id:
/// `<session>/subagents/agent-<id>.jsonl` beside the session's file (Claude
/// Code 2.1), and, from older versions, `agent-<id>.jsonl` files beside it
/// whose lines name the session (its file's stem is its `sessionId`).
/// Sorted by id; none for a subagent's own file.
pub fn subagent_files(session: &std::path::Path) -> Vec<(String, std::path::PathBuf)> {
    let (Some(dir), Some(stem)) = (
        session.parent(),
        session.file_stem().and_then(|s| s.to_str()),
    ) else {
        return Vec::new();
    };
    if stem.starts_with("agent-") {
        return Vec::new();
    }
    let agents = |folder: &std::path::Path| -> Vec<(String, std::path::PathBuf)> {
        let Ok(read) = std::fs::read_dir(folder) else {
            return Vec::new();
        };
        // By name first: the session's own folder holds every session of
        // the project, and only a subagent's file is looked at on disk.
        read.filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .filter_map(|p| {
                let id = p.file_stem()?.to_str()?.strip_prefix("agent-")?.to_string();
                Some((id, p))
            })
            .filter(|(_, p)| p.is_file())
            .collect()
    };
    let mut found = agents(&dir.join(stem).join("subagents"));
    let named = format!("\"sessionId\":\"{stem}\"");
    found.extend(agents(dir).into_iter().filter(|(_, p)| {
        std::fs::File::open(p)
            .and_then(|f| crate::input::read_at(&f, 0, f.metadata()?.len().min(64 << 10)))
            .is_ok_and(|head| memchr::memmem::find(&head, named.as_bytes()).is_some())
    }));
    found.sort();
    found
}

/// Whether an entry is folded out of the user's tree: the app's bookkeeping
/// (every line that is not a turn of the conversation). A subagent's lines
/// are folded by the reader of the whole file, which knows whether the file
/// is the subagent's own.
pub fn is_record(facts: &LineFacts<'_>) -> bool {
    facts.kind == MessageKind::Custom
        && !(facts.custom_role.as_deref() == Some("system")
            && facts
                .custom_kind
                .as_deref()
                .is_some_and(|k| KEPT_SYSTEM.contains(&k)))
}

/// Checks one line as Claude Code's files hold it. `subject`: also make the
/// entry's subject line.
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'_> {
    fast(bytes, subject).unwrap_or_else(|| slow(bytes, subject))
}

/// [`check_line`] by the scanner: most lines are messages of the main
/// thread, progress lines and housekeeping, which it reads where they
/// stand; anything else, anything odd, text the app injected (`isMeta`)
/// and text that opens with the app's markup is left to [`slow`] (`None`).
fn fast(bytes: &[u8], subject: bool) -> Option<Checked<'_>> {
    let (text, indent) = text_of(bytes).ok()?;
    match scan_claude_line(text, subject)? {
        Scanned::Entry(facts) if !facts.subject.as_deref().is_some_and(|s| s.starts_with('<')) => {
            Some(Checked::Entry { facts, indent })
        }
        Scanned::Entry(_) => None,
        Scanned::Housekeeping => Some(Checked::Aside {
            unknown: None,
            title: None,
        }),
    }
}

/// [`check_line`] through a `serde_json::Value`, which also explains faults.
fn slow(bytes: &[u8], subject: bool) -> Checked<'static> {
    let (value, indent) = match json::parse_line(bytes) {
        Ok(line) => line,
        Err(verdict) => return *verdict,
    };
    let Some(map) = value.as_object() else {
        let fault = LineFault {
            kind: FaultKind::Shape,
            at: None,
            message: "a Claude Code line must be a JSON object".to_string(),
            id: None,
        };
        return Checked::Fault { fault, indent };
    };
    let kind = string(map, "type").unwrap_or_default();
    let Some(id) = string(map, "uuid") else {
        // A summary, or the app's housekeeping: no entry.
        let unknown = (!HOUSEKEEPING.contains(&kind) && !TYPES.contains(&kind))
            .then(|| Box::from(if kind.is_empty() { "(none)" } else { kind }));
        let title = match kind {
            "custom-title" => string(map, "customTitle").map(|t| (true, t)),
            "summary" => string(map, "summary").map(|t| (false, t)),
            _ => None,
        }
        .filter(|(_, t)| !t.trim().is_empty())
        .map(|(given, t)| crate::format::Title {
            given,
            text: Box::from(t),
            leaf: string(map, "leafUuid").map(Box::from),
        });
        return Checked::Aside { unknown, title };
    };
    let own = |s: &str| Cow::Owned(s.to_string());
    // A compaction continues the entry it names as its logical parent.
    let logical = string(map, "parentUuid").is_none() && string(map, "logicalParentUuid").is_some();
    let parent = string(map, "parentUuid")
        .or_else(|| string(map, "logicalParentUuid"))
        .map(own);
    let mut facts = LineFacts {
        id: own(id),
        parent,
        logical_parent: logical,
        timestamp: json::millis(map.get("timestamp")),
        kind: MessageKind::Custom,
        custom_role: Some(own(kind)),
        ..LineFacts::default()
    };
    let message = map.get("message").and_then(Value::as_object);
    match (kind, message) {
        ("user", Some(m)) => {
            let result = blocks(m).find(|b| string(b, "type") == Some("tool_result"));
            match result {
                Some(r) => {
                    facts.kind = MessageKind::ToolResult;
                    facts.tool_result_for = string(r, "tool_use_id").map(own);
                }
                None => facts.kind = MessageKind::User,
            }
        }
        ("assistant", Some(m)) => {
            facts.kind = MessageKind::Assistant;
            facts.model = string(m, "model").map(own);
            let calls = blocks(m)
                .filter(|b| string(b, "type") == Some("tool_use"))
                .filter_map(|b| Some((string(b, "id")?, string(b, "name").unwrap_or_default())));
            (facts.tool_calls, facts.tool_call_names) =
                calls.map(|(id, name)| (own(id), own(name))).unzip();
        }
        _ => {
            // A progress line says what progressed (`hook_progress`, …).
            let data = map.get("data").and_then(Value::as_object);
            let what = string(map, "subtype").or_else(|| data.and_then(|d| string(d, "type")));
            facts.custom_kind = Some(own(what.unwrap_or(kind)));
        }
    }
    if facts.kind != MessageKind::Custom {
        facts.custom_role = None;
    }
    facts.sidechain = map.get("isSidechain").and_then(Value::as_bool) == Some(true);
    // Text the app injected (a caveat, a reminder), not the user's words.
    if facts.kind == MessageKind::User && map.get("isMeta").and_then(Value::as_bool) == Some(true) {
        facts.custom_kind = Some(own("meta"));
    }
    if subject {
        let said = match (facts.kind, map.get("content")) {
            // A system line says what happened in its own words.
            // A system line says what happened in its own words, which may
            // be a slash command's markup.
            (MessageKind::Custom, Some(Value::String(s))) => crate::format::markup::subject(s)
                .unwrap_or_else(|| json::subject_line(&system_said(s, map))),
            (MessageKind::Custom, _) => string(map, "subtype").unwrap_or(kind).to_string(),
            _ => entry_of(map).map_or_else(|_| String::new(), |e| e.message.subject()),
        };
        facts.subject = Some(Cow::Owned(said));
    }
    Checked::Entry { facts, indent }
}

/// An entry read in full, for the commands that print it.
pub fn entry(line: &[u8]) -> Result<Entry, NotAnEntry> {
    entry_of(&json::object_line(line)?)
}

fn entry_of(map: &Map<String, Value>) -> Result<Entry, NotAnEntry> {
    let id = string(map, "uuid").ok_or_else(|| NotAnEntry("no `uuid`".to_string()))?;
    let kind = string(map, "type").unwrap_or_default();
    let message_value = map.get("message").cloned().unwrap_or(Value::Null);
    let message = match (kind, message_value.as_object()) {
        ("user", Some(m)) => user(m),
        ("assistant", Some(m)) => assistant(m),
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
            // A slash command on a system line (`local_command`) is said
            // as one.
            // Any other system line of the conversation says what happened
            // in its own words (`Conversation compacted`), a compaction with
            // how it was started and the tokens it left.
            let said = match map.get("content") {
                Some(Value::String(s)) => crate::format::markup::read(s)
                    .map(|pieces| {
                        vec![Block::Markup {
                            text: s.clone(),
                            pieces,
                        }]
                    })
                    .unwrap_or_else(|| vec![Block::Text(system_said(s, map))]),
                _ => Vec::new(),
            };
            Message::Custom {
                role: "claude".to_string(),
                kind: string(map, "subtype").unwrap_or(kind).to_string(),
                data: Value::Object(data),
                said,
            }
        }
    };
    Ok(Entry {
        id: id.to_string(),
        parent_id: string(map, "parentUuid")
            .or_else(|| string(map, "logicalParentUuid"))
            .map(str::to_string),
        timestamp: json::millis(map.get("timestamp")),
        label: None,
        message,
        message_value,
    })
}

/// What a system line of the conversation says: its `content`, and for a
/// compaction how it was started and its tokens before and after.
fn system_said(content: &str, map: &Map<String, Value>) -> String {
    let meta = map.get("compactMetadata");
    let field = |k: &str| meta.and_then(|m| m.get(k));
    let mut parts = Vec::new();
    if let Some(trigger) = field("trigger").and_then(Value::as_str) {
        parts.push(trigger.to_string());
    }
    if let Some(n) = field("preTokens").and_then(Value::as_u64) {
        parts.push(format!("{n} tokens before"));
    }
    if let Some(n) = field("postTokens").and_then(Value::as_u64) {
        parts.push(format!("{n} after"));
    }
    if parts.is_empty() {
        content.to_string()
    } else {
        format!("{content} ({})", parts.join(", "))
    }
}

/// Blocks of Anthropic's Messages API as the one message model.
/// `user`: the user's side sent it, so text may be the app's markup.
fn content(m: &Map<String, Value>, user: bool) -> Vec<Block> {
    let text = |s: String| if user { Block::said(s) } else { Block::Text(s) };
    if let Some(Value::String(s)) = m.get("content") {
        return vec![text(s.clone())];
    }
    blocks(m)
        .filter_map(|b| {
            let field = |key: &str| string(b, key).unwrap_or_default().to_string();
            match string(b, "type")? {
                "text" => Some(text(field("text"))),
                "thinking" => Some(Block::Thinking {
                    text: field("thinking"),
                    redacted: false,
                }),
                "redacted_thinking" => Some(Block::Thinking {
                    text: String::new(),
                    redacted: true,
                }),
                "tool_use" => Some(Block::ToolCall {
                    id: field("id"),
                    name: field("name"),
                    arguments: b.get("input").cloned().unwrap_or(Value::Null),
                }),
                "image" => {
                    let source = b.get("source").and_then(Value::as_object);
                    let text = |key: &str| {
                        source
                            .and_then(|s| string(s, key))
                            .unwrap_or_default()
                            .to_string()
                    };
                    Some(Block::Image {
                        mime_type: text("media_type"),
                        bytes: text("data").trim_end_matches('=').len() * 3 / 4,
                    })
                }
                // A tool result's own content: its text.
                "tool_result" => Some(Block::Text(match b.get("content") {
                    Some(Value::String(s)) => s.clone(),
                    Some(Value::Array(parts)) => parts
                        .iter()
                        .filter_map(|p| p.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    _ => String::new(),
                })),
                _ => None,
            }
        })
        .collect()
}

fn user(m: &Map<String, Value>) -> Message {
    match blocks(m).find(|b| string(b, "type") == Some("tool_result")) {
        Some(r) => Message::ToolResult {
            tool_call_id: string(r, "tool_use_id").unwrap_or_default().to_string(),
            tool_name: String::new(),
            content: content(m, false),
            is_error: r.get("is_error").and_then(Value::as_bool).unwrap_or(false),
        },
        None => Message::User {
            content: content(m, true),
        },
    }
}

fn assistant(m: &Map<String, Value>) -> Message {
    let usage = m.get("usage").cloned().unwrap_or(Value::Null);
    let number = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
    let (input, output) = (number("input_tokens"), number("output_tokens"));
    let (cache_read, cache_write) = (
        number("cache_read_input_tokens"),
        number("cache_creation_input_tokens"),
    );
    // The part of the writes kept for an hour, priced at its own rate; the
    // count stays `cache_creation_input_tokens`, which holds both parts.
    let cache_write_1h = usage
        .get("cache_creation")
        .and_then(|c| c.get("ephemeral_1h_input_tokens"))
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(cache_write);
    Message::Assistant {
        content: content(m, false),
        stop_reason: string(m, "stop_reason").unwrap_or_default().to_string(),
        model: string(m, "model").unwrap_or_default().to_string(),
        provider: "anthropic".to_string(),
        usage: Usage {
            input,
            output,
            cache_read,
            cache_write,
            cache_write_1h,
            total_tokens: input + output + cache_read + cache_write,
        },
        error_message: None,
        fast: usage.get("speed").and_then(Value::as_str) == Some("fast"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_facts(line: &str, subject: bool) -> Option<LineFacts<'static>> {
        match slow(line.as_bytes(), subject) {
            Checked::Entry { facts, .. } => Some(facts),
            _ => None,
        }
    }

    const HEAD: &str = r#""parentUuid":"p1","isSidechain":false,"sessionId":"s","timestamp":"2025-10-14T09:12:05.531Z","uuid":"u1""#;

    #[test]
    fn the_scanner_reads_every_line_as_the_slow_path_does() {
        let odd = [
            r#""type":"user","message":{"role":"user","content":"plain\n\n  second"}"#,
            r#""type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":[{"type":"text","text":"  \n"},{"type":"text","text":"out\nmore"}],"is_error":true}]}"#,
            r#""type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"a\u00e9\tb"}]}"#,
            r#""type":"user","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"aGVsbG8="}}]}"#,
            r#""message":{"model":"m","id":"msg","type":"message","role":"assistant","content":[{"type":"thinking","thinking":" ","signature":"x"},{"type":"redacted_thinking","data":"zz"},{"type":"thinking","thinking":"\n plan"}],"usage":{"input_tokens":1}},"type":"assistant""#,
            r#""message":{"model":"m","role":"assistant","content":[{"type":"tool_use","id":"c1","name":"Bash","input":{ "b" : 1, "a": [2.50, "x"] }},{"type":"tool_use","id":"c2","name":"Read","input":{}}]},"type":"assistant""#,
            r#""message":{"model":"m","role":"assistant","content":[{"type":"text","text":""},{"type":"text","text":"later"},{"type":"something_new","x":1}]},"type":"assistant","isSidechain":true"#,
            r#""type":"user","message":{"role":"user","content":[]}"#,
            r#""type":"progress","data":{"type":"bash_progress","output":"a\"b","fullOutput":{"x":[1,2]}},"toolUseID":"t"}"#,
            r#""type":"progress","data":{"output":"no type"}"#,
            r#""type":"progress","data":[1]"#,
            r#""type":"attachment","attachment":{"type":"todo","content":[]},"isSidechain":true"#,
        ];
        let odd: Vec<String> = odd
            .iter()
            .map(|rest| format!("{{{HEAD},{rest}}}"))
            .collect();
        // Every line Claude Code itself wrote in the agent tests, too.
        let mut written = crate::testing::fixture_texts("agents/claude");
        written.push(include_str!("../../../tests/fixtures/claude/today.jsonl").to_string());
        let lines = include_str!("../../../tests/fixtures/claude/session.jsonl")
            .lines()
            .chain(include_str!("../../../tests/fixtures/claude/broken.jsonl").lines())
            .chain(odd.iter().map(String::as_str))
            .chain(written.iter().flat_map(|w| w.lines()));
        let (mut scanned, mut custom, mut housekeeping) = (0, 0, 0);
        for line in lines {
            for subject in [false, true] {
                match fast(line.trim().as_bytes(), subject) {
                    Some(Checked::Entry { facts, .. }) => {
                        scanned += 1;
                        custom += usize::from(facts.kind == MessageKind::Custom);
                        assert_eq!(
                            Some(facts.into_owned()),
                            slow_facts(line, subject),
                            "{line} (subject: {subject})"
                        );
                    }
                    Some(_) => {
                        housekeeping += 1;
                        assert!(
                            matches!(
                                slow(line.as_bytes(), subject),
                                Checked::Aside {
                                    unknown: None,
                                    title: None
                                }
                            ),
                            "{line}"
                        );
                    }
                    None => {}
                }
            }
        }
        assert!(scanned >= 30, "the scanner read {scanned} lines");
        assert!(
            custom >= 20,
            "the scanner read {custom} progress and attachment lines"
        );
        assert!(
            housekeeping >= 20,
            "the scanner read {housekeeping} housekeeping lines"
        );
    }

    #[test]
    fn claude_lines_are_told_by_the_scanner_as_serde_tells_them() {
        let mut lines: Vec<String> = [
            r#"{"type":"user","uuid":"u","sessionId":null}"#,
            r#"{"type":null,"uuid":"u","sessionId":"s"}"#,
            r#"{"type":"user","uuid":null}"#,
            r#"{"type":"user","uuid":{"a":[1]}}"#,
            r#"{"type":"queue-operation"}"#,
            r#"{"type":"user","type":"user","sessionId":"s"}"#,
            r#"{"type":5,"sessionId":"s"}"#,
            r#" {"sessionId":"s"} "#,
            r#"[{"sessionId":"s"}]"#,
            r#"{"id":"e1","parent_id":null,"message":{}}"#,
        ]
        .map(String::from)
        .to_vec();
        for text in crate::testing::fixture_texts("") {
            lines.extend(text.lines().map(String::from));
        }
        let mut told = 0;
        for line in &lines {
            if let Some(said) = scan::is_claude_line(line.as_bytes()) {
                told += 1;
                assert_eq!(said, is_claude_line_by_serde(line.as_bytes()), "{line}");
            }
        }
        assert!(told > 1000, "the scanner told {told} lines");
    }

    #[test]
    fn the_scanner_leaves_odd_lines_to_the_slow_path() {
        for rest in [
            // A system line, and a compaction hung from its logical parent.
            r#""type":"system","subtype":"compact_boundary","content":"Conversation compacted","message":{"content":"x"}"#,
            r#""type":"user","logicalParentUuid":"p0","message":{"role":"user","content":"x"}"#,
            // Odd values, and a key twice (the last one counts).
            r#""type":"user","isSidechain":1,"message":{"role":"user","content":"x"}"#,
            r#""type":"user","message":{"role":"user","content":[{"type":"text","text":5}]}"#,
            r#""type":"user","message":{"role":"user","content":"x"},"type":"assistant""#,
            r#""type":"summary","message":{"role":"user","content":"x"}"#,
            // A progress line odd in its data, or with words of its own.
            r#""type":"progress","data":{"type":"a","type":"b"}"#,
            r#""type":"progress","data":{"type":7}"#,
            r#""type":"progress","content":"x""#,
            r#""type":"system","data":{}"#,
        ] {
            let line = format!("{{{HEAD},{rest}}}");
            assert!(scan_claude_line(&line, true).is_none(), "{line}");
        }
        // Lines without an entry: titles, and types it does not know.
        for line in [
            r#"{"type":"custom-title","customTitle":"x","sessionId":"s"}"#,
            r#"{"type":"summary","summary":"x","leafUuid":"u1"}"#,
            r#"{"type":"some-future-line","sessionId":"s"}"#,
        ] {
            assert!(scan_claude_line(line, true).is_none(), "{line}");
        }
    }
}
