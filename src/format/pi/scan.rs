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
    Scanner::new(line, subject).whole(Scanner::pi_entry)
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
                    _ => s.skip_value(3),
                })?;
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
            return Some(());
        }
        self.contents(calls)
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
