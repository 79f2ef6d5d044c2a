//! How `fsck` prints a file's outcome, for one file and for a fleet alike.

use crate::tree::abbrev::shorten;
use std::io;

use super::FsckArgs;
use crate::Source;
use crate::cli::{Context, Exit, Failure};
use crate::fleet::check::{
    Code, Finding, LineTooLong, Outcome, RepairError, Report, Severity, backup_path,
};
use crate::ui::json;
use crate::ui::output::{Level, escape, json_line};

/// How [`print`] names what it prints.
#[derive(Clone, Copy)]
pub(super) struct Naming {
    /// Name the file after its digest (several files).
    pub(super) digest: bool,
    /// Hint how to name another file when the default one is missing.
    pub(super) file_hints: bool,
}

pub(super) fn worse(a: Exit, b: Exit) -> Exit {
    let rank = |e| match e {
        Exit::Success => 0,
        Exit::No => 1,
        Exit::Usage => 2,
        Exit::Fatal | Exit::Signal(_) | Exit::Agent(_) => 3,
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
    let quiet = ctx.global.quiet;
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(e) => return unreadable(args, ctx, &file, &e, naming),
    };
    let report = &outcome.report;
    print_repair(args, ctx, &file, &outcome)?;
    let errors = report.errors();
    let warnings = report.warnings();
    let ok = errors == 0 && !(args.strict && warnings > 0);
    if args.json {
        for finding in &report.findings {
            json_line(ctx.streams.out, &json_finding(&file, finding))?;
        }
        let s = &report.summary;
        json_line(
            ctx.streams.out,
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
                ctx.streams
                    .diag(level, &human(&file, finding, &report.short_ids))?;
            }
        }
        if let Some(digest) = report.digest {
            if naming.digest {
                writeln!(ctx.streams.out, "{digest}  {}", escape(&file))?;
            } else {
                writeln!(ctx.streams.out, "{digest}")?;
            }
        }
        if args.verbose {
            verbose(ctx, &file, report)?;
        }
    }
    Ok(if ok { Exit::Success } else { Exit::No })
}

/// A file that cannot be read: one `unreadable` finding, and how to name
/// another file when it was the default one.
fn unreadable(
    args: &FsckArgs,
    ctx: &mut Context<'_>,
    file: &str,
    e: &io::Error,
    naming: Naming,
) -> Result<Exit, Failure> {
    let long = LineTooLong::of(e);
    let finding = Finding {
        code: Code::Unreadable,
        line: long.and_then(|l| l.line),
        offset: long.map(|l| l.offset),
        id: None,
        message: format!("cannot read: {e}"),
        remedy: None,
    };
    if args.json {
        json_line(ctx.streams.out, &json_finding(file, &finding))?;
    } else {
        ctx.streams
            .diag(Level::Error, &human(file, &finding, &[]))?;
        // The session file by default (no FILE named): say how to name one.
        if naming.file_hints && !ctx.global.quiet {
            for hint in crate::cli::hint::missing_file(ctx.global, e) {
                ctx.streams.diag(Level::Hint, &escape(&hint))?;
            }
        }
    }
    Ok(Exit::Fatal)
}

/// What `--repair` did, on stderr.
fn print_repair(
    args: &FsckArgs,
    ctx: &mut Context<'_>,
    file: &str,
    outcome: &Outcome,
) -> Result<(), Failure> {
    let report = &outcome.report;
    if let Some(repaired) = &outcome.repaired {
        match repaired {
            // Done as asked: a status line, as `branch` and `tag` print.
            Ok(backup) if !ctx.global.quiet => writeln!(
                ctx.streams.err,
                "{}: cut the torn last line ({} bytes at offset {}); they are saved in {}",
                escape(file),
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
                ctx.streams.diag(
                    Level::Error,
                    &format!("{}: not repaired: {why}", escape(file)),
                )?;
            }
        }
    } else if args.repair && !ctx.global.quiet {
        let torn = report
            .torn
            .map(|t| backup_path(std::path::Path::new(file), t.offset));
        let text = match torn {
            Some(_) => format!("{}: not repaired", escape(file)),
            None => format!("{}: nothing to repair: no torn last line", escape(file)),
        };
        writeln!(ctx.streams.err, "{text}")?;
    }
    Ok(())
}

/// `FILE: ok; yoagent session, 12 entries, …`: the `-v` line.
fn verbose(ctx: &mut Context<'_>, file: &str, report: &Report) -> Result<(), Failure> {
    let (errors, warnings) = (report.errors(), report.warnings());
    let s = &report.summary;
    let verdict = match (errors, warnings) {
        (0, 0) => "ok".to_string(),
        (e, w) => format!("{e} {}, {w} {}", plural(e, "error"), plural(w, "warning")),
    };
    let head = match &s.head {
        Some(h) => format!(
            "HEAD {} at depth {}",
            escape(&shorten(h, &report.short_ids)),
            s.head_depth
        ),
        None => "no HEAD (empty)".to_string(),
    };
    let records = match (s.records, report.format.folded_noun()) {
        (0, _) => String::new(),
        (1, (one, _)) => format!(" (and 1 {one})"),
        (n, (_, many)) => format!(" (and {n} {many})"),
    };
    writeln!(
        ctx.streams.out,
        "{}: {verdict}; {} session, {} {}{records}, {} {}, {} branch {}, {} {}, {head}",
        escape(file),
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
    Ok(())
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
        message: escape(&crate::cli::hint::finding(f)).into_owned().into(),
    }
}

/// `FILE:LINE: code: message`, session text escaped, the ids of
/// `short_ids` in their short forms.
pub(super) fn human(file: &str, f: &Finding, short_ids: &[(String, String)]) -> String {
    let message = crate::cli::hint::finding(f);
    let message = escape(&shorten(&message, short_ids)).into_owned();
    match f.line {
        Some(line) => format!("{}:{line}: {}: {message}", escape(file), f.code),
        None => format!("{}: {}: {message}", escape(file), f.code),
    }
}
