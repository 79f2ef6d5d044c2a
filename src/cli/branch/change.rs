//! `branch NAME [REV]`, `branch -d NAME`, `branch -m OLD NEW`: names only,
//! by appending records; entries stay.

use super::BranchArgs;
use crate::cli::write::{append_records, describe, open_locked, status};
use crate::cli::{Context, Exit, Failure, resolve};
use crate::format::yoagent::records::{Kind, Record, check_name};
use crate::refs::Refs;
use crate::tree::Tree;
use crate::ui::output::escape;
use crate::ui::render::Paint;

/// `branch -d NAME`: the name goes, its entries stay.
pub(super) fn delete(
    args: &BranchArgs,
    name: &str,
    ctx: &mut Context<'_>,
) -> Result<Exit, Failure> {
    change(ctx, |refs, tree| {
        let branch = refs.get(name).ok_or_else(|| no_branch(ctx.global, name))?;
        // As git: the branch HEAD is on is not deleted by accident.
        let on_it = refs
            .current(tree)
            .is_some_and(|b| b.name == *name && Some(b.tip) == tree.head());
        if on_it && !args.force {
            return Err(Failure::refuse(format!(
                "cannot delete branch '{}': HEAD is on it",
                escape(name)
            ))
            .with_hint(format!(
                "{} deletes it all the same (its entries stay; HEAD stays at {})",
                crate::cli::hint::command(ctx.global, &["branch", "--force", "-d", name]),
                escape(tree.short_id(branch.tip))
            )));
        }
        Ok((
            Kind::BranchDelete {
                name: name.to_string(),
            },
            format!("Deleted branch '{}'", escape(name)),
        ))
    })
}

/// `branch -m FROM TO`.
pub(super) fn rename(from: &str, to: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    check_name(to).map_err(Failure::refuse)?;
    change(ctx, |refs, tree| {
        refs.get(from).ok_or_else(|| no_branch(ctx.global, from))?;
        if refs.get(to).is_some() {
            return Err(Failure::refuse(format!(
                "a branch named '{to}' already exists"
            )));
        }
        crate::cli::write::check_free(tree, refs, to, true)?;
        let text = format!("Renamed branch '{}' to '{}'", escape(from), escape(to));
        Ok((
            Kind::BranchRename {
                from: from.to_string(),
                to: to.to_string(),
            },
            text,
        ))
    })
}

/// `branch NAME [REV]`: a `ysess.branch` record below REV, then a checkout
/// record that keeps yoagent's head where it was (so new work does not land
/// on the new branch; `checkout -b` is for that).
pub(super) fn create(
    args: &BranchArgs,
    name: &str,
    ctx: &mut Context<'_>,
) -> Result<Exit, Failure> {
    check_name(name).map_err(Failure::refuse)?;
    let (locked, refs) = open_locked(ctx)?;
    let tree = &locked.repo.tree;
    let head = tree
        .head()
        .ok_or_else(|| crate::cli::empty("nothing to branch from"))?;
    if refs.get(name).is_some() && !args.force {
        let mut again = vec!["branch", "--force", name];
        again.extend(args.rev.as_deref());
        let at = args.rev.as_deref().unwrap_or("HEAD");
        return Err(
            Failure::refuse(format!("a branch named '{name}' already exists")).with_hint(format!(
                "{} starts it again at {}",
                crate::cli::hint::command(ctx.global, &again),
                crate::cli::hint::quote(at)
            )),
        );
    }
    crate::cli::write::check_free(tree, &refs, name, true)?;
    let target = resolve(&locked.repo, args.rev.as_deref().unwrap_or("HEAD"))?;
    // `--force` on a name in use starts it again: git says "Reset".
    let reset = refs.get(name).is_some();
    let target_id = tree.id(target).to_string();
    let records = [
        Record {
            kind: Kind::Branch {
                name: name.to_string(),
                target: target_id.clone(),
            },
            parent: target_id,
        },
        crate::write::plan::stay(tree, head),
    ];
    let what = describe(
        &locked.repo,
        &refs,
        target,
        Paint {
            on: ctx.streams.color_err,
        },
    );
    append_records(locked, &records)?;
    let text = if reset {
        format!("Reset branch '{}' to {what}", escape(name))
    } else {
        format!("Created branch '{}' at {what}", escape(name))
    };
    status(ctx, &text)?;
    Ok(Exit::Success)
}

/// `no branch named 'NAME'`, pointing to the list.
fn no_branch(global: &crate::cli::Global, name: &str) -> Failure {
    Failure::refuse(format!("no branch named '{name}'")).with_hint(format!(
        "{} lists the branches",
        crate::cli::hint::command(global, &["branch"])
    ))
}

/// Deleting or renaming a branch touches names only: one record below
/// HEAD's entry, which leaves yoagent resuming where it did.
fn change(
    ctx: &mut Context<'_>,
    make: impl FnOnce(&Refs, &Tree) -> Result<(Kind, String), Failure>,
) -> Result<Exit, Failure> {
    let (locked, refs) = open_locked(ctx)?;
    let tree = &locked.repo.tree;
    // The name is checked first: on an empty session, too, the answer is
    // that there is no such branch.
    let (kind, text) = make(&refs, tree)?;
    let head = tree
        .head()
        .ok_or_else(|| crate::cli::empty("it has no branches"))?;
    // Below the last line as it is, so work appended later stays on the
    // branch it was on.
    let parent = tree.id(tree.last().unwrap_or(head)).to_string();
    append_records(locked, &[Record { kind, parent }])?;
    status(ctx, &text)?;
    Ok(Exit::Success)
}
