//! One session in the browser: the tree's rows (as `log --graph` draws
//! them, drawn only as they come into sight), the selection, the chat of
//! the selected entry's path, and the file watched as it grows.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::SystemTime;

use ratatui::text::Line;

use super::chat;
use crate::repo::{LoadError, Repo};
use crate::stats::Facts;
use crate::tree::graph::{Graph, Paused, Row as GraphRow, Style, display_order};
use crate::{Format, Ix};

/// Which pane keys move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The tree, on the left.
    Tree,
    /// The chat of the selected entry's path, on the right.
    Chat,
}

/// How big the file was when last read, to see it grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    len: u64,
    modified: Option<SystemTime>,
}

fn seen(path: &std::path::Path) -> Option<Seen> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Seen {
        len: meta.len(),
        modified: meta.modified().ok(),
    })
}

/// A session open in the browser.
pub struct View {
    /// The session file.
    pub path: PathBuf,
    /// `--format-of`, when given.
    pub format_of: Option<Format>,
    /// The session, as last read.
    pub repo: Arc<Repo>,
    /// Entries top to bottom, as `log --graph` lists them.
    pub order: Vec<Ix>,
    /// Each entry's place in `order` (`u32::MAX`: not listed).
    place: Vec<u32>,
    /// The graph rows of `order[..drawn.len()]`.
    drawn: Vec<GraphRow>,
    /// Where the graph stopped drawing.
    paused: Option<Paused>,
    style: Style,
    /// The selected entry's place in `order`.
    pub sel: usize,
    /// The first entry in sight in the tree pane.
    pub top: usize,
    /// The pane keys move.
    pub focus: Pane,
    /// The marked entry (`m`), by id.
    pub mark: Option<String>,
    /// Entries whose folds are open, by id.
    open: hashbrown::HashSet<String>,
    /// The selected entry's path, root first.
    pub path_ixs: Vec<Ix>,
    /// The chat's cursor: a place in `path_ixs`.
    pub cursor: usize,
    /// The chat's first line in sight: a place in `path_ixs` and a line of
    /// that entry.
    pub chat_top: (usize, usize),
    /// Every entry's facts (usage, cost), read once in the background.
    pub facts: Option<Arc<Vec<Option<Facts>>>>,
    facts_rx: Option<Receiver<std::io::Result<Vec<Option<Facts>>>>>,
    /// The path's account, for the entry it was made for.
    path_account: Option<(Ix, crate::stats::Account)>,
    seen: Option<Seen>,
    reload_rx: Option<Receiver<Result<Repo, LoadError>>>,
    /// Chat lines made, by entry, open or not, and width.
    cache: HashMap<(Ix, bool, u16), Rc<Vec<Line<'static>>>>,
    /// The zone times are shown in.
    tz: jiff::tz::TimeZone,
    /// What names each entry: HEAD, branches, labels.
    pub names: crate::refs::Names,
    /// The branch HEAD is on.
    pub branch: Option<String>,
    /// Tips of the tree.
    pub tips: usize,
}

/// What happened when the view looked at its file.
pub enum Tick {
    /// Nothing new.
    Quiet,
    /// The file grew: the new entries are in.
    Grew {
        /// Entries now listed.
        entries: usize,
    },
    /// The file could not be read again; the view keeps what it had.
    Failed(String),
}

impl View {
    /// Opens a loaded session at `start` (HEAD when `None`).
    pub fn new(
        path: PathBuf,
        format_of: Option<Format>,
        repo: Repo,
        start: Option<Ix>,
        style: Style,
        tz: jiff::tz::TimeZone,
    ) -> View {
        let seen = seen(&path);
        let mut view = View {
            path,
            format_of,
            repo: Arc::new(repo),
            order: Vec::new(),
            place: Vec::new(),
            drawn: Vec::new(),
            paused: None,
            style,
            sel: 0,
            top: 0,
            focus: Pane::Tree,
            mark: None,
            open: hashbrown::HashSet::new(),
            path_ixs: Vec::new(),
            cursor: 0,
            chat_top: (0, 0),
            facts: None,
            facts_rx: None,
            path_account: None,
            seen,
            reload_rx: None,
            cache: HashMap::new(),
            tz,
            names: crate::refs::Names::new(&crate::tree::Tree::default(), None, &[]),
            branch: None,
            tips: 0,
        };
        view.index();
        let start = start.or(view.repo.tree.head());
        view.select_ix(start);
        view
    }

    /// Lists the entries and starts reading their facts.
    fn index(&mut self) {
        let tree = &self.repo.tree;
        let mut order = display_order(tree, false);
        order.retain(|&ix| !tree.is_record(ix));
        let mut place = vec![u32::MAX; tree.len()];
        for (k, &ix) in order.iter().enumerate() {
            place[ix as usize] = k as u32;
        }
        self.order = order;
        self.place = place;
        let repo = &self.repo;
        self.names = crate::refs::Names::new(tree, tree.head(), &repo.refs.pairs());
        self.branch = repo.refs.current(tree).map(|b| b.name.clone());
        self.tips = tree.tips().count();
        self.drawn.clear();
        self.paused = Some(Paused::start(self.style));
        self.cache.clear();
        self.path_account = None;
        self.facts = None;
        let repo = Arc::clone(&self.repo);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(crate::stats::read(&repo));
        });
        self.facts_rx = Some(rx);
    }

    /// The selected entry.
    pub fn selected(&self) -> Option<Ix> {
        self.order.get(self.sel).copied()
    }

    /// Draws the graph down to the `k`th listed entry.
    pub fn draw_to(&mut self, k: usize) {
        let k = k.min(self.order.len().saturating_sub(1));
        if self.drawn.len() > k || self.order.is_empty() {
            return;
        }
        let Some(paused) = self.paused.take() else {
            return;
        };
        let mut graph = Graph::resume(&self.repo.tree, paused);
        while self.drawn.len() <= k {
            let ix = self.order[self.drawn.len()];
            self.drawn.push(graph.draw(ix));
        }
        self.paused = Some(graph.pause());
    }

    /// The graph row of the `k`th listed entry (drawn by [`View::draw_to`]).
    pub fn graph_row(&self, k: usize) -> Option<&GraphRow> {
        self.drawn.get(k)
    }

    /// Screen lines the `k`th entry takes in the tree pane.
    pub fn tree_height(&mut self, k: usize) -> usize {
        self.draw_to(k);
        self.drawn.get(k).map_or(1, |r| {
            1 + usize::from(r.gap.is_some()) + usize::from(r.connector.is_some())
        })
    }

    /// Moves the selection to place `k` (clamped), keeping it in sight in a
    /// pane `height` lines high.
    pub fn select(&mut self, k: usize, height: usize) {
        if self.order.is_empty() {
            return;
        }
        let k = k.min(self.order.len() - 1);
        let changed = k != self.sel || self.path_ixs.is_empty();
        self.sel = k;
        self.scroll_to_selection(height);
        if changed {
            self.reset_chat();
        }
    }

    /// Selects entry `ix` (nothing when it is not listed).
    pub fn select_ix(&mut self, ix: Option<Ix>) {
        let k = ix
            .and_then(|ix| self.place.get(ix as usize).copied())
            .filter(|&k| k != u32::MAX)
            .map_or(0, |k| k as usize);
        self.sel = k;
        self.top = self.top.min(k);
        self.reset_chat();
    }

    /// Scrolls the tree pane so the selection is in sight.
    pub fn scroll_to_selection(&mut self, height: usize) {
        let height = height.max(1);
        if self.sel < self.top {
            self.top = self.sel;
        }
        // Lines from the top entry down to the selection's end.
        loop {
            let mut used = 0;
            for k in self.top..=self.sel {
                used += self.tree_height(k);
            }
            if used <= height || self.top >= self.sel {
                break;
            }
            self.top += 1;
        }
    }

    /// The chat goes back to the selected entry's path, its end in sight.
    fn reset_chat(&mut self) {
        self.path_ixs = match self.selected() {
            Some(ix) => self.repo.tree.path(ix),
            None => Vec::new(),
        };
        self.path_ixs.retain(|&ix| !self.repo.tree.is_record(ix));
        self.cursor = self.path_ixs.len().saturating_sub(1);
        // Placed by the first draw, which knows the pane's size.
        self.chat_top = (usize::MAX, 0);
    }

    /// Whether entry `ix`'s folds are open.
    pub fn is_open(&self, ix: Ix) -> bool {
        self.open.contains(self.repo.tree.id(ix))
    }

    /// Opens or closes the folds of entry `ix`.
    pub fn toggle(&mut self, ix: Ix) {
        let id = self.repo.tree.id(ix).to_string();
        if !self.open.remove(&id) {
            self.open.insert(id);
        }
    }

    /// The chat lines of entry `ix`, `width` columns wide (made once).
    pub fn chat_lines(&mut self, ix: Ix, width: u16) -> Rc<Vec<Line<'static>>> {
        let open = self.is_open(ix);
        let key = (ix, open, width);
        if let Some(lines) = self.cache.get(&key) {
            return Rc::clone(lines);
        }
        let repo = &self.repo;
        let node = repo.tree.node(ix);
        let spent = match &self.facts {
            Some(facts) => facts
                .get(ix as usize)
                .and_then(Option::as_ref)
                .filter(|f| f.has_usage())
                .and_then(|f| {
                    crate::stats::counts_alone(repo, ix, f)
                        .ok()
                        .filter(|&alone| alone)
                        .map(|_| crate::stats::Spent {
                            input: f.usage.input,
                            output: f.usage.output,
                            cost: f.cost,
                        })
                }),
            None => None,
        };
        let time = if node.timestamp == 0 {
            String::new()
        } else {
            crate::ui::render::time(node.timestamp, &self.tz, true)
        };
        let heading = chat::Heading {
            short: repo.tree.short_id(ix),
            time,
            spent,
        };
        let lines = match repo.entry(ix) {
            Ok(entry) => chat::lines(&entry, &heading, open, width),
            Err(e) => vec![Line::raw(format!(
                "  cannot read line {}: {}",
                node.line,
                crate::ui::output::escape(&e.to_string())
            ))],
        };
        let lines = Rc::new(lines);
        // Bounded: the entries in sight and those near them.
        if self.cache.len() > 4096 {
            self.cache.clear();
        }
        self.cache.insert(key, Rc::clone(&lines));
        lines
    }

    /// What the selected entry's path used, once the facts are read.
    pub fn path_account(&mut self) -> Option<&crate::stats::Account> {
        let sel = self.selected()?;
        let facts = self.facts.as_ref()?;
        if self.path_account.as_ref().is_none_or(|(ix, _)| *ix != sel) {
            let account = crate::stats::Account::of(facts, self.path_ixs.iter().copied());
            self.path_account = Some((sel, account));
        }
        self.path_account.as_ref().map(|(_, a)| a)
    }

    /// Looks for facts read and for growth of the file; reads the file
    /// again, in the background, when it grew.
    pub fn tick(&mut self) -> Tick {
        if let Some(rx) = &self.facts_rx {
            match rx.try_recv() {
                Ok(Ok(facts)) => {
                    self.facts = Some(Arc::new(facts));
                    self.facts_rx = None;
                    self.cache.clear();
                }
                Ok(Err(_)) | Err(TryRecvError::Disconnected) => self.facts_rx = None,
                Err(TryRecvError::Empty) => {}
            }
        }
        if let Some(rx) = &self.reload_rx {
            return match rx.try_recv() {
                Ok(Ok(repo)) => {
                    self.reload_rx = None;
                    self.swap(repo)
                }
                Ok(Err(e)) => {
                    self.reload_rx = None;
                    Tick::Failed(crate::cli::hint::load_error(&e))
                }
                Err(TryRecvError::Disconnected) => {
                    self.reload_rx = None;
                    Tick::Quiet
                }
                Err(TryRecvError::Empty) => Tick::Quiet,
            };
        }
        let now = seen(&self.path);
        if now.is_some() && now != self.seen {
            self.seen = now;
            let (path, format) = (self.path.clone(), self.format_of.or(Some(self.repo.format)));
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(Repo::load_torn(&crate::Source::Path(path), format));
            });
            self.reload_rx = Some(rx);
        }
        Tick::Quiet
    }

    /// Waits for what is read in the background (the facts, a new read of
    /// the file) and puts it in place.
    pub fn settle(&mut self) -> Tick {
        let mut tick = Tick::Quiet;
        if let Some(rx) = self.reload_rx.take() {
            match rx.recv() {
                Ok(Ok(repo)) => tick = self.swap(repo),
                Ok(Err(e)) => tick = Tick::Failed(crate::cli::hint::load_error(&e)),
                Err(_) => {}
            }
        }
        if let Some(rx) = self.facts_rx.take()
            && let Ok(Ok(facts)) = rx.recv()
        {
            self.facts = Some(Arc::new(facts));
            self.cache.clear();
        }
        tick
    }

    /// Reads the file again now (after a write of ours).
    pub fn reload_now(&mut self) -> Result<(), String> {
        let format = self.format_of.or(Some(self.repo.format));
        let repo = Repo::load_torn(&crate::Source::Path(self.path.clone()), format)
            .map_err(|e| crate::cli::hint::load_error(&e))?;
        self.seen = seen(&self.path);
        self.reload_rx = None;
        let _ = self.swap(repo);
        Ok(())
    }

    /// Puts a new read of the file in place: the selection stays on its
    /// entry (following HEAD when it was on HEAD), as do the mark and the
    /// open folds, which are kept by id. [`Tick::Grew`] when there are
    /// new entries (a line still being written is not one).
    fn swap(&mut self, repo: Repo) -> Tick {
        let before = self.repo.tree.len();
        let old = &self.repo.tree;
        let was = self.selected().map(|ix| old.id(ix).to_string());
        let on_head = self.selected().is_some() && self.selected() == old.head();
        let top_id = self.order.get(self.top).map(|&ix| old.id(ix).to_string());
        let chat = (self.cursor, self.chat_top, self.path_ixs.len());
        self.repo = Arc::new(repo);
        self.index();
        let tree = &self.repo.tree;
        let target = if on_head {
            tree.head()
        } else {
            was.as_deref().and_then(|id| tree.find(id))
        };
        let same = !on_head || was.as_deref() == target.map(|ix| tree.id(ix));
        let target = target.or(tree.head());
        let top = top_id.as_deref().and_then(|id| tree.find(id));
        self.select_ix(target);
        if let Some(k) = top.and_then(|ix| self.place_of(ix)) {
            self.top = k.min(self.sel);
        }
        // The same entry selected: the chat stays where it was.
        if same && chat.2 == self.path_ixs.len() {
            self.cursor = chat.0;
            self.chat_top = chat.1;
        }
        if self.repo.tree.len() == before {
            Tick::Quiet
        } else {
            Tick::Grew {
                entries: self.order.len(),
            }
        }
    }

    /// The zone times are shown in.
    pub fn tz(&self) -> &jiff::tz::TimeZone {
        &self.tz
    }

    /// The place of entry `ix` in the listing.
    pub fn place_of(&self, ix: Ix) -> Option<usize> {
        self.place
            .get(ix as usize)
            .copied()
            .filter(|&k| k != u32::MAX)
            .map(|k| k as usize)
    }

    /// The next (`forward`) or previous fork point from the selection, in
    /// listing order.
    pub fn fork(&self, forward: bool) -> Option<usize> {
        let tree = &self.repo.tree;
        let is_fork = |k: &usize| tree.children(self.order[*k]).len() > 1;
        if forward {
            (self.sel + 1..self.order.len()).find(is_fork)
        } else {
            (0..self.sel).rev().find(is_fork)
        }
    }
}
