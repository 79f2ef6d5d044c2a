//! `ysess tui`: its arguments, and the refusals every command makes before
//! the browser ([`crate::tui`]) takes the terminal.

use clap::Args;

pub use crate::tui::{Action, App, Ask, KEYS, Note, Overlay, Pane, Start};

use super::{Context, Exit, Failure};
use crate::tui::{Broke, Ended};
use crate::ui::graph::Style;

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
}

/// Opens the browser, refusing first what every command refuses, and runs
/// it on the terminal.
pub fn run(args: &TuiArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    use std::io::IsTerminal as _;
    let style = if args.ascii {
        Style::Ascii
    } else {
        Style::Curved
    };
    let tz: jiff::tz::TimeZone = (*ctx.tz).clone();
    // Everything that can be refused is, before the terminal is touched.
    let app = if args.all {
        App::new(
            Start::List { dirs: Vec::new() },
            None,
            style,
            tz,
            ctx.refs.clone(),
        )?
    } else {
        let Some(path) = ctx.session_file() else {
            return Err(Failure::usage(
                "ysess tui watches a file: it cannot read the session from standard input",
            ));
        };
        let repo = super::open_with(
            ctx,
            crate::repo::Open::default()
                .torn(crate::repo::TornLine::Keep)
                .subjects(false),
        )?;
        let start = Start::Session {
            path,
            format_of: ctx.global.format_of,
            rev: args.rev.clone(),
        };
        let mut app = App::new(start, Some(repo), style, tz, ctx.refs.clone())?;
        app.file_from = ctx.global.file_from;
        app
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Failure::refuse(
            "ysess tui draws on a terminal: its standard input and output must be one",
        )
        .with_hint("`ysess log --graph` prints the tree, and `ysess show` an entry, to a pipe"));
    }
    match crate::tui::run(app) {
        Ok(Ended::Signal(signal)) => Ok(Exit::Signal(signal)),
        Ok(Ended::Quit) => Ok(Exit::Success),
        // `R`: the agent takes the terminal the browser gave back.
        Ok(Ended::Resume(path, rev)) => super::resume::hand_off(ctx, &path, Some(&rev), false, &[]),
        Err(Broke::Start(e)) => Err(e.into()),
        Err(Broke::Terminal(e)) => Err(Failure::refuse(format!("the terminal failed: {e}"))),
    }
}
