use clap::Args;

use super::hint::{command, quote};
use super::write::{described, refused_as, session_path, status};
use super::{Context, Exit, Failure, Global};
use crate::ops::Refused;
use crate::ops::checkout::{Checkout, CheckoutError, checkout};
use crate::ui::output::escape;
use crate::ui::render::Paint;

/// Move HEAD to an entry, so that an agent resumes there
///
/// Appends a `ysess.checkout` record below REV: yoagent's head is the last
/// line, so an agent that loads the file resumes with exactly the messages on
/// the path to REV, and what it appends forks from there. Nothing is
/// rewritten. With -b, starts a branch there too; the branch then follows
/// the work appended below it.
///
/// A Claude Code or Codex session's file is its app's: HEAD moves in
/// ysess's refs beside it (see `ysess resume`, which hands the session to
/// its agent at HEAD), and the file stays as the app wrote it; a branch
/// there stays at its base (the work resumed from it goes on in the new
/// session the agent writes).
///
/// `checkout -` goes back where HEAD was before the last move (`@-`, see
/// `ysess reflog`): onto the branch it was on, or to the entry.
///
/// Examples:
///   ysess checkout first-draft          resume from a checkpoint
///   ysess checkout -b lib first-draft   ... on a new branch called lib
///   ysess checkout lib                  back to the newest work on lib
///   ysess checkout -                    back where HEAD was before
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct CheckoutArgs {
    /// Where to move HEAD: an entry, a label, a branch, `-` for where it was
    /// before (with -b, default HEAD)
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub rev: Option<String>,
    /// Start a branch called NAME at REV and move HEAD onto it
    #[arg(short = 'b', value_name = "NAME")]
    pub branch: Option<String>,
}

pub fn run(args: &CheckoutArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    let done = checkout(
        &path,
        args.rev.as_deref(),
        args.branch.as_deref(),
        ctx.refs.as_ref(),
    )
    .map_err(|e| checkout_refused(ctx.global, &path, e))?;
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    status(ctx, &said(&done, paint))?;
    if let Some(hint) = resume_hint(ctx.global, &path) {
        status(ctx, &hint)?;
    }
    Ok(Exit::Success)
}

/// Why `checkout` wrote nothing, as the command line says it.
pub(crate) fn checkout_refused(
    global: &Global,
    path: &std::path::Path,
    e: Refused<CheckoutError>,
) -> Failure {
    refused_as(global, path, e, |e| match e {
        CheckoutError::NoRevision => Failure::usage("checkout needs a revision (or -b NAME)"),
        CheckoutError::NoPrevious => {
            Failure::refuse("there is no previous HEAD: ysess has recorded no HEAD move")
        }
        CheckoutError::BranchExists { name, at } => {
            Failure::refuse(format!("a branch named '{name}' already exists"))
                .with_hint(format!(
                    "{} moves HEAD onto it",
                    command(global, &["checkout", &name])
                ))
                .with_hint(format!(
                    "{} && {} starts it again at {} first",
                    command(global, &["branch", "--force", &name, &at]),
                    command(global, &["checkout", &name]),
                    quote(&at)
                ))
        }
    })
}

/// What `checkout` did, as its status line says it.
pub(crate) fn said(done: &Checkout, paint: Paint) -> String {
    match done {
        Checkout::Already { at } => format!("HEAD is already at {}", described(at, paint)),
        Checkout::NewBranch { name, at } => format!(
            "Switched to a new branch '{}' at {}",
            escape(name),
            described(at, paint)
        ),
        Checkout::Branch { name, at } => format!(
            "Switched to branch '{}' at {}",
            escape(name),
            described(at, paint)
        ),
        Checkout::Moved { at } => format!("HEAD is now at {}", described(at, paint)),
    }
}

/// The line after a checkout of a session whose app owns the file: HEAD
/// moved in ysess's refs, so the app resumes there through ysess.
pub(crate) fn resume_hint(global: &Global, path: &std::path::Path) -> Option<String> {
    let format = crate::ops::app_owned(path)?;
    Some(format!(
        "hint: {} goes on from HEAD in {}",
        command(global, &["resume"]),
        format.app()
    ))
}
