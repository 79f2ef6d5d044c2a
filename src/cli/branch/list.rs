//! `ysess branch` without a name: the listing, as lines, `-v` columns,
//! JSON or a template.

use std::io::Write;

use super::BranchArgs;
use super::template::{BranchValues, Template};
use crate::Tree;
use crate::cli::{Context, Exit, Failure, open_repo, resolve};
use crate::ops::branch::{Listed, Listing};
use crate::repo::Repo;
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
        .map(Template::parse)
        .transpose()
        .map_err(Failure::usage)?;
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    let contains = args
        .contains
        .as_deref()
        .map(|rev| resolve(&repo, rev))
        .transpose()?;
    let listing = Listing::of(&repo.refs, tree, contains);
    // With --contains, HEAD elsewhere is not listed.
    let listing = match contains {
        None => listing.with_detached_head(tree),
        Some(_) => listing,
    };
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let out = &mut ctx.streams.out;
    match &template {
        _ if args.json => json_rows(*out, tree, &listing)?,
        Some(template) => template_rows(*out, &repo, &listing, template)?,
        None => human_rows(*out, tree, &listing, args.verbose, p)?,
    }
    Ok(Exit::Success)
}

/// `--json`: one object per branch.
fn json_rows(out: &mut dyn Write, tree: &Tree, listing: &Listing) -> std::io::Result<()> {
    for (k, l) in listing.rows.iter().enumerate() {
        json_line(
            out,
            &json::Branch {
                name: l.name.as_deref(),
                tip: tree.id(l.tip),
                fork_point: tree.fork_point(l.tip).map(|f| tree.id(f)),
                current: listing.current == Some(k),
                detached: l.detached,
                length: tree.branch_length(l.tip),
            },
        )?;
    }
    Ok(())
}

/// `--format`: each branch through the template; tokens and cost along
/// each branch are read only when the template shows them.
fn template_rows(
    out: &mut dyn Write,
    repo: &Repo,
    listing: &Listing,
    template: &Template,
) -> std::io::Result<()> {
    let tree = &repo.tree;
    let accounts = if template.shows_usage() {
        let facts = crate::stats::read(repo)?;
        let tips: Vec<_> = listing.rows.iter().map(|l| l.tip).collect();
        Some(crate::stats::accounts_of_paths(&facts, tree, &tips))
    } else {
        None
    };
    for (k, l) in listing.rows.iter().enumerate() {
        let row = BranchValues {
            name: match (&l.name, l.detached) {
                (_, true) => "",
                (Some(name), _) => name,
                (None, _) => tree.id(l.tip),
            },
            tip: tree.id(l.tip),
            fork: tree.fork_point(l.tip).map_or("", |f| tree.id(f)),
            length: tree.branch_length(l.tip),
            current: listing.current == Some(k),
            role: &role(tree, l.tip),
            subject: tree.subject(l.tip),
            account: accounts.as_ref().map(|a| &a[k]),
        };
        writeln!(out, "{}", template.render(&row))?;
    }
    Ok(())
}

/// One line per branch, `*` on the one HEAD is on; with `-v`, its tip,
/// fork point, length and last message in columns.
fn human_rows(
    out: &mut dyn Write,
    tree: &Tree,
    listing: &Listing,
    verbose: bool,
    p: Paint,
) -> std::io::Result<()> {
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
    let width = listing
        .rows
        .iter()
        .map(|l| column(shown_name(l).width()))
        .max()
        .unwrap_or(0);
    let columns = if verbose {
        verbose_columns(tree, &listing.rows)
    } else {
        Vec::new()
    };
    let widths = [0, 1, 2].map(|c| {
        columns
            .iter()
            .map(|col| column(col[c].width()))
            .max()
            .unwrap_or(0)
    });
    for (k, l) in listing.rows.iter().enumerate() {
        let is_current = listing.current == Some(k);
        let marker = if is_current { "*" } else { " " };
        let name = shown_name(l);
        let pad = " ".repeat(width.saturating_sub(name.width()));
        let name = match (is_current, l.name.is_some()) {
            (true, _) => p.head(&name),
            (false, true) => p.branch(&name),
            (false, false) => p.id(&name),
        };
        if !verbose {
            writeln!(out, "{marker} {name}")?;
            continue;
        }
        let [tip, fork, count] = &columns[k];
        let pads = [0, 1, 2].map(|c| " ".repeat(widths[c].saturating_sub(columns[k][c].width())));
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
    }
    Ok(())
}

/// `-v` columns: tip, fork point, length, escaped.
fn verbose_columns(tree: &Tree, rows: &[Listed]) -> Vec<[String; 3]> {
    rows.iter()
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
        .collect()
}
