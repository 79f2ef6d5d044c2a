use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use super::{Context, Exit, Failure, open_repo, resolve};
use crate::Ix;
use crate::ops::export::{
    Line, Output, OutputError, path_session, resumed_messages, session_refusal,
};
use crate::repo::Repo;
use crate::ui::output::json_line;
use crate::view::redact::Redactor;

/// Print a path's messages, ready for an agent to resume with
///
/// The messages on the path from the root to REV (default HEAD) as one JSON
/// array, custom records dropped: what yoagent's `Agent::with_messages` and
/// `restore_messages` take. With --session, the path as a linear session
/// file instead (JSON Lines, ysess's records dropped, each entry's parent the
/// one before it), which yoagent's `Session::from_jsonl` loads.
///
/// With --html, one self-contained page to open in a browser: the whole
/// tree as an outline (or, with REV, that path) beside the conversation of
/// the selected entry's path (`page.html#e42` selects e42). With
/// --markdown, the path as a readable transcript.
///
/// With --redact, secrets are taken out of what any of these forms writes
/// (--parquet too, every text column): API keys and tokens (gitleaks' patterns), private key
/// blocks, JWTs, random values assigned to a *_KEY, *_TOKEN, *_SECRET or
/// *PASSWORD, e-mail addresses, the home directory and the user's name,
/// and each --redact-pattern; each becomes `[redacted: KIND]`, and stderr
/// says how many of each kind went.
///
/// With --parquet OUT, whole sessions (this one, the files or folders
/// named, or --all) as Parquet tables in the folder OUT, for DuckDB, Spark
/// or Trino: entries (by agent and UTC day), tree and sessions;
/// --since-manifest adds only what was appended since an earlier export.
/// OUT records whether (and by what rules) it was redacted, and a run
/// into it with other --redact settings is refused.
///
/// Examples:
///   ysess export first-draft > messages.json
///   ysess export --session lib > lib.jsonl
///   ysess export --html -o session.html
///   ysess export --markdown lib > lib.md
///   ysess export --html --redact -o share.html
///   ysess export --parquet tables --all --manifest tables.manifest
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ExportArgs {
    /// The entry whose path to export [default: HEAD]
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub rev: Option<String>,
    /// Write the path as a linear session file (JSON Lines)
    #[arg(long)]
    pub session: bool,
    /// Write one HTML page of the whole tree (with REV: of its path)
    #[arg(long, conflicts_with_all = ["session", "markdown"])]
    pub html: bool,
    /// Write the path as Markdown
    #[arg(long, conflicts_with = "session")]
    pub markdown: bool,
    /// Write to FILE instead of standard output (replaced whole, once done;
    /// never the session file)
    #[arg(short, long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub output: Option<PathBuf>,
    /// Write sessions as Parquet tables into the folder OUT: every entry,
    /// tree and session, for DuckDB, Spark or Trino (see docs/tables.md)
    #[arg(long, value_name = "OUT", value_hint = clap::ValueHint::DirPath,
          conflicts_with_all = ["session", "html", "markdown", "output"])]
    pub parquet: Option<PathBuf>,
    /// With --parquet: session files, or folders of them, to export (in
    /// REV's place) [default: the session of -f or -s]
    #[arg(value_name = "PATH", requires = "parquet", value_hint = clap::ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
    /// With --parquet: every session `ysess ls` finds
    #[arg(long, requires = "parquet", conflicts_with_all = ["rev", "paths"])]
    pub all: bool,
    /// With --parquet --all: `--archive [DIR]`, `--no-archive`.
    #[command(flatten)]
    pub shelf: super::archive::Shelf,
    /// With --parquet: only the lines appended since the manifest OLD
    /// (`fsck --manifest` or `export --manifest` wrote it); a file that no
    /// longer starts with what OLD says is refused
    #[arg(long, value_name = "OLD", requires = "parquet", value_hint = clap::ValueHint::FilePath)]
    pub since_manifest: Option<PathBuf>,
    /// With --parquet: write a manifest of every file exported to MANIFEST,
    /// for the next --since-manifest
    #[arg(long, value_name = "MANIFEST", requires = "parquet", value_hint = clap::ValueHint::FilePath)]
    pub manifest: Option<PathBuf>,
    /// Replace secrets, e-mail addresses, the home directory and the user's
    /// name with `[redacted: KIND]`
    #[arg(long)]
    pub redact: bool,
    /// With --redact: also redact what REGEX matches (kind `pattern`);
    /// repeatable
    #[arg(long, value_name = "REGEX", requires = "redact")]
    pub redact_pattern: Vec<String>,
}

pub fn run(args: &ExportArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    args.shelf.only_with_all(args.all)?;
    let redactor = match args.redact {
        true => Some(super::redact::redactor(&args.redact_pattern)?),
        false => None,
    };
    if let Some(out) = &args.parquet {
        let request = super::tables::Request {
            out,
            named: args
                .rev
                .iter()
                .map(PathBuf::from)
                .chain(args.paths.iter().cloned())
                .collect(),
            all: args.all,
            shelf: &args.shelf,
            since_manifest: args.since_manifest.as_deref(),
            manifest: args.manifest.as_deref(),
            redact: redactor
                .as_ref()
                .map(|r| (r, super::redact::recorded(&args.redact_pattern))),
        };
        return super::tables::run(&request, ctx);
    }
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    if tree.head().is_none() {
        return Err(super::empty("it has no entry to export"));
    }
    let target = resolve(&repo, args.rev.as_deref().unwrap_or("HEAD"))?;
    let title = title(&ctx.global.file);
    let tz = ctx.tz.clone();
    let redact = redactor.as_ref();
    let write = |out: &mut dyn Write| -> Result<(), Failure> {
        if args.html {
            let page = crate::ui::page::Page {
                repo: &repo,
                path_to: args.rev.is_some().then_some(target),
                title: &title,
                redact,
            };
            let mut out = BufWriter::with_capacity(1 << 16, out);
            crate::ui::page::write_page(&mut out, &page)?;
            out.flush()?;
        } else if args.markdown {
            crate::ui::markdown::write_transcript(out, &repo, target, &title, &tz, redact)?;
        } else if args.session {
            session(out, &repo, target, redact)?;
        } else {
            let file =
                (ctx.global.file != std::path::Path::new("-")).then_some(ctx.global.file.as_path());
            messages(out, &repo, target, file, redact)?;
        }
        Ok(())
    };
    match &args.output {
        Some(path) => to_file(path, &ctx.global.file, write)?,
        None => write(&mut *ctx.streams.out)?,
    }
    if let Some(redactor) = &redactor
        && !ctx.global.quiet
    {
        super::redact::report(ctx.streams.err, redactor)?;
    }
    Ok(Exit::Success)
}

/// `value` through `redact`, when there is one.
fn cleaned(mut value: serde_json::Value, redact: Option<&Redactor>) -> serde_json::Value {
    if let Some(r) = redact {
        r.value(&mut value);
    }
    value
}

/// The messages on the path as one JSON array.
fn messages(
    out: &mut dyn Write,
    repo: &Repo,
    target: Ix,
    file: Option<&std::path::Path>,
    redact: Option<&Redactor>,
) -> Result<(), Failure> {
    let mut messages = resumed_messages(repo, Some(target), file)?;
    if let Some(r) = redact {
        messages.iter_mut().for_each(|m| r.value(m));
    }
    json_line(out, &messages)?;
    Ok(())
}

/// The path as a linear yoagent session.
fn session(
    out: &mut dyn Write,
    repo: &Repo,
    target: Ix,
    redact: Option<&Redactor>,
) -> Result<(), Failure> {
    if let Some(why) = session_refusal(repo) {
        return Err(Failure::refuse(why));
    }
    path_session(repo, target, crate::ops::now_ms(), |line| match line {
        Line::Entry(raw) => json_line(out, &cleaned(raw, redact)),
        Line::Record(line) => match (redact, serde_json::from_str(&line)) {
            (Some(_), Ok(value)) => json_line(out, &cleaned(value, redact)),
            _ => writeln!(out, "{line}"),
        },
    })?;
    Ok(())
}

/// What a page or transcript is called: the session file's name.
fn title(file: &Path) -> String {
    if file == Path::new("-") {
        return "standard input".to_string();
    }
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Writes FILE whole or not at all (see [`Output`]): never
/// over the session file it reads.
fn to_file(
    path: &Path,
    session: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let session = Some(session).filter(|s| *s != Path::new("-"));
    let inputs: Vec<&Path> = session.into_iter().collect();
    let refuse = |e: OutputError| Failure::refuse(format!("{e}; nothing was written"));
    let output = Output::create(path, &inputs, session).map_err(refuse)?;
    let mut out = BufWriter::new(output);
    write(&mut out)?;
    let output = out
        .into_inner()
        .map_err(|e| Failure::from(e.into_error()))?;
    output.finish().map_err(|e| Failure::refuse(e.to_string()))
}
