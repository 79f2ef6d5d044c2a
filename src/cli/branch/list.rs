//! `ysess branch` without a name: the listing, as lines, `-v` columns,
//! JSON or a template.

use std::io::Write;

use super::BranchArgs;
use crate::cli::{Context, Exit, Failure, open_repo, resolve};
use crate::refs::listing::{Listed, Listing};
use crate::ui::json;
use crate::ui::output::{escape, json_line};
use crate::ui::render::{Paint, role};
// Columns are padded by display width: a CJK character takes two.
use unicode_width::UnicodeWidthStr as _;

/// The widest a `branch -v` column is padded to, in display columns.
const MAX_COLUMN: usize = 64;

pub(super) fn run(args: &BranchArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let template = args
        .format
        .as_deref()
        .map(super::template::Template::parse)
        .transpose()
        .map_err(Failure::usage)?;
    let repo = open_repo(ctx)?;
    let refs = &repo.refs;
    let tree = &repo.tree;
    let contains = args
        .contains
        .as_deref()
        .map(|rev| resolve(&repo, rev))
        .transpose()?;
    let listing = Listing::of(refs, tree, contains);
    // With --contains, HEAD elsewhere is not listed.
    let Listing {
        rows: listed,
        current,
    } = match contains {
        None => listing.with_detached_head(tree),
        Some(_) => listing,
    };
    // Tokens and cost along each branch, when the template shows them.
    let accounts = match &template {
        Some(t) if t.shows_usage() => {
            let facts = crate::stats::read(&repo)?;
            let tips: Vec<crate::tree::Ix> = listed.iter().map(|l| l.tip).collect();
            Some(crate::stats::accounts_of_paths(&facts, tree, &tips))
        }
        _ => None,
    };
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let out = &mut ctx.streams.out;
    let shown_name = |l: &Listed| {
        if l.detached {
            format!("(HEAD detached at {})", escape(tree.short_id(l.tip)))
        } else {
            escape(l.name.as_deref().unwrap_or(tree.short_id(l.tip))).into_owned()
        }
    };
    // A name (or id) wider than a column is not padded to, nor does it
    // pad every other row to its width: it overflows its own row.
    let column = |w: usize| if w <= MAX_COLUMN { w } else { 0 };
    let width = listed
        .iter()
        .map(|l| column(shown_name(l).width()))
        .max()
        .unwrap_or(0);
    // -v columns: tip, fork point, length; padded so they line up.
    let columns: Vec<[String; 3]> = listed
        .iter()
        .map(|l| {
            let n = tree.branch_length(l.tip);
            [
                // A named branch's tip; an unnamed one is shown by its tip.
                if l.name.is_some() || l.detached {
                    escape(tree.short_id(l.tip)).into_owned()
                } else {
                    String::new()
                },
                tree.fork_point(l.tip).map_or_else(
                    || "no fork".to_string(),
                    |f| format!("forked at {}", escape(tree.short_id(f))),
                ),
                format!("{n} {}", if n == 1 { "entry" } else { "entries" }),
            ]
        })
        .collect();
    let widths = [0, 1, 2].map(|c| {
        columns
            .iter()
            .map(|col| column(col[c].width()))
            .max()
            .unwrap_or(0)
    });
    for (k, l) in listed.iter().enumerate() {
        let is_current = current == Some(k);
        if args.json {
            json_line(
                *out,
                &json::Branch {
                    name: l.name.as_deref(),
                    tip: tree.id(l.tip),
                    fork_point: tree.fork_point(l.tip).map(|f| tree.id(f)),
                    current: is_current,
                    detached: l.detached,
                    length: tree.branch_length(l.tip),
                },
            )?;
            continue;
        }
        if let Some(template) = &template {
            let fork = tree.fork_point(l.tip).map_or("", |f| tree.id(f));
            let account = accounts.as_ref().map(|a| &a[k]);
            let row = super::template::Row {
                name: match (&l.name, l.detached) {
                    (_, true) => "",
                    (Some(name), _) => name,
                    (None, _) => tree.id(l.tip),
                },
                tip: tree.id(l.tip),
                fork,
                length: tree.branch_length(l.tip),
                current: is_current,
                role: &role(tree, l.tip),
                subject: tree.subject(l.tip),
                account,
            };
            writeln!(out, "{}", template.render(&row))?;
            continue;
        }
        let marker = if is_current { "*" } else { " " };
        let name = shown_name(l);
        let pad = " ".repeat(width.saturating_sub(name.width()));
        let name = match (is_current, l.name.is_some()) {
            (true, _) => p.head(&name),
            (false, true) => p.branch(&name),
            (false, false) => p.id(&name),
        };
        if args.verbose {
            let [tip, fork, count] = &columns[k];
            let pads =
                [0, 1, 2].map(|c| " ".repeat(widths[c].saturating_sub(columns[k][c].width())));
            let tip = if widths[0] == 0 {
                String::new()
            } else {
                format!("{}{}  ", p.id(tip), pads[0])
            };
            writeln!(
                out,
                "{marker} {name}{pad}  {tip}{fork}{}  {count}{}  {}: {}",
                pads[1],
                pads[2],
                p.role(&role(tree, l.tip)),
                escape(tree.subject(l.tip))
            )?;
        } else {
            writeln!(out, "{marker} {name}")?;
        }
    }
    Ok(Exit::Success)
}
