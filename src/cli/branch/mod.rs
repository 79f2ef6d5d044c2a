use clap::Args;

pub(crate) mod change;
mod list;
mod template;

use super::{Context, Exit, Failure};

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
    #[arg(long, value_name = "FMT", long_help = template::help(), conflicts_with_all = ["name", "delete", "rename", "json", "verbose"])]
    pub format: Option<String>,
}

pub fn run(args: &BranchArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if args.force && args.name.is_none() && args.delete.is_none() {
        return Err(Failure::usage(
            "--force goes with a branch NAME to start again, or with -d NAME",
        ));
    }
    if let Some(name) = &args.delete {
        return change::delete(args, name, ctx);
    }
    if let Some(names) = &args.rename {
        return change::rename(&names[0], &names[1], ctx);
    }
    if let Some(name) = &args.name {
        return change::create(args, name, ctx);
    }
    list::run(args, ctx)
}
