use std::io;
use std::path::PathBuf;

use clap::Args;

use super::{Context, Exit, Failure};
use crate::check::digest::Digest;
use crate::check::{Code, Finding, Options, Report, Severity, check};
use crate::input::Source;
use crate::ui::json;
use crate::ui::output::{Level, escape, json_line};
use crate::write::{RepairError, backup_path, cut_torn};

/// Check that session files load in yoagent, and more
///
/// Reports every problem of each file, one line each with a stable code, the
/// line number and the entry id: all that yoagent's loader would refuse
/// (errors), and what loads but is likely a mistake (warnings: duplicate or
/// empty labels, odd ids, several roots, clocks going backwards, tool calls
/// and results that do not pair up). A clean file prints nothing.
///
/// A directory is walked for session files (*.jsonl; .gitignore honoured,
/// hidden files and symbolic links skipped), checked on every core, and
/// ends with one summary line on stderr: files, how many with errors and
/// warnings, bytes and time. --since-rev proves that every session file in
/// git only grew since a revision; --manifest and --since-manifest do the
/// same against a list of digests, outside git.
///
/// Findings go to stderr as `error: FILE:LINE: code: message`; with --json
/// they go to stdout as JSON Lines. Exit status: 0 when every file loads in
/// yoagent, 1 when any has an error (or, with --strict, a warning), 2 for a
/// wrong command line, 128 when a file cannot be read.
///
/// Examples:
///   ysess fsck                       check ./session.jsonl
///   ysess fsck --strict sessions/*.jsonl
///   ysess fsck sessions/             every *.jsonl below sessions/
///   ysess fsck --since-rev origin/main sessions/
///   ysess fsck --digest > base.digest && ysess fsck --since "$(cat base.digest)"
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct FsckArgs {
    /// Session files, and directories to walk for them [default: the
    /// session file, see -f; `.` with --since-rev, --manifest or
    /// --since-manifest]
    #[arg(value_name = "PATH")]
    pub files: Vec<PathBuf>,
    /// Treat warnings as errors for the exit status
    #[arg(long)]
    pub strict: bool,
    /// Print a summary line per file: entries, roots, tips, labels, HEAD
    #[arg(short, long)]
    pub verbose: bool,
    /// Print findings and summaries as JSON Lines on stdout
    #[arg(long)]
    pub json: bool,
    /// Cut a torn last line (an interrupted write), saving its bytes beside
    /// the file as FILE.torn-OFFSET; nothing else is ever changed
    #[arg(long)]
    pub repair: bool,
    /// Print each file's digest, sha256:<hex>:<bytes>, on stdout
    #[arg(long)]
    pub digest: bool,
    /// Check the file only grew since a digest (from --digest) or an old copy
    #[arg(long, value_name = "DIGEST|OLDFILE")]
    pub since: Option<String>,
    /// Which files a directory's walk checks, by name (or by path below
    /// the directory, when the glob holds a `/`); repeat for several
    /// [default: *.jsonl]
    #[arg(long, value_name = "GLOB")]
    pub glob: Vec<String>,
    /// Prove that every session file at git revision COMMIT (any name git
    /// knows: a branch, a tag, HEAD~3) only grew since:
    /// old versions are read through git; deleted, shortened or rewritten
    /// files are errors
    #[arg(long, value_name = "COMMIT", conflicts_with_all = ["since", "since_manifest"])]
    pub since_rev: Option<String>,
    /// Write each file's digest to OUT, one JSON line per file
    #[arg(long, value_name = "OUT", conflicts_with = "since")]
    pub manifest: Option<PathBuf>,
    /// Prove that every file a manifest (from --manifest) lists only grew
    /// since; missing files are errors
    #[arg(long, value_name = "OLD", conflicts_with = "since")]
    pub since_manifest: Option<PathBuf>,
    /// Pass when the directories hold no session file at all (by default
    /// that fails, so that a wrong path does not pass as a clean fleet)
    #[arg(long)]
    pub allow_empty: bool,
}

pub(super) enum Since {
    Digest(Digest),
    /// An old copy, and its path as given.
    File(std::fs::File, String),
}

pub(super) struct Outcome {
    pub(super) report: Report,
    repaired: Option<Result<PathBuf, RepairError>>,
}

/// How [`print`] names what it prints.
#[derive(Clone, Copy)]
pub(super) struct Naming {
    /// Name the file after its digest (several files).
    pub(super) digest: bool,
    /// Hint how to name another file when the default one is missing.
    pub(super) file_hints: bool,
}

pub fn run(args: &FsckArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if args.since_rev.is_some()
        || args.manifest.is_some()
        || args.since_manifest.is_some()
        || !args.glob.is_empty()
        || args.files.iter().any(|p| p.is_dir())
    {
        return super::fleet::run(args, ctx);
    }
    let files: Vec<Source> = if args.files.is_empty() {
        vec![Source::new(&ctx.global.file)]
    } else {
        args.files.iter().map(|p| Source::new(p)).collect()
    };
    if files.iter().filter(|s| **s == Source::Stdin).count() > 1 {
        return Err(Failure::usage(
            "standard input (`-`) can be checked only once",
        ));
    }
    if args.repair && files.contains(&Source::Stdin) {
        return Err(Failure::usage(
            "--repair cannot cut standard input; name the file",
        ));
    }
    let since = match &args.since {
        None => None,
        Some(_) if files.len() > 1 => {
            return Err(Failure::usage("--since compares one file; name just one"));
        }
        Some(text) if text.starts_with("sha256:") => Some(Since::Digest(
            text.parse()
                .map_err(|e| Failure::usage(format!("--since {e}")))?,
        )),
        // Opened now, so that a wrong argument is blamed on `--since`, not
        // on the file checked.
        Some(path) => {
            let refuse = |why: String| {
                Failure::refuse(format!(
                    "--since {}: neither a digest nor an old copy of the file: {why}",
                    super::hint::quote(path)
                ))
                .with_hint(
                    "--since takes a digest that `ysess fsck --digest` printed \
                     (sha256:<hex>:<bytes>) or the path of an old copy of the session file",
                )
            };
            let old = crate::input::open_regular(std::path::Path::new(path))
                .map_err(|e| refuse(e.to_string()))?;
            Some(Since::File(old, path.clone()))
        }
    };
    let options = Options {
        subjects: false,
        warnings: true,
        digest: args.digest,
        since: match &since {
            Some(Since::Digest(d)) => Some(*d),
            _ => None,
        },
        format: ctx.global.format_of,
    };

    let naming = Naming {
        digest: files.len() > 1,
        file_hints: args.files.is_empty(),
    };
    let check_one = |source: &Source| check_one(args, &options, since.as_ref(), source);

    // Check in parallel, print in argument order as results arrive. After a
    // failure to print (a closed pipe), the rest is checked but not printed.
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len());
    let mut worst = Exit::Success;
    let mut failed = None;
    let mut next = files.iter();
    crate::input::par::ordered_map(
        workers,
        || Ok::<_, std::convert::Infallible>(next.next()),
        |source| (source, check_one(source)),
        |(source, result)| {
            if failed.is_none() {
                match print(args, ctx, source, result, naming) {
                    Ok(exit) => worst = worse(worst, exit),
                    Err(e) => failed = Some(e),
                }
            }
        },
    )
    .unwrap_or_else(|never| match never {});
    match failed {
        Some(failure) => Err(failure),
        None => Ok(worst),
    }
}

/// Checks one file as the options say, repairing it if asked.
pub(super) fn check_one(
    args: &FsckArgs,
    options: &Options,
    since: Option<&Since>,
    source: &Source,
) -> io::Result<Outcome> {
    let mut report = check(source.open()?, options)?;
    // A torn last line may be one another program is still writing: say so,
    // rather than point to --repair.
    let live = match (report.torn, source) {
        (Some(_), Source::Path(path)) => {
            crate::write::repair::still_written(path, report.summary.bytes)
        }
        _ => false,
    };
    if let (true, Some(torn)) = (live, report.torn)
        && let Some(f) = report
            .findings
            .iter_mut()
            .find(|f| f.code == Code::TruncatedLastLine)
    {
        f.message = format!(
            "the last line is cut short, and another program may still be writing it \
             (the file changed while ysess read it); \
             the file is sound up to byte {}. Run fsck again once no program writes the file: \
             a line still torn then is an interrupted write, which `ysess fsck --repair` cuts",
            torn.offset
        );
    }
    if let (Some(Since::File(old, old_path)), Source::Path(path)) = (since, source) {
        // The file is read a second time: a pipe cannot be.
        let now = crate::input::open_regular(path)
            .map_err(|e| io::Error::new(e.kind(), format!("--since reads the file again: {e}")))?;
        report
            .findings
            .extend(crate::check::since::compare_named(old, now, old_path)?);
    }
    let repaired = match (args.repair, report.torn, source) {
        // Never a line another program is still writing.
        (true, Some(_), Source::Path(_)) if live => Some(Err(RepairError::Changed)),
        (true, Some(_), Source::Path(_)) if !report.format.writable() => {
            Some(Err(RepairError::Format(report.format)))
        }
        (true, Some(torn), Source::Path(path)) => {
            let result = cut_torn(path, torn, report.summary.bytes);
            if result.is_ok() {
                report
                    .findings
                    .retain(|f| f.code != Code::TruncatedLastLine);
            }
            Some(result)
        }
        _ => None,
    };
    Ok(Outcome { report, repaired })
}

pub(super) fn worse(a: Exit, b: Exit) -> Exit {
    let rank = |e| match e {
        Exit::Success => 0,
        Exit::No => 1,
        Exit::Usage => 2,
        Exit::Fatal => 3,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// Prints one file's results; returns what they mean for the exit status.
pub(super) fn print(
    args: &FsckArgs,
    ctx: &mut Context<'_>,
    source: &Source,
    result: io::Result<Outcome>,
    naming: Naming,
) -> Result<Exit, Failure> {
    let file = source.display();
    let streams = &mut ctx.streams;
    let quiet = ctx.global.quiet;
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(e) => {
            let long = crate::input::LineTooLong::of(&e);
            let finding = Finding {
                code: Code::Unreadable,
                line: long.and_then(|l| l.line),
                offset: long.map(|l| l.offset),
                id: None,
                message: format!("cannot read: {e}"),
            };
            if args.json {
                json_line(streams.out, &json_finding(&file, &finding))?;
            } else {
                streams.diag(Level::Error, &human(&file, &finding))?;
                // The session file by default (no FILE named): say how to name one.
                if naming.file_hints && !quiet {
                    for hint in super::hint::missing_file(ctx.global, &e) {
                        streams.diag(Level::Hint, &escape(&hint))?;
                    }
                }
            }
            return Ok(Exit::Fatal);
        }
    };
    let report = &outcome.report;
    if let Some(repaired) = &outcome.repaired {
        match repaired {
            // Done as asked: a status line, as `branch` and `tag` print.
            Ok(backup) if !quiet => writeln!(
                streams.err,
                "{}: cut the torn last line ({} bytes at offset {}); they are saved in {}",
                escape(&file),
                report.torn.map_or(0, |t| t.len),
                report.torn.map_or(0, |t| t.offset),
                escape(&backup.display().to_string())
            )?,
            Ok(_) => {}
            Err(e) => {
                let why = match e {
                    RepairError::Changed => {
                        "the file changed while it was checked; run fsck again".to_string()
                    }
                    RepairError::BackupExists(p) => {
                        format!(
                            "{} already exists with other bytes",
                            escape(&p.display().to_string())
                        )
                    }
                    RepairError::Format(format) => format!(
                        "a {} session is left to the app that owns it",
                        format.name()
                    ),
                    RepairError::Io(e) => e.to_string(),
                };
                streams.diag(
                    Level::Error,
                    &format!("{}: not repaired: {why}", escape(&file)),
                )?;
            }
        }
    } else if args.repair && !quiet {
        let torn = report
            .torn
            .map(|t| backup_path(std::path::Path::new(&file), t.offset));
        let text = match torn {
            Some(_) => format!("{}: not repaired", escape(&file)),
            None => format!("{}: nothing to repair: no torn last line", escape(&file)),
        };
        writeln!(streams.err, "{text}")?;
    }
    let errors = report.errors();
    let warnings = report.warnings();
    let ok = errors == 0 && !(args.strict && warnings > 0);
    if args.json {
        for finding in &report.findings {
            json_line(streams.out, &json_finding(&file, finding))?;
        }
        let s = &report.summary;
        json_line(
            streams.out,
            &json::Summary {
                r#type: "summary",
                file: &file,
                format: report.format.name(),
                ok,
                errors,
                warnings,
                entries: s.entries,
                records: s.records,
                roots: s.roots,
                tips: s.tips,
                labels: s.labels,
                head: s.head.as_deref(),
                head_depth: s.head_depth,
                bytes: s.bytes,
                digest: report.digest.map(|d| d.to_string()),
            },
        )?;
    } else {
        if !quiet {
            for finding in &report.findings {
                let level = match finding.severity() {
                    Severity::Error => Level::Error,
                    Severity::Warning => Level::Warning,
                };
                streams.diag(level, &human(&file, finding))?;
            }
        }
        if let Some(digest) = report.digest {
            if naming.digest {
                writeln!(streams.out, "{digest}  {}", escape(&file))?;
            } else {
                writeln!(streams.out, "{digest}")?;
            }
        }
        if args.verbose {
            let s = &report.summary;
            let verdict = match (errors, warnings) {
                (0, 0) => "ok".to_string(),
                (e, w) => format!("{e} {}, {w} {}", plural(e, "error"), plural(w, "warning")),
            };
            let head = match &s.head {
                Some(h) => format!("HEAD {} at depth {}", escape(h), s.head_depth),
                None => "no HEAD (empty)".to_string(),
            };
            let records = match (s.records, report.format.folded_noun()) {
                (0, _) => String::new(),
                (1, (one, _)) => format!(" (and 1 {one})"),
                (n, (_, many)) => format!(" (and {n} {many})"),
            };
            writeln!(
                streams.out,
                "{}: {verdict}; {} session, {} {}{records}, {} {}, {} branch {}, {} {}, {head}",
                escape(&file),
                report.format.name(),
                s.entries,
                plural(s.entries as usize, "entry").replace("entrys", "entries"),
                s.roots,
                plural(s.roots as usize, "root"),
                s.tips,
                plural(s.tips as usize, "tip"),
                s.labels,
                plural(s.labels as usize, "label"),
            )?;
        }
    }
    Ok(if ok { Exit::Success } else { Exit::No })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

pub(super) fn json_finding<'a>(file: &'a str, f: &'a Finding) -> json::Finding<'a> {
    json::Finding {
        r#type: "finding",
        file,
        line: f.line,
        offset: f.offset,
        severity: f.severity().as_str(),
        code: f.code.as_str(),
        id: f.id.as_deref(),
        message: escape(&f.message),
    }
}

/// `FILE:LINE: code: message`, session text escaped.
pub(super) fn human(file: &str, f: &Finding) -> String {
    match f.line {
        Some(line) => format!(
            "{}:{line}: {}: {}",
            escape(file),
            f.code,
            escape(&f.message)
        ),
        None => format!("{}: {}: {}", escape(file), f.code, escape(&f.message)),
    }
}
