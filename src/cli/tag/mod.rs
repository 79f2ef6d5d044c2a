pub(crate) mod change;
mod list;

use clap::Args;

use super::{Context, Exit, Failure};

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
    /// Only labels matching PATTERN (`*` any text, `?` one character, `[abc]` one of those)
    #[arg(short = 'l', long = "list", value_name = "PATTERN")]
    pub pattern: Option<String>,
    /// One JSON object per label
    #[arg(long)]
    pub json: bool,
}

/// A `--list` pattern, as a shell reads one (`*` any text, `?` one
/// character, `[abc]` one of those), matched against whole labels.
pub fn pattern(text: &str) -> Result<globset::GlobMatcher, Failure> {
    globset::GlobBuilder::new(text)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| Failure::usage(format!("--list: {e}")))
}

pub fn run(args: &TagArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if let Some(name) = &args.delete {
        return change::delete(name, ctx);
    }
    if let Some(name) = &args.name {
        return change::set(args, name, ctx);
    }
    list::run(args, ctx)
}

#[cfg(test)]
mod tests {
    fn glob(pattern: &str, text: &str) -> bool {
        super::pattern(pattern).expect("a pattern").is_match(text)
    }

    #[test]
    fn glob_matches_like_a_shell() {
        assert!(glob("draft-*", "draft-2"));
        assert!(glob("*", ""));
        assert!(glob("d?aft", "draft"));
        assert!(glob("*-v*", "plan-v2"));
        assert!(!glob("draft-*", "first-draft"));
        assert!(!glob("d?", "draft"));
        assert!(glob("naïve*", "naïve-approach"));
        assert!(glob("draft-[12]", "draft-2"));
        assert!(!glob("draft-[12]", "draft-3"));
        assert!(super::pattern("draft-[").is_err());
    }
}
