//! `log --graph`'s layout: the order entries are listed in, and the columns
//! of the lines beside them, in the manner of `jj log`. The characters are
//! the front end's (the command line draws them in `ui::graph`), as jj keeps
//! the edges in its library and the drawing in its command line.
//!
//! [`display_order`] lists newest branch work first, each subtree in one
//! piece and every entry below all of its descendants. [`Layout`] then lays
//! out one row at a time from a few columns of state, so a session of any
//! size streams out in time proportional to its rows times its open columns.
//!
//! Like jj's renderer, a branch joins the column of its fork point right
//! after its last row, not all at once just above the fork point:
//!
//! ```text
//! @  c3          and not    @  c3
//! │ ○  c2                   │ ○  c2
//! ├─╯                       │ │ ○  c1
//! │ ○  c1                   ├─┴─╯
//! ├─╯                       ◆  p
//! ◆  p
//! ```
//!
//! Sessions fork by rewinding, often many times to the same point; joining
//! early keeps the drawing as narrow as the nesting of forks, where waiting
//! would give a column to every retry (and a 200,000-way fork would draw
//! 200,000 columns on each of its rows).

use std::cmp::Reverse;

use crate::tree::{Ix, Tree};

/// Entries in the order `log --graph` lists them, top to bottom.
///
/// Every entry comes once, below all of its descendants; each subtree is
/// contiguous; sibling subtrees (and separate roots) come newest activity
/// first, activity being the last line anywhere in the subtree. HEAD is the
/// last line, so its branch always leads.
///
/// This is the user's tree, ysess's records folded out; with `records`, the
/// file's own tree, records and all.
pub fn display_order(tree: &Tree, records: bool) -> Vec<Ix> {
    let parent = |ix: Ix| {
        if records {
            tree.raw_parent(ix)
        } else {
            tree.parent(ix).filter(|_| !tree.is_record(ix))
        }
    };
    let children = |ix: Ix| {
        if records {
            tree.raw_children(ix)
        } else {
            tree.children(ix)
        }
    };
    let n = tree.len();
    // The newest entry of each subtree. A parent is always on an earlier
    // line than its children (the builder only links to ids already seen),
    // so one backward pass folds every child into its parent in time. Only
    // the order of siblings depends on this; the shape of the result does
    // not.
    let mut newest: Vec<Ix> = (0..n).map(|ix| ix as Ix).collect();
    for ix in (0..n).rev() {
        if let Some(p) = parent(ix as Ix) {
            newest[p as usize] = newest[p as usize].max(newest[ix]);
        }
    }
    let by_newest_first =
        |stack: &mut [Ix]| stack.sort_unstable_by_key(|&ix| Reverse(newest[ix as usize]));

    // A pre-order walk that visits the oldest sibling first is, reversed, a
    // post-order walk (descendants first) that visits the newest sibling
    // first: the order we want, with an explicit stack instead of recursion
    // because sessions can be hundreds of thousands of entries deep.
    // Siblings are pushed newest first so that the oldest is popped first.
    let mut stack: Vec<Ix> = if records {
        (0..n as Ix).filter(|&ix| parent(ix).is_none()).collect()
    } else {
        tree.roots().collect()
    };
    by_newest_first(&mut stack);
    let mut order = Vec::with_capacity(n);
    while let Some(ix) = stack.pop() {
        order.push(ix);
        let start = stack.len();
        stack.extend_from_slice(children(ix));
        by_newest_first(&mut stack[start..]);
    }
    order.reverse();
    order
}

/// What an entry's node is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// HEAD, where the app resumes.
    Head,
    /// An entry without a (shown) parent.
    Root,
    /// Any other entry.
    Entry,
}

/// A line where a branch joins the column of its fork point: column `from`
/// runs into column `into`, passing over those between.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Join {
    /// The column joined (the left one).
    pub into: usize,
    /// The column that ends here (the right one).
    pub from: usize,
    /// Whether each column of the line carries a line of its own, as wide
    /// as the row above.
    pub active: Vec<bool>,
}

/// The layout of one entry's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// A line first, with these columns carrying lines, when the entry
    /// starts a new tree in the column where a root just ended: without
    /// it, the root would read as the entry's child.
    pub gap: Option<Vec<bool>>,
    /// A join before the entry's row, where the branch laid out just above
    /// joins the column of its fork point.
    pub connector: Option<Join>,
    /// The entry's column.
    pub at: usize,
    /// What the entry is.
    pub node: Node,
    /// Whether each column of the row carries a line (the entry's own
    /// column included).
    pub active: Vec<bool>,
}

/// The graph beside an extra line of the last entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extra {
    /// The join that would otherwise come before the next row, as jj draws.
    Join(Join),
    /// The columns carrying lines, as wide as the last row.
    Columns(Vec<bool>),
}

/// Where a [`Layout`] stopped: its open columns, nothing borrowed.
#[derive(Debug, Clone, Default)]
pub struct Paused {
    columns: Vec<Option<Ix>>,
    join: Option<(usize, usize)>,
    width: usize,
    after_root: Option<usize>,
}

/// Lays out a tree row by row, entries given in [`display_order`].
///
/// Any order in which every entry comes after its children also lays out
/// correctly (reversed file order, say), but only `display_order` keeps
/// joins from crossing other columns and leaves no blank columns between
/// lines. Extra lines of an entry ([`Layout::continuation`]) must be taken
/// before the next entry is placed.
pub struct Layout<'t> {
    tree: &'t Tree,
    /// Each column's line runs down to the entry it names; `None` is blank
    /// space. A blank column is reused by the next branch tip; blank columns
    /// at the right end are dropped.
    pub(crate) columns: Vec<Option<Ix>>,
    /// Two columns now running to the same entry, left and right: the right
    /// one joins the left before anything else is drawn.
    pub(crate) join: Option<(usize, usize)>,
    /// Columns of the last entry's row, so its extra lines line up with it.
    width: usize,
    /// The column of the last row when that was a root's: an entry placed
    /// next in that column is set apart by a gap line.
    after_root: Option<usize>,
    /// The parent an entry is drawn joining: its own, or (when some entries
    /// are hidden) its nearest shown ancestor.
    parent: Box<dyn Fn(Ix) -> Option<Ix> + 't>,
}

impl<'t> Layout<'t> {
    /// The layout of `tree`.
    pub fn new(tree: &'t Tree) -> Layout<'t> {
        Layout {
            tree,
            columns: Vec::new(),
            join: None,
            width: 0,
            after_root: None,
            parent: Box::new(move |ix| tree.parent(ix)),
        }
    }

    /// Lays out only some entries: each joins its nearest shown ancestor,
    /// as given by `parent`.
    pub fn with_parents(mut self, parent: impl Fn(Ix) -> Option<Ix> + 't) -> Layout<'t> {
        self.parent = Box::new(parent);
        self
    }

    /// Stops, keeping where the layout is, so that a view that draws rows
    /// only as they come into sight (`ysess tui`) can go on later with
    /// [`Layout::resume`] without holding the tree borrowed.
    pub fn pause(self) -> Paused {
        Paused {
            columns: self.columns,
            join: self.join,
            width: self.width,
            after_root: self.after_root,
        }
    }

    /// Goes on laying out `tree` where [`Layout::pause`] stopped (the whole
    /// tree: every entry joins its own parent).
    pub fn resume(tree: &'t Tree, paused: Paused) -> Layout<'t> {
        let mut layout = Layout::new(tree);
        layout.columns = paused.columns;
        layout.join = paused.join;
        layout.width = paused.width;
        layout.after_root = paused.after_root;
        layout
    }

    /// The row of the next entry, which must be an entry of the tree.
    pub fn place(&mut self, ix: Ix) -> Shape {
        let connector = self.take_join();
        // A root's line has ended: the next entry in its column starts
        // another tree, set apart so that it does not read as the root's
        // parent.
        let after_root = self.after_root.take();

        // The column whose line runs down to this entry, or a new one for a
        // tip (or for an entry whose children are not drawn).
        let at = match self.columns.iter().position(|&c| c == Some(ix)) {
            Some(at) => at,
            None => self.open_column(),
        };
        let gap = (after_root == Some(at)).then(|| self.active());
        let node = if self.tree.head() == Some(ix) {
            Node::Head
        } else if (self.parent)(ix).is_none() {
            Node::Root
        } else {
            Node::Entry
        };
        self.width = self.columns.len();
        let active = self.columns.iter().map(Option::is_some).collect();

        // The line now runs on down to the parent; a root ends it. If a
        // sibling's branch already runs there, the two join next.
        let parent_ix = (self.parent)(ix);
        self.after_root = parent_ix.is_none().then_some(at);
        self.columns[at] = parent_ix;
        if let Some(parent) = parent_ix {
            let other = self
                .columns
                .iter()
                .enumerate()
                .position(|(k, &c)| k != at && c == Some(parent));
            self.join = other.map(|other| (at.min(other), at.max(other)));
        }
        self.drop_blank_end();
        Shape {
            gap,
            connector,
            at,
            node,
            active,
        }
    }

    /// The graph beside an extra line of the last entry, as wide as its row
    /// so that the text lines up. The first such line also carries the
    /// join that would otherwise come before the next row, as jj does:
    ///
    /// ```text
    /// │ ○  e4 first line
    /// ├─╯  second line
    /// ```
    pub fn continuation(&mut self) -> Extra {
        match self.take_join() {
            Some(join) => Extra::Join(join),
            None => Extra::Columns(self.active()),
        }
    }

    /// Whether each column as wide as the last row carries a line.
    fn active(&self) -> Vec<bool> {
        (0..self.width)
            .map(|k| self.columns.get(k).is_some_and(Option::is_some))
            .collect()
    }

    /// The reusable column furthest left, or a new one at the right.
    fn open_column(&mut self) -> usize {
        match self.columns.iter().position(Option::is_none) {
            Some(free) => free,
            None => {
                self.columns.push(None);
                self.columns.len() - 1
            }
        }
    }

    fn drop_blank_end(&mut self) {
        while self.columns.last() == Some(&None) {
            self.columns.pop();
        }
    }

    /// The pending join, if any, as wide as the last row, and frees the
    /// column that joined.
    fn take_join(&mut self) -> Option<Join> {
        let (into, from) = self.join.take()?;
        let join = Join {
            into,
            from,
            active: self.active(),
        };
        self.columns[from] = None;
        self.drop_blank_end();
        Some(join)
    }
}
