use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::output::{escape, json_line};
use super::render::{Paint, role};
use super::{Context, Exit, Failure, open_session};

/// List labels (checkpoints) and the entries they name
///
/// Labels sorted by name, each with the entry it names. When several entries
/// carry one label the newest wins, as yoagent's `seek_checkpoint` picks.
///
/// Examples:
///   ysess tag                 every label and its entry
///   ysess tag -n              with the entry's first line
///   ysess tag -l 'draft-*'    only labels matching a pattern
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct TagArgs {
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

#[derive(Serialize)]
struct JsonTag<'a> {
    name: &'a str,
    target: &'a str,
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
    let session = open_session(ctx)?;
    let tree = &session.tree;
    let names: Vec<&str> = tree
        .label_names()
        .into_iter()
        .filter(|n| args.pattern.as_deref().is_none_or(|p| glob(p, n)))
        .collect();
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let out = &mut ctx.streams.out;
    let width = names
        .iter()
        .map(|n| escape(n).chars().count())
        .max()
        .unwrap_or(0);
    for name in names {
        let Some(target) = tree.label(name) else {
            continue;
        };
        if args.json {
            json_line(
                *out,
                &JsonTag {
                    name,
                    target: tree.id(target),
                },
            )?;
            continue;
        }
        let shown = escape(name);
        let pad = " ".repeat(width - shown.chars().count());
        write!(
            out,
            "{}{pad}  {}",
            p.label(&shown),
            p.id(&escape(tree.id(target)))
        )?;
        if args.lines {
            write!(
                out,
                "  {}: {}",
                p.role(&role(tree, target)),
                escape(tree.subject(target))
            )?;
        }
        writeln!(out)?;
    }
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
