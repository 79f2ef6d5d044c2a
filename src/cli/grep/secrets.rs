//! `grep --secrets`: what `export --redact` would take out, for review
//! before a session is shared.

use super::GrepArgs;
use crate::cli::{Context, Exit, Failure, open_repo, select};
use crate::ui::output::escape;
use crate::ui::pager::paged;
use crate::view::redact::masked;

/// One line a find, `ENTRY KIND MASKED`, the entries in file order (every
/// entry, or the paths to the REVs given); exits 1 when there is none.
pub fn run(args: &GrepArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let redactor = crate::cli::redact::redactor(&args.redact_pattern)?;
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    // With --secrets there is no PATTERN: the first word is a revision.
    let texts: Vec<&str> = args
        .pattern
        .iter()
        .chain(&args.revs)
        .map(String::as_str)
        .collect();
    let mut ixs = if texts.is_empty() {
        tree.entries().collect()
    } else {
        select(&repo, &texts, false)?
    };
    ixs.sort_by_key(|&ix| tree.node(ix).line);
    ixs.dedup();
    let mut found = false;
    // Entries read and searched on every core, a block at a time, and
    // written in file order.
    let blocks: Vec<&[crate::tree::Ix]> = ixs.chunks(256).collect();
    paged(&mut ctx.streams, false, |out| {
        let mut said = Ok(());
        let workers = crate::input::par::jobs();
        crate::input::par::ordered(
            workers,
            workers * 4,
            blocks.iter(),
            |block| {
                block
                    .iter()
                    .map(|&ix| (ix, repo.entry(ix).map(|e| redactor.find_entry(&e))))
                    .collect::<Vec<_>>()
            },
            |searched| {
                if said.is_err() {
                    return false;
                }
                for (ix, finds) in searched {
                    let written = finds.and_then(|finds| {
                        finds.iter().try_for_each(|find| {
                            found = true;
                            writeln!(
                                out,
                                "{} {} {}",
                                escape(tree.short_id(ix)),
                                find.kind,
                                escape(&masked(&find.text))
                            )
                        })
                    });
                    if let Err(e) = written {
                        said = Err(e);
                        return false;
                    }
                }
                true
            },
        );
        said
    })?;
    Ok(if found { Exit::Success } else { Exit::No })
}
