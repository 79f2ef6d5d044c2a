//! What the tables hold of one session: its entries' rows (by day), its
//! tree's rows, and its one row of the sessions table.

use std::borrow::Cow;
use std::io;
use std::path::Path;

use super::part::{Cell, Column, Columns, Kind};
use crate::fleet::sessions::{Session, Total};
use crate::format::message::{Block, Message};
use crate::format::{Format, MessageKind};
use crate::repo::Repo;
use crate::stats::Facts;
use crate::tree::Ix;

const fn col(name: &'static str, kind: Kind, nullable: bool, dictionary: bool) -> Column {
    Column {
        name,
        kind,
        nullable,
        dictionary,
    }
}

/// The entries table: one row per entry, facts that never change once its
/// line is written (the agent and the UTC day are the folders it is in).
pub const ENTRIES: &[Column] = &[
    col("session", Kind::Text, false, true),
    col("file", Kind::Text, false, true),
    col("line", Kind::Int, false, false),
    col("entry", Kind::Text, false, false),
    col("parent", Kind::Text, true, false),
    col("depth", Kind::Int, false, false),
    col("root", Kind::Text, false, true),
    col("role", Kind::Text, false, true),
    col("kind", Kind::Text, true, true),
    col("model", Kind::Text, true, true),
    col("timestamp", Kind::Time, true, false),
    col("turn", Kind::Bool, false, false),
    col("tokens_in", Kind::Int, true, false),
    col("tokens_out", Kind::Int, true, false),
    col("cache_read", Kind::Int, true, false),
    col("cache_write", Kind::Int, true, false),
    col("cost", Kind::Float, true, false),
    col("tool", Kind::Text, true, true),
    col("tool_call_id", Kind::Text, true, false),
    col("tool_calls", Kind::Int, true, false),
    col("is_error", Kind::Bool, true, false),
    col("text_len", Kind::Int, false, false),
    col("subject", Kind::Text, false, false),
    col("subagent", Kind::Text, true, true),
];

/// The tree table: where each entry stands in its session now (which
/// changes as the session grows), one file per session, replaced whole.
pub const TREE: &[Column] = &[
    col("session", Kind::Text, false, true),
    col("file", Kind::Text, false, true),
    col("entry", Kind::Text, false, false),
    col("tip", Kind::Bool, false, false),
    col("on_head_path", Kind::Bool, false, false),
    col("fork_point", Kind::Text, true, true),
    col("labels", Kind::Texts, false, true),
];

/// The sessions table: one row per session, as `ysess ls --json` says it.
pub const SESSIONS: &[Column] = &[
    col("session", Kind::Text, false, false),
    col("file", Kind::Text, false, false),
    col("project", Kind::Text, true, true),
    col("started", Kind::Time, true, false),
    col("last", Kind::Time, true, false),
    col("entries", Kind::Int, false, false),
    col("branches", Kind::Int, false, false),
    col("tokens_in", Kind::Int, false, false),
    col("tokens_out", Kind::Int, false, false),
    col("cache_read", Kind::Int, false, false),
    col("cache_write", Kind::Int, false, false),
    col("cost", Kind::Float, true, false),
    col("title", Kind::Text, true, false),
    col("head", Kind::Text, true, false),
];

/// The name of the partition of rows without a time, as Hive and Spark
/// name a null partition.
pub const NO_DAY: &str = "__HIVE_DEFAULT_PARTITION__";

/// Entries whose rows are made at once: what bounds the memory one session
/// takes, however long it is. (The unit tests' sessions pass several.)
const WINDOW: usize = if cfg!(test) { 64 } else { 64 * 1024 };

/// What of one file goes in the tables.
pub struct Source<'a> {
    /// The file, read.
    pub repo: &'a Repo,
    /// Its path, as the run names it.
    pub path: &'a Path,
    /// Its entries' facts, as [`crate::stats::read`] gives them, or as
    /// [`crate::stats::read_sparse`] does (with what else it read).
    pub facts: &'a [Option<Facts>],
    /// What [`crate::stats::read_sparse`] read beside the facts; `None`
    /// when every entry's facts were read.
    pub sparse: Option<&'a crate::stats::Sparse>,
    /// The session's id.
    pub session: &'a str,
    /// The subagent whose file it is, or `None` for the session's own.
    pub subagent: Option<&'a str>,
    /// Entries whose lines end within this many bytes were in an earlier
    /// export: only the others go in the entries table.
    pub from: u64,
    /// Entries whose lines end after this many bytes are left for a later
    /// export (their rows could still change).
    pub until: u64,
}

/// The entries of a file that the tables have: the user's tree, and the
/// turns of subagents folded into it (Claude Code's sidechain lines, which
/// `ysess stats` counts); not ysess's records, and not an app's
/// bookkeeping.
fn rows_of(repo: &Repo) -> Vec<Ix> {
    let tree = &repo.tree;
    (0..tree.len() as Ix)
        .filter(|&ix| !tree.is_record(ix) || tree.node(ix).kind != MessageKind::Custom)
        .collect()
}

/// The parent an entry's row names: its parent in the user's tree, or, for
/// a subagent's turn folded into the file, the line it follows.
fn parent_of(repo: &Repo, ix: Ix) -> Option<Ix> {
    if repo.tree.is_record(ix) {
        repo.tree.raw_parent(ix)
    } else {
        repo.tree.parent(ix)
    }
}

/// Characters of a message's text (not its thinking, not its tool calls'
/// arguments).
fn text_len(message: &Message) -> usize {
    let blocks: &[Block] = match message {
        Message::User { content }
        | Message::Assistant { content, .. }
        | Message::ToolResult { content, .. } => content,
        Message::Custom { .. } => &[],
    };
    blocks
        .iter()
        .map(|b| match b {
            Block::Text(t) | Block::Markup { text: t, .. } => t.chars().count(),
            _ => 0,
        })
        .sum()
}

/// The subagent a folded-in line is a turn of (Claude Code's `agentId`).
fn agent_of_line(line: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Line {
        #[serde(rename = "agentId")]
        agent_id: Option<String>,
    }
    memchr::memmem::find(line, b"\"agentId\"")?;
    serde_json::from_slice::<Line>(line).ok()?.agent_id
}

/// [`text_len`] of a yoagent, pi or Claude Code line, read lean: the text
/// blocks' characters counted, nothing else of the line built. `None` for
/// a line not in the usual shape (then it is read whole).
fn lean_text_len(line: &[u8], format: Format) -> Option<usize> {
    use serde_json::value::RawValue;

    #[derive(serde::Deserialize)]
    struct Line<'a> {
        #[serde(borrow)]
        message: Msg<'a>,
    }
    #[derive(serde::Deserialize)]
    struct Msg<'a> {
        #[serde(default, borrow)]
        content: Option<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct Part<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
        #[serde(default, borrow)]
        text: Option<&'a RawValue>,
        #[serde(default, borrow)]
        content: Option<&'a RawValue>,
    }
    fn chars(raw: &RawValue) -> Option<usize> {
        json_string_chars(raw.get())
    }
    let claude = match format.spec().usage_at() {
        crate::format::UsageAt::Message { .. } => false,
        crate::format::UsageAt::Api => true,
        crate::format::UsageAt::Elsewhere => return None,
    };
    let line: Line<'_> = serde_json::from_slice(line).ok()?;
    let Some(content) = line.message.content else {
        return Some(0);
    };
    match content.get().as_bytes().first()? {
        b'"' if claude => chars(content),
        b'[' => {
            let parts: Vec<Part<'_>> = serde_json::from_str(content.get()).ok()?;
            let mut n = 0;
            for p in parts {
                match &*p.kind {
                    "text" => n += chars(p.text?)?,
                    // A Claude Code tool result's text: its content, a
                    // string or text parts joined by line breaks.
                    "tool_result" if claude => match p.content {
                        None => {}
                        Some(c) if c.get().starts_with('"') => n += chars(c)?,
                        Some(c) => {
                            let inner: Vec<Part<'_>> = serde_json::from_str(c.get()).ok()?;
                            let mut texts = 0;
                            for q in inner {
                                if let Some(t) = q.text {
                                    n += chars(t)?;
                                    texts += 1;
                                }
                            }
                            n += texts.max(1) - 1;
                        }
                    },
                    _ => {}
                }
            }
            Some(n)
        }
        _ => None,
    }
}

/// The characters of the string a JSON string literal (quotes included)
/// spells, counted without making it (see
/// [`crate::format::scan::text_chars`]).
fn json_string_chars(literal: &str) -> Option<usize> {
    let body = literal.strip_prefix('"')?.strip_suffix('"')?;
    crate::format::scan::text_chars(body.as_bytes())
}

/// Maps ranges that cover `0..len` with `map` on every core, the results
/// in order.
fn on_chunks<T: Send>(
    len: usize,
    map: impl Fn(std::ops::Range<usize>) -> io::Result<T> + Sync,
) -> io::Result<Vec<T>> {
    let workers = crate::input::par::jobs_up_to(8);
    let chunk = len.div_ceil(workers).max(4096);
    let parts: Vec<io::Result<T>> = std::thread::scope(|scope| {
        let map = &map;
        let handles: Vec<_> = (0..len)
            .step_by(chunk)
            .map(|from| scope.spawn(move || map(from..(from + chunk).min(len))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a reading thread does not panic"))
            .collect()
    });
    parts.into_iter().collect()
}

/// The rows of one file's entries, by UTC day (`YYYY-MM-DD`, or
/// [`NO_DAY`]), handed to `sink` a window of entries at a time.
pub fn file_rows(
    src: &Source<'_>,
    escape: &(dyn for<'s> Fn(&'s str) -> Cow<'s, str> + Sync),
    sink: &mut (dyn FnMut(Vec<(String, Columns)>) -> io::Result<()> + Send),
) -> io::Result<()> {
    let repo = src.repo;
    let tree = &repo.tree;
    let ixs = rows_of(repo);
    let file = src.path.display().to_string();
    // Roots, in file order (a parent comes before its children; one that
    // does not is walked up).
    let mut root: Vec<Ix> = (0..tree.len() as Ix).collect();
    for ix in 0..tree.len() as Ix {
        let mut at = ix;
        let mut steps = 0;
        while let Some(p) = parent_of(repo, at) {
            if p < ix {
                at = root[p as usize];
                break;
            }
            at = p;
            steps += 1;
            if steps > tree.len() {
                break;
            }
        }
        root[ix as usize] = at;
    }
    // A Claude Code response is one model call written over several lines,
    // each with the usage so far: each line's row has what it adds to the
    // line before (the rows of a response add up to its last line's usage,
    // as `ysess stats` counts it), and its first line is the turn. A row so
    // never changes when more lines come.
    let mut before: hashbrown::HashMap<&str, Said<'_>> = hashbrown::HashMap::new();
    let mut used: Vec<Option<Used>> = Vec::new();
    used.resize_with(tree.len(), || None);
    for &ix in &ixs {
        let Some(f) = said(src, ix) else {
            continue;
        };
        if f.kind != MessageKind::Assistant {
            continue;
        }
        let prior = f.response.and_then(|id| before.insert(id, f.clone()));
        used[ix as usize] = Some(Used::since(&f, prior.as_ref()));
    }
    let fresh: Vec<Ix> = ixs
        .iter()
        .copied()
        .filter(|&ix| {
            let n = tree.node(ix);
            n.offset + n.len > src.from && n.offset + n.len <= src.until
        })
        .collect();
    let int = |n: u64| Cell::Int(i64::try_from(n).unwrap_or(i64::MAX));
    // The rows of the fresh entries, a window at a time, made on every
    // core, a range of the window each, by UTC day; a window's rows go to
    // the writer while the next window's are made.
    overlapped(
        fresh.chunks(WINDOW),
        |window| {
            let parts = on_chunks(
                window.len(),
                |range| -> io::Result<Vec<(String, Columns)>> {
                    let mut by_day: Vec<(String, Columns)> = Vec::new();
                    let mut day_of: Option<(u64, usize)> = None;
                    let part = &window[range];
                    // The rows of each day, counted first: each day's
                    // buffers are made once, at their size.
                    let mut days: Vec<(u64, usize)> = Vec::new();
                    for &ix in part {
                        let number = day_number(tree.node(ix).timestamp);
                        match days.iter_mut().find(|(n, _)| *n == number) {
                            Some((_, count)) => *count += 1,
                            None => days.push((number, 1)),
                        }
                    }
                    // Each entry's text length and (for a turn folded into the
                    // file) subagent: the load's tally has the length; the
                    // other lines are read for them.
                    let folded =
                        |ix: Ix| tree.is_record(ix) && repo.format.spec().folds_subagent_turns();
                    let mut read: Vec<(usize, Option<String>)> = vec![(0, None); part.len()];
                    let unread: Vec<usize> = (0..part.len())
                        .filter(|&at| repo.tally(part[at]).is_none() || folded(part[at]))
                        .collect();
                    let lines: Vec<Ix> = unread.iter().map(|&at| part[at]).collect();
                    let mut next = unread.iter();
                    repo.each_line(&lines, |ix, line| {
                        let len = match lean_text_len(line, repo.format) {
                            Some(len) => len,
                            None => repo
                                .entry_from(ix, line)
                                .map_or(0, |entry| text_len(&entry.message)),
                        };
                        // The subagent of a turn folded into the file.
                        let agent = folded(ix).then(|| agent_of_line(line)).flatten();
                        if let Some(&at) = next.next() {
                            read[at] = (len, agent);
                        }
                        Ok(())
                    })?;
                    for (&ix, (len, agent)) in part.iter().zip(read) {
                        let len = repo.tally(ix).map_or(len, |t| t.text as usize);
                        let node = tree.node(ix);
                        let facts = said(src, ix);
                        let facts = facts.as_ref();
                        let turn = used[ix as usize].as_ref();
                        let usage =
                            |n: fn(&Used) -> i64| turn.map_or(Cell::Null, |u| Cell::Int(n(u)));
                        let (tool, is_error) = match facts.and_then(|f| f.result) {
                            Some((tool, err)) => (text(tool).non_empty(), Cell::Bool(err)),
                            None => (Cell::Null, Cell::Null),
                        };
                        let subagent = src.subagent.map(str::to_string).or(agent);
                        let row = [
                            text(src.session),
                            text(&file),
                            int(node.line),
                            text(tree.id(ix)),
                            opt_text(parent_of(repo, ix).map(|p| tree.id(p))),
                            int(u64::from(node.depth)),
                            text(tree.id(root[ix as usize])),
                            text(node.kind.role_name()),
                            if node.kind == MessageKind::Custom {
                                text(tree.tag(ix)).non_empty()
                            } else {
                                Cell::Null
                            },
                            opt_text(facts.and_then(|f| f.model).filter(|m| !m.is_empty())),
                            if node.timestamp > 0 {
                                int(node.timestamp)
                            } else {
                                Cell::Null
                            },
                            Cell::Bool(turn.is_some_and(|u| u.turn)),
                            usage(|u| u.input),
                            usage(|u| u.output),
                            usage(|u| u.cache_read),
                            usage(|u| u.cache_write),
                            turn.and_then(|u| u.cost).map_or(Cell::Null, Cell::Float),
                            tool,
                            opt_text(facts.and_then(|f| f.call)),
                            facts
                                .filter(|f| f.kind == MessageKind::Assistant)
                                .map_or(Cell::Null, |f| int(f.calls as u64)),
                            is_error,
                            int(len as u64),
                            Cell::Text(escape(tree.subject(ix))),
                            subagent.map_or(Cell::Null, |s| Cell::Text(Cow::Owned(s))),
                        ];
                        // The UTC day, named once per run of rows on one day.
                        let number = day_number(node.timestamp);
                        let at = match day_of {
                            Some((n, at)) if n == number => at,
                            _ => {
                                let day = crate::stats::report::day(
                                    node.timestamp,
                                    &jiff::tz::TimeZone::UTC,
                                )
                                .filter(|_| node.timestamp > 0)
                                .unwrap_or_else(|| NO_DAY.to_string());
                                let at = match by_day.iter().position(|(d, _)| *d == day) {
                                    Some(at) => at,
                                    None => {
                                        // Room for the day's rows, with
                                        // texts as long as the day before's.
                                        let rows = days
                                            .iter()
                                            .find(|(n, _)| *n == number)
                                            .map_or(0, |d| d.1);
                                        let like = by_day.last().map(|(_, c)| c);
                                        let cols = Columns::with_rows(ENTRIES, rows, like);
                                        by_day.push((day, cols));
                                        by_day.len() - 1
                                    }
                                };
                                day_of = Some((number, at));
                                at
                            }
                        };
                        by_day[at].1.push(row);
                    }
                    Ok(by_day)
                },
            )?;
            // Each core's rows of a day go on as a piece of their own, in
            // order: the writer writes pieces one after the other, unmerged.
            Ok(parts.into_iter().flatten().collect())
        },
        sink,
    )
}

/// The number of an entry's UTC day (`u64::MAX` for an entry without a
/// time).
fn day_number(timestamp: u64) -> u64 {
    if timestamp > 0 {
        timestamp / 86_400_000
    } else {
        u64::MAX
    }
}

/// Hands `sink` what `make` makes of each of `items`, in order; `make` of
/// an item runs while `sink` takes the one before (the writer may encode a
/// partition then).
fn overlapped<I, T: Send>(
    items: impl IntoIterator<Item = I>,
    mut make: impl FnMut(I) -> io::Result<T>,
    sink: &mut (dyn FnMut(T) -> io::Result<()> + Send),
) -> io::Result<()> {
    std::thread::scope(|scope| {
        let mut sink = Some(sink);
        let mut writing: Option<std::thread::ScopedJoinHandle<'_, _>> = None;
        for item in items {
            let made = make(item)?;
            if let Some(done) = writing.take() {
                let (back, written) = done.join().expect("the writer does not panic");
                sink = Some(back);
                written?;
            }
            // (Back from the writer above, which is joined first.)
            let Some(sink) = sink.take() else {
                return Err(io::Error::other("the writer was not given back"));
            };
            writing = Some(scope.spawn(move || {
                let written = sink(made);
                (sink, written)
            }));
        }
        if let Some(done) = writing {
            done.join().expect("the writer does not panic").1?;
        }
        Ok(())
    })
}

/// The tree table's rows of one file of session `session`: where each of
/// its entries stands now (it needs no entry's facts, so it is made while
/// they are read).
pub fn tree_rows(repo: &Repo, path: &Path, session: &str) -> Columns {
    let tree = &repo.tree;
    let file = path.display().to_string();
    let on_head: Vec<bool> = {
        let mut on = vec![false; tree.len()];
        if let Some(head) = tree.head() {
            for ix in tree.path(head) {
                on[ix as usize] = true;
            }
        }
        on
    };
    let ixs = rows_of(repo);
    let mut tree_rows = Columns::with_rows(TREE, ixs.len(), None);
    for ix in ixs {
        let record = tree.is_record(ix);
        tree_rows.push([
            text(session),
            text(&file),
            text(tree.id(ix)),
            Cell::Bool(!record && tree.children(ix).is_empty()),
            Cell::Bool(on_head[ix as usize]),
            opt_text(
                Some(ix)
                    .filter(|_| !record)
                    .and_then(|ix| tree.fork_point(ix))
                    .map(|f| tree.id(f)),
            ),
            Cell::Texts(
                tree.labels_of(ix)
                    .iter()
                    .map(|l| Cow::Borrowed(&**l))
                    .collect(),
            ),
        ]);
    }
    tree_rows
}

fn text(s: &str) -> Cell<'_> {
    Cell::Text(Cow::Borrowed(s))
}

fn opt_text(s: Option<&str>) -> Cell<'_> {
    s.map_or(Cell::Null, text)
}

/// What one assistant line adds to its model call's usage.
struct Used {
    /// The line starts the call (the first line of a Claude Code response).
    turn: bool,
    input: i64,
    output: i64,
    cache_read: i64,
    cache_write: i64,
    cost: Option<f64>,
}

/// What an entry's row says of its account: its facts, where they were
/// read from its line; else the load's tally and the entry's tag (and, for
/// a tool result, the model of the entry whose call it answers).
#[derive(Debug, Clone, PartialEq)]
pub struct Said<'a> {
    /// The message's kind.
    pub kind: MessageKind,
    /// Milliseconds since the epoch.
    pub timestamp: u64,
    /// An assistant message's model; a tool result's call's.
    pub model: Option<&'a str>,
    /// Tokens an assistant message records.
    pub usage: crate::format::message::Usage,
    /// Dollars, where the format records a cost.
    pub cost: Option<f64>,
    /// The model has no price ([`Facts::unpriced`](crate::stats::Facts)).
    pub unpriced: bool,
    /// The tool calls an assistant message makes.
    pub calls: usize,
    /// A tool result: its tool and whether it is an error.
    pub result: Option<(&'a str, bool)>,
    /// A tool result: the id of the call it answers.
    pub call: Option<&'a str>,
    /// Claude Code: the response an assistant line is part of.
    pub response: Option<&'a str>,
}

/// What the row of entry `ix` of `src` says of its account; `None` for an
/// entry without one (bookkeeping).
pub fn said<'a>(src: &Source<'a>, ix: Ix) -> Option<Said<'a>> {
    if let Some(f) = src.facts.get(ix as usize).and_then(Option::as_ref) {
        return Some(Said {
            kind: f.kind,
            timestamp: f.timestamp,
            model: f.model.as_deref(),
            usage: f.usage,
            cost: f.cost,
            unpriced: f.unpriced,
            calls: f.calls.len(),
            result: f
                .result
                .as_ref()
                .map(|(tool, error)| (tool.as_str(), *error)),
            call: f.call.as_deref(),
            response: f.response.as_deref(),
        });
    }
    let sparse = src.sparse?;
    let (repo, tree) = (src.repo, &src.repo.tree);
    let (kind, timestamp) = (tree.node(ix).kind, tree.node(ix).timestamp);
    let tally = repo.tally(ix)?;
    match kind {
        MessageKind::Assistant => Some(Said {
            kind,
            timestamp,
            model: Some(tree.tag(ix)),
            usage: tally.usage,
            cost: tally.cost,
            unpriced: false,
            calls: tally.calls.len(),
            result: None,
            call: None,
            response: None,
        }),
        MessageKind::ToolResult => {
            let answered = sparse.answers.get(ix as usize).copied().flatten();
            let tool = match tree.tag(ix) {
                "" => sparse
                    .tools
                    .binary_search_by_key(&ix, |(at, _)| *at)
                    .map_or("", |at| sparse.tools[at].1.as_str()),
                tag => tag,
            };
            Some(Said {
                kind,
                timestamp,
                model: answered.and_then(|from| crate::stats::model_of(repo, src.facts, from)),
                usage: Default::default(),
                cost: None,
                unpriced: false,
                calls: 0,
                result: Some((tool, tally.is_error)),
                call: Some(&tally.call),
                response: None,
            })
        }
        MessageKind::User | MessageKind::Custom => None,
    }
}

/// The total of the entries `counted` of `src` ([`Session::of_total`]), as
/// [`crate::stats::Account::of`] counts it from their facts: the first and
/// last times of the entries with an account, and the tokens and cost of
/// each model call (a Claude Code response once, with its last line's).
pub fn total(src: &Source<'_>, mut counted: Vec<Ix>) -> Total {
    counted.sort_unstable();
    counted.dedup();
    let mut total = Total::default();
    let add = |total: &mut Total, f: &Said<'_>| {
        total.usage.add(&f.usage);
        if let Some(c) = f.cost {
            total.cost = Some(total.cost.unwrap_or(0.0) + c);
        }
        if f.unpriced {
            total
                .unpriced
                .insert(f.model.unwrap_or_default().to_string());
        }
    };
    let mut calls = crate::stats::Calls::default();
    for ix in counted {
        let Some(f) = said(src, ix) else {
            continue;
        };
        crate::stats::widen(&mut total.first, &mut total.last, f.timestamp);
        if f.kind == MessageKind::Assistant
            && let Some(f) = calls.take(f.response, f)
        {
            add(&mut total, &f);
        }
    }
    for f in calls.responses() {
        add(&mut total, &f);
    }
    total
}

impl Used {
    /// The usage of `now` beyond the line `prior` of the same call.
    fn since(now: &Said<'_>, prior: Option<&Said<'_>>) -> Used {
        let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        let (u, p) = (&now.usage, prior.map(|p| p.usage).unwrap_or_default());
        Used {
            turn: prior.is_none(),
            input: n(u.input) - n(p.input),
            output: n(u.output) - n(p.output),
            cache_read: n(u.cache_read) - n(p.cache_read),
            cache_write: n(u.cache_write) - n(p.cache_write),
            cost: match (now.cost, prior.and_then(|p| p.cost)) {
                (Some(c), Some(p)) => Some(c - p),
                (c, _) => c,
            },
        }
    }
}

impl<'a> Cell<'a> {
    /// Null for empty text.
    fn non_empty(self) -> Cell<'a> {
        match self {
            Cell::Text(t) if t.is_empty() => Cell::Null,
            c => c,
        }
    }
}

/// The sessions table's row of a session, as `ls` says it.
pub fn session_row(
    s: &Session,
    head: Option<&str>,
    escape: &(dyn for<'s> Fn(&'s str) -> Cow<'s, str> + Sync),
) -> Columns {
    let int = |n: u64| Cell::Int(i64::try_from(n).unwrap_or(i64::MAX));
    let time = |t: Option<u64>| t.map_or(Cell::Null, int);
    let mut rows = Columns::new(SESSIONS);
    rows.push(vec![
        Cell::Text(Cow::Borrowed(&s.id)),
        Cell::Text(s.path.to_string_lossy()),
        s.project
            .as_deref()
            .map_or(Cell::Null, |p| Cell::Text(Cow::Borrowed(p))),
        time(s.started),
        time(s.last),
        int(s.entries),
        int(s.branches as u64),
        int(s.usage.input),
        int(s.usage.output),
        int(s.usage.cache_read),
        int(s.usage.cache_write),
        s.cost.map_or(Cell::Null, Cell::Float),
        s.title
            .as_deref()
            .map_or(Cell::Null, |t| Cell::Text(escape(t))),
        head.map_or(Cell::Null, |h| Cell::Text(Cow::Borrowed(h))),
    ]);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_string_is_counted_as_decoding_it_counts() {
        for text in crate::testing::ODD_TEXTS {
            let literal = serde_json::to_string(text).unwrap();
            assert_eq!(
                json_string_chars(&literal),
                Some(text.chars().count()),
                "{literal}"
            );
            // Every character escaped as \uXXXX (pairs for the others).
            let escaped: String = text.encode_utf16().map(|u| format!("\\u{u:04x}")).collect();
            let literal = format!("\"{escaped}\"");
            assert_eq!(
                json_string_chars(&literal),
                Some(text.chars().count()),
                "{literal}"
            );
        }
        for bad in [
            r#""\ud800""#,
            r#""\udc00x""#,
            r#""\ud800\u0041""#,
            r#""a"b""#,
            "nope",
        ] {
            assert_eq!(json_string_chars(bad), None, "{bad}");
            assert!(serde_json::from_str::<String>(bad).is_err(), "{bad}");
        }
    }

    /// pi lines whose usage or error flag `stats` reads otherwise than the
    /// scanner's usual shape: each gives up its tally (or reads it as
    /// `stats` does), never the line.
    const ODD_PI: &str = r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-12-01T00:00:01.000Z","message":{"role":"user","content":"tab\there \"q\" \ud83d\ude80 é","timestamp":1}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-12-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"x"}],"model":"m","usage":{"input":1.5,"output":2},"stopReason":"stop","timestamp":2}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-12-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"y"}],"model":"m","usage":{"input":1,"output":2,"cacheRead":null,"cost":{"total":null}},"stopReason":"stop","timestamp":3}}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-12-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"ls","arguments":{}}],"model":"m","usage":{"input":1,"output":2,"cache_read":7,"cost":{"total":0.1,"total":0.2}},"stopReason":"toolUse","timestamp":4}}
{"type":"message","id":"r1","parentId":"a3","timestamp":"2026-12-01T00:00:05.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"ls","content":[{"type":"text","text":"ok"}],"isError":"yes","timestamp":5}}
{"type":"message","id":"r2","parentId":"r1","timestamp":"2026-12-01T00:00:06.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"ls","content":[{"type":"text","text":"ok"}],"isError":null,"timestamp":6}}
{"type":"message","id":"a4","parentId":"r2","timestamp":"2026-12-01T00:00:07.000Z","message":{"role":"assistant","content":[],"model":"m","usage":{"input":1,"output":2,"cost":{"total":0.30000000000000004}},"usage":{"input":3,"output":4},"stopReason":"stop","timestamp":7}}
{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-12-01T00:00:08.000Z","message":{"role":"assistant","content":[],"model":"m","usage":{"input":-1,"output":2,"cost":"free"},"stopReason":"stop","timestamp":8}}
{"type":"message","id":"a6","parentId":"a5","timestamp":"2026-12-01T00:00:09.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"grep","arguments":{}}],"model":"n","usage":{"input":3,"output":4},"stopReason":"toolUse","timestamp":9}}
{"type":"message","id":"r3","parentId":"a6","timestamp":"2026-12-01T00:00:10.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":10}}
{"type":"message","id":"r4","parentId":"r3","timestamp":"2026-12-01T00:00:11.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"ls","content":[{"type":"text","text":"late"}],"isError":true,"timestamp":11}}
"#;

    /// The yoagent and pi fixtures and a file of odd pi lines (written in
    /// `dir`), each loaded with the tallies the export asks for.
    fn tallied_fixtures(dir: &Path) -> Vec<(std::path::PathBuf, Repo)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let odd = dir.join("odd-pi.jsonl");
        std::fs::write(&odd, ODD_PI).expect("writes");
        let files = [
            "demo.jsonl",
            "medium.jsonl",
            "small-forked.jsonl",
            "moves.jsonl",
            "linear.jsonl",
            "pi/demo.jsonl",
            "pi/handmade.jsonl",
            "pi/v1.jsonl",
            "pi/v2.jsonl",
        ]
        .map(|name| root.join(name));
        let once = crate::repo::Open::default().once(u64::MAX).tallies(true);
        files
            .into_iter()
            .chain([odd])
            .map(|path| {
                let repo = Repo::open(&path, &once).expect("loads");
                (path, repo)
            })
            .collect()
    }

    #[test]
    fn tallies_taken_in_the_check_equal_what_the_lines_say() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut tallied = 0;
        for (path, repo) in tallied_fixtures(dir.path()) {
            let path = &path;
            let plain = Repo::open(path, &crate::repo::Open::default()).expect("opens");
            assert_eq!(
                crate::stats::read(&repo).expect("reads"),
                crate::stats::read(&plain).expect("reads"),
                "{}",
                path.display()
            );
            for ix in 0..repo.tree.len() as Ix {
                let Some(tally) = repo.tally(ix) else {
                    continue;
                };
                let entry = plain.entry(ix).expect("reads");
                assert_eq!(
                    tally.text,
                    text_len(&entry.message) as u64,
                    "{} line {}",
                    path.display(),
                    repo.tree.node(ix).line
                );
                tallied += 1;
            }
        }
        assert!(tallied > 100, "{tallied} entries tallied");
    }

    #[test]
    fn rows_said_from_tallies_equal_rows_said_from_the_facts_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut spared = 0;
        for (path, repo) in tallied_fixtures(dir.path()) {
            let path = &path;
            let facts = crate::stats::read(&repo).expect("reads");
            let mut sparse = crate::stats::read_sparse(&repo).expect("reads");
            let few = std::mem::take(&mut sparse.facts);
            let source = |facts, sparse| Source {
                repo: &repo,
                path,
                facts,
                sparse,
                session: "s",
                subagent: None,
                from: 0,
                until: u64::MAX,
            };
            let (whole, lean) = (source(&facts, None), source(&few, Some(&sparse)));
            for ix in 0..repo.tree.len() as Ix {
                let line = repo.tree.node(ix).line;
                assert_eq!(
                    said(&lean, ix),
                    said(&whole, ix),
                    "{} line {line}",
                    path.display()
                );
                spared += usize::from(few[ix as usize].is_none() && facts[ix as usize].is_some());
            }
            let counted = crate::stats::report::counted_own(&repo);
            let account = crate::stats::Account::of(&facts, counted.clone());
            let expected = Total {
                first: account.first,
                last: account.last,
                usage: account.usage,
                cost: account.cost,
                unpriced: account.unpriced.keys().cloned().collect(),
            };
            assert_eq!(
                total(&lean, counted.clone()),
                expected,
                "{}",
                path.display()
            );
            assert_eq!(total(&whole, counted), expected, "{}", path.display());
        }
        assert!(spared > 100, "{spared} entries read from their tallies");
    }

    #[test]
    fn the_lean_text_length_is_the_length_of_the_text_read_whole() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut leaned = 0;
        for name in [
            "demo.jsonl",
            "medium.jsonl",
            "small-forked.jsonl",
            "pi/demo.jsonl",
            "pi/handmade.jsonl",
            "pi/v1.jsonl",
            "pi/v2.jsonl",
            "claude/session.jsonl",
            "claude/today.jsonl",
            "claude/compacted.jsonl",
            "claude/delegates.jsonl",
            "claude/commands.jsonl",
        ] {
            let repo = Repo::open(root.join(name), &crate::repo::Open::default()).expect("opens");
            for ix in 0..repo.tree.len() as Ix {
                let line = repo.line(ix).expect("reads");
                let Ok(entry) = repo.entry_from(ix, &line) else {
                    continue;
                };
                if let Some(len) = lean_text_len(&line, repo.format) {
                    assert_eq!(
                        len,
                        text_len(&entry.message),
                        "{name} line {}",
                        repo.tree.node(ix).line
                    );
                    leaned += 1;
                }
            }
        }
        assert!(leaned > 100, "{leaned} lines read lean");
    }
}
