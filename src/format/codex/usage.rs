//! Which model output each `token_count` event's usage belongs to.
//!
//! Codex records a model call's items (`reasoning`, `function_call`,
//! `message`) and, on a line of its own, the `token_count` event with the
//! call's usage; where that event falls depends on the version, as the real
//! rollouts in `tests/fixtures/codex/` show:
//!
//! - 0.34 and 0.42 write it *before* the call's items (0.42 also writes
//!   it again, the same totals, after the tool output that follows);
//! - 0.169 writes it *after* them: after the tool output a call asked
//!   for, or after its message.
//!
//! So no line's neighbour says which call an event counts. What holds in
//! every version: within a turn (from one user message to the next), the
//! calls and their events come in the same order. The k-th distinct event
//! of a turn is the usage of its k-th call, wherever it stands. An event
//! repeated (the same `total_token_usage` and `last_token_usage` as the
//! event before) counts once; an event with `info: null` counts nothing.
//! A call is a run of model outputs with nothing but bookkeeping between;
//! its usage is put on its first output, which is known as soon as the
//! call begins, so that an output's usage never moves to a later line as
//! the file grows.
//!
//! Events a turn has more of than calls (a compaction's call leaves no
//! output) are carried to the next call, so that a session's total is the
//! sum of its events, as ccusage counts it.

use crate::Ix;
use crate::format::message::Usage;

/// A rollout line as the attribution sees it.
#[derive(Debug, Clone, Copy)]
pub enum Seen {
    /// A model output: reasoning, a message of the assistant, a tool call.
    Output,
    /// A user message: a turn begins.
    Prompt,
    /// Anything else of the conversation (a tool's output, a compaction):
    /// the model call before it has ended.
    Break,
    /// A `token_count` event ([`super::token_count`]).
    Count(Option<Count>),
}

/// What a `token_count` event reports: the last call's usage and the
/// running total, each when present.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count {
    /// `last_token_usage`.
    pub last: Option<Usage>,
    /// `total_token_usage`.
    pub total: Option<Usage>,
}

/// The usage of each model call, on its first output.
#[derive(Debug, Clone, Default)]
pub struct Attributed {
    /// (the call's first output, its usage), in file order.
    pub usage: Vec<(Ix, Usage)>,
    /// Where the service tier changes to fast (`true`) or back, in file
    /// order ([`fast_tier`]): the outputs after it are served so.
    pub tiers: Vec<(Ix, bool)>,
    /// The first output, if any, whose usage a line appended later may
    /// still give: a call of the last turn whose event has not come yet.
    pub waiting: Option<Ix>,
}

impl Attributed {
    /// Whether output `ix` was served in fast mode: the last tier set
    /// before it.
    pub fn fast(&self, ix: Ix) -> bool {
        let k = self.tiers.partition_point(|(at, _)| *at < ix);
        k > 0 && self.tiers[k - 1].1
    }

    /// The usage put on output `ix` (none when it is not a call's first
    /// output, or its call has no event).
    pub fn of(&self, ix: Ix) -> Option<Usage> {
        self.usage
            .binary_search_by_key(&ix, |(at, _)| *at)
            .ok()
            .map(|k| self.usage[k].1)
    }
}

fn minus(a: Usage, b: Usage) -> Usage {
    Usage {
        input: a.input.saturating_sub(b.input),
        output: a.output.saturating_sub(b.output),
        cache_read: a.cache_read.saturating_sub(b.cache_read),
        cache_write: a.cache_write.saturating_sub(b.cache_write),
        cache_write_1h: a.cache_write_1h.saturating_sub(b.cache_write_1h),
        total_tokens: a.total_tokens.saturating_sub(b.total_tokens),
    }
}

fn plus(a: Usage, b: Usage) -> Usage {
    Usage {
        input: a.input + b.input,
        output: a.output + b.output,
        cache_read: a.cache_read + b.cache_read,
        cache_write: a.cache_write + b.cache_write,
        cache_write_1h: a.cache_write_1h + b.cache_write_1h,
        total_tokens: a.total_tokens + b.total_tokens,
    }
}

/// The calls and events of the turn being read.
#[derive(Default)]
struct Turn {
    /// Each call's first output, and its usage once paired.
    calls: Vec<(Ix, Option<Usage>)>,
    /// Events not paired with a call yet.
    counts: std::collections::VecDeque<Usage>,
    /// Whether the last line of the conversation was an output.
    in_call: bool,
}

/// Pairs the calls and events of `lines` (in file order).
pub fn attribute(lines: impl IntoIterator<Item = (Ix, Seen)>) -> Attributed {
    let mut out = Attributed::default();
    let mut turn = Turn::default();
    // The event before, to know a repeat; usage carried to the next call.
    let mut before: Option<Count> = None;
    let mut carried: Option<Usage> = None;
    let close = |turn: &mut Turn, out: &mut Attributed, carried: &mut Option<Usage>| {
        for (ix, used) in turn.calls.drain(..) {
            if let Some(used) = used {
                out.usage.push((ix, used));
            }
        }
        for extra in turn.counts.drain(..) {
            *carried = Some(carried.map_or(extra, |c| plus(c, extra)));
        }
        turn.in_call = false;
    };
    // Pairs what waits on both sides, in order; carried usage goes to the
    // first call paired after it.
    let pair = |turn: &mut Turn, carried: &mut Option<Usage>| {
        for call in turn.calls.iter_mut().filter(|c| c.1.is_none()) {
            let Some(used) = turn.counts.pop_front() else {
                break;
            };
            call.1 = Some(match carried.take() {
                Some(c) => plus(c, used),
                None => used,
            });
        }
    };
    for (ix, seen) in lines {
        match seen {
            Seen::Output => {
                if !turn.in_call {
                    turn.calls.push((ix, None));
                    turn.in_call = true;
                    pair(&mut turn, &mut carried);
                }
            }
            Seen::Prompt => close(&mut turn, &mut out, &mut carried),
            Seen::Break => turn.in_call = false,
            Seen::Count(None) => {}
            Seen::Count(Some(count)) => {
                if before == Some(count) {
                    continue;
                }
                let used = match (count.last, count.total, before.and_then(|b| b.total)) {
                    (Some(last), _, _) => last,
                    (None, Some(total), Some(was)) => minus(total, was),
                    (None, Some(total), None) => total,
                    (None, None, _) => Usage::default(),
                };
                before = Some(count);
                turn.counts.push_back(used);
                pair(&mut turn, &mut carried);
            }
        }
    }
    out.waiting = turn
        .calls
        .iter()
        .find(|(_, used)| used.is_none())
        .map(|(ix, _)| *ix);
    close(&mut turn, &mut out, &mut carried);
    out
}

/// The service tier a `thread_settings_applied` event's line sets: `Some`
/// (fast or not) where it names one, `None` for any other line. Codex 0.169
/// records `service_tier = "fast"` as `"priority"`; ccusage prices both as
/// fast mode, and so does ysess.
pub fn fast_tier(line: &[u8]) -> Option<bool> {
    let v: serde_json::Value = serde_json::from_slice(line).ok()?;
    let payload = &v["payload"];
    if payload["type"] != "thread_settings_applied" {
        return None;
    }
    let tier = payload["thread_settings"]["service_tier"].as_str();
    Some(matches!(tier, Some("fast" | "priority")))
}

/// The usage of a rollout's model calls, each on its first output, from
/// the `token_count` events wherever they stand; worked out once per
/// session ([`crate::repo::Repo::format_memo`]).
pub fn of_repo(repo: &dyn crate::format::session::Session) -> std::io::Result<&Attributed> {
    let memo = repo.format_memo();
    if let Some(done) = memo.get().and_then(|m| m.downcast_ref::<Attributed>()) {
        return Ok(done);
    }
    let tree = repo.tree();
    let all = 0..tree.len() as Ix;
    // The token counts, and the service tier where the rollout records
    // one (Codex 0.169's `thread_settings_applied` events), in one read.
    let events: Vec<Ix> = all
        .clone()
        .filter(|&ix| {
            tree.is_record(ix) && matches!(tree.tag(ix), "token_count" | "thread_settings_applied")
        })
        .collect();
    let mut counts = Vec::with_capacity(events.len());
    let mut tiers = Vec::new();
    repo.each_line(&events, &mut |ix, line| {
        if tree.tag(ix) == "token_count" {
            counts.push(super::token_count(line).flatten());
        } else if let Some(fast) = fast_tier(line) {
            tiers.push((ix, fast));
        }
        Ok(())
    })?;
    let mut counts = counts.into_iter();
    let lines = all.filter_map(|ix| {
        let seen = if tree.is_record(ix) {
            if tree.tag(ix) != "token_count" {
                return None;
            }
            Seen::Count(counts.next().flatten())
        } else {
            match tree.node(ix).kind {
                crate::MessageKind::Assistant => Seen::Output,
                crate::MessageKind::User => Seen::Prompt,
                crate::MessageKind::ToolResult | crate::MessageKind::Custom => Seen::Break,
            }
        };
        Some((ix, seen))
    });
    let mut attributed = attribute(lines);
    attributed.tiers = tiers;
    let kept = memo.get_or_init(|| Box::new(attributed));
    Ok(kept
        .downcast_ref::<Attributed>()
        .expect("the memo of a Codex rollout holds its usage"))
}

/// A model output's model and usage, which the rollout keeps on lines of
/// their own: the model the tree names it by (the last `turn_context`'s),
/// and its call's usage when it is the call's first output ([`of_repo`]).
pub fn fill_turn(
    repo: &dyn crate::format::session::Session,
    ix: Ix,
    message: &mut crate::format::message::Message,
) -> std::io::Result<()> {
    let crate::format::message::Message::Assistant {
        model, usage, fast, ..
    } = message
    else {
        return Ok(());
    };
    model.clear();
    model.push_str(repo.tree().tag(ix));
    let attributed = of_repo(repo)?;
    if let Some(used) = attributed.of(ix) {
        *usage = used;
    }
    *fast = attributed.fast(ix);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn used(input: u64, output: u64) -> Usage {
        Usage {
            input,
            output,
            total_tokens: input + output,
            ..Usage::default()
        }
    }

    fn count(last: Usage, total: Usage) -> Seen {
        Seen::Count(Some(Count {
            last: Some(last),
            total: Some(total),
        }))
    }

    /// Codex 0.42's order: each event before its call's items, repeated
    /// after the tool output.
    #[test]
    fn an_event_before_its_call_and_its_repeat_count_once() {
        let lines = [
            (1, Seen::Prompt),
            (2, Seen::Count(None)),
            (3, count(used(10, 1), used(10, 1))),
            (4, Seen::Output),
            (5, Seen::Output),
            (6, Seen::Break),
            (7, count(used(10, 1), used(10, 1))),
            (8, count(used(20, 2), used(30, 3))),
            (9, Seen::Output),
            (10, Seen::Output),
        ];
        let got = attribute(lines);
        assert_eq!(got.usage, vec![(4, used(10, 1)), (9, used(20, 2))]);
        assert_eq!(got.waiting, None);
    }

    /// Codex 0.169's order: each event after the tool output its call
    /// asked for, or after its message.
    #[test]
    fn an_event_after_the_tool_output_belongs_to_the_call_before() {
        let lines = [
            (1, Seen::Prompt),
            (2, Seen::Output),
            (3, Seen::Output),
            (4, Seen::Break),
            (5, count(used(10, 1), used(10, 1))),
            (6, Seen::Output),
            (7, Seen::Output),
        ];
        let got = attribute(lines);
        assert_eq!(got.usage, vec![(2, used(10, 1))]);
        assert_eq!(got.waiting, Some(6), "the second call waits for its event");
        let mut more = lines.to_vec();
        more.push((8, count(used(20, 2), used(30, 3))));
        more.push((9, Seen::Prompt));
        let got = attribute(more);
        assert_eq!(got.usage, vec![(2, used(10, 1)), (6, used(20, 2))]);
        assert_eq!(got.waiting, None);
    }

    #[test]
    fn a_resumed_session_whose_totals_start_again_counts_every_call() {
        let lines = [
            (1, Seen::Prompt),
            (2, count(used(10, 1), used(10, 1))),
            (3, Seen::Output),
            (4, Seen::Prompt),
            (5, count(used(12, 1), used(12, 1))),
            (6, Seen::Output),
        ];
        let got = attribute(lines);
        assert_eq!(got.usage, vec![(3, used(10, 1)), (6, used(12, 1))]);
    }

    #[test]
    fn an_event_without_its_last_usage_counts_the_change_of_the_total() {
        let total = |t| {
            Seen::Count(Some(Count {
                last: None,
                total: Some(t),
            }))
        };
        let lines = [
            (1, Seen::Prompt),
            (2, Seen::Output),
            (3, total(used(10, 1))),
            (4, Seen::Break),
            (5, Seen::Output),
            (6, total(used(25, 3))),
        ];
        let got = attribute(lines);
        assert_eq!(got.usage, vec![(2, used(10, 1)), (5, used(15, 2))]);
    }

    #[test]
    fn an_event_a_turn_has_no_call_for_goes_to_the_next_call() {
        let lines = [
            (1, Seen::Prompt),
            (2, Seen::Output),
            (3, count(used(10, 1), used(10, 1))),
            (4, Seen::Break),
            (5, count(used(5, 5), used(15, 6))),
            (6, Seen::Prompt),
            (7, Seen::Output),
            (8, count(used(20, 2), used(35, 8))),
        ];
        let got = attribute(lines);
        assert_eq!(got.usage, vec![(2, used(10, 1)), (7, used(25, 7))]);
    }
}
