use clap::Args;

use super::{Context, Exit, Failure, open_repo};
use crate::ui::output::{escape, json_line};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, iso_time, time};
use crate::view::reflog::head_moves;

/// List every HEAD move ysess recorded, newest first
///
/// Each `checkout` (and `checkout -b`) that moved HEAD, or switched the
/// branch new work lands on, with its time and where HEAD went from and to.
/// `HEAD@{N}` is the `from` of the N-th line: HEAD as that move left it
/// behind. `@-` is `HEAD@{1}`, and `checkout -` goes back there. Work an
/// agent appended is no move of ysess's: it shows as the `from` of the next
/// move.
///
/// Examples:
///   ysess reflog          where HEAD has been
///   ysess reflog --json   the same, one JSON object per move
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ReflogArgs {
    /// One JSON object per move
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &ReflogArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    let listed = head_moves(&repo);
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let tz = ctx.tz.clone();
    paged(&mut ctx.streams, args.json, |out| {
        for m in &listed {
            if args.json {
                json_line(
                    out,
                    &crate::ui::json::Move {
                        n: m.n,
                        kind: m.kind,
                        record: tree.id(m.record),
                        ts: m.timestamp,
                        time: iso_time(m.timestamp, &tz),
                        from: tree.id(m.from),
                        from_branch: m.from_branch.as_deref(),
                        to: tree.id(m.to),
                        to_branch: m.to_branch.as_deref(),
                    },
                )?;
                continue;
            }
            let place = |ix, branch: &Option<String>| {
                let on = branch
                    .as_deref()
                    .map(|b| format!(" on {}", p.branch(&escape(b))))
                    .unwrap_or_default();
                format!("{}{on}", p.id(&escape(tree.short_id(ix))))
            };
            writeln!(
                out,
                "{}  {}  {}: moving from {} to {}",
                p.head(&format!("HEAD@{{{}}}", m.n)),
                p.dim(&time(m.timestamp, &tz, false)),
                m.kind,
                place(m.from, &m.from_branch),
                place(m.to, &m.to_branch),
            )?;
        }
        Ok(())
    })?;
    Ok(Exit::Success)
}
