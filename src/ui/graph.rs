//! `log --graph`'s characters: the layout of [`crate::tree::graph`] drawn
//! in box drawing, as `jj log` draws (`○ │ ├─╯`), or in ASCII, as `git log
//! --graph` draws (`o | |/`). The command line, the page and the TUI draw
//! with it.

use crate::tree::graph::{Extra, Join, Layout, Node, Shape};
use crate::tree::{Ix, Tree};

/// How the graph is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    /// Box drawing, as `jj log` draws: `○ │ ├─╯`.
    #[default]
    Curved,
    /// Plain ASCII for terminals without box drawing, as `git log --graph`
    /// draws: `o | |/`.
    Ascii,
}

/// The characters of one style.
struct Glyphs {
    head: char,
    root: char,
    entry: char,
    /// A column passing by.
    line: char,
    /// Where a joining branch lands.
    join: char,
    /// The horizontal part of a join.
    run: char,
    /// A join passing over an unrelated column.
    cross: char,
    /// Where a joining branch turns towards the column it joins.
    corner: char,
    /// Draw the corner in the gap left of the joining column, as git does
    /// (`|/`), instead of on the column itself (`├─╯`).
    corner_in_gap: bool,
}

const CURVED: Glyphs = Glyphs {
    head: '@',
    root: '◆',
    entry: '○',
    line: '│',
    join: '├',
    run: '─',
    cross: '┼',
    corner: '╯',
    corner_in_gap: false,
};

const ASCII: Glyphs = Glyphs {
    head: '@',
    root: '#',
    entry: 'o',
    line: '|',
    join: '|',
    run: '-',
    cross: '+',
    corner: '/',
    corner_in_gap: true,
};

impl Style {
    fn glyphs(self) -> &'static Glyphs {
        match self {
            Style::Curved => &CURVED,
            Style::Ascii => &ASCII,
        }
    }
}

/// The graph text of one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// A line to print first, when the entry starts a new tree in the
    /// column where a root just ended: without it, the root would read as
    /// the entry's child. Trailing whitespace is trimmed.
    pub gap: Option<String>,
    /// A line to print before the entry's row, where the branch drawn just
    /// above joins the column of its fork point (`├─╯`). Trailing whitespace
    /// is trimmed.
    pub connector: Option<String>,
    /// The start of the entry's row (`│ ○  `); the entry's text follows.
    pub prefix: String,
}

/// Where a [`Graph`] stopped drawing: its layout's open columns and its
/// style, nothing borrowed.
#[derive(Debug, Clone)]
pub struct Paused {
    style: Style,
    layout: crate::tree::graph::Paused,
}

impl Paused {
    /// A drawing not yet begun, in `style`.
    pub fn start(style: Style) -> Paused {
        Paused {
            style,
            layout: crate::tree::graph::Paused::default(),
        }
    }
}

/// Draws a tree row by row, entries given in
/// [`crate::tree::graph::display_order`]: the [`Layout`] of each row, in
/// characters. Extra lines of an entry ([`Graph::continuation`]) must be
/// printed before the next entry is drawn.
pub struct Graph<'t> {
    layout: Layout<'t>,
    style: Style,
}

impl<'t> Graph<'t> {
    /// A graph of `tree`, drawn in `style`.
    pub fn new(tree: &'t Tree, style: Style) -> Graph<'t> {
        Graph {
            layout: Layout::new(tree),
            style,
        }
    }

    /// Draws only some entries: each joins its nearest shown ancestor, as
    /// given by `parent`.
    pub fn with_parents(mut self, parent: impl Fn(Ix) -> Option<Ix> + 't) -> Graph<'t> {
        self.layout = self.layout.with_parents(parent);
        self
    }

    /// Stops drawing, keeping where the drawing is ([`Layout::pause`]).
    pub fn pause(self) -> Paused {
        Paused {
            style: self.style,
            layout: self.layout.pause(),
        }
    }

    /// Goes on drawing `tree` where [`Graph::pause`] stopped.
    pub fn resume(tree: &'t Tree, paused: Paused) -> Graph<'t> {
        Graph {
            layout: Layout::resume(tree, paused.layout),
            style: paused.style,
        }
    }

    /// The graph text of the next entry, which must be an entry of the tree.
    pub fn draw(&mut self, ix: Ix) -> Row {
        let g = self.style.glyphs();
        let Shape {
            gap,
            connector,
            at,
            node,
            active,
        } = self.layout.place(ix);
        let glyph = match node {
            Node::Head => g.head,
            Node::Root => g.root,
            Node::Entry => g.entry,
        };
        let mut prefix = String::with_capacity(4 * active.len() + 1);
        for (k, &on) in active.iter().enumerate() {
            prefix.push(if k == at {
                glyph
            } else if on {
                g.line
            } else {
                ' '
            });
            prefix.push(' ');
        }
        prefix.push(' ');
        Row {
            gap: gap.map(|columns| trim(columns_line(g, &columns))),
            connector: connector.map(|join| trim(join_line(g, &join))),
            prefix,
        }
    }

    /// The graph text before an extra line of the last entry, as wide as its
    /// row so that the text lines up; the first such line also carries the
    /// join that would otherwise be the next row's connector, as jj does:
    ///
    /// ```text
    /// │ ○  e4 first line
    /// ├─╯  second line
    /// ```
    pub fn continuation(&mut self) -> String {
        let g = self.style.glyphs();
        match self.layout.continuation() {
            Extra::Join(join) => join_line(g, &join),
            Extra::Columns(columns) => columns_line(g, &columns),
        }
    }
}

fn trim(mut line: String) -> String {
    line.truncate(line.trim_end().len());
    line
}

/// The columns that carry lines, with the two spaces before text.
fn columns_line(g: &Glyphs, active: &[bool]) -> String {
    let mut text = String::with_capacity(4 * active.len() + 1);
    for &on in active {
        text.push(if on { g.line } else { ' ' });
        text.push(' ');
    }
    text.push(' ');
    text
}

/// A join, as wide as the row above (with the two spaces before text).
fn join_line(g: &Glyphs, join: &Join) -> String {
    let Join { into, from, active } = join;
    let (into, from) = (*into, *from);
    let spans = |k: usize| into < k && k < from;
    let mut line = String::with_capacity(4 * active.len() + 1);
    for (k, &on) in active.iter().enumerate() {
        line.push(if k == into {
            g.join
        } else if k == from {
            if g.corner_in_gap { ' ' } else { g.corner }
        } else if spans(k) {
            if on { g.cross } else { g.run }
        } else if on {
            g.line
        } else {
            ' '
        });
        // The gap right of column k.
        line.push(if g.corner_in_gap && k + 1 == from {
            g.corner
        } else if into <= k && k < from {
            g.run
        } else {
            ' '
        });
    }
    line.push(' ');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;
    use crate::tree::graph::display_order;

    /// `prefix + id` for each entry in `order`, connectors included.
    fn render(tree: &Tree, order: &[Ix], style: Style) -> String {
        let mut graph = Graph::new(tree, style);
        let mut out = String::new();
        for &ix in order {
            let row = graph.draw(ix);
            for line in row.gap.into_iter().chain(row.connector) {
                out.push_str(&line);
                out.push('\n');
            }
            out.push_str(&row.prefix);
            out.push_str(tree.id(ix));
            out.push('\n');
        }
        out
    }

    fn log(tree: &Tree, style: Style) -> String {
        render(tree, &display_order(tree, false), style)
    }

    /// An expected drawing as written indented in this file: the literal
    /// starts with a newline and every line loses the first line's
    /// indentation (a drawing's first line always starts with a node).
    fn drawing(text: &str) -> String {
        let body = text.strip_prefix('\n').expect("starts on the next line");
        let indent = body.len() - body.trim_start_matches(' ').len();
        let mut out = String::new();
        let lines: Vec<&str> = body.lines().collect();
        // The last line is the closing quote's indentation; a blank line
        // before it is a gap line of the drawing.
        for line in &lines[..lines.len().saturating_sub(1)] {
            out.push_str(line.get(indent..).unwrap_or_default().trim_end());
            out.push('\n');
        }
        out
    }

    fn fork() -> Tree {
        tree(&[
            ("e1", None),
            ("e2", Some("e1")),
            ("e3", Some("e2")),
            ("e4", Some("e3")),
            ("e5", Some("e3")),
            ("e6", Some("e5")),
        ])
    }

    #[test]
    fn linear() {
        let t = tree(&[("a", None), ("b", Some("a")), ("c", Some("b"))]);
        assert_eq!(
            log(&t, Style::Curved),
            drawing(
                "
                @  c
                ○  b
                ◆  a
                "
            )
        );
    }

    #[test]
    fn single_entry_is_head() {
        let t = tree(&[("a", None)]);
        assert_eq!(log(&t, Style::Curved), "@  a\n");
    }

    #[test]
    fn empty_tree_draws_nothing() {
        let t = tree(&[]);
        assert!(display_order(&t, false).is_empty());
        assert_eq!(log(&t, Style::Curved), "");
    }

    #[test]
    fn one_fork() {
        assert_eq!(
            log(&fork(), Style::Curved),
            drawing(
                "
                @  e6
                ○  e5
                │ ○  e4
                ├─╯
                ○  e3
                ○  e2
                ◆  e1
                "
            )
        );
    }

    #[test]
    fn head_on_an_older_branch_still_leads() {
        // HEAD is the last line, so its branch has the newest activity even
        // when the branch itself started earlier.
        let t = tree(&[
            ("a", None),
            ("b", Some("a")),
            ("x", Some("a")),
            ("y", Some("x")),
            ("c", Some("b")),
        ]);
        assert_eq!(
            log(&t, Style::Curved),
            drawing(
                "
                @  c
                ○  b
                │ ○  y
                │ ○  x
                ├─╯
                ◆  a
                "
            )
        );
    }

    #[test]
    fn fork_of_a_fork() {
        let t = tree(&[
            ("a", None),
            ("b", Some("a")),
            ("c", Some("b")),
            ("d", Some("c")),
            ("e", Some("b")),
            ("f", Some("e")),
            ("g", Some("e")),
        ]);
        assert_eq!(
            log(&t, Style::Curved),
            drawing(
                "
                @  g
                │ ○  f
                ├─╯
                ○  e
                │ ○  d
                │ ○  c
                ├─╯
                ○  b
                ◆  a
                "
            )
        );
    }

    #[test]
    fn three_children_of_one_node() {
        let t = tree(&[
            ("p", None),
            ("c1", Some("p")),
            ("c2", Some("p")),
            ("c3", Some("p")),
        ]);
        assert_eq!(
            log(&t, Style::Curved),
            drawing(
                "
                @  c3
                │ ○  c2
                ├─╯
                │ ○  c1
                ├─╯
                ◆  p
                "
            )
        );
    }

    #[test]
    fn two_roots() {
        // Lines of the two trees interleave in the file; each tree is still
        // drawn in one piece, the one with the newest line first.
        let t = tree(&[
            ("a1", None),
            ("b1", None),
            ("a2", Some("a1")),
            ("b2", Some("b1")),
            ("a3", Some("a2")),
        ]);
        assert_eq!(
            log(&t, Style::Curved),
            drawing(
                "
                @  a3
                ○  a2
                ◆  a1

                ○  b2
                ◆  b1
                "
            )
        );
    }

    #[test]
    fn fork_points_deep_below_keep_branches_open() {
        // The main line r-a-p1-p2-p3 with an older branch q off a, which
        // forks again into s and t, and an even older branch x off r.
        let t = tree(&[
            ("r", None),
            ("x1", Some("r")),
            ("x2", Some("x1")),
            ("a", Some("r")),
            ("q", Some("a")),
            ("s1", Some("q")),
            ("s2", Some("s1")),
            ("t1", Some("q")),
            ("t2", Some("t1")),
            ("p1", Some("a")),
            ("p2", Some("p1")),
            ("p3", Some("p2")),
        ]);
        assert_eq!(
            log(&t, Style::Curved),
            drawing(
                "
                @  p3
                ○  p2
                ○  p1
                │ ○  t2
                │ ○  t1
                │ │ ○  s2
                │ │ ○  s1
                │ ├─╯
                │ ○  q
                ├─╯
                ○  a
                │ ○  x2
                │ ○  x1
                ├─╯
                ◆  r
                "
            )
        );
    }

    #[test]
    fn join_crossing_an_unrelated_column() {
        // In reversed file order (not `display_order`), branch w is still
        // open when t joins v on the way to their fork point a; then m's
        // line crosses a's on the way to r.
        let t = tree(&[
            ("r", None),
            ("a", Some("r")),
            ("m", Some("r")),
            ("t", Some("a")),
            ("w", Some("m")),
            ("v", Some("a")),
            ("z", Some("r")),
        ]);
        let reversed: Vec<Ix> = (0..t.len() as Ix).rev().collect();
        assert_eq!(
            render(&t, &reversed, Style::Curved),
            drawing(
                "
                @  z
                │ ○  v
                │ │ ○  w
                │ │ │ ○  t
                │ ├─┼─╯
                │ │ ○  m
                ├─┼─╯
                │ ○  a
                ├─╯
                ◆  r
                "
            )
        );
        assert_eq!(
            render(&t, &reversed, Style::Ascii),
            drawing(
                "
                @  z
                | o  v
                | | o  w
                | | | o  t
                | |-+/
                | | o  m
                |-+/
                | o  a
                |/
                #  r
                "
            )
        );
    }

    #[test]
    fn blank_columns() {
        // Reversed file order again: the root c ends its column, and the
        // next tip b takes it.
        let t = tree(&[
            ("r1", None),
            ("b", Some("r1")),
            ("c", None),
            ("d", Some("r1")),
        ]);
        let reversed: Vec<Ix> = (0..t.len() as Ix).rev().collect();
        assert_eq!(
            render(&t, &reversed, Style::Curved),
            drawing(
                "
                @  d
                │ ◆  c
                │
                │ ○  b
                ├─╯
                ◆  r1
                "
            )
        );
        // A column that ends in the middle (at the root x) stays blank
        // space, and the join below runs across it.
        let t = tree(&[
            ("r", None),
            ("a", Some("r")),
            ("x", None),
            ("b", Some("r")),
            ("y", Some("x")),
            ("c", Some("a")),
        ]);
        let reversed: Vec<Ix> = (0..t.len() as Ix).rev().collect();
        assert_eq!(
            render(&t, &reversed, Style::Curved),
            drawing(
                "
                @  c
                │ ○  y
                │ │ ○  b
                │ ◆ │  x
                ○   │  a
                ├───╯
                ◆  r
                "
            )
        );
    }

    #[test]
    fn ascii() {
        assert_eq!(
            log(&fork(), Style::Ascii),
            drawing(
                "
                @  e6
                o  e5
                | o  e4
                |/
                o  e3
                o  e2
                #  e1
                "
            )
        );
        let t = tree(&[
            ("a", None),
            ("b", Some("a")),
            ("c", Some("b")),
            ("d", Some("a")),
            ("e", Some("b")),
        ]);
        assert_eq!(
            log(&t, Style::Ascii),
            drawing(
                "
                @  e
                | o  c
                |/
                o  b
                | o  d
                |/
                #  a
                "
            )
        );
    }

    #[test]
    fn continuation_lines() {
        let t = fork();
        let mut graph = Graph::new(&t, Style::Curved);
        let mut out = String::new();
        for ix in display_order(&t, false) {
            let row = graph.draw(ix);
            if let Some(connector) = row.connector {
                out.push_str(&connector);
                out.push('\n');
            }
            out.push_str(&row.prefix);
            out.push_str(t.id(ix));
            out.push('\n');
            for n in 2..=3 {
                out.push_str(&graph.continuation());
                out.push_str(&format!("line {n}\n"));
            }
        }
        assert_eq!(
            out,
            drawing(
                "
                @  e6
                │  line 2
                │  line 3
                ○  e5
                │  line 2
                │  line 3
                │ ○  e4
                ├─╯  line 2
                │    line 3
                ○  e3
                │  line 2
                │  line 3
                ○  e2
                │  line 2
                │  line 3
                ◆  e1
                   line 2
                   line 3
                "
            )
        );
    }

    use crate::testing::Rng;

    /// A session that mostly appends, sometimes rewinds to an earlier entry
    /// and rarely starts a new root.
    fn random_tree(seed: u64, n: usize) -> Tree {
        let mut rng = Rng(seed);
        let ids: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
        let mut lines: Vec<(&str, Option<&str>)> = Vec::with_capacity(n);
        for i in 0..n {
            let parent = match (i, rng.below(100)) {
                (0, _) | (_, 0) => None,
                (_, 1..=84) => Some(i - 1),
                _ => Some(rng.below(i as u64) as usize),
            };
            lines.push((&ids[i], parent.map(|p| ids[p].as_str())));
        }
        tree(&lines)
    }

    #[test]
    fn display_order_on_random_trees() {
        for seed in [1, 2, 3, 0x9e37_79b9_7f4a_7c15] {
            let t = random_tree(seed, 3000);
            let order = display_order(&t, false);
            let n = t.len();
            assert_eq!(order.len(), n);
            let mut position = vec![usize::MAX; n];
            for (i, &ix) in order.iter().enumerate() {
                assert_eq!(position[ix as usize], usize::MAX, "listed twice");
                position[ix as usize] = i;
            }
            // Subtree sizes and newest lines, children before parents.
            let mut size = vec![1usize; n];
            let mut newest: Vec<usize> = (0..n).collect();
            for ix in (0..n).rev() {
                if let Some(p) = t.parent(ix as Ix) {
                    size[p as usize] += size[ix];
                    newest[p as usize] = newest[p as usize].max(newest[ix]);
                }
            }
            // Each child lies in the `size` rows ending at its parent: then
            // every subtree fills exactly those rows, below its descendants.
            for ix in 0..n {
                if let Some(parent) = t.parent(ix as Ix) {
                    let (c, p) = (position[ix], position[parent as usize]);
                    assert!(c < p, "e{ix} drawn below its parent");
                    assert!(p - c < size[parent as usize], "subtree of e{ix} split");
                }
            }
            // Siblings, and roots, newest activity first.
            let mut groups: Vec<Vec<Ix>> = (0..n).map(|ix| t.children(ix as Ix).to_vec()).collect();
            groups.push(t.roots().collect());
            for mut group in groups {
                group.sort_by_key(|&ix| position[ix as usize]);
                for pair in group.windows(2) {
                    assert!(newest[pair[0] as usize] > newest[pair[1] as usize]);
                }
            }
            assert_eq!(t.head(), order.first().copied());
        }
    }

    /// Which of a graph character's strokes reach the rows above and below.
    fn strokes(tree: &Tree, node: Ix, ch: char) -> (bool, bool) {
        match ch {
            '│' | '├' | '┼' => (true, true),
            '╯' => (true, false),
            '@' | '○' | '◆' => (!tree.children(node).is_empty(), tree.parent(node).is_some()),
            _ => (false, false),
        }
    }

    /// A curved drawing in ASCII: the same characters, except that the
    /// corner moves into the gap on its left (`├─╯` is `|/`).
    fn as_ascii(curved: &str) -> String {
        let ascii: String = curved
            .replace("─╯", "/ ")
            .chars()
            .map(|ch| match ch {
                '│' | '├' => '|',
                '─' => '-',
                '┼' => '+',
                '○' => 'o',
                '◆' => '#',
                other => other,
            })
            .collect();
        // Connector lines end at the corner; a node row ends in two spaces.
        if curved.ends_with('╯') {
            ascii.trim_end().to_owned()
        } else {
            ascii
        }
    }

    #[test]
    fn random_trees_draw_connected_lines() {
        // Every stroke leaving a row downwards arrives in the row below, and
        // nothing arrives from nowhere.
        for seed in [7, 8, 9] {
            let t = random_tree(seed, 3000);
            let mut graph = Graph::new(&t, Style::Curved);
            let mut rows: Vec<(Ix, String)> = Vec::new();
            for ix in display_order(&t, false) {
                let row = graph.draw(ix);
                if let Some(connector) = row.connector {
                    assert_eq!(connector.matches('├').count(), 1);
                    assert!(!connector.contains('┼'), "display order never crosses");
                    rows.push((ix, connector));
                }
                let glyphs = row.prefix.chars().filter(|c| "@○◆".contains(*c)).count();
                assert_eq!(glyphs, 1);
                rows.push((ix, row.prefix));
            }
            assert!(graph.layout.columns.is_empty() && graph.layout.join.is_none());

            // ASCII draws the same picture.
            let curved: Vec<String> = rows.iter().map(|(_, text)| as_ascii(text)).collect();
            let mut graph = Graph::new(&t, Style::Ascii);
            let mut ascii = Vec::new();
            for ix in display_order(&t, false) {
                let row = graph.draw(ix);
                ascii.extend(row.connector);
                ascii.push(row.prefix);
            }
            assert_eq!(ascii, curved);

            let mut above: Vec<bool> = Vec::new();
            for (ix, text) in &rows {
                let cells: Vec<(bool, bool)> =
                    text.chars().map(|ch| strokes(&t, *ix, ch)).collect();
                for x in 0..above.len().max(cells.len()) {
                    let down = above.get(x).copied().unwrap_or(false);
                    let up = cells.get(x).is_some_and(|c| c.0);
                    assert_eq!(down, up, "broken line at column {x} of {text:?}");
                }
                above = cells.iter().map(|c| c.1).collect();
            }
            assert!(!above.contains(&true));
        }
    }

    #[test]
    fn deep_linear_tree() {
        let n = 200_000;
        let ids: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
        let lines: Vec<(&str, Option<&str>)> = (0..n)
            .map(|i| (ids[i].as_str(), i.checked_sub(1).map(|p| ids[p].as_str())))
            .collect();
        let t = tree(&lines);
        let order = display_order(&t, false);
        assert!(order.iter().rev().copied().eq(0..n as Ix));
        let mut graph = Graph::new(&t, Style::Curved);
        for &ix in &order {
            let row = graph.draw(ix);
            assert!(row.connector.is_none() && row.prefix.chars().count() == 3);
        }
    }

    #[test]
    fn wide_fork_stays_narrow() {
        // Many rewinds to the same entry: each retry joins as soon as it
        // ends, so the drawing never grows past two columns.
        let n = 20_000;
        let ids: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
        let lines: Vec<(&str, Option<&str>)> = (0..n)
            .map(|i| (ids[i].as_str(), (i > 0).then(|| ids[0].as_str())))
            .collect();
        let t = tree(&lines);
        let mut graph = Graph::new(&t, Style::Curved);
        for ix in display_order(&t, false) {
            let row = graph.draw(ix);
            assert!(row.prefix.chars().count() <= "│ ○  ".chars().count());
        }
    }
}
