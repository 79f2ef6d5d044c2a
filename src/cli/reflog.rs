use clap::Args;

use super::{Context, Exit, Failure, open_repo};
use crate::format::message::Message;
use crate::format::yoagent::records::Kind;
use crate::refs::reflog::{Move, moves};
use crate::repo::Repo;
use crate::tree::Ix;
use crate::ui::output::{escape, json_line};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, iso_time, time};

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
    // A branch deleted before a move is no branch of that move's.
    let name = |branch: Option<Ix>, at: Ix| {
        branch
            .filter(|&b| repo.refs.deleted.iter().all(|d| d.record != b || d.by > at))
            .and_then(|b| branch_name(&repo, b))
    };
    let listed: Vec<Listed> = moves(tree)
        .into_iter()
        .rev()
        .map(|m| Listed {
            from_branch: name(m.from_branch, m.record),
            to_branch: name(m.to_branch, m.record),
            kind: match m.kind.as_str() {
                "ysess.branch" => "checkout -b",
                _ => "checkout",
            },
            m,
        })
        .collect();
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let tz = ctx.tz.clone();
    paged(&mut ctx.streams, args.json, |out| {
        for (k, l) in listed.iter().enumerate() {
            let n = k + 1;
            if args.json {
                json_line(
                    out,
                    &crate::ui::json::Move {
                        n,
                        kind: l.kind,
                        record: tree.id(l.m.record),
                        ts: l.m.timestamp,
                        time: iso_time(l.m.timestamp, &tz),
                        from: tree.id(l.m.from),
                        from_branch: l.from_branch.as_deref(),
                        to: tree.id(l.m.to),
                        to_branch: l.to_branch.as_deref(),
                    },
                )?;
                continue;
            }
            let place = |ix: Ix, branch: &Option<String>| {
                let on = branch
                    .as_deref()
                    .map(|b| format!(" on {}", p.branch(&escape(b))))
                    .unwrap_or_default();
                format!("{}{on}", p.id(&escape(tree.short_id(ix))))
            };
            writeln!(
                out,
                "{}  {}  {}: moving from {} to {}",
                p.head(&format!("HEAD@{{{n}}}")),
                p.dim(&time(l.m.timestamp, &tz, false)),
                l.kind,
                place(l.m.from, &l.from_branch),
                place(l.m.to, &l.to_branch),
            )?;
        }
        Ok(())
    })?;
    Ok(Exit::Success)
}

struct Listed {
    m: Move,
    kind: &'static str,
    from_branch: Option<String>,
    to_branch: Option<String>,
}

/// The name of the branch a `ysess.branch` record started: its name now,
/// or, for a deleted branch, the name it was given.
pub fn branch_name(repo: &Repo, record: Ix) -> Option<String> {
    if let Some(b) = repo.refs.by_record(record) {
        return Some(b.name.clone());
    }
    let Message::Custom { kind, data, .. } = repo.entry(record).ok()?.message else {
        return None;
    };
    match Kind::parse(&kind, &data) {
        Ok(Kind::Branch { name, .. }) => Some(name),
        _ => None,
    }
}
