//! Reading what every entry says about usage ([`read`]), lean where the
//! format allows it, on every core.

use super::*;
use crate::format::UsageAt;
use std::borrow::Cow;

/// The cost of a message: what it records (pi's `usage.cost.total`), or,
/// for a format that records usage but no cost (Claude Code, Codex), its
/// usage priced by [`prices`] (at the fast-mode multiple when `fast`); in
/// dollars.
pub fn cost(
    message: &Value,
    format: Format,
    model: &str,
    usage: &Usage,
    fast: bool,
) -> Option<f64> {
    let spec = format.spec();
    if spec.records_cost() {
        spec.recorded_cost(message)
    } else if spec.priced_by_table() {
        prices::cost_at(model, usage, fast)
    } else {
        None
    }
}

/// Whether `format` records usage but no cost, so that its usage is priced
/// by the table.
pub fn priced_by_table(format: Format) -> bool {
    format.spec().priced_by_table()
}

/// The facts of every entry, by index; `None` for bookkeeping folded out
/// of the user's tree (ysess's records, a format's own lines), but the
/// facts of a subagent's turns folded into the file (Claude Code's
/// sidechain lines). Entries are read on every core.
pub fn read(repo: &Repo) -> io::Result<Vec<Option<Facts>>> {
    Ok(read_facts(repo, false)?.facts)
}

/// What [`read_sparse`] reads.
pub struct Sparse {
    /// The facts of the entries the load did not tally ([`Repo::tally`]),
    /// as [`read`] gives them; `None` for a tallied entry (its tally and
    /// tag say the rest) and for bookkeeping.
    pub facts: Vec<Option<Facts>>,
    /// For a tool result, the entry whose call it answers (when that call
    /// is in the file).
    pub answers: Vec<Option<Ix>>,
    /// The tallied tool results that do not name their tool, with the tool
    /// their call names, in file order.
    pub tools: Vec<(Ix, String)>,
}

/// [`read`], except that a tallied entry's facts are not made: what its
/// row needs is in its tally and its tag, and the entry a tool result
/// answers (whose model is the result's) in [`Sparse::answers`]. A large
/// session's facts are then made of the few lines the load did not tally.
pub fn read_sparse(repo: &Repo) -> io::Result<Sparse> {
    read_facts(repo, true)
}

/// The model of entry `ix`: its facts' where they were read, else (an
/// entry the load tallied, whose facts [`read_sparse`] does not make) its
/// tag.
pub fn model_of<'a>(repo: &'a Repo, facts: &'a [Option<Facts>], ix: Ix) -> Option<&'a str> {
    match facts.get(ix as usize).and_then(Option::as_ref) {
        Some(f) => f.model.as_deref(),
        None => repo.tally(ix).map(|_| repo.tree.tag(ix)),
    }
}

fn read_facts(repo: &Repo, sparse: bool) -> io::Result<Sparse> {
    let tree = &repo.tree;
    let len = tree.len();
    // A small session is read on one thread: a command over many sessions
    // already reads one on each core.
    let workers = if len < crate::input::par::SPLIT_AT {
        1
    } else {
        crate::input::par::jobs_up_to(8)
    };
    let chunk = len.div_ceil(workers).max(1);
    // Read in parallel: each worker fills its own range of `all` in place
    // (the facts of a large session are tens of MB: never copied). Tool
    // calls' ids and the calls tool results answer are kept aside, to name
    // each result's tool and model once all are read.
    let mut all: Vec<Option<Facts>> = std::iter::repeat_with(|| None).take(len).collect();
    let parts: Vec<io::Result<Part<'_>>> = crate::input::par::split(
        all.chunks_mut(chunk).enumerate().collect(),
        |(at, slots)| read_part(repo, sparse, at * chunk, slots),
    );
    let mut by_call: HashMap<Cow<'_, str>, (Ix, Cow<'_, str>)> = HashMap::new();
    let mut answered = Vec::new();
    for part in parts {
        let (ids, answers) = part?;
        by_call.reserve(ids.len());
        for (id, ix, name) in ids {
            by_call.entry(id).or_insert((ix, name));
        }
        answered.extend(answers);
    }
    // A tool result's model is its call's; Claude Code's results do not
    // name their tool, their call does.
    let mut answers: Vec<Option<Ix>> = if sparse { vec![None; len] } else { Vec::new() };
    let mut tools = Vec::new();
    for (ix, call) in answered {
        let Some((from, name)) = by_call.get(&call) else {
            continue;
        };
        if let Some(slot) = answers.get_mut(ix as usize) {
            *slot = Some(*from);
        }
        if all[ix as usize].is_none() {
            if sparse && repo.tree.tag(ix).is_empty() {
                tools.push((ix, name.to_string()));
            }
            continue;
        }
        let model = model_of(repo, &all, *from).map(str::to_string);
        let Some(f) = all[ix as usize].as_mut() else {
            continue;
        };
        f.model = model;
        if let Some((tool, _)) = &mut f.result
            && tool.is_empty()
        {
            *tool = name.to_string();
        }
    }
    tools.sort_unstable_by_key(|(ix, _)| *ix);
    Ok(Sparse {
        facts: all,
        answers,
        tools,
    })
}

/// Tool calls' ids with the entry and the tool's name; a part's own.
type Calls<'r> = Vec<(Cow<'r, str>, Ix, Cow<'r, str>)>;
/// Tool results with the call each answers.
type Answers<'r> = Vec<(Ix, Cow<'r, str>)>;
/// What one worker of [`read_facts`] found beside the facts it filled in.
type Part<'r> = (Calls<'r>, Answers<'r>);

/// [`read_facts`]' work on the entries from `from` on, one per slot: fills
/// each slot with its entry's facts and returns the calls and answers seen.
fn read_part<'r>(
    repo: &'r Repo,
    sparse: bool,
    from: usize,
    slots: &mut [Option<Facts>],
) -> io::Result<Part<'r>> {
    let tree = &repo.tree;
    let to = from + slots.len();
    let mut part: Part<'_> = (Vec::new(), Vec::new());
    let mut take = |part: &mut Part<'_>, ix: Ix, (facts, calls, answers): One| {
        part.0.extend(
            calls
                .into_iter()
                .map(|(id, name)| (Cow::Owned(id), ix, Cow::Owned(name))),
        );
        part.1.extend(answers.map(|call| (ix, Cow::Owned(call))));
        slots[ix as usize - from] = Some(facts);
    };
    // What the index and the load's tallies know is taken
    // from them; only the other lines are read.
    let mut unread = Vec::new();
    for ix in (from..to).map(|ix| ix as Ix) {
        // Bookkeeping has no account; a subagent's turns
        // folded into the file (Claude Code's sidechain
        // lines) have one, which the whole session's total
        // counts.
        let node = tree.node(ix);
        if tree.is_record(ix) && node.kind == MessageKind::Custom {
            continue;
        }
        // A tallied entry, sparsely: its calls and the call
        // it answers only, borrowed from its tally.
        if sparse
            && matches!(node.kind, MessageKind::Assistant | MessageKind::ToolResult)
            && let Some(tally) = repo.tally(ix)
        {
            part.0.extend(
                tally
                    .calls
                    .iter()
                    .map(|(id, name)| (Cow::Borrowed(&**id), ix, Cow::Borrowed(&**name))),
            );
            if node.kind == MessageKind::ToolResult {
                part.1.push((ix, Cow::Borrowed(&*tally.call)));
            }
            continue;
        }
        match known(repo, ix) {
            Some(one) => take(&mut part, ix, one),
            None => unread.push(ix),
        }
    }
    repo.each_line(&unread, |ix, line| {
        take(&mut part, ix, read_one_from(repo, ix, line)?);
        Ok(())
    })?;
    Ok(part)
}

/// One entry's facts, the ids and names of the tool calls it makes, and the
/// call it answers. yoagent's and pi's messages (the same pi-ai shapes) are
/// read lean, their text skipped unread, and a user or custom message not
/// at all (the index knows its kind and time); anything the lean read does
/// not take, and Claude Code's lines, are read whole.
pub(super) type One = (Facts, Vec<(String, String)>, Option<String>);

pub(super) fn read_one(repo: &Repo, ix: Ix) -> io::Result<One> {
    match known(repo, ix) {
        Some(one) => Ok(one),
        None => read_one_from(repo, ix, &repo.line_bytes(ix)?),
    }
}

/// An entry's facts as far as the index and the load's tally know them,
/// its line unread: a user or custom message's (it has no account beyond
/// its kind and time, in every format), and any entry the load tallied
/// ([`Repo::tally`]); `None` for the others.
fn known(repo: &Repo, ix: Ix) -> Option<One> {
    let node = repo.tree.node(ix);
    let mut facts = Facts {
        kind: node.kind,
        timestamp: node.timestamp,
        ..Facts::default()
    };
    if matches!(node.kind, MessageKind::User | MessageKind::Custom) {
        return Some((facts, Vec::new(), None));
    }
    let tally = repo.tally(ix)?;
    match node.kind {
        MessageKind::Assistant => {
            facts.model = Some(repo.tree.tag(ix).to_string());
            facts.usage = tally.usage;
            facts.cost = tally.cost;
            let calls: Vec<(String, String)> = tally
                .calls
                .iter()
                .map(|(id, name)| (id.to_string(), name.to_string()))
                .collect();
            facts.calls = calls.iter().map(|(_, name)| name.clone()).collect();
            Some((facts, calls, None))
        }
        MessageKind::ToolResult => {
            facts.result = Some((repo.tree.tag(ix).to_string(), tally.is_error));
            facts.call = Some(tally.call.to_string());
            Some((facts, Vec::new(), Some(tally.call.to_string())))
        }
        MessageKind::User | MessageKind::Custom => None,
    }
}

/// [`read_one`] of an entry [`known`] does not know, from its line.
fn read_one_from(repo: &Repo, ix: Ix, line: &[u8]) -> io::Result<One> {
    let node = repo.tree.node(ix);
    let leaned = match repo.format.spec().usage_at() {
        UsageAt::Message { .. } => lean(line, node.kind, node.timestamp, repo.format),
        UsageAt::Api => {
            lean_claude(line, node.kind, node.timestamp).map(|(mut facts, calls, answer)| {
                if let Some((tool, _)) = &mut facts.result {
                    tool.push_str(repo.tree.tag(ix));
                }
                (facts, calls, answer)
            })
        }
        // Its model and usage stand elsewhere (Codex: on lines of their own).
        UsageAt::Elsewhere => None,
    };
    match leaned {
        Some(mut one) => {
            one.0.call.clone_from(&one.2);
            Ok(one)
        }
        None => whole_from(repo, ix, line),
    }
}

/// The shape of a Claude Code line as [`lean_claude`] reads it: what its
/// account needs, borrowed from the line; the rest skipped unread.
mod claude_line {
    use std::borrow::Cow;

    use serde::Deserialize;
    use serde_json::value::RawValue;

    #[derive(Deserialize)]
    pub(super) struct Line<'a> {
        #[serde(borrow)]
        pub(super) message: Msg<'a>,
    }
    #[derive(Deserialize)]
    pub(super) struct Msg<'a> {
        #[serde(default, borrow)]
        pub(super) id: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        pub(super) model: Option<Cow<'a, str>>,
        #[serde(default)]
        #[serde(borrow)]
        pub(super) usage: Option<Used<'a>>,
        #[serde(borrow)]
        pub(super) content: &'a RawValue,
    }
    #[derive(Deserialize)]
    pub(super) struct Used<'a> {
        #[serde(default)]
        pub(super) input_tokens: Option<u64>,
        #[serde(default)]
        pub(super) output_tokens: Option<u64>,
        #[serde(default)]
        pub(super) cache_read_input_tokens: Option<u64>,
        #[serde(default)]
        pub(super) cache_creation_input_tokens: Option<u64>,
        #[serde(default)]
        pub(super) cache_creation: Option<Written>,
        /// `"fast"` for a reply in fast mode.
        #[serde(default, borrow)]
        pub(super) speed: Option<Cow<'a, str>>,
    }
    #[derive(Deserialize)]
    pub(super) struct Written {
        #[serde(default)]
        pub(super) ephemeral_1h_input_tokens: Option<u64>,
    }
    #[derive(Deserialize)]
    pub(super) struct Part<'a> {
        #[serde(rename = "type", borrow)]
        pub(super) kind: Cow<'a, str>,
        #[serde(default, borrow)]
        pub(super) id: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        pub(super) name: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        pub(super) tool_use_id: Option<Cow<'a, str>>,
        #[serde(default)]
        pub(super) is_error: Option<bool>,
    }
}

/// A Claude Code assistant line or tool result read for its account only:
/// the text, thinking and tool input are skipped unread. `None` for a line
/// of another shape, which is read whole.
pub(super) fn lean_claude(line: &[u8], kind: MessageKind, timestamp: u64) -> Option<One> {
    use claude_line::{Line, Part};
    use std::borrow::Cow;

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
            let cache_write_1h = n(u.cache_creation.and_then(|c| c.ephemeral_1h_input_tokens));
            facts.usage = Usage {
                input,
                output,
                cache_read,
                cache_write,
                cache_write_1h: cache_write_1h.min(cache_write),
                total_tokens: input + output + cache_read + cache_write,
            };
            let model = m.model.unwrap_or_default().into_owned();
            let fast = u.speed.as_deref() == Some("fast");
            facts.cost = prices::cost_at(&model, &facts.usage, fast);
            facts.unpriced = facts.cost.is_none();
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

/// An entry read whole: the slow path every format has.
#[cfg(test)]
pub(super) fn whole(repo: &Repo, ix: Ix) -> io::Result<One> {
    whole_from(repo, ix, &repo.line_bytes(ix)?)
}

/// An entry read whole from its line, already read: the slow path every
/// format has.
fn whole_from(repo: &Repo, ix: Ix, line: &[u8]) -> io::Result<One> {
    let entry = repo.entry_from(ix, line)?;
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

/// The shape of a yoagent or pi line as [`lean`] reads it: what its
/// account needs, borrowed from the line; the rest skipped unread.
mod message_line {
    use std::borrow::Cow;

    #[derive(serde::Deserialize)]
    pub(super) struct Line<'a> {
        #[serde(borrow)]
        pub(super) message: Lean<'a>,
    }
    #[derive(serde::Deserialize)]
    pub(super) struct Lean<'a> {
        #[serde(default, borrow)]
        pub(super) content: Vec<LeanBlock<'a>>,
        #[serde(default, borrow)]
        pub(super) model: Option<Cow<'a, str>>,
        #[serde(default)]
        pub(super) usage: Option<LeanUsage>,
        #[serde(rename = "toolCallId", default, borrow)]
        pub(super) tool_call_id: Option<Cow<'a, str>>,
        #[serde(rename = "toolName", default, borrow)]
        pub(super) tool_name: Option<Cow<'a, str>>,
        #[serde(rename = "isError", default)]
        pub(super) is_error: Option<bool>,
    }
    #[derive(serde::Deserialize)]
    pub(super) struct LeanBlock<'a> {
        #[serde(rename = "type", borrow)]
        pub(super) kind: Cow<'a, str>,
        #[serde(default, borrow)]
        pub(super) id: Option<Cow<'a, str>>,
        #[serde(default, borrow)]
        pub(super) name: Option<Cow<'a, str>>,
    }
    #[derive(serde::Deserialize)]
    #[allow(non_snake_case)]
    pub(super) struct LeanUsage {
        #[serde(default)]
        pub(super) input: u64,
        #[serde(default)]
        pub(super) output: u64,
        #[serde(default)]
        pub(super) cacheRead: Option<u64>,
        #[serde(default)]
        pub(super) cache_read: Option<u64>,
        #[serde(default)]
        pub(super) cacheWrite: Option<u64>,
        #[serde(default)]
        pub(super) cache_write: Option<u64>,
        #[serde(default)]
        pub(super) totalTokens: Option<u64>,
        #[serde(default)]
        pub(super) total_tokens: Option<u64>,
        #[serde(default)]
        pub(super) cost: Option<LeanCost>,
    }
    #[derive(serde::Deserialize)]
    pub(super) struct LeanCost {
        #[serde(default)]
        pub(super) total: Option<f64>,
    }
}

/// An assistant message or tool result of yoagent or pi, read for its
/// usage and tool calls only; `None` for anything not in the usual shape
/// (then the entry is read whole).
fn lean(line: &[u8], kind: MessageKind, timestamp: u64, format: Format) -> Option<One> {
    use message_line::Line;

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
            let yoagent = format.spec().usage_at() == UsageAt::Message { snake: true };
            let either = |camel: Option<u64>, snake: Option<u64>| {
                camel.or(snake.filter(|_| yoagent)).unwrap_or(0)
            };
            if let Some(u) = &m.usage {
                facts.usage = Usage {
                    input: u.input,
                    output: u.output,
                    cache_read: either(u.cacheRead, u.cache_read),
                    cache_write: either(u.cacheWrite, u.cache_write),
                    cache_write_1h: 0,
                    total_tokens: either(u.totalTokens, u.total_tokens),
                };
                facts.cost = u
                    .cost
                    .as_ref()
                    .and_then(|c| c.total)
                    .filter(|c| c.is_finite() && format.spec().records_cost());
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
