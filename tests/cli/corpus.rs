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
            // A last line that stops inside a character is a torn write.
            if !errors
                .iter()
                .any(|f| f["code"] == "notUtf8" || f["code"] == "truncatedLastLine")
            {
                problems.push("no notUtf8 (or truncatedLastLine) error".into());
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

// ---------------------------------------------------------------------------
// No input makes ysess panic
// ---------------------------------------------------------------------------

/// Every command that only reads, run on each sampled case as it is.
const READING: &[&[&str]] = &[
    &["log"],
    &["log", "--all", "--oneline"],
    &["log", "--graph"],
    &["log", "--graph", "--ascii", "--markers"],
    &["log", "-n", "3"],
    &["log", "--json"],
    &["show"],
    &["show", "--json"],
    &["show", "e1"],
    &["branch", "-v"],
    &["branch", "--json"],
    &["tag", "-n"],
    &["diff", "e1"],
    &["diff", "--stat", "e1", "HEAD"],
    &["export"],
    &["export", "--session"],
    &["fsck", "-v", "--json"],
];

/// Commands that append, run in this order on a copy of each case yoagent
/// loads; `fsck` must pass afterwards and yoagent must still load the file.
const WRITING: &[&[&str]] = &[
    &["tag", "t1"],
    &["checkout", "e1"],
    &["checkout", "-b", "b1", "e1"],
    &["append", "--user", "x"],
    &["branch", "b2"],
    &["branch", "-m", "b2", "b3"],
    &["branch", "-d", "b3"],
];

/// Of each category's cases (the name up to its first `/`), every n-th that
/// yoagent loads and every n-th that it refuses, the first of each included,
/// is run in the quick corpus; `YSESS_FULL_CORPUS=1` runs every case.
const LOADS_EVERY: usize = 3;
const REFUSED_EVERY: usize = 10;

/// One file to run every command on.
struct Probe {
    name: String,
    bytes: Vec<u8>,
    /// yoagent loads it, so the writing commands run on a copy.
    loads: bool,
    /// More commands for this file, after [`READING`] and [`WRITING`].
    reading: Vec<Vec<String>>,
    writing: Vec<Vec<String>>,
}

/// What running the probes found.
#[derive(Default)]
struct Crashes {
    /// Panics, crashes, and the other broken promises, one text each.
    problems: Vec<String>,
    processes: usize,
    /// Exit statuses of the writing commands, by command, for the log.
    write_codes: std::collections::BTreeMap<String, std::collections::BTreeMap<i32, usize>>,
}

fn ysess_in(dir: &Path, file: &Path, args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ysess"))
        .current_dir(dir)
        .arg("-f")
        .arg(file)
        .args(args)
        .env("TZ", "UTC")
        .env("YSESS_REFS", dir.join(".ysess-refs"))
        .env_remove("YSESS_FILE")
        .env_remove("YSESS_PAGER")
        .env_remove("NO_COLOR")
        .env_remove("RUST_BACKTRACE")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the ysess binary")
}

/// Why this run broke the no-panic promise, if it did: exit status 101, a
/// death by signal, or a panic message on stderr.
fn crash(output: &Output) -> Option<String> {
    let panicked = output.stderr.windows(8).any(|w| w == b"panicked");
    match output.status.code() {
        Some(101) => Some("exited with 101 (a panic)".into()),
        None => Some(format!("was killed: {}", output.status)),
        Some(code) if panicked => Some(format!("printed a panic, exit {code}")),
        Some(_) => None,
    }
}

fn args_of(list: &[&[&str]]) -> Vec<Vec<String>> {
    list.iter()
        .map(|a| a.iter().map(|s| s.to_string()).collect())
        .collect()
}

/// Runs every command of `probe` in `dir`, each its own process.
fn run_probe(dir: &Path, index: usize, probe: &Probe, out: &mut Crashes) {
    let path = dir.join(format!("probe-{index:04}.jsonl"));
    std::fs::write(&path, &probe.bytes).expect("write a probe file");
    let run = |path: &Path, args: &[String], out: &mut Crashes| -> Output {
        let output = ysess_in(dir, path, args);
        out.processes += 1;
        if let Some(how) = crash(&output) {
            out.problems.push(format!(
                "{}: `ysess {}` {how}\n    file: {}\n    stderr: {}",
                probe.name,
                args.join(" "),
                preview(&probe.bytes),
                preview(&output.stderr),
            ));
        }
        output
    };
    for args in args_of(READING).iter().chain(&probe.reading) {
        run(&path, args, out);
    }
    if std::fs::read(&path).expect("read the probe file back") != probe.bytes {
        out.problems.push(format!(
            "{}: a reading command changed the file",
            probe.name
        ));
    }
    if !probe.loads {
        return;
    }
    let copy = dir.join(format!("probe-{index:04}-written.jsonl"));
    std::fs::write(&copy, &probe.bytes).expect("write a probe copy");
    for args in args_of(WRITING).iter().chain(&probe.writing) {
        let output = run(&copy, args, out);
        *out.write_codes
            .entry(args.join(" "))
            .or_default()
            .entry(output.status.code().unwrap_or(-1))
            .or_default() += 1;
    }
    let written = std::fs::read(&copy).expect("read the written copy");
    let fsck = run(&copy, &["fsck".to_string()], out);
    if fsck.status.code() != Some(0) {
        out.problems.push(format!(
            "{}: `ysess fsck` exited with {:?} after the writing commands\n    file: {}\n    stderr: {}",
            probe.name,
            fsck.status.code(),
            preview(&written),
            preview(&fsck.stderr),
        ));
    }
    if !Verdict::of(&written).loads() {
        out.problems.push(format!(
            "{}: yoagent no longer loads the file after the writing commands ({})\n    file: {}",
            probe.name,
            Verdict::of(&written),
            preview(&written),
        ));
    }
}

/// Runs every probe, on two threads a core (they mostly wait for a process).
fn run_probes(probes: &[Probe]) -> Crashes {
    // The few multi-megabyte files first, so that they do not finish last.
    let mut order: Vec<&Probe> = probes.iter().collect();
    order.sort_by_key(|p| std::cmp::Reverse(p.bytes.len()));
    let dir = tempfile::tempdir().expect("create a temporary directory");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let runners = std::thread::available_parallelism().map_or(2, |n| 2 * n.get());
    let results: Vec<Crashes> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..runners)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Crashes::default();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(probe) = order.get(i) else {
                            return out;
                        };
                        run_probe(dir.path(), i, probe, &mut out);
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a runner thread panicked"))
            .collect()
    });
    let mut all = Crashes::default();
    for r in results {
        all.problems.extend(r.problems);
        all.processes += r.processes;
        for (command, codes) in r.write_codes {
            for (code, n) in codes {
                *all.write_codes
                    .entry(command.clone())
                    .or_default()
                    .entry(code)
                    .or_default() += n;
            }
        }
    }
    all.problems.sort();
    all
}

fn assert_no_crashes(what: &str, probes: &[Probe]) {
    let started = std::time::Instant::now();
    let crashes = run_probes(probes);
    let loading = probes.iter().filter(|p| p.loads).count();
    eprintln!(
        "{what}: {} files ({loading} that yoagent loads), {} ysess processes, {:.1?}",
        probes.len(),
        crashes.processes,
        started.elapsed()
    );
    for (command, codes) in &crashes.write_codes {
        eprintln!("    `ysess {command}` exit statuses: {codes:?}");
    }
    assert!(
        crashes.problems.is_empty(),
        "{} broken promises ({what}):\n{}",
        crashes.problems.len(),
        crashes.problems.join("\n")
    );
}

/// A sample of the corpus (see [`LOADS_EVERY`]): no reading command panics
/// on a case as it is, no writing command panics on a copy of a case yoagent
/// loads, and after the writes `fsck` passes and yoagent still loads the file.
#[test]
fn no_command_panics_on_any_corpus_case() {
    let size = corpus_size();
    let mut seen: HashMap<(String, bool), usize> = HashMap::new();
    let probes: Vec<Probe> = cases::corpus(size)
        .into_iter()
        .filter_map(|case| {
            let loads = Verdict::of(&case.bytes).loads();
            let category = case.name.split('/').next().unwrap_or_default().to_string();
            let n = seen.entry((category, loads)).or_default();
            let every = if loads { LOADS_EVERY } else { REFUSED_EVERY };
            let keep = size == Size::Full || n.is_multiple_of(every);
            *n += 1;
            keep.then_some(Probe {
                name: case.name,
                bytes: case.bytes,
                loads,
                reading: Vec::new(),
                writing: Vec::new(),
            })
        })
        .collect();
    assert_no_crashes("corpus", &probes);
}

/// Ids that look like revisions (`HEAD`, `@`, `e1~1`), start like an option,
/// are empty or not ASCII; labels equal to ids; labels that the writing
/// commands later try as tag and branch names; hand-made ysess records with
/// odd names. Each odd id is also named on the command line, after `--`.
#[test]
fn no_command_panics_on_odd_ids_and_names() {
    let probes: Vec<Probe> = cases::odd_ids()
        .into_iter()
        .map(|case| {
            let verdict = Verdict::of(&case.bytes);
            assert!(
                verdict.loads(),
                "{}: yoagent refuses it: {verdict}",
                case.name
            );
            let (reading, writing) = odd_id_commands(&ids_in(&case.bytes));
            Probe {
                name: case.name,
                bytes: case.bytes,
                loads: true,
                reading,
                writing,
            }
        })
        .collect();
    assert_no_crashes("odd ids", &probes);
}

/// The ids of a file's entries that are in [`cases::ODD_IDS`].
fn ids_in(bytes: &[u8]) -> Vec<&'static str> {
    let ids: HashSet<String> = bytes
        .split(|b| *b == b'\n')
        .filter_map(|line| serde_json::from_slice::<Value>(line).ok())
        .filter_map(|entry| entry["id"].as_str().map(str::to_string))
        .collect();
    cases::ODD_IDS
        .iter()
        .copied()
        .filter(|id| ids.contains(*id))
        .collect()
}

/// Reading and writing commands that name each of `ids` on the command
/// line (after `--`, so that `-x` is not an option).
fn odd_id_commands(ids: &[&str]) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let owned = |args: &[&str]| -> Vec<String> { args.iter().map(|s| s.to_string()).collect() };
    let (mut reading, mut writing) = (Vec::new(), Vec::new());
    for (k, &id) in ids.iter().enumerate() {
        for args in [
            &["show", "--json", "--", id][..],
            &["show", "--", id],
            &["log", "--oneline", "--", id],
            &["log", "-n", "2", "--", id],
            &["log", "--graph", "--", id],
            &["diff", "--", id],
            &["diff", "--stat", "--", "e1", id],
            &["export", "--session", "--", id],
            &["branch", &format!("--contains={id}")],
        ] {
            reading.push(owned(args));
        }
        let (tag, branch) = (format!("odd-tag-{k}"), format!("odd-branch-{k}"));
        for args in [
            &["checkout", "--", id][..],
            &["tag", &tag, "--", id],
            &["branch", &branch, "--", id],
            &["checkout", "-b", &format!("{branch}-b"), "--", id],
            &["append", &format!("--parent={id}"), "--user", "y"],
        ] {
            writing.push(owned(args));
        }
    }
    (reading, writing)
}

// ---------------------------------------------------------------------------
// What reading src/ found, reached through the command line
// ---------------------------------------------------------------------------

/// A yoagent user entry.
fn user_entry(id: &str, parent: Option<&str>, text: &str) -> Value {
    serde_json::json!({
        "id": id,
        "parent_id": parent,
        "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1},
        "timestamp": 1_760_000_000_000u64,
    })
}

/// A yoagent assistant entry with these token counts.
fn assistant_entry(id: &str, parent: &str, input: u64, output: u64) -> Value {
    serde_json::json!({
        "id": id,
        "parent_id": parent,
        "message": {
            "role": "assistant",
            "content": [{"type": "text", "text": format!("answer {id}")}],
            "stopReason": "stop",
            "model": "m",
            "provider": "p",
            "usage": {"input": input, "output": output},
            "timestamp": 1,
        },
        "timestamp": 1_760_000_000_000u64,
    })
}

/// `lines` as a session file in a new directory; yoagent must load it.
fn session_file(lines: &[String]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("create a temporary directory");
    let path = dir.path().join("session.jsonl");
    let text = lines.join("\n");
    let verdict = Verdict::of(text.as_bytes());
    assert!(
        verdict.loads(),
        "yoagent refuses the test file: {verdict}\n{text}"
    );
    std::fs::write(&path, text).expect("write the session file");
    (dir, path)
}

fn run_in(dir: &Path, path: &Path, args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    ysess_in(dir, path, &args)
}

fn transcript(args: &[&str], output: &Output) -> String {
    format!(
        "$ ysess {}\nexit {:?}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[track_caller]
fn assert_no_crash(dir: &Path, path: &Path, args: &[&str]) {
    let output = run_in(dir, path, args);
    if let Some(how) = crash(&output) {
        panic!(
            "`ysess {}` {how}\n{}",
            args.join(" "),
            transcript(args, &output)
        );
    }
}

/// `diff` adds up each side's token counts (`Stats::of`, `tokens_in +=
/// usage.input`) in a u64: two turns with counts near `u64::MAX` overflow.
/// A debug build panics; a release build wraps and prints `0 tokens in`.
#[test]
fn diff_adds_up_token_counts_past_u64_without_panicking() {
    let (dir, path) = session_file(&[
        user_entry("e1", None, "hi").to_string(),
        assistant_entry("e2", "e1", u64::MAX, u64::MAX).to_string(),
        assistant_entry("e3", "e2", 1, 1).to_string(),
    ]);
    for args in [
        &["diff", "e1"][..],
        &["diff", "--stat", "e1", "HEAD"],
        &["diff", "--json", "e1", "e3"],
        &["diff", "--summary", "e3", "e1"],
    ] {
        assert_no_crash(dir.path(), &path, args);
    }
}

/// `diff -U N` hands N to similar as the context radius, which similar
/// doubles (`n * 2` in `group_diff_ops`): past `usize::MAX / 2` a debug build
/// panics on the overflow, and a release build panics too, the wrapped
/// radius sending similar out of range ("diff operation old range out of
/// bounds").
#[test]
fn diff_takes_any_context_size_without_panicking() {
    let (dir, path) = session_file(&[
        user_entry("e1", None, "hi").to_string(),
        user_entry("e2", Some("e1"), "a\nb\nc").to_string(),
        user_entry("e3", Some("e1"), "a\nB\nc").to_string(),
    ]);
    for radius in ["9223372036854775808", "18446744073709551615"] {
        assert_no_crash(dir.path(), &path, &["diff", "-U", radius, "e2", "e3"]);
        assert_no_crash(
            dir.path(),
            &path,
            &["diff", "--word-diff", "-U", radius, "e2", "e3"],
        );
    }
}

/// Regression: yoagent skips an unknown entry field
/// without building it, so a lone surrogate, a number out of f64 range or
/// nesting past serde_json's limit of 128 loads there (fsck agrees); and it
/// reads an entry written as an array. But `Entry::parse` reads the whole
/// line as a `serde_json::Value`, which refuses all of these, so `show`,
/// `export` and `diff` of such an entry fail with "line N changed since it
/// was read". When the line is one of ysess's records, `Refs::read` fails
/// and so does every command but `fsck`, `tag` and `log -n`.
#[test]
fn every_command_reads_entries_yoagent_loads() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let extras = [r#""\ud800""#, "1e400", deep.as_str()];
    let mut failures = Vec::new();
    for extra in extras {
        let mut e1 = user_entry("e1", None, "hi").to_string();
        e1.insert_str(e1.len() - 1, &format!(r#","x":{extra}"#));
        let (dir, path) = session_file(&[e1, user_entry("e2", Some("e1"), "yo").to_string()]);
        for args in [
            &["show", "e1"][..],
            &["export"],
            &["export", "--session"],
            &["diff", "e1"],
        ] {
            let output = run_in(dir.path(), &path, args);
            if output.status.code() != Some(0) {
                failures.push(transcript(args, &output));
            }
        }
        // The same field on a ysess record.
        let (dir, path) = session_file(&[user_entry("e1", None, "hi").to_string()]);
        assert_eq!(
            run_in(dir.path(), &path, &["branch", "b1"]).status.code(),
            Some(0)
        );
        let mut text = std::fs::read_to_string(&path).expect("read the session");
        let last = text.trim_end().len() - 1;
        text.insert_str(last, &format!(r#","x":{extra}"#));
        std::fs::write(&path, &text).expect("write the session");
        assert!(Verdict::of(text.as_bytes()).loads(), "{text}");
        for args in [
            &["log"][..],
            &["branch"],
            &["show"],
            &["append", "--user", "x"],
        ] {
            let output = run_in(dir.path(), &path, args);
            if output.status.code() != Some(0) {
                failures.push(transcript(args, &output));
            }
        }
    }
    // An entry as an array of its fields, which serde also reads as a struct.
    let (dir, path) =
        session_file(&[r#"["e1",null,{"role":"user","content":[],"timestamp":1},1]"#.to_string()]);
    for args in [&["show"][..], &["export", "--session"]] {
        let output = run_in(dir.path(), &path, args);
        if output.status.code() != Some(0) {
            failures.push(transcript(args, &output));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Regression: `log -n N` (read from the end of the file) decorates
/// with labels carried by entries, but not with those `ysess tag` sets, which
/// a ysess record carries; `log` without `-n` shows them.
#[test]
fn log_n_shows_the_labels_ysess_tag_sets() {
    let (dir, path) = session_file(&[
        user_entry("e1", None, "one").to_string(),
        user_entry("e2", Some("e1"), "two").to_string(),
        user_entry("e3", Some("e2"), "three").to_string(),
    ]);
    for args in [&["tag", "here"][..], &["tag", "there", "e2"]] {
        assert_eq!(run_in(dir.path(), &path, args).status.code(), Some(0));
    }
    let whole = run_in(dir.path(), &path, &["log", "--oneline"]);
    let tail = run_in(dir.path(), &path, &["log", "-n", "3", "--oneline"]);
    assert_eq!(
        String::from_utf8_lossy(&tail.stdout),
        String::from_utf8_lossy(&whole.stdout),
        "log -n 3 differs from log"
    );
}

/// Regression: `log -n N` reads the file backwards from its length,
/// which a pipe or FIFO does not have (0), so it prints nothing and exits 0.
#[test]
#[cfg(target_os = "linux")]
fn log_n_reads_a_session_from_a_pipe() {
    use std::io::Write as _;
    let demo = std::fs::read(crate::support::fixture("demo.jsonl")).expect("the demo fixture");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ysess"))
        .args(["-f", "/dev/stdin", "log", "-n", "2", "--oneline"])
        .env("TZ", "UTC")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start ysess");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    // ysess may exit before reading it all; a broken pipe is fine here.
    let _ = stdin.write_all(&demo);
    drop(stdin);
    let output = child.wait_with_output().expect("ysess finishes");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).lines().count(),
        2,
        "{}",
        transcript(
            &["-f", "/dev/stdin", "log", "-n", "2", "--oneline"],
            &output
        )
    );
}

/// Regression: branch and label names share one namespace in
/// revisions, and `branch NAME` and `checkout -b NAME` refuse a label's name,
/// but `branch -m OLD NEW` does not check NEW against labels: the renamed
/// branch can then not be named (the label wins).
#[test]
fn branch_rename_refuses_a_label_name() {
    let (dir, path) = session_file(&[
        user_entry("e1", None, "one").to_string(),
        serde_json::json!({
            "id": "e2", "parent_id": "e1", "label": "taken", "timestamp": 1,
            "message": {"role": "user", "content": [], "timestamp": 1},
        })
        .to_string(),
    ]);
    assert_eq!(
        run_in(dir.path(), &path, &["branch", "b2", "e1"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        run_in(dir.path(), &path, &["branch", "taken", "e1"])
            .status
            .code(),
        Some(128),
        "creating a branch with a label's name is refused"
    );
    let args = ["branch", "-m", "b2", "taken"];
    let output = run_in(dir.path(), &path, &args);
    assert_eq!(
        output.status.code(),
        Some(128),
        "{}",
        transcript(&args, &output)
    );
}
