//! Accounting: what the turns of a session used, by branch, model, tool or
//! day. [`read`] reads what every entry of the user's tree says about usage
//! (ysess's records and other folded-out entries never count); an
//! [`Account`] sums any set of entries, so that a set of several branches
//! counts the entries they share once.
//!
//! What counts, per format:
//! - tokens come from an assistant message's `usage` (yoagent's and pi's
//!   `input`, `output`, `cacheRead`, `cacheWrite`; Claude Code's
//!   `input_tokens`, `output_tokens`, `cache_read_input_tokens`,
//!   `cache_creation_input_tokens`, of which `cache_creation`'s
//!   `ephemeral_1h_input_tokens` were written for an hour);
//! - cost only where the format records it: pi's `usage.cost.total`
//!   (dollars, as pi-ai prices it); Claude Code and Codex record none, so
//!   their usage is priced by [`prices`]; yoagent's is not priced;
//! - Claude Code writes one model response as several lines sharing
//!   `message.id`, each repeating the usage: the response counts once, as
//!   one assistant turn, with the usage of its last line in the set;
//! - a tool call counts by the name it calls, an error by the tool result
//!   that says `isError` (its tool named by the result, or else by the call
//!   it answers).

mod account;
pub mod prices;
mod read;
pub mod report;
pub mod subagents;
mod walk;

use account::tally;
pub use account::{Account, Calls, ToolUse, Turns, group, widen};
use read::read_one;
pub use read::{Sparse, cost, model_of, priced_by_table, read, read_sparse};
pub use walk::accounts_of_paths;

use std::collections::BTreeMap;
use std::io;

use hashbrown::HashMap;
use serde_json::Value;

use crate::format::message::{Block, Entry, Message, Usage};
use crate::format::{Format, MessageKind};
use crate::repo::Repo;
use crate::tree::Ix;

/// What one entry says about usage.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    /// What kind of message the entry carries.
    pub kind: MessageKind,
    /// Milliseconds since the epoch.
    pub timestamp: u64,
    /// An assistant message's model; for a tool result, the model of the
    /// call it answers (when that call is in the file).
    pub model: Option<String>,
    /// Tokens, as the message records them.
    pub usage: Usage,
    /// Dollars, where the format records a cost or the price table prices
    /// the model.
    pub cost: Option<f64>,
    /// The format is priced by the table ([`prices`]), which has no price
    /// for the model: the turn's cost is unknown.
    pub unpriced: bool,
    /// The names of the tools an assistant message calls, in order.
    pub calls: Vec<String>,
    /// A tool result: its tool and whether it is an error.
    pub result: Option<(String, bool)>,
    /// Claude Code: the response (`message.id`) an assistant line is part of.
    pub response: Option<String>,
    /// A tool result: the id of the call it answers.
    pub call: Option<String>,
}

impl Facts {
    /// The facts of one entry read whole, as the format records them.
    pub fn of(entry: &Entry, format: Format) -> Facts {
        let mut facts = Facts {
            kind: entry.message.kind(),
            timestamp: entry.timestamp,
            ..Facts::default()
        };
        match &entry.message {
            Message::Assistant {
                content,
                model,
                usage,
                fast,
                ..
            } => {
                facts.model = Some(model.clone());
                facts.usage = *usage;
                facts.cost = cost(&entry.message_value, format, model, usage, *fast);
                facts.unpriced = facts.cost.is_none() && priced_by_table(format);
                facts.calls = calls(content).map(|(_, name)| name.to_string()).collect();
                if format.spec().splits_replies() {
                    facts.response = entry
                        .message_value
                        .get("id")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                }
            }
            Message::ToolResult {
                tool_name,
                is_error,
                tool_call_id,
                ..
            } => {
                facts.result = Some((tool_name.clone(), *is_error));
                facts.call = Some(tool_call_id.clone());
            }
            _ => {}
        }
        facts
    }

    /// Whether the entry carries usage (an assistant message).
    pub fn has_usage(&self) -> bool {
        self.kind == MessageKind::Assistant
    }
}

/// The tool calls of a message: their ids and names.
fn calls(content: &[Block]) -> impl Iterator<Item = (&str, &str)> {
    content.iter().filter_map(|b| match b {
        Block::ToolCall { id, name, .. } => Some((id.as_str(), name.as_str())),
        _ => None,
    })
}

/// What one entry used, on its own (`log --format {tokens_in}`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spent {
    /// Input tokens.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
    /// Input tokens read from the cache.
    pub cache_read: u64,
    /// Input tokens written to the cache.
    pub cache_write: u64,
    /// Dollars, where the format records a cost.
    pub cost: Option<f64>,
}

/// What the entry `ix` used on its own: `None` for an entry that records no
/// usage (any but an assistant message), and for a Claude Code line that a
/// later line of the same response follows (see [`counts_alone`]).
pub fn spent(repo: &Repo, ix: Ix) -> io::Result<Option<Spent>> {
    if repo.tree.node(ix).kind != MessageKind::Assistant || repo.tree.is_record(ix) {
        return Ok(None);
    }
    let facts = read_one(repo, ix)?.0;
    Ok(counts_alone(repo, ix, &facts)?.then_some(Spent {
        input: facts.usage.input,
        output: facts.usage.output,
        cache_read: facts.usage.cache_read,
        cache_write: facts.usage.cache_write,
        cost: facts.cost,
    }))
}

/// Whether an entry's usage is counted where it stands, one entry at a time
/// (`log --format {tokens_in}`): any assistant message, except a Claude
/// Code line that a later line of the same response follows (the response
/// counts on its last line).
pub fn counts_alone(repo: &Repo, ix: Ix, facts: &Facts) -> io::Result<bool> {
    if !facts.has_usage() {
        return Ok(false);
    }
    let Some(id) = &facts.response else {
        return Ok(true);
    };
    Ok(!followed_by(repo, ix, id)?)
}

/// Whether a view shows the usage of `entry` (the entry `ix`, read) where
/// it stands, the rule of [`counts_alone`] for an entry already read: the
/// Markdown transcript and the page show a response written over several
/// lines once, on its last line, as `stats` counts it.
pub fn shows_usage(repo: &Repo, ix: Ix, entry: &Entry) -> io::Result<bool> {
    if !matches!(entry.message, Message::Assistant { .. }) {
        return Ok(false);
    }
    let response = (repo.format.spec().splits_replies())
        .then(|| entry.message_value.get("id").and_then(Value::as_str))
        .flatten();
    match response {
        Some(id) => Ok(!followed_by(repo, ix, id)?),
        None => Ok(true),
    }
}

/// Whether a later line of the response `id` hangs below `ix`: as its
/// child, or below a tool result written between the response's lines
/// (Claude Code runs a call's tool while the model still writes).
fn followed_by(repo: &Repo, ix: Ix, id: &str) -> io::Result<bool> {
    let mut next: Vec<Ix> = repo.tree.raw_children(ix).to_vec();
    // Results between a response's lines are few; a bound keeps a hostile
    // file from making this walk long.
    let mut seen = 0;
    while let Some(child) = next.pop() {
        seen += 1;
        if seen > 256 {
            break;
        }
        if repo.tree.is_record(child) {
            continue;
        }
        match repo.tree.node(child).kind {
            MessageKind::Assistant if read_one(repo, child)?.0.response.as_deref() == Some(id) => {
                return Ok(true);
            }
            MessageKind::ToolResult => next.extend_from_slice(repo.tree.raw_children(child)),
            _ => {}
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::read::{lean_claude, whole};
    use super::*;

    fn assistant(model: &str, input: u64, output: u64, response: Option<&str>) -> Option<Facts> {
        Some(Facts {
            kind: MessageKind::Assistant,
            timestamp: 10,
            model: Some(model.into()),
            usage: Usage {
                input,
                output,
                ..Usage::default()
            },
            cost: None,
            unpriced: false,
            calls: vec!["bash".into()],
            result: None,
            response: response.map(str::to_string),
            call: None,
        })
    }

    #[test]
    fn the_lean_read_gives_what_reading_each_entry_whole_gives() {
        let odd = [
            // snake_case usage (yoagent takes it), a tag written as a number,
            // lean or not, the same.
            r#"{"id":"e1","parent_id":null,"message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1},"timestamp":1}"#,
            r#"{"id":"e2","parent_id":"e1","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":3,"output":4,"cache_read":5,"cache_write":6},"timestamp":2},"timestamp":2}"#,
            r#"{"id":"e3","parent_id":"e2","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"no"}],"isError":true,"timestamp":3},"timestamp":3}"#,
            r#"{"id":"e4","parent_id":"e3","message":{"role":1,"content":[{"type":3,"id":"c2","name":"ls","arguments":{}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2},"timestamp":4},"timestamp":4}"#,
        ]
        .join("\n");
        let dir = std::env::temp_dir().join(format!("ysess-stats-lean-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let odd_file = dir.join("odd.jsonl");
        std::fs::write(&odd_file, odd).expect("writes");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut files: Vec<std::path::PathBuf> =
            ["demo.jsonl", "medium.jsonl", "small-forked.jsonl"]
                .iter()
                .chain(&[
                    "pi/demo.jsonl",
                    "pi/handmade.jsonl",
                    "pi/v1.jsonl",
                    "pi/v2.jsonl",
                ])
                .map(|f| root.join(f))
                .collect();
        files.push(odd_file);
        for file in files {
            let repo = Repo::open(&file, &crate::repo::Open::default()).expect("opens");
            let mut leaned = 0;
            for ix in 0..repo.tree.len() as Ix {
                if repo.tree.is_record(ix) {
                    continue;
                }
                let one = read_one(&repo, ix).expect("reads");
                assert_eq!(
                    one,
                    whole(&repo, ix).expect("reads"),
                    "{} line {}",
                    file.display(),
                    repo.tree.node(ix).line
                );
                leaned += 1;
            }
            assert!(leaned > 0, "{}", file.display());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_claude_code_line_read_lean_has_the_facts_of_the_line_read_whole() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude");
        let mut leaned = 0;
        for name in [
            "session.jsonl",
            "today.jsonl",
            "agent-a3f9c2e1.jsonl",
            "compacted.jsonl",
        ] {
            let repo = Repo::open(root.join(name), &crate::repo::Open::default()).expect("opens");
            for ix in 0..repo.tree.len() as Ix {
                if repo.tree.node(ix).kind == MessageKind::Custom {
                    continue;
                }
                let one = read_one(&repo, ix).expect("reads");
                assert_eq!(
                    one,
                    whole(&repo, ix).expect("reads"),
                    "{name} line {}",
                    repo.tree.node(ix).line
                );
                let node = repo.tree.node(ix);
                leaned += usize::from(
                    lean_claude(&repo.line(ix).expect("reads"), node.kind, node.timestamp)
                        .is_some(),
                );
            }
        }
        assert!(leaned >= 20, "{leaned} lines read lean");
    }

    #[test]
    fn a_set_counts_each_entry_once_however_often_it_is_named() {
        let facts = vec![assistant("m", 5, 1, None), assistant("m", 7, 2, None)];
        let once = Account::of(&facts, [0, 1]);
        let twice = Account::of(&facts, [1, 0, 1, 0]);
        assert_eq!(once, twice);
        assert_eq!((once.usage.input, once.usage.output), (12, 3));
        assert_eq!(once.tools["bash"].calls, 2);
    }

    #[test]
    fn a_response_over_several_lines_counts_once_with_its_last_lines_usage() {
        let facts = vec![
            assistant("m", 4, 10, Some("msg_1")),
            assistant("m", 4, 312, Some("msg_1")),
            assistant("m", 6, 98, Some("msg_2")),
        ];
        let a = Account::of(&facts, [0, 1, 2]);
        assert_eq!(a.turns.assistant, 2);
        assert_eq!((a.usage.input, a.usage.output), (10, 410));
        assert_eq!(a.models["m"], 2);
        assert_eq!(a.entries, 3);
    }

    #[test]
    fn cost_is_none_until_a_turn_records_one() {
        let mut facts = vec![assistant("m", 1, 1, None)];
        assert_eq!(Account::of(&facts, [0]).cost, None);
        facts.push(assistant("m", 1, 1, None));
        facts[1].as_mut().expect("facts").cost = Some(0.25);
        assert_eq!(Account::of(&facts, [0, 1]).cost, Some(0.25));
    }

    #[test]
    fn the_walk_gives_each_path_what_account_of_gives_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for file in [
            "demo.jsonl",
            "medium.jsonl",
            "small-forked.jsonl",
            "pi/demo.jsonl",
            "pi/v2.jsonl",
            "claude/session.jsonl",
            "claude/agent-a3f9c2e1.jsonl",
            "codex/rollout.jsonl",
            "pi/v1.jsonl",
            "claude/today.jsonl",
            "claude/compacted.jsonl",
        ] {
            let repo = Repo::open(root.join(file), &crate::repo::Open::default()).expect("opens");
            let facts = read(&repo).expect("reads");
            let tree = &repo.tree;
            // Every entry as an end: tips, inner entries and records.
            let ends: Vec<Ix> = (0..tree.len() as Ix).collect();
            let walked = accounts_of_paths(&facts, tree, &ends);
            for (&end, mut got) in ends.iter().zip(walked) {
                let want = Account::of(&facts, tree.path(end));
                match (got.cost, want.cost) {
                    (Some(a), Some(b)) => assert!((a - b).abs() < 1e-12, "{file} {end}"),
                    (a, b) => assert_eq!(a, b, "{file} {end}"),
                }
                got.cost = want.cost;
                assert_eq!(got, want, "{file}: the path to {}", tree.id(end));
            }
        }
    }
}
