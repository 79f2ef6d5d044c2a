//! `ysess tag NAME [REV]` and `tag -d NAME`: each one operation
//! ([`crate::ops::tag`]), its outcome a status line.

use super::TagArgs;
use crate::cli::write::{described, refused, session_path, status};
use crate::cli::{Context, Exit, Failure};
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
    let done = ops::tag::set(
        &path,
        name,
        args.rev.as_deref(),
        args.force,
        ctx.refs.as_ref(),
    )
    .map_err(|e| {
        refused(ctx, &path, e, |ops::tag::SetError::Exists { on }| {
            let mut again = vec!["tag", "--force", name];
            again.extend(args.rev.as_deref());
            Failure::refuse(format!("label '{name}' already names {on}")).with_hint(format!(
                "{} moves it (the newest carrier wins, as in yoagent)",
                crate::cli::hint::command(ctx.global, &again)
            ))
        })
    })?;
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    let text = match done {
        ops::tag::Set::Already { target } => format!(
            "Label '{}' already names {}",
            escape(name),
            described(&target, paint)
        ),
        ops::tag::Set::Moved { from, target } => format!(
            "Moved label '{}' from {} to {}",
            escape(name),
            escape(&from),
            described(&target, paint)
        ),
        ops::tag::Set::Labelled { target } => format!(
            "Labelled {} as '{}'",
            described(&target, paint),
            escape(name)
        ),
    };
    status(ctx, &text)?;
    Ok(Exit::Success)
}
