//! The tree index: every entry of a session in file order with its parent,
//! children, depth and label, but not its message (that stays in the file;
//! `offset` and `len` say where).

mod abbrev;
pub mod graph;

pub use abbrev::MIN_LEN as SHORT_ID_LEN;

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::format::MessageKind;

/// The one rule for what a label names, read from the line that carries
/// it: the entry itself, or, for a ysess record, the entry it hangs from in
/// the file. Of several carriers of a name, the newest names (yoagent's
/// `seek_checkpoint` picks the last).
pub fn label_target<T>(carrier: T, record: bool, parent: Option<T>) -> Option<T> {
    if record { parent } else { Some(carrier) }
}

/// Index of an entry in file order.
pub type Ix = u32;

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
    /// One of ysess's own records ([`crate::format::yoagent::records::is_record`]): folded
    /// out of the user's tree.
    pub record: bool,
    pub label: Option<Box<str>>,
    /// For a format's label change (pi's `label` entries): the entry its
    /// label is set on (an empty label clears it). `None` for a label the
    /// entry carries itself (yoagent's).
    pub label_on: Option<Ix>,
    /// The line names another entry ([`crate::format::LineFacts::target`])
    /// that is not defined before it.
    pub unknown_target: bool,
    pub timestamp: u64,
    pub kind: MessageKind,
    /// 1-based line number.
    pub line: u64,
    /// Byte range of the line in the file.
    pub offset: u64,
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

/// One entry to add, as read from its line.
#[derive(Debug, Clone, Copy)]
pub struct NewEntry<'a> {
    pub id: &'a str,
    pub parent: Option<&'a str>,
    pub label: Option<&'a str>,
    pub timestamp: u64,
    pub kind: MessageKind,
    pub line: u64,
    pub offset: u64,
    pub len: u64,
    /// The model (assistant), the tool (tool result) or the kind (custom
    /// record).
    pub tag: Option<&'a str>,
    /// One line saying what the message is about, when it was asked for.
    pub subject: Option<&'a str>,
    /// The entry is one of ysess's own records.
    pub record: bool,
    /// Another entry the line names ([`crate::format::LineFacts::target`]).
    pub target: Option<&'a str>,
}

/// Why an entry could not join the tree. yoagent refuses the file for each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// The id was already defined on an earlier line.
    DuplicateId { first_line: u64 },
    /// The entry names itself as its parent.
    SelfParent,
    /// The parent is not defined on an earlier line (it may come later, or
    /// never; [`TreeBuilder::line_of`] can tell which once all are in).
    UnknownParent,
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

#[derive(Default)]
pub struct TreeBuilder {
    nodes: Vec<Node>,
    ids: Ids,
    /// Tags and subjects, one after the other.
    text: String,
}

impl TreeBuilder {
    /// Adds the entry of one line. An entry whose parent is unknown still
    /// joins (as a root) so that its own children can be checked; one with a
    /// duplicate id does not.
    pub fn push(&mut self, e: NewEntry<'_>) -> Result<Ix, Link> {
        if let Some(first) = self.ids.get(&self.nodes, e.id) {
            return Err(Link::DuplicateId {
                first_line: self.nodes[first as usize].line,
            });
        }
        let mut problem = None;
        let parent = match e.parent {
            None => None,
            Some(p) if p == e.id => {
                problem = Some(Link::SelfParent);
                None
            }
            Some(p) => {
                let found = self.ids.get(&self.nodes, p);
                if found.is_none() {
                    problem = Some(Link::UnknownParent);
                }
                found
            }
        };
        let ix = Ix::try_from(self.nodes.len()).unwrap_or(Ix::MAX);
        // Parents come before their children, so the user's tree is folded
        // as the entries arrive: a record's children hang from what it hangs
        // from.
        let folded = parent.and_then(|p| {
            let p = &self.nodes[p as usize];
            if p.record { p.parent } else { parent }
        });
        let depth = folded.map_or(0, |p| self.nodes[p as usize].depth) + u32::from(!e.record);
        let id_at = self.ids.text.len();
        self.ids.text.push_str(e.id);
        let text_at = self.text.len();
        let tag = e.tag.unwrap_or_default();
        let subject = e.subject.unwrap_or_default();
        self.text.push_str(tag);
        self.text.push_str(subject);
        let target = e.target.map(|t| self.ids.get(&self.nodes, t));
        self.nodes.push(Node {
            id_at,
            id_len: e.id.len() as u32,
            raw_parent: parent,
            parent: folded,
            record: e.record,
            label: e.label.map(Box::from),
            label_on: target.flatten().filter(|_| e.label.is_some()),
            unknown_target: target.is_some_and(|t| t.is_none()),
            timestamp: e.timestamp,
            kind: e.kind,
            line: e.line,
            offset: e.offset,
            len: e.len,
            depth,
            detached: problem.is_some(),
            text_at,
            tag_len: tag.len() as u32,
            subject_len: subject.len() as u32,
        });
        let hash = self.ids.hasher.hash_one(e.id);
        self.ids
            .table
            .insert_unique(hash, (hash, ix), |&(hash, _)| hash);
        match problem {
            Some(p) => Err(p),
            None => Ok(ix),
        }
    }

    /// The id of an entry's parent in the user's tree (ysess's records
    /// folded out), once it has joined.
    pub fn entry_parent(&self, ix: Ix) -> Option<&str> {
        let parent = self.nodes.get(ix as usize)?.parent?;
        Some(self.ids.text_of(&self.nodes[parent as usize]))
    }

    /// The entry of the user's tree that `id` stands for once joined: the
    /// entry itself, or, for one of ysess's records (or a format's
    /// bookkeeping), the entry it hangs from.
    pub fn user_entry(&self, id: &str) -> Option<Ix> {
        let ix = self.ids.get(&self.nodes, id)?;
        let node = &self.nodes[ix as usize];
        if node.record { node.parent } else { Some(ix) }
    }

    /// The entry `ix` once joined (its kind, and its id through
    /// [`TreeBuilder::id`]).
    pub fn node(&self, ix: Ix) -> &Node {
        &self.nodes[ix as usize]
    }

    /// An entry's parent in the user's tree, once it has joined.
    pub fn user_parent(&self, ix: Ix) -> Option<Ix> {
        self.nodes.get(ix as usize)?.parent
    }

    /// Entries joined so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no entry has joined yet.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The id of an entry that has joined.
    pub fn id(&self, ix: Ix) -> &str {
        self.ids.text_of(&self.nodes[ix as usize])
    }

    /// The line that defines `id`, if any line does.
    pub fn line_of(&self, id: &str) -> Option<u64> {
        self.ids
            .get(&self.nodes, id)
            .map(|ix| self.nodes[ix as usize].line)
    }

    pub fn finish(self) -> Tree {
        let raw = Children::of(&self.nodes, |_, n| n.raw_parent);
        let user = Children::of(&self.nodes, |_, n| n.parent.filter(|_| !n.record));
        // The nearest ancestor where the user's tree forks, for each entry:
        // one pass in file order, parents first.
        let mut fork_above: Vec<Option<Ix>> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let above = node.parent.and_then(|p| {
                if user.of_entry(p).len() > 1 {
                    Some(p)
                } else {
                    fork_above[p as usize]
                }
            });
            fork_above.push(above);
        }
        let mut labels: hashbrown::HashMap<Box<str>, Ix> = hashbrown::HashMap::new();
        // pi's rule: one label per entry, the newest change wins.
        let mut on_entry: hashbrown::HashMap<Ix, (Ix, Box<str>)> = hashbrown::HashMap::new();
        for (ix, node) in self.nodes.iter().enumerate() {
            let Some(label) = &node.label else {
                continue;
            };
            if node.unknown_target {
                continue; // a label change for an entry that is not there
            }
            if let Some(on) = node.label_on {
                if label.is_empty() {
                    on_entry.remove(&on);
                } else {
                    on_entry.insert(on, (ix as Ix, label.clone()));
                }
                continue;
            }
            // File order: the newest carrier wins.
            match label_target(ix as Ix, node.record, node.parent) {
                Some(named) => labels.insert(label.clone(), named),
                None => labels.remove(label),
            };
        }
        // A name on several entries names the one labelled last.
        let mut set: Vec<(Ix, Ix, Box<str>)> = on_entry
            .into_iter()
            .map(|(on, (at, name))| (at, on, name))
            .collect();
        set.sort_unstable();
        let mut by_entry: hashbrown::HashMap<Ix, Vec<Box<str>>> = hashbrown::HashMap::new();
        for (_, on, name) in set {
            by_entry.entry(on).or_default().push(name.clone());
            labels.insert(name, on);
        }
        for (name, &on) in &labels {
            if !by_entry.get(&on).is_some_and(|names| names.contains(name)) {
                by_entry.entry(on).or_default().push(name.clone());
            }
        }
        for names in by_entry.values_mut() {
            names.sort_unstable();
        }
        // The entry on the last line: the last joined, unless a format
        // joined an entry after the ones it hangs below (Claude Code's
        // parents may come later in the file).
        let last = (0..self.nodes.len() as Ix).max_by_key(|&ix| self.nodes[ix as usize].line);
        // A bookkeeping line that hangs from nothing (a format's own, whose
        // parent is in another file) resumes nowhere: the newest entry does.
        let head = last.and_then(|l| {
            let node = &self.nodes[l as usize];
            match (node.record, node.parent) {
                (false, _) => Some(l),
                (true, Some(p)) => Some(p),
                (true, None) => (0..self.nodes.len() as Ix)
                    .filter(|&ix| !self.nodes[ix as usize].record)
                    .max_by_key(|&ix| self.nodes[ix as usize].line),
            }
        });
        Tree {
            nodes: self.nodes,
            ids: self.ids,
            text: self.text,
            raw,
            user,
            fork_above,
            labels,
            by_entry,
            last,
            head,
            abbrev: abbrev::Abbrev::default(),
        }
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

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, ix: Ix) -> &Node {
        &self.nodes[ix as usize]
    }

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
