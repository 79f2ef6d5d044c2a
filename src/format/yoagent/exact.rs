//! The exact path: a line is read with the entry shape yoagent 0.26.6
//! declares ([`super::schema`]), so that serde itself decides what loads.
//! Only lines the fast path in [`super::scan`] is unsure of come here.
//!
//! When a line does not load, this module also explains why in terms a
//! person can act on: which field, in which content block, of which role.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::schema::{Content, CustomMessage, Message, SessionEntry, StopReason, Usage};
use crate::format::LineFacts;
use crate::format::fault::{FaultKind, LineFault};
use crate::format::json::bare;

/// Decides one line exactly as yoagent's loader does.
pub fn check_exact(line: &str) -> Result<LineFacts<'static>, LineFault> {
    match serde_json::from_str::<SessionEntry>(line) {
        Ok(entry) => {
            let mut facts = entry.into_facts();
            facts.subject = crate::format::message::Entry::parse(line.as_bytes())
                .ok()
                .map(|e| Cow::Owned(e.message.subject()));
            Ok(facts)
        }
        Err(err) => Err(explain(line, &err)),
    }
}

fn explain(line: &str, err: &serde_json::Error) -> LineFault {
    let at = (err.column() > 0).then(|| err.column() - 1);
    let members = members(line);
    let id = members
        .iter()
        .flatten()
        .find(|m| m.key == "id")
        .and_then(|m| serde_json::from_str::<String>(m.value.get()).ok());
    let text = bare(err);
    let kind = match err.classify() {
        serde_json::error::Category::Eof => FaultKind::Eof,
        serde_json::error::Category::Syntax | serde_json::error::Category::Io => FaultKind::Syntax,
        serde_json::error::Category::Data => FaultKind::Shape,
    };
    if kind == FaultKind::Syntax
        && let Some(start) = glued_at(line)
    {
        let id_of = |text: &str| {
            self::members(text)?
                .iter()
                .find(|m| m.key == "id")
                .and_then(|m| serde_json::from_str::<String>(m.value.get()).ok())
        };
        let both = match (id.as_deref(), id_of(&line[start..])) {
            (Some(first), Some(second)) => format!("entries {first} and {second} share one line"),
            _ => "two JSON objects share one line".to_string(),
        };
        return LineFault {
            kind: FaultKind::Glued,
            at: Some(start),
            message: format!(
                "{both}, the newline between them missing (a line was appended to a file that \
                 did not end in one; yoagent writes none): insert a newline before byte {} of \
                 the line",
                start + 1
            ),
            id,
        };
    }
    if kind != FaultKind::Shape {
        return LineFault {
            kind,
            at,
            message: text,
            id,
        };
    }
    let Some(members) = members else {
        return LineFault {
            kind,
            at,
            message: format!("entry: {text}"),
            id,
        };
    };
    if text.contains("untagged enum AgentMessage")
        && let Some(message) = members.iter().find(|m| m.key == "message")
    {
        let offset = offset_in(line, message.value.get());
        return LineFault {
            kind: FaultKind::Message,
            at: Some(offset),
            message: format!("message{}", explain_message(message.value.get())),
            id,
        };
    }
    // Name the member whose value the error points into.
    let field = at.and_then(|pos| {
        members.iter().find(|m| {
            let start = offset_in(line, m.value.get());
            (start..=start + m.value.get().len()).contains(&pos)
        })
    });
    let message = match field {
        Some(m) if !text.starts_with("duplicate field") => format!("{}: {text}", m.key),
        _ => format!("entry: {text}"),
    };
    LineFault {
        kind,
        at,
        message,
        id,
    }
}

/// Where a second JSON object starts on a line that holds a whole JSON
/// object first: the two lines were glued together.
fn glued_at(line: &str) -> Option<usize> {
    let mut values = serde_json::Deserializer::from_str(line).into_iter::<&RawValue>();
    let first = values.next()?.ok()?;
    if !first.get().starts_with('{') {
        return None;
    }
    let end = values.byte_offset();
    let rest = &line[end..];
    let start = end + (rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len());
    line[start..].starts_with('{').then_some(start)
}

fn offset_in(line: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(line.as_ptr() as usize)
}

/// One member of a JSON object, with its raw value.
struct Member<'a> {
    key: Cow<'a, str>,
    value: &'a RawValue,
}

/// The members of a top-level JSON object, duplicates kept, or `None` when
/// the text is not a well-formed object.
fn members(text: &str) -> Option<Vec<Member<'_>>> {
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<Member<'de>>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                out.push(Member {
                    key,
                    value: map.next_value()?,
                });
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de::Deserializer::deserialize_map(&mut de, Members).ok()
}

const ROLES: &str = "user, assistant or toolResult";

/// Explains why a message fits neither yoagent's model messages nor its
/// custom records. The result follows the word "message".
fn explain_message(raw: &str) -> String {
    let value: Value = match serde_json::from_str(raw) {
        // Explained with its tags named, as serde reads them.
        Ok(v) => super::canonical::named_tags(v),
        Err(e) => return format!(": {}", bare(&e)),
    };
    let Value::Object(map) = &value else {
        return format!(": must be an object, found {}", type_name(&value));
    };
    match map.get("role") {
        Some(Value::String(role)) if super::canonical::ROLES.contains(&role.as_str()) => {
            let why = explain_llm(role, map)
                .or_else(|| Message::deserialize(&value).err().map(|e| e.to_string()))
                .unwrap_or_else(|| "does not match its role's shape".into());
            format!(" ({role}): {why}")
        }
        Some(Value::String(role)) => {
            let why = serde_json::from_str::<CustomMessage>(raw)
                .err()
                .map(|e| bare(&e))
                .unwrap_or_else(|| "does not match".into());
            format!(
                ": role `{role}` is not {ROLES}, so it must be a custom record \
                 with `kind` and `data`: {why}"
            )
        }
        Some(Value::Number(n)) => {
            format!(": `role` must be a string, or a number for {ROLES} (0, 1 or 2), found {n}")
        }
        Some(other) => format!(": `role` must be a string, found {}", type_name(other)),
        None => {
            format!(": missing field `role` (one of {ROLES}, or any string for a custom record)")
        }
    }
}

/// Finds the first field of a model message that does not fit, checking
/// each field on its own so the answer can name it.
fn explain_llm(role: &str, map: &serde_json::Map<String, Value>) -> Option<String> {
    let fields: &[(&str, &[&str], Check)] = match role {
        "user" => &[
            ("content", &[], Check::Content),
            ("timestamp", &[], Check::U64),
        ],
        "assistant" => &[
            ("content", &[], Check::Content),
            ("stopReason", &[], Check::StopReason),
            ("model", &[], Check::String),
            ("provider", &[], Check::String),
            ("usage", &[], Check::Usage),
            ("timestamp", &[], Check::U64),
            ("errorMessage", &["error_message"], Check::OptString),
        ],
        _ => &[
            ("toolCallId", &[], Check::String),
            ("toolName", &[], Check::String),
            ("content", &[], Check::Content),
            ("isError", &[], Check::Bool),
            ("timestamp", &[], Check::U64),
        ],
    };
    for (name, aliases, check) in fields {
        let value = std::iter::once(name)
            .chain(aliases.iter())
            .find_map(|k| map.get(*k));
        let Some(value) = value else {
            if matches!(check, Check::OptString) {
                continue;
            }
            return Some(format!("missing field `{name}`"));
        };
        if let Some(why) = check.explain(value) {
            return Some(format!("{name}{why}"));
        }
    }
    None
}

#[derive(Clone, Copy)]
enum Check {
    Content,
    U64,
    String,
    OptString,
    Bool,
    StopReason,
    Usage,
}

impl Check {
    /// The problem with `value`, starting with the punctuation that follows
    /// the field name (": …" or "[2]: …").
    fn explain(self, value: &Value) -> Option<String> {
        fn fits<T: for<'de> Deserialize<'de>>(value: &Value) -> Option<String> {
            T::deserialize(value).err().map(|e| format!(": {e}"))
        }
        match self {
            Check::U64 => fits::<u64>(value),
            Check::String => fits::<String>(value),
            Check::OptString => fits::<Option<String>>(value),
            Check::Bool => fits::<bool>(value),
            Check::StopReason => fits::<StopReason>(value),
            Check::Usage => fits::<Usage>(value),
            Check::Content => {
                let Value::Array(blocks) = value else {
                    return fits::<Vec<Content>>(value);
                };
                blocks.iter().enumerate().find_map(|(i, block)| {
                    let err = Content::deserialize(block).err()?;
                    let kind = block.get("type").and_then(Value::as_str);
                    Some(match kind {
                        Some(kind) if !err.to_string().starts_with("unknown variant") => {
                            format!("[{i}] ({kind}): {err}")
                        }
                        _ => format!("[{i}]: {err}"),
                    })
                })
            }
        }
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(line: &str) -> LineFault {
        check_exact(line).expect_err("line must not load")
    }

    #[test]
    fn names_the_missing_usage_of_an_assistant() {
        let f = fault(
            r#"{"id":"e2","parent_id":null,"message":{"role":"assistant","content":[],"stopReason":"stop","model":"m","provider":"p","timestamp":1},"timestamp":1}"#,
        );
        assert_eq!(f.kind, FaultKind::Message);
        assert_eq!(f.message, "message (assistant): missing field `usage`");
        assert_eq!(f.id.as_deref(), Some("e2"));
    }

    #[test]
    fn names_the_content_block_that_does_not_fit() {
        let f = fault(
            r#"{"id":"e1","message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"toolCall","id":"c","name":"n"}],"timestamp":1},"timestamp":1}"#,
        );
        assert_eq!(
            f.message,
            "message (user): content[1] (toolCall): missing field `arguments`"
        );
    }

    #[test]
    fn names_the_top_level_field_of_a_type_error() {
        let f = fault(
            r#"{"id":"e1","message":{"role":"user","content":[],"timestamp":1},"timestamp":"soon"}"#,
        );
        assert_eq!(f.kind, FaultKind::Shape);
        assert_eq!(
            f.message,
            "timestamp: invalid type: string \"soon\", expected u64"
        );
    }

    #[test]
    fn explains_a_custom_record_without_kind() {
        let f = fault(r#"{"id":"e1","message":{"role":"note","data":1},"timestamp":1}"#);
        assert!(
            f.message.contains("role `note` is not user"),
            "{}",
            f.message
        );
        assert!(f.message.contains("missing field `kind`"), "{}", f.message);
    }

    #[test]
    fn a_cut_line_is_eof() {
        assert_eq!(fault(r#"{"id":"e1","message":{"ro"#).kind, FaultKind::Eof);
    }
}
