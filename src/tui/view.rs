//! One session in the browser: the tree's rows (as `log --graph` draws
//! them, drawn only as they come into sight), the selection, the chat of
//! the selected entry's path, and the file watched as it grows.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::refs::store::Store;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::SystemTime;

use ratatui::text::Line;

use super::background::{self, received};
use super::chat;
use super::usage::Usage;
use crate::repo::{LoadError, Repo};
use crate::stats::Spent;
use crate::tree::graph::display_order;
use crate::ui::graph::{Graph, Paused, Row as GraphRow, Style};
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

/// The session at `path`, read as the browser reads it: without subject
/// lines, a torn last line waited for.
pub(super) fn load(
    path: PathBuf,
    format: Option<Format>,
    refs: Option<&Store>,
) -> Result<Repo, LoadError> {
    Repo::open(
        crate::Source::Path(path.clone()),
        &crate::repo::Open::default()
            .torn(crate::repo::TornLine::Keep)
            .subjects(false)
            .format(format),
    )?
    .with_store(&path, refs)
    .map_err(LoadError::Io)
}

/// A session open in the browser.
pub struct View {
    /// The session file.
    pub path: PathBuf,
    /// `--format-of`, when given.
    pub format_of: Option<Format>,
    /// Where the refs of a session whose app owns the file are kept.
    pub refs: Option<Store>,
    /// The session, as last read.
    pub repo: Arc<Repo>,
    /// Entries top to bottom, as `log --graph` lists them.
    pub order: Vec<Ix>,
    /// Each entry's place in `order` (`u32::MAX`: not listed).
    place: Vec<u32>,
    /// The graph, drawn as far as the screen has been.
    drawing: Drawing,
    /// Checkpoints of the whole graph, drawn in the background.
    checkpoints_rx: Option<Receiver<Vec<Paused>>>,
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
    /// What each reply used, and each path, read once in the background.
    pub usage: Option<Arc<Usage>>,
    usage_rx: Option<Receiver<std::io::Result<Usage>>>,
    /// Usage could not be read (the file changed under the browser).
    pub usage_failed: bool,
    /// Subject lines read for rows shown, by entry (the session is read
    /// without them).
    subjects: HashMap<Ix, String>,
    /// The background reads (usage, the graph's checkpoints) are started:
    /// after the first frame, which they would slow.
    started: bool,
    seen: Option<Seen>,
    reload_rx: Option<Receiver<Result<Repo, LoadError>>>,
    /// Chat lines made, by entry, open or not, and width.
    cache: HashMap<(Ix, bool, u16), Rc<Vec<Line<'static>>>>,
    /// The zone times are shown in.
    tz: jiff::tz::TimeZone,
    /// What names each entry: HEAD, branches, labels.
    pub names: crate::Names,
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
        refs: Option<Store>,
    ) -> View {
        let seen = seen(&path);
        let mut view = View {
            path,
            format_of,
            refs,
            repo: Arc::new(repo),
            order: Vec::new(),
            place: Vec::new(),
            drawing: Drawing::new(style),
            checkpoints_rx: None,
            style,
            sel: 0,
            top: 0,
            focus: Pane::Tree,
            mark: None,
            open: hashbrown::HashSet::new(),
            path_ixs: Vec::new(),
            cursor: 0,
            chat_top: (0, 0),
            usage: None,
            usage_rx: None,
            usage_failed: false,
            subjects: HashMap::new(),
            started: false,
            seen,
            reload_rx: None,
            cache: HashMap::new(),
            tz,
            names: crate::Names::new(&crate::Tree::default(), None, &[]),
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
        self.names = crate::Names::new(tree, tree.head(), &repo.refs.pairs());
        self.branch = repo.refs.current(tree).map(|b| b.name.clone());
        self.tips = tree.tips().count();
        self.drawing = Drawing::new(self.style);
        self.checkpoints_rx = None;
        self.usage = None;
        self.usage_rx = None;
        self.usage_failed = false;
        self.subjects.clear();
        self.started = false;
        self.cache.clear();
    }

    /// Starts what is read in the background: what each reply and path
    /// used, and the whole graph's checkpoints (so that `G` draws only the
    /// rows in sight).
    pub fn start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        let repo = Arc::clone(&self.repo);
        self.usage_rx = Some(background::read(move || Usage::read(&repo)));
        let (repo, order, style) = (Arc::clone(&self.repo), self.order.clone(), self.style);
        self.checkpoints_rx = Some(background::read(move || {
            let mut drawing = Drawing::new(style);
            drawing.checkpoint_to(&repo.tree, &order, order.len());
            drawing.checkpoints
        }));
    }

    /// The selected entry.
    pub fn selected(&self) -> Option<Ix> {
        self.order.get(self.sel).copied()
    }

    /// The graph row of the `k`th listed entry.
    pub fn graph_row(&mut self, k: usize) -> Option<GraphRow> {
        self.take_checkpoints(false);
        self.drawing.row(&self.repo.tree, &self.order, k)
    }

    /// Screen lines the `k`th entry takes in the tree pane.
    pub fn tree_height(&mut self, k: usize) -> usize {
        self.graph_row(k).map_or(1, |r| {
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
        let k = ix.and_then(|ix| self.place_of(ix)).unwrap_or(0);
        self.sel = k;
        self.top = self.top.min(k);
        self.reset_chat();
    }

    /// Scrolls the tree pane so the selection is in sight: the rows above
    /// it are counted back from it, never more than a screen of them.
    pub fn scroll_to_selection(&mut self, height: usize) {
        let height = height.max(1);
        if self.sel <= self.top {
            self.top = self.sel;
            return;
        }
        // The first row that still leaves the selection on the screen.
        let mut used = 0;
        let mut k = self.sel;
        let lowest = loop {
            used += self.tree_height(k);
            if used > height {
                break k + 1;
            }
            if k == self.top {
                break self.top;
            }
            k -= 1;
        };
        self.top = self.top.max(lowest.min(self.sel));
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
        let spent = self.usage.as_ref().and_then(|u| u.own[ix as usize]);
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

    /// Entry `ix`'s subject line, read once.
    pub fn subject(&mut self, ix: Ix) -> &str {
        // Bounded: the rows in sight and those near them.
        if self.subjects.len() > 4096 && !self.subjects.contains_key(&ix) {
            self.subjects.clear();
        }
        let repo = &self.repo;
        self.subjects
            .entry(ix)
            .or_insert_with(|| repo.subject(ix).into_owned())
    }

    /// What the selected entry's path used, once usage is read.
    pub fn path_used(&self) -> Option<Spent> {
        let sel = self.selected()?;
        Some(self.usage.as_ref()?.path[sel as usize])
    }

    /// Looks for facts read and for growth of the file; reads the file
    /// again, in the background, when it grew.
    pub fn tick(&mut self) -> Tick {
        let tick = self.take_background(false);
        if self.reload_rx.is_none() {
            let now = seen(&self.path);
            if now.is_some() && now != self.seen {
                self.seen = now;
                let (path, format) = (self.path.clone(), self.format());
                let refs = self.refs.clone();
                self.reload_rx = Some(background::read(move || load(path, format, refs.as_ref())));
            }
        }
        tick
    }

    /// Waits for what is read in the background (the facts, a new read of
    /// the file) and puts it in place.
    pub fn settle(&mut self) -> Tick {
        self.take_background(true)
    }

    /// Puts in place what the background reads have sent (`wait`: once
    /// they all have): a new read of the file first, then what was started
    /// for it (usage, the graph's checkpoints).
    fn take_background(&mut self, wait: bool) -> Tick {
        let tick = match received(&mut self.reload_rx, wait) {
            Some(Some(Ok(repo))) => self.swap(repo),
            Some(Some(Err(e))) => Tick::Failed(crate::cli::hint::load_error(&e)),
            Some(None) | None => Tick::Quiet,
        };
        self.start();
        match received(&mut self.usage_rx, wait) {
            Some(Some(Ok(usage))) => {
                self.usage = Some(Arc::new(usage));
                self.cache.clear();
            }
            Some(_) => self.usage_failed = true,
            None => {}
        }
        self.take_checkpoints(wait);
        tick
    }

    /// The whole graph's checkpoints, once drawn in the background.
    fn take_checkpoints(&mut self, wait: bool) {
        if let Some(Some(all)) = received(&mut self.checkpoints_rx, wait)
            && all.len() > self.drawing.checkpoints.len()
        {
            self.drawing.checkpoints = all;
        }
    }

    /// The format to read the file as: `--format-of`, else the one it was.
    fn format(&self) -> Option<Format> {
        self.format_of.or(Some(self.repo.format))
    }

    /// Reads the file again now (after a write of ours).
    pub fn reload_now(&mut self) -> Result<(), String> {
        let repo = load(self.path.clone(), self.format(), self.refs.as_ref())
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
        // The same entry selected as before (not one HEAD fell back to).
        let same = target.is_some_and(|ix| was.as_deref() == Some(tree.id(ix)));
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

/// Rows drawn again from a checkpoint taken every this many: memory holds
/// the checkpoints and the rows near the screen, never the whole drawing.
const STRIDE: usize = 1024;

/// The graph of a listing, drawn in pieces: the state before every
/// [`STRIDE`]th row, and the rows of one piece around the screen.
struct Drawing {
    /// The graph's state before row `i * STRIDE`.
    checkpoints: Vec<Paused>,
    /// The first row in `rows`.
    start: usize,
    /// Rows `start..start + rows.len()`.
    rows: Vec<GraphRow>,
}

impl Drawing {
    fn new(style: Style) -> Drawing {
        Drawing {
            checkpoints: vec![Paused::start(style)],
            start: 0,
            rows: Vec::new(),
        }
    }

    /// Takes checkpoints down to row `k`.
    fn checkpoint_to(&mut self, tree: &crate::Tree, order: &[Ix], k: usize) {
        while (self.checkpoints.len() - 1) * STRIDE + STRIDE <= k.min(order.len()) {
            let from = (self.checkpoints.len() - 1) * STRIDE;
            let last = self
                .checkpoints
                .last()
                .expect("the first checkpoint")
                .clone();
            let mut graph = Graph::resume(tree, last);
            for &ix in &order[from..from + STRIDE] {
                graph.draw(ix);
            }
            self.checkpoints.push(graph.pause());
        }
    }

    /// Row `k` (`None` past the end).
    fn row(&mut self, tree: &crate::Tree, order: &[Ix], k: usize) -> Option<GraphRow> {
        if k >= order.len() {
            return None;
        }
        if !(self.start..self.start + self.rows.len()).contains(&k) {
            // Two strides from the checkpoint before `k`: `k` and at
            // least a stride after it.
            let base = k / STRIDE * STRIDE;
            self.checkpoint_to(tree, order, base);
            let mut graph = Graph::resume(tree, self.checkpoints[base / STRIDE].clone());
            let end = (base + 2 * STRIDE).min(order.len());
            self.rows = order[base..end].iter().map(|&ix| graph.draw(ix)).collect();
            self.start = base;
        }
        self.rows.get(k - self.start).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_drawn_from_checkpoints_are_the_rows_of_one_drawing() {
        // 3,000 entries, a fork every 37th, some of them long-lived.
        let ids: Vec<String> = (0..3000).map(|i| format!("e{i}")).collect();
        let entries: Vec<(&str, Option<&str>)> = (0..3000)
            .map(|i| {
                let parent = match i {
                    0 => None,
                    i if i % 37 == 0 => Some(ids[i - 20].as_str()),
                    i if i % 101 == 0 => Some(ids[i / 2].as_str()),
                    i => Some(ids[i - 1].as_str()),
                };
                (ids[i].as_str(), parent)
            })
            .collect();
        let tree = crate::testing::tree(&entries);
        let order = display_order(&tree, false);
        for style in [Style::Curved, Style::Ascii] {
            let mut graph = Graph::new(&tree, style);
            let whole: Vec<GraphRow> = order.iter().map(|&ix| graph.draw(ix)).collect();
            let mut drawing = Drawing::new(style);
            for i in 0..order.len() {
                // Scattered, back and forth across the checkpoints.
                let k = (i * 7919) % order.len();
                assert_eq!(
                    drawing.row(&tree, &order, k).as_ref(),
                    Some(&whole[k]),
                    "row {k}"
                );
            }
            assert_eq!(drawing.row(&tree, &order, order.len()), None);
            // Checkpoints taken all at once (as the background does) serve
            // the same rows.
            let mut all = Drawing::new(style);
            all.checkpoint_to(&tree, &order, order.len());
            assert_eq!(all.checkpoints.len(), order.len() / STRIDE + 1);
            for k in [order.len() - 1, 0, 2 * STRIDE, STRIDE - 1, STRIDE] {
                assert_eq!(
                    all.row(&tree, &order, k).as_ref(),
                    Some(&whole[k]),
                    "row {k}"
                );
            }
        }
    }
}
