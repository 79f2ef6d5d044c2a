//! `ysess tui --all`: every session `ysess ls` finds, as `ls` lists them
//! (newest activity first, the same columns), read in the background;
//! Enter opens one.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

use crate::Format;
use crate::fleet::sessions::{self, Session};
use crate::ui::render::Paint;

/// The session list.
pub struct List {
    /// The sessions, once read.
    pub sessions: Vec<Session>,
    /// Files that could not be read, with why.
    pub unreadable: Vec<String>,
    /// Still reading.
    pub loading: bool,
    rx: Option<Receiver<(Vec<Session>, Vec<String>)>>,
    /// The selected session.
    pub sel: usize,
    /// The first session in sight.
    pub top: usize,
    /// The listing's lines, and the width they were made for.
    shown: Option<(usize, Vec<String>)>,
    tz: jiff::tz::TimeZone,
}

impl List {
    /// Starts reading the sessions in `dirs` (where `ls` looks, when
    /// empty), and those the `archive` keeps that the agents deleted.
    pub fn start(dirs: Vec<PathBuf>, archive: Option<PathBuf>, tz: jiff::tz::TimeZone) -> List {
        let rx = super::background::read(move || read(&dirs, archive.as_deref()));
        List {
            sessions: Vec::new(),
            unreadable: Vec::new(),
            loading: true,
            rx: Some(rx),
            sel: 0,
            top: 0,
            shown: None,
            tz,
        }
    }

    /// Takes the sessions once read.
    pub fn tick(&mut self) {
        let Some(rx) = &self.rx else { return };
        match rx.try_recv() {
            Ok((sessions, unreadable)) => {
                self.sessions = sessions;
                self.unreadable = unreadable;
                self.shown = None;
                self.loading = false;
                self.rx = None;
            }
            Err(TryRecvError::Disconnected) => {
                self.loading = false;
                self.rx = None;
            }
            Err(TryRecvError::Empty) => {}
        }
    }

    /// Waits until the sessions are read (tests, and a first frame that
    /// has nothing else to show).
    pub fn wait(&mut self) {
        if let Some(rx) = self.rx.take()
            && let Ok((sessions, unreadable)) = rx.recv()
        {
            self.sessions = sessions;
            self.unreadable = unreadable;
            self.shown = None;
        }
        self.loading = false;
    }

    /// Moves the selection by `by`, keeping it in a pane `height` high.
    pub fn move_by(&mut self, by: isize, height: usize) {
        if self.sessions.is_empty() {
            return;
        }
        let last = self.sessions.len() - 1;
        self.sel = self.sel.saturating_add_signed(by).min(last);
        let height = height.max(1);
        if self.sel < self.top {
            self.top = self.sel;
        } else if self.sel >= self.top + height {
            self.top = self.sel + 1 - height;
        }
    }

    /// The selected session's file and format.
    pub fn chosen(&self) -> Option<(PathBuf, Format)> {
        self.sessions
            .get(self.sel)
            .map(|s| (s.path.clone(), s.format))
    }

    /// The lines `ls` prints: a header, then a line per session (made once
    /// per width, not on every frame).
    pub fn lines(&mut self, width: usize) -> &[String] {
        if self.shown.as_ref().is_none_or(|(w, _)| *w != width) {
            let lines =
                crate::cli::ls::table(&self.sessions, &self.tz, Paint { on: false }, Some(width));
            self.shown = Some((width, lines));
        }
        self.shown.as_ref().map_or(&[], |(_, lines)| lines)
    }
}

/// Every session in `dirs`, and those the `archive` keeps that the agents
/// deleted (marked archived), read on every core, newest first; and the
/// files that could not be read.
fn read(dirs: &[PathBuf], archive: Option<&Path>) -> (Vec<Session>, Vec<String>) {
    let mut found = sessions::find(&sessions::roots(dirs));
    let archived = archive.map(|dir| crate::cli::archive::add_archived(&mut found, dir));
    let mut listed = Vec::new();
    let mut unreadable = Vec::new();
    crate::cli::ls::read_found(found.into_iter(), |(path, _, read)| {
        match read {
            Ok(session) => listed.push(session),
            Err(why) => unreadable.push(
                crate::ui::output::escape(&format!("{}: {why}", path.display())).into_owned(),
            ),
        }
        true
    });
    crate::cli::ls::one_row_per_session(&mut listed);
    if let Some(archived) = &archived {
        let kept = crate::cli::ls::only_the_deleted(&mut listed, archived);
        listed = crate::cli::ls::marked(&listed, &kept);
    }
    crate::cli::ls::newest_first(&mut listed);
    (listed, unreadable)
}
