//! pi's session files (`@mariozechner/pi-coding-agent`, file version 3; the
//! versions 1 and 2 it migrates on open read the same way here).
//!
//! A file opens with a header `{"type":"session","version":3,"id",…}`, then
//! one entry per line: `{type, id, parentId, timestamp (ISO 8601), …}`. The
//! types are `message` (a pi-ai message: `user`, `assistant`, `toolResult`,
//! or an app's own role), `model_change`, `thinking_level_change`,
//! `compaction` (`summary`, `firstKeptEntryId`, `tokensBefore`),
//! `branch_summary` (`fromId`, `summary`), `custom` (`customType`, `data`:
//! app state, never sent to the model), `custom_message`, `label`
//! (`targetId`, `label`: one label per target, the newest wins, an empty one
//! clears it) and `session_info` (`name`). pi's leaf (HEAD) is the last
//! entry.
//!
//! pi itself validates nothing: it skips lines that are not JSON, keeps
//! duplicate ids, and starts a file without a header afresh. ysess reads
//! every line the way pi's `SessionManager` would use it, and says what pi
//! would silently get wrong.

pub mod scan;
pub mod spec;

pub use spec::Pi;
use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::format::fault::{FaultKind, LineFault};
use crate::format::json::{self, blocks, string};
use crate::format::message::{Block, Entry, Message, NotAnEntry, Usage};
use crate::format::records::{self, Kind, Record};
use crate::format::{Checked, LineFacts, MessageKind, text_of};

/// The entry types pi 0.73 writes.
pub const TYPES: [&str; 9] = [
    "message",
    "model_change",
    "thinking_level_change",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
];

/// Whether a line is pi's session header.
pub fn is_header(line: &[u8]) -> bool {
    let Ok((text, _)) = text_of(line) else {
        return false;
    };
    // The header is small; a long first line is an entry of another format.
    text.len() < 64 << 10
        && serde_json::from_str::<Value>(text)
            .is_ok_and(|v| v.get("type").and_then(Value::as_str) == Some("session"))
}

/// Whether an entry is bookkeeping the user's tree folds out: pi's label
/// changes, and ysess's own records (`custom` entries of a `ysess.` type).
pub fn is_record(facts: &LineFacts<'_>) -> bool {
    match facts.custom_role.as_deref() {
        Some("label") => true,
        Some("custom") => facts
            .custom_kind
            .as_deref()
            .is_some_and(|k| k.starts_with("ysess.")),
        _ => false,
    }
}

/// The file version pi reads a header as: `version`, 1 when there is none
/// (pi migrates versions 1 and 2 when it opens a file, and reads anything
/// it does not compare below 3 as current, 3 here).
fn read_version(value: Option<&Value>) -> u64 {
    // pi compares with `<` in JavaScript, which makes a number of a string.
    let number = match value {
        None | Some(Value::Null) => 1.0,
        Some(Value::Number(n)) => n.as_f64().unwrap_or(f64::NAN),
        Some(Value::String(s)) if s.trim().is_empty() => 0.0,
        Some(Value::String(s)) => s.trim().parse().unwrap_or(f64::NAN),
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(_) => f64::NAN,
    };
    if number < 2.0 {
        1
    } else if number < 3.0 {
        2
    } else {
        3
    }
}

/// An app's message role as pi 0.73 names it: version 2's `hookMessage` is
/// `custom` since version 3.
fn custom_role(role: &str) -> &str {
    match role {
        "hookMessage" => "custom",
        role => role,
    }
}

/// A timestamp pi writes (`2025-10-09T08:53:20.000Z`) in milliseconds since
/// the epoch; 0 when there is none that reads.
fn millis(value: Option<&Value>) -> u64 {
    match value {
        Some(Value::String(s)) => json::iso_millis(s).unwrap_or(0),
        Some(Value::Number(n)) => n.as_u64().unwrap_or(0),
        _ => 0,
    }
}

fn shape(message: String, id: Option<&str>) -> LineFault {
    LineFault {
        kind: FaultKind::Shape,
        at: None,
        message,
        id: id.map(str::to_string),
    }
}

/// Checks one line (without its `\n`) as pi reads it: JSON, then an entry
/// with a `type` and an `id`. `subject`: also make its subject line.
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'_> {
    read_line(bytes, subject, false)
}

/// [`check_line`], the entry's tally taken too when `tally` asks for it
/// (see [`crate::format::Format::check_line_tallied`]).
pub fn read_line(bytes: &[u8], subject: bool, tally: bool) -> Checked<'_> {
    let (text, indent) = match text_of(bytes) {
        Ok(text) => text,
        Err(no) => return no.into(),
    };
    // Most lines are messages of the three model roles: read those with
    // typed, borrowing serde; anything else (or anything odd) the slow way,
    // which also explains faults.
    if let Some(facts) =
        scan::scan_pi_line_tallied(text, subject, tally).or_else(|| fast::facts(text, subject))
    {
        return Checked::Entry { facts, indent };
    }
    let value = match json::parse(text, indent) {
        Ok(value) => value,
        Err(verdict) => return *verdict,
    };
    match facts(&value, subject) {
        Ok(Some(facts)) => Checked::Entry { facts, indent },
        Ok(None) => Checked::Header {
            version: read_version(value.get("version")),
        },
        Err(fault) => Checked::Fault { fault, indent },
    }
}

mod fast;

/// The facts of one entry; `None` for a header.
fn facts(value: &Value, subject: bool) -> Result<Option<LineFacts<'static>>, LineFault> {
    let Some(map) = value.as_object() else {
        return Err(shape("a pi entry must be a JSON object".to_string(), None));
    };
    let Some(kind) = string(map, "type") else {
        return Err(shape(
            "missing field `type` (pi reads an entry by its type)".to_string(),
            string(map, "id"),
        ));
    };
    if kind == "session" {
        return Ok(None);
    }
    // Version 1 wrote neither ids nor parents: pi numbers such entries and
    // chains them in file order when it opens the file.
    let unnumbered = !map.contains_key("id") && !map.contains_key("parentId");
    let id = match string(map, "id") {
        Some(id) => id,
        None if unnumbered => "",
        None => {
            return Err(shape(
                format!(
                    "a `{kind}` entry without a string `id`: pi cannot find it or its children"
                ),
                None,
            ));
        }
    };
    let parent = match map.get("parentId") {
        None | Some(Value::Null) => None,
        Some(Value::String(p)) => Some(Cow::Owned(p.clone())),
        Some(_) => {
            return Err(shape(
                "`parentId` must be a string or null".to_string(),
                Some(id),
            ));
        }
    };
    let own = |s: &str| Cow::Owned(s.to_string());
    let mut facts = LineFacts {
        id: own(id),
        parent,
        timestamp: millis(map.get("timestamp")),
        kind: MessageKind::Custom,
        custom_role: Some(own(kind)),
        unnumbered,
        ..LineFacts::default()
    };
    match kind {
        "message" => message_facts(&mut facts, map, id)?,
        "custom" | "custom_message" => {
            facts.custom_kind = Some(own(string(map, "customType").unwrap_or_default()));
        }
        "label" => {
            facts.custom_kind = Some(own(kind));
            facts.label = Some(own(string(map, "label").unwrap_or_default()));
            facts.target = string(map, "targetId").map(own);
        }
        "compaction" => {
            facts.custom_kind = Some(own(kind));
            facts.target = match map.get("firstKeptEntryIndex") {
                // Version 1 kept the index of the first kept line.
                Some(Value::Number(n)) if unnumbered => Some(Cow::Owned(n.to_string())),
                _ => string(map, "firstKeptEntryId").map(own),
            };
        }
        "branch_summary" => {
            facts.custom_kind = Some(own(kind));
            // `root`: the summary of a branch abandoned back to the start.
            facts.target = string(map, "fromId").filter(|&f| f != "root").map(own);
        }
        other => facts.custom_kind = Some(own(other)),
    }
    if subject {
        facts.subject = Some(Cow::Owned(subject_of(map, kind)));
    }
    Ok(Some(facts))
}

/// A `message` entry's facts: by its message's role, a user's words, an
/// assistant's reply and the tools it calls, a tool's result, or a message
/// of another role as pi's own.
fn message_facts(
    facts: &mut LineFacts<'static>,
    map: &Map<String, Value>,
    id: &str,
) -> Result<(), LineFault> {
    let own = |s: &str| Cow::Owned(s.to_string());
    let Some(message) = map.get("message").and_then(Value::as_object) else {
        return Err(shape(
            "a `message` entry without a `message` object".to_string(),
            Some(id),
        ));
    };
    let role = string(message, "role").unwrap_or_default();
    match role {
        "user" => facts.kind = MessageKind::User,
        "assistant" => {
            facts.kind = MessageKind::Assistant;
            facts.model = string(message, "model").map(own);
            facts.tool_calls = blocks(message)
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("toolCall"))
                .filter_map(|b| b.get("id").and_then(Value::as_str))
                .map(own)
                .collect();
        }
        "toolResult" => {
            facts.kind = MessageKind::ToolResult;
            facts.tool_result_for = string(message, "toolCallId").map(own);
            facts.tool_name = string(message, "toolName").map(own);
        }
        other => {
            facts.custom_role = Some(own("message"));
            facts.custom_kind = Some(own(custom_role(other)));
        }
    }
    if facts.kind != MessageKind::Custom {
        facts.custom_role = None;
    }
    Ok(())
}

/// One line saying what an entry is about.
fn subject_of(map: &Map<String, Value>, kind: &str) -> String {
    let line = json::subject_line;
    let text = |key: &str| line(string(map, key).unwrap_or_default());
    match kind {
        "message" => entry_of(map).map_or_else(|_| String::new(), |e| e.message.subject()),
        "compaction" | "branch_summary" => text("summary"),
        "model_change" => format!(
            "{}/{}",
            string(map, "provider").unwrap_or_default(),
            string(map, "modelId").unwrap_or_default()
        ),
        "thinking_level_change" => text("thinkingLevel"),
        "session_info" => text("name"),
        "label" => match string(map, "label").filter(|l| !l.is_empty()) {
            Some(label) => format!("label {} on {}", line(label), text("targetId")),
            None => format!("label cleared on {}", text("targetId")),
        },
        "custom_message" => match map.get("content") {
            Some(Value::String(s)) => line(s),
            _ => text("customType"),
        },
        _ => text("customType"),
    }
}

/// An entry read in full, for the commands that print it.
pub fn entry(line: &[u8]) -> Result<Entry, NotAnEntry> {
    let text = std::str::from_utf8(line).map_err(|e| NotAnEntry(format!("not UTF-8: {e}")))?;
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| NotAnEntry(format!("not JSON: {e}")))?;
    let map = value
        .as_object()
        .ok_or_else(|| NotAnEntry("not an object".to_string()))?;
    entry_of(map)
}

fn entry_of(map: &Map<String, Value>) -> Result<Entry, NotAnEntry> {
    let kind = string(map, "type").unwrap_or_default();
    // A version-1 entry has no id; the tree's number for it stands in.
    let id = string(map, "id").unwrap_or_default();
    let (message, message_value) = match (kind, map.get("message")) {
        ("message", Some(Value::Object(m))) => (message(m), Value::Object(m.clone())),
        _ => {
            // Everything but the entry's own bookkeeping is its data.
            let data: Map<String, Value> = map
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "type" | "id" | "parentId" | "timestamp"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let (kind, data) = match kind {
                // An app's state: its type and its data, as pi hands them
                // back to the extension.
                "custom" => (
                    string(map, "customType").unwrap_or(kind),
                    map.get("data").cloned().unwrap_or(Value::Null),
                ),
                "custom_message" => (
                    string(map, "customType").unwrap_or(kind),
                    Value::Object(data),
                ),
                _ => (kind, Value::Object(data)),
            };
            let message = Message::Custom {
                role: "pi".to_string(),
                kind: kind.to_string(),
                data,
                said: Vec::new(),
            };
            (message, Value::Object(map.clone()))
        }
    };
    Ok(Entry {
        id: id.to_string(),
        parent_id: string(map, "parentId").map(str::to_string),
        timestamp: millis(map.get("timestamp")),
        // pi's labels live in `label` entries; decorations show them.
        label: None,
        message,
        message_value,
    })
}

/// A pi-ai message as the one message model.
fn message(m: &Map<String, Value>) -> Message {
    let text = |key: &str| string(m, key).unwrap_or_default().to_string();
    let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0);
    let content = || -> Vec<Block> {
        if let Some(Value::String(s)) = m.get("content") {
            return vec![Block::Text(s.clone())];
        }
        blocks(m)
            .filter_map(|b| {
                let field = |key: &str| string(b, key).unwrap_or_default().to_string();
                match string(b, "type")? {
                    "text" => Some(Block::Text(field("text"))),
                    "image" => Some(Block::Image {
                        mime_type: field("mimeType"),
                        bytes: string(b, "data")
                            .map_or(0, |d| d.trim_end_matches('=').len() * 3 / 4),
                    }),
                    "thinking" => Some(Block::Thinking {
                        text: field("thinking"),
                        redacted: b.get("redacted").is_some_and(|r| r.as_bool() == Some(true)),
                    }),
                    "toolCall" => Some(Block::ToolCall {
                        id: field("id"),
                        name: field("name"),
                        arguments: b.get("arguments").cloned().unwrap_or(Value::Null),
                    }),
                    _ => None,
                }
            })
            .collect()
    };
    match string(m, "role").unwrap_or_default() {
        "user" => Message::User { content: content() },
        "assistant" => {
            let usage = m.get("usage").cloned().unwrap_or(Value::Null);
            Message::Assistant {
                content: content(),
                stop_reason: text("stopReason"),
                model: text("model"),
                provider: text("provider"),
                usage: Usage {
                    input: number(&usage, "input"),
                    output: number(&usage, "output"),
                    cache_read: number(&usage, "cacheRead"),
                    cache_write: number(&usage, "cacheWrite"),
                    cache_write_1h: 0,
                    total_tokens: number(&usage, "totalTokens"),
                },
                error_message: string(m, "errorMessage").map(str::to_string),
                fast: false,
            }
        }
        "toolResult" => Message::ToolResult {
            tool_call_id: text("toolCallId"),
            tool_name: text("toolName"),
            content: content(),
            is_error: m.get("isError").and_then(Value::as_bool).unwrap_or(false),
        },
        role => Message::Custom {
            role: "pi".to_string(),
            kind: custom_role(role).to_string(),
            data: Value::Object(m.clone()),
            said: Vec::new(),
        },
    }
}

/// What is wrong with one of ysess's records in a pi session (a `custom`
/// entry of a `ysess.` type), as [`records::check_record`] judges any
/// record; `Ok` carries a checkout's target. A label is pi's own `label`
/// entry there, never a `ysess.tag` record.
pub fn check_record(line: &[u8], facts: &LineFacts<'_>) -> Result<Option<String>, String> {
    let Some(kind) = facts
        .custom_kind
        .as_deref()
        .filter(|k| k.starts_with("ysess."))
        .filter(|_| facts.custom_role.as_deref() == Some("custom"))
    else {
        return Ok(None);
    };
    if kind == "ysess.tag" {
        return Err(
            "record ysess.tag: in a pi session a label is pi's own `label` entry".to_string(),
        );
    }
    let text = std::str::from_utf8(line).map_err(|e| e.to_string())?.trim();
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    records::check_record(kind, &value["data"], facts.parent.as_deref(), None)
}

/// `count` new ids as pi makes them: 8 hex digits, none that `taken` says
/// the file has, none twice.
pub fn new_ids(taken: impl Fn(&str) -> bool, count: usize) -> Vec<String> {
    use std::hash::{BuildHasher, Hasher};
    let seed = std::collections::hash_map::RandomState::new();
    let mut out: Vec<String> = Vec::with_capacity(count);
    let mut n: u64 = 0;
    while out.len() < count {
        let mut h = seed.build_hasher();
        h.write_u64(n);
        n += 1;
        let id = format!("{:08x}", h.finish() as u32);
        if !taken(&id) && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// A time as pi writes it (JavaScript's `toISOString()`):
/// `2025-10-09T08:53:20.000Z`.
pub fn iso(ms: u64) -> String {
    let t = jiff::Timestamp::from_millisecond(i64::try_from(ms).unwrap_or(i64::MAX))
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// The line of one of ysess's records in a pi session, as pi's own
/// `SessionManager` would write the entry: a label change is pi's `label`
/// entry, hung from `leaf` (the entry pi would append after) so that HEAD
/// stays where it is, with an empty label clearing the target's; every
/// other record is a `custom` entry of type `ysess.<op>` (pi never sends
/// those to the model) hung where the record says.
pub fn record_line(record: &Record, id: &str, leaf: Option<&str>, now_ms: u64) -> String {
    let value = match &record.kind {
        Kind::Tag { name, target } => serde_json::json!({
            "type": "label",
            "id": id,
            "parentId": leaf,
            "timestamp": iso(now_ms),
            "targetId": target,
            "label": name,
        }),
        kind => serde_json::json!({
            "type": "custom",
            "customType": kind.name(),
            "data": kind.data(),
            "id": id,
            "parentId": record.parent,
            "timestamp": iso(now_ms),
        }),
    };
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::scan::scan_pi_line;
    use super::*;

    /// The slow path alone: the facts of a line read as a `Value`.
    fn slow(line: &str, subject: bool) -> Option<LineFacts<'static>> {
        let value: Value = serde_json::from_str(line).ok()?;
        facts(&value, subject).ok().flatten()
    }

    #[test]
    fn the_fast_path_reads_every_message_as_the_slow_path_does() {
        let fixture = include_str!("../../../tests/fixtures/pi/handmade.jsonl");
        let odd = [
            r#"{"type":"message","id":"a1","parentId":null,"timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user","content":[{"type":"text","text":""},{"type":"text","text":"second"}]}}"#,
            r#"{"type":"message","id":"a2","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"  \n "},{"type":"thinking","thinking":"\n plan\nmore"}]}}"#,
            r#"{"type":"message","id":"a3","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user","content":[{"type":"image","data":"aGVsbG8=","mimeType":"image/png"}]}}"#,
            r#"{"type":"message","id":"a4","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{ "b" : 1, "a": [2] }}],"model":"m"}}"#,
            r#"{"type":"message","id":"a5","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":"line one\nline two"}}"#,
            r#"{"type":"message","id":"a6","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user"}}"#,
            r#"{"type":"message","id":"a\u00e97","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user","content":"caf\u00e9"}}"#,
            r#"{"type":"message","id":"a8","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user","content":[{"type":"text","text":5},{"type":"thinking","thinking":"x\ny"}]}}"#,
            r#"{"type":"message","id":"a9","parentId":"a1","timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"assistant","content":[{"type":"text","text":"\u00e9t\u00e9\n\tsecond"}]}}"#,
        ];
        let generated = include_str!("../../../tests/fixtures/pi/demo.jsonl");
        let lines: Vec<&str> = fixture
            .lines()
            .chain(generated.lines())
            .chain(odd)
            .collect();
        let (mut typed, mut scanned) = (0, 0);
        for line in lines {
            for subject in [false, true] {
                if let Some(fast) = fast::facts(line, subject) {
                    typed += 1;
                    let want = slow(line, subject);
                    assert_eq!(Some(fast.into_owned()), want, "{line} (subject: {subject})");
                }
                if let Some(fast) = scan_pi_line(line, subject) {
                    scanned += 1;
                    let want = slow(line, subject);
                    assert_eq!(
                        Some(fast.into_owned()),
                        want,
                        "scanned: {line} (subject: {subject})"
                    );
                }
            }
        }
        assert!(typed >= 20, "the typed path read {typed} lines");
        assert!(scanned >= 20, "the scanner read {scanned} lines");
    }

    #[test]
    fn times_read_by_hand_agree_with_jiff() {
        let jiff = |t: &str| {
            t.parse::<jiff::Timestamp>()
                .ok()
                .and_then(|t| u64::try_from(t.as_millisecond()).ok())
        };
        let mut t: u64 = 0;
        // Every day from 1970 to 2100, at a time that moves through the day.
        while t < 4_102_444_800_000 {
            let text = iso(t);
            assert_eq!(json::iso_millis(&text), Some(t), "{text}");
            t += 86_400_000 + 3_723_456;
        }
        for odd in [
            "2024-02-29T23:59:59.999Z",
            "2000-02-29T00:00:00.001Z",
            "2100-02-29T00:00:00.000Z",
            "2023-02-29T00:00:00.000Z",
            "2000-02-29T12:00:00.000Z",
            "1900-02-29T12:00:00.000Z",
            "2025-04-31T00:00:00.000Z",
            "2025-10-09T08:53:20Z",
            "2025-10-09T08:53:20.5+02:00",
            "2025-13-01T00:00:00.000Z",
            "1969-12-31T23:59:59.999Z",
        ] {
            assert_eq!(json::iso_millis(odd), jiff(odd), "{odd}");
        }
    }

    #[test]
    fn the_fast_path_leaves_odd_lines_to_the_slow_path() {
        for line in [
            // A parent that is neither a string nor null.
            r#"{"type":"message","id":"a1","parentId":7,"timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user","content":"x"}}"#,
            // A number for a time, and a key twice (the last one counts).
            r#"{"type":"message","id":"a1","parentId":null,"timestamp":5,"message":{"role":"user","content":"x"}}"#,
            r#"{"type":"message","id":"a1","id":"a2","parentId":null,"timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user","content":"x"}}"#,
            // An app's own role, and an entry that is not a message.
            r#"{"type":"message","id":"a1","parentId":null,"timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"custom","content":"x"}}"#,
            r#"{"type":"model_change","id":"a1","parentId":null,"timestamp":"2025-10-09T08:53:21.000Z","provider":"p","modelId":"m"}"#,
        ] {
            assert!(fast::facts(line, true).is_none(), "{line}");
            assert!(scan_pi_line(line, true).is_none(), "scanned: {line}");
        }
        let dup = r#"{"type":"message","id":"a1","id":"a2","parentId":null,"timestamp":"2025-10-09T08:53:21.000Z","message":{"role":"user","content":"x"}}"#;
        assert_eq!(
            slow(dup, false).map(|f| f.id.into_owned()),
            Some("a2".to_string())
        );
    }
}
