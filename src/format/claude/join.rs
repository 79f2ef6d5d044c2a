//! How a Claude Code file joins the tree. Claude Code reads its file into a
//! map by `uuid` and follows `parentUuid` from the leaf it resumes, so what
//! it can lose is a parent that is nowhere or a cycle, never an order:
//!
//! - an entry whose parent comes later in the file (an `attachment` written
//!   before the line it hangs from) waits for it and joins right after it;
//! - a parent that no line of the file defines (a subagent's thread whose
//!   parent is in the session's file, a session resumed from another) is a
//!   warning, `danglingParent`, and the entry starts a root; so is a
//!   compaction whose `logicalParentUuid` names no line;
//! - a cycle of parents is an error (`unknownParent`): Claude Code would
//!   never reach those entries from a leaf;
//! - the results of a reply that calls several tools at once are one turn:
//!   Claude Code hangs each `tool_result` line from the line that carries its
//!   call and goes on from the last result, which leaves every other result a
//!   dead end; ysess hangs each result from the turn's line before it, so the
//!   turn reads as one chain and only a real fork (`/rewind`, an edited
//!   prompt) is a branch. Claude Code runs a call's tool while the model
//!   still writes the reply, so a result may be written between the reply's
//!   lines, and the reply's next line hangs from it: while some of the
//!   turn's calls wait for their results, such a line goes on with the turn
//!   (measured with Claude Code 2.1.328: the agent tests' `parallel`);
//! - a tool result takes its call's tool name (Anthropic's `tool_result`
//!   names only the call);
//! - in a session's own file, a subagent's lines (`isSidechain`) are folded
//!   out of the user's tree; a subagent's file (whose first entry is a
//!   sidechain line) is a conversation of its own.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use hashbrown::{HashMap, HashSet};

use crate::format::MessageKind;
use crate::format::finding::{Code, Finding, link_finding};
use crate::format::tools::ToolFacts;
use crate::tree::{Ix, Link, NewEntry, TreeBuilder};

/// No turn.
const NONE: u32 = u32::MAX;

/// What the tree needs of a Claude Code line beyond a [`NewEntry`].
pub(crate) struct Extras<'a> {
    pub(crate) sidechain: bool,
    pub(crate) logical_parent: bool,
    pub(crate) calls: Vec<&'a str>,
    pub(crate) names: Vec<&'a str>,
    pub(crate) answer: Option<&'a str>,
    /// The model a bookkeeping line sets for the outputs after it.
    pub(crate) model: Option<&'a str>,
    /// The model of outputs no line has named one for
    /// ([`crate::Format::assumed_model`]).
    pub(crate) assumed_model: Option<&'static str>,
}

/// Where a line is, for its findings.
#[derive(Clone, Copy)]
pub(crate) struct At {
    pub(crate) line: u64,
    pub(crate) offset: u64,
    pub(crate) indent: usize,
}

impl At {
    fn finding(self, code: Code, id: &str, message: String) -> Finding {
        Finding {
            code,
            line: Some(self.line),
            offset: Some(self.offset + self.indent as u64),
            id: Some(id.to_string()),
            message,
            remedy: None,
        }
    }
}

/// An entry waiting for its parent, owning what it will join with.
struct Waiting {
    id: String,
    parent: String,
    timestamp: u64,
    kind: MessageKind,
    offset: u64,
    len: u64,
    tag: Option<String>,
    subject: Option<String>,
    record: bool,
    calls: Vec<String>,
    names: Vec<String>,
    answer: Option<String>,
    at: At,
}

#[derive(Default)]
pub(crate) struct Join {
    /// Whether the file is a subagent's own, from its first entry.
    subagent: Option<bool>,
    /// Entries waiting for a parent not joined yet, by that parent's id.
    waiting: HashMap<String, Vec<Waiting>>,
    /// The turn of each joined entry ([`NONE`] for none), by index.
    turn_of: Vec<u32>,
    /// The last entry of each turn.
    tails: Vec<Ix>,
    /// The calls of each turn that no result has answered yet.
    open: Vec<HashSet<String>>,
    /// Tool names by call id.
    names: HashMap<String, String>,
    /// The model the last line that names one set (Codex's
    /// `turn_context`), for model outputs that do not name theirs.
    model: Option<String>,
}

impl Join {
    /// Joins one line's entry, or keeps it until its parent has joined.
    pub(crate) fn join(
        &mut self,
        builder: &mut TreeBuilder,
        tools: &mut ToolFacts,
        findings: &mut Vec<Finding>,
        mut e: NewEntry<'_>,
        extras: Extras<'_>,
        at: At,
    ) {
        let subagent = *self.subagent.get_or_insert(extras.sidechain);
        e.record |= extras.sidechain && !subagent;
        if let Some(parent) = e.parent
            && parent != e.id
            && builder.line_of(parent).is_none()
        {
            if extras.logical_parent {
                findings.push(at.finding(
                    Code::DanglingParent,
                    e.id,
                    format!(
                        "entry {}: the compaction continues {parent}, which is not in this file; it starts a root here",
                        e.id
                    ),
                ));
                e.parent = None;
            } else {
                let own = |s: &str| s.to_string();
                self.waiting
                    .entry(parent.to_string())
                    .or_default()
                    .push(Waiting {
                        id: own(e.id),
                        parent: own(parent),
                        timestamp: e.timestamp,
                        kind: e.kind,
                        offset: e.offset,
                        len: e.len,
                        tag: e.tag.map(own),
                        subject: e.subject.map(own),
                        record: e.record,
                        calls: extras.calls.iter().copied().map(own).collect(),
                        names: extras.names.iter().copied().map(own).collect(),
                        answer: extras.answer.map(own),
                        at,
                    });
                return;
            }
        }
        let id = e.id.to_string();
        if self
            .push(builder, tools, findings, e, &extras, at)
            .is_some()
        {
            self.release(builder, tools, findings, id);
        }
    }

    /// Joins an entry whose parent has joined (or that has none).
    fn push(
        &mut self,
        builder: &mut TreeBuilder,
        tools: &mut ToolFacts,
        findings: &mut Vec<Finding>,
        e: NewEntry<'_>,
        extras: &Extras<'_>,
        at: At,
    ) -> Option<Ix> {
        if let Some(model) = extras.model {
            self.model = Some(model.to_string());
        }
        let named = self.tool_or_model(&e, extras);
        // A result of a turn that went on since the line it hangs from
        // joins the turn where it stands.
        let parent_turn = e.parent.and_then(|p| builder.user_entry(p)).map(|p| {
            let turn = self.turn_of.get(p as usize).copied().unwrap_or(NONE);
            (p, turn)
        });
        let tail = match parent_turn {
            Some((p, turn))
                if e.kind == MessageKind::ToolResult
                    && !e.record
                    && turn != NONE
                    && self.tails[turn as usize] != p =>
            {
                Some(builder.id(self.tails[turn as usize]).to_string())
            }
            _ => None,
        };
        let mut e = e;
        if let Some(name) = &named {
            e.tag = Some(name);
        }
        if let Some(tail) = &tail {
            e.parent = Some(tail);
        }
        let (kind, record) = (e.kind, e.record);
        let (id, parent) = (e.id, e.parent);
        match builder.push(e) {
            Ok(ix) => {
                self.remember_calls(tools, ix, extras);
                if !record {
                    self.join_turn(builder, ix, kind, parent_turn, extras);
                }
                Some(ix)
            }
            // Claude Code reads its file into a map by `uuid`: a line that
            // repeats one (a session resumed into the same file) is read
            // over the first, and nothing else is lost. ysess keeps the
            // first where it stands.
            Err(Link::DuplicateId { first_line }) => {
                findings.push(at.finding(
                    Code::RepeatedUuid,
                    id,
                    format!(
                        "uuid {id} is already on line {first_line}: Claude Code reads the later line in its place; ysess shows the first"
                    ),
                ));
                None
            }
            Err(link) => {
                findings.push(link_finding(
                    at.line, at.offset, at.indent, id, parent, &link,
                ));
                None
            }
        }
    }

    /// The tag an entry is shown with when its line has none: a result's
    /// tool (by the call it answers), a reply's model.
    #[inline]
    fn tool_or_model(&self, e: &NewEntry<'_>, extras: &Extras<'_>) -> Option<String> {
        match e.kind {
            _ if !e.tag.is_none_or(str::is_empty) => None,
            MessageKind::ToolResult => extras.answer.and_then(|call| self.names.get(call).cloned()),
            MessageKind::Assistant => self
                .model
                .clone()
                .or_else(|| extras.assumed_model.map(str::to_string)),
            _ => None,
        }
    }

    /// Remembers a joined entry's calls and answer, and the tools its
    /// calls name.
    #[inline]
    fn remember_calls(&mut self, tools: &mut ToolFacts, ix: Ix, extras: &Extras<'_>) {
        tools.remember_owned(
            ix,
            &extras
                .calls
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>(),
            extras.answer,
        );
        for (call, name) in extras.calls.iter().zip(&extras.names) {
            if !name.is_empty() {
                self.names.insert(call.to_string(), name.to_string());
            }
        }
        self.turn_of.resize(ix as usize + 1, NONE);
    }

    /// Puts a joined entry of the user's in its turn: a reply's next line
    /// or a result joins its parent's turn, a reply's first line starts
    /// one; the turn's calls still open follow.
    #[inline]
    fn join_turn(
        &mut self,
        builder: &TreeBuilder,
        ix: Ix,
        kind: MessageKind,
        parent_turn: Option<(Ix, u32)>,
        extras: &Extras<'_>,
    ) {
        let turn = match (kind, parent_turn) {
            (MessageKind::Assistant, Some((p, turn)))
                if turn != NONE
                    && (builder.node(p).kind == MessageKind::Assistant
                        || !self.open[turn as usize].is_empty()) =>
            {
                // The next line of the same reply: it hangs from
                // a line of the reply, or (Claude Code runs a
                // call's tool while the model still writes) from
                // a result while the reply's other calls wait.
                Some(turn)
            }
            (MessageKind::Assistant, _) => {
                self.tails.push(ix);
                self.open.push(HashSet::new());
                Some(self.tails.len() as u32 - 1)
            }
            (MessageKind::ToolResult, Some((_, turn))) if turn != NONE => Some(turn),
            _ => None,
        };
        if let Some(turn) = turn {
            self.turn_of[ix as usize] = turn;
            self.tails[turn as usize] = ix;
            let open = &mut self.open[turn as usize];
            if kind == MessageKind::Assistant {
                open.extend(extras.calls.iter().map(|c| c.to_string()));
            } else if let Some(call) = extras.answer {
                open.remove(call);
            }
        }
    }

    /// Joins every entry that waited for `id`, and those that waited for
    /// them, nearest the start of the file first.
    fn release(
        &mut self,
        builder: &mut TreeBuilder,
        tools: &mut ToolFacts,
        findings: &mut Vec<Finding>,
        id: String,
    ) {
        let mut ready: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
        let mut held: Vec<Option<Waiting>> = Vec::new();
        self.hold(&id, &mut ready, &mut held);
        while let Some(Reverse((_, k))) = ready.pop() {
            let Some(w) = held[k].take() else { continue };
            if self.push_waiting(builder, tools, findings, &w, Some(&w.parent)) {
                self.hold(&w.id, &mut ready, &mut held);
            }
        }
    }

    /// Joins an entry that waited, hung from `parent`; whether it joined.
    fn push_waiting(
        &mut self,
        builder: &mut TreeBuilder,
        tools: &mut ToolFacts,
        findings: &mut Vec<Finding>,
        w: &Waiting,
        parent: Option<&str>,
    ) -> bool {
        let extras = Extras {
            sidechain: false,
            logical_parent: false,
            calls: w.calls.iter().map(String::as_str).collect(),
            names: w.names.iter().map(String::as_str).collect(),
            answer: w.answer.as_deref(),
            model: None,
            // Only Claude Code's entries wait for a parent.
            assumed_model: None,
        };
        let e = NewEntry {
            id: &w.id,
            parent,
            label: None,
            timestamp: w.timestamp,
            kind: w.kind,
            line: w.at.line,
            offset: w.offset,
            len: w.len,
            tag: w.tag.as_deref(),
            subject: w.subject.as_deref(),
            record: w.record,
            target: None,
        };
        self.push(builder, tools, findings, e, &extras, w.at)
            .is_some()
    }

    /// Moves the entries waiting for `parent` to `held`, in line order.
    fn hold(
        &mut self,
        parent: &str,
        ready: &mut BinaryHeap<Reverse<(u64, usize)>>,
        held: &mut Vec<Option<Waiting>>,
    ) {
        for w in self.waiting.remove(parent).unwrap_or_default() {
            ready.push(Reverse((w.at.line, held.len())));
            held.push(Some(w));
        }
    }

    /// Joins what still waits once the whole file is read: entries whose
    /// parent no line defines start roots (a warning), and entries in a
    /// cycle of parents join as roots too, each an error.
    pub(crate) fn finish(
        &mut self,
        builder: &mut TreeBuilder,
        tools: &mut ToolFacts,
        findings: &mut Vec<Finding>,
    ) {
        let waiting: HashSet<String> = self
            .waiting
            .values()
            .flatten()
            .map(|w| w.id.clone())
            .collect();
        let mut nowhere: Vec<String> = self
            .waiting
            .keys()
            .filter(|parent| !waiting.contains(*parent))
            .cloned()
            .collect();
        // In file order of the first line that names each.
        nowhere.sort_by_key(|p| self.waiting[p].iter().map(|w| w.at.line).min());
        for parent in nowhere {
            self.root_all(builder, tools, findings, &parent, |w| {
                w.at.finding(
                    Code::DanglingParent,
                    &w.id,
                    format!(
                        "entry {}: parent {} is not in this file (Claude Code reads it as a root)",
                        w.id, w.parent
                    ),
                )
            });
        }
        // What is left hangs in cycles.
        while let Some(parent) = self
            .waiting
            .iter()
            .min_by_key(|(_, ws)| ws.iter().map(|w| w.at.line).min())
            .map(|(p, _)| p.clone())
        {
            self.root_all(builder, tools, findings, &parent, |w| {
                w.at.finding(
                    Code::UnknownParent,
                    &w.id,
                    format!(
                        "entry {}: its parents form a cycle through {}; Claude Code reaches none of them from a leaf",
                        w.id, w.parent
                    ),
                )
            });
        }
    }

    /// Joins every entry waiting for `parent` as a root, with the finding
    /// `why` makes, and then all that waited for them.
    fn root_all(
        &mut self,
        builder: &mut TreeBuilder,
        tools: &mut ToolFacts,
        findings: &mut Vec<Finding>,
        parent: &str,
        why: impl Fn(&Waiting) -> Finding,
    ) {
        for w in self.waiting.remove(parent).unwrap_or_default() {
            findings.push(why(&w));
            if self.push_waiting(builder, tools, findings, &w, None) {
                self.release(builder, tools, findings, w.id.clone());
            }
        }
    }
}
