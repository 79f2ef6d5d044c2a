//! The fast path: a `message` entry of a model role, read into borrowed
//! fields; `None` for anything else, which the slow path decides.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::format::{LineFacts, MessageKind};

#[derive(Deserialize)]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(rename = "parentId", borrow)]
    parent: Option<Cow<'a, str>>,
    #[serde(borrow)]
    timestamp: Cow<'a, str>,
    #[serde(borrow)]
    message: Message<'a>,
}

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    role: Cow<'a, str>,
    #[serde(default, borrow)]
    model: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    content: Content<'a>,
    #[serde(rename = "toolCallId", default, borrow)]
    tool_call_id: Option<Cow<'a, str>>,
    #[serde(rename = "toolName", default, borrow)]
    tool_name: Option<Cow<'a, str>>,
}

/// A message's content, read in one pass: a plain string, blocks, or
/// anything else (which holds no text).
#[derive(Default)]
enum Content<'a> {
    Text(Cow<'a, str>),
    Blocks(Vec<Block<'a>>),
    #[default]
    Other,
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Content<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("message content")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Content<'a>, E> {
                Ok(Content::Text(Cow::Owned(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content<'a>, A::Error> {
                let mut blocks = Vec::new();
                while let Some(block) = seq.next_element()? {
                    blocks.push(block);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content<'a>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Content::Other)
            }
            fn visit_unit<E>(self) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Content<'a>, E> {
                Ok(Content::Other)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A content block, its text kept as raw JSON: only the one a subject
/// is made from is ever decoded, and nothing is copied for the rest.
#[derive(Deserialize)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    text: Option<&'a RawValue>,
    #[serde(default, borrow)]
    thinking: Option<&'a RawValue>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
    #[serde(rename = "mimeType", default, borrow)]
    mime_type: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    data: Option<&'a RawValue>,
}

/// A raw JSON string's text; `None` when it is not a string.
fn decode(raw: Option<&RawValue>) -> Option<Option<Cow<'_, str>>> {
    match raw {
        None => Some(None),
        Some(raw) => serde_json::from_str::<Cow<'_, str>>(raw.get())
            .ok()
            .map(Some),
    }
}

use crate::format::json::subject_line as line;

/// The subject as `Message::subject` makes it: the first text block's
/// first line, else the first tool call, thinking or image. `None` when
/// a field it reads is not of its type (the slow path decides then).
fn subject(blocks: &[Block<'_>]) -> Option<String> {
    if let Some(first) = blocks.iter().find(|b| b.kind == "text") {
        let text = line(decode(first.text)?.as_deref().unwrap_or_default());
        if !text.is_empty() {
            return Some(text);
        }
    }
    if let Some(call) = blocks.iter().find(|b| b.kind == "toolCall") {
        let arguments: serde_json::Value = match call.arguments {
            Some(raw) => serde_json::from_str(raw.get()).ok()?,
            None => serde_json::Value::Null,
        };
        return Some(line(&format!(
            "{} {arguments}",
            call.name.as_deref().unwrap_or_default()
        )));
    }
    for b in blocks.iter().filter(|b| b.kind == "thinking") {
        let t = line(decode(b.thinking)?.as_deref().unwrap_or_default());
        if !t.is_empty() {
            return Some(t);
        }
    }
    let Some(image) = blocks.iter().find(|b| b.kind == "image") else {
        return Some(String::new());
    };
    let data = decode(image.data)?;
    let bytes = data
        .as_deref()
        .map_or(0, |d| d.trim_end_matches('=').len() * 3 / 4);
    Some(format!(
        "[{}, {}]",
        image.mime_type.as_deref().unwrap_or_default(),
        crate::format::message::human_size(bytes)
    ))
}

pub(super) fn facts(text: &str, subject: bool) -> Option<LineFacts<'_>> {
    let entry: Line<'_> = serde_json::from_str(text).ok()?;
    if entry.kind != "message" {
        return None;
    }
    let kind = match &*entry.message.role {
        "user" => MessageKind::User,
        "assistant" => MessageKind::Assistant,
        "toolResult" => MessageKind::ToolResult,
        _ => return None,
    };
    let timestamp = crate::format::json::iso_millis(&entry.timestamp)?;
    let (text, blocks) = match entry.message.content {
        Content::Text(text) => (Some(text), Vec::new()),
        Content::Blocks(blocks) => (None, blocks),
        Content::Other => (None, Vec::new()),
    };
    let subject = match (subject, text) {
        (false, _) => None,
        (true, Some(text)) => Some(line(&text)),
        (true, None) => Some(self::subject(&blocks)?),
    };
    let mut facts = LineFacts {
        id: entry.id,
        parent: entry.parent,
        timestamp,
        kind,
        subject: subject.map(Cow::Owned),
        ..LineFacts::default()
    };
    match kind {
        MessageKind::Assistant => {
            facts.model = entry.message.model;
            facts.tool_calls = blocks
                .into_iter()
                .filter(|b| b.kind == "toolCall")
                .filter_map(|b| b.id)
                .collect();
        }
        MessageKind::ToolResult => {
            facts.tool_result_for = entry.message.tool_call_id;
            facts.tool_name = entry.message.tool_name;
        }
        _ => {}
    }
    Some(facts)
}
