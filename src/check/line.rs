//! One line's verdict taken into the check: its findings, and its entry
//! put in the tree ([`State::line`]).

use super::{Code, Finding, State};
use crate::format::claude::join as claude;
use crate::format::fault::{FaultKind, LineFault};
use crate::format::finding::link_finding;
use crate::format::read::{Facts, Line, Verdict, Verdicts};
use crate::tree::{Link, NewEntry};

impl State {
    pub(super) fn line(&mut self, line: Place, v: Verdict, block: &Verdicts) {
        let findings = &mut self.report.findings;
        if !matches!(v.line, Line::Blank) {
            self.last_nonblank = Some(line.offset);
            self.last_eof_finding = None;
        }
        let first = self.header_first.is_none() && !matches!(v.line, Line::Blank);
        if first {
            self.header_first = Some(matches!(v.line, Line::Header { .. }));
        }
        match v.line {
            Line::Blank => {}
            Line::Aside { unknown, title } => {
                if let Some(kind) = unknown {
                    self.unknown_type(kind, line);
                }
                // The last title the user gave wins over the app's summaries;
                // which summary is this session's is known once every
                // entry is (a summary may come before its leaf).
                match title {
                    Some(t) if t.given => self.title = Some(t),
                    Some(t) => self.summaries.push(t),
                    None => {}
                }
            }
            Line::Header { version } if first => {
                self.version = Some(version);
                self.numbered.push(None);
            }
            Line::Header { .. } => findings.push(line.finding(
                Code::MisplacedHeader,
                0,
                None,
                "a second session header: pi reads the first one and skips this line".to_string(),
            )),
            Line::Moves(moves) => {
                let named = match &moves {
                    crate::format::Moves::RewindTo(id) => Some(id.to_string()),
                    crate::format::Moves::History(_) => None,
                };
                if !self.order.moved(moves) {
                    findings.push(line.finding(
                        Code::UnknownTarget,
                        0,
                        named.clone(),
                        format!(
                            "a rewind to message {}, which the conversation does not hold: the app leaves the conversation as it is",
                            named.unwrap_or_default()
                        ),
                    ));
                }
            }
            Line::NotUtf8 { at, cut } => self.not_utf8(line, at, cut),
            Line::Fault { fault, indent } => self.fault(line, (v.bom, v.nul), fault, indent),
            Line::Entry { facts, indent } => self.entry(line, v.len, facts, indent, block),
        }
    }

    /// A line that is not UTF-8 (`cut`: it stops inside a character).
    fn not_utf8(&mut self, line: Place, at: usize, cut: bool) {
        let findings = &mut self.report.findings;
        // A last line that stops inside a character is a torn write.
        if cut {
            self.last_eof_finding = Some(findings.len());
        }
        findings.push(line.finding(
        Code::NotUtf8,
        at,
        None,
        format!(
            "byte {} of the line is not UTF-8; yoagent cannot read a file that is not UTF-8 at all",
            at + 1
        ),
    ));
    }

    /// A line that is no entry: its finding.
    fn fault(&mut self, line: Place, (bom, nul): (bool, bool), fault: LineFault, indent: usize) {
        let findings = &mut self.report.findings;
        if fault.kind == FaultKind::Shape && self.format.numbered_by_line(self.version) {
            self.numbered.push(None);
        }
        let within = indent + fault.at.unwrap_or(0);
        let code = match fault.kind {
            _ if bom => Code::ByteOrderMark,
            FaultKind::Syntax | FaultKind::Eof => Code::InvalidJson,
            FaultKind::Shape => Code::InvalidEntry,
            FaultKind::Message => Code::InvalidMessage,
            FaultKind::Glued => Code::GluedLines,
        };
        let message = match code {
            Code::ByteOrderMark => {
                "the file starts with a byte-order mark (EF BB BF), which yoagent \
                                    cannot load; remove those 3 bytes"
                    .to_string()
            }
            _ if fault.kind == FaultKind::Eof => {
                self.last_eof_finding = Some(findings.len());
                format!(
                    "line ends in the middle of a JSON value ({})",
                    fault.message
                )
            }
            _ if nul => {
                self.last_eof_finding = Some(findings.len());
                "the line is only NUL bytes, as a crash leaves where a write was going".to_string()
            }
            Code::InvalidJson => format!("not valid JSON: {}", fault.message),
            _ => fault.message,
        };
        if let Some(id) = &fault.id {
            self.broken_ids.insert(id.clone());
        }
        findings.push(line.finding(code, within, fault.id, message));
    }

    /// An entry's line: the entry put in the tree, and what is wrong with it.
    fn entry(
        &mut self,
        line: Place,
        len: usize,
        mut facts: Facts,
        indent: usize,
        block: &Verdicts,
    ) {
        let tally = facts.tally.take();
        let text = &block.text;
        // pi numbers a version-1 file's entries when it opens it,
        // each the child of the one before: ysess numbers them by
        // their line.
        let numbered = (self.format.numbered_by_line(self.version))
            .then(|| (format!("line{}", line.number), self.chain.take()));
        if numbered.is_none() && facts.unnumbered {
            self.report.findings.push(
                line.finding(
                    Code::InvalidEntry,
                    indent,
                    None,
                    "an entry without a string `id`: pi cannot find it or its children \
                 (only the entries of a version-1 file go without)"
                        .to_string(),
                ),
            );
            return;
        }
        let kept = match (&numbered, facts.target) {
            (Some(_), Some(t)) if facts.unnumbered => t
                .of(text)
                .parse::<usize>()
                .ok()
                .and_then(|at| self.numbered.get(at).cloned().flatten()),
            _ => None,
        };
        let entry = new_entry(line, len, &facts, text, numbered.as_ref(), kept.as_deref());
        if self.format.joins() == crate::format::Joins::AsClaude {
            return self.claude_entry(line, entry, &facts, numbered.as_ref(), indent, block);
        }
        self.entry_problems(line, indent, &entry, &facts, text);
        let pushed = match self.format.joins() {
            crate::format::Joins::InFileOrder => self.order.push(&mut self.builder, entry),
            _ => self.builder.push(entry).map(|ix| (ix, false)),
        };
        if let Some((id, _)) = &numbered {
            self.chain = Some(id.clone());
            self.numbered.push(Some(id.clone()));
        }
        match pushed {
            Ok((ix, restated)) => {
                if let Some(tally) = tally {
                    let tallies = &mut self.report.tallies;
                    if tallies.len() <= ix as usize {
                        tallies.resize_with(ix as usize + 1, || None);
                    }
                    tallies[ix as usize] = Some(tally);
                }
                if restated {
                    self.tools.restate(ix, &facts, block);
                } else {
                    self.tools.remember(ix, &facts, block);
                }
                self.check_targets(line, indent, ix, &entry, &facts, text);
            }
            Err(link) => self.not_joined(line, indent, &entry, &link),
        }
    }

    /// What is wrong with an entry before it joins: a type pi does not
    /// know, a ysess record that is not sound.
    #[inline]
    fn entry_problems(
        &mut self,
        line: Place,
        indent: usize,
        entry: &NewEntry<'_>,
        facts: &Facts,
        text: &str,
    ) {
        let findings = &mut self.report.findings;
        let id = entry.id;
        if facts.unknown_type {
            findings.push(line.finding(
                Code::UnknownEntryType,
                indent,
                Some(id.to_string()),
                format!(
                    "entry {id} has type `{}`, which pi does not know; pi keeps it in the tree but nothing reads it",
                    entry.tag.unwrap_or_default()
                ),
            ));
        }
        if let Some(problem) = facts.record_problem {
            findings.push(line.finding(
                Code::InvalidRecord,
                indent,
                Some(id.to_string()),
                problem.of(text).to_string(),
            ));
        }
    }

    /// The entries a joined entry names: its target must come before it,
    /// and a checkout record resumes at the entry it hangs from in the
    /// user's tree (anything else is forged).
    #[inline]
    fn check_targets(
        &mut self,
        line: Place,
        indent: usize,
        ix: crate::tree::Ix,
        entry: &NewEntry<'_>,
        facts: &Facts,
        text: &str,
    ) {
        let findings = &mut self.report.findings;
        let id = entry.id;
        if let Some(target) = entry.target
            && self.builder.line_of(target).is_none()
        {
            findings.push(line.finding(
                Code::UnknownTarget,
                indent,
                Some(id.to_string()),
                format!("entry {id} names entry {target}, which is not defined before it"),
            ));
        }
        if let Some(target) = facts.checkout_target.map(|t| t.of(text))
            && let Some(at) = self.builder.entry_parent(ix)
            && at != target
        {
            findings.push(line.finding(
                Code::InvalidRecord,
                indent,
                Some(id.to_string()),
                format!(
                    "record ysess.checkout: its target {target} is not the entry it hangs from ({at})"
                ),
            ));
        }
    }

    /// An entry that could not join the tree; an unknown parent is
    /// remembered, as it may yet come later in the file.
    #[inline]
    fn not_joined(&mut self, line: Place, indent: usize, entry: &NewEntry<'_>, link: &Link) {
        let findings = &mut self.report.findings;
        findings.push(link_finding(
            line.number,
            line.offset,
            indent,
            entry.id,
            entry.parent,
            link,
        ));
        if let Link::UnknownParent = link {
            let parent = entry.parent.unwrap_or_default().to_string();
            self.unknown_parents.push((findings.len() - 1, parent));
        }
    }

    /// A Claude Code or Codex entry, joined as those formats join theirs.
    fn claude_entry(
        &mut self,
        line: Place,
        entry: NewEntry<'_>,
        facts: &Facts,
        numbered: Option<&(String, Option<String>)>,
        indent: usize,
        block: &Verdicts,
    ) {
        if let Some((id, _)) = &numbered {
            self.chain = Some(id.clone());
            self.numbered.push(Some(id.clone()));
        }
        if facts.unknown_type {
            let kind = entry.tag.unwrap_or_default();
            self.unknown_type(kind.into(), line);
        }
        let text = &block.text;
        let calls = &block.calls[facts.calls.start as usize..facts.calls.end as usize];
        let names = block
            .call_names
            .get(facts.calls.start as usize..facts.calls.end as usize)
            .unwrap_or_default();
        let extras = claude::Extras {
            sidechain: facts.sidechain,
            logical_parent: facts.logical_parent,
            calls: calls.iter().map(|c| c.of(text)).collect(),
            names: names.iter().map(|c| c.of(text)).collect(),
            answer: facts.answers.map(|a| a.of(text)),
            model: facts.context_model.map(|m| m.of(text)),
            assumed_model: self.format.assumed_model(),
        };
        let at = claude::At {
            line: line.number,
            offset: line.offset,
            indent,
        };
        let findings = &mut self.report.findings;
        self.claude.join(
            &mut self.builder,
            &mut self.tools,
            findings,
            entry,
            extras,
            at,
        );
    }
}

/// The entry a line's facts describe, its text borrowed from the block
/// (`numbered`: the id and parent pi gives an entry of a version-1 file;
/// `kept`: the entry a compaction of such a file keeps from).
#[inline]
fn new_entry<'a>(
    line: Place,
    len: usize,
    facts: &Facts,
    text: &'a str,
    numbered: Option<&'a (String, Option<String>)>,
    kept: Option<&'a str>,
) -> NewEntry<'a> {
    NewEntry {
        id: match numbered {
            Some((id, _)) => id.as_str(),
            None => facts.id.of(text),
        },
        parent: match numbered {
            Some((_, parent)) => parent.as_deref(),
            None => facts.parent.map(|p| p.of(text)),
        },
        label: facts.label.map(|l| l.of(text)),
        timestamp: facts.timestamp,
        kind: facts.kind,
        line: line.number,
        offset: line.offset,
        len: len as u64,
        tag: facts.tag.map(|t| t.of(text)),
        subject: facts.subject.map(|s| s.of(text)),
        record: facts.record,
        target: match numbered {
            Some(_) if facts.unnumbered => kept,
            _ => facts.target.map(|t| t.of(text)),
        },
    }
}

/// A line's place in the file.
#[derive(Clone, Copy)]
pub(super) struct Place {
    pub(super) number: u64,
    pub(super) offset: u64,
}

impl Place {
    pub(super) fn finding(
        self,
        code: Code,
        within: usize,
        id: Option<String>,
        message: String,
    ) -> Finding {
        Finding {
            code,
            line: Some(self.number),
            offset: Some(self.offset + within as u64),
            id,
            message,
            remedy: None,
        }
    }
}
