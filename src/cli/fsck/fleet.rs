//! `ysess fsck DIR…`: many files at once. Directories are walked for session
//! files, every file is checked on all cores and printed in walk order as
//! the verdicts stream back (memory bounded whatever the number of files),
//! and one summary line ends the run. `--since-rev` and `--since-manifest`
//! add the proof that every old file only grew; `--manifest` writes the
//! digests for the next such proof.

use crate::ui::render::thousands;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::FsckArgs;
use super::report::{Naming, human, json_finding, print, worse};
use crate::cli::progress::Progress;
use crate::cli::{Context, Exit, Failure};
use crate::fleet::check::{Code, Finding, Options};
use crate::fleet::git::GitError;
use crate::fleet::manifest;
use crate::fleet::plan::{Done, Item, Plan};
use crate::fleet::walk::{DEFAULT_GLOB, Globs};
use crate::ui::json;
use crate::ui::output::{Level, json_line};

/// Counts for the summary line.
#[derive(Default)]
struct Tally {
    files: u64,
    with_errors: u64,
    with_warnings: u64,
    unreadable: u64,
    missing: u64,
    bytes: u64,
}

pub(super) fn run(args: &FsckArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let start = Instant::now();
    if args.files.iter().any(|p| p == Path::new("-")) {
        return Err(Failure::usage(
            "standard input (`-`) cannot be checked with a directory, \
             --since-rev, --manifest or --since-manifest",
        ));
    }
    if args.since.is_some() {
        return Err(Failure::usage(
            "--since compares one file; for a directory use --since-rev or --since-manifest",
        ));
    }
    let roots: Vec<PathBuf> = if args.files.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.files.clone()
    };
    let globs: Vec<String> = if args.glob.is_empty() {
        vec![DEFAULT_GLOB.to_string()]
    } else {
        args.glob.clone()
    };
    let plan = plan(args, roots.clone(), &globs)?;
    let mut manifest_out = manifest_writer(args)?;
    let (tally, mut worst) = check_all(args, ctx, &plan, manifest_out.as_mut())?;
    // No session file at all: a wrong path, or a glob that matches none,
    // must not pass as a clean fleet.
    let empty = tally.files + tally.unreadable + tally.missing == 0;
    if empty && !args.allow_empty {
        nothing_found(ctx, &roots, &globs)?;
        worst = worse(worst, Exit::No);
        manifest_out = None;
    }
    if let Some(out) = manifest_out {
        out.finish()
            .map_err(|e| Failure::refuse(format!("--manifest {e}")))?;
    }
    total(args, ctx, &tally, start.elapsed().as_secs_f64(), worst)?;
    Ok(worst)
}

/// What the run checks: the files under `roots` that `globs` match, against
/// a git revision's or a manifest's old versions when asked.
fn plan(args: &FsckArgs, roots: Vec<PathBuf>, globs: &[String]) -> Result<Plan, Failure> {
    let globs = Globs::new(globs).map_err(|e| Failure::usage(format!("--glob: {e}")))?;
    let plan = Plan::new(roots, globs);
    Ok(match (&args.since_rev, &args.since_manifest) {
        (Some(rev), _) => plan.since_rev(rev).map_err(|e| git_failure(rev, e))?,
        (None, Some(old)) => plan.since_manifest(old).map_err(|e| {
            Failure::refuse(format!("--since-manifest {e}"))
                .with_hint("--since-manifest takes a file that `ysess fsck --manifest OUT` wrote")
        })?,
        (None, None) => plan,
    })
}

/// `--manifest OUT`: the writer, refused before anything is checked when
/// OUT cannot be written.
fn manifest_writer(args: &FsckArgs) -> Result<Option<manifest::Writer>, Failure> {
    let Some(out) = &args.manifest else {
        return Ok(None);
    };
    let inputs: Vec<&Path> = args.since_manifest.as_deref().into_iter().collect();
    manifest::Writer::create(out, &inputs)
        .map(Some)
        .map_err(|e| Failure::refuse(format!("--manifest {e}; nothing was written")))
}

/// Checks every item of the plan on every core, printing each as it comes
/// back in walk order: the counts, and what they mean for the exit status.
fn check_all(
    args: &FsckArgs,
    ctx: &mut Context<'_>,
    plan: &Plan,
    mut manifest_out: Option<&mut manifest::Writer>,
) -> Result<(Tally, Exit), Failure> {
    let items = plan.items();
    let options = Options {
        subjects: false,
        warnings: true,
        digest: args.digest || manifest_out.is_some(),
        since: None,
        format: ctx.global.format_of,
        tallies: false,
    };
    let naming = Naming {
        digest: true,
        file_hints: false,
    };
    let refs = ctx.refs.clone();
    let check_item = |item: Item| plan.check(item, &options, args.repair, refs.as_ref());

    let bar = Progress::new(!args.json && !ctx.global.quiet && io::stderr().is_terminal());
    let items = items.inspect(|item| {
        if let Item::File { size, .. } = item {
            bar.found(*size);
        }
    });
    let workers = crate::input::par::jobs();
    let mut tally = Tally::default();
    let mut worst = Exit::Success;
    let mut failed: Option<Failure> = None;
    crate::input::par::ordered(workers, workers * 4, items, check_item, |done| {
        let read = match &done {
            Done::Checked { result: Ok(o), .. } => Some(o.report.summary.bytes),
            Done::Checked { result: Err(_), .. } => Some(0),
            Done::Gone { .. } => None,
        };
        // The bar is locked while the findings print: it moves after.
        let printed = bar.suspend(|| {
            print_done(
                args,
                ctx,
                done,
                &mut tally,
                manifest_out.as_deref_mut(),
                naming,
            )
        });
        if let Some(bytes) = read {
            bar.done(bytes);
        }
        match printed {
            Ok(exit) => {
                worst = worse(worst, exit);
                true
            }
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    });
    bar.finish();
    match failed {
        Some(failure) => Err(failure),
        None => Ok((tally, worst)),
    }
}

/// Prints what checking one item gave, and counts it.
fn print_done(
    args: &FsckArgs,
    ctx: &mut Context<'_>,
    done: Done,
    tally: &mut Tally,
    manifest: Option<&mut manifest::Writer>,
    naming: Naming,
) -> Result<Exit, Failure> {
    match done {
        Done::Checked { source, mut result } => {
            let name = source.display();
            match &mut result {
                Ok(outcome) => {
                    let report = &outcome.report;
                    tally.files += 1;
                    tally.bytes += report.summary.bytes;
                    tally.with_errors += u64::from(report.errors() > 0);
                    tally.with_warnings += u64::from(report.warnings() > 0);
                    if let (Some(out), Some(digest)) = (manifest, report.digest) {
                        out.add(&name, digest).map_err(|e| {
                            Failure::refuse(format!("--manifest {e}; nothing was written"))
                        })?;
                    }
                    // Computed for the manifest: printed only when asked.
                    if !args.digest {
                        outcome.report.digest = None;
                    }
                }
                Err(_) => {
                    tally.unreadable += 1;
                }
            }
            print(args, ctx, &source, result.map(|o| *o), naming)
        }
        Done::Gone { path, why } => {
            tally.missing += 1;
            let name = path.display().to_string();
            let finding = Finding {
                code: Code::HistoryRewritten,
                line: None,
                offset: None,
                id: None,
                message: why,
                remedy: None,
            };
            if args.json {
                json_line(ctx.streams.out, &json_finding(&name, &finding))?;
            } else if !ctx.global.quiet {
                ctx.streams
                    .diag(Level::Error, &human(&name, &finding, &[]))?;
            }
            Ok(Exit::No)
        }
    }
}

/// Says that the run found no session file, and how to ask for one.
fn nothing_found(
    ctx: &mut Context<'_>,
    roots: &[PathBuf],
    globs: &[String],
) -> Result<(), Failure> {
    let names: Vec<String> = roots
        .iter()
        .map(|r| crate::ui::output::escape(&r.display().to_string()).into_owned())
        .collect();
    ctx.streams.diag(
        Level::Error,
        &format!(
            "no session file found in {} (files named {})",
            names.join(", "),
            crate::ui::output::escape(&globs.join(", "))
        ),
    )?;
    if !ctx.global.quiet {
        // Hidden folders are skipped, as git skips them: say so when that
        // is where the sessions are (`fsck ~` and `~/.claude`).
        let hidden = Globs::new(globs)
            .ok()
            .and_then(|g| crate::fleet::walk::first_hidden(roots, &g, HIDDEN_LOOK));
        if let Some((file, folder)) = hidden {
            let shown = |p: &Path| crate::ui::output::escape(&p.display().to_string()).into_owned();
            ctx.streams.diag(
                Level::Hint,
                &format!(
                    "session files in hidden folders are skipped, as git skips them, such as {}: \
                     name the folder to check them: ysess fsck {}",
                    shown(&file),
                    shown(&folder)
                ),
            )?;
        }
        ctx.streams.diag(
            Level::Hint,
            "check the path and --glob; --allow-empty passes a run that finds none",
        )?;
    }
    Ok(())
}

/// Entries of each folder looked at for sessions in hidden folders, when
/// a walk found none.
const HIDDEN_LOOK: usize = 100_000;

/// The run's total: a JSON line, or the summary line on stderr.
fn total(
    args: &FsckArgs,
    ctx: &mut Context<'_>,
    tally: &Tally,
    seconds: f64,
    worst: Exit,
) -> Result<(), Failure> {
    let ok = worst == Exit::Success;
    if args.json {
        json_line(
            ctx.streams.out,
            &json::Total {
                r#type: "total",
                ok,
                files: tally.files,
                files_with_errors: tally.with_errors,
                files_with_warnings: tally.with_warnings,
                unreadable: tally.unreadable,
                missing: tally.missing,
                bytes: tally.bytes,
                seconds,
            },
        )?;
    } else if !ctx.global.quiet {
        writeln!(ctx.streams.err, "{}", summary_line(tally, seconds))?;
    }
    Ok(())
}

/// `12,408 files, 2 with errors, 31 with warnings, 9.1 GB in 6.2 s`
fn summary_line(t: &Tally, seconds: f64) -> String {
    let mut parts = vec![
        format!(
            "{} {}",
            thousands(t.files),
            if t.files == 1 { "file" } else { "files" }
        ),
        format!("{} with errors", thousands(t.with_errors)),
        format!("{} with warnings", thousands(t.with_warnings)),
    ];
    if t.unreadable > 0 {
        parts.push(format!("{} unreadable", thousands(t.unreadable)));
    }
    if t.missing > 0 {
        parts.push(format!("{} missing", thousands(t.missing)));
    }
    format!("{}, {} in {seconds:.1} s", parts.join(", "), size(t.bytes))
}

/// Bytes in decimal units, one decimal: `9.1 GB`.
pub(crate) fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64;
    let mut unit = "B";
    for u in UNITS {
        if value < 1000.0 {
            break;
        }
        value /= 1000.0;
        unit = u;
    }
    format!("{value:.1} {unit}")
}

fn git_failure(rev: &str, e: GitError) -> Failure {
    let failure = Failure::refuse(format!("--since-rev {rev}: {e}"));
    match e {
        GitError::UnknownRevision { shallow: true, .. } => failure
            .with_hint(
                "fetch the history down to it: `git fetch --deepen=N` or `git fetch --unshallow`",
            )
            .with_hint("in GitHub Actions: actions/checkout with `fetch-depth: 0`"),
        GitError::NotARepository(_) => {
            failure.with_hint("--since-rev runs in a git repository's work tree")
        }
        _ => failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_line_reads_as_the_readme_shows() {
        let t = Tally {
            files: 12_408,
            with_errors: 2,
            with_warnings: 31,
            bytes: 9_100_000_000,
            ..Tally::default()
        };
        assert_eq!(
            summary_line(&t, 6.2),
            "12,408 files, 2 with errors, 31 with warnings, 9.1 GB in 6.2 s"
        );
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(size(512), "512 B");
        assert_eq!(size(1_500), "1.5 kB");
    }
}
