//! Searching the text of a session's messages: `ysess grep` and
//! `log --grep`.
//!
//! What is searched is a message's text, block by block: a user's or
//! assistant's text, an assistant's thinking, a tool call's name and its
//! arguments (as compact JSON, `{"command":"ls"}`), a tool result's text.
//! Images, encrypted thinking and custom records are not text; ysess's own
//! records are never searched. A pattern matches within one line of a
//! block's text, as grep matches within a line.
//!
//! [`scan`] reads a whole file the way ripgrep does: the pattern's raw form
//! ([`Pattern`]) runs over large blocks of the file's bytes, and only the
//! lines it picks are decoded and searched.

pub mod filter;
mod pattern;
pub mod scan;
pub mod when;

pub use pattern::{Pattern, PatternOptions};

use crate::format::MessageKind;
use crate::format::message::{Block, Message};

/// What a searched piece of a message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind {
    /// Text of a user, assistant or tool result message.
    Text,
    /// An assistant's thinking.
    Thinking,
    /// The name of a tool an assistant calls.
    ToolName,
    /// The arguments of a tool call, as compact JSON.
    ToolArguments,
}

impl BlockKind {
    /// The name `--json` gives it.
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Text => "text",
            BlockKind::Thinking => "thinking",
            BlockKind::ToolName => "toolName",
            BlockKind::ToolArguments => "toolArguments",
        }
    }
}

/// One searchable piece of a message.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBlock {
    /// Its content block's index in the message.
    pub index: usize,
    pub kind: BlockKind,
    /// The tool of a tool call (for [`BlockKind::ToolName`] and
    /// [`BlockKind::ToolArguments`]).
    pub tool: Option<String>,
    pub text: String,
}

/// The searchable text of a message, in order; none for a custom record.
pub fn text_blocks(message: &Message) -> Vec<TextBlock> {
    let mut out = Vec::new();
    if matches!(message, Message::Custom { .. }) {
        return out;
    }
    for (index, block) in message.content().iter().enumerate() {
        let mut push = |kind, tool: Option<&str>, text: String| {
            out.push(TextBlock {
                index,
                kind,
                tool: tool.map(str::to_string),
                text,
            })
        };
        match block {
            Block::Text(text) => push(BlockKind::Text, None, text.clone()),
            Block::Thinking {
                text,
                redacted: false,
            } => push(BlockKind::Thinking, None, text.clone()),
            Block::ToolCall {
                name, arguments, ..
            } => {
                push(BlockKind::ToolName, Some(name), name.clone());
                push(BlockKind::ToolArguments, Some(name), arguments.to_string());
            }
            Block::Thinking { redacted: true, .. } | Block::Image { .. } => {}
        }
    }
    out
}

/// The tool a message is about: the tool of a result; for an assistant,
/// every tool it calls.
pub fn tools(message: &Message) -> Vec<&str> {
    match message {
        Message::ToolResult { tool_name, .. } => vec![tool_name.as_str()],
        _ => message
            .content()
            .iter()
            .filter_map(|b| match b {
                Block::ToolCall { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect(),
    }
}

/// A line of a block's text that the pattern matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineHit {
    /// The line's number within the block, from 0.
    pub number: usize,
    /// Where the line starts and ends in the block's text (bytes, without
    /// its `\n`).
    pub start: usize,
    pub end: usize,
    /// The matches, as byte ranges of the block's text.
    pub matches: Vec<(usize, usize)>,
}

/// The lines of `text` the pattern matches, in order.
pub fn search_text(pattern: &Pattern, text: &str) -> Vec<LineHit> {
    let mut hits = Vec::new();
    let mut start = 0;
    for (number, line) in text.split('\n').enumerate() {
        let matches: Vec<(usize, usize)> = pattern
            .find_iter(line)
            .map(|(s, e)| (start + s, start + e))
            .collect();
        if !matches.is_empty() {
            hits.push(LineHit {
                number,
                start,
                end: start + line.len(),
                matches,
            });
        }
        start += line.len() + 1;
    }
    hits
}

/// Which messages and blocks a search looks at (`--role`, `--tool`).
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Only messages of these roles (none: all).
    pub roles: Vec<MessageKind>,
    /// Only the tool calls of this tool and its results.
    pub tool: Option<String>,
}

impl Scope {
    /// Whether a message's role is in scope.
    pub fn takes_role(&self, kind: MessageKind) -> bool {
        self.roles.is_empty() || self.roles.contains(&kind)
    }

    /// The blocks of `message` in scope.
    pub fn blocks(&self, message: &Message) -> Vec<TextBlock> {
        if !self.takes_role(message.kind()) {
            return Vec::new();
        }
        let mut blocks = text_blocks(message);
        if let Some(tool) = &self.tool {
            match message {
                Message::ToolResult { tool_name, .. } if tool_name == tool => {}
                Message::ToolResult { .. } => blocks.clear(),
                _ => blocks.retain(|b| b.tool.as_deref() == Some(tool)),
            }
        }
        blocks
    }
}

/// A block's hits.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockHits {
    pub block: TextBlock,
    pub lines: Vec<LineHit>,
}

/// The blocks of `message` in `scope` that `pattern` matches, with their
/// hits.
pub fn search_message(pattern: &Pattern, scope: &Scope, message: &Message) -> Vec<BlockHits> {
    scope
        .blocks(message)
        .into_iter()
        .filter_map(|block| {
            let lines = search_text(pattern, &block.text);
            (!lines.is_empty()).then_some(BlockHits { block, lines })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::message::Entry;

    #[test]
    fn every_kind_of_text_is_searched_and_offsets_are_the_blocks_own() {
        let line = br#"{"id":"e2","parent_id":"e1","timestamp":5,"message":{"role":"assistant","content":[{"type":"thinking","thinking":"first\nlook around"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"ls"}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2},"timestamp":5}}"#;
        let entry = Entry::parse(line).expect("parses");
        let p = Pattern::new("look|bash|ls", PatternOptions::default()).expect("compiles");
        let hits = search_message(&p, &Scope::default(), &entry.message);
        type Seen<'a> = (&'a str, usize, Vec<(usize, usize)>);
        let seen: Vec<Seen<'_>> = hits
            .iter()
            .map(|h| {
                (
                    h.block.kind.name(),
                    h.block.index,
                    h.lines.iter().flat_map(|l| l.matches.clone()).collect(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("thinking", 0, vec![(6, 10)]),
                ("toolName", 1, vec![(0, 4)]),
                ("toolArguments", 1, vec![(12, 14)]),
            ]
        );
        let scoped = Scope {
            tool: Some("bash".into()),
            ..Scope::default()
        };
        // The tool's call, not the thinking around it.
        assert_eq!(search_message(&p, &scoped, &entry.message).len(), 2);
    }
}
