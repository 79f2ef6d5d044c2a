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

pub use pattern::{Pattern, PatternOptions, one_line};

use std::borrow::Cow;

use crate::format::MessageKind;
use crate::format::message::{Block, Message};
use crate::format::scan::{Piece, SearchBlock};

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
    /// What part of the message it is.
    pub kind: BlockKind,
    /// The tool of a tool call (for [`BlockKind::ToolName`] and
    /// [`BlockKind::ToolArguments`]).
    pub tool: Option<String>,
    /// Its text.
    pub text: String,
}

/// Whether the session file at `path` (read as `forced` when given) is
/// searched through its tree rather than streamed: its tool results name
/// only the call they answer (Claude Code, Codex), which the tree pairs.
pub fn through_tree(path: &std::path::Path, forced: Option<crate::format::Format>) -> bool {
    // A session its app keeps in a database is read whole, through its tree.
    if crate::format::Format::keeps_whole(path) {
        return true;
    }
    forced
        .or_else(|| {
            let file = std::fs::File::open(path).ok()?;
            crate::format::Format::detect_file(&file).ok()
        })
        .is_some_and(crate::format::Format::names_results_by_call)
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
            Block::Text(text) | Block::Markup { text, .. } => {
                push(BlockKind::Text, None, text.clone())
            }
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
    /// Where the line ends (exclusive).
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
    /// The block.
    pub block: TextBlock,
    /// Its lines that match.
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

/// The blocks of a message that the scanner read without decoding it
/// ([`SearchBlock`]), in `scope`, that `pattern` matches: the same hits as
/// [`search_message`] on the decoded message. `kind` is the message's role
/// and `result_of` the tool of a tool result. A block's text is searched
/// where it stands in the line when it holds no escape, unescaped
/// otherwise; a block the pattern's raw form does not match is not read
/// at all. `None` when a block cannot be read so (the caller decodes the
/// line).
pub fn search_blocks(
    pattern: &Pattern,
    scope: &Scope,
    kind: MessageKind,
    result_of: Option<&str>,
    blocks: &[SearchBlock<'_>],
) -> Option<Vec<BlockHits>> {
    let mut out = Vec::new();
    if kind == MessageKind::Custom || !scope.takes_role(kind) {
        return Some(out);
    }
    let tool_wanted = |tool: Option<&str>| match (&scope.tool, result_of) {
        (None, _) => true,
        (Some(wanted), Some(result_of)) => wanted == result_of,
        (Some(wanted), None) => tool == Some(wanted.as_str()),
    };
    // Whether the raw form rules a string out: it must find what the text
    // would, unless an escape it could miss spells part of the text.
    let ruled_out = |raw_text: &str| {
        pattern.raw().is_some_and(|raw| {
            !raw.is_match(raw_text.as_bytes())
                && pattern::telling_escapes(raw_text.as_bytes())
                    .next()
                    .is_none()
        })
    };
    let mut search = |index, kind, tool: Option<&str>, text: Cow<'_, str>| {
        let lines = search_text(pattern, &text);
        if !lines.is_empty() {
            out.push(BlockHits {
                block: TextBlock {
                    index,
                    kind,
                    tool: tool.map(str::to_string),
                    text: text.into_owned(),
                },
                lines,
            });
        }
    };
    for block in blocks {
        match &block.piece {
            Piece::Text { quoted, escaped } | Piece::Thinking { quoted, escaped } => {
                if !tool_wanted(None) || ruled_out(quoted) {
                    continue;
                }
                let kind = match block.piece {
                    Piece::Thinking { .. } => BlockKind::Thinking,
                    _ => BlockKind::Text,
                };
                search(block.index, kind, None, unquote(quoted, *escaped)?);
            }
            Piece::ToolCall { name, arguments } => {
                if !tool_wanted(Some(name)) {
                    continue;
                }
                search(
                    block.index,
                    BlockKind::ToolName,
                    Some(name),
                    Cow::Borrowed(name),
                );
                // Searched as serde prints the value (the line may space it
                // otherwise, so its raw form rules nothing out).
                let text = crate::format::scan::serde_printed(arguments)?;
                search(block.index, BlockKind::ToolArguments, Some(name), text);
            }
        }
    }
    Some(out)
}

/// A JSON string's text: its body as it stands when it holds no escape.
fn unquote(quoted: &str, escaped: bool) -> Option<Cow<'_, str>> {
    if escaped {
        serde_json::from_str::<String>(quoted).ok().map(Cow::Owned)
    } else {
        quoted.get(1..quoted.len() - 1).map(Cow::Borrowed)
    }
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

    #[test]
    fn arguments_are_searched_as_serde_prints_them_however_the_line_spells_them() {
        for raw in [
            r#"{"command":"ls -la","n":3,"ok":true,"none":null,"list":[1,-2,"x"]}"#,
            r#"{"a": 1}"#,
            r#"{"a":1.50,"b":2e3}"#,
            r#"{"a":"x","a":"y","b":{"c":1,"c":2}}"#,
            r#"{"s":"caf\u00e9 \/ \"q\" \\ \n\t\b\f"}"#,
            r#"{"s":"\"q\" \\ \n\t\r\b\f"}"#,
            r#"{"big":123456789012345678901}"#,
            r#"[{"k":[[],{}]},"{\"in\":1}"]"#,
            r#""just a string""#,
            r#"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17}"#,
        ] {
            let value: serde_json::Value = serde_json::from_str(raw).expect("JSON");
            assert_eq!(
                crate::format::scan::serde_printed(raw).as_deref(),
                Some(&*value.to_string()),
                "{raw}"
            );
        }
        // Spelled as serde prints them, they are not decoded at all.
        let raw = r#"{"s":"\"q\" \\ \n","n":[1,-2]}"#;
        assert!(matches!(
            crate::format::scan::serde_printed(raw),
            Some(Cow::Borrowed(_))
        ));
    }
}
