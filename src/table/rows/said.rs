//! What an entry's row says of its account (model, usage, cost, tool
//! call or result), from its facts or from the load's tally; what a line
//! adds to its model call; and the total of a session's entries.

use super::Source;
use crate::fleet::sessions::Total;
use crate::format::MessageKind;
use crate::tree::Ix;

/// What one assistant line adds to its model call's usage.
pub(super) struct Used {
    /// The line starts the call (the first line of a Claude Code response).
    pub(super) turn: bool,
    pub(super) input: i64,
    pub(super) output: i64,
    pub(super) cache_read: i64,
    pub(super) cache_write: i64,
    pub(super) cost: Option<f64>,
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

/// The total of the entries `counted` of `src` ([`Session::of_total`](crate::fleet::sessions::Session::of_total)), as
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
    pub(super) fn since(now: &Said<'_>, prior: Option<&Said<'_>>) -> Used {
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
