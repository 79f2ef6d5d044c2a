//! The browser without a terminal: its state, what each key does, and the
//! commands it runs. [`App::key`] takes a key, [`App::tick`] looks at the
//! file, [`App::draw`] draws on any ratatui backend.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::list::List;
use super::view::{Pane, Tick, View};
use crate::Format;
use crate::cli::grep::Matcher;
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
    /// A command to run once the user says yes.
    Confirm {
        /// The command's arguments after `ysess -f FILE`.
        args: Vec<String>,
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
    pub(super) file_from: crate::cli::FileFrom,
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
            Start::List { dirs } => app.list = Some(List::start(dirs, app.tz.clone())),
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

    /// Takes one key.
    pub fn key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        if self.overlay.is_some() {
            self.overlay_key(key);
            return;
        }
        self.note = None;
        if self.view.is_none() {
            self.list_key(key);
            return;
        }
        self.view_key(key);
    }

    fn list_key(&mut self, key: KeyEvent) {
        let page = self.page;
        let Some(list) = &mut self.list else {
            self.quit = true;
            return;
        };
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Char('j') | KeyCode::Down => list.move_by(1, page),
            KeyCode::Char('k') | KeyCode::Up => list.move_by(-1, page),
            KeyCode::PageDown => list.move_by(page as isize, page),
            KeyCode::PageUp => list.move_by(-(page as isize), page),
            KeyCode::Char('g') | KeyCode::Home => list.move_by(isize::MIN / 2, page),
            KeyCode::Char('G') | KeyCode::End => list.move_by(isize::MAX / 2, page),
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Enter | KeyCode::Char(' ') => {
                let Some((path, format)) = list.chosen() else {
                    return;
                };
                let start = Start::Session {
                    path,
                    format_of: Some(format),
                    rev: None,
                };
                match App::new(start, None, self.style, self.tz.clone(), self.refs.clone()) {
                    Ok(app) => self.view = app.view,
                    Err(failure) => self.note = Some(failure_note(&failure)),
                }
            }
            _ => {}
        }
    }

    fn view_key(&mut self, key: KeyEvent) {
        let page = self.page;
        let width = self.chat_width;
        let Some(view) = &mut self.view else { return };
        let code = key.code;
        match code {
            KeyCode::Char('q') | KeyCode::Esc => {
                if self.list.is_some() {
                    self.view = None;
                } else {
                    self.quit = true;
                }
                return;
            }
            KeyCode::Char('?') => {
                self.overlay = Some(Overlay::Help);
                return;
            }
            KeyCode::Tab | KeyCode::BackTab => {
                view.focus = match view.focus {
                    Pane::Tree => Pane::Chat,
                    Pane::Chat => Pane::Tree,
                };
                return;
            }
            KeyCode::Char('/') => {
                self.overlay = Some(Overlay::Prompt {
                    ask: Ask::Search,
                    input: self.search.clone().unwrap_or_default(),
                });
                return;
            }
            KeyCode::Char('n') | KeyCode::Char('N') => {
                match self.search.clone() {
                    Some(typed) => self.find(&typed, code == KeyCode::Char('n')),
                    None => {
                        self.note = Some(Note {
                            text: "no search yet: / searches".to_string(),
                            error: true,
                        })
                    }
                }
                return;
            }
            KeyCode::Char('[') | KeyCode::Char(']') => {
                match view.fork(code == KeyCode::Char(']')) {
                    Some(k) => view.select(k, page),
                    None => {
                        self.note = Some(Note {
                            text: "no fork point further that way".to_string(),
                            error: false,
                        })
                    }
                }
                return;
            }
            KeyCode::Char('m') => {
                if let Some(ix) = view.selected() {
                    let tree = &view.repo.tree;
                    view.mark = Some(tree.id(ix).to_string());
                    self.note = Some(Note {
                        text: format!(
                            "marked {}: d diffs it with the selection",
                            crate::ui::output::escape(tree.short_id(ix))
                        ),
                        error: false,
                    });
                }
                return;
            }
            KeyCode::Char('d') => {
                self.diff();
                return;
            }
            KeyCode::Char('y') => {
                if let Some(ix) = view.selected() {
                    // An id is session text: what is pasted is never a
                    // line break or an escape sequence, but its escape.
                    let id = crate::ui::output::escape(view.repo.tree.id(ix)).into_owned();
                    self.note = Some(Note {
                        text: format!("copied {id}"),
                        error: false,
                    });
                    self.copy = Some(id);
                }
                return;
            }
            KeyCode::Char('t') | KeyCode::Char('b') => {
                if view.selected().is_some() {
                    self.overlay = Some(Overlay::Prompt {
                        ask: if code == KeyCode::Char('t') {
                            Ask::Tag
                        } else {
                            Ask::Branch
                        },
                        input: String::new(),
                    });
                }
                return;
            }
            KeyCode::Char('R') => {
                if let Some(ix) = view.selected() {
                    self.resume = Some((view.path.clone(), view.repo.tree.id(ix).to_string()));
                    self.quit = true;
                }
                return;
            }
            KeyCode::Char('c') => {
                if let Some(ix) = view.selected() {
                    self.overlay = Some(Overlay::Confirm {
                        args: vec!["checkout".to_string(), view.repo.tree.id(ix).to_string()],
                    });
                }
                return;
            }
            _ => {}
        }
        match view.focus {
            Pane::Tree => {
                let last = view.order.len().saturating_sub(1);
                let target = match code {
                    KeyCode::Char('j') | KeyCode::Down => Some(view.sel + 1),
                    KeyCode::Char('k') | KeyCode::Up => Some(view.sel.saturating_sub(1)),
                    KeyCode::PageDown => Some(view.sel + page.max(1)),
                    KeyCode::PageUp => Some(view.sel.saturating_sub(page.max(1))),
                    KeyCode::Char('g') | KeyCode::Home => Some(0),
                    KeyCode::Char('G') | KeyCode::End => Some(last),
                    KeyCode::Enter | KeyCode::Char(' ') => {
                        if let Some(ix) = view.selected() {
                            view.toggle(ix);
                            // The selected entry ends the chat: its end
                            // stays in sight.
                            view.cursor = view.path_ixs.len().saturating_sub(1);
                            view.chat_top = (usize::MAX, 0);
                        }
                        None
                    }
                    _ => None,
                };
                if let Some(k) = target {
                    view.select(k.min(last), page);
                }
            }
            Pane::Chat => {
                let last = view.path_ixs.len().saturating_sub(1);
                match code {
                    KeyCode::Char('j') | KeyCode::Down => {
                        view.cursor = (view.cursor + 1).min(last);
                        super::draw::cursor_in_sight(view, page, width);
                    }
                    KeyCode::Char('k') | KeyCode::Up => {
                        view.cursor = view.cursor.saturating_sub(1);
                        super::draw::cursor_in_sight(view, page, width);
                    }
                    KeyCode::PageDown => super::draw::scroll_chat(view, page as isize, page, width),
                    KeyCode::PageUp => {
                        super::draw::scroll_chat(view, -(page as isize), page, width)
                    }
                    KeyCode::Char('g') | KeyCode::Home => {
                        view.cursor = 0;
                        view.chat_top = (0, 0);
                    }
                    KeyCode::Char('G') | KeyCode::End => {
                        view.cursor = last;
                        view.chat_top = (usize::MAX, 0);
                    }
                    KeyCode::Enter | KeyCode::Char(' ') => {
                        if let Some(&ix) = view.path_ixs.get(view.cursor) {
                            view.toggle(ix);
                            super::draw::cursor_in_sight(view, page, width);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn overlay_key(&mut self, key: KeyEvent) {
        let Some(overlay) = self.overlay.take() else {
            return;
        };
        match overlay {
            Overlay::Help => {
                // Any key closes the help.
            }
            Overlay::Text {
                title,
                lines,
                mut scroll,
            } => {
                // Rows, as wrapped on the screen; the drawing keeps the
                // last screenful from scrolling out of sight.
                let page = self.page.max(1);
                match key.code {
                    KeyCode::Char('q') | KeyCode::Esc | KeyCode::Enter => return,
                    KeyCode::Char('j') | KeyCode::Down => scroll = scroll.saturating_add(1),
                    KeyCode::Char('k') | KeyCode::Up => scroll = scroll.saturating_sub(1),
                    KeyCode::PageDown | KeyCode::Char(' ') => scroll = scroll.saturating_add(page),
                    KeyCode::PageUp => scroll = scroll.saturating_sub(page),
                    KeyCode::Char('g') | KeyCode::Home => scroll = 0,
                    KeyCode::Char('G') | KeyCode::End => scroll = usize::MAX,
                    _ => {}
                }
                self.overlay = Some(Overlay::Text {
                    title,
                    lines,
                    scroll,
                });
            }
            Overlay::Prompt { ask, mut input } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => self.answer(ask, input),
                KeyCode::Backspace => {
                    input.pop();
                    self.overlay = Some(Overlay::Prompt { ask, input });
                }
                KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                    input.push(c);
                    self.overlay = Some(Overlay::Prompt { ask, input });
                }
                _ => self.overlay = Some(Overlay::Prompt { ask, input }),
            },
            Overlay::Confirm { args } => match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => self.write(&args),
                _ => {
                    self.note = Some(Note {
                        text: "nothing written".to_string(),
                        error: false,
                    })
                }
            },
        }
    }

    /// A prompt answered.
    fn answer(&mut self, ask: Ask, input: String) {
        let Some(view) = &self.view else { return };
        let Some(ix) = view.selected() else { return };
        let id = view.repo.tree.id(ix).to_string();
        match ask {
            Ask::Search => {
                if input.trim().is_empty() {
                    return;
                }
                self.search = Some(input.clone());
                self.find(&input, true);
            }
            Ask::Tag | Ask::Branch if input.trim().is_empty() => {
                self.note = Some(Note {
                    text: "no name given: nothing written".to_string(),
                    error: false,
                });
            }
            Ask::Tag => {
                self.overlay = Some(Overlay::Confirm {
                    args: vec!["tag".to_string(), input, id],
                })
            }
            Ask::Branch => {
                self.overlay = Some(Overlay::Confirm {
                    args: vec!["branch".to_string(), input, id],
                })
            }
        }
    }

    /// Runs `ysess -f FILE ARGS` as the command line runs it, its output
    /// captured: whether it succeeded, what it wrote on stdout, and what it
    /// said on stderr (its status line, or its refusal and hints).
    pub fn command(&self, args: &[String]) -> (bool, String, String) {
        let Some(view) = &self.view else {
            return (false, String::new(), String::new());
        };
        let mut argv: Vec<std::ffi::OsString> = vec![
            "ysess".into(),
            "--no-pager".into(),
            "--color".into(),
            "never".into(),
            "-f".into(),
            view.path.clone().into_os_string(),
        ];
        if let Some(format) = view.format_of {
            argv.push("--format-of".into());
            argv.push(format.name().into());
        }
        // The command's name, then `--`: what the user typed (a name, an
        // id) is never read as an option.
        let mut args = args.iter();
        argv.extend(args.next().map(Into::into));
        argv.push("--".into());
        argv.extend(args.map(Into::into));
        let mut cli = match crate::cli::parse(argv) {
            Ok(cli) => cli,
            Err(e) => return (false, String::new(), e.to_string()),
        };
        cli.global.file_from = self.file_from;
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let streams = crate::ui::output::Streams {
            out: &mut out,
            err: &mut err,
            color_err: false,
            color_out: false,
            pager: None,
            // As wide as the box that shows what it prints.
            width: Some(usize::from(self.width.saturating_sub(4).max(40))),
        };
        let ok = match crate::cli::run_with_refs(&cli, streams, self.refs.clone()) {
            Ok(_) => true,
            Err(failure) => {
                err.extend_from_slice(reported(&failure).as_bytes());
                false
            }
        };
        (
            ok,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    /// Runs a write the user said yes to, shows what it said, and reads the
    /// file again.
    fn write(&mut self, args: &[String]) {
        let (ok, _, said) = self.command(args);
        let said = said.trim_end().to_string();
        if let Some(view) = &mut self.view {
            if let Err(why) = view.reload_now() {
                // What the command said stays in sight.
                self.overlay = Some(Overlay::Text {
                    title: format!("ysess {}", args.join(" ")),
                    lines: said.lines().map(str::to_string).collect(),
                    scroll: 0,
                });
                self.note = Some(Note {
                    text: format!("cannot read the file again: {}", escape(&why)),
                    error: true,
                });
                return;
            }
            view.scroll_to_selection(self.page);
        }
        if said.lines().count() > 1 {
            self.overlay = Some(Overlay::Text {
                title: format!("ysess {}", args.join(" ")),
                lines: said.lines().map(str::to_string).collect(),
                scroll: 0,
            });
        }
        self.note = Some(Note {
            text: said.lines().next().unwrap_or("").to_string(),
            error: !ok,
        });
    }

    /// `d`: `ysess diff MARK SELECTION`, shown over the panes.
    fn diff(&mut self) {
        let Some(view) = &self.view else { return };
        let (Some(mark), Some(ix)) = (view.mark.clone(), view.selected()) else {
            self.note = Some(Note {
                text: "nothing marked: m marks an entry, d diffs it with the selection".to_string(),
                error: true,
            });
            return;
        };
        let id = view.repo.tree.id(ix).to_string();
        let args = vec!["diff".to_string(), mark, id];
        let (_, out, err) = self.command(&args);
        let text = if out.is_empty() { err } else { out };
        self.overlay = Some(Overlay::Text {
            title: format!("ysess {}", args.join(" ")),
            lines: text.lines().map(str::to_string).collect(),
            scroll: 0,
        });
    }

    /// `/`, `n`, `N`: the next entry (in the listing, from the selection,
    /// wrapping) that grep's engine matches with the arguments typed.
    fn find(&mut self, typed: &str, forward: bool) {
        let Some(view) = &mut self.view else { return };
        let matcher = match Matcher::parse(typed) {
            Ok(m) => m,
            Err(why) => {
                self.note = Some(Note {
                    text: escape(&why).into_owned(),
                    error: true,
                });
                return;
            }
        };
        let n = view.order.len();
        if n == 0 {
            return;
        }
        let mut found = None;
        for step in 1..=n {
            let k = if forward {
                (view.sel + step) % n
            } else {
                (view.sel + n - step % n) % n
            };
            match matcher.matches(&view.repo, view.order[k]) {
                Ok(true) => {
                    found = Some(k);
                    break;
                }
                Ok(false) => {}
                Err(e) => {
                    self.note = Some(Note {
                        text: format!("cannot read the file: {e}"),
                        error: true,
                    });
                    return;
                }
            }
        }
        match found {
            Some(k) => {
                let wrapped = if forward {
                    k <= view.sel
                } else {
                    k >= view.sel
                };
                view.select(k, self.page);
                self.note = Some(Note {
                    text: format!(
                        "/{}{}",
                        crate::ui::output::escape(typed),
                        if wrapped { " (wrapped)" } else { "" }
                    ),
                    error: false,
                });
            }
            None => {
                self.note = Some(Note {
                    text: format!("/{}: no match", crate::ui::output::escape(typed)),
                    error: true,
                })
            }
        }
    }
}

/// A failure as the command line reports it: `error: …`, then its
/// hints, a line each, without colour.
fn reported(failure: &crate::cli::Failure) -> String {
    let mut err = Vec::new();
    let mut streams = crate::ui::output::Streams {
        out: &mut std::io::sink(),
        err: &mut err,
        color_err: false,
        color_out: false,
        pager: None,
        width: None,
    };
    crate::cli::report(&mut streams, failure, false);
    String::from_utf8_lossy(&err).into_owned()
}

/// A failure as the status line shows it: its report on one line.
fn failure_note(failure: &crate::cli::Failure) -> Note {
    let text = reported(failure).lines().collect::<Vec<_>>().join(" ");
    Note { text, error: true }
}
