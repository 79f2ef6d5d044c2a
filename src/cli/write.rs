//! What the commands that change a session share: the file they change,
//! an operation's refusal turned into the message, hints and exit code a
//! person reads (the one place for them), and the status line.

use super::{Context, Failure, Global};
use crate::ops::WriteError;
use crate::ui::output::escape;
use crate::ui::render::Paint;

/// Why the session at `path` cannot be opened for writing, with what to do.
fn open_failure(global: &Global, path: &std::path::Path, e: WriteError) -> Failure {
    let file = escape(&path.display().to_string()).into_owned();
    let failure = |e: &dyn std::fmt::Display| {
        Failure::from(anyhow::anyhow!("{file}: {e}; nothing was written"))
    };
    match e {
        // The file grows: a line another program is still finishing,
        // which no one should cut.
        WriteError::Torn { len, .. } if crate::ops::still_written(path, len) => failure(&e)
            .with_hint(
                "another program may still be writing that line (the file changed \
                     while ysess read it): run the command again once it is done",
            )
            .with_hint(format!(
                "a line still torn when no program writes the file is an interrupted write: \
                     {} cuts it (keeping its bytes)",
                super::hint::fsck(global, &["--repair"])
            )),
        WriteError::Torn { .. } => failure(&e).with_hint(format!(
            "{} cuts the torn line (keeping its bytes)",
            super::hint::fsck(global, &["--repair"])
        )),
        WriteError::Invalid(ref load) => failure(&super::hint::load_error(load)).with_hint(
            format!("{} lists every problem", super::hint::fsck(global, &[])),
        ),
        WriteError::Empty => failure(&e)
            .with_hint("an app may be saving it right now: run the command again")
            .with_hint("`ysess append --create` starts a new session in an empty file"),
        WriteError::Changed
        | WriteError::Shrank
        | WriteError::Lost { .. }
        | WriteError::AppWrote => {
            failure(&e).with_hint("run the command again once the other program is done")
        }
        WriteError::NotAFile | WriteError::Format(_) => failure(&e),
        WriteError::NoStore => failure(&e).with_hint(
            "set YSESS_REFS to the folder ysess keeps the refs of app-owned sessions in",
        ),
        WriteError::Unnumbered => failure(&e).with_hint(
            "open the session in pi once (pi rewrites it as version 3), then run this again",
        ),
        WriteError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            super::unreadable(global, &io, "; nothing was written")
                .with_hint("`ysess append --create` starts a new session in a new file")
        }
        WriteError::Io(io) => failure(&io),
    }
}

/// The session file a command changes: a path, not standard input.
pub fn session_path(ctx: &Context<'_>) -> Result<std::path::PathBuf, Failure> {
    ctx.session_file().ok_or_else(|| {
        Failure::usage("cannot change standard input: name the session file with -f")
    })
}

/// An operation's refusal as the command line says it: the message, its
/// hints and its exit code.
pub fn op_failure(ctx: &Context<'_>, path: &std::path::Path, e: crate::ops::Error) -> Failure {
    op_failure_as(ctx.global, path, e)
}

/// [`op_failure`], its hints naming the file as `global` names it.
pub fn op_failure_as(global: &Global, path: &std::path::Path, e: crate::ops::Error) -> Failure {
    use crate::ops::Error;
    match e {
        Error::Open(e) => open_failure(global, path, e),
        Error::Refused(why) => Failure::refuse(why),
        Error::Empty(what) => super::empty(what),
        Error::Revision(e) => super::rev_failure(e),
        e @ Error::NoIds => Failure::from(anyhow::Error::new(e)),
        Error::Append(e) => append_failure(path, e),
    }
}

/// An operation's refusal: what any operation says, as [`op_failure`]
/// says it; what only this one says, as `own` says it.
pub fn refused<E>(
    ctx: &Context<'_>,
    path: &std::path::Path,
    e: crate::ops::Refused<E>,
    own: impl FnOnce(E) -> Failure,
) -> Failure {
    refused_as(ctx.global, path, e, own)
}

/// [`refused`], its hints naming the file as `global` names it.
pub fn refused_as<E>(
    global: &Global,
    path: &std::path::Path,
    e: crate::ops::Refused<E>,
    own: impl FnOnce(E) -> Failure,
) -> Failure {
    match e {
        crate::ops::Refused::Op(e) => op_failure_as(global, path, e),
        crate::ops::Refused::Own(e) => own(e),
    }
}

/// A failed append: which file, and that nothing was written (the file is
/// as it was), or that lines written may have been dropped by another
/// program's save.
fn append_failure(path: &std::path::Path, e: WriteError) -> Failure {
    let file = escape(&path.display().to_string()).into_owned();
    match e {
        WriteError::Lost { .. } => Failure::from(anyhow::anyhow!("{file}: {e}"))
            .with_hint(format!(
                "`ysess log -f {file}` shows what the file holds now, and `ysess fsck -f {file}` whether it is sound"
            ))
            .with_hint("run the command again once the other program is done"),
        WriteError::Changed | WriteError::Shrank => {
            Failure::from(anyhow::anyhow!("{file}: {e}; nothing was written"))
                .with_hint("run the command again once the other program is done")
        }
        _ => Failure::from(anyhow::anyhow!("{file}: {e}; nothing was written")),
    }
}

/// `e5 (first-draft) user: draft a plan`: an operation's entry, for
/// status messages.
pub fn described(row: &crate::view::Headline, paint: Paint) -> String {
    format!(
        "{}{} {}: {}",
        paint.id(&escape(&row.short)),
        crate::ui::render::decorations(false, &row.branches, &row.labels, paint),
        crate::ui::render::role_text(row.kind, &row.tag),
        escape(&row.subject)
    )
}

/// A status line on stderr, unless `-q`.
pub fn status(ctx: &mut Context<'_>, text: &str) -> Result<(), Failure> {
    if !ctx.global.quiet {
        writeln!(ctx.streams.err, "{text}")?;
    }
    Ok(())
}
