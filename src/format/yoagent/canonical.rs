//! Messages written the way yoagent writes them. yoagent re-serializes every
//! entry when an app saves a session: its own field order, aliases under
//! their proper names, unknown fields dropped, free-form JSON (tool call
//! arguments, custom data) with its keys sorted. Lines ysess appends in that
//! same form survive such a save byte for byte, so `fsck --since` stays
//! quiet about them.

use serde_json::{Map, Value};

/// `value` with the keys of every object sorted, as serde_json writes a
/// `Value` without its `preserve_order` feature (yoagent's build).
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// Copies the named fields, in this order, from `from` (the first of each
/// name's spellings that is present). `Optional` fields are left out when
/// missing or null, as yoagent skips `None`.
fn fields(from: &Map<String, Value>, names: &[(&str, &[&str], Field)]) -> Map<String, Value> {
    let mut out = Map::new();
    for (name, aliases, field) in names {
        let value = std::iter::once(name)
            .chain(aliases.iter())
            .find_map(|k| from.get(*k));
        match (value, field) {
            (None | Some(Value::Null), Field::Optional) => {}
            (None, Field::Zero) => {
                out.insert(name.to_string(), Value::from(0));
            }
            (Some(v), Field::Free) => {
                out.insert(name.to_string(), sorted(v));
            }
            (Some(v), _) => {
                out.insert(name.to_string(), v.clone());
            }
            (None, _) => {}
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Field {
    Plain,
    /// Skipped when absent or null.
    Optional,
    /// Written as 0 when absent (a defaulted number).
    Zero,
    /// Free-form JSON, written with sorted keys.
    Free,
}

use Field::{Free, Optional, Plain, Zero};

fn block(value: &Value) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    let names: &[(&str, &[&str], Field)] = match map.get("type").and_then(Value::as_str) {
        Some("text") => &[("type", &[], Plain), ("text", &[], Plain)],
        Some("image") => &[
            ("type", &[], Plain),
            ("data", &[], Plain),
            ("mimeType", &[], Plain),
        ],
        Some("thinking") => &[
            ("type", &[], Plain),
            ("thinking", &[], Plain),
            ("signature", &[], Optional),
            ("redacted", &[], Optional),
            ("redactedProtocol", &["redacted_protocol"], Optional),
        ],
        Some("toolCall") => &[
            ("type", &[], Plain),
            ("id", &[], Plain),
            ("name", &[], Plain),
            ("arguments", &[], Free),
            ("providerMetadata", &["provider_metadata"], Optional),
        ],
        _ => return value.clone(),
    };
    let mut out = fields(map, names);
    if let Some(meta) = out.get_mut("providerMetadata") {
        *meta = sorted(meta);
    }
    Value::Object(out)
}

fn content(map: &Map<String, Value>) -> Value {
    match map.get("content") {
        Some(Value::Array(blocks)) => Value::Array(blocks.iter().map(block).collect()),
        Some(other) => other.clone(),
        None => Value::Null,
    }
}

/// A model message's roles and a content block's types in the order of
/// yoagent's enums: serde reads a variant's index in place of its name
/// (`"role":1` is an assistant message, a block's `"type":3` a tool call).
pub const ROLES: [&str; 3] = ["user", "assistant", "toolResult"];
/// The content block types of yoagent's messages.
pub const BLOCK_TYPES: [&str; 4] = ["text", "image", "thinking", "toolCall"];

/// A model message with its tags as yoagent names them. serde reads a
/// variant's index where its name belongs (`"role":0`, a block's
/// `"type":3`), and yoagent writes the name back on its next save. Only for
/// a model message: a custom record's fields are its own.
pub fn named_tags(mut value: Value) -> Value {
    let name = |tag: Option<&Value>, names: &[&str]| -> Option<Value> {
        let index = usize::try_from(tag?.as_u64()?).ok()?;
        names.get(index).map(|n| Value::String(n.to_string()))
    };
    let Some(map) = value.as_object_mut() else {
        return value;
    };
    if let Some(role) = name(map.get("role"), &ROLES) {
        map.insert("role".into(), role);
    }
    if let Some(Value::Array(blocks)) = map.get_mut("content") {
        for block in blocks.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(kind) = name(block.get("type"), &BLOCK_TYPES) {
                block.insert("type".into(), kind);
            }
        }
    }
    value
}

/// A message (already checked to load in yoagent) in the form yoagent
/// writes it. `llm` says whether yoagent reads it as a model message (else
/// it is a custom record); `role` is its role as yoagent names it.
pub fn message(value: &Value, llm: bool, role: &str) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    if !llm {
        let mut out = Map::new();
        out.insert(
            "role".into(),
            map.get("role").cloned().unwrap_or(Value::Null),
        );
        out.insert(
            "kind".into(),
            map.get("kind").cloned().unwrap_or(Value::Null),
        );
        out.insert(
            "data".into(),
            map.get("data").map(sorted).unwrap_or(Value::Null),
        );
        return Value::Object(out);
    }
    let named = named_tags(value.clone());
    let Some(map) = named.as_object() else {
        return named;
    };
    let mut out = Map::new();
    out.insert("role".into(), Value::String(role.to_string()));
    out.insert("content".into(), content(map));
    let rest: &[(&str, &[&str], Field)] = match role {
        "assistant" => &[
            ("stopReason", &[], Plain),
            ("model", &[], Plain),
            ("provider", &[], Plain),
            ("usage", &[], Plain),
            ("timestamp", &[], Plain),
            ("errorMessage", &["error_message"], Optional),
        ],
        "toolResult" => &[
            ("toolCallId", &[], Plain),
            ("toolName", &[], Plain),
            ("isError", &[], Plain),
            ("timestamp", &[], Plain),
        ],
        _ => &[("timestamp", &[], Plain)],
    };
    let mut tail = fields(map, rest);
    if role == "toolResult" {
        // yoagent writes content after the tool's name.
        let mut ordered = Map::new();
        ordered.insert("role".into(), Value::String(role.to_string()));
        for key in ["toolCallId", "toolName"] {
            if let Some(v) = tail.remove(key) {
                ordered.insert(key.into(), v);
            }
        }
        ordered.insert("content".into(), content(map));
        ordered.extend(tail);
        return Value::Object(ordered);
    }
    if let Some(Value::Object(usage)) = tail.get("usage") {
        let usage = fields(
            usage,
            &[
                ("input", &[], Plain),
                ("output", &[], Plain),
                ("cacheRead", &["cache_read"], Zero),
                ("cacheWrite", &["cache_write"], Zero),
                ("totalTokens", &["total_tokens"], Zero),
            ],
        );
        tail.insert("usage".into(), Value::Object(usage));
    }
    out.extend(tail);
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_assistant_message_is_reordered_renamed_and_trimmed() {
        let given = json!({"timestamp": 5, "usage": {"output": 2, "input": 1, "cache_read": 3},
            "provider": "p", "model": "m", "stopReason": "toolUse", "x": 1, "role": "assistant",
            "content": [{"arguments": {"b": 1, "a": 2}, "name": "bash", "id": "c1", "type": "toolCall"}]});
        let out = message(&given, true, "assistant");
        assert_eq!(
            out.to_string(),
            r#"{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"a":2,"b":1}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2,"cacheRead":3,"cacheWrite":0,"totalTokens":0},"timestamp":5}"#
        );
    }

    #[test]
    fn a_custom_record_keeps_role_kind_and_sorted_data() {
        let given = json!({"data": {"z": 1, "a": [{"y": 2, "b": 3}]}, "kind": "note", "role": "extension", "extra": true});
        assert_eq!(
            message(&given, false, "extension").to_string(),
            r#"{"role":"extension","kind":"note","data":{"a":[{"b":3,"y":2}],"z":1}}"#
        );
    }
}
