//! `ysess tui`: its arguments. The browser sits above the command line
//! (it draws with the commands' own renderers, [`crate::tui`]): the program
//! hands it to [`super::main`] as a [`Browse`], and the command line never
//! names it.

use clap::Args;

use super::{Context, Exit, Failure};

/// What runs `ysess tui`: the browser, handed to the command line by the
/// program ([`super::main`]).
pub type Browse = fn(&TuiArgs, &mut Context<'_>) -> Result<Exit, Failure>;

/// Browse a session's tree and its chat, as tig browses a repository
///
/// The tree on the left, drawn as `log --graph` draws it; the path of the
/// selected entry on the right, as a chat (thinking, tool calls and results
/// folded, errors marked, tokens and cost per reply and per path); a status
/// line. Keys as tig and lazygit have them: `?` lists them. `t`, `b` and
/// `c` tag, branch and check out the selected entry: each asks first, then
/// writes exactly as `ysess tag`, `branch` and `checkout` do.
///
/// While an agent writes the file, new entries appear and HEAD follows;
/// a half-written last line is waited for. `ysess -s ID tui` opens a
/// session by its id, as every command does.
///
/// Examples:
///   ysess tui                      the session file, at HEAD
///   ysess tui first-draft          at a checkpoint
///   ysess tui --all                every session `ysess ls` lists; Enter opens one
///   ysess tui --ascii              the graph in ASCII, for terminals without box drawing
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct TuiArgs {
    /// The entry to start on (default: HEAD)
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub rev: Option<String>,
    /// Start from the list of every session `ysess ls` finds
    #[arg(long, conflicts_with = "rev")]
    pub all: bool,
    /// Draw the graph with ASCII characters only
    #[arg(long)]
    pub ascii: bool,
    /// `--archive [DIR]`, `--no-archive`: the archive's sessions in the
    /// list of `--all`.
    #[command(flatten)]
    pub shelf: super::archive::Shelf,
}
