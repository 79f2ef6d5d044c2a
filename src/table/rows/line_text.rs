//! How long an entry's text is, from its line: read lean where the line
//! has a usual shape, whole where it has not; and the subagent a
//! folded-in line is a turn of.

use std::borrow::Cow;

use crate::format::Format;
use crate::format::message::{Block, Message};

/// Characters of a message's text (not its thinking, not its tool calls'
/// arguments).
pub(super) fn text_len(message: &Message) -> usize {
    let blocks: &[Block] = match message {
        Message::User { content }
        | Message::Assistant { content, .. }
        | Message::ToolResult { content, .. } => content,
        Message::Custom { .. } => &[],
    };
    blocks
        .iter()
        .map(|b| match b {
            Block::Text(t) | Block::Markup { text: t, .. } => t.chars().count(),
            _ => 0,
        })
        .sum()
}

/// The subagent a folded-in line is a turn of (Claude Code's `agentId`).
pub(super) fn agent_of_line(line: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Line {
        #[serde(rename = "agentId")]
        agent_id: Option<String>,
    }
    memchr::memmem::find(line, b"\"agentId\"")?;
    serde_json::from_slice::<Line>(line).ok()?.agent_id
}

/// [`text_len`] of a yoagent, pi or Claude Code line, read lean: the text
/// blocks' characters counted, nothing else of the line built. `None` for
/// a line not in the usual shape (then it is read whole).
pub(super) fn lean_text_len(line: &[u8], format: Format) -> Option<usize> {
    use serde_json::value::RawValue;

    #[derive(serde::Deserialize)]
    struct Line<'a> {
        #[serde(borrow)]
        message: Msg<'a>,
    }
    #[derive(serde::Deserialize)]
    struct Msg<'a> {
        #[serde(default, borrow)]
        content: Option<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct Part<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
        #[serde(default, borrow)]
        text: Option<&'a RawValue>,
        #[serde(default, borrow)]
        content: Option<&'a RawValue>,
    }
    fn chars(raw: &RawValue) -> Option<usize> {
        json_string_chars(raw.get())
    }
    let claude = match format.spec().usage_at() {
        crate::format::UsageAt::Message { .. } => false,
        crate::format::UsageAt::Api => true,
        crate::format::UsageAt::Elsewhere => return None,
    };
    let line: Line<'_> = serde_json::from_slice(line).ok()?;
    let Some(content) = line.message.content else {
        return Some(0);
    };
    match content.get().as_bytes().first()? {
        b'"' if claude => chars(content),
        b'[' => {
            let parts: Vec<Part<'_>> = serde_json::from_str(content.get()).ok()?;
            let mut n = 0;
            for p in parts {
                match &*p.kind {
                    "text" => n += chars(p.text?)?,
                    // A Claude Code tool result's text: its content, a
                    // string or text parts joined by line breaks.
                    "tool_result" if claude => match p.content {
                        None => {}
                        Some(c) if c.get().starts_with('"') => n += chars(c)?,
                        Some(c) => {
                            let inner: Vec<Part<'_>> = serde_json::from_str(c.get()).ok()?;
                            let mut texts = 0;
                            for q in inner {
                                if let Some(t) = q.text {
                                    n += chars(t)?;
                                    texts += 1;
                                }
                            }
                            n += texts.max(1) - 1;
                        }
                    },
                    _ => {}
                }
            }
            Some(n)
        }
        _ => None,
    }
}

/// The characters of the string a JSON string literal (quotes included)
/// spells, counted without making it (see
/// [`crate::format::scan::text_chars`]).
pub(super) fn json_string_chars(literal: &str) -> Option<usize> {
    let body = literal.strip_prefix('"')?.strip_suffix('"')?;
    crate::format::scan::text_chars(body.as_bytes())
}
