//! `ysess tag NAME [REV]` and `tag -d NAME`: each one operation
//! ([`crate::ops::tag`]), its outcome a status line.

use super::TagArgs;
use crate::cli::write::{described, refused, refused_as, session_path, status};
use crate::cli::{Context, Exit, Failure, Global};
use crate::ops;
use crate::ops::tag::DeleteError;
use crate::ui::output::escape;
use crate::ui::render::Paint;

/// Takes NAME off the entries it names, where the format has a way to say
/// so by appending (pi's empty label change).
pub(super) fn delete(name: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    let deleted = ops::tag::delete(&path, name, ctx.refs.as_ref()).map_err(|e| {
        refused(ctx, &path, e, |e| match e {
            DeleteError::NoLabel => Failure::refuse(format!("no label named '{name}'")),
            DeleteError::Permanent => Failure::refuse(format!(
                "cannot delete label '{name}': a label lives on the entries that carry it, and \
                 taking it off would rewrite history"
            ))
            .with_hint(format!(
                "{} moves it instead, to the entry REV: the newest carrier wins",
                crate::cli::hint::command(ctx.global, &["tag", "--force", name, "REV"])
            )),
        })
    })?;
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    let text = match deleted.was_on {
        Some(on) => format!(
            "Deleted label '{}' (was on {})",
            escape(name),
            described(&on, paint)
        ),
        None => format!("Deleted label '{}'", escape(name)),
    };
    status(ctx, &text)?;
    Ok(Exit::Success)
}

/// Labels REV with NAME by appending records: the label on a record below
/// REV, then, when REV is not HEAD, a checkout record that puts yoagent's
/// head back where it was, in the same write.
pub(super) fn set(args: &TagArgs, name: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    let rev = args.rev.as_deref();
    let done = ops::tag::set(&path, name, rev, args.force, ctx.refs.as_ref())
        .map_err(|e| set_refused(ctx.global, &path, e, name, rev))?;
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    status(ctx, &set_said(name, &done, paint))?;
    Ok(Exit::Success)
}

/// Why `tag NAME [REV]` wrote nothing, as the command line says it.
pub(crate) fn set_refused(
    global: &Global,
    path: &std::path::Path,
    e: ops::Refused<ops::tag::SetError>,
    name: &str,
    rev: Option<&str>,
) -> Failure {
    refused_as(global, path, e, |ops::tag::SetError::Exists { on }| {
        let mut again = vec!["tag", "--force", name];
        again.extend(rev);
        Failure::refuse(format!("label '{name}' already names {on}")).with_hint(format!(
            "{} moves it (the newest carrier wins, as in yoagent)",
            crate::cli::hint::command(global, &again)
        ))
    })
}

/// What `tag NAME [REV]` did, as its status line says it.
pub(crate) fn set_said(name: &str, done: &ops::tag::Set, paint: Paint) -> String {
    match done {
        ops::tag::Set::Already { target } => format!(
            "Label '{}' already names {}",
            escape(name),
            described(target, paint)
        ),
        ops::tag::Set::Moved { from, target } => format!(
            "Moved label '{}' from {} to {}",
            escape(name),
            escape(from),
            described(target, paint)
        ),
        ops::tag::Set::Labelled { target } => format!(
            "Labelled {} as '{}'",
            described(target, paint),
            escape(name)
        ),
    }
}
