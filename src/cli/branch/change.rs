//! `branch NAME [REV]`, `branch -d NAME`, `branch -m OLD NEW`: each one
//! operation ([`crate::ops::branch`]), its outcome a status line.

use super::BranchArgs;
use crate::cli::hint::{command, quote};
use crate::cli::write::{described, refused, session_path, status};
use crate::cli::{Context, Exit, Failure};
use crate::ops::Refused;
use crate::ops::branch::{self, BranchError};
use crate::ui::output::escape;
use crate::ui::render::Paint;

/// `branch -d NAME`: the name goes, its entries stay.
pub(super) fn delete(
    args: &BranchArgs,
    name: &str,
    ctx: &mut Context<'_>,
) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    branch::delete(&path, name, args.force, ctx.refs.as_ref())
        .map_err(|e| failure(ctx, &path, e, None))?;
    status(ctx, &format!("Deleted branch '{}'", escape(name)))?;
    Ok(Exit::Success)
}

/// `branch -m FROM TO`.
pub(super) fn rename(from: &str, to: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    branch::rename(&path, from, to, ctx.refs.as_ref()).map_err(|e| failure(ctx, &path, e, None))?;
    let text = format!("Renamed branch '{}' to '{}'", escape(from), escape(to));
    status(ctx, &text)?;
    Ok(Exit::Success)
}

/// `branch NAME [REV]`: a branch that starts at REV; HEAD stays.
pub(super) fn create(
    args: &BranchArgs,
    name: &str,
    ctx: &mut Context<'_>,
) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    let created = branch::create(
        &path,
        name,
        args.rev.as_deref(),
        args.force,
        ctx.refs.as_ref(),
    )
    .map_err(|e| failure(ctx, &path, e, Some(args)))?;
    let what = described(
        &created.at,
        Paint {
            on: ctx.streams.color_err,
        },
    );
    // `--force` on a name in use starts it again: git says "Reset".
    let text = if created.reset {
        format!("Reset branch '{}' to {what}", escape(name))
    } else {
        format!("Created branch '{}' at {what}", escape(name))
    };
    status(ctx, &text)?;
    Ok(Exit::Success)
}

/// A branch operation's refusal as the command line says it; `create`:
/// the arguments of `branch NAME [REV]`, whose refusal of a name in use
/// says how to start it again.
fn failure(
    ctx: &Context<'_>,
    path: &std::path::Path,
    e: Refused<BranchError>,
    create: Option<&BranchArgs>,
) -> Failure {
    refused(ctx, path, e, |e| match e {
        BranchError::NoBranch(name) => Failure::refuse(format!("no branch named '{name}'"))
            .with_hint(format!(
                "{} lists the branches",
                command(ctx.global, &["branch"])
            )),
        BranchError::Exists(name) => {
            let failure = Failure::refuse(format!("a branch named '{name}' already exists"));
            match create {
                Some(args) => {
                    let mut again = vec!["branch", "--force", name.as_str()];
                    again.extend(args.rev.as_deref());
                    let at = args.rev.as_deref().unwrap_or("HEAD");
                    failure.with_hint(format!(
                        "{} starts it again at {}",
                        command(ctx.global, &again),
                        quote(at)
                    ))
                }
                None => failure,
            }
        }
        BranchError::HeadOnIt { name, tip } => Failure::refuse(format!(
            "cannot delete branch '{name}': HEAD is on it"
        ))
        .with_hint(format!(
            "{} deletes it all the same (its entries stay; HEAD stays at {})",
            command(ctx.global, &["branch", "--force", "-d", &name]),
            escape(&tip)
        )),
    })
}
