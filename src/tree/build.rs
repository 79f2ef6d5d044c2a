//! Building the tree index line by line, as a file is read:
//! [`TreeBuilder`].

use super::*;

/// One entry to add, as read from its line.
#[derive(Debug, Clone, Copy)]
pub struct NewEntry<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its parent's id; `None` for a root.
    pub parent: Option<&'a str>,
    /// The label the line carries.
    pub label: Option<&'a str>,
    /// Milliseconds since the epoch.
    pub timestamp: u64,
    /// What kind of message it carries.
    pub kind: MessageKind,
    /// Its line in the file, from 1.
    pub line: u64,
    /// Where the line starts in the file, in bytes.
    pub offset: u64,
    /// The line's length in bytes.
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
    DuplicateId {
        /// The line that defined it first.
        first_line: u64,
    },
    /// The entry names itself as its parent.
    SelfParent,
    /// The parent is not defined on an earlier line (it may come later, or
    /// never; [`TreeBuilder::line_of`] can tell which once all are in).
    UnknownParent,
}

impl Tree {
    /// The tree with `more` entries joined after its own (ysess's records
    /// kept beside an app's file, [`crate::refs::store`]): each entry's
    /// `line` places it among the file's lines for HEAD (a record after the
    /// line it was written after, ahead of the lines the app wrote since).
    /// What became of each, in order.
    pub fn extended<'a>(
        self,
        more: impl IntoIterator<Item = NewEntry<'a>>,
    ) -> (Tree, Vec<Result<Ix, Link>>) {
        let mut builder = TreeBuilder {
            nodes: self.nodes,
            ids: self.ids,
            text: self.text,
        };
        let joined = more.into_iter().map(|e| builder.push(e)).collect();
        (builder.finish(), joined)
    }
}

/// Builds a [`Tree`] one entry at a time, in file order.
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

    /// Entry `ix` restated by a later line of the same id (Gemini CLI
    /// rewrites a message as it goes on: its tool calls, its tokens): the
    /// entry stays where it is in the tree and reads from `e`'s line.
    pub fn restate(&mut self, ix: Ix, e: NewEntry<'_>) {
        let text_at = self.text.len();
        let tag = e.tag.unwrap_or_default();
        let subject = e.subject.unwrap_or_default();
        self.text.push_str(tag);
        self.text.push_str(subject);
        let node = &mut self.nodes[ix as usize];
        node.timestamp = e.timestamp;
        node.kind = e.kind;
        node.line = e.line;
        node.offset = e.offset;
        node.len = e.len;
        node.text_at = text_at;
        node.tag_len = tag.len() as u32;
        node.subject_len = subject.len() as u32;
    }

    /// The entry `id` names, once joined.
    pub fn find(&self, id: &str) -> Option<Ix> {
        self.ids.get(&self.nodes, id)
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

    /// The tree, with its children, depths and labels worked out.
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
