//! The tree index: every entry of a session in file order with its parent,
//! children, depth and label, but not its message (that stays in the file;
//! `offset` and `len` say where).

use std::collections::HashMap;

use crate::entry::{LineFacts, MessageKind};

/// Index of an entry in file order.
pub type Ix = u32;

#[derive(Debug, Clone)]
pub struct Node {
    pub id: Box<str>,
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
}

/// Why an entry could not join the tree. yoagent refuses the file for each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// The id was already defined on an earlier line.
    DuplicateId { first_line: u64 },
    /// The entry names itself as its parent.
    SelfParent,
    /// The parent is not defined on an earlier line (it may come later, or
    /// never; [`TreeBuilder::finish`] can tell which).
    UnknownParent { parent: String },
}

#[derive(Default)]
pub struct TreeBuilder {
    nodes: Vec<Node>,
    by_id: HashMap<Box<str>, Ix>,
}

impl TreeBuilder {
    /// Adds the entry of one line. An entry whose parent is unknown still
    /// joins (as a root) so that its own children can be checked; one with a
    /// duplicate id does not.
    pub fn push(
        &mut self,
        facts: &LineFacts<'_>,
        line: u64,
        offset: u64,
        len: u64,
    ) -> Result<Ix, Link> {
        if let Some(&first) = self.by_id.get(&*facts.id) {
            return Err(Link::DuplicateId {
                first_line: self.nodes[first as usize].line,
            });
        }
        let mut problem = None;
        let parent = match facts.parent.as_deref() {
            None => None,
            Some(p) if p == facts.id => {
                problem = Some(Link::SelfParent);
                None
            }
            Some(p) => match self.by_id.get(p) {
                Some(&ix) => Some(ix),
                None => {
                    problem = Some(Link::UnknownParent {
                        parent: p.to_string(),
                    });
                    None
                }
            },
        };
        let ix = Ix::try_from(self.nodes.len()).unwrap_or(Ix::MAX);
        let depth = parent.map_or(1, |p| self.nodes[p as usize].depth.saturating_add(1));
        self.by_id
            .insert(facts.id.clone().into_owned().into_boxed_str(), ix);
        self.nodes.push(Node {
            id: facts.id.clone().into_owned().into_boxed_str(),
            parent,
            label: facts.label.as_deref().map(Box::from),
            timestamp: facts.timestamp,
            kind: facts.kind,
            line,
            offset,
            len,
            depth,
            detached: problem.is_some(),
        });
        match problem {
            Some(p) => Err(p),
            None => Ok(ix),
        }
    }

    /// The line that defines `id`, if any line does.
    pub fn line_of(&self, id: &str) -> Option<u64> {
        self.by_id.get(id).map(|&ix| self.nodes[ix as usize].line)
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
        let mut labels: HashMap<Box<str>, Ix> = HashMap::new();
        for (ix, node) in self.nodes.iter().enumerate() {
            if let Some(label) = &node.label {
                labels.insert(label.clone(), ix as Ix); // file order: newest wins
            }
        }
        let head = n.checked_sub(1).map(|i| i as Ix);
        Tree {
            nodes: self.nodes,
            by_id: self.by_id,
            child_start: counts,
            child_list,
            labels,
            head,
        }
    }
}

/// A whole session's tree.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    by_id: HashMap<Box<str>, Ix>,
    child_start: Vec<u32>,
    child_list: Vec<Ix>,
    labels: HashMap<Box<str>, Ix>,
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
        self.by_id.get(id).copied()
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
