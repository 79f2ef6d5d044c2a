//! `ysess export --parquet OUT [PATH…|--all]`: sessions as Parquet tables
//! (see [`crate::table`]), a progress bar on a terminal, a refused file
//! named on stderr, a summary line at the end.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use super::export::ExportArgs;
use super::progress::Progress;
use super::{Context, Exit, Failure, hint};
use crate::fleet::manifest;
use crate::fleet::sessions::{self, Found};
use crate::ui::output::{Level, escape};
use crate::ui::render::thousands;

pub fn run(args: &ExportArgs, out: &Path, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let named: Vec<PathBuf> = args
        .rev
        .iter()
        .map(PathBuf::from)
        .chain(args.paths.iter().cloned())
        .collect();
    let found = if args.all {
        sessions::find(&sessions::roots::<PathBuf>(&[]))
    } else if named.is_empty() {
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
        sessions::find(&sessions::roots(&[file]))
    } else {
        sessions::find(&sessions::roots(&named))
    };
    let given = match &args.since_manifest {
        Some(old) => Some(manifest::read(old).map_err(|e| {
            Failure::refuse(format!("--since-manifest {e}"))
                .with_hint("--since-manifest takes a file that `ysess fsck --manifest` or `ysess export --manifest` wrote")
        })?),
        None => None,
    };
    // Whole paths, as the folder's ledger keeps them.
    let given: Option<std::collections::BTreeMap<PathBuf, crate::check::digest::Digest>> = given
        .map(|files| {
            files
                .into_iter()
                .map(|(file, digest)| (std::path::absolute(&file).unwrap_or(file), digest))
                .collect()
        });
    // The folder's own ledger says what it holds; the run takes its lock
    // from here to its commit (a second export into it waits).
    let out_name = escape(&out.display().to_string()).into_owned();
    let mut folder = crate::table::ledger::Locked::open(out)
        .map_err(|e| Failure::refuse(format!("{out_name}: {e}; nothing was written")))?;
    if !folder.had_ledger && !folder.kept_ledgers {
        let parts = folder.parts()?;
        match &given {
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
    // What the folder holds, and what the manifest given says on top.
    let mut since = given.unwrap_or_default();
    since.extend(folder.ledger.files.clone());
    let since = Some(since);
    let inputs: Vec<&Path> = args.since_manifest.as_deref().into_iter().collect();
    let mut manifest_out = match &args.manifest {
        Some(path) => Some(
            manifest::Writer::create(path, &inputs)
                .map_err(|e| Failure::refuse(format!("--manifest {e}; nothing was written")))?,
        ),
        None => None,
    };
    let bar = Progress::new(!ctx.global.quiet && io::stderr().is_terminal());
    let mut refused = 0u64;
    let mut files = Vec::new();
    for f in found {
        match f {
            Found::File { path, size, .. } => {
                bar.found(size);
                files.push((path, size));
            }
            Found::Unreadable { path, error } => {
                refused += 1;
                ctx.streams.diag(
                    Level::Error,
                    &escape(&format!("{}: {error}", path.display())),
                )?;
            }
        }
    }
    let sizes: std::collections::HashMap<PathBuf, u64> = files.iter().cloned().collect();
    let paths: Vec<PathBuf> = files.into_iter().map(|(p, _)| p).collect();
    let now = jiff::Timestamp::now();
    let run = format!(
        "{}{:03}Z-{}",
        now.to_zoned_datetime(jiff::tz::TimeZone::UTC)
            .strftime("%Y%m%dT%H%M%S"),
        now.subsec_millisecond(),
        std::process::id()
    );
    let options = crate::table::Options {
        out: out.to_path_buf(),
        since,
        digests: true,
        escape: &escape,
        run,
    };
    let mut said: io::Result<()> = Ok(());
    let mut exported: Vec<(PathBuf, crate::check::digest::Digest)> = Vec::new();
    let streams = &mut ctx.streams;
    let summary = crate::table::export(
        &paths,
        &options,
        |r| {
            refused += 1;
            let why = match &r.error {
                crate::repo::LoadError::Invalid { first, .. }
                    if first.code == crate::check::Code::DigestMismatch =>
                {
                    format!(
                        "history rewritten: {}; refused, nothing of it exported",
                        first.message
                    )
                }
                e => hint::load_error(e),
            };
            let line = format!("{}: {why}", r.path.display());
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
            escape(&out.display().to_string())
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
    } else if args.manifest.is_some() {
        ctx.streams.diag(
            Level::Hint,
            "no manifest written: some session was refused; the next --since-manifest takes the old one",
        )?;
    }
    if !ctx.global.quiet {
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
    }
    Ok(if refused > 0 {
        Exit::Fatal
    } else {
        Exit::Success
    })
}
