//! `ysess tui` as a command: the refusals every command makes before the
//! browser takes the terminal, then the browser, and how it ended as an
//! exit status.

use crate::cli::tui::TuiArgs;
use crate::cli::{Context, Exit, Failure};
use crate::ui::graph::Style;

use super::{App, Broke, Ended, Start};

/// Opens the browser, refusing first what every command refuses, and runs
/// it on the terminal.
pub fn browse(args: &TuiArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    use std::io::IsTerminal as _;
    let style = if args.ascii {
        Style::Ascii
    } else {
        Style::Curved
    };
    let tz: jiff::tz::TimeZone = (*ctx.tz).clone();
    // Everything that can be refused is, before the terminal is touched.
    args.shelf.only_with_all(args.all)?;
    let app = if args.all {
        App::new(
            Start::List {
                dirs: Vec::new(),
                archive: args.shelf.dir(false)?,
            },
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
        let repo = crate::cli::open_with(
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
    match super::run(app) {
        Ok(Ended::Signal(signal)) => Ok(Exit::Signal(signal)),
        Ok(Ended::Quit) => Ok(Exit::Success),
        // `R`: the agent takes the terminal the browser gave back.
        Ok(Ended::Resume(path, rev)) => {
            crate::cli::resume::hand_off(ctx, &path, Some(&rev), false, &[])
        }
        Err(Broke::Start(e)) => Err(e.into()),
        Err(Broke::Terminal(e)) => Err(Failure::refuse(format!("the terminal failed: {e}"))),
    }
}
