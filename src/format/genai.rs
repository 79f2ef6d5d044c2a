//! Google's GenAI `Content` parts (`{text}`, `{text, thought: true}`,
//! `{functionCall}`, `{functionResponse}`, `{inlineData}`), which Gemini CLI
//! and Qwen Code store their messages in, as the one message model.

use serde_json::Value;

use super::message::Block;

/// The parts of a `Content` (`{role, parts}`), or a bare parts array.
pub fn parts_of(content: &Value) -> &[Value] {
    let parts = match content {
        Value::Array(_) => content,
        _ => content.get("parts").unwrap_or(&Value::Null),
    };
    parts.as_array().map_or(&[], Vec::as_slice)
}

/// `parts` as blocks. `user`: the user's side sent them, so text may be the
/// app's markup. A function response is its output's text.
pub fn blocks(parts: &[Value], user: bool) -> Vec<Block> {
    parts.iter().filter_map(|p| block(p, user)).collect()
}

fn block(part: &Value, user: bool) -> Option<Block> {
    let text = |key: &str| part.get(key).and_then(Value::as_str);
    if let Some(t) = text("text") {
        if part.get("thought").and_then(Value::as_bool) == Some(true) {
            return Some(Block::Thinking {
                text: t.to_string(),
                redacted: false,
            });
        }
        return Some(if user {
            Block::said(t.to_string())
        } else {
            Block::Text(t.to_string())
        });
    }
    if let Some(call) = part.get("functionCall") {
        let field = |key: &str| call.get(key).and_then(Value::as_str).unwrap_or_default();
        return Some(Block::ToolCall {
            id: field("id").to_string(),
            name: field("name").to_string(),
            arguments: call.get("args").cloned().unwrap_or(Value::Null),
        });
    }
    if let Some(response) = part.get("functionResponse") {
        return Some(Block::Text(response_text(response)));
    }
    if let Some(data) = part.get("inlineData") {
        let field = |key: &str| data.get(key).and_then(Value::as_str).unwrap_or_default();
        return Some(Block::Image {
            mime_type: field("mimeType").to_string(),
            bytes: field("data").trim_end_matches('=').len() * 3 / 4,
        });
    }
    None
}

/// What a `functionResponse` answered: its `output` (or `error`) text, else
/// its response as JSON.
pub fn response_text(response: &Value) -> String {
    let inner = response.get("response").unwrap_or(&Value::Null);
    for key in ["output", "error", "llmContent"] {
        if let Some(s) = inner.get(key).and_then(Value::as_str) {
            return s.to_string();
        }
    }
    match inner {
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Whether a function response reports an error.
pub fn response_is_error(response: &Value) -> bool {
    response
        .get("response")
        .is_some_and(|r| r.get("error").is_some_and(|e| !e.is_null()))
}

/// The `(id, name)` of each function call among `parts`, in order.
pub fn calls(parts: &[Value]) -> impl Iterator<Item = (&str, &str)> {
    parts.iter().filter_map(|p| {
        let call = p.get("functionCall")?;
        let field = |key: &str| call.get(key).and_then(Value::as_str).unwrap_or_default();
        Some((field("id"), field("name")))
    })
}

/// The first function response among `parts`: its call's id and tool.
pub fn first_response(parts: &[Value]) -> Option<(&str, &str, &Value)> {
    parts.iter().find_map(|p| {
        let r = p.get("functionResponse")?;
        let field = |key: &str| r.get(key).and_then(Value::as_str).unwrap_or_default();
        Some((field("id"), field("name"), r))
    })
}
