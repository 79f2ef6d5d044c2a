//! pi's `message` entries, `{type, id, parentId, timestamp, message}`: the
//! message inside is the same pi-ai message yoagent stores, so the same
//! scanner reads it. Only what the slow path would read the same way is
//! accepted (a model role, an ISO time, string ids, every JSON value
//! valid); anything else is left to it.

use std::borrow::Cow;

use crate::format::json::iso_millis;
use crate::format::scan::subject::{call_subject, first_line};
use crate::format::scan::{Scanner, Seen};
use crate::format::{LineFacts, MessageKind};

/// The fast path ([`crate::format::yoagent::scan::scan_line`]) for a line of a pi session: a `message` entry of a model
/// role (see [`super`]); `None` for anything else.
pub fn scan_pi_line(line: &str, subject: bool) -> Option<LineFacts<'_>> {
    scan_pi_line_tallied(line, subject, false)
}

/// [`scan_pi_line`], the entry's tally taken too when `tally` asks for it.
pub fn scan_pi_line_tallied(line: &str, subject: bool, tally: bool) -> Option<LineFacts<'_>> {
    let mut scanner = Scanner::new(line, subject);
    scanner.tallying(tally);
    scanner.whole(Scanner::pi_entry)
}

impl<'a> Scanner<'a> {
    pub(crate) fn pi_entry(&mut self) -> Option<LineFacts<'a>> {
        const TYPE: u32 = 0;
        const ID: u32 = 1;
        const PARENT: u32 = 2;
        const TIMESTAMP: u32 = 3;
        const MESSAGE: u32 = 4;
        let mut seen = Seen::default();
        let mut facts = LineFacts::default();
        self.object(|s, key| match key {
            b"type" => {
                seen.first(TYPE)?;
                (s.string()? == "message").then_some(())
            }
            b"id" => {
                seen.first(ID)?;
                facts.id = s.string()?;
                Some(())
            }
            b"parentId" => {
                seen.first(PARENT)?;
                facts.parent = s.opt_string()?;
                Some(())
            }
            b"timestamp" => {
                seen.first(TIMESTAMP)?;
                facts.timestamp = iso_millis(&s.string()?)?;
                Some(())
            }
            b"message" => {
                seen.first(MESSAGE)?;
                s.pi_message(&mut facts)
            }
            _ => s.skip_value(2),
        })?;
        facts.tally = self.take_tally();
        [TYPE, ID, TIMESTAMP, MESSAGE]
            .iter()
            .all(|&bit| seen.has(bit))
            .then_some(facts)
    }

    /// A message of a model role, its role first.
    fn pi_message(&mut self, facts: &mut LineFacts<'a>) -> Option<()> {
        self.eat(b'{')?;
        if self.key()? != b"role" {
            return None;
        }
        let role = self.string()?;
        match &*role {
            "user" => {
                self.rest_members(b"role", |s, key, seen| match key {
                    b"content" => {
                        seen.first(0)?;
                        s.pi_content(None)
                    }
                    _ => s.skip_value(3),
                })?;
                facts.kind = MessageKind::User;
            }
            "assistant" => {
                let (mut calls, mut model) = (Vec::new(), None);
                self.rest_members(b"role", |s, key, seen| match key {
                    b"content" => {
                        seen.first(0)?;
                        s.pi_content(Some(&mut calls))
                    }
                    b"model" => {
                        seen.first(1)?;
                        model = Some(s.string()?);
                        Some(())
                    }
                    // A second usage gives the tally up, not the line.
                    b"usage" if s.tally.is_some() => match seen.first(2) {
                        Some(()) => s.pi_usage(),
                        None => {
                            s.tally = None;
                            s.skip_value(3)
                        }
                    },
                    _ => s.skip_value(3),
                })?;
                facts.kind = MessageKind::Assistant;
                facts.model = model;
                facts.tool_calls = calls;
            }
            "toolResult" => {
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
                        s.pi_content(None)
                    }
                    b"isError" if s.tally.is_some() => {
                        if seen.first(3).is_none() {
                            s.tally = None;
                            return s.skip_value(3);
                        }
                        if !s.null() {
                            let is_error = s.bool();
                            match (&mut s.tally, is_error) {
                                (Some(t), Some(is_error)) => t.is_error = is_error,
                                // Not a boolean: pi's own reader judges it,
                                // and the tally is read from the line.
                                _ => {
                                    s.tally = None;
                                    s.skip_value(3)?;
                                }
                            }
                        }
                        Some(())
                    }
                    _ => s.skip_value(3),
                })?;
                if let Some(t) = &mut self.tally {
                    t.call = call_id.as_deref().unwrap_or_default().into();
                }
                facts.kind = MessageKind::ToolResult;
                facts.tool_result_for = call_id;
                facts.tool_name = tool_name;
            }
            _ => return None,
        }
        if self.want_subject {
            facts.subject = Some(Cow::Owned(self.pi_subject()?));
        }
        Some(())
    }

    /// A message's content: a string (pi's user messages) or blocks.
    fn pi_content(&mut self, calls: Option<&mut Vec<Cow<'a, str>>>) -> Option<()> {
        self.ws();
        if self.peek()? == b'"' {
            let body = self.raw_string()?;
            self.parts.text.get_or_insert(body);
            self.tally_text(body);
            return Some(());
        }
        self.contents(calls)
    }

    /// An assistant message's usage, as `ysess stats` reads pi's: token
    /// counts (whole numbers, camelCase) and `cost.total`. Anything else
    /// there gives the tally up (it is then read from the line), never the
    /// line.
    fn pi_usage(&mut self) -> Option<()> {
        let mut usage = crate::format::message::Usage::default();
        let mut cost = None;
        let mut odd = false;
        let mut seen = Seen::default();
        self.object(|s, key| {
            // The fields `stats` reads: whole numbers (input and output
            // never null), and the snake_case spellings read and unused.
            let (bit, field, nullable) = match key {
                b"input" => (0, Some(&mut usage.input), false),
                b"output" => (1, Some(&mut usage.output), false),
                b"cacheRead" => (2, Some(&mut usage.cache_read), true),
                b"cacheWrite" => (3, Some(&mut usage.cache_write), true),
                b"totalTokens" => (4, Some(&mut usage.total_tokens), true),
                b"cache_read" => (5, None, true),
                b"cache_write" => (6, None, true),
                b"total_tokens" => (7, None, true),
                b"cost" => {
                    if seen.first(8).is_none() {
                        odd = true;
                    }
                    if s.null() {
                        return Some(());
                    }
                    s.ws();
                    if s.peek() != Some(b'{') {
                        odd = true;
                        return s.skip_value(4);
                    }
                    let mut totals = Seen::default();
                    return s.object(|s, key| {
                        if key != b"total" {
                            return s.skip_value(5);
                        }
                        if totals.first(0).is_none() {
                            odd = true;
                        }
                        if s.null() {
                            cost = None;
                            return Some(());
                        }
                        s.ws();
                        let start = s.pos;
                        s.number()?;
                        // As serde reads it, to the last bit.
                        match serde_json::from_str::<f64>(&s.text[start..s.pos]) {
                            Ok(c) => cost = Some(c),
                            Err(_) => odd = true,
                        }
                        Some(())
                    });
                }
                _ => return s.skip_value(4),
            };
            if seen.first(bit).is_none() {
                odd = true;
            }
            if nullable && s.null() {
                return Some(());
            }
            s.ws();
            let start = s.pos;
            match s.u64() {
                Some(n) => {
                    if let Some(field) = field {
                        *field = n;
                    }
                    Some(())
                }
                // Not a whole number (a fraction, a sign, a string): the
                // line is checked on, the tally read from it.
                None => {
                    s.pos = start;
                    odd = true;
                    s.skip_value(4)
                }
            }
        })?;
        match &mut self.tally {
            Some(t) if !odd => {
                t.usage = usage;
                t.cost = cost.filter(|c: &f64| c.is_finite());
            }
            _ => self.tally = None,
        }
        Some(())
    }

    /// The subject as the slow path makes it: a tool call's arguments
    /// printed as serde prints them, however pi spaced them.
    fn pi_subject(&mut self) -> Option<String> {
        let text = self
            .parts
            .text
            .map(|(raw, escaped)| first_line(raw, escaped))
            .filter(|line| !line.is_empty());
        match (text, self.parts.call.take()) {
            (Some(text), _) => Some(text),
            (None, Some((name, arguments))) => Some(call_subject(&name, arguments)?),
            // The slow path takes the first thinking that has a line; the
            // scanner keeps only the first thinking.
            (None, None) => match self.parts.thinking {
                Some((raw, escaped)) if first_line(raw, escaped).is_empty() => None,
                _ => Some(self.parts.subject().unwrap_or_default()),
            },
        }
    }
}
