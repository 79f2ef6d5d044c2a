//! The entry shape yoagent writes: `{id, parent_id, message, timestamp,
//! label}` and the message inside it, read member by member.

use std::borrow::Cow;

use crate::format::scan::subject::first_line;
use crate::format::scan::{Piece, Scanner, SearchBlock, Seen};
use crate::format::yoagent::canonical::{BLOCK_TYPES, ROLES};
use crate::format::{LineFacts, MessageKind};

/// Validates one trimmed, non-empty line. `None` means "not sure": ask the
/// exact path ([`super::exact`]).
pub fn scan_line(line: &str, subject: bool) -> Option<LineFacts<'_>> {
    scan_line_tallied(line, subject, false)
}

/// [`scan_line`], the entry's tally taken too when `tally` asks for it.
pub fn scan_line_tallied(line: &str, subject: bool, tally: bool) -> Option<LineFacts<'_>> {
    let mut scanner = Scanner::new(line, subject);
    scanner.tallying(tally);
    scanner.whole(Scanner::entry)
}

/// [`scan_line`] for a yoagent line that also collects the message's
/// searchable blocks (images and redacted thinking are skipped, not read).
/// `None` means "not sure", as for [`scan_line`].
pub fn scan_line_blocks(line: &str) -> Option<(LineFacts<'_>, Vec<SearchBlock<'_>>)> {
    let mut s = Scanner::new(line, false);
    s.blocks = Some(Vec::new());
    let facts = s.whole(Scanner::entry)?;
    Some((facts, s.blocks.take().unwrap_or_default()))
}

impl<'a> Scanner<'a> {
    pub(crate) fn entry(&mut self) -> Option<LineFacts<'a>> {
        const ID: u32 = 0;
        const PARENT: u32 = 1;
        const MESSAGE: u32 = 2;
        const TIMESTAMP: u32 = 3;
        const LABEL: u32 = 4;
        let mut seen = Seen::default();
        let mut facts = LineFacts::default();
        self.object(|s, key| {
            match key {
                b"id" => {
                    seen.first(ID)?;
                    facts.id = s.string()?;
                }
                b"parent_id" => {
                    seen.first(PARENT)?;
                    facts.parent = s.opt_string()?;
                }
                b"message" => {
                    seen.first(MESSAGE)?;
                    s.message(&mut facts)?;
                }
                b"timestamp" => {
                    seen.first(TIMESTAMP)?;
                    facts.timestamp = s.u64()?;
                }
                b"label" => {
                    seen.first(LABEL)?;
                    facts.label = s.opt_string()?;
                }
                _ => s.skip_value(2)?,
            }
            Some(())
        })?;
        facts.tally = self.take_tally();
        (seen.has(ID) && seen.has(MESSAGE) && seen.has(TIMESTAMP)).then_some(facts)
    }

    /// The message: the role first, then the fields of that role.
    fn message(&mut self, facts: &mut LineFacts<'a>) -> Option<()> {
        self.eat(b'{')?;
        if self.key()? != b"role" {
            return None;
        }
        let role = self.tag(&ROLES)?;
        match &*role {
            "user" => {
                facts.kind = MessageKind::User;
                self.rest_members(b"role", |s, key, seen| match key {
                    b"content" => {
                        seen.first(0)?;
                        s.contents(None)
                    }
                    b"timestamp" => {
                        seen.first(1)?;
                        s.u64().map(drop)
                    }
                    _ => s.skip_value(3),
                })
                .filter(|seen| seen.has(0) && seen.has(1))?;
            }
            "assistant" => self.assistant(facts)?,
            "toolResult" => self.tool_result(facts)?,
            _ => return self.custom(facts, role),
        }
        if self.want_subject {
            facts.subject = self.parts.subject().map(Cow::Owned);
        }
        Some(())
    }

    /// An assistant's message after its role: its content (the tool calls
    /// collected), stop reason, model, provider, usage and time.
    #[inline]
    fn assistant(&mut self, facts: &mut LineFacts<'a>) -> Option<()> {
        let mut calls = Vec::new();
        let mut model = None;
        self.rest_members(b"role", |s, key, seen| match key {
            b"content" => {
                seen.first(0)?;
                s.contents(Some(&mut calls))
            }
            b"stopReason" => {
                seen.first(1)?;
                let reason = s.string()?;
                matches!(
                    &*reason,
                    "stop" | "length" | "toolUse" | "error" | "aborted" | "refusal"
                )
                .then_some(())
            }
            b"model" => {
                seen.first(2)?;
                model = Some(s.string()?);
                Some(())
            }
            b"provider" => {
                seen.first(3)?;
                s.skip_string()
            }
            b"usage" => {
                seen.first(4)?;
                s.usage()
            }
            b"timestamp" => {
                seen.first(5)?;
                s.u64().map(drop)
            }
            b"errorMessage" | b"error_message" => {
                seen.first(6)?;
                s.opt_string().map(drop)
            }
            _ => s.skip_value(3),
        })
        .filter(|seen| (0..6).all(|bit| seen.has(bit)))?;
        facts.kind = MessageKind::Assistant;
        facts.model = model;
        facts.tool_calls = calls;
        Some(())
    }

    /// A tool's result after its role: the call it answers, the tool, its
    /// content, whether it failed, and its time.
    #[inline]
    fn tool_result(&mut self, facts: &mut LineFacts<'a>) -> Option<()> {
        let (mut call_id, mut tool_name) = (None, None);
        self.rest_members(b"role", |s, key, seen| match key {
            b"toolCallId" => {
                seen.first(0)?;
                call_id = Some(s.string()?);
                Some(())
            }
            b"toolName" => {
                seen.first(1)?;
                tool_name = Some(s.string()?);
                Some(())
            }
            b"content" => {
                seen.first(2)?;
                s.contents(None)
            }
            b"isError" => {
                seen.first(3)?;
                let is_error = s.bool()?;
                if let Some(t) = &mut s.tally {
                    t.is_error = is_error;
                }
                Some(())
            }
            b"timestamp" => {
                seen.first(4)?;
                s.u64().map(drop)
            }
            _ => s.skip_value(3),
        })
        .filter(|seen| (0..5).all(|bit| seen.has(bit)))?;
        if let (Some(t), Some(call)) = (&mut self.tally, &call_id) {
            t.call = (**call).into();
        }
        facts.kind = MessageKind::ToolResult;
        facts.tool_result_for = call_id;
        facts.tool_name = tool_name;
        Some(())
    }

    /// A custom record after its role: any role string, with `kind` and
    /// `data`.
    #[inline]
    fn custom(&mut self, facts: &mut LineFacts<'a>, role: Cow<'a, str>) -> Option<()> {
        let (mut kind, mut data) = (None, &b""[..]);
        self.rest_members(b"role", |s, key, seen| match key {
            b"kind" => {
                seen.first(0)?;
                kind = Some(s.string()?);
                Some(())
            }
            b"data" => {
                seen.first(1)?;
                s.ws();
                let start = s.pos;
                s.skip_value(3)?;
                data = &s.b[start..s.pos];
                Some(())
            }
            b"role" => None,
            _ => s.skip_value(3),
        })
        .filter(|seen| seen.has(0) && seen.has(1))?;
        facts.kind = MessageKind::Custom;
        facts.custom_role = Some(role);
        facts.custom_kind = kind;
        if self.want_subject {
            facts.subject = Some(Cow::Owned(first_line(data, false)));
        }
        Some(())
    }

    /// Walks the members after a tag member (`role`, `type`) up to the
    /// closing brace. A second tag member makes the fast path give up.
    pub(crate) fn rest_members(
        &mut self,
        tag: &[u8],
        mut member: impl FnMut(&mut Self, &'a [u8], &mut Seen) -> Option<()>,
    ) -> Option<Seen> {
        let mut seen = Seen::default();
        loop {
            self.ws();
            match self.peek()? {
                b'}' => {
                    self.pos += 1;
                    return Some(seen);
                }
                b',' => {
                    self.pos += 1;
                    let key = self.key()?;
                    if key == tag {
                        return None;
                    }
                    member(self, key, &mut seen)?;
                }
                _ => return None,
            }
        }
    }

    fn usage(&mut self) -> Option<()> {
        let mut seen = Seen::default();
        let mut usage = crate::format::message::Usage::default();
        self.object(|s, key| {
            let (bit, field) = match key {
                b"input" => (0, &mut usage.input),
                b"output" => (1, &mut usage.output),
                b"cacheRead" | b"cache_read" => (2, &mut usage.cache_read),
                b"cacheWrite" | b"cache_write" => (3, &mut usage.cache_write),
                b"totalTokens" | b"total_tokens" => (4, &mut usage.total_tokens),
                _ => return s.skip_value(4),
            };
            seen.first(bit)?;
            *field = s.u64()?;
            Some(())
        })?;
        if let Some(t) = &mut self.tally {
            t.usage = usage;
        }
        (seen.has(0) && seen.has(1)).then_some(())
    }

    /// A content array. Tool call ids are collected when `calls` is given;
    /// the searchable blocks when the scanner is asked for them.
    pub(crate) fn contents(&mut self, mut calls: Option<&mut Vec<Cow<'a, str>>>) -> Option<()> {
        let mut index = 0;
        self.array(|s| {
            s.eat(b'{')?;
            if s.key()? != b"type" {
                return None;
            }
            let kind = s.tag(&BLOCK_TYPES)?;
            let at = index;
            index += 1;
            match &*kind {
                "text" => s.text_block(at),
                "image" => s.image_block(),
                "thinking" => s.thinking_block(at),
                "toolCall" => s.tool_call_block(at, calls.as_deref_mut()),
                _ => None,
            }
        })
    }

    /// A text block after its type: its text, a searchable block.
    #[inline]
    fn text_block(&mut self, at: usize) -> Option<()> {
        let mut text = None;
        self.rest_members(b"type", |s, key, seen| match key {
            b"text" => {
                seen.first(0)?;
                let body = s.raw_string()?;
                s.parts.text.get_or_insert(body);
                s.tally_text(body);
                text = Some((s.quoted(body.0.len())?, body.1));
                Some(())
            }
            _ => s.skip_value(5),
        })
        .filter(|seen| seen.has(0))?;
        if let (Some(blocks), Some((quoted, escaped))) = (&mut self.blocks, text) {
            blocks.push(SearchBlock {
                index: at,
                piece: Piece::Text { quoted, escaped },
            });
        }
        Some(())
    }

    /// An image block after its type: its data's size and its type.
    #[inline]
    fn image_block(&mut self) -> Option<()> {
        let mut image = (&b""[..], 0);
        self.rest_members(b"type", |s, key, seen| match key {
            b"data" => {
                seen.first(0)?;
                let (data, _) = s.raw_string()?;
                // base64 padding carries no bytes.
                let pad = data.iter().rev().take_while(|&&b| b == b'=').count();
                image.1 = data.len() - pad;
                Some(())
            }
            b"mimeType" => {
                seen.first(1)?;
                image.0 = s.raw_string()?.0;
                Some(())
            }
            _ => s.skip_value(5),
        })
        .filter(|seen| seen.has(0) && seen.has(1))?;
        self.parts.image.get_or_insert(image);
        Some(())
    }

    /// A thinking block after its type: a searchable block unless it is
    /// redacted.
    #[inline]
    fn thinking_block(&mut self, at: usize) -> Option<()> {
        let (mut text, mut redacted) = (None, false);
        self.rest_members(b"type", |s, key, seen| match key {
            b"thinking" => {
                seen.first(0)?;
                let body = s.raw_string()?;
                s.parts.thinking.get_or_insert(body);
                text = Some((s.quoted(body.0.len())?, body.1));
                Some(())
            }
            b"signature" => {
                seen.first(1)?;
                s.opt_string().map(drop)
            }
            b"redacted" => {
                seen.first(2)?;
                redacted = s.opt_string()?.is_some();
                Some(())
            }
            b"redactedProtocol" | b"redacted_protocol" => {
                seen.first(3)?;
                s.skip_value(5)
            }
            _ => s.skip_value(5),
        })
        .filter(|seen| seen.has(0))?;
        if let (Some(blocks), Some((quoted, escaped)), false) = (&mut self.blocks, text, redacted) {
            blocks.push(SearchBlock {
                index: at,
                piece: Piece::Thinking { quoted, escaped },
            });
        }
        Some(())
    }

    /// A tool call block after its type: its id (collected in `calls`),
    /// name and arguments.
    #[inline]
    fn tool_call_block(&mut self, at: usize, calls: Option<&mut Vec<Cow<'a, str>>>) -> Option<()> {
        let (mut id, mut name, mut args) = (None, None, &b""[..]);
        let mut args_at = 0;
        self.rest_members(b"type", |s, key, seen| match key {
            b"id" => {
                seen.first(0)?;
                id = Some(s.string()?);
                Some(())
            }
            b"name" => {
                seen.first(1)?;
                name = Some(s.string()?);
                Some(())
            }
            b"arguments" => {
                seen.first(2)?;
                s.ws();
                let start = s.pos;
                s.skip_value(5)?;
                args = &s.b[start..s.pos];
                args_at = start;
                Some(())
            }
            b"providerMetadata" | b"provider_metadata" => {
                seen.first(3)?;
                s.skip_value(5)
            }
            _ => s.skip_value(5),
        })
        .filter(|seen| seen.has(0) && seen.has(1) && seen.has(2))?;
        let name = name?;
        if self.blocks.is_some() {
            let arguments = self.text.get(args_at..args_at + args.len())?;
            let piece = Piece::ToolCall {
                name: name.clone(),
                arguments,
            };
            if let Some(blocks) = &mut self.blocks {
                blocks.push(SearchBlock { index: at, piece });
            }
        }
        if let Some(calls) = calls {
            let id = id?;
            if let Some(t) = &mut self.tally {
                t.calls.push(((*id).into(), (*name).into()));
            }
            calls.push(id);
        }
        if self.parts.call.is_none() {
            self.parts.call = Some((name, args));
        }
        Some(())
    }
}
