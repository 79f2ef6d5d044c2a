//! `ysess fsck`: one file or a few ([`run`]), or whole directories and
//! their history ([`fleet`]); both print through [`report`].

pub(super) mod fleet;
mod report;

use std::path::PathBuf;

use clap::Args;

use super::{Context, Exit, Failure};
use crate::Source;
use crate::fleet::check::{Digest, OldCopy, Options, check_files};
use report::{Naming, print, worse};

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

pub fn run(args: &FsckArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if args.since_rev.is_some()
        || args.manifest.is_some()
        || args.since_manifest.is_some()
        || !args.glob.is_empty()
        || args.files.iter().any(|p| p.is_dir())
    {
        return fleet::run(args, ctx);
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
    if args.since.is_some() && files.len() > 1 {
        return Err(Failure::usage("--since compares one file; name just one"));
    }
    let (digest, old) = since(args)?;
    let options = Options {
        subjects: false,
        warnings: true,
        digest: args.digest,
        since: digest,
        format: ctx.global.format_of,
        tallies: false,
    };

    let naming = Naming {
        digest: files.len() > 1,
        file_hints: args.files.is_empty(),
    };
    // Check in parallel, print in argument order as results arrive. After a
    // failure to print (a closed pipe), the rest is checked but not printed.
    let mut worst = Exit::Success;
    let mut failed = None;
    check_files(
        &files,
        &options,
        old.as_ref(),
        args.repair,
        ctx.refs.clone().as_ref(),
        |source, result| {
            if failed.is_none() {
                match print(args, ctx, source, result, naming) {
                    Ok(exit) => worst = worse(worst, exit),
                    Err(e) => failed = Some(e),
                }
            }
        },
    );
    match failed {
        Some(failure) => Err(failure),
        None => Ok(worst),
    }
}

/// `--since`: a digest the file must start with, or an old copy of it
/// (opened now, so that a wrong argument is blamed on `--since`, not on
/// the file checked).
fn since(args: &FsckArgs) -> Result<(Option<Digest>, Option<OldCopy>), Failure> {
    match &args.since {
        None => Ok((None, None)),
        Some(text) if text.starts_with("sha256:") => {
            let digest = text
                .parse()
                .map_err(|e| Failure::usage(format!("--since {e}")))?;
            Ok((Some(digest), None))
        }
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
            let old = OldCopy::open(path).map_err(|e| refuse(e.to_string()))?;
            Ok((None, Some(old)))
        }
    }
}
