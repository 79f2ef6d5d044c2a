//! The checker behind `ysess fsck`: every problem of a session file, with a
//! stable code, the line, the byte offset and the entry id. Errors are
//! exactly what yoagent's loader refuses; warnings are what loads but is
//! likely a mistake.
//!
//! It consumes the format's reader ([`crate::format::read`]), which
//! judges each line on all cores, and links the entries into the tree in
//! file order as the verdicts come back: one pass gives the report and, for
//! the commands that show the session, the tree ([`check_tree`]).

pub mod digest;
mod line;
pub mod since;
pub(crate) mod warnings;

use std::io::{self, Read};

use crate::format::Format;
pub use crate::format::finding::{Code, Finding, Remedy, Severity};
use crate::format::read::{Verdicts, read_blocks};
use crate::format::tools::ToolFacts;
use crate::tree::{Tree, TreeBuilder};
use digest::{Digest, Hasher};
use line::Place;
use warnings::warn;

/// Counts describing a file's tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Bytes read.
    pub bytes: u64,
    /// Entries of the user's tree: ysess's records are counted apart.
    pub entries: u64,
    /// ysess's own records.
    pub records: u64,
    /// Entries without a parent.
    pub roots: u64,
    /// Entries without children.
    pub tips: u64,
    /// Distinct labels.
    pub labels: u64,
    /// HEAD's id; `None` for an empty file.
    pub head: Option<String>,
    /// Entries on HEAD's root path, HEAD included.
    pub head_depth: u32,
}

/// A torn last line: `offset..offset+len` are the bytes of an interrupted
/// write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Torn {
    /// Where the torn line starts: the file is sound up to here.
    pub offset: u64,
    /// Its bytes.
    pub len: u64,
}

/// What checking a file found.
#[derive(Debug, Default)]
pub struct Report {
    /// The file's format, as detected or as the caller forced it.
    pub format: Format,
    /// Every finding, by line (file-level ones first).
    pub findings: Vec<Finding>,
    /// Counts describing the file's tree.
    pub summary: Summary,
    /// The whole file's digest, when asked for.
    pub digest: Option<Digest>,
    /// A torn last line, if the file ends with one.
    pub torn: Option<Torn>,
    /// The file version its header declares, as its app reads it (pi: 1, 2
    /// or 3); `None` for a format without one.
    pub version: Option<u64>,
    /// The ids of entries that the findings and the summary name and that a
    /// person reads shorter, with their short forms
    /// ([`crate::tree::Tree::long_ids_in`]), for output made after the
    /// tree is gone ([`crate::tree::abbrev::shorten`]).
    pub short_ids: Vec<(String, String)>,
    /// The title the format's own lines give the session (Claude Code's
    /// `custom-title`, else its `summary`): the last one given by the user,
    /// else the app's last whose leaf is an entry of this file (one whose
    /// leaf is not is another session's); raw session text.
    pub title: Option<String>,
    /// Each entry's tally, by index, when asked for
    /// ([`Options::tallies`]); `None` where the scanner did not read it.
    pub tallies: Vec<Option<crate::format::Tally>>,
}

impl Report {
    /// Findings that are errors.
    pub fn errors(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .count()
    }

    /// Findings that are warnings.
    pub fn warnings(&self) -> usize {
        self.findings.len() - self.errors()
    }

    /// Sorts findings by line (file-level ones first), errors before
    /// warnings on one line.
    pub fn sort(&mut self) {
        self.findings
            .sort_by_key(|f| (f.line, f.severity(), f.offset));
    }
}

/// What a check does besides finding errors.
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
    /// Read the file as this format, whatever its first line shows.
    pub format: Option<Format>,
    /// Keep each entry's [`crate::format::Tally`] where its format's
    /// scanner reads it ([`Report::tallies`]).
    pub tallies: bool,
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
    let mut state = State::default();
    let want = crate::format::read::Want {
        subjects: options.subjects,
        tallies: options.tallies,
    };
    let (bytes, format) = read_blocks(reader, tap, options.format, want, |v| state.take(v))?;
    let (mut report, tree) = state.finish(format, options.warnings);
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
                "the last line is cut short, as by an interrupted write; the file is sound up to byte {}",
                torn.offset
            );
            f.remedy = Some(Remedy::CutTorn(torn.len));
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
    /// Ids named by lines whose entry could not be read: their children
    /// are not reported again for it.
    broken_ids: hashbrown::HashSet<String>,
    /// Offset of the last non-blank line.
    last_nonblank: Option<u64>,
    /// The finding of the last non-blank line, when it stopped mid-value.
    last_eof_finding: Option<usize>,
    lines: u64,
    /// Whether the first non-blank line is a header, once it is seen.
    header_first: Option<bool>,
    /// The version the first line's header declares.
    version: Option<u64>,
    /// In a pi version-1 file: the entry before, which pi makes the parent
    /// of the next one, and the ids pi gives its JSON lines in order (the
    /// header first), which a compaction's `firstKeptEntryIndex` counts.
    chain: Option<String>,
    numbered: Vec<Option<String>>,
    /// The format the lines are read as (known from the first block on).
    format: Format,
    /// How Claude Code's entries join the tree.
    claude: crate::format::claude::join::Join,
    /// How a file whose lines name no parent joins ([`crate::format::Joins::InFileOrder`]).
    order: crate::format::gemini::join::Join,
    /// Lines of types the format does not know: (type, first line, its
    /// offset, how many), in order of first sight.
    unknown_types: Vec<(Box<str>, u64, u64, u64)>,
    /// The session's title, from the format's own lines: the last one the
    /// user gave.
    title: Option<crate::format::Title>,
    /// The app's summaries, in file order.
    summaries: Vec<crate::format::Title>,
}

impl State {
    fn take(&mut self, mut verdicts: Verdicts) {
        self.format = verdicts.format;
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

    /// Counts a line of a type the format does not know.
    fn unknown_type(&mut self, kind: Box<str>, line: Place) {
        match self.unknown_types.iter_mut().find(|t| t.0 == kind) {
            Some(seen) => seen.3 += 1,
            None => self.unknown_types.push((kind, line.number, line.offset, 1)),
        }
    }

    fn finish(mut self, format: Format, warnings: bool) -> (Report, Tree) {
        self.claude.finish(
            &mut self.builder,
            &mut self.tools,
            &mut self.report.findings,
        );
        self.report_unknown_types();
        let State {
            mut report,
            builder,
            tools,
            unknown_parents,
            last_nonblank,
            last_eof_finding,
            header_first,
            version,
            broken_ids,
            title,
            summaries,
            ..
        } = self;
        report.format = format;
        report.version = version;
        report.title = title
            .or_else(|| own_summary(summaries, &builder))
            .map(|t| t.text.into());
        // pi starts a file afresh, every entry dropped, when its first line
        // is not a header.
        if format.spec().header_first() && header_first == Some(false) {
            report.findings.push(Finding {
                code: Code::MissingHeader,
                line: Some(1),
                offset: Some(0),
                id: None,
                message: "the first line is not a session header: pi would start this file afresh, dropping every entry"
                    .to_string(),
                remedy: None,
            });
        }
        let cascaded = settle_parents(&mut report.findings, &builder, unknown_parents, &broken_ids);
        // The last line cut short is an interrupted write.
        if let (Some(at), Some(offset)) = (last_eof_finding, last_nonblank) {
            let finding = &mut report.findings[at];
            finding.code = Code::TruncatedLastLine;
            // The torn write starts where the line does.
            finding.offset = Some(offset);
            report.torn = Some(Torn { offset, len: 0 });
        }
        // Only now, as the indices above count every finding.
        drop_findings(&mut report.findings, &cascaded);
        let tree = builder.finish();
        summarize_and_warn(&mut report, &tree, &tools, format, warnings);
        report.short_ids = short_ids(&report, &tree);
        (report, tree)
    }

    /// One finding per type of line the format does not know.
    fn report_unknown_types(&mut self) {
        for (kind, line, offset, count) in std::mem::take(&mut self.unknown_types) {
            let lines = if count == 1 { "line" } else { "lines" };
            self.report.findings.push(Finding {
                code: Code::UnknownLineType,
                line: Some(line),
                offset: Some(offset),
                id: None,
                message: format!(
                    "{count} {lines} of type `{kind}`, which ysess does not know (first here): skipped, as the app's own bookkeeping"
                ),
                remedy: None,
            });
        }
    }
}

/// The last summary of this session's own entries, for a file with no
/// title of its own: one whose leaf is in another file is that session's
/// title.
fn own_summary(
    summaries: Vec<crate::format::Title>,
    builder: &TreeBuilder,
) -> Option<crate::format::Title> {
    summaries.into_iter().rev().find(|t| {
        t.leaf
            .as_deref()
            .is_none_or(|leaf| builder.line_of(leaf).is_some())
    })
}

/// Settles the parents that were unknown when their child was read: a
/// parent defined after its child is a forward reference. A parent named by
/// a line that could not be read is reported there, once; its children do
/// not cascade into more errors: their findings' indices are returned, to
/// be dropped.
fn settle_parents(
    findings: &mut [Finding],
    builder: &TreeBuilder,
    unknown_parents: Vec<(usize, String)>,
    broken_ids: &hashbrown::HashSet<String>,
) -> Vec<usize> {
    let mut cascaded = Vec::new();
    // (In file order, so `cascaded` comes out sorted.)
    for (at, parent) in unknown_parents {
        match builder.line_of(&parent) {
            Some(line) => {
                let finding = &mut findings[at];
                finding.code = Code::ForwardParent;
                finding.message = format!(
                    "entry {}: parent {parent} is defined later, at line {line}; a parent must come before its children",
                    finding.id.as_deref().unwrap_or("?")
                );
            }
            None if broken_ids.contains(&parent) => cascaded.push(at),
            None => {}
        }
    }
    cascaded
}

/// Drops the findings at the sorted indices `cascaded`.
fn drop_findings(findings: &mut Vec<Finding>, cascaded: &[usize]) {
    if cascaded.is_empty() {
        return;
    }
    let mut at = 0;
    findings.retain(|_| {
        at += 1;
        cascaded.binary_search(&(at - 1)).is_err()
    });
}

/// Counts the summary and looks for the warnings (when asked): on two
/// threads in a large file, as the other cores are idle by now.
fn summarize_and_warn(
    report: &mut Report,
    tree: &Tree,
    tools: &ToolFacts,
    format: Format,
    warnings: bool,
) {
    let findings = &mut report.findings;
    let (summary, ()) = crate::input::par::join(
        tree.len() >= crate::input::par::SPLIT_AT,
        || summarize(tree, 0),
        || {
            if warnings {
                warn(tree, tools, format, findings);
            }
        },
    );
    report.summary = summary;
}

/// The entries' long ids the findings and the head name, sorted, once each.
fn short_ids(report: &Report, tree: &Tree) -> Vec<(String, String)> {
    let mut short_ids: Vec<(String, String)> = report
        .findings
        .iter()
        .map(|f| f.message.as_str())
        .chain(report.summary.head.as_deref())
        .flat_map(|text| tree.long_ids_in(text))
        .collect();
    short_ids.sort();
    short_ids.dedup();
    short_ids
}

fn compare_prefix(expected: &Digest, hasher: Hasher, bytes: u64) -> Option<Finding> {
    let message = if bytes < expected.bytes {
        format!(
            "the file shrank: it has {bytes} bytes, but the digest covers {}; history was rewritten",
            expected.bytes
        )
    } else if hasher.finish(expected.bytes) != *expected {
        format!(
            "the first {} bytes no longer match the digest: an earlier line was rewritten",
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
        remedy: (bytes >= expected.bytes).then_some(Remedy::CompareOldCopy),
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
