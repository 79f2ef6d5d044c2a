//! `ysess tui`: the tree and its chat in one interactive view, as tig and
//! lazygit show a repository.
//!
//! [`App`] is the whole browser without a terminal: it takes keys
//! ([`App::key`]), looks at the file ([`App::tick`]) and draws itself on
//! any ratatui backend ([`App::draw`]); the tests drive it on ratatui's
//! test backend. [`run`] puts it on the terminal, and gives the terminal
//! back however it ends: quit, error, panic, SIGTERM or SIGHUP.

mod app;
mod chat;
mod draw;
mod list;
mod view;

use std::io::{self, Write};
use std::time::Duration;

use clap::Args;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use ratatui::crossterm::{cursor, execute, terminal};

pub use app::{App, Ask, Note, Overlay, Start};
pub use draw::KEYS;
pub use view::Pane;

use super::{Context, Exit, Failure};
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

/// Runs the browser on the terminal.
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
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(Failure::refuse(
            "ysess tui draws on a terminal: its standard input and output must be one",
        )
        .with_hint("`ysess log --graph` prints the tree, and `ysess show` an entry, to a pipe"));
    }
    let signals = Signals::register()?;
    let screen = Screen::enter()?;
    let ended = event_loop(app, &signals);
    drop(screen);
    match ended {
        Ok(Ended::Signal(signal)) => Ok(Exit::Signal(signal)),
        Ok(Ended::Quit) => Ok(Exit::Success),
        // `R`: the agent takes the terminal the browser gave back.
        Ok(Ended::Resume(path, rev)) => super::resume::hand_off(ctx, &path, Some(&rev), false, &[]),
        Err(e) => Err(Failure::refuse(format!("the terminal failed: {e}"))),
    }
}

/// How the browser ended.
enum Ended {
    /// The user quit.
    Quit,
    /// The user asked to go on in the session's agent at an entry.
    Resume(std::path::PathBuf, String),
    /// A signal ended it (its number).
    Signal(u8),
}

/// Draws, takes keys and looks at the file until the user quits or a
/// signal ends the browser.
fn event_loop(mut app: App, signals: &Signals) -> io::Result<Ended> {
    use std::sync::mpsc::RecvTimeoutError;

    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    // Keys are read on a thread of their own: a terminal that hangs up
    // reads as endless empty input there, while this loop finds it out by
    // writing, and ends.
    let (tx, keys) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let read = event::read();
            let failed = read.is_err();
            if tx.send(read).is_err() || failed {
                break;
            }
        }
    });
    loop {
        terminal.draw(|frame| app.draw(frame))?;
        // A frame that changed nothing writes nothing: a few bytes each
        // turn make a closed terminal an error, which ends the browser.
        execute!(terminal.backend_mut(), cursor::Hide)?;
        if let Some(text) = app.copy.take() {
            copy(&text)?;
        }
        if let Some(signal) = signals.taken() {
            return Ok(Ended::Signal(signal));
        }
        match keys.recv_timeout(Duration::from_millis(100)) {
            Ok(event) => {
                take(&mut app, event?);
                // Take every key already typed before drawing again.
                while !app.quit {
                    match keys.try_recv() {
                        Ok(event) => take(&mut app, event?),
                        Err(_) => break,
                    }
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other("the terminal's input ended"));
            }
        }
        if app.quit {
            return Ok(match app.resume.take() {
                Some((path, rev)) => Ended::Resume(path, rev),
                None => Ended::Quit,
            });
        }
        app.tick();
    }
}

/// One event from the terminal: a key is the browser's (a resize needs
/// only the next frame).
fn take(app: &mut App, event: Event) {
    if let Event::Key(key) = event
        && key.kind != KeyEventKind::Release
    {
        app.key(key);
    }
}

/// Puts `text` on the terminal's clipboard: OSC 52, which terminals (and
/// tmux, and ssh sessions) pass on to the system's.
fn copy(text: &str) -> io::Result<()> {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let mut out = io::stdout();
    write!(out, "\x1b]52;c;{encoded}\x07")?;
    out.flush()
}

/// The terminal in raw mode on the alternate screen, until dropped; a
/// panic gives it back too, before its message is printed.
struct Screen;

impl Screen {
    fn enter() -> io::Result<Screen> {
        // A panic anywhere is a bug: the terminal is given back, the
        // message printed, and a panic off the main thread (a background
        // read) ends ysess too, rather than leave it drawing on a terminal
        // that is no longer raw.
        let hook = std::panic::take_hook();
        let main = std::thread::current().id();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            hook(info);
            if std::thread::current().id() != main {
                std::process::exit(101);
            }
        }));
        terminal::enable_raw_mode()?;
        let screen = Screen;
        execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves raw mode and the alternate screen, and shows the cursor.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), terminal::LeaveAlternateScreen, cursor::Show);
}

/// SIGTERM, SIGHUP, SIGINT and SIGQUIT, caught so that the terminal is
/// given back before ysess ends.
struct Signals {
    #[cfg(unix)]
    caught: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Signals {
    fn register() -> io::Result<Signals> {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
            let caught = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
            // Ctrl-C and Ctrl-\ are keys in raw mode; these come from
            // outside (`kill`, `timeout`, a closed terminal).
            for signal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] {
                signal_hook::flag::register_usize(
                    signal,
                    std::sync::Arc::clone(&caught),
                    signal as usize,
                )?;
            }
            Ok(Signals { caught })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    /// The signal caught, if any.
    fn taken(&self) -> Option<u8> {
        #[cfg(unix)]
        {
            let n = self.caught.load(std::sync::atomic::Ordering::Relaxed);
            (n != 0).then(|| u8::try_from(n).unwrap_or(u8::MAX))
        }
        #[cfg(not(unix))]
        None
    }
}
