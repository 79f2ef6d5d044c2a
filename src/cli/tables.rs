//! `ysess export --parquet OUT [PATH…|--all]`: sessions as Parquet tables
//! (see [`crate::table`]), a progress bar on a terminal, a refused file
//! named on stderr, a summary line at the end.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use super::progress::Progress;
use super::{Context, Exit, Failure, hint};
use crate::check::digest::Digest;
use crate::fleet::manifest;
use crate::fleet::sessions::{self, Found};
use crate::table::ledger::{self, Redaction};
use crate::ui::output::{Level, Streams, escape};
use crate::ui::render::thousands;
use crate::view::redact::Redactor;

/// What `export --parquet` is asked to do.
pub struct Request<'a> {
    /// The folder the tables are written in.
    pub out: &'a Path,
    /// The session files, or folders of them, named; none for the session
    /// of -f or -s.
    pub named: Vec<PathBuf>,
    /// Every session `ysess ls` finds.
    pub all: bool,
    /// With `all`: the archive's sessions too.
    pub shelf: &'a super::archive::Shelf,
    /// Only the lines appended since this manifest.
    pub since_manifest: Option<&'a Path>,
    /// Where to write a manifest of every file exported.
    pub manifest: Option<&'a Path>,
    /// With `--redact`: the redactor, and its rules as the folder records
    /// them.
    pub redact: Option<(&'a Redactor, Redaction)>,
}

pub fn run(req: &Request<'_>, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let found = find(req, ctx)?;
    let given = given_manifest(req)?;
    // The folder's own ledger says what it holds; the run takes its lock
    // from here to its commit (a second export into it waits).
    let out_name = escape(&req.out.display().to_string()).into_owned();
    let mut folder = open_folder(req.out, &out_name, given.as_ref(), ctx)?;
    same_redaction(&mut folder, req.redact.as_ref().map(|(_, r)| r), &out_name)?;
    // What the folder holds, and what the manifest given says on top.
    let mut since = given.unwrap_or_default();
    since.extend(folder.ledger.files.clone());
    let since = Some(since);
    let inputs: Vec<&Path> = req.since_manifest.into_iter().collect();
    let mut manifest_out = match req.manifest {
        Some(path) => Some(
            manifest::Writer::create(path, &inputs)
                .map_err(|e| Failure::refuse(format!("--manifest {e}; nothing was written")))?,
        ),
        None => None,
    };
    let bar = Progress::new(!ctx.global.quiet && io::stderr().is_terminal());
    let mut refused = 0u64;
    let files = readable(found, &bar, &mut refused, &mut ctx.streams)?;
    let sizes: std::collections::HashMap<PathBuf, u64> = files.iter().cloned().collect();
    let paths: Vec<PathBuf> = files.into_iter().map(|(p, _)| p).collect();
    let options = crate::table::Options {
        out: req.out.to_path_buf(),
        since,
        digests: true,
        escape: &escape,
        run: run_name(),
        redact: req.redact.as_ref().map(|(r, _)| *r),
    };
    let mut said: io::Result<()> = Ok(());
    let mut exported: Vec<(PathBuf, Digest)> = Vec::new();
    let streams = &mut ctx.streams;
    let summary = crate::table::export(
        &paths,
        &options,
        |r| {
            refused += 1;
            let line = format!("{}: {}", r.path.display(), why_refused(&r.error));
            let r = bar.suspend(|| streams.diag(Level::Error, &escape(&line)));
            if said.is_ok() {
                said = r;
            }
        },
        |path, digest| {
            exported.push((std::path::absolute(path)?, digest));
            match manifest_out.as_mut() {
                Some(m) => m.add(&path.display().to_string(), digest),
                None => Ok(()),
            }
        },
        || {},
    );
    for path in &paths {
        bar.done(sizes.get(path).copied().unwrap_or(0));
    }
    bar.finish();
    said?;
    let summary = summary.map_err(|e| {
        Failure::refuse(format!(
            "{}: {e}; the part files of this run were removed",
            escape(&req.out.display().to_string())
        ))
    })?;
    // The one step that commits the run: its rows count from here on.
    let run_name = options.run.clone();
    folder.commit(&run_name, exported).map_err(|e| {
        Failure::refuse(format!(
            "{out_name}: the run could not be committed: {e}; the next run removes its part files"
        ))
    })?;
    if let Some(m) = manifest_out
        && refused == 0
    {
        m.finish()
            .map_err(|e| Failure::refuse(format!("--manifest {e}")))?;
    } else if req.manifest.is_some() {
        ctx.streams.diag(
            Level::Hint,
            "no manifest written: some session was refused; the next --since-manifest takes the old one",
        )?;
    }
    if !ctx.global.quiet {
        if let Some((redactor, _)) = &req.redact {
            super::redact::report(ctx.streams.err, redactor)?;
        }
        say_summary(&summary, req.out, ctx)?;
    }
    Ok(if refused > 0 {
        Exit::Fatal
    } else {
        Exit::Success
    })
}

/// The sessions to export: those named, every one `ysess ls` finds
/// (`--all`), or the session of -f or -s.
fn find(req: &Request<'_>, ctx: &mut Context<'_>) -> Result<Vec<Found>, Failure> {
    if req.all {
        let mut found = sessions::find(&sessions::roots::<PathBuf>(&[]));
        req.shelf.add_to(&mut found, false)?;
        return Ok(found);
    }
    if !req.named.is_empty() {
        return Ok(sessions::find(&sessions::roots(&req.named)));
    }
    let Some(file) = ctx.session_file() else {
        return Err(Failure::refuse(
            "--parquet reads session files, not standard input".to_string(),
        )
        .with_hint("name the files or folders, or give --all"));
    };
    if !file.exists() {
        return Err(Failure::refuse(format!(
            "{}: no such file",
            escape(&file.display().to_string())
        ))
        .with_hint("name the files or folders to export, or give --all"));
    }
    Ok(sessions::find(&sessions::roots(&[file])))
}

/// The digests the manifest of `--since-manifest` holds, by whole path (as
/// the folder's ledger keeps them).
fn given_manifest(req: &Request<'_>) -> Result<Option<BTreeMap<PathBuf, Digest>>, Failure> {
    let given = match req.since_manifest {
        Some(old) => Some(manifest::read(old).map_err(|e| {
            Failure::refuse(format!("--since-manifest {e}"))
                .with_hint("--since-manifest takes a file that `ysess fsck --manifest` or `ysess export --manifest` wrote")
        })?),
        None => None,
    };
    Ok(given.map(|files| {
        files
            .into_iter()
            .map(|(file, digest)| (std::path::absolute(&file).unwrap_or(file), digest))
            .collect()
    }))
}

/// Opens the folder `out` under its lock, with its ledger: a folder
/// exported into before ledgers were kept takes what it holds from the
/// manifest `given` (and is refused without one); files an unfinished
/// export left are removed.
fn open_folder(
    out: &Path,
    out_name: &str,
    given: Option<&BTreeMap<PathBuf, Digest>>,
    ctx: &mut Context<'_>,
) -> Result<ledger::Locked, Failure> {
    let mut folder = ledger::Locked::open(out)
        .map_err(|e| Failure::refuse(format!("{out_name}: {e}; nothing was written")))?;
    if !folder.had_ledger && !folder.kept_ledgers {
        let parts = folder.parts()?;
        match given {
            // A folder exported into before ledgers were kept: the
            // manifest of its last run says what it holds.
            Some(files) => {
                folder.ledger.runs = parts.into_iter().map(|(_, run)| run).collect();
                folder.ledger.files = files.clone();
            }
            None if !parts.is_empty() => {
                return Err(Failure::refuse(format!(
                    "{out_name} holds part files of exports that kept no ledger of what they hold: \
                     this run would add their rows again; nothing was written"
                ))
                .with_hint(
                    "give --since-manifest with the manifest of the last run into it, or export into a new folder",
                ));
            }
            None => {}
        }
    }
    let removed = folder.clean()?;
    if !removed.is_empty() {
        ctx.streams.diag(
            Level::Hint,
            &format!(
                "removed {} files an export into {out_name} left when it did not finish",
                removed.len()
            ),
        )?;
    }
    Ok(folder)
}

/// Refuses a run into a folder whose rows were redacted otherwise (or not
/// at all, or were and this run's would not be): its tables would mix
/// them. A folder that holds nothing yet takes this run's.
fn same_redaction(
    folder: &mut ledger::Locked,
    wanted: Option<&Redaction>,
    out_name: &str,
) -> Result<(), Failure> {
    let held = folder.ledger.redaction.as_ref();
    if folder.ledger.files.is_empty() && folder.ledger.runs.is_empty() {
        folder.ledger.redaction = wanted.cloned();
        return Ok(());
    }
    let why = match (held, wanted) {
        (a, b) if a == b => return Ok(()),
        (None, _) => {
            "its rows were exported without --redact, and this run's would be redacted".to_string()
        }
        (Some(_), None) => {
            "its rows were exported with --redact, and this run's would not be".to_string()
        }
        (Some(a), Some(b)) if (&a.source, &a.rules) != (&b.source, &b.rules) => format!(
            "its rows were redacted by the rules of {} ({}), and this ysess's are {} ({})",
            a.source, a.rules, b.source, b.rules
        ),
        (Some(a), Some(b)) if a.patterns != b.patterns => format!(
            "its rows were redacted with {}, and this run gives {}",
            patterns(&a.patterns),
            patterns(&b.patterns)
        ),
        (Some(_), Some(_)) => {
            "its rows were redacted for another home directory or user name".to_string()
        }
    };
    Err(Failure::refuse(format!(
        "{out_name}: {}; nothing was written",
        escape(&why)
    ))
    .with_hint(
        "give the --redact and --redact-pattern it was exported with, or export into a new folder",
    ))
}

/// The `--redact-pattern`s, as a refusal names them.
fn patterns(list: &[String]) -> String {
    if list.is_empty() {
        return "no --redact-pattern".to_string();
    }
    let quoted: Vec<String> = list.iter().map(|p| format!("'{p}'")).collect();
    format!("--redact-pattern {}", quoted.join(" "))
}

/// The session files found, with their sizes (counted on the bar); one
/// that cannot be read is named on stderr and counted in `refused`.
fn readable(
    found: Vec<Found>,
    bar: &Progress,
    refused: &mut u64,
    streams: &mut Streams<'_>,
) -> Result<Vec<(PathBuf, u64)>, Failure> {
    let mut files = Vec::new();
    for f in found {
        match f {
            Found::File { path, size, .. } => {
                bar.found(size);
                files.push((path, size));
            }
            Found::Unreadable { path, error } => {
                *refused += 1;
                streams.diag(
                    Level::Error,
                    &escape(&format!("{}: {error}", path.display())),
                )?;
            }
        }
    }
    Ok(files)
}

/// This run's name in its part files' names: the time it began (UTC, to
/// the millisecond) and the process.
fn run_name() -> String {
    let now = jiff::Timestamp::now();
    format!(
        "{}{:03}Z-{}",
        now.to_zoned_datetime(jiff::tz::TimeZone::UTC)
            .strftime("%Y%m%dT%H%M%S"),
        now.subsec_millisecond(),
        std::process::id()
    )
}

/// Why a session is not in the tables, as stderr says it.
fn why_refused(error: &crate::repo::LoadError) -> String {
    match error {
        crate::repo::LoadError::Invalid { first, .. }
            if first.code == crate::check::Code::DigestMismatch =>
        {
            format!(
                "history rewritten: {}; refused, nothing of it exported",
                first.message
            )
        }
        e => hint::load_error(e),
    }
}

/// The line that says what the export did, on stderr.
fn say_summary(
    summary: &crate::table::Summary,
    out: &Path,
    ctx: &mut Context<'_>,
) -> Result<(), Failure> {
    let unchanged = if summary.unchanged > 0 {
        format!(" ({} unchanged)", thousands(summary.unchanged))
    } else {
        String::new()
    };
    writeln!(
        ctx.streams.err,
        "exported {} sessions{unchanged}: {} entry rows, {} files, into {}",
        thousands(summary.sessions),
        thousands(summary.entries),
        thousands(summary.written.len() as u64),
        escape(&out.display().to_string())
    )?;
    Ok(())
}
