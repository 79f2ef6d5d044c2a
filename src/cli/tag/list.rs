//! `ysess tag` without a name: the labels, as lines or JSON.

use std::io::Write;

use super::{TagArgs, pattern};
use crate::cli::{Context, Exit, Failure, open_repo};
use crate::ui::json;
use crate::ui::output::{escape, json_line};
use crate::ui::render::{Paint, role};
// Columns are padded by display width: a CJK character takes two.
use unicode_width::UnicodeWidthStr as _;

/// Lists the labels (those `--pattern` matches), padded into columns.
pub(super) fn run(args: &TagArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let pattern = args.pattern.as_deref().map(pattern).transpose()?;
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    let names: Vec<(&str, _)> = tree
        .label_pairs()
        .into_iter()
        .filter(|(n, _)| pattern.as_ref().is_none_or(|p| p.is_match(n)))
        .collect();
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let out = &mut ctx.streams.out;
    let width = names
        .iter()
        .map(|(n, _)| escape(n).width())
        .max()
        .unwrap_or(0);
    let id_width = names
        .iter()
        .map(|&(_, t)| escape(tree.short_id(t)).width())
        .max()
        .unwrap_or(0);
    for (name, target) in names {
        if args.json {
            json_line(
                *out,
                &json::Tag {
                    name,
                    target: tree.id(target),
                },
            )?;
            continue;
        }
        let shown = escape(name);
        let pad = " ".repeat(width - shown.width());
        write!(
            out,
            "{}{pad}  {}",
            p.label(&shown),
            p.id(&escape(tree.short_id(target)))
        )?;
        if args.lines {
            let id_pad = " ".repeat(id_width - escape(tree.short_id(target)).width());
            write!(
                out,
                "{id_pad}  {}: {}",
                p.role(&role(tree, target)),
                escape(tree.subject(target))
            )?;
        }
        writeln!(out)?;
    }
    Ok(Exit::Success)
}
