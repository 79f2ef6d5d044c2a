//! fsck: every problem of a session file, with a stable code, the line, the
//! byte offset and the entry id. Errors are exactly what yoagent's loader
//! refuses; warnings are what loads but is likely a mistake.

pub mod digest;
pub mod since;

use std::fmt;
use std::hash::BuildHasher;
use std::io::{self, Read};

use crate::check::digest::{Digest, Hasher};
use crate::format::MessageKind;
use crate::format::yoagent::exact::{FaultKind, LineFault};
use crate::format::{Checked, yoagent::check_line};
use crate::input::{Block, Blocks, LineTooLong};
use crate::tree::{Ix, Link, NewEntry, Tree, TreeBuilder};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $severity:ident;)*) => {
        /// A finding's stable code, as printed and in `--json`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code { $($variant),* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name),* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity),* }
            }
        }
    };
}

codes! {
    Unreadable = "unreadable", Error;
    NotUtf8 = "notUtf8", Error;
    ByteOrderMark = "byteOrderMark", Error;
    InvalidJson = "invalidJson", Error;
    GluedLines = "gluedLines", Error;
    TruncatedLastLine = "truncatedLastLine", Error;
    InvalidEntry = "invalidEntry", Error;
    InvalidMessage = "invalidMessage", Error;
    DuplicateId = "duplicateId", Error;
    SelfParent = "selfParent", Error;
    UnknownParent = "unknownParent", Error;
    ForwardParent = "forwardParent", Error;
    DigestMismatch = "digestMismatch", Error;
    HistoryRewritten = "historyRewritten", Error;
    DuplicateLabel = "duplicateLabel", Warning;
    EmptyLabel = "emptyLabel", Warning;
    NonStandardId = "nonStandardId", Warning;
    MultipleRoots = "multipleRoots", Warning;
    OlderThanParent = "olderThanParent", Warning;
    OrphanToolResult = "orphanToolResult", Warning;
    UnansweredToolCall = "unansweredToolCall", Warning;
    LabelAddedInPlace = "labelAddedInPlace", Warning;
    InvalidRecord = "invalidRecord", Warning;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem in one file. `message` may quote session text: renderers
/// must escape it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: Code,
    pub line: Option<u64>,
    pub offset: Option<u64>,
    pub id: Option<String>,
    pub message: String,
}

impl Finding {
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}

/// Counts describing a file's tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub bytes: u64,
    /// Entries of the user's tree: ysess's records are counted apart.
    pub entries: u64,
    /// ysess's own records.
    pub records: u64,
    pub roots: u64,
    pub tips: u64,
    pub labels: u64,
    pub head: Option<String>,
    pub head_depth: u32,
}

/// A torn last line: `offset..offset+len` are the bytes of an interrupted
/// write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Torn {
    pub offset: u64,
    pub len: u64,
}

#[derive(Debug, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub summary: Summary,
    pub digest: Option<Digest>,
    pub torn: Option<Torn>,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .count()
    }

    pub fn warnings(&self) -> usize {
        self.findings.len() - self.errors()
    }

    /// Sorts findings by line (file-level ones first), errors before
    /// warnings on one line.
    fn sort(&mut self) {
        self.findings
            .sort_by_key(|f| (f.line, f.severity(), f.offset));
    }
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Compute the whole file's digest.
    pub digest: bool,
    /// Check that the file starts with the bytes this digest names.
    pub since: Option<Digest>,
    /// Keep each entry's subject line in the tree (for commands that print
    /// entries; fsck does not need them).
    pub subjects: bool,
    /// Look for warnings too, not just errors.
    pub warnings: bool,
}

/// A piece of text in a [`Verdicts`] or [`ToolFacts`] string.
#[derive(Debug, Clone, Copy)]
struct Span {
    at: u32,
    len: u32,
}

impl Span {
    fn keep(text: &mut String, s: &str) -> Span {
        let at = text.len() as u32;
        text.push_str(s);
        Span {
            at,
            len: s.len() as u32,
        }
    }

    fn of(self, text: &str) -> &str {
        &text[self.at as usize..(self.at + self.len) as usize]
    }
}

/// The facts of one entry, their text in the block's string.
struct Facts {
    id: Span,
    parent: Option<Span>,
    label: Option<Span>,
    timestamp: u64,
    kind: MessageKind,
    /// Range of the block's `calls`.
    calls: std::ops::Range<u32>,
    answers: Option<Span>,
    tag: Option<Span>,
    subject: Option<Span>,
    /// One of ysess's own records.
    record: bool,
    /// What is wrong with a ysess record, if anything.
    record_problem: Option<Span>,
    /// The entry a `ysess.checkout` record says it resumes at.
    checkout_target: Option<Span>,
}

enum Line {
    Blank,
    Entry { facts: Facts, indent: usize },
    Fault { fault: LineFault, indent: usize },
    NotUtf8 { at: usize, cut: bool },
}

/// One line's verdict.
struct Verdict {
    /// Offset of the line within its block.
    at: usize,
    len: usize,
    bom: bool,
    /// Only NUL bytes: what a crash often leaves where a write was going.
    nul: bool,
    line: Line,
}

/// A block's verdicts: compact, a few allocations per block, so that handing
/// them from a worker to the tree builder costs little.
struct Verdicts {
    offset: u64,
    text: String,
    calls: Vec<Span>,
    lines: Vec<Verdict>,
}

/// Bytes per block of lines handed to a worker thread.
const BLOCK: usize = 4 << 20;

fn verdicts(block: Block, subjects: bool) -> Verdicts {
    let mut out = Verdicts {
        offset: block.offset,
        text: String::new(),
        calls: Vec::new(),
        lines: Vec::with_capacity(block.bytes().len() / 512),
    };
    for (at, bytes) in block.lines() {
        let line = match check_line(bytes, subjects) {
            Checked::Blank => Line::Blank,
            Checked::NotUtf8 { at, cut } => Line::NotUtf8 { at, cut },
            Checked::Fault { fault, indent } => Line::Fault { fault, indent },
            Checked::Entry { facts, indent } => {
                let text = &mut out.text;
                let first_call = out.calls.len() as u32;
                let checked_record = record_problem(bytes, &facts);
                out.calls
                    .extend(facts.tool_calls.iter().map(|c| Span::keep(text, c)));
                let facts = Facts {
                    id: Span::keep(text, &facts.id),
                    parent: facts.parent.as_deref().map(|p| Span::keep(text, p)),
                    label: facts.label.as_deref().map(|l| Span::keep(text, l)),
                    timestamp: facts.timestamp,
                    kind: facts.kind,
                    calls: first_call..out.calls.len() as u32,
                    answers: facts
                        .tool_result_for
                        .as_deref()
                        .map(|c| Span::keep(text, c)),
                    tag: facts
                        .model
                        .as_deref()
                        .or(facts.tool_name.as_deref())
                        .or(facts.custom_kind.as_deref())
                        .map(|t| Span::keep(text, t)),
                    subject: facts.subject.as_deref().map(|s| Span::keep(text, s)),
                    record: crate::format::yoagent::records::is_record_entry(&facts),
                    record_problem: None,
                    checkout_target: None,
                };
                let facts = match checked_record {
                    Ok(target) => Facts {
                        checkout_target: target.map(|t| Span::keep(text, &t)),
                        ..facts
                    },
                    Err(problem) => Facts {
                        record_problem: Some(Span::keep(text, &problem)),
                        ..facts
                    },
                };
                Line::Entry { facts, indent }
            }
        };
        let bom = at == 0 && block.offset == 0 && bytes.starts_with(b"\xEF\xBB\xBF");
        let nul = !bytes.is_empty() && bytes.iter().all(|&b| b == 0);
        out.lines.push(Verdict {
            at,
            len: bytes.len(),
            bom,
            nul,
            line,
        });
    }
    out
}

/// What is wrong with a line that holds a record in ysess's namespace: data
/// that does not fit its kind, or a record that does not hang where its data
/// says. yoagent loads such a line; ysess would misread it. `Ok` carries the
/// target of a checkout record, which the tree checks once it is linked.
fn record_problem(
    line: &[u8],
    facts: &crate::format::LineFacts<'_>,
) -> Result<Option<String>, String> {
    let Some(kind) = facts
        .custom_kind
        .as_deref()
        .filter(|k| crate::format::yoagent::records::is_ysess_kind(k))
        .filter(|_| {
            facts.kind == MessageKind::Custom
                && facts.custom_role.as_deref() == Some(crate::format::yoagent::records::ROLE)
        })
    else {
        return Ok(None);
    };
    let text = std::str::from_utf8(line).map_err(|e| e.to_string())?.trim();
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let data = &value["message"]["data"];
    let parsed = crate::format::yoagent::records::Kind::parse(kind, data)
        .map_err(|why| format!("record {kind}: {why}"))?;
    let Some(parent) = facts.parent.as_deref() else {
        return Err(format!(
            "record {kind}: it hangs from no entry, and ysess always hangs a record from one"
        ));
    };
    use crate::format::yoagent::records::Kind;
    let problem = match &parsed {
        Kind::Checkout { target } => return Ok(Some(target.clone())),
        Kind::Tag { target, .. } | Kind::Branch { target, .. } if target != parent => Some(
            format!("record {kind}: its target {target} is not the entry it hangs from ({parent})"),
        ),
        Kind::Tag { name, .. } if facts.label.as_deref() != Some(name) => Some(format!(
            "record {kind}: it names label `{name}` but does not carry it"
        )),
        Kind::Branch { name, .. } | Kind::Tag { name, .. } => {
            crate::format::yoagent::records::check_name(name)
                .err()
                .map(|why| format!("record {kind}: {why}"))
        }
        Kind::BranchRename { to, .. } => crate::format::yoagent::records::check_name(to)
            .err()
            .map(|why| format!("record {kind}: {why}")),
        Kind::BranchDelete { .. } => None,
    };
    match problem {
        Some(p) => Err(p),
        None if !matches!(parsed, Kind::Tag { .. }) && facts.label.is_some() => Err(format!(
            "record {kind}: it carries a label, which only ysess.tag records do"
        )),
        None => Ok(None),
    }
}

/// What the tool-call checks need: call ids by their hash (the text is kept
/// for messages), in file order.
#[derive(Default)]
struct ToolFacts {
    text: String,
    /// (assistant entry, call id hash, call id) for every tool call.
    calls: Vec<(Ix, u64, Span)>,
    /// (tool result entry, hash of the call id it answers, that id).
    answers: Vec<(Ix, u64, Span)>,
    hasher: foldhash::quality::FixedState,
}

impl ToolFacts {
    fn remember(&mut self, ix: Ix, facts: &Facts, v: &Verdicts) {
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

    /// Entries in file order, so both lists are sorted by entry.
    fn calls_of(&self, ix: Ix) -> &[(Ix, u64, Span)] {
        let from = self.calls.partition_point(|c| c.0 < ix);
        let to = self.calls.partition_point(|c| c.0 <= ix);
        &self.calls[from..to]
    }

    fn answer_of(&self, ix: Ix) -> Option<u64> {
        let at = self.answers.binary_search_by_key(&ix, |a| a.0).ok()?;
        Some(self.answers[at].1)
    }
}

/// Checks a whole session stream. Lines are checked on all cores, in blocks;
/// the tree is built in file order as the verdicts come back.
pub fn check<R: Read + Send>(reader: R, options: &Options) -> io::Result<Report> {
    check_tree(reader, options).map(|(report, _)| report)
}

/// [`check`], keeping the tree too (for the commands that show it).
pub fn check_tree<R: Read + Send>(reader: R, options: &Options) -> io::Result<(Report, Tree)> {
    let mut full = options.digest.then(Hasher::default);
    let mut prefix = options.since.as_ref().map(|d| (Hasher::default(), d.bytes));
    let tap = |chunk: &[u8]| {
        if let Some(h) = full.as_mut() {
            h.update(chunk);
        }
        if let Some((h, left)) = prefix.as_mut() {
            let take = (*left).min(chunk.len() as u64) as usize;
            h.update(&chunk[..take]);
            *left -= take as u64;
        }
    };
    let mut blocks = Blocks::new(reader, tap, BLOCK);
    let mut state = State::default();
    // A line too long to read is named by its number: the lines before it
    // are all counted once the blocks before it are taken.
    let numbered = |e: io::Error, counted: u64| match LineTooLong::of(&e) {
        Some(long) if long.line.is_none() => long.at_line(counted).error(),
        _ => e,
    };
    let first = blocks.next_block().map_err(|e| numbered(e, 0))?;
    let second = match first {
        Some(_) => blocks.next_block(),
        None => Ok(None),
    };
    let second = match (second, first) {
        (Ok(second), first) => (first, second),
        (Err(e), Some(first)) if LineTooLong::of(&e).is_some() => {
            state.take(verdicts(first, options.subjects));
            return Err(numbered(e, state.lines));
        }
        (Err(e), _) => return Err(e),
    };
    match second {
        (Some(only), None) => state.take(verdicts(only, options.subjects)),
        (Some(first), Some(second)) => {
            let mut ahead = vec![second, first];
            let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
            crate::input::par::ordered_map(
                workers,
                || match ahead.pop() {
                    Some(block) => Ok(Some(block)),
                    None => blocks.next_block(),
                },
                |block| verdicts(block, options.subjects),
                |result| state.take(result),
            )
            .map_err(|e| numbered(e, state.lines))?;
        }
        (None, _) => {}
    }
    let bytes = blocks.offset();
    drop(blocks);
    let (mut report, tree) = state.finish(options.warnings);
    report.summary.bytes = bytes;
    if let Some(torn) = report.torn.as_mut() {
        torn.len = bytes - torn.offset;
        let torn = *torn;
        if let Some(f) = report
            .findings
            .iter_mut()
            .find(|f| f.code == Code::TruncatedLastLine)
        {
            f.message = format!(
                "the last line is cut short, as by an interrupted write; the file is sound up to byte {}, \
                 and `ysess fsck --repair` cuts the {} torn bytes after it",
                torn.offset, torn.len
            );
        }
    }
    report.digest = full.map(|h| h.finish(bytes));
    if let (Some(expected), Some((hasher, _))) = (&options.since, prefix)
        && let Some(finding) = compare_prefix(expected, hasher, bytes)
    {
        report.findings.push(finding);
    }
    report.sort();
    Ok((report, tree))
}

/// What the check remembers while verdicts come in, in file order.
#[derive(Default)]
struct State {
    report: Report,
    builder: TreeBuilder,
    tools: ToolFacts,
    /// Findings whose parent was unknown when seen: (finding index, parent).
    unknown_parents: Vec<(usize, String)>,
    /// Offset of the last non-blank line.
    last_nonblank: Option<u64>,
    /// The finding of the last non-blank line, when it stopped mid-value.
    last_eof_finding: Option<usize>,
    lines: u64,
}

impl State {
    fn take(&mut self, mut verdicts: Verdicts) {
        let lines = std::mem::take(&mut verdicts.lines);
        for v in lines {
            self.lines += 1;
            let line = Place {
                number: self.lines,
                offset: verdicts.offset + v.at as u64,
            };
            self.line(line, v, &verdicts);
        }
    }

    fn line(&mut self, line: Place, v: Verdict, block: &Verdicts) {
        let findings = &mut self.report.findings;
        if !matches!(v.line, Line::Blank) {
            self.last_nonblank = Some(line.offset);
            self.last_eof_finding = None;
        }
        match v.line {
            Line::Blank => {}
            Line::NotUtf8 { at, cut } => {
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
            Line::Fault { fault, indent } => {
                let within = indent + fault.at.unwrap_or(0);
                let code = match fault.kind {
                    _ if v.bom => Code::ByteOrderMark,
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
                    _ if v.nul => {
                        self.last_eof_finding = Some(findings.len());
                        "the line is only NUL bytes, as a crash leaves where a write was going"
                            .to_string()
                    }
                    Code::InvalidJson => format!("not valid JSON: {}", fault.message),
                    _ => fault.message,
                };
                findings.push(line.finding(code, within, fault.id, message));
            }
            Line::Entry { facts, indent } => {
                let text = &block.text;
                let id = facts.id.of(text);
                let entry = NewEntry {
                    id,
                    parent: facts.parent.map(|p| p.of(text)),
                    label: facts.label.map(|l| l.of(text)),
                    timestamp: facts.timestamp,
                    kind: facts.kind,
                    line: line.number,
                    offset: line.offset,
                    len: v.len as u64,
                    tag: facts.tag.map(|t| t.of(text)),
                    subject: facts.subject.map(|s| s.of(text)),
                    record: facts.record,
                };
                if let Some(problem) = facts.record_problem {
                    findings.push(line.finding(
                        Code::InvalidRecord,
                        indent,
                        Some(id.to_string()),
                        problem.of(text).to_string(),
                    ));
                }
                match self.builder.push(entry) {
                    Ok(ix) => {
                        self.tools.remember(ix, &facts, block);
                        // A checkout record resumes at the entry it hangs
                        // from in the user's tree; anything else is forged.
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
                    Err(Link::DuplicateId { first_line }) => findings.push(line.finding(
                        Code::DuplicateId,
                        indent,
                        Some(id.to_string()),
                        format!("entry {id} already defined at line {first_line}"),
                    )),
                    Err(Link::SelfParent) => findings.push(line.finding(
                        Code::SelfParent,
                        indent,
                        Some(id.to_string()),
                        format!("entry {id} names itself as its parent"),
                    )),
                    Err(Link::UnknownParent) => {
                        let parent = entry.parent.unwrap_or_default().to_string();
                        findings.push(line.finding(
                            Code::UnknownParent,
                            indent,
                            Some(id.to_string()),
                            format!("entry {id}: parent {parent} is not defined in this file"),
                        ));
                        self.unknown_parents.push((findings.len() - 1, parent));
                    }
                }
            }
        }
    }

    fn finish(self, warnings: bool) -> (Report, Tree) {
        let State {
            mut report,
            builder,
            tools,
            unknown_parents,
            last_nonblank,
            last_eof_finding,
            ..
        } = self;
        // A parent defined after its child is a forward reference.
        for (at, parent) in unknown_parents {
            if let Some(line) = builder.line_of(&parent) {
                let finding = &mut report.findings[at];
                finding.code = Code::ForwardParent;
                finding.message = format!(
                    "entry {}: parent {parent} is defined later, at line {line}; a parent must come before its children",
                    finding.id.as_deref().unwrap_or("?")
                );
            }
        }
        // The last line cut short is an interrupted write.
        if let (Some(at), Some(offset)) = (last_eof_finding, last_nonblank) {
            let finding = &mut report.findings[at];
            finding.code = Code::TruncatedLastLine;
            // The torn write starts where the line does.
            finding.offset = Some(offset);
            report.torn = Some(Torn { offset, len: 0 });
        }
        let tree = builder.finish();
        if warnings {
            warn(&tree, &tools, &mut report.findings);
        }
        report.summary = summarize(&tree, 0);
        (report, tree)
    }
}

/// A line's place in the file.
#[derive(Clone, Copy)]
struct Place {
    number: u64,
    offset: u64,
}

impl Place {
    fn finding(self, code: Code, within: usize, id: Option<String>, message: String) -> Finding {
        Finding {
            code,
            line: Some(self.number),
            offset: Some(self.offset + within as u64),
            id,
            message,
        }
    }
}

fn compare_prefix(expected: &Digest, hasher: Hasher, bytes: u64) -> Option<Finding> {
    let message = if bytes < expected.bytes {
        format!(
            "the file shrank: it has {bytes} bytes, but the digest covers {}; history was rewritten",
            expected.bytes
        )
    } else if hasher.finish(expected.bytes) != *expected {
        format!(
            "the first {} bytes no longer match the digest: an earlier line was rewritten \
             (compare with an old copy, `ysess fsck --since OLDFILE`, to name the line)",
            expected.bytes
        )
    } else {
        return None;
    };
    Some(Finding {
        code: Code::DigestMismatch,
        line: None,
        offset: None,
        id: None,
        message,
    })
}

fn summarize(tree: &Tree, bytes: u64) -> Summary {
    let head = tree.head();
    Summary {
        bytes,
        entries: tree.entries().count() as u64,
        records: tree.nodes().iter().filter(|n| n.record).count() as u64,
        roots: tree.roots().count() as u64,
        tips: tree.tips().count() as u64,
        labels: tree.label_names().len() as u64,
        head: head.map(|h| tree.id(h).to_string()),
        head_depth: head.map_or(0, |h| tree.node(h).depth),
    }
}

/// The warnings: what yoagent loads but a person likely did not mean.
fn warn(tree: &Tree, tools: &ToolFacts, out: &mut Vec<Finding>) {
    let finding = |ix: Ix, code: Code, message: String| {
        let node = tree.node(ix);
        Finding {
            code,
            line: Some(node.line),
            offset: Some(node.offset),
            id: Some(tree.id(ix).to_string()),
            message,
        }
    };
    let all = 0..tree.len() as Ix;

    // Labels: empty ones, and names on several entries.
    let mut by_label: hashbrown::HashMap<&str, Vec<Ix>> = hashbrown::HashMap::new();
    for ix in all.clone() {
        if let Some(label) = tree.node(ix).label.as_deref() {
            if label.is_empty() {
                out.push(finding(
                    ix,
                    Code::EmptyLabel,
                    format!("entry {} has an empty label", tree.id(ix)),
                ));
            }
            by_label.entry(label).or_default().push(ix);
        }
    }
    for (label, holders) in by_label {
        let Some((&winner, shadowed)) = holders.split_last() else {
            continue;
        };
        // `ysess tag --force` moves a label by design: the newest carrier wins.
        if tree.is_record(winner) {
            continue;
        }
        let (win, win_line) = (tree.id(winner), tree.node(winner).line);
        for &ix in shadowed {
            out.push(finding(
                ix,
                Code::DuplicateLabel,
                format!(
                    "label `{label}` is also on {win} (line {win_line}); yoagent's seek_checkpoint picks the last one, {win}"
                ),
            ));
        }
    }

    // Ids yoagent would not have made: one finding, with the count.
    let mut odd = all
        .clone()
        .filter(|&ix| !crate::format::yoagent::is_counter_id(tree.id(ix)));
    if let Some(first) = odd.next() {
        let more = odd.count();
        let tail = if more == 0 {
            String::new()
        } else {
            format!(" ({more} more ids like it)")
        };
        out.push(finding(
            first,
            Code::NonStandardId,
            format!(
                "id {} is not of the form e<N> that yoagent's append makes{tail}",
                tree.id(first)
            ),
        ));
    }

    // More than one root.
    let mut roots = tree.roots().filter(|&r| !tree.node(r).detached);
    if let Some(first) = roots.next() {
        for root in roots {
            out.push(finding(
                root,
                Code::MultipleRoots,
                format!(
                    "entry {} is another root (the first is {} at line {})",
                    tree.id(root),
                    tree.id(first),
                    tree.node(first).line
                ),
            ));
        }
    }

    // Children older than their parents, in the user's tree.
    for ix in tree.entries() {
        let node = tree.node(ix);
        if let Some(p) = tree.parent(ix) {
            let parent = tree.node(p);
            if node.timestamp < parent.timestamp {
                out.push(finding(
                    ix,
                    Code::OlderThanParent,
                    format!(
                        "entry {} (timestamp {}) is older than its parent {} (timestamp {})",
                        tree.id(ix),
                        node.timestamp,
                        tree.id(p),
                        parent.timestamp
                    ),
                ));
            }
        }
    }

    // Tool results that answer no call on their path.
    if !tools.answers.is_empty() {
        let (enter, exit) = tree.intervals();
        let is_ancestor = |a: Ix, b: Ix| {
            a != b && enter[a as usize] <= enter[b as usize] && exit[b as usize] <= exit[a as usize]
        };
        let mut by_hash: Vec<(u64, Ix)> = tools
            .calls
            .iter()
            .map(|&(ix, hash, _)| (hash, ix))
            .collect();
        by_hash.sort_unstable();
        for &(result, hash, call) in &tools.answers {
            let from = by_hash.partition_point(|c| c.0 < hash);
            let answered = by_hash[from..]
                .iter()
                .take_while(|c| c.0 == hash)
                .any(|&(_, c)| is_ancestor(c, result));
            if !answered {
                out.push(finding(
                    result,
                    Code::OrphanToolResult,
                    format!(
                        "tool result {} answers call `{}`, which no assistant message earlier on its path makes",
                        tree.id(result),
                        call.of(&tools.text)
                    ),
                ));
            }
        }
    }

    // Tool calls left unanswered at the end of a branch: resuming there
    // sends the model a call without its result.
    for tip in tree.tips() {
        let mut answered: Vec<u64> = Vec::new();
        let mut cursor = Some(tip);
        while let Some(ix) = cursor {
            let node = tree.node(ix);
            match node.kind {
                MessageKind::ToolResult => answered.extend(tools.answer_of(ix)),
                MessageKind::Custom => {}
                MessageKind::Assistant => {
                    let open: Vec<&str> = tools
                        .calls_of(ix)
                        .iter()
                        .filter(|c| !answered.contains(&c.1))
                        .map(|c| c.2.of(&tools.text))
                        .collect();
                    if !open.is_empty() {
                        out.push(finding(
                            ix,
                            Code::UnansweredToolCall,
                            format!(
                                "entry {} calls {} but the branch ending at {} has no result for {}",
                                tree.id(ix),
                                quote_list(&open),
                                tree.id(tip),
                                if open.len() == 1 { "it" } else { "them" }
                            ),
                        ));
                    }
                    break;
                }
                MessageKind::User => break,
            }
            cursor = tree.parent(ix);
        }
    }
}

fn quote_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<(Option<u64>, &'static str)> {
        let report = check(
            text.as_bytes(),
            &Options {
                warnings: true,
                ..Options::default()
            },
        )
        .expect("reads from memory");
        report
            .findings
            .iter()
            .map(|f| (f.line, f.code.as_str()))
            .collect()
    }

    const USER: &str = r#""message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1},"timestamp":5"#;

    #[test]
    fn reports_every_problem_not_just_the_first() {
        let text = format!(
            "{{\"id\":\"e1\",\"parent_id\":null,{USER}}}\n{{\"id\":\"e1\",\"parent_id\":null,{USER}}}\n{{\"id\":\"e3\",\"parent_id\":\"e9\",{USER}}}\n{{\"id\":\"e4\",\"parent_id\":\"e4\",{USER}}}"
        );
        assert_eq!(
            codes(&text),
            vec![
                (Some(2), "duplicateId"),
                (Some(3), "unknownParent"),
                (Some(4), "selfParent")
            ]
        );
    }

    #[test]
    fn a_parent_on_a_later_line_is_a_forward_reference() {
        let text = format!(
            "{{\"id\":\"e1\",\"parent_id\":\"e2\",{USER}}}\n{{\"id\":\"e2\",\"parent_id\":null,{USER}}}"
        );
        assert_eq!(codes(&text), vec![(Some(1), "forwardParent")]);
    }

    #[test]
    fn a_torn_last_line_is_its_own_code_and_a_torn_middle_is_not() {
        let good = format!("{{\"id\":\"e1\",\"parent_id\":null,{USER}}}");
        let text = format!("{good}\n{}", &good[..20]);
        let report = check(
            text.as_bytes(),
            &Options {
                warnings: true,
                ..Options::default()
            },
        )
        .expect("reads");
        assert_eq!(report.findings[0].code, Code::TruncatedLastLine);
        assert_eq!(
            report.torn,
            Some(Torn {
                offset: good.len() as u64 + 1,
                len: 20
            })
        );
        let text = format!("{}\n{good}", &good[..20]);
        assert_eq!(codes(&text), vec![(Some(1), "invalidJson")]);
    }

    #[test]
    fn standard_ids_are_what_append_makes() {
        assert!(
            crate::format::yoagent::is_counter_id("e1")
                && crate::format::yoagent::is_counter_id("e400")
        );
        for odd in ["e", "e0", "e01", "x1", "e+1", "E1", "e1a"] {
            assert!(!crate::format::yoagent::is_counter_id(odd), "{odd}");
        }
    }
}
