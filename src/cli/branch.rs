use std::io::Write;

use clap::Args;

use crate::ui::json;
use crate::ui::output::{escape, json_line};
// Columns are padded by display width: a CJK character takes two.
use super::write::{append_records, describe, open_locked, status};
use super::{Context, Exit, Failure, open_repo, resolve};
use crate::format::yoagent::records::{Kind, Record, check_name};
use crate::refs::Refs;
use crate::tree::{Ix, Tree};
use crate::ui::render::{Paint, role};
use unicode_width::UnicodeWidthStr as _;

/// The widest a `branch -v` column is padded to, in display columns.
const MAX_COLUMN: usize = 64;

/// List, create, rename or delete branches
///
/// Lists every branch, newest first: named branches (started with
/// `ysess branch NAME` or `checkout -b`), whose tip follows the work appended
/// below them, and every other tip of the tree (yoagent's `branch_tips()`),
/// shown as the tip's id. `*` marks the one HEAD is on. Creating, renaming
/// and deleting touch names only, by appending records; entries stay.
///
/// Examples:
///   ysess branch lib first-draft  a branch called lib, starting at first-draft
///   ysess branch -m lib library   rename it
///   ysess branch -d library       delete the name (its entries stay)
///   ysess branch                  one line per branch
///   ysess branch -v               with tip, fork point, length and last message
///   ysess branch --contains e5    the branches that grew from e5
///   ysess branch --json | jq -r .tip
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct BranchArgs {
    /// Create a branch with this name
    #[arg(value_name = "NAME", add = crate::ui::complete::branches())]
    pub name: Option<String>,
    /// Where the new branch starts [default: HEAD]
    #[arg(value_name = "REV", requires = "name", add = crate::ui::complete::revisions())]
    pub rev: Option<String>,
    /// Start the branch again even if the name exists
    #[arg(short = 'F', long)]
    pub force: bool,
    /// Delete a branch's name (its entries stay)
    #[arg(short, long, value_name = "NAME", conflicts_with_all = ["name", "rename"], add = crate::ui::complete::branches())]
    pub delete: Option<String>,
    /// Rename a branch
    #[arg(short = 'm', long = "move", num_args = 2, value_names = ["OLD", "NEW"], conflicts_with = "name", add = crate::ui::complete::branches())]
    pub rename: Option<Vec<String>>,
    /// Also show each branch's tip, fork point, length and last message
    #[arg(short, long, conflicts_with_all = ["name", "delete", "rename"])]
    pub verbose: bool,
    /// Only branches whose path contains REV
    #[arg(long, value_name = "REV", conflicts_with_all = ["name", "delete", "rename"], add = crate::ui::complete::revisions())]
    pub contains: Option<String>,
    /// One JSON object per branch
    #[arg(long, conflicts_with_all = ["name", "delete", "rename"])]
    pub json: bool,
    /// Print each branch with this template, e.g. '{name}{tab}{tokens_out}'
    #[arg(long, value_name = "FMT", long_help = super::branch_format::help(), conflicts_with_all = ["name", "delete", "rename", "json", "verbose"])]
    pub format: Option<String>,
}

/// One line of the listing.
struct Listed {
    name: Option<String>,
    tip: Ix,
    /// HEAD is on no branch's tip: this line says where it is.
    detached: bool,
}

pub fn run(args: &BranchArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if args.force && args.name.is_none() && args.delete.is_none() {
        return Err(Failure::usage(
            "--force goes with a branch NAME to start again, or with -d NAME",
        ));
    }
    if let Some(name) = &args.delete {
        return change(ctx, |refs, tree| {
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
                    super::hint::command(ctx.global, &["branch", "--force", "-d", name]),
                    escape(tree.short_id(branch.tip))
                )));
            }
            Ok((
                Kind::BranchDelete { name: name.clone() },
                format!("Deleted branch '{}'", escape(name)),
            ))
        });
    }
    if let Some(names) = &args.rename {
        let (from, to) = (&names[0], &names[1]);
        check_name(to).map_err(Failure::refuse)?;
        return change(ctx, |refs, tree| {
            refs.get(from).ok_or_else(|| no_branch(ctx.global, from))?;
            if refs.get(to).is_some() {
                return Err(Failure::refuse(format!(
                    "a branch named '{to}' already exists"
                )));
            }
            super::write::check_free(tree, refs, to, true)?;
            let text = format!("Renamed branch '{}' to '{}'", escape(from), escape(to));
            Ok((
                Kind::BranchRename {
                    from: from.clone(),
                    to: to.clone(),
                },
                text,
            ))
        });
    }
    if let Some(name) = &args.name {
        return create(args, name, ctx);
    }
    let template = args
        .format
        .as_deref()
        .map(super::branch_format::Template::parse)
        .transpose()
        .map_err(Failure::usage)?;
    let repo = open_repo(ctx)?;
    let refs = &repo.refs;
    let tree = &repo.tree;
    let head = tree.head();
    // Named branches, then every other tip of the user's tree.
    let mut listed: Vec<Listed> = refs
        .branches
        .iter()
        .map(|b| Listed {
            name: Some(b.name.clone()),
            tip: b.tip,
            detached: false,
        })
        .collect();
    let named: hashbrown::HashSet<Ix> = listed.iter().map(|l| l.tip).collect();
    listed.extend(
        tree.tips()
            .filter(|ix| !named.contains(ix))
            .map(|tip| Listed {
                name: None,
                tip,
                detached: false,
            }),
    );
    listed.sort_by_key(|l| (std::cmp::Reverse(l.tip), l.name.clone()));
    if let Some(rev) = &args.contains {
        let target = resolve(&repo, rev)?;
        listed.retain(|l| tree.is_ancestor(target, l.tip));
    }
    // The branch HEAD is on: one whose tip HEAD is, the branch the last line
    // grew under first. HEAD anywhere else is on no branch: detached, as git
    // says, listed first.
    let on = refs.current(tree).filter(|b| Some(b.tip) == head);
    let mut current = head.and_then(|h| {
        let by_name = on.and_then(|b| {
            listed
                .iter()
                .position(|l| l.name.as_deref() == Some(b.name.as_str()))
        });
        by_name.or_else(|| listed.iter().position(|l| l.tip == h))
    });
    if let (None, Some(h), None) = (current, head, &args.contains) {
        listed.insert(
            0,
            Listed {
                name: None,
                tip: h,
                detached: true,
            },
        );
        current = Some(0);
    }
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
            let row = super::branch_format::Row {
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

/// `branch NAME [REV]`: a `ysess.branch` record below REV, then a checkout
/// record that keeps yoagent's head where it was (so new work does not land
/// on the new branch; `checkout -b` is for that).
fn create(args: &BranchArgs, name: &str, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    check_name(name).map_err(Failure::refuse)?;
    let (locked, refs) = open_locked(ctx)?;
    let tree = &locked.repo.tree;
    let head = tree
        .head()
        .ok_or_else(|| super::empty("nothing to branch from"))?;
    if refs.get(name).is_some() && !args.force {
        let mut again = vec!["branch", "--force", name];
        again.extend(args.rev.as_deref());
        let at = args.rev.as_deref().unwrap_or("HEAD");
        return Err(
            Failure::refuse(format!("a branch named '{name}' already exists")).with_hint(format!(
                "{} starts it again at {}",
                super::hint::command(ctx.global, &again),
                super::hint::quote(at)
            )),
        );
    }
    super::write::check_free(tree, &refs, name, true)?;
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
fn no_branch(global: &super::Global, name: &str) -> Failure {
    Failure::refuse(format!("no branch named '{name}'")).with_hint(format!(
        "{} lists the branches",
        super::hint::command(global, &["branch"])
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
        .ok_or_else(|| super::empty("it has no branches"))?;
    // Below the last line as it is, so work appended later stays on the
    // branch it was on.
    let parent = tree.id(tree.last().unwrap_or(head)).to_string();
    append_records(locked, &[Record { kind, parent }])?;
    status(ctx, &text)?;
    Ok(Exit::Success)
}
