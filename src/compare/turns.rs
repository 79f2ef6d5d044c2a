//! What two directions of a conversation did differently: the fork point,
//! and the turns after it aligned as a conversation.
//!
//! Turns are aligned by their shape (role, the tools called or answered, a
//! custom record's kind), not their text: after a fork the texts all differ,
//! but an assistant turn still answers a user turn, so matching shapes pairs
//! the turns that played the same part, and an inserted tool call on one
//! side does not push everything after it out of line.

use std::collections::BTreeMap;

use similar::{Algorithm, DiffOp, capture_diff_slices};

use crate::format::message::{Block, Entry, Message};

/// One aligned step: a pair of turns, or a turn on one side only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Turns `a` and `b` played the same part; `same` when their text is too.
    Pair {
        /// The first side's turn.
        a: usize,
        /// The second side's turn.
        b: usize,
        /// Their texts are the same.
        same: bool,
    },
    /// Only on side A (removed, going from A to B).
    OnlyA(usize),
    /// Only on side B (added).
    OnlyB(usize),
}

/// The shape a turn is aligned by.
pub fn shape(message: &Message) -> String {
    let role = message.role();
    match message {
        Message::User { .. } => role.to_string(),
        Message::Assistant { content, .. } => {
            let tools: Vec<&str> = content
                .iter()
                .filter_map(|b| match b {
                    Block::ToolCall { name, .. } => Some(name.as_str()),
                    _ => None,
                })
                .collect();
            format!("{role} {}", tools.join(","))
        }
        Message::ToolResult { tool_name, .. } => format!("{role} {tool_name}"),
        Message::Custom { kind, .. } => format!("{role} {kind}"),
    }
}

/// Aligns two sequences of turns; `same(i, j)` says whether turn i of A and
/// turn j of B say the same.
pub fn align(a: &[String], b: &[String], same: impl Fn(usize, usize) -> bool) -> Vec<Step> {
    let mut steps = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, a, b) {
        match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for k in 0..len {
                    let (i, j) = (old_index + k, new_index + k);
                    steps.push(Step::Pair {
                        a: i,
                        b: j,
                        same: same(i, j),
                    });
                }
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => {
                steps.extend((old_index..old_index + old_len).map(Step::OnlyA));
            }
            DiffOp::Insert {
                new_index, new_len, ..
            } => {
                steps.extend((new_index..new_index + new_len).map(Step::OnlyB));
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                steps.extend((old_index..old_index + old_len).map(Step::OnlyA));
                steps.extend((new_index..new_index + new_len).map(Step::OnlyB));
            }
        }
    }
    steps
}

/// A turn as text, for line diffs: role, text, thinking, tool calls with
/// their arguments, tool results.
pub fn render(entry: &Entry) -> String {
    let mut out = String::new();
    let m = &entry.message;
    match m {
        Message::Assistant { model, .. } => out.push_str(&format!("assistant {model}\n")),
        Message::ToolResult {
            tool_name,
            is_error,
            ..
        } => out.push_str(&format!(
            "toolResult {tool_name}{}\n",
            if *is_error { " (error)" } else { "" }
        )),
        Message::Custom { kind, data, .. } => {
            out.push_str(&format!("custom {kind}\n"));
            out.push_str(&serde_json::to_string_pretty(data).unwrap_or_default());
            out.push('\n');
        }
        Message::User { .. } => out.push_str("user\n"),
    }
    // A record's words are in its data already.
    let blocks = match m {
        Message::Custom { .. } => &[],
        _ => m.content(),
    };
    for block in blocks {
        match block {
            Block::Text(text) | Block::Markup { text, .. } => out.push_str(text),
            Block::Thinking { text, .. } => {
                out.push_str("[thinking]\n");
                out.push_str(text);
            }
            Block::ToolCall {
                name, arguments, ..
            } => {
                out.push_str(&format!("→ {name} "));
                out.push_str(&serde_json::to_string_pretty(arguments).unwrap_or_default());
            }
            Block::Image { mime_type, bytes } => {
                out.push_str(&format!(
                    "[{mime_type}, {}]",
                    crate::format::message::human_size(*bytes)
                ));
            }
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// What one side did after the fork.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Turns after the fork point.
    pub turns: usize,
    /// Turns by role.
    pub roles: BTreeMap<String, usize>,
    /// Input tokens of its assistant turns.
    pub tokens_in: u64,
    /// Output tokens of its assistant turns.
    pub tokens_out: u64,
    /// Tool calls by tool name.
    pub tool_calls: BTreeMap<String, usize>,
}

impl Stats {
    /// A model response written over several entries (Claude Code writes
    /// one line per content block, each with the response's `id` and its
    /// usage so far) is one assistant turn, with its last line's usage, as
    /// `stats` counts it. `entries` come root first.
    pub fn of<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Stats {
        let mut stats = Stats::default();
        let mut responses: std::collections::HashMap<&str, (u64, u64)> =
            std::collections::HashMap::new();
        for entry in entries {
            let response = match &entry.message {
                Message::Assistant { .. } => entry.message_value.get("id").and_then(|v| v.as_str()),
                _ => None,
            };
            if let Message::Assistant { usage, content, .. } = &entry.message {
                for block in content {
                    if let Block::ToolCall { name, .. } = block {
                        *stats.tool_calls.entry(name.clone()).or_default() += 1;
                    }
                }
                match response {
                    // Later lines of the response carry its usage so far.
                    Some(id) => {
                        if responses.insert(id, (usage.input, usage.output)).is_some() {
                            continue;
                        }
                    }
                    None => {
                        stats.tokens_in = stats.tokens_in.saturating_add(usage.input);
                        stats.tokens_out = stats.tokens_out.saturating_add(usage.output);
                    }
                }
            }
            stats.turns += 1;
            *stats
                .roles
                .entry(entry.message.role().to_string())
                .or_default() += 1;
        }
        for (input, output) in responses.into_values() {
            stats.tokens_in = stats.tokens_in.saturating_add(input);
            stats.tokens_out = stats.tokens_out.saturating_add(output);
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn an_inserted_tool_call_leaves_later_turns_paired() {
        let a = keys("user assistant user assistant");
        let b = keys("user assistant,bash toolResult assistant user assistant");
        let steps = align(&a, &b, |_, _| false);
        assert_eq!(
            steps,
            vec![
                Step::Pair {
                    a: 0,
                    b: 0,
                    same: false
                },
                Step::OnlyB(1),
                Step::OnlyB(2),
                Step::Pair {
                    a: 1,
                    b: 3,
                    same: false
                },
                Step::Pair {
                    a: 2,
                    b: 4,
                    same: false
                },
                Step::Pair {
                    a: 3,
                    b: 5,
                    same: false
                },
            ]
        );
    }

    #[test]
    fn unmatched_shapes_are_removed_and_added() {
        let steps = align(&keys("user"), &keys("custom"), |_, _| true);
        assert_eq!(steps, vec![Step::OnlyA(0), Step::OnlyB(0)]);
    }
}
