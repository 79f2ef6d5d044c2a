use std::io::Write;

use clap::Args;

use crate::ui::json;
use crate::ui::output::{escape, json_line};
// Columns are padded by display width: a CJK character takes two.
use super::write::{described, refused, session_path, status};
use super::{Context, Exit, Failure, open_repo};
use crate::ops;
use crate::ops::tag::DeleteError;
use crate::ui::render::{Paint, role};
use unicode_width::UnicodeWidthStr as _;

/// Label an entry (a checkpoint), or list labels
///
/// With NAME, labels REV (default HEAD): appends a `ysess.tag` record below
/// REV that carries the label, so yoagent's `seek_checkpoint(NAME)` resumes
/// at REV; HEAD does not move. Without NAME, lists labels sorted by name,
/// each with the entry it names. When several entries carry one label the
/// newest wins, as in yoagent.
///
/// Examples:
///   ysess tag first-draft         label HEAD
///   ysess tag --force first-draft e7   move the label (the newest carrier wins)
///   ysess tag -n                  every label, its entry and first line
///   ysess tag -l 'draft-*'        only labels matching a pattern
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct TagArgs {
    /// The label to set
    #[arg(value_name = "NAME", conflicts_with_all = ["lines", "pattern", "json"], add = crate::ui::complete::labels())]
    pub name: Option<String>,
    /// The entry to label [default: HEAD]
    #[arg(value_name = "REV", requires = "name", add = crate::ui::complete::revisions())]
    pub rev: Option<String>,
    /// Set the label even if it names another entry already
    #[arg(short = 'F', long, requires = "name")]
    pub force: bool,
    /// Delete a label (refused: see the message)
    #[arg(short, long, value_name = "NAME", conflicts_with = "name", add = crate::ui::complete::labels())]
    pub delete: Option<String>,
    /// Also show the first line of each label's entry
    #[arg(short = 'n')]
    pub lines: bool,
    /// Only labels matching PATTERN (`*` any text, `?` one character)
    #[arg(short = 'l', long = "list", value_name = "PATTERN")]
    pub pattern: Option<String>,
    /// One JSON object per label
    #[arg(long)]
    pub json: bool,
}

/// `*` matches any text, `?` one character; everything else itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // Classic two-pointer match with backtracking to the last `*`.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

pub fn run(args: &TagArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if let Some(name) = &args.delete {
        return delete(name, ctx);
    }
    if let Some(name) = &args.name {
        return set(args, name, ctx);
    }
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    let names: Vec<(&str, _)> = tree
        .label_pairs()
        .into_iter()
        .filter(|(n, _)| args.pattern.as_deref().is_none_or(|p| glob(p, n)))
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

/// Takes NAME off the entries it names, where the format has a way to say
/// so by appending (pi's empty label change).
fn delete(name: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    let deleted = ops::tag::delete(&path, name).map_err(|e| {
        refused(ctx, &path, e, |e| match e {
            DeleteError::NoLabel => Failure::refuse(format!("no label named '{name}'")),
            DeleteError::Permanent => Failure::refuse(format!(
                "cannot delete label '{name}': a label lives on the entries that carry it, and \
                 taking it off would rewrite history"
            ))
            .with_hint(format!(
                "{} moves it instead, to the entry REV: the newest carrier wins",
                super::hint::command(ctx.global, &["tag", "--force", name, "REV"])
            )),
        })
    })?;
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    let text = match deleted.was_on {
        Some(on) => format!(
            "Deleted label '{}' (was on {})",
            escape(name),
            described(&on, paint)
        ),
        None => format!("Deleted label '{}'", escape(name)),
    };
    status(ctx, &text)?;
    Ok(Exit::Success)
}

/// Labels REV with NAME by appending records: the label on a record below
/// REV, then, when REV is not HEAD, a checkout record that puts yoagent's
/// head back where it was, in the same write.
fn set(args: &TagArgs, name: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    let done = ops::tag::set(&path, name, args.rev.as_deref(), args.force).map_err(|e| {
        refused(ctx, &path, e, |ops::tag::SetError::Exists { on }| {
            let mut again = vec!["tag", "--force", name];
            again.extend(args.rev.as_deref());
            Failure::refuse(format!("label '{name}' already names {on}")).with_hint(format!(
                "{} moves it (the newest carrier wins, as in yoagent)",
                super::hint::command(ctx.global, &again)
            ))
        })
    })?;
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    let text = match done {
        ops::tag::Set::Already { target } => format!(
            "Label '{}' already names {}",
            escape(name),
            described(&target, paint)
        ),
        ops::tag::Set::Moved { from, target } => format!(
            "Moved label '{}' from {} to {}",
            escape(name),
            escape(&from),
            described(&target, paint)
        ),
        ops::tag::Set::Labelled { target } => format!(
            "Labelled {} as '{}'",
            described(&target, paint),
            escape(name)
        ),
    };
    status(ctx, &text)?;
    Ok(Exit::Success)
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn glob_matches_like_a_shell() {
        assert!(glob("draft-*", "draft-2"));
        assert!(glob("*", ""));
        assert!(glob("d?aft", "draft"));
        assert!(glob("*-v*", "plan-v2"));
        assert!(!glob("draft-*", "first-draft"));
        assert!(!glob("d?", "draft"));
        assert!(glob("naïve*", "naïve-approach"));
    }
}
