//! Which entries `log` keeps: its filters, combined (an entry is kept when
//! it passes every filter given).

use crate::format::MessageKind;
use crate::format::message::{Entry, Message};

use super::{Pattern, text_blocks};

/// `log`'s filters.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// `--grep`: the message text matches one of them (all of them with
    /// `all_match`).
    pub grep: Vec<Pattern>,
    /// `--grep`: patterns the entry's text matches.
    pub all_match: bool,
    /// `--role`: only these roles.
    pub roles: Vec<MessageKind>,
    /// `--tool`: an assistant message that calls it, or its result.
    pub tool: Option<String>,
    /// `--model`: assistant messages of this model.
    pub model: Option<String>,
    /// `--since`, `--until`: milliseconds since the epoch, both included.
    pub since: Option<i64>,
    /// `--all-match`: every pattern must match (else any).
    pub until: Option<i64>,
    /// `--labelled`: entries a label names.
    pub labelled: bool,
    /// `--min-tokens`: assistant messages whose usage (input, output,
    /// cache read and write) adds up to at least this.
    pub min_tokens: Option<u64>,
}

/// What the tree tells of an entry, without reading it.
#[derive(Debug, Clone, Copy)]
pub struct Known<'a> {
    /// Its kind.
    pub kind: MessageKind,
    /// The model of an assistant message, the tool of a tool result.
    pub tag: &'a str,
    /// Milliseconds since the epoch.
    pub timestamp: u64,
    /// A label names it.
    pub labelled: bool,
}

impl Filter {
    /// Keeps the entries of `order` that pass: what the tree knows first,
    /// then (for `--grep`, `--tool`, `--min-tokens`) the entry read whole,
    /// its raw line first looked at by the patterns' raw forms. `names`
    /// says which entries a label names.
    pub fn retain(
        &self,
        repo: &crate::repo::Repo,
        names: &crate::refs::Names,
        order: &mut Vec<crate::tree::Ix>,
    ) -> std::io::Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        let tree = &repo.tree;
        let mut kept = Vec::with_capacity(order.len());
        for &ix in order.iter() {
            let node = tree.node(ix);
            let known = Known {
                kind: node.kind,
                tag: tree.tag(ix),
                timestamp: node.timestamp,
                labelled: !names.labels(ix).is_empty(),
            };
            if !self.keeps_known(known) {
                continue;
            }
            if self.reads_entries() {
                // ysess's records (shown with --markers) hold no message text.
                if tree.is_record(ix) {
                    continue;
                }
                let line = repo.line(ix)?;
                if !self.may_match_line(&line) || !self.keeps_entry(&repo.entry_from(ix, &line)?) {
                    continue;
                }
            }
            kept.push(ix);
        }
        *order = kept;
        Ok(())
    }

    /// Whether no filter is given.
    pub fn is_empty(&self) -> bool {
        self.grep.is_empty()
            && self.roles.is_empty()
            && self.tool.is_none()
            && self.model.is_none()
            && self.since.is_none()
            && self.until.is_none()
            && !self.labelled
            && self.min_tokens.is_none()
    }

    /// Whether what the tree knows already rules the entry out.
    pub fn keeps_known(&self, known: Known<'_>) -> bool {
        let ts = i64::try_from(known.timestamp).unwrap_or(i64::MAX);
        (self.roles.is_empty() || self.roles.contains(&known.kind))
            && self
                .model
                .as_ref()
                .is_none_or(|m| known.kind == MessageKind::Assistant && known.tag == m.as_str())
            && self.since.is_none_or(|s| ts >= s)
            && self.until.is_none_or(|u| ts <= u)
            && (!self.labelled || known.labelled)
            && (self.min_tokens.is_none() || known.kind == MessageKind::Assistant)
    }

    /// Whether the entry has to be read to decide.
    pub fn reads_entries(&self) -> bool {
        !self.grep.is_empty() || self.tool.is_some() || self.min_tokens.is_some()
    }

    /// Whether a raw line may pass the `--grep` filters (a cheap first
    /// look at the bytes, before the entry is decoded).
    pub fn may_match_line(&self, line: &[u8]) -> bool {
        let mut each = self.grep.iter().map(|p| p.may_match_line(line));
        if self.all_match {
            each.all(|m| m)
        } else {
            self.grep.is_empty() || each.any(|m| m)
        }
    }

    /// Whether the entry, read whole, passes the filters the tree cannot
    /// decide.
    pub fn keeps_entry(&self, entry: &Entry) -> bool {
        let message = &entry.message;
        if let Some(tool) = &self.tool
            && !super::tools(message).contains(&tool.as_str())
        {
            return false;
        }
        if let Some(min) = self.min_tokens {
            let Message::Assistant { usage, .. } = message else {
                return false;
            };
            let total = usage.input + usage.output + usage.cache_read + usage.cache_write;
            if total < min {
                return false;
            }
        }
        if self.grep.is_empty() {
            return true;
        }
        // Every block once, however many patterns; a line matches when any
        // match (an empty one too) is found in it, as `grep` finds them.
        let blocks = text_blocks(message);
        let mut matched = self.grep.iter().map(|p| {
            blocks
                .iter()
                .any(|b| b.text.split('\n').any(|line| p.is_match(line)))
        });
        if self.all_match {
            matched.all(|m| m)
        } else {
            matched.any(|m| m)
        }
    }
}
