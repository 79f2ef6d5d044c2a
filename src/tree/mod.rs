//! The tree index: every entry of a session in file order with its parent,
//! children, depth and label, but not its message (that stays in the file;
//! `offset` and `len` say where).

pub mod abbrev;
mod build;
pub mod graph;
mod kind;

pub use build::{Link, NewEntry, TreeBuilder};
pub use kind::MessageKind;

pub use abbrev::MIN_LEN as SHORT_ID_LEN;

use std::hash::BuildHasher;

use hashbrown::HashTable;

/// The one rule for what a label names, read from the line that carries
/// it: the entry itself, or, for a ysess record, the entry it hangs from in
/// the file. Of several carriers of a name, the newest names (yoagent's
/// `seek_checkpoint` picks the last).
pub fn label_target<T>(carrier: T, record: bool, parent: Option<T>) -> Option<T> {
    if record { parent } else { Some(carrier) }
}

/// Index of an entry in file order.
pub type Ix = u32;

/// One line's entry in the index.
#[derive(Debug, Clone)]
pub struct Node {
    /// Where the id sits in the tree's id text; see [`Tree::id`].
    id_at: usize,
    id_len: u32,
    /// The parent as the file names it, ysess's records included.
    raw_parent: Option<Ix>,
    /// The parent in the user's tree: the nearest ancestor that is not one
    /// of ysess's records.
    parent: Option<Ix>,
    /// One of ysess's own records ([`crate::format::records::is_record`]): folded
    /// out of the user's tree.
    pub record: bool,
    /// The label the line carries.
    pub label: Option<Box<str>>,
    /// For a format's label change (pi's `label` entries): the entry its
    /// label is set on (an empty label clears it). `None` for a label the
    /// entry carries itself (yoagent's).
    pub label_on: Option<Ix>,
    /// The line names another entry ([`crate::format::LineFacts::target`])
    /// that is not defined before it.
    pub unknown_target: bool,
    /// Milliseconds since the epoch; 0 when the line has none.
    pub timestamp: u64,
    /// What kind of message it carries.
    pub kind: MessageKind,
    /// 1-based line number.
    pub line: u64,
    /// Byte range of the line in the file.
    pub offset: u64,
    /// The line's length in bytes (from `offset`).
    pub len: u64,
    /// Entries of the user's tree on the root→this path, this one included
    /// (ysess's records are not counted; a record has its parent's depth).
    pub depth: u32,
    /// The entry names a parent that could not be linked (an error); it
    /// stands in the tree as a root so its own children can be checked.
    pub detached: bool,
    /// Where the tag and the subject sit in the tree's text; see
    /// [`Tree::tag`] and [`Tree::subject`].
    text_at: usize,
    tag_len: u32,
    subject_len: u32,
}

/// Ids, stored once in one string, found through a hash table of indexes,
/// each kept with its id's hash: growing the table then moves hashes
/// without reading an id again, and a lookup reads the id only when the
/// whole hash matches.
#[derive(Debug, Default)]
struct Ids {
    text: String,
    table: HashTable<(u64, Ix)>,
    hasher: foldhash::fast::RandomState,
}

impl Ids {
    fn get(&self, nodes: &[Node], id: &str) -> Option<Ix> {
        let hash = self.hasher.hash_one(id);
        self.table
            .find(hash, |&(h, ix)| {
                h == hash && self.text_of(&nodes[ix as usize]) == id
            })
            .map(|&(_, ix)| ix)
    }

    fn text_of(&self, node: &Node) -> &str {
        &self.text[node.id_at..node.id_at + node.id_len as usize]
    }
}

/// Children of every entry, in file order, in one flat list.
#[derive(Debug, Default)]
struct Children {
    start: Vec<u32>,
    list: Vec<Ix>,
}

impl Children {
    fn of(nodes: &[Node], parent: impl Fn(Ix, &Node) -> Option<Ix>) -> Children {
        let n = nodes.len();
        let mut start = vec![0u32; n + 1];
        for (ix, node) in nodes.iter().enumerate() {
            if let Some(p) = parent(ix as Ix, node) {
                start[p as usize + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut list = vec![0; start[n] as usize];
        for (ix, node) in nodes.iter().enumerate() {
            if let Some(p) = parent(ix as Ix, node) {
                list[fill[p as usize] as usize] = ix as Ix;
                fill[p as usize] += 1;
            }
        }
        Children { start, list }
    }

    fn of_entry(&self, ix: Ix) -> &[Ix] {
        match self.start.get(ix as usize..ix as usize + 2) {
            Some(&[from, to]) => &self.list[from as usize..to as usize],
            _ => &[],
        }
    }
}

/// A whole session's tree.
///
/// Every question a person asks of the tree (parent, children, depth, roots,
/// tips, HEAD, path, fork point, branch length) is answered here on the
/// user's tree: ysess's own records folded out, each record's children
/// hanging from what the record hangs from. Adding records never changes
/// those answers for the user's entries. The file's own shape, records
/// included, stays available through the `raw_` methods and [`Tree::last`],
/// for the checks and for writing.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    ids: Ids,
    text: String,
    raw: Children,
    user: Children,
    fork_above: Vec<Option<Ix>>,
    labels: hashbrown::HashMap<Box<str>, Ix>,
    /// The labels that name each entry, sorted.
    by_entry: hashbrown::HashMap<Ix, Vec<Box<str>>>,
    last: Option<Ix>,
    head: Option<Ix>,
    abbrev: abbrev::Abbrev,
}

impl Tree {
    /// Entries in the file, ysess's records included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the file holds no entry.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Entry `ix`.
    pub fn node(&self, ix: Ix) -> &Node {
        &self.nodes[ix as usize]
    }

    /// Every entry, in file order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Every entry of the user's tree, in file order.
    pub fn entries(&self) -> impl Iterator<Item = Ix> + '_ {
        (0..self.nodes.len() as Ix).filter(|&ix| !self.nodes[ix as usize].record)
    }

    /// The entry with this id, ysess's records included.
    pub fn find(&self, id: &str) -> Option<Ix> {
        self.ids.get(&self.nodes, id)
    }

    /// The id of an entry.
    pub fn id(&self, ix: Ix) -> &str {
        self.ids.text_of(&self.nodes[ix as usize])
    }

    /// The model of an assistant message, the tool of a tool result, the
    /// kind of a custom record; empty when unknown.
    pub fn tag(&self, ix: Ix) -> &str {
        let n = &self.nodes[ix as usize];
        &self.text[n.text_at..n.text_at + n.tag_len as usize]
    }

    /// Whether an entry is one of ysess's own records, which the user's
    /// tree folds out.
    pub fn is_record(&self, ix: Ix) -> bool {
        self.node(ix).record
    }

    /// The parent in the user's tree: the nearest ancestor that is not a
    /// ysess record.
    pub fn parent(&self, ix: Ix) -> Option<Ix> {
        self.node(ix).parent
    }

    /// The parent the file names, which may be a ysess record.
    pub fn raw_parent(&self, ix: Ix) -> Option<Ix> {
        self.node(ix).raw_parent
    }

    /// HEAD: the entry on the last line or, when that is a ysess record, the
    /// entry it hangs from (the one yoagent resumes to).
    pub fn head(&self) -> Option<Ix> {
        self.head
    }

    /// The entry on the last line, as yoagent loads it: where an append
    /// hangs its first entry.
    pub fn last(&self) -> Option<Ix> {
        self.last
    }

    /// The entry's subject line, when the tree was built with subjects.
    pub fn subject(&self, ix: Ix) -> &str {
        let n = &self.nodes[ix as usize];
        let at = n.text_at + n.tag_len as usize;
        &self.text[at..at + n.subject_len as usize]
    }

    /// Children in the user's tree, in file order.
    pub fn children(&self, ix: Ix) -> &[Ix] {
        self.user.of_entry(ix)
    }

    /// Children as the file has them, ysess's records included.
    pub fn raw_children(&self, ix: Ix) -> &[Ix] {
        self.raw.of_entry(ix)
    }

    /// Entries of the user's tree with no parent.
    pub fn roots(&self) -> impl Iterator<Item = Ix> + '_ {
        self.entries()
            .filter(|&ix| self.nodes[ix as usize].parent.is_none())
    }

    /// Entries of the user's tree without children there, in file order:
    /// yoagent's `branch_tips()` with ysess's records folded out.
    pub fn tips(&self) -> impl Iterator<Item = Ix> + '_ {
        self.entries().filter(|&ix| self.children(ix).is_empty())
    }

    /// The nearest entry above `ix` where the user's tree forks (has more
    /// than one child): where the branch ending at `ix` left another.
    pub fn fork_point(&self, ix: Ix) -> Option<Ix> {
        self.fork_above[ix as usize]
    }

    /// Entries from below the fork point down to `ix`: how long the branch
    /// ending at `ix` is on its own.
    pub fn branch_length(&self, ix: Ix) -> u32 {
        let fork = self.fork_point(ix).map_or(0, |f| self.node(f).depth);
        self.node(ix).depth - fork
    }

    /// The entry a label names: the last one in file order carrying it, as
    /// yoagent's `seek_checkpoint` picks.
    pub fn label(&self, name: &str) -> Option<Ix> {
        self.labels.get(name).copied()
    }

    /// The labels that name an entry, sorted: yoagent's newest carrier of
    /// each name, pi's one label per entry (a name pi set on several
    /// entries names each of them here, and the last labelled in revisions).
    pub fn labels_of(&self, ix: Ix) -> &[Box<str>] {
        self.by_entry.get(&ix).map_or(&[], Vec::as_slice)
    }

    /// Every (label, entry it names), sorted by label, then file order.
    pub fn label_pairs(&self) -> Vec<(&str, Ix)> {
        let mut pairs: Vec<(&str, Ix)> = self
            .by_entry
            .iter()
            .flat_map(|(&ix, names)| names.iter().map(move |n| (&**n, ix)))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    /// Label names, sorted.
    pub fn label_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.labels.keys().map(|k| &**k).collect();
        names.sort_unstable();
        names
    }

    /// The path root→`ix` in the user's tree, root first: yoagent's
    /// `path_ids()` at that head, less ysess's records. A record's path ends
    /// at the entry it hangs from.
    pub fn path(&self, ix: Ix) -> Vec<Ix> {
        self.walk(ix, |t, ix| t.parent(ix), false)
    }

    /// The path root→`ix` as the file has it, ysess's records included.
    pub fn raw_path(&self, ix: Ix) -> Vec<Ix> {
        self.walk(ix, |t, ix| t.raw_parent(ix), true)
    }

    fn walk(&self, ix: Ix, up: impl Fn(&Tree, Ix) -> Option<Ix>, records: bool) -> Vec<Ix> {
        let mut path = Vec::with_capacity(self.node(ix).depth as usize + 1);
        let mut cursor = if records || !self.is_record(ix) {
            Some(ix)
        } else {
            self.parent(ix)
        };
        while let Some(c) = cursor {
            path.push(c);
            cursor = up(self, c);
        }
        path.reverse();
        path
    }

    /// Whether `a` is `b` or an ancestor of it in the user's tree. Costs the
    /// difference of their depths.
    pub fn is_ancestor(&self, a: Ix, b: Ix) -> bool {
        let depth = self.node(a).depth;
        let mut cursor = Some(b);
        while let Some(c) = cursor {
            if c == a {
                return true;
            }
            if self.node(c).depth < depth {
                return false;
            }
            cursor = self.parent(c);
        }
        false
    }

    /// Pre-order entry and exit numbers of a depth-first walk of the user's
    /// tree, so that "a is an ancestor of b" is
    /// `enter[a] <= enter[b] && exit[b] <= exit[a]`. A record gets the
    /// numbers of the entry it hangs from.
    pub fn intervals(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.nodes.len();
        let mut enter = vec![0; n];
        let mut exit = vec![0; n];
        let mut clock = 0u32;
        let mut stack: Vec<(Ix, usize)> = Vec::new();
        for root in self.roots() {
            stack.push((root, 0));
            enter[root as usize] = clock;
            clock += 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                match self.children(node).get(*next) {
                    Some(&child) => {
                        *next += 1;
                        enter[child as usize] = clock;
                        clock += 1;
                        stack.push((child, 0));
                    }
                    None => {
                        exit[node as usize] = clock;
                        stack.pop();
                    }
                }
            }
        }
        for (ix, node) in self.nodes.iter().enumerate() {
            if let (true, Some(p)) = (node.record, node.parent) {
                enter[ix] = enter[p as usize];
                exit[ix] = exit[p as usize];
            }
        }
        (enter, exit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(id: &'a str, parent: Option<&'a str>, record: bool, line: u64) -> NewEntry<'a> {
        NewEntry {
            id,
            parent,
            label: None,
            timestamp: 0,
            kind: if record {
                MessageKind::Custom
            } else {
                MessageKind::User
            },
            line,
            offset: 0,
            len: 0,
            tag: None,
            subject: None,
            record,
            target: None,
        }
    }

    use crate::testing::Rng;

    /// What a person asks of the tree, by id.
    #[derive(Debug, PartialEq)]
    struct View {
        entries: Vec<(String, Option<String>, Vec<String>, u32)>,
        roots: Vec<String>,
        tips: Vec<String>,
        forks: Vec<(String, Option<String>, u32)>,
        head: Option<String>,
        paths: Vec<Vec<String>>,
    }

    fn view(t: &Tree) -> View {
        let id = |ix: Ix| t.id(ix).to_string();
        View {
            entries: t
                .entries()
                .map(|ix| {
                    (
                        id(ix),
                        t.parent(ix).map(id),
                        t.children(ix).iter().map(|&c| id(c)).collect(),
                        t.node(ix).depth,
                    )
                })
                .collect(),
            roots: t.roots().map(id).collect(),
            tips: t.tips().map(id).collect(),
            forks: t
                .tips()
                .map(|tip| (id(tip), t.fork_point(tip).map(id), t.branch_length(tip)))
                .collect(),
            head: t.head().map(id),
            paths: t
                .tips()
                .map(|tip| t.path(tip).into_iter().map(id).collect())
                .collect(),
        }
    }

    #[test]
    fn adding_records_never_changes_the_users_tree() {
        for seed in 1..40u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            // The user's entries, each below an earlier one (or a root now
            // and then); in the file with records, any entry may instead hang
            // below a record that hangs (through more records, maybe) from
            // the entry the user's tree has as its parent.
            let n = 5 + rng.below(60) as usize;
            let mut plain: Vec<(String, Option<String>)> = Vec::new();
            let mut file: Vec<(String, Option<String>, bool)> = Vec::new();
            let mut records = 0;
            for i in 0..n {
                let parent = match (i, rng.below(20)) {
                    (0, _) | (_, 0) => None,
                    _ => Some(plain[rng.below(i as u64) as usize].0.clone()),
                };
                let mut hang = parent.clone();
                if let Some(p) = &parent {
                    for _ in 0..rng.below(3) {
                        records += 1;
                        let r = format!("r{records}");
                        file.push((r.clone(), Some(hang.clone().unwrap_or(p.clone())), true));
                        hang = Some(r);
                    }
                }
                // Records with nothing below them, too.
                if rng.below(4) == 0 && !plain.is_empty() {
                    records += 1;
                    let at = plain[rng.below(plain.len() as u64) as usize].0.clone();
                    file.push((format!("r{records}"), Some(at), true));
                }
                let id = format!("e{}", i + 1);
                file.push((id.clone(), hang, false));
                plain.push((id, parent));
            }
            // A record as the last line: HEAD is the entry it hangs from.
            if rng.below(2) == 0 {
                let at = plain[rng.below(plain.len() as u64) as usize].0.clone();
                file.push(("rlast".into(), Some(at), true));
            }
            let build = |lines: Vec<(&str, Option<&str>, bool)>| {
                let mut b = TreeBuilder::default();
                for (k, (id, parent, record)) in lines.into_iter().enumerate() {
                    b.push(entry(id, parent, record, k as u64 + 1))
                        .expect("valid");
                }
                b.finish()
            };
            let with = build(
                file.iter()
                    .map(|(i, p, r)| (i.as_str(), p.as_deref(), *r))
                    .collect(),
            );
            let without = build(
                plain
                    .iter()
                    .map(|(i, p)| (i.as_str(), p.as_deref(), false))
                    .collect(),
            );
            let mut expected = view(&without);
            if file.last().is_some_and(|l| l.2) {
                // HEAD follows the last line's record to the entry below it.
                let at = file.last().and_then(|l| l.1.clone());
                expected.head = at;
            }
            assert_eq!(view(&with), expected, "seed {seed}");
        }
    }

    #[test]
    fn fork_point_and_length_of_200000_siblings_are_linear() {
        let ids: Vec<String> = (0..200_001).map(|i| format!("e{i}")).collect();
        let mut b = TreeBuilder::default();
        b.push(entry(&ids[0], None, false, 1)).expect("root");
        for (k, id) in ids.iter().enumerate().skip(1) {
            b.push(entry(id, Some(&ids[0]), false, k as u64 + 1))
                .expect("child");
        }
        let t = b.finish();
        assert_eq!(t.tips().count(), 200_000);
        assert!(
            t.tips()
                .all(|tip| t.fork_point(tip) == Some(0) && t.branch_length(tip) == 1)
        );
    }
}
