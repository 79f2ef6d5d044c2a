//! The tool calls and results of a session as its lines are read: call
//! ids by their hash (the text kept for messages), for the checks that pair
//! each result with its call.

use std::hash::BuildHasher;

use crate::format::read::{Facts, Span, Verdicts};
use crate::tree::Ix;

/// What the tool-call checks need: call ids by their hash (the text is kept
/// for messages), in file order.
#[derive(Default)]
pub(crate) struct ToolFacts {
    pub(crate) text: String,
    /// (assistant entry, call id hash, call id) for every tool call.
    pub(crate) calls: Vec<(Ix, u64, Span)>,
    /// (tool result entry, hash of the call id it answers, that id).
    pub(crate) answers: Vec<(Ix, u64, Span)>,
    hasher: foldhash::quality::FixedState,
}

impl ToolFacts {
    pub(crate) fn remember(&mut self, ix: Ix, facts: &Facts, v: &Verdicts) {
        for call in &v.calls[facts.calls.start as usize..facts.calls.end as usize] {
            let id = call.of(&v.text);
            let span = Span::keep(&mut self.text, id);
            self.calls.push((ix, self.hasher.hash_one(id), span));
        }
        if let Some(answer) = facts.answers {
            let id = answer.of(&v.text);
            let span = Span::keep(&mut self.text, id);
            self.answers.push((ix, self.hasher.hash_one(id), span));
        }
    }

    /// [`ToolFacts::remember`] for an entry restated by a later line: what
    /// its earlier line said is forgotten, and the lists stay in entry order.
    pub(crate) fn restate(&mut self, ix: Ix, facts: &Facts, v: &Verdicts) {
        let mut later = ToolFacts {
            hasher: self.hasher.clone(),
            ..ToolFacts::default()
        };
        later.remember(ix, facts, v);
        for (ours, theirs) in [
            (&mut self.calls, later.calls),
            (&mut self.answers, later.answers),
        ] {
            ours.retain(|c| c.0 != ix);
            let at = ours.partition_point(|c| c.0 < ix);
            let moved: Vec<(Ix, u64, Span)> = theirs
                .into_iter()
                .map(|(ix, hash, span)| {
                    let id = span.of(&later.text).to_string();
                    (ix, hash, Span::keep(&mut self.text, &id))
                })
                .collect();
            ours.splice(at..at, moved);
        }
    }

    /// [`ToolFacts::remember`] for an entry whose line is no longer at hand
    /// (one joined after the lines that followed it).
    pub(crate) fn remember_owned(&mut self, ix: Ix, calls: &[String], answer: Option<&str>) {
        for id in calls {
            let span = Span::keep(&mut self.text, id);
            self.calls
                .push((ix, self.hasher.hash_one(id.as_str()), span));
        }
        if let Some(id) = answer {
            let span = Span::keep(&mut self.text, id);
            self.answers.push((ix, self.hasher.hash_one(id), span));
        }
    }

    /// Entries in file order, so both lists are sorted by entry.
    pub(crate) fn calls_of(&self, ix: Ix) -> &[(Ix, u64, Span)] {
        let from = self.calls.partition_point(|c| c.0 < ix);
        let to = self.calls.partition_point(|c| c.0 <= ix);
        &self.calls[from..to]
    }

    pub(crate) fn answer_of(&self, ix: Ix) -> Option<u64> {
        let at = self.answers.binary_search_by_key(&ix, |a| a.0).ok()?;
        Some(self.answers[at].1)
    }
}
