//! fsck: every problem of a session file, with a stable code, the line, the
//! byte offset and the entry id. Errors are exactly what yoagent's loader
//! refuses; warnings are what loads but is likely a mistake.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Read};

use crate::check::{Checked, check_line};
use crate::digest::{Digest, Hasher};
use crate::entry::MessageKind;
use crate::index::{Ix, Link, Tree, TreeBuilder};
use crate::read::{RawLine, for_each_line};
use crate::schema::FaultKind;

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

    fn at(
        code: Code,
        line: &RawLine<'_>,
        within: usize,
        id: Option<String>,
        message: String,
    ) -> Finding {
        Finding {
            code,
            line: Some(line.number),
            offset: Some(line.offset + within as u64),
            id,
            message,
        }
    }
}

/// Counts describing a file's tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub bytes: u64,
    pub entries: u64,
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
}

/// What the tool-call checks need to remember per entry.
#[derive(Default)]
struct ToolFacts {
    /// call id → assistant entries that make that call.
    calls: HashMap<Box<str>, Vec<Ix>>,
    /// assistant entry → its call ids.
    calls_of: HashMap<Ix, Vec<Box<str>>>,
    /// tool result entry → the call it answers.
    answers: HashMap<Ix, Box<str>>,
}

/// Checks a whole session stream.
pub fn check<R: Read>(reader: R, options: &Options) -> io::Result<Report> {
    let mut report = Report::default();
    let mut builder = TreeBuilder::default();
    let mut tools = ToolFacts::default();
    let mut unknown_parents: Vec<(usize, String)> = Vec::new(); // finding index, parent
    let mut last_nonblank: Option<(usize, u64, u64)> = None; // (findings before it, offset, len)
    let mut last_eof_finding: Option<usize> = None;
    let mut full = options.digest.then(Hasher::default);
    let mut prefix = options.since.as_ref().map(|d| (Hasher::default(), d.bytes));

    let bytes = for_each_line(
        reader,
        |chunk| {
            if let Some(h) = full.as_mut() {
                h.update(chunk);
            }
            if let Some((h, left)) = prefix.as_mut() {
                let take = (*left).min(chunk.len() as u64) as usize;
                h.update(&chunk[..take]);
                *left -= take as u64;
            }
        },
        |line| {
            let checked = check_line(line.bytes);
            if !matches!(checked, Checked::Blank) {
                last_nonblank = Some((report.findings.len(), line.offset, line.bytes.len() as u64));
                last_eof_finding = None;
            }
            match checked {
                Checked::Blank => {}
                Checked::NotUtf8 { at } => report.findings.push(Finding::at(
                    Code::NotUtf8,
                    &line,
                    at,
                    None,
                    format!(
                        "byte {} of the line is not UTF-8; yoagent cannot read a file that is not UTF-8 at all",
                        at + 1
                    ),
                )),
                Checked::Fault { fault, indent } => {
                    let within = indent + fault.at.unwrap_or(0);
                    let code = if line.number == 1 && line.bytes.starts_with(b"\xEF\xBB\xBF") {
                        Code::ByteOrderMark
                    } else {
                        match fault.kind {
                            FaultKind::Syntax => Code::InvalidJson,
                            FaultKind::Eof => Code::InvalidJson,
                            FaultKind::Shape => Code::InvalidEntry,
                            FaultKind::Message => Code::InvalidMessage,
                        }
                    };
                    let message = match code {
                        Code::ByteOrderMark => {
                            "the file starts with a byte-order mark (EF BB BF), which yoagent cannot load; remove those 3 bytes".to_string()
                        }
                        Code::InvalidJson if fault.kind == FaultKind::Eof => {
                            last_eof_finding = Some(report.findings.len());
                            format!("line ends in the middle of a JSON value ({})", fault.message)
                        }
                        _ => fault.message,
                    };
                    report.findings.push(Finding::at(code, &line, within, fault.id, message));
                }
                Checked::Entry { facts, indent } => {
                    let len = line.bytes.len() as u64;
                    let id = || Some(facts.id.to_string());
                    match builder.push(&facts, line.number, line.offset, len) {
                        Ok(ix) => remember_tools(&mut tools, ix, &facts),
                        Err(Link::DuplicateId { first_line }) => report.findings.push(Finding::at(
                            Code::DuplicateId,
                            &line,
                            indent,
                            id(),
                            format!("entry {} already defined at line {first_line}", facts.id),
                        )),
                        Err(Link::SelfParent) => report.findings.push(Finding::at(
                            Code::SelfParent,
                            &line,
                            indent,
                            id(),
                            format!("entry {} names itself as its parent", facts.id),
                        )),
                        Err(Link::UnknownParent { parent }) => {
                            unknown_parents.push((report.findings.len(), parent.clone()));
                            report.findings.push(Finding::at(
                                Code::UnknownParent,
                                &line,
                                indent,
                                id(),
                                format!("entry {}: parent {parent} is not defined in this file", facts.id),
                            ));
                        }
                    }
                }
            }
        },
    )?;

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
    if let (Some(at), Some((_, offset, len))) = (last_eof_finding, last_nonblank) {
        let finding = &mut report.findings[at];
        finding.code = Code::TruncatedLastLine;
        finding.message = format!(
            "the last line is cut short, as by an interrupted write; the file is sound up to byte {offset}, \
             and `ysess fsck --repair` cuts the {len} torn bytes after it"
        );
        report.torn = Some(Torn { offset, len });
    }

    let tree = builder.finish();
    warn(&tree, &tools, &mut report.findings);
    report.summary = summarize(&tree, bytes);
    report.digest = full.map(|h| h.finish(bytes));
    if let (Some(expected), Some((hasher, _))) = (&options.since, prefix)
        && let Some(finding) = compare_prefix(expected, hasher, bytes)
    {
        report.findings.push(finding);
    }
    report.sort();
    Ok(report)
}

fn remember_tools(tools: &mut ToolFacts, ix: Ix, facts: &crate::entry::LineFacts<'_>) {
    match facts.kind {
        MessageKind::Assistant if !facts.tool_calls.is_empty() => {
            let ids: Vec<Box<str>> = facts.tool_calls.iter().map(|c| Box::from(&**c)).collect();
            for id in &ids {
                tools.calls.entry(id.clone()).or_default().push(ix);
            }
            tools.calls_of.insert(ix, ids);
        }
        MessageKind::ToolResult => {
            if let Some(call) = &facts.tool_result_for {
                tools.answers.insert(ix, Box::from(&**call));
            }
        }
        _ => {}
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
    let head = tree.head().map(|h| tree.node(h));
    Summary {
        bytes,
        entries: tree.len() as u64,
        roots: tree.roots().count() as u64,
        tips: tree.tips().count() as u64,
        labels: tree.label_names().len() as u64,
        head: head.map(|n| n.id.to_string()),
        head_depth: head.map_or(0, |n| n.depth),
    }
}

fn is_standard_id(id: &str) -> bool {
    id.strip_prefix('e').is_some_and(|n| {
        !n.is_empty()
            && !n.starts_with('0')
            && n.bytes().all(|b| b.is_ascii_digit())
            && n.parse::<u64>().is_ok()
    })
}

/// The warnings: what yoagent loads but a person likely did not mean.
fn warn(tree: &Tree, tools: &ToolFacts, out: &mut Vec<Finding>) {
    let nodes = tree.nodes();
    let finding = |ix: Ix, code: Code, message: String| {
        let node = tree.node(ix);
        Finding {
            code,
            line: Some(node.line),
            offset: Some(node.offset),
            id: Some(node.id.to_string()),
            message,
        }
    };

    // Labels: empty ones, and names on several entries.
    let mut by_label: HashMap<&str, Vec<Ix>> = HashMap::new();
    for (ix, node) in nodes.iter().enumerate() {
        if let Some(label) = node.label.as_deref() {
            if label.is_empty() {
                out.push(finding(
                    ix as Ix,
                    Code::EmptyLabel,
                    format!("entry {} has an empty label", node.id),
                ));
            }
            by_label.entry(label).or_default().push(ix as Ix);
        }
    }
    for (label, holders) in by_label {
        let Some((&winner, shadowed)) = holders.split_last() else {
            continue;
        };
        let win = tree.node(winner);
        for &ix in shadowed {
            out.push(finding(
                ix,
                Code::DuplicateLabel,
                format!(
                    "label `{label}` is also on {} (line {}); yoagent's seek_checkpoint picks the last one, {}",
                    win.id, win.line, win.id
                ),
            ));
        }
    }

    // Ids yoagent would not have made: one finding, with the count.
    let mut odd = nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| !is_standard_id(&n.id));
    if let Some((first, node)) = odd.next() {
        let more = odd.count();
        let tail = if more == 0 {
            String::new()
        } else {
            format!(" ({more} more ids like it)")
        };
        out.push(finding(
            first as Ix,
            Code::NonStandardId,
            format!(
                "id {} is not of the form e<N> that yoagent's append makes{tail}",
                node.id
            ),
        ));
    }

    // More than one root.
    let mut roots = tree.roots().filter(|&r| !tree.node(r).detached);
    if let Some(first) = roots.next() {
        let first = tree.node(first);
        for root in roots {
            out.push(finding(
                root,
                Code::MultipleRoots,
                format!(
                    "entry {} is another root (the first is {} at line {})",
                    tree.node(root).id,
                    first.id,
                    first.line
                ),
            ));
        }
    }

    // Children older than their parents.
    for (ix, node) in nodes.iter().enumerate() {
        if let Some(p) = node.parent {
            let parent = tree.node(p);
            if node.timestamp < parent.timestamp {
                out.push(finding(
                    ix as Ix,
                    Code::OlderThanParent,
                    format!(
                        "entry {} (timestamp {}) is older than its parent {} (timestamp {})",
                        node.id, node.timestamp, parent.id, parent.timestamp
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
        let mut answers: Vec<(&Ix, &Box<str>)> = tools.answers.iter().collect();
        answers.sort_unstable();
        for (&result, call) in answers {
            let answered = tools
                .calls
                .get(call)
                .is_some_and(|callers| callers.iter().any(|&c| is_ancestor(c, result)));
            if !answered {
                out.push(finding(
                    result,
                    Code::OrphanToolResult,
                    format!(
                        "tool result {} answers call `{call}`, which no assistant message earlier on its path makes",
                        tree.node(result).id
                    ),
                ));
            }
        }
    }

    // Tool calls left unanswered at the end of a branch: resuming there
    // sends the model a call without its result.
    for tip in tree.tips() {
        let mut answered: Vec<&str> = Vec::new();
        let mut cursor = Some(tip);
        while let Some(ix) = cursor {
            let node = tree.node(ix);
            match node.kind {
                MessageKind::ToolResult => {
                    if let Some(call) = tools.answers.get(&ix) {
                        answered.push(call);
                    }
                }
                MessageKind::Custom => {}
                MessageKind::Assistant => {
                    let open: Vec<&str> = tools
                        .calls_of
                        .get(&ix)
                        .into_iter()
                        .flatten()
                        .map(|c| &**c)
                        .filter(|c| !answered.contains(c))
                        .collect();
                    if !open.is_empty() {
                        out.push(finding(
                            ix,
                            Code::UnansweredToolCall,
                            format!(
                                "entry {} calls {} but the branch ending at {} has no result for {}",
                                node.id,
                                quote_list(&open),
                                tree.node(tip).id,
                                if open.len() == 1 { "it" } else { "them" }
                            ),
                        ));
                    }
                    break;
                }
                MessageKind::User => break,
            }
            cursor = node.parent;
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
        let report = check(text.as_bytes(), &Options::default()).expect("reads from memory");
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
        let report = check(text.as_bytes(), &Options::default()).expect("reads");
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
        assert!(is_standard_id("e1") && is_standard_id("e400"));
        for odd in ["e", "e0", "e01", "x1", "e+1", "E1", "e1a"] {
            assert!(!is_standard_id(odd), "{odd}");
        }
    }
}
