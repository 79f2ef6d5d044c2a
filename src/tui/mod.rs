//! The browser behind `ysess tui`: the tree and its chat in one
//! interactive view, as tig and lazygit show a repository.
//!
//! [`App`] is the whole browser without a terminal: it takes keys
//! ([`App::key`]), looks at the file ([`App::tick`]) and draws itself on
//! any ratatui backend ([`App::draw`]); the tests drive it on ratatui's
//! test backend. [`run`] puts it on the terminal, and gives the terminal
//! back however it ends: quit, error, panic, SIGTERM or SIGHUP.

mod act;
mod app;
mod background;
mod chat;
mod command;
mod draw;
mod keys;
mod list;
mod scroll;
mod usage;
mod view;

use std::io::{self, Write};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use ratatui::crossterm::{cursor, execute, terminal};

pub use app::{Action, App, Ask, Note, Overlay, Start};
pub use command::browse;
pub use draw::KEYS;
pub use view::Pane;

/// Runs the browser on the terminal until it ends: the terminal in raw
/// mode on the alternate screen, given back however it ends (quit, error,
/// panic, SIGTERM or SIGHUP).
pub fn run(app: App) -> Result<Ended, Broke> {
    let signals = Signals::register().map_err(Broke::Start)?;
    let screen = Screen::enter().map_err(Broke::Start)?;
    let ended = event_loop(app, &signals);
    drop(screen);
    ended.map_err(Broke::Terminal)
}

/// Why the browser could not go on.
#[derive(Debug)]
pub enum Broke {
    /// The terminal could not be put in raw mode, or the signals caught.
    Start(io::Error),
    /// The terminal failed while the browser ran (a hang-up, a write).
    Terminal(io::Error),
}

/// How the browser ended.
pub enum Ended {
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
