//! The browser without a terminal: its state, opened and kept up with the
//! file. What each key does is in `keys`, the writes and reads a key
//! starts in `act`, the drawing in `draw`: [`App::key`] takes a key,
//! [`App::tick`] looks at the file, [`App::draw`] draws on any ratatui
//! backend.

use std::path::PathBuf;

use super::list::List;
use super::view::{Tick, View};
use crate::Format;
use crate::ui::graph::Style;
use crate::ui::output::escape;

/// Where the browser starts.
pub enum Start {
    /// A session, at an entry (HEAD when `None`).
    Session {
        /// The session file.
        path: PathBuf,
        /// `--format-of`.
        format_of: Option<Format>,
        /// The entry to select.
        rev: Option<String>,
    },
    /// The list of every session `ysess ls` finds (in `dirs`, or where it
    /// looks by default).
    List {
        /// Where to look.
        dirs: Vec<PathBuf>,
        /// The archive whose sessions the agents deleted are listed too.
        archive: Option<PathBuf>,
    },
}

/// A line of text over the panes, waiting for Enter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// `/`: grep's arguments.
    Search,
    /// `t`: a label's name for the selected entry.
    Tag,
    /// `b`: a branch's name starting at the selected entry.
    Branch,
}

/// What covers the panes for a while.
pub enum Overlay {
    /// `?`: the keys.
    Help,
    /// A prompt being typed.
    Prompt {
        /// What it asks.
        ask: Ask,
        /// What is typed so far.
        input: String,
    },
    /// A write to make once the user says yes.
    Confirm {
        /// What it writes.
        action: Action,
    },
    /// Text to read: a diff, or what a command said.
    Text {
        /// The title.
        title: String,
        /// The lines, escaped.
        lines: Vec<String>,
        /// The first line in sight.
        scroll: usize,
    },
}

/// A write the browser makes once the user says yes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `ysess tag NAME AT`.
    Tag {
        /// The label.
        name: String,
        /// The entry, by id.
        at: String,
    },
    /// `ysess branch NAME AT`.
    Branch {
        /// The branch's name.
        name: String,
        /// The entry it starts at, by id.
        at: String,
    },
    /// `ysess checkout AT`.
    Checkout {
        /// The entry, by id.
        at: String,
    },
}

impl Action {
    /// The command that makes the same write, after `ysess`: what the
    /// question and the title of what it said name.
    pub fn words(&self) -> Vec<&str> {
        match self {
            Action::Tag { name, at } => vec!["tag", name, at],
            Action::Branch { name, at } => vec!["branch", name, at],
            Action::Checkout { at } => vec!["checkout", at],
        }
    }
}

/// A message on the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The text, escaped.
    pub text: String,
    /// It reports a refusal or an error.
    pub error: bool,
}

/// The browser.
pub struct App {
    /// The session list (`--all`).
    pub list: Option<List>,
    /// The session open, if any.
    pub view: Option<View>,
    /// What covers the panes.
    pub overlay: Option<Overlay>,
    /// The status line's message.
    pub note: Option<Note>,
    /// The last search, as typed.
    pub search: Option<String>,
    /// Text to put on the terminal's clipboard (taken by the terminal).
    pub copy: Option<String>,
    /// The user asked to quit.
    pub quit: bool,
    /// Where the refs of sessions whose app owns the file are kept.
    pub refs: Option<crate::refs::store::Store>,
    /// The user asked to go on with the session in its agent at an entry
    /// (`R`): the file and the entry, for once the terminal is given back.
    pub resume: Option<(std::path::PathBuf, String)>,
    /// The graph's style.
    pub(super) style: Style,
    /// The zone times are shown in.
    pub(super) tz: jiff::tz::TimeZone,
    /// The last frame's size: the panes' height, for page keys.
    pub(super) page: usize,
    /// The chat pane's text width in the last frame.
    pub(super) chat_width: u16,
    /// The terminal's width in the last frame.
    pub(super) width: u16,
    /// How the session file was named (`-f`, `$YSESS_FILE`, by default):
    /// the commands' hints repeat it as the user would type it.
    pub file_from: crate::cli::FileFrom,
}

/// An error that keeps the browser from opening, as the command line
/// shows it.
pub type OpenError = crate::cli::Failure;

impl App {
    /// Opens the browser at `start`; `repo` is the session already read
    /// (the command line reads it, to refuse as every command refuses).
    pub fn new(
        start: Start,
        repo: Option<crate::repo::Repo>,
        style: Style,
        tz: jiff::tz::TimeZone,
        refs: Option<crate::refs::store::Store>,
    ) -> Result<App, OpenError> {
        let mut app = App {
            refs,
            list: None,
            view: None,
            overlay: None,
            note: None,
            search: None,
            copy: None,
            quit: false,
            resume: None,
            style,
            tz,
            page: 20,
            chat_width: 60,
            width: 120,
            file_from: crate::cli::FileFrom::CommandLine,
        };
        match start {
            Start::Session {
                path,
                format_of,
                rev,
            } => {
                let repo = match repo {
                    Some(repo) => repo,
                    None => super::view::load(path.clone(), format_of, app.refs.as_ref()).map_err(
                        |e| {
                            crate::cli::Failure::refuse(format!(
                                "{}: {}",
                                path.display(),
                                crate::cli::hint::load_error(&e)
                            ))
                        },
                    )?,
                };
                let at = match rev.as_deref() {
                    Some(rev) => Some(repo.resolve(rev)?),
                    None => None,
                };
                app.view = Some(View::new(
                    path,
                    format_of,
                    repo,
                    at,
                    style,
                    app.tz.clone(),
                    app.refs.clone(),
                ));
            }
            Start::List { dirs, archive } => {
                app.list = Some(List::start(dirs, archive, app.tz.clone()))
            }
        }
        Ok(app)
    }

    /// Looks at the file (growth, facts read) and the session list.
    pub fn tick(&mut self) {
        if let Some(list) = &mut self.list {
            list.tick();
        }
        if let Some(view) = &mut self.view {
            let tick = view.tick();
            self.noted(tick);
        }
    }

    /// Waits for what the browser reads in the background (usage, the
    /// session list, a new read of the file) and puts it in place: a
    /// screen drawn after this is the same on every run.
    pub fn settle(&mut self) {
        if let Some(list) = &mut self.list {
            list.wait();
        }
        if let Some(view) = &mut self.view {
            let tick = view.settle();
            self.noted(tick);
        }
    }

    /// What a look at the file found, on the status line.
    fn noted(&mut self, tick: Tick) {
        match tick {
            Tick::Quiet => {}
            Tick::Grew { entries } => {
                if let Some(view) = &mut self.view {
                    view.scroll_to_selection(self.page);
                }
                self.note = Some(Note {
                    text: format!("the file grew: {entries} entries"),
                    error: false,
                });
            }
            Tick::Failed(why) => {
                self.note = Some(Note {
                    text: format!("cannot read the file again: {}", escape(&why)),
                    error: true,
                });
            }
        }
    }
}
