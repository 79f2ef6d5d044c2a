//! The tree index: every entry of a session in file order with its parent,
//! children, depth and label, but not its message (that stays in the file;
//! `offset` and `len` say where).

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::entry::MessageKind;

/// Index of an entry in file order.
pub type Ix = u32;

#[derive(Debug, Clone)]
pub struct Node {
    /// Where the id sits in the tree's id text; see [`Tree::id`].
    id_at: usize,
    id_len: u32,
    pub parent: Option<Ix>,
    pub label: Option<Box<str>>,
    pub timestamp: u64,
    pub kind: MessageKind,
    /// 1-based line number.
    pub line: u64,
    /// Byte range of the line in the file.
    pub offset: u64,
    pub len: u64,
    /// Entries on the root→this path, this one included.
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

/// Ids, stored once in one string, found through a hash table of indexes.
#[derive(Debug, Default)]
struct Ids {
    text: String,
    table: HashTable<Ix>,
    hasher: foldhash::fast::RandomState,
}

impl Ids {
    fn get(&self, nodes: &[Node], id: &str) -> Option<Ix> {
        let hash = self.hasher.hash_one(id);
        self.table
            .find(hash, |&ix| self.text_of(&nodes[ix as usize]) == id)
            .copied()
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
        let depth = parent.map_or(1, |p| self.nodes[p as usize].depth.saturating_add(1));
        let id_at = self.ids.text.len();
        self.ids.text.push_str(e.id);
        let text_at = self.text.len();
        let tag = e.tag.unwrap_or_default();
        let subject = e.subject.unwrap_or_default();
        self.text.push_str(tag);
        self.text.push_str(subject);
        self.nodes.push(Node {
            id_at,
            id_len: e.id.len() as u32,
            parent,
            label: e.label.map(Box::from),
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
        let Ids {
            text,
            table,
            hasher,
        } = &mut self.ids;
        let nodes = &self.nodes;
        let key = |ix: &Ix| {
            let n = &nodes[*ix as usize];
            hasher.hash_one(&text[n.id_at..n.id_at + n.id_len as usize])
        };
        table.insert_unique(hasher.hash_one(e.id), ix, key);
        match problem {
            Some(p) => Err(p),
            None => Ok(ix),
        }
    }

    /// The line that defines `id`, if any line does.
    pub fn line_of(&self, id: &str) -> Option<u64> {
        self.ids
            .get(&self.nodes, id)
            .map(|ix| self.nodes[ix as usize].line)
    }

    pub fn finish(self) -> Tree {
        let n = self.nodes.len();
        let mut counts = vec![0u32; n + 1];
        for node in &self.nodes {
            if let Some(p) = node.parent {
                counts[p as usize + 1] += 1;
            }
        }
        for i in 0..n {
            counts[i + 1] += counts[i];
        }
        let mut fill = counts.clone();
        let mut child_list = vec![0; counts[n] as usize];
        for (ix, node) in self.nodes.iter().enumerate() {
            if let Some(p) = node.parent {
                child_list[fill[p as usize] as usize] = ix as Ix;
                fill[p as usize] += 1;
            }
        }
        let mut labels: hashbrown::HashMap<Box<str>, Ix> = hashbrown::HashMap::new();
        for (ix, node) in self.nodes.iter().enumerate() {
            if let Some(label) = &node.label {
                labels.insert(label.clone(), ix as Ix); // file order: newest wins
            }
        }
        let head = n.checked_sub(1).map(|i| i as Ix);
        let mut tree = Tree {
            nodes: self.nodes,
            ids: self.ids,
            text: self.text,
            child_start: counts,
            child_list,
            labels,
            head,
        };
        // A label carried by a ysess record names the entry it hangs from.
        let moved: Vec<(Box<str>, Ix)> = tree
            .labels
            .iter()
            .filter(|&(_, &ix)| tree.is_record(ix))
            .filter_map(|(name, &ix)| Some((name.clone(), tree.visible_parent(ix)?)))
            .collect();
        tree.labels.extend(moved);
        tree
    }
}

/// A whole session's tree.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    ids: Ids,
    text: String,
    child_start: Vec<u32>,
    child_list: Vec<Ix>,
    labels: hashbrown::HashMap<Box<str>, Ix>,
    head: Option<Ix>,
}

impl Tree {
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

    /// Whether an entry is ysess's own bookkeeping: a custom record whose
    /// kind starts with `ysess.`. Commands hide them unless asked.
    pub fn is_record(&self, ix: Ix) -> bool {
        self.node(ix).kind == MessageKind::Custom && crate::records::is_ysess_kind(self.tag(ix))
    }

    /// The nearest ancestor that is not a ysess record.
    pub fn visible_parent(&self, ix: Ix) -> Option<Ix> {
        let mut cursor = self.node(ix).parent;
        while let Some(p) = cursor {
            if !self.is_record(p) {
                return Some(p);
            }
            cursor = self.node(p).parent;
        }
        None
    }

    /// What HEAD names: the entry on the last line or, when that is a ysess
    /// record, the entry it hangs from (the one yoagent resumes to).
    pub fn head_entry(&self) -> Option<Ix> {
        let head = self.head?;
        if self.is_record(head) {
            self.visible_parent(head)
        } else {
            Some(head)
        }
    }

    /// The entry's subject line, when the tree was built with subjects.
    pub fn subject(&self, ix: Ix) -> &str {
        let n = &self.nodes[ix as usize];
        let at = n.text_at + n.tag_len as usize;
        &self.text[at..at + n.subject_len as usize]
    }

    /// The head: the entry on the last line, as yoagent loads it.
    pub fn head(&self) -> Option<Ix> {
        self.head
    }

    /// Children in file order.
    pub fn children(&self, ix: Ix) -> &[Ix] {
        if self.child_start.is_empty() {
            return &[];
        }
        let from = self.child_start[ix as usize] as usize;
        let to = self.child_start[ix as usize + 1] as usize;
        &self.child_list[from..to]
    }

    pub fn roots(&self) -> impl Iterator<Item = Ix> + '_ {
        (0..self.nodes.len() as Ix).filter(|&ix| self.nodes[ix as usize].parent.is_none())
    }

    /// Entries without children, in file order: yoagent's `branch_tips()`.
    pub fn tips(&self) -> impl Iterator<Item = Ix> + '_ {
        (0..self.nodes.len() as Ix).filter(|&ix| self.children(ix).is_empty())
    }

    /// The entry a label names: the last one in file order carrying it, as
    /// yoagent's `seek_checkpoint` picks.
    pub fn label(&self, name: &str) -> Option<Ix> {
        self.labels.get(name).copied()
    }

    /// Label names, sorted.
    pub fn label_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.labels.keys().map(|k| &**k).collect();
        names.sort_unstable();
        names
    }

    /// The path root→`ix`, root first: yoagent's `path_ids()` at that head.
    pub fn path(&self, ix: Ix) -> Vec<Ix> {
        let mut path = Vec::with_capacity(self.node(ix).depth as usize);
        let mut cursor = Some(ix);
        while let Some(c) = cursor {
            path.push(c);
            cursor = self.node(c).parent;
        }
        path.reverse();
        path
    }

    /// Pre-order entry and exit numbers of a depth-first walk, so that
    /// "a is an ancestor of b" is `enter[a] <= enter[b] && exit[b] <= exit[a]`.
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
        (enter, exit)
    }
}
