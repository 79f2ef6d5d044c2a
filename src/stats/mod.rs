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
//!   `cache_creation_input_tokens`);
//! - cost only where the format records it: pi's `usage.cost.total`
//!   (dollars, as pi-ai prices it); Claude Code and Codex record none, so
//!   their usage is priced by [`prices`]; yoagent's is not priced;
//! - Claude Code writes one model response as several lines sharing
//!   `message.id`, each repeating the usage: the response counts once, as
//!   one assistant turn, with the usage of its last line in the set;
//! - a tool call counts by the name it calls, an error by the tool result
//!   that says `isError` (its tool named by the result, or else by the call
//!   it answers).

pub mod prices;
pub mod subagents;

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
    pub kind: MessageKind,
    pub timestamp: u64,
    /// An assistant message's model; for a tool result, the model of the
    /// call it answers (when that call is in the file).
    pub model: Option<String>,
    pub usage: Usage,
    /// Dollars, where the format records a cost.
    pub cost: Option<f64>,
    /// The names of the tools an assistant message calls, in order.
    pub calls: Vec<String>,
    /// A tool result: its tool and whether it is an error.
    pub result: Option<(String, bool)>,
    /// Claude Code: the response (`message.id`) an assistant line is part of.
    pub response: Option<String>,
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
                ..
            } => {
                facts.model = Some(model.clone());
                facts.usage = *usage;
                facts.cost = cost(&entry.message_value, format, model, usage);
                facts.calls = calls(content).map(|(_, name)| name.to_string()).collect();
                if format == Format::Claude {
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
                ..
            } => facts.result = Some((tool_name.clone(), *is_error)),
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

/// The cost of a message: what it records (pi's `usage.cost.total`), or,
/// for a format that records usage but no cost (Claude Code, Codex), its
/// usage priced by [`prices`]; in dollars.
pub fn cost(message: &Value, format: Format, model: &str, usage: &Usage) -> Option<f64> {
    match format {
        Format::Pi => message
            .get("usage")?
            .get("cost")?
            .get("total")?
            .as_f64()
            .filter(|c| c.is_finite()),
        Format::Claude | Format::Codex => prices::cost(model, usage),
        Format::Yoagent => None,
    }
}

/// The facts of every entry, by index; `None` for bookkeeping folded out
/// of the user's tree (ysess's records, a format's own lines), but the
/// facts of a subagent's turns folded into the file (Claude Code's
/// sidechain lines). Entries are read on every core.
pub fn read(repo: &Repo) -> io::Result<Vec<Option<Facts>>> {
    let tree = &repo.tree;
    let len = tree.len();
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 8);
    let chunk = len.div_ceil(workers).max(1);
    // Read in parallel: each worker its own range of indexes. Tool calls'
    // ids and the calls tool results answer are kept aside, to name each
    // result's tool and model once all are read.
    type Calls = Vec<(String, Ix, String)>;
    type Answers = Vec<(Ix, String)>;
    type Part = (Vec<Option<Facts>>, Calls, Answers);
    let parts: Vec<io::Result<Part>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..len)
            .step_by(chunk)
            .map(|from| {
                scope.spawn(move || -> io::Result<Part> {
                    let mut part: Part = (Vec::with_capacity(chunk), Vec::new(), Vec::new());
                    for ix in from..(from + chunk).min(len) {
                        let ix = ix as Ix;
                        // Bookkeeping has no account; a subagent's turns
                        // folded into the file (Claude Code's sidechain
                        // lines) have one, which the whole session's total
                        // counts.
                        if tree.is_record(ix) && tree.node(ix).kind == MessageKind::Custom {
                            part.0.push(None);
                            continue;
                        }
                        let (facts, calls, answers) = read_one(repo, ix)?;
                        part.1
                            .extend(calls.into_iter().map(|(id, name)| (id, ix, name)));
                        part.2.extend(answers.map(|call| (ix, call)));
                        part.0.push(Some(facts));
                    }
                    Ok(part)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a reading thread does not panic"))
            .collect()
    });
    let mut all = Vec::with_capacity(len);
    let mut by_call: HashMap<String, (Ix, String)> = HashMap::new();
    let mut answers = Vec::new();
    for part in parts {
        let (facts, ids, answered) = part?;
        all.extend(facts);
        for (id, ix, name) in ids {
            by_call.entry(id).or_insert((ix, name));
        }
        answers.extend(answered);
    }
    // A tool result's model is its call's; Claude Code's results do not
    // name their tool, their call does.
    for (ix, call) in answers {
        let Some((from, name)) = by_call.get(&call) else {
            continue;
        };
        let model = all[*from as usize].as_ref().and_then(|f| f.model.clone());
        if let Some(f) = all[ix as usize].as_mut() {
            f.model = model;
            if let Some((tool, _)) = &mut f.result
                && tool.is_empty()
            {
                *tool = name.clone();
            }
        }
    }
    Ok(all)
}

/// One entry's facts, the ids and names of the tool calls it makes, and the
/// call it answers. yoagent's and pi's messages (the same pi-ai shapes) are
/// read lean, their text skipped unread, and a user or custom message not
/// at all (the index knows its kind and time); anything the lean read does
/// not take, and Claude Code's lines, are read whole.
type One = (Facts, Vec<(String, String)>, Option<String>);

fn read_one(repo: &Repo, ix: Ix) -> io::Result<One> {
    let node = repo.tree.node(ix);
    // A user or custom message has no account beyond its kind and time,
    // which the index knows, in every format: it is not read at all.
    if matches!(node.kind, MessageKind::User | MessageKind::Custom) {
        let facts = Facts {
            kind: node.kind,
            timestamp: node.timestamp,
            ..Facts::default()
        };
        return Ok((facts, Vec::new(), None));
    }
    let leaned = match repo.format {
        Format::Yoagent | Format::Pi => {
            lean(&repo.line(ix)?, node.kind, node.timestamp, repo.format)
        }
        Format::Claude => lean_claude(&repo.line(ix)?, node.kind, node.timestamp).map(
            |(mut facts, calls, answer)| {
                if let Some((tool, _)) = &mut facts.result {
                    tool.push_str(repo.tree.tag(ix));
                }
                (facts, calls, answer)
            },
        ),
        // Its model and usage stand on lines of their own.
        Format::Codex => None,
    };
    match leaned {
        Some(one) => Ok(one),
        None => whole(repo, ix),
    }
}

/// An entry read whole: the slow path every format has.
/// A Claude Code assistant line or tool result read for its account only:
/// the text, thinking and tool input are skipped unread. `None` for a line
/// of another shape, which is read whole.
fn lean_claude(line: &[u8], kind: MessageKind, timestamp: u64) -> Option<One> {
    use std::borrow::Cow;

    use serde::Deserialize;
    use serde_json::value::RawValue;

    #[derive(Deserialize)]
    struct Line<'a> {
        #[serde(borrow)]
        message: Msg<'a>,
    }
    #[derive(Deserialize)]
    struct Msg<'a> {
        #[serde(default, borrow)]
        id: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        model: Option<Cow<'a, str>>,
        #[serde(default)]
        usage: Option<Used>,
        #[serde(borrow)]
        content: &'a RawValue,
    }
    #[derive(Deserialize)]
    struct Used {
        #[serde(default)]
        input_tokens: Option<u64>,
        #[serde(default)]
        output_tokens: Option<u64>,
        #[serde(default)]
        cache_read_input_tokens: Option<u64>,
        #[serde(default)]
        cache_creation_input_tokens: Option<u64>,
    }
    #[derive(Deserialize)]
    struct Part<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
        #[serde(default, borrow)]
        id: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        name: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        tool_use_id: Option<Cow<'a, str>>,
        #[serde(default)]
        is_error: Option<bool>,
    }
    let text = std::str::from_utf8(line).ok()?.trim();
    let m = serde_json::from_str::<Line<'_>>(text).ok()?.message;
    let parts: Vec<Part<'_>> = match m.content.get().as_bytes().first() {
        Some(b'[') => serde_json::from_str(m.content.get()).ok()?,
        _ => return None,
    };
    let mut facts = Facts {
        kind,
        timestamp,
        ..Facts::default()
    };
    match kind {
        MessageKind::Assistant => {
            let u = m.usage?;
            let n = |v: Option<u64>| v.unwrap_or(0);
            let (input, output) = (n(u.input_tokens), n(u.output_tokens));
            let (cache_read, cache_write) = (
                n(u.cache_read_input_tokens),
                n(u.cache_creation_input_tokens),
            );
            facts.usage = Usage {
                input,
                output,
                cache_read,
                cache_write,
                total_tokens: input + output + cache_read + cache_write,
            };
            let model = m.model.unwrap_or_default().into_owned();
            facts.cost = prices::cost(&model, &facts.usage);
            facts.model = Some(model);
            facts.response = m.id.map(Cow::into_owned);
            let calls: Vec<(String, String)> = parts
                .iter()
                .filter(|p| p.kind == "tool_use")
                .map(|p| {
                    let own =
                        |c: &Option<Cow<'_, str>>| c.as_deref().unwrap_or_default().to_string();
                    (own(&p.id), own(&p.name))
                })
                .collect();
            facts.calls = calls.iter().map(|(_, name)| name.clone()).collect();
            Some((facts, calls, None))
        }
        MessageKind::ToolResult => {
            let result = parts.iter().find(|p| p.kind == "tool_result")?;
            facts.result = Some((String::new(), result.is_error.unwrap_or(false)));
            let answer = result
                .tool_use_id
                .as_deref()
                .unwrap_or_default()
                .to_string();
            Some((facts, Vec::new(), Some(answer)))
        }
        MessageKind::User | MessageKind::Custom => None,
    }
}

fn whole(repo: &Repo, ix: Ix) -> io::Result<One> {
    let entry = repo.entry(ix)?;
    let (calls, answers) = match &entry.message {
        Message::Assistant { content, .. } => (
            calls(content)
                .map(|(id, name)| (id.to_string(), name.to_string()))
                .collect(),
            None,
        ),
        Message::ToolResult { tool_call_id, .. } => (Vec::new(), Some(tool_call_id.clone())),
        _ => (Vec::new(), None),
    };
    Ok((Facts::of(&entry, repo.format), calls, answers))
}

/// An assistant message or tool result of yoagent or pi, read for its
/// usage and tool calls only; `None` for anything not in the usual shape
/// (then the entry is read whole).
fn lean(line: &[u8], kind: MessageKind, timestamp: u64, format: Format) -> Option<One> {
    use std::borrow::Cow;

    #[derive(serde::Deserialize)]
    struct Line<'a> {
        #[serde(borrow)]
        message: Lean<'a>,
    }
    #[derive(serde::Deserialize)]
    struct Lean<'a> {
        #[serde(default, borrow)]
        content: Vec<LeanBlock<'a>>,
        #[serde(default, borrow)]
        model: Option<Cow<'a, str>>,
        #[serde(default)]
        usage: Option<LeanUsage>,
        #[serde(rename = "toolCallId", default, borrow)]
        tool_call_id: Option<Cow<'a, str>>,
        #[serde(rename = "toolName", default, borrow)]
        tool_name: Option<Cow<'a, str>>,
        #[serde(rename = "isError", default)]
        is_error: Option<bool>,
    }
    #[derive(serde::Deserialize)]
    struct LeanBlock<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
        #[serde(default, borrow)]
        id: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        name: Option<Cow<'a, str>>,
    }
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case)]
    struct LeanUsage {
        #[serde(default)]
        input: u64,
        #[serde(default)]
        output: u64,
        #[serde(default)]
        cacheRead: Option<u64>,
        #[serde(default)]
        cache_read: Option<u64>,
        #[serde(default)]
        cacheWrite: Option<u64>,
        #[serde(default)]
        cache_write: Option<u64>,
        #[serde(default)]
        totalTokens: Option<u64>,
        #[serde(default)]
        total_tokens: Option<u64>,
        #[serde(default)]
        cost: Option<LeanCost>,
    }
    #[derive(serde::Deserialize)]
    struct LeanCost {
        #[serde(default)]
        total: Option<f64>,
    }
    let text = std::str::from_utf8(line).ok()?.trim();
    let m = serde_json::from_str::<Line<'_>>(text).ok()?.message;
    let mut facts = Facts {
        kind,
        timestamp,
        ..Facts::default()
    };
    match kind {
        MessageKind::Assistant => {
            // yoagent also takes snake_case usage; pi reads camelCase only.
            let yoagent = format == Format::Yoagent;
            let either = |camel: Option<u64>, snake: Option<u64>| {
                camel.or(snake.filter(|_| yoagent)).unwrap_or(0)
            };
            if let Some(u) = &m.usage {
                facts.usage = Usage {
                    input: u.input,
                    output: u.output,
                    cache_read: either(u.cacheRead, u.cache_read),
                    cache_write: either(u.cacheWrite, u.cache_write),
                    total_tokens: either(u.totalTokens, u.total_tokens),
                };
                facts.cost = u
                    .cost
                    .as_ref()
                    .and_then(|c| c.total)
                    .filter(|c| c.is_finite() && format == Format::Pi);
            }
            facts.model = Some(m.model.unwrap_or_default().into_owned());
            let calls: Vec<(String, String)> = m
                .content
                .into_iter()
                .filter(|b| b.kind == "toolCall")
                .map(|b| {
                    (
                        b.id.unwrap_or_default().into_owned(),
                        b.name.unwrap_or_default().into_owned(),
                    )
                })
                .collect();
            facts.calls = calls.iter().map(|(_, name)| name.clone()).collect();
            Some((facts, calls, None))
        }
        MessageKind::ToolResult => {
            let tool = m.tool_name.unwrap_or_default().into_owned();
            facts.result = Some((tool, m.is_error.unwrap_or(false)));
            let call = m.tool_call_id.unwrap_or_default().into_owned();
            Some((facts, Vec::new(), Some(call)))
        }
        _ => None,
    }
}

/// Turns by role: each message once (a Claude Code response once, however
/// many lines it takes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Turns {
    pub user: u64,
    pub assistant: u64,
    pub tool_result: u64,
    pub custom: u64,
}

/// Calls of one tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToolUse {
    pub calls: u64,
    /// Tool results that say `isError`.
    pub errors: u64,
}

/// What a set of entries used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Account {
    /// Entries of the user's tree in the set.
    pub entries: u64,
    pub turns: Turns,
    /// Tokens, summed over the assistant turns (`total_tokens` is the sum of
    /// the four kinds, whatever the messages say).
    pub usage: Usage,
    /// Dollars, summed over the turns that record a cost; `None` when none
    /// does.
    pub cost: Option<f64>,
    /// Tool calls and errors, by tool name.
    pub tools: BTreeMap<String, ToolUse>,
    /// Assistant turns, by model.
    pub models: BTreeMap<String, u64>,
    /// The earliest and the latest timestamp (ms), zero ones left out.
    pub first: Option<u64>,
    pub last: Option<u64>,
}

impl Account {
    /// The account of the entries `set` names (each once, in any order);
    /// entries without facts (folded out) are left out.
    pub fn of(facts: &[Option<Facts>], set: impl IntoIterator<Item = Ix>) -> Account {
        let mut ixs: Vec<Ix> = set.into_iter().collect();
        ixs.sort_unstable();
        ixs.dedup();
        let mut account = Account::default();
        // A Claude Code response counts once, with its last line's usage.
        let mut responses: HashMap<&str, &Facts> = HashMap::new();
        let mut order: Vec<&str> = Vec::new();
        for ix in ixs {
            let Some(f) = facts.get(ix as usize).and_then(Option::as_ref) else {
                continue;
            };
            account.entries += 1;
            if f.timestamp > 0 {
                account.first = Some(account.first.map_or(f.timestamp, |t| t.min(f.timestamp)));
                account.last = Some(account.last.map_or(f.timestamp, |t| t.max(f.timestamp)));
            }
            for name in &f.calls {
                tally(&mut account.tools, name).calls += 1;
            }
            match f.kind {
                MessageKind::User => account.turns.user += 1,
                MessageKind::ToolResult => {
                    account.turns.tool_result += 1;
                    if let Some((tool, true)) = &f.result {
                        tally(&mut account.tools, tool).errors += 1;
                    }
                }
                MessageKind::Custom => account.turns.custom += 1,
                MessageKind::Assistant => match &f.response {
                    Some(id) => {
                        if responses.insert(id, f).is_none() {
                            order.push(id);
                        }
                    }
                    None => account.add_turn(f),
                },
            }
        }
        for id in order {
            account.add_turn(responses[id]);
        }
        account
    }

    /// One assistant turn's usage, cost and model.
    fn add_turn(&mut self, f: &Facts) {
        self.turns.assistant += 1;
        let u = &mut self.usage;
        u.input += f.usage.input;
        u.output += f.usage.output;
        u.cache_read += f.usage.cache_read;
        u.cache_write += f.usage.cache_write;
        u.total_tokens = u.input + u.output + u.cache_read + u.cache_write;
        if let Some(c) = f.cost {
            self.cost = Some(self.cost.unwrap_or(0.0) + c);
        }
        if let Some(model) = &f.model {
            *tally(&mut self.models, model) += 1;
        }
    }

    /// Milliseconds from the first timestamp to the last.
    pub fn wall_ms(&self) -> u64 {
        match (self.first, self.last) {
            (Some(first), Some(last)) => last - first,
            _ => 0,
        }
    }
}

/// The accounts of the paths root→`end` of each of `ends` (in the user's
/// tree), each what [`Account::of`] gives for [`crate::tree::Tree::path`]
/// of it, in one walk of the tree: the account is kept as the walk goes down
/// and undone as it comes back up, so many branches sharing long prefixes
/// (a Claude Code file has a dead end at every parallel tool call) cost the
/// tree's size, not the sum of their lengths.
pub fn accounts_of_paths(
    facts: &[Option<Facts>],
    tree: &crate::tree::Tree,
    ends: &[Ix],
) -> Vec<Account> {
    let mut out = vec![Account::default(); ends.len()];
    // Where each end's path ends in the user's tree (a record's path ends at
    // the entry it hangs from).
    let mut wanted: HashMap<Ix, Vec<usize>> = HashMap::new();
    for (k, &end) in ends.iter().enumerate() {
        let at = if tree.is_record(end) {
            tree.parent(end)
        } else {
            Some(end)
        };
        if let Some(at) = at {
            wanted.entry(at).or_default().push(k);
        }
    }
    let mut walk = Walk::default();
    // Depth first, by hand: (entry, next child to visit).
    let mut stack: Vec<(Ix, usize)> = Vec::new();
    for root in tree.roots() {
        walk.enter(root, facts.get(root as usize).and_then(Option::as_ref));
        stack.push((root, 0));
        if let Some(ks) = wanted.get(&root) {
            let a = walk.account();
            for &k in ks {
                out[k] = a.clone();
            }
        }
        while let Some(top) = stack.last_mut() {
            let (ix, next) = *top;
            let children = tree.children(ix);
            if next < children.len() {
                top.1 += 1;
                let child = children[next];
                walk.enter(child, facts.get(child as usize).and_then(Option::as_ref));
                stack.push((child, 0));
                if let Some(ks) = wanted.get(&child) {
                    let a = walk.account();
                    for &k in ks {
                        out[k] = a.clone();
                    }
                }
            } else {
                walk.leave();
                stack.pop();
            }
        }
    }
    out
}

/// [`accounts_of_paths`]'s running account, with what undoes each step.
#[derive(Default)]
struct Walk<'f> {
    now: Scalars,
    tools: BTreeMap<String, ToolUse>,
    models: BTreeMap<String, u64>,
    /// Each response's line that counts so far, with its place in the file.
    responses: HashMap<&'f str, (Ix, &'f Facts)>,
    /// Per entry entered: the scalars before it, and where its undo records
    /// start.
    marks: Vec<(Scalars, usize)>,
    undo: Vec<Undo<'f>>,
}

/// The figures of an [`Account`] that are plain values.
#[derive(Debug, Clone, Copy, Default)]
struct Scalars {
    entries: u64,
    turns: Turns,
    usage: Usage,
    cost: Option<f64>,
    first: Option<u64>,
    last: Option<u64>,
}

/// A map's value before a step changed it (`None`: it had none).
enum Undo<'f> {
    Tool(String, Option<ToolUse>),
    Model(String, Option<u64>),
    Response(&'f str, Option<(Ix, &'f Facts)>),
}

impl<'f> Walk<'f> {
    fn enter(&mut self, at: Ix, f: Option<&'f Facts>) {
        self.marks.push((self.now, self.undo.len()));
        let Some(f) = f else {
            return;
        };
        self.now.entries += 1;
        if f.timestamp > 0 {
            self.now.first = Some(self.now.first.map_or(f.timestamp, |t| t.min(f.timestamp)));
            self.now.last = Some(self.now.last.map_or(f.timestamp, |t| t.max(f.timestamp)));
        }
        for name in &f.calls {
            self.tool(name, |t| t.calls += 1);
        }
        match f.kind {
            MessageKind::User => self.now.turns.user += 1,
            MessageKind::ToolResult => {
                self.now.turns.tool_result += 1;
                if let Some((tool, true)) = &f.result {
                    self.tool(tool, |t| t.errors += 1);
                }
            }
            MessageKind::Custom => self.now.turns.custom += 1,
            MessageKind::Assistant => match f.response.as_deref() {
                None => self.turn(f, 1),
                Some(id) => match self.responses.get(id).copied() {
                    None => {
                        self.undo.push(Undo::Response(id, None));
                        self.responses.insert(id, (at, f));
                        self.turn(f, 1);
                    }
                    // The response's last line in the file counts, as in
                    // [`Account::of`].
                    Some(best) if at > best.0 => {
                        self.undo.push(Undo::Response(id, Some(best)));
                        self.responses.insert(id, (at, f));
                        self.turn(best.1, -1);
                        self.turn(f, 1);
                    }
                    Some(_) => {}
                },
            },
        }
    }

    /// Adds (`sign` 1) or takes away (-1) one assistant turn's figures.
    fn turn(&mut self, f: &Facts, sign: i8) {
        let u = &mut self.now.usage;
        let step = |total: &mut u64, n: u64| {
            *total = if sign > 0 {
                total.saturating_add(n)
            } else {
                total.saturating_sub(n)
            };
        };
        step(&mut u.input, f.usage.input);
        step(&mut u.output, f.usage.output);
        step(&mut u.cache_read, f.usage.cache_read);
        step(&mut u.cache_write, f.usage.cache_write);
        u.total_tokens = u
            .input
            .saturating_add(u.output)
            .saturating_add(u.cache_read)
            .saturating_add(u.cache_write);
        let turns = &mut self.now.turns.assistant;
        step(turns, 1);
        if let Some(c) = f.cost {
            let sum = self.now.cost.unwrap_or(0.0);
            self.now.cost = Some(if sign > 0 { sum + c } else { sum - c });
        }
        if let Some(model) = &f.model {
            let by = |n: &mut u64| step(n, 1);
            count(&mut self.models, &mut self.undo, model, Undo::Model, by);
        }
    }

    fn tool(&mut self, name: &str, change: impl FnOnce(&mut ToolUse)) {
        count(&mut self.tools, &mut self.undo, name, Undo::Tool, change);
    }

    fn leave(&mut self) {
        let (now, mark) = self.marks.pop().expect("left as entered");
        self.now = now;
        while self.undo.len() > mark {
            match self.undo.pop().expect("above the mark") {
                Undo::Tool(name, before) => restore(&mut self.tools, name, before),
                Undo::Model(name, before) => restore(&mut self.models, name, before),
                Undo::Response(id, before) => match before {
                    Some(f) => {
                        self.responses.insert(id, f);
                    }
                    None => {
                        self.responses.remove(id);
                    }
                },
            }
        }
    }

    fn account(&self) -> Account {
        let n = self.now;
        Account {
            entries: n.entries,
            turns: n.turns,
            usage: n.usage,
            cost: n.cost,
            tools: self.tools.clone(),
            models: self.models.clone(),
            first: n.first,
            last: n.last,
        }
    }
}

/// Changes the count under `key`, logging its value before.
fn count<'f, T: Default + Clone + PartialEq>(
    map: &mut BTreeMap<String, T>,
    undo: &mut Vec<Undo<'f>>,
    key: &str,
    log: impl FnOnce(String, Option<T>) -> Undo<'f>,
    change: impl FnOnce(&mut T),
) {
    undo.push(log(key.to_string(), map.get(key).cloned()));
    let value = tally(map, key);
    change(value);
    if *value == T::default() {
        map.remove(key);
    }
}

fn restore<T>(map: &mut BTreeMap<String, T>, key: String, before: Option<T>) {
    match before {
        Some(v) => {
            map.insert(key, v);
        }
        None => {
            map.remove(&key);
        }
    }
}

/// The count kept under `key`, made on first use: the key is copied only
/// then (a set of many branches visits the same names millions of times).
fn tally<'m, T: Default>(map: &'m mut BTreeMap<String, T>, key: &str) -> &'m mut T {
    if !map.contains_key(key) {
        map.insert(key.to_string(), T::default());
    }
    map.get_mut(key).expect("just made")
}

/// The entries of `set` grouped by a key (`None`: in no group), each group
/// in file order, the groups sorted by key.
pub fn group(
    facts: &[Option<Facts>],
    set: impl IntoIterator<Item = Ix>,
    key: impl Fn(&Facts) -> Option<String>,
) -> BTreeMap<String, Vec<Ix>> {
    let mut groups: BTreeMap<String, Vec<Ix>> = BTreeMap::new();
    for ix in set {
        if let Some(k) = facts
            .get(ix as usize)
            .and_then(Option::as_ref)
            .and_then(&key)
        {
            groups.entry(k).or_default().push(ix);
        }
    }
    for ixs in groups.values_mut() {
        ixs.sort_unstable();
        ixs.dedup();
    }
    groups
}

/// What one entry used, on its own (`log --format {tokens_in}`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spent {
    pub input: u64,
    pub output: u64,
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
    for &child in repo.tree.raw_children(ix) {
        if repo.tree.node(child).kind != MessageKind::Assistant || repo.tree.is_record(child) {
            continue;
        }
        let next = read_one(repo, child)?.0;
        if next.response.as_ref() == Some(id) {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
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
            calls: vec!["bash".into()],
            result: None,
            response: response.map(str::to_string),
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
            let repo = Repo::open(&file).expect("opens");
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
            let repo = Repo::open(root.join(name)).expect("opens");
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
            let repo = Repo::open(root.join(file)).expect("opens");
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
