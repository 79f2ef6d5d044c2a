use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::output::{escape, json_line};
use super::render::{Paint, role};
use super::{Context, Exit, Failure, open_session, resolve};
use crate::index::{Ix, Tree};

/// List branches: every tip of the tree, newest first
///
/// A branch is a path that ends in an entry with no children (yoagent's
/// `branch_tips()`); `*` marks the one HEAD is on. Unnamed branches show as
/// their tip's id.
///
/// Examples:
///   ysess branch                  one line per branch
///   ysess branch -v               with tip, fork point, length and last message
///   ysess branch --contains e5    the branches that grew from e5
///   ysess branch --json | jq -r .tip
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct BranchArgs {
    /// Also show each branch's tip, fork point, length and last message
    #[arg(short, long)]
    pub verbose: bool,
    /// Only branches whose path contains REV
    #[arg(long, value_name = "REV")]
    pub contains: Option<String>,
    /// One JSON object per branch
    #[arg(long)]
    pub json: bool,
}

/// One branch as `--json` prints it.
#[derive(Serialize)]
struct JsonBranch<'a> {
    name: Option<&'a str>,
    tip: &'a str,
    fork_point: Option<&'a str>,
    current: bool,
    length: u32,
}

/// The nearest entry above `tip` with more than one child: where this
/// branch left another. `None` when the path never forks.
pub fn fork_point(tree: &Tree, tip: Ix) -> Option<Ix> {
    let mut cursor = tree.node(tip).parent;
    while let Some(ix) = cursor {
        if tree.children(ix).len() > 1 {
            return Some(ix);
        }
        cursor = tree.node(ix).parent;
    }
    None
}

pub fn run(args: &BranchArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let session = open_session(ctx)?;
    let tree = &session.tree;
    let head = tree.head_entry();
    // A branch ending in ysess records ends, for a person, at the entry
    // they hang from.
    let mut tips: Vec<Ix> = Vec::new();
    let mut seen = hashbrown::HashSet::new();
    for tip in tree.tips() {
        let shown = if tree.is_record(tip) {
            tree.visible_parent(tip)
        } else {
            Some(tip)
        };
        if let Some(shown) = shown.filter(|&s| seen.insert(s)) {
            tips.push(shown);
        }
    }
    tips.reverse(); // newest first
    if let Some(rev) = &args.contains {
        let target = resolve(tree, head, &[], rev)?;
        let (enter, exit) = tree.intervals();
        let (t_in, t_out) = (enter[target as usize], exit[target as usize]);
        tips.retain(|&tip| t_in <= enter[tip as usize] && exit[tip as usize] <= t_out);
    }
    // The branch HEAD is on: the tip at HEAD, else the newest tip below it.
    let current = head.and_then(|h| {
        let (enter, exit) = tree.intervals();
        tips.iter().copied().find(|&t| {
            enter[h as usize] <= enter[t as usize] && exit[t as usize] <= exit[h as usize]
        })
    });
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let out = &mut ctx.streams.out;
    let width = tips
        .iter()
        .map(|&t| escape(tree.id(t)).chars().count())
        .max()
        .unwrap_or(0);
    for &tip in &tips {
        let fork = fork_point(tree, tip);
        let length = tree.node(tip).depth - fork.map_or(0, |f| tree.node(f).depth);
        if args.json {
            json_line(
                *out,
                &JsonBranch {
                    name: None,
                    tip: tree.id(tip),
                    fork_point: fork.map(|f| tree.id(f)),
                    current: current == Some(tip),
                    length,
                },
            )?;
            continue;
        }
        let marker = if current == Some(tip) { "*" } else { " " };
        let name = escape(tree.id(tip));
        let pad = " ".repeat(width - name.chars().count());
        let name = if current == Some(tip) {
            p.head(&name)
        } else {
            p.id(&name)
        };
        if args.verbose {
            let fork = fork.map_or_else(|| "-".to_string(), |f| escape(tree.id(f)).into_owned());
            writeln!(
                out,
                "{marker} {name}{pad}  forked at {fork}, {length} {}  {}: {}",
                if length == 1 { "entry" } else { "entries" },
                p.role(&role(tree, tip)),
                escape(tree.subject(tip))
            )?;
        } else {
            writeln!(out, "{marker} {name}")?;
        }
    }
    Ok(Exit::Success)
}
