//! Differential test: `ysess fsck` against yoagent itself.
//!
//! [`cases::corpus`] generates about a thousand broken and borderline
//! session files (nearly three thousand with `YSESS_FULL_CORPUS=1`). yoagent
//! judges each one — that is the ground truth: a file that is not UTF-8
//! cannot be read, otherwise `Session::from_jsonl` loads it or says why not —
//! and `ysess fsck --json` judges them all in a handful of processes. The
//! verdicts must agree, and when yoagent names a line or an id, ysess must
//! name the same one.

mod cases;

use cases::{Case, Size};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use yoagent::{Session, SessionError};

/// Files per `ysess fsck --json` process.
const BATCH: usize = 150;
/// Besides the notable cases, every n-th case also gets its own process.
const SAMPLE_EVERY: usize = 25;
/// How much of a file a failure message shows.
const PREVIEW_CHARS: usize = 300;

/// `YSESS_FULL_CORPUS=1` runs every value of every list: nearly three times
/// the cases, and as many times slower.
fn corpus_size() -> Size {
    match std::env::var("YSESS_FULL_CORPUS") {
        Ok(v) if !v.is_empty() && v != "0" => Size::Full,
        _ => Size::Quick,
    }
}

#[test]
fn fsck_json_agrees_with_yoagent_on_every_corpus_case() {
    let run = corpus_run();
    let mut report = String::new();
    for problem in &run.batch_problems {
        let _ = writeln!(report, "batch: {problem}");
    }
    let disagreeing: Vec<&Outcome> = run
        .outcomes
        .iter()
        .filter(|o| !o.problems.is_empty())
        .collect();
    for outcome in &disagreeing {
        report.push_str(&describe(&run.cases[outcome.case], outcome));
    }
    assert!(
        report.is_empty(),
        "{} of {} corpus cases disagree with yoagent:\n\n{report}",
        disagreeing.len(),
        run.outcomes.len()
    );
}

#[test]
fn fsck_exit_code_matches_yoagent_on_sampled_corpus_cases() {
    let cases = cases::corpus(corpus_size());
    let dir = tempfile::tempdir().expect("create a temporary directory");
    let mut mismatches = Vec::new();
    let sample = cases
        .iter()
        .enumerate()
        .filter(|(i, case)| case.notable || i % SAMPLE_EVERY == 0);
    for (i, case) in sample {
        let path = write_case(dir.path(), i, case);
        let output = ysess(&[OsArg::from("fsck"), path.clone().into_os_string()]);
        let verdict = Verdict::of(&case.bytes);
        let expected = if verdict.loads() { 0 } else { 1 };
        if output.status.code() != Some(expected) {
            mismatches.push(format!(
                "{}: `ysess fsck FILE` exited with {:?}, want {expected} (yoagent: {verdict})\n    file: {}\n    stderr: {}",
                case.name,
                output.status.code(),
                preview(&case.bytes),
                preview(&output.stderr),
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} exit codes disagree:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn corpus_has_at_least_400_cases_and_reports_agreement() {
    let run = corpus_run();
    let agree = run
        .outcomes
        .iter()
        .filter(|o| o.problems.is_empty())
        .count();
    eprintln!(
        "corpus: {} cases ({:?}), {agree} agree",
        run.outcomes.len(),
        corpus_size()
    );
    assert!(
        run.outcomes.len() >= 400,
        "the corpus has only {} cases",
        run.outcomes.len()
    );
}

#[test]
fn corpus_is_deterministic_with_unique_names() {
    let first = cases::corpus(corpus_size());
    let second = cases::corpus(corpus_size());
    assert_eq!(
        first.len(),
        second.len(),
        "the corpus size changed between two runs"
    );
    let mut names = HashSet::new();
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.name, b.name, "case order changed between two runs");
        assert!(
            a.bytes == b.bytes,
            "{}: the bytes changed between two runs",
            a.name
        );
        assert!(names.insert(&a.name), "two cases are named {:?}", a.name);
    }
}

#[test]
fn corpus_covers_every_yoagent_verdict() {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for case in cases::corpus(corpus_size()) {
        *counts.entry(Verdict::of(&case.bytes).kind()).or_default() += 1;
    }
    for kind in [
        "loads",
        "not UTF-8",
        "parse error",
        "duplicate id",
        "unknown parent",
    ] {
        assert!(
            counts.get(kind).copied().unwrap_or(0) > 0,
            "no case where yoagent says {kind}: {counts:?}"
        );
    }
    assert!(counts["loads"] >= 100, "too few loadable cases: {counts:?}");
    assert!(
        counts["parse error"] >= 100,
        "too few unparsable cases: {counts:?}"
    );
    assert!(
        !counts.contains_key("other"),
        "yoagent refused with an unexpected error: {counts:?}"
    );
}

// ---------------------------------------------------------------------------
// Ground truth
// ---------------------------------------------------------------------------

/// What yoagent makes of a file.
#[derive(Debug, Clone, PartialEq)]
enum Verdict {
    Loads { entries: usize },
    NotUtf8,
    Parse { line: usize, error: String },
    DuplicateId(String),
    UnknownParent { id: String, parent: String },
    Other(String),
}

impl Verdict {
    fn of(bytes: &[u8]) -> Self {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return Verdict::NotUtf8;
        };
        match Session::from_jsonl(text) {
            Ok(session) => Verdict::Loads {
                entries: session.entries().len(),
            },
            Err(SessionError::Parse { line, error }) => Verdict::Parse { line, error },
            Err(SessionError::DuplicateId(id)) => Verdict::DuplicateId(id),
            Err(SessionError::UnknownParent { id, parent }) => {
                Verdict::UnknownParent { id, parent }
            }
            Err(other) => Verdict::Other(other.to_string()),
        }
    }

    fn loads(&self) -> bool {
        matches!(self, Verdict::Loads { .. })
    }

    fn kind(&self) -> &'static str {
        match self {
            Verdict::Loads { .. } => "loads",
            Verdict::NotUtf8 => "not UTF-8",
            Verdict::Parse { .. } => "parse error",
            Verdict::DuplicateId(_) => "duplicate id",
            Verdict::UnknownParent { .. } => "unknown parent",
            Verdict::Other(_) => "other",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Loads { entries } => write!(f, "loads, {entries} entries"),
            Verdict::NotUtf8 => write!(f, "refused: not UTF-8"),
            Verdict::Parse { line, error } => write!(
                f,
                "refused: parse error on line {line}: {}",
                escape(error.as_bytes())
            ),
            Verdict::DuplicateId(id) => write!(f, "refused: duplicate id {:?}", id),
            Verdict::UnknownParent { id, parent } => {
                write!(
                    f,
                    "refused: entry {id:?} references unknown parent {parent:?}"
                )
            }
            Verdict::Other(error) => write!(f, "refused: {error}"),
        }
    }
}

// ---------------------------------------------------------------------------
// Running ysess
// ---------------------------------------------------------------------------

type OsArg = std::ffi::OsString;

fn ysess(args: &[OsArg]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ysess"))
        .args(args)
        .output()
        .expect("run the ysess binary")
}

fn write_case(dir: &Path, index: usize, case: &Case) -> PathBuf {
    let path = dir.join(format!("case-{index:04}.jsonl"));
    std::fs::write(&path, &case.bytes).expect("write a corpus file");
    path
}

/// What `ysess fsck --json` said about one file.
#[derive(Debug, Default)]
struct Report {
    findings: Vec<Value>,
    summary: Option<Value>,
}

impl Report {
    fn errors(&self) -> impl Iterator<Item = &Value> {
        self.findings.iter().filter(|f| f["severity"] == "error")
    }
}

struct Outcome {
    /// Index into [`CorpusRun::cases`].
    case: usize,
    verdict: Verdict,
    report: Report,
    /// Every way ysess disagrees with yoagent on this file; empty = agrees.
    problems: Vec<String>,
}

struct CorpusRun {
    cases: Vec<Case>,
    outcomes: Vec<Outcome>,
    /// Problems with a whole `ysess` process rather than one file.
    batch_problems: Vec<String>,
}

/// The whole corpus, judged by both sides once per test binary.
fn corpus_run() -> &'static CorpusRun {
    static RUN: OnceLock<CorpusRun> = OnceLock::new();
    RUN.get_or_init(run_corpus)
}

fn run_corpus() -> CorpusRun {
    let cases = cases::corpus(corpus_size());
    let verdicts: Vec<Verdict> = cases.iter().map(|c| Verdict::of(&c.bytes)).collect();
    let dir = tempfile::tempdir().expect("create a temporary directory");
    let paths: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let path = write_case(dir.path(), i, case);
            path.into_os_string()
                .into_string()
                .expect("temporary paths are UTF-8")
        })
        .collect();

    let batches: Vec<(Vec<Value>, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = paths
            .chunks(BATCH)
            .zip(verdicts.chunks(BATCH))
            .map(|(paths, verdicts)| scope.spawn(move || run_batch(paths, verdicts)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a batch thread panicked"))
            .collect()
    });

    let mut reports: HashMap<&str, Report> = paths
        .iter()
        .map(|p| (p.as_str(), Report::default()))
        .collect();
    let mut batch_problems = Vec::new();
    for (objects, problems) in batches {
        batch_problems.extend(problems);
        for object in objects {
            let file = object["file"].as_str().unwrap_or_default();
            let Some(report) = reports.get_mut(file) else {
                batch_problems.push(format!("output names a file that was not given: {object}"));
                continue;
            };
            match object["type"].as_str() {
                Some("finding") => report.findings.push(object),
                Some("summary") if report.summary.is_some() => {
                    batch_problems.push(format!("a second summary for one file: {object}"));
                }
                Some("summary") => report.summary = Some(object),
                _ => batch_problems.push(format!("output object of unknown type: {object}")),
            }
        }
    }

    let outcomes = verdicts
        .into_iter()
        .enumerate()
        .map(|(case, verdict)| {
            let report = reports
                .remove(paths[case].as_str())
                .expect("every path has a report");
            let problems = disagreements(&verdict, &report, &paths[case]);
            Outcome {
                case,
                verdict,
                report,
                problems,
            }
        })
        .collect();
    CorpusRun {
        cases,
        outcomes,
        batch_problems,
    }
}

/// Runs `ysess fsck --json` on `paths`; returns the JSON objects it printed
/// and any problems with the process as a whole.
fn run_batch(paths: &[String], verdicts: &[Verdict]) -> (Vec<Value>, Vec<String>) {
    let mut args = vec![OsArg::from("fsck"), OsArg::from("--json")];
    args.extend(paths.iter().map(OsArg::from));
    let output = ysess(&args);
    let first = paths.first().map(String::as_str).unwrap_or_default();
    let mut problems = Vec::new();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut objects = Vec::new();
    for line in stdout.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(object) => objects.push(object),
            Err(e) => problems.push(format!(
                "stdout line is not JSON ({e}): {}",
                preview(line.as_bytes())
            )),
        }
    }

    let any_refused = verdicts.iter().any(|v| !v.loads());
    let expected = if any_refused { 1 } else { 0 };
    if output.status.code() != Some(expected) {
        problems.push(format!(
            "`ysess fsck --json` on {} files from {first} exited with {:?}, want {expected}; stderr: {}",
            paths.len(),
            output.status.code(),
            preview(&output.stderr),
        ));
    }
    let summary_files: Vec<&str> = objects
        .iter()
        .filter(|o| o["type"] == "summary")
        .filter_map(|o| o["file"].as_str())
        .collect();
    let given: Vec<&str> = paths.iter().map(String::as_str).collect();
    if summary_files != given {
        problems.push(format!(
            "summaries are not one per file in argument order for the batch starting at {first} ({} summaries for {} files)",
            summary_files.len(),
            given.len()
        ));
    }
    (objects, problems)
}

// ---------------------------------------------------------------------------
// Comparing
// ---------------------------------------------------------------------------

/// Every way `report` disagrees with `verdict`.
fn disagreements(verdict: &Verdict, report: &Report, path: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(summary) = &report.summary else {
        return vec!["no summary object for this file".into()];
    };
    match summary["ok"].as_bool() {
        Some(ok) if ok == verdict.loads() => {}
        Some(ok) => problems.push(format!(
            "summary says ok={ok}, yoagent says {}",
            verdict.kind()
        )),
        None => problems.push("summary has no boolean \"ok\"".into()),
    }
    let errors: Vec<&Value> = report.errors().collect();
    if verdict.loads() && !errors.is_empty() {
        problems.push("errors reported for a file yoagent loads".into());
    }
    if !verdict.loads() && errors.is_empty() {
        problems.push("no error finding for a file yoagent refuses".into());
    }

    match verdict {
        Verdict::Loads { entries } => {
            if summary["entries"].as_u64() != Some(*entries as u64) {
                problems.push(format!(
                    "summary has entries={}, yoagent loaded {entries}",
                    summary["entries"]
                ));
            }
        }
        Verdict::NotUtf8 => {
            if !errors.iter().any(|f| f["code"] == "notUtf8") {
                problems.push("no notUtf8 error".into());
            }
        }
        Verdict::Parse { line, .. } => {
            let lowest = errors.iter().filter_map(|f| f["line"].as_u64()).min();
            if lowest != Some(*line as u64) {
                problems.push(format!(
                    "lowest error line is {lowest:?}, yoagent fails on line {line}"
                ));
            }
        }
        Verdict::DuplicateId(id) => {
            if !errors
                .iter()
                .any(|f| f["code"] == "duplicateId" && f["id"] == id.as_str())
            {
                problems.push(format!("no duplicateId error with id {id:?}"));
            }
        }
        Verdict::UnknownParent { id, .. } => {
            let codes = ["selfParent", "unknownParent", "forwardParent"];
            let found = errors
                .iter()
                .any(|f| codes.iter().any(|c| f["code"] == *c) && f["id"] == id.as_str());
            if !found {
                problems.push(format!(
                    "no selfParent/unknownParent/forwardParent error with id {id:?}"
                ));
            }
        }
        Verdict::Other(_) => {
            problems.push("yoagent refused for a reason this test does not know".into())
        }
    }

    for finding in &report.findings {
        if !matches!(finding["severity"].as_str(), Some("error" | "warning")) {
            problems.push(format!("finding with severity {}", finding["severity"]));
        }
        if finding["file"] != path {
            problems.push(format!("finding names file {}", finding["file"]));
        }
        match finding["message"].as_str() {
            Some(message) if message.chars().any(char::is_control) => {
                problems.push(format!(
                    "finding message has raw control characters: {}",
                    escape(message.as_bytes())
                ));
            }
            Some(_) => {}
            None => problems.push("finding without a string message".into()),
        }
    }
    problems
}

/// The failure text for one disagreeing case.
fn describe(case: &Case, outcome: &Outcome) -> String {
    let mut text = format!("── {}\n", case.name);
    let _ = writeln!(
        text,
        "   file ({} bytes): {}",
        case.bytes.len(),
        preview(&case.bytes)
    );
    // The lines either side points at, whole (the file preview may cut them).
    let yoagent_line = match outcome.verdict {
        Verdict::Parse { line, .. } => Some(line as u64),
        _ => None,
    };
    let ysess_line = outcome
        .report
        .errors()
        .filter_map(|f| f["line"].as_u64())
        .min();
    let mut named: Vec<u64> = yoagent_line.into_iter().chain(ysess_line).collect();
    named.dedup();
    for n in named {
        let line = case
            .bytes
            .split(|b| *b == b'\n')
            .nth(n.saturating_sub(1) as usize);
        let _ = writeln!(text, "   line {n}: {}", preview(line.unwrap_or_default()));
    }
    let _ = writeln!(text, "   yoagent: {}", outcome.verdict);
    match &outcome.report.summary {
        Some(summary) => {
            let _ = writeln!(text, "   ysess summary: {summary}");
        }
        None => text.push_str("   ysess summary: (none)\n"),
    }
    const SHOWN: usize = 12;
    for finding in outcome.report.findings.iter().take(SHOWN) {
        let _ = writeln!(
            text,
            "   ysess {} line {} {} id={}: {}",
            finding["severity"].as_str().unwrap_or("?"),
            finding["line"],
            finding["code"].as_str().unwrap_or("?"),
            finding["id"],
            escape(finding["message"].as_str().unwrap_or("").as_bytes()),
        );
    }
    if outcome.report.findings.len() > SHOWN {
        let _ = writeln!(
            text,
            "   … {} more findings",
            outcome.report.findings.len() - SHOWN
        );
    }
    for problem in &outcome.problems {
        let _ = writeln!(text, "   ✗ {problem}");
    }
    text.push('\n');
    text
}

/// `bytes` escaped so that every byte is visible: invalid UTF-8 as `\xNN`,
/// control and invisible characters as `\u{…}`.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                ' ' => out.push(' '),
                c if c.is_control() || c.is_whitespace() || is_invisible(c) => {
                    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
                }
                c => out.push(c),
            }
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02x}");
        }
    }
    out
}

fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{180e}')
}

/// [`escape`], cut to about [`PREVIEW_CHARS`] characters (head and tail).
fn preview(bytes: &[u8]) -> String {
    let escaped: Vec<char> = escape(bytes).chars().collect();
    if escaped.len() <= PREVIEW_CHARS {
        return escaped.into_iter().collect();
    }
    let half = PREVIEW_CHARS / 2;
    let head: String = escaped[..half].iter().collect();
    let tail: String = escaped[escaped.len() - half..].iter().collect();
    format!(
        "{head} …[{} chars cut]… {tail}",
        escaped.len() - PREVIEW_CHARS
    )
}
