//! Claude Code's lines, read where they stand: `user` and `assistant` lines
//! (the tree's fields at the top level, in any order, and a message in the
//! shape of Anthropic's Messages API), the `progress` and `attachment` lines
//! that make up most of a long session (their `data` skipped but for its
//! `type`), and the app's housekeeping lines that hold no entry. Only what
//! [`crate::format::claude::check_line`] would read the same way is
//! accepted; `system` lines, compactions (`logicalParentUuid`), titles and
//! anything odd are left to it.

use std::borrow::Cow;

use crate::format::json::iso_millis;
use crate::format::message::human_size;
use crate::format::scan::subject::{call_subject, first_line};
use crate::format::scan::{Scanner, Seen};
use crate::format::{LineFacts, MessageKind};

use super::HOUSEKEEPING;

/// What the fast path made of a line.
// Returned and taken apart at once, never stored: boxing the entry would
// cost an allocation a line for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Scanned<'a> {
    /// An entry of the tree.
    Entry(LineFacts<'a>),
    /// A housekeeping line of a known type that holds no entry and no
    /// title.
    Housekeeping,
}

/// The fast path ([`crate::format::yoagent::scan::scan_line`]) for a line of
/// a Claude Code session (see [`super`]); `None` for anything it leaves to
/// the slow path.
pub fn scan_claude_line(line: &str, subject: bool) -> Option<Scanned<'_>> {
    Scanner::new(line, subject).whole(Scanner::claude_entry)
}

/// [`super::is_claude_line`] by the scanner: the top-level `type`, `uuid`
/// and `sessionId` (each once; `null` as if missing, as serde reads an
/// `Option`); `None` for a line it leaves to serde.
pub fn is_claude_line(line: &[u8]) -> Option<bool> {
    let text = std::str::from_utf8(line)
        .ok()?
        .trim_matches([' ', '\t', '\r', '\n']);
    if !text.starts_with('{') {
        return None;
    }
    let mut seen = Seen::default();
    let (mut kind, mut uuid, mut session) = (None, false, false);
    let present = |s: &mut Scanner<'_>| -> Option<bool> {
        if s.null() {
            return Some(false);
        }
        s.skip_value(2)?;
        Some(true)
    };
    Scanner::new(text, false).whole(|s| {
        s.object(|s, key| match key {
            b"type" => {
                seen.first(0)?;
                kind = s.opt_string()?;
                Some(())
            }
            b"uuid" => {
                seen.first(1)?;
                uuid = present(s)?;
                Some(())
            }
            b"sessionId" => {
                seen.first(2)?;
                session = present(s)?;
                Some(())
            }
            _ => s.skip_value(2),
        })
    })?;
    let kind = kind.as_deref();
    Some(
        session
            || (uuid && kind.is_some_and(|k| super::TYPES.contains(&k)))
            || kind.is_some_and(|k| HOUSEKEEPING.contains(&k)),
    )
}

/// A block's fields, captured in whatever order they come.
#[derive(Default)]
struct Block<'a> {
    kind: Option<Cow<'a, str>>,
    text: Option<(&'a [u8], bool)>,
    thinking: Option<(&'a [u8], bool)>,
    id: Option<Cow<'a, str>>,
    name: Option<Cow<'a, str>>,
    input: Option<&'a [u8]>,
    tool_use_id: Option<Cow<'a, str>>,
    /// A tool result's text: its first line that is not blank.
    result: Option<String>,
    image: Option<(&'a [u8], usize)>,
}

impl<'a> Scanner<'a> {
    pub(crate) fn claude_entry(&mut self) -> Option<Scanned<'a>> {
        const TYPE: u32 = 0;
        const UUID: u32 = 1;
        const PARENT: u32 = 2;
        const TIMESTAMP: u32 = 3;
        const MESSAGE: u32 = 4;
        const SIDECHAIN: u32 = 5;
        const DATA: u32 = 6;
        const CONTENT: u32 = 7;
        let mut seen = Seen::default();
        let mut facts = LineFacts::default();
        let (mut kind, mut sidechain, mut data_kind) = (None, false, None);
        let mut blocks = Vec::new();
        self.object(|s, key| match key {
            b"type" => {
                seen.first(TYPE)?;
                kind = Some(s.string()?);
                Some(())
            }
            b"uuid" => {
                seen.first(UUID)?;
                facts.id = s.string()?;
                Some(())
            }
            b"parentUuid" => {
                seen.first(PARENT)?;
                facts.parent = s.opt_string()?;
                Some(())
            }
            b"timestamp" => {
                seen.first(TIMESTAMP)?;
                facts.timestamp = iso_millis(&s.string()?)?;
                Some(())
            }
            b"isSidechain" => {
                seen.first(SIDECHAIN)?;
                sidechain = s.bool()?;
                Some(())
            }
            b"message" => {
                seen.first(MESSAGE)?;
                s.claude_message(&mut facts, &mut blocks)
            }
            // What a progress line reports.
            b"data" => {
                seen.first(DATA)?;
                data_kind = s.data_type()?;
                Some(())
            }
            // A system line's own words: only a user's or an assistant's
            // line may hold them (unread).
            b"content" => {
                seen.first(CONTENT)?;
                s.skip_value(2)
            }
            // Text the app injected: the slow path's.
            b"isMeta" => (!s.bool()?).then_some(()),
            // A compaction's parent, and a system line's kind.
            b"logicalParentUuid" | b"subtype" => None,
            _ => s.skip_value(2),
        })?;
        let kind = kind?;
        if !seen.has(UUID) {
            // A housekeeping line: no entry. Titles are the slow path's.
            let plain = HOUSEKEEPING.contains(&kind.as_ref())
                && !matches!(kind.as_ref(), "custom-title" | "summary");
            return plain.then_some(Scanned::Housekeeping);
        }
        if !seen.has(TIMESTAMP) {
            return None;
        }
        if kind != "user" && kind != "assistant" {
            // A progress or attachment line: an entry of the app's own.
            if seen.has(CONTENT) {
                return None;
            }
            return self.app_entry(facts, kind, data_kind, sidechain);
        }
        if !seen.has(MESSAGE) {
            return None;
        }
        self.message_entry(facts, &kind, &blocks, sidechain)
    }

    /// A progress or attachment line (`kind`): an entry of the app's own,
    /// named by what its `data` reports; `None` for other types.
    #[inline]
    fn app_entry(
        &self,
        mut facts: LineFacts<'a>,
        kind: Cow<'a, str>,
        data_kind: Option<Cow<'a, str>>,
        sidechain: bool,
    ) -> Option<Scanned<'a>> {
        if !matches!(kind.as_ref(), "progress" | "attachment") {
            return None;
        }
        facts.kind = MessageKind::Custom;
        facts.model = None;
        facts.custom_kind = Some(data_kind.unwrap_or_else(|| kind.clone()));
        if self.want_subject {
            facts.subject = Some(kind.clone());
        }
        facts.custom_role = Some(kind);
        facts.sidechain = sidechain;
        Some(Scanned::Entry(facts))
    }

    /// A user's or an assistant's line (`kind`) with its message's
    /// `blocks`: a tool result, or a reply and the tools it calls.
    #[inline]
    fn message_entry(
        &self,
        mut facts: LineFacts<'a>,
        kind: &str,
        blocks: &[Block<'a>],
        sidechain: bool,
    ) -> Option<Scanned<'a>> {
        match kind {
            "user" => match blocks
                .iter()
                .find(|b| b.kind.as_deref() == Some("tool_result"))
            {
                Some(result) => {
                    facts.kind = MessageKind::ToolResult;
                    facts.tool_result_for = result.tool_use_id.clone();
                }
                None => facts.kind = MessageKind::User,
            },
            "assistant" => {
                facts.kind = MessageKind::Assistant;
                (facts.tool_calls, facts.tool_call_names) = blocks
                    .iter()
                    .filter(|b| b.kind.as_deref() == Some("tool_use"))
                    .filter_map(|b| Some((b.id.clone()?, b.name.clone().unwrap_or_default())))
                    .unzip();
            }
            _ => return None,
        }
        if facts.kind != MessageKind::Assistant {
            facts.model = None;
        }
        facts.sidechain = sidechain;
        if self.want_subject {
            facts.subject = Some(Cow::Owned(subject(blocks)?));
        }
        Some(Scanned::Entry(facts))
    }

    /// A progress line's `data`: its `type` when it is an object with a
    /// string `type` once; `None` (the slow path's) for anything else.
    fn data_type(&mut self) -> Option<Option<Cow<'a, str>>> {
        self.ws();
        if self.peek()? != b'{' {
            self.skip_value(2)?;
            return Some(None);
        }
        let mut seen = Seen::default();
        let mut kind = None;
        self.object(|s, key| match key {
            b"type" => {
                seen.first(0)?;
                kind = Some(s.string()?);
                Some(())
            }
            _ => s.skip_value(2),
        })?;
        Some(kind)
    }

    /// The message: its model and its content, its other fields skipped.
    fn claude_message(
        &mut self,
        facts: &mut LineFacts<'a>,
        blocks: &mut Vec<Block<'a>>,
    ) -> Option<()> {
        let mut seen = Seen::default();
        self.object(|s, key| match key {
            b"model" => {
                seen.first(0)?;
                facts.model = Some(s.string()?);
                Some(())
            }
            b"content" => {
                seen.first(1)?;
                s.ws();
                if s.peek()? == b'"' {
                    let text = s.raw_string()?;
                    blocks.push(Block {
                        kind: Some(Cow::Borrowed("text")),
                        text: Some(text),
                        ..Block::default()
                    });
                    return Some(());
                }
                s.array(|s| {
                    blocks.push(s.claude_block()?);
                    Some(())
                })
            }
            _ => s.skip_value(3),
        })?;
        seen.has(1).then_some(())
    }

    fn claude_block(&mut self) -> Option<Block<'a>> {
        let mut seen = Seen::default();
        let mut block = Block::default();
        let want = self.want_subject;
        self.object(|s, key| {
            let (bit, read) = match key {
                b"type" => (0, s.string().map(|t| block.kind = Some(t))),
                b"text" => (1, s.raw_string().map(|t| block.text = Some(t))),
                b"thinking" => (2, s.raw_string().map(|t| block.thinking = Some(t))),
                b"id" => (3, s.string().map(|t| block.id = Some(t))),
                b"name" => (4, s.string().map(|t| block.name = Some(t))),
                b"input" => {
                    s.ws();
                    let start = s.pos;
                    let read = s.skip_value(5);
                    block.input = Some(&s.b[start..s.pos]);
                    (5, read)
                }
                b"tool_use_id" => (6, s.string().map(|t| block.tool_use_id = Some(t))),
                b"content" => (7, s.result_text(want).map(|t| block.result = Some(t))),
                b"source" => (8, s.image_source().map(|i| block.image = Some(i))),
                _ => return s.skip_value(5),
            };
            seen.first(bit)?;
            read
        })?;
        seen.has(0).then_some(block)
    }

    /// A tool result's content, a string or text parts: the first line of
    /// its text that is not blank (made only when `want`).
    fn result_text(&mut self, want: bool) -> Option<String> {
        self.ws();
        if self.peek()? == b'"' {
            let (raw, escaped) = self.raw_string()?;
            return Some(if want {
                first_line(raw, escaped)
            } else {
                String::new()
            });
        }
        let mut line = String::new();
        self.array(|s| {
            s.object(|s, key| match key {
                b"text" => {
                    s.ws();
                    if s.peek()? != b'"' {
                        return s.skip_value(6);
                    }
                    let (raw, escaped) = s.raw_string()?;
                    if want && line.is_empty() {
                        line = first_line(raw, escaped);
                    }
                    Some(())
                }
                _ => s.skip_value(6),
            })
        })?;
        Some(line)
    }

    /// An image's `source`: its media type and the bytes of its data.
    fn image_source(&mut self) -> Option<(&'a [u8], usize)> {
        let (mut mime, mut size) = (&b""[..], 0);
        let mut seen = Seen::default();
        self.object(|s, key| match key {
            b"media_type" => {
                seen.first(0)?;
                mime = s.raw_string()?.0;
                Some(())
            }
            b"data" => {
                seen.first(1)?;
                let (data, _) = s.raw_string()?;
                let pad = data.iter().rev().take_while(|&&b| b == b'=').count();
                size = data.len() - pad;
                Some(())
            }
            _ => s.skip_value(6),
        })?;
        Some((mime, size))
    }
}

/// The subject as `Message::subject` makes it from the blocks Claude Code's
/// reader keeps: the first text's (or tool result's) line; else the first
/// tool call; else the first thinking with a line; else the first image.
/// Each line is made only when it is the one shown. `None` when it cannot
/// be sure (the slow path decides).
fn subject(blocks: &[Block<'_>]) -> Option<String> {
    let kind = |b: &Block<'_>, want: &str| b.kind.as_deref() == Some(want);
    if let Some(first) = blocks
        .iter()
        .find(|b| kind(b, "text") || kind(b, "tool_result"))
    {
        let line = if kind(first, "tool_result") {
            first.result.clone().unwrap_or_default()
        } else {
            let (raw, escaped) = first.text?;
            first_line(raw, escaped)
        };
        if !line.is_empty() {
            return Some(line);
        }
    }
    if let Some(call) = blocks.iter().find(|b| kind(b, "tool_use")) {
        let name = call.name.as_deref().unwrap_or_default();
        return call_subject(name, call.input.unwrap_or(b"null"));
    }
    let thinking = blocks
        .iter()
        .filter(|b| kind(b, "thinking"))
        .map(|b| {
            b.thinking
                .map(|(raw, escaped)| first_line(raw, escaped))
                .unwrap_or_default()
        })
        .find(|line| !line.is_empty());
    if thinking.is_some() {
        return thinking;
    }
    let image = blocks.iter().find(|b| kind(b, "image"));
    Some(image.map_or_else(String::new, |b| {
        let (mime, size) = b.image.unwrap_or((b"", 0));
        format!(
            "[{}, {}]",
            String::from_utf8_lossy(mime),
            human_size(size * 3 / 4)
        )
    }))
}
