//! `branch NAME [REV]`, `branch -d NAME`, `branch -m OLD NEW`: each one
//! operation ([`crate::ops::branch`]), its outcome a status line.

use super::BranchArgs;
use crate::cli::hint::{command, quote};
use crate::cli::write::{described, refused_as, session_path, status};
use crate::cli::{Context, Exit, Failure, Global};
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
        .map_err(|e| failure(ctx.global, &path, e, None))?;
    status(ctx, &format!("Deleted branch '{}'", escape(name)))?;
    Ok(Exit::Success)
}

/// `branch -m FROM TO`.
pub(super) fn rename(from: &str, to: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    branch::rename(&path, from, to, ctx.refs.as_ref())
        .map_err(|e| failure(ctx.global, &path, e, None))?;
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
    let rev = args.rev.as_deref();
    let created = branch::create(&path, name, rev, args.force, ctx.refs.as_ref())
        .map_err(|e| create_refused(ctx.global, &path, e, rev))?;
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    status(ctx, &created_said(name, &created, paint))?;
    Ok(Exit::Success)
}

/// What `branch NAME [REV]` did, as its status line says it.
pub(crate) fn created_said(name: &str, created: &branch::Created, paint: Paint) -> String {
    let what = described(&created.at, paint);
    // `--force` on a name in use starts it again: git says "Reset".
    if created.reset {
        format!("Reset branch '{}' to {what}", escape(name))
    } else {
        format!("Created branch '{}' at {what}", escape(name))
    }
}

/// Why `branch NAME [REV]` wrote nothing, as the command line says it.
pub(crate) fn create_refused(
    global: &Global,
    path: &std::path::Path,
    e: Refused<BranchError>,
    rev: Option<&str>,
) -> Failure {
    failure(global, path, e, Some(rev))
}

/// A branch operation's refusal as the command line says it; `create`:
/// the REV of `branch NAME [REV]`, whose refusal of a name in use says how
/// to start it again.
fn failure(
    global: &Global,
    path: &std::path::Path,
    e: Refused<BranchError>,
    create: Option<Option<&str>>,
) -> Failure {
    refused_as(global, path, e, |e| match e {
        BranchError::NoBranch(name) => Failure::refuse(format!("no branch named '{name}'"))
            .with_hint(format!(
                "{} lists the branches",
                command(global, &["branch"])
            )),
        BranchError::Exists(name) => {
            let failure = Failure::refuse(format!("a branch named '{name}' already exists"));
            match create {
                Some(rev) => {
                    let mut again = vec!["branch", "--force", name.as_str()];
                    again.extend(rev);
                    let at = rev.unwrap_or("HEAD");
                    failure.with_hint(format!(
                        "{} starts it again at {}",
                        command(global, &again),
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
            command(global, &["branch", "--force", "-d", &name]),
            escape(&tip)
        )),
    })
}
