use clap::Args;

use super::write::{append_records, describe, open_locked, status};
use super::{Context, Exit, Failure, resolve};
use crate::format::yoagent::records::{Kind, Record, check_name};
use crate::ui::render::Paint;

/// Move HEAD to an entry, so that an agent resumes there
///
/// Appends a `ysess.checkout` record below REV: yoagent's head is the last
/// line, so an agent that loads the file resumes with exactly the messages on
/// the path to REV, and what it appends forks from there. Nothing is
/// rewritten. With -b, starts a branch there too; the branch then follows
/// the work appended below it.
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
    let (locked, refs) = open_locked(ctx)?;
    let repo = &locked.repo;
    let tree = &repo.tree;
    let head = tree.head();
    if args.rev.is_some() || args.branch.is_some() {
        head.ok_or_else(|| super::empty("nothing to check out"))?;
    }
    let back = match args.rev.as_deref() {
        Some("-") => Some(previous(tree, &refs)?),
        _ => None,
    };
    let args = &CheckoutArgs {
        rev: back.or_else(|| args.rev.clone()),
        branch: args.branch.clone(),
    };
    let target = match (&args.rev, &args.branch) {
        (Some(rev), _) => resolve(repo, rev)?,
        (None, Some(_)) => resolve(repo, "HEAD")?,
        (None, None) => return Err(Failure::usage("checkout needs a revision (or -b NAME)")),
    };
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    let target_id = tree.id(target).to_string();
    let record = match &args.branch {
        Some(name) => {
            check_name(name).map_err(Failure::refuse)?;
            if refs.get(name).is_some() {
                let at = args.rev.as_deref().unwrap_or("HEAD");
                return Err(
                    Failure::refuse(format!("a branch named '{name}' already exists"))
                        .with_hint(format!(
                            "{} moves HEAD onto it",
                            super::hint::command(ctx.global, &["checkout", name])
                        ))
                        .with_hint(format!(
                            "{} && {} starts it again at {} first",
                            super::hint::command(ctx.global, &["branch", "--force", name, at]),
                            super::hint::command(ctx.global, &["checkout", name]),
                            super::hint::quote(at)
                        )),
                );
            }
            super::write::check_free(tree, &refs, name, true)?;
            Record {
                kind: Kind::Branch {
                    name: name.clone(),
                    target: target_id.clone(),
                },
                parent: target_id,
            }
        }
        None if head == Some(target)
            && args
                .rev
                .as_deref()
                .and_then(|name| refs.get(name))
                .is_none_or(|b| {
                    refs.current(tree)
                        .is_some_and(|current| current.name == b.name)
                }) =>
        {
            let text = format!(
                "HEAD is already at {}",
                describe(repo, &refs, target, paint)
            );
            status(ctx, &text)?;
            return Ok(Exit::Success);
        }
        None => {
            // Checking out a branch keeps new work on it: hang the record from
            // the branch's tip when that is below the branch's own record, else
            // from the record itself (a branch with no work yet).
            let parent = tree
                .id(crate::write::plan::attach_point(
                    tree,
                    &refs,
                    args.rev.as_deref(),
                    target,
                ))
                .to_string();
            Record {
                kind: Kind::Checkout { target: target_id },
                parent,
            }
        }
    };
    let where_ = describe(repo, &refs, target, paint);
    // A branch checked out by its name, as git says it.
    let by_name = args
        .rev
        .as_deref()
        .filter(|name| refs.get(name).is_some() && tree.find(name).is_none());
    append_records(locked, &[record])?;
    let text = match (&args.branch, by_name) {
        (Some(name), _) => format!(
            "Switched to a new branch '{}' at {where_}",
            crate::ui::output::escape(name)
        ),
        (None, Some(name)) => format!(
            "Switched to branch '{}' at {where_}",
            crate::ui::output::escape(name)
        ),
        (None, None) => format!("HEAD is now at {where_}"),
    };
    status(ctx, &text)?;
    Ok(Exit::Success)
}

/// Where `checkout -` goes: the branch HEAD was on before the last move,
/// by name while it lives, else the entry HEAD was at.
fn previous(tree: &crate::tree::Tree, refs: &crate::refs::Refs) -> Result<String, Failure> {
    let moves = crate::refs::reflog::moves(tree);
    let last = moves.last().ok_or_else(|| {
        Failure::refuse("there is no previous HEAD: ysess has recorded no HEAD move")
    })?;
    let branch = last
        .from_branch
        .and_then(|record| refs.by_record(record))
        .filter(|b| tree.find(&b.name).is_none());
    Ok(match branch {
        Some(b) => b.name.clone(),
        None => tree.id(last.from).to_string(),
    })
}
